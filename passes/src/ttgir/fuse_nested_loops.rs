//! `tritongpu-fuse-nested-loops`: flattens a loop nest into one `scf.for`
//! so that the software pipeliner sees a single loop, as Triton 3.6's
//! `FuseNestedLoops` does.
//!
//! Which nests: in each `tt.func`, loops form nests through their bodies
//! (a loop directly inside another is its child; any other op with regions
//! starts new nests). A nest is flattened when its outermost loop carries
//! `ttg.always-fuse` (a test attribute), or when it is exactly one loop
//! around one loop and the outer one carries `tt.flatten`
//! (`tl.range(..., flatten=True)`). Before a `tt.flatten` nest is fused,
//! the outer loop's invariant code is hoisted, pure prologue ops used only
//! after the inner loop sink below it, and the inner loop's length is
//! speculated: when its bounds are (or can be made) outer-loop invariant,
//! the nest is split on `len == 0` into a copy without the inner loop and
//! the nest proper, whose inner loop is then known to run (its body needs
//! no guard in the fused loop). A nest whose inner bounds depend on the
//! outer loop is left alone.
//!
//! Fusing one level (innermost levels first) turns
//! `for i { prologue0; for j0 {body0}; ...; for jN {bodyN}; epilogue }`
//! into one loop of `len_i * inner_len` iterations, where `inner_len` is
//! the sum of `max(1, len_jk)` minus `N`; a counter `T` walks one outer
//! iteration, the prologue `k` runs (in an `scf.if`) when `T` reaches the
//! start of loop `k` (the first also advancing `i`), body `k` runs while
//! `T` is inside loop `k`'s range, and the epilogue at the last step. The
//! values that cross those regions (induction variables, the inner loops'
//! results, the prologues' outputs) become iter args of the fused loop,
//! initialized with zeros (or `ub.poison` for types without a zero). Only
//! child loops whose bounds are (or can be hoisted to be) invariant to the
//! parent are fused. The fused loop keeps the largest `tt.num_stages` of
//! the loops it replaces and `tt.disallow_acc_multi_buffer` if any had it.

use std::collections::{HashMap, HashSet, VecDeque};

use melior::ir::operation::OperationRef;
use mlir_sys::{MlirAttribute, MlirBlock, MlirLocation, MlirOperation, MlirType, MlirValue};

use super::pipelining as pl;
use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttir::licm;
use crate::ttir::loop_support::ir::{self, Op};
use crate::ttir::loop_support::{effects, scf};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUFuseNestedLoops",
    argument: "tritongpu-fuse-nested-loops",
    description: "Flatten loop nests marked tt.flatten into one loop",
    anchor: "builtin.module",
    run,
};

/// Set by the frontend on a loop whose nest should be flattened.
const FLATTEN: &str = "tt.flatten";
/// Marks an inner loop whose length was speculated to be non-zero.
const MUST_EXECUTE: &str = "ttg.must-execute";
/// Fuses a nest unconditionally (for tests).
const ALWAYS_FUSE: &str = "ttg.always-fuse";
const NUM_STAGES: &str = "tt.num_stages";
const DISALLOW_ACC_MULTI_BUFFER: &str = "tt.disallow_acc_multi_buffer";

use ir::cmpi::{EQ, SGE, SGT, SLT};

fn run(module: OperationRef) -> PassResult {
    let module = module.to_raw();
    let body = ir::blocks(ir::regions(module)[0])[0];
    for func in ir::block_ops(body) {
        if !ir::is(func, "tt.func") {
            continue;
        }
        let mut nests = Vec::new();
        find_nests(func, &mut nests);
        for mut nest in nests {
            if !should_fuse(&nest) {
                continue;
            }
            let always = ir::attribute(nest.loops[0], ALWAYS_FUSE).is_some();
            if !always && !preprocess(&mut nest) {
                continue;
            }
            flatten(&mut nest, 0)?;
        }
    }
    Ok(())
}

/// A tree of loops: node 0 is the outermost loop, `children[n]` the loops
/// directly in loop `n`'s body.
struct Nest {
    loops: Vec<MlirOperation>,
    children: Vec<Vec<usize>>,
}

impl Nest {
    fn add(&mut self, lp: MlirOperation) -> usize {
        self.loops.push(lp);
        self.children.push(Vec::new());
        self.loops.len() - 1
    }
}

/// The nests rooted at the outermost loops inside `container`, inner nests
/// (below other region ops) first, as Triton lists them.
fn find_nests(container: MlirOperation, nests: &mut Vec<Nest>) {
    for region in ir::regions(container) {
        for block in ir::blocks(region) {
            for op in ir::block_ops(block) {
                if ir::is(op, "scf.for") {
                    let mut nest = Nest {
                        loops: Vec::new(),
                        children: Vec::new(),
                    };
                    nest.add(op);
                    construct(&mut nest, 0, nests);
                    nests.push(nest);
                } else {
                    find_nests(op, nests);
                }
            }
        }
    }
}

fn construct(nest: &mut Nest, node: usize, nests: &mut Vec<Nest>) {
    for region in ir::regions(nest.loops[node]) {
        for block in ir::blocks(region) {
            for op in ir::block_ops(block) {
                if ir::is(op, "scf.for") {
                    let child = nest.add(op);
                    nest.children[node].push(child);
                    construct(nest, child, nests);
                } else if ir::region_count(op) > 0 {
                    find_nests(op, nests);
                }
            }
        }
    }
}

