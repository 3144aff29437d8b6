//! Hopper's asynchronous machinery, as Triton 3.6 lowers it: mbarriers
//! (`ttng.init_barrier`, `inval_barrier`, `barrier_expect`,
//! `arrive_barrier`, `wait_barrier`, `async_copy_mbarrier_arrive`) as
//! predicated `mbarrier.*` PTX on one thread; TMA copies
//! (`ttng.async_tma_copy_global_to_local`, `async_tma_copy_local_to_global`,
//! `async_tma_reduce`, `async_tma_store_wait`) as `cp.async.bulk.tensor`
//! (`cp.reduce.async.bulk.tensor`) from elected lanes; Blackwell's row
//! gathers and scatters (`ttng.async_tma_gather`,
//! `async_tma_scatter`) as `tile::gather4` / `tile::scatter4` messages of
//! four rows each, spread over the warps that hold distinct row offsets;
//! and device-side descriptors (`ttng.tensormap_create`,
//! `tensormap_fenceproxy_acquire`) as `tensormap.*` PTX.
//!
//! A TMA copy moves its buffer in Triton's TMA blocks (every dimension at
//! most 256 elements and, with a swizzled NVMMA layout, rows exactly one
//! swizzle wide): one message when the buffer is one block, else one per
//! block of an NVMMA buffer, spread over the warps. Other copies of
//! several blocks are refused with a located error.

use melior::ir::{
    attribute::DenseI64ArrayAttribute,
    operation::{OperationLike, OperationRef},
    Value, ValueLike,
};
use tt_dialect::ir as ttir;
use ttg_dialect::layout::{tma_block_shape, Layout, MemDesc, Nvmma, UnswizzledNvmma};

use super::{int_attr, layout::xor_of_bits, operand, Access, Emitter, LowerResult, Lowering};

/// Thread 0 of the warp group ([`Lowering::thread_group`]): the one
/// thread that drives a barrier.
fn thread_zero<'c, 'a>(lw: &Lowering<'c, 'a>, emit: &Emitter<'c, 'a>) -> Value<'c, 'a> {
    let (tid, _, _) = lw.thread_ids();
    emit.icmp("eq", tid, emit.i32(0))
}

/// The first `n` threads of the warp group.
fn threads_below<'c, 'a>(lw: &Lowering<'c, 'a>, emit: &Emitter<'c, 'a>, n: i64) -> Value<'c, 'a> {
    let (tid, _, _) = lw.thread_ids();
    emit.icmp("slt", tid, emit.i32(n))
}

/// The optional predicate operand `index` of `op`; `None` when absent or
/// the constant true.
fn optional_pred<'c, 'a>(
    lw: &Lowering<'c, 'a>,
    op: OperationRef<'c, 'a>,
    index: usize,
) -> Result<Option<Value<'c, 'a>>, String> {
    match ttir::operand(op, index) {
        Some(value) if !is_true(value) => lw.scalar(value).map(Some),
        _ => Ok(None),
    }
}

/// Whether `value` is the constant true.
fn is_true(value: Value) -> bool {
    ttir::constant_of(value)
        .and_then(ttir::bool_value)
        .unwrap_or(false)
}

/// One `mbarrier` instruction on the barrier at operand 0, by thread 0
/// where the op's predicate (operand `pred`, if any) holds.
fn mbarrier<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    pred: Option<usize>,
    asm: &str,
) -> LowerResult {
    let barrier = operand(op, 0)?;
    let pointer = lw.scalar(barrier)?;
    let mut predicate = thread_zero(lw, emit);
    if let Some(p) = pred
        .map(|i| optional_pred(lw, op, i))
        .transpose()?
        .flatten()
    {
        predicate = emit.and(predicate, p);
    }
    let span = lw.buffer_span(barrier);
    lw.shared_access(emit, Access::Write(span));
    emit.void_asm(asm, "b,r", &[predicate, pointer]);
    Ok(())
}

/// `ttng.init_barrier`: thread 0 sets the arrival count.
pub fn init_barrier<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let count = int_attr(op, "count")?;
    let asm = format!("@$0 mbarrier.init.shared::cta.b64 [$1], {count};");
    mbarrier(lw, emit, op, None, &asm)
}

/// `ttng.inval_barrier`: thread 0 invalidates the barrier.
pub fn inval_barrier<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    mbarrier(
        lw,
        emit,
        op,
        None,
        "@$0 mbarrier.inval.shared::cta.b64 [$1];",
    )
}

