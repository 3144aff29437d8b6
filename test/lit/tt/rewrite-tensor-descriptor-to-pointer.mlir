// triton-rewrite-tensor-descriptor-to-pointer: a rank-r tensor descriptor
// becomes its base pointer, r sizes and r strides (i64) and an i1 NaN-padding
// flag, through functions, calls, loops, ifs, whiles and selects; descriptor
// loads, stores, gathers, scatters and reductions become masked pointer
// accesses. The op order, attributes and locations are Triton 3.6's (checked
// against the real pass). Inputs it cannot lower are reported.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --triton-rewrite-tensor-descriptor-to-pointer | FileCheck %s
// RUN: tt-opt %s --split-input-file --verify-diagnostics --triton-rewrite-tensor-descriptor-to-pointer | tt-opt --split-input-file > /dev/null

// A 2-D load: constant sizes fold to i64 constants, the indices are
// sign-extended, out-of-bounds elements read select(padding, NaN, 0), and the
// pointers and the mask each build their own index ranges. The load keeps
// the descriptor load's attributes.
// CHECK-LABEL: tt.func public @load(
// CHECK-SAME:      %[[BASE:[a-zA-Z0-9_]+]]: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %[[X:[a-zA-Z0-9_]+]]: i32, %[[Y:[a-zA-Z0-9_]+]]: i32
// CHECK-NEXT:    %[[STRIDE1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[STRIDE0:.*]] = arith.constant 256 : i64
// CHECK-NEXT:    %{{.*}} = arith.constant 256 : i32
// CHECK-NEXT:    %[[SIZE0:.*]] = arith.constant 256 : i64
// CHECK-NEXT:    %[[SIZE1:.*]] = arith.constant 256 : i64
// CHECK-NEXT:    %[[PAD:.*]] = arith.constant false
// CHECK-NEXT:    %[[OX:.*]] = arith.extsi %[[X]] : i32 to i64
// CHECK-NEXT:    %[[OY:.*]] = arith.extsi %[[Y]] : i32 to i64
// CHECK-NEXT:    %[[NAN:.*]] = arith.constant dense<0x7FC00000> : tensor<128x128xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
// CHECK-NEXT:    %[[OTHER:.*]] = arith.select %[[PAD]], %[[NAN]], %[[ZERO]] : tensor<128x128xf32>
// CHECK-NEXT:    %[[SX:.*]] = tt.splat %[[OX]] : i64 -> tensor<128xi64>
// CHECK-NEXT:    %[[RX:.*]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
// CHECK-NEXT:    %[[RXW:.*]] = arith.extsi %[[RX]] : tensor<128xi32> to tensor<128xi64>
// CHECK-NEXT:    %[[IX:.*]] = arith.addi %[[SX]], %[[RXW]] : tensor<128xi64>
// CHECK-NEXT:    %[[EX:.*]] = tt.expand_dims %[[IX]] {axis = 1 : i32} : tensor<128xi64> -> tensor<128x1xi64>
// CHECK-NEXT:    %[[SY:.*]] = tt.splat %[[OY]] : i64 -> tensor<128xi64>
// CHECK-NEXT:    %[[RY:.*]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
// CHECK-NEXT:    %[[RYW:.*]] = arith.extsi %[[RY]] : tensor<128xi32> to tensor<128xi64>
// CHECK-NEXT:    %[[IY:.*]] = arith.addi %[[SY]], %[[RYW]] : tensor<128xi64>
// CHECK-NEXT:    %[[EY:.*]] = tt.expand_dims %[[IY]] {axis = 0 : i32} : tensor<128xi64> -> tensor<1x128xi64>
// CHECK-NEXT:    %[[P:.*]] = tt.splat %[[BASE]] : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>>
// CHECK-NEXT:    %[[T0:.*]] = tt.splat %[[STRIDE0]] : i64 -> tensor<128x1xi64>
// CHECK-NEXT:    %[[M0:.*]] = arith.muli %[[EX]], %[[T0]] : tensor<128x1xi64>
// CHECK-NEXT:    %[[B0:.*]] = tt.broadcast %[[M0]] : tensor<128x1xi64> -> tensor<128x128xi64>
// CHECK-NEXT:    %[[P0:.*]] = tt.addptr %[[P]], %[[B0]] : tensor<128x128x!tt.ptr<f32>>, tensor<128x128xi64>
// CHECK-NEXT:    %[[T1:.*]] = tt.splat %[[STRIDE1]] : i64 -> tensor<1x128xi64>
// CHECK-NEXT:    %[[M1:.*]] = arith.muli %[[EY]], %[[T1]] : tensor<1x128xi64>
// CHECK-NEXT:    %[[B1:.*]] = tt.broadcast %[[M1]] : tensor<1x128xi64> -> tensor<128x128xi64>
// CHECK-NEXT:    %[[P1:.*]] = tt.addptr %[[P0]], %[[B1]] : tensor<128x128x!tt.ptr<f32>>, tensor<128x128xi64>
// CHECK-NEXT:    tt.splat %[[OX]] : i64 -> tensor<128xi64>
// CHECK-NEXT:    tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
// CHECK-NEXT:    arith.extsi
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    %[[FX:.*]] = tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<128xi64> -> tensor<128x1xi64>
// CHECK-NEXT:    tt.splat %[[OY]] : i64 -> tensor<128xi64>
// CHECK-NEXT:    tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
// CHECK-NEXT:    arith.extsi
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    %[[FY:.*]] = tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<128xi64> -> tensor<1x128xi64>
// CHECK-NEXT:    %[[Z0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[Z0S:.*]] = tt.splat %[[Z0]] : i64 -> tensor<128x1xi64>
// CHECK-NEXT:    %[[GE0:.*]] = arith.cmpi sge, %[[FX]], %[[Z0S]] : tensor<128x1xi64>
// CHECK-NEXT:    %[[H0:.*]] = tt.splat %[[SIZE0]] : i64 -> tensor<128x1xi64>
// CHECK-NEXT:    %[[LT0:.*]] = arith.cmpi slt, %[[FX]], %[[H0]] : tensor<128x1xi64>
// CHECK-NEXT:    %[[IN0:.*]] = arith.andi %[[GE0]], %[[LT0]] : tensor<128x1xi1>
// CHECK-NEXT:    %[[K0:.*]] = tt.broadcast %[[IN0]] : tensor<128x1xi1> -> tensor<128x128xi1>
// CHECK-NEXT:    %[[Z1:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[Z1S:.*]] = tt.splat %[[Z1]] : i64 -> tensor<1x128xi64>
// CHECK-NEXT:    %[[GE1:.*]] = arith.cmpi sge, %[[FY]], %[[Z1S]] : tensor<1x128xi64>
// CHECK-NEXT:    %[[H1:.*]] = tt.splat %[[SIZE1]] : i64 -> tensor<1x128xi64>
// CHECK-NEXT:    %[[LT1:.*]] = arith.cmpi slt, %[[FY]], %[[H1]] : tensor<1x128xi64>
// CHECK-NEXT:    %[[IN1:.*]] = arith.andi %[[GE1]], %[[LT1]] : tensor<1x128xi1>
// CHECK-NEXT:    %[[K1:.*]] = tt.broadcast %[[IN1]] : tensor<1x128xi1> -> tensor<128x128xi1>
// CHECK-NEXT:    %[[MASK:.*]] = arith.andi %[[K0]], %[[K1]] : tensor<128x128xi1>
// CHECK-NEXT:    %[[V:.*]] = tt.load %[[P1]], %[[MASK]], %[[OTHER]] cacheModifier = cg {tt.latency = 2 : i32} : tensor<128x128x!tt.ptr<f32>>
// CHECK-NEXT:    tt.return %[[V]] : tensor<128x128xf32>
module {
  tt.func public @load(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32, %arg2: i32) -> (tensor<128x128xf32>) {
    %c1_i64 = arith.constant 1 : i64
    %c256_i64 = arith.constant 256 : i64
    %c256_i32 = arith.constant 256 : i32
    %0 = tt.make_tensor_descriptor %arg0, [%c256_i32, %c256_i32], [%c256_i64, %c1_i64] : <f32>, <tensor<128x128xf32>>
    %3 = tt.descriptor_load %0[%arg1, %arg2] cacheModifier = cg {tt.latency = 2 : i32} : !tt.tensordesc<tensor<128x128xf32>> -> tensor<128x128xf32>
    tt.return %3 : tensor<128x128xf32>
  }
}

