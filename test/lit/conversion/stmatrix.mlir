// Stores into shared memory (ttg.local_store, ttg.local_alloc of a value)
// with stmatrix on sm_90 where the register layout, through the view's
// offsets, has an 8x8 matrix's shape: the row form where a word's elements
// and lane bits 0 and 1 step through 16-byte rows, the col form (16-bit
// elements) where lane bits 2 to 4 do; up to four matrices an instruction,
// the other registers at constant offsets. Elsewhere (sm_80, other
// layouts) the elements are stored one by one.
// RUN: tt-opt %s --split-input-file --convert-triton-gpu-to-llvm='compute-capability=90' | FileCheck %s
// RUN: tt-opt %s --split-input-file --convert-triton-gpu-to-llvm='compute-capability=80' | FileCheck %s --check-prefix=SM80

// The row form, four matrices, two instructions 16 elements apart (an add:
// no thread sets that bit). Lane l addresses row l % 8 of matrix l / 8:
// lane bits 0-2 are rows 1, 2, 4 (32 elements each), lane bit 4 the
// matrix at column 8, warps 16 rows each.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#linear = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8], [0, 16]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @row_x4
  // CHECK: %[[RAW:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[TID:.*]] = llvm.and %[[RAW]]
  // CHECK: %[[M15:.*]] = llvm.mlir.constant(15 : i32)
  // CHECK: llvm.and %[[TID]], %[[M15]]
  // CHECK: %[[A0:.*]] = llvm.getelementptr %{{.*}}[%[[PART:.*]]] {{.*}}, f16
  // CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
  // CHECK: nvvm.stmatrix %[[A0]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
  // CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i32)
  // CHECK: %[[OFF:.*]] = llvm.add %[[PART]], %[[C16]]
  // CHECK: %[[A1:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]]
  // CHECK: nvvm.stmatrix %[[A1]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {{.*}}layout = #nvvm.mma_layout<row>
  // CHECK-NOT: nvvm.stmatrix
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  // SM80-LABEL: llvm.func @row_x4
  // SM80-NOT: nvvm.stmatrix
  // SM80-COUNT-16: llvm.store
  tt.func @row_x4(%a: tensor<64x32xf16, #linear>) {
    %b = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    ttg.local_store %a, %b : tensor<64x32xf16, #linear> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// A wgmma accumulator into its NVMMA buffer (128-byte swizzle) through
// ttg.local_alloc: 128 elements a thread, 16 instructions of four.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @nvmma_alloc
  // CHECK-COUNT-16: nvvm.stmatrix {{.*}}layout = #nvvm.mma_layout<row>
  // CHECK-NOT: nvvm.stmatrix
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  tt.func @nvmma_alloc(%a: tensor<128x128xf16, #mma>) {
    %b = ttg.local_alloc %a {allocation.offset = 0 : i32} : (tensor<128x128xf16, #mma>) -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// The col form: M contiguous in memory, lane bits 2-4 step along it; the
// broadcast register, lane and warp bits are left out (two instructions).
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#linear = #ttg.linear<{register = [[0, 2], [0, 8], [0, 0], [0, 16], [0, 1]], lane = [[0, 0], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[0, 0], [8, 0]], block = []}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @col_x4
  // CHECK-COUNT-2: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {{.*}}layout = #nvvm.mma_layout<col>
  // CHECK-NOT: nvvm.stmatrix
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  tt.func @col_x4(%a: tensor<16x32xf16, #linear>) {
    %b = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable>
    ttg.local_store %a, %b : tensor<16x32xf16, #linear> -> !ttg.memdesc<16x32xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// 8-bit elements pack four to a word (two matrices), 32-bit ones one.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#fp8 = #ttg.linear<{register = [[0, 1], [0, 2], [8, 0]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>
#f32 = #ttg.linear<{register = [[8, 0], [0, 4], [0, 8]], lane = [[0, 1], [0, 2], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @fp8_x2
  // CHECK: llvm.bitcast %{{.*}} : vector<4xi8> to i32
  // CHECK: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}layout = #nvvm.mma_layout<row>
  // CHECK-NOT: nvvm.stmatrix
  // CHECK: llvm.return
  tt.func @fp8_x2(%a: tensor<64x16xf8E4M3FN, #fp8>) {
    %b = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x16xf8E4M3FN, #shared, #smem, mutable>
    ttg.local_store %a, %b : tensor<64x16xf8E4M3FN, #fp8> -> !ttg.memdesc<64x16xf8E4M3FN, #shared, #smem, mutable>
    tt.return
  }
  // CHECK-LABEL: llvm.func @f32_x4
  // CHECK: llvm.bitcast %{{.*}} : f32 to i32
  // CHECK-COUNT-2: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {{.*}}layout = #nvvm.mma_layout<row>
  // CHECK-NOT: nvvm.stmatrix
  // CHECK: llvm.return
  tt.func @f32_x4(%a: tensor<64x16xf32, #f32>) {
    %b = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x16xf32, #shared, #smem, mutable>
    ttg.local_store %a, %b : tensor<64x16xf32, #f32> -> !ttg.memdesc<64x16xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// A blocked layout whose lanes run down the rows has no 16-byte row per
// eight lanes: no stmatrix; each thread's row of four f16 is one 8-byte
// store of two words.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @no_matrix
  // CHECK-NOT: nvvm.stmatrix
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  tt.func @no_matrix(%a: tensor<128x4xf16, #blocked>) {
    %b = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<128x4xf16, #shared, #smem, mutable>
    ttg.local_store %a, %b : tensor<128x4xf16, #blocked> -> !ttg.memdesc<128x4xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// ttg.convert_layout through shared memory: a side whose layout over the
// scratch has the matrices' shape uses stmatrix (stores) or ldmatrix
// (loads), round by round; stores of eight 16-bit elements are four
// 32-bit words.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 32]], warp = [[32, 0], [64, 0], [16, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @convert_stmatrix
  // CHECK-COUNT-2: nvvm.stmatrix {{.*}}layout = #nvvm.mma_layout<row>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xi32>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: nvvm.stmatrix {{.*}}layout = #nvvm.mma_layout<row>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xi32>
  // CHECK-NOT: nvvm.stmatrix
  // CHECK: llvm.return
  // SM80-LABEL: llvm.func @convert_stmatrix
  // SM80-NOT: nvvm.stmatrix
  // SM80: llvm.return
  tt.func @convert_stmatrix(%a: tensor<128x64xbf16, #blocked>) {
    %b = ttg.convert_layout %a {allocation.offset = 0 : i32} : tensor<128x64xbf16, #blocked> -> tensor<128x64xbf16, #linear>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @convert_ldmatrix_col
  // CHECK: llvm.store {{.*}} : vector<4xi32>, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-4: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
  // CHECK: nvvm.barrier0
  tt.func @convert_ldmatrix_col(%a: tensor<64x64xf16, #blocked>) {
    %b = ttg.convert_layout %a {allocation.offset = 0 : i32} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    tt.return
  }
}
