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
//! - `SwizzleShmemConvert` (a `ttg.convert_layout` to a dot operand of a
//!   2-D `tt.trans`, feeding a `tt.dot`), `ReshapeMemDesc` (an NVMMA
//!   `ttg.local_alloc` of a `tt.reshape`; other encodings never become
//!   NVMMA views, which it requires) and `UseShmemForScales`
//!   (Blackwell scaled MMA): not yet; input they would rewrite is refused
//!   with a located error (checked after the canonicalization, before any
//!   pattern runs).

use melior::ir::operation::{OperationLike, OperationRef};
use melior::ir::{Attribute, Type, Value};
use melior::RewriterBase;
use mlir_sys::{MlirOperation, MlirValue};
use ttg_dialect::layout::{Layout, MemDesc};

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

static FUSE_TRANS: Pattern = Pattern {
    benefit: 1,
    rewrite: fuse_trans_mmav3,
    generated: &["ttg.local_alloc", "ttg.memdesc_trans"],
};

fn refuse(op: MlirOperation, what: &str) -> Failure {
    // SAFETY: `op` is a live op of the module the pass runs on.
    let op = unsafe { OperationRef::from_raw(op) };
    fail(op, &format!("'{FLAG}' does not support {what} yet"))
}

fn run(module: OperationRef) -> PassResult {
    canonicalize(module)?;
    let raw = module.to_raw();
    for op in ir::collect_post(raw, &|_| true) {
        if let Some(what) = unsupported(op) {
            return Err(refuse(op, &what));
        }
    }
    let mut patterns: Vec<(Root, &'static Pattern)> =
        vec![(Root::Op("ttg.local_alloc"), &FUSE_TRANS)];
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

fn memdesc(v: MlirValue) -> Option<MemDesc<'static>> {
    // SAFETY: `v` is a live value; its type lives in the context.
    MemDesc::of(unsafe { Type::from_raw(ir::value_type(v)) })
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
        let nvmma = memdesc(ir::result(op, 0))
            .and_then(|m| Layout::read(m.encoding))
            .is_some_and(|l| matches!(l, Layout::NvmmaShared { .. }));
        if ir::is(src, "tt.reshape") && nvmma {
            return Some("an NVMMA ttg.local_alloc of a tt.reshape (ReshapeMemDesc)".into());
        }
        return None;
    }
    if ir::is(op, "ttg.convert_layout") {
        let dot = single_user(ir::result(op, 0))?;
        if !ir::is(dot, "tt.dot") {
            return None;
        }
        let trans = ir::defining_op(ir::operand(op, 0)).filter(|t| ir::is(*t, "tt.trans"))?;
        let result_is_dot_operand = tt_dialect::types::Tensor::of(
            // SAFETY: a live value's type.
            unsafe { Type::from_raw(ir::value_type(ir::result(op, 0))) },
        )
        .and_then(|t| t.encoding)
        .and_then(Layout::read)
        .is_some_and(|l| matches!(l, Layout::DotOperand { .. }));
        if trans_order(trans).as_deref() == Some(&[1, 0]) && result_is_dot_operand {
            return Some("a dot operand converted from a tt.trans (SwizzleShmemConvert)".into());
        }
    }
    None
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
    let Some(alloc_ty) = memdesc(result) else {
        return false;
    };
    // SAFETY: the encoding attribute lives in the context.
    let Some(Layout::NvmmaShared {
        swizzling_byte_width,
        transposed,
        element_bit_width,
        fp4_padded,
        rank,
        cga,
    }) = Layout::read(alloc_ty.encoding)
    else {
        return false;
    };
    if !cga.is_empty() {
        return false;
    }
    let inner = Layout::NvmmaShared {
        swizzling_byte_width,
        transposed: !transposed,
        element_bit_width,
        fp4_padded,
        rank,
        cga,
    };
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
    // SAFETY: the context is live; a null type means the text was refused.
    let inner_ty = unsafe {
        mlir_sys::mlirTypeParseGet(ir::context(alloc), melior::StringRef::new(&text).to_raw())
    };
    if inner_ty.ptr.is_null() {
        return false;
    }
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
    let context_ref = location.context();
    // SAFETY: `context_ref` (a local, outliving `context`) refers to the
    // live context of the module; the array is read during the call only.
    let (context, order) = unsafe {
        let order = [1i32, 0];
        (
            context_ref.to_ref(),
            Attribute::from_raw(mlir_sys::mlirDenseI32ArrayGet(
                ir::context(alloc),
                2,
                order.as_ptr(),
            )),
        )
    };
    let view = tt_dialect::ir::create(
        rewriter,
        "ttg.memdesc_trans",
        location,
        &[tt_dialect::ir::first_result(new_alloc)],
        &[alloc_type],
        &[(melior::ir::Identifier::new(context, "order"), order)],
    );
    rewriter.replace_op_with_operation(op, view);
    true
}
