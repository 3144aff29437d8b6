// tt.scan: a sequential scan within each thread, Hillis–Steele across the
// lanes with shfl.sync up (down when reversed), and across warps through
// the op's scratch (at its allocation.offset); tiles along the axis carry
// in order; lanes and warps that repeat others scan their copy; registers
// that repeat others get a located error. Assertions in the combine region
// are raised after the scan, counting only the steps whose result is kept.
// RUN: tt-opt %s --split-input-file --verify-diagnostics=only-expected --convert-triton-gpu-to-llvm | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @cumsum_one_warp
  tt.func public @cumsum_one_warp(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %s = "tt.scan"(%r) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.scan.return %c : i32
    }) : (tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    // Three adds along the thread's four registers; five lane steps, each a
    // shuffle up, the combine (earlier value first) and a select that keeps
    // the value on lanes below the offset; then the previous lane's total
    // goes into the first three registers. No scratch.
    // CHECK-COUNT-3: llvm.add %{{.*}}, %{{.*}} : i32
    // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32)
    // CHECK: %[[S1:.*]] = nvvm.shfl.sync up %{{.*}}, %[[T:.*]], %[[ONE]], %{{.*}} : i32 -> i32
    // CHECK: %[[K1:.*]] = llvm.icmp "uge" %[[LANE:.*]], %{{.*}} : i32
    // CHECK-NEXT: %[[A1:.*]] = llvm.add %[[S1]], %[[T]] : i32
    // CHECK-NEXT: llvm.select %[[K1]], %[[A1]], %[[T]] : i1, i32
    // CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32)
    // CHECK: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %[[SIXTEEN]]
    // CHECK: %[[PREV:.*]] = nvvm.shfl.sync up
    // CHECK: %[[NOT_FIRST:.*]] = llvm.icmp "ne" %[[LANE]]
    // CHECK-NEXT: %[[C0:.*]] = llvm.add %[[PREV]], %{{.*}} : i32
    // CHECK-NEXT: llvm.select %[[NOT_FIRST]], %[[C0]]
    // CHECK-COUNT-2: llvm.select %[[NOT_FIRST]]
    // CHECK-NOT: nvvm.shfl.sync
    // CHECK-NOT: nvvm.barrier0
    // CHECK-NOT: st.shared
    // CHECK: llvm.return
    %v = tt.splat %out : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #blocked>
    %p = tt.addptr %v, %r : tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>
    tt.store %p, %s : tensor<128x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @cumsum_four_warps
  tt.func public @cumsum_four_warps(%out: !tt.ptr<f32>) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %f = arith.sitofp %r : tensor<256xi32, #blocked> to tensor<256xf32, #blocked>
    %s = "tt.scan"(%f) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.scan.return %c : f32
    }) {allocation.offset = 32 : i32} : (tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    // One add in the thread, five lane steps, then each warp's last lane
    // writes its total to the scratch at byte 32 (slot = warp), a barrier,
    // every thread reads the four totals and combines those of the warps
    // before its own.
    // CHECK: llvm.fadd
    // CHECK-COUNT-5: nvvm.shfl.sync  up
    // CHECK-NOT: nvvm.barrier0
    // CHECK: %[[OFF:.*]] = llvm.mlir.constant(32 : i32)
    // CHECK: llvm.getelementptr %{{.*}}[%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    // CHECK: %[[LAST_LANE:.*]] = llvm.icmp "eq"
    // CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %{{.*}}, %{{.*}}, %[[LAST_LANE]]
    // CHECK-NEXT: nvvm.barrier0
    // CHECK: %[[W0:.*]] = llvm.load {{.*}} : !llvm.ptr<3> -> i32
    // CHECK-COUNT-3: llvm.load {{.*}} : !llvm.ptr<3> -> i32
    // CHECK: %[[AFTER_W0:.*]] = llvm.icmp "ugt" %[[WARP:.*]], %{{.*}} : i32
    // CHECK: %[[W01:.*]] = llvm.fadd
    // CHECK: llvm.icmp "ugt" %[[WARP]]
    // CHECK: llvm.fadd %[[W01]]
    // CHECK: %[[PREFIX:.*]] = llvm.select
    // CHECK-NEXT: %[[X:.*]] = llvm.fadd %[[PREFIX]], %{{.*}} : f32
    // CHECK-NEXT: llvm.select %[[AFTER_W0]], %[[X]]
    // CHECK: nvvm.shfl.sync up
    // CHECK-NOT: nvvm.shfl.sync
    // CHECK-NOT: nvvm.barrier0
    // CHECK: llvm.return
    %v = tt.splat %out : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %v, %r : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    tt.store %p, %s : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @cumsum_rows
  tt.func public @cumsum_rows(%out: !tt.ptr<f32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %b = tt.broadcast %e : tensor<1x32xi32, #blocked> -> tensor<16x32xi32, #blocked>
    %f = arith.sitofp %b : tensor<16x32xi32, #blocked> to tensor<16x32xf32, #blocked>
    %s = "tt.scan"(%f) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: f32, %c: f32):
      %x = arith.addf %a, %c : f32
      tt.scan.return %x : f32
    }) : (tensor<16x32xf32, #blocked>) -> tensor<16x32xf32, #blocked>
    // Two tiles of 16 columns (2 registers x 8 lanes) per row and one warp
    // along the row: three lane steps per tile, the first tile's total
    // read from its last lane (shuffle idx) carries into the second, and
    // the previous lane's value goes into each tile's first register.
    // CHECK-COUNT-6: nvvm.shfl.sync up
    // CHECK: nvvm.shfl.sync idx
    // CHECK-COUNT-2: nvvm.shfl.sync up
    // CHECK-NOT: nvvm.shfl.sync
    // CHECK-NOT: nvvm.barrier0
    // CHECK: llvm.return
    %v = tt.splat %out : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %v, %b : tensor<16x32x!tt.ptr<f32>, #blocked>, tensor<16x32xi32, #blocked>
    tt.store %p, %s : tensor<16x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @reverse_cumsum
  tt.func public @reverse_cumsum(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %s = "tt.scan"(%r) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.scan.return %c : i32
    }) : (tensor<64xi32, #blocked>) -> tensor<64xi32, #blocked>
    // Mirrored: the second register is accumulated first, the lane index
    // counts from lane 31 down and the shuffles go down.
    // CHECK: %[[X1R:.*]] = llvm.xor %{{.*}}, %{{.*}} : i32
    // CHECK: %[[X1:.*]] = llvm.add %[[X1R]], %{{.*}} : i32
    // CHECK: %[[MIRRORED:.*]] = llvm.sub %{{.*}}, %{{.*}} : i32
    // CHECK: %[[TOTAL:.*]] = llvm.add %[[X1]], %{{.*}} : i32
    // CHECK: %[[S1:.*]] = nvvm.shfl.sync down %{{.*}}, %[[TOTAL]]
    // CHECK: llvm.icmp "uge" %[[MIRRORED]]
    // CHECK-NEXT: llvm.add %[[S1]], %[[TOTAL]] : i32
    // CHECK-COUNT-4: nvvm.shfl.sync down
    // CHECK: %[[NEXT:.*]] = nvvm.shfl.sync down
    // CHECK: llvm.icmp "ne" %[[MIRRORED]]
    // CHECK-NEXT: llvm.add %[[NEXT]]
    // CHECK-NOT: nvvm.shfl.sync up
    // CHECK: llvm.return
    %v = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked>
    %p = tt.addptr %v, %r : tensor<64x!tt.ptr<i32>, #blocked>, tensor<64xi32, #blocked>
    tt.store %p, %s : tensor<64x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @running_argmax
  tt.func public @running_argmax(%out: !tt.ptr<i32>) {
    %i = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %v = arith.sitofp %i : tensor<64xi32, #blocked> to tensor<64xf32, #blocked>
    %m:2 = "tt.scan"(%v, %i) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf ogt, %b, %a : f32
      %x = arith.select %gt, %b, %a : f32
      %xi = arith.select %gt, %bi, %ai : i32
      tt.scan.return %x, %xi : f32, i32
    }) {allocation.offset = 0 : i32} : (tensor<64xf32, #blocked>, tensor<64xi32, #blocked>) -> (tensor<64xf32, #blocked>, tensor<64xi32, #blocked>)
    // Two shuffles (one per operand) per lane step; the combine region is
    // cloned per step; each operand has its part of the scratch: the
    // indices start 2 warps x 4 bytes after the values.
    // CHECK-COUNT-2: nvvm.shfl.sync up
    // CHECK: llvm.icmp "uge"
    // CHECK-NEXT: llvm.fcmp "ogt"
    // CHECK-NEXT: llvm.select
    // CHECK-NEXT: llvm.select
    // CHECK-COUNT-8: nvvm.shfl.sync up
    // CHECK: %[[SCRATCH:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : {{.*}}, i8
    // CHECK-NEXT: llvm.mlir.constant(0 : i32)
    // CHECK-NEXT: %[[S0:.*]] = llvm.getelementptr %[[SCRATCH]]
    // CHECK-NEXT: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32)
    // CHECK-NEXT: %[[S1:.*]] = llvm.getelementptr %[[SCRATCH]][%[[EIGHT]]]
    // CHECK: llvm.getelementptr %[[S0]]
    // CHECK: st.shared.b32
    // CHECK: llvm.getelementptr %[[S1]]
    // CHECK: st.shared.b32
    // CHECK-NEXT: nvvm.barrier0
    // CHECK-COUNT-4: llvm.load
    // CHECK: llvm.fcmp "ogt"
    // CHECK: llvm.return
    %p0 = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked>
    %p = tt.addptr %p0, %i : tensor<64x!tt.ptr<i32>, #blocked>, tensor<64xi32, #blocked>
    tt.store %p, %m#1 : tensor<64x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// A running maximum of booleans with its index (Inductor's cummax): the
// operands' parts of the scratch go widest first, as Triton places them,
// so the i64 indices start at byte 0 and the i1 flags (a byte each) after
// the 2 warps x 2 repeated warps x 8 bytes; in the operands' order the
// indices would start at byte 4, misaligned.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @cummax_bool
  tt.func public @cummax_bool(%in: tensor<64xi1, #blocked>, %out: !tt.ptr<i64>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %i = arith.extsi %r : tensor<64xi32, #blocked> to tensor<64xi64, #blocked>
    %m:2 = "tt.scan"(%in, %i) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i1, %ai: i64, %b: i1, %bi: i64):
      %gt = arith.cmpi ugt, %b, %a : i1
      %x = arith.select %gt, %b, %a : i1
      %xi = arith.select %gt, %bi, %ai : i64
      tt.scan.return %x, %xi : i1, i64
    }) {allocation.offset = 0 : i32} : (tensor<64xi1, #blocked>, tensor<64xi64, #blocked>) -> (tensor<64xi1, #blocked>, tensor<64xi64, #blocked>)
    // CHECK: %[[SCRATCH:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : {{.*}}, i8
    // CHECK-NEXT: %[[AT32:.*]] = llvm.mlir.constant(32 : i32)
    // CHECK-NEXT: %[[FLAGS:.*]] = llvm.getelementptr %[[SCRATCH]][%[[AT32]]]
    // CHECK-NEXT: %[[AT0:.*]] = llvm.mlir.constant(0 : i32)
    // CHECK-NEXT: %[[INDICES:.*]] = llvm.getelementptr %[[SCRATCH]][%[[AT0]]]
    // CHECK: llvm.getelementptr %[[FLAGS]]
    // CHECK: st.shared.b8
    // CHECK: llvm.getelementptr %[[INDICES]]
    // CHECK: st.shared.b64
    // CHECK-NEXT: nvvm.barrier0
    %p0 = tt.splat %out : !tt.ptr<i64> -> tensor<64x!tt.ptr<i64>, #blocked>
    %p = tt.addptr %p0, %r : tensor<64x!tt.ptr<i64>, #blocked>, tensor<64xi32, #blocked>
    tt.store %p, %m#1 : tensor<64x!tt.ptr<i64>, #blocked>
    tt.return
  }
}

