// Triton 3.6's tritongpu-accelerate-matmul on dots beyond the corpus: every
// CHECK line below is what Triton 3.6's own pass printed for the same input
// (scripts/triton-pass.py FILE tritongpu-accelerate-matmul --split, with
// triton==3.6.0 installed); tt-opt must print the same.
// RUN: tt-opt %s --split-input-file --tritongpu-accelerate-matmul | FileCheck %s
// A dot on sm_90 that wgmma does not take gets Triton's remark (only the
// expected ones are checked).
// RUN: tt-opt %s --split-input-file --tritongpu-accelerate-matmul --verify-diagnostics=only-expected > /dev/null

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
// CHECK-DAG: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: @f16_128x128x64_w8_sm90
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared1, #smem>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x128xf32, #blocked2> -> tensor<128x128xf32, #mma>
// CHECK: %{{.*}} = ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_128x128x64_w8_sm90(%pa: tensor<128x64x!tt.ptr<f16>, #A>, %pb: tensor<64x128x!tt.ptr<f16>, #B>) -> tensor<128x128xf32, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #C>
    %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #A>
    %b = tt.load %pb : tensor<64x128x!tt.ptr<f16>, #B>
    %ad = ttg.convert_layout %a : tensor<128x64xf16, #A> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<64x128xf16, #B> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %d = tt.dot %ad, %bd, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<128x128xf32, #C>
    tt.return %d : tensor<128x128xf32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>
// CHECK-DAG: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: @bf16_64x256x32_w4_sm90
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<64x32xbf16, #blocked>) -> !ttg.memdesc<64x32xbf16, #shared, #smem>
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<32x256xbf16, #blocked1>) -> !ttg.memdesc<32x256xbf16, #shared1, #smem>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x256xf32, #blocked2> -> tensor<64x256xf32, #mma>
// CHECK: %{{.*}} = ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<64x32xbf16, #shared, #smem> * !ttg.memdesc<32x256xbf16, #shared1, #smem> -> tensor<64x256xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x256xf32, #mma> -> tensor<64x256xf32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @bf16_64x256x32_w4_sm90(%pa: tensor<64x32x!tt.ptr<bf16>, #A>, %pb: tensor<32x256x!tt.ptr<bf16>, #B>) -> tensor<64x256xf32, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<64x256xf32, #C>
    %a = tt.load %pa : tensor<64x32x!tt.ptr<bf16>, #A>
    %b = tt.load %pb : tensor<32x256x!tt.ptr<bf16>, #B>
    %ad = ttg.convert_layout %a : tensor<64x32xbf16, #A> -> tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<32x256xbf16, #B> -> tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %d = tt.dot %ad, %bd, %c : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<32x256xbf16, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<64x256xf32, #C>
    tt.return %d : tensor<64x256xf32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 16]}>
