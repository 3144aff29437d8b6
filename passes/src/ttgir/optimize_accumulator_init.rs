//! `tritongpu-optimize-accumulator-init`: where a loop's `ttng.warp_group_dot`
//! starts from a zero accumulator, tell the dot through its `useC` flag
//! instead of zeroing the accumulator, as Triton 3.6 does.
//!
//! For each warp-group dot directly in an `scf.for` (and not one that needs
//! a partial accumulator: fp8 operands into f32 with `maxNumImpreciseAcc`
//! at most K):
//! - an accumulator that is a zero constant becomes `useC = false`;
//! - an accumulator that is zeroed by an `arith.select` or an `scf.if` on
//!   an `i1` (found through the loop's iter arg and its yield, `mulf`, and
//!   ops that keep zeros zero: `convert_layout`, `reshape`, `trans`,
//!   `broadcast`, `expand_dims`, `split`, and `join` of equal sources) stops
//!   being zeroed: the loop carries a flag, the select or if keeps the old
//!   value, and the dot's `useC` becomes that flag (or a select of it on
//!   the same condition, when the zeroing comes before the dot);
//! - an iter-arg accumulator whose initial value is zero carries a flag
//!   that is false on the first iteration and true after.
//!
//! Blackwell's MMAs (`ttng.tc_gen5_mma`, `_scaled`) are handled the same
//! way through their `useD` flag, their accumulator being the tensor that
//! the `ttng.tmem_alloc` beside them in the loop starts the tensor-memory
//! buffer from.
//!
//! Dots that already have a non-constant or false flag are left alone.
//! As in Triton, the pass ends with a greedy fold over the module, which
//! also erases dead ops.

use melior::ir::operation::OperationRef;
use mlir_sys::{MlirOperation, MlirValue};

use tt_dialect::rewrite::Greedy;

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttgir::pipeline_lower::is_zero_constant;
use crate::ttgir::pipelining as pl;
use crate::ttir::loop_support::{ir, scf};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUOptimizeAccumulatorInit",
    argument: "tritongpu-optimize-accumulator-init",
    description: "Replace zeroing of loop accumulators with the dot's use-accumulator flag",
    anchor: "builtin.module",
    run,
};

/// Operand index of `ttng.warp_group_dot`'s accumulator and of its optional
/// `useC` flag.
const ACC: usize = 2;
const USE_C: usize = 3;

fn run(module: OperationRef) -> PassResult {
    let module = module.to_raw();
    let dots = ir::collect_post(module, &|op| {
        ir::is(op, "ttng.warp_group_dot") || ir::name(op).starts_with("ttng.tc_gen5_mma")
    });
    for dot in dots {
        if !is_mma_v5(dot) && needs_partial_accumulator(dot) {
            continue;
        }
        optimize(dot);
    }
    // Triton ends with a greedy rewrite (its patterns are Blackwell's),
    // which folds what the rewrite left (a `select(c, true, false)` is `c`)
    // and erases dead ops (the unused constants included).
    // SAFETY: the module is live for the whole pass.
    let root = unsafe { OperationRef::from_raw(module) };
    if !tt_dialect::rewrite::apply_greedily(root, &[], Greedy::default()) {
        return Err(fail(root, "the greedy cleanup did not converge"));
    }
    Ok(())
}

/// Triton's `WarpGroupDotOp::needsPartialAccumulator`.
fn needs_partial_accumulator(dot: MlirOperation) -> bool {
    let a = ir::operand(dot, 0);
    let (shape, element) = match ir::memdesc(a) {
        Some(m) => (m.shape, m.element.to_string()),
        None => {
            // SAFETY: a live value's type.
            let ty = unsafe { melior::ir::Type::from_raw(ir::value_type(a)) };
            match tt_dialect::types::Tensor::of(ty) {
                Some(t) => (t.shape, t.element.to_string()),
                None => return false,
            }
        }
    };
    let fp8 = matches!(
        element.as_str(),
        "f8E5M2" | "f8E4M3FN" | "f8E5M2FNUZ" | "f8E4M3FNUZ"
    );
    // SAFETY: a live value's type.
    let d = unsafe { melior::ir::Type::from_raw(ir::value_type(ir::result(dot, 0))) };
    let f32_acc = tt_dialect::types::Tensor::of(d).is_some_and(|t| t.element.to_string() == "f32");
    let max_imprecise = ir::attribute(dot, "maxNumImpreciseAcc")
        .and_then(ir::integer_attr_value)
        .unwrap_or(0);
    fp8 && f32_acc && shape.get(1).is_some_and(|&k| max_imprecise <= k)
}

fn is_mma_v5(dot: MlirOperation) -> bool {
    ir::name(dot).starts_with("ttng.tc_gen5_mma")
}

