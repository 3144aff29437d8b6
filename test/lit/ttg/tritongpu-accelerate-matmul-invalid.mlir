// What tritongpu-accelerate-matmul does not do yet is refused with a located
// error instead of being passed through unchanged.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-accelerate-matmul

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = [[1, 0]]}>
#scales = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scaled_mma_v5_two_ctas(%a: tensor<256x64xi8, #blocked>, %sa: tensor<256x2xi8, #scales>, %b: tensor<64x128xi8, #blocked>, %sb: tensor<128x2xi8, #scales>, %c: tensor<256x128xf32, #blocked>) -> tensor<256x128xf32, #blocked> {
    // expected-error @+1 {{'tritongpu-accelerate-matmul' does not support tt.dot_scaled over more than one CTA (MMA v5) yet}}
    %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<256x64xi8, #blocked>, tensor<256x2xi8, #scales> * tensor<64x128xi8, #blocked>, tensor<128x2xi8, #scales> -> tensor<256x128xf32, #blocked>
    tt.return %d : tensor<256x128xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scaled(%a: tensor<128x64xf8E4M3FN, #blocked>, %scale: tensor<128x4xf8E4M3FN, #blocked1>, %b: tensor<64x128xbf16, #blocked>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    // expected-error @+1 {{'tritongpu-accelerate-matmul' does not support a tt.dot_scaled with float scales yet}}
    %d = tt.dot_scaled %a scale %scale, %b, %c lhs = e4m3 rhs = bf16 {fastMath = false} : tensor<128x64xf8E4M3FN, #blocked>, tensor<128x4xf8E4M3FN, #blocked1> * tensor<64x128xbf16, #blocked> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{'tritongpu-accelerate-matmul' needs the module's 'ttg.target' (cuda:<capability>)}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_target(%a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_ctas(%a: tensor<256x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<256x128xf32, #blocked>) -> tensor<256x128xf32, #blocked> {
    // expected-error @+1 {{'tritongpu-accelerate-matmul' does not support a tt.dot whose result layout is not a blocked layout of one CTA yet}}
    %d = tt.dot %a, %b, %c : tensor<256x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<256x128xf32, #blocked>
    tt.return %d : tensor<256x128xf32, #blocked>
  }
}

// -----

// Batched scaled dots and fp4 packed along M are refused until they have
// run on a GPU here.
#b3 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scaled_batched(%a: tensor<2x64x32xi8, #b3>, %scale: tensor<2x64x2xi8, #b3>, %b: tensor<2x64x64xbf16, #b3>, %c: tensor<2x64x64xf32, #b3>) -> tensor<2x64x64xf32, #b3> {
    // expected-error @+1 {{'tritongpu-accelerate-matmul' does not support a batched (rank-3) tt.dot_scaled yet}}
    %d = tt.dot_scaled %a scale %scale, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<2x64x32xi8, #b3>, tensor<2x64x2xi8, #b3> * tensor<2x64x64xbf16, #b3> -> tensor<2x64x64xf32, #b3>
    tt.return %d : tensor<2x64x64xf32, #b3>
  }
}

// -----

#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scaled_packed_along_m(%a: tensor<32x64xi8, #b2>, %scale: tensor<64x2xi8, #b2>, %b: tensor<64x64xbf16, #b2>, %c: tensor<64x64xf32, #b2>) -> tensor<64x64xf32, #b2> {
    // expected-error @+1 {{'tritongpu-accelerate-matmul' does not support a tt.dot_scaled whose fp4 operand is packed along M or N yet}}
    %d = tt.dot_scaled %a scale %scale, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false, lhs_k_pack = false} : tensor<32x64xi8, #b2>, tensor<64x2xi8, #b2> * tensor<64x64xbf16, #b2> -> tensor<64x64xf32, #b2>
    tt.return %d : tensor<64x64xf32, #b2>
  }
}
