// RUN: tt-opt %s --split-input-file --verify-diagnostics=only-expected --convert-triton-gpu-to-llvm | FileCheck %s

// convert-triton-gpu-to-llvm on the ops that relabel dimensions (trans,
// reshape, join, split, cat, unsplat): every element stays in the thread
// that holds it, so they lower to no instruction at all, once the linear
// layouts show that the operand's and result's lanes and warps correspond;
// layouts that would move elements between threads get a located error.

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#rows = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#pairs = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // The 128 elements (a lane's and a warp's bits) as 4 rows of 32, then
  // transposed: each thread stores the value it loaded.
  // CHECK-LABEL: llvm.func @reshape_and_trans
  // CHECK: %[[V:.*]] = llvm.inline_asm {{.*}}ld.global.b32
  // CHECK-NEXT: llvm.mlir.constant(true)
  // CHECK-NEXT: st.global.b32 {{.*}}"r,l,b" %[[V]],
  // CHECK-NOT: tt.
  tt.func public @reshape_and_trans(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b1>
    %s = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b1>
    %a = tt.addptr %s, %r : tensor<128x!tt.ptr<i32>, #b1>, tensor<128xi32, #b1>
    %v = tt.load %a : tensor<128x!tt.ptr<i32>, #b1>
    %m = tt.reshape %v : tensor<128xi32, #b1> -> tensor<4x32xi32, #rows>
    %t = tt.trans %m {order = array<i32: 1, 0>} : tensor<4x32xi32, #rows> -> tensor<32x4xi32, #cols>
    %back = tt.trans %t {order = array<i32: 1, 0>} : tensor<32x4xi32, #cols> -> tensor<4x32xi32, #rows>
    %flat = tt.reshape %back : tensor<4x32xi32, #rows> -> tensor<128xi32, #b1>
    tt.store %a, %flat : tensor<128x!tt.ptr<i32>, #b1>
    tt.return
  }

  // join puts its operands side by side in each thread's registers; split
  // takes them apart again; cat concatenates the operands' registers.
  // CHECK-LABEL: llvm.func @join_split_cat
  // CHECK: %[[X:.*]] = llvm.inline_asm {{.*}}ld.global.b32
  // CHECK: %[[XF:.*]] = llvm.bitcast %[[X]] : i32 to f32
  // CHECK: %[[Y:.*]] = llvm.inline_asm {{.*}}ld.global.b32
  // CHECK: %[[YF:.*]] = llvm.bitcast %[[Y]] : i32 to f32
  // CHECK: %[[HI:.*]] = llvm.bitcast %[[YF]] : f32 to i32
  // CHECK: st.global.b32 {{.*}}"r,l,b" %[[HI]],
  // CHECK: %[[LO:.*]] = llvm.bitcast %[[XF]] : f32 to i32
  // CHECK: st.global.b32 {{.*}}"r,l,b" %[[LO]],
  // The concatenation: this thread's x at its index, its y 128 further.
  // CHECK: %[[C0:.*]] = llvm.bitcast %[[XF]] : f32 to i32
  // CHECK: st.global.b32 {{.*}}"r,l,b" %[[C0]],
  // CHECK: %[[C1:.*]] = llvm.bitcast %[[YF]] : f32 to i32
  // CHECK: st.global.b32 {{.*}}"r,l,b" %[[C1]],
  // CHECK-NOT: tt.
  tt.func public @join_split_cat(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b1>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b1>
    %a = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #b1>, tensor<128xi32, #b1>
    %t = tt.splat %q : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b1>
    %b = tt.addptr %t, %r : tensor<128x!tt.ptr<f32>, #b1>, tensor<128xi32, #b1>
    %x = tt.load %a : tensor<128x!tt.ptr<f32>, #b1>
    %y = tt.load %b : tensor<128x!tt.ptr<f32>, #b1>
    %j = tt.join %x, %y : tensor<128xf32, #b1> -> tensor<128x2xf32, #pairs>
    %lo, %hi = tt.split %j : tensor<128x2xf32, #pairs> -> tensor<128xf32, #b1>
    tt.store %a, %hi : tensor<128x!tt.ptr<f32>, #b1>
    tt.store %b, %lo : tensor<128x!tt.ptr<f32>, #b1>
    %c = tt.cat %x, %y : tensor<128xf32, #b1> -> tensor<256xf32, #b1>
    %r2 = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b1>
    %s2 = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #b1>
    %a2 = tt.addptr %s2, %r2 : tensor<256x!tt.ptr<f32>, #b1>, tensor<256xi32, #b1>
    tt.store %a2, %c : tensor<256x!tt.ptr<f32>, #b1>
    tt.return
  }

  // The one element of a one-element tensor.
  // CHECK-LABEL: llvm.func @unsplat
  // CHECK: %[[V:.*]] = llvm.inline_asm {{.*}}ld.global.b32
  // CHECK: st.global.b32 {{.*}}"r,l,b" %[[V]],
  tt.func public @unsplat(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32, #b1>
    %s = tt.splat %p : !tt.ptr<i32> -> tensor<1x!tt.ptr<i32>, #b1>
    %a = tt.addptr %s, %r : tensor<1x!tt.ptr<i32>, #b1>, tensor<1xi32, #b1>
    %v = tt.load %a : tensor<1x!tt.ptr<i32>, #b1>
    %u = tt.unsplat %v : tensor<1xi32, #b1>
    tt.store %p, %u : !tt.ptr<i32>
    tt.return
  }
}

