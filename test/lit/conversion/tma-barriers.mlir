// Hopper's mbarriers, TMA copies and device-side descriptors in
// convert-triton-gpu-to-llvm, as Triton 3.6 lowers them: mbarrier PTX on
// thread 0; one cp.async.bulk.tensor per copy from an elected lane of warp
// 0; tensormap.replace by thread 0 in the op's 128-byte scratch. Memory
// descriptors cross function boundaries as {base, offsets}; TMA
// descriptors reach a kernel by value.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --convert-triton-gpu-to-llvm=compute-capability=90 | FileCheck %s
// RUN: tt-opt %s --split-input-file --verify-diagnostics --convert-triton-gpu-to-llvm="compute-capability=90 ptx-version=87" | FileCheck %s --check-prefix=PTX87

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @barriers(%arg0: !llvm.struct<(ptr<3>, i32)>, %arg1: i32, %arg2: i1
  tt.func public @barriers(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %phase: i32, %pred: i1) {
    // CHECK: %[[BAR:.*]] = llvm.extractvalue %arg0[0] : !llvm.struct<(ptr<3>, i32)>
    // CHECK: %[[T0:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
    // CHECK-NEXT: "@$0 mbarrier.init.shared::cta.b64 [$1], 2;", "b,r" %[[T0]], %[[BAR]] : (i1, !llvm.ptr<3>) -> !llvm.void
    ttng.init_barrier %bar, 2 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // Each mbarrier op writes the barrier: a CTA barrier orders it after
    // the previous one, as Triton's membar analysis does.
    // CHECK: %[[E:.*]] = llvm.and %{{.*}}, %arg2 : i1
    // CHECK-NEXT: nvvm.barrier0
    // CHECK-NEXT: "@$0 mbarrier.arrive.expect_tx.shared.b64 _, [$1], 16384;", "b,r" %[[E]], %[[BAR]]
    ttng.barrier_expect %bar, 16384, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: "@$0 mbarrier.arrive.shared::cta.b64 _, [$1], 1;", "b,r"
    ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // A constant-true predicate waits unconditionally.
    // CHECK: "\0A{\0A\09.reg .pred complete;\0A\09waitLoop:\0A\09mbarrier.try_wait.parity.shared.b64 complete, [$0], $1;\0A\09@!complete bra.uni waitLoop;\0A}\0A", "r,r" %[[BAR]], %arg1
    %true = arith.constant true
    ttng.wait_barrier %bar, %phase, %true : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: "\0A{\0A\09@!$2 bra.uni skipWait;{{.*}}skipWait:\0A}\0A", "r,r,b" %[[BAR]], %arg1, %arg2
    ttng.wait_barrier %bar, %phase, %pred : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: nvvm.cp.async.mbarrier.arrive %[[BAR]] : !llvm.ptr<3>
    ttng.async_copy_mbarrier_arrive %bar : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: nvvm.cp.async.mbarrier.arrive %[[BAR]] {noinc = true} : !llvm.ptr<3>
    ttng.async_copy_mbarrier_arrive %bar {noIncrement} : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: "@$0 mbarrier.inval.shared::cta.b64 [$1];", "b,r" %{{.*}}, %[[BAR]]
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // A descriptor argument: a generic pointer, by value.
  // CHECK-LABEL: llvm.func @copies(%arg0: !llvm.ptr {llvm.align = 64 : i32, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant, tt.nv_tma_desc = 1 : i32}, %arg1: i32, %arg2: i32, %arg3: i1, %arg4: !llvm.ptr<1>, %arg5: !llvm.ptr<1>)
  tt.func public @copies(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32, %y: i32, %pred: i1) {
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // One message (64 f16 rows are one 128-byte swizzle), coordinates
    // innermost first, from one elected lane of warp 0.
    // CHECK: %[[ELECT:.*]] = nvvm.elect.sync -> i1
    // CHECK-NEXT: %[[P:.*]] = llvm.and %arg3, %[[ELECT]] : i1
    // CHECK: llvm.icmp "slt" %{{.*}}, %{{.*}} : i32
    // CHECK: "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r" %{{.*}}, %{{.*}}, %arg0, %arg2, %arg1, %{{.*}} : (i1, !llvm.ptr<3>, !llvm.ptr, i32, i32, !llvm.ptr<3>) -> !llvm.void
    ttng.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %pred : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // CHECK: "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$2, $3}], [$4];", "b,l,r,r,r" %{{.*}}, %arg0, %arg2, %arg1, %{{.*}} : (i1, !llvm.ptr, i32, i32, !llvm.ptr<3>) -> !llvm.void
    // CHECK-NEXT: nvvm.cp.async.bulk.commit.group
    ttng.async_tma_copy_local_to_global %desc[%x, %y] %buf : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // CHECK: "@$0 cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group [$1, {$2, $3}], [$4];", "b,l,r,r,r" %{{.*}}, %arg0, %arg2, %arg1, %{{.*}} : (i1, !llvm.ptr, i32, i32, !llvm.ptr<3>) -> !llvm.void
    // CHECK-NEXT: nvvm.cp.async.bulk.commit.group
    ttng.async_tma_reduce add, %desc[%x, %y] %buf : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
    // CHECK-NEXT: nvvm.barrier0
    ttng.async_tma_store_wait {pendings = 0 : i32}
    tt.return
  }
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // 128 halves a row are two 64-wide boxes (one 128-byte swizzle each),
  // issued as Triton issues them: one instruction, run by warps 0 and 1
  // (threads below 64), each warp's box found from its id (made uniform by
  // a shuffle): box w lands 8192 * w bytes on (after the first's 64 rows)
  // and starts 64 * w columns on.
  // CHECK-LABEL: llvm.func @several_messages
  // CHECK: %[[WARP:.*]] = nvvm.shfl.sync idx
  // CHECK: %[[C64:.*]] = llvm.mlir.constant(64 : i32) : i32
  // CHECK: %[[COLUMNS:.*]] = llvm.mul %[[WARP]], %[[C64]] : i32
  // CHECK: %[[X:.*]] = llvm.add %arg2, %[[COLUMNS]] : i32
  // CHECK: %[[THREADS:.*]] = llvm.mlir.constant(64 : i32) : i32
  // CHECK: llvm.icmp "slt" %{{.*}}, %[[THREADS]] : i32
  // CHECK: %[[C8192:.*]] = llvm.mlir.constant(8192 : i32) : i32
  // CHECK: %[[BYTES:.*]] = llvm.mul %[[WARP]], %[[C8192]] : i32
  // CHECK: %[[BOX:.*]] = llvm.getelementptr %{{.*}}[%[[BYTES]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r" %{{.*}}, %[[BOX]], %arg0, %[[X]], %arg1, %{{.*}} :
  // CHECK-NOT: cp.async.bulk.tensor
  tt.func public @several_messages(%desc: !tt.tensordesc<tensor<64x128xf16, #nvmma>>, %x: i32, %y: i32, %pred: i1) {
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<64x128xf16, #nvmma, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %pred : !tt.tensordesc<tensor<64x128xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x128xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // Four boxes and two warps: two rounds of one instruction, the second
  // issuing boxes 2 and 3 (its warp's box: the warp id plus 2).
  // CHECK-LABEL: llvm.func @more_messages_than_warps
  // CHECK: %[[WARP:.*]] = nvvm.shfl.sync idx
  // CHECK: llvm.mul %[[WARP]]
  // CHECK: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK: %[[SECOND:.*]] = llvm.add %[[WARP]], %[[C2]] : i32
  // CHECK: llvm.mul %[[SECOND]]
  // CHECK-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
  // CHECK-NOT: cp.async.bulk.tensor
  tt.func public @more_messages_than_warps(%desc: !tt.tensordesc<tensor<64x256xf16, #nvmma>>, %x: i32, %y: i32) {
    %true = arith.constant true
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<64x256xf16, #nvmma, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %true : !tt.tensordesc<tensor<64x256xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x256xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32, rank = 3}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // Three dimensions fold into 16 rows of 64 words: two boxes of 32
  // columns, box w 16 rows x 128 bytes (2048) * w on and 32 * w columns on.
  // CHECK-LABEL: llvm.func @several_messages_3d
  // CHECK: %[[WARP:.*]] = nvvm.shfl.sync idx
  // CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK: %[[COLUMNS:.*]] = llvm.mul %[[WARP]], %[[C32]] : i32
  // CHECK: %[[X:.*]] = llvm.add %arg1, %[[COLUMNS]] : i32
  // CHECK: %[[C2048:.*]] = llvm.mlir.constant(2048 : i32) : i32
  // CHECK: %[[BYTES:.*]] = llvm.mul %[[WARP]], %[[C2048]] : i32
  // CHECK: %[[BOX:.*]] = llvm.getelementptr %{{.*}}[%[[BYTES]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4, $5}], [$6];", "b,r,l,r,r,r,r" %{{.*}}, %[[BOX]], %arg0, %[[X]], %arg1, %arg1,
  // CHECK-NOT: cp.async.bulk.tensor
  tt.func public @several_messages_3d(%desc: !tt.tensordesc<tensor<2x8x64xi32, #nvmma>>, %x: i32, %pred: i1) {
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<2x8x64xi32, #nvmma, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%x, %x, %x] %buf, %bar, %pred : !tt.tensordesc<tensor<2x8x64xi32, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<2x8x64xi32, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma16 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // A box of 256 of the 512 middle rows holds rows of both leading
  // indices, which are not consecutive: refused.
  tt.func public @split_middle_3d(%desc: !tt.tensordesc<tensor<2x512x64xf16, #nvmma16>>, %x: i32, %pred: i1) {
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<2x512x64xf16, #nvmma16, #smem, mutable>
    // expected-error @+1 {{a TMA copy of [2, 512, 64] elements in blocks of [2, 256, 64] (several messages) into this layout is not supported yet}}
    ttng.async_tma_copy_global_to_local %desc[%x, %x, %x] %buf, %bar, %pred : !tt.tensordesc<tensor<2x512x64xf16, #nvmma16>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<2x512x64xf16, #nvmma16, #smem, mutable>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // Warp 0 zeroes the scratch, thread 0 fills each field, warp 0 copies the
  // descriptor out; below PTX 8.6 strides go in units of 16 bytes.
  // CHECK-LABEL: llvm.func @tensormap
  // CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b"
  // CHECK-NEXT: llvm.mlir.constant(-1 : i32)
  // CHECK-NEXT: nvvm.bar.warp.sync
  // CHECK: "@$2 tensormap.replace.tile.global_address.shared::cta.b1024.b64 [ $0 + 0 ], $1;", "l,l,b"
  // CHECK: "@$1 tensormap.replace.tile.rank.shared::cta.b1024.b32 [ $0 + 0 ], 0x1;"
  // CHECK: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [ $0 + 0 ], 0x0, $1;
  // CHECK: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [ $0 + 0 ], 0x1, $1;
  // CHECK: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [ $0 + 0 ], 0x1, $1;
  // CHECK: %[[SHIFTED:.*]] = llvm.ashr %{{.*}}, %{{.*}} : i64
  // CHECK: "@$2 tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [ $0 + 0 ], 0x0, $1;", "l,l,b" %{{.*}}, %[[SHIFTED]]
  // PTX87-NOT: llvm.ashr
  // CHECK: tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [ $0 + 0 ], 0x1, $1;
  // CHECK: "@$1 tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [ $0 + 0 ], 0x6;"
  // CHECK: "@$1 tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [ $0 + 0 ], 0x3;"
  // CHECK: "@$2 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [ $0 + 0 ], [ $1 + 0 ], 0x80;", "l,l,b" %arg0
  // CHECK: "@$1 fence.proxy.tensormap::generic.acquire.gpu [ $0 + 0 ], 0x80;\0A\09@$2 cp.async.bulk.commit_group ;\0A\09@$3 cp.async.bulk.wait_group.read 0 ;", "l,b,b,b" %arg0
  // CHECK-NEXT: nvvm.barrier0
  tt.func public @tensormap(%desc: !tt.ptr<i8>, %base: !tt.ptr<f16>, %n: i32, %stride: i64) {
    %c64 = arith.constant 64 : i32
    %c1 = arith.constant 1 : i32
    ttng.tensormap_create %desc, %base, [%c64, %c64], [%n, %n], [%stride], [%c1, %c1] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32, allocation.offset = 0 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_fenceproxy_acquire %desc : !tt.ptr<i8>
    tt.return
  }
}

// -----

// A pointer reinterpreted as a TMA descriptor is that address in the
// generic address space.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func internal @reinterpret_descriptor
// CHECK: %[[DESC:.*]] = llvm.addrspacecast %arg0 : !llvm.ptr<1> to !llvm.ptr
// CHECK: llvm.return %[[DESC]] : !llvm.ptr
  tt.func private @reinterpret_descriptor(%p: !tt.ptr<i8>) -> !tt.tensordesc<tensor<128x64xf16, #shared>> {
    %d = ttng.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.tensordesc<tensor<128x64xf16, #shared>>
    tt.return %d : !tt.tensordesc<tensor<128x64xf16, #shared>>
  }
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32, rank = 3}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // A rank-reducing copy: the 8x64 buffer holds the descriptor's two
  // inner dimensions, the outer coordinate passes unchanged. Two boxes of
  // 32 columns, box w 32 * w columns on.
  // CHECK-LABEL: llvm.func @rank_reducing
  // CHECK: %[[WARP:.*]] = nvvm.shfl.sync idx
  // CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK: %[[COLUMNS:.*]] = llvm.mul %[[WARP]], %[[C32]] : i32
  // CHECK: %[[X:.*]] = llvm.add %arg3, %[[COLUMNS]] : i32
  // CHECK: cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4, $5}], [$6];", "b,r,l,r,r,r,r" %{{.*}}, %{{.*}}, %arg0, %[[X]], %arg2, %arg1,
  // CHECK-NOT: cp.async.bulk.tensor
  tt.func public @rank_reducing(%desc: !tt.tensordesc<tensor<1x8x64xi32, #nvmma3>>, %b: i32, %m: i32, %n: i32, %pred: i1) {
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<8x64xi32, #nvmma, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%b, %m, %n] %buf, %bar, %pred : !tt.tensordesc<tensor<1x8x64xi32, #nvmma3>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<8x64xi32, #nvmma, #smem, mutable>
    tt.return
  }

  // A descriptor carried between blocks (a loop's, after scf-to-cf) is
  // the generic pointer it is everywhere else.
  // CHECK-LABEL: llvm.func @carried
  // CHECK: ^bb1(%{{.*}}: !llvm.ptr):
  tt.func public @carried(%p: !tt.ptr<i8>, %q: !tt.ptr<i8>, %c: i1, %x: i32) {
    %d0 = ttng.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.tensordesc<tensor<1x8x64xi32, #nvmma3>>
    %d1 = ttng.reinterpret_tensor_descriptor %q : !tt.ptr<i8> to !tt.tensordesc<tensor<1x8x64xi32, #nvmma3>>
    cf.cond_br %c, ^bb1(%d0 : !tt.tensordesc<tensor<1x8x64xi32, #nvmma3>>), ^bb1(%d1 : !tt.tensordesc<tensor<1x8x64xi32, #nvmma3>>)
  ^bb1(%d: !tt.tensordesc<tensor<1x8x64xi32, #nvmma3>>):
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<8x64xi32, #nvmma, #smem, mutable>
    ttng.async_tma_copy_global_to_local %d[%x, %x, %x] %buf, %bar, %c : !tt.tensordesc<tensor<1x8x64xi32, #nvmma3>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<8x64xi32, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

// A kernel compiled for one CTA and launched in clusters of two
// (triton_rs.cluster_ctas, what the compiler sets for num_ctas = 2): the
// cluster is the program (clusterid), every CTA but the first returns at
// once, and the first runs the kernel, TMA copies included.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {triton_rs.cluster_ctas = 2 : i32, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @cluster_leader
  // CHECK-SAME: nvvm.cluster_dim = array<i32: 2>
  // CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
  // CHECK: %[[LEADER:.*]] = llvm.icmp "eq" %[[RANK]], %{{.*}} : i32
  // CHECK: llvm.cond_br %[[LEADER]], ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]]
  // CHECK: ^[[BODY]]:
  // CHECK: nvvm.read.ptx.sreg.clusterid.x
  // CHECK: cp.async.bulk.tensor.2d
  // CHECK: ^[[EXIT]]:
  // CHECK-NEXT: llvm.return
  tt.func public @cluster_leader(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %pred: i1) {
    %pid = tt.get_program_id x : i32
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%pid, %pid] %buf, %bar, %pred : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}
