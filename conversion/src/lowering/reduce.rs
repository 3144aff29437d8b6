//! `tt.reduce`: a reduction along one axis, combined with the op's own
//! region (cloned once per combine step on scalars). Three stages, as
//! Triton's: within a thread over registers that differ only along the
//! axis; across the lanes of a warp with butterfly shuffles (or, from
//! sm_80, one `redux.sync` where all 32 lanes reduce one integer operand of
//! at most 32 bits with a single add, and, or, xor, min or max, as Triton's
//! `warpReduce`); and across warps through a shared-memory scratch buffer,
//! where consecutive threads reduce the warps' partials of one result
//! element with a second butterfly and write the result back for every
//! thread to read (where the kernel's shared memory leaves room for few
//! CTAs per SM, every thread reads the partials and combines them itself).
//!
//! Scratch contract with `allocate-shared-memory-nv`: the op's scratch
//! starts at its `allocation.offset` attribute (bytes; 0 when absent) and
//! holds, for each operand (widest element type first, with no padding:
//! Triton's `getSmemBases`), `out_elems * warps_along_axis` elements,
//! where `out_elems` is the number of elements of the result (the input
//! shape without the axis).
//! Slot `index * warps_along_axis + w` holds the partial of the warp whose
//! index along the axis is `w`, for the result element at `index` (its
//! coordinates linearised in the operand layout's order, fastest first),
//! and slot `index * warps_along_axis` the result. This is Triton's scratch
//! size for a reduction (the input shape with the axis replaced by the
//! warps along it, summed over operands) and its arrangement.

use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationRef},
    r#type::TypeLike,
    RegionLike, Type, Value, ValueLike,
};
use tt_dialect::types::TensorView;

use super::{assert, types, Access, Distributed, Emitter, LowerResult, Lowering};

/// Bytes one element of type `ty` takes in shared memory (`i1` is a byte).
pub(super) fn memory_bytes(ty: Type) -> i64 {
    (types::memory_bits(ty) / 8) as i64
}

/// Where each operand's part of a reduction's or scan's scratch starts
/// (pointers into `op`'s scratch), each part `elems` elements of that
/// operand's element type, and the bytes all parts take: the parts follow
/// one another with no padding, widest element type first (operands of
/// one width in their order), as Triton's `getSmemBases` places them.
/// Every element size is a power of two, so each part starts aligned to
/// its elements.
pub(super) fn scratch_parts<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    inputs: &[Value<'c, 'a>],
    elems: i64,
) -> (Vec<Value<'c, 'a>>, i64) {
    let element_types: Vec<Type> = inputs.iter().map(|v| lw.element_type(v.r#type())).collect();
    let mut order: Vec<usize> = (0..inputs.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(types::bit_width(element_types[k])));
    let mut starts = vec![0; inputs.len()];
    let mut bytes = 0;
    for k in order {
        starts[k] = bytes;
        bytes += elems * memory_bytes(element_types[k]);
    }
    let base = scratch(lw, emit, op);
    let parts = starts
        .into_iter()
        .map(|start| emit.gep(base, emit.i32(start), emit.int_type(8)))
        .collect();
    (parts, bytes)
}

/// `v` as an integer of `bits` bits (zero-extended when wider).
pub(super) fn to_int<'c, 'a>(emit: &Emitter<'c, 'a>, v: Value<'c, 'a>, bits: u32) -> Value<'c, 'a> {
    let ty = v.r#type();
    let own = types::bit_width(ty);
    let own_int = emit.int_type(own);
    let as_int = if types::is_llvm_pointer(ty) {
        emit.value("llvm.ptrtoint", &[v], own_int, &[])
    } else {
        emit.bitcast(v, own_int)
    };
    if own < bits {
        emit.value("llvm.zext", &[as_int], emit.int_type(bits), &[])
    } else {
        as_int
    }
}

/// The inverse of [`to_int`]: the low bits of `v` as type `ty`.
pub(super) fn from_int<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    v: Value<'c, 'a>,
    ty: Type<'c>,
) -> Value<'c, 'a> {
    let own = types::bit_width(ty);
    let own_int = emit.int_type(own);
    let narrow = if types::bit_width(v.r#type()) > own {
        emit.value("llvm.trunc", &[v], own_int, &[])
    } else {
        v
    };
    if types::is_llvm_pointer(ty) {
        emit.value("llvm.inttoptr", &[narrow], ty, &[])
    } else {
        emit.bitcast(narrow, ty)
    }
}

/// `shfl.sync.<kind>` of any value over the full warp: values of up to 32
/// bits travel as one i32, 64-bit values as the two halves of a vector of
/// two i32s (as Triton moves them: the halves stay a register pair).
pub(super) fn shuffle<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    v: Value<'c, 'a>,
    kind: &str,
    offset: Value<'c, 'a>,
    clamp: i64,
) -> Value<'c, 'a> {
    let i32_type = emit.i32_type();
    let one = |x: Value<'c, 'a>| {
        emit.value(
            "nvvm.shfl.sync",
            &[emit.i32(-1), x, offset, emit.i32(clamp)],
            i32_type,
            &[("kind", emit.attr(&format!("#nvvm<shfl_kind {kind}>")))],
        )
    };
    let ty = v.r#type();
    if types::bit_width(ty) <= 32 {
        return from_int(emit, one(to_int(emit, v, 32)), ty);
    }
    let pair = emit.vector_type(2, i32_type);
    let halves = emit.bitcast(to_int(emit, v, 64), pair);
    let half = |i: i64| emit.value("llvm.extractelement", &[halves, emit.i32(i)], i32_type, &[]);
    let (lo, hi) = (one(half(0)), one(half(1)));
    let undef = emit.value("llvm.mlir.undef", &[], pair, &[]);
    let joined = emit.value("llvm.insertelement", &[undef, lo, emit.i32(0)], pair, &[]);
    let joined = emit.value("llvm.insertelement", &[joined, hi, emit.i32(1)], pair, &[]);
    from_int(emit, emit.bitcast(joined, emit.int_type(64)), ty)
}