// CHECK-DAG: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: @f16_256x256x64_w8_sm90
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<256x64xf16, #blocked>) -> !ttg.memdesc<256x64xf16, #shared, #smem>
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<64x256xf16, #blocked1>) -> !ttg.memdesc<64x256xf16, #shared1, #smem>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<256x256xf32, #blocked2> -> tensor<256x256xf32, #mma>
// CHECK: %{{.*}} = ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<256x64xf16, #shared, #smem> * !ttg.memdesc<64x256xf16, #shared1, #smem> -> tensor<256x256xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<256x256xf32, #mma> -> tensor<256x256xf32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_256x256x64_w8_sm90(%pa: tensor<256x64x!tt.ptr<f16>, #A>, %pb: tensor<64x256x!tt.ptr<f16>, #B>) -> tensor<256x256xf32, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<256x256xf32, #C>
    %a = tt.load %pa : tensor<256x64x!tt.ptr<f16>, #A>
    %b = tt.load %pb : tensor<64x256x!tt.ptr<f16>, #B>
    %ad = ttg.convert_layout %a : tensor<256x64xf16, #A> -> tensor<256x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<64x256xf16, #B> -> tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %d = tt.dot %ad, %bd, %c : tensor<256x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<64x256xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<256x256xf32, #C>
    tt.return %d : tensor<256x256xf32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: @f16_16x16x16_w4_sm90_v2
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<16x16xf32, #blocked2> -> tensor<16x16xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<16x16xf32, #mma> -> tensor<16x16xf32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_16x16x16_w4_sm90_v2(%pa: tensor<16x16x!tt.ptr<f16>, #A>, %pb: tensor<16x16x!tt.ptr<f16>, #B>) -> tensor<16x16xf32, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #C>
    %a = tt.load %pa : tensor<16x16x!tt.ptr<f16>, #A>
    %b = tt.load %pb : tensor<16x16x!tt.ptr<f16>, #B>
    %ad = ttg.convert_layout %a : tensor<16x16xf16, #A> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<16x16xf16, #B> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    // expected-remark @+2 {{MMA version 3 acceleration not applied due to unsupported shapes or data types.}}
    // expected-note @+1 {{Target compute capability (90) supports MMA v3.}}
    %d = tt.dot %ad, %bd, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<16x16xf32, #C>
    tt.return %d : tensor<16x16xf32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: @f16_64x64x32_w4_sm80
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_64x64x32_w4_sm80(%pa: tensor<64x32x!tt.ptr<f16>, #A>, %pb: tensor<32x64x!tt.ptr<f16>, #B>) -> tensor<64x64xf32, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #C>
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #A>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #B>
    %ad = ttg.convert_layout %a : tensor<64x32xf16, #A> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<32x64xf16, #B> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %d = tt.dot %ad, %bd, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<64x64xf32, #C>
    tt.return %d : tensor<64x64xf32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
// CHECK-LABEL: @f16_128x128x64_w8_sm80
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x128xf32, #blocked2> -> tensor<128x128xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_128x128x64_w8_sm80(%pa: tensor<128x64x!tt.ptr<f16>, #A>, %pb: tensor<64x128x!tt.ptr<f16>, #B>) -> tensor<128x128xf32, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #C>
    %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #A>
    %b = tt.load %pb : tensor<64x128x!tt.ptr<f16>, #B>
    %ad = ttg.convert_layout %a : tensor<128x64xf16, #A> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<64x128xf16, #B> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %d = tt.dot %ad, %bd, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<128x128xf32, #C>
    tt.return %d : tensor<128x128xf32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
// CHECK-DAG: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
// CHECK-LABEL: @tf32_128x64x32_w4_sm90
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<128x32xf32, #blocked>) -> !ttg.memdesc<128x32xf32, #shared, #smem>
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<32x64xf32, #blocked1>) -> !ttg.memdesc<32x64xf32, #shared1, #smem>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf32, #blocked2> -> tensor<128x64xf32, #mma>
// CHECK: %{{.*}} = ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = 0 : i32} : !ttg.memdesc<128x32xf32, #shared, #smem> * !ttg.memdesc<32x64xf32, #shared1, #smem> -> tensor<128x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tf32_128x64x32_w4_sm90(%pa: tensor<128x32x!tt.ptr<f32>, #A>, %pb: tensor<32x64x!tt.ptr<f32>, #B>) -> tensor<128x64xf32, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #C>
    %a = tt.load %pa : tensor<128x32x!tt.ptr<f32>, #A>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f32>, #B>
    %ad = ttg.convert_layout %a : tensor<128x32xf32, #A> -> tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<32x64xf32, #B> -> tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %d = tt.dot %ad, %bd, %c, inputPrecision = tf32 : tensor<128x32xf32, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<128x64xf32, #C>
    tt.return %d : tensor<128x64xf32, #C>
  }
}

// -----

