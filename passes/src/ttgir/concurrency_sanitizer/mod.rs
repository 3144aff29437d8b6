//! `tritoninstrument-concurrency-sanitizer`: Triton 3.6's concurrency
//! sanitizer (ConSan). It instruments a kernel that has been through shared
//! and tensor memory allocation so that, at run time, every access to a
//! shared or tensor memory buffer checks that it is ordered after the
//! conflicting accesses of the other threads of execution (warp-specialize
//! partitions, the TMA engine, the tensor cores) by barriers, commit groups
//! and waits.
//!
//! The pass finds the buffers (`ttg.local_alloc` and `ttng.tmem_alloc`,
//! each sub-buffer of an allocation that is indexed with
//! `ttg.memdesc_index`) and the mbarriers (allocations that reach a
//! `ttng.init_barrier`), then creates the sanitizer state at the top of the
//! kernel: `tti.experimental_buffer_pointers` tensors of the buffer and
//! barrier addresses and, in global scratch memory, the write and read
//! visibility of every buffer, the barrier states, the write and read
//! tracking of every buffer by every barrier, the outstanding commits of
//! async copies, wgmma and TMA stores, and a lock. Each instrumented op gets
//! calls of private helper functions (`@__triton_consan_*`, one per helper
//! and signature) that read and update that state, between a lock acquire
//! and release. An allocation used by a call or both whole and indexed gets
//! a warning and is left alone. An op that touches tracked memory in a way
//! this pass cannot instrument yet gets a located error.

mod builder;
mod helpers;
mod instrument;

use std::collections::{HashMap, HashSet};

use melior::ir::operation::OperationRef;
use mlir_sys::{MlirOperation, MlirType, MlirValue};

use crate::rust_pass::{unsupported, Failure, PassResult, RustPass};
use melior::ir::r#type::TypeLike;

use crate::ttir::loop_support::ir::{self, Op};
use builder::{At, Shape, B};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonInstrumentConcurrencySanitizer",
    argument: "tritoninstrument-concurrency-sanitizer",
    description: "Add runtime checks of shared and tensor memory accesses against races",
    anchor: "builtin.module",
    run,
};

const FLAG: &str = "tritoninstrument-concurrency-sanitizer";

/// The logical threads of the sanitizer: base threads (the default
/// partition, then one per partition), then the same threads as seen by the
/// TMA engine and by the tensor cores.
pub(crate) const NUM_THREADS: i64 = 64;
pub(crate) const TMA_THREAD_OFFSET: i64 = 16;
pub(crate) const TC_THREAD_OFFSET: i64 = 32;
/// The columns of the commit tables: one per base thread.
pub(crate) const NUM_COMMIT_THREADS: i64 = 16;

/// Ops that only make views of a memory descriptor.
const VIEWS: &[&str] = &[
    "ttg.memdesc_index",
    "ttg.memdesc_subslice",
    "ttg.memdesc_trans",
    "ttg.memdesc_reshape",
    "ttg.memdesc_reinterpret",
    "ttng.tmem_subslice",
];

/// Ops that only pass memory descriptors on (control flow, selects).
const PASS_THROUGH: &[&str] = &[
    "scf.for",
    "scf.if",
    "scf.while",
    "scf.yield",
    "scf.condition",
    "arith.select",
    "ttg.warp_yield",
    "ttg.warp_return",
];

/// The two memory spaces whose buffers are tracked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mem {
    Shared,
    Tensor,
}

impl Mem {
    fn index(self) -> usize {
        match self {
            Mem::Shared => 0,
            Mem::Tensor => 1,
        }
    }

    /// The value of `tti`'s `MemType` enum attribute.
    fn attr_value(self) -> i64 {
        self.index() as i64
    }
}

