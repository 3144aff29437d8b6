//! `triton-nvidia-mma-lowering`: the late rewrites of Blackwell MMA ops
//! (`ttng.tc_gen5_mma`, `ttng.tc_gen5_mma_scaled`) before the lowering, as
//! Triton 3.6's `TritonNvidiaGPUMMALoweringPass` does:
//!
//! - a synchronous MMA becomes an asynchronous one that signals a fresh
//!   mbarrier (`local_alloc`, `init_barrier` with count 1, the barrier added
//!   to the MMA's completion barriers), waited for right after it (phase 0,
//!   under the MMA's predicate) and then invalidated;
//! - the scales of a scaled MMA that sit in shared memory are copied into
//!   tensor memory (`tmem_alloc` of `#ttng.tensor_memory_scales_encoding`,
//!   M or N rows by the rest, and `tmem_copy`), which the MMA then reads;
//! - the `ttng.tc_gen5_commit`s that follow an MMA, across pure ops only,
//!   become completion barriers of the MMA when its predicate is true or is
//!   the commit's (a commit without a predicate signals under `true`); the
//!   pure ops that compute a commit's barrier or predicate after the MMA
//!   move above it, and a commit whose operands cannot move stops the
//!   merging.
//!
//! As Triton applies these through the greedy driver, the pass ends with a
//! greedy clean-up (folds, constants hoisted, dead ops erased). Scales
//! read through a subview, and synchronous MMAs in multi-CTA modules, are
//! refused with a located error.

use melior::ir::operation::OperationRef;
use mlir_sys::{MlirOperation, MlirValue};

use tt_dialect::rewrite::{apply_greedily, Greedy};
use ttg_dialect::layout::{memory_space, MemDesc, MemorySpace};

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttir::loop_support::effects::is_pure;
use crate::ttir::loop_support::ir;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonNvidiaGPUMMALoweringPass",
    argument: "triton-nvidia-mma-lowering",
    description: "Late lowering of Blackwell MMA ops: synchronous MMAs wait on a barrier, scales in shared memory move to tensor memory, commits merge into the MMA",
    anchor: "builtin.module",
    run,
};

const MMA: &str = "ttng.tc_gen5_mma";
const MMA_SCALED: &str = "ttng.tc_gen5_mma_scaled";

fn run(module: OperationRef) -> PassResult {
    let root = module;
    let module = module.to_raw();
    let mmas = ir::collect_post(module, &|op| ir::is(op, MMA) || ir::is(op, MMA_SCALED));
    let located = |op: MlirOperation, message: String| {
        // SAFETY: `op` is a live op of the module the pass runs on.
        fail(unsafe { OperationRef::from_raw(op) }, &message)
    };
    for &mma in &mmas {
        lower_sync(module, mma).map_err(|m| located(mma, m))?;
        if ir::is(mma, MMA_SCALED) {
            scales_to_tmem(mma).map_err(|m| located(mma, m))?;
        }
    }
    for &mma in &mmas {
        merge_commits(mma);
    }
    if !apply_greedily(root, &[], Greedy::default()) {
        return Err(fail(root, "the greedy cleanup did not converge"));
    }
    Ok(())
}

/// The operand segments of an MMA: sizes, and where the predicate, the
/// barriers and the barrier predicates segments are.
struct Segments {
    sizes: Vec<i32>,
    pred: usize,
    barriers: usize,
}

fn segments(mma: MlirOperation) -> Option<Segments> {
    let sizes = ir::attribute(mma, "operandSegmentSizes").and_then(ir::dense_i32_array)?;
    // tc_gen5_mma: a, b, d, acc_dep, useD, pred, barriers, barrier_preds;
    // the scaled one has a_scale and b_scale after acc_dep.
    let pred = if ir::is(mma, MMA_SCALED) { 7 } else { 5 };
    (sizes.len() == pred + 3).then_some(Segments {
        sizes,
        pred,
        barriers: pred + 1,
    })
}

/// The first operand of segment `segment`.
fn segment_start(sizes: &[i32], segment: usize) -> usize {
    sizes[..segment].iter().map(|&n| n as usize).sum()
}

fn predicate(mma: MlirOperation) -> Option<MlirValue> {
    let s = segments(mma)?;
    Some(ir::operand(mma, segment_start(&s.sizes, s.pred)))
}

