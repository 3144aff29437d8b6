// convert-triton-gpu-to-llvm with compute-capability=90, as make_llir runs
// it on the H100: the paths that need sm_89 or sm_90. wgmma instructions
// and waits are left as nvg.wgmma and nvg.wgmma_wait_group, as Triton
// leaves them (convert-nv-gpu-to-llvm: nvgpu-to-llvm.mlir).
// RUN: tt-opt %s --split-input-file --verify-diagnostics=only-expected --convert-triton-gpu-to-llvm='compute-capability=90' | FileCheck %s

// tt.fp_to_fp with 8-bit floats (carried as i8) on sm_89 and later: the
// hardware's packed conversions, one element in the low half of each pair
// (fp8 to f16 by cvt.rn.f16x2.e4m3x2; f16 and f32 to fp8 rounded to
// nearest and saturated to the finite range); bf16 and f32 through f16 or
// f32 exactly. f32 to f16 toward zero is cvt.rz. |x| of an fp8 value
// clears its sign bit.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @fp8
// CHECK: %[[PAIR:.*]] = llvm.zext %{{.*}} : i8 to i16
// CHECK: %[[HALVES:.*]] = llvm.inline_asm asm_dialect = att operand_attrs = [] "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %[[PAIR]] : (i16) -> i32
// CHECK: %[[LOW:.*]] = llvm.trunc %[[HALVES]] : i32 to i16
// CHECK: %[[HALF:.*]] = llvm.bitcast %[[LOW]] : i16 to f16
// CHECK: llvm.fpext %[[HALF]] : f16 to f32
// CHECK: "cvt.rn.f16x2.e5m2x2 $0, $1;", "=r,h"
// CHECK: llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK: "cvt.rn.satfinite.e5m2x2.f16x2 $0, $1;", "=h,r"
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[BITS:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[PACKED:.*]] = llvm.inline_asm asm_dialect = att operand_attrs = [] "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,r,r" %[[ZERO]], %[[BITS]] : (i32, i32) -> i16
// CHECK: llvm.trunc %[[PACKED]] : i16 to i8
// CHECK: llvm.fpext %{{.*}} : bf16 to f32
// CHECK: "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,r,r"
// CHECK: %[[SEVEN:.*]] = llvm.mlir.constant(127 : i8) : i8
// CHECK: llvm.and %{{.*}}, %[[SEVEN]] : i8
// CHECK: "cvt.rz.f16.f32 $0, $1;", "=h,r"
// CHECK: "cvt.rz.bf16.f32 $0, $1;", "=h,r"
// To e5m2 toward zero: the high byte of an f16 rounded toward zero.
// CHECK: %[[RZ:.*]] = llvm.inline_asm {{.*}} "cvt.rz.f16.f32 $0, $1;", "=h,r"
// CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i16) : i16
// CHECK: %[[HIGH:.*]] = llvm.lshr %[[RZ]], %[[EIGHT]] : i16
// CHECK: llvm.trunc %[[HIGH]] : i16 to i8
  tt.func public @fp8(%p: !tt.ptr<f32>, %q: !tt.ptr<f16>, %r: !tt.ptr<bf16>, %p4: !tt.ptr<f8E4M3FN>, %p5: !tt.ptr<f8E5M2>) {
    %range = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %range : tensor<32x!tt.ptr<f32>, #blocked>, tensor<32xi32, #blocked>
    %qs = tt.splat %q : !tt.ptr<f16> -> tensor<32x!tt.ptr<f16>, #blocked>
    %qp = tt.addptr %qs, %range : tensor<32x!tt.ptr<f16>, #blocked>, tensor<32xi32, #blocked>
    %rs = tt.splat %r : !tt.ptr<bf16> -> tensor<32x!tt.ptr<bf16>, #blocked>
    %rp = tt.addptr %rs, %range : tensor<32x!tt.ptr<bf16>, #blocked>, tensor<32xi32, #blocked>
    %p4s = tt.splat %p4 : !tt.ptr<f8E4M3FN> -> tensor<32x!tt.ptr<f8E4M3FN>, #blocked>
    %p4p = tt.addptr %p4s, %range : tensor<32x!tt.ptr<f8E4M3FN>, #blocked>, tensor<32xi32, #blocked>
    %p5s = tt.splat %p5 : !tt.ptr<f8E5M2> -> tensor<32x!tt.ptr<f8E5M2>, #blocked>
    %p5p = tt.addptr %p5s, %range : tensor<32x!tt.ptr<f8E5M2>, #blocked>, tensor<32xi32, #blocked>
    %e4 = tt.load %p4p : tensor<32x!tt.ptr<f8E4M3FN>, #blocked>
    %e5 = tt.load %p5p : tensor<32x!tt.ptr<f8E5M2>, #blocked>
    %h = tt.load %qp : tensor<32x!tt.ptr<f16>, #blocked>
    %b = tt.load %rp : tensor<32x!tt.ptr<bf16>, #blocked>
    %f = tt.load %pp : tensor<32x!tt.ptr<f32>, #blocked>
    %0 = tt.fp_to_fp %e4 : tensor<32xf8E4M3FN, #blocked> -> tensor<32xf32, #blocked>
    tt.store %pp, %0 : tensor<32x!tt.ptr<f32>, #blocked>
    %1 = tt.fp_to_fp %e5 : tensor<32xf8E5M2, #blocked> -> tensor<32xbf16, #blocked>
    tt.store %rp, %1 : tensor<32x!tt.ptr<bf16>, #blocked>
    %2 = tt.fp_to_fp %h, rounding = rtne : tensor<32xf16, #blocked> -> tensor<32xf8E5M2, #blocked>
    %3 = tt.fp_to_fp %f, rounding = rtne : tensor<32xf32, #blocked> -> tensor<32xf8E4M3FN, #blocked>
    %4 = tt.fp_to_fp %b, rounding = rtne : tensor<32xbf16, #blocked> -> tensor<32xf8E4M3FN, #blocked>
    %5 = math.absf %4 : tensor<32xf8E4M3FN, #blocked>
    %6 = tt.fp_to_fp %5 : tensor<32xf8E4M3FN, #blocked> -> tensor<32xf16, #blocked>
    tt.store %qp, %6 : tensor<32x!tt.ptr<f16>, #blocked>
    %7 = tt.fp_to_fp %3 : tensor<32xf8E4M3FN, #blocked> -> tensor<32xf16, #blocked>
    tt.store %qp, %7 : tensor<32x!tt.ptr<f16>, #blocked>
    %8 = tt.fp_to_fp %2 : tensor<32xf8E5M2, #blocked> -> tensor<32xf16, #blocked>
    tt.store %qp, %8 : tensor<32x!tt.ptr<f16>, #blocked>
    %9 = tt.fp_to_fp %f, rounding = rtz : tensor<32xf32, #blocked> -> tensor<32xf16, #blocked>
    tt.store %qp, %9 : tensor<32x!tt.ptr<f16>, #blocked>
    %10 = tt.fp_to_fp %f, rounding = rtz : tensor<32xf32, #blocked> -> tensor<32xbf16, #blocked>
    tt.store %rp, %10 : tensor<32x!tt.ptr<bf16>, #blocked>
    %11 = tt.fp_to_fp %f, rounding = rtz : tensor<32xf32, #blocked> -> tensor<32xf8E5M2, #blocked>
    tt.store %p5p, %11 : tensor<32x!tt.ptr<f8E5M2>, #blocked>
    tt.return
  }
}

