//! The canonicalization patterns of the `tt` ops, by op name.

use melior::ir::operation::{OperationLike, OperationRef};
use melior::RewriterBase;

use crate::ir;
use crate::rewrite::Pattern;

/// The patterns of the op named `name`.
pub fn patterns(name: &str) -> &'static [Pattern] {
    match name {
        "tt.load" => &[Pattern {
            benefit: 1,
            rewrite: masked_load,
            generated: &[],
        }],
        "tt.store" => &[Pattern {
            benefit: 1,
            rewrite: masked_store,
            generated: &[],
        }],
        _ => &[],
    }
}

/// The mask of a load, store or atomic when it is a constant that holds
/// one value: `Some(true)` for all lanes on, `Some(false)` for all off.
fn constant_mask(op: OperationRef, index: usize) -> Option<bool> {
    let mask = op.operand(index).ok()?;
    ir::constant_int(mask).map(|v| v != 0)
}

/// `load(p, splat(true), other)` loads `p` unmasked; `load(p,
/// splat(false), other)` is `other` (without `other` the result is
/// undefined and the load stays).
fn masked_load<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    if op.operand_count() < 2 {
        return false;
    }
    match constant_mask(op, 1) {
        Some(true) => {
            let Ok(ptr) = op.operand(0) else { return false };
            rewriter.start_op_modification(op);
            ir::set_segmented_operands(op, &[&[ptr], &[], &[]]);
            rewriter.finalize_op_modification(op);
            true
        }
        Some(false) => match op.operand(2) {
            Ok(other) => {
                rewriter.replace_op_with_values(op, &[other]);
                true
            }
            Err(_) => false,
        },
        None => false,
    }
}

/// `store(p, v, splat(true))` stores unmasked; `store(p, v, splat(false))`
/// stores nothing.
fn masked_store<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    match constant_mask(op, 2) {
        Some(true) => {
            let (Ok(ptr), Ok(value)) = (op.operand(0), op.operand(1)) else {
                return false;
            };
            rewriter.start_op_modification(op);
            ir::set_operands(op, &[ptr, value]);
            rewriter.finalize_op_modification(op);
            true
        }
        Some(false) => {
            rewriter.erase_op(op);
            true
        }
        None => false,
    }
}
