// triton-reorder-broadcast: elementwise ops on splats become scalar ops
// followed by one splat, and elementwise ops on a broadcast (with splat-like
// other operands) run on the broadcast's source before broadcasting.
// RUN: tt-opt %s --split-input-file --triton-reorder-broadcast | FileCheck %s

// CHECK-LABEL: tt.func @splats
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG: %[[MUL:.*]] = arith.mulf %arg0, %arg1 : f32
// CHECK: %[[ADD:.*]] = arith.addf %[[MUL]], %[[TWO]] : f32
// CHECK: %[[SPLAT:.*]] = tt.splat %[[ADD]] : f32 -> tensor<128xf32>
// CHECK: %[[CMP:.*]] = arith.cmpf olt, %arg0, %arg1 : f32
// CHECK: %[[MASK:.*]] = tt.splat %[[CMP]] : i1 -> tensor<128xi1>
// CHECK: tt.return %[[SPLAT]], %[[MASK]]
tt.func @splats(%a: f32, %b: f32) -> (tensor<128xf32>, tensor<128xi1>) {
  %sa = tt.splat %a : f32 -> tensor<128xf32>
  %sb = tt.splat %b : f32 -> tensor<128xf32>
  %two = arith.constant dense<2.000000e+00> : tensor<128xf32>
  %m = arith.mulf %sa, %sb : tensor<128xf32>
  %r = arith.addf %m, %two : tensor<128xf32>
  %c = arith.cmpf olt, %sa, %sb : tensor<128xf32>
  tt.return %r, %c : tensor<128xf32>, tensor<128xi1>
}

// -----

// A broadcast operand, a splat and a splat constant: the op runs on the
// 1x64 source; the splat and the constant are narrowed.
// CHECK-LABEL: tt.func @broadcast
// CHECK-DAG: %[[THREE:.*]] = arith.constant dense<3.000000e+00> : tensor<1x64xf32>
// CHECK-DAG: %[[S:.*]] = tt.splat %arg1 : f32 -> tensor<1x64xf32>
// CHECK: %[[MUL:.*]] = arith.mulf %arg0, %[[S]] : tensor<1x64xf32>
// CHECK: %[[ADD:.*]] = arith.addf %[[MUL]], %[[THREE]] : tensor<1x64xf32>
// CHECK: %[[B:.*]] = tt.broadcast %[[ADD]] : tensor<1x64xf32> -> tensor<32x64xf32>
// CHECK: tt.return %[[B]]
tt.func @broadcast(%x: tensor<1x64xf32>, %s: f32) -> tensor<32x64xf32> {
  %bx = tt.broadcast %x : tensor<1x64xf32> -> tensor<32x64xf32>
  %ss = tt.splat %s : f32 -> tensor<32x64xf32>
  %three = arith.constant dense<3.000000e+00> : tensor<32x64xf32>
  %m = arith.mulf %bx, %ss : tensor<32x64xf32>
  %r = arith.addf %m, %three : tensor<32x64xf32>
  tt.return %r : tensor<32x64xf32>
}

// -----

// Two broadcasts from the same source shape move together; from different
// shapes they stay, as does an op with a non-splat operand or with memory
// effects.
// CHECK-LABEL: tt.func @kept
// CHECK: %[[SUM:.*]] = arith.addf %arg0, %arg1 : tensor<1x64xf32>
// CHECK: tt.broadcast %[[SUM]] : tensor<1x64xf32> -> tensor<32x64xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<32x64xf32>
// CHECK: arith.addf %{{.*}}, %arg3 : tensor<32x64xf32>
// CHECK: tt.load %{{.*}} : tensor<32x64x!tt.ptr<f32>>
tt.func @kept(%x: tensor<1x64xf32>, %y: tensor<1x64xf32>, %z: tensor<32x1xf32>, %w: tensor<32x64xf32>, %p: !tt.ptr<f32>) -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) {
  %bx = tt.broadcast %x : tensor<1x64xf32> -> tensor<32x64xf32>
  %by = tt.broadcast %y : tensor<1x64xf32> -> tensor<32x64xf32>
  %bz = tt.broadcast %z : tensor<32x1xf32> -> tensor<32x64xf32>
  %same = arith.addf %bx, %by : tensor<32x64xf32>
  %mixed = arith.addf %bx, %bz : tensor<32x64xf32>
  %plain = arith.addf %bx, %w : tensor<32x64xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %l = tt.load %ps : tensor<32x64x!tt.ptr<f32>>
  tt.return %same, %mixed, %plain, %l : tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>
}
