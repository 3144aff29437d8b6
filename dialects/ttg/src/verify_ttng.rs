//! Verifier rules of the `ttng` ops (Triton 3.6's `TritonNvidiaGPU/IR/Ops.cpp`
//! and the verifiers of the interfaces those ops implement: `DotOpInterface`,
//! `MMAv5OpInterface`), with Triton's diagnostic texts, and the callback that
//! checks `#ttng.tensor_memory_encoding` parameters while they are parsed.
//!
//! Reached from [`crate::verify::verify_op`] by op name. Rules read types
//! through [`MemDesc`], [`Tensor`] and [`TmemEncoding`]; an op whose operands
//! do not have the expected kinds of type is left to ODS's own checks.
//! Triton prints types in diagnostics quoted (`'f16'`) and integer lists as
//! `a, b`; the messages below do the same.

use std::ffi::c_void;

use melior::ir::{
    operation::{OperationLike, OperationRef},
    Type,
};
use tt_dialect::types::{self, Tensor};
use tt_dialect::verify::{i32_array_attr, int_attr, operand_type, result_type, Rule, NO_OP_PREFIX};

use crate::ffi::EmitFn;
use crate::layout::{memory_space, Layout, MemDesc, MemorySpace};
use crate::tmem::{self, check_tensor_memory_params, list, TmemEncoding, TmemLayout};
use crate::verify::{lookup_context, run_rule_for_shim};

/// The shim's callback for `#ttng.tensor_memory_encoding`'s verifier:
/// `params` holds blockM, blockN, colStride, CTASplitM, CTASplitN, twoCTAs.
///
/// # Safety
/// `params` must point to `count` readable values, and `emit` must accept
/// `user` (the shim passes its own function and buffer).
pub(crate) unsafe extern "C" fn verify_tmem_params_callback(
    params: *const u32,
    count: isize,
    emit: EmitFn,
    user: *mut c_void,
) -> i32 {
    let rule = || {
        if params.is_null() || count < 6 {
            return Err("internal error: tensor memory encoding without parameters".to_owned());
        }
        // SAFETY: the shim passes a pointer to `count` (six) parameters that
        // live for the duration of this call.
        let p = unsafe { std::slice::from_raw_parts(params, count as usize) };
        check_tensor_memory_params(&TmemLayout {
            block_m: p[0],
            block_n: p[1],
            col_stride: p[2],
            cta_split_m: p[3],
            cta_split_n: p[4],
            two_ctas: p[5] != 0,
        })
    };
    // SAFETY: `emit` and `user` come from the shim (this function's contract).
    unsafe { run_rule_for_shim("a tensor memory rule", rule, emit, user) }
}

