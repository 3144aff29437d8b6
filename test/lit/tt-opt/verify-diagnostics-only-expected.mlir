// --verify-diagnostics=only-expected (mlir-opt's mode, used by Triton's lit
// files): every expected diagnostic must be produced, unexpected ones are
// allowed; plain --verify-diagnostics rejects the unexpected one.
// RUN: tt-opt %s --split-input-file --verify-diagnostics=only-expected
// RUN: not tt-opt %s --split-input-file --verify-diagnostics 2>&1 | FileCheck %s
// CHECK: unexpected error: 'tt.make_range' op number of elements of the result (8) must be end - start (16)
tt.func @expected() {
  // expected-error @+1 {{start must be less than end}}
  %a = tt.make_range {start = 16 : i32, end = 0 : i32} : tensor<16xi32>
  tt.return
}

// -----

tt.func @unexpected() {
  %b = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<8xi32>
  tt.return
}
