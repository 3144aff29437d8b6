// RUN: tt-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --convert-nv-gpu-to-llvm | FileCheck %s
// RUN: tt-opt %s --split-input-file --allow-unregistered-dialect | tt-opt --split-input-file --allow-unregistered-dialect | FileCheck %s --check-prefix=ROUND

// Triton's `nvg` ops parse and print as Triton's, and
// convert-nv-gpu-to-llvm lowers them: the cluster rank, the warp index made
// uniform by a shuffle, the wgmma wait with the struct's registers passing
// through it, acquire loads.
!struct = !llvm.struct<(f32, f32, i32, f16)>
// CHECK-LABEL: llvm.func @nvg_ops
// CHECK: nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
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

// Tensor memory is Blackwell's: refused with a located error.
module {
  llvm.func @tmem() {
    // expected-error @+1 {{'nvg.tensor_memory_base' op convert-nv-gpu-to-llvm: 'nvg.tensor_memory_base' is not supported yet}}
    %t = nvg.tensor_memory_base
    llvm.return
  }
}
