//! Raw IR navigation and editing over the MLIR C API.
//!
//! The loop passes rewrite IR they walk, clone and move, which is much
//! simpler over the C API's copyable handles than over melior's borrowed
//! references. Every function here takes and returns those handles; callers
//! only pass handles of live IR. [`Op`] and [`Val`] wrap handles so they can
//! key hash maps (by identity, as MLIR compares them).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use melior::StringRef;
use mlir_sys::{
    MlirAttribute, MlirBlock, MlirContext, MlirLocation, MlirOperation, MlirRegion, MlirType,
    MlirValue,
};

/// An operation handle, compared and hashed by identity.
#[derive(Clone, Copy, Debug)]
pub struct Op(pub MlirOperation);

impl PartialEq for Op {
    fn eq(&self, other: &Self) -> bool {
        self.0.ptr == other.0.ptr
    }
}
impl Eq for Op {}
impl Hash for Op {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.ptr.hash(state);
    }
}

/// A value handle, compared and hashed by identity.
#[derive(Clone, Copy, Debug)]
pub struct Val(pub MlirValue);

impl PartialEq for Val {
    fn eq(&self, other: &Self) -> bool {
        self.0.ptr == other.0.ptr
    }
}
impl Eq for Val {}
impl Hash for Val {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.ptr.hash(state);
    }
}

/// A block handle, compared and hashed by identity.
#[derive(Clone, Copy, Debug)]
pub struct Blk(pub MlirBlock);

impl PartialEq for Blk {
    fn eq(&self, other: &Self) -> bool {
        self.0.ptr == other.0.ptr
    }
}
impl Eq for Blk {}
impl Hash for Blk {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.ptr.hash(state);
    }
}

/// A map from original values to their replacements, as MLIR's `IRMapping`
/// for values.
pub type ValueMap = HashMap<Val, Val>;

/// `map[value]`, or `value` itself when it is not mapped.
pub fn lookup_or_self(map: &ValueMap, value: MlirValue) -> MlirValue {
    map.get(&Val(value)).map_or(value, |v| v.0)
}

pub fn is_null_block(block: MlirBlock) -> bool {
    block.ptr.is_null()
}

/// The op's name, e.g. `scf.for`.
pub fn name(op: MlirOperation) -> String {
    unsafe {
        let ident = mlir_sys::mlirOperationGetName(op);
        let raw = mlir_sys::mlirIdentifierStr(ident);
        let bytes = std::slice::from_raw_parts(raw.data as *const u8, raw.length);
        String::from_utf8_lossy(bytes).into_owned()
    }
}

/// Whether `op`'s name is one a loaded dialect registered (false for the
/// ops of unregistered dialects, which `-allow-unregistered-dialect` lets
/// through).
pub fn is_registered(op: MlirOperation) -> bool {
    let name = name(op);
    // SAFETY: `op` is live, so is its context; the name outlives the call.
    unsafe {
        mlir_sys::mlirContextIsRegisteredOperation(context(op), StringRef::new(&name).to_raw())
    }
}

/// Whether `op` is named `expected`.
pub fn is(op: MlirOperation, expected: &str) -> bool {
    unsafe {
        let ident = mlir_sys::mlirOperationGetName(op);
        let raw = mlir_sys::mlirIdentifierStr(ident);
        std::slice::from_raw_parts(raw.data as *const u8, raw.length) == expected.as_bytes()
    }
}

pub fn context(op: MlirOperation) -> MlirContext {
    unsafe { mlir_sys::mlirOperationGetContext(op) }
}

pub fn location(op: MlirOperation) -> MlirLocation {
    unsafe { mlir_sys::mlirOperationGetLocation(op) }
}

/// Where `v` is defined: its op's location, or its block argument's.
pub fn value_location(v: MlirValue) -> MlirLocation {
    // SAFETY: a live value; the location is owned by its context.
    unsafe { mlir_sys::mlirValueGetLocation(v) }
}

pub fn operand_count(op: MlirOperation) -> usize {
    unsafe { mlir_sys::mlirOperationGetNumOperands(op) as usize }
}

pub fn operand(op: MlirOperation, index: usize) -> MlirValue {
    unsafe { mlir_sys::mlirOperationGetOperand(op, index as isize) }
}

pub fn operands(op: MlirOperation) -> Vec<MlirValue> {
    (0..operand_count(op)).map(|i| operand(op, i)).collect()
}

