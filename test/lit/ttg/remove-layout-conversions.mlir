// RUN: tt-opt %s --split-input-file --tritongpu-remove-layout-conversions | FileCheck %s
// Forward propagation from loads/stores and function arguments, backward
// rematerialization of straight-line slices (make_range, splat, addptr),
// reductions on each axis, a convert hoisted above a broadcast,
// scf.for / scf.if carrying tensors through layout changes, and layouts
// inferred through tt.reshape and tt.trans, dot-operand conversions hoisted
// to their loads, and a convert kept where rematerializing would duplicate a
// float reduction.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b3 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chain_to_store(%p: !tt.ptr<f32>, %n: i32) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %s, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %c = ttg.convert_layout %a : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
    %l = tt.load %c : tensor<1024x!tt.ptr<f32>, #blocked1>
    %lc = ttg.convert_layout %l : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked>
    %e = math.exp %lc : tensor<1024xf32, #blocked>
    %a2 = ttg.convert_layout %a : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
    %e2 = ttg.convert_layout %e : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked1>
    tt.store %a2, %e2 : tensor<1024x!tt.ptr<f32>, #blocked1>
    tt.return
  }
  tt.func @reduce_axes(%p: tensor<32x128x!tt.ptr<f32>, #b3>, %q: tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b3}>>, %q0: tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #b3}>>) {
    %l = tt.load %p : tensor<32x128x!tt.ptr<f32>, #b3>
    %c = ttg.convert_layout %l : tensor<32x128xf32, #b3> -> tensor<32x128xf32, #b2>
    %r1 = "tt.reduce"(%c) <{axis = 1 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %m = arith.maxnumf %x, %y : f32
      tt.reduce.return %m : f32
    }) : (tensor<32x128xf32, #b2>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #b2}>>
    %r1c = ttg.convert_layout %r1 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #b2}>> -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #b3}>>
    tt.store %q, %r1c : tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b3}>>
    %r0 = "tt.reduce"(%c) <{axis = 0 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %m = arith.addf %x, %y : f32
      tt.reduce.return %m : f32
    }) : (tensor<32x128xf32, #b2>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #b2}>>
    %r0c = ttg.convert_layout %r0 : tensor<128xf32, #ttg.slice<{dim = 0, parent = #b2}>> -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #b3}>>
    tt.store %q0, %r0c : tensor<128x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #b3}>>
    tt.return
  }
  tt.func @broadcast_hoist(%p: tensor<32x128x!tt.ptr<f32>, #b3>, %v: tensor<32x1xf32, #b2>) {
    %b = tt.broadcast %v : tensor<32x1xf32, #b2> -> tensor<32x128xf32, #b2>
    %c = ttg.convert_layout %b : tensor<32x128xf32, #b2> -> tensor<32x128xf32, #b3>
    tt.store %p, %c : tensor<32x128x!tt.ptr<f32>, #b3>
    tt.return
  }
  tt.func @for_carried(%p: tensor<1024x!tt.ptr<f32>, #blocked1>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %l = tt.load %p : tensor<1024x!tt.ptr<f32>, #blocked1>
    %z = ttg.convert_layout %l : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<1024xf32, #blocked>) {
      %e = math.exp %acc : tensor<1024xf32, #blocked>
      scf.yield %e : tensor<1024xf32, #blocked>
    }
    %rc = ttg.convert_layout %r : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked1>
    tt.store %p, %rc : tensor<1024x!tt.ptr<f32>, #blocked1>
    tt.return
  }
  tt.func @if_carried(%p: tensor<1024x!tt.ptr<f32>, #blocked1>, %cond: i1) {
    %l = tt.load %p : tensor<1024x!tt.ptr<f32>, #blocked1>
    %z = ttg.convert_layout %l : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked>
    %r = scf.if %cond -> (tensor<1024xf32, #blocked>) {
      %e = math.exp %z : tensor<1024xf32, #blocked>
      scf.yield %e : tensor<1024xf32, #blocked>
    } else {
      scf.yield %z : tensor<1024xf32, #blocked>
    }
    %rc = ttg.convert_layout %r : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked1>
    tt.store %p, %rc : tensor<1024x!tt.ptr<f32>, #blocked1>
    tt.return
  }
  tt.func @remat_through_for_iter_arg(%p: !tt.ptr<f32>, %n: i32) -> tensor<1024xf32, #blocked1> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked1>
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %s, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%ptr = %a, %acc = %z) -> (tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xf32, #blocked1>) : i32 {
      %c = ttg.convert_layout %ptr : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
      %l = tt.load %c : tensor<1024x!tt.ptr<f32>, #blocked1>
      %sum = arith.addf %acc, %l : tensor<1024xf32, #blocked1>
      %next = tt.addptr %ptr, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %next, %sum : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xf32, #blocked1>
    }
    tt.return %res#1 : tensor<1024xf32, #blocked1>
  }
}

