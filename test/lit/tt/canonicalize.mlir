// Triton 3.6's folders and canonicalization patterns of the tt ops, one
// case per rule, each with the inputs the rule must leave alone.
// RUN: tt-opt %s --split-input-file --canonicalize | FileCheck %s
// RUN: tt-opt %s --split-input-file --canonicalize --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: tt-opt %s --split-input-file --canonicalize --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// A load whose mask is a splat of true loses mask and other (and, as with
// Triton's builder, its discardable attributes); unused, it is then dead,
// unless volatile.
// CHECK-LABEL: tt.func @load_mask_true
// CHECK-NEXT: %[[L:.*]] = tt.load %arg0 cacheModifier = ca : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[V:.*]] = tt.load %arg0 {isVolatile = true} : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: tt.return %[[L]] : tensor<8xf32>
// GENERIC-LABEL: sym_name = "load_mask_true"
// GENERIC: "tt.load"(%arg0) <{boundaryCheck = array<i32>, cache = 2 : i32, evict = 1 : i32, isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC-NOT: tt.contiguity
// GENERIC: "tt.load"(%arg0) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32, isVolatile = true, operandSegmentSizes = array<i32: 1, 0, 0>}>
tt.func @load_mask_true(%p: tensor<8x!tt.ptr<f32>>) -> tensor<8xf32> {
  %true = arith.constant dense<true> : tensor<8xi1>
  %other = arith.constant dense<2.0> : tensor<8xf32>
  %a = tt.load %p, %true, %other cacheModifier = ca {tt.contiguity = dense<8> : tensor<1xi32>} : tensor<8x!tt.ptr<f32>>
  %dead = tt.load %p, %true, %other : tensor<8x!tt.ptr<f32>>
  %volatile = tt.load %p, %true {isVolatile = true} : tensor<8x!tt.ptr<f32>>
  tt.return %a : tensor<8xf32>
}

// -----

// A load whose mask is a splat of false is its `other`; without `other`,
// with a mask that is not constant, with a partial mask or with a scalar
// mask (Triton only folds splat tensors) the load stays.
// CHECK-LABEL: tt.func @load_mask_false
// CHECK-DAG: %[[FALSE:.*]] = arith.constant dense<false> : tensor<8xi1>
// CHECK-DAG: %[[PART:.*]] = arith.constant dense<[true, false, true, false, true, false, true, false]> : tensor<8xi1>
// CHECK-DAG: %[[OTHER:.*]] = arith.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[NO_OTHER:.*]] = tt.load %arg0, %[[FALSE]] : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[VAR:.*]] = tt.load %arg0, %arg1, %[[OTHER]] : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[PARTIAL:.*]] = tt.load %arg0, %[[PART]], %[[OTHER]] : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[SCALAR:.*]] = tt.load %arg2, %[[TRUE]] : !tt.ptr<f32>
// CHECK-NEXT: tt.return %[[OTHER]], %[[NO_OTHER]], %[[VAR]], %[[PARTIAL]], %[[SCALAR]]
tt.func @load_mask_false(%p: tensor<8x!tt.ptr<f32>>, %m: tensor<8xi1>, %s: !tt.ptr<f32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, f32) {
  %false = arith.constant dense<false> : tensor<8xi1>
  %part = arith.constant dense<[true, false, true, false, true, false, true, false]> : tensor<8xi1>
  %other = arith.constant dense<2.0> : tensor<8xf32>
  %strue = arith.constant true
  %a = tt.load %p, %false, %other : tensor<8x!tt.ptr<f32>>
  %b = tt.load %p, %false : tensor<8x!tt.ptr<f32>>
  %c = tt.load %p, %m, %other : tensor<8x!tt.ptr<f32>>
  %d = tt.load %p, %part, %other : tensor<8x!tt.ptr<f32>>
  %e = tt.load %s, %strue : !tt.ptr<f32>
  tt.return %a, %b, %c, %d, %e : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, f32
}

// -----

