// Blackwell's TMA row gathers and scatters in convert-triton-gpu-to-llvm,
// as Triton 3.6 lowers them (checked after `opt -O1`, as Triton's
// Conversion/tma_to_llvm.mlir does): `tile::gather4` / `tile::scatter4`
// messages of four rows, one swizzle wide, from one elected lane of every
// warp that holds distinct rows. A message's rows land where the buffer's
// NVMMA layout without its swizzle puts them: the warp's share of that
// offset at run time, the register group's and the message's as constants.
// Refusals: tma-gather-invalid.mlir.
// RUN: tt-opt %s --convert-triton-gpu-to-llvm --convert-nv-gpu-to-llvm | mlir-translate -mlir-to-llvmir | opt -S -O1 | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 8], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [1, 8], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#s64f32 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>
#s128f8 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#s128f16 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#s32f16 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100"} {

// 64 rows of 64 f32 with a 64-byte swizzle: rows of 16 elements, so four
// messages per group of four rows. Warp w holds rows 4w..4w+3 (offset
// 4w * 16 elements) and, in registers 4..7, rows 32 + 4w.. (2048 bytes on).
// CHECK-LABEL: @gather_f32_64
// CHECK-SAME: i32 [[Y:%3]]
// CHECK: [[BAR:%.*]] = extractvalue {{.*}} %1, 0
// CHECK: [[BASE:%.*]] = extractvalue {{.*}} %4, 0
// CHECK: [[WARP:%.*]] = tail call i32 @llvm.nvvm.shfl.sync.idx.i32
// CHECK: [[ELECT:%.*]] = tail call { i32, i1 } @llvm.nvvm.elect.sync
// CHECK: [[ELECTED:%.*]] = extractvalue { i32, i1 } [[ELECT]], 1
// CHECK: [[PRED:%.*]] = and i1 %5, [[ELECTED]]
// CHECK: [[R0:%.*]] = extractvalue {{.*}} %2, 0
// CHECK: [[R4:%.*]] = extractvalue {{.*}} %2, 4
// CHECK: [[T:%.*]] = shl i32 [[WARP]], 6
// CHECK: [[OFF:%.*]] = and i32 [[T]], 448
// CHECK: [[OFF64:%.*]] = zext nneg i32 [[OFF]] to i64
// CHECK: [[P0:%.*]] = getelementptr float, ptr addrspace(3) [[BASE]], i64 [[OFF64]]
// CHECK: "@$0 cp.async.bulk.tensor.2d.tile::gather4.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4, $5, $6, $7}], [$8];", "b,r,l,r,r,r,r,r,r"(i1 [[PRED]], ptr addrspace(3) [[P0]], ptr nonnull %0, i32 [[Y]], i32 [[R0]], {{.*}}, ptr addrspace(3) [[BAR]])
// CHECK: [[P1:%.*]] = getelementptr i8, ptr addrspace(3) [[P0]], i64 4096
// CHECK: [[Y1:%.*]] = add i32 [[Y]], 16
// CHECK: gather4{{.*}}(i1 [[PRED]], ptr addrspace(3) [[P1]], ptr nonnull %0, i32 [[Y1]], i32 [[R0]],
// CHECK: [[P2:%.*]] = getelementptr i8, ptr addrspace(3) [[P0]], i64 8192
// CHECK: [[Y2:%.*]] = add i32 [[Y]], 32
// CHECK: gather4{{.*}}(i1 [[PRED]], ptr addrspace(3) [[P2]], ptr nonnull %0, i32 [[Y2]], i32 [[R0]],
// CHECK: [[P3:%.*]] = getelementptr i8, ptr addrspace(3) [[P0]], i64 12288
// CHECK: [[Y3:%.*]] = add i32 [[Y]], 48
// CHECK: gather4{{.*}}(i1 [[PRED]], ptr addrspace(3) [[P3]], ptr nonnull %0, i32 [[Y3]], i32 [[R0]],
// CHECK: [[P4:%.*]] = getelementptr i8, ptr addrspace(3) [[P0]], i64 2048
// CHECK: gather4{{.*}}(i1 [[PRED]], ptr addrspace(3) [[P4]], ptr nonnull %0, i32 [[Y]], i32 [[R4]],
// CHECK: getelementptr i8, ptr addrspace(3) [[P0]], i64 6144
// CHECK: gather4{{.*}}i32 [[Y1]], i32 [[R4]],
// CHECK: getelementptr i8, ptr addrspace(3) [[P0]], i64 10240
// CHECK: gather4{{.*}}i32 [[Y2]], i32 [[R4]],
// CHECK: getelementptr i8, ptr addrspace(3) [[P0]], i64 14336
// CHECK: gather4{{.*}}i32 [[Y3]], i32 [[R4]],
// CHECK-NEXT: ret void
tt.func @gather_f32_64(%arg0: !tt.tensordesc<tensor<1x64xf32, #s64f32>>, %arg1: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %arg2: tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, %arg3: i32, %arg4: !ttg.memdesc<64x64xf32, #s64f32, #smem, mutable>, %arg5: i1) {
  ttng.async_tma_gather %arg0[%arg2, %arg3] %arg4, %arg1, %arg5 : !tt.tensordesc<tensor<1x64xf32, #s64f32>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32, !ttg.memdesc<1xi64, #shared, #smem, mutable>, !ttg.memdesc<64x64xf32, #s64f32, #smem, mutable>, i1
  tt.return
}

