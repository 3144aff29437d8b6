// Input the allocation does not handle yet is refused with a located error.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --allocate-shared-memory-nv

// Two elements, four registers each: registers repeat elements.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scan(%x: tensor<2xf32, #blocked>) -> tensor<2xf32, #blocked> {
    // expected-error @+1 {{'allocate-shared-memory-nv' does not support tt.scan over a layout that repeats elements in registers yet}}
    %y = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.scan.return %s : f32
    }) : (tensor<2xf32, #blocked>) -> tensor<2xf32, #blocked>
    tt.return %y : tensor<2xf32, #blocked>
  }
}

// -----

// Thread-block clusters: a reduction along a dimension the cluster's CTAs
// split is refused where its scratch is sized; reductions along the other
// dimensions, and conversions, take scratch for each CTA's part
// (allocate-shared-memory.mlir).
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[1]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_ctas_reduce() -> i32 {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    // expected-error @+1 {{'allocate-shared-memory-nv' does not support reductions along a dimension the CTAs of a cluster split yet}}
    %s = "tt.reduce"(%r) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.reduce.return %c : i32
    }) : (tensor<256xi32, #blocked>) -> i32
    tt.return %s : i32
  }
}

// -----

// A scan along an axis its operand does not have (the verifier lets it
// through, as Triton's) is refused where its scratch is sized.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scan_axis_out_of_range(%x: tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked> {
    // expected-error @+1 {{'allocate-shared-memory-nv' does not support tt.scan along axis 1, which a rank-1 tensor does not have, yet}}
    %s = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.scan.return %c : i32
    }) : (tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    tt.return %s : tensor<128xi32, #blocked>
  }
}
