//! `ttg.convert_layout` between distributed layouts, classified by
//! [`ttg_dialect::convert_layout::classify`] exactly as the allocation does.
//! When every thread keeps its elements, the registers are only permuted;
//! otherwise the tensor goes through shared memory along Triton's swizzled
//! plan ([`ttg_dialect::convert_layout::plan`]).
//!
//! Scratch contract with `allocate-shared-memory-nv`: the op's scratch
//! starts at its `allocation.offset` attribute (bytes; 0 when absent) and
//! holds one tile of the plan, `scratch_elements` slots of
//! `max(bits, 8) / 8` bytes (`i1` as a byte, pointers as 8 bytes). In each
//! of the plan's rounds every thread stores its source registers with
//! vector stores at `offset ^ thread part` (the XOR of what its lane and
//! warp bits contribute), a barrier follows, every thread loads its
//! destination registers the same way, and a barrier separates the next
//! round's stores from these loads. Broadcast copies are stored once and
//! loaded once.

use melior::ir::{operation::OperationRef, Value, ValueLike};
use tt_dialect::ir as ttir;
use ttg_dialect::convert_layout::Side;

use super::{
    reduce::{from_int, scratch, to_int},
    view::register_map,
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
    let plan = match crate::allocation::convert_plan(op.to_raw()) {
        Ok(plan) => plan,
        Err(e) => return Err(e.what),
    };
    let Some(plan) = plan else {
        let map = register_map(&src, &dst, |c: &[i32]| c.to_vec())?;
        lw.set(result, map.into_iter().map(|r| values[r]).collect());
        return Ok(());
    };
    let base = scratch(lw, emit, op);
    let ty = lw.element_type(src_value.r#type());
    let memory = emit.int_type(plan.bits);
    let vector_type = |n: usize| {
        if n == 1 {
            memory
        } else {
            emit.vector_type(n as u64, memory)
        }
    };
    let thread_part = |side: &Side| lw.thread_linear(emit, &side.lanes, &side.warps);
    let address = |part: Value<'c, 'a>, offset: u32| {
        let index = if offset == 0 {
            part
        } else {
            emit.xor(part, emit.i32(i64::from(offset)))
        };
        emit.gep(base, index, memory)
    };
    let store_part = thread_part(&plan.store);
    let load_part = thread_part(&plan.load);
    let span = crate::allocation::buffer_range(op);
    let mut loaded: Vec<Option<Value>> = vec![None; dst.len()];
    for rep in 0..plan.reps {
        lw.shared_access(emit, Access::Write(span.clone()));
        for group in plan.store.groups.iter().filter(|g| g.rep == rep) {
            let words: Vec<Value> = group
                .registers
                .iter()
                .map(|&r| to_int(emit, values[r], plan.bits))
                .collect();
            let data = emit.vector_of(&words, memory);
            emit.op(
                "llvm.store",
                &[data, address(store_part, group.offset)],
                &[],
                &[],
            );
        }
        lw.shared_access(emit, Access::Read(span.clone()));
        for group in plan.load.groups.iter().filter(|g| g.rep == rep) {
            let n = group.registers.len();
            let data = emit.value(
                "llvm.load",
                &[address(load_part, group.offset)],
                vector_type(n),
                &[],
            );
            for (&r, word) in group
                .registers
                .iter()
                .zip(emit.elements_of(data, n, memory))
            {
                loaded[r] = Some(from_int(emit, word, ty));
            }
        }
    }
    for &(r, from) in &plan.load.copies {
        loaded[r] = loaded[from];
    }
    let loaded = loaded
        .into_iter()
        .collect::<Option<Vec<_>>>()
        .ok_or("the conversion plan leaves a destination register unset")?;
    lw.set(result, loaded);
    Ok(())
}
