// tritongpu-reorder-instructions: conversions sink below deallocs before
// their first use; local loads and dot-operand conversions sink into the
// loop of their single user; local_alloc, tt.trans and ttg.memdesc_trans
// move up to their source's definition; the B operand's local_load follows
// A's.
// RUN: tt-opt %s --split-input-file --tritongpu-reorder-instructions | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @sink_after_dealloc
  // CHECK: ttg.local_dealloc %[[M0:.*]] :
  // CHECK-NEXT: ttg.local_dealloc
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %arg0
  // CHECK-NEXT: arith.addf %[[C]], %[[C]]
  tt.func @sink_after_dealloc(%x: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked1> {
    %m0 = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %m1 = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %c = ttg.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    ttg.local_dealloc %m0 : !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    ttg.local_dealloc %m1 : !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %s = arith.addf %c, %c : tensor<32x32xf32, #blocked1>
    tt.return %s : tensor<32x32xf32, #blocked1>
  }

  // A dealloc after the first use does not pull the conversion down.
  // CHECK-LABEL: tt.func @dealloc_after_use
  // CHECK: ttg.local_alloc
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %arg0
  // CHECK-NEXT: arith.addf %[[C]], %[[C]]
  // CHECK-NEXT: ttg.local_dealloc
  tt.func @dealloc_after_use(%x: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked1> {
    %m0 = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %c = ttg.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    %s = arith.addf %c, %c : tensor<32x32xf32, #blocked1>
    ttg.local_dealloc %m0 : !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    tt.return %s : tensor<32x32xf32, #blocked1>
  }

  // Loads and dot-operand conversions sink into the loop of their single
  // user; the B operand's load then follows A's; a conversion with two
  // uses, or one whose user is in its own loop, stays.
  // CHECK-LABEL: tt.func @sink_into_loop
  // CHECK: %[[TWO:.*]] = ttg.convert_layout %arg1 : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1
  // CHECK: scf.for
  // CHECK-NEXT: %[[A:.*]] = ttg.local_load %arg0 : {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0
  // CHECK-NEXT: %[[B:.*]] = ttg.local_load %arg0 : {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1
  // CHECK-NEXT: tt.dot %[[A]], %[[B]]
  // CHECK-NEXT: %[[CA:.*]] = ttg.convert_layout %arg1 : {{.*}} -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0
  // CHECK-NEXT: tt.dot %[[CA]], %[[TWO]]
  // CHECK-NEXT: arith.addf %[[TWO]], %[[TWO]]
  tt.func @sink_into_loop(%m: !ttg.memdesc<32x32xf16, #shared, #smem>, %x: tensor<32x32xf16, #blocked>, %lb: index, %ub: index, %st: index) -> tensor<32x32xf32, #mma> {
    %acc0 = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %b = ttg.local_load %m : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %a = ttg.local_load %m : !ttg.memdesc<32x32xf16, #shared, #smem> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %ca = ttg.convert_layout %x : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %two = ttg.convert_layout %x : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %acc0) -> (tensor<32x32xf32, #mma>) {
      %d = tt.dot %a, %b, %acc : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %e = tt.dot %ca, %two, %d : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
      %w = arith.addf %two, %two : tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
      scf.yield %e : tensor<32x32xf32, #mma>
    }
    tt.return %r : tensor<32x32xf32, #mma>
  }

  // A conversion to a blocked layout is not register-hungry: it stays.
  // CHECK-LABEL: tt.func @blocked_stays
  // CHECK: ttg.convert_layout
  // CHECK-NEXT: scf.for
  tt.func @blocked_stays(%x: tensor<32x32xf32, #blocked>, %lb: index, %ub: index, %st: index) -> tensor<32x32xf32, #blocked1> {
    %c = ttg.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %c) -> (tensor<32x32xf32, #blocked1>) {
      %s = arith.addf %acc, %c : tensor<32x32xf32, #blocked1>
      scf.yield %s : tensor<32x32xf32, #blocked1>
    }
    tt.return %r : tensor<32x32xf32, #blocked1>
  }

  // local_alloc and tt.trans move up to their source's definition, out of
  // a loop too.
  // CHECK-LABEL: tt.func @alloc_and_trans
  // CHECK: %[[L:.*]] = tt.load %arg0
  // CHECK-NEXT: tt.trans %[[L]]
  // CHECK-NEXT: ttg.local_alloc %[[L]]
  // CHECK-NEXT: arith.constant
  // CHECK: %[[Y:.*]] = arith.addf %arg1, %arg1
  // CHECK-NEXT: ttg.local_alloc %[[Y]]
  // CHECK-NEXT: scf.for
  // CHECK-NEXT: arith.addf
  tt.func @alloc_and_trans(%p: tensor<32x32x!tt.ptr<f16>, #blocked>, %y: tensor<32x32xf16, #blocked>, %lb: index, %ub: index, %st: index) {
    %l = tt.load %p : tensor<32x32x!tt.ptr<f16>, #blocked>
    %k = arith.constant 1.0 : f32
    %t = tt.trans %l {order = array<i32: 1, 0>} : tensor<32x32xf16, #blocked> -> tensor<32x32xf16, #blocked1>
    %a = ttg.local_alloc %l : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    %yy = arith.addf %y, %y : tensor<32x32xf16, #blocked>
    scf.for %i = %lb to %ub step %st {
      %z = arith.addf %yy, %yy : tensor<32x32xf16, #blocked>
      %b = ttg.local_alloc %yy : (tensor<32x32xf16, #blocked>) -> !ttg.memdesc<32x32xf16, #shared, #smem>
    }
    tt.return
  }
}

