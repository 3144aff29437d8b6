//! Forward dataflow over a function's blocks, for the shared-memory
//! analyses that insert synchronisation (proxy fences, barriers): each
//! block's entry state is the join of its predecessors' exit states, and
//! the blocks are run until no entry state changes. Ops with regions of
//! their own (structured control flow left in place) are for the
//! transfer function to walk, in order ([`for_each_op`]).

use std::collections::HashMap;

use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationRef},
    BlockRef, RegionLike,
};

/// Runs `transfer` (a block and its entry state, which it turns into the
/// exit state) over the blocks of `function`'s body until the entry states
/// are stable; `join` merges a predecessor's exit state into an entry
/// state and says whether it grew. The last run of each block is the one
/// that counts: a transfer that records decisions should clear them when
/// a new round starts (`round` is called before each).
pub(crate) fn forward<S: Clone + Default>(
    function: OperationRef,
    mut round: impl FnMut(),
    mut transfer: impl FnMut(BlockRef, &mut S),
    join: impl Fn(&mut S, &S) -> bool,
) {
    let mut blocks: Vec<BlockRef> = Vec::new();
    if let Ok(region) = function.region(0) {
        let mut b = region.first_block();
        while let Some(block) = b {
            blocks.push(block);
            b = block.next_in_region();
        }
    }
    let index: HashMap<usize, usize> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.to_raw().ptr as usize, i))
        .collect();
    let mut entry: Vec<S> = vec![S::default(); blocks.len()];
    let mut changed = true;
    while changed {
        changed = false;
        round();
        for (i, block) in blocks.iter().enumerate() {
            let mut state = entry[i].clone();
            transfer(*block, &mut state);
            let Some(terminator) = block.terminator() else {
                continue;
            };
            for s in 0..terminator.successor_count() {
                let Ok(successor) = terminator.successor(s) else {
                    continue;
                };
                if let Some(&j) = index.get(&(successor.to_raw().ptr as usize)) {
                    changed |= join(&mut entry[j], &state);
                }
            }
        }
    }
}

/// The `tt.func`s of `module`, collected before anything is edited.
pub(crate) fn functions(module: OperationRef) -> Vec<mlir_sys::MlirOperation> {
    let mut functions = Vec::new();
    module.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        if tt_dialect::ir::is_op(op, "tt.func") {
            functions.push(op.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    functions
}

/// Calls `visit` on the ops of `block` in order, each before the ops of
/// the regions nested in it (structured control flow, run in place).
pub(crate) fn for_each_op(block: BlockRef, visit: &mut dyn FnMut(OperationRef)) {
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        visit(op);
        for i in 0..op.region_count() {
            let Ok(region) = op.region(i) else { continue };
            let mut inner = region.first_block();
            while let Some(b) = inner {
                for_each_op(b, visit);
                inner = b.next_in_region();
            }
        }
    }
}
