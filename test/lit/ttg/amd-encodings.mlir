// The AMD layout encodings (amd_mfma, amd_wmma, amd_rotating_shared) print
// as Triton 3.6 prints them: keys in Triton's order, `tilesPerWarp` only
// when some entry is not 1, `elementBitWidth` only when not 32, the WMMA
// `instrShape` only when not [16, 16, 16], `CGALayout` only when there are
// several CTAs; the distributed ones take the `#mma` alias, the shared one
// `#shared`. Stock mlir-opt with the dialect plugin prints the same.
// RUN: tt-opt %s --split-input-file | FileCheck %s
// RUN: tt-opt %s --split-input-file | tt-opt --split-input-file | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin %s --split-input-file | FileCheck %s

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-NEXT: #mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
// CHECK-NEXT: #mma1 = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 16, 16], isTransposed = false, tilesPerWarp = [2, 1]}>
// CHECK-NEXT: #mma2 = #ttg.amd_mfma<{version = 4, warpsPerCTA = [1, 4], instrShape = [16, 16, 4], isTransposed = false, elementBitWidth = 64}>
// CHECK-NEXT: #mma3 = #ttg.amd_mfma<{version = 0, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>
// CHECK-NEXT: #shared = #ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-LABEL: tt.func @mfma
// CHECK-SAME: tensor<64x64xf32, #mma>
// CHECK-SAME: tensor<64x64xf32, #mma1>
// CHECK-SAME: tensor<64x64xf64, #mma2>
// CHECK-SAME: tensor<64x64xf32, #mma3>
// CHECK-SAME: !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 8}>>
// CHECK: ttg.convert_layout %{{.*}} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK: ttg.local_load %{{.*}} : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#mfma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
// Explicit defaults are not printed.
#mfma_tiles = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 16, 16], isTransposed = false, tilesPerWarp = [2, 1], elementBitWidth = 32}>
#mfma_f64 = #ttg.amd_mfma<{version = 4, warpsPerCTA = [1, 4], instrShape = [16, 16, 4], isTransposed = false, tilesPerWarp = [1, 1], elementBitWidth = 64}>
// `version` may be left out (0); so may `isTransposed` (false). Keys the
// parser does not know are ignored, as Triton's parser does (Triton's
// optimize_epilogue.mlir writes WMMA's `isTranspose` on an MFMA layout).
#mfma_v0 = #ttg.amd_mfma<{warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTranspose = true}>
#rotating = #ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @mfma(%a: tensor<64x64xf32, #mfma>, %b: tensor<64x64xf32, #mfma_tiles>, %c: tensor<64x64xf64, #mfma_f64>, %d: tensor<64x64xf32, #mfma_v0>, %m: !ttg.memdesc<64x64xf16, #rotating, #smem>, %op: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mfma, kWidth = 4}>>, %row: tensor<64xf32, #ttg.slice<{dim = 1, parent = #mfma}>>) {
    %0 = ttg.convert_layout %a : tensor<64x64xf32, #mfma> -> tensor<64x64xf32, #blocked>
    %1 = ttg.convert_layout %op : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mfma, kWidth = 4}>> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mfma_tiles, kWidth = 8}>>
    %2 = ttg.convert_layout %row : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mfma}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %3 = ttg.local_load %m : !ttg.memdesc<64x64xf16, #rotating, #smem> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

// CHECK: #mma = #ttg.amd_wmma<{version = 1, isTranspose = false, warpsPerCTA = [2, 2]}>
// CHECK-NEXT: #mma1 = #ttg.amd_wmma<{version = 2, isTranspose = true, warpsPerCTA = [4, 1], tilesPerWarp = [2, 2]}>
// CHECK-NEXT: #mma2 = #ttg.amd_wmma<{version = 3, isTranspose = false, warpsPerCTA = [2, 2], instrShape = [16, 16, 32]}>
// CHECK-NEXT: #mma3 = #ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [1, 2, 2], CGALayout = {{\[\[}}0, 0, 1]]}>
// CHECK-NEXT: #shared = #ttg.amd_rotating_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], CGALayout = {{\[\[}}1, 0]]}>
// CHECK-LABEL: tt.func @wmma
// CHECK-SAME: tensor<32x32xf16, #mma>
// CHECK-SAME: tensor<32x32xf16, #mma1>
// CHECK-SAME: tensor<32x32xf32, #mma2>
// CHECK-SAME: tensor<2x32x64xf32, #mma3>
// CHECK-SAME: tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 16}>>
// CHECK-SAME: tensor<32x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 8}>>
// CHECK-SAME: !ttg.memdesc<64x64xf16, #shared, #smem>
#wmma1 = #ttg.amd_wmma<{version = 1, warpsPerCTA = [2, 2]}>
#wmma2 = #ttg.amd_wmma<{version = 2, isTranspose = true, warpsPerCTA = [4, 1], tilesPerWarp = [2, 2], instrShape = [16, 16, 16], isTransposed = false}>
#wmma3 = #ttg.amd_wmma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 32]}>
#wmma_cga = #ttg.amd_wmma<{version = 2, warpsPerCTA = [1, 2, 2], CGALayout = [[0, 0, 1]]}>
#rotating = #ttg.amd_rotating_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], CGALayout = [[1, 0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wmma(%a: tensor<32x32xf16, #wmma1>, %b: tensor<32x32xf16, #wmma2>, %c: tensor<32x32xf32, #wmma3>, %d: tensor<2x32x64xf32, #wmma_cga>, %e: tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #wmma1, kWidth = 16}>>, %f: tensor<32x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #wmma3, kWidth = 8}>>, %m: !ttg.memdesc<64x64xf16, #rotating, #smem>) {
    tt.return
  }
}
