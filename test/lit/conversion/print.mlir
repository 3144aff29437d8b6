// RUN: tt-opt %s --convert-triton-gpu-to-llvm | FileCheck %s

// convert-triton-gpu-to-llvm: tt.print as vprintf, as Triton 3.6 prints.
// One format global per operand, one call per element held, the arguments
// promoted (small ints to i32, f16/f32 to f64) in a literal-struct buffer.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: llvm.mlir.global internal constant @printfFormat_0("pid (%u, %u, %u) idx (%2u) v: %lli\0A\00") {addr_space = 0 : i32}
  // CHECK-DAG: llvm.mlir.global internal constant @printfFormat_1("pid (%u, %u, %u) pid\0A\00")
  // CHECK-DAG: llvm.mlir.global internal constant @printfFormat_2("pid (%u, %u, %u) idx (%3u): (operand 0) %u\0A\00")
  // CHECK-DAG: llvm.mlir.global internal constant @printfFormat_3("pid (%u, %u, %u) idx (%3u): (operand 1) %f\0A\00")
  // CHECK-DAG: llvm.mlir.global internal constant @printfFormat_4("pid (%u, %u, %u) idx (%0u, %2u) h: 0x%08x\0A\00")
  // CHECK-DAG: llvm.mlir.global internal constant @printfFormat_5("pid (%u, %u, %u) idx () s: %p\0A\00")
  // CHECK-DAG: llvm.mlir.global internal constant @printfFormat_6("pid (%u, %u, %u) idx () s: 0x%016llx\0A\00")
  // CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32

  // 16 x i64 over 128 threads: each thread holds one element, idx width 2.
  // CHECK-LABEL: llvm.func @one
  // CHECK: %[[BUF:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i32, i64)> {alignment = 8 : i64}
  // CHECK: %[[X:.*]] = nvvm.read.ptx.sreg.ctaid.x
  // CHECK: %[[FMT:.*]] = llvm.mlir.addressof @printfFormat_0 : !llvm.ptr
  // CHECK: %[[F0:.*]] = llvm.getelementptr %[[BUF]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32, i32, i32, i64)>
  // CHECK: llvm.store %[[X]], %[[F0]]
  // CHECK: llvm.getelementptr %[[BUF]][0, 4]
  // CHECK: llvm.call @vprintf(%[[FMT]], %[[BUF]]) : (!llvm.ptr, !llvm.ptr) -> i32
  // CHECK-NOT: vprintf
  // CHECK: llvm.return
  tt.func public @one(%p: !tt.ptr<i64>) {
    %x = tt.splat %p : !tt.ptr<i64> -> tensor<16x!tt.ptr<i64>, #blocked>
    %v = tt.load %x : tensor<16x!tt.ptr<i64>, #blocked>
    tt.print " v: " {hex = false, isSigned = array<i32: 1>} : %v : tensor<16xi64, #blocked>
    tt.return
  }

  // No operand: the program id only, every thread.
  // CHECK-LABEL: llvm.func @none
  // CHECK: llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32)>
  // CHECK: llvm.call @vprintf
  tt.func public @none() {
    tt.print " pid" {hex = false, isSigned = array<i32>}
    tt.return
  }

  // Two operands, 256 elements over 128 threads: two calls each; an
  // unsigned i8 zero-extends, an f16 becomes a double.
  // CHECK-LABEL: llvm.func @two
  // CHECK: llvm.zext %{{.*}} : i8 to i32
  // CHECK: llvm.call @vprintf
  // CHECK: llvm.zext %{{.*}} : i8 to i32
  // CHECK: llvm.call @vprintf
  // CHECK: llvm.fpext %{{.*}} : f16 to f64
  // CHECK: llvm.call @vprintf
  // CHECK: llvm.fpext %{{.*}} : f16 to f64
  // CHECK: llvm.call @vprintf
  // CHECK-NOT: vprintf
  // CHECK: llvm.return
  tt.func public @two(%a: i8, %b: f16) {
    %x = tt.splat %a : i8 -> tensor<256xi8, #blocked>
    %y = tt.splat %b : f16 -> tensor<256xf16, #blocked>
    tt.print ": " {hex = false, isSigned = array<i32: 0, 0>} : %x, %y : tensor<256xi8, #blocked>, tensor<256xf16, #blocked>
    tt.return
  }

  // 2-D, hex: a size-1 dimension gets width 0; f32 printed as its bits.
  // CHECK-LABEL: llvm.func @hex2d
  // CHECK: llvm.bitcast %{{.*}} : f32 to i32
  // CHECK: llvm.call @vprintf
  tt.func public @hex2d(%a: f32) {
    %x = tt.splat %a : f32 -> tensor<1x32xf32, #b2>
    tt.print " h: " {hex = true, isSigned = array<i32: 0>} : %x : tensor<1x32xf32, #b2>
    tt.return
  }

  // Scalars: empty index; pointers as %p, hex i64 as 0x%016llx.
  // CHECK-LABEL: llvm.func @scalars
  // CHECK: llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, ptr<1>)>
  // CHECK: llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i64)>
  tt.func public @scalars(%p: !tt.ptr<f32>, %w: i64) {
    tt.print " s: " {hex = false, isSigned = array<i32: 0>} : %p : !tt.ptr<f32>
    tt.print " s: " {hex = true, isSigned = array<i32: 1>} : %w : i64
    tt.return
  }
}
