//! `tritongpu-partition-loops`: splits every `scf.for` whose ops are
//! assigned to partitions (`ttg.partition.stages` on the loop,
//! `ttg.partition` on its ops) into a `nvws.warp_group` with one region per
//! partition, as Triton 3.6's `PartitionLoops` does.
//!
//! - The partitions are read from the loop: one per entry of
//!   `ttg.partition.stages` (each a non-negative integer), with the loop's
//!   `ttg.warp_specialize.tag`; every op nested in the loop that carries
//!   `ttg.partition` must name existing partitions.
//! - Only the root partition may feed other partitions through SSA values:
//!   a value of partition P used (directly, or through iteration arguments
//!   at some distance) by an op outside P, whose partitions are not a subset
//!   of the producer's, is reported ("non-root partition #P has direct SSA
//!   consumer", a note per consuming partition) and the pass fails.
//! - A loop with one partition is left alone. Otherwise each partition gets
//!   its own copy of the loop, keeping the iteration arguments that the
//!   loop's `ttg.partition.outputs` gives to it, with the ops (nested
//!   `scf.for`, `scf.if` and `tt.reduce` split the same way) of that
//!   partition, and the ops of the loop's block with the same tag before and
//!   after it. The copies lose `ttg.partition` (and the loop
//!   `ttg.partition.stages`).
//! - The warp group's results are the loop results that partition 0 keeps
//!   (its region ends in `nvws.warp_group.yield`, the others in
//!   `nvws.warp_group.return`). A tensor result computed by another
//!   partition goes through shared memory: a `ttg.local_alloc` before the
//!   warp group, a `ttg.local_store` at the end of that partition, a
//!   `ttg.local_load` and `ttg.local_dealloc` after the warp group.
//!
//! Partitioned IR this pass cannot split (an op without `ttg.partition`
//! inside the loop, a region op other than `scf.for`, `scf.if` and
//! `tt.reduce`, a missing `ttg.partition.outputs`, a result partition 0
//! cannot provide) is refused with a located error before anything changes.

use std::collections::HashSet;

use melior::ir::{operation::OperationRef, r#type::TypeLike, Location};
use mlir_sys::{MlirAttribute, MlirBlock, MlirOperation, MlirRegion, MlirType, MlirValue};
use tt_dialect::verify::NO_OP_PREFIX;
use ttg_dialect::layout::{Layout, MemDesc};

use crate::rust_pass::{fail, Failure, PassResult, RustPass};
use crate::ttir::loop_support::ir::{self, Op, Val, ValueMap};
use crate::ttir::loop_support::scf;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUPartitionLoops",
    argument: "tritongpu-partition-loops",
    description: "Split partitioned loops into one region per partition of a nvws.warp_group",
    anchor: "builtin.module",
    run,
};

const PARTITION: &str = "ttg.partition";
const STAGES: &str = "ttg.partition.stages";
const OUTPUTS: &str = "ttg.partition.outputs";
const TYPES: &str = "ttg.partition.types";
const TAG: &str = "ttg.warp_specialize.tag";

fn run(module: OperationRef) -> PassResult {
    let loops = ir::collect_post(module.to_raw(), &|op| {
        ir::is(op, "scf.for")
            && ir::attribute(op, STAGES)
                .is_some_and(|attr| unsafe { mlir_sys::mlirAttributeIsAArray(attr) })
    });
    for lp in loops {
        partition_loop(lp)?;
    }
    Ok(())
}

fn op_ref<'c, 'a>(op: MlirOperation) -> OperationRef<'c, 'a> {
    // SAFETY: every op handed here is a live op of the module the pass runs
    // on, which outlives the reference.
    unsafe { OperationRef::from_raw(op) }
}

fn location<'c>(op: MlirOperation) -> Location<'c> {
    // SAFETY: the location of a live op; locations live in the context.
    unsafe { Location::from_raw(ir::location(op)) }
}

/// A located error without the op prefix (Triton's `emitError`).
fn error(op: MlirOperation, message: &str) -> Failure {
    fail(op_ref(op), &format!("{NO_OP_PREFIX}{message}"))
}

fn has_partition(op: MlirOperation) -> bool {
    ir::attribute(op, PARTITION).is_some()
}

