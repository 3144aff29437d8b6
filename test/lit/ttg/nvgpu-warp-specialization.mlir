// nvgpu-warp-specialization: Triton 3.6's pass splits a function of 4 warps
// with a loop marked tt.warp_specialize into a producer warp group, which
// issues the loads that feed its warp-group dots, and consumer warp groups,
// which run the dots; it then sets tt.num_stages = 0 on every loop of the
// function. This project does not split functions yet and refuses those. It
// does what Triton does with the rest: a function whose warp count is not 4,
// or with an scf.if that has an else region, is left as it is; one with
// nothing to split (no warp-group dot, as before sm_90, or no load) gets
// tt.num_stages = 0 on all its loops. Every expectation is Triton's pass's
// output on the same case (scripts/triton-pass.py).
// RUN: tt-opt %s --split-input-file --nvgpu-warp-specialization='num-stages=3' --verify-diagnostics | FileCheck %s

// No warp-group dot: every loop of the function, marked or not, is no
// longer pipelined.
// CHECK-LABEL: tt.func public @no_dot
// CHECK: scf.for
// CHECK: } {tt.num_stages = 0 : i32, tt.warp_specialize}
// CHECK: scf.for
// CHECK: } {tt.num_stages = 0 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_dot(%x: !tt.ptr<f32>, %n: i32) -> tensor<128xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128xf32, #blocked>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %q = tt.addptr %p, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xf32, #blocked>) : i32 {
      %v = tt.load %q : tensor<128x!tt.ptr<f32>, #blocked>
      %a = arith.addf %acc, %v : tensor<128xf32, #blocked>
      scf.yield %a : tensor<128xf32, #blocked>
    } {tt.warp_specialize}
    %t = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %s) -> (tensor<128xf32, #blocked>) : i32 {
      %a = arith.addf %acc, %acc : tensor<128xf32, #blocked>
      scf.yield %a : tensor<128xf32, #blocked>
    } {tt.num_stages = 4 : i32}
    tt.return %t : tensor<128xf32, #blocked>
  }
}

// -----

// A warp-group dot fed by no load: nothing to split.
// CHECK-LABEL: tt.func public @wgmma_no_load
// CHECK: ttng.warp_group_dot
// CHECK: } {tt.num_stages = 0 : i32, tt.warp_specialize}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_no_load(%n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked>
    %b = arith.constant dense<2.000000e+00> : tensor<32x64xf16, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %sa = ttg.local_alloc %a : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %sb = ttg.local_alloc %b : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %sa, %sb, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tt.warp_specialize}
    tt.return %s : tensor<64x64xf32, #mma>
  }
}

// -----

// Loads feeding a warp-group dot: Triton splits the function; refused here.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_loads(%pa: tensor<64x32x!tt.ptr<f16>, #blocked>, %pb: tensor<32x64x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    // expected-error @+1 {{'nvgpu-warp-specialization' does not support loops marked 'tt.warp_specialize' around a warp-group dot yet (without `warp_specialize=True` on its `tl.range` the loop compiles, software-pipelined)}}
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #blocked>
      %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #blocked>
      %sa = ttg.local_alloc %a : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %sb = ttg.local_alloc %b : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %sa, %sb, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tt.warp_specialize}
    tt.return %s : tensor<64x64xf32, #mma>
  }
}

// -----

// Eight warps: Triton's pass returns at once.
// CHECK-LABEL: tt.func public @wgmma_loop_8_warps
// CHECK: ttng.warp_group_dot
// CHECK: } {tt.warp_specialize}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_loop_8_warps(%n: i32) -> tensor<128x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = arith.constant dense<1.000000e+00> : tensor<128x32xf16, #blocked>
    %b = arith.constant dense<2.000000e+00> : tensor<32x64xf16, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %sa = ttg.local_alloc %a : (tensor<128x32xf16, #blocked>) -> !ttg.memdesc<128x32xf16, #shared, #smem>
      %sb = ttg.local_alloc %b : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %sa, %sb, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<128x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    } {tt.warp_specialize}
    tt.return %s : tensor<128x64xf32, #mma>
  }
}

// -----

// An scf.if with an else region anywhere in the function: Triton's pass
// returns at once.
// CHECK-LABEL: tt.func public @wgmma_loop_if_else
// CHECK: ttng.warp_group_dot
// CHECK: } {tt.warp_specialize}
// CHECK: scf.if
// CHECK: } else {
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_loop_if_else(%n: i32, %flag: i1) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked>
    %b = arith.constant dense<2.000000e+00> : tensor<32x64xf16, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %sa = ttg.local_alloc %a : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %sb = ttg.local_alloc %b : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %sa, %sb, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tt.warp_specialize}
    %r = scf.if %flag -> (tensor<64x64xf32, #mma>) {
      %t = arith.addf %s, %s : tensor<64x64xf32, #mma>
      scf.yield %t : tensor<64x64xf32, #mma>
    } else {
      scf.yield %s : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}