// -----

// Allocations of a splat or a constant stay where they are; others move up
// to their source (Triton 3.6's pass does the same to this module).
// CHECK-LABEL: @splat_arg
// CHECK: ttg.async_wait
// CHECK-NEXT: ttg.local_alloc
// CHECK-LABEL: @dense_cst
// CHECK: ttg.async_wait
// CHECK-NEXT: ttg.local_alloc
// CHECK-LABEL: @from_load
// CHECK: tt.load
// CHECK-NEXT: ttg.local_alloc
// CHECK-NEXT: ttg.async_wait
// CHECK-LABEL: @from_addf
// CHECK: arith.addf
// CHECK-NEXT: ttg.local_alloc
// CHECK-NEXT: ttg.async_wait
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @splat_arg(%s: f32) {
    %t = tt.splat %s : f32 -> tensor<32x32xf32, #blocked>
    ttg.async_wait {num = 0 : i32}
    %alloc = ttg.local_alloc %t : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    tt.return
  }
  tt.func public @dense_cst() {
    %t = arith.constant dense<1.0> : tensor<32x32xf32, #blocked>
    ttg.async_wait {num = 0 : i32}
    %alloc = ttg.local_alloc %t : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    tt.return
  }
  tt.func public @from_load(%p: tensor<32x32x!tt.ptr<f32>, #blocked>) {
    %t = tt.load %p : tensor<32x32x!tt.ptr<f32>, #blocked>
    ttg.async_wait {num = 0 : i32}
    %alloc = ttg.local_alloc %t : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    tt.return
  }
  tt.func public @from_addf(%a: tensor<32x32xf32, #blocked>) {
    %t = arith.addf %a, %a : tensor<32x32xf32, #blocked>
    ttg.async_wait {num = 0 : i32}
    %alloc = ttg.local_alloc %t : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    tt.return
  }
}

// -----

// A shared-memory transpose moves up too (Triton walks every
// TransposeOpInterface op).
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @memdesc_trans_up
  // CHECK: %[[V:.*]] = ttg.memdesc_index
  // CHECK-NEXT: ttg.memdesc_trans %[[V]]
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: ttng.warp_group_dot
  tt.func @memdesc_trans_up(%k: !ttg.memdesc<128x64xf16, #shared, #smem>, %ring: !ttg.memdesc<2x16x64xf16, #shared, #smem, mutable>, %i: i32, %acc: tensor<128x16xf32, #mma>) -> tensor<128x16xf32, #mma> {
    %view = ttg.memdesc_index %ring[%i] : !ttg.memdesc<2x16x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable>
    %scaled = arith.addf %acc, %acc : tensor<128x16xf32, #mma>
    %t = ttg.memdesc_trans %view {order = array<i32: 1, 0>} : !ttg.memdesc<16x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x16xf16, #shared1, #smem, mutable>
    %d = ttng.warp_group_dot %k, %t, %scaled {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x16xf16, #shared1, #smem, mutable> -> tensor<128x16xf32, #mma>
    tt.return %d : tensor<128x16xf32, #mma>
  }
}
