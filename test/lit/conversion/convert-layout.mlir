// ttg.convert_layout: a register permutation when every thread keeps its
// elements, otherwise a round trip through the op's scratch (row-major).
// RUN: tt-opt %s --split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @through_shared
  tt.func public @through_shared(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #a>
    %c = ttg.convert_layout %r {allocation.offset = 16 : i32} : tensor<512xi32, #a> -> tensor<512xi32, #b>
    // CHECK: ^bb1:
    // CHECK: %[[OFF:.*]] = llvm.mlir.constant(16 : i32)
    // CHECK: %[[SCRATCH:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]] {{.*}}, i8
    // CHECK-COUNT-4: llvm.store {{.*}} : i32, !llvm.ptr<3>
    // CHECK-NOT: llvm.load
    // CHECK: nvvm.barrier0
    // CHECK-NOT: llvm.store
    // CHECK: %[[L0:.*]] = llvm.load {{.*}} : !llvm.ptr<3> -> i32
    // CHECK-COUNT-3: llvm.load {{.*}} : !llvm.ptr<3> -> i32
    // CHECK: st.global.b32 {{.*}} %[[L0]],
    %p = tt.splat %out : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #b>
    %q = tt.addptr %p, %c : tensor<512x!tt.ptr<i32>, #b>, tensor<512xi32, #b>
    tt.store %q, %c : tensor<512x!tt.ptr<i32>, #b>
    tt.return
  }
}

// -----

// The same elements in every thread: no shared memory.
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @permute
  tt.func public @permute(%x: i32) {
    %s = tt.splat %x : i32 -> tensor<128x4xi32, #a>
    %c = ttg.convert_layout %s : tensor<128x4xi32, #a> -> tensor<128x4xi32, #b>
    // CHECK-NOT: llvm.store
    // CHECK-NOT: nvvm.barrier0
    // CHECK: llvm.return
    tt.return
  }
}
