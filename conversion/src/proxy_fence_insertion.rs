//! `triton-nvidia-gpu-proxy-fence-insertion`: from compute capability 90,
//! Triton 3.6 puts a `ttng.fence_async_shared` before an async-proxy write
//! of shared memory (a TMA load or gather) that may touch bytes that
//! generic-proxy accesses used since the last fence. Async-proxy reads get
//! none from this pass: a `ttng.warp_group_dot` after `cp.async` copies or
//! a `local_store` is left as it is (checked against Triton's pass,
//! `scripts/triton-pass.py`); `triton-nvidia-gpu-fence-insertion` fenced
//! register-to-shared copies before dots in `make_ttgir`. Below 90 nothing
//! is done.
//!
//! The analysis follows the function's blocks (the pass runs after
//! `convert-scf-to-cf`, and on structured ops' regions in order): the
//! shared-memory bytes generic accesses touched since the last fence, from
//! the allocation's offsets (all of shared memory where a buffer is not
//! known), joined over predecessors until nothing changes. Generic accesses
//! are `local_load`, `local_store`, an initialised `local_alloc`,
//! `cp.async` copies, an op's scratch, calls (all bytes) and, as in
//! Triton's pass, `barrier_expect` (the barrier's bytes, which a later
//! buffer may reuse); the other mbarrier ops, TMA stores and wgmma reads
//! are async-proxy or synchronisation, and views (`memdesc_index`, ...)
//! access nothing: they do not count.

use std::collections::BTreeSet;
use std::ops::Range;

use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationRef},
        BlockRef, ValueLike,
    },
    pass::Pass,
};
use tt_dialect::ir as ttir;
use tt_passes::{
    options::PassOptions,
    rust_pass::{PassResult, RustPass},
};

use crate::allocation::{buffer_range, value_range};

/// The pass from compute capability 90 on (the default here is 90).
pub static PASS: RustPass = RustPass {
    name: "TritonGPUProxyFenceInsertion",
    argument: "triton-nvidia-gpu-proxy-fence-insertion",
    description: "Insert proxy fences before async-proxy writes of shared memory",
    anchor: "builtin.module",
    run,
};

static BEFORE_90: RustPass = RustPass {
    name: "TritonGPUProxyFenceInsertion",
    argument: "triton-nvidia-gpu-proxy-fence-insertion",
    description: "Insert proxy fences (nothing to do below compute capability 90)",
    anchor: "builtin.module",
    run: |_| Ok(()),
};

/// Builds the pass for `compute-capability` (default 90).
pub fn factory(options: &PassOptions) -> Result<Pass, String> {
    Ok(if options.int("compute-capability", 90)? >= 90 {
        PASS.build()
    } else {
        BEFORE_90.build()
    })
}

/// The ops that write shared memory through the async proxy: the TMA
/// loads, into their destination (operand index).
fn async_write_destination(op: OperationRef) -> Option<usize> {
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default();
    // desc, coordinates..., barrier, result, pred (global to local); desc,
    // x offsets, y offset, barrier, result, pred (gather).
    match name {
        "ttng.async_tma_copy_global_to_local" | "ttng.async_tma_gather" => {
            op.operand_count().checked_sub(2)
        }
        _ => None,
    }
}

/// Ops that neither count as generic accesses nor need a fence: barriers
/// (but `barrier_expect`, which Triton's pass counts as a generic write of
/// the barrier), async-proxy accesses and views, which access nothing.
const IGNORED: &[&str] = &[
    "ttg.memdesc_index",
    "ttg.memdesc_subslice",
    "ttg.memdesc_trans",
    "ttg.memdesc_reinterpret",
    "ttng.init_barrier",
    "ttng.inval_barrier",
    "ttng.arrive_barrier",
    "ttng.wait_barrier",
    "ttng.async_copy_mbarrier_arrive",
    "ttng.async_tma_copy_local_to_global",
    "ttng.async_tma_scatter",
    "ttng.async_tma_store_wait",
    "ttng.warp_group_dot",
    "ttng.warp_group_dot_wait",
    "ttg.local_dealloc",
];

