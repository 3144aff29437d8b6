//! Lowering of TritonGPU IR towards the GPU: Triton's `make_llir` stage
//! (shared-memory allocation, `convert-triton-gpu-to-llvm`) and the
//! translation of the LLVM dialect to LLVM IR and then to PTX.
//!
//! The passes here build on `tt-passes` and join its registry at start-up
//! through [`register_passes`], so `tt-opt` and pipelines name them like
//! any other pass.

pub mod convert_triton_gpu_to_llvm;
mod llvm_ir;
pub mod lowering;
pub mod make_llir;
pub mod ptx;

pub use llvm_ir::{translate_to_llvm_ir, LlvmModule, TranslateError};

use tt_passes::registry::{self, OptionInfo, PassInfo, PassKind};

const MODULE: Option<&str> = Some("builtin.module");

const fn opt(name: &'static str, summary: &'static str) -> OptionInfo {
    OptionInfo { name, summary }
}

/// The passes of this crate, sorted by name.
pub static PASSES: &[PassInfo] = &[
    PassInfo {
        name: "convert-nvvm-to-llvm",
        summary: "Convert NVVM to PTX with Inline Assembly in LLVM dialect",
        anchor: None,
        options: &[],
        kind: PassKind::Upstream,
    },
    PassInfo {
        name: "convert-triton-gpu-to-llvm",
        summary: convert_triton_gpu_to_llvm::PASS.description,
        anchor: MODULE,
        options: &[
            opt("compute-capability", "The GPU's compute capability (default 80)"),
            opt("ptx-version", "The PTX version, times ten (default 80)"),
        ],
        kind: PassKind::Rust(convert_triton_gpu_to_llvm::factory),
    },
    PassInfo {
        name: "make-llir",
        summary: "Triton's make_llir stage: shared-memory allocation, the lowering to the LLVM dialect, clean-up",
        anchor: MODULE,
        options: &[
            opt("ptx-version", "The PTX version, times ten (default 87)"),
            opt("target", "The GPU, as cuda:<capability> (default cuda:90)"),
        ],
        kind: PassKind::Pipeline(make_llir::make_llir),
    },
];

/// Adds [`PASSES`] to the pass registry. Call it once at start-up, before
/// looking passes up; calling it again does nothing.
pub fn register_passes() {
    registry::register_extension(PASSES).expect("the conversion passes register once");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_registers() {
        assert!(PASSES.windows(2).all(|w| w[0].name < w[1].name));
        register_passes();
        register_passes();
        for pass in PASSES {
            assert_eq!(registry::lookup(pass.name).unwrap().name, pass.name);
        }
    }
}
