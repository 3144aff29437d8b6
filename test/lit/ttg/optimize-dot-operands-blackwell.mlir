// Blackwell rewrites of tritongpu-optimize-dot-operands: scales of
// tcgen05 scaled MMAs read from shared memory through views, NVMMA
// reshapes folded into memdesc_reshape, and two-CTA transposes.
// RUN: tt-opt %s -split-input-file -tritongpu-optimize-dot-operands | FileCheck %s

#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#b5 = #ttg.blocked<{sizePerThread = [1, 1, 1, 2, 4], threadsPerWarp = [1, 1, 16, 2, 1], warpsPerCTA = [2, 1, 2, 1, 1], order = [4, 3, 2, 1, 0]}>
#bt = #ttg.blocked<{sizePerThread = [1, 2, 1, 1, 4], threadsPerWarp = [1, 2, 16, 1, 1], warpsPerCTA = [2, 1, 2, 1, 1], order = [4, 1, 2, 3, 0]}>
#b10 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 4], threadsPerWarp = [1, 1, 32, 1, 1], warpsPerCTA = [1, 1, 1, 1, 4], order = [4, 3, 2, 1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
#mma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#scales = #ttng.tensor_memory_scales_encoding<>
// CHECK-DAG: #[[S5:.*]] = #ttg.shared_linear<{offset = {{\[}}[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 1, 0], [0, 0, 0, 2, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0], [1, 0, 0, 0, 0]]}, alignment = 16>
// CHECK-DAG: #[[ST:.*]] = #ttg.shared_linear<{offset = {{\[}}[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 1, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0], [1, 0, 0, 0, 0]]}, alignment = 16>
// CHECK-DAG: #[[S2:.*]] = #ttg.shared_linear<{offset = {{\[}}[0, 1], [0, 2], [32, 0], [64, 0], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [128, 0]]}, alignment = 16>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @scales_in_shmem
  // CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x512xi8
  // CHECK: %[[R5:.*]] = ttg.memdesc_reshape %[[BUF]] : {{.*}} -> !ttg.memdesc<2x1x32x4x4xi8, #[[S5]], #smem, mutable>
  // CHECK: %[[TR:.*]] = ttg.memdesc_trans %[[R5]] {order = array<i32: 0, 3, 2, 1, 4>} : {{.*}} -> !ttg.memdesc<2x4x32x1x4xi8, #[[ST]], #smem, mutable>
  // CHECK: %[[R2:.*]] = ttg.memdesc_reshape %[[TR]] : {{.*}} -> !ttg.memdesc<256x4xi8, #[[S2]], #smem, mutable>
  // CHECK-NOT: ttng.tmem_alloc
  // CHECK: ttng.tc_gen5_mma_scaled %arg0, %arg1, %arg2, %[[R2]], %{{.*}},
  tt.func public @scales_in_shmem(%a: !ttg.memdesc<128x128xf8E5M2, #mma, #smem>, %b: !ttg.memdesc<128x128xf8E5M2, #mma, #smem>, %acc: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>) {
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x512xi8, #flat, #smem, mutable>
    %l = ttg.local_load %buf : !ttg.memdesc<2x512xi8, #flat, #smem, mutable> -> tensor<2x512xi8, #bl>
    %r = tt.reshape %l : tensor<2x512xi8, #bl> -> tensor<2x1x32x4x4xi8, #b5>
    %t = tt.trans %r {order = array<i32: 0, 3, 2, 1, 4>} : tensor<2x1x32x4x4xi8, #b5> -> tensor<2x4x32x1x4xi8, #bt>
    %c = ttg.convert_layout %t : tensor<2x4x32x1x4xi8, #bt> -> tensor<2x4x32x1x4xi8, #b10>
    %r2 = tt.reshape %c : tensor<2x4x32x1x4xi8, #b10> -> tensor<256x4xi8, #b2>
    %s = ttng.tmem_alloc %r2 : (tensor<256x4xi8, #b2>) -> !ttg.memdesc<256x4xi8, #scales, #ttng.tensor_memory>
    %s2 = ttng.tmem_alloc %r2 : (tensor<256x4xi8, #b2>) -> !ttg.memdesc<256x4xi8, #scales, #ttng.tensor_memory>
    ttng.tc_gen5_mma_scaled %a, %b, %acc, %s, %s2, %true, %true lhs = e5m2 rhs = e5m2 : !ttg.memdesc<128x128xf8E5M2, #mma, #smem>, !ttg.memdesc<128x128xf8E5M2, #mma, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>, !ttg.memdesc<256x4xi8, #scales, #ttng.tensor_memory>, !ttg.memdesc<256x4xi8, #scales, #ttng.tensor_memory>
    tt.return
  }

  // Scales not 512 contiguous bytes innermost stay in tensor memory.
  // CHECK-LABEL: @scales_swizzled
  // CHECK-NOT: ttg.memdesc_reshape
  // CHECK: ttng.tmem_alloc
  tt.func public @scales_swizzled(%a: !ttg.memdesc<128x128xf8E5M2, #mma, #smem>, %b: !ttg.memdesc<128x128xf8E5M2, #mma, #smem>, %acc: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>, %s2: !ttg.memdesc<256x4xi8, #scales, #ttng.tensor_memory>) {
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x512xi8, #swz, #smem, mutable>
    %l = ttg.local_load %buf : !ttg.memdesc<2x512xi8, #swz, #smem, mutable> -> tensor<2x512xi8, #bl>
    %r = tt.reshape %l : tensor<2x512xi8, #bl> -> tensor<2x1x32x4x4xi8, #b5>
    %t = tt.trans %r {order = array<i32: 0, 3, 2, 1, 4>} : tensor<2x1x32x4x4xi8, #b5> -> tensor<2x4x32x1x4xi8, #bt>
    %c = ttg.convert_layout %t : tensor<2x4x32x1x4xi8, #bt> -> tensor<2x4x32x1x4xi8, #b10>
    %r2 = tt.reshape %c : tensor<2x4x32x1x4xi8, #b10> -> tensor<256x4xi8, #b2>
    %s = ttng.tmem_alloc %r2 : (tensor<256x4xi8, #b2>) -> !ttg.memdesc<256x4xi8, #scales, #ttng.tensor_memory>
    ttng.tc_gen5_mma_scaled %a, %b, %acc, %s, %s2, %true, %true lhs = e5m2 rhs = e5m2 : !ttg.memdesc<128x128xf8E5M2, #mma, #smem>, !ttg.memdesc<128x128xf8E5M2, #mma, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>, !ttg.memdesc<256x4xi8, #scales, #ttng.tensor_memory>, !ttg.memdesc<256x4xi8, #scales, #ttng.tensor_memory>
    tt.return
  }
}

// -----

// An NVMMA buffer filled by TMA: the 5-D unswizzled box keeps 512
// contiguous scales, whatever its rank.
#b5 = #ttg.blocked<{sizePerThread = [1, 1, 1, 1, 1], threadsPerWarp = [1, 1, 1, 2, 16], warpsPerCTA = [1, 1, 1, 8, 1], order = [4, 3, 2, 1, 0]}>
#l1 = #ttg.linear<{register = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 0, 4], [0, 0, 0, 0, 8]], lane = [[0, 0, 0, 1, 0], [0, 0, 0, 2, 0], [0, 0, 0, 4, 0], [0, 0, 0, 8, 0], [0, 0, 0, 16, 0]], warp = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 1, 0, 0, 0]], block = []}>
#l2 = #ttg.linear<{register = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 0, 0, 1, 0], [0, 0, 0, 2, 0]], lane = [[0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0]], warp = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [1, 0, 0, 0, 0]], block = []}>
#l3 = #ttg.linear<{register = [[0, 0, 0, 0, 1], [0, 0, 0, 0, 2], [0, 1, 0, 0, 0], [0, 2, 0, 0, 0]], lane = [[0, 0, 1, 0, 0], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [0, 0, 8, 0, 0], [0, 0, 16, 0, 0]], warp = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [1, 0, 0, 0, 0]], block = []}>
#l4 = #ttg.linear<{register = [[0, 1], [0, 2], [32, 0], [64, 0]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0], [0, 0], [128, 0]], block = []}>
#mma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#box = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8, rank = 5}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#scales = #ttng.tensor_memory_scales_encoding<>
// CHECK-DAG: #[[BOX:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8, rank = 5}>
// CHECK-DAG: #[[LIN:.*]] = #ttg.shared_linear<{offset = {{\[}}[0, 1], [0, 2], [32, 0], [64, 0], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [128, 0]]}, alignment = 128>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @tma_scales
  // CHECK: %[[BUF:.*]] = ttg.local_alloc %{{.*}} -> !ttg.memdesc<1x2x1x32x16xi8, #[[BOX]], #smem>
  // CHECK: ttg.memdesc_reshape %[[BUF]]
  // CHECK: ttg.memdesc_trans
  // CHECK: %[[R2:.*]] = ttg.memdesc_reshape {{.*}} -> !ttg.memdesc<256x4xi8, #[[LIN]], #smem>
  // CHECK: ttng.tc_gen5_mma_scaled %arg1, %arg2, %arg3, %arg4, %[[R2]],
  tt.func public @tma_scales(%desc: !tt.tensordesc<tensor<1x2x1x32x16xi8>>, %a: !ttg.memdesc<128x128xf8E4M3FN, #mma, #smem>, %b: !ttg.memdesc<128x128xf8E4M3FN, #mma, #smem>, %acc: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>, %sa: !ttg.memdesc<256x4xi8, #scales, #ttng.tensor_memory>) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %x = tt.descriptor_load %desc[%c0, %c0, %c0, %c0, %c0] : !tt.tensordesc<tensor<1x2x1x32x16xi8>> -> tensor<1x2x1x32x16xi8, #b5>
    %buf = ttg.local_alloc %x : (tensor<1x2x1x32x16xi8, #b5>) -> !ttg.memdesc<1x2x1x32x16xi8, #box, #smem>
    %l = ttg.local_load %buf : !ttg.memdesc<1x2x1x32x16xi8, #box, #smem> -> tensor<1x2x1x32x16xi8, #l1>
    %r = tt.reshape %l : tensor<1x2x1x32x16xi8, #l1> -> tensor<2x1x32x4x4xi8, #l2>
    %t = tt.trans %r {order = array<i32: 0, 3, 2, 1, 4>} : tensor<2x1x32x4x4xi8, #l2> -> tensor<2x4x32x1x4xi8, #l3>
    %r2 = tt.reshape %t : tensor<2x4x32x1x4xi8, #l3> -> tensor<256x4xi8, #l4>
    %s = ttng.tmem_alloc %r2 : (tensor<256x4xi8, #l4>) -> !ttg.memdesc<256x4xi8, #scales, #ttng.tensor_memory>
    ttng.tc_gen5_mma_scaled %a, %b, %acc, %sa, %s, %true, %true lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x128xf8E4M3FN, #mma, #smem>, !ttg.memdesc<128x128xf8E4M3FN, #mma, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>, !ttg.memdesc<256x4xi8, #scales, #ttng.tensor_memory>, !ttg.memdesc<256x4xi8, #scales, #ttng.tensor_memory>
    tt.return
  }
}

// -----

// NVMMA reshapes: kept where the contiguous dimension and the layout
// survive (32 rows of 64 f16 stay 32-row swizzle tiles), not where the
// 256-row TMA boxes split differently.
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
// CHECK-DAG: #[[S:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[S3:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @kept
  // CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<2x256x64xf16>) -> !ttg.memdesc<2x256x64xf16, #[[S3]], #smem>
  // CHECK: %[[R:.*]] = ttg.memdesc_reshape %[[A]] : !ttg.memdesc<2x256x64xf16, #[[S3]], #smem> -> !ttg.memdesc<512x64xf16, #[[S]], #smem>
  // CHECK: tt.return %[[R]]
  tt.func @kept(%x: tensor<2x256x64xf16>) -> !ttg.memdesc<512x64xf16, #s, #smem> {
    %r = tt.reshape %x : tensor<2x256x64xf16> -> tensor<512x64xf16>
    %a = ttg.local_alloc %r : (tensor<512x64xf16>) -> !ttg.memdesc<512x64xf16, #s, #smem>
    tt.return %a : !ttg.memdesc<512x64xf16, #s, #smem>
  }
  // CHECK-LABEL: @split_boxes
  // CHECK: tt.reshape
  // CHECK-NOT: ttg.memdesc_reshape
  tt.func @split_boxes(%x: tensor<2x512x64xf16>) -> !ttg.memdesc<1024x64xf16, #s, #smem> {
    %r = tt.reshape %x : tensor<2x512x64xf16> -> tensor<1024x64xf16>
    %a = ttg.local_alloc %r : (tensor<1024x64xf16>) -> !ttg.memdesc<1024x64xf16, #s, #smem>
    tt.return %a : !ttg.memdesc<1024x64xf16, #s, #smem>
  }
}

