//! `tritongpu-assign-latencies` (option `num-stages`, default 3): Triton
//! 3.6's `assignLatencies` for loops without dots.
//!
//! Candidate loops are the `scf.for`s that are innermost, yield no block
//! argument as is, and have more than one stage (their `tt.num_stages`, else
//! the option). If a candidate already carries `tt.latency` attributes,
//! those are kept. Otherwise, when the loop has its own `tt.num_stages`,
//! every non-load op of the body starts a walk back through the operands
//! defined in the body; each `tt.load` reached that is worth pipelining (a
//! tensor load whose AxisInfo vector — pointer contiguity capped by the
//! layout's per-thread contiguity and the mask's constancy — is at least 32
//! bits wide) records its indirection level (0 for the first load on a walk,
//! +1 per load behind it; a load seen at two levels is dropped). Loads at a
//! level `>= numStages - 1` are dropped, and the rest get
//! `tt.latency = (numStages - 1) / (maxLevel + 1)`.
//!
//! Not supported yet, with an error at the op: dot-like ops in a candidate
//! loop (Triton pipelines their operands), descriptor loads, and loads whose
//! users need a particular shared encoding (`ttg.local_alloc`, dot-operand
//! layouts).

use std::collections::{HashMap, HashSet};

use melior::{
    ir::{operation::OperationRef, Type, Value, ValueLike},
    pass::Pass,
};
use mlir_sys::MlirOperation;
use ttg_dialect::layout::Layout;

use crate::analysis::axis_info::AxisInfoMap;
use crate::options::PassOptions;
use crate::rust_pass::{fail, Failure, PassResult, RustPass};
use crate::ttgir::pipelining::{self as pl, LATENCY, NUM_STAGES};
use crate::ttir::loop_support::ir::{self, Op};

/// The pass's flag.
pub const ARGUMENT: &str = "tritongpu-assign-latencies";

