//! `tritongpu-schedule-loops`: Triton 3.6's `scheduleLoops`. It reads (and
//! removes) the `tt.latency` attributes that `tritongpu-assign-latencies`
//! wrote, and gives every op of each loop that
//! has latency ops (innermost, no block argument yielded as is, no
//! `gpu.barrier`) a coarse schedule, written as `loop.stage` /
//! `loop.cluster` attributes plus `tt.scheduled_max_stage` on the loop:
//!
//! 1. key ops: each op reachable forward from a latency op gets the longest
//!    latency-weighted distance to the end of the body; stage = maximum
//!    distance - distance, one cluster per stage, later stages first;
//!    `scf.if`s of that slice with no scheduled op after them move to an
//!    epilogue cluster;
//! 2. `scf.if`s in the backward slice of scheduled ops go to a new front
//!    cluster, the other `scf.if`s of the body to a new back cluster in the
//!    last stage;
//! 3. the producers of scheduled ops (stage by stage, cluster order) take
//!    their consumer's stage and cluster unless already scheduled;
//! 4. values that reach an op through a loop-carried argument go to the next
//!    stage in a new cluster just before the op's (loads: the op's own);
//! 5. the rest go to the last stage, in the first cluster that keeps every
//!    user at or after its producers.
//!
//! Nothing here is specific to dots: loops with `tt.dot`,
//! `ttng.warp_group_dot` or Blackwell's tcgen05 MMAs are scheduled by the
//! same rules (the corpus's `matmul` and `matmul_naive` match Triton); the
//! MMAs' `tt.self_latency` stays for the pipeliner.
//!
//! A loop under `tt.warp_specialize` without latencies that already has a
//! schedule (after partitioning) starts from that one instead of step 1:
//! all in one stage and cluster when its latency ops (loads, shared and
//! tensor memory accesses, MMAs, barriers) sit in fewer than two stages,
//! else shifted to start at stage 0; steps 2 to 5 follow. The loop's
//! `tt.scheduled_max_stage` never shrinks.

use std::collections::{HashMap, HashSet};

use melior::ir::operation::OperationRef;
use mlir_sys::MlirOperation;

use crate::rust_pass::{fail, Failure, PassResult, RustPass};
use crate::ttgir::pipelining::{self as pl, CLUSTER, LATENCY, SCHEDULED_MAX_STAGE, STAGE};
use crate::ttir::loop_support::ir::{self, Op, Val};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUScheduleLoops",
    argument: "tritongpu-schedule-loops",
    description: "Give the ops of loops with latencies a coarse pipelining schedule",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let module = module.to_raw();
    // deserializeLatencies: read and drop every `tt.latency`.
    let mut latency: HashMap<Op, i64> = HashMap::new();
    ir::walk_pre(module, &mut |op| {
        if let Some(l) = pl::int_attribute(op, LATENCY) {
            latency.insert(Op(op), l);
        }
    });
    for op in latency.keys() {
        ir::remove_attribute(op.0, LATENCY);
    }
    for for_op in pl::for_loops(module) {
        schedule_loop(for_op, &latency)?;
    }
    Ok(())
}

/// A cluster: a stable label whose id is its position in the list.
type Cluster = u32;

/// Triton's `CoarseSchedule`.
struct Schedule {
    num_stages: i64,
    clusters: Vec<Cluster>,
    next: Cluster,
    ops: HashMap<Op, (i64, Cluster)>,
}

impl Schedule {
    fn new(num_stages: i64) -> Self {
        Schedule {
            num_stages,
            clusters: Vec::new(),
            next: 0,
            ops: HashMap::new(),
        }
    }

    fn label(&mut self) -> Cluster {
        self.next += 1;
        self.next - 1
    }

    fn new_at_back(&mut self) -> Cluster {
        let c = self.label();
        self.clusters.push(c);
        c
    }

    fn new_at_front(&mut self) -> Cluster {
        let c = self.label();
        self.clusters.insert(0, c);
        c
    }

    fn new_before(&mut self, before: Cluster) -> Cluster {
        let c = self.label();
        let at = self.pos(before);
        self.clusters.insert(at, c);
        c
    }