/// `ttng.barrier_expect`: thread 0 (where the predicate holds) arrives and
/// announces `size` bytes of transactions.
pub fn barrier_expect<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let size = int_attr(op, "size")?;
    let asm = format!("@$0 mbarrier.arrive.expect_tx.shared.b64 _, [$1], {size};");
    mbarrier(lw, emit, op, Some(1), &asm)
}

/// `ttng.arrive_barrier`: thread 0 (where the predicate holds) arrives
/// `count` times.
pub fn arrive_barrier<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let count = int_attr(op, "count")?;
    let asm = format!("@$0 mbarrier.arrive.shared::cta.b64 _, [$1], {count};");
    mbarrier(lw, emit, op, Some(1), &asm)
}

/// `ttng.wait_barrier`: every thread spins on `try_wait.parity` until the
/// barrier's phase `phase` completes; with a predicate, threads where it
/// is false skip the wait.
pub fn wait_barrier<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let barrier = operand(op, 0)?;
    let pointer = lw.scalar(barrier)?;
    let phase = lw.scalar(operand(op, 1)?)?;
    // The barrier completes when the data it tracks has landed: what
    // follows reads it.
    let span = lw.buffer_span(barrier);
    lw.shared_access(emit, Access::Read(span));
    let wait = "waitLoop:\n\tmbarrier.try_wait.parity.shared.b64 complete, [$0], $1;\n\t\
                @!complete bra.uni waitLoop;\n";
    // alloc, phase, the optional predicate, then the dependencies.
    let pred = match ttir::segment(op, 2).and_then(|p| p.first().copied()) {
        Some(p) if !is_true(p) => Some(lw.scalar(p)?),
        _ => None,
    };
    match pred {
        None => emit.void_asm(
            &format!("\n{{\n\t.reg .pred complete;\n\t{wait}}}\n"),
            "r,r",
            &[pointer, phase],
        ),
        Some(pred) => emit.void_asm(
            &format!(
                "\n{{\n\t@!$2 bra.uni skipWait;\n\t.reg .pred complete;\n\t{wait}\tskipWait:\n}}\n"
            ),
            "r,r,b",
            &[pointer, phase, pred],
        ),
    };
    Ok(())
}

/// `ttng.async_copy_mbarrier_arrive`: the barrier tracks this thread's
/// outstanding `cp.async` copies (`noIncrement`: without counting an
/// arrival in advance).
pub fn async_copy_mbarrier_arrive<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let pointer = lw.scalar(operand(op, 0)?)?;
    let no_increment = ttir::has_unit_attribute(op, "noIncrement");
    let attributes: Vec<(&str, melior::ir::Attribute)> = if no_increment {
        vec![("noinc", emit.attr("true"))]
    } else {
        Vec::new()
    };
    emit.op(
        "nvvm.cp.async.mbarrier.arrive",
        &[pointer],
        &[],
        &attributes,
    );
    Ok(())
}

/// One TMA message of a copy: what it adds to the copy's coordinates
/// (outermost dimension first, as the op gives them) and where its box
/// starts in the buffer, in bytes from the buffer's base.
struct Message {
    coordinates: Vec<i64>,
    byte_offset: i64,
}

/// The TMA messages that move the whole buffer `desc`: one where the
/// buffer is a single TMA block (Triton's `getTMABlockShape`), else one
/// per block of an unswizzled NVMMA buffer (the blocks one after another)
/// or of a swizzled one (in more than two dimensions, a
/// block spanning the middle ones), each landing where the layout puts
/// the block's first element (a block starts at a swizzle row boundary and
/// a column block, where the swizzle permutes nothing).
fn messages(desc: &MemDesc) -> Result<Vec<Message>, String> {
    let Some(Layout::NvmmaShared {
        swizzling_byte_width,
        transposed,
        ..
    }) = Layout::read(desc.encoding)
    else {
        return Err("a TMA copy into a shared layout other than NVMMA is not supported yet".into());
    };
    let bits = super::types::memory_bits(desc.element);
    let block = tma_block_shape(&desc.shape, bits, swizzling_byte_width, transposed);
    if !desc.shape.is_empty() && block == desc.shape {
        return Ok(vec![Message {
            coordinates: vec![0; desc.shape.len()],
            byte_offset: 0,
        }]);
    }
    let refused = || {
        format!(
            "a TMA copy of {:?} elements in blocks of {block:?} (several messages) into this layout is not supported yet",
            desc.shape
        )
    };
    if let Some(u) = UnswizzledNvmma::of(desc) {
        // Unswizzled: the blocks one after another, dimension 0 first.
        let bytes = u.block_elements() * i64::from(bits) / 8;
        return Ok(block_starts(&u.shape, &u.block)
            .into_iter()
            .zip(0..)
            .map(|(coordinates, index)| Message {
                coordinates,
                byte_offset: index * bytes,
            })
            .collect());
    }
    let layout = Nvmma::of(desc).map_err(|_| refused())?;
    let rank = desc.shape.len();
    let tiles =
        block.iter().all(|&b| b > 0) && desc.shape.iter().zip(&block).all(|(&s, &b)| s % b == 0);
    // In more than two dimensions a box's rows (its leading coordinates
    // folded) are consecutive only where it spans every middle dimension.
    let consecutive_rows = rank <= 2 || (1..rank - 1).all(|d| block[d] == desc.shape[d]);
    if !tiles || !consecutive_rows {
        return Err(refused());
    }
    let mut messages = Vec::new();
    for start in block_starts(&desc.shape, &block) {
        let (row, column) = if rank > 2 {
            (Nvmma::row_of(&desc.shape, &start), start[rank - 1])
        } else if layout.inner == 1 {
            (start[0], start[1])
        } else {
            (start[1], start[0])
        };
        messages.push(Message {
            coordinates: start,
            byte_offset: layout.unswizzled(row, column) * layout.element_bits / 8,
        });
    }
    Ok(messages)
}

