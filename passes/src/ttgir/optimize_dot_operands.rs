//! `tritongpu-optimize-dot-operands` (option `hoist-layout-conversion`,
//! default true, which Triton 3.6's pass accepts and no longer reads):
//! Triton 3.6's shared-memory rewrites of dot operands.
//!
//! As Triton's pass it first canonicalizes the module (MLIR's canonicalizer
//! with the `tt`/`ttg` patterns), then runs its patterns with
//! `ttg.convert_layout`'s canonicalizations through the greedy driver:
//!
//! - `FuseTransMMAV3Plus` (implemented): a `ttg.local_alloc` of a 2-D
//!   `tt.trans` whose only user is a `ttng.warp_group_dot` stores the
//!   transpose's source instead, with the NVMMA encoding transposed, and
//!   the dot reads it through `ttg.memdesc_trans`: MMA v3 transposes for
//!   free.
//! - `SwizzleShmemConvert` (implemented): a `ttg.convert_layout` to a dot
//!   operand of a 2-D `tt.trans`, whose only user is a `tt.dot`, reads the
//!   operand with `ttg.local_load` through a `ttg.memdesc_trans` of a
//!   `ttg.local_alloc` of the transpose's source, in the swizzled encoding
//!   Triton derives for the dot operand from the source's shape and memory
//!   order with its K dimension swapped (`needTrans`); the conversion then
//!   folds away.
//! - `ReshapeMemDesc` (implemented): a `ttg.local_alloc` of a
//!   `tt.reshape` stores the reshape's source instead and views it through
//!   `ttg.memdesc_reshape`, where the source's buffer keeps the NVMMA
//!   encoding (one CTA, the contiguous dimension unchanged and the same
//!   linear layout once reshaped).
//! - `UseShmemForScales` (implemented): a `ttng.tc_gen5_mma_scaled` scale
//!   written to tensor memory by `ttng.tmem_alloc` from the
//!   `local_load -> reshape (5-D) -> trans [0, 3, 2, 1, 4] -> reshape (2-D)`
//!   chain reads the shared buffer through the same views
//!   (`ttg.memdesc_reshape`, `ttg.memdesc_trans`) instead, where the buffer
//!   holds 512 contiguous scales innermost (and, unless a
//!   `tt.descriptor_load` filled it, is 2-D with rows of whole 32x128-bit
//!   chunks).
//!
//! The view types follow Triton's inference: an NVMMA encoding survives a
//! reshape that keeps its layout and a `[1, 0]` transpose (with
//! `transposed` flipped and the CGA bases swapped); everything else becomes
//! the `#ttg.shared_linear` of the reshaped or permuted linear layout.
//! Input whose views this file cannot type (padded layouts, multi-CTA
//! NVMMA reshapes) is refused with a located error before any pattern runs.

use melior::ir::operation::{OperationLike, OperationRef};
use melior::ir::{Attribute, Type, Value};
use melior::RewriterBase;
use mlir_sys::{MlirOperation, MlirValue};
use ttg_dialect::layout::{Layout, MemDesc};
use ttg_dialect::linear_layout::LinearLayout;
use ttg_dialect::to_linear::{any_shared_to_linear, standard_out_dim_names};

use crate::options::PassOptions;
use crate::rust_pass::{fail, Failure, PassResult, RustPass};
use crate::ttir::loop_support::ir;
use tt_dialect::rewrite::{apply_greedily, Greedy, Pattern, Root};

const FLAG: &str = "tritongpu-optimize-dot-operands";

/// The pass (the option changes nothing in Triton 3.6).
pub static PASS: RustPass = RustPass {
    name: "TritonGPUOptimizeDotOperands",
    argument: FLAG,
    description: "Fold transposes into the shared-memory operands of dots",
    anchor: "builtin.module",
    run,
};

/// `tritongpu-optimize-dot-operands{hoist-layout-conversion=true}`: the
/// option is checked and, as in Triton 3.6, has no effect.
pub fn factory(options: &PassOptions) -> Result<melior::pass::Pass, String> {
    options.flag("hoist-layout-conversion", true)?;
    Ok(PASS.build())
}

static SWIZZLE_CONVERT: Pattern = Pattern {
    benefit: 1,
    rewrite: swizzle_shmem_convert,
    generated: &["ttg.local_alloc", "ttg.memdesc_trans", "ttg.local_load"],
};

static FUSE_TRANS: Pattern = Pattern {
    benefit: 1,
    rewrite: fuse_trans_mmav3,
    generated: &["ttg.local_alloc", "ttg.memdesc_trans"],
};