// -----

// Integers pad with zero whatever the padding option; the store gets the
// same pointers and mask and keeps its attributes.
// CHECK-LABEL: tt.func public @store_int(
// CHECK-SAME:      %[[BASE:[a-zA-Z0-9_]+]]: !tt.ptr<i8>, %[[I:[a-zA-Z0-9_]+]]: i32, %[[N:[a-zA-Z0-9_]+]]: i32, %[[V:[a-zA-Z0-9_]+]]: tensor<64x32xi8>
// CHECK-NEXT:    arith.constant 1 : i64
// CHECK-NEXT:    arith.constant 256 : i64
// CHECK-NEXT:    %[[S0:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK-NEXT:    %[[S1:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK-NEXT:    %[[PAD:.*]] = arith.constant true
// CHECK:         tt.addptr %{{.*}}, %{{.*}} : tensor<64x32x!tt.ptr<i8>>, tensor<64x32xi64>
// CHECK:         %[[P:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<64x32x!tt.ptr<i8>>, tensor<64x32xi64>
// CHECK:         tt.splat %[[S0]] : i64 -> tensor<64x1xi64>
// CHECK:         tt.splat %[[S1]] : i64 -> tensor<1x32xi64>
// CHECK:         %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<64x32xi1>
// CHECK-NEXT:    tt.store %[[P]], %[[V]], %[[MASK]] {tt.extra} : tensor<64x32x!tt.ptr<i8>>
// CHECK-NOT:     arith.select
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0> : tensor<64x32xi8>
// CHECK-NOT:     arith.select
// CHECK:         tt.load %{{.*}}, %{{.*}}, %[[ZERO]] : tensor<64x32x!tt.ptr<i8>>
module {
  tt.func public @store_int(%arg0: !tt.ptr<i8>, %arg1: i32, %n: i32, %arg3: tensor<64x32xi8>) {
    %c1_i64 = arith.constant 1 : i64
    %c256_i64 = arith.constant 256 : i64
    %0 = tt.make_tensor_descriptor %arg0, [%n, %n], [%c256_i64, %c1_i64] {padding = 2 : i32} : <i8>, <tensor<64x32xi8>>
    tt.descriptor_store %0[%arg1, %arg1], %arg3 {tt.extra} : !tt.tensordesc<tensor<64x32xi8>>, tensor<64x32xi8>
    %1 = tt.descriptor_load %0[%arg1, %arg1] : !tt.tensordesc<tensor<64x32xi8>> -> tensor<64x32xi8>
    tt.return
  }
}