    fn pos(&self, c: Cluster) -> usize {
        self.clusters
            .iter()
            .position(|&x| x == c)
            .expect("live cluster")
    }

    fn get(&self, op: MlirOperation) -> Option<(i64, Cluster)> {
        self.ops.get(&Op(op)).copied()
    }

    fn insert(&mut self, op: MlirOperation, stage: i64, c: Cluster) {
        self.ops.insert(Op(op), (stage, c));
    }

    fn insert_if_absent(&mut self, op: MlirOperation, stage: i64, c: Cluster) -> bool {
        if self.ops.contains_key(&Op(op)) {
            return false;
        }
        self.insert(op, stage, c);
        true
    }

    fn insert_minimum(&mut self, op: MlirOperation, stage: i64, c: Cluster) -> bool {
        let Some((old_stage, old_cluster)) = self.get(op) else {
            self.insert(op, stage, c);
            return true;
        };
        if stage < old_stage {
            self.insert(op, stage, c);
            return true;
        }
        if stage > old_stage || old_cluster == c || self.pos(c) > self.pos(old_cluster) {
            return false;
        }
        self.insert(op, old_stage, c);
        true
    }

    /// The scheduled body ops by cluster, then program order.
    fn ops_in_order(&self, for_op: MlirOperation) -> Vec<(MlirOperation, i64, Cluster)> {
        let mut ordered: Vec<(usize, MlirOperation, i64, Cluster)> = pl::body_ops(for_op)
            .into_iter()
            .filter_map(|op| self.get(op).map(|(s, c)| (self.pos(c), op, s, c)))
            .collect();
        ordered.sort_by_key(|&(p, ..)| p);
        ordered
            .into_iter()
            .map(|(_, op, s, c)| (op, s, c))
            .collect()
    }

    /// Triton's `insertDepsOfOp`.
    fn insert_deps(
        &mut self,
        op: MlirOperation,
        stage: i64,
        c: Cluster,
        include_arg: bool,
        if_earlier: bool,
    ) {
        let block = ir::op_block(op);
        for operand in pl::nested_operands(op) {
            let mut v = operand;
            let mut seen = HashSet::new();
            while ir::is_block_argument(v) {
                if !include_arg || !seen.insert(Val(v)) {
                    break;
                }
                if ir::arg_number(v) > 0 && ir::value_block(v).ptr == block.ptr {
                    let term = ir::terminator(block).expect("terminator");
                    v = ir::operand(term, ir::arg_number(v) - 1);
                    continue;
                }
                break;
            }
            let Some(def) = ir::defining_op(v) else {
                continue;
            };
            if ir::op_block(def).ptr != block.ptr {
                continue;
            }
            let inserted = if if_earlier {
                self.insert_minimum(def, stage, c)
            } else {
                self.insert_if_absent(def, stage, c)
            };
            if inserted {
                self.insert_deps(def, stage, c, include_arg, if_earlier);
            }
        }
    }
}

fn schedule_loop(for_op: MlirOperation, latency: &HashMap<Op, i64>) -> PassResult {
    let body = pl::body_ops(for_op);
    let has_latencies = body.iter().any(|op| latency.contains_key(&Op(*op)));
    if !has_latencies && ir::attribute(for_op, WARP_SPECIALIZE).is_none() {
        return Ok(());
    }
    let mut barrier = false;
    ir::walk_pre(for_op, &mut |op| barrier |= ir::is(op, "gpu.barrier"));
    if pl::loop_has_dist_greater_than_one(for_op) || pl::is_outer_loop(for_op) || barrier {
        return Ok(());
    }
    let schedule = if has_latencies {
        schedule_key_ops(for_op, &body, latency)
    } else {
        existing_schedule(for_op, &body, latency)?
    };
    let Some(mut schedule) = schedule else {
        return Ok(());
    };
    let after_prologue = schedule_prologue_and_epilogue(for_op, &body, &mut schedule);
    // scheduleDependencies.
    for stage in 0..schedule.num_stages {
        for (op, s, c) in schedule.ops_in_order(for_op) {
            if s == stage {
                schedule.insert_deps(op, stage, c, false, false);
            }
        }
    }
    schedule_distance_one(for_op, &body, &mut schedule);
    schedule_remaining(for_op, &body, &mut schedule, after_prologue);
    for (op, stage, c) in schedule.ops_in_order(for_op) {
        pl::set_i32(op, STAGE, stage);
        pl::set_i32(op, CLUSTER, schedule.pos(c) as i64);
    }
    // A stage count the loop already had is kept when it is larger.
    let max_stage = pl::int_attribute(for_op, SCHEDULED_MAX_STAGE)
        .map_or(schedule.num_stages - 1, |m| m.max(schedule.num_stages - 1));
    pl::set_i32(for_op, SCHEDULED_MAX_STAGE, max_stage);
    Ok(())
}

