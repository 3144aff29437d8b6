// RUN: tt-opt %s --cse --canonicalize --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s
// RUN: tt-opt %s --cse --mlir-print-ir-before-all 2>&1 >/dev/null | FileCheck %s --check-prefix=BEFORE
// RUN: tt-opt %s --cse --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING

// CHECK: // -----// IR Dump After CSE (cse) //----- //
// CHECK: arith.addi %arg0, %c0_i32
// CHECK: // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// CHECK-NOT: arith.addi
// BEFORE: // -----// IR Dump Before CSE (cse) //----- //
// TIMING: Execution time report
// TIMING: CSE
tt.func @f(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %y = arith.addi %x, %c0 : i32
  tt.return %y : i32
}