// CHECK-LABEL: @ieee_f32_64x64x32_w4_sm90_fma
// CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<64x64xf32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @ieee_f32_64x64x32_w4_sm90_fma(%pa: tensor<64x32x!tt.ptr<f32>, #A>, %pb: tensor<32x64x!tt.ptr<f32>, #B>) -> tensor<64x64xf32, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #C>
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f32>, #A>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f32>, #B>
    %ad = ttg.convert_layout %a : tensor<64x32xf32, #A> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<32x64xf32, #B> -> tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    // expected-remark @+1 {{MMA version 3 acceleration not applied due to unsupported shapes or data types.}}
    %d = tt.dot %ad, %bd, %c : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<64x64xf32, #C>
    tt.return %d : tensor<64x64xf32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 32]}>
// CHECK-DAG: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: @i8_128x128x64_w4_sm90
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<128x64xi8, #blocked>) -> !ttg.memdesc<128x64xi8, #shared, #smem>
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<64x128xi8, #blocked1>) -> !ttg.memdesc<64x128xi8, #shared1, #smem>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x128xi32, #blocked2> -> tensor<128x128xi32, #mma>
// CHECK: %{{.*}} = ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<128x64xi8, #shared, #smem> * !ttg.memdesc<64x128xi8, #shared1, #smem> -> tensor<128x128xi32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x128xi32, #mma> -> tensor<128x128xi32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @i8_128x128x64_w4_sm90(%pa: tensor<128x64x!tt.ptr<i8>, #A>, %pb: tensor<64x128x!tt.ptr<i8>, #B>) -> tensor<128x128xi32, #C> {
    %c = arith.constant dense<0> : tensor<128x128xi32, #C>
    %a = tt.load %pa : tensor<128x64x!tt.ptr<i8>, #A>
    %b = tt.load %pb : tensor<64x128x!tt.ptr<i8>, #B>
    %ad = ttg.convert_layout %a : tensor<128x64xi8, #A> -> tensor<128x64xi8, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<64x128xi8, #B> -> tensor<64x128xi8, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %d = tt.dot %ad, %bd, %c : tensor<128x64xi8, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<64x128xi8, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<128x128xi32, #C>
    tt.return %d : tensor<128x128xi32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: @i8_64x64x64_w4_sm80
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x64xi32, #blocked2> -> tensor<64x64xi32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xi32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x64xi32, #mma> -> tensor<64x64xi32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @i8_64x64x64_w4_sm80(%pa: tensor<64x64x!tt.ptr<i8>, #A>, %pb: tensor<64x64x!tt.ptr<i8>, #B>) -> tensor<64x64xi32, #C> {
    %c = arith.constant dense<0> : tensor<64x64xi32, #C>
    %a = tt.load %pa : tensor<64x64x!tt.ptr<i8>, #A>
    %b = tt.load %pb : tensor<64x64x!tt.ptr<i8>, #B>
    %ad = ttg.convert_layout %a : tensor<64x64xi8, #A> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<64x64xi8, #B> -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %d = tt.dot %ad, %bd, %c : tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<64x64xi32, #C>
    tt.return %d : tensor<64x64xi32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 32]}>
