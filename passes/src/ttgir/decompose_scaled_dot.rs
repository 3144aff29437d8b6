//! `tt.dot_scaled` as a plain `tt.dot` on upscaled operands (Triton's
//! `DecomposeScaledBlocked`, what `tritongpu-accelerate-matmul` does to a
//! scaled dot before sm_100, whose MMAs take no scales): each operand is
//! converted to the compute type (bf16, or f16 where either side is f16):
//! fp4 (`e2m1`, two values a byte) through `ttg.fp4_to_fp` along its packed
//! dimension, fp8 through `tt.fp_to_fp`; where it has a scale (one e8m0 byte
//! per `K / scale_k` values along K), the scale becomes a power of two of the
//! compute type (its byte shifted into the exponent), is broadcast along K
//! to the operand's shape (expand, broadcast, move the new dimension next
//! to K, reshape), and multiplies the operand; a scale of 0xFF gives NaN
//! unless `fastMath`. The operands then convert to dot operands of the
//! result's layout, the dot keeps the accumulator, and a convert gives the
//! scaled dot's own type. The ops take the layouts Triton infers for them
//! (`ttg.fp4_to_fp`, `tt.trans`, `tt.reshape`; the expansion in Triton's
//! default blocked layout); the rest of the pass then turns the `tt.dot`
//! into an MMA as any other.
//!
//! A scaled dot whose only scale is B's is first transposed (Triton's
//! `transposeDots`): `dot_scaled(A, B, C) = trans(dot_scaled(Bᵀ, Aᵀ, Cᵀ))`,
//! so the scaled operand is A.
//!
//! Refused with a located error: float scales, fp6 operands (`e2m3`,
//! `e3m2`), batched (rank-3) scaled dots and fp4 operands packed along M
//! or N (the same algorithm, not yet run on a GPU here).

use melior::ir::r#type::TypeLike;
use mlir_sys::{MlirLocation, MlirOperation, MlirType, MlirValue};
use ttg_dialect::layout::Layout;

use crate::ttgir::convert_triton_to_tritongpu::Blocked;
use crate::ttgir::infer_layout;
use crate::ttir::loop_support::ir;

/// Triton's `ScaleDotElemType` values.
const E4M3: i64 = 0;
const E5M2: i64 = 1;
const E2M1: i64 = 4;
const BF16: i64 = 5;
const FP16: i64 = 6;

/// A ranked tensor value's shape, element type and encoding text.
struct Tensor {
    shape: Vec<i64>,
    element: MlirType,
    encoding: String,
}

fn tensor(v: MlirValue) -> Result<Tensor, String> {
    // SAFETY: a live value's type, read during the call.
    let ty = unsafe { melior::ir::Type::from_raw(ir::value_type(v)) };
    let view = tt_dialect::types::TensorView::of(ty)
        .ok_or("a tt.dot_scaled operand that is not a tensor")?;
    let encoding = view
        .encoding
        .map(|e| e.to_string())
        .ok_or("a tt.dot_scaled operand without a layout")?;
    Ok(Tensor {
        shape: view.shape.to_vec(),
        element: view.element.to_raw(),
        encoding,
    })
}

fn layout_of(text: &str, ctx: mlir_sys::MlirContext) -> Result<Layout, String> {
    let attr = ir::parse_attribute(ctx, text).ok_or("a layout that does not parse")?;
    // SAFETY: an attribute of the live context just parsed.
    Layout::read(unsafe { melior::ir::Attribute::from_raw(attr) })
        .ok_or_else(|| format!("a layout this pass cannot read: {text}"))
}

/// The builder of the replacement ops, each inserted before the scaled dot.
struct Builder {
    dot: MlirOperation,
    location: MlirLocation,
    ctx: mlir_sys::MlirContext,
}

impl Builder {
    fn ty(&self, shape: &[i64], element: &str, encoding: &str) -> Result<MlirType, String> {
        let dims: String = shape.iter().map(|d| format!("{d}x")).collect();
        let text = format!("tensor<{dims}{element}, {encoding}>");
        ir::parse_type(self.ctx, &text).ok_or_else(|| format!("a type that does not parse: {text}"))
    }

