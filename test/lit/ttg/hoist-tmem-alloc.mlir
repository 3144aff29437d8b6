// tritongpu-hoist-tmem-alloc: the tensor-memory accumulator of a Blackwell
// MMA in a loop is allocated once before the loop, which carries its token
// (the outputs checked here are those of Triton 3.6's pass on this input).
// RUN: tt-opt %s -split-input-file -tritongpu-hoist-tmem-alloc -canonicalize | FileCheck %s
// RUN: tt-opt %s -split-input-file -tritongpu-hoist-tmem-alloc=hoist-out-of-if=true -canonicalize | FileCheck %s --check-prefix=IF

// CHECK-LABEL: @accumulate
// CHECK: %[[M:.+]], %[[T:.+]] = ttng.tmem_alloc : () ->
// CHECK: %[[INIT:.+]] = ttng.tmem_store %cst, %[[M]][%[[T]]], %true
// CHECK: %[[R:.+]] = scf.for {{.*}} iter_args(%[[ARG:.+]] = %[[INIT]]) -> (!ttg.async.token)
// CHECK-NEXT: %[[MMA:.+]] = ttng.tc_gen5_mma %arg0, %arg1, %[[M]][%[[ARG]]], %true, %true
// CHECK-NEXT: scf.yield %[[MMA]] : !ttg.async.token
// CHECK: %[[V:.+]], %{{.+}} = ttng.tmem_load %[[M]][%[[R]]]
// CHECK: tt.return %[[V]]

// A select that resets the accumulator becomes a predicated store.
// CHECK-LABEL: @reset_on_condition
// CHECK: scf.for
// CHECK: %[[MMA:.+]] = ttng.tc_gen5_mma
// CHECK-NEXT: %[[NOT:.+]] = arith.xori %arg3, %true
// CHECK-NEXT: %[[S:.+]] = ttng.tmem_store %cst, %{{.+}}[%[[MMA]]], %[[NOT]]
// CHECK-NEXT: scf.yield %[[S]]

// The load sinks into the epilogue's scf.if, which yields its token.
// CHECK-LABEL: @epilogue_in_if
// CHECK: scf.for
// CHECK: %[[MMA:.+]] = ttng.tc_gen5_mma
// CHECK: %[[C:.+]] = arith.cmpi eq
// CHECK: %[[TOK:.+]] = scf.if %[[C]] -> (!ttg.async.token) {
// CHECK-NEXT: %[[V:.+]], %[[LT:.+]] = ttng.tmem_load %{{.+}}[%[[MMA]]]
// CHECK-NEXT: tt.store %arg3, %[[V]]
// CHECK-NEXT: scf.yield %[[LT]]
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[MMA]]
// CHECK: ttng.tmem_store %cst, %{{.+}}[%[[TOK]]], %[[C]]

// An immutable operand of a loop-invariant value leaves the loop with the
// pure op that feeds it.
// CHECK-LABEL: @invariant_operand
// CHECK: arith.negf
// CHECK-NEXT: ttng.tmem_alloc %{{.+}} : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16
// CHECK: scf.for
// CHECK-NOT: ttng.tmem_alloc
// CHECK: scf.yield