// CHECK-LABEL: tt.func @chain_to_store
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.make_range {{.*}} #blocked>
// CHECK: tt.load {{.*}} #blocked>
// CHECK: math.exp {{.*}} #blocked>
// CHECK: tt.store {{.*}} #blocked>
// CHECK-LABEL: tt.func @reduce_axes
// CHECK-NOT: ttg.convert_layout
// CHECK: (tensor<32x128xf32, #blocked1>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CHECK: (tensor<32x128xf32, #blocked1>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked1}>>
// CHECK-LABEL: tt.func @broadcast_hoist
// CHECK: ttg.convert_layout %{{.*}} : tensor<32x1xf32, #blocked2> -> tensor<32x1xf32, #blocked1>
// CHECK-NEXT: tt.broadcast %{{.*}} : tensor<32x1xf32, #blocked1> -> tensor<32x128xf32, #blocked1>
// CHECK-NEXT: tt.store
// CHECK-LABEL: tt.func @for_carried
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} -> (tensor<1024xf32, #blocked>)
// CHECK: math.exp {{.*}} : tensor<1024xf32, #blocked>
// CHECK-LABEL: tt.func @if_carried
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.if {{.*}} -> (tensor<1024xf32, #blocked>)
// CHECK: tt.store {{.*}} #blocked>
// A convert of an iter arg is rematerialized through the loop: the loop
// gets an iter arg carrying the pointers in the load's layout (appended,
// then the old one is dead and dropped), and no convert is left.
// CHECK-LABEL: tt.func @remat_through_for_iter_arg
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %cst{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<1024xf32, #[[L:[a-z0-9]+]]>, tensor<1024x!tt.ptr<f32>, #[[L]]>)
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[L]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return

// -----

// test_trans_reshape's kernel as Triton 3.6 hands it to the pass: the
// load's layout flows through the reshape (a blocked layout keeping every
// element in place), the transpose (the blocked layout permuted) and the
// flattening reshape (a linear layout, no blocked one keeps the elements);
// one conversion is left, before the store. These are Triton's layouts.
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked5 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked6 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1], threadsPerWarp = [1, 4, 4, 2], warpsPerCTA = [4, 1, 1, 1], order = [3, 2, 1, 0]}>
#blocked7 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1], threadsPerWarp = [4, 4, 2, 1], warpsPerCTA = [1, 1, 1, 4], order = [2, 1, 0, 3]}>
#blocked8 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1], threadsPerWarp = [1, 1, 1, 32], warpsPerCTA = [1, 2, 2, 1], order = [3, 2, 1, 0]}>
#blocked9 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-DAG: #[[LOAD:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[SPLIT:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 2, 2], threadsPerWarp = [4, 4, 2, 1], warpsPerCTA = [4, 1, 1, 1], order = [3, 2, 1, 0]}>
// CHECK-DAG: #[[PERM:.*]] = #ttg.blocked<{sizePerThread = [1, 2, 2, 1], threadsPerWarp = [4, 2, 1, 4], warpsPerCTA = [1, 1, 1, 4], order = [2, 1, 0, 3]}>
// CHECK-DAG: #[[STORE:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[FLAT:.*]] = #ttg.linear<{register = {{\[\[32\], \[64\], \[16\]\]}}, lane = {{\[\[128\], \[256\], \[512\], \[1\], \[2\]\]}}, warp = {{\[\[4\], \[8\]\]}}, block = []}>
// CHECK-LABEL: tt.func public @trans_reshape
// CHECK: %[[X:.*]] = tt.load %{{.*}} : tensor<32x32x!tt.ptr<i32>, #[[LOAD]]>
// CHECK-NEXT: %[[R:.*]] = tt.reshape %[[X]] : tensor<32x32xi32, #[[LOAD]]> -> tensor<32x4x4x2xi32, #[[SPLIT]]>
// CHECK-NEXT: %[[T:.*]] = tt.trans %[[R]] {order = array<i32: 1, 2, 3, 0>} : tensor<32x4x4x2xi32, #[[SPLIT]]> -> tensor<4x4x2x32xi32, #[[PERM]]>
// CHECK-NEXT: %[[F:.*]] = tt.reshape %[[T]] : tensor<4x4x2x32xi32, #[[PERM]]> -> tensor<1024xi32, #[[FLAT]]>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[F]] : tensor<1024xi32, #[[FLAT]]> -> tensor<1024xi32, #[[STORE]]>
// CHECK-NEXT: tt.store %{{.*}}, %[[C]]
  tt.func public @trans_reshape(%p: tensor<32x32x!tt.ptr<i32>, #blocked5>, %q: tensor<1024x!tt.ptr<i32>, #blocked9>) {
    %x_16 = tt.load %p : tensor<32x32x!tt.ptr<i32>, #blocked5>
    %x_17 = ttg.convert_layout %x_16 : tensor<32x32xi32, #blocked5> -> tensor<32x32xi32, #blocked1>
    %x_18 = tt.reshape %x_17 : tensor<32x32xi32, #blocked1> -> tensor<32x4x4x2xi32, #blocked6>
    %x_19 = tt.trans %x_18 {order = array<i32: 1, 2, 3, 0>} : tensor<32x4x4x2xi32, #blocked6> -> tensor<4x4x2x32xi32, #blocked7>
    %x_20 = ttg.convert_layout %x_19 : tensor<4x4x2x32xi32, #blocked7> -> tensor<4x4x2x32xi32, #blocked8>
    %x_21 = tt.reshape %x_20 : tensor<4x4x2x32xi32, #blocked8> -> tensor<1024xi32, #blocked2>
    %4 = ttg.convert_layout %x_21 : tensor<1024xi32, #blocked2> -> tensor<1024xi32, #blocked9>
    tt.store %q, %4 : tensor<1024x!tt.ptr<i32>, #blocked9>
    tt.return
  }
}

