//! `tt.scan`: an inclusive scan along one axis (from the end when
//! `reverse` is set), with the op's own combine region cloned on scalars.
//!
//! The axis must be laid out, from its lowest coordinate bit up, as `S`
//! consecutive registers (a *chunk*), then `L` consecutive lane-id bits,
//! then `W` warps, then `T` repetitions of that tile in registers; no
//! register may repeat another's element. Lanes and warps may repeat
//! others (a layout whose tile exceeds the shape): they scan their copies
//! alongside, off the axis.
//! Everything below is in *scan order*: element, lane, warp and tile
//! indices are mirrored when `reverse` is set, so the accumulated value is
//! always the combine's left operand and the new element its right one.
//!
//! 1. Within a thread, each chunk is scanned sequentially.
//! 2. Across the `L` lanes, the last element of each chunk is scanned
//!    Hillis–Steele style: `shfl.sync.up` (`down` when reversed) by 1, 2,
//!    4, ... lanes; lanes closer to the start than the offset keep their
//!    value.
//! 3. With `W > 1`, the last lane of every warp writes its chunk totals to
//!    the scratch buffer, and after a barrier every thread reads the totals
//!    of all warps. Per non-axis position, tiles are visited in order with
//!    a carry (the total of the tiles before): a warp's prefix is the carry
//!    combined with the totals of the warps before it. With `W == 1` the
//!    carry is the previous tile's last lane's value, read with
//!    `shfl.sync.idx`.
//! 4. The prefix is applied to the chunk's last element; the other
//!    elements of a chunk get the previous lane's final last element
//!    (`shfl` by one lane) or, on the first lane, the prefix.
//!
//! Scratch contract with `allocate-shared-memory-nv` (see
//! `allocation::scratch_bytes`): only when `W > 1`; the op's scratch
//! starts at its `allocation.offset` attribute (bytes; 0 when absent) and
//! holds the operands one after the other (widest element type first, as
//! in a reduction's scratch), each
//! `chunks * W * P` elements of `ceil(bits / 8)` bytes with no padding,
//! where `chunks` is the number of chunks a thread holds (its registers
//! over `S`: the non-axis register elements times the tiles along the
//! axis and across the other dimensions) and `P` the number of threads
//! sharing a lane-and-warp position along the axis (`prod(tpw) /
//! tpw[axis] * prod(wpc) / wpc[axis]`). Slot `(c * W + w) * P + p` holds
//! the total of chunk `c` of the warp at scan-order position `w` along the
//! axis, for the thread whose non-axis lane and warp bits, packed (lane
//! bits low), are `p`. The lowering checks that this size equals the
//! allocator's and refuses the op otherwise.

use melior::ir::{
    operation::{OperationLike, OperationRef},
    Value, ValueLike,
};
use tt_dialect::ir as ttir;

use super::reduce::{axis_bits, combine, from_int, scratch_parts, shuffle, store_if};
use super::{types, Access, Distributed, Emitter, LowerResult, Lowering};

/// How the axis is spread over registers, lanes and warps.
struct AxisSplit {
    /// Consecutive registers along the axis (`S`).
    chunk: usize,
    /// The lowest lane-id bit along the axis.
    lane_shift: usize,
    /// Lanes along the axis (`L`).
    lanes: i64,
    /// The warp-id bits along the axis, lowest coordinate first (`W` =
    /// 2^len).
    warp_bits: Vec<usize>,
    /// Repetitions of the `S * L * W` tile along the axis (`T`).
    tiles: usize,
}

