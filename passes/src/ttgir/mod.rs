//! The passes of Triton's `make_ttgir` stage, one file per pass, named after
//! its flag.

pub mod coalesce;
pub mod convert_triton_to_tritongpu;
