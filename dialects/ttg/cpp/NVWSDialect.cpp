// Glue for Triton's warp-specialization dialect `nvws`: the ODS-generated
// dialect, types, attributes, enums and ops, the assembly of
// `nvws.warp_group` (Triton's format), the dialect's C API registration and
// type accessors, and the warning-with-notes entry point that
// `tritongpu-partition-loops` reports through (the C API can only emit
// errors). The op rules are Rust (`verify_nvws.rs`, through the shim's
// verifier callback).
#include "TritonGPUShim.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/TypeSwitch.h"

#include "ttg/NVWSDialect.h.inc"
#include "ttg/NVWSEnums.h.inc"
#define GET_ATTRDEF_CLASSES
#include "ttg/NVWSAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "ttg/NVWSTypes.h.inc"
#define GET_OP_CLASSES
#include "ttg/NVWSOps.h.inc"

#include "ttg/NVWSDialect.cpp.inc"
#include "ttg/NVWSEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "ttg/NVWSAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "ttg/NVWSTypes.cpp.inc"
#define GET_OP_CLASSES
#include "ttg/NVWSOps.cpp.inc"

using namespace mlir;
using namespace mlir::triton::nvws;

// `nvws.warp_group attributes {...} partition0 num_warps(N) {...} ...`: no
// operands and, as in Triton, no result types in the text.
ParseResult WarpGroupOp::parse(OpAsmParser &parser, OperationState &result) {
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  SmallVector<int32_t> numWarps;
  std::string keyword = "partition0";
  while (succeeded(parser.parseOptionalKeyword(keyword))) {
    int32_t warps;
    if (parser.parseKeyword("num_warps") || parser.parseLParen() ||
        parser.parseInteger(warps) || parser.parseRParen() ||
        parser.parseRegion(*result.addRegion()))
      return failure();
    numWarps.push_back(warps);
    keyword = "partition" + std::to_string(numWarps.size());
  }
  result.addAttribute(getNumWarpsAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(numWarps));
  return success();
}

void WarpGroupOp::print(OpAsmPrinter &printer) {
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                           {getNumWarpsAttrName().getValue()});
  ArrayRef<int32_t> numWarps = getNumWarps();
  for (auto [index, region] : llvm::enumerate(getPartitionRegions())) {
    printer.printNewline();
    printer << "partition" << index << " num_warps(";
    if (index < numWarps.size())
      printer << numWarps[index];
    printer << ") ";
    printer.printRegion(region, /*printEntryBlockArgs=*/false);
  }
}

void mlir::triton::nvws::NVWSDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ttg/NVWSAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "ttg/NVWSTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ttg/NVWSOps.cpp.inc"
      >();
}

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(NVWS, nvws,
                                      mlir::triton::nvws::NVWSDialect)

bool nvwsTypeIsAAref(MlirType type) { return isa<ArefType>(unwrap(type)); }

intptr_t nvwsArefTypeGetNumBaseTypes(MlirType type) {
  return cast<ArefType>(unwrap(type)).getBaseType().getValue().size();
}

MlirType nvwsArefTypeGetBaseType(MlirType type, intptr_t index) {
  return wrap(cast<ArefType>(unwrap(type)).getBaseType().getValue()[index]);
}
