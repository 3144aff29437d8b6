//! `triton-nvidia-gpu-fence-insertion`: Triton 3.6's async-proxy fences
//! before tensor-core ops that read shared memory written from registers.
//!
//! From compute capability 90 (below it the pass does nothing), for every
//! dot (`tt.dot`, `tt.dot_scaled`, `ttng.warp_group_dot`, the Blackwell
//! MMAs) whose A or B operand is a memory descriptor that depends on a copy
//! from registers to shared memory, a `ttng.fence_async_shared {bCluster =
//! false}` goes right before the dot. The dependence is followed backwards
//! through every operand of the defining ops, through `scf.for` iteration
//! arguments (initial value and yielded value) and through the captures of
//! a warp-specialize partition: a `ttg.local_alloc` with a source is such a
//! copy, and so is a `ttg.local_store` into an allocation (reached through
//! single-use memory-descriptor views); any other block argument counts as
//! one, conservatively, at its owner. The fence then moves out of every
//! enclosing loop that contains none of the copies, and is dropped when the
//! op before it is already such a fence.

use std::collections::HashSet;

use melior::ir::operation::OperationRef;
use mlir_sys::{MlirOperation, MlirValue};

use crate::options::PassOptions;
use crate::rust_pass::{PassResult, RustPass};
use crate::ttgir::pipelining as pl;
use crate::ttir::loop_support::ir::{self, Op, Val};

/// The pass from compute capability 90.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUFenceInsertion",
    argument: "triton-nvidia-gpu-fence-insertion",
    description:
        "Insert async-proxy fences before dots that read shared memory written from registers",
    anchor: "builtin.module",
    run,
};

/// The pass below compute capability 90, where Triton's returns at once.
static BEFORE_90: RustPass = RustPass {
    name: "TritonGPUFenceInsertion",
    argument: "triton-nvidia-gpu-fence-insertion",
    description:
        "Insert async-proxy fences before dots (nothing to do below compute capability 90)",
    anchor: "builtin.module",
    run: |_| Ok(()),
};

/// `triton-nvidia-gpu-fence-insertion{compute-capability=90}`.
pub fn factory(options: &PassOptions) -> Result<melior::pass::Pass, String> {
    Ok(if options.int("compute-capability", 90)? >= 90 {
        PASS.build()
    } else {
        BEFORE_90.build()
    })
}

const VIEWS: &[&str] = &[
    "ttg.memdesc_index",
    "ttg.memdesc_subslice",
    "ttg.memdesc_trans",
    "ttg.memdesc_reshape",
    "ttg.memdesc_reinterpret",
];

fn is_any(op: MlirOperation, names: &[&str]) -> bool {
    names.iter().any(|n| ir::is(op, n))
}

fn is_memdesc(v: MlirValue) -> bool {
    ttg_dialect::layout::MemDesc::of(
        // SAFETY: `v` is a live value; its type belongs to the context.
        unsafe { melior::ir::Type::from_raw(ir::value_type(v)) },
    )
    .is_some()
}

fn run(module: OperationRef) -> PassResult {
    let dots = ir::collect_post(module.to_raw(), &|op| pl::is_dot_like(op));
    // Triton walks post-order too; each fence depends only on its own dot.
    for dot in dots {
        let copies_a = copies(ir::operand(dot, 0));
        let copies_b = copies(ir::operand(dot, 1));
        if copies_a.is_empty() && copies_b.is_empty() {
            continue;
        }
        let context = ir::context(dot);
        // SAFETY: `context` is the live context of the module.
        let false_attr = unsafe { mlir_sys::mlirBoolAttrGet(context, 0) };
        let fence = ir::create_op(
            "ttng.fence_async_shared",
            ir::location(dot),
            &[],
            &[],
            &[("bCluster", false_attr)],
            Vec::new(),
        );
        ir::insert_before(dot, fence);
        while let Some(looped) = enclosing_loop(fence) {
            let inside = |ops: &[MlirOperation]| ops.iter().any(|&c| ir::is_ancestor(looped, c));
            if inside(&copies_a) || inside(&copies_b) {
                break;
            }
            ir::move_before(fence, looped);
        }
        if let Some(previous) = previous_op(fence) {
            if ir::is(previous, "ttng.fence_async_shared")
                && ir::attribute(previous, "bCluster")
                    .is_some_and(|a| ir::same_attribute(a, false_attr))
            {
                ir::erase(fence);
            }
        }
    }
    Ok(())
}

/// The nearest enclosing loop (`scf.for`, `scf.while`) of `op`.
fn enclosing_loop(op: MlirOperation) -> Option<MlirOperation> {
    let mut current = ir::parent_op(op)?;
    loop {
        if ir::is(current, "scf.for") || ir::is(current, "scf.while") {
            return Some(current);
        }
        current = ir::parent_op(current)?;
    }
}

fn previous_op(op: MlirOperation) -> Option<MlirOperation> {
    let ops = ir::block_ops(ir::op_block(op));
    let at = ops.iter().position(|o| o.ptr == op.ptr)?;
    at.checked_sub(1).map(|i| ops[i])
}

/// `findCopyRegToSharedOps`: the register-to-shared copies `operand`
/// depends on, in the order found.
fn copies(operand: MlirValue) -> Vec<MlirOperation> {
    let mut visited = HashSet::new();
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    find(operand, &mut visited, &mut found, &mut seen);
    found
}

fn find(
    operand: MlirValue,
    visited: &mut HashSet<Val>,
    found: &mut Vec<MlirOperation>,
    seen: &mut HashSet<Op>,
) {
    if !visited.insert(Val(operand)) || !is_memdesc(operand) {
        return;
    }
    let mut record = |op: MlirOperation, found: &mut Vec<MlirOperation>| {
        if seen.insert(Op(op)) {
            found.push(op);
        }
    };
    if let Some(def) = ir::defining_op(operand) {
        if ir::is(def, "ttg.local_alloc") {
            if ir::operand_count(def) > 0 {
                record(def, found);
            }
            for (user, _) in ir::uses(ir::result(def, 0)) {
                let mut user = user;
                while is_any(user, VIEWS) {
                    let uses = ir::uses(ir::result(user, 0));
                    match uses.as_slice() {
                        [(next, _)] => user = *next,
                        _ => break,
                    }
                }
                if ir::is(user, "ttg.local_store") {
                    record(user, found);
                    return;
                }
            }
        }
        for v in ir::operands(def) {
            find(v, visited, found, seen);
        }
        return;
    }
    let owner = ir::block_parent_op(ir::value_block(operand));
    let Some(owner) = owner else {
        return;
    };
    let arg = ir::arg_number(operand);
    if ir::is(owner, "scf.for") {
        // Operands: lower, upper, step, then the initial values; block
        // arguments: the induction variable, then the iteration values.
        let Some(index) = arg.checked_sub(1) else {
            return;
        };
        find(ir::operand(owner, 3 + index), visited, found, seen);
        let body = ir::value_block(operand);
        if let Some(yield_op) = ir::terminator(body) {
            find(ir::operand(yield_op, index), visited, found, seen);
        }
        return;
    }
    if ir::is(owner, "ttg.warp_specialize.partitions") {
        if let Some(ws) = ir::parent_op(owner) {
            // The explicit captures are the warp_specialize op's operands.
            find(ir::operand(ws, arg), visited, found, seen);
        }
        return;
    }
    record(owner, found);
}