// -----

// Conversions to dot operands of an MMA dot later in the loop move up to
// their loads, over the elementwise scaling and the fp8 upcast
// (hoistConvertDotOperand; Triton 3.6's pass gives the same IR).
// CHECK-LABEL: @hoist_to_loads
// CHECK: %[[S:.*]] = arith.constant dense<2.000000e+00> : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: scf.for
// CHECK-NEXT: %[[X:.*]] = tt.load
// CHECK-NEXT: %[[XD:.*]] = ttg.convert_layout %[[X]] : tensor<32x32xf16, #{{.*}}> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: arith.mulf %[[XD]], %[[S]] : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[Y:.*]] = tt.load
// CHECK-NEXT: %[[YD:.*]] = ttg.convert_layout %[[Y]] : tensor<32x32xf8E4M3FN, #{{.*}}> -> tensor<32x32xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: tt.fp_to_fp %[[YD]]
#a = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @hoist_to_loads(%pa: tensor<32x32x!tt.ptr<f16>, #a>, %pb: tensor<32x32x!tt.ptr<f8E4M3FN>, #a>, %n: i32) -> tensor<32x32xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %s = arith.constant dense<2.000000e+00> : tensor<32x32xf16, #a>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<32x32xf32, #mma>) : i32 {
      %x = tt.load %pa : tensor<32x32x!tt.ptr<f16>, #a>
      %xs = arith.mulf %x, %s : tensor<32x32xf16, #a>
      %xd = ttg.convert_layout %xs : tensor<32x32xf16, #a> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %y = tt.load %pb : tensor<32x32x!tt.ptr<f8E4M3FN>, #a>
      %yh = tt.fp_to_fp %y : tensor<32x32xf8E4M3FN, #a> -> tensor<32x32xf16, #a>
      %yd = ttg.convert_layout %yh : tensor<32x32xf16, #a> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %xd, %yd, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      scf.yield %d : tensor<32x32xf32, #mma>
    }
    tt.return %r : tensor<32x32xf32, #mma>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// A sum that both a store and a layout change read: cloning it in the
