// tritonamdgpu-optimize-epilogue: a store of an MMA result through a
// conversion and one-operand elementwise ops stores in the MMA layout (the
// pointers and the mask are converted instead); Triton 3.6's output.
// RUN: tt-opt %s -split-input-file --tritonamdgpu-optimize-epilogue -verify-diagnostics | FileCheck %s

#mfma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 16], isTransposed = true}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32, ttg.target = "hip:gfx942"} {
  // CHECK-LABEL: tt.func public @masked_chain
  // CHECK-NEXT: %[[E:.+]] = math.exp %arg0 : tensor<64x64xf32, #mma>
  // CHECK-NEXT: %[[T:.+]] = arith.truncf %[[E]] : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
  // CHECK-NEXT: %[[P:.+]] = ttg.convert_layout %arg1 : tensor<64x64x!tt.ptr<f16>, #blocked> -> tensor<64x64x!tt.ptr<f16>, #mma>
  // CHECK-NEXT: %[[M:.+]] = ttg.convert_layout %arg2 : tensor<64x64xi1, #blocked> -> tensor<64x64xi1, #mma>
  // CHECK-NEXT: tt.store %[[P]], %[[T]], %[[M]] : tensor<64x64x!tt.ptr<f16>, #mma>
  tt.func public @masked_chain(%data: tensor<64x64xf32, #mfma>, %ptr: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>) {
    %c = ttg.convert_layout %data : tensor<64x64xf32, #mfma> -> tensor<64x64xf32, #blocked>
    %e = math.exp %c : tensor<64x64xf32, #blocked>
    %t = arith.truncf %e : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    tt.store %ptr, %t, %m : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
  // A conversion with another user stays.
  // CHECK-LABEL: tt.func public @two_uses
  // CHECK-NEXT: ttg.convert_layout %arg0
  // CHECK-NEXT: tt.store %arg1
  tt.func public @two_uses(%data: tensor<64x64xf32, #mfma>, %ptr: tensor<64x64x!tt.ptr<f32>, #blocked>) -> tensor<64x64xf32, #blocked> {
    %c = ttg.convert_layout %data : tensor<64x64xf32, #mfma> -> tensor<64x64xf32, #blocked>
    tt.store %ptr, %c : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return %c : tensor<64x64xf32, #blocked>
  }
}

// -----

// CDNA4's transposed f16 MFMA stores go through Triton's v_permlane layout.
#mfma = #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32, ttg.target = "hip:gfx950"} {
  tt.func public @permlane(%data: tensor<64x64xf16, #mfma>, %ptr: tensor<64x64x!tt.ptr<f16>, #blocked>) {
    %c = ttg.convert_layout %data : tensor<64x64xf16, #mfma> -> tensor<64x64xf16, #blocked>
    // expected-error @+1 {{'tritonamdgpu-optimize-epilogue' does not support stores through the v_permlane layout (CDNA4) yet}}
    tt.store %ptr, %c : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