/// `addCompletionBarrier`: `barrier` signalled under `pred` when the MMA
/// completes.
fn add_completion_barrier(mma: MlirOperation, barrier: MlirValue, pred: MlirValue) {
    let Some(mut s) = segments(mma) else {
        return;
    };
    let mut operands = ir::operands(mma);
    let barriers_end = segment_start(&s.sizes, s.barriers + 1);
    operands.insert(barriers_end, barrier);
    s.sizes[s.barriers] += 1;
    let preds_end = segment_start(&s.sizes, s.barriers + 2);
    operands.insert(preds_end, pred);
    s.sizes[s.barriers + 1] += 1;
    let attr = ir::dense_i32_array_attr(ir::context(mma), &s.sizes);
    // SAFETY: `mma` is live; the new operands are values of its block's
    // scope (the caller checked their definitions come before it) and the
    // segment sizes add up to their count.
    unsafe {
        mlir_sys::mlirOperationSetOperands(mma, operands.len() as isize, operands.as_ptr());
        mlir_sys::mlirOperationSetInherentAttributeByName(
            mma,
            melior::StringRef::new("operandSegmentSizes").to_raw(),
            attr,
        );
    }
}

fn constant(before: MlirOperation, text: &str, ty: &str) -> Result<MlirValue, String> {
    let ctx = ir::context(before);
    let value = ir::parse_attribute(ctx, text).ok_or_else(|| format!("cannot build {text}"))?;
    let ty = ir::parse_type(ctx, ty).ok_or_else(|| format!("cannot build {ty}"))?;
    let op = ir::create_op(
        "arith.constant",
        ir::location(before),
        &[],
        &[ty],
        &[("value", value)],
        Vec::new(),
    );
    ir::insert_before(before, op);
    Ok(ir::result(op, 0))
}

/// `SyncMMALowering`.
fn lower_sync(module: MlirOperation, mma: MlirOperation) -> Result<(), String> {
    if ir::attribute(mma, "is_async").is_some() {
        return Ok(());
    }
    let num_ctas = ir::attribute(module, "ttg.num-ctas")
        .and_then(ir::integer_attr_value)
        .unwrap_or(1);
    if num_ctas != 1 {
        return Err(format!(
            "'{}' does not support synchronous MMAs in {num_ctas}-CTA modules yet",
            PASS.argument
        ));
    }
    let ctx = ir::context(mma);
    let loc = ir::location(mma);
    let barrier_text = "!ttg.memdesc<1xi64, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory, mutable>";
    let barrier_ty = ir::parse_type(ctx, barrier_text).ok_or("cannot build the barrier type")?;
    let alloc = ir::create_op("ttg.local_alloc", loc, &[], &[barrier_ty], &[], Vec::new());
    ir::insert_before(mma, alloc);
    let barrier = ir::result(alloc, 0);
    let count = ir::parse_attribute(ctx, "1 : i32").ok_or("cannot build the count")?;
    let init = ir::create_op(
        "ttng.init_barrier",
        loc,
        &[barrier],
        &[],
        &[("count", count)],
        Vec::new(),
    );
    ir::insert_before(mma, init);
    let always = constant(mma, "true", "i1")?;
    add_completion_barrier(mma, barrier, always);
    let unit = ir::parse_attribute(ctx, "unit").ok_or("cannot build a unit attribute")?;
    ir::set_attribute(mma, "is_async", unit);
    let pred = predicate(mma).ok_or("an MMA without a predicate")?;
    let inval = ir::create_op("ttng.inval_barrier", loc, &[barrier], &[], &[], Vec::new());
    ir::insert_after(mma, inval);
    let phase = constant(inval, "0 : i32", "i32")?;
    let segments = ir::dense_i32_array_attr(ctx, &[1, 1, 1, 0]);
    let wait = ir::create_op(
        "ttng.wait_barrier",
        loc,
        &[barrier, phase, pred],
        &[],
        &[("operandSegmentSizes", segments)],
        Vec::new(),
    );
    ir::insert_before(inval, wait);
    Ok(())
}

