// Upstream passes see tt's interfaces and traits: the inliner inlines
// tt.call (honouring noinline, multi-block callees branch to the
// continuation), CSE merges pure ops but not volatile loads or prints,
// dead-code removal drops unused pure ops and loads but keeps stores, and
// symbol-dce drops unused private functions.
// RUN: tt-opt %s --split-input-file --inline="default-pipeline=''" | FileCheck %s --check-prefix=INLINE
// RUN: tt-opt %s --split-input-file --cse | FileCheck %s --check-prefix=CSE
// RUN: tt-opt %s --split-input-file --canonicalize | FileCheck %s --check-prefix=DCE
// RUN: tt-opt %s --split-input-file --inline --symbol-dce | FileCheck %s --check-prefix=SYMDCE

// INLINE-LABEL: tt.func public @caller
// INLINE-NOT: tt.call @add_one
// INLINE: %[[SUM:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// INLINE: %[[KEPT:.*]] = tt.call @kept(%[[SUM]]) : (i32) -> i32
// INLINE: tt.return %[[KEPT]] : i32
// SYMDCE-NOT: @add_one
// SYMDCE: tt.func private @kept
// SYMDCE-NOT: @add_one
// SYMDCE: tt.func public @caller
module {
  tt.func private @add_one(%x: i32) -> i32 {
    %c1 = arith.constant 1 : i32
    %y = arith.addi %x, %c1 : i32
    tt.return %y : i32
  }
  tt.func private @kept(%x: i32) -> i32 attributes {noinline = true} {
    tt.return %x : i32
  }
  tt.func public @caller(%x: i32) -> i32 {
    %y = tt.call @add_one(%x) : (i32) -> i32
    %z = tt.call @kept(%y) : (i32) -> i32
    tt.return %z : i32
  }
}

// -----

// INLINE-LABEL: tt.func public @multi_block_caller
// INLINE-NOT: tt.call
// INLINE: cf.cond_br %{{.*}}, ^[[THEN:.*]], ^[[ELSE:.*]]
// INLINE: ^[[THEN]]:
// INLINE-NEXT: cf.br ^[[CONT:bb[0-9]+]](%{{.*}} : i32)
// INLINE: ^[[ELSE]]:
// INLINE-NEXT: cf.br ^[[CONT]](%{{.*}} : i32)
// INLINE: ^[[CONT]](%[[RESULT:.*]]: i32):
// INLINE-NEXT: tt.return %[[RESULT]] : i32
module {
  tt.func private @select(%c: i1, %a: i32, %b: i32) -> i32 {
    cf.cond_br %c, ^then, ^else
  ^then:
    tt.return %a : i32
  ^else:
    tt.return %b : i32
  }
  tt.func public @multi_block_caller(%c: i1, %a: i32, %b: i32) -> i32 {
    %r = tt.call @select(%c, %a, %b) : (i1, i32, i32) -> i32
    tt.return %r : i32
  }
}

// -----

// CSE-LABEL: tt.func public @cse
// CSE: %[[PID:.*]] = tt.get_program_id x : i32
// CSE-NOT: tt.get_program_id x
// CSE: %[[R:.*]] = tt.make_range
// CSE-NOT: tt.make_range
// CSE: tt.load %[[P:.*]] {isVolatile = true}
// CSE-NEXT: tt.load %[[P]] {isVolatile = true}
// CSE: tt.print " a" {hex = false, isSigned = array<i32: 1>} : %[[PID]] : i32
// CSE-NEXT: tt.print " a" {hex = false, isSigned = array<i32: 1>} : %[[PID]] : i32
module {
  tt.func public @cse(%p: !tt.ptr<i32>) -> i32 {
    %a = tt.get_program_id x : i32
    %b = tt.get_program_id x : i32
    %r1 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %r2 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %v1 = tt.load %p {isVolatile = true} : !tt.ptr<i32>
    %v2 = tt.load %p {isVolatile = true} : !tt.ptr<i32>
    tt.print " a" {hex = false, isSigned = array<i32: 1>} : %a : i32
    tt.print " a" {hex = false, isSigned = array<i32: 1>} : %b : i32
    %s = arith.addi %a, %b : i32
    %t = arith.addi %v1, %v2 : i32
    %u = arith.addi %s, %t : i32
    %w = arith.addi %r1, %r2 : tensor<16xi32>
    tt.return %u : i32
  }
}

// -----

// DCE-LABEL: tt.func public @dead_code
// DCE-NOT: tt.splat
// DCE-NOT: tt.get_num_programs
// DCE: tt.store
// DCE: tt.atomic_rmw add
// DCE: tt.return
module {
  tt.func public @dead_code(%p: !tt.ptr<i32>, %x: i32) {
    %s = tt.splat %x : i32 -> tensor<16xi32>
    %n = tt.get_num_programs x : i32
    %v = tt.load %p : !tt.ptr<i32>
    tt.store %p, %x : !tt.ptr<i32>
    %old = tt.atomic_rmw add, acq_rel, gpu, %p, %x : (!tt.ptr<i32>, i32) -> i32
    tt.return
  }
}
