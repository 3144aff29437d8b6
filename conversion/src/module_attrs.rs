//! Helpers shared by the passes that only add module attributes or refuse
//! what they would transform.

use mlir_sys::MlirOperation;
use tt_passes::{rust_pass::Failure, ttir::loop_support::ir};

/// Stops `flag` at the first op (pre-order) named in `names`, with a located
/// "'<flag>' does not support <op> yet" error.
pub(crate) fn refuse_ops(module: MlirOperation, flag: &str, names: &[&str]) -> Result<(), Failure> {
    let mut found = None;
    ir::walk_pre(module, &mut |op| {
        if found.is_none() && names.contains(&ir::name(op).as_str()) {
            found = Some(op);
        }
    });
    match found {
        Some(op) => Err(refuse(op, flag, &ir::name(op))),
        None => Ok(()),
    }
}

/// The located "'<flag>' does not support <what> yet" error at `op`.
pub(crate) fn refuse(op: MlirOperation, flag: &str, what: &str) -> Failure {
    tt_passes::rust_pass::unsupported(op, flag, what)
}

/// Sets the `i32` attribute `name` on `op`.
pub(crate) fn set_i32(op: MlirOperation, name: &str, value: i64) {
    let ty = ir::i32_type(ir::context(op));
    ir::set_attribute(op, name, ir::integer_attr(ty, value));
}
