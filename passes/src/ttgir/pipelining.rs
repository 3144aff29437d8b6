//! Helpers shared by the software-pipelining passes
//! (`tritongpu-assign-latencies`, `tritongpu-schedule-loops`,
//! `tritongpu-pipeline`, `tritongpu-coalesce-async-copy`): the loop
//! preconditions of Triton's `PipeliningUtility`, nested operands, copy
//! widths into shared memory, and the attribute names the passes
//! communicate through.

use melior::ir::Type;
use mlir_sys::{MlirAttribute, MlirBlock, MlirOperation, MlirType, MlirValue};
use ttg_dialect::layout::{dot_operand_swizzle, Layout};

use crate::ttir::loop_support::ir;

/// A loop's own stage count (overrides the pass option).
pub const NUM_STAGES: &str = "tt.num_stages";
/// The latency `assign-latencies` gives an op.
pub const LATENCY: &str = "tt.latency";
/// An op's stage in the coarse schedule.
pub const STAGE: &str = "loop.stage";
/// An op's cluster in the coarse schedule.
pub const CLUSTER: &str = "loop.cluster";
/// The loop's highest stage, written by `schedule-loops`.
pub const SCHEDULED_MAX_STAGE: &str = "tt.scheduled_max_stage";

/// The ops that Triton's `DotOpInterface` covers (sm_90 and Blackwell).
const DOT_LIKE: &[&str] = &[
    "tt.dot",
    "tt.dot_scaled",
    "ttng.warp_group_dot",
    "ttng.tc_gen5_mma",
    "ttng.tc_gen5_mma_scaled",
];

/// Whether `op` is dot-like (`DotOpInterface`).
pub fn is_dot_like(op: MlirOperation) -> bool {
    DOT_LIKE.iter().any(|name| ir::is(op, name))
}

/// The single block of an `scf.for`'s body.
pub fn body(for_op: MlirOperation) -> MlirBlock {
    ir::blocks(ir::regions(for_op)[0])[0]
}

/// The body's ops without the terminator, in order.
pub fn body_ops(for_op: MlirOperation) -> Vec<MlirOperation> {
    ir::block_ops(body(for_op))
        .into_iter()
        .filter(|&op| !ir::is_terminator(op))
        .collect()
}

/// Whether `op` is a Blackwell MMAv5 op (`MMAv5OpInterface`).
pub fn is_mmav5(op: MlirOperation) -> bool {
    ir::is(op, "ttng.tc_gen5_mma") || ir::is(op, "ttng.tc_gen5_mma_scaled")
}

/// The body's `scf.yield`.
pub fn terminator(for_op: MlirOperation) -> MlirOperation {
    ir::terminator(body(for_op)).expect("scf.for has a terminator")
}

/// Triton's `loopHasDistGreaterThanOne`: some yielded value is not defined
/// by an op (a block argument yielded as is).
pub fn loop_has_dist_greater_than_one(for_op: MlirOperation) -> bool {
    ir::operands(terminator(for_op))
        .into_iter()
        .any(|v| ir::defining_op(v).is_none())
}

/// Triton's `isOuterLoop`: the body holds an `scf.for` or `scf.while`.
pub fn is_outer_loop(for_op: MlirOperation) -> bool {
    ir::block_ops(body(for_op))
        .into_iter()
        .any(|op| ir::is(op, "scf.for") || ir::is(op, "scf.while"))
}

/// Every `scf.for` in `root`, post-order (MLIR's walk order).
pub fn for_loops(root: MlirOperation) -> Vec<MlirOperation> {
    ir::collect_post(root, &|op| ir::is(op, "scf.for"))
}

/// Triton's `getNestedOperands`: the operands of `op` and of the ops nested
/// in it that are defined above `op`, in walk order.
pub fn nested_operands(op: MlirOperation) -> Vec<MlirValue> {
    let mut values = Vec::new();
    ir::walk_pre(op, &mut |nested| {
        for v in ir::operands(nested) {
            let defined_above = ir::block_parent_op(ir::value_block(v))
                .is_some_and(|parent| parent.ptr != op.ptr && ir::is_ancestor(parent, op));
            if defined_above {
                values.push(v);
            }
        }
    });
    values
}