// -----

// ttng.warp_group_dot: wgmma.mma_async from NVMMA shared memory through
// matrix descriptors. A (64x32, K-major, 64-byte swizzle): mode 2 (bit 63),
// stride offset 8 rows x 64 B; B (32x64, N-major, 128-byte swizzle): mode 1
// (bit 62), stride offset 1024 B, no leading offset (the 64 columns of a
// tile fit one 128-byte block, as Triton leaves it), trans-b = 1. The zero accumulator makes the first instruction
// take none (scale-d 0); the second adds into it. Synchronous: one commit
// and a wait whose operands are the 32 results.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 8192 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @wgmma
// CHECK: nvvm.shfl.sync idx
// The NVMMA addressing of the stores divides by powers of two only: shifts
// and masks, no division left for LLVM to strength-reduce.
// CHECK-NOT: llvm.udiv
// CHECK-NOT: llvm.urem
// CHECK: llvm.lshr
// CHECK-NOT: llvm.udiv
// CHECK-NOT: llvm.urem
// CHECK: "fence.proxy.async.shared::cta;", ""
// CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
// CHECK: %[[MODE_B:.*]] = llvm.mlir.constant(4611686293305294848 : i64) : i64
// CHECK: llvm.or %{{.*}}, %[[MODE_B]] : i64
// CHECK: %[[MODE_A:.*]] = llvm.mlir.constant(-9223371899415822336 : i64) : i64
// CHECK: llvm.or %{{.*}}, %[[MODE_A]] : i64
// CHECK: nvvm.barrier0
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}} {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, k = 16 : i32, layoutA = 0 : i32, layoutB = 0 : i32, m = 64 : i32, n = 64 : i32} : (i64, i64, i1) -> !llvm.struct<(f32, {{.*}})>
// CHECK: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, k = 16 : i32, layoutA = 0 : i32, layoutB = 0 : i32, m = 64 : i32, n = 64 : i32} : (i64, i64, i1, !llvm.struct<(f32, {{.*}})>) -> !llvm.struct<(f32, {{.*}})>
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvg.wgmma_wait_group %{{.*}} {pendings = 0 : i32} : !llvm.struct<(f32, {{.*}})>
  tt.func public @wgmma() {
    %a = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked>
    %b = arith.constant dense<2.000000e+00> : tensor<32x64xf16, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %sa = ttg.local_alloc %a {allocation.offset = 0 : i32} : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %sb = ttg.local_alloc %b {allocation.offset = 4096 : i32} : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
    ttng.fence_async_shared {bCluster = false}
    %d = ttng.warp_group_dot %sa, %sb, %zero {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

// Sixteen warps on a 64-row tile (Triton's layout for a 64x64 dot with
// num_warps=16: warpsPerCTA [16, 1], 16-column instructions): the four warp
// groups wrap onto the tile's one 64-row block and compute it alike, so
// every A descriptor starts at row 0, four 16-column tiles per K step.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [16, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [16, 1], instrShape = [16, 16, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 16 : i32, ttg.shared = 8192 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @wgmma_wrapped_warp_groups
// CHECK-COUNT-8: nvg.wgmma {{.*}}m = 64 : i32, n = 16 : i32
// CHECK-NOT: nvg.wgmma
// CHECK: nvg.wgmma_wait_group
  tt.func public @wgmma_wrapped_warp_groups() {
    %a = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked>
    %b = arith.constant dense<2.000000e+00> : tensor<32x64xf16, #blocked1>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %sa = ttg.local_alloc %a {allocation.offset = 0 : i32} : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %sb = ttg.local_alloc %b {allocation.offset = 4096 : i32} : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
    ttng.fence_async_shared {bCluster = false}
    %d = ttng.warp_group_dot %sa, %sb, %zero {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

// Operands in shared linear layouts of core matrices (Gluon's unswizzled
// wgmma operands): eight 16-byte rows, 128 contiguous bytes, at two
// strides; descriptor mode 0, the leading field the stride along K and
// the stride field the one along M/N, as Triton's. A (64x32, K-major):
// rows 8 apart at 128 B (stride field 8), K cores at 1024 B (leading 64);
// the second K step starts 2048 B on (+128). B (32x64, N-major): K rows 8
// apart at 128 B (leading 8), N cores at 512 B (stride 32), trans-b; its
// second K step starts 16 rows on, 256 B (+16).
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#linear_a = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [0, 8], [0, 16]]}, alignment = 16>
#linear_b = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 8], [0, 16], [0, 32]]}, alignment = 16>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 8192 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @wgmma_core_matrices
// CHECK: %[[DESC_B:.*]] = llvm.mlir.constant(137439477760 : i64) : i64
// CHECK: %[[B:.*]] = llvm.or %{{.*}}, %[[DESC_B]] : i64
// CHECK: %[[DESC_A:.*]] = llvm.mlir.constant(34363932672 : i64) : i64
// CHECK: %[[A:.*]] = llvm.or %{{.*}}, %[[DESC_A]] : i64
// CHECK: nvg.wgmma %[[A]], %[[B]], %{{.*}} {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, k = 16 : i32, layoutA = 0 : i32, layoutB = 0 : i32, m = 64 : i32, n = 64 : i32}
// CHECK: %[[STEP_A:.*]] = llvm.mlir.constant(128 : i64) : i64
// CHECK: %[[A1:.*]] = llvm.add %[[A]], %[[STEP_A]] : i64
// CHECK: %[[STEP_B:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[B1:.*]] = llvm.add %[[B]], %[[STEP_B]] : i64
// CHECK: nvg.wgmma %[[A1]], %[[B1]], %{{.*}}, %{{.*}}
  tt.func public @wgmma_core_matrices() {
    %a = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked>
    %b = arith.constant dense<2.000000e+00> : tensor<32x64xf16, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %sa = ttg.local_alloc %a {allocation.offset = 0 : i32} : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #linear_a, #smem>
    %sb = ttg.local_alloc %b {allocation.offset = 4096 : i32} : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #linear_b, #smem>
    ttng.fence_async_shared {bCluster = false}
    %d = ttng.warp_group_dot %sa, %sb, %zero {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #linear_a, #smem> * !ttg.memdesc<32x64xf16, #linear_b, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

// A shared linear operand whose rows are not 16 bytes apart (row-major
// 64-byte rows) is no set of core matrices: refused.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#row_major = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]]}, alignment = 16>
#linear_b = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 8], [0, 16], [0, 32]]}, alignment = 16>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 8192 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wgmma_row_major_linear() {
    %a = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked>
    %b = arith.constant dense<2.000000e+00> : tensor<32x64xf16, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %sa = ttg.local_alloc %a {allocation.offset = 0 : i32} : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #row_major, #smem>
    %sb = ttg.local_alloc %b {allocation.offset = 4096 : i32} : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #linear_b, #smem>
    ttng.fence_async_shared {bCluster = false}
    // expected-error @+1 {{a wgmma operand whose shared layout is not core matrices at two strides is not supported yet}}
    %d = ttng.warp_group_dot %sa, %sb, %zero {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #row_major, #smem> * !ttg.memdesc<32x64xf16, #linear_b, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

// An asynchronous wgmma (isAsync) leaves its wait to ttng.warp_group_dot_wait,
// whose tensors pass through the wait's registers (memory descriptors pass
// on unchanged). tf32 (inputPrecision = tf32) takes K = 8, no transposes.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 8]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 12288 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @wgmma_async_tf32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: nvg.wgmma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltTypeA = 6 : i32, eltTypeB = 6 : i32, eltTypeC = 7 : i32, k = 8 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 32 : i32}
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvg.wgmma_wait_group
// CHECK: nvg.wgmma_wait_group %{{.*}} {pendings = 1 : i32} : !llvm.struct<(f32, {{.*}})>
  tt.func public @wgmma_async_tf32() {
    %acc = arith.constant dense<1.000000e+00> : tensor<64x32xf32, #mma>
    %a = arith.constant dense<1.000000e+00> : tensor<64x16xf32, #blocked>
    %b = arith.constant dense<2.000000e+00> : tensor<16x32xf32, #blocked1>
    %sa = ttg.local_alloc %a {allocation.offset = 0 : i32} : (tensor<64x16xf32, #blocked>) -> !ttg.memdesc<64x16xf32, #shared, #smem>
    %sb = ttg.local_alloc %b {allocation.offset = 8192 : i32} : (tensor<16x32xf32, #blocked1>) -> !ttg.memdesc<16x32xf32, #shared1, #smem>
    ttng.fence_async_shared {bCluster = false}
    %d = ttng.warp_group_dot %sa, %sb, %acc {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x16xf32, #shared, #smem> * !ttg.memdesc<16x32xf32, #shared1, #smem> -> tensor<64x32xf32, #mma>
    %w:2 = ttng.warp_group_dot_wait %d, %sa {pendings = 1 : i32} : tensor<64x32xf32, #mma>, !ttg.memdesc<64x16xf32, #shared, #smem>
    tt.return
  }
}

// -----

// Operand A in registers (a #ttg.dot_op of the wgmma layout, as attention
// loops leave it): four 32-bit registers per K step, two f16 each; no
// trans-a immediate. Asynchronous: one commit group for the K steps, as
// Triton's (ptxas keeps A's registers until the wgmmas reading them are
// waited on).
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 4096 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @wgmma_registers
// CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvg.wgmma {{.*}}layoutB = 1 : i32, m = 64 : i32, n = 64 : i32} : (!llvm.struct<(i32, i32, i32, i32)>, i64, i1, !llvm.struct<(f32, {{.*}})>)
// CHECK-NOT: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvg.wgmma {{.*}}m = 64 : i32, n = 64 : i32}
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvg.wgmma_wait_group %{{.*}} {pendings = 0 : i32}
  tt.func public @wgmma_registers() {
    %a = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = arith.constant dense<2.000000e+00> : tensor<32x64xf16, #blocked>
    %acc = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #mma>
    %sb = ttg.local_alloc %b {allocation.offset = 0 : i32} : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #shared, #smem>
    ttng.fence_async_shared {bCluster = false}
    %d = ttng.warp_group_dot %a, %sb, %acc {inputPrecision = 0 : i32, isAsync = true} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<32x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    %w = ttng.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

// K slices of a B operand (as attention loops and Triton's split of a wgmma
// with A in registers leave them): a 16x64 view of a transposed 64x64
// buffer starts 16 elements (32 bytes) into each swizzle row, the
// descriptor's start address 2 (32 >> 4) on; a subslice read otherwise is
// refused.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 8192 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @wgmma_k_slice
// CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK: %[[SLICE:.*]] = llvm.getelementptr %{{.*}}[%[[C32]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.ptrtoint %[[SLICE]]
// CHECK: nvg.wgmma
  tt.func public @wgmma_k_slice() {
    %a = arith.constant dense<1.000000e+00> : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %acc = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #mma>
    %sb = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %k1 = ttg.memdesc_subslice %sb[16, 0] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable, 64x64>
    %d = ttng.warp_group_dot %a, %k1, %acc {inputPrecision = 0 : i32, isAsync = true} : tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<16x64xf16, #shared, #smem, mutable, 64x64> -> tensor<64x64xf32, #mma>
    %w:2 = ttng.warp_group_dot_wait %d, %k1 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<16x64xf16, #shared, #smem, mutable, 64x64>
    tt.return
  }
}

// -----

// A K slice (rows 16 to 31) of a transposed NVMMA buffer, whose rows are
// its contiguous dimension and whose 128-byte swizzle spans all 64 of
// them, starts inside the swizzle: each element is at the slice's start
// (16 elements) XOR-ed with the buffer's offset of it, so the thread's
// offset is XOR-ed with 16 once, before it is scaled to bytes.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 8192 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @k_slice_loaded
  // CHECK: %[[START:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-NEXT: %[[AT:.*]] = llvm.xor %{{.*}}, %[[START]] : i32
  // CHECK: llvm.shl %[[AT]]
  // CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> f16
  // CHECK-NOT: llvm.load
  tt.func public @k_slice_loaded(%p: tensor<16x64x!tt.ptr<f16>, #blocked>) {
    %sb = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %k1 = ttg.memdesc_subslice %sb[16, 0] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<16x64xf16, #shared, #smem, mutable, 64x64>
    %t = ttg.local_load %k1 : !ttg.memdesc<16x64xf16, #shared, #smem, mutable, 64x64> -> tensor<16x64xf16, #blocked>
    tt.store %p, %t : tensor<16x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// A slice of whole swizzle patterns (rows 32 to 63 of a buffer whose
// pattern repeats every 8 rows) is a buffer of its own 32 rows on: its
// base moves by 32 x 64 elements and its accesses are the whole buffer's.
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 8192 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @row_slice_loaded
  // CHECK: %[[C:.*]] = llvm.mlir.constant(2048 : i32) : i32
  // CHECK-NEXT: %[[VIEW:.*]] = llvm.getelementptr %{{.*}}[%[[C]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
  // CHECK: llvm.getelementptr %[[VIEW]][
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
  tt.func public @row_slice_loaded(%p: tensor<32x64x!tt.ptr<f16>, #blocked>) {
    %sb = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %h = ttg.memdesc_subslice %sb[32, 0] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable, 64x64>
    %t = ttg.local_load %h : !ttg.memdesc<32x64xf16, #shared, #smem, mutable, 64x64> -> tensor<32x64xf16, #blocked>
    tt.store %p, %t : tensor<32x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Columns 32 to 63 of rows whose 8 vectors of 8 are XOR-ed with the row
// mod 8, and 16 columns of those from column 16: both start inside the
// swizzle pattern, at 32 and 48 elements. Stores and loads keep their 16
// bytes (the starts leave a vector's elements together).
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 8192 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @column_slices_inside_the_swizzle
  // CHECK: %[[START:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK-NEXT: llvm.xor %{{.*}}, %[[START]] : i32
  // CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
  // CHECK: %[[INNER:.*]] = llvm.mlir.constant(48 : i32) : i32
  // CHECK-NEXT: llvm.xor %{{.*}}, %[[INNER]] : i32
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
  tt.func public @column_slices_inside_the_swizzle(%p: tensor<64x32x!tt.ptr<f16>, #blocked>, %q: tensor<64x16x!tt.ptr<f16>, #blocked>) {
    %sb = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %h = ttg.memdesc_subslice %sb[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    %x = tt.load %p : tensor<64x32x!tt.ptr<f16>, #blocked>
    ttg.local_store %x, %h : tensor<64x32xf16, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    %i = ttg.memdesc_subslice %h[0, 16] : !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64> -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x64>
    %t = ttg.local_load %i : !ttg.memdesc<64x16xf16, #shared, #smem, mutable, 64x64> -> tensor<64x16xf16, #blocked>
    tt.store %q, %t : tensor<64x16x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// A transposed view of such a slice is the same elements with their
// dimensions swapped: the same start (32), XOR-ed into the thread's
// offset once.
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared_t = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#cols = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 8192 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @column_slice_transposed
  // CHECK: %[[START:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK-NEXT: llvm.xor %{{.*}}, %[[START]] : i32
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
  tt.func public @column_slice_transposed(%q: tensor<32x64x!tt.ptr<f16>, #cols>) {
    %sb = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %h = ttg.memdesc_subslice %sb[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    %t = ttg.memdesc_trans %h {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64> -> !ttg.memdesc<32x64xf16, #shared_t, #smem, mutable, 64x64>
    %v = ttg.local_load %t : !ttg.memdesc<32x64xf16, #shared_t, #smem, mutable, 64x64> -> tensor<32x64xf16, #cols>
    tt.store %q, %v : tensor<32x64x!tt.ptr<f16>, #cols>
    tt.return
  }
}

// -----

// cp.async into such a slice: 16-byte copies (the start, 32 elements,
// keeps each copy's 8 together), the thread's offset XOR-ed with it.
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 8192 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @column_slice_copied
  // CHECK: %[[START:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK-NEXT: llvm.xor %{{.*}}, %[[START]] : i32
  // CHECK-COUNT-2: "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x10, 0x10;"
  tt.func public @column_slice_copied(%p: tensor<64x32x!tt.ptr<f16>, #blocked> {tt.divisibility = 16 : i32, tt.contiguity = 32 : i32}) {
    %sb = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %h = ttg.memdesc_subslice %sb[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    %c = ttg.async_copy_global_to_local %p, %h : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable, 64x64>
    tt.return
  }
}

// -----

// Only local loads, stores and copies know where such a slice starts: a
// reinterpretation of it is refused.
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 8192 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @column_slice_reinterpreted() {
    %sb = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %h = ttg.memdesc_subslice %sb[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    // expected-error @+1 {{a 'ttg.memdesc_subslice' view that starts inside its buffer's swizzle pattern is only read and written by ttg.local_load, ttg.local_store and ttg.async_copy_global_to_local, whole, and viewed by ttg.memdesc_subslice and ttg.memdesc_trans yet}}
    %r = ttg.memdesc_reinterpret %h : !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64> -> !ttg.memdesc<2048xf16, #flat, #smem, mutable>
    tt.return
  }
}

// -----

// f64 on sm_90: m16n8k16 with one element per 64-bit register (eight of
// A, four of B).
// CHECK-LABEL: llvm.func @mma_v2_f64
// CHECK: "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 { $0, $1, $2, $3 }, { $8, $9, $10, $11, $12, $13, $14, $15 }, { $16, $17, $18, $19 }, { $4, $5, $6, $7 };", "=d,=d,=d,=d,0,1,2,3,d,d,d,d,d,d,d,d,d,d,d,d"
// CHECK-NOT: mma.sync
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_v2_f64(%p: !tt.ptr<f64>) {
    %a = arith.constant dense<2.0> : tensor<16x16xf64, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>
    %b = arith.constant dense<3.0> : tensor<16x8xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>
    %c = arith.constant dense<1.0> : tensor<16x8xf64, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x16xf64, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x8xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<16x8xf64, #mma>
    %ps = tt.splat %p : !tt.ptr<f64> -> tensor<16x8x!tt.ptr<f64>, #mma>
    tt.store %ps, %d : tensor<16x8x!tt.ptr<f64>, #mma>
    tt.return
  }
}

// -----

// An N-major B whose instruction tile (N = 128) spans four 64-byte column
// blocks (32 f16 each): the leading offset steps between blocks, 16 rows x
// 64 B = 1024 B (64 << 16), beside mode 2 (bit 63) and the stride offset
// 8 x 64 B = 512 B (32 << 32).
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 8192 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @wgmma_leading_offset
// CHECK: llvm.mlir.constant(-9223371899411628032 : i64) : i64
// CHECK: nvg.wgmma {{.*}}k = 16 : i32, layoutA = 0 : i32, layoutB = 0 : i32, m = 64 : i32, n = 128 : i32}
  tt.func public @wgmma_leading_offset() {
    %a = arith.constant dense<1.000000e+00> : tensor<64x16xf16, #blocked>
    %b = arith.constant dense<2.000000e+00> : tensor<16x128xf16, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %sa = ttg.local_alloc %a {allocation.offset = 0 : i32} : (tensor<64x16xf16, #blocked>) -> !ttg.memdesc<64x16xf16, #shared, #smem>
    %sb = ttg.local_alloc %b {allocation.offset = 4096 : i32} : (tensor<16x128xf16, #blocked>) -> !ttg.memdesc<16x128xf16, #shared1, #smem>
    ttng.fence_async_shared {bCluster = false}
    %d = ttng.warp_group_dot %sa, %sb, %zero {inputPrecision = 0 : i32} : !ttg.memdesc<64x16xf16, #shared, #smem> * !ttg.memdesc<16x128xf16, #shared1, #smem> -> tensor<64x128xf32, #mma>
    tt.return
  }
}

// -----

// Several registers a thread: fp8 conversions go by pairs, as Triton packs
// them (two bytes as an i16 into cvt.rn.f16x2, a vector<2xf16> out; to fp8,
// the pair's first element in the low byte); e5m2 to bf16 by fours through
// f16's bit pattern scaled by 2^112 with mul.rn.bf16x2, all-ones exponents
// (infinity, NaN) widened by prmt's sign replication and ORed back in;
// e4m3 to bf16 through cvt.rn.bf16.f16; i8 to bf16 by fours as bf16
// mantissas (128 + low bits) less the sign's 128 or 256.
#quad = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @fp8_by_pairs
// CHECK: %[[PAIR:.*]] = llvm.bitcast %{{.*}} : vector<2xi8> to i16
// CHECK: llvm.inline_asm asm_dialect = att operand_attrs = [] "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %[[PAIR]] : (i16) -> vector<2xf16>
// CHECK: llvm.fpext %{{.*}} : f16 to f32
// CHECK: %[[QUAD:.*]] = llvm.bitcast %{{.*}} : vector<4xi8> to i32
// CHECK: mul.rn.bf16x2 m0, m0, scale;{{.*}}prmt.b32 u0, u0, 0, 0xbb99;{{.*}}", "=r,=r,r" %[[QUAD]] : (i32) -> !llvm.struct<(vector<2xbf16>, vector<2xbf16>)>
// CHECK: cvt.rn.f16x2.e4m3x2 h, $1;{{.*}}cvt.rn.bf16.f16 b0, h0;{{.*}}", "=r,h" %{{.*}} : (i16) -> vector<2xbf16>
// CHECK: "cvt.rn.satfinite.e4m3x2.f32 $0, $2, $1;", "=h,r,r" %{{.*}}, %{{.*}} : (i32, i32) -> vector<2xi8>
// CHECK: sub.bf16x2 $0, lo_low, lo_sign;{{.*}}", "=r,=r,r" %{{.*}} : (i32) -> !llvm.struct<(vector<2xbf16>, vector<2xbf16>)>
// CHECK-NOT: llvm.sitofp
  tt.func public @fp8_by_pairs(%e4: tensor<128xf8E4M3FN, #quad>, %e5: tensor<128xf8E5M2, #quad>, %f: tensor<128xf32, #quad>, %i: tensor<128xi8, #quad>, %pf: tensor<128x!tt.ptr<f32>, #quad>, %pb: tensor<128x!tt.ptr<bf16>, #quad>, %p8: tensor<128x!tt.ptr<f8E4M3FN>, #quad>) {
    %0 = tt.fp_to_fp %e4 : tensor<128xf8E4M3FN, #quad> -> tensor<128xf32, #quad>
    tt.store %pf, %0 : tensor<128x!tt.ptr<f32>, #quad>
    %1 = tt.fp_to_fp %e5 : tensor<128xf8E5M2, #quad> -> tensor<128xbf16, #quad>
    tt.store %pb, %1 : tensor<128x!tt.ptr<bf16>, #quad>
    %2 = tt.fp_to_fp %e4 : tensor<128xf8E4M3FN, #quad> -> tensor<128xbf16, #quad>
    tt.store %pb, %2 : tensor<128x!tt.ptr<bf16>, #quad>
    %3 = tt.fp_to_fp %f, rounding = rtne : tensor<128xf32, #quad> -> tensor<128xf8E4M3FN, #quad>
    tt.store %p8, %3 : tensor<128x!tt.ptr<f8E4M3FN>, #quad>
    %4 = arith.sitofp %i : tensor<128xi8, #quad> to tensor<128xbf16, #quad>
    tt.store %pb, %4 : tensor<128x!tt.ptr<bf16>, #quad>
    tt.return
  }
}
