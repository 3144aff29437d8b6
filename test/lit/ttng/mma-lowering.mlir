// RUN: tt-opt %s --split-input-file --triton-nvidia-mma-lowering | FileCheck %s
// triton-nvidia-mma-lowering on Blackwell MMAs: a synchronous MMA signals
// a fresh barrier that it then waits for (under its own predicate) and
// invalidates; scales in shared memory are copied into tensor memory,
// those already there are read as they are.

// CHECK-LABEL: @sync_mma
// CHECK: %[[BAR:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
// CHECK-NEXT: ttng.init_barrier %[[BAR]], 1
// CHECK-NEXT: ttng.tc_gen5_mma %arg0, %arg1, %arg2, %true, %arg3, %[[BAR]][%true] {is_async}
// CHECK-NEXT: ttng.wait_barrier %[[BAR]], %c0_i32, %arg3
// CHECK-NEXT: ttng.inval_barrier %[[BAR]]
// CHECK: %[[BAR2:.*]] = ttg.local_alloc
// CHECK-NEXT: ttng.init_barrier %[[BAR2]], 1
// CHECK-NEXT: ttng.tc_gen5_mma {{.*}}, %[[BAR2]][%true] {is_async}
// CHECK-NEXT: ttng.wait_barrier %[[BAR2]], %c0_i32, %true
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @sync_mma(%a: !ttg.memdesc<128x128xf8E5M2, #shared, #ttg.shared_memory>, %b: !ttg.memdesc<128x64xf8E5M2, #shared1, #ttg.shared_memory>, %c: !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
    %true = arith.constant true
    ttng.tc_gen5_mma %a, %b, %c, %true, %p : !ttg.memdesc<128x128xf8E5M2, #shared, #ttg.shared_memory>, !ttg.memdesc<128x64xf8E5M2, #shared1, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    %x = arith.addi %p, %p : i1
    ttng.tc_gen5_mma %a, %b, %c, %x, %true : !ttg.memdesc<128x128xf8E5M2, #shared, #ttg.shared_memory>, !ttg.memdesc<128x64xf8E5M2, #shared1, #ttg.shared_memory>, !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}
// -----

// CHECK-LABEL: @scaled_mixed
// CHECK: %[[BS:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory, mutable>
// CHECK-NEXT: ttng.tmem_copy %arg4, %[[BS]]
// CHECK-NEXT: ttng.tc_gen5_mma_scaled %arg0, %arg1, %arg2, %arg3, %[[BS]],
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>
#shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem_scales = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @scaled_mixed(%A: !ttg.memdesc<128x128xf8E5M2, #shared, #ttg.shared_memory>, %B: !ttg.memdesc<128x128xf8E5M2, #shared, #ttg.shared_memory>, %C: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %As: !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, %Bs: !ttg.memdesc<128x4xi8, #shared1, #ttg.shared_memory>, %bar: !ttg.memdesc<1xi64, #shared2, #ttg.shared_memory, mutable>) {
    %true = arith.constant true
    ttng.tc_gen5_mma_scaled %A, %B, %C, %As, %Bs, %true, %true lhs = e5m2 rhs = e5m2, %bar[%true] {is_async} : !ttg.memdesc<128x128xf8E5M2, #shared, #ttg.shared_memory>, !ttg.memdesc<128x128xf8E5M2, #shared, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #shared1, #ttg.shared_memory>, !ttg.memdesc<1xi64, #shared2, #ttg.shared_memory, mutable>
    tt.return
  }
}
