//! `tt.gather` (`tl.gather`), as Triton 3.6 lowers it. Where the layouts
//! keep each gather column in one warp, with the same lanes holding a
//! column of the source and of the indices ([`warp_local`]), within the
//! warp: for each result element the lane and register holding the source
//! element its index names (the source layout inverted), every source
//! register shuffled from that lane and the right one selected; no scratch.
//! Otherwise through the op's shared scratch: the source tensor is written
//! there in row-major order (each element once, by its owner), and every
//! result element reads the source element whose coordinates are its own
//! with the gather axis replaced by its index. Booleans travel as bytes
//! and pointers as 64-bit integers (Triton's own lowering stops on
//! pointers).

use melior::ir::{operation::OperationRef, Type, Value, ValueLike};
use tt_dialect::ir as ttir;
use tt_dialect::types::TensorView;
use ttg_dialect::linear_layout::LinearLayout;

use super::{
    layout::{xor_of_bits, Distributed},
    memory::owner_mask,
    reduce::{from_int, linear_index, shuffle, store_if},
    scratch_offset, types, Access, Emitter, LowerResult, Lowering,
};

/// The source layout's pseudo-inverse (coordinates to registers, lanes and
/// warps; a broadcast source reads its first copy), when a gather of `src`
/// by `indices` along `axis` stays within warps as Triton's
/// `GatherLoweringHelper::isWarpLocal` asks: no warp (or CTA) moves along
/// the gather axis in either layout, and both map warps and lanes to the
/// other dimensions alike (and, as Triton's lowering asserts, the inverse
/// reaches no other warp along the gather axis).
fn warp_local_inverse(
    src: &Distributed,
    indices: &Distributed,
    axis: usize,
) -> Option<LinearLayout> {
    let dims = dim_names(src.shape.len());
    let (gathered, others) = split_axis(&dims, axis);
    let groups = ["block", "warp"];
    let along = |l: &LinearLayout| l.sublayout(&groups, &[gathered]).sublayout_is_zero(&groups);
    if !along(&src.layout) || !along(&indices.layout) {
        return None;
    }
    if src.layout.sublayout(&groups, &others) != indices.layout.sublayout(&groups, &others)
        || src.layout.sublayout(&["lane"], &others) != indices.layout.sublayout(&["lane"], &others)
    {
        return None;
    }
    let inverse = src.layout.pseudo_invert().ok()?;
    inverse
        .sublayout(&[gathered], &groups)
        .sublayout_is_zero(&[gathered])
        .then_some(inverse)
}

/// The layouts' output dimensions, `dim0` up.
fn dim_names(rank: usize) -> Vec<String> {
    (0..rank).map(|d| format!("dim{d}")).collect()
}

/// The gather axis's dimension name and the others', in order.
fn split_axis(dims: &[String], axis: usize) -> (&str, Vec<&str>) {
    let others = dims
        .iter()
        .enumerate()
        .filter(|&(d, _)| d != axis)
        .map(|(_, n)| n.as_str())
        .collect();
    (dims[axis].as_str(), others)
}

/// Whether the gather `op` (source and indices of types `src` and
/// `indices`, along `axis`) is lowered within warps, needing no scratch.
pub(crate) fn warp_local(src: Type, indices: Type, axis: usize) -> bool {
    match (Distributed::of(src), Distributed::of(indices)) {
        (Ok(s), Ok(i)) => warp_local_inverse(&s, &i, axis).is_some(),
        _ => false,
    }
}

pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let src = ttir::operand(op, 0).ok_or("missing source")?;
    let indices = ttir::operand(op, 1).ok_or("missing indices")?;
    let result: Value = op.result(0).map_err(|_| "missing result")?.into();
    let axis = ttir::inherent_attribute(op, "axis")
        .and_then(ttir::int_value)
        .map(|(v, _)| v as usize)
        .ok_or("the axis attribute is missing")?;
    let shape = TensorView::of(src.r#type())
        .ok_or("a gather of a tensor")?
        .shape
        .to_vec();
    if axis >= shape.len() {
        return Err(format!("axis {axis} is out of range"));
    }
    if lw.distributed(indices.r#type())?.layout != lw.distributed(result.r#type())?.layout {
        return Err("the indices and the result must have the same layout".into());
    }
    let (src_dist, index_dist) = (
        lw.distributed(src.r#type())?,
        lw.distributed(indices.r#type())?,
    );
    if let Some(inverse) = warp_local_inverse(&src_dist, &index_dist, axis) {
        let values = lw.get(src)?;
        let index_values = lw.get(indices)?;
        let gathered = within_warps(
            lw,
            emit,
            &inverse,
            &index_dist,
            axis,
            &values,
            &index_values,
        )?;
        lw.set(result, gathered);
        return Ok(());
    }
    let offset = scratch_offset(op)?;
    let values = lw.get(src)?;
    let element = values
        .first()
        .map(|v| v.r#type())
        .ok_or("an empty source")?;
    let bits = types::memory_bits(element);
    let memory = emit.int_type(bits);
    let base = lw.shared_at(emit, offset);
    let span = crate::allocation::buffer_range(op);

    // The source, each element once.
    lw.shared_access(emit, Access::Write(span.clone()));
    let dist = lw.distributed(src.r#type())?;
    let owner = owner_mask(lw, emit, Some(&dist));
    let always = emit.int(emit.int_type(1), 1);
    let coordinates = lw.coordinates(emit, src.r#type())?;
    for (r, (&v, c)) in values.iter().zip(&coordinates).enumerate() {
        if dist.is_duplicate_register(r) {
            continue;
        }
        let address = emit.gep(base, linear_index(emit, c, &shape), memory);
        store_if(emit, address, v, owner.unwrap_or(always));
    }

    // Each result element: its coordinates, the index along the axis.
    lw.shared_access(emit, Access::Read(span));
    let index_values = lw.get(indices)?;
    let coordinates = lw.coordinates(emit, result.r#type())?;
    let i32_type = emit.i32_type();
    let mut gathered = Vec::with_capacity(coordinates.len());
    for (mut c, &index) in coordinates.into_iter().zip(&index_values) {
        c[axis] = index_i32(emit, index, i32_type);
        let address = emit.gep(base, linear_index(emit, &c, &shape), memory);
        let loaded = emit.value("llvm.load", &[address], memory, &[]);
        gathered.push(from_int(emit, loaded, element));
    }
    lw.set(result, gathered);
    Ok(())
}

/// An index as an i32 (narrower ones sign-extended, wider ones truncated).
fn index_i32<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    index: Value<'c, 'a>,
    i32_type: Type<'c>,
) -> Value<'c, 'a> {
    match types::bit_width(index.r#type()) {
        32 => index,
        w if w > 32 => emit.value("llvm.trunc", &[index], i32_type, &[]),
        _ => emit.value("llvm.sext", &[index], i32_type, &[]),
    }
}

/// The warp-local gather (Triton's `emitWarpLocalGather`): for each index
/// register, the source element's lane and register, `inverse` applied to
/// the index register's column (the other dimensions' coordinates, from
/// the thread's lane and warp and the register) and to its index along
/// `axis`; then each source register of that column (those the gather
/// coordinate can reach) shuffled from that lane, the one in that register
/// selected.
fn within_warps<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    inverse: &LinearLayout,
    indices: &Distributed,
    axis: usize,
    values: &[Value<'c, 'a>],
    index_values: &[Value<'c, 'a>],
) -> Result<Vec<Value<'c, 'a>>, String> {
    let rank = indices.shape.len();
    let dims = dim_names(rank);
    let all: Vec<&str> = dims.iter().map(String::as_str).collect();
    let (gathered, others) = split_axis(&dims, axis);
    let first = *values.first().ok_or("an empty source")?;
    // Where coordinate bit `bit` of dimension `d` lies in the source: its
    // register and lane bits.
    let image =
        |d: usize, bit: usize, out: &str| -> i64 { i64::from(inverse.basis(&dims[d], bit, out)) };
    let bits = |d: usize| inverse.in_dim_size_log2(&dims[d]) as usize;
    // The other dimensions' coordinates follow the thread's lane and warp
    // bits and the index register; their images through the inverse are
    // linear in those bits (computed once per output) plus a constant per
    // register.
    let through = |basis: &[i32], out: &str| -> i64 {
        (0..rank)
            .filter(|&d| d != axis)
            .map(|d| {
                (0..bits(d))
                    .filter(|&b| basis[d] >> b & 1 == 1)
                    .fold(0, |acc, b| acc ^ image(d, b, out))
            })
            .fold(0, |acc, x| acc ^ x)
    };
    let thread = |out: &str| {
        let weights = |ids: &str| -> Vec<i64> {
            indices
                .layout
                .bases(ids)
                .iter()
                .map(|b| through(b, out))
                .collect()
        };
        lw.thread_linear(emit, &weights("lane"), &weights("warp"))
    };
    let (thread_lane, thread_register) = (thread("lane"), thread("register"));
    let gather_images =
        |out: &str| -> Vec<i64> { (0..bits(axis)).map(|b| image(axis, b, out)).collect() };
    let (lane_images, register_images) = (gather_images("lane"), gather_images("register"));
    // The source registers a column holds: the column's base register (from
    // the other dimensions) XOR the registers the gather coordinate reaches.
    let registers = inverse.sublayout(&all, &["register"]);
    let reached = registers
        .sublayout(&[gathered], &["register"])
        .remove_zero_bases_along(gathered);
    let column_part = registers.sublayout(&others, &["register"]);
    let i32_type = emit.i32_type();
    let undef = emit.value("llvm.mlir.undef", &[], first.r#type(), &[]);
    let mut out = Vec::with_capacity(index_values.len());
    for (r, &index) in index_values.iter().enumerate() {
        let column = &indices.registers[r];
        let constant = |name: &str| through(column, name);
        let index = index_i32(emit, index, i32_type);
        let lane = xor_of_bits(emit, &[(index, &lane_images)]);
        let lane = emit.xor(emit.xor(lane, thread_lane), emit.i32(constant("lane")));
        let register = xor_of_bits(emit, &[(index, &register_images)]);
        let register = emit.xor(
            emit.xor(register, thread_register),
            emit.i32(constant("register")),
        );
        let coordinates: Vec<(&str, i32)> = (0..rank)
            .filter(|&d| d != axis)
            .map(|d| (all[d], column[d]))
            .collect();
        let base = column_part
            .apply(&coordinates)?
            .first()
            .map_or(0, |(_, v)| *v);
        let mut result = undef;
        for i in 0..reached.in_dim_size(gathered) {
            let rest = reached
                .apply(&[(gathered, i)])?
                .first()
                .map_or(0, |(_, v)| *v);
            let source = base ^ rest;
            let v = *values
                .get(source as usize)
                .ok_or("a gather register out of range")?;
            let moved = shuffle(emit, v, "idx", lane, 31);
            let here = emit.icmp("eq", emit.i32(i64::from(source)), register);
            result = emit.select(here, moved, result);
        }
        out.push(result);
    }
    Ok(out)
}
