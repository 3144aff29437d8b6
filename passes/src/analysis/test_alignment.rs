//! `test-print-alignment`, Triton's test pass for AxisInfo: runs the
//! analysis over the module and emits, at every op inside a function, one
//! remark per result, `<result> => contiguity = [..], divisibility = [..],
//! constancy = [..], constant_value = <..>`, so that lit tests check it
//! with `--verify-diagnostics`.

use melior::ir::operation::{OperationLike, OperationRef, WalkOrder, WalkResult};

use super::axis_info::AxisInfoMap;
use crate::rust_pass::{PassResult, RustPass};

pub static PASS: RustPass = RustPass {
    name: "TestAxisInfoPass",
    argument: "test-print-alignment",
    description: "print the result of the alignment analysis pass",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let map = AxisInfoMap::analyze(module);
    let mut functions = Vec::new();
    module.walk(WalkOrder::PreOrder, |op| {
        if tt_dialect::ir::is_op(op, "tt.func") {
            functions.push(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
        WalkResult::Advance
    });
    for function in functions {
        function.walk(WalkOrder::PostOrder, |op| {
            for index in 0..op.result_count() {
                let Some(value) = tt_dialect::ir::result(op, index) else {
                    continue;
                };
                let info = map.get(value).map(|i| i.to_string()).unwrap_or_default();
                tt_dialect::ir::emit_remark(op.location(), &format!("{value} => {info}"));
            }
            WalkResult::Advance
        });
    }
    Ok(())
}
