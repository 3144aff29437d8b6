//! `test-print-allocation`, Triton's test pass for the shared-memory
//! allocation: for every `tt.func`, a remark with its name at the
//! function, then, walking its ops post-order, one remark per buffer at
//! its op (`scratch offset = X, size = Y` for an op's scratch, `virtual
//! ...` for a call's, `offset = X, size = Y` for a `ttg.local_alloc`), and
//! `size = N`, the function's total, at the function.

use melior::ir::{
    operation::{OperationLike, OperationRef},
    Location,
};
use tt_dialect::ir::emit_remark;
use tt_passes::{
    rust_pass::{fail, PassResult, RustPass},
    ttir::loop_support::ir,
};

use crate::allocation::{allocate_function, BufferKind};

pub static PASS: RustPass = RustPass {
    name: "TestAllocationPass",
    argument: "test-print-allocation",
    description: "print the result of the allocation pass",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let mut functions = Vec::new();
    ir::walk_pre(module.to_raw(), &mut |op| {
        if ir::is(op, "tt.func") {
            functions.push(op);
        }
    });
    for function in functions {
        // SAFETY: ops of the module this pass runs on, alive throughout.
        let at = |op| unsafe { Location::from_raw(ir::location(op)) };
        let allocation = allocate_function(function).map_err(|e| {
            // SAFETY: as above.
            fail(
                unsafe { OperationRef::from_raw(e.op) },
                &format!("'{}' does not support {} yet", PASS.argument, e.what),
            )
        })?;
        // SAFETY: as above.
        let name = unsafe { OperationRef::from_raw(function) }
            .attribute("sym_name")
            .ok()
            .and_then(tt_dialect::ir::string_value)
            .unwrap_or_default();
        emit_remark(at(function), &name);
        for op in ir::collect_post(function, &|_| true) {
            for buffer in allocation.buffers.iter().filter(|b| b.owner.ptr == op.ptr) {
                let prefix = match buffer.kind {
                    BufferKind::Explicit => "",
                    BufferKind::Scratch => "scratch ",
                    BufferKind::Virtual => "virtual ",
                };
                emit_remark(
                    at(op),
                    &format!("{prefix}offset = {}, size = {}", buffer.offset, buffer.size),
                );
            }
        }
        emit_remark(at(function), &format!("size = {}", allocation.size));
    }
    Ok(())
}
