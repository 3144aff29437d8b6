//! Lowering of TritonGPU IR towards the GPU: Triton's `make_llir` stage
//! (shared-memory allocation, `convert-triton-gpu-to-llvm`) and the
//! translation of the LLVM dialect to LLVM IR and then to PTX.
//!
//! The passes here build on `tt-passes` and join its registry at start-up
//! through [`register_passes`], so `tt-opt` and pipelines name them like
//! any other pass.

mod llvm_ir;
pub mod ptx;

pub use llvm_ir::{translate_to_llvm_ir, LlvmModule, TranslateError};

use tt_passes::registry::{self, PassInfo};

/// The passes of this crate, sorted by name.
pub static PASSES: &[PassInfo] = &[];

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
