// RUN: tt-opt %s --split-input-file --convert-triton-gpu-to-llvm="compute-capability=90 ptx-version=87" | FileCheck %s
// RUN: tt-opt %s --split-input-file --convert-triton-gpu-to-llvm | FileCheck %s --check-prefix=SM80

// convert-triton-gpu-to-llvm: tt.atomic_rmw and tt.atomic_cas as predicated
// atom.global inline PTX. Vector float adds on sm_90 with PTX 8.1 or later
// (4 contiguous, aligned f32 elements), scalar atomics on thread 0, the result of a used scalar atomic
// broadcast through its shared scratch, replicated elements updated once.

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#rep = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttg.shared" = 16 : i32} {
  // CHECK-LABEL: llvm.func @vector_fadd
  // CHECK: mov.u32 $0, 0x0;\0A\09mov.u32 $1, 0x0;\0A\09mov.u32 $2, 0x0;\0A\09mov.u32 $3, 0x0;\0A\09@$9 atom.global.gpu.acq_rel.add.v4.f32 { $0, $1, $2, $3 }, [ $4 + 0 ], { $5, $6, $7, $8 };
  // CHECK-SAME: "=r,=r,=r,=r,l,r,r,r,r,b"
  // CHECK-NOT: atom.global
  // CHECK: llvm.return
  // Before Hopper: one scalar atom per element.
  // SM80-LABEL: llvm.func @vector_fadd
  // SM80-COUNT-4: "mov.u32 $0, 0x0;\0A\09@$3 atom.global.gpu.acq_rel.add.f32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"
  // SM80-NOT: atom.global
  // SM80: llvm.return
  tt.func public @vector_fadd(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %v: f32) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %a = tt.addptr %s, %r : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %x = tt.splat %v : f32 -> tensor<512xf32, #blocked>
    %m = arith.constant dense<true> : tensor<512xi1, #blocked>
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %a, %x, %m : (tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xf32, #blocked>, tensor<512xi1, #blocked>) -> tensor<512xf32, #blocked>
    tt.return
  }

  // Every kind on a scalar: thread 0 only (tid == 0 and the mask).
  // CHECK-LABEL: llvm.func @scalar_kinds
  // CHECK: %[[RAW:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[TID:.*]] = llvm.and %[[RAW]]
  // CHECK: llvm.icmp "eq" %[[TID]]
  // CHECK: "mov.u32 $0, 0x0;\0A\09@$3 atom.global.gpu.relaxed.and.b32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"
  // CHECK: atom.global.cta.acquire.or.b32
  // CHECK: atom.global.sys.release.xor.b32
  // CHECK: atom.global.gpu.acq_rel.add.u32
  // CHECK: "mov.u64 $0, 0x0;\0A\09@$3 atom.global.gpu.acq_rel.add.u64 $0, [ $1 + 0 ], $2;", "=l,l,l,b"
  // CHECK: atom.global.gpu.acq_rel.add.f32
  // CHECK: "mov.u16 $0, 0x0;\0A\09@$3 atom.global.gpu.acq_rel.add.noftz.f16 $0, [ $1 + 0 ], $2;", "=h,l,h,b"
  // CHECK: atom.global.gpu.acq_rel.max.s32
  // CHECK: atom.global.gpu.acq_rel.min.s32
  // CHECK: atom.global.gpu.acq_rel.max.u32
  // CHECK: atom.global.gpu.acq_rel.min.u32
  // CHECK: atom.global.gpu.acq_rel.exch.b32
  // CHECK: "mov.u32 $0, 0x0;\0A\09@$4 atom.global.acq_rel.gpu.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r,b"
  // An exchange of floats moves their bits (Triton's b32 / b64).
  // CHECK: "mov.u32 $0, 0x0;\0A\09@$3 atom.global.gpu.acq_rel.exch.b32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"
  // So do and, or and xor of floats, on their bit patterns.
  // CHECK: "mov.u32 $0, 0x0;\0A\09@$3 atom.global.gpu.acq_rel.and.b32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"
  // CHECK: "mov.u64 $0, 0x0;\0A\09@$3 atom.global.gpu.relaxed.xor.b64 $0, [ $1 + 0 ], $2;", "=l,l,l,b"
  tt.func public @scalar_kinds(%p: !tt.ptr<i32>, %q: !tt.ptr<i64>, %f: !tt.ptr<f32>, %h: !tt.ptr<f16>, %d: !tt.ptr<f64>, %v: i32, %w: i64, %x: f32, %y: f16, %z: f64, %m: i1) {
    %0 = tt.atomic_rmw and, relaxed, gpu, %p, %v, %m : (!tt.ptr<i32>, i32, i1) -> i32
    %1 = tt.atomic_rmw or, acquire, cta, %p, %v, %m : (!tt.ptr<i32>, i32, i1) -> i32
    %2 = tt.atomic_rmw xor, release, sys, %p, %v, %m : (!tt.ptr<i32>, i32, i1) -> i32
    %3 = tt.atomic_rmw add, acq_rel, gpu, %p, %v, %m : (!tt.ptr<i32>, i32, i1) -> i32
    %4 = tt.atomic_rmw add, acq_rel, gpu, %q, %w, %m : (!tt.ptr<i64>, i64, i1) -> i64
    %5 = tt.atomic_rmw fadd, acq_rel, gpu, %f, %x, %m : (!tt.ptr<f32>, f32, i1) -> f32
    %6 = tt.atomic_rmw fadd, acq_rel, gpu, %h, %y, %m : (!tt.ptr<f16>, f16, i1) -> f16
    %7 = tt.atomic_rmw max, acq_rel, gpu, %p, %v, %m : (!tt.ptr<i32>, i32, i1) -> i32
    %8 = tt.atomic_rmw min, acq_rel, gpu, %p, %v, %m : (!tt.ptr<i32>, i32, i1) -> i32
    %9 = tt.atomic_rmw umax, acq_rel, gpu, %p, %v, %m : (!tt.ptr<i32>, i32, i1) -> i32
    %10 = tt.atomic_rmw umin, acq_rel, gpu, %p, %v, %m : (!tt.ptr<i32>, i32, i1) -> i32
    %11 = tt.atomic_rmw exch, acq_rel, gpu, %p, %v, %m : (!tt.ptr<i32>, i32, i1) -> i32
    %12 = tt.atomic_cas acq_rel, gpu, %p, %v, %v : (!tt.ptr<i32>, i32, i32) -> i32
    %13 = tt.atomic_rmw exch, acq_rel, gpu, %f, %x, %m : (!tt.ptr<f32>, f32, i1) -> f32
    %14 = tt.atomic_rmw and, acq_rel, gpu, %f, %x, %m : (!tt.ptr<f32>, f32, i1) -> f32
    %15 = tt.atomic_rmw xor, relaxed, gpu, %d, %z, %m : (!tt.ptr<f64>, f64, i1) -> f64
    tt.return
  }

  // A used scalar result: thread 0 stores it to the scratch, a barrier,
  // every thread loads it.
  // CHECK-LABEL: llvm.func @scalar_result
  // CHECK: %[[OLD:.*]] = llvm.inline_asm {{.*}}atom.global.gpu.acq_rel.add.u32
  // CHECK: %[[SCRATCH:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: llvm.inline_asm {{.*}}"@$2 st.shared.b32 [ $0 + 0 ], $1;", "l,r,b" %[[SCRATCH]], %[[OLD]]
  // CHECK: nvvm.barrier0
  // CHECK: %[[NEW:.*]] = llvm.load %[[SCRATCH]] : !llvm.ptr<3> -> i32
  // CHECK: atom.global.gpu.acq_rel.add.u32 {{.*}}, %[[NEW]]
  tt.func public @scalar_result(%p: !tt.ptr<i32>, %v: i32, %m: i1) {
    %0 = tt.atomic_rmw add, acq_rel, gpu, %p, %v, %m {allocation.offset = 8 : i32} : (!tt.ptr<i32>, i32, i1) -> i32
    %1 = tt.atomic_rmw add, acq_rel, gpu, %p, %0, %m : (!tt.ptr<i32>, i32, i1) -> i32
    tt.return
  }

  // A 64-element tensor over 128 threads: lanes 64.. hold copies (warp bit 1
  // is free), so they are masked off; one scalar access per thread.
  // CHECK-LABEL: llvm.func @replicated
  // CHECK: %[[WARP:.*]] = llvm.lshr %{{.*}}, %{{.*}} : i32
  // CHECK: %[[FREE:.*]] = llvm.and %[[WARP]], %{{.*}} : i32
  // CHECK: %[[OWNER:.*]] = llvm.icmp "eq" %[[FREE]]
  // CHECK: llvm.inline_asm {{.*}}atom.global.gpu.acq_rel.max.u32 {{.*}}, %[[OWNER]] :
  // CHECK-NOT: atom.global
  // CHECK: llvm.return
  tt.func public @replicated(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %v: i32) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #rep>
    %s = tt.splat %p : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #rep>
    %a = tt.addptr %s, %r : tensor<64x!tt.ptr<i32>, #rep>, tensor<64xi32, #rep>
    %x = tt.splat %v : i32 -> tensor<64xi32, #rep>
    %0 = tt.atomic_rmw umax, acq_rel, gpu, %a, %x : (tensor<64x!tt.ptr<i32>, #rep>, tensor<64xi32, #rep>) -> tensor<64xi32, #rep>
    tt.return
  }
}

