// ttg.convert_layout within warps, as Triton 3.6: when only lanes of a warp
// exchange data and the permutation of register and lane bits swaps at
// most one register bit with a lane bit (cvtNeedsWarpShuffle), the
// conversion takes no scratch and is lowered to selects and shuffles
// (transferWithinWarp); otherwise it goes through shared memory.
// RUN: tt-opt %s --split-input-file --allocate-shared-memory-nv --convert-triton-gpu-to-llvm | FileCheck %s

// One warp, 2x32 f32: row bit in a register -> row bit in lane bit 4, and
// column 16 from lane bit 4 to the register. One transposition, lanes
// otherwise in place: the value to send is selected, crosses lanes 16
// apart with shfl.sync.bfly, and two selects place it.
// CHECK: ttg.shared = 0
// CHECK-LABEL: llvm.func @ship
// CHECK-NOT: llvm.store {{.*}}!llvm.ptr<3>
// CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32)
// CHECK: %[[AND:.*]] = llvm.and %{{.*}}, %[[SIXTEEN]] : i32
// CHECK: %[[CLEAR:.*]] = llvm.icmp "eq" %[[AND]]
// CHECK: %[[SENT:.*]] = llvm.select %[[CLEAR]], %{{.*}}, %{{.*}} : i1, f32
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK: llvm.select %[[CLEAR]]
// CHECK: llvm.select %[[CLEAR]]
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.bar
// CHECK: llvm.return
#a = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ship(%v: f32, %out: !tt.ptr<f32>) {
    %x = tt.splat %v : f32 -> tensor<2x32xf32, #a>
    %y = ttg.convert_layout %x : tensor<2x32xf32, #a> -> tensor<2x32xf32, #b>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<2x32x!tt.ptr<f32>, #b>
    tt.store %p, %y : tensor<2x32x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// Four warps along rows, 2 -> 1 columns per thread over 64 columns: the
// register bit goes to lane bit 0 and lane bit 4 to the register, the
// other lane bits move up one. Swap (two selects), one shfl.sync.idx per
// register from the permuted lane id, swap back (two selects). f16 values
// travel zero-extended to i32.
// CHECK: ttg.shared = 0
// CHECK-LABEL: llvm.func @rotate
// CHECK-NOT: !llvm.ptr<3>
// CHECK-COUNT-2: llvm.select %{{.*}} : i1, f16
// CHECK: llvm.zext %{{.*}} : i16 to i32
// CHECK: nvvm.shfl.sync idx
// CHECK: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK-COUNT-2: llvm.select %{{.*}} : i1, f16
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#a = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rotate(%v: f16, %out: !tt.ptr<f16>) {
    %x = tt.splat %v : f16 -> tensor<4x64xf16, #a>
    %y = ttg.convert_layout %x : tensor<4x64xf16, #a> -> tensor<4x64xf16, #b>
    %p = tt.splat %out : !tt.ptr<f16> -> tensor<4x64x!tt.ptr<f16>, #b>
    tt.store %p, %y : tensor<4x64x!tt.ptr<f16>, #b>
    tt.return
  }
}

// -----

// The same with i64: each shuffle moves two 32-bit halves.
// CHECK: ttg.shared = 0
// CHECK-LABEL: llvm.func @rotate_i64
// CHECK-COUNT-4: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl.sync
#a = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rotate_i64(%v: i64, %out: !tt.ptr<i64>) {
    %x = tt.splat %v : i64 -> tensor<4x64xi64, #a>
    %y = ttg.convert_layout %x : tensor<4x64xi64, #a> -> tensor<4x64xi64, #b>
    %p = tt.splat %out : !tt.ptr<i64> -> tensor<4x64x!tt.ptr<i64>, #b>
    tt.store %p, %y : tensor<4x64x!tt.ptr<i64>, #b>
    tt.return
  }
}

// -----

// One warp, 32x32: 4 columns per thread over 8x4 lanes -> 4 rows per
// thread over 4x8 lanes. Within the warp, but two register bits trade
// places with lane bits: Triton goes through shared memory. With one warp
// in the CTA, the barrier between the stores and the loads is a warp's
// (bar.warp.sync -1), as Triton's.
// CHECK: ttg.shared = {{[1-9][0-9]*}}
// CHECK-LABEL: llvm.func @two_swaps
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.store {{.*}}!llvm.ptr<3>
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[ALL:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT: nvvm.bar.warp.sync %[[ALL]] : i32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.load {{.*}}!llvm.ptr<3>
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_swaps(%v: f32, %out: !tt.ptr<f32>) {
    %x = tt.splat %v : f32 -> tensor<32x32xf32, #a>
    %y = ttg.convert_layout %x : tensor<32x32xf32, #a> -> tensor<32x32xf32, #b>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #b>
    tt.store %p, %y : tensor<32x32x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// Sub-32-bit elements pack into 32-bit words (Triton's nPack): f16, one
// warp, register bit 0 <-> lane bit 0 with register bit 1 free. Two f16
// per word leave one register bit for the words, so the swapped bit is a
// packed one: it is folded into prmt selectors and the free bit pairs the
// two words. Triton 3.6's out-of-place method: select the send selector,
// one prmt, one shfl.sync.bfly by 1, two selector selects and two prmt
// (3 prmt, 1 shuffle; unpacked it would be 2 shuffles and 6 selects).
// The selectors are those of Triton 3.6's LLIR for this TTGIR.
// CHECK: ttg.shared = 0
// CHECK-LABEL: llvm.func @halves
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK-DAG: %[[C7632:.*]] = llvm.mlir.constant(30258 : i32)
// CHECK-DAG: %[[C5410:.*]] = llvm.mlir.constant(21520 : i32)
// CHECK: %[[SEND:.*]] = llvm.select %{{.*}}, %[[C7632]], %[[C5410]] : i1, i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.prmt"(%{{.*}}, %{{.*}}, %[[SEND]])
// CHECK: nvvm.shfl.sync bfly
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.prmt"
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: llvm.call_intrinsic "llvm.nvvm.prmt"
// CHECK: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// CHECK: llvm.return
#a = #ttg.linear<{register = [[1], [64]], lane = [[2], [4], [8], [16], [32]], warp = [], block = []}>
#b = #ttg.linear<{register = [[2], [64]], lane = [[1], [4], [8], [16], [32]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @halves(%v: f16, %out: !tt.ptr<f16>) {
    %x = tt.splat %v : f16 -> tensor<128xf16, #a>
    %y = ttg.convert_layout %x : tensor<128xf16, #a> -> tensor<128xf16, #b>
    %p = tt.splat %out : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>, #b>
    tt.store %p, %y : tensor<128x!tt.ptr<f16>, #b>
    tt.return
  }
}

