//! `tritongpu-optimize-thread-locality`: Triton 3.6's pass that keeps
//! reductions inside a thread where it can. It has three parts.
//!
//! - **Reshape layouts** (implemented): through MLIR's greedy driver (which
//!   also folds and drops dead ops, as Triton's does), a `tt.reshape` with
//!   `allow_reorder` whose `tt.reduce` users all reduce along one axis gets
//!   Triton's default blocked layout for its shape (one element per thread)
//!   with that axis made the slowest in the order. This happens unless its
//!   blocked layout already keeps the axis in one thread, warp and CTA, the
//!   new layout equals the old, or the view would become expensive
//!   (`isExpensiveView`: the free-variable masks or the elements per thread
//!   differ). The reshape is then marked `efficient_layout`, and a
//!   `ttg.convert_layout` back to the old type feeds its previous users.
//! - **Gather layouts** (implemented, same driver): a `tt.gather` of rank > 1
//!   without `efficient_layout` gets 3.6's warp-local blocked layout. The
//!   gather axis is fastest, with up to a warp of lanes along it; the other
//!   lanes go to the other dimensions in thread order, warps in warp order,
//!   and the remainder goes back to the gather axis. `sizePerThread` along
//!   the axis comes from the source's extent only, and wide indices are not
//!   truncated (both changed after 3.6). Source and indices convert to the
//!   new layout, the gather is marked `efficient_layout`, and its result
//!   converts back. Triton reads the thread and warp orders from the linear
//!   form of the source layout, but its own tests expect the blocked `order`
//!   where a dimension's lanes only broadcast. Where those two readings give
//!   different layouts, the pass refuses the gather with a located error
//!   instead of guessing. It also refuses where Triton's asserts would fail.
//! - **Loop-carried reductions** (implemented, after the driver): a
//!   `tt.reduce` whose single combiner is `addf`/`mulf`/`maximumf`/
//!   `maxnumf`/`minimumf`/`minnumf`, on the innermost axis of a blocked
//!   tensor of rank > 1 loaded by `tt.load` with more than one element per
//!   thread on that axis, whose single user (a binary op) is yielded by the
//!   `scf.for` around it with an `arith.constant` initial value. Inside the
//!   loop the operand is viewed with the thread's elements along the axis as
//!   a new last dim (`tt.reshape allow_reorder efficient_layout` to a blocked
//!   layout of rank + 1) and reduced along that dim only, into a per-thread
//!   accumulator the loop carries from the combiner's neutral element; after
//!   the loop the partials are reduced along the axis, converted to the old
//!   result's layout and combined with the old initial value. The old
//!   reduction and update stay behind, dead, as in Triton. Two checks Triton
//!   3.6 lacks leave a reduction alone instead (correct, only slower): the
//!   accumulator must have no use in the loop besides its update (later
//!   Triton checks this too), and the view must keep every thread's rows (its
//!   lowering takes the thread's registers in order, which regroups the axis
//!   only where both layouts agree outside it, basis by basis, and neither
//!   repeats elements).
//!
//! The layout parts are also gated where their inputs leave what this file
//! models: a non-blocked reshape result, `ttg.num-ctas` other than 1, or an
//! op inside a warp-specialize partition.

use melior::ir::operation::OperationLike;
use melior::ir::operation::OperationRef;
use melior::ir::{Attribute, AttributeLike, Type, TypeLike, Value, ValueLike};
use melior::RewriterBase;
use mlir_sys::{MlirAttribute, MlirOperation, MlirType, MlirValue};
use ttg_dialect::layout::Layout;

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttgir::convert_triton_to_tritongpu::Blocked;
use crate::ttir::loop_support::ir::{self, Val};
use crate::ttir::loop_support::scf;
use tt_dialect::rewrite::{apply_greedily, Greedy, Pattern, Root};

const FLAG: &str = "tritongpu-optimize-thread-locality";

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUOptimizeThreadLocality",
    argument: FLAG,
    description: "Reduce the cost of reductions by keeping them thread-local where possible",
    anchor: "builtin.module",
    run,
};

