//! `tritongpu-hoist-tmem-alloc`: the tensor-memory accumulator of a
//! Blackwell MMA (`ttng.tc_gen5_mma`, `ttng.tc_gen5_mma_scaled`) inside an
//! `scf.for` is allocated once, before the loop, as Triton 3.6's
//! `TritonGPUHoistTMEMAlloc` does: the loop carries the allocation's
//! dependency token, an allocation that had an initial value becomes a
//! `ttng.tmem_store` of it, and the uses of the token inside one iteration
//! end in the token the loop yields. Immutable tensor-memory operands
//! (a `ttng.tmem_alloc` of a loop-invariant tensor, reached through
//! single-operand pure ops) move out of the loop too.
//!
//! Then, until nothing changes, rewrites keep the loop's accumulator in
//! tensor memory (each one needs the ops' tokens):
//! - a store of a loop-carried tensor (at a loop-invariant place, under a
//!   loop-invariant predicate) rotates to the end of the previous
//!   iteration: a store of the initial value before the loop, a load of
//!   the result after it;
//! - a load whose only use is the loop's yield rotates to the start of the
//!   next iteration, when the buffer enters the loop from an allocation
//!   without a value (a store of the initial value goes before the loop);
//! - a store of what a load of the same buffer just read is dropped;
//! - a store of `select(c, x, load)` (the load reading the same buffer at
//!   the store's token) stores `x` under `c` (under `!c` for the mirrored
//!   select);
//! - a load sinks to the nearest common dominator of its users when every
//!   use of its token post-dominates that point, threading the token out
//!   of the `scf.if` and `scf.for` ops it sinks into;
//! - a load whose value is unused is dropped.
//!
//! With `hoist-out-of-if`, three more: a store that initializes an
//! allocation in its block folds into the allocation; an allocation with
//! an initial value in an `scf.if` whose branches yield a load of it and
//! the initial value moves before the `if`, which yields the tokens
//! instead (the load follows the `if`); an allocation of a value just
//! loaded from a same-typed buffer reuses that buffer. Each round ends
//! with the loops' canonicalization, constant folding and the removal of
//! dead ops, as Triton's greedy driver does.
//!
//! Last, a mutable allocation that still has an initial value is split
//! into the allocation and a store, the form the later passes expect.
//! A token threaded through control flow other than `scf.for` and
//! `scf.if`, an accumulator whose uses in one iteration end in several or
//! conditional tokens, and a mutable allocation with an initial value but
//! no token (where Triton crashes) are refused with a located error.

use std::collections::HashSet;

use melior::ir::operation::OperationRef;
use melior::pass::Pass;
use mlir_sys::{MlirBlock, MlirOperation, MlirType, MlirValue};

use tt_dialect::rewrite::{apply_greedily, Greedy};

use crate::options::PassOptions;
use crate::rust_pass::{fail, unsupported, Failure, PassResult, RustPass};
use crate::ttgir::pipelining as pl;
use crate::ttir::loop_support::{effects, ir, scf};

/// The pass with its default options.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUHoistTMEMAlloc",
    argument: "tritongpu-hoist-tmem-alloc",
    description: "Hoist the tensor-memory accumulators of Blackwell MMAs out of their loops",
    anchor: "builtin.module",
    run,
};

/// The pass with its `hoist-out-of-if` option (default false).
pub fn factory(options: &PassOptions) -> Result<Pass, String> {
    let out_of_if = options.flag("hoist-out-of-if", false)?;
    Ok(PASS.build_with(move |module| hoist(module, out_of_if)))
}

fn run(module: OperationRef) -> PassResult {
    hoist(module, false)
}

/// How many rewrites a round may apply before the pass gives up.
const REWRITE_LIMIT: usize = 100_000;

/// How many rounds (rewrites, then the loops' canonicalization) the pass
/// runs before it gives up.
const ROUND_LIMIT: usize = 1_000;

/// A rewrite of one op: whether it changed the IR.
type Rule = fn(MlirOperation) -> Result<bool, Failure>;

fn hoist(module: OperationRef, out_of_if: bool) -> PassResult {
    let module = module.to_raw();
    if !out_of_if {
        hoist_accumulators(module)?;
    }
    let mut rules: Vec<(&str, Rule)> = vec![
        ("ttng.tmem_store", rotate_store_in_loop),
        ("ttng.tmem_load", rotate_load_in_loop),
        ("ttng.tmem_store", combine_load_and_store),
        ("ttng.tmem_store", combine_store_and_select),
        ("ttng.tmem_load", sink_load),
        ("ttng.tmem_load", remove_unused_load),
    ];
    if out_of_if {
        rules.push(("ttng.tmem_store", combine_store_and_alloc));
        rules.push(("ttng.tmem_alloc", hoist_alloc_out_of_if));
        rules.push(("ttng.tmem_alloc", forward_load_into_alloc));
    }
    // SAFETY: the module is live for the whole pass.
    let root = unsafe { OperationRef::from_raw(module) };
    apply_rules(module, &rules)?;
    for _ in 0..ROUND_LIMIT {
        if !apply_greedily(root, &scf::FOR_CANONICALIZATION, Greedy::default()) {
            return Err(fail(root, "the loop canonicalization did not converge"));
        }
        if !apply_rules(module, &rules)? {
            return split_initialized_allocs(module);
        }
    }
    Err(fail(root, "the tensor-memory rewrites did not converge"))
}