// CHECK-DAG: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK-LABEL: @e4m3_128x128x64_w8_sm90_acc32
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<128x64xf8E4M3FN, #blocked>) -> !ttg.memdesc<128x64xf8E4M3FN, #shared, #smem>
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<64x128xf8E4M3FN, #blocked1>) -> !ttg.memdesc<64x128xf8E4M3FN, #shared1, #smem>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x128xf32, #blocked2> -> tensor<128x128xf32, #mma>
// CHECK: %{{.*}} = ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {maxNumImpreciseAcc = 32 : i32} : !ttg.memdesc<128x64xf8E4M3FN, #shared, #smem> * !ttg.memdesc<64x128xf8E4M3FN, #shared1, #smem> -> tensor<128x128xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @e4m3_128x128x64_w8_sm90_acc32(%pa: tensor<128x64x!tt.ptr<f8E4M3FN>, #A>, %pb: tensor<64x128x!tt.ptr<f8E4M3FN>, #B>) -> tensor<128x128xf32, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #C>
    %a = tt.load %pa : tensor<128x64x!tt.ptr<f8E4M3FN>, #A>
    %b = tt.load %pb : tensor<64x128x!tt.ptr<f8E4M3FN>, #B>
    %ad = ttg.convert_layout %a : tensor<128x64xf8E4M3FN, #A> -> tensor<128x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<64x128xf8E4M3FN, #B> -> tensor<64x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %d = tt.dot %ad, %bd, %c {maxNumImpreciseAcc = 32 : i32} : tensor<128x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<64x128xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<128x128xf32, #C>
    tt.return %d : tensor<128x128xf32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: @e5m2_128x64x64_w4_sm90_acc0
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf32, #blocked2> -> tensor<128x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> -> tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: %{{.*}} = tt.fp_to_fp %{{.*}} : tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %{{.*}} = tt.fp_to_fp %{{.*}} : tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<128x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @e5m2_128x64x64_w4_sm90_acc0(%pa: tensor<128x64x!tt.ptr<f8E5M2>, #A>, %pb: tensor<64x64x!tt.ptr<f8E5M2>, #B>) -> tensor<128x64xf32, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #C>
    %a = tt.load %pa : tensor<128x64x!tt.ptr<f8E5M2>, #A>
    %b = tt.load %pb : tensor<64x64x!tt.ptr<f8E5M2>, #B>
    %ad = ttg.convert_layout %a : tensor<128x64xf8E5M2, #A> -> tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<64x64xf8E5M2, #B> -> tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %d = tt.dot %ad, %bd, %c : tensor<128x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<128x64xf32, #C>
    tt.return %d : tensor<128x64xf32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: @e4m3_64x64x32_w4_sm80
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x64xf32, #blocked2> -> tensor<64x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> -> tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: %{{.*}} = tt.fp_to_fp %{{.*}} : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
// CHECK: %{{.*}} = tt.fp_to_fp %{{.*}} : tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
// CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<64x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @e4m3_64x64x32_w4_sm80(%pa: tensor<64x32x!tt.ptr<f8E4M3FN>, #A>, %pb: tensor<32x64x!tt.ptr<f8E4M3FN>, #B>) -> tensor<64x64xf32, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #C>
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f8E4M3FN>, #A>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f8E4M3FN>, #B>
    %ad = ttg.convert_layout %a : tensor<64x32xf8E4M3FN, #A> -> tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<32x64xf8E4M3FN, #B> -> tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %d = tt.dot %ad, %bd, %c : tensor<64x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<32x64xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<64x64xf32, #C>
    tt.return %d : tensor<64x64xf32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK-DAG: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: @f16_f16acc_64x128x32_w4_sm90
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<32x128xf16, #blocked1>) -> !ttg.memdesc<32x128xf16, #shared1, #smem>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x128xf16, #blocked2> -> tensor<64x128xf16, #mma>
// CHECK: %{{.*}} = ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x128xf16, #shared1, #smem> -> tensor<64x128xf16, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x128xf16, #mma> -> tensor<64x128xf16, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_f16acc_64x128x32_w4_sm90(%pa: tensor<64x32x!tt.ptr<f16>, #A>, %pb: tensor<32x128x!tt.ptr<f16>, #B>) -> tensor<64x128xf16, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<64x128xf16, #C>
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #A>
    %b = tt.load %pb : tensor<32x128x!tt.ptr<f16>, #B>
    %ad = ttg.convert_layout %a : tensor<64x32xf16, #A> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<32x128xf16, #B> -> tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %d = tt.dot %ad, %bd, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<64x128xf16, #C>
    tt.return %d : tensor<64x128xf16, #C>
  }
}

// -----

