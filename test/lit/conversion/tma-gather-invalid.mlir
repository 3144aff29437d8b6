// TMA gathers and scatters that convert-triton-gpu-to-llvm refuses at the
// op: row offsets that are not four consecutive rows per thread, the same
// in every lane of a warp (Triton rejects these too), and buffers whose
// NVMMA layout is transposed, not swizzled or narrower than its swizzle;
// and any TMA copy in a cluster of several CTAs.
// Lowered cases: tma-gather-to-llvm.mlir.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --convert-triton-gpu-to-llvm -o /dev/null

#rows1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @one_row_per_thread(%d: !tt.tensordesc<tensor<1x64xf16, #nvmma>>, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %rows: tensor<128xi32, #rows1>, %y: i32, %buf: !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>, %p: i1) {
    // expected-error @+1 {{a TMA gather or scatter must have at least 4 row offsets per warp}}
    ttng.async_tma_gather %d[%rows, %y] %buf, %bar, %p : !tt.tensordesc<tensor<1x64xf16, #nvmma>>, tensor<128xi32, #rows1>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>, i1
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @pairs_of_rows(%d: !tt.tensordesc<tensor<1x64xf16, #nvmma>>, %rows: tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, %y: i32, %buf: !ttg.memdesc<32x64xf16, #nvmma, #smem, mutable>) {
    // expected-error @+1 {{the row offsets of a TMA gather or scatter are not grouped by 4 consecutive rows}}
    ttng.async_tma_scatter %d[%rows, %y] %buf : !tt.tensordesc<tensor<1x64xf16, #nvmma>>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32, !ttg.memdesc<32x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

#rows4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @rows_across_lanes(%d: !tt.tensordesc<tensor<1x64xf16, #nvmma>>, %rows: tensor<128xi32, #rows4>, %y: i32, %buf: !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>) {
    // expected-error @+1 {{the row offsets of a TMA gather or scatter must be broadcast across each warp}}
    ttng.async_tma_scatter %d[%rows, %y] %buf : !tt.tensordesc<tensor<1x64xf16, #nvmma>>, tensor<128xi32, #rows4>, i32, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @transposed(%d: !tt.tensordesc<tensor<1x128xbf16, #nvmma_t>>, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %rows: tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, %y: i32, %buf: !ttg.memdesc<64x128xbf16, #nvmma_t, #smem, mutable>, %p: i1) {
    // expected-error @+1 {{a TMA gather or scatter with a transposed NVMMA layout is not supported yet}}
    ttng.async_tma_gather %d[%rows, %y] %buf, %bar, %p : !tt.tensordesc<tensor<1x128xbf16, #nvmma_t>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<64x128xbf16, #nvmma_t, #smem, mutable>, i1
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma0 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @not_swizzled(%d: !tt.tensordesc<tensor<1x64xbf16, #nvmma0>>, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %rows: tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, %y: i32, %buf: !ttg.memdesc<32x64xbf16, #nvmma0, #smem, mutable>, %p: i1) {
    // expected-error @+1 {{NVMMA shared views other than 2-D and swizzled (32, 64 or 128 bytes) are not supported yet}}
    ttng.async_tma_gather %d[%rows, %y] %buf, %bar, %p : !tt.tensordesc<tensor<1x64xbf16, #nvmma0>>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<32x64xbf16, #nvmma0, #smem, mutable>, i1
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @narrower_than_swizzle(%d: !tt.tensordesc<tensor<1x32xbf16, #nvmma>>, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %rows: tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, %y: i32, %buf: !ttg.memdesc<32x32xbf16, #nvmma, #smem, mutable>, %p: i1) {
    // expected-error @+1 {{a 32x32 view of a 32x32 NVMMA shared buffer with 128-byte rows is not supported yet}}
    ttng.async_tma_gather %d[%rows, %y] %buf, %bar, %p : !tt.tensordesc<tensor<1x32xbf16, #nvmma>>, tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<32x32xbf16, #nvmma, #smem, mutable>, i1
    tt.return
  }
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[0]]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tma_in_cluster(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32, %pred: i1) {
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %buf = ttg.local_alloc {allocation.offset = 1024 : i32} : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // expected-error @+1 {{'ttng.async_tma_copy_global_to_local' in a cluster of several CTAs ("ttg.num-ctas" = 2) is not supported yet}}
    ttng.async_tma_copy_global_to_local %desc[%x, %x] %buf, %bar, %pred : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}
