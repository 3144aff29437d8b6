// triton-nvidia-tma-lowering: descriptor loads become an mbarrier-tracked
// TMA copy into a buffer in the descriptor's layout (local_allocs of the
// result in that layout become the buffer), stores (and reductions) a
// fenced TMA store (reduction) of
// an immutable buffer (the one a local_load just read, if nothing wrote
// shared memory since), make_tensor_descriptor a tensormap in 128 bytes
// of global scratch (box, dims and byte strides innermost first).
// RUN: tt-opt %s --split-input-file --verify-diagnostics --triton-nvidia-tma-lowering | FileCheck %s

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#other = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @load
  tt.func public @load(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32) -> (tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #other, #smem>, tensor<64x32xf16, #blocked>) {
    // CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    // CHECK-NEXT: %[[BAR:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared2, #smem, mutable>
    // CHECK-NEXT: ttng.init_barrier %[[BAR]], 1
    // CHECK-NEXT: ttng.barrier_expect %[[BAR]], 8192, %true
    // CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%arg1, %arg1] %[[BUF]], %[[BAR]], %true
    // CHECK-NEXT: ttng.wait_barrier %[[BAR]], %c0_i32
    // CHECK-NEXT: ttng.inval_barrier %[[BAR]]
    // CHECK-NEXT: %[[L:.*]] = ttg.local_load %[[BUF]]
    // CHECK-NEXT: %[[O:.*]] = ttg.local_alloc %[[L]] : {{.*}} -> !ttg.memdesc<64x64xf16, #shared1, #smem>
    // The view of the buffer takes its mutable type.
    // CHECK-NEXT: %[[V:.*]] = ttg.memdesc_subslice %[[BUF]][0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    // CHECK-NEXT: %[[R:.*]] = ttg.local_load %[[V]]
    // CHECK-NEXT: tt.return %[[L]], %[[O]], %[[R]]
    %t = tt.descriptor_load %d[%x, %x] : !tt.tensordesc<tensor<64x64xf16, #nvmma>> -> tensor<64x64xf16, #blocked>
    %same = ttg.local_alloc %t : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    %o = ttg.local_alloc %t : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #other, #smem>
    %v = ttg.memdesc_subslice %same[0, 32] : !ttg.memdesc<64x64xf16, #nvmma, #smem> -> !ttg.memdesc<64x32xf16, #nvmma, #smem, 64x64>
    %r = ttg.local_load %v : !ttg.memdesc<64x32xf16, #nvmma, #smem, 64x64> -> tensor<64x32xf16, #blocked>
    tt.return %t, %o, %r : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #other, #smem>, tensor<64x32xf16, #blocked>
  }

  // CHECK-LABEL: tt.func public @store
  tt.func public @store(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32, %t: tensor<64x64xf16, #blocked>, %buf: !ttg.memdesc<64x64xf16, #nvmma, #smem>) {
    // CHECK: %[[A:.*]] = ttg.local_alloc %arg2 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
    // CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg0[%arg1, %arg1] %[[A]]
    // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
    tt.descriptor_store %d[%x, %x], %t : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, tensor<64x64xf16, #blocked>
    // What a local_load just read is stored from its buffer.
    // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
    // CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg0[%arg1, %arg1] %arg3
    %l = ttg.local_load %buf : !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf16, #blocked>
    tt.descriptor_store %d[%x, %x], %l : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, tensor<64x64xf16, #blocked>
    tt.return
  }

  // A reduction is a store of its kind (Triton's output).
  // CHECK-LABEL: tt.func public @reduce
  // CHECK: %[[A:.*]] = ttg.local_alloc %arg2 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.async_tma_reduce max, %arg0[%arg1, %arg1] %[[A]]
  // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
  tt.func public @reduce(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32, %t: tensor<64x64xf16, #blocked>) {
    tt.descriptor_reduce max, %d[%x, %x], %t : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, tensor<64x64xf16, #blocked>
    tt.return
  }

  // CHECK-LABEL: tt.func public @make
  tt.func public @make(%p: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64) -> !tt.tensordesc<tensor<64x64xf16, #nvmma>> {
    %c1 = arith.constant 1 : i64
    // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i64
    // CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
    // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
    // CHECK: %[[S:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    // CHECK-NEXT: %[[B:.*]] = arith.muli %arg3, %[[C2]] : i64
    // CHECK-NEXT: ttng.tensormap_create %[[S]], %arg0, [%[[C64]], %[[C64]]], [%arg2, %arg1], [%[[B]]], [%[[C1]], %[[C1]]] {elem_type = 6 : i32, fill_mode = 1 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32}
    // CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[S]]
    // CHECK-NEXT: %[[D:.*]] = ttng.reinterpret_tensor_descriptor %[[S]] : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #shared>>
    // CHECK-NEXT: tt.return %[[D]]
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%s, %c1] {padding = 2 : i32} : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16, #nvmma>>
    tt.return %d : !tt.tensordesc<tensor<64x64xf16, #nvmma>>
  }

  // The element type is numbered as PTX's tensormap.replace numbers it
  // (Triton's launcher maps the code to CUtensorMapDataType): bf16 is 10,
  // f64 9 (9 and 8 in CUDA's enum, which here would mean f64 and f32
  // with flush-to-zero).
  // CHECK-LABEL: tt.func public @make_bf16
  // CHECK: ttng.tensormap_create {{.*}} {elem_type = 10 : i32,
  tt.func public @make_bf16(%p: !tt.ptr<bf16>, %m: i32, %n: i32, %s: i64) -> !tt.tensordesc<tensor<64x64xbf16, #nvmma>> {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%s, %c1] : !tt.ptr<bf16>, !tt.tensordesc<tensor<64x64xbf16, #nvmma>>
    tt.return %d : !tt.tensordesc<tensor<64x64xbf16, #nvmma>>
  }

}

