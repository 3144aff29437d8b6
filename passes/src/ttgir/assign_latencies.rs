//! `tritongpu-assign-latencies` (option `num-stages`, default 3): Triton
//! 3.6's `assignLatencies`: latencies for the loads of pipelined loops and
//! for Blackwell's tcgen05 MMAs.
//!
//! Candidate loops are the `scf.for`s that are innermost, yield no block
//! argument as is, and have more than one stage (their `tt.num_stages`, else
//! the option). If a candidate already carries `tt.latency` attributes,
//! those are kept. Otherwise each dot of the body (`tt.dot`,
//! `ttng.warp_group_dot`, ...) starts a walk back through its A and B
//! operands (not the accumulator) and the operands of the ops behind them
//! that are defined in the body; when the loop has its own `tt.num_stages`,
//! every non-load op of the body then starts such a walk too (ops already
//! walked from the last dot are skipped). Each `tt.load` reached that is worth pipelining
//! (`isPipeliningBeneficial`) records its indirection level (0 for the first
//! load on a walk, +1 per load behind it; a load reached at two levels is
//! dropped). Loads at a level `>= numStages - 1` are dropped, and the rest
//! get `tt.latency = (numStages - 1) / (maxLevel + 1)`.
//!
//! Worth pipelining: a tensor load whose AxisInfo vector (pointer
//! contiguity capped by the layout's per-thread contiguity and the mask's
//! constancy) is at least 32 bits wide, whose users agree on one shared
//! encoding (its `ttg.local_alloc`s, or the dot operand it converts to), and,
//! when stored by `ttg.local_alloc`, whose registers hold at least 4 bytes
//! that are contiguous in that shared encoding (the `cp.async` minimum).
//!
//! Descriptor loads and gathers (TMA) are always worth pipelining.
//!
//! MMAv5 (`ttng.tc_gen5_mma`, `ttng.tc_gen5_mma_scaled`; Triton's
//! `AssignMMALatencies`), in loops without a `tt.dot`: an MMA whose
//! operands are all pipelineable (defined outside the loop, or shared
//! copies of loads that just got a latency and can be copied
//! asynchronously), or whose operands' state is known and whose
//! accumulator is not read by a `ttng.tmem_load` after it in the body, can
//! overlap with itself: `tt.self_latency = 1`. It then also gets
//! `tt.latency = 1` when its accumulator (a `ttng.tmem_alloc` outside the
//! loop) is not read in the loop, or can be multi-buffered (the use flag
//! is false at some point, or the loop overwrites the accumulator) and the
//! loop has no `tt.disallow_acc_multi_buffer`. In a loop under
//! `tt.warp_specialize`, an MMA whose accumulator is read, modified and
//! written back in the loop gets no latency, any other one latency + 1.
//!
//! Not supported yet, with an error at the op: loads whose users
//! need shared encodings this file cannot compare (two different dot
//! operands, memory-descriptor users other than `ttg.local_alloc`, shared
//! encodings other than swizzled and NVMMA).

use std::collections::{HashMap, HashSet};

use melior::{
    ir::{operation::OperationRef, Type, Value, ValueLike},
    pass::Pass,
};
use mlir_sys::{MlirOperation, MlirValue};
use ttg_dialect::layout::Layout;

use crate::analysis::axis_info::AxisInfoMap;
use crate::options::PassOptions;
use crate::rust_pass::{fail, Failure, PassResult, RustPass};
use crate::ttgir::pipelining::{self as pl, LATENCY, NUM_STAGES};
use crate::ttir::loop_support::ir::{self, Op};

/// The pass's flag.
pub const ARGUMENT: &str = "tritongpu-assign-latencies";

/// Parses `num-stages` (default 3).
pub fn parse_num_stages(options: &PassOptions) -> Result<i64, String> {
    options.int("num-stages", 3)
}

/// The pass; its `run` uses the default options.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUAssignLatencies",
    argument: ARGUMENT,
    description: "Assign latencies to the loads of pipelined loops (loops without dots)",
    anchor: "builtin.module",
    run: |op| run(op.to_raw(), 3),
};

