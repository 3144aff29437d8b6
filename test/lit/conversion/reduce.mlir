// tt.reduce: within a thread, across lanes with butterfly shuffles, and
// across warps through the op's scratch (at its allocation.offset).
// Assertions in the combine region are raised once the reduction is done.
// RUN: tt-opt %s --split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @sum_1d
  tt.func public @sum_1d(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %s = "tt.reduce"(%r) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.reduce.return %c : i32
    }) {allocation.offset = 64 : i32} : (tensor<256xi32, #blocked>) -> i32
    // The two registers first, then the 32 lanes: an integer add over the
    // whole warp is one redux.sync (sm_80 on, as Triton's warpReduce).
    // make_range adds its start (0) to both registers first.
    // CHECK-COUNT-2: llvm.add %{{.*}}, %{{.*}} : i32
    // CHECK: %[[PAIR:.*]] = llvm.add
    // CHECK-NEXT: %[[ALL:.*]] = llvm.mlir.constant(-1 : i32)
    // CHECK: nvvm.redux.sync add %[[PAIR]], %[[ALL]] : i32 -> i32
    // CHECK-NOT: nvvm.shfl.sync
    // CHECK-NOT: nvvm.barrier0
    // CHECK: %[[LANE_MASK:.*]] = llvm.mlir.constant(31 : i32)
    // CHECK: %[[LEADER_BITS:.*]] = llvm.and %{{.*}}, %[[LANE_MASK]]
    // CHECK: %[[LEADER:.*]] = llvm.icmp "eq" %[[LEADER_BITS]]
    // CHECK: %[[OFF:.*]] = llvm.mlir.constant(64 : i32)
    // CHECK: llvm.getelementptr %{{.*}}[%[[OFF]]]
    // CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %{{.*}}, %{{.*}}, %[[LEADER]]
    // CHECK-NEXT: nvvm.barrier0
    // Triton's second stage: the first four threads load one warp's
    // partial each, combine them with a butterfly over their lanes, and
    // thread 0 stores the sum over warp 0's partial, which every thread
    // reads after a barrier: (w0 + w2) + (w1 + w3).
    // CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32)
    // CHECK-NEXT: %[[NEEDED:.*]] = llvm.icmp "ult" %[[TID:.*]], %[[FOUR]]
    // CHECK: %[[FIRST:.*]] = llvm.icmp "eq"
    // CHECK-NEXT: %[[WRITES:.*]] = llvm.and %[[NEEDED]], %[[FIRST]]
    // CHECK: %[[AT:.*]] = llvm.getelementptr %{{.*}}[%[[TID]]]
    // CHECK: %[[W:.*]] = llvm.inline_asm {{.*}}"@$2 ld.shared.b32 $0, [ $1 + 0 ];", "=r,r,b" %{{.*}}, %[[NEEDED]]
    // CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i32)
    // CHECK: %[[X2:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[W]], %[[TWO]]
    // CHECK-NEXT: %[[A:.*]] = llvm.add %[[W]], %[[X2]] : i32
    // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32)
    // CHECK: %[[X1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[A]], %[[ONE]]
    // CHECK-NEXT: %[[B:.*]] = llvm.add %[[A]], %[[X1]] : i32
    // CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %{{.*}}, %[[B]], %[[WRITES]]
    // CHECK-NEXT: nvvm.barrier0
    // CHECK: %[[LAST:.*]] = llvm.load {{.*}} : !llvm.ptr<3> -> i32
    // CHECK-NOT: nvvm.shfl.sync
    // CHECK: st.global.b32 {{.*}} %[[LAST]], %arg0
    tt.store %out, %s : !tt.ptr<i32>
    tt.return
  }
}

// -----

