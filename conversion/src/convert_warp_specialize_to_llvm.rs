//! `convert-warp-specialize-to-llvm`: Triton 3.6's dispatch of
//! `ttg.warp_specialize` partitions to their warps, on a kernel that
//! `convert-triton-gpu-to-llvm` has lowered (the op's regions are LLVM
//! already; its operands are the captures in their LLVM form).
//!
//! A warp-specialized kernel runs with `ttg.total-num-warps` warps. The
//! first `ttg.num-warps` (the default warp group) run the kernel's body;
//! the others wait in a *switch loop* for work:
//!
//! - A new entry block reads the warp id (made warp-uniform with a
//!   `shfl.sync`) and sends the default warps to the old entry, the others
//!   to the switch loop.
//! - The switch loop waits on the CTA-wide barrier 1, reads its warp's state
//!   byte from the function's shared scratch (one byte per worker warp) and
//!   switches on it: to a partition's first block, to an exit block (a
//!   return), or to a block that waits twice on barrier 1 and loops (warps
//!   with no partition this time).
//! - Where the body reaches a `ttg.warp_specialize`, the default warps write
//!   every worker warp's state and the captures (packed back to back at the
//!   op's shared scratch), wait on barrier 1 (releasing the workers), wait
//!   again (the workers have read the captures), then run the default
//!   region. Its `ttg.warp_yield` waits on barrier 1 until every partition
//!   has ended, and continues after the op with the yielded values.
//! - A partition loads its captures, waits on barrier 1, runs, and at its
//!   `ttg.warp_return` waits on barrier 1 and goes back to the switch loop.
//! - Before every return of the kernel, the default warps set every state to
//!   the exit state and wait on barrier 1, so that the workers return too.
//!
//! CTA-wide barriers (`nvvm.barrier0`) would wait for warps that never reach
//! them: in the default code they become `bar.sync 0` over the default
//! warps, in partition `i` `bar.sync i + 2` over its warps (`bar.warp.sync`
//! for a partition of one warp). With `ttg.maxnreg`, registers move with
//! `setmaxnreg`: the workers give theirs up in the switch loop, the default
//! warps take them, and each partition takes its `actualRegisters` for its
//! run, as Triton computes them.
//!
//! Captures that are kernel arguments, or pure computations of at most 16
//! ops from kernel arguments and constants, do not go through shared memory:
//! each partition recomputes them (Triton's `elideTrivialCaptures`).

use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationRef},
        Block, BlockRef, Location, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use mlir_sys::{MlirBlock, MlirOperation};
use tt_passes::rust_pass::{fail, PassResult, RustPass};
use tt_passes::ttir::loop_support::ir as raw;

use crate::lowering::{packed_llvm_struct, Emitter};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "ConvertWarpSpecializeToLLVM",
    argument: "convert-warp-specialize-to-llvm",
    description: "Dispatch the partitions of ttg.warp_specialize to their warps (switch loop, state and captures in shared memory, named barriers, register reallocation)",
    anchor: "builtin.module",
    run,
};

/// The named barrier of the default warp group.
const DEFAULT_BARRIER: i64 = 0;
/// The CTA-wide barrier of the hand-offs between the default warps and
/// the workers.
const SWITCH_BARRIER: i64 = 1;
/// Barriers 0 and 1 are taken; partition `i` uses `i + 2`.
const RESERVED_BARRIERS: usize = 2;
/// Hardware named barriers per CTA.
const BARRIERS: usize = 16;

fn run(module: OperationRef) -> PassResult {
    let context_ref = module.context();
    // SAFETY: the context outlives the pass run over one of its modules.
    let context = unsafe { context_ref.to_ref() };
    for dialect in ["llvm", "nvvm"] {
        context.get_or_load_dialect(dialect);
    }
    let kernels = raw::collect_post(module.to_raw(), &|op| {
        raw::is(op, "llvm.func") && raw::attribute(op, "nvvm.kernel").is_some()
    });
    for kernel in kernels {
        lower_kernel(context, kernel)?;
    }
    Ok(())
}

/// `op` as a melior reference.
fn op_ref<'c, 'a>(op: MlirOperation) -> OperationRef<'c, 'a> {
    // SAFETY: every op handed here is live in the module the pass runs on,
    // which outlives the references made during the run.
    unsafe { OperationRef::from_raw(op) }
}

