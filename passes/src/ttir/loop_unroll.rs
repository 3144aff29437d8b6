//! `triton-loop-unroll`: unrolls every `scf.for` that carries
//! `tt.loop_unroll_factor` greater than one by that factor, the way MLIR's
//! `loopUnrollByFactor` (SCF utilities) does, and marks the epilogue loop
//! that runs the leftover iterations with `tt.num_stages = 1` so the
//! software pipeliner leaves it alone. The factor attribute is dropped.
//!
//! The unrolled loop keeps the original lower bound and takes the step times
//! the factor; its body is the original body followed by factor - 1 copies,
//! each reading the previous copy's yielded values as its iter args and
//! `iv + step * k` as its induction variable. With constant bounds the new
//! bounds are constants and the epilogue exists only when the trip count is
//! not a multiple of the factor; otherwise they are computed before the
//! loop (`ub' = lb + (tc - tc % f) * step`, `tc = ceildiv(ub - lb, step)`)
//! and the epilogue always exists. A loop (main or epilogue) left with one
//! iteration is replaced by its body, one with none by its initial values.
//!
//! Unsigned loops (`scf.for unsigned`) read constant bounds zero-extended,
//! and are left rolled when their bounds are 64 bits wide, as in MLIR 22.
//! One difference from MLIR: a loop whose trip count is known although a
//! bound is not a constant (the same value for both bounds) takes the
//! dynamic path here, where MLIR 22's utility aborts.

use std::collections::HashMap;

use melior::ir::operation::OperationRef;
use mlir_sys::{MlirOperation, MlirValue};

use super::loop_support::ir::{self, Val};
use super::loop_support::scf;
use crate::rust_pass::{fail, PassResult, RustPass};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonLoopUnroll",
    argument: "triton-loop-unroll",
    description: "Unroll scf.for loops by their tt.loop_unroll_factor",
    anchor: "builtin.module",
    run,
};

const FACTOR_ATTR: &str = "tt.loop_unroll_factor";
const STAGES_ATTR: &str = "tt.num_stages";

/// The most ops the copies of one loop body may add.
const MAX_CLONED_OPS: u128 = 1 << 24;

/// The loop's unroll factor: the integer attribute, or 1 without one.
fn unroll_factor(op: MlirOperation) -> i64 {
    ir::attribute(op, FACTOR_ATTR)
        .and_then(ir::integer_attr_value)
        .unwrap_or(1)
}

fn run(module: OperationRef) -> PassResult {
    let loops = ir::collect_post(module.to_raw(), &|op| {
        ir::is(op, "scf.for") && unroll_factor(op) > 1
    });
    for lp in loops {
        let factor = unroll_factor(lp) as u64;
        let at = unsafe { OperationRef::from_raw(lp) };
        if !scf::is_well_formed_for(lp) {
            return Err(fail(at, "cannot unroll a malformed scf.for"));
        }
        // The ops each copy adds: the body without its terminator.
        let mut body_ops = 0u128;
        ir::walk_pre(lp, &mut |_| body_ops += 1);
        let body_ops = body_ops.saturating_sub(2);
        if u128::from(factor - 1) * body_ops > MAX_CLONED_OPS {
            return Err(fail(
                at,
                &format!(
                    "unroll factor {factor} would copy the loop body past {MAX_CLONED_OPS} ops"
                ),
            ));
        }
        ir::remove_attribute(lp, FACTOR_ATTR);
        if let Some(epilogue) = unroll_by_factor(lp, factor) {
            let ctx = ir::context(epilogue);
            ir::set_attribute(
                epilogue,
                STAGES_ATTR,
                ir::integer_attr(ir::i32_type(ctx), 1),
            );
        }
    }
    Ok(())
}