// A store whose mask is a splat of true stores unmasked (keeping its cache
// and eviction policies); a splat of false erases it; other masks stay.
// CHECK-LABEL: tt.func @store_masks
// CHECK-DAG: %[[PART:.*]] = arith.constant dense<[true, false, true, false, true, false, true, false]> : tensor<8xi1>
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK: tt.store %arg0, %arg1 evictionPolicy = evict_last : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %arg0, %arg1, %arg2 : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %arg0, %arg1, %[[PART]] : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %arg3, %arg4, %[[TRUE]] : !tt.ptr<f32>
// CHECK-NEXT: tt.return
tt.func @store_masks(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf32>, %m: tensor<8xi1>, %s: !tt.ptr<f32>, %sv: f32) {
  %true = arith.constant dense<true> : tensor<8xi1>
  %false = arith.constant dense<false> : tensor<8xi1>
  %part = arith.constant dense<[true, false, true, false, true, false, true, false]> : tensor<8xi1>
  %strue = arith.constant true
  tt.store %p, %v, %true evictionPolicy = evict_last {tt.marker} : tensor<8x!tt.ptr<f32>>
  tt.store %p, %v, %false : tensor<8x!tt.ptr<f32>>
  tt.store %p, %v, %m : tensor<8x!tt.ptr<f32>>
  tt.store %p, %v, %part : tensor<8x!tt.ptr<f32>>
  tt.store %s, %sv, %strue : !tt.ptr<f32>
  tt.return
}

// -----

