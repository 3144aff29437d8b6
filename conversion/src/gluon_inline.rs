//! `gluon-inline`: Triton 3.6 runs MLIR's inliner again here (for the
//! calls Gluon kernels leave behind), with Triton's inliner interface, so
//! calls to `noinline` functions stay. After make_ttir's inliner those are
//! the only calls a Triton kernel has, and the pass leaves the module as it
//! is; a call it would inline is refused with a located error (inlining
//! here is not implemented).

use melior::ir::operation::OperationRef;
use tt_passes::rust_pass::{PassResult, RustPass};
use tt_passes::ttir::loop_support::ir;

use crate::module_attrs::refuse;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "GluonInline",
    argument: "gluon-inline",
    description: "Inline Gluon calls (calls to noinline functions stay)",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let calls = ir::collect_post(module.to_raw(), &|op| {
        ir::is(op, "tt.call") || ir::is(op, "func.call")
    });
    for call in calls {
        let noinline = ir::callee(call)
            .and_then(|f| ir::attribute(f, "noinline"))
            .is_some_and(|a| unsafe { mlir_sys::mlirBoolAttrGetValue(a) });
        if !noinline || ir::is(call, "func.call") {
            return Err(refuse(call, PASS.argument, "inlining a call"));
        }
    }
    Ok(())
}
