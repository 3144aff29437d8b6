// tritongpu-pipeline on scheduled loops without dots (two stages, one
// masked load): the load becomes an async copy into a one-buffer shared
// allocation, issued one iteration ahead (a prologue for the first, the
// loop's last ops for the next, masked by the iteration's bound), waited
// for and read from shared memory in the consumer's stage; then the
// pipelining attributes go and the module is folded. A loop whose users
// sit in stage S > 1 (nothing in the stages between) gets a ring of S
// buffers, S copies in flight, and a window of S loop arguments for every
// value the consumer reads from stage 0. Loops without a schedule are
// untouched; scheduled loops outside the supported subset are refused.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-pipeline | FileCheck %s
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-pipeline | tt-opt --split-input-file > /dev/null

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func public @rows
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[CM1:.*]] = arith.constant -1 : i32
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x256xf32, #shared, #smem, mutable>
// CHECK: %[[P0:.*]] = arith.cmpi slt, %[[LB:.*]], %[[UB:.*]] : i32
// CHECK: arith.muli %[[LB]], %{{.*}} : i32
// CHECK: %[[V0:.*]] = ttg.memdesc_index %[[BUF]][%[[C0]]]
// CHECK: %[[S0:.*]] = tt.splat %[[P0]] : i1 -> tensor<256xi1, #blocked>
// CHECK: %[[M0:.*]] = arith.andi %[[S0]], %[[MASK:.*]] : tensor<256xi1, #blocked>
// CHECK: %[[CP0:.*]] = ttg.async_copy_global_to_local %{{.*}}, %[[V0]] mask %[[M0]] other %[[OTHER:.*]] :
// CHECK: %[[T0:.*]] = ttg.async_commit_group tokens %[[CP0]]
// CHECK: scf.for %[[IV:.*]] = %[[LB]] to %[[UB]] step %[[STEP:.*]] iter_args(%[[INS:.*]] = %[[C0]], %[[EXT:.*]] = %[[CM1]], %[[NB:.*]] = %[[C1]], %[[TOK:.*]] = %[[T0]]) -> (i32, i32, i32, !ttg.async.token)  : i32 {
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[UB]], %[[STEP]] : i32
// CHECK-NEXT: %[[P:.*]] = arith.cmpi slt, %[[IV]], %[[LAST]] : i32
// CHECK-NEXT: %[[E1:.*]] = arith.addi %[[EXT]], %[[C1]] : i32
// CHECK-NEXT: %[[E2:.*]] = arith.cmpi sge, %[[E1]], %[[NB]] : i32
// CHECK-NEXT: %[[E3:.*]] = arith.select %[[E2]], %[[C0]], %[[E1]] : i32
// CHECK-NEXT: %[[W:.*]] = ttg.async_wait %[[TOK]] {num = 0 : i32}
// CHECK-NEXT: %[[RV:.*]] = ttg.memdesc_index %[[BUF]][%[[E3]]]
// CHECK-NEXT: %[[LD:.*]] = ttg.local_load %[[RV]] token %[[W]]
// CHECK-NEXT: %[[X:.*]] = arith.select %[[MASK]], %[[LD]], %[[OTHER]]
// CHECK-NEXT: arith.addf %[[X]], %[[X]]
// CHECK-NEXT: arith.muli %[[IV]], %{{.*}} : i32
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.splat
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.store
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[INS]], %[[C1]] : i32
// CHECK-NEXT: %[[I2:.*]] = arith.cmpi sge, %[[I1]], %[[C1]] : i32
// CHECK-NEXT: %[[I3:.*]] = arith.select %[[I2]], %[[C0]], %[[I1]] : i32
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[IV]], %[[STEP]] : i32
// CHECK-NEXT: arith.muli %[[NEXT]], %{{.*}} : i32
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.splat
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: %[[WV:.*]] = ttg.memdesc_index %[[BUF]][%[[I3]]]
// CHECK-NEXT: %[[SP:.*]] = tt.splat %[[P]] : i1 -> tensor<256xi1, #blocked>
// CHECK-NEXT: %[[MP:.*]] = arith.andi %[[SP]], %[[MASK]]
// CHECK-NEXT: %[[CP:.*]] = ttg.async_copy_global_to_local %{{.*}}, %[[WV]] mask %[[MP]] other %[[OTHER]]
// CHECK-NEXT: %[[T:.*]] = ttg.async_commit_group tokens %[[CP]]
// CHECK-NEXT: scf.yield %[[I3]], %[[E3]], %[[C1]], %[[T]] : i32, i32, i32, !ttg.async.token
// CHECK-NEXT: } {tt.num_stages = 2 : i32}
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[BUF]]
// CHECK-NOT: loop.stage
  tt.func public @rows(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32, %n: i32, %cols: i32) {
    %other = arith.constant dense<1.000000e+00> : tensor<256xf32, #b>
    %lb = tt.get_program_id x : i32
    %step = tt.get_num_programs x : i32
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b>
    %cs = tt.splat %cols : i32 -> tensor<256xi32, #b>
    %mask = arith.cmpi slt, %r, %cs : tensor<256xi32, #b>
    scf.for %i = %lb to %n step %step : i32 {
      %o = arith.muli %i, %stride {loop.cluster = 1 : i32, loop.stage = 0 : i32} : i32
      %p = tt.addptr %in, %o {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>, i32
      %ps = tt.splat %p {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #b>
      %pp = tt.addptr %ps, %r {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<256x!tt.ptr<f32>, #b>, tensor<256xi32, #b>
      %x = tt.load %pp, %mask, %other {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<256x!tt.ptr<f32>, #b>
      %y = arith.addf %x, %x {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<256xf32, #b>
      %oo = arith.muli %i, %stride {loop.cluster = 0 : i32, loop.stage = 1 : i32} : i32
      %q = tt.addptr %out, %oo {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !tt.ptr<f32>, i32
      %qs = tt.splat %q {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #b>
      %qp = tt.addptr %qs, %r {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<256x!tt.ptr<f32>, #b>, tensor<256xi32, #b>
      tt.store %qp, %y, %mask {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<256x!tt.ptr<f32>, #b>
    } {tt.num_stages = 2 : i32, tt.scheduled_max_stage = 1 : i32}
    tt.return
  }

// A zero `other` needs no select; the loop without a schedule is untouched.
// CHECK-LABEL: tt.func public @zero_other
// CHECK: ttg.local_load
// CHECK-NOT: arith.select %{{.*}} : tensor
// CHECK: tt.store
// CHECK: scf.for
// CHECK-NEXT: tt.load
  tt.func public @zero_other(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %cols: i32) {
    %zero = arith.constant dense<0.000000e+00> : tensor<128xf32, #b>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %cs = tt.splat %cols : i32 -> tensor<128xi32, #b>
    %mask = arith.cmpi slt, %r, %cs : tensor<128xi32, #b>
    %s = tt.splat %in : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %pp = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %pp, %mask, %zero {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<128x!tt.ptr<f32>, #b>
      tt.store %pp, %x, %mask {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<128x!tt.ptr<f32>, #b>
    } {tt.scheduled_max_stage = 1 : i32}
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %pp, %mask, %zero : tensor<128x!tt.ptr<f32>, #b>
      tt.store %pp, %x, %mask : tensor<128x!tt.ptr<f32>, #b>
    }
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func public @three_stages
// CHECK: %[[RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x128xf32
// CHECK: %[[FIRST:.*]] = ttg.memdesc_index %[[RING]][%c0_i32]
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %[[FIRST]]
// CHECK: %[[T0:.*]] = ttg.async_commit_group
// CHECK: %[[SECOND:.*]] = ttg.memdesc_index %[[RING]][%c1_i32]
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %[[SECOND]]
// CHECK: %[[T1:.*]] = ttg.async_commit_group
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %c1_i32, %{{.*}} = %c-1_i32, %{{.*}} = %c2_i32, %[[OLDEST:.*]] = %[[T0]], %[[NB:.*]] = %c2_i32, %[[NEXT:.*]] = %[[T1]])
// CHECK: arith.subi %arg2, %c2_i32
// CHECK: ttg.async_wait %[[OLDEST]] {num = 1 : i32}
// CHECK: ttg.local_load
// CHECK: tt.store
// CHECK: %[[COPY:.*]] = ttg.async_copy_global_to_local
// CHECK: %[[NEW:.*]] = ttg.async_commit_group tokens %[[COPY]]
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[NB]], %[[NEXT]], %c2_i32, %[[NEW]]
// CHECK: ttg.async_wait {num = 0 : i32}
// CHECK: ttg.local_dealloc %[[RING]]
  tt.func public @three_stages(%pp: tensor<128x!tt.ptr<f32>, #b>, %mask: tensor<128xi1, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %pp, %mask {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<128x!tt.ptr<f32>, #b>
      tt.store %pp, %x, %mask {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x!tt.ptr<f32>, #b>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @middle_stage(%pp: tensor<128x!tt.ptr<f32>, #b>, %mask: tensor<128xi1, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %pp, %mask {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<128x!tt.ptr<f32>, #b>
      // expected-error @+1 {{tritongpu-pipeline: pipelining a loop with ops in stage 1 of 0 to 2 is not supported yet}}
      %y = arith.addf %x, %x {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<128xf32, #b>
      tt.store %pp, %y, %mask {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x!tt.ptr<f32>, #b>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @carried(%pp: tensor<128x!tt.ptr<f32>, #b>, %mask: tensor<128xi1, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-error @+1 {{tritongpu-pipeline: pipelining a loop with iter_args is not supported yet}}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (i32) : i32 {
      %x = tt.load %pp, %mask {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<128x!tt.ptr<f32>, #b>
      tt.store %pp, %x, %mask {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<128x!tt.ptr<f32>, #b>
      %b = arith.addi %a, %c1 {loop.cluster = 0 : i32, loop.stage = 1 : i32} : i32
      scf.yield %b : i32
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}
