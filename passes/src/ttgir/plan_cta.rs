//! `triton-nvidia-gpu-plan-cta`: Triton 3.6's CTA planning for thread-block
//! clusters. With `"ttg.num-ctas" = 1` (or no such attribute, which Triton
//! reads as 1) Triton returns at once and so does this pass: the module is
//! left exactly as it is. Planning the CTA layouts of dots, reductions and
//! their neighbours for `num-ctas > 1` is not implemented here; such a
//! module is refused with an error at the module rather than passed through
//! unplanned.

use melior::ir::{
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef},
};

use crate::rust_pass::{fail, PassResult, RustPass};

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
    if num_ctas == 1 {
        return Ok(());
    }
    Err(fail(
        module,
        &format!(
            "triton-nvidia-gpu-plan-cta: CTA planning for \"ttg.num-ctas\" = {num_ctas} (> 1) is not supported yet"
        ),
    ))
}