    fn op(
        &self,
        name: &str,
        operands: &[MlirValue],
        result: MlirType,
        attributes: &[(&str, mlir_sys::MlirAttribute)],
    ) -> MlirValue {
        ir::result(
            ir::build_op(
                self.dot,
                name,
                operands,
                &[result],
                attributes,
                self.location,
            ),
            0,
        )
    }

    fn attr(&self, text: &str) -> Result<mlir_sys::MlirAttribute, String> {
        ir::parse_attribute(self.ctx, text)
            .ok_or_else(|| format!("an attribute that does not parse: {text}"))
    }

    /// `arith.constant dense<value>` of type `ty`.
    fn splat(&self, value: &str, ty: MlirType) -> Result<MlirValue, String> {
        let attr = self.attr(&format!("dense<{value}> : {}", type_text(ty)))?;
        Ok(self.op("arith.constant", &[], ty, &[("value", attr)]))
    }

    fn convert(&self, v: MlirValue, to: MlirType) -> MlirValue {
        if ir::same_type(ir::value_type(v), to) {
            return v;
        }
        self.op("ttg.convert_layout", &[v], to, &[])
    }

    fn i32_attr(&self, value: i64) -> mlir_sys::MlirAttribute {
        ir::integer_attr(ir::i32_type(self.ctx), value)
    }
}

fn type_text(ty: MlirType) -> String {
    // SAFETY: a live type, printed during the call.
    unsafe { melior::ir::Type::from_raw(ty) }.to_string()
}

/// Triton's `transposeDots` for one scaled dot whose only scale is B's:
/// the dot of the transposed operands, swapped, transposed back; returns
/// the new scaled dot (or `dot` itself where it has another shape).
pub fn transpose_rhs_scaled(dot: MlirOperation) -> Result<MlirOperation, String> {
    let sizes: Vec<i32> = ir::attribute(dot, "operandSegmentSizes")
        .and_then(ir::dense_i32_array)
        .ok_or("a tt.dot_scaled without operand segments")?;
    if sizes[..] != [1, 1, 1, 0, 1] {
        return Ok(dot);
    }
    let b = Builder {
        dot,
        location: ir::location(dot),
        ctx: ir::context(dot),
    };
    let transpose = |v: MlirValue| -> Result<MlirValue, String> {
        let t = tensor(v)?;
        if t.shape.len() != 2 {
            return Err("a tt.dot_scaled of rank other than 2 whose only scale is B's".into());
        }
        let encoding =
            infer_layout::infer_trans(&layout_of(&t.encoding, b.ctx)?, &t.shape, &[1, 0])
                .ok_or("no layout for a transposed tt.dot_scaled operand")?;
        let ty = b.ty(&[t.shape[1], t.shape[0]], &type_text(t.element), &encoding)?;
        Ok(b.op(
            "tt.trans",
            &[v],
            ty,
            &[("order", ir::dense_i32_array_attr(b.ctx, &[1, 0]))],
        ))
    };
    let lhs = transpose(ir::operand(dot, 0))?;
    let rhs = transpose(ir::operand(dot, 1))?;
    let c = transpose(ir::operand(dot, 2))?;
    let scale = ir::operand(dot, 3);
    let attr = |name: &str| {
        ir::attribute(dot, name).ok_or_else(|| format!("a tt.dot_scaled without '{name}'"))
    };
    let segments = b.attr("array<i32: 1, 1, 1, 1, 0>")?;
    let new = ir::build_op(
        dot,
        "tt.dot_scaled",
        &[rhs, lhs, c, scale],
        &[ir::value_type(c)],
        &[
            ("a_elem_type", attr("b_elem_type")?),
            ("b_elem_type", attr("a_elem_type")?),
            ("fastMath", attr("fastMath")?),
            ("operandSegmentSizes", segments),
        ],
        b.location,
    );
    let result = ir::result(dot, 0);
    let back = b.op(
        "tt.trans",
        &[ir::result(new, 0)],
        ir::value_type(result),
        &[("order", ir::dense_i32_array_attr(b.ctx, &[1, 0]))],
    );
    ir::replace_all_uses(result, back);
    ir::erase(dot);
    Ok(new)
}