/// The Rust rules of `ttng` ops, by name; `None` for ops without any.
pub fn verify_op(op: OperationRef, name: &str) -> Option<Rule> {
    Some(match name {
        "ttng.warp_group_dot" => verify_warp_group_dot(op),
        "ttng.warp_group_dot_wait" => verify_warp_group_dot_wait(op),
        "ttng.init_barrier"
        | "ttng.inval_barrier"
        | "ttng.barrier_expect"
        | "ttng.wait_barrier" => barrier_operand(op, 0),
        "ttng.arrive_barrier" => verify_arrive_barrier(op),
        "ttng.async_tma_copy_global_to_local" => verify_tma_load(op),
        "ttng.async_tma_gather" => verify_tma_gather(op),
        "ttng.async_tma_scatter" => verify_tma_scatter(op),
        "ttng.tc_gen5_mma" => verify_mma(op, false),
        "ttng.tc_gen5_mma_scaled" => verify_mma(op, true),
        "ttng.tmem_load" => verify_tmem_load(op),
        "ttng.tmem_store" => verify_tmem_store(op),
        "ttng.tmem_alloc" => verify_tmem_alloc(op),
        "ttng.tmem_copy" => verify_tmem_copy(op),
        "ttng.tmem_subslice" => verify_tmem_subslice(op),
        "ttng.tensormap_create" => verify_tensormap_create(op),
        _ => return None,
    })
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

fn memdesc<'c>(op: OperationRef<'c, '_>, index: usize) -> Option<MemDesc<'c>> {
    operand_type(op, index).and_then(MemDesc::of)
}

fn quoted(ty: Type) -> String {
    format!("'{ty}'")
}

fn type_name(ty: Type) -> String {
    ty.to_string()
}

fn bit_width(ty: Type) -> u32 {
    types::bit_width(ty).unwrap_or(0)
}

/// The segment sizes of an op with `AttrSizedOperandSegments`.
fn segments(op: OperationRef) -> Vec<i32> {
    i32_array_attr(op, "operandSegmentSizes").unwrap_or_default()
}

fn has_unit(op: OperationRef, name: &str) -> bool {
    op.attribute(name).is_ok()
}

/// Triton's `verifyBarrierType`: an mbarrier is one i64 in a buffer.
fn barrier_type(desc: &MemDesc) -> Rule {
    if type_name(desc.element) != "i64" || desc.shape != [1] {
        return Err("barrier allocation must be a descriptor of 1xi64 type".into());
    }
    Ok(())
}

fn barrier_operand(op: OperationRef, index: usize) -> Rule {
    memdesc(op, index).map_or(Ok(()), |d| barrier_type(&d))
}

/// How many CTAs split each dimension of a layout (Triton's
/// `getCTASplitNum`): per dimension, two to the number of `block` bases
/// along it.
fn cta_split(encoding: melior::ir::Attribute, rank: usize) -> Vec<u32> {
    if let Some(t) = TmemEncoding::read(encoding) {
        return t.cta_split().to_vec();
    }
    let block: Vec<Vec<i64>> = match Layout::read(encoding) {
        Some(
            Layout::Blocked { cga, .. }
            | Layout::NvidiaMma { cga, .. }
            | Layout::SwizzledShared { cga, .. }
            | Layout::NvmmaShared { cga, .. },
        ) => cga,
        Some(Layout::Linear { block, .. } | Layout::SharedLinear { block, .. }) => block,
        _ => Vec::new(),
    };
    let mut split = vec![1u32; rank];
    for basis in &block {
        if let Some(k) = basis.iter().position(|&v| v != 0) {
            if k < rank {
                split[k] *= 2;
            }
        }
    }
    split
}

fn is_nvmma_shared(encoding: melior::ir::Attribute) -> bool {
    matches!(Layout::read(encoding), Some(Layout::NvmmaShared { .. }))
}

fn is_shared_linear(encoding: melior::ir::Attribute) -> bool {
    matches!(Layout::read(encoding), Some(Layout::SharedLinear { .. }))
}

fn tmem_layout(encoding: melior::ir::Attribute) -> Option<TmemLayout> {
    TmemEncoding::read(encoding).and_then(|t| t.layout())
}

//===----------------------------------------------------------------------===//
// Hopper warp-group MMA
//===----------------------------------------------------------------------===//

/// The element type and encoding of a tensor or memory descriptor.
fn element_and_encoding(ty: Type) -> Option<(Type, Option<melior::ir::Attribute>)> {
    if let Some(t) = Tensor::of(ty) {
        return Some((t.element, t.encoding));
    }
    MemDesc::of(ty).map(|m| (m.element, Some(m.encoding)))
}

/// Triton's `WarpGroupDotOp::verify` (the shape rules of its
/// `DotOpInterface` are checked before, in `verify.rs`).
pub fn verify_warp_group_dot(op: OperationRef) -> Rule {
    let (Some((a_elem, a_enc)), Some((b_elem, b_enc)), Some(d)) = (
        operand_type(op, 0).and_then(element_and_encoding),
        operand_type(op, 1).and_then(element_and_encoding),
        result_type(op, 0).and_then(Tensor::of),
    ) else {
        return Ok(());
    };
    let d_layout = d.encoding.and_then(Layout::read);
    let cga = match &d_layout {
        Some(Layout::NvidiaMma {
            version_major: 3,
            cga,
            ..
        }) => cga.clone(),
        _ => return Err("WGMMA result layout must be Hopper NVMMA".into()),
    };
    let a_layout = a_enc.and_then(Layout::read);
    if !matches!(
        a_layout,
        Some(Layout::NvmmaShared { .. } | Layout::DotOperand { .. } | Layout::SharedLinear { .. })
    ) {
        return Err("WGMMA A operand must have NVMMA shared or dot layout".into());
    }
    if !matches!(
        b_enc.and_then(Layout::read),
        Some(Layout::NvmmaShared { .. } | Layout::SharedLinear { .. })
    ) {
        return Err("WGMMA B operand must have NVMMA shared layout".into());
    }
    if let Some(warps) = lookup_context(op).num_warps {
        if warps % 4 != 0 {
            return Err("WGMMA requires num_warps to be divisible by 4".into());
        }
    }
    if d.shape.len() != 2 {
        return Err("WGMMA result shape must be 2D".into());
    }
    let mut split = [1i64; 2];
    for basis in &cga {
        if let Some(k) = basis.iter().position(|&v| v != 0).filter(|&k| k < 2) {
            split[k] *= 2;
        }
    }
    let (m, n) = (d.shape[0] / split[0], d.shape[1] / split[1]);
    if m % 64 != 0 {
        return Err("WGMMA result M dimension must be divisible by 64".into());
    }
    if n % 8 != 0 {
        return Err("WGMMA result N dimension must be divisible by 8".into());
    }
    let supports_mma_v3 = |t: Type| {
        matches!(
            type_name(t).as_str(),
            "f8E5M2"
                | "f8E4M3FN"
                | "f8E5M2FNUZ"
                | "f8E4M3FNUZ"
                | "f16"
                | "bf16"
                | "f32"
                | "f64"
                | "i8"
        )
    };
    if !supports_mma_v3(a_elem) || !supports_mma_v3(b_elem) {
        return Err("unsupported MMA version for the given operands".into());
    }
    let imprecise = int_attr(op, "maxNumImpreciseAcc").unwrap_or(0);
    if imprecise < 32
        && matches!(type_name(a_elem).as_str(), "f8E5M2" | "f8E4M3FN")
        && type_name(d.element) == "f32"
    {
        return Err("Cannot use F32 as the accumulator element type when the max_num_imprecise_acc is less than 32".into());
    }
    if let Some(Layout::DotOperand { k_width, .. }) = a_layout {
        if operand_type(op, 0).and_then(Tensor::of).is_some() {
            let want = 32 / bit_width(a_elem).max(1);
            if k_width != want {
                return Err(format!(
                    "in-register LHS operand must have a kWidth of {want} but got {k_width}"
                ));
            }
        }
    }
    Ok(())
}

fn verify_warp_group_dot_wait(op: OperationRef) -> Rule {
    if op.operand_count() == 0 {
        return Err("expected to be waiting on at least one dependency".into());
    }
    Ok(())
}

//===----------------------------------------------------------------------===//
// mbarriers and TMA
//===----------------------------------------------------------------------===//

fn verify_arrive_barrier(op: OperationRef) -> Rule {
    barrier_operand(op, 0)?;
    if int_attr(op, "count").unwrap_or(1) < 1 {
        return Err("count must be greater than or equal to 1".into());
    }
    Ok(())
}

/// `desc, coord..., barrier, result, pred`.
fn verify_tma_load(op: OperationRef) -> Rule {
    let n = op.operand_count();
    if n < 4 {
        return Ok(());
    }
    barrier_operand(op, n - 3)?;
    let coords = n - 4;
    if !(1..=5).contains(&coords) {
        return Err("TMA copies must have between 1 and 5 coordinates".into());
    }
    let Some(result) = memdesc(op, n - 2) else {
        return Ok(());
    };
    if !result.mutable {
        return Err("Cannot store into immutable memory".into());
    }
    if !is_nvmma_shared(result.encoding) {
        return Err("TMA result must have NVMMA shared layout".into());
    }
    Ok(())
}

/// Triton's `DescriptorGatherOp::verifyResultType`, for a buffer of
/// `ty` (shape, element) gathered or scattered at the rows `indices`.
fn gather_result_type(buffer: &MemDesc, buffer_ty: Type, indices_ty: Type) -> Rule {
    let Some(indices) = Tensor::of(indices_ty) else {
        return Ok(());
    };
    if indices.rank() != 1 {
        return Err(format!(
            "x offsets must be a 1D tensor, but got {}",
            quoted(indices_ty)
        ));
    }
    if buffer.shape.len() != 2 {
        return Err(format!(
            "result must be a 2D tensor, but got {}",
            quoted(buffer_ty)
        ));
    }
    let rows = buffer.shape[0];
    if rows < 8 {
        return Err(format!("gather must have at least 8 rows, but got {rows}"));
    }
    let bits = bit_width(buffer.element);
    if bits > 32 {
        return Err("TMA dtype cannot be greater than 32 bits".into());
    }
    let min_cols = i64::from(32 / bits.max(1) * 8);
    let cols = buffer.shape[1];
    if cols < min_cols {
        return Err(format!(
            "gather of {} must have at least {min_cols} columns, but got {cols}",
            quoted(buffer.element)
        ));
    }
    if rows != indices.shape[0] {
        return Err(format!(
            "result tensor must have as many rows as indices ({}), but got {}",
            indices.shape[0],
            quoted(buffer_ty)
        ));
    }
    Ok(())
}

/// `desc, x_offsets, y_offset, barrier, result, pred`.
fn verify_tma_gather(op: OperationRef) -> Rule {
    barrier_operand(op, 3)?;
    let (Some(result_ty), Some(indices)) = (operand_type(op, 4), operand_type(op, 1)) else {
        return Ok(());
    };
    let Some(result) = MemDesc::of(result_ty) else {
        return Ok(());
    };
    if !result.mutable {
        return Err("cannot store into immutable memory".into());
    }
    gather_result_type(&result, result_ty, indices)
}

/// `desc, x_offsets, y_offset, src`.
fn verify_tma_scatter(op: OperationRef) -> Rule {
    let (Some(src_ty), Some(indices)) = (operand_type(op, 3), operand_type(op, 1)) else {
        return Ok(());
    };
    match MemDesc::of(src_ty) {
        Some(src) => gather_result_type(&src, src_ty, indices),
        None => Ok(()),
    }
}

fn verify_tensormap_create(op: OperationRef) -> Rule {
    let seg = segments(op);
    if seg.len() != 6 {
        return Ok(());
    }
    let (rank, global_dim, global_stride, element_stride) = (seg[2], seg[3], seg[4], seg[5]);
    // Triton reports these with `emitError`, without the op prefix.
    if global_dim != rank {
        return Err(format!(
            "{NO_OP_PREFIX}Rank mismatch for global dim. Got {global_dim} but expected {rank}"
        ));
    }
    if global_stride + 1 != rank {
        return Err(format!(
            "{NO_OP_PREFIX}Rank mismatch for global stride. Got {global_stride} but expected {}",
            rank - 1
        ));
    }
    if element_stride != rank {
        return Err(format!(
            "{NO_OP_PREFIX}Rank mismatch for element stride. Got {element_stride} but expected {rank}"
        ));
    }
    Ok(())
}

//===----------------------------------------------------------------------===//
// tcgen05 MMA
//===----------------------------------------------------------------------===//

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum MmaKind {
    Tf32,
    F16,
    F8F6F4,
}

impl MmaKind {
    fn text(self) -> &'static str {
        match self {
            MmaKind::Tf32 => "tf32",
            MmaKind::F16 => "f16",
            MmaKind::F8F6F4 => "f8f6f4",
        }
    }
}

