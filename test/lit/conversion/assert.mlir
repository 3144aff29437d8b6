// RUN: tt-opt %s --convert-triton-gpu-to-llvm | FileCheck %s

// convert-triton-gpu-to-llvm: tt.assert. A thread with any false element
// branches to a block calling __assertfail(message, file, line, function,
// 1); the ops after the assert continue in a new block, after a barrier.

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: llvm.mlir.global internal constant @assertMessage_0("x must be positive\00")
  // CHECK-DAG: llvm.mlir.global internal constant @assertFile_0("kernels.py\00")
  // CHECK-DAG: llvm.mlir.global internal constant @assertFunc_0("unknown\00")
  // CHECK-DAG: llvm.mlir.global internal constant @assertMessage_1("scalar\00")
  // CHECK-DAG: llvm.mlir.global internal constant @assertFile_1("lib.py\00")
  // CHECK-DAG: llvm.mlir.global internal constant @assertFile_2("unknown\00")
  // CHECK-DAG: llvm.mlir.global internal constant @assertMessage_3("\00")
  // CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)

  // CHECK-LABEL: llvm.func @check
  // CHECK: %[[F0:.*]] = llvm.icmp "eq" %[[C0:.*]], %{{.*}} : i1
  // CHECK: %[[F1:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i1
  // CHECK: %[[ANY:.*]] = llvm.or %[[F0]], %[[F1]] : i1
  // CHECK: llvm.cond_br %[[ANY]], ^[[FAIL:.*]], ^[[NEXT:.*]]
  // CHECK: ^[[FAIL]]:
  // CHECK: %[[LINE:.*]] = llvm.mlir.constant(7 : i32) : i32
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
  // CHECK: llvm.call @__assertfail(%{{.*}}, %{{.*}}, %[[LINE]], %{{.*}}, %[[ONE]]) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) -> ()
  // CHECK: llvm.br ^[[NEXT]]
  // CHECK: ^[[NEXT]]:
  // CHECK: nvvm.barrier0
  // CHECK: st.global
  // CHECK: llvm.return
  tt.func public @check(%p: !tt.ptr<i32>, %v: i32) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %z = arith.constant dense<0> : tensor<256xi32, #blocked>
    %c = arith.cmpi sgt, %r, %z : tensor<256xi32, #blocked>
    tt.assert %c, "x must be positive" : tensor<256xi1, #blocked> loc("kernels.py":7:4)
    tt.store %p, %v : !tt.ptr<i32>
    tt.return
  }

  // A scalar condition; a named location's file and line; no location; an
  // empty message (tl.device_assert's default).
  // CHECK-LABEL: llvm.func @scalar
  // CHECK: llvm.cond_br
  // CHECK: llvm.mlir.constant(3 : i32) : i32
  // CHECK: llvm.call @__assertfail
  // CHECK: llvm.cond_br
  // CHECK: llvm.mlir.constant(0 : i32) : i32
  // CHECK: llvm.call @__assertfail
  // CHECK: llvm.mlir.addressof @assertMessage_3
  // CHECK: llvm.call @__assertfail
  tt.func public @scalar(%c: i1) {
    tt.assert %c, "scalar" : i1 loc("cond"("lib.py":3:1))
    tt.assert %c, "scalar" : i1 loc(unknown)
    tt.assert %c, "" : i1 loc(unknown)
    tt.return
  }
}
