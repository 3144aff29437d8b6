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
