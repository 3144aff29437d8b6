// ttg's canonicalization through a plain --canonicalize: a conversion folds
// into the op that produces its source (local_load, convert_layout, splat,
// make_range, a splat constant, a cat it does not make costlier) or
// disappears when it changes nothing; the
// ops that read a converted source (local_alloc, local_store, histogram)
// read the source itself; memdesc_trans folds like tt.trans; reshape and
// trans read through a conversion that only renames the layout, and a
// reordering reshape through one it can view without moving elements;
// an immutable local_alloc of a local_load is the loaded buffer;
// warp_specialize drops repeated and unused captures and unused results.
// RUN: tt-opt %s --split-input-file --canonicalize -allow-unregistered-dialect | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @producers
  tt.func @producers(%x: i32, %m: !ttg.memdesc<128xf32, #shared, #smem, mutable>, %t: tensor<128xf32, #blocked>) -> (tensor<128xi32, #blocked1>, tensor<128xi32, #blocked1>, tensor<128xf32, #blocked1>, tensor<128xf32, #blocked1>, tensor<128xf32, #blocked1>, tensor<128xf32, #blocked>) {
    // CHECK-DAG: %[[CST:.*]] = arith.constant dense<2.000000e+00> : tensor<128xf32, #blocked1>
    // CHECK-DAG: %[[SPLAT:.*]] = tt.splat %arg0 : i32 -> tensor<128xi32, #blocked1>
    // CHECK-DAG: %[[RANGE:.*]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked1>
    // CHECK-DAG: %[[LOAD:.*]] = ttg.local_load %arg1 : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #blocked1>
    // CHECK-DAG: %[[CVT:.*]] = ttg.convert_layout %arg2 : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked1>
    // CHECK: tt.return %[[SPLAT]], %[[RANGE]], %[[LOAD]], %[[CVT]], %[[CST]], %arg2
    %s = tt.splat %x : i32 -> tensor<128xi32, #blocked>
    %cs = ttg.convert_layout %s : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked1>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %cr = ttg.convert_layout %r : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked1>
    %l = ttg.local_load %m : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #blocked>
    %cl = ttg.convert_layout %l : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked1>
    %c1 = ttg.convert_layout %t : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked1>
    %c2 = ttg.convert_layout %c1 : tensor<128xf32, #blocked1> -> tensor<128xf32, #blocked>
    %c3 = ttg.convert_layout %c2 : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked1>
    %k = arith.constant dense<2.000000e+00> : tensor<128xf32, #blocked>
    %ck = ttg.convert_layout %k : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked1>
    %same = ttg.convert_layout %t : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>
    tt.return %cs, %cr, %cl, %c3, %ck, %same : tensor<128xi32, #blocked1>, tensor<128xi32, #blocked1>, tensor<128xf32, #blocked1>, tensor<128xf32, #blocked1>, tensor<128xf32, #blocked1>, tensor<128xf32, #blocked>
  }

  // CHECK-LABEL: tt.func @consumers
  // CHECK-NOT: ttg.convert_layout
  // CHECK: ttg.local_alloc %arg0 : (tensor<128xf32, #blocked>) -> !ttg.memdesc<128xf32, #shared, #smem>
  // CHECK: ttg.local_store %arg0, %arg1 : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
  tt.func @consumers(%t: tensor<128xf32, #blocked>, %m: !ttg.memdesc<128xf32, #shared, #smem, mutable>) -> !ttg.memdesc<128xf32, #shared, #smem> {
    %c = ttg.convert_layout %t : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked1>
    %a = ttg.local_alloc %c : (tensor<128xf32, #blocked1>) -> !ttg.memdesc<128xf32, #shared, #smem>
    ttg.local_store %c, %m : tensor<128xf32, #blocked1> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    tt.return %a : !ttg.memdesc<128xf32, #shared, #smem>
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // A transpose of a transpose is one transpose (here: the identity, so the
  // source itself).
  // CHECK-LABEL: tt.func @memdesc_trans
  // CHECK-NOT: ttg.memdesc_trans
  // CHECK: tt.return %arg0
  tt.func @memdesc_trans(%m: !ttg.memdesc<16x32xf16, #shared, #smem>) -> !ttg.memdesc<16x32xf16, #shared, #smem> {
    %t = ttg.memdesc_trans %m {order = array<i32: 1, 0>} : !ttg.memdesc<16x32xf16, #shared, #smem> -> !ttg.memdesc<32x16xf16, #shared1, #smem>
    %u = ttg.memdesc_trans %t {order = array<i32: 1, 0>} : !ttg.memdesc<32x16xf16, #shared1, #smem> -> !ttg.memdesc<16x32xf16, #shared, #smem>
    tt.return %u : !ttg.memdesc<16x32xf16, #shared, #smem>
  }
}

// -----

// A blocked layout and the linear layout that places the elements the same
// way: the conversion between them is trivial, and reshape and trans read
// its source. A conversion that moves elements stays below a reshape that
// keeps its element order, and goes below one that may reorder them when
// the view is cheap (same elements per thread, no new replication).
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#l = #ttg.linear<{register = [[0, 1], [0, 2], [16, 0]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>
#c = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#r = #ttg.blocked<{sizePerThread = [1, 1, 2, 2], threadsPerWarp = [4, 4, 2, 1], warpsPerCTA = [4, 1, 1, 1], order = [3, 2, 1, 0]}>
#t = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#f = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @views
  // CHECK-NEXT: tt.reshape %arg0 : tensor<32x32xf32, #{{.*}}> -> tensor<32x4x4x2xf32
  // CHECK-NEXT: tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<32x32xf32, #{{.*}}> -> tensor<32x32xf32
  // CHECK-NEXT: %[[MOVE:.*]] = ttg.convert_layout %arg0
  // CHECK-NEXT: tt.reshape %[[MOVE]] : tensor<32x32xf32, #{{.*}}> -> tensor<1024xf32
  // CHECK-NEXT: tt.reshape %arg0 allow_reorder : tensor<32x32xf32, #{{.*}}> -> tensor<1024xf32
  tt.func @views(%x: tensor<32x32xf32, #b>) -> (tensor<32x4x4x2xf32, #r>, tensor<32x32xf32, #t>, tensor<1024xf32, #f>, tensor<1024xf32, #f>) {
    %l = ttg.convert_layout %x : tensor<32x32xf32, #b> -> tensor<32x32xf32, #l>
    %r = tt.reshape %l : tensor<32x32xf32, #l> -> tensor<32x4x4x2xf32, #r>
    %t = tt.trans %l {order = array<i32: 1, 0>} : tensor<32x32xf32, #l> -> tensor<32x32xf32, #t>
    %m = ttg.convert_layout %x : tensor<32x32xf32, #b> -> tensor<32x32xf32, #c>
    %f = tt.reshape %m : tensor<32x32xf32, #c> -> tensor<1024xf32, #f>
    %g = tt.reshape %m allow_reorder : tensor<32x32xf32, #c> -> tensor<1024xf32, #f>
    tt.return %r, %t, %f, %g : tensor<32x4x4x2xf32, #r>, tensor<32x32xf32, #t>, tensor<1024xf32, #f>, tensor<1024xf32, #f>
  }
}