// -----

// padding = nan sets the flag; f16's NaN.
// CHECK-LABEL: tt.func public @nan_1d(
// CHECK:         %[[SIZE:.*]] = arith.constant 100 : i64
// CHECK-NEXT:    %[[PAD:.*]] = arith.constant true
// CHECK:         %[[NAN:.*]] = arith.constant dense<0x7E00> : tensor<64xf16>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf16>
// CHECK-NEXT:    %[[OTHER:.*]] = arith.select %[[PAD]], %[[NAN]], %[[ZERO]] : tensor<64xf16>
// CHECK:         tt.broadcast %{{.*}} : tensor<64xi64> -> tensor<64xi64>
// CHECK:         tt.splat %[[SIZE]] : i64 -> tensor<64xi64>
// CHECK:         tt.load %{{.*}}, %{{.*}}, %[[OTHER]] : tensor<64x!tt.ptr<f16>>
module {
  tt.func public @nan_1d(%arg0: !tt.ptr<f16>, %arg1: i32) -> tensor<64xf16> {
    %c1_i64 = arith.constant 1 : i64
    %c100_i32 = arith.constant 100 : i32
    %0 = tt.make_tensor_descriptor %arg0, [%c100_i32], [%c1_i64] {padding = 2 : i32} : <f16>, <tensor<64xf16>>
    %1 = tt.descriptor_load %0[%arg1] : !tt.tensordesc<tensor<64xf16>> -> tensor<64xf16>
    tt.return %1 : tensor<64xf16>
  }
}

// -----

// Descriptors as function arguments, results and call operands.
// CHECK-LABEL: tt.func public @callee(
// CHECK-SAME:      %[[PTR:[a-zA-Z0-9_]+]]: !tt.ptr<f32>, %[[S0:[a-zA-Z0-9_]+]]: i64, %[[S1:[a-zA-Z0-9_]+]]: i64, %[[T0:[a-zA-Z0-9_]+]]: i64, %[[T1:[a-zA-Z0-9_]+]]: i64, %[[PAD:[a-zA-Z0-9_]+]]: i1) -> (!tt.ptr<f32>, i64, i64, i64, i64, i1)
// CHECK-NEXT:    tt.return %[[PTR]], %[[S0]], %[[S1]], %[[T0]], %[[T1]], %[[PAD]] : !tt.ptr<f32>, i64, i64, i64, i64, i1
// CHECK-LABEL: tt.func public @caller(
// CHECK-SAME:      %[[PTR:[a-zA-Z0-9_]+]]: !tt.ptr<f32>
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : i64
// CHECK:         %[[S0:.*]] = arith.constant 256 : i64
// CHECK-NEXT:    %[[S1:.*]] = arith.constant 256 : i64
// CHECK-NEXT:    %[[PAD:.*]] = arith.constant false
// CHECK-NEXT:    %{{.*}}:6 = tt.call @callee(%[[PTR]], %[[S0]], %[[S1]], %[[C256]], %[[C1]], %[[PAD]]) : (!tt.ptr<f32>, i64, i64, i64, i64, i1) -> (!tt.ptr<f32>, i64, i64, i64, i64, i1)
module {
  tt.func public @callee(%tensordesc: !tt.tensordesc<tensor<128x128xf32>>) -> !tt.tensordesc<tensor<128x128xf32>> {
    tt.return %tensordesc : !tt.tensordesc<tensor<128x128xf32>>
  }

  tt.func public @caller(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c1_i64 = arith.constant 1 : i64
    %c256_i32 = arith.constant 256 : i32
    %c256_i64 = arith.constant 256 : i64
    %0 = tt.make_tensor_descriptor %arg0, [%c256_i32, %c256_i32], [%c256_i64, %c1_i64] : <f32>, <tensor<128x128xf32>>
    %1 = tt.call @callee(%0) : (!tt.tensordesc<tensor<128x128xf32>>) -> !tt.tensordesc<tensor<128x128xf32>>
    tt.return
  }
}

