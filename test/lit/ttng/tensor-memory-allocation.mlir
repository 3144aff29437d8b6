// triton-tensor-memory-allocation: tensor-memory buffers get column and
// row offsets by first fit over their live ranges, and the module its
// rounded size; the offsets are Triton 3.6's pass's on the same input.
// RUN: tt-opt %s -triton-tensor-memory-allocation | FileCheck %s

// CHECK: ttg.tensor_memory_size = 128
// CHECK-LABEL: @reuse_after_loop
// %a lives through the loop, %b inside it; %c reuses %a's columns after
// the loop, %d and %e (never used) the next free ones.
// CHECK: %[[A:.+]] = ttng.tmem_alloc %{{.+}} {tensor_memory_col_offset = 0 : i32, tensor_memory_row_offset = 0 : i32}
// CHECK: ttng.tmem_alloc {tensor_memory_col_offset = 64 : i32, tensor_memory_row_offset = 0 : i32}
// CHECK: ttng.tmem_alloc %{{.+}} {tensor_memory_col_offset = 0 : i32, tensor_memory_row_offset = 0 : i32}
// CHECK: ttng.tmem_alloc {tensor_memory_col_offset = 64 : i32, tensor_memory_row_offset = 0 : i32}
// CHECK: ttng.tmem_alloc {tensor_memory_col_offset = 64 : i32, tensor_memory_row_offset = 0 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
#tmem64 = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reuse_after_loop(%lb: i32, %ub: i32, %step: i32, %v: tensor<128x64xf32, #blocked>) {
    %true = arith.constant true
    %a = ttng.tmem_alloc %v : (tensor<128x64xf32, #blocked>) -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    scf.for %i = %lb to %ub step %step : i32 {
      %b = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
      ttng.tmem_store %v, %b, %true : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
      ttng.tmem_store %v, %a, %true : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    }
    %c = ttng.tmem_alloc %v : (tensor<128x64xf32, #blocked>) -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    %d = ttng.tmem_alloc : () -> !ttg.memdesc<64x64xf32, #tmem64, #ttng.tensor_memory, mutable>
    %e = ttng.tmem_alloc : () -> !ttg.memdesc<64x64xf32, #tmem64, #ttng.tensor_memory, mutable>
    ttng.tmem_store %v, %c, %true : tensor<128x64xf32, #blocked> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}
