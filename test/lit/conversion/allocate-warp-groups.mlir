// tritongpu-allocate-warp-groups pads every warp specialization to the
// same whole warp groups, gives partitions their first warp ids (largest
// first) and, where registers are requested, each warp group its share.
// RUN: tt-opt %s -split-input-file --tritongpu-allocate-warp-groups | FileCheck %s

// One partition of one warp: two padding partitions (2 and 1 warps) fill
// the warp group; they ask for 16 registers and take their group's 48.
// The default warps share the rest of 64K registers over 8 warps.
// CHECK: module attributes {ttg.maxnreg = 256 : i32, "ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 8 : i32}
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @padded
  tt.func @padded(%a: i32) {
    // CHECK: ttg.warp_specialize(%arg0) attributes {actualRegisters = array<i32: 464, 48, 48, 48>, requestedRegisters = array<i32: 44, 16, 16>, warpGroupStartIds = array<i32: 6, 4, 7>}
    ttg.warp_specialize(%a) attributes {requestedRegisters = array<i32: 44>}
    default {
      ttg.warp_yield
    }
    // CHECK: partition0(%arg1: i32) num_warps(1)
    partition0(%b: i32) num_warps(1) {
      %c = arith.addi %b, %b : i32
      ttg.warp_return
    // CHECK: partition1(%arg1: i32) num_warps(2) {
    // CHECK-NEXT: ttg.warp_return
    // CHECK: partition2(%arg1: i32) num_warps(1) {
    // CHECK-NEXT: ttg.warp_return
    // CHECK-NEXT: } : (i32) -> ()
    } : (i32) -> ()
    tt.return
  }
}

// -----

// Requests that leave the default warps fewer than 24 registers set none.
// CHECK: module attributes {ttg.maxnreg = 128 : i32, "ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 8 : i32}
module attributes {"ttg.num-warps" = 4 : i32, ttg.maxnreg = 128 : i32} {
  // CHECK-LABEL: @too_many
  tt.func @too_many() {
    // CHECK: ttg.warp_specialize() attributes {requestedRegisters = array<i32: 248>, warpGroupStartIds = array<i32: 4>}
    ttg.warp_specialize() attributes {requestedRegisters = array<i32: 248>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}
