//! The MMA half of the pipeliner's first step (Triton's `lowerMMAs`): in a
//! scheduled loop, every Blackwell MMA (`ttng.tc_gen5_mma`,
//! `ttng.tc_gen5_mma_scaled`) with a `tt.self_latency` becomes
//! asynchronous:
//!
//! * it arrives on a ring of mbarriers (one per stage from the MMA to its
//!   wait), indexed and phased by counters the loop carries;
//! * a `ttng.wait_barrier` on it, reading its operand buffers, goes after
//!   it: `tt.self_latency` stages later, or just before the first op that
//!   reads its accumulator (or rewrites an operand that cannot be
//!   pipelined) after it, in a cluster of its own; reads of the
//!   accumulator under conditionals in an earlier stage wait first;
//! * operand buffers allocated in the loop from registers are hoisted out
//!   of it and written in place (`ttg.local_store`, `ttng.tmem_store`);
//! * an accumulator used across more than one stage is multi-buffered: the
//!   `ttng.tmem_alloc` gets a leading buffer dimension, and every store to
//!   it, and every MMA that does not accumulate, moves to the next buffer
//!   (an index the loop carries); the accumulator's tokens are dropped.
//!
//! The schedule lives in the ops' `loop.stage` / `loop.cluster`
//! attributes, the clusters numbered in order from 0; a new cluster shifts
//! the later ones.

use mlir_sys::{MlirBlock, MlirOperation, MlirValue};

use crate::rust_pass::Failure;
use crate::ttgir::pipeline_lower::{
    barrier_alloc, buffer_view, cluster, increment_modulo, next_op, refuse, replace_and_propagate,
    schedule_of, set_schedule, stage,
};
use crate::ttgir::pipelining::{self as pl, CLUSTER, SCHEDULED_MAX_STAGE};
use crate::ttir::loop_support::ir;
use crate::ttir::loop_support::scf;

/// The MMA's scheduling latency, written by `tritongpu-assign-latencies`.
const SELF_LATENCY: &str = "tt.self_latency";

/// The operands of an MMAv5 op, by name, read through its segment sizes.
struct MmaOperands {
    a: MlirValue,
    b: MlirValue,
    d: MlirValue,
    acc_dep: Option<MlirValue>,
    scales: Option<(MlirValue, MlirValue)>,
    use_d: MlirValue,
    pred: MlirValue,
    barriers: Vec<MlirValue>,
    barrier_preds: Vec<MlirValue>,
}

impl MmaOperands {
    fn read(mma: MlirOperation) -> Option<Self> {
        let segments = ir::attribute(mma, "operandSegmentSizes").and_then(ir::dense_i32_array)?;
        let scaled = ir::is(mma, "ttng.tc_gen5_mma_scaled");
        let operands = ir::operands(mma);
        let mut groups = Vec::new();
        let mut at = 0usize;
        for n in segments {
            let n = usize::try_from(n).ok()?;
            groups.push(operands.get(at..at + n)?.to_vec());
            at += n;
        }
        let one = |g: &Vec<MlirValue>| g.first().copied();
        let (scales, rest) = if scaled {
            (Some((one(groups.get(4)?)?, one(groups.get(5)?)?)), 6)
        } else {
            (None, 4)
        };
        Some(MmaOperands {
            a: one(groups.first()?)?,
            b: one(groups.get(1)?)?,
            d: one(groups.get(2)?)?,
            acc_dep: one(groups.get(3)?),
            scales,
            use_d: one(groups.get(rest)?)?,
            pred: one(groups.get(rest + 1)?)?,
            barriers: groups.get(rest + 2)?.clone(),
            barrier_preds: groups.get(rest + 3)?.clone(),
        })
    }

