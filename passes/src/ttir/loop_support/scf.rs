//! `scf.for` utilities with MLIR's semantics: the parts of a loop, a copy
//! with more iter args (`replaceForOpWithNewSignature`), its static trip
//! count (`ForOp::getStaticTripCount`), its last iteration peeled into an
//! `scf.if` (Triton's `peelLoopEpilogue`), promotion of a loop that
//! runs at most once (`ForOp::promoteIfSingleIteration`), the loop's
//! canonicalization patterns as Triton 3.6's MLIR has them (the iter-arg
//! folder and the trivial-loop simplifier), and two of `scf.if`'s (trivial
//! ifs to selects, unused results), written as Rust patterns for MLIR's
//! greedy driver.

use melior::ir::{operation::OperationRef, BlockRef, Operation, Value};
use melior::RewriterBase;
use mlir_sys::{MlirAttribute, MlirBlock, MlirLocation, MlirOperation, MlirType, MlirValue};

use super::ir::{self, Val};
use tt_dialect::rewrite::{Pattern, Root};

/// `scf.for` operand layout: lower bound, upper bound, step, then the
/// initial values of the iter args.
pub fn lower_bound(op: MlirOperation) -> MlirValue {
    ir::operand(op, 0)
}

pub fn upper_bound(op: MlirOperation) -> MlirValue {
    ir::operand(op, 1)
}

pub fn step(op: MlirOperation) -> MlirValue {
    ir::operand(op, 2)
}

pub fn init_args(op: MlirOperation) -> Vec<MlirValue> {
    ir::operands(op).split_off(3)
}

/// The loop body (the one block of the one region).
pub fn body(op: MlirOperation) -> MlirBlock {
    ir::blocks(ir::regions(op)[0])[0]
}

pub fn induction_var(op: MlirOperation) -> MlirValue {
    ir::block_args(body(op))[0]
}

pub fn region_iter_args(op: MlirOperation) -> Vec<MlirValue> {
    ir::block_args(body(op)).split_off(1)
}

/// The `scf.yield` that ends the body.
pub fn yield_op(op: MlirOperation) -> Option<MlirOperation> {
    ir::terminator(body(op)).filter(|t| ir::is(*t, "scf.yield"))
}

pub fn yielded_values(op: MlirOperation) -> Vec<MlirValue> {
    yield_op(op).map(ir::operands).unwrap_or_default()
}

/// The induction variable's value in the loop's last iteration, computed
/// after `after` (Triton's `getLastInductionValue`): `lb + (ub - lb - 1) /
/// step * step`, meaningful when the loop runs at least once. Returns the
/// value and the last op created.
pub fn last_induction_value(
    loop_op: MlirOperation,
    after: MlirOperation,
) -> (MlirValue, MlirOperation) {
    let loc = ir::location(loop_op);
    let (lb, ub, step) = (lower_bound(loop_op), upper_bound(loop_op), step(loop_op));
    let ty = ir::value_type(step);
    let mut last = after;
    let mut emit = |name: &str, operands: &[MlirValue], attributes: &[(&str, MlirAttribute)]| {
        let op = ir::create_op(name, loc, operands, &[ty], attributes, Vec::new());
        ir::insert_after(last, op);
        last = op;
        ir::result(op, 0)
    };
    let range = emit("arith.subi", &[ub, lb], &[]);
    let one = emit("arith.constant", &[], &[("value", ir::integer_attr(ty, 1))]);
    let range = emit("arith.subi", &[range, one], &[]);
    let iterations = emit("arith.divsi", &[range, step], &[]);
    let delta = emit("arith.muli", &[iterations, step], &[]);
    let value = emit("arith.addi", &[delta, lb], &[]);
    (value, last)
}

