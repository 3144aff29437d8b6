//! `tritongpu-pipeline` (options `num-stages`, default 3, and
//! `dump-intermediate-steps`, default false, which prints the module to
//! stderr after steps 1 and 2 as Triton does): Triton 3.6's software
//! pipeliner for the loops that `tritongpu-schedule-loops` scheduled. The
//! steps are Triton's, each in its own module:
//!
//! 1. lower loops ([`pipeline_lower`](super::pipeline_lower)): loads read
//!    in a later stage become asynchronous copies into rings of shared
//!    buffers, with loop-carried insert and extract counters; tensor
//!    descriptors made in the loop are written into multi-buffered global
//!    scratch slots ([`pipeline_tma_stores`](super::pipeline_tma_stores));
//! 2. expand loops ([`pipeline_expand`](super::pipeline_expand)): the
//!    prologue and the kernel loop of the modulo schedule, ops of early
//!    stages masked, then the module folded and the masks resolved into
//!    predicated copies and loads. A lowered loop whose schedule runs an op
//!    before its operands is left unexpanded with Triton's warning
//!    ("operation scheduled before its operands");
//! 3. the pipelining attributes are removed;
//! 4. wgmma pipelining and wait counts
//!    ([`pipeline_waits`](super::pipeline_waits)): every
//!    `ttng.warp_group_dot` in a loop becomes asynchronous with the
//!    `ttng.warp_group_dot_wait`s Triton places, and every `ttg.async_wait`
//!    gets its count of groups still in flight, consecutive waits merged;
//! 5. the module is folded again (Triton's arith canonicalization);
//! 6. tensor-descriptor stores of loops with more than one stage become
//!    asynchronous TMA stores
//!    ([`pipeline_tma_stores`](super::pipeline_tma_stores)).
//!
//! Step 1 lowers Blackwell MMAs too ([`pipeline_mma`](super::pipeline_mma)).
//! `tritongpu-test-pipeline-lower-loop` runs step 1 alone and leaves the
//! schedule on the ops.
//!
//! What this project does not pipeline yet is refused, before anything
//! changes (or, for a wgmma Triton would split, where it is found), with a
//! located error: tensor descriptors made under ops other
//! than `scf.if`, shared copies read through views other than transposes,
//! several CTAs, other schedules the expander could not honour,
//! rank-reducing descriptor loads.

use melior::ir::operation::{OperationLike, OperationPrintingFlags, OperationRef};
use melior::pass::Pass;
use mlir_sys::MlirOperation;
use tt_dialect::ir::{emit_op_diagnostic, Severity};
use tt_dialect::rewrite::{apply_greedily, Greedy};

use crate::analysis::axis_info::AxisInfoMap;
use crate::options::PassOptions;
use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttgir::assign_latencies::parse_num_stages;
use crate::ttgir::pipeline_expand as expand;
use crate::ttgir::pipeline_lower as lower;
use crate::ttgir::pipeline_tma_stores as tma_stores;
use crate::ttgir::pipeline_waits as waits;
use crate::ttgir::pipelining::{self as pl, CLUSTER, SCHEDULED_MAX_STAGE, STAGE};
use crate::ttir::loop_support::ir;

/// The pass's flag.
pub const ARGUMENT: &str = "tritongpu-pipeline";

/// The pass; the options change nothing once checked (the schedule fixes
/// the stages), so the factory only validates them.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUPipeline",
    argument: ARGUMENT,
    description: "Software-pipeline the scheduled loops",
    anchor: "builtin.module",
    run,
};

/// Builds the pass from its options; `dump-intermediate-steps` prints the
/// module after lowering and after expanding the loops to stderr, under
/// Triton's headers, for comparison with Triton's own dumps.
pub fn factory(options: &PassOptions) -> Result<Pass, String> {
    let stages = parse_num_stages(options)?;
    let dump = options.flag("dump-intermediate-steps", false)?;
    Ok(PASS.build_with(move |op| pipeline(op, dump, stages)))
}

fn run(module_ref: OperationRef) -> PassResult {
    pipeline(module_ref, false, 3)
}

/// `tritongpu-test-pipeline-lower-loop`: only step 1 (Triton's
/// `lowerLoops`) on every scheduled loop, innermost first, its schedule
/// left on the ops (clusters renumbered from 0, as Triton's schedule
/// round trip does).
pub static TEST_LOWER_LOOP: RustPass = RustPass {
    name: "TritonGPUTestPipelineLowerLoop",
    argument: "tritongpu-test-pipeline-lower-loop",
    description:
        "Test only: lower the loads and MMAs of scheduled loops (the pipeliner's first step)",
    anchor: "builtin.module",
    run: test_lower_loop,
};

