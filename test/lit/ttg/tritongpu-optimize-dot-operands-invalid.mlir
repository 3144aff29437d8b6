// What tritongpu-optimize-dot-operands does not do yet is refused with a
// located error.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-optimize-dot-operands

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