// -----

// Argument attributes move with their argument (a descriptor's to its
// pointer); result attributes stay by position, as MLIR's setFunctionType
// leaves them (so tt.res2 lands on the first size).
// CHECK-LABEL: tt.func public @arg_attr(
// CHECK-SAME:      %arg0: !tt.ptr<f32> {tt.foo = 1 : i32}, %arg1: i64, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i1, %arg6: i32 {tt.divisibility = 16 : i32}) -> tensor<128x128xf32> {
// CHECK:         arith.select %arg5, %{{.*}}, %{{.*}} : tensor<128x128xf32>
// CHECK-LABEL: tt.func private @make(
// CHECK-SAME:      -> (!tt.ptr<f32> {tt.res = 1 : i32}, i64 {tt.res2 = 2 : i32}, i64, i1, i32)
// CHECK:         tt.return %arg0, %{{.*}}, %c1_i64, %false, %arg1 : !tt.ptr<f32>, i64, i64, i1, i32
// CHECK:         tt.func private @use(!tt.ptr<f32>, i64, i64, i1) -> i32
// CHECK-LABEL: tt.func public @caller(
// CHECK-NEXT:    %[[R:.*]]:5 = tt.call @make(%arg0, %arg1) {tt.call_mark} : (!tt.ptr<f32>, i32) -> (!tt.ptr<f32>, i64, i64, i1, i32)
// CHECK-NEXT:    %[[U:.*]] = tt.call @use(%[[R]]#0, %[[R]]#1, %[[R]]#2, %[[R]]#3) : (!tt.ptr<f32>, i64, i64, i1) -> i32
module {
  tt.func public @arg_attr(%arg0: !tt.tensordesc<tensor<128x128xf32>> {tt.foo = 1 : i32}, %arg1: i32 {tt.divisibility = 16 : i32}) -> tensor<128x128xf32> {
    %0 = tt.descriptor_load %arg0[%arg1, %arg1] : !tt.tensordesc<tensor<128x128xf32>> -> tensor<128x128xf32>
    tt.return %0 : tensor<128x128xf32>
  }
  tt.func private @make(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> (!tt.tensordesc<tensor<16xf32>> {tt.res = 1 : i32}, i32 {tt.res2 = 2 : i32}) {
    %c1_i64 = arith.constant 1 : i64
    %0 = tt.make_tensor_descriptor %p, [%n], [%c1_i64] : <f32>, <tensor<16xf32>>
    tt.return %0, %n : !tt.tensordesc<tensor<16xf32>>, i32
  }
  tt.func private @use(!tt.tensordesc<tensor<16xf32>>) -> i32
  tt.func public @caller(%p: !tt.ptr<f32>, %n: i32) -> i32 {
    %0:2 = tt.call @make(%p, %n) {tt.call_mark} : (!tt.ptr<f32>, i32) -> (!tt.tensordesc<tensor<16xf32>>, i32)
    %1 = tt.call @use(%0#0) : (!tt.tensordesc<tensor<16xf32>>) -> i32
    tt.return %1 : i32
  }
}

// -----

// Gather and scatter: rows from x_offsets, columns from y_offset; one set of
// index ranges serves pointers and mask; the gather pads after the mask.
// CHECK-LABEL: tt.func public @gather_scatter(
// CHECK-SAME:      %[[BASE:[a-zA-Z0-9_]+]]: !tt.ptr<bf16>, %[[X:[a-zA-Z0-9_]+]]: tensor<32xi32>, %[[Y:[a-zA-Z0-9_]+]]: i32
// CHECK:         %[[PAD:.*]] = arith.constant false
// CHECK-NEXT:    %[[XE:.*]] = tt.expand_dims %[[X]] {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
// CHECK-NEXT:    %[[YW:.*]] = arith.extsi %[[Y]] : i32 to i64
// CHECK-NEXT:    %[[XW:.*]] = arith.extsi %[[XE]] : tensor<32x1xi32> to tensor<32x1xi64>
// CHECK-NEXT:    tt.splat %[[YW]] : i64 -> tensor<64xi64>
// CHECK:         %[[YE:.*]] = tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
// CHECK-NEXT:    tt.splat %[[BASE]] : !tt.ptr<bf16> -> tensor<32x64x!tt.ptr<bf16>>
// CHECK:         tt.addptr %{{.*}}, %{{.*}} : tensor<32x64x!tt.ptr<bf16>>, tensor<32x64xi64>
// CHECK:         %[[P:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<32x64x!tt.ptr<bf16>>, tensor<32x64xi64>
// CHECK:         arith.cmpi sge, %[[XW]], %{{.*}} : tensor<32x1xi64>
// CHECK:         arith.cmpi sge, %[[YE]], %{{.*}} : tensor<1x64xi64>
// CHECK:         %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<32x64xi1>
// CHECK-NEXT:    %[[NAN:.*]] = arith.constant dense<0x7FC0> : tensor<32x64xbf16>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<32x64xbf16>
// CHECK-NEXT:    %[[OTHER:.*]] = arith.select %[[PAD]], %[[NAN]], %[[ZERO]] : tensor<32x64xbf16>
// CHECK-NEXT:    %[[V:.*]] = tt.load %[[P]], %[[MASK]], %[[OTHER]] : tensor<32x64x!tt.ptr<bf16>>
// CHECK-NEXT:    tt.expand_dims %[[X]] {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
// CHECK:         tt.store %{{.*}}, %[[V]], %{{.*}} : tensor<32x64x!tt.ptr<bf16>>
module {
  tt.func public @gather_scatter(%arg0: !tt.ptr<bf16>, %x: tensor<32xi32>, %y: i32, %m: i32) {
    %c1_i64 = arith.constant 1 : i64
    %c128_i64 = arith.constant 128 : i64
    %0 = tt.make_tensor_descriptor %arg0, [%m, %m], [%c128_i64, %c1_i64] : <bf16>, <tensor<1x64xbf16>>
    %1 = tt.descriptor_gather %0[%x, %y] : (!tt.tensordesc<tensor<1x64xbf16>>, tensor<32xi32>, i32) -> tensor<32x64xbf16>
    tt.descriptor_scatter %0[%x, %y], %1 : !tt.tensordesc<tensor<1x64xbf16>>, tensor<32xi32>, i32, tensor<32x64xbf16>
    tt.return
  }
}

// -----

// Reductions become release/gpu atomics: add is fadd on floats and add on
// integers, and/or/xor map directly.
// CHECK-LABEL: tt.func public @reduce(
// CHECK:         tt.atomic_rmw fadd, release, gpu, %{{.*}}, %arg2, %{{.*}} : (tensor<16x16x!tt.ptr<f32>>, tensor<16x16xf32>, tensor<16x16xi1>) -> tensor<16x16xf32>
// CHECK:         tt.atomic_rmw xor, release, gpu, %{{.*}}, %arg4, %{{.*}} : (tensor<16x16x!tt.ptr<i32>>, tensor<16x16xi32>, tensor<16x16xi1>) -> tensor<16x16xi32>
// CHECK:         tt.atomic_rmw add, release, gpu, %{{.*}}, %arg4, %{{.*}} : (tensor<16x16x!tt.ptr<i32>>, tensor<16x16xi32>, tensor<16x16xi1>) -> tensor<16x16xi32>
// CHECK-NEXT:    tt.return
module {
  tt.func public @reduce(%arg0: !tt.ptr<f32>, %i: i32, %v: tensor<16x16xf32>, %p: !tt.ptr<i32>, %w: tensor<16x16xi32>) {
    %c1_i64 = arith.constant 1 : i64
    %c16_i32 = arith.constant 16 : i32
    %c16_i64 = arith.constant 16 : i64
    %0 = tt.make_tensor_descriptor %arg0, [%c16_i32, %c16_i32], [%c16_i64, %c1_i64] : <f32>, <tensor<16x16xf32>>
    tt.descriptor_reduce add, %0[%i, %i], %v : !tt.tensordesc<tensor<16x16xf32>>, tensor<16x16xf32>
    %1 = tt.make_tensor_descriptor %p, [%c16_i32, %c16_i32], [%c16_i64, %c1_i64] : <i32>, <tensor<16x16xi32>>
    tt.descriptor_reduce xor, %1[%i, %i], %w : !tt.tensordesc<tensor<16x16xi32>>, tensor<16x16xi32>
    tt.descriptor_reduce add, %1[%i, %i], %w : !tt.tensordesc<tensor<16x16xi32>>, tensor<16x16xi32>
    tt.return
  }
}

// -----

// Control flow: a select of descriptors becomes an scf.if keeping the
// select's attributes; scf.for and scf.if carry the expanded values and keep
// their attributes; scf.while carries them too but, as MLIR's structural
// conversion rebuilds it, loses its attributes.
// CHECK-LABEL: tt.func public @control_flow(
// CHECK-SAME:      %[[A:[a-zA-Z0-9_]+]]: !tt.ptr<f32>, %[[B:[a-zA-Z0-9_]+]]: !tt.ptr<f32>, %[[N:[a-zA-Z0-9_]+]]: i32, %[[C:[a-zA-Z0-9_]+]]: i1
// CHECK:         %[[AS0:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK-NEXT:    %[[AS1:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK-NEXT:    %[[APAD:.*]] = arith.constant false
// CHECK-NEXT:    %[[BS0:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK-NEXT:    %[[BS1:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK-NEXT:    %[[BPAD:.*]] = arith.constant false
// CHECK-NEXT:    %[[SEL:.*]]:6 = scf.if %[[C]] -> (!tt.ptr<f32>, i64, i64, i64, i64, i1) {
// CHECK-NEXT:      scf.yield %[[A]], %[[AS0]], %[[AS1]], %c64_i64, %c1_i64, %[[APAD]] : !tt.ptr<f32>, i64, i64, i64, i64, i1
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[B]], %[[BS0]], %[[BS1]], %c64_i64, %c1_i64, %[[BPAD]] : !tt.ptr<f32>, i64, i64, i64, i64, i1
// CHECK-NEXT:    } {tt.mark}
// CHECK-NEXT:    %[[FOR:.*]]:7 = scf.for %[[K:.*]] = %c0_i32 to %[[N]] step %c32_i32 iter_args(%[[ACC:.*]] = %cst, %[[D0:.*]] = %[[SEL]]#0, %[[D1:.*]] = %[[SEL]]#1, %[[D2:.*]] = %[[SEL]]#2, %[[D3:.*]] = %[[SEL]]#3, %[[D4:.*]] = %[[SEL]]#4, %[[D5:.*]] = %[[SEL]]#5) -> (tensor<32x32xf32>, !tt.ptr<f32>, i64, i64, i64, i64, i1) : i32 {
// CHECK-NEXT:      %[[KW:.*]] = arith.extsi %[[K]] : i32 to i64
// CHECK-NEXT:      %[[ZW:.*]] = arith.constant 0 : i64
// CHECK:           arith.select %[[D5]], %{{.*}}, %{{.*}} : tensor<32x32xf32>
// CHECK:           tt.splat %[[D0]] : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
// CHECK:           %[[V:.*]] = tt.load
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[ACC]], %[[V]] : tensor<32x32xf32>
// CHECK-NEXT:      %[[E:.*]]:6 = scf.if %[[C]] -> (!tt.ptr<f32>, i64, i64, i64, i64, i1) {
// CHECK-NEXT:        scf.yield %[[A]], %[[AS0]], %[[AS1]], %c64_i64, %c1_i64, %[[APAD]] : !tt.ptr<f32>, i64, i64, i64, i64, i1
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[D0]], %[[D1]], %[[D2]], %[[D3]], %[[D4]], %[[D5]] : !tt.ptr<f32>, i64, i64, i64, i64, i1
// CHECK-NEXT:      } {tt.if_mark}
// CHECK-NEXT:      scf.yield %[[SUM]], %[[E]]#0, %[[E]]#1, %[[E]]#2, %[[E]]#3, %[[E]]#4, %[[E]]#5 : tensor<32x32xf32>, !tt.ptr<f32>, i64, i64, i64, i64, i1
// CHECK-NEXT:    } {tt.num_stages = 2 : i32}
// CHECK-NEXT:    %[[W:.*]]:7 = scf.while (%{{.*}} = %c0_i32, %{{.*}} = %[[FOR]]#1, %{{.*}} = %[[FOR]]#2, %{{.*}} = %[[FOR]]#3, %{{.*}} = %[[FOR]]#4, %{{.*}} = %[[FOR]]#5, %{{.*}} = %[[FOR]]#6) : (i32, !tt.ptr<f32>, i64, i64, i64, i64, i1) -> (i32, !tt.ptr<f32>, i64, i64, i64, i64, i1) {
// CHECK:           scf.condition(%{{.*}}) %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, !tt.ptr<f32>, i64, i64, i64, i64, i1
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: i32, %[[W0:.*]]: !tt.ptr<f32>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i1):
// CHECK:           tt.splat %[[W0]] : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
// CHECK:           tt.store %{{.*}}, %[[FOR]]#0, %{{.*}} : tensor<32x32x!tt.ptr<f32>>
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %[[I]], %c1_i32 : i32
// CHECK-NEXT:      scf.yield %[[NEXT]], %[[B]], %[[BS0]], %[[BS1]], %c64_i64, %c1_i64, %[[BPAD]] : i32, !tt.ptr<f32>, i64, i64, i64, i64, i1
// CHECK-NEXT:    }
// CHECK-NOT:     tt.while_mark
// CHECK:         tt.splat %[[W]]#1 : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
module {
  tt.func public @control_flow(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %n: i32, %c: i1) -> tensor<32x32xf32> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %a = tt.make_tensor_descriptor %arg0, [%n, %n], [%c64_i64, %c1_i64] : <f32>, <tensor<32x32xf32>>
    %b = tt.make_tensor_descriptor %arg1, [%n, %n], [%c64_i64, %c1_i64] : <f32>, <tensor<32x32xf32>>
    %s = arith.select %c, %a, %b {tt.mark} : !tt.tensordesc<tensor<32x32xf32>>
    %r:2 = scf.for %k = %c0_i32 to %n step %c32_i32 iter_args(%acc = %cst, %d = %s) -> (tensor<32x32xf32>, !tt.tensordesc<tensor<32x32xf32>>) : i32 {
      %v = tt.descriptor_load %d[%k, %c0_i32] : !tt.tensordesc<tensor<32x32xf32>> -> tensor<32x32xf32>
      %sum = arith.addf %acc, %v : tensor<32x32xf32>
      %e = scf.if %c -> !tt.tensordesc<tensor<32x32xf32>> {
        scf.yield %a : !tt.tensordesc<tensor<32x32xf32>>
      } else {
        scf.yield %d : !tt.tensordesc<tensor<32x32xf32>>
      } {tt.if_mark}
      scf.yield %sum, %e : tensor<32x32xf32>, !tt.tensordesc<tensor<32x32xf32>>
    } {tt.num_stages = 2 : i32}
    %w:2 = scf.while (%i = %c0_i32, %d = %r#1) : (i32, !tt.tensordesc<tensor<32x32xf32>>) -> (i32, !tt.tensordesc<tensor<32x32xf32>>) {
      %cond = arith.cmpi slt, %i, %n : i32
      scf.condition(%cond) %i, %d : i32, !tt.tensordesc<tensor<32x32xf32>>
    } do {
    ^bb0(%i: i32, %d: !tt.tensordesc<tensor<32x32xf32>>):
      tt.descriptor_store %d[%i, %i], %r#0 : !tt.tensordesc<tensor<32x32xf32>>, tensor<32x32xf32>
      %next = arith.addi %i, %c1_i32 : i32
      scf.yield %next, %b : i32, !tt.tensordesc<tensor<32x32xf32>>
    } attributes {tt.while_mark}
    %last = tt.descriptor_load %w#1[%w#0, %c0_i32] : !tt.tensordesc<tensor<32x32xf32>> -> tensor<32x32xf32>
    tt.return %last : tensor<32x32xf32>
  }
}

