//! `tritongpu-reorder-instructions`: Triton 3.6's instruction reordering,
//! in its five steps and its order:
//!
//! 1. each `ttg.convert_layout` sinks below the last `ttg.local_dealloc`
//!    that lies between it and its first user (the user's ancestor in the
//!    convert's block);
//! 2. an op that raises register pressure (a `ttg.local_load`, or a
//!    `ttg.convert_layout` to a `#ttg.dot_op` layout) with exactly one use,
//!    whose user sits in another `scf.for` than it (nearest enclosing loop),
//!    moves right before that user;
//! 3. a `ttg.local_alloc` with a source moves right after the source's
//!    defining op, unless that is a `tt.splat` or an `arith.constant`;
//! 4. a `tt.trans` or `ttg.memdesc_trans` moves right after its source's
//!    defining op;
//! 5. a `ttg.local_load` to a dot operand with `opIdx = 1` whose single user
//!    is a `tt.dot` with operand A loaded by a `ttg.local_load` moves right
//!    after that load when it dominates it and no op from it up to that
//!    load (the load's ancestor in its block) is known to write memory.
//!
//! Walks are post-order, as MLIR's `walk`. Two differences from Triton
//! where Triton's behaviour is not defined: step 2 moves ops in walk order
//! (Triton iterates a pointer-keyed hash map), and step 1 on a convert
//! without users in its block scans to the block's end (Triton's iterator
//! wraps around the block). Step 5's dominance test covers structured
//! control flow: across distinct blocks of one region it answers "no", so
//! nothing moves there.

use mlir_sys::MlirOperation;

use crate::rust_pass::{PassResult, RustPass};
use crate::ttir::loop_support::ir;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUReorderInstructions",
    argument: "tritongpu-reorder-instructions",
    description:
        "Reorder instructions: sink conversions and shared-memory loads towards their uses",
    anchor: "builtin.module",
    run,
};

fn run(module: melior::ir::operation::OperationRef) -> PassResult {
    let m = module.to_raw();
    let post = |name: &'static str| ir::collect_post(m, &|op| ir::is(op, name));

    // 1. Sink conversions after the last dealloc before their first use.
    for cvt in post("ttg.convert_layout") {
        let first_use = first_use(cvt);
        let mut last_dealloc = None;
        let mut curr = next_op(cvt);
        while let Some(op) = curr {
            if first_use.is_some_and(|u| u.ptr == op.ptr) {
                break;
            }
            if ir::is(op, "ttg.local_dealloc") {
                last_dealloc = Some(op);
            }
            curr = next_op(op);
        }
        if let Some(d) = last_dealloc {
            move_after(cvt, d);
        }
    }

    // 2. Sink register-hungry ops to their single user in another loop.
    let mut to_move = Vec::new();
    for op in ir::collect_post(m, &|_| true) {
        if !increases_register_pressure(op) {
            continue;
        }
        let uses = ir::uses(ir::result(op, 0));
        if uses.len() != 1 {
            continue;
        }
        let user = uses[0].0;
        if same_op(enclosing_for(user), enclosing_for(op)) {
            continue;
        }
        to_move.push((op, user));
    }
    for (op, user) in to_move {
        ir::move_before(op, user);
    }

    // 3. Allocations right after the op that defines what they store.
    for alloc in post("ttg.local_alloc") {
        if ir::operand_count(alloc) == 0 {
            continue;
        }
        // A splat of a scalar or a constant stays where it is (Triton 3.6
        // leaves such allocations in place; checked against its pass).
        if let Some(def) = ir::defining_op(ir::operand(alloc, 0))
            .filter(|d| !ir::is(*d, "tt.splat") && !ir::is(*d, "arith.constant"))
        {
            move_after(alloc, def);
        }
    }

    // 4. Transpositions (Triton's `TransposeOpInterface`: of tensors and
    // of shared-memory views) right after their source's definition.
    let transposes = ir::collect_post(m, &|op| {
        ir::is(op, "tt.trans") || ir::is(op, "ttg.memdesc_trans")
    });
    for trans in transposes {
        if let Some(def) = ir::defining_op(ir::operand(trans, 0)) {
            move_after(trans, def);
        }
    }

    // 5. The B operand's shared-memory load after the A operand's.
    for load in post("ttg.local_load") {
        let Some(ty) = dot_operand_index(load) else {
            continue;
        };
        if ty != 1 {
            continue;
        }
        let uses = ir::uses(ir::result(load, 0));
        if uses.len() != 1 || !ir::is(uses[0].0, "tt.dot") {
            continue;
        }
        let dot = uses[0].0;
        let Some(a_load) = ir::defining_op(ir::operand(dot, 0)) else {
            continue;
        };
        if !ir::is(a_load, "ttg.local_load") {
            continue;
        }
        if !dominates(load, a_load) || crosses_write(load, a_load) {
            continue;
        }
        move_after(load, a_load);
    }
    Ok(())
}

