// Cluster sizes outside what Hopper launches (1 to 16 CTAs) are refused by
// convert-triton-gpu-to-llvm with an error at the module (they built
// attributes that do not parse before).
// RUN: tt-opt %s --split-input-file --verify-diagnostics --convert-triton-gpu-to-llvm=compute-capability=90

// expected-error @+1 {{convert-triton-gpu-to-llvm: 'ttg.num-ctas' must be from 1 to 16, not 99999999999}}
module attributes {"ttg.num-ctas" = 99999999999 : i64, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<i32>) {
    %x = tt.get_program_id x : i32
    tt.store %p, %x : !tt.ptr<i32>
    tt.return
  }
}

// -----

// expected-error @+1 {{convert-triton-gpu-to-llvm: 'triton_rs.cluster_ctas' must be from 1 to 16, not 0}}
module attributes {triton_rs.cluster_ctas = 0 : i32, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<i32>) {
    %x = tt.get_program_id x : i32
    tt.store %p, %x : !tt.ptr<i32>
    tt.return
  }
}
