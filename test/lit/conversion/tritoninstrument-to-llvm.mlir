// RUN: tt-opt %s --split-input-file --allocate-shared-memory --convert-triton-gpu-to-llvm | FileCheck %s

// The tti (instrumentation) ops in convert-triton-gpu-to-llvm.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // In a kernel, shared memory starts at @global_smem; each thread holds
  // element `tid % 128` and selects its offset.
  // CHECK-LABEL: llvm.func @buffer_pointers_kernel
  // CHECK: %[[SMEM:.+]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK: %[[BASE:.+]] = llvm.ptrtoint %[[SMEM]] : !llvm.ptr<3> to i64
  // CHECK: llvm.mlir.constant(0 : i64) : i64
  // CHECK: llvm.icmp "eq"
  // CHECK: llvm.mlir.constant(64 : i64) : i64
  // CHECK: llvm.select
  // CHECK: llvm.mlir.constant(192 : i64) : i64
  // CHECK: %[[OFF:.+]] = llvm.select
  // CHECK: llvm.add %[[BASE]], %[[OFF]] : i64
  tt.func public @buffer_pointers_kernel(%out: tensor<128x!tt.ptr<i64>, #blocked>) {
    %0 = tti.experimental_buffer_pointers [0, 64, 64, 192], shared_mem : tensor<4xi64, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func internal @buffer_pointers_tmem
  // CHECK: %[[TM:.+]] = nvg.tensor_memory_base
  // CHECK: %[[BASE:.+]] = llvm.ptrtoint %[[TM]] : !llvm.ptr<6> to i64
  // CHECK: llvm.add %[[BASE]]
  // CHECK: llvm.add %[[BASE]]
  tt.func private @buffer_pointers_tmem() {
    %0 = tti.experimental_buffer_pointers [0, 42], tensor_mem : tensor<2xi64, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // Only the first thread reports; the CTA meets at a barrier after.
  // CHECK-LABEL: llvm.func internal @assert_in_thread_all
  // CHECK: %[[E0:.+]] = llvm.extractvalue %arg0[0] : !llvm.struct<(i1, i1)>
  // CHECK: %[[E1:.+]] = llvm.extractvalue %arg0[1] : !llvm.struct<(i1, i1)>
  // CHECK: %[[INIT:.+]] = llvm.mlir.constant(true) : i1
  // CHECK: %[[A0:.+]] = llvm.and %[[INIT]], %[[E0]] : i1
  // CHECK: %[[A1:.+]] = llvm.and %[[A0]], %[[E1]] : i1
  // CHECK: %[[TRUE:.+]] = llvm.mlir.constant(true) : i1
  // CHECK: %[[NOT:.+]] = llvm.xor %[[A1]], %[[TRUE]] : i1
  // CHECK: %[[FIRST:.+]] = llvm.icmp "eq"
  // CHECK: %[[FAIL:.+]] = llvm.and %[[NOT]], %[[FIRST]] : i1
  // CHECK: llvm.cond_br %[[FAIL]], ^[[THEN:.+]], ^[[JOIN:.+]]
  // CHECK: ^[[THEN]]:
  // CHECK: llvm.call @__assertfail
  // CHECK: llvm.br ^[[JOIN]]
  // CHECK: ^[[JOIN]]:
  // CHECK-NEXT: nvvm.barrier0
  tt.func private @assert_in_thread_all(%condition: tensor<2xi1, #blocked>) {
    tti.experimental_assert_in_thread %condition, "all" {check_any = false} : tensor<2xi1, #blocked>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func internal @assert_in_thread_scalar
  // CHECK: %[[INIT:.+]] = llvm.mlir.constant(false) : i1
  // CHECK: llvm.or %[[INIT]], %arg0 : i1
  // CHECK: llvm.call @__assertfail
  tt.func private @assert_in_thread_scalar(%condition: i1) {
    tti.experimental_assert_in_thread %condition, "scalar" {check_any = true} : i1
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // Thread 0 spins on the compare-and-swap while the predicate holds; the
  // CTA then waits for it.
  // CHECK-LABEL: llvm.func internal @lock_acquire
  // CHECK: %[[RAW:.+]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: %[[TID:.+]] = llvm.and %[[RAW]]
  // CHECK: %[[FIRST:.+]] = llvm.icmp "eq" %[[TID]]
  // CHECK: %[[ELECT:.+]] = llvm.and %[[FIRST]], %arg1 : i1
  // CHECK: llvm.cond_br %[[ELECT]], ^[[SPIN:.+]], ^[[DONE:.+]]
  // CHECK: ^[[SPIN]]:
  // CHECK: %[[OLD:.+]] = llvm.inline_asm has_side_effects {{.*}}"mov.u32 $0, 0x0;\0A\09atom.global.acquire.gpu.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r" %arg0
  // CHECK: %[[HELD:.+]] = llvm.icmp "ne" %[[OLD]]
  // CHECK: llvm.cond_br %[[HELD]], ^[[SPIN]], ^[[DONE]]
  // CHECK: ^[[DONE]]:
  // CHECK-NEXT: nvvm.barrier0
  tt.func private @lock_acquire(%lock: !tt.ptr<i32>, %pred: i1) {
    tti.experimental_lock_acquire %lock, %pred : !tt.ptr<i32>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // Without a predicate the release is unconditional: a barrier, then
  // thread 0's exchange.
  // CHECK-LABEL: llvm.func internal @lock_release
  // CHECK-NOT: llvm.cond_br
  // CHECK: nvvm.barrier0
  // CHECK: %[[FIRST:.+]] = llvm.icmp "eq"
  // CHECK: llvm.inline_asm has_side_effects {{.*}}"mov.u32 $0, 0x0;\0A\09@$3 atom.global.gpu.acq_rel.exch.b32 $0, [ $1 + 0 ], $2;", "=r,l,r,b" %arg0, %{{.+}}, %[[FIRST]]
  // CHECK-NEXT: llvm.return
  tt.func private @lock_release(%lock: !tt.ptr<i32>) {
    tti.experimental_lock_release %lock : !tt.ptr<i32>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: llvm.func internal @lock_release_pred
  // CHECK: llvm.cond_br %arg1, ^[[REL:.+]], ^[[JOIN:.+]]
  // CHECK: ^[[REL]]:
  // CHECK-NEXT: nvvm.barrier0
  // CHECK: atom.global.gpu.acq_rel.exch.b32
  // CHECK: llvm.br ^[[JOIN]]
  tt.func private @lock_release_pred(%lock: !tt.ptr<i32>, %pred: i1) {
    tti.experimental_lock_release %lock, %pred : !tt.ptr<i32>
    tt.return
  }
}

// -----

// A memory descriptor's base address as an integer.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @memdesc_to_int
  tt.func public @memdesc_to_int(%out: !tt.ptr<i64>, %out32: !tt.ptr<i32>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32xi32, #shared, #smem, mutable>
    // CHECK: %[[BASE:.*]] = llvm.getelementptr %{{.*}} : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    // CHECK: llvm.ptrtoint %[[BASE]] : !llvm.ptr<3> to i64
    %a = tti.experimental_memdesc_to_i64 %buf : !ttg.memdesc<32xi32, #shared, #smem, mutable>
    // CHECK: llvm.ptrtoint %[[BASE]] : !llvm.ptr<3> to i32
    %b = tti.experimental_memdesc_to_i32 %buf : !ttg.memdesc<32xi32, #shared, #smem, mutable>
    tt.store %out, %a : !tt.ptr<i64>
    tt.store %out32, %b : !tt.ptr<i32>
    tt.return
  }
}
