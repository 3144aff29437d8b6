// C++ side of the `ttg`/`ttng` shim: includes and declarations that the
// ODS-generated code needs.
#ifndef TTG_SHIM_H
#define TTG_SHIM_H

#include "TritonShim.h"

#include "mlir/IR/OpImplementation.h"

#include "ttg-c/TritonGPU.h"

#include "ttg/TritonGPUDialect.h.inc"
#include "ttg/TritonNvidiaGPUDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ttg/TritonGPUAttrs.h.inc"
#define GET_ATTRDEF_CLASSES
#include "ttg/TritonNvidiaGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ttg/TritonGPUTypes.h.inc"

namespace mlir::triton::gpu {
struct SharedMemory : public SideEffects::Resource::Base<SharedMemory> {
  StringRef getName() final { return "<SharedMemory>"; }
};

// `custom<Offsets>`: a bracketed list of integers, `[0, 32]`.
ParseResult parseOffsets(OpAsmParser &parser, DenseI32ArrayAttr &offsets);
void printOffsets(OpAsmPrinter &printer, Operation *op,
                  DenseI32ArrayAttr offsets);
} // namespace mlir::triton::gpu

namespace mlir::triton::nvidia_gpu {
struct TensorMemory : public SideEffects::Resource::Base<TensorMemory> {
  StringRef getName() final { return "<TensorMemory>"; }
};

// `custom<Token>`: an optional `[%dep]` or `[]`; present, the op takes an
// optional async token `dep` and returns one.
ParseResult parseToken(OpAsmParser &parser,
                       std::optional<OpAsmParser::UnresolvedOperand> &dep,
                       Type &token);
void printToken(OpAsmPrinter &printer, Operation *op, Value dep, Type token);

// `custom<BarriersAndPreds>`: zero or more `, %barrier[%pred]`.
ParseResult parseBarriersAndPreds(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &barriers,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &preds);
void printBarriersAndPreds(OpAsmPrinter &printer, Operation *op,
                           OperandRange barriers, OperandRange preds);
} // namespace mlir::triton::nvidia_gpu

#define GET_OP_CLASSES
#include "ttg/TritonGPUOps.h.inc"
#define GET_OP_CLASSES
#include "ttg/TritonNvidiaGPUOps.h.inc"

#endif // TTG_SHIM_H
