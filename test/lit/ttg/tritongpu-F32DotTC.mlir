// tritongpu-F32DotTC: bf16x3 and bf16x6 fp32 dots become 3 / 6 ieee bf16
// dots with NaNs of the small products zeroed; tf32x3 dots become 3 tf32
// dots only with emu-tf32=true (keeping maxNumImpreciseAcc); other dots,
// and bf16x3 dots of non-f32 operands, are left alone. The zero splat folds
// into one constant per function (MLIR's greedy driver, as in Triton).
// RUN: tt-opt %s --tritongpu-F32DotTC | FileCheck %s
// RUN: tt-opt %s --tritongpu-F32DotTC='emu-tf32=true' | FileCheck %s --check-prefix=EMU
// RUN: tt-opt %s --tritongpu-F32DotTC | tt-opt > /dev/null
// RUN: not tt-opt %s --tritongpu-F32DotTC='emu-tf32=maybe' 2>&1 | FileCheck %s --check-prefix=BADOPT

// BADOPT: invalid value 'maybe' for option 'emu-tf32': expected true or false

// CHECK-LABEL: tt.func @bf16x3
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00>
// CHECK-NEXT: %[[AH:.*]] = arith.truncf %arg0 {{.*}} to tensor<16x16xbf16
// CHECK-NEXT: %[[AHW:.*]] = arith.extf %[[AH]]
// CHECK-NEXT: %[[AR:.*]] = arith.subf %arg0, %[[AHW]]
// CHECK-NEXT: %[[AM:.*]] = arith.truncf %[[AR]]
// CHECK-NEXT: %[[BH:.*]] = arith.truncf %arg1
// CHECK-NEXT: %[[BHW:.*]] = arith.extf %[[BH]]
// CHECK-NEXT: %[[BR:.*]] = arith.subf %arg1, %[[BHW]]
// CHECK-NEXT: %[[BM:.*]] = arith.truncf %[[BR]]
// CHECK-NEXT: %[[D1:.*]] = tt.dot %[[AM]], %[[BH]], %[[Z]] : tensor<16x16xbf16
// CHECK-NEXT: %[[D2:.*]] = tt.dot %[[AH]], %[[BM]], %[[D1]] :
// CHECK-NEXT: %[[NAN:.*]] = arith.cmpf uno, %[[D2]], %[[D2]]
// CHECK-NEXT: %[[S:.*]] = arith.select %[[NAN]], %[[Z]], %[[D2]]
// CHECK-NEXT: %[[D3:.*]] = tt.dot %[[AH]], %[[BH]], %[[S]] :
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[D3]], %arg2
// CHECK-NEXT: tt.return %[[R]]

// CHECK-LABEL: tt.func @bf16x6
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00>
// CHECK-NEXT: %[[AH:.*]] = arith.truncf %arg0
// CHECK-NEXT: %[[AHW:.*]] = arith.extf %[[AH]]
// CHECK-NEXT: %[[AR:.*]] = arith.subf %arg0, %[[AHW]]
// CHECK-NEXT: %[[AM:.*]] = arith.truncf %[[AR]]
// CHECK-NEXT: %[[AMW:.*]] = arith.extf %[[AM]]
// CHECK-NEXT: %[[AR2:.*]] = arith.subf %[[AR]], %[[AMW]]
// CHECK-NEXT: %[[AL:.*]] = arith.truncf %[[AR2]]
// CHECK-NEXT: %[[BH:.*]] = arith.truncf %arg1
// CHECK-NEXT: %[[BHW:.*]] = arith.extf %[[BH]]
// CHECK-NEXT: %[[BR:.*]] = arith.subf %arg1, %[[BHW]]
// CHECK-NEXT: %[[BM:.*]] = arith.truncf %[[BR]]
// CHECK-NEXT: %[[BMW:.*]] = arith.extf %[[BM]]
// CHECK-NEXT: %[[BR2:.*]] = arith.subf %[[BR]], %[[BMW]]
// CHECK-NEXT: %[[BL:.*]] = arith.truncf %[[BR2]]
// CHECK-NEXT: %[[D1:.*]] = tt.dot %[[AM]], %[[BM]], %[[Z]] :
// CHECK-NEXT: %[[D2:.*]] = tt.dot %[[AL]], %[[BH]], %[[D1]] :
// CHECK-NEXT: %[[D3:.*]] = tt.dot %[[AH]], %[[BL]], %[[D2]] :
// CHECK-NEXT: %[[D4:.*]] = tt.dot %[[AM]], %[[BH]], %[[D3]] :
// CHECK-NEXT: %[[D5:.*]] = tt.dot %[[AH]], %[[BM]], %[[D4]] :
// CHECK-NEXT: %[[NAN:.*]] = arith.cmpf uno, %[[D5]], %[[D5]]
// CHECK-NEXT: %[[S:.*]] = arith.select %[[NAN]], %[[Z]], %[[D5]]
// CHECK-NEXT: %[[D6:.*]] = tt.dot %[[AH]], %[[BH]], %[[S]] :
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[D6]], %arg2
// CHECK-NEXT: tt.return %[[R]]

