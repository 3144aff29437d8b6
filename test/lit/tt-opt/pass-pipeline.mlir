// RUN: tt-opt %s --pass-pipeline='builtin.module(tt.func(canonicalize{max-num-rewrites=0}),func.func(cse,canonicalize))' \
// RUN:   | FileCheck %s
// RUN: tt-opt %s --pass-pipeline='builtin.module(func.func(canonicalize), tt.func(canonicalize))' \
// RUN:   | FileCheck %s --check-prefix=BOTH
// RUN: not tt-opt %s --pass-pipeline='builtin.module(cse' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not tt-opt %s --pass-pipeline='tt.func(cse)' 2>&1 | FileCheck %s --check-prefix=ROOT

// Only the pass manager nested on func.func simplifies.
// CHECK-LABEL: tt.func @kept
// CHECK: arith.addi
// CHECK-LABEL: func.func @folded
// CHECK-NEXT: return %arg0 : i32
// BOTH-LABEL: tt.func @kept
// BOTH-NEXT: tt.return %arg0 : i32
// SYNTAX: tt-opt: error: invalid pass pipeline at offset 18: expected ',' or ')'
// ROOT: error: can't run 'tt.func' pass manager on 'builtin.module' op
tt.func @kept(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %y = arith.addi %x, %c0 : i32
  tt.return %y : i32
}
func.func @folded(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %y = arith.addi %x, %c0 : i32
  return %y : i32
}