/// Peels the last iteration of `loop_op` (Triton's `peelLoopEpilogue`):
/// the loop stops one step earlier (`ub - step`), and an `scf.if lb < ub`
/// after it runs a copy of the body at the last induction value on the
/// loop's results, yielding that copy's values (the loop's results when
/// the loop does not run). Every use of the loop's results outside the
/// `scf.if` reads the `scf.if`'s. Returns the `scf.if`.
pub fn peel_epilogue(loop_op: MlirOperation) -> MlirOperation {
    let loc = ir::location(loop_op);
    let ctx = ir::context(loop_op);
    let (lb, ub) = (lower_bound(loop_op), upper_bound(loop_op));
    let new_ub = ir::build_binary(loop_op, "arith.subi", loc, ub, step(loop_op));
    let (last_iv, last) = last_induction_value(loop_op, loop_op);
    let predicate = ir::integer_attr(ir::i64_type(ctx), ir::cmpi::SLT);
    let cond = ir::create_op(
        "arith.cmpi",
        loc,
        &[lb, ub],
        &[ir::i1_type(ctx)],
        &[("predicate", predicate)],
        Vec::new(),
    );
    ir::insert_after(last, cond);
    let results = ir::results(loop_op);
    // SAFETY: the regions and blocks are created here and handed to the
    // op (regions) and regions (blocks) that own them from then on.
    let (then_block, else_block, regions) = unsafe {
        let then_region = mlir_sys::mlirRegionCreate();
        let else_region = mlir_sys::mlirRegionCreate();
        let then_block = mlir_sys::mlirBlockCreate(0, std::ptr::null(), std::ptr::null());
        let else_block = mlir_sys::mlirBlockCreate(0, std::ptr::null(), std::ptr::null());
        mlir_sys::mlirRegionAppendOwnedBlock(then_region, then_block);
        mlir_sys::mlirRegionAppendOwnedBlock(else_region, else_block);
        (then_block, else_block, vec![then_region, else_region])
    };
    let types: Vec<MlirType> = results.iter().map(|&r| ir::value_type(r)).collect();
    let if_op = ir::create_op("scf.if", loc, &[ir::result(cond, 0)], &types, &[], regions);
    ir::insert_after(cond, if_op);
    let mut map = ir::ValueMap::new();
    map.insert(Val(induction_var(loop_op)), Val(last_iv));
    for (arg, result) in region_iter_args(loop_op).into_iter().zip(&results) {
        map.insert(Val(arg), Val(*result));
    }
    for op in ir::block_ops(body(loop_op)) {
        let copy = ir::clone_mapped(op, &mut map);
        // SAFETY: `copy` is detached; the block takes ownership.
        unsafe { mlir_sys::mlirBlockAppendOwnedOperation(then_block, copy) };
    }
    let else_yield = ir::create_op("scf.yield", loc, &results, &[], &[], Vec::new());
    // SAFETY: as above.
    unsafe { mlir_sys::mlirBlockAppendOwnedOperation(else_block, else_yield) };
    for (result, replacement) in results.iter().zip(ir::results(if_op)) {
        for (user, index) in ir::uses(*result) {
            if !ir::is_ancestor(if_op, user) {
                ir::set_operand(user, index, replacement);
            }
        }
    }
    ir::set_operand(loop_op, 1, new_ub);
    if_op
}

/// A new `scf.for` before `before` with the bounds `[lb, ub, step]`, the
/// given initial values and attributes, and an empty body ending in an
/// empty yield.
pub fn build_for(
    before: MlirOperation,
    location: MlirLocation,
    bounds: [MlirValue; 3],
    inits: &[MlirValue],
    attributes: &[(&str, MlirAttribute)],
) -> MlirOperation {
    let mut operands = bounds.to_vec();
    operands.extend_from_slice(inits);
    let types: Vec<MlirType> = inits.iter().map(|&v| ir::value_type(v)).collect();
    let mut arg_types = vec![ir::value_type(bounds[0])];
    arg_types.extend(&types);
    // The induction variable at the loop's location, each iteration
    // argument at its initial value's, as MLIR's `scf.for` builder places
    // them.
    let mut locations = vec![location];
    locations.extend(inits.iter().map(|&v| ir::value_location(v)));
    // SAFETY: a fresh block and region, handed to the new op, which takes
    // ownership; the yield is appended to that block.
    unsafe {
        let block = mlir_sys::mlirBlockCreate(
            arg_types.len() as isize,
            arg_types.as_ptr(),
            locations.as_ptr(),
        );
        let region = mlir_sys::mlirRegionCreate();
        mlir_sys::mlirRegionAppendOwnedBlock(region, block);
        let op = ir::create_op(
            "scf.for",
            location,
            &operands,
            &types,
            attributes,
            vec![region],
        );
        ir::insert_before(before, op);
        let yield_op = ir::create_op("scf.yield", location, &[], &[], &[], Vec::new());
        mlir_sys::mlirBlockAppendOwnedOperation(block, yield_op);
        op
    }
}