// 16 rows of 256 fp8 in one buffer of a multi-buffered allocation: two
// warps hold distinct rows (8 each), the other six repeat them and stay
// idle; a constant-true predicate leaves only the warp and lane tests.
// CHECK-LABEL: @gather_f8_multibuf
// CHECK: [[WARP:%.*]] = tail call i32 @llvm.nvvm.shfl.sync.idx.i32
// CHECK: [[SEL:%.*]] = and i32 [[WARP]], 6
// CHECK: [[FIRST:%.*]] = icmp eq i32 [[SEL]], 0
// CHECK: [[ELECT:%.*]] = tail call { i32, i1 } @llvm.nvvm.elect.sync
// CHECK: [[ELECTED:%.*]] = extractvalue { i32, i1 } [[ELECT]], 1
// CHECK: [[PRED:%.*]] = and i1 [[FIRST]], [[ELECTED]]
// CHECK: [[T:%.*]] = shl i32 [[WARP]], 10
// CHECK: [[OFF:%.*]] = and i32 [[T]], 1024
// CHECK: [[OFF64:%.*]] = zext nneg i32 [[OFF]] to i64
// CHECK: [[P0:%.*]] = getelementptr i8, ptr addrspace(3) %{{.*}}, i64 [[OFF64]]
// CHECK: gather4{{.*}}(i1 [[PRED]], ptr addrspace(3) [[P0]],
// CHECK: getelementptr i8, ptr addrspace(3) [[P0]], i64 2048
// CHECK: add i32 %3, 128
// CHECK: gather4
// CHECK: getelementptr i8, ptr addrspace(3) [[P0]], i64 512
// CHECK: gather4
// CHECK: getelementptr i8, ptr addrspace(3) [[P0]], i64 2560
// CHECK: gather4
// CHECK-NEXT: ret void
tt.func @gather_f8_multibuf(%arg0: !tt.tensordesc<tensor<1x256xf8E4M3FN, #s128f8>>, %arg1: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %arg2: tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>, %arg3: i32, %arg4: !ttg.memdesc<16x256xf8E4M3FN, #s128f8, #smem, mutable, 2x16x256>) {
  %true = arith.constant true
  ttng.async_tma_gather %arg0[%arg2, %arg3] %arg4, %arg1, %true : !tt.tensordesc<tensor<1x256xf8E4M3FN, #s128f8>>, tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>, i32, !ttg.memdesc<1xi64, #shared, #smem, mutable>, !ttg.memdesc<16x256xf8E4M3FN, #s128f8, #smem, mutable, 2x16x256>, i1
  tt.return
}