/// Applies `rules` to the ops under `root` until none applies; whether
/// any did. Like MLIR's greedy driver, which visits a post-order worklist
/// from its end, it tries the later ops first.
fn apply_rules(root: MlirOperation, rules: &[(&str, Rule)]) -> Result<bool, Failure> {
    let mut changed = false;
    for _ in 0..REWRITE_LIMIT {
        let ops = ir::collect_post(root, &|op| rules.iter().any(|(name, _)| ir::is(op, name)));
        let mut applied = false;
        'ops: for op in ops.into_iter().rev() {
            for (name, rule) in rules {
                if ir::is(op, name) && rule(op)? {
                    applied = true;
                    break 'ops;
                }
            }
        }
        if !applied {
            return Ok(changed);
        }
        changed = true;
    }
    // SAFETY: the module is live for the whole pass.
    let root = unsafe { OperationRef::from_raw(root) };
    Err(fail(root, "the tensor-memory rewrites did not converge"))
}

// ----- The ops and their tokens ---------------------------------------------

fn token_type(op: MlirOperation) -> MlirType {
    ir::parse_type(ir::context(op), "!ttg.async.token")
        .expect("'!ttg.async.token' parses once the TritonGPU dialect is loaded")
}

fn is_mma(op: MlirOperation) -> bool {
    ir::is(op, "ttng.tc_gen5_mma") || ir::is(op, "ttng.tc_gen5_mma_scaled")
}

/// The token an op of the tensor-memory token chain produces.
fn token_of(op: MlirOperation) -> Option<MlirValue> {
    if ir::is(op, "ttng.tmem_alloc") || ir::is(op, "ttng.tmem_load") {
        (ir::result_count(op) == 2).then(|| ir::result(op, 1))
    } else if ir::is(op, "ttng.tmem_store") || is_mma(op) {
        (ir::result_count(op) == 1).then(|| ir::result(op, 0))
    } else {
        None
    }
}

/// A `ttng.tmem_store` with its token: destination, dependency, source,
/// predicate and token.
struct Store {
    dst: MlirValue,
    dep: MlirValue,
    src: MlirValue,
    pred: MlirValue,
    token: MlirValue,
}

fn store_parts(op: MlirOperation) -> Option<Store> {
    (ir::is(op, "ttng.tmem_store") && ir::operand_count(op) == 4 && ir::result_count(op) == 1).then(
        || Store {
            dst: ir::operand(op, 0),
            dep: ir::operand(op, 1),
            src: ir::operand(op, 2),
            pred: ir::operand(op, 3),
            token: ir::result(op, 0),
        },
    )
}

/// A `ttng.tmem_load` with its token: source, dependency, value and
/// token.
struct Load {
    src: MlirValue,
    dep: MlirValue,
    value: MlirValue,
    token: MlirValue,
}

fn load_parts(op: MlirOperation) -> Option<Load> {
    (ir::is(op, "ttng.tmem_load") && ir::operand_count(op) == 2 && ir::result_count(op) == 2).then(
        || Load {
            src: ir::operand(op, 0),
            dep: ir::operand(op, 1),
            value: ir::result(op, 0),
            token: ir::result(op, 1),
        },
    )
}

/// A `ttng.tmem_alloc` that produces a token: its buffer, token and
/// initial value.
fn alloc_parts(op: MlirOperation) -> Option<(MlirValue, MlirValue, Option<MlirValue>)> {
    (ir::is(op, "ttng.tmem_alloc") && ir::result_count(op) == 2).then(|| {
        let init = (ir::operand_count(op) == 1).then(|| ir::operand(op, 0));
        (ir::result(op, 0), ir::result(op, 1), init)
    })
}

fn defined_by<T>(
    value: MlirValue,
    parts: fn(MlirOperation) -> Option<T>,
) -> Option<(MlirOperation, T)> {
    let op = ir::defining_op(value)?;
    parts(op).map(|p| (op, p))
}

