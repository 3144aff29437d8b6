//! Pass infrastructure for the Triton middle end.
//!
//! * [`analysis`] holds analyses that passes query (AxisInfo).
//! * [`context`] builds the MLIR context: the one place where dialects are
//!   registered.
//! * [`registry`] is the static table of named passes that `tt-opt` exposes
//!   as flags and that pipelines refer to, upstream MLIR passes and Rust
//!   passes alike.
//! * [`pipeline`] parses `builtin.module(canonicalize,tt.func(cse))` and
//!   builds a [`melior::pass::PassManager`] from it.
//! * [`options`] parses `key=value` pass options.
//! * [`suggest`] finds "did you mean" candidates for misspelled names.
//! * [`rust_pass`] turns a Rust function into an MLIR pass.
//! * [`nested`] keeps the pass manager of a pipeline that a pass runs on
//!   its op from one run to the next.
//! * [`ttir`] holds the passes of Triton's `make_ttir` stage.
//! * [`ttgir`] holds the passes of Triton's `make_ttgir` stage.
//! * [`stages`] names Triton's stages as pipelines (`make-ttir`).

pub mod analysis;
pub mod context;
pub mod nested;
pub mod options;
pub mod pipeline;
pub mod registry;
pub mod rust_pass;
pub mod stages;
pub mod suggest;
pub mod ttgir;
pub mod ttir;
