// tt.clampf and arith.maximumf/minimumf by target, as Triton lowers them:
// clamp(x, -limit, limit) is one min.xorsign.abs from sm_90 on; the
// NaN-propagating LLVM intrinsics from sm_80 on; before sm_80, the
// non-propagating ones with NaN selected explicitly.
// RUN: tt-opt %s -split-input-file --convert-triton-gpu-to-llvm=compute-capability=90 | FileCheck %s --check-prefix=SM90
// RUN: tt-opt %s -split-input-file --convert-triton-gpu-to-llvm=compute-capability=80 | FileCheck %s --check-prefix=SM80
// RUN: tt-opt %s -split-input-file --convert-triton-gpu-to-llvm=compute-capability=75 | FileCheck %s --check-prefix=SM75

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // SM90-LABEL: llvm.func @clip
  // SM80-LABEL: llvm.func @clip
  // SM75-LABEL: llvm.func @clip
  tt.func public @clip(%p: !tt.ptr<f32>, %x: f32, %limit: f32, %h: f16, %hl: f16, %b: bf16, %bl: bf16) {
    %zero = arith.constant 0.000000e+00 : f32
    %neg = arith.subf %zero, %limit : f32
    // SM90: llvm.call_intrinsic "llvm.nvvm.fmin.nan.xorsign.abs.f"(%{{.*}}, %arg2) : (f32, f32) -> f32
    // SM80: llvm.intr.maximum
    // SM80-NEXT: llvm.intr.minimum
    // SM75: %[[NAN:.*]] = llvm.fcmp "une" %arg1, %arg1 : f32
    // SM75-NEXT: %[[MAX:.*]] = llvm.intr.maxnum(%arg1, %{{.*}}) : (f32, f32) -> f32
    // SM75-NEXT: %[[MIN:.*]] = llvm.intr.minnum(%[[MAX]], %arg2) : (f32, f32) -> f32
    // SM75-NEXT: %[[C:.*]] = llvm.mlir.constant(0x7FC00000 : f32) : f32
    // SM75-NEXT: llvm.select %[[NAN]], %[[C]], %[[MIN]] : i1, f32
    %c0 = tt.clampf %x, %neg, %limit, propagateNan = all : f32
    // SM90: llvm.call_intrinsic "llvm.nvvm.fmin.xorsign.abs.f"
    // SM80: llvm.intr.maxnum
    // SM80-NEXT: llvm.intr.minnum
    %neg2 = arith.negf %limit : f32
    %c1 = tt.clampf %c0, %neg2, %limit, propagateNan = none : f32
    // Constant bounds -c and c, on f16.
    // SM90: llvm.call_intrinsic "llvm.nvvm.fmin.nan.xorsign.abs.f16"
    %lo = arith.constant -6.000000e+00 : f16
    %hi = arith.constant 6.000000e+00 : f16
    %c2 = tt.clampf %h, %lo, %hi, propagateNan = all : f16
    // Not a clip (the bounds are unrelated), and bf16 has no xorsign form
    // here: min/max on every target.
    // SM90: llvm.intr.maximum
    // SM90-NEXT: llvm.intr.minimum
    // SM90: llvm.intr.maximum
    // SM90-NEXT: llvm.intr.minimum
    %c3 = tt.clampf %h, %hl, %hi, propagateNan = all : f16
    %negb = arith.negf %bl : bf16
    %c4 = tt.clampf %b, %negb, %bl, propagateNan = all : bf16
    tt.store %p, %c1 : !tt.ptr<f32>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // SM80-LABEL: llvm.func @min_max
  // SM75-LABEL: llvm.func @min_max
  tt.func public @min_max(%p: !tt.ptr<f32>, %x: f32, %y: f32) {
    // SM80: llvm.intr.maximum(%arg1, %arg2)
    // SM80: llvm.intr.minimum
    // SM75: %[[A:.*]] = llvm.fcmp "une" %arg1, %arg1 : f32
    // SM75-NEXT: %[[B:.*]] = llvm.fcmp "une" %arg2, %arg2 : f32
    // SM75-NEXT: %[[E:.*]] = llvm.or %[[A]], %[[B]] : i1
    // SM75-NEXT: %[[M:.*]] = llvm.intr.maxnum(%arg1, %arg2) : (f32, f32) -> f32
    // SM75-NEXT: %[[C:.*]] = llvm.mlir.constant(0x7FC00000 : f32) : f32
    // SM75-NEXT: llvm.select %[[E]], %[[C]], %[[M]] : i1, f32
    // SM75: llvm.intr.minnum
    %0 = arith.maximumf %x, %y : f32
    %1 = arith.minimumf %0, %y : f32
    tt.store %p, %1 : !tt.ptr<f32>
    tt.return
  }
}
