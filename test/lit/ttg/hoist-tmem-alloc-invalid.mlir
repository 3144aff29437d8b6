// What tritongpu-hoist-tmem-alloc does not do yet is refused with a located
// error (Triton stops with a fatal error there).
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-hoist-tmem-alloc

#bl = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @conditional_last_use(%a: !ttg.memdesc<128x64xf16, #sh, #smem>, %b: !ttg.memdesc<64x128xf16, #sh, #smem>, %n: i32, %p: i1, %out: tensor<128x128x!tt.ptr<f32>, #bl>) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #bl>
    scf.for %i = %c0 to %n step %c1 : i32 {
      // expected-error @+1 {{'tritongpu-hoist-tmem-alloc' does not support hoisting a tensor-memory accumulator whose uses end in several or conditional tokens yet}}
      %m, %t0 = ttng.tmem_alloc %zero : (tensor<128x128xf32, #bl>) -> (!ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %t1 = ttng.tc_gen5_mma %a, %b, %m[%t0], %true, %true : !ttg.memdesc<128x64xf16, #sh, #smem>, !ttg.memdesc<64x128xf16, #sh, #smem>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
      scf.if %p {
        %v, %t2 = ttng.tmem_load %m[%t1] : !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #bl>
        tt.store %out, %v : tensor<128x128x!tt.ptr<f32>, #bl>
      }
    }
    tt.return
  }
}