/// The attribute of loops that warp specialization partitioned.
const WARP_SPECIALIZE: &str = "tt.warp_specialize";

/// The ops whose stages decide whether a partitioned loop still needs
/// more than one (Triton's latency ops there).
const LATENCY_OPS: &[&str] = &[
    "tt.load",
    "tt.descriptor_load",
    "tt.descriptor_gather",
    "ttg.local_store",
    "ttg.local_load",
    "ttng.tmem_load",
    "ttng.tmem_store",
    "ttg.async_copy_global_to_local",
    "ttng.async_tma_copy_global_to_local",
    "ttng.async_tma_gather",
    "ttng.tc_gen5_mma",
    "ttng.tc_gen5_mma_scaled",
    "ttng.wait_barrier",
    "ttng.arrive_barrier",
];

/// The schedule a loop under `tt.warp_specialize` without latencies
/// already carries (`loop.stage` / `loop.cluster`, with
/// `tt.scheduled_max_stage`), as Triton re-reads it: when its latency ops
/// sit in fewer than two stages, everything goes to one stage and
/// cluster; otherwise the stages are shifted to start at 0. `None` when it
/// has no `tt.scheduled_max_stage`.
fn existing_schedule(
    for_op: MlirOperation,
    body: &[MlirOperation],
    latency: &HashMap<Op, i64>,
) -> Result<Option<Schedule>, Failure> {
    let Some(max_stage) = pl::int_attribute(for_op, SCHEDULED_MAX_STAGE) else {
        return Ok(None);
    };
    let mut staged: Vec<(MlirOperation, i64, i64)> = Vec::new();
    for &op in body {
        let Some(stage) = pl::int_attribute(op, STAGE) else {
            continue;
        };
        let Some(cluster) = pl::int_attribute(op, CLUSTER) else {
            return Err(fail(
                unsafe { OperationRef::from_raw(op) },
                "tritongpu-schedule-loops: an op with a loop.stage but no loop.cluster is not supported yet",
            ));
        };
        staged.push((op, stage, cluster));
    }
    let is_latency_op = |op: MlirOperation| {
        latency.contains_key(&Op(op)) || LATENCY_OPS.iter().any(|n| ir::is(op, n))
    };
    let latency_stages: HashSet<i64> = staged
        .iter()
        .filter(|&&(op, ..)| is_latency_op(op))
        .map(|&(_, stage, _)| stage)
        .collect();
    if latency_stages.len() <= 1 {
        let mut schedule = Schedule::new(1);
        let cluster = schedule.new_at_back();
        for &op in body {
            schedule.insert(op, 0, cluster);
        }
        return Ok(Some(schedule));
    }
    let min_cluster = staged.iter().map(|&(.., c)| c).min().unwrap_or(0);
    let max_cluster = staged.iter().map(|&(.., c)| c).max().unwrap_or(0);
    let mut schedule = Schedule::new(max_stage + 1);
    let clusters: Vec<Cluster> = (min_cluster..=max_cluster)
        .map(|_| schedule.new_at_back())
        .collect();
    // shrinkToFit: the stages start at 0.
    let min_stage = staged.iter().map(|&(_, s, _)| s).min().unwrap_or(0);
    let top_stage = staged.iter().map(|&(_, s, _)| s).max().unwrap_or(0);
    for &(op, stage, cluster) in &staged {
        schedule.insert(
            op,
            stage - min_stage,
            clusters[(cluster - min_cluster) as usize],
        );
    }
    schedule.num_stages = top_stage - min_stage + 1;
    Ok(Some(schedule))
}

