// The ODS-generated definitions of the `tt` ops, in a translation unit of
// their own so that they compile in parallel with the dialect glue.
#include "TritonShim.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::triton;

#define GET_OP_CLASSES
#include "tt/TritonOps.cpp.inc"