/// Replaces all of `op`'s operands with `values`.
pub fn set_operand_list(op: MlirOperation, values: &[MlirValue]) {
    // SAFETY: a live op; the slice is read during the call only.
    unsafe { mlir_sys::mlirOperationSetOperands(op, values.len() as isize, values.as_ptr()) }
}

pub fn set_operand(op: MlirOperation, index: usize, value: MlirValue) {
    unsafe { mlir_sys::mlirOperationSetOperand(op, index as isize, value) }
}

pub fn result_count(op: MlirOperation) -> usize {
    unsafe { mlir_sys::mlirOperationGetNumResults(op) as usize }
}

pub fn result(op: MlirOperation, index: usize) -> MlirValue {
    unsafe { mlir_sys::mlirOperationGetResult(op, index as isize) }
}

pub fn results(op: MlirOperation) -> Vec<MlirValue> {
    (0..result_count(op)).map(|i| result(op, i)).collect()
}

pub fn region_count(op: MlirOperation) -> usize {
    unsafe { mlir_sys::mlirOperationGetNumRegions(op) as usize }
}

pub fn regions(op: MlirOperation) -> Vec<MlirRegion> {
    (0..region_count(op))
        .map(|i| unsafe { mlir_sys::mlirOperationGetRegion(op, i as isize) })
        .collect()
}

pub fn successor_count(op: MlirOperation) -> usize {
    unsafe { mlir_sys::mlirOperationGetNumSuccessors(op) as usize }
}

pub fn successors(op: MlirOperation) -> Vec<MlirBlock> {
    (0..successor_count(op))
        .map(|i| unsafe { mlir_sys::mlirOperationGetSuccessor(op, i as isize) })
        .collect()
}

/// The blocks of `region`, in order.
pub fn blocks(region: MlirRegion) -> Vec<MlirBlock> {
    let mut out = Vec::new();
    unsafe {
        let mut block = mlir_sys::mlirRegionGetFirstBlock(region);
        while !block.ptr.is_null() {
            out.push(block);
            block = mlir_sys::mlirBlockGetNextInRegion(block);
        }
    }
    out
}

/// The ranked tensor type `ty` with `encoding`; `None` when `ty` is not a
/// ranked tensor.
pub fn with_encoding(ty: MlirType, encoding: MlirAttribute) -> Option<MlirType> {
    // SAFETY: `ty` is a live type of the module's context; the view only
    // reads it.
    let view = tt_dialect::types::TensorView::of(unsafe { melior::ir::Type::from_raw(ty) })?;
    // SAFETY: the shape slice outlives the call, which copies it; the
    // element type and `encoding` belong to the same live context.
    Some(unsafe {
        mlir_sys::mlirRankedTensorTypeGet(
            view.shape.len() as isize,
            view.shape.as_ptr(),
            melior::ir::TypeLike::to_raw(&view.element),
            encoding,
        )
    })
}

/// The op after `op` in its block, if any.
pub fn next_op(op: MlirOperation) -> Option<MlirOperation> {
    // SAFETY: `op` is a live op in a block; the next op, when there is one,
    // is live too.
    let next = unsafe { mlir_sys::mlirOperationGetNextInBlock(op) };
    (!next.ptr.is_null()).then_some(next)
}

/// Whether `op` comes before `other` in their (common) block.
pub fn is_before(op: MlirOperation, other: MlirOperation) -> bool {
    // SAFETY: both ops are live and, as the caller checks, in one block.
    unsafe { mlir_sys::mlirOperationIsBeforeInBlock(op, other) }
}

/// The ops of `block`, in order.
pub fn block_ops(block: MlirBlock) -> Vec<MlirOperation> {
    let mut out = Vec::new();
    unsafe {
        let mut op = mlir_sys::mlirBlockGetFirstOperation(block);
        while !op.ptr.is_null() {
            out.push(op);
            op = mlir_sys::mlirOperationGetNextInBlock(op);
        }
    }
    out
}

/// The ops of every block of `region`, in order.
pub fn region_ops(region: MlirRegion) -> Vec<MlirOperation> {
    blocks(region).into_iter().flat_map(block_ops).collect()
}

pub fn block_args(block: MlirBlock) -> Vec<MlirValue> {
    unsafe {
        (0..mlir_sys::mlirBlockGetNumArguments(block))
            .map(|i| mlir_sys::mlirBlockGetArgument(block, i))
            .collect()
    }
}

/// The block that contains `op` (null when detached).
pub fn op_block(op: MlirOperation) -> MlirBlock {
    unsafe { mlir_sys::mlirOperationGetBlock(op) }
}