static RESHAPE_MEMDESC: Pattern = Pattern {
    benefit: 1,
    rewrite: reshape_memdesc,
    generated: &["ttg.local_alloc", "ttg.memdesc_reshape"],
};

static SCALES_IN_SHMEM: Pattern = Pattern {
    benefit: 1,
    rewrite: use_shmem_for_scales,
    generated: &["ttg.memdesc_reshape", "ttg.memdesc_trans"],
};

fn refuse(op: MlirOperation, what: &str) -> Failure {
    crate::rust_pass::unsupported(op, FLAG, what)
}

fn run(module: OperationRef) -> PassResult {
    canonicalize(module)?;
    let raw = module.to_raw();
    for op in ir::collect_post(raw, &|_| true) {
        if let Some(what) = unsupported(op) {
            return Err(refuse(op, &what));
        }
    }
    let mut patterns: Vec<(Root, &'static Pattern)> = vec![
        (Root::Op("ttg.convert_layout"), &SWIZZLE_CONVERT),
        (Root::Op("ttg.local_alloc"), &FUSE_TRANS),
        (Root::Op("ttg.local_alloc"), &RESHAPE_MEMDESC),
        (Root::Op("ttng.tc_gen5_mma_scaled"), &SCALES_IN_SHMEM),
    ];
    patterns.extend(
        ttg_dialect::canonicalize::patterns("ttg.convert_layout")
            .iter()
            .map(|(root, p)| (Root::Op(root), p)),
    );
    if !apply_greedily(module, &patterns, Greedy::default()) {
        return Err(fail(module, "pattern application did not converge"));
    }
    Ok(())
}

/// MLIR's canonicalizer over the module, as Triton's pass runs it first.
fn canonicalize(module: OperationRef) -> PassResult {
    let raw = module.to_raw();
    // SAFETY: the pass manager is created on the module's live context,
    // owns the canonicalizer it is given, runs on the module (the op this
    // pass is anchored on, so no other pass touches it meanwhile) and is
    // destroyed before returning.
    let ok = unsafe {
        let pm = mlir_sys::mlirPassManagerCreateOnOperation(
            ir::context(raw),
            melior::StringRef::new("builtin.module").to_raw(),
        );
        mlir_sys::mlirPassManagerAddOwnedPass(pm, mlir_sys::mlirCreateTransformsCanonicalizer());
        let result = mlir_sys::mlirPassManagerRunOnOp(pm, raw);
        mlir_sys::mlirPassManagerDestroy(pm);
        result.value != 0
    };
    if ok {
        Ok(())
    } else {
        Err(fail(module, &format!("'{FLAG}': canonicalization failed")))
    }
}

fn trans_order(op: MlirOperation) -> Option<Vec<i32>> {
    ir::attribute(op, "order").and_then(ir::dense_i32_array)
}

fn single_user(v: MlirValue) -> Option<MlirOperation> {
    match ir::uses(v).as_slice() {
        [(user, _)] => Some(*user),
        _ => None,
    }
}

/// What a pattern would rewrite at `op` that this file cannot type.
fn unsupported(op: MlirOperation) -> Option<String> {
    if ir::is(op, "ttng.tc_gen5_mma_scaled") {
        for scale in 0..2 {
            if let Err(what) = scales_plan(op, scale) {
                return Some(format!(
                    "Blackwell scaled MMA scales in shared memory ({what})"
                ));
            }
        }
        return None;
    }
    if ir::is(op, "ttg.local_alloc") {
        if let Err(what) = reshape_plan(op) {
            return Some(format!("a ttg.local_alloc of a tt.reshape ({what})"));
        }
        return None;
    }
    if ir::is(op, "ttg.convert_layout") {
        if let Err(what) = swizzle_plan(op) {
            return Some(what);
        }
    }
    None
}