// Floats go through five lane steps, the widest exchange first (as Triton's
// warpReduce: floats then round as Triton's do); so do integer reductions
// whose combine is not a single redux.sync op, and narrow integers extend
// for redux.sync (signed for min and max) and truncate back.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @lanes_f32
  // CHECK: %[[X16:.*]] = llvm.mlir.constant(16 : i32)
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[X16]]
  // CHECK: %[[X8:.*]] = llvm.mlir.constant(8 : i32)
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[X8]]
  // CHECK: %[[X4:.*]] = llvm.mlir.constant(4 : i32)
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[X4]]
  // CHECK: %[[X2:.*]] = llvm.mlir.constant(2 : i32)
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[X2]]
  // CHECK: %[[X1:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[X1]]
  // CHECK-NOT: redux.sync
  // CHECK: llvm.return
  tt.func public @lanes_f32(%x: tensor<32xf32, #blocked>, %out: !tt.ptr<f32>) {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<32xf32, #blocked>) -> f32
    tt.store %out, %s : !tt.ptr<f32>
    tt.return
  }

  // CHECK-LABEL: llvm.func @lanes_two_ops
  // CHECK-COUNT-5: nvvm.shfl.sync bfly
  // CHECK-NOT: redux.sync
  // CHECK: llvm.return
  tt.func public @lanes_two_ops(%x: tensor<32xi32, #blocked>, %out: !tt.ptr<i32>) {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      %d = arith.muli %c, %c : i32
      tt.reduce.return %d : i32
    }) : (tensor<32xi32, #blocked>) -> i32
    tt.store %out, %s : !tt.ptr<i32>
    tt.return
  }

  // CHECK-LABEL: llvm.func @lanes_min_i8
  // CHECK: %[[W:.*]] = llvm.sext %{{.*}} : i8 to i32
  // CHECK: %[[R:.*]] = nvvm.redux.sync min %[[W]], %{{.*}} : i32 -> i32
  // CHECK: llvm.trunc %[[R]] : i32 to i8
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: llvm.return
  tt.func public @lanes_min_i8(%x: tensor<32xi8, #blocked>, %out: !tt.ptr<i8>) {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: i8, %b: i8):
      %c = arith.minsi %b, %a : i8
      tt.reduce.return %c : i8
    }) : (tensor<32xi8, #blocked>) -> i8
    tt.store %out, %s : !tt.ptr<i8>
    tt.return
  }

  // CHECK-LABEL: llvm.func @lanes_umax_i16
  // CHECK: llvm.zext %{{.*}} : i16 to i32
  // CHECK: nvvm.redux.sync umax
  // CHECK: llvm.return
  tt.func public @lanes_umax_i16(%x: tensor<32xi16, #blocked>, %out: !tt.ptr<i16>) {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: i16, %b: i16):
      %c = arith.maxui %a, %b : i16
      tt.reduce.return %c : i16
    }) : (tensor<32xi16, #blocked>) -> i16
    tt.store %out, %s : !tt.ptr<i16>
    tt.return
  }
}

// -----

// Along the lanes of a 2-D layout only: no scratch, no barrier; the
// result has the sliced layout.
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @max_rows
  tt.func public @max_rows(%out: !tt.ptr<f32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %b = tt.broadcast %e : tensor<1x64xi32, #blocked> -> tensor<8x64xi32, #blocked>
    %f = arith.sitofp %b : tensor<8x64xi32, #blocked> to tensor<8x64xf32, #blocked>
    %m = "tt.reduce"(%f) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %x = arith.maxnumf %a, %c : f32
      tt.reduce.return %x : f32
    }) : (tensor<8x64xf32, #blocked>) -> tensor<8xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    // Four registers along the row, then sixteen lanes.
    // CHECK-COUNT-3: llvm.intr.maxnum
    // CHECK-COUNT-4: nvvm.shfl.sync bfly
    // CHECK-NEXT: llvm.bitcast
    // CHECK-NEXT: llvm.intr.maxnum
    // CHECK-NOT: nvvm.barrier0
    // CHECK-NOT: st.shared
    // CHECK: llvm.return
    tt.return
  }
}

// -----

