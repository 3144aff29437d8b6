// tritongpu-reduce-data-duplication: blocked -> dot_op conversions that need
// shared memory go through ttg.local_alloc + ttg.local_load with a swizzled
// shared encoding; conversions to other layouts, and dot-operand conversions
// that only reorder registers, stay as they are.
// RUN: tt-opt %s --split-input-file --tritongpu-reduce-data-duplication | FileCheck %s

// CHECK-DAG: #[[SH:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[SH4:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 4, maxPhase = 2, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @apply_swizzle
  // CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<16x256xf16, #blocked>) -> !ttg.memdesc<16x256xf16, #[[SH]], #smem>
  // CHECK-NEXT: %[[L:.*]] = ttg.local_load %[[A]] : !ttg.memdesc<16x256xf16, #[[SH]], #smem> -> tensor<16x256xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  // CHECK-NOT: ttg.convert_layout
  // CHECK: tt.return %[[L]]
  tt.func @apply_swizzle(%arg0: tensor<16x256xf16, #blocked>) -> tensor<16x256xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> {
    %0 = ttg.convert_layout %arg0 : tensor<16x256xf16, #blocked> -> tensor<16x256xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return %0 : tensor<16x256xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  }

  // A small K packs rows: perPhase 4, maxPhase 2.
  // CHECK-LABEL: tt.func @small_k
  // CHECK: ttg.local_alloc %arg0 : (tensor<16x16xf16, #blocked1>) -> !ttg.memdesc<16x16xf16, #[[SH4]], #smem>
  // CHECK-NEXT: ttg.local_load
  tt.func @small_k(%arg0: tensor<16x16xf16, #blocked1>) -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>> {
    %0 = ttg.convert_layout %arg0 : tensor<16x16xf16, #blocked1> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>>
    tt.return %0 : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>>
  }

  // Not to a dot operand: left alone.
  // CHECK-LABEL: tt.func @not_dot_operand
  // CHECK-NOT: ttg.local_alloc
  // CHECK: ttg.convert_layout %arg0 : tensor<16x256xf16, #blocked> -> tensor<16x256xf16, #blocked1>
  tt.func @not_dot_operand(%arg0: tensor<16x256xf16, #blocked>) -> tensor<16x256xf16, #blocked1> {
    %0 = ttg.convert_layout %arg0 : tensor<16x256xf16, #blocked> -> tensor<16x256xf16, #blocked1>
    tt.return %0 : tensor<16x256xf16, #blocked1>
  }

  // The mma accumulator to the A operand of the same mma only reorders
  // registers: left alone.
  // CHECK-LABEL: tt.func @mma_to_dot_shortcut
  // CHECK-NOT: ttg.local_alloc
  // CHECK: ttg.convert_layout %arg0 : tensor<64x16xf16, #mma1> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>>
  tt.func @mma_to_dot_shortcut(%arg0: tensor<64x16xf16, #mma1>) -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>> {
    %0 = ttg.convert_layout %arg0 : tensor<64x16xf16, #mma1> -> tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>>
    tt.return %0 : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>>
  }
}

// -----

// A dot operand of a blocked parent (FMA): vec = perPhase = maxPhase = 1.
// CHECK: #[[SHB:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @blocked_parent
  // CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<32x32xf32, #blocked>) -> !ttg.memdesc<32x32xf32, #[[SHB]], #smem>
  // CHECK-NEXT: ttg.local_load %[[A]] : !ttg.memdesc<32x32xf32, #[[SHB]], #smem> -> tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
  tt.func @blocked_parent(%arg0: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> {
    %0 = ttg.convert_layout %arg0 : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
    tt.return %0 : tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>>
  }
}

// -----

// A 128 KiB operand goes through shared memory too: Triton 3.6 has no size
// limit here (checked against its pass).
// CHECK-DAG: #[[BIG:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: @big
// CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<256x256xf16, #{{.*}}>) -> !ttg.memdesc<256x256xf16, #[[BIG]], #smem>
// CHECK-NEXT: ttg.local_load %[[A]]
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @big(%x: tensor<256x256xf16, #b>) -> tensor<256x256xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> {
    %y = ttg.convert_layout %x : tensor<256x256xf16, #b> -> tensor<256x256xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return %y : tensor<256x256xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  }
}

// -----

// Each thread already holds whole rows of K, laid out as the blocked parent
// along M: the conversion moves no data and stays (isBlockedToDotShortcut).
// CHECK-LABEL: @fma_operand_in_place
// CHECK-NOT: ttg.local_alloc
// CHECK: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [16, 2], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fma_operand_in_place(%x: tensor<64x32xf32, #blocked>) -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> {
    %y = ttg.convert_layout %x : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    tt.return %y : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
  }
}
