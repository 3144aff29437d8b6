// The `ttg` (TritonGPU) dialect: layout encodings, the memory descriptor and
// async token types, and the ops that move data between layouts and memories.
// Encodings have hand-written parsers and printers (Triton's `<{key = ...}>`
// syntax) in cpp/; the rules they must satisfy are Rust (src/layout.rs).

#ifndef TTG_BASE_TD
#define TTG_BASE_TD

include "TritonBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def TritonGPU_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::mlir::triton::gpu";
  let summary = "TritonGPU IR: tensors with GPU layouts, shared memory";
  let description = [{
    Tensors carry a distributed encoding (how elements map to registers,
    lanes, warps and CTAs); shared-memory buffers are memory descriptors with
    a shared encoding.
  }];
  let dependentDialects = ["::mlir::triton::TritonDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class TTG_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TritonGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

// An encoding with Triton's hand-written `<{...}>` syntax.
class TTG_Encoding<string name, string attrMnemonic>
    : TTG_Attr<name, attrMnemonic> {
  let hasCustomAssemblyFormat = 1;
}

defvar CGALayoutParam = AttrParameter<"::mlir::ArrayAttr",
  "CTA layout bases, one per CGA bit (null when there is a single CTA)">;

def BlockedEncodingAttr : TTG_Encoding<"BlockedEncoding", "blocked"> {
  let summary = "each thread owns a sub-tile; lanes and warps tile those";
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order,
                        CGALayoutParam:$CGALayout);
}

def SliceEncodingAttr : TTG_Encoding<"SliceEncoding", "slice"> {
  let summary = "the parent layout with dimension `dim` removed";
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
}

def DotOperandEncodingAttr : TTG_Encoding<"DotOperandEncoding", "dot_op"> {
  let summary = "layout of operand `opIdx` of a dot whose result has `parent`";
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent,
                        "unsigned":$kWidth);
}

def NvidiaMmaEncodingAttr : TTG_Encoding<"NvidiaMmaEncoding", "nvidia_mma"> {
  let summary = "result layout of NVIDIA tensor-core instructions";
  let parameters = (ins "unsigned":$versionMajor, "unsigned":$versionMinor,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        CGALayoutParam:$CGALayout,
                        ArrayRefParameter<"unsigned">:$instrShape);
}

def AMDMfmaEncodingAttr : TTG_Encoding<"AMDMfmaEncoding", "amd_mfma"> {
  let summary = "result layout of AMD CDNA matrix-core (MFMA) instructions";
  let description = [{
    `version` is the CDNA generation (0 to 4), `instrShape` the instruction's
    `[M, N, K]`; `isTransposed` swaps the roles of M and N inside a tile,
    `tilesPerWarp` lets a warp own adjacent tiles (all ones by default), and
    `elementBitWidth` is the result element width (32 or 64, 32 by default).
  }];
  let parameters = (ins "unsigned":$version,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape,
                        "bool":$isTransposed,
                        CGALayoutParam:$CGALayout,
                        ArrayRefParameter<"unsigned">:$tilesPerWarp,
                        "unsigned":$elementBitWidth);
}

def AMDWmmaEncodingAttr : TTG_Encoding<"AMDWmmaEncoding", "amd_wmma"> {
  let summary = "result layout of AMD RDNA matrix-core (WMMA) instructions";
  let description = [{
    `version` is the WMMA generation (1: RDNA3, 2: RDNA4, 3: gfx1250),
    `instrShape` the instruction's `[M, N, K]` (`[16, 16, 16]` by default),
    `isTransposed` (spelled `isTranspose` in the text) transposes the
    result tile, and `tilesPerWarp` lets a warp own adjacent tiles.
  }];
  let parameters = (ins "unsigned":$version, "bool":$isTransposed,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$tilesPerWarp,
                        CGALayoutParam:$CGALayout,
                        ArrayRefParameter<"unsigned">:$instrShape);
}

