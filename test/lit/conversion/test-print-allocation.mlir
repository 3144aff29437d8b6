// test-print-allocation: each function's buffers as remarks, walked
// post-order: a local_alloc's offset and size, an op's scratch, a call's
// virtual buffer (what the callee uses), then the function's total.
// RUN: tt-opt %s -test-print-allocation --verify-diagnostics -o /dev/null

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-remark @below {{kernel}}
  // expected-remark @below {{size = 8192}}
  tt.func public @kernel(%x: tensor<32x32xf32, #blocked>) {
    // expected-remark @below {{offset = 0, size = 4096}}
    %a = ttg.local_alloc : () -> !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    // expected-remark @below {{scratch offset = 4096, size = 4096}}
    %c = ttg.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    ttg.local_dealloc %a : !ttg.memdesc<32x32xf32, #shared, #smem, mutable>
    // expected-remark @below {{virtual offset = 0, size = 512}}
    tt.call @helper() : () -> ()
    tt.return
  }
  // expected-remark @below {{helper}}
  // expected-remark @below {{size = 512}}
  tt.func private @helper() attributes {noinline = true} {
    // expected-remark @below {{offset = 0, size = 512}}
    %b = ttg.local_alloc : () -> !ttg.memdesc<16x16xf16, #shared, #smem, mutable>
    tt.return
  }
}