/// The ancestor of `op` (or `op`) whose block is `block`.
pub fn ancestor_in_block(block: MlirBlock, op: MlirOperation) -> Option<MlirOperation> {
    let mut current = Some(op);
    while let Some(c) = current {
        if ir::op_block(c).ptr == block.ptr {
            return Some(c);
        }
        current = ir::parent_op(c);
    }
    None
}

/// The integer value of `op`'s attribute `name`.
pub fn int_attribute(op: MlirOperation, name: &str) -> Option<i64> {
    ir::attribute(op, name).and_then(ir::integer_attr_value)
}

/// The loop's stage count (Triton's `getNumStagesOrDefault`): its
/// `tt.num_stages`, else `default` (the pass's option).
pub fn num_stages_or_default(for_op: MlirOperation, default: i64) -> i64 {
    int_attribute(for_op, NUM_STAGES).unwrap_or(default)
}

/// Sets `op`'s attribute `name` to an `i32` integer.
pub fn set_i32(op: MlirOperation, name: &str, value: i64) {
    let ty = ir::i32_type(ir::context(op));
    ir::set_attribute(op, name, ir::integer_attr(ty, value));
}

/// A tensor value's register order and per-thread contiguity (Triton's
/// linear encoding `getOrder` / `getContigPerThread`).
pub fn order_and_contig(v: MlirValue) -> Option<(Vec<u32>, Vec<u32>)> {
    // SAFETY: `v` is a live value; its type belongs to the context.
    let ty = unsafe { melior::ir::Type::from_raw(ir::value_type(v)) };
    let tensor = tt_dialect::types::Tensor::of(ty)?;
    let layout = Layout::read(tensor.encoding?)?;
    let linear = ttg_dialect::to_linear::to_linear_layout(&layout, &tensor.shape).ok()?;
    Some((linear.default_order("register"), linear.contig_per_thread()))
}

/// How many elements of a thread's registers in `value` land contiguously
/// in the shared encoding `shared` (`regLayout.invertAndCompose(shared)`'s
/// consecutive run): the register contiguity along the shared layout's
/// contiguous dimension, capped by what the encoding keeps contiguous
/// (16-byte chunks for NVMMA layouts, `vec` elements for swizzled ones,
/// whole rows without swizzling), 1 where the registers run along another
/// dimension. `None` for other encodings.
pub fn copy_vec_elements(value: MlirValue, shared: MlirAttribute) -> Option<u32> {
    // SAFETY: `value` is live; types and attributes belong to the context.
    let ty = unsafe { melior::ir::Type::from_raw(ir::value_type(value)) };
    let tensor = tt_dialect::types::Tensor::of(ty)?;
    let bytes = (tt_dialect::types::bit_width(tensor.element)? / 8).max(1);
    // SAFETY: as above.
    let layout = Layout::read(unsafe { melior::ir::Attribute::from_raw(shared) })?;
    let rank = tensor.shape.len();
    let (dim, contiguous) = match layout {
        Layout::NvmmaShared { transposed, .. } => {
            let dim = if transposed {
                rank.checked_sub(2)?
            } else {
                rank - 1
            };
            (dim, i64::from((16 / bytes).max(1)))
        }
        Layout::SwizzledShared {
            vec,
            max_phase,
            order,
            ..
        } => {
            let dim = *order.first()? as usize;
            let row = *tensor.shape.get(dim)?;
            (dim, if max_phase == 1 { row } else { i64::from(vec) })
        }
        _ => return None,
    };
    let (order, contig) = order_and_contig(value)?;
    let in_registers = if order.first() == Some(&(dim as u32)) {
        i64::from(*contig.get(dim)?)
    } else {
        1
    };
    Some(in_registers.min(contiguous) as u32)
}

