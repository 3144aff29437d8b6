//! Lowering towards the GPU.
//!
//! This crate will hold the conversion of TritonGPU IR to the LLVM dialect
//! (`convert-triton-gpu-to-llvm`, written in Rust as walk-and-rebuild since
//! the MLIR 22 C API has no dialect conversion) and the code generation of
//! PTX. Its first piece is the last MLIR step: translating a module in the
//! LLVM dialect (plus NVVM) to LLVM IR.

mod llvm_ir;

pub use llvm_ir::{translate_to_llvm_ir, TranslateError};
