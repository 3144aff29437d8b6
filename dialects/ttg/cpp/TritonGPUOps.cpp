// The ODS-generated definitions of the `ttg` and `ttng` ops, compiled in a
// translation unit of their own.
#include "TritonGPUShim.h"

using namespace mlir;
using namespace mlir::triton;
using namespace mlir::triton::gpu;

#define GET_OP_CLASSES
#include "ttg/TritonGPUOps.cpp.inc"
#define GET_OP_CLASSES
#include "ttg/TritonNvidiaGPUOps.cpp.inc"
