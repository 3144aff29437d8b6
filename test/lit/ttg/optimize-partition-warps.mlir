// tritongpu-optimize-partition-warps sizes each warp-specialized partition
// by its largest tensor (twice its i32 registers), halving its warps while
// that still fits an even split of the SM's 64K registers over all warps;
// partitions without tensors drop to one warp. requestedRegisters guesses
// 88 for partitions with tensors, 24 for the others. A partition whose warp
// count changed gets its tensors laid out again for the new count.
// RUN: tt-opt %s --split-input-file -allow-unregistered-dialect -tritongpu-optimize-partition-warps | FileCheck %s

#b8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 2], order = [0, 1]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {ttg.target = "cuda:100", "ttg.num-warps" = 4 : i32} {
  // Scalar-only partitions go to one warp whatever they started with.
  // CHECK-LABEL: tt.func @scalars_only
  // CHECK: ttg.warp_specialize(%{{.*}}) attributes {requestedRegisters = array<i32: 24, 24>}
  // CHECK: partition0(%{{.*}}: i32) num_warps(1)
  // CHECK: partition1(%{{.*}}: i32) num_warps(1)
  tt.func @scalars_only(%x: i32) {
    ttg.warp_specialize(%x)
    default {
      ttg.warp_yield
    }
    partition0(%a: i32) num_warps(4) {
      %0 = arith.muli %a, %a : i32
      ttg.warp_return
    }
    partition1(%a: i32) num_warps(2) {
      %0 = arith.addi %a, %a : i32
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }

  // A 128x256 f32 tensor counts for 2 x 32768 registers: over 4 warps,
  // 512 a thread, more than the 227 each thread would get once the other
  // partition (no tensor) is down to 1 warp and this one to 4 (9 warps in
  // all), so it keeps its 8 warps and its layouts.
  // CHECK-LABEL: tt.func @too_big_to_shrink
  // CHECK: requestedRegisters = array<i32: 88, 24>
  // CHECK: num_warps(8)
  // CHECK: arith.constant dense<1.000000e+00> : tensor<128x256xf32, #{{.*}}>
  // CHECK: num_warps(1)
  tt.func @too_big_to_shrink(%x: i32) {
    ttg.warp_specialize(%x)
    default {
      ttg.warp_yield
    }
    partition0(%a: i32) num_warps(8) {
      %0 = arith.constant dense<1.0> : tensor<128x256xf32, #b8>
      ttg.warp_return
    }
    partition1(%a: i32) num_warps(8) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

// A relayout: the partition goes from 8 warps to 2, and the loop, the
// reduction, the broadcast back and the masked store all get layouts for
// 2 warps; the store's layout is coalesced for the 16-byte aligned capture.
// CHECK-DAG: [[ROW:#.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-DAG: [[TILE:#.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 2], order = [1, 0]}>
// CHECK-DAG: [[VEC:#.*]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 2], order = [0, 1]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {ttg.target = "cuda:100", "ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @row_sums
  // CHECK: requestedRegisters = array<i32: 88>
  // CHECK: num_warps(2)
  // CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128xf32, [[ROW]]>
  // CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (tensor<128xf32, [[ROW]]>)
  // CHECK: ttg.local_load {{.*}} -> tensor<128x64xf16, [[TILE]]>
  // CHECK: "tt.reduce"
  // CHECK: (tensor<128x64xf32, [[TILE]]>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = [[TILE]]}>>
  // CHECK: ttg.convert_layout {{.*}} -> tensor<128xf32, [[ROW]]>
  // CHECK: tt.expand_dims {{.*}} -> tensor<128x1xf32, [[TILE]]>
  // CHECK: ttg.local_store {{.*}} : tensor<128x64xf16, [[TILE]]>
  // CHECK: tt.splat {{.*}} -> tensor<128x!tt.ptr<f32>, [[VEC]]>
  // CHECK: tt.store {{.*}} : tensor<128x!tt.ptr<f32>, [[VEC]]>
  // CHECK-NEXT: ttg.warp_return
  tt.func @row_sums(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %m: !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>) {
    ttg.warp_specialize(%p, %n, %m)
    default {
      ttg.warp_yield
    }
    partition0(%q: !tt.ptr<f32>, %k: i32, %a: !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>) num_warps(8) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %z = arith.constant dense<0.0> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #b2}>>
      %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %z) -> (tensor<128xf32, #ttg.slice<{dim = 1, parent = #b2}>>) : i32 {
        %x = ttg.local_load %a : !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable> -> tensor<128x64xf16, #b2>
        %y = arith.extf %x : tensor<128x64xf16, #b2> to tensor<128x64xf32, #b2>
        %s = "tt.reduce"(%y) <{axis = 1 : i32}> ({
        ^bb0(%u: f32, %v: f32):
          %w = arith.addf %u, %v : f32
          tt.reduce.return %w : f32
        }) : (tensor<128x64xf32, #b2>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #b2}>>
        %t = arith.addf %acc, %s : tensor<128xf32, #ttg.slice<{dim = 1, parent = #b2}>>
        scf.yield %t : tensor<128xf32, #ttg.slice<{dim = 1, parent = #b2}>>
      }
      %e = tt.expand_dims %r {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #b2}>> -> tensor<128x1xf32, #b2>
      %b = tt.broadcast %e : tensor<128x1xf32, #b2> -> tensor<128x64xf32, #b2>
      %h = arith.truncf %b : tensor<128x64xf32, #b2> to tensor<128x64xf16, #b2>
      ttg.local_store %h, %a : tensor<128x64xf16, #b2> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>
      %sp = tt.splat %q : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b1>
      %rg = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #b1>
      %pp = tt.addptr %sp, %rg : tensor<128x!tt.ptr<f32>, #b1>, tensor<128xi32, #b1>
      %ks = tt.splat %k : i32 -> tensor<128xi32, #b1>
      %mask = arith.cmpi slt, %rg, %ks : tensor<128xi32, #b1>
      %rr = ttg.convert_layout %r : tensor<128xf32, #ttg.slice<{dim = 1, parent = #b2}>> -> tensor<128xf32, #b1>
      tt.store %pp, %rr, %mask : tensor<128x!tt.ptr<f32>, #b1>
      ttg.warp_return
    } : (!tt.ptr<f32>, i32, !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable>) -> ()
    tt.return
  }
}

// -----

// Tensor-memory ops keep a partition at 4 warps or more; TMA gathers at 2.
// As in Triton 3.6, the last such op of the partition (in walk order)
// decides: a gather before a tensor-memory store leaves 4 warps.
// CHECK-DAG: [[ACCESS:#.*]] = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [0, 32]], warp = {{\[\[}}16, 0], [32, 0]], block = []}>
#blk = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 2], order = [0, 1]}>
#b32 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#tma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>
module attributes {ttg.target = "cuda:100", "ttg.num-warps" = 4 : i32} {
  // The store's source takes the layout of the tensor-memory access for
  // 4 warps.
  // CHECK-LABEL: tt.func @tmem_store_floor
  // CHECK: num_warps(4)
  // CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, [[ACCESS]]>
  // CHECK: ttng.tmem_store %[[Z]], %{{.*}}, %{{.*}} : tensor<64x64xf32, [[ACCESS]]>
  tt.func @tmem_store_floor(%d: !ttg.memdesc<64x64xf32, #tmem, #ttng.tensor_memory, mutable>) {
    ttg.warp_specialize(%d)
    default {
      ttg.warp_yield
    }
    partition0(%t: !ttg.memdesc<64x64xf32, #tmem, #ttng.tensor_memory, mutable>) num_warps(8) {
      %z = arith.constant dense<0.0> : tensor<64x64xf32, #blk>
      %true = arith.constant true
      ttng.tmem_store %z, %t, %true : tensor<64x64xf32, #blk> -> !ttg.memdesc<64x64xf32, #tmem, #ttng.tensor_memory, mutable>
      ttg.warp_return
    } : (!ttg.memdesc<64x64xf32, #tmem, #ttng.tensor_memory, mutable>) -> ()
    tt.return
  }

  // CHECK-LABEL: tt.func @gather_then_tmem
  // CHECK: partition0({{.*}}) num_warps(4)
  // CHECK: partition1({{.*}}) num_warps(2)
  // CHECK: ttng.async_tma_gather {{.*}} tensor<32xi32, #ttg.slice<{dim = 0, parent = #{{.*}}}>>
  tt.func @gather_then_tmem(%d: !ttg.memdesc<64x64xf32, #tmem, #ttng.tensor_memory, mutable>, %g: !tt.tensordesc<tensor<32x32xf32, #tma>>, %s: !ttg.memdesc<32x32xf32, #tma, #smem, mutable>, %b: !ttg.memdesc<1xi64, #bar, #smem, mutable>) {
    ttg.warp_specialize(%d, %g, %s, %b)
    default {
      ttg.warp_yield
    }
    partition0(%t: !ttg.memdesc<64x64xf32, #tmem, #ttng.tensor_memory, mutable>, %gd: !tt.tensordesc<tensor<32x32xf32, #tma>>, %dst: !ttg.memdesc<32x32xf32, #tma, #smem, mutable>, %bb: !ttg.memdesc<1xi64, #bar, #smem, mutable>) num_warps(8) {
      %true = arith.constant true
      %c0 = arith.constant 0 : i32
      %rows = arith.constant dense<1> : tensor<32xi32, #b32>
      ttng.async_tma_gather %gd[%rows, %c0] %dst, %bb, %true : !tt.tensordesc<tensor<32x32xf32, #tma>>, tensor<32xi32, #b32>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<32x32xf32, #tma, #smem, mutable>, i1
      %z = arith.constant dense<0.0> : tensor<64x64xf32, #blk>
      ttng.tmem_store %z, %t, %true : tensor<64x64xf32, #blk> -> !ttg.memdesc<64x64xf32, #tmem, #ttng.tensor_memory, mutable>
      ttg.warp_return
    }
    partition1(%t: !ttg.memdesc<64x64xf32, #tmem, #ttng.tensor_memory, mutable>, %gd: !tt.tensordesc<tensor<32x32xf32, #tma>>, %dst: !ttg.memdesc<32x32xf32, #tma, #smem, mutable>, %bb: !ttg.memdesc<1xi64, #bar, #smem, mutable>) num_warps(8) {
      %true = arith.constant true
      %c0 = arith.constant 0 : i32
      %rows = arith.constant dense<1> : tensor<32xi32, #b32>
      ttng.async_tma_gather %gd[%rows, %c0] %dst, %bb, %true : !tt.tensordesc<tensor<32x32xf32, #tma>>, tensor<32xi32, #b32>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<32x32xf32, #tma, #smem, mutable>, i1
      ttg.warp_return
    } : (!ttg.memdesc<64x64xf32, #tmem, #ttng.tensor_memory, mutable>, !tt.tensordesc<tensor<32x32xf32, #tma>>, !ttg.memdesc<32x32xf32, #tma, #smem, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>) -> ()
    tt.return
  }
}