/// Marks, until accelerate-matmul has placed its operands, a `tt.dot` that
/// [`decompose`] made: Triton stores a shared-memory operand of such a dot
/// from the scaled dot's operand itself, where for other dots it looks
/// through every layout conversion.
pub const FROM_SCALED: &str = "triton_rs.from_scaled_dot";

/// Replaces the `tt.dot_scaled` `dot` (its result in a blocked layout) by
/// the decomposition, for `num_warps` warps of `threads_per_warp`.
pub fn decompose(dot: MlirOperation, num_warps: u32, threads_per_warp: u32) -> Result<(), String> {
    let b = Builder {
        dot,
        location: ir::location(dot),
        ctx: ir::context(dot),
    };
    let sizes: Vec<i32> = ir::attribute(dot, "operandSegmentSizes")
        .and_then(ir::dense_i32_array)
        .ok_or("a tt.dot_scaled without operand segments")?;
    let [1, 1, 1, a_scales, b_scales] = sizes[..] else {
        return Err("a tt.dot_scaled with unexpected operand segments".into());
    };
    let a_scale = (a_scales == 1).then(|| ir::operand(dot, 3));
    let b_scale = (b_scales == 1).then(|| ir::operand(dot, 3 + a_scales as usize));
    let kind = |name: &str| {
        ir::attribute(dot, name)
            .and_then(ir::integer_attr_value)
            .unwrap_or(-1)
    };
    let flag = |name: &str, default: bool| {
        ir::attribute(dot, name)
            .map(|a| unsafe { mlir_sys::mlirBoolAttrGetValue(a) })
            .unwrap_or(default)
    };
    let kinds = [kind("a_elem_type"), kind("b_elem_type")];
    for k in kinds {
        if ![E4M3, E5M2, E2M1, BF16, FP16].contains(&k) {
            return Err("a tt.dot_scaled operand of an fp6 type (e2m3, e3m2)".into());
        }
    }
    let compute = if kinds.contains(&FP16) { "f16" } else { "bf16" };
    let result = ir::result(dot, 0);
    let out = tensor(result)?;
    let rank = out.shape.len();
    // Batched (rank-3) scaled dots and fp4 packed along M or N follow the
    // same algorithm but have not been run on a GPU here: refused until
    // they are.
    if rank != 2 {
        return Err("a batched (rank-3) tt.dot_scaled".into());
    }
    let fast_math = flag("fastMath", false);
    let k_pack = [flag("lhs_k_pack", true), flag("rhs_k_pack", true)];
    if kinds
        .iter()
        .zip(k_pack)
        .any(|(&k, packed_along_k)| k == E2M1 && !packed_along_k)
    {
        return Err("a tt.dot_scaled whose fp4 operand is packed along M or N".into());
    }
    // The scale factor: values of K per scale.
    let a = tensor(ir::operand(dot, 0))?;
    if a.shape.len() != rank || tensor(ir::operand(dot, 1))?.shape.len() != rank {
        return Err("a tt.dot_scaled whose operands are not of its rank".into());
    }
    let k = if kinds[0] == E2M1 && k_pack[0] {
        2 * a.shape[rank - 1]
    } else {
        a.shape[rank - 1]
    };
    let scale_k = match a_scale.or(b_scale).map(tensor).transpose()? {
        Some(s) if s.shape.len() == rank => s.shape[rank - 1],
        Some(_) => return Err("a tt.dot_scaled whose scales are not of its rank".into()),
        None => 1,
    };
    if scale_k <= 0 || k % scale_k != 0 {
        return Err("a tt.dot_scaled whose K is not a multiple of its scales'".into());
    }
    let factor = k / scale_k;
    let mut operands = Vec::new();
    for (idx, scale) in [(0usize, a_scale), (1, b_scale)] {
        let v = scaled_operand(
            &b,
            idx,
            kinds[idx],
            k_pack[idx],
            scale,
            compute,
            factor,
            fast_math,
            rank,
            num_warps,
            threads_per_warp,
        )?;
        // A dot operand of the result's (blocked) layout.
        let t = tensor(v)?;
        let encoding = format!("#ttg.dot_op<{{opIdx = {idx}, parent = {}}}>", out.encoding);
        let ty = b.ty(&t.shape, compute, &encoding)?;
        operands.push(b.convert(v, ty));
    }
    let c = ir::operand(dot, 2);
    let new = b.op(
        "tt.dot",
        &[operands[0], operands[1], c],
        ir::value_type(result),
        &[],
    );
    if let Some(new_dot) = ir::defining_op(new) {
        // SAFETY: a unit attribute of the dot's own context.
        let unit = unsafe { mlir_sys::mlirUnitAttrGet(ir::context(new_dot)) };
        ir::set_attribute(new_dot, FROM_SCALED, unit);
    }
    let converted = b.op("ttg.convert_layout", &[new], ir::value_type(result), &[]);
    ir::replace_all_uses(result, converted);
    ir::erase(dot);
    Ok(())
}

