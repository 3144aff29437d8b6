//! Ops that only rearrange or index values: program ids, `splat`,
//! `unsplat`, `make_range`, `broadcast`, `expand_dims`, `trans`, `reshape`,
//! `join`, `split`, `cat`, and pointer arithmetic.
//!
//! The rearranging ops keep every element in the thread that holds it:
//! their result layouts are the operand layouts with the dimensions
//! relabelled, which each lowering checks on the linear layouts (the lane
//! and warp bases must correspond) before it picks, for every result
//! register, the operand register holding its element. Layouts that would
//! move elements between threads are refused.

use std::collections::HashMap;

use melior::ir::{operation::OperationLike, operation::OperationRef, Type, Value, ValueLike};
use tt_dialect::ir as ttir;

use super::{operand, pointee_type, result, Distributed, Emitter, LowerResult, Lowering};

/// `tt.get_program_id` / `tt.get_num_programs`: `ctaid` / `nctaid`, or,
/// with clusters of several CTAs (which then share a program), `clusterid`
/// / `nclusterid`.
pub fn program_id<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    name: &str,
) -> LowerResult {
    let axis = ttir::inherent_attribute(op, "axis")
        .and_then(ttir::int_value)
        .map(|(v, _)| v)
        .ok_or("the axis attribute is missing")?;
    let axis = ["x", "y", "z"]
        .get(axis as usize)
        .ok_or_else(|| format!("bad axis {axis}"))?;
    let register = match (name == "tt.get_program_id", lw.num_ctas > 1) {
        (true, false) => "ctaid",
        (false, false) => "nctaid",
        (true, true) => "clusterid",
        (false, true) => "nclusterid",
    };
    let v = emit.special_register(&format!("{register}.{axis}"));
    lw.set(result(op), vec![v]);
    Ok(())
}

/// `tt.splat`: every register holds the scalar.
pub fn splat<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    _emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let value = lw.scalar(operand(op, 0)?)?;
    let n = lw.distributed(result(op).r#type())?.len();
    lw.set(result(op), vec![value; n]);
    Ok(())
}

/// `tt.make_range`: `start` plus each element's coordinate. The add stays
/// when `start` is 0, as in Triton's lowering, whose lit tests count it
/// (LLVM folds it away).
pub fn make_range<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let start = ttir::inherent_attribute(op, "start")
        .and_then(ttir::int_value)
        .map_or(0, |(v, _)| v);
    let ty = result(op).r#type();
    let coordinates = lw.coordinates(emit, ty)?;
    // In a cluster whose CTAs split the range, each CTA's part starts at
    // its offset (above the part's own bits: the XOR adds it).
    let dist = lw.distributed(ty)?;
    let cta = lw.cta_offsets(emit, &dist);
    let values = coordinates
        .into_iter()
        .map(|c| {
            let index = cta.as_ref().map_or(c[0], |o| emit.xor(c[0], o[0]));
            emit.add(index, emit.i32(start))
        })
        .collect();
    lw.set(result(op), values);
    Ok(())
}

/// Picks, for every register of `dst`, the register of `src` holding the
/// element at `to_src(coordinates)`. The thread parts of the two layouts
/// must agree on the dimensions kept, which holds for the layouts these
/// ops relate (a layout and its slice, or one layout on both sides).
pub(super) fn register_map(
    src: &Distributed,
    dst: &Distributed,
    to_src: impl Fn(&[i32]) -> Vec<i32>,
) -> Result<Vec<usize>, String> {
    let mut by_coordinate: HashMap<&[i32], usize> = HashMap::new();
    for (r, c) in src.registers.iter().enumerate() {
        by_coordinate.entry(c.as_slice()).or_insert(r);
    }
    dst.registers
        .iter()
        .map(|c| {
            let wanted = to_src(c);
            by_coordinate
                .get(wanted.as_slice())
                .copied()
                .ok_or_else(|| {
                    "the operand's layout does not hold the needed elements in this thread \
                 (a layout conversion through shared memory would be needed)"
                        .to_owned()
                })
        })
        .collect()
}

