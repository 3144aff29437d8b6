//! The last steps of `tritongpu-pipeline`: Hopper's MMA pipelining
//! (Triton's `asyncLaunchDots`: every `ttng.warp_group_dot` in a loop body
//! becomes asynchronous, followed by a `ttng.warp_group_dot_wait` unless
//! it can stay in flight across iterations) and the wait counts of the
//! copies (`updateWaits`: each `ttg.async_wait` waits for all but the
//! commit groups that are sure to be issued after the copy it waits for;
//! consecutive waits merge).

use std::collections::HashSet;

use melior::ir::operation::OperationRef;
use melior::ir::Type;
use mlir_sys::{MlirOperation, MlirType, MlirValue};

use crate::rust_pass::{fail, Failure};
use crate::ttgir::pipelining as pl;
use crate::ttir::loop_support::ir::{self, Op, Val};
use crate::ttir::loop_support::scf;

fn next_op(op: MlirOperation) -> Option<MlirOperation> {
    // SAFETY: a live op; the result is null past the block's end.
    let next = unsafe { mlir_sys::mlirOperationGetNextInBlock(op) };
    (!next.ptr.is_null()).then_some(next)
}

fn int_attr(op: MlirOperation, name: &str) -> i64 {
    pl::int_attribute(op, name).unwrap_or(0)
}

fn is_memdesc(v: MlirValue) -> bool {
    // SAFETY: a live value's type.
    ttg_dialect::layout::MemDesc::of(unsafe { Type::from_raw(ir::value_type(v)) }).is_some()
}

fn token_type(op: MlirOperation) -> MlirType {
    ir::parse_type(ir::context(op), "!ttg.async.token").expect("the token type parses")
}

/// Triton's `updateWaits` over every `ttg.async_wait` of `module`.
pub fn update_waits(module: MlirOperation) {
    let waits = ir::collect_post(module, &|op| ir::is(op, "ttg.async_wait"));
    for &wait in &waits {
        let num = min_interleaved_commits(wait);
        pl::set_i32(wait, "num", num);
    }
    combine_waits(&waits);
}

fn count_commits(from: Option<MlirOperation>, to: MlirOperation) -> i64 {
    let mut count = 0;
    let mut op = from;
    while let Some(o) = op {
        if o.ptr == to.ptr {
            break;
        }
        if ir::is(o, "ttg.async_commit_group") {
            count += 1;
        }
        op = next_op(o);
    }
    count
}

/// Triton's `minNumInterleavedCommitOps`: along every path from the
/// tokens' commits to the wait (through loop back edges), the fewest
/// commit groups issued after them.
fn min_interleaved_commits(wait: MlirOperation) -> i64 {
    let operands = ir::operands(wait);
    if operands.is_empty() {
        return 0;
    }
    let mut best = i64::MAX;
    let mut min = i64::MAX;
    for v in operands {
        let mut anchor = wait;
        let region = ir::block_parent_region(ir::value_block(v));
        while ir::block_parent_region(ir::op_block(anchor)).ptr != region.ptr {
            match ir::parent_op(anchor) {
                Some(p) => anchor = p,
                None => break,
            }
        }
        min = min.min(min_over_histories(v, anchor, 0, &mut best));
    }
    min
}

fn min_over_histories(v: MlirValue, sink: MlirOperation, sum: i64, best: &mut i64) -> i64 {
    if let Some(def) = ir::defining_op(v) {
        let sum = sum + count_commits(next_op(def), sink);
        *best = (*best).min(sum);
        return *best;
    }
    let block = ir::value_block(v);
    let Some(for_op) = ir::block_parent_op(block).filter(|p| ir::is(*p, "scf.for")) else {
        return 0;
    };
    let first = ir::block_ops(block).first().copied();
    let sum = sum + count_commits(first, sink);
    if sum >= *best {
        return *best;
    }
    let index = ir::arg_number(v) - 1;
    let incoming = scf::init_args(for_op)[index];
    let min1 = min_over_histories(incoming, for_op, sum, best);
    let yield_op = pl::terminator(for_op);
    let previous = ir::operand(yield_op, index);
    let min2 = min_over_histories(previous, yield_op, sum, best);
    min1.min(min2).min(*best)
}