/// The dot's flag that says whether it adds its accumulator: a warp-group
/// dot's `useC`, an MMAv5's `useD`.
fn use_flag(dot: MlirOperation) -> Option<MlirValue> {
    if is_mma_v5(dot) {
        pl::optional_operand(dot, pl::mma_v5_use_d_segment(dot))
    } else {
        (ir::operand_count(dot) > USE_C).then(|| ir::operand(dot, USE_C))
    }
}

fn set_use_flag(dot: MlirOperation, flag: MlirValue) {
    if is_mma_v5(dot) {
        pl::set_optional_operand(dot, pl::mma_v5_use_d_segment(dot), flag);
    } else if ir::operand_count(dot) > USE_C {
        ir::set_operand(dot, USE_C, flag);
    } else {
        let mut operands = ir::operands(dot);
        operands.push(flag);
        // SAFETY: `dot` is live; the operand list is read during the call.
        unsafe {
            mlir_sys::mlirOperationSetOperands(dot, operands.len() as isize, operands.as_ptr())
        };
    }
}

/// Triton's `getAccumulatorUseAndDef`, the use: a warp-group dot's
/// accumulator operand; for an MMAv5, the tensor its `ttng.tmem_alloc`
/// (in the dot's region) starts the accumulator buffer from.
fn accumulator(dot: MlirOperation) -> Option<MlirValue> {
    if !is_mma_v5(dot) {
        return Some(ir::operand(dot, ACC));
    }
    let buffer = pl::optional_operand(dot, pl::MMA_V5_D)?;
    let alloc = ir::defining_op(buffer).filter(|a| ir::is(*a, "ttng.tmem_alloc"))?;
    let same_region = ir::parent_op(alloc)
        .zip(ir::parent_op(dot))
        .is_some_and(|(a, b)| same_op(a, b));
    (same_region && ir::operand_count(alloc) == 1).then(|| ir::operand(alloc, 0))
}

/// The value of a constant `i1`, where `value` is one.
fn bool_constant(value: MlirValue) -> Option<bool> {
    ir::constant_int(value)
        .filter(|&(_, width)| width == 1)
        .map(|(v, _)| v != 0)
}

/// What zeroes the accumulator: an `arith.select` or the `scf.if` and the
/// index of its result.
#[derive(Clone, Copy)]
struct ZeroInit {
    op: MlirOperation,
    result: usize,
}

fn same_op(a: MlirOperation, b: MlirOperation) -> bool {
    a.ptr == b.ptr
}

fn same_init(a: ZeroInit, b: ZeroInit) -> bool {
    same_op(a.op, b.op) && a.result == b.result
}

/// The `(then, else)` values an `scf.if` yields for result `index`.
fn if_yields(if_op: MlirOperation, index: usize) -> Option<(MlirValue, MlirValue)> {
    let regions = ir::regions(if_op);
    let yielded = |k: usize| -> Option<MlirValue> {
        let block = *ir::blocks(*regions.get(k)?).first()?;
        let term = ir::terminator(block).filter(|t| ir::is(*t, "scf.yield"))?;
        (ir::operand_count(term) > index).then(|| ir::operand(term, index))
    };
    Some((yielded(0)?, yielded(1)?))
}

/// Triton's `findZeroInitOp`: what zeroes `value` within `for_op`'s body,
/// and whether the loop's initial value for it is zero.
fn find_zero_init(
    value: MlirValue,
    for_op: MlirOperation,
    loop_arg_is_zero: &mut bool,
) -> Option<ZeroInit> {
    let mut v = value;
    if ir::is_block_argument(v) {
        let body = scf::body(for_op);
        if ir::value_block(v).ptr != body.ptr {
            return None;
        }
        let index = ir::arg_number(v).checked_sub(1)?;
        if is_zero_constant(*scf::init_args(for_op).get(index)?) {
            *loop_arg_is_zero = true;
        }
        v = *scf::yielded_values(for_op).get(index)?;
    }
    let def = ir::defining_op(v)?;
    let name = ir::name(def);
    match name.as_str() {
        "arith.select" => {
            let cond = ir::operand(def, 0);
            if ir::integer_width(ir::value_type(cond)) != Some(1) {
                return None;
            }
            if is_zero_constant(ir::operand(def, 1)) || is_zero_constant(ir::operand(def, 2)) {
                return Some(ZeroInit { op: def, result: 0 });
            }
            None
        }
        "scf.if" => {
            let index = ir::result_number(v);
            let (then_value, else_value) = if_yields(def, index)?;
            if !is_zero_constant(then_value) && !is_zero_constant(else_value) {
                return None;
            }
            // The kept value must come from outside the if.
            let inside = |x: MlirValue| ir::value_parent_op(x).is_some_and(|p| same_op(p, def));
            if inside(then_value) || inside(else_value) {
                return None;
            }
            Some(ZeroInit {
                op: def,
                result: index,
            })
        }
        "arith.mulf" => find_zero_init(ir::operand(def, 0), for_op, loop_arg_is_zero)
            .or_else(|| find_zero_init(ir::operand(def, 1), for_op, loop_arg_is_zero)),
        "ttg.convert_layout" | "tt.reshape" | "tt.trans" | "tt.broadcast" | "tt.expand_dims"
        | "tt.split" => find_zero_init(ir::operand(def, 0), for_op, loop_arg_is_zero),
        "tt.join" => {
            let mut found: Option<ZeroInit> = None;
            for operand in ir::operands(def) {
                let init = find_zero_init(operand, for_op, loop_arg_is_zero)?;
                match found {
                    Some(f) if !same_init(f, init) => return None,
                    _ => found = Some(init),
                }
            }
            found
        }
        _ => None,
    }
}

