// triton-nvidia-gpu-fence-insertion: every expectation is what Triton 3.6's
// own pass does to this module (scripts/triton-pass.py, the whole module
// compared); below compute capability 90 nothing changes.
// RUN: tt-opt %s --triton-nvidia-gpu-fence-insertion | FileCheck %s
// RUN: tt-opt %s --triton-nvidia-gpu-fence-insertion=compute-capability=80 | FileCheck %s --check-prefix=SM80
// SM80-NOT: ttng.fence_async_shared

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @straight_line
  // CHECK: ttg.local_alloc
  // CHECK-NEXT: ttg.local_alloc
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.warp_group_dot
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.warp_group_dot
  tt.func @straight_line(%a: tensor<64x64xf16, #blocked>, %b: tensor<64x64xf16, #blocked>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %d = ttng.warp_group_dot %as, %bs, %c : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    %e = ttng.warp_group_dot %as, %bs, %d : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return %e : tensor<64x64xf32, #mma>
  }

  // Both copies are outside the loops: the fence leaves both.
  // CHECK-LABEL: @hoisted_out_of_loops
  // CHECK: ttg.local_alloc
  // CHECK-NEXT: ttg.local_alloc
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: scf.for
  // CHECK-NEXT: scf.for
  // CHECK-NEXT: ttng.warp_group_dot
  tt.func @hoisted_out_of_loops(%a: tensor<64x64xf16, #blocked>, %b: tensor<64x64xf16, #blocked>, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %r2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> (tensor<64x64xf32, #mma>) : i32 {
        %d = ttng.warp_group_dot %as, %bs, %acc2 : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
        scf.yield %d : tensor<64x64xf32, #mma>
      }
      scf.yield %r2 : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }

  // As Triton 3.6: a store into the ring is found only through a chain of
  // single-use views; this slot is also read by the dot, so only B's alloc
  // counts, and it is outside the loop.
  // CHECK-LABEL: @store_through_a_shared_view
  // CHECK: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: scf.for
  // CHECK-NOT: ttng.fence_async_shared
  // CHECK: tt.return
  tt.func @store_through_a_shared_view(%a: tensor<64x64xf16, #blocked>, %b: tensor<64x64xf16, #blocked>, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      %slot = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
      ttg.local_store %a, %slot : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
      %d = ttng.warp_group_dot %slot, %bs, %acc : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }

  // The operand is carried by the loop and replaced by a copy made in it.
  // CHECK-LABEL: @through_iteration_arguments
  // CHECK: scf.for
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.warp_group_dot
  tt.func @through_iteration_arguments(%a: tensor<64x64xf16, #blocked>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c, %m = %b) -> (tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem>) : i32 {
      %d = ttng.warp_group_dot %m, %m, %acc : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      %next = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      scf.yield %d, %next : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem>
    }
    tt.return %r#0 : tensor<64x64xf32, #mma>
  }

  // A function argument may have been written from registers: fenced.
  // CHECK-LABEL: @no_copy_from_registers
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.warp_group_dot
  tt.func @no_copy_from_registers(%as: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %d = ttng.warp_group_dot %as, %as, %c : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}