    /// Writes the operands back into `mma`, with their segment sizes.
    fn write(&self, mma: MlirOperation) {
        let mut operands = vec![self.a, self.b, self.d];
        operands.extend(self.acc_dep);
        let mut segments = vec![1, 1, 1, i32::from(self.acc_dep.is_some())];
        if let Some((sa, sb)) = self.scales {
            operands.extend([sa, sb]);
            segments.extend([1, 1]);
        }
        operands.extend([self.use_d, self.pred]);
        operands.extend(&self.barriers);
        operands.extend(&self.barrier_preds);
        segments.extend([
            1,
            1,
            self.barriers.len() as i32,
            self.barrier_preds.len() as i32,
        ]);
        // SAFETY: `mma` is live and the values are live in its scope.
        unsafe {
            mlir_sys::mlirOperationSetOperands(mma, operands.len() as isize, operands.as_ptr())
        };
        ir::set_attribute(
            mma,
            "operandSegmentSizes",
            ir::dense_i32_array_attr(ir::context(mma), &segments),
        );
    }
}

/// Triton's `lowerMMAs`: lowers every MMAv5 op of `for_op` with a
/// `tt.self_latency`; returns the loop that replaces `for_op`.
pub fn lower_mmas(for_op: MlirOperation) -> Result<MlirOperation, Failure> {
    let mmas = ir::collect_post(for_op, &|op| pl::is_mmav5(op));
    let mut for_op = for_op;
    for mma in mmas {
        for_op = lower_mma(mma, for_op)?;
    }
    Ok(for_op)
}

/// Whether `op` lies inside `for_op` (at any depth).
fn in_loop(for_op: MlirOperation, op: MlirOperation) -> bool {
    op.ptr != for_op.ptr && ir::is_ancestor(for_op, op)
}

/// The position of `op` in its block.
fn position(op: MlirOperation) -> usize {
    ir::block_ops(ir::op_block(op))
        .iter()
        .position(|o| o.ptr == op.ptr)
        .unwrap_or(0)
}

/// Triton's `CoarseSchedule::isOpBefore` for two body ops.
fn is_op_before(a: MlirOperation, b: MlirOperation) -> bool {
    let (sa, ca) = schedule_of(a);
    let (sb, cb) = schedule_of(b);
    if sa != sb {
        return sa < sb;
    }
    if ca != cb {
        return ca < cb;
    }
    position(a) < position(b)
}

