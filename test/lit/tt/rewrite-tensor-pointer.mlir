// triton-rewrite-tensor-pointer: block pointers become tensors of pointers,
// boundary checks become masks and padding the loads' `other`; block
// pointers carried by scf.for and returned by scf.if become their i64
// offsets. The op order, attributes and locations are Triton 3.6's (checked
// against the real pass). Inputs it cannot lower are reported, not crashed on.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --triton-rewrite-tensor-pointer | FileCheck %s
// RUN: tt-opt %s --split-input-file --verify-diagnostics --triton-rewrite-tensor-pointer | tt-opt --split-input-file > /dev/null

// One checked dimension, NaN padding: the mask covers dimension 1 only and
// reuses that dimension's index range.
// CHECK-LABEL: tt.func public @load_nan_one_dim(
// CHECK-SAME:      %[[BASE:[a-zA-Z0-9_]+]]: !tt.ptr<f16>
// CHECK-DAG:     %[[C0_I32:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C1_I64:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[C32_I64:.*]] = arith.constant 32 : i64
// CHECK:         %[[OFF0:.*]] = arith.extsi %[[C0_I32]] : i32 to i64
// CHECK-NEXT:    %[[OFF1:.*]] = arith.extsi %[[C0_I32]] : i32 to i64
// CHECK-NEXT:    %[[PTRS:.*]] = tt.splat %[[BASE]] : !tt.ptr<f16> -> tensor<128x32x!tt.ptr<f16>>
// CHECK-NEXT:    %[[S0:.*]] = tt.splat %[[OFF0]] : i64 -> tensor<128xi64>
// CHECK-NEXT:    %[[R0:.*]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
// CHECK-NEXT:    %[[R0W:.*]] = arith.extsi %[[R0]] : tensor<128xi32> to tensor<128xi64>
// CHECK-NEXT:    %[[I0:.*]] = arith.addi %[[S0]], %[[R0W]] : tensor<128xi64>
// CHECK-NEXT:    %[[E0:.*]] = tt.expand_dims %[[I0]] {axis = 1 : i32} : tensor<128xi64> -> tensor<128x1xi64>
// CHECK-NEXT:    %[[ST0:.*]] = tt.splat %[[C1_I64]] : i64 -> tensor<128x1xi64>
// CHECK-NEXT:    %[[M0:.*]] = arith.muli %[[E0]], %[[ST0]] : tensor<128x1xi64>
// CHECK-NEXT:    %[[B0:.*]] = tt.broadcast %[[M0]] : tensor<128x1xi64> -> tensor<128x32xi64>
// CHECK-NEXT:    %[[P0:.*]] = tt.addptr %[[PTRS]], %[[B0]] : tensor<128x32x!tt.ptr<f16>>, tensor<128x32xi64>
// CHECK-NEXT:    %[[S1:.*]] = tt.splat %[[OFF1]] : i64 -> tensor<32xi64>
// CHECK-NEXT:    %[[R1:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK-NEXT:    %[[R1W:.*]] = arith.extsi %[[R1]] : tensor<32xi32> to tensor<32xi64>
// CHECK-NEXT:    %[[I1:.*]] = arith.addi %[[S1]], %[[R1W]] : tensor<32xi64>
// CHECK-NEXT:    %[[E1:.*]] = tt.expand_dims %[[I1]] {axis = 0 : i32} : tensor<32xi64> -> tensor<1x32xi64>
// CHECK-NEXT:    %[[ST1:.*]] = tt.splat %[[C1_I64]] : i64 -> tensor<1x32xi64>
// CHECK-NEXT:    %[[M1:.*]] = arith.muli %[[E1]], %[[ST1]] : tensor<1x32xi64>
// CHECK-NEXT:    %[[B1:.*]] = tt.broadcast %[[M1]] : tensor<1x32xi64> -> tensor<128x32xi64>
// CHECK-NEXT:    %[[P1:.*]] = tt.addptr %[[P0]], %[[B1]] : tensor<128x32x!tt.ptr<f16>>, tensor<128x32xi64>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[ZS:.*]] = tt.splat %[[Z]] : i64 -> tensor<1x32xi64>
// CHECK-NEXT:    %[[GE:.*]] = arith.cmpi sge, %[[E1]], %[[ZS]] : tensor<1x32xi64>
// CHECK-NEXT:    %[[HI:.*]] = tt.splat %[[C32_I64]] : i64 -> tensor<1x32xi64>
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi slt, %[[E1]], %[[HI]] : tensor<1x32xi64>
// CHECK-NEXT:    %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : tensor<1x32xi1>
// CHECK-NEXT:    %[[MASK:.*]] = tt.broadcast %[[IN]] : tensor<1x32xi1> -> tensor<128x32xi1>
// CHECK-NEXT:    %[[NAN:.*]] = arith.constant 0x7E00 : f16
// CHECK-NEXT:    %[[OTHER:.*]] = tt.splat %[[NAN]] : f16 -> tensor<128x32xf16>
// CHECK-NEXT:    %[[LOAD:.*]] = tt.load %[[P1]], %[[MASK]], %[[OTHER]] : tensor<128x32x!tt.ptr<f16>>
// CHECK-NEXT:    tt.return %[[LOAD]] : tensor<128x32xf16>
tt.func public @load_nan_one_dim(%arg0: !tt.ptr<f16>) -> tensor<128x32xf16> {
  %c0_i32 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %c32_i64 = arith.constant 32 : i64
  %c128_i64 = arith.constant 128 : i64
  %0 = tt.make_tensor_ptr %arg0, [%c128_i64, %c32_i64], [%c1_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : !tt.ptr<tensor<128x32xf16>>
  %1 = tt.load %0 {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<128x32xf16>>
  tt.return %1 : tensor<128x32xf16>
}

// -----

// Both dimensions checked, zero padding: one mask per dimension, and-ed in
// the order of boundaryCheck. The load keeps its cache modifier and
// volatility.
// CHECK-LABEL: tt.func public @load_zero_both_dims(
// CHECK-SAME:      %[[BASE:[a-zA-Z0-9_]+]]: !tt.ptr<f32>, %[[ROWS:[a-zA-Z0-9_]+]]: i64, %[[COLS:[a-zA-Z0-9_]+]]: i64, %[[STRIDE:[a-zA-Z0-9_]+]]: i64, %[[X:[a-zA-Z0-9_]+]]: i32, %[[Y:[a-zA-Z0-9_]+]]: i32
// CHECK:         %[[OFFX:.*]] = arith.extsi %[[X]] : i32 to i64
// CHECK-NEXT:    %[[OFFY:.*]] = arith.extsi %[[Y]] : i32 to i64
// CHECK:         %[[SX:.*]] = tt.splat %[[OFFX]] : i64 -> tensor<64xi64>
// CHECK:         %[[EX:.*]] = tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
// CHECK-NEXT:    %{{.*}} = tt.splat %[[STRIDE]] : i64 -> tensor<64x1xi64>
// CHECK:         %[[SY:.*]] = tt.splat %[[OFFY]] : i64 -> tensor<16xi64>
// CHECK:         %[[EY:.*]] = tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<16xi64> -> tensor<1x16xi64>
// CHECK:         %[[PTRS:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<64x16x!tt.ptr<f32>>, tensor<64x16xi64>
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : i64
// CHECK-NEXT:    %{{.*}} = tt.splat %{{.*}} : i64 -> tensor<64x1xi64>
// CHECK-NEXT:    %{{.*}} = arith.cmpi sge, %[[EX]], %{{.*}} : tensor<64x1xi64>
// CHECK-NEXT:    %{{.*}} = tt.splat %[[ROWS]] : i64 -> tensor<64x1xi64>
// CHECK-NEXT:    %{{.*}} = arith.cmpi slt, %[[EX]], %{{.*}} : tensor<64x1xi64>
// CHECK-NEXT:    %{{.*}} = arith.andi %{{.*}}, %{{.*}} : tensor<64x1xi1>
// CHECK-NEXT:    %[[MX:.*]] = tt.broadcast %{{.*}} : tensor<64x1xi1> -> tensor<64x16xi1>
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : i64
// CHECK-NEXT:    %{{.*}} = tt.splat %{{.*}} : i64 -> tensor<1x16xi64>
// CHECK-NEXT:    %{{.*}} = arith.cmpi sge, %[[EY]], %{{.*}} : tensor<1x16xi64>
// CHECK-NEXT:    %{{.*}} = tt.splat %[[COLS]] : i64 -> tensor<1x16xi64>
// CHECK-NEXT:    %{{.*}} = arith.cmpi slt, %[[EY]], %{{.*}} : tensor<1x16xi64>
// CHECK-NEXT:    %{{.*}} = arith.andi %{{.*}}, %{{.*}} : tensor<1x16xi1>
// CHECK-NEXT:    %[[MY:.*]] = tt.broadcast %{{.*}} : tensor<1x16xi1> -> tensor<64x16xi1>
// CHECK-NEXT:    %[[MASK:.*]] = arith.andi %[[MX]], %[[MY]] : tensor<64x16xi1>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[OTHER:.*]] = tt.splat %[[ZERO]] : f32 -> tensor<64x16xf32>
// CHECK-NEXT:    %{{.*}} = tt.load %[[PTRS]], %[[MASK]], %[[OTHER]] cacheModifier = cg {isVolatile = true} : tensor<64x16x!tt.ptr<f32>>
tt.func public @load_zero_both_dims(%base: !tt.ptr<f32>, %rows: i64, %cols: i64, %stride: i64, %x: i32, %y: i32) -> tensor<64x16xf32> {
  %c1_i64 = arith.constant 1 : i64
  %0 = tt.make_tensor_ptr %base, [%rows, %cols], [%stride, %c1_i64], [%x, %y] {order = array<i32: 1, 0>} : !tt.ptr<tensor<64x16xf32>>
  %1 = tt.load %0 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32, cache = 3 : i32, isVolatile = true} : !tt.ptr<tensor<64x16xf32>>
  tt.return %1 : tensor<64x16xf32>
}

// -----

// Stores: with a boundary check a mask, without one none; a load without
// boundary check nor padding has neither mask nor other.
// CHECK-LABEL: tt.func public @stores(
// CHECK-NOT:     tt.make_tensor_ptr
// CHECK:         %[[V:.*]] = tt.load %{{[0-9]+}} : tensor<8x!tt.ptr<i32>>
// CHECK:         %[[MASK:.*]] = tt.broadcast %{{.*}} : tensor<8xi1> -> tensor<8xi1>
// CHECK-NEXT:    tt.store %{{.*}}, %[[V]], %[[MASK]] evictionPolicy = evict_last : tensor<8x!tt.ptr<i32>>
// CHECK-NOT:     arith.cmpi
// CHECK:         tt.store %{{[0-9]+}}, %[[V]] : tensor<8x!tt.ptr<i32>>
// CHECK-NEXT:    tt.return
tt.func public @stores(%base: !tt.ptr<i32>, %n: i64) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %0 = tt.make_tensor_ptr %base, [%n], [%c1_i64], [%c0_i32] {order = array<i32: 0>} : !tt.ptr<tensor<8xi32>>
  %1 = tt.load %0 : !tt.ptr<tensor<8xi32>>
  tt.store %0, %1 evictionPolicy = evict_last {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<8xi32>>
  tt.store %0, %1 : !tt.ptr<tensor<8xi32>>
  tt.return
}

// -----

// Advance in a loop: the loop carries the two offsets; the advance adds the
// sign-extended steps; the loop's attributes stay; the block pointer result
// of the loop is used after it through the result offsets.
// CHECK-LABEL: tt.func public @advance_in_loop(
// CHECK:         %[[OFF0:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT:    %[[OFF1:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT:    %[[FOR:.*]]:3 = scf.for %{{.*}} = %c0 to %c32 step %c1 iter_args(%[[ACC:.*]] = %cst, %[[A0:.*]] = %[[OFF0]], %[[A1:.*]] = %[[OFF1]]) -> (tensor<128x32xf16>, i64, i64) {
// CHECK:           tt.splat %[[A0]] : i64 -> tensor<128xi64>
// CHECK:           tt.splat %[[A1]] : i64 -> tensor<32xi64>
// CHECK:           %[[V:.*]] = tt.load
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[ACC]], %[[V]] : tensor<128x32xf16>
// CHECK-NEXT:      %[[STEP0:.*]] = arith.extsi %c32_i32 : i32 to i64
// CHECK-NEXT:      %[[N0:.*]] = arith.addi %[[A0]], %[[STEP0]] : i64
// CHECK-NEXT:      %[[STEP1:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT:      %[[N1:.*]] = arith.addi %[[A1]], %[[STEP1]] : i64
// CHECK-NEXT:      scf.yield %[[SUM]], %[[N0]], %[[N1]] : tensor<128x32xf16>, i64, i64
// CHECK-NEXT:    } {tt.num_stages = 3 : i32}
// CHECK:         tt.store %{{.*}}, %[[FOR]]#0 : tensor<128x32x!tt.ptr<f16>>
// CHECK:         tt.splat %[[FOR]]#1 : i64 -> tensor<128xi64>
// CHECK:         tt.splat %[[FOR]]#2 : i64 -> tensor<32xi64>
// CHECK:         tt.store %{{.*}}, %[[FOR]]#0, %{{.*}} : tensor<128x32x!tt.ptr<f16>>
tt.func public @advance_in_loop(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c0_i32 = arith.constant 0 : i32
  %c32_i32 = arith.constant 32 : i32
  %c1_i64 = arith.constant 1 : i64
  %c32_i64 = arith.constant 32 : i64
  %c128_i64 = arith.constant 128 : i64
  %cst = arith.constant dense<0.000000e+00> : tensor<128x32xf16>
  %0 = tt.make_tensor_ptr %arg0, [%c128_i64, %c32_i64], [%c1_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : !tt.ptr<tensor<128x32xf16>>
  %1:2 = scf.for %arg2 = %c0 to %c32 step %c1 iter_args(%arg3 = %cst, %arg4 = %0) -> (tensor<128x32xf16>, !tt.ptr<tensor<128x32xf16>>) {
    %3 = tt.load %arg4 {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<128x32xf16>>
    %4 = arith.addf %arg3, %3 : tensor<128x32xf16>
    %5 = tt.advance %arg4, [%c32_i32, %c0_i32] : !tt.ptr<tensor<128x32xf16>>
    scf.yield %4, %5 : tensor<128x32xf16>, !tt.ptr<tensor<128x32xf16>>
  } {tt.num_stages = 3 : i32}
  %2 = tt.splat %arg1 : !tt.ptr<f16> -> tensor<128x32x!tt.ptr<f16>>
  tt.store %2, %1#0 : tensor<128x32x!tt.ptr<f16>>
  tt.store %1#1, %1#0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<128x32xf16>>
  tt.return
}

// -----

// An scf.if returning a block pointer (and an i32) returns its offsets.
// CHECK-LABEL: tt.func public @advance_in_if(
// CHECK:         %[[OFF0:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT:    %[[OFF1:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT:    %[[IF:.*]]:3 = scf.if %{{.*}} -> (i64, i64, i32) {
// CHECK-NEXT:      %[[STEP0:.*]] = arith.extsi %c32_i32 : i32 to i64
// CHECK-NEXT:      %[[N0:.*]] = arith.addi %[[OFF0]], %[[STEP0]] : i64
// CHECK-NEXT:      %[[STEP1:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT:      %[[N1:.*]] = arith.addi %[[OFF1]], %[[STEP1]] : i64
// CHECK-NEXT:      scf.yield %[[N0]], %[[N1]], %c0_i32 : i64, i64, i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[OFF0]], %[[OFF1]], %c32_i32 : i64, i64, i32
// CHECK-NEXT:    }
// CHECK:         tt.splat %[[IF]]#0 : i64 -> tensor<128xi64>
// CHECK:         tt.splat %[[IF]]#1 : i64 -> tensor<32xi64>
// CHECK:         %[[V:.*]] = tt.load
// CHECK-NEXT:    tt.return %[[V]], %[[IF]]#2 : tensor<128x32xf16>, i32
tt.func public @advance_in_if(%arg0: !tt.ptr<f16>, %arg1: i1) -> (tensor<128x32xf16>, i32) {
  %c0_i32 = arith.constant 0 : i32
  %c32_i32 = arith.constant 32 : i32
  %c1_i64 = arith.constant 1 : i64
  %c32_i64 = arith.constant 32 : i64
  %c128_i64 = arith.constant 128 : i64
  %0 = tt.make_tensor_ptr %arg0, [%c128_i64, %c32_i64], [%c1_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : !tt.ptr<tensor<128x32xf16>>
  %1, %2 = scf.if %arg1 -> (!tt.ptr<tensor<128x32xf16>>, i32) {
    %3 = tt.advance %0, [%c32_i32, %c0_i32] : !tt.ptr<tensor<128x32xf16>>
    scf.yield %3, %c0_i32 : !tt.ptr<tensor<128x32xf16>>, i32
  } else {
    scf.yield %0, %c32_i32 : !tt.ptr<tensor<128x32xf16>>, i32
  }
  %4 = tt.load %1 {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<128x32xf16>>
  tt.return %4, %2 : tensor<128x32xf16>, i32
}

// -----

// A block pointer made before an scf.while and used inside it; the loop
// itself carries only the i32.
// CHECK-LABEL: tt.func public @used_in_while(
// CHECK:         %[[OFF:.*]] = arith.extsi %c0_i32 : i32 to i64
// CHECK-NEXT:    scf.while (%{{.*}} = %c0_i32) : (i32) -> i32 {
// CHECK:         } do {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: i32):
// CHECK-NEXT:      %[[STEP:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %[[OFF]], %[[STEP]] : i64
// CHECK-NEXT:      tt.splat %{{.*}} : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:      tt.splat %[[NEXT]] : i64 -> tensor<16xi64>
// CHECK:           %[[V:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x!tt.ptr<f32>>
// CHECK:           tt.splat %[[NEXT]] : i64 -> tensor<16xi64>
// CHECK:           tt.store %{{.*}}, %[[V]], %{{.*}} : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:      arith.addi
// CHECK-NEXT:      scf.yield
tt.func public @used_in_while(%arg0: !tt.ptr<f32>, %n: i32) {
  %c0_i32 = arith.constant 0 : i32
  %c16_i32 = arith.constant 16 : i32
  %c1_i64 = arith.constant 1 : i64
  %c64_i64 = arith.constant 64 : i64
  %0 = tt.make_tensor_ptr %arg0, [%c64_i64], [%c1_i64], [%c0_i32] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  %r = scf.while (%i = %c0_i32) : (i32) -> i32 {
    %cond = arith.cmpi slt, %i, %n : i32
    scf.condition(%cond) %i : i32
  } do {
  ^bb0(%i: i32):
    %p = tt.advance %0, [%i] : !tt.ptr<tensor<16xf32>>
    %v = tt.load %p {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16xf32>>
    tt.store %p, %v {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
    %next = arith.addi %i, %c16_i32 : i32
    scf.yield %next : i32
  }
  tt.return
}

// -----

// Loops and ifs nest: an scf.if inside the loop returns the advanced or the
// carried pointer, an inner loop carries it on.
// CHECK-LABEL: tt.func public @nested(
// CHECK:         %[[OUTER:.*]]:3 = scf.for %{{.*}} = %c0_i32 to %{{.*}} step %c1_i32 iter_args(%[[P0:.*]] = %{{.*}}, %[[P1:.*]] = %{{.*}}, %[[ACC:.*]] = %cst) -> (i64, i64, tensor<16x16xf32>) : i32 {
// CHECK-NEXT:      %[[IF:.*]]:2 = scf.if %{{.*}} -> (i64, i64) {
// CHECK:             scf.yield %{{.*}}, %{{.*}} : i64, i64
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[P0]], %[[P1]] : i64, i64
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[INNER:.*]]:3 = scf.for %{{.*}} iter_args(%{{.*}} = %[[IF]]#0, %{{.*}} = %[[IF]]#1, %{{.*}} = %[[ACC]]) -> (i64, i64, tensor<16x16xf32>) : i32 {
// CHECK:             tt.load
// CHECK:             scf.yield %{{.*}}, %{{.*}}, %{{.*}} : i64, i64, tensor<16x16xf32>
// CHECK:           scf.yield %[[INNER]]#0, %[[INNER]]#1, %[[INNER]]#2 : i64, i64, tensor<16x16xf32>
// CHECK:         tt.return %[[OUTER]]#2 : tensor<16x16xf32>
tt.func public @nested(%arg0: !tt.ptr<f32>, %n: i32, %c: i1) -> tensor<16x16xf32> {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c16_i32 = arith.constant 16 : i32
  %c1_i64 = arith.constant 1 : i64
  %c64_i64 = arith.constant 64 : i64
  %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %0 = tt.make_tensor_ptr %arg0, [%c64_i64, %c64_i64], [%c64_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : !tt.ptr<tensor<16x16xf32>>
  %r:2 = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%p = %0, %acc = %cst) -> (!tt.ptr<tensor<16x16xf32>>, tensor<16x16xf32>) : i32 {
    %q = scf.if %c -> !tt.ptr<tensor<16x16xf32>> {
      %a = tt.advance %p, [%c16_i32, %c0_i32] : !tt.ptr<tensor<16x16xf32>>
      scf.yield %a : !tt.ptr<tensor<16x16xf32>>
    } else {
      scf.yield %p : !tt.ptr<tensor<16x16xf32>>
    }
    %in:2 = scf.for %j = %c0_i32 to %n step %c1_i32 iter_args(%pp = %q, %acc2 = %acc) -> (!tt.ptr<tensor<16x16xf32>>, tensor<16x16xf32>) : i32 {
      %v = tt.load %pp {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16xf32>>
      %s = arith.addf %acc2, %v : tensor<16x16xf32>
      %nx = tt.advance %pp, [%c0_i32, %c16_i32] : !tt.ptr<tensor<16x16xf32>>
      scf.yield %nx, %s : !tt.ptr<tensor<16x16xf32>>, tensor<16x16xf32>
    }
    scf.yield %in#0, %in#1 : !tt.ptr<tensor<16x16xf32>>, tensor<16x16xf32>
  }
  tt.return %r#1 : tensor<16x16xf32>
}

// -----

// Three dimensions: each index range is expanded on the two other axes.
// CHECK-LABEL: tt.func public @rank3(
// CHECK:         tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<2xi64> -> tensor<2x1xi64>
// CHECK-NEXT:    tt.expand_dims %{{.*}} {axis = 2 : i32} : tensor<2x1xi64> -> tensor<2x1x1xi64>
// CHECK:         tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<4xi64> -> tensor<1x4xi64>
// CHECK-NEXT:    tt.expand_dims %{{.*}} {axis = 2 : i32} : tensor<1x4xi64> -> tensor<1x4x1xi64>
// CHECK:         tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<8xi64> -> tensor<1x8xi64>
// CHECK-NEXT:    tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<1x8xi64> -> tensor<1x1x8xi64>
// CHECK:         tt.broadcast %{{.*}} : tensor<2x1x1xi1> -> tensor<2x4x8xi1>
// CHECK:         tt.broadcast %{{.*}} : tensor<1x1x8xi1> -> tensor<2x4x8xi1>
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[OTHER:.*]] = tt.splat %[[ZERO]] : i32 -> tensor<2x4x8xi32>
// CHECK-NEXT:    tt.load %{{.*}}, %{{.*}}, %[[OTHER]] : tensor<2x4x8x!tt.ptr<i32>>
tt.func public @rank3(%arg0: !tt.ptr<i32>, %s: i64, %o: i32) -> tensor<2x4x8xi32> {
  %c0_i32 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %0 = tt.make_tensor_ptr %arg0, [%s, %s, %s], [%s, %s, %c1_i64], [%o, %c0_i32, %o] {order = array<i32: 2, 1, 0>} : !tt.ptr<tensor<2x4x8xi32>>
  %1 = tt.load %0 {boundaryCheck = array<i32: 0, 2>, padding = 1 : i32} : !tt.ptr<tensor<2x4x8xi32>>
  tt.return %1 : tensor<2x4x8xi32>
}

// -----

// Without block pointers nothing changes.
// CHECK-LABEL: tt.func public @no_block_pointers(
// CHECK-NEXT:    %[[P:.*]] = tt.splat %{{.*}} : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    %[[R:.*]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
// CHECK-NEXT:    %[[Q:.*]] = tt.addptr %[[P]], %[[R]] : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
// CHECK-NEXT:    %[[M:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (tensor<16xf32>) : i32 {
// CHECK-NEXT:      %[[V:.*]] = tt.load %[[Q]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[A]], %[[V]] : tensor<16xf32>
// CHECK-NEXT:      scf.yield %[[S]] : tensor<16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    tt.store %[[Q]], %[[M]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    tt.return
tt.func public @no_block_pointers(%arg0: !tt.ptr<f32>, %n: i32, %init: tensor<16xf32>) {
  %0 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %1 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %2 = tt.addptr %0, %1 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %3 = scf.for %i = %n to %n step %n iter_args(%a = %init) -> (tensor<16xf32>) : i32 {
    %v = tt.load %2 : tensor<16x!tt.ptr<f32>>
    %s = arith.addf %a, %v : tensor<16xf32>
    scf.yield %s : tensor<16xf32>
  }
  tt.store %2, %3 : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// What the pass reports instead of lowering (Triton aborts or miscompiles).

tt.func public @carried_by_while(%arg0: !tt.ptr<f32>, %n: i32) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %c64_i64 = arith.constant 64 : i64
  %0 = tt.make_tensor_ptr %arg0, [%c64_i64], [%c1_i64], [%c0_i32] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  // expected-error @below {{block pointers cannot be carried by scf.while}}
  %r = scf.while (%p = %0) : (!tt.ptr<tensor<16xf32>>) -> !tt.ptr<tensor<16xf32>> {
    %cond = arith.cmpi slt, %c0_i32, %n : i32
    scf.condition(%cond) %p : !tt.ptr<tensor<16xf32>>
  } do {
  ^bb0(%p: !tt.ptr<tensor<16xf32>>):
    scf.yield %p : !tt.ptr<tensor<16xf32>>
  }
  tt.return
}

// -----

// expected-error @below {{block pointer function arguments are not supported}}
tt.func public @argument(%p: !tt.ptr<tensor<16xf32>>) {
  tt.return
}

// -----

tt.func public @masked_load(%arg0: !tt.ptr<f32>, %m: tensor<16xi1>) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %c64_i64 = arith.constant 64 : i64
  %0 = tt.make_tensor_ptr %arg0, [%c64_i64], [%c1_i64], [%c0_i32] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  // expected-error @below {{a load through a block pointer cannot also have a mask or other value}}
  %1 = tt.load %0, %m : !tt.ptr<tensor<16xf32>>
  tt.return
}

// -----

tt.func public @nan_padding_of_ints(%arg0: !tt.ptr<i32>) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %c64_i64 = arith.constant 64 : i64
  %0 = tt.make_tensor_ptr %arg0, [%c64_i64], [%c1_i64], [%c0_i32] {order = array<i32: 0>} : !tt.ptr<tensor<16xi32>>
  // expected-error @below {{padding nan needs a float element type, not i32}}
  %1 = tt.load %0 {boundaryCheck = array<i32: 0>, padding = 2 : i32} : !tt.ptr<tensor<16xi32>>
  tt.return
}

// -----

tt.func public @made_in_branch(%arg0: !tt.ptr<f32>, %c: i1) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %c64_i64 = arith.constant 64 : i64
  %0 = tt.make_tensor_ptr %arg0, [%c64_i64], [%c1_i64], [%c0_i32] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  // expected-error @below {{result #0 is a block pointer made inside the scf.if}}
  %1 = scf.if %c -> !tt.ptr<tensor<16xf32>> {
    %2 = tt.make_tensor_ptr %arg0, [%c64_i64], [%c1_i64], [%c0_i32] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
    scf.yield %2 : !tt.ptr<tensor<16xf32>>
  } else {
    scf.yield %0 : !tt.ptr<tensor<16xf32>>
  }
  tt.return
}

// -----

tt.func public @two_bases(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %c: i1) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %c64_i64 = arith.constant 64 : i64
  %0 = tt.make_tensor_ptr %arg0, [%c64_i64], [%c1_i64], [%c0_i32] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  %1 = tt.make_tensor_ptr %arg1, [%c64_i64], [%c1_i64], [%c0_i32] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  %2 = scf.if %c -> !tt.ptr<tensor<16xf32>> {
    scf.yield %0 : !tt.ptr<tensor<16xf32>>
  } else {
    // expected-error @below {{operand #0 is a block pointer with another base, shape or strides}}
    scf.yield %1 : !tt.ptr<tensor<16xf32>>
  }
  tt.return
}

// -----

tt.func public @selected(%arg0: !tt.ptr<f32>, %c: i1) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i64 = arith.constant 1 : i64
  %c64_i64 = arith.constant 64 : i64
  %0 = tt.make_tensor_ptr %arg0, [%c64_i64], [%c1_i64], [%c0_i32] {order = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  // expected-error @below {{produces a block pointer}}
  %1 = arith.select %c, %0, %0 : !tt.ptr<tensor<16xf32>>
  tt.return
}
