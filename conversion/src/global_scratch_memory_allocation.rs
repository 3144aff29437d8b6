//! `tritongpu-global-scratch-memory-allocation`: lays out each function's
//! global scratch memory as Triton 3.6 does. In every `tt.func`, walked
//! post-order, each `ttg.global_scratch_alloc` and each `tt.call` of a
//! function that needs scratch gets the next offset aligned to its
//! alignment (`ttg.global_scratch_memory_offset`), with no reuse between
//! buffers; callees are laid out before their callers. Every function
//! records its size (rounded up to its largest alignment) and that
//! alignment as `ttg.global_scratch_memory_size` and
//! `ttg.global_scratch_memory_alignment` (`i32`), and the kernel's go on
//! the module. A call cycle, or an untyped `func.call`, is refused with a
//! located error.

use melior::ir::operation::OperationRef;
use mlir_sys::MlirOperation;
use tt_passes::{
    rust_pass::{Failure, PassResult, RustPass},
    ttir::loop_support::ir,
};

use crate::module_attrs::{refuse, refuse_ops, set_i32};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUGlobalScratchAllocationPass",
    argument: "tritongpu-global-scratch-memory-allocation",
    description: "Assign global scratch memory buffers their offsets",
    anchor: "builtin.module",
    run,
};

const SIZE: &str = "ttg.global_scratch_memory_size";
const ALIGNMENT: &str = "ttg.global_scratch_memory_alignment";
const OFFSET: &str = "ttg.global_scratch_memory_offset";

fn run(module: OperationRef) -> PassResult {
    let m = module.to_raw();
    refuse_ops(m, PASS.argument, &["func.call"])?;
    let mut kernel = None;
    for op in ir::region_ops(ir::regions(m)[0]) {
        if !ir::is(op, "tt.func") {
            continue;
        }
        lay_out(op, &mut Vec::new())?;
        // SAFETY: an attribute of a live op.
        let private = ir::attribute(op, "sym_visibility")
            .and_then(|v| {
                tt_dialect::ir::string_value(unsafe { melior::ir::Attribute::from_raw(v) })
            })
            .is_some_and(|v| v == "private");
        if !private {
            kernel = Some(op);
        }
    }
    if let Some(kernel) = kernel {
        let (size, alignment) = laid_out(kernel).expect("the kernel was laid out");
        set_i32(m, SIZE, size);
        set_i32(m, ALIGNMENT, alignment);
    }
    Ok(())
}

/// A function's size and alignment, once laid out.
fn laid_out(function: MlirOperation) -> Option<(i64, i64)> {
    let read = |name| ir::attribute(function, name).and_then(ir::integer_attr_value);
    Some((read(SIZE)?, read(ALIGNMENT)?))
}

/// Lays out `function`'s buffers, after those of the functions it calls
/// that are not laid out yet; `calling` holds the functions whose layout
/// is under way, to catch recursion.
fn lay_out(function: MlirOperation, calling: &mut Vec<MlirOperation>) -> Result<(), Failure> {
    if laid_out(function).is_some() {
        return Ok(());
    }
    let ops = ir::collect_post(function, &|op| {
        ir::is(op, "ttg.global_scratch_alloc") || ir::is(op, "tt.call")
    });
    calling.push(function);
    let mut offset = 0i64;
    let mut largest = 1i64;
    for op in ops {
        let (bytes, alignment) = if ir::is(op, "tt.call") {
            let callee = ir::callee(op)
                .filter(|f| ir::is(*f, "tt.func"))
                .ok_or_else(|| refuse(op, PASS.argument, "a call of an unknown function"))?;
            if calling.iter().any(|f| f.ptr == callee.ptr) {
                return Err(refuse(op, PASS.argument, "recursive calls"));
            }
            lay_out(callee, calling)?;
            laid_out(callee).expect("the callee was laid out")
        } else {
            let read = |name| ir::attribute(op, name).and_then(ir::integer_attr_value);
            match (read("nbytes"), read("alignment")) {
                (Some(bytes), Some(alignment)) if alignment > 0 => (bytes, alignment),
                _ => {
                    return Err(refuse(
                        op,
                        PASS.argument,
                        "a 'ttg.global_scratch_alloc' without a positive alignment",
                    ))
                }
            }
        };
        if bytes == 0 {
            continue;
        }
        offset = round_up(offset, alignment);
        set_i32(op, OFFSET, offset);
        offset += bytes;
        largest = largest.max(alignment);
    }
    calling.pop();
    set_i32(function, SIZE, round_up(offset, largest));
    set_i32(function, ALIGNMENT, largest);
    Ok(())
}

fn round_up(value: i64, step: i64) -> i64 {
    (value + step - 1) / step * step
}