// -----

// A used tensor result whose layout repeats elements across lanes and warps
// (4x1 over 128 threads): the four owners run the atomic and write their
// results to the op's scratch, every thread reads its element back (Triton's
// test_tensor_atomic_use_result, which returned zeros in the threads that
// did not run the atomic before).
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttg.shared" = 16 : i32} {
  // CHECK-LABEL: llvm.func @used_repeated_result
  // CHECK: atom.global.gpu.relaxed.add.u32
  // CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "l,r,b"
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK: llvm.return
  tt.func public @used_repeated_result(%p: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #ttg.slice<{dim = 1, parent = #col}>>
    %i = tt.expand_dims %r {axis = 1 : i32} : tensor<4xi32, #ttg.slice<{dim = 1, parent = #col}>> -> tensor<4x1xi32, #col>
    %s = tt.splat %p : !tt.ptr<i32> -> tensor<4x1x!tt.ptr<i32>, #col>
    %a = tt.addptr %s, %i : tensor<4x1x!tt.ptr<i32>, #col>, tensor<4x1xi32, #col>
    %m = arith.constant dense<true> : tensor<4x1xi1, #col>
    %old = tt.atomic_rmw add, relaxed, gpu, %a, %i, %m {allocation.offset = 0 : i32} : (tensor<4x1x!tt.ptr<i32>, #col>, tensor<4x1xi32, #col>, tensor<4x1xi1, #col>) -> tensor<4x1xi32, #col>
    %o = tt.splat %out : !tt.ptr<i32> -> tensor<4x1x!tt.ptr<i32>, #col>
    %q = tt.addptr %o, %old : tensor<4x1x!tt.ptr<i32>, #col>, tensor<4x1xi32, #col>
    tt.store %q, %i : tensor<4x1x!tt.ptr<i32>, #col>
    tt.return
  }
}

