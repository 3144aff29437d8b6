// Triton's instrumentation dialect `tti` (TritonInstrument): the
// experimental ops that Triton's concurrency sanitizer inserts and that
// `convert-triton-gpu-to-llvm` lowers. Same op names, operands, attributes
// and assembly as Triton 3.6's, so that its lit files and IR dumps parse.

#ifndef TTI_TD
#define TTI_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "TritonGPUBase.td"
include "TritonInstrumentAttrs.td"

def TritonInstrument_Dialect : Dialect {
  let name = "tti";
  let cppNamespace = "::mlir::triton::instrument";
  let summary = "Triton's instrumentation ops (concurrency sanitizer)";
  let dependentDialects = ["::mlir::triton::TritonDialect",
                           "::mlir::triton::gpu::TritonGPUDialect"];
}

class TTI_Op<string mnemonic, list<Trait> traits = []>
    : Op<TritonInstrument_Dialect, mnemonic, traits>;

def TTI_ExperimentalAssertInThreadOp
    : TTI_Op<"experimental_assert_in_thread",
             [MemoryEffects<[MemWrite<GlobalMemory>]>]> {
  let summary = "assert a condition in every thread";
  let description = [{
    Each thread reduces its own elements of `condition` (`or` when
    `check_any`, else `and`) and fails with `message` when the result is
    false. No cross-thread communication.
  }];
  let arguments = (ins AnyTypeOf<[I1, TT_BoolTensor]>:$condition,
                   StrAttr:$message, BoolAttr:$check_any);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def TTI_ExperimentalBufferPointersOp
    : TTI_Op<"experimental_buffer_pointers", [Pure]> {
  let summary = "a tensor of buffer addresses";
  let description = [{
    Creates a tensor whose elements are the memory space's base address plus
    the given offsets (one per element).
  }];
  let arguments = (ins DenseI32ArrayAttr:$offsets, TTI_MemTypeAttr:$memType);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$offsets `,` $memType attr-dict `:` type($result)";
}

def TTI_ExperimentalMemDescToI32Op
    : TTI_Op<"experimental_memdesc_to_i32", [Pure]> {
  let summary = "a memory descriptor's base address as i32";
  let arguments = (ins TTG_MemDescType:$memdesc);
  let results = (outs I32:$result);
  let assemblyFormat = "$memdesc attr-dict `:` type($memdesc)";
}

def TTI_ExperimentalMemDescToI64Op
    : TTI_Op<"experimental_memdesc_to_i64", [Pure]> {
  let summary = "a memory descriptor's base address as i64";
  let arguments = (ins TTG_MemDescType:$memdesc);
  let results = (outs I64:$result);
  let assemblyFormat = "$memdesc attr-dict `:` type($memdesc)";
}

def TTI_ExperimentalLockAcquireOp
    : TTI_Op<"experimental_lock_acquire",
             [MemoryEffects<[MemWrite<GlobalMemory>]>]> {
  let summary = "acquire a lock in global memory";
  let description = [{
    One thread spins on a compare-and-swap of the lock from 0 to 1 (acquire
    semantics) while `pred` holds; then the CTA synchronizes.
  }];
  let arguments = (ins TT_PtrLike:$lock, Optional<I1>:$pred);
  let assemblyFormat = "$lock (`,` $pred^)? attr-dict `:` type($lock)";
}

def TTI_ExperimentalLockReleaseOp
    : TTI_Op<"experimental_lock_release",
             [MemoryEffects<[MemWrite<GlobalMemory>]>]> {
  let summary = "release a lock in global memory";
  let description = [{
    The CTA synchronizes; then one thread exchanges the lock back to 0
    (acquire-release semantics) while `pred` holds.
  }];
  let arguments = (ins TT_PtrLike:$lock, Optional<I1>:$pred);
  let assemblyFormat = "$lock (`,` $pred^)? attr-dict `:` type($lock)";
}

#endif // TTI_TD