/// Triton's `combineRedundantWaitOps`: waits with no commit group (nor a
/// loop or branch) between them become one, at the first, waiting on all
/// their tokens for the smallest count.
fn combine_waits(waits: &[MlirOperation]) {
    let mut replaced: HashSet<Op> = HashSet::new();
    let mut to_delete: Vec<(MlirOperation, MlirOperation)> = Vec::new();
    for &wait in waits {
        if replaced.contains(&Op(wait)) {
            continue;
        }
        let mut group = vec![wait];
        let mut tokens = ir::operands(wait);
        let mut num = int_attr(wait, "num");
        let mut next = next_op(wait);
        while let Some(n) = next {
            if ir::is(n, "ttg.async_commit_group")
                || ir::is(n, "scf.for")
                || ir::is(n, "scf.if")
                || ir::is(n, "scf.while")
            {
                break;
            }
            if ir::is(n, "ttg.async_wait") {
                group.push(n);
                num = num.min(int_attr(n, "num"));
                tokens.extend(ir::operands(n));
            }
            next = next_op(n);
        }
        if group.len() == 1 {
            continue;
        }
        let i32t = ir::i32_type(ir::context(wait));
        let merged = ir::create_op(
            "ttg.async_wait",
            ir::location(wait),
            &tokens,
            &[token_type(wait)],
            &[("num", ir::integer_attr(i32t, num))],
            Vec::new(),
        );
        ir::insert_before(wait, merged);
        for g in group {
            replaced.insert(Op(g));
            to_delete.push((g, merged));
        }
    }
    for (old, new) in to_delete {
        ir::replace_all_uses(ir::result(old, 0), ir::result(new, 0));
        ir::erase(old);
    }
}

fn dot_wait(
    before: Option<MlirOperation>,
    after: Option<MlirOperation>,
    pendings: i64,
) -> MlirOperation {
    let anchor = before.or(after).expect("a wait has a place");
    let i32t = ir::i32_type(ir::context(anchor));
    let wait = ir::create_op(
        "ttng.warp_group_dot_wait",
        ir::location(anchor),
        &[],
        &[],
        &[("pendings", ir::integer_attr(i32t, pendings))],
        Vec::new(),
    );
    match (before, after) {
        (Some(b), _) => ir::insert_before(b, wait),
        (None, Some(a)) => ir::insert_after(a, wait),
        (None, None) => unreachable!(),
    }
    wait
}

/// The `ttng.warp_group_dot` ops `v` depends on within `block`
/// (`getBackwardSlice` stopping at dots, block arguments and other
/// blocks).
fn dots_behind(v: MlirValue, block: mlir_sys::MlirBlock, out: &mut Vec<MlirOperation>) {
    fn visit(
        op: MlirOperation,
        block: mlir_sys::MlirBlock,
        seen: &mut HashSet<Op>,
        out: &mut Vec<MlirOperation>,
    ) {
        if ir::is(op, "ttng.warp_group_dot") {
            out.push(op);
            return;
        }
        if ir::op_block(op).ptr != block.ptr {
            return;
        }
        let mut values = Vec::new();
        if ir::region_count(op) > 0 {
            values.extend(pl::nested_operands(op));
        }
        values.extend(ir::operands(op));
        for value in values {
            if let Some(def) = ir::defining_op(value) {
                if seen.insert(Op(def)) {
                    visit(def, block, seen, out);
                }
            }
        }
    }
    if let Some(def) = ir::defining_op(v) {
        let mut seen = HashSet::new();
        seen.insert(Op(def));
        visit(def, block, &mut seen, out);
    }
}

