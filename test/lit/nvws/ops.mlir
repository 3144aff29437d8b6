// RUN: tt-opt %s -allow-unregistered-dialect | tt-opt -allow-unregistered-dialect | FileCheck %s
// RUN: tt-opt %s -allow-unregistered-dialect --mlir-print-op-generic | tt-opt -allow-unregistered-dialect | FileCheck %s

// The nvws ops in Triton's custom form, round-tripped through the printer
// (and through the generic form).

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!a = !nvws.aref<[!ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>, !ttg.memdesc<2x16x32xf16, #nvmma, #smem, mutable>]>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: tt.func @arefs
  tt.func @arefs(%x: !ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>, %y: !ttg.memdesc<2x16x32xf16, #nvmma, #smem, mutable>, %s: i32) {
    // CHECK-NEXT: [[A:%.*]] = nvws.aref.create %arg0, %arg1 : <[!ttg.memdesc<2x64x16xf16, #shared, #smem, mutable>, !ttg.memdesc<2x16x32xf16, #shared, #smem, mutable>]>
    %a = nvws.aref.create %x, %y : !a
    // CHECK-NEXT: {{%[a-z_0-9]+}}:2, [[PT:%[a-z_0-9]+]] = nvws.aref.put.enter [[A]][%arg2, %arg2] : <[{{.*}}]> -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable>, !ttg.memdesc<16x32xf16, #shared, #smem, mutable>, !ttg.async.token
    %p:3 = nvws.aref.put.enter %a[%s, %s] : !a -> !ttg.memdesc<64x16xf16, #nvmma, #smem, mutable>, !ttg.memdesc<16x32xf16, #nvmma, #smem, mutable>, !ttg.async.token
    // CHECK-NEXT: nvws.aref.buffer [[A]][%arg2], [[PT]] : <[{{.*}}]>, !ttg.async.token -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable>
    %b = nvws.aref.buffer %a[%s], %p#2 : !a, !ttg.async.token -> !ttg.memdesc<64x16xf16, #nvmma, #smem, mutable>
    // CHECK-NEXT: nvws.aref.put.exit [[A]][%arg2], [[PT]] [#nvws.async_op<tma_load>, #nvws.async_op<tc5mma>] : <[{{.*}}]>, !ttg.async.token
    nvws.aref.put.exit %a[%s], %p#2 [#nvws.async_op<tma_load>, #nvws.async_op<tc5mma>] : !a, !ttg.async.token
    // CHECK-NEXT: {{%[a-z_0-9]+}}:2, [[GT:%[a-z_0-9]+]] = nvws.aref.get.enter [[A]] : <[{{.*}}]> -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable>, !ttg.memdesc<16x32xf16, #shared, #smem, mutable>, !ttg.async.token
    %g:3 = nvws.aref.get.enter %a : !a -> !ttg.memdesc<64x16xf16, #nvmma, #smem, mutable>, !ttg.memdesc<16x32xf16, #nvmma, #smem, mutable>, !ttg.async.token
    // CHECK-NEXT: nvws.aref.get.exit [[A]], [[GT]] [#nvws.async_op<none>] : <[{{.*}}]>, !ttg.async.token
    nvws.aref.get.exit %a, %g#2 [#nvws.async_op<none>] : !a, !ttg.async.token
    tt.return
  }

  // CHECK-LABEL: tt.func @tokens
  tt.func @tokens(%i: i32, %ph: i1) {
    // CHECK-NEXT: [[T:%.*]] = nvws.create_token {loadType = 2 : i32, numBuffers = 3 : i32} : tensor<3x!nvws.token>
    %t = nvws.create_token {loadType = 2 : i32, numBuffers = 3 : i32} : tensor<3x!nvws.token>
    // CHECK-NEXT: nvws.producer_acquire [[T]], %arg0, %arg1 : tensor<3x!nvws.token>, i32, i1
    nvws.producer_acquire %t, %i, %ph : tensor<3x!nvws.token>, i32, i1
    // CHECK-NEXT: nvws.producer_commit [[T]], %arg0 : tensor<3x!nvws.token>, i32
    nvws.producer_commit %t, %i : tensor<3x!nvws.token>, i32
    // CHECK-NEXT: nvws.consumer_wait [[T]], %arg0, %arg1 {constraints = {x = 1 : i32}} : tensor<3x!nvws.token>, i32, i1
    nvws.consumer_wait %t, %i, %ph {constraints = {x = 1 : i32}} : tensor<3x!nvws.token>, i32, i1
    // CHECK-NEXT: nvws.consumer_release [[T]], %arg0 : tensor<3x!nvws.token>, i32
    nvws.consumer_release %t, %i : tensor<3x!nvws.token>, i32
    tt.return
  }

  // CHECK-LABEL: tt.func @descriptor_loads
  tt.func @descriptor_loads(%d: !tt.tensordesc<tensor<64x16xf16, #nvmma>>, %i: i32, %m: !ttg.memdesc<64x16xf16, #nvmma, #smem, mutable>, %x: tensor<64xi32, #blocked>) {
    // CHECK-NEXT: nvws.descriptor_load %arg0[%arg1, %arg1] 2048 %arg2 cacheModifier = cg : !tt.tensordesc<tensor<64x16xf16, #shared>>, i32, i32, !ttg.memdesc<64x16xf16, #shared, #smem, mutable>
    nvws.descriptor_load %d[%i, %i] 2048 %m cacheModifier = cg : !tt.tensordesc<tensor<64x16xf16, #nvmma>>, i32, i32, !ttg.memdesc<64x16xf16, #nvmma, #smem, mutable>
    // CHECK-NEXT: nvws.descriptor_gather %arg0[%arg3, %arg1] 2048 %arg2 : !tt.tensordesc<tensor<64x16xf16, #shared>>, tensor<64xi32, #blocked>, i32, !ttg.memdesc<64x16xf16, #shared, #smem, mutable>
    nvws.descriptor_gather %d[%x, %i] 2048 %m : !tt.tensordesc<tensor<64x16xf16, #nvmma>>, tensor<64xi32, #blocked>, i32, !ttg.memdesc<64x16xf16, #nvmma, #smem, mutable>
    tt.return
  }

  // CHECK-LABEL: tt.func @warp_groups
  tt.func @warp_groups(%v: i32) {
    // CHECK-NEXT: nvws.warp_group{{$}}
    nvws.warp_group
    // CHECK-NEXT: nvws.warp_group attributes {tag = 1 : i32}
    // CHECK-NEXT: partition0 num_warps(4) {
    // CHECK-NEXT:   "use"(%arg0) : (i32) -> ()
    // CHECK-NEXT:   nvws.warp_group.yield
    // CHECK-NEXT: }
    // CHECK-NEXT: partition1 num_warps(2) {
    // CHECK-NEXT:   nvws.warp_group.return
    // CHECK-NEXT: }
    nvws.warp_group attributes {tag = 1 : i32}
    partition0 num_warps(4) {
      "use"(%v) : (i32) -> ()
      nvws.warp_group.yield
    }
    partition1 num_warps(2) {
      nvws.warp_group.return
    }
    tt.return
  }
}
