// RUN: tt-opt %s --split-input-file --verify-diagnostics -tritongpu-pipeline

// Triton peels the last iteration of a loop whose tcgen05 MMA is waited on
// in the last stage, with stage predicates of its own: refused here.
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#t = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_waited_in_last_stage() {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %true = arith.constant true
    %a = ttng.tmem_alloc : () -> !ttg.memdesc<64x64xbf16, #t, #ttng.tensor_memory, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #s, #ttg.shared_memory, mutable>
    %c = ttng.tmem_alloc : () -> !ttg.memdesc<64x64xf32, #t, #ttng.tensor_memory, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #b, #ttg.shared_memory, mutable>
    scf.for %j = %c0 to %c16 step %c16 : i32 {
      // expected-error @+1 {{tritongpu-pipeline: pipelining a tcgen05 MMA waited on in the loop's last stage (Triton peels the loop's last iteration) is not supported yet}}
      ttng.tc_gen5_mma %a, %b, %c, %true, %true, %bar[%true] {is_async, loop.cluster = 2 : i32, loop.stage = 0 : i32} : !ttg.memdesc<64x64xbf16, #t, #ttng.tensor_memory, mutable>, !ttg.memdesc<64x64xbf16, #s, #ttg.shared_memory, mutable>, !ttg.memdesc<64x64xf32, #t, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #b, #ttg.shared_memory, mutable>
      ttng.wait_barrier %bar, %c0 deps %a, %b {loop.cluster = 1 : i32, loop.stage = 1 : i32} : !ttg.memdesc<1xi64, #b, #ttg.shared_memory, mutable>, !ttg.memdesc<64x64xbf16, #t, #ttng.tensor_memory, mutable>, !ttg.memdesc<64x64xbf16, #s, #ttg.shared_memory, mutable>
      scf.yield
    } {tt.num_stages = 4 : i32, tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}