/// `replaceForOpWithNewSignature`: a copy of `op` (before it, owning its
/// body) with `extra` appended to its inits; the old results map to the new
/// loop's first ones.
pub fn replace_for_with_new_signature(
    op: MlirOperation,
    extra: &[MlirValue],
    replacements: &mut Vec<(MlirValue, MlirValue)>,
) -> MlirOperation {
    let mut operands = ir::operands(op);
    operands.extend_from_slice(extra);
    let mut types: Vec<MlirType> = ir::results(op).into_iter().map(ir::value_type).collect();
    types.extend(extra.iter().map(|v| ir::value_type(*v)));
    // SAFETY: a new region, which the new loop takes over, receives the
    // old loop's body; the old loop is left with an empty region.
    let region = unsafe { mlir_sys::mlirRegionCreate() };
    unsafe { mlir_sys::mlirRegionTakeBody(region, ir::regions(op)[0]) };
    let attributes = ir::attributes(op);
    let attributes: Vec<(&str, MlirAttribute)> =
        attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let new = ir::create_op(
        "scf.for",
        ir::location(op),
        &operands,
        &types,
        &attributes,
        vec![region],
    );
    ir::insert_before(op, new);
    let body = body(new);
    for v in extra {
        // SAFETY: the new loop's live body gets one argument per new init.
        unsafe {
            mlir_sys::mlirBlockAddArgument(
                body,
                ir::value_type(*v),
                mlir_sys::mlirValueGetLocation(*v),
            )
        };
    }
    for (i, r) in ir::results(op).into_iter().enumerate() {
        replacements.push((r, ir::result(new, i)));
    }
    new
}

/// Triton's `addIterArgsToLoop`: `op` is replaced by a loop that also
/// carries `extra` (appended to its inits and body arguments, not yet to
/// its yield); the old loop's results are replaced by the new loop's first
/// ones and the old loop is erased. Returns the new loop.
pub fn add_iter_args(op: MlirOperation, extra: &[MlirValue]) -> MlirOperation {
    let mut replacements = Vec::new();
    let new = replace_for_with_new_signature(op, extra, &mut replacements);
    for (old, value) in replacements {
        ir::replace_all_uses(old, value);
    }
    ir::erase(op);
    new
}

/// `replaceIfOpWithNewSignature`: a copy of `op` (before it, owning its
/// regions) with `extra` result types appended.
pub fn replace_if_with_new_signature(
    op: MlirOperation,
    extra: &[MlirType],
    replacements: &mut Vec<(MlirValue, MlirValue)>,
) -> MlirOperation {
    let mut types: Vec<MlirType> = ir::results(op).into_iter().map(ir::value_type).collect();
    types.extend_from_slice(extra);
    let new = if_taking_regions(op, &types);
    ir::insert_before(op, new);
    for (i, r) in ir::results(op).into_iter().enumerate() {
        replacements.push((r, ir::result(new, i)));
    }
    new
}

/// A new `scf.if` (in no block) with `op`'s condition and attributes and
/// results of `types`, taking over `op`'s regions; `op` is left with empty
/// ones.
fn if_taking_regions(op: MlirOperation, types: &[MlirType]) -> MlirOperation {
    let regions: Vec<_> = ir::regions(op)
        .into_iter()
        .map(|old| {
            // SAFETY: a new region, which the new if takes over, receives
            // the old region's blocks; the old if is left with empty ones.
            let r = unsafe { mlir_sys::mlirRegionCreate() };
            unsafe { mlir_sys::mlirRegionTakeBody(r, old) };
            r
        })
        .collect();
    let attributes = ir::attributes(op);
    let attributes: Vec<(&str, MlirAttribute)> =
        attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    ir::create_op(
        "scf.if",
        ir::location(op),
        &ir::operands(op),
        types,
        &attributes,
        regions,
    )
}

/// Whether `op` is an `scf.for` in the shape every helper here assumes: the
/// three bounds, one region with one block whose arguments match the iter
/// args, ending in an `scf.yield` with one value per iter arg. The verifier
/// guarantees it for verified IR.
pub fn is_well_formed_for(op: MlirOperation) -> bool {
    if !ir::is(op, "scf.for") || ir::operand_count(op) < 3 || ir::region_count(op) != 1 {
        return false;
    }
    let blocks = ir::blocks(ir::regions(op)[0]);
    if blocks.len() != 1 {
        return false;
    }
    let inits = ir::operand_count(op) - 3;
    ir::block_args(blocks[0]).len() == inits + 1
        && ir::result_count(op) == inits
        && yield_op(op).is_some_and(|y| ir::operand_count(y) == inits)
}

/// Whether the loop compares its bounds unsigned (`unsignedCmp`).
pub fn is_unsigned(op: MlirOperation) -> bool {
    ir::attribute(op, "unsignedCmp").is_some()
}