/// What discovery found in the kernel.
#[derive(Default)]
struct Found {
    /// The buffer addresses of each memory space, in order of appearance.
    buffers: [Vec<i64>; 2],
    /// The mbarrier addresses.
    barriers: Vec<i64>,
    /// The allocations whose accesses are instrumented.
    tracked: HashSet<Op>,
    /// Whether the kernel has cp.async ops, wgmma and TMA stores.
    has_async_copy: bool,
    has_wgmma: bool,
    has_tma_store: bool,
}

/// The sanitizer state of one memory space, as values of one region.
#[derive(Clone, Copy)]
struct MemState {
    /// The buffer addresses (`tensor<B x i64>`).
    buffers: MlirValue,
    num_buffers: i64,
    write_visibility: MlirValue,
    read_visibility: MlirValue,
    write_tracking: Option<MlirValue>,
    read_tracking: Option<MlirValue>,
}

/// The barrier state, as values of one region.
#[derive(Clone, Copy)]
struct BarrierState {
    barriers: MlirValue,
    num_barriers: i64,
    states: MlirValue,
    waiting: MlirValue,
}

/// All sanitizer state visible in one region.
#[derive(Clone)]
struct Aux {
    mems: [Option<MemState>; 2],
    barriers: Option<BarrierState>,
    lock: MlirValue,
    async_copy_commits: Option<MlirValue>,
    wgmma_commits: Option<MlirValue>,
    tma_store_commits: Option<MlirValue>,
    shape: Shape,
    /// The waiting-table bits of the active threads.
    active_mask: i64,
}

impl Aux {
    /// The pointers to scratch state, in creation order.
    fn scratch_values(&self) -> Vec<MlirValue> {
        let mut out = Vec::new();
        for state in self.mems.iter().flatten() {
            out.extend([state.write_visibility, state.read_visibility]);
        }
        if let Some(bars) = self.barriers {
            out.extend([bars.states, bars.waiting]);
        }
        for state in self.mems.iter().flatten() {
            out.extend(state.write_tracking);
            out.extend(state.read_tracking);
        }
        out.push(self.lock);
        out.extend(self.async_copy_commits);
        out.extend(self.wgmma_commits);
        out.extend(self.tma_store_commits);
        out
    }

    /// This state as seen in a partition: the scratch pointers through
    /// `map` (capture to partition argument) and the address tensors made
    /// again at `b`.
    fn in_partition(
        &self,
        b: &B,
        found: &Found,
        map: &HashMap<usize, MlirValue>,
        active_mask: i64,
    ) -> builder::BuildResult<Aux> {
        let m = |v: MlirValue| map.get(&(v.ptr as usize)).copied().unwrap_or(v);
        let mut out = self.clone();
        if let Some(bars) = out.barriers.as_mut() {
            bars.barriers = buffer_pointers(b, &found.barriers, Mem::Shared)?;
            bars.states = m(bars.states);
            bars.waiting = m(bars.waiting);
        }
        for mem in [Mem::Shared, Mem::Tensor] {
            if let Some(state) = out.mems[mem.index()].as_mut() {
                state.buffers = buffer_pointers(b, &found.buffers[mem.index()], mem)?;
                state.write_visibility = m(state.write_visibility);
                state.read_visibility = m(state.read_visibility);
                state.write_tracking = state.write_tracking.map(m);
                state.read_tracking = state.read_tracking.map(m);
            }
        }
        out.lock = m(out.lock);
        out.async_copy_commits = out.async_copy_commits.map(m);
        out.wgmma_commits = out.wgmma_commits.map(m);
        out.tma_store_commits = out.tma_store_commits.map(m);
        out.shape = b.shape;
        out.active_mask = active_mask;
        Ok(out)
    }
}

fn run(module: OperationRef) -> PassResult {
    let module = module.to_raw();
    let kernels: Vec<MlirOperation> = ir::blocks(ir::regions(module)[0])
        .into_iter()
        .flat_map(ir::block_ops)
        .filter(|op| ir::is(*op, "tt.func") && !is_private(*op))
        .collect();
    let mut sanitizer = Sanitizer {
        helpers: HashMap::new(),
    };
    for kernel in kernels {
        sanitizer.kernel(kernel)?;
    }
    Ok(())
}