// -----

// Two CTAs: the transposed NVMMA buffer swaps its CGA bases.
#b1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = [[1, 0]]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1], CGALayout = [[0, 1]]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0]]}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// CHECK-DAG: #[[T:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16, CGALayout = {{\[\[1, 0\]\]}}}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @two_cta
  // CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : {{.*}} -> !ttg.memdesc<128x64xf8E4M3FN, #[[T]], #smem>
  // CHECK: %[[V:.*]] = ttg.memdesc_trans %[[A]] {order = array<i32: 1, 0>}
  // CHECK: ttng.tc_gen5_mma %arg1, %[[V]]
  tt.func @two_cta(%x: tensor<128x64xf8E4M3FN, #b1>, %a: !ttg.memdesc<256x64xf8E4M3FN, #sa, #smem>, %acc: !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory>) {
    %true = arith.constant true
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<128x64xf8E4M3FN, #b1> -> tensor<64x128xf8E4M3FN, #b2>
    %b = ttg.local_alloc %t : (tensor<64x128xf8E4M3FN, #b2>) -> !ttg.memdesc<64x128xf8E4M3FN, #sb, #smem>
    ttng.tc_gen5_mma %a, %b, %acc, %true, %true : !ttg.memdesc<256x64xf8E4M3FN, #sa, #smem>, !ttg.memdesc<64x128xf8E4M3FN, #sb, #smem>, !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory>
    tt.return
  }
}