/// The first element of every `block` of `shape` (which the blocks tile),
/// in Triton's order: the blocks along dimension 0 first.
fn block_starts(shape: &[i64], block: &[i64]) -> Vec<Vec<i64>> {
    let counts: Vec<i64> = shape.iter().zip(block).map(|(s, b)| s / b).collect();
    (0..counts.iter().product::<i64>())
        .map(|index| {
            let mut rest = index;
            counts
                .iter()
                .zip(block)
                .map(|(&count, &b)| {
                    let i = rest % count;
                    rest /= count;
                    i * b
                })
                .collect()
        })
        .collect()
}

/// The coordinates of `message`: `base` (innermost first, as TMA takes
/// them) moved by `times` of the message's block (`times(delta)` the
/// amount for a nonzero coordinate `delta`). A buffer of lower rank than
/// the descriptor (a rank-reducing copy) holds its innermost dimensions;
/// the others stay where `base` puts them.
fn message_coordinates<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    base: &[Value<'c, 'a>],
    message: &Message,
    times: impl Fn(i64) -> Value<'c, 'a>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    if message.coordinates.len() > base.len() {
        return Err(format!(
            "a TMA copy of a {}-dimensional buffer through a {}-dimensional descriptor",
            message.coordinates.len(),
            base.len()
        ));
    }
    Ok(base
        .iter()
        .zip(
            message
                .coordinates
                .iter()
                .rev()
                .chain(std::iter::repeat(&0)),
        )
        .map(|(&c, &delta)| {
            if delta == 0 {
                c
            } else {
                emit.add(c, times(delta))
            }
        })
        .collect())
}

/// `elect.sync`: true in one lane of the warp.
fn elect<'c, 'a>(emit: &Emitter<'c, 'a>) -> Value<'c, 'a> {
    emit.value("nvvm.elect.sync", &[], emit.int_type(1), &[])
}

/// The predicate of message `index` of `count`: the op's, one elected
/// lane, of warp 0 for a single message; several are spread over the warps
/// (of the partition, inside a `ttg.warp_specialize`), message `k` issued
/// by warp `k` modulo their number, as Triton spreads them.
fn tma_pred<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    pred: Option<Value<'c, 'a>>,
    index: usize,
    count: usize,
) -> Value<'c, 'a> {
    let elected = elected(emit, pred);
    if count == 1 {
        return emit.and(elected, threads_below(lw, emit, lw.threads_per_warp));
    }
    let warps = group_warps(lw);
    let warp = lw.uniform_warp();
    let issuer = emit.icmp("eq", warp, emit.i32(index as i64 % warps));
    emit.and(elected, issuer)
}

/// The op's predicate (if any) and `elect.sync`'s.
fn elected<'c, 'a>(emit: &Emitter<'c, 'a>, pred: Option<Value<'c, 'a>>) -> Value<'c, 'a> {
    let elect = elect(emit);
    match pred {
        Some(p) => emit.and(p, elect),
        None => elect,
    }
}

/// The warps of the warp group that issues a copy's messages.
fn group_warps(lw: &Lowering) -> i64 {
    lw.thread_group()
        .map_or(lw.num_warps, |(_, threads)| threads / lw.threads_per_warp)
        .max(1)
}

