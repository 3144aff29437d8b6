// tritongpu-fuse-nested-loops: every case here gives Triton 3.6's output
// (`scripts/compare-triton-lit.py --file test/lit/ttg/tritongpu-fuse-nested-loops.mlir
// --passes "tritongpu-fuse-nested-loops canonicalize cse"`; Triton's own
// `fuse-nested-loops.mlir` passes too). A `tt.flatten` nest of one loop
// in another becomes one loop over `len_i * max(1, len_j)` steps; a
// counter T walks one outer iteration: the prologue runs (in an `scf.if`)
// at T == 0, advancing i, the body at every step when the inner loop is
// known to run (its bounds invariant, the nest split on `len_j == 0`, or
// an `llvm.intr.assume` of `ub > lb`), the epilogue at the last step.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-fuse-nested-loops -canonicalize -cse | FileCheck %s

// Invariant inner bounds: the nest is split on whether the inner loop
// runs; the fused loop needs no guard around the body.
// CHECK-LABEL: tt.func @flatten
// CHECK-SAME: (%[[UB:.*]]: i32, %[[P:.*]]: !tt.ptr<i32>)
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[UB]], %c0_i32
// CHECK: scf.if %[[EMPTY]] {
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[LEN:.*]] = arith.maxsi %[[UB]], %c1_i32
// CHECK-NEXT: %[[TOTAL:.*]] = arith.muli %[[UB]], %[[LEN]]
// CHECK-NEXT: scf.for %{{.*}} = %c0_i32 to %[[TOTAL]] step %c1_i32 iter_args(%[[T:.*]] = %c0_i32, %[[I:.*]] = %c-1_i32, %[[K:.*]] = %c1_i32,
// CHECK-NEXT: %[[START:.*]] = arith.cmpi eq, %[[T]], %c0_i32
// CHECK-NEXT: %[[J:.*]] = arith.select %[[START]], %c0_i32,
// CHECK-NEXT: %[[K2:.*]] = arith.select %[[START]], %[[K]],
// CHECK-NEXT: %[[PRO:.*]]:2 = scf.if %[[START]] -> (i32, i32) {
// CHECK-NEXT: %[[NEXT_I:.*]] = arith.addi %[[I]], %c1_i32
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[NEXT_I]], %c32_i32
// CHECK-NEXT: scf.yield %[[ROW]], %[[NEXT_I]]
// CHECK: %[[OFF:.*]] = arith.addi %[[PRO]]#0, %[[J]]
// CHECK-NEXT: %[[PTR:.*]] = tt.addptr %[[P]], %[[OFF]]
// CHECK-NEXT: tt.store %[[PTR]], %[[K2]]
// CHECK: %[[LAST:.*]] = arith.subi %[[LEN]], %c1_i32
// CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi eq, %[[T]], %[[LAST]]
// CHECK-NEXT: arith.select %[[WRAP]], %c0_i32
// CHECK-NOT: scf.for
// CHECK: tt.return
module {
  tt.func @flatten(%ub: i32, %p: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %r = scf.for %i = %c0 to %ub step %c1 iter_args(%k = %c1) -> i32 : i32 {
      %a = arith.muli %i, %c32 : i32
      %r2 = scf.for %j = %c0 to %ub step %c1 iter_args(%k2 = %k) -> i32 : i32 {
        %b = arith.addi %a, %j : i32
        %ptr = tt.addptr %p, %b : !tt.ptr<i32>, i32
        tt.store %ptr, %k2 : !tt.ptr<i32>
        %k3 = arith.addi %k2, %c1 : i32
        scf.yield %k3 : i32
      }
      scf.yield %r2 : i32
    } {tt.flatten}
    tt.return
  }
}

// -----

// Inner bounds computed from i, known non-empty by an assumption: the
// fused loop's length is summed over the outer iterations, each inner
// length is recomputed in the prologue, and the body is not guarded.
// CHECK-LABEL: tt.func @assumed
// CHECK-SAME: (%[[LB:.*]]: i32, %[[UB:.*]]: i32, %[[P:.*]]: !tt.ptr<i32>)
// CHECK: %[[TOTAL:.*]] = scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %c1_i32 iter_args(%[[SUM:.*]] = %c0_i32)
// CHECK-NEXT: %[[LBJ:.*]] = arith.addi %[[LB]], %[[I]]
// CHECK-NEXT: %[[UBJ:.*]] = arith.addi %[[UB]], %[[I]]
// CHECK-NEXT: %[[LEN:.*]] = arith.subi %[[UBJ]], %[[LBJ]]
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.maxsi %[[LEN]], %c1_i32
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[SUM]], %[[CLAMPED]]
// CHECK-NEXT: scf.yield %[[NEXT]]
// CHECK: scf.for %{{.*}} = %c0_i32 to %[[TOTAL]] step %c1_i32
// CHECK: scf.if
// CHECK: llvm.intr.assume
// CHECK-NOT: scf.if
// CHECK: tt.store
// CHECK-NOT: scf.for
// CHECK: tt.return
module {
  tt.func @assumed(%lbi: i32, %ubi: i32, %p: !tt.ptr<i32>) {
    %c1 = arith.constant 1 : i32
    scf.for %i = %lbi to %ubi step %c1 : i32 {
      %lbj = arith.addi %lbi, %i : i32
      %ubj = arith.addi %ubi, %i : i32
      %cond = arith.cmpi sgt, %ubj, %lbj : i32
      llvm.intr.assume %cond : i1
      scf.for %j = %lbj to %ubj step %c1 : i32 {
        tt.store %p, %j : !tt.ptr<i32>
      }
    } {tt.flatten}
    tt.return
  }
}

