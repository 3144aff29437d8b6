// The ops of the `ttg` dialect, with Triton 3.6's textual formats.

#ifndef TTG_OPS_TD
#define TTG_OPS_TD

include "TritonGPUBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

class TTG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TritonGPU_Dialect, mnemonic, !listconcat(traits, [VerifyTensorLayoutsTrait])> {
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDefinition = TT_RustOpDefinitions;
}

def TTG_ConvertLayoutOp : TTG_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "move a tensor to another distributed layout";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TTG_AsyncCopyGlobalToLocalOp : TTG_Op<"async_copy_global_to_local", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead<GlobalMemory>, MemWrite<SharedMemory>]>,
    TypesMatchWith<"mask matches the pointers", "src", "mask",
                   "::mlir::triton::getI1SameShape(::mlir::triton::getPointeeType($_self))",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">,
    TypesMatchWith<"other matches the pointees", "src", "other",
                   "::mlir::triton::getPointeeType($_self)",
                   "($_op.getOperands().size() <= 3) || std::equal_to<>()">]> {
  let summary = "start copying global memory into a shared buffer";
  let arguments = (ins
    TT_PtrTensor:$src, TTG_MemDesc:$result,
    Optional<TT_BoolLike>:$mask, Optional<TT_Type>:$other,
    DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile,
    DefaultValuedAttr<I32Attr, "1">:$contiguity);
  let results = (outs TTG_AsyncTokenType:$token);
  let assemblyFormat = [{
    $src `,` $result (`mask` $mask^)? (`other` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($src) `->` type($result)
  }];
}

def TTG_AsyncCommitGroupOp : TTG_Op<"async_commit_group"> {
  let summary = "close the current group of asynchronous copies";
  let arguments = (ins Variadic<TTG_AsyncTokenType>:$inputTokens);
  let results = (outs TTG_AsyncTokenType:$asyncToken);
  let assemblyFormat = "(`tokens` $inputTokens^)? attr-dict";
}

def TTG_AsyncWaitOp : TTG_Op<"async_wait"> {
  let summary = "wait until at most `num` copy groups are in flight";
  let arguments = (ins Variadic<TTG_AsyncTokenType>:$asyncToken, I32Attr:$num);
  let results = (outs TTG_AsyncTokenType:$retToken);
  let assemblyFormat = "($asyncToken^)? attr-dict";
}

def TTG_LocalAllocOp : TTG_Op<"local_alloc", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "allocate a shared buffer, optionally initialised from a tensor";
  let arguments = (ins Optional<TT_Tensor>:$src, OptionalAttr<I32Attr>:$alignment);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let extraClassDefinition = TT_RustFoldedOpDefinitions;
}

def TTG_LocalDeallocOp : TTG_Op<"local_dealloc", [
    MemoryEffects<[MemFree<SharedMemory>]>]> {
  let summary = "free a shared buffer";
  let arguments = (ins TTG_MemDesc:$src);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src))";
}

def TTG_LocalLoadOp : TTG_Op<"local_load", [
    MemoryEffects<[MemRead<SharedMemory>]>]> {
  let summary = "load a shared buffer into a distributed tensor";
  let arguments = (ins TTG_MemDesc:$src, Optional<TTG_AsyncTokenType>:$token);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)
  }];
}

def TTG_LocalStoreOp : TTG_Op<"local_store", [
    MemoryEffects<[MemWrite<SharedMemory>]>]> {
  let summary = "store a distributed tensor into a shared buffer";
  let arguments = (ins TT_Tensor:$src, TTG_MemDesc:$dst);
  let assemblyFormat = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))";
}

def TTG_MemDescIndexOp : TTG_Op<"memdesc_index", [Pure]> {
  let summary = "select one buffer of a multi-buffered allocation";
  let arguments = (ins TTG_MemDesc:$src, I32:$index);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
}

def TTG_MemDescSubsliceOp : TTG_Op<"memdesc_subslice", [Pure]> {
  let summary = "a sub-view of a shared buffer at constant offsets";
  let arguments = (ins TTG_MemDesc:$src, DenseI32ArrayAttr:$offsets);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src `` custom<Offsets>($offsets) attr-dict `:` qualified(type($src))
    `->` qualified(type($result))
  }];
}

class TTG_MemDescViewOp<string mnemonic> : TTG_Op<mnemonic, [Pure]> {
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
}

def TTG_MemDescTransOp : TTG_MemDescViewOp<"memdesc_trans"> {
  let summary = "a transposed view of a shared buffer";
  let arguments = (ins TTG_MemDesc:$src, DenseI32ArrayAttr:$order);
  let hasFolder = 1;
  let extraClassDefinition = TT_RustFoldedOpDefinitions;
}

