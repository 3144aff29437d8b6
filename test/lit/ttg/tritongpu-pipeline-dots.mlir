// tritongpu-pipeline on the dot loops users write, each the IR that Triton
// 3.6 ran its pipeliner on for a `@triton.jit` kernel compiled for cuda:90
// (made by `scripts/compare-ttgir.py`'s loop kernels), and each case here
// gives Triton's own pass's output (`scripts/compare-triton-lit.py --file
// test/lit/ttg/tritongpu-pipeline-dots.mlir --passes tritongpu-pipeline`).
// The checks follow the shape of the result: the rings (one buffer per
// stage in flight, one more for wgmma operands), the copies issued before
// the loop and inside it, the waits with their counts, the dots made
// asynchronous and the wgmma waits with their pending counts.
// RUN: tt-opt %s --split-input-file --tritongpu-pipeline | FileCheck %s
// RUN: tt-opt %s --split-input-file --tritongpu-pipeline | tt-opt --split-input-file > /dev/null

// bf16 64x64x32, 4 warps, 2 stages.
// CHECK-LABEL: tt.func public @bf16_s2
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<2x32x64xbf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<32x64xbf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: tt.load {{.*}}tensor<64x32x!tt.ptr<bf16>, #blocked2>
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<64x32xbf16, #shared1, #smem>
// CHECK: ttg.async_wait {{.*}}{num = 0 : i32}
// CHECK: ttng.warp_group_dot {{.*}}{isAsync = true}
// CHECK: ttng.warp_group_dot_wait {{.*}}{pendings = 0 : i32}
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<32x64xbf16, #shared, #smem, mutable>
// CHECK: scf.yield
// CHECK: ttg.async_wait {{.*}}{num = 0 : i32}
// CHECK: ttg.local_dealloc
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bf16_s2(%a_ptr: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<32x1xi32, #blocked1>
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c31_i32 = arith.constant 31 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %rk_1 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %0 = arith.addi %K, %c31_i32 : i32
    %1 = arith.divsi %0, %c32_i32 : i32
    %a = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %a_2 = tt.expand_dims %a {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xi32, #blocked2>
    %a_3 = tt.splat %K : i32 -> tensor<64x1xi32, #blocked2>
    %a_4 = arith.muli %a_2, %a_3 : tensor<64x1xi32, #blocked2>
    %a_5 = tt.splat %a_ptr : !tt.ptr<bf16> -> tensor<64x1x!tt.ptr<bf16>, #blocked2>
    %a_6 = tt.addptr %a_5, %a_4 : tensor<64x1x!tt.ptr<bf16>, #blocked2>, tensor<64x1xi32, #blocked2>
    %a_7 = tt.broadcast %a_6 : tensor<64x1x!tt.ptr<bf16>, #blocked2> -> tensor<64x32x!tt.ptr<bf16>, #blocked2>
    %b = tt.splat %b_ptr : !tt.ptr<bf16> -> tensor<32x1x!tt.ptr<bf16>, #blocked1>
    %b_8 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %b_9 = tt.expand_dims %b_8 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %b_10 = tt.broadcast %b_9 : tensor<1x64xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %acc_11 = scf.for %acc_12 = %c0_i32 to %1 step %c1_i32 iter_args(%acc_13 = %acc) -> (tensor<64x64xf32, #mma>)  : i32 {
      %kk = arith.muli %acc_12, %c32_i32 {loop.cluster = 1 : i32, loop.stage = 0 : i32} : i32
      %kk_14 = tt.splat %kk {loop.cluster = 0 : i32, loop.stage = 1 : i32} : i32 -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_15 = tt.splat %kk {loop.cluster = 1 : i32, loop.stage = 0 : i32} : i32 -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %kk_16 = arith.addi %kk_14, %rk {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_17 = arith.addi %kk_15, %rk_1 {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %a_18 = tt.expand_dims %kk_16 {axis = 0 : i32, loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x32xi32, #blocked2>
      %a_19 = tt.broadcast %a_18 {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<1x32xi32, #blocked2> -> tensor<64x32xi32, #blocked2>
      %a_20 = tt.addptr %a_7, %a_19 {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<64x32x!tt.ptr<bf16>, #blocked2>, tensor<64x32xi32, #blocked2>
      %a_21 = tt.load %a_20 {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<64x32x!tt.ptr<bf16>, #blocked2>
      %a_22 = ttg.local_alloc %a_21 {loop.cluster = 0 : i32, loop.stage = 1 : i32} : (tensor<64x32xbf16, #blocked2>) -> !ttg.memdesc<64x32xbf16, #shared, #smem>
      %b_23 = tt.expand_dims %kk_17 {axis = 1 : i32, loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<32x1xi32, #blocked1>
      %b_24 = arith.muli %b_23, %cst_0 {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<32x1xi32, #blocked1>
      %b_25 = tt.addptr %b, %b_24 {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<32x1x!tt.ptr<bf16>, #blocked1>, tensor<32x1xi32, #blocked1>
      %b_26 = tt.broadcast %b_25 {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<32x1x!tt.ptr<bf16>, #blocked1> -> tensor<32x64x!tt.ptr<bf16>, #blocked1>
      %b_27 = tt.addptr %b_26, %b_10 {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<32x64x!tt.ptr<bf16>, #blocked1>, tensor<32x64xi32, #blocked1>
      %b_28 = tt.load %b_27 {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<32x64x!tt.ptr<bf16>, #blocked1>
      %b_29 = ttg.local_alloc %b_28 {loop.cluster = 0 : i32, loop.stage = 1 : i32} : (tensor<32x64xbf16, #blocked1>) -> !ttg.memdesc<32x64xbf16, #shared1, #smem>
      %acc_30 = ttng.warp_group_dot %a_22, %b_29, %acc_13 {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !ttg.memdesc<64x32xbf16, #shared, #smem> * !ttg.memdesc<32x64xbf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %acc_30 : tensor<64x64xf32, #mma>
    } {tt.scheduled_max_stage = 1 : i32}
    %2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %4 = arith.muli %3, %cst : tensor<64x1xi32, #blocked>
    %5 = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %6 = tt.addptr %5, %4 : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %7 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %8 = tt.expand_dims %7 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %9 = tt.broadcast %6 : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %10 = tt.broadcast %8 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %11 = tt.addptr %9, %10 : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %12 = ttg.convert_layout %acc_11 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    tt.store %11, %12 : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// bf16 64x64x32, 4 warps, 4 stages.
// CHECK-LABEL: tt.func public @bf16_s4
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<4x32x64xbf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<32x64xbf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<32x64xbf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<32x64xbf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: tt.load {{.*}}tensor<64x32x!tt.ptr<bf16>, #blocked2>
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<64x32xbf16, #shared1, #smem>
// CHECK: ttg.async_wait {{.*}}{num = 2 : i32}
// CHECK: ttng.warp_group_dot {{.*}}{isAsync = true}
// CHECK: ttng.warp_group_dot_wait {{.*}}{pendings = 0 : i32}
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<32x64xbf16, #shared, #smem, mutable>
// CHECK: scf.yield
// CHECK: ttg.async_wait {{.*}}{num = 0 : i32}
// CHECK: ttg.local_dealloc
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bf16_s4(%a_ptr: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<32x1xi32, #blocked1>
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c31_i32 = arith.constant 31 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %rk_1 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %0 = arith.addi %K, %c31_i32 : i32
    %1 = arith.divsi %0, %c32_i32 : i32
    %a = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %a_2 = tt.expand_dims %a {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xi32, #blocked2>
    %a_3 = tt.splat %K : i32 -> tensor<64x1xi32, #blocked2>
    %a_4 = arith.muli %a_2, %a_3 : tensor<64x1xi32, #blocked2>
    %a_5 = tt.splat %a_ptr : !tt.ptr<bf16> -> tensor<64x1x!tt.ptr<bf16>, #blocked2>
    %a_6 = tt.addptr %a_5, %a_4 : tensor<64x1x!tt.ptr<bf16>, #blocked2>, tensor<64x1xi32, #blocked2>
    %a_7 = tt.broadcast %a_6 : tensor<64x1x!tt.ptr<bf16>, #blocked2> -> tensor<64x32x!tt.ptr<bf16>, #blocked2>
    %b = tt.splat %b_ptr : !tt.ptr<bf16> -> tensor<32x1x!tt.ptr<bf16>, #blocked1>
    %b_8 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %b_9 = tt.expand_dims %b_8 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %b_10 = tt.broadcast %b_9 : tensor<1x64xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %acc_11 = scf.for %acc_12 = %c0_i32 to %1 step %c1_i32 iter_args(%acc_13 = %acc) -> (tensor<64x64xf32, #mma>)  : i32 {
      %kk = arith.muli %acc_12, %c32_i32 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : i32
      %kk_14 = tt.splat %kk {loop.cluster = 0 : i32, loop.stage = 3 : i32} : i32 -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_15 = tt.splat %kk {loop.cluster = 3 : i32, loop.stage = 0 : i32} : i32 -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %kk_16 = arith.addi %kk_14, %rk {loop.cluster = 0 : i32, loop.stage = 3 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_17 = arith.addi %kk_15, %rk_1 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %a_18 = tt.expand_dims %kk_16 {axis = 0 : i32, loop.cluster = 0 : i32, loop.stage = 3 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x32xi32, #blocked2>
      %a_19 = tt.broadcast %a_18 {loop.cluster = 0 : i32, loop.stage = 3 : i32} : tensor<1x32xi32, #blocked2> -> tensor<64x32xi32, #blocked2>
      %a_20 = tt.addptr %a_7, %a_19 {loop.cluster = 0 : i32, loop.stage = 3 : i32} : tensor<64x32x!tt.ptr<bf16>, #blocked2>, tensor<64x32xi32, #blocked2>
      %a_21 = tt.load %a_20 {loop.cluster = 0 : i32, loop.stage = 3 : i32} : tensor<64x32x!tt.ptr<bf16>, #blocked2>
      %a_22 = ttg.local_alloc %a_21 {loop.cluster = 0 : i32, loop.stage = 3 : i32} : (tensor<64x32xbf16, #blocked2>) -> !ttg.memdesc<64x32xbf16, #shared, #smem>
      %b_23 = tt.expand_dims %kk_17 {axis = 1 : i32, loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<32x1xi32, #blocked1>
      %b_24 = arith.muli %b_23, %cst_0 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x1xi32, #blocked1>
      %b_25 = tt.addptr %b, %b_24 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x1x!tt.ptr<bf16>, #blocked1>, tensor<32x1xi32, #blocked1>
      %b_26 = tt.broadcast %b_25 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x1x!tt.ptr<bf16>, #blocked1> -> tensor<32x64x!tt.ptr<bf16>, #blocked1>
      %b_27 = tt.addptr %b_26, %b_10 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x64x!tt.ptr<bf16>, #blocked1>, tensor<32x64xi32, #blocked1>
      %b_28 = tt.load %b_27 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x64x!tt.ptr<bf16>, #blocked1>
      %b_29 = ttg.local_alloc %b_28 {loop.cluster = 0 : i32, loop.stage = 3 : i32} : (tensor<32x64xbf16, #blocked1>) -> !ttg.memdesc<32x64xbf16, #shared1, #smem>
      %acc_30 = ttng.warp_group_dot %a_22, %b_29, %acc_13 {loop.cluster = 0 : i32, loop.stage = 3 : i32} : !ttg.memdesc<64x32xbf16, #shared, #smem> * !ttg.memdesc<32x64xbf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %acc_30 : tensor<64x64xf32, #mma>
    } {tt.scheduled_max_stage = 3 : i32}
    %2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %4 = arith.muli %3, %cst : tensor<64x1xi32, #blocked>
    %5 = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked>
    %6 = tt.addptr %5, %4 : tensor<64x1x!tt.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %7 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %8 = tt.expand_dims %7 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %9 = tt.broadcast %6 : tensor<64x1x!tt.ptr<f32>, #blocked> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %10 = tt.broadcast %8 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %11 = tt.addptr %9, %10 : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %12 = ttg.convert_layout %acc_11 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    tt.store %11, %12 : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// fp16 128x128x64, 8 warps, 5 stages.
// CHECK-LABEL: tt.func public @fp16_s5
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<5x64x128xf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x128xf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x128xf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x128xf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x128xf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: tt.load {{.*}}tensor<128x64x!tt.ptr<f16>, #blocked2>
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<128x64xf16, #shared, #smem>
// CHECK: ttg.async_wait {{.*}}{num = 3 : i32}
// CHECK: ttng.warp_group_dot {{.*}}{isAsync = true}
// CHECK: ttng.warp_group_dot_wait {{.*}}{pendings = 0 : i32}
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x128xf16, #shared, #smem, mutable>
// CHECK: scf.yield
// CHECK: ttg.async_wait {{.*}}{num = 0 : i32}
// CHECK: ttg.local_dealloc
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp16_s5(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32) attributes {noinline = false} {
    %cst = arith.constant dense<128> : tensor<128x1xi32, #blocked>
    %cst_0 = arith.constant dense<128> : tensor<64x1xi32, #blocked1>
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %rk_1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %0 = arith.addi %K, %c63_i32 : i32
    %1 = arith.divsi %0, %c64_i32 : i32
    %a = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %a_2 = tt.expand_dims %a {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<128x1xi32, #blocked2>
    %a_3 = tt.splat %K : i32 -> tensor<128x1xi32, #blocked2>
    %a_4 = arith.muli %a_2, %a_3 : tensor<128x1xi32, #blocked2>
    %a_5 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>, #blocked2>
    %a_6 = tt.addptr %a_5, %a_4 : tensor<128x1x!tt.ptr<f16>, #blocked2>, tensor<128x1xi32, #blocked2>
    %a_7 = tt.broadcast %a_6 : tensor<128x1x!tt.ptr<f16>, #blocked2> -> tensor<128x64x!tt.ptr<f16>, #blocked2>
    %b = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked1>
    %b_8 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %b_9 = tt.expand_dims %b_8 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x128xi32, #blocked1>
    %b_10 = tt.broadcast %b_9 : tensor<1x128xi32, #blocked1> -> tensor<64x128xi32, #blocked1>
    %acc_11 = scf.for %acc_12 = %c0_i32 to %1 step %c1_i32 iter_args(%acc_13 = %acc) -> (tensor<128x128xf32, #mma>)  : i32 {
      %kk = arith.muli %acc_12, %c64_i32 {loop.cluster = 4 : i32, loop.stage = 0 : i32} : i32
      %kk_14 = tt.splat %kk {loop.cluster = 0 : i32, loop.stage = 4 : i32} : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_15 = tt.splat %kk {loop.cluster = 4 : i32, loop.stage = 0 : i32} : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %kk_16 = arith.addi %kk_14, %rk {loop.cluster = 0 : i32, loop.stage = 4 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_17 = arith.addi %kk_15, %rk_1 {loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %a_18 = tt.expand_dims %kk_16 {axis = 0 : i32, loop.cluster = 0 : i32, loop.stage = 4 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
      %a_19 = tt.broadcast %a_18 {loop.cluster = 0 : i32, loop.stage = 4 : i32} : tensor<1x64xi32, #blocked2> -> tensor<128x64xi32, #blocked2>
      %a_20 = tt.addptr %a_7, %a_19 {loop.cluster = 0 : i32, loop.stage = 4 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked2>, tensor<128x64xi32, #blocked2>
      %a_21 = tt.load %a_20 {loop.cluster = 0 : i32, loop.stage = 4 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked2>
      %a_22 = ttg.local_alloc %a_21 {loop.cluster = 0 : i32, loop.stage = 4 : i32} : (tensor<128x64xf16, #blocked2>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b_23 = tt.expand_dims %kk_17 {axis = 1 : i32, loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
      %b_24 = arith.muli %b_23, %cst_0 {loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<64x1xi32, #blocked1>
      %b_25 = tt.addptr %b, %b_24 {loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<64x1x!tt.ptr<f16>, #blocked1>, tensor<64x1xi32, #blocked1>
      %b_26 = tt.broadcast %b_25 {loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<64x1x!tt.ptr<f16>, #blocked1> -> tensor<64x128x!tt.ptr<f16>, #blocked1>
      %b_27 = tt.addptr %b_26, %b_10 {loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<64x128x!tt.ptr<f16>, #blocked1>, tensor<64x128xi32, #blocked1>
      %b_28 = tt.load %b_27 {loop.cluster = 4 : i32, loop.stage = 0 : i32} : tensor<64x128x!tt.ptr<f16>, #blocked1>
      %b_29 = ttg.local_alloc %b_28 {loop.cluster = 0 : i32, loop.stage = 4 : i32} : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %acc_30 = ttng.warp_group_dot %a_22, %b_29, %acc_13 {loop.cluster = 0 : i32, loop.stage = 4 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %acc_30 : tensor<128x128xf32, #mma>
    } {tt.scheduled_max_stage = 4 : i32}
    %2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %4 = arith.muli %3, %cst : tensor<128x1xi32, #blocked>
    %5 = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<128x1x!tt.ptr<f32>, #blocked>
    %6 = tt.addptr %5, %4 : tensor<128x1x!tt.ptr<f32>, #blocked>, tensor<128x1xi32, #blocked>
    %7 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %8 = tt.expand_dims %7 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %9 = tt.broadcast %6 : tensor<128x1x!tt.ptr<f32>, #blocked> -> tensor<128x128x!tt.ptr<f32>, #blocked>
    %10 = tt.broadcast %8 : tensor<1x128xi32, #blocked> -> tensor<128x128xi32, #blocked>
    %11 = tt.addptr %9, %10 : tensor<128x128x!tt.ptr<f32>, #blocked>, tensor<128x128xi32, #blocked>
    %12 = ttg.convert_layout %acc_11 : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
    tt.store %11, %12 : tensor<128x128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// fp16 128x128x64, 8 warps, 3 stages, K loads masked by the K bound.
// CHECK-LABEL: tt.func public @fp16_masked_k
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<3x64x128xf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x128xf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x128xf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: tt.load {{.*}}tensor<128x64x!tt.ptr<f16>, #blocked2>
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<128x64xf16, #shared, #smem>
// CHECK: ttg.async_wait {{.*}}{num = 1 : i32}
// CHECK: ttng.warp_group_dot {{.*}}{isAsync = true}
// CHECK: ttng.warp_group_dot_wait {{.*}}{pendings = 0 : i32}
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x128xf16, #shared, #smem, mutable>
// CHECK: scf.yield
// CHECK: ttg.async_wait {{.*}}{num = 0 : i32}
// CHECK: ttg.local_dealloc
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp16_masked_k(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32) attributes {noinline = false} {
    %cst = arith.constant dense<128> : tensor<128x1xi32, #blocked>
    %cst_0 = arith.constant dense<128> : tensor<64x1xi32, #blocked1>
    %c64_i32 = arith.constant 64 : i32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<64x128xf16, #blocked1>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked2>
    %c63_i32 = arith.constant 63 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %rk_3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %0 = arith.addi %K, %c63_i32 : i32
    %1 = arith.divsi %0, %c64_i32 : i32
    %a = tt.splat %K : i32 -> tensor<1x64xi32, #blocked2>
    %a_4 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %a_5 = tt.expand_dims %a_4 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<128x1xi32, #blocked2>
    %a_6 = tt.splat %K : i32 -> tensor<128x1xi32, #blocked2>
    %a_7 = arith.muli %a_5, %a_6 : tensor<128x1xi32, #blocked2>
    %a_8 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>, #blocked2>
    %a_9 = tt.addptr %a_8, %a_7 : tensor<128x1x!tt.ptr<f16>, #blocked2>, tensor<128x1xi32, #blocked2>
    %a_10 = tt.broadcast %a_9 : tensor<128x1x!tt.ptr<f16>, #blocked2> -> tensor<128x64x!tt.ptr<f16>, #blocked2>
    %b = tt.splat %K : i32 -> tensor<64x1xi32, #blocked1>
    %b_11 = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked1>
    %b_12 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %b_13 = tt.expand_dims %b_12 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x128xi32, #blocked1>
    %b_14 = tt.broadcast %b_13 : tensor<1x128xi32, #blocked1> -> tensor<64x128xi32, #blocked1>
    %acc_15 = scf.for %acc_16 = %c0_i32 to %1 step %c1_i32 iter_args(%acc_17 = %acc) -> (tensor<128x128xf32, #mma>)  : i32 {
      %kk = arith.muli %acc_16, %c64_i32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %kk_18 = tt.splat %kk {loop.cluster = 0 : i32, loop.stage = 2 : i32} : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_19 = tt.splat %kk {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %kk_20 = arith.addi %kk_18, %rk {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_21 = arith.addi %kk_19, %rk_3 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %a_22 = tt.expand_dims %kk_20 {axis = 0 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
      %a_23 = arith.cmpi slt, %a_22, %a {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<1x64xi32, #blocked2>
      %a_24 = tt.broadcast %a_22 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<1x64xi32, #blocked2> -> tensor<128x64xi32, #blocked2>
      %a_25 = tt.addptr %a_10, %a_24 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked2>, tensor<128x64xi32, #blocked2>
      %a_26 = tt.broadcast %a_23 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<1x64xi1, #blocked2> -> tensor<128x64xi1, #blocked2>
      %a_27 = tt.load %a_25, %a_26, %cst_2 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x64x!tt.ptr<f16>, #blocked2>
      %a_28 = ttg.local_alloc %a_27 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x64xf16, #blocked2>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b_29 = tt.expand_dims %kk_21 {axis = 1 : i32, loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
      %b_30 = arith.cmpi slt, %b_29, %b {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x1xi32, #blocked1>
      %b_31 = arith.muli %b_29, %cst_0 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x1xi32, #blocked1>
      %b_32 = tt.addptr %b_11, %b_31 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x1x!tt.ptr<f16>, #blocked1>, tensor<64x1xi32, #blocked1>
      %b_33 = tt.broadcast %b_32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x1x!tt.ptr<f16>, #blocked1> -> tensor<64x128x!tt.ptr<f16>, #blocked1>
      %b_34 = tt.addptr %b_33, %b_14 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x128x!tt.ptr<f16>, #blocked1>, tensor<64x128xi32, #blocked1>
      %b_35 = tt.broadcast %b_30 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x1xi1, #blocked1> -> tensor<64x128xi1, #blocked1>
      %b_36 = tt.load %b_34, %b_35, %cst_1 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x128x!tt.ptr<f16>, #blocked1>
      %b_37 = ttg.local_alloc %b_36 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %acc_38 = ttng.warp_group_dot %a_28, %b_37, %acc_17 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %acc_38 : tensor<128x128xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    %2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %4 = arith.muli %3, %cst : tensor<128x1xi32, #blocked>
    %5 = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<128x1x!tt.ptr<f32>, #blocked>
    %6 = tt.addptr %5, %4 : tensor<128x1x!tt.ptr<f32>, #blocked>, tensor<128x1xi32, #blocked>
    %7 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %8 = tt.expand_dims %7 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %9 = tt.broadcast %6 : tensor<128x1x!tt.ptr<f32>, #blocked> -> tensor<128x128x!tt.ptr<f32>, #blocked>
    %10 = tt.broadcast %8 : tensor<1x128xi32, #blocked> -> tensor<128x128xi32, #blocked>
    %11 = tt.addptr %9, %10 : tensor<128x128x!tt.ptr<f32>, #blocked>, tensor<128x128xi32, #blocked>
    %12 = ttg.convert_layout %acc_15 : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
    tt.store %11, %12 : tensor<128x128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// f32 inputs as tf32, B read transposed (tt.trans), 4 warps, 3 stages.
// CHECK-LABEL: tt.func public @tf32_trans_b
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<3x128x64xf32, #shared, #smem, mutable>
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<3x128x64xf32, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}<128x64xf32, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}<128x64xf32, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}<128x64xf32, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}<128x64xf32, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: ttg.async_wait {{.*}}{num = 2 : i32}
// CHECK: ttng.warp_group_dot {{.*}}{inputPrecision = 0 : i32, isAsync = true}
// CHECK: ttng.warp_group_dot_wait {{.*}}{pendings = 1 : i32}
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}<128x64xf32, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}<128x64xf32, #shared, #smem, mutable>
// CHECK: scf.yield
// CHECK: ttng.warp_group_dot_wait {{.*}}{pendings = 0 : i32}
// CHECK: ttg.async_wait {{.*}}{num = 0 : i32}
// CHECK: ttg.local_dealloc
// CHECK: ttg.local_dealloc
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 8]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tf32_trans_b(%a_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32) attributes {noinline = false} {
    %cst = arith.constant dense<128> : tensor<128x1xi32, #blocked>
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c63_i32 = arith.constant 63 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %0 = arith.addi %K, %c63_i32 : i32
    %1 = arith.divsi %0, %c64_i32 : i32
    %a = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %a_0 = tt.expand_dims %a {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<128x1xi32, #blocked1>
    %a_1 = tt.splat %K : i32 -> tensor<128x1xi32, #blocked1>
    %a_2 = arith.muli %a_0, %a_1 : tensor<128x1xi32, #blocked1>
    %a_3 = tt.splat %a_ptr : !tt.ptr<f32> -> tensor<128x1x!tt.ptr<f32>, #blocked1>
    %a_4 = tt.addptr %a_3, %a_2 : tensor<128x1x!tt.ptr<f32>, #blocked1>, tensor<128x1xi32, #blocked1>
    %a_5 = tt.broadcast %a_4 : tensor<128x1x!tt.ptr<f32>, #blocked1> -> tensor<128x64x!tt.ptr<f32>, #blocked1>
    %b = tt.splat %b_ptr : !tt.ptr<f32> -> tensor<128x1x!tt.ptr<f32>, #blocked1>
    %b_6 = tt.addptr %b, %a_2 : tensor<128x1x!tt.ptr<f32>, #blocked1>, tensor<128x1xi32, #blocked1>
    %b_7 = tt.broadcast %b_6 : tensor<128x1x!tt.ptr<f32>, #blocked1> -> tensor<128x64x!tt.ptr<f32>, #blocked1>
    %acc_8 = scf.for %acc_9 = %c0_i32 to %1 step %c1_i32 iter_args(%acc_10 = %acc) -> (tensor<128x128xf32, #mma>)  : i32 {
      %kk = arith.muli %acc_9, %c64_i32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %kk_11 = tt.splat %kk {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
      %kk_12 = arith.addi %kk_11, %rk {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
      %a_13 = tt.expand_dims %kk_12 {axis = 0 : i32, loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
      %a_14 = tt.broadcast %a_13 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<1x64xi32, #blocked1> -> tensor<128x64xi32, #blocked1>
      %a_15 = tt.addptr %a_5, %a_14 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f32>, #blocked1>, tensor<128x64xi32, #blocked1>
      %a_16 = tt.load %a_15 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f32>, #blocked1>
      %a_17 = ttg.local_alloc %a_16 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x64xf32, #blocked1>) -> !ttg.memdesc<128x64xf32, #shared, #smem>
      %b_18 = tt.addptr %b_7, %a_14 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f32>, #blocked1>, tensor<128x64xi32, #blocked1>
      %b_19 = tt.load %b_18 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x64x!tt.ptr<f32>, #blocked1>
      %b_20 = ttg.local_alloc %b_19 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x64xf32, #blocked1>) -> !ttg.memdesc<128x64xf32, #shared, #smem>
      %b_21 = ttg.memdesc_trans %b_20 {loop.cluster = 0 : i32, loop.stage = 2 : i32, order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf32, #shared, #smem> -> !ttg.memdesc<64x128xf32, #shared1, #smem>
      %acc_22 = ttng.warp_group_dot %a_17, %b_21, %acc_10 {inputPrecision = 0 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<128x64xf32, #shared, #smem> * !ttg.memdesc<64x128xf32, #shared1, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %acc_22 : tensor<128x128xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    %2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %4 = arith.muli %3, %cst : tensor<128x1xi32, #blocked>
    %5 = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<128x1x!tt.ptr<f32>, #blocked>
    %6 = tt.addptr %5, %4 : tensor<128x1x!tt.ptr<f32>, #blocked>, tensor<128x1xi32, #blocked>
    %7 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %8 = tt.expand_dims %7 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %9 = tt.broadcast %6 : tensor<128x1x!tt.ptr<f32>, #blocked> -> tensor<128x128x!tt.ptr<f32>, #blocked>
    %10 = tt.broadcast %8 : tensor<1x128xi32, #blocked> -> tensor<128x128xi32, #blocked>
    %11 = tt.addptr %9, %10 : tensor<128x128x!tt.ptr<f32>, #blocked>, tensor<128x128xi32, #blocked>
    %12 = ttg.convert_layout %acc_8 : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
    tt.store %11, %12 : tensor<128x128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// fp8 (e4m3) 128x64x32, 8 warps, 3 stages.
// CHECK-LABEL: tt.func public @fp8
// CHECK: scf.for
// CHECK: tt.load {{.*}}tensor<128x32x!tt.ptr<f8E4M3FN>, #blocked2>
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<128x32xf8E4M3FN, #shared, #smem>
// CHECK: tt.load {{.*}}tensor<32x64x!tt.ptr<f8E4M3FN>, #blocked1>
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<32x64xf8E4M3FN, #shared1, #smem>
// CHECK: ttng.warp_group_dot {{.*}}{isAsync = true, maxNumImpreciseAcc = 1073741824 : i32}
// CHECK: ttng.warp_group_dot_wait {{.*}}{pendings = 0 : i32}
// CHECK: scf.yield
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 64, 32]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8(%a_ptr: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<128x1xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<32x1xi32, #blocked1>
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c31_i32 = arith.constant 31 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %rk_1 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %0 = arith.addi %K, %c31_i32 : i32
    %1 = arith.divsi %0, %c32_i32 : i32
    %a = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %a_2 = tt.expand_dims %a {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<128x1xi32, #blocked2>
    %a_3 = tt.splat %K : i32 -> tensor<128x1xi32, #blocked2>
    %a_4 = arith.muli %a_2, %a_3 : tensor<128x1xi32, #blocked2>
    %a_5 = tt.splat %a_ptr : !tt.ptr<f8E4M3FN> -> tensor<128x1x!tt.ptr<f8E4M3FN>, #blocked2>
    %a_6 = tt.addptr %a_5, %a_4 : tensor<128x1x!tt.ptr<f8E4M3FN>, #blocked2>, tensor<128x1xi32, #blocked2>
    %a_7 = tt.broadcast %a_6 : tensor<128x1x!tt.ptr<f8E4M3FN>, #blocked2> -> tensor<128x32x!tt.ptr<f8E4M3FN>, #blocked2>
    %b = tt.splat %b_ptr : !tt.ptr<f8E4M3FN> -> tensor<32x1x!tt.ptr<f8E4M3FN>, #blocked1>
    %b_8 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %b_9 = tt.expand_dims %b_8 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %b_10 = tt.broadcast %b_9 : tensor<1x64xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %acc_11 = scf.for %acc_12 = %c0_i32 to %1 step %c1_i32 iter_args(%acc_13 = %acc) -> (tensor<128x64xf32, #mma>)  : i32 {
      %kk = arith.muli %acc_12, %c32_i32 : i32
      %kk_14 = tt.splat %kk : i32 -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_15 = tt.splat %kk : i32 -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %kk_16 = arith.addi %kk_14, %rk : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_17 = arith.addi %kk_15, %rk_1 : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %a_18 = tt.expand_dims %kk_16 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x32xi32, #blocked2>
      %a_19 = tt.broadcast %a_18 : tensor<1x32xi32, #blocked2> -> tensor<128x32xi32, #blocked2>
      %a_20 = tt.addptr %a_7, %a_19 : tensor<128x32x!tt.ptr<f8E4M3FN>, #blocked2>, tensor<128x32xi32, #blocked2>
      %a_21 = tt.load %a_20 : tensor<128x32x!tt.ptr<f8E4M3FN>, #blocked2>
      %a_22 = ttg.local_alloc %a_21 : (tensor<128x32xf8E4M3FN, #blocked2>) -> !ttg.memdesc<128x32xf8E4M3FN, #shared, #smem>
      %b_23 = tt.expand_dims %kk_17 {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<32x1xi32, #blocked1>
      %b_24 = arith.muli %b_23, %cst_0 : tensor<32x1xi32, #blocked1>
      %b_25 = tt.addptr %b, %b_24 : tensor<32x1x!tt.ptr<f8E4M3FN>, #blocked1>, tensor<32x1xi32, #blocked1>
      %b_26 = tt.broadcast %b_25 : tensor<32x1x!tt.ptr<f8E4M3FN>, #blocked1> -> tensor<32x64x!tt.ptr<f8E4M3FN>, #blocked1>
      %b_27 = tt.addptr %b_26, %b_10 : tensor<32x64x!tt.ptr<f8E4M3FN>, #blocked1>, tensor<32x64xi32, #blocked1>
      %b_28 = tt.load %b_27 : tensor<32x64x!tt.ptr<f8E4M3FN>, #blocked1>
      %b_29 = ttg.local_alloc %b_28 : (tensor<32x64xf8E4M3FN, #blocked1>) -> !ttg.memdesc<32x64xf8E4M3FN, #shared1, #smem>
      %acc_30 = ttng.warp_group_dot %a_22, %b_29, %acc_13 {maxNumImpreciseAcc = 1073741824 : i32} : !ttg.memdesc<128x32xf8E4M3FN, #shared, #smem> * !ttg.memdesc<32x64xf8E4M3FN, #shared1, #smem> -> tensor<128x64xf32, #mma>
      scf.yield %acc_30 : tensor<128x64xf32, #mma>
    }
    %2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %4 = arith.muli %3, %cst : tensor<128x1xi32, #blocked>
    %5 = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<128x1x!tt.ptr<f32>, #blocked>
    %6 = tt.addptr %5, %4 : tensor<128x1x!tt.ptr<f32>, #blocked>, tensor<128x1xi32, #blocked>
    %7 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %8 = tt.expand_dims %7 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %9 = tt.broadcast %6 : tensor<128x1x!tt.ptr<f32>, #blocked> -> tensor<128x64x!tt.ptr<f32>, #blocked>
    %10 = tt.broadcast %8 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %11 = tt.addptr %9, %10 : tensor<128x64x!tt.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
    %12 = ttg.convert_layout %acc_11 : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked>
    tt.store %11, %12 : tensor<128x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// int8 to int32 64x64x32, 4 warps, 3 stages.
// CHECK-LABEL: tt.func public @int8
// CHECK: scf.for
// CHECK: tt.load {{.*}}tensor<64x32x!tt.ptr<i8>, #blocked2>
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<64x32xi8, #shared, #smem>
// CHECK: tt.load {{.*}}tensor<32x64x!tt.ptr<i8>, #blocked1>
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<32x64xi8, #shared1, #smem>
// CHECK: ttng.warp_group_dot {{.*}}{isAsync = true}
// CHECK: ttng.warp_group_dot_wait {{.*}}{pendings = 0 : i32}
// CHECK: scf.yield
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @int8(%a_ptr: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %K: i32) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<32x1xi32, #blocked1>
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c31_i32 = arith.constant 31 : i32
    %acc = arith.constant dense<0> : tensor<64x64xi32, #mma>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %rk_1 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %0 = arith.addi %K, %c31_i32 : i32
    %1 = arith.divsi %0, %c32_i32 : i32
    %a = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %a_2 = tt.expand_dims %a {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xi32, #blocked2>
    %a_3 = tt.splat %K : i32 -> tensor<64x1xi32, #blocked2>
    %a_4 = arith.muli %a_2, %a_3 : tensor<64x1xi32, #blocked2>
    %a_5 = tt.splat %a_ptr : !tt.ptr<i8> -> tensor<64x1x!tt.ptr<i8>, #blocked2>
    %a_6 = tt.addptr %a_5, %a_4 : tensor<64x1x!tt.ptr<i8>, #blocked2>, tensor<64x1xi32, #blocked2>
    %a_7 = tt.broadcast %a_6 : tensor<64x1x!tt.ptr<i8>, #blocked2> -> tensor<64x32x!tt.ptr<i8>, #blocked2>
    %b = tt.splat %b_ptr : !tt.ptr<i8> -> tensor<32x1x!tt.ptr<i8>, #blocked1>
    %b_8 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %b_9 = tt.expand_dims %b_8 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %b_10 = tt.broadcast %b_9 : tensor<1x64xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %acc_11 = scf.for %acc_12 = %c0_i32 to %1 step %c1_i32 iter_args(%acc_13 = %acc) -> (tensor<64x64xi32, #mma>)  : i32 {
      %kk = arith.muli %acc_12, %c32_i32 : i32
      %kk_14 = tt.splat %kk : i32 -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_15 = tt.splat %kk : i32 -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %kk_16 = arith.addi %kk_14, %rk : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_17 = arith.addi %kk_15, %rk_1 : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
      %a_18 = tt.expand_dims %kk_16 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x32xi32, #blocked2>
      %a_19 = tt.broadcast %a_18 : tensor<1x32xi32, #blocked2> -> tensor<64x32xi32, #blocked2>
      %a_20 = tt.addptr %a_7, %a_19 : tensor<64x32x!tt.ptr<i8>, #blocked2>, tensor<64x32xi32, #blocked2>
      %a_21 = tt.load %a_20 : tensor<64x32x!tt.ptr<i8>, #blocked2>
      %a_22 = ttg.local_alloc %a_21 : (tensor<64x32xi8, #blocked2>) -> !ttg.memdesc<64x32xi8, #shared, #smem>
      %b_23 = tt.expand_dims %kk_17 {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<32x1xi32, #blocked1>
      %b_24 = arith.muli %b_23, %cst_0 : tensor<32x1xi32, #blocked1>
      %b_25 = tt.addptr %b, %b_24 : tensor<32x1x!tt.ptr<i8>, #blocked1>, tensor<32x1xi32, #blocked1>
      %b_26 = tt.broadcast %b_25 : tensor<32x1x!tt.ptr<i8>, #blocked1> -> tensor<32x64x!tt.ptr<i8>, #blocked1>
      %b_27 = tt.addptr %b_26, %b_10 : tensor<32x64x!tt.ptr<i8>, #blocked1>, tensor<32x64xi32, #blocked1>
      %b_28 = tt.load %b_27 : tensor<32x64x!tt.ptr<i8>, #blocked1>
      %b_29 = ttg.local_alloc %b_28 : (tensor<32x64xi8, #blocked1>) -> !ttg.memdesc<32x64xi8, #shared1, #smem>
      %acc_30 = ttng.warp_group_dot %a_22, %b_29, %acc_13 : !ttg.memdesc<64x32xi8, #shared, #smem> * !ttg.memdesc<32x64xi8, #shared1, #smem> -> tensor<64x64xi32, #mma>
      scf.yield %acc_30 : tensor<64x64xi32, #mma>
    }
    %2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %4 = arith.muli %3, %cst : tensor<64x1xi32, #blocked>
    %5 = tt.splat %c_ptr : !tt.ptr<i32> -> tensor<64x1x!tt.ptr<i32>, #blocked>
    %6 = tt.addptr %5, %4 : tensor<64x1x!tt.ptr<i32>, #blocked>, tensor<64x1xi32, #blocked>
    %7 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %8 = tt.expand_dims %7 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %9 = tt.broadcast %6 : tensor<64x1x!tt.ptr<i32>, #blocked> -> tensor<64x64x!tt.ptr<i32>, #blocked>
    %10 = tt.broadcast %8 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %11 = tt.addptr %9, %10 : tensor<64x64x!tt.ptr<i32>, #blocked>, tensor<64x64xi32, #blocked>
    %12 = ttg.convert_layout %acc_11 : tensor<64x64xi32, #mma> -> tensor<64x64xi32, #blocked>
    tt.store %11, %12 : tensor<64x64x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// batched 3-D dot 2x32x32x16 (MMA v2), 4 warps, 3 stages.
// CHECK-LABEL: tt.func public @batched
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<2x2x16x32xf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<2x16x32xf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<2x16x32xf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: tt.load {{.*}}tensor<2x32x16x!tt.ptr<f16>, #blocked2>
// CHECK: ttg.async_wait {{.*}}{num = 1 : i32}
// CHECK: ttg.local_load {{.*}}tensor<2x16x32xf16, #blocked>
// CHECK: tt.dot
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<2x16x32xf16, #shared, #smem, mutable>
// CHECK: scf.yield
// CHECK: ttg.async_wait {{.*}}{num = 0 : i32}
// CHECK: ttg.local_dealloc
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [2, 2, 8], warpsPerCTA = [1, 4, 1], order = [2, 0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [2, 4, 4], warpsPerCTA = [1, 4, 1], order = [2, 0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [2, 1, 16], warpsPerCTA = [1, 4, 1], order = [2, 0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1, 1], instrShape = [1, 16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @batched(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32) attributes {noinline = false} {
    %cst = arith.constant dense<32> : tensor<1x32x1xi32, #blocked>
    %cst_0 = arith.constant dense<32> : tensor<1x16x1xi32, #blocked1>
    %cst_1 = arith.constant dense<32> : tensor<2x1x1xi32, #blocked1>
    %cst_2 = arith.constant dense<32> : tensor<2x1x1xi32, #blocked>
    %cst_3 = arith.constant dense<32> : tensor<2x1x1xi32, #blocked2>
    %c16_i32 = arith.constant 16 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c15_i32 = arith.constant 15 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<2x32x32xf32, #mma>
    %rk = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 1, parent = #blocked2}>}>>
    %rk_4 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #blocked1}>}>>
    %0 = arith.addi %K, %c15_i32 : i32
    %1 = arith.divsi %0, %c16_i32 : i32
    %a = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked2}>}>>
    %a_5 = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked1}>}>>
    %a_6 = tt.expand_dims %a {axis = 1 : i32} : tensor<2xi32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked2}>}>> -> tensor<2x1xi32, #ttg.slice<{dim = 2, parent = #blocked2}>>
    %a_7 = tt.expand_dims %a_5 {axis = 1 : i32} : tensor<2xi32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked1}>}>> -> tensor<2x1xi32, #ttg.slice<{dim = 2, parent = #blocked1}>>
    %a_8 = tt.expand_dims %a_6 {axis = 2 : i32} : tensor<2x1xi32, #ttg.slice<{dim = 2, parent = #blocked2}>> -> tensor<2x1x1xi32, #blocked2>
    %a_9 = tt.expand_dims %a_7 {axis = 2 : i32} : tensor<2x1xi32, #ttg.slice<{dim = 2, parent = #blocked1}>> -> tensor<2x1x1xi32, #blocked1>
    %a_10 = arith.muli %a_8, %cst_3 : tensor<2x1x1xi32, #blocked2>
    %a_11 = tt.splat %K : i32 -> tensor<2x1x1xi32, #blocked2>
    %a_12 = tt.splat %K : i32 -> tensor<2x1x1xi32, #blocked1>
    %a_13 = arith.muli %a_10, %a_11 : tensor<2x1x1xi32, #blocked2>
    %a_14 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<2x1x1x!tt.ptr<f16>, #blocked2>
    %a_15 = tt.addptr %a_14, %a_13 : tensor<2x1x1x!tt.ptr<f16>, #blocked2>, tensor<2x1x1xi32, #blocked2>
    %a_16 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #blocked2}>}>>
    %a_17 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 1, parent = #blocked1}>}>>
    %a_18 = tt.expand_dims %a_16 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #blocked2}>}>> -> tensor<1x32xi32, #ttg.slice<{dim = 2, parent = #blocked2}>>
    %a_19 = tt.expand_dims %a_17 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 1, parent = #blocked1}>}>> -> tensor<1x32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %a_20 = tt.expand_dims %a_18 {axis = 2 : i32} : tensor<1x32xi32, #ttg.slice<{dim = 2, parent = #blocked2}>> -> tensor<1x32x1xi32, #blocked2>
    %a_21 = tt.splat %K : i32 -> tensor<1x32x1xi32, #blocked2>
    %a_22 = arith.muli %a_20, %a_21 : tensor<1x32x1xi32, #blocked2>
    %a_23 = tt.broadcast %a_15 : tensor<2x1x1x!tt.ptr<f16>, #blocked2> -> tensor<2x32x1x!tt.ptr<f16>, #blocked2>
    %a_24 = tt.broadcast %a_22 : tensor<1x32x1xi32, #blocked2> -> tensor<2x32x1xi32, #blocked2>
    %a_25 = tt.addptr %a_23, %a_24 : tensor<2x32x1x!tt.ptr<f16>, #blocked2>, tensor<2x32x1xi32, #blocked2>
    %a_26 = tt.broadcast %a_25 : tensor<2x32x1x!tt.ptr<f16>, #blocked2> -> tensor<2x32x16x!tt.ptr<f16>, #blocked2>
    %b = arith.muli %a_9, %a_12 : tensor<2x1x1xi32, #blocked1>
    %b_27 = arith.muli %b, %cst_1 : tensor<2x1x1xi32, #blocked1>
    %b_28 = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<2x1x1x!tt.ptr<f16>, #blocked1>
    %b_29 = tt.addptr %b_28, %b_27 : tensor<2x1x1x!tt.ptr<f16>, #blocked1>, tensor<2x1x1xi32, #blocked1>
    %b_30 = tt.broadcast %b_29 : tensor<2x1x1x!tt.ptr<f16>, #blocked1> -> tensor<2x16x1x!tt.ptr<f16>, #blocked1>
    %b_31 = tt.expand_dims %a_19 {axis = 1 : i32} : tensor<1x32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<1x1x32xi32, #blocked1>
    %b_32 = tt.broadcast %b_31 : tensor<1x1x32xi32, #blocked1> -> tensor<2x16x32xi32, #blocked1>
    %acc_33 = scf.for %acc_34 = %c0_i32 to %1 step %c1_i32 iter_args(%acc_35 = %acc) -> (tensor<2x32x32xf32, #mma>)  : i32 {
      %kk = arith.muli %acc_34, %c16_i32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %kk_36 = tt.splat %kk {loop.cluster = 0 : i32, loop.stage = 2 : i32} : i32 -> tensor<16xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 1, parent = #blocked2}>}>>
      %kk_37 = tt.splat %kk {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32 -> tensor<16xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #blocked1}>}>>
      %kk_38 = arith.addi %kk_36, %rk {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 1, parent = #blocked2}>}>>
      %kk_39 = arith.addi %kk_37, %rk_4 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #blocked1}>}>>
      %a_40 = tt.expand_dims %kk_38 {axis = 0 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 1, parent = #blocked2}>}>> -> tensor<1x16xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
      %a_41 = tt.expand_dims %kk_39 {axis = 0 : i32, loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #blocked1}>}>> -> tensor<1x16xi32, #ttg.slice<{dim = 2, parent = #blocked1}>>
      %a_42 = tt.expand_dims %a_40 {axis = 1 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<1x16xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<1x1x16xi32, #blocked2>
      %a_43 = tt.broadcast %a_42 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<1x1x16xi32, #blocked2> -> tensor<2x32x16xi32, #blocked2>
      %a_44 = tt.addptr %a_26, %a_43 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<2x32x16x!tt.ptr<f16>, #blocked2>, tensor<2x32x16xi32, #blocked2>
      %a_45 = tt.load %a_44 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<2x32x16x!tt.ptr<f16>, #blocked2>
      %b_46 = tt.expand_dims %a_41 {axis = 2 : i32, loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<1x16xi32, #ttg.slice<{dim = 2, parent = #blocked1}>> -> tensor<1x16x1xi32, #blocked1>
      %b_47 = arith.muli %b_46, %cst_0 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<1x16x1xi32, #blocked1>
      %b_48 = tt.broadcast %b_47 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<1x16x1xi32, #blocked1> -> tensor<2x16x1xi32, #blocked1>
      %b_49 = tt.addptr %b_30, %b_48 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<2x16x1x!tt.ptr<f16>, #blocked1>, tensor<2x16x1xi32, #blocked1>
      %b_50 = tt.broadcast %b_49 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<2x16x1x!tt.ptr<f16>, #blocked1> -> tensor<2x16x32x!tt.ptr<f16>, #blocked1>
      %b_51 = tt.addptr %b_50, %b_32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<2x16x32x!tt.ptr<f16>, #blocked1>, tensor<2x16x32xi32, #blocked1>
      %b_52 = tt.load %b_51 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<2x16x32x!tt.ptr<f16>, #blocked1>
      %a_53 = ttg.convert_layout %a_45 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<2x32x16xf16, #blocked2> -> tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %b_54 = ttg.convert_layout %b_52 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<2x16x32xf16, #blocked1> -> tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %acc_55 = tt.dot %a_53, %b_54, %acc_35 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<2x32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<2x16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<2x32x32xf32, #mma>
      scf.yield %acc_55 : tensor<2x32x32xf32, #mma>
    } {tt.scheduled_max_stage = 2 : i32}
    %2 = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked}>}>>
    %3 = tt.expand_dims %2 {axis = 1 : i32} : tensor<2xi32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked}>}>> -> tensor<2x1xi32, #ttg.slice<{dim = 2, parent = #blocked}>>
    %4 = tt.expand_dims %3 {axis = 2 : i32} : tensor<2x1xi32, #ttg.slice<{dim = 2, parent = #blocked}>> -> tensor<2x1x1xi32, #blocked>
    %5 = arith.muli %4, %cst_2 : tensor<2x1x1xi32, #blocked>
    %6 = arith.muli %5, %cst_2 : tensor<2x1x1xi32, #blocked>
    %7 = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<2x1x1x!tt.ptr<f32>, #blocked>
    %8 = tt.addptr %7, %6 : tensor<2x1x1x!tt.ptr<f32>, #blocked>, tensor<2x1x1xi32, #blocked>
    %9 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #blocked}>}>>
    %10 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 1, parent = #blocked}>}>>
    %11 = tt.expand_dims %9 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #blocked}>}>> -> tensor<1x32xi32, #ttg.slice<{dim = 2, parent = #blocked}>>
    %12 = tt.expand_dims %10 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 1, parent = #blocked}>}>> -> tensor<1x32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %13 = tt.expand_dims %11 {axis = 2 : i32} : tensor<1x32xi32, #ttg.slice<{dim = 2, parent = #blocked}>> -> tensor<1x32x1xi32, #blocked>
    %14 = arith.muli %13, %cst : tensor<1x32x1xi32, #blocked>
    %15 = tt.broadcast %8 : tensor<2x1x1x!tt.ptr<f32>, #blocked> -> tensor<2x32x1x!tt.ptr<f32>, #blocked>
    %16 = tt.broadcast %14 : tensor<1x32x1xi32, #blocked> -> tensor<2x32x1xi32, #blocked>
    %17 = tt.addptr %15, %16 : tensor<2x32x1x!tt.ptr<f32>, #blocked>, tensor<2x32x1xi32, #blocked>
    %18 = tt.expand_dims %12 {axis = 1 : i32} : tensor<1x32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<1x1x32xi32, #blocked>
    %19 = tt.broadcast %17 : tensor<2x32x1x!tt.ptr<f32>, #blocked> -> tensor<2x32x32x!tt.ptr<f32>, #blocked>
    %20 = tt.broadcast %18 : tensor<1x1x32xi32, #blocked> -> tensor<2x32x32xi32, #blocked>
    %21 = tt.addptr %19, %20 : tensor<2x32x32x!tt.ptr<f32>, #blocked>, tensor<2x32x32xi32, #blocked>
    %22 = ttg.convert_layout %acc_33 : tensor<2x32x32xf32, #mma> -> tensor<2x32x32xf32, #blocked>
    tt.store %21, %22 : tensor<2x32x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// fp16 64x128x32, 4 stages, the accumulator reduced in the epilogue.
// CHECK-LABEL: tt.func public @epilogue_reduce
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<4x32x128xf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<32x128xf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<32x128xf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<32x128xf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: tt.load {{.*}}tensor<64x32x!tt.ptr<f16>, #blocked2>
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<64x32xf16, #shared1, #smem>
// CHECK: ttg.async_wait {{.*}}{num = 2 : i32}
// CHECK: ttng.warp_group_dot {{.*}}{isAsync = true}
// CHECK: ttng.warp_group_dot_wait {{.*}}{pendings = 0 : i32}
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<32x128xf16, #shared, #smem, mutable>
// CHECK: scf.yield
// CHECK: ttg.async_wait {{.*}}{num = 0 : i32}
// CHECK: ttg.local_dealloc
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @epilogue_reduce(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32) attributes {noinline = false} {
    %cst = arith.constant dense<128> : tensor<32x1xi32, #blocked>
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c31_i32 = arith.constant 31 : i32
    %acc = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %rm = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked1>
    %rk = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %rk_0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %0 = arith.addi %K, %c31_i32 : i32
    %1 = arith.divsi %0, %c32_i32 : i32
    %a = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %a_1 = tt.expand_dims %a {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<64x1xi32, #blocked2>
    %a_2 = tt.splat %K : i32 -> tensor<64x1xi32, #blocked2>
    %a_3 = arith.muli %a_1, %a_2 : tensor<64x1xi32, #blocked2>
    %a_4 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked2>
    %a_5 = tt.addptr %a_4, %a_3 : tensor<64x1x!tt.ptr<f16>, #blocked2>, tensor<64x1xi32, #blocked2>
    %a_6 = tt.broadcast %a_5 : tensor<64x1x!tt.ptr<f16>, #blocked2> -> tensor<64x32x!tt.ptr<f16>, #blocked2>
    %b = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>, #blocked>
    %b_7 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %b_8 = tt.expand_dims %b_7 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %b_9 = tt.broadcast %b_8 : tensor<1x128xi32, #blocked> -> tensor<32x128xi32, #blocked>
    %acc_10 = scf.for %acc_11 = %c0_i32 to %1 step %c1_i32 iter_args(%acc_12 = %acc) -> (tensor<64x128xf32, #mma>)  : i32 {
      %kk = arith.muli %acc_11, %c32_i32 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : i32
      %kk_13 = tt.splat %kk {loop.cluster = 0 : i32, loop.stage = 3 : i32} : i32 -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_14 = tt.splat %kk {loop.cluster = 3 : i32, loop.stage = 0 : i32} : i32 -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %kk_15 = arith.addi %kk_13, %rk {loop.cluster = 0 : i32, loop.stage = 3 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
      %kk_16 = arith.addi %kk_14, %rk_0 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %a_17 = tt.expand_dims %kk_15 {axis = 0 : i32, loop.cluster = 0 : i32, loop.stage = 3 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x32xi32, #blocked2>
      %a_18 = tt.broadcast %a_17 {loop.cluster = 0 : i32, loop.stage = 3 : i32} : tensor<1x32xi32, #blocked2> -> tensor<64x32xi32, #blocked2>
      %a_19 = tt.addptr %a_6, %a_18 {loop.cluster = 0 : i32, loop.stage = 3 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked2>, tensor<64x32xi32, #blocked2>
      %a_20 = tt.load %a_19 {loop.cluster = 0 : i32, loop.stage = 3 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked2>
      %a_21 = ttg.local_alloc %a_20 {loop.cluster = 0 : i32, loop.stage = 3 : i32} : (tensor<64x32xf16, #blocked2>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %b_22 = tt.expand_dims %kk_16 {axis = 1 : i32, loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
      %b_23 = arith.muli %b_22, %cst {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x1xi32, #blocked>
      %b_24 = tt.addptr %b, %b_23 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x1x!tt.ptr<f16>, #blocked>, tensor<32x1xi32, #blocked>
      %b_25 = tt.broadcast %b_24 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x1x!tt.ptr<f16>, #blocked> -> tensor<32x128x!tt.ptr<f16>, #blocked>
      %b_26 = tt.addptr %b_25, %b_9 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x128x!tt.ptr<f16>, #blocked>, tensor<32x128xi32, #blocked>
      %b_27 = tt.load %b_26 {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<32x128x!tt.ptr<f16>, #blocked>
      %b_28 = ttg.local_alloc %b_27 {loop.cluster = 0 : i32, loop.stage = 3 : i32} : (tensor<32x128xf16, #blocked>) -> !ttg.memdesc<32x128xf16, #shared1, #smem>
      %acc_29 = ttng.warp_group_dot %a_21, %b_28, %acc_12 {loop.cluster = 0 : i32, loop.stage = 3 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x128xf16, #shared1, #smem> -> tensor<64x128xf32, #mma>
      scf.yield %acc_29 : tensor<64x128xf32, #mma>
    } {tt.scheduled_max_stage = 3 : i32}
    %2 = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked1>
    %3 = tt.addptr %2, %rm : tensor<64x!tt.ptr<f32>, #blocked1>, tensor<64xi32, #blocked1>
    %4 = "tt.reduce"(%acc_10) <{axis = 1 : i32}> ({
    ^bb0(%arg4: f32, %arg5: f32):
      %6 = arith.addf %arg4, %arg5 : f32
      tt.reduce.return %6 : f32
    }) : (tensor<64x128xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %5 = ttg.convert_layout %4 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64xf32, #blocked1>
    tt.store %3, %5 : tensor<64x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// attention: two chained dots, the second's A in registers, a reduction between them.
// CHECK-LABEL: tt.func public @attention
// CHECK: tt.load {{.*}}tensor<128x64x!tt.ptr<f16>, #blocked>
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<128x64xf16, #shared, #smem>
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<3x64x64xf16, #shared1, #smem, mutable>
// CHECK: ttg.local_alloc {{.*}}!ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x64xf16, #shared1, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x64xf16, #shared, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x64xf16, #shared1, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x64xf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: ttg.async_wait {{.*}}{num = 2 : i32}
// CHECK: ttng.warp_group_dot {{.*}}{inputPrecision = 0 : i32, isAsync = true}
// CHECK: ttng.warp_group_dot_wait {{.*}}{pendings = 0 : i32}
// CHECK: ttng.warp_group_dot {{.*}}{inputPrecision = 0 : i32, isAsync = true}
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x64xf16, #shared1, #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} mask {{.*}}{contiguity = 8 : i32} {{.*}}<64x64xf16, #shared, #smem, mutable>
// CHECK: scf.yield
// CHECK: ttng.warp_group_dot_wait {{.*}}{pendings = 0 : i32}
// CHECK: ttg.async_wait {{.*}}{num = 0 : i32}
// CHECK: ttg.local_dealloc
// CHECK: ttg.local_dealloc
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @attention(%q_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %N_CTX: i32) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<1x64xi32, #blocked1>
    %cst_1 = arith.constant dense<64> : tensor<128x1xi32, #blocked2>
    %cst_2 = arith.constant dense<64> : tensor<128x1xi32, #blocked>
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %m_i = arith.constant dense<0xFF800000> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %l_i = arith.constant dense<0.000000e+00> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %rd = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %rd_4 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %q = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %q_5 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %q_6 = tt.expand_dims %q {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %q_7 = tt.expand_dims %q_5 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<128x1xi32, #blocked2>
    %q_8 = arith.muli %q_6, %cst_2 : tensor<128x1xi32, #blocked>
    %q_9 = arith.muli %q_7, %cst_1 : tensor<128x1xi32, #blocked2>
    %q_10 = tt.splat %q_ptr : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>, #blocked>
    %q_11 = tt.addptr %q_10, %q_8 : tensor<128x1x!tt.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
    %q_12 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %q_13 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %q_14 = tt.expand_dims %q_12 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %q_15 = tt.expand_dims %q_13 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %q_16 = tt.broadcast %q_11 : tensor<128x1x!tt.ptr<f16>, #blocked> -> tensor<128x64x!tt.ptr<f16>, #blocked>
    %q_17 = tt.broadcast %q_14 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %q_18 = tt.broadcast %q_15 : tensor<1x64xi32, #blocked2> -> tensor<128x64xi32, #blocked2>
    %q_19 = tt.addptr %q_16, %q_17 : tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %q_20 = tt.load %q_19 : tensor<128x64x!tt.ptr<f16>, #blocked>
    %q_21 = ttg.local_alloc %q_20 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %k = tt.splat %k_ptr : !tt.ptr<f16> -> tensor<1x64x!tt.ptr<f16>, #blocked1>
    %k_22 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %k_23 = tt.expand_dims %k_22 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %k_24 = tt.broadcast %k_23 : tensor<64x1xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %v = tt.splat %v_ptr : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %v_25 = tt.broadcast %q_14 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %l_i_26:3 = scf.for %l_i_27 = %c0_i32 to %N_CTX step %c64_i32 iter_args(%arg6 = %cst_3, %m_i_28 = %m_i, %l_i_29 = %l_i) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>)  : i32 {
      %k_30 = tt.splat %l_i_27 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32 -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
      %k_31 = tt.splat %l_i_27 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32 -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %k_32 = arith.addi %k_30, %rd {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
      %k_33 = arith.addi %k_31, %rd_4 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %k_34 = tt.expand_dims %k_32 {axis = 0 : i32, loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
      %k_35 = arith.muli %k_34, %cst_0 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<1x64xi32, #blocked1>
      %k_36 = tt.addptr %k, %k_35 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<1x64x!tt.ptr<f16>, #blocked1>, tensor<1x64xi32, #blocked1>
      %k_37 = tt.broadcast %k_36 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<1x64x!tt.ptr<f16>, #blocked1> -> tensor<64x64x!tt.ptr<f16>, #blocked1>
      %k_38 = tt.addptr %k_37, %k_24 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
      %k_39 = tt.load %k_38 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked1>
      %k_40 = ttg.local_alloc %k_39 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blocked1>) -> !ttg.memdesc<64x64xf16, #shared1, #smem>
      %qk = ttng.warp_group_dot %q_21, %k_40, %cst_3 {inputPrecision = 0 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<128x64xf32, #mma>
      %m_new = "tt.reduce"(%qk) <{axis = 1 : i32}> ({
      ^bb0(%m_new_61: f32, %m_new_62: f32):
        %m_new_63 = arith.maxnumf %m_new_61, %m_new_62 : f32
        tt.reduce.return %m_new_63 : f32
      }) {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %m_new_41 = arith.maxnumf %m_i_28, %m_new {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %p = tt.expand_dims %m_new_41 {axis = 1 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
      %p_42 = tt.broadcast %p {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %p_43 = arith.subf %qk, %p_42 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x64xf32, #mma>
      %p_44 = math.exp %p_43 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x64xf32, #mma>
      %alpha = arith.subf %m_i_28, %m_new_41 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %alpha_45 = math.exp %alpha {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %l_i_46 = arith.mulf %l_i_29, %alpha_45 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %l_i_47 = "tt.reduce"(%p_44) <{axis = 1 : i32}> ({
      ^bb0(%l_i_61: f32, %l_i_62: f32):
        %l_i_63 = arith.addf %l_i_61, %l_i_62 : f32
        tt.reduce.return %l_i_63 : f32
      }) {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %l_i_48 = arith.addf %l_i_46, %l_i_47 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %acc = tt.expand_dims %alpha_45 {axis = 1 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
      %acc_49 = tt.broadcast %acc {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %acc_50 = arith.mulf %arg6, %acc_49 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x64xf32, #mma>
      %v_51 = tt.expand_dims %k_33 {axis = 1 : i32, loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
      %v_52 = arith.muli %v_51, %cst {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x1xi32, #blocked>
      %v_53 = tt.addptr %v, %v_52 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
      %v_54 = tt.broadcast %v_53 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #blocked>
      %v_55 = tt.addptr %v_54, %v_25 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %v_56 = tt.load %v_55 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked>
      %v_57 = ttg.local_alloc %v_56 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %acc_58 = arith.truncf %p_44 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %acc_59 = ttg.convert_layout %acc_58 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %acc_60 = ttng.warp_group_dot %acc_59, %v_57, %acc_50 {inputPrecision = 0 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
      scf.yield %acc_60, %m_new_41, %l_i_48 : tensor<128x64xf32, #mma>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    } {tt.scheduled_max_stage = 2 : i32}
    %0 = tt.splat %o_ptr : !tt.ptr<f32> -> tensor<128x1x!tt.ptr<f32>, #blocked2>
    %1 = tt.addptr %0, %q_9 : tensor<128x1x!tt.ptr<f32>, #blocked2>, tensor<128x1xi32, #blocked2>
    %2 = tt.broadcast %1 : tensor<128x1x!tt.ptr<f32>, #blocked2> -> tensor<128x64x!tt.ptr<f32>, #blocked2>
    %3 = tt.addptr %2, %q_18 : tensor<128x64x!tt.ptr<f32>, #blocked2>, tensor<128x64xi32, #blocked2>
    %4 = tt.expand_dims %l_i_26#2 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
    %5 = tt.broadcast %4 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %6 = arith.divf %l_i_26#0, %5 : tensor<128x64xf32, #mma>
    %7 = ttg.convert_layout %6 : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked2>
    tt.store %3, %7 : tensor<128x64x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}