// -----

// Four warps over 64 elements: warps 2 and 3 repeat warps 0 and 1 and scan
// their copy alongside; warp bit 0 runs along the axis, so the two warp
// totals meet in the scratch, one slot per (warp, repeated warp).
// CHECK-LABEL: llvm.func @broadcast
// CHECK-COUNT-5: nvvm.shfl.sync  up
// CHECK: st.shared.b32
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @broadcast(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %s = "tt.scan"(%r) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.scan.return %c : i32
    }) : (tensor<64xi32, #blocked>) -> tensor<64xi32, #blocked>
    %v = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked>
    %p = tt.addptr %v, %r : tensor<64x!tt.ptr<i32>, #blocked>, tensor<64xi32, #blocked>
    tt.store %p, %s : tensor<64x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// Two elements, four registers each: registers that repeat elements would
// be scanned as distinct ones.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @repeated_registers() {
    %x = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #blocked>
    // expected-error @+1 {{convert-triton-gpu-to-llvm: tt.scan over a layout that repeats elements in registers is not supported yet (in 'tt.scan')}}
    %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.scan.return %c : i32
    }) : (tensor<2xi32, #blocked>) -> tensor<2xi32, #blocked>
    tt.return
  }
}

// -----

// A checked combine (tl.device_assert in it): each step's failure joins one
// flag, the lane steps' only where the lane keeps the step's result; the
// assertion is raised once, after the scan, with its own message.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @checked_scan
  // CHECK: %[[S:.*]] = nvvm.shfl.sync up
  // CHECK: %[[KEEP:.*]] = llvm.icmp "uge"
  // CHECK-NEXT: %[[SUM:.*]] = llvm.add %[[S]], %{{.*}} : i32
  // CHECK: %[[BAD:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i1
  // CHECK-NEXT: llvm.and %[[BAD]], %[[KEEP]] : i1
  // CHECK-NEXT: llvm.select %[[KEEP]], %[[SUM]]
  // CHECK-COUNT-4: nvvm.shfl.sync up
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: llvm.cond_br %{{.*}}, ^[[FAIL:.*]], ^[[JOIN:.*]]
  // CHECK: ^[[FAIL]]:
  // CHECK: llvm.call @__assertfail
  // CHECK-NEXT: llvm.br ^[[JOIN]]
  // CHECK: ^[[JOIN]]:
  // CHECK: nvvm.bar.warp.sync
  // CHECK-NOT: __assertfail
  // CHECK: llvm.return
  tt.func public @checked_scan(%out: !tt.ptr<i32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
    %s = "tt.scan"(%r) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      %ok = arith.cmpi sge, %c, %a : i32
      tt.assert %ok, "overflow" : i1
      tt.scan.return %c : i32
    }) : (tensor<32xi32, #blocked>) -> tensor<32xi32, #blocked>
    %v = tt.splat %out : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #blocked>
    %p = tt.addptr %v, %r : tensor<32x!tt.ptr<i32>, #blocked>, tensor<32xi32, #blocked>
    tt.store %p, %s : tensor<32x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// The verifier leaves a scan's axis unchecked, as Triton's; the lowering
// refuses an axis the operand does not have.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @scan_axis_out_of_range(%x: tensor<1024xi32, #blocked>) -> tensor<1024xi32, #blocked> {
    // expected-error @+1 {{axis 1 is out of range}}
    %s = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.scan.return %c : i32
    }) : (tensor<1024xi32, #blocked>) -> tensor<1024xi32, #blocked>
    tt.return %s : tensor<1024xi32, #blocked>
  }
}
