//! `tritongpu-pipeline` (options `num-stages`, default 3, and
//! `dump-intermediate-steps`, default false): Triton 3.6's software
//! pipeliner for the loops that `tritongpu-schedule-loops` scheduled, in
//! the subset this project supports so far: loops without dots, without
//! iter_args, with one masked rank-1 `tt.load` of at least 32 bits per copy
//! in stage 0 whose users are all in the last stage `S` (the scheduled
//! maximum stage; nothing may sit in the stages between).
//!
//! The steps are Triton's:
//!
//! 1. lower loops: the load becomes an async copy into a ring of `S`
//!    shared buffers (`#ttg.swizzled_shared<{vec = 1, perPhase = 1,
//!    maxPhase = 1, order = [0]}>`) indexed by an insert and an extract
//!    counter that start at -1 and wrap at `S`; the wait (for all but the
//!    `S - 1` newest copies), the local load and (for a non-zero `other`) a
//!    select take the consumer's stage; after the loop, a wait for
//!    everything and the dealloc;
//! 2. expand loops (`peelEpilogue = false`, dynamic bounds): a prologue
//!    with stage 0 of the first `S` iterations, the async copy of the
//!    `k`-th masked by `lb + k * step < ub`; then the loop with the last
//!    stage first and stage 0 after it, reading the induction variable `S`
//!    steps ahead, its async copy masked by `iv < ub - S * step`; every
//!    stage-0 value that the last stage reads is carried as a window of
//!    `S` loop arguments, the oldest iteration's first;
//! 3. clean-up: the pipelining attributes are removed (the wait counts are
//!    already final);
//! 4. the greedy driver with folding over the module, as Triton's arith
//!    canonicalization runs it. Arith's canonicalization patterns
//!    themselves are not applied: none fires on the corpus, but a module
//!    where one would differs from Triton (see the module's report).
//!
//! With `S = 1` (two stages) the output is Triton's, golden-checked on the
//! corpus. Scheduled loops outside the subset (dots, iter_args, several or
//! unmasked loads, ops in the middle stages, ...) get a located "not
//! supported yet" error; loops without a schedule are left alone.

use std::collections::HashMap;

use melior::ir::operation::OperationRef;
use melior::pass::Pass;
use mlir_sys::{MlirAttribute, MlirOperation, MlirType, MlirValue};
use tt_dialect::rewrite::{apply_greedily, Greedy};

use crate::analysis::axis_info::AxisInfoMap;
use crate::options::PassOptions;
use crate::rust_pass::{fail, Failure, PassResult, RustPass};
use crate::ttgir::assign_latencies::{is_small_load, parse_num_stages};
use crate::ttgir::pipelining::{self as pl, CLUSTER, SCHEDULED_MAX_STAGE, STAGE};
use crate::ttir::loop_support::ir::{self, Val, ValueMap};
use crate::ttir::loop_support::scf;

/// The pass's flag.
pub const ARGUMENT: &str = "tritongpu-pipeline";

/// The pass; the options change nothing once checked (the schedule fixes
/// the stages), so the factory only validates them.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUPipeline",
    argument: ARGUMENT,
    description: "Software-pipeline scheduled loops (one load, no dots)",
    anchor: "builtin.module",
    run,
};

/// Builds the pass from its options.
pub fn factory(options: &PassOptions) -> Result<Pass, String> {
    parse_num_stages(options)?;
    if options.flag("dump-intermediate-steps", false)? {
        return Err(format!(
            "{ARGUMENT}: option 'dump-intermediate-steps=true' is not supported yet"
        ));
    }
    Ok(PASS.build())
}

fn unsupported(op: MlirOperation, what: &str) -> Failure {
    let op = unsafe { OperationRef::from_raw(op) };
    fail(op, &format!("{ARGUMENT}: {what} is not supported yet"))
}

/// What lowering needs to know about a supported loop.
struct Plan {
    for_op: MlirOperation,
    load: MlirOperation,
    /// The last stage, where the load's users are (`S`): the ring has `S`
    /// buffers, and `S` copies are in flight.
    last: i64,
    /// Cluster of the load's first user.
    use_cluster: i64,
}

