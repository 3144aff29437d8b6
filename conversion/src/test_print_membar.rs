//! `test-print-membar`, Triton's test pass for its shared-memory barrier
//! analysis on TritonGPU IR (after the allocation): a `ttg.local_barrier`
//! goes before an op whose shared-memory accesses conflict with those since
//! the last barrier (a read after a write, a write after a read or a
//! write), over the function's blocks to a fixpoint. The lowering places
//! its barriers by the same rules as it emits code; this pass shows them on
//! the IR, as Triton's does.
//!
//! Accesses come from the allocation's byte ranges: `local_alloc` with a
//! value, `local_store` and `cp.async` write, `local_load` reads; the
//! mbarrier ops write their barrier (`wait_barrier` reads it too); TMA
//! loads write their buffer and barrier, TMA stores and wgmma/tcgen05 MMAs
//! read their shared operands; an op's scratch is written then read (a
//! barrier inside it too); a call may touch anything. Buffers the
//! allocation does not know (function arguments) are not tracked, as in
//! Triton. Pairs that need no barrier, as Triton's NVIDIA filter says:
//! init after init, inval after inval, among waits / TMA loads /
//! expects, and after a TMA load or a wait (the mbarrier orders them)
//! except an inval.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::ops::Range;

use melior::ir::{
    block::BlockLike,
    operation::{OperationBuilder, OperationLike, OperationRef},
    BlockRef,
};
use tt_dialect::ir as ttir;
use tt_passes::rust_pass::{fail, PassResult, RustPass};
use tt_passes::ttir::pointer_ir::op_name;

use crate::allocation::{buffer_range, offset, value_range};

pub static PASS: RustPass = RustPass {
    name: "TestMembarPass",
    argument: "test-print-membar",
    description: "insert the shared-memory barriers of the membar analysis",
    anchor: "builtin.module",
    run,
};

/// One access since the last barrier: bytes, whether it writes, the op's
/// name (for the filter).
type Pending = BTreeSet<(u64, u64, bool, String)>;

const EVERYTHING: (u64, u64) = (0, u64::MAX);

/// Triton 3.6's `canSkipBarSync` for NVIDIA: pairs of ops the mbarrier
/// protocol orders without a CTA barrier.
fn can_skip(before: &str, after: &str) -> bool {
    const TRACKED: [&str; 4] = [
        "ttng.wait_barrier",
        "ttng.async_tma_copy_global_to_local",
        "ttng.async_tma_gather",
        "ttng.barrier_expect",
    ];
    if before == after && (before == "ttng.init_barrier" || before == "ttng.inval_barrier") {
        return true;
    }
    if before == "ttng.wait_barrier" && after == "ttng.wait_barrier" {
        return false;
    }
    if TRACKED.contains(&before) && TRACKED.contains(&after) {
        return true;
    }
    [
        "ttng.async_tma_copy_global_to_local",
        "ttng.async_tma_gather",
        "ttng.wait_barrier",
    ]
    .contains(&before)
        && after != "ttng.inval_barrier"
}

fn span(range: Option<Range<u64>>) -> Option<(u64, u64)> {
    range.map(|r| (r.start, r.end))
}