/// The op whose region contains `op`, if any.
pub fn parent_op(op: MlirOperation) -> Option<MlirOperation> {
    let parent = unsafe { mlir_sys::mlirOperationGetParentOperation(op) };
    (!parent.ptr.is_null()).then_some(parent)
}

pub fn block_parent_op(block: MlirBlock) -> Option<MlirOperation> {
    let parent = unsafe { mlir_sys::mlirBlockGetParentOperation(block) };
    (!parent.ptr.is_null()).then_some(parent)
}

/// Triton's `comesFromLoadOrBlockArg`: whether `v`, looked through
/// `ttg.convert_layout` and `tt.trans`, is a block argument or the result
/// of a global or descriptor load.
pub fn comes_from_load_or_block_arg(mut v: MlirValue) -> bool {
    while let Some(def) =
        defining_op(v).filter(|d| is(*d, "ttg.convert_layout") || is(*d, "tt.trans"))
    {
        v = operand(def, 0);
    }
    match defining_op(v) {
        None => true,
        Some(def) => ["tt.load", "tt.descriptor_load", "tt.descriptor_gather"]
            .iter()
            .any(|n| is(def, n)),
    }
}

/// Triton's `lookupNumWarps` ([`tt_dialect::ir::lookup_num_warps`]).
pub fn lookup_num_warps(op: MlirOperation) -> Option<u32> {
    // SAFETY: `op` is a live op; the reference does not outlive the call.
    tt_dialect::ir::lookup_num_warps(unsafe { melior::ir::operation::OperationRef::from_raw(op) })
}

pub fn block_parent_region(block: MlirBlock) -> MlirRegion {
    unsafe { mlir_sys::mlirBlockGetParentRegion(block) }
}

/// The last op of `block` when it is a terminator (MLIR's `IsTerminator`
/// trait).
pub fn terminator(block: MlirBlock) -> Option<MlirOperation> {
    let op = unsafe { mlir_sys::mlirBlockGetTerminator(block) };
    (!op.ptr.is_null()).then_some(op)
}

/// Whether `op` is a terminator.
pub fn is_terminator(op: MlirOperation) -> bool {
    let block = op_block(op);
    !is_null_block(block) && terminator(block).is_some_and(|t| t.ptr == op.ptr)
}

pub fn is_block_argument(value: MlirValue) -> bool {
    unsafe { mlir_sys::mlirValueIsABlockArgument(value) }
}

/// The op that defines `value`, `None` for a block argument.
pub fn defining_op(value: MlirValue) -> Option<MlirOperation> {
    unsafe { mlir_sys::mlirValueIsAOpResult(value).then(|| mlir_sys::mlirOpResultGetOwner(value)) }
}

pub fn result_number(value: MlirValue) -> usize {
    unsafe { mlir_sys::mlirOpResultGetResultNumber(value) as usize }
}

pub fn arg_number(value: MlirValue) -> usize {
    unsafe { mlir_sys::mlirBlockArgumentGetArgNumber(value) as usize }
}

/// The block that holds `value`: the owner of a block argument, or the
/// block of the defining op.
pub fn value_block(value: MlirValue) -> MlirBlock {
    unsafe {
        if mlir_sys::mlirValueIsABlockArgument(value) {
            mlir_sys::mlirBlockArgumentGetOwner(value)
        } else {
            op_block(mlir_sys::mlirOpResultGetOwner(value))
        }
    }
}

/// The op whose region holds `value` (MLIR's
/// `value.getParentRegion()->getParentOp()`).
pub fn value_parent_op(value: MlirValue) -> Option<MlirOperation> {
    let block = value_block(value);
    if is_null_block(block) {
        return None;
    }
    block_parent_op(block)
}

pub fn value_type(value: MlirValue) -> MlirType {
    unsafe { mlir_sys::mlirValueGetType(value) }
}

pub fn same_value(a: MlirValue, b: MlirValue) -> bool {
    a.ptr == b.ptr
}

pub fn same_type(a: MlirType, b: MlirType) -> bool {
    unsafe { mlir_sys::mlirTypeEqual(a, b) }
}

/// The uses of `value`: each using op and the operand's index.
pub fn uses(value: MlirValue) -> Vec<(MlirOperation, usize)> {
    let mut out = Vec::new();
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value);
        while !mlir_sys::mlirOpOperandIsNull(operand) {
            out.push((
                mlir_sys::mlirOpOperandGetOwner(operand),
                mlir_sys::mlirOpOperandGetOperandNumber(operand) as usize,
            ));
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    out
}

