// tritongpu-pipeline splits a wgmma whose A operand is in registers into
// one wgmma per instruction K (Triton's splitRSDot) when nothing in the
// loop waits for all dots: A is reshaped, transposed and split into pieces
// (layouts inferred as Triton infers them), B is cut into subslices along
// K, and each piece waits only for its own previous iteration. On Triton's
// own cases (loop-pipeline-hopper.mlir) the output is the wheel's.
// RUN: tt-opt %s -tritongpu-assign-latencies -tritongpu-schedule-loops -tritongpu-pipeline -canonicalize | FileCheck %s

// CHECK-DAG: #[[L0:.+]] = #ttg.linear<{register = {{\[}}[0, 0, 1], [8, 0, 0], [0, 0, 8], [0, 1, 0], [64, 0, 0{{\]}}], lane = {{\[}}[0, 0, 2], [0, 0, 4], [1, 0, 0], [2, 0, 0], [4, 0, 0{{\]}}], warp = {{\[}}[16, 0, 0], [32, 0, 0{{\]}}], block = []}>
// CHECK-DAG: #[[L1:.+]] = #ttg.linear<{register = {{\[}}[0, 1, 0], [8, 0, 0], [0, 8, 0], [0, 0, 1], [64, 0, 0{{\]}}], lane = {{\[}}[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0{{\]}}], warp = {{\[}}[16, 0, 0], [32, 0, 0{{\]}}], block = []}>
// CHECK-DAG: #[[L2:.+]] = #ttg.linear<{register = {{\[}}[0, 1], [8, 0], [0, 8], [64, 0{{\]}}], lane = {{\[}}[0, 2], [0, 4], [1, 0], [2, 0], [4, 0{{\]}}], warp = {{\[}}[16, 0], [32, 0{{\]}}], block = []}>
// CHECK-LABEL: tt.func @dot_lhs_registers
// CHECK: scf.for
// CHECK: %[[A:.+]] = arith.mulf
// CHECK-NEXT: %[[R:.+]] = tt.reshape %[[A]] : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> -> tensor<128x2x16xf16, #[[L0]]>
// CHECK-NEXT: %[[T:.+]] = tt.trans %[[R]] {order = array<i32: 0, 2, 1>} : tensor<128x2x16xf16, #[[L0]]> -> tensor<128x16x2xf16, #[[L1]]>
// CHECK-NEXT: %[[LO:.+]], %[[HI:.+]] = tt.split %[[T]] : tensor<128x16x2xf16, #[[L1]]> -> tensor<128x16xf16, #[[L2]]>
// CHECK-NEXT: %[[A0:.+]] = ttg.convert_layout %[[LO]] : tensor<128x16xf16, #[[L2]]> -> tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[A1:.+]] = ttg.convert_layout %[[HI]]
// CHECK-NEXT: %[[B0:.+]] = ttg.memdesc_subslice %[[B:.+]][0, 0] : !ttg.memdesc<32x16xf16, #shared1, #smem, mutable> -> !ttg.memdesc<16x16xf16, #shared1, #smem, 32x16>
// CHECK-NEXT: %[[B1:.+]] = ttg.memdesc_subslice %[[B]][16, 0]
// CHECK-NEXT: %[[D0:.+]] = ttng.warp_group_dot %[[A0]], %[[B0]], %{{.+}} {isAsync = true}
// CHECK-NEXT: %[[W0:.+]]:2 = ttng.warp_group_dot_wait %[[D0]], %[[B0]] {pendings = 1 : i32}
// CHECK-NEXT: %[[D1:.+]] = ttng.warp_group_dot %[[A1]], %[[B1]], %[[W0]]#0, %true {isAsync = true}
// CHECK-NEXT: %[[W1:.+]]:2 = ttng.warp_group_dot_wait %[[D1]], %[[B1]] {pendings = 1 : i32}
// CHECK: scf.yield %[[W1]]#0
// CHECK: ttng.warp_group_dot_wait %{{.+}}#0 {pendings = 0 : i32}



