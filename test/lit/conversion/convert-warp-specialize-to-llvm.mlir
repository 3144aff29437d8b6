// RUN: tt-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics --convert-warp-specialize-to-llvm | FileCheck %s

// Warps 0-3 run the body; warps 4-10 wait in the switch loop for their
// state byte (at the function's scratch, offset 32): partition 0 is warps
// 4-7, partition 1 warps 8-9, partition 2 warp 10, state 3 is the exit.
// Barriers become their warp group's: bar.sync 0 over the 128 default
// threads, 2 + i in partition i (bar.warp.sync for one warp). The capture
// %v passes through shared memory at the op's offset (0), packed; the
// kernel argument and the sum computed from it are recomputed in each
// partition instead.
// CHECK-LABEL: llvm.func @switch_loop(
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[WID:.*]] = nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK: %[[C4:.*]] = llvm.mlir.constant(4 : i32)
// CHECK: %[[DEF:.*]] = llvm.icmp "ult" %[[WID]], %[[C4]]
// CHECK: llvm.cond_br %[[DEF]], ^[[BODY:.*]], ^[[LOOP:.*]]
// CHECK: ^[[LOOP]]:
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.all"
// CHECK: %[[STATES:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[REL:.*]] = llvm.sub %[[WID]], %{{.*}}
// CHECK: %[[MINE:.*]] = llvm.getelementptr %[[STATES]][%[[REL]]]
// CHECK: %[[STATE:.*]] = llvm.load %[[MINE]] : !llvm.ptr<3> -> i8
// CHECK: llvm.switch %[[STATE]] : i8, ^[[IDLE:.*]] [
// CHECK-NEXT: 0: ^[[P0:[a-z0-9]*]],
// CHECK-NEXT: 1: ^[[P1:[a-z0-9]*]],
// CHECK-NEXT: 2: ^[[P2:[a-z0-9]*]],
// CHECK-NEXT: 3: ^[[EXIT:[a-z0-9]*]]
// CHECK: ^[[IDLE]]:
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.all"
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.all"
// CHECK: llvm.br ^[[LOOP]] {loop_annotation = #loop_annotation}
// CHECK: ^[[EXIT]]:
// CHECK-NEXT: llvm.return
// CHECK: ^[[P0]]:
// CHECK: %[[CAP:.*]] = llvm.getelementptr %{{.*}}[0, 0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.struct<packed (i32)>
// CHECK: %[[A:.*]] = llvm.load %[[CAP]] {alignment = 1 : i64} : !llvm.ptr<3> -> i32
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.all"
// CHECK: %[[SUM:.*]] = llvm.add %arg0, %arg0 : i32
// CHECK: "partition0"(%[[A]], %arg0, %[[SUM]])
// CHECK: %[[B2:.*]] = llvm.mlir.constant(2 : i32)
// CHECK: %[[T128:.*]] = llvm.mlir.constant(128 : i32)
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"(%[[B2]], %[[T128]])
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: llvm.br ^[[LOOP]]
// CHECK: ^[[P1]]:
// CHECK: "partition1"
// CHECK: %[[B3:.*]] = llvm.mlir.constant(3 : i32)
// CHECK: %[[T64:.*]] = llvm.mlir.constant(64 : i32)
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"(%[[B3]], %[[T64]])
// CHECK: llvm.br ^[[LOOP]]
// CHECK: ^[[P2]]:
// CHECK: "partition2"
// CHECK: nvvm.bar.warp.sync
// CHECK: llvm.br ^[[LOOP]]
// CHECK: ^[[BODY]]:
// CHECK-NEXT: "before"
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.count"
// The states of warps 4-10, then the capture, then two hand-offs.
// CHECK-COUNT-7: llvm.store %{{.*}}, %{{.*}} : i8, !llvm.ptr<3>
// CHECK: llvm.store %[[V:.*]], %{{.*}} {alignment = 1 : i64} : i32, !llvm.ptr<3>
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: llvm.mlir.constant
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: llvm.br ^[[DEFAULT:.*]]
// CHECK: ^[[DEFAULT]]:
// CHECK-NEXT: "default"
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: llvm.br ^[[AFTER:.*]](%{{.*}} : i32)
// CHECK: ^[[AFTER]](%[[R:.*]]: i32):
// CHECK-NEXT: "after"(%[[R]])
// Before the return: every worker warp's state is the exit.
// CHECK-COUNT-7: llvm.store %{{.*}}, %{{.*}} : i8, !llvm.ptr<3>
// CHECK: llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.all"
// CHECK-NEXT: llvm.return
module attributes {"ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 11 : i32} {
  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @switch_loop(%arg0: i32) attributes {allocation.offset = 32 : i32, nvvm.kernel = 1 : ui1} {
    "before"() : () -> ()
    nvvm.barrier0
    %v = "some.value"() : () -> i32
    %sum = llvm.add %arg0, %arg0 : i32
    %r = ttg.warp_specialize(%v, %arg0, %sum) attributes {allocation.offset = 0 : i32, warpGroupStartIds = array<i32: 4, 8, 10>}
    default {
      "default"() : () -> ()
      %c = llvm.mlir.constant(3 : i32) : i32
      ttg.warp_yield %c : i32
    }
    partition0(%a: i32, %b: i32, %c: i32) num_warps(4) {
      "partition0"(%a, %b, %c) : (i32, i32, i32) -> ()
      nvvm.barrier0
      ttg.warp_return
    }
    partition1(%a: i32, %b: i32, %c: i32) num_warps(2) {
      "partition1"() : () -> ()
      nvvm.barrier0
      ttg.warp_return
    }
    partition2(%a: i32, %b: i32, %c: i32) num_warps(1) {
      "partition2"() : () -> ()
      nvvm.barrier0
      ttg.warp_return
    } : (i32, i32, i32) -> i32
    "after"(%r) : (i32) -> ()
    llvm.return
  }
}

