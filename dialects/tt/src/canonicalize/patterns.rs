//! The canonicalization patterns of the `tt` ops, by op name: Triton 3.6's
//! patterns for `tt.load` and `tt.store` (constant masks), its
//! `canonicalize` methods of `tt.expand_dims` and `tt.reshape`, and the two
//! declarative patterns of `tt.broadcast` (`Canonicalize.td`).
//!
//! Rewrites build their new ops as Triton's builders do: inherent
//! attributes only (discardable ones are not carried over), at the location
//! Triton uses (the replaced op's, or for the declarative patterns the
//! fusion of the matched ops' locations). Every pattern checks operand
//! counts and types before touching the IR and leaves it untouched when it
//! does not apply.

use melior::ir::{
    attribute::{BoolAttribute, DenseI32ArrayAttribute, IntegerAttribute},
    operation::{OperationLike, OperationRef},
    Attribute, Location, Operation, Type, Value, ValueLike,
};
use melior::RewriterBase;

use crate::ir;
use crate::rewrite::Pattern;
use crate::types::Tensor;
use crate::verify::{int_attr, result_type};

/// The patterns of the op named `name`.
pub fn patterns(name: &str) -> &'static [Pattern] {
    match name {
        "tt.load" => &[Pattern {
            benefit: 1,
            rewrite: masked_load,
            generated: &[],
        }],
        "tt.store" => &[Pattern {
            benefit: 1,
            rewrite: masked_store,
            generated: &[],
        }],
        "tt.expand_dims" => &[Pattern {
            benefit: 1,
            rewrite: expand_dims,
            generated: &[],
        }],
        "tt.reshape" => &[Pattern {
            benefit: 1,
            rewrite: reshape,
            generated: &[],
        }],
        // Declarative patterns weigh as many ops as they match.
        "tt.broadcast" => &[
            Pattern {
                benefit: 2,
                rewrite: broadcast_of_splat,
                generated: &["tt.splat"],
            },
            Pattern {
                benefit: 2,
                rewrite: broadcast_of_broadcast,
                generated: &["tt.broadcast"],
            },
        ],
        _ => &[],
    }
}

/// A mask that an `arith.constant` defines as a splat: `Some(true)` when
/// its element is the integer 1, `Some(false)` for any other integer.
/// Scalar masks and non-splat masks are not constant masks for Triton.
fn splat_mask(mask: Value) -> Option<bool> {
    let attr = ir::constant_of(mask)?;
    if !ir::is_splat_elements(attr) {
        return None;
    }
    let element = ir::splat_element(attr)?;
    ir::int_value(element).map(|(_, unsigned)| unsigned == 1)
}

/// An `i32` integer attribute (the storage of Triton's enum attributes).
fn i32_attr<'c>(op: OperationRef<'c, '_>, value: i64) -> Attribute<'c> {
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    IntegerAttribute::new(
        melior::ir::r#type::IntegerType::new(context, 32).into(),
        value,
    )
    .into()
}

/// The inherent attribute `name` of `op`, or `default` when unset.
fn attr_or<'c>(op: OperationRef<'c, '_>, name: &str, default: Attribute<'c>) -> Attribute<'c> {
    ir::inherent_attribute(op, name).unwrap_or(default)
}

/// Inserts `new` before `op` and replaces `op` with its results.
fn replace_with_new<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    op: OperationRef<'c, 'a>,
    new: Operation<'c>,
) -> bool {
    if new.result_count() != op.result_count() {
        return false;
    }
    rewriter.set_insertion_point_before(op);
    let new = rewriter.insert(new);
    let results: Vec<Value> = new.results().map(Value::from).collect();
    rewriter.replace_op_with_values(op, &results);
    true
}

