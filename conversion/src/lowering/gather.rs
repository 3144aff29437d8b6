//! `tt.gather` (`tl.gather`) through the op's shared scratch: the source
//! tensor is written there in row-major order (each element once, by its
//! owner), and every result element reads the source element whose
//! coordinates are its own with the gather axis replaced by its index.
//! This is Triton's general path; Triton shuffles within warps instead when
//! the layouts keep each gather column in one warp, which this lowering
//! does not do yet (it costs the scratch, `numel(src)` elements). Booleans
//! travel as bytes and pointers as 64-bit integers (Triton's own lowering
//! stops on pointers).

use melior::ir::{operation::OperationRef, Value, ValueLike};
use tt_dialect::ir as ttir;
use tt_dialect::types::TensorView;

use super::{
    memory::owner_mask,
    reduce::{from_int, linear_index, store_if},
    scratch_offset, types, Access, Emitter, LowerResult, Lowering,
};

pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let offset = scratch_offset(op)?;
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
        c[axis] = match types::bit_width(index.r#type()) {
            32 => index,
            w if w > 32 => emit.value("llvm.trunc", &[index], i32_type, &[]),
            _ => emit.value("llvm.sext", &[index], i32_type, &[]),
        };
        let address = emit.gep(base, linear_index(emit, &c, &shape), memory);
        let loaded = emit.value("llvm.load", &[address], memory, &[]);
        gathered.push(from_int(emit, loaded, element));
    }
    lw.set(result, gathered);
    Ok(())
}
