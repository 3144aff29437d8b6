//! Small, safe queries and edits on IR that folders, patterns and passes
//! share: the op that defines a value, operands by index and by segment,
//! constant values and their splat elements, dense constants rebuilt with
//! another type, ops built by name, and the file position of a location.

use melior::ir::{
    attribute::{DenseI32ArrayAttribute, FloatAttribute},
    block::{BlockArgument, BlockLike, BlockRef},
    operation::{
        OperationBuilder, OperationLike, OperationMutLike, OperationRef, OperationRefMut,
        OperationResult,
    },
    Attribute, AttributeLike, Identifier, Location, Operation, Type, TypeLike, Value, ValueLike,
};
use melior::{RewriterBase, StringRef};
use std::fmt;

/// A position in a named source (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileLoc {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for FileLoc {
    /// `file:line:column`, as MLIR's diagnostics print positions.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// The file position `location` points at, walking wrapped locations as
/// MLIR's source manager handler does: a name's child, a call site's callee
/// (where the code is), the first part of a fused location that has one.
pub fn file_loc(location: Location) -> Option<FileLoc> {
    if location.is_file_line_col_range() {
        Some(FileLoc {
            file: location
                .file_line_col_range_filename()
                .as_string_ref()
                .as_str()
                .ok()?
                .to_owned(),
            line: location.file_line_col_range_start_line(),
            column: location.file_line_col_range_start_column(),
        })
    } else if location.is_name() {
        file_loc(location.name_child_location())
    } else if location.is_call_site() {
        file_loc(location.call_site_callee())
    } else if location.is_fused() {
        (0..location.fused_num_locations()).find_map(|i| file_loc(location.fused_location(i)))
    } else {
        None
    }
}

/// The op whose result `value` is, or `None` for a block argument.
///
/// This and [`block_argument`] ask MLIR for the value's kind instead of using
/// melior's `try_from`, whose error prints the value: printing builds an
/// `AsmState` for the whole enclosing function, which made these queries
/// dominate compile times.
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let raw = value.to_raw();
    // SAFETY: `raw` is a live value, and it is an op result when MLIR says so.
    unsafe { mlir_sys::mlirValueIsAOpResult(raw) }
        .then(|| unsafe { OperationResult::from_raw(raw) }.owner())
}

/// `value` as a block argument, or `None` for an op result.
pub fn block_argument<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockArgument<'c, 'a>> {
    let raw = value.to_raw();
    // SAFETY: as in `defining_op`.
    unsafe { mlir_sys::mlirValueIsABlockArgument(raw) }
        .then(|| unsafe { BlockArgument::from_raw(raw) })
}

/// The edges of a `cf.br` or `cf.cond_br`: each successor with the
/// operands the branch forwards to its arguments (a `cf.cond_br`'s
/// condition comes first, then the true and then the false destination's
/// operands). `None` for other ops, and for a branch whose operands do not
/// fit its successors.
pub fn branch_edges<'c, 'a>(
    op: OperationRef<'c, 'a>,
) -> Option<Vec<(BlockRef<'c, 'a>, Vec<Value<'c, 'a>>)>> {
    let mut next = if is_op(op, "cf.br") {
        0
    } else if is_op(op, "cf.cond_br") {
        1
    } else {
        return None;
    };
    let operands: Vec<Value> = op.operands().collect();
    let mut edges = Vec::new();
    for s in 0..op.successor_count() {
        let block = op.successor(s).ok()?;
        let count = block.argument_count();
        edges.push((block, operands.get(next..next + count)?.to_vec()));
        next += count;
    }
    Some(edges)
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

/// The element at `coordinates` of a dense elements attribute; `None` for
/// any other attribute or coordinates outside its shape.
pub fn dense_element<'c>(attr: Attribute<'c>, coordinates: &[u64]) -> Option<Attribute<'c>> {
    let raw = attr.to_raw();
    let mut index = coordinates.to_vec();
    let rank = index.len() as isize;
    // SAFETY: `raw` is a live attribute; an element is read only once the
    // attribute is known to be dense elements and `index` (of `rank`
    // entries, as both calls are told) valid for its shape.
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseElements(raw)
            || !mlir_sys::mlirElementsAttrIsValidIndex(raw, rank, index.as_mut_ptr())
        {
            return None;
        }
        let element = mlir_sys::mlirElementsAttrGetValue(raw, rank, index.as_mut_ptr());
        (!element.ptr.is_null()).then(|| Attribute::from_raw(element))
    }
}