// -----

#nvmma64 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 64}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @make_f64
  // CHECK: ttng.tensormap_create {{.*}} {elem_type = 9 : i32,
  tt.func public @make_f64(%p: !tt.ptr<f64>, %m: i32, %n: i32, %s: i64) -> !tt.tensordesc<tensor<8x16xf64, #nvmma64>> {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %p, [%m, %n], [%s, %c1] : !tt.ptr<f64>, !tt.tensordesc<tensor<8x16xf64, #nvmma64>>
    tt.return %d : !tt.tensordesc<tensor<8x16xf64, #nvmma64>>
  }
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @clustered(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32) -> tensor<64x64xf16, #blocked> {
    // expected-error @+1 {{'triton-nvidia-tma-lowering' does not support clusters of several CTAs yet}}
    %t = tt.descriptor_load %d[%x, %x] : !tt.tensordesc<tensor<64x64xf16, #nvmma>> -> tensor<64x64xf16, #blocked>
    tt.return %t : tensor<64x64xf16, #blocked>
  }
}

// -----

#swizzled = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @swizzled(%p: !tt.ptr<f16>, %m: i32, %s: i64) -> !tt.tensordesc<tensor<64x64xf16, #swizzled>> {
    %c1 = arith.constant 1 : i64
    // expected-error @+1 {{'triton-nvidia-tma-lowering' does not support tensor descriptors with a swizzled layout yet}}
    %d = tt.make_tensor_descriptor %p, [%m, %m], [%s, %c1] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16, #swizzled>>
    tt.return %d : !tt.tensordesc<tensor<64x64xf16, #swizzled>>
  }
}

// -----

// A local_alloc whose buffer leaves through a function's results or a
// region's yield cannot take the TMA buffer's mutable type: it stays.
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @escaping
  // CHECK: %[[L:.*]] = ttg.local_load
  // CHECK-NEXT: %[[A:.*]] = ttg.local_alloc %[[L]] : {{.*}} -> !ttg.memdesc<64x64xf16, #shared, #smem>
  // CHECK-NEXT: tt.return %[[A]]
  tt.func public @escaping(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32) -> !ttg.memdesc<64x64xf16, #nvmma, #smem> {
    %t = tt.descriptor_load %d[%x, %x] : !tt.tensordesc<tensor<64x64xf16, #nvmma>> -> tensor<64x64xf16, #blocked>
    %a = ttg.local_alloc %t : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    tt.return %a : !ttg.memdesc<64x64xf16, #nvmma, #smem>
  }
}

// -----

// Rank-reducing loads and stores: the buffer takes the descriptor's
// layout at the tile's rank (Triton's getEncodingFromDescriptor).
#nvmma3 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32, rank = 3}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[RANK2:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>
  // CHECK-LABEL: tt.func public @rank_reducing
  // CHECK: ttg.local_alloc : () -> !ttg.memdesc<8x16xf32, #[[RANK2]], #smem, mutable>
  // CHECK: ttng.async_tma_copy_global_to_local %arg0[%arg1, %arg1, %arg1] {{.*}} -> !ttg.memdesc<8x16xf32, #[[RANK2]], #smem, mutable>
  // CHECK: ttg.local_alloc %{{.*}} : (tensor<8x16xf32, #blocked>) -> !ttg.memdesc<8x16xf32, #[[RANK2]], #smem>
  // CHECK: ttng.async_tma_copy_local_to_global %arg0[%arg1, %arg1, %arg1]
  tt.func public @rank_reducing(%d: !tt.tensordesc<tensor<1x8x16xf32, #nvmma3>>, %x: i32) {
    %t = tt.descriptor_load %d[%x, %x, %x] : !tt.tensordesc<tensor<1x8x16xf32, #nvmma3>> -> tensor<8x16xf32, #blocked>
    %u = arith.addf %t, %t : tensor<8x16xf32, #blocked>
    tt.descriptor_store %d[%x, %x, %x], %u : !tt.tensordesc<tensor<1x8x16xf32, #nvmma3>>, tensor<8x16xf32, #blocked>
    tt.return
  }
}
