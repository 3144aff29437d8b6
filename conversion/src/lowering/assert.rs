//! `tt.assert` as CUDA's `__assertfail`: a thread whose condition is false
//! for any element it holds branches to a block that calls
//! `__assertfail(message, file, line, "unknown", 1)`, then rejoins; a CTA
//! barrier follows so no thread runs ahead of a failing one.
//!
//! An assertion inside the combine region of a `tt.reduce` or `tt.scan`
//! (a checked combine function, `tl.device_assert` in it) cannot branch in
//! the middle of the reduction's straight-line code: each combine step
//! ORs its failure, where the step's result is used, into one flag per
//! assertion ([`defer`]), and the assertions are raised when the op is done
//! ([`raise_deferred`]), with their own messages and lines.

use melior::ir::{
    operation::{OperationLike, OperationRef},
    Location, Value, ValueLike,
};
use tt_dialect::ir as ttir;

use super::{Access, Emitter, LowerResult, Lowering};

/// The file and line of `location`, looking through call sites (the
/// callee) and names (the child), as Triton does; `("unknown", 0)` when
/// there is no file location.
fn file_and_line(location: Location) -> (String, i64) {
    let mut raw = location.to_raw();
    unsafe {
        loop {
            if mlir_sys::mlirLocationIsACallSite(raw) {
                raw = mlir_sys::mlirLocationCallSiteGetCallee(raw);
            } else if mlir_sys::mlirLocationIsAName(raw) {
                raw = mlir_sys::mlirLocationNameGetChildLoc(raw);
            } else {
                break;
            }
        }
        if !mlir_sys::mlirLocationIsAFileLineColRange(raw) {
            return ("unknown".into(), 0);
        }
        let name =
            mlir_sys::mlirIdentifierStr(mlir_sys::mlirLocationFileLineColRangeGetFilename(raw));
        let bytes = std::slice::from_raw_parts(name.data as *const u8, name.length);
        (
            String::from_utf8_lossy(bytes).into_owned(),
            mlir_sys::mlirLocationFileLineColRangeGetStartLine(raw) as i64,
        )
    }
}

/// Whether `op`'s condition is false for any element this thread holds.
fn failed<'c, 'a>(
    lw: &Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let condition = ttir::operand(op, 0).ok_or("missing condition")?;
    let mut failed: Option<Value> = None;
    for v in lw.get(condition)? {
        let is_false = emit.icmp("eq", v, emit.int(v.r#type(), 0));
        failed = Some(match failed {
            Some(f) => emit.or(f, is_false),
            None => is_false,
        });
    }
    Ok(failed.unwrap_or_else(|| emit.int(emit.int_type(1), 0)))
}

/// `tt.assert`.
pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let failed = failed(lw, emit, op)?;
    raise(lw, emit, op, failed)
}

/// A `tt.assert` met in a combine step of a reduction or scan: its failure
/// in this step, where `used` (the threads whose step result counts; all
/// when `None`), joins the assertion's flag.
pub fn defer<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    used: Option<Value<'c, 'a>>,
) -> LowerResult {
    let mut failed = failed(lw, emit, op)?;
    if let Some(used) = used {
        failed = emit.and(failed, used);
    }
    match lw.deferred_asserts.iter_mut().find(|(o, _)| *o == op) {
        Some((_, flag)) => *flag = emit.or(*flag, failed),
        None => lw.deferred_asserts.push((op, failed)),
    }
    Ok(())
}

/// Raises the assertions [`defer`] collected, in the order they were met,
/// each splitting the block as a `tt.assert` does.
pub fn raise_deferred<'c, 'a>(lw: &mut Lowering<'c, 'a>, emit: &Emitter<'c, 'a>) -> LowerResult {
    let mut block = emit.block;
    for (op, failed) in std::mem::take(&mut lw.deferred_asserts) {
        raise(lw, &emit.at_end_of(block), op, failed)?;
        block = lw.continuation.expect("raise splits the block");
    }
    Ok(())
}

/// Calls `__assertfail` with `op`'s message where `failed`, then rejoins.
pub(super) fn raise<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    failed: Value<'c, 'a>,
) -> LowerResult {
    let message = ttir::inherent_attribute(op, "message")
        .and_then(ttir::string_value)
        .ok_or("the message attribute is missing")?;
    let (file, line) = file_and_line(op.location());

    let (fail_block, continuation) = lw.split_block(emit);
    emit.cond_br(failed, &fail_block, &continuation)?;

    let fail = emit.at_end_of(fail_block);
    lw.declare_function("__assertfail", "!llvm.func<void (ptr, ptr, i32, ptr, i64)>");
    let message = lw.string_global(&fail, "assertMessage_", &message);
    let file = lw.string_global(&fail, "assertFile_", &file);
    // Triton 3.6 names no function (its locations carry none).
    let function = lw.string_global(&fail, "assertFunc_", "unknown");
    let line = fail.i32(line);
    let char_size = fail.int(fail.int_type(64), 1);
    fail.call(
        "__assertfail",
        &[message, file, line, function, char_size],
        None,
    );
    fail.br(&continuation, &[])?;
    lw.shared_access(&emit.at_end_of(continuation), Access::Barrier);
    Ok(())
}
