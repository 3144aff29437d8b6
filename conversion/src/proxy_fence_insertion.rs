//! `triton-nvidia-gpu-proxy-fence-insertion`: from compute capability 90,
//! Triton 3.6 puts a `fence.proxy.async` before an async-proxy write of
//! shared memory (a TMA load) that may touch bytes generic-proxy accesses
//! used since the last fence. Async-proxy reads get none from this pass:
//! a `ttng.warp_group_dot` after `cp.async` copies or a `local_store` is
//! left as it is (checked against Triton's pass, `scripts/triton-pass.py`);
//! `triton-nvidia-gpu-fence-insertion` fenced register-to-shared copies
//! before dots in `make_ttgir`. Nothing here lowers TMA loads yet, so
//! modules with them are refused with a located error and every other
//! module is left unchanged. Below 90 nothing is done.

use melior::{ir::operation::OperationRef, pass::Pass};
use tt_passes::{
    options::PassOptions,
    rust_pass::{PassResult, RustPass},
};

use crate::module_attrs::refuse_ops;

/// The pass from compute capability 90 on (the default here is 90).
pub static PASS: RustPass = RustPass {
    name: "TritonGPUProxyFenceInsertion",
    argument: "triton-nvidia-gpu-proxy-fence-insertion",
    description: "Insert proxy fences before async-proxy writes of shared memory",
    anchor: "builtin.module",
    run,
};

static BEFORE_90: RustPass = RustPass {
    name: "TritonGPUProxyFenceInsertion",
    argument: "triton-nvidia-gpu-proxy-fence-insertion",
    description: "Insert proxy fences (nothing to do below compute capability 90)",
    anchor: "builtin.module",
    run: |_| Ok(()),
};

/// Builds the pass for `compute-capability` (default 90).
pub fn factory(options: &PassOptions) -> Result<Pass, String> {
    Ok(if options.int("compute-capability", 90)? >= 90 {
        PASS.build()
    } else {
        BEFORE_90.build()
    })
}

/// The ops that write shared memory through the async proxy.
const ASYNC_WRITERS: &[&str] = &[
    "ttng.async_tma_copy_global_to_local",
    "ttng.async_tma_gather",
    "ttng.clc_try_cancel",
];

fn run(module: OperationRef) -> PassResult {
    refuse_ops(module.to_raw(), PASS.argument, ASYNC_WRITERS)
}
