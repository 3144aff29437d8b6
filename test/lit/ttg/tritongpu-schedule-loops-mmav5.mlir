// tritongpu-schedule-loops on loops with tcgen05 MMAs: scheduled by the
// same rules as other loops (tt.self_latency stays); loops under
// tt.warp_specialize without latencies start from the schedule they carry.
// Outputs match the triton==3.6.0 wheel.

// RUN: tt-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --tritongpu-schedule-loops | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @mma_loop
  // CHECK-COUNT-2: tt.load {{.*}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
  // CHECK: ttng.tc_gen5_mma {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32}
  // CHECK-NOT: tt.latency
  // CHECK: tt.scheduled_max_stage = 2
  tt.func @mma_loop(%arg0: index, %arg1: index, %arg2: index, %arg3: tensor<128x128x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 16]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>}, %arg4: tensor<128x128x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 16]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>}, %arg5: tensor<128x128xf32, #blocked>, %arg6: i1, %arg7: !ttg.memdesc<128x128xf16, #shared, #smem>) {
    %true = arith.constant true
    %false = arith.constant false
    %result = ttng.tmem_alloc %arg5 : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %0 = scf.for %arg8 = %arg0 to %arg1 step %arg2 iter_args(%arg9 = %false) -> (i1) {
      %1 = tt.load %arg3 {tt.latency = 2 : i32} : tensor<128x128x!tt.ptr<f16>, #blocked>
      %2 = tt.load %arg4 {tt.latency = 2 : i32} : tensor<128x128x!tt.ptr<f16>, #blocked>
      %3 = ttg.local_alloc %1 : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
      %4 = ttg.local_alloc %2 : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
      ttng.tc_gen5_mma %3, %4, %result, %arg9, %true {tt.latency = 1 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %result_0 = ttng.tmem_load %result : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
      "use"(%result_0) : (tensor<128x128xf32, #blocked>) -> ()
      scf.yield %true : i1
    }
    tt.return
  }
}

// -----

