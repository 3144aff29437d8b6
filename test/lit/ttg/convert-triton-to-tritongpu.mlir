// convert-triton-to-tritongpu: the module attributes, Triton's default
// blocked layout for every tensor (1-D, 2-D, 3-D; num-warps 1 to 16),
// reductions on each axis (slice results), expand_dims through a slice of
// its result layout, dot operands as dot_op layouts, scf.for/scf.if carrying
// tensors, and ttg.convert_layout wherever Triton's conversion puts one.
// RUN: tt-opt %s --split-input-file --convert-triton-to-tritongpu='target=cuda:90 num-warps=4' | FileCheck %s
// RUN: tt-opt %s --split-input-file --convert-triton-to-tritongpu='target=cuda:90 num-warps=4' | tt-opt --split-input-file > /dev/null
// RUN: tt-opt %s --split-input-file --convert-triton-to-tritongpu='target=cuda:90 num-warps=1' | FileCheck %s --check-prefix=W1
// RUN: tt-opt %s --split-input-file --convert-triton-to-tritongpu='target=cuda:90 num-warps=2' | FileCheck %s --check-prefix=W2
// RUN: tt-opt %s --split-input-file --convert-triton-to-tritongpu='target=cuda:90 num-warps=8' | FileCheck %s --check-prefix=W8
// RUN: tt-opt %s --split-input-file --convert-triton-to-tritongpu='target=cuda:90 num-warps=16' | FileCheck %s --check-prefix=W16
// RUN: tt-opt %s --split-input-file --convert-triton-to-tritongpu | FileCheck %s --check-prefix=NOTARGET
// RUN: echo 'module attributes {ttg.target = "cuda:80"} {}' | tt-opt --convert-triton-to-tritongpu | FileCheck %s --check-prefix=MODULETARGET
// RUN: not tt-opt %s --split-input-file --convert-triton-to-tritongpu='target=gpu90' 2>&1 | FileCheck %s --check-prefix=BADTARGET

// Without the option: the module's ttg.target, else make-ttgir's cuda:90.
// NOTARGET: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// MODULETARGET: ttg.target = "cuda:80"
// BADTARGET: convert-triton-to-tritongpu.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'builtin.module' op invalid target 'gpu90': expected 'cuda:<capability>', e.g. 'cuda:90'

// CHECK: #[[B1:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[B2:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK: #[[B3:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// CHECK: tt.splat %{{.*}} -> tensor<256x!tt.ptr<f32>, #[[B1]]>
// CHECK: tt.splat %{{.*}} -> tensor<16x64x!tt.ptr<f32>, #[[B2]]>
// CHECK: tt.splat %{{.*}} -> tensor<2x4x8x!tt.ptr<f32>, #[[B3]]>

// W1: #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// W1: #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
// W1: #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 1, 1], order = [2, 1, 0]}>
// W1: "ttg.num-warps" = 1 : i32
// W2: #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// W2: #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 2], order = [1, 0]}>
// W2: #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [2, 1, 1], order = [2, 1, 0]}>
// W2: "ttg.num-warps" = 2 : i32
// W8: #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// W8: #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
// W8: #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [8, 1, 1], order = [2, 1, 0]}>
// W8: "ttg.num-warps" = 8 : i32
// W16: #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [16], order = [0]}>
// W16: #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 2], order = [1, 0]}>
// W16: #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [16, 1, 1], order = [2, 1, 0]}>
// W16: "ttg.num-warps" = 16 : i32
tt.func @shapes(%p: !tt.ptr<f32>) {
  %a = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %b = tt.splat %p : !tt.ptr<f32> -> tensor<16x64x!tt.ptr<f32>>
  %c = tt.splat %p : !tt.ptr<f32> -> tensor<2x4x8x!tt.ptr<f32>>
  tt.return
}

// -----