fn lower_mma(mma: MlirOperation, for_op: MlirOperation) -> Result<MlirOperation, Failure> {
    let Some(latency) = pl::int_attribute(mma, SELF_LATENCY) else {
        return Ok(for_op);
    };
    ir::remove_attribute(mma, SELF_LATENCY);
    if latency == 0 {
        return Ok(for_op);
    }
    if ir::op_block(mma).ptr != pl::body(for_op).ptr {
        return Err(refuse(mma, "pipelining an MMA nested in the loop body"));
    }
    let ops = MmaOperands::read(mma).ok_or_else(|| refuse(mma, "this MMA's operands"))?;
    let alloc = ops.d;
    // `getTmemUseStageBoundOps`: the first and last top-level readers or
    // writers of the accumulator in the loop.
    let body = pl::body(for_op);
    let mut first: Option<MlirOperation> = None;
    let mut last: Option<MlirOperation> = None;
    for (user, _) in ir::uses(alloc) {
        if !in_loop(for_op, user) {
            continue;
        }
        let Some(top) = pl::ancestor_in_block(body, user) else {
            continue;
        };
        let f = *first.get_or_insert(top);
        let l = *last.get_or_insert(top);
        if is_op_before(top, f) {
            first = Some(top);
        }
        if is_op_before(l, top) {
            last = Some(top);
        }
    }
    let (Some(first), Some(last)) = (first, last) else {
        return Err(refuse(
            mma,
            "an MMA whose accumulator the loop does not use",
        ));
    };
    let mut buffers = stage(last).unwrap_or(0) - stage(first).unwrap_or(0);
    let (cf, cl) = (cluster(first).unwrap_or(0), cluster(last).unwrap_or(0));
    if cf < cl || (cf == cl && position(first) < position(last)) {
        buffers += 1;
    }
    let tmem_alloc = ir::defining_op(alloc).filter(|d| ir::is(*d, "ttng.tmem_alloc"));
    if buffers > 1 && tmem_alloc.is_none() {
        return Ok(for_op);
    }
    let ctx = ir::context(for_op);
    let i32t = ir::i32_type(ctx);
    let loc = ir::location(for_op);
    let minus_one = ir::build_constant(for_op, loc, i32t, -1);
    let zero = ir::build_constant(for_op, loc, i32t, 0);
    let mut extra = vec![zero, zero];
    if buffers > 1 {
        extra.push(minus_one);
    }
    let first_new = scf::init_args(for_op).len();
    let for_op = scf::add_iter_args(for_op, &extra);
    let body = pl::body(for_op);
    let args = ir::block_args(body);
    // Block argument 0 is the induction variable.
    let phase_arg = args[1 + first_new];
    let index_arg = args[2 + first_new];
    let buffer_arg = (buffers > 1).then(|| args[3 + first_new]);
    let yield_op = pl::terminator(for_op);
    let mut yields = ir::operands(yield_op);
    yields.extend([phase_arg, index_arg]);
    yields.extend(buffer_arg);
    // SAFETY: the yield is live; the values are its loop's arguments.
    unsafe { mlir_sys::mlirOperationSetOperands(yield_op, yields.len() as isize, yields.as_ptr()) };
    barrier_and_wait(for_op, mma, latency, alloc, phase_arg, index_arg)?;
    if let (Some(buffer_arg), Some(tmem_alloc)) = (buffer_arg, tmem_alloc) {
        multibuffer_accumulator(for_op, tmem_alloc, buffer_arg, first_new + 2, buffers)?;
    }
    Ok(for_op)
}

/// Triton's `canBeAsyncLoad` for a `tt.load`: its copy into its shared
/// encoding moves at least 4 bytes at a time.
fn can_copy_async(load: MlirOperation) -> bool {
    crate::ttgir::pipeline_lower::shared_encoding(load)
        .and_then(|shared| pl::copy_vec_bytes(ir::result(load, 0), shared))
        .is_some_and(|bytes| bytes >= 4)
}

/// [`pl::mma_operand_state`] of `mma`'s operands, loads counting as
/// pipelined when scheduled in an earlier stage than the MMA; unknown
/// unless the accumulator is a `tmem_alloc` outside the loop and scales
/// come through shared memory (or from outside the loop).
fn operand_state(
    for_op: MlirOperation,
    mma: MlirOperation,
    ops: &MmaOperands,
) -> pl::MmaOperandState {
    match ir::defining_op(ops.d).filter(|d| ir::is(*d, "ttng.tmem_alloc")) {
        Some(alloc) if !in_loop(for_op, alloc) => {}
        _ => {
            return pl::MmaOperandState {
                determined: true,
                pipelineable: false,
                unpipelineable: Vec::new(),
            }
        }
    }
    let ready = |load: MlirOperation, _alloc: MlirOperation, tma: bool| {
        stage(mma).unwrap_or(0) > stage(load).unwrap_or(0) && (tma || can_copy_async(load))
    };
    let mut values = vec![ops.a, ops.b];
    if let Some((sa, sb)) = ops.scales {
        let shared_or_outside = |v: MlirValue| {
            ir::defined_outside(for_op, v)
                || pl::encoding_of(ir::value_type(v)).is_some_and(is_shared_encoding)
        };
        if !shared_or_outside(sa) || !shared_or_outside(sb) {
            let mut state = pl::mma_operand_state(for_op, &values, &ready);
            state.determined = false;
            state.pipelineable = false;
            return state;
        }
        values.extend([sa, sb]);
    }
    pl::mma_operand_state(for_op, &values, &ready)
}