fn should_fuse(nest: &Nest) -> bool {
    let root = nest.loops[0];
    ir::attribute(root, ALWAYS_FUSE).is_some()
        || (nest.loops.len() == 2
            && nest.children[0].len() == 1
            && ir::attribute(root, FLATTEN).is_some())
}

/// Prepares a `tt.flatten` nest; `false` when it cannot be fused.
fn preprocess(nest: &mut Nest) -> bool {
    let outer = nest.loops[0];
    let inner = nest.loops[nest.children[0][0]];
    licm::move_loop_invariant_code(outer);
    // An inner loop that was itself invariant left the nest.
    if ir::op_block(inner).ptr != scf::body(outer).ptr {
        return false;
    }
    sink_into_epilogue(outer, inner);
    speculate_inner_length(outer, inner)
}

/// Position of every op of `block`.
fn positions(block: MlirBlock) -> HashMap<Op, usize> {
    ir::block_ops(block)
        .into_iter()
        .enumerate()
        .map(|(i, op)| (Op(op), i))
        .collect()
}

/// Whether `user` comes after `op` in `op`'s block (or is nested in an op
/// that does): `properlyDominates(op, user, enclosingOpOk)`.
fn after(op: MlirOperation, user: MlirOperation, at: &HashMap<Op, usize>, nested_ok: bool) -> bool {
    match pl::ancestor_in_block(ir::op_block(op), user) {
        Some(a) if a.ptr == op.ptr => nested_ok && user.ptr != op.ptr,
        Some(a) => at.get(&Op(a)) > at.get(&Op(op)),
        None => false,
    }
}

/// Moves the pure prologue ops whose users all come after `inner` (or are
/// moved with them) right after `inner`, shortening what the fused loop
/// carries.
fn sink_into_epilogue(outer: MlirOperation, inner: MlirOperation) {
    let block = scf::body(outer);
    let at = positions(block);
    let ops = ir::block_ops(block);
    let inner_at = at[&Op(inner)];
    let mut sunk: HashSet<Op> = HashSet::new();
    for &op in ops[..inner_at].iter().rev() {
        if !effects::is_pure(op) || pl::is_dot_like(op) {
            continue;
        }
        let movable = ir::results(op).into_iter().all(|r| {
            ir::uses(r)
                .into_iter()
                .all(|(user, _)| after(inner, user, &at, false) || sunk.contains(&Op(user)))
        });
        if movable {
            sunk.insert(Op(op));
        }
    }
    let next = ops[inner_at + 1];
    for &op in &ops[..inner_at] {
        if sunk.contains(&Op(op)) {
            ir::move_before(op, next);
        }
    }
}

/// Whether `ty` is an integer, index or float type.
fn is_int_index_or_float(ty: MlirType) -> bool {
    // SAFETY: a live type.
    unsafe {
        mlir_sys::mlirTypeIsAInteger(ty)
            || mlir_sys::mlirTypeIsAIndex(ty)
            || mlir_sys::mlirTypeIsAFloat(ty)
    }
}

/// The ops (in program order) of `outer`'s body computing `values` from
/// values defined outside `outer` (and, with `with_iv`, from `outer`'s
/// induction variable), or `None` when they depend on anything else (a
/// block argument inside `outer`, an op with effects or non-scalar operands
/// or results). Without `with_iv`, the ops that can move before `outer` to
/// make `values` invariant to it.
fn scalar_computation(
    outer: MlirOperation,
    values: &[MlirValue],
    with_iv: bool,
) -> Option<Vec<MlirOperation>> {
    let iv = scf::induction_var(outer);
    let mut visited: HashSet<Op> = HashSet::new();
    let mut queue: VecDeque<MlirValue> = values.iter().copied().collect();
    while let Some(value) = queue.pop_front() {
        if ir::defined_outside(outer, value) || (with_iv && ir::same_value(value, iv)) {
            continue;
        }
        let op = ir::defining_op(value)?;
        if visited.contains(&Op(op)) {
            continue;
        }
        if !movable_scalar_op(op) {
            return None;
        }
        visited.insert(Op(op));
        queue.extend(ir::operands(op));
    }
    Some(in_program_order(visited))
}

/// [`scalar_computation`] without the induction variable: what hoists.
fn hoistable_computation(outer: MlirOperation, values: &[MlirValue]) -> Option<Vec<MlirOperation>> {
    scalar_computation(outer, values, false)
}

/// Whether `op` is free of memory effects with only scalar operands and
/// results: cheap to move or repeat.
fn movable_scalar_op(op: MlirOperation) -> bool {
    let scalar = |v: MlirValue| is_int_index_or_float(ir::value_type(v));
    effects::is_memory_effect_free(op)
        && ir::operands(op).into_iter().all(scalar)
        && ir::results(op).into_iter().all(scalar)
}

/// `ops`, which share one block, in that block's order.
fn in_program_order(ops: HashSet<Op>) -> Vec<MlirOperation> {
    let Some(first) = ops.iter().next() else {
        return Vec::new();
    };
    ir::block_ops(ir::op_block(first.0))
        .into_iter()
        .filter(|op| ops.contains(&Op(*op)))
        .collect()
}

fn bounds(lp: MlirOperation) -> [MlirValue; 3] {
    [scf::lower_bound(lp), scf::upper_bound(lp), scf::step(lp)]
}

