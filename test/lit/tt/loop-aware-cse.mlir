// triton-loop-aware-cse: CSE (as MLIR's cse) plus the merging of scf.for
// iter args that always hold the same value: same initial value and equal
// yielded values, equality following pure ops and other iter args, a
// loop-carried cycle assumed equal while it is examined. Merged iter args
// are then dropped by the scf.for canonicalizations.
// RUN: tt-opt %s --split-input-file --allow-unregistered-dialect --triton-loop-aware-cse | FileCheck %s
// RUN: tt-opt %s --split-input-file --allow-unregistered-dialect --triton-loop-aware-cse \
// RUN:   | tt-opt --split-input-file --allow-unregistered-dialect > /dev/null

// Buffer index and phase counters of a pipelined loop, several of them
// duplicated: three distinct iter args remain.
// CHECK-LABEL: tt.func @loop_buffer_phase_args
// CHECK: %[[R:.*]]:3 = scf.for {{.*}} iter_args
// CHECK-SAME: %[[INDEX:arg[0-9]+]] = %c0_i32
// CHECK-SAME: %[[PHASE:arg[0-9]+]] = %c0_i32
// CHECK-SAME: %[[FLIP:arg[0-9]+]] = %c0_i32
// CHECK: %[[FLIP1:.*]] = arith.xori %[[FLIP]], %c1_i32
// CHECK: "index_phase_use"(%[[INDEX]], %[[PHASE]], %[[FLIP1]], %[[FLIP]])
// CHECK: %[[INDEX1:.*]] = arith.select %{{.*}}, %c0_i32
// CHECK-NEXT: %[[PHASE1:.*]] = arith.select %{{.*}}, %{{.*}}, %[[PHASE]]
// CHECK-NOT: arith.select
// CHECK: "index_phase_use"(%[[INDEX1]], %[[PHASE1]], %[[FLIP1]],
// CHECK: "index_phase_use"(%[[FLIP1]], %[[FLIP]])
// CHECK: "index_phase_use"(%[[FLIP1]], %[[FLIP]])
// CHECK: scf.yield %[[INDEX1]], %[[PHASE1]], %[[FLIP1]] : i32, i32, i32
tt.func @loop_buffer_phase_args(%arg0: i32) {
  %c2_i32 = arith.constant 2 : i32
  %c128_i32 = arith.constant 128 : i32
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %0:10 = scf.for %arg1 = %c0_i32 to %arg0 step %c128_i32 iter_args(%arg2 = %c0_i32, %arg3 = %c0_i32, %arg4 = %c0_i32, %arg5 = %c0_i32, %arg6 = %c0_i32, %arg7 = %c0_i32, %arg8 = %c0_i32, %arg9 = %c0_i32, %arg10 = %c0_i32, %arg11 = %c0_i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) : i32 {
    %1 = arith.subi %arg0, %c128_i32 : i32
    %2 = arith.cmpi slt, %arg1, %1 : i32
    %3 = arith.xori %arg7, %c1_i32 : i32
    "index_phase_use"(%arg4, %arg5, %3, %arg8) : (i32, i32, i32, i32) -> ()
    %4 = arith.addi %arg4, %c1_i32 : i32
    %5 = arith.xori %arg5, %c1_i32 : i32
    %6 = arith.cmpi eq, %4, %c2_i32 : i32
    %7 = arith.select %6, %c0_i32, %4 : i32
    %8 = arith.select %6, %5, %arg5 : i32
    %9 = arith.xori %arg8, %c1_i32 : i32
    %10 = arith.xori %arg11, %c1_i32 : i32
    %11 = arith.xori %arg6, %c1_i32 : i32
    %12 = arith.addi %arg2, %c1_i32 : i32
    %13 = arith.xori %arg3, %c1_i32 : i32
    %14 = arith.cmpi eq, %12, %c2_i32 : i32
    %15 = arith.select %14, %c0_i32, %12 : i32
    %16 = arith.select %14, %13, %arg3 : i32
    "index_phase_use"(%15, %16, %11, %2) : (i32, i32, i32, i1) -> ()
    %17 = arith.xori %arg10, %c1_i32 : i32
    "index_phase_use"(%17, %arg11) : (i32, i32) -> ()
    %18 = arith.xori %arg9, %c1_i32 : i32
    "index_phase_use"(%17, %arg11) : (i32, i32) -> ()
    scf.yield %15, %16, %7, %8, %11, %3, %9, %18, %17, %10 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
  }
  tt.return
}

