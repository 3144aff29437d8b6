// RUN: tt-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --convert-nv-gpu-to-llvm | FileCheck %s
// RUN: tt-opt %s --split-input-file --allow-unregistered-dialect | tt-opt --split-input-file --allow-unregistered-dialect | FileCheck %s --check-prefix=ROUND

// Triton's `nvg` ops parse and print as Triton's, and
// convert-nv-gpu-to-llvm lowers them: the cluster rank, the warp index made
// uniform by a shuffle, the wgmma wait with the struct's registers passing
// through it, acquire loads.
!struct = !llvm.struct<(f32, f32, i32, f16)>
// CHECK-LABEL: llvm.func @nvg_ops
// CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK: nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[WARP:.*]] = llvm.udiv %[[TID]], %[[C32]] : i32
// CHECK: nvvm.shfl.sync  idx %{{.*}}, %[[WARP]]
// CHECK: "// wait for regs: $0,$1,$2,$3\0A\09wgmma.wait_group.sync.aligned 1;", "=f,=f,=r,=h,0,1,2,3"
// CHECK: "@$2 ld.global.gpu.acquire.b32 $0, [ $1 + 0 ];", "=r,l,b"
// CHECK: "ld.global.cta.relaxed.b64 $0, [ $1 + 0 ];", "=l,l"
// CHECK: llvm.bitcast %{{.*}} : i64 to f64
// CHECK-NOT: nvg.
// ROUND-LABEL: llvm.func @nvg_ops
// ROUND: nvg.cluster_id
// ROUND: nvg.warp_id
// ROUND: nvg.wgmma_wait_group %{{.*}} {pendings = 1 : i32} : !llvm.struct<(f32, f32, i32, f16)>
// ROUND: nvg.ld_acquire acquire, gpu, %{{.*}}, %{{.*}} : (!llvm.ptr<1>) -> i32
// ROUND: nvg.ld_acquire relaxed, cta, %{{.*}} : (!llvm.ptr<1>) -> f64
module {
  llvm.func @nvg_ops(%s: !struct, %p: !llvm.ptr<1>, %m: i1) {
    %rank = nvg.cluster_id
    %warp = nvg.warp_id
    %w = nvg.wgmma_wait_group %s {pendings = 1 : i32} : !struct
    %a = nvg.ld_acquire acquire, gpu, %p, %m : (!llvm.ptr<1>) -> i32
    %b = nvg.ld_acquire relaxed, cta, %p : (!llvm.ptr<1>) -> f64
    "use"(%rank, %warp, %w, %a, %b) : (i32, i32, !struct, i32, f64) -> ()
    llvm.return
  }
}

// -----

// Tensor memory outside a kernel is refused with a located error.
module attributes {ttg.tensor_memory_size = 128 : i32} {
  llvm.func @tmem() -> !llvm.ptr<6> {
    // expected-error @+1 {{'nvg.tensor_memory_base' op convert-nv-gpu-to-llvm: 'nvg.tensor_memory_base' outside a kernel is not supported yet}}
    %t = nvg.tensor_memory_base
    llvm.return %t : !llvm.ptr<6>
  }
}

// -----

// wgmma: Triton's instruction string and constraints (C tied to the
// results, A and B descriptors, the scale-d predicate).
// CHECK-LABEL: llvm.func @wgmma_f16
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0,$1,$2,$3}, $8, $9, $10, 1, 1, 0, 0;", "=f,=f,=f,=f,0,1,2,3,l,l,b"
module {
  llvm.func @wgmma_f16(%a: i64, %b: i64, %c: !llvm.struct<(f32, f32, f32, f32)>, %use: i1) {
    %d = nvg.wgmma %a, %b, %use, %c {eltTypeA = 4 : i32, eltTypeB = 4 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (i64, i64, i1, !llvm.struct<(f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32)>
    "use"(%d) : (!llvm.struct<(f32, f32, f32, f32)>) -> ()
    llvm.return
  }
}

// -----

// A wgmma that is no PTX instruction is refused.
module {
  llvm.func @wgmma_bad(%a: i64, %b: i64, %use: i1) {
    // expected-error @+1 {{a wgmma m64n8k16 f32 += e4m3 x e4m3 with these layouts is not a PTX instruction}}
    %d = nvg.wgmma %a, %b, %use {eltTypeA = 2 : i32, eltTypeB = 2 : i32, eltTypeC = 7 : i32, layoutA = 0 : i32, layoutB = 1 : i32, m = 64 : i32, n = 8 : i32, k = 16 : i32} : (i64, i64, i1) -> !llvm.struct<(f32, f32, f32, f32)>
    "use"(%d) : (!llvm.struct<(f32, f32, f32, f32)>) -> ()
    llvm.return
  }
}