fn is_private(func: MlirOperation) -> bool {
    ir::attribute(func, "sym_visibility")
        .and_then(string_attr)
        .is_some_and(|v| v == "private")
}

fn string_attr(attr: mlir_sys::MlirAttribute) -> Option<String> {
    // SAFETY: a live attribute; the string is copied out.
    unsafe {
        if !mlir_sys::mlirAttributeIsAString(attr) {
            return None;
        }
        let s = mlir_sys::mlirStringAttrGetValue(attr);
        let bytes = std::slice::from_raw_parts(s.data as *const u8, s.length);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// The pass's state over one module.
struct Sanitizer {
    /// The helper functions made so far, by name and signature.
    helpers: HashMap<(String, i64, Vec<usize>), String>,
}

/// The op that defines `v` traced back through views and warp-specialize
/// captures: the allocation it is a view of, if any.
fn root_alloc(mut v: MlirValue) -> Option<MlirOperation> {
    loop {
        if ir::is_block_argument(v) {
            let owner = ir::block_parent_op(ir::value_block(v))?;
            if !ir::is(owner, "ttg.warp_specialize.partitions") {
                return None;
            }
            let ws = ir::parent_op(owner)?;
            v = ir::operand(ws, ir::arg_number(v));
            continue;
        }
        let def = ir::defining_op(v)?;
        if VIEWS.iter().any(|n| ir::is(def, n)) {
            v = ir::operand(def, 0);
            continue;
        }
        return (ir::is(def, "ttg.local_alloc") || ir::is(def, "ttng.tmem_alloc")).then_some(def);
    }
}

/// The uses of `v` with warp-specialize captures followed to the partition
/// arguments.
fn uses_through_captures(v: MlirValue) -> Vec<(MlirOperation, MlirValue)> {
    let mut out = Vec::new();
    let mut work = vec![v];
    while let Some(v) = work.pop() {
        for (user, index) in ir::uses(v) {
            if ir::is(user, "ttg.warp_specialize") {
                let holder = ir::regions(user)[1];
                if let Some(partitions) = ir::blocks(holder)
                    .first()
                    .and_then(|b| ir::block_ops(*b).first().copied())
                {
                    for region in ir::regions(partitions) {
                        if let Some(arg) = ir::blocks(region)
                            .first()
                            .and_then(|block| ir::block_args(*block).get(index).copied())
                        {
                            work.push(arg);
                        }
                    }
                }
                continue;
            }
            out.push((user, v));
        }
    }
    out
}

/// Whether a use of `v` (through views and captures) initializes a barrier.
fn reaches_init_barrier(v: MlirValue) -> bool {
    uses_through_captures(v).into_iter().any(|(user, _)| {
        ir::is(user, "ttng.init_barrier")
            || (VIEWS.iter().any(|n| ir::is(user, n)) && reaches_init_barrier(ir::result(user, 0)))
    })
}

impl Sanitizer {
    fn kernel(&mut self, func: MlirOperation) -> PassResult {
        let found = discover(func)?;
        let body = ir::blocks(ir::regions(func)[0]);
        let Some(first) = body
            .first()
            .and_then(|entry| ir::block_ops(*entry).first().copied())
        else {
            return Ok(());
        };
        let shape = region_shape(func, func)?;
        let b = B {
            ctx: ir::context(func),
            loc: ir::location(func),
            at: At::Before(first),
            shape,
        };
        let aux = create_aux(&b, &found).map_err(|why| internal(func, &why))?;
        // As in Triton 3.6, a kernel without buffers or barriers gets only
        // the lock.
        if found.buffers.iter().all(Vec::is_empty) && found.barriers.is_empty() {
            return Ok(());
        }
        self.instrument_block_list(func, &body, &aux, &found, None)
    }

    fn instrument_block_list(
        &mut self,
        func: MlirOperation,
        blocks: &[mlir_sys::MlirBlock],
        aux: &Aux,
        found: &Found,
        partition: Option<usize>,
    ) -> PassResult {
        for block in blocks {
            for op in ir::block_ops(*block) {
                self.instrument_op(func, op, aux, found, partition)?;
            }
        }
        Ok(())
    }

    fn instrument_op(
        &mut self,
        func: MlirOperation,
        op: MlirOperation,
        aux: &Aux,
        found: &Found,
        partition: Option<usize>,
    ) -> PassResult {
        let name = ir::name(op);
        if name == "ttg.warp_specialize" {
            return self.warp_specialize(func, op, aux, found, partition);
        }
        // Nested regions (loops, conditionals) see the same state.
        for region in ir::regions(op) {
            self.instrument_block_list(func, &ir::blocks(region), aux, found, partition)?;
        }
        let thread = partition.map_or(0, |p| p as i64 + 1);
        let ctx = Ctx {
            op,
            aux,
            thread,
            func,
            active_mask: aux.active_mask,
        };
        let tracked = |v: MlirValue| root_alloc(v).is_none_or(|a| found.tracked.contains(&Op(a)));
        let touches = ir::operands(op)
            .into_iter()
            .chain(ir::results(op))
            .filter(|v| ir::memdesc(*v).is_some())
            .any(tracked);
        match name.as_str() {
            "ttng.init_barrier" if touches => return self.init_barrier(&ctx),
            _ if VIEWS.contains(&name.as_str()) || PASS_THROUGH.contains(&name.as_str()) => {
                return Ok(())
            }
            "ttg.local_alloc" | "ttng.tmem_alloc" if ir::operand_count(op) == 0 => return Ok(()),
            // As in Triton 3.6: a dealloc ends nothing the state tracks,
            // and the expected transaction count and invalidation of a
            // barrier are not modelled.
            "ttg.local_dealloc"
            | "ttng.tmem_dealloc"
            | "ttng.barrier_expect"
            | "ttng.inval_barrier" => return Ok(()),
            _ => {}
        }
        if !touches && !is_sync_op(&name) {
            return Ok(());
        }
        if self.instrument_known(&ctx)? {
            return Ok(());
        }
        Err(unsupported(op, FLAG, &format!("instrumenting '{name}'")))
    }

    /// Instruments a `ttg.warp_specialize`: its partitions start seeing
    /// what the parent thread sees, and get the state as captures.
    fn warp_specialize(
        &mut self,
        func: MlirOperation,
        ws: MlirOperation,
        aux: &Aux,
        found: &Found,
        partition: Option<usize>,
    ) -> PassResult {
        if partition.is_some() {
            return Err(unsupported(ws, FLAG, "nested 'ttg.warp_specialize'"));
        }
        let holder = ir::regions(ws)[1];
        let Some(partitions) = ir::blocks(holder)
            .first()
            .and_then(|b| ir::block_ops(*b).first().copied())
        else {
            return Err(internal(ws, "no partitions"));
        };
        let regions = ir::regions(partitions);
        let num_warps = ir::attribute(ws, "partitionNumWarps")
            .and_then(ir::dense_i32_array)
            .unwrap_or_default();
        if regions.len() as i64 >= TMA_THREAD_OFFSET {
            return Err(unsupported(ws, FLAG, "more than 15 partitions"));
        }
        if num_warps.len() != regions.len() {
            return Err(internal(
                ws,
                "partition warp counts do not match the partitions",
            ));
        }
        let active_mask = (0..regions.len()).fold(1, |mask, i| mask | (1 << (2 * (i + 1))));
        let thread = 0;
        let ctx = Ctx {
            op: ws,
            aux,
            thread,
            func,
            active_mask,
        };
        let b = ctx.builder();
        self.locked(&b, &ctx, |this, b| {
            for i in 0..regions.len() {
                for state in aux.mems.iter().flatten() {
                    let p = b.const_int(1, 1);
                    let t = b.const_int(thread, 32);
                    let mask = b.const_int(instrument::peers(i as i64 + 1), 64);
                    this.call(
                        &ctx,
                        b,
                        helpers::Helper::CopyWriteVisibility,
                        &[state.num_buffers],
                        &[t, mask, p, state.write_visibility],
                    )?;
                    let p = b.const_int(1, 1);
                    let t = b.const_int(thread, 32);
                    let mask = b.const_int(instrument::peers(i as i64 + 1), 64);
                    this.call(
                        &ctx,
                        b,
                        helpers::Helper::CopyReadVisibility,
                        &[state.num_buffers],
                        &[t, mask, p, state.read_visibility],
                    )?;
                }
            }
            Ok(())
        })?;
        // The scratch state becomes explicit captures of the partitions.
        let captured = aux.scratch_values();
        let mut operands = ir::operands(ws);
        operands.extend(captured.iter().copied());
        // SAFETY: `ws` is live and the operands are values that dominate it.
        unsafe {
            mlir_sys::mlirOperationSetOperands(ws, operands.len() as isize, operands.as_ptr())
        };
        let default_aux = Aux {
            active_mask,
            ..aux.clone()
        };
        self.instrument_block_list(
            func,
            &ir::blocks(ir::regions(ws)[0]),
            &default_aux,
            found,
            None,
        )?;
        for (i, region) in regions.iter().enumerate() {
            let Some(block) = ir::blocks(*region).first().copied() else {
                continue;
            };
            let mut map = HashMap::new();
            for v in &captured {
                // SAFETY: a live block; the new argument takes the capture's type.
                let arg = unsafe {
                    mlir_sys::mlirBlockAddArgument(block, ir::value_type(*v), ir::location(ws))
                };
                map.insert(v.ptr as usize, arg);
            }
            let Some(first) = ir::block_ops(block).first().copied() else {
                continue;
            };
            let shape = Shape {
                num_warps: i64::from(num_warps[i]),
                threads_per_warp: aux.shape.threads_per_warp,
            };
            let b = B {
                ctx: ir::context(ws),
                loc: ir::location(ws),
                at: At::Before(first),
                shape,
            };
            let part_aux = aux
                .in_partition(&b, found, &map, active_mask)
                .map_err(|why| internal(ws, &why))?;
            self.instrument_block_list(func, &[block], &part_aux, found, Some(i))?;
        }
        Ok(())
    }

    fn init_barrier(&mut self, c: &Ctx) -> PassResult {
        let bars = c
            .aux
            .barriers
            .ok_or_else(|| unsupported(c.op, FLAG, "barriers not allocated in the kernel"))?;
        let count = ir::attribute(c.op, "count")
            .and_then(ir::integer_attr_value)
            .unwrap_or(0);
        let barrier = ir::operand(c.op, 0);
        let b = c.builder();
        self.locked(&b, c, |this, b| {
            let count = b.const_int(count, 32);
            let bar = b.memdesc_to_i64(barrier);
            this.call(
                c,
                b,
                helpers::Helper::InitBarrierState,
                &[bars.num_barriers],
                &[bar, count, bars.barriers, bars.states],
            )?;
            Ok(())
        })
    }

    /// Runs `f` at `b` between a lock acquire and release.
    fn locked(
        &mut self,
        b: &B,
        c: &Ctx,
        f: impl FnOnce(&mut Self, &B) -> Result<(), Failure>,
    ) -> PassResult {
        b.op("tti.experimental_lock_acquire", &[c.aux.lock], &[], &[]);
        f(self, b)?;
        b.op("tti.experimental_lock_release", &[c.aux.lock], &[], &[]);
        Ok(())
    }

    /// Calls the helper `helper` (made on first use) with `args` at `b`.
    fn call(
        &mut self,
        c: &Ctx,
        b: &B,
        helper: helpers::Helper,
        dims: &[i64],
        args: &[MlirValue],
    ) -> Result<Option<MlirValue>, Failure> {
        let types: Vec<MlirType> = args.iter().map(|v| ir::value_type(*v)).collect();
        let mut signature: Vec<usize> = types.iter().map(|t| t.ptr as usize).collect();
        signature.extend(dims.iter().map(|d| *d as usize));
        let key = (helper.name().to_string(), b.shape.num_warps, signature);
        let symbol = match self.helpers.get(&key) {
            Some(symbol) => symbol.clone(),
            None => {
                let count = self
                    .helpers
                    .keys()
                    .filter(|k| k.0 == key.0 && k.1 == key.1)
                    .count();
                let symbol = format!(
                    "__triton_consan_{}_nw{}_{}",
                    helper.name(),
                    b.shape.num_warps,
                    count
                );
                helpers::build(c.func, &symbol, helper, &types, dims, b.shape)
                    .map_err(|why| internal(c.op, &why))?;
                self.helpers.insert(key, symbol.clone());
                symbol
            }
        };
        let results = helper
            .results(b, &types, dims)
            .map_err(|why| internal(c.op, &why))?;
        let callee = b
            .parse_attr(&format!("@{symbol}"))
            .map_err(|why| internal(c.op, &why))?;
        let call = b.op("tt.call", args, &results, &[("callee", callee)]);
        Ok((!results.is_empty()).then(|| ir::result(call, 0)))
    }
}

/// The op being instrumented and where.
struct Ctx<'a> {
    op: MlirOperation,
    aux: &'a Aux,
    /// The sanitizer thread of the code around the op.
    thread: i64,
    func: MlirOperation,
    /// The waiting-table bits of the threads that run alongside.
    active_mask: i64,
}

impl Ctx<'_> {
    fn builder(&self) -> B {
        B {
            ctx: ir::context(self.op),
            loc: ir::location(self.op),
            at: At::Before(self.op),
            shape: self.aux.shape,
        }
    }
}