// CHECK-LABEL: @f16_fma_sm75
// CHECK: %{{.*}} = arith.extf %{{.*}} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> to tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
// CHECK: %{{.*}} = arith.extf %{{.*}} : tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> to tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>>
// CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> * tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked2}>> -> tensor<64x64xf32, #blocked2>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#B = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f16_fma_sm75(%pa: tensor<64x32x!tt.ptr<f16>, #A>, %pb: tensor<32x64x!tt.ptr<f16>, #B>) -> tensor<64x64xf32, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #C>
    %a = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #A>
    %b = tt.load %pb : tensor<32x64x!tt.ptr<f16>, #B>
    %ad = ttg.convert_layout %a : tensor<64x32xf16, #A> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %bd = ttg.convert_layout %b : tensor<32x64xf16, #B> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %d = tt.dot %ad, %bd, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<64x64xf32, #C>
    tt.return %d : tensor<64x64xf32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK-DAG: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: @transposed_b
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<64x128xf16, #blocked2>) -> !ttg.memdesc<64x128xf16, #shared1, #smem>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x128xf32, #blocked1> -> tensor<128x128xf32, #mma>
// CHECK: %{{.*}} = ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked1>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#AT = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @transposed_b(%pa: tensor<128x64x!tt.ptr<f16>, #A>, %pbt: tensor<128x64x!tt.ptr<f16>, #A>) -> tensor<128x128xf32, #C> {
    %c = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #C>
    %a = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #A>
    %bt = tt.load %pbt : tensor<128x64x!tt.ptr<f16>, #A>
    %t = tt.trans %bt {order = array<i32: 1, 0>} : tensor<128x64xf16, #A> -> tensor<64x128xf16, #AT>
    %b = ttg.convert_layout %t : tensor<64x128xf16, #AT> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>>
    %ad = ttg.convert_layout %a : tensor<128x64xf16, #A> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %d = tt.dot %ad, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<128x128xf32, #C>
    tt.return %d : tensor<128x128xf32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1, 1], instrShape = [1, 16, 8]}>
// CHECK-LABEL: @batched
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<4x64x64xf32, #blocked1> -> tensor<4x64x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<4x64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<4x64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<4x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<4x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<4x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<4x64x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<4x64x64xf32, #mma> -> tensor<4x64x64xf32, #blocked1>
#A3 = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#C3 = #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 1, 32], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @batched(%pa: tensor<4x64x32x!tt.ptr<f16>, #A3>, %pb: tensor<4x32x64x!tt.ptr<f16>, #A3>) -> tensor<4x64x64xf32, #C3> {
    %c = arith.constant dense<0.000000e+00> : tensor<4x64x64xf32, #C3>
    %a = tt.load %pa : tensor<4x64x32x!tt.ptr<f16>, #A3>
    %b = tt.load %pb : tensor<4x32x64x!tt.ptr<f16>, #A3>
    %ad = ttg.convert_layout %a : tensor<4x64x32xf16, #A3> -> tensor<4x64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #C3}>>
    %bd = ttg.convert_layout %b : tensor<4x32x64xf16, #A3> -> tensor<4x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C3}>>
    %d = tt.dot %ad, %bd, %c : tensor<4x64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #C3}>> * tensor<4x32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C3}>> -> tensor<4x64x64xf32, #C3>
    tt.return %d : tensor<4x64x64xf32, #C3>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