// -----

// Before sm_90 (by the module's target, as Triton decides) PTX has no bf16
// atomic add: LLVM's atomicrmw does it (a compare-and-swap loop), in a
// block the thread's predicate branches to; the old value comes back as
// the next block's argument.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @bf16_add_sm80
// CHECK: %[[SKIP:.*]] = llvm.mlir.poison : bf16
// CHECK: llvm.cond_br %{{.*}}, ^[[ADD:.*]], ^[[JOIN:.*]](%[[SKIP]] : bf16)
// CHECK: ^[[ADD]]:
// CHECK-NEXT: %[[OLD:.*]] = llvm.atomicrmw fadd %{{.*}}, %{{.*}} syncscope("device") acq_rel : !llvm.ptr<1>, bf16
// CHECK-NEXT: llvm.br ^[[JOIN]](%[[OLD]] : bf16)
// CHECK: ^[[JOIN]](%{{.*}}: bf16):
// CHECK-NOT: atom.global
  tt.func public @bf16_add_sm80(%p: !tt.ptr<bf16>, %v: bf16) {
    %true = arith.constant true
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %true : (!tt.ptr<bf16>, bf16, i1) -> bf16
    tt.return
  }
}

// -----

// A scalar addition of zero with relaxed or acquire semantics reads
// without writing: nvg.ld_acquire with the op's semantic and scope, under
// the thread-0 predicate; its result travels through the shared scratch
// as any scalar atomic's. Other semantics, non-zero values and tensors
// stay atomics.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttg.shared" = 16 : i32} {
  // CHECK-LABEL: llvm.func @load_by_adding_zero
  tt.func public @load_by_adding_zero(%p: !tt.ptr<f32>, %q: !tt.ptr<i32>, %m: i1) {
    %zero = arith.constant 0.000000e+00 : f32
    %negzero = arith.constant -0.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    %izero = arith.constant 0 : i32
    // CHECK: nvg.ld_acquire acquire, gpu, %arg0, %{{.*}} : (!llvm.ptr<1>) -> f32
    // CHECK: st.shared.b32
    // CHECK: nvvm.barrier0
    %0 = tt.atomic_rmw fadd, acquire, gpu, %p, %zero, %m {allocation.offset = 0 : i32} : (!tt.ptr<f32>, f32, i1) -> f32
    // CHECK: nvg.ld_acquire relaxed, sys, %arg0
    %1 = tt.atomic_rmw fadd, relaxed, sys, %p, %negzero {allocation.offset = 0 : i32} : (!tt.ptr<f32>, f32) -> f32
    // CHECK: nvg.ld_acquire acquire, cta, %arg1, %{{.*}} : (!llvm.ptr<1>) -> i32
    %2 = tt.atomic_rmw add, acquire, cta, %q, %izero {allocation.offset = 0 : i32} : (!tt.ptr<i32>, i32) -> i32
    // CHECK-NOT: nvg.ld_acquire
    // CHECK: atom.global.gpu.acq_rel.add.f32
    %3 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %zero {allocation.offset = 0 : i32} : (!tt.ptr<f32>, f32) -> f32
    // CHECK: atom.global.gpu.acquire.add.f32
    %4 = tt.atomic_rmw fadd, acquire, gpu, %p, %one {allocation.offset = 0 : i32} : (!tt.ptr<f32>, f32) -> f32
    // CHECK: atom.global.gpu.acquire.max.s32
    %5 = tt.atomic_rmw max, acquire, gpu, %q, %izero {allocation.offset = 0 : i32} : (!tt.ptr<i32>, i32) -> i32
    %s = arith.addf %0, %1 : f32
    %t = arith.addf %3, %4 : f32
    %u = arith.addf %s, %t : f32
    %v = arith.addi %2, %5 : i32
    tt.store %p, %u : !tt.ptr<f32>
    tt.store %q, %v : !tt.ptr<i32>
    tt.return
  }
}