fn run(module_ref: OperationRef) -> PassResult {
    let module = module_ref.to_raw();
    let loops: Vec<MlirOperation> = pl::for_loops(module)
        .into_iter()
        .filter(|&l| ir::attribute(l, SCHEDULED_MAX_STAGE).is_some())
        .collect();
    let axis = AxisInfoMap::analyze(module_ref);
    let mut plans = Vec::new();
    for for_op in loops {
        plans.push(analyze(module, for_op, &axis)?);
    }
    for plan in plans {
        let lowered = lower(&plan);
        expand(lowered, plan.last);
    }
    ir::walk_pre(module, &mut |op| {
        for name in [STAGE, CLUSTER, SCHEDULED_MAX_STAGE] {
            if ir::attribute(op, name).is_some() {
                ir::remove_attribute(op, name);
            }
        }
    });
    apply_greedily(
        module_ref,
        &[],
        Greedy {
            fold: true,
            top_down: false,
        },
    );
    Ok(())
}

fn stage(op: MlirOperation) -> Option<i64> {
    pl::int_attribute(op, STAGE)
}

fn cluster(op: MlirOperation) -> Option<i64> {
    pl::int_attribute(op, CLUSTER)
}

fn analyze(
    module: MlirOperation,
    for_op: MlirOperation,
    axis: &AxisInfoMap,
) -> Result<Plan, Failure> {
    let mut nested_bad = None;
    ir::walk_pre(for_op, &mut |op| {
        let name = ir::name(op);
        if nested_bad.is_none()
            && (pl::is_dot_like(op)
                || name.starts_with("ttng.")
                || name.starts_with("ttg.")
                || name.starts_with("tt.descriptor")
                || (name != "scf.for" && name.starts_with("scf.") && name != "scf.yield"))
        {
            nested_bad = Some(name);
        }
    });
    let mut has_dot = false;
    ir::walk_pre(for_op, &mut |op| has_dot |= pl::is_dot_like(op));
    if has_dot {
        return Err(unsupported(for_op, "pipelining a loop with dots"));
    }
    if let Some(name) = nested_bad {
        let what = format!("pipelining a loop with '{name}'");
        return Err(unsupported(for_op, &what));
    }
    let last = match pl::int_attribute(for_op, SCHEDULED_MAX_STAGE) {
        Some(last) if last >= 1 => last,
        _ => {
            return Err(unsupported(
                for_op,
                "pipelining a loop without a maximum stage",
            ))
        }
    };
    if let Some(op) = pl::body_ops(for_op)
        .into_iter()
        .find(|&op| stage(op).is_some_and(|s| s != 0 && s != last))
    {
        let what = format!(
            "pipelining a loop with ops in stage {} of 0 to {last}",
            stage(op).unwrap_or(0)
        );
        return Err(unsupported(op, &what));
    }
    if !scf::init_args(for_op).is_empty() || ir::result_count(for_op) != 0 {
        return Err(unsupported(for_op, "pipelining a loop with iter_args"));
    }
    let num_ctas = ir::attribute(module, "ttg.num-ctas").and_then(ir::integer_attr_value);
    if num_ctas != Some(1) {
        return Err(unsupported(for_op, "pipelining with more than one CTA"));
    }
    let ops = pl::body_ops(for_op);
    let mut loads = Vec::new();
    for &op in &ops {
        if stage(op).is_none() || cluster(op).is_none() {
            return Err(unsupported(op, "pipelining an op without a schedule"));
        }
        if ir::region_count(op) > 0 {
            let mut inner_load = false;
            ir::walk_pre(op, &mut |n| inner_load |= ir::is(n, "tt.load"));
            if inner_load {
                return Err(unsupported(op, "pipelining a nested load"));
            }
        }
        if ir::is(op, "tt.load") {
            loads.push(op);
        }
    }
    let [load] = loads[..] else {
        return Err(unsupported(
            for_op,
            "pipelining a loop without exactly one load",
        ));
    };
    if stage(load) != Some(0) {
        return Err(unsupported(load, "pipelining a load outside stage 0"));
    }
    if is_small_load(load, axis) {
        return Err(unsupported(load, "pipelining a load narrower than 32 bits"));
    }
    if ir::operand_count(load) < 2 {
        return Err(unsupported(load, "pipelining an unmasked load"));
    }
    let ty = ir::value_type(ir::result(load, 0));
    if unsafe { !mlir_sys::mlirTypeIsARankedTensor(ty) || mlir_sys::mlirShapedTypeGetRank(ty) != 1 }
    {
        return Err(unsupported(
            load,
            "pipelining a load that is not a rank-1 tensor",
        ));
    }
    // Every stage-0 op besides the load must be free of memory effects
    // (Triton predicates the others), and no stage-1 value may flow back.
    for &op in &ops {
        if op.ptr != load.ptr
            && stage(op) == Some(0)
            && !crate::ttir::loop_support::effects::is_memory_effect_free(op)
        {
            return Err(unsupported(op, "pipelining a stage-0 op with side effects"));
        }
        if stage(op) == Some(0) {
            for v in operands_and_nested(op) {
                if let Some(d) = body_def(for_op, v) {
                    if stage(d) == Some(last) {
                        return Err(unsupported(op, "a stage-0 op reading the last stage"));
                    }
                }
            }
        }
    }
    let body = pl::body(for_op);
    let mut first_use: Option<(i64, usize)> = None;
    for (user, _) in ir::uses(ir::result(load, 0)) {
        let top = pl::ancestor_in_block(body, user);
        let Some(top) = top.filter(|t| !ir::is_terminator(*t)) else {
            return Err(unsupported(load, "pipelining a load used outside the body"));
        };
        if stage(top) != Some(last) {
            return Err(unsupported(load, "pipelining a load used in its own stage"));
        }
        let index = ops.iter().position(|o| o.ptr == top.ptr).unwrap_or(0);
        let key = (cluster(top).unwrap_or(0), index);
        if first_use.is_none_or(|f| key < f) {
            first_use = Some(key);
        }
    }
    let Some((use_cluster, _)) = first_use else {
        return Err(unsupported(load, "pipelining an unused load"));
    };
    Ok(Plan {
        for_op,
        load,
        last,
        use_cluster,
    })
}