pub fn has_uses(value: MlirValue) -> bool {
    unsafe { !mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(value)) }
}

/// Replaces every use of `of` by `with`.
pub fn replace_all_uses(of: MlirValue, with: MlirValue) {
    if of.ptr != with.ptr {
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(of, with) }
    }
}

/// Whether `ancestor` is `op` or contains it.
pub fn is_ancestor(ancestor: MlirOperation, op: MlirOperation) -> bool {
    let mut current = Some(op);
    while let Some(c) = current {
        if c.ptr == ancestor.ptr {
            return true;
        }
        current = parent_op(c);
    }
    false
}

/// The layout encoding of `v`'s tensor type, where it is a tensor with an
/// encoding the layout library reads.
pub fn tensor_layout(v: MlirValue) -> Option<ttg_dialect::layout::Layout> {
    // SAFETY: `v` is a live value; its type belongs to the context.
    let ty = unsafe { melior::ir::Type::from_raw(value_type(v)) };
    tt_dialect::types::Tensor::of(ty)?
        .encoding
        .and_then(ttg_dialect::layout::Layout::read)
}

/// `v`'s type as a shared-memory descriptor, where it is one.
pub fn memdesc(v: MlirValue) -> Option<ttg_dialect::layout::MemDesc<'static>> {
    // SAFETY: as in `tensor_layout`.
    ttg_dialect::layout::MemDesc::of(unsafe { melior::ir::Type::from_raw(value_type(v)) })
}

/// The `builtin.module` that is `op` or contains it.
pub fn enclosing_module(op: MlirOperation) -> Option<MlirOperation> {
    let mut current = op;
    while !is(current, "builtin.module") {
        current = parent_op(current)?;
    }
    Some(current)
}

/// The integer attribute `name` of the module around `op`, if it has one.
pub fn module_int(op: MlirOperation, name: &str) -> Option<i64> {
    attribute(enclosing_module(op)?, name).and_then(integer_attr_value)
}

/// Whether `value` is defined outside of `op` (MLIR's default
/// `isDefinedOutsideOfLoop`).
pub fn defined_outside(op: MlirOperation, value: MlirValue) -> bool {
    value_parent_op(value).is_none_or(|parent| !is_ancestor(op, parent))
}

/// Visits `op` and everything nested in it, pre-order.
pub fn walk_pre(op: MlirOperation, f: &mut dyn FnMut(MlirOperation)) {
    f(op);
    for region in regions(op) {
        for nested in region_ops(region) {
            walk_pre(nested, f);
        }
    }
}

/// Every op nested in `op` and `op` itself, post-order (MLIR's default walk
/// order), collected before anything is edited.
pub fn collect_post(op: MlirOperation, keep: &dyn Fn(MlirOperation) -> bool) -> Vec<MlirOperation> {
    fn visit(
        op: MlirOperation,
        keep: &dyn Fn(MlirOperation) -> bool,
        out: &mut Vec<MlirOperation>,
    ) {
        for region in regions(op) {
            for nested in region_ops(region) {
                visit(nested, keep, out);
            }
        }
        if keep(op) {
            out.push(op);
        }
    }
    let mut out = Vec::new();
    visit(op, keep, &mut out);
    out
}

/// The first op (pre-order) nested in `root` with an operand or result
/// that is a ranked tensor or a memory descriptor.
pub fn first_tensor_op(root: MlirOperation) -> Option<MlirOperation> {
    first_op_with_type(root, |_| true)
}

/// The first op (pre-order) nested in `root` with an operand or result
/// that is a ranked tensor or a memory descriptor for which `pick` holds.
pub fn first_op_with_type(
    root: MlirOperation,
    pick: impl Fn(melior::ir::Type) -> bool,
) -> Option<MlirOperation> {
    let is_tensor = |v: MlirValue| {
        let raw = value_type(v);
        // SAFETY: a live type, read as a memdesc only when it is one.
        let ty = unsafe { melior::ir::Type::from_raw(raw) };
        let ranked = unsafe { mlir_sys::mlirTypeIsARankedTensor(raw) };
        (ranked || ttg_dialect::layout::MemDesc::of(ty).is_some()) && pick(ty)
    };
    let mut found = None;
    walk_pre(root, &mut |op| {
        if found.is_none()
            && op.ptr != root.ptr
            && operands(op).into_iter().chain(results(op)).any(is_tensor)
        {
            found = Some(op);
        }
    });
    found
}

