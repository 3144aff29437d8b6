//! `ttg.convert_layout` between distributed layouts, classified by
//! [`ttg_dialect::convert_layout::classify`] exactly as the allocation does.
//! When every thread keeps its elements, the registers are only permuted.
//! When data only moves within warps in a pattern Triton shuffles, the
//! steps of [`ttg_dialect::convert_layout::shuffle_plan`] are emitted as
//! Triton's `transferWithinWarp` emits them: selects on a lane bit
//! (`llvm.select` of `(lane & 1 << bit) == 0`) and `nvvm.shfl.sync`
//! (`bfly` by a constant, or `idx` from a permuted lane id) over the full
//! warp, values of up to 32 bits as one i32 and 64-bit values as two. When
//! the plan packs 8- or 16-bit elements, they are packed into i32 words
//! first (vector bitcasts, or zext/shl/or for bytes in 16-bit slots), byte
//! permutes are `llvm.nvvm.prmt` intrinsic calls, and the words are
//! unpacked at the end.
//! Otherwise the tensor goes through shared memory along Triton's swizzled
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
//! loaded once. Where the plan chose its layout for matrix instructions on
//! a side, as Triton does, and that side's layout over the scratch has the
//! shape of 8x8 matrices of 16-byte rows (see `ldmatrix`), its accesses are
//! `stmatrix` (sm_90 and later) or `ldmatrix` instructions instead. Stores
//! of more than four narrow elements are stores of 32-bit words, as
//! Triton packs them.

use std::collections::HashMap;

use melior::ir::{operation::OperationRef, Type, Value, ValueLike};
use tt_dialect::ir as ttir;
use ttg_dialect::convert_layout::{register_pairs, Plan, ShufflePlan, Side, Step};

use crate::allocation::Conversion;

use super::{
    ldmatrix::Matrices,
    reduce::{from_int, scratch, shuffle, to_int},
    types,
    view::register_map,
    Access, Emitter, LowerResult, Lowering, ThreadIds,
};

pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let src_value = ttir::operand(op, 0).ok_or("missing operand")?;
    let result: Value = op.result(0).map_err(|_| "missing result")?.into();
    let src = lw.distributed(src_value.r#type())?;
    let dst = lw.distributed(result.r#type())?;
    let values = lw.get(src_value)?;
    if src.shape != dst.shape {
        return Err("the operand and result shapes differ".into());
    }
    let plan = match crate::allocation::convert_plan(op.to_raw()) {
        Ok(Conversion::Shared(plan)) => plan,
        Ok(Conversion::Registers) => {
            let map = register_map(&src, &dst, |c: &[i32]| c.to_vec())?;
            lw.set(result, map.into_iter().map(|r| values[r]).collect());
            return Ok(());
        }
        Ok(Conversion::Shuffle(plan)) => {
            let out = shuffles(lw, emit, &plan, &values);
            lw.set(result, out);
            return Ok(());
        }
        Err(e) => return Err(e.what),
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
    // The bits some lane or warp of a side sets.
    let reach = |side: &Side| side.lanes.iter().chain(&side.warps).fold(0, |m, &w| m | w);
    let (store_reach, load_reach) = (reach(&plan.store), reach(&plan.load));
    // Matrix instructions where the plan chose the layout for them and the
    // side's layout over the scratch has their shape (stmatrix from sm_90,
    // ldmatrix from sm_75).
    let cc = lw.options.compute_capability;
    let store_matrices = if cc >= 90 && plan.store.matrix {
        matrices(&plan, &plan.store, src.len())
    } else {
        None
    };
    let load_matrices = if cc >= 75 && plan.load.matrix {
        matrices(&plan, &plan.load, dst.len())
    } else {
        None
    };
    let store_part = match &store_matrices {
        Some(m) => m.thread_part(lw, emit),
        None => thread_part(&plan.store),
    };
    let load_part = match &load_matrices {
        Some(m) => m.thread_part(lw, emit),
        None => thread_part(&plan.load),
    };
    // The scalar and vector accesses' addresses (a side without matrix
    // instructions): `part ^ offset`, where `part` only has the bits some
    // lane or warp of its side sets.
    let addressing = |part, reach: u32| emit.xor_addressing(base, part, i64::from(reach), memory);
    let store_addresses = store_matrices
        .is_none()
        .then(|| addressing(store_part, store_reach));
    let load_addresses = load_matrices
        .is_none()
        .then(|| addressing(load_part, load_reach));
    let tile_bits = plan.swizzle.tile_bits();
    let in_tile = (1i64 << tile_bits) - 1;
    let round_of = |offset: i64| (offset >> tile_bits) as usize;
    let span = crate::allocation::buffer_range(op);
    let mut loaded: Vec<Option<Value>> = vec![None; dst.len()];
    for rep in 0..plan.reps {
        lw.shared_access(emit, Access::Write(span.clone()));
        if let Some(m) = &store_matrices {
            for access in m.accesses().iter().filter(|a| round_of(a.offset) == rep) {
                let at = emit.gep(
                    base,
                    m.index(emit, store_part, access.offset & in_tile),
                    memory,
                );
                let words: Vec<Value> = access
                    .words
                    .iter()
                    .map(|registers| {
                        let elements: Vec<Value> = registers
                            .iter()
                            .map(|&r| to_int(emit, values[r], plan.bits))
                            .collect();
                        emit.pack_word(&elements, memory)
                    })
                    .collect();
                m.store(emit, at, &words);
            }
        } else if let Some(addresses) = &store_addresses {
            for group in plan.store.groups.iter().filter(|g| g.rep == rep) {
                let elements: Vec<Value> = group
                    .registers
                    .iter()
                    .map(|&r| to_int(emit, values[r], plan.bits))
                    .collect();
                // More than four narrow elements travel as 32-bit words,
                // as Triton packs them (PTX vectors have up to four).
                let data = if plan.bits < 32 && elements.len() > 4 {
                    let words: Vec<Value> = elements
                        .chunks((32 / plan.bits) as usize)
                        .map(|word| emit.pack_word(word, memory))
                        .collect();
                    emit.vector_of(&words, emit.i32_type())
                } else if elements.len() == 1 {
                    // A one-element vector, as Triton stores single elements.
                    let ty = emit.vector_type(1, memory);
                    let undef = emit.value("llvm.mlir.undef", &[], ty, &[]);
                    emit.value(
                        "llvm.insertelement",
                        &[undef, elements[0], emit.i32(0)],
                        ty,
                        &[],
                    )
                } else {
                    emit.vector_of(&elements, memory)
                };
                emit.op(
                    "llvm.store",
                    &[data, addresses.at(emit, i64::from(group.offset))],
                    &[],
                    &[],
                );
            }
        }
        lw.shared_access(emit, Access::Read(span.clone()));
        if let Some(m) = &load_matrices {
            for access in m.accesses().iter().filter(|a| round_of(a.offset) == rep) {
                let at = emit.gep(
                    base,
                    m.index(emit, load_part, access.offset & in_tile),
                    memory,
                );
                for (word, registers) in m.load(emit, at).into_iter().zip(&access.words) {
                    let elements = emit.unpack_word(word, registers.len(), memory);
                    for (&r, element) in registers.iter().zip(elements) {
                        loaded[r] = Some(from_int(emit, element, ty));
                    }
                }
            }
            continue;
        }
        let Some(addresses) = &load_addresses else {
            continue;
        };
        for group in plan.load.groups.iter().filter(|g| g.rep == rep) {
            let n = group.registers.len();
            let at = addresses.at(emit, i64::from(group.offset));
            let elements = if plan.bits < 32 && (n as u32 * plan.bits).is_multiple_of(32) {
                // Narrow elements filling whole 32-bit words are taken
                // apart from the words by shifts: LLVM would otherwise
                // split the vector into scalar loads whose memory
                // dependences its GVN then checks pairwise (the epilogue
                // of a matmul). Up to four are loaded as Triton's vector
                // of them, bit-cast to the words (which InstCombine folds
                // into the load); more as the words.
                let words = (n as u32 * plan.bits / 32) as usize;
                let word_type = vector_of_words(emit, words);
                let data = if n <= 4 {
                    let data = emit.value("llvm.load", &[at], vector_type(n), &[]);
                    emit.bitcast(data, word_type)
                } else {
                    emit.value("llvm.load", &[at], word_type, &[])
                };
                emit.elements_of(data, words, emit.i32_type())
                    .into_iter()
                    .flat_map(|word| split_word(emit, word, plan.bits, memory))
                    .collect()
            } else {
                let data = emit.value("llvm.load", &[at], vector_type(n), &[]);
                emit.elements_of(data, n, memory)
            };
            for (&r, element) in group.registers.iter().zip(elements) {
                loaded[r] = Some(from_int(emit, element, ty));
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

/// `i32`, or a vector of `words` of them.
fn vector_of_words<'c>(emit: &Emitter<'c, '_>, words: usize) -> Type<'c> {
    if words == 1 {
        emit.i32_type()
    } else {
        emit.vector_type(words as u64, emit.i32_type())
    }
}

/// The `32 / bits` elements of an `i32` word, lowest bits first.
fn split_word<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    word: Value<'c, 'a>,
    bits: u32,
    element: Type<'c>,
) -> Vec<Value<'c, 'a>> {
    (0..32 / bits)
        .map(|k| {
            let shifted = if k == 0 {
                word
            } else {
                emit.lshr(word, emit.i32(i64::from(k * bits)))
            };
            emit.value("llvm.trunc", &[shifted], element, &[])
        })
        .collect()
}

/// A side's accesses as `stmatrix`/`ldmatrix` instructions (see
/// [`Matrices`]) where its layout over the scratch has their shape: each
/// register bit's scratch index (round bits above the tile's) read back
/// from the side's groups of `registers` registers, which must be linear
/// in the register bits (broadcast registers, which have no group, left
/// out). Matrices of one instruction stay in one round.
fn matrices(plan: &Plan, side: &Side, registers: usize) -> Option<Matrices> {
    let tile_bits = plan.swizzle.tile_bits();
    let mut index: HashMap<usize, i64> = HashMap::new();
    for g in &side.groups {
        for (i, &r) in g.registers.iter().enumerate() {
            index.insert(
                r,
                ((g.rep as i64) << tile_bits) | (i64::from(g.offset) + i as i64),
            );
        }
    }
    let bits: Vec<(usize, i64)> = (0..registers.trailing_zeros() as usize)
        .filter_map(|b| index.get(&(1 << b)).map(|&o| (b, o)))
        .collect();
    let linear = index.iter().all(|(&r, &o)| {
        let covered = bits.iter().fold(0, |m, &(b, _)| m | 1 << b);
        let xor = bits
            .iter()
            .filter(|&&(b, _)| r >> b & 1 == 1)
            .fold(0, |x, &(_, ob)| x ^ ob);
        r & !covered == 0 && xor == o
    });
    if !linear {
        return None;
    }
    Matrices::of(
        &bits,
        &to_i64(&side.lanes),
        &to_i64(&side.warps),
        plan.bits,
        !((1i64 << tile_bits) - 1),
    )
}

/// Emits `plan` (see [`ShufflePlan::run`]) on this thread's source values:
/// packs the elements into 32-bit words when the plan packs, runs the
/// steps on the words and unpacks them, as Triton's `transferWithinWarp`.
fn shuffles<'c, 'a>(
    lw: &Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    plan: &ShufflePlan,
    values: &[Value<'c, 'a>],
) -> Vec<Value<'c, 'a>> {
    let elements: Vec<Value> = plan.inputs.iter().map(|&r| values[r]).collect();
    let Some(&first) = values.first() else {
        return Vec::new();
    };
    let ty = first.r#type();
    let mut vals = if plan.pack == 0 {
        elements
    } else {
        pack(emit, plan.pack, &elements)
    };
    // The lane is read here, after the packing, as Triton's lowering reads
    // it where the shuffles need it (LLVM merges it with the function's
    // own read when one dominates it).
    let threads = ThreadIds::new(emit, lw.threads_per_warp, lw.thread_group());
    let lane = threads.lane;
    let bit_clear = |bit: u32| {
        let set = emit.and(lane, emit.i32(1 << bit));
        emit.icmp("eq", set, emit.i32(0))
    };
    let choose = |clear: Value<'c, 'a>, sels: [u16; 2]| {
        emit.select(
            clear,
            emit.i32(i64::from(sels[0])),
            emit.i32(i64::from(sels[1])),
        )
    };
    for step in &plan.steps {
        match step {
            Step::Swap { register, lane } => {
                let clear = bit_clear(*lane);
                for (r0, r1) in register_pairs(*register, vals.len()) {
                    let (v0, v1) = (vals[r0], vals[r1]);
                    vals[r0] = emit.select(clear, v0, v1);
                    vals[r1] = emit.select(clear, v1, v0);
                }
            }
            Step::Permute {
                register,
                lane,
                clear: when_clear,
                set,
            } => {
                let clear = bit_clear(*lane);
                for (r0, r1) in register_pairs(*register, vals.len()) {
                    let (v0, v1) = (vals[r0], vals[r1]);
                    let first = choose(clear, [when_clear[0], set[0]]);
                    let second = choose(clear, [when_clear[1], set[1]]);
                    vals[r0] = prmt(emit, v0, v1, first);
                    vals[r1] = prmt(emit, v0, v1, second);
                }
            }
            Step::Shuffle { sources, masks } => {
                let base = sources
                    .as_ref()
                    .map(|s| threads.linear::<i64>(emit, &to_i64(s), &[]));
                for (v, &mask) in vals.iter_mut().zip(masks) {
                    match base {
                        Some(base) => {
                            let from = if mask == 0 {
                                base
                            } else {
                                emit.xor(base, emit.i32(i64::from(mask)))
                            };
                            *v = shuffle(emit, *v, "idx", from, 0x1f);
                        }
                        None if mask != 0 => {
                            *v = shuffle(emit, *v, "bfly", emit.i32(i64::from(mask)), 0x1f);
                        }
                        None => {}
                    }
                }
            }
            Step::Ship { register, lane } => {
                let clear = bit_clear(*lane);
                for (r0, r1) in register_pairs(*register, vals.len()) {
                    let (v0, v1) = (vals[r0], vals[r1]);
                    let sent = emit.select(clear, v1, v0);
                    let got = shuffle(emit, sent, "bfly", emit.i32(1 << lane), 0x1f);
                    vals[r0] = emit.select(clear, v0, got);
                    vals[r1] = emit.select(clear, got, v1);
                }
            }
            Step::ShipPermute {
                register,
                lane,
                send,
                keep0,
                keep1,
            } => {
                let clear = bit_clear(*lane);
                for (r0, r1) in register_pairs(*register, vals.len()) {
                    let (v0, v1) = (vals[r0], vals[r1]);
                    let sent = prmt(emit, v0, v1, choose(clear, *send));
                    let got = shuffle(emit, sent, "bfly", emit.i32(1 << lane), 0x1f);
                    let first = choose(clear, *keep0);
                    let second = choose(clear, *keep1);
                    vals[r0] = prmt(emit, v0, got, first);
                    vals[r1] = prmt(emit, v1, got, second);
                }
            }
        }
    }
    if plan.pack > 0 {
        vals = unpack(emit, plan.pack, &vals, ty);
    }
    plan.outputs.iter().map(|&r| vals[r]).collect()
}

/// `2^pack` elements to a 32-bit word, element `k` in slot `k` from the
/// low end: slots of `32 >> pack` bits, narrower elements zero-extended
/// (8-bit pairs by shift and or, as Triton works around a `ptxas` bug,
/// otherwise through a vector bitcast).
fn pack<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    pack: u32,
    elements: &[Value<'c, 'a>],
) -> Vec<Value<'c, 'a>> {
    let per = 1usize << pack;
    let slot = 32 >> pack;
    let bits = types::bit_width(elements[0].r#type());
    let i32_type = emit.i32_type();
    elements
        .chunks(per)
        .map(|chunk| {
            if bits == 8 && slot == 16 {
                let low = to_int(emit, chunk[0], 32);
                let high = emit.shl(to_int(emit, chunk[1], 32), emit.i32(16));
                emit.or(low, high)
            } else {
                let slots: Vec<Value> = if bits < slot {
                    chunk.iter().map(|&v| to_int(emit, v, slot)).collect()
                } else {
                    chunk.to_vec()
                };
                let vector = emit.vector_of(&slots, slots[0].r#type());
                emit.bitcast(vector, i32_type)
            }
        })
        .collect()
}

/// The inverse of [`pack`]: the elements of type `ty` in `words`.
fn unpack<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    pack: u32,
    words: &[Value<'c, 'a>],
    ty: Type<'c>,
) -> Vec<Value<'c, 'a>> {
    let per = 1usize << pack;
    let slot = 32 >> pack;
    let narrow = types::bit_width(ty) < slot;
    let slot_type = if narrow { emit.int_type(slot) } else { ty };
    let vector_type = emit.vector_type(per as u64, slot_type);
    words
        .iter()
        .flat_map(|&w| {
            let vector = emit.bitcast(w, vector_type);
            emit.elements_of(vector, per, slot_type)
        })
        .map(|v| if narrow { from_int(emit, v, ty) } else { v })
        .collect()
}

/// `prmt.b32` of `a` and `b` by `selector`, as Triton: the
/// `llvm.nvvm.prmt` intrinsic.
fn prmt<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    a: Value<'c, 'a>,
    b: Value<'c, 'a>,
    selector: Value<'c, 'a>,
) -> Value<'c, 'a> {
    emit.call_intrinsic("llvm.nvvm.prmt", &[a, b, selector], emit.i32_type())
}

fn to_i64(v: &[u32]) -> Vec<i64> {
    v.iter().map(|&x| i64::from(x)).collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use ttg_dialect::{convert_layout::plan, layout::Layout, to_linear::to_linear_layout};

    use super::{matrices, Side};

    /// Checks the matrix instructions of `side` against its groups: every
    /// register of every thread at the scratch index the plan gives it,
    /// each once. Returns whether the side uses the `col` form, or `None`
    /// without matrix instructions.
    fn check(
        plan: &ttg_dialect::convert_layout::Plan,
        side: &Side,
        registers: usize,
    ) -> Option<bool> {
        let m = matrices(plan, side, registers)?;
        let tile_bits = plan.swizzle.tile_bits();
        let xor_of = |weights: &[u32], index: usize| {
            weights
                .iter()
                .enumerate()
                .filter(|(k, _)| index >> k & 1 == 1)
                .fold(0, |a, (_, &w)| a ^ i64::from(w))
        };
        let mut expected = std::collections::HashMap::new();
        for g in &side.groups {
            for (i, &r) in g.registers.iter().enumerate() {
                expected.insert(
                    r,
                    ((g.rep as i64) << tile_bits) | (i64::from(g.offset) + i as i64),
                );
            }
        }
        let mut seen = HashSet::new();
        for (register, lane, warp, at) in m.placements(plan.bits) {
            let want = expected[&register] ^ xor_of(&side.lanes, lane) ^ xor_of(&side.warps, warp);
            assert_eq!(at, want, "register {register} lane {lane} warp {warp}");
            assert!(seen.insert((register, lane, warp)));
        }
        assert_eq!(seen.len(), (expected.len() * 32) << side.warps.len());
        Some(m.is_transposed())
    }

    fn round_trip(
        src: Layout,
        dst: Layout,
        shape: &[i64],
        bits: u32,
    ) -> (Option<bool>, Option<bool>) {
        let s = to_linear_layout(&src, shape).unwrap();
        let d = to_linear_layout(&dst, shape).unwrap();
        let p = plan(&s, &d, bits, 90).unwrap();
        let regs =
            |l: &ttg_dialect::linear_layout::LinearLayout| l.in_dim_size("register") as usize;
        (check(&p, &p.store, regs(&s)), check(&p, &p.load, regs(&d)))
    }

    #[test]
    fn wgmma_result_to_blocked_loads_with_ldmatrix() {
        let (store, load) = round_trip(
            Layout::nvidia_mma(3, &[8, 1], &[16, 256, 16]),
            Layout::blocked(&[1, 8], &[1, 32], &[8, 1], &[0, 1]),
            &[128, 256],
            16,
        );
        assert_eq!(store, None);
        assert_eq!(load, Some(false));
    }

    #[test]
    fn blocked_to_dot_rhs_loads_with_transposed_ldmatrix() {
        let mma = Layout::nvidia_mma(2, &[4, 1], &[16, 8]);
        let (store, load) = round_trip(
            Layout::blocked(&[1, 16], &[8, 4], &[4, 1], &[1, 0]),
            Layout::DotOperand {
                op_idx: 1,
                k_width: 2,
                parent: Some(Box::new(mma)),
            },
            &[64, 64],
            16,
        );
        assert_eq!(store, None);
        assert_eq!(load, Some(true));
    }
}