// CHECK-DAG: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: @attention_loop
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf32, #blocked1> -> tensor<128x64xf32, #mma>
// CHECK: %{{.*}} = ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked1>
// CHECK: %{{.*}} = ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf32, #blocked1> -> tensor<128x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %{{.*}} = ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked1>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @attention_loop(%pq: tensor<128x64x!tt.ptr<f16>, #A>, %pk: tensor<64x64x!tt.ptr<f16>, #A>, %pv: tensor<64x64x!tt.ptr<f16>, #A>, %n: i32) -> tensor<128x64xf32, #C> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zs = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #C>
    %q = tt.load %pq : tensor<128x64x!tt.ptr<f16>, #A>
    %qd = ttg.convert_layout %q : tensor<128x64xf16, #A> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zs) -> (tensor<128x64xf32, #C>) : i32 {
      %k = tt.load %pk : tensor<64x64x!tt.ptr<f16>, #A>
      %kd = ttg.convert_layout %k : tensor<64x64xf16, #A> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>>
      %s = tt.dot %qd, %kd, %zs : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<128x64xf32, #C>
      %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
      ^bb0(%x: f32, %y: f32):
        %mx = arith.maxnumf %x, %y : f32
        tt.reduce.return %mx : f32
      }) : (tensor<128x64xf32, #C>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #C}>>
      %me = tt.expand_dims %m {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #C}>> -> tensor<128x1xf32, #C>
      %mb = tt.broadcast %me : tensor<128x1xf32, #C> -> tensor<128x64xf32, #C>
      %sub = arith.subf %s, %mb : tensor<128x64xf32, #C>
      %p = math.exp2 %sub : tensor<128x64xf32, #C>
      %ph = arith.truncf %p : tensor<128x64xf32, #C> to tensor<128x64xf16, #C>
      %pd = ttg.convert_layout %ph : tensor<128x64xf16, #C> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>>
      %v = tt.load %pv : tensor<64x64x!tt.ptr<f16>, #A>
      %vd = ttg.convert_layout %v : tensor<64x64xf16, #A> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>>
      %o = tt.dot %pd, %vd, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<128x64xf32, #C>
      scf.yield %o : tensor<128x64xf32, #C>
    }
    tt.return %r : tensor<128x64xf32, #C>
  }
}

// -----

// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 8]}>
// CHECK-LABEL: @attention_loop_sm80
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf32, #blocked1> -> tensor<128x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked1>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf32, #blocked1> -> tensor<128x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked1}>> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: %{{.*}} = tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x64xf32, #mma>
// CHECK: %{{.*}} = ttg.convert_layout %{{.*}} : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked1>
#A = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#C = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @attention_loop_sm80(%pq: tensor<128x64x!tt.ptr<f16>, #A>, %pk: tensor<64x64x!tt.ptr<f16>, #A>, %pv: tensor<64x64x!tt.ptr<f16>, #A>, %n: i32) -> tensor<128x64xf32, #C> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zs = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #C>
    %q = tt.load %pq : tensor<128x64x!tt.ptr<f16>, #A>
    %qd = ttg.convert_layout %q : tensor<128x64xf16, #A> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zs) -> (tensor<128x64xf32, #C>) : i32 {
      %k = tt.load %pk : tensor<64x64x!tt.ptr<f16>, #A>
      %kd = ttg.convert_layout %k : tensor<64x64xf16, #A> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>>
      %s = tt.dot %qd, %kd, %zs : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<128x64xf32, #C>
      %ph = arith.truncf %s : tensor<128x64xf32, #C> to tensor<128x64xf16, #C>
      %pd = ttg.convert_layout %ph : tensor<128x64xf16, #C> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>>
      %v = tt.load %pv : tensor<64x64x!tt.ptr<f16>, #A>
      %vd = ttg.convert_layout %v : tensor<64x64xf16, #A> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>>
      %o = tt.dot %pd, %vd, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #C}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #C}>> -> tensor<128x64xf32, #C>
      scf.yield %o : tensor<128x64xf32, #C>
    }
    tt.return %r : tensor<128x64xf32, #C>
  }
}


// -----

