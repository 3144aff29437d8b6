//! `triton-licm`: loop-invariant code motion for `scf.for` and `scf.while`
//! (MLIR's `moveLoopInvariantCode`) that also hoists `tt.load`s, as Triton
//! does.
//!
//! Loops are visited innermost first, so what leaves an inner loop may leave
//! the outer one too. In each loop region a worklist starts with the
//! region's top-level ops; an op moves right before the loop when every
//! value it (or anything nested in it) uses comes from outside the loop and
//! the op may move: an ordinary op must be speculatable and free of memory
//! effects; a `tt.load` must only read, in a loop where everything only
//! reads (no stores, prints, asserts or allocations). When an op moves, its
//! users in the region are looked at again.
//!
//! A load hoisted out of an `scf.for` would run even when the loop runs
//! zero times, so its mask is and-ed with `lb < ub` (computed before the
//! loop, splat to the pointer tensor's shape). Loads in `scf.while` loops
//! stay where they are (Triton 3.6 has no guard for them yet).

use std::collections::VecDeque;

use melior::ir::operation::OperationRef;
use mlir_sys::{MlirOperation, MlirRegion, MlirValue};

use super::loop_support::{effects, ir, scf};
use crate::rust_pass::{fail, PassResult, RustPass};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonLoopInvariantCodeMotion",
    argument: "triton-licm",
    description: "Hoist loop-invariant code, loads included, out of scf.for and scf.while loops",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let loops = ir::collect_post(module.to_raw(), &|op| {
        ir::is(op, "scf.for") || ir::is(op, "scf.while")
    });
    for lp in loops {
        if ir::is(lp, "scf.for") && !scf::is_well_formed_for(lp) {
            let at = unsafe { OperationRef::from_raw(lp) };
            return Err(fail(at, "cannot hoist out of a malformed scf.for"));
        }
        hoist_invariants(lp, true);
    }
    Ok(())
}

/// Whether `op`'s parent region is `region`.
fn in_region(op: MlirOperation, region: MlirRegion) -> bool {
    let block = ir::op_block(op);
    !ir::is_null_block(block) && ir::block_parent_region(block).ptr == region.ptr
}

/// Whether every value `op` and its nested ops use is defined outside
/// `lp` or inside `op` itself.
fn uses_only_outside_values(op: MlirOperation, lp: MlirOperation) -> bool {
    let mut ok = true;
    ir::walk_pre(op, &mut |nested| {
        if !ok {
            return;
        }
        for value in ir::operands(nested) {
            let inside_op = ir::value_parent_op(value).is_some_and(|p| ir::is_ancestor(op, p));
            if !inside_op && !ir::defined_outside(lp, value) {
                ok = false;
                return;
            }
        }
    });
    ok
}

/// MLIR's `moveLoopInvariantCode` on one loop: hoists the speculatable,
/// effect-free ops whose operands come from outside `lp` (loads stay).
pub fn move_loop_invariant_code(lp: MlirOperation) {
    hoist_invariants(lp, false);
}

/// Hoists `lp`'s invariant ops; `with_loads` adds Triton's guarded loads.
fn hoist_invariants(lp: MlirOperation, with_loads: bool) {
    let mut loop_only_reads: Option<bool> = None;
    let is_for = ir::is(lp, "scf.for");
    for region in ir::regions(lp) {
        let mut worklist: VecDeque<MlirOperation> = ir::region_ops(region).into();
        while let Some(op) = worklist.pop_front() {
            if !in_region(op, region) {
                continue;
            }
            let movable = if ir::is(op, "tt.load") {
                with_loads
                    && effects::only_reads(op)
                    && *loop_only_reads.get_or_insert_with(|| effects::only_reads(lp))
            } else {
                effects::is_pure(op)
            };
            if !movable || ir::is_terminator(op) || !uses_only_outside_values(op, lp) {
                continue;
            }
            if ir::is(op, "tt.load") {
                // Triton guards loads hoisted out of scf.for only; loads of
                // other loops stay.
                if !is_for {
                    continue;
                }
                guard_load(op, lp);
            }
            ir::move_before(op, lp);
            for result in ir::results(op) {
                for (user, _) in ir::uses(result) {
                    if in_region(user, region) {
                        worklist.push_back(user);
                    }
                }
            }
        }
    }
}

/// And-s the mask of the load `op` with `lb < ub` of the loop `lp`, built
/// right before the loop.
fn guard_load(op: MlirOperation, lp: MlirOperation) {
    let location = ir::location(lp);
    let ctx = ir::context(lp);
    let condition = ir::build_cmpi(
        lp,
        location,
        ir::cmpi::SLT,
        scf::lower_bound(lp),
        scf::upper_bound(lp),
    );
    let (ptr, mask, other) = load_operands(op);
    let mask_type = ir::i1_same_shape(ir::value_type(ptr));
    let mut new_mask = condition;
    if unsafe { mlir_sys::mlirTypeIsARankedTensor(mask_type) } {
        let splat = ir::create_op(
            "tt.splat",
            location,
            &[condition],
            &[mask_type],
            &[],
            Vec::new(),
        );
        ir::insert_before(lp, splat);
        new_mask = ir::result(splat, 0);
    }
    if let Some(current) = mask {
        let and = ir::create_op(
            "arith.andi",
            location,
            &[new_mask, current],
            &[mask_type],
            &[],
            Vec::new(),
        );
        ir::insert_before(lp, and);
        new_mask = ir::result(and, 0);
    }
    let mut operands = vec![ptr, new_mask];
    operands.extend(other);
    let sizes = [1, 1, i32::from(other.is_some())];
    let attr = ir::dense_i32_array_attr(ctx, &sizes);
    unsafe {
        mlir_sys::mlirOperationSetOperands(op, operands.len() as isize, operands.as_ptr());
        mlir_sys::mlirOperationSetInherentAttributeByName(
            op,
            melior::StringRef::new("operandSegmentSizes").to_raw(),
            attr,
        );
    }
}

/// A load's pointer, mask and other value, read through its operand
/// segments.
fn load_operands(op: MlirOperation) -> (MlirValue, Option<MlirValue>, Option<MlirValue>) {
    let operands = ir::operands(op);
    let sizes: Vec<i32> = ir::attribute(op, "operandSegmentSizes")
        .and_then(ir::dense_i32_array)
        .unwrap_or_else(|| {
            vec![
                1,
                i32::from(operands.len() > 1),
                i32::from(operands.len() > 2),
            ]
        });
    let has_mask = sizes.get(1).copied().unwrap_or(0) > 0;
    let has_other = sizes.get(2).copied().unwrap_or(0) > 0;
    let mask = has_mask.then(|| operands[1]);
    let other = has_other.then(|| operands[if has_mask { 2 } else { 1 }]);
    (operands[0], mask, other)
}
