// tritongpu-combine-tensor-select-and-if: a tensor select merges into the
// first scf.if on its condition in its block that follows it and precedes
// all its users (an else block is created when missing, several selects
// append in order); uses of a select inside an if on the same condition
// read the true/false value directly (scalars too); scalar selects and
// selects used before the if stay.
// RUN: tt-opt %s --tritongpu-combine-tensor-select-and-if | FileCheck %s
// RUN: tt-opt %s --tritongpu-combine-tensor-select-and-if | tt-opt > /dev/null

// CHECK-LABEL: tt.func @no_else
// CHECK-NEXT: %[[R:.*]] = scf.if %arg0 -> (tensor<128xf32, #blocked>) {
// CHECK-NEXT: tt.store %arg3, %arg1
// CHECK-NEXT: scf.yield %arg1
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg2
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[R]]

// CHECK-LABEL: tt.func @with_results
// CHECK-NEXT: %[[R:.*]]:3 = scf.if %arg0 -> (tensor<128xf32, #blocked>, tensor<128xf32, #blocked>, tensor<128xf32, #blocked>) {
// CHECK-NEXT: %[[X:.*]] = arith.addf %arg1, %arg1
// CHECK-NEXT: scf.yield %[[X]], %arg1, %arg2
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %arg2, %arg2
// CHECK-NEXT: scf.yield %[[Y]], %arg2, %arg1
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[R]]#0, %[[R]]#1, %[[R]]#2

// CHECK-LABEL: tt.func @scalar_and_blocked
// CHECK-NEXT: %[[T:.*]] = arith.select %arg0, %arg3, %arg4 : i32
// CHECK-NEXT: %[[S:.*]] = arith.select %arg0, %arg1, %arg2 : tensor
// CHECK-NEXT: arith.addf %[[S]], %arg1
// CHECK-NEXT: scf.if %arg0 -> (i32) {
// CHECK-NEXT: arith.addi %arg3, %arg3
// CHECK: } else {
// CHECK-NEXT: scf.yield %arg4 : i32

// CHECK-LABEL: tt.func @select_after_if
// CHECK-NEXT: scf.if %arg0 {
// CHECK-NEXT: tt.store %arg3, %arg1
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = scf.if %arg0 -> (tensor<128xf32, #blocked>) {
// CHECK-NEXT: tt.store %arg3, %arg2
// CHECK-NEXT: scf.yield %arg1
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg2
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[R]]

// CHECK-LABEL: tt.func @in_loop
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %arg1)
// CHECK-NEXT: %[[R:.*]] = scf.if %arg0 -> (tensor<128xf32, #blocked>) {
// CHECK-NEXT: tt.store %arg3, %[[ACC]]
// CHECK-NEXT: scf.yield %[[ACC]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg2
// CHECK-NEXT: }
// CHECK-NEXT: arith.addf %[[R]], %[[ACC]]

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_else(%c: i1, %a: tensor<128xf32, #blocked>, %b: tensor<128xf32, #blocked>, %p: tensor<128x!tt.ptr<f32>, #blocked>) -> tensor<128xf32, #blocked> {
    %s = arith.select %c, %a, %b : tensor<128xf32, #blocked>
    scf.if %c {
      tt.store %p, %a : tensor<128x!tt.ptr<f32>, #blocked>
    }
    tt.return %s : tensor<128xf32, #blocked>
  }
  tt.func @with_results(%c: i1, %a: tensor<128xf32, #blocked>, %b: tensor<128xf32, #blocked>) -> (tensor<128xf32, #blocked>, tensor<128xf32, #blocked>, tensor<128xf32, #blocked>) {
    %s1 = arith.select %c, %a, %b : tensor<128xf32, #blocked>
    %s2 = arith.select %c, %b, %a : tensor<128xf32, #blocked>
    %r = scf.if %c -> tensor<128xf32, #blocked> {
      %x = arith.addf %a, %s1 : tensor<128xf32, #blocked>
      scf.yield %x : tensor<128xf32, #blocked>
    } else {
      %y = arith.mulf %b, %s1 : tensor<128xf32, #blocked>
      scf.yield %y : tensor<128xf32, #blocked>
    }
    tt.return %r, %s1, %s2 : tensor<128xf32, #blocked>, tensor<128xf32, #blocked>, tensor<128xf32, #blocked>
  }
  tt.func @scalar_and_blocked(%c: i1, %a: tensor<128xf32, #blocked>, %b: tensor<128xf32, #blocked>, %i: i32, %j: i32) -> (tensor<128xf32, #blocked>, i32) {
    %t = arith.select %c, %i, %j : i32
    %s = arith.select %c, %a, %b : tensor<128xf32, #blocked>
    %u = arith.addf %s, %a : tensor<128xf32, #blocked>
    %r = scf.if %c -> i32 {
      %k = arith.addi %t, %i : i32
      scf.yield %k : i32
    } else {
      scf.yield %t : i32
    }
    tt.return %u, %r : tensor<128xf32, #blocked>, i32
  }
  tt.func @select_after_if(%c: i1, %a: tensor<128xf32, #blocked>, %b: tensor<128xf32, #blocked>, %p: tensor<128x!tt.ptr<f32>, #blocked>) -> tensor<128xf32, #blocked> {
    scf.if %c {
      tt.store %p, %a : tensor<128x!tt.ptr<f32>, #blocked>
    }
    %s = arith.select %c, %a, %b : tensor<128xf32, #blocked>
    scf.if %c {
      tt.store %p, %b : tensor<128x!tt.ptr<f32>, #blocked>
    }
    tt.return %s : tensor<128xf32, #blocked>
  }
  tt.func @in_loop(%c: i1, %a: tensor<128xf32, #blocked>, %b: tensor<128xf32, #blocked>, %p: tensor<128x!tt.ptr<f32>, #blocked>, %n: i32) -> tensor<128xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<128xf32, #blocked>) : i32 {
      %s = arith.select %c, %acc, %b : tensor<128xf32, #blocked>
      scf.if %c {
        tt.store %p, %acc : tensor<128x!tt.ptr<f32>, #blocked>
      }
      %n2 = arith.addf %s, %acc : tensor<128xf32, #blocked>
      scf.yield %n2 : tensor<128xf32, #blocked>
    }
    tt.return %r : tensor<128xf32, #blocked>
  }
}