fn split_axis(dist: &Distributed, axis: usize) -> Result<AxisSplit, String> {
    let unsupported = || {
        "tt.scan needs the axis laid out as consecutive registers, then consecutive lanes, then \
         warps, then repeated tiles; this layout is not supported"
            .to_owned()
    };
    let along = |in_dim: &str| -> Result<Vec<(usize, i32)>, String> {
        Ok(axis_bits(dist, in_dim, axis)?
            .into_iter()
            .map(|bit| (bit, dist.layout.bases(in_dim)[bit][axis]))
            .collect())
    };
    let mut registers = along("register")?;
    registers.sort_by_key(|&(_, v)| v);
    let lanes = along("lane")?;
    let warps = along("warp")?;
    let mut expected = 1i32;
    let mut low = 0;
    while low < registers.len() && registers[low].1 == expected {
        expected *= 2;
        low += 1;
    }
    for (j, &(bit, v)) in lanes.iter().enumerate() {
        if v != expected || bit != lanes[0].0 + j {
            return Err(unsupported());
        }
        expected *= 2;
    }
    for &(_, v) in &warps {
        if v != expected {
            return Err(unsupported());
        }
        expected *= 2;
    }
    for &(_, v) in &registers[low..] {
        if v != expected {
            return Err(unsupported());
        }
        expected *= 2;
    }
    if i64::from(expected) != dist.shape[axis] {
        return Err(unsupported());
    }
    Ok(AxisSplit {
        chunk: 1 << low,
        lane_shift: lanes.first().map_or(0, |&(bit, _)| bit),
        lanes: 1 << lanes.len(),
        warp_bits: warps.iter().map(|&(bit, _)| bit).collect(),
        tiles: 1 << (registers.len() - low),
    })
}

/// Whether some registers repeat others (a layout broadcasting within a
/// thread): they would be scanned as distinct elements, so such scans are
/// refused. Lanes and warps that repeat others are fine: they scan their
/// copy alongside.
fn repeats_in_registers(dist: &Distributed) -> bool {
    (0..dist.len()).any(|r| dist.is_duplicate_register(r))
}

const REPEATS: &str = "tt.scan over a layout that repeats elements in registers";

/// The scratch elements (per operand) the lowering of a scan along `axis`
/// of a tensor laid out as `dist` uses: 0 within one warp along the axis,
/// else `chunks * W * P` (see the module documentation). `Err` names what
/// the lowering cannot scan.
pub(crate) fn scratch_elements(dist: &Distributed, axis: usize) -> Result<u64, String> {
    if axis >= dist.rank() {
        return Err(format!(
            "tt.scan along axis {axis}, which a rank-{} tensor does not have,",
            dist.rank()
        ));
    }
    if repeats_in_registers(dist) {
        return Err(REPEATS.into());
    }
    let split = split_axis(dist, axis).map_err(|_| "tt.scan over this layout of its axis")?;
    if split.warp_bits.is_empty() {
        return Ok(0);
    }
    let lane_bases = dist.layout.bases("lane").len();
    let warp_bases = dist.layout.bases("warp").len();
    let axis_lanes = split.lanes.trailing_zeros() as usize;
    let parallel = 1u64 << (lane_bases - axis_lanes + warp_bases - split.warp_bits.len());
    let chunks = (dist.len() / split.chunk) as u64;
    Ok(chunks * (1u64 << split.warp_bits.len()) * parallel)
}

/// The bits `bits` of `id`, packed into an index (first bit lowest).
fn gather_bits<'c, 'a>(emit: &Emitter<'c, 'a>, id: Value<'c, 'a>, bits: &[usize]) -> Value<'c, 'a> {
    let mut index = emit.i32(0);
    for (j, &bit) in bits.iter().enumerate() {
        let b = emit.and(emit.lshr(id, emit.i32(bit as i64)), emit.i32(1));
        index = emit.or(index, emit.shl(b, emit.i32(j as i64)));
    }
    index
}

/// `index` mirrored in `0..n` when `reverse` is set.
fn scan_order<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    index: Value<'c, 'a>,
    n: i64,
    reverse: bool,
) -> Value<'c, 'a> {
    if reverse {
        emit.binary("llvm.sub", emit.i32(n - 1), index)
    } else {
        index
    }
}