/// The top-level body op of `for_op` that defines `v`, if any.
fn body_def(for_op: MlirOperation, v: MlirValue) -> Option<MlirOperation> {
    let def = ir::defining_op(v)?;
    (ir::op_block(def).ptr == pl::body(for_op).ptr).then_some(def)
}

/// `op`'s operands, then the values its regions read from above it.
fn operands_and_nested(op: MlirOperation) -> Vec<MlirValue> {
    let mut values = ir::operands(op);
    if ir::region_count(op) > 0 {
        values.extend(pl::nested_operands(op));
    }
    values
}

fn parse_type(op: MlirOperation, text: &str) -> MlirType {
    ir::parse_type(ir::context(op), text)
        .unwrap_or_else(|| panic!("the pipeliner built an invalid type: {text}"))
}

fn type_text(ty: MlirType) -> String {
    unsafe { melior::ir::Type::from_raw(ty) }.to_string()
}

fn set_schedule(op: MlirOperation, stage: i64, cluster: i64) {
    pl::set_i32(op, CLUSTER, cluster);
    pl::set_i32(op, STAGE, stage);
}

/// Creates `op` before `before`, with a schedule when given one.
fn build(
    before: MlirOperation,
    name: &str,
    operands: &[MlirValue],
    results: &[MlirType],
    attributes: &[(&str, MlirAttribute)],
    schedule: Option<(i64, i64)>,
) -> MlirOperation {
    let location = ir::location(before);
    let op = ir::create_op(name, location, operands, results, attributes, Vec::new());
    ir::insert_before(before, op);
    if let Some((s, c)) = schedule {
        set_schedule(op, s, c);
    }
    op
}