/// Whether `encoding` is a shared-memory encoding (`SharedEncodingTrait`).
fn is_shared_encoding(encoding: mlir_sys::MlirAttribute) -> bool {
    let text = scf::attribute_text(encoding);
    [
        "#ttg.swizzled_shared",
        "#ttg.nvmma_shared",
        "#ttg.shared_linear",
        "#ttg.padded_shared",
        "#ttg.amd_rotating_shared",
    ]
    .iter()
    .any(|p| text.starts_with(p))
}

/// Triton's `hoistBufferOutOfLoop`: a `ttg.local_alloc` or
/// `ttng.tmem_alloc` of the loop from a value becomes a mutable buffer
/// allocated before the loop and written where the alloc was; returns the
/// write.
fn hoist_buffer(for_op: MlirOperation, op: MlirOperation) -> Option<MlirOperation> {
    let tmem = ir::is(op, "ttng.tmem_alloc");
    if !(tmem || ir::is(op, "ttg.local_alloc")) || !in_loop(for_op, op) {
        return None;
    }
    if ir::operand_count(op) == 0 {
        return None;
    }
    let at = schedule_of(op);
    let in_body = ir::op_block(op).ptr == pl::body(for_op).ptr;
    let tag = |new: MlirOperation| {
        if in_body {
            set_schedule(new, at);
        }
    };
    // SAFETY: `op` is live; the clone is inserted before the loop.
    let alloc = unsafe { mlir_sys::mlirOperationClone(op) };
    ir::insert_before(for_op, alloc);
    // SAFETY: the clone is live; its source operand is dropped.
    unsafe { mlir_sys::mlirOperationSetOperands(alloc, 0, std::ptr::null()) };
    let result = ir::result(alloc, 0);
    // SAFETY: the type of a live value.
    let ty = unsafe { melior::ir::Type::from_raw(ir::value_type(result)) };
    if let Some(desc) = ttg_dialect::layout::MemDesc::of(ty).filter(|d| !d.mutable) {
        let mutable = ttg_dialect::layout::MemDesc {
            mutable: true,
            ..desc
        }
        .to_type();
        // SAFETY: the clone's result is live and has no uses yet.
        unsafe { mlir_sys::mlirValueSetType(result, melior::ir::TypeLike::to_raw(&mutable)) };
    }
    let src = ir::operand(op, 0);
    let loc = ir::location(op);
    let after = next_op(op).expect("an op before the terminator");
    let store = if tmem {
        let yes = ir::build_constant(after, loc, ir::i1_type(ir::context(op)), 1);
        tag(ir::defining_op(yes).expect("a constant op"));
        ir::build_op(after, "ttng.tmem_store", &[result, src, yes], &[], &[], loc)
    } else {
        ir::build_op(after, "ttg.local_store", &[src, result], &[], &[], loc)
    };
    tag(store);
    replace_and_propagate(ir::result(op, 0), result, at);
    ir::erase(op);
    Some(store)
}

/// Triton's `LinearizedIterator::findNext` from `start`: the first body op
/// after it in the order the expanded loop runs them (cluster by cluster,
/// an op of stage `s` from the `s`-th pass over the clusters on) that
/// satisfies `pred`.
fn find_next_linearized(
    for_op: MlirOperation,
    start: MlirOperation,
    pred: &dyn Fn(MlirOperation) -> bool,
) -> Option<MlirOperation> {
    let ops: Vec<MlirOperation> = pl::body_ops(for_op)
        .into_iter()
        .filter(|&op| stage(op).is_some() && cluster(op).is_some())
        .collect();
    let clusters = ops.iter().filter_map(|&op| cluster(op)).max().unwrap_or(0) + 1;
    let max_stages = pl::int_attribute(for_op, SCHEDULED_MAX_STAGE)
        .unwrap_or(0)
        .max(ops.iter().filter_map(|&op| stage(op)).max().unwrap_or(0))
        + 1;
    let (mut limit, mut c) = schedule_of(start);
    let mut index = ops.iter().position(|o| o.ptr == start.ptr)? + 1;
    loop {
        while index < ops.len() {
            let op = ops[index];
            let (s, oc) = schedule_of(op);
            if oc == c {
                if op.ptr == start.ptr && limit >= max_stages {
                    return None;
                }
                if s <= limit && pred(op) {
                    return Some(op);
                }
            }
            index += 1;
        }
        index = 0;
        c += 1;
        if c >= clusters {
            c = 0;
            limit += 1;
        }
    }
}

