/* C entry points of the `ttg`/`ttng` dialect shim: registration, accessors
 * of the layout encodings and memory descriptors (no allocation, no logic),
 * and the slot for the Rust encoding verifier. */
#ifndef TTG_C_TRITONGPU_H
#define TTG_C_TRITONGPU_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TritonGPU, ttg);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TritonNvidiaGPU, ttng);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(NVGPU, nvg);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TritonInstrument, tti);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(NVWS, nvws);

/* !nvws.aref<[types]>: the number of its buffers and the type of buffer
 * `index` (< the number). */
MLIR_CAPI_EXPORTED bool nvwsTypeIsAAref(MlirType type);
MLIR_CAPI_EXPORTED intptr_t nvwsArefTypeGetNumBaseTypes(MlirType type);
MLIR_CAPI_EXPORTED MlirType nvwsArefTypeGetBaseType(MlirType type,
                                                    intptr_t index);

enum TtgEncodingKind {
  TTG_ENC_NONE = 0,
  TTG_ENC_BLOCKED = 1,
  TTG_ENC_SLICE = 2,
  TTG_ENC_DOT_OPERAND = 3,
  TTG_ENC_NVIDIA_MMA = 4,
  TTG_ENC_LINEAR = 5,
  TTG_ENC_AMD_MFMA = 6,
  TTG_ENC_AMD_WMMA = 7,
  TTG_ENC_SWIZZLED_SHARED = 10,
  TTG_ENC_NVMMA_SHARED = 11,
  TTG_ENC_SHARED_LINEAR = 12,
  TTG_ENC_PADDED_SHARED = 13,
  TTG_ENC_AMD_ROTATING_SHARED = 14,
  TTG_ENC_TENSOR_MEMORY = 15,
  TTG_ENC_TENSOR_MEMORY_SCALES = 16,
  TTG_SPACE_SHARED_MEMORY = 20,
  TTG_SPACE_TENSOR_MEMORY = 21,
};

/* A borrowed array of unsigned parameters (points into the attribute). */
typedef struct {
  const unsigned *data;
  intptr_t size;
} TtgUnsignedArray;

/* Emits one error message while an encoding is being verified. */
typedef void (*TtgEmitFn)(void *user, MlirStringRef message);
/* Checks an encoding's rules; returns non-zero when valid, otherwise calls
 * `emit` at least once. Must not unwind. */
typedef int (*TtgEncodingVerifyCallback)(MlirAttribute attr, TtgEmitFn emit,
                                         void *user);

MLIR_CAPI_EXPORTED void ttgShimSetEncodingVerifyCallback(TtgEncodingVerifyCallback cb);

/* Checks the parameters of a #ttng.tensor_memory_encoding (blockM, blockN,
 * colStride, CTASplitM, CTASplitN, twoCTAs) before it is built; same
 * contract as TtgEncodingVerifyCallback. */
typedef int (*TtgTensorMemoryVerifyCallback)(const unsigned *params,
                                             intptr_t count, TtgEmitFn emit,
                                             void *user);
MLIR_CAPI_EXPORTED void
ttgShimSetTensorMemoryVerifyCallback(TtgTensorMemoryVerifyCallback cb);

MLIR_CAPI_EXPORTED int ttgEncodingKind(MlirAttribute attr);

/* #ttg.blocked: field 0 sizePerThread, 1 threadsPerWarp, 2 warpsPerCTA,
 * 3 order. */
MLIR_CAPI_EXPORTED TtgUnsignedArray ttgBlockedGetField(MlirAttribute attr, int field);
/* The CGA layout bases of an encoding, or a null attribute. */
MLIR_CAPI_EXPORTED MlirAttribute ttgEncodingGetCGALayout(MlirAttribute attr);