/// Ops that synchronize with the sanitizer's threads even without a memory
/// descriptor operand.
fn is_sync_op(name: &str) -> bool {
    matches!(
        name,
        "ttg.async_commit_group"
            | "ttg.async_wait"
            | "ttng.async_tma_store_wait"
            | "ttng.warp_group_dot_wait"
            | "ttng.tc_gen5_commit"
    )
}

fn internal(op: MlirOperation, why: &str) -> Failure {
    // SAFETY: `op` is a live op of the module the pass runs on.
    let op = unsafe { OperationRef::from_raw(op) };
    crate::rust_pass::fail(
        op,
        &format!("internal error of the concurrency sanitizer: {why}"),
    )
}

fn region_shape(anchor: MlirOperation, func: MlirOperation) -> Result<Shape, Failure> {
    let num_warps =
        ir::lookup_num_warps(anchor).ok_or_else(|| internal(anchor, "no 'ttg.num-warps'"))?;
    let threads_per_warp = ir::enclosing_module(func)
        .and_then(|m| ir::module_int(m, "ttg.threads-per-warp"))
        .unwrap_or(32);
    Ok(Shape {
        num_warps: i64::from(num_warps),
        threads_per_warp,
    })
}

/// Finds the buffers and barriers of `func`, warning about allocations that
/// cannot be instrumented.
fn discover(func: MlirOperation) -> Result<Found, Failure> {
    let mut found = Found::default();
    let mut allocs = Vec::new();
    ir::walk_pre(func, &mut |op| {
        let name = ir::name(op);
        match name.as_str() {
            "ttg.local_alloc" | "ttng.tmem_alloc" => allocs.push(op),
            "ttg.async_copy_global_to_local" | "ttg.async_commit_group" | "ttg.async_wait" => {
                found.has_async_copy = true
            }
            "ttng.warp_group_dot" | "ttng.warp_group_dot_wait" => found.has_wgmma = true,
            "ttng.async_tma_copy_local_to_global" | "ttng.async_tma_store_wait" => {
                found.has_tma_store = true
            }
            _ => {}
        }
    });
    for alloc in allocs {
        let value = ir::result(alloc, 0);
        let uses = uses_through_captures(value);
        let location = ir::location(alloc);
        if uses.iter().any(|(user, _)| ir::is(*user, "tt.call")) {
            warn(
                location,
                "Allocation is used in a function call, cannot instrument",
            );
            continue;
        }
        let indexed = uses
            .iter()
            .any(|(user, _)| ir::is(*user, "ttg.memdesc_index"));
        // A dealloc is not an access of the whole allocation.
        let whole = uses.iter().any(|(user, _)| {
            !ir::is(*user, "ttg.memdesc_index")
                && !ir::is(*user, "ttg.local_dealloc")
                && !ir::is(*user, "ttng.tmem_dealloc")
        });
        if indexed && whole {
            warn(
                location,
                "Allocation is used in an inconsistent way, cannot instrument",
            );
            continue;
        }
        let Some(desc) = ir::memdesc(value) else {
            continue;
        };
        let shape = desc.shape.clone();
        let is_tmem = ir::is(alloc, "ttng.tmem_alloc");
        let base = if is_tmem {
            let col =
                ir::attribute(alloc, "tensor_memory_col_offset").and_then(ir::integer_attr_value);
            let row =
                ir::attribute(alloc, "tensor_memory_row_offset").and_then(ir::integer_attr_value);
            let (Some(col), Some(row)) = (col, row) else {
                return Err(unsupported(alloc, FLAG, "a tensor memory allocation without offsets (run the tensor memory allocation first)"));
            };
            col | (row << 16)
        } else {
            let Some(offset) =
                ir::attribute(alloc, "allocation.offset").and_then(ir::integer_attr_value)
            else {
                return Err(unsupported(alloc, FLAG, "an allocation without 'allocation.offset' (run the shared memory allocation first)"));
            };
            offset
        };
        let offsets = if indexed {
            if is_tmem {
                return Err(unsupported(
                    alloc,
                    FLAG,
                    "indexed tensor memory allocations",
                ));
            }
            let bits = ir::integer_width(desc.element.to_raw())
                .or_else(|| float_width(desc.element.to_raw()))
                .ok_or_else(|| unsupported(alloc, FLAG, "this allocation's element type"))?;
            let bytes = i64::from(bits / 8).max(1);
            let size: i64 = shape.iter().skip(1).product::<i64>() * bytes;
            (0..shape.first().copied().unwrap_or(1))
                .map(|i| base + i * size)
                .collect()
        } else {
            vec![base]
        };
        let target = if reaches_init_barrier(value) {
            if is_tmem {
                return Err(unsupported(alloc, FLAG, "barriers in tensor memory"));
            }
            &mut found.barriers
        } else if is_tmem {
            &mut found.buffers[Mem::Tensor.index()]
        } else {
            &mut found.buffers[Mem::Shared.index()]
        };
        for offset in offsets {
            if !target.contains(&offset) {
                target.push(offset);
            }
        }
        found.tracked.insert(Op(alloc));
    }
    Ok(found)
}

