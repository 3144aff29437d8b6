// Glue for Triton's NVIDIA helper dialect `nvg`: the ODS-generated dialect,
// enums and ops, and the dialect's C API registration. No rules live here:
// the ops have only ODS constraints, and `convert-nv-gpu-to-llvm` is Rust.
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ttg-c/TritonGPU.h"

#include "ttg/NVGPUDialect.h.inc"
#include "ttg/NVGPUEnums.h.inc"
#define GET_OP_CLASSES
#include "ttg/NVGPUOps.h.inc"

#include "ttg/NVGPUDialect.cpp.inc"
#include "ttg/NVGPUEnums.cpp.inc"
#define GET_OP_CLASSES
#include "ttg/NVGPUOps.cpp.inc"

void mlir::triton::nvgpu::NVGPUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ttg/NVGPUOps.cpp.inc"
      >();
}

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(NVGPU, nvg,
                                      mlir::triton::nvgpu::NVGPUDialect)
