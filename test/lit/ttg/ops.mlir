// RUN: tt-opt %s --split-input-file | tt-opt --split-input-file | FileCheck %s
// RUN: tt-opt %s --split-input-file --mlir-print-op-generic | tt-opt --split-input-file | FileCheck %s

// Every ttg and ttng op in its custom form (ttg.mask in the generic form, as
// in Triton), round-tripped through the printer.

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-NEXT: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-NEXT: #shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-NEXT: #shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @ops
  tt.func @ops(%ptrs: tensor<64x64x!tt.ptr<f16>, #blocked>, %mask: tensor<64x64xi1, #blocked>, %other: tensor<64x64xf16, #blocked>, %i: i32, %acc: tensor<64x64xf32, #mma>, %pred: i1, %packed: tensor<64x32xi8, #blocked>) {
    // CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.memdesc_index %{{.*}}[%{{.*}}] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %view = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    %t0 = ttg.async_copy_global_to_local %ptrs, %view : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}} other %{{.*}} cacheModifier = ca evictionPolicy = evict_last {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    %t1 = ttg.async_copy_global_to_local %ptrs, %view mask %mask other %other cacheModifier = ca evictionPolicy = evict_last {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    // CHECK: %[[G0:.*]] = ttg.async_commit_group{{$}}
    %g0 = ttg.async_commit_group
    // CHECK: %[[G1:.*]] = ttg.async_commit_group tokens %{{.*}}, %{{.*}}{{$}}
    %g1 = ttg.async_commit_group tokens %t0, %t1
    // CHECK: ttg.async_wait {num = 0 : i32}
    %w0 = ttg.async_wait {num = 0 : i32}
    // CHECK: %[[W1:.*]] = ttg.async_wait %[[G0]], %[[G1]] {num = 1 : i32}
    %w1 = ttg.async_wait %g0, %g1 {num = 1 : i32}
    // CHECK: %[[X:.*]] = ttg.local_load %{{.*}} token %[[W1]] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    %x = ttg.local_load %view token %w1 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    // CHECK: ttg.local_load %{{[0-9]+}} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    %x2 = ttg.local_load %view : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    // CHECK: ttg.local_store %[[X]], %{{.*}} : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %x, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.local_alloc %[[X]] {alignment = 16 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared1, #smem>
    %init = ttg.local_alloc %x {alignment = 16 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared1, #smem>
    // CHECK: ttg.memdesc_subslice %{{.*}}[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    %sub = ttg.memdesc_subslice %view [0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    // CHECK: ttg.memdesc_trans %{{.*}} {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared1, #smem> -> !ttg.memdesc<64x64xf16, #shared1, #smem>
    %tr = ttg.memdesc_trans %init {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared1, #smem> -> !ttg.memdesc<64x64xf16, #shared1, #smem>
    // CHECK: ttg.memdesc_reshape %{{.*}} : !ttg.memdesc<64x64xf16, #shared1, #smem> -> !ttg.memdesc<4096xf16, #shared2, #smem>
    %rs = ttg.memdesc_reshape %init : !ttg.memdesc<64x64xf16, #shared1, #smem> -> !ttg.memdesc<4096xf16, #shared2, #smem>
    // CHECK: ttg.memdesc_reinterpret %{{.*}} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xi32, #shared, #smem, mutable>
    %ri = ttg.memdesc_reinterpret %view : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xi32, #shared, #smem, mutable>
    // CHECK: ttg.predicate_stage %{{.*}}, %{{.*}}, %{{.*}} maxStage 2 stage 0 : i32 -> i1
    %ps = ttg.predicate_stage %i, %i, %i maxStage 2 stage 0 : i32 -> i1
    // CHECK: ttg.fp4_to_fp %{{.*}} {axis = 1 : i32} : tensor<64x32xi8, #blocked> -> tensor<64x64xbf16, #blocked>
    %fp = ttg.fp4_to_fp %packed {axis = 1 : i32} : tensor<64x32xi8, #blocked> -> tensor<64x64xbf16, #blocked>
    // CHECK: ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
    %scratch = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
    // CHECK: ttg.local_barrier
    ttg.local_barrier
    // CHECK: "ttg.mask"(%{{.*}}) ({
    // CHECK-NEXT: ttg.mask.return %{{.*}} : i32
    // CHECK-NEXT: }) : (i1) -> i32
    %mk = "ttg.mask"(%pred) ({
      ttg.mask.return %i : i32
    }) : (i1) -> i32
    // CHECK: ttng.fence_async_shared {bCluster = false}
    ttng.fence_async_shared {bCluster = false}
    // CHECK: ttg.local_load %{{.*}} : !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %a = ttg.local_load %init : !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    // CHECK: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = 0 : i32, isAsync = true} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf32, #mma>
    %d0 = ttng.warp_group_dot %a, %view, %acc {inputPrecision = 0 : i32, isAsync = true} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf32, #mma>
    // A default-valued attribute (maxNumImpreciseAcc = 0) is not printed.
    // CHECK: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf32, #mma>
    %d1 = ttng.warp_group_dot %view, %view, %d0, %pred {maxNumImpreciseAcc = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf32, #mma>
    // CHECK: %{{.*}}:2 = ttng.warp_group_dot_wait %{{.*}}, %{{.*}} {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %dw:2 = ttng.warp_group_dot_wait %d1, %view {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.local_dealloc %{{.*}} : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    ttg.local_dealloc %buf : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Every encoding, the memory spaces and the types. Aliases are numbered per
// kind (`#shared` covers all shared encodings) and printed sorted by name.

// CHECK-LABEL: // -----
// CHECK-NEXT: #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #linear = #ttg.linear<{register = {{\[\[}}0, 1], [8, 0]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]], block = []}>
// CHECK-NEXT: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-NEXT: #mma1 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-NEXT: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-NEXT: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true}>
// CHECK-NEXT: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16, rank = 3}>
// CHECK-NEXT: #shared3 = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 0]]}, alignment = 16>
// CHECK-NEXT: #shared4 = #ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [64, 64]}>
// CHECK-NEXT: #shared5 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#linear = #ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]], block = []}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true}>
#shared4 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16, rank = 3}>
#shared5 = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]], block = []}, alignment = 16>
#shared6 = #ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [64, 64]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @layouts
  tt.func @layouts(%x: tensor<64x64xf32, #mma>, %y: tensor<64x64xf16, #mma1>) {
    // CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %0 = ttg.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    // CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #linear>
    %1 = ttg.convert_layout %0 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #linear>
    // CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf16, #mma1> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma1, kWidth = 2}>>
    %2 = ttg.convert_layout %y : tensor<64x64xf16, #mma1> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma1, kWidth = 2}>>
    // Without kWidth (a blocked parent), the key is not printed.
    // CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %3 = ttg.convert_layout %0 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    // CHECK: tt.splat %{{.*}} : f32 -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %c = arith.constant 0.0 : f32
    %4 = tt.splat %c : f32 -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    // CHECK: ttg.convert_layout %{{.*}} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #blocked1>
    %5 = ttg.convert_layout %4 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64xf32, #blocked1>
    tt.return
  }
  // CHECK-LABEL: tt.func @types
  // CHECK-SAME: !ttg.memdesc<64x64xf16, #shared, #smem>
  // CHECK-SAME: !ttg.memdesc<64x128xi8, #shared1, #smem, mutable>
  // CHECK-SAME: !ttg.memdesc<2x64x64xf16, #shared2, #smem, mutable>
  // CHECK-SAME: !ttg.memdesc<64x64xf16, #shared3, #smem>
  // CHECK-SAME: !ttg.memdesc<64x64xf16, #shared4, #smem, mutable>
  // CHECK-SAME: !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
  // CHECK-SAME: !ttg.memdesc<1xi32, #shared5, #smem, mutable, 1x1>
  // CHECK-SAME: !ttg.memdesc<2x16xf32, #shared5, #smem, 4x16>
  // CHECK-SAME: !ttg.async.token
  tt.func @types(%a: !ttg.memdesc<64x64xf16, #shared2, #smem>, %b: !ttg.memdesc<64x128xi8, #shared3, #smem, mutable>, %c: !ttg.memdesc<2x64x64xf16, #shared4, #smem, mutable>, %d: !ttg.memdesc<64x64xf16, #shared5, #smem>, %e: !ttg.memdesc<64x64xf16, #shared6, #smem, mutable>, %f: !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, %g: !ttg.memdesc<1xi32, #shared1, #smem, mutable, 1x1>, %h: !ttg.memdesc<2x16xf32, #shared1, #smem, 4x16>, %t: !ttg.async.token) {
    tt.return
  }
}

// -----

// CGALayout (with "ttg.num-ctas" = 2). The parser takes keys in any order;
// the printer uses Triton's order, with CGALayout last except in nvidia_mma,
// where it sits between warpsPerCTA and instrShape.

// CHECK-LABEL: // -----
// CHECK-NEXT: #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}0, 1]]}>
// CHECK-NEXT: #linear = #ttg.linear<{register = {{\[\[}}0, 1], [8, 0]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]], block = {{\[\[}}0, 8]]}>
// CHECK-NEXT: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = {{\[\[}}1, 0]], instrShape = [16, 64, 16]}>
// CHECK-NEXT: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}0, 1]]}>
// CHECK-NEXT: #shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CHECK-NEXT: #shared2 = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [1, 0]], block = {{\[\[}}0, 2]]}, alignment = 128>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
#blocked = #ttg.blocked<{order = [1, 0], CGALayout = [[0, 1]], warpsPerCTA = [4, 1], threadsPerWarp = [4, 8], sizePerThread = [1, 8]}>
#mma = #ttg.nvidia_mma<{instrShape = [16, 64, 16], versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[1, 0]]}>
#shared = #ttg.nvmma_shared<{CGALayout = [[0, 1]], swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], CGALayout = [[1, 0]]}>
#shared2 = #ttg.shared_linear<{block = [[0, 2]], offset = [[0, 1], [1, 0]]}, alignment = 128>
#linear = #ttg.linear<{block = [[0, 8]], register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @cga
  tt.func @cga(%x: tensor<64x64xf32, #blocked>, %a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared1, #smem>, %c: !ttg.memdesc<64x64xf16, #shared2, #smem>) {
    // CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %0 = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    // CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #linear>
    %1 = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #linear>
    tt.return
  }
}

// -----

// "ttg.num-warps" on a function overrides the module's for the layouts in it.

// CHECK-LABEL: // -----
// CHECK: tt.func @eight_warps
// CHECK-SAME: attributes {"ttg.num-warps" = 8 : i32}
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @eight_warps(%x: tensor<64x64xf32, #blocked>) attributes {"ttg.num-warps" = 8 : i32} {
    %0 = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    tt.return
  }
}

// -----

// An nvmma_shared of rank 3 with a CGA layout prints without `rank`: the
// basis vectors imply it, and the parser reads it back from them.

// CHECK-LABEL: // -----
// CHECK-NEXT: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}0, 0, 1]]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3, CGALayout = [[0, 0, 1]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @rank3
  // CHECK-SAME: !ttg.memdesc<2x64x64xf16, #shared, #smem>
  tt.func @rank3(%a: !ttg.memdesc<2x64x64xf16, #shared, #smem>) {
    tt.return
  }
}