fn float_width(ty: MlirType) -> Option<u32> {
    // SAFETY: a live type.
    unsafe { mlir_sys::mlirTypeIsAFloat(ty).then(|| mlir_sys::mlirFloatTypeGetWidth(ty)) }
}

fn warn(location: mlir_sys::MlirLocation, message: &str) {
    // SAFETY: a live location of the module the pass runs on.
    let location = unsafe { melior::ir::Location::from_raw(location) };
    tt_dialect::ir::emit_warning_with_notes(location, message, &[]);
}

/// `values` padded with zeros to the next power of two.
fn padded(values: &[i64]) -> Vec<i64> {
    let mut out = values.to_vec();
    out.resize(values.len().next_power_of_two(), 0);
    out
}

/// An array of `shape` `i{width}` zeros in global scratch memory.
fn zeroed_scratch(b: &B, shape: &[i64], width: u32) -> builder::BuildResult<MlirValue> {
    let ty = b.tensor(shape, b.int_type(width))?;
    let zeros = b.const_splat(ty, 0);
    let ptr = b.scratch(shape.iter().product(), width)?;
    b.store_tensor(ptr, zeros, shape)?;
    Ok(ptr)
}

fn buffer_pointers(b: &B, offsets: &[i64], mem: Mem) -> builder::BuildResult<MlirValue> {
    let offsets: Vec<i32> = padded(offsets).into_iter().map(|o| o as i32).collect();
    let ty = b.tensor(&[offsets.len() as i64], b.int_type(64))?;
    Ok(b.v(
        "tti.experimental_buffer_pointers",
        &[],
        ty,
        &[
            ("offsets", ir::dense_i32_array_attr(b.ctx, &offsets)),
            (
                "memType",
                ir::integer_attr(b.int_type(32), mem.attr_value()),
            ),
        ],
    ))
}

