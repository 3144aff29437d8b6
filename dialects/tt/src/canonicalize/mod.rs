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
use std::sync::Once;

use melior::ir::{
    operation::{OperationLike, OperationRef},
    Attribute, AttributeLike, Value,
};
use melior::StringRef;
use mlir_sys::{
    MlirAttribute, MlirContext, MlirOperation, MlirRewritePatternSet, MlirStringRef, MlirValue,
};

use crate::{ffi, rewrite};

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
        let Some(folder) = fold::folder(ident.as_string_ref().as_str().unwrap_or("")) else {
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
        for pattern in patterns::patterns(name.as_str().unwrap_or("")) {
            unsafe { rewrite::add_pattern(set, context, op_name, pattern) };
        }
    }));
}
