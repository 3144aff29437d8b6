/* C entry points of the `tt` dialect shim, used by the Rust crate
 * `tt-dialect` (and by the ttg shim). Everything here is glue: dialect
 * registration, type constructors and accessors, and the callback slots
 * through which every verifier rule, folder and canonicalization pattern
 * reaches Rust. */
#ifndef TT_C_TRITON_H
#define TT_C_TRITON_H

#include "mlir-c/IR.h"
#include "mlir-c/Rewrite.h"

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

/* What a fold callback produced (`enum TtFoldKind`). */
enum TtFoldKind {
  TT_FOLD_NONE = 0,
  TT_FOLD_ATTRIBUTE = 1, /* a constant, written to `*attr` */
  TT_FOLD_VALUE = 2,     /* an existing value, written to `*value`; the op's
                            own result for an in-place fold */
};

/* Folds `op`. `operands[i]` is the constant value of operand i, or null when
 * it is not a constant. Returns a `TtFoldKind`. It must not unwind. */
typedef int (*TtFoldCallback)(MlirOperation op, const MlirAttribute *operands,
                              intptr_t nOperands, MlirAttribute *attr,
                              MlirValue *value);

/* Adds the canonicalization patterns of the op named `opName` to `set`. It
 * must not unwind. */
typedef void (*TtPatternsCallback)(MlirStringRef opName, MlirContext context,
                                   MlirRewritePatternSet set);

/* Installs the Rust callbacks. Without them (the mlir-opt plugin) every rule
 * that lives in Rust is skipped and every call may be inlined. */
MLIR_CAPI_EXPORTED void ttShimSetVerifyCallback(TtVerifyCallback cb);
MLIR_CAPI_EXPORTED void ttShimSetInlineCallback(TtInlineCallback cb);
MLIR_CAPI_EXPORTED void ttShimSetFoldCallback(TtFoldCallback cb);
MLIR_CAPI_EXPORTED void ttShimSetPatternsCallback(TtPatternsCallback cb);

/* Op facts the MLIR C API lacks, answered by MLIR's own traits and
 * interfaces. */
enum TtOpTrait {
  TT_OP_TRAIT_ELEMENTWISE = 0,
  TT_OP_TRAIT_CONSTANT_LIKE = 1,
  TT_OP_TRAIT_COMMUTATIVE = 2,
  TT_OP_TRAIT_TERMINATOR = 3,
  TT_OP_TRAIT_ISOLATED_FROM_ABOVE = 4,
  TT_OP_TRAIT_RECURSIVE_MEMORY_EFFECTS = 5,
};
MLIR_CAPI_EXPORTED bool ttOpHasTrait(MlirOperation op, int trait);
/* mlir::isMemoryEffectFree, mlir::isSpeculatable, wouldOpBeTriviallyDead. */
MLIR_CAPI_EXPORTED bool ttOpIsMemoryEffectFree(MlirOperation op);
MLIR_CAPI_EXPORTED bool ttOpIsSpeculatable(MlirOperation op);
MLIR_CAPI_EXPORTED bool ttOpIsTriviallyDead(MlirOperation op);
/* The kinds of memory effect of `op` and everything nested in it, as a mask
 * of `TtEffect` bits; false (and nothing written) when they are unknown. */
enum TtEffect {
  TT_EFFECT_READ = 1,
  TT_EFFECT_WRITE = 2,
  TT_EFFECT_ALLOCATE = 4,
  TT_EFFECT_FREE = 8,
};
MLIR_CAPI_EXPORTED bool ttOpMemoryEffects(MlirOperation op, int *mask);

/* All attributes of `op`, inherent and discardable, as one uniqued
 * dictionary (Operation::getAttrDictionary): built once, where the C API's
 * mlirOperationGetNumAttributes/GetAttribute rebuild it on every call. Two
 * ops have equal attributes exactly when their dictionaries are the same
 * attribute. */
MLIR_CAPI_EXPORTED MlirAttribute ttOpGetAttributeDictionary(MlirOperation op);

/* A rewrite pattern offered every op (MLIR's MatchAnyOpTypeTag), for
 * patterns keyed on a trait. Same callbacks as mlirOpRewritePatternCreate. */
MLIR_CAPI_EXPORTED MlirRewritePattern ttAnyOpRewritePatternCreate(
    unsigned benefit, MlirContext context,
    MlirRewritePatternCallbacks callbacks, void *userData);

/* Emits a remark at `location` through the diagnostics engine (the C API
 * only has mlirEmitError). */
MLIR_CAPI_EXPORTED void ttEmitRemark(MlirLocation location,
                                     const char *message);

/* Emits a warning at `location` with `noteCount` notes attached (the C API
 * only emits errors). */
MLIR_CAPI_EXPORTED void ttEmitWarningWithNotes(
    MlirLocation location, MlirStringRef message,
    const MlirLocation *noteLocations, const MlirStringRef *noteMessages,
    intptr_t noteCount);

/* Emits a warning (`severity` 0) or a remark (1) on `op`, as
 * `op->emitWarning()` / `op->emitRemark()` (which attach the op when the
 * context prints ops on diagnostics), with `noteCount` notes attached; a
 * null note location is the diagnostic's own. */
MLIR_CAPI_EXPORTED void ttOpEmitDiagnostic(MlirOperation op, int severity,
                                           MlirStringRef message,
                                           const MlirLocation *noteLocations,
                                           const MlirStringRef *noteMessages,
                                           intptr_t noteCount);

/* Whether diagnostics of `context` carry a note with the op they were
 * emitted on, and one with the stack that emitted them (MLIRContext's
 * printOpOnDiagnostic and printStackTraceOnDiagnostic). */
MLIR_CAPI_EXPORTED void ttContextSetDiagnosticPrinting(MlirContext context,
                                                       bool operations,
                                                       bool stackTraces);

/* Registers the upstream LLVM-dialect transform passes that the C API does
 * not register (llvm-optimize-for-nvvm-target among them) under their
 * flag names, for textual pipelines. */
MLIR_CAPI_EXPORTED void ttRegisterLLVMTransformPasses(void);

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
