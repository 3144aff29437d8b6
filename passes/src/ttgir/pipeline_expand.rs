//! The modulo-schedule expander of `tritongpu-pipeline` (Triton's fork of
//! MLIR's loop pipeliner, run with dynamic bounds, no peeled epilogue and
//! `ttg.mask` as the predication hook), and the resolution of those masks.
//!
//! A scheduled loop of `S + 1` stages becomes:
//! * a prologue with stages `0..=i` of iterations `i = 0..S-1` (each op
//!   wrapped in a `ttg.mask` on `lb + k * step < ub`, `k` its iteration);
//! * a kernel loop whose body runs every op once in schedule order, the op
//!   of stage `s` working on iteration `iv + (S - s) * step`; ops of stages
//!   below `S` are masked on `iv < ub - (S - s) * step`. A value used `d`
//!   stages after the one that defines it is carried in `d` extra loop
//!   arguments (one per iteration in flight, the oldest first).
//!
//! The masks then go as Triton resolves them: the module is folded (with
//! the masks still standing between ops, which keeps some folds from
//! happening, as in Triton), then every masked op moves out of its mask and
//! is predicated ([`predicate`]): a copy or load gets the predicate in its
//! mask, an `scf.if` in its condition, ops without side effects none.

use std::collections::HashMap;

use melior::ir::operation::OperationRef;
use mlir_sys::{MlirOperation, MlirType, MlirValue};
use tt_dialect::rewrite::{apply_greedily, Greedy};

use crate::rust_pass::{fail, Failure};
use crate::ttgir::pipelining::{self as pl, CLUSTER, SCHEDULED_MAX_STAGE, STAGE};
use crate::ttir::loop_support::effects::is_memory_effect_free;
use crate::ttir::loop_support::ir::{self, Op, Val, ValueMap};
use crate::ttir::loop_support::scf;

/// The loop's ops in the order the expander emits them (by cluster, then
/// by position) with their stages, and the highest stage.
pub struct FinalSchedule {
    pub order: Vec<(MlirOperation, i64)>,
    pub max_stage: i64,
}

/// `CoarseSchedule::deSerialize` + `createFinalSchedule` from the loop's
/// `loop.stage` / `loop.cluster` attributes; `None` for an unscheduled
/// loop.
pub fn final_schedule(for_op: MlirOperation) -> Option<FinalSchedule> {
    pl::int_attribute(for_op, SCHEDULED_MAX_STAGE)?;
    let mut keyed: Vec<(i64, usize, MlirOperation, i64)> = Vec::new();
    for (index, op) in pl::body_ops(for_op).into_iter().enumerate() {
        let (Some(stage), Some(cluster)) =
            (pl::int_attribute(op, STAGE), pl::int_attribute(op, CLUSTER))
        else {
            continue;
        };
        keyed.push((cluster, index, op, stage));
    }
    keyed.sort_by_key(|&(cluster, index, _, _)| (cluster, index));
    // The expander's stage count is the highest stage of an op, whatever
    // the loop's attribute says.
    let max_stage = keyed.iter().map(|&(_, _, _, s)| s).max().unwrap_or(0);
    Some(FinalSchedule {
        order: keyed.into_iter().map(|(_, _, op, s)| (op, s)).collect(),
        max_stage,
    })
}

/// The located refusal of what the expander cannot do at `op`.
fn refuse(op: MlirOperation, what: &str) -> Result<(), Failure> {
    // SAFETY: a live op of the loop being checked.
    let op = unsafe { OperationRef::from_raw(op) };
    Err(fail(
        op,
        &format!("tritongpu-pipeline: {what} is not supported yet"),
    ))
}

