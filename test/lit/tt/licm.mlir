// triton-licm: loop-invariant, speculatable and effect-free ops move out of
// scf.for and scf.while loops (innermost loop first); a tt.load moves out
// of an scf.for whose body only reads, its mask and-ed with `lb < ub` so a
// loop that does not run does not load; stores, prints and asserts keep
// loads in, and loads in scf.while loops stay.
// RUN: tt-opt %s --split-input-file --triton-licm | FileCheck %s
// RUN: tt-opt %s --split-input-file --triton-licm | tt-opt --split-input-file > /dev/null

// CHECK-LABEL: tt.func @hoist_load_without_mask
// CHECK-SAME: (%[[PTR:[^:]*]]: tensor<1024x!tt.ptr<f32>>, %[[LB:[^:]*]]: i32, %[[UB:[^:]*]]: i32
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK-NEXT: %[[MASK:.*]] = tt.splat %[[RUNS]] : i1 -> tensor<1024xi1>
// CHECK-NEXT: %[[LOAD:.*]] = tt.load %[[PTR]], %[[MASK]] : tensor<1024x!tt.ptr<f32>>
// CHECK-NEXT: %[[TWICE:.*]] = arith.addf %[[LOAD]], %[[LOAD]]
// CHECK-NEXT: scf.for
// CHECK-NEXT: arith.addf %{{.*}}, %[[TWICE]]
// CHECK-NEXT: scf.yield
tt.func @hoist_load_without_mask(%ptr: tensor<1024x!tt.ptr<f32>>, %lb: i32, %ub: i32, %out: tensor<1024x!tt.ptr<f32>>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %cst) -> (tensor<1024xf32>) : i32 {
    %v = tt.load %ptr : tensor<1024x!tt.ptr<f32>>
    %w = arith.addf %v, %v : tensor<1024xf32>
    %s = arith.addf %acc, %w : tensor<1024xf32>
    scf.yield %s : tensor<1024xf32>
  }
  tt.store %out, %r : tensor<1024x!tt.ptr<f32>>
  tt.return
}

// -----

// A masked load with an `other` value: the guard is and-ed into the mask,
// `other` stays. Each hoisted load gets its own guard.
// CHECK-LABEL: tt.func @hoist_loads_with_mask
// CHECK-SAME: (%[[PTR:[^:]*]]: tensor<1024x!tt.ptr<f32>>, %[[M:[^:]*]]: tensor<1024xi1>, %[[LB:[^:]*]]: i32, %[[UB:[^:]*]]: i32
// CHECK: %[[OTHER:.*]] = arith.constant dense<1.000000e+00>
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK-NEXT: %[[SPLAT:.*]] = tt.splat %[[RUNS]] : i1 -> tensor<1024xi1>
// CHECK-NEXT: %[[AND:.*]] = arith.andi %[[SPLAT]], %[[M]] : tensor<1024xi1>
// CHECK-NEXT: %[[A:.*]] = tt.load %[[PTR]], %[[AND]], %[[OTHER]] : tensor<1024x!tt.ptr<f32>>
// CHECK-NEXT: %[[RUNS2:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK-NEXT: %[[SPLAT2:.*]] = tt.splat %[[RUNS2]] : i1 -> tensor<1024xi1>
// CHECK-NEXT: %[[B:.*]] = tt.load %[[PTR]], %[[SPLAT2]] : tensor<1024x!tt.ptr<f32>>
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[A]], %[[B]]
// CHECK-NEXT: scf.for
// CHECK-NOT: tt.load
// CHECK: tt.return
tt.func @hoist_loads_with_mask(%ptr: tensor<1024x!tt.ptr<f32>>, %m: tensor<1024xi1>, %lb: i32, %ub: i32, %out: tensor<1024x!tt.ptr<f32>>) {
  %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
  %one = arith.constant dense<1.000000e+00> : tensor<1024xf32>
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %cst) -> (tensor<1024xf32>) : i32 {
    %a = tt.load %ptr, %m, %one : tensor<1024x!tt.ptr<f32>>
    %b = tt.load %ptr : tensor<1024x!tt.ptr<f32>>
    %w = arith.addf %a, %b : tensor<1024xf32>
    %s = arith.addf %acc, %w : tensor<1024xf32>
    scf.yield %s : tensor<1024xf32>
  }
  tt.store %out, %r : tensor<1024x!tt.ptr<f32>>
  tt.return
}