/// `value` truncated to `width` bits and sign-extended back.
fn sext(value: i128, width: u32) -> i128 {
    let shift = 128 - width.min(127);
    (value << shift) >> shift
}

/// `value` truncated to `width` bits, read unsigned.
fn zext(value: i128, width: u32) -> i128 {
    if width >= 127 {
        value
    } else {
        value & ((1i128 << width) - 1)
    }
}

/// The bit width of a loop bound type (index counts as 64).
fn bound_width(value: MlirValue) -> u32 {
    let ty = ir::value_type(value);
    ir::integer_width(ty).unwrap_or(64)
}

/// `ub - lb` for an upper bound `arith.addi %lb, %c` whose overflow flags
/// rule out wrapping (MLIR's non-constant trip-count helper).
fn offset_from_lower(lb: MlirValue, ub: MlirValue, signed: bool) -> Option<i128> {
    let add = ir::defining_op(ub).filter(|op| ir::is(*op, "arith.addi"))?;
    let flags = ir::attribute(add, "overflowFlags")?;
    let text = attribute_text(flags);
    if !text.contains(if signed { "nsw" } else { "nuw" }) {
        return None;
    }
    if !ir::same_value(ir::operand(add, 0), lb) {
        return None;
    }
    let (c, width) = ir::constant_int(ir::operand(add, 1))?;
    Some(if signed {
        i128::from(c)
    } else {
        zext(i128::from(c), width)
    })
}

