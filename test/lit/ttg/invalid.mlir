// RUN: tt-opt %s --split-input-file --verify-diagnostics

// Encoding errors are reported by the parser at the `<` of the encoding,
// memory descriptor errors at the type; op errors at the op.

// A blocked layout needs a rank.
// expected-error @+1 {{a blocked layout needs at least one dimension}}
#bad = #ttg.blocked<{sizePerThread = [], threadsPerWarp = [], warpsPerCTA = [], order = []}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// Every array has the rank of order.
// expected-error @+1 {{sizePerThread has 1 entries, but order has 2: all must have the same rank}}
#bad = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{threadsPerWarp has 3 entries, but order has 2: all must have the same rank}}
#bad = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{warpsPerCTA has 1 entries, but order has 2: all must have the same rank}}
#bad = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4], order = [1, 0]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// Sizes are powers of two.
// expected-error @+1 {{every entry of sizePerThread must be a power of two, got 3}}
#bad = #ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{every entry of threadsPerWarp must be a power of two, got 0}}
#bad = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [0, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{every entry of warpsPerCTA must be a power of two, got 6}}
#bad = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [6, 1], order = [1, 0]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// order is a permutation.
// expected-error @+1 {{order [1, 1] must be a permutation of 0..2}}
#bad = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{order [2, 0] must be a permutation of 0..2}}
#bad = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [2, 0]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// CGALayout vectors have the layout's rank.
// expected-error @+1 {{every basis vector of CGALayout must have 2 entries, got [1]}}
#bad = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1]]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// The parent of a slice is distributed.
// expected-error @+1 {{expected a distributed encoding trait}}
#bad = #ttg.slice<{dim = 0, parent = #shared}>
tt.func @f(%x: tensor<64xf32, #bad>)

// -----

// expected-error @+1 {{expected a distributed encoding trait}}
#bad = #ttg.slice<{dim = 0, parent = 1 : i32}>
tt.func @f(%x: tensor<64xf32, #bad>)

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{slice dim=2 must be less than the parent rank=2}}
#bad = #ttg.slice<{dim = 2, parent = #blocked}>
tt.func @f(%x: tensor<64xf32, #bad>)

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{parent layout must have at least rank >= 2}}
#bad = #ttg.slice<{dim = 0, parent = #blocked}>
tt.func @f(%x: tensor<64xf32, #bad>)

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{ttg.dot_op opIdx parameter can be 0 or 1, got: 2}}
#bad = #ttg.dot_op<{opIdx = 2, parent = #mma, kWidth = 2}>
tt.func @f(%x: tensor<64x64xf16, #bad>)

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout}}
#bad = #ttg.dot_op<{opIdx = 0, parent = #blocked, kWidth = 2}>
tt.func @f(%x: tensor<64x64xf16, #bad>)

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent}}
#bad = #ttg.dot_op<{opIdx = 0, parent = #mma}>
tt.func @f(%x: tensor<64x64xf16, #bad>)

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 1, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = []}>
// expected-error @+1 {{ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent}}
#bad = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
tt.func @f(%x: tensor<64x64xf16, #bad>)

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// expected-error @+1 {{ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only allows first operand to be in registers}}
#bad = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
tt.func @f(%x: tensor<64x64xf16, #bad>)

// -----

#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// expected-error @+1 {{the parent of a dot operand must be a blocked, linear, nvidia_mma, amd_mfma or amd_wmma encoding}}
#bad = #ttg.dot_op<{opIdx = 0, parent = #shared}>
tt.func @f(%x: tensor<64x64xf16, #bad>)

// -----

// expected-error @+1 {{versionMajor must be 1, 2 or 3, got 4}}
#bad = #ttg.nvidia_mma<{versionMajor = 4, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{warpsPerCTA must not be empty}}
#bad = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [], instrShape = [16, 64, 16]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{every entry of warpsPerCTA must be a power of two, got 3}}
#bad = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [3, 1], instrShape = [16, 8]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{instrShape must have 3 entries for version 3, got 4}}
#bad = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8, 16, 1]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{instrShape must have 2 entries for version 2, got 3}}
#bad = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{every basis vector of CGALayout must have 2 entries, got [0, 0, 1]}}
#bad = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[0, 0, 1]], instrShape = [16, 64, 16]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// The rank of a linear layout is that of its first basis vector.
// expected-error @+1 {{every basis vector of register must have 2 entries, got [1]}}
#bad = #ttg.linear<{register = [[0, 1], [1]], lane = [], warp = [], block = []}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{every basis vector of lane must have 2 entries, got [1, 0, 0]}}
#bad = #ttg.linear<{register = [[0, 1]], lane = [[1, 0, 0]], warp = [], block = []}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{every basis vector of warp must have 1 entries, got [1, 0]}}
#bad = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[1, 0]], block = []}>
tt.func @f(%x: tensor<64xf32, #bad>)

// -----

// expected-error @+1 {{every basis vector of block must have 2 entries, got [1]}}
#bad = #ttg.linear<{register = [[0, 1]], lane = [], warp = [], block = [[1]]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{vec must be positive}}
#bad = #ttg.swizzled_shared<{vec = 0, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{perPhase must be positive}}
#bad = #ttg.swizzled_shared<{vec = 1, perPhase = 0, maxPhase = 1, order = [1, 0]}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{maxPhase must be positive}}
#bad = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 0, order = [1, 0]}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{order must not be empty}}
#bad = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = []}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{order [0, 0] must be a permutation of 0..2}}
#bad = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 0]}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{every basis vector of CGALayout must have 2 entries, got [1, 0, 0]}}
#bad = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[1, 0, 0]]}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{swizzlingByteWidth must be 0, 32, 64 or 128, got 16}}
#bad = #ttg.nvmma_shared<{swizzlingByteWidth = 16, transposed = false, elementBitWidth = 16}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{elementBitWidth must be 4, 8, 16, 32 or 64, got 12}}
#bad = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 12}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{rank must be positive}}
#bad = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 0}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// An explicit rank must agree with the CGA layout's basis vectors.
// expected-error @+1 {{every basis vector of CGALayout must have 2 entries, got [0, 0, 1]}}
#bad = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 2, CGALayout = [[0, 0, 1]]}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{alignment must be a power of two, got 12}}
#bad = #ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 12>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{every basis vector of offset must have 2 entries, got [1]}}
#bad = #ttg.shared_linear<{offset = [[0, 1], [1]]}, alignment = 16>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{every basis vector of block must have 2 entries, got [1]}}
#bad = #ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = [[1]]}, alignment = 16>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{at least one interval:padding pair is required}}
#bad = #ttg.padded_shared<[] {order = [1, 0], shape = [64, 64]}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{interval values must all be power of two, got [24]}}
#bad = #ttg.padded_shared<[24:+4] {order = [1, 0], shape = [64, 64]}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{padding values must all be power of two, got [3]}}
#bad = #ttg.padded_shared<[32:+3] {order = [1, 0], shape = [64, 64]}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{interval values cannot have duplicates}}
#bad = #ttg.padded_shared<[32:+4, 32:+8] {order = [1, 0], shape = [64, 64]}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

#smem = #ttg.shared_memory
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// expected-error @+1 {{rank 0 memdesc is not allowed}}
tt.func @f(%x: !ttg.memdesc<f16, #shared, #smem>)

// -----

#smem = #ttg.shared_memory
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// expected-error @+1 {{shape must have power-of-2 and non-zero dimensions; got 3, 48}}
tt.func @f(%x: !ttg.memdesc<3x48xf16, #shared, #smem>)

// -----

#smem = #ttg.shared_memory
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// expected-error @+1 {{shape must have power-of-2 and non-zero dimensions; got 64, 0}}
tt.func @f(%x: !ttg.memdesc<64x0xf16, #shared, #smem>)

// -----

#smem = #ttg.shared_memory
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// expected-error @+1 {{alloc shape must have at least as many dimensions as shape}}
tt.func @f(%x: !ttg.memdesc<2x64xf16, #shared, #smem, mutable, 64>)

// -----

#smem = #ttg.shared_memory
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// expected-error @+1 {{shape must be less than or equal to allocShape. shape = 64, 64, allocShape = 2, 64, 32}}
tt.func @f(%x: !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 2x64x32>)

// -----

#smem = #ttg.shared_memory
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// expected-error @+1 {{memorySpace must be SharedMemorySpace for shared encoding. Got 3 : i32}}
tt.func @f(%x: !ttg.memdesc<64x64xf16, #shared, 3 : i32>)

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// expected-error @+1 {{#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}> is not a valid encoding}}
tt.func @f(%x: !ttg.memdesc<64x64xf16, #blocked, #smem>)

// -----

// Pre-3.6 CTA keys are rejected, with the key printed as Triton prints it.
// expected-error @+1 {{unexpected key: CTAsPerCGA}}
#bad = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CTAsPerCGA = [1, 1]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{missing key 'order'}}
#bad = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{missing key 'parent'}}
#bad = #ttg.slice<{dim = 0}>
tt.func @f(%x: tensor<64xf32, #bad>)

// -----

// expected-error @+1 {{missing key 'block'}}
#bad = #ttg.linear<{register = [], lane = [], warp = []}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{expected non-negative integers in 'sizePerThread'}}
#bad = #ttg.blocked<{sizePerThread = [1, "a"], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{expected non-negative integers in 'warpsPerCTA'}}
#bad = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [-4, 1], order = [1, 0]}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{expected an array of integers for 'order'}}
#bad = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = 1}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{expected a non-negative integer for 'dim'}}
#bad = #ttg.slice<{dim = "x", parent = #ttg.shared_memory}>
tt.func @f(%x: tensor<64xf32, #bad>)

// -----

// expected-error @+1 {{expected integer vectors in 'register'}}
#bad = #ttg.linear<{register = [[0, 1.0]], lane = [], warp = [], block = []}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{expected a list of basis vectors for 'lane'}}
#bad = #ttg.linear<{register = [], lane = 1, warp = [], block = []}>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{expected true or false for 'transposed'}}
#bad = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = 1, elementBitWidth = 16}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

// expected-error @+1 {{expected a dictionary of layout parameters}}
#bad = #ttg.blocked<[1, 2]>
tt.func @f(%x: tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{expected a dictionary after the padding list}}
#bad = #ttg.padded_shared<[32:+4] [1]>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #ttg.shared_memory>)

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // A tensor's encoding must be distributed.
  tt.func @f(%x: tensor<64x64xf16, #blocked>) {
    // expected-error @+1 {{Result has an invalid layout: Non-distributed layout is not allowed in tensor type.}}
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #shared>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // The layout has the tensor's rank.
  tt.func @f(%x: tensor<64xf16, #blocked>) {
    // expected-error @+1 {{has an invalid layout: Layout has rank 2, but the tensor it's attached to has rank 1.}}
    %0 = ttg.convert_layout %x : tensor<64xf16, #blocked> -> tensor<64xf16, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // The layout spans the module's lanes.
  tt.func @f(%x: tensor<64x64xf16, #blocked>) {
    // expected-error @+1 {{Layout has 16 threads per warp, but the module specifies 32 threads per warp.}}
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>) {
    // expected-error @+1 {{Layout has 32 threads per warp, but the module specifies 64 threads per warp.}}
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // The layout spans the module's warps; the value is printed as MLIR's
  // diagnostics print it.
  tt.func @f(%x: tensor<64x64xf16, #blocked>) {
    // expected-error @+1 {{Operand 0 (<block argument> of type 'tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' at index: 0) has an invalid layout: #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>.}}
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // The layout spans the module's CTAs.
  tt.func @f(%x: tensor<64x64xf16, #blocked>) {
    // expected-error @+1 {{Layout has 2 CTAs per CGA, but the context requires 1 CTAs per CGA.}}
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 1]]}>>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // `ttg.num-warps` on the function overrides the module's.
  tt.func @f(%x: tensor<64x64xf16, #blocked>) attributes {"ttg.num-warps" = 8 : i32} {
    // expected-error @+1 {{Layout has 4 warps per CTA, but the context requires 8 warps per CTA.}}
    %0 = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 2 : i32} {
  // tt ops are checked too.
  tt.func @f(%x: f32) {
    // expected-error @+1 {{Result has an invalid layout: #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>.}}
    %0 = tt.splat %x : f32 -> tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: !ttg.memdesc<64x64xf16, #shared, #smem>) {
    // expected-error @+1 {{'ttg.async_copy_global_to_local' op Cannot store into immutable memory}}
    %0 = ttg.async_copy_global_to_local %p, %m : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: !ttg.memdesc<64x32xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{'ttg.async_copy_global_to_local' op the source shape [64, 64] differs from the buffer shape [64, 32]}}
    %0 = ttg.async_copy_global_to_local %p, %m : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: !ttg.memdesc<64x64xf32, #shared, #smem, mutable>) {
    // expected-error @+1 {{'ttg.async_copy_global_to_local' op the source element type f16 differs from the buffer's f32}}
    %0 = ttg.async_copy_global_to_local %p, %m : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>) {
    // expected-error @+1 {{'ttg.local_alloc' op the source shape [64, 64] differs from the buffer shape [64, 32]}}
    %0 = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>) {
    // expected-error @+1 {{'ttg.local_alloc' op the source element type f16 differs from the buffer's f32}}
    %0 = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf32, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f() {
    // expected-error @+1 {{'ttg.local_alloc' op an allocation without an initial value must have a mutable memory descriptor}}
    %0 = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %m: !ttg.memdesc<64x64xf16, #shared, #smem>) {
    // expected-error @+1 {{'ttg.local_store' op Cannot store into immutable memory}}
    ttg.local_store %x, %m : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>, %m: !ttg.memdesc<32x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{'ttg.local_store' op the source shape [64, 64] differs from the buffer shape [32, 64]}}
    ttg.local_store %x, %m : tensor<64x64xf16, #blocked> -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf32, #blocked>, %m: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{'ttg.local_store' op the source element type f32 differs from the buffer's f16}}
    ttg.local_store %x, %m : tensor<64x64xf32, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%m: !ttg.memdesc<64x64xf16, #shared, #smem>) {
    // expected-error @+1 {{'ttg.local_load' op the result shape [32, 64] differs from the buffer shape [64, 64]}}
    %0 = ttg.local_load %m : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<32x64xf16, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%m: !ttg.memdesc<64x64xf16, #shared, #smem>) {
    // expected-error @+1 {{'ttg.local_load' op the result element type f32 differs from the buffer's f16}}
    %0 = ttg.local_load %m : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%m: !ttg.memdesc<64xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #smem>, %i: i32) {
    // expected-error @+1 {{result rank must be input rank - 1}}
    %0 = ttg.memdesc_index %m[%i] : !ttg.memdesc<64xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #smem> -> !ttg.memdesc<1xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%m: !ttg.memdesc<2x64x64xf16, #shared, #smem>, %i: i32) {
    // expected-error @+1 {{result shape must equal to srcShape[1:]}}
    %0 = ttg.memdesc_index %m[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem> -> !ttg.memdesc<32x64xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%m: !ttg.memdesc<2x64x64xf16, #shared, #smem>, %i: i32) {
    // expected-error @+1 {{result element type must match desc element type}}
    %0 = ttg.memdesc_index %m[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf32, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%m: !ttg.memdesc<32x64xf16, #shared, #smem>) {
    // expected-error @+1 {{'ttg.memdesc_trans' op order [0, 0] must be a permutation of 0..2}}
    %0 = ttg.memdesc_trans %m {order = array<i32: 0, 0>} : !ttg.memdesc<32x64xf16, #shared, #smem> -> !ttg.memdesc<32x64xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%m: !ttg.memdesc<32x64xf16, #shared, #smem>) {
    // expected-error @+1 {{'ttg.memdesc_trans' op the result shape [32, 64] must be the source shape permuted by the order ([64, 32])}}
    %0 = ttg.memdesc_trans %m {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #shared, #smem> -> !ttg.memdesc<32x64xf16, #shared, #smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%a: !ttg.memdesc<2x64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
    // expected-error @+1 {{'ttng.warp_group_dot' op operands must be of rank 2}}
    %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<2x64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%a: !ttg.memdesc<64x32xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
    // expected-error @+1 {{'ttng.warp_group_dot' op the K dimensions of a [64, 32] and b [64, 64] differ}}
    %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%a: !ttg.memdesc<64x32xf16, #shared, #smem>, %b: !ttg.memdesc<32x128xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
    // expected-error @+1 {{'ttng.warp_group_dot' op the accumulator shape [64, 64] must be [M, N] of a [64, 32] and b [32, 128]}}
    %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x128xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf32, #blocked>, %y: tensor<64x64xf32, #blocked1>) {
    // expected-error @+1 {{'tt.reduce' op requires the same encoding for all operands}}
    %0:2 = "tt.reduce"(%x, %y) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
      tt.reduce.return %a, %c : f32, f32
    }) : (tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked1>) -> (tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>)
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: tensor<64x64x!tt.ptr<f32>, #blocked>, %o: tensor<64x64xi32, #blocked1>) {
    // expected-error @+1 {{'tt.addptr' op requires the same encoding for all operands and results}}
    %0 = tt.addptr %p, %o : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked1>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // The load/store shape and encoding traits run after ODS's TypesMatchWith constraints, which already tie the mask, other, value and result types to the pointer type (as in Triton), so a mismatch is reported by those.
  tt.func @f(%p: tensor<64x64x!tt.ptr<f32>, #blocked>, %m: tensor<64x32xi1, #blocked>) {
    // expected-error @+1 {{'tt.load' op failed to verify that mask type matches ptr type}}
    %0 = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x32xi1, #blocked>) -> tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: tensor<64x64x!tt.ptr<f32>, #blocked>, %m: tensor<64x64xi1, #blocked1>) {
    // expected-error @+1 {{'tt.load' op failed to verify that mask type matches ptr type}}
    %0 = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi1, #blocked1>) -> tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: tensor<64x64x!tt.ptr<f32>, #blocked>, %v: tensor<64x32xf32, #blocked>) {
    // expected-error @+1 {{'tt.store' op failed to verify that value type matches ptr type}}
    "tt.store"(%p, %v) : (tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x32xf32, #blocked>) -> ()
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: tensor<64x64x!tt.ptr<f32>, #blocked>, %v: tensor<64x64xf32, #blocked1>) {
    // expected-error @+1 {{'tt.store' op failed to verify that value type matches ptr type}}
    "tt.store"(%p, %v) : (tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xf32, #blocked1>) -> ()
    tt.return
  }
}

// -----

#smem = #ttg.shared_memory
// expected-error @+1 {{Unexpected attribute "foo" found}}
#bad = #ttg.padded_shared<[32:+4] {foo = 1}>
tt.func @f(%x: !ttg.memdesc<64x64xf16, #bad, #smem>)

// -----

#smem = #ttg.shared_memory
// expected-error @+1 {{"x" is not a valid encoding}}
tt.func @f(%x: !ttg.memdesc<64x64xf16, "x", #smem>)

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%x: tensor<64x64xf16, #blocked>) {
    // expected-error @+1 {{'ttg.local_alloc' op the shared encoding has rank 1, but the source has rank 2}}
    %0 = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f() {
    // expected-error @+1 {{'ttg.warp_specialize' op has 0 partitions but `partitionNumWarps` has 1 elements}}
    "ttg.warp_specialize"() ({
      "ttg.warp_yield"() : () -> ()
    }, {
      "ttg.warp_specialize.partitions"() : () -> ()
    }) {partitionNumWarps = array<i32: 4>} : () -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%a: i32) {
    // expected-error @+1 {{'ttg.warp_specialize' op partition #0 number of warps (3) must be a power of 2}}
    ttg.warp_specialize(%a)
    default {
      ttg.warp_yield
    }
    partition0(%b: i32) num_warps(3) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%a: i32) {
    // expected-error @+1 {{'ttg.warp_specialize' op partition region #0 has 0 arguments but expected 1}}
    ttg.warp_specialize(%a)
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%a: i32) {
    // expected-error @+1 {{'ttg.warp_specialize' op partition region #0 argument #0 has type 'i64' but corresponding capture has type 'i32'}}
    ttg.warp_specialize(%a)
    default {
      ttg.warp_yield
    }
    partition0(%b: i64) num_warps(4) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%a: i32) {
    %r = ttg.warp_specialize(%a)
    default {
      // expected-error @+1 {{'ttg.warp_yield' op operand #0 has type 'i32' but parent op expected 'i64'}}
      ttg.warp_yield %a : i32
    } : (i32) -> i64
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%a: i32) {
    ttg.warp_specialize(%a)
    default {
      ttg.warp_yield
    }
    partition0(%b: i32) num_warps(2) {
      // expected-error @+1 {{Layout has 4 warps per CTA, but the context requires 2 warps per CTA.}}
      %y = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

#smem = #ttg.shared_memory
// expected-error @+1 {{Expected basis of 'block' not found}}
#bad = #ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 2]]}>
tt.func @f(%x: !ttg.memdesc<2x2xf16, #bad, #smem>)

// -----

#smem = #ttg.shared_memory
// expected-error @+1 {{Each offset basis must be 0 or a power of two}}
#bad = #ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 3]], block = []}>
tt.func @f(%x: !ttg.memdesc<2x4xf16, #bad, #smem>)

// -----

// An operand defined by an op is printed as MLIR's diagnostics print a
// value: the op in generic form.
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 8 : i32} {
  tt.func @f() {
    %c = arith.constant dense<0> : tensor<128xi32, #b>
    // expected-error @+1 {{Operand 0 (%0 = "arith.constant"() <{value = dense<0> : tensor<128xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>}> : () -> tensor<128xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) has an invalid layout}}
    %1 = ttg.convert_layout %c : tensor<128xi32, #b> -> tensor<128xi32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%x: tensor<96xi32, #b>) {
    // expected-error @+1 {{Layout has shape 96, but the tensor it's attached to has shape 96 which is not a power of two.}}
    %1 = ttg.convert_layout %x : tensor<96xi32, #b> -> tensor<96xi32, #b>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func @f() {
    // expected-error @+1 {{warp-specialized kernels requires num_warps to be a multiple of 4}}
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    } : () -> ()
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @f(%m: !ttg.memdesc<2x32x64xf16, #shared, #smem, 2x64x64>, %i: i32) {
  // expected-error @+1 {{We don't support memdesc_index of a subview}}
  %0 = ttg.memdesc_index %m[%i] : !ttg.memdesc<2x32x64xf16, #shared, #smem, 2x64x64> -> !ttg.memdesc<32x64xf16, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @f(%m: !ttg.memdesc<64x64xf16, #shared, #smem>) {
  // expected-error @+1 {{A non zero offset found in a dimension that is not being split}}
  %0 = ttg.memdesc_subslice %m [16, 32] : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x32xf16, #shared, #smem, 64x64>
  tt.return
}

// -----

// A shared linear layout that swizzles: rows 1 and 3 XOR their columns
// with 2. A slice of single rows cuts across the swizzle, one of pairs of
// rows does not.
#sl = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 2], [2, 0]]}, alignment = 16>
#smem = #ttg.shared_memory
tt.func @f(%m: !ttg.memdesc<4x4xf16, #sl, #smem>) {
  %0 = ttg.memdesc_subslice %m [2, 0] : !ttg.memdesc<4x4xf16, #sl, #smem> -> !ttg.memdesc<2x4xf16, #sl, #smem, 4x4>
  // expected-error @+1 {{We don't support splitting along the swizzling pattern}}
  %1 = ttg.memdesc_subslice %m [0, 0] : !ttg.memdesc<4x4xf16, #sl, #smem> -> !ttg.memdesc<1x4xf16, #sl, #smem, 4x4>
  tt.return
}

// -----

// Any ttg attribute other than a distributed layout is rejected.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%x: tensor<64xf32, #ttg.shared_memory>) {
    // expected-error @+1 {{Operand 0 (<block argument> of type 'tensor<64xf32, #ttg.shared_memory>' at index: 0) has an invalid layout: Non-distributed layout is not allowed in tensor type.}}
    %0 = ttg.convert_layout %x : tensor<64xf32, #ttg.shared_memory> -> tensor<64xf32, #ttg.shared_memory>
    tt.return
  }
}

// -----

// Pointer elements give an nvmma_shared without elementBitWidth no width.
#nvmma_nw = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // expected-error @+1 {{has no elementBitWidth, and !tt.ptr<f16> elements do not give one}}
  tt.func @f(%x: !ttg.memdesc<64x64x!tt.ptr<f16>, #nvmma_nw, #ttg.shared_memory>) {
    tt.return
  }
}