/// A `ttng.tmem_store` (with a token) of `src` into `dst` under `pred`,
/// created detached.
fn new_store(
    at: MlirOperation,
    dst: MlirValue,
    dep: MlirValue,
    src: MlirValue,
    pred: MlirValue,
) -> MlirOperation {
    ir::create_op(
        "ttng.tmem_store",
        ir::location(at),
        &[dst, dep, src, pred],
        &[token_type(at)],
        &[],
        Vec::new(),
    )
}

/// A `ttng.tmem_load` (with a token) of `src` as `ty`, created detached.
fn new_load(at: MlirOperation, ty: MlirType, src: MlirValue, dep: MlirValue) -> MlirOperation {
    ir::create_op(
        "ttng.tmem_load",
        ir::location(at),
        &[src, dep],
        &[ty, token_type(at)],
        &[],
        Vec::new(),
    )
}

/// `arith.constant true` right before `before`.
fn constant_true(before: MlirOperation, at: MlirOperation) -> MlirValue {
    let i1 = ir::i1_type(ir::context(at));
    ir::build_constant(before, ir::location(at), i1, 1)
}

fn is_constant_bool(value: MlirValue, expected: bool) -> bool {
    ir::integer_width(ir::value_type(value)) == Some(1)
        && ir::constant_int(value).is_some_and(|(v, _)| (v != 0) == expected)
}

/// Appends `value` to the operands of `op`.
fn append_operand(op: MlirOperation, value: MlirValue) {
    let mut operands = ir::operands(op);
    operands.push(value);
    // SAFETY: `op` is live; the operand list is read during the call only.
    unsafe { mlir_sys::mlirOperationSetOperands(op, operands.len() as isize, operands.as_ptr()) };
}

/// The `scf.for` body's argument for `value`, and its iter-arg index.
fn loop_iter_arg(for_op: MlirOperation, value: MlirValue) -> Option<usize> {
    if !ir::is_block_argument(value) || ir::value_block(value).ptr != scf::body(for_op).ptr {
        return None;
    }
    ir::arg_number(value).checked_sub(1)
}

/// Operand index of an `scf.for`'s first init value.
const FOR_INITS: usize = 3;

// ----- Hoisting the accumulators ------------------------------------------

/// Hoists the accumulator allocation (and the invariant tensor-memory
/// operands) of each Blackwell MMA directly in an `scf.for`.
fn hoist_accumulators(module: MlirOperation) -> PassResult {
    for mma in ir::collect_post(module, &is_mma) {
        let Some(for_op) = ir::parent_op(mma).filter(|p| ir::is(*p, "scf.for")) else {
            continue;
        };
        hoist_invariant_inputs(mma, for_op);
        let Some(alloc) =
            ir::defining_op(ir::operand(mma, 2)).filter(|a| alloc_parts(*a).is_some())
        else {
            continue;
        };
        if ir::block_parent_region(ir::op_block(alloc)).ptr
            != ir::block_parent_region(ir::op_block(mma)).ptr
        {
            continue;
        }
        hoist_alloc(alloc, for_op)?;
    }
    Ok(())
}

/// Moves the immutable `ttng.tmem_alloc` operands of `mma` whose value is
/// loop-invariant (through single-operand pure ops, which move too) out of
/// `for_op`.
fn hoist_invariant_inputs(mma: MlirOperation, for_op: MlirOperation) {
    for operand in ir::operands(mma) {
        if ir::defined_outside(for_op, operand) {
            continue;
        }
        let Some(alloc) = ir::defining_op(operand).filter(|a| ir::is(*a, "ttng.tmem_alloc")) else {
            continue;
        };
        if ir::memdesc(operand).is_none_or(|d| d.mutable) || ir::operand_count(alloc) != 1 {
            continue;
        }
        let mut src = ir::operand(alloc, 0);
        let mut chain = vec![alloc];
        while let Some(def) = ir::defining_op(src) {
            if ir::defined_outside(for_op, src)
                || !(effects::is_pure(def) && ir::operand_count(def) == 1)
            {
                break;
            }
            chain.push(def);
            src = ir::operand(def, 0);
        }
        if !ir::defined_outside(for_op, src) {
            continue;
        }
        for op in chain.into_iter().rev() {
            ir::move_before(op, for_op);
        }
    }
}