/// The start of `op`'s scratch buffer: `@global_smem + allocation.offset`.
pub(super) fn scratch<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> Value<'c, 'a> {
    lw.shared_at(emit, crate::allocation::offset(op).unwrap_or(0))
}

/// Stores `v` at `address` in shared memory when `predicate` holds.
pub(super) fn store_if<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    address: Value<'c, 'a>,
    v: Value<'c, 'a>,
    predicate: Value<'c, 'a>,
) {
    let bits = types::memory_bits(v.r#type());
    let (constraint, _) = super::memory::word_constraint(bits);
    emit.inline_asm(
        &format!("@$2 st.shared.b{bits} [ $0 + 0 ], $1;"),
        &format!("r,{constraint},b"),
        &[address, to_int(emit, v, bits), predicate],
        None,
    );
}

/// Loads a `ty` from `address` in shared memory when `predicate` holds
/// (the result is undefined where it does not).
pub(super) fn load_if<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    address: Value<'c, 'a>,
    ty: Type<'c>,
    predicate: Value<'c, 'a>,
) -> Value<'c, 'a> {
    let bits = types::memory_bits(ty);
    let (constraint, _) = super::memory::word_constraint(bits);
    let word = emit
        .inline_asm(
            &format!("@$2 ld.shared.b{bits} $0, [ $1 + 0 ];"),
            &format!("={constraint},r,b"),
            &[address, predicate],
            Some(emit.int_type(bits)),
        )
        .expect("a result");
    from_int(emit, word, ty)
}