// tt.dot_scaled before sm_100 (Triton's DecomposeScaledBlocked): the fp4
// operand unpacks to bf16 with ttg.fp4_to_fp, its e8m0 scale becomes a
// bf16 power of two (the byte shifted into the exponent), broadcast over
// the 32 values it scales (expand, broadcast, reshape), multiplies it, and
// gives NaN where it is 0xFF; the tt.dot it becomes takes a warp-group MMA.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @dot_scaled
  // CHECK-DAG: %[[NAN:.*]] = arith.constant dense<0x7FC0> : tensor<128x64xbf16
  // CHECK-DAG: %[[FF:.*]] = arith.constant dense<-1> : tensor<128x2xi8
  // CHECK-DAG: %[[SEVEN:.*]] = arith.constant dense<7> : tensor<128x2xi16
  // CHECK: %[[UP:.*]] = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<128x32xi8, #{{.*}}> -> tensor<128x64xbf16
  // CHECK: %[[WIDE:.*]] = arith.extui %arg1 : tensor<128x2xi8, #{{.*}}> to tensor<128x2xi16
  // CHECK: %[[SHIFTED:.*]] = arith.shli %[[WIDE]], %[[SEVEN]]
  // CHECK: %[[POW:.*]] = tt.bitcast %[[SHIFTED]] : tensor<128x2xi16, #{{.*}}> -> tensor<128x2xbf16
  // CHECK: tt.expand_dims %{{.*}} {axis = 2 : i32} : tensor<128x2xbf16, #ttg.slice<{dim = 2, parent = #{{.*}}}>> -> tensor<128x2x1xbf16
  // CHECK: tt.broadcast %{{.*}} -> tensor<128x2x32xbf16
  // CHECK: tt.reshape %{{.*}} -> tensor<128x64xbf16
  // CHECK: %[[SCALED:.*]] = arith.mulf %[[UP]], %{{.*}} : tensor<128x64xbf16
  // CHECK: arith.cmpi eq, %arg1, %[[FF]] : tensor<128x2xi8
  // CHECK: %[[A:.*]] = arith.select %{{.*}}, %[[NAN]], %[[SCALED]]
  // CHECK: ttng.warp_group_dot
  // CHECK-NOT: tt.dot_scaled
  tt.func @dot_scaled(%a: tensor<128x32xi8, #blocked2>, %scale: tensor<128x2xi8, #blocked1>, %b: tensor<64x128xbf16, #blocked>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %result = tt.dot_scaled %a scale %scale, %b, %cst lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<128x32xi8, #blocked2>, tensor<128x2xi8, #blocked1> * tensor<64x128xbf16, #blocked> -> tensor<128x128xf32, #blocked>
    tt.return %result : tensor<128x128xf32, #blocked>
  }

  // With fastMath no NaN select; fp8 B upcasts with tt.fp_to_fp.
  // CHECK-LABEL: tt.func @dot_scaled_fp8
  // CHECK: ttg.fp4_to_fp
  // CHECK-NOT: arith.select
  // CHECK: tt.fp_to_fp %arg2 : tensor<64x128xf8E4M3FN, #{{.*}}> -> tensor<64x128xbf16
  // CHECK: ttng.warp_group_dot
  tt.func @dot_scaled_fp8(%a: tensor<128x32xi8, #blocked2>, %scale: tensor<128x2xi8, #blocked1>, %b_fp8: tensor<64x128xf8E4M3FN, #blocked>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %result = tt.dot_scaled %a scale %scale, %b_fp8, %cst lhs = e2m1 rhs = e4m3 {fastMath = true} : tensor<128x32xi8, #blocked2>, tensor<128x2xi8, #blocked1> * tensor<64x128xf8E4M3FN, #blocked> -> tensor<128x128xf32, #blocked>
    tt.return %result : tensor<128x128xf32, #blocked>
  }

  // Only B scaled: the dot of the transposed operands, swapped, is
  // transposed back (Triton's transposeDots), so the scaled side is A; an
  // f16 operand makes f16 the compute type (scale through f32, truncated).
  // CHECK-LABEL: tt.func @rhs_scaled
  // CHECK-DAG: tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<128x64xf16
  // CHECK-DAG: %[[BT:.*]] = tt.trans %arg1 {order = array<i32: 1, 0>} : tensor<32x128xi8
  // CHECK: ttg.fp4_to_fp %[[BT]] {axis = 1 : i32} : tensor<128x32xi8, #{{.*}}> -> tensor<128x64xf16
  // CHECK: arith.extui %{{.*}} to tensor<128x2xi32
  // CHECK: tt.bitcast %{{.*}} -> tensor<128x2xf32
  // CHECK: arith.truncf %{{.*}} to tensor<128x2xf16
  // CHECK: ttng.warp_group_dot
  // CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<128x128xf32
  tt.func @rhs_scaled(%a: tensor<128x64xf16, #blocked>, %b: tensor<32x128xi8, #blocked2>, %scale: tensor<128x2xi8, #blocked1>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %result = tt.dot_scaled %a, %b scale %scale, %cst lhs = fp16 rhs = e2m1 {fastMath = true} : tensor<128x64xf16, #blocked> * tensor<32x128xi8, #blocked2>, tensor<128x2xi8, #blocked1> -> tensor<128x128xf32, #blocked>
    tt.return %result : tensor<128x128xf32, #blocked>
  }
}