/// Allocates `alloc`'s buffer before `for_op`, which carries its token.
fn hoist_alloc(alloc: MlirOperation, for_op: MlirOperation) -> PassResult {
    let (buffer, token, init) = alloc_parts(alloc).expect("the caller checked the allocation");
    let last = join_last_uses(token).map_err(|what| unsupported(alloc, PASS.argument, &what))?;
    let yes = constant_true(for_op, alloc);
    let hoisted = ir::create_op(
        "ttng.tmem_alloc",
        ir::location(alloc),
        &[],
        &[ir::value_type(buffer), ir::value_type(token)],
        &[],
        Vec::new(),
    );
    ir::insert_before(for_op, hoisted);
    let for_op = scf::add_iter_args(for_op, &[ir::result(hoisted, 1)]);
    let yield_op = scf::yield_op(for_op).expect("an scf.for ends in its yield");
    append_operand(yield_op, last);
    let mut carried = *scf::region_iter_args(for_op)
        .last()
        .expect("the loop carries the new token");
    if let Some(init) = init {
        let store = new_store(alloc, ir::result(hoisted, 0), carried, init, yes);
        ir::insert_before(alloc, store);
        carried = ir::result(store, 0);
    }
    ir::replace_all_uses(buffer, ir::result(hoisted, 0));
    ir::replace_all_uses(token, carried);
    ir::erase(alloc);
    Ok(())
}

/// The one token that ends the uses of `token` in its block, which the
/// loop carries to the next iteration.
fn join_last_uses(token: MlirValue) -> Result<MlirValue, String> {
    let mut last = Vec::new();
    find_last_uses(token, &mut last, &mut HashSet::new())?;
    let block = ir::value_block(token).ptr;
    match last.as_slice() {
        [only] if ir::value_block(*only).ptr == block => Ok(*only),
        _ => Err(
            "hoisting a tensor-memory accumulator whose uses end in several or conditional tokens"
                .to_owned(),
        ),
    }
}

fn find_last_uses(
    token: MlirValue,
    last: &mut Vec<MlirValue>,
    seen: &mut HashSet<ir::Val>,
) -> Result<(), String> {
    if !seen.insert(ir::Val(token)) {
        return Ok(());
    }
    let uses = ir::uses(token);
    if uses.is_empty() {
        last.push(token);
    }
    for (user, _) in uses {
        let next = token_of(user)
            .filter(|_| !ir::is(user, "ttng.tmem_alloc"))
            .ok_or_else(|| {
                format!(
                    "hoisting a tensor-memory accumulator whose token is used by '{}'",
                    ir::name(user)
                )
            })?;
        find_last_uses(next, last, seen)?;
    }
    Ok(())
}

// ----- The rewrites --------------------------------------------------------

/// A store of a loop-carried tensor moves to the end of the previous
/// iteration.
fn rotate_store_in_loop(op: MlirOperation) -> Result<bool, Failure> {
    let Some(store) = store_parts(op) else {
        return Ok(false);
    };
    let Some(for_op) = ir::parent_op(op).filter(|p| ir::is(*p, "scf.for")) else {
        return Ok(false);
    };
    if !ir::defined_outside(for_op, store.pred) || !ir::defined_outside(for_op, store.dst) {
        return Ok(false);
    }
    let Some(arg_no) = loop_iter_arg(for_op, store.src).filter(|_| ir::uses(store.src).len() == 1)
    else {
        return Ok(false);
    };
    let Some(tok_arg_no) = loop_iter_arg(for_op, store.dep) else {
        return Ok(false);
    };
    let inits = scf::init_args(for_op);
    let init_store = new_store(op, store.dst, inits[tok_arg_no], inits[arg_no], store.pred);
    ir::insert_before(for_op, init_store);
    ir::set_operand(for_op, FOR_INITS + tok_arg_no, ir::result(init_store, 0));
    let yield_op = scf::yield_op(for_op).expect("an scf.for ends in its yield");
    let iter_args = scf::region_iter_args(for_op);
    ir::replace_all_uses(store.token, iter_args[tok_arg_no]);
    ir::move_before(op, yield_op);
    ir::set_operand(op, 1, ir::operand(yield_op, tok_arg_no));
    ir::set_operand(yield_op, tok_arg_no, store.token);
    let yielded = ir::operand(yield_op, arg_no);
    ir::set_operand(op, 2, yielded);
    read_after_loop(op, for_op, store.dst, arg_no, tok_arg_no);
    Ok(true)
}

/// The loop's result `arg_no`, no longer carried as a value, read back
/// from `buffer` after the loop (at the token the loop yields as result
/// `tok_arg_no`); the loop passes the argument through unchanged.
fn read_after_loop(
    op: MlirOperation,
    for_op: MlirOperation,
    buffer: MlirValue,
    arg_no: usize,
    tok_arg_no: usize,
) {
    let result = ir::result(for_op, arg_no);
    let load = new_load(
        op,
        ir::value_type(result),
        buffer,
        ir::result(for_op, tok_arg_no),
    );
    ir::insert_after(for_op, load);
    ir::replace_all_uses(result, ir::result(load, 0));
    let yield_op = scf::yield_op(for_op).expect("an scf.for ends in its yield");
    ir::set_operand(yield_op, arg_no, scf::region_iter_args(for_op)[arg_no]);
}