/// Why the expander would give up on `for_op` (Triton's pipeliner then
/// leaves the loop, half lowered; this project refuses instead), but for
/// an op scheduled before its operands ([`op_before_operands`]).
pub fn check(
    for_op: MlirOperation,
    schedule: &FinalSchedule,
    before_lowering: bool,
) -> Result<(), Failure> {
    let staged: HashMap<Op, i64> = schedule.order.iter().map(|&(o, s)| (Op(o), s)).collect();
    for op in pl::body_ops(for_op) {
        if !staged.contains_key(&Op(op)) {
            return refuse(op, "pipelining an op without a stage");
        }
    }
    for y in ir::operands(pl::terminator(for_op)) {
        match ir::defining_op(y) {
            Some(def) if staged.contains_key(&Op(def)) || !ir::is_ancestor(for_op, def) => {}
            _ => {
                return refuse(
                    for_op,
                    "pipelining a loop that yields a value carried over more than one iteration",
                )
            }
        }
    }
    check_predicable(schedule, before_lowering)
}

/// `verifySchedule`: the first op of the lowered loop `for_op` that the
/// schedule runs before one of its operands' definitions (in the loop),
/// and that definition. Triton checks the lowered loop only: lowering
/// rewires what the unlowered one reads across iterations (tensor-memory
/// tokens, for one).
pub fn op_before_operands(
    for_op: MlirOperation,
    schedule: &FinalSchedule,
) -> Option<(MlirOperation, MlirOperation)> {
    let cycles = schedule.order.len() as i64;
    let unrolled: HashMap<Op, i64> = schedule
        .order
        .iter()
        .enumerate()
        .map(|(c, &(o, s))| (Op(o), c as i64 + s * cycles))
        .collect();
    for &(consumer, _) in &schedule.order {
        let at = unrolled[&Op(consumer)];
        let mut values = Vec::new();
        ir::walk_pre(consumer, &mut |n| values.extend(ir::operands(n)));
        for v in values {
            let Some((producer, distance)) = def_and_distance(for_op, v) else {
                continue;
            };
            if let Some(&p) = unrolled.get(&Op(producer)) {
                if at < p - cycles * distance {
                    return Some((consumer, producer));
                }
            }
        }
    }
    None
}

/// Every masked op must be one `predicate` knows.
fn check_predicable(schedule: &FinalSchedule, before_lowering: bool) -> Result<(), Failure> {
    for &(op, stage) in &schedule.order {
        if stage < schedule.max_stage {
            // Before the loads are lowered, a descriptor load may still
            // become a TMA copy; the check after lowering sees what stays.
            if before_lowering && ir::is(op, "tt.descriptor_load") {
                continue;
            }
            if let Some(what) = unpredicable(op) {
                return refuse(op, &format!("predicating '{what}' in an early stage"));
            }
        }
    }
    Ok(())
}

/// The name of `op` when [`predicate`] cannot predicate it.
fn unpredicable(op: MlirOperation) -> Option<String> {
    if is_memory_effect_free(op) {
        return None;
    }
    const KNOWN: &[&str] = &[
        "ttg.async_commit_group",
        "ttg.async_wait",
        "ttg.local_load",
        "ttg.local_store",
        "ttg.async_copy_global_to_local",
        "tt.load",
        "tt.store",
        "scf.if",
        "ttng.async_tma_copy_global_to_local",
        "ttng.barrier_expect",
        "ttng.wait_barrier",
        "ttng.async_tma_gather",
        "ttng.tc_gen5_mma",
        "ttng.tc_gen5_mma_scaled",
        "ttng.tmem_store",
        "ttng.tmem_alloc",
    ];
    (!KNOWN.iter().any(|k| ir::is(op, k))).then(|| ir::name(op))
}

/// Triton's `getDefiningOpAndDistance`: the op defining `v` and whether
/// it reaches `v` through the loop's back edge (distance 1). `None` for
/// values from outside the body, the induction variable and
/// non-op values.
fn def_and_distance(for_op: MlirOperation, v: MlirValue) -> Option<(MlirOperation, i64)> {
    let body = pl::body(for_op);
    let mut value = v;
    let mut distance = 0;
    if ir::is_block_argument(v) {
        if ir::value_block(v).ptr != body.ptr || ir::arg_number(v) == 0 {
            return None;
        }
        distance = 1;
        value = ir::operand(pl::terminator(for_op), ir::arg_number(v) - 1);
    }
    ir::defining_op(value).map(|d| (d, distance))
}

