// tritongpu-optimize-accumulator-init: a loop's warp-group dot or MMAv5
// whose accumulator is zeroed gets a use-accumulator flag instead (the results
// below are those of Triton 3.6's pass on the same input).
// RUN: tt-opt %s -split-input-file -tritongpu-optimize-accumulator-init -verify-diagnostics | FileCheck %s

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#shared8 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  // The select zeroes before the dot: the flag is a select on the same
  // condition of the carried flag, which is true from then on.
  // CHECK-LABEL: @select_before_dot
  // CHECK-DAG: %[[TRUE:.+]] = arith.constant true
  // CHECK-DAG: %[[FALSE:.+]] = arith.constant false
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[FLAG:.+]] = %[[TRUE]])
  // CHECK: %[[FIRST:.+]] = arith.cmpi eq
  // CHECK-NEXT: %[[USE:.+]] = arith.select %[[FIRST]], %[[FALSE]], %[[FLAG]] : i1
  // CHECK-NEXT: %[[D:.+]] = ttng.warp_group_dot %arg0, %arg1, %[[ACC]], %[[USE]]
  // CHECK-NEXT: scf.yield %[[D]], %[[TRUE]]
  tt.func @select_before_dot(%A: !ttg.memdesc<128x64xf16, #shared, #smem>, %B: !ttg.memdesc<64x16xf16, #shared1, #smem>, %n: i32) -> tensor<128x16xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x16xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x16xf32, #mma>) : i32 {
      %first = arith.cmpi eq, %i, %c0 : i32
      %a = arith.select %first, %zero, %acc : tensor<128x16xf32, #mma>
      %d = ttng.warp_group_dot %A, %B, %a : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x16xf16, #shared1, #smem> -> tensor<128x16xf32, #mma>
      scf.yield %d : tensor<128x16xf32, #mma>
    }
    tt.return %r : tensor<128x16xf32, #mma>
  }
  // fp8 into f32 with few imprecise accumulations needs a partial
  // accumulator: left alone.
  // CHECK-LABEL: @fp8_partial_accumulator
  // CHECK-NOT: arith.constant false
  // CHECK: ttng.warp_group_dot %arg0, %arg1, %arg4 {maxNumImpreciseAcc = 32 : i32}
  tt.func @fp8_partial_accumulator(%A: !ttg.memdesc<128x64xf8E4M3FN, #shared8, #smem>, %B: !ttg.memdesc<64x16xf8E4M3FN, #shared8, #smem>, %n: i32) -> tensor<128x16xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x16xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x16xf32, #mma>) : i32 {
      %d = ttng.warp_group_dot %A, %B, %acc {maxNumImpreciseAcc = 32 : i32} : !ttg.memdesc<128x64xf8E4M3FN, #shared8, #smem> * !ttg.memdesc<64x16xf8E4M3FN, #shared8, #smem> -> tensor<128x16xf32, #mma>
      scf.yield %d : tensor<128x16xf32, #mma>
    }
    tt.return %r : tensor<128x16xf32, #mma>
  }
  // A zero initial value: false on the first iteration, true after.
  // CHECK-LABEL: @fp8_enough_imprecise
  // CHECK-DAG: %[[TRUE:.+]] = arith.constant true
  // CHECK-DAG: %[[FALSE:.+]] = arith.constant false
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[FLAG:.+]] = %[[FALSE]])
  // CHECK-NEXT: %[[D:.+]] = ttng.warp_group_dot %arg0, %arg1, %[[ACC]], %[[FLAG]]
  // CHECK-NEXT: scf.yield %[[D]], %[[TRUE]]
  tt.func @fp8_enough_imprecise(%A: !ttg.memdesc<128x64xf8E4M3FN, #shared8, #smem>, %B: !ttg.memdesc<64x16xf8E4M3FN, #shared8, #smem>, %n: i32) -> tensor<128x16xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x16xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x16xf32, #mma>) : i32 {
      %d = ttng.warp_group_dot %A, %B, %acc {maxNumImpreciseAcc = 1073741824 : i32} : !ttg.memdesc<128x64xf8E4M3FN, #shared8, #smem> * !ttg.memdesc<64x16xf8E4M3FN, #shared8, #smem> -> tensor<128x16xf32, #mma>
      scf.yield %d : tensor<128x16xf32, #mma>
    }
    tt.return %r : tensor<128x16xf32, #mma>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // An MMAv5 whose accumulator buffer starts from a loop-carried tensor
  // that is zero on entry: its useD is a flag false on the first iteration.
  // CHECK-LABEL: tt.func @blackwell_zero_start
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[FLAG:.*]] = %false)
  // CHECK: %[[BUF:.*]] = ttng.tmem_alloc %[[ACC]]
  // CHECK: ttng.tc_gen5_mma %{{.*}}, %{{.*}}, %[[BUF]], %[[FLAG]], %true
  // CHECK: scf.yield %{{.*}}, %true
  tt.func @blackwell_zero_start(%a: !ttg.memdesc<128x128xf16, #shared, #smem>, %b: !ttg.memdesc<128x128xf16, #shared, #smem>, %n: i32) -> tensor<128x128xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #blocked>) : i32 {
      %d = ttng.tmem_alloc %acc : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      ttng.tc_gen5_mma %a, %b, %d, %true, %true : !ttg.memdesc<128x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %v = ttng.tmem_load %d : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
      scf.yield %v : tensor<128x128xf32, #blocked>
    }
    tt.return %r : tensor<128x128xf32, #blocked>
  }

  // Zeroed by a select before the MMA: the select moves to the flag.
  // CHECK-LABEL: tt.func @blackwell_zeroed_in_loop
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[FLAG:.*]] = %true)
  // CHECK: %[[RESTART:.*]] = arith.cmpi eq
  // CHECK: %[[USE:.*]] = arith.select %[[RESTART]], %false, %[[FLAG]] : i1
  // CHECK: %[[BUF:.*]] = ttng.tmem_alloc %[[ACC]]
  // CHECK: ttng.tc_gen5_mma %{{.*}}, %{{.*}}, %[[BUF]], %[[USE]], %true
  // CHECK: scf.yield %{{.*}}, %true
  tt.func @blackwell_zeroed_in_loop(%a: !ttg.memdesc<128x128xf16, #shared, #smem>, %b: !ttg.memdesc<128x128xf16, #shared, #smem>, %n: i32, %init: tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %true = arith.constant true
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32, #blocked>) : i32 {
      %rem = arith.remsi %i, %c4 : i32
      %restart = arith.cmpi eq, %rem, %c0 : i32
      %start = arith.select %restart, %zero, %acc : tensor<128x128xf32, #blocked>
      %d = ttng.tmem_alloc %start : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      ttng.tc_gen5_mma %a, %b, %d, %true, %true : !ttg.memdesc<128x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %v = ttng.tmem_load %d : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
      scf.yield %v : tensor<128x128xf32, #blocked>
    }
    tt.return %r : tensor<128x128xf32, #blocked>
  }
}