/// Builds the pass from its options.
pub fn factory(options: &PassOptions) -> Result<Pass, String> {
    let num_stages = parse_num_stages(options)?;
    Ok(PASS.build_with(move |op| run(op.to_raw(), num_stages)))
}

fn error(op: MlirOperation, message: &str) -> Failure {
    fail(unsafe { OperationRef::from_raw(op) }, message)
}

fn run(module: MlirOperation, default_stages: i64) -> PassResult {
    let loops: Vec<MlirOperation> = pl::for_loops(module)
        .into_iter()
        .filter(|&f| {
            !pl::loop_has_dist_greater_than_one(f)
                && !pl::is_outer_loop(f)
                && pl::num_stages_or_default(f, default_stages) > 1
        })
        .collect();
    if loops.is_empty() {
        return Ok(());
    }
    let axis = AxisInfoMap::analyze(unsafe { OperationRef::from_raw(module) });
    let mut latencies: Vec<(MlirOperation, i64)> = Vec::new();
    let mut self_latencies: Vec<(MlirOperation, i64)> = Vec::new();
    for for_op in loops {
        let body = pl::body_ops(for_op);
        if body.iter().any(|&op| ir::attribute(op, LATENCY).is_some()) {
            // User-provided latencies are kept as they are.
            continue;
        }
        let num_stages = pl::num_stages_or_default(for_op, default_stages);
        // Loads that feed no dot are pipelined only in loops with their own
        // `tt.num_stages`.
        let own_stages = ir::attribute(for_op, NUM_STAGES).is_some();
        let levels = indirection_levels(&body, &axis, own_stages)?;
        let levels: Vec<(MlirOperation, i64)> = levels
            .into_iter()
            .filter(|&(_, level)| level < num_stages - 1)
            .collect();
        let max_level = levels.iter().map(|&(_, l)| l).max().unwrap_or(0);
        let latency = (num_stages - 1) / (max_level + 1);
        latencies.extend(levels.into_iter().map(|(op, _)| (op, latency)));
        mma_latencies(for_op, &body, &mut latencies, &mut self_latencies);
    }
    for (op, latency) in self_latencies {
        pl::set_i32(op, SELF_LATENCY, latency);
    }
    for (op, latency) in latencies {
        pl::set_i32(op, LATENCY, latency);
    }
    Ok(())
}

/// How many stages an MMAv5 op may overlap with its own next iteration.
const SELF_LATENCY: &str = "tt.self_latency";

/// Triton's `AssignMMALatencies` for one loop: adds the MMAs' latencies to
/// `latencies` (which holds the loads' so far) and their self latencies to
/// `self_latencies`.
fn mma_latencies(
    for_op: MlirOperation,
    body: &[MlirOperation],
    latencies: &mut Vec<(MlirOperation, i64)>,
    self_latencies: &mut Vec<(MlirOperation, i64)>,
) {
    // Loops that also run synchronous dots keep their MMAs unpipelined.
    if body.iter().any(|&op| ir::is(op, "tt.dot")) {
        return;
    }
    let load_latency: HashMap<Op, i64> = latencies.iter().map(|&(op, l)| (Op(op), l)).collect();
    let pipelined = |op: MlirOperation| load_latency.get(&Op(op)).is_some_and(|&l| l > 0);
    let warp_specialized = is_warp_specialized(for_op);
    for &mma in body.iter().filter(|&&op| pl::is_mmav5(op)) {
        let state = operand_state(for_op, mma, &pipelined);
        if !(state.pipelineable || (state.determined && !loads_after_mma(for_op, mma))) {
            continue;
        }
        self_latencies.push((mma, 1));
        let multibuffer = !requires_acc_multibuffering(for_op, mma)
            || (acc_multibuffering_possible(for_op, mma)
                && ir::attribute(for_op, DISALLOW_ACC_MULTI_BUFFER).is_none());
        let mut latency = multibuffer.then_some(1);
        if warp_specialized {
            // The MMA runs in its own partition there: its latency is the
            // accumulator's buffer count, unless the loop reads, modifies
            // and writes the accumulator back.
            latency = if acc_read_modify_write(for_op, mma) {
                None
            } else {
                Some(latency.unwrap_or(0) + 1)
            };
        }
        if let Some(latency) = latency {
            latencies.push((mma, latency));
        }
    }
}

