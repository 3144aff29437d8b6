//! The folders of the `tt` ops, by op name: the ops that Triton 3.6 marks
//! `hasFolder` (addptr, advance, make_range, splat, expand_dims, reshape,
//! broadcast, trans, fp_to_fp), each with Triton's rules.
//!
//! A folder sees the op and the constant values of its operands. It never
//! assumes the op is well formed: an operand, attribute or type that is not
//! what the rule expects makes it fold nothing, so MLIR's C++ asserts (a
//! dense constant of the wrong shape, a splat of the wrong element type)
//! are never reached.

use melior::ir::{
    attribute::DenseI32ArrayAttribute,
    operation::{OperationLike, OperationMutLike, OperationRefMut},
    Attribute, AttributeLike, TypeLike, Value, ValueLike,
};

use super::{Fold, FoldInput, Folder};
use crate::ir;
use crate::types::{self, Tensor};
use crate::verify::{i32_array_attr, int_attr, operand_type, result_type};

/// The folder of the op named `name`, if it has one.
pub fn folder(name: &str) -> Option<Folder> {
    Some(match name {
        "tt.addptr" => add_ptr,
        "tt.advance" => advance,
        "tt.make_range" => make_range,
        "tt.splat" => splat,
        "tt.expand_dims" => expand_dims,
        "tt.reshape" => reshape,
        "tt.broadcast" => broadcast,
        "tt.trans" => trans,
        "tt.fp_to_fp" => fp_to_fp,
        _ => return None,
    })
}

/// `addptr(p, 0) -> p`, for a scalar zero or a splat of zeros.
fn add_ptr<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    match (ir::operand(input.op, 0), input.constant(1)) {
        (Some(ptr), Some(offset)) if ir::is_int_zero(offset) => Fold::Value(ptr),
        _ => Fold::None,
    }
}

/// `advance(p, [0, 0, ...]) -> p`: every offset a constant zero (so also
/// an advance without offsets).
fn advance<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    let Some(ptr) = ir::operand(input.op, 0) else {
        return Fold::None;
    };
    let all_zero =
        (1..input.op.operand_count()).all(|i| input.constant(i).and_then(ir::splat_int) == Some(0));
    if all_zero {
        Fold::Value(ptr)
    } else {
        Fold::None
    }
}

/// `make_range {start = s, end = s + 1}` is the constant `dense<s>`. The
/// bounds compare as the unsigned 32-bit values Triton's accessors return.
fn make_range<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    let op = input.op;
    let (Some(start), Some(end)) = (int_attr(op, "start"), int_attr(op, "end")) else {
        return Fold::None;
    };
    if (start as u32).wrapping_add(1) != end as u32 {
        return Fold::None;
    }
    let (Ok(start), Some(ty)) = (op.attribute("start"), result_type(op, 0)) else {
        return Fold::None;
    };
    constant(ir::splat_attr(ty, start))
}

/// `splat(c)` of a scalar integer or float constant is the splat constant.
fn splat<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    let (Some(value), Some(ty)) = (input.constant(0), result_type(input.op, 0)) else {
        return Fold::None;
    };
    let raw = value.to_raw();
    if unsafe { !mlir_sys::mlirAttributeIsAInteger(raw) && !mlir_sys::mlirAttributeIsAFloat(raw) } {
        return Fold::None;
    }
    constant(ir::splat_attr(ty, value))
}

/// A view op (expand_dims, reshape) of a dense constant is the constant
/// with the result type: a splat takes the new shape, other data keeps its
/// row-major order.
fn view_of_constant<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    let (Some(value), Some(ty)) = (input.constant(0), result_type(input.op, 0)) else {
        return Fold::None;
    };
    if !ir::is_dense_elements(value) {
        return Fold::None;
    }
    if ir::is_splat_elements(value) {
        constant(ir::resize_splat_attr(value, ty))
    } else {
        constant(ir::reshape_attr(value, ty))
    }
}

/// `expand_dims` of a dense constant is a constant.
fn expand_dims<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    view_of_constant(input)
}

/// A reshape to its own source type without `allow_reorder` is its source;
/// a reshape of a dense constant is a constant.
fn reshape<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    let op = input.op;
    if let (Some(src), Some(ty)) = (ir::operand(op, 0), result_type(op, 0)) {
        if src.r#type() == ty && !ir::has_unit_attribute(op, "allow_reorder") {
            return Fold::Value(src);
        }
    }
    view_of_constant(input)
}