def LinearEncodingAttr : TTG_Encoding<"LinearEncoding", "linear"> {
  let summary = "a layout given as the bases of a linear map";
  let parameters = (ins "::mlir::ArrayAttr":$registerBases,
                        "::mlir::ArrayAttr":$laneBases,
                        "::mlir::ArrayAttr":$warpBases,
                        "::mlir::ArrayAttr":$blockBases);
}

def SwizzledSharedEncodingAttr : TTG_Encoding<"SwizzledSharedEncoding", "swizzled_shared"> {
  let summary = "shared memory with XOR swizzling of vectors";
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order,
                        CGALayoutParam:$CGALayout);
}

def AMDRotatingSharedEncodingAttr
    : TTG_Encoding<"AMDRotatingSharedEncoding", "amd_rotating_shared"> {
  let summary = "swizzled shared memory whose phase also rotates per block of rows";
  let description = [{
    Like `swizzled_shared`, but each block of `perPhase * maxPhase` rows
    XORs its phase with the block's index (modulo `maxPhase`), so that
    reads and writes in different orders avoid bank conflicts on hardware
    without a transposing shared-memory load.
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order,
                        CGALayoutParam:$CGALayout);
}

def NVMMASharedEncodingAttr : TTG_Encoding<"NVMMASharedEncoding", "nvmma_shared"> {
  let summary = "shared memory in the swizzle modes of wgmma, tcgen05 and TMA";
  let parameters = (ins "unsigned":$swizzlingByteWidth, "bool":$transposed,
                        "unsigned":$elementBitWidth, "bool":$fp4Padded,
                        "unsigned":$rank, CGALayoutParam:$CGALayout);
}

def SharedLinearEncodingAttr : TTG_Encoding<"SharedLinearEncoding", "shared_linear"> {
  let summary = "shared memory given as the bases of a linear map";
  let parameters = (ins "::mlir::ArrayAttr":$offsetBases,
                        "::mlir::ArrayAttr":$blockBases, "unsigned":$alignment);
}

def PaddedSharedEncodingAttr : TTG_Encoding<"PaddedSharedEncoding", "padded_shared"> {
  let summary = "shared memory with padding after fixed intervals";
  let parameters = (ins ArrayRefParameter<"unsigned">:$intervals,
                        ArrayRefParameter<"unsigned">:$paddings,
                        "::mlir::DictionaryAttr":$layout);
}

def SharedMemorySpaceAttr : TTG_Attr<"SharedMemorySpace", "shared_memory"> {
  let summary = "the shared memory space";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def TTG_MemDescType : TypeDef<TritonGPU_Dialect, "MemDesc", [ShapedTypeInterface]> {
  let mnemonic = "memdesc";
  let summary = "a buffer in shared or tensor memory";
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding,
                        "::mlir::Attribute":$memorySpace,
                        "bool":$mutableMemory,
                        ArrayRefParameter<"int64_t">:$allocShape);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    ::mlir::triton::gpu::MemDescType cloneWith(
        std::optional<::llvm::ArrayRef<int64_t>> shape, ::mlir::Type elementType) const;
    bool hasRank() const { return true; }
  }];
}

def TTG_AsyncToken : TypeDef<TritonGPU_Dialect, "AsyncToken"> {
  let mnemonic = "async.token";
  let summary = "completion token of an asynchronous copy group";
}

def TTG_MemDesc : DialectType<TritonGPU_Dialect,
    CPred<"::llvm::isa<::mlir::triton::gpu::MemDescType>($_self)">,
    "memory descriptor", "::mlir::triton::gpu::MemDescType">;
def TTG_AsyncTokenType : DialectType<TritonGPU_Dialect,
    CPred<"::llvm::isa<::mlir::triton::gpu::AsyncTokenType>($_self)">,
    "async token", "::mlir::triton::gpu::AsyncTokenType"> {
  let builderCall = "$_builder.getType<::mlir::triton::gpu::AsyncTokenType>()";
}

def SharedMemory : Resource<"::mlir::triton::gpu::SharedMemory">;

#endif // TTG_BASE_TD