/// A loop's attribute that keeps its MMA accumulators single-buffered.
const DISALLOW_ACC_MULTI_BUFFER: &str = "tt.disallow_acc_multi_buffer";

/// Whether `for_op` or an `scf.for` around it has `tt.warp_specialize`.
fn is_warp_specialized(for_op: MlirOperation) -> bool {
    let mut current = Some(for_op);
    while let Some(op) = current {
        if ir::is(op, "scf.for") && ir::attribute(op, "tt.warp_specialize").is_some() {
            return true;
        }
        current = ir::parent_op(op);
    }
    false
}

/// An MMAv5 op's `useD` flag.
fn mma_use_flag(mma: MlirOperation) -> Option<MlirValue> {
    pl::optional_operand(mma, pl::mma_v5_use_d_segment(mma))
}

/// The `ttng.tmem_alloc` outside the loop that holds the accumulator, if
/// the accumulator is one.
fn hoisted_acc_alloc(for_op: MlirOperation, mma: MlirOperation) -> Option<MlirOperation> {
    let acc = pl::optional_operand(mma, pl::MMA_V5_D)?;
    ir::defining_op(acc)
        .filter(|&alloc| ir::is(alloc, "ttng.tmem_alloc") && !ir::is_ancestor(for_op, alloc))
}

/// The users of `alloc`'s buffer named `name` that are nested in `for_op`.
fn acc_users_in_loop(
    for_op: MlirOperation,
    alloc: MlirOperation,
    name: &str,
) -> Vec<MlirOperation> {
    ir::uses(ir::result(alloc, 0))
        .into_iter()
        .map(|(user, _)| user)
        .filter(|&user| ir::is(user, name))
        .filter(|&user| ir::parent_op(user).is_some_and(|p| ir::is_ancestor(for_op, p)))
        .collect()
}

/// [`pl::mma_operand_state`] of `mma`'s operands, loads counting as
/// pipelined when `pipelined` says so (and their copy can be
/// asynchronous); unknown unless the accumulator is hoisted out of the
/// loop and scales come through shared memory (or from outside the loop).
fn operand_state(
    for_op: MlirOperation,
    mma: MlirOperation,
    pipelined: &dyn Fn(MlirOperation) -> bool,
) -> pl::MmaOperandState {
    let mut state = pl::MmaOperandState {
        determined: true,
        pipelineable: false,
        unpipelineable: Vec::new(),
    };
    if hoisted_acc_alloc(for_op, mma).is_none() {
        return state;
    }
    let ready = |load: MlirOperation, alloc: MlirOperation, tma: bool| {
        pipelined(load) && (tma || copies_async(load, alloc))
    };
    let mut values: Vec<MlirValue> = Vec::new();
    for segment in [0, 1] {
        match pl::optional_operand(mma, segment) {
            Some(v) => values.push(v),
            None => state.determined = false,
        }
    }
    if ir::is(mma, "ttng.tc_gen5_mma_scaled") {
        let scales = [pl::optional_operand(mma, 4), pl::optional_operand(mma, 5)];
        // Scales must come through shared memory (or from outside the
        // loop) for their state to be known.
        let known = scales.iter().all(|s| {
            s.is_some_and(|s| {
                ir::defined_outside(for_op, s)
                    || ir::memdesc(s)
                        .and_then(|d| Layout::read(d.encoding))
                        .is_some_and(|l| !l.is_distributed())
            })
        });
        if !known {
            state.determined = false;
            return state;
        }
        values.extend(scales.into_iter().flatten());
    }
    let found = pl::mma_operand_state(for_op, &values, &ready);
    state.determined &= found.determined;
    state.pipelineable = state.determined && found.unpipelineable.is_empty();
    state
}

