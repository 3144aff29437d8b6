//! The `make_ttgir` passes whose work belongs to the dot path (descriptor
//! encodings, warp specialization, TMA) or to other
//! hardware (tensor memory). None of their transformations
//! is implemented yet. Each pass here is a *gate*: it looks for the input
//! on which Triton 3.6's pass would change the IR and, on the first such
//! op, stops with a located error `'<flag>' does not support <what> yet`.
//! On any other module it leaves the IR exactly as it is, which is what
//! Triton's pass does there.
//!
//! The triggers are read from Triton's sources and err on the side of
//! refusing: a trigger may fire on input that Triton would in the end leave
//! alone (the pass then refuses input it could have passed through), never
//! the other way round.
//!
//! | flag | Triton changes the IR when the module has |
//! |---|---|
//! | `nvgpu-warp-specialization` | an `scf.for` marked `tt.warp_specialize` in a function with a `ttng.warp_group_dot` |
//! | `triton-nvidia-optimize-tmem-layouts` | tensor-memory ops (`ttng.tmem_*`; Blackwell, none on sm_90) |
//! | `triton-nvidia-interleave-tmem` | tensor-memory ops (`ttng.tmem_*`; Blackwell, none on sm_90) |

use melior::ir::operation::{OperationLike, OperationRef};

use tt_dialect::ir;

use crate::options::PassOptions;
use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttir::pointer_ir::op_name;

/// What a trigger found: the op and the words after "does not support".
type Found<'c, 'a> = Option<(OperationRef<'c, 'a>, String)>;

/// The first op under `module` (pre-order) for which `test` says what is
/// unsupported.
fn first<'c, 'a>(
    module: OperationRef<'c, 'a>,
    test: impl Fn(OperationRef<'c, 'a>) -> Option<String>,
) -> Found<'c, 'a> {
    let mut found = None;
    module.walk(melior::ir::operation::WalkOrder::PreOrder, |nested| {
        // The walk hands out references scoped to the callback; the op
        // itself lives as long as `module`.
        let op = unsafe { OperationRef::from_raw(nested.to_raw()) };
        match test(op) {
            Some(what) => {
                found = Some((op, what));
                melior::ir::operation::WalkResult::Interrupt
            }
            None => melior::ir::operation::WalkResult::Advance,
        }
    });
    found
}

/// Stops with `'<flag>' does not support <what> yet` at what `found` names,
/// followed by ` (<note>)` where there is a note.
fn refuse(flag: &str, found: Found, note: Option<&str>) -> PassResult {
    match found {
        None => Ok(()),
        Some((op, what)) => {
            let note = note.map(|n| format!(" ({n})")).unwrap_or_default();
            Err(fail(
                op,
                &format!("'{flag}' does not support {what} yet{note}"),
            ))
        }
    }
}

fn attr_is_true(op: OperationRef, attr: &str) -> bool {
    match op.attribute(attr) {
        Err(_) => false,
        Ok(value) => value.to_string() != "false",
    }
}

// ---------------------------------------------------------------- triggers

/// Triton's pass partitions a function only around its wgmma dots (their
/// operands' loads become the producer's), and only where one of its loops
/// is marked: a marked loop in a function without `ttng.warp_group_dot`
/// (any loop before sm_90) is left as it is.
fn warp_specialization(module: OperationRef) -> PassResult {
    let mut found = None;
    module.walk(melior::ir::operation::WalkOrder::PreOrder, |nested| {
        // SAFETY: the walk hands out references scoped to the callback;
        // the op itself lives as long as `module`, which outlives the walk.
        let func = unsafe { OperationRef::from_raw(nested.to_raw()) };
        if !ir::is_op(func, "tt.func") {
            return melior::ir::operation::WalkResult::Advance;
        }
        let marked = first(func, |op| {
            (ir::is_op(op, "scf.for") && attr_is_true(op, "tt.warp_specialize"))
                .then(|| "loops marked 'tt.warp_specialize' around a warp-group dot".into())
        });
        let has_wgmma = first(func, |op| {
            ir::is_op(op, "ttng.warp_group_dot").then(String::new)
        });
        if let (Some(marked), Some(_)) = (marked, has_wgmma) {
            found = Some(marked);
            return melior::ir::operation::WalkResult::Interrupt;
        }
        melior::ir::operation::WalkResult::Skip
    });
    // The hint is only a hint: the loop compiles, software-pipelined,
    // without it.
    refuse(
        "nvgpu-warp-specialization",
        found,
        Some("without `warp_specialize=True` on its `tl.range` the loop compiles, software-pipelined"),
    )
}

fn has_op_with_prefix(module: OperationRef, flag: &str, prefix: &str, what: &str) -> PassResult {
    refuse(
        flag,
        first(module, |op| {
            op_name(op).starts_with(prefix).then(|| what.to_owned())
        }),
        None,
    )
}

fn optimize_tmem_layouts(module: OperationRef) -> PassResult {
    has_op_with_prefix(
        module,
        "triton-nvidia-optimize-tmem-layouts",
        "ttng.tmem_",
        "tensor memory",
    )
}

fn interleave_tmem(module: OperationRef) -> PassResult {
    has_op_with_prefix(
        module,
        "triton-nvidia-interleave-tmem",
        "ttng.tmem_",
        "tensor memory",
    )
}

// ------------------------------------------------------------------ passes

const fn gate(
    name: &'static str,
    argument: &'static str,
    description: &'static str,
    run: for<'c, 'a> fn(OperationRef<'c, 'a>) -> PassResult,
) -> RustPass {
    RustPass {
        name,
        argument,
        description,
        anchor: "builtin.module",
        run,
    }
}

pub static WARP_SPECIALIZATION: RustPass = gate(
    "NVGPUWarpSpecialization",
    "nvgpu-warp-specialization",
    "Hopper warp specialization of loops marked tt.warp_specialize (not yet: refuses them, otherwise a no-op)",
    warp_specialization,
);
pub static OPTIMIZE_TMEM_LAYOUTS: RustPass = gate(
    "TritonNvidiaGPUOptimizeTMemLayoutsPass",
    "triton-nvidia-optimize-tmem-layouts",
    "Tensor-memory layouts (Blackwell; a no-op on sm_90, refuses tensor-memory ops)",
    optimize_tmem_layouts,
);
pub static INTERLEAVE_TMEM: RustPass = gate(
    "TritonNvidiaGPUInterleaveTMemPass",
    "triton-nvidia-interleave-tmem",
    "Interleave tensor-memory loads (Blackwell; a no-op on sm_90, refuses tensor-memory ops)",
    interleave_tmem,
);

// ----------------------------------------------------------------- options

/// `nvgpu-warp-specialization{num-stages=0 dump-intermediate-steps=false}`:
/// the options are checked; neither changes which loops are refused.
pub fn warp_specialization_factory(options: &PassOptions) -> Result<melior::pass::Pass, String> {
    options.int("num-stages", 0)?;
    options.flag("dump-intermediate-steps", false)?;
    Ok(WARP_SPECIALIZATION.build())
}