/// Clones the combine region of `op` (a `tt.reduce` or `tt.scan`) once on
/// the scalars `lhs` and `rhs`, and returns what its terminator yields.
/// Each combine op keeps its own location (the combine function's lines,
/// called from the op's), as in Triton's line tables. `used` says in which
/// threads the step's result counts (all when `None`): assertions in the
/// region are deferred to the op's end and fire only there.
pub(super) fn combine<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    lhs: &[Value<'c, 'a>],
    rhs: &[Value<'c, 'a>],
    used: Option<Value<'c, 'a>>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let region = op.region(0).map_err(|_| "the op has no combine region")?;
    let block = region.first_block().ok_or("the combine region is empty")?;
    let n = lhs.len();
    if block.argument_count() != 2 * n || block.next_in_region().is_some() {
        return Err("the combine region must be one block of 2 arguments per operand".into());
    }
    for (i, v) in lhs.iter().chain(rhs).enumerate() {
        let arg: Value = block.argument(i).expect("argument").into();
        lw.set(arg, vec![*v]);
    }
    let mut next = block.first_operation();
    while let Some(o) = next {
        let o = unsafe { OperationRef::<'c, 'a>::from_raw(o.to_raw()) };
        let name = o.name();
        let name = name.as_string_ref().as_str().unwrap_or_default();
        if name == "tt.reduce.return" || name == "tt.scan.return" {
            return o.operands().map(|v| lw.scalar(v)).collect();
        }
        let at = emit.at(o.location());
        if name == "tt.assert" {
            assert::defer(lw, &at, o, used)?;
        } else {
            lw.lower_op(&at, o)?;
            if lw.continuation.is_some() {
                return Err(format!("'{name}' in a combine region is not supported yet"));
            }
        }
        next = o.next_in_block();
    }
    Err("the combine region has no terminator".into())
}

/// The bits of `in_dim` whose bases move along `axis`; such a basis must
/// not move along any other dimension.
pub(super) fn axis_bits(
    dist: &Distributed,
    in_dim: &str,
    axis: usize,
) -> Result<Vec<usize>, String> {
    let mut bits = Vec::new();
    for (bit, basis) in dist.layout.bases(in_dim).iter().enumerate() {
        if basis[axis] == 0 {
            continue;
        }
        if basis.iter().enumerate().any(|(d, &x)| d != axis && x != 0) {
            return Err(format!(
                "a {in_dim} basis moves along the axis and another dimension at once; not supported"
            ));
        }
        bits.push(bit);
    }
    Ok(bits)
}

/// The row-major index of `coordinates` (one i32 each) in `shape`: the
/// [`ordered_index`] with the last dimension fastest.
pub(super) fn linear_index<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    coordinates: &[Value<'c, 'a>],
    shape: &[i64],
) -> Value<'c, 'a> {
    let order: Vec<usize> = (0..shape.len()).rev().collect();
    ordered_index(emit, coordinates, shape, &order)
}

/// The index of `coordinates` in `shape` laid out with the dimensions of
/// `order` fastest first.
fn ordered_index<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    coordinates: &[Value<'c, 'a>],
    shape: &[i64],
    order: &[usize],
) -> Value<'c, 'a> {
    let mut index: Option<Value> = None;
    let mut stride = 1;
    for &d in order {
        let term = emit.mul_by(coordinates[d], stride);
        index = Some(index.map_or(term, |i| emit.add(i, term)));
        stride *= shape[d];
    }
    index.unwrap_or_else(|| emit.i32(0))
}

/// `values` (one per operand) reduced over the lanes whose id bits are
/// `bits` with butterfly shuffles, the widest exchange first, as Triton's
/// `warpReduce`, so that floating-point results round as Triton's do; or,
/// from sm_80, with one `redux.sync` where all 32 lanes reduce one integer
/// operand by a single add, and, or, xor, min or max.
fn butterfly<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    values: &[Value<'c, 'a>],
    bits: &[usize],
    used: Option<Value<'c, 'a>>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    if let (5, [v], true) = (bits.len(), values, lw.options.compute_capability >= 80) {
        if let Some((kind, signed)) = redux_kind(op) {
            return Ok(vec![redux_sync(emit, *v, kind, signed)]);
        }
    }
    let mut values = values.to_vec();
    for &bit in bits.iter().rev() {
        let other: Vec<Value> = values
            .iter()
            .map(|&v| shuffle(emit, v, "bfly", emit.i32(1 << bit), 0x1f))
            .collect();
        values = combine(lw, emit, op, &values, &other, used)?;
    }
    Ok(values)
}

