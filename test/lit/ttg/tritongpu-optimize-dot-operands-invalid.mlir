// What tritongpu-optimize-dot-operands does not do yet is refused with a
// located error.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-optimize-dot-operands

#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#at = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transposed_mma_v2_operand(%a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %pb: tensor<64x64x!tt.ptr<f16>, #a>) -> tensor<64x64xf32, #mma> {
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #a>
    %yt = tt.trans %y {order = array<i32: 1, 0>} : tensor<64x64xf16, #a> -> tensor<64x64xf16, #at>
    // expected-error @+1 {{'tritongpu-optimize-dot-operands' does not support a dot operand converted from a tt.trans (SwizzleShmemConvert) yet}}
    %yb = ttg.convert_layout %yt : tensor<64x64xf16, #at> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %yb, %z : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

#b3 = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshaped_operand(%x: tensor<2x32x64xf16, #b3>) -> !ttg.memdesc<64x64xf16, #s, #smem> {
    %r = tt.reshape %x : tensor<2x32x64xf16, #b3> -> tensor<64x64xf16, #b2>
    // expected-error @+1 {{'tritongpu-optimize-dot-operands' does not support an NVMMA ttg.local_alloc of a tt.reshape (ReshapeMemDesc) yet}}
    %s = ttg.local_alloc %r : (tensor<64x64xf16, #b2>) -> !ttg.memdesc<64x64xf16, #s, #smem>
    tt.return %s : !ttg.memdesc<64x64xf16, #s, #smem>
  }
}
