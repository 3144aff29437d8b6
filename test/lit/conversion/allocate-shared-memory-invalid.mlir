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

// expected-error @+1 {{'allocate-shared-memory-nv' does not support "ttg.num-ctas" other than 1 yet}}
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
}

// -----

// A noinline function that needs shared memory: Triton hands it a part of
// the caller's, which this allocation does not do yet.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @sum(%x: tensor<256xf32, #blocked>) -> f32 attributes {noinline = true} {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) : (tensor<256xf32, #blocked>) -> f32
    tt.return %s : f32
  }
  tt.func public @k(%x: tensor<256xf32, #blocked>) -> f32 {
    // expected-error @+1 {{'allocate-shared-memory-nv' does not support a call to a function that uses shared memory yet}}
    %s = tt.call @sum(%x) : (tensor<256xf32, #blocked>) -> f32
    tt.return %s : f32
  }
}
