//! `relayout-tritongpu`: gives the tensors that Blackwell's tensor memory
//! and TMA gathers exchange with registers the layouts those accesses need,
//! as Triton 3.6's `RelayoutTritonGPU` pass does after
//! `convert-triton-to-tritongpu` with `enable-source-remat`.
//!
//! - `ttng.tmem_load`: the result gets the layout of the `32x32b` tensor
//!   memory access of its buffer ([`tmem::default_access_layout`], a
//!   `#ttg.linear`); where that differs from the result's former type, a
//!   `ttg.convert_layout` back to it feeds the users.
//! - `ttng.tmem_store` and `ttng.tmem_alloc` (with a source): the source is
//!   converted to that layout by a `ttg.convert_layout` before the op.
//! - `ttng.async_tma_gather` / `ttng.async_tma_scatter`: the row offsets
//!   are converted to the layout `gather4` / `scatter4` read them in.
//! - `ttg.local_load` without a result encoding gets the default blocked
//!   layout.
//!
//! A tensor-memory op is left alone when its tensor already has a layout
//! of one of the accesses Triton lowers (`32x32b`, `16x256b`, `16x128b`,
//! `16x64b`, and with 8 warps the split-M variant of `32x32b`;
//! [`tmem::compatible_access_layouts`]). Triton asks its lowering instead,
//! which also accepts those layouts with registers permuted; such layouts
//! are converted here. Tensor memory split over several CTAs is refused
//! with a located error.

use melior::ir::{attribute::AttributeLike, operation::OperationRef, Type};
use mlir_sys::{MlirAttribute, MlirOperation, MlirType, MlirValue};

use tt_dialect::types::{self, TensorView};
use ttg_dialect::layout::MemDesc;
use ttg_dialect::tmem::{self, TmemEncoding};

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttgir::convert_triton_to_tritongpu::{gather_offsets_encoding, Blocked};
use crate::ttgir::infer_layout::linear_text;
use crate::ttir::loop_support::ir;

/// The pass's flag.
pub const ARGUMENT: &str = "relayout-tritongpu";

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "RelayoutTritonGPU",
    argument: ARGUMENT,
    description:
        "Give tensor-memory and TMA gather/scatter operands the layouts their accesses need",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let module = module.to_raw();
    let ops = ir::collect_post(module, &|op| {
        matches!(
            ir::name(op).as_str(),
            "ttng.tmem_load"
                | "ttng.tmem_store"
                | "ttng.tmem_alloc"
                | "ttng.async_tma_gather"
                | "ttng.async_tma_scatter"
                | "ttg.local_load"
        )
    });
    let threads_per_warp = ir::attribute(module, "ttg.threads-per-warp")
        .and_then(ir::integer_attr_value)
        .and_then(|n| u32::try_from(n).ok())
        .filter(|&n| n > 0)
        .unwrap_or(32);
    for op in ops {
        relayout(op, threads_per_warp).map_err(|message| {
            // SAFETY: `op` is a live op of the module the pass runs on.
            fail(unsafe { OperationRef::from_raw(op) }, &message)
        })?;
    }
    Ok(())
}

