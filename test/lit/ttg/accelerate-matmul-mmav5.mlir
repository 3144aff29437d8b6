// tritongpu-accelerate-matmul on Blackwell: tcgen05 MMAs (MMA v5) with the
// accumulator and scales in tensor memory, two-CTA MMAs, and sm_120's scaled
// mma.sync dots.
// RUN: tt-opt %s --split-input-file --tritongpu-accelerate-matmul | FileCheck %s
// RUN: env TRITON_PREFER_TMEM_16x256_LAYOUT=1 tt-opt %s --split-input-file --tritongpu-accelerate-matmul | FileCheck %s --check-prefix=LAYOUT16

// mma_v5: both operands to shared memory, the accumulator to tensor memory
// through the register layout of its 32x32b access (16x256b when preferred).
// CHECK{LITERAL}: #linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
// CHECK: #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// LAYOUT16{LITERAL}: #linear = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64], [16, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[32, 0], [64, 0]], block = []}>
// CHECK-LABEL: tt.func @mma_v5
// CHECK: %[[TRUE:.+]] = arith.constant true
// CHECK: %[[B:.+]] = ttg.local_alloc %arg1 : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
// CHECK: %[[A:.+]] = ttg.local_alloc %arg0 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
// CHECK: %[[C:.+]] = ttg.convert_layout %arg2 : tensor<128x128xf32, #blocked> -> tensor<128x128xf32, #linear>
// CHECK: %[[ACC:.+]], %[[TOK:.+]] = ttng.tmem_alloc %[[C]] : (tensor<128x128xf32, #linear>) -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
// CHECK: %[[MMA:.+]] = ttng.tc_gen5_mma %[[A]], %[[B]], %[[ACC]][%[[TOK]]], %[[TRUE]], %[[TRUE]] :
// CHECK: %[[R:.+]], %{{.+}} = ttng.tmem_load %[[ACC]][%[[MMA]]] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #linear>
// CHECK: %[[OUT:.+]] = ttg.convert_layout %[[R]] : tensor<128x128xf32, #linear> -> tensor<128x128xf32, #blocked>
// CHECK: tt.return %[[OUT]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_v5(%a: tensor<128x64xf16, #blocked>, %b: tensor<64x128xf16, #blocked>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %ad = ttg.convert_layout %a : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %bd = ttg.convert_layout %b : tensor<64x128xf16, #blocked> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %ad, %bd, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}


// -----

// f32 operands at ieee precision: no tcgen05 MMA, no mma.sync either.
// CHECK-LABEL: tt.func @f32_ieee_stays_fma
// CHECK-NOT: ttng.tc_gen5_mma
// CHECK: tt.dot %arg0, %arg1, %arg2 : {{.*}} -> tensor<128x128xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f32_ieee_stays_fma(%a: tensor<128x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x128xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}


// -----

// N = 8 is below tcgen05's 16: mma.sync.
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @narrow_n_falls_back_to_v2
// CHECK: tt.dot {{.*}} -> tensor<128x8xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @narrow_n_falls_back_to_v2(%a: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<64x8xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<128x8xf32, #blocked>) -> tensor<128x8xf32, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x8xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<128x8xf32, #blocked>
    tt.return %d : tensor<128x8xf32, #blocked>
  }
}


// -----

// Two CTAs along M with a loaded B: the load is split along N, the MMA
// runs on both CTAs.
// CHECK-DAG{LITERAL}: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = [[0, 1]]}>
// CHECK-DAG{LITERAL}: #linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = [[128, 0]]}>
// CHECK-DAG{LITERAL}: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
// CHECK-DAG: #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, twoCTAs = true>
// CHECK-LABEL: tt.func @two_ctas
// CHECK: %[[P:.+]] = ttg.convert_layout %arg1 : tensor<64x128x!tt.ptr<f16>, #blocked> -> tensor<64x128x!tt.ptr<f16>, #blocked1>
// CHECK: %[[L:.+]] = tt.load %[[P]] : tensor<64x128x!tt.ptr<f16>, #blocked1>
// CHECK: ttg.local_alloc %[[L]] : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared1, #smem>
// CHECK: ttng.tc_gen5_mma {{.*}} {two_ctas}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = [[1, 0]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_ctas(%a: tensor<256x64xf16, #blocked>, %b_ptr: tensor<64x128x!tt.ptr<f16>, #blocked>, %c: tensor<256x128xf32, #blocked>) -> tensor<256x128xf32, #blocked> {
    %b = tt.load %b_ptr : tensor<64x128x!tt.ptr<f16>, #blocked>
    %ad = ttg.convert_layout %a : tensor<256x64xf16, #blocked> -> tensor<256x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %bd = ttg.convert_layout %b : tensor<64x128xf16, #blocked> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %d = tt.dot %ad, %bd, %c : tensor<256x64xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<256x128xf32, #blocked>
    tt.return %d : tensor<256x128xf32, #blocked>
  }
}