// CHECK-LABEL: tt.func @tf32x3
// CHECK-NEXT: tt.dot %arg0, %arg1, %arg2, inputPrecision = tf32x3 {maxNumImpreciseAcc = 32 : i32}
// CHECK-NEXT: tt.return

// EMU-LABEL: tt.func @tf32x3
// EMU-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00>
// EMU-NEXT: %[[AB:.*]] = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %arg0
// EMU-NEXT: %[[AS:.*]] = arith.subf %arg0, %[[AB]]
// EMU-NEXT: %[[BB:.*]] = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {{.*}} %arg1
// EMU-NEXT: %[[BS:.*]] = arith.subf %arg1, %[[BB]]
// EMU-NEXT: %[[D1:.*]] = tt.dot %[[AS]], %[[BB]], %[[Z]], inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32}
// EMU-NEXT: %[[D2:.*]] = tt.dot %[[AB]], %[[BS]], %[[D1]], inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32}
// EMU-NEXT: %[[NAN:.*]] = arith.cmpf uno, %[[D2]], %[[D2]]
// EMU-NEXT: %[[S:.*]] = arith.select %[[NAN]], %[[Z]], %[[D2]]
// EMU-NEXT: %[[D3:.*]] = tt.dot %[[AB]], %[[BB]], %[[S]], inputPrecision = tf32 {maxNumImpreciseAcc = 32 : i32}
// EMU-NEXT: %[[R:.*]] = arith.addf %[[D3]], %arg2
// EMU-NEXT: tt.return %[[R]]

// CHECK-LABEL: tt.func @untouched
// CHECK-NEXT: tt.dot %arg0, %arg1, %arg2, inputPrecision = bf16x3 : tensor<16x16xf16
// CHECK-NEXT: tt.dot %arg3, %arg4, %arg2, inputPrecision = tf32 :
// CHECK-NEXT: tt.dot %arg3, %arg4, %arg2 :
// CHECK-NEXT: tt.return
// EMU-LABEL: tt.func @untouched
// EMU-NEXT: tt.dot %arg0, %arg1, %arg2, inputPrecision = bf16x3 : tensor<16x16xf16
// EMU-NEXT: tt.dot %arg3, %arg4, %arg2, inputPrecision = tf32 :

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @bf16x3(%a: tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = bf16x3 : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf32, #blocked>
    tt.return %d : tensor<16x16xf32, #blocked>
  }
  tt.func @bf16x6(%a: tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = bf16x6 : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf32, #blocked>
    tt.return %d : tensor<16x16xf32, #blocked>
  }
  tt.func @tf32x3(%a: tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32x3 {maxNumImpreciseAcc = 32 : i32} : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf32, #blocked>
    tt.return %d : tensor<16x16xf32, #blocked>
  }
  tt.func @untouched(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<16x16xf32, #blocked>, %x: tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %y: tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) -> (tensor<16x16xf32, #blocked>, tensor<16x16xf32, #blocked>, tensor<16x16xf32, #blocked>) {
    %d = tt.dot %a, %b, %c, inputPrecision = bf16x3 : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf32, #blocked>
    %e = tt.dot %x, %y, %c, inputPrecision = tf32 : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf32, #blocked>
    %f = tt.dot %x, %y, %c : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<16x16xf32, #blocked>
    tt.return %d, %e, %f : tensor<16x16xf32, #blocked>, tensor<16x16xf32, #blocked>, tensor<16x16xf32, #blocked>
  }
}
