//! `triton-test-loop-peeling`: Triton's test pass for its loop-epilogue
//! peeling utility. Every `scf.for` marked `__test_peel_epilogue` gets its
//! last iteration peeled into an `scf.if` after it
//! ([`scf::peel_epilogue`]); the mark stays, as in Triton.

use melior::ir::operation::OperationRef;

use super::loop_support::{ir, scf};
use crate::rust_pass::{fail, PassResult, RustPass};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TestLoopPeeling",
    argument: "triton-test-loop-peeling",
    description: "Peel the last iteration of scf.for loops marked __test_peel_epilogue",
    anchor: "builtin.module",
    run,
};

const MARK: &str = "__test_peel_epilogue";

fn run(module: OperationRef) -> PassResult {
    let loops = ir::collect_post(module.to_raw(), &|op| {
        ir::is(op, "scf.for") && ir::attribute(op, MARK).is_some()
    });
    for lp in loops {
        if !scf::is_well_formed_for(lp) {
            // SAFETY: `lp` is an op of the module being transformed.
            let at = unsafe { OperationRef::from_raw(lp) };
            return Err(fail(at, "cannot peel a malformed scf.for"));
        }
        scf::peel_epilogue(lp);
    }
    Ok(())
}
