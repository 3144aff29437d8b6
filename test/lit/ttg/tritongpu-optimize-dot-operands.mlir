// tritongpu-optimize-dot-operands as Triton 3.6's: every expectation is
// what Triton's own pass does to the same input (scripts/triton-pass.py).
// RUN: tt-opt %s --split-input-file --tritongpu-optimize-dot-operands | FileCheck %s
// RUN: tt-opt %s --split-input-file --tritongpu-optimize-dot-operands=hoist-layout-conversion=false | FileCheck %s

// A transposed operand of a wgmma is stored untransposed and read through a
// transposed view (FuseTransMMAV3Plus).
// CHECK-DAG: #[[S:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[ST:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: @fuse_trans
// CHECK: %[[Y:.*]] = tt.load %arg1
// CHECK-NOT: tt.trans
// CHECK: %[[A:.*]] = ttg.local_alloc %[[Y]] : (tensor<64x64xf16, #{{.*}}>) -> !ttg.memdesc<64x64xf16, #[[S]], #smem>
// CHECK: %[[T:.*]] = ttg.memdesc_trans %[[A]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #[[S]], #smem> -> !ttg.memdesc<64x64xf16, #[[ST]], #smem>
// CHECK: ttng.warp_group_dot %{{.*}}, %[[T]], %{{.*}}
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#at = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#st = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fuse_trans(%pa: tensor<64x64x!tt.ptr<f16>, #a>, %pb: tensor<64x64x!tt.ptr<f16>, #a>) -> tensor<64x64xf32, #mma> {
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %x = tt.load %pa : tensor<64x64x!tt.ptr<f16>, #a>
    %xs = ttg.local_alloc %x : (tensor<64x64xf16, #a>) -> !ttg.memdesc<64x64xf16, #s, #smem>
    %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #a>
    %yt = tt.trans %y {order = array<i32: 1, 0>} : tensor<64x64xf16, #a> -> tensor<64x64xf16, #at>
    %ys = ttg.local_alloc %yt : (tensor<64x64xf16, #at>) -> !ttg.memdesc<64x64xf16, #st, #smem>
    %d = ttng.warp_group_dot %xs, %ys, %z : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #st, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// Triton 3.6 no longer hoists dot-operand conversions above elementwise
// ops: the conversion stays after the truncation.
// CHECK-LABEL: @hoist
// CHECK: %[[X:.*]] = tt.load
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[X]]
// CHECK-NEXT: ttg.convert_layout %[[T]]
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @hoist(%pa: tensor<64x64x!tt.ptr<f32>, #a>, %pb: tensor<64x64x!tt.ptr<f16>, #a>) -> tensor<64x64xf32, #mma> {
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %x = tt.load %pa : tensor<64x64x!tt.ptr<f32>, #a>
    %xt = arith.truncf %x : tensor<64x64xf32, #a> to tensor<64x64xf16, #a>
    %xa = ttg.convert_layout %xt : tensor<64x64xf16, #a> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #a>
    %yb = ttg.convert_layout %y : tensor<64x64xf16, #a> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %xa, %yb, %z : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// Nor does it move a wgmma's A operand from shared memory to registers.
// CHECK-LABEL: @reg
// CHECK: %[[A:.*]] = ttg.local_alloc %arg0
// CHECK: ttng.warp_group_dot %[[A]]
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reg(%x: tensor<64x64xf16, #mma>, %pb: tensor<64x64x!tt.ptr<f16>, #a>) -> tensor<64x64xf32, #mma> {
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %xs = ttg.local_alloc %x : (tensor<64x64xf16, #mma>) -> !ttg.memdesc<64x64xf16, #s, #smem>
    %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #a>
    %ys = ttg.local_alloc %y : (tensor<64x64xf16, #a>) -> !ttg.memdesc<64x64xf16, #s, #smem>
    %d = ttng.warp_group_dot %xs, %ys, %z : !ttg.memdesc<64x64xf16, #s, #smem> * !ttg.memdesc<64x64xf16, #s, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// A transposed mma v2 operand is stored untransposed, in the swizzling
// Triton derives for the operand with its K dimension swapped, and loaded
// through a transposed view (SwizzleShmemConvert).
// CHECK-DAG: #[[S:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[ST:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
// CHECK-LABEL: @transposed_mma_v2_operand
// CHECK: %[[Y:.*]] = tt.load %arg1
// CHECK-NEXT: %[[A:.*]] = ttg.local_alloc %[[Y]] : (tensor<64x64xf16, #{{.*}}>) -> !ttg.memdesc<64x64xf16, #[[S]], #smem>
// CHECK-NEXT: %[[T:.*]] = ttg.memdesc_trans %[[A]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #[[S]], #smem> -> !ttg.memdesc<64x64xf16, #[[ST]], #smem>
// CHECK-NEXT: %[[L:.*]] = ttg.local_load %[[T]] : !ttg.memdesc<64x64xf16, #[[ST]], #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: tt.dot %arg0, %[[L]]
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#at = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transposed_mma_v2_operand(%a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %pb: tensor<64x64x!tt.ptr<f16>, #a>) -> tensor<64x64xf32, #mma> {
    %z = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %y = tt.load %pb : tensor<64x64x!tt.ptr<f16>, #a>
    %yt = tt.trans %y {order = array<i32: 1, 0>} : tensor<64x64xf16, #a> -> tensor<64x64xf16, #at>
    %yb = ttg.convert_layout %yt : tensor<64x64xf16, #at> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %yb, %z : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// The 16x32 source of a 32x16 A operand: rows of 32 f16 pack 2 per phase.
// CHECK-DAG: #[[S:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-LABEL: @c20
// CHECK: ttg.local_alloc %arg0 : (tensor<16x32xf16, #{{.*}}>) -> !ttg.memdesc<16x32xf16, #[[S]], #smem>
#s = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @c20(%x: tensor<16x32xf16, #s>, %o: tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) -> tensor<32x32xf32, #mma> {
    %z = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma>
    %xt = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf16, #s> -> tensor<32x16xf16, #t>
    %xd = ttg.convert_layout %xt : tensor<32x16xf16, #t> -> tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %d = tt.dot %xd, %o, %z : tensor<32x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    tt.return %d : tensor<32x32xf32, #mma>
  }
}
