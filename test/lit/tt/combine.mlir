// triton-combine: dot with a zero accumulator absorbs an add, select of a
// load masked by the same condition becomes the load's `other`, nested
// addptrs merge when their offsets may be summed, broadcast-multiply-reduce
// becomes a dot, and rank-1 reshapes feeding reductions may reorder.
// RUN: tt-opt %s --split-input-file --triton-combine | FileCheck %s

// CHECK-LABEL: tt.func @dot_add_float
// CHECK-SAME: (%[[A:[^:]*]]: tensor<16x16xf16>, %[[B:[^:]*]]: tensor<16x16xf16>, %[[D:[^:]*]]: tensor<16x16xf32>)
// CHECK-NEXT: %[[R:.*]] = tt.dot %[[A]], %[[B]], %[[D]] : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
// CHECK-NEXT: tt.return %[[R]], %[[R2:.*]] :
tt.func @dot_add_float(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %d: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %dot = tt.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %sum = arith.addf %dot, %d : tensor<16x16xf32>
  tt.return %sum, %sum : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// The dot on the right, an integer dot, and a negative zero.
// CHECK-LABEL: tt.func @dot_add_int
// CHECK: tt.dot %{{.*}}, %{{.*}}, %arg2 : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
// CHECK-NOT: arith.addi
// CHECK-LABEL: tt.func @dot_add_negative_zero
// CHECK: tt.dot %{{.*}}, %{{.*}}, %arg2 :
// CHECK-NOT: arith.addf
tt.func @dot_add_int(%a: tensor<16x16xi8>, %b: tensor<16x16xi8>, %d: tensor<16x16xi32>) -> tensor<16x16xi32> {
  %zero = arith.constant dense<0> : tensor<16x16xi32>
  %dot = tt.dot %a, %b, %zero : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
  %sum = arith.addi %d, %dot : tensor<16x16xi32>
  tt.return %sum : tensor<16x16xi32>
}
tt.func @dot_add_negative_zero(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %d: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant dense<-0.000000e+00> : tensor<16x16xf32>
  %dot = tt.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %sum = arith.addf %d, %dot : tensor<16x16xf32>
  tt.return %sum : tensor<16x16xf32>
}

// -----

// Not combined: a non-zero accumulator, a dot with a second use, and an
// imprecise-accumulation limit on a float dot.
// CHECK-LABEL: tt.func @dot_add_kept
// CHECK-COUNT-3: arith.addf
tt.func @dot_add_kept(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %d: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) {
  %one = arith.constant dense<1.000000e+00> : tensor<16x16xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %dot1 = tt.dot %a, %b, %one : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %sum1 = arith.addf %dot1, %d : tensor<16x16xf32>
  %dot2 = tt.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %sum2 = arith.addf %dot2, %d : tensor<16x16xf32>
  %dot3 = tt.dot %a, %b, %zero {maxNumImpreciseAcc = 32 : i32} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %sum3 = arith.addf %dot3, %d : tensor<16x16xf32>
  tt.return %sum1, %sum2, %dot2, %sum3 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// CHECK-LABEL: tt.func @select_masked_load
// CHECK: %[[MASK:.*]] = tt.splat %arg1 : i1 -> tensor<64xi1>
// CHECK-NEXT: %[[LOAD:.*]] = tt.load %arg0, %[[MASK]], %arg2 : tensor<64x!tt.ptr<f32>>
// CHECK-NEXT: tt.return %[[LOAD]]
tt.func @select_masked_load(%ptrs: tensor<64x!tt.ptr<f32>>, %cond: i1, %other: tensor<64xf32>) -> tensor<64xf32> {
  %mask = tt.splat %cond : i1 -> tensor<64xi1>
  %load = tt.load %ptrs, %mask : tensor<64x!tt.ptr<f32>>
  %sel = arith.select %cond, %load, %other : tensor<64xf32>
  tt.return %sel : tensor<64xf32>
}

// -----

// Another condition, or a mask that is not a splat of it: kept.
// CHECK-LABEL: tt.func @select_other_condition
// CHECK: arith.select
// CHECK: arith.select
tt.func @select_other_condition(%ptrs: tensor<64x!tt.ptr<f32>>, %c1: i1, %c2: i1, %m: tensor<64xi1>, %other: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %mask = tt.splat %c1 : i1 -> tensor<64xi1>
  %load = tt.load %ptrs, %mask : tensor<64x!tt.ptr<f32>>
  %sel = arith.select %c2, %load, %other : tensor<64xf32>
  %load2 = tt.load %ptrs, %m : tensor<64x!tt.ptr<f32>>
  %sel2 = arith.select %c1, %load2, %other : tensor<64xf32>
  tt.return %sel, %sel2 : tensor<64xf32>, tensor<64xf32>
}

// -----

// 64-bit offsets always merge; 32-bit ones only as constants whose sum
// fits. Pointer hints of the outer addptr survive.
// CHECK-LABEL: tt.func @nested_addptr
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[SUM:.*]] = arith.addi %arg1, %arg2 : i64
// CHECK: tt.addptr %arg0, %[[SUM]] {tt.divisibility = 16 : i32} : !tt.ptr<f32>, i64
// CHECK: %[[INNER:.*]] = tt.addptr %arg0, %arg3 : !tt.ptr<f32>, i32
// CHECK: tt.addptr %[[INNER]], %arg4 : !tt.ptr<f32>, i32
// CHECK: tt.addptr %arg0, %[[C3]] : !tt.ptr<f32>, i32
// CHECK: %[[BIG:.*]] = tt.addptr %arg0, %{{.*}} : !tt.ptr<f32>, i32
// CHECK: tt.addptr %[[BIG]], %{{.*}} : !tt.ptr<f32>, i32
tt.func @nested_addptr(%p: !tt.ptr<f32>, %i: i64, %j: i64, %k: i32, %l: i32) -> (!tt.ptr<f32>, !tt.ptr<f32>, !tt.ptr<f32>, !tt.ptr<f32>) {
  %a = tt.addptr %p, %i : !tt.ptr<f32>, i64
  %b = tt.addptr %a, %j {tt.divisibility = 16 : i32} : !tt.ptr<f32>, i64
  %c = tt.addptr %p, %k : !tt.ptr<f32>, i32
  %d = tt.addptr %c, %l : !tt.ptr<f32>, i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %e = tt.addptr %p, %c1 : !tt.ptr<f32>, i32
  %f = tt.addptr %e, %c2 : !tt.ptr<f32>, i32
  %max = arith.constant 2147483647 : i32
  %g = tt.addptr %p, %max : !tt.ptr<f32>, i32
  %h = tt.addptr %g, %c1 : !tt.ptr<f32>, i32
  tt.return %b, %d, %f, %h : !tt.ptr<f32>, !tt.ptr<f32>, !tt.ptr<f32>, !tt.ptr<f32>
}

// -----

// Splatted constant offsets on tensors of pointers.
// CHECK-LABEL: tt.func @nested_addptr_tensor
// CHECK: %[[P:.*]] = tt.addptr %arg0, %{{.*}} : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
// CHECK-NOT: tt.addptr
// CHECK: tt.return %[[P]]
tt.func @nested_addptr_tensor(%p: tensor<8x!tt.ptr<f16>>, %x: i32) -> tensor<8x!tt.ptr<f16>> {
  %c4 = arith.constant 4 : i32
  %s = tt.splat %c4 : i32 -> tensor<8xi32>
  %c8 = arith.constant dense<8> : tensor<8xi32>
  %a = tt.addptr %p, %s : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
  %b = tt.addptr %a, %c8 : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
  tt.return %b : tensor<8x!tt.ptr<f16>>
}

// -----

// sum(x[:, :, None] * y[None, :, :], axis=1) is a dot.
// CHECK-LABEL: tt.func @broadcast_mul_reduce
// CHECK: %[[DOT:.*]] = tt.dot %arg0, %arg1, %{{.*}}, inputPrecision = tf32 : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
// CHECK-NOT: tt.reduce
// CHECK: tt.return %[[DOT]]
tt.func @broadcast_mul_reduce(%x: tensor<16x32xf32>, %y: tensor<32x16xf32>) -> tensor<16x16xf32> {
  %xe = tt.expand_dims %x {axis = 2 : i32} : tensor<16x32xf32> -> tensor<16x32x1xf32>
  %ye = tt.expand_dims %y {axis = 0 : i32} : tensor<32x16xf32> -> tensor<1x32x16xf32>
  %xb = tt.broadcast %xe : tensor<16x32x1xf32> -> tensor<16x32x16xf32>
  %yb = tt.broadcast %ye : tensor<1x32x16xf32> -> tensor<16x32x16xf32>
  %m = arith.mulf %xb, %yb : tensor<16x32x16xf32>
  %r = "tt.reduce"(%m) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    %s = arith.addf %l, %rr : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x32x16xf32>) -> tensor<16x16xf32>
  tt.return %r : tensor<16x16xf32>
}

// -----

// A rank-1 reshape read only by a reduction may reorder; one also read by
// something else may not.
// CHECK-LABEL: tt.func @reshape_reduce
// CHECK: tt.reshape %arg0 allow_reorder : tensor<4x4xf32> -> tensor<16xf32>
// CHECK: tt.reshape %arg0 : tensor<4x4xf32> -> tensor<16xf32>
tt.func @reshape_reduce(%x: tensor<4x4xf32>) -> (f32, tensor<16xf32>) {
  %a = tt.reshape %x : tensor<4x4xf32> -> tensor<16xf32>
  %r = "tt.reduce"(%a) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    %s = arith.maxnumf %l, %rr : f32
    tt.reduce.return %s : f32
  }) : (tensor<16xf32>) -> f32
  %b = tt.reshape %x : tensor<4x4xf32> -> tensor<16xf32>
  tt.return %r, %b : f32, tensor<16xf32>
}
