// RUN: not tt-opt %s --split-input-file --verify-diagnostics 2>&1 | FileCheck %s

tt.func @unexpected(%x: tensor<2xf32>) {
  // CHECK: verify-diagnostics-failures.mlir:[[@LINE+3]]:8: error: unexpected error: 'tt.unsplat' op source tensor must have exactly one element, but has 2
  // CHECK-NEXT: {{^}}  %0 = tt.unsplat %x : tensor<2xf32>
  // CHECK-NEXT: {{^}}       ^
  %0 = tt.unsplat %x : tensor<2xf32>
  tt.return
}

// -----

tt.func @unmet() {
  // CHECK: verify-diagnostics-failures.mlir:[[@LINE+1]]:6: error: expected error "never produced" was not produced
  // expected-error@+1 {{never produced}}
  tt.return
}

// -----

tt.func @wrong_kind(%x: tensor<2xf32>) {
  // CHECK: error: 'error' diagnostic emitted when expecting a 'warning'
  // CHECK: error: expected warning "exactly one element" was not produced
  // expected-warning@+1 {{exactly one element}}
  %0 = tt.unsplat %x : tensor<2xf32>
  tt.return
}

// -----

tt.func @bad_regex() {
  // CHECK: [[@LINE+1]]:6: error: invalid regex: {{.*}}
  // expected-error-re@+1 {{x {{(}} y}}
  tt.return
}
