//! The Triton (`tt`) MLIR dialect for Rust.
//!
//! The ops, types and enum attributes are declared in ODS (`td/`) and
//! registered by a thin C++ shim (`cpp/`) that `build.rs` compiles; every
//! verifier rule ([`verify`]), folder and canonicalization pattern
//! ([`canonicalize`]) is Rust, installed into the shim when the dialect is
//! registered.

pub mod canonicalize;
pub mod ffi;
pub mod ir;
pub mod rewrite;
pub mod types;
pub mod verify;

use melior::dialect::{DialectHandle, DialectRegistry};

/// The `tt` dialect handle.
pub fn dialect_handle() -> DialectHandle {
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__tt__()) }
}

/// Inserts `tt` into `registry` and installs the Rust callbacks.
pub fn register(registry: &DialectRegistry) {
    verify::install();
    canonicalize::install();
    dialect_handle().insert_dialect(registry);
}
