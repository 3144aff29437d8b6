// RUN: tt-opt < %s | FileCheck %s
// RUN: cat %s | tt-opt - | FileCheck %s
// RUN: tt-opt --mlir-print-debuginfo < %s | FileCheck %s --check-prefix=LOC

// CHECK: module {
// CHECK-NEXT: func.func @id(%arg0: i32) -> i32 {
// CHECK-NEXT: return %arg0 : i32
// LOC: loc("<stdin>":[[@LINE+1]]:1)
func.func @id(%x: i32) -> i32 {
  return %x : i32
}
