// ttg.convert_layout scratch: Triton's swizzled tile, numel / reps elements
// of max(bits, 8) / 8 bytes (GenericSwizzling's optimalSwizzling over the
// sm_90 ld.shared/st.shared, stmatrix and ldmatrix tiles).
// RUN: tt-opt %s --split-input-file --allocate-shared-memory-nv | FileCheck %s

// 64x64 f32 transposition, 4 warps: both layouts hold rows 32 apart and
// columns 32 apart in registers; the ld/st pair takes them as the vector
// (4 x 32 bits), the segment uses no register basis of both sides, so no
// rounds: 4096 elements x 4 bytes.
// CHECK: ttg.shared = 16384
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#c = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#e = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @t1(%x: tensor<64x64xf32, #a>) -> tensor<64x64xf32, #b> {
    %y = ttg.convert_layout %x : tensor<64x64xf32, #a> -> tensor<64x64xf32, #b>
    tt.return %y : tensor<64x64xf32, #b>
  }
}

// -----

// wgmma v3 accumulator -> blocked, 128x128 f32: two segment bases are
// register bases of both layouts and become rounds: 4 rounds of 4096
// elements x 4 bytes.
// CHECK: ttg.shared = 16384
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#c = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#e = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @t2(%x: tensor<128x128xf32, #mma>) -> tensor<128x128xf32, #c> {
    %y = ttg.convert_layout %x : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #c>
    tt.return %y : tensor<128x128xf32, #c>
  }
}

// -----

// Slices (dim 1) of the two blocked layouts above, 64 f32: no register
// basis is shared and all 6 bits are addresses: 64 x 4 bytes.
// CHECK: ttg.shared = 256
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#c = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#e = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @t3(%x: tensor<64xf32, #ttg.slice<{dim = 1, parent = #a}>>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>> {
    %y = ttg.convert_layout %x : tensor<64xf32, #ttg.slice<{dim = 1, parent = #a}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return %y : tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>>
  }
}

// -----

// 128x128 f16 column-major lanes -> row-major lanes, 4 warps: 8 rounds of
// 2048 elements x 2 bytes.
// CHECK: ttg.shared = 4096
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#c = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#e = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @t4(%x: tensor<128x128xf16, #d>) -> tensor<128x128xf16, #e> {
    %y = ttg.convert_layout %x : tensor<128x128xf16, #d> -> tensor<128x128xf16, #e>
    tt.return %y : tensor<128x128xf16, #e>
  }
}

// -----

// wgmma v3 accumulator -> blocked, 128x128 f16: 2 rounds of 8192
// elements x 2 bytes.
// CHECK: ttg.shared = 16384
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#c = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#e = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @t5(%x: tensor<128x128xf16, #mma>) -> tensor<128x128xf16, #c> {
    %y = ttg.convert_layout %x : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #c>
    tt.return %y : tensor<128x128xf16, #c>
  }
}