// Through a block pointer, the unmasked load keeps boundaryCheck and
// padding; the unmasked store, built as Triton 3.6's builder builds it,
// loses its boundaryCheck.
// CHECK-LABEL: tt.func @block_pointer_masks
// CHECK-NEXT: %[[L:.*]] = tt.load %arg0 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf16>>
// CHECK-NEXT: tt.store %arg0, %arg1 : !tt.ptr<tensor<16x16xf16>>
// CHECK-NEXT: tt.return %[[L]]
tt.func @block_pointer_masks(%p: !tt.ptr<tensor<16x16xf16>>, %v: tensor<16x16xf16>) -> tensor<16x16xf16> {
  %true = arith.constant dense<true> : tensor<16x16xi1>
  %a = tt.load %p, %true {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x16xf16>>
  tt.store %p, %v, %true {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<16x16xf16>>
  tt.return %a : tensor<16x16xf16>
}

// -----

// addptr by a zero offset (scalar or splat) is its pointer; other offsets
// stay.
// CHECK-LABEL: tt.func @addptr_zero
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1> : tensor<8xi32>
// CHECK-NEXT: %[[P:.*]] = tt.addptr %arg0, %[[ONE]] : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
// CHECK-NEXT: %[[Q:.*]] = tt.addptr %arg0, %arg2 : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
// CHECK-NEXT: tt.return %arg0, %arg1, %[[P]], %[[Q]]
tt.func @addptr_zero(%t: tensor<8x!tt.ptr<f16>>, %s: !tt.ptr<f16>, %o: tensor<8xi32>) -> (tensor<8x!tt.ptr<f16>>, !tt.ptr<f16>, tensor<8x!tt.ptr<f16>>, tensor<8x!tt.ptr<f16>>) {
  %zeros = arith.constant dense<0> : tensor<8xi32>
  %zero = arith.constant 0 : i64
  %ones = arith.constant dense<1> : tensor<8xi32>
  %a = tt.addptr %t, %zeros : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
  %b = tt.addptr %s, %zero : !tt.ptr<f16>, i64
  %c = tt.addptr %t, %ones : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
  %d = tt.addptr %t, %o : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
  tt.return %a, %b, %c, %d : tensor<8x!tt.ptr<f16>>, !tt.ptr<f16>, tensor<8x!tt.ptr<f16>>, tensor<8x!tt.ptr<f16>>
}

// -----

// advance by all-zero offsets is its pointer; a non-zero or non-constant
// offset keeps it.
// CHECK-LABEL: tt.func @advance_zero
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i32
// CHECK: %[[A:.*]] = tt.advance %arg0, [%[[C0]], %[[C8]]] : <tensor<16x16xf16>>
// CHECK-NEXT: %[[B:.*]] = tt.advance %arg0, [%arg1, %[[C0]]] : <tensor<16x16xf16>>
// CHECK-NEXT: tt.return %arg0, %[[A]], %[[B]]
tt.func @advance_zero(%p: !tt.ptr<tensor<16x16xf16>>, %i: i32) -> (!tt.ptr<tensor<16x16xf16>>, !tt.ptr<tensor<16x16xf16>>, !tt.ptr<tensor<16x16xf16>>) {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %a = tt.advance %p, [%c0, %c0] : <tensor<16x16xf16>>
  %b = tt.advance %p, [%c0, %c8] : <tensor<16x16xf16>>
  %c = tt.advance %p, [%i, %c0] : <tensor<16x16xf16>>
  tt.return %a, %b, %c : !tt.ptr<tensor<16x16xf16>>, !tt.ptr<tensor<16x16xf16>>, !tt.ptr<tensor<16x16xf16>>
}

// -----

// A one-element make_range is a constant; longer ranges stay.
// CHECK-LABEL: tt.func @make_range_one
// CHECK-DAG: %[[C:.*]] = arith.constant dense<7> : tensor<1xi32>
// CHECK-DAG: %[[N:.*]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-DAG: %[[R:.*]] = tt.make_range {end = 9 : i32, start = 7 : i32} : tensor<2xi32>
// CHECK: tt.return %[[C]], %[[N]], %[[R]]
tt.func @make_range_one() -> (tensor<1xi32>, tensor<1xi32>, tensor<2xi32>) {
  %a = tt.make_range {end = 8 : i32, start = 7 : i32} : tensor<1xi32>
  %b = tt.make_range {end = 0 : i32, start = -1 : i32} : tensor<1xi32>
  %c = tt.make_range {end = 9 : i32, start = 7 : i32} : tensor<2xi32>
  tt.return %a, %b, %c : tensor<1xi32>, tensor<1xi32>, tensor<2xi32>
}

// -----

// splat of a scalar constant is a splat constant; of a value it stays.
// CHECK-LABEL: tt.func @splat_constant
// CHECK-DAG: %[[I:.*]] = arith.constant dense<3> : tensor<4x8xi32>
// CHECK-DAG: %[[F:.*]] = arith.constant dense<1.500000e+00> : tensor<16xf16>
// CHECK-DAG: %[[S:.*]] = tt.splat %arg0 : i32 -> tensor<4x8xi32>
// CHECK: tt.return %[[I]], %[[F]], %[[S]]
tt.func @splat_constant(%x: i32) -> (tensor<4x8xi32>, tensor<16xf16>, tensor<4x8xi32>) {
  %c3 = arith.constant 3 : i32
  %h = arith.constant 1.5 : f16
  %a = tt.splat %c3 : i32 -> tensor<4x8xi32>
  %b = tt.splat %h : f16 -> tensor<16xf16>
  %c = tt.splat %x : i32 -> tensor<4x8xi32>
  tt.return %a, %b, %c : tensor<4x8xi32>, tensor<16xf16>, tensor<4x8xi32>
}

// -----

// expand_dims of splat(s) is splat(s); of a constant (splat or not) it is
// a constant.
// CHECK-LABEL: tt.func @expand_dims_folds
// CHECK-DAG: %[[SPLAT:.*]] = arith.constant dense<5> : tensor<1x4xi32>
// CHECK-DAG: %[[DATA:.*]] = arith.constant dense<{{\[}}[0], [1], [2], [3]]> : tensor<4x1xi32>
// CHECK-DAG: %[[S:.*]] = tt.splat %arg0 : f32 -> tensor<4x1xf32>
// CHECK-NOT: tt.expand_dims
// CHECK: tt.return %[[S]], %[[SPLAT]], %[[DATA]]
tt.func @expand_dims_folds(%x: f32) -> (tensor<4x1xf32>, tensor<1x4xi32>, tensor<4x1xi32>) {
  %s = tt.splat %x : f32 -> tensor<4xf32>
  %a = tt.expand_dims %s {axis = 1 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  %c5 = arith.constant dense<5> : tensor<4xi32>
  %b = tt.expand_dims %c5 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %d = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %c = tt.expand_dims %d {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  tt.return %a, %b, %c : tensor<4x1xf32>, tensor<1x4xi32>, tensor<4x1xi32>
}

// -----

// expand_dims(broadcast(x)) becomes broadcast(expand_dims(x)); the new
// expand_dims keeps the location of the old one, the new broadcast that of
// the old broadcast.
// CHECK-LABEL: tt.func @expand_dims_of_broadcast
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %arg0 {axis = 0 : i32} : tensor<1xf32> -> tensor<1x1xf32>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]] : tensor<1x1xf32> -> tensor<1x16xf32>
// CHECK-NEXT: tt.return %[[B]]
// LOC-LABEL: tt.func @expand_dims_of_broadcast
// LOC-NEXT: tt.expand_dims {{.*}} loc(#[[ELOC:loc[0-9]+]])
// LOC-NEXT: tt.broadcast {{.*}} loc(#[[BLOC:loc[0-9]+]])
// LOC-DAG: #[[ELOC]] = loc("expand")
// LOC-DAG: #[[BLOC]] = loc("broadcast")
tt.func @expand_dims_of_broadcast(%x: tensor<1xf32>) -> tensor<1x16xf32> {
  %b = tt.broadcast %x : tensor<1xf32> -> tensor<16xf32> loc("broadcast")
  %e = tt.expand_dims %b {axis = 0 : i32} : tensor<16xf32> -> tensor<1x16xf32> loc("expand")
  tt.return %e : tensor<1x16xf32>
}

// -----

// The same with layouts: a slice source expands to the slice's parent,
// the layout the replaced expand_dims already had.
// CHECK-LABEL: tt.func @expand_dims_of_broadcast_layout
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %arg0 {axis = 1 : i32} : tensor<1xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<1x1xf32, #blocked>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]] : tensor<1x1xf32, #blocked> -> tensor<32x1xf32, #blocked>
// CHECK-NEXT: tt.return %[[B]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
#slice = #ttg.slice<{dim = 1, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32} {
  tt.func @expand_dims_of_broadcast_layout(%x: tensor<1xf32, #slice>) -> tensor<32x1xf32, #blocked> {
    %b = tt.broadcast %x : tensor<1xf32, #slice> -> tensor<32xf32, #slice>
    %e = tt.expand_dims %b {axis = 1 : i32} : tensor<32xf32, #slice> -> tensor<32x1xf32, #blocked>
    tt.return %e : tensor<32x1xf32, #blocked>
  }
}

// -----

// A chain broadcast -> expand_dims -> broadcast -> reshape: expand_dims
// moves above the first broadcast, the two broadcasts merge, and the
// reshape of the result stays.
// CHECK-LABEL: tt.func @broadcast_expand_dims_reshape_chain
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %arg0 {axis = 1 : i32} : tensor<1xf32> -> tensor<1x1xf32>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]] : tensor<1x1xf32> -> tensor<8x4xf32>
// CHECK-NEXT: %[[R:.*]] = tt.reshape %[[B]] : tensor<8x4xf32> -> tensor<32xf32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @broadcast_expand_dims_reshape_chain(%x: tensor<1xf32>) -> tensor<32xf32> {
  %b = tt.broadcast %x : tensor<1xf32> -> tensor<8xf32>
  %e = tt.expand_dims %b {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  %bb = tt.broadcast %e : tensor<8x1xf32> -> tensor<8x4xf32>
  %r = tt.reshape %bb : tensor<8x4xf32> -> tensor<32xf32>
  tt.return %r : tensor<32xf32>
}