/// The tcgen05 kind of an operand element type and the accumulator types
/// it allows (Triton's `getMMAv5DTypeKindAndAcc`; i8 stands for fp4).
fn mma_kind(ty: Type) -> Option<(MmaKind, &'static [&'static str])> {
    match type_name(ty).as_str() {
        "f32" => Some((MmaKind::Tf32, &["f32"])),
        "f16" => Some((MmaKind::F16, &["f16", "f32"])),
        "bf16" => Some((MmaKind::F16, &["f32"])),
        "f8E4M3FN" | "f8E5M2" | "i8" => Some((MmaKind::F8F6F4, &["f16", "f32"])),
        _ => None,
    }
}

/// Triton's `verifyMMADType`.
fn mma_dtypes(a: Type, b: Type, d: Type) -> Rule {
    let Some((a_kind, a_acc)) = mma_kind(a) else {
        return Err(format!("unsupported LHS operand dtype: {}", quoted(a)));
    };
    let Some((b_kind, b_acc)) = mma_kind(b) else {
        return Err(format!("unsupported RHS operand dtype: {}", quoted(b)));
    };
    if a_kind != b_kind {
        return Err(format!(
            "LHS and RHS operand dtypes kinds don't match: LHS kind is {} but RHS kind is {}",
            a_kind.text(),
            b_kind.text()
        ));
    }
    let d_name = type_name(d);
    if !a_acc.contains(&d_name.as_str()) || !b_acc.contains(&d_name.as_str()) {
        let allowed: Vec<String> = a_acc.iter().map(|t| format!("'{t}'")).collect();
        return Err(format!(
            "unsupported accumulator dtype for operand types {} and {}, accumulator dtype is {} but must be one of [{}]",
            quoted(a),
            quoted(b),
            quoted(d),
            allowed.join(", ")
        ));
    }
    Ok(())
}

