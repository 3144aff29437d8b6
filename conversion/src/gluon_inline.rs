//! `gluon-inline`: Triton 3.6 runs MLIR's inliner again here, with
//! Triton's inliner interface, for the calls Gluon kernels leave behind and
//! for the calls make_ttir's inliner could not inline inside structured
//! control flow (a callee with several returns called under an `scf.if`):
//! after `convert-scf-to-cf` they inline as blocks. Calls to `noinline`
//! functions stay. Without a call to inline the module is left as it is;
//! with one, this runs the `inline` pass (MLIR's inliner with the same
//! interface), whose per-function clean-up is `canonicalize` where
//! Triton's is Gluon's narrower canonicalizer.

use melior::ir::operation::OperationRef;
use tt_passes::rust_pass::{PassResult, RustPass};
use tt_passes::ttir::loop_support::ir;

use crate::module_attrs::refuse;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "GluonInline",
    argument: "gluon-inline",
    description: "Inline the calls left after make_ttir (calls to noinline functions stay)",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let calls = ir::collect_post(module.to_raw(), &|op| {
        ir::is(op, "tt.call") || ir::is(op, "func.call")
    });
    let mut inlinable = false;
    for call in calls {
        if ir::is(call, "func.call") {
            return Err(refuse(call, PASS.argument, "func.call"));
        }
        inlinable |= !ir::callee(call)
            .and_then(|f| ir::attribute(f, "noinline"))
            // SAFETY: an attribute of a live op.
            .and_then(|a| tt_dialect::ir::bool_value(unsafe { melior::ir::Attribute::from_raw(a) }))
            .unwrap_or(false);
    }
    if inlinable {
        (tt_passes::ttir::inline::PASS.run)(module)?;
    }
    Ok(())
}