// -----

// A scalar load gets a scalar guard.
// CHECK-LABEL: tt.func @hoist_scalar_load
// CHECK-SAME: (%[[PTR:[^:]*]]: !tt.ptr<i32>, %[[UB:[^:]*]]: i32)
// CHECK: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[C0]], %[[UB]] : i32
// CHECK-NEXT: %[[V:.*]] = tt.load %[[PTR]], %[[RUNS]] : !tt.ptr<i32>
// CHECK-NEXT: scf.for
tt.func @hoist_scalar_load(%ptr: !tt.ptr<i32>, %ub: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %v = tt.load %ptr : !tt.ptr<i32>
    %s = arith.addi %acc, %v : i32
    scf.yield %s : i32
  }
  tt.return %r : i32
}

// -----

// A store in the loop keeps the load in; invariant pure ops still move,
// those that use the induction variable and the store do not.
// CHECK-LABEL: tt.func @store_keeps_loads
// CHECK-SAME: (%[[PTR:[^:]*]]: tensor<1024x!tt.ptr<f32>>, %{{[^:]*}}: tensor<1024x!tt.ptr<f32>>, %[[N:[^:]*]]: i32)
// CHECK: %[[INV:.*]] = arith.muli %[[N]], %[[N]] : i32
// CHECK-NEXT: %[[INV2:.*]] = tt.splat %[[INV]] : i32 -> tensor<1024xi32>
// CHECK-NEXT: tt.addptr %[[PTR]], %[[INV2]]
// CHECK-NEXT: scf.for %[[I:.*]] = %{{.*}} to %[[N]]
// CHECK-NEXT: tt.load %[[PTR]] : tensor<1024x!tt.ptr<f32>>
// CHECK-NEXT: arith.addi %[[I]], %[[INV]]
// CHECK-NEXT: tt.store
// CHECK-NEXT: }
tt.func @store_keeps_loads(%ptr: tensor<1024x!tt.ptr<f32>>, %out: tensor<1024x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %v = tt.load %ptr : tensor<1024x!tt.ptr<f32>>
    %inv = arith.muli %n, %n : i32
    %dep = arith.addi %i, %inv : i32
    %off = tt.splat %inv : i32 -> tensor<1024xi32>
    %p = tt.addptr %ptr, %off : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %out, %v : tensor<1024x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// Prints and asserts write: the loads stay.
// CHECK-LABEL: tt.func @print_and_assert_keep_loads
// CHECK: scf.for
// CHECK-NEXT: tt.load
// CHECK: tt.print
// CHECK: scf.for
// CHECK-NEXT: tt.assert
// CHECK-NEXT: tt.load
tt.func @print_and_assert_keep_loads(%ptr: tensor<1024x!tt.ptr<f32>>, %n: i32, %c: i1) {
  %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %cst) -> (tensor<1024xf32>) : i32 {
    %v = tt.load %ptr : tensor<1024x!tt.ptr<f32>>
    %s = arith.addf %acc, %v : tensor<1024xf32>
    tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %s : tensor<1024xf32>
    scf.yield %s : tensor<1024xf32>
  }
  %r2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %cst) -> (tensor<1024xf32>) : i32 {
    tt.assert %c, "must hold" : i1
    %v = tt.load %ptr : tensor<1024x!tt.ptr<f32>>
    %s = arith.addf %acc, %v : tensor<1024xf32>
    scf.yield %s : tensor<1024xf32>
  }
  tt.return
}

// -----

// Ops that may not run speculatively stay: a division by a value that may
// be zero; a division by a non-zero constant moves.
// CHECK-LABEL: tt.func @speculation
// CHECK-SAME: (%[[A:[^:]*]]: i32, %[[B:[^:]*]]: i32
// CHECK: %[[SAFE:.*]] = arith.divsi %[[A]], %{{.*}} : i32
// CHECK-NEXT: scf.for
// CHECK-NEXT: %[[UNSAFE:.*]] = arith.divsi %[[A]], %[[B]] : i32
// CHECK-NEXT: arith.addi %[[UNSAFE]], %[[SAFE]]
tt.func @speculation(%a: i32, %b: i32, %n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %q = arith.divsi %a, %b : i32
    %s = arith.divsi %a, %c7 : i32
    %t = arith.addi %q, %s : i32
    %u = arith.addi %acc, %t : i32
    scf.yield %u : i32
  }
  tt.return %r : i32
}