/// The sorted partitions of an op (`ttg.partition`), empty without any.
fn ids(op: MlirOperation) -> Vec<i32> {
    let mut ids = ir::attribute(op, PARTITION)
        .and_then(ir::dense_i32_array)
        .unwrap_or_default();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The partitions of each result of an op (`ttg.partition.outputs`).
fn outputs(op: MlirOperation) -> Vec<Vec<i32>> {
    let Some(attr) = ir::attribute(op, OUTPUTS) else {
        return Vec::new();
    };
    // SAFETY: a live attribute, read as an array only when it is one.
    unsafe {
        if !mlir_sys::mlirAttributeIsAArray(attr) {
            return Vec::new();
        }
        (0..mlir_sys::mlirArrayAttrGetNumElements(attr))
            .map(|i| {
                ir::dense_i32_array(mlir_sys::mlirArrayAttrGetElement(attr, i)).unwrap_or_default()
            })
            .collect()
    }
}

fn tag(op: MlirOperation) -> Option<i64> {
    ir::attribute(op, TAG).and_then(ir::integer_attr_value)
}

fn is_ranked_tensor(ty: MlirType) -> bool {
    // SAFETY: a live type.
    unsafe { mlir_sys::mlirTypeIsARankedTensor(ty) }
}

/// MLIR's `Block::findAncestorOpInBlock`.
fn ancestor_in(block: MlirBlock, op: MlirOperation) -> Option<MlirOperation> {
    let mut current = op;
    loop {
        if ir::op_block(current).ptr == block.ptr {
            return Some(current);
        }
        current = ir::parent_op(current)?;
    }
}

/// The ops of each partition of a loop (MLIR's walk order), from its
/// `ttg.partition.stages` and its ops' `ttg.partition`.
fn read_partitions(lp: MlirOperation) -> Result<Vec<Vec<MlirOperation>>, Failure> {
    let Some(stages) = ir::attribute(lp, STAGES) else {
        return Err(error(lp, &format!("the loop has no '{STAGES}'")));
    };
    if tag(lp).is_none() {
        return Err(error(lp, &format!("the loop has no integer '{TAG}'")));
    }
    // SAFETY: `stages` is an array attribute (the loops are chosen so).
    let count = unsafe { mlir_sys::mlirArrayAttrGetNumElements(stages) };
    for i in 0..count {
        // SAFETY: `i` is within the array.
        let stage = unsafe { mlir_sys::mlirArrayAttrGetElement(stages, i) };
        // SAFETY: a live attribute.
        let integer = unsafe { mlir_sys::mlirAttributeIsAInteger(stage) };
        if !integer || ir::integer_attr_value(stage).is_none_or(|s| s < 0) {
            return Err(error(
                lp,
                &format!(
                    "partition stages attribute '{STAGES}' has invalid element {}",
                    scf::attribute_text(stage)
                ),
            ));
        }
    }
    let mut partitions = vec![Vec::new(); count as usize];
    for op in ir::collect_post(lp, &has_partition) {
        if ir::attribute(op, PARTITION)
            .and_then(ir::dense_i32_array)
            .is_none()
        {
            return Err(error(op, &format!("'{PARTITION}' must be an array of i32")));
        }
        for id in ids(op) {
            if id < 0 || id as usize >= partitions.len() {
                return Err(error(op, &format!("invalid partition index {id}")));
            }
            partitions[id as usize].push(op);
        }
    }
    Ok(partitions)
}

//===----------------------------------------------------------------------===//
// Only the root partition may have direct SSA consumers
//===----------------------------------------------------------------------===//

/// Triton's `Partition::iterateUses`: every use, outside partition
/// `index`, of a value its ops define, followed through the loop's
/// iteration arguments; `visit(value, user, operand index, distance)`.
fn iterate_uses(
    lp: MlirOperation,
    index: i32,
    ops: &[MlirOperation],
    visit: &mut dyn FnMut(MlirValue, MlirOperation, usize),
) {
    let body = scf::body(lp);
    let mut pending: Vec<(MlirValue, MlirOperation, usize, usize)> = Vec::new();
    for &op in ops {
        for result in ir::results(op) {
            for (user, operand) in ir::uses(result) {
                let outside = |owner| !has_partition(owner) || !ids(owner).contains(&index);
                let reported = match ancestor_in(body, user) {
                    None => outside(user),
                    Some(owner) if ir::is(owner, "scf.yield") => true,
                    Some(owner) => outside(owner),
                };
                if reported {
                    pending.push((result, user, operand, 0));
                }
            }
        }
    }
    // A value can come back to the yield through the iteration arguments;
    // each yield operand is followed once.
    let mut followed: HashSet<(Op, usize)> = HashSet::new();
    let iter_args = scf::region_iter_args(lp);
    while let Some((output, user, operand, distance)) = pending.pop() {
        match ancestor_in(body, user) {
            Some(owner) if ir::is(owner, "scf.yield") => {
                if !followed.insert((Op(user), operand)) {
                    continue;
                }
                let Some(&arg) = iter_args.get(operand) else {
                    continue;
                };
                for (next, next_operand) in ir::uses(arg) {
                    pending.push((output, next, next_operand, distance + 1));
                }
            }
            _ => visit(output, user, distance),
        }
    }
}

/// Reports the values of each partition consumed directly by an op of
/// partitions that are not among the producer's; false if any is.
fn check_ssa_consumers(lp: MlirOperation, partitions: &[Vec<MlirOperation>]) -> bool {
    let mut ok = true;
    for (index, ops) in partitions.iter().enumerate() {
        let index = index as i32;
        let mut failed = false;
        iterate_uses(lp, index, ops, &mut |output, user, distance| {
            if !has_partition(user) {
                return;
            }
            let consumers = ids(user);
            if consumers.contains(&index) {
                return;
            }
            let Some(def) = ir::defining_op(output).filter(|d| has_partition(*d)) else {
                return;
            };
            let producers = ids(def);
            if consumers.iter().all(|c| producers.contains(c)) {
                return;
            }
            failed = true;
            let notes: Vec<(Location, String)> = consumers
                .iter()
                .map(|c| {
                    (
                        location(user),
                        format!("use at distance {distance} in partition #{c} here"),
                    )
                })
                .collect();
            tt_dialect::ir::emit_warning_with_notes(
                location(def),
                &format!("non-root partition #{index} has direct SSA consumer"),
                &notes,
            );
        });
        if failed {
            ok = false;
            break;
        }
    }
    ok
}

//===----------------------------------------------------------------------===//
// Loop variables
//===----------------------------------------------------------------------===//

/// What an iteration argument of a loop is to one partition.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LoopVar {
    /// The partition does not compute it.
    Unused,
    /// The partition computes it (`ttg.partition.outputs`).
    Used,
    /// The partition does not compute it, but it is a used tensor result
    /// that another partition computes (for partition 0: it goes through
    /// shared memory).
    TensorFromOther,
}