static RESHAPE: Pattern = Pattern {
    benefit: 1,
    rewrite: optimize_reshape,
    generated: &["ttg.convert_layout"],
};

static GATHER: Pattern = Pattern {
    benefit: 1,
    rewrite: optimize_gather,
    generated: &["ttg.convert_layout"],
};

fn refuse(op: MlirOperation, what: &str) -> crate::rust_pass::Failure {
    crate::rust_pass::unsupported(op, FLAG, what)
}

fn run(module: OperationRef) -> PassResult {
    let raw = module.to_raw();
    // Gates of the greedy layout patterns, checked before anything changes.
    for gather in ir::collect_post(raw, &|op| {
        ir::is(op, "tt.gather") && ir::attribute(op, "efficient_layout").is_none()
    }) {
        if let Err(what) = gather_layout(gather) {
            return Err(refuse(gather, &what));
        }
    }
    for reshape in ir::collect_post(raw, &|op| ir::is(op, "tt.reshape")) {
        if reduction_axis(reshape).is_none() {
            continue;
        }
        let Some(tensor) = tensor_of(ir::value_type(ir::result(reshape, 0))) else {
            continue;
        };
        if !matches!(tensor.layout, Some(Layout::Blocked { .. })) {
            return Err(refuse(
                reshape,
                "a reordering tt.reshape with a non-blocked result",
            ));
        }
        if ir::module_int(reshape, "ttg.num-ctas").unwrap_or(1) != 1 {
            return Err(refuse(
                reshape,
                "a reordering tt.reshape with ttg.num-ctas other than 1",
            ));
        }
        if lookup_num_warps(reshape).is_none() {
            return Err(refuse(
                reshape,
                "a reordering tt.reshape without a known warp count",
            ));
        }
    }
    let patterns = [
        (Root::Op("tt.reshape"), &RESHAPE),
        (Root::Op("tt.gather"), &GATHER),
    ];
    if !apply_greedily(module, &patterns, Greedy::default()) {
        // Triton signals failure without a message.
        return Err(fail(module, "pattern application did not converge"));
    }
    let candidates: Vec<MlirOperation> = ir::collect_post(raw, &|op| ir::is(op, "tt.reduce"))
        .into_iter()
        .filter(|&r| is_loop_carried_candidate(r))
        .collect();
    for reduce in candidates {
        if let Some(plan) = plan_thread_local(reduce) {
            keep_thread_local(reduce, &plan);
        }
    }
    Ok(())
}

/// A ranked tensor type's parts, with its layout read.
struct TensorInfo {
    shape: Vec<i64>,
    element: MlirType,
    encoding: Option<MlirAttribute>,
    layout: Option<Layout>,
}

fn tensor_of(ty: MlirType) -> Option<TensorInfo> {
    let view = tt_dialect::types::TensorView::of(unsafe { Type::from_raw(ty) })?;
    Some(TensorInfo {
        shape: view.shape.to_vec(),
        element: view.element.to_raw(),
        encoding: view.encoding.map(|e| e.to_raw()),
        layout: view.encoding.and_then(Layout::read),
    })
}

/// The one axis along which every `tt.reduce` user of the reshape reduces,
/// when the reshape allows reordering and has such users.
fn reduction_axis(reshape: MlirOperation) -> Option<i64> {
    ir::attribute(reshape, "allow_reorder")?;
    let mut axis = None;
    for (user, _) in ir::uses(ir::result(reshape, 0)) {
        if !ir::is(user, "tt.reduce") {
            continue;
        }
        let a = ir::attribute(user, "axis").and_then(ir::integer_attr_value)?;
        match axis {
            Some(b) if b != a => return None,
            _ => axis = Some(a),
        }
    }
    axis
}

/// Triton's `lookupNumWarps` outside warp-specialize partitions (`None`
/// inside one, or when no function or module names a count).
fn lookup_num_warps(op: MlirOperation) -> Option<u32> {
    let mut current = op;
    loop {
        if ir::is(current, "ttg.warp_specialize.partitions") {
            return None;
        }
        if ir::is(current, "builtin.module") || ir::is(current, "tt.func") {
            if let Some(n) = ir::attribute(current, "ttg.num-warps")
                .and_then(ir::integer_attr_value)
                .filter(|&n| n > 0)
            {
                return u32::try_from(n).ok();
            }
        }
        current = ir::parent_op(current)?;
    }
}

