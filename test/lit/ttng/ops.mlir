// RUN: tt-opt %s --split-input-file | FileCheck %s
// RUN: tt-opt %s --split-input-file | tt-opt --split-input-file | FileCheck %s
// RUN: tt-opt %s --split-input-file --mlir-print-op-generic | tt-opt --split-input-file | FileCheck %s

// Every `ttng` op and attribute of Triton 3.6 round-trips in Triton's
// syntax. Tensor-memory encodings print as `#tmem`/`#tmem_scales`, default
// parameters are left out, and `#ttng.tensor_memory` is not aliased.

// CHECK-DAG: #[[TMEM:tmem[0-9]*]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// CHECK-DAG: #[[TMEM_F16:tmem[0-9]*]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 2>
// CHECK-DAG: #[[TMEM_2CTA:tmem[0-9]*]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, twoCTAs = true>
// CHECK-DAG: #[[TMEM_M64:tmem[0-9]*]] = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1, CTASplitN = 2>
// CHECK-DAG: #[[TMEM_A:tmem[0-9]*]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
// CHECK-DAG: #[[SCALES:tmem_scales[0-9]*]] = #ttng.tensor_memory_scales_encoding<>
// CHECK-DAG: #[[SCALES_SPLIT:tmem_scales[0-9]*]] = #ttng.tensor_memory_scales_encoding<CTASplitN = 2>
#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmma_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#nvmma8 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
#nvmma32 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#scales = #ttg.linear<{register = [[0, 1], [0, 2], [32, 0], [64, 0], [0, 4]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0], [0, 0]], block = []}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem_f16 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 2, CTASplitM = 1, CTASplitN = 1, twoCTAs = false>
#tmem_2cta = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, twoCTAs = true>
#tmem_m64 = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1, CTASplitN = 2>
#tmem_a = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
#tmem_scales = #ttng.tensor_memory_scales_encoding<>
#tmem_scales_split = #ttng.tensor_memory_scales_encoding<CTASplitN = 2>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @encodings
  // CHECK-SAME: !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>
  // CHECK-SAME: !ttg.memdesc<128x128xf16, #[[TMEM_F16]], #ttng.tensor_memory>
  // CHECK-SAME: !ttg.memdesc<256x128xf32, #[[TMEM_2CTA]], #ttng.tensor_memory, mutable>
  // CHECK-SAME: !ttg.memdesc<2x64x128xf32, #[[TMEM_M64]], #ttng.tensor_memory, mutable>
  // CHECK-SAME: !ttg.memdesc<128x8xi8, #[[SCALES]], #ttng.tensor_memory>
  // CHECK-SAME: !ttg.memdesc<128x8xf8E4M3FN, #[[SCALES_SPLIT]], #ttng.tensor_memory>
  tt.func @encodings(%a: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>,
                     %b: !ttg.memdesc<128x128xf16, #tmem_f16, #ttng.tensor_memory>,
                     %c: !ttg.memdesc<256x128xf32, #tmem_2cta, #ttng.tensor_memory, mutable>,
                     %d: !ttg.memdesc<2x64x128xf32, #tmem_m64, #ttng.tensor_memory, mutable>,
                     %e: !ttg.memdesc<128x8xi8, #tmem_scales, #ttng.tensor_memory>,
                     %f: !ttg.memdesc<128x8xf8E4M3FN, #tmem_scales_split, #ttng.tensor_memory>) {
    tt.return
  }

  // CHECK-LABEL: tt.func @fences_and_clusters
  tt.func @fences_and_clusters() {
    // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
    ttng.fence_async_shared {bCluster = false}
    // CHECK-NEXT: ttng.cluster_arrive {relaxed = true}
    ttng.cluster_arrive {relaxed = true}
    // CHECK-NEXT: ttng.cluster_wait
    ttng.cluster_wait
    // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
    ttng.async_tma_store_wait {pendings = 0 : i32}
    tt.return
  }

  // CHECK-LABEL: tt.func @barriers
  tt.func @barriers(%pred: i1, %phase: i32, %dep: !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>) {
    // CHECK: %[[BAR:.*]] = ttg.local_alloc
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: ttng.init_barrier %[[BAR]], 1 : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: ttng.barrier_expect %[[BAR]], 16384, %arg0 : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.barrier_expect %bar, 16384, %pred : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: ttng.wait_barrier %[[BAR]], %arg1 : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: ttng.wait_barrier %[[BAR]], %arg1, %arg0 : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.wait_barrier %bar, %phase, %pred : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: ttng.wait_barrier %[[BAR]], %arg1, %arg0 deps %arg2 : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>, !ttg.memdesc<128x64xf16, #{{.*}}, #smem, mutable>
    ttng.wait_barrier %bar, %phase, %pred deps %dep : !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    // CHECK-NEXT: ttng.arrive_barrier %[[BAR]], 1 : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: ttng.arrive_barrier %[[BAR]], 2, %arg0 : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.arrive_barrier %bar, 2, %pred : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: ttng.async_copy_mbarrier_arrive %[[BAR]] : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: ttng.async_copy_mbarrier_arrive %[[BAR]] {noIncrement} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar {noIncrement} : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: ttng.tc_gen5_commit %[[BAR]] : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.tc_gen5_commit %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: ttng.tc_gen5_commit %[[BAR]], %arg0 {two_ctas} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.tc_gen5_commit %bar, %pred {two_ctas} : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: ttng.inval_barrier %[[BAR]] : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }

  // CHECK-LABEL: tt.func @tma
  tt.func @tma(%desc: !tt.tensordesc<tensor<128x64xf16, #nvmma>>, %x: i32, %y: i32, %pred: i1,
               %buf: !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>,
               %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>,
               %rows: tensor<32xi32, #blocked1>,
               %gdesc: !tt.tensordesc<tensor<1x64xf16, #nvmma>>,
               %gbuf: !ttg.memdesc<32x64xf16, #nvmma, #smem, mutable>) {
    // CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%arg1, %arg2] %arg4, %arg5, %arg3 : !tt.tensordesc<tensor<128x64xf16, #{{.*}}>>, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable> -> !ttg.memdesc<128x64xf16, #{{.*}}, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %pred : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    // CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%arg1, %arg2] %arg4, %arg5, %arg3 cacheModifier = cg evictionPolicy = evict_first {isVolatile = true} : !tt.tensordesc
    ttng.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %pred cacheModifier = cg evictionPolicy = evict_first {isVolatile = true} : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    // CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg0[%arg1, %arg2] %arg4 : !tt.tensordesc<tensor<128x64xf16, #{{.*}}>>, !ttg.memdesc<128x64xf16, #{{.*}}, #smem, mutable>
    ttng.async_tma_copy_local_to_global %desc[%x, %y] %buf : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    // CHECK-NEXT: ttng.async_tma_reduce add, %arg0[%arg1, %arg2] %arg4 : !tt.tensordesc<tensor<128x64xf16, #{{.*}}>>, !ttg.memdesc<128x64xf16, #{{.*}}, #smem, mutable>
    ttng.async_tma_reduce add, %desc[%x, %y] %buf : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    // CHECK-NEXT: ttng.async_tma_reduce xor, %arg0[%arg1, %arg2] %arg4
    ttng.async_tma_reduce xor, %desc[%x, %y] %buf : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    // CHECK-NEXT: ttng.async_tma_gather %arg7[%arg6, %arg2] %arg8, %arg5, %arg3 : !tt.tensordesc<tensor<1x64xf16, #{{.*}}>>, tensor<32xi32, #{{.*}}>, i32, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>, !ttg.memdesc<32x64xf16, #{{.*}}, #smem, mutable>, i1
    ttng.async_tma_gather %gdesc[%rows, %y] %gbuf, %bar, %pred : !tt.tensordesc<tensor<1x64xf16, #nvmma>>, tensor<32xi32, #blocked1>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<32x64xf16, #nvmma, #smem, mutable>, i1
    // CHECK-NEXT: ttng.async_tma_scatter %arg7[%arg6, %arg2] %arg8 : !tt.tensordesc<tensor<1x64xf16, #{{.*}}>>, tensor<32xi32, #{{.*}}>, i32, !ttg.memdesc<32x64xf16, #{{.*}}, #smem, mutable>
    ttng.async_tma_scatter %gdesc[%rows, %y] %gbuf : !tt.tensordesc<tensor<1x64xf16, #nvmma>>, tensor<32xi32, #blocked1>, i32, !ttg.memdesc<32x64xf16, #nvmma, #smem, mutable>
    tt.return
  }

  // CHECK-LABEL: tt.func @tensormaps
  tt.func @tensormaps(%ptr: !tt.ptr<i8>, %base: !tt.ptr<f16>, %d0: i32, %d1: i32, %stride: i64) -> !tt.tensordesc<tensor<128x64xf16, #nvmma>> {
    // CHECK-NEXT: ttng.tensormap_create %arg0, %arg1, [%arg2, %arg3], [%arg3, %arg2], [%arg4], [%arg2, %arg2] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_create %ptr, %base, [%d0, %d1], [%d1, %d0], [%stride], [%d0, %d0] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    // CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %arg0 : !tt.ptr<i8>
    ttng.tensormap_fenceproxy_acquire %ptr : !tt.ptr<i8>
    // CHECK-NEXT: %[[DESC:.*]] = ttng.reinterpret_tensor_descriptor %arg0 : !tt.ptr<i8> to !tt.tensordesc<tensor<128x64xf16, #{{.*}}>>
    %desc = ttng.reinterpret_tensor_descriptor %ptr : !tt.ptr<i8> to !tt.tensordesc<tensor<128x64xf16, #nvmma>>
    // CHECK-NEXT: tt.return %[[DESC]]
    tt.return %desc : !tt.tensordesc<tensor<128x64xf16, #nvmma>>
  }

  // CHECK-LABEL: tt.func @tensor_memory
  tt.func @tensor_memory(%x: tensor<128x128xf32, #blocked>, %pred: i1,
                         %src: !ttg.memdesc<128x128xf32, #nvmma32, #smem>,
                         %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>,
                         %scales_src: !ttg.memdesc<128x4xi8, #flat, #smem>,
                         %s: tensor<128x8xi8, #scales>) {
    // CHECK-NEXT: %[[A:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>
    %a = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    // CHECK-NEXT: %[[B:.*]] = ttng.tmem_alloc %arg0 : (tensor<128x128xf32, #{{.*}}>) -> !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory>
    %b = ttng.tmem_alloc %x : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
    // CHECK-NEXT: %[[C:.*]], %[[T0:.*]] = ttng.tmem_alloc %arg0 : (tensor<128x128xf32, #{{.*}}>) -> (!ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>, !ttg.async.token)
    %c, %t0 = ttng.tmem_alloc %x : (tensor<128x128xf32, #blocked>) -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    // CHECK-NEXT: ttng.tmem_store %arg0, %[[A]], %arg1 : tensor<128x128xf32, #{{.*}}> -> !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>
    ttng.tmem_store %x, %a, %pred : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    // CHECK-NEXT: %[[T1:.*]] = ttng.tmem_store %arg0, %[[C]][%[[T0]]], %arg1 : tensor<128x128xf32, #{{.*}}> -> !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>
    %t1 = ttng.tmem_store %x, %c[%t0], %pred : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    // CHECK-NEXT: %[[T2:.*]] = ttng.tmem_store %arg0, %[[C]][], %arg1
    %t2 = ttng.tmem_store %x, %c[], %pred : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    // CHECK-NEXT: %{{.*}} = ttng.tmem_load %[[B]] : !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory> -> tensor<128x128xf32, #{{.*}}>
    %l0 = ttng.tmem_load %b : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory> -> tensor<128x128xf32, #blocked>
    // CHECK-NEXT: %{{.*}}, %{{.*}} = ttng.tmem_load %[[C]][%[[T2]]] : !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #{{.*}}>
    %l1, %t3 = ttng.tmem_load %c[%t2] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
    // CHECK-NEXT: ttng.tmem_subslice %[[A]] {N = 64 : i32} : !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #{{.*}}, #ttng.tensor_memory, mutable, 128x128>
    %sub = ttng.tmem_subslice %a {N = 64 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>, #ttng.tensor_memory, mutable, 128x128>
    // CHECK-NEXT: ttng.tmem_copy %arg2, %[[A]] : !ttg.memdesc<128x128xf32, #{{.*}}, #smem>, !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>
    ttng.tmem_copy %src, %a : !ttg.memdesc<128x128xf32, #nvmma32, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    // CHECK-NEXT: ttng.tmem_copy %arg2, %[[A]], %arg3 : !ttg.memdesc<128x128xf32, #{{.*}}, #smem>, !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.tmem_copy %src, %a, %bar : !ttg.memdesc<128x128xf32, #nvmma32, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: %[[SC:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<128x4xi8, #[[SCALES]], #ttng.tensor_memory, mutable>
    %sc = ttng.tmem_alloc : () -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory, mutable>
    // CHECK-NEXT: ttng.tmem_copy %arg4, %[[SC]] : !ttg.memdesc<128x4xi8, #{{.*}}, #smem>, !ttg.memdesc<128x4xi8, #[[SCALES]], #ttng.tensor_memory, mutable>
    ttng.tmem_copy %scales_src, %sc : !ttg.memdesc<128x4xi8, #flat, #smem>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory, mutable>
    // CHECK-NEXT: ttng.tmem_alloc %arg5 : (tensor<128x8xi8, #{{.*}}>) -> !ttg.memdesc<128x8xi8, #[[SCALES]], #ttng.tensor_memory>
    %sa = ttng.tmem_alloc %s : (tensor<128x8xi8, #scales>) -> !ttg.memdesc<128x8xi8, #tmem_scales, #ttng.tensor_memory>
    tt.return
  }

  // CHECK-LABEL: tt.func @tcgen5
  tt.func @tcgen5(%a: !ttg.memdesc<128x64xf16, #nvmma, #smem>,
                  %b: !ttg.memdesc<64x128xf16, #nvmma_t, #smem>,
                  %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>,
                  %use: i1, %pred: i1,
                  %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>,
                  %bar2: !ttg.memdesc<1xi64, #bar, #smem, mutable>,
                  %bp: i1, %tok: !ttg.async.token,
                  %ta: !ttg.memdesc<128x64xf16, #tmem_a, #ttng.tensor_memory>) {
    // CHECK-NEXT: ttng.tc_gen5_mma %arg0, %arg1, %arg2, %arg3, %arg4 : !ttg.memdesc<128x64xf16, #{{.*}}, #smem>, !ttg.memdesc<64x128xf16, #{{.*}}, #smem>, !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>
    ttng.tc_gen5_mma %a, %b, %d, %use, %pred : !ttg.memdesc<128x64xf16, #nvmma, #smem>, !ttg.memdesc<64x128xf16, #nvmma_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    // CHECK-NEXT: ttng.tc_gen5_mma %arg0, %arg1, %arg2, %arg3, %arg4, %arg5[%arg7], %arg6[%arg4] {is_async} : !ttg.memdesc<128x64xf16, #{{.*}}, #smem>, !ttg.memdesc<64x128xf16, #{{.*}}, #smem>, !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.tc_gen5_mma %a, %b, %d, %use, %pred, %bar[%bp], %bar2[%pred] {is_async} : !ttg.memdesc<128x64xf16, #nvmma, #smem>, !ttg.memdesc<64x128xf16, #nvmma_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: %[[T0:.*]] = ttng.tc_gen5_mma %arg0, %arg1, %arg2[%arg8], %arg3, %arg4 : !ttg.memdesc
    %t0 = ttng.tc_gen5_mma %a, %b, %d[%tok], %use, %pred : !ttg.memdesc<128x64xf16, #nvmma, #smem>, !ttg.memdesc<64x128xf16, #nvmma_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    // CHECK-NEXT: %{{.*}} = ttng.tc_gen5_mma %arg9, %arg1, %arg2[], %arg3, %arg4 : !ttg.memdesc<128x64xf16, #[[TMEM_A]], #ttng.tensor_memory>, !ttg.memdesc
    %t1 = ttng.tc_gen5_mma %ta, %b, %d[], %use, %pred : !ttg.memdesc<128x64xf16, #tmem_a, #ttng.tensor_memory>, !ttg.memdesc<64x128xf16, #nvmma_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }

  // CHECK-LABEL: tt.func @tcgen5_scaled
  tt.func @tcgen5_scaled(%a: !ttg.memdesc<128x64xf8E4M3FN, #nvmma, #smem>,
                         %b: !ttg.memdesc<64x128xf8E4M3FN, #nvmma_t, #smem>,
                         %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>,
                         %sa: !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>,
                         %sb: !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>,
                         %use: i1, %pred: i1,
                         %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>,
                         %tok: !ttg.async.token,
                         %fp4: !ttg.memdesc<128x32xi8, #nvmma8, #smem>) {
    // CHECK-NEXT: ttng.tc_gen5_mma_scaled %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6 lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x64xf8E4M3FN, #{{.*}}, #smem>, !ttg.memdesc<64x128xf8E4M3FN, #{{.*}}, #smem>, !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #[[SCALES]], #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #[[SCALES]], #ttng.tensor_memory>
    ttng.tc_gen5_mma_scaled %a, %b, %d, %sa, %sb, %use, %pred lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x64xf8E4M3FN, #nvmma, #smem>, !ttg.memdesc<64x128xf8E4M3FN, #nvmma_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>
    // CHECK-NEXT: %{{.*}} = ttng.tc_gen5_mma_scaled %arg0, %arg1, %arg2[%arg8], %arg3, %arg4, %arg5, %arg6 lhs = e5m2 rhs = e4m3, %arg7[%arg6] {is_async} : {{.*}}, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    %t = ttng.tc_gen5_mma_scaled %a, %b, %d[%tok], %sa, %sb, %use, %pred lhs = e5m2 rhs = e4m3, %bar[%pred] {is_async} : !ttg.memdesc<128x64xf8E4M3FN, #nvmma, #smem>, !ttg.memdesc<64x128xf8E4M3FN, #nvmma_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // e2m1 packs two values a byte: a 128x32xi8 A holds K = 64.
    // CHECK-NEXT: ttng.tc_gen5_mma_scaled %arg9, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6 lhs = e2m1 rhs = e4m3 : !ttg.memdesc<128x32xi8
    ttng.tc_gen5_mma_scaled %fp4, %b, %d, %sa, %sb, %use, %pred lhs = e2m1 rhs = e4m3 : !ttg.memdesc<128x32xi8, #nvmma8, #smem>, !ttg.memdesc<64x128xf8E4M3FN, #nvmma_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>
    tt.return
  }
}

// -----

// Hopper warp-group MMA and its wait.
// CHECK-LABEL: tt.func @wgmma
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma(%a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>,
                 %b: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>,
                 %sa: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>,
                 %acc: tensor<64x64xf32, #mma>, %use: i1) -> tensor<64x64xf32, #mma> {
    // CHECK-NEXT: %[[D0:.*]] = ttng.warp_group_dot %arg0, %arg1, %arg3 {isAsync = true} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    %d0 = ttng.warp_group_dot %a, %b, %acc {isAsync = true} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> -> tensor<64x64xf32, #mma>
    // CHECK-NEXT: %[[D1:.*]] = ttng.warp_group_dot %arg2, %arg1, %[[D0]], %arg4 {inputPrecision = 0 : i32, maxNumImpreciseAcc = 64 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    %d1 = ttng.warp_group_dot %sa, %b, %d0, %use {inputPrecision = 0 : i32, maxNumImpreciseAcc = 64 : i32} : !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> * !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> -> tensor<64x64xf32, #mma>
    // CHECK-NEXT: %[[W:.*]]:2 = ttng.warp_group_dot_wait %[[D1]], %arg1 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem>
    %w:2 = ttng.warp_group_dot_wait %d1, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>
    // CHECK-NEXT: tt.return %[[W]]#0
    tt.return %w#0 : tensor<64x64xf32, #mma>
  }
}
