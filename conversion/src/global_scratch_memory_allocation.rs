//! `tritongpu-global-scratch-memory-allocation`: Triton 3.6 lays out each
//! function's `ttg.global_scratch_alloc` buffers and records
//! `ttg.global_scratch_memory_size` and `ttg.global_scratch_memory_alignment`
//! (`i32`) on every `tt.func` and, from the kernel, on the module. Without
//! such buffers (in the kernel or the `noinline` functions it calls) the
//! size is 0 and the alignment 1, which is all this pass writes; global
//! scratch buffers are refused with a located error.

use melior::ir::operation::OperationRef;
use tt_passes::{
    rust_pass::{PassResult, RustPass},
    ttir::loop_support::ir,
};

use crate::module_attrs::{refuse_ops, set_i32};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUGlobalScratchAllocationPass",
    argument: "tritongpu-global-scratch-memory-allocation",
    description: "Assign global scratch memory (records size 0; no global scratch buffers here)",
    anchor: "builtin.module",
    run,
};

const SIZE: &str = "ttg.global_scratch_memory_size";
const ALIGNMENT: &str = "ttg.global_scratch_memory_alignment";

fn run(module: OperationRef) -> PassResult {
    let m = module.to_raw();
    refuse_ops(m, PASS.argument, &["ttg.global_scratch_alloc", "func.call"])?;
    let mut kernel = false;
    for op in ir::region_ops(ir::regions(m)[0]) {
        if !ir::is(op, "tt.func") {
            continue;
        }
        set_i32(op, SIZE, 0);
        set_i32(op, ALIGNMENT, 1);
        // SAFETY: an attribute of a live op.
        let private = ir::attribute(op, "sym_visibility")
            .and_then(|v| {
                tt_dialect::ir::string_value(unsafe { melior::ir::Attribute::from_raw(v) })
            })
            .is_some_and(|v| v == "private");
        kernel |= !private;
    }
    if kernel {
        set_i32(m, SIZE, 0);
        set_i32(m, ALIGNMENT, 1);
    }
    Ok(())
}
