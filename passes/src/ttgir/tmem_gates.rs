//! The `make_ttgir` passes whose work belongs to other hardware (tensor
//! memory, Blackwell). None of their transformations
//! is implemented yet. Each pass here is a *gate*: it looks for the input
//! on which Triton 3.6's pass would change the IR and, on the first such
//! op, stops with a located error `'<flag>' does not support <what> yet`.
//! On any other module it leaves the IR exactly as it is, which is what
//! Triton's pass does there.
//!
//! The triggers are read from Triton's sources and err on the side of
//! refusing: a trigger may fire on input that Triton would in the end leave
//! alone (the pass then refuses input it could have passed through), never
//! the other way round.
//!
//! | flag | Triton changes the IR when the module has |
//! |---|---|
//! | `triton-nvidia-optimize-tmem-layouts` | tensor-memory ops (`ttng.tmem_*`; Blackwell, none on sm_90) |
//! | `triton-nvidia-interleave-tmem` | tensor-memory ops (`ttng.tmem_*`; Blackwell, none on sm_90) |

use melior::ir::operation::{OperationLike, OperationRef};

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttir::pointer_ir::op_name;

/// Stops with `'<flag>' does not support <what> yet` at the first op under
/// `module` (pre-order) whose name starts with `prefix`.
fn has_op_with_prefix(module: OperationRef, flag: &str, prefix: &str, what: &str) -> PassResult {
    let mut found = None;
    module.walk(melior::ir::operation::WalkOrder::PreOrder, |nested| {
        // SAFETY: the walk hands out references scoped to the callback; the
        // op itself lives as long as `module`, which outlives the walk.
        let op = unsafe { OperationRef::from_raw(nested.to_raw()) };
        if op_name(op).starts_with(prefix) {
            found = Some(op);
            return melior::ir::operation::WalkResult::Interrupt;
        }
        melior::ir::operation::WalkResult::Advance
    });
    match found {
        None => Ok(()),
        Some(op) => Err(fail(op, &format!("'{flag}' does not support {what} yet"))),
    }
}

fn optimize_tmem_layouts(module: OperationRef) -> PassResult {
    has_op_with_prefix(
        module,
        "triton-nvidia-optimize-tmem-layouts",
        "ttng.tmem_",
        "tensor memory",
    )
}

fn interleave_tmem(module: OperationRef) -> PassResult {
    has_op_with_prefix(
        module,
        "triton-nvidia-interleave-tmem",
        "ttng.tmem_",
        "tensor memory",
    )
}

// ------------------------------------------------------------------ passes

const fn gate(
    name: &'static str,
    argument: &'static str,
    description: &'static str,
    run: for<'c, 'a> fn(OperationRef<'c, 'a>) -> PassResult,
) -> RustPass {
    RustPass {
        name,
        argument,
        description,
        anchor: "builtin.module",
        run,
    }
}

pub static OPTIMIZE_TMEM_LAYOUTS: RustPass = gate(
    "TritonNvidiaGPUOptimizeTMemLayoutsPass",
    "triton-nvidia-optimize-tmem-layouts",
    "Tensor-memory layouts (Blackwell; a no-op on sm_90, refuses tensor-memory ops)",
    optimize_tmem_layouts,
);
pub static INTERLEAVE_TMEM: RustPass = gate(
    "TritonNvidiaGPUInterleaveTMemPass",
    "triton-nvidia-interleave-tmem",
    "Interleave tensor-memory loads (Blackwell; a no-op on sm_90, refuses tensor-memory ops)",
    interleave_tmem,
);