/// Where `SwizzleShmemConvert` applies to the conversion `cvt`: the
/// transpose and the encoding text of the shared buffer; `Ok(None)` where
/// it does not apply, `Err` where this file cannot follow it.
fn swizzle_plan(cvt: MlirOperation) -> Result<Option<(MlirOperation, String)>, String> {
    let Some(dot) = single_user(ir::result(cvt, 0)) else {
        return Ok(None);
    };
    let Some(trans) = ir::defining_op(ir::operand(cvt, 0)).filter(|t| ir::is(*t, "tt.trans"))
    else {
        return Ok(None);
    };
    if !ir::is(dot, "tt.dot") || trans_order(trans).as_deref() != Some(&[1, 0]) {
        return Ok(None);
    }
    let Some(Layout::DotOperand {
        op_idx,
        k_width,
        parent,
    }) = ir::tensor_layout(ir::result(cvt, 0))
    else {
        return Ok(None);
    };
    // The type the encoding is derived from: the transpose's source, or
    // what a conversion in front of it converts.
    let mut source = ir::operand(trans, 0);
    if let Some(inner) = ir::defining_op(source).filter(|d| ir::is(*d, "ttg.convert_layout")) {
        source = ir::operand(inner, 0);
    }
    // SAFETY: a live value's type.
    let Some(src) =
        tt_dialect::types::TensorView::of(unsafe { Type::from_raw(ir::value_type(source)) })
    else {
        return Ok(None);
    };
    let too_complex = || {
        "a dot operand converted from a tt.trans (SwizzleShmemConvert) of this layout".to_string()
    };
    let layout = src
        .encoding
        .and_then(Layout::read)
        .ok_or_else(too_complex)?;
    if layout.ctas().unwrap_or(1) != 1 {
        return Err(too_complex());
    }
    let linear =
        ttg_dialect::to_linear::to_linear_layout(&layout, src.shape).map_err(|_| too_complex())?;
    let order = linear.order_for_memory();
    let bits = tt_dialect::types::bit_width(src.element).ok_or_else(too_complex)?;
    let (vec, per_phase, max_phase) = match parent.as_deref() {
        Some(Layout::NvidiaMma {
            version_major: 2 | 3,
            ..
        }) => {
            ttg_dialect::layout::dot_operand_swizzle(op_idx, k_width, src.shape, &order, bits, true)
        }
        Some(Layout::NvidiaMma { .. }) | None => return Err(too_complex()),
        Some(_) => (1, 1, 1),
    };
    let order: Vec<String> = order.iter().map(u32::to_string).collect();
    Ok(Some((
        trans,
        format!(
            "#ttg.swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, order = [{}]}}>",
            order.join(", ")
        ),
    )))
}

/// `SwizzleShmemConvert`.
fn swizzle_shmem_convert<'c, 'a>(
    op: OperationRef<'c, 'a>,
    rewriter: &RewriterBase<'c, 'a>,
) -> bool {
    let cvt = op.to_raw();
    let Ok(Some((trans, encoding))) = swizzle_plan(cvt) else {
        return false;
    };
    let source = ir::operand(trans, 0);
    // SAFETY: a live value's type.
    let Some(src) =
        tt_dialect::types::TensorView::of(unsafe { Type::from_raw(ir::value_type(source)) })
    else {
        return false;
    };
    let Some(Layout::SwizzledShared {
        vec,
        per_phase,
        max_phase,
        order,
        ..
    }) = parse_attr(cvt, &encoding).and_then(Layout::read)
    else {
        return false;
    };
    let dims = |shape: &[i64]| {
        shape
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join("x")
    };
    let stored = format!(
        "!ttg.memdesc<{}x{}, {encoding}, #ttg.shared_memory>",
        dims(src.shape),
        src.element
    );
    let viewed = format!(
        "!ttg.memdesc<{}x{}, #ttg.swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, order = [{}, {}]}}>, #ttg.shared_memory>",
        dims(&[src.shape[1], src.shape[0]]),
        src.element,
        order[1],
        order[0]
    );
    let (Some(stored), Some(viewed)) = (parse_type(cvt, &stored), parse_type(cvt, &viewed)) else {
        return false;
    };
    // SAFETY: `trans` is a live op of the IR being rewritten.
    let trans_ref = unsafe { OperationRef::from_raw(trans) };
    let location = trans_ref.location();
    rewriter.set_insertion_point_before(trans_ref);
    let alloc = tt_dialect::ir::create(
        rewriter,
        "ttg.local_alloc",
        location,
        // SAFETY: a live value.
        &[unsafe { Value::from_raw(source) }],
        &[stored],
        &[],
    );
    let view = transpose_view(rewriter, alloc, viewed, location);
    // SAFETY: a live value's type.
    let loaded_ty = unsafe { Type::from_raw(ir::value_type(ir::result(cvt, 0))) };
    let load = tt_dialect::ir::create(
        rewriter,
        "ttg.local_load",
        location,
        &[tt_dialect::ir::first_result(view)],
        &[loaded_ty],
        &[],
    );
    rewriter.start_op_modification(op);
    ir::set_operand(cvt, 0, ir::result(load.to_raw(), 0));
    rewriter.finalize_op_modification(op);
    true
}