/// Whether an `llvm.intr.assume` states `ub > lb` of `lp`'s bounds
/// (`arith.cmpi sgt, ub, lb` or `slt, lb, ub`), so that it runs at least
/// once.
fn assumed_non_empty(lp: MlirOperation) -> bool {
    let [lb, ub, _] = bounds(lp);
    ir::uses(ub).into_iter().any(|(cmp, _)| {
        if !ir::is(cmp, "arith.cmpi") || ir::operand_count(cmp) != 2 {
            return false;
        }
        let predicate = ir::attribute(cmp, "predicate").and_then(ir::integer_attr_value);
        let [x, y] = [ir::operand(cmp, 0), ir::operand(cmp, 1)];
        let states = match predicate {
            Some(SGT) => ir::same_value(x, ub) && ir::same_value(y, lb),
            Some(SLT) => ir::same_value(x, lb) && ir::same_value(y, ub),
            _ => false,
        };
        states
            && ir::uses(ir::result(cmp, 0))
                .into_iter()
                .any(|(user, _)| ir::is(user, "llvm.intr.assume"))
    })
}

/// Makes the inner loop known to run, marking it `ttg.must-execute`: when
/// an assumption says so; else, when its bounds are (or can be made)
/// outer-loop invariant, by splitting the nest on whether it runs: the
/// `then` branch of a new `scf.if` gets a copy of the nest without the
/// inner loop, the `else` branch the nest. `false` (the nest is not
/// fused) otherwise.
fn speculate_inner_length(outer: MlirOperation, inner: MlirOperation) -> bool {
    let ctx = ir::context(outer);
    // SAFETY: a unit attribute of a live context.
    let unit = unsafe { mlir_sys::mlirUnitAttrGet(ctx) };
    if assumed_non_empty(inner) {
        ir::set_attribute(inner, MUST_EXECUTE, unit);
        return true;
    }
    let Some(hoist) = hoistable_computation(outer, &bounds(inner)) else {
        return false;
    };
    for op in hoist {
        ir::move_before(op, outer);
    }
    ir::set_attribute(inner, MUST_EXECUTE, unit);

    let b = Builder::before(outer, ir::location(inner));
    let len = b.num_iters(inner);
    let zero = b.constant(ir::value_type(len), 0);
    let empty = b.cmpi(EQ, len, zero);
    let result_types: Vec<MlirType> = ir::results(outer).into_iter().map(ir::value_type).collect();
    let (if_op, then_block, else_block) = b.if_op(empty, &result_types);

    // SAFETY: `outer` is live; the clone is detached and appended to the
    // `then` block right away.
    let copy = unsafe { mlir_sys::mlirOperationClone(outer) };
    append(then_block, copy);
    let inner_at = positions(scf::body(outer))[&Op(inner)];
    let inner_copy = ir::block_ops(scf::body(copy))[inner_at];
    for (result, init) in ir::results(inner_copy)
        .into_iter()
        .zip(scf::init_args(inner_copy))
    {
        ir::replace_all_uses(result, init);
    }
    ir::erase(inner_copy);
    append(
        then_block,
        yield_op(ir::location(outer), &ir::results(copy)),
    );

    for (old, new) in ir::results(outer).into_iter().zip(ir::results(if_op)) {
        ir::replace_all_uses(old, new);
    }
    // SAFETY: `outer` is live and attached; it is detached and handed to
    // the `else` block.
    unsafe { mlir_sys::mlirOperationRemoveFromParent(outer) };
    append(else_block, outer);
    append(
        else_block,
        yield_op(ir::location(outer), &ir::results(outer)),
    );
    true
}

/// Fuses every level of the nest below `node`, innermost first, then
/// `node`'s own.
fn flatten(nest: &mut Nest, node: usize) -> PassResult {
    for child in nest.children[node].clone() {
        flatten(nest, child)?;
    }
    fuse_one_level(nest, node)
}

/// A prologue or epilogue: a run of ops of the outer body and the results
/// used after it.
struct Logue {
    ops: Vec<MlirOperation>,
    outputs: Vec<MlirValue>,
}

impl Logue {
    fn new(ops: &[MlirOperation], at: &HashMap<Op, usize>) -> Logue {
        let mut outputs = Vec::new();
        if let Some(&last) = ops.last() {
            for &op in ops {
                for result in ir::results(op) {
                    if ir::uses(result)
                        .into_iter()
                        .any(|(user, _)| after(last, user, at, true))
                    {
                        outputs.push(result);
                    }
                }
            }
        }
        Logue {
            ops: ops.to_vec(),
            outputs,
        }
    }

    fn output_types(&self) -> Vec<MlirType> {
        self.outputs.iter().map(|&v| ir::value_type(v)).collect()
    }

    /// Moves the ops before `anchor`.
    fn move_before(&self, anchor: MlirOperation) {
        for &op in &self.ops {
            ir::move_before(op, anchor);
        }
    }

    /// Replaces the outputs' uses outside `region_op` with `values`.
    fn replace_uses_outside(&self, region_op: MlirOperation, values: &[MlirValue]) {
        for (&output, &value) in self.outputs.iter().zip(values) {
            replace_uses_if(output, value, |user| !ir::is_ancestor(region_op, user));
        }
    }
}

/// Replaces the uses of `old` whose user satisfies `keep` with `new`.
fn replace_uses_if(old: MlirValue, new: MlirValue, keep: impl Fn(MlirOperation) -> bool) {
    for (user, index) in ir::uses(old) {
        if keep(user) {
            ir::set_operand(user, index, new);
        }
    }
}