/// Triton's `threadValuesThroughWait`: `wait` also takes `values` (and
/// the shared operands of the dots they come from), and the uses of the
/// values after it read its results.
fn thread_through_wait(wait: MlirOperation, values: &[MlirValue]) -> MlirOperation {
    let original = ir::operands(wait);
    let mut operands: Vec<MlirValue> = original.clone();
    for &v in values {
        if !operands.iter().any(|o| o.ptr == v.ptr) {
            operands.push(v);
        }
    }
    let block = ir::op_block(wait);
    let mut dots = Vec::new();
    for &v in values {
        dots_behind(v, block, &mut dots);
    }
    for dot in dots {
        for o in ir::operands(dot) {
            if is_memdesc(o) && !operands.iter().any(|x| x.ptr == o.ptr) {
                operands.push(o);
            }
        }
    }
    let types: Vec<MlirType> = operands.iter().map(|&v| ir::value_type(v)).collect();
    let pendings = ir::attribute(wait, "pendings").expect("a dot wait counts pendings");
    let new = ir::create_op(
        "ttng.warp_group_dot_wait",
        ir::location(wait),
        &operands,
        &types,
        &[("pendings", pendings)],
        Vec::new(),
    );
    ir::insert_before(wait, new);
    for (i, v) in original.iter().enumerate() {
        if !is_memdesc(*v) {
            ir::replace_all_uses(ir::result(wait, i), ir::result(new, i));
        }
    }
    let position = |op: MlirOperation| ir::block_ops(block).iter().position(|o| o.ptr == op.ptr);
    let at = position(new);
    for (i, &v) in operands.iter().enumerate().skip(original.len()) {
        if is_memdesc(v) {
            continue;
        }
        for (user, index) in ir::uses(v) {
            let after = pl::ancestor_in_block(block, user)
                .and_then(position)
                .is_some_and(|p| Some(p) > at);
            if after {
                ir::set_operand(user, index, ir::result(new, i));
            }
        }
    }
    ir::erase(wait);
    new
}