/// Unrolls `op` by `factor` (> 1) and returns the epilogue loop, if one is
/// left.
fn unroll_by_factor(op: MlirOperation, factor: u64) -> Option<MlirOperation> {
    let body = scf::body(op);
    if ir::block_ops(body).len() == 1 {
        return None;
    }
    let location = ir::location(op);
    let (lb, ub, step) = (scf::lower_bound(op), scf::upper_bound(op), scf::step(op));
    let constants = (
        ir::constant_int(lb),
        ir::constant_int(ub),
        ir::constant_int(step),
    );
    let static_count = scf::static_trip_count(op);
    // Unsigned loops read their constant bounds zero-extended, which an
    // i64 cannot hold for 64-bit bounds: MLIR gives up on those.
    let unsigned = scf::is_unsigned(op);
    let bound_width = ir::integer_width(ir::value_type(lb));
    if unsigned && static_count.is_some() && bound_width.is_some_and(|w| w >= 64) {
        return None;
    }
    let read = |(value, width): (i64, u32)| {
        if unsigned && width < 64 {
            value & ((1i64 << width) - 1)
        } else {
            value
        }
    };
    let constants = (
        constants.0.map(read),
        constants.1.map(read),
        constants.2.map(read),
    );

    let (upper_unrolled, step_unrolled, with_epilogue) = match (static_count, constants) {
        (Some(count), (Some(lb_c), Some(ub_c), Some(step_c))) => {
            let width = ir::integer_width(ir::value_type(lb)).unwrap_or(64);
            // MLIR reads the count as an unsigned number of the bounds' width.
            let count = if width >= 64 {
                count as u64
            } else {
                (count as u64) & ((1u64 << width) - 1)
            };
            let even = count - count % factor;
            let upper_cst = lb_c.wrapping_add((even as i64).wrapping_mul(step_c));
            let step_cst = step_c.wrapping_mul(factor as i64);
            let with_epilogue = upper_cst < ub_c;
            let upper = if with_epilogue {
                ir::build_constant(op, location, ir::value_type(ub), upper_cst)
            } else {
                ub
            };
            let new_step = if step_c == step_cst {
                step
            } else {
                ir::build_constant(op, location, ir::value_type(step), step_cst)
            };
            (upper, new_step, with_epilogue)
        }
        _ => {
            let ty = ir::value_type(ub);
            let diff = ir::build_binary(op, "arith.subi", location, ub, lb);
            // ceildiv(diff, step) for positive operands.
            let one = ir::build_constant(op, location, ty, 1);
            let step_minus_one = ir::build_binary(op, "arith.subi", location, step, one);
            let sum = ir::build_binary(op, "arith.addi", location, diff, step_minus_one);
            let count = ir::build_binary(op, "arith.divui", location, sum, step);
            let factor_cst = ir::build_constant(op, location, ty, factor as i64);
            let rem = ir::build_binary(op, "arith.remsi", location, count, factor_cst);
            let even = ir::build_binary(op, "arith.subi", location, count, rem);
            let span = ir::build_binary(op, "arith.muli", location, even, step);
            let upper = ir::build_binary(op, "arith.addi", location, lb, span);
            let new_step = ir::build_binary(op, "arith.muli", location, step, factor_cst);
            (upper, new_step, true)
        }
    };

    let mut epilogue = None;
    if with_epilogue {
        let clone = unsafe { mlir_sys::mlirOperationClone(op) };
        ir::insert_after(op, clone);
        ir::set_operand(clone, 0, upper_unrolled);
        let results = ir::results(op);
        for (old, new) in results.iter().zip(ir::results(clone)) {
            ir::replace_all_uses(*old, new);
        }
        for (i, result) in results.iter().enumerate() {
            ir::set_operand(clone, 3 + i, *result);
        }
        if !scf::promote_if_single_iteration(clone) {
            epilogue = Some(clone);
        }
    }

    ir::set_operand(op, 1, upper_unrolled);
    ir::set_operand(op, 2, step_unrolled);
    append_copies(op, factor, step);
    scf::promote_if_single_iteration(op);
    epilogue
}

/// Appends `factor - 1` copies of the body of `op` before its yield, chained
/// through the iter args, each with the induction variable advanced by
/// `step` times its index.
fn append_copies(op: MlirOperation, factor: u64, step: MlirValue) {
    let body = scf::body(op);
    let Some(terminator) = ir::terminator(body) else {
        return;
    };
    let location = ir::location(op);
    let sources: Vec<MlirOperation> = ir::block_ops(body)
        .into_iter()
        .filter(|o| o.ptr != terminator.ptr)
        .collect();
    let iv = scf::induction_var(op);
    let iter_args = scf::region_iter_args(op);
    let yielded = ir::operands(terminator);
    let mut last = yielded.clone();
    for k in 1..factor {
        let mut map: HashMap<Val, Val> = iter_args
            .iter()
            .zip(&last)
            .map(|(a, v)| (Val(*a), Val(*v)))
            .collect();
        if ir::has_uses(iv) {
            let index = ir::build_constant(terminator, location, ir::value_type(iv), k as i64);
            let stride = ir::build_binary(terminator, "arith.muli", location, step, index);
            let shifted = ir::build_binary(terminator, "arith.addi", location, iv, stride);
            map.insert(Val(iv), Val(shifted));
        }
        for source in &sources {
            let clone = ir::clone_mapped(*source, &mut map);
            ir::insert_before(terminator, clone);
        }
        last = yielded
            .iter()
            .map(|v| ir::lookup_or_self(&map, *v))
            .collect();
    }
    unsafe {
        mlir_sys::mlirOperationSetOperands(terminator, last.len() as isize, last.as_ptr());
    }
}
