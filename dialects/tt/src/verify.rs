//! Triton's verifier rules, reached from C++ through one callback.
//!
//! Every `tt`, `ttg` and `ttng` op's `verify()`, and every native trait of
//! Triton (`TensorSizeTrait`, `SameOperandsEncoding`, ...), forwards here
//! with a [`VerifyKind`](crate::ffi::VerifyKind). Rules return
//! `Err(message)`; the callback turns that into an MLIR error at the op's
//! location. A panic inside a rule is caught and reported as an internal
//! error: it never unwinds into C++.

use std::ffi::CString;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Once, OnceLock};

use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    operation::{OperationLike, OperationRef},
    r#type::FunctionType,
    BlockLike, RegionLike, Type, ValueLike,
};
use mlir_sys::MlirOperation;

use crate::ffi::{self, VerifyKind};
use crate::types::{self, Tensor, TensorView};

/// The outcome of a rule: `Err` carries the message, without the op prefix.
pub type Rule = Result<(), String>;

/// Hooks that crates layered on `tt` (the ttg crate) install so that their
/// ops and layouts are verified by the same callback.
#[derive(Clone, Copy)]
pub struct Extension {
    /// Rules for ops outside `tt`: `None` when the op has no Rust rules.
    pub verify_op: fn(OperationRef) -> Option<Rule>,
    /// Checks every tensor encoding of an op against the module's
    /// `ttg.num-warps`, `ttg.threads-per-warp` and `ttg.num-ctas`.
    pub verify_layouts: fn(OperationRef) -> Rule,
}

static EXTENSION: OnceLock<Extension> = OnceLock::new();

/// Installs the verifier and inliner callbacks into the shim. Idempotent.
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| unsafe {
        ffi::ttShimSetVerifyCallback(verify_callback);
        ffi::ttShimSetInlineCallback(inline_callback);
    });
}

/// Registers the rules of a dialect layered on `tt`. Only the first call
/// takes effect.
pub fn set_extension(extension: Extension) {
    let _ = EXTENSION.set(extension);
}

unsafe extern "C" fn verify_callback(raw: MlirOperation, kind: VerifyKind) -> i32 {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let op = unsafe { OperationRef::from_raw(raw) };
        (op, dispatch(op, kind))
    }));
    match outcome {
        Ok((_, Ok(()))) => 1,
        Ok((op, Err(message))) => {
            emit_op_error(op, &message);
            0
        }
        Err(_) => {
            let op = unsafe { OperationRef::from_raw(raw) };
            emit_op_error(op, "internal error: a verifier rule panicked");
            0
        }
    }
}

unsafe extern "C" fn inline_callback(_call: MlirOperation, callee: MlirOperation) -> i32 {
    catch_unwind(AssertUnwindSafe(|| {
        let callee = unsafe { OperationRef::from_raw(callee) };
        let noinline = callee
            .attribute("noinline")
            .ok()
            .and_then(crate::ir::bool_value)
            == Some(true);
        i32::from(!noinline)
    }))
    .unwrap_or(0)
}

/// A rule message that starts with this is emitted without the
/// `'<op name>' op` prefix (where Triton uses `emitError`, not
/// `emitOpError`).
pub const NO_OP_PREFIX: &str = "\u{1}";

/// Emits `'<op name>' op <message>` at the op's location, as MLIR's
/// `emitOpError` does (or `message` alone after [`NO_OP_PREFIX`]).
pub fn emit_op_error(op: OperationRef, message: &str) {
    let text = match message.strip_prefix(NO_OP_PREFIX) {
        Some(bare) => bare.to_owned(),
        None => format!("'{}' op {}", op_name(op), message),
    };
    let text = CString::new(text.replace('\0', " ")).unwrap_or_default();
    unsafe { mlir_sys::mlirEmitError(op.location().to_raw(), text.as_ptr()) };
}

fn op_name(op: OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("?").to_owned()
}

