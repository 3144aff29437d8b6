// triton-nvidia-gpu-plan-cta: with "ttg.num-ctas" = 1 (or no num-ctas
// attribute) Triton 3.6 changes nothing, dots and reductions included;
// num-ctas > 1 is refused with a located error instead of being left
// unplanned.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --triton-nvidia-gpu-plan-cta | FileCheck %s

// CHECK: #[[B:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @reduce_and_dot
// CHECK-NEXT: %[[R:.*]] = "tt.reduce"(%arg0) <{axis = 1 : i32}>
// CHECK: tt.reduce.return
// CHECK-NEXT: }) : (tensor<32x32xf32, #[[B]]>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #[[B]]}>>
// CHECK-NEXT: %[[D:.*]] = tt.dot %arg1, %arg2, %arg3 : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[B]]}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #[[B]]}>> -> tensor<32x32xf32, #[[B]]>
// CHECK-NEXT: tt.return %[[R]], %[[D]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reduce_and_dot(%x: tensor<32x32xf32, #blocked>, %a: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x32xf32, #blocked>) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32x32xf32, #blocked>) {
    %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %rr: f32):
      %s = arith.addf %l, %rr : f32
      tt.reduce.return %s : f32
    }) : (tensor<32x32xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %d = tt.dot %a, %b, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
    tt.return %r, %d : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32x32xf32, #blocked>
  }
}

// -----

// A module without "ttg.num-ctas" counts as one CTA, as in Triton.
// CHECK-LABEL: tt.func @no_attribute
// CHECK-NEXT: tt.return
module {
  tt.func @no_attribute() {
    tt.return
  }
}

// -----

// expected-error @+1 {{CTA planning for "ttg.num-ctas" = 2 (> 1) is not supported yet}}
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_ctas() {
    tt.return
  }
}