// -----

// Nested loops: an op invariant in both leaves both, one that uses the
// outer induction variable stops between them; the inner load leaves the
// inner loop (guarded by the inner bounds, a guard that then leaves the
// outer loop too) but not the outer one, which stores.
// CHECK-LABEL: tt.func @nested
// CHECK-SAME: (%[[PTR:[^:]*]]: !tt.ptr<i32>, %[[N:[^:]*]]: i32
// CHECK: %[[BOTH:.*]] = arith.muli %[[N]], %[[N]] : i32
// CHECK-NEXT: %[[RUNS:.*]] = arith.cmpi slt, %{{.*}}, %[[N]] : i32
// CHECK-NEXT: scf.for %[[I:[^ ]*]] =
// CHECK-NEXT: %[[OUTER:.*]] = arith.addi %[[I]], %[[BOTH]] : i32
// CHECK-NEXT: %[[V:.*]] = tt.load %[[PTR]], %[[RUNS]] : !tt.ptr<i32>
// CHECK-NEXT: %[[W:.*]] = arith.addi %[[V]], %[[OUTER]] : i32
// CHECK-NEXT: %[[SUM:.*]] = scf.for
// CHECK-NEXT: arith.addi %{{.*}}, %[[W]] : i32
// CHECK: tt.store %[[PTR]], %[[SUM]]
tt.func @nested(%ptr: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %sum = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %both = arith.muli %n, %n : i32
      %outer = arith.addi %i, %both : i32
      %v = tt.load %ptr : !tt.ptr<i32>
      %w = arith.addi %v, %outer : i32
      %s = arith.addi %acc, %w : i32
      scf.yield %s : i32
    }
    tt.store %ptr, %sum : !tt.ptr<i32>
  }
  tt.return
}

// -----

// scf.while: invariant ops of the condition region move, the load of the
// body stays.
// CHECK-LABEL: tt.func @while_loop
// CHECK-SAME: (%[[PTR:[^:]*]]: tensor<1024x!tt.ptr<f32>>, %[[A:[^:]*]]: i32, %[[B:[^:]*]]: i32)
// CHECK: %[[C42:.*]] = arith.constant 42 : i32
// CHECK-NEXT: %[[ADD:.*]] = arith.addi %[[A]], %[[C42]] : i32
// CHECK-NEXT: %[[COND:.*]] = arith.cmpi slt, %[[ADD]], %[[B]] : i32
// CHECK-NEXT: scf.while
// CHECK-NEXT: scf.condition(%[[COND]])
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tt.load %[[PTR]]
tt.func @while_loop(%ptr: tensor<1024x!tt.ptr<f32>>, %a: i32, %b: i32) {
  %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
  %r = scf.while (%x = %cst) : (tensor<1024xf32>) -> (tensor<1024xf32>) {
    %c42 = arith.constant 42 : i32
    %add = arith.addi %a, %c42 : i32
    %cond = arith.cmpi slt, %add, %b : i32
    scf.condition(%cond) %x : tensor<1024xf32>
  } do {
  ^bb0(%x: tensor<1024xf32>):
    %v = tt.load %ptr : tensor<1024x!tt.ptr<f32>>
    %w = arith.addf %v, %x : tensor<1024xf32>
    scf.yield %w : tensor<1024xf32>
  }
  tt.store %ptr, %r : tensor<1024x!tt.ptr<f32>>
  tt.return
}

// -----

// A loop-invariant op with a region moves as a whole when its region only
// uses values from outside the loop or its own.
// CHECK-LABEL: tt.func @region_op
// CHECK: %[[IF:.*]] = scf.if
// CHECK: scf.for
// CHECK-NEXT: arith.addi %{{.*}}, %[[IF]]
tt.func @region_op(%c: i1, %a: i32, %n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %v = scf.if %c -> i32 {
      %t = arith.addi %a, %a : i32
      scf.yield %t : i32
    } else {
      scf.yield %a : i32
    }
    %s = arith.addi %acc, %v : i32
    scf.yield %s : i32
  }
  tt.return %r : i32
}
