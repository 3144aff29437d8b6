// The NVIDIA-specific (`ttng`) ops and attributes of Triton 3.6: Hopper
// warp-group MMA and TMA, mbarriers, and Blackwell tensor memory and
// tcgen05 MMA. The textual formats are Triton's; the rules behind
// `verify()` are Rust (dialects/ttg/src/verify_ttng.rs), memory effects
// that depend on operands are C++ glue (cpp/TritonNvidiaGPUDialect.cpp).

#ifndef TTNG_TD
#define TTNG_TD

include "TritonGPUBase.td"

def TritonNvidiaGPU_Dialect : Dialect {
  let name = "ttng";
  let cppNamespace = "::mlir::triton::nvidia_gpu";
  let summary = "NVIDIA-specific TritonGPU ops: wgmma, TMA, mbarriers, tensor memory";
  let dependentDialects = ["::mlir::triton::TritonDialect",
                           "::mlir::triton::gpu::TritonGPUDialect"];
  let useDefaultAttributePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def TensorMemorySpaceAttr : AttrDef<TritonNvidiaGPU_Dialect, "TensorMemorySpace"> {
  let mnemonic = "tensor_memory";
  let summary = "the tensor memory space (Blackwell)";
}

def TensorMemoryEncodingAttr : AttrDef<TritonNvidiaGPU_Dialect, "TensorMemoryEncoding"> {
  let mnemonic = "tensor_memory_encoding";
  let summary = "how a buffer is laid out over tensor-memory rows and columns";
  let description = [{
    The buffer is cut into `blockM` x `blockN` blocks spread over the 128
    rows of tensor memory (M first, then N). `colStride` is the distance in
    columns between neighbouring elements of a row (1: packed). The CTA
    splits say how the buffer is divided between the CTAs of a cluster;
    `twoCTAs` marks a layout for `cta_group::2` MMAs.
  }];
  let parameters = (ins
    "unsigned":$blockM,
    "unsigned":$blockN,
    "unsigned":$colStride,
    DefaultValuedParameter<"unsigned", "1">:$CTASplitM,
    DefaultValuedParameter<"unsigned", "1">:$CTASplitN,
    DefaultValuedParameter<"bool", "false">:$twoCTAs);
  let genVerifyDecl = 1;
  let assemblyFormat = "`<` struct(params) `>`";
}

def TensorMemoryScalesEncodingAttr : AttrDef<TritonNvidiaGPU_Dialect, "TensorMemoryScalesEncoding"> {
  let mnemonic = "tensor_memory_scales_encoding";
  let summary = "the tensor-memory layout of block scales of scaled MMAs";
  let description = [{
    Scales sit in 32x4x4B chunks, repeated over the four 32-row groups of
    tensor memory, as tcgen05's scaled MMAs read them.
  }];
  let parameters = (ins
    DefaultValuedParameter<"unsigned", "1">:$CTASplitM,
    DefaultValuedParameter<"unsigned", "1">:$CTASplitN);
  let assemblyFormat = "`<` struct(params) `>`";
}

def TensorMemory : Resource<"::mlir::triton::nvidia_gpu::TensorMemory">;

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

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

def TTNG_ClusterArriveOp : TTNG_Op<"cluster_arrive"> {
  let summary = "arrive at the cluster barrier";
  let arguments = (ins I1Attr:$relaxed);
  let assemblyFormat = "attr-dict";
}

def TTNG_ClusterWaitOp : TTNG_Op<"cluster_wait"> {
  let summary = "wait at the cluster barrier";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Hopper warp-group MMA
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

def TTNG_InitBarrierOp : TTNG_Op<"init_barrier"> {
  let summary = "initialise an mbarrier that expects `count` arrivals";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<SharedMemory>]>:$alloc,
                       I32Attr:$count);
  let assemblyFormat = "$alloc `,` $count attr-dict `:` qualified(type($alloc))";
}

def TTNG_InvalBarrierOp : TTNG_Op<"inval_barrier"> {
  let summary = "invalidate an mbarrier so that its memory can be reused";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<SharedMemory>]>:$alloc);
  let assemblyFormat = "$alloc attr-dict `:` qualified(type($alloc))";
}