/// The bytes generic accesses touched since the last fence.
type Touched = BTreeSet<(u64, u64)>;

const EVERYTHING: (u64, u64) = (0, u64::MAX);

fn span(range: Option<Range<u64>>) -> (u64, u64) {
    range.map_or(EVERYTHING, |r| (r.start, r.end))
}

/// The bytes of shared memory the generic accesses of `op` touch.
fn generic_accesses(op: OperationRef) -> Vec<(u64, u64)> {
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default();
    let operand_span = |i| span(ttir::operand(op, i).and_then(value_range));
    match name {
        "ttg.local_load" => vec![operand_span(0)],
        "ttg.local_store" => vec![operand_span(1)],
        "ttg.local_alloc" if op.operand_count() > 0 => vec![span(buffer_range(op))],
        "ttg.local_alloc" => Vec::new(),
        "ttg.async_copy_global_to_local" => vec![operand_span(1)],
        "tt.call" => vec![EVERYTHING],
        _ if crate::allocation::offset(op).is_some() => vec![span(buffer_range(op))],
        _ => op
            .operands()
            .filter(|v| ttg_dialect::layout::MemDesc::of(v.r#type()).is_some())
            .map(|v| span(value_range(v)))
            .collect(),
    }
}

fn overlaps(touched: &Touched, (start, end): (u64, u64)) -> bool {
    touched.iter().any(|&(s, e)| s < end && start < e)
}

/// Runs the ops of `block` (and of the regions nested in them) on
/// `touched`; records in `fences` the async writes that need a fence.
fn transfer(block: BlockRef, touched: &mut Touched, fences: &mut BTreeSet<usize>) {
    crate::dataflow::for_each_op(block, &mut |op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default();
        if name == "ttng.fence_async_shared" {
            touched.clear();
        } else if let Some(destination) = async_write_destination(op) {
            let dest = span(ttir::operand(op, destination).and_then(value_range));
            if overlaps(touched, dest) {
                fences.insert(op.to_raw().ptr as usize);
                touched.clear();
            }
        } else if !IGNORED.contains(&name) {
            touched.extend(generic_accesses(op));
        }
    });
}

/// The analysis of one function: block states joined over predecessors
/// until they no longer grow; returns the async writes to fence.
fn analyse(function: OperationRef) -> BTreeSet<usize> {
    let fences = std::cell::RefCell::new(BTreeSet::new());
    crate::dataflow::forward(
        function,
        || fences.borrow_mut().clear(),
        |block, touched: &mut Touched| transfer(block, touched, &mut fences.borrow_mut()),
        |entry, exit| {
            let before = entry.len();
            entry.extend(exit.iter().copied());
            entry.len() != before
        },
    );
    fences.into_inner()
}

fn run(module: OperationRef) -> PassResult {
    let mut writers = Vec::new();
    module.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        if async_write_destination(op).is_some() {
            writers.push(op.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    if writers.is_empty() {
        return Ok(());
    }
    for function in crate::dataflow::functions(module) {
        // SAFETY: ops of the module this pass runs on, alive throughout.
        let function = unsafe { OperationRef::from_raw(function) };
        let fences = analyse(function);
        for &writer in &writers {
            if !fences.contains(&(writer.ptr as usize)) {
                continue;
            }
            // SAFETY: as above.
            let writer = unsafe { OperationRef::from_raw(writer) };
            let context_ref = writer.context();
            // SAFETY: the context outlives the pass run; `context_ref` lives
            // while the reference is used.
            let context = unsafe { context_ref.to_ref() };
            let fence = melior::ir::operation::OperationBuilder::new(
                "ttng.fence_async_shared",
                writer.location(),
            )
            .add_attributes(&[(
                melior::ir::Identifier::new(context, "bCluster"),
                melior::ir::attribute::BoolAttribute::new(context, false).into(),
            )])
            .build()
            .map_err(|_| tt_passes::rust_pass::fail(writer, "could not build a fence"))?;
            if let Some(block) = writer.block() {
                block.insert_operation_before(writer, fence);
            }
        }
    }
    Ok(())
}
