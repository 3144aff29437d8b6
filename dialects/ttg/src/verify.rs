//! Verifier rules of the `ttg` and `ttng` ops, the check of every tensor
//! layout against the module's warp, lane and CTA counts (Triton's
//! `VerifyTensorLayoutsTrait`), and the callback that validates encodings
//! and memory descriptors while they are parsed.

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use melior::ir::{
    attribute::{IntegerAttribute, TypeAttribute},
    operation::{OperationLike, OperationRef},
    Attribute, Type,
};
use mlir_sys::{MlirAttribute, MlirStringRef};
use tt_dialect::types::{self, Tensor};
use tt_dialect::verify::{i32_array_attr, operand_type, result_type, value_types, Rule};

use crate::ffi::EmitFn;
use crate::layout::{Layout, MemDesc};

/// The shim's encoding-verifier callback: checks a layout encoding, or a
/// memory descriptor wrapped in a `TypeAttr`.
pub(crate) unsafe extern "C" fn verify_encoding_callback(
    raw: MlirAttribute,
    emit: EmitFn,
    user: *mut c_void,
) -> i32 {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let attr = unsafe { Attribute::from_raw(raw) };
        if let Ok(ty) = TypeAttribute::try_from(attr) {
            return MemDesc::of(ty.value()).map_or(Ok(()), |m| m.check());
        }
        Layout::read(attr).map_or(Ok(()), |l| l.check())
    }))
    .unwrap_or_else(|_| Err("internal error: an encoding rule panicked".into()));
    match outcome {
        Ok(()) => 1,
        Err(message) => {
            let text = MlirStringRef {
                data: message.as_ptr().cast(),
                length: message.len(),
            };
            unsafe { emit(user, text) };
            0
        }
    }
}

/// The warp, lane and CTA counts in effect for an op: `ttg.num-warps` from
/// the nearest enclosing op that has it, the others from the module.
struct Context {
    num_warps: Option<i64>,
    threads_per_warp: i64,
    num_ctas: i64,
}

fn lookup_context(op: OperationRef) -> Context {
    let mut ctx = Context {
        num_warps: None,
        threads_per_warp: 32,
        num_ctas: 1,
    };
    let int = |o: OperationRef, name: &str| {
        o.attribute(name)
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|i| i.value())
    };
    let mut scope = Some(op);
    while let Some(o) = scope {
        if ctx.num_warps.is_none() {
            ctx.num_warps = int(o, "ttg.num-warps");
        }
        if o.name().as_string_ref().as_str() == Ok("builtin.module") {
            if let Some(t) = int(o, "ttg.threads-per-warp") {
                ctx.threads_per_warp = t;
            }
            if let Some(c) = int(o, "ttg.num-ctas") {
                ctx.num_ctas = c;
            }
            break;
        }
        scope = o.parent_operation();
    }
    ctx
}

