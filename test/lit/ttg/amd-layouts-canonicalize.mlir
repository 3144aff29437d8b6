// The layout library knows the AMD layouts as linear layouts: a conversion
// from an MFMA or WMMA layout to the #ttg.linear layout that places the
// elements the same way only renames the layout, so --canonicalize lets a
// tt.trans read through it; a conversion to a different placement stays.
// RUN: tt-opt %s --split-input-file --canonicalize | FileCheck %s

// MFMA 32x32 (version 3, one warp): four rows per lane and tile, lanes
// along N then M; its transpose is the transposed MFMA layout.
#mfma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], isTransposed = false}>
#mfmaT = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], isTransposed = true}>
#same = #ttg.linear<{register = [[1, 0], [2, 0], [8, 0], [16, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]], warp = [], block = []}>
#other = #ttg.linear<{register = [[1, 0], [2, 0], [4, 0], [16, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0]], warp = [], block = []}>
#otherT = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 8]], warp = [], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 64 : i32} {
  // CHECK-LABEL: tt.func @mfma
  // CHECK-NEXT: %[[T:.*]] = tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #mma1>
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %arg0 : tensor<32x32xf32, #mma> -> tensor<32x32xf32, #{{linear[0-9]*}}>
  // CHECK-NEXT: %[[U:.*]] = tt.trans %[[C]]
  // CHECK-NEXT: tt.return %[[T]], %[[U]]
  tt.func @mfma(%x: tensor<32x32xf32, #mfma>) -> (tensor<32x32xf32, #mfmaT>, tensor<32x32xf32, #otherT>) {
    %l = ttg.convert_layout %x : tensor<32x32xf32, #mfma> -> tensor<32x32xf32, #same>
    %t = tt.trans %l {order = array<i32: 1, 0>} : tensor<32x32xf32, #same> -> tensor<32x32xf32, #mfmaT>
    %m = ttg.convert_layout %x : tensor<32x32xf32, #mfma> -> tensor<32x32xf32, #other>
    %u = tt.trans %m {order = array<i32: 1, 0>} : tensor<32x32xf32, #other> -> tensor<32x32xf32, #otherT>
    tt.return %t, %u : tensor<32x32xf32, #mfmaT>, tensor<32x32xf32, #otherT>
  }
}

// -----

// WMMA version 2 (16x16, two warps along N): eight rows per lane, the
// second half-wave takes the lower eight rows.
#wmma = #ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [1, 2]}>
#wmmaT = #ttg.amd_wmma<{version = 2, isTranspose = true, warpsPerCTA = [2, 1]}>
#same = #ttg.linear<{register = [[1, 0], [2, 0], [4, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]], warp = [[0, 16]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @wmma
  // CHECK-NEXT: %[[T:.*]] = tt.trans %arg0 {order = array<i32: 1, 0>} : tensor<16x32xf16, #mma> -> tensor<32x16xf16, #mma1>
  // CHECK-NEXT: tt.return %[[T]]
  tt.func @wmma(%x: tensor<16x32xf16, #wmma>) -> tensor<32x16xf16, #wmmaT> {
    %l = ttg.convert_layout %x : tensor<16x32xf16, #wmma> -> tensor<16x32xf16, #same>
    %t = tt.trans %l {order = array<i32: 1, 0>} : tensor<16x32xf16, #same> -> tensor<32x16xf16, #wmmaT>
    tt.return %t : tensor<32x16xf16, #wmmaT>
  }
}