// -----

// An immutable allocation of what was just loaded from a buffer of its type
// is that buffer; a mutable one, or one of another type, stays.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 2, maxPhase = 8, order = [1, 0]}>
#other = #ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32} {
  // CHECK-LABEL: tt.func @local_alloc_of_load
  tt.func @local_alloc_of_load(%x: tensor<16x16xf16, #blocked>) -> (!ttg.memdesc<16x16xf16, #shared, #smem>, !ttg.memdesc<16x16xf16, #shared, #smem, mutable>, !ttg.memdesc<16x16xf16, #other, #smem>) {
    // CHECK-NEXT: %[[A:.*]] = ttg.local_alloc %arg0
    // CHECK-NEXT: %[[L:.*]] = ttg.local_load %[[A]]
    // CHECK-NEXT: %[[M:.*]] = ttg.local_alloc %[[L]] : {{.*}} mutable>
    // CHECK-NEXT: %[[O:.*]] = ttg.local_alloc %[[L]] : {{.*}}#shared1
    // CHECK-NEXT: tt.return %[[A]], %[[M]], %[[O]]
    %a = ttg.local_alloc %x : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x16xf16, #shared, #smem>
    %l = ttg.local_load %a : !ttg.memdesc<16x16xf16, #shared, #smem> -> tensor<16x16xf16, #blocked>
    %b = ttg.local_alloc %l : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x16xf16, #shared, #smem>
    %m = ttg.local_alloc %l : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x16xf16, #shared, #smem, mutable>
    %o = ttg.local_alloc %l : (tensor<16x16xf16, #blocked>) -> !ttg.memdesc<16x16xf16, #other, #smem>
    tt.return %b, %m, %o : !ttg.memdesc<16x16xf16, #shared, #smem>, !ttg.memdesc<16x16xf16, #shared, #smem, mutable>, !ttg.memdesc<16x16xf16, #other, #smem>
  }
}