/// Message `k` of `messages` as `k` times message 1 (its coordinates and
/// its byte offset), when every message is: the boxes of one row of
/// blocks along the innermost dimension, one after another in the buffer.
fn message_step(messages: &[Message]) -> Option<&Message> {
    let step = messages.get(1)?;
    messages
        .iter()
        .zip(0..)
        .all(|(m, k)| {
            m.byte_offset == k * step.byte_offset
                && m.coordinates.len() == step.coordinates.len()
                && m.coordinates
                    .iter()
                    .zip(&step.coordinates)
                    .all(|(&c, &s)| c == k * s)
        })
        .then_some(step)
}

/// One TMA instruction of a copy: its predicate, its coordinates
/// (innermost first) and where its box starts in the buffer.
struct Issue<'c, 'a> {
    pred: Value<'c, 'a>,
    coordinates: Vec<Value<'c, 'a>>,
    start: Start<'c, 'a>,
}

/// A box's start in the buffer, in bytes from its base.
enum Start<'c, 'a> {
    Fixed(i64),
    Computed(Value<'c, 'a>),
}

impl<'c, 'a> Start<'c, 'a> {
    /// The address of the box: `base` moved by the start.
    fn at(&self, emit: &Emitter<'c, 'a>, base: Value<'c, 'a>) -> Value<'c, 'a> {
        match *self {
            Start::Fixed(bytes) => emit.byte_offset(base, bytes),
            Start::Computed(bytes) => emit.gep(base, bytes, emit.int_type(8)),
        }
    }
}

/// The instructions that issue a copy's `messages` from the coordinates
/// `coords` (innermost first). Messages that step along the innermost
/// dimension ([`message_step`]) go as Triton issues them: in rounds of one
/// instruction, message `round + w` from warp `w` of the group (the
/// warp's message found from its id), in as many rounds as the messages
/// outnumber the warps. Others get one instruction each, message `k` from
/// warp `k` modulo the group's warps.
fn issues<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    pred: Option<Value<'c, 'a>>,
    coords: &[Value<'c, 'a>],
    messages: &[Message],
) -> Result<Vec<Issue<'c, 'a>>, String> {
    let Some(step) = message_step(messages) else {
        return messages
            .iter()
            .enumerate()
            .map(|(index, message)| {
                Ok(Issue {
                    pred: tma_pred(lw, emit, pred, index, messages.len()),
                    coordinates: message_coordinates(emit, coords, message, |d| emit.i32(d))?,
                    start: Start::Fixed(message.byte_offset),
                })
            })
            .collect();
    };
    let warps = group_warps(lw) as usize;
    let elected = elected(emit, pred);
    let warp = lw.uniform_warp();
    let mut out = Vec::new();
    for first in (0..messages.len()).step_by(warps) {
        let issuing = (messages.len() - first).min(warps);
        let own = if issuing == 1 { emit.i32(0) } else { warp };
        let index = if first == 0 {
            own
        } else {
            emit.add(own, emit.i32(first as i64))
        };
        let times = |n: i64| emit.mul(index, emit.i32(n));
        let coordinates = message_coordinates(emit, coords, step, times)?;
        let below = threads_below(lw, emit, issuing as i64 * lw.threads_per_warp);
        out.push(Issue {
            pred: emit.and(elected, below),
            coordinates,
            start: Start::Computed(times(step.byte_offset)),
        });
    }
    Ok(out)
}

/// The coordinates operands `first..first + rank` of `op`, innermost
/// first, as TMA takes them (Triton's order: reversed).
fn coordinates<'c, 'a>(
    lw: &Lowering<'c, 'a>,
    op: OperationRef<'c, 'a>,
    first: usize,
    rank: usize,
) -> Result<Vec<Value<'c, 'a>>, String> {
    (0..rank)
        .rev()
        .map(|d| lw.scalar(operand(op, first + d)?))
        .collect()
}

/// `{$i, $i+1, ...}` for `n` operands from `$first`.
fn operand_list(first: usize, n: usize) -> String {
    let names: Vec<String> = (first..first + n).map(|i| format!("${i}")).collect();
    names.join(", ")
}