fn parse_attr<'c>(op: MlirOperation, text: &str) -> Option<Attribute<'c>> {
    // SAFETY: a parsed attribute is owned by the context.
    ir::parse_attribute(ir::context(op), text).map(|a| unsafe { Attribute::from_raw(a) })
}

fn parse_type<'c>(op: MlirOperation, text: &str) -> Option<Type<'c>> {
    // SAFETY: a parsed type is owned by the context.
    ir::parse_type(ir::context(op), text).map(|t| unsafe { Type::from_raw(t) })
}

/// `ttg.memdesc_trans {order = [1, 0]}` of `alloc`'s result, typed `ty`.
fn transpose_view<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    alloc: OperationRef<'c, 'a>,
    ty: Type<'c>,
    location: melior::ir::Location<'c>,
) -> OperationRef<'c, 'a> {
    let context_ref = location.context();
    // SAFETY: `context_ref` refers to the live context of the module.
    let context = unsafe { context_ref.to_ref() };
    let order = melior::ir::attribute::DenseI32ArrayAttribute::new(context, &[1, 0]).into();
    tt_dialect::ir::create(
        rewriter,
        "ttg.memdesc_trans",
        location,
        &[tt_dialect::ir::first_result(alloc)],
        &[ty],
        &[(melior::ir::Identifier::new(context, "order"), order)],
    )
}

/// `FuseTransMMAV3Plus`.
fn fuse_trans_mmav3<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let alloc = op.to_raw();
    if ir::operand_count(alloc) != 1 {
        return false;
    }
    let result = ir::result(alloc, 0);
    let Some(user) = single_user(result) else {
        return false;
    };
    if !ir::is(user, "ttng.warp_group_dot") && !ir::name(user).starts_with("ttng.tc_gen5_mma") {
        return false;
    }
    let Some(trans) = ir::defining_op(ir::operand(alloc, 0)).filter(|t| ir::is(*t, "tt.trans"))
    else {
        return false;
    };
    if trans_order(trans).as_deref() != Some(&[1, 0]) {
        return false;
    }
    let Some(alloc_ty) = ir::memdesc(result) else {
        return false;
    };
    // MMA v3 reads the buffer transposed for free: the same NVMMA encoding
    // with `transposed` flipped (and its CGA bases swapped).
    let Some(layout @ Layout::NvmmaShared { .. }) = Layout::read(alloc_ty.encoding) else {
        return false;
    };
    let Ok(encoding) = trans_encoding(&layout, &alloc_ty.shape, &[1, 0]) else {
        return false;
    };
    let source = ir::operand(trans, 0);
    let Some(src) = tt_dialect::types::TensorView::of(
        // SAFETY: a live value's type.
        unsafe { Type::from_raw(ir::value_type(source)) },
    ) else {
        return false;
    };
    let dims: Vec<String> = src.shape.iter().map(i64::to_string).collect();
    let text = format!(
        "!ttg.memdesc<{}x{}, {encoding}, {}>",
        dims.join("x"),
        src.element,
        alloc_ty.memory_space
    );
    let Some(inner_ty) = ir::parse_type(ir::context(alloc), &text) else {
        return false;
    };
    let location = op.location();
    rewriter.set_insertion_point_before(op);
    // SAFETY: live handles of the IR being rewritten.
    let (source_value, inner_type, alloc_type) = unsafe {
        (
            Value::from_raw(source),
            Type::from_raw(inner_ty),
            Type::from_raw(ir::value_type(result)),
        )
    };
    let new_alloc = tt_dialect::ir::create(
        rewriter,
        "ttg.local_alloc",
        location,
        &[source_value],
        &[inner_type],
        &[],
    );
    let view = transpose_view(rewriter, new_alloc, alloc_type, location);
    rewriter.replace_op_with_operation(op, view);
    true
}

