// tritongpu-pipeline: every case here gives Triton 3.6's output
// (`scripts/compare-triton-lit.py --file test/lit/ttg/tritongpu-pipeline.mlir
// --passes tritongpu-pipeline`). Loads read in a later stage become async
// copies into rings of shared buffers (as many as the stage distance, one
// more for a wgmma operand), issued in the prologue for the first
// iterations and in the kernel loop for the iterations ahead, masked by
// their iteration's bound, waited for (`num` = the groups issued since)
// and read in the consumer's stage; values that cross stages are carried
// in one loop argument per iteration in flight; dots: MMA v2 operands are
// read with `ttg.local_load`, wgmma reads the ring in place and stays in
// flight across iterations when it can (`ttng.warp_group_dot_wait`
// `pendings = 1` in the loop, 0 after it). Then the pipelining attributes
// go and the module is folded. Loops without a schedule are untouched;
// what this project cannot pipeline yet is refused with a located error.
// Scalar loads are copied as one-element tensors.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-pipeline | FileCheck %s
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-pipeline | tt-opt --split-input-file > /dev/null
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-pipeline='dump-intermediate-steps=true' 2>&1 >/dev/null | FileCheck %s --check-prefix=DUMP
// DUMP: // -----// SoftwarePipeliner internal IR Dump After: LowerLoops
// DUMP: ttg.async_copy_global_to_local
// DUMP: // -----// SoftwarePipeliner internal IR Dump After: ExpandLoops

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func public @rows
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[CM1:.*]] = arith.constant -1 : i32
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x256xf32, #shared, #smem, mutable>
// CHECK: %[[P0:.*]] = arith.cmpi slt, %[[LB:.*]], %[[UB:.*]] : i32
// CHECK: arith.muli %[[LB]], %{{.*}} : i32
// CHECK: %[[V0:.*]] = ttg.memdesc_index %[[BUF]][%[[C0]]]
// CHECK: %[[S0:.*]] = tt.splat %[[P0]] : i1 -> tensor<256xi1, #blocked>
// CHECK: %[[M0:.*]] = arith.andi %[[S0]], %[[MASK:.*]] : tensor<256xi1, #blocked>
// CHECK: %[[CP0:.*]] = ttg.async_copy_global_to_local %{{.*}}, %[[V0]] mask %[[M0]] other %[[OTHER:.*]] :
// CHECK: %[[T0:.*]] = ttg.async_commit_group tokens %[[CP0]]
// CHECK: scf.for %[[IV:.*]] = %[[LB]] to %[[UB]] step %[[STEP:.*]] iter_args(%[[INS:.*]] = %[[C0]], %[[EXT:.*]] = %[[CM1]], %[[NB:.*]] = %[[C1]], %[[TOK:.*]] = %[[T0]]) -> (i32, i32, i32, !ttg.async.token)  : i32 {
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[UB]], %[[STEP]] : i32
// CHECK-NEXT: %[[P:.*]] = arith.cmpi slt, %[[IV]], %[[LAST]] : i32
// CHECK-NEXT: %[[E1:.*]] = arith.addi %[[EXT]], %[[C1]] : i32
// CHECK-NEXT: %[[E2:.*]] = arith.cmpi sge, %[[E1]], %[[NB]] : i32
// CHECK-NEXT: %[[E3:.*]] = arith.select %[[E2]], %[[C0]], %[[E1]] : i32
// CHECK-NEXT: %[[W:.*]] = ttg.async_wait %[[TOK]] {num = 0 : i32}
// CHECK-NEXT: %[[RV:.*]] = ttg.memdesc_index %[[BUF]][%[[E3]]]
// CHECK-NEXT: %[[LD:.*]] = ttg.local_load %[[RV]] token %[[W]]
// CHECK-NEXT: %[[X:.*]] = arith.select %[[MASK]], %[[LD]], %[[OTHER]]
// CHECK-NEXT: arith.addf %[[X]], %[[X]]
// CHECK-NEXT: arith.muli %[[IV]], %{{.*}} : i32
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.splat
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.store
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[INS]], %[[C1]] : i32
// CHECK-NEXT: %[[I2:.*]] = arith.cmpi sge, %[[I1]], %[[C1]] : i32
// CHECK-NEXT: %[[I3:.*]] = arith.select %[[I2]], %[[C0]], %[[I1]] : i32
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[IV]], %[[STEP]] : i32
// CHECK-NEXT: arith.muli %[[NEXT]], %{{.*}} : i32
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.splat
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: %[[WV:.*]] = ttg.memdesc_index %[[BUF]][%[[I3]]]
// CHECK-NEXT: %[[SP:.*]] = tt.splat %[[P]] : i1 -> tensor<256xi1, #blocked>
// CHECK-NEXT: %[[MP:.*]] = arith.andi %[[SP]], %[[MASK]]
// CHECK-NEXT: %[[CP:.*]] = ttg.async_copy_global_to_local %{{.*}}, %[[WV]] mask %[[MP]] other %[[OTHER]]
// CHECK-NEXT: %[[T:.*]] = ttg.async_commit_group tokens %[[CP]]
// CHECK-NEXT: scf.yield %[[I3]], %[[E3]], %[[C1]], %[[T]] : i32, i32, i32, !ttg.async.token
// CHECK-NEXT: } {tt.num_stages = 2 : i32}
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[BUF]]
// CHECK-NOT: loop.stage
  tt.func public @rows(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32, %n: i32, %cols: i32) {
    %other = arith.constant dense<1.000000e+00> : tensor<256xf32, #b>
    %lb = tt.get_program_id x : i32
    %step = tt.get_num_programs x : i32
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b>
    %cs = tt.splat %cols : i32 -> tensor<256xi32, #b>
    %mask = arith.cmpi slt, %r, %cs : tensor<256xi32, #b>
    scf.for %i = %lb to %n step %step : i32 {
      %o = arith.muli %i, %stride {loop.cluster = 1 : i32, loop.stage = 0 : i32} : i32
      %p = tt.addptr %in, %o {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>, i32
      %ps = tt.splat %p {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #b>
      %pp = tt.addptr %ps, %r {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<256x!tt.ptr<f32>, #b>, tensor<256xi32, #b>
      %x = tt.load %pp, %mask, %other {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<256x!tt.ptr<f32>, #b>
      %y = arith.addf %x, %x {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<256xf32, #b>
      %oo = arith.muli %i, %stride {loop.cluster = 0 : i32, loop.stage = 1 : i32} : i32
      %q = tt.addptr %out, %oo {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !tt.ptr<f32>, i32
      %qs = tt.splat %q {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #b>
      %qp = tt.addptr %qs, %r {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<256x!tt.ptr<f32>, #b>, tensor<256xi32, #b>
      tt.store %qp, %y, %mask {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<256x!tt.ptr<f32>, #b>
    } {tt.num_stages = 2 : i32, tt.scheduled_max_stage = 1 : i32}
    tt.return
  }

// A zero `other` needs no select; the loop without a schedule is untouched.
// CHECK-LABEL: tt.func public @zero_other
// CHECK: ttg.local_load
// CHECK-NOT: arith.select %{{.*}} : tensor
// CHECK: tt.store
// CHECK: scf.for
// CHECK-NEXT: tt.load
  tt.func public @zero_other(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %cols: i32) {
    %zero = arith.constant dense<0.000000e+00> : tensor<128xf32, #b>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %cs = tt.splat %cols : i32 -> tensor<128xi32, #b>
    %mask = arith.cmpi slt, %r, %cs : tensor<128xi32, #b>
    %s = tt.splat %in : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    %pp = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %pp, %mask, %zero {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<128x!tt.ptr<f32>, #b>
      tt.store %pp, %x, %mask {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<128x!tt.ptr<f32>, #b>
    } {tt.scheduled_max_stage = 1 : i32}
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %pp, %mask, %zero : tensor<128x!tt.ptr<f32>, #b>
      tt.store %pp, %x, %mask : tensor<128x!tt.ptr<f32>, #b>
    }
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func public @three_stages
// CHECK: %[[RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x128xf32
// CHECK: %[[FIRST:.*]] = ttg.memdesc_index %[[RING]][%c0_i32]
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %[[FIRST]]
// CHECK: %[[T0:.*]] = ttg.async_commit_group
// CHECK: %[[SECOND:.*]] = ttg.memdesc_index %[[RING]][%c1_i32]
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %[[SECOND]]
// CHECK: %[[T1:.*]] = ttg.async_commit_group
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %c1_i32, %{{.*}} = %c-1_i32, %{{.*}} = %c2_i32, %[[NB:.*]] = %c2_i32, %[[OLDEST:.*]] = %[[T0]], %[[NEXT:.*]] = %[[T1]])
// CHECK: arith.subi %arg2, %c2_i32
// CHECK: ttg.async_wait %[[OLDEST]] {num = 1 : i32}
// CHECK: ttg.local_load
// CHECK: tt.store
// CHECK: %[[COPY:.*]] = ttg.async_copy_global_to_local
// CHECK: %[[NEW:.*]] = ttg.async_commit_group tokens %[[COPY]]
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[NB]], %c2_i32, %[[NEXT]], %[[NEW]]
// CHECK: ttg.async_wait {num = 0 : i32}
// CHECK: ttg.local_dealloc %[[RING]]
  tt.func public @three_stages(%pp: tensor<128x!tt.ptr<f32>, #b>, %mask: tensor<128xi1, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %pp, %mask {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<128x!tt.ptr<f32>, #b>
      tt.store %pp, %x, %mask {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x!tt.ptr<f32>, #b>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// A value made in a middle stage is carried to the last one in a loop
// argument; the prologue runs stage 1 of the first iteration.
// CHECK-LABEL: tt.func public @middle_stage
// CHECK: %[[RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x128xf32
// CHECK: %[[T0:.*]] = ttg.async_commit_group
// CHECK: %[[W0:.*]] = ttg.async_wait %[[T0]] {num = 0 : i32}
// CHECK: %[[L0:.*]] = ttg.local_load %{{.*}} token %[[W0]]
// CHECK: %[[Y0:.*]] = arith.addf %[[L0]], %[[L0]]
// CHECK: %[[T1:.*]] = ttg.async_commit_group
// CHECK: scf.for {{.*}} iter_args({{.*}}, %[[TOK:.*]] = %[[T1]], %[[Y:.*]] = %[[Y0]])
// CHECK: ttg.async_wait %[[TOK]] {num = 0 : i32}
// CHECK: %[[L:.*]] = ttg.local_load
// CHECK: %[[YN:.*]] = arith.addf %[[L]], %[[L]]
// CHECK: tt.store %arg0, %[[Y]], %arg1
// CHECK: %[[TN:.*]] = ttg.async_commit_group
// CHECK: scf.yield {{.*}}, %[[TN]], %[[YN]]
  tt.func public @middle_stage(%pp: tensor<128x!tt.ptr<f32>, #b>, %mask: tensor<128xi1, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tt.load %pp, %mask {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<128x!tt.ptr<f32>, #b>
      %y = arith.addf %x, %x {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<128xf32, #b>
      tt.store %pp, %y, %mask {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x!tt.ptr<f32>, #b>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// The loop's own arguments stay first; the counters follow.
// CHECK-LABEL: tt.func public @carried
// CHECK: scf.for {{.*}} iter_args(%[[A:.*]] = %c0_i32, %{{.*}} = %c0_i32, %{{.*}} = %c-1_i32, %{{.*}} = %c1_i32, %{{.*}} = %{{.*}}) -> (i32, i32, i32, i32, !ttg.async.token)
// CHECK: %[[AN:.*]] = arith.addi %[[A]], %c1_i32 : i32
// CHECK: scf.yield %[[AN]],
  tt.func public @carried(%pp: tensor<128x!tt.ptr<f32>, #b>, %mask: tensor<128xi1, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (i32) : i32 {
      %x = tt.load %pp, %mask {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<128x!tt.ptr<f32>, #b>
      tt.store %pp, %x, %mask {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<128x!tt.ptr<f32>, #b>
      %b = arith.addi %a, %c1 {loop.cluster = 0 : i32, loop.stage = 1 : i32} : i32
      scf.yield %b : i32
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// MMA v2 (`matmul_naive`'s shape): both operands in rings of two
// swizzled buffers (the swizzle their dot operands need), one wait for the
// two oldest copies, each operand read with `ttg.local_load`.
// CHECK-LABEL: tt.func public @mma_v2
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x16x16xf16, #[[SW:shared[0-9]*]], #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x16x16xf16, #[[SW]], #smem, mutable>
// CHECK-COUNT-4: ttg.async_copy_global_to_local {{.*}} {contiguity = 2 : i32}
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %cst, {{.*}}, %[[A0:[^ ]*]] = %{{.*}}, %{{[^ ]*}} = %{{.*}}, %[[B0:[^ ]*]] = %{{.*}}, %{{[^ ]*}} = %{{.*}})
// CHECK: %[[W:.*]] = ttg.async_wait %[[A0]], %[[B0]] {num = 2 : i32}
// CHECK: %[[VA:.*]] = ttg.memdesc_index %[[RA]]
// CHECK: ttg.local_load %[[VA]] token %[[W]]
// CHECK: %[[VB:.*]] = ttg.memdesc_index %[[RB]]
// CHECK: ttg.local_load %[[VB]] token %[[W]]
// CHECK: tt.dot
// CHECK-COUNT-2: ttg.async_copy_global_to_local
// CHECK: scf.yield
// CHECK: ttg.async_wait {num = 0 : i32}
  tt.func public @mma_v2(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: i32) -> tensor<16x16xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #mma>
    %step = arith.constant dense<16> : tensor<16x16xi32, #blocked>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x16xi32, #blocked>
    %rb = tt.broadcast %r2 : tensor<1x16xi32, #blocked> -> tensor<16x16xi32, #blocked>
    %sa = tt.splat %a : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>, #blocked>
    %pa = tt.addptr %sa, %rb : tensor<16x16x!tt.ptr<f16>, #blocked>, tensor<16x16xi32, #blocked>
    %sb = tt.splat %b : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>, #blocked>
    %pb = tt.addptr %sb, %rb : tensor<16x16x!tt.ptr<f16>, #blocked>, tensor<16x16xi32, #blocked>
    %res:3 = scf.for %i = %c0 to %k step %c16 iter_args(%acc = %zero, %xa = %pa, %xb = %pb) -> (tensor<16x16xf32, #mma>, tensor<16x16x!tt.ptr<f16>, #blocked>, tensor<16x16x!tt.ptr<f16>, #blocked>) : i32 {
      %la = tt.load %xa {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<16x16x!tt.ptr<f16>, #blocked>
      %lb = tt.load %xb {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<16x16x!tt.ptr<f16>, #blocked>
      %da = ttg.convert_layout %la {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<16x16xf16, #blocked> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %db = ttg.convert_layout %lb {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<16x16xf16, #blocked> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      %d = tt.dot %da, %db, %acc {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32, #mma>
      %na = tt.addptr %xa, %step {loop.cluster = 1 : i32, loop.stage = 1 : i32} : tensor<16x16x!tt.ptr<f16>, #blocked>, tensor<16x16xi32, #blocked>
      %nb = tt.addptr %xb, %step {loop.cluster = 1 : i32, loop.stage = 1 : i32} : tensor<16x16x!tt.ptr<f16>, #blocked>, tensor<16x16xi32, #blocked>
      scf.yield %d, %na, %nb : tensor<16x16xf32, #mma>, tensor<16x16x!tt.ptr<f16>, #blocked>, tensor<16x16x!tt.ptr<f16>, #blocked>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %res#0 : tensor<16x16xf32, #mma>
  }
}

// -----

#ba = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bb = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// wgmma: both operands' `ttg.local_alloc`s become the ring's views (three
// buffers for two stages: the dot reads one iteration longer); the dot is
// asynchronous and one stays in flight across iterations.
// CHECK-LABEL: tt.func public @mma_v3
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x128xf16, #shared, #smem, mutable>
// CHECK: scf.for
// CHECK: ttg.async_wait %{{.*}}, %{{.*}} {num = 2 : i32}
// CHECK: %[[VA:.*]] = ttg.memdesc_index %[[RA]]
// CHECK: %[[VB:.*]] = ttg.memdesc_index %[[RB]]
// CHECK: %[[D:.*]] = ttng.warp_group_dot %[[VA]], %[[VB]], %{{.*}} {inputPrecision = 0 : i32, isAsync = true}
// CHECK: %[[DW:.*]]:3 = ttng.warp_group_dot_wait %[[D]], %[[VA]], %[[VB]] {pendings = 1 : i32}
// CHECK: scf.yield %[[DW]]#0,
// CHECK: %[[R:.*]] = ttng.warp_group_dot_wait %{{.*}}#0 {pendings = 0 : i32}
// CHECK: ttg.async_wait {num = 0 : i32}
// CHECK: tt.return %[[R]]
  tt.func public @mma_v3(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: i32) -> tensor<64x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %sta = arith.constant dense<64> : tensor<64x64xi32, #ba>
    %stb = arith.constant dense<8192> : tensor<64x128xi32, #bb>
    %ra = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #ba}>>
    %ra2 = tt.expand_dims %ra {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #ba}>> -> tensor<1x64xi32, #ba>
    %rab = tt.broadcast %ra2 : tensor<1x64xi32, #ba> -> tensor<64x64xi32, #ba>
    %sa = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #ba>
    %pa = tt.addptr %sa, %rab : tensor<64x64x!tt.ptr<f16>, #ba>, tensor<64x64xi32, #ba>
    %rb = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #bb}>>
    %rb2 = tt.expand_dims %rb {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #bb}>> -> tensor<1x128xi32, #bb>
    %rbb = tt.broadcast %rb2 : tensor<1x128xi32, #bb> -> tensor<64x128xi32, #bb>
    %sb = tt.splat %b : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>, #bb>
    %pb = tt.addptr %sb, %rbb : tensor<64x128x!tt.ptr<f16>, #bb>, tensor<64x128xi32, #bb>
    %res:3 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero, %xa = %pa, %xb = %pb) -> (tensor<64x128xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #ba>, tensor<64x128x!tt.ptr<f16>, #bb>) : i32 {
      %la = tt.load %xa {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x64x!tt.ptr<f16>, #ba>
      %sha = ttg.local_alloc %la {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x64xf16, #ba>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %lb = tt.load %xb {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x128x!tt.ptr<f16>, #bb>
      %shb = ttg.local_alloc %lb {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64x128xf16, #bb>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %d = ttng.warp_group_dot %sha, %shb, %acc {inputPrecision = 0 : i32, loop.cluster = 0 : i32, loop.stage = 2 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<64x128xf32, #mma>
      %na = tt.addptr %xa, %sta {loop.cluster = 1 : i32, loop.stage = 1 : i32} : tensor<64x64x!tt.ptr<f16>, #ba>, tensor<64x64xi32, #ba>
      %nb = tt.addptr %xb, %stb {loop.cluster = 1 : i32, loop.stage = 1 : i32} : tensor<64x128x!tt.ptr<f16>, #bb>, tensor<64x128xi32, #bb>
      scf.yield %d, %na, %nb : tensor<64x128xf32, #mma>, tensor<64x64x!tt.ptr<f16>, #ba>, tensor<64x128x!tt.ptr<f16>, #bb>
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %res#0 : tensor<64x128xf32, #mma>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// A scalar load of 32 bits is copied as a one-element tensor and read
// back with `tt.unsplat`.
// CHECK-LABEL: tt.func public @scalar_load
// CHECK: %[[RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xf32
// CHECK: %[[P0:.*]] = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1x!tt.ptr<f32>, #blocked>
// CHECK: ttg.async_copy_global_to_local %[[P0]]
// CHECK: scf.for
// CHECK: %[[L:.*]] = ttg.local_load %{{.*}} token %{{.*}} -> tensor<1xf32, #blocked>
// CHECK: %[[X:.*]] = tt.unsplat %[[L]] : tensor<1xf32, #blocked>
// CHECK: tt.splat %[[X]] : f32 -> tensor<128xf32, #blocked>
// CHECK: %[[P:.*]] = tt.addptr %arg0
// CHECK: %[[PS:.*]] = tt.splat %[[P]] : !tt.ptr<f32> -> tensor<1x!tt.ptr<f32>, #blocked>
// CHECK: ttg.async_copy_global_to_local %[[PS]]
  tt.func public @scalar_load(%p: !tt.ptr<f32>, %out: tensor<128x!tt.ptr<f32>, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %pi = tt.addptr %p, %i {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>, i32
      %x = tt.load %pi {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>
      %s = tt.splat %x {loop.cluster = 0 : i32, loop.stage = 1 : i32} : f32 -> tensor<128xf32, #b>
      tt.store %out, %s {loop.cluster = 0 : i32, loop.stage = 1 : i32} : tensor<128x!tt.ptr<f32>, #b>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}

// -----

// A schedule that runs an op of stage 0 (the address of the next load)
// before the stage-2 op it reads through the loop (the `scf.if` that
// advances `k`): Triton's warning, and the loop stays as lowered, not
// expanded: each iteration copies, waits for and reads its own load.
// CHECK-LABEL: tt.func public @kernel_pipe_error
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x64xf32
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: scf.for
// CHECK: ttg.async_copy_global_to_local
// CHECK-NEXT: ttg.async_commit_group
// CHECK-NEXT: ttg.async_wait %{{.*}} {num = 0 : i32}
// CHECK: ttg.local_load
// CHECK: tt.store
// CHECK: scf.if
// CHECK: } {tt.num_stages = 3 : i32}
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel_pipe_error(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>) attributes {noinline = false} {
    %cst = arith.constant 0.000000e+00 : f32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
    %3 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
    %4 = scf.for %arg2 = %c0_i32 to %c64_i32 step %c1_i32 iter_args(%arg3 = %c0_i32) -> (i32)  : i32 {
      // expected-warning @+1 {{operation scheduled before its operands. Pipelining will be disabled.}}
      %5 = arith.muli %arg3, %c64_i32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %6 = tt.splat %5 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32 -> tensor<64xi32, #blocked>
      %7 = tt.addptr %2, %6 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
      %8 = tt.load %7 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<64x!tt.ptr<f32>, #blocked>
      %9 = arith.muli %arg2, %c64_i32 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : i32
      %10 = tt.splat %9 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : i32 -> tensor<64xi32, #blocked>
      %11 = arith.addi %0, %10 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64xi32, #blocked>
      %12 = tt.addptr %3, %11 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
      tt.store %12, %8 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64x!tt.ptr<f32>, #blocked>
      %13 = tt.reshape %8 allow_reorder {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<64xf32, #blocked> -> tensor<64xf32, #blocked>
      %14 = "tt.reduce"(%13) <{axis = 0 : i32}> ({
      ^bb0(%arg4: f32, %arg5: f32):
        %17 = arith.maxnumf %arg4, %arg5 : f32
        tt.reduce.return %17 : f32
      }) {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<64xf32, #blocked>) -> f32
      %15 = arith.cmpf ogt, %14, %cst {loop.cluster = 0 : i32, loop.stage = 2 : i32} : f32
      // expected-note-re @+1 {{operand defined here: %{{[0-9]+}} = "scf.if"}}
      %16 = scf.if %15 -> (i32) {
        %17 = arith.addi %arg3, %c1_i32 : i32
        scf.yield %17 : i32
      } else {
        scf.yield %arg3 : i32
      } {loop.cluster = 3 : i32, loop.stage = 2 : i32}
      scf.yield %16 : i32
    } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// A load too narrow for cp.async (one byte a thread) read two stages
// later: Triton's remark, and the load is pipelined in registers (two
// iterations' values carried in loop arguments).
// CHECK-LABEL: tt.func public @narrow_load
// CHECK-NOT: ttg.local_alloc
// CHECK: %[[L0:.*]] = tt.load %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<i8>, #blocked>
// CHECK: %[[L1:.*]] = tt.load %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<i8>, #blocked>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[A5:.*]] = %[[L0]], %[[A6:.*]] = %[[L1]])
// CHECK: tt.store %{{.*}}, %[[A5]]
// CHECK: %[[NEXT:.*]] = tt.load
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[A6]], %[[NEXT]]
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @narrow_load(%arg0: !tt.ptr<i8>, %arg1: !tt.ptr<i8>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %c128_i32 = arith.constant 128 : i32
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<128x!tt.ptr<i8>, #blocked>, tensor<128xi32, #blocked>
    %3 = tt.splat %arg1 : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>, #blocked>
    scf.for %i = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
      %5 = arith.muli %i, %c128_i32 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32
      %6 = tt.splat %5 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : i32 -> tensor<128xi32, #blocked>
      %7 = tt.addptr %2, %6 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x!tt.ptr<i8>, #blocked>, tensor<128xi32, #blocked>
      // expected-remark @+1 {{Pipelining load that cannot use vectorized copy. This will likely lead to pipelining in registers and severe performance degradation.}}
      %8 = tt.load %7 {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x!tt.ptr<i8>, #blocked>
      %9 = tt.addptr %3, %6 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x!tt.ptr<i8>, #blocked>, tensor<128xi32, #blocked>
      tt.store %9, %8 {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x!tt.ptr<i8>, #blocked>
    } {tt.num_stages = 3 : i32, tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}