/// Triton's `verifyDotOpInterface` with the `verifyDims` and
/// `verifyOutputDims` of the tcgen05 MMAs; `scaled` adds the scaled MMA's
/// rules for packed e2m1 operands.
fn mma_dims(op: OperationRef, a: &MemDesc, b: &MemDesc, d: &MemDesc, scaled: bool) -> Rule {
    let (ra, rb, rd) = (a.shape.len(), b.shape.len(), d.shape.len());
    if ra != 2 && ra != 3 {
        return Err("expected operands to be 2d or 3d".into());
    }
    if ra != rb || ra != rd {
        return Err("expected all operands to have the same rank".into());
    }
    let e2m1 = |name: &str| int_attr(op, name) == Some(4);
    // With e2m1 (two values a byte) the packed dimension counts double.
    let a_trans = scaled
        && matches!(
            Layout::read(a.encoding),
            Some(Layout::NvmmaShared {
                transposed: true,
                ..
            })
        );
    let b_trans = scaled
        && matches!(
            Layout::read(b.encoding),
            Some(Layout::NvmmaShared {
                transposed: false,
                ..
            })
        );
    let (a_packed, b_packed) = (scaled && e2m1("a_type"), scaled && e2m1("b_type"));
    let mut a_k = a.shape[ra - 1];
    let mut b_k = b.shape[ra - 2];
    if a_packed && !a_trans {
        a_k *= 2;
    }
    if b_packed && !b_trans {
        b_k *= 2;
    }
    if a_k != b_k {
        return Err("expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand".into());
    }
    if ra == 3 && (a.shape[0] != d.shape[0] || b.shape[0] != d.shape[0]) {
        return Err("expected the first dimension of the first operand to be equal to the first dimension of the result".into());
    }
    let mut a_m = a.shape[ra - 2];
    let mut b_n = b.shape[ra - 1];
    if a_packed && a_trans {
        a_m *= 2;
    }
    if b_packed && b_trans {
        b_n *= 2;
    }
    if d.shape[rd - 2] != a_m || d.shape[rd - 1] != b_n {
        return Err("expected the output shape to be the concatenation of the last dimension of the first operand and the last dimension of the second ".into());
    }
    Ok(())
}