/// Clones `op` (with its regions), detached, reading every operand through
/// `map`, and maps `op`'s results to the clone's (MLIR's
/// `builder.clone(op, mapping)` without the insertion).
pub fn clone_mapped(op: MlirOperation, map: &mut ValueMap) -> MlirOperation {
    let clone = unsafe { mlir_sys::mlirOperationClone(op) };
    // Operands that still name values from outside the clone are the ones
    // the mapping may redirect; values defined inside it are fresh.
    walk_pre(clone, &mut |nested| {
        for index in 0..operand_count(nested) {
            let value = operand(nested, index);
            if let Some(new) = map.get(&Val(value)) {
                set_operand(nested, index, new.0);
            }
        }
    });
    for (old, new) in results(op).into_iter().zip(results(clone)) {
        map.insert(Val(old), Val(new));
    }
    clone
}

/// A dense i32 array attribute (`array<i32: ...>`) of `values`.
pub fn dense_i32_array_attr(ctx: MlirContext, values: &[i32]) -> MlirAttribute {
    // SAFETY: `ctx` is live; the slice is read during the call only.
    unsafe { mlir_sys::mlirDenseI32ArrayGet(ctx, values.len() as isize, values.as_ptr()) }
}

/// The elements of a dense i32 array attribute (`array<i32: ...>`, such as
/// `order` or `operandSegmentSizes`), `None` for any other attribute.
pub fn dense_i32_array(attr: MlirAttribute) -> Option<Vec<i32>> {
    // SAFETY: a live attribute, read as an i32 array only when it is one.
    unsafe {
        mlir_sys::mlirAttributeIsADenseI32Array(attr).then(|| {
            (0..mlir_sys::mlirDenseArrayGetNumElements(attr))
                .map(|i| mlir_sys::mlirDenseI32ArrayGetElement(attr, i))
                .collect()
        })
    }
}

/// The function a call (`tt.call`, `func.call`) names: the op with that
/// `sym_name` in the body of the module around the call.
pub fn callee(call: MlirOperation) -> Option<MlirOperation> {
    // SAFETY: attributes of live ops, here and below.
    let callee = unsafe { melior::ir::Attribute::from_raw(attribute(call, "callee")?) };
    let name = tt_dialect::ir::symbol_ref_value(callee)?;
    let mut module = call;
    while !is(module, "builtin.module") {
        module = parent_op(module)?;
    }
    let body = blocks(regions(module)[0]).first().copied()?;
    block_ops(body).into_iter().find(|&op| {
        attribute(op, "sym_name")
            .and_then(|a| {
                tt_dialect::ir::string_value(unsafe { melior::ir::Attribute::from_raw(a) })
            })
            .is_some_and(|s| s == name)
    })
}

/// Inserts the detached `op` before `before`.
pub fn insert_before(before: MlirOperation, op: MlirOperation) {
    unsafe { mlir_sys::mlirBlockInsertOwnedOperationBefore(op_block(before), before, op) }
}

/// Inserts the detached `op` after `after`.
pub fn insert_after(after: MlirOperation, op: MlirOperation) {
    unsafe { mlir_sys::mlirBlockInsertOwnedOperationAfter(op_block(after), after, op) }
}

/// Moves `op` right before `before`.
pub fn move_before(op: MlirOperation, before: MlirOperation) {
    unsafe { mlir_sys::mlirOperationMoveBefore(op, before) }
}

/// Moves `first` and every op after it in its block to the end of `to`,
/// in order.
pub fn move_tail(first: MlirOperation, to: MlirBlock) {
    // SAFETY: each op is live; it is detached from its block before `to`
    // takes ownership of it, and the next one is read before it moves.
    unsafe {
        let mut op = first;
        while !op.ptr.is_null() {
            let next = mlir_sys::mlirOperationGetNextInBlock(op);
            mlir_sys::mlirOperationRemoveFromParent(op);
            mlir_sys::mlirBlockAppendOwnedOperation(to, op);
            op = next;
        }
    }
}

/// Destroys `op`, which must have no uses left.
pub fn erase(op: MlirOperation) {
    unsafe { mlir_sys::mlirOperationDestroy(op) }
}

pub fn identifier(ctx: MlirContext, name: &str) -> mlir_sys::MlirIdentifier {
    unsafe { mlir_sys::mlirIdentifierGet(ctx, StringRef::new(name).to_raw()) }
}