#bl = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @accumulate(%a: !ttg.memdesc<128x64xf16, #sh, #smem>, %b: !ttg.memdesc<64x128xf16, #sh, #smem>, %n: i32) -> tensor<128x128xf32, #bl> {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #bl>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #bl>) : i32 {
      %m, %t0 = ttng.tmem_alloc %acc : (tensor<128x128xf32, #bl>) -> (!ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %t1 = ttng.tc_gen5_mma %a, %b, %m[%t0], %true, %true : !ttg.memdesc<128x64xf16, #sh, #smem>, !ttg.memdesc<64x128xf16, #sh, #smem>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
      %v, %t2 = ttng.tmem_load %m[%t1] : !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #bl>
      scf.yield %v : tensor<128x128xf32, #bl>
    }
    tt.return %r : tensor<128x128xf32, #bl>
  }

  tt.func @reset_on_condition(%a: !ttg.memdesc<128x64xf16, #sh, #smem>, %b: !ttg.memdesc<64x128xf16, #sh, #smem>, %n: i32, %p: i1) -> tensor<128x128xf32, #bl> {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #bl>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #bl>) : i32 {
      %m, %t0 = ttng.tmem_alloc %acc : (tensor<128x128xf32, #bl>) -> (!ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %t1 = ttng.tc_gen5_mma %a, %b, %m[%t0], %true, %true : !ttg.memdesc<128x64xf16, #sh, #smem>, !ttg.memdesc<64x128xf16, #sh, #smem>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
      %v, %t2 = ttng.tmem_load %m[%t1] : !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #bl>
      %next = arith.select %p, %v, %zero : tensor<128x128xf32, #bl>
      scf.yield %next : tensor<128x128xf32, #bl>
    }
    tt.return %r : tensor<128x128xf32, #bl>
  }

  tt.func @epilogue_in_if(%a: !ttg.memdesc<128x64xf16, #sh, #smem>, %b: !ttg.memdesc<64x128xf16, #sh, #smem>, %n: i32, %out: tensor<128x128x!tt.ptr<f32>, #bl>) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c7 = arith.constant 7 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #bl>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #bl>) : i32 {
      %m, %t0 = ttng.tmem_alloc %acc : (tensor<128x128xf32, #bl>) -> (!ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %t1 = ttng.tc_gen5_mma %a, %b, %m[%t0], %true, %true : !ttg.memdesc<128x64xf16, #sh, #smem>, !ttg.memdesc<64x128xf16, #sh, #smem>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
      %v, %t2 = ttng.tmem_load %m[%t1] : !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #bl>
      %last = arith.cmpi eq, %i, %c7 : i32
      scf.if %last {
        tt.store %out, %v : tensor<128x128x!tt.ptr<f32>, #bl>
      }
      %next = arith.select %last, %zero, %v : tensor<128x128xf32, #bl>
      scf.yield %next : tensor<128x128xf32, #bl>
    }
    tt.return
  }

  tt.func @invariant_operand(%x: tensor<128x64xf16, #bl>, %b: !ttg.memdesc<64x128xf16, #sh, #smem>, %n: i32) -> tensor<128x128xf32, #bl> {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #bl>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #bl>) : i32 {
      %neg = arith.negf %x : tensor<128x64xf16, #bl>
      %am = ttng.tmem_alloc %neg : (tensor<128x64xf16, #bl>) -> !ttg.memdesc<128x64xf16, #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>, #ttng.tensor_memory>
      %m, %t0 = ttng.tmem_alloc %acc : (tensor<128x128xf32, #bl>) -> (!ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %t1 = ttng.tc_gen5_mma %am, %b, %m[%t0], %true, %true : !ttg.memdesc<128x64xf16, #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>, #ttng.tensor_memory>, !ttg.memdesc<64x128xf16, #sh, #smem>, !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
      %v, %t2 = ttng.tmem_load %m[%t1] : !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #bl>
      scf.yield %v : tensor<128x128xf32, #bl>
    }
    tt.return %r : tensor<128x128xf32, #bl>
  }
}


// -----

// With hoist-out-of-if, a store that initializes an allocation folds into
// it first, and an allocation's value just loaded from a same-typed buffer
// reuses the buffer.
// IF-LABEL: @alloc_in_if
// IF: scf.if %arg0 -> (tensor<128x128xf32, #blocked>) {
// IF-NEXT: %[[M:.+]], %[[T:.+]] = ttng.tmem_alloc : () ->
// IF-NEXT: %[[S:.+]] = ttng.tmem_store %arg2, %[[M]][%[[T]]], %true
// IF-NEXT: ttng.tmem_load %[[M]][%[[S]]]
// IF-LABEL: @reload_into_alloc
// IF-NEXT: tt.return %arg0, %arg1
// CHECK-LABEL: @reload_into_alloc
// CHECK: ttng.tmem_load
// CHECK: ttng.tmem_alloc : ()
// CHECK: ttng.tmem_store

#bl = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @alloc_in_if(%p: i1, %init: tensor<128x128xf32, #bl>, %x: tensor<128x128xf32, #bl>) -> tensor<128x128xf32, #bl> {
    %true = arith.constant true
    %r = scf.if %p -> (tensor<128x128xf32, #bl>) {
      %m, %t0 = ttng.tmem_alloc %init : (tensor<128x128xf32, #bl>) -> (!ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
      %t1 = ttng.tmem_store %x, %m[%t0], %true : tensor<128x128xf32, #bl> -> !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>
      %v, %t2 = ttng.tmem_load %m[%t1] : !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #bl>
      scf.yield %v : tensor<128x128xf32, #bl>
    } else {
      scf.yield %init : tensor<128x128xf32, #bl>
    }
    tt.return %r : tensor<128x128xf32, #bl>
  }

  tt.func @reload_into_alloc(%m0: !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, %t: !ttg.async.token) -> (!ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token) {
    %v, %t1 = ttng.tmem_load %m0[%t] : !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #bl>
    %m, %t2 = ttng.tmem_alloc %v : (tensor<128x128xf32, #bl>) -> (!ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token)
    tt.return %m, %t2 : !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory, mutable>, !ttg.async.token
  }
}
