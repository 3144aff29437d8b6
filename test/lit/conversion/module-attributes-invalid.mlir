// Input these passes would transform is refused with a located error.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --gluon-inline --tritongpu-global-scratch-memory-allocation

// Recursion has no finite global scratch layout.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k() {
    tt.call @f() : () -> ()
    tt.return
  }
  tt.func private @f() attributes {noinline = true} {
    %0 = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
    // expected-error @+1 {{'tritongpu-global-scratch-memory-allocation' does not support recursive calls yet}}
    tt.call @f() : () -> ()
    tt.return
  }
}