/// The printed form of an attribute.
pub fn attribute_text(attr: mlir_sys::MlirAttribute) -> String {
    unsafe extern "C" fn append(s: mlir_sys::MlirStringRef, data: *mut std::ffi::c_void) {
        let out = unsafe { &mut *(data as *mut Vec<u8>) };
        out.extend_from_slice(unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) });
    }
    let mut out: Vec<u8> = Vec::new();
    unsafe {
        mlir_sys::mlirAttributePrint(attr, Some(append), &mut out as *mut Vec<u8> as *mut _);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The number of iterations when it is known statically, as MLIR's
/// `constantTripCount` computes it: a number of the bounds' width, returned
/// sign-extended (callers that read it unsigned truncate it back).
pub fn static_trip_count(op: MlirOperation) -> Option<i128> {
    let (lb, ub, step) = (lower_bound(op), upper_bound(op), step(op));
    let width = bound_width(lb);
    if width != bound_width(ub)
        || ir::integer_width(ir::value_type(lb)).is_some()
            != ir::integer_width(ir::value_type(ub)).is_some()
    {
        return None;
    }
    if ir::same_value(lb, ub) {
        return Some(0);
    }
    let signed = !is_unsigned(op);
    let step_cst = ir::constant_int(step).map(|(v, w)| sext(i128::from(v), w));
    if let Some(s) = step_cst {
        if s == 0 {
            return Some(0);
        }
        if s < 0 {
            return Some(0);
        }
    }
    let read = |v: i64| {
        if signed {
            sext(i128::from(v), width)
        } else {
            zext(i128::from(v), width)
        }
    };
    let diff = match (ir::constant_int(lb), ir::constant_int(ub)) {
        (Some((l, _)), Some((u, _))) => {
            let (l, u) = (read(l), read(u));
            if u <= l {
                return Some(0);
            }
            // The difference in the bounds' width, as APSInt wraps it.
            if signed {
                sext(u - l, width)
            } else {
                zext(u - l, width)
            }
        }
        (Some(_), None) | (None, Some(_)) => return None,
        (None, None) => offset_from_lower(lb, ub, signed)?,
    };
    if diff < 0 {
        return Some(0);
    }
    // MLIR divides as signed numbers of the bounds' width, even for an
    // unsigned loop whose difference has the sign bit set.
    let s = step_cst?;
    let diff = sext(diff, width);
    let mut count = diff / s;
    if diff % s != 0 {
        count += 1;
    }
    Some(sext(count, width))
}

/// MLIR's `ForOp::promoteIfSingleIteration`: a loop that runs zero times is
/// replaced by its initial values, one that runs once by its body. Returns
/// whether the loop is gone.
pub fn promote_if_single_iteration(op: MlirOperation) -> bool {
    let Some(count) = static_trip_count(op) else {
        return false;
    };
    // The count is compared as an unsigned number of the bounds' width.
    if zext(count, bound_width(lower_bound(op))) > 1 {
        return false;
    }
    let inits = init_args(op);
    if count == 0 {
        for (result, init) in ir::results(op).into_iter().zip(&inits) {
            ir::replace_all_uses(result, *init);
        }
        ir::erase(op);
        return true;
    }
    let block = body(op);
    ir::replace_all_uses(induction_var(op), lower_bound(op));
    for (arg, init) in region_iter_args(op).into_iter().zip(&inits) {
        ir::replace_all_uses(arg, *init);
    }
    let Some(terminator) = ir::terminator(block) else {
        return false;
    };
    for (result, yielded) in ir::results(op).into_iter().zip(ir::operands(terminator)) {
        ir::replace_all_uses(result, yielded);
    }
    for nested in ir::block_ops(block) {
        if nested.ptr != terminator.ptr {
            ir::move_before(nested, op);
        }
    }
    ir::erase(op);
    true
}

// --- Canonicalization patterns ------------------------------------------

fn op_ref<'c, 'a>(op: MlirOperation) -> OperationRef<'c, 'a> {
    unsafe { OperationRef::from_raw(op) }
}

fn value<'c, 'a>(v: MlirValue) -> Value<'c, 'a> {
    unsafe { Value::from_raw(v) }
}

fn block_ref<'c, 'a>(b: MlirBlock) -> BlockRef<'c, 'a> {
    unsafe { BlockRef::from_raw(b) }
}

fn values<'c, 'a>(vs: &[MlirValue]) -> Vec<Value<'c, 'a>> {
    vs.iter().map(|v| value(*v)).collect()
}

/// Creates a yield with `operands` through the rewriter, right before
/// `before`.
fn insert_yield(rewriter: &RewriterBase, before: MlirOperation, operands: &[MlirValue]) {
    let new = ir::create_op(
        "scf.yield",
        ir::location(before),
        operands,
        &[],
        &[],
        Vec::new(),
    );
    rewriter.set_insertion_point_before(op_ref(before));
    rewriter.insert(unsafe { Operation::from_raw(new) });
}

/// Folds away iter args that carry nothing: an arg that yields itself or
/// its initial value (it always holds the initial value), an arg whose
/// result and body uses are both gone, and an arg whose initial and yielded
/// values are those of an earlier kept arg (it always equals that arg).
fn fold_iter_args(root: OperationRef, rewriter: &RewriterBase) -> bool {
    let op = root.to_raw();
    if !is_well_formed_for(op) {
        return false;
    }
    let inits = init_args(op);
    let args = region_iter_args(op);
    let results = ir::results(op);
    let yielded = yielded_values(op);
    let mut keep = Vec::with_capacity(inits.len());
    let mut changed = false;
    let mut kept_pairs: Vec<((Val, Val), (MlirValue, MlirValue))> = Vec::new();
    for i in 0..inits.len() {
        let (init, arg, result, out) = (inits[i], args[i], results[i], yielded[i]);
        let forwarded = ir::same_value(arg, out)
            || ir::same_value(init, out)
            || (!ir::has_uses(arg) && !ir::has_uses(result));
        if forwarded {
            changed = true;
            keep.push(false);
            continue;
        }
        if let Some((_, (same_arg, same_result))) = kept_pairs
            .iter()
            .find(|(key, _)| *key == (Val(init), Val(out)))
            .copied()
        {
            changed = true;
            keep.push(false);
            rewriter.replace_all_uses_with(value(arg), value(same_arg));
            rewriter.replace_all_uses_with(value(result), value(same_result));
            continue;
        }
        kept_pairs.push(((Val(init), Val(out)), (arg, result)));
        keep.push(true);
    }
    if !changed {
        return false;
    }

    let location = ir::location(op);
    let new_inits: Vec<MlirValue> = (0..inits.len())
        .filter(|i| keep[*i])
        .map(|i| inits[i])
        .collect();
    let mut arg_types = vec![ir::value_type(induction_var(op))];
    arg_types.extend(new_inits.iter().map(|v| ir::value_type(*v)));
    let locations = vec![location; arg_types.len()];
    let block = unsafe {
        mlir_sys::mlirBlockCreate(
            arg_types.len() as isize,
            arg_types.as_ptr(),
            locations.as_ptr(),
        )
    };
    let region = unsafe { mlir_sys::mlirRegionCreate() };
    unsafe { mlir_sys::mlirRegionAppendOwnedBlock(region, block) };
    if new_inits.is_empty() {
        // The builder gives a loop without iter args an empty yield.
        let terminator = ir::create_op("scf.yield", location, &[], &[], &[], Vec::new());
        unsafe { mlir_sys::mlirBlockAppendOwnedOperation(block, terminator) };
    }
    let mut operands = vec![lower_bound(op), upper_bound(op), step(op)];
    operands.extend(&new_inits);
    let result_types: Vec<_> = new_inits.iter().map(|v| ir::value_type(*v)).collect();
    let attributes = ir::attributes(op);
    let attributes: Vec<(&str, mlir_sys::MlirAttribute)> =
        attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let new_op = ir::create_op(
        "scf.for",
        location,
        &operands,
        &result_types,
        &attributes,
        vec![region],
    );
    rewriter.set_insertion_point_before(root);
    let new_op = rewriter
        .insert(unsafe { Operation::from_raw(new_op) })
        .to_raw();

    let new_block = body(new_op);
    let new_args = ir::block_args(new_block);
    let mut transfer = vec![new_args[0]];
    let mut replacements = Vec::with_capacity(inits.len());
    let mut kept = 0;
    for i in 0..inits.len() {
        if keep[i] {
            transfer.push(new_args[1 + kept]);
            replacements.push(ir::result(new_op, kept));
            kept += 1;
        } else {
            transfer.push(inits[i]);
            replacements.push(inits[i]);
        }
    }

    let old_block = body(op);
    if new_inits.is_empty() {
        let (Some(new_yield), Some(old_yield)) =
            (ir::terminator(new_block), ir::terminator(old_block))
        else {
            return false;
        };
        // The old body (its yield last) goes before the new, empty yield;
        // the old yield, now the one before it, goes.
        rewriter.inline_block_before(block_ref(old_block), op_ref(new_yield), &values(&transfer));
        rewriter.erase_op(op_ref(old_yield));
    } else {
        rewriter.merge_blocks(
            block_ref(old_block),
            block_ref(new_block),
            &values(&transfer),
        );
        let Some(merged) = ir::terminator(new_block) else {
            return false;
        };
        let filtered: Vec<MlirValue> = ir::operands(merged)
            .into_iter()
            .enumerate()
            .filter(|(i, _)| keep[*i])
            .map(|(_, v)| v)
            .collect();
        insert_yield(rewriter, merged, &filtered);
        rewriter.erase_op(op_ref(merged));
    }
    rewriter.replace_op_with_values(root, &values(&replacements));
    true
}

/// The constant difference `u - l` of two bounds: both constants, or `u`
/// an `arith.addi` of `l` and a constant.
fn constant_difference(l: MlirValue, u: MlirValue) -> Option<i64> {
    if let (Some((lv, w)), Some((uv, _))) = (ir::constant_int(l), ir::constant_int(u)) {
        return Some(sext(i128::from(uv) - i128::from(lv), w) as i64);
    }
    let add = ir::defining_op(u).filter(|op| ir::is(*op, "arith.addi"))?;
    let (a, b) = (ir::operand(add, 0), ir::operand(add, 1));
    if ir::same_value(a, l) {
        return ir::constant_int(b).map(|(v, _)| v);
    }
    if ir::same_value(b, l) {
        return ir::constant_int(a).map(|(v, _)| v);
    }
    None
}

/// Removes loops that do not run, inlines loops that run once, and drops
/// empty loops that run and only yield values from outside.
fn simplify_trivial_loop(root: OperationRef, rewriter: &RewriterBase) -> bool {
    let op = root.to_raw();
    if !is_well_formed_for(op) {
        return false;
    }
    let (lb, ub) = (lower_bound(op), upper_bound(op));
    let inits = init_args(op);
    if ir::same_value(lb, ub) {
        rewriter.replace_op_with_values(root, &values(&inits));
        return true;
    }
    let Some(diff) = constant_difference(lb, ub) else {
        return false;
    };
    if diff <= 0 {
        rewriter.replace_op_with_values(root, &values(&inits));
        return true;
    }
    let Some((step_value, width)) = ir::constant_int(step(op)) else {
        return false;
    };
    let step_value = sext(i128::from(step_value), width);
    let block = body(op);
    let Some(terminator) = ir::terminator(block) else {
        return false;
    };
    if step_value >= i128::from(diff) {
        let mut arguments = vec![lb];
        arguments.extend(&inits);
        rewriter.inline_block_before(block_ref(block), root, &values(&arguments));
        let results = ir::operands(terminator);
        rewriter.replace_op_with_values(root, &values(&results));
        rewriter.erase_op(op_ref(terminator));
        return true;
    }
    if ir::block_ops(block).len() != 1 {
        return false;
    }
    let yielded = ir::operands(terminator);
    if yielded.iter().any(|v| !ir::defined_outside(op, *v)) {
        return false;
    }
    rewriter.replace_op_with_values(root, &values(&yielded));
    true
}

static FOLD_ITER_ARGS: Pattern = Pattern {
    benefit: 1,
    rewrite: fold_iter_args,
    generated: &["scf.for", "scf.yield"],
};

static SIMPLIFY_TRIVIAL_LOOPS: Pattern = Pattern {
    benefit: 1,
    rewrite: simplify_trivial_loop,
    generated: &[],
};

/// The `scf.yield`s ending the branches of the `scf.if` `op`, when each
/// branch has one and each yields one value per result.
pub fn if_yields(op: MlirOperation) -> Option<Vec<MlirOperation>> {
    let results = ir::result_count(op);
    ir::regions(op)
        .into_iter()
        .filter(|r| !ir::blocks(*r).is_empty())
        .map(|r| {
            let y = ir::blocks(r).first().and_then(|b| ir::terminator(*b))?;
            (ir::is(y, "scf.yield") && ir::operand_count(y) == results).then_some(y)
        })
        .collect()
}

/// Replaces each of `yields` by one of the operands where `keep` holds.
fn trim_yields(rewriter: &RewriterBase, yields: &[MlirOperation], keep: &[bool]) {
    for &y in yields {
        let kept: Vec<MlirValue> = ir::operands(y)
            .into_iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(v, _)| v)
            .collect();
        insert_yield(rewriter, y, &kept);
        rewriter.erase_op(op_ref(y));
    }
}