/// Triton's `canBeAsyncLoad` for a `tt.load` stored by `alloc`: its copy
/// into the first `ttg.local_alloc` user's encoding moves at least 4 bytes
/// at a time.
fn copies_async(load: MlirOperation, alloc: MlirOperation) -> bool {
    let result = ir::result(load, 0);
    let first_alloc = ir::uses(result)
        .into_iter()
        .map(|(user, _)| user)
        .find(|&user| ir::is(user, "ttg.local_alloc"))
        .unwrap_or(alloc);
    pl::encoding_of(ir::value_type(ir::result(first_alloc, 0)))
        .and_then(|shared| pl::copy_vec_bytes(result, shared))
        .is_some_and(|bytes| bytes >= 4)
}

/// Triton's `hasLoadsAfterMMA`: a `ttng.tmem_load` of the hoisted
/// accumulator sits (or is nested in an op) after the MMA in the body.
fn loads_after_mma(for_op: MlirOperation, mma: MlirOperation) -> bool {
    let Some(alloc) = hoisted_acc_alloc(for_op, mma) else {
        return false;
    };
    let block = pl::body(for_op);
    ir::uses(ir::result(alloc, 0)).into_iter().any(|(user, _)| {
        ir::is(user, "ttng.tmem_load")
            && pl::ancestor_in_block(block, user).is_some_and(|a| ir::is_before(mma, a))
    })
}

/// Triton's `requiresAccMultiBuffering`: the accumulator is not a hoisted
/// `ttng.tmem_alloc`, or the loop reads it.
fn requires_acc_multibuffering(for_op: MlirOperation, mma: MlirOperation) -> bool {
    hoisted_acc_alloc(for_op, mma)
        .is_none_or(|alloc| !acc_users_in_loop(for_op, alloc, "ttng.tmem_load").is_empty())
}

/// Triton's `isAccMultibufferingPossible`: the use flag is false at some
/// point, or the loop overwrites the accumulator (where the buffers can
/// be swapped).
fn acc_multibuffering_possible(for_op: MlirOperation, mma: MlirOperation) -> bool {
    let overwritten = hoisted_acc_alloc(for_op, mma)
        .is_some_and(|alloc| !acc_users_in_loop(for_op, alloc, "ttng.tmem_store").is_empty());
    overwritten || use_flag_set_to_false(for_op, mma)
}

/// Whether `v` is the `i1` (or integer) constant `value`.
fn is_constant(v: MlirValue, value: i64) -> bool {
    ir::constant_int(v).is_some_and(|(c, width)| {
        if width == 1 {
            (c != 0) == (value != 0)
        } else {
            c == value
        }
    })
}

/// Triton's `accUseFlagSetToFalse`: the MMA's use flag is the constant
/// false, starts false and is yielded as true, or is computed in the loop.
fn use_flag_set_to_false(for_op: MlirOperation, mma: MlirOperation) -> bool {
    let Some(mut flag) = mma_use_flag(mma) else {
        return false;
    };
    if is_constant(flag, 0) {
        return true;
    }
    let block = pl::body(for_op);
    let terminator = pl::terminator(for_op);
    let mut init = None;
    let mut seen = HashSet::new();
    while ir::is_block_argument(flag)
        && ir::value_block(flag).ptr == block.ptr
        && ir::arg_number(flag) > 0
        && seen.insert(flag.ptr)
    {
        let index = ir::arg_number(flag) - 1;
        flag = ir::operand(terminator, index);
        // `scf.for`'s operands: lower bound, upper bound, step, inits.
        init = Some(ir::operand(for_op, 3 + index));
    }
    if init.is_some_and(|i| is_constant(i, 0)) && is_constant(flag, 1) {
        return true;
    }
    ir::defining_op(flag).is_some_and(|def| ir::is_ancestor(for_op, def))
}