/// `getCopyVecBytes`: [`copy_vec_elements`] in bytes.
pub fn copy_vec_bytes(value: MlirValue, shared: MlirAttribute) -> Option<u32> {
    // SAFETY: `value` is live; its type belongs to the context.
    let ty = unsafe { melior::ir::Type::from_raw(ir::value_type(value)) };
    let element = tt_dialect::types::Tensor::of(ty)?.element;
    let bytes = (tt_dialect::types::bit_width(element)? / 8).max(1);
    Some(copy_vec_elements(value, shared)? * bytes)
}

/// A new `scf.for` before `old` with `old`'s bounds and attributes, the
/// given initial values and an empty body ending in an empty yield.
pub fn new_for_like(old: MlirOperation, inits: &[MlirValue]) -> MlirOperation {
    use crate::ttir::loop_support::scf;
    let attributes: Vec<(String, MlirAttribute)> = ir::attributes(old);
    let named: Vec<(&str, MlirAttribute)> =
        attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    scf::build_for(
        old,
        ir::location(old),
        [scf::lower_bound(old), scf::upper_bound(old), scf::step(old)],
        inits,
        &named,
    )
}

/// `op`'s operand segment sizes (`operandSegmentSizes`), if it has them.
fn segment_sizes(op: MlirOperation) -> Option<Vec<i32>> {
    ir::attribute(op, "operandSegmentSizes").and_then(ir::dense_i32_array)
}

/// Where the operands of group `segment` start and how many there are:
/// from `operandSegmentSizes`, or, for an op without it, one operand per
/// group with the last group optional (`tt.store`'s mask).
fn segment_range(op: MlirOperation, segment: usize) -> (usize, usize) {
    match segment_sizes(op) {
        Some(sizes) => {
            let start = sizes[..segment].iter().map(|&s| s as usize).sum();
            (start, sizes[segment] as usize)
        }
        None => (segment, usize::from(ir::operand_count(op) > segment)),
    }
}

/// The operand group of an MMAv5 op's accumulator buffer `d` (after `a`,
/// `b`).
pub const MMA_V5_D: usize = 2;

/// The operand group of an MMAv5 op's `useD` flag: after `d`, the optional
/// token and (scaled) `a_scale`, `b_scale`.
pub fn mma_v5_use_d_segment(mma: MlirOperation) -> usize {
    if ir::is(mma, "ttng.tc_gen5_mma_scaled") {
        6
    } else {
        4
    }
}

/// The value of `op`'s optional operand group `segment` (a mask or an
/// `other`), if present.
pub fn optional_operand(op: MlirOperation, segment: usize) -> Option<MlirValue> {
    let (start, len) = segment_range(op, segment);
    (len == 1).then(|| ir::operand(op, start))
}

/// Sets `op`'s optional operand group `segment` to `value`, adding it when
/// absent.
pub fn set_optional_operand(op: MlirOperation, segment: usize, value: MlirValue) {
    let (start, len) = segment_range(op, segment);
    if len == 1 {
        ir::set_operand(op, start, value);
        return;
    }
    let mut operands = ir::operands(op);
    operands.insert(start, value);
    // SAFETY: `op` is live; the new operand list is read during the call.
    unsafe { mlir_sys::mlirOperationSetOperands(op, operands.len() as isize, operands.as_ptr()) };
    if let Some(mut sizes) = segment_sizes(op) {
        sizes[segment] = 1;
        let attr = ir::dense_i32_array_attr(ir::context(op), &sizes);
        ir::set_attribute(op, "operandSegmentSizes", attr);
    }
}

/// Whether `ty` is a ranked tensor.
pub fn is_ranked_tensor(ty: MlirType) -> bool {
    // SAFETY: a live type.
    unsafe { mlir_sys::mlirTypeIsARankedTensor(ty) }
}

/// The encoding of a memory descriptor or tensor type.
pub fn encoding_of(ty: MlirType) -> Option<MlirAttribute> {
    // SAFETY: a live type; read as a tensor or a memdesc only when it is
    // one.
    let ty = unsafe { Type::from_raw(ty) };
    if let Some(t) = tt_dialect::types::Tensor::of(ty) {
        return t
            .encoding
            .map(|e| melior::ir::attribute::AttributeLike::to_raw(&e));
    }
    ttg_dialect::layout::MemDesc::of(ty)
        .map(|m| melior::ir::attribute::AttributeLike::to_raw(&m.encoding))
}