/// Whether `a` comes before `b`, both ops of one block.
fn is_before_in_block(a: MlirOperation, b: MlirOperation) -> bool {
    ir::block_ops(ir::op_block(a))
        .into_iter()
        .take_while(|op| !same_op(*op, b))
        .any(|op| same_op(op, a))
}

fn optimize(dot: MlirOperation) {
    let Some(mut for_op) = ir::parent_op(dot).filter(|p| ir::is(*p, "scf.for")) else {
        return;
    };
    let location = ir::location(dot);
    let i1 = ir::i1_type(ir::context(for_op));
    let v_true = ir::build_constant(for_op, location, i1, 1);
    let v_false = ir::build_constant(for_op, location, i1, 0);
    let Some(acc) = accumulator(dot) else {
        return;
    };
    if is_zero_constant(acc) {
        set_use_flag(dot, v_false);
        return;
    }
    let mut loop_arg_is_zero = false;
    let zero_init = find_zero_init(acc, for_op, &mut loop_arg_is_zero);
    if zero_init.is_none() && !loop_arg_is_zero {
        return;
    }
    if let Some(flag) = use_flag(dot) {
        if bool_constant(flag) != Some(true) {
            return;
        }
    }
    // The rewrite needs the zeroing op beside the dot in the loop body.
    if zero_init.is_some_and(|z| ir::op_block(z.op).ptr != ir::op_block(dot).ptr) {
        return;
    }
    let initial = if loop_arg_is_zero { v_false } else { v_true };
    for_op = scf::add_iter_args(for_op, &[initial]);
    let loop_flag = *scf::region_iter_args(for_op)
        .last()
        .expect("the loop just got a flag argument");
    let Some(yield_op) = scf::yield_op(for_op) else {
        return;
    };
    let append_yield = |value: MlirValue| {
        let mut operands = ir::operands(yield_op);
        operands.push(value);
        // SAFETY: `yield_op` is live; the operand list is read during the call.
        unsafe {
            mlir_sys::mlirOperationSetOperands(yield_op, operands.len() as isize, operands.as_ptr())
        };
    };
    let Some(zero_init) = zero_init else {
        set_use_flag(dot, loop_flag);
        append_yield(v_true);
        return;
    };
    let init_op = zero_init.op;
    let (condition, then_value, else_value) = if ir::is(init_op, "arith.select") {
        (
            ir::operand(init_op, 0),
            ir::operand(init_op, 1),
            ir::operand(init_op, 2),
        )
    } else {
        let Some((t, e)) = if_yields(init_op, zero_init.result) else {
            return;
        };
        (ir::operand(init_op, 0), t, e)
    };
    let then_zero = is_zero_constant(then_value);
    let old_value = if then_zero { else_value } else { then_value };
    let before_dot = is_before_in_block(init_op, dot);
    let previous = if before_dot { loop_flag } else { v_true };
    let (on_true, on_false) = if then_zero {
        (v_false, previous)
    } else {
        (previous, v_false)
    };
    let select = ir::create_op(
        "arith.select",
        location,
        &[condition, on_true, on_false],
        &[ir::value_type(v_true)],
        &[],
        Vec::new(),
    );
    ir::insert_before(init_op, select);
    let select_flag = ir::result(select, 0);
    set_use_flag(dot, if before_dot { select_flag } else { loop_flag });
    append_yield(if before_dot { v_true } else { select_flag });
    if ir::is(init_op, "arith.select") {
        ir::replace_all_uses(ir::result(init_op, 0), old_value);
        ir::erase(init_op);
    } else {
        let region = ir::regions(init_op)[if then_zero { 0 } else { 1 }];
        if let Some(term) = ir::blocks(region).first().and_then(|b| ir::terminator(*b)) {
            ir::set_operand(term, zero_init.result, old_value);
        }
    }
}