fn linear(tensor: &TensorInfo) -> Option<ttg_dialect::linear_layout::LinearLayout> {
    ttg_dialect::to_linear::to_linear_layout(tensor.layout.as_ref()?, &tensor.shape).ok()
}

/// Triton's `isExpensiveView` on two tensor types' parts.
fn is_expensive_view(src: &TensorInfo, dst: &TensorInfo) -> bool {
    match (&src.layout, &dst.layout) {
        (Some(s), Some(d)) => {
            ttg_dialect::to_linear::is_expensive_view(s, &src.shape, d, &dst.shape)
        }
        _ => true,
    }
}

fn parse_attribute(op: MlirOperation, text: &str) -> Option<MlirAttribute> {
    ir::parse_attribute(ir::context(op), text)
}

/// `OptimizeReshapeLayoutPattern`.
fn optimize_reshape<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let reshape = op.to_raw();
    let Some(axis) = reduction_axis(reshape) else {
        return false;
    };
    let result = ir::result(reshape, 0);
    let old_type = ir::value_type(result);
    let Some(tensor) = tensor_of(old_type) else {
        return false;
    };
    let axis = axis as usize;
    let Some(Layout::Blocked {
        threads_per_warp,
        warps_per_cta,
        order,
        ..
    }) = &tensor.layout
    else {
        return false;
    };
    // One CTA (gated above), so CTAsPerCGA is 1 along every axis.
    if threads_per_warp.get(axis) == Some(&1) && warps_per_cta.get(axis) == Some(&1) {
        return false;
    }
    let mut new_order: Vec<u32> = order
        .iter()
        .copied()
        .filter(|&d| d as usize != axis)
        .collect();
    new_order.push(axis as u32);
    let Some(num_warps) = lookup_num_warps(reshape) else {
        return false;
    };
    let lanes = ir::module_int(reshape, "ttg.threads-per-warp").unwrap_or(32) as u32;
    let rank = tensor.shape.len();
    let blocked = Blocked::build(&tensor.shape, vec![1; rank], new_order, num_warps, lanes);
    let Some(encoding) = parse_attribute(reshape, &blocked.text()) else {
        return false;
    };
    if tensor
        .encoding
        .is_some_and(|e| ir::same_attribute(e, encoding))
    {
        return false;
    }
    let new_type = tt_dialect::ir::tensor_type(
        &tensor.shape,
        unsafe { Type::from_raw(tensor.element) },
        Some(unsafe { Attribute::from_raw(encoding) }),
    )
    .to_raw();
    let (Some(src), Some(dst)) = (
        tensor_of(ir::value_type(ir::operand(reshape, 0))),
        tensor_of(new_type),
    ) else {
        return false;
    };
    if is_expensive_view(&src, &dst) {
        return false;
    }
    rewriter.start_op_modification(op);
    unsafe { mlir_sys::mlirValueSetType(result, new_type) };
    ir::set_attribute(reshape, "efficient_layout", unsafe {
        mlir_sys::mlirUnitAttrGet(ir::context(reshape))
    });
    rewriter.finalize_op_modification(op);
    rewriter.set_insertion_point_after(op);
    let result_value = unsafe { Value::from_raw(result) };
    let cvt = tt_dialect::ir::create(
        rewriter,
        "ttg.convert_layout",
        op.location(),
        &[result_value],
        &[unsafe { Type::from_raw(old_type) }],
        &[],
    );
    rewriter.replace_all_uses_except(result_value, tt_dialect::ir::first_result(cvt), cvt);
    true
}