/// `ttng.async_tma_copy_global_to_local`: one `cp.async.bulk.tensor`
/// from global memory into the buffer, completing on the barrier.
pub fn copy_global_to_local<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    for (name, default) in [("cache", 1), ("evict", 1)] {
        if ttir::inherent_attribute(op, name)
            .and_then(ttir::int_value)
            .is_some_and(|(v, _)| v != default)
        {
            return Err(format!(
                "a TMA load with a '{name}' hint is not supported yet"
            ));
        }
    }
    if ttir::inherent_attribute(op, "isVolatile")
        .and_then(ttir::bool_value)
        .unwrap_or(false)
    {
        return Err("a volatile TMA load is not supported yet".into());
    }
    // desc, coordinates..., barrier, result, pred.
    let rank = op
        .operand_count()
        .checked_sub(4)
        .ok_or("missing operands")?;
    let desc = lw.scalar(operand(op, 0)?)?;
    let barrier = operand(op, 1 + rank)?;
    let result = operand(op, 2 + rank)?;
    let memdesc = MemDesc::of(result.r#type()).ok_or("expected a shared-memory destination")?;
    let messages = messages(&memdesc)?;
    let coords = coordinates(lw, op, 1, rank)?;
    let destination = lw.scalar(result)?;
    let barrier_pointer = lw.scalar(barrier)?;
    let span = lw.buffer_span(result);
    lw.shared_access(emit, Access::Write(span));
    let pred = optional_pred(lw, op, 3 + rank)?;
    let asm = format!(
        "@$0 cp.async.bulk.tensor.{rank}d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {{{}}}], [${}];",
        operand_list(3, rank),
        3 + rank
    );
    let constraints = format!("b,r,l{},r", ",r".repeat(rank));
    for issue in issues(lw, emit, pred, &coords, &messages)? {
        let mut operands = vec![issue.pred, issue.start.at(emit, destination), desc];
        operands.extend(issue.coordinates);
        operands.push(barrier_pointer);
        emit.void_asm(&asm, &constraints, &operands);
    }
    Ok(())
}

/// `ttng.async_tma_copy_local_to_global`: `cp.async.bulk.tensor` from
/// the buffer to global memory, in a bulk group committed at once.
pub fn copy_local_to_global<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    if ttir::inherent_attribute(op, "evict")
        .and_then(ttir::int_value)
        .is_some_and(|(v, _)| v != 1)
    {
        return Err("a TMA store with an eviction hint is not supported yet".into());
    }
    bulk_to_global(lw, emit, op, "cp.async.bulk.tensor", "bulk_group")
}

/// `ttng.async_tma_reduce`: `cp.reduce.async.bulk.tensor` of the buffer
/// into global memory with the op's reduction (the element type is the
/// descriptor's), in a bulk group committed at once.
pub fn reduce<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let kind = match int_attr(op, "kind")? {
        1 => "add",
        2 => "min",
        3 => "max",
        4 => "inc",
        5 => "dec",
        6 => "and",
        7 => "or",
        8 => "xor",
        other => return Err(format!("a TMA reduction of kind {other}")),
    };
    bulk_to_global(
        lw,
        emit,
        op,
        "cp.reduce.async.bulk.tensor",
        &format!("{kind}.bulk_group"),
    )
}

/// A TMA store or reduction (`instruction`, with `suffix` after its state
/// spaces) of the buffer, the last operand, to the descriptor, the first,
/// at the coordinates between; then the bulk group's commit.
fn bulk_to_global<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    instruction: &str,
    suffix: &str,
) -> LowerResult {
    let count = op.operand_count();
    let rank = count.checked_sub(2).ok_or("missing operands")?;
    let desc = lw.scalar(operand(op, 0)?)?;
    let source = operand(op, count - 1)?;
    let memdesc = MemDesc::of(source.r#type()).ok_or("expected a shared-memory source")?;
    let messages = messages(&memdesc)?;
    let coords = coordinates(lw, op, 1, rank)?;
    let pointer = lw.scalar(source)?;
    let span = lw.buffer_span(source);
    lw.shared_access(emit, Access::Read(span));
    let asm = format!(
        "@$0 {instruction}.{rank}d.global.shared::cta.{suffix} [$1, {{{}}}], [${}];",
        operand_list(2, rank),
        2 + rank
    );
    let constraints = format!("b,l{},r", ",r".repeat(rank));
    for issue in issues(lw, emit, None, &coords, &messages)? {
        let mut operands = vec![issue.pred, desc];
        operands.extend(issue.coordinates);
        operands.push(issue.start.at(emit, pointer));
        emit.void_asm(&asm, &constraints, &operands);
    }
    emit.op("nvvm.cp.async.bulk.commit.group", &[], &[], &[]);
    Ok(())
}

/// One four-row message of a TMA gather or scatter: its predicate, the
/// shared-memory address of its rows, the column it starts at and the four
/// row offsets.
struct FourRows<'c, 'a, 'r> {
    pred: Value<'c, 'a>,
    shared: Value<'c, 'a>,
    column: Value<'c, 'a>,
    rows: &'r [Value<'c, 'a>],
}

