// RUN: tt-opt %s --run-reproducer --dump-pass-pipeline 2>&1 | FileCheck %s
// RUN: tt-opt %s --pass-pipeline='builtin.module(any(cse,tritongpu-coalesce))' --dump-pass-pipeline --debug-only=x 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: echo 'module {}' | not tt-opt - --run-reproducer 2>&1 | FileCheck %s --check-prefix=NONE

// --run-reproducer runs the pipeline MLIR recorded in the file's
// `mlir_reproducer` resource; --dump-pass-pipeline prints it first, as
// mlir-opt does. The canonicalizer folds the addition of zero.
// CHECK: Pass Manager with 1 passes:
// CHECK-NEXT: builtin.module(tt.func(canonicalize{{.*}}))
// CHECK-LABEL: tt.func @f
// CHECK-NEXT: tt.return %arg0 : i32

// An op-agnostic pass manager runs only on the ops all its passes can run
// on: with a pass anchored on modules it is a nested module pass manager.
// ANY: tt-opt: note: --debug-only=x: no debug output in this build
// ANY: Pass Manager with 1 passes:
// ANY-NEXT: builtin.module(builtin.module(cse,tritongpu-coalesce))

// NONE: tt-opt: error: --run-reproducer: the input has no `mlir_reproducer` resource with a pipeline
tt.func @f(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %y = arith.addi %x, %c0 : i32
  tt.return %y : i32
}

{-#
  external_resources: {
    mlir_reproducer: {
      pipeline: "builtin.module(tt.func(canonicalize{max-iterations=10}))",
      disable_threading: false,
      verify_each: false
    }
  }
#-}
