// The `tti` dialect's enum attribute (Triton's TritonInstrumentAttrDefs),
// kept apart from TritonInstrument.td so that its enum generation sees no
// other dialect's enums.

#ifndef TTI_ATTRS_TD
#define TTI_ATTRS_TD

include "mlir/IR/EnumAttr.td"

def TTI_MemTypeAttr : I32EnumAttr<"MemType", "memory space of a buffer", [
    I32EnumAttrCase<"SHARED_MEM", 0, "shared_mem">,
    I32EnumAttrCase<"TENSOR_MEM", 1, "tensor_mem">]> {
  let cppNamespace = "::mlir::triton::instrument";
}

#endif // TTI_ATTRS_TD