/// A value's stage versions (`valueMapping`): version `k` is the value of
/// the iteration `k` steps behind the newest one the code at hand runs.
type Versions = HashMap<Val, Vec<Option<MlirValue>>>;

fn set_version(versions: &mut Versions, width: usize, key: MlirValue, value: MlirValue, at: i64) {
    let slots = versions
        .entry(Val(key))
        .or_insert_with(|| vec![None; width]);
    slots[at as usize] = Some(value);
}

fn version(versions: &Versions, key: MlirValue, at: i64) -> Option<MlirValue> {
    versions
        .get(&Val(key))
        .and_then(|v| v.get(at as usize).copied().flatten())
}

/// Creates the op `name` before `before`, at its location.
fn build_before(
    before: MlirOperation,
    name: &str,
    operands: &[MlirValue],
    results: &[MlirType],
    attributes: &[(&str, mlir_sys::MlirAttribute)],
) -> MlirOperation {
    ir::build_op(
        before,
        name,
        operands,
        results,
        attributes,
        ir::location(before),
    )
}

fn constant_before(before: MlirOperation, ty: MlirType, value: i64) -> MlirValue {
    let loc = ir::location(before);
    ir::build_constant(before, loc, ty, value)
}

fn binary_before(before: MlirOperation, name: &str, lhs: MlirValue, rhs: MlirValue) -> MlirValue {
    let loc = ir::location(before);
    ir::build_binary(before, name, loc, lhs, rhs)
}

fn cmpi_before(before: MlirOperation, predicate: i64, lhs: MlirValue, rhs: MlirValue) -> MlirValue {
    ir::build_cmpi(before, ir::location(before), predicate, lhs, rhs)
}

fn select_before(before: MlirOperation, cond: MlirValue, a: MlirValue, b: MlirValue) -> MlirValue {
    ir::build_select(before, ir::location(before), cond, a, b)
}

/// Triton's `wrapInMaskOp`: moves `op` into a new `ttg.mask` on `pred`
/// right after it; the mask's results stand for the op's.
fn wrap_in_mask(op: MlirOperation, pred: MlirValue) -> MlirOperation {
    let types: Vec<MlirType> = ir::results(op).into_iter().map(ir::value_type).collect();
    let loc = ir::location(op);
    // SAFETY: a fresh region with one argument-less block, handed to the
    // new op, which takes ownership.
    let (region, block) = unsafe {
        let block = mlir_sys::mlirBlockCreate(0, std::ptr::null(), std::ptr::null());
        let region = mlir_sys::mlirRegionCreate();
        mlir_sys::mlirRegionAppendOwnedBlock(region, block);
        (region, block)
    };
    let mask = ir::create_op("ttg.mask", loc, &[pred], &types, &[], vec![region]);
    ir::insert_after(op, mask);
    let results = ir::results(op);
    let ret = ir::create_op("ttg.mask.return", loc, &results, &[], &[], Vec::new());
    // SAFETY: both ops are detached or live in this function; the block
    // belongs to the mask.
    unsafe {
        mlir_sys::mlirOperationRemoveFromParent(op);
        mlir_sys::mlirBlockAppendOwnedOperation(block, op);
        mlir_sys::mlirBlockAppendOwnedOperation(block, ret);
    }
    for (r, m) in results.into_iter().zip(ir::results(mask)) {
        // Uses outside the mask read its results; the return keeps the op's.
        for (user, index) in ir::uses(r) {
            if user.ptr != ret.ptr {
                ir::set_operand(user, index, m);
            }
        }
    }
    mask
}

/// `cloneAndUpdateOperands`: a clone of `op` before `before` whose
/// operands from outside it go through `update`.
fn clone_updated(
    op: MlirOperation,
    before: MlirOperation,
    update: &dyn Fn(MlirValue) -> Option<MlirValue>,
) -> MlirOperation {
    // SAFETY: `op` is live; the clone is detached until inserted.
    let clone = unsafe { mlir_sys::mlirOperationClone(op) };
    ir::insert_before(before, clone);
    ir::walk_pre(clone, &mut |nested| {
        for index in 0..ir::operand_count(nested) {
            let v = ir::operand(nested, index);
            let outside = match ir::defining_op(v) {
                Some(def) => !ir::is_ancestor(clone, def),
                None => true,
            };
            if outside {
                if let Some(new) = update(v) {
                    ir::set_operand(nested, index, new);
                }
            }
        }
    });
    clone
}

