// Atomics: op, semantic and scope printed as keywords.
module {
  tt.func public @atomics(%p: tensor<512x!tt.ptr<f32>>, %v: tensor<512xf32>, %m: tensor<512xi1>, %q: !tt.ptr<i32>, %i: i32) {
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (tensor<512x!tt.ptr<f32>>, tensor<512xf32>, tensor<512xi1>) -> tensor<512xf32>
    %1 = tt.atomic_rmw max, relaxed, cta, %p, %v : (tensor<512x!tt.ptr<f32>>, tensor<512xf32>) -> tensor<512xf32>
    %2 = tt.atomic_rmw exch, release, sys, %q, %i : (!tt.ptr<i32>, i32) -> i32
    %3 = tt.atomic_cas acquire, gpu, %q, %i, %2 : (!tt.ptr<i32>, i32, i32) -> i32
    tt.return
  }
}