/// Triton's `hasAccReadModifyWrite`: a value read from the accumulator in
/// the loop reaches, through something other than a plain copy, a
/// `ttng.tmem_store` back into it (pessimistically true when the
/// accumulator is not a hoisted `ttng.tmem_alloc`).
fn acc_read_modify_write(for_op: MlirOperation, mma: MlirOperation) -> bool {
    let Some(alloc) = hoisted_acc_alloc(for_op, mma) else {
        return true;
    };
    let stores = acc_users_in_loop(for_op, alloc, "ttng.tmem_store");
    let loads = acc_users_in_loop(for_op, alloc, "ttng.tmem_load");
    if stores.is_empty() || loads.is_empty() {
        return false;
    }
    let is_store = |op: MlirOperation| stores.iter().any(|s| s.ptr == op.ptr);
    // Where a value reaches a yield, the `scf.if` result or the loop's
    // block argument it becomes.
    let through_yield = |user: MlirOperation, index: usize| -> Option<MlirValue> {
        if !ir::is(user, "scf.yield") {
            return None;
        }
        let parent = ir::parent_op(user)?;
        if ir::is(parent, "scf.if") {
            return Some(ir::result(parent, index));
        }
        if parent.ptr == for_op.ptr {
            return Some(ir::block_args(pl::body(for_op))[index + 1]);
        }
        None
    };
    let mut seen: HashSet<*const std::ffi::c_void> = HashSet::new();
    let mut read: Vec<MlirValue> = loads.iter().map(|&l| ir::result(l, 0)).collect();
    let mut modified: Vec<MlirValue> = Vec::new();
    while let Some(v) = read.pop() {
        if !seen.insert(v.ptr) {
            continue;
        }
        for (user, index) in ir::uses(v) {
            if is_store(user) {
                continue;
            }
            if ir::is(user, "scf.yield") {
                read.extend(through_yield(user, index));
            } else {
                modified.extend(ir::results(user));
            }
        }
    }
    while let Some(v) = modified.pop() {
        if !seen.insert(v.ptr) {
            continue;
        }
        for (user, index) in ir::uses(v) {
            if is_store(user) {
                return true;
            }
            if ir::is(user, "scf.yield") {
                modified.extend(through_yield(user, index));
            } else {
                modified.extend(ir::results(user));
            }
        }
    }
    false
}

/// Triton's `loadOpsToIndirectionLevel`: loads by first discovery, with
/// their level.
fn indirection_levels(
    body: &[MlirOperation],
    axis: &AxisInfoMap,
    own_stages: bool,
) -> Result<Vec<(MlirOperation, i64)>, Failure> {
    struct Walk<'a> {
        axis: &'a AxisInfoMap,
        seen: HashSet<Op>,
        excluded: HashSet<Op>,
        levels: Vec<(MlirOperation, i64)>,
    }
    impl Walk<'_> {
        fn dfs(&mut self, op: MlirOperation, mut distance: i64) -> PassResult {
            if !self.seen.insert(Op(op)) || self.excluded.contains(&Op(op)) {
                return Ok(());
            }
            // Descriptor (TMA) loads are always worth pipelining; a
            // `tt.load` that is not is walked through at the same level.
            let descriptor = ir::is(op, "tt.descriptor_load") || ir::is(op, "tt.descriptor_gather");
            if descriptor || (ir::is(op, "tt.load") && worth_pipelining(op, self.axis)?) {
                if let Some(i) = self.levels.iter().position(|&(o, _)| o.ptr == op.ptr) {
                    // Reached again from another dot: at another level it is
                    // dropped for good.
                    if self.levels[i].1 != distance {
                        self.levels.remove(i);
                        self.excluded.insert(Op(op));
                    }
                    return Ok(());
                }
                self.levels.push((op, distance));
                distance += 1;
            }
            let block = ir::op_block(op);
            // Only the A and B operands of a dot lead to its loads.
            let accumulator = pl::is_dot_like(op).then(|| ir::operand(op, 2));
            for v in pl::nested_operands(op) {
                if accumulator.is_some_and(|acc| ir::same_value(acc, v)) {
                    continue;
                }
                if let Some(def) = ir::defining_op(v) {
                    if ir::op_block(def).ptr == block.ptr {
                        self.dfs(def, distance)?;
                    }
                }
            }
            Ok(())
        }
    }
    let mut walk = Walk {
        axis,
        seen: HashSet::new(),
        excluded: HashSet::new(),
        levels: Vec::new(),
    };
    for &op in body {
        if pl::is_dot_like(op) || ir::is(op, "ttng.tmem_store") {
            walk.seen.clear();
            walk.dfs(op, 0)?;
        }
    }
    if own_stages {
        for &op in body {
            if !ir::is(op, "tt.load")
                && !ir::is(op, "tt.descriptor_load")
                && !ir::is(op, "tt.descriptor_gather")
            {
                walk.dfs(op, 0)?;
            }
        }
    }
    Ok(walk.levels)
}

