// Glue for the `tt` dialect: registration, generated type/enum definitions,
// the function/call interface plumbing, the inliner hooks and the C API.
// Every decision with content (verifier rules, inlining legality) is a Rust
// callback installed at start-up; without one the shim still links and loads.
#include "TritonShim.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Rewrite.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::triton;

#include "tt/TritonDialect.cpp.inc"
#include "tt/TritonEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tt/TritonTypes.cpp.inc"

//===----------------------------------------------------------------------===//
// Callback slots
//===----------------------------------------------------------------------===//

static TtVerifyCallback verifyCallback = nullptr;
static TtInlineCallback inlineCallback = nullptr;
static TtFoldCallback foldCallback = nullptr;
static TtPatternsCallback patternsCallback = nullptr;

void ttShimSetVerifyCallback(TtVerifyCallback cb) { verifyCallback = cb; }
void ttShimSetInlineCallback(TtInlineCallback cb) { inlineCallback = cb; }
void ttShimSetFoldCallback(TtFoldCallback cb) { foldCallback = cb; }
void ttShimSetPatternsCallback(TtPatternsCallback cb) { patternsCallback = cb; }

LogicalResult mlir::triton::shim::verifyKind(Operation *op, int kind) {
  if (!verifyCallback)
    return success();
  return verifyCallback(wrap(op), kind) ? success() : failure();
}

LogicalResult mlir::triton::shim::verifyOp(Operation *op) {
  return verifyKind(op, TT_VERIFY_OP);
}

OpFoldResult mlir::triton::shim::foldOp(Operation *op,
                                        ArrayRef<Attribute> operands) {
  if (!foldCallback)
    return {};
  SmallVector<MlirAttribute> constants;
  constants.reserve(operands.size());
  for (Attribute attr : operands)
    constants.push_back(wrap(attr));
  MlirAttribute attr{nullptr};
  MlirValue value{nullptr};
  switch (foldCallback(wrap(op), constants.data(), constants.size(), &attr,
                       &value)) {
  case TT_FOLD_ATTRIBUTE:
    return unwrap(attr);
  case TT_FOLD_VALUE:
    return unwrap(value);
  default:
    return {};
  }
}

void mlir::triton::shim::addCanonicalizationPatterns(
    StringRef opName, RewritePatternSet &results, MLIRContext *context) {
  if (patternsCallback)
    patternsCallback(wrap(opName), wrap(context), wrap(&results));
}

//===----------------------------------------------------------------------===//
// Type transformers
//===----------------------------------------------------------------------===//

Type mlir::triton::getPointeeType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (auto ptr = dyn_cast<PointerType>(tensor.getElementType()))
      return tensor.clone(ptr.getPointeeType());
    return type;
  }
  if (auto ptr = dyn_cast<PointerType>(type))
    return ptr.getPointeeType();
  return type;
}

Type mlir::triton::getI1SameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(i1);
  return i1;
}

Type mlir::triton::getPointerTypeSameShape(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(PointerType::get(tensor.getElementType(), 1));
  return PointerType::get(type, 1);
}

Type mlir::triton::getBasePointerOfBlockPointer(Type type) {
  auto ptr = dyn_cast<PointerType>(type);
  if (!ptr)
    return type;
  auto block = dyn_cast<RankedTensorType>(ptr.getPointeeType());
  if (!block)
    return type;
  return PointerType::get(block.getElementType(), ptr.getAddressSpace());
}

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

namespace {
struct TritonInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    if (!inlineCallback)
      return true;
    return inlineCallback(wrap(call), wrap(callable)) != 0;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }

  // Multi-block callee: a tt.return becomes a branch to the continuation.
  void handleTerminator(Operation *op, Block *newDest) const final {
    auto ret = dyn_cast<ReturnOp>(op);
    if (!ret)
      return;
    OpBuilder builder(op);
    cf::BranchOp::create(builder, op->getLoc(), newDest, ret.getOperands());
    op->erase();
  }

  // Single-block callee: the returned values replace the call's results.
  void handleTerminator(Operation *op, ValueRange valuesToRepl) const final {
    auto ret = dyn_cast<ReturnOp>(op);
    if (!ret)
      return;
    for (auto [from, to] : llvm::zip(valuesToRepl, ret.getOperands()))
      from.replaceAllUsesWith(to);
  }
};
} // namespace

void TritonDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tt/TritonOps.cpp.inc"
      >();
  addInterfaces<TritonInlinerInterface>();
}

void TritonDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tt/TritonTypes.cpp.inc"
      >();
}

Operation *TritonDialect::materializeConstant(OpBuilder &builder,
                                              Attribute value, Type type,
                                              Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// Interface methods that ODS declares but cannot define
//===----------------------------------------------------------------------===//

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       GlobalMemory::get());
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

// External code that is not declared pure may read and write global memory.
static void addExternalCodeEffects(
    bool pure,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (pure)
    return;
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addExternalCodeEffects(getPure(), effects);
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addExternalCodeEffects(getPure(), effects);
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &) {
  return shim::verifyKind(getOperation(), TT_VERIFY_SYMBOL_USES);
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

//===----------------------------------------------------------------------===//
// C API
//===----------------------------------------------------------------------===//

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Triton, tt, mlir::triton::TritonDialect)

MlirType ttPointerTypeGet(MlirType pointee, int addressSpace) {
  return wrap(PointerType::get(unwrap(pointee), addressSpace));
}
bool ttTypeIsAPointer(MlirType type) { return isa<PointerType>(unwrap(type)); }
MlirType ttPointerTypeGetPointee(MlirType type) {
  return wrap(cast<PointerType>(unwrap(type)).getPointeeType());
}
int ttPointerTypeGetAddressSpace(MlirType type) {
  return cast<PointerType>(unwrap(type)).getAddressSpace();
}

bool ttRankedTensorGetParts(MlirType type, const int64_t **shape,
                            intptr_t *rank, MlirType *element,
                            MlirAttribute *encoding) {
  auto tensor = dyn_cast<RankedTensorType>(unwrap(type));
  if (!tensor)
    return false;
  ArrayRef<int64_t> dims = tensor.getShape();
  *shape = dims.data();
  *rank = static_cast<intptr_t>(dims.size());
  *element = wrap(tensor.getElementType());
  *encoding = wrap(tensor.getEncoding());
  return true;
}

MlirType ttTensorDescTypeGet(MlirType blockType) {
  auto block = cast<RankedTensorType>(unwrap(blockType));
  return wrap(TensorDescType::get(block.getContext(), block));
}
bool ttTypeIsATensorDesc(MlirType type) {
  return isa<TensorDescType>(unwrap(type));
}
MlirType ttTensorDescTypeGetBlockType(MlirType type) {
  return wrap(cast<TensorDescType>(unwrap(type)).getBlockType());
}
