//! The passes of Triton's `make_ttir` stage (and the TTIR-level passes that
//! later stages reuse), one file per pass, named after its flag.

pub mod combine;
pub mod inline;
pub mod reorder_broadcast;
