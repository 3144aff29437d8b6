//! `gluon-inline`: Triton 3.6 inlines the calls that Gluon kernels leave
//! behind. A module without calls is left as it is; calls are refused
//! with a located error (inlining them is not implemented here).

use melior::ir::operation::OperationRef;
use tt_passes::rust_pass::{PassResult, RustPass};

use crate::module_attrs::refuse_ops;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "GluonInline",
    argument: "gluon-inline",
    description: "Inline Gluon calls (nothing to do without calls)",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    refuse_ops(module.to_raw(), PASS.argument, &["tt.call", "func.call"])
}
