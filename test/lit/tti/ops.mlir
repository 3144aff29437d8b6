// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// Every tti op in Triton's custom form, round-tripped through the printer.

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @tti_ops
  tt.func @tti_ops(%c: tensor<2xi1, #blocked>, %b: i1, %lock: !tt.ptr<i32>, %m: !ttg.memdesc<2xi32, #shared, #smem, mutable>) {
    // CHECK-NEXT: tti.experimental_buffer_pointers [0, 42], tensor_mem : tensor<2xi64, #blocked>
    %0 = tti.experimental_buffer_pointers [0, 42], tensor_mem : tensor<2xi64, #blocked>
    // CHECK-NEXT: tti.experimental_buffer_pointers [8, 16], shared_mem {tag} : tensor<2xi64, #blocked>
    %1 = tti.experimental_buffer_pointers [8, 16], shared_mem {tag} : tensor<2xi64, #blocked>
    // CHECK-NEXT: tti.experimental_assert_in_thread %arg0, "any" {check_any = true} : tensor<2xi1, #blocked>
    tti.experimental_assert_in_thread %c, "any" {check_any = true} : tensor<2xi1, #blocked>
    // CHECK-NEXT: tti.experimental_assert_in_thread %arg1, "scalar" {check_any = false} : i1
    tti.experimental_assert_in_thread %b, "scalar" {check_any = false} : i1
    // CHECK-NEXT: tti.experimental_lock_acquire %arg2, %arg1 : !tt.ptr<i32>
    tti.experimental_lock_acquire %lock, %b : !tt.ptr<i32>
    // CHECK-NEXT: tti.experimental_lock_acquire %arg2 : !tt.ptr<i32>
    tti.experimental_lock_acquire %lock : !tt.ptr<i32>
    // CHECK-NEXT: tti.experimental_lock_release %arg2, %arg1 : !tt.ptr<i32>
    tti.experimental_lock_release %lock, %b : !tt.ptr<i32>
    // CHECK-NEXT: tti.experimental_lock_release %arg2 : !tt.ptr<i32>
    tti.experimental_lock_release %lock : !tt.ptr<i32>
    // CHECK-NEXT: tti.experimental_memdesc_to_i32 %arg3 : <2xi32, #shared, #smem, mutable>
    %2 = tti.experimental_memdesc_to_i32 %m : !ttg.memdesc<2xi32, #shared, #smem, mutable>
    // CHECK-NEXT: tt.return
    tt.return
  }
}