/// Creates the sanitizer state at `b` (the top of the kernel).
fn create_aux(b: &B, found: &Found) -> builder::BuildResult<Aux> {
    let mut mems = [None, None];
    for mem in [Mem::Shared, Mem::Tensor] {
        let offsets = &found.buffers[mem.index()];
        if offsets.is_empty() {
            continue;
        }
        let buffers = buffer_pointers(b, offsets, mem)?;
        let n = padded(offsets).len() as i64;
        let write_visibility = zeroed_scratch(b, &[n], 64)?;
        let read_visibility = zeroed_scratch(b, &[n, NUM_THREADS], 64)?;
        mems[mem.index()] = Some(MemState {
            buffers,
            num_buffers: n,
            write_visibility,
            read_visibility,
            write_tracking: None,
            read_tracking: None,
        });
    }
    let mut barriers = None;
    if !found.barriers.is_empty() {
        let ptrs = buffer_pointers(b, &found.barriers, Mem::Shared)?;
        let k = padded(&found.barriers).len() as i64;
        let states = zeroed_scratch(b, &[k], 32)?;
        let waiting = zeroed_scratch(b, &[k], 32)?;
        barriers = Some(BarrierState {
            barriers: ptrs,
            num_barriers: k,
            states,
            waiting,
        });
        for state in mems.iter_mut().flatten() {
            state.write_tracking = Some(zeroed_scratch(b, &[state.num_buffers, k], 8)?);
            state.read_tracking = Some(zeroed_scratch(b, &[state.num_buffers, k], 64)?);
        }
    }
    let lock = b.scratch(1, 32)?;
    let zero = b.const_int(0, 32);
    let i32t = b.int_type(32);
    b.op(
        "tt.atomic_rmw",
        &[lock, zero],
        &[i32t],
        &[
            ("atomic_rmw_op", ir::integer_attr(i32t, 10)),
            ("sem", ir::integer_attr(i32t, 4)),
            ("scope", ir::integer_attr(i32t, 1)),
        ],
    );
    let shared = mems[Mem::Shared.index()];
    let commits = |wanted: bool| -> builder::BuildResult<Option<MlirValue>> {
        match shared {
            Some(state) if wanted => Ok(Some(zeroed_scratch(
                b,
                &[state.num_buffers, NUM_COMMIT_THREADS],
                8,
            )?)),
            _ => Ok(None),
        }
    };
    let async_copy_commits = commits(found.has_async_copy)?;
    let wgmma_commits = commits(found.has_wgmma)?;
    let tma_store_commits = commits(found.has_tma_store)?;
    Ok(Aux {
        mems,
        barriers,
        lock,
        async_copy_commits,
        wgmma_commits,
        tma_store_commits,
        shape: b.shape,
        active_mask: 1,
    })
}