/// `load(p, splat(true), other)` becomes a load of `p` without mask and
/// `other`; `load(p, splat(false), other)` is `other` (without `other` the
/// loaded value is undefined and the load stays).
fn masked_load<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let (Some(ptr), Some(mask), Some(other)) =
        (ir::segment(op, 0), ir::segment(op, 1), ir::segment(op, 2))
    else {
        return false;
    };
    let (&[ptr], &[mask]) = (ptr.as_slice(), mask.as_slice()) else {
        return false;
    };
    match splat_mask(mask) {
        Some(true) => {
            let Some(ty) = result_type(op, 0) else {
                return false;
            };
            let context_ref = op.context();
            let context = unsafe { context_ref.to_ref() };
            let mut attributes = vec![(
                "operandSegmentSizes",
                DenseI32ArrayAttribute::new(context, &[1, 0, 0]).into(),
            )];
            for name in ["boundaryCheck", "padding"] {
                if let Some(attr) = ir::inherent_attribute(op, name) {
                    attributes.push((name, attr));
                }
            }
            attributes.push(("cache", attr_or(op, "cache", i32_attr(op, 1))));
            attributes.push(("evict", attr_or(op, "evict", i32_attr(op, 1))));
            attributes.push((
                "isVolatile",
                attr_or(op, "isVolatile", BoolAttribute::new(context, false).into()),
            ));
            match ir::build_op("tt.load", op.location(), &[ptr], &[ty], &attributes) {
                Some(new) => replace_with_new(rewriter, op, new),
                None => false,
            }
        }
        Some(false) => match other.as_slice() {
            &[other] if op.result_count() == 1 => {
                rewriter.replace_op_with_values(op, &[other]);
                true
            }
            _ => false,
        },
        None => false,
    }
}

/// `store(p, v, splat(true))` becomes a store of `v` to `p` without mask
/// (and, as Triton's builder has it, without `boundaryCheck`);
/// `store(p, v, splat(false))` stores nothing and is erased.
fn masked_store<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    if op.operand_count() != 3 || op.result_count() != 0 {
        return false;
    }
    let (Some(ptr), Some(value), Some(mask)) =
        (ir::operand(op, 0), ir::operand(op, 1), ir::operand(op, 2))
    else {
        return false;
    };
    match splat_mask(mask) {
        Some(true) => {
            let attributes = [
                ("cache", attr_or(op, "cache", i32_attr(op, 1))),
                ("evict", attr_or(op, "evict", i32_attr(op, 1))),
            ];
            match ir::build_op("tt.store", op.location(), &[ptr, value], &[], &attributes) {
                Some(new) => replace_with_new(rewriter, op, new),
                None => false,
            }
        }
        Some(false) => {
            rewriter.erase_op(op);
            true
        }
        None => false,
    }
}

/// The source operand and the one result type of a single-operand,
/// single-result op.
fn unary<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<(Value<'c, 'a>, Type<'c>)> {
    if op.operand_count() != 1 || op.result_count() != 1 {
        return None;
    }
    Some((ir::operand(op, 0)?, result_type(op, 0)?))
}

/// Replaces `op` by `tt.splat(source)` of `op`'s result type, built at
/// `location`.
fn replace_with_splat<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    op: OperationRef<'c, 'a>,
    source: Value<'c, 'a>,
    ty: Type<'c>,
    location: Location<'c>,
) -> bool {
    if Tensor::of(ty).is_none() {
        return false;
    }
    match ir::build_op("tt.splat", location, &[source], &[ty], &[]) {
        Some(new) => replace_with_new(rewriter, op, new),
        None => false,
    }
}

/// The one operand of `op` when `op` is a single-operand op named `name`.
fn single_source<'c, 'a>(op: OperationRef<'c, 'a>, name: &str) -> Option<Value<'c, 'a>> {
    (ir::is_op(op, name) && op.operand_count() == 1)
        .then(|| ir::operand(op, 0))
        .flatten()
}