/// The value of an integer attribute (sign-extended), or of the splat
/// element of an integer constant.
pub fn splat_int(attr: Attribute) -> Option<i64> {
    let element = splat_element(attr)?;
    int_value(element).map(|(signed, _)| signed)
}

/// Emits `message` as a remark at `location` through the context's
/// diagnostic handlers (the C API can only emit errors).
pub fn emit_remark(location: Location, message: &str) {
    let text = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: a live location and a NUL-terminated string that outlives
    // the call.
    unsafe { crate::ffi::ttEmitRemark(location.to_raw(), text.as_ptr()) };
}

/// Emits `message` as a warning at `location`, with one note per entry of
/// `notes` (its location and text), as MLIR's `emitWarning(...).attachNote`
/// (the C API can only emit errors).
pub fn emit_warning_with_notes(location: Location, message: &str, notes: &[(Location, String)]) {
    let note_locations: Vec<mlir_sys::MlirLocation> =
        notes.iter().map(|(loc, _)| loc.to_raw()).collect();
    let note_messages: Vec<mlir_sys::MlirStringRef> = notes
        .iter()
        .map(|(_, text)| melior::StringRef::new(text).to_raw())
        .collect();
    // SAFETY: the locations are live, and every string (and both arrays)
    // outlives the call, which copies the texts into the diagnostic.
    unsafe {
        crate::ffi::ttEmitWarningWithNotes(
            location.to_raw(),
            melior::StringRef::new(message).to_raw(),
            note_locations.as_ptr(),
            note_messages.as_ptr(),
            notes.len() as isize,
        );
    }
}

/// How severe a diagnostic [`emit_op_diagnostic`] emits is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Warning,
    Remark,
}

/// Emits `message` on `op` as MLIR's `op->emitWarning()` or
/// `op->emitRemark()` do (with the op attached as a note where the context
/// prints ops on diagnostics), with one note per entry of `notes`: its
/// location (`None`: the op's) and text.
pub fn emit_op_diagnostic(
    op: OperationRef,
    severity: Severity,
    message: &str,
    notes: &[(Option<Location>, String)],
) {
    let note_locations: Vec<mlir_sys::MlirLocation> = notes
        .iter()
        .map(|(loc, _)| {
            loc.map_or(
                mlir_sys::MlirLocation {
                    ptr: std::ptr::null(),
                },
                |l| l.to_raw(),
            )
        })
        .collect();
    let note_messages: Vec<mlir_sys::MlirStringRef> = notes
        .iter()
        .map(|(_, text)| melior::StringRef::new(text).to_raw())
        .collect();
    let severity = match severity {
        Severity::Warning => 0,
        Severity::Remark => 1,
    };
    // SAFETY: a live op, live or null note locations (null stands for the
    // op's own), and strings and arrays that outlive the call, which copies
    // the texts into the diagnostic.
    unsafe {
        crate::ffi::ttOpEmitDiagnostic(
            op.to_raw(),
            severity,
            melior::StringRef::new(message).to_raw(),
            note_locations.as_ptr(),
            note_messages.as_ptr(),
            notes.len() as isize,
        );
    }
}

/// Whether the diagnostics of `context` carry the op they were emitted on
/// (`operations`) and the stack that emitted them (`stack_traces`), as
/// MLIR's `printOpOnDiagnostic` and `printStackTraceOnDiagnostic` set them.
pub fn set_diagnostic_printing(context: &melior::Context, operations: bool, stack_traces: bool) {
    // SAFETY: a live context; the call only sets two flags of it.
    unsafe {
        crate::ffi::ttContextSetDiagnosticPrinting(context.to_raw(), operations, stack_traces)
    };
}

