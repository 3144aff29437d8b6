// ttg.convert_layout: a register permutation when every thread keeps its
// elements, otherwise a round trip through the op's scratch along Triton's
// swizzled layout, vectorised where registers are contiguous in it, in
// rounds separated by barriers when the scratch holds a tile only.
// RUN: tt-opt %s --split-input-file --convert-triton-gpu-to-llvm | FileCheck %s

#a = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @through_shared
  tt.func public @through_shared(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #a>
    %c = ttg.convert_layout %r {allocation.offset = 16 : i32} : tensor<512xi32, #a> -> tensor<512xi32, #b>
    // CHECK: %[[OFF:.*]] = llvm.mlir.constant(16 : i32)
    // CHECK: %[[SCRATCH:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]] {{.*}}, i8
    // One element per thread in the source: scalar stores; four
    // contiguous in the destination: one 128-bit load.
    // CHECK: llvm.store {{.*}} : vector<1xi32>, !llvm.ptr<3>
    // CHECK-NOT: llvm.load
    // CHECK: nvvm.barrier0
    // CHECK-NOT: llvm.store
    // CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xi32>
    // CHECK-NOT: llvm.load
    // CHECK: st.global
    %p = tt.splat %out : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #b>
    %q = tt.addptr %p, %c : tensor<512x!tt.ptr<i32>, #b>, tensor<512xi32, #b>
    tt.store %q, %c : tensor<512x!tt.ptr<i32>, #b>
    tt.return
  }
}

// -----

// The same elements in every thread: no shared memory.
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @permute
  tt.func public @permute(%x: i32) {
    %s = tt.splat %x : i32 -> tensor<128x4xi32, #a>
    %c = ttg.convert_layout %s : tensor<128x4xi32, #a> -> tensor<128x4xi32, #b>
    // CHECK-NOT: llvm.store
    // CHECK-NOT: nvvm.barrier0
    // CHECK: llvm.return
    tt.return
  }
}

// -----

// A 64x64 f32 transposition: Triton's vector holds the two register bases
// both layouts share (rows 32 and columns 32 apart), so both sides move
// 128 bits per access; the whole tensor fits the tile: one round.
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @transpose
  tt.func public @transpose(%v: f32, %out: !tt.ptr<f32>) {
    %x = tt.splat %v : f32 -> tensor<64x64xf32, #a>
    // CHECK-COUNT-8: llvm.store {{.*}} : vector<4xi32>, !llvm.ptr<3>
    // CHECK-NOT: llvm.store {{.*}}!llvm.ptr<3>
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xi32>
    // CHECK-NOT: nvvm.barrier0
    // CHECK: llvm.return
    %y = ttg.convert_layout %x {allocation.offset = 0 : i32} : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #b>
    tt.store %p, %y : tensor<64x64x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// The wgmma epilogue: the scratch holds a quarter of the tensor, so four
// rounds of 8 vector stores and 8 vector loads, barriers between them.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#c = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @epilogue
  tt.func public @epilogue(%v: f32, %out: !tt.ptr<f32>) {
    %x = tt.splat %v : f32 -> tensor<128x128xf32, #mma>
    // CHECK-COUNT-8: llvm.store {{.*}} : vector<4xi32>, !llvm.ptr<3>
    // CHECK-NEXT: nvvm.barrier0
    // CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xi32>
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-8: llvm.store {{.*}} : vector<4xi32>, !llvm.ptr<3>
    // CHECK: nvvm.barrier0
    // CHECK: nvvm.barrier0
    // CHECK: nvvm.barrier0
    // CHECK: nvvm.barrier0
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xi32>
    // CHECK-NOT: nvvm.barrier0
    // CHECK: llvm.return
    %y = ttg.convert_layout %x {allocation.offset = 0 : i32} : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #c>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>, #c>
    tt.store %p, %y : tensor<128x128x!tt.ptr<f32>, #c>
    tt.return
  }
}

// -----

