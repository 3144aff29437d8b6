// Glue for what the MLIR C API cannot ask or build: an op's traits and
// memory effects (answered by MLIR's own interfaces), its attribute
// dictionary in one call, a rewrite pattern that matches any op (for
// Rust patterns keyed on a trait rather than a name), and the registration
// of upstream passes the C API leaves out. No decisions are made here.
#include "TritonShim.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Rewrite.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

bool ttOpHasTrait(MlirOperation raw, int trait) {
  Operation *op = unwrap(raw);
  switch (trait) {
  case TT_OP_TRAIT_ELEMENTWISE:
    return op->hasTrait<OpTrait::Elementwise>();
  case TT_OP_TRAIT_CONSTANT_LIKE:
    return op->hasTrait<OpTrait::ConstantLike>();
  case TT_OP_TRAIT_COMMUTATIVE:
    return op->hasTrait<OpTrait::IsCommutative>();
  case TT_OP_TRAIT_TERMINATOR:
    return op->hasTrait<OpTrait::IsTerminator>();
  case TT_OP_TRAIT_ISOLATED_FROM_ABOVE:
    return op->hasTrait<OpTrait::IsIsolatedFromAbove>();
  case TT_OP_TRAIT_RECURSIVE_MEMORY_EFFECTS:
    return op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
  default:
    return false;
  }
}

bool ttOpIsMemoryEffectFree(MlirOperation op) {
  return isMemoryEffectFree(unwrap(op));
}

bool ttOpIsSpeculatable(MlirOperation op) { return isSpeculatable(unwrap(op)); }

bool ttOpIsTriviallyDead(MlirOperation op) {
  return wouldOpBeTriviallyDead(unwrap(op));
}

bool ttOpMemoryEffects(MlirOperation op, int *mask) {
  auto effects = getEffectsRecursively(unwrap(op));
  if (!effects)
    return false;
  int bits = 0;
  for (const MemoryEffects::EffectInstance &effect : *effects) {
    if (isa<MemoryEffects::Read>(effect.getEffect()))
      bits |= TT_EFFECT_READ;
    else if (isa<MemoryEffects::Write>(effect.getEffect()))
      bits |= TT_EFFECT_WRITE;
    else if (isa<MemoryEffects::Allocate>(effect.getEffect()))
      bits |= TT_EFFECT_ALLOCATE;
    else if (isa<MemoryEffects::Free>(effect.getEffect()))
      bits |= TT_EFFECT_FREE;
  }
  *mask = bits;
  return true;
}

MlirAttribute ttOpGetAttributeDictionary(MlirOperation op) {
  return wrap(static_cast<Attribute>(unwrap(op)->getAttrDictionary()));
}

namespace {
// Calls the Rust callbacks for every op the driver offers it.
class AnyOpPattern : public RewritePattern {
public:
  AnyOpPattern(unsigned benefit, MLIRContext *context,
               MlirRewritePatternCallbacks callbacks, void *userData)
      : RewritePattern(MatchAnyOpTypeTag(), benefit, context),
        callbacks(callbacks), userData(userData) {}
  ~AnyOpPattern() override {
    if (callbacks.destruct)
      callbacks.destruct(userData);
  }

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    MlirRewritePattern self{this};
    return unwrap(callbacks.matchAndRewrite(self, wrap(op), wrap(&rewriter),
                                            userData));
  }

private:
  MlirRewritePatternCallbacks callbacks;
  void *userData;
};
} // namespace

MlirRewritePattern ttAnyOpRewritePatternCreate(
    unsigned benefit, MlirContext context,
    MlirRewritePatternCallbacks callbacks, void *userData) {
  return wrap(static_cast<RewritePattern *>(
      new AnyOpPattern(benefit, unwrap(context), callbacks, userData)));
}

void ttEmitRemark(MlirLocation location, const char *message) {
  mlir::emitRemark(unwrap(location)) << message;
}

void ttEmitWarningWithNotes(MlirLocation location, MlirStringRef message,
                            const MlirLocation *noteLocations,
                            const MlirStringRef *noteMessages,
                            intptr_t noteCount) {
  mlir::InFlightDiagnostic diagnostic =
      mlir::emitWarning(unwrap(location)) << unwrap(message);
  for (intptr_t i = 0; i < noteCount; ++i)
    diagnostic.attachNote(unwrap(noteLocations[i])) << unwrap(noteMessages[i]);
}

void ttOpEmitDiagnostic(MlirOperation op, int severity, MlirStringRef message,
                        const MlirLocation *noteLocations,
                        const MlirStringRef *noteMessages,
                        intptr_t noteCount) {
  mlir::Operation *operation = unwrap(op);
  mlir::InFlightDiagnostic diagnostic = severity == 0
                                            ? operation->emitWarning()
                                            : operation->emitRemark();
  diagnostic << unwrap(message);
  for (intptr_t i = 0; i < noteCount; ++i) {
    std::optional<mlir::Location> at;
    if (!mlirLocationIsNull(noteLocations[i]))
      at = unwrap(noteLocations[i]);
    diagnostic.attachNote(at) << unwrap(noteMessages[i]);
  }
}

void ttContextSetDiagnosticPrinting(MlirContext context, bool operations,
                                    bool stackTraces) {
  unwrap(context)->printOpOnDiagnostic(operations);
  unwrap(context)->printStackTraceOnDiagnostic(stackTraces);
}

void ttRegisterLLVMTransformPasses() { mlir::LLVM::registerLLVMPasses(); }