/// The value of a float attribute, or of the splat element of a float
/// constant.
pub fn splat_float(attr: Attribute) -> Option<f64> {
    let element = splat_element(attr)?;
    FloatAttribute::try_from(element).ok().map(|f| f.value())
}

/// The value of an integer attribute of a signless integer (at most 64
/// bits) or index type, sign- and zero-extended; `None` for any other
/// attribute (MLIR's accessors assert on the rest).
pub fn int_value(attr: Attribute) -> Option<(i64, u64)> {
    let raw = attr.to_raw();
    unsafe {
        if !mlir_sys::mlirAttributeIsAInteger(raw) {
            return None;
        }
        let ty = mlir_sys::mlirAttributeGetType(raw);
        let readable = mlir_sys::mlirTypeIsAIndex(ty)
            || (mlir_sys::mlirTypeIsAInteger(ty)
                && mlir_sys::mlirIntegerTypeIsSignless(ty)
                && mlir_sys::mlirIntegerTypeGetWidth(ty) <= 64);
        readable.then(|| {
            (
                mlir_sys::mlirIntegerAttrGetValueInt(raw),
                mlir_sys::mlirIntegerAttrGetValueUInt(raw),
            )
        })
    }
}

/// The value of a `BoolAttr` (`true`/`false`), `None` for other attributes.
pub fn bool_value(attr: Attribute) -> Option<bool> {
    let raw = attr.to_raw();
    unsafe { mlir_sys::mlirAttributeIsABool(raw).then(|| mlir_sys::mlirBoolAttrGetValue(raw)) }
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

/// Replaces the operands of `op`. Callers inside a pattern wrap this in the
/// rewriter's in-place modification.
pub fn set_operands<'c, 'a>(op: OperationRef<'c, 'a>, operands: &[Value<'c, 'a>]) {
    let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
    op.set_operands(operands);
}

/// Operand `index` of `op`, or `None` past the end. (melior's own accessor
/// prints the whole op into its out-of-range error.)
pub fn operand<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>> {
    (index < op.operand_count()).then(|| unsafe {
        Value::from_raw(mlir_sys::mlirOperationGetOperand(
            op.to_raw(),
            index as isize,
        ))
    })
}

/// Result `index` of `op`, or `None` past the end.
pub fn result<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>> {
    (index < op.result_count()).then(|| unsafe {
        Value::from_raw(mlir_sys::mlirOperationGetResult(
            op.to_raw(),
            index as isize,
        ))
    })
}

/// The operands in segment `segment` of an op with `operandSegmentSizes`,
/// or `None` when the attribute is missing or does not add up to the
/// operand count.
pub fn segment<'c, 'a>(op: OperationRef<'c, 'a>, segment: usize) -> Option<Vec<Value<'c, 'a>>> {
    let sizes = inherent_attribute(op, "operandSegmentSizes")?;
    let sizes = DenseI32ArrayAttribute::try_from(sizes).ok()?;
    let sizes: Vec<usize> = (0..sizes.len())
        .map(|i| sizes.element(i).ok().and_then(|s| usize::try_from(s).ok()))
        .collect::<Option<_>>()?;
    if sizes.iter().sum::<usize>() != op.operand_count() || segment >= sizes.len() {
        return None;
    }
    let start: usize = sizes[..segment].iter().sum();
    (start..start + sizes[segment])
        .map(|i| operand(op, i))
        .collect()
}

/// The inherent attribute `name` of `op`, if set.
pub fn inherent_attribute<'c>(op: OperationRef<'c, '_>, name: &str) -> Option<Attribute<'c>> {
    let name = StringRef::new(name);
    unsafe {
        Attribute::from_option_raw(mlir_sys::mlirOperationGetInherentAttributeByName(
            op.to_raw(),
            name.to_raw(),
        ))
    }
}

/// Triton's `lookupNumWarps`: the `ttg.num-warps` of the nearest enclosing
/// function or module (`op` itself included), or the warp count the
/// enclosing `ttg.warp_specialize` gives the partition holding `op`;
/// `None` when nothing around `op` names a positive count.
pub fn lookup_num_warps(op: OperationRef) -> Option<u32> {
    let positive = |attr: Attribute| {
        int_value(attr)
            .map(|(v, _)| v)
            .filter(|&n| n > 0)
            .and_then(|n| u32::try_from(n).ok())
    };
    let mut current = op;
    loop {
        if is_op(current, "builtin.module") || is_op(current, "tt.func") {
            if let Some(n) = current.attribute("ttg.num-warps").ok().and_then(positive) {
                return Some(n);
            }
        }
        let parent = current.parent_operation()?;
        if is_op(parent, "ttg.warp_specialize.partitions") {
            // SAFETY: `current` is a live op nested in `parent`, so its
            // block and that block's region exist and belong to `parent`,
            // whose regions are read by index within their count.
            let index = unsafe {
                let region = mlir_sys::mlirBlockGetParentRegion(mlir_sys::mlirOperationGetBlock(
                    current.to_raw(),
                ));
                (0..mlir_sys::mlirOperationGetNumRegions(parent.to_raw())).position(|r| {
                    mlir_sys::mlirOperationGetRegion(parent.to_raw(), r).ptr == region.ptr
                })
            };
            let counts = parent
                .parent_operation()
                .and_then(|ws| ws.attribute("partitionNumWarps").ok())
                .and_then(|a| DenseI32ArrayAttribute::try_from(a).ok())
                .map(|a| {
                    (0..a.len())
                        .filter_map(|i| a.element(i).ok())
                        .collect::<Vec<i32>>()
                })
                .unwrap_or_default();
            if let Some(&n) = index.and_then(|i| counts.get(i)) {
                if n > 0 {
                    return Some(n as u32);
                }
            }
        }
        current = parent;
    }
}

/// Whether the unit attribute `name` is set on `op`.
pub fn has_unit_attribute(op: OperationRef, name: &str) -> bool {
    inherent_attribute(op, name)
        .is_some_and(|a| unsafe { mlir_sys::mlirAttributeIsAUnit(a.to_raw()) })
}

/// Creates a detached op named `name`, as a builder with only operands,
/// result types and attributes would (inherent attributes go to the op's
/// properties). `None` if MLIR refuses it.
pub fn build_op<'c>(
    name: &str,
    location: Location<'c>,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
    attributes: &[(&str, Attribute<'c>)],
) -> Option<Operation<'c>> {
    let context = location.context();
    let context = unsafe { context.to_ref() };
    let attributes: Vec<(Identifier, Attribute)> = attributes
        .iter()
        .map(|(name, value)| (Identifier::new(context, name), *value))
        .collect();
    build(name, location, operands, results, &attributes)
}

fn build<'c>(
    name: &str,
    location: Location<'c>,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
    attributes: &[(Identifier<'c>, Attribute<'c>)],
) -> Option<Operation<'c>> {
    OperationBuilder::new(name, location)
        .add_operands(operands)
        .add_results(results)
        .add_attributes(attributes)
        .build()
        .ok()
}

