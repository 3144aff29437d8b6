//! `allocate-shared-memory-nv` and `allocate-shared-memory`: Triton 3.6's
//! shared-memory allocation passes. Each `tt.func` is allocated by
//! [`crate::allocation`]; every buffer's owner gets `allocation.offset`
//! (an `i32` byte offset) and the module gets `ttg.shared` (`i32`), the
//! largest function's size. The NVIDIA variant's options
//! (`compute-capability`, `ptx-version`, default 80) only change the
//! scratch of layout conversions; here that scratch follows the module's
//! `ttg.target` instead (the lowering reads the same), so both passes do
//! the same, the NVIDIA one's (Triton's generic pass considers
//! `ld.shared`/`st.shared` only). Modules over several CTAs, function calls and the
//! ops [`crate::allocation::scratch_bytes`] refuses stop the pass with a
//! located "'<pass>' does not support ... yet" error.

use melior::{ir::operation::OperationRef, pass::Pass};
use tt_passes::{
    options::PassOptions,
    rust_pass::{fail, PassResult, RustPass},
    ttir::loop_support::ir,
};

use crate::allocation::allocate_function;

/// `allocate-shared-memory-nv` with its default options.
pub static NV_PASS: RustPass = RustPass {
    name: "AllocateSharedMemoryNv",
    argument: "allocate-shared-memory-nv",
    description: "Add metadata for shared memory allocation for Nvidia",
    anchor: "builtin.module",
    run: run_nv,
};

/// `allocate-shared-memory`.
pub static PASS: RustPass = RustPass {
    name: "AllocateSharedMemory",
    argument: "allocate-shared-memory",
    description: "Add metadata for shared memory allocation",
    anchor: "builtin.module",
    run: run_generic,
};

/// Builds `allocate-shared-memory-nv{compute-capability=.. ptx-version=..}`.
pub fn nv_factory(options: &PassOptions) -> Result<Pass, String> {
    for key in ["compute-capability", "ptx-version"] {
        if let Some(text) = options.get(key) {
            text.parse::<i32>().map_err(|_| {
                format!("invalid value '{text}' for option '{key}': expected an integer")
            })?;
        }
    }
    Ok(NV_PASS.build())
}

fn run_nv(module: OperationRef) -> PassResult {
    allocate(module, NV_PASS.argument)
}

fn run_generic(module: OperationRef) -> PassResult {
    allocate(module, PASS.argument)
}

fn allocate(module: OperationRef, flag: &str) -> PassResult {
    let m = module.to_raw();
    let refuse = |op, what: &str| {
        fail(
            unsafe { OperationRef::from_raw(op) },
            &format!("'{flag}' does not support {what} yet"),
        )
    };
    let funcs: Vec<_> = ir::region_ops(ir::regions(m)[0])
        .into_iter()
        .filter(|&op| ir::is(op, "tt.func"))
        .collect();
    let ctx = ir::context(m);
    let i32_ty = ir::i32_type(ctx);
    let mut total = 0;
    for func in funcs {
        let allocation = allocate_function(func).map_err(|e| refuse(e.op, &e.what))?;
        for crate::allocation::Allocated { owner, offset, .. } in allocation.buffers {
            let Ok(offset) = i32::try_from(offset) else {
                return Err(refuse(owner, "offsets beyond 2^31"));
            };
            ir::set_attribute(
                owner,
                "allocation.offset",
                ir::integer_attr(i32_ty, offset.into()),
            );
        }
        total = total.max(allocation.size);
    }
    let Ok(total) = i32::try_from(total) else {
        return Err(refuse(m, "more than 2^31 bytes of shared memory"));
    };
    ir::set_attribute(m, "ttg.shared", ir::integer_attr(i32_ty, total.into()));
    Ok(())
}
