//! `tritongpu-assign-latencies` (option `num-stages`, default 3): Triton
//! 3.6's `assignLatencies` for load latencies on Hopper and earlier.
//!
//! Candidate loops are the `scf.for`s that are innermost, yield no block
//! argument as is, and have more than one stage (their `tt.num_stages`, else
//! the option). If a candidate already carries `tt.latency` attributes,
//! those are kept. Otherwise each dot of the body (`tt.dot`,
//! `ttng.warp_group_dot`, ...) starts a walk back through its A and B
//! operands (not the accumulator) and the operands of the ops behind them
//! that are defined in the body; when the loop has its own `tt.num_stages`,
//! every non-load op of the body then starts such a walk too (ops already
//! walked from the last dot are skipped). Each `tt.load` reached that is worth pipelining
//! (`isPipeliningBeneficial`) records its indirection level (0 for the first
//! load on a walk, +1 per load behind it; a load reached at two levels is
//! dropped). Loads at a level `>= numStages - 1` are dropped, and the rest
//! get `tt.latency = (numStages - 1) / (maxLevel + 1)`.
//!
//! Worth pipelining: a tensor load whose AxisInfo vector (pointer
//! contiguity capped by the layout's per-thread contiguity and the mask's
//! constancy) is at least 32 bits wide, whose users agree on one shared
//! encoding (its `ttg.local_alloc`s, or the dot operand it converts to), and,
//! when stored by `ttg.local_alloc`, whose registers hold at least 4 bytes
//! that are contiguous in that shared encoding (the `cp.async` minimum).
//!
//! Descriptor loads and gathers (TMA) are always worth pipelining.
//!
//! Not supported yet, with an error at the op: Blackwell MMA ops in a
//! candidate loop (their latencies), loads whose users
//! need shared encodings this file cannot compare (two different dot
//! operands, memory-descriptor users other than `ttg.local_alloc`, shared
//! encodings other than swizzled and NVMMA).

use std::collections::HashSet;

use melior::{
    ir::{operation::OperationRef, Type, Value, ValueLike},
    pass::Pass,
};
use mlir_sys::MlirOperation;

use crate::analysis::axis_info::AxisInfoMap;
use crate::options::PassOptions;
use crate::rust_pass::{fail, Failure, PassResult, RustPass};
use crate::ttgir::pipelining::{self as pl, LATENCY, NUM_STAGES};
use crate::ttir::loop_support::ir::{self, Op};

/// The pass's flag.
pub const ARGUMENT: &str = "tritongpu-assign-latencies";

/// Parses `num-stages` (default 3).
pub fn parse_num_stages(options: &PassOptions) -> Result<i64, String> {
    options.int("num-stages", 3)
}

/// The pass; its `run` uses the default options.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUAssignLatencies",
    argument: ARGUMENT,
    description: "Assign latencies to the loads of pipelined loops (loops without dots)",
    anchor: "builtin.module",
    run: |op| run(op.to_raw(), 3),
};

/// Builds the pass from its options.
pub fn factory(options: &PassOptions) -> Result<Pass, String> {
    let num_stages = parse_num_stages(options)?;
    Ok(PASS.build_with(move |op| run(op.to_raw(), num_stages)))
}

fn error(op: MlirOperation, message: &str) -> Failure {
    fail(unsafe { OperationRef::from_raw(op) }, message)
}

/// The loop's stage count: its `tt.num_stages`, else the option.
fn num_stages_of(for_op: MlirOperation, default: i64) -> i64 {
    pl::int_attribute(for_op, NUM_STAGES).unwrap_or(default)
}

