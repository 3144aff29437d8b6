//! `convert-triton-gpu-to-llvm`: TritonGPU IR to the LLVM and NVVM
//! dialects. The Rust walk-and-rebuild in [`crate::lowering`] turns every
//! kernel into an `llvm.func` and every distributed op into per-thread
//! scalar code; MLIR's own conversions then finish what is already scalar
//! (`arith`, `math`, `cf`), run on the module from inside this pass so the
//! flag yields a pure LLVM-dialect module, as Triton's does.

use melior::ir::operation::{OperationLike, OperationRef};
use melior::pass::Pass;
use tt_passes::{
    options::PassOptions,
    pipeline,
    rust_pass::{fail, PassResult, RustPass},
};

use crate::lowering::{lower_module, Options};

/// The pass with its default options (`compute-capability=80`,
/// `ptx-version=80`, as Triton's).
pub static PASS: RustPass = RustPass {
    name: "ConvertTritonGPUToLLVM",
    argument: "convert-triton-gpu-to-llvm",
    description: "Convert TritonGPU to the LLVM dialect: per-thread values, inline PTX, NVVM",
    anchor: "builtin.module",
    run: |op| {
        run(
            op,
            Options {
                compute_capability: 80,
                ptx_version: 80,
            },
        )
    },
};

/// Builds the pass from its options.
pub fn factory(options: &PassOptions) -> Result<Pass, String> {
    let number = |name: &str, default: u32| -> Result<u32, String> {
        options.get(name).map_or(Ok(default), |text| {
            text.parse()
                .map_err(|_| format!("option '{name}' must be a positive integer, not '{text}'"))
        })
    };
    let options = Options {
        compute_capability: number("compute-capability", 80)?,
        ptx_version: number("ptx-version", 80)?,
    };
    Ok(PASS.build_with(move |op| run(op, options)))
}

/// The upstream conversions that finish the scalar ops: one conversion
/// for the three dialects (through their `ConvertToLLVMPatternInterface`s)
/// walks the module once instead of three times.
const FINISH: &str =
    "builtin.module(convert-to-llvm{filter-dialects=arith,math,cf},reconcile-unrealized-casts)";

fn run(module: OperationRef, options: Options) -> PassResult {
    let context_ref = module.context();
    let context = unsafe { context_ref.to_ref() };
    // The dialects the lowering builds in. A module pass runs alone, so
    // loading them here races with nothing.
    for dialect in ["llvm", "nvvm", "cf", "arith", "math"] {
        context.get_or_load_dialect(dialect);
    }
    lower_module(context, module, options)?;
    let manager = pipeline::parse(FINISH)
        .and_then(|p| p.build(context))
        .map_err(|e| fail(module, &format!("convert-triton-gpu-to-llvm: {e}")))?;
    // The pass manager running this pass verifies its result (when asked
    // to); verifying after each finishing pass too would only repeat that.
    manager.enable_verifier(false);
    let result = unsafe { mlir_sys::mlirPassManagerRunOnOp(manager.to_raw(), module.to_raw()) };
    if result.value == 0 {
        return Err(fail(
            module,
            "convert-triton-gpu-to-llvm: the scalar ops could not be converted to the LLVM dialect",
        ));
    }
    Ok(())
}