// -----

// Iter args with different initial values, or whose yields come from ops
// with memory effects, stay apart; the two equal counters merge, and the
// loop's results follow.
// CHECK-LABEL: tt.func @not_merged
// CHECK-SAME: (%[[PTR:[^:]*]]: !tt.ptr<i32>, %[[N:[^:]*]]: i32)
// CHECK: %[[R:.*]]:4 = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[A:[^ ]*]] = %[[C0:[^,]*]], %[[B:[^ ]*]] = %[[C1:[^,]*]], %[[L1:[^ ]*]] = %[[C0]], %[[L2:[^ ]*]] = %[[C0]])
// CHECK-NEXT: %[[A1:.*]] = arith.addi %[[A]], %[[C1]]
// CHECK-NEXT: %[[B1:.*]] = arith.addi %[[B]], %[[C1]]
// CHECK-NEXT: %[[X:.*]] = tt.load %[[PTR]]
// CHECK-NEXT: %[[Y:.*]] = tt.load %[[PTR]] {isVolatile = true}
// CHECK-NEXT: scf.yield %[[A1]], %[[B1]], %[[X]], %[[Y]]
// CHECK: tt.return %[[R]]#0, %[[R]]#1, %[[R]]#0, %[[R]]#2, %[[R]]#3
tt.func @not_merged(%ptr: !tt.ptr<i32>, %n: i32) -> (i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:5 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c1, %c = %c0, %l1 = %c0, %l2 = %c0) -> (i32, i32, i32, i32, i32) : i32 {
    %a1 = arith.addi %a, %c1 : i32
    %b1 = arith.addi %b, %c1 : i32
    %c2 = arith.addi %c, %c1 : i32
    %x = tt.load %ptr : !tt.ptr<i32>
    %y = tt.load %ptr {isVolatile = true} : !tt.ptr<i32>
    scf.yield %a1, %b1, %c2, %x, %y : i32, i32, i32, i32, i32
  }
  tt.return %r#0, %r#1, %r#2, %r#3, %r#4 : i32, i32, i32, i32, i32
}

// -----

// Two accumulators that swap roles every iteration are not the same value
// once the induction variable is involved; two that both follow it are.
// CHECK-LABEL: tt.func @induction_variable
// CHECK: %[[R:.*]]:3 = scf.for %[[IV:[^ ]*]] = {{.*}} iter_args(%[[P:[^ ]*]] = %{{[^,]*}}, %[[Q:[^ ]*]] = %{{[^,]*}}, %[[S:[^ ]*]] = %{{[^)]*}})
// CHECK-NEXT: %[[S1:.*]] = arith.addi %[[S]], %[[IV]]
// CHECK-NEXT: scf.yield %[[Q]], %[[IV]], %[[S1]]
// CHECK: tt.return %[[R]]#0, %[[R]]#1, %[[R]]#2, %[[R]]#2
tt.func @induction_variable(%n: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %c0, %q = %c0, %s = %c0, %t = %c0) -> (i32, i32, i32, i32) : i32 {
    %s1 = arith.addi %s, %i : i32
    %t1 = arith.addi %t, %i : i32
    scf.yield %q, %i, %s1, %t1 : i32, i32, i32, i32
  }
  tt.return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
}

// -----

