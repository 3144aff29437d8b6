// The Hopper (`ttng`) ops and attributes that real H100 TTGIR contains.

#ifndef TTNG_TD
#define TTNG_TD

include "TritonGPUBase.td"

def TritonNvidiaGPU_Dialect : Dialect {
  let name = "ttng";
  let cppNamespace = "::mlir::triton::nvidia_gpu";
  let summary = "NVIDIA-specific TritonGPU ops: warp-group MMA, fences";
  let dependentDialects = ["::mlir::triton::TritonDialect",
                           "::mlir::triton::gpu::TritonGPUDialect"];
  let useDefaultAttributePrinterParser = 1;
}

def TensorMemorySpaceAttr : AttrDef<TritonNvidiaGPU_Dialect, "TensorMemorySpace"> {
  let mnemonic = "tensor_memory";
  let summary = "the tensor memory space (Blackwell)";
}

class TTNG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TritonNvidiaGPU_Dialect, mnemonic, !listconcat(traits, [VerifyTensorLayoutsTrait])> {
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDefinition = TT_RustOpDefinitions;
}

def TTNG_FenceAsyncSharedOp : TTNG_Op<"fence_async_shared"> {
  let summary = "order generic-proxy shared-memory accesses before async-proxy ones";
  let arguments = (ins BoolAttr:$bCluster);
  let assemblyFormat = "attr-dict";
}

def TTNG_WarpGroupDotOp : TTNG_Op<"warp_group_dot", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"accumulator type matches result type", "d", "c", "$_self">]> {
  let summary = "warp-group matrix multiply-accumulate (wgmma)";
  let arguments = (ins
    AnyTypeOf<[TT_FpIntTensor, TTG_MemDesc]>:$a, TTG_MemDesc:$b, TT_FpIntTensor:$c,
    Optional<I1>:$useC,
    DefaultValuedAttr<TT_InputPrecisionAttr, "::mlir::triton::InputPrecision::IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc,
    DefaultValuedAttr<BoolAttr, "false">:$isAsync);
  let results = (outs TT_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` $useC^)? attr-dict `:`
    type($a) `*` qualified(type($b)) `->` type($d)
  }];
}

def TTNG_WarpGroupDotWaitOp : TTNG_Op<"warp_group_dot_wait", [
    AllTypesMatch<["inputs", "outputs"]>]> {
  let summary = "wait until at most `pendings` warp-group dots are in flight";
  let arguments = (ins Variadic<AnyType>:$inputs, I32Attr:$pendings);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
}

#endif // TTNG_TD
