// ttc refuses TTGIR that takes or makes tensor descriptors: from TTGIR they
// would become TMA descriptors and copies, which the launch metadata cannot
// describe yet (TTIR input is fine: its descriptors become pointers).
// RUN: not ttc %s -o %t 2>&1 | FileCheck %s

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%base: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32, %out: !tt.ptr<f16>) {
    %c1 = arith.constant 1 : i64
    %s = arith.extsi %n : i32 to i64
    // CHECK: ttc-tensor-descriptors.mlir:[[@LINE+1]]:10: error: 'tt.make_tensor_descriptor' op tensor descriptors in TTGIR input (TMA) are not supported yet
    %d = tt.make_tensor_descriptor %base, [%n, %n], [%s, %c1] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16, #nvmma>>
    %c0 = arith.constant 0 : i32
    %t = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<tensor<64x64xf16, #nvmma>> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}
