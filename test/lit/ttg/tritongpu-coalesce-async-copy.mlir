// tritongpu-coalesce-async-copy: every expectation is what Triton 3.6's
// own pass does to the same input (scripts/triton-pass.py).
// RUN: tt-opt %s --split-input-file --tritongpu-coalesce-async-copy | FileCheck %s

// Fewer elements than threads: Triton 3.6 leaves it (no CoalesceCheap).
// CHECK-LABEL: @small_f32
// CHECK-NOT: ttg.convert_layout
// CHECK: ttg.async_copy_global_to_local %arg0, %arg1
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @small_f32(%input: tensor<64x!tt.ptr<f32>, #blocked>, %view: !ttg.memdesc<64xf32, #shared, #smem, mutable>) {
  %token = ttg.async_copy_global_to_local %input, %view : tensor<64x!tt.ptr<f32>, #blocked> -> <64xf32, #shared, #smem, mutable>
  tt.return
}
}

// -----

// The buffer is column-major: one element per cp.async.
// CHECK-DAG: #[[B:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: @order_mismatch
// CHECK: %[[P:.*]] = ttg.convert_layout %arg0 : tensor<64x16x!tt.ptr<f16>, #{{.*}}> -> tensor<64x16x!tt.ptr<f16>, #[[B]]>
// CHECK: ttg.async_copy_global_to_local %[[P]], %arg1
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @order_mismatch(%input: tensor<64x16x!tt.ptr<f16>, #blocked>, %view: !ttg.memdesc<64x16xf16, #shared, #smem, mutable>) {
  %token = ttg.async_copy_global_to_local %input, %view : tensor<64x16x!tt.ptr<f16>, #blocked> -> <64x16xf16, #shared, #smem, mutable>
  tt.return
}
}

// -----

// NVMMA buffers are left alone.
// CHECK-LABEL: @nvmma
// CHECK-NOT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @nvmma(%input: tensor<64x64x!tt.ptr<f16>, #blocked>, %view: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
  %token = ttg.async_copy_global_to_local %input, %view : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
  tt.return
}
}

// -----

// Sixteen contiguous f16 per thread, four per swizzle vector.
// CHECK-DAG: #[[B:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: @vec4
// CHECK: %[[P:.*]] = ttg.convert_layout %arg0 : tensor<64x64x!tt.ptr<f16>, #{{.*}}> -> tensor<64x64x!tt.ptr<f16>, #[[B]]>
// CHECK: ttg.async_copy_global_to_local %[[P]], %arg1
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @vec4(%input: tensor<64x64x!tt.ptr<f16>, #blocked>, %view: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
  %token = ttg.async_copy_global_to_local %input, %view : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
  tt.return
}
}

// -----

// A clipped copy loses the pipeliner's contiguity hint, as in Triton (which
// builds the copy anew); an untouched one keeps it.
// CHECK-LABEL: @drops_contiguity
// CHECK: %[[P:.*]] = ttg.convert_layout %arg0
// CHECK: ttg.async_copy_global_to_local %[[P]], %arg1 :
// CHECK: ttg.async_copy_global_to_local %arg2, %arg3 {contiguity = 4 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @drops_contiguity(%input: tensor<32x64x!tt.ptr<i8>, #blocked>, %view: !ttg.memdesc<32x64xi8, #shared, #smem, mutable>, %input1: tensor<64x64x!tt.ptr<f16>, #blocked1>, %view1: !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>) {
  %token = ttg.async_copy_global_to_local %input, %view {contiguity = 16 : i32} : tensor<32x64x!tt.ptr<i8>, #blocked> -> <32x64xi8, #shared, #smem, mutable>
  %token1 = ttg.async_copy_global_to_local %input1, %view1 {contiguity = 4 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked1> -> <64x64xf16, #shared1, #smem, mutable>
  tt.return
}
}