/// `if condition { on_true } else { on_false }`, per operand.
fn select_all<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    condition: Value<'c, 'a>,
    on_true: &[Value<'c, 'a>],
    on_false: &[Value<'c, 'a>],
) -> Vec<Value<'c, 'a>> {
    on_true
        .iter()
        .zip(on_false)
        .map(|(&t, &f)| emit.select(condition, t, f))
        .collect()
}

/// What comes before a value in scan order: the combined values, and when
/// they exist only for some threads, the i1 that says which.
#[derive(Clone)]
struct Prefix<'c, 'a> {
    values: Vec<Value<'c, 'a>>,
    valid: Option<Value<'c, 'a>>,
}

/// `prefix ⊕ values` where the prefix exists, `values` elsewhere.
fn apply<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    prefix: Option<&Prefix<'c, 'a>>,
    values: &[Value<'c, 'a>],
) -> Result<Vec<Value<'c, 'a>>, String> {
    let Some(prefix) = prefix else {
        return Ok(values.to_vec());
    };
    let combined = combine(lw, emit, op, &prefix.values, values, prefix.valid)?;
    Ok(match prefix.valid {
        Some(valid) => select_all(emit, valid, &combined, values),
        None => combined,
    })
}

pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let axis = super::axis(op)?;
    let reverse = ttir::inherent_attribute(op, "reverse").and_then(ttir::bool_value) == Some(true);
    let inputs: Vec<Value<'c, 'a>> = op.operands().collect();
    let first = *inputs.first().ok_or("a scan needs an operand")?;
    let src = lw.distributed(first.r#type())?;
    if axis >= src.rank() {
        return Err(format!("axis {axis} is out of range"));
    }
    for v in &inputs[1..] {
        if lw.distributed(v.r#type())?.layout != src.layout {
            return Err("the operands of a scan must share one layout".into());
        }
    }
    if repeats_in_registers(&src) {
        return Err(format!("{REPEATS} is not supported yet"));
    }
    let split = split_axis(&src, axis)?;
    let (s_len, lanes, tiles) = (split.chunk, split.lanes, split.tiles);
    let warps = 1i64 << split.warp_bits.len();
    let values: Vec<Vec<Value>> = inputs
        .iter()
        .map(|v| lw.get(*v))
        .collect::<Result<_, _>>()?;
    // cur[r]: the operands' values at register r.
    let mut cur: Vec<Vec<Value>> = (0..src.len())
        .map(|r| values.iter().map(|v| v[r]).collect())
        .collect();

    // The chunks: per non-axis position (a group), the registers of each
    // tile in scan order.
    let tile_span = (s_len as i64 * lanes * warps) as i32;
    let mut groups: Vec<(Vec<i32>, Vec<usize>)> = Vec::new();
    for (r, c) in src.registers.iter().enumerate() {
        let mut key = c.clone();
        key[axis] = 0;
        let i = match groups.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                groups.push((key, vec![usize::MAX; s_len * tiles]));
                groups.len() - 1
            }
        };
        let pos = c[axis];
        let (t, s) = ((pos / tile_span) as usize, (pos as usize) % s_len);
        groups[i].1[t * s_len + s] = r;
    }
    if groups.iter().any(|(_, g)| g.contains(&usize::MAX)) {
        return Err("the layout does not hold whole chunks along the scan axis".into());
    }
    let at = |group: &[usize], t: usize, s: usize| -> usize {
        if reverse {
            group[(tiles - 1 - t) * s_len + (s_len - 1 - s)]
        } else {
            group[t * s_len + s]
        }
    };

    let (_, lane, warp) = lw.thread_ids();
    let lane_index = (lanes > 1).then(|| {
        let raw = emit.and(
            emit.lshr(lane, emit.i32(split.lane_shift as i64)),
            emit.i32(lanes - 1),
        );
        scan_order(emit, raw, lanes, reverse)
    });
    let (up, clamp) = if reverse { ("down", 0x1f) } else { ("up", 0) };

    // 1 and 2: within the thread, then across lanes; `totals[g][t]` is the
    // chunk's last element scanned over the lanes before it in its warp.
    let mut totals: Vec<Vec<Vec<Value>>> = Vec::new();
    for (_, group) in &groups {
        let mut row = Vec::new();
        for t in 0..tiles {
            for s in 1..s_len {
                let (prev, this) = (at(group, t, s - 1), at(group, t, s));
                cur[this] = combine(lw, emit, op, &cur[prev], &cur[this], None)?;
            }
            let mut x = cur[at(group, t, s_len - 1)].clone();
            if let Some(index) = lane_index {
                let mut i = 1;
                while i < lanes {
                    let offset = emit.i32(i << split.lane_shift);
                    let other: Vec<Value> = x
                        .iter()
                        .map(|&v| shuffle(emit, v, up, offset, clamp))
                        .collect();
                    let keep = emit.icmp("uge", index, emit.i32(i));
                    let combined = combine(lw, emit, op, &other, &x, Some(keep))?;
                    x = select_all(emit, keep, &combined, &x);
                    i *= 2;
                }
            }
            row.push(x);
        }
        totals.push(row);
    }

    // 3. Across warps: every warp's chunk totals, through the scratch.
    let mut warp_totals: Vec<Vec<Vec<Vec<Value>>>> = Vec::new();
    let mut warp_index = None;
    if warps > 1 {
        let index = scan_order(
            emit,
            gather_bits(emit, warp, &split.warp_bits),
            warps,
            reverse,
        );
        warp_index = Some(index);
        let lane_bits: Vec<usize> = (0..src.layout.bases("lane").len())
            .filter(|b| {
                (*b < split.lane_shift) || *b >= split.lane_shift + lanes.trailing_zeros() as usize
            })
            .collect();
        let warp_other: Vec<usize> = (0..src.layout.bases("warp").len())
            .filter(|b| !split.warp_bits.contains(b))
            .collect();
        let parallel = 1i64 << (lane_bits.len() + warp_other.len());
        let parallel_id = emit.or(
            gather_bits(emit, lane, &lane_bits),
            emit.shl(
                gather_bits(emit, warp, &warp_other),
                emit.i32(lane_bits.len() as i64),
            ),
        );
        let chunks = (groups.len() * tiles) as i64;
        let elems = chunks * warps * parallel;
        let (bases, start) = scratch_parts(lw, emit, op, &inputs, elems);
        let reserved = crate::allocation::scratch_bytes(op)?.unwrap_or(0);
        if reserved != start as u64 {
            return Err(format!(
                "the scan needs {start} bytes of scratch but the allocator reserves {reserved}"
            ));
        }
        let slot = |c: i64, w: Value<'c, 'a>| {
            emit.add(
                emit.mul(emit.add(emit.i32(c * warps), w), emit.i32(parallel)),
                parallel_id,
            )
        };
        let last_lane = match lane_index {
            Some(i) => emit.icmp("eq", i, emit.i32(lanes - 1)),
            None => emit.int(emit.int_type(1), 1),
        };
        let span = crate::allocation::buffer_range(op);
        lw.shared_access(emit, Access::Write(span.clone()));
        for (g, row) in totals.iter().enumerate() {
            for (t, x) in row.iter().enumerate() {
                let at_slot = slot((g * tiles + t) as i64, index);
                for (k, &v) in x.iter().enumerate() {
                    let memory = emit.int_type(types::memory_bits(v.r#type()));
                    store_if(emit, emit.gep(bases[k], at_slot, memory), v, last_lane);
                }
            }
        }
        lw.shared_access(emit, Access::Read(span));
        for (g, row) in totals.iter().enumerate() {
            let mut loaded_row = Vec::new();
            for (t, x) in row.iter().enumerate() {
                let mut per_warp = Vec::new();
                for w in 0..warps {
                    let at_slot = slot((g * tiles + t) as i64, emit.i32(w));
                    let loaded: Vec<Value> = x
                        .iter()
                        .enumerate()
                        .map(|(k, &v)| {
                            let ty = v.r#type();
                            let memory = emit.int_type(types::memory_bits(ty));
                            let address = emit.gep(bases[k], at_slot, memory);
                            from_int(emit, emit.value("llvm.load", &[address], memory, &[]), ty)
                        })
                        .collect();
                    per_warp.push(loaded);
                }
                loaded_row.push(per_warp);
            }
            warp_totals.push(loaded_row);
        }
    }

    // 4. Per group, tiles in order with a carry; then the chunk's elements.
    let last_source = lane_index.filter(|_| warps == 1 && tiles > 1).map(|_| {
        let last = if reverse { 0 } else { lanes - 1 };
        let mask = (lanes - 1) << split.lane_shift;
        emit.or(
            emit.and(lane, emit.i32((lw.threads_per_warp - 1) & !mask)),
            emit.i32(last << split.lane_shift),
        )
    });
    for (g, (_, group)) in groups.iter().enumerate() {
        let mut carry: Option<Vec<Value>> = None;
        for t in 0..tiles {
            let prefix = match warp_index {
                Some(index) => {
                    let mut full = carry.clone();
                    let mut masked = carry.clone().map(|values| Prefix {
                        values,
                        valid: None,
                    });
                    for w in 0..warps {
                        if w == warps - 1 && t + 1 == tiles {
                            break;
                        }
                        let total = &warp_totals[g][t][w as usize];
                        let through = match &full {
                            Some(f) => combine(lw, emit, op, f, total, None)?,
                            None => total.clone(),
                        };
                        if w < warps - 1 {
                            let later = emit.icmp("ugt", index, emit.i32(w));
                            masked = Some(match masked {
                                Some(m) => Prefix {
                                    values: select_all(emit, later, &through, &m.values),
                                    valid: m.valid,
                                },
                                None => Prefix {
                                    values: through.clone(),
                                    valid: Some(later),
                                },
                            });
                        }
                        full = Some(through);
                    }
                    carry = full;
                    masked
                }
                None => carry.clone().map(|values| Prefix {
                    values,
                    valid: None,
                }),
            };
            let last = at(group, t, s_len - 1);
            let x = apply(lw, emit, op, prefix.as_ref(), &totals[g][t])?;
            cur[last] = x.clone();
            if warp_index.is_none() && t + 1 < tiles {
                carry = Some(match last_source {
                    Some(source) => x
                        .iter()
                        .map(|&v| shuffle(emit, v, "idx", source, 0x1f))
                        .collect(),
                    None => x.clone(),
                });
            }
            if s_len == 1 {
                continue;
            }
            let before = match lane_index {
                Some(index) => {
                    let offset = emit.i32(1 << split.lane_shift);
                    let previous: Vec<Value> = x
                        .iter()
                        .map(|&v| shuffle(emit, v, up, offset, clamp))
                        .collect();
                    Some(match &prefix {
                        Some(p) => {
                            let first_lane = emit.icmp("eq", index, emit.i32(0));
                            Prefix {
                                values: select_all(emit, first_lane, &p.values, &previous),
                                valid: p.valid.map(|v| {
                                    emit.select(first_lane, v, emit.int(emit.int_type(1), 1))
                                }),
                            }
                        }
                        None => Prefix {
                            values: previous,
                            valid: Some(emit.icmp("ne", index, emit.i32(0))),
                        },
                    })
                }
                None => prefix,
            };
            for s in 0..s_len - 1 {
                let r = at(group, t, s);
                cur[r] = apply(lw, emit, op, before.as_ref(), &cur[r])?;
            }
        }
    }

    let results: Vec<Value<'c, 'a>> = op.results().map(Into::into).collect();
    if results.len() != inputs.len() {
        return Err("a scan has one result per operand".into());
    }
    for (k, result) in results.iter().enumerate() {
        lw.set(*result, cur.iter().map(|v| v[k]).collect());
    }
    Ok(())
}
