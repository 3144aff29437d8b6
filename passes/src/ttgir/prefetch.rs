//! `tritongpu-prefetch`: Triton 3.6's prefetcher for MMA v2 and MFMA dots in
//! loops.
//!
//! After the convert canonicalizations (greedy, with folding), every
//! `scf.for` whose body holds exactly one `tt.dot`, with an `nvidia_mma`
//! version 2 or `amd_mfma` result, whose A and B operands are `ttg.local_load`s (to dot
//! operand layouts, possibly followed by single-use single-operand ops) of
//! memory descriptors the loop carries, and whose K extent is at least the
//! prefetch width (`8 * kWidth`, or 256 bits of elements without a kWidth),
//! is rewritten so that the shared-memory loads of one K slice run ahead of
//! the dot that uses them:
//!
//! - before the loop, the first K slice of A and B (`ttg.memdesc_subslice`
//!   at offset 0, `ttg.local_load` in the dot-operand layout with `kWidth =
//!   width / 8`, the single-operand ops cloned) is loaded and passed to the
//!   loop as two new iteration arguments;
//! - in the loop, a copy of the dot takes those prefetched slices, and one
//!   more dot per remaining K slice loads its slices right before the
//!   previous dot and accumulates onto it; the last of these dots moves
//!   past the ops that follow and do not use the dot (up to the first op
//!   that does, or that has regions);
//! - the first K slice of the next iteration's buffers is loaded and
//!   yielded for the new iteration arguments.
//!
//! The original dot stays behind, dead, for the next canonicalization (as
//! in Triton). A loop of one such dot that cannot be prefetched is rebuilt
//! as it is, which drops its attributes, as Triton's rebuild does; other
//! loops are left alone.

use melior::ir::operation::OperationRef;
use melior::ir::TypeLike;
use mlir_sys::{MlirOperation, MlirType, MlirValue};
use ttg_dialect::layout::Layout;

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttir::loop_support::ir::{self, Val, ValueMap};
use crate::ttir::loop_support::scf;
use tt_dialect::rewrite::{apply_greedily, Greedy, Pattern, Root};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUPrefetch",
    argument: "tritongpu-prefetch",
    description: "Prefetch the shared-memory operands of MMA v2 dots in loops",
    anchor: "builtin.module",
    run,
};

/// A dot to prefetch and what its operands come from.
struct Plan {
    dot: MlirOperation,
    width: i64,
    /// Per operand (A, B): the chain from the loop-carried descriptor
    /// through the `ttg.local_load` to the dot operand.
    chains: [Vec<MlirValue>; 2],
    /// Per operand: the descriptor's initial value outside the loop.
    inits: [MlirValue; 2],
    /// Per operand: the value the loop yields for the descriptor.
    yields: [MlirValue; 2],
}