/// A broadcast to its own source type is its source; a broadcast of a
/// splat constant is the splat constant of the result shape.
fn broadcast<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    let op = input.op;
    let (Some(src), Some(ty)) = (ir::operand(op, 0), result_type(op, 0)) else {
        return Fold::None;
    };
    if src.r#type() == ty {
        return Fold::Value(src);
    }
    match input.constant(0) {
        Some(value) if ir::is_splat_elements(value) => constant(ir::resize_splat_attr(value, ty)),
        _ => Fold::None,
    }
}

/// `trans`, in Triton's order of rules:
/// - with the identity order and an unchanged type, it is its source;
/// - `trans(trans(x, inner), outer)` becomes, in place,
///   `trans(x, [inner[outer[0]], inner[outer[1]], ...])`;
/// - a transposed splat constant is the splat constant of the result type.
fn trans<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    let op = input.op;
    let (Some(src), Some(ty), Some(order)) = (
        ir::operand(op, 0),
        result_type(op, 0),
        i32_array_attr(op, "order"),
    ) else {
        return Fold::None;
    };
    let identity = order.iter().enumerate().all(|(i, &d)| d as i64 == i as i64);
    if identity && src.r#type() == ty {
        return Fold::Value(src);
    }
    if let Some(inner) = ir::defined_by(src, "tt.trans") {
        return match (ir::operand(inner, 0), i32_array_attr(inner, "order")) {
            (Some(inner_src), Some(inner_order)) => {
                compose_transposes(input, inner_src, &inner_order, &order)
            }
            _ => Fold::None,
        };
    }
    match input.constant(0) {
        Some(value) if ir::is_splat_elements(value) => constant(ir::reshape_attr(value, ty)),
        _ => Fold::None,
    }
}

/// Rewrites `trans(trans(x, inner), outer)` in place to one `trans` of `x`
/// and reports the op's own result; nothing when the orders do not compose.
fn compose_transposes<'c, 'a>(
    input: &FoldInput<'c, 'a>,
    source: Value<'c, 'a>,
    inner: &[i32],
    outer: &[i32],
) -> Fold<'c, 'a> {
    if inner.len() != outer.len() {
        return Fold::None;
    }
    let Some(order) = outer
        .iter()
        .map(|&d| usize::try_from(d).ok().and_then(|d| inner.get(d).copied()))
        .collect::<Option<Vec<i32>>>()
    else {
        return Fold::None;
    };
    let Some(result) = ir::result(input.op, 0) else {
        return Fold::None;
    };
    let context = input.op.context();
    let order = DenseI32ArrayAttribute::new(unsafe { context.to_ref() }, &order);
    let mut op = unsafe { OperationRefMut::from_raw(input.op.to_raw()) };
    op.set_inherent_attribute("order", order.into());
    op.set_operand(0, source);
    Fold::Value(result)
}

/// `fp_to_fp` to its own source type is its source; of a constant +0.0 or
/// -0.0 (scalar or splat) it is that zero in the result's float format
/// (formats without a negative zero, the FNUZ ones, give +0.0).
fn fp_to_fp<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    let op = input.op;
    let (Some(src), Some(ty)) = (ir::operand(op, 0), result_type(op, 0)) else {
        return Fold::None;
    };
    if src.r#type() == ty {
        return Fold::Value(src);
    }
    let element = types::element_type(ty);
    let Some(value) = input
        .constant(0)
        .and_then(ir::splat_element)
        .filter(|v| unsafe { mlir_sys::mlirAttributeIsAFloat(v.to_raw()) })
    else {
        return Fold::None;
    };
    let (Some(src_type), true) = (operand_type(op, 0), types::is_float(element)) else {
        return Fold::None;
    };
    if !types::is_float(types::element_type(src_type))
        || value.r#type() != types::element_type(src_type)
    {
        return Fold::None;
    }
    let value = unsafe { mlir_sys::mlirFloatAttrGetValueDouble(value.to_raw()) };
    if value != 0.0 {
        return Fold::None;
    }
    let zero = unsafe {
        Attribute::from_raw(mlir_sys::mlirFloatAttrDoubleGet(
            mlir_sys::mlirTypeGetContext(ty.to_raw()),
            element.to_raw(),
            value,
        ))
    };
    if Tensor::of(ty).is_some() {
        constant(ir::splat_attr(ty, zero))
    } else {
        Fold::Constant(zero)
    }
}

/// A constant fold when `attr` could be formed.
fn constant<'c, 'a>(attr: Option<Attribute<'c>>) -> Fold<'c, 'a> {
    attr.map_or(Fold::None, Fold::Constant)
}
