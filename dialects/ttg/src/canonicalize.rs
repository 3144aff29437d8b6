//! The folders and canonicalization patterns of the `ttg` ops, installed
//! into `tt`'s canonicalization callbacks (see
//! `tt_dialect::canonicalize`), so that MLIR's canonicalizer applies them.
//!
//! `ttg.convert_layout` contributes, as in Triton, patterns rooted at the
//! conversion itself and at the ops that consume one:
//!
//! * `convert_layout` to its own type is its source; of a `local_load`, a
//!   `convert_layout`, a `splat`, a `make_range`, a splat constant, a
//!   `histogram` or a `cat` (unless the new layout holds fewer elements a
//!   thread), it becomes that op producing the converted type directly
//!   (except a conversion from an MMA layout to a dot operand, which
//!   Triton keeps for fused attention);
//! * `histogram`, `gather` (without an efficient layout), `local_alloc` and
//!   `local_store` read through a conversion of their source, and
//!   `ttng.tmem_store` through one whose source already has a layout of a
//!   tensor-memory access of the destination;
//! * a `trans` with the identity order becomes a conversion to its type;
//! * `reshape` and `trans` read through a conversion that only renames the
//!   layout (equal linear layouts), and a `reshape` with `allow_reorder`
//!   through any conversion whose source it can view without moving
//!   elements between threads.
//!
//! Not yet here: the conversions into cheap reshapes (`cvt(reshape)`) and
//! the one below `split`.
//!
//! `ttg.warp_specialize` drops repeated and unused captures and unused
//! results.
//!
//! `ttg.memdesc_trans` folds like `tt.trans`: the identity order is its
//! source, and a transpose of a transpose becomes one with the composed
//! order. A `ttg.memdesc_reinterpret` to its source's own type is that
//! source, and so is an immutable `ttg.local_alloc` of a `local_load` of a
//! buffer of its type.

use melior::ir::{
    attribute::DenseI32ArrayAttribute,
    block::BlockLike,
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
    Identifier, Region, RegionLike, RegionRef, Type, Value, ValueLike,
};
use melior::RewriterBase;
use tt_dialect::canonicalize::{Fold, FoldInput, Folder};
use tt_dialect::ir::{self, create, defined_by, defining_op, first_result, is_op, operand};
use tt_dialect::rewrite::Pattern;

use crate::layout::{Layout, MemDesc};

/// The folder of the op named `name`, if it has one.
pub fn folder(name: &str) -> Option<Folder> {
    Some(match name {
        "ttg.memdesc_trans" => memdesc_trans,
        "ttg.memdesc_reinterpret" => memdesc_reinterpret,
        "ttg.local_alloc" => local_alloc,
        _ => return None,
    })
}

const fn pattern(rewrite: tt_dialect::rewrite::Rewrite) -> Pattern {
    Pattern {
        benefit: 1,
        rewrite,
        generated: &[],
    }
}

/// The patterns `ttg.convert_layout` contributes, with their roots.
static CONVERT_LAYOUT_PATTERNS: [(&str, Pattern); 8] = [
    ("ttg.convert_layout", pattern(convert_from_producer)),
    ("tt.reshape", pattern(reshape_source)),
    ("tt.trans", pattern(trans_source)),
    ("tt.gather", pattern(gather_source)),
    ("tt.histogram", pattern(histogram_source)),
    ("ttg.local_alloc", pattern(local_alloc_source)),
    ("ttg.local_store", pattern(local_store_source)),
    ("ttng.tmem_store", pattern(tmem_store_source)),
];

static WARP_SPECIALIZE_PATTERNS: [(&str, Pattern); 1] =
    [("ttg.warp_specialize", pattern(warp_specialize_unused))];

/// The patterns the op named `name` contributes, with their roots.
pub fn patterns(name: &str) -> &'static [(&'static str, Pattern)] {
    match name {
        "ttg.convert_layout" => &CONVERT_LAYOUT_PATTERNS,
        "ttg.warp_specialize" => &WARP_SPECIALIZE_PATTERNS,
        _ => &[],
    }
}

fn order(op: OperationRef) -> Option<Vec<i32>> {
    let attr = DenseI32ArrayAttribute::try_from(ir::inherent_attribute(op, "order")?).ok()?;
    (0..attr.len()).map(|i| attr.element(i).ok()).collect()
}

