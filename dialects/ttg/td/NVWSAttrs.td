// The `nvws` dialect's enums (Triton's NVWSAttrDefs), kept apart from
// NVWS.td so that their generation sees no other dialect's enums.

#ifndef NVWS_ATTRS_TD
#define NVWS_ATTRS_TD

include "mlir/IR/EnumAttr.td"

def NVWS_TokenLoadTypeAttr : I32EnumAttr<"TokenLoadType", "", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"AsyncLoadOp", 1, "asyncLoadOp">,
    I32EnumAttrCase<"TMALoadOp", 2, "tmaLoadOp">,
    I32EnumAttrCase<"LocalStoreOp", 3, "localStoreOp">,
    I32EnumAttrCase<"TmemLoadOp", 4, "TmemLoadOp">]> {
  let cppNamespace = "::mlir::triton::nvws";
}

def NVWS_AsyncOpAttr : I32EnumAttr<"AsyncOp", "", [
    I32EnumAttrCase<"NONE", 0, "none">,
    I32EnumAttrCase<"TMALoad", 1, "tma_load">,
    I32EnumAttrCase<"TC5MMA", 2, "tc5mma">,
    I32EnumAttrCase<"TMEMCopy", 3, "tmem_copy">,
    I32EnumAttrCase<"CpAsync", 4, "cp_async">,
    I32EnumAttrCase<"WGMMA", 5, "wgmma">]> {
  let cppNamespace = "::mlir::triton::nvws";
  let genSpecializedAttr = 0;
}

#endif // NVWS_ATTRS_TD