/// `ReshapeMemDesc` at `alloc`: the type of the buffer that holds the
/// reshape's source, where it keeps an NVMMA encoding; `Ok(None)` where
/// the pattern does not apply.
fn reshape_plan(alloc: MlirOperation) -> Result<Option<MemDesc<'static>>, String> {
    if ir::operand_count(alloc) != 1 {
        return Ok(None);
    }
    let Some(reshape) = ir::defining_op(ir::operand(alloc, 0)).filter(|r| ir::is(*r, "tt.reshape"))
    else {
        return Ok(None);
    };
    let (Some(alloc_ty), Some(src)) = (
        ir::memdesc(ir::result(alloc, 0)),
        // SAFETY: a live value's type.
        tt_dialect::types::TensorView::of(unsafe {
            Type::from_raw(ir::value_type(ir::operand(reshape, 0)))
        }),
    ) else {
        return Ok(None);
    };
    let Some(layout) = Layout::read(alloc_ty.encoding) else {
        return Ok(None);
    };
    // Only a kept NVMMA encoding is worth the rewrite; any other inferred
    // encoding is a shared linear one.
    let Some(kept) = nvmma_reshaped(&layout, &alloc_ty.shape, src.shape)? else {
        return Ok(None);
    };
    let encoding = parse_encoding(alloc, &kept)?;
    let mut alloc_shape =
        alloc_ty.alloc_shape[..alloc_ty.alloc_shape.len() - alloc_ty.shape.len()].to_vec();
    alloc_shape.extend_from_slice(src.shape);
    Ok(Some(MemDesc {
        shape: src.shape.to_vec(),
        alloc_shape,
        encoding,
        ..alloc_ty
    }))
}

/// `ReshapeMemDesc`.
fn reshape_memdesc<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let alloc = op.to_raw();
    let Ok(Some(inner)) = reshape_plan(alloc) else {
        return false;
    };
    let Some(reshape) = ir::defining_op(ir::operand(alloc, 0)) else {
        return false;
    };
    let location = op.location();
    rewriter.set_insertion_point_before(op);
    // SAFETY: live handles of the IR being rewritten.
    let (source, alloc_type) = unsafe {
        (
            Value::from_raw(ir::operand(reshape, 0)),
            Type::from_raw(ir::value_type(ir::result(alloc, 0))),
        )
    };
    let new_alloc = tt_dialect::ir::create(
        rewriter,
        "ttg.local_alloc",
        location,
        &[source],
        &[inner.to_type()],
        &[],
    );
    let view = tt_dialect::ir::create(
        rewriter,
        "ttg.memdesc_reshape",
        location,
        &[tt_dialect::ir::first_result(new_alloc)],
        &[alloc_type],
        &[],
    );
    rewriter.replace_op_with_operation(op, view);
    true
}

/// The NVMMA encoding (text) a `ttg.memdesc_reshape` from `src` to `dst`
/// keeps: one CTA, the contiguous dimension unchanged and the reshaped
/// linear layout that of the same encoding over `dst`; `Ok(None)` where
/// Triton falls back to a shared linear encoding.
fn nvmma_reshaped(layout: &Layout, src: &[i64], dst: &[i64]) -> Result<Option<String>, String> {
    let Layout::NvmmaShared {
        swizzling_byte_width,
        transposed,
        element_bit_width,
        fp4_padded,
        cga,
        ..
    } = layout
    else {
        return Ok(None);
    };
    let inner = |shape: &[i64]| {
        if *transposed {
            shape.first().copied()
        } else {
            shape.last().copied()
        }
    };
    if !cga.is_empty() || inner(src) != inner(dst) {
        return Ok(None);
    }
    let candidate = Layout::NvmmaShared {
        swizzling_byte_width: *swizzling_byte_width,
        transposed: *transposed,
        element_bit_width: *element_bit_width,
        fp4_padded: *fp4_padded,
        rank: dst.len() as u32,
        cga: Vec::new(),
    };
    let reshaped = reshape_linear(&shared_linear(layout, src)?, dst)?;
    if reshaped != shared_linear(&candidate, dst)? {
        return Ok(None);
    }
    Ok(candidate.text())
}

/// Triton's `NVMMASharedEncodingAttr::getAlignment` and the shared
/// encodings' default (16 bytes).
fn alignment(layout: &Layout) -> u32 {
    match layout {
        Layout::NvmmaShared {
            swizzling_byte_width,
            ..
        } => 128 * (swizzling_byte_width / 16).max(1),
        Layout::SharedLinear { alignment, .. } => *alignment,
        _ => 16,
    }
}

/// The linear layout (`offset`, `block` to the buffer's coordinates) of a
/// shared encoding over `shape`; padded layouts are refused, as the views
/// here do not account for their padding.
fn shared_linear(layout: &Layout, shape: &[i64]) -> Result<LinearLayout, String> {
    if matches!(layout, Layout::PaddedShared { .. }) {
        return Err("padded shared views".into());
    }
    any_shared_to_linear(layout, shape)
}