fn dispatch(op: OperationRef, kind: VerifyKind) -> Rule {
    match kind {
        ffi::VERIFY_OP => {
            let ident = op.name();
            let name = ident.as_string_ref();
            if let Some(rule) = tt_rule(name.as_str().unwrap_or("")) {
                rule(op)
            } else if let Some(ext) = EXTENSION.get() {
                (ext.verify_op)(op).unwrap_or(Ok(()))
            } else {
                Ok(())
            }
        }
        ffi::VERIFY_SYMBOL_USES => verify_call_symbol(op),
        ffi::TRAIT_TENSOR_SIZE => tensor_size(op),
        ffi::TRAIT_TENSOR_LAYOUTS => match EXTENSION.get() {
            Some(ext) => (ext.verify_layouts)(op),
            None => Ok(()),
        },
        ffi::TRAIT_SAME_OPERANDS_ENCODING => same_encoding(op, false),
        ffi::TRAIT_SAME_OPERANDS_AND_RESULT_ENCODING => same_encoding(op, true),
        ffi::TRAIT_SAME_LOAD_STORE_OPERANDS_SHAPE => same_load_store_shape(op, false),
        ffi::TRAIT_SAME_LOAD_STORE_OPERANDS_AND_RESULT_SHAPE => same_load_store_shape(op, true),
        ffi::TRAIT_SAME_LOAD_STORE_OPERANDS_ENCODING => same_load_store_encoding(op, false),
        ffi::TRAIT_SAME_LOAD_STORE_OPERANDS_AND_RESULT_ENCODING => {
            same_load_store_encoding(op, true)
        }
        other => Err(format!("internal error: unknown verifier kind {other}")),
    }
}

//===----------------------------------------------------------------------===//
// Helpers shared by the rules
//===----------------------------------------------------------------------===//

/// The types of an op's operands, then (when `with_results`) its results,
/// without collecting them.
pub fn value_types<'c>(
    op: OperationRef<'c, '_>,
    with_results: bool,
) -> impl Iterator<Item = Type<'c>> + 'c {
    let raw = op.to_raw();
    let (operands, results) = unsafe {
        (
            mlir_sys::mlirOperationGetNumOperands(raw),
            if with_results {
                mlir_sys::mlirOperationGetNumResults(raw)
            } else {
                0
            },
        )
    };
    let operand = move |i| unsafe {
        Type::from_raw(mlir_sys::mlirValueGetType(
            mlir_sys::mlirOperationGetOperand(raw, i),
        ))
    };
    let result = move |i| unsafe {
        Type::from_raw(mlir_sys::mlirValueGetType(
            mlir_sys::mlirOperationGetResult(raw, i),
        ))
    };
    (0..operands).map(operand).chain((0..results).map(result))
}

/// An integer attribute's value, if present.
pub fn int_attr(op: OperationRef, name: &str) -> Option<i64> {
    op.attribute(name)
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map(|i| i.value())
}

/// A dense i32 array attribute's values, if present.
pub fn i32_array_attr(op: OperationRef, name: &str) -> Option<Vec<i32>> {
    let attr = op.attribute(name).ok()?;
    let array = DenseI32ArrayAttribute::try_from(attr).ok()?;
    Some(
        (0..array.len())
            .filter_map(|i| array.element(i).ok())
            .collect(),
    )
}

