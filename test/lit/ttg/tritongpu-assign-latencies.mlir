// tritongpu-assign-latencies: a loop's own tt.num_stages enables load
// pipelining (latency = (stages - 1) / (max indirection level + 1)); loops
// without it, with one stage, outer loops and narrow (< 32-bit vector)
// tensor loads get nothing, scalar loads do; user latencies are kept; the
// option num-stages only applies to loops without the attribute (loops
// with dots: tritongpu-assign-latencies-dots.mlir). Every expectation here
// is what Triton 3.6's pass does to the same input (scripts/triton-pass.py).
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-assign-latencies | FileCheck %s
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-assign-latencies='num-stages=1' | FileCheck %s
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-assign-latencies | tt-opt --split-input-file > /dev/null

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func public @direct
// CHECK: scf.for
// CHECK: tt.load %{{.*}} {tt.latency = 1 : i32}
// CHECK-NOT: tt.latency
// CHECK: tt.return
  tt.func public @direct(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %o = arith.muli %i, %n : i32
      %a = tt.addptr %p, %o : !tt.ptr<f32>, i32
      %s = tt.splat %a : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
      %ptrs = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
      %x = tt.load %ptrs : tensor<128x!tt.ptr<f32>, #b>
      %qs = tt.splat %q : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
      %qp = tt.addptr %qs, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
      tt.store %qp, %x : tensor<128x!tt.ptr<f32>, #b>
    } {tt.num_stages = 2 : i32}
    tt.return
  }
// CHECK-LABEL: tt.func public @no_attribute
// CHECK-NOT: tt.latency
// CHECK: tt.return
  tt.func public @no_attribute(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %ptrs = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %ptrs : tensor<128x!tt.ptr<f32>, #b>
      tt.store %ptrs, %x : tensor<128x!tt.ptr<f32>, #b>
    }
    tt.return
  }
// The shared walk reaches the index load first from the addptr, at level
// 0, so every load gets (3 - 1) / 1.
// CHECK-LABEL: tt.func public @indirect
// CHECK: tt.load %{{.*}} {tt.latency = 2 : i32} : tensor<128x!tt.ptr<i32>
// CHECK: tt.load %{{.*}} {tt.latency = 2 : i32} : tensor<128x!tt.ptr<f32>
// CHECK: tt.load %{{.*}} {tt.latency = 2 : i32} : tensor<128x!tt.ptr<i32>
// CHECK: tt.load %{{.*}} {tt.latency = 1 : i32} : tensor<128x!tt.ptr<i32>
// CHECK: tt.load %{{.*}} {tt.latency = 1 : i32} : tensor<128x!tt.ptr<f32>
// CHECK: tt.return
  tt.func public @indirect(%idx: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b4>
    %is = tt.splat %idx : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b4>
    %ip = tt.addptr %is, %r : tensor<128x!tt.ptr<i32>, #b4>, tensor<128xi32, #b4>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b4>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %k = tt.load %ip : tensor<128x!tt.ptr<i32>, #b4>
      %pp = tt.addptr %ps, %k : tensor<128x!tt.ptr<f32>, #b4>, tensor<128xi32, #b4>
      %x = tt.load %pp : tensor<128x!tt.ptr<f32>, #b4>
      %y = tt.load %ip : tensor<128x!tt.ptr<i32>, #b4>
      %qp = tt.addptr %ps, %y : tensor<128x!tt.ptr<f32>, #b4>, tensor<128xi32, #b4>
      tt.store %qp, %x : tensor<128x!tt.ptr<f32>, #b4>
    } {tt.num_stages = 3 : i32}
    scf.for %i = %c0 to %n step %c1 : i32 {
      %k = tt.load %ip : tensor<128x!tt.ptr<i32>, #b4>
      %pp = tt.addptr %ps, %k : tensor<128x!tt.ptr<f32>, #b4>, tensor<128xi32, #b4>
      %x = tt.load %pp : tensor<128x!tt.ptr<f32>, #b4>
      tt.store %pp, %x : tensor<128x!tt.ptr<f32>, #b4>
    } {tt.num_stages = 2 : i32}
    tt.return
  }
// CHECK-LABEL: tt.func public @small_and_scalar
// CHECK: tt.load %{{.*}} : tensor<128x!tt.ptr<i8>
// CHECK: tt.load %{{.*}} {tt.latency = 2 : i32} : !tt.ptr<f32>
// CHECK: tt.return
  tt.func public @small_and_scalar(%p: !tt.ptr<i8>, %s: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ps = tt.splat %p : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>, #b>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<i8>, #b>, tensor<128xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %pp : tensor<128x!tt.ptr<i8>, #b>
      %v = tt.load %s : !tt.ptr<f32>
      tt.store %pp, %x : tensor<128x!tt.ptr<i8>, #b>
      tt.store %s, %v : !tt.ptr<f32>
    } {tt.num_stages = 3 : i32}
    tt.return
  }
// CHECK-LABEL: tt.func public @one_stage_and_outer
// CHECK-NOT: tt.latency
// CHECK: tt.return
  tt.func public @one_stage_and_outer(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %ptrs = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %ptrs : tensor<128x!tt.ptr<f32>, #b>
      tt.store %ptrs, %x : tensor<128x!tt.ptr<f32>, #b>
    } {tt.num_stages = 1 : i32}
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %ptrs : tensor<128x!tt.ptr<f32>, #b>
      scf.for %j = %c0 to %n step %c1 : i32 {
        tt.store %ptrs, %x : tensor<128x!tt.ptr<f32>, #b>
      } {tt.num_stages = 2 : i32}
    } {tt.num_stages = 2 : i32}
    tt.return
  }
// CHECK-LABEL: tt.func public @user_latency
// CHECK: tt.load %{{.*}} {tt.latency = 5 : i32}
// CHECK-NEXT: tt.load %{{.*}} : tensor
// CHECK: tt.return
  tt.func public @user_latency(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %ptrs = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %ptrs {tt.latency = 5 : i32} : tensor<128x!tt.ptr<f32>, #b>
      %y = tt.load %ptrs : tensor<128x!tt.ptr<f32>, #b>
      %z = arith.addf %x, %y : tensor<128xf32, #b>
      tt.store %ptrs, %z : tensor<128x!tt.ptr<f32>, #b>
    } {tt.num_stages = 3 : i32}
    tt.return
  }
}