// -----

// An fp4 B unpacked along K, its rows (dimension 0 of a row-major blocked
// operand, not its fastest): sizePerThread doubles along the rows, as the
// 3.6.0 wheel infers it (test_tensor_descriptor.py's mxfp8 x mxfp4 kernel).
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[ROWS2:.*]] = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
  // CHECK-LABEL: tt.func @rhs_fp4_along_rows
  // CHECK: ttg.fp4_to_fp %arg2 {axis = 0 : i32} : tensor<64x128xi8, #blocked> -> tensor<128x128xbf16, #[[ROWS2]]>
  // CHECK: ttng.warp_group_dot
  tt.func @rhs_fp4_along_rows(%a: tensor<128x128xf8E5M2, #blocked>, %sa: tensor<128x4xi8, #blocked1>, %b: tensor<64x128xi8, #blocked>, %sb: tensor<128x4xi8, #blocked1>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %result = tt.dot_scaled %a scale %sa, %b scale %sb, %cst lhs = e5m2 rhs = e2m1 {fastMath = false} : tensor<128x128xf8E5M2, #blocked>, tensor<128x4xi8, #blocked1> * tensor<64x128xi8, #blocked>, tensor<128x4xi8, #blocked1> -> tensor<128x128xf32, #blocked>
    tt.return %result : tensor<128x128xf32, #blocked>
  }
}

// -----

// The unscaled operand of a decomposed tt.dot_scaled is stored as the
// scaled dot had it (in its blocked layout, not from before the conversion
// that made it, as a plain tt.dot's would be), where the scaled dot was:
// Triton 3.6's output.
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: #[[SH:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
  // CHECK-LABEL: tt.func @dot_scaled_col_b
  // CHECK: %[[B:.*]] = ttg.convert_layout %arg2
  // CHECK: %[[ALLOC:.*]] = ttg.local_alloc %[[B]] : (tensor<128x128xf16, #{{.*}}>) -> !ttg.memdesc<128x128xf16, #[[SH]], #smem>
  // CHECK-NEXT: ttg.convert_layout %{{.*}} : tensor<128x128xf32, #{{.*}}> -> tensor<128x128xf32, #mma>
  // CHECK-NEXT: ttg.convert_layout
  // CHECK-NEXT: ttng.warp_group_dot %{{.*}}, %[[ALLOC]]
  // CHECK-NOT: triton_rs.from_scaled_dot
  tt.func @dot_scaled_col_b(%a: tensor<128x128xf8E4M3FN, #blocked>, %scale: tensor<128x4xi8, #blocked1>, %b_col: tensor<128x128xf16, #col>) -> tensor<128x128xf32, #blocked> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %b = ttg.convert_layout %b_col : tensor<128x128xf16, #col> -> tensor<128x128xf16, #blocked>
    %r = tt.dot_scaled %a scale %scale, %b, %cst lhs = e4m3 rhs = fp16 {fastMath = false} : tensor<128x128xf8E4M3FN, #blocked>, tensor<128x4xi8, #blocked1> * tensor<128x128xf16, #blocked> -> tensor<128x128xf32, #blocked>
    tt.return %r : tensor<128x128xf32, #blocked>
  }
}