def TTNG_BarrierExpectOp : TTNG_Op<"barrier_expect"> {
  let summary = "tell an mbarrier that `size` more bytes will arrive";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<SharedMemory>]>:$alloc,
                       I32Attr:$size, I1:$pred);
  let assemblyFormat = [{
    $alloc `,` $size attr-dict `,` $pred `:` qualified(type($alloc))
  }];
}

def TTNG_WaitBarrierOp : TTNG_Op<"wait_barrier", [AttrSizedOperandSegments]> {
  let summary = "block until an mbarrier completes the phase `phase`";
  let description = [{
    The optional `deps` are buffers that may be accessed until the barrier
    completes.
  }];
  let arguments = (ins
    Arg<TTG_MemDesc, "", [MemRead<SharedMemory>, MemWrite<SharedMemory>]>:$alloc,
    I32:$phase, Optional<I1>:$pred, Variadic<TTG_MemDesc>:$deps);
  let assemblyFormat = [{
    $alloc `,` $phase (`,` $pred^)? (`deps` $deps^)?
    attr-dict `:` qualified(type($alloc)) (`,` type($deps)^)?
  }];
}

def TTNG_ArriveBarrierOp : TTNG_Op<"arrive_barrier"> {
  let summary = "arrive `count` times on an mbarrier";
  let arguments = (ins
    Arg<TTG_MemDesc, "", [MemRead<SharedMemory>, MemWrite<SharedMemory>]>:$alloc,
    I32Attr:$count, Optional<I1>:$pred);
  let assemblyFormat = [{
    $alloc `,` $count (`,` $pred^)? attr-dict `:` qualified(type($alloc))
  }];
}

def TTNG_AsyncCopyMbarrierArriveOp : TTNG_Op<"async_copy_mbarrier_arrive"> {
  let summary = "arrive on an mbarrier once this thread's cp.async copies are done";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<SharedMemory>]>:$barrier,
                       UnitAttr:$noIncrement);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

def TTNG_AsyncTMACopyGlobalToLocalOp : TTNG_Op<"async_tma_copy_global_to_local"> {
  let summary = "TMA: copy a block of a tensor descriptor into shared memory";
  let arguments = (ins
    Arg<TT_TensorDesc, "", [MemRead<GlobalMemory>]>:$desc,
    Variadic<I32>:$coord,
    Arg<TTG_MemDesc, "", [MemWrite<SharedMemory>]>:$barrier,
    Arg<TTG_MemDesc, "", [MemWrite<SharedMemory>]>:$result,
    I1:$pred,
    DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let assemblyFormat = [{
    $desc `[` $coord `]` $result `,` $barrier `,` $pred
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `,` qualified(type($barrier)) `->` qualified(type($result))
  }];
}

def TTNG_AsyncTMACopyLocalToGlobalOp : TTNG_Op<"async_tma_copy_local_to_global"> {
  let summary = "TMA: copy a shared buffer into a block of a tensor descriptor";
  let arguments = (ins
    Arg<TT_TensorDesc, "", [MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>:$desc,
    Variadic<I32>:$coord,
    Arg<TTG_MemDesc, "", [MemRead<SharedMemory>]>:$src);
  let assemblyFormat = [{
    $desc `[` $coord `]` $src
    attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  }];
}

def TTNG_AsyncTMAReduceOp : TTNG_Op<"async_tma_reduce", [
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>]> {
  let summary = "TMA: reduce a shared buffer element-wise into global memory";
  let arguments = (ins
    TT_DescriptorReduceKindAttr:$kind,
    Arg<TT_TensorDesc, "", [MemRead<GlobalMemory>]>:$desc,
    Variadic<I32>:$coord,
    Arg<TTG_MemDesc, "", [MemRead<SharedMemory>]>:$src);
  let assemblyFormat = [{
    $kind `,` $desc `[` $coord `]` $src
    attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  }];
}

def TTNG_AsyncTMAGatherOp : TTNG_Op<"async_tma_gather"> {
  let summary = "TMA: gather rows, each at its own offset, into shared memory";
  let arguments = (ins
    Arg<TT_TensorDesc, "", [MemRead<GlobalMemory>]>:$desc,
    RankedTensorOf<[I32]>:$x_offsets,
    I32:$y_offset,
    Arg<TTG_MemDesc, "", [MemWrite<SharedMemory>]>:$barrier,
    Arg<TTG_MemDesc, "", [MemWrite<SharedMemory>]>:$result,
    I1:$pred);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` $result `,` $barrier `,` $pred
    attr-dict `:` type(operands)
  }];
}

def TTNG_AsyncTMAScatterOp : TTNG_Op<"async_tma_scatter"> {
  let summary = "TMA: scatter the rows of a shared buffer, each to its own offset";
  let arguments = (ins
    Arg<TT_TensorDesc, "", [MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>:$desc,
    RankedTensorOf<[I32]>:$x_offsets,
    I32:$y_offset,
    Arg<TTG_MemDesc, "", [MemRead<SharedMemory>]>:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` $src
    attr-dict `:` type(operands)
  }];
}

