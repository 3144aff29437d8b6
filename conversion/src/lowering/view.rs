//! Ops that only rearrange or index values: program ids, `splat`,
//! `make_range`, `broadcast`, `expand_dims`, and pointer arithmetic.

use std::collections::HashMap;

use melior::ir::{operation::OperationLike, operation::OperationRef, Type, Value, ValueLike};
use tt_dialect::ir as ttir;

use super::{pointee_type, Distributed, Emitter, LowerResult, Lowering};

fn result<'c, 'a>(op: OperationRef<'c, 'a>) -> Value<'c, 'a> {
    op.result(0).expect("one result").into()
}

fn operand<'c, 'a>(op: OperationRef<'c, 'a>, i: usize) -> Result<Value<'c, 'a>, String> {
    ttir::operand(op, i).ok_or_else(|| format!("missing operand {i}"))
}

/// `tt.get_program_id` / `tt.get_num_programs`: `ctaid` / `nctaid`.
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
    let register = if name == "tt.get_program_id" {
        "ctaid"
    } else {
        "nctaid"
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

/// `tt.make_range`: `start` plus each element's coordinate.
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
    let values = coordinates
        .into_iter()
        .map(|c| {
            if start == 0 {
                c[0]
            } else {
                emit.add(c[0], emit.i32(start))
            }
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

/// Whether the lane and warp parts of two layouts place the kept
/// dimensions alike.
pub(super) fn same_thread_parts(
    src: &Distributed,
    dst: &Distributed,
    to_src: impl Fn(&[i32]) -> Vec<i32>,
) -> bool {
    ["lane", "warp"].iter().all(|in_dim| {
        let a = src.layout.bases(in_dim);
        let b = dst.layout.bases(in_dim);
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| *x == to_src(y))
    })
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