/// A `ttg.local_load`, or a `ttg.convert_layout` to a dot operand layout.
fn increases_register_pressure(op: MlirOperation) -> bool {
    if ir::is(op, "ttg.local_load") {
        return true;
    }
    ir::is(op, "ttg.convert_layout") && dot_operand_index(op).is_some()
}

/// The `opIdx` of the first result's `#ttg.dot_op` encoding.
fn dot_operand_index(op: MlirOperation) -> Option<u32> {
    if ir::result_count(op) == 0 {
        return None;
    }
    let ty = unsafe { melior::ir::Type::from_raw(ir::value_type(ir::result(op, 0))) };
    let enc = tt_dialect::types::TensorView::of(ty)?.encoding?;
    match ttg_dialect::layout::Layout::read(enc)? {
        ttg_dialect::layout::Layout::DotOperand { op_idx, .. } => Some(op_idx),
        _ => None,
    }
}

/// The earliest ancestor, in `op`'s block, of the users of `op`'s results.
fn first_use(op: MlirOperation) -> Option<MlirOperation> {
    let block = ir::op_block(op);
    let mut first: Option<MlirOperation> = None;
    for r in ir::results(op) {
        for (user, _) in ir::uses(r) {
            let Some(anc) = ancestor_in_block(block, user) else {
                continue;
            };
            if first.is_none_or(|f| unsafe { mlir_sys::mlirOperationIsBeforeInBlock(anc, f) }) {
                first = Some(anc);
            }
        }
    }
    first
}

/// `op` or its ancestor whose block is `block`.
fn ancestor_in_block(block: mlir_sys::MlirBlock, op: MlirOperation) -> Option<MlirOperation> {
    let mut curr = Some(op);
    while let Some(c) = curr {
        if ir::op_block(c).ptr == block.ptr {
            return Some(c);
        }
        curr = ir::parent_op(c);
    }
    None
}

/// The nearest `scf.for` strictly enclosing `op`.
fn enclosing_for(op: MlirOperation) -> Option<MlirOperation> {
    let mut curr = ir::parent_op(op);
    while let Some(c) = curr {
        if ir::is(c, "scf.for") {
            return Some(c);
        }
        curr = ir::parent_op(c);
    }
    None
}

fn same_op(a: Option<MlirOperation>, b: Option<MlirOperation>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a.ptr == b.ptr,
        _ => false,
    }
}

/// MLIR's `DominanceInfo::dominates(a, b)` for structured control flow:
/// `a == b`, or `a` precedes (or encloses) `b`'s ancestor in `a`'s block.
fn dominates(a: MlirOperation, b: MlirOperation) -> bool {
    if a.ptr == b.ptr {
        return true;
    }
    match ancestor_in_block(ir::op_block(a), b) {
        Some(anc) => anc.ptr == a.ptr || unsafe { mlir_sys::mlirOperationIsBeforeInBlock(a, anc) },
        None => false,
    }
}

/// Triton's `crossWriteSideEffectingOp`: whether an op after `start`, up
/// to and including `end`'s ancestor in `start`'s block, declares a write
/// (ops whose effects are unknown do not count, as in Triton); true when
/// `end` is not nested in that block.
fn crosses_write(start: MlirOperation, end: MlirOperation) -> bool {
    let Some(ancestor) = ancestor_in_block(ir::op_block(start), end) else {
        return true;
    };
    let mut curr = next_op(start);
    while let Some(op) = curr {
        // SAFETY: `op` is a live op of the module this pass runs on.
        let op_ref = unsafe { melior::ir::operation::OperationRef::from_raw(op) };
        if tt_dialect::ir::memory_effects(op_ref).is_some_and(|e| e.write) {
            return true;
        }
        if op.ptr == ancestor.ptr {
            return false;
        }
        curr = next_op(op);
    }
    true
}

fn next_op(op: MlirOperation) -> Option<MlirOperation> {
    let next = unsafe { mlir_sys::mlirOperationGetNextInBlock(op) };
    (!next.ptr.is_null()).then_some(next)
}

fn move_after(op: MlirOperation, after: MlirOperation) {
    unsafe { mlir_sys::mlirOperationMoveAfter(op, after) }
}