/// The values of the tensor operand `value`, read at `emit`. A function
/// argument's are the fields of its packed struct, which the function's
/// entry reads; Triton reads a packed operand where the op uses it, so
/// those are read again here (the entry's reads then go unused).
fn read_here<'c, 'a>(
    lw: &Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    value: Value<'c, 'a>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let values = lw.get(value)?;
    let field = |i: usize, v: Value<'c, 'a>| {
        let read = ttir::defined_by(v, "llvm.extractvalue")?;
        let packed = ttir::operand(read, 0)?;
        let position = read.attribute("position").ok()?;
        let expected = DenseI64ArrayAttribute::new(emit.context, &[i as i64]);
        (ttir::block_argument(packed).is_some() && position == expected.into()).then_some(packed)
    };
    let packed: Option<Vec<Value>> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| field(i, v))
        .collect();
    Ok(match packed.as_deref() {
        Some([first, rest @ ..]) if rest.iter().all(|p| p == first) => values
            .iter()
            .enumerate()
            .map(|(i, v)| emit.extract(*first, i as i64, v.r#type()))
            .collect(),
        _ => values,
    })
}

/// Splits a TMA gather or scatter of the rows `x_offsets` (operand) from
/// column `y_offset` into `buffer` (operand) into four-row messages, as
/// Triton does, and calls `message` on each in Triton's order.
///
/// Each thread holds its rows in groups of four consecutive registers;
/// every lane of a warp holds the same rows, so one elected lane of each
/// warp issues the warp's messages, and warps that repeat an earlier
/// warp's rows issue none. A row is cut into messages one swizzle wide.
/// Where a message's rows land is the buffer's NVMMA layout without its
/// swizzle (TMA applies the swizzle): the warp's part of that offset is
/// computed at run time, the register's and the message's are constants.
fn four_row_messages<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    x_offsets: Value<'c, 'a>,
    y_offset: Value<'c, 'a>,
    buffer: Value<'c, 'a>,
    pred: Option<Value<'c, 'a>>,
    mut message: impl FnMut(FourRows<'c, 'a, '_>),
) -> LowerResult {
    if lw.num_ctas > 1 {
        return Err(
            "a TMA gather or scatter in a cluster of several CTAs is not supported yet".into(),
        );
    }
    let rows = lw.distributed(x_offsets.r#type())?;
    let registers = rows.layout.bases("register");
    if registers.len() < 2 {
        return Err("a TMA gather or scatter must have at least 4 row offsets per warp".into());
    }
    if registers[0] != [1] || registers[1] != [2] {
        return Err(
            "the row offsets of a TMA gather or scatter are not grouped by 4 consecutive rows"
                .into(),
        );
    }
    let desc = MemDesc::of(buffer.r#type()).ok_or("expected a shared-memory buffer")?;
    if desc.shape.len() != 2 || !desc.alloc_shape.ends_with(&desc.shape) {
        return Err(
            "the shared-memory view of a TMA gather or scatter must match its allocation's shape"
                .into(),
        );
    }
    let nvmma = Nvmma::of(&desc)?;
    if nvmma.inner != 1 {
        return Err(
            "a TMA gather or scatter with a transposed NVMMA layout is not supported yet".into(),
        );
    }
    let messages_per_row = desc.shape[1] / nvmma.row_elements;
    if messages_per_row.count_ones() != 1 || nvmma.rows.count_ones() != 1 {
        return Err(format!(
            "a TMA gather or scatter of {}x{} elements (not a power of two of rows and of swizzle widths) is not supported yet",
            desc.shape[0], desc.shape[1]
        ));
    }
    let free = rows.layout.free_variable_masks();
    let free = |in_dim: &str| {
        free.iter()
            .find(|(name, _)| name == in_dim)
            .map_or(0, |(_, mask)| i64::from(*mask))
    };
    let lanes = i64::from(rows.layout.in_dim_size("lane"));
    if free("lane") != lanes - 1 {
        return Err(
            "the row offsets of a TMA gather or scatter must be broadcast across each warp".into(),
        );
    }
    let element = lw.element_type(desc.element);
    let base = lw.scalar(buffer)?;
    let warp = lw.uniform_warp();
    // Warps whose rows an earlier warp already moves stay idle.
    let warp_mask = free("warp");
    let mut pred = pred;
    if warp_mask != 0 {
        let first = emit.icmp("eq", emit.and(warp, emit.i32(warp_mask)), emit.i32(0));
        pred = Some(pred.map_or(first, |p| emit.and(p, first)));
    }
    let elected = elect(emit);
    let pred = pred.map_or(elected, |p| emit.and(p, elected));
    let values = read_here(lw, emit, x_offsets)?;
    if values.len() != rows.len() {
        return Err("the row offsets do not match their layout (internal error)".into());
    }
    // The warp's part of the offset: its rows, where the buffer holds them.
    let warp_weights: Vec<i64> = rows
        .layout
        .bases("warp")
        .iter()
        .map(|basis| nvmma.unswizzled(i64::from(basis[0]), 0))
        .collect();
    let warp_offset = xor_of_bits(emit, &[(warp, &warp_weights)]);
    let register_mask = free("register");
    for register in (0..values.len()).step_by(4) {
        if register as i64 & register_mask != 0 {
            continue;
        }
        let row = nvmma.unswizzled(i64::from(rows.registers[register][0]), 0);
        for m in 0..messages_per_row {
            let column = m * nvmma.row_elements;
            let constant = row ^ nvmma.unswizzled(0, column);
            let offset = if constant == 0 {
                warp_offset
            } else {
                emit.xor(warp_offset, emit.i32(constant))
            };
            let shared = emit.gep(base, offset, element);
            let column = if column == 0 {
                y_offset
            } else {
                emit.add(y_offset, emit.i32(column))
            };
            message(FourRows {
                pred,
                shared,
                column,
                rows: &values[register..register + 4],
            });
        }
    }
    Ok(())
}

/// `ttng.async_tma_gather`: `gather4` messages, each four rows of one
/// swizzle width from global memory into the buffer, completing on the
/// barrier.
pub fn gather<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    // desc, x_offsets, y_offset, barrier, result, pred.
    let desc = lw.scalar(operand(op, 0)?)?;
    let y_offset = lw.scalar(operand(op, 2)?)?;
    let barrier = lw.scalar(operand(op, 3)?)?;
    let result = operand(op, 4)?;
    let pred = optional_pred(lw, op, 5)?;
    let span = lw.buffer_span(result);
    lw.shared_access(emit, Access::Write(span));
    let asm = "@$0 cp.async.bulk.tensor.2d.tile::gather4.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4, $5, $6, $7}], [$8];";
    four_row_messages(lw, emit, operand(op, 1)?, y_offset, result, pred, |m| {
        let mut operands = vec![m.pred, m.shared, desc, m.column];
        operands.extend_from_slice(m.rows);
        operands.push(barrier);
        emit.void_asm(asm, "b,r,l,r,r,r,r,r,r", &operands);
    })
}

/// `ttng.async_tma_scatter`: `scatter4` messages, each four rows of one
/// swizzle width from the buffer to global memory, in a bulk group
/// committed at once.
pub fn scatter<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    // desc, x_offsets, y_offset, src.
    let desc = lw.scalar(operand(op, 0)?)?;
    let y_offset = lw.scalar(operand(op, 2)?)?;
    let source = operand(op, 3)?;
    let span = lw.buffer_span(source);
    lw.shared_access(emit, Access::Read(span));
    let asm = "@$0 cp.async.bulk.tensor.2d.tile::scatter4.global.shared::cta.bulk_group [$1, {$2, $3, $4, $5, $6}], [$7];";
    four_row_messages(lw, emit, operand(op, 1)?, y_offset, source, None, |m| {
        let mut operands = vec![m.pred, desc, m.column];
        operands.extend_from_slice(m.rows);
        operands.push(m.shared);
        emit.void_asm(asm, "b,l,r,r,r,r,r,r", &operands);
    })?;
    emit.op("nvvm.cp.async.bulk.commit.group", &[], &[], &[]);
    Ok(())
}

/// `ttng.async_tma_store_wait`: waits until at most `pendings` bulk groups
/// still read shared memory, then synchronises the CTA so that the buffers
/// may be reused.
pub fn store_wait<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let pendings = int_attr(op, "pendings")?;
    let i32_type = emit.i32_type();
    emit.op(
        "nvvm.cp.async.bulk.wait_group",
        &[],
        &[],
        &[
            (
                "group",
                melior::ir::attribute::IntegerAttribute::new(i32_type, pendings).into(),
            ),
            ("read", melior::ir::Attribute::unit(emit.context)),
        ],
    );
    lw.shared_access(emit, Access::Barrier);
    Ok(())
}