/// The single op of a reduce's combiner region, when that is all it holds.
fn combiner(reduce: MlirOperation) -> Option<MlirOperation> {
    if ir::region_count(reduce) != 1 {
        return None;
    }
    let blocks = ir::blocks(ir::regions(reduce)[0]);
    let [block] = blocks.as_slice() else {
        return None;
    };
    let ops = ir::block_ops(*block);
    let body: Vec<_> = ops.into_iter().filter(|&o| !ir::is_terminator(o)).collect();
    match body.as_slice() {
        [only] => Some(*only),
        _ => None,
    }
}

fn single_use(op: MlirOperation) -> Option<(MlirOperation, usize)> {
    let uses: Vec<_> = ir::results(op).into_iter().flat_map(ir::uses).collect();
    match uses.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// Whether Triton would rewrite `reduce` as a loop-carried reduction (the
/// broadest form of its conditions).
fn is_loop_carried_candidate(reduce: MlirOperation) -> bool {
    const COMBINERS: [&str; 6] = [
        "arith.addf",
        "arith.mulf",
        "arith.maximumf",
        "arith.maxnumf",
        "arith.minimumf",
        "arith.minnumf",
    ];
    let Some(combine) = combiner(reduce) else {
        return false;
    };
    if !COMBINERS.iter().any(|n| ir::is(combine, n)) || ir::operand_count(reduce) == 0 {
        return false;
    }
    let Some(src) = tensor_of(ir::value_type(ir::operand(reduce, 0))) else {
        return false;
    };
    let rank = src.shape.len();
    if !matches!(src.layout, Some(Layout::Blocked { .. })) || rank <= 1 {
        return false;
    }
    let axis = ir::attribute(reduce, "axis").and_then(ir::integer_attr_value);
    if axis != Some(rank as i64 - 1) {
        return false;
    }
    if !ir::operands(reduce)
        .into_iter()
        .all(|v| ir::defining_op(v).is_some_and(|d| ir::is(d, "tt.load")))
    {
        return false;
    }
    let Some(per_thread) = linear(&src).map(|l| l.elems_per_thread_per_dim()) else {
        return false;
    };
    if per_thread.get(rank - 1).copied().unwrap_or(1) == 1 {
        return false;
    }
    let Some((user, _)) = single_use(reduce) else {
        return false;
    };
    if ir::operand_count(user) != 2 {
        return false;
    }
    let Some((yield_op, operand_number)) = single_use(user) else {
        return false;
    };
    if !ir::is(yield_op, "scf.yield") {
        return false;
    }
    let Some(for_op) = ir::block_parent_op(ir::op_block(reduce)) else {
        return false;
    };
    if !ir::is(for_op, "scf.for") || ir::parent_op(yield_op).map(|p| p.ptr) != Some(for_op.ptr) {
        return false;
    }
    // scf.for's operands: lower bound, upper bound, step, then the inits.
    let init_index = 3 + operand_number;
    if init_index >= ir::operand_count(for_op) {
        return false;
    }
    // The accumulator moves into a per-thread partial that is merged only
    // after the loop, so any other use of it inside the loop would read the
    // partial state (later Triton checks this; 3.6 did not).
    let iter_arg = scf::region_iter_args(for_op)[operand_number];
    if ir::uses(iter_arg).len() != 1 {
        return false;
    }
    ir::defining_op(ir::operand(for_op, init_index)).is_some_and(|d| ir::is(d, "arith.constant"))
}

/// What the loop-carried rewrite of one reduction builds.
struct ThreadLocalPlan {
    /// The reduced operand viewed with the axis split in two: the part
    /// spread over lanes and warps, and the thread's own elements, last.
    view: MlirType,
    /// The per-thread partial accumulator: `view` without its last dim.
    partial: MlirType,
    /// The post-loop reduction's result.
    merged: MlirType,
    /// The combiner's neutral element.
    neutral: f64,
}

/// Triton's neutral element for a combiner (`arith::getNeutralElement`,
/// with -inf / +inf for `maxnumf` / `minnumf`); with `ninf` the extremes
/// are the largest finite values.
fn neutral_element(combine: MlirOperation) -> Option<f64> {
    let finite =
        ir::attribute(combine, "fastmath").is_some_and(|a| scf::attribute_text(a).contains("ninf"));
    let big = if finite { f64::MAX } else { f64::INFINITY };
    Some(match ir::name(combine).as_str() {
        "arith.addf" => 0.0,
        "arith.mulf" => 1.0,
        "arith.maximumf" => -big,
        "arith.minimumf" => big,
        "arith.maxnumf" => f64::NEG_INFINITY,
        "arith.minnumf" => f64::INFINITY,
        _ => return None,
    })
}

/// The types of Triton's rewrite of a candidate `reduce` (the blocked
/// layout of rank + 1 whose last dim holds the thread's elements along the
/// axis), or `None` where the rewrite would not be exact: Triton's view
/// keeps each thread's registers in order, which regroups the axis only
/// where every register, lane and warp basis lands on the same coordinates
/// outside the axis in both layouts, neither of which repeats elements.
/// Where that fails the reduction is left as it is (slower, still right).
fn plan_thread_local(reduce: MlirOperation) -> Option<ThreadLocalPlan> {
    let src = tensor_of(ir::value_type(ir::operand(reduce, 0)))?;
    let Some(Layout::Blocked {
        size_per_thread,
        threads_per_warp,
        warps_per_cta,
        order,
        ..
    }) = &src.layout
    else {
        return None;
    };
    let rank = src.shape.len();
    let axis = rank - 1;
    let source = linear(&src)?;
    let per_thread = *source.elems_per_thread_per_dim().get(axis)? as i64;
    if per_thread <= 1 || src.shape[axis] % per_thread != 0 {
        return None;
    }
    let mut spt = size_per_thread.clone();
    spt.push(size_per_thread[axis]);
    spt[axis] = 1;
    let mut lanes = threads_per_warp.clone();
    lanes.push(1);
    let mut warps = warps_per_cta.clone();
    warps.push(1);
    let mut order3 = vec![rank as u32];
    order3.extend(order.iter().copied());
    let blocked = Blocked {
        size_per_thread: spt,
        threads_per_warp: lanes,
        warps_per_cta: warps,
        order: order3,
    };
    let blocked_text = blocked.text();
    let mut view_shape = src.shape.clone();
    view_shape[axis] /= per_thread;
    view_shape.push(per_thread);
    let element = unsafe { Type::from_raw(src.element) };
    let encoding = parse_attribute(reduce, &blocked_text)?;
    let view = tt_dialect::ir::tensor_type(
        &view_shape,
        element,
        Some(unsafe { Attribute::from_raw(encoding) }),
    )
    .to_raw();
    let viewed = tensor_of(view)?;
    let target = linear(&viewed)?;
    let no_repeats = |l: &ttg_dialect::linear_layout::LinearLayout| {
        l.free_variable_masks().iter().all(|(_, m)| *m == 0)
    };
    if !no_repeats(&source) || !no_repeats(&target) {
        return None;
    }
    for in_dim in source.in_dim_names() {
        let (a, b) = (source.bases(in_dim), target.bases(in_dim));
        if a.len() != b.len() || a.iter().zip(b).any(|(x, y)| x[..axis] != y[..axis]) {
            return None;
        }
    }
    let slice_text = format!("#ttg.slice<{{dim = {rank}, parent = {blocked_text}}}>");
    let partial = tt_dialect::ir::tensor_type(
        &view_shape[..rank],
        element,
        Some(unsafe { Attribute::from_raw(parse_attribute(reduce, &slice_text)?) }),
    )
    .to_raw();
    let merged_text = format!("#ttg.slice<{{dim = {axis}, parent = {slice_text}}}>");
    let merged = tt_dialect::ir::tensor_type(
        &view_shape[..axis],
        element,
        Some(unsafe { Attribute::from_raw(parse_attribute(reduce, &merged_text)?) }),
    )
    .to_raw();
    Some(ThreadLocalPlan {
        view,
        partial,
        merged,
        neutral: neutral_element(combiner(reduce)?)?,
    })
}

/// Triton's rewrite of a loop-carried reduction: inside the loop, the
/// operand is viewed with the thread's elements along the axis as a new
/// last dim (`tt.reshape allow_reorder efficient_layout`) and reduced along
/// it only, into a new per-thread accumulator (starting from the neutral
/// element) that the loop carries; after the loop the partials are reduced
/// along the axis, converted to the old result's layout and combined with
/// the old initial value, which replaces the old result. The old reduction
/// and update stay in the loop, dead, as in Triton (the next canonicalize
/// drops them), and the old iter arg is passed through.
fn keep_thread_local(reduce: MlirOperation, plan: &ThreadLocalPlan) {
    let Some((update, reduce_operand)) = single_use(reduce) else {
        return;
    };
    let accumulator = ir::operand(update, 1 - reduce_operand);
    let Some(for_op) = ir::block_parent_op(ir::op_block(reduce)) else {
        return;
    };
    let body = scf::body(for_op);
    if !ir::is_block_argument(accumulator) || ir::value_block(accumulator).ptr != body.ptr {
        return;
    }
    let arg_number = ir::arg_number(accumulator);
    if arg_number == 0 {
        return;
    }
    let result_index = arg_number - 1;
    let old_init = scf::init_args(for_op)[result_index];
    let Some(init_op) = ir::defining_op(old_init) else {
        return;
    };
    let Some(old_yield) = scf::yield_op(for_op) else {
        return;
    };
    let context = ir::context(reduce);

    // The new accumulator, right after the old one.
    let neutral = unsafe {
        let element = mlir_sys::mlirShapedTypeGetElementType(plan.partial);
        mlir_sys::mlirDenseElementsAttrSplatGet(
            plan.partial,
            mlir_sys::mlirFloatAttrDoubleGet(context, element, plan.neutral),
        )
    };
    let new_init = ir::create_op(
        "arith.constant",
        ir::location(init_op),
        &[],
        &[plan.partial],
        &[("value", neutral)],
        Vec::new(),
    );
    ir::insert_after(init_op, new_init);

    let mut replacements = Vec::new();
    let new_loop =
        scf::replace_for_with_new_signature(for_op, &[ir::result(new_init, 0)], &mut replacements);
    for (old, new) in replacements {
        ir::replace_all_uses(old, new);
    }
    let body = scf::body(new_loop);
    let partial_arg = *ir::block_args(body).last().expect("the new iter arg");

    // Inside the loop: view, reduce along the thread's elements, update.
    let location = ir::location(reduce);
    let unit = unsafe { mlir_sys::mlirUnitAttrGet(context) };
    let view = ir::create_op(
        "tt.reshape",
        location,
        &[ir::operand(reduce, 0)],
        &[plan.view],
        &[("allow_reorder", unit), ("efficient_layout", unit)],
        Vec::new(),
    );
    ir::insert_after(reduce, view);
    let mut map = ir::ValueMap::new();
    map.insert(Val(ir::operand(reduce, 0)), Val(ir::result(view, 0)));
    let local = ir::clone_mapped(reduce, &mut map);
    let rank = tensor_of(plan.view).map_or(0, |t| t.shape.len() - 1);
    ir::set_attribute(
        local,
        "axis",
        ir::integer_attr(ir::i32_type(context), rank as i64),
    );
    unsafe { mlir_sys::mlirValueSetType(ir::result(local, 0), plan.partial) };
    ir::insert_after(view, local);
    let new_update = clone_binary(update, partial_arg, ir::result(local, 0), plan.partial);
    ir::insert_after(local, new_update);

    // The yield passes the old accumulator through and carries the partial.
    let mut yielded = ir::operands(old_yield);
    yielded[result_index] = accumulator;
    yielded.push(ir::result(new_update, 0));
    let new_yield = ir::create_op(
        "scf.yield",
        ir::location(old_yield),
        &yielded,
        &[],
        &[],
        Vec::new(),
    );
    ir::insert_before(old_yield, new_yield);
    ir::erase(old_yield);

    // After the loop: merge the partials, convert, fold in the old init.
    let loop_result = ir::result(new_loop, result_index);
    let result_type = ir::value_type(loop_result);
    let mut map = ir::ValueMap::new();
    let partials = *ir::results(new_loop).last().expect("the new result");
    map.insert(Val(ir::operand(reduce, 0)), Val(partials));
    let merged = ir::clone_mapped(reduce, &mut map);
    unsafe { mlir_sys::mlirValueSetType(ir::result(merged, 0), plan.merged) };
    ir::insert_after(new_loop, merged);
    let convert = ir::create_op(
        "ttg.convert_layout",
        location,
        &[ir::result(merged, 0)],
        &[result_type],
        &[],
        Vec::new(),
    );
    ir::insert_after(merged, convert);
    let last = clone_binary(update, old_init, ir::result(convert, 0), result_type);
    ir::insert_after(convert, last);
    ir::replace_all_uses(loop_result, ir::result(last, 0));
    ir::erase(for_op);
}

/// A copy of the binary op `op` on `lhs` and `rhs` with result type `ty`
/// (detached).
fn clone_binary(op: MlirOperation, lhs: MlirValue, rhs: MlirValue, ty: MlirType) -> MlirOperation {
    let mut map = ir::ValueMap::new();
    map.insert(Val(ir::operand(op, 0)), Val(lhs));
    map.insert(Val(ir::operand(op, 1)), Val(rhs));
    let clone = ir::clone_mapped(op, &mut map);
    unsafe { mlir_sys::mlirValueSetType(ir::result(clone, 0), ty) };
    clone
}

/// The warp-local layout `setOptimizedGatherLayout` gives a gather, as the
/// text of a blocked encoding (`None` for a rank-1 gather, which Triton
/// leaves alone). `Err` names input this file does not model.
fn gather_layout(gather: MlirOperation) -> Result<Option<String>, String> {
    let unsupported = |what: &str| Err(format!("a tt.gather {what}"));
    let (Some(src), Some(_)) = (
        tensor_of(ir::value_type(ir::operand(gather, 0))),
        tensor_of(ir::value_type(ir::operand(gather, 1))),
    ) else {
        return unsupported("on unranked tensors");
    };
    let rank = src.shape.len();
    if rank == 1 {
        return Ok(None);
    }
    let Some(axis) = ir::attribute(gather, "axis")
        .and_then(ir::integer_attr_value)
        .and_then(|a| usize::try_from(a).ok())
        .filter(|&a| a < rank)
    else {
        return unsupported("without a valid axis");
    };
    if ir::module_int(gather, "ttg.num-ctas").unwrap_or(1) != 1 {
        return unsupported("with ttg.num-ctas other than 1");
    }
    let Some(num_warps) = lookup_num_warps(gather) else {
        return unsupported("without a known warp count (or in a warp-specialize partition)");
    };
    let Some(ll) = linear(&src) else {
        return unsupported("whose source layout has no linear form");
    };
    let lanes = ir::module_int(gather, "ttg.threads-per-warp").unwrap_or(32);
    let register_order = ll.default_order("register");
    let thread_order = ll.order_per_dim("lane", &register_order);
    let warp_order = ll.order_per_dim("warp", &register_order);
    let from_linear = warp_local_layout(
        &src.shape,
        axis,
        lanes,
        i64::from(num_warps),
        &thread_order,
        &warp_order,
    );
    match from_linear {
        Some(text) => Ok(Some(text)),
        // Triton asserts here.
        None => unsupported("whose shape does not fill a warp-local layout"),
    }
}

/// `setOptimizedGatherLayout`'s arithmetic: the blocked encoding's text,
/// or `None` where Triton's asserts would fail.
fn warp_local_layout(
    shape: &[i64],
    axis: usize,
    lanes: i64,
    num_warps: i64,
    thread_order: &[u32],
    warp_order: &[u32],
) -> Option<String> {
    let rank = shape.len();
    let dim = |d: usize| shape[d];

    let mut threads_per_warp = vec![0i64; rank];
    let mut warps_per_cta = vec![0i64; rank];
    let mut order = vec![axis as u32];
    threads_per_warp[axis] = dim(axis).min(lanes);
    let mut threads_to_alloc = lanes / threads_per_warp[axis].max(1);
    for &d in thread_order {
        let d = d as usize;
        if d == axis {
            continue;
        }
        order.push(d as u32);
        let next = dim(d).min(threads_to_alloc);
        threads_per_warp[d] = next;
        threads_to_alloc /= next.max(1);
    }
    warps_per_cta[axis] = 1;
    let mut warps_to_alloc = num_warps;
    for &d in warp_order {
        let d = d as usize;
        if d == axis {
            continue;
        }
        let can_fit = dim(d) / threads_per_warp[d].max(1);
        let next = can_fit.min(warps_to_alloc);
        warps_per_cta[d] = next;
        warps_to_alloc /= next.max(1);
    }
    if threads_per_warp.contains(&0) || warps_per_cta.contains(&0) {
        return None;
    }
    let mut size_per_thread = vec![1i64; rank];
    size_per_thread[axis] = dim(axis) / threads_per_warp[axis];
    threads_per_warp[axis] *= threads_to_alloc;
    warps_per_cta[axis] *= warps_to_alloc;
    if size_per_thread[axis] == 0
        || threads_per_warp.iter().product::<i64>() != lanes
        || warps_per_cta.iter().product::<i64>() != num_warps
    {
        return None;
    }
    let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    let order: Vec<i64> = order.into_iter().map(i64::from).collect();
    Some(format!(
        "#ttg.blocked<{{sizePerThread = [{}], threadsPerWarp = [{}], warpsPerCTA = [{}], order = [{}]}}>",
        list(&size_per_thread),
        list(&threads_per_warp),
        list(&warps_per_cta),
        list(&order)
    ))
}

fn with_encoding(ty: MlirType, encoding: MlirAttribute) -> Option<MlirType> {
    let tensor = tensor_of(ty)?;
    Some(
        tt_dialect::ir::tensor_type(
            &tensor.shape,
            unsafe { Type::from_raw(tensor.element) },
            Some(unsafe { Attribute::from_raw(encoding) }),
        )
        .to_raw(),
    )
}

/// `OptimizeGatherLayoutPattern`.
fn optimize_gather<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let gather = op.to_raw();
    if ir::attribute(gather, "efficient_layout").is_some() {
        return false;
    }
    let Ok(Some(text)) = gather_layout(gather) else {
        return false;
    };
    let Some(layout) = parse_attribute(gather, &text) else {
        return false;
    };
    let (src, idx, result) = (
        ir::operand(gather, 0),
        ir::operand(gather, 1),
        ir::result(gather, 0),
    );
    let old_type = ir::value_type(result);
    let (Some(src_type), Some(idx_type), Some(new_type)) = (
        with_encoding(ir::value_type(src), layout),
        with_encoding(ir::value_type(idx), layout),
        with_encoding(old_type, layout),
    ) else {
        return false;
    };
    let convert = |value: MlirValue, ty: MlirType| {
        tt_dialect::ir::first_result(tt_dialect::ir::create(
            rewriter,
            "ttg.convert_layout",
            op.location(),
            &[unsafe { Value::from_raw(value) }],
            &[unsafe { Type::from_raw(ty) }],
            &[],
        ))
        .to_raw()
    };
    rewriter.set_insertion_point_before(op);
    let cvt_src = convert(src, src_type);
    let cvt_idx = convert(idx, idx_type);
    rewriter.set_insertion_point_after(op);
    let cvt_out = convert(result, old_type);
    let cvt_out_op = ir::defining_op(cvt_out).expect("a convert_layout result");
    rewriter.replace_all_uses_except(
        unsafe { Value::from_raw(result) },
        unsafe { Value::from_raw(cvt_out) },
        unsafe { OperationRef::from_raw(cvt_out_op) },
    );
    rewriter.start_op_modification(op);
    ir::set_operand(gather, 0, cvt_src);
    ir::set_operand(gather, 1, cvt_idx);
    unsafe { mlir_sys::mlirValueSetType(result, new_type) };
    ir::set_attribute(gather, "efficient_layout", unsafe {
        mlir_sys::mlirUnitAttrGet(ir::context(gather))
    });
    rewriter.finalize_op_modification(op);
    true
}