/// `MMAv5OpInterface`'s verifier: blockM = 64 layouts with interleaved
/// blocks (128 rows) are not supported for both A and the accumulator.
fn mma_interleaving(a: &MemDesc, d: &MemDesc) -> Rule {
    let interleaved = |m: &MemDesc| {
        let Some(enc) = TmemEncoding::read(m.encoding) else {
            return false;
        };
        enc.layout().is_some_and(|l| l.block_m == 64)
            && tmem::alloc_rows(&enc, &m.shape).is_ok_and(|rows| rows != 64)
    };
    if interleaved(a) && interleaved(d) {
        return Err("does not support blockM=64 with interleaved blocks in TMEM layout".into());
    }
    Ok(())
}

fn verify_mma(op: OperationRef, scaled: bool) -> Rule {
    let (Some(a), Some(b), Some(d)) = (memdesc(op, 0), memdesc(op, 1), memdesc(op, 2)) else {
        return Ok(());
    };
    mma_dims(op, &a, &b, &d, scaled)?;
    mma_interleaving(&a, &d)?;
    if scaled {
        return mma_dtypes(a.element, b.element, d.element);
    }
    let barriers = segments(op).get(6).copied().unwrap_or(0);
    if !has_unit(op, "is_async") && barriers > 0 {
        return Err("The op is synchronous but a barrier is present.".into());
    }
    mma_dtypes(a.element, b.element, d.element)?;
    let a_tmem = tmem_layout(a.encoding);
    if !(is_nvmma_shared(a.encoding) || is_shared_linear(a.encoding) || a_tmem.is_some()) {
        return Err("LHS operand must have a NVMMAShared or TensorMemory encoding".into());
    }
    if !(is_nvmma_shared(b.encoding) || is_shared_linear(b.encoding)) {
        return Err("RHS operand must have a NVMMAShared encoding".into());
    }
    let Some(ret) = tmem_layout(d.encoding) else {
        return Err("Return operand must have a TensorMemory encoding".into());
    };
    if a_tmem.is_some_and(|l| l.col_stride != 1) {
        return Err("The col stride of the LHS operand must be 1".into());
    }
    let bits = bit_width(d.element);
    if bits == 0 || ret.col_stride != 32 / bits {
        return Err(format!(
            "The col stride of the return operand must be 32 / {bits} but got {}",
            ret.col_stride
        ));
    }
    if has_unit(op, "two_ctas") {
        let check = |m: &MemDesc, name: &str, expected: [u32; 2]| -> Rule {
            let split = cta_split(m.encoding, m.shape.len());
            if split != expected {
                return Err(format!(
                    "The op is two CTAs but the split num of the {name} is not {}. Got {}",
                    list(&expected),
                    list(&split)
                ));
            }
            Ok(())
        };
        check(&a, "LHS", [2, 1])?;
        check(&b, "RHS", [1, 2])?;
        check(&d, "returned value", [2, 1])?;
        if !ret.two_ctas {
            return Err(
                "The returned value's encoding must have twoCTA=true to be used in a twoCTA matmul"
                    .into(),
            );
        }
        if a_tmem.is_some_and(|l| !l.two_ctas) {
            return Err(
                "The LHS operand's encoding must have twoCTA=true to be used in a twoCTA matmul"
                    .into(),
            );
        }
    }
    Ok(())
}

