// tritongpu-remove-layout-conversions with AMD layouts: MFMA and WMMA
// results count as MMA layouts (Triton's MmaEncodingTrait), so a conversion
// to an operand of an MFMA or WMMA dot that the dot post-dominates moves up
// to the load, through the elementwise op in between; the dot's result
// stays in the MMA layout across the loop.
// RUN: tt-opt %s --split-input-file --tritongpu-remove-layout-conversions | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: tt.func @mfma_operand
  // CHECK: scf.for
  // CHECK-NEXT: %[[A:.*]] = tt.load
  // CHECK-NEXT: %[[CVT:.*]] = ttg.convert_layout %[[A]] : tensor<128x64xf8E5M2, #blocked> -> tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
  // CHECK-NEXT: tt.fp_to_fp %[[CVT]] : tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
  // CHECK-NEXT: tt.dot
  // CHECK-NEXT: scf.yield %{{.*}} : tensor<128x128xf32, #mma>
  tt.func @mfma_operand(%n: i32, %pa: tensor<128x64x!tt.ptr<f8E5M2>, #blocked>, %b: tensor<64x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>) -> tensor<128x128xf32, #blocked1> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked1>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #blocked1>) : i32 {
      %a = tt.load %pa : tensor<128x64x!tt.ptr<f8E5M2>, #blocked>
      %a1 = ttg.convert_layout %a : tensor<128x64xf8E5M2, #blocked> -> tensor<128x64xf8E5M2, #blocked1>
      %a2 = tt.fp_to_fp %a1 : tensor<128x64xf8E5M2, #blocked1> -> tensor<128x64xbf16, #blocked1>
      %a3 = ttg.convert_layout %a2 : tensor<128x64xbf16, #blocked1> -> tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
      %c = ttg.convert_layout %acc : tensor<128x128xf32, #blocked1> -> tensor<128x128xf32, #mma>
      %d = tt.dot %a3, %b, %c : tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x128xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<128x128xf32, #mma>
      %d1 = ttg.convert_layout %d : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked1>
      scf.yield %d1 : tensor<128x128xf32, #blocked1>
    }
    tt.return %r : tensor<128x128xf32, #blocked1>
  }
}