/// A load whose value only goes to the next iteration moves to the start
/// of that iteration.
fn rotate_load_in_loop(op: MlirOperation) -> Result<bool, Failure> {
    let Some(load) = load_parts(op) else {
        return Ok(false);
    };
    let Some(for_op) = ir::parent_op(op).filter(|p| ir::is(*p, "scf.for")) else {
        return Ok(false);
    };
    let value_uses = ir::uses(load.value);
    if !ir::defined_outside(for_op, load.src) || value_uses.len() != 1 {
        return Ok(false);
    }
    let (yield_op, arg_no) = value_uses[0];
    if !ir::is(yield_op, "scf.yield") || ir::parent_op(yield_op).map(|p| p.ptr) != Some(for_op.ptr)
    {
        return Ok(false);
    }
    // No store may come between the load and the end of the iteration.
    let Some(tok_arg_no) = ir::uses(load.token)
        .into_iter()
        .find(|(user, _)| user.ptr == yield_op.ptr)
        .map(|(_, index)| index)
    else {
        return Ok(false);
    };
    // The buffer must enter the loop without a value.
    let inits = scf::init_args(for_op);
    let Some((_, (_, alloc_token, None))) = defined_by(inits[tok_arg_no], alloc_parts) else {
        return Ok(false);
    };
    let yes = constant_true(for_op, op);
    let init_store = new_store(op, load.src, alloc_token, inits[arg_no], yes);
    ir::insert_before(for_op, init_store);
    ir::set_operand(for_op, FOR_INITS + tok_arg_no, ir::result(init_store, 0));
    ir::set_operand(yield_op, tok_arg_no, load.dep);
    let body = scf::body(for_op);
    let first = ir::block_ops(body)[0];
    if first.ptr != op.ptr {
        ir::move_before(op, first);
    }
    let iter_args = scf::region_iter_args(for_op);
    let tok_arg = iter_args[tok_arg_no];
    ir::set_operand(op, 1, tok_arg);
    for (user, index) in ir::uses(tok_arg) {
        if user.ptr != op.ptr {
            ir::set_operand(user, index, load.token);
        }
    }
    ir::replace_all_uses(iter_args[arg_no], load.value);
    read_after_loop(op, for_op, load.src, arg_no, tok_arg_no);
    Ok(true)
}

/// A store of the value a load of the same buffer just read is dropped.
fn combine_load_and_store(op: MlirOperation) -> Result<bool, Failure> {
    let Some(store) = store_parts(op) else {
        return Ok(false);
    };
    let Some((_, load)) = defined_by(store.dep, load_parts) else {
        return Ok(false);
    };
    if !ir::same_value(load.value, store.src) || !ir::same_value(load.src, store.dst) {
        return Ok(false);
    }
    ir::replace_all_uses(store.token, load.token);
    ir::erase(op);
    Ok(true)
}

/// A store of `select(c, x, load)`, the load reading the stored buffer at
/// the store's token, stores `x` under `c` (under `!c` for the mirrored
/// select).
fn combine_store_and_select(op: MlirOperation) -> Result<bool, Failure> {
    let Some(store) = store_parts(op) else {
        return Ok(false);
    };
    let Some(select) = ir::defining_op(store.src).filter(|s| ir::is(*s, "arith.select")) else {
        return Ok(false);
    };
    let (cond, on_true, on_false) = (
        ir::operand(select, 0),
        ir::operand(select, 1),
        ir::operand(select, 2),
    );
    if ir::integer_width(ir::value_type(cond)) != Some(1) {
        return Ok(false);
    }
    let reads_back = |v: MlirValue| {
        defined_by(v, load_parts).is_some_and(|(_, load)| {
            ir::same_value(load.src, store.dst) && ir::same_value(load.token, store.dep)
        })
    };
    let (true_kept, false_kept) = (reads_back(on_true), reads_back(on_false));
    if true_kept == false_kept {
        return Ok(false);
    }
    let (pred, value) = if true_kept {
        let one = constant_true(op, select);
        let not = ir::build_op(
            op,
            "arith.xori",
            &[cond, one],
            &[ir::value_type(cond)],
            &[],
            ir::location(select),
        );
        (ir::result(not, 0), on_false)
    } else {
        (cond, on_true)
    };
    let new = new_store(op, store.dst, store.dep, value, pred);
    ir::insert_before(op, new);
    ir::replace_all_uses(store.token, ir::result(new, 0));
    ir::erase(op);
    Ok(true)
}