/// What the last stage that reads a value and the stage that defines it
/// are.
#[derive(Clone, Copy)]
struct Liverange {
    def_stage: i64,
    last_use_stage: i64,
}

/// Expands `for_op` (which [`check`] accepted) in place; returns the
/// kernel loop.
pub fn expand(for_op: MlirOperation, schedule: &FinalSchedule) -> MlirOperation {
    let max = schedule.max_stage;
    let width = max as usize + 1;
    let stages: HashMap<Op, i64> = schedule.order.iter().map(|&(o, s)| (Op(o), s)).collect();
    let stage_of = |op: MlirOperation| stages.get(&Op(op)).copied();
    let (lb, ub, step) = (
        scf::lower_bound(for_op),
        scf::upper_bound(for_op),
        scf::step(for_op),
    );
    let iv = scf::induction_var(for_op);
    let iter_args = scf::region_iter_args(for_op);
    let inits = scf::init_args(for_op);
    let yield_op = pl::terminator(for_op);
    let yields = ir::operands(yield_op);
    let used_outside: Vec<bool> = ir::results(for_op).into_iter().map(ir::has_uses).collect();
    let mut versions: Versions = HashMap::new();

    // The prologue.
    for (arg, init) in iter_args.iter().zip(&inits) {
        set_version(&mut versions, width, *arg, *init, 0);
    }
    // Every loop is treated as one of dynamic bounds (as Triton does): the
    // prologue is predicated even where the bounds are constants.
    let mut predicates: Vec<MlirValue> = Vec::new();
    for i in 0..max {
        // The iteration's induction variable, `lb + i * step`, which its
        // predicate compares with the upper bound.
        let c = constant_before(for_op, ir::value_type(lb), i);
        let m = binary_before(for_op, "arith.muli", step, c);
        let iv_i = binary_before(for_op, "arith.addi", lb, m);
        set_version(&mut versions, width, iv, iv_i, i);
        predicates.push(cmpi_before(for_op, ir::cmpi::SLT, iv_i, ub));
        for &(op, stage) in &schedule.order {
            if stage > i {
                continue;
            }
            let k = i - stage;
            let clone = clone_updated(op, for_op, &|v| {
                versions.get(&Val(v)).map(|slots| {
                    slots[k as usize].expect("the pipeline expander has every earlier version")
                })
            });
            let pred = predicates[k as usize];
            let new = wrap_in_mask(clone, pred);
            for (d, r) in ir::results(op).into_iter().enumerate() {
                let mut source = ir::result(new, d);
                for (n, y) in yields.iter().enumerate() {
                    if y.ptr != r.ptr {
                        continue;
                    }
                    if used_outside[n] {
                        let prev = version(&versions, iter_args[n], k)
                            .expect("the pipeline expander has the previous iteration's value");
                        source = select_before(for_op, pred, source, prev);
                    }
                    set_version(&mut versions, width, iter_args[n], source, k + 1);
                }
                set_version(&mut versions, width, r, ir::result(new, d), k);
            }
        }
    }

    // Values read in a later stage than the one defining them.
    let mut cross: Vec<(Val, Liverange)> = Vec::new();
    for &(op, stage) in &schedule.order {
        let mut operands = ir::operands(op);
        if ir::region_count(op) > 0 {
            operands.extend(pl::nested_operands(op));
        }
        for v in operands {
            let Some((def, distance)) = def_and_distance(for_op, v) else {
                continue;
            };
            let Some(def_stage) = stage_of(def) else {
                continue;
            };
            if def_stage == stage || def_stage == stage + distance {
                continue;
            }
            match cross.iter_mut().find(|(k, _)| k.0.ptr == v.ptr) {
                Some((_, info)) => {
                    info.def_stage = def_stage;
                    info.last_use_stage = info.last_use_stage.max(stage);
                }
                None => cross.push((
                    Val(v),
                    Liverange {
                        def_stage,
                        last_use_stage: stage,
                    },
                )),
            }
        }
    }

    // The kernel loop's arguments.
    let mut args: Vec<MlirValue> = Vec::new();
    for (n, y) in yields.iter().enumerate() {
        let def = ir::defining_op(*y).expect("checked: yields are op results");
        match stage_of(def) {
            Some(s) => args.push(
                version(&versions, iter_args[n], max - s)
                    .expect("the prologue defines every carried value"),
            ),
            None => args.push(inits[n]),
        }
    }
    let mut arg_of: HashMap<(Val, i64), usize> = HashMap::new();
    for (v, info) in &cross {
        let span = info.last_use_stage - info.def_stage;
        for k in 0..span {
            args.push(
                version(&versions, v.0, max - info.last_use_stage + k)
                    .expect("the prologue defines every version a later stage reads"),
            );
            arg_of.insert((*v, span - k), args.len() - 1);
        }
    }
    let kernel = pl::new_for_like(for_op, &args);
    let kbody = pl::body(kernel);
    let kargs = ir::block_args(kbody);
    let kyield = pl::terminator(kernel);
    let kiv = kargs[0];

    // The kernel's body.
    let mut map: ValueMap = HashMap::new();
    map.insert(Val(iv), Val(kiv));
    for (n, a) in iter_args.iter().enumerate() {
        map.insert(Val(*a), Val(kargs[1 + n]));
    }
    // A loop whose tcgen05 MMA is waited on in the last stage gets its last
    // iteration peeled (below): in the kernel, the stage before the last
    // always runs.
    let peel = peels_last_iteration(for_op, schedule);
    let mut kpreds: Vec<MlirValue> = Vec::new();
    for i in 0..max {
        if peel && i == max - 1 {
            kpreds.push(constant_before(kyield, ir::i1_type(ir::context(for_op)), 1));
            continue;
        }
        let c = constant_before(kyield, ir::value_type(ub), max - i);
        let m = binary_before(kyield, "arith.muli", step, c);
        let bound = binary_before(kyield, "arith.subi", ub, m);
        kpreds.push(cmpi_before(kyield, ir::cmpi::SLT, kiv, bound));
    }
    let body = pl::body(for_op);
    for &(op, use_stage) in &schedule.order {
        let new = ir::clone_mapped(op, &mut map);
        ir::insert_before(kyield, new);
        let mut originals = Vec::new();
        ir::walk_pre(op, &mut |n| originals.push(n));
        let mut clones = Vec::new();
        ir::walk_pre(new, &mut |n| clones.push(n));
        for (orig, copy) in originals.into_iter().zip(clones) {
            for index in 0..ir::operand_count(orig) {
                let operand = ir::operand(orig, index);
                if operand.ptr == iv.ptr {
                    // At the loop's location, as Triton's kernel builds it.
                    let loc = ir::location(for_op);
                    let ty = ir::value_type(step);
                    let c = ir::build_constant(new, loc, ty, max - use_stage);
                    let offset = ir::build_binary(new, "arith.muli", loc, step, c);
                    let shifted = ir::build_binary(new, "arith.addi", loc, kiv, offset);
                    ir::set_operand(copy, index, shifted);
                    continue;
                }
                let mut source = operand;
                if ir::is_block_argument(operand) && ir::value_block(operand).ptr == body.ptr {
                    let ret = yields[ir::arg_number(operand) - 1];
                    let Some(dep) = ir::defining_op(ret) else {
                        continue;
                    };
                    match stage_of(dep) {
                        None => continue,
                        Some(s) if s == use_stage => continue,
                        Some(s) if s == use_stage + 1 => {
                            ir::set_operand(copy, index, ir::lookup_or_self(&map, ret));
                            continue;
                        }
                        Some(_) => source = ret,
                    }
                }
                let Some(def) = ir::defining_op(source) else {
                    continue;
                };
                let Some(def_stage) = stage_of(def) else {
                    continue;
                };
                if def_stage == use_stage {
                    continue;
                }
                let slot = arg_of
                    .get(&(Val(operand), use_stage - def_stage))
                    .expect("every cross-stage value has a loop argument");
                ir::set_operand(copy, index, kargs[1 + slot]);
            }
        }
        if use_stage < max {
            let mask = wrap_in_mask(new, kpreds[use_stage as usize]);
            for (r, m) in ir::results(op).into_iter().zip(ir::results(mask)) {
                map.insert(Val(r), Val(m));
            }
        }
    }
    let mut kyields: Vec<MlirValue> = Vec::new();
    for (n, y) in yields.iter().enumerate() {
        let mut source = ir::lookup_or_self(&map, *y);
        if used_outside[n] {
            if let Some(s) = def_and_distance(for_op, *y).and_then(|(d, _)| stage_of(d)) {
                if s < max {
                    source = select_before(kyield, kpreds[s as usize], source, kargs[1 + n]);
                }
            }
        }
        kyields.push(source);
    }
    for (v, info) in &cross {
        let span = info.last_use_stage - info.def_stage;
        for _ in 1..span {
            let next = kargs[kyields.len() + 2];
            kyields.push(next);
        }
        kyields.push(ir::lookup_or_self(&map, v.0));
    }
    // SAFETY: the yield is live; the values are live in the kernel.
    unsafe { mlir_sys::mlirOperationSetOperands(kyield, kyields.len() as isize, kyields.as_ptr()) };
    for (n, r) in ir::results(for_op).into_iter().enumerate() {
        ir::replace_all_uses(r, ir::result(kernel, n));
    }
    ir::erase(for_op);
    if peel {
        peel_last_iteration(kernel);
    }
    kernel
}

