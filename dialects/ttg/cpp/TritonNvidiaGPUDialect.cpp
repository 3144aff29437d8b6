// Glue for the `ttng` dialect (NVIDIA-specific TritonGPU ops): registration,
// Triton's alias names (`#tmem`, `#tmem_scales`), the `custom<Token>` and
// `custom<BarriersAndPreds>` directives, the trampoline from
// `#ttng.tensor_memory_encoding`'s verifier to Rust, the accessors Rust
// reads the tensor-memory encodings with, and the memory effects that depend
// on operands. Every rule is Rust (src/verify_ttng.rs, src/tmem.rs).
#include "TritonGPUShim.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::triton;
using namespace mlir::triton::gpu;
using namespace mlir::triton::nvidia_gpu;

#include "ttg/TritonNvidiaGPUDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ttg/TritonNvidiaGPUAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// #ttng.tensor_memory_encoding: the Rust verifier slot
//===----------------------------------------------------------------------===//

static TtgTensorMemoryVerifyCallback tensorMemoryVerifier = nullptr;

void ttgShimSetTensorMemoryVerifyCallback(TtgTensorMemoryVerifyCallback cb) {
  tensorMemoryVerifier = cb;
}

LogicalResult
TensorMemoryEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 unsigned blockM, unsigned blockN,
                                 unsigned colStride, unsigned CTASplitM,
                                 unsigned CTASplitN, bool twoCTAs) {
  if (!tensorMemoryVerifier)
    return success();
  const unsigned params[] = {blockM,    blockN,    colStride,
                             CTASplitM, CTASplitN, twoCTAs ? 1u : 0u};
  std::string message;
  auto emit = [](void *user, MlirStringRef text) {
    auto *out = static_cast<std::string *>(user);
    if (!out->empty())
      out->append("; ");
    out->append(text.data, text.length);
  };
  if (tensorMemoryVerifier(params, 6, emit, &message))
    return success();
  return emitError() << message;
}

unsigned ttngTensorMemoryGetField(MlirAttribute raw, int field) {
  Attribute attr = unwrap(raw);
  if (auto enc = dyn_cast<TensorMemoryEncodingAttr>(attr)) {
    switch (field) {
    case 0:
      return enc.getBlockM();
    case 1:
      return enc.getBlockN();
    case 2:
      return enc.getColStride();
    case 3:
      return enc.getCTASplitM();
    case 4:
      return enc.getCTASplitN();
    default:
      return enc.getTwoCTAs();
    }
  }
  if (auto enc = dyn_cast<TensorMemoryScalesEncodingAttr>(attr)) {
    switch (field) {
    case 3:
      return enc.getCTASplitM();
    case 4:
      return enc.getCTASplitN();
    default:
      return 0;
    }
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

ParseResult
nvidia_gpu::parseToken(OpAsmParser &parser,
                       std::optional<OpAsmParser::UnresolvedOperand> &dep,
                       Type &token) {
  if (failed(parser.parseOptionalLSquare()))
    return success();
  token = parser.getBuilder().getType<AsyncTokenType>();
  if (succeeded(parser.parseOptionalRSquare()))
    return success();
  dep.emplace();
  if (parser.parseOperand(*dep) || parser.parseRSquare())
    return failure();
  return success();
}

void nvidia_gpu::printToken(OpAsmPrinter &printer, Operation *, Value dep,
                            Type token) {
  if (!token)
    return;
  printer << '[';
  if (dep)
    printer << dep;
  printer << ']';
}

ParseResult nvidia_gpu::parseBarriersAndPreds(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &barriers,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &preds) {
  while (succeeded(parser.parseOptionalComma())) {
    if (parser.parseOperand(barriers.emplace_back()) ||
        parser.parseLSquare() || parser.parseOperand(preds.emplace_back()) ||
        parser.parseRSquare())
      return failure();
  }
  return success();
}

void nvidia_gpu::printBarriersAndPreds(OpAsmPrinter &printer, Operation *,
                                       OperandRange barriers,
                                       OperandRange preds) {
  for (auto [barrier, pred] : llvm::zip(barriers, preds))
    printer << ", " << barrier << '[' << pred << ']';
}

//===----------------------------------------------------------------------===//
// Memory effects that depend on operands
//===----------------------------------------------------------------------===//

void nvidia_gpu::WarpGroupDotOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand *operand : {&getAMutable(), &getBMutable()})
    if (isa<MemDescType>(operand->get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), operand,
                           SharedMemory::get());
}

// What a tcgen05 MMA touches: it writes the accumulator, reads it unless
// `useD` is the constant false, reads A from shared or tensor memory and B
// from shared memory.
template <typename MMA>
static void mmaEffects(
    MMA op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  APInt useD;
  if (!matchPattern(op.getUseD(), m_ConstantInt(&useD)) || !useD.isZero())
    effects.emplace_back(MemoryEffects::Read::get(), &op.getDMutable(),
                         TensorMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), &op.getDMutable(),
                       TensorMemory::get());
  auto aType = cast<MemDescType>(op.getA().getType());
  if (isa<SharedMemorySpaceAttr>(aType.getMemorySpace()))
    effects.emplace_back(MemoryEffects::Read::get(), &op.getAMutable(),
                         SharedMemory::get());
  else
    effects.emplace_back(MemoryEffects::Read::get(), &op.getAMutable(),
                         TensorMemory::get());
  effects.emplace_back(MemoryEffects::Read::get(), &op.getBMutable(),
                       SharedMemory::get());
}

void TCGen5MMAOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  mmaEffects(*this, effects);
}

void TCGen5MMAScaledOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  mmaEffects(*this, effects);
  effects.emplace_back(MemoryEffects::Read::get(), &getAScaleMutable(),
                       TensorMemory::get());
  effects.emplace_back(MemoryEffects::Read::get(), &getBScaleMutable(),
                       TensorMemory::get());
}

// An immutable allocation without a column offset yet has no effect, so
// that CSE and DCE treat it as a value, as in Triton; once placed (or when
// mutable) it allocates, and writes when it has an initial value.
void TMEMAllocOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  Operation *op = getOperation();
  auto type = cast<MemDescType>(getResult().getType());
  if (!type.getMutableMemory() && !op->hasAttr("tensor_memory_col_offset"))
    return;
  OpResult alloc = op->getOpResult(0);
  effects.emplace_back(MemoryEffects::Allocate::get(), alloc,
                       TensorMemory::get());
  if (getSrc())
    effects.emplace_back(MemoryEffects::Write::get(), alloc,
                         TensorMemory::get());
}

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

namespace {
struct TritonNvidiaGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<TensorMemoryEncodingAttr>(attr)) {
      os << "tmem";
      return AliasResult::FinalAlias;
    }
    if (isa<TensorMemoryScalesEncodingAttr>(attr)) {
      os << "tmem_scales";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};

// ttng ops inline anywhere, as in Triton.
struct TritonNvidiaGPUInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void TritonNvidiaGPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ttg/TritonNvidiaGPUAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ttg/TritonNvidiaGPUOps.cpp.inc"
      >();
  addInterfaces<TritonNvidiaGPUOpAsmInterface,
                TritonNvidiaGPUInlinerInterface>();
}

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(
    TritonNvidiaGPU, ttng, mlir::triton::nvidia_gpu::TritonNvidiaGPUDialect)