// -----

// Inner bounds that vary with i and nothing says the inner loop runs: the
// nest stays as it is.
// CHECK-LABEL: tt.func @unknown_length
// CHECK: scf.for
// CHECK: scf.for
// CHECK: } {tt.flatten}
module {
  tt.func @unknown_length(%lbi: i32, %ubi: i32, %p: !tt.ptr<i32>) {
    %c1 = arith.constant 1 : i32
    scf.for %i = %lbi to %ubi step %c1 : i32 {
      %ubj = arith.addi %ubi, %i : i32
      scf.for %j = %lbi to %ubj step %c1 : i32 {
        tt.store %p, %j : !tt.ptr<i32>
      }
    } {tt.flatten}
    tt.return
  }
}

// -----

// Two inner loops (the first with i32 bounds, its length widened to i64),
// a value carried across, an inner init from outside the nest (set once
// and reset by the epilogue), and the loops' stage counts (the largest
// stays) and `tt.disallow_acc_multi_buffer`.
// CHECK-LABEL: tt.func @two_inner_loops
// CHECK: %[[LEN0:.*]] = arith.ceildivsi %{{.*}} : i32
// CHECK-NEXT: %[[WIDE:.*]] = arith.extsi %[[LEN0]] : i32 to i64
// CHECK: %[[FUSED:.*]]:9 = scf.for
// CHECK: scf.if {{.*}} -> (i64, i64)
// CHECK: arith.extsi
// CHECK: scf.if
// CHECK: scf.if
// CHECK: scf.if
// CHECK: } {tt.disallow_acc_multi_buffer, tt.num_stages = 4 : i32}
// CHECK: tt.return %[[FUSED]]#2
module {
  tt.func @two_inner_loops(%lbi: i64, %ubi: i64, %stepi: i64, %lbj: i32, %ubj: i32, %stepj: i32, %p: !tt.ptr<i64>, %init: i64) -> i64 {
    %c0 = arith.constant 0 : i64
    %r = scf.for %i = %lbi to %ubi step %stepi iter_args(%m = %init) -> i64 : i64 {
      %x = arith.addi %i, %m : i64
      tt.store %p, %x : !tt.ptr<i64>
      %in = scf.for %j = %lbj to %ubj step %stepj iter_args(%k = %m) -> i64 : i32 {
        %j64 = arith.extsi %j : i32 to i64
        %s = arith.addi %x, %j64 : i64
        tt.store %p, %s : !tt.ptr<i64>
        %k2 = arith.addi %k, %s : i64
        scf.yield %k2 : i64
      } {tt.num_stages = 4 : i32}
      %y = arith.addi %in, %x : i64
      tt.store %p, %y : !tt.ptr<i64>
      %in2 = scf.for %j = %lbi to %ubi step %stepi iter_args(%k = %c0) -> i64 : i64 {
        %s = arith.addi %y, %j : i64
        tt.store %p, %s : !tt.ptr<i64>
        scf.yield %s : i64
      } {tt.disallow_acc_multi_buffer}
      tt.store %p, %in2 : !tt.ptr<i64>
      %m2 = arith.addi %in2, %x : i64
      scf.yield %m2 : i64
    } {"ttg.always-fuse", tt.num_stages = 2 : i32}
    tt.return %r : i64
  }
}

// -----

// Bounds that depend on a loop-carried value cannot be recomputed ahead
// of the loop: that inner loop is not fused (here, nothing is).
// CHECK-LABEL: tt.func @carried_bound
// CHECK: scf.for
// CHECK: scf.for
// CHECK: } {"ttg.always-fuse"}
module {
  tt.func @carried_bound(%lbi: i64, %ubi: i64, %p: !tt.ptr<i64>) {
    %c1 = arith.constant 1 : i64
    %r = scf.for %i = %lbi to %ubi step %c1 iter_args(%m = %ubi) -> i64 : i64 {
      scf.for %j = %lbi to %m step %c1 : i64 {
        tt.store %p, %j : !tt.ptr<i64>
      }
      %m2 = arith.addi %m, %c1 : i64
      scf.yield %m2 : i64
    } {"ttg.always-fuse"}
    tt.return
  }
}