/// Shifts every body op of cluster `from` or later one cluster on.
fn shift_clusters(for_op: MlirOperation, from: i64) {
    for op in pl::body_ops(for_op) {
        if stage(op).is_none() {
            continue;
        }
        if let Some(c) = cluster(op).filter(|&c| c >= from) {
            pl::set_i32(op, CLUSTER, c + 1);
        }
    }
}

/// Triton's `clusters.newBefore(splitClusterBefore(op))`: the body ops of
/// `op`'s cluster before it move to a new cluster before it, and a new
/// empty cluster goes between them and `op`; returns the empty one.
fn new_cluster_before(for_op: MlirOperation, op: MlirOperation) -> i64 {
    let c = cluster(op).unwrap_or(0);
    let earlier: Vec<MlirOperation> = pl::body_ops(for_op)
        .into_iter()
        .take_while(|o| o.ptr != op.ptr)
        .filter(|&o| stage(o).is_some() && cluster(o) == Some(c))
        .collect();
    if !earlier.is_empty() {
        shift_clusters(for_op, c);
        for o in earlier {
            pl::set_i32(o, CLUSTER, c);
        }
    }
    let c = cluster(op).unwrap_or(0);
    shift_clusters(for_op, c);
    c
}

/// `ttng.wait_barrier %barrier, %phase deps %deps` before `before`.
fn build_wait(
    before: MlirOperation,
    barrier: MlirValue,
    phase: MlirValue,
    deps: &[MlirValue],
) -> MlirOperation {
    let ctx = ir::context(before);
    let mut operands = vec![barrier, phase];
    operands.extend(deps);
    ir::build_op(
        before,
        "ttng.wait_barrier",
        &operands,
        &[],
        &[(
            "operandSegmentSizes",
            ir::dense_i32_array_attr(ctx, &[1, 1, 0, deps.len() as i32]),
        )],
        ir::location(before),
    )
}