// -----

// ttg.warp_specialize drops a capture that repeats an earlier one (its
// partition arguments then stand for the first), captures no partition
// uses, and results nothing uses, with the values the default region
// yields for them.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @warp_specialize_unused
  tt.func @warp_specialize_unused(%a: i32, %b: i32, %c: i32) -> i32 {
    // CHECK-NEXT: %[[R:.*]] = ttg.warp_specialize(%arg0, %arg1)
    %r:2 = ttg.warp_specialize(%a, %b, %a, %c)
    // CHECK-NEXT: default {
    default {
      // CHECK-NEXT: ttg.warp_yield %arg2 : i32
      ttg.warp_yield %b, %c : i32, i32
    }
    // CHECK-NEXT: }
    // CHECK-NEXT: partition0(%[[X:.*]]: i32, %[[Y:.*]]: i32) num_warps(4) {
    partition0(%x: i32, %y: i32, %x2: i32, %z: i32) num_warps(4) {
      // CHECK-NEXT: "use"(%[[X]], %[[Y]], %[[X]]) : (i32, i32, i32) -> ()
      "use"(%x, %y, %x2) : (i32, i32, i32) -> ()
      ttg.warp_return
    }
    // CHECK: partition1(%{{.*}}: i32, %{{.*}}: i32) num_warps(4) {
    partition1(%x: i32, %y: i32, %x2: i32, %z: i32) num_warps(4) {
      ttg.warp_return
    // CHECK: } : (i32, i32) -> i32
    } : (i32, i32, i32, i32) -> (i32, i32)
    // CHECK-NEXT: tt.return %[[R]] : i32
    tt.return %r#1 : i32
  }
}

// -----

// A tmem_store reads through a convert_layout whose source already has the
// layout of a tensor-memory access of the destination (with 8 warps the
// 32x32b access splits the columns over warp 4), and keeps the conversion
// of a source in any other layout.
#blocked = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 2], order = [0, 1]}>
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#access = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0], [0, 32]], block = []}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @tmem_store_through_convert
  // CHECK-NOT: ttg.convert_layout
  // CHECK: ttng.tmem_store %arg0, %arg2, %{{.*}} : tensor<128x64xf32, #{{.*}}> ->
  // CHECK: %[[CVT:.*]] = ttg.convert_layout %arg1
  // CHECK: ttng.tmem_store %[[CVT]], %arg2
  tt.func @tmem_store_through_convert(%a: tensor<128x64xf32, #access>, %b: tensor<128x64xf32, #rows>, %m: !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>) {
    %true = arith.constant true
    %0 = ttg.convert_layout %a : tensor<128x64xf32, #access> -> tensor<128x64xf32, #blocked>
    ttng.tmem_store %0, %m, %true : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    %1 = ttg.convert_layout %b : tensor<128x64xf32, #rows> -> tensor<128x64xf32, #blocked>
    ttng.tmem_store %1, %m, %true : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tm, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

// A conversion of a concatenation becomes the concatenation in the new
// layout, unless that layout holds fewer elements a thread (Triton's
// isExpensiveCat).
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @cat_to
  // CHECK-NEXT: %[[C:.*]] = tt.cat %{{.*}}, %{{.*}} : tensor<128xf32, #blocked> -> tensor<256xf32, #blocked1>
  // CHECK-NEXT: tt.return %[[C]]
  tt.func @cat_to(%x: tensor<128xf32, #blocked>, %y: tensor<128xf32, #blocked>) -> tensor<256xf32, #blocked1> {
    %c = tt.cat %x, %y : tensor<128xf32, #blocked> -> tensor<256xf32, #blocked>
    %d = ttg.convert_layout %c : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1>
    tt.return %d : tensor<256xf32, #blocked1>
  }
  // CHECK-LABEL: tt.func @cat_expensive
  // CHECK-NEXT: tt.cat %{{.*}}, %{{.*}} : tensor<128xf32, #blocked2> -> tensor<256xf32, #blocked2>
  // CHECK-NEXT: ttg.convert_layout
  tt.func @cat_expensive(%x: tensor<128xf32, #blocked3>, %y: tensor<128xf32, #blocked3>) -> tensor<256xf32, #blocked1> {
    %c = tt.cat %x, %y : tensor<128xf32, #blocked3> -> tensor<256xf32, #blocked3>
    %d = ttg.convert_layout %c : tensor<256xf32, #blocked3> -> tensor<256xf32, #blocked1>
    tt.return %d : tensor<256xf32, #blocked1>
  }
}