/// Triton's `reshapeLayout`: the outputs flattened row-major and split
/// over `dst` (the library's `reshape_outs` counts `dim0` lowest, so the
/// dimensions are reversed around it, as Triton does).
fn reshape_linear(layout: &LinearLayout, dst: &[i64]) -> Result<LinearLayout, String> {
    let src: Vec<i64> = layout.outs().iter().map(|(_, s)| i64::from(*s)).collect();
    if src.iter().product::<i64>() != dst.iter().product::<i64>() {
        return Err(format!("cannot reshape {src:?} to {dst:?}"));
    }
    let reversed: Vec<&str> = layout
        .outs()
        .iter()
        .rev()
        .map(|(n, _)| n.as_str())
        .collect();
    let names = standard_out_dim_names(dst.len());
    let new: Vec<(&str, i32)> = names
        .iter()
        .zip(dst)
        .rev()
        .map(|(n, &s)| (n.as_str(), s as i32))
        .collect();
    let order: Vec<&str> = names.iter().map(String::as_str).collect();
    layout
        .transpose_outs(&reversed)?
        .reshape_outs(&new)?
        .transpose_outs(&order)
}

/// `#ttg.shared_linear` text of `layout`.
fn shared_linear_text(layout: &LinearLayout, alignment: u32) -> String {
    let bases = |name: &str| {
        if !layout.has_in_dim(name) {
            return String::new();
        }
        layout
            .bases(name)
            .iter()
            .map(|b| {
                let b: Vec<String> = b.iter().map(i32::to_string).collect();
                format!("[{}]", b.join(", "))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let block = bases("block");
    let block = if block.is_empty() {
        String::new()
    } else {
        format!(", block = [{block}]")
    };
    format!(
        "#ttg.shared_linear<{{offset = [{}]{block}}}, alignment = {alignment}>",
        bases("offset")
    )
}

/// Triton's `inferTransOpEncoding` for the shared encodings this file
/// views: an NVMMA `[1, 0]` transpose flips `transposed` and swaps the CGA
/// bases; otherwise the permuted linear layout as `#ttg.shared_linear`.
fn trans_encoding(layout: &Layout, shape: &[i64], order: &[i32]) -> Result<String, String> {
    let identity = order.iter().enumerate().all(|(i, &o)| o == i as i32);
    if identity {
        return layout
            .nvmma_shared_text()
            .or_else(|| layout.text())
            .ok_or_else(|| "this shared encoding".to_string());
    }
    if let (
        Layout::NvmmaShared {
            transposed, cga, ..
        },
        [1, 0],
    ) = (layout, order)
    {
        let mut flipped = layout.clone();
        if let Layout::NvmmaShared {
            transposed: t,
            cga: c,
            ..
        } = &mut flipped
        {
            *t = !*transposed;
            *c = cga.iter().map(|b| vec![b[1], b[0]]).collect();
        }
        return flipped
            .nvmma_shared_text()
            .ok_or_else(|| "this NVMMA encoding".to_string());
    }
    if matches!(
        layout,
        Layout::SwizzledShared { .. } | Layout::AmdRotatingShared { .. }
    ) {
        return Err("a transposed swizzled shared view".into());
    }
    let linear = shared_linear(layout, shape)?;
    let names = standard_out_dim_names(shape.len());
    let ins = linear
        .ins()
        .iter()
        .map(|(name, bases)| {
            let bases = bases
                .iter()
                .map(|b| order.iter().map(|&o| b[o as usize]).collect())
                .collect();
            (name.clone(), bases)
        })
        .collect();
    let outs = names
        .into_iter()
        .zip(order.iter().map(|&o| shape[o as usize] as i32))
        .collect();
    let permuted = LinearLayout::new(ins, outs)?;
    Ok(shared_linear_text(&permuted, alignment(layout)))
}

fn parse_encoding(op: MlirOperation, text: &str) -> Result<Attribute<'static>, String> {
    parse_attr(op, text).ok_or_else(|| format!("could not build the encoding {text}"))
}

/// The type of `ttg.memdesc_reshape` of `src` to `dst` (Triton's
/// `MemDescReshapeOp::inferReturnTypes`).
fn reshape_type(
    op: MlirOperation,
    src: &MemDesc<'static>,
    dst: &[i64],
) -> Result<MemDesc<'static>, String> {
    let layout = Layout::read(src.encoding).ok_or("an unknown shared encoding")?;
    let rank = src.shape.len();
    if !src.is_whole_allocation() {
        return Err("a reshaped view of a memdesc_subslice".into());
    }
    let text = match nvmma_reshaped(&layout, &src.shape, dst)? {
        Some(kept) => kept,
        None => shared_linear_text(
            &reshape_linear(&shared_linear(&layout, &src.shape)?, dst)?,
            alignment(&layout),
        ),
    };
    let mut alloc_shape = src.alloc_shape[..src.alloc_shape.len() - rank].to_vec();
    alloc_shape.extend_from_slice(dst);
    Ok(MemDesc {
        shape: dst.to_vec(),
        alloc_shape,
        encoding: parse_encoding(op, &text)?,
        ..src.clone()
    })
}

/// The type of `ttg.memdesc_trans` of `src` with `order` (Triton's
/// `MemDescTransOp::inferReturnTypes`).
fn trans_type(
    op: MlirOperation,
    src: &MemDesc<'static>,
    order: &[i32],
) -> Result<MemDesc<'static>, String> {
    let layout = Layout::read(src.encoding).ok_or("an unknown shared encoding")?;
    let text = trans_encoding(&layout, &src.shape, order)?;
    let rank = order.len();
    let lead = src.alloc_shape.len() - rank;
    let mut alloc_shape = src.alloc_shape[..lead].to_vec();
    alloc_shape.extend(order.iter().map(|&o| src.alloc_shape[lead + o as usize]));
    Ok(MemDesc {
        shape: order.iter().map(|&o| src.shape[o as usize]).collect(),
        alloc_shape,
        encoding: parse_encoding(op, &text)?,
        ..src.clone()
    })
}