/// Every tensor encoding of `op` must be distributed, of the tensor's rank,
/// and span exactly the lanes, warps and CTAs of its context.
pub fn verify_layouts(op: OperationRef) -> Rule {
    let mut context: Option<Context> = None;
    for ty in value_types(op, true) {
        let Some(tensor) = Tensor::of(ty) else {
            continue;
        };
        let Some(layout) = tensor.encoding.and_then(Layout::read) else {
            continue;
        };
        if !layout.is_distributed() {
            return Err("Non-distributed layout is not allowed in tensor type.".into());
        }
        if let Some(rank) = layout.rank() {
            if rank != tensor.rank() {
                return Err(format!(
                    "Layout has rank {rank}, but the tensor it's attached to has rank {}.",
                    tensor.rank()
                ));
            }
        }
        let ctx = context.get_or_insert_with(|| lookup_context(op));
        let checks = [
            (
                layout.lanes(),
                Some(ctx.threads_per_warp),
                "threads per warp",
            ),
            (layout.warps(), ctx.num_warps, "warps per CTA"),
            (layout.ctas(), Some(ctx.num_ctas), "CTAs per CGA"),
        ];
        for (have, want, what) in checks {
            if let (Some(have), Some(want)) = (have, want) {
                if have as i64 != want {
                    return Err(format!(
                        "Layout has a total of {have} {what}, but the context requires {want} {what}."
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The Rust rules of `ttg`/`ttng` ops, by name; `None` for ops without any.
pub fn verify_op(op: OperationRef) -> Option<Rule> {
    let name = op.name().as_string_ref().as_str().ok()?.to_owned();
    Some(match name.as_str() {
        "ttg.async_copy_global_to_local" => verify_async_copy(op),
        "ttg.local_alloc" => verify_local_alloc(op),
        "ttg.local_store" => verify_local_store(op),
        "ttg.local_load" => verify_local_load(op),
        "ttg.memdesc_index" => verify_memdesc_index(op),
        "ttg.memdesc_trans" => verify_memdesc_trans(op),
        "ttng.warp_group_dot" => verify_warp_group_dot(op),
        _ => return None,
    })
}

/// A tensor (or pointer tensor's pointees) and a buffer must agree in shape
/// and element type.
fn same_contents(tensor: &Tensor, buffer: &MemDesc, what: &str) -> Rule {
    if tensor.shape != buffer.shape {
        return Err(format!(
            "the {what} shape {:?} differs from the buffer shape {:?}",
            tensor.shape, buffer.shape
        ));
    }
    if tensor.element != buffer.element {
        return Err(format!(
            "the {what} element type {} differs from the buffer's {}",
            tensor.element, buffer.element
        ));
    }
    Ok(())
}

fn verify_async_copy(op: OperationRef) -> Rule {
    let (Some(src), Some(dst)) = (
        operand_type(op, 0)
            .and_then(|t| Tensor::of(types::element_type(t)).or_else(|| Tensor::of(t))),
        operand_type(op, 1).and_then(MemDesc::of),
    ) else {
        return Ok(());
    };
    if !dst.mutable {
        return Err("Cannot store into immutable memory".into());
    }
    let pointees = Tensor {
        element: types::pointer_parts(src.element).map_or(src.element, |(p, _)| p),
        ..src
    };
    same_contents(&pointees, &dst, "source")
}

fn verify_local_alloc(op: OperationRef) -> Rule {
    let Some(dst) = result_type(op, 0).and_then(MemDesc::of) else {
        return Ok(());
    };
    match operand_type(op, 0).and_then(Tensor::of) {
        Some(src) => {
            if let Some(rank) = Layout::read(dst.encoding).and_then(|l| l.rank()) {
                if rank != src.rank() {
                    return Err(format!(
                        "the shared encoding has rank {rank}, but the source has rank {}",
                        src.rank()
                    ));
                }
            }
            same_contents(&src, &dst, "source")
        }
        None if !dst.mutable => Err(
            "an allocation without an initial value must have a mutable memory descriptor".into(),
        ),
        None => Ok(()),
    }
}

fn verify_local_store(op: OperationRef) -> Rule {
    let (Some(src), Some(dst)) = (
        operand_type(op, 0).and_then(Tensor::of),
        operand_type(op, 1).and_then(MemDesc::of),
    ) else {
        return Ok(());
    };
    if !dst.mutable {
        return Err("Cannot store into immutable memory".into());
    }
    same_contents(&src, &dst, "source")
}

fn verify_local_load(op: OperationRef) -> Rule {
    let (Some(src), Some(dst)) = (
        operand_type(op, 0).and_then(MemDesc::of),
        result_type(op, 0).and_then(Tensor::of),
    ) else {
        return Ok(());
    };
    same_contents(&dst, &src, "result")
}

fn verify_memdesc_index(op: OperationRef) -> Rule {
    let (Some(src), Some(dst)) = (
        operand_type(op, 0).and_then(MemDesc::of),
        result_type(op, 0).and_then(MemDesc::of),
    ) else {
        return Ok(());
    };
    if src.shape.len() < 2 {
        return Err("the source must have rank 2 or more".into());
    }
    if dst.shape != src.shape[1..] {
        return Err(format!(
            "the result shape {:?} must be the source shape without its first dimension ({:?})",
            dst.shape,
            &src.shape[1..]
        ));
    }
    if dst.element != src.element {
        return Err("the result element type must be the source's".into());
    }
    Ok(())
}

fn verify_memdesc_trans(op: OperationRef) -> Rule {
    let (Some(src), Some(dst)) = (
        operand_type(op, 0).and_then(MemDesc::of),
        result_type(op, 0).and_then(MemDesc::of),
    ) else {
        return Ok(());
    };
    let order = i32_array_attr(op, "order").unwrap_or_default();
    let rank = src.shape.len();
    let mut sorted = order.clone();
    sorted.sort_unstable();
    if sorted != (0..rank as i32).collect::<Vec<_>>() {
        return Err(format!(
            "order {order:?} must be a permutation of 0..{rank}"
        ));
    }
    let expected: Vec<i64> = order.iter().map(|&d| src.shape[d as usize]).collect();
    if dst.shape != expected {
        return Err(format!(
            "the result shape {:?} must be the source shape permuted by the order ({expected:?})",
            dst.shape
        ));
    }
    Ok(())
}

fn verify_warp_group_dot(op: OperationRef) -> Rule {
    let shape = |t: Type| {
        Tensor::of(t)
            .map(|t| t.shape)
            .or_else(|| MemDesc::of(t).map(|m| m.shape))
    };
    let (Some(a), Some(b), Some(c)) = (
        operand_type(op, 0).and_then(shape),
        operand_type(op, 1).and_then(shape),
        operand_type(op, 2).and_then(shape),
    ) else {
        return Ok(());
    };
    if a.len() != 2 || b.len() != 2 || c.len() != 2 {
        return Err("operands must be of rank 2".into());
    }
    if a[1] != b[0] {
        return Err(format!("the K dimensions of a {a:?} and b {b:?} differ"));
    }
    if c[0] != a[0] || c[1] != b[1] {
        return Err(format!(
            "the accumulator shape {c:?} must be [M, N] of a {a:?} and b {b:?}"
        ));
    }
    Ok(())
}
