//! The TritonGPU (`ttg`) and NVIDIA (`ttng`: Hopper and Blackwell) MLIR
//! dialects for Rust.
//!
//! Ops, types and encodings are declared in ODS (`td/`) and registered by a
//! C++ shim (`cpp/`); the rules of the encodings, memory descriptors and ops
//! are Rust ([`layout`], [`tmem`], [`verify`], [`verify_ttng`]), and so are their folders and
//! canonicalization patterns ([`canonicalize`]). `build.rs` also links the same shim as
//! a dialect plugin for Debian's `mlir-opt`.

pub mod canonicalize;
pub mod convert_layout;
pub mod ffi;
pub mod layout;
pub mod layout_view;
pub mod linear_layout;
pub mod tmem;
pub mod to_linear;
pub mod to_linear_amd;
pub mod tt_op_layouts;
pub mod verify;
pub mod verify_nvws;
pub mod verify_ttng;

use std::sync::Once;

use melior::dialect::{DialectHandle, DialectRegistry};

/// The `ttg` dialect handle.
pub fn ttg_handle() -> DialectHandle {
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__ttg__()) }
}

/// The `ttng` dialect handle.
pub fn ttng_handle() -> DialectHandle {
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__ttng__()) }
}

/// The `nvg` dialect handle (Triton's NVIDIA helper ops).
pub fn nvg_handle() -> DialectHandle {
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__nvg__()) }
}

/// The `tti` dialect handle (Triton's instrumentation ops).
pub fn tti_handle() -> DialectHandle {
    // SAFETY: the shim's registration entry point takes no arguments and
    // returns a static handle.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__tti__()) }
}

/// The `nvws` dialect handle (Triton's warp-specialization ops).
pub fn nvws_handle() -> DialectHandle {
    // SAFETY: the shim's registration entry point takes no arguments and
    // returns a static handle.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__nvws__()) }
}

/// Inserts `tt`, `ttg`, `ttng`, `nvg`, `tti` and `nvws` into `registry` and installs all their
/// Rust rules.
pub fn register(registry: &DialectRegistry) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        tt_dialect::verify::set_extension(tt_dialect::verify::Extension {
            verify_op: verify::verify_op,
            verify_layouts: verify::verify_layouts,
            result_layout: tt_op_layouts::check_result_layout,
            tt_op_rules: tt_op_layouts::verify_tt_op,
        });
        tt_dialect::canonicalize::set_extension(tt_dialect::canonicalize::Extension {
            folder: canonicalize::folder,
            patterns: canonicalize::patterns,
        });
        unsafe { ffi::ttgShimSetEncodingVerifyCallback(verify::verify_encoding_callback) };
        unsafe {
            ffi::ttgShimSetTensorMemoryVerifyCallback(verify_ttng::verify_tmem_params_callback)
        };
    });
    tt_dialect::register(registry);
    ttg_handle().insert_dialect(registry);
    ttng_handle().insert_dialect(registry);
    nvg_handle().insert_dialect(registry);
    tti_handle().insert_dialect(registry);
    nvws_handle().insert_dialect(registry);
}
