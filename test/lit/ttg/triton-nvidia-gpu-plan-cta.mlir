// triton-nvidia-gpu-plan-cta: with "ttg.num-ctas" = 1 (or no num-ctas
// attribute) Triton 3.6 changes nothing, dots and reductions included;
// with num-ctas > 1 a kernel without tensors has nothing to plan either,
// and tensors are refused with a located error instead of being left
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

// CHECK-LABEL: tt.func @two_ctas_scalars
// CHECK-NEXT: tt.get_program_id x
// CHECK-NEXT: tt.return
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_ctas_scalars() -> i32 {
    %p = tt.get_program_id x : i32
    tt.return %p : i32
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[1]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_ctas_tensor() {
    // expected-error @+1 {{'triton-nvidia-gpu-plan-cta' does not support tensors with "ttg.num-ctas" = 2 (thread-block clusters) yet}}
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}
