//! `tritongpu-optimize-thread-locality`: Triton 3.6's pass that keeps
//! reductions inside a thread where it can. It has three parts; one is
//! implemented, two are gates.
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
//! - **Gather layouts** (gate): Triton gives each `tt.gather` without
//!   `efficient_layout` a warp-local layout. That rewrite is not
//!   implemented, so such a gather stops the pass with a located
//!   `'tritongpu-optimize-thread-locality' does not support ... yet` error.
//! - **Loop-carried reductions** (gate): Triton rewrites a `tt.reduce` whose
//!   single combiner is `addf`/`mulf`/`maximumf`/`maxnumf`/`minimumf`/
//!   `minnumf`. The reduce must be on the innermost axis of a blocked tensor
//!   of rank > 1 loaded by `tt.load`, with more than one element per thread
//!   on that axis. Its single user's single use must be the `scf.yield` of
//!   its `scf.for`, and that accumulator must start from an `arith.constant`.
//!   Triton turns it into a per-thread partial accumulator with a second
//!   reduce after the loop. That rewrite is not implemented, so such a
//!   reduce stops the pass with the same kind of error. The gate uses the
//!   broadest form of Triton's conditions (see the report of the session
//!   that wrote this), so it may refuse input Triton would in the end leave
//!   alone, never the other way round.
//!
//! The reshape part is gated too where its inputs leave what this file
//! models: a non-blocked reshape result, `ttg.num-ctas` other than 1, or a
//! reshape inside a warp-specialize partition.

use melior::ir::operation::OperationRef;
use melior::ir::operation::OperationLike;
use melior::ir::{Attribute, AttributeLike, Type, TypeLike, Value};
use melior::RewriterBase;
use mlir_sys::{MlirAttribute, MlirOperation, MlirType};
use ttg_dialect::layout::Layout;

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttgir::convert_triton_to_tritongpu::Blocked;
use crate::ttir::loop_support::ir;
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

fn refuse(op: MlirOperation, what: &str) -> crate::rust_pass::Failure {
    fail(
        unsafe { OperationRef::from_raw(op) },
        &format!("'{FLAG}' does not support {what} yet"),
    )
}

fn run(module: OperationRef) -> PassResult {
    let raw = module.to_raw();
    // Gates of the greedy layout patterns, checked before anything changes.
    if let Some(gather) = ir::collect_post(raw, &|op| {
        ir::is(op, "tt.gather") && ir::attribute(op, "efficient_layout").is_none()
    })
    .first()
    {
        return Err(refuse(*gather, "choosing a warp-local tt.gather layout"));
    }
    for reshape in ir::collect_post(raw, &|op| ir::is(op, "tt.reshape")) {
        if reduction_axis(reshape).is_none() {
            continue;
        }
        let Some(tensor) = tensor_of(ir::value_type(ir::result(reshape, 0))) else {
            continue;
        };
        if !matches!(tensor.layout, Some(Layout::Blocked { .. })) {
            return Err(refuse(reshape, "a reordering tt.reshape with a non-blocked result"));
        }
        if module_int(reshape, "ttg.num-ctas", 1) != 1 {
            return Err(refuse(reshape, "a reordering tt.reshape with ttg.num-ctas other than 1"));
        }
        if lookup_num_warps(reshape).is_none() {
            return Err(refuse(reshape, "a reordering tt.reshape without a known warp count"));
        }
    }
    if !apply_greedily(module, &[(Root::Op("tt.reshape"), &RESHAPE)], Greedy::default()) {
        // Triton signals failure without a message.
        return Err(fail(module, "pattern application did not converge"));
    }
    if let Some(reduce) = ir::collect_post(raw, &|op| ir::is(op, "tt.reduce"))
        .into_iter()
        .find(|&r| is_loop_carried_candidate(r))
    {
        return Err(refuse(reduce, "keeping a loop-carried tt.reduce thread-local"));
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

/// An integer attribute of the enclosing module, or `default`.
fn module_int(op: MlirOperation, name: &str, default: i64) -> i64 {
    let mut current = op;
    while !ir::is(current, "builtin.module") {
        match ir::parent_op(current) {
            Some(parent) => current = parent,
            None => return default,
        }
    }
    ir::attribute(current, name)
        .and_then(ir::integer_attr_value)
        .unwrap_or(default)
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

/// Triton's `isExpensiveView`: the replication masks or the elements per
/// thread differ. Unreadable layouts count as expensive (no rewrite).
fn is_expensive_view(src: &TensorInfo, dst: &TensorInfo) -> bool {
    let (Some(s), Some(d)) = (linear(src), linear(dst)) else {
        return true;
    };
    let masks_differ = s
        .free_variable_masks()
        .iter()
        .zip(d.free_variable_masks().iter())
        .any(|(a, b)| a.1 != b.1);
    masks_differ || s.total_elems_per_thread() != d.total_elems_per_thread()
}

fn parse_attribute(op: MlirOperation, text: &str) -> Option<MlirAttribute> {
    let attr = unsafe {
        mlir_sys::mlirAttributeParseGet(ir::context(op), melior::StringRef::new(text).to_raw())
    };
    (!attr.ptr.is_null()).then_some(attr)
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
    let mut new_order: Vec<u32> = order.iter().copied().filter(|&d| d as usize != axis).collect();
    new_order.push(axis as u32);
    let Some(num_warps) = lookup_num_warps(reshape) else {
        return false;
    };
    let lanes = module_int(reshape, "ttg.threads-per-warp", 32) as u32;
    let rank = tensor.shape.len();
    let blocked = Blocked::build(&tensor.shape, vec![1; rank], new_order, num_warps, lanes);
    let Some(encoding) = parse_attribute(reshape, &blocked.text()) else {
        return false;
    };
    if tensor.encoding.is_some_and(|e| ir::same_attribute(e, encoding)) {
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
    ir::set_attribute(
        reshape,
        "efficient_layout",
        unsafe { mlir_sys::mlirUnitAttrGet(ir::context(reshape)) },
    );
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
    let Some((yield_op, operand_number)) = single_use(user) else {
        return false;
    };
    if !ir::is(yield_op, "scf.yield") {
        return false;
    }
    let Some(for_op) = ir::block_parent_op(ir::op_block(reduce)) else {
        return false;
    };
    if !ir::is(for_op, "scf.for") {
        return false;
    }
    // scf.for's operands: lower bound, upper bound, step, then the inits.
    let init_index = 3 + operand_number;
    if init_index >= ir::operand_count(for_op) {
        return false;
    }
    ir::defining_op(ir::operand(for_op, init_index)).is_some_and(|d| ir::is(d, "arith.constant"))
}