//===----------------------------------------------------------------------===//
// Tensor memory
//===----------------------------------------------------------------------===//

/// Triton's `verifyTMEMOperand`: the register side of a tensor-memory
/// access is 2-D. (Whether its distributed layout maps onto a tcgen05.ld/st
/// message is not checked here.)
fn tmem_operand(tensor: &Tensor, what: &str) -> Rule {
    if tensor.rank() != 2 {
        return Err(format!("{what} must be a 2D tensor"));
    }
    Ok(())
}

/// Triton's `verifyMemoryOpTypes` between a tensor and a buffer, in the
/// direction of the copy.
fn memory_op_types(
    src_ty: Type,
    src_shape: &[i64],
    src_elem: Type,
    dst_shape: &[i64],
    dst_elem: Type,
) -> Rule {
    if src_elem != dst_elem {
        return Err(format!(
            "source element type {} must match destination element type {}",
            quoted(src_ty),
            quoted(dst_elem)
        ));
    }
    if src_shape != dst_shape {
        return Err(format!(
            "source shape [{}] must match [destination shape {}]",
            list(src_shape),
            list(dst_shape)
        ));
    }
    Ok(())
}

fn verify_tmem_load(op: OperationRef) -> Rule {
    let (Some(src_ty), Some(dst_ty)) = (operand_type(op, 0), result_type(op, 0)) else {
        return Ok(());
    };
    let (Some(src), Some(dst)) = (MemDesc::of(src_ty), Tensor::of(dst_ty)) else {
        return Ok(());
    };
    if memory_space(src.memory_space) != Some(MemorySpace::Tensor) {
        return Err("source must be a tensor memory buffer.".into());
    }
    if tmem_layout(src.encoding).is_none() {
        return Err("should use tensor memory encoding.".into());
    }
    tmem_operand(&dst, "result")?;
    memory_op_types(src_ty, &src.shape, src.element, &dst.shape, dst.element)
}

/// `dst, dep?, src, pred`: the tensor is the second-to-last operand.
fn verify_tmem_store(op: OperationRef) -> Rule {
    let n = op.operand_count();
    let (Some(dst), Some(src_ty)) = (
        memdesc(op, 0),
        n.checked_sub(2).and_then(|i| operand_type(op, i)),
    ) else {
        return Ok(());
    };
    let Some(src) = Tensor::of(src_ty) else {
        return Ok(());
    };
    if TmemEncoding::read(dst.encoding).is_none() {
        return Err("should use tensor memory encoding.".into());
    }
    if !dst.mutable {
        return Err("Cannot store into an immutable alloc".into());
    }
    tmem_operand(&src, "source")?;
    memory_op_types(src_ty, &src.shape, src.element, &dst.shape, dst.element)
}