/// A load sinks to the nearest common dominator of its users, when every
/// use of its token post-dominates that point.
fn sink_load(op: MlirOperation) -> Result<bool, Failure> {
    let Some(load) = load_parts(op) else {
        return Ok(false);
    };
    if enclosing_for(op).is_none() {
        return Ok(false);
    }
    let users: Vec<MlirOperation> = ir::uses(load.value).into_iter().map(|(u, _)| u).collect();
    let Some(dom) = nearest_common_dominator(&users) else {
        return Ok(false);
    };
    if !properly_dominates(op, dom, false) {
        return Ok(false);
    }
    if !ir::uses(load.token)
        .into_iter()
        .all(|(user, _)| properly_dominates(user, dom, true))
    {
        return Ok(false);
    }
    // Loads that follow each other keep their order.
    let mut next = ir::next_op(op);
    while let Some(n) = next.filter(|n| ir::is(*n, "ttng.tmem_load")) {
        next = ir::next_op(n);
    }
    if next.is_some_and(|n| n.ptr == dom.ptr) {
        return Ok(false);
    }
    ir::move_before(op, dom);
    let new_token = sink_value_redefinition(load.dep, load.token, ir::op_block(dom))?;
    if !ir::same_value(new_token, load.token) {
        for (user, index) in ir::uses(load.token) {
            if value_properly_dominates(new_token, user) {
                ir::set_operand(user, index, new_token);
            }
        }
    }
    Ok(true)
}

/// A load whose value is unused is dropped; its users take its dependency.
fn remove_unused_load(op: MlirOperation) -> Result<bool, Failure> {
    let Some(load) = load_parts(op) else {
        return Ok(false);
    };
    if ir::has_uses(load.value) {
        return Ok(false);
    }
    ir::replace_all_uses(load.token, load.dep);
    ir::erase(op);
    Ok(true)
}

/// A store (predicate true) that initializes an allocation of its block
/// folds into the allocation.
fn combine_store_and_alloc(op: MlirOperation) -> Result<bool, Failure> {
    let Some(store) = store_parts(op) else {
        return Ok(false);
    };
    if !is_constant_bool(store.pred, true) {
        return Ok(false);
    }
    let Some((alloc, (buffer, alloc_token, _))) = defined_by(store.dep, alloc_parts) else {
        return Ok(false);
    };
    if !ir::same_value(store.dst, buffer) || ir::op_block(alloc).ptr != ir::op_block(op).ptr {
        return Ok(false);
    }
    if let Some(def) = ir::defining_op(store.src) {
        if ir::op_block(def).ptr == ir::op_block(alloc).ptr && ir::is_before(alloc, def) {
            return Ok(false);
        }
    }
    let new = ir::create_op(
        "ttng.tmem_alloc",
        ir::location(alloc),
        &[store.src],
        &[ir::value_type(buffer), ir::value_type(alloc_token)],
        &[],
        Vec::new(),
    );
    ir::insert_before(alloc, new);
    ir::replace_all_uses(buffer, ir::result(new, 0));
    ir::replace_all_uses(alloc_token, ir::result(new, 1));
    ir::erase(alloc);
    ir::replace_all_uses(store.token, ir::result(new, 1));
    ir::erase(op);
    Ok(true)
}

/// An initialized allocation in an `scf.if` whose branches yield a load of
/// it and the initial value moves before the `if`, which yields tokens.
fn hoist_alloc_out_of_if(op: MlirOperation) -> Result<bool, Failure> {
    let Some((buffer, token, Some(init))) = alloc_parts(op) else {
        return Ok(false);
    };
    let Some(if_op) = ir::parent_op(op).filter(|p| ir::is(*p, "scf.if")) else {
        return Ok(false);
    };
    let Some(yields) = scf::if_yields(if_op).filter(|y| y.len() == 2) else {
        return Ok(false);
    };
    let (then_yield, else_yield) = (yields[0], yields[1]);
    let hoisted: Vec<usize> = (0..ir::operand_count(then_yield))
        .filter(|&i| {
            defined_by(ir::operand(then_yield, i), load_parts)
                .is_some_and(|(_, load)| ir::same_value(load.src, buffer))
                && ir::same_value(ir::operand(else_yield, i), init)
        })
        .collect();
    if hoisted.is_empty() {
        return Ok(false);
    }
    ir::move_before(op, if_op);
    let mut cursor = if_op;
    for index in hoisted {
        let (load_op, load) = defined_by(ir::operand(then_yield, index), load_parts)
            .expect("the load was matched above");
        // SAFETY: `load_op` is live; the clone is inserted right away.
        let clone = unsafe { mlir_sys::mlirOperationClone(load_op) };
        ir::insert_after(cursor, clone);
        cursor = clone;
        let result = ir::result(if_op, index);
        ir::replace_all_uses(result, ir::result(clone, 0));
        ir::set_operand(clone, 1, result);
        ir::set_operand(then_yield, index, load.token);
        ir::set_operand(else_yield, index, token);
        // SAFETY: the result is live; its uses are the clone's dependency
        // and the yields now give tokens, so the new type fits them all.
        unsafe { mlir_sys::mlirValueSetType(result, token_type(op)) };
    }
    Ok(true)
}