def TTNG_TMAStoreWaitOp : TTNG_Op<"async_tma_store_wait"> {
  let summary = "wait until at most `pendings` TMA stores still read shared memory";
  let arguments = (ins I32Attr:$pendings);
  let assemblyFormat = "attr-dict";
}

def TTNG_ReinterpretTensorDescOp : TTNG_Op<"reinterpret_tensor_descriptor", [Pure]> {
  let summary = "view a raw pointer to a TMA descriptor as a tensor descriptor";
  let arguments = (ins TT_Ptr:$rawDesc);
  let results = (outs TT_TensorDesc:$result);
  let assemblyFormat = [{
    $rawDesc attr-dict `:` qualified(type($rawDesc)) `to` qualified(type($result))
  }];
}

def TTNG_TensormapCreateOp : TTNG_Op<"tensormap_create", [
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<GlobalMemory>]>,
    AttrSizedOperandSegments]> {
  let summary = "write a TMA descriptor in global memory from the device";
  let arguments = (ins
    TT_Ptr:$desc_ptr,
    TT_Ptr:$global_address,
    Variadic<I32>:$box_dim,
    Variadic<I32>:$global_dim,
    Variadic<I64>:$global_stride,
    Variadic<I32>:$element_stride,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<15>]>:$elem_type,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$interleave_layout,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<3>]>:$swizzle_mode,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<1>]>:$fill_mode);
  let assemblyFormat = [{
    $desc_ptr `,` $global_address `,`
    `[` $box_dim `]` `,`
    `[` $global_dim `]` `,`
    `[` $global_stride `]` `,`
    `[` $element_stride `]`
    attr-dict `:` functional-type(operands, results)
  }];
}

def TTNG_TensormapFenceproxyAcquireOp : TTNG_Op<"tensormap_fenceproxy_acquire", [
    MemoryEffects<[MemWrite<GlobalMemory>]>]> {
  let summary = "acquire fence before a TMA descriptor written on the device is used";
  let arguments = (ins TT_Ptr:$desc_ptr);
  let assemblyFormat = "$desc_ptr attr-dict `:` qualified(type($desc_ptr))";
}

//===----------------------------------------------------------------------===//
// Blackwell: tcgen05 MMA and tensor memory
//===----------------------------------------------------------------------===//

def TTNG_TCGen5MMAOp : TTNG_Op<"tc_gen5_mma", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    AttrSizedOperandSegments]> {
  let summary = "tcgen05 MMA: d (in tensor memory) += a * b";
  let description = [{
    Synchronous unless `is_async`; an asynchronous MMA arrives on each
    `barriers[i]` whose `barrier_preds[i]` holds when it completes. With
    `two_ctas` the MMA spans a pair of CTAs. The optional tokens order
    accesses to the accumulator.
  }];
  let arguments = (ins
    TTG_MemDesc:$a,
    TTG_MemDesc:$b,
    TTG_MemDesc:$d,
    Optional<TTG_AsyncTokenType>:$acc_dep,
    I1:$useD,
    I1:$pred,
    Variadic<TTG_MemDesc>:$barriers,
    Variadic<I1>:$barrier_preds,
    UnitAttr:$is_async,
    UnitAttr:$two_ctas);
  let results = (outs Optional<TTG_AsyncTokenType>:$token);
  let assemblyFormat = [{
    $a `,` $b `,` $d `` custom<Token>($acc_dep, type($token)) `,` $useD`,`
    $pred `` custom<BarriersAndPreds>($barriers, $barrier_preds)
    attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,`
    qualified(type($d)) (`,` qualified(type($barriers))^)?
  }];
}

def TTNG_TCGen5MMAScaledOp : TTNG_Op<"tc_gen5_mma_scaled", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    AttrSizedOperandSegments]> {
  let summary = "tcgen05 block-scaled MMA: d += (a scaled by a_scale) * (b scaled by b_scale)";
  let arguments = (ins
    TTG_MemDesc:$a,
    TTG_MemDesc:$b,
    TTG_MemDesc:$d,
    Optional<TTG_AsyncTokenType>:$acc_dep,
    TTG_MemDesc:$a_scale,
    TTG_MemDesc:$b_scale,
    TT_ScaleDotElemTypeAttr:$a_type,
    TT_ScaleDotElemTypeAttr:$b_type,
    I1:$useD,
    I1:$pred,
    Variadic<TTG_MemDesc>:$barriers,
    Variadic<I1>:$barrier_preds,
    UnitAttr:$is_async);
  let results = (outs Optional<TTG_AsyncTokenType>:$token);
  let assemblyFormat = [{
    $a `,` $b `,` $d `` custom<Token>($acc_dep, type($token)) `,` $a_scale `,`
    $b_scale `,` $useD `,` $pred `lhs` `=` $a_type `rhs` `=` $b_type
    `` custom<BarriersAndPreds>($barriers, $barrier_preds)
    attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,`
    qualified(type($d)) `,` qualified(type($a_scale)) `,`
    qualified(type($b_scale)) (`,` qualified(type($barriers))^)?
  }];
}

