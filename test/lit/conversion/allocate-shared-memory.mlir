// Shared-memory allocation as Triton 3.6 does it: explicit buffers
// (ttg.local_alloc), scratch for reductions across warps, used atomic
// results and histograms, offsets reused by buffers whose lives do not
// overlap, and the module's total in ttg.shared.
// RUN: tt-opt %s --split-input-file --allocate-shared-memory-nv='compute-capability=90 ptx-version=87' | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2d = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: module attributes {{{.*}}ttg.shared = 16 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @reductions
  tt.func @reductions(%x: tensor<1024xf32, #blocked>, %y: tensor<4x128xf32, #blocked2d>) -> (f32, tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked2d}>>) {
    // Four warps along the axis: one f32 slot per warp.
    // CHECK: tt.reduce
    // CHECK: }) {allocation.offset = 0 : i32} : (tensor<1024xf32, #blocked>) -> f32
    %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    // Each row within one warp: no scratch.
    // CHECK: tt.reduce
    // CHECK: }) : (tensor<4x128xf32, #{{.*}}>) -> tensor<4xf32
    %q = "tt.reduce"(%y) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.maxnumf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<4x128xf32, #blocked2d>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked2d}>>
    tt.return %r, %q : f32, tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked2d}>>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// 4096 (%a) + 16 (the reduce while %a is live); %b reuses offset 0.