// -----

// The same 128 elements as 4x32 in a layout whose lanes run down the rows:
// a reshape that would move elements between threads is refused unless it
// may reorder them.
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#colmajor = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_across_threads() {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b1>
    // expected-error @+1 {{convert-triton-gpu-to-llvm: the operand and result layouts distribute threads differently (a layout conversion would be needed) (in 'tt.reshape')}}
    %m = tt.reshape %r : tensor<128xi32, #b1> -> tensor<4x32xi32, #colmajor>
    tt.return
  }
}

// -----

// With allow_reorder the registers are taken in order, as Triton does.
// CHECK-LABEL: llvm.func @reshape_may_reorder
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#colmajor = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reshape_may_reorder() {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b1>
    %m = tt.reshape %r allow_reorder : tensor<128xi32, #b1> -> tensor<4x32xi32, #colmajor>
    tt.return
  }
}

// -----

// The joined dimension must lie in registers: the verifier rejects it, as
// Triton's does (the lowering would refuse it too).
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#lanes = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @join_across_lanes() {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b1>
    // expected-error @+1 {{'tt.join' op the joined dimension is not held in registers: SplitOp requires at least 2 elements per thread in the last dimension}}
    %j = tt.join %r, %r : tensor<64xi32, #b1> -> tensor<64x2xi32, #lanes>
    tt.return
  }
}

// -----

// A shared-memory reshape that keeps every element's byte (non-transposed
// NVMMA, same swizzle and last dimension: the leading dimensions fold into
// rows row-major) is the same address; one that does not is refused.
#nv3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvt = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, ttg.shared = 8192 : i32} {
  // CHECK-LABEL: llvm.func internal @shared_reshape
  // CHECK: %[[BASE:.*]] = llvm.getelementptr %arg0
  // CHECK: llvm.insertvalue %[[BASE]], %{{.*}}[0]
  // CHECK: llvm.return
  tt.func private @shared_reshape() -> !ttg.memdesc<64x64xf16, #nv, #smem, mutable> {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<2x32x64xf16, #nv3, #smem, mutable>
    %r = ttg.memdesc_reshape %a : !ttg.memdesc<2x32x64xf16, #nv3, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nv, #smem, mutable>
    tt.return %r : !ttg.memdesc<64x64xf16, #nv, #smem, mutable>
  }
}

// -----

#nvt3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16, rank = 3}>
#nvt = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, ttg.shared = 8192 : i32} {
  tt.func public @transposed_reshape() {
    %a = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<2x32x64xf16, #nvt3, #smem, mutable>
    // expected-error @+1 {{'ttg.memdesc_reshape' between these layouts is not supported yet}}
    %r = ttg.memdesc_reshape %a : !ttg.memdesc<2x32x64xf16, #nvt3, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvt, #smem, mutable>
    tt.return
  }
}