// -----

// Three dimensions; an index that is itself a sign extension is extended
// from its source (createOrFold's in-place fold); f8 NaNs.
// CHECK-LABEL: tt.func public @rank3(
// CHECK:         tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<2xi64> -> tensor<2x1xi64>
// CHECK-NEXT:    tt.expand_dims %{{.*}} {axis = 2 : i32} : tensor<2x1xi64> -> tensor<2x1x1xi64>
// CHECK:         tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x8x!tt.ptr<f32>>
// CHECK-LABEL: tt.func public @f8_and_extension(
// CHECK-SAME:      %{{.*}}: !tt.ptr<f8E4M3FN>, %{{.*}}: !tt.ptr<f8E5M2>, %[[I:[a-zA-Z0-9_]+]]: i16
// CHECK:         %[[I32:.*]] = arith.extsi %[[I]] : i16 to i32
// CHECK-NEXT:    arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT:    arith.extsi %[[I]] : i16 to i64
// CHECK-NEXT:    arith.constant true
// CHECK-NEXT:    arith.extsi %[[I]] : i16 to i64
// CHECK-NEXT:    arith.extsi %[[I]] : i16 to i64
// CHECK-NEXT:    arith.constant dense<0x7F> : tensor<4x8xf8E4M3FN>
// CHECK:         arith.constant dense<0x7E> : tensor<4x8xf8E5M2>
module {
  tt.func public @rank3(%arg0: !tt.ptr<f32>, %i: i32, %n: i32, %s0: i64, %s1: i64) -> tensor<2x4x8xf32> {
    %c1_i64 = arith.constant 1 : i64
    %0 = tt.make_tensor_descriptor %arg0, [%n, %n, %n], [%s0, %s1, %c1_i64] : <f32>, <tensor<2x4x8xf32>>
    %1 = tt.descriptor_load %0[%i, %i, %i] : !tt.tensordesc<tensor<2x4x8xf32>> -> tensor<2x4x8xf32>
    tt.return %1 : tensor<2x4x8xf32>
  }
  tt.func public @f8_and_extension(%p: !tt.ptr<f8E4M3FN>, %q: !tt.ptr<f8E5M2>, %i: i16, %n: i32) -> (tensor<4x8xf8E4M3FN>, tensor<4x8xf8E5M2>) {
    %c1_i64 = arith.constant 1 : i64
    %c8_i64 = arith.constant 8 : i64
    %i32 = arith.extsi %i : i16 to i32
    %0 = tt.make_tensor_descriptor %p, [%n, %i32], [%c8_i64, %c1_i64] {padding = 2 : i32} : <f8E4M3FN>, <tensor<4x8xf8E4M3FN>>
    %1 = tt.descriptor_load %0[%i32, %i32] : !tt.tensordesc<tensor<4x8xf8E4M3FN>> -> tensor<4x8xf8E4M3FN>
    %2 = tt.make_tensor_descriptor %q, [%n, %i32], [%c8_i64, %c1_i64] {padding = 2 : i32} : <f8E5M2>, <tensor<4x8xf8E5M2>>
    %3 = tt.descriptor_load %2[%i32, %i32] : !tt.tensordesc<tensor<4x8xf8E5M2>> -> tensor<4x8xf8E5M2>
    tt.return %1, %3 : tensor<4x8xf8E4M3FN>, tensor<4x8xf8E5M2>
  }
}