def TTG_MemDescReshapeOp : TTG_MemDescViewOp<"memdesc_reshape"> {
  let summary = "a reshaped view of a shared buffer";
  let arguments = (ins TTG_MemDesc:$src);
}

def TTG_MemDescReinterpretOp : TTG_MemDescViewOp<"memdesc_reinterpret"> {
  let summary = "a view of a contiguous buffer with another shape or element type";
  let arguments = (ins TTG_MemDesc:$src);
  let hasFolder = 1;
  let extraClassDefinition = TT_RustFoldedOpDefinitions;
}

def TTG_PredicateStageOp : TTG_Op<"predicate_stage", [Pure,
    AllTypesMatch<["iv", "ub", "step"]>]> {
  let summary = "whether a pipeline stage runs in this iteration (pipeliner-internal)";
  let arguments = (ins AnySignlessIntegerOrIndex:$iv, AnySignlessIntegerOrIndex:$ub,
                       AnySignlessIntegerOrIndex:$step, I32Attr:$maxStage, I32Attr:$stage);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $iv `,` $ub `,` $step `maxStage` $maxStage `stage` $stage attr-dict
    `:` type($iv) `->` type($result)
  }];
}

def TTG_MaskOp : TTG_Op<"mask", [SingleBlock]> {
  let summary = "predicate a region (pipeliner-internal)";
  let arguments = (ins I1:$pred);
  let results = (outs Variadic<AnyType>:$result);
  let regions = (region SizedRegion<1>:$region);
}

def TTG_MaskReturnOp : TTG_Op<"mask.return", [HasParent<"MaskOp">, Pure,
                                              Terminator, ReturnLike]> {
  let summary = "yield the values of a mask region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TTG_Fp4ToFpOp : TTG_Op<"fp4_to_fp", [Pure]> {
  let summary = "unpack pairs of e2m1 values along `axis`";
  let arguments = (ins RankedTensorOf<[I8]>:$src, I32Attr:$axis);
  let results = (outs TT_FloatTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TTG_GlobalScratchAllocOp : TTG_Op<"global_scratch_alloc", [
    MemoryEffects<[MemAlloc<GlobalMemory>]>]> {
  let summary = "per-program scratch space in global memory";
  let arguments = (ins I32Attr:$nbytes, I32Attr:$alignment);
  let results = (outs Arg<TT_Ptr, "", [MemAlloc<GlobalMemory>]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TTG_LocalBarrierOp : TTG_Op<"local_barrier"> {
  let summary = "CTA-wide execution and shared-memory barrier";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

def TTG_WarpSpecializeOp : TTG_Op<"warp_specialize", [RecursiveMemoryEffects,
    RecursivelySpeculatable]> {
  let summary = "run a default region and partitions of warps concurrently";
  let description = [{
    The default region runs on the warps of the enclosing function; each
    partition region runs on its own group of `num_warps` warps and sees only
    the explicit captures, as block arguments. The default region yields the
    op's results.
  }];
  let arguments = (ins Variadic<AnyType>:$explicitCaptures,
                       DenseI32ArrayAttr:$partitionNumWarps,
                       OptionalAttr<DenseI32ArrayAttr>:$warpGroupStartIds,
                       OptionalAttr<DenseI32ArrayAttr>:$requestedRegisters,
                       OptionalAttr<DenseI32ArrayAttr>:$actualRegisters);
  let results = (outs Variadic<AnyType>:$defaultPassthrough);
  let regions = (region MinSizedRegion<1>:$defaultRegion,
                        SizedRegion<1>:$partitionOpHolder);
  let hasCustomAssemblyFormat = 1;
}

def TTG_WarpSpecializePartitionsOp : TTG_Op<"warp_specialize.partitions", [
    IsolatedFromAbove, RecursiveMemoryEffects, RecursivelySpeculatable,
    Terminator, HasParent<"WarpSpecializeOp">]> {
  let summary = "the partition regions of a ttg.warp_specialize";
  let regions = (region VariadicRegion<MinSizedRegion<1>>:$partitionRegions);
}

def TTG_WarpYieldOp : TTG_Op<"warp_yield", [Pure, Terminator, ReturnLike,
    HasParent<"WarpSpecializeOp">]> {
  let summary = "yield the results of the default region";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def TTG_WarpReturnOp : TTG_Op<"warp_return", [Pure, Terminator, ReturnLike,
    HasParent<"WarpSpecializePartitionsOp">]> {
  let summary = "end a partition region";
  let assemblyFormat = "attr-dict";
}

#endif // TTG_OPS_TD
