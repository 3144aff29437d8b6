// Glue for Triton's instrumentation dialect `tti`: the ODS-generated
// dialect, enum and ops, an inliner interface, and the dialect's C API
// registration. No rules live here: the ops have only ODS constraints, and
// their lowering (`convert-triton-gpu-to-llvm`) is Rust.
#include "TritonGPUShim.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"

#include "ttg/TritonInstrumentDialect.h.inc"
#include "ttg/TritonInstrumentEnums.h.inc"
#define GET_OP_CLASSES
#include "ttg/TritonInstrumentOps.h.inc"

#include "ttg/TritonInstrumentDialect.cpp.inc"
#include "ttg/TritonInstrumentEnums.cpp.inc"
#define GET_OP_CLASSES
#include "ttg/TritonInstrumentOps.cpp.inc"

namespace {
struct TritonInstrumentInlinerInterface : public mlir::DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(mlir::Operation *, mlir::Region *, bool,
                       mlir::IRMapping &) const final {
    return true;
  }
};
} // namespace

void mlir::triton::instrument::TritonInstrumentDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ttg/TritonInstrumentOps.cpp.inc"
      >();
  addInterfaces<TritonInstrumentInlinerInterface>();
}

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(
    TritonInstrument, tti, mlir::triton::instrument::TritonInstrumentDialect)