// Row offsets computed in the kernel (not a packed argument).
// CHECK-LABEL: @gather_computed_rows
// CHECK: [[LANE:%.*]] = lshr i32 %{{.*}}, 3
// CHECK: [[ROW0:%.*]] = and i32 [[LANE]], 28
// CHECK: [[ROW1:%.*]] = or disjoint i32 [[ROW0]], 1
// CHECK: [[ROW2:%.*]] = or disjoint i32 [[ROW0]], 2
// CHECK: [[ROW3:%.*]] = or disjoint i32 [[ROW0]], 3
// CHECK: gather4{{.*}}(i1 %{{.*}}, ptr addrspace(3) %{{.*}}, ptr nonnull %0, i32 %2, i32 [[ROW0]], i32 [[ROW1]], i32 [[ROW2]], i32 [[ROW3]], ptr addrspace(3)
// CHECK-NOT: gather4
// CHECK: ret void
tt.func @gather_computed_rows(%arg0: !tt.tensordesc<tensor<1x64xf16, #s128f16>>, %arg1: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %arg3: i32, %arg4: !ttg.memdesc<32x64xf16, #s128f16, #smem, mutable>) {
  %rows = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
  %true = arith.constant true
  ttng.async_tma_gather %arg0[%rows, %arg3] %arg4, %arg1, %true : !tt.tensordesc<tensor<1x64xf16, #s128f16>>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32, !ttg.memdesc<1xi64, #shared, #smem, mutable>, !ttg.memdesc<32x64xf16, #s128f16, #smem, mutable>, i1
  tt.return
}

// A scatter: the same messages from the buffer, predicated on the elected
// lane only, in one bulk group committed after them.
// CHECK-LABEL: @scatter_f16_32
// CHECK: [[BASE:%.*]] = extractvalue {{.*}} %3, 0
// CHECK: [[ELECT:%.*]] = tail call { i32, i1 } @llvm.nvvm.elect.sync
// CHECK: [[PRED:%.*]] = extractvalue { i32, i1 } [[ELECT]], 1
// CHECK: [[P0:%.*]] = getelementptr half, ptr addrspace(3) [[BASE]]
// CHECK-NEXT: "@$0 cp.async.bulk.tensor.2d.tile::scatter4.global.shared::cta.bulk_group [$1, {$2, $3, $4, $5, $6}], [$7];", "b,l,r,r,r,r,r,r"(i1 [[PRED]], ptr nonnull %0, i32 %2, i32 {{%[0-9]+}}, i32 {{%[0-9]+}}, i32 {{%[0-9]+}}, i32 {{%[0-9]+}}, ptr addrspace(3) [[P0]])
// CHECK: getelementptr i8, ptr addrspace(3) [[P0]], i64 1024
// CHECK: add i32 %2, 16
// CHECK: scatter4
// CHECK: getelementptr i8, ptr addrspace(3) [[P0]], i64 2048
// CHECK: add i32 %2, 32
// CHECK: scatter4
// CHECK: getelementptr i8, ptr addrspace(3) [[P0]], i64 3072
// CHECK: add i32 %2, 48
// CHECK: scatter4
// CHECK-NEXT: call void @llvm.nvvm.cp.async.bulk.commit.group()
// CHECK-NEXT: ret void
tt.func @scatter_f16_32(%arg0: !tt.tensordesc<tensor<1x64xf16, #s32f16>>, %arg1: tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, %arg2: i32, %arg3: !ttg.memdesc<32x64xf16, #s32f16, #smem, mutable>) {
  ttng.async_tma_scatter %arg0[%arg1, %arg2] %arg3 : !tt.tensordesc<tensor<1x64xf16, #s32f16>>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32, !ttg.memdesc<32x64xf16, #s32f16, #smem, mutable>
  tt.return
}

}