// -----

// reshape to its own type is its source, unless reordering is allowed;
// reshape of a constant is a constant (data in row-major order).
// CHECK-LABEL: tt.func @reshape_folds
// CHECK-DAG: %[[SPLAT:.*]] = arith.constant dense<1.000000e+00> : tensor<2x4xf32>
// CHECK-DAG: %[[DATA:.*]] = arith.constant dense<{{\[}}[0, 1], [2, 3]]> : tensor<2x2xi32>
// CHECK-DAG: %[[KEEP:.*]] = tt.reshape %arg0 allow_reorder : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK: tt.return %arg0, %[[KEEP]], %[[SPLAT]], %[[DATA]]
tt.func @reshape_folds(%t: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x4xf32>, tensor<2x2xi32>) {
  %a = tt.reshape %t : tensor<4x8xf32> -> tensor<4x8xf32>
  %b = tt.reshape %t allow_reorder : tensor<4x8xf32> -> tensor<4x8xf32>
  %one = arith.constant dense<1.0> : tensor<8xf32>
  %c = tt.reshape %one : tensor<8xf32> -> tensor<2x4xf32>
  %d = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %e = tt.reshape %d : tensor<4xi32> -> tensor<2x2xi32>
  tt.return %a, %b, %c, %e : tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x4xf32>, tensor<2x2xi32>
}

