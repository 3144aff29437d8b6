//! Small, safe queries and edits on IR that folders, patterns and passes
//! share: the op that defines a value, constant values and their splat
//! elements, operand lists of ops with `operandSegmentSizes`, and an op's
//! traits and memory effects.

use melior::ir::{
    attribute::DenseI32ArrayAttribute,
    operation::OperationBuilder,
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut, OperationResult},
    r#type::RankedTensorType,
    Attribute, AttributeLike, Identifier, Location, Type, TypeLike, Value, ValueLike,
};
use melior::RewriterBase;

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

/// The splat value of a dense elements attribute that is a splat (scalar
/// attributes do not count).
pub fn dense_splat_value(attr: Attribute) -> Option<Attribute> {
    let raw = attr.to_raw();
    unsafe {
        (mlir_sys::mlirAttributeIsADenseElements(raw)
            && mlir_sys::mlirDenseElementsAttrIsSplat(raw))
        .then(|| Attribute::from_raw(mlir_sys::mlirDenseElementsAttrGetSplatValue(raw)))
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

/// Every attribute of `op`: inherent ones (properties) and discardable
/// ones, as the generic printer shows them.
pub fn attributes<'c>(op: OperationRef<'c, '_>) -> Vec<(Identifier<'c>, Attribute<'c>)> {
    op.attributes().collect()
}

/// The discardable attributes of `op` whose names are in `names`.
pub fn discardable_attributes<'c>(
    op: OperationRef<'c, '_>,
    names: &[&str],
) -> Vec<(Identifier<'c>, Attribute<'c>)> {
    names
        .iter()
        .filter_map(|name| {
            let attr = op.discardable_attribute(name).ok()?;
            Some((
                Identifier::new(unsafe { op.context().to_ref() }, name),
                attr,
            ))
        })
        .collect()
}

/// Creates an op at the rewriter's insertion point.
pub fn create<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    name: &str,
    location: Location<'c>,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
    attributes: &[(Identifier<'c>, Attribute<'c>)],
) -> OperationRef<'c, 'a> {
    let op = OperationBuilder::new(name, location)
        .add_operands(operands)
        .add_results(results)
        .add_attributes(attributes)
        .build()
        .unwrap_or_else(|e| panic!("cannot build '{name}': {e}"));
    let inserted = rewriter.insert(op);
    unsafe { OperationRef::from_raw(inserted.to_raw()) }
}

/// Creates, at the rewriter's insertion point, an op like `op` (same name,
/// location and attributes) with other operands and result types.
pub fn create_like<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    op: OperationRef<'c, '_>,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
) -> OperationRef<'c, 'a> {
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default().to_owned();
    create(
        rewriter,
        &name,
        op.location(),
        operands,
        results,
        &attributes(op),
    )
}

/// Result `index` of `op` as a value.
pub fn result<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Value<'c, 'a> {
    op.result(index)
        .unwrap_or_else(|_| panic!("op has no result {index}"))
        .into()
}

/// The ranked tensor type `shape x element` with `encoding`.
pub fn tensor_type<'c>(
    shape: &[i64],
    element: Type<'c>,
    encoding: Option<Attribute<'c>>,
) -> Type<'c> {
    let shape: Vec<u64> = shape.iter().map(|&d| d as u64).collect();
    RankedTensorType::new(&shape, element, encoding).into()
}

/// The splat dense elements attribute of shaped type `ty` holding `element`.
pub fn splat_attribute<'c>(ty: Type<'c>, element: Attribute<'c>) -> Attribute<'c> {
    unsafe {
        Attribute::from_raw(mlir_sys::mlirDenseElementsAttrSplatGet(
            ty.to_raw(),
            element.to_raw(),
        ))
    }
}

/// Whether `value` has exactly one use.
pub fn has_one_use(value: Value) -> bool {
    unsafe {
        let first = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        !first.ptr.is_null() && mlir_sys::mlirOpOperandGetNextUse(first).ptr.is_null()
    }
}

/// The ops that use `value`, once per use.
pub fn users<'c, 'a>(value: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut users = Vec::new();
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !operand.ptr.is_null() {
            users.push(OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(
                operand,
            )));
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    users
}

/// A trait that [`has_trait`] tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trait {
    Elementwise,
    ConstantLike,
    Commutative,
    Terminator,
    IsolatedFromAbove,
    RecursiveMemoryEffects,
}

/// Whether `op` has the MLIR trait `t`.
pub fn has_trait(op: OperationRef, t: Trait) -> bool {
    let code = match t {
        Trait::Elementwise => crate::ffi::OP_TRAIT_ELEMENTWISE,
        Trait::ConstantLike => crate::ffi::OP_TRAIT_CONSTANT_LIKE,
        Trait::Commutative => crate::ffi::OP_TRAIT_COMMUTATIVE,
        Trait::Terminator => crate::ffi::OP_TRAIT_TERMINATOR,
        Trait::IsolatedFromAbove => crate::ffi::OP_TRAIT_ISOLATED_FROM_ABOVE,
        Trait::RecursiveMemoryEffects => crate::ffi::OP_TRAIT_RECURSIVE_MEMORY_EFFECTS,
    };
    unsafe { crate::ffi::ttOpHasTrait(op.to_raw(), code) }
}

/// Whether `op` (with everything nested in it) has no memory effect.
pub fn is_memory_effect_free(op: OperationRef) -> bool {
    unsafe { crate::ffi::ttOpIsMemoryEffectFree(op.to_raw()) }
}

/// Whether `op` may be executed speculatively (hoisted out of a condition).
pub fn is_speculatable(op: OperationRef) -> bool {
    unsafe { crate::ffi::ttOpIsSpeculatable(op.to_raw()) }
}

/// Whether `op` is pure: free of memory effects and speculatable.
pub fn is_pure(op: OperationRef) -> bool {
    is_memory_effect_free(op) && is_speculatable(op)
}

/// Whether erasing `op` would change nothing (no uses, no effects).
pub fn is_trivially_dead(op: OperationRef) -> bool {
    unsafe { crate::ffi::ttOpIsTriviallyDead(op.to_raw()) }
}

/// The memory effects of `op` and everything nested in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    pub read: bool,
    pub write: bool,
    pub allocate: bool,
    pub free: bool,
}

/// The memory effects of `op`, or `None` when they are unknown (an op that
/// implements no effect interface).
pub fn memory_effects(op: OperationRef) -> Option<Effects> {
    let mut mask = 0;
    unsafe { crate::ffi::ttOpMemoryEffects(op.to_raw(), &mut mask) }.then_some(Effects {
        read: mask & crate::ffi::EFFECT_READ != 0,
        write: mask & crate::ffi::EFFECT_WRITE != 0,
        allocate: mask & crate::ffi::EFFECT_ALLOCATE != 0,
        free: mask & crate::ffi::EFFECT_FREE != 0,
    })
}