/// Whether `ty` is a memory descriptor.
pub fn is_memdesc(ty: MlirType) -> bool {
    // SAFETY: a live type.
    ttg_dialect::layout::MemDesc::of(unsafe { Type::from_raw(ty) }).is_some()
}

/// `#ttg.swizzled_shared<...>` with the given parameters.
pub fn swizzled(
    ctx: mlir_sys::MlirContext,
    (vec, per, max): (u32, u32, u32),
    order: &[u32],
) -> Option<MlirAttribute> {
    let order: Vec<String> = order.iter().map(u32::to_string).collect();
    ir::parse_attribute(
        ctx,
        &format!(
            "#ttg.swizzled_shared<{{vec = {vec}, perPhase = {per}, maxPhase = {max}, order = [{}]}}>",
            order.join(", ")
        ),
    )
}

/// A tensor's or memory descriptor's shape, its order in memory
/// (`getOrderForMemory`: a distributed layout's memory order, a shared
/// encoding's own order) and its element type.
fn memory_view(value: MlirValue) -> Option<(Vec<i64>, Vec<u32>, Type<'static>)> {
    // SAFETY: a live value's type.
    let ty = unsafe { Type::from_raw(ir::value_type(value)) };
    if let Some(tensor) = tt_dialect::types::Tensor::of(ty) {
        let layout = ir::tensor_layout(value)?;
        let linear = ttg_dialect::to_linear::to_linear_layout(&layout, &tensor.shape).ok()?;
        return Some((
            tensor.shape.to_vec(),
            linear.order_for_memory(),
            tensor.element,
        ));
    }
    let memdesc = ttg_dialect::layout::MemDesc::of(ty)?;
    let rank = memdesc.shape.len();
    let order = match Layout::read(memdesc.encoding)? {
        Layout::SwizzledShared { order, .. } => order,
        Layout::NvmmaShared { transposed, .. } if rank >= 2 => {
            let mut order: Vec<u32> = (0..rank as u32).rev().collect();
            if transposed {
                order.swap(0, 1);
            }
            order
        }
        _ => return None,
    };
    Some((memdesc.shape.clone(), order, memdesc.element))
}

/// Triton's `getSharedEncIfAllUsersAreDotEnc`: the swizzled encoding every
/// dot-operand user of `value` needs (through memory-descriptor users,
/// whose own encodings count), if they all agree and there are no other
/// users. `incompatible` is set where two users need different encodings.
pub fn dot_users_shared_encoding(
    value: MlirValue,
    incompatible: &mut bool,
) -> Option<MlirAttribute> {
    let mut found: Option<MlirAttribute> = None;
    for (user, _) in ir::uses(value) {
        if ir::result_count(user) != 1 {
            return None;
        }
        let result = ir::result(user, 0);
        let this = if is_memdesc(ir::value_type(result)) {
            dot_users_shared_encoding(result, incompatible)?;
            encoding_of(ir::value_type(result))?
        } else {
            if !ir::is(user, "ttg.local_load") && !ir::is(user, "ttg.convert_layout") {
                return None;
            }
            // A dot operand, or one transposed right after (`tt.trans` of
            // the converted value): then the swizzle is chosen for the
            // tensor before the transpose.
            let (dot_layout, need_trans) = match ir::tensor_layout(result) {
                Some(l @ Layout::DotOperand { .. }) => (l, false),
                _ => match ir::uses(result)[..] {
                    [(trans, _)] if ir::is(trans, "tt.trans") => {
                        (ir::tensor_layout(ir::result(trans, 0))?, true)
                    }
                    _ => return None,
                },
            };
            let Layout::DotOperand {
                op_idx,
                k_width,
                parent,
            } = dot_layout
            else {
                return None;
            };
            // SAFETY: a live value's type.
            let (shape, order, element) = memory_view(value)?;
            let shared_order: Vec<u32> = if order.len() == 3 {
                let mut o: Vec<u32> = order.iter().copied().filter(|&d| d != 0).collect();
                o.push(0);
                o
            } else {
                order
            };
            let bits = tt_dialect::types::bit_width(element)?;
            let params = match parent.as_deref() {
                Some(Layout::NvidiaMma {
                    version_major: 2 | 3,
                    ..
                }) => {
                    if need_trans && shape.len() != 2 {
                        return None;
                    }
                    dot_operand_swizzle(op_idx, k_width, &shape, &shared_order, bits, need_trans)
                }
                _ => (1, 1, 1),
            };
            swizzled(ir::context(user), params, &shared_order)?
        };
        if found.is_some_and(|f| !ir::same_attribute(f, this)) {
            *incompatible = true;
            return None;
        }
        found = Some(this);
    }
    found
}

