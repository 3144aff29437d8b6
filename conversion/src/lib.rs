//! Lowering of TritonGPU IR towards the GPU: Triton's `make_llir` stage
//! (shared-memory allocation, `convert-triton-gpu-to-llvm`) and the
//! translation of the LLVM dialect to LLVM IR and then to PTX.
//!
//! The passes here build on `tt-passes` and join its registry at start-up
//! through [`register_passes`], so `tt-opt` and pipelines name them like
//! any other pass.

pub mod allocate_shared_memory;
pub mod allocate_warp_groups;
pub mod allocation;
pub mod check_matmul_two_cta;
pub mod convert_nv_gpu_to_llvm;
pub mod convert_triton_gpu_to_llvm;
pub mod convert_warp_specialize_to_llvm;
mod dataflow;
mod edge_blocks;
pub mod enable_line_info;
pub mod global_scratch_memory_allocation;
pub mod gluon_inline;
mod llvm_ir;
pub mod lowering;
pub mod make_llir;
mod module_attrs;
pub mod proxy_fence_insertion;
pub mod ptx;
pub mod tensor_memory_allocation;
pub mod test_print_allocation;
pub mod test_print_membar;

pub use llvm_ir::{translate_to_llvm_ir, LlvmModule, TranslateError};

use tt_passes::registry::{self, OptionInfo, PassInfo, PassKind};

const MODULE: Option<&str> = Some("builtin.module");

const fn opt(name: &'static str, summary: &'static str) -> OptionInfo {
    OptionInfo { name, summary }
}

const fn rust(pass: &'static tt_passes::rust_pass::RustPass) -> PassInfo {
    PassInfo {
        name: pass.argument,
        summary: pass.description,
        anchor: Some(pass.anchor),
        options: &[],
        kind: PassKind::RustNoOptions(pass),
    }
}

const COMPUTE_CAPABILITY: OptionInfo = OptionInfo {
    name: "compute-capability",
    summary: "The GPU's compute capability",
};

/// The passes of this crate, sorted by name.
pub static PASSES: &[PassInfo] = &[
    rust(&allocate_shared_memory::PASS),
    PassInfo {
        name: "allocate-shared-memory-nv",
        summary: "Add metadata for shared memory allocation for Nvidia",
        anchor: MODULE,
        options: &[
            COMPUTE_CAPABILITY,
            OptionInfo {
                name: "ptx-version",
                summary: "The PTX ISA version",
            },
        ],
        kind: PassKind::Rust(allocate_shared_memory::nv_factory),
    },
    rust(&convert_nv_gpu_to_llvm::PASS),
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
    rust(&convert_warp_specialize_to_llvm::PASS),
    rust(&enable_line_info::PASS),
    rust(&gluon_inline::PASS),
    PassInfo {
        name: "make-llir",
        summary: "Triton's make_llir stage: shared-memory allocation, the lowering to the LLVM dialect, clean-up",
        anchor: MODULE,
        options: &[
            opt("line-info", "Debug scopes for line tables in the PTX, true or false (default true)"),
            opt("ptx-version", "The PTX version, times ten (default 87)"),
            opt("target", "The GPU, as cuda:<capability> (default cuda:90)"),
        ],
        kind: PassKind::Pipeline(make_llir::make_llir),
    },
    rust(&test_print_allocation::PASS),
    rust(&test_print_membar::PASS),
    rust(&check_matmul_two_cta::PASS),
    PassInfo {
        name: "triton-nvidia-gpu-proxy-fence-insertion",
        summary: "Insert proxy fences between generic shared-memory writes and async-proxy reads",
        anchor: MODULE,
        options: &[COMPUTE_CAPABILITY],
        kind: PassKind::Rust(proxy_fence_insertion::factory),
    },
    rust(&tensor_memory_allocation::PASS),
    rust(&allocate_warp_groups::PASS),
    rust(&global_scratch_memory_allocation::PASS),
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