// -----

// Warp specialization: a default region and partitions with their own warp
// counts; layouts inside a partition span the partition's warps.

// CHECK-LABEL: // -----
// CHECK: tt.func @warp_specialize(%[[A:.*]]: i32, %[[P:.*]]: !tt.ptr<f32>) -> i32 {
// CHECK-NEXT:   %[[R:.*]] = ttg.warp_specialize(%[[A]], %[[P]]) attributes {warpGroupStartIds = array<i32: 4, 6>}
// CHECK-NEXT:   default {
// CHECK-NEXT:     tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
// CHECK-NEXT:     ttg.warp_yield %[[A]] : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   partition0(%[[B:.*]]: i32, %{{.*}}: !tt.ptr<f32>) num_warps(2) {
// CHECK-NEXT:     tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked1>
// CHECK-NEXT:     ttg.warp_return
// CHECK-NEXT:   }
// CHECK-NEXT:   partition1(%[[C:.*]]: i32, %{{.*}}: !tt.ptr<f32>) num_warps(1) {
// CHECK-NEXT:     arith.addi %[[C]], %[[C]] : i32
// CHECK-NEXT:     ttg.warp_return
// CHECK-NEXT:   } : (i32, !tt.ptr<f32>) -> i32
// CHECK-NEXT:   ttg.warp_specialize()
// CHECK-NEXT:   default {
// CHECK-NEXT:     ttg.warp_yield
// CHECK-NEXT:   } : () -> ()
// CHECK-NEXT:   tt.return %[[R]] : i32
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @warp_specialize(%a: i32, %p: !tt.ptr<f32>) -> i32 {
    %r = ttg.warp_specialize(%a, %p) attributes {warpGroupStartIds = array<i32: 4, 6>}
    default {
      %x = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
      ttg.warp_yield %a : i32
    }
    partition0(%b: i32, %q: !tt.ptr<f32>) num_warps(2) {
      %y = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked1>
      ttg.warp_return
    }
    partition1(%c: i32, %s: !tt.ptr<f32>) num_warps(1) {
      %z = arith.addi %c, %c : i32
      ttg.warp_return
    } : (i32, !tt.ptr<f32>) -> i32
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    } : () -> ()
    tt.return %r : i32
  }
}

// -----

// An nvmma_shared written without elementBitWidth (Triton's lit files do
// this) takes the width of the memory descriptor's elements.
// CHECK-DAG: #[[S16:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[S8:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
// CHECK-LABEL: @nvmma_without_width
// CHECK-SAME: !ttg.memdesc<64x64xf16, #[[S16]], #smem>
// CHECK-SAME: !ttg.memdesc<64x64xi8, #[[S8]], #smem>
#nvmma_nw = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @nvmma_without_width(%a: !ttg.memdesc<64x64xf16, #nvmma_nw, #smem>, %b: !ttg.memdesc<64x64xi8, #nvmma_nw, #smem>) {
    tt.return
  }
}