/// Every attribute of `op`, inherent ones included, as (name, value) in
/// MLIR's sorted dictionary order.
pub fn attributes(op: MlirOperation) -> Vec<(String, MlirAttribute)> {
    let dictionary = attribute_dictionary(op);
    unsafe {
        (0..mlir_sys::mlirDictionaryAttrGetNumElements(dictionary))
            .map(|i| {
                let named = mlir_sys::mlirDictionaryAttrGetElement(dictionary, i);
                let raw = mlir_sys::mlirIdentifierStr(named.name);
                let bytes = std::slice::from_raw_parts(raw.data as *const u8, raw.length);
                (String::from_utf8_lossy(bytes).into_owned(), named.attribute)
            })
            .collect()
    }
}

/// Every attribute of `op` as one uniqued dictionary: ops with equal
/// attributes have the same dictionary.
pub fn attribute_dictionary(op: MlirOperation) -> MlirAttribute {
    let op = unsafe { melior::ir::operation::OperationRef::from_raw(op) };
    tt_dialect::ir::attribute_dictionary(op)
}

/// The attribute `name` of `op` (inherent or discardable), if set.
pub fn attribute(op: MlirOperation, name: &str) -> Option<MlirAttribute> {
    let attr =
        unsafe { mlir_sys::mlirOperationGetAttributeByName(op, StringRef::new(name).to_raw()) };
    (!attr.ptr.is_null()).then_some(attr)
}

pub fn set_attribute(op: MlirOperation, name: &str, attr: MlirAttribute) {
    unsafe { mlir_sys::mlirOperationSetAttributeByName(op, StringRef::new(name).to_raw(), attr) }
}

/// The attribute `name` of argument `index` of the function `func` (from
/// its `arg_attrs`), if it has one.
pub fn argument_attribute(func: MlirOperation, index: usize, name: &str) -> Option<MlirAttribute> {
    let all = attribute(func, "arg_attrs")?;
    // SAFETY: live attributes, read as an array and a dictionary only when
    // they are ones.
    unsafe {
        if !mlir_sys::mlirAttributeIsAArray(all)
            || index as isize >= mlir_sys::mlirArrayAttrGetNumElements(all)
        {
            return None;
        }
        let dict = mlir_sys::mlirArrayAttrGetElement(all, index as isize);
        if !mlir_sys::mlirAttributeIsADictionary(dict) {
            return None;
        }
        let attr =
            mlir_sys::mlirDictionaryAttrGetElementByName(dict, StringRef::new(name).to_raw());
        (!attr.ptr.is_null()).then_some(attr)
    }
}

/// Sets the attribute `name` of argument `index` of the function `func`
/// to `value` (`func.setArgAttr`): its `arg_attrs` get one dictionary per
/// argument, empty where nothing was set.
pub fn set_argument_attribute(func: MlirOperation, index: usize, name: &str, value: MlirAttribute) {
    let ctx = context(func);
    let arguments = regions(func)
        .first()
        .and_then(|r| blocks(*r).first().copied())
        .map_or(0, |entry| block_args(entry).len())
        .max(index + 1);
    let old = attribute(func, "arg_attrs");
    // SAFETY: `ctx` and every attribute read are live; the arrays passed
    // to the constructors are read during the calls only.
    unsafe {
        let empty = mlir_sys::mlirDictionaryAttrGet(ctx, 0, std::ptr::null());
        let mut dicts: Vec<MlirAttribute> = (0..arguments)
            .map(|i| {
                old.filter(|&a| {
                    mlir_sys::mlirAttributeIsAArray(a)
                        && (i as isize) < mlir_sys::mlirArrayAttrGetNumElements(a)
                })
                .map_or(empty, |a| mlir_sys::mlirArrayAttrGetElement(a, i as isize))
            })
            .collect();
        let dict = dicts[index];
        let key = mlir_sys::mlirIdentifierGet(ctx, StringRef::new(name).to_raw());
        let mut entries: Vec<mlir_sys::MlirNamedAttribute> = (0
            ..mlir_sys::mlirDictionaryAttrGetNumElements(dict))
            .map(|i| mlir_sys::mlirDictionaryAttrGetElement(dict, i))
            .filter(|e| !mlir_sys::mlirIdentifierEqual(e.name, key))
            .collect();
        entries.push(mlir_sys::mlirNamedAttributeGet(key, value));
        dicts[index] =
            mlir_sys::mlirDictionaryAttrGet(ctx, entries.len() as isize, entries.as_ptr());
        let array = mlir_sys::mlirArrayAttrGet(ctx, dicts.len() as isize, dicts.as_ptr());
        set_attribute(func, "arg_attrs", array);
    }
}

