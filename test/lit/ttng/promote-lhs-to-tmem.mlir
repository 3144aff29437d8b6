// RUN: tt-opt %s --split-input-file -tritongpu-promote-lhs-to-tmem | FileCheck %s
// tritongpu-promote-lhs-to-tmem: the A operand of a Blackwell MMA that is a
// shared allocation of a register tensor moves to tensor memory (blockM of
// the accumulator, blockN the K extent); a tensor computed in another
// layout is converted to the 32x32b access layout first, one that comes
// from a load in an incompatible layout stays in shared memory, and the
// dead shared allocation goes.

// CHECK: #[[ACCESS:.*]] = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32{{\]\]}}, lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0{{\]\]}}, warp = {{\[\[}}32, 0], [64, 0{{\]\]}}, block = []}>
// CHECK: #[[TM_A:.*]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
// CHECK-LABEL: @computed_lhs
// CHECK: %[[X:.*]] = arith.addf
// CHECK-NEXT: %[[CVT:.*]] = ttg.convert_layout %[[X]] : tensor<128x64xf16, #{{.*}}> -> tensor<128x64xf16, #[[ACCESS]]>
// CHECK-NEXT: %[[A:.*]] = ttng.tmem_alloc %[[CVT]] : (tensor<128x64xf16, #[[ACCESS]]>) -> !ttg.memdesc<128x64xf16, #[[TM_A]], #ttng.tensor_memory>
// CHECK-NEXT: %[[B:.*]] = ttg.local_alloc %arg1
// CHECK-NEXT: ttng.tc_gen5_mma %[[A]], %[[B]]
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func public @computed_lhs(%lhs: tensor<128x64xf16, #blocked1>, %rhs: tensor<64x128xf16, #blocked2>) {
    %true = arith.constant true
    %cst = arith.constant dense<0.0> : tensor<128x128xf32, #blocked>
    %tmem = ttng.tmem_alloc %cst : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %x = arith.addf %lhs, %lhs : tensor<128x64xf16, #blocked1>
    %a = ttg.local_alloc %x : (tensor<128x64xf16, #blocked1>) -> !ttg.memdesc<128x64xf16, #shared, #ttg.shared_memory>
    %b = ttg.local_alloc %rhs : (tensor<64x128xf16, #blocked2>) -> !ttg.memdesc<64x128xf16, #shared1, #ttg.shared_memory>
    ttng.tc_gen5_mma %a, %b, %tmem, %true, %true : !ttg.memdesc<128x64xf16, #shared, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #shared1, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}
// -----

// A tf32 operand whose layout a 32x32b access already gives is stored as
// it is.
// CHECK-LABEL: @tf32_lhs
// CHECK-NOT: ttg.convert_layout
// CHECK-NOT: ttg.local_alloc %arg0
// CHECK: %[[A:.*]] = ttng.tmem_alloc %arg0 : (tensor<128x32xf32, #{{.*}}>) -> !ttg.memdesc<128x32xf32, #{{.*}}, #ttng.tensor_memory>
// CHECK: ttng.tc_gen5_mma %[[A]],
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func public @tf32_lhs(%lhs: tensor<128x32xf32, #blocked1>, %rhs: tensor<32x64xf32, #blocked2>) {
    %true = arith.constant true
    %cst = arith.constant dense<0.0> : tensor<128x64xf32, #blocked>
    %tmem = ttng.tmem_alloc %cst : (tensor<128x64xf32, #blocked>) -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    %a = ttg.local_alloc %lhs : (tensor<128x32xf32, #blocked1>) -> !ttg.memdesc<128x32xf32, #shared, #ttg.shared_memory>
    %b = ttg.local_alloc %rhs : (tensor<32x64xf32, #blocked2>) -> !ttg.memdesc<32x64xf32, #shared1, #ttg.shared_memory>
    ttng.tc_gen5_mma %a, %b, %tmem, %true, %true : !ttg.memdesc<128x32xf32, #shared, #ttg.shared_memory>, !ttg.memdesc<32x64xf32, #shared1, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}
// -----

// Loaded in a layout no tensor-memory access gives: A stays in shared
// memory.
// CHECK-LABEL: @fp8_lhs_8_warps
// CHECK-NOT: ttng.tmem_alloc %{{.*}} : (tensor<128x128xf8E4M3FN
// CHECK: %[[A:.*]] = ttg.local_alloc %{{.*}} : (tensor<128x128xf8E4M3FN, #{{.*}}>) -> !ttg.memdesc<128x128xf8E4M3FN
// CHECK: ttng.tc_gen5_mma %[[A]],
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 2], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32} {
  tt.func public @fp8_lhs_8_warps(%p: tensor<128x128x!tt.ptr<f8E4M3FN>, #blocked1>, %rhs: tensor<128x128xf8E4M3FN, #blocked2>) {
    %true = arith.constant true
    %cst = arith.constant dense<0.0> : tensor<128x128xf32, #blocked>
    %tmem = ttng.tmem_alloc %cst : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %l = tt.load %p : tensor<128x128x!tt.ptr<f8E4M3FN>, #blocked1>
    %m = tt.fp_to_fp %l : tensor<128x128xf8E4M3FN, #blocked1> -> tensor<128x128xf8E4M3FN, #blocked1>
    %a = ttg.local_alloc %l : (tensor<128x128xf8E4M3FN, #blocked1>) -> !ttg.memdesc<128x128xf8E4M3FN, #shared, #ttg.shared_memory>
    %b = ttg.local_alloc %rhs : (tensor<128x128xf8E4M3FN, #blocked2>) -> !ttg.memdesc<128x128xf8E4M3FN, #shared1, #ttg.shared_memory>
    ttng.tc_gen5_mma %a, %b, %tmem, %true, %true : !ttg.memdesc<128x128xf8E4M3FN, #shared, #ttg.shared_memory>, !ttg.memdesc<128x128xf8E4M3FN, #shared1, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}
