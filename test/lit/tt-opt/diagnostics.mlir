// RUN: not tt-opt %s --split-input-file 2>&1 | FileCheck %s --strict-whitespace
// RUN: printf 'module {}\n\xff\n' | not tt-opt 2>&1 | FileCheck %s --check-prefix=UTF8
// RUN: not tt-opt %s --does-not-exist 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not tt-opt %s.missing 2>&1 | FileCheck %s --check-prefix=MISSING

// The message, then the source line and a caret under the column.
// CHECK: {{.*}}diagnostics.mlir:[[@LINE+4]]:8: error: 'tt.make_range' op start must be less than end (start = 16, end = 0)
// CHECK-NEXT: {{^}}  %0 = tt.make_range {end = 0 : i32, start = 16 : i32} : tensor<16xi32>
// CHECK-NEXT: {{^}}       ^
tt.func @caret() {
  %0 = tt.make_range {end = 0 : i32, start = 16 : i32} : tensor<16xi32>
  tt.return
}

// -----

// Locations are walked through names and fused locations; a position in
// another file prints without a snippet.
// CHECK: {{^}}elsewhere.mlir:7:3: error: 'tt.unsplat' op source tensor must have exactly one element, but has 2
// CHECK-NOT: tt.unsplat
// CHECK: {{^}}error: 'tt.unsplat' op source tensor must have exactly one element, but has 4
tt.func @other_file(%x: tensor<2xf32>) {
  %0 = tt.unsplat %x : tensor<2xf32> loc(fused["here", "elsewhere.mlir":7:3])
  tt.return
}

// -----

tt.func @unknown_location(%x: tensor<4xf32>) {
  %0 = tt.unsplat %x : tensor<4xf32> loc(unknown)
  tt.return
}

// -----

// Notes follow their error, with their own snippet.
// CHECK: diagnostics.mlir:[[@LINE+5]]:1: error: redefinition of symbol named 'dup'
// CHECK-NEXT: {{^}}tt.func private @dup()
// CHECK-NEXT: {{^}}^
// CHECK: diagnostics.mlir:[[@LINE+1]]:1: note: see existing symbol definition here
tt.func private @dup()
tt.func private @dup()

// UTF8: <stdin>:2:1: error: invalid UTF-8 in the input (byte offset 10)
// FLAG: tt-opt: error: unknown command line argument '--does-not-exist'
// MISSING: tt-opt: error: cannot read '{{.*}}diagnostics.mlir.missing'
