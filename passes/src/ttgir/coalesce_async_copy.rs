//! `tritongpu-coalesce-async-copy`: Triton 3.6's `ClipAsyncCopySizePerThread`.
//!
//! A `ttg.async_copy_global_to_local` from a blocked tensor into a
//! `#ttg.swizzled_shared` buffer copies, per `cp.async`, only as many
//! elements as land contiguously in the buffer (the swizzle's `vec`, a
//! whole row without swizzling, one where the registers run along another
//! dimension). Where a thread holds more contiguous elements than that, its
//! global accesses are split and no longer coalesce; the copy then reads
//! its pointers (and mask and `other`) through a `ttg.convert_layout` to
//! Triton's default blocked layout with that many elements per thread
//! along the contiguous dimension, and the copy loses its `contiguity`
//! hint as in Triton (which builds it anew). Run through the greedy driver, as
//! Triton's pass is (which also folds and drops dead ops). Copies into
//! other shared encodings are left alone, as in Triton.

use melior::ir::operation::{OperationLike, OperationRef};
use melior::RewriterBase;
use mlir_sys::{MlirOperation, MlirValue};
use ttg_dialect::layout::Layout;

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttgir::convert_triton_to_tritongpu::Blocked;
use crate::ttgir::pipelining as pl;
use crate::ttir::loop_support::ir;
use tt_dialect::rewrite::{apply_greedily, Greedy, Pattern, Root};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUCoalesceAsyncCopy",
    argument: "tritongpu-coalesce-async-copy",
    description:
        "Clip the elements per thread of async copies to what one cp.async stores contiguously",
    anchor: "builtin.module",
    run,
};

static CLIP: Pattern = Pattern {
    benefit: 1,
    rewrite: clip_size_per_thread,
    generated: &["ttg.convert_layout"],
};

fn run(module: OperationRef) -> PassResult {
    let patterns = [(Root::Op("ttg.async_copy_global_to_local"), &CLIP)];
    if apply_greedily(module, &patterns, Greedy::default()) {
        Ok(())
    } else {
        Err(fail(module, "pattern application did not converge"))
    }
}

fn tensor(v: MlirValue) -> Option<(Vec<i64>, Option<Layout>)> {
    // SAFETY: `v` is a live value; its type belongs to the context.
    let view = tt_dialect::types::TensorView::of(unsafe {
        melior::ir::Type::from_raw(ir::value_type(v))
    })?;
    Some((view.shape.to_vec(), view.encoding.and_then(Layout::read)))
}

/// `lookupNumWarps` and the module's threads per warp.
fn warps_and_lanes(op: MlirOperation) -> Option<(u32, u32)> {
    let mut warps = None;
    let mut current = op;
    loop {
        if warps.is_none() && (ir::is(current, "tt.func") || ir::is(current, "builtin.module")) {
            warps = ir::attribute(current, "ttg.num-warps").and_then(ir::integer_attr_value);
        }
        if ir::is(current, "builtin.module") {
            let lanes = ir::attribute(current, "ttg.threads-per-warp")
                .and_then(ir::integer_attr_value)
                .unwrap_or(32);
            return Some((u32::try_from(warps?).ok()?, u32::try_from(lanes).ok()?));
        }
        current = ir::parent_op(current)?;
    }
}

/// `ClipAsyncCopySizePerThread`.
fn clip_size_per_thread<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let copy = op.to_raw();
    let src = ir::operand(copy, 0);
    let Some((shape, Some(Layout::Blocked { order, cga, .. }))) = tensor(src) else {
        return false;
    };
    // SAFETY: a live value's type.
    let Some(memdesc) = ttg_dialect::layout::MemDesc::of(unsafe {
        melior::ir::Type::from_raw(ir::value_type(ir::operand(copy, 1)))
    }) else {
        return false;
    };
    if !matches!(
        Layout::read(memdesc.encoding),
        Some(Layout::SwizzledShared { .. })
    ) || !cga.is_empty()
    {
        return false;
    }
    let encoding = melior::ir::attribute::AttributeLike::to_raw(&memdesc.encoding);
    let Some(copy_contig) = pl::copy_vec_elements(src, encoding) else {
        return false;
    };
    let Some((_, mut contig)) = pl::order_and_contig(src) else {
        return false;
    };
    let fastest = order[0] as usize;
    if contig[fastest] <= copy_contig {
        return false;
    }
    contig[fastest] = copy_contig;
    let Some((warps, lanes)) = warps_and_lanes(copy) else {
        return false;
    };
    let blocked = Blocked::build(&shape, contig, order, warps, lanes);
    let Some(new_encoding) = ir::parse_attribute(ir::context(copy), &blocked.text()) else {
        return false;
    };
    // Operands: src, the buffer, then the optional mask and other.
    let count = ir::operand_count(copy);
    let mut converted = Vec::new();
    rewriter.set_insertion_point_before(op);
    for index in (0..count).filter(|&i| i != 1) {
        let value = ir::operand(copy, index);
        let Some((shape, _)) = tensor(value) else {
            return false;
        };
        // SAFETY: live handles of the IR being rewritten.
        let (element, value_ref) = unsafe {
            (
                melior::ir::Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(ir::value_type(
                    value,
                ))),
                melior::ir::Value::from_raw(value),
            )
        };
        let ty = tt_dialect::ir::tensor_type(
            &shape,
            element,
            Some(unsafe {
                // SAFETY: non-null, owned by the context.
                melior::ir::Attribute::from_raw(new_encoding)
            }),
        );
        let cvt = tt_dialect::ir::create(
            rewriter,
            "ttg.convert_layout",
            op.location(),
            &[value_ref],
            &[ty],
            &[],
        );
        converted.push((index, ir::result(cvt.to_raw(), 0)));
    }
    rewriter.start_op_modification(op);
    for (index, value) in converted {
        ir::set_operand(copy, index, value);
    }
    // Triton rebuilds the copy without the pipeliner's `contiguity`: the
    // lowering then takes the width from the converted pointers alone.
    ir::remove_attribute(copy, "contiguity");
    rewriter.finalize_op_modification(op);
    true
}