// -----

// f16 additions: vectors on sm_90 with PTX 8.1 or later; otherwise pairs
// (f16x2) where two contiguous, aligned elements allow, else single ones.
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @f16_adds
  // SM80-LABEL: llvm.func @f16_adds
  tt.func public @f16_adds(%p: tensor<256x!tt.ptr<f16>, #blocked> {tt.divisibility = 16 : i32, tt.contiguity = 16 : i32}, %v: tensor<256xf16, #blocked>, %m: tensor<256xi1, #blocked> {tt.constancy = 4 : i32}, %odd: tensor<256x!tt.ptr<f16>, #blocked>) {
    // CHECK-COUNT-2: atom.global.gpu.acq_rel.add.noftz.v4.f16 { $0, $1, $2, $3 }, [ $4 + 0 ], { $5, $6, $7, $8 };", "=h,=h,=h,=h,l,h,h,h,h,b"
    // SM80-COUNT-4: "mov.u32 $0, 0x0;\0A\09@$3 atom.global.gpu.acq_rel.add.noftz.f16x2 $0, [ $1 + 0 ], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %{{.*}} : (!llvm.ptr<1>, vector<2xf16>, i1) -> vector<2xf16>
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (tensor<256x!tt.ptr<f16>, #blocked>, tensor<256xf16, #blocked>, tensor<256xi1, #blocked>) -> tensor<256xf16, #blocked>
    // Unaligned pointers: one element at a time.
    // CHECK-COUNT-8: atom.global.gpu.relaxed.add.noftz.f16 $0
    // SM80-COUNT-8: atom.global.gpu.relaxed.add.noftz.f16 $0
    %1 = tt.atomic_rmw fadd, relaxed, gpu, %odd, %v : (tensor<256x!tt.ptr<f16>, #blocked>, tensor<256xf16, #blocked>) -> tensor<256xf16, #blocked>
    tt.return
  }
}