/// Whether the tensor the loop yields at `index` is computed by partition
/// `partition`.
fn tensor_result_computed_by(lp: MlirOperation, index: usize, partition: i32) -> bool {
    let Some(&value) = scf::yielded_values(lp).get(index) else {
        return false;
    };
    if !is_ranked_tensor(ir::value_type(value)) {
        return false;
    }
    let Some(def) = ir::defining_op(value) else {
        return false;
    };
    let producers = if ir::is(def, "scf.if") {
        outputs(def)
            .get(ir::result_number(value))
            .cloned()
            .unwrap_or_default()
    } else {
        ids(def)
    };
    producers.contains(&partition)
}

fn classify(lp: MlirOperation, partition: i32, count: usize) -> Vec<LoopVar> {
    let outs = outputs(lp);
    (0..scf::region_iter_args(lp).len())
        .map(|i| {
            if outs.get(i).is_some_and(|ids| ids.contains(&partition)) {
                LoopVar::Used
            } else if (0..count as i32)
                .filter(|&other| other != partition)
                .any(|other| tensor_result_computed_by(lp, i, other))
                && ir::has_uses(ir::result(lp, i))
            {
                LoopVar::TensorFromOther
            } else {
                LoopVar::Unused
            }
        })
        .collect()
}

/// The iteration arguments a partition keeps, and for each original one
/// its index among them.
fn kept(vars: &[LoopVar]) -> (Vec<usize>, Vec<Option<usize>>) {
    let mut keep = Vec::new();
    let mut position = vec![None; vars.len()];
    for (i, var) in vars.iter().enumerate() {
        if *var == LoopVar::Used {
            position[i] = Some(keep.len());
            keep.push(i);
        }
    }
    (keep, position)
}

fn kept_for(lp: MlirOperation, partition: i32, count: usize) -> (Vec<usize>, Vec<Option<usize>>) {
    kept(&classify(lp, partition, count))
}

//===----------------------------------------------------------------------===//
// Checks before anything changes
//===----------------------------------------------------------------------===//

