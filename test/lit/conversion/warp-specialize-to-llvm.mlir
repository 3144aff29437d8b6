// RUN: tt-opt %s --split-input-file --verify-diagnostics --convert-triton-gpu-to-llvm | FileCheck %s

// ttg.warp_specialize stays, its regions lowered: the default region uses
// the function's thread ids; a partition reads its own, counted from its
// first thread (warp 4 here: thread 128) over its 64 threads, and its
// captures arrive as LLVM values. The kernel launches all 6 warps.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttg.total-num-warps" = 6 : i32} {
  // CHECK-LABEL: llvm.func @ws(
  // CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr<1>, %[[N:[^:]*]]: i32, %[[SCRATCH:[^:]*]]: !llvm.ptr<1>
  // CHECK-SAME: nvvm.reqntid = array<i32: 192>
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[R:.*]] = ttg.warp_specialize(%[[P]], %[[N]]) attributes {warpGroupStartIds = array<i32: 4>}
  // CHECK-NEXT: default {
  // CHECK-NOT: nvvm.read.ptx.sreg.tid.x
  // CHECK: llvm.getelementptr %[[P]]
  // CHECK: st.global.b32
  // CHECK: ttg.warp_yield %[[N]] : i32
  // CHECK: partition0(%[[Q:[^:]*]]: !llvm.ptr<1>, %[[M:[^:]*]]: i32) num_warps(2) {
  // CHECK-NEXT: %[[PTID:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK-NEXT: %[[START:.*]] = llvm.mlir.constant(128 : i32)
  // CHECK-NEXT: %[[REL:.*]] = llvm.sub %[[PTID]], %[[START]]
  // CHECK-NEXT: %[[MASK:.*]] = llvm.mlir.constant(63 : i32)
  // CHECK-NEXT: llvm.and %[[REL]], %[[MASK]]
  // CHECK: llvm.add %{{.*}}, %[[M]] : i32
  // CHECK: llvm.getelementptr %[[Q]]
  // CHECK: st.global.b32
  // CHECK: ttg.warp_return
  // CHECK-NEXT: } : (!llvm.ptr<1>, i32) -> i32
  tt.func public @ws(%p: !tt.ptr<i32>, %n: i32) {
    %r = ttg.warp_specialize(%p, %n) attributes {warpGroupStartIds = array<i32: 4>}
    default {
      %v = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b4>
      %ps = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b4>
      %pp = tt.addptr %ps, %v : tensor<128x!tt.ptr<i32>, #b4>, tensor<128xi32, #b4>
      tt.store %pp, %v : tensor<128x!tt.ptr<i32>, #b4>
      ttg.warp_yield %n : i32
    }
    partition0(%q: !tt.ptr<i32>, %m: i32) num_warps(2) {
      %v = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
      %ms = tt.splat %m : i32 -> tensor<64xi32, #blocked>
      %w = arith.addi %v, %ms : tensor<64xi32, #blocked>
      %qs = tt.splat %q : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked>
      %qq = tt.addptr %qs, %v : tensor<64x!tt.ptr<i32>, #blocked>, tensor<64xi32, #blocked>
      tt.store %qq, %w : tensor<64x!tt.ptr<i32>, #blocked>
      ttg.warp_return
    } : (!tt.ptr<i32>, i32) -> i32
    tt.return
  }
}

// -----

// A partition placed by no tritongpu-allocate-warp-groups has no first
// thread to count from.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unplaced(%q: !tt.ptr<i32>) {
    ttg.warp_specialize(%q)
    default {
      ttg.warp_yield
    }
    partition0(%arg: !tt.ptr<i32>) num_warps(2) {
      // expected-error @+1 {{thread ids inside a ttg.warp_specialize partition need its warps (warpGroupStartIds): run tritongpu-allocate-warp-groups first}}
      %v = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
      %qs = tt.splat %arg : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked>
      %qq = tt.addptr %qs, %v : tensor<64x!tt.ptr<i32>, #blocked>, tensor<64xi32, #blocked>
      tt.store %qq, %v : tensor<64x!tt.ptr<i32>, #blocked>
      ttg.warp_return
    } : (!tt.ptr<i32>) -> ()
    tt.return
  }
}

// -----

// A CTA-wide barrier in a region stays one here; the dispatch
// (convert-warp-specialize-to-llvm) makes it its warp group's barrier.
// CHECK-LABEL: llvm.func @barrier(
// CHECK: ttg.warp_specialize
// CHECK: default {
// CHECK: nvvm.barrier0
// CHECK: ttg.warp_yield
// CHECK: partition0
// CHECK: nvvm.barrier0
// CHECK: ttg.warp_return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @barrier() {
    ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4>}
    default {
      gpu.barrier
      ttg.warp_yield
    }
    partition0() num_warps(2) {
      gpu.barrier
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#b4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // A tensor result leaves the default region as the struct of the
  // thread's registers (Gluon's default partitions return tensors).
  // CHECK-LABEL: llvm.func @tensor_result
  // CHECK: %[[WS:.*]] = ttg.warp_specialize()
  // CHECK: ttg.warp_yield %{{.*}} : !llvm.struct<(i32)>
  // CHECK: } : () -> !llvm.struct<(i32)>
  // CHECK: %[[V:.*]] = llvm.extractvalue %[[WS]][0] : !llvm.struct<(i32)>
  // CHECK: st.global.b32 {{.*}} %[[V]]
  tt.func public @tensor_result(%p: tensor<128x!tt.ptr<i32>, #b4>) {
    %r = ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4>}
    default {
      %v = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b4>
      ttg.warp_yield %v : tensor<128xi32, #b4>
    }
    partition0() num_warps(1) {
      ttg.warp_return
    } : () -> tensor<128xi32, #b4>
    tt.store %p, %r : tensor<128x!tt.ptr<i32>, #b4>
    tt.return
  }
}
