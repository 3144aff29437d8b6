//! The first step of `tritongpu-pipeline` (Triton's `lowerLoops`; alone,
//! the pass `tritongpu-test-pipeline-lower-loop`, which lowers the MMAs
//! first, see [`pipeline_mma`](super::pipeline_mma)): in a
//! scheduled loop, every top-level `tt.load` whose value is read in a
//! later stage, and that can be copied with `cp.async` (at least 4 bytes a
//! copy; a scalar of 32 bits or more first becomes a one-element tensor
//! load read back with `tt.unsplat`), becomes an asynchronous copy into a
//! ring of shared buffers:
//!
//! * before the loop, a `ttg.local_alloc` of `d` buffers (`d` the stage
//!   distance to the first reader, one more when the value feeds a
//!   `ttng.warp_group_dot` through shared memory), freed after it; its
//!   encoding is the one of the load's `ttg.local_alloc` users, else the
//!   one its dot-operand users need, else an unswizzled one;
//! * in the load's stage: `ttg.memdesc_index` at the insert counter,
//!   `ttg.async_copy_global_to_local` (mask, `other` and the copy's
//!   contiguity kept) and `ttg.async_commit_group`;
//! * in the first reader's stage: `ttg.async_wait`, `ttg.memdesc_index` at
//!   the extract counter, which replaces the `ttg.local_alloc` users of the
//!   same encoding, and a `ttg.local_load` (then an `arith.select` for a
//!   non-zero `other`) for the other users;
//! * per buffer count, an insert and an extract counter carried by the
//!   loop, starting at -1 and wrapping at the count; the ops computing
//!   them take the stage and cluster of their first user
//!   (`scheduleDependencies`); after the loop, an `ttg.async_wait` for
//!   every copy.
//!
//! The stage distance of a load counts a reader in a later cluster one
//! stage later, and a `ttng.wait_barrier` reading its shared copy keeps
//! the buffer until the latest such wait.
//!
//! A top-level `tt.descriptor_load` (or `tt.descriptor_gather`, in the
//! test pass) read in a later stage becomes a TMA copy (or gather) instead
//! (Triton's `createTMAAsyncLoad`): its ring has the
//! descriptor block's encoding, and per buffer count the loop also carries
//! an mbarrier phase (starting at 0, flipped when the extract counter
//! wraps). Consecutive TMA loads of one stage and cluster with no reader
//! between them share a barrier per buffer (`createTMABarrierAndWait`):
//! `ttng.barrier_expect` of their bytes before the first, each copy
//! (`ttng.async_tma_copy_global_to_local`) completing on it, and one
//! `ttng.wait_barrier` after the last, in the first reader's stage, behind
//! which the readers take the extract buffer. The barriers are created and
//! initialised before the loop and invalidated and freed after it.

use std::collections::HashMap;

