//! Small, safe queries and edits on IR that folders, patterns and passes
//! share: the op that defines a value, constant values and their splat
//! elements, and operand lists of ops with `operandSegmentSizes`.

use melior::ir::{
    attribute::DenseI32ArrayAttribute,
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, OperationResult},
    Attribute, AttributeLike, Value,
};

/// The op whose result `value` is, or `None` for a block argument.
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    OperationResult::try_from(value).ok().map(|r| r.owner())
}

/// Whether `op` is named `name`.
pub fn is_op(op: OperationRef, name: &str) -> bool {
    op.name().as_string_ref().as_str() == Ok(name)
}

/// The defining op of `value` when it is named `name`.
pub fn defined_by<'c, 'a>(value: Value<'c, 'a>, name: &str) -> Option<OperationRef<'c, 'a>> {
    defining_op(value).filter(|op| is_op(*op, name))
}

/// The `value` attribute of the `arith.constant` that defines `value`.
pub fn constant_of<'c>(value: Value<'c, '_>) -> Option<Attribute<'c>> {
    defined_by(value, "arith.constant")?.attribute("value").ok()
}

/// The one element of a constant: the attribute itself for a scalar
/// integer or float, the splat value of a splat dense elements attribute,
/// `None` otherwise.
pub fn splat_element(attr: Attribute) -> Option<Attribute> {
    let raw = attr.to_raw();
    unsafe {
        if mlir_sys::mlirAttributeIsAInteger(raw) || mlir_sys::mlirAttributeIsAFloat(raw) {
            Some(attr)
        } else if mlir_sys::mlirAttributeIsADenseElements(raw)
            && mlir_sys::mlirDenseElementsAttrIsSplat(raw)
        {
            Some(Attribute::from_raw(
                mlir_sys::mlirDenseElementsAttrGetSplatValue(raw),
            ))
        } else {
            None
        }
    }
}

/// The value of an integer attribute (sign-extended), or of the splat
/// element of an integer constant.
pub fn splat_int(attr: Attribute) -> Option<i64> {
    let element = splat_element(attr)?;
    unsafe {
        mlir_sys::mlirAttributeIsAInteger(element.to_raw())
            .then(|| mlir_sys::mlirIntegerAttrGetValueInt(element.to_raw()))
    }
}

/// Whether `attr` is an integer zero, scalar or splat.
pub fn is_int_zero(attr: Attribute) -> bool {
    splat_int(attr) == Some(0)
}

/// The integer value every element of the constant `value` holds, if
/// `value` is such a constant (an `i1` true reads as -1).
pub fn constant_int(value: Value) -> Option<i64> {
    splat_int(constant_of(value)?)
}

/// Replaces the operands of `op`, an op with `operandSegmentSizes`, by the
/// concatenation of `groups`, one group per operand segment. Callers inside
/// a pattern wrap this in the rewriter's in-place modification.
pub fn set_segmented_operands<'c, 'a>(op: OperationRef<'c, 'a>, groups: &[&[Value<'c, 'a>]]) {
    let operands: Vec<Value> = groups.iter().flat_map(|g| g.iter().copied()).collect();
    let sizes: Vec<i32> = groups.iter().map(|g| g.len() as i32).collect();
    let context = op.context();
    let sizes = DenseI32ArrayAttribute::new(unsafe { context.to_ref() }, &sizes);
    set_operands(op, &operands);
    let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
    op.set_inherent_attribute("operandSegmentSizes", sizes.into());
}

/// Replaces the operands of `op`. Callers inside a pattern wrap this in the
/// rewriter's in-place modification.
pub fn set_operands<'c, 'a>(op: OperationRef<'c, 'a>, operands: &[Value<'c, 'a>]) {
    let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
    op.set_operands(operands);
}
