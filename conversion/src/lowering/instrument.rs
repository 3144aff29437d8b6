//! Triton's instrumentation ops (`tti`, inserted by its concurrency
//! sanitizer), as Triton's `InstrumentationToLLVM` lowers them:
//! `tti.experimental_buffer_pointers` as the memory space's base address
//! plus each element's offset, `tti.experimental_assert_in_thread` as a
//! per-thread `or` / `and` of the condition and `__assertfail` (the first
//! thread reports), and `tti.experimental_lock_acquire` /
//! `tti.experimental_lock_release` as a spin on `atom.global...cas` and an
//! `atom.global...exch` by one thread, fenced by CTA barriers;
//! `tti.experimental_memdesc_to_i32` / `_i64` as the descriptor's base
//! address as an integer.

use melior::ir::{operation::OperationRef, Value, ValueLike};
use tt_dialect::ir as ttir;

use super::{assert, result, Emitter, LowerResult, Lowering};

/// `tti.experimental_buffer_pointers`: element `i` is the base address of
/// the memory space (shared memory: the function's shared-memory pointer;
/// tensor memory: `nvg.tensor_memory_base`) plus `offsets[i]`, as i64.
pub fn buffer_pointers<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let offsets = tt_dialect::verify::i32_array_attr(op, "offsets")
        .ok_or("the offsets attribute is missing")?;
    let mem_type = ttir::inherent_attribute(op, "memType")
        .and_then(ttir::int_value)
        .map(|(v, _)| v)
        .ok_or("the memType attribute is missing")?;
    let ty = result(op).r#type();
    let i64_type = emit.int_type(64);
    if tt_dialect::types::element_type(ty) != i64_type {
        return Err(format!(
            "'tti.experimental_buffer_pointers' of {ty} is not supported yet (i64 elements only)"
        ));
    }
    let shape = tt_dialect::types::TensorView::of(ty)
        .map(|t| t.shape)
        .unwrap_or_default();
    if shape.len() != 1 || shape[0] != offsets.len() as i64 || offsets.is_empty() {
        return Err(format!(
            "'tti.experimental_buffer_pointers' needs one offset per element of a 1-D tensor: \
             {} offsets for {ty}",
            offsets.len()
        ));
    }
    let base_pointer = match mem_type {
        0 => lw.shared_base(),
        1 => emit.value("nvg.tensor_memory_base", &[], emit.ptr_type(6), &[]),
        other => return Err(format!("unknown memory type {other}")),
    };
    let base = emit.value("llvm.ptrtoint", &[base_pointer], i64_type, &[]);
    let coordinates = lw.coordinates(emit, ty)?;
    let values = coordinates
        .into_iter()
        .map(|c| {
            // The offset of the element this register holds: a select
            // chain over the (few) buffers, the coordinate being known only
            // at run time.
            let mut offset = emit.int(i64_type, i64::from(offsets[0]));
            for (i, &o) in offsets.iter().enumerate().skip(1) {
                let here = emit.icmp("eq", c[0], emit.i32(i as i64));
                offset = emit.select(here, emit.int(i64_type, i64::from(o)), offset);
            }
            emit.add(base, offset)
        })
        .collect();
    lw.set(result(op), values);
    Ok(())
}

/// `tti.experimental_assert_in_thread`: fails, from the first thread,
/// when the `or` (`check_any`) or `and` of this thread's elements of the
/// condition is false.
pub fn assert_in_thread<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let condition = ttir::operand(op, 0).ok_or("missing condition")?;
    let check_any = ttir::inherent_attribute(op, "check_any")
        .and_then(ttir::bool_value)
        .ok_or("the check_any attribute is missing")?;
    let elements = lw.get(condition)?;
    let i1 = emit.int_type(1);
    let mut reduced = emit.int(i1, if check_any { 0 } else { 1 });
    // Triton materialises the element type's zero here, unused (folded
    // away later); kept so that the output follows Triton's.
    emit.int(i1, 0);
    for v in elements {
        reduced = if check_any {
            emit.or(reduced, v)
        } else {
            emit.and(reduced, v)
        };
    }
    let failed = emit.xor(reduced, emit.int(i1, 1));
    let (tid, _, _) = lw.thread_ids();
    let first = emit.icmp("eq", tid, emit.i32(0));
    let failed = emit.and(failed, first);
    assert::raise(lw, emit, op, failed)
}

