// RUN: tt-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// Every designator form, each met exactly once.

tt.func @plus(%x: tensor<2xf32>) {
  // expected-error@+1 {{source tensor must have exactly one element, but has 2}}
  %0 = tt.unsplat %x : tensor<2xf32>
  tt.return
}

// -----

tt.func @below(%x: tensor<2xf32>) {
  // expected-error@below {{'tt.unsplat' op}}
  %0 = tt.unsplat %x : tensor<2xf32>
  tt.return
}

// -----

tt.func @regex(%x: f32) {
  // expected-error-re@+1 {{has {{[0-9]+}} elements, more than the maximum of {{[0-9]+$}}}}
  %1 = tt.splat %x : f32 -> tensor<2048x1024xf32>
  tt.return
}

// -----

tt.func @above(%x: tensor<2xf32>) {
  %0 = tt.unsplat %x : tensor<2xf32>
  // expected-error@above {{exactly one element}}
  tt.return
}

// -----

tt.func @minus(%x: tensor<2xf32>) {
  %0 = tt.unsplat %x : tensor<2xf32>

  // expected-error@-2 {{but has 2}}
  tt.return
}

// -----

tt.func @same_line(%x: tensor<2xf32>) {
  %0 = tt.unsplat %x : tensor<2xf32> // expected-error {{exactly one element}}
  tt.return
}

// -----

// Notes are matched too; the op dump MLIR attaches to op errors is not
// reported.
tt.func private @dup()
// expected-note@-1 {{see existing symbol definition here}}
// expected-error@+1 {{redefinition of symbol named 'dup'}}
tt.func private @dup()

// -----

tt.func @unknown_location(%x: tensor<2xf32>) {
  // expected-error@unknown {{exactly one element}}
  %0 = tt.unsplat %x : tensor<2xf32> loc(unknown)
  tt.return
}

// -----

// A chunk without diagnostics still prints.
// CHECK: tt.func @clean()
tt.func @clean() {
  tt.return
}
