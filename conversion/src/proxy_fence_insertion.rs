//! `triton-nvidia-gpu-proxy-fence-insertion`: on compute capability 90 and
//! above, Triton 3.6 inserts `fence.proxy.async` where shared memory
//! written through the generic proxy is next read by the async proxy
//! (wgmma, TMA). Modules without async-proxy readers are left as they are;
//! modules with them are refused with a located error (finding the missing
//! fences is not implemented here). Below 90 nothing is done.

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
    description: "Insert proxy fences between generic shared-memory writes and async-proxy reads",
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

/// The ops that read shared memory through the async proxy.
const ASYNC_READERS: &[&str] = &[
    "ttng.warp_group_dot",
    "ttng.async_tma_copy_local_to_global",
    "ttng.async_tma_reduce",
    "ttng.async_tma_scatter",
    "ttng.tc_gen5_mma",
    "ttng.tc_gen5_mma_scaled",
];

fn run(module: OperationRef) -> PassResult {
    refuse_ops(module.to_raw(), PASS.argument, ASYNC_READERS)
}
