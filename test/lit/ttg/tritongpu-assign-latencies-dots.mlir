// tritongpu-assign-latencies in loops with dots: each dot's walk goes
// back through its A and B operands only; loads stored by ttg.local_alloc
// need 4 contiguous bytes in the shared encoding; narrow loads are walked
// through. Every expectation is what Triton 3.6's pass does to the same
// input (scripts/triton-pass.py FILE tritongpu-assign-latencies --split).
// RUN: tt-opt %s --split-input-file --tritongpu-assign-latencies | FileCheck %s

// A's threads hold 8 contiguous f16 along the dimension its NVMMA encoding
// keeps contiguous (16 bytes, enough for cp.async); B's hold one (2 bytes).
// CHECK-LABEL: tt.func public @wgmma_operands
// CHECK: scf.for
// CHECK: tt.load %{{.*}} {tt.latency = 2 : i32} : tensor<128x64x!tt.ptr<f16>
// CHECK: tt.load %{{.*}} : tensor<64x128x!tt.ptr<f16>
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_operands(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %pa_m = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #a}>>
    %pa_n = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #a}>>
    %pa_me = tt.expand_dims %pa_m {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #a}>> -> tensor<128x1xi32, #a>
    %pa_ne = tt.expand_dims %pa_n {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #a}>> -> tensor<1x64xi32, #a>
    %pa_s = arith.constant dense<64> : tensor<128x1xi32, #a>
    %pa_ms = arith.muli %pa_me, %pa_s : tensor<128x1xi32, #a>
    %pa_mb = tt.broadcast %pa_ms : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %pa_nb = tt.broadcast %pa_ne : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
    %pa_o = arith.addi %pa_mb, %pa_nb : tensor<128x64xi32, #a>
    %pa_b = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #a>
    %pa = tt.addptr %pa_b, %pa_o : tensor<128x64x!tt.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %pb_m = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #bt}>>
    %pb_n = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #bt}>>
    %pb_me = tt.expand_dims %pb_m {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #bt}>> -> tensor<64x1xi32, #bt>
    %pb_ne = tt.expand_dims %pb_n {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #bt}>> -> tensor<1x128xi32, #bt>
    %pb_s = arith.constant dense<128> : tensor<64x1xi32, #bt>
    %pb_ms = arith.muli %pb_me, %pb_s : tensor<64x1xi32, #bt>
    %pb_mb = tt.broadcast %pb_ms : tensor<64x1xi32, #bt> -> tensor<64x128xi32, #bt>
    %pb_nb = tt.broadcast %pb_ne : tensor<1x128xi32, #bt> -> tensor<64x128xi32, #bt>
    %pb_o = arith.addi %pb_mb, %pb_nb : tensor<64x128xi32, #bt>
    %pb_b = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>, #bt>
    %pb = tt.addptr %pb_b, %pb_o : tensor<64x128x!tt.ptr<f16>, #bt>, tensor<64x128xi32, #bt>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128x128xf32, #mma>) : i32 {
      %x = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #a>
      %xs = ttg.local_alloc %x : (tensor<128x64xf16, #a>) -> !ttg.memdesc<128x64xf16, #sa, #smem>
      %y = tt.load %pb : tensor<64x128x!tt.ptr<f16>, #bt>
      %ys = ttg.local_alloc %y : (tensor<64x128xf16, #bt>) -> !ttg.memdesc<64x128xf16, #sb, #smem>
      %d = ttng.warp_group_dot %xs, %ys, %acc : !ttg.memdesc<128x64xf16, #sa, #smem> * !ttg.memdesc<64x128xf16, #sb, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    } {tt.num_stages = 3 : i32}
    tt.return %r : tensor<128x128xf32, #mma>
  }
}

// -----

// Only the loads behind A and B count, not the accumulator's, in a loop
// without its own tt.num_stages.
// CHECK-LABEL: tt.func public @mma_v2_operands_and_the_accumulator
// CHECK: tt.load %{{.*}} {tt.latency = 2 : i32} : tensor<64x64x!tt.ptr<f16>
// CHECK: tt.load %{{.*}} {tt.latency = 2 : i32} : tensor<64x64x!tt.ptr<f16>
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f32>
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_v2_operands_and_the_accumulator(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %pc: tensor<64x64x!tt.ptr<f32>, #a>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %pa_m = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #a}>>
    %pa_n = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #a}>>
    %pa_me = tt.expand_dims %pa_m {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #a}>> -> tensor<64x1xi32, #a>
    %pa_ne = tt.expand_dims %pa_n {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #a}>> -> tensor<1x64xi32, #a>
    %pa_s = arith.constant dense<64> : tensor<64x1xi32, #a>
    %pa_ms = arith.muli %pa_me, %pa_s : tensor<64x1xi32, #a>
    %pa_mb = tt.broadcast %pa_ms : tensor<64x1xi32, #a> -> tensor<64x64xi32, #a>
    %pa_nb = tt.broadcast %pa_ne : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
    %pa_o = arith.addi %pa_mb, %pa_nb : tensor<64x64xi32, #a>
    %pa_b = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #a>
    %pa = tt.addptr %pa_b, %pa_o : tensor<64x64x!tt.ptr<f16>, #a>, tensor<64x64xi32, #a>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) : i32 {
      %x = tt.load %pa : tensor<64x64x!tt.ptr<f16>, #a>
      %xa = ttg.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y = tt.load %pa : tensor<64x64x!tt.ptr<f16>, #a>
      %xb = ttg.convert_layout %y : tensor<64x64xf16, #a> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %c = tt.load %pc : tensor<64x64x!tt.ptr<f32>, #a>
      %cm = ttg.convert_layout %c : tensor<64x64xf32, #a> -> tensor<64x64xf32, #mma>
      %s = arith.addf %acc, %cm : tensor<64x64xf32, #mma>
      %d = tt.dot %xa, %xb, %s : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// The gathered A and the argument-pointer B are narrow (no known
// contiguity); the walk goes through them to the index load, at level 0
// (latency 4 - 1).
// CHECK-LABEL: tt.func public @indirect_operand
// CHECK: tt.load %{{.*}} {tt.latency = 3 : i32} : tensor<64x64x!tt.ptr<i32>
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#i = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @indirect_operand(%pi: tensor<64x64x!tt.ptr<i32>, #a>, %base: tensor<64x64x!tt.ptr<f16>, #a>, %pb: tensor<64x64x!tt.ptr<f16>, #a>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) : i32 {
      %idx = tt.load %pi : tensor<64x64x!tt.ptr<i32>, #a>
      %p = tt.addptr %base, %idx : tensor<64x64x!tt.ptr<f16>, #a>, tensor<64x64xi32, #a>
      %x = tt.load %p : tensor<64x64x!tt.ptr<f16>, #a>
      %xa = ttg.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #a>
      %yb = ttg.convert_layout %y : tensor<64x64xf16, #a> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xa, %yb, %acc : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tt.num_stages = 4 : i32}
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// Descriptor (TMA) loads are always worth pipelining: both operands of the
// warp-group dot get the latency of level 0 (3 - 1).
// CHECK-LABEL: tt.func public @descriptor_operands
// CHECK: tt.descriptor_load %{{.*}} {tt.latency = 2 : i32} : !tt.tensordesc<tensor<128x64xf16, #shared>>
// CHECK: tt.descriptor_load %{{.*}} {tt.latency = 2 : i32} : !tt.tensordesc<tensor<64x128xf16, #shared>>
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @descriptor_operands(%da: !tt.tensordesc<tensor<128x64xf16, #shared>>, %db: !tt.tensordesc<tensor<64x128xf16, #shared>>, %n: i32) -> tensor<128x128xf32, #mma> {
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
    }
    tt.return %r : tensor<128x128xf32, #mma>
  }
}