// other layout would reduce twice (a float sum is not associative), so the
// convert stays.
// CHECK-LABEL: tt.func @shared_reduction
// CHECK-COUNT-1: "tt.reduce"
// CHECK-NOT: "tt.reduce"
// CHECK: ttg.convert_layout %{{.*}} : tensor<16x1xf32, #{{.*}}> -> tensor<16x1xf32
  tt.func @shared_reduction(%m: !ttg.memdesc<16x64xf32, #shared, #smem>, %o1: tensor<16x!tt.ptr<f32>, #b2>, %o2: tensor<16x2x!tt.ptr<f32>, #b1>) {
    %z = arith.constant dense<0.000000e+00> : tensor<16x1xf32, #b>
    %x = ttg.local_load %m : !ttg.memdesc<16x64xf32, #shared, #smem> -> tensor<16x64xf32, #b>
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16x64xf32, #b>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #b}>>
    %c = ttg.convert_layout %s : tensor<16xf32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<16xf32, #b2>
    tt.store %o1, %c : tensor<16x!tt.ptr<f32>, #b2>
    %e = tt.expand_dims %s {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<16x1xf32, #b>
    %f = arith.addf %e, %z : tensor<16x1xf32, #b>
    %g = ttg.convert_layout %f : tensor<16x1xf32, #b> -> tensor<16x1xf32, #b1>
    %h = tt.broadcast %g : tensor<16x1xf32, #b1> -> tensor<16x2xf32, #b1>
    tt.store %o2, %h : tensor<16x2x!tt.ptr<f32>, #b1>
    tt.return
  }
}

// -----

