//! `convert-nv-gpu-to-llvm`: lowers Triton's NVIDIA helper ops (`nvg`) to
//! the LLVM and NVVM dialects, as Triton 3.6's pass of that name does for
//! the ops this project has a lowering for ([`crate::lowering::lower_nvg_ops`]);
//! the others stop it with a located error. `convert-triton-gpu-to-llvm`
//! here emits no `nvg` ops, so in Triton's `make_llir` pipeline the pass
//! finds nothing to do; it runs on IR written with them (Triton's lit
//! files, dumps of Triton's own lowering).

use melior::ir::operation::{OperationLike, OperationRef};
use tt_passes::rust_pass::{fail, PassResult, RustPass};

use crate::lowering::lower_nvg_ops;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "ConvertNVGPUToLLVM",
    argument: "convert-nv-gpu-to-llvm",
    description: "Convert NVGPU (nvg) ops to the LLVM and NVVM dialects",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let context_ref = module.context();
    // SAFETY: the context outlives the pass run over one of its modules.
    let context = unsafe { context_ref.to_ref() };
    for dialect in ["llvm", "nvvm"] {
        context.get_or_load_dialect(dialect);
    }
    lower_nvg_ops(context, module).map_err(|(op, message)| fail(op, &message))
}
