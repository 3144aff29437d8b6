// triton-nvidia-optimize-descriptor-encoding: descriptors take the NVMMA
// encoding of the buffers their loads fill, else the default one; the
// results are Triton 3.6's pass's on the same input.
// RUN: tt-opt %s -split-input-file --triton-nvidia-optimize-descriptor-encoding -verify-diagnostics | FileCheck %s

// CHECK-DAG: #[[NV128:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[NV64:.+]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#nv128 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // A transposed buffer cannot be filled by TMA: the default encoding.
  // CHECK-LABEL: tt.func public @transposed_user
  // CHECK-SAME: (%arg0: !tt.tensordesc<tensor<64x64xf16, #[[NV128]]>>)
  tt.func public @transposed_user(%d: !tt.tensordesc<tensor<64x64xf16>>) {
    %c0 = arith.constant 0 : i32
    %v = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #b>
    %a = ttg.local_alloc %v : (tensor<64x64xf16, #b>) -> !ttg.memdesc<64x64xf16, #nvT, #smem>
    tt.return
  }
  // Arguments of device functions keep the default whatever their users.
  // CHECK-LABEL: tt.func private @device_function
  // CHECK-SAME: (%arg0: !tt.tensordesc<tensor<64x64xf16, #[[NV128]]>>)
  tt.func private @device_function(%d: !tt.tensordesc<tensor<64x64xf16>>) {
    %c0 = arith.constant 0 : i32
    %v = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #b>
    %a = ttg.local_alloc %v : (tensor<64x64xf16, #b>) -> !ttg.memdesc<64x64xf16, #nv64, #smem>
    tt.return
  }
  // Two wishes (64 in the loop, 128 after it) meet through the loop: the
  // default for every tied value.
  // CHECK-LABEL: tt.func public @loop_conflict
  // CHECK: tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x64xf16, #[[NV128]]>>
  // CHECK: scf.for {{.*}} -> (!tt.tensordesc<tensor<64x64xf16, #[[NV128]]>>)
  // CHECK: ttg.local_alloc {{.*}} -> !ttg.memdesc<64x64xf16, #[[NV64]], #smem>
  tt.func public @loop_conflict(%p: !tt.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %d0 = tt.make_tensor_descriptor %p, [%n, %n], [%c64_i64, %c1_i64] : <f16>, <tensor<64x64xf16>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%d = %d0) -> (!tt.tensordesc<tensor<64x64xf16>>) : i32 {
      %v = tt.descriptor_load %d[%i, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #b>
      %a = ttg.local_alloc %v : (tensor<64x64xf16, #b>) -> !ttg.memdesc<64x64xf16, #nv64, #smem>
      scf.yield %d : !tt.tensordesc<tensor<64x64xf16>>
    }
    %w = tt.descriptor_load %r[%c0, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #b>
    %x = ttg.local_alloc %w : (tensor<64x64xf16, #b>) -> !ttg.memdesc<64x64xf16, #nv128, #smem>
    tt.return
  }
}

// -----

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func public @captured(%d: !tt.tensordesc<tensor<64x64xf16, #nv>>) {
    // expected-error @+1 {{'triton-nvidia-optimize-descriptor-encoding' does not support tensor descriptors captured by ttg.warp_specialize yet}}
    ttg.warp_specialize(%d)
    default {
      ttg.warp_yield
    }
    partition0(%e: !tt.tensordesc<tensor<64x64xf16, #nv>>) num_warps(4) {
      ttg.warp_return
    } : (!tt.tensordesc<tensor<64x64xf16, #nv>>) -> ()
    tt.return
  }
}
