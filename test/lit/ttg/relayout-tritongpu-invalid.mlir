// What relayout-tritongpu does not do yet is refused with a located error.
// RUN: tt-opt %s --split-input-file --verify-diagnostics -relayout-tritongpu

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CTASplitM = 2>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_over_ctas(%desc: !ttg.memdesc<256x64xf32, #tmem, #ttng.tensor_memory>) -> tensor<256x64xf32, #blocked> {
    // expected-error @+1 {{'relayout-tritongpu' does not support tensor memory split over several CTAs yet}}
    %r = ttng.tmem_load %desc : !ttg.memdesc<256x64xf32, #tmem, #ttng.tensor_memory> -> tensor<256x64xf32, #blocked>
    tt.return %r : tensor<256x64xf32, #blocked>
  }
}