// -----

// A descriptor from an op the conversion leaves alone (ub.poison) reaches
// the rewritten load through an unrealized cast, as Triton leaves it.
// CHECK-LABEL: tt.func public @poison(
// CHECK-NEXT:    %[[D:.*]] = ub.poison : !tt.tensordesc<tensor<16xf32>>
// CHECK-NEXT:    %[[V:.*]]:4 = builtin.unrealized_conversion_cast %[[D]] : !tt.tensordesc<tensor<16xf32>> to !tt.ptr<f32>, i64, i64, i1
// CHECK:         arith.select %[[V]]#3
// CHECK:         tt.splat %[[V]]#0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
module {
  tt.func public @poison(%i: i32) -> tensor<16xf32> {
    %0 = ub.poison : !tt.tensordesc<tensor<16xf32>>
    %1 = tt.descriptor_load %0[%i] : !tt.tensordesc<tensor<16xf32>> -> tensor<16xf32>
    tt.return %1 : tensor<16xf32>
  }
}

// -----

// Without descriptors nothing changes.
// CHECK-LABEL: tt.func public @no_descriptors(
// CHECK-NEXT:    %[[P:.*]] = tt.splat %{{.*}} : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    %[[R:.*]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
// CHECK-NEXT:    %[[Q:.*]] = tt.addptr %[[P]], %[[R]] : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
// CHECK-NEXT:    %[[V:.*]] = tt.load %[[Q]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    tt.store %[[Q]], %[[V]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    tt.return
module {
  tt.func public @no_descriptors(%arg0: !tt.ptr<f32>) {
    %0 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %1 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %2 = tt.addptr %0, %1 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %3 = tt.load %2 : tensor<16x!tt.ptr<f32>>
    tt.store %2, %3 : tensor<16x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Triton's own errors for reductions it cannot express as atomics (min and
// max need explicitly signed or unsigned integers).
module {
  tt.func public @reduce_min(%p: !tt.ptr<i32>, %i: i32, %w: tensor<16x16xi32>) {
    %c1_i64 = arith.constant 1 : i64
    %c16_i32 = arith.constant 16 : i32
    %c16_i64 = arith.constant 16 : i64
    %1 = tt.make_tensor_descriptor %p, [%c16_i32, %c16_i32], [%c16_i64, %c1_i64] : <i32>, <tensor<16x16xi32>>
    // expected-error @below {{Cannot fallback on descriptor atomic op, unsupported for type i32}}
    // expected-error @below {{failed to legalize operation 'tt.descriptor_reduce' that was explicitly marked illegal}}
    tt.descriptor_reduce min, %1[%i, %i], %w : !tt.tensordesc<tensor<16x16xi32>>, tensor<16x16xi32>
    tt.return
  }
}

// -----

module {
  tt.func public @reduce_max_float(%p: !tt.ptr<f32>, %i: i32, %v: tensor<16xf32>) {
    %c1_i64 = arith.constant 1 : i64
    %0 = tt.make_tensor_descriptor %p, [%i], [%c1_i64] : <f32>, <tensor<16xf32>>
    // expected-error @below {{Cannot fallback on descriptor atomic op, unsupported for type f32}}
    // expected-error @below {{failed to legalize operation 'tt.descriptor_reduce'}}
    tt.descriptor_reduce max, %0[%i], %v : !tt.tensordesc<tensor<16xf32>>, tensor<16xf32>
    tt.return
  }
}

// -----

// Descriptors reaching ops no pattern rewrites.
module {
  tt.func public @execute_region(%p: !tt.ptr<f32>, %i: i32) {
    %c1_i64 = arith.constant 1 : i64
    %0 = tt.make_tensor_descriptor %p, [%i], [%c1_i64] : <f32>, <tensor<16xf32>>
    // expected-error @below {{failed to legalize operation 'scf.execute_region' that was explicitly marked illegal}}
    %1 = scf.execute_region -> !tt.tensordesc<tensor<16xf32>> {
      scf.yield %0 : !tt.tensordesc<tensor<16xf32>>
    }
    tt.return
  }
}

// -----

module {
  tt.func public @foreign_user(%p: !tt.ptr<f32>, %i: i32) {
    %c1_i64 = arith.constant 1 : i64
    %0 = tt.make_tensor_descriptor %p, [%i], [%c1_i64] : <f32>, <tensor<16xf32>>
    // expected-error @below {{'builtin.unrealized_conversion_cast' op takes a tensor descriptor that this pass rewrites away}}
    %1 = builtin.unrealized_conversion_cast %0 : !tt.tensordesc<tensor<16xf32>> to i64
    tt.return
  }
}
