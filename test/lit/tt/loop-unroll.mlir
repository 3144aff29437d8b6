// triton-loop-unroll: scf.for loops with tt.loop_unroll_factor > 1 are
// unrolled as MLIR's loopUnrollByFactor does (bounds computed before the
// loop, copies chained through the iter args, an epilogue loop marked
// tt.num_stages = 1 for the leftover iterations); loops without the
// attribute, or with factor 1, are left alone.
// RUN: tt-opt %s --split-input-file --triton-loop-unroll | FileCheck %s
// RUN: tt-opt %s --split-input-file --triton-loop-unroll | tt-opt --split-input-file > /dev/null
// RUN: sed 's/tt.loop_unroll_factor = 2 : i32} \/\/ HUGE/tt.loop_unroll_factor = 1000000000 : i32}/' %s \
// RUN:   | not tt-opt --split-input-file --triton-loop-unroll 2>&1 | FileCheck %s --check-prefix=HUGE

// Dynamic bounds: the trip count, the unrolled upper bound and step are
// computed before the loop; the epilogue always exists.
// CHECK-LABEL: tt.func @dynamic_bounds
// CHECK-SAME: (%[[PTR:[^:]*]]: tensor<256x!tt.ptr<f32>>, %[[UB:[^:]*]]: i32)
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[DIFF:.*]] = arith.subi %[[UB]], %[[C1]] : i32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[STEPM1:.*]] = arith.subi %[[C1]], %[[ONE]] : i32
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[DIFF]], %[[STEPM1]] : i32
// CHECK-NEXT: %[[TRIPS:.*]] = arith.divui %[[SUM]], %[[C1]] : i32
// CHECK-NEXT: %[[FACTOR:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[REM:.*]] = arith.remsi %[[TRIPS]], %[[FACTOR]] : i32
// CHECK-NEXT: %[[EVEN:.*]] = arith.subi %[[TRIPS]], %[[REM]] : i32
// CHECK-NEXT: %[[SPAN:.*]] = arith.muli %[[EVEN]], %[[C1]] : i32
// CHECK-NEXT: %[[NEWUB:.*]] = arith.addi %[[C1]], %[[SPAN]] : i32
// CHECK-NEXT: %[[NEWSTEP:.*]] = arith.muli %[[C1]], %[[FACTOR]] : i32
// CHECK-NEXT: %[[MAIN:.*]]:2 = scf.for %{{.*}} = %[[C1]] to %[[NEWUB]] step %[[NEWSTEP]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[P:.*]] = %[[PTR]])
// CHECK-NEXT: %[[L0:.*]] = tt.load %[[P]]
// CHECK-NEXT: %[[A0:.*]] = arith.addf %[[ACC]], %[[L0]]
// CHECK-NEXT: %[[P0:.*]] = tt.addptr %[[P]]
// CHECK-NEXT: %[[L1:.*]] = tt.load %[[P0]]
// CHECK-NEXT: %[[A1:.*]] = arith.addf %[[A0]], %[[L1]]
// CHECK-NEXT: %[[P1:.*]] = tt.addptr %[[P0]]
// CHECK-NEXT: scf.yield %[[A1]], %[[P1]]
// CHECK-NEXT: }
// CHECK-NOT: tt.loop_unroll_factor
// CHECK-NEXT: %[[EPI:.*]]:2 = scf.for %{{.*}} = %[[NEWUB]] to %[[UB]] step %[[C1]] iter_args(%{{.*}} = %[[MAIN]]#0, %{{.*}} = %[[MAIN]]#1)
// CHECK-COUNT-1: tt.load
// CHECK: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: tt.return %[[EPI]]#0
tt.func @dynamic_bounds(%arg0: tensor<256x!tt.ptr<f32>>, %arg1: i32) -> tensor<256xf32> {
  %c1_i32 = arith.constant 1 : i32
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tt.splat %c1_i32 : i32 -> tensor<256xi32>
  %1 = tt.splat %cst : f32 -> tensor<256xf32>
  %2:2 = scf.for %arg3 = %c1_i32 to %arg1 step %c1_i32 iter_args(%arg4 = %1, %arg5 = %arg0) -> (tensor<256xf32>, tensor<256x!tt.ptr<f32>>) : i32 {
    %3 = tt.load %arg5 : tensor<256x!tt.ptr<f32>>
    %4 = arith.addf %arg4, %3 : tensor<256xf32>
    %5 = tt.addptr %arg5, %0 : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    scf.yield %4, %5 : tensor<256xf32>, tensor<256x!tt.ptr<f32>>
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return %2#0 : tensor<256xf32>
}

// -----

// Constant bounds, 10 iterations by 4: a main loop of 8 iterations with
// step 4 and an epilogue of 2; copies see the induction variable advanced
// by step * k.
// CHECK-LABEL: tt.func @with_remainder
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C10:.*]] = arith.constant 10 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK: %[[MAIN:.*]] = scf.for %[[IV:.*]] = %[[C0]] to %[[C8]] step %[[C4]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32)
// CHECK-NEXT: %[[S0:.*]] = arith.addi %[[ACC]], %[[IV]]
// CHECK-NEXT: %[[K1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[M1:.*]] = arith.muli %[[C1]], %[[K1]]
// CHECK-NEXT: %[[IV1:.*]] = arith.addi %[[IV]], %[[M1]]
// CHECK-NEXT: %[[S1:.*]] = arith.addi %[[S0]], %[[IV1]]
// CHECK-NEXT: %[[K2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[M2:.*]] = arith.muli %[[C1]], %[[K2]]
// CHECK-NEXT: %[[IV2:.*]] = arith.addi %[[IV]], %[[M2]]
// CHECK-NEXT: %[[S2:.*]] = arith.addi %[[S1]], %[[IV2]]
// CHECK-NEXT: %[[K3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[M3:.*]] = arith.muli %[[C1]], %[[K3]]
// CHECK-NEXT: %[[IV3:.*]] = arith.addi %[[IV]], %[[M3]]
// CHECK-NEXT: %[[S3:.*]] = arith.addi %[[S2]], %[[IV3]]
// CHECK-NEXT: scf.yield %[[S3]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[EPI:.*]] = scf.for %{{.*}} = %[[C8]] to %[[C10]] step %[[C1]] iter_args(%{{.*}} = %[[MAIN]]) -> (i32)
// CHECK: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: tt.return %[[EPI]]
tt.func @with_remainder(%init: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c10 = arith.constant 10 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %init) -> (i32) : i32 {
    %s = arith.addi %acc, %i : i32
    scf.yield %s : i32
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return %r : i32
}