/// Triton's `hasMMAv5WaitsInLastStage` (outside `ttg.warp_specialize`):
/// the loop has a tcgen05 MMA and a `ttng.wait_barrier` in its last stage.
fn peels_last_iteration(for_op: MlirOperation, schedule: &FinalSchedule) -> bool {
    let last = pl::int_attribute(for_op, SCHEDULED_MAX_STAGE).unwrap_or(schedule.max_stage);
    let body = pl::body_ops(for_op);
    let waited_last = schedule
        .order
        .iter()
        .any(|&(op, stage)| stage == last && ir::is(op, "ttng.wait_barrier"));
    let in_partition = {
        let mut at = ir::parent_op(for_op);
        let mut inside = false;
        while let Some(p) = at {
            inside |= ir::is(p, "ttg.warp_specialize");
            at = ir::parent_op(p);
        }
        inside
    };
    waited_last && !in_partition && body.iter().any(|&op| pl::is_mmav5(op))
}

/// Triton's custom epilogue peeling: the kernel stops one step earlier and
/// an `scf.if` runs its last iteration, in which every stage but the last
/// is off: the ops masked by an earlier stage's predicate go (their
/// results poison), the rest run.
fn peel_last_iteration(kernel: MlirOperation) {
    let epilogue = scf::peel_epilogue(kernel);
    let then_block = ir::blocks(ir::regions(epilogue)[0])[0];
    for mask in ir::block_ops(then_block) {
        if !ir::is(mask, "ttg.mask") {
            continue;
        }
        for result in ir::results(mask) {
            let poison = build_before(mask, "ub.poison", &[], &[ir::value_type(result)], &[]);
            ir::replace_all_uses(result, ir::result(poison, 0));
        }
        ir::erase(mask);
    }
}