/// What Triton's `MMAv5PipelineableOperandsHelper` finds of a tcgen05
/// MMA's shared operands: whether each one's state is known, whether all
/// can be pipelined, and the defs of those that cannot.
pub struct MmaOperandState {
    pub determined: bool,
    pub pipelineable: bool,
    pub unpipelineable: Vec<MlirOperation>,
}

/// [`MmaOperandState`] of the operands `values` (A and B, then the two
/// scales of a scaled MMA) of an MMA in `for_op`. `load_ready(load,
/// alloc, tma)` says whether a load that `alloc` copies to shared memory
/// (a TMA load when `tma`) will be pipelined ahead of the MMA: the passes
/// ask it at different points (from latencies, or from stages).
pub fn mma_operand_state(
    for_op: MlirOperation,
    values: &[MlirValue],
    load_ready: &dyn Fn(MlirOperation, MlirOperation, bool) -> bool,
) -> MmaOperandState {
    let mut state = MmaOperandState {
        determined: true,
        pipelineable: false,
        unpipelineable: Vec::new(),
    };
    for &v in values {
        let mut found = None;
        if !mma_operand_pipelineable(for_op, v, load_ready, &mut found) {
            match found {
                Some(def) => state.unpipelineable.push(def),
                None => state.determined = false,
            }
        }
    }
    state.pipelineable = state.determined && state.unpipelineable.is_empty();
    state
}

/// Triton's `isOperandPipelineableBase` for an MMA operand: defined
/// outside the loop, or (through transposes and reshapes) a
/// `ttg.local_alloc` of a value from outside the loop or of a load that
/// `load_ready` accepts. `found` is the def the walk stopped at, if any.
fn mma_operand_pipelineable(
    for_op: MlirOperation,
    v: MlirValue,
    load_ready: &dyn Fn(MlirOperation, MlirOperation, bool) -> bool,
    found: &mut Option<MlirOperation>,
) -> bool {
    if ir::defined_outside(for_op, v) {
        return true;
    }
    let Some(mut def) = ir::defining_op(v) else {
        return false;
    };
    while ir::is(def, "ttg.memdesc_trans") || ir::is(def, "ttg.memdesc_reshape") {
        match ir::defining_op(ir::operand(def, 0)) {
            Some(d) => def = d,
            None => return false,
        }
    }
    if ["ttg.local_store", "ttng.tmem_store", "ttng.tmem_alloc"]
        .iter()
        .any(|name| ir::is(def, name))
    {
        *found = Some(def);
        return false;
    }
    if !ir::is(def, "ttg.local_alloc") {
        return false;
    }
    *found = Some(def);
    if ir::operand_count(def) == 0 {
        return false;
    }
    let src = ir::operand(def, 0);
    if ir::defined_outside(for_op, src) {
        return true;
    }
    let Some(load) = ir::defining_op(src) else {
        return false;
    };
    let tma = ir::is(load, "tt.descriptor_load") || ir::is(load, "tt.descriptor_gather");
    if !tma && !ir::is(load, "tt.load") {
        return false;
    }
    *found = Some(load);
    load_ready(load, def, tma)
}
