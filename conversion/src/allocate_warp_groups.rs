//! `tritongpu-allocate-warp-groups`: Triton 3.6 gives each
//! `ttg.warp_specialize` partition its warps and records the CTA's total
//! warp count as `"ttg.total-num-warps"` on the module. Without warp
//! specialization the total is `"ttg.num-warps"`, which is all this pass
//! writes; modules with `ttg.warp_specialize` are refused with a located
//! error.

use melior::ir::operation::OperationRef;
use tt_passes::{
    rust_pass::{PassResult, RustPass},
    ttir::loop_support::ir,
};

use crate::module_attrs::{refuse, refuse_ops, set_i32};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUAllocateWarpGroups",
    argument: "tritongpu-allocate-warp-groups",
    description: "Allocate warp groups (records the total warp count; no warp specialization here)",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let m = module.to_raw();
    refuse_ops(m, PASS.argument, &["ttg.warp_specialize"])?;
    let Some(warps) = ir::attribute(m, "ttg.num-warps").and_then(ir::integer_attr_value) else {
        return Err(refuse(
            m,
            PASS.argument,
            "modules without \"ttg.num-warps\"",
        ));
    };
    set_i32(m, "ttg.total-num-warps", warps);
    Ok(())
}