/// `TCGen5MMAScaleSharedToTmemConversion`.
fn scales_to_tmem(mma: MlirOperation) -> Result<(), String> {
    let Some(s) = segments(mma) else {
        return Err("a scaled MMA without operand segments".into());
    };
    let desc = |i: usize| MemDesc::of(unsafe_type(ir::value_type(ir::operand(mma, i))));
    let (a_scale, b_scale) = (segment_start(&s.sizes, 4), segment_start(&s.sizes, 5));
    let (Some(a), Some(b)) = (desc(0), desc(1)) else {
        return Err("expected memory descriptors for A and B".into());
    };
    let (Some(&block_m), Some(&block_n)) = (a.shape.first(), b.shape.last()) else {
        return Err("expected 2-D operands".into());
    };
    for (index, rows) in [(a_scale, block_m), (b_scale, block_n)] {
        let Some(scale) = desc(index) else {
            return Err("expected memory descriptors for the scales".into());
        };
        if memory_space(scale.memory_space) != Some(MemorySpace::Shared) {
            continue;
        }
        if scale.shape != scale.alloc_shape {
            return Err("scales in a subview of shared memory are not supported yet".into());
        }
        let elements: i64 = scale.shape.iter().product();
        if rows <= 0 || elements % rows != 0 {
            return Err(format!(
                "{elements} scales do not split over the MMA's {rows} rows"
            ));
        }
        let ty_text = format!(
            "!ttg.memdesc<{rows}x{}x{}, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory, mutable>",
            elements / rows,
            scale.element
        );
        let ty = ir::parse_type(ir::context(mma), &ty_text)
            .ok_or_else(|| format!("cannot build {ty_text}"))?;
        let loc = ir::location(mma);
        let alloc = ir::create_op("ttng.tmem_alloc", loc, &[], &[ty], &[], Vec::new());
        ir::insert_before(mma, alloc);
        let tmem = ir::result(alloc, 0);
        let copy = ir::create_op(
            "ttng.tmem_copy",
            loc,
            &[ir::operand(mma, index), tmem],
            &[],
            &[],
            Vec::new(),
        );
        ir::insert_before(mma, copy);
        ir::set_operand(mma, index, tmem);
    }
    Ok(())
}

fn unsafe_type(ty: mlir_sys::MlirType) -> melior::ir::Type<'static> {
    // SAFETY: `ty` is a live type of the module's context, which outlives
    // the pass; the wrapper only reads it.
    unsafe { melior::ir::Type::from_raw(ty) }
}

fn is_constant_true(v: MlirValue) -> bool {
    ir::defining_op(v)
        .filter(|d| ir::is(*d, "arith.constant"))
        .and_then(|d| ir::attribute(d, "value"))
        .and_then(ir::integer_attr_value)
        .is_some_and(|n| n != 0)
        && ir::integer_width(ir::value_type(v)) == Some(1)
}

/// `collectCommitOpsAfter`: the commits after `mma` (across pure ops) that
/// may become its completion barriers, with their predicates.
fn commits_after(mma: MlirOperation) -> Vec<(MlirOperation, Option<MlirValue>)> {
    let Some(mma_pred) = predicate(mma) else {
        return Vec::new();
    };
    let mut commits = Vec::new();
    let mut next = ir::next_op(mma);
    while let Some(op) = next {
        if ir::is(op, "ttng.tc_gen5_commit") {
            let pred = (ir::operand_count(op) > 1).then(|| ir::operand(op, 1));
            if !is_constant_true(mma_pred) && pred.map(|p| p.ptr) != Some(mma_pred.ptr) {
                break;
            }
            commits.push((op, pred));
        } else if !is_pure(op) {
            break;
        }
        next = ir::next_op(op);
    }
    commits
}

/// `moveDefiningOpsBefore`: moves the pure ops of `target`'s block that
/// compute `value` after `target` above it; `false` (and nothing moved)
/// when one of them is not pure.
fn move_defining_ops_before(value: MlirValue, target: MlirOperation) -> bool {
    fn collect(value: MlirValue, target: MlirOperation, out: &mut Vec<MlirOperation>) -> bool {
        let Some(def) = ir::defining_op(value) else {
            return true;
        };
        if ir::op_block(def).ptr != ir::op_block(target).ptr || !ir::is_before(target, def) {
            return true;
        }
        if !is_pure(def) {
            return false;
        }
        for operand in ir::operands(def) {
            if !collect(operand, target, out) {
                return false;
            }
        }
        if !out.iter().any(|o| o.ptr == def.ptr) {
            out.push(def);
        }
        true
    }
    let mut to_move = Vec::new();
    if !collect(value, target, &mut to_move) {
        return false;
    }
    for op in to_move {
        ir::move_before(op, target);
    }
    true
}

/// `MergeCommitIntoMMA`.
fn merge_commits(mma: MlirOperation) {
    for (commit, pred) in commits_after(mma) {
        let pred = match pred {
            Some(p) => p,
            None => match constant(mma, "true", "i1") {
                Ok(p) => p,
                Err(_) => break,
            },
        };
        let barrier = ir::operand(commit, 0);
        if !move_defining_ops_before(barrier, mma) || !move_defining_ops_before(pred, mma) {
            break;
        }
        add_completion_barrier(mma, barrier, pred);
        ir::erase(commit);
    }
}