/// Triton's `createBarrierAndWaitOps`.
fn barrier_and_wait(
    for_op: MlirOperation,
    mma: MlirOperation,
    latency: i64,
    alloc: MlirValue,
    phase: MlirValue,
    index_arg: MlirValue,
) -> Result<(), Failure> {
    let body = pl::body(for_op);
    let mut candidates: Vec<MlirOperation> = ir::uses(alloc)
        .into_iter()
        .map(|(u, _)| u)
        .filter(|&u| ir::is(u, "ttng.tmem_load") && ir::op_block(u).ptr == body.ptr)
        .collect();
    let ops = MmaOperands::read(mma).ok_or_else(|| refuse(mma, "this MMA's operands"))?;
    let state = operand_state(for_op, mma, &ops);
    for &def in &state.unpipelineable {
        let store = hoist_buffer(for_op, def);
        if !state.pipelineable && state.determined {
            candidates.push(store.unwrap_or(def));
        }
    }
    let latest = find_next_linearized(for_op, mma, &|op| {
        candidates.iter().any(|c| c.ptr == op.ptr)
    });
    let (mma_stage, mma_cluster) = schedule_of(mma);
    let mut wait_at = (mma_stage + latency, mma_cluster);
    if let (Some(sync), true) = (latest, state.determined) {
        let wait_stage = if is_op_before(sync, mma) {
            mma_stage + 1
        } else {
            stage(sync).unwrap_or(0)
        };
        wait_at = (wait_stage, new_cluster_before(for_op, sync));
    }
    // The MMA may have moved to a later cluster.
    let mma_at = schedule_of(mma);
    let stages = wait_at.0 - mma_at.0 + 1;
    let ctx = ir::context(for_op);
    let i32t = ir::i32_type(ctx);
    let loc = ir::location(mma);
    let barriers = barrier_alloc(for_op, stages);
    let tagged = |v: MlirValue| {
        set_schedule(ir::defining_op(v).expect("a new op"), mma_at);
        v
    };
    let yes = tagged(ir::build_constant(mma, loc, ir::i1_type(ctx), 1));
    let zero = tagged(ir::build_constant(mma, ir::location(for_op), i32t, 0));
    let index = if stages > 1 { index_arg } else { zero };
    let one = tagged(ir::build_constant(mma, ir::location(for_op), i32t, 1));
    let count = tagged(ir::build_constant(mma, ir::location(for_op), i32t, stages));
    let slice_op = buffer_view(mma, barriers, index, loc);
    set_schedule(slice_op, mma_at);
    let slice = ir::result(slice_op, 0);
    let mut updated = MmaOperands::read(mma).ok_or_else(|| refuse(mma, "this MMA's operands"))?;
    updated.barriers.push(slice);
    updated.barrier_preds.push(yes);
    updated.write(mma);
    ir::set_attribute(mma, "is_async", unit_attr(ctx));
    let mut deps = vec![updated.a, updated.b];
    if let Some((sa, sb)) = updated.scales {
        deps.extend([sa, sb]);
    }
    let after = next_op(mma).expect("the MMA is not the terminator");
    let wait = build_wait(after, slice, phase, &deps);
    set_schedule(wait, wait_at);
    // Reads of the accumulator under conditionals, in an earlier stage.
    for (user, _) in ir::uses(alloc) {
        if !ir::is(user, "ttng.tmem_load") || ir::op_block(user).ptr == body.ptr {
            continue;
        }
        let Some(top) = pl::ancestor_in_block(body, user) else {
            continue;
        };
        if stage(top).unwrap_or(0) < wait_at.0 {
            build_wait(user, slice, phase, &deps);
        }
    }
    let yield_op = pl::terminator(for_op);
    let flipped = ir::build_binary(yield_op, "arith.xori", loc, phase, one);
    set_schedule(ir::defining_op(flipped).expect("a new op"), mma_at);
    let mut new_phase = flipped;
    let mut new_index = index;
    if stages > 1 {
        let (next, wrapped) = increment_modulo(yield_op, index, count, zero, one, loc);
        for v in [next, wrapped] {
            set_schedule(ir::defining_op(v).expect("a new op"), mma_at);
        }
        let add = ir::defining_op(wrapped).map(|c| ir::operand(c, 0));
        if let Some(add) = add.and_then(ir::defining_op) {
            set_schedule(add, mma_at);
        }
        new_index = next;
        new_phase = ir::build_select(yield_op, loc, wrapped, flipped, phase);
        set_schedule(ir::defining_op(new_phase).expect("a new op"), mma_at);
    }
    for (i, v) in ir::operands(yield_op).into_iter().enumerate() {
        if ir::same_value(v, phase) {
            ir::set_operand(yield_op, i, new_phase);
        } else if ir::same_value(v, index) {
            ir::set_operand(yield_op, i, new_index);
        }
    }
    Ok(())
}

fn unit_attr(ctx: mlir_sys::MlirContext) -> mlir_sys::MlirAttribute {
    // SAFETY: a live context.
    unsafe { mlir_sys::mlirUnitAttrGet(ctx) }
}

/// MLIR's `properlyDominates` for two ops of one function: `a` is before
/// `b`'s ancestor in `a`'s block, or encloses `b`.
fn properly_dominates(a: MlirOperation, b: MlirOperation) -> bool {
    if a.ptr == b.ptr {
        return false;
    }
    match pl::ancestor_in_block(ir::op_block(a), b) {
        Some(top) if top.ptr == a.ptr => true,
        Some(top) => ir::is_before(a, top),
        None => false,
    }
}