fn run(module: MlirOperation, default_stages: i64) -> PassResult {
    let loops: Vec<MlirOperation> = pl::for_loops(module)
        .into_iter()
        .filter(|&f| {
            !pl::loop_has_dist_greater_than_one(f)
                && !pl::is_outer_loop(f)
                && num_stages_of(f, default_stages) > 1
        })
        .collect();
    if loops.is_empty() {
        return Ok(());
    }
    let axis = AxisInfoMap::analyze(unsafe { OperationRef::from_raw(module) });
    let mut latencies: Vec<(MlirOperation, i64)> = Vec::new();
    for for_op in loops {
        let body = pl::body_ops(for_op);
        if let Some(&mma) = body.iter().find(|&&op| pl::is_mmav5(op)) {
            return Err(error(
                mma,
                &format!("{ARGUMENT}: latencies of Blackwell MMA ops are not supported yet"),
            ));
        }
        if body.iter().any(|&op| ir::attribute(op, LATENCY).is_some()) {
            // User-provided latencies are kept as they are.
            continue;
        }
        let num_stages = num_stages_of(for_op, default_stages);
        // Loads that feed no dot are pipelined only in loops with their own
        // `tt.num_stages`.
        let own_stages = ir::attribute(for_op, NUM_STAGES).is_some();
        let levels = indirection_levels(&body, &axis, own_stages)?;
        let levels: Vec<(MlirOperation, i64)> = levels
            .into_iter()
            .filter(|&(_, level)| level < num_stages - 1)
            .collect();
        let max_level = levels.iter().map(|&(_, l)| l).max().unwrap_or(0);
        let latency = (num_stages - 1) / (max_level + 1);
        latencies.extend(levels.into_iter().map(|(op, _)| (op, latency)));
    }
    for (op, latency) in latencies {
        pl::set_i32(op, LATENCY, latency);
    }
    Ok(())
}

/// Triton's `loadOpsToIndirectionLevel`: loads by first discovery, with
/// their level.
fn indirection_levels(
    body: &[MlirOperation],
    axis: &AxisInfoMap,
    own_stages: bool,
) -> Result<Vec<(MlirOperation, i64)>, Failure> {
    struct Walk<'a> {
        axis: &'a AxisInfoMap,
        seen: HashSet<Op>,
        excluded: HashSet<Op>,
        levels: Vec<(MlirOperation, i64)>,
    }
    impl Walk<'_> {
        fn dfs(&mut self, op: MlirOperation, mut distance: i64) -> PassResult {
            if !self.seen.insert(Op(op)) || self.excluded.contains(&Op(op)) {
                return Ok(());
            }
            // Descriptor (TMA) loads are always worth pipelining; a
            // `tt.load` that is not is walked through at the same level.
            let descriptor = ir::is(op, "tt.descriptor_load") || ir::is(op, "tt.descriptor_gather");
            if descriptor || (ir::is(op, "tt.load") && worth_pipelining(op, self.axis)?) {
                if let Some(i) = self.levels.iter().position(|&(o, _)| o.ptr == op.ptr) {
                    // Reached again from another dot: at another level it is
                    // dropped for good.
                    if self.levels[i].1 != distance {
                        self.levels.remove(i);
                        self.excluded.insert(Op(op));
                    }
                    return Ok(());
                }
                self.levels.push((op, distance));
                distance += 1;
            }
            let block = ir::op_block(op);
            // Only the A and B operands of a dot lead to its loads.
            let accumulator = pl::is_dot_like(op).then(|| ir::operand(op, 2));
            for v in pl::nested_operands(op) {
                if accumulator.is_some_and(|acc| ir::same_value(acc, v)) {
                    continue;
                }
                if let Some(def) = ir::defining_op(v) {
                    if ir::op_block(def).ptr == block.ptr {
                        self.dfs(def, distance)?;
                    }
                }
            }
            Ok(())
        }
    }
    let mut walk = Walk {
        axis,
        seen: HashSet::new(),
        excluded: HashSet::new(),
        levels: Vec::new(),
    };
    for &op in body {
        if pl::is_dot_like(op) || ir::is(op, "ttng.tmem_store") {
            walk.seen.clear();
            walk.dfs(op, 0)?;
        }
    }
    if own_stages {
        for &op in body {
            if !ir::is(op, "tt.load")
                && !ir::is(op, "tt.descriptor_load")
                && !ir::is(op, "tt.descriptor_gather")
            {
                walk.dfs(op, 0)?;
            }
        }
    }
    Ok(walk.levels)
}