/// A copy of the `scf.if` `root`, before it, with the results where
/// `keep` holds, taking over its regions (whose yields must already yield
/// just those); `root` is left with empty regions for the caller to erase.
fn rebuild_if(rewriter: &RewriterBase, root: OperationRef, keep: &[bool]) -> MlirOperation {
    let op = root.to_raw();
    let types: Vec<MlirType> = ir::results(op)
        .iter()
        .zip(keep)
        .filter(|(_, k)| **k)
        .map(|(r, _)| ir::value_type(*r))
        .collect();
    let new = if_taking_regions(op, &types);
    rewriter.set_insertion_point_before(root);
    // SAFETY: `new` was just created and is owned by no block; the
    // rewriter inserts it and takes ownership.
    rewriter
        .insert(unsafe { Operation::from_raw(new) })
        .to_raw()
}

/// MLIR's `RemoveUnusedResults` for `scf.if`: a copy of the `if` without
/// the results nothing uses, whose branches no longer yield them (an `if`
/// left without results and without side effects is then dead code).
fn remove_unused_if_results(root: OperationRef, rewriter: &RewriterBase) -> bool {
    let op = root.to_raw();
    let results = ir::results(op);
    let keep: Vec<bool> = results.iter().map(|r| ir::has_uses(*r)).collect();
    if keep.iter().all(|k| *k) {
        return false;
    }
    let Some(yields) = if_yields(op) else {
        return false;
    };
    trim_yields(rewriter, &yields, &keep);
    let new = rebuild_if(rewriter, root, &keep);
    let mut kept = 0;
    for (r, k) in results.iter().zip(&keep) {
        if *k {
            rewriter.replace_all_uses_with(value(*r), value(ir::result(new, kept)));
            kept += 1;
        }
    }
    rewriter.erase_op(root);
    true
}