// CHECK: #[[B:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK: #[[B1:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[COL:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[EXP:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-LABEL: tt.func @reduce_and_expand
// CHECK-SAME: tensor<16x64xf32, #[[B]]>) -> (tensor<64xf32, #[[B1]]>, tensor<16x1xf32, #[[COL]]>)
// CHECK: "tt.reduce"
// CHECK: (tensor<16x64xf32, #[[B]]>) -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #[[B]]}>>
// CHECK-NEXT: %[[R0:.*]] = ttg.convert_layout %{{.*}} : tensor<64xf32, #ttg.slice<{dim = 0, parent = #[[B]]}>> -> tensor<64xf32, #[[B1]]>
// CHECK: "tt.reduce"
// CHECK: (tensor<16x64xf32, #[[B]]>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #[[B]]}>>
// CHECK-NEXT: %[[R1:.*]] = ttg.convert_layout %{{.*}} -> tensor<16xf32, #[[B1]]>
// CHECK-NEXT: %[[S:.*]] = ttg.convert_layout %[[R1]] : tensor<16xf32, #[[B1]]> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #[[EXP]]}>>
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %[[S]] {axis = 1 : i32} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #[[EXP]]}>> -> tensor<16x1xf32, #[[EXP]]>
// CHECK-NEXT: %[[E2:.*]] = ttg.convert_layout %[[E]] : tensor<16x1xf32, #[[EXP]]> -> tensor<16x1xf32, #[[COL]]>
// CHECK-NEXT: tt.return %[[R0]], %[[E2]]
tt.func @reduce_and_expand(%x: tensor<16x64xf32>) -> (tensor<64xf32>, tensor<16x1xf32>) {
  %r0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x64xf32>) -> tensor<64xf32>
  %r1 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %r: f32):
    %m = arith.maxnumf %l, %r : f32
    tt.reduce.return %m : f32
  }) : (tensor<16x64xf32>) -> tensor<16xf32>
  %e = tt.expand_dims %r1 {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  tt.return %r0, %e : tensor<64xf32>, tensor<16x1xf32>
}

// -----

// The dot's layout: 4x4 elements per thread at 32 per thread (num-warps 4),
// 2x2 at 8 (num-warps 16).
// CHECK: #[[A:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[B:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK: #[[D:.*]] = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @dot_in_loop
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[B]]>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<64x64xf32, #[[B]]>)
// CHECK-NEXT: %[[CA:.*]] = ttg.convert_layout %{{.*}} : tensor<64x32xf16, #[[A]]> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #[[D]]}>>
// CHECK-NEXT: %[[CB:.*]] = ttg.convert_layout %{{.*}} : tensor<32x64xf16, #[[B]]> -> tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #[[D]]}>>
// CHECK-NEXT: %[[CC:.*]] = ttg.convert_layout %[[ACC]] : tensor<64x64xf32, #[[B]]> -> tensor<64x64xf32, #[[D]]>
// CHECK-NEXT: %[[DOT:.*]] = tt.dot %[[CA]], %[[CB]], %[[CC]] : {{.*}} -> tensor<64x64xf32, #[[D]]>
// CHECK-NEXT: %[[BACK:.*]] = ttg.convert_layout %[[DOT]] : tensor<64x64xf32, #[[D]]> -> tensor<64x64xf32, #[[B]]>
// CHECK-NEXT: scf.yield %[[BACK]] : tensor<64x64xf32, #[[B]]>
// CHECK: scf.if %{{.*}} -> (tensor<64x64xf32, #[[B]]>)
// CHECK: tt.return %{{.*}} : tensor<64x64xf32, #[[B]]>
// W16: #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [16, 1], order = [1, 0]}>
tt.func @dot_in_loop(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %n: i32, %flag: i1) -> tensor<64x64xf32> {
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %d = tt.dot %a, %b, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %s = scf.if %flag -> (tensor<64x64xf32>) {
    scf.yield %r : tensor<64x64xf32>
  } else {
    scf.yield %zero : tensor<64x64xf32>
  }
  tt.return %s : tensor<64x64xf32>
}

// -----

// TMA gathers and scatters read their row offsets in a slice of a blocked
// layout with four offsets per thread, broadcast over the warps: a
// convert_layout just before the op.
// CHECK-DAG: #[[ROWS:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[ROW_DEFAULT:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @gather_scatter
tt.func @gather_scatter(%desc: !tt.tensordesc<tensor<1x128xf32>>, %y: i32, %p: !tt.ptr<f32>) {
  // CHECK: %[[X:.*]] = arith.constant dense<1> : tensor<32xi32, #[[ROW_DEFAULT]]>
  %x = arith.constant dense<1> : tensor<32xi32>
  // CHECK-NEXT: %[[XG:.*]] = ttg.convert_layout %[[X]] : tensor<32xi32, #[[ROW_DEFAULT]]> -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #[[ROWS]]}>>
  // CHECK-NEXT: tt.descriptor_gather %arg0[%[[XG]], %arg1]
  %0 = tt.descriptor_gather %desc[%x, %y] : (!tt.tensordesc<tensor<1x128xf32>>, tensor<32xi32>, i32) -> tensor<32x128xf32>
  // CHECK-NEXT: %[[XS:.*]] = ttg.convert_layout %[[X]]
  // CHECK-NEXT: tt.descriptor_scatter %arg0[%[[XS]], %arg1]
  tt.descriptor_scatter %desc[%x, %y], %0 : !tt.tensordesc<tensor<1x128xf32>>, tensor<32xi32>, i32, tensor<32x128xf32>
  tt.return
}