/// The lock pointer and the optional predicate of a lock op, whose lock
/// must be a scalar `!tt.ptr<i32>` (Triton's locks are).
fn lock_operands<'c, 'a>(
    lw: &Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> Result<(Value<'c, 'a>, Option<Value<'c, 'a>>), String> {
    let lock = ttir::operand(op, 0).ok_or("missing lock")?;
    if super::pointee_type(lock.r#type()) != Some(emit.i32_type()) {
        return Err(format!(
            "a lock of type {} is not supported yet (!tt.ptr<i32> only)",
            lock.r#type()
        ));
    }
    if tt_dialect::types::TensorView::of(lock.r#type()).is_some() {
        return Err("a tensor of locks is not supported yet".into());
    }
    let lock = match lw.get(lock)?.as_slice() {
        [one] => *one,
        _ => return Err("a tensor of locks is not supported yet".into()),
    };
    let pred = match ttir::operand(op, 1) {
        Some(p) => Some(*lw.get(p)?.first().ok_or("the predicate has no value")?),
        None => None,
    };
    Ok((lock, pred))
}

/// `tti.experimental_lock_acquire`: the first thread (where the predicate
/// holds) spins until it swaps the lock from 0 to 1 (acquire, GPU scope);
/// then the CTA waits for it at a barrier.
pub fn lock_acquire<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let (lock, pred) = lock_operands(lw, emit, op)?;
    let (tid, _, _) = lw.thread_ids();
    let mut elect = emit.icmp("eq", tid, emit.i32(0));
    if let Some(pred) = pred {
        elect = emit.and(elect, pred);
    }
    let (spin, continuation) = lw.split_block(emit);
    emit.cond_br(elect, &spin, &continuation)?;

    let spin_emit = emit.at_end_of(spin);
    let zero = spin_emit.i32(0);
    let one = spin_emit.i32(1);
    let old = spin_emit
        .inline_asm(
            "mov.u32 $0, 0x0;\n\tatom.global.acquire.gpu.cas.b32 $0, [ $1 + 0 ], $2, $3;",
            "=r,l,r,r",
            &[lock, zero, one],
            Some(spin_emit.i32_type()),
        )
        .ok_or("the compare-and-swap has no result")?;
    let taken = spin_emit.icmp("ne", old, zero);
    spin_emit.cond_br(taken, &spin, &continuation)?;

    emit.at_end_of(continuation).barrier();
    Ok(())
}

/// `tti.experimental_lock_release`: where the predicate holds, the CTA
/// meets at a barrier, then the first thread exchanges the lock back to 0
/// (acquire-release, GPU scope).
pub fn lock_release<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let (lock, pred) = lock_operands(lw, emit, op)?;
    let (tid, _, _) = lw.thread_ids();
    let release = |e: &Emitter<'c, 'a>| {
        e.barrier();
        let first = e.icmp("eq", tid, e.i32(0));
        e.inline_asm(
            "mov.u32 $0, 0x0;\n\t@$3 atom.global.gpu.acq_rel.exch.b32 $0, [ $1 + 0 ], $2;",
            "=r,l,r,b",
            &[lock, e.i32(0), first],
            Some(e.i32_type()),
        );
    };
    match pred {
        None => release(emit),
        Some(pred) => {
            let (side, continuation) = lw.split_block(emit);
            emit.cond_br(pred, &side, &continuation)?;
            let side_emit = emit.at_end_of(side);
            release(&side_emit);
            side_emit.br(&continuation, &[])?;
        }
    }
    Ok(())
}

/// `tti.experimental_memdesc_to_i32` and `_i64`: the base address of the
/// memory descriptor (shared or tensor memory) as an integer of the
/// result's width.
pub fn memdesc_to_int<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let desc = ttir::operand(op, 0).ok_or("missing operand")?;
    let base = lw.scalar(desc)?;
    let ty = result(op).r#type();
    let value = emit.value("llvm.ptrtoint", &[base], ty, &[]);
    lw.set(result(op), vec![value]);
    Ok(())
}
