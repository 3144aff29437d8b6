// triton-nvidia-gpu-proxy-fence-insertion (make_llir, after shared memory
// is allocated and scf is lowered to cf). Triton 3.6's pass fences only
// async-proxy writes (TMA loads) of bytes a generic access touched since
// the last fence, on some path; a wgmma reading what cp.async or a
// local_store wrote gets no fence from it, on any path (Triton's own pass
// leaves those cases unchanged: scripts/triton-pass.py FILE
// triton-nvidia-gpu-proxy-fence-insertion --split).
// RUN: tt-opt %s --split-input-file --triton-nvidia-gpu-proxy-fence-insertion | FileCheck %s
// RUN: tt-opt %s --split-input-file --triton-nvidia-gpu-proxy-fence-insertion=compute-capability=80 | FileCheck %s --check-prefix=SM80

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 12288 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @written
  // CHECK: ttg.local_store
  // CHECK-NEXT: ttng.warp_group_dot
  tt.func @written(%acc: tensor<64x64xf32, #mma>) {
    %a = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked>
    %sa = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %sb = ttg.local_alloc {allocation.offset = 4096 : i32} : () -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
    ttg.local_store %a, %sa : tensor<64x32xf16, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %d = ttng.warp_group_dot %sa, %sb, %acc : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> * !ttg.memdesc<32x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf32, #mma>
    tt.return
  }

  // A fence already there stays the only one.
  // CHECK-LABEL: tt.func @fenced
  // CHECK-COUNT-1: ttng.fence_async_shared
  // CHECK-NOT: ttng.fence_async_shared
  // CHECK: tt.return
  tt.func @fenced(%acc: tensor<64x64xf32, #mma>) {
    %b = arith.constant dense<1.000000e+00> : tensor<32x64xf16, #blocked>
    %sa = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %sb = ttg.local_alloc %b {allocation.offset = 4096 : i32} : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
    ttng.fence_async_shared {bCluster = false}
    %d = ttng.warp_group_dot %sa, %sb, %acc : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }

  // A loop in cf form whose store reaches the dot through the back edge.
  // CHECK-LABEL: tt.func @loop
  // CHECK-NOT: ttng.fence_async_shared
  // CHECK: tt.return
  tt.func @loop(%acc: tensor<64x64xf32, #mma>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked>
    %sa = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %sb = ttg.local_alloc {allocation.offset = 4096 : i32} : () -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
    cf.br ^bb1(%c0, %acc : i32, tensor<64x64xf32, #mma>)
  ^bb1(%i: i32, %x: tensor<64x64xf32, #mma>):
    %d = ttng.warp_group_dot %sa, %sb, %x : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> * !ttg.memdesc<32x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf32, #mma>
    ttg.local_store %a, %sa : tensor<64x32xf16, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %next = arith.addi %i, %c1 : i32
    %more = arith.cmpi slt, %next, %n : i32
    cf.cond_br %more, ^bb1(%next, %d : i32, tensor<64x64xf32, #mma>), ^bb2
  ^bb2:
    tt.return
  }
}

// -----

// TMA loads: a fence where the destination overlaps bytes read or written
// through the generic proxy since the last fence, also around a loop's
// back edge; none for disjoint bytes, or below sm_90.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tma_loads
  // SM80-LABEL: tt.func @tma_loads
  // SM80-NOT: ttng.fence_async_shared
  tt.func @tma_loads(%desc: !tt.tensordesc<tensor<32x32xf32, #shared>>, %x: i32, %n: i1) {
    %true = arith.constant true
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %a = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    %b = ttg.local_alloc {allocation.offset = 8192 : i32} : () -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    // CHECK: ttg.local_load
    // CHECK-NEXT: ttng.async_tma_copy_global_to_local {{.*}} -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    %l = ttg.local_load %a : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> tensor<32x32xf32, #blocked>
    ttng.async_tma_copy_global_to_local %desc[%x, %x] %b, %bar, %true : !tt.tensordesc<tensor<32x32xf32, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
    // CHECK-NEXT: ttng.async_tma_copy_global_to_local
    ttng.async_tma_copy_global_to_local %desc[%x, %x] %a, %bar, %true : !tt.tensordesc<tensor<32x32xf32, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    // CHECK-NEXT: cf.br
    cf.br ^loop
  ^loop:
    // The store at the end of the loop reaches this load again.
    // CHECK: ttng.fence_async_shared {bCluster = false}
    // CHECK-NEXT: ttng.async_tma_copy_global_to_local
    ttng.async_tma_copy_global_to_local %desc[%x, %x] %b, %bar, %true : !tt.tensordesc<tensor<32x32xf32, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %x : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %v = ttg.local_load %b : !ttg.memdesc<32x32xf32, #shared, #smem, mutable> -> tensor<32x32xf32, #blocked>
    ttg.local_store %v, %b : tensor<32x32xf32, #blocked> -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    cf.cond_br %n, ^loop, ^exit
  ^exit:
    tt.return
  }
}

// -----

// A view (memdesc_index) touches no bytes: the TMA load into a ring slot
// the loop's wgmmas only read gets no fence. Triton's pass counts a
// barrier_expect (not the barrier's init, wait or inval) as a generic write
// of the barrier: the ring that reuses its bytes is fenced before its first
// TMA load, as in the attention kernel of bench/h100/tma_check.py.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 32768 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @view_then_tma
  // CHECK-NOT: ttng.fence_async_shared
  // CHECK: tt.return
  tt.func @view_then_tma(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %ring = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
    %bar = ttg.local_alloc {allocation.offset = 16384 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %slot = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%x, %x] %slot, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }

  // CHECK-LABEL: tt.func @barrier_bytes_reused
  // CHECK: ttng.inval_barrier
  // CHECK: ttng.fence_async_shared
  // CHECK-NEXT: ttng.async_tma_copy_global_to_local
  tt.func @barrier_bytes_reused(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %old = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %old, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.barrier_expect %old, 8192, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %old, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.inval_barrier %old : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %ring = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
    %bar = ttg.local_alloc {allocation.offset = 16384 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %slot = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%x, %x] %slot, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }

  // CHECK-LABEL: tt.func @barrier_initialised_and_invalidated
  // CHECK-NOT: ttng.fence_async_shared
  // CHECK: tt.return
  tt.func @barrier_initialised_and_invalidated(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %old = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %old, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %old, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.inval_barrier %old : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %ring = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
    %bar = ttg.local_alloc {allocation.offset = 16384 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %slot = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%x, %x] %slot, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}
