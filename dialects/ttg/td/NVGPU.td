// Triton's NVIDIA helper dialect `nvg`: the few NVIDIA-specific ops that
// Triton's TritonGPU-to-LLVM conversion leaves for
// `convert-nv-gpu-to-llvm`. Same op names, operands, attributes and
// assembly as Triton 3.6's, so that its lit files and IR dumps parse.

#ifndef NVG_TD
#define NVG_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def NVGPU_Dialect : Dialect {
  let name = "nvg";
  let cppNamespace = "::mlir::triton::nvgpu";
  let summary = "NVIDIA ops between TritonGPU and LLVM (Triton's NVGPU dialect)";
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def NVG_PointerGlobal : LLVM_PointerInAddressSpace<1>;
def NVG_PointerTensorMemory : LLVM_PointerInAddressSpace<6>;

def NVG_Float : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F16, BF16, F32, F64], "floating-point">;
def NVG_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def NVG_ScalarLike : AnyTypeOf<[NVG_Float, NVG_Int]>;

def NVG_MemSemanticAttr : I32EnumAttr<"MemSemantic", "memory ordering", [
    I32EnumAttrCase<"RELAXED", 1, "relaxed">,
    I32EnumAttrCase<"ACQUIRE", 2, "acquire">,
    I32EnumAttrCase<"RELEASE", 3, "release">,
    I32EnumAttrCase<"ACQUIRE_RELEASE", 4, "acq_rel">]> {
  let cppNamespace = "::mlir::triton::nvgpu";
}

def NVG_MemSyncScopeAttr : I32EnumAttr<"MemSyncScope", "memory scope", [
    I32EnumAttrCase<"GPU", 1, "gpu">,
    I32EnumAttrCase<"CTA", 2, "cta">,
    I32EnumAttrCase<"SYSTEM", 3, "sys">]> {
  let cppNamespace = "::mlir::triton::nvgpu";
}

def NVG_WGMMALayoutAttr : I32EnumAttr<"WGMMALayout", "wgmma operand layout", [
    I32EnumAttrCase<"row", 0>, I32EnumAttrCase<"col", 1>]> {
  let cppNamespace = "::mlir::triton::nvgpu";
}

def NVG_WGMMAEltTypeAttr : I32EnumAttr<"WGMMAEltType", "wgmma element type", [
    I32EnumAttrCase<"s8", 0>, I32EnumAttrCase<"s32", 1>,
    I32EnumAttrCase<"e4m3", 2>, I32EnumAttrCase<"e5m2", 3>,
    I32EnumAttrCase<"f16", 4>, I32EnumAttrCase<"bf16", 5>,
    I32EnumAttrCase<"tf32", 6>, I32EnumAttrCase<"f32", 7>]> {
  let cppNamespace = "::mlir::triton::nvgpu";
}

class NVG_Op<string mnemonic, list<Trait> traits = []>
    : Op<NVGPU_Dialect, mnemonic, traits>;

def NVG_WGMMAWaitGroupOp : NVG_Op<"wgmma_wait_group", [
    AllTypesMatch<["input", "output"]>]> {
  let summary = "wait for wgmma groups; the registers pass through the wait";
  let arguments = (ins LLVM_AnyStruct:$input, I32Attr:$pendings);
  let results = (outs LLVM_AnyStruct:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def NVG_WGMMAOperand : AnyTypeOf<[LLVM_AnyStruct, I64], "wgmma operand A/B type">;

def NVG_WGMMAOp : NVG_Op<"wgmma"> {
  let summary = "one warp-group matrix multiply-accumulate (wgmma.mma_async)";
  let arguments = (ins NVG_WGMMAOperand:$opA, NVG_WGMMAOperand:$opB, I1:$useC,
                   Optional<LLVM_AnyStruct>:$opC,
                   I32Attr:$m, I32Attr:$n, I32Attr:$k,
                   NVG_WGMMAEltTypeAttr:$eltTypeC, NVG_WGMMAEltTypeAttr:$eltTypeA,
                   NVG_WGMMAEltTypeAttr:$eltTypeB,
                   NVG_WGMMALayoutAttr:$layoutA, NVG_WGMMALayoutAttr:$layoutB);
  let results = (outs LLVM_AnyStruct:$res);
  let assemblyFormat = [{
    $opA `,` $opB `,` $useC (`,` $opC^)? attr-dict `:` functional-type(operands, $res)
  }];
}

def NVG_ClusterCTAIdOp : NVG_Op<"cluster_id", [Pure]> {
  let summary = "the CTA's rank in its cluster";
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

def NVG_LoadAcquireOp : NVG_Op<"ld_acquire", [MemoryEffects<[MemRead]>]> {
  let summary = "a global load with acquire (or relaxed) semantics";
  let arguments = (ins NVG_PointerGlobal:$addr, Optional<I1>:$mask,
                   NVG_MemSemanticAttr:$sem, NVG_MemSyncScopeAttr:$scope);
  let results = (outs NVG_ScalarLike:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $addr (`,` $mask^)? attr-dict `:` functional-type($addr, $result)
  }];
}

def NVG_WarpIdOp : NVG_Op<"warp_id", [Pure]> {
  let summary = "the thread's warp index, uniform across the warp";
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

def NVG_TensorMemoryBaseAddress : NVG_Op<"tensor_memory_base", [Pure]> {
  let summary = "the kernel's tensor-memory base address (Blackwell)";
  let results = (outs NVG_PointerTensorMemory:$result);
  let assemblyFormat = "attr-dict";
}

#endif // NVG_TD
