// The dot-path and other-hardware passes of make_ttgir
// (passes/src/ttgir/dot_path.rs) leave a module without dots, descriptors,
// marked loops or tensor memory exactly as it is, as Triton 3.6 does.
// RUN: tt-opt %s --tritongpu-accelerate-matmul --tritongpu-optimize-dot-operands=hoist-layout-conversion=true --triton-nvidia-optimize-descriptor-encoding --tritongpu-fuse-nested-loops --nvgpu-warp-specialization='num-stages=3 dump-intermediate-steps=false' --tritongpu-prefetch --tritongpu-coalesce-async-copy --triton-nvidia-optimize-tmem-layouts --triton-nvidia-tma-lowering --triton-nvidia-interleave-tmem --triton-nvidia-gpu-fence-insertion=compute-capability=90 --triton-nvidia-mma-lowering | FileCheck %s

// CHECK-LABEL: tt.func public @add
// CHECK: %[[R:.*]] = tt.make_range {end = 256 : i32, start = 0 : i32}
// CHECK-NEXT: %[[S:.*]] = scf.for
// CHECK-NEXT: %[[A:.*]] = arith.addi
// CHECK-NEXT: scf.yield %[[A]]
// CHECK-NEXT: }
// CHECK-NEXT: tt.return %[[S]]
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @add(%n: i32) -> tensor<256xi32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (tensor<256xi32, #blocked>) : i32 {
      %a = arith.addi %acc, %r : tensor<256xi32, #blocked>
      scf.yield %a : tensor<256xi32, #blocked>
    }
    tt.return %s : tensor<256xi32, #blocked>
  }
}
