//! `nvgpu-warp-specialization`: Triton 3.6's Hopper warp specialization of
//! loops marked `tt.warp_specialize` (`tl.range(..., warp_specialize=True)`),
//! which runs in `make_ttgir` for sm_80 to sm_90.
//!
//! Triton's pass looks at each function with a marked loop. It leaves the
//! function alone, marks and all, when the function's warp count is not 4
//! or when it has an `scf.if` with an else region (its code partitioner
//! cannot place values across two branches). Otherwise it partitions the
//! function into a producer warp group, which issues the loads feeding the
//! `ttng.warp_group_dot`s, and consumer warp groups, which run the dots;
//! then it sets `tt.num_stages = 0` on every loop of the function, which
//! turns software pipelining off for them.
//!
//! The partitioning itself (task partition, data partition, code partition,
//! barrier tokens) is not implemented here: a function with both a
//! warp-group dot and a `tt.load` or `tt.descriptor_load` is refused with a
//! located error at its first marked loop. Where Triton finds nothing to
//! partition (no warp-group dot, which is every function before sm_90, or
//! no load), its pass only sets `tt.num_stages = 0` on the function's loops,
//! and so does this one.

use melior::ir::operation::OperationRef;
use mlir_sys::MlirOperation;

use crate::options::PassOptions;
use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttir::loop_support::ir;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "NVGPUWarpSpecialization",
    argument: "nvgpu-warp-specialization",
    description: "Hopper warp specialization of loops marked tt.warp_specialize (partitioning not yet: refused; where Triton has nothing to partition, its loops' pipelining turned off as Triton does)",
    anchor: "builtin.module",
    run,
};

/// `nvgpu-warp-specialization{num-stages=0 dump-intermediate-steps=false}`:
/// the options are checked; Triton 3.6 reads neither where it does not
/// partition.
pub fn factory(options: &PassOptions) -> Result<melior::pass::Pass, String> {
    options.int("num-stages", 0)?;
    options.flag("dump-intermediate-steps", false)?;
    Ok(PASS.build())
}

fn run(module: OperationRef) -> PassResult {
    for func in ir::collect_post(module.to_raw(), &|op| ir::is(op, "tt.func")) {
        specialize(func)?;
    }
    Ok(())
}

/// The ops under `root` (itself excluded) that `keep` accepts, in program
/// order.
fn ops_where(root: MlirOperation, keep: impl Fn(MlirOperation) -> bool) -> Vec<MlirOperation> {
    let mut found = Vec::new();
    ir::walk_pre(root, &mut |op| {
        if op.ptr != root.ptr && keep(op) {
            found.push(op);
        }
    });
    found
}

fn specialize(func: MlirOperation) -> PassResult {
    let loops = ops_where(func, |op| ir::is(op, "scf.for"));
    let Some(&marked) = loops
        .iter()
        .find(|&&l| ir::attribute(l, "tt.warp_specialize").is_some())
    else {
        return Ok(());
    };
    if ir::lookup_num_warps(func) != Some(4) {
        return Ok(());
    }
    let has = |keep: &dyn Fn(MlirOperation) -> bool| !ops_where(func, keep).is_empty();
    if has(&|op| {
        ir::is(op, "scf.if")
            && ir::regions(op)
                .get(1)
                .is_some_and(|r| !ir::blocks(*r).is_empty())
    }) {
        return Ok(());
    }
    if has(&|op| ir::is(op, "ttng.warp_group_dot"))
        && has(&|op| ir::is(op, "tt.load") || ir::is(op, "tt.descriptor_load"))
    {
        // SAFETY: the loop is a live op of the module the pass runs on.
        return Err(fail(
            unsafe { OperationRef::from_raw(marked) },
            "'nvgpu-warp-specialization' does not support loops marked 'tt.warp_specialize' around \
             a warp-group dot yet (without `warp_specialize=True` on its `tl.range` the loop \
             compiles, software-pipelined)",
        ));
    }
    let zero = ir::integer_attr(ir::i32_type(ir::context(func)), 0);
    for l in loops {
        ir::set_attribute(l, "tt.num_stages", zero);
    }
    Ok(())
}