fn users(op: MlirOperation) -> Vec<MlirOperation> {
    ir::results(op)
        .into_iter()
        .flat_map(|r| ir::uses(r).into_iter().map(|(user, _)| user))
        .collect()
}

/// Triton's `scheduleKeyOps`.
fn schedule_key_ops(
    for_op: MlirOperation,
    body: &[MlirOperation],
    latency: &HashMap<Op, i64>,
) -> Option<Schedule> {
    let block = pl::body(for_op);
    let terminator = pl::terminator(for_op);
    fn distance_of(
        op: MlirOperation,
        block: mlir_sys::MlirBlock,
        terminator: MlirOperation,
        latency: &HashMap<Op, i64>,
        distance: &mut Vec<(MlirOperation, i64)>,
        index: &mut HashMap<Op, usize>,
    ) -> i64 {
        if let Some(&i) = index.get(&Op(op)) {
            return distance[i].1;
        }
        let mut max = -1;
        for user in users(op) {
            let Some(user) = pl::ancestor_in_block(block, user) else {
                continue;
            };
            if user.ptr == terminator.ptr {
                continue;
            }
            max = max.max(distance_of(
                user, block, terminator, latency, distance, index,
            ));
        }
        let d = latency.get(&Op(op)).copied().unwrap_or(0) + max.max(0);
        index.insert(Op(op), distance.len());
        distance.push((op, d));
        d
    }
    let lat_ops: Vec<MlirOperation> = body
        .iter()
        .copied()
        .filter(|op| latency.contains_key(&Op(*op)))
        .collect();
    if lat_ops.is_empty() {
        return None;
    }
    let mut distance = Vec::new();
    let mut index = HashMap::new();
    let mut max_distance = 0;
    for &op in &lat_ops {
        let d = distance_of(op, block, terminator, latency, &mut distance, &mut index);
        max_distance = max_distance.max(d);
    }
    let op_to_stage: Vec<(MlirOperation, i64)> = distance
        .iter()
        .filter(|&&(_, d)| d >= 0)
        .map(|&(op, d)| (op, max_distance - d))
        .collect();
    let max_stage = op_to_stage.iter().map(|&(_, s)| s).max()?;
    let mut schedule = Schedule::new(max_stage + 1);
    let clusters: Vec<Cluster> = (0..=max_stage).map(|_| schedule.new_at_back()).collect();
    for &(op, stage) in &op_to_stage {
        schedule.insert(op, stage, clusters[(max_stage - stage) as usize]);
    }
    let epilogue = schedule.new_at_back();
    let staged: HashSet<Op> = op_to_stage.iter().map(|&(op, _)| Op(op)).collect();
    for &(op, stage) in &op_to_stage {
        if !ir::is(op, "scf.if") || latency.contains_key(&Op(op)) {
            continue;
        }
        if forward_slice(op).iter().any(|o| staged.contains(o)) {
            continue;
        }
        schedule.insert(op, stage, epilogue);
    }
    Some(schedule)
}

/// MLIR's `getForwardSlice`: every transitive user.
fn forward_slice(op: MlirOperation) -> HashSet<Op> {
    let mut slice = HashSet::new();
    let mut work = users(op);
    while let Some(user) = work.pop() {
        if slice.insert(Op(user)) {
            work.extend(users(user));
        }
    }
    slice
}

/// MLIR's `getBackwardSlice` (block arguments omitted, uses from above
/// followed): the `scf.if`s among every transitive producer.
fn backward_slice_ifs(op: MlirOperation) -> Vec<MlirOperation> {
    let mut seen = HashSet::new();
    let mut ifs = Vec::new();
    let mut work = vec![op];
    while let Some(current) = work.pop() {
        for v in pl::nested_operands(current) {
            if let Some(def) = ir::defining_op(v) {
                if seen.insert(Op(def)) {
                    if ir::is(def, "scf.if") {
                        ifs.push(def);
                    }
                    work.push(def);
                }
            }
        }
    }
    ifs
}