/// Appends the detached `op` to `block`.
fn append(block: MlirBlock, op: MlirOperation) {
    // SAFETY: `block` is live and takes ownership of the detached `op`.
    unsafe { mlir_sys::mlirBlockAppendOwnedOperation(block, op) }
}

fn yield_op(location: MlirLocation, values: &[MlirValue]) -> MlirOperation {
    ir::create_op("scf.yield", location, values, &[], &[], Vec::new())
}

fn set_operands(op: MlirOperation, values: &[MlirValue]) {
    // SAFETY: `op` is live; the list is read during the call only.
    unsafe { mlir_sys::mlirOperationSetOperands(op, values.len() as isize, values.as_ptr()) }
}

/// The `scf.yield` ending `op`'s region `region`.
fn region_yield(op: MlirOperation, region: usize) -> MlirOperation {
    let block = ir::blocks(ir::regions(op)[region])[0];
    ir::terminator(block).expect("a region ending in scf.yield")
}

/// Builds ops before an anchor op, all at one location.
struct Builder {
    anchor: MlirOperation,
    location: MlirLocation,
}

impl Builder {
    fn before(anchor: MlirOperation, location: MlirLocation) -> Builder {
        Builder { anchor, location }
    }

    fn insert(&self, op: MlirOperation) -> MlirValue {
        ir::insert_before(self.anchor, op);
        ir::result(op, 0)
    }

    fn constant(&self, ty: MlirType, value: i64) -> MlirValue {
        ir::build_constant(self.anchor, self.location, ty, value)
    }

    fn binary(&self, name: &str, lhs: MlirValue, rhs: MlirValue) -> MlirValue {
        ir::build_binary(self.anchor, name, self.location, lhs, rhs)
    }

    fn cmpi(&self, predicate: i64, lhs: MlirValue, rhs: MlirValue) -> MlirValue {
        ir::build_cmpi(self.anchor, self.location, predicate, lhs, rhs)
    }

    fn unary(&self, name: &str, value: MlirValue, ty: MlirType) -> MlirValue {
        self.insert(ir::create_op(
            name,
            self.location,
            &[value],
            &[ty],
            &[],
            Vec::new(),
        ))
    }

    fn select(&self, cond: MlirValue, a: MlirValue, b: MlirValue) -> MlirValue {
        ir::build_select(self.anchor, self.location, cond, a, b)
    }

    /// `ceildiv(ub - lb, step)`.
    fn num_iters(&self, lp: MlirOperation) -> MlirValue {
        self.len_of(bounds(lp))
    }

    /// `ceildiv(ub - lb, step)` of `[lb, ub, step]`.
    fn len_of(&self, [lb, ub, step]: [MlirValue; 3]) -> MlirValue {
        let diff = self.binary("arith.subi", ub, lb);
        self.binary("arith.ceildivsi", diff, step)
    }

    /// `value` as the integer or index type `ty`.
    fn cast_int(&self, value: MlirValue, ty: MlirType) -> MlirValue {
        let from = ir::value_type(value);
        if ir::same_type(from, ty) {
            return value;
        }
        if ir::is_index(from) || ir::is_index(ty) {
            return self.unary("arith.index_cast", value, ty);
        }
        if int_width(from) > int_width(ty) {
            self.unary("arith.trunci", value, ty)
        } else {
            self.unary("arith.extsi", value, ty)
        }
    }

    /// A zero of `ty` (splat for tensors of numbers), or `ub.poison` for
    /// types without one: a placeholder never read on a live path.
    fn poison_or_zero(&self, ty: MlirType) -> MlirValue {
        let tensor = pl::is_ranked_tensor(ty);
        // SAFETY: a live ranked tensor type.
        let element = if tensor {
            unsafe { mlir_sys::mlirShapedTypeGetElementType(ty) }
        } else {
            ty
        };
        if !is_int_index_or_float(element) {
            return self.insert(ir::create_op(
                "ub.poison",
                self.location,
                &[],
                &[ty],
                &[],
                Vec::new(),
            ));
        }
        let ctx = ir::context(self.anchor);
        // SAFETY: attributes of live types of a live context.
        let mut zero: MlirAttribute = unsafe {
            if mlir_sys::mlirTypeIsAFloat(element) {
                mlir_sys::mlirFloatAttrDoubleGet(ctx, element, 0.0)
            } else {
                mlir_sys::mlirIntegerAttrGet(element, 0)
            }
        };
        if tensor {
            // SAFETY: a splat of a scalar of the tensor's element type.
            zero = unsafe { mlir_sys::mlirDenseElementsAttrSplatGet(ty, zero) };
        }
        self.insert(ir::create_op(
            "arith.constant",
            self.location,
            &[],
            &[ty],
            &[("value", zero)],
            Vec::new(),
        ))
    }

    /// An `scf.if` on `cond` with results `types` and empty `then` and
    /// `else` blocks.
    fn if_op(&self, cond: MlirValue, types: &[MlirType]) -> (MlirOperation, MlirBlock, MlirBlock) {
        // SAFETY: fresh regions and blocks, owned by the new op.
        let (op, then_block, else_block) = unsafe {
            let regions: Vec<_> = (0..2)
                .map(|_| {
                    let region = mlir_sys::mlirRegionCreate();
                    let block = mlir_sys::mlirBlockCreate(0, std::ptr::null(), std::ptr::null());
                    mlir_sys::mlirRegionAppendOwnedBlock(region, block);
                    (region, block)
                })
                .collect();
            let op = ir::create_op(
                "scf.if",
                self.location,
                &[cond],
                types,
                &[],
                regions.iter().map(|r| r.0).collect(),
            );
            (op, regions[0].1, regions[1].1)
        };
        ir::insert_before(self.anchor, op);
        (op, then_block, else_block)
    }
}

