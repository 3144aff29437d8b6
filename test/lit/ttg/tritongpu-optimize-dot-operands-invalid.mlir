// What tritongpu-optimize-dot-operands cannot type is refused with a
// located error (Triton's pass aborts on this input).
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-optimize-dot-operands

#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshaped_operand(%x: tensor<64x64x2xf16>) -> !ttg.memdesc<64x128xf16, #s, #smem> {
    %r = tt.reshape %x : tensor<64x64x2xf16> -> tensor<64x128xf16>
    // expected-error @+1 {{'tritongpu-optimize-dot-operands' does not support a ttg.local_alloc of a tt.reshape (an NVMMA shared buffer of shape [64, 64, 2]) yet}}
    %s = ttg.local_alloc %r : (tensor<64x128xf16>) -> !ttg.memdesc<64x128xf16, #s, #smem>
    tt.return %s : !ttg.memdesc<64x128xf16, #s, #smem>
  }
}
