// RUN: tt-opt %s --split-input-file --allocate-shared-memory-nv --convert-triton-gpu-to-llvm | FileCheck %s

// tt.gather within a warp, as Triton's emitWarpLocalGather: each thread
// holds one element of the 32-element row, so the element an index names
// is in lane `index` (register 0): one shuffle from that lane per result,
// no scratch (ttg.shared = 0) and no shared-memory access.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: ttg.shared = 0
  // CHECK-LABEL: llvm.func @one_lane_each
  // CHECK: %[[INDEX:.*]] = llvm.extractvalue %arg1[0]
  // CHECK: %[[MOVED:.*]] = nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
  // CHECK: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f32
  // CHECK-NOT: llvm.store
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  tt.func public @one_lane_each(%src: tensor<32xf32, #blocked>, %idx: tensor<32xi32, #blocked>, %out: tensor<32x!tt.ptr<f32>, #blocked>) {
    %g = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<32xf32, #blocked>, tensor<32xi32, #blocked>) -> tensor<32xf32, #blocked>
    tt.store %out, %g : tensor<32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Along axis 1 of a 32x8 tensor whose rows are 4 lanes x 2 registers (the
// warps split the rows): every result element takes both registers of the
// row's lane `(index >> 1) & 3` (two shuffles; four for the thread's two
// results) and selects register `index & 1`.
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: ttg.shared = 0
  // CHECK-LABEL: llvm.func @two_registers
  // CHECK-COUNT-4: nvvm.shfl.sync idx
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  tt.func public @two_registers(%src: tensor<32x8xf16, #blocked>, %idx: tensor<32x8xi32, #blocked>, %out: tensor<32x8x!tt.ptr<f16>, #blocked>) {
    %g = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<32x8xf16, #blocked>, tensor<32x8xi32, #blocked>) -> tensor<32x8xf16, #blocked>
    tt.store %out, %g : tensor<32x8x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Along axis 0 of the same layout the warps split the gathered column: the
// source goes through the scratch (32x8 f16: 512 bytes), a barrier, then
// each result element loads its own.
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: ttg.shared = 512
  // CHECK-LABEL: llvm.func @across_warps
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: st.shared
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load
  tt.func public @across_warps(%src: tensor<32x8xf16, #blocked>, %idx: tensor<32x8xi32, #blocked>, %out: tensor<32x8x!tt.ptr<f16>, #blocked>) {
    %g = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<32x8xf16, #blocked>, tensor<32x8xi32, #blocked>) -> tensor<32x8xf16, #blocked>
    tt.store %out, %g : tensor<32x8x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