// -----

// A scaled dot of fp8 and fp4: the fp4 operand padded in shared memory,
// the loaded scale staged through shared memory, both scales in tensor
// memory.
// CHECK-DAG{LITERAL}: #linear1 = #ttg.linear<{register = [[0, 1], [32, 0], [64, 0]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0], [0, 0]], block = []}>
// CHECK-DAG: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, fp4Padded = true}>
// CHECK-DAG: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #tmem_scales = #ttng.tensor_memory_scales_encoding<>
// CHECK-LABEL: tt.func @scaled_mixed_fp4
// CHECK: %[[B:.+]] = ttg.local_alloc %arg2 : (tensor<32x128xi8, #blocked2>) -> !ttg.memdesc<32x128xi8, #shared, #smem>
// CHECK: %[[A:.+]] = ttg.local_alloc %arg0
// CHECK: %[[SA:.+]] = tt.load %arg1
// CHECK: %[[SA_SMEM:.+]] = ttg.local_alloc %[[SA]] : (tensor<128x2xi8, #blocked1>) -> !ttg.memdesc<128x2xi8, #shared2, #smem>
// CHECK: %[[SA_REG:.+]] = ttg.local_load %[[SA_SMEM]]
// CHECK: %[[ACC:.+]], %[[TOK:.+]] = ttng.tmem_alloc
// CHECK: %[[SA_CVT:.+]] = ttg.convert_layout %[[SA_REG]] : tensor<128x2xi8, #blocked1> -> tensor<128x2xi8, #linear1>
// CHECK: %[[SB_CVT:.+]] = ttg.convert_layout %arg3 : tensor<128x2xi8, #blocked1> -> tensor<128x2xi8, #linear1>
// CHECK: %[[SA_TMEM:.+]] = ttng.tmem_alloc %[[SA_CVT]] : (tensor<128x2xi8, #linear1>) -> !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory>
// CHECK: %[[SB_TMEM:.+]] = ttng.tmem_alloc %[[SB_CVT]]
// CHECK: %[[MMA:.+]] = ttng.tc_gen5_mma_scaled %[[A]], %[[B]], %[[ACC]][%[[TOK]]], %[[SA_TMEM]], %[[SB_TMEM]], %{{.+}}, %{{.+}} lhs = e4m3 rhs = e2m1
// CHECK: ttng.tmem_load %[[ACC]][%[[MMA]]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scaled_mixed_fp4(%a: tensor<128x64xf8E4M3FN, #blocked>, %sa_ptr: tensor<128x2x!tt.ptr<i8>, #blocked1>, %b: tensor<32x128xi8, #blocked2>, %sb: tensor<128x2xi8, #blocked1>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %sa = tt.load %sa_ptr : tensor<128x2x!tt.ptr<i8>, #blocked1>
    %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e2m1 {fastMath = false} : tensor<128x64xf8E4M3FN, #blocked>, tensor<128x2xi8, #blocked1> * tensor<32x128xi8, #blocked2>, tensor<128x2xi8, #blocked1> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}


// -----

// sm_120: a scaled mma.sync dot with the scales in registers.
// CHECK-DAG{LITERAL}: #linear = #ttg.linear<{register = [[0, 1], [32, 0], [64, 0]], lane = [[8, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp = [[0, 0], [16, 0]], block = []}>
// CHECK-DAG{LITERAL}: #linear1 = #ttg.linear<{register = [[0, 1], [16, 0], [32, 0], [64, 0]], lane = [[0, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [0, 0]], block = []}>
// CHECK-DAG: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @sm120_scaled
// CHECK: tt.dot_scaled {{.*}} lhs = e4m3 rhs = e5m2 {fastMath = false} : tensor<128x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, tensor<128x2xi8, #linear> * tensor<64x128xi8, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>, tensor<128x2xi8, #linear1> -> tensor<128x128xf32, #mma>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked_k = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:120", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sm120_scaled(%a: tensor<128x64xi8, #blocked_k>, %sa: tensor<128x2xi8, #blocked>, %b: tensor<64x128xi8, #blocked>, %sb: tensor<128x2xi8, #blocked>, %c: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e5m2 {fastMath = false} : tensor<128x64xi8, #blocked_k>, tensor<128x2xi8, #blocked> * tensor<64x128xi8, #blocked>, tensor<128x2xi8, #blocked> -> tensor<128x128xf32, #blocked>
    tt.return %d : tensor<128x128xf32, #blocked>
  }
}
