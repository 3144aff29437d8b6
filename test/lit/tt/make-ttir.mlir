// --make-ttir runs Triton's make_ttir stage: the helper is inlined and
// removed, the all-true mask disappears, the zero-accumulator dot absorbs the
// add, the scalar arithmetic moves before the splat, CSE merges the two
// program ids, and the loop marked for unrolling by 2 is unrolled.
// RUN: tt-opt %s --make-ttir | FileCheck %s
// RUN: tt-opt %s --make-ttir="target=cuda:80" | FileCheck %s
// RUN: not tt-opt %s --make-ttir="target=sm90" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: invalid target 'sm90': expected 'cuda:<capability>', e.g. 'cuda:90'

// CHECK-NOT: @offset
// CHECK-LABEL: tt.func public @kernel
// CHECK: %[[PID:.*]] = tt.get_program_id x : i32
// CHECK-NOT: tt.get_program_id
// CHECK: %[[OFF:.*]] = arith.muli %[[PID]], %{{.*}} : i32
// CHECK: %[[SPLAT:.*]] = tt.splat %[[OFF]] : i32 -> tensor<16xi32>
// CHECK: %[[LOAD:.*]] = tt.load %{{.*}} : tensor<16x!tt.ptr<f32>>
// CHECK: tt.dot %{{.*}}, %{{.*}}, %arg2 :
// CHECK-NOT: arith.addf %arg2
// The unrolled body computes the second induction value as MLIR's unroller
// does, unfolded (nothing canonicalizes after the unroll).
// CHECK: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %[[TWO]] iter_args(%[[T:.*]] = %[[PID]])
// CHECK-NEXT: %[[T1:.*]] = arith.addi %[[T]], %[[IV]] : i32
// CHECK: %[[IV2:.*]] = arith.addi %[[IV]], %{{.*}} : i32
// CHECK-NEXT: %[[T2:.*]] = arith.addi %[[T1]], %[[IV2]] : i32
// CHECK-NEXT: scf.yield %[[T2]] : i32
// CHECK-NOT: tt.loop_unroll_factor
module {
  tt.func private @offset(%pid: i32) -> i32 {
    %c16 = arith.constant 16 : i32
    %o = arith.muli %pid, %c16 : i32
    tt.return %o : i32
  }
  tt.func public @kernel(%p: !tt.ptr<f32>, %a: tensor<16x16xf16>, %acc: tensor<16x16xf32>) -> (tensor<16xf32>, tensor<16x16xf32>, i32) {
    %pid = tt.get_program_id x : i32
    %pid2 = tt.get_program_id x : i32
    %off = tt.call @offset(%pid) : (i32) -> i32
    %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %s = tt.splat %off : i32 -> tensor<16xi32>
    %idx = arith.addi %s, %range : tensor<16xi32>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %ptrs = tt.addptr %ps, %idx : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %true = arith.constant dense<true> : tensor<16xi1>
    %v = tt.load %ptrs, %true : tensor<16x!tt.ptr<f32>>
    %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %d = tt.dot %a, %a, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %sum = arith.addf %acc, %d : tensor<16x16xf32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%t = %pid2) -> (i32) : i32 {
      %n = arith.addi %t, %i : i32
      scf.yield %n : i32
    } {tt.loop_unroll_factor = 2 : i32}
    tt.return %v, %sum, %r : tensor<16xf32>, tensor<16x16xf32>, i32
  }
}