MLIR_CAPI_EXPORTED unsigned ttgSliceGetDim(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute ttgSliceGetParent(MlirAttribute attr);

MLIR_CAPI_EXPORTED unsigned ttgDotOperandGetOpIdx(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute ttgDotOperandGetParent(MlirAttribute attr);
MLIR_CAPI_EXPORTED unsigned ttgDotOperandGetKWidth(MlirAttribute attr);

MLIR_CAPI_EXPORTED unsigned ttgNvidiaMmaGetVersionMajor(MlirAttribute attr);
MLIR_CAPI_EXPORTED unsigned ttgNvidiaMmaGetVersionMinor(MlirAttribute attr);
MLIR_CAPI_EXPORTED TtgUnsignedArray ttgNvidiaMmaGetWarpsPerCTA(MlirAttribute attr);
MLIR_CAPI_EXPORTED TtgUnsignedArray ttgNvidiaMmaGetInstrShape(MlirAttribute attr);

/* #ttg.amd_mfma: field 0 version, 1 isTransposed, 2 elementBitWidth;
 * arrays 0 warpsPerCTA, 1 instrShape, 2 tilesPerWarp. */
MLIR_CAPI_EXPORTED unsigned ttgAmdMfmaGetField(MlirAttribute attr, int field);
MLIR_CAPI_EXPORTED TtgUnsignedArray ttgAmdMfmaGetArray(MlirAttribute attr, int field);

/* #ttg.amd_wmma: field 0 version, 1 isTransposed; arrays 0 warpsPerCTA,
 * 1 tilesPerWarp, 2 instrShape. */
MLIR_CAPI_EXPORTED unsigned ttgAmdWmmaGetField(MlirAttribute attr, int field);
MLIR_CAPI_EXPORTED TtgUnsignedArray ttgAmdWmmaGetArray(MlirAttribute attr, int field);

/* #ttg.linear: field 0 register, 1 lane, 2 warp, 3 block (ArrayAttr of
 * ArrayAttr of integers). */
MLIR_CAPI_EXPORTED MlirAttribute ttgLinearGetBases(MlirAttribute attr, int field);

/* #ttg.swizzled_shared: field 0 vec, 1 perPhase, 2 maxPhase. */
MLIR_CAPI_EXPORTED unsigned ttgSwizzledSharedGetField(MlirAttribute attr, int field);
MLIR_CAPI_EXPORTED TtgUnsignedArray ttgSwizzledSharedGetOrder(MlirAttribute attr);

/* #ttg.amd_rotating_shared: field 0 vec, 1 perPhase, 2 maxPhase. */
MLIR_CAPI_EXPORTED unsigned ttgAmdRotatingSharedGetField(MlirAttribute attr, int field);
MLIR_CAPI_EXPORTED TtgUnsignedArray ttgAmdRotatingSharedGetOrder(MlirAttribute attr);

/* #ttg.nvmma_shared: field 0 swizzlingByteWidth, 1 transposed,
 * 2 elementBitWidth, 3 fp4Padded, 4 rank. */
MLIR_CAPI_EXPORTED unsigned ttgNVMMASharedGetField(MlirAttribute attr, int field);

/* #ttg.shared_linear: field 0 offset bases, 1 block bases. */
MLIR_CAPI_EXPORTED MlirAttribute ttgSharedLinearGetBases(MlirAttribute attr, int field);
MLIR_CAPI_EXPORTED unsigned ttgSharedLinearGetAlignment(MlirAttribute attr);

/* #ttg.padded_shared: field 0 intervals, 1 paddings. The layout
 * dictionary's entries: field 0 `offset`, 1 `block`, 2 `order`, 3 `shape`
 * (null when absent). */
MLIR_CAPI_EXPORTED TtgUnsignedArray ttgPaddedSharedGetField(MlirAttribute attr, int field);
MLIR_CAPI_EXPORTED MlirAttribute ttgPaddedSharedGetLayoutField(MlirAttribute attr, int field);

/* #ttng.tensor_memory_encoding: field 0 blockM, 1 blockN, 2 colStride,
 * 3 CTASplitM, 4 CTASplitN, 5 twoCTAs. #ttng.tensor_memory_scales_encoding:
 * field 3 CTASplitM, 4 CTASplitN (others 0). */
MLIR_CAPI_EXPORTED unsigned ttngTensorMemoryGetField(MlirAttribute attr, int field);

/* !ttg.async.token */
MLIR_CAPI_EXPORTED bool ttgTypeIsAAsyncToken(MlirType type);

/* !ttg.memdesc */
MLIR_CAPI_EXPORTED bool ttgTypeIsAMemDesc(MlirType type);
MLIR_CAPI_EXPORTED MlirAttribute ttgMemDescGetEncoding(MlirType type);
MLIR_CAPI_EXPORTED MlirAttribute ttgMemDescGetMemorySpace(MlirType type);
MLIR_CAPI_EXPORTED bool ttgMemDescIsMutable(MlirType type);
/* field 0 shape, 1 allocShape; returns the rank and writes the pointer. */
MLIR_CAPI_EXPORTED intptr_t ttgMemDescGetDims(MlirType type, int field,
                                              const int64_t **dims);
MLIR_CAPI_EXPORTED MlirType ttgMemDescGetElementType(MlirType type);
/* !ttg.memdesc<shape x element, encoding, memorySpace[, mutable][, alloc]>. */
MLIR_CAPI_EXPORTED MlirType ttgMemDescTypeGet(intptr_t rank,
                                              const int64_t *shape,
                                              MlirType element,
                                              MlirAttribute encoding,
                                              MlirAttribute memorySpace,
                                              bool mutableMemory,
                                              intptr_t allocRank,
                                              const int64_t *allocShape);

#ifdef __cplusplus
}
#endif

#endif /* TTG_C_TRITONGPU_H */
