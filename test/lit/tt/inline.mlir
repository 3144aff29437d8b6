// inline (with Triton's nested canonicalize): nested calls, calls inside
// loops and multi-block callees are inlined, noinline callees stay called,
// (recursion is tested in inline-invalid.mlir).
// RUN: tt-opt %s --split-input-file --inline --symbol-dce | FileCheck %s

// Nested calls: @outer calls @middle calls @leaf; all vanish.
// CHECK-LABEL: tt.func public @nested
// CHECK-NOT: tt.call
// CHECK: %[[M:.*]] = arith.muli %arg0, %arg0 : i32
// CHECK: %[[A:.*]] = arith.addi %[[M]], %c1_i32 : i32
// CHECK: tt.return %[[A]] : i32
// CHECK-NOT: tt.func private
module {
  tt.func private @leaf(%x: i32) -> i32 {
    %y = arith.muli %x, %x : i32
    tt.return %y : i32
  }
  tt.func private @middle(%x: i32) -> i32 {
    %y = tt.call @leaf(%x) : (i32) -> i32
    %c1 = arith.constant 1 : i32
    %z = arith.addi %y, %c1 : i32
    tt.return %z : i32
  }
  tt.func public @nested(%x: i32) -> i32 {
    %y = tt.call @middle(%x) : (i32) -> i32
    tt.return %y : i32
  }
}

// -----

// A call inside an scf.for body is inlined into the body; a noinline callee
// is still called from the loop and survives symbol-dce.
// CHECK-LABEL: tt.func private @kept
// CHECK-LABEL: tt.func public @loop
// CHECK: scf.for
// CHECK-NEXT: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: tt.call @kept(%{{.*}}) : (i32) -> i32
// CHECK-NEXT: scf.yield
module {
  tt.func private @step(%acc: i32, %i: i32) -> i32 {
    %s = arith.addi %acc, %i : i32
    tt.return %s : i32
  }
  tt.func private @kept(%x: i32) -> i32 attributes {noinline = true} {
    tt.return %x : i32
  }
  tt.func public @loop(%n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %s = tt.call @step(%acc, %i) : (i32, i32) -> i32
      %k = tt.call @kept(%s) : (i32) -> i32
      scf.yield %k : i32
    }
    tt.return %r : i32
  }
}

// -----

// A multi-block callee is inlined into a function body (its returns branch
// to the continuation block); into an scf.for body, which holds one block,
// MLIR's inliner (as Triton's) leaves the call.
// CHECK-LABEL: tt.func public @multi_block
// CHECK-NOT: tt.call
// CHECK: cf.cond_br
// CHECK: ^bb{{[0-9]+}}(%[[R:.*]]: i32):
// CHECK-NEXT: %[[L:.*]] = scf.for
// CHECK-NEXT: tt.call @abs
// CHECK: tt.return %[[R]], %[[L]] : i32, i32
module {
  tt.func private @abs(%x: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %neg = arith.cmpi slt, %x, %c0 : i32
    cf.cond_br %neg, ^flip, ^keep
  ^flip:
    %y = arith.subi %c0, %x : i32
    tt.return %y : i32
  ^keep:
    tt.return %x : i32
  }
  tt.func public @multi_block(%x: i32, %n: i32) -> (i32, i32) {
    %a = tt.call @abs(%x) : (i32) -> i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %b = tt.call @abs(%i) : (i32) -> i32
      %s = arith.addi %acc, %b : i32
      scf.yield %s : i32
    }
    tt.return %a, %r : i32, i32
  }
}

// -----

// Nothing to inline (the only call is to a noinline function): each
// function is canonicalized, as MLIR's inliner does with its default
// pipeline, and the call stays.
// CHECK-LABEL: tt.func private @opaque
// CHECK-NEXT: tt.return %arg0 : i32
// CHECK-LABEL: tt.func public @no_inlining
// CHECK-NEXT: %[[C:.*]] = arith.constant 5 : i32
// CHECK-NEXT: %[[R:.*]] = tt.call @opaque(%[[C]]) : (i32) -> i32
// CHECK-NEXT: tt.return %[[R]] : i32
module {
  tt.func private @opaque(%x: i32) -> i32 attributes {noinline = true} {
    %c0 = arith.constant 0 : i32
    %y = arith.addi %x, %c0 : i32
    tt.return %y : i32
  }
  tt.func public @no_inlining() -> i32 {
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %s = arith.addi %c2, %c3 : i32
    %r = tt.call @opaque(%s) : (i32) -> i32
    tt.return %r : i32
  }
}