/// `expand_dims(splat(s))` is `splat(s)`; `expand_dims(broadcast(x))`
/// becomes `broadcast(expand_dims(x))`, which lets broadcast chains merge.
///
/// The new `expand_dims` takes the encoding of the replaced one's result:
/// that is the encoding Triton infers from `x` (broadcast keeps its
/// source's encoding, and expand_dims's result encoding is the inferred
/// one), without a layout inference in this crate.
fn expand_dims<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let Some((src, ty)) = unary(op) else {
        return false;
    };
    let Some(producer) = ir::defining_op(src) else {
        return false;
    };
    if let Some(scalar) = single_source(producer, "tt.splat") {
        return replace_with_splat(rewriter, op, scalar, ty, op.location());
    }
    let Some(x) = single_source(producer, "tt.broadcast") else {
        return false;
    };
    let (Some(x_tensor), Some(result), Some(axis)) =
        (Tensor::of(x.r#type()), Tensor::of(ty), int_attr(op, "axis"))
    else {
        return false;
    };
    let Some(axis_index) = usize::try_from(axis).ok().filter(|&a| a <= x_tensor.rank()) else {
        return false;
    };
    let encoding = match (x_tensor.encoding, result.encoding) {
        (None, _) => None,
        (Some(_), Some(encoding)) => Some(encoding),
        (Some(_), None) => return false,
    };
    let mut shape = x_tensor.shape.clone();
    shape.insert(axis_index, 1);
    let expanded_type = ir::tensor_type(&shape, x_tensor.element, encoding);
    let (Ok(axis_attr), Some(broadcast_type)) = (op.attribute("axis"), result_type(op, 0)) else {
        return false;
    };
    let Some(expanded) = ir::build_op(
        "tt.expand_dims",
        op.location(),
        &[x],
        &[expanded_type],
        &[("axis", axis_attr)],
    ) else {
        return false;
    };
    if expanded.result_count() != 1 {
        return false;
    }
    // Both ops are built detached first, so that nothing is inserted when
    // either cannot be built.
    let expanded_value: Value =
        unsafe { Value::from_raw(mlir_sys::mlirOperationGetResult(expanded.to_raw(), 0)) };
    let Some(broadcast) = ir::build_op(
        "tt.broadcast",
        producer.location(),
        &[expanded_value],
        &[broadcast_type],
        &[],
    ) else {
        return false;
    };
    if broadcast.result_count() != 1 {
        return false;
    }
    rewriter.set_insertion_point_before(op);
    rewriter.insert(expanded);
    replace_with_new(rewriter, op, broadcast)
}

/// Unless the reshape carries `efficient_layout`: `reshape(reshape(x))`
/// is one reshape of `x` (reordering allowed if either allowed it), and
/// `reshape(splat(s))` is `splat(s)`.
fn reshape<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    if ir::has_unit_attribute(op, "efficient_layout") {
        return false;
    }
    let Some((src, ty)) = unary(op) else {
        return false;
    };
    let Some(producer) = ir::defining_op(src) else {
        return false;
    };
    if let Some(x) = single_source(producer, "tt.reshape") {
        let mut attributes = Vec::new();
        if ir::has_unit_attribute(op, "allow_reorder")
            || ir::has_unit_attribute(producer, "allow_reorder")
        {
            let context_ref = op.context();
            let context = unsafe { context_ref.to_ref() };
            attributes.push(("allow_reorder", Attribute::unit(context)));
        }
        return match ir::build_op("tt.reshape", op.location(), &[x], &[ty], &attributes) {
            Some(new) => replace_with_new(rewriter, op, new),
            None => false,
        };
    }
    if let Some(scalar) = single_source(producer, "tt.splat") {
        return replace_with_splat(rewriter, op, scalar, ty, op.location());
    }
    false
}

/// `broadcast(splat(s))` is `splat(s)` of the broadcast's type.
fn broadcast_of_splat<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let Some((src, ty)) = unary(op) else {
        return false;
    };
    let Some(splat) = ir::defining_op(src) else {
        return false;
    };
    let Some(scalar) = single_source(splat, "tt.splat") else {
        return false;
    };
    let Some(location) = ir::fused_location(&[op.location(), splat.location()]) else {
        return false;
    };
    replace_with_splat(rewriter, op, scalar, ty, location)
}

/// `broadcast(broadcast(x))` is one broadcast of `x`.
fn broadcast_of_broadcast<'c, 'a>(
    op: OperationRef<'c, 'a>,
    rewriter: &RewriterBase<'c, 'a>,
) -> bool {
    let Some((src, ty)) = unary(op) else {
        return false;
    };
    let Some(inner) = ir::defining_op(src) else {
        return false;
    };
    let Some(x) = single_source(inner, "tt.broadcast") else {
        return false;
    };
    let Some(location) = ir::fused_location(&[op.location(), inner.location()]) else {
        return false;
    };
    match ir::build_op("tt.broadcast", location, &[x], &[ty], &[]) {
        Some(new) => replace_with_new(rewriter, op, new),
        None => false,
    }
}