/// `block` as a melior reference.
fn block_ref<'c, 'a>(block: MlirBlock) -> BlockRef<'c, 'a> {
    // SAFETY: as in `op_ref`, for blocks of the module or of ops in it.
    unsafe { BlockRef::from_raw(block) }
}

/// An emitter that inserts before `op`.
fn before<'c, 'a>(context: &'c Context, op: MlirOperation) -> Emitter<'c, 'a> {
    let op = op_ref(op);
    Emitter {
        context,
        block: block_ref(raw::op_block(op.to_raw())),
        location: op.location(),
        before: Some(op),
    }
}

/// An emitter that appends to `block`.
fn at_end<'c, 'a>(
    context: &'c Context,
    block: MlirBlock,
    location: Location<'c>,
) -> Emitter<'c, 'a> {
    Emitter {
        context,
        block: block_ref(block),
        location,
        before: None,
    }
}

/// An emitter that inserts at the start of `block`.
fn at_start<'c, 'a>(
    context: &'c Context,
    block: MlirBlock,
    location: Location<'c>,
) -> Emitter<'c, 'a> {
    match raw::block_ops(block).first() {
        Some(&first) => Emitter {
            location,
            ..before(context, first)
        },
        None => at_end(context, block, location),
    }
}

/// `barrier.cta.sync.all id`: every thread of the CTA, from any code path.
fn all_barrier(emit: &Emitter, id: i64) {
    emit.call_void_intrinsic("llvm.nvvm.barrier.cta.sync.all", &[emit.i32(id)]);
}

/// `bar.sync id, threads` (`bar.warp.sync` for one warp).
fn named_barrier(emit: &Emitter, id: i64, threads: i64) {
    if threads == 32 {
        emit.warp_barrier();
    } else {
        emit.call_void_intrinsic(
            "llvm.nvvm.barrier.cta.sync.aligned.count",
            &[emit.i32(id), emit.i32(threads)],
        );
    }
}

/// `setmaxnreg` from `current` to `wanted` registers per thread (each
/// capped at 256), as Triton's `createRegRealloc`.
fn realloc_registers(emit: &Emitter, current: i64, wanted: i64) {
    let (current, wanted) = (current.min(256), wanted.min(256));
    let action = if wanted < current { "dec" } else { "inc" };
    emit.call_void_intrinsic(
        &format!("llvm.nvvm.setmaxnreg.{action}.sync.aligned.u32"),
        &[emit.i32(wanted)],
    );
}

/// `@global_smem + offset`.
fn shared_at<'c, 'a>(emit: &Emitter<'c, 'a>, offset: i64) -> Value<'c, 'a> {
    emit.byte_offset(emit.global_smem(), offset)
}

/// The `allocation.offset` of `op` (0 where it has none).
fn allocation_offset(op: MlirOperation) -> i64 {
    crate::allocation::offset(op_ref(op)).map_or(0, |v| v as i64)
}

/// `&base[0, field]` in a packed struct of `fields`.
fn field_pointer<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    base: Value<'c, 'a>,
    fields: Type<'c>,
    field: usize,
) -> Value<'c, 'a> {
    emit.value(
        "llvm.getelementptr",
        &[base],
        base.r#type(),
        &[
            (
                "rawConstantIndices",
                emit.attr(&format!("array<i32: 0, {field}>")),
            ),
            (
                "elem_type",
                melior::ir::attribute::TypeAttribute::new(fields).into(),
            ),
        ],
    )
}

/// The `ttg.warp_specialize.partitions` op of `ws`.
fn partitions_of(ws: MlirOperation) -> Option<MlirOperation> {
    let region = *raw::regions(ws).get(1)?;
    raw::region_ops(region)
        .into_iter()
        .find(|&op| raw::is(op, "ttg.warp_specialize.partitions"))
}

/// The `ttg.warp_specialize` whose partition holds `op`, and that
/// partition's index (`None` outside every partition).
fn partition_of(op: MlirOperation) -> Option<(MlirOperation, usize)> {
    crate::lowering::partition_of(op_ref(op)).map(|(ws, index)| (ws.to_raw(), index))
}

/// The `array<i32: ...>` attribute `name` of `op`, widened.
fn i32_array(op: MlirOperation, name: &str) -> Option<Vec<i64>> {
    raw::attribute(op, name)
        .and_then(raw::dense_i32_array)
        .map(|v| v.into_iter().map(i64::from).collect())
}

