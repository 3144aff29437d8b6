// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -triton-test-loop-peeling | FileCheck %s

// The last iteration of a marked loop moves into an scf.if after it: the
// loop stops a step earlier, the copy runs at lb + (ub - lb - 1) / step *
// step on the loop's results when the loop runs at all, and later uses
// read the scf.if's results. Unmarked loops stay.
// CHECK-LABEL: tt.func @two_iter_args
// CHECK-SAME: (%[[LB:.*]]: i32, %[[UB:.*]]: i32, %[[STEP:.*]]: i32)
// CHECK: %[[NUB:.*]] = arith.subi %[[UB]], %[[STEP]] : i32
// CHECK: %[[FOR:.*]]:2 = scf.for %[[IV:.*]] = %[[LB]] to %[[NUB]] step %[[STEP]]
// CHECK: } {__test_peel_epilogue}
// CHECK-NEXT: %[[RANGE:.*]] = arith.subi %[[UB]], %[[LB]] : i32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[RANGE_M1:.*]] = arith.subi %[[RANGE]], %[[ONE]] : i32
// CHECK-NEXT: %[[ITERS:.*]] = arith.divsi %[[RANGE_M1]], %[[STEP]] : i32
// CHECK-NEXT: %[[DELTA:.*]] = arith.muli %[[ITERS]], %[[STEP]] : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[DELTA]], %[[LB]] : i32
// CHECK-NEXT: %[[COND:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK-NEXT: %[[IF:.*]]:2 = scf.if %[[COND]] -> (f32, i32) {
// CHECK-NEXT:   %[[D:.*]] = "def"(%[[LAST]], %[[FOR]]#1) : (i32, i32) -> f32
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[FOR]]#0, %[[D]] : f32
// CHECK-NEXT:   scf.yield %[[S]], %[[LAST]] : f32, i32
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %[[FOR]]#0, %[[FOR]]#1 : f32, i32
// CHECK-NEXT: }
// CHECK-NEXT: "use"(%[[IF]]#0, %[[IF]]#1)
// CHECK: scf.for
// CHECK-NOT: scf.if
// CHECK: tt.return
tt.func @two_iter_args(%lb : i32, %ub : i32, %step : i32) {
  %init = arith.constant 0.00e+00 : f32
  %loop:2 = scf.for %iv = %lb to %ub step %step iter_args(%acc = %init, %prev = %lb) -> (f32, i32) : i32 {
    %a = "def"(%iv, %prev) : (i32, i32) -> f32
    %res = arith.addf %acc, %a : f32
    scf.yield %res, %iv : f32, i32
  } {__test_peel_epilogue}
  "use"(%loop#0, %loop#1) : (f32, i32) -> ()
  %other = scf.for %iv = %lb to %ub step %step iter_args(%acc = %init) -> (f32) : i32 {
    scf.yield %acc : f32
  }
  tt.return
}