// CHECK: module attributes {{{.*}}ttg.shared = 4112 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @liveness
  tt.func @liveness(%x: tensor<1024xf32, #blocked>) -> f32 {
    // CHECK: ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1024xf32
    %a = ttg.local_alloc : () -> !ttg.memdesc<1024xf32, #shared, #smem, mutable>
    ttg.local_store %x, %a : tensor<1024xf32, #blocked> -> !ttg.memdesc<1024xf32, #shared, #smem, mutable>
    // CHECK: }) {allocation.offset = 4096 : i32}
    %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %l = ttg.local_load %a : !ttg.memdesc<1024xf32, #shared, #smem, mutable> -> tensor<1024xf32, #blocked>
    ttg.local_dealloc %a : !ttg.memdesc<1024xf32, #shared, #smem, mutable>
    // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 0 : i32} : (tensor<1024xf32, #blocked>) -> !ttg.memdesc<1024xf32
    %b = ttg.local_alloc %l : (tensor<1024xf32, #blocked>) -> !ttg.memdesc<1024xf32, #shared, #smem>
    %m = ttg.local_load %b : !ttg.memdesc<1024xf32, #shared, #smem> -> tensor<1024xf32, #blocked>
    // CHECK: }) {allocation.offset = 0 : i32}
    %t = "tt.reduce"(%m) <{axis = 0 : i32}> ({
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %u = arith.addf %r, %t : f32
    tt.return %u : f32
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// The broadcast atomic result (64 elements over 128 threads) takes 256
// bytes at 0; the scalar one 4 bytes and the histogram max(16, 32) i32
// slots, each at 0 again since each is live only at its op.
// CHECK: module attributes {{{.*}}ttg.shared = 256 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @atomics
  tt.func @atomics(%p: !tt.ptr<f32>, %v: f32, %ps: tensor<64x!tt.ptr<f32>, #blocked>, %vs: tensor<64xf32, #blocked>, %h: tensor<64xi32, #blocked>) -> (f32, tensor<64xf32, #blocked>, tensor<16xi32, #blocked>) {
    // CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}} {allocation.offset = 0 : i32} : (!tt.ptr<f32>, f32) -> f32
    %a = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
    // CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}} {allocation.offset = 0 : i32} : (tensor<64x!tt.ptr<f32>
    %b = tt.atomic_rmw fadd, acq_rel, gpu, %ps, %vs : (tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked>
    // An unused result needs no scratch.
    // CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}} : (!tt.ptr<f32>, f32) -> f32
    %c = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
    // CHECK: tt.histogram %{{.*}} {allocation.offset = 0 : i32}
    %d = tt.histogram %h : tensor<64xi32, #blocked> -> tensor<16xi32, #blocked>
    tt.return %a, %b, %d : f32, tensor<64xf32, #blocked>, tensor<16xi32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2d = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]}>
// The 1-d scan: 4 warps x 1 lane x 1 element x 2 tiles = 8 slots of
// f32 + i32 (64 bytes). The 2-d one along dim 1: 4 warps x 4 lanes x 1
// element x (1 tile along dim 1) x (2 tiles along dim 0) = 32 f32 slots.
// CHECK: module attributes {{{.*}}ttg.shared = 128 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @scans
  tt.func @scans(%x: tensor<1024xf32, #blocked>, %i: tensor<1024xi32, #blocked>, %y: tensor<8x128xf32, #blocked2d>) -> (tensor<1024xf32, #blocked>, tensor<8x128xf32, #blocked2d>) {
    // CHECK: tt.scan
    // CHECK: }) {allocation.offset = 0 : i32} : (tensor<1024xf32, #blocked>, tensor<1024xi32, #blocked>)
    %s:2 = "tt.scan"(%x, %i) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %c = arith.addf %a, %b : f32
      %ci = arith.addi %ai, %bi : i32
      tt.scan.return %c, %ci : f32, i32
    }) : (tensor<1024xf32, #blocked>, tensor<1024xi32, #blocked>) -> (tensor<1024xf32, #blocked>, tensor<1024xi32, #blocked>)
    // CHECK: tt.scan
    // CHECK: }) {allocation.offset = 0 : i32} : (tensor<8x128xf32
    %t = "tt.scan"(%y) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.scan.return %c : f32
    }) : (tensor<8x128xf32, #blocked2d>) -> tensor<8x128xf32, #blocked2d>
    tt.return %s#0, %t : tensor<1024xf32, #blocked>, tensor<8x128xf32, #blocked2d>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// A noinline function's shared memory is a buffer of the call (Triton's
// virtual buffer): the callee's own size (its reduction across four warps,
// 16 bytes), placed apart from the caller's buffer (1 KiB) live across the
// first call, over it at the second.
// CHECK: module attributes {{{.*}}ttg.shared = 1040 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func private @sum
  // CHECK: }) {allocation.offset = 0 : i32}
  tt.func private @sum(%x: tensor<256xf32, #blocked>) -> f32 attributes {noinline = true} {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<256xf32, #blocked>) -> f32
    tt.return %s : f32
  }
  // CHECK-LABEL: tt.func public @k
  tt.func public @k(%x: tensor<256xf32, #blocked>) -> f32 {
    // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 0 : i32}
    %m = ttg.local_alloc %x : (tensor<256xf32, #blocked>) -> !ttg.memdesc<256xf32, #shared, #smem>
    // CHECK: tt.call @sum(%{{.*}}) {allocation.offset = 1024 : i32}
    %s = tt.call @sum(%x) : (tensor<256xf32, #blocked>) -> f32
    %y = ttg.local_load %m : !ttg.memdesc<256xf32, #shared, #smem> -> tensor<256xf32, #blocked>
    // CHECK: tt.call @sum(%{{.*}}) {allocation.offset = 0 : i32}
    %t = tt.call @sum(%y) : (tensor<256xf32, #blocked>) -> f32
    %r = arith.addf %s, %t : f32
    tt.return %r : f32
  }
}

// -----

// ttg.warp_specialize: its captures get scratch (8 + 8 + 8 + 4 bytes,
// 8-aligned) for the op alone; buffers of one region reuse bytes as their
// lives allow, but the default region and each partition run at the same
// time, so their buffers never share bytes; the function keeps one byte per
// partition warp for its whole run. Offsets as the triton==3.6.0 wheel
// gives them.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// CHECK-LABEL: module attributes {"ttg.num-warps" = 4 : i32, ttg.shared = 1411 : i32}
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK: tt.func @ws({{.*}}) attributes {allocation.offset = 1408 : i32}
  tt.func @ws(%p: !tt.ptr<i32>, %n: i64) {
    // CHECK: ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<256xi32
    %a = ttg.local_alloc : () -> !ttg.memdesc<256xi32, #shared, #smem, mutable>
    // CHECK: ttg.warp_specialize({{.*}}) attributes {allocation.offset = 1024 : i32}
    ttg.warp_specialize(%p, %n, %a)
    default {
      // CHECK: ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<64xi32
      %b = ttg.local_alloc : () -> !ttg.memdesc<64xi32, #shared, #smem, mutable>
      // CHECK: ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<8xi32
      %b2 = ttg.local_alloc : () -> !ttg.memdesc<8xi32, #shared, #smem, mutable>
      ttg.warp_yield
    }
    partition0(%q: !tt.ptr<i32>, %m: i64, %d: !ttg.memdesc<256xi32, #shared, #smem, mutable>) num_warps(2) {
      // CHECK: ttg.local_alloc {allocation.offset = 1280 : i32} : () -> !ttg.memdesc<32xi32
      %c = ttg.local_alloc : () -> !ttg.memdesc<32xi32, #shared, #smem, mutable>
      ttg.warp_return
    }
    partition1(%q: !tt.ptr<i32>, %m: i64, %d: !ttg.memdesc<256xi32, #shared, #smem, mutable>) num_warps(1) {
      ttg.warp_return
    } : (!tt.ptr<i32>, i64, !ttg.memdesc<256xi32, #shared, #smem, mutable>) -> ()
    // CHECK: ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16xi32
    %e = ttg.local_alloc : () -> !ttg.memdesc<16xi32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Padded buffers span their elements and the padding between them, none
// after the last (Triton's sizes: 64 x 64 i32 with 4 elements after every
// 32, 16384 + 4 x (128 - 1) x 4 bytes; two intervals add up).
#padded = #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>
#padded2 = #ttg.padded_shared<[16:+4, 64:+8] {order = [0, 1], shape = [64, 64]}>
#smem = #ttg.shared_memory
// CHECK: module attributes {{{.*}}ttg.shared = 40896 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @padded
  tt.func @padded() {
    // The larger buffer first, as Triton places them.
    // CHECK: ttg.local_alloc {allocation.offset = 22480 : i32}
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xi32, #padded, #smem, mutable>
    // CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x64xi32, #padded2, #smem, mutable>
    ttg.local_dealloc %a : !ttg.memdesc<64x64xi32, #padded, #smem, mutable>
    ttg.local_dealloc %b : !ttg.memdesc<64x64xi32, #padded2, #smem, mutable>
    tt.return
  }
}

// -----

// In a cluster whose CTAs split a buffer, each CTA allocates its part: a
// 128x64 f16 NVMMA buffer split along its rows over two CTAs takes 64x64
// elements (8192 bytes); one shared linear buffer split the same way
// (block basis [64, 0] elements) 64x64 too; one broadcast to both CTAs
// (CGA basis zero) all of it.
#split = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0]]}>
#bcast = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 0]]}>
#linear = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [0, 8], [0, 16], [0, 32]], block = [[64, 0]]}, alignment = 16>
#smem = #ttg.shared_memory
// CHECK: module attributes {{{.*}}ttg.shared = 32768 : i32
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @cluster_parts
  tt.func @cluster_parts() {
    // CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #bcast, #smem, mutable>
    // CHECK: ttg.local_alloc {allocation.offset = 16384 : i32}
    %b = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #split, #smem, mutable>
    // CHECK: ttg.local_alloc {allocation.offset = 24576 : i32}
    %c = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #linear, #smem, mutable>
    ttg.local_dealloc %a : !ttg.memdesc<128x64xf16, #bcast, #smem, mutable>
    ttg.local_dealloc %b : !ttg.memdesc<128x64xf16, #split, #smem, mutable>
    ttg.local_dealloc %c : !ttg.memdesc<128x64xf16, #linear, #smem, mutable>
    tt.return
  }
}

// -----

// A reduction along a dimension the cluster's CTAs do not split takes
// scratch for each CTA's part: 32 of the 64 rows, four warps across the
// reduced dimension, 4 bytes each (512 bytes, not 1024).
#wide = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = [[1, 0]]}>
// CHECK: module attributes {{{.*}}ttg.shared = 512 : i32
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @cluster_row_sums
  tt.func @cluster_row_sums(%x: tensor<64x64xf32, #wide>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #wide}>> {
    // CHECK: allocation.offset = 0 : i32
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<64x64xf32, #wide>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #wide}>>
    tt.return %s : tensor<64xf32, #ttg.slice<{dim = 1, parent = #wide}>>
  }
}