def TTNG_TCGen5CommitOp : TTNG_Op<"tc_gen5_commit"> {
  let summary = "arrive on an mbarrier when every earlier async tcgen05 op is done";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<SharedMemory>]>:$barrier,
                       Optional<I1>:$pred,
                       UnitAttr:$two_ctas);
  let assemblyFormat = [{
    $barrier (`,` $pred^)? attr-dict `:` qualified(type($barrier))
  }];
}

def TTNG_TMEMLoadOp : TTNG_Op<"tmem_load"> {
  let summary = "load a tensor-memory buffer into a distributed tensor";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemRead<TensorMemory>]>:$src,
                       Optional<TTG_AsyncTokenType>:$dep);
  let results = (outs TT_Tensor:$result, Optional<TTG_AsyncTokenType>:$token);
  let assemblyFormat = [{
    $src `` custom<Token>($dep, type($token))
    attr-dict `:` qualified(type($src)) `->` type($result)
  }];
}

def TTNG_TMEMStoreOp : TTNG_Op<"tmem_store"> {
  let summary = "store a distributed tensor into a tensor-memory buffer";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<TensorMemory>]>:$dst,
                       Optional<TTG_AsyncTokenType>:$dep,
                       TT_Tensor:$src,
                       I1:$pred);
  let results = (outs Optional<TTG_AsyncTokenType>:$token);
  let assemblyFormat = [{
    $src `,` $dst `` custom<Token>($dep, type($token)) `,` $pred
    attr-dict `:` type($src) `->` qualified(type($dst))
  }];
}

def TTNG_TMEMAllocOp : TTNG_Op<"tmem_alloc", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "allocate a tensor-memory buffer, optionally initialised from a tensor";
  let arguments = (ins Optional<TT_Tensor>:$src);
  let results = (outs TTG_MemDesc:$result, Optional<TTG_AsyncTokenType>:$token);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
}

def TTNG_TMEMSubSliceOp : TTNG_Op<"tmem_subslice", [Pure]> {
  let summary = "a view of a 2-D tensor-memory buffer from column `N` on";
  let arguments = (ins TTG_MemDesc:$src, I32Attr:$N);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
}

def TTNG_TMEMCopyOp : TTNG_Op<"tmem_copy"> {
  let summary = "tcgen05.cp: copy a shared buffer into tensor memory asynchronously";
  let description = [{
    Completion can be awaited through the optional barrier. Into a
    `#ttng.tensor_memory_scales_encoding` destination the source holds the
    scales as 32x16-byte chunks, each repeated over the four row groups.
  }];
  let arguments = (ins
    Arg<TTG_MemDesc, "", [MemRead<SharedMemory>]>:$src,
    Arg<TTG_MemDesc, "", [MemWrite<TensorMemory>]>:$dst,
    Optional<TTG_MemDesc>:$barrier);
  let assemblyFormat = [{
    $src `,` $dst (`,` $barrier^)? attr-dict `:` qualified(type(operands))
  }];
}

#endif // TTNG_TD