/// MLIR's `ConvertTrivialIfToSelect`: each result whose values both come
/// from outside the `if` becomes an `arith.select` on its condition (or
/// the value itself where both branches yield the same), placed before
/// it; the `if` keeps only the other results (and dies once it has none
/// and nothing with side effects).
fn convert_trivial_if_to_select(root: OperationRef, rewriter: &RewriterBase) -> bool {
    let op = root.to_raw();
    let results = ir::results(op);
    if results.is_empty() {
        return false;
    }
    let Some(yields) = if_yields(op) else {
        return false;
    };
    let [then_yield, else_yield] = yields[..] else {
        return false;
    };
    let (then_values, else_values) = (ir::operands(then_yield), ir::operands(else_yield));
    // A value yielded from inside its branch cannot leave the `if`.
    let inside = |v: MlirValue| ir::value_parent_op(v).is_some_and(|p| p.ptr == op.ptr);
    let stays: Vec<bool> = then_values
        .iter()
        .zip(&else_values)
        .map(|(t, e)| inside(*t) || inside(*e))
        .collect();
    if stays.iter().all(|s| *s) {
        return false;
    }
    let condition = ir::operand(op, 0);
    let location = ir::location(op);
    rewriter.set_insertion_point_before(root);
    let mut replacements: Vec<Option<MlirValue>> = Vec::with_capacity(results.len());
    for (i, &stay) in stays.iter().enumerate() {
        let (t, e) = (then_values[i], else_values[i]);
        replacements.push(if stay {
            None
        } else if ir::same_value(t, e) {
            Some(t)
        } else {
            let select = ir::create_op(
                "arith.select",
                location,
                &[condition, t, e],
                &[ir::value_type(results[i])],
                &[],
                Vec::new(),
            );
            // SAFETY: `select` was just created and is owned by no block;
            // the rewriter inserts it and takes ownership.
            let select = rewriter.insert(unsafe { Operation::from_raw(select) });
            Some(ir::result(select.to_raw(), 0))
        });
    }
    trim_yields(rewriter, &yields, &stays);
    let new = rebuild_if(rewriter, root, &stays);
    let mut kept = 0;
    for (r, replacement) in results.iter().zip(replacements) {
        let with = replacement.unwrap_or_else(|| {
            kept += 1;
            ir::result(new, kept - 1)
        });
        rewriter.replace_all_uses_with(value(*r), value(with));
    }
    rewriter.erase_op(root);
    true
}