fn cmpi(before: MlirOperation, predicate: i64, lhs: MlirValue, rhs: MlirValue) -> MlirOperation {
    let ctx = ir::context(before);
    let i1 = ir::i1_type(ctx);
    let attr = ir::integer_attr(ir::i64_type(ctx), predicate);
    build(
        before,
        "arith.cmpi",
        &[lhs, rhs],
        &[i1],
        &[("predicate", attr)],
        None,
    )
}

const SLT: i64 = 2;
const SGE: i64 = 5;

/// A new `scf.for` before `old` with `old`'s bounds and attributes, the
/// given initial values and an empty body ending in an empty yield.
fn new_for(old: MlirOperation, inits: &[MlirValue]) -> MlirOperation {
    let location = ir::location(old);
    let lb = scf::lower_bound(old);
    let mut operands = vec![lb, scf::upper_bound(old), scf::step(old)];
    operands.extend_from_slice(inits);
    let types: Vec<MlirType> = inits.iter().map(|&v| ir::value_type(v)).collect();
    let mut arg_types = vec![ir::value_type(lb)];
    arg_types.extend(&types);
    let locations = vec![location; arg_types.len()];
    let attributes: Vec<(String, MlirAttribute)> = ir::attributes(old);
    let named: Vec<(&str, MlirAttribute)> =
        attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    unsafe {
        let block = mlir_sys::mlirBlockCreate(
            arg_types.len() as isize,
            arg_types.as_ptr(),
            locations.as_ptr(),
        );
        let region = mlir_sys::mlirRegionCreate();
        mlir_sys::mlirRegionAppendOwnedBlock(region, block);
        let op = ir::create_op("scf.for", location, &operands, &types, &named, vec![region]);
        ir::insert_before(old, op);
        let yield_op = ir::create_op("scf.yield", location, &[], &[], &[], Vec::new());
        mlir_sys::mlirBlockAppendOwnedOperation(block, yield_op);
        op
    }
}