/// The bit width used for length arithmetic: index counts as 64 bits.
fn int_width(ty: MlirType) -> u32 {
    if ir::is_index(ty) {
        64
    } else {
        ir::integer_width(ty).unwrap_or(64)
    }
}

/// Emits, with `b`, the lengths of the inner loops whose bounds vary with
/// the outer loop (`per_iteration[k]` holds the ops computing them),
/// recomputed for the outer induction variable `outer_iv` taking the value
/// `iv`, and `total` plus `max(1, len)` of each: the lengths (`None` for
/// invariant loops) and the sum.
fn add_varying_lengths(
    b: &Builder,
    outer_iv: MlirValue,
    iv: MlirValue,
    total: MlirValue,
    inner_loops: &[MlirOperation],
    per_iteration: &[Option<Vec<MlirOperation>>],
    int_ty: MlirType,
) -> (Vec<Option<MlirValue>>, MlirValue) {
    let mut total = total;
    let mut lens = Vec::new();
    for (&inner, recompute) in inner_loops.iter().zip(per_iteration) {
        let Some(ops) = recompute else {
            lens.push(None);
            continue;
        };
        let mut map = ir::ValueMap::new();
        map.insert(ir::Val(outer_iv), ir::Val(iv));
        for &op in ops {
            let copy = ir::clone_mapped(op, &mut map);
            ir::insert_before(b.anchor, copy);
        }
        let len = b.len_of(bounds(inner).map(|v| ir::lookup_or_self(&map, v)));
        let len = b.cast_int(len, int_ty);
        let one = b.constant(int_ty, 1);
        let clamped = b.binary("arith.maxsi", one, len);
        total = b.binary("arith.addi", total, clamped);
        lens.push(Some(len));
    }
    (lens, total)
}

/// Rebuilds `if_op` without the results at `remove`, whose uses take the
/// matching `replace_with` values.
fn erase_if_results(if_op: MlirOperation, remove: &[bool], replace_with: &[MlirValue]) {
    if !remove.contains(&true) {
        return;
    }
    for region in 0..2 {
        let y = region_yield(if_op, region);
        let kept: Vec<MlirValue> = ir::operands(y)
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !remove.get(*i).copied().unwrap_or(false))
            .map(|(_, v)| v)
            .collect();
        set_operands(y, &kept);
    }
    let new_if = rebuild_if(if_op);
    let mut replacements = replace_with.iter();
    let mut kept = ir::results(new_if).into_iter();
    for (i, old) in ir::results(if_op).into_iter().enumerate() {
        let new = if remove.get(i).copied().unwrap_or(false) {
            *replacements
                .next()
                .expect("a replacement per removed result")
        } else {
            kept.next().expect("a result per kept value")
        };
        ir::replace_all_uses(old, new);
    }
    ir::erase(if_op);
}

/// A new `scf.if` before `if_op` on the same condition, taking its regions,
/// with results typed after the `then` yield's operands.
fn rebuild_if(if_op: MlirOperation) -> MlirOperation {
    let types: Vec<MlirType> = ir::operands(region_yield(if_op, 0))
        .into_iter()
        .map(ir::value_type)
        .collect();
    let b = Builder::before(if_op, ir::location(if_op));
    let (new_if, _, _) = b.if_op(ir::operand(if_op, 0), &types);
    for (to, from) in ir::regions(new_if).into_iter().zip(ir::regions(if_op)) {
        // SAFETY: both regions are live; `to`'s placeholder block is
        // replaced by `from`'s body.
        unsafe { mlir_sys::mlirRegionTakeBody(to, from) };
    }
    new_if
}