/// Triton's `replaceAllUsesDominatedBy`.
fn replace_dominated(dom: MlirOperation, new: MlirValue, old: MlirValue) {
    if ir::same_value(new, old) {
        return;
    }
    for (user, index) in ir::uses(old) {
        if properly_dominates(dom, user) {
            ir::set_operand(user, index, new);
        }
    }
}

/// Triton's `multibufferTensorMemory`: the accumulator `alloc` gets
/// `buffers` buffers; stores in the loop and MMAs that do not accumulate
/// move on to the next one.
fn multibuffer_accumulator(
    for_op: MlirOperation,
    alloc: MlirOperation,
    buffer_arg: MlirValue,
    result_index: usize,
    buffers: i64,
) -> Result<(), Failure> {
    let ctx = ir::context(for_op);
    let i32t = ir::i32_type(ctx);
    let body = pl::body(for_op);
    let mut defs: Vec<(MlirOperation, MlirValue)> = vec![(ir::block_ops(body)[0], buffer_arg)];
    let current = |defs: &[(MlirOperation, MlirValue)], op: MlirOperation| {
        defs.iter()
            .rev()
            .find(|(d, _)| properly_dominates(*d, op))
            .map(|&(_, v)| v)
            .unwrap_or(buffer_arg)
    };
    let loc = ir::location(alloc);
    let old = ir::result(alloc, 0);
    // SAFETY: the type of a live value.
    let desc = ttg_dialect::layout::MemDesc::of(unsafe {
        melior::ir::Type::from_raw(ir::value_type(old))
    })
    .ok_or_else(|| refuse(alloc, "multi-buffering this accumulator"))?;
    let mut shape = vec![buffers];
    shape.extend(&desc.shape);
    let ring = ttg_dialect::layout::MemDesc {
        shape: shape.clone(),
        alloc_shape: shape,
        mutable: true,
        ..desc
    }
    .to_type();
    let token_ty = ir::parse_type(ctx, "!ttg.async.token").expect("the token type parses");
    let new_alloc = ir::build_op(
        alloc,
        "ttng.tmem_alloc",
        &[],
        &[melior::ir::TypeLike::to_raw(&ring), token_ty],
        &[],
        loc,
    );
    let ring = ir::result(new_alloc, 0);
    let count = ir::build_constant(alloc, loc, i32t, buffers);
    let zero = ir::build_constant(alloc, loc, i32t, 0);
    let one = ir::build_constant(alloc, loc, i32t, 1);
    let users: Vec<MlirOperation> = ir::uses(old).into_iter().map(|(u, _)| u).collect();
    let poison = ir::result(
        ir::build_op(for_op, "ub.poison", &[], &[token_ty], &[], loc),
        0,
    );
    let tag = |op: MlirOperation, at: Option<(i64, i64)>| {
        if let Some(at) = at {
            if ir::op_block(op).ptr == body.ptr {
                set_schedule(op, at);
            }
        }
    };
    let sched = |op: MlirOperation| -> Option<(i64, i64)> {
        (ir::op_block(op).ptr == body.ptr).then(|| schedule_of(op))
    };
    let mut valid = false;
    for user in users {
        let view = |before: MlirOperation, index: MlirValue, at: Option<(i64, i64)>| {
            let v = buffer_view(before, ring, index, ir::location(before));
            tag(v, at);
            ir::result(v, 0)
        };
        if ir::is(user, "ttng.tmem_store") {
            // dst, [dep], src, pred
            let operands = ir::operands(user);
            let (src, pred) = (operands[operands.len() - 2], operands[operands.len() - 1]);
            drop_token(user, poison);
            let at = sched(user);
            let slice = if in_loop(for_op, user) {
                valid = true;
                let cur = current(&defs, user);
                let (next, _) = increment_modulo(user, cur, count, zero, one, ir::location(user));
                tag_chain(next, at, body);
                let next = ir::build_select(user, ir::location(user), pred, next, cur);
                tag(ir::defining_op(next).expect("a new op"), at);
                replace_dominated(user, next, cur);
                defs.push((user, next));
                view(user, next, at)
            } else {
                view(user, zero, None)
            };
            set_operands(user, &[slice, src, pred]);
        } else if ir::is(user, "ttng.tmem_load") {
            drop_token(user, poison);
            let slice = if in_loop(for_op, user) {
                let cur = current(&defs, user);
                view(user, cur, sched(user))
            } else {
                view(user, ir::result(for_op, result_index), None)
            };
            set_operands(user, &[slice]);
        } else if pl::is_mmav5(user) {
            let ops = MmaOperands::read(user).ok_or_else(|| refuse(user, "this MMA's operands"))?;
            let mut ops = MmaOperands {
                acc_dep: None,
                barriers: ops.barriers.clone(),
                barrier_preds: ops.barrier_preds.clone(),
                ..ops
            };
            if ir::result_count(user) > 0 {
                ir::replace_all_uses(ir::result(user, 0), poison);
            }
            let at = sched(user);
            valid = !is_true_constant(ops.use_d);
            let cur = current(&defs, user);
            let (next, _) = increment_modulo(user, cur, count, zero, one, ir::location(user));
            tag_chain(next, at, body);
            let next = ir::build_select(user, ir::location(user), ops.use_d, cur, next);
            tag(ir::defining_op(next).expect("a new op"), at);
            replace_dominated(user, next, cur);
            defs.push((user, next));
            ops.d = view(user, next, at);
            ops.write(user);
        } else {
            return Err(refuse(
                user,
                "multi-buffering an accumulator read by this op",
            ));
        }
    }
    if !valid {
        return Err(refuse(
            alloc,
            "multi-buffering an accumulator that is never overwritten in the loop",
        ));
    }
    if ir::result_count(alloc) > 1 {
        ir::replace_all_uses(ir::result(alloc, 1), ir::result(new_alloc, 1));
    }
    ir::erase(alloc);
    let &(_, last) = defs.last().expect("the body's first op");
    if let Some(def) = ir::defining_op(last) {
        replace_dominated(def, last, buffer_arg);
    }
    Ok(())
}