/// Operand `idx` of the scaled dot in the compute type, scaled.
#[allow(clippy::too_many_arguments)]
fn scaled_operand(
    b: &Builder,
    idx: usize,
    kind: i64,
    k_pack: bool,
    scale: Option<MlirValue>,
    compute: &str,
    factor: i64,
    fast_math: bool,
    rank: usize,
    num_warps: u32,
    threads_per_warp: u32,
) -> Result<MlirValue, String> {
    let v = ir::operand(b.dot, idx);
    let t = tensor(v)?;
    let k_dim = if idx == 0 { rank - 1 } else { rank - 2 };
    // 0) Upcast to the compute type.
    let v = if kind == E2M1 {
        let packed = if k_pack {
            k_dim
        } else if idx == 0 {
            rank - 2
        } else {
            rank - 1
        };
        let mut shape = t.shape.clone();
        shape[packed] *= 2;
        let encoding =
            infer_layout::infer_fp4_to_fp(&layout_of(&t.encoding, b.ctx)?, &t.shape, packed, true)
                .ok_or("no layout for the unpacked fp4 operand")?;
        let ty = b.ty(&shape, compute, &encoding)?;
        b.op(
            "ttg.fp4_to_fp",
            &[v],
            ty,
            &[("axis", b.i32_attr(packed as i64))],
        )
    } else if type_text(t.element) == compute {
        v
    } else {
        let ty = b.ty(&t.shape, compute, &t.encoding)?;
        b.op("tt.fp_to_fp", &[v], ty, &[])
    };
    let Some(mut scale) = scale else {
        return Ok(v);
    };
    let vt = tensor(v)?;
    let st = tensor(scale)?;
    if type_text(st.element) != "i8" {
        return Err("a tt.dot_scaled with float scales".into());
    }
    // B's scale comes as [N, K / factor], as A's: transposed first.
    if idx == 1 {
        let mut order: Vec<u32> = (0..rank as u32 - 2).collect();
        order.extend([rank as u32 - 1, rank as u32 - 2]);
        let encoding =
            infer_layout::infer_trans(&layout_of(&st.encoding, b.ctx)?, &st.shape, &order)
                .ok_or("no layout for the transposed scale")?;
        let mut shape = st.shape.clone();
        shape.swap(rank - 1, rank - 2);
        let ty = b.ty(&shape, "i8", &encoding)?;
        let order: Vec<i32> = order.iter().map(|&d| d as i32).collect();
        scale = b.op(
            "tt.trans",
            &[scale],
            ty,
            &[("order", ir::dense_i32_array_attr(b.ctx, &order))],
        );
    }
    let st = tensor(scale)?;
    // 1) The scale as a power of two of the compute type: its byte in the
    //    exponent of a bf16, or of an f32 truncated to f16.
    let (int, wide, shift) = if compute == "f16" {
        ("i32", "f32", 23)
    } else {
        ("i16", "bf16", 7)
    };
    let int_ty = b.ty(&st.shape, int, &st.encoding)?;
    let extended = b.op("arith.extui", &[scale], int_ty, &[]);
    let amount = b.splat(&shift.to_string(), int_ty)?;
    let shifted = b.op("arith.shli", &[extended, amount], int_ty, &[]);
    let wide_ty = b.ty(&st.shape, wide, &st.encoding)?;
    let mut scale16 = b.op("tt.bitcast", &[shifted], wide_ty, &[]);
    if wide != compute {
        let ty = b.ty(&st.shape, compute, &st.encoding)?;
        scale16 = b.op("arith.truncf", &[scale16], ty, &[]);
    }
    // 2) Broadcast to the operand's shape, in its layout, and multiply.
    let broadcast = broadcast_scale(b, scale16, k_dim, factor, num_warps, threads_per_warp)?;
    let broadcast = b.convert(broadcast, ir::value_type(v));
    let mut mxfp = b.op("arith.mulf", &[v, broadcast], ir::value_type(v), &[]);
    // 3) A scale of 0xFF is NaN.
    if !fast_math {
        let i8_ty = b.ty(&st.shape, "i8", &st.encoding)?;
        let all_ones = b.splat("-1", i8_ty)?;
        let i1_ty = b.ty(&st.shape, "i1", &st.encoding)?;
        let is_nan = b.op(
            "arith.cmpi",
            &[scale, all_ones],
            i1_ty,
            &[(
                "predicate",
                ir::integer_attr(ir::i64_type(b.ctx), ir::cmpi::EQ),
            )],
        );
        let cond = broadcast_scale(b, is_nan, k_dim, factor, num_warps, threads_per_warp)?;
        let cond_ty = b.ty(&vt.shape, "i1", &vt.encoding)?;
        let cond = b.convert(cond, cond_ty);
        let nan = if compute == "f16" { "0x7E00" } else { "0x7FC0" };
        let nan = b.splat(nan, ir::value_type(v))?;
        mxfp = b.op("arith.select", &[cond, nan, mxfp], ir::value_type(v), &[]);
    }
    Ok(mxfp)
}