/// Fuses the children of `node` into one loop with `node`'s loop, as the
/// module docs describe. A child's bounds are hoisted when they are (or
/// can be made) invariant to `node`'s loop; bounds computed from its
/// induction variable by cheap scalar ops are recomputed per outer
/// iteration (to sum the fused loop's length before it, and in the first
/// prologue); a child whose bounds depend on anything else is not fused
/// (it stays, whole, in the prologue or epilogue around it).
fn fuse_one_level(nest: &mut Nest, node: usize) -> PassResult {
    let outer = nest.loops[node];
    let children = std::mem::take(&mut nest.children[node]);
    let mut inner_loops = Vec::new();
    // Per inner loop: the ops recomputing its bounds each outer iteration,
    // `None` for invariant bounds.
    let mut per_iteration: Vec<Option<Vec<MlirOperation>>> = Vec::new();
    let mut hoist: HashSet<Op> = HashSet::new();
    for child in children {
        let inner = nest.loops[child];
        if let Some(ops) = hoistable_computation(outer, &bounds(inner)) {
            hoist.extend(ops.into_iter().map(Op));
            per_iteration.push(None);
        } else if let Some(ops) = scalar_computation(outer, &bounds(inner), true) {
            per_iteration.push(Some(ops));
        } else {
            // Left in place: it runs as part of a prologue or the epilogue.
            continue;
        }
        inner_loops.push(inner);
    }
    if inner_loops.is_empty() {
        return Ok(());
    }
    for op in in_program_order(hoist) {
        ir::move_before(op, outer);
    }

    let location = ir::location(outer);
    let ctx = ir::context(outer);
    let b = Builder::before(outer, location);
    let outer_iv = scf::induction_var(outer);
    let len_outer = b.num_iters(outer);
    let mut width = int_width(ir::value_type(outer_iv));
    for &inner in &inner_loops {
        width = width.max(int_width(ir::value_type(scf::lower_bound(inner))));
    }
    // SAFETY: an integer type of a live context.
    let int_ty = unsafe { mlir_sys::mlirIntegerTypeGet(ctx, width) };
    // Invariant lengths, and placeholders for those of each iteration.
    let len_inners: Vec<MlirValue> = inner_loops
        .iter()
        .zip(&per_iteration)
        .map(|(&l, recompute)| match recompute {
            None => {
                let len = b.num_iters(l);
                b.cast_int(len, int_ty)
            }
            Some(_) => b.poison_or_zero(int_ty),
        })
        .collect();
    let any_varying = per_iteration.iter().any(Option::is_some);

    // inner_len = sum(max(1, len_jk)) - N, over the invariant lengths here;
    // the others are added per outer iteration.
    let n = inner_loops.len() as i64 - 1;
    let mut sum = b.constant(int_ty, 0);
    for (&len, recompute) in len_inners.iter().zip(&per_iteration) {
        if recompute.is_some() {
            continue;
        }
        let one = b.constant(int_ty, 1);
        let clamped = b.binary("arith.maxsi", one, len);
        sum = b.binary("arith.addi", sum, clamped);
    }
    let n_cst = b.constant(int_ty, n);
    let inner_len = b.binary("arith.subi", sum, n_cst);
    let len_outer = b.cast_int(len_outer, int_ty);
    let product = b.binary("arith.muli", len_outer, inner_len);
    // The total is summed over the outer iterations, as Triton does for
    // lengths that vary with them; with invariant lengths the sum is the
    // product and the loop yields it unchanged (canonicalization drops it).
    let sum_loop = scf::build_for(outer, location, bounds(outer), &[product], &[]);
    let sum_args = ir::block_args(scf::body(sum_loop));
    let sum_yield = scf::yield_op(sum_loop).expect("a new loop's yield");
    let sum = add_varying_lengths(
        &Builder::before(sum_yield, location),
        outer_iv,
        sum_args[0],
        sum_args[1],
        &inner_loops,
        &per_iteration,
        int_ty,
    )
    .1;
    set_operands(sum_yield, &[sum]);
    let total_iters = ir::result(sum_loop, 0);

    // The prologue before each inner loop and the epilogue after the last.
    let outer_body = scf::body(outer);
    let at = positions(outer_body);
    let body_ops = ir::block_ops(outer_body);
    let index_of = |op: MlirOperation| at[&Op(op)];
    let mut logues = Vec::new();
    let mut start = 0;
    for &inner in &inner_loops {
        logues.push(Logue::new(&body_ops[start..index_of(inner)], &at));
        start = index_of(inner) + 1;
    }
    logues.push(Logue::new(&body_ops[start..body_ops.len() - 1], &at));
    let epilogue = logues.pop().expect("an epilogue");

    // Iter args: T, i, the outer inits, each inner length and their total,
    // the inner induction variables, the inner loops' results, the
    // prologues' outputs.
    let mut inits = vec![b.constant(int_ty, 0)];
    let [outer_lb, _, outer_step] = bounds(outer);
    inits.push(b.binary("arith.subi", outer_lb, outer_step));
    let outer_args_start = inits.len();
    let outer_inits = scf::init_args(outer);
    inits.extend(&outer_inits);
    let lens_start = inits.len();
    inits.extend(&len_inners);
    inits.push(inner_len);
    let ivars_start = inits.len();
    for &inner in &inner_loops {
        inits.push(b.poison_or_zero(ir::value_type(scf::induction_var(inner))));
    }
    let inner_outs_start = inits.len();
    for &inner in &inner_loops {
        for result in ir::results(inner) {
            inits.push(b.poison_or_zero(ir::value_type(result)));
        }
    }
    let logue_outs_start = inits.len();
    for logue in &logues {
        for ty in logue.output_types() {
            inits.push(b.poison_or_zero(ty));
        }
    }
    let zero = b.constant(int_ty, 0);
    let one = b.constant(int_ty, 1);
    let fused = scf::build_for(outer, location, [zero, total_iters, one], &inits, &[]);
    let args = ir::block_args(scf::body(fused));
    let iter_args = &args[1..];
    for (old, &new) in scf::region_iter_args(outer)
        .into_iter()
        .zip(&iter_args[outer_args_start..])
    {
        ir::replace_all_uses(old, new);
    }

    let placeholder = scf::yield_op(fused).expect("a new loop ends in a yield");
    let b = Builder::before(placeholder, location);
    let t = iter_args[0];
    let cur_i = iter_args[1];
    let num_lens = inner_loops.len();
    let len_args = &iter_args[lens_start..lens_start + num_lens];
    // The lengths and their total for this outer iteration, as prologue 0
    // yields them.
    let mut lens: Vec<MlirValue> = len_args.to_vec();
    let mut total = inner_len;
    let mut i = cur_i;
    let mut body_outs = inner_outs_start;
    let mut logue_outs = logue_outs_start;
    let mut prologue_ifs = Vec::new();
    let mut body_ifs = Vec::new();
    for (k, &inner) in inner_loops.iter().enumerate() {
        // Loop k starts at step sum(max(1, len_jm) for m < k) - k.
        let mut sum = b.constant(int_ty, 0);
        for &len in &lens[..k] {
            let one = b.constant(int_ty, 1);
            let clamped = b.binary("arith.maxsi", one, len);
            sum = b.binary("arith.addi", sum, clamped);
        }
        let k_cst = b.constant(int_ty, k as i64);
        let inner_start = b.binary("arith.subi", sum, k_cst);
        let prologue_cond = b.cmpi(EQ, t, inner_start);
        let prologue = &logues[k];
        let inner_iv = scf::induction_var(inner);
        let inner_inits = scf::init_args(inner);
        let num_outs = prologue.outputs.len();
        let num_results = ir::result_count(inner);

        let mut types = vec![ir::value_type(inner_iv)];
        types.extend(prologue.output_types());
        types.extend(inner_inits.iter().map(|&v| ir::value_type(v)));
        if k == 0 {
            types.push(ir::value_type(cur_i));
            types.extend(std::iter::repeat_n(int_ty, num_lens + 1));
        }
        let (prologue_if, then_block, else_block) = b.if_op(prologue_cond, &types);
        let then_yield = yield_op(location, &[]);
        append(then_block, then_yield);
        let tb = Builder::before(then_yield, location);
        let mut then_outs = vec![scf::lower_bound(inner)];
        then_outs.extend(&prologue.outputs);
        then_outs.extend(&inner_inits);
        let mut else_outs = vec![iter_args[ivars_start + k]];
        else_outs.extend(&iter_args[logue_outs..logue_outs + num_outs]);
        else_outs.extend(&iter_args[body_outs..body_outs + num_results]);
        logue_outs += num_outs;
        let mut prologue_extra = Vec::new();
        if k == 0 {
            // i += step, then this iteration's lengths.
            let next_i = tb.binary("arith.addi", cur_i, outer_step);
            let (lens, total) = add_varying_lengths(
                &tb,
                outer_iv,
                next_i,
                inner_len,
                &inner_loops,
                &per_iteration,
                int_ty,
            );
            prologue_extra.push(next_i);
            for (k, len) in lens.iter().enumerate() {
                prologue_extra.push(len.unwrap_or(len_args[k]));
            }
            prologue_extra.push(total);
            else_outs.push(cur_i);
            else_outs.extend(len_args);
            else_outs.push(if any_varying {
                iter_args[lens_start + num_lens]
            } else {
                inner_len
            });
        }
        prologue.move_before(then_yield);
        if let Some(&next_i) = prologue_extra.first() {
            replace_uses_if(outer_iv, next_i, |user| ir::is_ancestor(prologue_if, user));
        }
        then_outs.extend(prologue_extra);
        set_operands(then_yield, &then_outs);
        append(else_block, yield_op(location, &else_outs));

        let results = ir::results(prologue_if);
        let jk = results[0];
        ir::replace_all_uses(inner_iv, jk);
        prologue.replace_uses_outside(prologue_if, &results[1..1 + num_outs]);
        for (arg, &init) in scf::region_iter_args(inner)
            .into_iter()
            .zip(&results[1 + num_outs..1 + num_outs + num_results])
        {
            ir::replace_all_uses(arg, init);
        }
        if k == 0 {
            let extra = &results[1 + num_outs + num_results..];
            i = extra[0];
            lens = extra[1..1 + num_lens].to_vec();
            total = extra[1 + num_lens];
            ir::replace_all_uses(outer_iv, i);
        }

        // The body runs while T is inside loop k's iterations.
        let inner_end = b.binary("arith.addi", inner_start, lens[k]);
        let ge = b.cmpi(SGE, t, inner_start);
        let lt = b.cmpi(SLT, t, inner_end);
        let body_cond = b.binary("arith.andi", ge, lt);
        let mut types = vec![ir::value_type(jk)];
        types.extend(ir::results(inner).into_iter().map(ir::value_type));
        let (body_if, _, else_block) = b.if_op(body_cond, &types);
        let inner_body = scf::body(inner);
        for index in (0..ir::block_args(inner_body).len()).rev() {
            // SAFETY: a live block whose arguments have no uses left.
            unsafe { mlir_sys::mlirBlockEraseArgument(inner_body, index as u32) };
        }
        // SAFETY: live regions; the `then` region's placeholder block is
        // replaced by the inner loop's body.
        unsafe { mlir_sys::mlirRegionTakeBody(ir::regions(body_if)[0], ir::regions(inner)[0]) };
        let body_yield = region_yield(body_if, 0);
        let next_jk = ir::build_binary(body_yield, "arith.addi", location, jk, scf::step(inner));
        let mut yielded = vec![next_jk];
        yielded.extend(ir::operands(body_yield));
        set_operands(body_yield, &yielded);
        let mut forwarded = vec![jk];
        forwarded.extend(&iter_args[body_outs..body_outs + num_results]);
        body_outs += num_results;
        append(else_block, yield_op(location, &forwarded));
        for (old, new) in ir::results(inner)
            .into_iter()
            .zip(ir::results(body_if).into_iter().skip(1))
        {
            ir::replace_all_uses(old, new);
        }
        if ir::attribute(inner, MUST_EXECUTE).is_some() {
            let always = Builder::before(body_if, location).constant(ir::i1_type(ctx), 1);
            ir::set_operand(body_if, 0, always);
        }
        prologue_ifs.push(prologue_if);
        body_ifs.push(body_if);
    }

    // The epilogue runs at the last step; its outputs can only feed the
    // outer yield, whose previous values the `else` branch forwards.
    let outer_yield = scf::yield_op(outer).expect("scf.for ends in scf.yield");
    let mut used_args = Vec::new();
    for &output in &epilogue.outputs {
        for (user, index) in ir::uses(output) {
            if user.ptr == outer_yield.ptr {
                used_args.push(iter_args[outer_args_start + index]);
            }
        }
    }
    if used_args.len() != epilogue.outputs.len() {
        // SAFETY: `outer` is live.
        let at = unsafe { OperationRef::from_raw(outer) };
        return Err(fail(
            at,
            "tritongpu-fuse-nested-loops does not support an epilogue value yielded more than once yet",
        ));
    }
    let one = b.constant(int_ty, 1);
    let last = b.binary("arith.subi", total, one);
    let epilogue_cond = b.cmpi(EQ, t, last);
    let (epilogue_if, then_block, else_block) = b.if_op(epilogue_cond, &epilogue.output_types());
    let then_yield = yield_op(location, &epilogue.outputs);
    append(then_block, then_yield);
    epilogue.move_before(then_yield);
    append(else_block, yield_op(location, &used_args));
    epilogue.replace_uses_outside(epilogue_if, &ir::results(epilogue_if));

    // T = 0 if T == total - 1 else T + 1
    let one = b.constant(int_ty, 1);
    let next_t = b.binary("arith.addi", t, one);
    let one = b.constant(int_ty, 1);
    let last = b.binary("arith.subi", total, one);
    let rollover = b.cmpi(EQ, t, last);
    let zero = b.constant(int_ty, 0);
    let next_t = b.select(rollover, zero, next_t);

    let mut outs = vec![next_t, i];
    outs.extend(ir::operands(outer_yield));
    outs.extend(&lens);
    outs.push(total);
    for &body_if in &body_ifs {
        outs.push(ir::result(body_if, 0));
    }
    for &body_if in &body_ifs {
        outs.extend(ir::results(body_if).into_iter().skip(1));
    }
    for (&prologue_if, logue) in prologue_ifs.iter().zip(&logues) {
        outs.extend(
            ir::results(prologue_if)
                .into_iter()
                .skip(1)
                .take(logue.outputs.len()),
        );
    }
    ir::erase(placeholder);
    let fused_body = scf::body(fused);
    append(fused_body, yield_op(location, &outs));
    let fused_yield = scf::yield_op(fused).expect("the fused loop's yield");
    for (old, new) in ir::results(outer).into_iter().zip(
        ir::results(fused)
            .into_iter()
            .skip(outer_args_start)
            .take(outer_inits.len()),
    ) {
        ir::replace_all_uses(old, new);
    }

    // Inner inits defined outside the fused loop initialize its iter args
    // once; the epilogue resets them for the next outer iteration.
    let mut yields_to_update = Vec::new();
    let mut reset = Vec::new();
    let mut forwarded = Vec::new();
    let mut offset = inner_outs_start;
    for (k, &inner) in inner_loops.iter().enumerate() {
        let num_results = ir::result_count(inner);
        let skip = 1 + logues[k].outputs.len();
        let mut remove = vec![false; ir::result_count(prologue_ifs[k])];
        let mut replace_with = Vec::new();
        for (index, init) in scf::init_args(inner).into_iter().enumerate() {
            let in_fused_body = match ir::defining_op(init) {
                Some(def) => ir::op_block(def).ptr == fused_body.ptr,
                None => ir::value_block(init).ptr == fused_body.ptr,
            };
            if in_fused_body {
                continue;
            }
            ir::set_operand(fused, 3 + offset + index, init);
            replace_with.push(iter_args[offset + index]);
            remove[skip + index] = true;
            yields_to_update.push(offset + index);
            forwarded.push(ir::result(body_ifs[k], 1 + index));
            reset.push(init);
        }
        erase_if_results(prologue_ifs[k], &remove, &replace_with);
        offset += num_results;
    }
    if !yields_to_update.is_empty() {
        let then_yield = region_yield(epilogue_if, 0);
        let else_yield = region_yield(epilogue_if, 1);
        set_operands(then_yield, &[ir::operands(then_yield), reset].concat());
        set_operands(else_yield, &[ir::operands(else_yield), forwarded].concat());
        let new_if = rebuild_if(epilogue_if);
        let new_results = ir::results(new_if);
        let kept = ir::result_count(epilogue_if);
        for (old, &new) in ir::results(epilogue_if).into_iter().zip(&new_results) {
            ir::replace_all_uses(old, new);
        }
        for (&index, &value) in yields_to_update.iter().zip(&new_results[kept..]) {
            ir::set_operand(fused_yield, index, value);
        }
        ir::erase(epilogue_if);
    }

    let disallow = std::iter::once(outer)
        .chain(inner_loops.iter().copied())
        .any(|l| ir::attribute(l, DISALLOW_ACC_MULTI_BUFFER).is_some());
    if disallow {
        // SAFETY: a unit attribute of a live context.
        let unit = unsafe { mlir_sys::mlirUnitAttrGet(ctx) };
        ir::set_attribute(fused, DISALLOW_ACC_MULTI_BUFFER, unit);
    }
    let stages = std::iter::once(outer)
        .chain(inner_loops.iter().copied())
        .filter_map(|l| pl::int_attribute(l, NUM_STAGES))
        .fold(1, i64::max);
    for inner in inner_loops {
        ir::erase(inner);
    }
    ir::erase(outer);
    if stages > 1 {
        pl::set_i32(fused, NUM_STAGES, stages);
    }
    nest.loops[node] = fused;
    Ok(())
}
