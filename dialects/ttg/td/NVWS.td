// Triton's NVIDIA warp-specialization dialect `nvws`: the container op that
// `tritongpu-partition-loops` builds out of a partitioned loop, one region
// per partition, before it becomes a `ttg.warp_specialize`, and the
// asynchronous references (arefs), tokens and descriptor loads of Triton's
// warp-specialization passes. Same types, attributes, op names, operands
// and assembly as Triton 3.6's, so that its lit files and IR dumps parse.
// The verifier rules are Rust (dialects/ttg/src/verify_nvws.rs).

#ifndef NVWS_TD
#define NVWS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "TritonGPUBase.td"
include "NVWSAttrs.td"

def NVWS_Dialect : Dialect {
  let name = "nvws";
  let cppNamespace = "::mlir::triton::nvws";
  let summary = "NVIDIA warp specialization";
  let dependentDialects = ["::mlir::triton::TritonDialect",
                           "::mlir::triton::gpu::TritonGPUDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class NVWS_TypeDef<string name, string typeMnemonic>
    : TypeDef<NVWS_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def NVWS_ArefType : NVWS_TypeDef<"Aref", "aref"> {
  let summary = "an asynchronous reference to buffers";
  let description = [{
    Holds the buffers (one or more, multi-buffered along their first
    dimension) that a producer and its consumers hand over asynchronously;
    its lowering inserts the barriers.
  }];
  let parameters = (ins "TypeArrayAttr":$baseType);
  let assemblyFormat = "`<` $baseType `>`";
}

def NVWS_TokenType : NVWS_TypeDef<"Token", "token"> {
  let summary = "a synchronization token of a producer-consumer channel";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def NVWS_TypeArray : ArrayOfAttr<NVWS_Dialect, "TypeArray", "type_array", "Type">;
def NVWS_IntArray : ArrayOfAttr<NVWS_Dialect, "IntArray", "int_array", "int">;

def NVWS_AsyncOpEnum : EnumAttr<NVWS_Dialect, NVWS_AsyncOpAttr, "async_op"> {
  let assemblyFormat = "`<` $value `>`";
}

def NVWS_AsyncOpArrayAttr
    : TypedArrayAttrBase<NVWS_AsyncOpEnum, "array of async op attributes">;

class NVWS_Op<string mnemonic, list<Trait> traits = []>
    : Op<NVWS_Dialect, mnemonic, traits> {
  let hasVerifier = 1;
  let extraClassDefinition = TT_RustVerifyDefinition;
}

def NVWS_WarpGroupOp : NVWS_Op<"warp_group", [RecursiveMemoryEffects,
    RecursivelySpeculatable]> {
  let summary = "the partitions of a warp-specialized computation";
  let description = [{
    One region per partition, each run by its own group of `numWarps[i]`
    warps; the regions see the values of the enclosing code directly. The
    op's results are what the first region yields
    (`nvws.warp_group.yield`); the other regions end with
    `nvws.warp_group.return`.
  }];
  let arguments = (ins DenseI32ArrayAttr:$numWarps);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region VariadicRegion<MinSizedRegion<1>>:$partitionRegions);
  let hasCustomAssemblyFormat = 1;
}

def NVWS_WarpGroupYieldOp : NVWS_Op<"warp_group.yield", [Pure, Terminator,
    ReturnLike, HasParent<"WarpGroupOp">]> {
  let summary = "end the first region of a nvws.warp_group with its results";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^)? attr-dict (`:` type($values)^)?";
}

def NVWS_WarpGroupReturnOp : NVWS_Op<"warp_group.return", [Pure, Terminator,
    HasParent<"WarpGroupOp">]> {
  let summary = "end a partition region of a nvws.warp_group";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Asynchronous references
//===----------------------------------------------------------------------===//

def NVWS_ArefCreateOp : NVWS_Op<"aref.create", [Pure,
    RangedTypesMatchWith<"input types match Aref output type", "result",
        "buffers", "::llvm::cast<ArefType>($_self).getBaseType()">]> {
  let summary = "create an asynchronous reference to buffers";
  let description = [{
    The buffers' first dimensions (the multi-buffering depth) must agree,
    and nothing but this op and their deallocation may use them.
  }];
  let arguments = (ins Variadic<TTG_MemDescType>:$buffers);
  let results = (outs NVWS_ArefType:$result);
  let assemblyFormat = "$buffers attr-dict `:` type($result)";
}

def NVWS_ArefBufferOp : NVWS_Op<"aref.buffer"> {
  let summary = "the buffers of an aref at a stage";
  let arguments = (ins NVWS_ArefType:$aref, TTG_AsyncToken:$token,
                       Optional<I32>:$stage);
  let results = (outs Variadic<TTG_MemDescType>:$buffers);
  let assemblyFormat = [{
    $aref (`[` $stage^ `]`)? `,` $token attr-dict
    `:` type($aref) `,` type($token) `->` type(results)
  }];
}

def NVWS_ArefGetEnterOp : NVWS_Op<"aref.get.enter", [AttrSizedOperandSegments]> {
  let summary = "start reading the buffers of an aref";
  let description = [{
    Waits until the buffers (at `stage`, with `phase`) are full; the
    consumer may read them until the matching `nvws.aref.get.exit`.
  }];
  let arguments = (ins NVWS_ArefType:$aref, Optional<I32>:$stage,
                       Optional<I32>:$phase);
  let results = (outs Variadic<TTG_MemDescType>:$buffers,
                      TTG_AsyncToken:$token);
  let assemblyFormat = [{
    $aref (`[` $stage^ `,` $phase `]`)? attr-dict `:` type($aref) `->` type(results)
  }];
}

def NVWS_ArefGetExitOp : NVWS_Op<"aref.get.exit"> {
  let summary = "stop reading the buffers of an aref";
  let arguments = (ins NVWS_ArefType:$aref, TTG_AsyncToken:$token,
                       Optional<I32>:$stage, NVWS_AsyncOpArrayAttr:$async_ops);
  let assemblyFormat = [{
    $aref (`[` $stage^ `]`)? `,` $token $async_ops attr-dict
    `:` type($aref) `,` type($token)
  }];
}

def NVWS_ArefPutEnterOp : NVWS_Op<"aref.put.enter", [AttrSizedOperandSegments]> {
  let summary = "start writing the buffers of an aref";
  let description = [{
    Waits until the buffers (at `stage`, with `phase`) are empty; the
    producer may write them until the matching `nvws.aref.put.exit`.
  }];
  let arguments = (ins NVWS_ArefType:$aref, Optional<I32>:$stage,
                       Optional<I32>:$phase);
  let results = (outs Variadic<TTG_MemDescType>:$buffers,
                      TTG_AsyncToken:$token);
  let assemblyFormat = [{
    $aref (`[` $stage^ `,` $phase `]`)? attr-dict `:` type($aref) `->` type(results)
  }];
}

def NVWS_ArefPutExitOp : NVWS_Op<"aref.put.exit"> {
  let summary = "stop writing the buffers of an aref";
  let arguments = (ins NVWS_ArefType:$aref, TTG_AsyncToken:$token,
                       Optional<I32>:$stage, NVWS_AsyncOpArrayAttr:$async_ops);
  let assemblyFormat = [{
    $aref (`[` $stage^ `]`)? `,` $token $async_ops attr-dict
    `:` type($aref) `,` type($token)
  }];
}

//===----------------------------------------------------------------------===//
// Tokens
//===----------------------------------------------------------------------===//

def NVWS_CreateTokenOp : NVWS_Op<"create_token"> {
  let summary = "create the tokens of a producer-consumer channel";
  let arguments = (ins I32Attr:$numBuffers, NVWS_TokenLoadTypeAttr:$loadType);
  let results = (outs TensorOf<[NVWS_TokenType]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def NVWS_ProducerAcquireOp : NVWS_Op<"producer_acquire"> {
  let summary = "wait until the producer may fill buffer `idx`";
  let arguments = (ins TensorOf<[NVWS_TokenType]>:$token, I32:$idx, I1:$phase,
                       OptionalAttr<DictionaryAttr>:$constraints);
  let assemblyFormat = "$token `,` $idx `,` $phase attr-dict `:` type(operands)";
}

def NVWS_ProducerCommitOp : NVWS_Op<"producer_commit"> {
  let summary = "signal that buffer `idx` is full";
  let arguments = (ins TensorOf<[NVWS_TokenType]>:$token, I32:$idx,
                       OptionalAttr<DictionaryAttr>:$constraints);
  let assemblyFormat = "$token `,` $idx attr-dict `:` type(operands)";
}

def NVWS_ConsumerWaitOp : NVWS_Op<"consumer_wait"> {
  let summary = "wait until buffer `idx` is full";
  let arguments = (ins TensorOf<[NVWS_TokenType]>:$token, I32:$idx, I1:$phase,
                       OptionalAttr<DictionaryAttr>:$constraints);
  let assemblyFormat = "$token `,` $idx `,` $phase attr-dict `:` type(operands)";
}

def NVWS_ConsumerReleaseOp : NVWS_Op<"consumer_release"> {
  let summary = "signal that buffer `idx` is consumed";
  let arguments = (ins TensorOf<[NVWS_TokenType]>:$token, I32:$idx,
                       OptionalAttr<DictionaryAttr>:$constraints);
  let assemblyFormat = "$token `,` $idx attr-dict `:` type(operands)";
}

//===----------------------------------------------------------------------===//
// Descriptor loads into shared memory
//===----------------------------------------------------------------------===//

def NVWS_DescriptorLoadOp : NVWS_Op<"descriptor_load"> {
  let summary = "load a block through a tensor descriptor into shared memory";
  let description = [{
    `tt.descriptor_load` whose result is written to the shared buffer
    `result` (`txCount` bytes); synchronous.
  }];
  let arguments = (ins
    Arg<TT_TensorDesc, "", [MemRead<GlobalMemory>]>:$desc,
    Variadic<I32>:$indices,
    I32Attr:$txCount,
    Arg<TTG_MemDescType, "", [MemWrite<SharedMemory>]>:$result,
    DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $desc `[` $indices `]` $txCount $result
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type(operands)
  }];
}

def NVWS_DescriptorGatherOp : NVWS_Op<"descriptor_gather"> {
  let summary = "gather rows through a tensor descriptor into shared memory";
  let description = [{
    `tt.descriptor_gather` whose result is written to the shared buffer
    `result` (`txCount` bytes); synchronous.
  }];
  let arguments = (ins
    Arg<TT_TensorDesc, "", [MemRead<GlobalMemory>]>:$desc,
    RankedTensorOf<[I32]>:$x_offsets,
    I32:$y_offset,
    I32Attr:$txCount,
    Arg<TTG_MemDescType, "", [MemWrite<SharedMemory>]>:$result);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` $txCount $result
    attr-dict `:` type(operands)
  }];
}

#endif // NVWS_TD
