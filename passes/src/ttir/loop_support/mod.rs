//! Shared machinery of the loop passes (`triton-loop-unroll`, `triton-licm`,
//! `triton-loop-aware-cse`): raw IR queries and edits the C API lacks as
//! one-liners ([`ir`]), MLIR's side-effect queries ([`effects`]), a common
//! sub-expression eliminator with MLIR's semantics ([`cse`]), and `scf.for`
//! utilities: trip counts, single-iteration promotion and the loop
//! canonicalizations ([`scf`]).

pub mod cse;
pub mod effects;
pub mod ir;
pub mod scf;
