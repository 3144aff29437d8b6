//! The Triton (`tt`) MLIR dialect for Rust.
//!
//! The ops, types and enum attributes are declared in ODS (`td/`) and
//! registered by a thin C++ shim (`cpp/`) that `build.rs` compiles; every
//! verifier rule is Rust ([`verify`]), installed into the shim when the
//! dialect is registered.

pub mod ffi;
pub mod types;
pub mod verify;

use melior::dialect::{DialectHandle, DialectRegistry};

/// The `tt` dialect handle.
pub fn dialect_handle() -> DialectHandle {
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__tt__()) }
}

/// Inserts `tt` into `registry` and installs the Rust verifier callbacks.
pub fn register(registry: &DialectRegistry) {
    verify::install();
    dialect_handle().insert_dialect(registry);
}
