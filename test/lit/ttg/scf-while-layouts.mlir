// A tensor carried through scf.while across convert-triton-to-tritongpu,
// tritongpu-coalesce and tritongpu-remove-layout-conversions. With 128
// elements on 128 threads coalesce keeps one element per thread but, as in
// Triton, still wraps the memory ops in (identity) conversions; the clean-up
// removes them all and the while keeps carrying the blocked accumulator.
// Triton 3.6.0's own passes (run on this file through its Python bindings)
// give exactly the CHECKed result.
// RUN: tt-opt %s --convert-triton-to-tritongpu='target=cuda:90 num-warps=4' --tritongpu-coalesce | FileCheck %s --check-prefix=COALESCED
// RUN: tt-opt %s --convert-triton-to-tritongpu='target=cuda:90 num-warps=4' --tritongpu-coalesce --tritongpu-remove-layout-conversions | FileCheck %s

// COALESCED-COUNT-3: ttg.convert_layout

// CHECK: #[[B:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (i32, tensor<128xf32, #[[B]]>) -> (i32, tensor<128xf32, #[[B]]>)
// CHECK: tt.load %{{.*}} : tensor<128x!tt.ptr<f32>, #[[B]]>
// CHECK: tt.store %{{.*}}, %{{.*}}#1 : tensor<128x!tt.ptr<f32>, #[[B]]>
// CHECK-NOT: ttg.convert_layout
module {
  tt.func @while_carry(%n: i32, %base: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %zero = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %bs = tt.splat %base : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %p = tt.addptr %bs, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %r:2 = scf.while (%i = %c0, %acc = %zero) : (i32, tensor<128xf32>) -> (i32, tensor<128xf32>) {
      %more = arith.cmpi slt, %i, %n : i32
      scf.condition(%more) %i, %acc : i32, tensor<128xf32>
    } do {
    ^bb0(%j: i32, %a: tensor<128xf32>):
      %x = tt.load %p : tensor<128x!tt.ptr<f32>>
      %s = arith.addf %a, %x : tensor<128xf32>
      %k = arith.addi %j, %c1 : i32
      scf.yield %k, %s : i32, tensor<128xf32>
    }
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %q = tt.addptr %os, %range : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %q, %r#1 : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