/// Whether the lane and warp parts of two layouts, and the parts the CTAs
/// of a cluster hold, place the kept dimensions alike.
pub(super) fn same_thread_parts(
    src: &Distributed,
    dst: &Distributed,
    to_src: impl Fn(&[i32]) -> Vec<i32>,
) -> bool {
    let alike = |a: &[Vec<i32>], b: &[Vec<i32>]| {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| *x == to_src(y))
    };
    ["lane", "warp"]
        .iter()
        .all(|in_dim| alike(src.layout.bases(in_dim), dst.layout.bases(in_dim)))
        && alike(&src.block, &dst.block)
}

/// `tt.broadcast` and `tt.expand_dims`: registers of the result pick the
/// operand's registers.
pub fn remap<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    _emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let src_value = operand(op, 0)?;
    let src = lw.distributed(src_value.r#type())?;
    let dst = lw.distributed(result(op).r#type())?;
    let values = lw.get(src_value)?;
    let name = op.name();
    let is_expand = name.as_string_ref().as_str() == Ok("tt.expand_dims");
    let axis = if is_expand { super::axis(op)? } else { 0 };
    let src_shape = src.shape.clone();
    let to_src = move |c: &[i32]| -> Vec<i32> {
        if is_expand {
            c.iter()
                .enumerate()
                .filter(|(d, _)| *d != axis)
                .map(|(_, &x)| x)
                .collect()
        } else {
            c.iter()
                .zip(&src_shape)
                .map(|(&x, &n)| if n == 1 { 0 } else { x })
                .collect()
        }
    };
    if !same_thread_parts(&src, &dst, &to_src) {
        return Err("the operand and result layouts distribute threads differently".into());
    }
    let map = register_map(&src, &dst, to_src)?;
    lw.set(result(op), map.into_iter().map(|r| values[r]).collect());
    Ok(())
}

/// The operand registers that give `dst`'s registers, when `to_src` (a
/// relabelling of coordinates, linear over their bits) maps `dst`'s lane
/// and warp bases onto `src`'s.
fn relabel(
    src: &Distributed,
    dst: &Distributed,
    to_src: impl Fn(&[i32]) -> Vec<i32>,
) -> Result<Vec<usize>, String> {
    if !same_thread_parts(src, dst, &to_src) {
        return Err(
            "the operand and result layouts distribute threads differently \
                    (a layout conversion would be needed)"
                .into(),
        );
    }
    register_map(src, dst, to_src)
}

/// `tt.unsplat`: the one element of a one-element tensor.
pub fn unsplat<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    _emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let values = lw.get(operand(op, 0)?)?;
    let first = *values.first().ok_or("an empty tensor (internal error)")?;
    lw.set(result(op), vec![first]);
    Ok(())
}