/// The order of the scales' 5-D transpose.
const SCALE_ORDER: [i32; 5] = [0, 3, 2, 1, 4];

/// `UseShmemForScales` for one scale of a scaled MMA.
struct ScalesPlan {
    /// The MMA operand holding the scale.
    operand: usize,
    /// The `ttng.tmem_alloc` it reads.
    tmem_alloc: MlirOperation,
    /// The shared buffer the scales come from.
    shared: MlirValue,
    /// The 5-D reshape, transpose and 2-D reshape: op and view type.
    views: Vec<(MlirOperation, MemDesc<'static>)>,
}

/// The op behind `v`, past any `ttg.convert_layout`, if it is a `name`.
fn producer(mut v: MlirValue, name: &str) -> Option<MlirOperation> {
    while let Some(cvt) = ir::defining_op(v).filter(|d| ir::is(*d, "ttg.convert_layout")) {
        v = ir::operand(cvt, 0);
    }
    ir::defining_op(v).filter(|d| ir::is(*d, name))
}

fn tensor_shape(v: MlirValue) -> Option<Vec<i64>> {
    // SAFETY: a live value's type.
    tt_dialect::types::TensorView::of(unsafe { Type::from_raw(ir::value_type(v)) })
        .map(|t| t.shape.to_vec())
}

/// `UseShmemForScales` at scale `which` (0: a, 1: b) of `mma`: `Ok(None)`
/// where it does not apply, `Err` where this file cannot type the views.
fn scales_plan(mma: MlirOperation, which: usize) -> Result<Option<ScalesPlan>, String> {
    // SAFETY: `mma` is a live op.
    let mma_ref = unsafe { OperationRef::from_raw(mma) };
    let Some(acc_dep) = tt_dialect::ir::segment(mma_ref, 3) else {
        return Ok(None);
    };
    let operand = 3 + acc_dep.len() + which;
    if operand >= ir::operand_count(mma) {
        return Ok(None);
    }
    let scale = ir::operand(mma, operand);
    // SAFETY: a live value's type.
    let is_scales = matches!(
        ttg_dialect::tmem::encoding_of(unsafe { Type::from_raw(ir::value_type(scale)) }),
        Some(ttg_dialect::tmem::TmemEncoding::Scales { .. })
    );
    let Some(tmem_alloc) = ir::defining_op(scale).filter(|d| ir::is(*d, "ttng.tmem_alloc")) else {
        return Ok(None);
    };
    let Some(scale_ty) = ir::memdesc(scale) else {
        return Ok(None);
    };
    if !is_scales || ir::operand_count(tmem_alloc) != 1 || scale_ty.shape.len() != 2 {
        return Ok(None);
    }
    let (block_mn, num_scales) = (scale_ty.shape[0], scale_ty.shape[1]);
    let shape_5d = [block_mn / 128, num_scales / 4, 32, 4, 4];
    let Some(reshape_2d) = producer(ir::operand(tmem_alloc, 0), "tt.reshape")
        .filter(|r| tensor_shape(ir::result(*r, 0)).as_deref() == Some(&scale_ty.shape[..]))
    else {
        return Ok(None);
    };
    let Some(trans) = producer(ir::operand(reshape_2d, 0), "tt.trans")
        .filter(|t| trans_order(*t).as_deref() == Some(&SCALE_ORDER[..]))
    else {
        return Ok(None);
    };
    let Some(reshape_5d) = producer(ir::operand(trans, 0), "tt.reshape")
        .filter(|r| tensor_shape(ir::result(*r, 0)).as_deref() == Some(&shape_5d[..]))
    else {
        return Ok(None);
    };
    let Some(load) = producer(ir::operand(reshape_5d, 0), "ttg.local_load") else {
        return Ok(None);
    };
    let shared = ir::operand(load, 0);
    let Some(shared_ty) = ir::memdesc(shared) else {
        return Ok(None);
    };
    let uses_tma = ir::defining_op(shared)
        .filter(|a| ir::is(*a, "ttg.local_alloc") && ir::operand_count(*a) == 1)
        .and_then(|a| producer(ir::operand(a, 0), "tt.descriptor_load"))
        .is_some();
    if !tmem_copy_compatible(&shared_ty, uses_tma)? {
        return Ok(None);
    }
    if ir::uses(ir::result(tmem_alloc, 0)).len() != 1 {
        return Err("a ttng.tmem_alloc of scales with other users".into());
    }
    let view_5d = reshape_type(mma, &shared_ty, &shape_5d)?;
    let view_trans = trans_type(mma, &view_5d, &SCALE_ORDER)?;
    let view_2d = reshape_type(mma, &view_trans, &scale_ty.shape)?;
    Ok(Some(ScalesPlan {
        operand,
        tmem_alloc,
        shared,
        views: vec![
            (reshape_5d, view_5d),
            (trans, view_trans),
            (reshape_2d, view_2d),
        ],
    }))
}

/// Triton's `isTmemCopyCompatible`: 512 scales contiguous innermost and,
/// unless TMA filled the buffer, a 2-D buffer of whole 32x128-bit rows.
fn tmem_copy_compatible(ty: &MemDesc, uses_tma: bool) -> Result<bool, String> {
    let layout = Layout::read(ty.encoding).ok_or("an unknown shared encoding")?;
    let linear = shared_linear(&layout, &ty.alloc_shape)?;
    let reversed: Vec<String> = linear
        .out_dim_names()
        .iter()
        .rev()
        .map(|s| s.to_string())
        .collect();
    let reversed: Vec<&str> = reversed.iter().map(String::as_str).collect();
    let flat = linear.transpose_outs(&reversed)?.flatten_outs()?;
    if flat.num_consecutive_in_out() < 512 {
        return Ok(false);
    }
    if uses_tma {
        return Ok(true);
    }
    let bits = tt_dialect::types::bit_width(ty.element).ok_or("a scale element type")?;
    Ok(ty.shape.len() == 2 && (ty.shape[1] * i64::from(bits)) % (32 * 128) == 0)
}

/// `UseShmemForScales`.
fn use_shmem_for_scales<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let mma = op.to_raw();
    let mut changed = false;
    for which in 0..2 {
        let Ok(Some(plan)) = scales_plan(mma, which) else {
            continue;
        };
        // SAFETY: the planned ops and values are live parts of the IR.
        let tmem_ref = unsafe { OperationRef::from_raw(plan.tmem_alloc) };
        rewriter.set_insertion_point_before(tmem_ref);
        let mut view = plan.shared;
        for (source, ty) in &plan.views {
            // SAFETY: as above.
            let location = unsafe { OperationRef::from_raw(*source) }.location();
            let context_ref = location.context();
            // SAFETY: `context_ref` refers to the live context of the module.
            let context = unsafe { context_ref.to_ref() };
            let (name, attributes) = if ir::is(*source, "tt.trans") {
                let order =
                    melior::ir::attribute::DenseI32ArrayAttribute::new(context, &SCALE_ORDER)
                        .into();
                (
                    "ttg.memdesc_trans",
                    vec![(melior::ir::Identifier::new(context, "order"), order)],
                )
            } else {
                ("ttg.memdesc_reshape", Vec::new())
            };
            let created = tt_dialect::ir::create(
                rewriter,
                name,
                location,
                // SAFETY: a live value.
                &[unsafe { Value::from_raw(view) }],
                &[ty.to_type()],
                &attributes,
            );
            view = ir::result(created.to_raw(), 0);
        }
        rewriter.start_op_modification(op);
        ir::set_operand(mma, plan.operand, view);
        rewriter.finalize_op_modification(op);
        rewriter.erase_op(tmem_ref);
        changed = true;
    }
    changed
}
