//! `tritongpu-promote-lhs-to-tmem`: a Blackwell MMA (`ttng.tc_gen5_mma`,
//! `ttng.tc_gen5_mma_scaled`) whose A operand is a `ttg.local_alloc` of a
//! register tensor reads A from tensor memory instead, as Triton 3.6's
//! `TritonNvidiaGPUPromoteLHSToTMemPass` does: the tensor goes into a
//! `ttng.tmem_alloc` (blockM of the accumulator, blockN the K extent of A,
//! packed columns) right after the shared allocation; the greedy clean-up
//! that ends the pass (folds, dead ops) then erases the allocation.
//!
//! The tensor keeps its layout when that layout is already one a
//! tensor-memory access gives ([`tmem::is_access_compatible`]); otherwise
//! it is converted to the 32x32b access layout, except when it comes
//! straight from a load or a block argument (then a conversion would cost
//! more than the shared-memory operand saves, and A stays in shared
//! memory). Nothing is promoted across regions (the tensor memory's live
//! range stays in one block), for elements other than 8, 16 or 32 bits,
//! for an fp4-padded A, or for accumulators and tensors split over several
//! CTAs, which are left as they are.

use melior::ir::{operation::OperationRef, Type};
use mlir_sys::{MlirOperation, MlirType, MlirValue};

use tt_dialect::rewrite::{apply_greedily, Greedy};
use tt_dialect::types::TensorView;
use ttg_dialect::layout::{Layout, MemDesc};
use ttg_dialect::tmem::{self, TmemEncoding};

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttgir::infer_layout::linear_text;
use crate::ttir::loop_support::ir;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonNvidiaGPUPromoteLHSToTMem",
    argument: "tritongpu-promote-lhs-to-tmem",
    description: "Read the A operand of Blackwell MMAs from tensor memory",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let module = module.to_raw();
    let mmas = ir::collect_post(module, &|op| {
        ir::is(op, "ttng.tc_gen5_mma") || ir::is(op, "ttng.tc_gen5_mma_scaled")
    });
    for mma in mmas {
        promote(mma).map_err(|message| {
            // SAFETY: `mma` is a live op of the module the pass runs on.
            fail(unsafe { OperationRef::from_raw(mma) }, &message)
        })?;
    }
    // Triton applies its pattern through the greedy driver, which also
    // folds and erases dead ops; so does this pass, after its rewrites.
    // SAFETY: the module is live for the whole pass.
    let root = unsafe { OperationRef::from_raw(module) };
    if !apply_greedily(root, &[], Greedy::default()) {
        return Err(fail(root, "the greedy cleanup did not converge"));
    }
    Ok(())
}

fn type_of(ty: MlirType) -> Type<'static> {
    // SAFETY: `ty` is a live type of the module's context, which outlives
    // the pass; the wrapper only reads it.
    unsafe { Type::from_raw(ty) }
}

/// Promotes the A operand of `mma` where Triton does; `Err` only for IR
/// that cannot be built.
fn promote(mma: MlirOperation) -> Result<(), String> {
    let lhs = ir::operand(mma, 0);
    let Some(alloc) = ir::defining_op(lhs).filter(|d| ir::is(*d, "ttg.local_alloc")) else {
        return Ok(());
    };
    if ir::operand_count(alloc) != 1
        || ir::block_parent_region(ir::op_block(alloc)).ptr
            != ir::block_parent_region(ir::op_block(mma)).ptr
    {
        return Ok(());
    }
    let src = ir::operand(alloc, 0);
    let (Some(lhs_desc), Some(acc_desc), Some(view)) = (
        MemDesc::of(type_of(ir::value_type(lhs))),
        MemDesc::of(type_of(ir::value_type(ir::operand(mma, 2)))),
        TensorView::of(type_of(ir::value_type(src))),
    ) else {
        return Ok(());
    };
    let Some(TmemEncoding::Tensor(acc)) = TmemEncoding::read(acc_desc.encoding) else {
        return Ok(());
    };
    let bits = tt_dialect::types::bit_width(lhs_desc.element).unwrap_or(0);
    let padded = matches!(
        Layout::read(lhs_desc.encoding),
        Some(Layout::NvmmaShared {
            fp4_padded: true,
            ..
        })
    );
    let single_cta = view
        .encoding
        .and_then(Layout::read)
        .and_then(|l| l.ctas())
        .is_none_or(|n| n == 1);
    if ![8, 16, 32].contains(&bits)
        || padded
        || lhs_desc.shape.len() != 2
        || acc.two_ctas
        || acc.cta_split_m != 1
        || acc.cta_split_n != 1
        || !single_cta
    {
        return Ok(());
    }
    let num_warps = ir::lookup_num_warps(mma)
        .ok_or("is not contained within a context that specifies the number of warps")?;
    let ctx = ir::context(mma);
    let memdesc_text = format!(
        "!ttg.memdesc<{}x{}x{}, #ttng.tensor_memory_encoding<blockM = {}, blockN = {}, colStride = 1>, #ttng.tensor_memory>",
        lhs_desc.shape[0], lhs_desc.shape[1], lhs_desc.element, acc.block_m, lhs_desc.shape[1]
    );
    let memdesc_ty = ir::parse_type(ctx, &memdesc_text)
        .ok_or_else(|| format!("cannot build the tensor-memory type {memdesc_text}"))?;
    let desc = MemDesc::of(type_of(memdesc_ty)).ok_or("expected a memory descriptor")?;
    let mut value: MlirValue = src;
    let mut after = alloc;
    if !tmem::is_access_compatible(type_of(ir::value_type(src)), &desc, num_warps)? {
        if ir::comes_from_load_or_block_arg(src) {
            return Ok(());
        }
        let enc = TmemEncoding::read(desc.encoding).ok_or("expected a tensor-memory encoding")?;
        let ll = tmem::default_access_layout(&enc, &desc.shape, bits, num_warps)?;
        let text = linear_text(&ll, |b| b.iter().map(|&v| i64::from(v)).collect());
        let encoding = ir::parse_attribute(ctx, &text)
            .ok_or_else(|| format!("cannot build the layout {text}"))?;
        let ty = ir::with_encoding(ir::value_type(src), encoding)
            .ok_or("expected a ranked tensor source")?;
        let cvt = ir::create_op(
            "ttg.convert_layout",
            ir::location(mma),
            &[src],
            &[ty],
            &[],
            Vec::new(),
        );
        ir::insert_after(after, cvt);
        after = cvt;
        value = ir::result(cvt, 0);
    }
    let tmem_alloc = ir::create_op(
        "ttng.tmem_alloc",
        ir::location(mma),
        &[value],
        &[memdesc_ty],
        &[],
        Vec::new(),
    );
    ir::insert_after(after, tmem_alloc);
    ir::set_operand(mma, 0, ir::result(tmem_alloc, 0));
    Ok(())
}