/// Refuses, before any edit, the partitioned IR the cloning below cannot
/// split.
fn check_splittable(lp: MlirOperation, tag_value: i64) -> PassResult {
    let mut result = Ok(());
    ir::walk_pre(lp, &mut |op| {
        if result.is_err() {
            return;
        }
        let name = ir::name(op);
        if op.ptr != lp.ptr
            && !has_partition(op)
            && !(name == "scf.yield" && ir::operand_count(op) == 0)
        {
            result = Err(error(
                op,
                &format!("an op of a partitioned loop has no '{PARTITION}'"),
            ));
            return;
        }
        let region_op = ir::region_count(op) > 0;
        if region_op && !matches!(name.as_str(), "scf.for" | "scf.if" | "tt.reduce") {
            result = Err(error(
                op,
                "Ops are expected to be regionless at this point.",
            ));
            return;
        }
        if matches!(name.as_str(), "scf.for" | "scf.if")
            && outputs(op).len() != ir::result_count(op)
        {
            result = Err(error(
                op,
                &format!(
                    "'{OUTPUTS}' must give the partitions of each of the op's {} results",
                    ir::result_count(op)
                ),
            ));
            return;
        }
        if name == "scf.yield" && ir::operand_count(op) > 0 {
            let parent = ir::parent_op(op);
            if !parent.is_some_and(|p| ir::is(p, "scf.for") || ir::is(p, "scf.if")) {
                result = Err(error(
                    op,
                    "only the yields of 'scf.for' and 'scf.if' can be split",
                ));
            }
        }
        if name == "scf.if" {
            let then_block = ir::blocks(ir::regions(op)[0]);
            if then_block
                .first()
                .is_some_and(|b| !ir::block_args(*b).is_empty())
            {
                result = Err(error(op, "a then-block with arguments cannot be split"));
            }
        }
    });
    result?;
    for op in ir::block_ops(ir::op_block(lp)) {
        if op.ptr == lp.ptr || !has_partition(op) {
            continue;
        }
        match tag(op) {
            None => {
                return Err(error(
                    op,
                    &format!("a partitioned op has no integer '{TAG}'"),
                ))
            }
            Some(t) if t == tag_value && ir::region_count(op) > 0 => {
                return Err(error(
                    op,
                    "Ops are expected to be regionless at this point.",
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

//===----------------------------------------------------------------------===//
// Cloning into the partitions
//===----------------------------------------------------------------------===//

/// Where a builder inserts.
#[derive(Clone, Copy)]
enum Pos {
    Before(MlirOperation),
    End(MlirBlock),
}

fn insert(pos: Pos, op: MlirOperation) {
    match pos {
        Pos::Before(next) => ir::insert_before(next, op),
        // SAFETY: `op` is detached; the block takes ownership.
        Pos::End(block) => unsafe { mlir_sys::mlirBlockAppendOwnedOperation(block, op) },
    }
}

fn at_start(block: MlirBlock) -> Pos {
    // SAFETY: a live block.
    let first = unsafe { mlir_sys::mlirBlockGetFirstOperation(block) };
    if first.ptr.is_null() {
        Pos::End(block)
    } else {
        Pos::Before(first)
    }
}

fn after(op: MlirOperation) -> Pos {
    match ir::next_op(op) {
        Some(next) => Pos::Before(next),
        None => Pos::End(ir::op_block(op)),
    }
}

/// One partition's insertion point and value mapping.
struct Builder {
    id: i32,
    pos: Pos,
    map: ValueMap,
}

impl Builder {
    fn lookup(&self, value: MlirValue) -> MlirValue {
        ir::lookup_or_self(&self.map, value)
    }
}

/// A detached region holding one block with arguments of `types`.
fn region_with_block(
    types: &[MlirType],
    location: mlir_sys::MlirLocation,
) -> (MlirRegion, MlirBlock) {
    let locations = vec![location; types.len()];
    // SAFETY: a fresh block and region; the region owns the block and the
    // op it is handed to owns the region.
    unsafe {
        let block =
            mlir_sys::mlirBlockCreate(types.len() as isize, types.as_ptr(), locations.as_ptr());
        let region = mlir_sys::mlirRegionCreate();
        mlir_sys::mlirRegionAppendOwnedBlock(region, block);
        (region, block)
    }
}

fn append_empty_yield(block: MlirBlock, location: mlir_sys::MlirLocation) {
    let yield_op = ir::create_op("scf.yield", location, &[], &[], &[], Vec::new());
    insert(Pos::End(block), yield_op);
}

/// `op`'s attributes but `ttg.partition.outputs`.
fn copied_attributes(op: MlirOperation) -> Vec<(String, MlirAttribute)> {
    ir::attributes(op)
        .into_iter()
        .filter(|(name, _)| name != OUTPUTS)
        .collect()
}

fn create_with_attributes(
    name: &str,
    template: MlirOperation,
    operands: &[MlirValue],
    types: &[MlirType],
    regions: Vec<MlirRegion>,
) -> MlirOperation {
    let attributes = copied_attributes(template);
    let named: Vec<(&str, MlirAttribute)> =
        attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    ir::create_op(
        name,
        ir::location(template),
        operands,
        types,
        &named,
        regions,
    )
}

fn clone_for(lp: MlirOperation, builders: &mut [Builder], count: usize) {
    let partitions = ids(lp);
    let location = ir::location(lp);
    let mut copies = Vec::new();
    for &id in &partitions {
        let b = &mut builders[id as usize];
        let (keep, _) = kept_for(lp, id, count);
        let inits: Vec<MlirValue> = keep
            .iter()
            .map(|&i| b.lookup(scf::init_args(lp)[i]))
            .collect();
        let mut operands = vec![
            b.lookup(scf::lower_bound(lp)),
            b.lookup(scf::upper_bound(lp)),
            b.lookup(scf::step(lp)),
        ];
        operands.extend(&inits);
        let types: Vec<MlirType> = inits.iter().map(|&v| ir::value_type(v)).collect();
        let mut arg_types = vec![ir::value_type(scf::induction_var(lp))];
        arg_types.extend(&types);
        let (region, block) = region_with_block(&arg_types, location);
        if inits.is_empty() {
            append_empty_yield(block, location);
        }
        let copy = create_with_attributes("scf.for", lp, &operands, &types, vec![region]);
        insert(b.pos, copy);
        b.map
            .insert(Val(scf::induction_var(lp)), Val(scf::induction_var(copy)));
        let old_args = scf::region_iter_args(lp);
        let new_args = scf::region_iter_args(copy);
        for (new, &old) in keep.iter().enumerate() {
            b.map.insert(Val(old_args[old]), Val(new_args[new]));
            b.map
                .insert(Val(ir::result(lp, old)), Val(ir::result(copy, new)));
        }
        b.pos = at_start(block);
        copies.push(copy);
    }
    clone_block(scf::body(lp), builders, count);
    for (&id, &copy) in partitions.iter().zip(&copies) {
        builders[id as usize].pos = after(copy);
        ir::walk_pre(copy, &mut |op| ir::remove_attribute(op, PARTITION));
        ir::remove_attribute(copy, STAGES);
    }
}

fn clone_if(if_op: MlirOperation, builders: &mut [Builder], count: usize) {
    let partitions = ids(if_op);
    let outs = outputs(if_op);
    let regions = ir::regions(if_op);
    let then_block = ir::blocks(regions[0])[0];
    let else_block = regions.get(1).and_then(|r| ir::blocks(*r).first().copied());
    let location = ir::location(if_op);
    let mut copies = Vec::new();
    for &id in &partitions {
        let b = &mut builders[id as usize];
        let kept_results: Vec<usize> = (0..ir::result_count(if_op))
            .filter(|&i| outs.get(i).is_some_and(|ids| ids.contains(&id)))
            .collect();
        let types: Vec<MlirType> = kept_results
            .iter()
            .map(|&i| ir::value_type(ir::result(if_op, i)))
            .collect();
        let (then_region, new_then) = region_with_block(&[], location);
        if types.is_empty() {
            append_empty_yield(new_then, location);
        }
        let else_region = if else_block.is_some() {
            let (region, new_else) = region_with_block(&[], location);
            if types.is_empty() {
                append_empty_yield(new_else, location);
            }
            region
        } else {
            // SAFETY: a fresh, empty region, owned by the new op.
            unsafe { mlir_sys::mlirRegionCreate() }
        };
        let cond = b.lookup(ir::operand(if_op, 0));
        let copy = create_with_attributes(
            "scf.if",
            if_op,
            &[cond],
            &types,
            vec![then_region, else_region],
        );
        insert(b.pos, copy);
        for (new, &old) in kept_results.iter().enumerate() {
            b.map
                .insert(Val(ir::result(if_op, old)), Val(ir::result(copy, new)));
        }
        b.pos = at_start(new_then);
        copies.push(copy);
    }
    clone_block(then_block, builders, count);
    if let Some(else_block) = else_block {
        for (&id, &copy) in partitions.iter().zip(&copies) {
            let new_else = ir::blocks(ir::regions(copy)[1])[0];
            builders[id as usize].pos = at_start(new_else);
        }
        clone_block(else_block, builders, count);
    }
    for (&id, &copy) in partitions.iter().zip(&copies) {
        builders[id as usize].pos = after(copy);
    }
}

fn clone_reduce(reduce: MlirOperation, builders: &mut [Builder], count: usize) {
    let partitions = ids(reduce);
    let body = ir::blocks(ir::regions(reduce)[0])[0];
    let old_args = ir::block_args(body);
    let arg_types: Vec<MlirType> = old_args.iter().map(|&a| ir::value_type(a)).collect();
    let types: Vec<MlirType> = ir::results(reduce)
        .into_iter()
        .map(ir::value_type)
        .collect();
    let mut copies = Vec::new();
    for &id in &partitions {
        let b = &mut builders[id as usize];
        let operands: Vec<MlirValue> = ir::operands(reduce)
            .into_iter()
            .map(|v| b.lookup(v))
            .collect();
        let (region, block) = region_with_block(&arg_types, ir::location(reduce));
        let copy = create_with_attributes("tt.reduce", reduce, &operands, &types, vec![region]);
        insert(b.pos, copy);
        for (old, new) in ir::results(reduce).into_iter().zip(ir::results(copy)) {
            b.map.insert(Val(old), Val(new));
        }
        for (old, new) in old_args.iter().zip(ir::block_args(block)) {
            b.map.insert(Val(*old), Val(new));
        }
        b.pos = at_start(block);
        copies.push(copy);
    }
    clone_block(body, builders, count);
    for (&id, &copy) in partitions.iter().zip(&copies) {
        builders[id as usize].pos = after(copy);
    }
}

/// Clones a regionless op into each of the partitions `partitions`.
fn clone_op(op: MlirOperation, builders: &mut [Builder], partitions: &[i32]) {
    for &id in partitions {
        let b = &mut builders[id as usize];
        let copy = ir::clone_mapped(op, &mut b.map);
        insert(b.pos, copy);
    }
}

fn clone_yield(yield_op: MlirOperation, builders: &mut [Builder], count: usize) {
    let Some(parent) = ir::parent_op(yield_op) else {
        return;
    };
    for id in ids(yield_op) {
        let b = &mut builders[id as usize];
        let indices: Vec<usize> = if ir::is(parent, "scf.for") {
            kept_for(parent, id, count).0
        } else {
            outputs(parent)
                .iter()
                .enumerate()
                .filter(|(_, ids)| ids.contains(&id))
                .map(|(i, _)| i)
                .collect()
        };
        if indices.is_empty() {
            continue;
        }
        let operands: Vec<MlirValue> = indices
            .iter()
            .map(|&i| b.lookup(ir::operand(yield_op, i)))
            .collect();
        let copy = ir::create_op(
            "scf.yield",
            ir::location(yield_op),
            &operands,
            &[],
            &[],
            Vec::new(),
        );
        insert(b.pos, copy);
    }
}

fn clone_block(block: MlirBlock, builders: &mut [Builder], count: usize) {
    for op in ir::block_ops(block) {
        match ir::name(op).as_str() {
            "scf.for" => clone_for(op, builders, count),
            "scf.if" => clone_if(op, builders, count),
            "tt.reduce" => clone_reduce(op, builders, count),
            "scf.yield" if ir::operand_count(op) == 0 => {}
            "scf.yield" => clone_yield(op, builders, count),
            _ => clone_op(op, builders, &ids(op)),
        }
    }
}

//===----------------------------------------------------------------------===//
// The warp group
//===----------------------------------------------------------------------===//

/// Triton's `getSharedEncoding(RankedTensorType)`: an unswizzled shared
/// layout in the tensor's order, as a mutable shared-memory descriptor type.
fn shared_buffer_type(lp: MlirOperation, value: MlirValue) -> Result<MlirType, Failure> {
    let ty = ir::value_type(value);
    // SAFETY: a live type of the module's context.
    let melior_ty = unsafe { melior::ir::Type::from_raw(ty) };
    let refuse = |what: &str| {
        error(
            lp,
            &format!("'tritongpu-partition-loops' does not support {what} yet"),
        )
    };
    let Some(tensor) = tt_dialect::types::Tensor::of(melior_ty) else {
        return Err(refuse("a non-tensor result passed through shared memory"));
    };
    let layout = ir::tensor_layout(value);
    if layout
        .as_ref()
        .and_then(Layout::ctas)
        .is_some_and(|c| c > 1)
    {
        return Err(refuse("multi-CTA tensors"));
    }
    let Some((order, _)) = crate::ttgir::pipelining::order_and_contig(value) else {
        return Err(refuse("a tensor result without a distributed layout"));
    };
    let order: Vec<String> = order.iter().map(ToString::to_string).collect();
    let text = format!(
        "#ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [{}]}}>",
        order.join(", ")
    );
    let ctx = ir::context(lp);
    let encoding = ir::parse_attribute(ctx, &text);
    let space = ir::parse_attribute(ctx, "#ttg.shared_memory");
    let (Some(encoding), Some(space)) = (encoding, space) else {
        return Err(refuse("this shared layout"));
    };
    // SAFETY: attributes of the live context.
    let (encoding, space) = unsafe {
        (
            melior::ir::Attribute::from_raw(encoding),
            melior::ir::Attribute::from_raw(space),
        )
    };
    let desc = MemDesc {
        shape: tensor.shape.to_vec(),
        alloc_shape: tensor.shape.to_vec(),
        element: tensor.element,
        encoding,
        memory_space: space,
        mutable: true,
    };
    Ok(desc.to_type().to_raw())
}

fn partition_loop(lp: MlirOperation) -> PassResult {
    let partitions = read_partitions(lp)?;
    if !check_ssa_consumers(lp, &partitions) {
        return Err(Failure);
    }
    let count = partitions.len();
    if count <= 1 {
        return Ok(());
    }
    let loop_tag = tag(lp).unwrap_or_default();
    check_splittable(lp, loop_tag)?;
    let Some(num_warps) = ir::lookup_num_warps(lp) else {
        return Err(fail(
            op_ref(lp),
            "is not contained within a context that specifies the number of warps",
        ));
    };

    let vars = classify(lp, 0, count);
    let (keep, new_index) = kept(&vars);
    let results = ir::results(lp);
    let loop_partitions = ids(lp);
    // Everything the end needs must exist before the loop is touched.
    for (i, &result) in results.iter().enumerate() {
        if !ir::has_uses(result) || vars[i] == LoopVar::TensorFromOther {
            continue;
        }
        let escapes = ir::uses(result).into_iter().any(|(user, _)| {
            !has_partition(user) || (ir::is(user, "scf.for") && tag(user).is_some())
        });
        if escapes && new_index[i].is_none() {
            return Err(error(
                lp,
                &format!("loop result #{i} is used outside the partitions, but partition 0 does not compute it"),
            ));
        }
    }
    let mut buffer_types = vec![None; results.len()];
    for (i, &result) in results.iter().enumerate() {
        if vars[i] == LoopVar::TensorFromOther {
            buffer_types[i] = Some(shared_buffer_type(lp, result)?);
        }
    }
    for id in 1..count as i32 {
        if !loop_partitions.contains(&id) {
            continue;
        }
        let (_, position) = kept_for(lp, id, count);
        for i in 0..results.len() {
            if vars[i] == LoopVar::TensorFromOther
                && tensor_result_computed_by(lp, i, id)
                && position[i].is_none()
            {
                return Err(error(
                    lp,
                    &format!("partition {id} computes loop result #{i} but does not keep it"),
                ));
            }
        }
    }

    let location = ir::location(lp);
    let mut buffers: Vec<Option<MlirValue>> = vec![None; results.len()];
    for (i, ty) in buffer_types.iter().enumerate() {
        if let Some(ty) = ty {
            let alloc = ir::build_op(lp, "ttg.local_alloc", &[], &[*ty], &[], location);
            buffers[i] = Some(ir::result(alloc, 0));
        }
    }
    let result_types: Vec<MlirType> = keep.iter().map(|&i| ir::value_type(results[i])).collect();
    let ctx = ir::context(lp);
    let warps = ir::dense_i32_array_attr(ctx, &vec![num_warps as i32; count]);
    let mut attributes = vec![("numWarps", warps)];
    if let Some(types) = ir::attribute(lp, TYPES) {
        // SAFETY: a live attribute.
        if unsafe { mlir_sys::mlirAttributeIsAArray(types) } {
            attributes.push((TYPES, types));
        }
    }
    let mut regions = Vec::new();
    let mut builders = Vec::new();
    for id in 0..count {
        let (region, block) = region_with_block(&[], location);
        regions.push(region);
        builders.push(Builder {
            id: id as i32,
            pos: Pos::End(block),
            map: ValueMap::new(),
        });
    }
    let blocks: Vec<MlirBlock> = builders
        .iter()
        .map(|b| match b.pos {
            Pos::End(block) => block,
            Pos::Before(op) => ir::op_block(op),
        })
        .collect();
    let wg = ir::create_op(
        "nvws.warp_group",
        location,
        &[],
        &result_types,
        &attributes,
        regions,
    );
    ir::insert_before(lp, wg);

    let mut to_erase = Vec::new();
    for op in ir::block_ops(ir::op_block(lp)) {
        if !has_partition(op) || tag(op) != Some(loop_tag) {
            continue;
        }
        if op.ptr == lp.ptr {
            clone_for(lp, &mut builders, count);
        } else {
            clone_op(op, &mut builders, &ids(op));
        }
        to_erase.push(op);
    }

    for (b, block) in builders.iter().zip(&blocks) {
        if !loop_partitions.contains(&b.id) {
            let end = ir::create_op("nvws.warp_group.yield", location, &[], &[], &[], Vec::new());
            insert(b.pos, end);
            continue;
        }
        let Some(copy) = ir::block_ops(*block)
            .into_iter()
            .find(|op| ir::is(*op, "scf.for"))
        else {
            return Err(error(lp, "internal error: a partition lost its loop"));
        };
        let outs = ir::results(copy);
        if b.id == 0 {
            let end = ir::create_op(
                "nvws.warp_group.yield",
                location,
                &outs,
                &[],
                &[],
                Vec::new(),
            );
            insert(b.pos, end);
            continue;
        }
        let (_, position) = kept_for(lp, b.id, count);
        for i in 0..results.len() {
            if vars[i] == LoopVar::TensorFromOther && tensor_result_computed_by(lp, i, b.id) {
                if let (Some(p), Some(buffer)) = (position[i], buffers[i]) {
                    let store = ir::create_op(
                        "ttg.local_store",
                        location,
                        &[outs[p], buffer],
                        &[],
                        &[],
                        Vec::new(),
                    );
                    insert(b.pos, store);
                }
            }
        }
        let end = ir::create_op(
            "nvws.warp_group.return",
            location,
            &[],
            &[],
            &[],
            Vec::new(),
        );
        insert(b.pos, end);
    }

    for (i, &result) in results.iter().enumerate() {
        if !ir::has_uses(result) {
            continue;
        }
        if let Some(buffer) = buffers[i] {
            let ty = ir::value_type(result);
            let load = ir::build_op(lp, "ttg.local_load", &[buffer], &[ty], &[], location);
            ir::build_op(lp, "ttg.local_dealloc", &[buffer], &[], &[], location);
            ir::replace_all_uses(result, ir::result(load, 0));
        } else if ir::uses(result).into_iter().any(|(user, _)| {
            !has_partition(user) || (ir::is(user, "scf.for") && tag(user).is_some())
        }) {
            if let Some(index) = new_index[i] {
                ir::replace_all_uses(result, ir::result(wg, index));
            }
        }
    }

    let erased: HashSet<Op> = to_erase.iter().map(|op| Op(*op)).collect();
    for &op in to_erase.iter().rev() {
        let live = ir::results(op).into_iter().any(|result| {
            ir::uses(result)
                .into_iter()
                .any(|(user, _)| !erased.contains(&Op(outermost_in(user, &erased))))
        });
        if live {
            return Err(error(
                op,
                "a partitioned op is still used outside its partitions",
            ));
        }
    }
    for op in to_erase.into_iter().rev() {
        ir::erase(op);
    }
    Ok(())
}

/// The outermost ancestor of `op` (or `op` itself) that is in `set`, else
/// `op`.
fn outermost_in(op: MlirOperation, set: &HashSet<Op>) -> MlirOperation {
    let mut found = op;
    let mut current = Some(op);
    while let Some(c) = current {
        if set.contains(&Op(c)) {
            found = c;
        }
        current = ir::parent_op(c);
    }
    found
}