/// Folds `module` (Triton's arith canonicalization, whose patterns add
/// nothing to the folder here), then moves every masked op out of its
/// `ttg.mask` and predicates it.
pub fn resolve_masks(module: OperationRef) {
    apply_greedily(
        module,
        &[],
        Greedy {
            fold: true,
            top_down: false,
        },
    );
    let masks = ir::collect_post(module.to_raw(), &|op| ir::is(op, "ttg.mask"));
    for mask in masks {
        let pred = ir::operand(mask, 0);
        let block = ir::blocks(ir::regions(mask)[0])[0];
        let ret = ir::terminator(block).expect("a mask ends in its return");
        for op in ir::block_ops(block) {
            if op.ptr == ret.ptr {
                continue;
            }
            ir::move_before(op, mask);
            predicate(op, pred);
        }
        for (r, v) in ir::results(mask).into_iter().zip(ir::operands(ret)) {
            ir::replace_all_uses(r, v);
        }
        ir::erase(mask);
    }
}

/// Triton's `predicateOp`: makes `op` do nothing where `pred` is false.
/// [`check`] admits only the ops handled here. The masks it makes take
/// `pred`'s location, as Triton's `getPredMask` gives them.
pub fn predicate(op: MlirOperation, pred: MlirValue) {
    if is_memory_effect_free(op) {
        return;
    }
    // A tensor-memory allocation stays: its users are predicated.
    if ir::is(op, "ttng.tmem_alloc") {
        return;
    }
    // A tcgen05 MMA's predicate is one of its operand groups, the one
    // after `useD`.
    if ir::is(op, "ttng.tc_gen5_mma") || ir::is(op, "ttng.tc_gen5_mma_scaled") {
        let segment = pl::mma_v5_use_d_segment(op) + 1;
        if let Some(current) = pl::optional_operand(op, segment) {
            pl::set_optional_operand(op, segment, and_before(op, pred, current, pred));
        }
        return;
    }
    // TMA copies and gathers, tensor-memory stores and barrier
    // expectations carry an `i1` predicate (last operand, or after the
    // barrier); a barrier wait an optional one.
    let scalar_pred = if ir::is(op, "ttng.async_tma_copy_global_to_local")
        || ir::is(op, "ttng.async_tma_gather")
        || ir::is(op, "ttng.tmem_store")
    {
        Some((ir::operand_count(op) - 1, true))
    } else if ir::is(op, "ttng.barrier_expect") {
        Some((1, true))
    } else if ir::is(op, "ttng.wait_barrier") {
        Some((2, false))
    } else {
        None
    };
    if let Some((index, required)) = scalar_pred {
        let current = if required {
            Some(ir::operand(op, index))
        } else {
            pl::optional_operand(op, index)
        };
        let mask = match current {
            Some(current) => and_before(op, pred, current, pred),
            None => pred,
        };
        if required {
            ir::set_operand(op, index, mask);
        } else {
            pl::set_optional_operand(op, index, mask);
        }
        return;
    }
    // The mask's operand group: after `src` and `result`, after `ptr`,
    // after `ptr` and `value`.
    let mask_index = if ir::is(op, "ttg.async_copy_global_to_local") || ir::is(op, "tt.store") {
        2
    } else if ir::is(op, "tt.load") {
        1
    } else if ir::is(op, "scf.if") {
        let cond = ir::operand(op, 0);
        ir::set_operand(op, 0, and_before(op, pred, cond, pred));
        return;
    } else {
        return;
    };
    let segment = pl::optional_operand(op, mask_index);
    let shaped = ir::value_type(ir::operand(op, 0));
    // The mask has the pointers' shape (`getI1SameShape`).
    let mask_ty = ir::i1_same_shape(shaped);
    let mut mask = pred;
    if pl::is_ranked_tensor(mask_ty) {
        let loc = ir::value_location(pred);
        let splat = ir::build_op(op, "tt.splat", &[pred], &[mask_ty], &[], loc);
        mask = ir::result(splat, 0);
    }
    if let Some(current) = segment {
        mask = and_before(op, mask, current, pred);
    }
    pl::set_optional_operand(op, mask_index, mask);
}

/// `lhs & rhs` (of one type), built just before `op` at `pred`'s location.
fn and_before(op: MlirOperation, lhs: MlirValue, rhs: MlirValue, pred: MlirValue) -> MlirValue {
    let loc = ir::value_location(pred);
    let and = ir::build_op(
        op,
        "arith.andi",
        &[lhs, rhs],
        &[ir::value_type(lhs)],
        &[],
        loc,
    );
    ir::result(and, 0)
}