/// Step 1 (Triton's `lowerLoops`): returns the new loop.
fn lower(plan: &Plan) -> MlirOperation {
    let old = plan.for_op;
    let load = plan.load;
    let ctx = ir::context(old);
    let i32t = ir::i32_type(ctx);
    let unknown = unsafe { mlir_sys::mlirLocationUnknownGet(ctx) };
    let load_ty = ir::value_type(ir::result(load, 0));
    let (n, elt) = unsafe {
        (
            mlir_sys::mlirShapedTypeGetDimSize(load_ty, 0),
            type_text(mlir_sys::mlirShapedTypeGetElementType(load_ty)),
        )
    };
    let shared = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>";
    let alloc_ty = parse_type(
        old,
        &format!(
            "!ttg.memdesc<{}x{n}x{elt}, {shared}, #ttg.shared_memory, mutable>",
            plan.last
        ),
    );
    let view_ty = parse_type(
        old,
        &format!("!ttg.memdesc<{n}x{elt}, {shared}, #ttg.shared_memory, mutable>"),
    );
    let token_ty = parse_type(old, "!ttg.async.token");
    let alloc = ir::result(
        build(old, "ttg.local_alloc", &[], &[alloc_ty], &[], None),
        0,
    );
    let c_m1 = ir::build_constant(old, unknown, i32t, -1);
    let c0 = ir::build_constant(old, unknown, i32t, 0);
    let c1 = ir::build_constant(old, unknown, i32t, 1);
    ir::build_constant(old, unknown, i32t, 0);
    let new = new_for(old, &[c_m1, c_m1]);
    let new_body = pl::body(new);
    let new_args = ir::block_args(new_body);
    let new_yield = pl::terminator(new);
    ir::replace_all_uses(scf::induction_var(old), new_args[0]);
    for op in ir::block_ops(pl::body(old)) {
        if ir::is_terminator(op) {
            ir::erase(op);
        } else {
            ir::move_before(op, new_yield);
        }
    }
    let first = ir::block_ops(new_body)[0];
    let (ls, lc) = (stage(load).unwrap_or(0), cluster(load).unwrap_or(0));
    let load_sched = Some((ls, lc));
    let use_sched = Some((plan.last, plan.use_cluster));
    let num_buffers = ir::result(
        build(
            first,
            "arith.constant",
            &[],
            &[i32t],
            &[("value", ir::integer_attr(i32t, plan.last))],
            load_sched,
        ),
        0,
    );
    let counter = |arg: MlirValue, sched: Option<(i64, i64)>| -> MlirValue {
        let add = build(first, "arith.addi", &[arg, c1], &[i32t], &[], sched);
        let cmp = cmpi(first, SGE, ir::result(add, 0), num_buffers);
        if let Some((s, c)) = sched {
            set_schedule(cmp, s, c);
        }
        let sel = build(
            first,
            "arith.select",
            &[ir::result(cmp, 0), c0, ir::result(add, 0)],
            &[i32t],
            &[],
            sched,
        );
        ir::result(sel, 0)
    };
    let insert = counter(new_args[1], load_sched);
    let extract = counter(new_args[2], use_sched);
    let operands = ir::operands(load);
    let (ptr, mask) = (operands[0], operands[1]);
    let other = operands.get(2).copied();
    let view = ir::result(
        build(
            load,
            "ttg.memdesc_index",
            &[alloc, insert],
            &[view_ty],
            &[],
            load_sched,
        ),
        0,
    );
    let mut copy_operands = vec![ptr, view, mask];
    copy_operands.extend(other);
    let segments = [1, 1, 1, i32::from(other.is_some())];
    let segments_attr = ir::dense_i32_array_attr(ctx, &segments);
    let mut attributes = vec![("operandSegmentSizes", segments_attr)];
    for name in ["cache", "evict", "isVolatile"] {
        if let Some(a) = ir::attribute(load, name) {
            attributes.push((name, a));
        }
    }
    let copy = build(
        load,
        "ttg.async_copy_global_to_local",
        &copy_operands,
        &[token_ty],
        &attributes,
        load_sched,
    );
    let commit = build(
        load,
        "ttg.async_commit_group",
        &[ir::result(copy, 0)],
        &[token_ty],
        &[],
        load_sched,
    );
    // The copies of the `last` iterations before this one's are in flight
    // when its consumer waits (groups complete in order).
    let wait = build(
        load,
        "ttg.async_wait",
        &[ir::result(commit, 0)],
        &[token_ty],
        &[("num", ir::integer_attr(i32t, plan.last - 1))],
        use_sched,
    );
    let read = ir::result(
        build(
            load,
            "ttg.memdesc_index",
            &[alloc, extract],
            &[view_ty],
            &[],
            use_sched,
        ),
        0,
    );
    let mut value = ir::result(
        build(
            load,
            "ttg.local_load",
            &[read, ir::result(wait, 0)],
            &[load_ty],
            &[],
            use_sched,
        ),
        0,
    );
    if let Some(other) = other.filter(|&o| !is_zero_constant(o)) {
        value = ir::result(
            build(
                load,
                "arith.select",
                &[mask, value, other],
                &[load_ty],
                &[],
                use_sched,
            ),
            0,
        );
    }
    ir::replace_all_uses(ir::result(load, 0), value);
    ir::erase(load);
    unsafe { mlir_sys::mlirOperationSetOperands(new_yield, 2, [insert, extract].as_ptr()) };
    let all = ir::create_op(
        "ttg.async_wait",
        unknown,
        &[],
        &[token_ty],
        &[("num", ir::integer_attr(i32t, 0))],
        Vec::new(),
    );
    ir::insert_after(new, all);
    let dealloc = ir::create_op("ttg.local_dealloc", unknown, &[alloc], &[], &[], Vec::new());
    ir::insert_after(all, dealloc);
    ir::erase(old);
    new
}