/// Triton's `schedulePrologueAndEpilogue`; returns the cluster after the
/// prologue.
fn schedule_prologue_and_epilogue(
    for_op: MlirOperation,
    body: &[MlirOperation],
    schedule: &mut Schedule,
) -> Cluster {
    let after_prologue = schedule.clusters[0];
    let mut ifs_to_stage: Vec<(MlirOperation, i64)> = Vec::new();
    let mut known: HashSet<Op> = HashSet::new();
    for stage in 0..schedule.num_stages {
        for (op, s, _) in schedule.ops_in_order(for_op) {
            if s != stage {
                continue;
            }
            for if_op in backward_slice_ifs(op) {
                if known.insert(Op(if_op)) {
                    ifs_to_stage.push((if_op, stage));
                }
            }
        }
    }
    if !ifs_to_stage.is_empty() {
        let prologue = schedule.new_at_front();
        for &(if_op, stage) in &ifs_to_stage {
            schedule.insert_if_absent(if_op, stage, prologue);
        }
    }
    let epilogue = schedule.new_at_back();
    let last = schedule.num_stages - 1;
    for &op in body {
        if ir::is(op, "scf.if") && !known.contains(&Op(op)) {
            schedule.insert_if_absent(op, last, epilogue);
        }
    }
    after_prologue
}

/// Triton's `scheduleDistanceOneDependencies`.
fn schedule_distance_one(for_op: MlirOperation, body: &[MlirOperation], schedule: &mut Schedule) {
    let num_stages = schedule.num_stages;
    let block = pl::body(for_op);
    let terminator = pl::terminator(for_op);
    let mut dist1: HashMap<Cluster, Cluster> = HashMap::new();
    for &op in body {
        let Some((stage, cluster)) = schedule.get(op) else {
            continue;
        };
        if stage == num_stages - 1 {
            continue;
        }
        for operand in pl::nested_operands(op) {
            if !ir::is_block_argument(operand)
                || ir::arg_number(operand) == 0
                || ir::value_block(operand).ptr != block.ptr
            {
                continue;
            }
            let v = ir::operand(terminator, ir::arg_number(operand) - 1);
            let Some(def) = ir::defining_op(v) else {
                continue;
            };
            if schedule.get(def).is_some() {
                continue;
            }
            if ir::is(def, "tt.load") {
                schedule.insert_if_absent(def, stage, cluster);
                schedule.insert_deps(def, stage, cluster, true, true);
            } else {
                let before = match dist1.get(&cluster) {
                    Some(&c) => c,
                    None => {
                        let c = schedule.new_before(cluster);
                        dist1.insert(cluster, c);
                        c
                    }
                };
                schedule.insert_if_absent(def, stage + 1, before);
                schedule.insert_deps(def, stage + 1, before, true, true);
            }
        }
    }
}

/// Triton's `scheduleRemainingToLastStage`.
fn schedule_remaining(
    for_op: MlirOperation,
    body: &[MlirOperation],
    schedule: &mut Schedule,
    after_prologue: Cluster,
) {
    let last = schedule.num_stages - 1;
    let mut op_to_cluster: HashMap<Op, Cluster> = HashMap::new();
    let mut unscheduled = Vec::new();
    for &op in body {
        if schedule.get(op).is_none() {
            op_to_cluster.insert(Op(op), after_prologue);
            unscheduled.push(op);
        }
    }
    let mut queue: Vec<MlirOperation> = schedule
        .ops_in_order(for_op)
        .into_iter()
        .filter(|&(_, s, _)| s == last)
        .map(|(op, ..)| op)
        .collect();
    while let Some(op) = queue.pop() {
        for user in users(op) {
            let Some(&user_cluster) = op_to_cluster.get(&Op(user)) else {
                continue;
            };
            let op_cluster = match schedule.get(op) {
                Some((_, c)) => c,
                None => op_to_cluster[&Op(op)],
            };
            if schedule.pos(user_cluster) < schedule.pos(op_cluster) {
                op_to_cluster.insert(Op(user), op_cluster);
                queue.push(user);
            }
        }
    }
    for op in unscheduled {
        let c = op_to_cluster[&Op(op)];
        schedule.insert(op, last, c);
    }
}