// -----

// The same with i8: packing is bounded by the register bits left outside
// the transposition (one), so bytes travel two to a word in 16-bit slots,
// packed by zext, shl 16 and or (Triton's ptxas workaround) and unpacked
// through vector<2xi16> and trunc. Same 3 prmt and 1 shuffle.
// CHECK: ttg.shared = 0
// CHECK-LABEL: llvm.func @bytes_in_halves
// CHECK: llvm.zext %{{.*}} : i8 to i32
// CHECK: llvm.shl
// CHECK: llvm.or
// CHECK-COUNT-3: llvm.call_intrinsic "llvm.nvvm.prmt"
// CHECK-NOT: llvm.call_intrinsic "llvm.nvvm.prmt"
// CHECK: llvm.bitcast %{{.*}} : i32 to vector<2xi16>
// CHECK: llvm.trunc %{{.*}} : i16 to i8
// CHECK: llvm.return
#a = #ttg.linear<{register = [[1], [64]], lane = [[2], [4], [8], [16], [32]], warp = [], block = []}>
#b = #ttg.linear<{register = [[2], [64]], lane = [[1], [4], [8], [16], [32]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bytes_in_halves(%v: i8, %out: !tt.ptr<i8>) {
    %x = tt.splat %v : i8 -> tensor<128xi8, #a>
    %y = ttg.convert_layout %x : tensor<128xi8, #a> -> tensor<128xi8, #b>
    %p = tt.splat %out : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>, #b>
    tt.store %p, %y : tensor<128x!tt.ptr<i8>, #b>
    tt.return
  }
}

// -----

// i8, the cycle (l0 r0 r1) with r2 free: four bytes to a word, the cycle's
// register bits are all packed, so it is conjugated by the partner bit r2
// (the words' register bit). Triton 3.6 ships it out of place (3 prmt, 1
// shuffle) but those selectors tear the bytes (its kernel returns wrong
// data on an H100); the in-place method with the same pre/post selectors
// is taken: 2 prmt, one shfl.sync.bfly (of the word with r2 set), 2 prmt.
// CHECK: ttg.shared = 0
// CHECK-LABEL: llvm.func @bytes_partner
// CHECK: llvm.bitcast %{{.*}} : vector<4xi8> to i32
// CHECK: llvm.bitcast %{{.*}} : vector<4xi8> to i32
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.prmt"
// CHECK: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.prmt"
// CHECK-NOT: llvm.call_intrinsic "llvm.nvvm.prmt"
// CHECK: llvm.bitcast %{{.*}} : i32 to vector<4xi8>
// CHECK: llvm.return
#a = #ttg.linear<{register = [[1], [2], [128]], lane = [[4], [8], [16], [32], [64]], warp = [], block = []}>
#b = #ttg.linear<{register = [[4], [1], [128]], lane = [[2], [8], [16], [32], [64]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bytes_partner(%v: i8, %out: !tt.ptr<i8>) {
    %x = tt.splat %v : i8 -> tensor<256xi8, #a>
    %y = ttg.convert_layout %x : tensor<256xi8, #a> -> tensor<256xi8, #b>
    %p = tt.splat %out : !tt.ptr<i8> -> tensor<256x!tt.ptr<i8>, #b>
    tt.store %p, %y : tensor<256x!tt.ptr<i8>, #b>
    tt.return
  }
}

// -----

// f16, lanes permuted only: two elements to a word (nPack 1, the f16
// bound), so the two words take one shfl.sync.idx each instead of four.
// CHECK: ttg.shared = 0
// CHECK-LABEL: llvm.func @halves_by_index
// CHECK-NOT: llvm.select
// CHECK-COUNT-2: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: llvm.call_intrinsic
// CHECK: llvm.return
#a = #ttg.linear<{register = [[1], [2]], lane = [[4], [8], [16], [32], [64]], warp = [], block = []}>
#b = #ttg.linear<{register = [[1], [2]], lane = [[8], [4], [16], [32], [64]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @halves_by_index(%v: f16, %out: !tt.ptr<f16>) {
    %x = tt.splat %v : f16 -> tensor<128xf16, #a>
    %y = ttg.convert_layout %x : tensor<128xf16, #a> -> tensor<128xf16, #b>
    %p = tt.splat %out : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>, #b>
    tt.store %p, %y : tensor<128x!tt.ptr<f16>, #b>
    tt.return
  }
}