/// `tt.trans`: result dimension `i` is operand dimension `order[i]`.
pub fn trans<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    _emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let order = tt_dialect::verify::i32_array_attr(op, "order").ok_or("missing 'order'")?;
    let src_value = operand(op, 0)?;
    let src = lw.distributed(src_value.r#type())?;
    let dst = lw.distributed(result(op).r#type())?;
    if order.len() != src.rank() || dst.rank() != src.rank() {
        return Err("'order' does not match the operand's rank".into());
    }
    let to_src = |c: &[i32]| {
        let mut s = vec![0; c.len()];
        for (i, &o) in order.iter().enumerate() {
            s[o as usize] = c[i];
        }
        s
    };
    let map = relabel(&src, &dst, to_src)?;
    let values = lw.get(src_value)?;
    lw.set(result(op), map.into_iter().map(|r| values[r]).collect());
    Ok(())
}

/// The coordinates in `to` of the element at `c` in `from`, through the
/// row-major order both shapes share (a bit relabelling: the shapes are
/// powers of two).
fn reshape_coordinates(c: &[i32], from: &[i64], to: &[i64]) -> Vec<i32> {
    let mut flat: i64 = 0;
    for (&x, &n) in c.iter().zip(from) {
        flat = flat * n + x as i64;
    }
    let mut out = vec![0; to.len()];
    for d in (0..to.len()).rev() {
        out[d] = (flat % to[d]) as i32;
        flat /= to[d];
    }
    out
}

/// `tt.reshape`: the row-major order of the elements is kept. Values stay
/// in their threads; with `allow_reorder`, where the layouts do not
/// correspond, Triton's reading applies: the result takes the operand's
/// registers in order (the elements may land anywhere).
pub fn reshape<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    _emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let src_value = operand(op, 0)?;
    let src = lw.distributed(src_value.r#type())?;
    let dst = lw.distributed(result(op).r#type())?;
    let values = lw.get(src_value)?;
    let powers = |shape: &[i64]| shape.iter().all(|&n| n > 0 && n & (n - 1) == 0);
    if !powers(&src.shape) || !powers(&dst.shape) {
        return Err("reshapes of shapes that are not powers of two are not supported yet".into());
    }
    let to_src = |c: &[i32]| reshape_coordinates(c, &dst.shape, &src.shape);
    match relabel(&src, &dst, to_src) {
        Ok(map) => lw.set(result(op), map.into_iter().map(|r| values[r]).collect()),
        Err(e) => {
            if !ttir::has_unit_attribute(op, "allow_reorder") || values.len() != dst.len() {
                return Err(e);
            }
            lw.set(result(op), values);
        }
    }
    Ok(())
}

/// `tt.join`: a new minor dimension of size 2, whose index picks the
/// operand; it must lie in the result's registers.
pub fn join<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    _emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let (lhs_value, rhs_value) = (operand(op, 0)?, operand(op, 1)?);
    let src = lw.distributed(lhs_value.r#type())?;
    let dst = lw.distributed(result(op).r#type())?;
    let last = dst.rank() - 1;
    if !minor_in_registers(&dst, last) {
        return Err("the joined dimension is not held in registers".into());
    }
    let map = relabel(&src, &dst, |c: &[i32]| c[..last].to_vec())?;
    let sides = [lw.get(lhs_value)?, lw.get(rhs_value)?];
    let values = map
        .into_iter()
        .zip(&dst.registers)
        .map(|(r, c)| sides[c[last] as usize][r])
        .collect();
    lw.set(result(op), values);
    Ok(())
}

/// `tt.split`: the operand's minor dimension of size 2 (held in its
/// registers) becomes two results.
pub fn split<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    _emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let src_value = operand(op, 0)?;
    let src = lw.distributed(src_value.r#type())?;
    let last = src.rank() - 1;
    if !minor_in_registers(&src, last) {
        return Err("the split dimension is not held in registers".into());
    }
    let values = lw.get(src_value)?;
    for half in 0..2 {
        let out: Value = op.result(half).map_err(|_| "missing result")?.into();
        let dst = lw.distributed(out.r#type())?;
        if !same_thread_parts(&src, &dst, |c: &[i32]| [c, &[0]].concat()) {
            return Err(
                "the operand and result layouts distribute threads differently \
                        (a layout conversion would be needed)"
                    .into(),
            );
        }
        let map = register_map(&src, &dst, |c: &[i32]| [c, &[half as i32]].concat())?;
        lw.set(out, map.into_iter().map(|r| values[r]).collect());
    }
    Ok(())
}

/// Whether no lane or warp basis of `dist` moves along dimension `dim`.
fn minor_in_registers(dist: &Distributed, dim: usize) -> bool {
    ["lane", "warp"]
        .iter()
        .all(|in_dim| dist.layout.bases(in_dim).iter().all(|b| b[dim] == 0))
}

/// `tt.cat`: Triton's concatenation may reorder elements, and lowers to
/// the operands' registers one after the other.
pub fn cat<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    _emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let mut values = lw.get(operand(op, 0)?)?;
    values.extend(lw.get(operand(op, 1)?)?);
    let dst = lw.distributed(result(op).r#type())?;
    if values.len() != dst.len() {
        return Err(format!(
            "the result layout holds {} elements per thread, the operands {}",
            dst.len(),
            values.len()
        ));
    }
    lw.set(result(op), values);
    Ok(())
}

/// `tt.addptr`: one `getelementptr` per element.
pub fn addptr<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let ptr = operand(op, 0)?;
    let offset = operand(op, 1)?;
    let pointee: Type = pointee_type(ptr.r#type()).ok_or("the operand is not a pointer")?;
    let element = lw.element_type(pointee);
    let bases = lw.get(ptr)?;
    let offsets = lw.get(offset)?;
    let values = bases
        .iter()
        .zip(&offsets)
        .map(|(&b, &o)| emit.gep(b, o, element))
        .collect();
    lw.set(result(op), values);
    Ok(())
}
