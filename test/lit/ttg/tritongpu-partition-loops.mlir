// tritongpu-partition-loops splits a loop whose ops are assigned to
// partitions (ttg.partition.stages, ttg.partition) into a nvws.warp_group
// with one copy of the loop per partition. Each copy keeps the iteration
// arguments ttg.partition.outputs gives its partition and the ops of the
// partition (nested scf.if and tt.reduce split too), plus the ops of the
// loop's block with the same tag. Partition 0 yields the warp group's
// results; a tensor result of another partition goes through shared memory.
// RUN: tt-opt %s -split-input-file -allow-unregistered-dialect -tritongpu-partition-loops -verify-diagnostics | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @reduce_through_smem
  // CHECK-NEXT: [[BUF:%.*]] = ttg.local_alloc : () -> !ttg.memdesc<4x32xf32, #shared, #smem, mutable>
  // CHECK-NEXT: nvws.warp_group attributes {ttg.partition.types = ["default", "reduce"]}
  // CHECK-NEXT: partition0 num_warps(4) {
  // CHECK-NEXT:   scf.for [[I:%.*]] = %arg0 to %arg1 step %arg2 : i32 {
  // CHECK-NEXT:     "op_0"([[I]]) : (i32) -> ()
  // CHECK-NEXT:   } {ttg.partition.types = ["default", "reduce"], ttg.warp_specialize.tag = 3 : i32}
  // CHECK-NEXT:   nvws.warp_group.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: partition1 num_warps(4) {
  // CHECK-NEXT:   [[OUT:%.*]] = scf.for {{.*}} iter_args([[ACC:%.*]] = %arg3)
  // CHECK-NEXT:     [[SUM:%.*]] = "tt.reduce"([[ACC]]) <{axis = 1 : i32}> ({
  // CHECK-NEXT:     ^bb0([[X:%.*]]: f32, [[Y:%.*]]: f32):
  // CHECK-NEXT:       [[ADD:%.*]] = arith.addf [[X]], [[Y]] : f32
  // CHECK-NEXT:       tt.reduce.return [[ADD]] : f32
  // CHECK-NEXT:     }) : (tensor<4x32xf32, #blocked>)
  // CHECK-NEXT:     "use"([[SUM]])
  // CHECK-NEXT:     [[NEXT:%.*]] = "next"([[ACC]])
  // CHECK-NEXT:     scf.yield [[NEXT]]
  // CHECK-NEXT:   } {ttg.partition.types = ["default", "reduce"], ttg.warp_specialize.tag = 3 : i32}
  // CHECK-NEXT:   ttg.local_store [[OUT]], [[BUF]]
  // CHECK-NEXT:   nvws.warp_group.return
  // CHECK-NEXT: }
  // CHECK-NEXT: [[R:%.*]] = ttg.local_load [[BUF]]
  // CHECK-NEXT: ttg.local_dealloc [[BUF]]
  // CHECK-NEXT: tt.return [[R]]
  tt.func @reduce_through_smem(%lb: i32, %ub: i32, %step: i32, %t: tensor<4x32xf32, #blocked>) -> tensor<4x32xf32, #blocked> {
    %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %t) -> tensor<4x32xf32, #blocked> : i32 {
      %s = "tt.reduce"(%acc) <{axis = 1 : i32}> ({
      ^bb0(%x: f32, %y: f32):
        %m = arith.addf %x, %y {ttg.partition = array<i32: 1>} : f32
        "tt.reduce.return"(%m) {ttg.partition = array<i32: 1>} : (f32) -> ()
      }) {ttg.partition = array<i32: 1>} : (tensor<4x32xf32, #blocked>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      "use"(%s) {ttg.partition = array<i32: 1>} : (tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) -> ()
      %n = "next"(%acc) {ttg.partition = array<i32: 1>} : (tensor<4x32xf32, #blocked>) -> tensor<4x32xf32, #blocked>
      "op_0"(%i) {ttg.partition = array<i32: 0>} : (i32) -> ()
      scf.yield {ttg.partition = array<i32: 0, 1>} %n : tensor<4x32xf32, #blocked>
    } {ttg.partition.stages = [0, 0], ttg.partition.types = ["default", "reduce"], ttg.warp_specialize.tag = 3 : i32, ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 1>]}
    tt.return %r : tensor<4x32xf32, #blocked>
  }

  // Ops of the loop's block with the loop's tag move into their partitions;
  // other tags stay. An scf.if without else splits too.
  // CHECK-LABEL: tt.func @tagged_ops_and_if
  // CHECK-NEXT: [[Z:%.*]] = arith.constant 0 : i32
  // CHECK-NEXT: "other_tag"()
  // CHECK-NEXT: [[WG:%.*]] = nvws.warp_group
  // CHECK-NEXT: partition0 num_warps(4) {
  // CHECK-NEXT:   [[OUT:%.*]] = scf.for [[I:%.*]] = {{.*}} iter_args([[K:%.*]] = [[Z]]) -> (i32)
  // CHECK-NEXT:     [[N:%.*]] = arith.addi [[K]], [[I]] : i32
  // CHECK-NEXT:     scf.yield [[N]] : i32
  // CHECK-NEXT:   } {ttg.warp_specialize.tag = 5 : i32}
  // CHECK-NEXT:   "post"([[OUT]])
  // CHECK-NEXT:   nvws.warp_group.yield [[OUT]] : i32
  // CHECK-NEXT: }
  // CHECK-NEXT: partition1 num_warps(4) {
  // CHECK-NEXT:   "pre"()
  // CHECK-NEXT:   scf.for [[I:%.*]] = {{.*}} : i32 {
  // CHECK-NEXT:     scf.if %arg3 {
  // CHECK-NEXT:       "then_1"([[I]]) : (i32) -> ()
  // CHECK-NEXT:     }
  // CHECK-NEXT:   } {ttg.warp_specialize.tag = 5 : i32}
  // CHECK-NEXT:   nvws.warp_group.return
  // CHECK-NEXT: }
  // CHECK-NEXT: tt.return [[WG]] : i32
  tt.func @tagged_ops_and_if(%lb: i32, %ub: i32, %step: i32, %c: i1) -> i32 {
    %z = arith.constant 0 : i32
    "pre"() {ttg.partition = array<i32: 1>, ttg.warp_specialize.tag = 5 : i32} : () -> ()
    "other_tag"() {ttg.partition = array<i32: 1>, ttg.warp_specialize.tag = 6 : i32} : () -> ()
    %r = scf.for %i = %lb to %ub step %step iter_args(%k = %z) -> i32 : i32 {
      scf.if %c {
        "then_1"(%i) {ttg.partition = array<i32: 1>} : (i32) -> ()
      } {ttg.partition = array<i32: 1>}
      %n = arith.addi %k, %i {ttg.partition = array<i32: 0>} : i32
      scf.yield {ttg.partition = array<i32: 0>} %n : i32
    } {ttg.partition.stages = [0, 0], ttg.warp_specialize.tag = 5 : i32, ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 0>]}
    "post"(%r) {ttg.partition = array<i32: 0>, ttg.warp_specialize.tag = 5 : i32} : (i32) -> ()
    tt.return %r : i32
  }

  // One partition: nothing to split.
  // CHECK-LABEL: tt.func @single_partition
  // CHECK-NEXT: scf.for
  // CHECK-NEXT: "op"() {ttg.partition = array<i32: 0>}
  // CHECK-NEXT: } {ttg.partition = array<i32: 0>, ttg.partition.stages = [0], ttg.warp_specialize.tag = 0 : i32}
  tt.func @single_partition(%lb: i32, %ub: i32, %step: i32) {
    scf.for %i = %lb to %ub step %step : i32 {
      "op"() {ttg.partition = array<i32: 0>} : () -> ()
    } {ttg.partition.stages = [0], ttg.warp_specialize.tag = 0 : i32, ttg.partition = array<i32: 0>}
    tt.return
  }
}

