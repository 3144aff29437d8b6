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
use mlir_sys::{MlirAttribute, MlirStringRef, MlirValue};
use tt_dialect::types::{self, Tensor, TensorView};
use tt_dialect::verify::{
    i32_array_attr, operand_type, result_type, value_types, Rule, NO_OP_PREFIX,
};

use crate::ffi::EmitFn;
use crate::layout::{Layout, MemDesc};
use crate::tmem::TmemEncoding;
use crate::to_linear;

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

/// The warp, lane and CTA counts in effect for an op (Triton's
/// `maybeLookupNumWarps` and the module's attributes): `ttg.num-warps` from
/// the nearest enclosing module or `tt.func` that has it, or the partition
/// the op is in; the others from the module.
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
        let name = o.name();
        let name = name.as_string_ref().as_str().unwrap_or("");
        if ctx.num_warps.is_none() && (name == "builtin.module" || name == "tt.func") {
            ctx.num_warps = int(o, "ttg.num-warps");
        }
        if ctx.num_warps.is_none() {
            ctx.num_warps = partition_warps(o);
        }
        if name == "builtin.module" {
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

/// Triton's `VerifyTensorLayoutsTrait`: every `ttg` encoding of a tensor
/// operand, then result, of `op` must be distributed, of the tensor's rank,
/// over a power-of-two shape, and span exactly the lanes, warps and CTAs
/// of its context. The message names the value as Triton's does.
pub fn verify_layouts(op: OperationRef) -> Rule {
    let mut context: Option<Context> = None;
    for (i, value) in op.operands().enumerate() {
        if let Err(message) = check_layout(op, value.r#type(), &mut context) {
            return Err(format!(
                "{NO_OP_PREFIX}Operand {i} ({}) has an invalid layout: {message}",
                diagnostic_value_text(value.to_raw())
            ));
        }
    }
    let results = op.result_count();
    for (i, value) in op.results().enumerate() {
        if let Err(message) = check_layout(op, value.r#type(), &mut context) {
            let which = if results == 1 {
                "Result".to_owned()
            } else {
                format!("Result {i}")
            };
            return Err(format!(
                "{NO_OP_PREFIX}{which} has an invalid layout: {message}"
            ));
        }
    }
    Ok(())
}

/// The layout rules for one value of `op` (Triton's `verifyTensorLayout`);
/// the context is looked up once, on first need.
fn check_layout(op: OperationRef, ty: Type, context: &mut Option<Context>) -> Rule {
    let Some(tensor) = TensorView::of(ty) else {
        return Ok(());
    };
    let Some(encoding) = tensor.encoding else {
        return Ok(());
    };
    // Only `ttg` attributes are checked; all but the distributed layouts
    // (`#ttg.shared_memory` too) are rejected.
    let layout = Layout::read(encoding);
    let ttg_attribute =
        layout.is_some() || crate::layout::kind(encoding) == crate::ffi::SPACE_SHARED_MEMORY;
    if !ttg_attribute {
        return Ok(());
    }
    let Some(layout) = layout.filter(Layout::is_distributed) else {
        return Err("Non-distributed layout is not allowed in tensor type.".into());
    };
    if let Some(rank) = layout.rank() {
        if rank != tensor.shape.len() {
            return Err(format!(
                "Layout has rank {rank}, but the tensor it's attached to has rank {}.",
                tensor.shape.len()
            ));
        }
    }
    if tensor.shape.iter().any(|&d| d <= 0 || d & (d - 1) != 0) {
        let shape = crate::tmem::list(tensor.shape);
        return Err(format!(
            "Layout has shape {shape}, but the tensor it's attached to has shape {shape} which is not a power of two."
        ));
    }
    let ctx = context.get_or_insert_with(|| lookup_context(op));
    if let Some(lanes) = layout.lanes() {
        if lanes as i64 != ctx.threads_per_warp {
            return Err(format!(
                "{encoding}.\nLayout has {lanes} threads per warp, but the module specifies {} threads per warp.",
                ctx.threads_per_warp
            ));
        }
    }
    let Some(num_warps) = ctx.num_warps else {
        return Err("Could not determine the number of warps per CTA. Operation is not in a context with `ttg.num-warps`.".into());
    };
    if let Some(warps) = layout.warps() {
        if warps as i64 != num_warps {
            return Err(format!(
                "{encoding}.\nLayout has {warps} warps per CTA, but the context requires {num_warps} warps per CTA."
            ));
        }
    }
    if let Some(ctas) = layout.ctas() {
        if ctas as i64 != ctx.num_ctas {
            return Err(format!(
                "{encoding}.\nLayout has {ctas} CTAs per CGA, but the context requires {} CTAs per CGA.",
                ctx.num_ctas
            ));
        }
    }
    Ok(())
}

/// A value as MLIR's diagnostics print it (`Value::print` with the flags
/// of an error): its defining op in generic form, or, for a block argument,
/// its type and index.
fn diagnostic_value_text(value: MlirValue) -> String {
    unsafe extern "C" fn append(text: MlirStringRef, user: *mut c_void) {
        // SAFETY: `user` is the `Vec<u8>` below, alive for the call, and
        // `text` is a valid string of `length` bytes.
        unsafe {
            let out = &mut *user.cast::<Vec<u8>>();
            out.extend_from_slice(std::slice::from_raw_parts(text.data.cast(), text.length));
        }
    }
    let mut out = Vec::<u8>::new();
    // SAFETY: `value` is a live value of the op being verified; the flags
    // are created and destroyed here, and the callback only appends to
    // `out`.
    unsafe {
        if mlir_sys::mlirValueIsAOpResult(value) {
            let owner = mlir_sys::mlirOpResultGetOwner(value);
            let flags = mlir_sys::mlirOpPrintingFlagsCreate();
            mlir_sys::mlirOpPrintingFlagsUseLocalScope(flags);
            mlir_sys::mlirOpPrintingFlagsElideLargeElementsAttrs(flags, 16);
            mlir_sys::mlirOpPrintingFlagsPrintGenericOpForm(flags);
            mlir_sys::mlirOperationPrintWithFlags(
                owner,
                flags,
                Some(append),
                (&mut out as *mut Vec<u8>).cast(),
            );
            mlir_sys::mlirOpPrintingFlagsDestroy(flags);
        } else {
            out.extend_from_slice(b"<block argument> of type '");
            mlir_sys::mlirTypePrint(
                mlir_sys::mlirValueGetType(value),
                Some(append),
                (&mut out as *mut Vec<u8>).cast(),
            );
            let index = mlir_sys::mlirBlockArgumentGetArgNumber(value);
            out.extend_from_slice(format!("' at index: {index}").as_bytes());
        }
    }
    String::from_utf8_lossy(&out).into_owned()
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
        "ttg.memdesc_subslice" => verify_memdesc_subslice(op),
        "ttg.memdesc_trans" => verify_memdesc_trans(op),
        "ttng.warp_group_dot" => {
            verify_warp_group_dot(op).and_then(|()| crate::verify_ttng::verify_warp_group_dot(op))
        }
        "ttg.warp_specialize" => verify_warp_specialize(op),
        "ttg.warp_yield" => verify_warp_yield(op),
        ttng if ttng.starts_with("ttng.") => return crate::verify_ttng::verify_op(op, ttng),
        nvws if nvws.starts_with("nvws.") => return crate::verify_nvws::verify_op(op, nvws),
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

/// Triton's `MemDescIndexOp::verify`, in its order and words (it uses
/// `emitError`, without the op prefix).
fn verify_memdesc_index(op: OperationRef) -> Rule {
    let (Some(src), Some(dst)) = (
        operand_type(op, 0).and_then(MemDesc::of),
        result_type(op, 0).and_then(MemDesc::of),
    ) else {
        return Ok(());
    };
    let fail = |message: &str| Err(format!("{NO_OP_PREFIX}{message}"));
    if src.element != dst.element {
        return fail("result element type must match desc element type");
    }
    if src.shape.len() != dst.shape.len() + 1 {
        return fail("result rank must be input rank - 1");
    }
    if src.alloc_shape.len() != src.shape.len() {
        return fail("We don't allow taking memdesc_index of a memdesc_index");
    }
    if src.shape[1..] != dst.shape[..] {
        return fail("result shape must equal to srcShape[1:]");
    }
    if src.alloc_shape != src.shape {
        return fail("We don't support memdesc_index of a subview");
    }
    if is_shared(&src) != is_shared(&dst) {
        return fail("src and dst must have the same type of encoding");
    }
    if dst.alloc_shape != dst.shape || src.alloc_shape != src.shape {
        return fail("alloc shape must match shape for both result and src");
    }
    if let Some(TmemEncoding::Tensor(_)) = TmemEncoding::read(src.encoding) {
        if src.shape.len() != 3 || dst.shape.len() != 2 {
            return fail("only 3D -> 2D subviews are supported for TensorMemoryEncodingAttr");
        }
    }
    Ok(())
}

/// Whether a memory descriptor has a shared encoding (Triton's
/// `SharedEncodingTrait`).
fn is_shared(desc: &MemDesc) -> bool {
    Layout::read(desc.encoding).is_some_and(|l| !l.is_distributed())
}

/// Triton's `MemDescSubsliceOp::verify`, in its order and words (without
/// the op prefix). The swizzle rule needs the source's linear layout; for
/// encodings without one here (NVMMA) or a layout that is not invertible
/// it is not checked.
fn verify_memdesc_subslice(op: OperationRef) -> Rule {
    let (Some(src), Some(dst)) = (
        operand_type(op, 0).and_then(MemDesc::of),
        result_type(op, 0).and_then(MemDesc::of),
    ) else {
        return Ok(());
    };
    let fail = |message: &str| Err(format!("{NO_OP_PREFIX}{message}"));
    let offsets = i32_array_attr(op, "offsets").unwrap_or_default();
    let rank = src.shape.len();
    if src.element != dst.element {
        return fail("result element type must match desc element type");
    }
    if offsets.len() != rank {
        return fail("offsets must have the same rank as input");
    }
    if dst.shape.len() != rank {
        return fail("result rank must equal to input rank");
    }
    let (Some(layout), true) = (
        Layout::read(src.encoding),
        is_shared(&src) && is_shared(&dst),
    ) else {
        return fail("src and dst must both be of shared memory encoding");
    };
    let split: Vec<usize> = (0..rank)
        .filter(|&d| src.shape[d] != dst.shape[d])
        .collect();
    if split.is_empty() {
        return Ok(());
    }
    for (d, &offset) in offsets.iter().enumerate() {
        if !split.contains(&d) {
            if offset != 0 {
                return fail("A non zero offset found in a dimension that is not being split");
            }
        } else if i64::from(offset) & (dst.shape[d] - 1) != 0 {
            return fail("The split offset may not touch the tile");
        }
    }
    let ll = if let Layout::PaddedShared { .. } = layout {
        if layout.rank().unwrap_or(0) < rank {
            return fail(
                "SubSlice of low rank PaddedSharedEncoding from higher rank tensors is not supported yet",
            );
        }
        to_linear::padded_linear_component(&layout)
    } else {
        let alloc = &src.alloc_shape[src.alloc_shape.len().saturating_sub(rank)..];
        to_linear::shared_to_linear_layout(&layout, alloc)
    };
    let Ok(ll) = ll else {
        return Ok(());
    };
    if ll.in_dim_size(to_linear::BLOCK) != 1 {
        return fail("non-trivial block dimension not supported");
    }
    let Ok(inverse) = ll.invert() else {
        return Ok(());
    };
    let dims = to_linear::standard_out_dim_names(rank);
    for &d in &split {
        // (An empty result dimension has nothing to check; Triton would
        // loop forever on it.)
        let mut size = dst.shape[d];
        while size > 0 && size < src.shape[d] {
            let coordinate = [(dims[d].as_str(), size as i32)];
            if let Ok(image) = inverse.apply(&coordinate) {
                let offset = image.first().map_or(0, |(_, v)| *v);
                if offset <= 0 || offset & (offset - 1) != 0 {
                    return fail("We don't support splitting along the swizzling pattern");
                }
            }
            size *= 2;
        }
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

/// Triton's `WarpSpecializeOp::verify`, in its order and words.
fn verify_warp_specialize(op: OperationRef) -> Rule {
    let Some(partitions) = partitions_op(op)
        .filter(|p| p.name().as_string_ref().as_str() == Ok("ttg.warp_specialize.partitions"))
    else {
        return Err(
            "expected to find only a `ttg.warp_specialize.partitions` op inside its second region"
                .into(),
        );
    };
    let counts = i32_array_attr(op, "partitionNumWarps").unwrap_or_default();
    if partitions.region_count() != counts.len() {
        return Err(format!(
            "has {} partitions but `partitionNumWarps` has {} elements",
            partitions.region_count(),
            counts.len()
        ));
    }
    if let Some((i, w)) = counts
        .iter()
        .enumerate()
        .find(|(_, &w)| !(w as u32).is_power_of_two())
    {
        return Err(format!(
            "partition #{i} number of warps ({w}) must be a power of 2"
        ));
    }
    if let Some(ids) = i32_array_attr(op, "warpGroupStartIds") {
        if ids.len() != counts.len() {
            return Err(format!(
                "has {} warp group start IDs but expected {}",
                ids.len(),
                counts.len()
            ));
        }
    }
    let captures: Vec<Type> = value_types(op, false).collect();
    for (i, region) in partitions.regions().enumerate() {
        let arguments: Vec<Type> = region.first_block().map_or(Vec::new(), |block| {
            (0..block.argument_count())
                .filter_map(|j| block.argument(j).ok().map(|a| a.r#type()))
                .collect()
        });
        if arguments.len() != captures.len() {
            return Err(format!(
                "partition region #{i} has {} arguments but expected {}",
                arguments.len(),
                captures.len()
            ));
        }
        if let Some(j) = (0..captures.len()).find(|&j| arguments[j] != captures[j]) {
            return Err(format!(
                "partition region #{i} argument #{j} has type '{}' but corresponding capture has type '{}'",
                arguments[j], captures[j]
            ));
        }
    }
    let mut parent = op.parent_operation();
    while let Some(p) = parent {
        if p.name().as_string_ref().as_str() == Ok("ttg.warp_specialize") {
            return Err("cannot be nested inside another `ttg.warp_specialize` op".into());
        }
        parent = p.parent_operation();
    }
    if lookup_context(op).num_warps.is_some_and(|w| w % 4 != 0) {
        return Err(format!(
            "{NO_OP_PREFIX}warp-specialized kernels requires num_warps to be a multiple of 4"
        ));
    }
    Ok(())
}

/// Triton's `WarpYieldOp::verify`: the default region yields the values of
/// the parent's results.
fn verify_warp_yield(op: OperationRef) -> Rule {
    let Some(parent) = op
        .parent_operation()
        .filter(|p| p.name().as_string_ref().as_str() == Ok("ttg.warp_specialize"))
    else {
        return Ok(());
    };
    let results: Vec<Type> = parent.results().map(|r| r.r#type()).collect();
    let operands: Vec<Type> = value_types(op, false).collect();
    if operands.len() != results.len() {
        return Err(format!(
            "has {} operands but parent op expected {}",
            operands.len(),
            results.len()
        ));
    }
    if let Some(i) = (0..results.len()).find(|&i| operands[i] != results[i]) {
        return Err(format!(
            "operand #{i} has type '{}' but parent op expected '{}'",
            operands[i], results[i]
        ));
    }
    Ok(())
}
