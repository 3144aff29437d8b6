//! How a pass written in Rust becomes an MLIR pass.
//!
//! A Rust pass is a static [`RustPass`]: its names and a `run` function over
//! the op it is anchored on. [`RustPass::build`] wraps it in a melior
//! external pass. A `run` that fails has already emitted a located
//! diagnostic; a panic inside `run`, or inside one of the rewrite patterns
//! it applies, is caught, reported as an internal error at the op, and
//! fails the pass: it never unwinds into C++.

use std::panic::{catch_unwind, AssertUnwindSafe};

use melior::{
    dialect::DialectHandle,
    ir::{
        operation::{OperationLike, OperationRef},
        r#type::TypeId,
    },
    pass::{create_external, ExternalPass, Pass},
};

/// A pass failed; its diagnostics are already emitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failure;

/// What a pass's `run` returns.
pub type PassResult = Result<(), Failure>;

/// A pass written in Rust. Its address is its MLIR pass id, hence the
/// alignment.
#[derive(Debug)]
#[repr(align(8))]
pub struct RustPass {
    /// The pass class name shown in `--mlir-print-ir-*` and timing output,
    /// e.g. `TritonCombineOps`.
    pub name: &'static str,
    /// The flag, e.g. `triton-combine`.
    pub argument: &'static str,
    /// A one-line description.
    pub description: &'static str,
    /// The op it runs on, e.g. `builtin.module`.
    pub anchor: &'static str,
    /// The transformation.
    pub run: for<'c, 'a> fn(OperationRef<'c, 'a>) -> PassResult,
}

impl RustPass {
    /// The MLIR pass.
    pub fn build(&'static self) -> Pass {
        self.build_with(self.run)
    }

    /// The MLIR pass with these names and id, running `run` instead of
    /// [`RustPass::run`]: for a pass with options, `run` captures them (and
    /// `RustPass::run` is the pass with its default options).
    pub fn build_with<F>(&'static self, run: F) -> Pass
    where
        F: for<'c, 'a> Fn(OperationRef<'c, 'a>) -> PassResult + Clone + 'static,
    {
        create_external(
            move |op: OperationRef, pass: ExternalPass| {
                let outcome = catch_unwind(AssertUnwindSafe(|| run(op)));
                // A rewrite pattern that panicked left its rewrite halfway.
                let pattern_panic = tt_dialect::rewrite::take_pattern_panic();
                let failed = match (outcome, pattern_panic) {
                    (Ok(_), Some(why)) => {
                        tt_dialect::verify::emit_op_error(
                            op,
                            &format!(
                                "internal error: a rewrite pattern of pass '{}' panicked: {why}",
                                self.argument
                            ),
                        );
                        true
                    }
                    (Ok(result), None) => result.is_err(),
                    (Err(payload), _) => {
                        // The panic's own message says where the pass went
                        // wrong; keep it in the diagnostic.
                        let why = payload
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| payload.downcast_ref::<String>().cloned())
                            .unwrap_or_default();
                        tt_dialect::verify::emit_op_error(
                            op,
                            &format!("internal error: pass '{}' panicked: {why}", self.argument),
                        );
                        true
                    }
                };
                if failed {
                    pass.signal_failure();
                }
            },
            TypeId::create(self),
            self.name,
            self.argument,
            self.description,
            self.anchor,
            // Passes create ops of dialects that their input may not mention
            // yet (`ttng.warp_group_dot` in a module with no `ttng` op,
            // `ub.poison`, `scf.if`, `gpu.barrier`); the pass manager loads
            // these before it runs.
            &[
                ttg_dialect::ttg_handle(),
                ttg_dialect::ttng_handle(),
                ttg_dialect::nvws_handle(),
                ttg_dialect::tti_handle(),
                // SAFETY: MLIR's static dialect handles, valid for the
                // program's lifetime.
                unsafe { DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__arith__()) },
                unsafe { DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__scf__()) },
                unsafe { DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__ub__()) },
                unsafe { DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__gpu__()) },
            ],
        )
    }
}

/// Emits `message` as an error at `op`'s location (`'<op>' op message`)
/// and returns the failure to propagate.
pub fn fail(op: OperationRef, message: &str) -> Failure {
    tt_dialect::verify::emit_op_error(op, message);
    Failure
}

/// The located "'<flag>' does not support <what> yet" error at `op`.
pub fn unsupported(op: mlir_sys::MlirOperation, flag: &str, what: &str) -> Failure {
    // SAFETY: `op` is a live op of the module the pass runs on.
    let op = unsafe { OperationRef::from_raw(op) };
    fail(op, &format!("'{flag}' does not support {what} yet"))
}

/// Walks `op` and everything nested in it, pre-order, collecting the ops
/// named `name` (so a pass can edit them after the walk).
pub fn collect_ops<'c, 'a>(op: OperationRef<'c, 'a>, name: &str) -> Vec<OperationRef<'c, 'a>> {
    let mut found = Vec::new();
    op.walk(melior::ir::operation::WalkOrder::PreOrder, |nested| {
        if tt_dialect::ir::is_op(nested, name) {
            // The walk hands out references scoped to the callback; the op
            // itself lives as long as `op`.
            found.push(unsafe { OperationRef::from_raw(nested.to_raw()) });
        }
        melior::ir::operation::WalkResult::Advance
    });
    found
}