/// Moves the blocks of `region` into the function region `into`, after
/// `anchor`, in order; returns the last block moved (or `anchor`).
fn move_blocks_after(
    region: mlir_sys::MlirRegion,
    into: mlir_sys::MlirRegion,
    anchor: MlirBlock,
) -> MlirBlock {
    let mut last = anchor;
    for block in raw::blocks(region) {
        // SAFETY: `block` is a live block of `region`; once detached,
        // `into` takes ownership of it.
        unsafe {
            mlir_sys::mlirBlockDetach(block);
            mlir_sys::mlirRegionInsertOwnedBlockAfter(into, last, block);
        }
        last = block;
    }
    last
}

/// Removes every argument of `block` (after their uses are replaced).
fn erase_arguments(block: MlirBlock) {
    // SAFETY: `block` is live; the indices are within its argument count,
    // erased from the last one down.
    unsafe {
        for i in (0..mlir_sys::mlirBlockGetNumArguments(block)).rev() {
            mlir_sys::mlirBlockEraseArgument(block, i as u32);
        }
    }
}

/// Registers per thread: at the start (`maxnreg`), of the workers while
/// they wait (`low`), of the default warps outside partitions (`default`),
/// as Triton computes them.
struct Registers {
    start: i64,
    low: i64,
    default: i64,
}

impl Registers {
    fn new(maxnreg: i64, default_warps: i64, worker_warps: i64) -> Self {
        let mut low = 24;
        let extra = (maxnreg - low) * worker_warps / default_warps;
        let mut default = (maxnreg + extra) / 8 * 8;
        if default > 256 {
            default = 256;
            let give = (default - maxnreg) * default_warps / worker_warps;
            low = (maxnreg - give) / 8 * 8;
        }
        Self {
            start: maxnreg,
            low,
            default,
        }
    }
}

