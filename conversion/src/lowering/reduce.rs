//! `tt.reduce`: a reduction along one axis, combined with the op's own
//! region (cloned once per combine step on scalars). Three stages: within
//! a thread over registers that differ only along the axis, across the
//! lanes of a warp with butterfly shuffles (or, from sm_80, one
//! `redux.sync` where all 32 lanes reduce one integer operand of at most 32
//! bits with a single add, and, or, xor, min or max, as Triton's
//! `warpReduce`), and across warps through a shared-memory scratch buffer.
//!
//! Scratch contract with `allocate-shared-memory-nv`: the op's scratch
//! starts at its `allocation.offset` attribute (bytes; 0 when absent) and
//! holds, for each operand in turn (each start aligned to its element
//! size), `out_elems * warps_along_axis` elements, where `out_elems` is the
//! number of elements of the result (the input shape without the axis).
//! Slot `index * warps_along_axis + w` holds the partial of the warp whose
//! index along the axis is `w`, for the result element at row-major
//! `index`. This is Triton's scratch size for a reduction (the input shape
//! with the axis replaced by the warps along it, summed over operands).

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
/// bits travel as one i32, 64-bit values as two.
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
    let i64_type = emit.int_type(64);
    let bits = to_int(emit, v, 64);
    let lo = emit.value("llvm.trunc", &[bits], i32_type, &[]);
    let hi = emit.value(
        "llvm.trunc",
        &[emit.lshr(bits, emit.int(i64_type, 32))],
        i32_type,
        &[],
    );
    let (lo, hi) = (one(lo), one(hi));
    let lo = emit.value("llvm.zext", &[lo], i64_type, &[]);
    let hi = emit.value("llvm.zext", &[hi], i64_type, &[]);
    let joined = emit.or(lo, emit.shl(hi, emit.int(i64_type, 32)));
    from_int(emit, joined, ty)
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
    let constraint = match bits {
        8 => "c",
        16 => "h",
        32 => "r",
        _ => "l",
    };
    emit.inline_asm(
        &format!("@$2 st.shared.b{bits} [ $0 + 0 ], $1;"),
        &format!("r,{constraint},b"),
        &[address, to_int(emit, v, bits), predicate],
        None,
    );
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

/// The row-major index of `coordinates` (one i32 each) in `shape`.
pub(super) fn linear_index<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    coordinates: &[Value<'c, 'a>],
    shape: &[i64],
) -> Value<'c, 'a> {
    let mut index: Option<Value> = None;
    for (&c, &n) in coordinates.iter().zip(shape) {
        index = Some(match index {
            None => c,
            Some(i) => emit.add(emit.mul(i, emit.i32(n)), c),
        });
    }
    index.unwrap_or_else(|| emit.i32(0))
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
    // The widest exchange comes first, as in Triton's `warpReduce`, so that
    // floating-point results round as Triton's do; each partial goes
    // through all its exchanges before the next, in Triton's order.
    let lane_bits = axis_bits(&src, "lane", axis)?;
    let redux = (lane_bits.len() == 5 && lw.options.compute_capability >= 80)
        .then(|| redux_kind(op))
        .flatten();
    for p in partials.iter_mut() {
        if let (Some((kind, signed)), [v]) = (redux, p.values.as_slice()) {
            p.values = vec![redux_sync(emit, *v, kind, signed)];
            continue;
        }
        for &bit in lane_bits.iter().rev() {
            let other: Vec<Value> = p
                .values
                .iter()
                .map(|&v| shuffle(emit, v, "bfly", emit.i32(1 << bit), 0x1f))
                .collect();
            p.values = combine(lw, emit, op, &p.values, &other, None)?;
        }
    }

    // 3. Across warps, through the scratch buffer.
    let warp_bits = axis_bits(&src, "warp", axis)?;
    if !warp_bits.is_empty() {
        let warps = 1i64 << warp_bits.len();
        let out_shape: Vec<i64> = src
            .shape
            .iter()
            .enumerate()
            .filter(|(d, _)| *d != axis)
            .map(|(_, &n)| n)
            .collect();
        let out_elems: i64 = out_shape.iter().product();
        let (_, lane, warp) = lw.thread_ids();
        let lane_mask = lane_bits.iter().fold(0i64, |m, b| m | 1 << b);
        let leader = emit.icmp("eq", emit.and(lane, emit.i32(lane_mask)), emit.i32(0));
        let mut warp_index = emit.i32(0);
        for (j, &bit) in warp_bits.iter().enumerate() {
            let b = emit.and(emit.lshr(warp, emit.i32(bit as i64)), emit.i32(1));
            warp_index = emit.or(warp_index, emit.shl(b, emit.i32(j as i64)));
        }
        let base = scratch(lw, emit, op);
        let mut bases = Vec::new();
        let mut start = 0i64;
        for v in &inputs {
            let bytes = memory_bytes(lw.element_type(v.r#type()));
            start = (start + bytes - 1) / bytes * bytes;
            bases.push(emit.gep(base, emit.i32(start), emit.int_type(8)));
            start += out_elems * warps * bytes;
        }
        let coordinates = lw.coordinates(emit, src_type)?;
        let slots: Vec<Value> = partials
            .iter()
            .map(|p| {
                let kept: Vec<Value> = coordinates[p.register]
                    .iter()
                    .enumerate()
                    .filter(|(d, _)| *d != axis)
                    .map(|(_, &c)| c)
                    .collect();
                emit.mul(linear_index(emit, &kept, &out_shape), emit.i32(warps))
            })
            .collect();
        let span = crate::allocation::buffer_range(op);
        lw.shared_access(emit, Access::Write(span.clone()));
        for (p, &slot) in partials.iter().zip(&slots) {
            for (k, &v) in p.values.iter().enumerate() {
                let memory = emit.int_type(types::memory_bits(v.r#type()));
                let address = emit.gep(bases[k], emit.add(slot, warp_index), memory);
                store_if(emit, address, v, leader);
            }
        }
        lw.shared_access(emit, Access::Read(span));
        for (p, &slot) in partials.iter_mut().zip(&slots) {
            let mut level: Vec<Vec<Value>> = (0..warps)
                .map(|w| {
                    p.values
                        .iter()
                        .enumerate()
                        .map(|(k, &v)| {
                            let ty = v.r#type();
                            let memory = emit.int_type(types::memory_bits(ty));
                            let address = emit.gep(bases[k], emit.add(slot, emit.i32(w)), memory);
                            let word = emit.value("llvm.load", &[address], memory, &[]);
                            from_int(emit, word, ty)
                        })
                        .collect()
                })
                .collect();
            // Every thread combines the warps' partials in the tree that
            // Triton's second butterfly (over the partials, widest exchange
            // first) builds in its lane 0, whose result all threads then
            // read: the same combines in the same order, without the
            // shuffles and the second trip through shared memory.
            while level.len() > 1 {
                let half = level.len() / 2;
                level = (0..half)
                    .map(|i| combine(lw, emit, op, &level[i], &level[i + half], None))
                    .collect::<Result<_, _>>()?;
            }
            p.values = level.pop().expect("at least one warp");
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