fn run(module: OperationRef) -> PassResult {
    let patterns: Vec<(Root, &'static Pattern)> =
        ttg_dialect::canonicalize::patterns("ttg.convert_layout")
            .iter()
            .map(|(root, p)| (Root::Op(root), p))
            .collect();
    if !apply_greedily(module, &patterns, Greedy::default()) {
        return Err(fail(module, "pattern application did not converge"));
    }
    for for_op in ir::collect_post(module.to_raw(), &|op| ir::is(op, "scf.for")) {
        match initialize(for_op) {
            Initialize::Fails => {}
            Initialize::NothingToPrefetch => drop_attributes(for_op),
            Initialize::Prefetch(plan) => rewrite(for_op, &plan),
        }
    }
    Ok(())
}

/// What `Prefetcher::initialize` makes of a loop.
enum Initialize {
    /// Not a loop of one MMA v2 or MFMA dot: left alone.
    Fails,
    /// One such dot, but it cannot be prefetched (K below the width,
    /// operands not loaded from shared memory the loop carries). Triton
    /// rebuilds the loop all the same, op for op: the same loop without
    /// the old one's attributes (`tt.warp_specialize`, `tt.num_stages`, ...).
    NothingToPrefetch,
    /// The dot to prefetch.
    Prefetch(Plan),
}

/// Triton builds the new loop from its bounds and arguments alone: the old
/// loop's attributes do not carry over.
fn drop_attributes(for_op: MlirOperation) {
    for (name, _) in ir::attributes(for_op) {
        ir::remove_attribute(for_op, &name);
    }
}

fn tensor_parts(v: MlirValue) -> Option<(Vec<i64>, MlirType, Option<Layout>)> {
    // SAFETY: `v` is a live value; its type belongs to the context.
    let view = tt_dialect::types::TensorView::of(unsafe {
        melior::ir::Type::from_raw(ir::value_type(v))
    })?;
    Some((
        view.shape.to_vec(),
        view.element.to_raw(),
        view.encoding.and_then(Layout::read),
    ))
}

/// `getPrefetchSrc`: the chain from a `ttg.local_load` (to a dot-operand
/// layout) through single-use single-operand ops to `v`, its descriptor
/// first; empty where there is none.
fn prefetch_source(v: MlirValue) -> Vec<MlirValue> {
    let Some(mut op) = ir::defining_op(v) else {
        return Vec::new();
    };
    let mut chain = vec![ir::result(op, 0)];
    let mut found = false;
    loop {
        if ir::operand_count(op) != 1 || ir::uses(ir::result(op, 0)).len() != 1 {
            break;
        }
        chain.push(ir::operand(op, 0));
        if ir::is(op, "ttg.local_load") {
            found = matches!(
                ir::tensor_layout(ir::result(op, 0)),
                Some(Layout::DotOperand { .. })
            );
            break;
        }
        match ir::defining_op(ir::operand(op, 0)) {
            Some(def) => op = def,
            None => break,
        }
    }
    chain.reverse();
    if found {
        chain
    } else {
        Vec::new()
    }
}

/// `Prefetcher::initialize`.
fn initialize(for_op: MlirOperation) -> Initialize {
    if !scf::is_well_formed_for(for_op) {
        return Initialize::Fails;
    }
    let body = scf::body(for_op);
    let mut dots = Vec::new();
    for op in ir::block_ops(body) {
        if !ir::is(op, "tt.dot") {
            continue;
        }
        // As in Triton: Ampere MMA or AMD MFMA results only.
        match ir::tensor_layout(ir::result(op, 0)) {
            Some(Layout::NvidiaMma {
                version_major: 2, ..
            })
            | Some(Layout::AmdMfma { .. }) => dots.push(op),
            _ => return Initialize::Fails,
        }
    }
    match dots.as_slice() {
        [dot] => match plan(for_op, *dot) {
            Some(plan) => Initialize::Prefetch(plan),
            None => Initialize::NothingToPrefetch,
        },
        _ => Initialize::Fails,
    }
}

/// The prefetch of `dot`, the one dot of `for_op`, where it has one.
fn plan(for_op: MlirOperation, dot: MlirOperation) -> Option<Plan> {
    let (a, b) = (ir::operand(dot, 0), ir::operand(dot, 1));
    let (Some(Layout::DotOperand { k_width, .. }), Some((a_shape, a_element, _))) =
        (ir::tensor_layout(a), tensor_parts(a))
    else {
        return None;
    };
    let bits = i64::from(ir::integer_width(a_element).or_else(|| {
        // SAFETY: a live type.
        unsafe {
            mlir_sys::mlirTypeIsAFloat(a_element)
                .then(|| mlir_sys::mlirFloatTypeGetWidth(a_element) as u32)
        }
    })?);
    let width = if k_width == 0 {
        256 / bits
    } else {
        8 * i64::from(k_width)
    };
    if *a_shape.last()? < width {
        return None;
    }
    let chains = [prefetch_source(a), prefetch_source(b)];
    if chains.iter().any(Vec::is_empty) {
        return None;
    }
    let args = scf::region_iter_args(for_op);
    let inits = scf::init_args(for_op);
    let yielded = scf::yielded_values(for_op);
    let tied = |v: MlirValue| args.iter().position(|a| a.ptr == v.ptr);
    let (Some(ia), Some(ib)) = (tied(chains[0][0]), tied(chains[1][0])) else {
        return None;
    };
    Some(Plan {
        dot,
        width,
        inits: [inits[ia], inits[ib]],
        yields: [yielded[ia], yielded[ib]],
        chains,
    })
}

fn parse_type(ctx: mlir_sys::MlirContext, text: &str) -> MlirType {
    ir::parse_type(ctx, text)
        .unwrap_or_else(|| panic!("the prefetcher built an invalid type: {text}"))
}

/// `generatePrefetch`: a K slice of the descriptor `v` (`offset`, `size`
/// along K) loaded in operand `index`'s dot layout of width `width / 8`,
/// then the chain's single-operand ops cloned on it.
fn prefetch(
    before: MlirOperation,
    v: MlirValue,
    index: usize,
    offset: i64,
    size: i64,
    plan: &Plan,
) -> MlirValue {
    let desc = ir::memdesc(v).expect("a memory descriptor");
    let ctx = ir::context(plan.dot);
    let rank = desc.shape.len();
    let k = if index == 0 { rank - 1 } else { rank - 2 };
    let mut shape = desc.shape.clone();
    shape[k] = size;
    let mut offsets = vec![0i32; rank];
    offsets[k] = offset as i32;
    let dims = |s: &[i64]| s.iter().map(i64::to_string).collect::<Vec<_>>().join("x");
    let mut text = format!(
        "!ttg.memdesc<{}x{}, {}, {}",
        dims(&shape),
        desc.element,
        desc.encoding,
        desc.memory_space
    );
    if desc.mutable {
        text.push_str(", mutable");
    }
    if desc.alloc_shape != shape {
        text.push_str(&format!(", {}", dims(&desc.alloc_shape)));
    }
    text.push('>');
    // SAFETY: `v` is a live value.
    let location = unsafe { mlir_sys::mlirValueGetLocation(v) };
    let subslice = ir::create_op(
        "ttg.memdesc_subslice",
        location,
        &[v],
        &[parse_type(ctx, &text)],
        &[("offsets", ir::dense_i32_array_attr(ctx, &offsets))],
        Vec::new(),
    );
    ir::insert_before(before, subslice);
    let parent = ir::tensor_layout(ir::result(plan.dot, 0)).expect("an MMA result");
    let operand_layout = Layout::DotOperand {
        op_idx: index as u32,
        k_width: (plan.width / 8) as u32,
        parent: Some(Box::new(parent)),
    };
    let loaded = format!(
        "tensor<{}x{}, {}>",
        dims(&shape),
        desc.element,
        operand_layout
            .text()
            .expect("a printable dot-operand layout")
    );
    let load = ir::create_op(
        "ttg.local_load",
        location,
        &[ir::result(subslice, 0)],
        &[parse_type(ctx, &loaded)],
        &[],
        Vec::new(),
    );
    ir::insert_before(before, load);
    clone_chain(before, ir::result(load, 0), &plan.chains[index], &shape)
}

/// `cloneElementwiseOps`: the chain's ops after its `ttg.local_load`,
/// cloned on `loaded`, each result typed with the slice's shape and its
/// operand's layout.
fn clone_chain(
    before: MlirOperation,
    loaded: MlirValue,
    chain: &[MlirValue],
    shape: &[i64],
) -> MlirValue {
    let mut map = ValueMap::new();
    map.insert(Val(chain[1]), Val(loaded));
    let mut last = loaded;
    for v in &chain[2..] {
        let def = ir::defining_op(*v).expect("a chain op");
        let clone = ir::clone_mapped(def, &mut map);
        ir::insert_before(before, clone);
        let result = ir::result(clone, 0);
        if let Some((_, element, _)) = tensor_parts(result) {
            let encoding = tensor_encoding(ir::operand(clone, 0));
            let ty = tt_dialect::ir::tensor_type(
                shape,
                // SAFETY: live handles from the context.
                unsafe { melior::ir::Type::from_raw(element) },
                encoding.map(|e| unsafe { melior::ir::Attribute::from_raw(e) }),
            );
            // SAFETY: `result` is the live result of the new clone.
            unsafe { mlir_sys::mlirValueSetType(result, ty.to_raw()) };
        }
        last = result;
    }
    last
}

fn tensor_encoding(v: MlirValue) -> Option<mlir_sys::MlirAttribute> {
    // SAFETY: as in `tensor_parts`.
    tt_dialect::types::TensorView::of(unsafe { melior::ir::Type::from_raw(ir::value_type(v)) })
        .and_then(|t| t.encoding)
        .map(|e| melior::ir::attribute::AttributeLike::to_raw(&e))
}

/// `emitPrologue` and `createNewForOp`, editing the moved body in place.
fn rewrite(for_op: MlirOperation, plan: &Plan) {
    let width = plan.width;
    let first = [
        prefetch(for_op, plan.inits[0], 0, 0, width, plan),
        prefetch(for_op, plan.inits[1], 1, 0, width, plan),
    ];
    let mut replacements = Vec::new();
    let new_for = scf::replace_for_with_new_signature(for_op, &first, &mut replacements);
    drop_attributes(new_for);
    for (old, new) in replacements {
        ir::replace_all_uses(old, new);
    }
    ir::erase(for_op);
    let body = scf::body(new_for);
    let args = ir::block_args(body);
    let prefetched = [args[args.len() - 2], args[args.len() - 1]];
    let dot = plan.dot;
    let yield_op = ir::terminator(body).expect("a yield");
    // The ops after the dot, before the yield, in order.
    let ops = ir::block_ops(body);
    let at_dot = ops.iter().position(|o| o.ptr == dot.ptr).expect("the dot");
    let after: Vec<MlirOperation> = ops[at_dot + 1..]
        .iter()
        .copied()
        .filter(|o| o.ptr != yield_op.ptr)
        .collect();
    // The dot on the prefetched slices, right after the original.
    // SAFETY: `dot` is live; the clone is inserted right away.
    let first_dot = unsafe { mlir_sys::mlirOperationClone(dot) };
    ir::insert_after(dot, first_dot);
    ir::set_operand(first_dot, 0, prefetched[0]);
    ir::set_operand(first_dot, 1, prefetched[1]);
    let k = *tensor_parts(ir::operand(dot, 0))
        .expect("A")
        .0
        .last()
        .expect("K");
    let mut previous = first_dot;
    let mut offset = width;
    while offset < k {
        let a = prefetch(previous, plan.chains[0][0], 0, offset, width, plan);
        let b = prefetch(previous, plan.chains[1][0], 1, offset, width, plan);
        // SAFETY: as for the first dot.
        let next = unsafe { mlir_sys::mlirOperationClone(dot) };
        ir::insert_after(previous, next);
        ir::set_operand(next, 0, a);
        ir::set_operand(next, 1, b);
        ir::set_operand(next, 2, ir::result(previous, 0));
        previous = next;
        offset += width;
    }
    let last = previous;
    // The last dot waits past the independent ops that follow.
    let dot_result = ir::result(dot, 0);
    let stop = after.iter().copied().find(|&op| {
        ir::region_count(op) > 0 || ir::operands(op).iter().any(|v| v.ptr == dot_result.ptr)
    });
    let yield_at = match stop {
        Some(op) => {
            ir::move_before(last, op);
            yield_op
        }
        None => {
            ir::move_before(last, yield_op);
            last
        }
    };
    // Uses of the dot after the rewrite take the last dot's result.
    ir::replace_all_uses(dot_result, ir::result(last, 0));
    // The next iteration's first slices.
    let next = [
        prefetch(yield_at, plan.yields[0], 0, 0, width, plan),
        prefetch(yield_at, plan.yields[1], 1, 0, width, plan),
    ];
    let mut values = ir::operands(yield_op);
    values.extend(next);
    let new_yield = ir::create_op(
        "scf.yield",
        ir::location(yield_op),
        &values,
        &[],
        &[],
        Vec::new(),
    );
    ir::insert_before(yield_op, new_yield);
    ir::erase(yield_op);
}
