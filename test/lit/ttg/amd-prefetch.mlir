// tritongpu-prefetch takes loops whose dot has an AMD MFMA result, as
// Triton's prefetcher does (Ampere MMA or MFMA): the same slicing as for
// MMA v2, with operand layouts of the MFMA parent. A WMMA dot is left
// alone, as in Triton.
// RUN: tt-opt %s --split-input-file --tritongpu-prefetch --canonicalize | FileCheck %s

// CHECK-LABEL: @mfma
// CHECK: %[[A0:.*]] = ttg.memdesc_subslice %arg0[0, 0] : !ttg.memdesc<128x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x16xf16, #shared, #smem, mutable, 128x32>
// CHECK-NEXT: %[[PA:.*]] = ttg.local_load %[[A0]] : {{.*}} -> tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[B0:.*]] = ttg.memdesc_subslice %arg1[0, 0]
// CHECK-NEXT: %[[PB:.*]] = ttg.local_load %[[B0]] : {{.*}} -> tensor<16x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[A:.*]] = %arg0, %[[B:.*]] = %arg1, %[[XA:.*]] = %[[PA]], %[[XB:.*]] = %[[PB]])
// CHECK-NEXT: %[[A1:.*]] = ttg.memdesc_subslice %[[A]][0, 16]
// CHECK-NEXT: %[[RA:.*]] = ttg.local_load %[[A1]]
// CHECK-NEXT: %[[B1:.*]] = ttg.memdesc_subslice %[[B]][16, 0]
// CHECK-NEXT: %[[RB:.*]] = ttg.local_load %[[B1]]
// CHECK-NEXT: %[[D0:.*]] = tt.dot %[[XA]], %[[XB]], %[[ACC]] : {{.*}} -> tensor<128x128xf32, #mma>
// CHECK: %[[D1:.*]] = tt.dot %[[RA]], %[[RB]], %[[D0]]
// CHECK-NEXT: scf.yield %[[D1]]
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [32, 32, 8], isTransposed = false}>
#sh = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @mfma(%a0: !ttg.memdesc<128x32xf16, #sh, #smem, mutable>, %b0: !ttg.memdesc<32x128xf16, #sh, #smem, mutable>, %buf: !ttg.memdesc<2x128x32xf16, #sh, #smem, mutable>, %bbuf: !ttg.memdesc<2x32x128xf16, #sh, #smem, mutable>, %n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %a = %a0, %b = %b0) -> (tensor<128x128xf32, #mma>, !ttg.memdesc<128x32xf16, #sh, #smem, mutable>, !ttg.memdesc<32x128xf16, #sh, #smem, mutable>) : i32 {
      %x = ttg.local_load %a : !ttg.memdesc<128x32xf16, #sh, #smem, mutable> -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y = ttg.local_load %b : !ttg.memdesc<32x128xf16, #sh, #smem, mutable> -> tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %x, %y, %acc : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
      %j = arith.addi %i, %c1 : i32
      %na = ttg.memdesc_index %buf[%j] : !ttg.memdesc<2x128x32xf16, #sh, #smem, mutable> -> !ttg.memdesc<128x32xf16, #sh, #smem, mutable>
      %nb = ttg.memdesc_index %bbuf[%j] : !ttg.memdesc<2x32x128xf16, #sh, #smem, mutable> -> !ttg.memdesc<32x128xf16, #sh, #smem, mutable>
      scf.yield %d, %na, %nb : tensor<128x128xf32, #mma>, !ttg.memdesc<128x32xf16, #sh, #smem, mutable>, !ttg.memdesc<32x128xf16, #sh, #smem, mutable>
    }
    tt.return %r#0 : tensor<128x128xf32, #mma>
  }
}

// -----

// CHECK-LABEL: @wmma
// CHECK-NOT: ttg.memdesc_subslice
// CHECK: tt.return
#mma = #ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2]}>
#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1200", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wmma(%a0: !ttg.memdesc<64x128xf16, #sh, #smem, mutable>, %b0: !ttg.memdesc<128x64xf16, #sh, #smem, mutable>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %a = %a0, %b = %b0) -> (tensor<64x64xf32, #mma>, !ttg.memdesc<64x128xf16, #sh, #smem, mutable>, !ttg.memdesc<128x64xf16, #sh, #smem, mutable>) : i32 {
      %x = ttg.local_load %a : !ttg.memdesc<64x128xf16, #sh, #smem, mutable> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>>
      %y = ttg.local_load %b : !ttg.memdesc<128x64xf16, #sh, #smem, mutable> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>>
      %d = tt.dot %x, %y, %acc : tensor<64x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>> * tensor<128x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>> -> tensor<64x64xf32, #mma>
      scf.yield %d, %a, %b : tensor<64x64xf32, #mma>, !ttg.memdesc<64x128xf16, #sh, #smem, mutable>, !ttg.memdesc<128x64xf16, #sh, #smem, mutable>
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }
}