// -----

// A value reaching another partition through an iteration argument.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @through_iter_arg(%lb: i32, %ub: i32, %step: i32, %z: i32) {
    scf.for %i = %lb to %ub step %step iter_args(%k = %z) -> i32 : i32 {
      // expected-note @below {{use at distance 1 in partition #0 here}}
      "use"(%k) {ttg.partition = array<i32: 0>} : (i32) -> ()
      // expected-warning @below {{non-root partition #1 has direct SSA consumer}}
      %n = "def"(%i) {ttg.partition = array<i32: 1>} : (i32) -> i32
      scf.yield {ttg.partition = array<i32: 0, 1>} %n : i32
    } {ttg.partition.stages = [0, 0], ttg.warp_specialize.tag = 0 : i32, ttg.partition = array<i32: 0, 1>, ttg.partition.outputs = [array<i32: 0, 1>]}
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @bad_stage(%lb: i32, %ub: i32, %step: i32) {
    // expected-error @below {{partition stages attribute 'ttg.partition.stages' has invalid element -1 : i32}}
    scf.for %i = %lb to %ub step %step : i32 {
      "op"() {ttg.partition = array<i32: 0>} : () -> ()
    } {ttg.partition.stages = [0, -1 : i32], ttg.warp_specialize.tag = 0 : i32, ttg.partition = array<i32: 0, 1>}
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @bad_index(%lb: i32, %ub: i32, %step: i32) {
    scf.for %i = %lb to %ub step %step : i32 {
      // expected-error @below {{invalid partition index 2}}
      "op"() {ttg.partition = array<i32: 2>} : () -> ()
    } {ttg.partition.stages = [0, 0], ttg.warp_specialize.tag = 0 : i32, ttg.partition = array<i32: 0, 1>}
    tt.return
  }
}

// -----

// Refused before anything changes: an op of the loop without a partition.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @unassigned(%lb: i32, %ub: i32, %step: i32) {
    scf.for %i = %lb to %ub step %step : i32 {
      // expected-error @below {{an op of a partitioned loop has no 'ttg.partition'}}
      "op"() : () -> ()
    } {ttg.partition.stages = [0, 0], ttg.warp_specialize.tag = 0 : i32, ttg.partition = array<i32: 0, 1>}
    tt.return
  }
}
