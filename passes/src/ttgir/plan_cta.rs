//! `triton-nvidia-gpu-plan-cta`: Triton 3.6's CTA planning for thread-block
//! clusters. With `"ttg.num-ctas" = 1` (or no such attribute, which Triton
//! reads as 1) Triton returns at once and so does this pass: the module is
//! left exactly as it is. With more CTAs per cluster, a kernel without
//! tensors has nothing to plan (every CTA of the cluster runs the same
//! scalar code) and is left as it is too; planning the CTA layouts of
//! tensors (dots, reductions, their neighbours) is not implemented here:
//! such a module is refused with an error at its first tensor op
//! ([`refuse_cluster_tensors`], which the other passes that would need CTA
//! layouts share) rather than passed through unplanned. The LLVM lowering
//! takes clusters whose layouts are given (Gluon's), each CTA computing its
//! part of the tensors split across the cluster.

use melior::ir::{
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef},
};

use mlir_sys::MlirOperation;

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttir::loop_support::ir;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUPlanCTAPass",
    argument: "triton-nvidia-gpu-plan-cta",
    description: "Plan CTA layouts for thread-block clusters (nothing to do with num-ctas = 1)",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let num_ctas = match module.attribute("ttg.num-ctas") {
        Err(_) => 1,
        Ok(attr) => match IntegerAttribute::try_from(attr) {
            Ok(int) => int.value(),
            Err(_) => return Err(fail(module, "'ttg.num-ctas' must be an integer attribute")),
        },
    };
    refuse_cluster_tensors(module, num_ctas, "triton-nvidia-gpu-plan-cta")
}

/// Thread-block clusters (`"ttg.num-ctas"` above 1) are supported for
/// kernels without tensors: a located error at the first op with a tensor
/// or memory-descriptor operand or result otherwise, for the pass `flag`.
pub fn refuse_cluster_tensors(module: OperationRef, num_ctas: i64, flag: &str) -> PassResult {
    if num_ctas == 1 {
        return Ok(());
    }
    refuse_first(
        ir::first_tensor_op(module.to_raw()),
        &format!(
            "'{flag}' does not support tensors with \"ttg.num-ctas\" = {num_ctas} (thread-block clusters) yet"
        ),
    )
}

/// The error `message` at `found`, the op of a live module a refusal
/// picked; nothing when there is none.
fn refuse_first(found: Option<MlirOperation>, message: &str) -> PassResult {
    match found {
        None => Ok(()),
        // SAFETY: an op of the live module.
        Some(op) => Err(fail(unsafe { OperationRef::from_raw(op) }, message)),
    }
}