fn relayout(op: MlirOperation, threads_per_warp: u32) -> Result<(), String> {
    let name = ir::name(op);
    let num_warps = || {
        ir::lookup_num_warps(op).ok_or_else(|| {
            "is not contained within a context that specifies the number of warps".to_string()
        })
    };
    match name.as_str() {
        "ttng.tmem_load" => {
            let desc = memdesc_operand(op).ok_or("expected a tensor-memory source")?;
            relayout_tmem_load(op, desc, num_warps()?, threads_per_warp)
        }
        "ttng.tmem_store" => {
            let desc = memdesc_operand(op).ok_or("expected a tensor-memory destination")?;
            relayout_tmem_source(op, ir::value_type(desc), num_warps()?)
        }
        "ttng.tmem_alloc" => {
            let result = ir::result(op, 0);
            relayout_tmem_source(op, ir::value_type(result), num_warps()?)
        }
        "ttng.async_tma_gather" | "ttng.async_tma_scatter" => {
            relayout_offsets(op, num_warps()?, threads_per_warp)
        }
        "ttg.local_load" => {
            let result = ir::result(op, 0);
            let ty = ir::value_type(result);
            if tensor_view(ty).is_some_and(|v| v.encoding.is_none()) {
                let converted = default_type(ty, num_warps()?, threads_per_warp)?;
                set_type(result, converted);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `tmem_load`: the result takes the access layout; its users keep the
/// former (converted) type through a `ttg.convert_layout`.
fn relayout_tmem_load(
    op: MlirOperation,
    desc: MlirValue,
    num_warps: u32,
    threads_per_warp: u32,
) -> Result<(), String> {
    let result = ir::result(op, 0);
    let ty = ir::value_type(result);
    let desc_ty = ir::value_type(desc);
    if is_compatible(ty, desc_ty, num_warps)? {
        return Ok(());
    }
    let wanted = default_type(ty, num_warps, threads_per_warp)?;
    let access = access_type(op, ty, desc_ty, num_warps)?;
    let users = ir::uses(result);
    set_type(result, access);
    if ir::same_type(access, wanted) {
        return Ok(());
    }
    let cvt = ir::create_op(
        "ttg.convert_layout",
        ir::location(op),
        &[result],
        &[wanted],
        &[],
        Vec::new(),
    );
    ir::insert_after(op, cvt);
    let converted = ir::result(cvt, 0);
    for (user, index) in users {
        ir::set_operand(user, index, converted);
    }
    Ok(())
}

/// `tmem_store` / `tmem_alloc`: the tensor source (if any) is converted to
/// the access layout of the buffer of type `desc_ty`.
fn relayout_tmem_source(
    op: MlirOperation,
    desc_ty: MlirType,
    num_warps: u32,
) -> Result<(), String> {
    let Some(index) = tensor_operand(op) else {
        // A `tmem_alloc` without a source.
        return Ok(());
    };
    let src = ir::operand(op, index);
    let ty = ir::value_type(src);
    if is_compatible(ty, desc_ty, num_warps)? {
        return Ok(());
    }
    let access = access_type(op, ty, desc_ty, num_warps)?;
    convert_operand(op, index, access);
    Ok(())
}

/// TMA gather / scatter: the row offsets go to the `gather4` layout.
fn relayout_offsets(
    op: MlirOperation,
    num_warps: u32,
    threads_per_warp: u32,
) -> Result<(), String> {
    let index = tensor_operand(op).ok_or("expected tensor row offsets")?;
    let ty = ir::value_type(ir::operand(op, index));
    let view = tensor_view(ty).ok_or("expected tensor row offsets")?;
    if view.shape.len() != 1 {
        return Err("the row offsets must be one-dimensional".into());
    }
    let text = gather_offsets_encoding(threads_per_warp, num_warps);
    let encoding = parse_encoding(op, &text)?;
    if view
        .encoding
        .is_some_and(|e| ir::same_attribute(e.to_raw(), encoding))
    {
        return Ok(());
    }
    let wanted = ir::with_encoding(ty, encoding).ok_or("expected tensor row offsets")?;
    convert_operand(op, index, wanted);
    Ok(())
}

/// Whether the tensor type `ty` already has a layout that some tensor
/// memory access of the buffer of type `desc_ty` gives.
fn is_compatible(ty: MlirType, desc_ty: MlirType, num_warps: u32) -> Result<bool, String> {
    let (_, desc) = tmem_desc(desc_ty)?;
    // SAFETY: `ty` is a live type of the module's context.
    tmem::is_access_compatible(unsafe { Type::from_raw(ty) }, &desc, num_warps)
}

/// `ty` with the default tensor-memory access layout of the buffer of type
/// `desc_ty` as its encoding.
fn access_type(
    op: MlirOperation,
    ty: MlirType,
    desc_ty: MlirType,
    num_warps: u32,
) -> Result<MlirType, String> {
    let (enc, desc) = tmem_desc(desc_ty)?;
    let bitwidth = types::bit_width(desc.element).ok_or("expected an integer or float buffer")?;
    let ll = tmem::default_access_layout(&enc, &desc.shape, bitwidth, num_warps)?;
    let text = linear_text(&ll, |b| b.iter().map(|&v| i64::from(v)).collect());
    let encoding = parse_encoding(op, &text)?;
    ir::with_encoding(ty, encoding).ok_or_else(|| "expected a ranked tensor".into())
}

fn tmem_desc(desc_ty: MlirType) -> Result<(TmemEncoding, MemDesc<'static>), String> {
    // SAFETY: `desc_ty` is a live type of the module's context.
    let desc = MemDesc::of(unsafe { Type::from_raw(desc_ty) })
        .ok_or("expected a tensor-memory descriptor")?;
    let enc = TmemEncoding::read(desc.encoding)
        .ok_or("expected a tensor-memory encoding on the memory descriptor")?;
    if enc.cta_split() != [1, 1] {
        return Err(format!(
            "'{ARGUMENT}' does not support tensor memory split over several CTAs yet"
        ));
    }
    Ok((enc, desc))
}

/// `ty` converted as Triton's type converter does: a tensor without an
/// encoding gets the default blocked layout.
fn default_type(ty: MlirType, num_warps: u32, threads_per_warp: u32) -> Result<MlirType, String> {
    let view = tensor_view(ty).ok_or("expected a ranked tensor")?;
    if view.encoding.is_some() {
        return Ok(ty);
    }
    let text = Blocked::default_for(view.shape, num_warps, threads_per_warp).text();
    // SAFETY: `ty` is a live type; its context outlives the pass.
    let ctx = unsafe { mlir_sys::mlirTypeGetContext(ty) };
    let encoding =
        ir::parse_attribute(ctx, &text).ok_or_else(|| format!("cannot parse encoding {text}"))?;
    ir::with_encoding(ty, encoding).ok_or_else(|| "expected a ranked tensor".into())
}

fn parse_encoding(op: MlirOperation, text: &str) -> Result<MlirAttribute, String> {
    ir::parse_attribute(ir::context(op), text)
        .ok_or_else(|| format!("cannot parse encoding {text}"))
}

fn tensor_view(ty: MlirType) -> Option<TensorView<'static>> {
    // SAFETY: `ty` is a live type of the module's context, which outlives
    // the pass; the view only reads it.
    TensorView::of(unsafe { Type::from_raw(ty) })
}

fn set_type(value: MlirValue, ty: MlirType) {
    // SAFETY: `value` is a live value and `ty` a type of its context.
    unsafe { mlir_sys::mlirValueSetType(value, ty) }
}

/// Replaces operand `index` of `op` by a `ttg.convert_layout` of it to
/// `ty`, created right before `op`.
fn convert_operand(op: MlirOperation, index: usize, ty: MlirType) {
    let cvt = ir::create_op(
        "ttg.convert_layout",
        ir::location(op),
        &[ir::operand(op, index)],
        &[ty],
        &[],
        Vec::new(),
    );
    ir::insert_before(op, cvt);
    ir::set_operand(op, index, ir::result(cvt, 0));
}

/// The index of `op`'s only ranked-tensor operand.
fn tensor_operand(op: MlirOperation) -> Option<usize> {
    (0..ir::operand_count(op)).find(|&i| tensor_view(ir::value_type(ir::operand(op, i))).is_some())
}

/// `op`'s first memory-descriptor operand.
fn memdesc_operand(op: MlirOperation) -> Option<MlirValue> {
    ir::operands(op)
        .into_iter()
        .find(|&v| ir::memdesc(v).is_some())
}