// Layouts through tt.split and tt.join. Forward: the argument's layout
// flows into the split (its last dimension held in registers), and the
// one convert left is after it; the join of blocked operands appends a
// register dimension of two, fastest. Backward: a join rematerialized in
// its user's layout takes operands that need no conversion.
#b3 = #ttg.blocked<{sizePerThread = [1, 64, 2], threadsPerWarp = [32, 1, 1], warpsPerCTA = [4, 1, 1], order = [0, 1, 2]}>
#b3o = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#k_in = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#k_mid = #ttg.blocked<{sizePerThread = [1, 32, 2], threadsPerWarp = [32, 1, 1], warpsPerCTA = [4, 1, 1], order = [2, 0, 1]}>
#k_out = #ttg.blocked<{sizePerThread = [1, 32, 2], threadsPerWarp = [32, 1, 1], warpsPerCTA = [4, 1, 1], order = [0, 1, 2]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: #[[SPLIT:.*]] = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
  // CHECK-LABEL: tt.func public @split_forward
  // CHECK-NEXT: %[[L:.*]], %{{.*}} = tt.split %arg0 : tensor<128x64x2xf32, #{{.*}}> -> tensor<128x64xf32, #[[SPLIT]]>
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[L]]
  // CHECK-NEXT: tt.return %[[C]]
  tt.func public @split_forward(%arg0: tensor<128x64x2xf32, #b3>) -> tensor<128x64xf32, #b2> {
    %0 = ttg.convert_layout %arg0 : tensor<128x64x2xf32, #b3> -> tensor<128x64x2xf32, #b3o>
    %lhs, %rhs = tt.split %0 : tensor<128x64x2xf32, #b3o> -> tensor<128x64xf32, #b2>
    tt.return %lhs : tensor<128x64xf32, #b2>
  }

  // CHECK-LABEL: tt.func public @join_backward
  // CHECK-NEXT: %[[J:.*]] = tt.join %arg0, %arg1
  // CHECK-NEXT: tt.return %[[J]]
  tt.func public @join_backward(%arg0: tensor<128x32xf16, #k_in>, %arg1: tensor<128x32xf16, #k_in>) -> tensor<128x32x2xf16, #k_out> {
    %0 = tt.join %arg0, %arg1 : tensor<128x32xf16, #k_in> -> tensor<128x32x2xf16, #k_mid>
    %1 = ttg.convert_layout %0 : tensor<128x32x2xf16, #k_mid> -> tensor<128x32x2xf16, #k_out>
    tt.return %1 : tensor<128x32x2xf16, #k_out>
  }
}

// -----

#j_in = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
#j_mid = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
#j_out = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 16, 1], warpsPerCTA = [1, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: #[[JOINED:.*]] = #ttg.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [2, 16, 1], warpsPerCTA = [1, 1, 1], order = [2, 1, 0]}>
  // CHECK-LABEL: tt.func public @join_forward
  // CHECK-NEXT: %[[J:.*]] = tt.join %arg0, %arg0 : tensor<2x16xf32, #{{.*}}> -> tensor<2x16x2xf32, #[[JOINED]]>
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[J]]
  // CHECK-NEXT: tt.return %[[C]]
  tt.func public @join_forward(%arg0: tensor<2x16xf32, #j_in>) -> tensor<2x16x2xf32, #j_out> {
    %0 = ttg.convert_layout %arg0 : tensor<2x16xf32, #j_in> -> tensor<2x16xf32, #j_mid>
    %1 = tt.join %0, %0 : tensor<2x16xf32, #j_mid> -> tensor<2x16x2xf32, #j_out>
    tt.return %1 : tensor<2x16x2xf32, #j_out>
  }
}

// -----

// Rematerializing through an scf.if leaves its old results unused: the
// final clean-up drops them (scf.if's RemoveUnusedResults), and an if whose
// branches only yield values from outside becomes a select.
#i2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#i1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @remat_through_if
  // CHECK-NOT: #ttg.blocked<{sizePerThread = [1]
  // CHECK: %[[IF:.*]] = scf.if %arg0 -> (tensor<32xf32, #{{.*}}>) {
  // CHECK-NOT: ttg.convert_layout
  // CHECK: tt.return %[[IF]]
  tt.func public @remat_through_if(%arg0: i1, %arg1: f32) -> tensor<32xf32, #i2> {
    %cst = arith.constant dense<1.000000e+00> : tensor<32xf32, #i1>
    %cst_0 = arith.constant dense<2.000000e+00> : tensor<32xf32, #i1>
    %0 = tt.splat %arg1 : f32 -> tensor<32xf32, #i1>
    %1 = scf.if %arg0 -> (tensor<32xf32, #i1>) {
      %2 = arith.addf %cst, %0 : tensor<32xf32, #i1>
      scf.yield %2 : tensor<32xf32, #i1>
    } else {
      %2 = arith.addf %cst_0, %0 : tensor<32xf32, #i1>
      scf.yield %2 : tensor<32xf32, #i1>
    }
    %3 = ttg.convert_layout %1 : tensor<32xf32, #i1> -> tensor<32xf32, #i2>
    tt.return %3 : tensor<32xf32, #i2>
  }

  // CHECK-LABEL: tt.func public @trivial_if
  // CHECK-NOT: scf.if
  // CHECK: %[[S:.*]] = arith.select %arg0, %arg1, %arg2 : tensor<32xf32, #{{.*}}>
  // CHECK-NEXT: tt.return %[[S]], %arg1
  tt.func public @trivial_if(%arg0: i1, %arg1: tensor<32xf32, #i2>, %arg2: tensor<32xf32, #i2>) -> (tensor<32xf32, #i2>, tensor<32xf32, #i2>) {
    %0:2 = scf.if %arg0 -> (tensor<32xf32, #i2>, tensor<32xf32, #i2>) {
      scf.yield %arg1, %arg1 : tensor<32xf32, #i2>, tensor<32xf32, #i2>
    } else {
      scf.yield %arg2, %arg1 : tensor<32xf32, #i2>, tensor<32xf32, #i2>
    }
    tt.return %0#0, %0#1 : tensor<32xf32, #i2>, tensor<32xf32, #i2>
  }
}

