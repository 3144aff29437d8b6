//! `tritongpu-combine-tensor-select-and-if`: Triton 3.6's merge of an
//! `arith.select` into an `scf.if` on the same condition.
//!
//! First, every use of a select's result inside an `scf.if` on the select's
//! condition is replaced by the select's true value (in the then region) or
//! false value (in the else region); scalar selects included.
//!
//! Then each select with a tensor result is merged into the first `scf.if`
//! on its condition, in the select's block, that the select dominates and
//! that dominates every remaining user of the select: the if is rebuilt
//! with one more result per merged select (in walk order), its then yield
//! passes the true value and its else yield (an else block is created when
//! missing) the false value; the new yields take the if's location, as
//! Triton's builders give them.
//!
//! Dominance is decided structurally: ops of one block by their order, a
//! user nested in an op by that op; a user in another block of the if's
//! region is dominated (valid SSA requires the select's block, which is the
//! if's, to dominate it).

use std::collections::HashMap;

use melior::ir::operation::OperationRef;
use mlir_sys::{MlirBlock, MlirOperation, MlirRegion, MlirValue};

use crate::rust_pass::{PassResult, RustPass};
use crate::ttir::loop_support::ir::{self, Op};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUCombineTensorSelectAndIf",
    argument: "tritongpu-combine-tensor-select-and-if",
    description: "Merge tensor arith.select ops into scf.if ops on the same condition",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let module = module.to_raw();
    canonicalize_select_users_in_ifs(module);
    let merges = plan_merges(module);
    for (if_op, selects) in merges {
        merge(if_op, &selects);
    }
    Ok(())
}

fn selects(module: MlirOperation) -> Vec<MlirOperation> {
    ir::collect_post(module, &|op| ir::is(op, "arith.select"))
}

/// The `scf.if` ops among the users of `value`, in use-list order.
fn if_users(value: MlirValue) -> Vec<MlirOperation> {
    ir::uses(value)
        .into_iter()
        .map(|(user, _)| user)
        .filter(|user| ir::is(*user, "scf.if"))
        .collect()
}

fn region(op: MlirOperation, index: usize) -> MlirRegion {
    unsafe { mlir_sys::mlirOperationGetRegion(op, index as isize) }
}

/// Whether `op` lies (at any depth) inside `region`.
fn in_region(region: MlirRegion, op: MlirOperation) -> bool {
    let mut current = op;
    loop {
        let block = ir::op_block(current);
        if ir::is_null_block(block) {
            return false;
        }
        if ir::block_parent_region(block).ptr == region.ptr {
            return true;
        }
        match ir::parent_op(current) {
            Some(parent) => current = parent,
            None => return false,
        }
    }
}

/// Uses of a select inside an if on the select's condition read the
/// select's true or false value directly.
fn canonicalize_select_users_in_ifs(module: MlirOperation) {
    // (replaced value, replacement) -> users, in first-insertion order.
    let mut replacements: Vec<((MlirValue, MlirValue), Vec<MlirOperation>)> = Vec::new();
    for select in selects(module) {
        let condition = ir::operand(select, 0);
        let true_value = ir::operand(select, 1);
        let false_value = ir::operand(select, 2);
        let result = ir::result(select, 0);
        for if_op in if_users(condition) {
            for (user, _) in ir::uses(result) {
                if user.ptr == if_op.ptr || !ir::is_ancestor(if_op, user) {
                    continue;
                }
                let replacement = if in_region(region(if_op, 0), user) {
                    true_value
                } else {
                    false_value
                };
                let key = (result, replacement);
                match replacements
                    .iter_mut()
                    .find(|(k, _)| k.0.ptr == key.0.ptr && k.1.ptr == key.1.ptr)
                {
                    Some((_, users)) => users.push(user),
                    None => replacements.push((key, vec![user])),
                }
            }
        }
    }
    for ((from, to), users) in replacements {
        for user in users {
            for index in 0..ir::operand_count(user) {
                if ir::operand(user, index).ptr == from.ptr {
                    ir::set_operand(user, index, to);
                }
            }
        }
    }
}

/// The positions of a block's ops, computed once per block.
#[derive(Default)]
struct Positions(HashMap<usize, HashMap<Op, usize>>);

impl Positions {
    fn of(&mut self, op: MlirOperation) -> usize {
        let block = ir::op_block(op);
        let table = self.0.entry(block.ptr as usize).or_insert_with(|| {
            ir::block_ops(block)
                .into_iter()
                .enumerate()
                .map(|(i, op)| (Op(op), i))
                .collect()
        });
        table[&Op(op)]
    }
}

