// The lowering to LLVM emits NVVM only: a kernel with a tensor or buffer in
// one of AMD's layouts (or a slice or dot operand of one) is refused at
// the first op that has it, before anything is converted; exit status 1.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --allocate-shared-memory --convert-triton-gpu-to-llvm
// RUN: not tt-opt %s --split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm 2>&1 | FileCheck %s
// CHECK: error: 'arith.constant' op convert-triton-gpu-to-llvm: the AMD layout #ttg.amd_mfma is not supported yet
// CHECK: error: 'ttg.convert_layout' op convert-triton-gpu-to-llvm: the AMD layout #ttg.amd_wmma is not supported yet
// CHECK: error: 'ttg.local_alloc' op convert-triton-gpu-to-llvm: the AMD layout #ttg.amd_rotating_shared is not supported yet
// CHECK-NOT: llvm.func

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @mfma(%p: !tt.ptr<f32>) {
    // expected-error @+1 {{'arith.constant' op convert-triton-gpu-to-llvm: the AMD layout #ttg.amd_mfma is not supported yet}}
    %c = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
    %b = ttg.convert_layout %c : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.store %ptrs, %b : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#wmma = #ttg.amd_wmma<{version = 2, isTranspose = false, warpsPerCTA = [2, 2]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1200", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wmma_slice(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    // expected-error @+1 {{'ttg.convert_layout' op convert-triton-gpu-to-llvm: the AMD layout #ttg.amd_wmma is not supported yet}}
    %s = ttg.convert_layout %r : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #wmma}>>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.amd_rotating_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rotating(%x: !tt.ptr<f16>) {
    %c = arith.constant dense<1.0> : tensor<32x64xf16, #blocked>
    // expected-error @+1 {{'ttg.local_alloc' op convert-triton-gpu-to-llvm: the AMD layout #ttg.amd_rotating_shared is not supported yet}}
    %m = ttg.local_alloc %c : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
    %l = ttg.local_load %m : !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<32x64xf16, #blocked>
    tt.return
  }
}
