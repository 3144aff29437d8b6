// tt.scan: a sequential scan within each thread, Hillis–Steele across the
// lanes with shfl.sync up (down when reversed), and across warps through
// the op's scratch (at its allocation.offset); tiles along the axis carry
// in order; layouts that broadcast get a located error.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --convert-triton-gpu-to-llvm | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @cumsum_one_warp
  tt.func public @cumsum_one_warp(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = "tt.scan"(%r) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.scan.return %c : i32
    }) : (tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %v = tt.splat %out : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #blocked>
    %p = tt.addptr %v, %r : tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>
    tt.store %p, %s : tensor<128x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @cumsum_four_warps
  tt.func public @cumsum_four_warps(%out: !tt.ptr<f32>) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %f = arith.sitofp %r : tensor<256xi32, #blocked> to tensor<256xf32, #blocked>
    %s = "tt.scan"(%f) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.scan.return %c : f32
    }) {allocation.offset = 32 : i32} : (tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    %v = tt.splat %out : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %v, %r : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    tt.store %p, %s : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @cumsum_rows
  tt.func public @cumsum_rows(%out: !tt.ptr<f32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %b = tt.broadcast %e : tensor<1x32xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %f = arith.sitofp %b : tensor<16x32xi32, #blocked> to tensor<16x32xf32, #blocked>
    %s = "tt.scan"(%f) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: f32, %c: f32):
      %x = arith.addf %a, %c : f32
      tt.scan.return %x : f32
    }) : (tensor<16x32xf32, #blocked>) -> tensor<16x32xf32, #blocked>
    %v = tt.splat %out : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %v, %b : tensor<16x32x!tt.ptr<f32>, #blocked>, tensor<16x32xi32, #blocked>
    tt.store %p, %s : tensor<16x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @reverse_cumsum
  tt.func public @reverse_cumsum(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %s = "tt.scan"(%r) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.scan.return %c : i32
    }) : (tensor<64xi32, #blocked>) -> tensor<64xi32, #blocked>
    %v = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked>
    %p = tt.addptr %v, %r : tensor<64x!tt.ptr<i32>, #blocked>, tensor<64xi32, #blocked>
    tt.store %p, %s : tensor<64x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @running_argmax
  tt.func public @running_argmax(%out: !tt.ptr<i32>) {
    %i = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %v = arith.sitofp %i : tensor<64xi32, #blocked> to tensor<64xf32, #blocked>
    %m:2 = "tt.scan"(%v, %i) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %b, %a : f32
      %x = arith.select %gt, %b, %a : f32
      %xi = arith.select %gt, %bi, %ai : i32
      tt.scan.return %x, %xi : f32, i32
    }) {allocation.offset = 0 : i32} : (tensor<64xf32, #blocked>, tensor<64xi32, #blocked>) -> (tensor<64xf32, #blocked>, tensor<64xi32, #blocked>)
    %p0 = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked>
    %p = tt.addptr %p0, %i : tensor<64x!tt.ptr<i32>, #blocked>, tensor<64xi32, #blocked>
    tt.store %p, %m#1 : tensor<64x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// Four warps over 64 elements: warps 2 and 3 repeat warps 0 and 1.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @broadcast(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    // expected-error @+1 {{convert-triton-gpu-to-llvm: tt.scan over a layout that broadcasts is not supported (in 'tt.scan')}}
    %s = "tt.scan"(%r) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.scan.return %c : i32
    }) : (tensor<64xi32, #blocked>) -> tensor<64xi32, #blocked>
    %v = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked>
    %p = tt.addptr %v, %r : tensor<64x!tt.ptr<i32>, #blocked>, tensor<64xi32, #blocked>
    tt.store %p, %s : tensor<64x!tt.ptr<i32>, #blocked>
    tt.return
  }
}