// -----

// With ttg.maxnreg = 168 and 8 worker warps for 4 default ones, Triton's
// split: the default warps take 256 registers at the entry, the workers
// drop to 120 in the switch loop; each region runs with its
// actualRegisters (232 for the default region and partition 0, 40 for
// partition 1) and gives them back at its end.
// CHECK-LABEL: llvm.func @registers(
// CHECK: ^bb1:
// CHECK-NEXT: %[[C120:.*]] = llvm.mlir.constant(120 : i32)
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.setmaxnreg.dec.sync.aligned.u32"(%[[C120]])
// CHECK: ^bb4:
// CHECK-NEXT: %[[C232:.*]] = llvm.mlir.constant(232 : i32)
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.setmaxnreg.inc.sync.aligned.u32"(%[[C232]])
// CHECK: "partition0"
// CHECK: llvm.call_intrinsic "llvm.nvvm.setmaxnreg.dec.sync.aligned.u32"
// CHECK: ^bb5:
// CHECK-NEXT: %[[C40:.*]] = llvm.mlir.constant(40 : i32)
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.setmaxnreg.dec.sync.aligned.u32"(%[[C40]])
// CHECK: llvm.call_intrinsic "llvm.nvvm.setmaxnreg.inc.sync.aligned.u32"
// CHECK: ^bb6:
// CHECK-NEXT: %[[C256:.*]] = llvm.mlir.constant(256 : i32)
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.setmaxnreg.inc.sync.aligned.u32"(%[[C256]])
// CHECK-NEXT: "before"
// CHECK: llvm.call_intrinsic "llvm.nvvm.setmaxnreg.dec.sync.aligned.u32"
// CHECK: "default"
// CHECK: llvm.call_intrinsic "llvm.nvvm.setmaxnreg.inc.sync.aligned.u32"
module attributes {"ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 12 : i32, "ttg.maxnreg" = 168 : i32} {
  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @registers() attributes {allocation.offset = 0 : i32, nvvm.kernel = 1 : ui1} {
    "before"() : () -> ()
    ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4, 8>, actualRegisters = array<i32: 232, 232, 40>}
    default {
      "default"() : () -> ()
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      "partition0"() : () -> ()
      ttg.warp_return
    }
    partition1() num_warps(4) {
      ttg.warp_return
    } : () -> ()
    llvm.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  // expected-error @+1 {{module missing 'ttg.total-num-warps' attribute (run tritongpu-allocate-warp-groups first)}}
  llvm.func @no_total() attributes {nvvm.kernel = 1 : ui1} {
    ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      ttg.warp_return
    } : () -> ()
    llvm.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 8 : i32} {
  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @no_starts() attributes {nvvm.kernel = 1 : ui1} {
    // expected-error @+1 {{a ttg.warp_specialize without warpGroupStartIds (run tritongpu-allocate-warp-groups first)}}
    ttg.warp_specialize() attributes {}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      ttg.warp_return
    } : () -> ()
    llvm.return
  }
}

// -----

// The workers never run the body: a CTA-wide barrier in a called function
// would wait for them.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.total-num-warps" = 8 : i32} {
  llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func internal @helper() {
    nvvm.barrier0
    llvm.return
  }
  llvm.func @calls_a_barrier() attributes {nvvm.kernel = 1 : ui1} {
    // expected-error @+1 {{a call to a function with a CTA-wide barrier in a warp-specialized kernel is not supported yet}}
    llvm.call @helper() : () -> ()
    ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      ttg.warp_return
    } : () -> ()
    llvm.return
  }
}