// -----

// A gather's result takes its indices' layout both ways; its source keeps
// its own.
#g_idx = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#g_src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#g_mid = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @gather_forward
  // CHECK-NEXT: tt.gather %arg1[%arg0] {axis = 0 : i32} : (tensor<128x256xf32, #[[SRC:.*]]>, tensor<1024x256xi32, #[[IDX:.*]]>) -> tensor<1024x256xf32, #[[IDX]]>
  // CHECK-NEXT: tt.return
  tt.func @gather_forward(%arg0: tensor<1024x256xi32, #g_idx>, %arg1: tensor<128x256xf32, #g_src>) -> tensor<1024x256xf32, #g_idx> {
    %0 = ttg.convert_layout %arg0 : tensor<1024x256xi32, #g_idx> -> tensor<1024x256xi32, #g_mid>
    %1 = tt.gather %arg1[%0] {axis = 0 : i32} : (tensor<128x256xf32, #g_src>, tensor<1024x256xi32, #g_mid>) -> tensor<1024x256xf32, #g_mid>
    %2 = ttg.convert_layout %1 : tensor<1024x256xf32, #g_mid> -> tensor<1024x256xf32, #g_idx>
    tt.return %2 : tensor<1024x256xf32, #g_idx>
  }

  // CHECK-LABEL: tt.func @gather_backward
  // CHECK-NOT: ttg.convert_layout
  // CHECK: tt.gather %arg0[%{{.*}}] {axis = 0 : i32} : (tensor<64x64xf32, #[[SRC]]>, tensor<1x64xi32, #[[SRC]]>) -> tensor<1x64xf32, #[[SRC]]>
  tt.func @gather_backward(%arg0: tensor<64x64xf32, #g_src>) -> tensor<1x64xf32, #g_src> {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #g_idx}>>
    %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #g_idx}>> -> tensor<1x64xi32, #g_idx>
    %2 = tt.gather %arg0[%1] {axis = 0 : i32} : (tensor<64x64xf32, #g_src>, tensor<1x64xi32, #g_idx>) -> tensor<1x64xf32, #g_idx>
    %3 = ttg.convert_layout %2 : tensor<1x64xf32, #g_idx> -> tensor<1x64xf32, #g_src>
    tt.return %3 : tensor<1x64xf32, #g_src>
  }
}

// -----

// A convert after ttg.fp4_to_fp moves to its packed operand: the first
// register basis (the two values of a byte) goes, the other steps along
// the axis halve.
#f_src = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#f_dst = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
#f_lin = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 32]], warp = [[16, 0], [32, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // CHECK: #[[PACKED:.*]] = #ttg.linear<{register = {{\[}}[0, 1], [0, 2], [0, 4], [0, 8]], lane = {{\[}}[1, 0], [2, 0], [4, 0], [8, 0], [0, 16]], warp = {{\[}}[16, 0], [32, 0]], block = []}>
  // CHECK-LABEL: tt.func @fp4_backward
  // CHECK-NEXT: arith.constant dense<0> : tensor<64x32xi8, #[[PACKED]]>
  // CHECK-NEXT: ttg.fp4_to_fp
  // CHECK-NEXT: tt.return
  tt.func @fp4_backward() -> tensor<64x64xf16, #f_lin> {
    %0 = arith.constant dense<0> : tensor<64x32xi8, #f_src>
    %1 = ttg.fp4_to_fp %0 {axis = 1 : i32} : tensor<64x32xi8, #f_src> -> tensor<64x64xf16, #f_dst>
    %2 = ttg.convert_layout %1 : tensor<64x64xf16, #f_dst> -> tensor<64x64xf16, #f_lin>
    tt.return %2 : tensor<64x64xf16, #f_lin>
  }
}

