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
/// An empty message means the rule has reported its diagnostics itself
/// (at the nested op they concern), so the callback adds none.
pub type Rule = Result<(), String>;

/// What the layout library says about the result encoding of an op whose
/// result layout follows from its operand's (`tt.trans`, `tt.split`,
/// `tt.join`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutCheck {
    /// The declared encoding is the inferred one.
    Agrees,
    /// It is another layout.
    Differs,
    /// No layout can be inferred; the message says why.
    Fails(String),
    /// Not checked (no encodings, or encodings the library cannot map).
    Unknown,
}

/// Hooks that crates layered on `tt` (the ttg crate) install so that their
/// ops and layouts are verified by the same callback.
#[derive(Clone, Copy)]
pub struct Extension {
    /// Rules for ops outside `tt`: `None` when the op has no Rust rules.
    pub verify_op: fn(OperationRef) -> Option<Rule>,
    /// Checks every tensor encoding of an op against the module's
    /// `ttg.num-warps`, `ttg.threads-per-warp` and `ttg.num-ctas`.
    pub verify_layouts: fn(OperationRef) -> Rule,
    /// Checks the result encoding of `tt.trans`, `tt.split` and `tt.join`
    /// against Triton's layout inference.
    pub result_layout: fn(OperationRef) -> LayoutCheck,
    /// Rules of `tt` ops that depend on what their encodings mean (the
    /// operand encodings of `tt.dot`), run after the op's own rules.
    pub tt_op_rules: fn(OperationRef) -> Option<Rule>,
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
            if !message.is_empty() {
                emit_op_error(op, &message);
            }
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
    match message.strip_prefix(NO_OP_PREFIX) {
        Some(bare) => emit_error(op, bare),
        None => emit_error(op, &format!("'{}' op {}", op_name(op), message)),
    }
}