/// Triton's `isPipeliningBeneficial` for a `tt.load`.
fn worth_pipelining(load: MlirOperation, axis: &AxisInfoMap) -> Result<bool, Failure> {
    if is_small_load(load, axis) {
        return Ok(false);
    }
    let result = ir::result(load, 0);
    if !users_agree_on_shared_encoding(result) {
        return Ok(false);
    }
    let mut alloc_encoding: Option<mlir_sys::MlirAttribute> = None;
    for (user, _) in ir::uses(result) {
        if !ir::is(user, "ttg.local_alloc") {
            continue;
        }
        let encoding = pl::encoding_of(ir::value_type(ir::result(user, 0)))
            .ok_or_else(|| error(user, "a ttg.local_alloc without a memory descriptor"))?;
        match alloc_encoding {
            Some(e) if !ir::same_attribute(e, encoding) => return Ok(false),
            _ => alloc_encoding = Some(encoding),
        }
    }
    if let Some(encoding) = alloc_encoding {
        let Some(bytes) = pl::copy_vec_bytes(result, encoding) else {
            return Err(error(
                load,
                &format!(
                    "{ARGUMENT}: pipelining a load stored to a shared encoding other than swizzled or NVMMA is not supported yet"
                ),
            ));
        };
        if bytes < 4 {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Triton's `canHaveSharedEncoding`: `false` when two users need different
/// shared encodings (`getSharedEncIfAllUsersAreDotEnc`'s `incompatible`).
fn users_agree_on_shared_encoding(value: mlir_sys::MlirValue) -> bool {
    let mut incompatible = false;
    pl::dot_users_shared_encoding(value, &mut incompatible);
    !incompatible
}

/// Triton's `isSmallLoad`: a tensor load whose copy vector is narrower
/// than 32 bits.
pub fn is_small_load(load: MlirOperation, axis: &AxisInfoMap) -> bool {
    let ptr = ir::operand(load, 0);
    let ptr_ty = unsafe { Type::from_raw(ir::value_type(ptr)) };
    let Some(tensor) = tt_dialect::types::Tensor::of(ptr_ty) else {
        // Scalar loads are not small: the pipeliner makes them one-element
        // tensors.
        return false;
    };
    let Some((pointee, _)) = tt_dialect::types::pointer_parts(tensor.element) else {
        return true;
    };
    if pl::order_and_contig(ptr).is_none() {
        return true;
    }
    let bits = tt_dialect::types::bit_width(pointee).unwrap_or(64);
    load_vector_width(load, axis) * bits < 32
}

/// The elements one copy of a tensor load moves: the pointers'
/// contiguity in the layout's fastest dimension, capped by the mask's
/// alignment (Triton's `getContiguity` / `getMaskAlignment`); 1 where the
/// layout is unknown.
pub fn load_vector_width(load: MlirOperation, axis: &AxisInfoMap) -> u32 {
    let ptr = ir::operand(load, 0);
    let Some((order, contig)) = pl::order_and_contig(ptr) else {
        return 1;
    };
    let order0 = order[0] as usize;
    let mut vec = axis.ptr_contiguity(unsafe { Value::from_raw(ptr) }, order0, contig[order0]);
    let load_ref = unsafe { OperationRef::from_raw(load) };
    let mask = tt_dialect::ir::segment(load_ref, 1).and_then(|m| m.first().map(|v| v.to_raw()));
    if let Some(mask) = mask {
        if let Some((mask_order, _)) = pl::order_and_contig(mask) {
            vec = vec
                .min(axis.mask_alignment(unsafe { Value::from_raw(mask) }, mask_order[0] as usize));
        } else {
            vec = vec.min(1);
        }
    }
    vec
}