fn is_identity(order: &[i32]) -> bool {
    order.iter().enumerate().all(|(i, &d)| d == i as i32)
}

/// An immutable allocation of what was just loaded from a buffer of the
/// same type is that buffer.
fn local_alloc<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    let op = input.op;
    let Some(result) = op.result(0).ok() else {
        return Fold::None;
    };
    let immutable = MemDesc::of(result.r#type()).is_some_and(|d| !d.mutable);
    let buffer = operand(op, 0)
        .and_then(|src| defined_by(src, "ttg.local_load"))
        .and_then(|load| operand(load, 0))
        .filter(|buffer| buffer.r#type() == result.r#type());
    match buffer {
        Some(buffer) if immutable => Fold::Value(buffer),
        _ => Fold::None,
    }
}

fn memdesc_reinterpret<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    let op = input.op;
    match (operand(op, 0), op.result(0).ok()) {
        (Some(src), Some(result)) if src.r#type() == result.r#type() => Fold::Value(src),
        _ => Fold::None,
    }
}

fn memdesc_trans<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    let op = input.op;
    let (Some(src), Some(outer)) = (operand(op, 0), order(op)) else {
        return Fold::None;
    };
    if is_identity(&outer) {
        return Fold::Value(src);
    }
    let Some(inner_op) = defined_by(src, "ttg.memdesc_trans") else {
        return Fold::None;
    };
    let (Some(inner_src), Some(inner)) = (operand(inner_op, 0), order(inner_op)) else {
        return Fold::None;
    };
    let Some(composed) = outer
        .iter()
        .map(|&d| usize::try_from(d).ok().and_then(|d| inner.get(d).copied()))
        .collect::<Option<Vec<i32>>>()
    else {
        return Fold::None;
    };
    let context = op.context();
    let composed = DenseI32ArrayAttribute::new(unsafe { context.to_ref() }, &composed);
    let mut op_mut = unsafe { OperationRefMut::from_raw(op.to_raw()) };
    op_mut.set_inherent_attribute("order", composed.into());
    ir::set_operands(op, &[inner_src]);
    match ir::result(op, 0) {
        Some(result) => Fold::Value(result),
        None => Fold::None,
    }
}

