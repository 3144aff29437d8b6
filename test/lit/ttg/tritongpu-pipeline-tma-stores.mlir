// tritongpu-pipeline makes the tensor-descriptor stores of loops with
// more than one stage asynchronous TMA stores, as Triton 3.6 does: one
// shared buffer per stored shape, a wait for the previous TMA read before
// each local_store, a fence, the TMA store; a wait after the loop.
// Descriptors made in the loop are written into multi-buffered global
// scratch slots. (Triton 3.6 also frees the buffer once per store and
// leaves the made descriptor op, dead; this project does neither.)
// RUN: tt-opt %s -split-input-file -tritongpu-pipeline | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // Two stores of one shape share one buffer.
  // CHECK-LABEL: tt.func public @descriptor_store
  // CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<128x32xf32, #shared, #smem, mutable>
  // CHECK: scf.for %[[I:.+]] = 
  // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
  // CHECK-NEXT: ttg.local_store %arg1, %[[BUF]]
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg0[%[[I]], %c0_i32] %[[BUF]]
  // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
  // CHECK-NEXT: ttg.local_store %arg1, %[[BUF]]
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg0[%c0_i32, %[[I]]] %[[BUF]]
  // CHECK-NEXT: }
  // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
  // CHECK-NEXT: ttg.local_dealloc %[[BUF]]
  // CHECK-NEXT: tt.return
  tt.func public @descriptor_store(%d: !tt.tensordesc<tensor<128x32xf32, #nvmma>>, %v: tensor<128x32xf32, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<tensor<128x32xf32, #nvmma>>, tensor<128x32xf32, #b>
      tt.descriptor_store %d[%c0, %i], %v : !tt.tensordesc<tensor<128x32xf32, #nvmma>>, tensor<128x32xf32, #b>
    }
    tt.return
  }
  // A descriptor made in the loop: two 128-byte slots, a carried counter.
  // CHECK-LABEL: tt.func public @device_descriptor
  // CHECK: %[[SCRATCH:.+]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 256 : i32} : !tt.ptr<i8>
  // CHECK: scf.for {{.*}} iter_args(%[[SLOT:.+]] = %c0_i32{{.*}}) -> (i32)
  // CHECK: %[[OFF:.+]] = arith.muli %c128_i32, %[[SLOT]]
  // CHECK-NEXT: %[[PTR:.+]] = tt.addptr %[[SCRATCH]], %[[OFF]]
  // CHECK: ttng.tensormap_create %[[PTR]], %arg0, [%c32_i32, %c128_i32{{.*}}], [%arg2, %arg2], [%{{.+}}], [%{{.+}}, %{{.+}}] {elem_type = 7 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32}
  // CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[PTR]]
  // CHECK-NEXT: %[[DESC:.+]] = ttng.reinterpret_tensor_descriptor %[[PTR]] : !tt.ptr<i8> to !tt.tensordesc<tensor<128x32xf32, #shared>>
  // CHECK-NEXT: %[[NEXT:.+]] = arith.addi %[[SLOT]]
  // CHECK-NEXT: %[[WRAP:.+]] = arith.cmpi sge, %[[NEXT]], %c2_i32
  // CHECK-NEXT: %[[SEL:.+]] = arith.select %[[WRAP]], %{{.+}}, %[[NEXT]]
  // CHECK-NOT: tt.make_tensor_descriptor
  // CHECK: ttng.async_tma_copy_local_to_global %[[DESC]]
  // CHECK: scf.yield %[[SEL]] : i32
  tt.func public @device_descriptor(%p: !tt.ptr<f32>, %v: tensor<128x32xf32, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i64 = arith.constant 32 : i64
    scf.for %i = %c0 to %n step %c1 : i32 {
      %d = tt.make_tensor_descriptor %p, [%n, %n], [%c32_i64, %c1_i64] : <f32>, <tensor<128x32xf32, #nvmma>>
      tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<tensor<128x32xf32, #nvmma>>, tensor<128x32xf32, #b>
    }
    tt.return
  }
}
