// nvgpu-warp-specialization (Hopper): Triton 3.6's pass partitions a function
// around its wgmma dots when one of its loops is marked tt.warp_specialize.
// This project does not do that yet and refuses such loops; a marked loop in a
// function without a warp-group dot (every loop before sm_90) is left as it
// is, as Triton leaves it.
// RUN: tt-opt %s --split-input-file --nvgpu-warp-specialization='num-stages=3' --verify-diagnostics | FileCheck %s

// CHECK-LABEL: tt.func public @no_dot
// CHECK: scf.for
// CHECK: } {tt.warp_specialize}
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
    tt.return %s : tensor<128xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_loop(%n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked>
    %b = arith.constant dense<2.000000e+00> : tensor<32x64xf16, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    // expected-error @+1 {{'nvgpu-warp-specialization' does not support loops marked 'tt.warp_specialize' around a warp-group dot yet (without `warp_specialize=True` on its `tl.range` the loop compiles, software-pipelined)}}
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %sa = ttg.local_alloc %a : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
      %sb = ttg.local_alloc %b : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %sa, %sb, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tt.warp_specialize}
    tt.return %s : tensor<64x64xf32, #mma>
  }
}