/// Parses `num-stages` (default 3).
pub fn parse_num_stages(options: &PassOptions) -> Result<i64, String> {
    match options.get("num-stages") {
        None => Ok(3),
        Some(text) => text.parse::<i64>().map_err(|_| {
            format!("invalid value '{text}' for option 'num-stages': expected an integer")
        }),
    }
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
        if let Some(&dot) = body.iter().find(|&&op| pl::is_dot_like(op)) {
            return Err(error(
                dot,
                &format!("{ARGUMENT}: pipelining loops with dot operations is not supported yet"),
            ));
        }
        if body.iter().any(|&op| ir::attribute(op, LATENCY).is_some()) {
            // User-provided latencies are kept as they are.
            continue;
        }
        let num_stages = num_stages_of(for_op, default_stages);
        if ir::attribute(for_op, NUM_STAGES).is_none() {
            // Without dots, only loops with their own `tt.num_stages`
            // pipeline loads.
            continue;
        }
        let levels = indirection_levels(&body, &axis)?;
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

/// Triton's `loadOpsToIndirectionLevel` without dots: loads by first
/// discovery, with their level.
fn indirection_levels(
    body: &[MlirOperation],
    axis: &AxisInfoMap,
) -> Result<Vec<(MlirOperation, i64)>, Failure> {
    struct Walk<'a> {
        axis: &'a AxisInfoMap,
        seen: HashSet<Op>,
        excluded: HashSet<Op>,
        levels: Vec<(MlirOperation, i64)>,
        index: HashMap<Op, usize>,
    }
    impl Walk<'_> {
        fn dfs(&mut self, op: MlirOperation, mut distance: i64) -> PassResult {
            if !self.seen.insert(Op(op)) || self.excluded.contains(&Op(op)) {
                return Ok(());
            }
            if ir::is(op, "tt.descriptor_load") || ir::is(op, "tt.descriptor_gather") {
                return Err(error(
                    op,
                    &format!("{ARGUMENT}: pipelining descriptor loads is not supported yet"),
                ));
            }
            if ir::is(op, "tt.load") {
                if !worth_pipelining(op, self.axis)? {
                    return Ok(());
                }
                match self.index.get(&Op(op)) {
                    Some(&i) => {
                        if self.levels[i].1 != distance {
                            self.levels.remove(i);
                            self.index = (self.levels.iter().enumerate())
                                .map(|(i, &(o, _))| (Op(o), i))
                                .collect();
                            self.excluded.insert(Op(op));
                            return Ok(());
                        }
                    }
                    None => {
                        self.index.insert(Op(op), self.levels.len());
                        self.levels.push((op, distance));
                    }
                }
                distance += 1;
            }
            let block = ir::op_block(op);
            for v in pl::nested_operands(op) {
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
        index: HashMap::new(),
    };
    for &op in body {
        if !ir::is(op, "tt.load")
            && !ir::is(op, "tt.descriptor_load")
            && !ir::is(op, "tt.descriptor_gather")
        {
            walk.dfs(op, 0)?;
        }
    }
    Ok(walk.levels)
}

/// Triton's `isPipeliningBeneficial` for a `tt.load`.
fn worth_pipelining(load: MlirOperation, axis: &AxisInfoMap) -> Result<bool, Failure> {
    if is_small_load(load, axis) {
        return Ok(false);
    }
    for v in ir::results(load) {
        for (user, _) in ir::uses(v) {
            let dot_operand_result = ir::results(user)
                .into_iter()
                .any(|r| matches!(layout_of(r), Some(Layout::DotOperand { .. })));
            if ir::is(user, "ttg.local_alloc") || dot_operand_result {
                return Err(error(
                    user,
                    &format!(
                        "{ARGUMENT}: pipelining a load whose users need a shared encoding is not supported yet"
                    ),
                ));
            }
        }
    }
    Ok(true)
}

fn layout_of(v: mlir_sys::MlirValue) -> Option<Layout> {
    let ty = unsafe { Type::from_raw(ir::value_type(v)) };
    let tensor = tt_dialect::types::Tensor::of(ty)?;
    Layout::read(tensor.encoding?)
}

/// The layout's order and per-thread contiguity (Triton's linear encoding
/// `getOrder` / `getContigPerThread`).
fn order_and_contig(v: mlir_sys::MlirValue) -> Option<(Vec<u32>, Vec<u32>)> {
    let ty = unsafe { Type::from_raw(ir::value_type(v)) };
    let tensor = tt_dialect::types::Tensor::of(ty)?;
    let layout = Layout::read(tensor.encoding?)?;
    let linear = ttg_dialect::to_linear::to_linear_layout(&layout, &tensor.shape).ok()?;
    Some((linear.default_order("register"), linear.contig_per_thread()))
}

/// Triton's `isSmallLoad`: the copy vector is narrower than 32 bits.
pub fn is_small_load(load: MlirOperation, axis: &AxisInfoMap) -> bool {
    let ptr = ir::operand(load, 0);
    let ptr_ty = unsafe { Type::from_raw(ir::value_type(ptr)) };
    let Some(tensor) = tt_dialect::types::Tensor::of(ptr_ty) else {
        return true;
    };
    let Some((pointee, _)) = tt_dialect::types::pointer_parts(tensor.element) else {
        return true;
    };
    let Some((order, contig)) = order_and_contig(ptr) else {
        return true;
    };
    let order0 = order[0] as usize;
    let mut vec = axis.ptr_contiguity(unsafe { Value::from_raw(ptr) }, order0, contig[order0]);
    let load_ref = unsafe { OperationRef::from_raw(load) };
    let mask = tt_dialect::ir::segment(load_ref, 1).and_then(|m| m.first().map(|v| v.to_raw()));
    if let Some(mask) = mask {
        if let Some((mask_order, _)) = order_and_contig(mask) {
            vec = vec
                .min(axis.mask_alignment(unsafe { Value::from_raw(mask) }, mask_order[0] as usize));
        } else {
            vec = vec.min(1);
        }
    }
    let bits = tt_dialect::types::bit_width(pointee).unwrap_or(64);
    vec * bits < 32
}