/// An allocation of a value just loaded from a same-typed buffer reuses
/// that buffer.
fn forward_load_into_alloc(op: MlirOperation) -> Result<bool, Failure> {
    let Some((buffer, token, Some(init))) = alloc_parts(op) else {
        return Ok(false);
    };
    let Some((load_op, load)) = defined_by(init, load_parts) else {
        return Ok(false);
    };
    if ir::uses(load.value).len() != 1
        || ir::has_uses(load.token)
        || ir::uses(load.dep).len() != 1
        || !ir::same_type(ir::value_type(buffer), ir::value_type(load.src))
    {
        return Ok(false);
    }
    ir::replace_all_uses(buffer, load.src);
    ir::replace_all_uses(token, load.dep);
    ir::erase(op);
    ir::erase(load_op);
    Ok(true)
}

/// Splits each mutable allocation with an initial value into the
/// allocation and a store.
fn split_initialized_allocs(module: MlirOperation) -> PassResult {
    let allocs = ir::collect_post(module, &|op| {
        ir::is(op, "ttng.tmem_alloc")
            && ir::operand_count(op) == 1
            && ir::memdesc(ir::result(op, 0)).is_some_and(|d| d.mutable)
    });
    for alloc in allocs {
        let Some((buffer, token, Some(init))) = alloc_parts(alloc) else {
            return Err(unsupported(
                alloc,
                PASS.argument,
                "a mutable tensor-memory allocation with an initial value and no token",
            ));
        };
        let bare = ir::create_op(
            "ttng.tmem_alloc",
            ir::location(alloc),
            &[],
            &[ir::value_type(buffer), ir::value_type(token)],
            &[],
            Vec::new(),
        );
        ir::insert_before(alloc, bare);
        ir::replace_all_uses(buffer, ir::result(bare, 0));
        ir::replace_all_uses(token, ir::result(bare, 1));
        ir::erase(alloc);
        let next = ir::next_op(bare).expect("an allocation is followed by its block's terminator");
        let yes = constant_true(next, bare);
        let store = new_store(bare, ir::result(bare, 0), ir::result(bare, 1), init, yes);
        ir::insert_before(next, store);
        for (user, index) in ir::uses(ir::result(bare, 1)) {
            if user.ptr != store.ptr {
                ir::set_operand(user, index, ir::result(store, 0));
            }
        }
    }
    Ok(())
}

// ----- Dominance in structured control flow -------------------------------

fn enclosing_for(op: MlirOperation) -> Option<MlirOperation> {
    let mut current = ir::parent_op(op);
    while let Some(p) = current {
        if ir::is(p, "scf.for") {
            return Some(p);
        }
        current = ir::parent_op(p);
    }
    None
}

/// Whether `block` is the only block of its region.
fn single_block(block: MlirBlock) -> bool {
    ir::blocks(ir::block_parent_region(block)).len() == 1
}

/// Whether `block` is `inner` or encloses it.
fn block_encloses(block: MlirBlock, inner: MlirBlock) -> bool {
    let mut current = inner;
    loop {
        if current.ptr == block.ptr {
            return true;
        }
        match ir::block_parent_op(current) {
            Some(op) if !ir::is_null_block(ir::op_block(op)) => current = ir::op_block(op),
            _ => return false,
        }
    }
}

/// MLIR's `findNearestCommonDominator` over single-block regions: the
/// first, in the deepest block enclosing them all, of the ops' ancestors.
fn nearest_common_dominator(ops: &[MlirOperation]) -> Option<MlirOperation> {
    match ops {
        [] => return None,
        [only] => return Some(*only),
        _ => {}
    }
    if ops.iter().any(|op| !single_block(ir::op_block(*op))) {
        return None;
    }
    let mut block = ir::op_block(ops[0]);
    while !ops
        .iter()
        .all(|op| block_encloses(block, ir::op_block(*op)))
    {
        let parent = ir::block_parent_op(block)?;
        block = ir::op_block(parent);
        if ir::is_null_block(block) || !single_block(block) {
            return None;
        }
    }
    let mut dom = pl::ancestor_in_block(block, ops[0])?;
    for op in &ops[1..] {
        let ancestor = pl::ancestor_in_block(block, *op)?;
        if ir::is_before(ancestor, dom) {
            dom = ancestor;
        }
    }
    Some(dom)
}