fn verify_tmem_alloc(op: OperationRef) -> Rule {
    let Some(dst) = result_type(op, 0).and_then(MemDesc::of) else {
        return Ok(());
    };
    if TmemEncoding::read(dst.encoding).is_none() {
        return Err("should use tensor memory encoding".into());
    }
    let src_ty = operand_type(op, 0);
    let src = src_ty.and_then(Tensor::of);
    if let Some(src) = &src {
        tmem_operand(src, "source")?;
    }
    // Triton's `verifyAllocOp`.
    if dst.shape != dst.alloc_shape {
        return Err("result shape and its alloc shape must match".into());
    }
    match (src_ty, src) {
        (Some(ty), Some(src)) => {
            memory_op_types(ty, &src.shape, src.element, &dst.shape, dst.element)
        }
        _ if !dst.mutable => Err("uninitialized alloc must have a mutable memdesc type".into()),
        _ => Ok(()),
    }
}

/// Triton's `SharedEncodingTrait::getAlignment`.
fn shared_alignment(layout: &Layout) -> u32 {
    match layout {
        Layout::NvmmaShared {
            swizzling_byte_width,
            ..
        } => {
            128 * if *swizzling_byte_width == 0 {
                1
            } else {
                swizzling_byte_width / 16
            }
        }
        Layout::SharedLinear { alignment, .. } => *alignment,
        _ => 16,
    }
}

/// `src, dst, barrier?`.
fn verify_tmem_copy(op: OperationRef) -> Rule {
    let (Some(src), Some(dst)) = (memdesc(op, 0), memdesc(op, 1)) else {
        return Ok(());
    };
    if memory_space(src.memory_space) != Some(MemorySpace::Shared) {
        return Err("The source must be a shared memory buffer".into());
    }
    if src.shape != dst.shape {
        return Err(format!(
            "source shape {} must match destination shape {}",
            list(&src.shape),
            list(&dst.shape)
        ));
    }
    if let Some(barrier) = memdesc(op, 2) {
        if memory_space(barrier.memory_space) != Some(MemorySpace::Shared) {
            return Err("The optional barrier should be a shared memory buffer".into());
        }
    }
    if !dst.mutable {
        return Err("Cannot copy into an immutable alloc".into());
    }
    let src_layout = Layout::read(src.encoding);
    if let Some(layout) = &src_layout {
        if shared_alignment(layout) < 16 {
            return Err("Source must have at least 16-byte alignment to be representable in a matrix descriptor.".into());
        }
    }
    if lookup_context(op).num_ctas != 1 {
        return Err("NYI: Only one CTA is supported for now.".into());
    }
    let nvmma = match src_layout {
        Some(Layout::NvmmaShared {
            swizzling_byte_width,
            transposed,
            fp4_padded,
            ..
        }) => Some((swizzling_byte_width, transposed, fp4_padded)),
        _ => None,
    };
    if nvmma.is_some_and(|(_, transposed, padded)| transposed || padded) {
        return Err("The source should not be transposed or padded".into());
    }
    match TmemEncoding::read(dst.encoding) {
        Some(TmemEncoding::Scales { .. }) => {
            if nvmma.is_some_and(|(swizzle, ..)| swizzle != 0) {
                return Err("The source should not be swizzled for now".into());
            }
        }
        other => {
            let Some(TmemEncoding::Tensor(l)) = other else {
                return Err("Incorrect tmem layout.".into());
            };
            if l.block_m != 128 {
                // Triton's message, typo included.
                return Err("Tmem layout ahouls have M=128.".into());
            }
            if nvmma.is_some_and(|(swizzle, ..)| swizzle == 0) {
                return Err("Source layout should be swizzled.".into());
            }
            if bit_width(src.element) != 32 {
                return Err("Source element type should be 32-bit.".into());
            }
        }
    }
    Ok(())
}

fn verify_tmem_subslice(op: OperationRef) -> Rule {
    let (Some(src), Some(dst)) = (memdesc(op, 0), result_type(op, 0).and_then(MemDesc::of)) else {
        return Ok(());
    };
    let Some(s) = tmem_layout(src.encoding) else {
        return Err("The source must be a tensor memory buffer.".into());
    };
    if s.block_m != 64 && s.block_m != 128 {
        return Err(format!(
            "The source tensor memory descriptor must have a 128xN or 64xN layout, got block_m={}",
            s.block_m
        ));
    }
    let Some(d) = tmem_layout(dst.encoding) else {
        return Err("The destination must be a tensor memory buffer.".into());
    };
    if d.block_m != s.block_m
        || d.cta_split_m != s.cta_split_m
        || d.cta_split_n != s.cta_split_n
        || d.col_stride != s.col_stride
    {
        return Err(
            "The destination must have the same block size and CTASplit size as the source.".into(),
        );
    }
    Ok(())
}
