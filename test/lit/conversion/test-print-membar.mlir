// test-print-membar: a ttg.local_barrier before an op whose shared-memory
// accesses conflict with those since the last barrier (read after write,
// write after read or write), from the allocation's byte ranges, around
// loop back edges too; disjoint buffers and unknown ones (arguments) need
// none.
// RUN: tt-opt %s --split-input-file --allocate-shared-memory -test-print-membar | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @hazards
  tt.func @hazards(%x: tensor<32x32xf16, #blocked>, %arg: !ttg.memdesc<32x32xf16, #shared, #smem, mutable>, %n: i1) {
    // CHECK: %[[A:.*]] = ttg.local_alloc %arg0
    // CHECK-NEXT: %[[B:.*]] = ttg.local_alloc %arg0
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: ttg.local_load %[[A]]
    // CHECK-NEXT: ttg.local_load %[[B]]
    %a = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc %x : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %la = ttg.local_load %a : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked>
    %lb = ttg.local_load %b : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked>
    // A write after the reads of the same bytes.
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: ttg.local_store %{{.*}}, %[[A]]
    ttg.local_store %lb, %a : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    // An argument's buffer is not tracked.
    // CHECK-NEXT: ttg.local_store %{{.*}}, %arg1
    ttg.local_store %la, %arg : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    // CHECK-NEXT: cf.br
    cf.br ^loop
  ^loop:
    // The store at the end of the loop reaches this load again.
    // CHECK: ttg.local_barrier
    // CHECK-NEXT: ttg.local_load %[[B]]
    %v = ttg.local_load %b : !ttg.memdesc<32x32xf16, #shared, #smem, mutable> -> tensor<32x32xf16, #blocked>
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: ttg.local_store %{{.*}}, %[[B]]
    ttg.local_store %v, %b : tensor<32x32xf16, #blocked> -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    cf.cond_br %n, ^loop, ^exit
  ^exit:
    tt.return
  }
}
