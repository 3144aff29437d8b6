//! Rewrite patterns written in Rust: a pattern is a plain function over an
//! op and MLIR's rewriter. The same patterns serve the ops'
//! canonicalization (through [`crate::canonicalize`]) and the Rust passes
//! that run their own pattern sets through MLIR's greedy driver
//! ([`apply_greedily`]).

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use melior::ir::operation::OperationRef;
use melior::{RewriterBase, StringRef};
use mlir_sys::{
    MlirContext, MlirLogicalResult, MlirOperation, MlirPatternRewriter, MlirRewritePattern,
    MlirRewritePatternCallbacks, MlirRewritePatternSet, MlirStringRef,
};

/// A canonicalization pattern: rewrites `op` through `rewriter` and says
/// whether it did. It must leave the IR untouched when it returns `false`.
pub type Rewrite = for<'c, 'a> fn(OperationRef<'c, 'a>, &RewriterBase<'c, 'a>) -> bool;

/// One pattern of an op.
pub struct Pattern {
    /// The benefit: patterns with a higher one are tried first.
    pub benefit: u16,
    /// The rewrite.
    pub rewrite: Rewrite,
    /// The ops the rewrite may create (MLIR uses them to order patterns).
    pub generated: &'static [&'static str],
}

/// Adds `pattern`, rooted at ops named `root`, to `set`.
///
/// # Safety
/// `set` and `context` must be live, and `root` must outlive the call.
pub unsafe fn add_pattern(
    set: MlirRewritePatternSet,
    context: MlirContext,
    root: MlirStringRef,
    pattern: &'static Pattern,
) {
    let callbacks = MlirRewritePatternCallbacks {
        construct: None,
        destruct: None,
        matchAndRewrite: Some(match_and_rewrite),
    };
    let mut generated: Vec<MlirStringRef> = pattern
        .generated
        .iter()
        .map(|name| StringRef::new(name).to_raw())
        .collect();
    unsafe {
        let raw = mlir_sys::mlirOpRewritePatternCreate(
            root,
            u32::from(pattern.benefit),
            context,
            callbacks,
            pattern as *const Pattern as *mut c_void,
            generated.len(),
            generated.as_mut_ptr(),
        );
        mlir_sys::mlirRewritePatternSetAdd(set, raw);
    }
}

thread_local! {
    /// The message of the first rewrite pattern that panicked on this
    /// thread since [`take_pattern_panic`] last ran.
    static PATTERN_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// The message of a rewrite pattern that panicked on this thread (its
/// rewrite stopped halfway, so the IR may be inconsistent), clearing it.
/// Pass runners turn it into a failure.
pub fn take_pattern_panic() -> Option<String> {
    PATTERN_PANIC.with(|p| p.borrow_mut().take())
}

unsafe extern "C" fn match_and_rewrite(
    _pattern: MlirRewritePattern,
    raw: MlirOperation,
    rewriter: MlirPatternRewriter,
    user_data: *mut c_void,
) -> MlirLogicalResult {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let pattern = unsafe { &*(user_data as *const Pattern) };
        let op = unsafe { OperationRef::from_raw(raw) };
        let base = unsafe { RewriterBase::from_raw(mlir_sys::mlirPatternRewriterAsBase(rewriter)) };
        (pattern.rewrite)(op, &base)
    }));
    let matched = outcome.unwrap_or_else(|payload| {
        let why = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        PATTERN_PANIC.with(|p| {
            p.borrow_mut().get_or_insert(why);
        });
        false
    });
    MlirLogicalResult {
        value: i8::from(matched),
    }
}

/// Adds `pattern`, offered every op (for patterns keyed on a trait rather
/// than an op name), to `set`.
///
/// # Safety
/// `set` and `context` must be live.
pub unsafe fn add_any_op_pattern(
    set: MlirRewritePatternSet,
    context: MlirContext,
    pattern: &'static Pattern,
) {
    let callbacks = MlirRewritePatternCallbacks {
        construct: None,
        destruct: None,
        matchAndRewrite: Some(match_and_rewrite),
    };
    unsafe {
        let raw = crate::ffi::ttAnyOpRewritePatternCreate(
            u32::from(pattern.benefit),
            context,
            callbacks,
            pattern as *const Pattern as *mut c_void,
        );
        mlir_sys::mlirRewritePatternSetAdd(set, raw);
    }
}

/// Where a pattern of [`apply_greedily`] applies.
#[derive(Clone, Copy)]
pub enum Root {
    /// Ops with this name.
    Op(&'static str),
    /// Every op (the pattern checks what it needs).
    AnyOp,
}

/// How [`apply_greedily`] drives the patterns.
#[derive(Clone, Copy, Debug)]
pub struct Greedy {
    /// Fold ops (and materialize constants) as well as applying patterns.
    pub fold: bool,
    /// Seed the worklist top-down rather than bottom-up.
    pub top_down: bool,
}

impl Default for Greedy {
    /// MLIR's defaults: folding on, bottom-up.
    fn default() -> Self {
        Self {
            fold: true,
            top_down: false,
        }
    }
}

/// Applies `patterns` (root op name and pattern) to everything nested in
/// `op` until nothing changes. Returns `false` when the driver did not
/// converge.
pub fn apply_greedily(
    op: OperationRef,
    patterns: &[(Root, &'static Pattern)],
    greedy: Greedy,
) -> bool {
    unsafe {
        let context = mlir_sys::mlirOperationGetContext(op.to_raw());
        let set = mlir_sys::mlirRewritePatternSetCreate(context);
        for (root, pattern) in patterns {
            match root {
                Root::Op(name) => add_pattern(set, context, StringRef::new(name).to_raw(), pattern),
                Root::AnyOp => add_any_op_pattern(set, context, pattern),
            }
        }
        let frozen = mlir_sys::mlirFreezeRewritePattern(set);
        let config = mlir_sys::mlirGreedyRewriteDriverConfigCreate();
        mlir_sys::mlirGreedyRewriteDriverConfigEnableFolding(config, greedy.fold);
        mlir_sys::mlirGreedyRewriteDriverConfigSetUseTopDownTraversal(config, greedy.top_down);
        let result = mlir_sys::mlirApplyPatternsAndFoldGreedilyWithOp(op.to_raw(), frozen, config);
        mlir_sys::mlirGreedyRewriteDriverConfigDestroy(config);
        mlir_sys::mlirFrozenRewritePatternSetDestroy(frozen);
        result.value != 0
    }
}
