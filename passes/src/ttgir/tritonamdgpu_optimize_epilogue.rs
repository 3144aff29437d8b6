//! `tritonamdgpu-optimize-epilogue`: Triton 3.6's AMD epilogue rewrite. A
//! `tt.store` (blocked) of a value that comes from an MMA-like layout
//! (`amd_mfma`, `amd_wmma`, `nvidia_mma`) through one `ttg.convert_layout`
//! and a chain of single-use, one-operand elementwise ops stores in the MMA
//! layout instead: the pointers and the mask are converted to it, the chain
//! runs in it, and the value's conversion goes away.
//!
//! Where Triton 3.6 would store through its wider `v_permlane` layout
//! (transposed version-4 MFMA 32x32 or 16x16 of f16/bf16, on CDNA4), the
//! store is refused with a located error.

use melior::ir::operation::OperationRef;
use melior::ir::Type;
use mlir_sys::{MlirOperation, MlirType, MlirValue};
use ttg_dialect::layout::Layout;

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttgir::pipelining as pl;
use crate::ttir::loop_support::ir;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonAMDGPUOptimizeEpilogue",
    argument: "tritonamdgpu-optimize-epilogue",
    description: "Store MMA results in their MMA layout, bypassing the layout conversion",
    anchor: "builtin.module",
    run,
};

/// Triton's `isOneOperandElementwiseOp`.
fn one_operand_elementwise(op: MlirOperation) -> bool {
    const NAMES: &[&str] = &[
        "arith.extf",
        "arith.extsi",
        "arith.extui",
        "arith.fptosi",
        "arith.fptoui",
        "arith.negf",
        "arith.sitofp",
        "arith.truncf",
        "arith.trunci",
        "arith.uitofp",
        "math.absf",
        "math.absi",
        "math.atan",
        "math.atan2",
        "math.ceil",
        "math.cos",
        "math.sin",
        "math.ctlz",
        "math.cttz",
        "math.ctpop",
        "math.erf",
        "math.exp",
        "math.exp2",
        "math.expm1",
        "math.floor",
        "math.log",
        "math.log10",
        "math.log1p",
        "math.log2",
        "math.sqrt",
        "math.rsqrt",
        "math.tanh",
        "tt.int_to_ptr",
        "tt.ptr_to_int",
        "tt.bitcast",
        "tt.fp_to_fp",
    ];
    if NAMES.iter().any(|n| ir::is(op, n)) {
        return true;
    }
    ir::is(op, "tt.extern_elementwise")
        && ir::operand_count(op) == 1
        && ir::result_count(op) == 1
        && ir::attribute(op, "pure").is_some_and(|a| scf_text(a) == "true")
}

fn scf_text(a: mlir_sys::MlirAttribute) -> String {
    crate::ttir::loop_support::scf::attribute_text(a)
}

fn layout_of(v: MlirValue) -> Option<Layout> {
    ir::tensor_layout(v)
}

fn is_mma_like(layout: &Layout) -> bool {
    matches!(
        layout,
        Layout::NvidiaMma { .. } | Layout::AmdMfma { .. } | Layout::AmdWmma { .. }
    )
}

/// `ty` (a ranked tensor) with `encoding`.
fn with_encoding(ty: MlirType, encoding: mlir_sys::MlirAttribute) -> MlirType {
    // SAFETY: a live ranked tensor type and attribute of one context.
    unsafe {
        let rank = mlir_sys::mlirShapedTypeGetRank(ty);
        let shape: Vec<i64> = (0..rank)
            .map(|d| mlir_sys::mlirShapedTypeGetDimSize(ty, d as isize))
            .collect();
        mlir_sys::mlirRankedTensorTypeGet(
            rank as isize,
            shape.as_ptr(),
            mlir_sys::mlirShapedTypeGetElementType(ty),
            encoding,
        )
    }
}

/// Whether Triton 3.6 would pick its `v_permlane` store layout
/// (`chooseMfmaLikeStoreLayout`) for a value of `ty` in `layout`.
fn permlane_store(layout: &Layout, ty: MlirType) -> bool {
    let Layout::AmdMfma {
        version,
        instr_shape,
        is_transposed,
        ..
    } = layout
    else {
        return false;
    };
    // SAFETY: the type of a live value.
    let Some(t) = tt_dialect::types::Tensor::of(unsafe { Type::from_raw(ty) }) else {
        return false;
    };
    let element = t.element.to_string();
    let square = instr_shape.len() >= 2
        && instr_shape[0] == instr_shape[1]
        && (instr_shape[0] == 32 || instr_shape[0] == 16);
    t.shape.len() == 2
        && (element == "f16" || element == "bf16")
        && *version == 4
        && *is_transposed
        && square
}

fn run(module: OperationRef) -> PassResult {
    let module = module.to_raw();
    for store in ir::collect_post(module, &|op| ir::is(op, "tt.store")) {
        rewrite(store)?;
    }
    Ok(())
}

fn rewrite(store: MlirOperation) -> PassResult {
    let ptr = ir::operand(store, 0);
    let mut val = ir::operand(store, 1);
    let mask = pl::optional_operand(store, 2);
    let blocked = |v: MlirValue| matches!(layout_of(v), Some(Layout::Blocked { .. }));
    if !blocked(ptr) || !blocked(val) {
        return Ok(());
    }
    let mut chain = Vec::new();
    let cvt = loop {
        let Some(def) = ir::defining_op(val) else {
            return Ok(());
        };
        if ir::is(def, "ttg.convert_layout") {
            break def;
        }
        if ir::uses(ir::result(def, 0)).len() != 1 || !one_operand_elementwise(def) {
            return Ok(());
        }
        chain.push(def);
        val = ir::operand(def, 0);
    };
    let src = ir::operand(cvt, 0);
    let Some(layout) = layout_of(src).filter(is_mma_like) else {
        return Ok(());
    };
    if ir::uses(ir::result(cvt, 0)).len() != 1 {
        return Ok(());
    }
    let stored_ty = ir::value_type(ir::operand(store, 1));
    let encoding =
        pl::encoding_of(ir::value_type(src)).expect("an MMA-like tensor has an encoding");
    if permlane_store(&layout, with_encoding(stored_ty, encoding)) {
        // SAFETY: a live op of the module.
        let op = unsafe { OperationRef::from_raw(store) };
        return Err(fail(
            op,
            "'tritonamdgpu-optimize-epilogue' does not support stores through the v_permlane layout (CDNA4) yet",
        ));
    }
    let loc = ir::location(store);
    let convert = |v: MlirValue| -> MlirValue {
        let ty = with_encoding(ir::value_type(v), encoding);
        ir::result(
            ir::build_op(store, "ttg.convert_layout", &[v], &[ty], &[], loc),
            0,
        )
    };
    let new_ptr = convert(ptr);
    let mut new_val = src;
    for &op in chain.iter().rev() {
        ir::set_operand(op, 0, new_val);
        let result = ir::result(op, 0);
        // SAFETY: a live result; its one user, the next op of the chain or
        // the store, takes the new layout too.
        unsafe {
            mlir_sys::mlirValueSetType(result, with_encoding(ir::value_type(result), encoding))
        };
        new_val = result;
    }
    let new_mask = mask.map(convert);
    ir::set_operand(store, 0, new_ptr);
    ir::set_operand(store, 1, new_val);
    if let Some(m) = new_mask {
        pl::set_optional_operand(store, 2, m);
    }
    if !ir::has_uses(ir::result(cvt, 0)) {
        ir::erase(cvt);
    }
    Ok(())
}
