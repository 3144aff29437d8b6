// RUN: tt-opt %s --split-input-file --verify-diagnostics

// The rules of the AMD encodings, with Triton 3.6's messages where Triton
// has a rule (the others guard what Triton's linear layouts assume).

// expected-error @+1 {{version must be in the [0, 4] range}}
#bad = #ttg.amd_mfma<{version = 5, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], isTransposed = false}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{invalid (mDim, nDim) combination: (16, 8)}}
#bad = #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1], instrShape = [16, 8, 8], isTransposed = false}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{invalid (mDim, nDim) combination: (32, 16)}}
#bad = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 16, 8], isTransposed = true}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{elementBitWidth must be 32 or 64}}
#bad = #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1], instrShape = [16, 16, 16], isTransposed = false, elementBitWidth = 16}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{instrShape must give at least M and N, got [32]}}
#bad = #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1], instrShape = [32], isTransposed = false}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{missing key 'instrShape'}}
#bad = #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1], isTransposed = false}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{an amd_mfma layout must have rank 2 or 3, got warpsPerCTA [4]}}
#bad = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4], instrShape = [32, 32, 8], isTransposed = false}>
tt.func @f(%x: tensor<64xf32, #bad>)

// -----

// expected-error @+1 {{every entry of warpsPerCTA must be a power of two, got 3}}
#bad = #ttg.amd_mfma<{version = 2, warpsPerCTA = [3, 1], instrShape = [32, 32, 8], isTransposed = false}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{tilesPerWarp needs an entry for each of the 3 dimensions, got [2, 2]}}
#bad = #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 2, 2], instrShape = [32, 32, 8], isTransposed = false, tilesPerWarp = [2, 2]}>
tt.func @f(%x: tensor<2x64x64xf32, #bad>)

// -----

// expected-error @+1 {{every basis vector of CGALayout must have 2 entries, got [1]}}
#bad = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false, CGALayout = [[1]]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{WMMA version must be in the [1, 3] range}}
#bad = #ttg.amd_wmma<{version = 4, warpsPerCTA = [1, 1]}>
tt.func @f(%x: tensor<16x16xf32, #bad>)

// -----

// A missing version is 0.
// expected-error @+1 {{WMMA version must be in the [1, 3] range}}
#bad = #ttg.amd_wmma<{warpsPerCTA = [1, 1]}>
tt.func @f(%x: tensor<16x16xf32, #bad>)

// -----

// expected-error @+1 {{invalid WMMA v1 instruction shape}}
#bad = #ttg.amd_wmma<{version = 1, warpsPerCTA = [1, 1], instrShape = [16, 16, 32]}>
tt.func @f(%x: tensor<16x16xf32, #bad>)

// -----

// expected-error @+1 {{invalid WMMA v2 instruction shape}}
#bad = #ttg.amd_wmma<{version = 2, warpsPerCTA = [1, 1], instrShape = [16, 16, 64]}>
tt.func @f(%x: tensor<16x16xf32, #bad>)

// -----

// expected-error @+1 {{invalid WMMA v3 instruction shape}}
#bad = #ttg.amd_wmma<{version = 3, warpsPerCTA = [1, 1]}>
tt.func @f(%x: tensor<16x16xf32, #bad>)

// -----

// expected-error @+1 {{every entry of tilesPerWarp must be a power of two, got 3}}
#bad = #ttg.amd_wmma<{version = 2, warpsPerCTA = [1, 1], tilesPerWarp = [3, 1]}>
tt.func @f(%x: tensor<16x16xf32, #bad>)

// -----

#mfma = #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], isTransposed = false}>
// expected-error @+1 {{ttg.dot_op kWidth parameter is mandatory for MFMA parent}}
#bad = #ttg.dot_op<{opIdx = 1, parent = #mfma}>
tt.func @f(%x: tensor<64x64xf16, #bad>)

// -----

#wmma = #ttg.amd_wmma<{version = 1, warpsPerCTA = [1, 4]}>
// expected-error @+1 {{ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 (including packed cases for `scaled_dot`)}}
#bad = #ttg.dot_op<{opIdx = 1, parent = #wmma, kWidth = 4}>
tt.func @f(%x: tensor<64x64xf16, #bad>)

// -----

#wmma = #ttg.amd_wmma<{version = 2, warpsPerCTA = [1, 4]}>
// expected-error @+1 {{ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2 (including packed cases for `scaled_dot`)}}
#bad = #ttg.dot_op<{opIdx = 0, parent = #wmma, kWidth = 32}>
tt.func @f(%x: tensor<64x64xf16, #bad>)

// -----

#wmma = #ttg.amd_wmma<{version = 3, warpsPerCTA = [1, 4], instrShape = [16, 16, 32]}>
// expected-error @+1 {{ttg.dot_op kWidth parameter is mandatory for WMMA v3}}
#bad = #ttg.dot_op<{opIdx = 0, parent = #wmma}>
tt.func @f(%x: tensor<64x64xf16, #bad>)

// -----

// expected-error @+1 {{maxPhase must be positive}}
#bad = #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 0, order = [1, 0]}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{order [0, 0] must be a permutation of 0..2}}
#bad = #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [0, 0]}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// Unlike the MFMA and WMMA parsers, the swizzled ones reject unknown keys.
// expected-error @+1 {{unexpected key: isTransposed}}
#bad = #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0], isTransposed = true}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{missing key 'vec'}}
#bad = #ttg.amd_rotating_shared<{perPhase = 1, maxPhase = 4, order = [1, 0]}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// A rotating layout is a shared one: not for tensors.
#rotating = #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 4, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #rotating>) {
    // expected-error @+1 {{has an invalid layout: Non-distributed layout is not allowed in tensor type.}}
    %y = ttg.convert_layout %x : tensor<64x64xf16, #rotating> -> tensor<64x64xf16, #rotating>
    tt.return
  }
}

// -----

// An MFMA layout spans 64 lanes.
#mfma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf32, #mfma>) {
    // expected-error @+1 {{Layout has 64 threads per warp, but the module specifies 32 threads per warp.}}
    %y = ttg.convert_layout %x : tensor<64x64xf32, #mfma> -> tensor<64x64xf32, #mfma>
    tt.return
  }
}

// -----

// A WMMA layout spans 32 lanes, and its warps must match the module's.
#wmma = #ttg.amd_wmma<{version = 2, warpsPerCTA = [2, 2]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<32x32xf32, #wmma>) {
    // expected-error @+1 {{Layout has 4 warps per CTA, but the context requires 8 warps per CTA.}}
    %y = ttg.convert_layout %x : tensor<32x32xf32, #wmma> -> tensor<32x32xf32, #wmma>
    tt.return
  }
}