/// Whether `if_op` dominates `user` (MLIR's `dominates`: the op itself and
/// ops nested in it count).
fn if_dominates(if_op: MlirOperation, user: MlirOperation, positions: &mut Positions) -> bool {
    let block: MlirBlock = ir::op_block(if_op);
    let region = ir::block_parent_region(block);
    let mut current = user;
    loop {
        let current_block = ir::op_block(current);
        if ir::is_null_block(current_block) {
            return false;
        }
        if current_block.ptr == block.ptr {
            return current.ptr == if_op.ptr || positions.of(if_op) < positions.of(current);
        }
        if ir::block_parent_region(current_block).ptr == region.ptr {
            return true;
        }
        match ir::parent_op(current) {
            Some(parent) => current = parent,
            None => return false,
        }
    }
}

fn is_ranked_tensor(value: MlirValue) -> bool {
    unsafe { mlir_sys::mlirTypeIsARankedTensor(ir::value_type(value)) }
}

/// Each if with the selects merged into it, in Triton's order.
fn plan_merges(module: MlirOperation) -> Vec<(MlirOperation, Vec<MlirOperation>)> {
    let mut positions = Positions::default();
    let mut merges: Vec<(MlirOperation, Vec<MlirOperation>)> = Vec::new();
    for select in selects(module) {
        let result = ir::result(select, 0);
        if !is_ranked_tensor(result) {
            continue;
        }
        let block = ir::op_block(select);
        let mut candidates: Vec<MlirOperation> = if_users(ir::operand(select, 0))
            .into_iter()
            .filter(|if_op| ir::op_block(*if_op).ptr == block.ptr)
            .collect();
        candidates.dedup_by(|a, b| a.ptr == b.ptr);
        candidates.sort_by_key(|if_op| positions.of(*if_op));
        let select_position = positions.of(select);
        let chosen = candidates.into_iter().find(|if_op| {
            select_position < positions.of(*if_op)
                && ir::uses(result)
                    .into_iter()
                    .all(|(user, _)| if_dominates(*if_op, user, &mut positions))
        });
        if let Some(if_op) = chosen {
            match merges.iter_mut().find(|(op, _)| op.ptr == if_op.ptr) {
                Some((_, list)) => list.push(select),
                None => merges.push((if_op, vec![select])),
            }
        }
    }
    merges
}

/// Rebuilds `if_op` with the selects' values as extra results.
fn merge(if_op: MlirOperation, selects: &[MlirOperation]) {
    let location = ir::location(if_op);
    let old_results = ir::results(if_op);
    let mut result_types: Vec<_> = old_results.iter().map(|r| ir::value_type(*r)).collect();
    result_types.extend(selects.iter().map(|s| ir::value_type(ir::result(*s, 0))));
    let regions = unsafe { vec![mlir_sys::mlirRegionCreate(), mlir_sys::mlirRegionCreate()] };
    let new_if = ir::create_op(
        "scf.if",
        location,
        &[ir::operand(if_op, 0)],
        &result_types,
        &[],
        regions,
    );
    ir::insert_before(if_op, new_if);
    unsafe {
        mlir_sys::mlirRegionTakeBody(region(new_if, 0), region(if_op, 0));
        if ir::blocks(region(if_op, 1)).is_empty() {
            let block = mlir_sys::mlirBlockCreate(0, std::ptr::null(), std::ptr::null());
            mlir_sys::mlirRegionAppendOwnedBlock(region(new_if, 1), block);
            let empty_yield = ir::create_op("scf.yield", location, &[], &[], &[], Vec::new());
            mlir_sys::mlirBlockAppendOwnedOperation(block, empty_yield);
        } else {
            mlir_sys::mlirRegionTakeBody(region(new_if, 1), region(if_op, 1));
        }
    }
    for (index, pick) in [(0, 1), (1, 2)] {
        let block = ir::blocks(region(new_if, index))[0];
        let Some(old_yield) = ir::terminator(block) else {
            continue;
        };
        let mut operands = ir::operands(old_yield);
        operands.extend(selects.iter().map(|s| ir::operand(*s, pick)));
        let new_yield = ir::create_op("scf.yield", location, &operands, &[], &[], Vec::new());
        ir::insert_before(old_yield, new_yield);
        ir::erase(old_yield);
    }
    let new_results = ir::results(new_if);
    for (old, new) in old_results.iter().zip(&new_results) {
        ir::replace_all_uses(*old, *new);
    }
    for (select, new) in selects.iter().zip(&new_results[old_results.len()..]) {
        ir::replace_all_uses(ir::result(*select, 0), *new);
        ir::erase(*select);
    }
    ir::erase(if_op);
}
