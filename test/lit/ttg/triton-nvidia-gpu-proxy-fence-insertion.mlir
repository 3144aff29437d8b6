// triton-nvidia-gpu-proxy-fence-insertion (make_llir, after shared memory
// is allocated and scf is lowered to cf): a fence.proxy.async before a
// wgmma whose operands' bytes were written through the generic proxy
// since the last fence, along any path.
// RUN: tt-opt %s --split-input-file --triton-nvidia-gpu-proxy-fence-insertion | FileCheck %s
// RUN: tt-opt %s --split-input-file --triton-nvidia-gpu-proxy-fence-insertion=compute-capability=80 | FileCheck %s --check-prefix=SM80

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 12288 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // A store into A's buffer, then the dot: one fence right before it.
  // CHECK-LABEL: tt.func @written
  // CHECK: ttg.local_store
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.warp_group_dot
  // SM80-LABEL: tt.func @written
  // SM80-NOT: ttng.fence_async_shared
  // SM80: tt.func @fenced
  tt.func @written(%acc: tensor<64x64xf32, #mma>) {
    %a = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked>
    %sa = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %sb = ttg.local_alloc {allocation.offset = 4096 : i32} : () -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
    ttg.local_store %a, %sa : tensor<64x32xf16, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %d = ttng.warp_group_dot %sa, %sb, %acc : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> * !ttg.memdesc<32x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf32, #mma>
    tt.return
  }

  // Already fenced after the write (what fence-insertion leaves): nothing
  // to add.
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

  // A write to bytes the dot does not read needs no fence.
  // CHECK-LABEL: tt.func @elsewhere
  // CHECK-NOT: ttng.fence_async_shared
  // CHECK: tt.return
  tt.func @elsewhere(%acc: tensor<64x64xf32, #mma>) {
    %c = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked>
    %sa = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %sb = ttg.local_alloc {allocation.offset = 4096 : i32} : () -> !ttg.memdesc<32x64xf16, #shared1, #smem, mutable>
    %sc = ttg.local_alloc %c {allocation.offset = 8192 : i32} : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %d = ttng.warp_group_dot %sa, %sb, %acc : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> * !ttg.memdesc<32x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf32, #mma>
    tt.return
  }

  // A loop in cf form: the store at the end of the body reaches the dot
  // at its start through the back edge.
  // CHECK-LABEL: tt.func @loop
  // CHECK: ^bb1({{.*}}): // 2 preds
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.warp_group_dot
  // CHECK: ttg.local_store
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