static CONVERT_TRIVIAL_IF_TO_SELECT: Pattern = Pattern {
    benefit: 1,
    rewrite: convert_trivial_if_to_select,
    generated: &["scf.if", "scf.yield", "arith.select"],
};

static REMOVE_UNUSED_IF_RESULTS: Pattern = Pattern {
    benefit: 1,
    rewrite: remove_unused_if_results,
    generated: &["scf.if", "scf.yield"],
};

/// The `scf.if` canonicalizations this project has of MLIR's, in MLIR's
/// order: trivial ifs to selects, then the removal of unused results.
pub const IF_CANONICALIZATION: [(Root, &Pattern); 2] = [
    (Root::Op("scf.if"), &CONVERT_TRIVIAL_IF_TO_SELECT),
    (Root::Op("scf.if"), &REMOVE_UNUSED_IF_RESULTS),
];

/// The `scf.for` canonicalization patterns, in MLIR's order.
pub const FOR_CANONICALIZATION: [(Root, &Pattern); 2] = [
    (Root::Op("scf.for"), &FOLD_ITER_ARGS),
    (Root::Op("scf.for"), &SIMPLIFY_TRIVIAL_LOOPS),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::new_context;
    use melior::ir::Module;

    /// The trip counts of the loops of `@f`, in order.
    fn trip_counts(body: &str) -> Vec<Option<i128>> {
        let context = new_context(false);
        let source = format!("tt.func @f(%n: i32) {{\n{body}\n  tt.return\n}}");
        let module = Module::parse(&context, &source).expect("test IR parses");
        let mut counts = Vec::new();
        ir::walk_pre(module.as_operation().to_raw(), &mut |op| {
            if ir::is(op, "scf.for") {
                counts.push(static_trip_count(op));
            }
        });
        counts
    }

    #[test]
    fn trip_counts_follow_mlir() {
        let counts = trip_counts(
            r#"
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c10 = arith.constant 10 : i32
  %m1 = arith.constant -1 : i32
  %s8 = arith.constant 0 : i8
  %e8 = arith.constant 200 : i8
  %o8 = arith.constant 1 : i8
  %up = arith.addi %n, %c10 overflow<nsw> : i32
  %wrap = arith.addi %n, %c10 : i32
  scf.for %i = %c0 to %c10 step %c3 : i32 {}
  scf.for %i = %c10 to %c0 step %c1 : i32 {}
  scf.for %i = %c0 to %c10 step %m1 : i32 {}
  scf.for %i = %n to %n step %c1 : i32 {}
  scf.for %i = %c0 to %n step %c1 : i32 {}
  scf.for %i = %n to %up step %c3 : i32 {}
  scf.for %i = %n to %wrap step %c3 : i32 {}
  scf.for %i = %c0 to %c10 step %n : i32 {}
  scf.for unsigned %i = %s8 to %e8 step %o8 : i8 {}
  scf.for %i = %s8 to %e8 step %o8 : i8 {}
"#,
        );
        assert_eq!(
            counts,
            vec![
                Some(4),
                Some(0),
                Some(0),
                Some(0),
                None,
                Some(4),
                None,
                None,
                // 200 iterations, held in eight bits.
                Some(-56),
                Some(0),
            ]
        );
    }
}