// -----

// reshape(reshape(x)) is one reshape of x, reordering allowed when either
// allowed it; reshape(splat(s)) is splat(s); a reshape marked
// efficient_layout is left alone.
// CHECK-LABEL: tt.func @reshape_patterns
// CHECK-DAG: %[[R1:.*]] = tt.reshape %arg0 : tensor<4x8xf32> -> tensor<2x16xf32>
// CHECK-DAG: %[[R2:.*]] = tt.reshape %arg0 allow_reorder : tensor<4x8xf32> -> tensor<2x16xf32>
// CHECK-DAG: %[[S:.*]] = tt.splat %arg1 : f32 -> tensor<2x4xf32>
// CHECK-DAG: %[[INNER:.*]] = tt.reshape %arg0 : tensor<4x8xf32> -> tensor<32xf32>
// CHECK-DAG: %[[E:.*]] = tt.reshape %[[INNER]] efficient_layout : tensor<32xf32> -> tensor<2x16xf32>
// CHECK: tt.return %[[R1]], %[[R2]], %[[S]], %[[E]]
tt.func @reshape_patterns(%t: tensor<4x8xf32>, %x: f32) -> (tensor<2x16xf32>, tensor<2x16xf32>, tensor<2x4xf32>, tensor<2x16xf32>) {
  %r1 = tt.reshape %t : tensor<4x8xf32> -> tensor<32xf32>
  %a = tt.reshape %r1 : tensor<32xf32> -> tensor<2x16xf32>
  %r2 = tt.reshape %t allow_reorder : tensor<4x8xf32> -> tensor<32xf32>
  %b = tt.reshape %r2 : tensor<32xf32> -> tensor<2x16xf32>
  %s = tt.splat %x : f32 -> tensor<8xf32>
  %c = tt.reshape %s : tensor<8xf32> -> tensor<2x4xf32>
  %d = tt.reshape %r1 efficient_layout : tensor<32xf32> -> tensor<2x16xf32>
  tt.return %a, %b, %c, %d : tensor<2x16xf32>, tensor<2x16xf32>, tensor<2x4xf32>, tensor<2x16xf32>
}

// -----

// broadcast to its own type is its source; of a splat constant it is a
// splat constant; of a non-splat constant it stays.
// CHECK-LABEL: tt.func @broadcast_folds
// CHECK-DAG: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<8x2xf32>
// CHECK-DAG: %[[D:.*]] = arith.constant dense<{{\[}}[1], [2]]> : tensor<2x1xi32>
// CHECK-DAG: %[[B:.*]] = tt.broadcast %[[D]] : tensor<2x1xi32> -> tensor<2x4xi32>
// CHECK: tt.return %arg0, %[[C]], %[[B]]
tt.func @broadcast_folds(%t: tensor<1x8xf32>) -> (tensor<1x8xf32>, tensor<8x2xf32>, tensor<2x4xi32>) {
  %a = tt.broadcast %t : tensor<1x8xf32> -> tensor<1x8xf32>
  %one = arith.constant dense<1.0> : tensor<8x1xf32>
  %b = tt.broadcast %one : tensor<8x1xf32> -> tensor<8x2xf32>
  %d = arith.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %c = tt.broadcast %d : tensor<2x1xi32> -> tensor<2x4xi32>
  tt.return %a, %b, %c : tensor<1x8xf32>, tensor<8x2xf32>, tensor<2x4xi32>
}

