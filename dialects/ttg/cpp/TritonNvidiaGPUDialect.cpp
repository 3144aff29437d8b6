// Glue for the `ttng` dialect (NVIDIA-specific TritonGPU ops): registration,
// the `#tmem` alias and the memory effects of warp-group dots.
#include "TritonGPUShim.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::triton;
using namespace mlir::triton::gpu;

#include "ttg/TritonNvidiaGPUDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ttg/TritonNvidiaGPUAttrs.cpp.inc"

namespace {
struct TritonNvidiaGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<nvidia_gpu::TensorMemorySpaceAttr>(attr)) {
      os << "tmem";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void nvidia_gpu::TritonNvidiaGPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ttg/TritonNvidiaGPUAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ttg/TritonNvidiaGPUOps.cpp.inc"
      >();
  addInterfaces<TritonNvidiaGPUOpAsmInterface>();
}

void nvidia_gpu::WarpGroupDotOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand *operand : {&getAMutable(), &getBMutable()})
    if (isa<MemDescType>(operand->get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), operand,
                           SharedMemory::get());
}

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(
    TritonNvidiaGPU, ttng, mlir::triton::nvidia_gpu::TritonNvidiaGPUDialect)