pub fn remove_attribute(op: MlirOperation, name: &str) {
    unsafe {
        mlir_sys::mlirOperationRemoveAttributeByName(op, StringRef::new(name).to_raw());
    }
}

pub fn same_attribute(a: MlirAttribute, b: MlirAttribute) -> bool {
    unsafe { mlir_sys::mlirAttributeEqual(a, b) }
}

/// The integer an `IntegerAttr` holds, sign-extended from its width (what
/// MLIR's `getInt` returns; read without `getInt`'s assertion that the type
/// is signless).
pub fn integer_attr_value(attr: MlirAttribute) -> Option<i64> {
    unsafe {
        if !mlir_sys::mlirAttributeIsAInteger(attr) {
            return None;
        }
        let ty = mlir_sys::mlirAttributeGetType(attr);
        if !mlir_sys::mlirTypeIsAInteger(ty) || mlir_sys::mlirIntegerTypeIsSignless(ty) {
            return Some(mlir_sys::mlirIntegerAttrGetValueInt(attr));
        }
        if mlir_sys::mlirIntegerTypeIsSigned(ty) {
            return Some(mlir_sys::mlirIntegerAttrGetValueSInt(attr));
        }
        let width = mlir_sys::mlirIntegerTypeGetWidth(ty).clamp(1, 64);
        let shift = 64 - width;
        Some(((mlir_sys::mlirIntegerAttrGetValueUInt(attr) << shift) as i64) >> shift)
    }
}

/// The integer type's width, `None` for other types (index included).
pub fn integer_width(ty: MlirType) -> Option<u32> {
    unsafe { mlir_sys::mlirTypeIsAInteger(ty).then(|| mlir_sys::mlirIntegerTypeGetWidth(ty)) }
}

pub fn is_index(ty: MlirType) -> bool {
    unsafe { mlir_sys::mlirTypeIsAIndex(ty) }
}

pub fn integer_attr(ty: MlirType, value: i64) -> MlirAttribute {
    unsafe { mlir_sys::mlirIntegerAttrGet(ty, value) }
}

pub fn i1_type(ctx: MlirContext) -> MlirType {
    unsafe { mlir_sys::mlirIntegerTypeGet(ctx, 1) }
}

pub fn i32_type(ctx: MlirContext) -> MlirType {
    unsafe { mlir_sys::mlirIntegerTypeGet(ctx, 32) }
}

pub fn i64_type(ctx: MlirContext) -> MlirType {
    unsafe { mlir_sys::mlirIntegerTypeGet(ctx, 64) }
}

/// Creates a detached op named `name`.
pub fn create_op(
    name: &str,
    location: MlirLocation,
    operands: &[MlirValue],
    result_types: &[MlirType],
    attributes: &[(&str, MlirAttribute)],
    regions: Vec<MlirRegion>,
) -> MlirOperation {
    unsafe {
        let ctx = mlir_sys::mlirLocationGetContext(location);
        let mut state = mlir_sys::mlirOperationStateGet(StringRef::new(name).to_raw(), location);
        mlir_sys::mlirOperationStateAddOperands(
            &mut state,
            operands.len() as isize,
            operands.as_ptr(),
        );
        mlir_sys::mlirOperationStateAddResults(
            &mut state,
            result_types.len() as isize,
            result_types.as_ptr(),
        );
        let named: Vec<mlir_sys::MlirNamedAttribute> = attributes
            .iter()
            .map(|(n, a)| mlir_sys::mlirNamedAttributeGet(identifier(ctx, n), *a))
            .collect();
        mlir_sys::mlirOperationStateAddAttributes(&mut state, named.len() as isize, named.as_ptr());
        mlir_sys::mlirOperationStateAddOwnedRegions(
            &mut state,
            regions.len() as isize,
            regions.as_ptr(),
        );
        mlir_sys::mlirOperationCreate(&mut state)
    }
}

/// The value of an integer `arith.constant` that defines `value`,
/// sign-extended, with the constant's bit width.
pub fn constant_int(value: MlirValue) -> Option<(i64, u32)> {
    let op = defining_op(value)?;
    if !is(op, "arith.constant") {
        return None;
    }
    let attr = attribute(op, "value")?;
    let width =
        integer_width(value_type(value)).or_else(|| is_index(value_type(value)).then_some(64))?;
    integer_attr_value(attr).map(|v| (v, width))
}

