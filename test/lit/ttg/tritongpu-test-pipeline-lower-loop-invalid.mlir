// tritongpu-test-pipeline-lower-loop refuses, with a located error, what
// it cannot lower.
// RUN: tt-opt %s -split-input-file -verify-diagnostics -tritongpu-test-pipeline-lower-loop

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_in_if(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x128xf16, #shared, #smem>, %n: i32, %c: i1) {
    %true = arith.constant true
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %acc, %acc_tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    scf.for %i = %c0_i32 to %n step %c1_i32 : i32 {
      scf.if %c {
        // expected-error @+1 {{pipelining an MMA nested in the loop body is not supported yet}}
        %t = ttng.tc_gen5_mma %a, %b, %acc[], %true, %true {tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      } {loop.cluster = 0 : i32, loop.stage = 0 : i32}
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}

// -----

#blocked1 = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @always_accumulates(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x128xf16, #shared, #smem>, %out: tensor<128x128x!tt.ptr<f32>, #blocked1>, %n: i32) {
    %true = arith.constant true
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    // Triton stops with a fatal error here.
    // expected-error @+1 {{multi-buffering an accumulator that is never overwritten in the loop is not supported yet}}
    %acc, %acc_tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %last = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%tok = %acc_tok) -> (!ttg.async.token) : i32 {
      %mma_tok = ttng.tc_gen5_mma %a, %b, %acc[%tok], %true, %true {loop.cluster = 0 : i32, loop.stage = 0 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %res, %load_tok = ttng.tmem_load %acc[%mma_tok] {loop.cluster = 1 : i32, loop.stage = 1 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked1>
      tt.store %out, %res {loop.cluster = 1 : i32, loop.stage = 1 : i32} : tensor<128x128x!tt.ptr<f32>, #blocked1>
      scf.yield %load_tok : !ttg.async.token
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}