/// Triton's `isNoop` for the ops between a dot and the loop's yield:
/// reshapes and transposes (which only rename registers), and layout
/// conversions between two encodings of the same linear layout.
fn is_noop(op: MlirOperation) -> bool {
    if ir::is(op, "tt.reshape") || ir::is(op, "tt.trans") {
        return true;
    }
    if !ir::is(op, "ttg.convert_layout") {
        return false;
    }
    let linear = |v: MlirValue| {
        // SAFETY: a live value's type.
        let tensor = tt_dialect::types::Tensor::of(unsafe { Type::from_raw(ir::value_type(v)) })?;
        ttg_dialect::to_linear::to_linear_layout(&ir::tensor_layout(v)?, &tensor.shape).ok()
    };
    match (linear(ir::operand(op, 0)), linear(ir::result(op, 0))) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

fn defined_outside(for_op: MlirOperation, v: MlirValue) -> bool {
    ir::value_parent_op(v).is_none_or(|p| !ir::is_ancestor(for_op, p))
}

/// Triton's `dotCanBeProperlyAsync`: the index of the loop argument the
/// dot's result is carried in, when the dot may stay in flight.
fn properly_async(dot: MlirOperation, for_op: MlirOperation) -> Option<usize> {
    let body = pl::body(for_op);
    let yields = ir::operands(pl::terminator(for_op));
    let check = |operand: MlirValue| -> bool {
        if !is_memdesc(operand) {
            return true;
        }
        let mut t = operand;
        let mut visited: HashSet<Val> = HashSet::new();
        while !defined_outside(for_op, t) {
            if let Some(def) = ir::defining_op(t) {
                if [
                    "ttg.convert_layout",
                    "ttg.memdesc_trans",
                    "ttg.memdesc_reshape",
                    "ttg.memdesc_subslice",
                ]
                .iter()
                .any(|n| ir::is(def, n))
                {
                    t = ir::operand(def, 0);
                    continue;
                }
                return ir::is(def, "ttg.memdesc_index");
            }
            if !visited.insert(Val(t)) {
                return true;
            }
            t = yields[ir::arg_number(t) - 1];
        }
        true
    };
    if !check(ir::operand(dot, 0)) || !check(ir::operand(dot, 1)) {
        return None;
    }
    let mut queue = ir::uses(ir::result(dot, 0));
    let mut iter_index = None;
    while let Some((user, index)) = queue.pop() {
        let parent = ir::parent_op(user);
        if parent.is_some_and(|p| p.ptr == for_op.ptr) {
            if is_noop(user) {
                queue.extend(ir::uses(ir::result(user, 0)));
                continue;
            }
            if ir::is_terminator(user) && ir::op_block(user).ptr == body.ptr {
                if iter_index.is_some() {
                    return None;
                }
                iter_index = Some(index);
                continue;
            }
            return None;
        }
        match parent {
            Some(p) if ir::is(p, "scf.if") => {
                if ir::is(user, "scf.yield") {
                    queue.extend(ir::uses(ir::result(p, index)));
                }
            }
            _ => return None,
        }
    }
    let index = iter_index?;
    // SAFETY: a live value's type.
    let c = tt_dialect::types::Tensor::of(unsafe {
        Type::from_raw(ir::value_type(ir::operand(dot, 2)))
    })?;
    // SAFETY: the element type is live.
    if !unsafe { mlir_sys::mlirTypeIsAF32(melior::ir::r#type::TypeLike::to_raw(&c.element)) } {
        return None;
    }
    let iter_arg = scf::region_iter_args(for_op)[index];
    fn reaches_dot_accumulator(user: MlirOperation, index: usize) -> bool {
        if ir::is(user, "ttng.warp_group_dot") {
            return index == 2;
        }
        if is_noop(user) {
            return ir::uses(ir::result(user, 0))
                .into_iter()
                .all(|(u, i)| reaches_dot_accumulator(u, i));
        }
        false
    }
    if ir::uses(iter_arg)
        .into_iter()
        .all(|(u, i)| reaches_dot_accumulator(u, i))
    {
        return Some(index);
    }
    let ops = pl::body_ops(for_op);
    let first_wait = ops
        .iter()
        .copied()
        .find(|&o| ir::is(o, "ttng.warp_group_dot_wait") && int_attr(o, "pendings") == 0)?;
    let at = ops.iter().position(|o| o.ptr == first_wait.ptr);
    let all_after = ir::uses(iter_arg).into_iter().all(|(u, _)| {
        pl::ancestor_in_block(body, u)
            .and_then(|top| ops.iter().position(|o| o.ptr == top.ptr))
            .is_some_and(|p| Some(p) > at)
    });
    if all_after {
        thread_through_wait(first_wait, &[iter_arg]);
        return Some(index);
    }
    None
}

/// Triton's `rsDotNeedsWait`: a dot whose A operand comes from registers
/// written in the loop (not straight from another MMA's result).
fn rs_dot_needs_wait(dot: MlirOperation, for_op: MlirOperation) -> bool {
    let a = ir::operand(dot, 0);
    if is_memdesc(a) || defined_outside(for_op, a) {
        return false;
    }
    match ir::defining_op(a) {
        Some(cvt) if ir::is(cvt, "ttg.convert_layout") => !matches!(
            ir::tensor_layout(ir::operand(cvt, 0)),
            Some(ttg_dialect::layout::Layout::NvidiaMma { .. })
        ),
        _ => true,
    }
}

/// Whether Triton's `splitRSDot` splits `dot`: its A operand is in
/// registers and its K is more than one instruction's.
fn needs_split(dot: MlirOperation) -> bool {
    let a = ir::operand(dot, 0);
    if is_memdesc(a) {
        return false;
    }
    // SAFETY: a live value's type.
    let k = tt_dialect::types::Tensor::of(unsafe { Type::from_raw(ir::value_type(a)) })
        .and_then(|t| t.shape.last().copied());
    let instr_k = match ir::tensor_layout(ir::result(dot, 0)) {
        Some(ttg_dialect::layout::Layout::NvidiaMma { instr_shape, .. }) => {
            instr_shape.get(2).map(|&k| i64::from(k))
        }
        _ => None,
    };
    !matches!((k, instr_k), (Some(k), Some(i)) if k <= i)
}

fn split_refusal(dot: MlirOperation, why: &str) -> Failure {
    // SAFETY: a live op of the loop.
    let op = unsafe { OperationRef::from_raw(dot) };
    fail(
        op,
        &format!("tritongpu-pipeline: splitting a wgmma whose A operand is in registers ({why}) is not supported yet"),
    )
}

fn ranked(v: MlirValue) -> Option<tt_dialect::types::Tensor<'static>> {
    // SAFETY: a live value's type.
    tt_dialect::types::Tensor::of(unsafe { Type::from_raw(ir::value_type(v)) })
}

/// `tensor<shape x element, encoding>` where `encoding` is a text.
fn tensor_type(
    ctx: mlir_sys::MlirContext,
    shape: &[i64],
    element: &str,
    encoding: &str,
) -> Option<MlirType> {
    let dims: String = shape.iter().map(|d| format!("{d}x")).collect();
    ir::parse_type(ctx, &format!("tensor<{dims}{element}, {encoding}>"))
}

fn encoding_text(v: MlirValue) -> Option<(ttg_dialect::layout::Layout, String)> {
    let t = ranked(v)?;
    let e = t.encoding?;
    Some((ttg_dialect::layout::Layout::read(e)?, e.to_string()))
}

/// Triton's `splitRSDot`: `dot` (A in registers, K more than one
/// instruction's) becomes one dot per instruction's K, chained through the
/// accumulator: A is reshaped to `M x 2 x ... x 2 x k`, transposed so that
/// the slowest halves split first, split in halves down to `M x k` pieces
/// (layouts inferred as Triton does; the pieces are converted back to A's
/// dot-operand layout, which changes no register), and B is cut into
/// `memdesc_subslice`s along K.
fn split_rs_dot(dot: MlirOperation) -> Result<Vec<MlirOperation>, Failure> {
    use crate::ttgir::infer_layout::{infer_reshape, infer_split, infer_trans};
    let ctx = ir::context(dot);
    let loc = ir::location(dot);
    let a = ir::operand(dot, 0);
    let b = ir::operand(dot, 1);
    let Some(at) = ranked(a) else {
        return Ok(vec![dot]);
    };
    let instr_k = match ir::tensor_layout(ir::result(dot, 0)) {
        Some(ttg_dialect::layout::Layout::NvidiaMma { instr_shape, .. }) => {
            instr_shape.get(2).map(|&k| i64::from(k))
        }
        _ => None,
    }
    .ok_or_else(|| split_refusal(dot, "an accumulator without an MMA instruction shape"))?;
    let rank = at.shape.len();
    let k = at.shape[rank - 1];
    if k <= instr_k {
        return Ok(vec![dot]);
    }
    let splits = k / instr_k;
    if k % instr_k != 0 || !(splits as u64).is_power_of_two() {
        return Err(split_refusal(
            dot,
            "a K that is not a power-of-two number of instructions",
        ));
    }
    let element = at.element.to_string();
    let (a_layout, a_encoding) =
        encoding_text(a).ok_or_else(|| split_refusal(dot, "an A without a layout"))?;
    // Reshape K into 2 x ... x 2 x k.
    let mut shape: Vec<i64> = at.shape[..rank - 1].to_vec();
    let halvings = splits.trailing_zeros() as usize;
    shape.extend(std::iter::repeat_n(2, halvings));
    shape.push(instr_k);
    let reshaped_enc = infer_reshape(&at.shape, &a_layout, &shape)
        .ok_or_else(|| split_refusal(dot, "a reshape of its A layout"))?;
    let ty = tensor_type(ctx, &shape, &element, &reshaped_enc)
        .ok_or_else(|| split_refusal(dot, "the reshaped A type"))?;
    let reshape = ir::build_op(dot, "tt.reshape", &[a], &[ty], &[], loc);
    let mut current = ir::result(reshape, 0);
    // Transpose: the leading dims, then k, then the halving dims reversed.
    let n = shape.len();
    let mut order: Vec<u32> = (0..(rank - 1) as u32).collect();
    order.push((n - 1) as u32);
    order.extend(((rank - 1)..(n - 1)).rev().map(|d| d as u32));
    let (layout, _) = encoding_text(current).expect("the reshape has a layout");
    let trans_enc = infer_trans(&layout, &shape, &order)
        .ok_or_else(|| split_refusal(dot, "a transpose of its A layout"))?;
    let trans_shape: Vec<i64> = order.iter().map(|&o| shape[o as usize]).collect();
    let ty = tensor_type(ctx, &trans_shape, &element, &trans_enc)
        .ok_or_else(|| split_refusal(dot, "the transposed A type"))?;
    let trans = ir::build_op(
        dot,
        "tt.trans",
        &[current],
        &[ty],
        &[(
            "order",
            ir::dense_i32_array_attr(ctx, &order.iter().map(|&o| o as i32).collect::<Vec<_>>()),
        )],
        loc,
    );
    current = ir::result(trans, 0);
    // Split in halves, slowest first.
    let mut pieces = vec![current];
    let mut piece_shape = trans_shape;
    for _ in 0..halvings {
        let (layout, _) = encoding_text(pieces[0]).expect("the pieces have a layout");
        let enc = infer_split(&layout, &piece_shape)
            .ok_or_else(|| split_refusal(dot, "a split of its A layout"))?;
        piece_shape.pop();
        let ty = tensor_type(ctx, &piece_shape, &element, &enc)
            .ok_or_else(|| split_refusal(dot, "the split A type"))?;
        let mut next = Vec::new();
        for v in pieces {
            let split = ir::build_op(dot, "tt.split", &[v], &[ty, ty], &[], loc);
            next.push(ir::result(split, 0));
            next.push(ir::result(split, 1));
        }
        pieces = next;
    }
    let mut piece_dims = at.shape[..rank - 1].to_vec();
    piece_dims.push(instr_k);
    let a_piece_ty = tensor_type(ctx, &piece_dims, &element, &a_encoding)
        .ok_or_else(|| split_refusal(dot, "an A piece type"))?;
    let lhs: Vec<MlirValue> = pieces
        .into_iter()
        .map(|v| {
            ir::result(
                ir::build_op(dot, "ttg.convert_layout", &[v], &[a_piece_ty], &[], loc),
                0,
            )
        })
        .collect();
    // B along K.
    // SAFETY: a live value's type.
    let bt = ttg_dialect::layout::MemDesc::of(unsafe { Type::from_raw(ir::value_type(b)) })
        .ok_or_else(|| split_refusal(dot, "a B that is not in shared memory"))?;
    let k_dim = bt.shape.len() - 2;
    let mut b_shape = bt.shape.clone();
    b_shape[k_dim] = instr_k;
    let b_piece_ty = ttg_dialect::layout::MemDesc {
        shape: b_shape,
        mutable: false,
        ..bt.clone()
    }
    .to_type();
    let rhs: Vec<MlirValue> = (0..splits)
        .map(|i| {
            let mut offsets = vec![0i32; bt.shape.len()];
            offsets[k_dim] = (i * instr_k) as i32;
            let sub = ir::build_op(
                dot,
                "ttg.memdesc_subslice",
                &[b],
                &[melior::ir::r#type::TypeLike::to_raw(&b_piece_ty)],
                &[("offsets", ir::dense_i32_array_attr(ctx, &offsets))],
                loc,
            );
            ir::result(sub, 0)
        })
        .collect();
    // The chained dots.
    let operands = ir::operands(dot);
    let mut acc = operands[2];
    let use_c = operands.get(3).copied();
    let mut accumulate: Option<MlirValue> = None;
    let mut imprecise_left = int_attr(dot, "maxNumImpreciseAcc");
    let result_ty = ir::value_type(ir::result(dot, 0));
    let i32t = ir::i32_type(ctx);
    let mut dots = Vec::new();
    for (l, r) in lhs.into_iter().zip(rhs) {
        let take = imprecise_left.min(instr_k);
        let imprecise = if take == instr_k { 1 << 30 } else { take };
        imprecise_left -= take;
        let mut attrs: Vec<(&str, mlir_sys::MlirAttribute)> =
            vec![("maxNumImpreciseAcc", ir::integer_attr(i32t, imprecise))];
        for name in ["inputPrecision", "isAsync"] {
            if let Some(a) = ir::attribute(dot, name) {
                attrs.push((name, a));
            }
        }
        // The first piece keeps the dot's flag, the others accumulate.
        let flag = if dots.is_empty() {
            use_c
        } else {
            Some(
                *accumulate
                    .get_or_insert_with(|| ir::build_constant(dot, loc, ir::i1_type(ctx), 1)),
            )
        };
        let mut ops = vec![l, r, acc];
        ops.extend(flag);
        let new = ir::build_op(dot, "ttng.warp_group_dot", &ops, &[result_ty], &attrs, loc);
        acc = ir::result(new, 0);
        dots.push(new);
    }
    ir::replace_all_uses(ir::result(dot, 0), acc);
    ir::erase(dot);
    Ok(dots)
}

/// Triton's `asyncLaunchDots` for one loop; refuses (located) a dot
/// Triton would split.
pub fn async_launch_dots(for_op: MlirOperation) -> Result<(), Failure> {
    let ctx = ir::context(for_op);
    let mut properly: Vec<(MlirOperation, usize)> = Vec::new();
    for dot in pl::body_ops(for_op) {
        if !ir::is(dot, "ttng.warp_group_dot") {
            continue;
        }
        // SAFETY: `ctx` is live.
        let yes = unsafe { mlir_sys::mlirBoolAttrGet(ctx, 1) };
        ir::set_attribute(dot, "isAsync", yes);
        match properly_async(dot, for_op) {
            Some(index) => properly.push((dot, index)),
            None => {
                let wait = dot_wait(None, Some(dot), 0);
                thread_through_wait(wait, &[ir::result(dot, 0)]);
            }
        }
    }
    if properly.is_empty() {
        return Ok(());
    }
    // Without a wait for all dots in the loop, a dot with A in registers is
    // split along K into one dot per instruction (Triton's `splitRSDots`),
    // so that all but one stay in flight.
    let has_wait_all = pl::body_ops(for_op)
        .into_iter()
        .any(|o| ir::is(o, "ttng.warp_group_dot_wait") && int_attr(o, "pendings") == 0);
    if !has_wait_all {
        let mut split = Vec::new();
        for &(dot, index) in &properly {
            if needs_split(dot) {
                split.extend(split_rs_dot(dot)?.into_iter().map(|d| (d, index)));
            } else {
                split.push((dot, index));
            }
        }
        properly = split;
    }
    insert_wait_in_loop(for_op, &properly);
    let results: Vec<MlirValue> = properly
        .iter()
        .map(|&(_, index)| ir::result(for_op, index))
        .collect();
    let wait = dot_wait(None, Some(for_op), 0);
    thread_through_wait(wait, &results);
    Ok(())
}

/// Triton's `insertAsyncWarpGroupDotWaitInLoop`.
fn insert_wait_in_loop(for_op: MlirOperation, properly: &[(MlirOperation, usize)]) {
    let ops = pl::body_ops(for_op);
    if ops
        .iter()
        .any(|&o| ir::is(o, "ttng.warp_group_dot_wait") && int_attr(o, "pendings") == 0)
    {
        return;
    }
    let count = properly.len() as i64;
    for &(dot, _) in properly {
        // A dot with A in registers waits for itself from the previous
        // iteration (all but this iteration's other dots), which also
        // covers its users.
        if rs_dot_needs_wait(dot, for_op) {
            let wait = dot_wait(None, Some(dot), count - 1);
            thread_through_wait(wait, &[ir::result(dot, 0)]);
            continue;
        }
        let result = ir::result(dot, 0);
        let mut by_block: Vec<(mlir_sys::MlirBlock, Vec<(MlirOperation, usize)>)> = Vec::new();
        for (user, index) in ir::uses(result) {
            if ir::is(user, "scf.yield") {
                continue;
            }
            let block = ir::op_block(user);
            match by_block.iter_mut().find(|(b, _)| b.ptr == block.ptr) {
                Some((_, uses)) => uses.push((user, index)),
                None => by_block.push((block, vec![(user, index)])),
            }
        }
        for (block, mut uses) in by_block {
            let ops = ir::block_ops(block);
            let position = |op: MlirOperation| ops.iter().position(|o| o.ptr == op.ptr);
            uses.sort_by_key(|&(u, _)| position(u));
            let Some(first) = uses
                .iter()
                .position(|&(u, i)| !(ir::is(u, "ttng.warp_group_dot") && i == 2))
            else {
                continue;
            };
            let wait = dot_wait(Some(uses[first].0), None, 0);
            let values: Vec<MlirValue> = uses[first..].iter().map(|_| result).collect();
            thread_through_wait(wait, &values);
        }
    }
    let last = properly[properly.len() - 1].0;
    if rs_dot_needs_wait(last, for_op) {
        return;
    }
    let wait = dot_wait(None, Some(last), count);
    let results: Vec<MlirValue> = properly.iter().map(|&(d, _)| ir::result(d, 0)).collect();
    thread_through_wait(wait, &results);
}
