// The make_llir passes that only record module facts on kernels without
// warp specialization, tensor memory, Blackwell MMAs or global scratch.
// RUN: tt-opt %s --tritongpu-allocate-warp-groups --gluon-inline --triton-tensor-memory-allocation --triton-nvidia-check-matmul-two-cta --tritongpu-global-scratch-memory-allocation --triton-nvidia-gpu-proxy-fence-insertion=compute-capability=90 | FileCheck %s

// CHECK: module attributes {ttg.global_scratch_memory_alignment = 1 : i32, ttg.global_scratch_memory_size = 0 : i32, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", ttg.tensor_memory_size = 0 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.total-num-warps" = 8 : i32, "ttng.two-ctas" = false}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: tt.func public @k() attributes {ttg.global_scratch_memory_alignment = 1 : i32, ttg.global_scratch_memory_size = 0 : i32}
  // CHECK-NEXT: tt.call @f() : () -> ()
  tt.func public @k() {
    tt.call @f() : () -> ()
    tt.return
  }
  // A noinline function stays, called; it gets its own (empty) sizes.
  // CHECK: tt.func private @f() attributes {noinline = true, ttg.global_scratch_memory_alignment = 1 : i32, ttg.global_scratch_memory_size = 0 : i32}
  tt.func private @f() attributes {noinline = true} {
    tt.return
  }
}
