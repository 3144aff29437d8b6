// tritongpu-pipeline with descriptor (TMA) loads: each pipelined load
// becomes a TMA copy into a ring of buffers completing on an mbarrier per
// buffer; loads of one stage share a barrier that expects their bytes, the
// reader waits on it with a phase carried by the loop. The output is the
// same as Triton 3.6's passes give (scripts/triton-pass.py).
// RUN: tt-opt %s -tritongpu-assign-latencies -tritongpu-schedule-loops -tritongpu-pipeline -canonicalize | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#b3 = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 2, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // Both operands of a wgmma: 3 + 1 buffers each (the asynchronous dot
  // reads one longer), one barrier per buffer for the pair.
  // CHECK-LABEL: tt.func public @tma_operands
  // CHECK-DAG: %[[A:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16, #shared, #smem, mutable>
  // CHECK-DAG: %[[B:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x64x128xf16, #shared, #smem, mutable>
  // CHECK-DAG: %[[BAR:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64, #shared1, #smem, mutable>
  // CHECK-COUNT-4: ttng.init_barrier
  // CHECK: ttng.barrier_expect %{{.+}}, 32768, %{{.+}}
  // CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
  // CHECK: ttng.barrier_expect %{{.+}}, 32768, %{{.+}}
  // CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
  // CHECK: ttng.barrier_expect %{{.+}}, 32768, %{{.+}}
  // CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
  // CHECK: scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}, %[[INS:.+]] = %c2_i32, %[[EXT:.+]] = %c-1_i32, %[[PHASE:.+]] = %c0_i32)
  // CHECK: %[[NEXT:.+]] = arith.addi %[[EXT]], %c1_i32
  // CHECK: %[[WRAP:.+]] = arith.cmpi sge, %[[NEXT]], %c4_i32
  // CHECK: %[[E:.+]] = arith.select %[[WRAP]], %c0_i32, %[[NEXT]]
  // CHECK: %[[FLIP:.+]] = arith.xori %[[PHASE]], %c1_i32
  // CHECK: %[[P:.+]] = arith.select %[[WRAP]], %[[FLIP]], %[[PHASE]]
  // CHECK: %[[W:.+]] = ttg.memdesc_index %[[BAR]][%[[E]]]
  // CHECK: ttng.wait_barrier %[[W]], %[[P]]
  // CHECK: %[[VB:.+]] = ttg.memdesc_index %[[B]][%[[E]]]
  // CHECK: %[[VA:.+]] = ttg.memdesc_index %[[A]][%[[E]]]
  // CHECK: ttng.warp_group_dot %[[VA]], %[[VB]]
  // CHECK: ttng.barrier_expect
  // CHECK-COUNT-2: ttng.async_tma_copy_global_to_local
  // CHECK: scf.yield
  // CHECK-COUNT-4: ttng.inval_barrier
  // CHECK: ttg.local_dealloc %[[BAR]]
  tt.func public @tma_operands(%da: !tt.tensordesc<tensor<128x64xf16, #shared>>, %db: !tt.tensordesc<tensor<64x128xf16, #shared>>, %n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128x128xf32, #mma>) : i32 {
      %off = arith.muli %k, %c64 : i32
      %a = tt.descriptor_load %da[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #b>
      %sa = ttg.local_alloc %a : (tensor<128x64xf16, #b>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %bv = tt.descriptor_load %db[%off, %c0] : !tt.tensordesc<tensor<64x128xf16, #shared>> -> tensor<64x128xf16, #b>
      %sb = ttg.local_alloc %bv : (tensor<64x128xf16, #b>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %d = ttng.warp_group_dot %sa, %sb, %acc : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    } {tt.num_stages = 4 : i32}
    tt.return %r : tensor<128x128xf32, #mma>
  }
  // A rank-reducing load (a 1x128x64 box read as 128x64) and a buffer
  // read through a reshape: the rings take the layouts at the loaded
  // rank, the reshape is rebuilt on each ring slot (mutable, as Triton's
  // replaceUsesAndPropagateType rebuilds every view).
  // CHECK-LABEL: tt.func public @tma_reduced_and_reshaped
  // CHECK-DAG: %[[A:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16, #shared, #smem, mutable>
  // CHECK-DAG: %[[B:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x2x32x128xf16, #shared2, #smem, mutable>
  // CHECK: scf.for
  // CHECK: %[[VB:.+]] = ttg.memdesc_index %[[B]]
  // CHECK: %[[VA:.+]] = ttg.memdesc_index %[[A]]
  // CHECK: %[[R:.+]] = ttg.memdesc_reshape %[[VB]] : !ttg.memdesc<2x32x128xf16, #shared2, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
  // CHECK: ttng.warp_group_dot %[[VA]], %[[R]]
  tt.func public @tma_reduced_and_reshaped(%da: !tt.tensordesc<tensor<1x128x64xf16, #shared3>>, %db: !tt.tensordesc<tensor<2x32x128xf16, #shared3>>, %n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128x128xf32, #mma>) : i32 {
      %off = arith.muli %k, %c64 : i32
      %a = tt.descriptor_load %da[%c0, %c0, %off] : !tt.tensordesc<tensor<1x128x64xf16, #shared3>> -> tensor<128x64xf16, #b>
      %sa = ttg.local_alloc %a : (tensor<128x64xf16, #b>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %bv = tt.descriptor_load %db[%c0, %off, %c0] : !tt.tensordesc<tensor<2x32x128xf16, #shared3>> -> tensor<2x32x128xf16, #b3>
      %sb = ttg.local_alloc %bv : (tensor<2x32x128xf16, #b3>) -> !ttg.memdesc<2x32x128xf16, #shared3, #smem>
      %rb = ttg.memdesc_reshape %sb : !ttg.memdesc<2x32x128xf16, #shared3, #smem> -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %d = ttng.warp_group_dot %sa, %rb, %acc : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    } {tt.num_stages = 4 : i32}
    tt.return %r : tensor<128x128xf32, #mma>
  }
  // A TMA load read into registers: two buffers, a local_load after the wait.
  // CHECK-LABEL: tt.func public @tma_to_registers
  // CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable>
  // CHECK: scf.for
  // CHECK: ttng.wait_barrier
  // CHECK-NEXT: %[[V:.+]] = ttg.memdesc_index %[[BUF]]
  // CHECK-NEXT: %[[R:.+]] = ttg.local_load %[[V]] : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> tensor<128x64xf16, #blocked>
  // CHECK-NEXT: tt.store %arg1, %[[R]]
  // CHECK: ttng.barrier_expect %{{.+}}, 16384, %{{.+}}
  // CHECK: ttng.async_tma_copy_global_to_local
  // CHECK-NOT: ttg.async_wait
  // CHECK: tt.return
  tt.func public @tma_to_registers(%da: !tt.tensordesc<tensor<128x64xf16, #shared>>, %p: tensor<128x64x!tt.ptr<f16>, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    scf.for %k = %c0 to %n step %c1 : i32 {
      %off = arith.muli %k, %c64 : i32
      %a = tt.descriptor_load %da[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #b>
      tt.store %p, %a : tensor<128x64x!tt.ptr<f16>, #b>
    } {tt.num_stages = 3 : i32}
    tt.return
  }
}
