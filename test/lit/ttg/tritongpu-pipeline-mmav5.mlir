// RUN: tt-opt %s -tritongpu-pipeline | FileCheck %s

// A loop whose tcgen05 MMA is waited on in its last stage gets its last
// iteration peeled, as Triton 3.6 does (output identical to the 3.6.0
// wheel's): the prologue issues the first MMA, the kernel stops one step
// early with the MMA always on, and an scf.if runs the last wait.
// CHECK-LABEL: @mma_waited_in_last_stage
// CHECK: %[[FIRST:.*]] = arith.cmpi sgt, %arg0, %c0_i32
// CHECK: ttng.tc_gen5_mma {{.*}}, %true, %[[FIRST]], %{{.*}}[%true] {is_async}
// CHECK: %[[UB:.*]] = arith.subi %arg0, %c16_i32
// CHECK: scf.for %{{.*}} = %c0_i32 to %[[UB]] step %c16_i32
// CHECK-NEXT: ttng.wait_barrier
// CHECK-NEXT: ttng.tc_gen5_mma {{.*}}, %true, %true, %{{.*}}[%true] {is_async}
// CHECK-NEXT: }
// CHECK: %[[LAST:.*]] = arith.cmpi sgt, %arg0, %c0_i32
// CHECK: scf.if %[[LAST]] {
// CHECK-NEXT: ttng.wait_barrier
// CHECK-NEXT: } else {
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#t = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_waited_in_last_stage(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %true = arith.constant true
    %a = ttng.tmem_alloc : () -> !ttg.memdesc<64x64xbf16, #t, #ttng.tensor_memory, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #s, #ttg.shared_memory, mutable>
    %c = ttng.tmem_alloc : () -> !ttg.memdesc<64x64xf32, #t, #ttng.tensor_memory, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #b, #ttg.shared_memory, mutable>
    scf.for %j = %c0 to %n step %c16 : i32 {
      ttng.tc_gen5_mma %a, %b, %c, %true, %true, %bar[%true] {is_async, loop.cluster = 2 : i32, loop.stage = 0 : i32} : !ttg.memdesc<64x64xbf16, #t, #ttng.tensor_memory, mutable>, !ttg.memdesc<64x64xbf16, #s, #ttg.shared_memory, mutable>, !ttg.memdesc<64x64xf32, #t, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #b, #ttg.shared_memory, mutable>
      ttng.wait_barrier %bar, %c0 deps %a, %b {loop.cluster = 1 : i32, loop.stage = 1 : i32} : !ttg.memdesc<1xi64, #b, #ttg.shared_memory, mutable>, !ttg.memdesc<64x64xbf16, #t, #ttng.tensor_memory, mutable>, !ttg.memdesc<64x64xbf16, #s, #ttg.shared_memory, mutable>
      scf.yield
    } {tt.num_stages = 4 : i32, tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}
