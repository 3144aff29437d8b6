// tritongpu-schedule-loops on loops without dots: tt.latency attributes
// are consumed and every body op gets loop.stage / loop.cluster: latency ops
// and their forward slice by longest latency path, scf.if users moved to an
// epilogue cluster, producers following their consumers, loop-carried
// producers one stage later in a cluster before their user, the rest in the
// last stage. Loops without latencies are untouched; dots are scheduled
// by the same rules.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-schedule-loops | FileCheck %s
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-schedule-loops | tt-opt --split-input-file > /dev/null

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func public @carried
// CHECK: tt.load %{{.*}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: arith.cmpi slt, %{{.*}} {loop.cluster = 3 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: scf.if
// CHECK-NEXT: tt.store
// CHECK-NEXT: } {loop.cluster = 3 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: tt.addptr %{{.*}} {loop.cluster = 1 : i32, loop.stage = 1 : i32}
// CHECK: } {tt.num_stages = 2 : i32, tt.scheduled_max_stage = 1 : i32}
  tt.func public @carried(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<128> : tensor<128xi32, #b>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %ptrs = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %qp = tt.addptr %qs, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    %out = scf.for %i = %c0 to %n step %c1 iter_args(%ptr = %ptrs) -> (tensor<128x!tt.ptr<f32>, #b>) : i32 {
      %x = tt.load %ptr {tt.latency = 1 : i32} : tensor<128x!tt.ptr<f32>, #b>
      %c = arith.cmpi slt, %i, %c1 : i32
      scf.if %c {
        tt.store %qp, %x : tensor<128x!tt.ptr<f32>, #b>
      }
      %next = tt.addptr %ptr, %step : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
      scf.yield %next : tensor<128x!tt.ptr<f32>, #b>
    } {tt.num_stages = 2 : i32}
    tt.return
  }
// CHECK-LABEL: tt.func public @two_latencies
// CHECK-NOT: tt.latency
// CHECK: tt.splat %{{.*}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: tt.addptr %{{.*}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: tt.load %{{.*}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
// CHECK-NEXT: tt.load %{{.*}} {loop.cluster = 1 : i32, loop.stage = 1 : i32}
// CHECK-NEXT: arith.addf %{{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: arith.mulf %{{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: tt.store %{{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: arith.addi %{{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: tt.splat %{{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: tt.addptr %{{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: tt.store %{{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: } {tt.scheduled_max_stage = 2 : i32}
  tt.func public @two_latencies(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %ptrs = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %o = tt.splat %i : i32 -> tensor<128xi32, #b>
      %pp = tt.addptr %ptrs, %o : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
      %x = tt.load %pp {tt.latency = 2 : i32} : tensor<128x!tt.ptr<f32>, #b>
      %y = tt.load %ptrs {tt.latency = 1 : i32} : tensor<128x!tt.ptr<f32>, #b>
      %z = arith.addf %x, %y : tensor<128xf32, #b>
      %w = arith.mulf %z, %z : tensor<128xf32, #b>
      tt.store %ptrs, %w : tensor<128x!tt.ptr<f32>, #b>
      %u = arith.addi %i, %c1 : i32
      %us = tt.splat %u : i32 -> tensor<128xi32, #b>
      %up = tt.addptr %ptrs, %us : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
      tt.store %up, %w : tensor<128x!tt.ptr<f32>, #b>
    }
    tt.return
  }
// CHECK-LABEL: tt.func public @no_latency
// CHECK-NOT: loop.stage
// CHECK: } {tt.num_stages = 2 : i32}
  tt.func public @no_latency(%p: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %p : !tt.ptr<f32>
      tt.store %p, %x : !tt.ptr<f32>
    } {tt.num_stages = 2 : i32}
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// A dot is scheduled like any other op: its latency puts it in stage 0.
// CHECK-LABEL: tt.func public @dot
// CHECK: tt.dot %{{.*}} {loop.cluster = 0 : i32, loop.stage = 0 : i32}
// CHECK: scf.yield
// CHECK-NEXT: } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 0 : i32}
  tt.func public @dot(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %n: i32) -> tensor<16x16xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<16x16xf32, #mma>) : i32 {
      %d = tt.dot %a, %b, %acc {tt.latency = 2 : i32} : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32, #mma>
      scf.yield %d : tensor<16x16xf32, #mma>
    } {tt.num_stages = 3 : i32}
    tt.return %r : tensor<16x16xf32, #mma>
  }
}
