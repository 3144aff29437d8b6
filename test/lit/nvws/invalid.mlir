// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics

// The rules of the nvws ops, with Triton's messages.

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @depths_differ(%x: !ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>, %y: !ttg.memdesc<3x16x32xf16, #nvmma, #smem, mutable>) {
    // expected-error @below {{Leading dims of sliced aref inputs don't match.}}
    %a = nvws.aref.create %x, %y : !nvws.aref<[!ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>, !ttg.memdesc<3x16x32xf16, #nvmma, #smem, mutable>]>
    tt.return
  }
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @buffer_used_elsewhere(%x: !ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>) {
    // expected-error @below {{Aref buffer is used elsewhere, Aref cannot guarantee async safety}}
    %a = nvws.aref.create %x : !nvws.aref<[!ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>]>
    "other_use"(%x) : (!ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>) -> ()
    ttg.local_dealloc %x : !ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!a = !nvws.aref<[!ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>]>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @enter_counts(%x: !ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>) {
    %a = nvws.aref.create %x : !a
    // expected-error @below {{Aref has different number of arguments than enter}}
    %b:3 = nvws.aref.get.enter %a : !a -> !ttg.memdesc<64x16xf16, #nvmma, #smem, mutable>, !ttg.memdesc<64x16xf16, #nvmma, #smem, mutable>, !ttg.async.token
    tt.return
  }
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!a = !nvws.aref<[!ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>]>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @enter_rank(%x: !ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>) {
    %a = nvws.aref.create %x : !a
    // expected-error @below {{Ranks don't match}}
    %b:2 = nvws.aref.put.enter %a : !a -> !ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>, !ttg.async.token
    tt.return
  }
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!a = !nvws.aref<[!ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>]>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @enter_dims(%x: !ttg.memdesc<2x64x16xf16, #nvmma, #smem, mutable>) {
    %a = nvws.aref.create %x : !a
    // expected-error @below {{Dimensions don't match}}
    %b:2 = nvws.aref.put.enter %a : !a -> !ttg.memdesc<64x32xf16, #nvmma, #smem, mutable>, !ttg.async.token
    tt.return
  }
}

// -----

tt.func @num_warps_per_region() {
  // expected-error @below {{Must supply numWarps for each Warp Group.}}
  "nvws.warp_group"() <{numWarps = array<i32: 4, 4>}> ({
    nvws.warp_group.return
  }) : () -> ()
  tt.return
}

// -----

tt.func @results_need_yield() {
  // expected-error @below {{When nvws.warp_group op has results, the first region should be terminated by nvws.warp_group.yield op.}}
  %0 = "nvws.warp_group"() <{numWarps = array<i32: 4>}> ({
    nvws.warp_group.return
  }) : () -> i32
  tt.return
}

// -----

tt.func @results_count(%v: i32) {
  // expected-error @below {{Mismatch in the number of results returned by nvws.warp_group op and the number of the operands of the corresponding nvws.warp_group.yield op in the first region.}}
  %0:2 = "nvws.warp_group"() <{numWarps = array<i32: 4>}> ({
    nvws.warp_group.yield %v : i32
  }) : () -> (i32, i32)
  tt.return
}