/// The location of an op that replaces the ops at `locations`, as MLIR's
/// `FusedLoc::get` forms it: unknown locations dropped, nested fusions
/// flattened, duplicates removed, a single survivor returned as is.
pub fn fused_location<'c>(locations: &[Location<'c>]) -> Option<Location<'c>> {
    let first = locations.first()?;
    let raw: Vec<mlir_sys::MlirLocation> = locations.iter().map(|l| l.to_raw()).collect();
    unsafe {
        let context = mlir_sys::mlirLocationGetContext(first.to_raw());
        Some(Location::from_raw(mlir_sys::mlirLocationFusedGet(
            context,
            raw.len() as isize,
            raw.as_ptr(),
            mlir_sys::MlirAttribute {
                ptr: std::ptr::null(),
            },
        )))
    }
}

/// `tensor<shape x element, encoding>`.
pub fn tensor_type<'c>(
    shape: &[i64],
    element: Type<'c>,
    encoding: Option<Attribute<'c>>,
) -> Type<'c> {
    let encoding = encoding.map_or(
        mlir_sys::MlirAttribute {
            ptr: std::ptr::null(),
        },
        |e| e.to_raw(),
    );
    unsafe {
        Type::from_raw(mlir_sys::mlirRankedTensorTypeGet(
            shape.len() as isize,
            shape.as_ptr(),
            element.to_raw(),
            encoding,
        ))
    }
}

