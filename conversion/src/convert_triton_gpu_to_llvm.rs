//! `convert-triton-gpu-to-llvm`: TritonGPU IR to the LLVM and NVVM
//! dialects. The Rust walk-and-rebuild in [`crate::lowering`] turns every
//! kernel into an `llvm.func` and every distributed op into per-thread
//! scalar code in the LLVM and NVVM dialects. The few scalar `arith` and
//! `math` ops it leaves in their dialects (those with fast-math or overflow
//! flags, or with no counterpart in the lowering) are finished by MLIR's
//! own conversions, run on the module from inside this pass, so the flag
//! yields a pure LLVM-dialect module, as Triton's does. Most kernels leave
//! none, and skip that conversion.

use melior::ir::operation::{OperationLike, OperationRef};
use melior::pass::Pass;
use tt_passes::{
    nested::NestedPipeline,
    options::PassOptions,
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
    // Kept between runs: building it (and collecting its conversion
    // patterns) cost as much as running it on a small kernel.
    let finisher = NestedPipeline::new(FINISH);
    Ok(PASS.build_with(move |op| run_with(op, options, &finisher)))
}

/// The upstream conversions that finish the scalar ops left: one conversion
/// for both dialects (through their `ConvertToLLVMPatternInterface`s).
const FINISH: &str =
    "builtin.module(convert-to-llvm{filter-dialects=arith,math},reconcile-unrealized-casts)";

fn run(module: OperationRef, options: Options) -> PassResult {
    run_with(module, options, &NestedPipeline::new(FINISH))
}

fn run_with(module: OperationRef, options: Options, finisher: &NestedPipeline) -> PassResult {
    let context_ref = module.context();
    let context = unsafe { context_ref.to_ref() };
    // The dialects the lowering builds in. A module pass runs alone, so
    // loading them here races with nothing.
    for dialect in ["llvm", "nvvm", "nvg", "cf", "arith", "math"] {
        context.get_or_load_dialect(dialect);
    }
    if !lower_module(context, module, options)? {
        return Ok(());
    }
    finisher.run(module).map_err(|e| {
        fail(
            module,
            &format!("convert-triton-gpu-to-llvm: the scalar ops left could not be converted to the LLVM dialect ({e})"),
        )
    })?;
    Ok(())
}
