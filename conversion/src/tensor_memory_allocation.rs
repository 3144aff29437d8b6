//! `triton-tensor-memory-allocation`: Triton 3.6 lays out Blackwell tensor
//! memory (`ttng.tmem_alloc`) and records the columns used as
//! `ttg.tensor_memory_size` on the module. Without tensor-memory
//! allocations the size is 0, which is all this pass writes; modules that
//! allocate tensor memory are refused with a located error.

use melior::ir::operation::OperationRef;
use tt_passes::rust_pass::{PassResult, RustPass};

use crate::module_attrs::{refuse_ops, set_i32};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonTensorMemoryAllocationPass",
    argument: "triton-tensor-memory-allocation",
    description: "Allocate tensor memory (records size 0; no tensor memory here)",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let m = module.to_raw();
    refuse_ops(
        m,
        PASS.argument,
        &[
            "ttng.tmem_alloc",
            "ttng.tc_gen5_mma",
            "ttng.tc_gen5_mma_scaled",
        ],
    )?;
    set_i32(m, "ttg.tensor_memory_size", 0);
    Ok(())
}