/// MLIR's `properlyDominates` (or, with `post`, `properlyPostDominates`)
/// between ops, an enclosing op counting as dominating; across the blocks
/// of one region nothing is assumed.
fn properly_dominates(a: MlirOperation, b: MlirOperation, post: bool) -> bool {
    if a.ptr == b.ptr {
        return false;
    }
    let a_block = ir::op_block(a);
    let Some(b) = ancestor_in_region(a_block, b) else {
        return false;
    };
    if b.ptr == a.ptr {
        return true;
    }
    if ir::op_block(b).ptr != a_block.ptr {
        return false;
    }
    if post {
        ir::is_before(b, a)
    } else {
        ir::is_before(a, b)
    }
}

/// The ancestor of `op` (or `op`) in the region of `block`.
fn ancestor_in_region(block: MlirBlock, op: MlirOperation) -> Option<MlirOperation> {
    let region = ir::block_parent_region(block).ptr;
    let mut current = Some(op);
    while let Some(c) = current {
        if ir::block_parent_region(ir::op_block(c)).ptr == region {
            return Some(c);
        }
        current = ir::parent_op(c);
    }
    None
}

/// Whether `value` properly dominates `op` (an op's result does not
/// dominate the ops nested in it).
fn value_properly_dominates(value: MlirValue, op: MlirOperation) -> bool {
    match ir::defining_op(value) {
        None => block_encloses(ir::value_block(value), ir::op_block(op)),
        Some(def) => !ir::is_ancestor(def, op) && properly_dominates(def, op, false),
    }
}

/// Triton's `sinkValueRedefinition`: `output`, a redefinition of `input`
/// in `block`, is threaded out of the ops between `block` and `input`'s
/// block, each of which gets `input` on the paths that skip `block`;
/// returns the value that reaches `input`'s block.
fn sink_value_redefinition(
    input: MlirValue,
    mut output: MlirValue,
    mut block: MlirBlock,
) -> Result<MlirValue, Failure> {
    let home = ir::value_block(input);
    while block.ptr != home.ptr {
        let Some(op) = ir::block_parent_op(block) else {
            let at = ir::defining_op(output).expect("a token is an op's result");
            return Err(unsupported(
                at,
                PASS.argument,
                "sinking a load out of its function",
            ));
        };
        if ir::is(op, "scf.for") {
            let new = scf::add_iter_args(op, &[input]);
            let yield_op = scf::yield_op(new).expect("an scf.for ends in its yield");
            append_operand(yield_op, output);
            output = ir::result(new, ir::result_count(new) - 1);
            block = ir::op_block(new);
        } else if ir::is(op, "scf.if") {
            ensure_else(op);
            if branch_yields(op).is_none() {
                return Err(unsupported(
                    op,
                    PASS.argument,
                    "sinking a tensor-memory load into an 'scf.if' whose branches do not end in 'scf.yield'",
                ));
            }
            let mut replacements = Vec::new();
            let new = scf::replace_if_with_new_signature(
                op,
                &[ir::value_type(output)],
                &mut replacements,
            );
            for (old, value) in replacements {
                ir::replace_all_uses(old, value);
            }
            let (then_yield, else_yield) = branch_yields(new).expect("checked on the old if");
            let (taken, other) = if ir::op_block(else_yield).ptr == block.ptr {
                (else_yield, then_yield)
            } else {
                (then_yield, else_yield)
            };
            append_operand(taken, output);
            append_operand(other, input);
            output = ir::result(new, ir::result_count(new) - 1);
            ir::erase(op);
            block = ir::op_block(new);
        } else {
            return Err(unsupported(
                op,
                PASS.argument,
                &format!("sinking a tensor-memory load into '{}'", ir::name(op)),
            ));
        }
    }
    Ok(output)
}

/// The `scf.yield`s ending the then and else blocks of the `scf.if` `op`,
/// when it has both blocks.
fn branch_yields(op: MlirOperation) -> Option<(MlirOperation, MlirOperation)> {
    let mut yields = ir::regions(op).into_iter().map(|r| {
        let block = *ir::blocks(r).first()?;
        ir::terminator(block).filter(|t| ir::is(*t, "scf.yield"))
    });
    Some((yields.next()??, yields.next()??))
}

/// Gives the `scf.if` `op` an else block (an empty `scf.yield`) when it
/// has none; only an `if` without results lacks one.
fn ensure_else(op: MlirOperation) {
    let Some(region) = ir::regions(op).get(1).copied() else {
        return;
    };
    if !ir::blocks(region).is_empty() {
        return;
    }
    let yield_op = ir::create_op("scf.yield", ir::location(op), &[], &[], &[], Vec::new());
    // SAFETY: a new block without arguments goes to the live, empty else
    // region, which owns it; the detached yield goes to that block.
    unsafe {
        let block = mlir_sys::mlirBlockCreate(0, std::ptr::null(), std::ptr::null());
        mlir_sys::mlirRegionAppendOwnedBlock(region, block);
        mlir_sys::mlirBlockAppendOwnedOperation(block, yield_op);
    }
}