/// Replaces `op` by a new op `name` with `operands` and `op`'s result type,
/// created at `at` (the op it replaces, or the producer it stands in for).
fn replace_with<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    op: OperationRef<'c, 'a>,
    at: OperationRef<'c, 'a>,
    name: &str,
    operands: &[Value<'c, 'a>],
    attributes: &[(Identifier<'c>, melior::ir::Attribute<'c>)],
) -> bool {
    let Some(result) = ir::result(op, 0) else {
        return false;
    };
    rewriter.set_insertion_point_before(at);
    let new = create(
        rewriter,
        name,
        op.location(),
        operands,
        &[result.r#type()],
        attributes,
    );
    rewriter.replace_op_with_values(op, &[first_result(new)]);
    true
}

fn encoding(ty: Type) -> Option<Layout> {
    tt_dialect::types::TensorView::of(ty)?
        .encoding
        .and_then(Layout::read)
}

fn convert_from_producer<'c, 'a>(
    op: OperationRef<'c, 'a>,
    rewriter: &RewriterBase<'c, 'a>,
) -> bool {
    let (Some(src), Some(result)) = (operand(op, 0), ir::result(op, 0)) else {
        return false;
    };
    if src.r#type() == result.r#type() {
        rewriter.replace_op_with_values(op, &[src]);
        return true;
    }
    // Triton keeps MMA -> dot-operand conversions (fused attention).
    if matches!(encoding(result.r#type()), Some(Layout::DotOperand { .. }))
        && matches!(encoding(src.r#type()), Some(Layout::NvidiaMma { .. }))
    {
        return false;
    }
    let Some(producer) = defining_op(src) else {
        return false;
    };
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let named = |name: &str| Identifier::new(context, name);
    if is_op(producer, "ttg.local_load") {
        // At the load, since ops with memory effects may sit between it and
        // the conversion.
        let operands: Vec<Value> = producer.operands().collect();
        return replace_with(rewriter, op, producer, "ttg.local_load", &operands, &[]);
    }
    if is_op(producer, "ttg.convert_layout") {
        let Some(inner) = operand(producer, 0) else {
            return false;
        };
        return replace_with(rewriter, op, op, "ttg.convert_layout", &[inner], &[]);
    }
    if is_op(producer, "tt.splat") {
        let Some(scalar) = operand(producer, 0) else {
            return false;
        };
        return replace_with(rewriter, op, op, "tt.splat", &[scalar], &[]);
    }
    if is_op(producer, "tt.make_range") {
        let (Some(start), Some(end)) = (
            ir::inherent_attribute(producer, "start"),
            ir::inherent_attribute(producer, "end"),
        ) else {
            return false;
        };
        let attributes = [(named("start"), start), (named("end"), end)];
        return replace_with(rewriter, op, op, "tt.make_range", &[], &attributes);
    }
    if is_op(producer, "tt.histogram") {
        let operands: Vec<Value> = producer.operands().collect();
        return replace_with(rewriter, op, op, "tt.histogram", &operands, &[]);
    }
    if is_op(producer, "tt.cat") {
        // Unless the new layout holds fewer elements a thread (Triton's
        // `isExpensiveCat`: that conversion goes through shared memory
        // anyway), the concatenation produces the converted layout.
        let elements = |ty: Type| {
            let view = tt_dialect::types::TensorView::of(ty)?;
            let layout = encoding(ty)?;
            crate::to_linear::to_linear_layout(&layout, view.shape)
                .ok()
                .map(|l| l.total_elems_per_thread())
        };
        let (Some(after), Some(before)) = (elements(result.r#type()), elements(src.r#type()))
        else {
            return false;
        };
        if after < before {
            return false;
        }
        let operands: Vec<Value> = producer.operands().collect();
        return replace_with(rewriter, op, op, "tt.cat", &operands, &[]);
    }
    if let Some(constant) = ir::constant_of(src) {
        let Some(value) = ir::resize_splat_attr(constant, result.r#type()) else {
            return false;
        };
        return replace_with(
            rewriter,
            op,
            op,
            "arith.constant",
            &[],
            &[(named("value"), value)],
        );
    }
    false
}

/// The source of the conversion that defines operand `index` of `op`.
fn converted_operand<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>> {
    operand(defined_by(operand(op, index)?, "ttg.convert_layout")?, 0)
}

/// Replaces operand `index` of `op` in place.
fn set_operand<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    op: OperationRef<'c, 'a>,
    index: usize,
    value: Value<'c, 'a>,
) -> bool {
    let mut operands: Vec<Value> = op.operands().collect();
    if index >= operands.len() {
        return false;
    }
    operands[index] = value;
    rewriter.start_op_modification(op);
    ir::set_operands(op, &operands);
    rewriter.finalize_op_modification(op);
    true
}

/// Whether a `convert_layout` only renames its layout: both encodings
/// place the tensor the same way (Triton's `isConvertTrivial`).
fn is_trivial_conversion(convert: OperationRef) -> bool {
    let (Some(src), Some(dst)) = (operand(convert, 0), ir::result(convert, 0)) else {
        return false;
    };
    let Some(view) = tt_dialect::types::TensorView::of(src.r#type()) else {
        return false;
    };
    match (encoding(src.r#type()), encoding(dst.r#type())) {
        (Some(a), Some(b)) => {
            a == b || crate::to_linear::equivalent(&a, &b, view.shape).unwrap_or(false)
        }
        _ => false,
    }
}

/// `reshape(convert(x))` reads `x` where the conversion is trivial, or
/// where the reshape may reorder elements and viewing `x` directly moves
/// none between threads.
fn reshape_source<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let (Some(convert), Some(result)) = (
        operand(op, 0).and_then(|v| defined_by(v, "ttg.convert_layout")),
        ir::result(op, 0),
    ) else {
        return false;
    };
    let Some(src) = operand(convert, 0) else {
        return false;
    };
    if !is_trivial_conversion(convert) {
        let cheap = match (
            encoding(src.r#type()),
            encoding(result.r#type()),
            tt_dialect::types::TensorView::of(src.r#type()),
            tt_dialect::types::TensorView::of(result.r#type()),
        ) {
            (Some(a), Some(b), Some(s), Some(d)) => {
                !crate::to_linear::is_expensive_view(&a, s.shape, &b, d.shape)
            }
            _ => false,
        };
        if !cheap || !ir::has_unit_attribute(op, "allow_reorder") {
            return false;
        }
    }
    set_operand(rewriter, op, 0, src)
}

/// A `trans` with the identity order becomes a conversion to its type; one
/// of a trivial conversion reads the conversion's source.
fn trans_source<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let (Some(src), Some(order)) = (operand(op, 0), order(op)) else {
        return false;
    };
    if is_identity(&order) {
        return replace_with(rewriter, op, op, "ttg.convert_layout", &[src], &[]);
    }
    match defined_by(src, "ttg.convert_layout") {
        Some(convert) if is_trivial_conversion(convert) => {
            operand(convert, 0).is_some_and(|x| set_operand(rewriter, op, 0, x))
        }
        _ => false,
    }
}

fn gather_source<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    if ir::has_unit_attribute(op, "efficient_layout") {
        return false;
    }
    converted_operand(op, 0).is_some_and(|src| set_operand(rewriter, op, 0, src))
}

fn histogram_source<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let Some(src) = converted_operand(op, 0) else {
        return false;
    };
    let mut operands = vec![src];
    if let Some(mask) = operand(op, 1) {
        // The mask follows the source into its layout.
        let Some(src_view) = tt_dialect::types::TensorView::of(src.r#type()) else {
            return false;
        };
        let Some(mask_view) = tt_dialect::types::TensorView::of(mask.r#type()) else {
            return false;
        };
        let mask_type = ir::tensor_type(src_view.shape, mask_view.element, src_view.encoding);
        rewriter.set_insertion_point_before(op);
        let converted = create(
            rewriter,
            "ttg.convert_layout",
            op.location(),
            &[mask],
            &[mask_type],
            &[],
        );
        operands.push(first_result(converted));
    }
    rewriter.start_op_modification(op);
    ir::set_operands(op, &operands);
    rewriter.finalize_op_modification(op);
    true
}

/// As Triton rebuilds it: the new allocation keeps no attributes.
fn local_alloc_source<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    converted_operand(op, 0)
        .is_some_and(|src| replace_with(rewriter, op, op, "ttg.local_alloc", &[src], &[]))
}

fn local_store_source<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    converted_operand(op, 0).is_some_and(|src| set_operand(rewriter, op, 0, src))
}

/// `tmem_store(convert(x))` stores `x` when `x`'s layout is already one a
/// tensor-memory access of the destination gives
/// ([`crate::tmem::is_access_compatible`]).
fn tmem_store_source<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    // Operands: the destination, an optional token, the source, the
    // predicate.
    let Some(index) = op.operand_count().checked_sub(2) else {
        return false;
    };
    let Some(src) = converted_operand(op, index) else {
        return false;
    };
    let (Some(dst), Some(num_warps)) = (
        operand(op, 0).and_then(|d| MemDesc::of(d.r#type())),
        ir::lookup_num_warps(op),
    ) else {
        return false;
    };
    crate::tmem::is_access_compatible(src.r#type(), &dst, num_warps).unwrap_or(false)
        && set_operand(rewriter, op, index, src)
}

/// The partition regions of a `ttg.warp_specialize` (those of the
/// `ttg.warp_specialize.partitions` op in its second region).
fn partition_regions<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<Vec<RegionRef<'c, 'a>>> {
    let holder = op.region(1).ok()?.first_block()?.first_operation()?;
    if !is_op(holder, "ttg.warp_specialize.partitions") {
        return None;
    }
    // SAFETY: the holder lives in `op`, which outlives `'a`.
    let holder = unsafe { OperationRef::<'c, 'a>::from_raw(holder.to_raw()) };
    Some(
        (0..holder.region_count())
            .filter_map(|i| holder.region(i).ok())
            .collect(),
    )
}

/// `ttg.warp_specialize` drops what nothing needs, as Triton: a capture
/// that repeats an earlier one (its block arguments then stand for the
/// first), captures no partition uses, and results nothing uses (with the
/// default region's yielded values).
fn warp_specialize_unused<'c, 'a>(
    op: OperationRef<'c, 'a>,
    rewriter: &RewriterBase<'c, 'a>,
) -> bool {
    let Some(partitions) = partition_regions(op) else {
        return false;
    };
    let captures: Vec<Value<'c, 'a>> = op.operands().collect();
    let entry_args = |region: &RegionRef<'c, 'a>| -> Vec<Value<'c, 'a>> {
        region.first_block().map_or_else(Vec::new, |block| {
            (0..block.argument_count())
                .filter_map(|i| block.argument(i).ok().map(Value::from))
                .collect()
        })
    };
    if partitions
        .iter()
        .any(|r| entry_args(r).len() != captures.len())
    {
        return false;
    }
    let mut unused_captures = vec![false; captures.len()];
    for i in 0..captures.len() {
        if let Some(first) = (0..i).find(|&k| captures[k] == captures[i]) {
            unused_captures[i] = true;
            for region in &partitions {
                let args = entry_args(region);
                rewriter.replace_all_uses_with(args[i], args[first]);
            }
        }
    }
    for (i, unused) in unused_captures.iter_mut().enumerate() {
        *unused |= partitions.iter().all(|r| !ir::has_uses(entry_args(r)[i]));
    }
    let results: Vec<Value<'c, 'a>> = op.results().map(Value::from).collect();
    let unused_results: Vec<bool> = results.iter().map(|r| !ir::has_uses(*r)).collect();
    if !unused_captures.contains(&true) && !unused_results.contains(&true) {
        return false;
    }
    let keep = |values: &[Value<'c, 'a>], unused: &[bool]| -> Vec<Value<'c, 'a>> {
        values
            .iter()
            .zip(unused)
            .filter(|(_, &u)| !u)
            .map(|(v, _)| *v)
            .collect()
    };
    if unused_captures.contains(&true) {
        for region in &partitions {
            let Some(block) = region.first_block() else {
                continue;
            };
            for i in (0..captures.len()).rev().filter(|&i| unused_captures[i]) {
                // SAFETY: `i` indexes an argument of the live block, which
                // has no uses left.
                unsafe { mlir_sys::mlirBlockEraseArgument(block.to_raw(), i as u32) };
            }
        }
        rewriter.start_op_modification(op);
        ir::set_operands(op, &keep(&captures, &unused_captures));
        rewriter.finalize_op_modification(op);
    }
    if !unused_results.contains(&true) {
        return true;
    }
    let Ok(default) = op.region(0) else {
        return true;
    };
    let mut block = default.first_block();
    while let Some(b) = block {
        if let Some(yield_op) = b.terminator().filter(|t| is_op(*t, "ttg.warp_yield")) {
            let values: Vec<Value> = yield_op.operands().collect();
            rewriter.start_op_modification(yield_op);
            ir::set_operands(yield_op, &keep(&values, &unused_results));
            rewriter.finalize_op_modification(yield_op);
        }
        block = b.next_in_region();
    }
    let kept_types: Vec<Type<'c>> = keep(&results, &unused_results)
        .iter()
        .map(|v| v.r#type())
        .collect();
    let attributes: Vec<(Identifier<'c>, melior::ir::Attribute<'c>)> = ir::attributes(op);
    let operands: Vec<Value<'c, 'a>> = op.operands().collect();
    let Ok(new) =
        melior::ir::operation::OperationBuilder::new("ttg.warp_specialize", op.location())
            .add_operands(&operands)
            .add_results(&kept_types)
            .add_attributes(&attributes)
            .add_regions([Region::new(), Region::new()])
            .build()
    else {
        return true;
    };
    rewriter.set_insertion_point_before(op);
    let new = rewriter.insert(new);
    for i in 0..2 {
        if let (Ok(to), Ok(from)) = (new.region(i), op.region(i)) {
            // SAFETY: both regions are live; the new op's is empty and
            // takes the old op's blocks.
            unsafe { mlir_sys::mlirRegionTakeBody(to.to_raw(), from.to_raw()) };
        }
    }
    let mut next = 0;
    for (i, result) in results.iter().enumerate() {
        if unused_results[i] {
            continue;
        }
        if let Ok(new_result) = new.result(next) {
            rewriter.replace_all_uses_with(*result, new_result.into());
        }
        next += 1;
    }
    rewriter.erase_op(op);
    true
}