// -----

// A convert whose slice reaches an scf.if inside a loop that one branch
// can rematerialize (through the loop's iter arg, from a constant) and the
// other cannot (an expensive load) moves into that other branch.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @hoist_into_branch
  // CHECK: arith.constant dense<1.000000e+00> : tensor<128x32xf32, #ttg.dot_op
  // CHECK: scf.for
  // CHECK-NEXT: scf.if
  // CHECK-NEXT: %[[L:.*]] = tt.load
  // CHECK-NEXT: ttg.convert_layout %[[L]]
  // CHECK-NOT: ttg.convert_layout
  // CHECK: tt.return
  tt.func @hoist_into_branch(%c: i1, %p: tensor<128x32x!tt.ptr<f32>, #blocked>, %b: tensor<32x128xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %acc0: tensor<128x128xf32, #mma>) -> tensor<128x128xf32, #mma> {
    %cst = arith.constant dense<1.0> : tensor<128x32xf32, #blocked>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %r:2 = scf.for %i = %c0 to %c32 step %c1 iter_args(%prev = %cst, %acc = %acc0) -> (tensor<128x32xf32, #blocked>, tensor<128x128xf32, #mma>) : i32 {
      %v = scf.if %c -> (tensor<128x32xf32, #blocked>) {
        %l = tt.load %p : tensor<128x32x!tt.ptr<f32>, #blocked>
        scf.yield %l : tensor<128x32xf32, #blocked>
      } else {
        scf.yield %prev : tensor<128x32xf32, #blocked>
      }
      %a = ttg.convert_layout %v : tensor<128x32xf32, #blocked> -> tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = tt.dot %a, %b, %acc, inputPrecision = tf32 : tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x128xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
      scf.yield %v, %d : tensor<128x32xf32, #blocked>, tensor<128x128xf32, #mma>
    }
    tt.return %r#1 : tensor<128x128xf32, #mma>
  }
}


// -----