/// Triton's `isZeroConst`: an integer or float zero (splat) constant.
fn is_zero_constant(v: MlirValue) -> bool {
    let Some(def) = ir::defining_op(v).filter(|d| ir::is(*d, "arith.constant")) else {
        return false;
    };
    let Some(attr) = ir::attribute(def, "value") else {
        return false;
    };
    let text = scf::attribute_text(attr);
    let value = text.strip_prefix("dense<").unwrap_or(&text);
    let value = value.split([' ', '>', ':']).next().unwrap_or("");
    matches!(
        value,
        "0" | "0.000000e+00" | "-0.000000e+00" | "false" | "0x0000" | "0x00000000"
    )
}

/// Predicates a cloned async copy with `pred` (Triton's `predicateOp`).
fn predicate(copy: MlirOperation, pred: MlirValue) {
    let mask = ir::operand(copy, 2);
    let mask_ty = ir::value_type(mask);
    let splat = build(copy, "tt.splat", &[pred], &[mask_ty], &[], None);
    let and = build(
        copy,
        "arith.andi",
        &[ir::result(splat, 0), mask],
        &[mask_ty],
        &[],
        None,
    );
    ir::set_operand(copy, 2, ir::result(and, 0));
}

/// `base + step * k` (MLIR's expander, before folding), created before
/// `before`.
fn advanced(before: MlirOperation, base: MlirValue, step: MlirValue, k: i64) -> MlirValue {
    let ty = ir::value_type(step);
    let unknown = unsafe { mlir_sys::mlirLocationUnknownGet(ir::context(before)) };
    let c = ir::build_constant(before, unknown, ty, k);
    let mul = ir::build_binary(before, "arith.muli", unknown, step, c);
    ir::build_binary(before, "arith.addi", unknown, base, mul)
}

