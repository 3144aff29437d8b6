//! `triton-nvidia-check-matmul-two-cta`: Triton 3.6 checks that the
//! Blackwell MMAs of a module agree on two-CTA mode and records it as
//! `"ttng.two-ctas"` (a bool) on the module. Without `ttng.tc_gen5_mma`
//! the answer is `false`, which is all this pass writes; modules with
//! Blackwell MMAs are refused with a located error.

use melior::ir::operation::OperationRef;
use tt_passes::{
    rust_pass::{PassResult, RustPass},
    ttir::loop_support::ir,
};

use crate::module_attrs::refuse_ops;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonNvidiaGPUCheckMatmulTwoCTAPass",
    argument: "triton-nvidia-check-matmul-two-cta",
    description: "Check the two-CTA mode of Blackwell MMAs (records false; no such MMAs here)",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let m = module.to_raw();
    refuse_ops(
        m,
        PASS.argument,
        &["ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled"],
    )?;
    let no = unsafe { mlir_sys::mlirBoolAttrGet(ir::context(m), 0) };
    ir::set_attribute(m, "ttng.two-ctas", no);
    Ok(())
}
