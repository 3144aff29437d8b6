//! `ttg.convert_layout` between distributed layouts. When both layouts give
//! every thread the same elements, the registers are only permuted;
//! otherwise the tensor goes through shared memory.
//!
//! Scratch contract with `allocate-shared-memory-nv`: the op's scratch
//! starts at its `allocation.offset` attribute (bytes; 0 when absent) and
//! holds the whole tensor in row-major order, one element per slot of
//! `max(bits, 8) / 8` bytes (`i1` as a byte, pointers as 8 bytes): the
//! product of the shape times that size. Every thread stores the elements
//! it holds at their row-major index, a barrier follows, and every thread
//! loads the elements its destination registers hold.

use melior::ir::{operation::OperationRef, Value, ValueLike};
use tt_dialect::ir as ttir;

use super::{
    reduce::{bit_width, from_int, linear_index, scratch, to_int},
    view::{register_map, same_thread_parts},
    Access, Distributed, Emitter, LowerResult, Lowering,
};

pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let src_value = ttir::operand(op, 0).ok_or("missing operand")?;
    let result: Value = op.result(0).map_err(|_| "missing result")?.into();
    let src = Distributed::of(src_value.r#type())?;
    let dst = Distributed::of(result.r#type())?;
    let values = lw.get(src_value)?;
    if src.shape != dst.shape {
        return Err("the operand and result shapes differ".into());
    }
    // Fast path: the same elements in every thread, in other registers.
    let identity = |c: &[i32]| c.to_vec();
    if same_thread_parts(&src, &dst, identity) {
        if let Ok(map) = register_map(&src, &dst, identity) {
            lw.set(result, map.into_iter().map(|r| values[r]).collect());
            return Ok(());
        }
    }
    let base = scratch(lw, emit, op);
    let ty = lw.element_type(src_value.r#type());
    let memory = emit.int_type(bit_width(ty).max(8));
    let source_coordinates = lw.coordinates(emit, src_value.r#type())?;
    let span = crate::allocation::buffer_range(op);
    lw.shared_access(emit, Access::Write(span.clone()));
    for (r, (v, c)) in values.iter().zip(&source_coordinates).enumerate() {
        if src.is_duplicate_register(r) {
            continue;
        }
        let address = emit.gep(base, linear_index(emit, c, &src.shape), memory);
        let bits = to_int(emit, *v, bit_width(memory));
        emit.op("llvm.store", &[bits, address], &[], &[]);
    }
    let target_coordinates = lw.coordinates(emit, result.r#type())?;
    lw.shared_access(emit, Access::Read(span));
    let loaded = target_coordinates
        .iter()
        .map(|c| {
            let address = emit.gep(base, linear_index(emit, c, &dst.shape), memory);
            let word = emit.value("llvm.load", &[address], memory, &[]);
            from_int(emit, word, ty)
        })
        .collect();
    lw.set(result, loaded);
    Ok(())
}
