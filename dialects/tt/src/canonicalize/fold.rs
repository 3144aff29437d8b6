//! The folders of the `tt` ops, by op name.

use melior::ir::operation::OperationLike;

use super::{Fold, FoldInput, Folder};
use crate::ir;

/// The folder of the op named `name`, if it has one.
pub fn folder(name: &str) -> Option<Folder> {
    Some(match name {
        "tt.addptr" => add_ptr,
        _ => return None,
    })
}

/// `addptr(p, 0)` is `p`.
fn add_ptr<'c, 'a>(input: &FoldInput<'c, 'a>) -> Fold<'c, 'a> {
    match (input.op.operand(0), input.constant(1)) {
        (Ok(ptr), Some(offset)) if ir::is_int_zero(offset) => Fold::Value(ptr),
        _ => Fold::None,
    }
}
