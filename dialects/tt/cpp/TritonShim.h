// C++ side of the `tt` shim: the declarations that the ODS-generated code
// needs (resources, trait shells, type helpers) and the generated headers.
// The trait shells hold no rules: they forward to the Rust verifier callback.
#ifndef TT_SHIM_H
#define TT_SHIM_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tt-c/Triton.h"

#include "tt/TritonDialect.h.inc"
#include "tt/TritonEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tt/TritonTypes.h.inc"

namespace mlir::triton {

struct GlobalMemory : public SideEffects::Resource::Base<GlobalMemory> {
  StringRef getName() final { return "<GlobalMemory>"; }
};

// Type transformers used by TypesMatchWith. They never fail: on a type that
// is not of the expected kind they return it unchanged, so the parser and
// the verifier report the operand constraint instead of crashing.
Type getPointeeType(Type type);
Type getI1SameShape(Type type);
Type getPointerTypeSameShape(Type type);
Type getBasePointerOfBlockPointer(Type type);

namespace shim {
LogicalResult verifyOp(Operation *op);
LogicalResult verifyKind(Operation *op, int kind);
OpFoldResult foldOp(Operation *op, ArrayRef<Attribute> operands);
void addCanonicalizationPatterns(StringRef opName, RewritePatternSet &results,
                                 MLIRContext *context);
} // namespace shim

namespace OpTrait {
#define TT_RUST_TRAIT(NAME, KIND)                                              \
  template <typename ConcreteType>                                             \
  class NAME : public ::mlir::OpTrait::TraitBase<ConcreteType, NAME> {         \
  public:                                                                      \
    static LogicalResult verifyTrait(Operation *op) {                          \
      return shim::verifyKind(op, KIND);                                       \
    }                                                                          \
  };
TT_RUST_TRAIT(TensorSizeTrait, TT_TRAIT_TENSOR_SIZE)
TT_RUST_TRAIT(VerifyTensorLayoutsTrait, TT_TRAIT_TENSOR_LAYOUTS)
TT_RUST_TRAIT(SameOperandsEncoding, TT_TRAIT_SAME_OPERANDS_ENCODING)
TT_RUST_TRAIT(SameOperandsAndResultEncoding,
              TT_TRAIT_SAME_OPERANDS_AND_RESULT_ENCODING)
TT_RUST_TRAIT(SameLoadStoreOperandsShape,
              TT_TRAIT_SAME_LOAD_STORE_OPERANDS_SHAPE)
TT_RUST_TRAIT(SameLoadStoreOperandsAndResultShape,
              TT_TRAIT_SAME_LOAD_STORE_OPERANDS_AND_RESULT_SHAPE)
TT_RUST_TRAIT(SameLoadStoreOperandsEncoding,
              TT_TRAIT_SAME_LOAD_STORE_OPERANDS_ENCODING)
TT_RUST_TRAIT(SameLoadStoreOperandsAndResultEncoding,
              TT_TRAIT_SAME_LOAD_STORE_OPERANDS_AND_RESULT_ENCODING)
#undef TT_RUST_TRAIT
} // namespace OpTrait

} // namespace mlir::triton

#define GET_OP_CLASSES
#include "tt/TritonOps.h.inc"

#endif // TT_SHIM_H
