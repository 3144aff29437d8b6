// tritongpu-test-pipeline-lower-loop: the first step of the software
// pipeliner alone (Triton's lowerLoops), Blackwell MMAs included; the
// schedule stays on the ops. Each output is the same as Triton 3.6's
// (its tritongpu-pipeline's LowerLoops dump, canonicalized).
// RUN: tt-opt %s -split-input-file -tritongpu-test-pipeline-lower-loop -canonicalize | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // The MMA arrives on a ring of two barriers (its wait is one stage
  // later); the wait goes just before the accumulator read, in a new
  // cluster before it (the clusters after it shift); one accumulator.
  // CHECK-LABEL: tt.func public @mma_epilogue
  // CHECK: ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32
  // CHECK: %[[BAR:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
  // CHECK-COUNT-2: ttng.init_barrier
  // CHECK: %[[A:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
  // CHECK: scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}, %[[PHASE:.+]] = %c0_i32, %[[IDX:.+]] = %c0_i32, %{{.+}} = %c-1_i32, %{{.+}} = %c-1_i32)
  // CHECK: %[[SLICE:.+]] = ttg.memdesc_index %[[BAR]][%[[IDX]]] {loop.cluster = 2 : i32, loop.stage = 2 : i32}
  // CHECK: ttng.tc_gen5_mma {{.*}}, %[[SLICE]][%true] {is_async, loop.cluster = 2 : i32, loop.stage = 2 : i32}
  // CHECK-NEXT: ttng.wait_barrier %[[SLICE]], %[[PHASE]] deps %{{.+}}, %{{.+}} {loop.cluster = 0 : i32, loop.stage = 3 : i32}
  // CHECK-NEXT: ttng.tmem_load {{.*}} {loop.cluster = 1 : i32, loop.stage = 3 : i32}
  // CHECK: %[[FLIP:.+]] = arith.xori %[[PHASE]], %c1_i32 {loop.cluster = 2 : i32, loop.stage = 2 : i32}
  // CHECK: %[[NEXT:.+]] = arith.addi %[[IDX]], %c1_i32
  // CHECK: %[[WRAP:.+]] = arith.cmpi sge, %[[NEXT]], %c2_i32
  // CHECK: %[[IDX2:.+]] = arith.select %[[WRAP]], %c0_i32, %[[NEXT]]
  // CHECK: %[[PHASE2:.+]] = arith.select %[[WRAP]], %[[FLIP]], %[[PHASE]]
  // CHECK: scf.yield %{{.+}}, %[[PHASE2]], %[[IDX2]], %{{.+}}, %{{.+}} :
  // CHECK: } {tt.scheduled_max_stage = 3 : i32}
  // CHECK-COUNT-2: ttng.inval_barrier
  // CHECK: ttg.local_dealloc %[[BAR]]
  tt.func public @mma_epilogue(%a_ptr: tensor<128x64x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 16]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>}, %b_ptr: tensor<64x128x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 16]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>}, %out: tensor<128x128x!tt.ptr<f32>, #blocked1>, %n: i32) {
    %false = arith.constant false
    %true = arith.constant true
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %acc, %acc_tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %last = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%tok = %acc_tok) -> (!ttg.async.token) : i32 {
      %a = tt.load %a_ptr {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
      %a_sh = ttg.local_alloc %a {loop.cluster = 1 : i32, loop.stage = 2 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b = tt.load %b_ptr {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<64x128x!tt.ptr<f16>, #blocked>
      %b_sh = ttg.local_alloc %b {loop.cluster = 1 : i32, loop.stage = 2 : i32} : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %mma_tok = ttng.tc_gen5_mma %a_sh, %b_sh, %acc[%tok], %false, %true {loop.cluster = 1 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %res, %load_tok = ttng.tmem_load %acc[%mma_tok] {loop.cluster = 0 : i32, loop.stage = 3 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked1>
      tt.store %out, %res {loop.cluster = 0 : i32, loop.stage = 3 : i32} : tensor<128x128x!tt.ptr<f32>, #blocked1>
      scf.yield %load_tok : !ttg.async.token
    } {tt.scheduled_max_stage = 3 : i32}
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // The accumulator is read a stage after the MMA (under a conditional):
  // two buffers, the loop carries the index; the store in the loop moves
  // to the next buffer unless its predicate is off, the read after the
  // loop takes the last one; the tokens are gone. The conditional read
  // is not in an earlier stage than the wait: no wait before it.
  // CHECK-LABEL: tt.func public @persistent_multibuffered
  // CHECK: %[[ACC:.+]], %{{.+}} = ttng.tmem_alloc : () -> (!ttg.memdesc<2x128x128xf32
  // CHECK: %[[FIRST:.+]] = ttg.memdesc_index %[[ACC]][%c0_i32]
  // CHECK: ttng.tmem_store %{{.+}}, %[[FIRST]][], %true
  // CHECK: %[[LOOP:.+]]:5 = scf.for {{.*}} iter_args(%[[PHASE:.+]] = %c0_i32, %[[IDX:.+]] = %c0_i32, %[[BUF:.+]] = %c-1_i32, %{{.+}} = %c-1_i32, %{{.+}} = %c-1_i32)
  // CHECK: %[[NEXT:.+]] = arith.addi %[[BUF]], %c1_i32 {loop.cluster = 0 : i32, loop.stage = 2 : i32}
  // CHECK: %[[WRAP:.+]] = arith.cmpi sge, %[[NEXT]], %c2_i32
  // CHECK: %[[NEXT2:.+]] = arith.select %[[WRAP]], %c0_i32, %[[NEXT]]
  // CHECK: %[[BUF2:.+]] = arith.select %{{.+}}, %[[BUF]], %[[NEXT2]]
  // CHECK: %[[S:.+]] = ttg.memdesc_index %[[ACC]][%[[BUF2]]]
  // CHECK: ttng.tmem_store %{{.+}}, %[[S]][], %{{.+}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
  // CHECK: %[[D:.+]] = ttg.memdesc_index %[[ACC]][%[[BUF2]]]
  // CHECK: ttng.tc_gen5_mma %{{.+}}, %{{.+}}, %[[D]][], %true, %true, %{{.+}}[%true] {is_async
  // CHECK: ttng.wait_barrier {{.*}} {loop.cluster = 0 : i32, loop.stage = 3 : i32}
  // CHECK: scf.if
  // CHECK-NEXT: %[[R:.+]] = ttg.memdesc_index %[[ACC]][%[[BUF2]]]
  // CHECK-NEXT: ttng.tmem_load %[[R]][]
  // CHECK: scf.yield %{{.+}}, %{{.+}}, %[[BUF2]], %{{.+}}, %{{.+}} :
  // CHECK: %[[LAST:.+]] = ttg.memdesc_index %[[ACC]][%[[LOOP]]#2]
  // CHECK: ttng.tmem_load %[[LAST]][]
  tt.func public @persistent_multibuffered(%a_ptr: tensor<128x64x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 16]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>}, %b_ptr: tensor<64x128x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 16]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>}, %out: tensor<128x128x!tt.ptr<f32>, #blocked1>, %n: i32, %init: tensor<128x128xf32, #blocked1>, %reset: i1) {
    %true = arith.constant true
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %acc, %acc_tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %init_tok = ttng.tmem_store %init, %acc[%acc_tok], %true : tensor<128x128xf32, #blocked1> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %last = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%tok = %init_tok) -> (!ttg.async.token) : i32 {
      %keep = arith.xori %reset, %true {loop.cluster = 0 : i32, loop.stage = 2 : i32} : i1
      %st_tok = ttng.tmem_store %init, %acc[%tok], %keep {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x128xf32, #blocked1> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %a = tt.load %a_ptr {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked>
      %a_sh = ttg.local_alloc %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b = tt.load %b_ptr {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x128x!tt.ptr<f16>, #blocked>
      %b_sh = ttg.local_alloc %b {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %mma_tok = ttng.tc_gen5_mma %a_sh, %b_sh, %acc[%st_tok], %true, %true {loop.cluster = 0 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %if_tok = scf.if %reset -> (!ttg.async.token) {
        %res, %load_tok = ttng.tmem_load %acc[%mma_tok] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked1>
        tt.store %out, %res : tensor<128x128x!tt.ptr<f32>, #blocked1>
        scf.yield %load_tok : !ttg.async.token
      } else {
        scf.yield %mma_tok : !ttg.async.token
      } {loop.cluster = 1 : i32, loop.stage = 3 : i32}
      scf.yield %if_tok : !ttg.async.token
    } {tt.scheduled_max_stage = 3 : i32}
    %final, %final_tok = ttng.tmem_load %acc[%last] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked1>
    tt.store %out, %final : tensor<128x128x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#offsets = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // A TMA gather read a stage later: a ring of two buffers and barriers,
  // the clusters renumbered from 0.
  // CHECK-LABEL: tt.func @gather
  // CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x64xf16
  // CHECK: %[[BAR:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
  // CHECK: scf.for
  // CHECK: %[[B:.+]] = ttg.memdesc_index %[[BAR]][%[[INS:.+]]] {loop.cluster = 0 : i32, loop.stage = 0 : i32}
  // CHECK: ttng.barrier_expect %[[B]], 4096 {loop.cluster = 0 : i32, loop.stage = 0 : i32}
  // CHECK: %[[V:.+]] = ttg.memdesc_index %[[BUF]][%[[INS]]]
  // CHECK: ttng.async_tma_gather %{{.+}}[%{{.+}}, %{{.+}}] %[[V]], %[[B]], %true {loop.cluster = 0 : i32, loop.stage = 0 : i32}
  // CHECK: ttng.wait_barrier {{.*}} {loop.cluster = 1 : i32, loop.stage = 1 : i32}
  // CHECK: %[[L:.+]] = ttg.local_load {{.*}} {loop.cluster = 1 : i32, loop.stage = 1 : i32}
  // CHECK: tt.store %{{.+}}, %[[L]] {loop.cluster = 1 : i32, loop.stage = 1 : i32}
  tt.func @gather(%desc: !tt.tensordesc<tensor<1x64xf16, #nvmma>>, %x: tensor<32xi32, #offsets>, %y: i32, %out: tensor<32x64x!tt.ptr<f16>, #blocked>, %n: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    scf.for %i = %c0_i32 to %n step %c1_i32 : i32 {
      %g = tt.descriptor_gather %desc[%x, %y] {loop.cluster = 1 : i32, loop.stage = 0 : i32} : (!tt.tensordesc<tensor<1x64xf16, #nvmma>>, tensor<32xi32, #offsets>, i32) -> tensor<32x64xf16, #blocked>
      tt.store %out, %g {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<32x64x!tt.ptr<f16>, #blocked>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}