#blocked = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_lhs_registers(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f16> {tt.divisibility = 16 : i32}) -> tensor<128x16xf32, #mma> {
    %cst = arith.constant dense<0> : tensor<32x16xi32, #blocked>
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant dense<0> : tensor<1x16xi32, #blocked>
    %cst_1 = arith.constant dense<0> : tensor<128x1xi32, #blocked1>
    %c0_i64 = arith.constant 0 : i64
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<128x16xf32, #mma>
    %cst_3 = arith.constant dense<0> : tensor<128x32xi32, #blocked1>
    %cst_4 = arith.constant dense<2.0> : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %c1_i32 = arith.constant 1 : i32
    %c8_i32 = arith.constant 8 : i32
    %0 = tt.addptr %arg0, %c0_i64 : !tt.ptr<f16>, i64
    %1 = tt.addptr %arg1, %c0_i64 : !tt.ptr<f16>, i64
    %2 = tt.splat %1 : !tt.ptr<f16> -> tensor<128x1x!tt.ptr<f16>, #blocked1>
    %3 = tt.addptr %2, %cst_1 : tensor<128x1x!tt.ptr<f16>, #blocked1>, tensor<128x1xi32, #blocked1>
    %4 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %5 = tt.expand_dims %4 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x32xi32, #blocked1>
    %6 = tt.broadcast %3 : tensor<128x1x!tt.ptr<f16>, #blocked1> -> tensor<128x32x!tt.ptr<f16>, #blocked1>
    %7 = tt.broadcast %5 : tensor<1x32xi32, #blocked1> -> tensor<128x32xi32, #blocked1>
    %8 = tt.addptr %6, %7 : tensor<128x32x!tt.ptr<f16>, #blocked1>, tensor<128x32xi32, #blocked1>
    %10 = tt.splat %0 : !tt.ptr<f16> -> tensor<1x16x!tt.ptr<f16>, #blocked>
    %11 = tt.addptr %10, %cst_0 : tensor<1x16x!tt.ptr<f16>, #blocked>, tensor<1x16xi32, #blocked>
    %12 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %13 = tt.expand_dims %12 {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %14 = tt.broadcast %11 : tensor<1x16x!tt.ptr<f16>, #blocked> -> tensor<32x16x!tt.ptr<f16>, #blocked>
    %15 = tt.broadcast %13 : tensor<32x1xi32, #blocked> -> tensor<32x16xi32, #blocked>
    %16 = tt.addptr %14, %15 : tensor<32x16x!tt.ptr<f16>, #blocked>, tensor<32x16xi32, #blocked>
    %17:3 = scf.for %arg3 = %c0_i32 to %c8_i32 step %c1_i32 iter_args(%arg4 = %cst_2, %arg5 = %8, %arg6 = %16) -> (tensor<128x16xf32, #mma>, tensor<128x32x!tt.ptr<f16>, #blocked1>,
        tensor<32x16x!tt.ptr<f16>, #blocked>)  : i32 {
      %a_block = tt.load %arg5 : tensor<128x32x!tt.ptr<f16>, #blocked1>
      %b_block = tt.load %arg6 : tensor<32x16x!tt.ptr<f16>, #blocked>
      %a_dotop = ttg.convert_layout %a_block : tensor<128x32xf16, #blocked1> -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %a_dotop_mul = arith.mulf %a_dotop, %cst_4 : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %b_smem = ttg.local_alloc %b_block : (tensor<32x16xf16, #blocked>) -> !ttg.memdesc<32x16xf16, #shared1, #smem>
      %21 = ttng.warp_group_dot %a_dotop_mul, %b_smem, %arg4 : tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<32x16xf16, #shared1, #smem> -> tensor<128x16xf32, #mma>
      %25 = tt.addptr %arg5, %cst_3 : tensor<128x32x!tt.ptr<f16>, #blocked1>, tensor<128x32xi32, #blocked1>
      %26 = tt.addptr %arg6, %cst : tensor<32x16x!tt.ptr<f16>, #blocked>, tensor<32x16xi32, #blocked>
      scf.yield %21, %25, %26 : tensor<128x16xf32, #mma>, tensor<128x32x!tt.ptr<f16>, #blocked1>, tensor<32x16x!tt.ptr<f16>, #blocked>
    }
    tt.return %17#0 : tensor<128x16xf32, #mma>
  }
}
