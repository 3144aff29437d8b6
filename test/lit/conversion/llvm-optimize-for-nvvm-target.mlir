// MLIR's llvm-optimize-for-nvvm-target, registered under its upstream
// name: an f16 division becomes an f32 reciprocal approximation with one
// Newton step.
// RUN: tt-opt %s --llvm-optimize-for-nvvm-target | FileCheck %s

// CHECK-LABEL: llvm.func @divide
// CHECK-NOT: llvm.fdiv {{.*}} : f16
// CHECK: nvvm.rcp.approx.ftz.f
// CHECK: llvm.return
llvm.func @divide(%a: f16, %b: f16) -> f16 {
  %0 = llvm.fdiv %a, %b : f16
  llvm.return %0 : f16
}
