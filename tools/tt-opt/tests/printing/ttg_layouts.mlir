// ttg layout encodings: blocked keys in any order are printed in canonical
// order and aliased as #blocked; slice and dot_op are printed inline;
// nvidia_mma is aliased as #mma.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @layouts(%a: tensor<32x32xf32, #ttg.blocked<{order = [1, 0], warpsPerCTA = [4, 1], threadsPerWarp = [8, 4], sizePerThread = [1, 4]}>>, %b: tensor<32xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, %c: tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, kWidth = 2}>>, %d: tensor<64x64xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>) {
    tt.return
  }
}