/// Triton's `isPipeliningBeneficial` for a `tt.load`.
fn worth_pipelining(load: MlirOperation, axis: &AxisInfoMap) -> Result<bool, Failure> {
    if is_small_load(load, axis) {
        return Ok(false);
    }
    let result = ir::result(load, 0);
    if !users_agree_on_shared_encoding(result) {
        return Ok(false);
    }
    let mut alloc_encoding: Option<mlir_sys::MlirAttribute> = None;
    for (user, _) in ir::uses(result) {
        if !ir::is(user, "ttg.local_alloc") {
            continue;
        }
        let encoding = pl::encoding_of(ir::value_type(ir::result(user, 0)))
            .ok_or_else(|| error(user, "a ttg.local_alloc without a memory descriptor"))?;
        match alloc_encoding {
            Some(e) if !ir::same_attribute(e, encoding) => return Ok(false),
            _ => alloc_encoding = Some(encoding),
        }
    }
    if let Some(encoding) = alloc_encoding {
        let Some(bytes) = pl::copy_vec_bytes(result, encoding) else {
            return Err(error(
                load,
                &format!(
                    "{ARGUMENT}: pipelining a load stored to a shared encoding other than swizzled or NVMMA is not supported yet"
                ),
            ));
        };
        if bytes < 4 {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Triton's `canHaveSharedEncoding`: `false` when two users need different
/// shared encodings (`getSharedEncIfAllUsersAreDotEnc`'s `incompatible`).
fn users_agree_on_shared_encoding(value: mlir_sys::MlirValue) -> bool {
    let mut incompatible = false;
    pl::dot_users_shared_encoding(value, &mut incompatible);
    !incompatible
}

/// Triton's `isSmallLoad`: a tensor load whose copy vector is narrower
/// than 32 bits.
pub fn is_small_load(load: MlirOperation, axis: &AxisInfoMap) -> bool {
    let ptr = ir::operand(load, 0);
    let ptr_ty = unsafe { Type::from_raw(ir::value_type(ptr)) };
    let Some(tensor) = tt_dialect::types::Tensor::of(ptr_ty) else {
        // Scalar loads are not small: the pipeliner makes them one-element
        // tensors.
        return false;
    };
    let Some((pointee, _)) = tt_dialect::types::pointer_parts(tensor.element) else {
        return true;
    };
    if pl::order_and_contig(ptr).is_none() {
        return true;
    }
    let bits = tt_dialect::types::bit_width(pointee).unwrap_or(64);
    load_vector_width(load, axis) * bits < 32
}

/// The elements one copy of a tensor load moves: the pointers'
/// contiguity in the layout's fastest dimension, capped by the mask's
/// alignment (Triton's `getContiguity` / `getMaskAlignment`); 1 where the
/// layout is unknown.
pub fn load_vector_width(load: MlirOperation, axis: &AxisInfoMap) -> u32 {
    let ptr = ir::operand(load, 0);
    let Some((order, contig)) = pl::order_and_contig(ptr) else {
        return 1;
    };
    let order0 = order[0] as usize;
    let mut vec = axis.ptr_contiguity(unsafe { Value::from_raw(ptr) }, order0, contig[order0]);
    let load_ref = unsafe { OperationRef::from_raw(load) };
    let mask = tt_dialect::ir::segment(load_ref, 1).and_then(|m| m.first().map(|v| v.to_raw()));
    if let Some(mask) = mask {
        if let Some((mask_order, _)) = pl::order_and_contig(mask) {
            vec = vec
                .min(axis.mask_alignment(unsafe { Value::from_raw(mask) }, mask_order[0] as usize));
        } else {
            vec = vec.min(1);
        }
    }
    vec
}
