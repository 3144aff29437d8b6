// tritongpu-optimize-thread-locality: a reordering reshape feeding a
// reduction gets Triton's default blocked layout with the reduced axis
// slowest, marked efficient_layout, and converts back for its users; a
// gather gets a warp-local layout; a reduction of a load inside a loop,
// accumulated into a loop-carried value, reduces only the thread's own
// elements in the loop (into a new per-thread accumulator) and finishes the
// reduction after the loop.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-optimize-thread-locality | FileCheck %s

// CHECK-DAG: #[[SRC3:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[OLD:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[NEW:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @reshape_reduce
  // CHECK: %[[R:.*]] = tt.reshape %{{.*}} allow_reorder efficient_layout : tensor<4x16x32xf32, #[[SRC3]]> -> tensor<64x32xf32, #[[NEW]]>
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[R]] : tensor<64x32xf32, #[[NEW]]> -> tensor<64x32xf32, #[[OLD]]>
  // CHECK-NEXT: "tt.reduce"(%[[C]]) <{axis = 1 : i32}>
  // CHECK: "tt.reduce"(%[[C]]) <{axis = 1 : i32}>
  tt.func @reshape_reduce(%x: tensor<4x16x32xf32, #blocked1>) -> (tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) {
    %r = tt.reshape %x allow_reorder : tensor<4x16x32xf32, #blocked1> -> tensor<64x32xf32, #blocked>
    %s = "tt.reduce"(%r) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<64x32xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %m = "tt.reduce"(%r) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.maxnumf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<64x32xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return %s, %m : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }

  // Left alone: no allow_reorder; reductions along two different axes; no
  // reduction user. (An unused reduction would be erased by the greedy
  // driver first and not count.)
  // CHECK-LABEL: @reshape_left_alone
  // CHECK-NOT: efficient_layout
  // CHECK-NOT: ttg.convert_layout
  // CHECK: tt.return
  tt.func @reshape_left_alone(%x: tensor<4x16x32xf32, #blocked1>) -> (tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<64x32xf32, #blocked>) {
    %r = tt.reshape %x : tensor<4x16x32xf32, #blocked1> -> tensor<64x32xf32, #blocked>
    %s = "tt.reduce"(%r) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<64x32xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r2 = tt.reshape %x allow_reorder : tensor<4x16x32xf32, #blocked1> -> tensor<64x32xf32, #blocked>
    %t = "tt.reduce"(%r2) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<64x32xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %u = "tt.reduce"(%r2) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<64x32xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %v = "tt.reduce"(%r2) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<64x32xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r3 = tt.reshape %x allow_reorder : tensor<4x16x32xf32, #blocked1> -> tensor<64x32xf32, #blocked>
    tt.return %s, %t, %u, %v, %r3 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<64x32xf32, #blocked>
  }
}

// -----

// Left alone: the reduced axis already lies in one thread, and the default
// layout would give each thread another number of elements (an expensive
// view).
#blocked = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 32], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @already_local
  // CHECK-NOT: efficient_layout
  // CHECK-NOT: ttg.convert_layout
  // CHECK: tt.return
  tt.func @already_local(%x: tensor<1x128x32xf32, #blocked1>, %y: tensor<1x4x8xf32, #blocked3>) -> (tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked2}>>) {
    %r = tt.reshape %x allow_reorder : tensor<1x128x32xf32, #blocked1> -> tensor<128x32xf32, #blocked>
    %s = "tt.reduce"(%r) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<128x32xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r2 = tt.reshape %y allow_reorder : tensor<1x4x8xf32, #blocked3> -> tensor<4x8xf32, #blocked2>
    %t = "tt.reduce"(%r2) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<4x8xf32, #blocked2>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    tt.return %s, %t : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked2}>>
  }
}

// -----