// Two operands (an argmax) across warps: each operand has its own part
// of the scratch; the combine region is cloned per step.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @argmax
  tt.func public @argmax(%out: !tt.ptr<i32>) {
    %i = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %v = arith.sitofp %i : tensor<64xi32, #blocked> to tensor<64xf32, #blocked>
    %m:2 = "tt.reduce"(%v, %i) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %a, %b : f32
      %x = arith.select %gt, %a, %b : f32
      %xi = arith.select %gt, %ai, %bi : i32
      tt.reduce.return %x, %xi : f32, i32
    }) : (tensor<64xf32, #blocked>, tensor<64xi32, #blocked>) -> (f32, i32)
    // Five lane steps, two shuffles (one per operand) each.
    // CHECK-COUNT-10: nvvm.shfl.sync bfly
    // The indices start 2 warps x 4 bytes after the values.
    // CHECK: %[[SCRATCH:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : {{.*}}, i8
    // CHECK-NEXT: llvm.mlir.constant(0 : i32)
    // CHECK-NEXT: %[[S0:.*]] = llvm.getelementptr %[[SCRATCH]]
    // CHECK-NEXT: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32)
    // CHECK-NEXT: %[[S1:.*]] = llvm.getelementptr %[[SCRATCH]][%[[EIGHT]]]
    // CHECK: llvm.getelementptr %[[S0]]
    // CHECK: st.shared.b32
    // CHECK: llvm.getelementptr %[[S1]]
    // CHECK: st.shared.b32
    // CHECK-NEXT: nvvm.barrier0
    // The second stage loads and exchanges both operands.
    // CHECK-COUNT-2: ld.shared.b32
    // CHECK-COUNT-2: nvvm.shfl.sync bfly
    // CHECK: llvm.fcmp "ogt"
    // CHECK: llvm.select
    // CHECK: llvm.select
    // CHECK-COUNT-2: st.shared.b32
    // CHECK-NEXT: nvvm.barrier0
    // CHECK: llvm.load
    // CHECK: %[[IDX:.*]] = llvm.load
    // CHECK: st.global.b32 {{.*}} %[[IDX]], %arg0
    tt.store %out, %m#1 : !tt.ptr<i32>
    tt.return
  }
}

// -----

// An argmax of bytes with i64 indices over four warps: the operands' parts
// of the scratch go widest first with no padding, as Triton places them
// (the indices at byte 0, the bytes after 4 warps x 8 bytes), so the
// 36 bytes the allocator reserves hold both; in the operands' order the
// indices would need padding to byte 8 and end 4 bytes past the scratch.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @argmax_bytes
  tt.func public @argmax_bytes(%v: tensor<128xi8, #blocked>, %out: !tt.ptr<i64>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %i = arith.extsi %r : tensor<128xi32, #blocked> to tensor<128xi64, #blocked>
    %m:2 = "tt.reduce"(%v, %i) <{axis = 0 : i32}> ({
    ^bb0(%a: i8, %ai: i64, %b: i8, %bi: i64):
      %gt = arith.cmpi sgt, %a, %b : i8
      %x = arith.select %gt, %a, %b : i8
      %xi = arith.select %gt, %ai, %bi : i64
      tt.reduce.return %x, %xi : i8, i64
    }) {allocation.offset = 0 : i32} : (tensor<128xi8, #blocked>, tensor<128xi64, #blocked>) -> (i8, i64)
    // CHECK: %[[SCRATCH:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : {{.*}}, i8
    // CHECK-NEXT: %[[AT32:.*]] = llvm.mlir.constant(32 : i32)
    // CHECK-NEXT: %[[BYTES:.*]] = llvm.getelementptr %[[SCRATCH]][%[[AT32]]]
    // CHECK-NEXT: %[[AT0:.*]] = llvm.mlir.constant(0 : i32)
    // CHECK-NEXT: %[[INDICES:.*]] = llvm.getelementptr %[[SCRATCH]][%[[AT0]]]
    // CHECK: llvm.getelementptr %[[BYTES]]
    // CHECK: st.shared.b8
    // CHECK: llvm.getelementptr %[[INDICES]]
    // CHECK: st.shared.b64
    // CHECK-NEXT: nvvm.barrier0
    tt.store %out, %m#1 : !tt.ptr<i64>
    tt.return
  }
}

// -----