// Ordinary CSE: pure ops merge inside and outside loops, equal loads with
// nothing written in between merge, dead pure ops go.
// CHECK-LABEL: tt.func @plain_cse
// CHECK-SAME: (%[[PTR:[^:]*]]: !tt.ptr<i32>, %[[N:[^:]*]]: i32)
// CHECK: %[[M:.*]] = arith.muli %[[N]], %[[N]] : i32
// CHECK-NEXT: %[[R:.*]] = scf.for
// CHECK-NEXT: %[[V:.*]] = tt.load %[[PTR]] : !tt.ptr<i32>
// CHECK-NEXT: %[[W:.*]] = arith.addi %[[V]], %[[V]] : i32
// CHECK-NEXT: tt.store %[[PTR]], %[[W]]
// CHECK-NEXT: %[[V2:.*]] = tt.load %[[PTR]] : !tt.ptr<i32>
// CHECK-NEXT: %[[X:.*]] = arith.addi %{{.*}}, %[[M]] : i32
// CHECK-NEXT: %[[Y:.*]] = arith.addi %[[X]], %[[V2]] : i32
// CHECK-NEXT: scf.yield %[[Y]]
// CHECK-NOT: arith.muli
// CHECK: tt.return %[[R]], %[[M]]
tt.func @plain_cse(%ptr: !tt.ptr<i32>, %n: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %m = arith.muli %n, %n : i32
  %dead = arith.subi %n, %m : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %v = tt.load %ptr : !tt.ptr<i32>
    %v_again = tt.load %ptr : !tt.ptr<i32>
    %w = arith.addi %v, %v_again : i32
    tt.store %ptr, %w : !tt.ptr<i32>
    %v_after = tt.load %ptr : !tt.ptr<i32>
    %m2 = arith.muli %n, %n : i32
    %x = arith.addi %acc, %m2 : i32
    %y = arith.addi %x, %v_after : i32
    scf.yield %y : i32
  }
  %m3 = arith.muli %n, %n : i32
  tt.return %r, %m3 : i32, i32
}

// -----

// Nested loops: the inner loop's duplicated iter arg merges, then the
// outer loop's two results, now equal, merge too.
// CHECK-LABEL: tt.func @nested
// CHECK: %[[OUT:.*]] = scf.for %{{.*}} iter_args(%[[O:[^ ]*]] = %{{[^)]*}}) -> (i32)
// CHECK-NEXT: %[[IN:.*]] = scf.for %{{.*}} iter_args(%[[I:[^ ]*]] = %[[O]]) -> (i32)
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[I]], %{{.*}}
// CHECK-NEXT: scf.yield %[[NEXT]]
// CHECK: scf.yield %[[IN]]
// CHECK: tt.return %[[OUT]], %[[OUT]]
tt.func @nested(%n: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c0) -> (i32, i32) : i32 {
    %in:2 = scf.for %j = %c0 to %n step %c1 iter_args(%x = %a, %y = %a) -> (i32, i32) : i32 {
      %x1 = arith.addi %x, %c1 : i32
      %y1 = arith.addi %y, %c1 : i32
      scf.yield %x1, %y1 : i32, i32
    }
    scf.yield %in#0, %in#1 : i32, i32
  }
  tt.return %r#0, %r#1 : i32, i32
}

// -----

// The closing scf.for canonicalization also erases loops that do not run
// and inlines loops that run once.
// CHECK-LABEL: tt.func @trivial_loops
// CHECK-SAME: (%[[X:[^:]*]]: i32)
// CHECK-NOT: scf.for
// CHECK: %[[ONCE:.*]] = arith.muli %[[X]], %[[X]] : i32
// CHECK-NEXT: tt.return %[[X]], %[[ONCE]] : i32, i32
tt.func @trivial_loops(%x: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %never = scf.for %i = %c4 to %c0 step %c1 iter_args(%acc = %x) -> (i32) : i32 {
    %m = arith.muli %acc, %x : i32
    scf.yield %m : i32
  }
  %once = scf.for %i = %c0 to %c1 step %c4 iter_args(%acc = %x) -> (i32) : i32 {
    %m = arith.muli %acc, %x : i32
    scf.yield %m : i32
  }
  tt.return %never, %once : i32, i32
}

// -----

// A loop whose only iter arg always holds its initial value folds to a
// loop without iter args (its old body moved over), which then goes as
// an empty loop yielding nothing.
// CHECK-LABEL: tt.func @forwarded_only_arg
// CHECK-NOT: scf.for
// CHECK: tt.return %arg0
tt.func @forwarded_only_arg(%x: tensor<4xi32>) -> tensor<4xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x) -> (tensor<4xi32>) : i32 {
    scf.yield %x : tensor<4xi32>
  }
  tt.return %r : tensor<4xi32>
}