/// Step 2 (Triton's `expandLoops` through the pipeline expander, stages 0
/// and `last`, no epilogue): a prologue runs stage 0 of the first `last`
/// iterations; the loop then runs the last stage of iteration `i` and
/// stage 0 of iteration `i + last`. The stage-0 values that the last stage
/// reads are carried as a window of `last` loop arguments per value (one
/// per iteration in flight, the oldest first).
fn expand(lowered: MlirOperation, last: i64) {
    let ops = pl::body_ops(lowered);
    let mut order: Vec<(i64, usize, MlirOperation)> = ops
        .iter()
        .enumerate()
        .map(|(i, &op)| (cluster(op).unwrap_or(0), i, op))
        .collect();
    order.sort_by_key(|&(c, i, _)| (c, i));
    let order: Vec<MlirOperation> = order.into_iter().map(|(_, _, op)| op).collect();
    let st = |op: MlirOperation| stage(op).unwrap_or(last);
    let iv = scf::induction_var(lowered);
    let iter_args = scf::region_iter_args(lowered);
    let inits = scf::init_args(lowered);
    let yields = ir::operands(pl::terminator(lowered));
    let (lb, ub, step) = (
        scf::lower_bound(lowered),
        scf::upper_bound(lowered),
        scf::step(lowered),
    );
    // Values of stage 0 that the last stage reads, in schedule order.
    let mut cross: Vec<MlirValue> = Vec::new();
    for &op in order.iter().filter(|&&op| st(op) == last) {
        for v in operands_and_nested(op) {
            if let Some(d) = body_def(lowered, v) {
                if st(d) == 0 && !cross.iter().any(|c| c.ptr == v.ptr) {
                    cross.push(v);
                }
            }
        }
    }
    let defined_by = |v: MlirValue| body_def(lowered, v).map(st);
    // Prologue: stage 0 of iterations 0 to last - 1, each reading the
    // loop arguments the one before it yields.
    let mut carried: Vec<MlirValue> = inits.clone();
    let mut windows: Vec<Vec<MlirValue>> = Vec::new();
    for k in 0..last {
        let ivp = advanced(lowered, lb, step, k);
        let pred = ir::result(cmpi(lowered, SLT, ivp, ub), 0);
        let mut prologue: ValueMap = HashMap::new();
        prologue.insert(Val(iv), Val(ivp));
        for (a, c) in iter_args.iter().zip(&carried) {
            prologue.insert(Val(*a), Val(*c));
        }
        for &op in order.iter().filter(|&&op| st(op) == 0) {
            let clone = ir::clone_mapped(op, &mut prologue);
            ir::insert_before(lowered, clone);
            if ir::is(clone, "ttg.async_copy_global_to_local") {
                predicate(clone, pred);
            }
        }
        carried = yields
            .iter()
            .zip(&carried)
            .map(|(y, c)| match defined_by(*y) {
                Some(0) => ir::lookup_or_self(&prologue, *y),
                _ => *c,
            })
            .collect();
        windows.push(
            cross
                .iter()
                .map(|v| ir::lookup_or_self(&prologue, *v))
                .collect(),
        );
    }
    let mut new_inits: Vec<MlirValue> = carried;
    for window in &windows {
        new_inits.extend(window);
    }
    let kernel = new_for(lowered, &new_inits);
    let kbody = pl::body(kernel);
    let kargs = ir::block_args(kbody);
    let kyield = pl::terminator(kernel);
    let kiv = kargs[0];
    let n = iter_args.len();
    let c = cross.len();
    let bound = {
        let unknown = unsafe { mlir_sys::mlirLocationUnknownGet(ir::context(kernel)) };
        let k = ir::build_constant(kyield, unknown, ir::value_type(step), last);
        let mul = ir::build_binary(kyield, "arith.muli", unknown, step, k);
        ir::build_binary(kyield, "arith.subi", unknown, ub, mul)
    };
    let kpred = ir::result(cmpi(kyield, SLT, kiv, bound), 0);
    let mut map1: ValueMap = HashMap::new();
    let mut map0: ValueMap = HashMap::new();
    map1.insert(Val(iv), Val(kiv));
    for (k, a) in iter_args.iter().enumerate() {
        map1.insert(Val(*a), Val(kargs[1 + k]));
        map0.insert(Val(*a), Val(kargs[1 + k]));
    }
    // The last stage reads the oldest iteration's values.
    for (j, v) in cross.iter().enumerate() {
        map1.insert(Val(*v), Val(kargs[1 + n + j]));
    }
    for &op in &order {
        if st(op) == last {
            let clone = ir::clone_mapped(op, &mut map1);
            ir::insert_before(kyield, clone);
            for (r, c) in ir::results(op).into_iter().zip(ir::results(clone)) {
                map0.insert(Val(r), Val(c));
            }
        } else {
            let clone = ir::clone_mapped(op, &mut map0);
            ir::insert_before(kyield, clone);
            for (r, c) in ir::results(op).into_iter().zip(ir::results(clone)) {
                if !cross.iter().any(|v| v.ptr == r.ptr) {
                    map1.insert(Val(r), Val(c));
                }
            }
            // The induction variable, `last` steps ahead, per use.
            ir::walk_pre(clone, &mut |nested| {
                for index in 0..ir::operand_count(nested) {
                    if ir::operand(nested, index).ptr == iv.ptr {
                        let next = advanced(clone, kiv, step, last);
                        ir::set_operand(nested, index, next);
                    }
                }
            });
            if ir::is(clone, "ttg.async_copy_global_to_local") {
                predicate(clone, kpred);
            }
        }
    }
    let mut kernel_yields: Vec<MlirValue> = Vec::new();
    for y in &yields {
        kernel_yields.push(match defined_by(*y) {
            Some(0) => ir::lookup_or_self(&map0, *y),
            _ => ir::lookup_or_self(&map1, *y),
        });
    }
    // The window moves on by one iteration: the newest values last.
    kernel_yields.extend(&kargs[1 + n + c..1 + n + c * last as usize]);
    for v in &cross {
        kernel_yields.push(ir::lookup_or_self(&map0, *v));
    }
    unsafe {
        mlir_sys::mlirOperationSetOperands(
            kyield,
            kernel_yields.len() as isize,
            kernel_yields.as_ptr(),
        )
    };
    for (k, r) in ir::results(lowered).into_iter().enumerate() {
        ir::replace_all_uses(r, ir::result(kernel, k));
    }
    ir::erase(lowered);
}
