//! The passes of Triton's `make_ttir` stage (and the TTIR-level passes that
//! later stages reuse), one file per pass, named after its flag.

pub mod combine;
pub mod inline;
pub mod licm;
pub mod loop_aware_cse;
pub mod loop_support;
pub mod loop_unroll;
pub mod pointer_ir;
pub mod reorder_broadcast;
pub mod rewrite_tensor_descriptor_to_pointer;
pub mod rewrite_tensor_pointer;
pub mod test_loop_peeling;