// Barriers only where accesses to the same bytes meet: reading a buffer
// and then writing a scratch that the allocation placed after it needs
// none; reading the scratch back after the write does, and so does a
// second reduction that reuses the same scratch (at its start).
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 1040 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @disjoint_buffers
  tt.func public @disjoint_buffers(%out: !tt.ptr<f32>) {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<256xf32, #shared, #smem, mutable>
    %x = ttg.local_load %a : !ttg.memdesc<256xf32, #shared, #smem, mutable> -> tensor<256xf32, #blocked>
    // CHECK: nvvm.ldmatrix
    // CHECK-NOT: nvvm.barrier0
    // CHECK: st.shared.b32
    // CHECK-NEXT: nvvm.barrier0
    // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
    %m = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %r = arith.maxnumf %p, %q : f32
      tt.reduce.return %r : f32
    }) {allocation.offset = 1024 : i32} : (tensor<256xf32, #blocked>) -> f32
    // The second reduction waits for the first one's reads where it starts,
    // before its shuffles, as Triton's barrier before the op.
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-5: nvvm.shfl.sync bfly
    // CHECK-NOT: nvvm.barrier0
    // CHECK: st.shared.b32
    // CHECK-NEXT: nvvm.barrier0
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tt.reduce.return %r : f32
    }) {allocation.offset = 1024 : i32} : (tensor<256xf32, #blocked>) -> f32
    %t = arith.addf %m, %s : f32
    tt.store %out, %t : !tt.ptr<f32>
    tt.return
  }
}

// -----

// A checked combine (tl.device_assert in it): every step's failure joins one
// flag (every step combines real partials); the assertion is raised after
// the reduction, then a barrier, and the result is stored after that.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: llvm.mlir.global internal constant @assertMessage_0("overflow\00")
  // CHECK-LABEL: llvm.func @checked_sum
  // CHECK-COUNT-5: nvvm.shfl.sync bfly
  // CHECK: llvm.cond_br %{{.*}}, ^[[FAIL:.*]], ^[[JOIN:.*]]
  // CHECK: ^[[FAIL]]:
  // CHECK: llvm.mlir.addressof @assertMessage_0
  // CHECK: llvm.call @__assertfail
  // CHECK: ^[[JOIN]]:
  // CHECK: nvvm.bar.warp.sync
  // CHECK: st.global
  tt.func public @checked_sum(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
    %s = "tt.reduce"(%r) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      %ok = arith.cmpi sge, %c, %a : i32
      tt.assert %ok, "overflow" : i1
      tt.reduce.return %c : i32
    }) : (tensor<32xi32, #blocked>) -> i32
    tt.store %out, %s : !tt.ptr<i32>
    tt.return
  }
}

// -----

// More partials than threads (128 rows x 4 warps along the axis = 512, 256
// threads): the second stage takes two rounds, at the thread id and 256
// after it; every fourth lane stores each round's result. Partials of one
// row lie next to each other, the rows in the layout's order.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 4], order = [0, 1]}>
#slice = #ttg.slice<{dim = 1, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @two_rounds
  // CHECK-COUNT-16: st.shared.b32
  // CHECK-NEXT: nvvm.barrier0
  // CHECK: %[[THREE:.*]] = llvm.mlir.constant(3 : i32)
  // CHECK-NEXT: %[[GROUP:.*]] = llvm.and %{{.*}}, %[[THREE]]
  // CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[GROUP]]
  // CHECK-NEXT: %[[AT0:.*]] = llvm.getelementptr %[[ROWS:.*]][%[[TID:.*]]] : {{.*}}, i32
  // CHECK: ld.shared.b32 {{.*}} %[[AT0]]
  // CHECK-COUNT-2: nvvm.shfl.sync bfly
  // CHECK: st.shared.b32 {{.*}}, %[[FIRST]]
  // CHECK-NEXT: %[[N:.*]] = llvm.mlir.constant(256 : i32)
  // CHECK-NEXT: %[[NEXT:.*]] = llvm.add %[[TID]], %[[N]]
  // CHECK-NEXT: %[[AT1:.*]] = llvm.getelementptr %[[ROWS]][%[[NEXT]]]
  // CHECK: ld.shared.b32 {{.*}} %[[AT1]]
  // CHECK-COUNT-2: nvvm.shfl.sync bfly
  // CHECK: st.shared.b32 {{.*}}, %[[FIRST]]
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-COUNT-16: llvm.load
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  tt.func public @two_rounds(%x: tensor<128x64xf32, #blocked>, %out: !tt.ptr<f32>) {
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) {allocation.offset = 0 : i32} : (tensor<128x64xf32, #blocked>) -> tensor<128xf32, #slice>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #slice>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #slice>
    %q = tt.addptr %p, %r : tensor<128x!tt.ptr<f32>, #slice>, tensor<128xi32, #slice>
    tt.store %q, %s : tensor<128x!tt.ptr<f32>, #slice>
    tt.return
  }
}