/// The shape and element type of `ty` when it is a ranked tensor with a
/// static shape: the only types dense constants can take.
fn static_tensor(ty: Type) -> Option<(Vec<i64>, Type)> {
    let tensor = crate::types::Tensor::of(ty)?;
    tensor
        .shape
        .iter()
        .all(|&d| d >= 0)
        .then_some((tensor.shape, tensor.element))
}

/// Whether `attr` is a dense elements attribute (`DenseElementsAttr`: int,
/// float or string data; not resource or sparse elements).
pub fn is_dense_elements(attr: Attribute) -> bool {
    unsafe { mlir_sys::mlirAttributeIsADenseElements(attr.to_raw()) }
}

/// Whether `attr` is a dense elements attribute holding one repeated value
/// (MLIR's `SplatElementsAttr`).
pub fn is_splat_elements(attr: Attribute) -> bool {
    is_dense_elements(attr) && unsafe { mlir_sys::mlirDenseElementsAttrIsSplat(attr.to_raw()) }
}

/// The splat constant of type `ty` (a static ranked tensor) whose elements
/// are all `element`, an attribute typed with `ty`'s element type; `None`
/// for any other pair.
pub fn splat_attr<'c>(ty: Type<'c>, element: Attribute<'c>) -> Option<Attribute<'c>> {
    let (_, element_type) = static_tensor(ty)?;
    let raw = element.to_raw();
    let scalar =
        unsafe { mlir_sys::mlirAttributeIsAInteger(raw) || mlir_sys::mlirAttributeIsAFloat(raw) };
    if !scalar || element.r#type() != element_type {
        return None;
    }
    unsafe { Attribute::from_option_raw(mlir_sys::mlirDenseElementsAttrSplatGet(ty.to_raw(), raw)) }
}