fn lower_kernel(context: &Context, func: MlirOperation) -> PassResult {
    let mut ws_ops = Vec::new();
    raw::walk_pre(func, &mut |op| {
        if raw::is(op, "ttg.warp_specialize") {
            ws_ops.push(op);
        }
    });
    if ws_ops.is_empty() {
        return Ok(());
    }
    let location = op_ref(func).location();
    let threads_per_warp = raw::module_int(func, "ttg.threads-per-warp").unwrap_or(32);
    let default_warps = raw::module_int(func, "ttg.num-warps")
        .ok_or_else(|| fail(op_ref(func), "the module has no 'ttg.num-warps'"))?;
    let total_warps = raw::module_int(func, "ttg.total-num-warps").ok_or_else(|| {
        fail(
            op_ref(func),
            "module missing 'ttg.total-num-warps' attribute (run tritongpu-allocate-warp-groups first)",
        )
    })?;
    let worker_warps = total_warps - default_warps;
    if worker_warps <= 0 {
        return Err(fail(
            op_ref(ws_ops[0]),
            "a ttg.warp_specialize without worker warps",
        ));
    }

    // Each op with its partitions' warps, first warps and regions.
    struct Ws {
        op: MlirOperation,
        warps: Vec<i64>,
        starts: Vec<i64>,
        regions: Vec<mlir_sys::MlirRegion>,
    }
    let mut all = Vec::new();
    for &op in &ws_ops {
        let holder = partitions_of(op)
            .ok_or_else(|| fail(op_ref(op), "a ttg.warp_specialize without its partitions"))?;
        let warps = i32_array(op, "partitionNumWarps").ok_or_else(|| {
            fail(
                op_ref(op),
                "a ttg.warp_specialize without partitionNumWarps",
            )
        })?;
        let starts = i32_array(op, "warpGroupStartIds").ok_or_else(|| {
            fail(
                op_ref(op),
                "a ttg.warp_specialize without warpGroupStartIds (run tritongpu-allocate-warp-groups first)",
            )
        })?;
        let regions = raw::regions(holder);
        if warps.len() != regions.len() || starts.len() != regions.len() {
            return Err(fail(
                op_ref(op),
                "partitionNumWarps and warpGroupStartIds must give one value per partition",
            ));
        }
        if RESERVED_BARRIERS + regions.len() > BARRIERS {
            return Err(fail(
                op_ref(func),
                &format!(
                    "cannot support more than {} warp group partitions",
                    BARRIERS - RESERVED_BARRIERS
                ),
            ));
        }
        for (&w, &s) in warps.iter().zip(&starts) {
            if s < default_warps || s + w > total_warps {
                return Err(fail(
                    op_ref(op),
                    "a partition's warps lie outside the kernel's worker warps",
                ));
            }
        }
        if regions.iter().any(|r| raw::blocks(*r).is_empty()) {
            return Err(fail(op_ref(op), "a partition without a block"));
        }
        all.push(Ws {
            op,
            warps,
            starts,
            regions,
        });
    }

    // The worker warps never run the kernel's body: a CTA-wide barrier in a
    // function it calls would wait for them forever.
    if let Some(call) = call_reaching_barrier(func) {
        return Err(fail(
            op_ref(call),
            "a call to a function with a CTA-wide barrier in a warp-specialized kernel is not \
             supported yet (its barrier would wait for the warps of other partitions)",
        ));
    }
    // CTA-wide barriers become the barriers of their warp group.
    let mut barriers = Vec::new();
    raw::walk_pre(func, &mut |op| {
        if raw::is(op, "nvvm.barrier0") {
            barriers.push(op);
        }
    });
    for bar in barriers {
        let emit = before(context, bar);
        match partition_of(bar) {
            None => named_barrier(&emit, DEFAULT_BARRIER, default_warps * threads_per_warp),
            Some((op, i)) => {
                let ws = all.iter().find(|w| w.op.ptr == op.ptr).ok_or_else(|| {
                    fail(op_ref(bar), "a barrier in a nested ttg.warp_specialize")
                })?;
                named_barrier(
                    &emit,
                    (i + RESERVED_BARRIERS) as i64,
                    ws.warps[i] * threads_per_warp,
                );
            }
        }
        raw::erase(bar);
    }

    for ws in &all {
        elide_trivial_captures(func, ws.op, &ws.regions);
    }
    let registers = raw::module_int(func, "ttg.maxnreg")
        .map(|n| Registers::new(n, default_warps, worker_warps));
    let returns = {
        let mut found = Vec::new();
        raw::walk_pre(func, &mut |op| {
            if raw::is(op, "llvm.return") {
                found.push(op);
            }
        });
        found
    };

    // The header: default warps to the body, the others to the switch loop.
    let body_region = raw::regions(func)[0];
    let entry = raw::blocks(body_region)[0];
    let entry_ref = block_ref(entry);
    let argument_types: Vec<(Type, Location)> = (0..entry_ref.argument_count())
        .map(|i| (entry_ref.argument(i).expect("argument").r#type(), location))
        .collect();
    let region_ref = op_ref(func).region(0).expect("a function body");
    let header = region_ref.insert_block_before(entry_ref, Block::new(&argument_types));
    let switch_loop = region_ref.insert_block_before(entry_ref, Block::new(&[]));
    for i in 0..entry_ref.argument_count() {
        let old = entry_ref.argument(i).expect("argument");
        let new = header.argument(i).expect("argument");
        raw::replace_all_uses(old.to_raw(), new.to_raw());
    }
    erase_arguments(entry);
    let emit = at_end(context, header.to_raw(), location);
    let tid = emit.special_register("tid.x");
    let wid = emit.udiv_by(tid, threads_per_warp);
    let wid = emit.warp_uniform(wid);
    let is_default = emit.icmp("ult", wid, emit.i32(default_warps));
    emit.cond_br(is_default, &entry_ref, &switch_loop)
        .map_err(|e| fail(op_ref(func), &e))?;
    if let Some(r) = &registers {
        realloc_registers(&at_start(context, entry, location), r.start, r.default);
    }

    // The switch loop's head: wait for work, read this warp's state.
    let emit = at_end(context, switch_loop.to_raw(), location);
    if let Some(r) = &registers {
        realloc_registers(&emit, r.start, r.low);
    }
    all_barrier(&emit, SWITCH_BARRIER);
    let state_offset = allocation_offset(func);
    let states = shared_at(&emit, state_offset);
    let relative = emit.binary("llvm.sub", wid, emit.i32(default_warps));
    let i8_type = emit.int_type(8);
    let state_ptr = emit.gep(states, relative, i8_type);
    let state = emit.value("llvm.load", &[state_ptr], i8_type, &[]);

    // The partitions: captures in, barrier, body, barrier and back.
    let mut partition_entries: Vec<MlirBlock> = Vec::new();
    let mut state_maps: Vec<Vec<i64>> = Vec::new();
    for ws in &all {
        let mut map = vec![-1i64; worker_warps as usize];
        let actual = i32_array(ws.op, "actualRegisters");
        let capture_types: Vec<Type> = op_ref(ws.op).operands().map(|v| v.r#type()).collect();
        let captures = packed_llvm_struct(context, &capture_types);
        let captures_offset = allocation_offset(ws.op);
        for (i, &region) in ws.regions.iter().enumerate() {
            let first = raw::blocks(region)[0];
            let emit = at_start(context, first, location);
            let partition_registers = registers
                .as_ref()
                .zip(actual.as_ref())
                .map(|(r, a)| (r.low, a[i + 1]));
            if let Some((low, mine)) = partition_registers {
                realloc_registers(&emit, low, mine);
            }
            let args = raw::block_args(first);
            if !args.is_empty() {
                let base = shared_at(&emit, captures_offset);
                for (k, &arg) in args.iter().enumerate() {
                    let ptr = field_pointer(&emit, base, captures, k);
                    // SAFETY: `arg` is a live block argument.
                    let ty = unsafe { Type::from_raw(raw::value_type(arg)) };
                    let value = emit.value(
                        "llvm.load",
                        &[ptr],
                        ty,
                        &[("alignment", emit.attr("1 : i64"))],
                    );
                    raw::replace_all_uses(arg, value.to_raw());
                }
                erase_arguments(first);
            }
            all_barrier(&emit, SWITCH_BARRIER);
            let mut ends = Vec::new();
            raw::walk_pre(ws.op, &mut |op| {
                if raw::is(op, "ttg.warp_return")
                    && partition_of(op).is_some_and(|(o, k)| o.ptr == ws.op.ptr && k == i)
                {
                    ends.push(op);
                }
            });
            for end in ends {
                let emit = before(context, end);
                all_barrier(&emit, SWITCH_BARRIER);
                if let Some((low, mine)) = partition_registers {
                    realloc_registers(&emit, mine, low);
                }
                // The branch goes at the block's end, after the return,
                // which then goes.
                emit.br(&switch_loop, &[])
                    .map_err(|e| fail(op_ref(end), &e))?;
                raw::erase(end);
            }
            let start = ws.starts[i] - default_warps;
            for slot in &mut map[start as usize..(start + ws.warps[i]) as usize] {
                *slot = partition_entries.len() as i64;
            }
            partition_entries.push(first);
        }
        state_maps.push(map);
    }
    let exit_state = partition_entries.len() as i64;
    if exit_state > i64::from(u8::MAX) {
        return Err(fail(op_ref(func), "too many warp group partitions"));
    }

    // Idle warps, the exit, then the partitions' blocks after the switch.
    let idle = region_ref.insert_block_after(switch_loop, Block::new(&[]));
    let exit = region_ref.insert_block_after(idle, Block::new(&[]));
    let emit = at_end(context, idle.to_raw(), location);
    all_barrier(&emit, SWITCH_BARRIER);
    all_barrier(&emit, SWITCH_BARRIER);
    emit.br(&switch_loop, &[])
        .map_err(|e| fail(op_ref(func), &e))?;
    let latch = raw::block_ops(idle.to_raw())
        .last()
        .copied()
        .expect("the branch");
    // LLVM must not hoist the partitions' code into the loop's preheader.
    raw::set_attribute(
        latch,
        "loop_annotation",
        raw::parse_attribute(
            raw::context(func),
            "#llvm.loop_annotation<licm = <disable = true>>",
        )
        .expect("a loop annotation"),
    );
    at_end(context, exit.to_raw(), location).op("llvm.return", &[], &[], &[]);
    let mut anchor = exit.to_raw();
    for ws in &all {
        for &region in &ws.regions {
            anchor = move_blocks_after(region, body_region, anchor);
        }
    }
    let emit = at_end(context, switch_loop.to_raw(), location);
    let mut destinations: Vec<BlockRef> = partition_entries.iter().map(|&b| block_ref(b)).collect();
    destinations.push(exit);
    let cases: Vec<String> = (0..destinations.len()).map(|s| s.to_string()).collect();
    let successors: Vec<&Block> = std::iter::once(&idle)
        .chain(destinations.iter())
        .map(|b| &**b)
        .collect();
    let switch = melior::ir::operation::OperationBuilder::new("llvm.switch", location)
        .add_operands(&[state])
        .add_successors(&successors)
        .add_attributes(&[
            (
                melior::ir::Identifier::new(context, "case_values"),
                emit.attr(&format!(
                    "dense<[{}]> : tensor<{}xi8>",
                    cases.join(", "),
                    cases.len()
                )),
            ),
            (
                melior::ir::Identifier::new(context, "case_operand_segments"),
                emit.attr(&format!(
                    "array<i32: {}>",
                    vec!["0"; cases.len()].join(", ")
                )),
            ),
            (
                melior::ir::Identifier::new(context, "operandSegmentSizes"),
                emit.attr("array<i32: 1, 0, 0>"),
            ),
        ])
        .build()
        .map_err(|_| {
            fail(
                op_ref(func),
                "could not build the switch of the warps' states",
            )
        })?;
    switch_loop.append_operation(switch);

    // The default warps: hand work out, run the default region, wait.
    for (ws, map) in all.iter().zip(&state_maps) {
        let op = ws.op;
        let block = raw::op_block(op);
        let after = region_ref.insert_block_after(block_ref(block), Block::new(&[]));
        let next = raw::next_op(op);
        if let Some(next) = next {
            raw::move_tail(next, after.to_raw());
        }
        let emit = at_end(context, block, op_ref(op).location());
        let states = shared_at(&emit, state_offset);
        for (j, &s) in map.iter().enumerate() {
            let slot = emit.byte_offset(states, j as i64);
            emit.op("llvm.store", &[emit.int(i8_type, s), slot], &[], &[]);
        }
        let operands: Vec<Value> = op_ref(op).operands().collect();
        if !operands.is_empty() {
            let types: Vec<Type> = operands.iter().map(|v| v.r#type()).collect();
            let captures = packed_llvm_struct(context, &types);
            let base = shared_at(&emit, allocation_offset(op));
            for (k, v) in operands.iter().enumerate() {
                let ptr = field_pointer(&emit, base, captures, k);
                emit.op(
                    "llvm.store",
                    &[*v, ptr],
                    &[],
                    &[("alignment", emit.attr("1 : i64"))],
                );
            }
        }
        let actual = i32_array(op, "actualRegisters");
        let default_registers = registers
            .as_ref()
            .zip(actual.as_ref())
            .map(|(r, a)| (r.default, a[0]));
        all_barrier(&emit, SWITCH_BARRIER);
        if let Some((outside, inside)) = default_registers {
            realloc_registers(&emit, outside, inside);
        }
        all_barrier(&emit, SWITCH_BARRIER);
        let default_region = raw::regions(op)[0];
        let default_entry = raw::blocks(default_region)
            .first()
            .copied()
            .ok_or_else(|| fail(op_ref(op), "a ttg.warp_specialize without a default block"))?;
        emit.br(&block_ref(default_entry), &[])
            .map_err(|e| fail(op_ref(op), &e))?;
        let mut yields = Vec::new();
        for b in raw::blocks(default_region) {
            for o in raw::block_ops(b) {
                if raw::is(o, "ttg.warp_yield") {
                    yields.push(o);
                }
            }
        }
        let results = raw::results(op);
        for r in &results {
            // SAFETY: a live result of `op`.
            let ty = unsafe { Type::from_raw(raw::value_type(*r)) };
            after.add_argument(ty, location);
        }
        for y in yields {
            let emit = before(context, y);
            all_barrier(&emit, SWITCH_BARRIER);
            if let Some((outside, inside)) = default_registers {
                realloc_registers(&emit, inside, outside);
            }
            let values: Vec<Value> = op_ref(y).operands().collect();
            let b = at_end(context, raw::op_block(y), emit.location);
            raw::erase(y);
            b.br(&after, &values).map_err(|e| fail(op_ref(func), &e))?;
        }
        move_blocks_after(default_region, body_region, block);
        for (k, r) in results.iter().enumerate() {
            let arg = after.argument(k).expect("argument");
            raw::replace_all_uses(*r, arg.to_raw());
        }
        raw::erase(op);
    }

    // Before each return, send the workers to their exit.
    for ret in returns {
        let emit = before(context, ret);
        let states = shared_at(&emit, state_offset);
        for j in 0..worker_warps {
            let slot = emit.byte_offset(states, j);
            emit.op(
                "llvm.store",
                &[emit.int(i8_type, exit_state), slot],
                &[],
                &[],
            );
        }
        all_barrier(&emit, SWITCH_BARRIER);
    }
    Ok(())
}

/// The pure ops that compute `capture` from the kernel's arguments (the
/// entry block's) and constants, operands before users, or `None` where it
/// needs anything else or more than 16 ops.
fn trivial_computation(
    func: MlirOperation,
    capture: mlir_sys::MlirValue,
) -> Option<Vec<MlirOperation>> {
    const MOST: usize = 16;
    let entry = raw::blocks(raw::regions(func)[0])[0];
    let mut ops: Vec<MlirOperation> = Vec::new();
    fn visit(
        value: mlir_sys::MlirValue,
        entry: MlirBlock,
        ops: &mut Vec<MlirOperation>,
    ) -> Option<()> {
        if raw::is_block_argument(value) {
            return (raw::value_block(value).ptr == entry.ptr).then_some(());
        }
        let op = raw::defining_op(value)?;
        if ops.iter().any(|o| o.ptr == op.ptr) {
            return Some(());
        }
        let pure = tt_dialect::ir::is_memory_effect_free(op_ref(op))
            && tt_dialect::ir::is_speculatable(op_ref(op));
        if !pure || raw::region_count(op) > 0 {
            return None;
        }
        for operand in raw::operands(op) {
            visit(operand, entry, ops)?;
        }
        ops.push(op);
        (ops.len() <= MOST).then_some(())
    }
    visit(capture, entry, &mut ops)?;
    Some(ops)
}

/// Triton's `elideTrivialCaptures`: every capture of `ws` that
/// [`trivial_computation`] can recompute is recomputed at the start of each
/// partition (a kernel argument is used directly) and is no longer
/// captured.
fn elide_trivial_captures(
    func: MlirOperation,
    ws: MlirOperation,
    partitions: &[mlir_sys::MlirRegion],
) {
    let captures = raw::operands(ws);
    let mut kept = Vec::new();
    let mut elided = Vec::new();
    for (i, &capture) in captures.iter().enumerate() {
        match trivial_computation(func, capture) {
            None => kept.push(capture),
            Some(ops) => {
                elided.push(i);
                for &region in partitions {
                    let first = raw::blocks(region)[0];
                    let at = raw::block_ops(first).first().copied();
                    let mut map = raw::ValueMap::new();
                    for &op in &ops {
                        let clone = raw::clone_mapped(op, &mut map);
                        match at {
                            Some(at) => raw::insert_before(at, clone),
                            // SAFETY: `first` is live and owns the clone
                            // from here on.
                            None => unsafe {
                                mlir_sys::mlirBlockAppendOwnedOperation(first, clone)
                            },
                        }
                    }
                    let value = raw::lookup_or_self(&map, capture);
                    raw::replace_all_uses(raw::block_args(first)[i], value);
                }
            }
        }
    }
    if elided.is_empty() {
        return;
    }
    let kept: Vec<Value> = kept
        .into_iter()
        // SAFETY: live values of the function.
        .map(|v| unsafe { Value::from_raw(v) })
        .collect();
    tt_dialect::ir::set_operands(op_ref(ws), &kept);
    for &region in partitions {
        let first = raw::blocks(region)[0];
        for &i in elided.iter().rev() {
            // SAFETY: `first` is live and argument `i` has no uses left.
            unsafe { mlir_sys::mlirBlockEraseArgument(first, i as u32) };
        }
    }
}

/// The first `llvm.call` under `func` whose callee, or a function that one
/// calls, has an `nvvm.barrier0`.
fn call_reaching_barrier(func: MlirOperation) -> Option<MlirOperation> {
    fn has_barrier(function: MlirOperation, seen: &mut Vec<MlirOperation>) -> bool {
        if seen.iter().any(|f| f.ptr == function.ptr) {
            return false;
        }
        seen.push(function);
        let mut found = false;
        raw::walk_pre(function, &mut |op| {
            found |= raw::is(op, "nvvm.barrier0")
                || (raw::is(op, "llvm.call")
                    && raw::callee(op).is_some_and(|f| has_barrier(f, seen)));
        });
        found
    }
    let mut calls = Vec::new();
    raw::walk_pre(func, &mut |op| {
        if raw::is(op, "llvm.call") {
            calls.push(op);
        }
    });
    let mut seen = vec![func];
    calls
        .into_iter()
        .find(|&call| raw::callee(call).is_some_and(|f| has_barrier(f, &mut seen)))
}