fn test_lower_loop(module_ref: OperationRef) -> PassResult {
    let module = module_ref.to_raw();
    let axis = AxisInfoMap::analyze(module_ref);
    let loops: Vec<_> = ir::collect_post(module, &|op| ir::is(op, "scf.for"))
        .into_iter()
        .filter(|&l| ir::attribute(l, SCHEDULED_MAX_STAGE).is_some())
        .collect();
    for for_op in loops {
        lower::lower_loop(for_op, &axis)?;
    }
    Ok(())
}

/// Triton's warning that `consumer` is scheduled before `producer`, which
/// defines one of its operands, and that the loop is not pipelined.
fn warn_op_before_operands(consumer: MlirOperation, producer: MlirOperation) {
    // SAFETY: both are live ops of the loop being pipelined.
    let (consumer, producer) = unsafe {
        (
            OperationRef::from_raw(consumer),
            OperationRef::from_raw(producer),
        )
    };
    let generic = producer
        .to_string_with_flags(OperationPrintingFlags::new().print_generic_operation_form())
        .unwrap_or_else(|_| ir::name(producer.to_raw()));
    emit_op_diagnostic(
        consumer,
        Severity::Warning,
        "operation scheduled before its operands. Pipelining will be disabled.",
        &[(
            Some(producer.location()),
            format!("operand defined here: {generic}"),
        )],
    );
}

/// Prints `module` after step `step`, as Triton's
/// `dump-intermediate-steps` does.
fn dump_step(module: OperationRef, step: &str) {
    eprintln!("// -----// SoftwarePipeliner internal IR Dump After: {step}\n{module}\n\n");
}

fn pipeline(module_ref: OperationRef, dump: bool, num_stages: i64) -> PassResult {
    let module = module_ref.to_raw();
    let loops: Vec<_> = pl::for_loops(module)
        .into_iter()
        .filter(|&l| ir::attribute(l, SCHEDULED_MAX_STAGE).is_some())
        .collect();
    let axis = AxisInfoMap::analyze(module_ref);
    if !loops.is_empty()
        && ir::attribute(module, "ttg.num-ctas").and_then(ir::integer_attr_value) != Some(1)
    {
        return Err(fail(
            unsafe { OperationRef::from_raw(loops[0]) },
            &format!("{ARGUMENT}: pipelining with more than one CTA is not supported yet"),
        ));
    }
    for &for_op in &loops {
        let schedule = expand::final_schedule(for_op).expect("the loop is scheduled");
        expand::check(for_op, &schedule, true)?;
        // What the loads need is checked before anything changes; they
        // are planned again after the MMAs are lowered.
        let planned = lower::plan(for_op, &axis)?;
        lower::remark_register_pipelined(for_op, &planned);
    }
    tma_stores::check(module, num_stages)?;
    let lowered: Vec<_> = loops
        .iter()
        .map(|&for_op| lower::lower_loop(for_op, &axis))
        .collect::<Result<_, _>>()?;
    if dump {
        dump_step(module_ref, "LowerLoops");
    }
    for for_op in lowered {
        let schedule = expand::final_schedule(for_op).expect("the loop is scheduled");
        if let Some((consumer, producer)) = expand::op_before_operands(for_op, &schedule) {
            // Triton's expander gives up on such a loop with this warning
            // and leaves it lowered but not expanded: each iteration waits
            // for its own copies.
            warn_op_before_operands(consumer, producer);
            continue;
        }
        expand::check(for_op, &schedule, false)?;
        expand::expand(for_op, &schedule);
    }
    expand::resolve_masks(module_ref);
    if dump {
        dump_step(module_ref, "ExpandLoops");
    }
    ir::walk_pre(module, &mut |op| {
        for name in [STAGE, CLUSTER, SCHEDULED_MAX_STAGE] {
            if ir::attribute(op, name).is_some() {
                ir::remove_attribute(op, name);
            }
        }
    });
    // Loops whose stage count is 0 (those `nvgpu-warp-specialization` left
    // to its partitions) keep their dots synchronous, as in Triton.
    for for_op in pl::for_loops(module) {
        if pl::num_stages_or_default(for_op, num_stages) >= 1 {
            waits::async_launch_dots(for_op)?;
        }
    }
    waits::update_waits(module);
    apply_greedily(
        module_ref,
        &[],
        Greedy {
            fold: true,
            top_down: false,
        },
    );
    tma_stores::pipeline_tma_stores(module, num_stages)
}