/// Tags the ops of an `increment_modulo` chain ending in `select`.
fn tag_chain(select: MlirValue, at: Option<(i64, i64)>, body: MlirBlock) {
    let Some(at) = at else {
        return;
    };
    let Some(select) = ir::defining_op(select) else {
        return;
    };
    let cmp = ir::defining_op(ir::operand(select, 0));
    let add = cmp.and_then(|c| ir::defining_op(ir::operand(c, 0)));
    for op in [add, cmp, Some(select)].into_iter().flatten() {
        if ir::op_block(op).ptr == body.ptr {
            set_schedule(op, at);
        }
    }
}

/// A `tmem_store` or `tmem_load` loses its dependency token; the uses of
/// the token it made read `poison`.
fn drop_token(op: MlirOperation, poison: MlirValue) {
    for r in ir::results(op) {
        if ir::value_type(r).ptr == ir::value_type(poison).ptr {
            ir::replace_all_uses(r, poison);
        }
    }
}

/// The operands of a `tmem_store` (`dst, src, pred`) or `tmem_load`
/// (`src`) without their token.
fn set_operands(op: MlirOperation, operands: &[MlirValue]) {
    // SAFETY: `op` is live and the values are live in its scope.
    unsafe { mlir_sys::mlirOperationSetOperands(op, operands.len() as isize, operands.as_ptr()) };
}

fn is_true_constant(v: MlirValue) -> bool {
    ir::constant_int(v).is_some_and(|(value, width)| width == 1 && value != 0)
}