/// `ttng.tensormap_create`: warp 0 zeroes the op's 128-byte shared
/// scratch, thread 0 writes each field with `tensormap.replace`, and warp
/// 0 copies the descriptor to global memory with a release fence.
pub fn tensormap_create<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let offset = super::scratch_offset(op)?;
    let scratch = lw.shared_at(emit, offset);
    let segment = |i: usize| -> Result<Vec<Value<'c, 'a>>, String> {
        ttir::segment(op, i)
            .ok_or_else(|| format!("missing operand segment {i}"))?
            .into_iter()
            .map(|v| lw.scalar(v))
            .collect()
    };
    let desc_pointer = segment(0)?
        .first()
        .copied()
        .ok_or("missing descriptor pointer")?;
    let global_address = segment(1)?
        .first()
        .copied()
        .ok_or("missing global address")?;
    let box_dims = segment(2)?;
    let global_dims = segment(3)?;
    let global_strides = segment(4)?;
    let element_strides = segment(5)?;
    let rank = box_dims.len();
    let span = crate::allocation::buffer_range(op);
    lw.shared_access(emit, Access::Write(span.clone()));
    // Zero the 128 bytes: one word per lane of warp 0.
    let (tid, _, _) = lw.thread_ids();
    let word = emit.gep(scratch, tid, emit.i32_type());
    let warp0 = threads_below(lw, emit, 32);
    emit.void_asm(
        "@$2 st.shared.b32 [ $0 + 0 ], $1;",
        "r,r,b",
        &[word, emit.i32(0), warp0],
    );
    emit.warp_barrier();
    // A field from a register (`index`: of the dimension it describes).
    let replace = |field: &str, width: u32, index: Option<usize>, value: Value<'c, 'a>| {
        let pred = thread_zero(lw, emit);
        let index = index.map(|i| format!("0x{i:x}, ")).unwrap_or_default();
        let c = if width == 64 { "l" } else { "r" };
        emit.void_asm(
            &format!(
                "@$2 tensormap.replace.tile.{field}.shared::cta.b1024.b{width} [ $0 + 0 ], {index}$1;"
            ),
            &format!("l,{c},b"),
            &[scratch, value, pred]
    );
    };
    let replace_immediate = |field: &str, value: i64| {
        let pred = thread_zero(lw, emit);
        emit.void_asm(
            &format!(
                "@$1 tensormap.replace.tile.{field}.shared::cta.b1024.b32 [ $0 + 0 ], 0x{value:x};"
            ),
            "l,b",
            &[scratch, pred],
        );
    };
    replace("global_address", 64, None, global_address);
    replace_immediate("rank", rank as i64 - 1);
    for (i, &v) in box_dims.iter().enumerate() {
        replace("box_dim", 32, Some(i), v);
    }
    for (i, &v) in global_dims.iter().enumerate() {
        replace("global_dim", 32, Some(i), v);
    }
    for (i, &v) in global_strides.iter().enumerate() {
        // PTX before 8.6 takes the stride in units of 16 bytes (a ptxas
        // quirk Triton works around the same way).
        let v = if lw.options.ptx_version <= 85 {
            emit.binary("llvm.ashr", v, emit.int(v.r#type(), 4))
        } else {
            v
        };
        replace("global_stride", 64, Some(i), v);
    }
    for (i, &v) in element_strides.iter().enumerate() {
        replace("element_stride", 32, Some(i), v);
    }
    replace_immediate("elemtype", int_attr(op, "elem_type")?);
    replace_immediate("interleave_layout", int_attr(op, "interleave_layout")?);
    replace_immediate("swizzle_mode", int_attr(op, "swizzle_mode")?);
    replace_immediate("fill_mode", int_attr(op, "fill_mode")?);
    lw.shared_access(emit, Access::Read(span));
    emit.void_asm(
        "@$2 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [ $0 + 0 ], [ $1 + 0 ], 0x80;",
        "l,l,b",
        &[desc_pointer, scratch, warp0]
    );
    Ok(())
}

/// `ttng.reinterpret_tensor_descriptor`: the descriptor is the address of
/// its 128 bytes, in the generic address space.
pub fn reinterpret_tensor_descriptor<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let src = ttir::operand(op, 0).ok_or("missing pointer")?;
    let pointer = lw.scalar(src)?;
    let generic = super::types::llvm_pointer(lw.context, 0);
    let cast = emit.value("llvm.addrspacecast", &[pointer], generic, &[]);
    lw.set(super::result(op), vec![cast]);
    Ok(())
}
/// `ttng.tensormap_fenceproxy_acquire`: warp 0 acquires the descriptor
/// for the async proxy (with an empty bulk group committed and waited,
/// Triton's workaround for a missing ptxas fence), then the CTA
/// synchronises.
pub fn tensormap_fenceproxy_acquire<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let pointer = lw.scalar(operand(op, 0)?)?;
    let warp0 = threads_below(lw, emit, 32);
    emit.void_asm(
        "@$1 fence.proxy.tensormap::generic.acquire.gpu [ $0 + 0 ], 0x80;\n\t\
         @$2 cp.async.bulk.commit_group ;\n\t@$3 cp.async.bulk.wait_group.read 0 ;",
        "l,b,b,b",
        &[pointer, warp0, warp0, warp0],
    );
    lw.shared_access(emit, Access::Barrier);
    Ok(())
}
