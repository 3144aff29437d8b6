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
//! - `ReshapeMemDesc` (an NVMMA
//!   `ttg.local_alloc` of a `tt.reshape`; other encodings never become
//!   NVMMA views, which it requires) and `UseShmemForScales` (Blackwell
//!   scaled MMA): not yet; input they would rewrite is refused
//!   with a located error (checked after the canonicalization, before any
//!   pattern runs).

use melior::ir::operation::{OperationLike, OperationRef};
use melior::ir::{Attribute, Type, Value};
use melior::RewriterBase;
use mlir_sys::{MlirOperation, MlirValue};
use ttg_dialect::layout::Layout;

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

/// What a pattern this file lacks would rewrite at `op`.
fn unsupported(op: MlirOperation) -> Option<String> {
    if ir::is(op, "ttng.tc_gen5_mma_scaled") {
        return Some("Blackwell scaled MMA operands (UseShmemForScales)".into());
    }
    if ir::is(op, "ttg.local_alloc") && ir::operand_count(op) == 1 {
        let src = ir::defining_op(ir::operand(op, 0))?;
        // Triton rewrites only where the reshaped view keeps an NVMMA
        // encoding, which needs an NVMMA allocation to begin with.
        let nvmma = ir::memdesc(ir::result(op, 0))
            .and_then(|m| Layout::read(m.encoding))
            .is_some_and(|l| matches!(l, Layout::NvmmaShared { .. }));
        if ir::is(src, "tt.reshape") && nvmma {
            return Some("an NVMMA ttg.local_alloc of a tt.reshape (ReshapeMemDesc)".into());
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
    // with `transposed` flipped.
    let mut inner = match Layout::read(alloc_ty.encoding) {
        Some(layout @ Layout::NvmmaShared { .. }) => layout,
        _ => return false,
    };
    if let Layout::NvmmaShared {
        transposed, cga, ..
    } = &mut inner
    {
        if !cga.is_empty() {
            return false;
        }
        *transposed = !*transposed;
    }
    let source = ir::operand(trans, 0);
    let Some(src) = tt_dialect::types::TensorView::of(
        // SAFETY: a live value's type.
        unsafe { Type::from_raw(ir::value_type(source)) },
    ) else {
        return false;
    };
    let dims: Vec<String> = src.shape.iter().map(i64::to_string).collect();
    let Some(encoding) = inner.text() else {
        return false;
    };
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
