// tritongpu-prefetch: the prefetched loop is what Triton 3.6's own pass
// gives for the same input (scripts/triton-pass.py); checked here after the
// canonicalization that follows it in make_ttgir (which drops the original,
// dead dot).
// RUN: tt-opt %s --split-input-file --tritongpu-prefetch --canonicalize | FileCheck %s

// K = 32 in two slices of 16 (kWidth 2): the first slices are loaded before
// the loop and carried, the second ones loaded in the loop before the first
// dot, the next iteration's first slices after the independent index
// computation, and the second dot issued last.
// CHECK-LABEL: @two_slices
// CHECK: %[[A0:.*]] = ttg.memdesc_subslice %arg0[0, 0] : !ttg.memdesc<64x32xf16, #{{.*}}, #smem, mutable> -> !ttg.memdesc<64x16xf16, #{{.*}}, #smem, mutable, 64x32>
// CHECK-NEXT: %[[PA:.*]] = ttg.local_load %[[A0]] : {{.*}} -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[B0:.*]] = ttg.memdesc_subslice %arg1[0, 0]
// CHECK-NEXT: %[[PB:.*]] = ttg.local_load %[[B0]]
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[A:.*]] = %arg0, %[[B:.*]] = %arg1, %[[XA:.*]] = %[[PA]], %[[XB:.*]] = %[[PB]])
// CHECK-NEXT: %[[A1:.*]] = ttg.memdesc_subslice %[[A]][0, 16]
// CHECK-NEXT: %[[RA:.*]] = ttg.local_load %[[A1]]
// CHECK-NEXT: %[[B1:.*]] = ttg.memdesc_subslice %[[B]][16, 0]
// CHECK-NEXT: %[[RB:.*]] = ttg.local_load %[[B1]]
// CHECK-NEXT: %[[D0:.*]] = tt.dot %[[XA]], %[[XB]], %[[ACC]]
// CHECK: %[[NA:.*]] = ttg.memdesc_index
// CHECK-NEXT: %[[NB:.*]] = ttg.memdesc_index
// CHECK-NEXT: %[[NA0:.*]] = ttg.memdesc_subslice %[[NA]][0, 0]
// CHECK-NEXT: %[[NXA:.*]] = ttg.local_load %[[NA0]]
// CHECK-NEXT: %[[NB0:.*]] = ttg.memdesc_subslice %[[NB]][0, 0]
// CHECK-NEXT: %[[NXB:.*]] = ttg.local_load %[[NB0]]
// CHECK-NEXT: %[[D1:.*]] = tt.dot %[[RA]], %[[RB]], %[[D0]]
// CHECK-NEXT: scf.yield %[[D1]], %[[NA]], %[[NB]], %[[NXA]], %[[NXB]]
// The new loop has none of the old one's attributes, as in Triton.
// CHECK-NOT: tt.num_stages
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_slices(%a0: !ttg.memdesc<64x32xf16, #sh, #smem, mutable>, %b0: !ttg.memdesc<32x64xf16, #sh, #smem, mutable>, %buf: !ttg.memdesc<2x64x32xf16, #sh, #smem, mutable>, %bbuf: !ttg.memdesc<2x32x64xf16, #sh, #smem, mutable>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %a = %a0, %b = %b0) -> (tensor<64x64xf32, #mma>, !ttg.memdesc<64x32xf16, #sh, #smem, mutable>, !ttg.memdesc<32x64xf16, #sh, #smem, mutable>) : i32 {
      %x = ttg.local_load %a : !ttg.memdesc<64x32xf16, #sh, #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y = ttg.local_load %b : !ttg.memdesc<32x64xf16, #sh, #smem, mutable> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %x, %y, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %j = arith.addi %i, %c1 : i32
      %na = ttg.memdesc_index %buf[%j] : !ttg.memdesc<2x64x32xf16, #sh, #smem, mutable> -> !ttg.memdesc<64x32xf16, #sh, #smem, mutable>
      %nb = ttg.memdesc_index %bbuf[%j] : !ttg.memdesc<2x32x64xf16, #sh, #smem, mutable> -> !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
      scf.yield %d, %na, %nb : tensor<64x64xf32, #mma>, !ttg.memdesc<64x32xf16, #sh, #smem, mutable>, !ttg.memdesc<32x64xf16, #sh, #smem, mutable>
    } {tt.num_stages = 3 : i32}
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// One MMA v2 dot whose operands are not loaded from shared memory the loop
// carries (a loop that was not pipelined): nothing to prefetch, but Triton
// rebuilds the loop op for op all the same, and the rebuilt loop has none
// of the old one's attributes.
// CHECK-LABEL: @nothing_to_prefetch
// CHECK: scf.for
// CHECK: tt.dot
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }{{$}}
// A loop of no dot keeps its attributes.
// CHECK: scf.for
// CHECK: } {tt.num_stages = 2 : i32, tt.warp_specialize}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @nothing_to_prefetch(%pa: tensor<64x32x!tt.ptr<f16>, #blocked>, %pb: tensor<32x64x!tt.ptr<f16>, #blocked>, %n: i32) -> (tensor<64x64xf32, #mma>, i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) : i32 {
      %la = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #blocked>
      %lb = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #blocked>
      %x = ttg.convert_layout %la : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y = ttg.convert_layout %lb : tensor<32x64xf16, #blocked> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %x, %y, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tt.num_stages = 2 : i32, tt.warp_specialize}
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%t = %c0) -> (i32) : i32 {
      %u = arith.addi %t, %i : i32
      scf.yield %u : i32
    } {tt.num_stages = 2 : i32, tt.warp_specialize}
    tt.return %r, %s : tensor<64x64xf32, #mma>, i32
  }
}
