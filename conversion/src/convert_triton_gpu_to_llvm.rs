//! `convert-triton-gpu-to-llvm`: TritonGPU IR to the LLVM and NVVM
//! dialects. The Rust walk-and-rebuild in [`crate::lowering`] turns every
//! kernel into an `llvm.func` and every distributed op into per-thread
//! scalar code in the LLVM and NVVM dialects. The few scalar `arith` and
//! `math` ops it leaves in their dialects (those with fast-math or overflow
//! flags, or with no counterpart in the lowering) are finished by MLIR's
//! own conversions, run on the module from inside this pass, so the flag
//! yields a pure LLVM-dialect module, as Triton's does. Most kernels leave
//! none, and skip that conversion.

use std::cell::RefCell;

use melior::ir::operation::{OperationLike, OperationRef};
use melior::pass::Pass;
use melior::Context;
use mlir_sys::MlirPassManager;
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
    let finisher = Finisher::default();
    Ok(PASS.build_with(move |op| run_with(op, options, &finisher)))
}

/// The upstream conversions that finish the scalar ops left: one conversion
/// for the three dialects (through their `ConvertToLLVMPatternInterface`s)
/// walks the module once instead of three times.
const FINISH: &str =
    "builtin.module(convert-to-llvm{filter-dialects=arith,math,cf},reconcile-unrealized-casts)";

/// [`FINISH`]'s pass manager, built on the first run of the pass that owns
/// it and kept for the next: building it (and collecting its conversion
/// patterns) cost as much as running it on a small kernel. A clone of the
/// pass (MLIR clones passes to run them on several threads) starts with
/// none of its own.
#[derive(Default)]
struct Finisher(RefCell<Option<MlirPassManager>>);

impl Clone for Finisher {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl Finisher {
    /// The pass manager, built in `context` if this is the first run.
    ///
    /// A pass belongs to one pass manager, which runs in one context and
    /// destroys its passes, and with them this one, before that context
    /// goes: the manager kept here never outlives the context it was
    /// built in.
    fn manager(&self, context: &Context) -> Result<MlirPassManager, String> {
        if let Some(manager) = *self.0.borrow() {
            return Ok(manager);
        }
        let manager = pipeline::parse(FINISH)
            .and_then(|p| p.build(context))
            .map_err(|e| e.to_string())?;
        // The pass manager running this pass verifies its result (when
        // asked to); verifying after each finishing pass too would only
        // repeat that.
        manager.enable_verifier(false);
        let raw = manager.to_raw();
        std::mem::forget(manager);
        *self.0.borrow_mut() = Some(raw);
        Ok(raw)
    }
}

impl Drop for Finisher {
    fn drop(&mut self) {
        if let Some(manager) = self.0.get_mut().take() {
            unsafe { mlir_sys::mlirPassManagerDestroy(manager) };
        }
    }
}

fn run(module: OperationRef, options: Options) -> PassResult {
    run_with(module, options, &Finisher::default())
}

fn run_with(module: OperationRef, options: Options, finisher: &Finisher) -> PassResult {
    let context_ref = module.context();
    let context = unsafe { context_ref.to_ref() };
    // The dialects the lowering builds in. A module pass runs alone, so
    // loading them here races with nothing.
    for dialect in ["llvm", "nvvm", "cf", "arith", "math"] {
        context.get_or_load_dialect(dialect);
    }
    if !lower_module(context, module, options)? {
        return Ok(());
    }
    let manager = finisher
        .manager(context)
        .map_err(|e| fail(module, &format!("convert-triton-gpu-to-llvm: {e}")))?;
    let result = unsafe { mlir_sys::mlirPassManagerRunOnOp(manager, module.to_raw()) };
    if result.value == 0 {
        return Err(fail(
            module,
            "convert-triton-gpu-to-llvm: the scalar ops could not be converted to the LLVM dialect",
        ));
    }
    Ok(())
}
