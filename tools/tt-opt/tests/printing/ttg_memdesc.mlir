// Shared-memory descriptors: nvmma_shared and swizzled_shared are aliased as
// #shared/#shared1, the shared memory space as #smem; `mutable` and an
// allocation shape different from the shape are printed after them.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @memdescs(%a: !ttg.memdesc<64x16xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>, %b: !ttg.memdesc<3x64x16xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>, %c: !ttg.memdesc<64x16xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable, 3x64x16>, %d: !ttg.memdesc<16x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory, mutable>) {
    tt.return
  }
}