// An f16 wgmma result to a store layout of eight elements per thread: the
// loads read pairs from rows of 16 bytes, four rows a lane group apart,
// so four groups are one ldmatrix.x4 (each lane addresses one row), as
// Triton's epilogue does.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @ldmatrix_epilogue
  tt.func public @ldmatrix_epilogue(%v: f16, %out: !tt.ptr<f16>) {
    %x = tt.splat %v : f16 -> tensor<64x64xf16, #mma>
    // CHECK-COUNT-4: llvm.store {{.*}} : vector<4xi32>, !llvm.ptr<3>
    // CHECK-NEXT: nvvm.barrier0
    // CHECK-COUNT-4: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
    // CHECK-NOT: llvm.load {{.*}} : !llvm.ptr<3>
    // CHECK: llvm.return
    %y = ttg.convert_layout %x {allocation.offset = 0 : i32} : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked>
    %p = tt.splat %out : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.store %p, %y : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// The matmul epilogue: an f16 wgmma result to one element per thread and
// row, as Triton 3.6 lays it out (32 stores and 32 loads of two elements
// per thread). Each pair is loaded as Triton's vector, bit-cast to one
// 32-bit word and taken apart by shifts, so that LLVM keeps one load (it
// splits a vector whose elements are extracted into two).
// CHECK-LABEL: llvm.func @pairs_as_words
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.shared = 32768 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @pairs_as_words(%v: f16, %out: !tt.ptr<f16>) {
    %x = tt.splat %v : f16 -> tensor<128x128xf16, #mma>
    // CHECK-COUNT-32: llvm.store {{.*}} : vector<2xi16>, !llvm.ptr<3>
    // CHECK: nvvm.barrier0
    // CHECK: %[[PAIR:.*]] = llvm.load {{.*}} : !llvm.ptr<3> -> vector<2xi16>
    // CHECK-NEXT: %[[WORD:.*]] = llvm.bitcast %[[PAIR]] : vector<2xi16> to i32
    // CHECK-NEXT: %[[LO:.*]] = llvm.trunc %[[WORD]] : i32 to i16
    // CHECK-NEXT: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32) : i32
    // CHECK-NEXT: %[[SHIFTED:.*]] = llvm.lshr %[[WORD]], %[[SIXTEEN]] : i32
    // CHECK-NEXT: %[[HI:.*]] = llvm.trunc %[[SHIFTED]] : i32 to i16
    // CHECK-COUNT-31: llvm.load {{.*}} : !llvm.ptr<3> -> vector<2xi16>
    // CHECK-NOT: llvm.load {{.*}} : !llvm.ptr<3>
    %y = ttg.convert_layout %x {allocation.offset = 0 : i32} : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked>
    %p = tt.splat %out : !tt.ptr<f16> -> tensor<128x128x!tt.ptr<f16>, #blocked>
    tt.store %p, %y : tensor<128x128x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// One 32-bit element per thread in, eight out, four elements apart and
// broadcast over eight lanes: the bank bases the reading side holds in
// registers come first in the scratch, so each thread reads its eight in
// two 16-byte loads, as Triton 3.6 does.
#one = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32} {
  // CHECK-LABEL: llvm.func @vectorise_the_reading_side
  // CHECK: llvm.store {{.*}} : vector<1xi32>, !llvm.ptr<3>
  // CHECK-COUNT-2: llvm.load {{.*}} -> vector<4xi32>
  // CHECK-NOT: llvm.load
  tt.func @vectorise_the_reading_side(%src: tensor<32xi32, #one>, %out: tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #rows}>>) {
    %cvt = ttg.convert_layout %src : tensor<32xi32, #one> -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #rows}>>
    tt.store %out, %cvt : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #rows}>>
    tt.return
  }
}

// -----

// The bits of a register's scratch offset that no lane or warp sets are
// added, not XOR-ed, as a second constant index that the backend folds into
// the access's immediate offset: the fifth store (32 elements, 128 bytes
// on, a bit no lane or warp reaches) shares the first store's thread part.
// The 4-byte elements are addressed in bytes: the thread part is scaled
// once, and the second store XORs its 4 bytes into it.
#rows4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#cols4 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func @additive_offsets
  // CHECK: %[[BASE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: %[[FIRST:.*]] = llvm.getelementptr %[[BASE]][%[[SCALED:.*]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: llvm.store %{{.*}}, %[[FIRST]] : vector<1xi32>, !llvm.ptr<3>
  // CHECK: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-NEXT: %[[SECOND:.*]] = llvm.xor %[[SCALED]], %[[C4]] : i32
  // CHECK-COUNT-3: llvm.store
  // CHECK: %[[SAME:.*]] = llvm.getelementptr %[[BASE]][%[[SCALED]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[C128:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK-NEXT: %[[FIFTH:.*]] = llvm.getelementptr %[[SAME]][%[[C128]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: llvm.store %{{.*}}, %[[FIFTH]] : vector<1xi32>, !llvm.ptr<3>
  tt.func @additive_offsets(%src: tensor<32x32xf32, #rows4>, %out: tensor<32x32x!tt.ptr<f32>, #cols4>) {
    %cvt = ttg.convert_layout %src : tensor<32x32xf32, #rows4> -> tensor<32x32xf32, #cols4>
    tt.store %out, %cvt : tensor<32x32x!tt.ptr<f32>, #cols4>
    tt.return
  }
}