// A slice rematerialized through a convert whose source already has the
// wanted layout uses that source, as Triton does, not a new convert: a later
// slice reaching the select in #mma then reuses its existing conversion to
// #blocked, and the masked select moves to #blocked, leaving one #mma to
// #blocked conversion of the f32 tile.
// CHECK-LABEL: @remat_through_folded_convert
// CHECK: %[[SEL:.*]] = arith.select %{{.*}} : tensor<128x64xi1, #mma>, tensor<128x64xf32, #mma>
// CHECK-NEXT: %[[CVT:.*]] = ttg.convert_layout %[[SEL]] : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked>
// CHECK-NOT: -> tensor<128x64xf32, #blocked>
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[CVT]] : tensor<128x64xi1, #blocked>, tensor<128x64xf32, #blocked>
// CHECK-NOT: -> tensor<128x64xf32, #blocked>
// CHECK: scf.yield
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // Regression test:
  // Rematerialization of multiple loop-carried variables, where one is
  // rematerialized to the same layout by multiple users.
  // Previously this didn't interact correctly with the de-duplication mechanism.
  tt.func public  @remat_through_folded_convert(%arg0: !tt.ptr<f16>, %arg1: !tt.ptr<i8>) -> (tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<128x64xf32, #mma>) {
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %c2048_i32 = arith.constant 2048 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cst_0 = arith.constant dense<0xFF800000> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cst_1 = arith.constant dense<0xFF800000> : tensor<128x64xf32, #mma>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %0 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #blocked1>
    %1 = tt.load %0 : tensor<128x64x!tt.ptr<f16>, #blocked1>
    %2 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked2>
    %3 = tt.splat %arg1 : !tt.ptr<i8> -> tensor<128x64x!tt.ptr<i8>, #blocked>
    %4 = tt.splat %arg1 : !tt.ptr<i8> -> tensor<128x64x!tt.ptr<i8>, #blocked>
     %5:3 = scf.for %arg2 = %c0_i32 to %c2048_i32 step %c64_i32 iter_args(%arg3 = %cst_2, %arg4 = %cst, %arg5 = %cst_0) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>)  : i32 {
      %6 = tt.load %2 : tensor<64x64x!tt.ptr<f16>, #blocked2>
      %7 = ttg.convert_layout %1 : tensor<128x64xf16, #blocked1> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %8 = ttg.convert_layout %6 : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %9 = tt.dot %7, %8, %cst_2, inputPrecision = tf32 : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
      %10 = tt.load %3 : tensor<128x64x!tt.ptr<i8>, #blocked>
      %11 = tt.load %4 : tensor<128x64x!tt.ptr<i8>, #blocked>
      %12 = arith.cmpi eq, %10, %11 : tensor<128x64xi8, #blocked>
      %13 = ttg.convert_layout %12 : tensor<128x64xi1, #blocked> -> tensor<128x64xi1, #mma>
      %14 = arith.select %13, %9, %cst_1 : tensor<128x64xi1, #mma>, tensor<128x64xf32, #mma>
      %15 = ttg.convert_layout %14 : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked>
      %16 = "tt.reduce"(%15) <{axis = 1 : i32}> ({
      ^bb0(%arg6: f32, %arg7: f32):
        %34 = arith.maxnumf %arg6, %arg7 : f32
        tt.reduce.return %34 : f32
      }) : (tensor<128x64xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %17 = arith.maxnumf %arg5, %16 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %18 = arith.cmpf oeq, %17, %cst_0 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %19 = ttg.convert_layout %18 : tensor<128xi1, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xi1, #ttg.slice<{dim = 1, parent = #mma}>>
      %20 = arith.select %18, %cst, %17 : tensor<128xi1, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %21 = tt.expand_dims %19 {axis = 1 : i32} : tensor<128xi1, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xi1, #mma>
      %22 = tt.broadcast %21 : tensor<128x1xi1, #mma> -> tensor<128x64xi1, #mma>
      %23 = arith.select %22, %cst_2, %14 : tensor<128x64xi1, #mma>, tensor<128x64xf32, #mma>
      %24 = ttg.convert_layout %23 : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked>
      %25 = arith.mulf %arg4, %cst : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %26 = ttg.convert_layout %25 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %27 = tt.expand_dims %26 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<128x1xf32, #mma>
      %28 = tt.broadcast %27 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %29 = arith.mulf %arg3, %28 : tensor<128x64xf32, #mma>
      %30 = ttg.convert_layout %23 : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %31 = arith.mulf %arg4, %20 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %32 = "tt.reduce"(%24) <{axis = 1 : i32}> ({
      ^bb0(%arg6: f32, %arg7: f32):
        %34 = arith.addf %arg6, %arg7 : f32
        tt.reduce.return %34 : f32
      }) : (tensor<128x64xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %33 = arith.addf %31, %32 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %23, %33, %17 : tensor<128x64xf32, #mma>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.return %5#1, %5#2, %5#0 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<128x64xf32, #mma>
  }
}
