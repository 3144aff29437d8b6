//! Folders and canonicalization patterns of the Triton ops, reached from
//! MLIR's own canonicalizer.
//!
//! Every `tt`, `ttg` and `ttng` op declares `getCanonicalizationPatterns` in
//! ODS, and ops with a folder declare `fold`; the C++ definitions forward to
//! the two callbacks installed here. The callbacks look the op up by name:
//! [`fold::folder`] gives its folder, [`patterns::patterns`] its patterns,
//! each a plain Rust function. So a plain `--canonicalize` (and any
//! `createOrFold` or greedy driver) applies them.
//!
//! Neither callback lets a panic cross into C++: a panicking folder folds
//! nothing, a panicking pattern reports no match.

pub mod fold;
pub mod patterns;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Once, OnceLock};

use melior::ir::{
    operation::{OperationLike, OperationRef},
    Attribute, AttributeLike, Value,
};
use melior::StringRef;
use mlir_sys::{
    MlirAttribute, MlirContext, MlirOperation, MlirRewritePatternSet, MlirStringRef, MlirValue,
};

use crate::ffi;
use crate::rewrite::{self, Pattern};

/// What a folder produced.
pub enum Fold<'c, 'a> {
    /// Nothing: the op stays.
    None,
    /// The op's result is this constant (materialized as `arith.constant`).
    Constant(Attribute<'c>),
    /// The op's result is this existing value; the op's own result after an
    /// in-place update.
    Value(Value<'c, 'a>),
}

/// The op a folder works on, with the constant values of its operands.
pub struct FoldInput<'c, 'a> {
    /// The op.
    pub op: OperationRef<'c, 'a>,
    constants: &'a [MlirAttribute],
}

impl<'c, 'a> FoldInput<'c, 'a> {
    /// The constant value of operand `index`, if it is a constant.
    pub fn constant(&self, index: usize) -> Option<Attribute<'c>> {
        let raw = *self.constants.get(index)?;
        (!raw.ptr.is_null()).then(|| unsafe { Attribute::from_raw(raw) })
    }
}

/// A folder: looks at the op and says what it folds to.
pub type Folder = for<'c, 'a> fn(&FoldInput<'c, 'a>) -> Fold<'c, 'a>;

/// The folders and patterns of a dialect layered on `tt` (the ttg crate),
/// consulted for the ops `tt` has none for.
#[derive(Clone, Copy)]
pub struct Extension {
    /// The folder of the op named by the argument.
    pub folder: fn(&str) -> Option<Folder>,
    /// The patterns that the op named by the argument contributes to
    /// canonicalization, each with the op it is rooted at (not always the
    /// contributing op: `ttg.convert_layout` contributes patterns on the
    /// ops that consume a conversion).
    pub patterns: fn(&str) -> &'static [(&'static str, Pattern)],
}

static EXTENSION: OnceLock<Extension> = OnceLock::new();

/// Registers the folders and patterns of a dialect layered on `tt`. Only the
/// first call takes effect.
pub fn set_extension(extension: Extension) {
    let _ = EXTENSION.set(extension);
}

/// Installs the fold and pattern callbacks into the shim. Idempotent.
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| unsafe {
        ffi::ttShimSetFoldCallback(fold_callback);
        ffi::ttShimSetPatternsCallback(patterns_callback);
    });
}

unsafe extern "C" fn fold_callback(
    raw: MlirOperation,
    operands: *const MlirAttribute,
    operand_count: isize,
    attr: *mut MlirAttribute,
    value: *mut MlirValue,
) -> ffi::FoldKind {
    catch_unwind(AssertUnwindSafe(|| {
        let op = unsafe { OperationRef::from_raw(raw) };
        let ident = op.name();
        let name = ident.as_string_ref().as_str().unwrap_or("");
        let folder =
            fold::folder(name).or_else(|| EXTENSION.get().and_then(|ext| (ext.folder)(name)));
        let Some(folder) = folder else {
            return ffi::FOLD_NONE;
        };
        let constants = if operands.is_null() || operand_count <= 0 {
            &[][..]
        } else {
            unsafe { std::slice::from_raw_parts(operands, operand_count as usize) }
        };
        match folder(&FoldInput { op, constants }) {
            Fold::None => ffi::FOLD_NONE,
            Fold::Constant(a) => {
                unsafe { *attr = a.to_raw() };
                ffi::FOLD_ATTRIBUTE
            }
            Fold::Value(v) => {
                unsafe { *value = melior::ir::ValueLike::to_raw(&v) };
                ffi::FOLD_VALUE
            }
        }
    }))
    .unwrap_or(ffi::FOLD_NONE)
}

unsafe extern "C" fn patterns_callback(
    op_name: MlirStringRef,
    context: MlirContext,
    set: MlirRewritePatternSet,
) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let name = unsafe { StringRef::from_raw(op_name) };
        let name = name.as_str().unwrap_or("");
        for pattern in patterns::patterns(name) {
            unsafe { rewrite::add_pattern(set, context, op_name, pattern) };
        }
        if let Some(ext) = EXTENSION.get() {
            for (root, pattern) in (ext.patterns)(name) {
                let root = StringRef::new(root);
                unsafe { rewrite::add_pattern(set, context, root.to_raw(), pattern) };
            }
        }
    }));
}
