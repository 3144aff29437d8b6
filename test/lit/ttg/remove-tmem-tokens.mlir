// triton-nvidia-gpu-remove-tmem-tokens: the tensor-memory ops and the
// Blackwell MMAs drop their tokens; what carried a token gets a ub.poison
// (the output is that of Triton 3.6's pass on this input).
// RUN: tt-opt %s --triton-nvidia-gpu-remove-tmem-tokens | FileCheck %s
// RUN: tt-opt %s --triton-nvidia-gpu-remove-tmem-tokens --canonicalize | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: @tokens
// CHECK-NEXT: %[[P:.+]] = ub.poison : !ttg.async.token
// CHECK: %[[M:.+]] = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32
// CHECK-NEXT: ttng.tmem_store %cst, %[[M]], %true :
// CHECK-NEXT: scf.for {{.*}} iter_args(%{{.+}} = %[[P]]) -> (!ttg.async.token)
// CHECK-NEXT: ttng.tc_gen5_mma %arg0, %arg1, %[[M]], %true, %true :
// CHECK: ttng.tmem_load %[[M]] :
// CHECK-NEXT: scf.yield %[[P]]
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[P]]
// CHECK: ttng.tmem_load %[[M]] :

// CANON-LABEL: @tokens
// CANON-NOT: ub.poison
// CANON-NOT: !ttg.async.token
// CANON: scf.for
// CANON-NEXT: ttng.tc_gen5_mma
// CANON-NEXT: }
// CANON-NEXT: ttng.tmem_load
#bl = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tokens(%a: !ttg.memdesc<128x64xf16, #sh, #smem>, %b: !ttg.memdesc<64x128xf16, #sh, #smem>, %n: i32, %p: i1) -> tensor<128x128xf32, #bl> {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #bl>
    %m, %t0 = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %t1 = ttng.tmem_store %zero, %m[%t0], %true : tensor<128x128xf32, #bl> -> !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t1) -> (!ttg.async.token) : i32 {
      %t2 = ttng.tc_gen5_mma %a, %b, %m[%t], %true, %true : !ttg.memdesc<128x64xf16, #sh, #smem>, !ttg.memdesc<64x128xf16, #sh, #smem>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
      %t3 = scf.if %p -> (!ttg.async.token) {
        %v, %t4 = ttng.tmem_load %m[%t2] : !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #bl>
        scf.yield %t4 : !ttg.async.token
      } else {
        scf.yield %t2 : !ttg.async.token
      }
      scf.yield %t3 : !ttg.async.token
    }
    %v, %t5 = ttng.tmem_load %m[%r] : !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #bl>
    tt.return %v : tensor<128x128xf32, #bl>
  }
}