#blocked1 = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared_T = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
// Two stages of latency ops: shifted to start at stage 0; the loop's larger
// max stage is kept.
// CHECK-LABEL: @ws_existing_schedule
// CHECK-COUNT-2: tt.load {{.*}} {loop.cluster = 0 : i32, loop.stage = 0 : i32}
// CHECK: ttng.tc_gen5_mma {{.*}} {loop.cluster = 2 : i32, loop.stage = 2 : i32}
// CHECK: tt.scheduled_max_stage = 4 : i32, tt.warp_specialize
tt.func @ws_existing_schedule(%lb : index, %ub : index, %step : index,
  %A_ptr: tensor<128x128x!tt.ptr<f16>, #blocked1> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 16]> : tensor<2xi32>},
  %B_ptr: tensor<128x128x!tt.ptr<f16>, #blocked1> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 16]> : tensor<2xi32>},
  %acc_init : tensor<128x128xf32, #blocked1>, %c: i1, %Bout: !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>) -> () {
  %true = arith.constant true
  %false = arith.constant false
  %acc_tm = ttng.tmem_alloc %acc_init : (tensor<128x128xf32, #blocked1>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  scf.for %iv = %lb to %ub step %step : index {
    %A = tt.load %A_ptr {loop.stage = 2 : i32, loop.cluster = 3 : i32} : tensor<128x128x!tt.ptr<f16>, #blocked1>
    %B = tt.load %B_ptr {loop.stage = 2 : i32, loop.cluster = 3 : i32} : tensor<128x128x!tt.ptr<f16>, #blocked1>
    %A_sh = ttg.local_alloc %A : (tensor<128x128xf16, #blocked1>) -> !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>
    %B_sh = ttg.local_alloc %B : (tensor<128x128xf16, #blocked1>) -> !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>
    ttng.tc_gen5_mma %A_sh, %B_sh, %acc_tm, %true, %true {loop.stage = 4 : i32, loop.cluster = 5 : i32} : !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>, !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  } {tt.warp_specialize, tt.scheduled_max_stage = 4 : i32}
  tt.return
}
}

// -----

#blocked1 = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared_T = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
// One stage of latency ops: everything in stage 0, cluster 0.
// CHECK-LABEL: @ws_one_latency_stage
// CHECK-COUNT-5: {loop.cluster = 0 : i32, loop.stage = 0 : i32}
// CHECK: tt.scheduled_max_stage = 4 : i32, tt.warp_specialize
tt.func @ws_one_latency_stage(%lb : index, %ub : index, %step : index,
  %A_ptr: tensor<128x128x!tt.ptr<f16>, #blocked1> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 16]> : tensor<2xi32>},
  %B_ptr: tensor<128x128x!tt.ptr<f16>, #blocked1> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 16]> : tensor<2xi32>},
  %acc_init : tensor<128x128xf32, #blocked1>, %c: i1, %Bout: !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>) -> () {
  %true = arith.constant true
  %false = arith.constant false
  %acc_tm = ttng.tmem_alloc %acc_init : (tensor<128x128xf32, #blocked1>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  scf.for %iv = %lb to %ub step %step : index {
    %A = tt.load %A_ptr {loop.stage = 2 : i32, loop.cluster = 3 : i32} : tensor<128x128x!tt.ptr<f16>, #blocked1>
    %B = tt.load %B_ptr {loop.stage = 2 : i32, loop.cluster = 3 : i32} : tensor<128x128x!tt.ptr<f16>, #blocked1>
    %A_sh = ttg.local_alloc %A : (tensor<128x128xf16, #blocked1>) -> !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>
    %B_sh = ttg.local_alloc %B : (tensor<128x128xf16, #blocked1>) -> !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>
    ttng.tc_gen5_mma %A_sh, %B_sh, %acc_tm, %true, %true {loop.stage = 2 : i32, loop.cluster = 4 : i32} : !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>, !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  } {tt.warp_specialize, tt.scheduled_max_stage = 4 : i32}
  tt.return
}
}

// -----

#blocked1 = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared_T = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32} {
tt.func @ws_stage_without_cluster(%lb : index, %ub : index, %step : index,
  %A_ptr: tensor<128x128x!tt.ptr<f16>, #blocked1> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 16]> : tensor<2xi32>},
  %B_ptr: tensor<128x128x!tt.ptr<f16>, #blocked1> {tt.divisibility = dense<[16, 16]> : tensor<2xi32>, tt.contiguity = dense<[1, 16]> : tensor<2xi32>},
  %acc_init : tensor<128x128xf32, #blocked1>, %c: i1, %Bout: !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>) -> () {
  %true = arith.constant true
  %false = arith.constant false
  %acc_tm = ttng.tmem_alloc %acc_init : (tensor<128x128xf32, #blocked1>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  scf.for %iv = %lb to %ub step %step : index {
    %A = tt.load %A_ptr {loop.stage = 2 : i32, loop.cluster = 3 : i32} : tensor<128x128x!tt.ptr<f16>, #blocked1>
    // expected-error @below {{an op with a loop.stage but no loop.cluster is not supported yet}}
    %B = tt.load %B_ptr {loop.stage = 2 : i32} : tensor<128x128x!tt.ptr<f16>, #blocked1>
    %A_sh = ttg.local_alloc %A : (tensor<128x128xf16, #blocked1>) -> !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>
    %B_sh = ttg.local_alloc %B : (tensor<128x128xf16, #blocked1>) -> !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>
    ttng.tc_gen5_mma %A_sh, %B_sh, %acc_tm, %true, %true {loop.stage = 4 : i32, loop.cluster = 5 : i32} : !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>, !ttg.memdesc<128x128xf16, #shared, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  } {tt.warp_specialize, tt.scheduled_max_stage = 4 : i32}
  tt.return
}
}
