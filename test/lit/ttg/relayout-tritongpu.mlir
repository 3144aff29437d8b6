// relayout-tritongpu on TTGIR that already has blocked layouts: the tensors
// read from and written to Blackwell tensor memory take the layout of the
// 32x32b access (one row per lane, the columns in registers, warps over
// the 32-row groups), through ttg.convert_layout ops; TMA gather/scatter
// row offsets take the gather4 layout. Tensors that already have an
// access layout are left alone.
// RUN: tt-opt %s --split-input-file -relayout-tritongpu | FileCheck %s

// CHECK-DAG: [[LOAD:#.*]] = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32{{]]}}, lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0{{]]}}, warp = {{\[\[}}32, 0], [64, 0{{]]}}, block = []}>
// CHECK-DAG: [[F16:#.*]] = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64{{]]}}, lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0{{]]}}, warp = {{\[\[}}32, 0], [64, 0{{]]}}, block = []}>
// CHECK-DAG: [[BLOCKED:#.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
#tmem_f16 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  // The load's users keep the blocked value, through a conversion.
  // CHECK-LABEL: tt.func @load_feeds_users
  // CHECK: %[[L:.*]] = ttng.tmem_load %{{.*}} -> tensor<128x64xf32, [[LOAD]]>
  // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[L]] : tensor<128x64xf32, [[LOAD]]> -> tensor<128x64xf32, [[BLOCKED]]>
  // CHECK-NEXT: tt.return %[[C]] : tensor<128x64xf32, [[BLOCKED]]>
  tt.func @load_feeds_users(%desc: !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory>) -> tensor<128x64xf32, #blocked> {
    %r = ttng.tmem_load %desc : !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory> -> tensor<128x64xf32, #blocked>
    tt.return %r : tensor<128x64xf32, #blocked>
  }

  // Packed f16: two columns per 32-bit register, the same register bases
  // as f32 over 128 columns.
  // CHECK-LABEL: tt.func @store_f16
  // CHECK: %[[S:.*]] = ttg.convert_layout %arg1 : tensor<128x128xf16, [[BLOCKED]]> -> tensor<128x128xf16, [[F16]]>
  // CHECK-NEXT: ttng.tmem_store %[[S]], %arg0, %{{.*}} : tensor<128x128xf16, [[F16]]> ->
  tt.func @store_f16(%desc: !ttg.memdesc<128x128xf16, #tmem_f16, #ttng.tensor_memory, mutable>, %v: tensor<128x128xf16, #blocked>) {
    %true = arith.constant true
    ttng.tmem_store %v, %desc, %true : tensor<128x128xf16, #blocked> -> !ttg.memdesc<128x128xf16, #tmem_f16, #ttng.tensor_memory, mutable>
    tt.return
  }

  // An allocation without a source has nothing to relayout.
  // CHECK-LABEL: tt.func @alloc_without_source
  // CHECK-NEXT: ttng.tmem_alloc : () ->
  // CHECK-NEXT: tt.return
  tt.func @alloc_without_source() {
    %a = ttng.tmem_alloc : () -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

// Already in the 32x32b access layout: nothing changes.
// CHECK-LABEL: tt.func @already_compatible
// CHECK-NOT: ttg.convert_layout
// CHECK: ttng.tmem_alloc %arg0 : (tensor<128x64xf32, #linear>)
// CHECK-NOT: ttg.convert_layout
// CHECK: ttng.tmem_load %{{.*}} -> tensor<128x64xf32, #linear>
// CHECK-NEXT: tt.return
#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @already_compatible(%v: tensor<128x64xf32, #linear>) {
    %a = ttng.tmem_alloc %v : (tensor<128x64xf32, #linear>) -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory>
    %r = ttng.tmem_load %a : !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory> -> tensor<128x64xf32, #linear>
    tt.return
  }
}

// -----

// With 8 warps the second warp group takes the upper half of the columns.
// CHECK: [[WARPS8:#.*]] = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32{{]]}}, lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0{{]]}}, warp = {{\[\[}}32, 0], [64, 0], [0, 64{{]]}}, block = []}>
// CHECK-LABEL: tt.func @eight_warps
// CHECK: ttng.tmem_load %{{.*}} -> tensor<128x128xf32, [[WARPS8]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @eight_warps(%desc: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>) -> tensor<128x128xf32, #blocked> {
    %r = ttng.tmem_load %desc : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory> -> tensor<128x128xf32, #blocked>
    tt.return %r : tensor<128x128xf32, #blocked>
  }
}

// -----

// Gather offsets already in the gather4 layout are left alone.
// CHECK-LABEL: tt.func @gather_offsets_in_place
// CHECK-NOT: ttg.convert_layout
// CHECK: ttng.async_tma_gather
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#offsets = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @gather_offsets_in_place(%desc: !tt.tensordesc<tensor<1x128xbf16, #shared>>, %x: tensor<32xi32, #offsets>, %y: i32,
                                   %b: !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>,
                                   %dst: !ttg.memdesc<32x128xbf16, #shared, #ttg.shared_memory, mutable>, %p: i1) {
    ttng.async_tma_gather %desc[%x, %y] %dst, %b, %p : !tt.tensordesc<tensor<1x128xbf16, #shared>>, tensor<32xi32, #offsets>, i32, !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>, !ttg.memdesc<32x128xbf16, #shared, #ttg.shared_memory, mutable>, i1
    tt.return
  }
}