// A gather gets the warp-local layout: the gather axis fastest, as many
// lanes along it as it has elements, the rest spread in thread order; the
// operands convert to it and the result converts back.
// CHECK-DAG: #[[G0:.*]] = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[G1:.*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[G3:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 2, 16], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [16, 2], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [2, 2, 1], threadsPerWarp = [16, 2, 1], warpsPerCTA = [2, 1, 2], order = [1, 0, 2]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @gather_axis_0
  // CHECK-NEXT: %[[S:.*]] = ttg.convert_layout %arg0 : tensor<64x64xf32, #{{.*}}> -> tensor<64x64xf32, #[[G0]]>
  // CHECK-NEXT: %[[I:.*]] = ttg.convert_layout %arg1 : tensor<64x64xi32, #{{.*}}> -> tensor<64x64xi32, #[[G0]]>
  // CHECK-NEXT: %[[G:.*]] = tt.gather %[[S]][%[[I]]] {axis = 0 : i32, efficient_layout} : (tensor<64x64xf32, #[[G0]]>, tensor<64x64xi32, #[[G0]]>) -> tensor<64x64xf32, #[[G0]]>
  // CHECK-NEXT: %[[R:.*]] = ttg.convert_layout %[[G]] : tensor<64x64xf32, #[[G0]]> -> tensor<64x64xf32, #{{.*}}>
  // CHECK-NEXT: tt.return %[[R]]
  tt.func @gather_axis_0(%arg0: tensor<64x64xf32, #blocked>, %arg1: tensor<64x64xi32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %0 = tt.gather %arg0[%arg1] {axis = 0 : i32} : (tensor<64x64xf32, #blocked>, tensor<64x64xi32, #blocked>) -> tensor<64x64xf32, #blocked>
    tt.return %0 : tensor<64x64xf32, #blocked>
  }

  // Broadcast index columns, wide indices (kept i64, as in 3.6).
  // CHECK-LABEL: @gather_axis_1
  // CHECK: tt.gather {{.*}} efficient_layout} : (tensor<64x64xf32, #[[G1]]>, tensor<64x1xi64, #[[G1]]>) -> tensor<64x1xf32, #[[G1]]>
  tt.func @gather_axis_1(%arg0: tensor<64x64xf32, #blocked>, %arg1: tensor<64x1xi64, #blocked>) -> tensor<64x1xf32, #blocked> {
    %0 = tt.gather %arg0[%arg1] {axis = 1 : i32} : (tensor<64x64xf32, #blocked>, tensor<64x1xi64, #blocked>) -> tensor<64x1xf32, #blocked>
    tt.return %0 : tensor<64x1xf32, #blocked>
  }

  // CHECK-LABEL: @gather_3d
  // CHECK: tt.gather {{.*}} -> tensor<32x4x2xf32, #[[G3]]>
  tt.func @gather_3d(%arg0: tensor<32x4x16xf32, #blocked3>, %arg1: tensor<32x4x2xi32, #blocked3>) -> tensor<32x4x2xf32, #blocked3> {
    %0 = tt.gather %arg0[%arg1] {axis = 2 : i32} : (tensor<32x4x16xf32, #blocked3>, tensor<32x4x2xi32, #blocked3>) -> tensor<32x4x2xf32, #blocked3>
    tt.return %0 : tensor<32x4x2xf32, #blocked3>
  }

  // Left alone: rank 1.
  // CHECK-LABEL: @gather_rank_1
  // CHECK-NOT: ttg.convert_layout
  // CHECK: tt.gather %arg0[%arg1] {axis = 0 : i32} :
  tt.func @gather_rank_1(%arg0: tensor<128xf32, #b1>, %arg1: tensor<128xi32, #b1>) -> tensor<128xf32, #b1> {
    %0 = tt.gather %arg0[%arg1] {axis = 0 : i32} : (tensor<128xf32, #b1>, tensor<128xi32, #b1>) -> tensor<128xf32, #b1>
    tt.return %0 : tensor<128xf32, #b1>
  }
}

// -----

// The thread and warp orders come from the linear form of the layout
// (which skips broadcast lanes and warps), not from the blocked order:
// [2, 0, 1] here where the blocked order would give [2, 1, 0], as the
// triton==3.6.0 wheel's pass does.
// CHECK: #[[WARP_LOCAL:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [2, 2, 1], order = [2, 0, 1]}>
// CHECK-LABEL: @gather_order_differs
// CHECK: tt.gather {{.*}} {axis = 2 : i32, efficient_layout} : (tensor<32x2x32xf32, #[[WARP_LOCAL]]>
#blocked = #ttg.blocked<{sizePerThread = [2, 2, 1], threadsPerWarp = [16, 2, 1], warpsPerCTA = [2, 1, 2], order = [1, 0, 2]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @gather_order_differs(%arg0: tensor<32x2x32xf32, #blocked>, %arg1: tensor<32x2x2xi32, #blocked>) -> tensor<32x2x2xf32, #blocked> {
    %0 = tt.gather %arg0[%arg1] {axis = 2 : i32} : (tensor<32x2x32xf32, #blocked>, tensor<32x2x2xi32, #blocked>) -> tensor<32x2x2xf32, #blocked>
    tt.return %0 : tensor<32x2x2xf32, #blocked>
  }
}

// -----

// A gather already marked efficient_layout is left alone.
// CHECK-LABEL: @gather_efficient
// CHECK: tt.gather %{{.*}}[%{{.*}}] {axis = 0 : i32, efficient_layout}
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @gather_efficient(%src: tensor<16x32xf32, #blocked>, %idx: tensor<16x32xi32, #blocked>) -> tensor<16x32xf32, #blocked> {
    %g = tt.gather %src[%idx] {axis = 0 : i32, efficient_layout} : (tensor<16x32xf32, #blocked>, tensor<16x32xi32, #blocked>) -> tensor<16x32xf32, #blocked>
    tt.return %g : tensor<16x32xf32, #blocked>
  }
}

// -----

// Eight elements per thread along the axis (4 per thread, 2 repetitions):
// the view is 16x8x8 with the thread's eight last; the loop carries a 16x8
// partial from 0.0 (the neutral element of addf); the old iter arg is passed
// through, the old reduction and update are left dead; after the loop the
// partials are reduced along axis 1, converted back and added to the old
// initial value.
// CHECK-DAG: #[[B:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B3:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-LABEL: @loop_sum
// CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #[[B]]}>>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x8xf32, #ttg.slice<{dim = 2, parent = #[[B3]]}>>
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]], %[[PART:.*]] = %[[ZERO]])
// CHECK: %[[X:.*]] = tt.load
// CHECK: "tt.reduce"(%[[X]]) <{axis = 1 : i32}>
// CHECK: %[[V:.*]] = tt.reshape %[[X]] allow_reorder efficient_layout : tensor<16x64xf32, #[[B]]> -> tensor<16x8x8xf32, #[[B3]]>
// CHECK-NEXT: %[[R:.*]] = "tt.reduce"(%[[V]]) <{axis = 2 : i32}>
// CHECK: }) : (tensor<16x8x8xf32, #[[B3]]>) -> tensor<16x8xf32, #ttg.slice<{dim = 2, parent = #[[B3]]}>>
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[PART]], %[[R]]
// CHECK-NEXT: arith.addf %[[ACC]]
// CHECK-NEXT: scf.yield %[[ACC]], %[[NEW]]
// CHECK: %[[M:.*]] = "tt.reduce"(%[[LOOP]]#1) <{axis = 1 : i32}>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[M]] : tensor<16xf32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #[[B3]]}>}>> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #[[B]]}>>
// CHECK-NEXT: %[[OUT:.*]] = arith.addf %[[INIT]], %[[C]]
// CHECK-NEXT: tt.return %[[OUT]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loop_sum(%p: tensor<16x64x!tt.ptr<f32>, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %init = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #blocked>
      %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %c = arith.addf %a, %b : f32
        tt.reduce.return %c : f32
      }) : (tensor<16x64xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %n = arith.addf %acc, %s : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %n : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.return %r : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

// maxnumf starts its partials from -inf; the old initial value is folded in
// after the loop with the same op.
// CHECK-LABEL: @loop_max
// CHECK: %[[INIT:.*]] = arith.constant dense<0xFF800000> : tensor<16xf32
// CHECK-NEXT: %[[NEG:.*]] = arith.constant dense<0xFF800000> : tensor<16x8xf32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]], %{{.*}} = %[[NEG]])
// CHECK: arith.maxnumf
// CHECK: %[[C:.*]] = ttg.convert_layout
// CHECK-NEXT: arith.maxnumf %[[INIT]], %[[C]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loop_max(%p: tensor<16x64x!tt.ptr<f32>, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %init = arith.constant dense<0xFF800000> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #blocked>
      %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %c = arith.maxnumf %a, %b : f32
        tt.reduce.return %c : f32
      }) : (tensor<16x64xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %n = arith.maxnumf %acc, %s : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %n : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.return %r : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

// Loop reductions Triton leaves alone: one element per thread along the
// axis; a reduction not on the innermost axis; an integer sum; a non-constant
// initial accumulator; an operand that is not a load.
// CHECK-LABEL: @loop_left_alone
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#one = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loop_left_alone(%p: tensor<16x64x!tt.ptr<f32>, #blocked>, %q: tensor<16x8x!tt.ptr<f32>, #one>, %pi: tensor<16x64x!tt.ptr<i32>, #blocked>, %init2: tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, %v: tensor<16x64xf32, #blocked>) -> (tensor<16xf32, #ttg.slice<{dim = 1, parent = #one}>>, tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %z1 = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #one}>>
    %z0 = arith.constant dense<0.000000e+00> : tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %zi = arith.constant dense<0> : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %z = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r:5 = scf.for %i = %c0 to %c8 step %c1 iter_args(%a1 = %z1, %a0 = %z0, %ai = %zi, %a2 = %init2, %av = %z) -> (tensor<16xf32, #ttg.slice<{dim = 1, parent = #one}>>, tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %x1 = tt.load %q : tensor<16x8x!tt.ptr<f32>, #one>
      %s1 = "tt.reduce"(%x1) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %c = arith.addf %a, %b : f32
        tt.reduce.return %c : f32
      }) : (tensor<16x8xf32, #one>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #one}>>
      %n1 = arith.addf %a1, %s1 : tensor<16xf32, #ttg.slice<{dim = 1, parent = #one}>>
      %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #blocked>
      %s0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %c = arith.addf %a, %b : f32
        tt.reduce.return %c : f32
      }) : (tensor<16x64xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
      %n0 = arith.addf %a0, %s0 : tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
      %xi = tt.load %pi : tensor<16x64x!tt.ptr<i32>, #blocked>
      %si = "tt.reduce"(%xi) <{axis = 1 : i32}> ({
      ^bb0(%a: i32, %b: i32):
        %c = arith.addi %a, %b : i32
        tt.reduce.return %c : i32
      }) : (tensor<16x64xi32, #blocked>) -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %ni = arith.addi %ai, %si : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %x2 = tt.load %p : tensor<16x64x!tt.ptr<f32>, #blocked>
      %s2 = "tt.reduce"(%x2) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %c = arith.addf %a, %b : f32
        tt.reduce.return %c : f32
      }) : (tensor<16x64xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %n2 = arith.addf %a2, %s2 : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %sv = "tt.reduce"(%v) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %c = arith.addf %a, %b : f32
        tt.reduce.return %c : f32
      }) : (tensor<16x64xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %nv = arith.addf %av, %sv : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %n1, %n0, %ni, %n2, %nv : tensor<16xf32, #ttg.slice<{dim = 1, parent = #one}>>, tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<16xf32, #ttg.slice<{dim = 1, parent = #one}>>, tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

// Left alone, unlike Triton 3.6: the accumulator is read inside the loop
// besides its update (moving it into per-thread partials would change what
// that read sees; later Triton has the same check); and a layout whose
// thread-local view would mix rows (the axis is not the fastest in the
// order, so the thread's registers in order are not the view's rows).
// CHECK-LABEL: @loop_not_exact
// CHECK-NOT: efficient_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loop_not_exact(%p: tensor<16x64x!tt.ptr<f32>, #blocked>, %q: tensor<16x64x!tt.ptr<f32>, #cols>, %out: tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #cols}>> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %zc = arith.constant dense<0.000000e+00> : tensor<16xf32, #ttg.slice<{dim = 1, parent = #cols}>>
    %r:2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%a = %z, %ac = %zc) -> (tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<16xf32, #ttg.slice<{dim = 1, parent = #cols}>>) : i32 {
      tt.store %out, %a : tensor<16x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>
      %x = tt.load %p : tensor<16x64x!tt.ptr<f32>, #blocked>
      %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
      ^bb0(%l: f32, %m: f32):
        %c = arith.addf %l, %m : f32
        tt.reduce.return %c : f32
      }) : (tensor<16x64xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %n = arith.addf %a, %s : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %y = tt.load %q : tensor<16x64x!tt.ptr<f32>, #cols>
      %t = "tt.reduce"(%y) <{axis = 1 : i32}> ({
      ^bb0(%l: f32, %m: f32):
        %c = arith.addf %l, %m : f32
        tt.reduce.return %c : f32
      }) : (tensor<16x64xf32, #cols>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #cols}>>
      %nc = arith.addf %ac, %t : tensor<16xf32, #ttg.slice<{dim = 1, parent = #cols}>>
      scf.yield %n, %nc : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<16xf32, #ttg.slice<{dim = 1, parent = #cols}>>
    }
    tt.return %r#1 : tensor<16xf32, #ttg.slice<{dim = 1, parent = #cols}>>
  }
}
