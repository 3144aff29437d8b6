//! Verifier rules of the `ttg` ops (the `ttng` ones are in
//! [`crate::verify_ttng`]), the check of every tensor
//! layout against the module's warp, lane and CTA counts (Triton's
//! `VerifyTensorLayoutsTrait`), and the callback that validates encodings
//! and memory descriptors while they are parsed.

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use melior::ir::{
    attribute::{IntegerAttribute, TypeAttribute},
    block::BlockLike,
    operation::{OperationLike, OperationRef},
    Attribute, RegionLike, Type, ValueLike,
};
use mlir_sys::{MlirAttribute, MlirStringRef};
use tt_dialect::types::{self, Tensor, TensorView};
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
    let rule = || {
        let attr = unsafe { Attribute::from_raw(raw) };
        if let Ok(ty) = TypeAttribute::try_from(attr) {
            return MemDesc::of(ty.value()).map_or(Ok(()), |m| m.check());
        }
        Layout::read(attr).map_or(Ok(()), |l| l.check())
    };
    // SAFETY: `emit` and `user` come from the shim, as the caller's are.
    unsafe { run_rule_for_shim("an encoding rule", rule, emit, user) }
}

/// Runs a rule for one of the shim's callbacks and returns its outcome the
/// way the shim expects: 1 when it held, else the message handed to `emit`
/// and 0. A panic in the rule is reported as an internal error naming
/// `what` and never crosses into C++.
///
/// # Safety
/// `emit` must accept `user` (the shim passes its own function and buffer;
/// it copies the message before returning).
pub(crate) unsafe fn run_rule_for_shim(
    what: &str,
    rule: impl FnOnce() -> Rule,
    emit: EmitFn,
    user: *mut c_void,
) -> i32 {
    let outcome = catch_unwind(AssertUnwindSafe(rule))
        .unwrap_or_else(|_| Err(format!("internal error: {what} panicked")));
    match outcome {
        Ok(()) => 1,
        Err(message) => {
            let text = MlirStringRef {
                data: message.as_ptr().cast(),
                length: message.len(),
            };
            // SAFETY: the caller's contract; `message` outlives the call.
            unsafe { emit(user, text) };
            0
        }
    }
}

/// The warp, lane and CTA counts in effect for an op: `ttg.num-warps` from
/// the nearest enclosing op that has it, the others from the module.
pub(crate) struct Context {
    pub(crate) num_warps: Option<i64>,
    pub(crate) threads_per_warp: i64,
    pub(crate) num_ctas: i64,
}

pub(crate) fn lookup_context(op: OperationRef) -> Context {
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
        if ctx.num_warps.is_none() {
            ctx.num_warps = partition_warps(o);
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

/// Inside a warp-specialize partition, the partition's own warp count: `o`
/// is an op directly in partition region `i` of a
/// `ttg.warp_specialize.partitions`, whose parent lists the counts.
fn partition_warps(o: OperationRef) -> Option<i64> {
    let partitions = o.parent_operation()?;
    if partitions.name().as_string_ref().as_str() != Ok("ttg.warp_specialize.partitions") {
        return None;
    }
    let region = unsafe {
        let block = mlir_sys::mlirOperationGetBlock(o.to_raw());
        mlir_sys::mlirBlockGetParentRegion(block)
    };
    let index = (0..partitions.region_count()).find(|&i| unsafe {
        mlir_sys::mlirRegionEqual(
            mlir_sys::mlirOperationGetRegion(partitions.to_raw(), i as isize),
            region,
        )
    })?;
    let counts = i32_array_attr(partitions.parent_operation()?, "partitionNumWarps")?;
    counts.get(index).map(|&w| i64::from(w))
}

/// Every tensor encoding of `op` must be distributed, of the tensor's rank,
/// and span exactly the lanes, warps and CTAs of its context.
pub fn verify_layouts(op: OperationRef) -> Rule {
    let mut context: Option<Context> = None;
    for ty in value_types(op, true) {
        let Some(tensor) = TensorView::of(ty) else {
            continue;
        };
        let Some(layout) = tensor.encoding.and_then(Layout::read) else {
            continue;
        };
        if !layout.is_distributed() {
            return Err("Non-distributed layout is not allowed in tensor type.".into());
        }
        if let Some(rank) = layout.rank() {
            if rank != tensor.shape.len() {
                return Err(format!(
                    "Layout has rank {rank}, but the tensor it's attached to has rank {}.",
                    tensor.shape.len()
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
        "ttng.warp_group_dot" => {
            verify_warp_group_dot(op).and_then(|()| crate::verify_ttng::verify_warp_group_dot(op))
        }
        "ttg.warp_specialize" => verify_warp_specialize(op),
        "ttg.warp_specialize.partitions" => verify_partitions(op),
        ttng if ttng.starts_with("ttng.") => return crate::verify_ttng::verify_op(op, ttng),
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
        operand_type(op, 0).and_then(Tensor::of),
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

/// The `ttg.warp_specialize.partitions` op of a `ttg.warp_specialize`.
fn partitions_op<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let holder = op.region(1).ok()?;
    let block = holder.first_block()?;
    block.first_operation()
}

fn verify_warp_specialize(op: OperationRef) -> Rule {
    let counts = i32_array_attr(op, "partitionNumWarps").unwrap_or_default();
    let partitions = partitions_op(op).map_or(0, |p| p.region_count());
    if partitions != counts.len() {
        return Err(format!(
            "has {partitions} partitions but `partitionNumWarps` has {} elements",
            counts.len()
        ));
    }
    if let Some((i, w)) = counts
        .iter()
        .enumerate()
        .find(|(_, &w)| w <= 0 || w & (w - 1) != 0)
    {
        return Err(format!(
            "partition #{i} has {w} warps: the number of warps must be a power of two"
        ));
    }
    let Some(yield_op) = op
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.terminator())
    else {
        return Ok(());
    };
    let yielded: Vec<Type> = value_types(yield_op, false).collect();
    let results: Vec<Type> = op.results().map(|r| r.r#type()).collect();
    if yielded != results {
        return Err(format!(
            "the default region yields ({}) but the op's results are ({})",
            type_list(&yielded),
            type_list(&results)
        ));
    }
    Ok(())
}

/// Each partition region takes the explicit captures as its arguments.
fn verify_partitions(op: OperationRef) -> Rule {
    let Some(parent) = op.parent_operation() else {
        return Ok(());
    };
    let captures: Vec<Type> = value_types(parent, false).collect();
    for (i, region) in op.regions().enumerate() {
        let Some(block) = region.first_block() else {
            continue;
        };
        let arguments: Vec<Type> = (0..block.argument_count())
            .filter_map(|j| block.argument(j).ok().map(|a| a.r#type()))
            .collect();
        if arguments.len() != captures.len() {
            return Err(format!(
                "partition region #{i} has {} arguments but expected {}",
                arguments.len(),
                captures.len()
            ));
        }
        if let Some(j) = (0..captures.len()).find(|&j| arguments[j] != captures[j]) {
            return Err(format!(
                "partition region #{i} argument #{j} has type {} but the capture has type {}",
                arguments[j], captures[j]
            ));
        }
    }
    Ok(())
}

fn type_list(types: &[Type]) -> String {
    types
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