/// `scale` ([..., K / factor] along `dim`) repeated `factor` times along
/// `dim`: expanded in Triton's default blocked layout, broadcast, the new
/// dimension moved next to `dim`, reshaped.
fn broadcast_scale(
    b: &Builder,
    scale: MlirValue,
    dim: usize,
    factor: i64,
    num_warps: u32,
    threads_per_warp: u32,
) -> Result<MlirValue, String> {
    let t = tensor(scale)?;
    let element = type_text(t.element);
    let rank = t.shape.len();
    let mut shape = t.shape.clone();
    shape.push(1);
    let blocked = Blocked::default_for(&shape, num_warps, threads_per_warp).text();
    let slice = format!("#ttg.slice<{{dim = {rank}, parent = {blocked}}}>");
    let scale = b.convert(scale, b.ty(&t.shape, &element, &slice)?);
    let expanded = b.op(
        "tt.expand_dims",
        &[scale],
        b.ty(&shape, &element, &blocked)?,
        &[("axis", b.i32_attr(rank as i64))],
    );
    shape[rank] = factor;
    let mut current = b.op(
        "tt.broadcast",
        &[expanded],
        b.ty(&shape, &element, &blocked)?,
        &[],
    );
    let mut encoding = blocked;
    // The new dimension goes right after `dim`.
    let mut order: Vec<u32> = (0..rank as u32).collect();
    order.insert(dim + 1, rank as u32);
    if order.iter().enumerate().any(|(i, &d)| i as u32 != d) {
        encoding = infer_layout::infer_trans(&layout_of(&encoding, b.ctx)?, &shape, &order)
            .ok_or("no layout for the moved scale dimension")?;
        let moved: Vec<i64> = order.iter().map(|&d| shape[d as usize]).collect();
        let order: Vec<i32> = order.iter().map(|&d| d as i32).collect();
        current = b.op(
            "tt.trans",
            &[current],
            b.ty(&moved, &element, &encoding)?,
            &[("order", ir::dense_i32_array_attr(b.ctx, &order))],
        );
        shape = moved;
    }
    let mut target = t.shape.clone();
    target[dim] *= factor;
    let reshaped = infer_layout::infer_reshape(&shape, &layout_of(&encoding, b.ctx)?, &target)
        .ok_or("no layout for the reshaped scale")?;
    Ok(b.op(
        "tt.reshape",
        &[current],
        b.ty(&target, &element, &reshaped)?,
        &[],
    ))
}