/// The (bytes, writes) accesses of `op` to buffers the allocation knows.
fn accesses(op: OperationRef) -> Vec<((u64, u64), bool)> {
    let n = op_name(op);
    let operand = |i: usize| span(ttir::operand(op, i).and_then(value_range));
    let count = op.operand_count();
    let mut out: Vec<(Option<(u64, u64)>, bool)> = Vec::new();
    match n.as_str() {
        "ttg.local_alloc" if count > 0 => out.push((span(buffer_range(op)), true)),
        "ttg.local_load" => out.push((operand(0), false)),
        "ttg.local_store" => out.push((operand(1), true)),
        "ttg.async_copy_global_to_local" => out.push((operand(1), true)),
        "ttng.init_barrier"
        | "ttng.inval_barrier"
        | "ttng.barrier_expect"
        | "ttng.arrive_barrier" => out.push((operand(0), true)),
        "ttng.wait_barrier" => {
            out.push((operand(0), false));
            out.push((operand(0), true));
        }
        // desc, coordinates..., barrier, result, pred (and the gather's
        // offsets in place of the coordinates).
        "ttng.async_tma_copy_global_to_local" | "ttng.async_tma_gather" => {
            if let Some(barrier) = count.checked_sub(3) {
                out.push((operand(barrier), true));
                out.push((operand(barrier + 1), true));
            }
        }
        "ttng.async_tma_copy_local_to_global" | "ttng.async_tma_scatter" => {
            if let Some(last) = count.checked_sub(1) {
                out.push((operand(last), false));
            }
        }
        "ttng.warp_group_dot" | "ttng.tc_gen5_mma" | "ttng.tc_gen5_mma_scaled" => {
            out.push((operand(0), false));
            out.push((operand(1), false));
        }
        "tt.call" => {
            out.push((Some(EVERYTHING), false));
            out.push((Some(EVERYTHING), true));
        }
        _ => {}
    }
    out.into_iter()
        .filter_map(|(range, write)| range.map(|r| (r, write)))
        .collect()
}

fn conflicts(pending: &Pending, (start, end): (u64, u64), write: bool, after: &str) -> bool {
    pending.iter().any(|(s, e, pending_write, before)| {
        *s < end && start < *e && (write || *pending_write) && !can_skip(before, after)
    })
}

/// Runs the ops of `block` (and the regions nested in them) on `pending`;
/// records the ops that need a barrier before them.
fn transfer(block: BlockRef, pending: &mut Pending, barriers: &mut BTreeSet<usize>) {
    crate::dataflow::for_each_op(block, &mut |op| {
        let n = op_name(op);
        if n == "ttg.local_barrier" || n == "gpu.barrier" {
            pending.clear();
            return;
        }
        let scratch = n != "ttg.local_alloc" && offset(op).is_some();
        let mut current = accesses(op);
        if scratch {
            if let Some(range) = span(buffer_range(op)) {
                current.push((range, true));
            }
        }
        if current.iter().any(|&(r, w)| conflicts(pending, r, w, &n)) {
            barriers.insert(op.to_raw().ptr as usize);
            pending.clear();
        }
        if scratch {
            // The op synchronises between writing and reading its scratch.
            pending.clear();
            if let Some((s, e)) = span(buffer_range(op)) {
                pending.insert((s, e, false, n.clone()));
            }
        } else {
            for ((s, e), w) in current {
                pending.insert((s, e, w, n.clone()));
            }
        }
    });
}

fn run(module: OperationRef) -> PassResult {
    for function in crate::dataflow::functions(module) {
        // SAFETY: ops of the module this pass runs on, alive throughout.
        let function = unsafe { OperationRef::from_raw(function) };
        let barriers = RefCell::new(BTreeSet::new());
        crate::dataflow::forward(
            function,
            || barriers.borrow_mut().clear(),
            |block, pending: &mut Pending| transfer(block, pending, &mut barriers.borrow_mut()),
            |entry, exit| {
                let before = entry.len();
                entry.extend(exit.iter().cloned());
                entry.len() != before
            },
        );
        let barriers = barriers.into_inner();
        let mut ops = Vec::new();
        function.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
            if barriers.contains(&(op.to_raw().ptr as usize)) {
                ops.push(op.to_raw());
            }
            melior::ir::operation::WalkResult::Advance
        });
        for op in ops {
            // SAFETY: as above.
            let op = unsafe { OperationRef::from_raw(op) };
            let barrier = OperationBuilder::new("ttg.local_barrier", op.location())
                .build()
                .map_err(|_| fail(op, "could not build a barrier"))?;
            if let Some(block) = op.block() {
                block.insert_operation_before(op, barrier);
            }
        }
    }
    Ok(())
}
