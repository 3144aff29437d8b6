/* C entry points of the `tt` dialect shim, used by the Rust crate
 * `tt-dialect` (and by the ttg shim). Everything here is glue: dialect
 * registration, type constructors and accessors, and the callback slot
 * through which every verifier rule reaches Rust. */
#ifndef TT_C_TRITON_H
#define TT_C_TRITON_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Triton, tt);

/* What a verifier callback is asked to check. Trait ids name Triton's native
 * traits; `TT_VERIFY_OP` is the op's own rules, `TT_VERIFY_SYMBOL_USES` the
 * symbol references of an op (tt.call). */
enum TtVerifyKind {
  TT_VERIFY_OP = 0,
  TT_VERIFY_SYMBOL_USES = 1,
  TT_TRAIT_TENSOR_SIZE = 10,
  TT_TRAIT_TENSOR_LAYOUTS = 11,
  TT_TRAIT_SAME_OPERANDS_ENCODING = 12,
  TT_TRAIT_SAME_OPERANDS_AND_RESULT_ENCODING = 13,
  TT_TRAIT_SAME_LOAD_STORE_OPERANDS_SHAPE = 14,
  TT_TRAIT_SAME_LOAD_STORE_OPERANDS_AND_RESULT_SHAPE = 15,
  TT_TRAIT_SAME_LOAD_STORE_OPERANDS_ENCODING = 16,
  TT_TRAIT_SAME_LOAD_STORE_OPERANDS_AND_RESULT_ENCODING = 17,
};

/* Returns non-zero when `op` satisfies the rule `kind`; on failure the
 * callback has already emitted a diagnostic. It must not unwind. */
typedef int (*TtVerifyCallback)(MlirOperation op, int kind);

/* Decides whether a call may be inlined (non-zero: legal). */
typedef int (*TtInlineCallback)(MlirOperation call, MlirOperation callee);

/* Installs the Rust callbacks. Without them (the mlir-opt plugin) every rule
 * that lives in Rust is skipped and every call may be inlined. */
MLIR_CAPI_EXPORTED void ttShimSetVerifyCallback(TtVerifyCallback cb);
MLIR_CAPI_EXPORTED void ttShimSetInlineCallback(TtInlineCallback cb);

/* !tt.ptr<pointee, addressSpace> */
MLIR_CAPI_EXPORTED MlirType ttPointerTypeGet(MlirType pointee, int addressSpace);
MLIR_CAPI_EXPORTED bool ttTypeIsAPointer(MlirType type);
MLIR_CAPI_EXPORTED MlirType ttPointerTypeGetPointee(MlirType type);
MLIR_CAPI_EXPORTED int ttPointerTypeGetAddressSpace(MlirType type);

/* A ranked tensor type's parts, borrowed from the type's storage: returns
 * false (and writes nothing) when `type` is not a ranked tensor. */
MLIR_CAPI_EXPORTED bool ttRankedTensorGetParts(MlirType type,
                                               const int64_t **shape,
                                               intptr_t *rank,
                                               MlirType *element,
                                               MlirAttribute *encoding);

/* !tt.tensordesc<blockType> */
MLIR_CAPI_EXPORTED MlirType ttTensorDescTypeGet(MlirType blockType);
MLIR_CAPI_EXPORTED bool ttTypeIsATensorDesc(MlirType type);
MLIR_CAPI_EXPORTED MlirType ttTensorDescTypeGetBlockType(MlirType type);

#ifdef __cplusplus
}
#endif

#endif /* TT_C_TRITON_H */