/// The dense constant `attr` with the type `ty`: the same elements in the
/// same row-major order. `None` unless both have the same element type and
/// element count.
pub fn reshape_attr<'c>(attr: Attribute<'c>, ty: Type<'c>) -> Option<Attribute<'c>> {
    let (shape, element) = static_tensor(ty)?;
    let (from_shape, from_element) = static_tensor(attr.r#type())?;
    if !is_dense_elements(attr)
        || element != from_element
        || crate::types::num_elements(&shape) != crate::types::num_elements(&from_shape)
    {
        return None;
    }
    unsafe {
        Attribute::from_option_raw(mlir_sys::mlirDenseElementsAttrReshapeGet(
            attr.to_raw(),
            ty.to_raw(),
        ))
    }
}

/// A splat dense constant `attr` with the type `ty`, which may have another
/// shape (MLIR's `resizeSplat`). `None` unless `attr` is a splat and the
/// element types agree.
pub fn resize_splat_attr<'c>(attr: Attribute<'c>, ty: Type<'c>) -> Option<Attribute<'c>> {
    if !is_splat_elements(attr) {
        return None;
    }
    splat_attr(ty, splat_element(attr)?)
}

/// The width of an integer type, `None` for other types. Unlike
/// melior's `IntegerType::try_from`, a non-integer type costs nothing (its
/// error prints the type).
pub fn int_width(ty: Type) -> Option<u32> {
    unsafe {
        mlir_sys::mlirTypeIsAInteger(ty.to_raw())
            .then(|| mlir_sys::mlirIntegerTypeGetWidth(ty.to_raw()))
    }
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
    let op = build(name, location, operands, results, attributes)
        .unwrap_or_else(|| panic!("MLIR refused to build '{name}'"));
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

/// The text of a string attribute (the empty string included), `None` for
/// any other attribute. melior's `StringAttribute::value` panics on an
/// empty string, which `tl.device_assert` messages and `tt.print` prefixes
/// can be.
pub fn string_value(attr: Attribute) -> Option<String> {
    // SAFETY: `attr` is a live attribute, read as a string only when it is
    // one; its (pointer, length) pair stays valid as long as its context.
    unsafe {
        mlir_sys::mlirAttributeIsAString(attr.to_raw())
            .then(|| owned_text(mlir_sys::mlirStringAttrGetValue(attr.to_raw())))
    }
}

/// The name a flat symbol reference (`@name`, a call's `callee`) holds,
/// `None` for any other attribute; read as [`string_value`] reads strings.
pub fn symbol_ref_value(attr: Attribute) -> Option<String> {
    // SAFETY: as in `string_value`.
    unsafe {
        mlir_sys::mlirAttributeIsAFlatSymbolRef(attr.to_raw())
            .then(|| owned_text(mlir_sys::mlirFlatSymbolRefAttrGetValue(attr.to_raw())))
    }
}

/// A copy of the text of a string reference MLIR handed out (lossy UTF-8).
///
/// # Safety
/// Unless `s.length` is zero (when the pointer may be null), `s.data` points
/// at `s.length` live bytes.
unsafe fn owned_text(s: mlir_sys::MlirStringRef) -> String {
    if s.length == 0 {
        return String::new();
    }
    // SAFETY: the caller's promise, for a non-zero length.
    let bytes = unsafe { std::slice::from_raw_parts(s.data.cast::<u8>(), s.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// The only (or first) result of an op the caller just created or matched
/// by name, whose result count its ODS definition fixes.
pub fn first_result<'c, 'a>(op: OperationRef<'c, 'a>) -> Value<'c, 'a> {
    result(op, 0).unwrap_or_else(|| {
        panic!(
            "'{}' has no result",
            op.name().as_string_ref().as_str().unwrap_or("?")
        )
    })
}

/// The splat value of a dense constant that is a splat (scalar attributes
/// do not count).
pub fn dense_splat_value(attr: Attribute) -> Option<Attribute> {
    is_splat_elements(attr)
        .then(|| splat_element(attr))
        .flatten()
}

/// Whether `value` has exactly one use.
pub fn has_one_use(value: Value) -> bool {
    unsafe {
        let first = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        !first.ptr.is_null() && mlir_sys::mlirOpOperandGetNextUse(first).ptr.is_null()
    }
}

/// Whether `value` has any use.
pub fn has_uses(value: Value) -> bool {
    // SAFETY: reads the use list of a live value.
    unsafe { !mlir_sys::mlirValueGetFirstUse(value.to_raw()).ptr.is_null() }
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

/// Whether erasing `op` would change nothing (no uses, no effects).
pub fn is_trivially_dead(op: OperationRef) -> bool {
    unsafe { crate::ffi::ttOpIsTriviallyDead(op.to_raw()) }
}

/// All attributes of `op` (inherent and discardable) as one uniqued
/// dictionary attribute: two ops carry equal attributes exactly when their
/// dictionaries are the same attribute.
pub fn attribute_dictionary(op: OperationRef) -> mlir_sys::MlirAttribute {
    unsafe { crate::ffi::ttOpGetAttributeDictionary(op.to_raw()) }
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

#[cfg(test)]
mod tests {
    use super::*;
    use melior::{ir::attribute::StringAttribute, Context};

    #[test]
    fn walks_wrapped_locations_to_the_file_position() {
        let context = Context::new();
        let file = Location::new(&context, "a.mlir", 3, 4);
        let position = FileLoc {
            file: "a.mlir".into(),
            line: 3,
            column: 4,
        };
        assert_eq!(position.to_string(), "a.mlir:3:4");
        let expected = Some(position);
        let named = Location::name(&context, "x", file);
        assert_eq!(file_loc(named), expected);
        let call = Location::call_site(file, Location::new(&context, "b.mlir", 9, 9));
        assert_eq!(file_loc(call), expected);
        let meta: Attribute = StringAttribute::new(&context, "m").into();
        let fused = Location::fused(&context, &[Location::unknown(&context), named], meta);
        assert_eq!(file_loc(fused), expected);
        assert_eq!(file_loc(Location::unknown(&context)), None);
    }
}