// -----

// broadcast(splat(s)) is splat(s), broadcast(broadcast(x)) one broadcast
// of x; the new op sits at the fusion of both matched locations.
// CHECK-LABEL: tt.func @broadcast_patterns
// CHECK-NEXT: %[[S:.*]] = tt.splat %arg0 : f32 -> tensor<4x8xf32>
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %arg1 : tensor<1x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: tt.return %[[S]], %[[B]]
// LOC-LABEL: tt.func @broadcast_patterns
// LOC-NEXT: tt.splat {{.*}} loc(#[[SLOC:loc[0-9]+]])
// LOC-NEXT: tt.broadcast {{.*}} loc(#[[BLOC:loc[0-9]+]])
// LOC-DAG: #[[SLOC]] = loc(fused[#[[OUTER1:loc[0-9]+]], #[[INNER1:loc[0-9]+]]])
// LOC-DAG: #[[OUTER1]] = loc("bcast_of_splat")
// LOC-DAG: #[[INNER1]] = loc("splat")
// LOC-DAG: #[[BLOC]] = loc(fused[#[[OUTER2:loc[0-9]+]], #[[INNER2:loc[0-9]+]]])
// LOC-DAG: #[[OUTER2]] = loc("outer")
// LOC-DAG: #[[INNER2]] = loc("inner")
tt.func @broadcast_patterns(%x: f32, %v: tensor<1x1xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = tt.splat %x : f32 -> tensor<1x8xf32> loc("splat")
  %a = tt.broadcast %s : tensor<1x8xf32> -> tensor<4x8xf32> loc("bcast_of_splat")
  %i = tt.broadcast %v : tensor<1x1xf32> -> tensor<1x8xf32> loc("inner")
  %b = tt.broadcast %i : tensor<1x8xf32> -> tensor<4x8xf32> loc("outer")
  tt.return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// trans with the identity order is its source; trans(trans(x)) is one
// trans of x with the composed order, so two inverse transposes cancel;
// a transposed splat constant is a constant, a non-splat one stays.
// CHECK-LABEL: tt.func @trans_folds
// CHECK-DAG: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<8x4xf32>
// CHECK-DAG: %[[D:.*]] = arith.constant dense<{{\[}}[1, 2]]> : tensor<1x2xi32>
// CHECK-DAG: %[[T:.*]] = tt.trans %arg1 {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
// CHECK-DAG: %[[DT:.*]] = tt.trans %[[D]] {order = array<i32: 1, 0>} : tensor<1x2xi32> -> tensor<2x1xi32>
// CHECK: tt.return %arg0, %arg0, %[[T]], %[[C]], %[[DT]]
tt.func @trans_folds(%t: tensor<4x8xf32>, %u: tensor<2x4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x2x4xf32>, tensor<8x4xf32>, tensor<2x1xi32>) {
  %a = tt.trans %t {order = array<i32: 0, 1>} : tensor<4x8xf32> -> tensor<4x8xf32>
  %t1 = tt.trans %t {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %b = tt.trans %t1 {order = array<i32: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %u1 = tt.trans %u {order = array<i32: 1, 2, 0>} : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  %c = tt.trans %u1 {order = array<i32: 1, 2, 0>} : tensor<4x8x2xf32> -> tensor<8x2x4xf32>
  %one = arith.constant dense<1.0> : tensor<4x8xf32>
  %d = tt.trans %one {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %data = arith.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %e = tt.trans %data {order = array<i32: 1, 0>} : tensor<1x2xi32> -> tensor<2x1xi32>
  tt.return %a, %b, %c, %d, %e : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x2x4xf32>, tensor<8x4xf32>, tensor<2x1xi32>
}

// -----

// fp_to_fp to its own type is its source; of +0.0 or -0.0 it is that zero
// in the target format (FNUZ formats have no -0.0: +0.0); other constants
// and non-constants stay.
// CHECK-LABEL: tt.func @fp_to_fp_folds
// CHECK-DAG: %[[POS:.*]] = arith.constant dense<0.000000e+00> : tensor<8xf8E4M3FNUZ>
// CHECK-DAG: %[[NEG:.*]] = arith.constant dense<-0.000000e+00> : tensor<8xf8E4M3FN>
// CHECK-DAG: %[[NEG_FNUZ:.*]] = arith.constant dense<0.000000e+00> : tensor<8xf8E5M2FNUZ>
// CHECK-DAG: %[[SCALAR:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK-DAG: %[[INF:.*]] = arith.constant dense<0xFF800000> : tensor<8xf32>
// CHECK-DAG: %[[KEEP:.*]] = tt.fp_to_fp %[[INF]], rounding = rtne : tensor<8xf32> -> tensor<8xf8E4M3FNUZ>
// CHECK-DAG: %[[VAR:.*]] = tt.fp_to_fp %arg0, rounding = rtne : tensor<8xf32> -> tensor<8xf8E4M3FNUZ>
// CHECK: tt.return %arg0, %[[POS]], %[[NEG]], %[[NEG_FNUZ]], %[[SCALAR]], %[[KEEP]], %[[VAR]]
tt.func @fp_to_fp_folds(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf8E4M3FNUZ>, tensor<8xf8E4M3FN>, tensor<8xf8E5M2FNUZ>, bf16, tensor<8xf8E4M3FNUZ>, tensor<8xf8E4M3FNUZ>) {
  %same = tt.fp_to_fp %x : tensor<8xf32> -> tensor<8xf32>
  %pos = arith.constant dense<0.0> : tensor<8xf32>
  %neg = arith.constant dense<-0.0> : tensor<8xf32>
  %spos = arith.constant 0.0 : f32
  %inf = arith.constant dense<0xFF800000> : tensor<8xf32>
  %a = tt.fp_to_fp %pos, rounding = rtne : tensor<8xf32> -> tensor<8xf8E4M3FNUZ>
  %b = tt.fp_to_fp %neg, rounding = rtne : tensor<8xf32> -> tensor<8xf8E4M3FN>
  %c = tt.fp_to_fp %neg, rounding = rtne : tensor<8xf32> -> tensor<8xf8E5M2FNUZ>
  %d = tt.fp_to_fp %spos, rounding = rtz : f32 -> bf16
  %e = tt.fp_to_fp %inf, rounding = rtne : tensor<8xf32> -> tensor<8xf8E4M3FNUZ>
  %f = tt.fp_to_fp %x, rounding = rtne : tensor<8xf32> -> tensor<8xf8E4M3FNUZ>
  tt.return %same, %a, %b, %c, %d, %e, %f : tensor<8xf32>, tensor<8xf8E4M3FNUZ>, tensor<8xf8E4M3FN>, tensor<8xf8E5M2FNUZ>, bf16, tensor<8xf8E4M3FNUZ>, tensor<8xf8E4M3FNUZ>
}

// -----

// A one-element make_range broadcast to a column is one constant (Triton's
// own make_range case: make_range, expand_dims and broadcast all fold).
// CHECK-LABEL: tt.func @make_range_chain
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<0> : tensor<128x1xi32>
// CHECK-NEXT: tt.return %[[C]]
tt.func @make_range_chain() -> tensor<128x1xi32> {
  %a = tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32>
  %b = tt.expand_dims %a {axis = 1 : i32} : tensor<1xi32> -> tensor<1x1xi32>
  %c = tt.broadcast %b : tensor<1x1xi32> -> tensor<128x1xi32>
  tt.return %c : tensor<128x1xi32>
}