/// The type of operand `index`, if the op has that many operands.
///
/// Indices are checked here because melior's out-of-range error prints the
/// op, and printing verifies it: from inside a verifier that recurses.
pub fn operand_type<'c>(op: OperationRef<'c, '_>, index: usize) -> Option<Type<'c>> {
    (index < op.operand_count())
        .then(|| op.operand(index).ok().map(|v| v.r#type()))
        .flatten()
}

/// The type of result `index`, if the op has that many results.
pub fn result_type<'c>(op: OperationRef<'c, '_>, index: usize) -> Option<Type<'c>> {
    (index < op.result_count())
        .then(|| op.result(index).ok().map(|v| v.r#type()))
        .flatten()
}

/// The tensor operand #0 and tensor result #0 of an op, when both exist.
fn source_and_result<'c>(op: OperationRef<'c, '_>) -> Option<(Tensor<'c>, Tensor<'c>)> {
    Some((
        operand_type(op, 0).and_then(Tensor::of)?,
        result_type(op, 0).and_then(Tensor::of)?,
    ))
}

fn shape_text(shape: &[i64]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", dims.join(", "))
}

//===----------------------------------------------------------------------===//
// Native traits
//===----------------------------------------------------------------------===//

/// Largest tensor Triton accepts (`maxTensorNumElements`).
pub const MAX_TENSOR_ELEMENTS: i64 = 1 << 20;

fn tensor_size(op: OperationRef) -> Rule {
    for ty in value_types(op, true) {
        let Some(t) = TensorView::of(ty) else {
            continue;
        };
        let n = t.num_elements();
        if n > MAX_TENSOR_ELEMENTS {
            return Err(format!(
                "{ty} has {n} elements, more than the maximum of {MAX_TENSOR_ELEMENTS}"
            ));
        }
        // A make_range of no element says why in Triton's words (start
        // must be less than end) in its own rule.
        if n == 0 && op.name().as_string_ref().as_str() == Ok("tt.make_range") {
            continue;
        }
        if n <= 0 || n & (n - 1) != 0 {
            return Err(format!(
                "{ty} has {n} elements: the number of elements must be a power of two"
            ));
        }
    }
    Ok(())
}

/// Whether all present items are equal (absent ones are accepted).
fn all_equal<T: PartialEq>(items: impl Iterator<Item = Option<T>>) -> bool {
    let mut first = None;
    for item in items.flatten() {
        match &first {
            None => first = Some(item),
            Some(f) if *f != item => return false,
            Some(_) => {}
        }
    }
    true
}

fn same_encoding(op: OperationRef, with_results: bool) -> Rule {
    let encodings =
        value_types(op, with_results).map(|t| TensorView::of(t).and_then(|t| t.encoding));
    if all_equal(encodings) {
        Ok(())
    } else if with_results {
        Err("requires the same encoding for all operands and results".into())
    } else {
        Err("requires the same encoding for all operands".into())
    }
}

fn same_load_store_shape(op: OperationRef, with_results: bool) -> Rule {
    let shapes = value_types(op, with_results).map(|t| Some(types::load_store_shape(t)));
    if all_equal(shapes) {
        Ok(())
    } else if with_results {
        Err("requires the same shape for all operands and results".into())
    } else {
        Err("requires the same shape for all operands".into())
    }
}

fn same_load_store_encoding(op: OperationRef, with_results: bool) -> Rule {
    let encodings = value_types(op, with_results).map(types::load_store_encoding);
    if all_equal(encodings) {
        Ok(())
    } else if with_results {
        Err("requires the same encoding for all operands and results".into())
    } else {
        Err("requires the same encoding for all operands".into())
    }
}

//===----------------------------------------------------------------------===//
// Op rules
//===----------------------------------------------------------------------===//

type OpRule = fn(OperationRef) -> Rule;

fn tt_rule(name: &str) -> Option<OpRule> {
    Some(match name {
        "tt.bitcast" => verify_bitcast,
        "tt.fp_to_fp" => verify_fp_to_fp,
        "tt.unsplat" => verify_unsplat,
        "tt.expand_dims" => verify_expand_dims,
        "tt.reshape" => verify_reshape,
        "tt.broadcast" => verify_broadcast,
        "tt.join" => verify_join,
        "tt.split" => verify_split,
        "tt.trans" => verify_trans,
        "tt.dot" => verify_dot,
        "tt.reduce" => verify_reduce,
        "tt.scan" => verify_scan,
        "tt.make_range" => verify_make_range,
        "tt.elementwise_inline_asm" => verify_inline_asm,
        "tt.gather" => verify_gather,
        "tt.print" => verify_print,
        "tt.return" => verify_return,
        "tt.make_tensor_ptr" => verify_make_tensor_ptr,
        _ => return None,
    })
}

fn verify_bitcast(op: OperationRef) -> Rule {
    let (Some(src), Some(dst)) = (operand_type(op, 0), result_type(op, 0)) else {
        return Ok(());
    };
    let (src_el, dst_el) = (types::element_type(src), types::element_type(dst));
    match (types::pointer_parts(src_el), types::pointer_parts(dst_el)) {
        (Some((_, a)), Some((_, b))) if a != b => {
            Err(format!("cannot bitcast between address spaces {a} and {b}"))
        }
        (Some(_), None) => Err("cannot bitcast a pointer to a non-pointer type".into()),
        (None, Some(_)) => Err("cannot bitcast a non-pointer type to a pointer".into()),
        (Some(_), Some(_)) => Ok(()),
        (None, None) => {
            let (a, b) = (types::bit_width(src_el), types::bit_width(dst_el));
            if a == b {
                Ok(())
            } else {
                Err(format!(
                    "cannot bitcast {src_el} ({} bits) to {dst_el} ({} bits): widths differ",
                    a.unwrap_or(0),
                    b.unwrap_or(0)
                ))
            }
        }
    }
}

fn verify_fp_to_fp(op: OperationRef) -> Rule {
    let (Some(src), Some(dst)) = (operand_type(op, 0), result_type(op, 0)) else {
        return Ok(());
    };
    let a = types::bit_width(types::element_type(src)).unwrap_or(0);
    let b = types::bit_width(types::element_type(dst)).unwrap_or(0);
    if b < a && !op.has_attribute("rounding") {
        return Err("a rounding mode is required for a narrowing float conversion".into());
    }
    Ok(())
}

fn verify_unsplat(op: OperationRef) -> Rule {
    let Some(src) = operand_type(op, 0).and_then(Tensor::of) else {
        return Ok(());
    };
    if src.num_elements() != 1 {
        return Err(format!(
            "source must have exactly one element, but has {}",
            src.num_elements()
        ));
    }
    Ok(())
}

fn verify_expand_dims(op: OperationRef) -> Rule {
    let Some((src, dst)) = source_and_result(op) else {
        return Ok(());
    };
    let axis = int_attr(op, "axis").unwrap_or(0);
    if axis < 0 || axis as usize > src.rank() {
        return Err(format!(
            "axis {axis} is out of range for a rank-{} source",
            src.rank()
        ));
    }
    let mut expected = src.shape.clone();
    expected.insert(axis as usize, 1);
    if dst.shape != expected {
        return Err(format!(
            "result shape {} must be the source shape with a 1 inserted at axis {axis}: {}",
            shape_text(&dst.shape),
            shape_text(&expected)
        ));
    }
    if src.encoding.is_some() != dst.encoding.is_some() {
        return Err("source and result must both have an encoding or neither".into());
    }
    Ok(())
}

fn verify_reshape(op: OperationRef) -> Rule {
    let Some((src, dst)) = source_and_result(op) else {
        return Ok(());
    };
    if src.num_elements() != dst.num_elements() {
        return Err(format!(
            "source has {} elements but the result has {}",
            src.num_elements(),
            dst.num_elements()
        ));
    }
    if src.encoding.is_some() != dst.encoding.is_some() {
        return Err("source and result must both have an encoding or neither".into());
    }
    Ok(())
}

fn verify_broadcast(op: OperationRef) -> Rule {
    let Some((src, dst)) = source_and_result(op) else {
        return Ok(());
    };
    if src.rank() != dst.rank() {
        return Err(format!(
            "source rank {} differs from result rank {}",
            src.rank(),
            dst.rank()
        ));
    }
    for (i, (&s, &d)) in src.shape.iter().zip(&dst.shape).enumerate() {
        if s != d && s != 1 {
            return Err(format!(
                "dimension {i} of size {s} cannot be broadcast to {d}: only size-1 dimensions may change"
            ));
        }
    }
    Ok(())
}

fn verify_join(op: OperationRef) -> Rule {
    let Some((src, dst)) = source_and_result(op) else {
        return Ok(());
    };
    let mut expected = src.shape.clone();
    expected.push(2);
    if dst.shape != expected {
        return Err(format!(
            "result shape {} must be the operand shape with a trailing 2: {}",
            shape_text(&dst.shape),
            shape_text(&expected)
        ));
    }
    Ok(())
}

fn verify_split(op: OperationRef) -> Rule {
    let Some((src, dst)) = source_and_result(op) else {
        return Ok(());
    };
    if src.shape.last() != Some(&2) {
        return Err(format!(
            "the last dimension of the source must be 2, but the shape is {}",
            shape_text(&src.shape)
        ));
    }
    let expected = &src.shape[..src.rank() - 1];
    if dst.shape != expected {
        return Err(format!(
            "result shape {} must be the source shape without its last dimension: {}",
            shape_text(&dst.shape),
            shape_text(expected)
        ));
    }
    Ok(())
}

fn verify_trans(op: OperationRef) -> Rule {
    let Some((src, dst)) = source_and_result(op) else {
        return Ok(());
    };
    let order = i32_array_attr(op, "order").unwrap_or_default();
    let mut seen = vec![false; src.rank()];
    if order.len() != src.rank()
        || order.iter().any(|&d| {
            d < 0 || d as usize >= seen.len() || std::mem::replace(&mut seen[d as usize], true)
        })
    {
        return Err(format!(
            "order {order:?} is not a permutation of the {} source dimensions",
            src.rank()
        ));
    }
    let expected: Vec<i64> = order.iter().map(|&d| src.shape[d as usize]).collect();
    if dst.shape != expected {
        return Err(format!(
            "result shape {} must be the source shape permuted by the order: {}",
            shape_text(&dst.shape),
            shape_text(&expected)
        ));
    }
    Ok(())
}

fn verify_dot(op: OperationRef) -> Rule {
    let ts: Vec<Option<Tensor>> = (0..3)
        .map(|i| operand_type(op, i).and_then(Tensor::of))
        .collect();
    let (Some(a), Some(b), Some(c)) = (&ts[0], &ts[1], &ts[2]) else {
        return Ok(());
    };
    if a.rank() != b.rank() || a.rank() != c.rank() || !(2..=3).contains(&a.rank()) {
        return Err("operands must all be of rank 2, or all of rank 3 (batched)".into());
    }
    let r = a.rank();
    let (wa, wb) = (types::bit_width(a.element), types::bit_width(b.element));
    if wa != wb {
        return Err(format!(
            "element types of a ({}) and b ({}) must have the same bit width",
            a.element, b.element
        ));
    }
    if a.shape[r - 1] != b.shape[r - 2] {
        return Err(format!(
            "the K dimensions of a {} and b {} differ",
            shape_text(&a.shape),
            shape_text(&b.shape)
        ));
    }
    if c.shape[r - 2] != a.shape[r - 2] || c.shape[r - 1] != b.shape[r - 1] {
        return Err(format!(
            "the accumulator shape {} must be [M, N] of a {} and b {}",
            shape_text(&c.shape),
            shape_text(&a.shape),
            shape_text(&b.shape)
        ));
    }
    if a.encoding.is_some() != b.encoding.is_some() {
        return Err("a and b must both have an encoding or neither".into());
    }
    if a.encoding.is_some() && c.encoding.is_none() {
        return Err("the accumulator must have an encoding when a and b have one".into());
    }
    Ok(())
}

/// The rules shared by `tt.reduce` and `tt.scan`: the combine region takes
/// two scalars per operand and returns one per operand.
fn verify_combine_region(op: OperationRef, operands: &[Tensor], kind: &str) -> Rule {
    let Some(region) = op.regions().next() else {
        return Ok(());
    };
    let Some(block) = region.first_block() else {
        return Err("the combine region must have one block".into());
    };
    let n = operands.len();
    if block.argument_count() != 2 * n {
        return Err(format!(
            "the combine region takes {} arguments, but it must take 2 per operand ({})",
            block.argument_count(),
            2 * n
        ));
    }
    for (i, t) in operands.iter().enumerate() {
        for j in [i, i + n] {
            let arg = block
                .argument(j)
                .map_err(|_| "internal error: missing region argument".to_owned())?
                .r#type();
            if arg != t.element {
                return Err(format!(
                    "combine region argument #{j} has type {arg}, but operand #{i} has elements of type {}",
                    t.element
                ));
            }
        }
    }
    if let Some(term) = block.terminator() {
        if term.operand_count() != n {
            return Err(format!(
                "the combine region returns {} values, but the {kind} has {n} operands",
                term.operand_count()
            ));
        }
        for (i, t) in operands.iter().enumerate() {
            let Some(ty) = operand_type(term, i) else {
                return Err("internal error: missing terminator operand".into());
            };
            if ty != t.element {
                return Err(format!(
                    "the combine region returns {ty} for operand #{i}, whose elements are {}",
                    t.element
                ));
            }
        }
    }
    Ok(())
}

fn tensor_operands<'c>(op: OperationRef<'c, '_>) -> Vec<Tensor<'c>> {
    op.operands()
        .filter_map(|v| Tensor::of(v.r#type()))
        .collect()
}

fn verify_reduce(op: OperationRef) -> Rule {
    let operands = tensor_operands(op);
    let Some(first) = operands.first() else {
        return Err("needs at least one operand".into());
    };
    let axis = int_attr(op, "axis").unwrap_or(0);
    if axis < 0 || axis as usize >= first.rank() {
        return Err(format!(
            "axis {axis} is out of range for rank {}",
            first.rank()
        ));
    }
    if op.result_count() != operands.len() {
        return Err(format!(
            "has {} results for {} operands",
            op.result_count(),
            operands.len()
        ));
    }
    let mut expected = first.shape.clone();
    expected.remove(axis as usize);
    for (i, (res, src)) in op.results().zip(&operands).enumerate() {
        let ty = res.r#type();
        match Tensor::of(ty) {
            Some(t) if t.shape != expected => {
                return Err(format!(
                    "result #{i} has shape {} but reducing axis {axis} gives {}",
                    shape_text(&t.shape),
                    shape_text(&expected)
                ))
            }
            Some(t) if t.element != src.element => {
                return Err(format!(
                    "result #{i} element type differs from its operand's"
                ))
            }
            None if !expected.is_empty() => {
                return Err(format!(
                    "result #{i} must be a tensor of shape {}",
                    shape_text(&expected)
                ))
            }
            None if ty != src.element => {
                return Err(format!(
                    "result #{i} has type {ty}, but the operand's elements are {}",
                    src.element
                ))
            }
            _ => {}
        }
    }
    verify_combine_region(op, &operands, "reduce")
}

fn verify_scan(op: OperationRef) -> Rule {
    let operands = tensor_operands(op);
    let Some(first) = operands.first() else {
        return Err("needs at least one operand".into());
    };
    let axis = int_attr(op, "axis").unwrap_or(0);
    if axis < 0 || axis as usize >= first.rank() {
        return Err(format!(
            "axis {axis} is out of range for rank {}",
            first.rank()
        ));
    }
    for (i, (res, src)) in op.results().zip(op.operands()).enumerate() {
        if res.r#type() != src.r#type() {
            return Err(format!("result #{i} must have the type of operand #{i}"));
        }
    }
    verify_combine_region(op, &operands, "scan")
}

fn verify_make_range(op: OperationRef) -> Rule {
    let start = int_attr(op, "start").unwrap_or(0);
    let end = int_attr(op, "end").unwrap_or(0);
    let Some(t) = result_type(op, 0).and_then(Tensor::of) else {
        return Ok(());
    };
    if t.rank() != 1 {
        return Err("the result must be a 1D tensor".into());
    }
    if start >= end {
        return Err(format!(
            "start must be less than end (start = {start}, end = {end})"
        ));
    }
    if t.num_elements() != end - start {
        return Err(format!(
            "number of elements of the result ({}) must be end - start ({})",
            t.num_elements(),
            end - start
        ));
    }
    if types::bit_width(t.element) != Some(32) || types::is_float(t.element) {
        return Err("the result must have i32 elements".into());
    }
    Ok(())
}

fn verify_inline_asm(op: OperationRef) -> Rule {
    let pack = int_attr(op, "packed_element").unwrap_or(1);
    if pack <= 0 {
        return Err(format!("packed_element must be positive, got {pack}"));
    }
    for ty in value_types(op, true) {
        if let Some(t) = Tensor::of(ty) {
            if t.num_elements() % pack != 0 {
                return Err(format!(
                    "{ty} has {} elements, which is not a multiple of packed_element = {pack}",
                    t.num_elements()
                ));
            }
        }
    }
    Ok(())
}

fn verify_gather(op: OperationRef) -> Rule {
    let (Some(src), Some(idx), Some(dst)) = (
        operand_type(op, 0).and_then(Tensor::of),
        operand_type(op, 1).and_then(Tensor::of),
        result_type(op, 0).and_then(Tensor::of),
    ) else {
        return Ok(());
    };
    let axis = int_attr(op, "axis").unwrap_or(0);
    if src.rank() != idx.rank() {
        return Err("source and indices must have the same rank".into());
    }
    if axis < 0 || axis as usize >= src.rank() {
        return Err(format!(
            "axis {axis} is out of range for rank {}",
            src.rank()
        ));
    }
    if dst.shape != idx.shape {
        return Err("the result must have the shape of the indices".into());
    }
    if dst.element != src.element {
        return Err("the result must have the element type of the source".into());
    }
    Ok(())
}

/// `tt.print`: one `isSigned` entry per operand at least (the lowering
/// reads operand `i`'s from entry `i`); Triton 3.6 accepts extra entries
/// (`isSigned = array<i32: 0>` on a print of no operand, in its `ops.mlir`).
fn verify_print(op: OperationRef) -> Rule {
    let signs = i32_array_attr(op, "isSigned").unwrap_or_default();
    if signs.len() < op.operand_count() {
        return Err(format!(
            "isSigned has {} entries for {} operands",
            signs.len(),
            op.operand_count()
        ));
    }
    Ok(())
}

fn verify_return(op: OperationRef) -> Rule {
    let Some(func) = op.parent_operation() else {
        return Ok(());
    };
    let Ok(attr) = func.attribute("function_type") else {
        return Ok(());
    };
    let Ok(ty) = melior::ir::attribute::TypeAttribute::try_from(attr) else {
        return Ok(());
    };
    let Ok(fn_ty) = FunctionType::try_from(ty.value()) else {
        return Ok(());
    };
    let expected: Vec<Type> = (0..fn_ty.result_count())
        .filter_map(|i| fn_ty.result(i).ok())
        .collect();
    let actual: Vec<Type> = op.operands().map(|v| v.r#type()).collect();
    if expected.len() != actual.len() {
        return Err(format!(
            "has {} operands, but the enclosing function returns {} values",
            actual.len(),
            expected.len()
        ));
    }
    for (i, (a, e)) in actual.iter().zip(&expected).enumerate() {
        if a != e {
            return Err(format!(
                "operand #{i} has type {a}, but the enclosing function returns {e}"
            ));
        }
    }
    Ok(())
}

fn verify_make_tensor_ptr(op: OperationRef) -> Rule {
    let Some(block) = result_type(op, 0)
        .and_then(types::pointer_parts)
        .and_then(|(pointee, _)| Tensor::of(pointee))
    else {
        return Ok(());
    };
    let order = i32_array_attr(op, "order").unwrap_or_default();
    if !order.is_empty() && order.len() != block.rank() {
        return Err(format!(
            "order has {} entries for a rank-{} block",
            order.len(),
            block.rank()
        ));
    }
    let operand_groups = (op.operand_count() - 1) / 3;
    if operand_groups != block.rank() {
        return Err(format!(
            "takes {operand_groups} shape, stride and offset values for a rank-{} block",
            block.rank()
        ));
    }
    Ok(())
}

/// `tt.call`: the callee exists, is a `tt.func`, and the operand and result
/// types match its signature.
fn verify_call_symbol(op: OperationRef) -> Rule {
    let Ok(callee) = op.attribute("callee") else {
        return Err("requires a 'callee' symbol reference attribute".into());
    };
    let Ok(callee) = melior::ir::attribute::FlatSymbolRefAttribute::try_from(callee) else {
        return Err("'callee' must be a flat symbol reference".into());
    };
    let name = callee.value().to_owned();
    let mut scope = op.parent_operation();
    let func = loop {
        let Some(parent) = scope else {
            return Err(format!("'{name}' does not reference a valid function"));
        };
        if parent.name().as_string_ref().as_str() == Ok("builtin.module") {
            let table = unsafe { mlir_sys::mlirSymbolTableCreate(parent.to_raw()) };
            let sym = CString::new(name.clone()).unwrap_or_default();
            let found = unsafe {
                mlir_sys::mlirSymbolTableLookup(
                    table,
                    mlir_sys::mlirStringRefCreateFromCString(sym.as_ptr()),
                )
            };
            unsafe { mlir_sys::mlirSymbolTableDestroy(table) };
            match unsafe { OperationRef::from_option_raw(found) } {
                Some(f) => break f,
                None => return Err(format!("'{name}' does not reference a valid function")),
            }
        }
        scope = parent.parent_operation();
    };
    if func.name().as_string_ref().as_str() != Ok("tt.func") {
        return Err(format!("'{name}' does not reference a tt.func"));
    }
    let Ok(attr) = func.attribute("function_type") else {
        return Ok(());
    };
    let Ok(ty) = melior::ir::attribute::TypeAttribute::try_from(attr) else {
        return Ok(());
    };
    let Ok(fn_ty) = FunctionType::try_from(ty.value()) else {
        return Ok(());
    };
    if fn_ty.input_count() != op.operand_count() {
        return Err(format!(
            "passes {} operands to '{name}', which takes {}",
            op.operand_count(),
            fn_ty.input_count()
        ));
    }
    for (i, v) in op.operands().enumerate() {
        let expected = fn_ty
            .input(i)
            .map_err(|_| "internal error: missing input type".to_owned())?;
        if v.r#type() != expected {
            return Err(format!(
                "operand #{i} has type {}, but '{name}' takes {expected}",
                v.r#type()
            ));
        }
    }
    if fn_ty.result_count() != op.result_count() {
        return Err(format!(
            "has {} results, but '{name}' returns {}",
            op.result_count(),
            fn_ty.result_count()
        ));
    }
    for (i, v) in op.results().enumerate() {
        let expected = fn_ty
            .result(i)
            .map_err(|_| "internal error: missing result type".to_owned())?;
        if v.r#type() != expected {
            return Err(format!(
                "result #{i} has type {}, but '{name}' returns {expected}",
                v.r#type()
            ));
        }
    }
    Ok(())
}