/// Emits `message` at the op's location, without the op prefix (MLIR's
/// `emitError`).
pub fn emit_error(op: OperationRef, message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: the op's location is live and the text outlives the call.
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
                rule(op)?;
                match EXTENSION.get() {
                    Some(ext) => (ext.tt_op_rules)(op).unwrap_or(Ok(())),
                    None => Ok(()),
                }
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
        "tt.dot_scaled" => verify_dot_scaled,
        "tt.atomic_cas" => verify_atomic_cas,
        "tt.map_elementwise" => verify_map_elementwise,
        "tt.descriptor_load" => verify_descriptor_load,
        "tt.descriptor_store" => verify_descriptor_store,
        "tt.descriptor_gather" => verify_descriptor_gather,
        "tt.descriptor_scatter" => verify_descriptor_scatter,
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
        (Some(_), None) => Err("Cannot bitcast pointer to non-pointer type".into()),
        (None, Some(_)) => Err("Cannot bitcast non-pointer type to pointer".into()),
        (Some(_), Some(_)) => Ok(()),
        (None, None) => {
            let (a, b) = (types::bit_width(src_el), types::bit_width(dst_el));
            if a == b {
                Ok(())
            } else {
                Err(format!(
                    "Cannot bitcast data-type of size {} to data-type of size {} ({src_el} to {dst_el})",
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
            "source tensor must have exactly one element, but has {}",
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
            "number of src and dst elements of reshape must be the same ({} and {})",
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
            "rank of source must be same as rank of result ({} and {})",
            src.rank(),
            dst.rank()
        ));
    }
    for (i, (&s, &d)) in src.shape.iter().zip(&dst.shape).enumerate() {
        if s != d && s != 1 {
            return Err(format!(
                "Different dimensions at index {i} between source and result.  Broadcast requires the source dimension to be 1."
            ));
        }
    }
    Ok(())
}

/// `tensor<32x2xf32>`: a tensor type without encoding, as MLIR prints it.
fn tensor_text(shape: &[i64], element: Type) -> String {
    let dims: String = shape.iter().map(|d| format!("{d}x")).collect();
    format!("tensor<{dims}{element}>")
}

/// Triton prints shapes in its messages as `32, 2`.
fn comma_shape(shape: &[i64]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    dims.join(", ")
}

/// What the extension says about the op's result layout.
fn result_layout(op: OperationRef) -> LayoutCheck {
    match EXTENSION.get() {
        Some(ext) => (ext.result_layout)(op),
        None => LayoutCheck::Unknown,
    }
}

/// The message MLIR gives an op whose inferred result types do not verify;
/// its first diagnostic is emitted here, at the op.
const FAILED_TO_INFER: &str = "failed to infer returned types";

/// `inferred type(s) ... are incompatible with return type(s)`, as MLIR's
/// type-inference check words it, then [`FAILED_TO_INFER`].
fn incompatible_inferred(op: OperationRef, inferred: &str) -> Rule {
    let actual: Vec<String> = op.results().map(|r| format!("'{}'", r.r#type())).collect();
    emit_op_error(
        op,
        &format!(
            "inferred type(s) {inferred} are incompatible with return type(s) of operation {}",
            actual.join(", ")
        ),
    );
    Err(FAILED_TO_INFER.into())
}

/// Reports a layout inference that failed or disagrees (`Ok` otherwise).
fn inferred_layout(op: OperationRef, what: &str) -> Rule {
    match result_layout(op) {
        LayoutCheck::Agrees | LayoutCheck::Unknown => Ok(()),
        LayoutCheck::Fails(message) => {
            emit_op_error(op, &message);
            Err(FAILED_TO_INFER.into())
        }
        LayoutCheck::Differs => incompatible_inferred(op, &format!("with {what}")),
    }
}

fn verify_join(op: OperationRef) -> Rule {
    let Some((src, dst)) = source_and_result(op) else {
        return Ok(());
    };
    let mut expected = src.shape.clone();
    expected.push(2);
    if dst.shape != expected {
        return Err(format!(
            "result shape must be ({}), but got {}",
            comma_shape(&expected),
            comma_shape(&dst.shape)
        ));
    }
    if dst.element != src.element {
        return Err("result element type must match the input element type".into());
    }
    match (src.encoding, dst.encoding) {
        (Some(_), None) => Err("result encoding must be specified".into()),
        (_, None) => Ok(()),
        _ => match result_layout(op) {
            LayoutCheck::Agrees | LayoutCheck::Unknown => Ok(()),
            LayoutCheck::Fails(message) => Err(format!(
                "the joined dimension is not held in registers: {message}"
            )),
            LayoutCheck::Differs => Err("incompatible join layout".into()),
        },
    }
}

/// `tt.split` infers its result type: the source's without the last
/// dimension (which must be 2), in the layout that keeps each half where
/// it was.
fn verify_split(op: OperationRef) -> Rule {
    let Some((src, dst)) = source_and_result(op) else {
        return Ok(());
    };
    if src.shape.last() != Some(&2) {
        emit_op_error(
            op,
            &format!(
                "last dimension of input tensor must be 2, but the shape is {}",
                shape_text(&src.shape)
            ),
        );
        return Err(FAILED_TO_INFER.into());
    }
    let expected = &src.shape[..src.rank() - 1];
    if dst.shape != expected || dst.element != src.element {
        let inferred = format!("'{}'", tensor_text(expected, src.element));
        return incompatible_inferred(op, &format!("{inferred}, {inferred}"));
    }
    if src.encoding.is_some() != dst.encoding.is_some() {
        return incompatible_inferred(op, "with the source's encoding (or none)");
    }
    inferred_layout(
        op,
        "the source's layout without its last dimension (a register dimension)",
    )
}

fn verify_trans(op: OperationRef) -> Rule {
    let Some((src, dst)) = source_and_result(op) else {
        return Ok(());
    };
    let order = i32_array_attr(op, "order").unwrap_or_default();
    if order.len() != src.rank() {
        return Err(format!(
            "order must have the same size as the source tensor ({} entries for rank {})",
            order.len(),
            src.rank()
        ));
    }
    let mut seen = vec![false; src.rank()];
    if order.iter().any(|&d| {
        d < 0 || d as usize >= seen.len() || std::mem::replace(&mut seen[d as usize], true)
    }) {
        return Err(format!(
            "order must be a permutation of 0..n-1, got {order:?}"
        ));
    }
    let expected: Vec<i64> = order.iter().map(|&d| src.shape[d as usize]).collect();
    if dst.shape != expected {
        return Err(format!(
            "result shape must match the permutation of the source shape: {} instead of {}",
            shape_text(&dst.shape),
            shape_text(&expected)
        ));
    }
    if src.encoding.is_some() != dst.encoding.is_some() {
        return incompatible_inferred(op, "with the source's encoding (or none)");
    }
    inferred_layout(op, "the source's layout transposed by the order")
}

/// The shape rules of Triton's `DotOpInterface` for operands `a`, `b` and
/// accumulator `c`: all of rank 2 (or 3, batched), `a`'s K (`k.0`) equal to
/// `b`'s (`k.1`), batches equal, and `c` of `[M, N]` = `m_n`.
fn verify_dot_shapes(a: &Tensor, b: &Tensor, c: &Tensor, k: (i64, i64), m_n: (i64, i64)) -> Rule {
    if !(2..=3).contains(&a.rank()) {
        return Err("expected operands to be 2d or 3d".into());
    }
    if a.rank() != b.rank() || a.rank() != c.rank() {
        return Err("expected all operands to have the same rank".into());
    }
    if k.0 != k.1 {
        return Err(format!(
            "expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand (K = {} and {})",
            k.0, k.1
        ));
    }
    if a.rank() == 3 && (a.shape[0] != c.shape[0] || b.shape[0] != c.shape[0]) {
        return Err("expected the first dimension of the first operand to be equal to the first dimension of the result".into());
    }
    let r = c.rank();
    if (c.shape[r - 2], c.shape[r - 1]) != m_n {
        return Err(format!(
            "expected the output shape to be the concatenation of the last dimension of the first operand and the last dimension of the second (got {}, expected [{}, {}])",
            shape_text(&c.shape[r - 2..]),
            m_n.0,
            m_n.1
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
    if (2..=3).contains(&a.rank()) && a.rank() == b.rank() {
        let r = a.rank();
        let k = (a.shape[r - 1], b.shape[r - 2]);
        verify_dot_shapes(a, b, c, k, (a.shape[r - 2], b.shape[r - 1]))?;
    } else {
        verify_dot_shapes(a, b, c, (0, 0), (0, 0))?;
    }
    let (wa, wb) = (types::bit_width(a.element), types::bit_width(b.element));
    if wa != wb {
        return Err(format!(
            "element types of operands A and B must have same bit width ({} and {})",
            a.element, b.element
        ));
    }
    if a.encoding.is_some() != b.encoding.is_some() {
        return Err("mismatching encoding between A and B operands".into());
    }
    if a.encoding.is_some() && c.encoding.is_none() {
        return Err("miss encoding of C operand".into());
    }
    Ok(())
}

/// `tt.dot_scaled`: the dot shape rules with e2m1 operands packing two
/// values per byte along K (unless `lhs_k_pack`/`rhs_k_pack` say they pack
/// along M/N), and scales of shape `[M or N, K / 32]` (`K / 16` for e4m3
/// scales).
fn verify_dot_scaled(op: OperationRef) -> Rule {
    const E2M1: i64 = 4;
    // Operand segments: a, b, c, a_scale, b_scale (the scales optional).
    let tensor = |segment: usize| {
        crate::ir::segment(op, segment)?
            .first()
            .and_then(|v| Tensor::of(v.r#type()))
    };
    let (Some(a), Some(b), Some(c)) = (tensor(0), tensor(1), tensor(2)) else {
        return Ok(());
    };
    if !(2..=3).contains(&a.rank()) || a.rank() != b.rank() {
        return verify_dot_shapes(&a, &b, &c, (0, 0), (0, 0));
    }
    let r = a.rank();
    let flag = |name: &str| {
        op.attribute(name)
            .ok()
            .and_then(crate::ir::bool_value)
            .unwrap_or(true)
    };
    let packs = |side: &str, pack: &str| int_attr(op, side) == Some(E2M1) && flag(pack);
    let (a_packs, b_packs) = (
        packs("a_elem_type", "lhs_k_pack"),
        packs("b_elem_type", "rhs_k_pack"),
    );
    let a_k = a.shape[r - 1] * if a_packs { 2 } else { 1 };
    let b_k = b.shape[r - 2] * if b_packs { 2 } else { 1 };
    let unpacked = |side: &str, pack: &str| int_attr(op, side) == Some(E2M1) && !flag(pack);
    let m = a.shape[r - 2]
        * if unpacked("a_elem_type", "lhs_k_pack") {
            2
        } else {
            1
        };
    let n = b.shape[r - 1]
        * if unpacked("b_elem_type", "rhs_k_pack") {
            2
        } else {
            1
        };
    verify_dot_shapes(&a, &b, &c, (a_k, b_k), (m, n))?;
    for (segment, dim, what) in [(3, c.shape[r - 2], "M"), (4, c.shape[r - 1], "N")] {
        let Some(scale) = tensor(segment) else {
            continue;
        };
        if scale.rank() != r {
            continue;
        }
        if scale.shape[r - 2] != dim {
            return Err(format!(
                "scales {what} dimension must match the operand {what} dimension"
            ));
        }
        let factor = if scale.element.to_string() == "f8E4M3FN" {
            16
        } else {
            32
        };
        if scale.shape[r - 1] != a_k / factor {
            return Err(format!(
                "scales K dimension must match the operand K divided by the scale factor ({} for K = {a_k}, factor {factor})",
                scale.shape[r - 1]
            ));
        }
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
                    "operand types and result types must agree (result #{i} has elements of type {}, operand #{i} {})",
                    t.element, src.element
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
                    "operand types and result types must agree (result #{i} is {ty}, operand #{i} has elements of type {})",
                    src.element
                ))
            }
            _ => {}
        }
    }
    verify_combine_region(op, &operands, "reduce")
}

/// As Triton's, which leaves the axis unchecked (its result types do not
/// depend on it): passes take a scan along an axis the operand lacks as it
/// is, and the lowering refuses it.
fn verify_scan(op: OperationRef) -> Rule {
    let operands = tensor_operands(op);
    if operands.is_empty() {
        return Err("needs at least one operand".into());
    }
    for (i, (res, src)) in op.results().zip(op.operands()).enumerate() {
        if res.r#type() != src.r#type() {
            return Err(format!(
                "operand types and result types must agree (result #{i} is {}, operand #{i} {})",
                res.r#type(),
                src.r#type()
            ));
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
    if dst.shape != idx.shape {
        return Err("indices and output shapes must match".into());
    }
    if dst.encoding != idx.encoding {
        return Err("indices and output encodings must match".into());
    }
    if dst.element != src.element {
        return Err("input and output element types must match".into());
    }
    if src.rank() != idx.rank() {
        return Err("input and indices ranks must match".into());
    }
    if axis < 0 || axis as usize >= src.rank() {
        return Err(format!(
            "gather dimension must be less than the input rank (axis {axis}, rank {})",
            src.rank()
        ));
    }
    for (dim, (&i, &s)) in idx.shape.iter().zip(&src.shape).enumerate() {
        if dim != axis as usize && i != s {
            return Err(format!(
                "indices dimension {dim} must match the corresponding input dimension"
            ));
        }
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

/// `tt.atomic_cas`: `cmp` and `val` have the pointees' type (with the
/// pointers' shape), as Triton's `TypesMatchWith` constraints say.
fn verify_atomic_cas(op: OperationRef) -> Rule {
    let Some(ptr) = operand_type(op, 0) else {
        return Ok(());
    };
    let Some((pointee, _)) = types::pointer_parts(types::element_type(ptr)) else {
        return Ok(());
    };
    for (index, name) in [(1, "cmp"), (2, "value")] {
        if let Some(ty) = operand_type(op, index) {
            if types::element_type(ty) != pointee {
                return Err(format!(
                    "failed to verify that ptr type matches {name} type"
                ));
            }
        }
    }
    Ok(())
}

/// `tt.map_elementwise`: at least one operand, a power-of-two `pack`, a
/// region taking `pack` scalars per operand (operand-major) and returning
/// `pack` per result, with no op in it that writes memory (a scalar store
/// would lose its masking). Region problems are reported at the op inside
/// the region, as Triton does.
fn verify_map_elementwise(op: OperationRef) -> Rule {
    let operands = tensor_operands(op);
    if operands.is_empty() {
        return Err("MapElementwiseOp must have at least 1 operand".into());
    }
    let pack = int_attr(op, "pack").unwrap_or(1);
    if pack <= 0 || pack.count_ones() != 1 {
        return Err(format!("Pack must be a power of 2, got {pack}"));
    }
    let pack = pack as usize;
    let Some(block) = op.regions().next().and_then(|r| r.first_block()) else {
        return Ok(());
    };
    if block.argument_count() != operands.len() * pack {
        return Err(format!(
            "region has wrong number of arguments: {} for {} operands of pack {pack}",
            block.argument_count(),
            operands.len()
        ));
    }
    fn repeat(elements: Vec<Type>, pack: usize) -> Vec<Type> {
        elements
            .into_iter()
            .flat_map(|t| std::iter::repeat_n(t, pack))
            .collect()
    }
    let expected_args = repeat(operands.iter().map(|t| t.element).collect(), pack);
    let args: Vec<Type> = (0..block.argument_count())
        .filter_map(|i| block.argument(i).ok().map(|a| a.r#type()))
        .collect();
    if args != expected_args {
        return Err("argument types did not match".into());
    }
    let expected_returns = repeat(
        op.results()
            .filter_map(|r| Tensor::of(r.r#type()).map(|t| t.element))
            .collect(),
        pack,
    );
    // Post-order, as Triton walks: a store is reported at itself, not at
    // the op whose region holds it.
    fn first_problem(op: OperationRef, returns: &[Type]) -> bool {
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                let mut inner = b.first_operation();
                while let Some(o) = inner {
                    if first_problem(o, returns) {
                        return true;
                    }
                    if crate::ir::memory_effects(o).is_some_and(|e| e.write) {
                        emit_op_error(o, "Stores are not supported inside map_elementwise");
                        return true;
                    }
                    if crate::ir::is_op(o, "tt.map_elementwise.return") {
                        let returned: Vec<Type> = o.operands().map(|v| v.r#type()).collect();
                        if returned != returns {
                            emit_error(o, "region return does not match map_elementwise result");
                            return true;
                        }
                    }
                    inner = o.next_in_block();
                }
                block = b.next_in_region();
            }
        }
        false
    }
    if first_problem(op, &expected_returns) {
        Err(String::new())
    } else {
        Ok(())
    }
}

/// The block type of the descriptor operand `index` with signless
/// elements (descriptors of signed or unsigned integers load signless
/// ones), as a tensor.
fn descriptor_block<'c>(op: OperationRef<'c, '_>, index: usize) -> Option<Tensor<'c>> {
    let block = types::tensor_desc_block(operand_type(op, index)?)?;
    let mut block = Tensor::of(block)?;
    block.element = types::signless(block.element);
    Some(block)
}

/// A descriptor load's or store's tensor is the descriptor's block, or the
/// block without leading dims of size 1.
fn verify_descriptor_tensor(block: &Tensor, tensor: &Tensor) -> Rule {
    let mut shape = block.shape.as_slice();
    if shape.len() > tensor.rank() {
        let (leading, rest) = shape.split_at(shape.len() - tensor.rank());
        if leading.iter().any(|&d| d != 1) {
            return Err("ranked reduce load only allowed for unit dimension leading dim.".into());
        }
        shape = rest;
    }
    if shape == tensor.shape.as_slice() && block.element == tensor.element {
        return Ok(());
    }
    Err(format!(
        "tensor descriptor block and tensor types must match ({} and {})",
        tensor_text(&block.shape, block.element),
        tensor_text(&tensor.shape, tensor.element)
    ))
}

fn verify_descriptor_load(op: OperationRef) -> Rule {
    match (
        descriptor_block(op, 0),
        result_type(op, 0).and_then(Tensor::of),
    ) {
        (Some(block), Some(result)) => verify_descriptor_tensor(&block, &result),
        _ => Ok(()),
    }
}

fn verify_descriptor_store(op: OperationRef) -> Rule {
    match (
        descriptor_block(op, 0),
        operand_type(op, 1).and_then(Tensor::of),
    ) {
        (Some(block), Some(src)) => verify_descriptor_tensor(&block, &src),
        _ => Ok(()),
    }
}

/// TMA gathers and scatters move whole rows: the block is `1 x columns`,
/// the x offsets a 1D tensor with one entry per row of the result, which is
/// a 2D tensor of at least 8 rows and a row of at least 32 bytes, of the
/// block's columns and element type (at most 32 bits).
fn verify_gather_scatter(block: &Tensor, result: &Tensor, offsets: &Tensor) -> Rule {
    let ty = |t: &Tensor| format!("'{}'", tensor_text(&t.shape, t.element));
    if block.rank() != 2 {
        return Err(format!("block must be a 2D tensor, but got {}", ty(block)));
    }
    if block.shape[0] != 1 {
        return Err(format!(
            "block must have exactly 1 row, but got {}",
            ty(block)
        ));
    }
    if offsets.rank() != 1 {
        return Err(format!(
            "x offsets must be a 1D tensor, but got {}",
            ty(offsets)
        ));
    }
    if result.rank() != 2 {
        return Err(format!(
            "result must be a 2D tensor, but got {}",
            ty(result)
        ));
    }
    if result.shape[0] < 8 {
        return Err(format!(
            "gather must have at least 8 rows, but got {}",
            result.shape[0]
        ));
    }
    let bits = i64::from(types::bit_width(result.element).unwrap_or(0));
    if bits > 32 {
        return Err("TMA dtype cannot be greater than 32 bits".into());
    }
    let min_columns = if bits > 0 { 32 / bits * 8 } else { 0 };
    if result.shape[1] < min_columns {
        return Err(format!(
            "gather of {} must have at least {min_columns} columns, but got {}",
            result.element, result.shape[1]
        ));
    }
    if result.shape[0] != offsets.shape[0] {
        return Err(format!(
            "result tensor must have as many rows as indices ({}), but got {}",
            offsets.shape[0],
            ty(result)
        ));
    }
    if result.shape[1] != block.shape[1] {
        return Err(format!(
            "result tensor number of columns must match block ({}), but got {}",
            block.shape[1],
            ty(result)
        ));
    }
    if result.element != block.element {
        return Err(format!(
            "result tensor element type must match block ('{}'), but got {}",
            block.element,
            ty(result)
        ));
    }
    Ok(())
}

fn verify_descriptor_gather(op: OperationRef) -> Rule {
    match (
        descriptor_block(op, 0),
        result_type(op, 0).and_then(Tensor::of),
        operand_type(op, 1).and_then(Tensor::of),
    ) {
        (Some(block), Some(result), Some(offsets)) => {
            verify_gather_scatter(&block, &result, &offsets)
        }
        _ => Ok(()),
    }
}

fn verify_descriptor_scatter(op: OperationRef) -> Rule {
    match (
        descriptor_block(op, 0),
        operand_type(op, 3).and_then(Tensor::of),
        operand_type(op, 1).and_then(Tensor::of),
    ) {
        (Some(block), Some(src), Some(offsets)) => verify_gather_scatter(&block, &src, &offsets),
        _ => Ok(()),
    }
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