use melior::ir::operation::OperationRef;
use melior::ir::{attribute::AttributeLike, r#type::TypeLike, Type};
use mlir_sys::{MlirAttribute, MlirOperation, MlirType, MlirValue};
use tt_dialect::ir::{emit_op_diagnostic, Severity};
use ttg_dialect::layout::{Layout, MemDesc};

use crate::analysis::axis_info::AxisInfoMap;
use crate::rust_pass::{fail, Failure};
use crate::ttgir::assign_latencies::load_vector_width;
use crate::ttgir::pipelining::{self as pl, CLUSTER, STAGE};
use crate::ttir::loop_support::ir::{self, Op};
use crate::ttir::loop_support::scf;

/// A load that becomes an asynchronous copy.
pub struct AsyncLoad {
    load: MlirOperation,
    /// The number of buffers.
    buffers: i64,
    /// The copy's contiguity (pointer contiguity and mask alignment).
    contiguity: u32,
    /// The shared encoding of the buffers.
    shared: MlirAttribute,
    /// A scalar load, which becomes a load of a one-element tensor first.
    scalar: bool,
    /// A `tt.descriptor_load`, which becomes a TMA copy completing on an
    /// mbarrier.
    tma: bool,
}

/// The located error for what the pipeliner does not support yet.
pub(crate) fn refuse(op: MlirOperation, what: &str) -> Failure {
    // SAFETY: `op` is a live op of the module being transformed.
    let op = unsafe { OperationRef::from_raw(op) };
    fail(
        op,
        &format!("tritongpu-pipeline: {what} is not supported yet"),
    )
}

/// The op's stage in the coarse schedule.
pub(crate) fn stage(op: MlirOperation) -> Option<i64> {
    pl::int_attribute(op, STAGE)
}

/// The op's cluster in the coarse schedule.
pub(crate) fn cluster(op: MlirOperation) -> Option<i64> {
    pl::int_attribute(op, CLUSTER)
}

/// Puts the op at `(stage, cluster)` of the coarse schedule.
pub(crate) fn set_schedule(op: MlirOperation, (s, c): (i64, i64)) {
    pl::set_i32(op, CLUSTER, c);
    pl::set_i32(op, STAGE, s);
}

/// The op's `(stage, cluster)`, zeros where it has none.
pub(crate) fn schedule_of(op: MlirOperation) -> (i64, i64) {
    (stage(op).unwrap_or(0), cluster(op).unwrap_or(0))
}

/// Ops with `MemDescViewTrait`: views of a buffer, not reads of it.
pub(crate) fn is_view(op: MlirOperation) -> bool {
    [
        "ttg.memdesc_index",
        "ttg.memdesc_subslice",
        "ttg.memdesc_trans",
        "ttg.memdesc_reshape",
        "ttg.memdesc_reinterpret",
    ]
    .iter()
    .any(|n| ir::is(op, n))
}

/// Triton's `getTopLevelUsersInLoop`: the body ops that read `value`,
/// following the loop's back edge and looking through views.
fn top_level_users(value: MlirValue, for_op: MlirOperation) -> Vec<MlirOperation> {
    let body = pl::body(for_op);
    let yield_op = pl::terminator(for_op);
    let iter_args = scf::region_iter_args(for_op);
    let mut queue = ir::uses(value);
    let mut out: Vec<MlirOperation> = Vec::new();
    while let Some((user, index)) = queue.pop() {
        if user.ptr == yield_op.ptr {
            queue.extend(ir::uses(iter_args[index]));
            continue;
        }
        if is_view(user) {
            queue.extend(ir::uses(ir::result(user, 0)));
            continue;
        }
        if let Some(top) = pl::ancestor_in_block(body, user) {
            if !out.iter().any(|o| o.ptr == top.ptr) {
                out.push(top);
            }
        }
    }
    out
}

/// Triton's `getDefUseStageDiff` for a load: how many stages after it its
/// first reader runs (readers of its `ttg.local_alloc` users count).
fn stage_distance(load: MlirOperation, for_op: MlirOperation) -> i64 {
    let mut users = top_level_users(ir::result(load, 0), for_op);
    let allocs: Vec<MlirOperation> = users
        .iter()
        .copied()
        .filter(|u| ir::is(*u, "ttg.local_alloc"))
        .collect();
    for alloc in allocs {
        for u in top_level_users(ir::result(alloc, 0), for_op) {
            if !users.iter().any(|o| o.ptr == u.ptr) {
                users.push(u);
            }
        }
    }
    // A reader in a later cluster runs after the next iteration's copy
    // started: it counts one stage later. A `ttng.wait_barrier` reader
    // keeps the buffer until it completes: the latest one counts.
    let (def_stage, def_cluster) = schedule_of(load);
    let first = users
        .iter()
        .map(|&u| {
            let (s, c) = schedule_of(u);
            s + i64::from(c > def_cluster)
        })
        .min();
    let last_wait = users
        .iter()
        .filter(|u| ir::is(**u, "ttng.wait_barrier"))
        .map(|&u| schedule_of(u).0)
        .max();
    match (first, last_wait) {
        (Some(f), Some(w)) => f.max(w) - def_stage,
        (Some(f), None) => f - def_stage,
        _ => 0,
    }
}

/// Triton's `getFirstUseOfPipelinedOp`: the earliest reader by stage,
/// cluster and position.
fn first_use(load: MlirOperation, for_op: MlirOperation) -> Option<MlirOperation> {
    first_use_of(&[load], for_op)
}

/// The earliest reader of any of `loads`, as [`first_use`].
fn first_use_of(loads: &[MlirOperation], for_op: MlirOperation) -> Option<MlirOperation> {
    let body_ops = pl::body_ops(for_op);
    let position = |op: MlirOperation| body_ops.iter().position(|o| o.ptr == op.ptr);
    loads
        .iter()
        .flat_map(|&l| top_level_users(ir::result(l, 0), for_op))
        .min_by_key(|&u| (stage(u), cluster(u), position(u)))
}

/// Whether `op` is a TMA load (`tt.descriptor_load` or
/// `tt.descriptor_gather`).
pub fn is_tma_load(op: MlirOperation) -> bool {
    ir::is(op, "tt.descriptor_load") || ir::is(op, "tt.descriptor_gather")
}

/// The shared encoding of the block a TMA load reads, where it has one
/// ([`descriptor_tile_encoding`]).
fn descriptor_encoding(load: MlirOperation) -> Option<MlirAttribute> {
    // SAFETY: live values' types.
    let desc = unsafe { Type::from_raw(ir::value_type(ir::operand(load, 0))) };
    let block =
        tt_dialect::types::tensor_desc_block(desc).and_then(tt_dialect::types::Tensor::of)?;
    let loaded = tt_dialect::types::Tensor::of(unsafe {
        Type::from_raw(ir::value_type(ir::result(load, 0)))
    })?;
    ttg_dialect::layout::descriptor_tile_encoding(block.encoding?, &block.shape, &loaded.shape)
        .map(|a| a.to_raw())
}

/// Triton's `getSharedEncoding` for a load: its `ttg.local_alloc` users'
/// encoding, else its dot-operand users', else unswizzled in the
/// register order.
pub(crate) fn shared_encoding(load: MlirOperation) -> Option<MlirAttribute> {
    let value = ir::result(load, 0);
    // The first `ttg.local_alloc` user MLIR lists (Triton warns when the
    // others differ).
    if let Some((alloc, _)) = ir::uses(value)
        .into_iter()
        .find(|(u, _)| ir::is(*u, "ttg.local_alloc"))
    {
        return pl::encoding_of(ir::value_type(ir::result(alloc, 0)));
    }
    if let Some(enc) = pl::dot_users_shared_encoding(value, &mut false) {
        return Some(enc);
    }
    let (order, _) = pl::order_and_contig(value)?;
    pl::swizzled(ir::context(load), (1, 1, 1), &order)
}

/// Triton's `loadRequiresAdditionalBuffer`: a load read straight from
/// shared memory by a `ttng.warp_group_dot` (through its one
/// `ttg.local_alloc` user, with an NVMMA encoding, and views) needs one
/// more buffer, as the asynchronous dot reads it one iteration longer.
fn needs_extra_buffer(load: MlirOperation) -> bool {
    let value = ir::result(load, 0);
    let users = ir::uses(value);
    let [(alloc, _)] = users[..] else {
        return false;
    };
    if !ir::is(alloc, "ttg.local_alloc") || !is_nvmma(ir::result(alloc, 0)) {
        return false;
    }
    if is_tma_load(load) {
        let alloc_encoding = pl::encoding_of(ir::value_type(ir::result(alloc, 0)));
        match (descriptor_encoding(load), alloc_encoding) {
            (Some(d), Some(a)) if ir::same_attribute(d, a) => {}
            _ => return false,
        }
    } else if let Some(other) = pl::optional_operand(load, 2) {
        if !is_zero_constant(other) {
            return false;
        }
    }
    fn non_view_users(v: MlirValue, out: &mut Vec<MlirOperation>) {
        for (user, _) in ir::uses(v) {
            if is_view(user) {
                non_view_users(ir::result(user, 0), out);
            } else {
                out.push(user);
            }
        }
    }
    let mut users = Vec::new();
    non_view_users(ir::result(alloc, 0), &mut users);
    users.iter().any(|u| ir::is(*u, "ttng.warp_group_dot"))
}

fn is_nvmma(v: MlirValue) -> bool {
    pl::encoding_of(ir::value_type(v))
        .and_then(|e| Layout::read(unsafe { melior::ir::Attribute::from_raw(e) }))
        .is_some_and(|l| matches!(l, Layout::NvmmaShared { .. }))
}

/// Triton's `isZeroConst`: an integer or float zero (splat) constant.
pub fn is_zero_constant(v: MlirValue) -> bool {
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

/// The loads of `for_op` that become asynchronous copies, in body order
/// (the first half of Triton's `lowerLoads`), or the located reason this
/// project cannot lower the loop yet.
pub fn plan(for_op: MlirOperation, axis: &AxisInfoMap) -> Result<Vec<AsyncLoad>, Failure> {
    check_supported(for_op)?;
    plan_loads(for_op, axis)
}

/// What `tritongpu-pipeline` cannot pipeline yet (beyond lowering): the
/// test-only predicate attribute and descriptor loads of a shape other
/// than their block's.
fn check_supported(for_op: MlirOperation) -> Result<(), Failure> {
    if ir::attribute(for_op, "__test_keep_predicate_stage").is_some() {
        return Err(refuse(
            for_op,
            "the test-only '__test_keep_predicate_stage'",
        ));
    }
    Ok(())
}

/// Triton's remark on each load of `for_op` read two or more stages after
/// it is issued that `planned` does not copy asynchronously (too narrow
/// for `cp.async`, say): the pipeliner carries it in registers.
pub fn remark_register_pipelined(for_op: MlirOperation, planned: &[AsyncLoad]) {
    for op in pl::body_ops(for_op) {
        if !ir::is(op, "tt.load") || planned.iter().any(|l| l.load.ptr == op.ptr) {
            continue;
        }
        if stage_distance(op, for_op) > 1 {
            // SAFETY: a live load of the loop being pipelined.
            let load = unsafe { OperationRef::from_raw(op) };
            emit_op_diagnostic(
                load,
                Severity::Remark,
                "Pipelining load that cannot use vectorized copy. This will likely lead to \
                 pipelining in registers and severe performance degradation.",
                &[],
            );
        }
    }
}

/// [`plan`] without the checks of what only the expander refuses.
pub fn plan_loads(for_op: MlirOperation, axis: &AxisInfoMap) -> Result<Vec<AsyncLoad>, Failure> {
    crate::ttgir::pipeline_tma_stores::check_descriptors(for_op)?;
    let mut loads = Vec::new();
    for op in pl::body_ops(for_op) {
        let tma = is_tma_load(op);
        if !ir::is(op, "tt.load") && !tma {
            continue;
        }
        let distance = stage_distance(op, for_op);
        if distance == 0 {
            continue;
        }
        if tma {
            let shared = descriptor_encoding(op).ok_or_else(|| {
                refuse(
                    op,
                    "pipelining a descriptor load whose block has no shared encoding of the loaded shape",
                )
            })?;
            loads.push(AsyncLoad {
                load: op,
                buffers: distance + i64::from(needs_extra_buffer(op)),
                contiguity: 1,
                shared,
                scalar: false,
                tma: true,
            });
            continue;
        }
        let ty = ir::value_type(ir::result(op, 0));
        if !pl::is_ranked_tensor(ty) {
            // Loads of 32 bits or more are copied as one-element tensors.
            let bits = ir::integer_width(ty)
                .or_else(|| float_width(ty))
                .unwrap_or(0);
            if bits >= 32 {
                let shared = pl::swizzled(ir::context(op), (1, 1, 1), &[0])
                    .ok_or_else(|| refuse(op, "pipelining this scalar load"))?;
                loads.push(AsyncLoad {
                    load: op,
                    buffers: distance,
                    contiguity: 1,
                    shared,
                    scalar: true,
                    tma: false,
                });
            }
            continue;
        }
        let shared = shared_encoding(op)
            .ok_or_else(|| refuse(op, "pipelining a load whose shared encoding is unknown"))?;
        let bytes = pl::copy_vec_bytes(ir::result(op, 0), shared).unwrap_or(0);
        let vec = load_vector_width(op, axis);
        let bits = tt_dialect::types::bit_width(
            tt_dialect::types::Tensor::of(unsafe { Type::from_raw(ty) })
                .map(|t| t.element)
                .ok_or_else(|| refuse(op, "pipelining this load"))?,
        )
        .unwrap_or(0);
        if bytes >= 4 && vec * bits >= 32 {
            let buffers = distance + i64::from(needs_extra_buffer(op));
            loads.push(AsyncLoad {
                load: op,
                buffers,
                contiguity: vec,
                shared,
                scalar: false,
                tma: false,
            });
        }
    }
    for l in &loads {
        if first_use(l.load, for_op).is_none() {
            return Err(refuse(l.load, "pipelining a load without users"));
        }
    }
    Ok(loads)
}

/// Triton's `replaceUsesAndPropagateType`: the uses of `old` read `new`
/// (a mutable buffer view); the views of `old` (transposes, reshapes,
/// slices) are rebuilt on `new` (mutable too), in the stage and cluster
/// `schedule`.
pub(crate) fn replace_and_propagate(old: MlirValue, new: MlirValue, schedule: (i64, i64)) {
    for (user, index) in ir::uses(old) {
        if !is_view(user) {
            ir::set_operand(user, index, new);
            continue;
        }
        // SAFETY: `user` is live; the clone is inserted next to it.
        let clone = unsafe { mlir_sys::mlirOperationClone(user) };
        ir::insert_before(user, clone);
        ir::set_operand(clone, 0, new);
        let result = ir::result(clone, 0);
        // SAFETY: the type of a live value.
        let ty = unsafe { Type::from_raw(ir::value_type(result)) };
        if let Some(desc) = MemDesc::of(ty).filter(|d| !d.mutable) {
            let mutable = MemDesc {
                mutable: true,
                ..desc
            }
            .to_type();
            // SAFETY: the clone's result is live and has no uses yet.
            unsafe { mlir_sys::mlirValueSetType(result, mutable.to_raw()) };
        }
        set_schedule(clone, schedule);
        replace_and_propagate(ir::result(user, 0), result, schedule);
        ir::erase(user);
    }
}

/// `!ttg.memdesc<...>` with the given leading dimensions and the tensor's.
fn memdesc_type(
    ctx: mlir_sys::MlirContext,
    lead: &[i64],
    tensor: MlirType,
    shared: MlirAttribute,
) -> MlirType {
    // SAFETY: a live ranked tensor type and attribute.
    let (shape, element) = unsafe {
        let rank = mlir_sys::mlirShapedTypeGetRank(tensor);
        let shape: Vec<i64> = (0..rank)
            .map(|d| mlir_sys::mlirShapedTypeGetDimSize(tensor, d as isize))
            .collect();
        (
            shape,
            Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(tensor)),
        )
    };
    let dims: String = lead.iter().chain(&shape).map(|d| format!("{d}x")).collect();
    let enc = scf::attribute_text(shared);
    let text = format!("!ttg.memdesc<{dims}{element}, {enc}, #ttg.shared_memory, mutable>");
    ir::parse_type(ctx, &text)
        .unwrap_or_else(|| panic!("the pipeliner built an invalid type: {text}"))
}

/// `createIncrementModulo`: `counter + 1`, wrapped to 0 at `modulus`, and
/// the condition that it wrapped.
pub(crate) fn increment_modulo(
    before: MlirOperation,
    counter: MlirValue,
    modulus: MlirValue,
    zero: MlirValue,
    one: MlirValue,
    location: mlir_sys::MlirLocation,
) -> (MlirValue, MlirValue) {
    let add = ir::build_binary(before, "arith.addi", location, counter, one);
    let wraps = ir::build_cmpi(before, location, ir::cmpi::SGE, add, modulus);
    (ir::build_select(before, location, wraps, zero, add), wraps)
}

/// A load group's counters: the buffer written this iteration, the one
/// read, and (with TMA loads) the mbarrier phase of the read.
#[derive(Clone, Copy)]
struct Counters {
    insert: MlirValue,
    extract: MlirValue,
    phase: Option<MlirValue>,
}

/// Lowers the `loads` of `for_op` (the second half of `lowerLoads`);
/// returns the loop that replaces `for_op`.
pub fn lower(for_op: MlirOperation, loads: &[AsyncLoad]) -> MlirOperation {
    if loads.is_empty() {
        return for_op;
    }
    let ctx = ir::context(for_op);
    let i32t = ir::i32_type(ctx);
    let loc = ir::location(for_op);
    for l in loads.iter().filter(|l| l.scalar) {
        scalar_to_tensor(for_op, l.load);
    }
    let mut allocs = Vec::new();
    for l in loads {
        let ty = ir::value_type(ir::result(l.load, 0));
        let alloc_ty = memdesc_type(ctx, &[l.buffers], ty, l.shared);
        let alloc = ir::build_op(
            for_op,
            "ttg.local_alloc",
            &[],
            &[alloc_ty],
            &[],
            ir::location(l.load),
        );
        let value = ir::result(alloc, 0);
        let dealloc = ir::create_op("ttg.local_dealloc", loc, &[value], &[], &[], Vec::new());
        ir::insert_after(for_op, dealloc);
        allocs.push(value);
    }
    // Load groups by buffer count, in first-load order; whether they hold
    // a TMA load.
    let mut groups: Vec<(i64, bool)> = Vec::new();
    for l in loads {
        match groups.iter_mut().find(|(b, _)| *b == l.buffers) {
            Some(g) => g.1 |= l.tma,
            None => groups.push((l.buffers, l.tma)),
        }
    }
    let minus_one = ir::build_constant(for_op, loc, i32t, -1);
    let zero = ir::build_constant(for_op, loc, i32t, 0);
    let one = ir::build_constant(for_op, loc, i32t, 1);
    let extra: Vec<MlirValue> = groups
        .iter()
        .flat_map(|&(_, tma)| {
            let mut v = vec![minus_one, minus_one];
            if tma {
                v.push(zero);
            }
            v
        })
        .collect();
    let first_new = 1 + scf::init_args(for_op).len();
    let for_op = scf::add_iter_args(for_op, &extra);
    let body = pl::body(for_op);
    let args = ir::block_args(body);
    let yield_op = pl::terminator(for_op);
    let mut counters: HashMap<i64, Counters> = HashMap::new();
    let mut arg = first_new;
    for &(buffers, tma) in &groups {
        let (insert_arg, extract_arg) = (args[arg], args[arg + 1]);
        let phase_arg = tma.then(|| args[arg + 2]);
        arg += 2 + usize::from(tma);
        let first = ir::block_ops(body)[0];
        let modulus = ir::build_constant(first, loc, i32t, buffers);
        let (insert, _) = increment_modulo(first, insert_arg, modulus, zero, one, loc);
        let (extract, wrapped) = increment_modulo(first, extract_arg, modulus, zero, one, loc);
        let phase = phase_arg.map(|phase| {
            let next = ir::build_binary(first, "arith.xori", loc, phase, one);
            ir::build_select(first, loc, wrapped, next, phase)
        });
        counters.insert(
            buffers,
            Counters {
                insert,
                extract,
                phase,
            },
        );
    }
    let barriers = tma_barriers(for_op, loads, &counters);
    for (l, &alloc) in loads.iter().zip(&allocs) {
        let c = counters[&l.buffers];
        if l.tma {
            let (barrier, wait) = barriers[&Op(l.load)];
            tma_copy(for_op, l, alloc, c, barrier, wait);
        } else {
            async_copy(for_op, l, alloc, c.insert, c.extract);
        }
    }
    // Read the yield's operands only now: the copies replaced the loads,
    // which it may yield.
    let mut yields = ir::operands(yield_op);
    yields.extend(&extra);
    let mut slot = first_new - 1;
    for (buffers, _) in &groups {
        let c = counters[buffers];
        yields[slot] = c.insert;
        yields[slot + 1] = c.extract;
        slot += 2;
        if let Some(phase) = c.phase {
            yields[slot] = phase;
            slot += 1;
        }
    }
    // SAFETY: the yield is live; the values are live in the body.
    unsafe { mlir_sys::mlirOperationSetOperands(yield_op, yields.len() as isize, yields.as_ptr()) };
    schedule_dependencies(for_op);
    if loads.iter().any(|l| !l.tma) {
        let token = ir::parse_type(ctx, "!ttg.async.token").expect("the token type parses");
        let wait = ir::create_op(
            "ttg.async_wait",
            loc,
            &[],
            &[token],
            &[("num", ir::integer_attr(i32t, 0))],
            Vec::new(),
        );
        ir::insert_after(for_op, wait);
    }
    for_op
}

/// A detached `memdesc_index` of `alloc`'s buffer `index`.
fn buffer_view_op(
    alloc: MlirValue,
    index: MlirValue,
    location: mlir_sys::MlirLocation,
) -> MlirOperation {
    // SAFETY: the type of a live value.
    let desc = MemDesc::of(unsafe { Type::from_raw(ir::value_type(alloc)) })
        .expect("a ring of buffers is a memory descriptor");
    // An index view is a whole buffer: its allocation shape is its shape.
    let view = MemDesc {
        shape: desc.shape[1..].to_vec(),
        alloc_shape: desc.shape[1..].to_vec(),
        ..desc
    }
    .to_type();
    ir::create_op(
        "ttg.memdesc_index",
        location,
        &[alloc, index],
        &[view.to_raw()],
        &[],
        Vec::new(),
    )
}

/// `memdesc_index` of `alloc`'s buffer `index`, before `before`.
pub(crate) fn buffer_view(
    before: MlirOperation,
    alloc: MlirValue,
    index: MlirValue,
    location: mlir_sys::MlirLocation,
) -> MlirOperation {
    let op = buffer_view_op(alloc, index, location);
    ir::insert_before(before, op);
    op
}

/// The op after `op` in its block.
pub(crate) fn next_op(op: MlirOperation) -> Option<MlirOperation> {
    // SAFETY: `op` is a live op in a block.
    let next = unsafe { mlir_sys::mlirOperationGetNextInBlock(op) };
    (!next.ptr.is_null()).then_some(next)
}

/// `count` mbarriers of `arrivals` arrivals each, allocated and initialised
/// before `before`.
pub(crate) fn init_barriers(before: MlirOperation, count: i64, arrivals: i64) -> MlirValue {
    let ctx = ir::context(before);
    let loc = ir::location(before);
    let i32t = ir::i32_type(ctx);
    let ty = ir::parse_type(
        ctx,
        &format!(
            "!ttg.memdesc<{count}x1xi64, #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}}>, #ttg.shared_memory, mutable>"
        ),
    )
    .expect("the barrier type parses");
    let alloc = ir::result(
        ir::build_op(before, "ttg.local_alloc", &[], &[ty], &[], loc),
        0,
    );
    for i in 0..count {
        let index = ir::build_constant(before, loc, i32t, i);
        let view = ir::result(buffer_view(before, alloc, index, loc), 0);
        ir::build_op(
            before,
            "ttng.init_barrier",
            &[view],
            &[],
            &[("count", ir::integer_attr(i32t, arrivals))],
            loc,
        );
    }
    alloc
}

/// Triton's `createBarrierAlloc`: `count` mbarriers (one arrival each)
/// initialised before `for_op`, invalidated and freed after it.
pub(crate) fn barrier_alloc(for_op: MlirOperation, count: i64) -> MlirValue {
    let loc = ir::location(for_op);
    let i32t = ir::i32_type(ir::context(for_op));
    let alloc = init_barriers(for_op, count, 1);
    // After the loop, each op after the one created before it.
    let mut after = for_op;
    let mut place = |op: MlirOperation| {
        ir::insert_after(after, op);
        after = op;
    };
    for i in 0..count {
        let index = ir::create_op(
            "arith.constant",
            loc,
            &[],
            &[i32t],
            &[("value", ir::integer_attr(i32t, i))],
            Vec::new(),
        );
        place(index);
        let view = buffer_view_op(alloc, ir::result(index, 0), loc);
        place(view);
        place(ir::create_op(
            "ttng.inval_barrier",
            loc,
            &[ir::result(view, 0)],
            &[],
            &[],
            Vec::new(),
        ));
    }
    place(ir::create_op(
        "ttg.local_dealloc",
        loc,
        &[alloc],
        &[],
        &[],
        Vec::new(),
    ));
    alloc
}

/// Triton's `createTMABarrierAndWait`: consecutive TMA loads of the same
/// buffer count and schedule, with no reader between them, share an
/// mbarrier; each group expects its bytes before its first load and waits
/// after its last one. Returns each load's barrier view and wait.
fn tma_barriers(
    for_op: MlirOperation,
    loads: &[AsyncLoad],
    counters: &HashMap<i64, Counters>,
) -> HashMap<Op, (MlirValue, MlirOperation)> {
    let body = pl::body(for_op);
    let planned = |op: MlirOperation| loads.iter().find(|l| l.tma && l.load.ptr == op.ptr);
    let mut visited: Vec<Op> = Vec::new();
    let mut groups: Vec<Vec<MlirOperation>> = Vec::new();
    for l in loads.iter().filter(|l| l.tma) {
        if visited.contains(&Op(l.load)) {
            continue;
        }
        let mut users: Vec<Op> = Vec::new();
        let mut group = Vec::new();
        let add = |load: MlirOperation,
                   group: &mut Vec<MlirOperation>,
                   users: &mut Vec<Op>,
                   visited: &mut Vec<Op>| {
            group.push(load);
            visited.push(Op(load));
            let value = ir::result(load, 0);
            let uses = ir::uses(value);
            let through_alloc = match uses[..] {
                [(alloc, _)] if needs_no_registers(load) && ir::op_block(alloc).ptr == body.ptr => {
                    Some(alloc)
                }
                _ => None,
            };
            match through_alloc {
                Some(alloc) => users.extend(
                    ir::uses(ir::result(alloc, 0))
                        .into_iter()
                        .map(|(u, _)| Op(u)),
                ),
                None => users.extend(
                    uses.into_iter()
                        .filter_map(|(u, _)| pl::ancestor_in_block(body, u))
                        .map(Op),
                ),
            }
        };
        add(l.load, &mut group, &mut users, &mut visited);
        let ops = ir::block_ops(body);
        let start = ops
            .iter()
            .position(|o| o.ptr == l.load.ptr)
            .unwrap_or(ops.len());
        for &next in &ops[start + 1..] {
            if users.contains(&Op(next)) || visited.contains(&Op(next)) {
                break;
            }
            if let Some(other) = planned(next) {
                if other.buffers != l.buffers {
                    break;
                }
                if schedule_of(group[0]) == schedule_of(next) {
                    add(next, &mut group, &mut users, &mut visited);
                }
            }
        }
        groups.push(group);
    }
    let mut out = HashMap::new();
    for group in groups {
        let first = planned(group[0]).expect("groups hold planned loads");
        let c = counters[&first.buffers];
        let bytes: i64 = group
            .iter()
            .map(|&op| {
                // SAFETY: the type of a live value.
                let t = tt_dialect::types::Tensor::of(unsafe {
                    Type::from_raw(ir::value_type(ir::result(op, 0)))
                })
                .expect("descriptor loads give tensors");
                let bits = i64::from(tt_dialect::types::bit_width(t.element).unwrap_or(8));
                t.shape.iter().product::<i64>() * bits / 8
            })
            .sum();
        let alloc = barrier_alloc(for_op, first.buffers);
        let ctx = ir::context(for_op);
        let loc = ir::location(for_op);
        let at = schedule_of(group[0]);
        let view = buffer_view(group[0], alloc, c.insert, loc);
        set_schedule(view, at);
        let yes = ir::build_constant(group[0], loc, ir::i1_type(ctx), 1);
        set_schedule(ir::defining_op(yes).expect("a constant op"), at);
        let expect = ir::build_op(
            group[0],
            "ttng.barrier_expect",
            &[ir::result(view, 0), yes],
            &[],
            &[("size", ir::integer_attr(ir::i32_type(ctx), bytes))],
            loc,
        );
        set_schedule(expect, at);
        let last = *group.last().expect("groups are not empty");
        let use_at = schedule_of(first_use_of(&group, for_op).expect("planned loads have users"));
        let next = next_op(last).expect("a body op before the yield");
        let wait_view = buffer_view(next, alloc, c.extract, loc);
        set_schedule(wait_view, use_at);
        let phase = c.phase.expect("groups with TMA loads carry a phase");
        let wait = ir::build_op(
            next,
            "ttng.wait_barrier",
            &[ir::result(wait_view, 0), phase],
            &[],
            &[(
                "operandSegmentSizes",
                ir::dense_i32_array_attr(ctx, &[1, 1, 0, 0]),
            )],
            loc,
        );
        set_schedule(wait, use_at);
        for op in group {
            out.insert(Op(op), (ir::result(view, 0), wait));
        }
    }
    out
}

/// Triton's `!mustLoadToRegisters` for a TMA load: its only user is a
/// `ttg.local_alloc` in the descriptor's encoding.
fn needs_no_registers(load: MlirOperation) -> bool {
    let uses = ir::uses(ir::result(load, 0));
    let [(alloc, _)] = uses[..] else {
        return false;
    };
    ir::is(alloc, "ttg.local_alloc")
        && match (
            descriptor_encoding(load),
            pl::encoding_of(ir::value_type(ir::result(alloc, 0))),
        ) {
            (Some(d), Some(a)) => ir::same_attribute(d, a),
            _ => false,
        }
}

/// Triton's `createTMAAsyncLoad`: the load becomes a TMA copy into the
/// insert buffer completing on `barrier`; its readers read the extract
/// buffer after `wait`.
fn tma_copy(
    for_op: MlirOperation,
    l: &AsyncLoad,
    alloc: MlirValue,
    c: Counters,
    barrier: MlirValue,
    wait: MlirOperation,
) {
    let ctx = ir::context(for_op);
    let load = l.load;
    let first = first_use(load, for_op).expect("planned loads have users");
    let load_at = schedule_of(load);
    let use_at = schedule_of(first);
    let loc = ir::location(load);
    let view = buffer_view(load, alloc, c.insert, loc);
    set_schedule(view, load_at);
    let yes = ir::build_constant(load, loc, ir::i1_type(ctx), 1);
    set_schedule(ir::defining_op(yes).expect("a constant op"), load_at);
    let operands = ir::operands(load);
    let (desc, coords) = operands
        .split_first()
        .expect("a descriptor load has a descriptor");
    let mut copy_operands = vec![*desc];
    copy_operands.extend(coords);
    copy_operands.extend([barrier, ir::result(view, 0), yes]);
    let copy = ir::build_op(
        load,
        if ir::is(load, "tt.descriptor_gather") {
            "ttng.async_tma_gather"
        } else {
            "ttng.async_tma_copy_global_to_local"
        },
        &copy_operands,
        &[],
        &[],
        loc,
    );
    set_schedule(copy, load_at);
    let after_wait = next_op(wait).expect("the wait is not the terminator");
    let read = buffer_view(after_wait, alloc, c.extract, loc);
    set_schedule(read, use_at);
    let value = ir::result(load, 0);
    for (user, _) in ir::uses(value) {
        if ir::is(user, "ttg.local_alloc")
            && pl::encoding_of(ir::value_type(ir::result(user, 0)))
                .is_some_and(|e| ir::same_attribute(e, l.shared))
        {
            replace_and_propagate(ir::result(user, 0), ir::result(read, 0), use_at);
            ir::erase(user);
        }
    }
    if ir::has_uses(value) {
        let ty = ir::value_type(value);
        let local = ir::build_op(
            after_wait,
            "ttg.local_load",
            &[ir::result(read, 0)],
            &[ty],
            &[],
            loc,
        );
        set_schedule(local, use_at);
        ir::replace_all_uses(value, ir::result(local, 0));
    }
    ir::erase(load);
}

fn float_width(ty: MlirType) -> Option<u32> {
    // SAFETY: a live type, read as a float only when it is one.
    unsafe { mlir_sys::mlirTypeIsAFloat(ty).then(|| mlir_sys::mlirFloatTypeGetWidth(ty)) }
}

/// Triton's `convertScalarToTensorLoad`: the scalar `load` reads a
/// one-element tensor (pointer, mask and `other` splat to it, in the
/// default blocked layout) and a `tt.unsplat` in its first user's stage
/// gives its readers the scalar back.
fn scalar_to_tensor(for_op: MlirOperation, load: MlirOperation) {
    let ctx = ir::context(load);
    let warps = ir::module_int(load, "ttg.num-warps").unwrap_or(4);
    let lanes = ir::module_int(load, "ttg.threads-per-warp").unwrap_or(32);
    let enc = ir::parse_attribute(
        ctx,
        &format!(
            "#ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [{lanes}], warpsPerCTA = [{warps}], order = [0]}}>"
        ),
    )
    .expect("the default blocked encoding parses");
    let one = |element: MlirType| -> MlirType {
        // SAFETY: a live element type and encoding; the shape is read
        // during the call.
        unsafe { mlir_sys::mlirRankedTensorTypeGet(1, [1i64].as_ptr(), element, enc) }
    };
    let schedule = schedule_of(load);
    let loc = ir::location(load);
    for segment in 0..3 {
        let Some(v) = pl::optional_operand(load, segment) else {
            continue;
        };
        let splat = ir::build_op(load, "tt.splat", &[v], &[one(ir::value_type(v))], &[], loc);
        set_schedule(splat, schedule);
        pl::set_optional_operand(load, segment, ir::result(splat, 0));
    }
    let value = ir::result(load, 0);
    let scalar_ty = ir::value_type(value);
    // SAFETY: the load is live; its users read the unsplat below instead.
    unsafe { mlir_sys::mlirValueSetType(value, one(scalar_ty)) };
    let first = first_use(load, for_op).expect("planned loads have users");
    let unsplat = ir::create_op("tt.unsplat", loc, &[value], &[scalar_ty], &[], Vec::new());
    ir::insert_after(load, unsplat);
    set_schedule(unsplat, schedule_of(first));
    for (user, index) in ir::uses(value) {
        if user.ptr != unsplat.ptr {
            ir::set_operand(user, index, ir::result(unsplat, 0));
        }
    }
}

/// Triton's `createAsyncCopy`.
fn async_copy(
    for_op: MlirOperation,
    l: &AsyncLoad,
    alloc: MlirValue,
    insert: MlirValue,
    extract: MlirValue,
) {
    let ctx = ir::context(for_op);
    let i32t = ir::i32_type(ctx);
    let load = l.load;
    ir::build_constant(for_op, ir::location(for_op), i32t, 0);
    let first = first_use(load, for_op).expect("planned loads have users");
    let load_schedule = schedule_of(load);
    let use_schedule = schedule_of(first);
    let loc = ir::location(load);
    let ty = ir::value_type(ir::result(load, 0));
    let view_ty = memdesc_type(ctx, &[], ty, l.shared);
    let token = ir::parse_type(ctx, "!ttg.async.token").expect("the token type parses");
    let ptr = ir::operand(load, 0);
    let mask = pl::optional_operand(load, 1);
    let other = pl::optional_operand(load, 2);
    let view = ir::build_op(
        load,
        "ttg.memdesc_index",
        &[alloc, insert],
        &[view_ty],
        &[],
        loc,
    );
    set_schedule(view, load_schedule);
    let mut operands = vec![ptr, ir::result(view, 0)];
    operands.extend(mask);
    operands.extend(other);
    let segments = [1, 1, i32::from(mask.is_some()), i32::from(other.is_some())];
    let mut attributes = vec![
        (
            "operandSegmentSizes",
            ir::dense_i32_array_attr(ctx, &segments),
        ),
        (
            "contiguity",
            ir::integer_attr(i32t, i64::from(l.contiguity)),
        ),
    ];
    for name in ["cache", "evict", "isVolatile"] {
        if let Some(a) = ir::attribute(load, name) {
            attributes.push((name, a));
        }
    }
    let copy = ir::build_op(
        load,
        "ttg.async_copy_global_to_local",
        &operands,
        &[token],
        &attributes,
        loc,
    );
    set_schedule(copy, load_schedule);
    let commit = ir::build_op(
        load,
        "ttg.async_commit_group",
        &[ir::result(copy, 0)],
        &[token],
        &[],
        loc,
    );
    set_schedule(commit, load_schedule);
    let wait = ir::build_op(
        load,
        "ttg.async_wait",
        &[ir::result(commit, 0)],
        &[token],
        &[("num", ir::integer_attr(i32t, 0))],
        loc,
    );
    set_schedule(wait, use_schedule);
    let read = ir::build_op(
        load,
        "ttg.memdesc_index",
        &[alloc, extract],
        &[view_ty],
        &[],
        loc,
    );
    set_schedule(read, use_schedule);
    let value = ir::result(load, 0);
    if other.is_none_or(is_zero_constant) {
        for (user, _) in ir::uses(value) {
            if ir::is(user, "ttg.local_alloc")
                && pl::encoding_of(ir::value_type(ir::result(user, 0)))
                    .is_some_and(|e| ir::same_attribute(e, l.shared))
            {
                replace_and_propagate(ir::result(user, 0), ir::result(read, 0), use_schedule);
                ir::erase(user);
            }
        }
    }
    if ir::has_uses(value) {
        let local = ir::build_op(
            load,
            "ttg.local_load",
            &[ir::result(read, 0), ir::result(wait, 0)],
            &[ty],
            &[],
            loc,
        );
        set_schedule(local, use_schedule);
        let mut result = ir::result(local, 0);
        if let (Some(other), Some(mask)) = (other, mask) {
            if !is_zero_constant(other) {
                let select = ir::build_op(
                    load,
                    "arith.select",
                    &[mask, result, other],
                    &[ty],
                    &[],
                    loc,
                );
                set_schedule(select, use_schedule);
                result = ir::result(select, 0);
            }
        }
        ir::replace_all_uses(value, result);
    }
    ir::erase(load);
}

/// Triton's `scheduleDependencies`: stage by stage, the unscheduled body
/// ops a scheduled op reads take its stage and cluster (or an earlier one
/// they already had).
pub(crate) fn schedule_dependencies(for_op: MlirOperation) {
    let body = pl::body(for_op);
    let mut ordered: Vec<(i64, usize, MlirOperation)> = pl::body_ops(for_op)
        .into_iter()
        .enumerate()
        .filter_map(|(i, op)| cluster(op).map(|c| (c, i, op)))
        .collect();
    ordered.sort_by_key(|&(c, i, _)| (c, i));
    let max = ordered
        .iter()
        .filter_map(|&(_, _, op)| stage(op))
        .max()
        .unwrap_or(0);
    let snapshot: Vec<(MlirOperation, (i64, i64))> = ordered
        .iter()
        .map(|&(_, _, op)| (op, schedule_of(op)))
        .collect();
    for s in 0..=max {
        for &(op, (stage_, cluster_)) in &snapshot {
            if stage_ == s {
                insert_deps(op, body, (stage_, cluster_));
            }
        }
    }
}

fn insert_deps(op: MlirOperation, body: mlir_sys::MlirBlock, at: (i64, i64)) {
    let mut operands = Vec::new();
    ir::walk_pre(op, &mut |n| operands.extend(ir::operands(n)));
    let mut seen: Vec<Op> = Vec::new();
    for v in operands {
        let Some(def) = ir::defining_op(v) else {
            continue;
        };
        if ir::op_block(def).ptr != body.ptr || seen.contains(&Op(def)) {
            continue;
        }
        seen.push(Op(def));
        let earlier = match (stage(def), cluster(def)) {
            (Some(s), Some(c)) => at < (s, c),
            _ => true,
        };
        if earlier {
            set_schedule(def, at);
            insert_deps(def, body, at);
        }
    }
}

/// Triton's `lowerLoop` alone (the test pass): the schedule's clusters
/// are renumbered from 0, the MMAs and loads of `for_op` are lowered, its
/// tensor descriptors multi-buffered, and the loop's highest stage
/// updated.
pub fn lower_loop(for_op: MlirOperation, axis: &AxisInfoMap) -> Result<MlirOperation, Failure> {
    normalize_clusters(for_op);
    let for_op = crate::ttgir::pipeline_mma::lower_mmas(for_op)?;
    let loads = plan_loads(for_op, axis)?;
    let for_op = lower(for_op, &loads);
    let stages = pl::int_attribute(for_op, pl::SCHEDULED_MAX_STAGE).unwrap_or(0) + 1;
    let for_op = crate::ttgir::pipeline_tma_stores::lower_tma_descriptors(for_op, stages);
    let max = pl::body_ops(for_op)
        .into_iter()
        .filter_map(stage)
        .max()
        .unwrap_or(0);
    if max > stages - 1 {
        pl::set_i32(for_op, pl::SCHEDULED_MAX_STAGE, max);
    }
    Ok(for_op)
}

/// The clusters of `for_op`'s schedule counted from the lowest one.
fn normalize_clusters(for_op: MlirOperation) {
    let ops: Vec<MlirOperation> = pl::body_ops(for_op)
        .into_iter()
        .filter(|&op| stage(op).is_some() && cluster(op).is_some())
        .collect();
    let Some(min) = ops.iter().filter_map(|&op| cluster(op)).min() else {
        return;
    };
    if min != 0 {
        for op in ops {
            pl::set_i32(op, CLUSTER, cluster(op).unwrap_or(0) - min);
        }
    }
}
