// The `tt` dialect: its types, enum attributes and the native traits that
// Triton's verifier rules hang off. Behaviour behind the traits lives in Rust
// (dialects/tt/src/verify.rs); the C++ trait classes only forward to it.

#ifndef TT_BASE_TD
#define TT_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinTypes.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Triton_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::mlir::triton";
  let summary = "Triton IR: tile-level GPU programs";
  let description = [{
    The frontend-facing dialect of the Triton compiler: tensors of values and
    tensors of pointers, loads and stores with masks, reductions with combine
    regions, dots, and the function, call and return ops.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::ub::UBDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class TT_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Triton_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TT_PtrType : TT_TypeDef<"Pointer", "ptr"> {
  let summary = "pointer to a scalar or to a tensor (a block pointer)";
  let parameters = (ins "::mlir::Type":$pointeeType,
                        DefaultValuedParameter<"int", "1">:$addressSpace);
  // Address space 1 (global) is the default and is not printed.
  let assemblyFormat = "`<` $pointeeType (`,` $addressSpace^)? `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType,
                                        "int":$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
}

def TT_TensorDescType : TT_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "descriptor of a global tensor, loaded and stored in blocks";
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def TT_Float : AnyTypeOf<[F8E4M3FNUZ, F8E4M3FN, F8E5M2, F8E5M2FNUZ,
                          F16, BF16, F32, F64], "floating-point">;
def TT_FloatTensor : RankedTensorOf<[TT_Float]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;

def TT_BoolTensor : RankedTensorOf<[I1]>;
def TT_BoolLike : AnyTypeOf<[I1, TT_BoolTensor]>;

def TT_Int : AnyTypeOf<[I1, I<4>, I8, I16, I32, I64], "integer">;
def TT_IntTensor : RankedTensorOf<[TT_Int]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;

def TT_I32Tensor : RankedTensorOf<[I32]>;
def TT_I32Like : AnyTypeOf<[I32, TT_I32Tensor]>;
def TT_I64Tensor : RankedTensorOf<[I64]>;
def TT_I64Like : AnyTypeOf<[I64, TT_I64Tensor]>;

def TT_Ptr : DialectType<Triton_Dialect,
    CPred<"::llvm::isa<::mlir::triton::PointerType>($_self)">,
    "ptr", "::mlir::triton::PointerType">;
def TT_PtrTensor : RankedTensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;

// A pointer whose pointee is a ranked tensor: a block pointer.
def TT_TensorPtr : DialectType<Triton_Dialect,
    And<[CPred<"::llvm::isa<::mlir::triton::PointerType>($_self)">,
         CPred<"::llvm::isa<::mlir::RankedTensorType>("
               "::llvm::cast<::mlir::triton::PointerType>($_self).getPointeeType())">]>,
    "ptr to tensor", "::mlir::triton::PointerType">;

def TT_TensorDesc : DialectType<Triton_Dialect,
    CPred<"::llvm::isa<::mlir::triton::TensorDescType>($_self)">,
    "tensor descriptor", "::mlir::triton::TensorDescType">;

def TT_FpIntTensor : RankedTensorOf<[TT_Float, TT_Int]>;
def TT_Tensor : RankedTensorOf<[TT_Float, TT_Int, TT_Ptr]>;
def TT_Type : AnyTypeOf<[TT_FloatLike, TT_IntLike, TT_PtrLike, TT_TensorPtr]>;

//===----------------------------------------------------------------------===//
// Enum attributes (stored as i32; keywords where the format lists them)
//===----------------------------------------------------------------------===//

class TT_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mlir::triton";
}

def TT_CacheModifierAttr : TT_I32Enum<"CacheModifier", "cache modifier", [
  I32EnumAttrCase<"NONE", 1, "none">, I32EnumAttrCase<"CA", 2, "ca">,
  I32EnumAttrCase<"CG", 3, "cg">, I32EnumAttrCase<"WB", 4, "wb">,
  I32EnumAttrCase<"CS", 5, "cs">, I32EnumAttrCase<"WT", 6, "wt">,
  I32EnumAttrCase<"CV", 7, "cv">]>;

def TT_EvictionPolicyAttr : TT_I32Enum<"EvictionPolicy", "eviction policy", [
  I32EnumAttrCase<"NORMAL", 1, "evict_normal">,
  I32EnumAttrCase<"EVICT_FIRST", 2, "evict_first">,
  I32EnumAttrCase<"EVICT_LAST", 3, "evict_last">]>;

def TT_MemSemanticAttr : TT_I32Enum<"MemSemantic", "memory ordering", [
  I32EnumAttrCase<"RELAXED", 1, "relaxed">,
  I32EnumAttrCase<"ACQUIRE", 2, "acquire">,
  I32EnumAttrCase<"RELEASE", 3, "release">,
  I32EnumAttrCase<"ACQUIRE_RELEASE", 4, "acq_rel">]>;

def TT_MemSyncScopeAttr : TT_I32Enum<"MemSyncScope", "synchronisation scope", [
  I32EnumAttrCase<"GPU", 1, "gpu">, I32EnumAttrCase<"CTA", 2, "cta">,
  I32EnumAttrCase<"SYSTEM", 3, "sys">]>;

def TT_AtomicRMWAttr : TT_I32Enum<"RMWOp", "read-modify-write kind", [
  I32EnumAttrCase<"AND", 1, "and">, I32EnumAttrCase<"OR", 2, "or">,
  I32EnumAttrCase<"XOR", 3, "xor">, I32EnumAttrCase<"ADD", 4, "add">,
  I32EnumAttrCase<"FADD", 5, "fadd">, I32EnumAttrCase<"MAX", 6, "max">,
  I32EnumAttrCase<"MIN", 7, "min">, I32EnumAttrCase<"UMAX", 8, "umax">,
  I32EnumAttrCase<"UMIN", 9, "umin">, I32EnumAttrCase<"XCHG", 10, "exch">]>;

def TT_PaddingOptionAttr : TT_I32Enum<"PaddingOption", "out-of-bounds padding", [
  I32EnumAttrCase<"PAD_ZERO", 1, "zero">, I32EnumAttrCase<"PAD_NAN", 2, "nan">]>;

def TT_ProgramDim : TT_I32Enum<"ProgramIDDim", "grid axis", [
  I32EnumAttrCase<"X", 0, "x">, I32EnumAttrCase<"Y", 1, "y">,
  I32EnumAttrCase<"Z", 2, "z">]>;

def TT_RoundingModeAttr : TT_I32Enum<"RoundingMode", "float rounding mode", [
  I32EnumAttrCase<"RTZ", 0, "rtz">, I32EnumAttrCase<"RTNE", 1, "rtne">]>;

def TT_PropagateNanAttr : TT_I32Enum<"PropagateNan", "NaN propagation", [
  I32EnumAttrCase<"NONE", 0, "none">, I32EnumAttrCase<"ALL", 0xFFFF, "all">]>;

def TT_InputPrecisionAttr : TT_I32Enum<"InputPrecision", "dot input precision", [
  I32EnumAttrCase<"TF32", 0, "tf32">, I32EnumAttrCase<"TF32x3", 1, "tf32x3">,
  I32EnumAttrCase<"IEEE", 2, "ieee">, I32EnumAttrCase<"BF16x3", 3, "bf16x3">,
  I32EnumAttrCase<"BF16x6", 4, "bf16x6">]>;

def TT_ScaleDotElemTypeAttr : TT_I32Enum<"ScaleDotElemType", "scaled-dot element type", [
  I32EnumAttrCase<"E4M3", 0, "e4m3">, I32EnumAttrCase<"E5M2", 1, "e5m2">,
  I32EnumAttrCase<"E2M3", 2, "e2m3">, I32EnumAttrCase<"E3M2", 3, "e3m2">,
  I32EnumAttrCase<"E2M1", 4, "e2m1">, I32EnumAttrCase<"BF16", 5, "bf16">,
  I32EnumAttrCase<"FP16", 6, "fp16">]>;

def TT_DescriptorReduceKindAttr : TT_I32Enum<"DescriptorReduceKind", "TMA reduction kind", [
  I32EnumAttrCase<"ADD", 1, "add">, I32EnumAttrCase<"MIN", 2, "min">,
  I32EnumAttrCase<"MAX", 3, "max">, I32EnumAttrCase<"INC", 4, "inc">,
  I32EnumAttrCase<"DEC", 5, "dec">, I32EnumAttrCase<"AND", 6, "and">,
  I32EnumAttrCase<"OR", 7, "or">, I32EnumAttrCase<"XOR", 8, "xor">]>;

def GlobalMemory : Resource<"::mlir::triton::GlobalMemory">;

//===----------------------------------------------------------------------===//
// Native traits whose rules are written in Rust
//===----------------------------------------------------------------------===//

class TT_RustTrait<string name> : NativeOpTrait<name> {
  let cppNamespace = "::mlir::triton::OpTrait";
}

def TensorSizeTrait : TT_RustTrait<"TensorSizeTrait">;
def VerifyTensorLayoutsTrait : TT_RustTrait<"VerifyTensorLayoutsTrait">;
def SameOperandsEncoding : TT_RustTrait<"SameOperandsEncoding">;
def SameOperandsAndResultEncoding : TT_RustTrait<"SameOperandsAndResultEncoding">;
def SameLoadStoreOperandsShape : TT_RustTrait<"SameLoadStoreOperandsShape">;
def SameLoadStoreOperandsAndResultShape : TT_RustTrait<"SameLoadStoreOperandsAndResultShape">;
def SameLoadStoreOperandsEncoding : TT_RustTrait<"SameLoadStoreOperandsEncoding">;
def SameLoadStoreOperandsAndResultEncoding : TT_RustTrait<"SameLoadStoreOperandsAndResultEncoding">;

// Every op of tt, ttg and ttng gets this `verify()`: the op-specific rules
// are Rust functions looked up by op name (dialects/*/src/verify.rs).
defvar TT_RustVerifyDefinition = [{
  ::llvm::LogicalResult $cppClass::verify() {
    return ::mlir::triton::shim::verifyOp(getOperation());
  }
}];

// Every op's canonicalization patterns are Rust patterns, looked up by op
// name when a pass (canonicalize) collects them (dialects/tt/src/canonicalize).
defvar TT_RustCanonicalizerDefinition = [{
  void $cppClass::getCanonicalizationPatterns(
      ::mlir::RewritePatternSet &results, ::mlir::MLIRContext *context) {
    ::mlir::triton::shim::addCanonicalizationPatterns(getOperationName(),
                                                      results, context);
  }
}];

// The folder of a single-result op that sets `hasFolder`: a Rust function
// looked up by op name.
defvar TT_RustFoldDefinition = [{
  ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {
    return ::mlir::triton::shim::foldOp(getOperation(), adaptor.getOperands());
  }
}];

// What every op of tt, ttg and ttng defines in Rust.
defvar TT_RustOpDefinitions =
    !strconcat(TT_RustVerifyDefinition, TT_RustCanonicalizerDefinition);
defvar TT_RustFoldedOpDefinitions =
    !strconcat(TT_RustOpDefinitions, TT_RustFoldDefinition);

#endif // TT_BASE_TD