// -----

// A checked combine across warps: the threads past the partials in the
// second stage combine garbage, so their failures do not count.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @checked_sum_warps
  // CHECK: nvvm.barrier0
  // CHECK: %[[NEEDED:.*]] = llvm.icmp "ult"
  // CHECK: %[[W:.*]] = llvm.inline_asm {{.*}}ld.shared.b32{{.*}}, %[[NEEDED]]
  // CHECK: %[[SUM:.*]] = llvm.add %[[W]]
  // CHECK-NEXT: %[[OK:.*]] = llvm.icmp "sge" %[[SUM]], %[[W]]
  // CHECK-NEXT: %[[FALSE:.*]] = llvm.mlir.constant(false)
  // CHECK-NEXT: %[[BAD:.*]] = llvm.icmp "eq" %[[OK]], %[[FALSE]]
  // CHECK-NEXT: %[[COUNTS:.*]] = llvm.and %[[BAD]], %[[NEEDED]]
  // CHECK-NEXT: %[[ANY:.*]] = llvm.or %{{.*}}, %[[COUNTS]]
  // CHECK: llvm.cond_br %[[ANY]]
  tt.func public @checked_sum_warps(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %s = "tt.reduce"(%r) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      %ok = arith.cmpi sge, %c, %a : i32
      tt.assert %ok, "overflow" : i1
      tt.reduce.return %c : i32
    }) {allocation.offset = 0 : i32} : (tensor<64xi32, #blocked>) -> i32
    tt.store %out, %s : !tt.ptr<i32>
    tt.return
  }
}

// -----

// Where shared memory leaves room for fewer than four CTAs per SM
// (ttg.shared = 128 KiB of sm_90's 228 KiB), every thread reads the warps'
// partials itself and combines them in the tree of Triton's second
// butterfly, (w0 + w2) + (w1 + w3): no second barrier, no shuffles.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 131072 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @few_ctas
  // CHECK: st.shared.b32
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NOT: ld.shared
  // CHECK: %[[I0:.*]] = llvm.load {{.*}} : !llvm.ptr<3> -> i32
  // CHECK-NEXT: %[[W0:.*]] = llvm.bitcast %[[I0]] : i32 to f32
  // CHECK: %[[I1:.*]] = llvm.load {{.*}} : !llvm.ptr<3> -> i32
  // CHECK-NEXT: %[[W1:.*]] = llvm.bitcast %[[I1]] : i32 to f32
  // CHECK: %[[I2:.*]] = llvm.load {{.*}} : !llvm.ptr<3> -> i32
  // CHECK-NEXT: %[[W2:.*]] = llvm.bitcast %[[I2]] : i32 to f32
  // CHECK: %[[I3:.*]] = llvm.load {{.*}} : !llvm.ptr<3> -> i32
  // CHECK-NEXT: %[[W3:.*]] = llvm.bitcast %[[I3]] : i32 to f32
  // CHECK-NEXT: %[[A:.*]] = llvm.fadd %[[W0]], %[[W2]] : f32
  // CHECK-NEXT: %[[B:.*]] = llvm.fadd %[[W1]], %[[W3]] : f32
  // CHECK-NEXT: %[[SUM:.*]] = llvm.fadd %[[A]], %[[B]] : f32
  // CHECK-NOT: nvvm.barrier0
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: st.global.b32 {{.*}} %{{.*}}, %arg1
  tt.func public @few_ctas(%x: tensor<128xf32, #blocked>, %out: !tt.ptr<f32>) {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) {allocation.offset = 0 : i32} : (tensor<128xf32, #blocked>) -> f32
    tt.store %out, %s : !tt.ptr<f32>
    tt.return
  }
}
