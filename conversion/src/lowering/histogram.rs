//! `tt.histogram` (`tl.histogram`): counts through the op's shared scratch
//! (one counter per bin, `allocate-shared-memory-nv` sizes it as Triton
//! does). The threads clear the counters, each element's owner adds one to
//! its bin with `red.shared.add` where the value lies in `[0, bins)` and its
//! mask (if any) is set, and every thread reads the bins its result
//! registers hold. Elements that repeat across registers, lanes or warps
//! count once; values outside the bins are not counted.

use melior::ir::{operation::OperationRef, Value, ValueLike};
use tt_dialect::ir as ttir;
use tt_dialect::types::TensorView;

use super::{memory::owner_mask, scratch_offset, types, Access, Emitter, LowerResult, Lowering};

pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let offset = scratch_offset(op)?;
    let src = ttir::operand(op, 0).ok_or("missing source")?;
    let mask = ttir::operand(op, 1);
    let result: Value = op.result(0).map_err(|_| "missing result")?.into();
    let ty = result.r#type();
    let bins = TensorView::of(ty)
        .filter(|t| t.shape.len() == 1)
        .ok_or("a histogram has a 1-D tensor result")?
        .shape[0];
    let counter = emit.int_type(types::bit_width(
        TensorView::of(ty).expect("tensor").element,
    ));
    let bits = types::bit_width(counter);
    let values = lw.get(src)?;
    let masks = mask.map(|m| lw.get(m)).transpose()?;
    let dist = lw.distributed(src.r#type())?;
    let base = lw.shared_at(emit, offset);
    let span = crate::allocation::buffer_range(op);

    // Clear the counters, a thread's share at a time.
    lw.shared_access(emit, Access::Write(span.clone()));
    let (tid, _, _) = lw.thread_ids();
    let threads = lw.num_warps * lw.threads_per_warp;
    for start in (0..bins).step_by(threads as usize) {
        let index = emit.add(tid, emit.i32(start));
        let inside = emit.icmp("slt", index, emit.i32(bins));
        emit.inline_asm(
            &format!("@$2 st.shared.b{bits} [ $0 + 0 ], $1;"),
            &format!("l,{},b", if bits == 64 { "l" } else { "r" }),
            &[emit.gep(base, index, counter), emit.int(counter, 0), inside],
            None,
        );
    }

    // Count: one atomic add per element, by its owner.
    lw.shared_access(emit, Access::Write(span.clone()));
    let owner = owner_mask(lw, emit, Some(&dist));
    for (r, &v) in values.iter().enumerate() {
        if dist.is_duplicate_register(r) {
            continue;
        }
        let mut predicate = emit.icmp("ult", v, emit.int(v.r#type(), bins));
        for extra in [owner, masks.as_ref().map(|m| m[r])].into_iter().flatten() {
            predicate = emit.and(predicate, extra);
        }
        let index = if types::bit_width(v.r#type()) > 32 {
            emit.value("llvm.trunc", &[v], emit.i32_type(), &[])
        } else {
            v
        };
        emit.inline_asm(
            &format!("@$1 red.shared.add.u{bits} [ $0 + 0 ], 1;"),
            "l,b",
            &[emit.gep(base, index, counter), predicate],
            None,
        );
    }

    // Read the bins back.
    lw.shared_access(emit, Access::Read(span));
    let coordinates = lw.coordinates(emit, ty)?;
    let counts = coordinates
        .iter()
        .map(|c| {
            let slot = emit.gep(base, c[0], counter);
            emit.value("llvm.load", &[slot], counter, &[])
        })
        .collect();
    lw.set(result, counts);
    Ok(())
}
