// Pointer types: the default address space 1 is elided, others are printed.
module {
  tt.func public @pointers(%a: !tt.ptr<f32>, %b: !tt.ptr<f32, 1>, %c: !tt.ptr<f16, 3>, %d: tensor<4x!tt.ptr<f16, 3>>, %e: !tt.ptr<!tt.ptr<i8>>) {
    %0 = tt.splat %b : !tt.ptr<f32, 1> -> tensor<4x!tt.ptr<f32>>
    tt.return
  }
}
