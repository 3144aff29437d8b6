// inline rejects recursion among the calls it would inline, at the call
// that closes the cycle; recursion through a noinline function is allowed.
// A bad value for an option of MLIR's inliner fails the pipeline before it
// runs.
// RUN: tt-opt %s --split-input-file --inline --verify-diagnostics
// RUN: not tt-opt %s --inline='max-iterations=abc' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: 'abc' value invalid for uint argument
// OPTION: tt-opt: error: failed to add `inline` with options `max-iterations=abc`
// OPTION-NOT: recursive call

module {
  tt.func private @even(%x: i32) -> i32 {
    %r = tt.call @odd(%x) : (i32) -> i32
    tt.return %r : i32
  }
  tt.func private @odd(%x: i32) -> i32 {
    // expected-error@+1 {{recursive call to @even cannot be inlined (call chain @even -> @odd -> @even)}}
    %r = tt.call @even(%x) : (i32) -> i32
    tt.return %r : i32
  }
  tt.func public @k(%x: i32) -> i32 {
    %r = tt.call @even(%x) : (i32) -> i32
    tt.return %r : i32
  }
}

// -----

module {
  tt.func public @self(%x: i32) -> i32 {
    // expected-error@+1 {{recursive call to @self cannot be inlined (call chain @self -> @self)}}
    %r = tt.call @self(%x) : (i32) -> i32
    tt.return %r : i32
  }
}

// -----

// No error: @odd is noinline, so the cycle is never inlined.
module {
  tt.func private @even(%x: i32) -> i32 {
    %r = tt.call @odd(%x) : (i32) -> i32
    tt.return %r : i32
  }
  tt.func private @odd(%x: i32) -> i32 attributes {noinline = true} {
    %r = tt.call @even(%x) : (i32) -> i32
    tt.return %r : i32
  }
}