/// One partial result: the coordinates (axis zeroed) of the register it
/// started from, that register, and one value per operand.
struct Partial<'c, 'a> {
    key: Vec<i32>,
    register: usize,
    values: Vec<Value<'c, 'a>>,
}

pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let axis = super::axis(op)?;
    let inputs: Vec<Value<'c, 'a>> = op.operands().collect();
    let first = *inputs.first().ok_or("a reduction needs an operand")?;
    let src_type = first.r#type();
    let src = lw.distributed(src_type)?;
    if axis >= src.rank() {
        return Err(format!("axis {axis} is out of range"));
    }
    let values: Vec<Vec<Value>> = inputs
        .iter()
        .map(|v| lw.get(*v))
        .collect::<Result<_, _>>()?;

    // The scratch is claimed where the op starts, as Triton's barrier
    // analysis places its barrier before the op: the warps then wait for
    // each other's reads of an earlier use of the same bytes before they
    // combine, not after, when they already wait once for the partials.
    let warp_bits = axis_bits(&src, "warp", axis)?;
    let span = crate::allocation::buffer_range(op);
    if !warp_bits.is_empty() {
        lw.shared_access(emit, Access::Write(span.clone()));
    }

    // 1. Within the thread.
    let mut partials: Vec<Partial> = Vec::new();
    for r in 0..src.len() {
        if src.is_duplicate_register(r) {
            continue;
        }
        let mut key = src.registers[r].clone();
        key[axis] = 0;
        let element: Vec<Value> = values.iter().map(|v| v[r]).collect();
        match partials.iter().position(|p| p.key == key) {
            Some(i) => {
                let acc = partials[i].values.clone();
                partials[i].values = combine(lw, emit, op, &acc, &element, None)?;
            }
            None => partials.push(Partial {
                key,
                register: r,
                values: element,
            }),
        }
    }

    // 2. Across lanes: after the butterfly every lane holds the result.
    let lane_bits = axis_bits(&src, "lane", axis)?;
    for p in partials.iter_mut() {
        p.values = butterfly(lw, emit, op, &p.values, &lane_bits, None)?;
    }

    // 3. Across warps, through the scratch buffer, as Triton's second
    // stage: each warp's lane 0 along the axis stores its partials; then
    // consecutive threads load the `warps` partials of one result element
    // each, reduce them with a butterfly over those lanes, and the first of
    // them stores the result over the first partial, which every thread
    // holding that element finally reads.
    if !warp_bits.is_empty() {
        let warps = 1i64 << warp_bits.len();
        let kept = |v: &[Value<'c, 'a>]| -> Vec<Value<'c, 'a>> {
            v.iter()
                .enumerate()
                .filter(|(d, _)| *d != axis)
                .map(|(_, &c)| c)
                .collect()
        };
        let out_shape: Vec<i64> = src
            .shape
            .iter()
            .enumerate()
            .filter(|(d, _)| *d != axis)
            .map(|(_, &n)| n)
            .collect();
        // The result elements in the operand layout's order, fastest first.
        let out_order: Vec<usize> = src
            .layout
            .default_order("register")
            .into_iter()
            .map(|d| d as usize)
            .filter(|&d| d != axis)
            .map(|d| if d > axis { d - 1 } else { d })
            .collect();
        let elems = out_shape.iter().product::<i64>() * warps;
        let threads = src.layout.in_dim_size("lane") as i64 * src.layout.in_dim_size("warp") as i64;
        let (tid, lane, _) = lw.thread_ids();
        let lane_mask = lane_bits.iter().fold(0i64, |m, b| m | 1 << b);
        let leader = emit.icmp("eq", emit.and(lane, emit.i32(lane_mask)), emit.i32(0));
        // The warp's index along the axis: its axis bits, packed.
        let mut weights = vec![0i64; src.layout.bases("warp").len()];
        for (j, &bit) in warp_bits.iter().enumerate() {
            weights[bit] = 1 << j;
        }
        let warp_index = lw.thread_linear(emit, &[] as &[i64], &weights);
        let (bases, _) = scratch_parts(lw, emit, op, &inputs, elems);
        let element = |k: usize, index: Value<'c, 'a>, ty: Type<'c>| {
            emit.gep(bases[k], index, emit.int_type(types::memory_bits(ty)))
        };
        let load = |k: usize, index: Value<'c, 'a>, ty: Type<'c>| {
            let memory = emit.int_type(types::memory_bits(ty));
            from_int(
                emit,
                emit.value("llvm.load", &[element(k, index, ty)], memory, &[]),
                ty,
            )
        };
        let coordinates = lw.coordinates(emit, src_type)?;
        let slots: Vec<Value> = partials
            .iter()
            .map(|p| {
                let index = ordered_index(
                    emit,
                    &kept(&coordinates[p.register]),
                    &out_shape,
                    &out_order,
                );
                emit.mul(index, emit.i32(warps))
            })
            .collect();
        for (p, &slot) in partials.iter().zip(&slots) {
            for (k, &v) in p.values.iter().enumerate() {
                store_if(
                    emit,
                    element(k, emit.add(slot, warp_index), v.r#type()),
                    v,
                    leader,
                );
            }
        }
        if lw.ctas_per_sm_by_shared_memory().is_some_and(|n| n < 4) {
            // Shared memory leaves room for few CTAs per SM, so little else
            // hides the reduction's latency, and registers are not what
            // limits occupancy: every thread reads the warps' partials and
            // combines them itself, in the tree that Triton's second
            // butterfly builds, one barrier and one trip through shared
            // memory shorter. Tutorial 02's softmax on the H200, our time
            // over Triton's: 0.98 with 196 KB of shared memory and 0.99
            // with 98 KB this way, 1.05 and 1.01 with Triton's stage; at
            // 25 KB this way costs 5 registers and, through the
            // tutorial's grid, one CTA per SM (1.05), so Triton's stage is
            // kept there.
            lw.shared_access(emit, Access::Read(span));
            for (p, &slot) in partials.iter_mut().zip(&slots) {
                let mut level: Vec<Vec<Value>> = (0..warps)
                    .map(|w| {
                        p.values
                            .iter()
                            .enumerate()
                            .map(|(k, &v)| load(k, emit.add(slot, emit.i32(w)), v.r#type()))
                            .collect()
                    })
                    .collect();
                while level.len() > 1 {
                    let half = level.len() / 2;
                    level = (0..half)
                        .map(|i| combine(lw, emit, op, &level[i], &level[i + half], None))
                        .collect::<Result<_, _>>()?;
                }
                p.values = level.pop().expect("at least one warp");
            }
        } else {
            // Each thread rewrites only what it read: one barrier before.
            lw.shared_accesses(
                emit,
                vec![Access::Read(span.clone()), Access::Write(span.clone())],
            );
            let types: Vec<Type> = partials[0].values.iter().map(|v| v.r#type()).collect();
            let needed = (elems < threads).then(|| emit.icmp("ult", tid, emit.i32(elems)));
            let always = || emit.int(emit.int_type(1), 1);
            let first = emit.icmp("eq", emit.and(lane, emit.i32(warps - 1)), emit.i32(0));
            let writes = needed.map_or(first, |n| emit.and(n, first));
            let group_bits: Vec<usize> = (0..warp_bits.len()).collect();
            for round in 0..(elems / threads).max(1) {
                let offset = match round {
                    0 => tid,
                    _ => emit.add(tid, emit.i32(round * threads)),
                };
                let loaded: Vec<Value> = types
                    .iter()
                    .enumerate()
                    .map(|(k, &ty)| {
                        load_if(
                            emit,
                            element(k, offset, ty),
                            ty,
                            needed.unwrap_or_else(always),
                        )
                    })
                    .collect();
                // Threads past the partials combine garbage: their
                // assertions must not fire.
                let reduced = butterfly(lw, emit, op, &loaded, &group_bits, needed)?;
                for (k, &v) in reduced.iter().enumerate() {
                    store_if(emit, element(k, offset, v.r#type()), v, writes);
                }
            }
            lw.shared_access(emit, Access::Read(span));
            for (p, &slot) in partials.iter_mut().zip(&slots) {
                p.values = types
                    .iter()
                    .enumerate()
                    .map(|(k, &ty)| load(k, slot, ty))
                    .collect();
            }
        }
    }

    // The result: scalars, or the registers of the sliced layout.
    let results: Vec<Value<'c, 'a>> = op.results().map(Into::into).collect();
    let Some(result) = results.first() else {
        return Err("a reduction needs a result".into());
    };
    if TensorView::of(result.r#type()).is_none() {
        let [p] = partials.as_slice() else {
            return Err("a scalar result from several partial results (internal error)".into());
        };
        for (k, r) in results.iter().enumerate() {
            lw.set(*r, vec![p.values[k]]);
        }
        return Ok(());
    }
    let dst = lw.distributed(result.r#type())?;
    let mut picked: Vec<Vec<Value>> = vec![Vec::new(); results.len()];
    for c in &dst.registers {
        let mut key = c.clone();
        key.insert(axis, 0);
        let p = partials
            .iter()
            .find(|p| p.key == key)
            .ok_or("the result layout is not the slice of the operand's layout along the axis")?;
        for (k, v) in p.values.iter().enumerate() {
            picked[k].push(*v);
        }
    }
    for (r, v) in results.iter().zip(picked) {
        lw.set(*r, v);
    }
    Ok(())
}

/// The `redux.sync` kind of a one-operand reduction whose combine region is
/// a single integer op of at most 32 bits on its two arguments (Triton's
/// `matchReduxKind`), and whether narrower values extend signed.
fn redux_kind(op: OperationRef) -> Option<(&'static str, bool)> {
    let region = op.region(0).ok()?;
    let block = region.first_block()?;
    if block.argument_count() != 2 || block.next_in_region().is_some() {
        return None;
    }
    let combiner = block.first_operation()?;
    let ret = combiner.next_in_block()?;
    let name = ret.name();
    if name.as_string_ref().as_str().ok()? != "tt.reduce.return" || ret.next_in_block().is_some() {
        return None;
    }
    let result: Value = combiner.result(0).ok()?.into();
    let returned = ret.operand(0).ok()?;
    let args: Vec<Value> = (0..2)
        .map(|i| block.argument(i).map(Into::into))
        .collect::<Result<_, _>>()
        .ok()?;
    let operands: Vec<Value> = combiner.operands().collect();
    let on_args = operands.len() == 2
        && ((operands[0] == args[0] && operands[1] == args[1])
            || (operands[0] == args[1] && operands[1] == args[0]));
    if returned != result || !on_args {
        return None;
    }
    let ty = result.r#type();
    if !ty.is_integer() || types::bit_width(ty) > 32 {
        return None;
    }
    let name = combiner.name();
    Some(match name.as_string_ref().as_str().ok()? {
        "arith.addi" => ("add", false),
        "arith.andi" => ("and", false),
        "arith.ori" => ("or", false),
        "arith.xori" => ("xor", false),
        "arith.minsi" => ("min", true),
        "arith.minui" => ("umin", false),
        "arith.maxsi" => ("max", true),
        "arith.maxui" => ("umax", false),
        _ => return None,
    })
}

/// `v` reduced over the 32 lanes of the warp by one `redux.sync` (values
/// narrower than 32 bits extended for it and truncated back).
fn redux_sync<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    v: Value<'c, 'a>,
    kind: &str,
    signed: bool,
) -> Value<'c, 'a> {
    let ty = v.r#type();
    let narrow = types::bit_width(ty) < 32;
    let i32t = emit.i32_type();
    let word = if !narrow {
        v
    } else if signed {
        emit.value("llvm.sext", &[v], i32t, &[])
    } else {
        emit.value("llvm.zext", &[v], i32t, &[])
    };
    let all = emit.i32(-1);
    let kind_attr = emit.attr(&format!("#nvvm<redux_kind {kind}>"));
    let reduced = emit.value(
        "nvvm.redux.sync",
        &[word, all],
        i32t,
        &[("kind", kind_attr)],
    );
    if narrow {
        emit.value("llvm.trunc", &[reduced], ty, &[])
    } else {
        reduced
    }
}
