//! A pipeline that a Rust pass runs on the op it was given, built on the
//! pass's first run and kept for the next: building a pass manager (and
//! the pattern sets its passes collect when they initialise) can cost more
//! than running it on a small kernel, and a compiler that compiles kernel
//! after kernel runs the same pass objects again and again.

use std::cell::RefCell;

use melior::ir::operation::{OperationLike, OperationRef};
use mlir_sys::MlirPassManager;

use crate::{pipeline, registry};

/// A pipeline and, once it has run, its pass manager.
///
/// A pass belongs to one pass manager, which runs in one context and
/// destroys its passes, and with them this one, before that context goes:
/// the manager kept here never outlives the context it was built in. A
/// clone (MLIR clones passes to run them on several threads) starts with
/// no manager of its own.
pub struct NestedPipeline {
    source: Source,
    manager: RefCell<Option<MlirPassManager>>,
}

#[derive(Clone)]
enum Source {
    /// A pipeline of the pass registry, `builtin.module(...)`.
    Registry(String),
    /// One upstream MLIR pass (`name{options}`) on `builtin.module`,
    /// bypassing the registry: for a Rust pass that wraps the upstream
    /// pass of the same name.
    Upstream(String),
}

impl NestedPipeline {
    /// The registry's pipeline `text` (`builtin.module(...)`).
    pub fn new(text: impl Into<String>) -> Self {
        Self::from(Source::Registry(text.into()))
    }

    /// MLIR's own pass `element` (`name{options}`) on `builtin.module`.
    pub fn upstream(element: impl Into<String>) -> Self {
        Self::from(Source::Upstream(element.into()))
    }

    fn from(source: Source) -> Self {
        Self {
            source,
            manager: RefCell::default(),
        }
    }

    fn text(&self) -> &str {
        match &self.source {
            Source::Registry(text) | Source::Upstream(text) => text,
        }
    }

    /// Runs the pipeline on `op`, which must be the op its text anchors on;
    /// `Err` when the pipeline cannot be built (its diagnostics name the
    /// reason) or when one of its passes fails (its diagnostics are
    /// already emitted).
    pub fn run(&self, op: OperationRef) -> Result<(), String> {
        let manager = self.manager(op)?;
        let result = unsafe { mlir_sys::mlirPassManagerRunOnOp(manager, op.to_raw()) };
        if result.value == 0 {
            Err(format!("{} failed", self.text()))
        } else {
            Ok(())
        }
    }

    fn manager(&self, op: OperationRef) -> Result<MlirPassManager, String> {
        if let Some(manager) = *self.manager.borrow() {
            return Ok(manager);
        }
        // `to_ref` borrows the `ContextRef` itself: it must outlive `context`.
        let context_ref = op.context();
        let context = unsafe { context_ref.to_ref() };
        let manager = match &self.source {
            Source::Registry(text) => pipeline::parse(text)
                .and_then(|p| p.build(context))
                .map_err(|e| e.to_string())?,
            Source::Upstream(element) => {
                let manager = pipeline::new_pass_manager(context, "builtin.module");
                registry::add_upstream(manager.as_operation_pass_manager(), element)?;
                manager
            }
        };
        // The pass manager running the pass that owns this pipeline
        // verifies its result (when asked to); verifying after each nested
        // pass too would only repeat that.
        manager.enable_verifier(false);
        let raw = manager.to_raw();
        std::mem::forget(manager);
        *self.manager.borrow_mut() = Some(raw);
        Ok(raw)
    }
}

impl Clone for NestedPipeline {
    fn clone(&self) -> Self {
        Self::from(self.source.clone())
    }
}

impl Drop for NestedPipeline {
    fn drop(&mut self) {
        if let Some(manager) = self.manager.get_mut().take() {
            unsafe { mlir_sys::mlirPassManagerDestroy(manager) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::Module;

    #[test]
    fn runs_again_on_later_modules_with_the_same_manager() {
        let context = crate::context::new_context(false);
        let nested = NestedPipeline::new("builtin.module(canonicalize)");
        for _ in 0..2 {
            let module = Module::parse(
                &context,
                "func.func @f() -> i32 {\n  %a = arith.constant 1 : i32\n  %b = arith.addi %a, %a : i32\n  return %b : i32\n}",
            )
            .expect("parses");
            nested.run(module.as_operation()).expect("runs");
            let text = module.as_operation().to_string();
            assert!(text.contains("arith.constant 2 : i32"), "{text}");
            assert!(!text.contains("arith.addi"), "{text}");
        }
        assert!(nested.manager.borrow().is_some());
        assert!(nested.clone().manager.borrow().is_none());
    }

    #[test]
    fn upstream_passes_bypass_the_registry() {
        let context = crate::context::new_context(false);
        let module = Module::parse(
            &context,
            "func.func private @g() -> i32 {\n  %a = arith.constant 1 : i32\n  return %a : i32\n}\nfunc.func @f() -> i32 {\n  %r = func.call @g() : () -> i32\n  return %r : i32\n}",
        )
        .expect("parses");
        NestedPipeline::upstream("inline")
            .run(module.as_operation())
            .expect("runs");
        let text = module.as_operation().to_string();
        assert!(!text.contains("call"), "{text}");
    }

    #[test]
    fn a_bad_pipeline_is_an_error() {
        let context = crate::context::new_context(false);
        let module = Module::new(melior::ir::Location::unknown(&context));
        let error = NestedPipeline::new("builtin.module(no-such-pass)")
            .run(module.as_operation())
            .unwrap_err();
        assert!(error.contains("no-such-pass"), "{error}");
    }
}