// -----

// 12 iterations by 4: no epilogue, the upper bound is kept.
// CHECK-LABEL: tt.func @without_remainder
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C12:.*]] = arith.constant 12 : i32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %[[C0]] to %[[C12]] step %[[C4]] iter_args(%[[X:.*]] = %{{.*}}) -> (f32)
// CHECK-NEXT: %[[X1:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK-NEXT: %[[X2:.*]] = arith.mulf %[[X1]], %[[X1]]
// CHECK-NEXT: %[[X3:.*]] = arith.mulf %[[X2]], %[[X2]]
// CHECK-NEXT: %[[X4:.*]] = arith.mulf %[[X3]], %[[X3]]
// CHECK-NEXT: scf.yield %[[X4]]
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[R]]
// CHECK-NOT: tt.num_stages
tt.func @without_remainder(%init: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c12 = arith.constant 12 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %c12 step %c1 iter_args(%x = %init) -> (f32) : i32 {
    %y = arith.mulf %x, %x : f32
    scf.yield %y : f32
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return %r : f32
}

// -----

// 9 iterations by 4: the one leftover iteration is inlined after the main
// loop instead of getting an epilogue loop.
// CHECK-LABEL: tt.func @single_leftover_iteration
// CHECK: %[[R:.*]] = scf.for
// CHECK-COUNT-4: arith.mulf
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[LAST:.*]] = arith.mulf %[[R]], %[[R]]
// CHECK-NEXT: tt.return %[[LAST]]
// CHECK-NOT: tt.num_stages
tt.func @single_leftover_iteration(%init: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c9 = arith.constant 9 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%x = %init) -> (f32) : i32 {
    %y = arith.mulf %x, %x : f32
    scf.yield %y : f32
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return %r : f32
}

// -----

// 4 iterations by 4: the unrolled loop runs once and is replaced by its
// body.
// CHECK-LABEL: tt.func @fully_unrolled
// CHECK-NOT: scf.for
// CHECK-COUNT-4: arith.mulf
// CHECK-NOT: scf.for
// CHECK: tt.return
tt.func @fully_unrolled(%init: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %init) -> (f32) : i32 {
    %y = arith.mulf %x, %x : f32
    scf.yield %y : f32
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return %r : f32
}

// -----

// Factor 1 and no factor: nothing changes, the attribute included.
// CHECK-LABEL: tt.func @not_unrolled
// CHECK: scf.for
// CHECK-NEXT: tt.store
// CHECK-NEXT: } {tt.loop_unroll_factor = 1 : i32}
// CHECK: scf.for
// CHECK-NEXT: tt.store
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func @not_unrolled(%p: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tt.store %p, %i : !tt.ptr<i32>
  } {tt.loop_unroll_factor = 1 : i32}
  scf.for %i = %c0 to %n step %c1 : i32 {
    tt.store %p, %i : !tt.ptr<i32>
  }
  tt.return
}

// -----

// Nested loops: the inner loop is unrolled first (main loop plus epilogue),
// then the outer loop copies both.
// CHECK-LABEL: tt.func @nested
// CHECK-SAME: (%[[P:[^:]*]]: !tt.ptr<i32>
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK: scf.for %[[J:[^ ]*]] =
// CHECK-NEXT: tt.store %[[P]], %[[J]]
// CHECK: tt.store %[[P]], %{{.*}}
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK-NEXT: tt.store
// CHECK-NEXT: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: tt.store %[[P]], %[[I]]
// CHECK: %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK: scf.for
// CHECK-COUNT-2: tt.store
// CHECK: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: tt.store %[[P]], %[[I1]]
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: tt.store %[[P]], %{{.*}}
// CHECK-NEXT: } {tt.num_stages = 1 : i32}
// CHECK-NEXT: tt.return
tt.func @nested(%p: !tt.ptr<i32>, %n: i32, %m: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    scf.for %j = %c0 to %m step %c1 : i32 {
      tt.store %p, %j : !tt.ptr<i32>
    } {tt.loop_unroll_factor = 2 : i32}
    tt.store %p, %i : !tt.ptr<i32>
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return
}

// -----

// An empty body has nothing to unroll; the attribute is still dropped.
// CHECK-LABEL: tt.func @empty_body
// CHECK: scf.for
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func @empty_body(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tt.loop_unroll_factor = 2 : i32} // HUGE
  tt.return
}

// -----

// HUGE: error: 'scf.for' op unroll factor 1000000000 would copy the loop body past 16777216 ops
// CHECK-LABEL: tt.func @big_factor
// CHECK-COUNT-2: tt.store
tt.func @big_factor(%p: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tt.store %p, %i : !tt.ptr<i32>
  } {tt.loop_unroll_factor = 2 : i32} // HUGE
  tt.return
}
