// The tti ops convert-triton-gpu-to-llvm does not lower are refused with an
// error at the op (tritoninstrument-to-llvm.mlir has those it lowers).
// RUN: tt-opt %s --split-input-file --verify-diagnostics --allocate-shared-memory --convert-triton-gpu-to-llvm -o /dev/null

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func private @lock_tensor(%locks: tensor<128x!tt.ptr<i32>, #blocked>) {
    // expected-error @+1 {{a tensor of locks is not supported yet}}
    tti.experimental_lock_acquire %locks : tensor<128x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func private @buffer_pointers_count() {
    // expected-error @+1 {{needs one offset per element of a 1-D tensor: 2 offsets for tensor<4xi64}}
    %0 = tti.experimental_buffer_pointers [0, 8], shared_mem : tensor<4xi64, #blocked>
    tt.return
  }
}