/// Creates `arith.constant value : ty` before `before`.
pub fn build_constant(
    before: MlirOperation,
    location: MlirLocation,
    ty: MlirType,
    value: i64,
) -> MlirValue {
    let op = create_op(
        "arith.constant",
        location,
        &[],
        &[ty],
        &[("value", integer_attr(ty, value))],
        Vec::new(),
    );
    insert_before(before, op);
    result(op, 0)
}

/// Creates the op `name` at `location` right before `before`.
pub fn build_op(
    before: MlirOperation,
    name: &str,
    operands: &[MlirValue],
    results: &[MlirType],
    attributes: &[(&str, MlirAttribute)],
    location: MlirLocation,
) -> MlirOperation {
    let op = create_op(name, location, operands, results, attributes, Vec::new());
    insert_before(before, op);
    op
}

/// `arith.cmpi` predicates (`arith::CmpIPredicate`).
pub mod cmpi {
    pub const EQ: i64 = 0;
    pub const SLT: i64 = 2;
    pub const SGT: i64 = 4;
    pub const SGE: i64 = 5;
}

/// Creates `arith.cmpi predicate, lhs, rhs` before `before`.
pub fn build_cmpi(
    before: MlirOperation,
    location: MlirLocation,
    predicate: i64,
    lhs: MlirValue,
    rhs: MlirValue,
) -> MlirValue {
    let ctx = context(before);
    let attr = integer_attr(i64_type(ctx), predicate);
    let op = build_op(
        before,
        "arith.cmpi",
        &[lhs, rhs],
        &[i1_type(ctx)],
        &[("predicate", attr)],
        location,
    );
    result(op, 0)
}

/// Creates `arith.select cond, a, b` before `before`.
pub fn build_select(
    before: MlirOperation,
    location: MlirLocation,
    cond: MlirValue,
    a: MlirValue,
    b: MlirValue,
) -> MlirValue {
    let op = build_op(
        before,
        "arith.select",
        &[cond, a, b],
        &[value_type(a)],
        &[],
        location,
    );
    result(op, 0)
}

/// Creates the binary arith op `name` (`arith.addi`, ...) before `before`.
pub fn build_binary(
    before: MlirOperation,
    name: &str,
    location: MlirLocation,
    lhs: MlirValue,
    rhs: MlirValue,
) -> MlirValue {
    let op = create_op(
        name,
        location,
        &[lhs, rhs],
        &[value_type(lhs)],
        &[],
        Vec::new(),
    );
    insert_before(before, op);
    result(op, 0)
}

/// `text` parsed as a type of `ctx`; `None` (MLIR reports why) when it is
/// not one.
pub fn parse_type(ctx: MlirContext, text: &str) -> Option<MlirType> {
    // SAFETY: `ctx` is live; the text is read during the call only.
    let ty = unsafe { mlir_sys::mlirTypeParseGet(ctx, StringRef::new(text).to_raw()) };
    (!ty.ptr.is_null()).then_some(ty)
}

/// `text` parsed as an attribute of `ctx`; `None` (MLIR reports why) when
/// it is not one.
pub fn parse_attribute(ctx: MlirContext, text: &str) -> Option<MlirAttribute> {
    // SAFETY: as in `parse_type`.
    let attr = unsafe { mlir_sys::mlirAttributeParseGet(ctx, StringRef::new(text).to_raw()) };
    (!attr.ptr.is_null()).then_some(attr)
}

/// Triton's `getI1SameShape`: `i1`, or a tensor of `i1` with `ty`'s shape
/// and encoding.
pub fn i1_same_shape(ty: MlirType) -> MlirType {
    // SAFETY: a live type; shape and encoding are read from it.
    unsafe {
        let ctx = mlir_sys::mlirTypeGetContext(ty);
        let i1 = mlir_sys::mlirIntegerTypeGet(ctx, 1);
        if !mlir_sys::mlirTypeIsARankedTensor(ty) {
            return i1;
        }
        let rank = mlir_sys::mlirShapedTypeGetRank(ty);
        let shape: Vec<i64> = (0..rank)
            .map(|d| mlir_sys::mlirShapedTypeGetDimSize(ty, d as isize))
            .collect();
        let encoding = mlir_sys::mlirRankedTensorTypeGetEncoding(ty);
        mlir_sys::mlirRankedTensorTypeGet(rank as isize, shape.as_ptr(), i1, encoding)
    }
}
