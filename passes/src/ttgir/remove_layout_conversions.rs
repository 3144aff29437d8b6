//! `tritongpu-remove-layout-conversions`: Triton 3.6's
//! `RemoveLayoutConversions.cpp`, per `tt.func`, in its phase order:
//!
//! 1. **Forward propagation** (`LayoutPropagation`): anchors are the
//!    function's tensor arguments and the results of expensive loads and
//!    stores (block pointers, or at least as many elements as threads),
//!    dots, atomics, `tmem_load`, gathers with `efficient_layout` and
//!    reshapes with `allow_reorder`. Each anchor's layout flows to its
//!    users through elementwise / same-encoding ops, `tt.reduce`,
//!    `tt.expand_dims`, converts (whose *source* layout is proposed) and
//!    `scf.for`/`scf.if`/`scf.while`/`scf.yield`/`scf.condition`;
//!    conflicts keep a blocked layout on loads/stores/atomics and an MMA
//!    layout elsewhere, else the first candidate. The rewrite walks the
//!    regions breadth-first and changes each value's type in place (the
//!    printed result is the same as Triton's clone-and-erase: a clone sits
//!    where its original was), inserting a `ttg.convert_layout` right
//!    after a definition whenever a use wants another layout; constants,
//!    splats, make_ranges, local loads... keep their layout and get a
//!    convert after them.
//! 2. The convert canonicalizations (`ConvertLayoutOp`'s patterns, through
//!    the greedy driver, which also folds and drops dead ops).
//! 3. **Backward rematerialization** (`LayoutRematerialization`): each
//!    convert (not to a dot operand) is replaced by an existing
//!    rematerialization that dominates it, or its backward slice
//!    (`getConvertBackwardSlice`: stops at ops that fold into a convert,
//!    walks through register-only converts, fails on conflicting layouts,
//!    `scf.for` results, concatenations and non-inferable ops) is cloned
//!    in the target layout when every op of it can be rematerialized (no
//!    expensive load/store, atomic, dot, gather with efficient layout,
//!    `scf.while`) and Triton's cost model (`isRematBeneficial`) says the
//!    clone is cheaper than the convert: duplicated arithmetic, loads and
//!    reductions against a round trip through shared memory; never
//!    duplicating a reduction that is not associative. Then the
//!    canonicalizations again.
//! 4. **Hoisting above extensions and broadcasts**
//!    (`hoistConvertOnTopOfExtOrBroadcast`): a convert whose slice
//!    reaches a single ext/broadcast/expand_dims/widening fp_to_fp that
//!    cannot itself be rematerialized is moved above it.
//! 5. **Hoisting into conditionals** (`hoistConvertIntoConditionals`,
//!    right after 4): where a convert's slice reaches an `scf.if` inside a
//!    loop whose result one branch can rematerialize and the other cannot,
//!    the convert moves into the other branch.
//! 6. **Hoisting dot-operand chains** (`hoistConvertDotOperand`, right
//!    after 5 without a clean-up): a convert that a later MMA dot
//!    post-dominates moves to the loads behind it through ops that move no
//!    data between threads (elementwise, broadcasts, views, other
//!    converts), when the slice ends in loads and constants only.
//! 7. The final canonicalizations.
//!
//! A slice through `scf.for` iter args or `scf.if` results rebuilds the
//! loop / `if` with extra iter args / results in the new layout
//! (`replaceForOpWithNewSignature`, `replaceIfOpWithNewSignature`); the
//! old ones die in the final clean-up. Layouts are inferred through
//! `trans`, `reshape` (without `allow_reorder`), `split`, `join` and
//! `fp4_to_fp` both ways, as Triton's `infer*OpEncoding` do
//! ([`crate::ttgir::infer_layout`]); a `gather` without
//! `efficient_layout` relates its indices' layout and its result's, its
//! source keeping its own. `tt.cat` ends a slice.
//! Of the `scf.if` canonicalizations in the final clean-up, only trivial
//! ifs to selects and the removal of unused results are done (besides
//! Triton's `scf.for` dead-argument elimination, the `scf.for`
//! canonicalizations and the convert patterns).
//! "Register-only" converts
//! are those whose source and target linear layouts agree on lanes, warps and blocks.

use std::collections::{HashMap, HashSet};

use melior::ir::{operation::OperationRef, Attribute, AttributeLike, Type, TypeLike};
use mlir_sys::{MlirAttribute, MlirContext, MlirOperation, MlirType, MlirValue};
use tt_dialect::rewrite::{apply_greedily, Greedy, Pattern, Root};

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttgir::infer_layout;
use crate::ttir::loop_support::ir::{self, Val};
use crate::ttir::loop_support::scf;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPURemoveLayoutConversions",
    argument: "tritongpu-remove-layout-conversions",
    description: "remove superfluous layout conversions",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let m = module.to_raw();
    let funcs = ir::collect_post(m, &|op| ir::is(op, "tt.func"));
    let mut cx = Cx::new(m);
    for &f in &funcs {
        let mut lp = Propagation::default();
        lp.init_anchors(&mut cx, f);
        lp.propagate(&mut cx);
        lp.resolve_conflicts(&cx);
        if let Err(e) = lp.rewrite(&mut cx, f) {
            return Err(fail(module, &e));
        }
    }
    // Backward rematerialisation, then hoisting over extensions: each phase
    // visits every conversion of every function after a clean-up.
    // Hoisting into conditionals and over dot-operand chains follow right
    // after, without a clean-up in between (Triton's `hoistConvert`).
    type Phase = fn(&mut Remat, &mut Cx, MlirOperation) -> Result<(), String>;
    for (phase, clean_first) in [
        (Remat::backward as Phase, true),
        (Remat::hoist_ext, true),
        (Remat::hoist_into_conditionals, false),
        (Remat::hoist_dot_operand, false),
    ] {
        if clean_first {
            cleanup_converts(module);
        }
        for &f in &funcs {
            let mut rm = Remat::default();
            for cvt in converts(f) {
                phase(&mut rm, &mut cx, cvt).map_err(|e| fail(module, &e))?;
                rm.keep_for_reuse(cvt);
            }
            rm.cleanup();
        }
    }
    final_cleanup(module);
    Ok(())
}

fn converts(f: MlirOperation) -> Vec<MlirOperation> {
    ir::collect_post(f, &|op| ir::is(op, "ttg.convert_layout"))
}

/// Runs `ConvertLayoutOp`'s canonicalization patterns greedily.
fn cleanup_converts(module: OperationRef) {
    let patterns: Vec<(Root, &'static Pattern)> =
        ttg_dialect::canonicalize::patterns("ttg.convert_layout")
            .iter()
            .map(|(root, p)| (Root::Op(root), p))
            .collect();
    apply_greedily(module, &patterns, Greedy::default());
}

/// The final clean-up: Triton's `scf.for` dead-argument elimination, the
/// `scf.for` and `scf.if` canonicalizations and the convert patterns.
fn final_cleanup(module: OperationRef) {
    let mut patterns: Vec<(Root, &'static Pattern)> = vec![(Root::Op("scf.for"), &FOR_DEAD_ARGS)];
    patterns.extend(scf::FOR_CANONICALIZATION);
    patterns.extend(scf::IF_CANONICALIZATION);
    patterns.extend(
        ttg_dialect::canonicalize::patterns("ttg.convert_layout")
            .iter()
            .map(|(root, p)| (Root::Op(root), p)),
    );
    apply_greedily(module, &patterns, Greedy::default());
}

static FOR_DEAD_ARGS: Pattern = Pattern {
    benefit: 1,
    rewrite: for_dead_args,
    generated: &[],
};

/// Triton's `ForOpDeadArgElimination`: a yielded value that is live only
/// through the loop-carried cycle of its own iter arg is replaced by the
/// iter arg (the canonicalizations then drop the arg and DCE the ops).
fn for_dead_args<'c, 'a>(
    root: OperationRef<'c, 'a>,
    rewriter: &melior::RewriterBase<'c, 'a>,
) -> bool {
    let for_op = root.to_raw();
    if !scf::is_well_formed_for(for_op) {
        return false;
    }
    let block = scf::body(for_op);
    let Some(yield_op) = ir::terminator(block) else {
        return false;
    };
    let mut alive: HashSet<Val> = HashSet::new();
    let mut queue: Vec<MlirValue> = Vec::new();
    let mark = |v: MlirValue, alive: &mut HashSet<Val>, queue: &mut Vec<MlirValue>| {
        let inside = ir::value_parent_op(v).is_some_and(|p| ir::is_ancestor(for_op, p));
        if inside && alive.insert(Val(v)) {
            queue.push(v);
        }
    };
    for (i, r) in ir::results(for_op).into_iter().enumerate() {
        if ir::has_uses(r) {
            mark(ir::operand(yield_op, i), &mut alive, &mut queue);
        }
    }
    ir::walk_pre(for_op, &mut |op| {
        if op.ptr == for_op.ptr || ir::is_terminator(op) {
            return;
        }
        // `wouldOpBeTriviallyDead`: only reads (or nothing).
        if !crate::ttir::loop_support::effects::only_reads(op) || ir::is(op, "scf.if") {
            for v in ir::operands(op) {
                mark(v, &mut alive, &mut queue);
            }
        }
    });
    while let Some(v) = queue.pop() {
        if let Some(def) = ir::defining_op(v) {
            if ir::is(def, "scf.for") {
                let i = ir::result_number(v);
                mark(
                    ir::operand(scf::yield_op(def).expect("yield"), i),
                    &mut alive,
                    &mut queue,
                );
                mark(scf::init_args(def)[i], &mut alive, &mut queue);
                continue;
            }
            if ir::is(def, "scf.if") {
                let i = ir::result_number(v);
                mark(ir::operand(def, 0), &mut alive, &mut queue);
                for region in ir::regions(def) {
                    if let Some(y) = ir::blocks(region).first().and_then(|b| ir::terminator(*b)) {
                        mark(ir::operand(y, i), &mut alive, &mut queue);
                    }
                }
                continue;
            }
            for o in ir::operands(def) {
                mark(o, &mut alive, &mut queue);
            }
            continue;
        }
        let owner = ir::block_parent_op(ir::value_block(v));
        if let Some(f) = owner.filter(|o| ir::is(*o, "scf.for")) {
            let n = ir::arg_number(v);
            if n == 0 {
                continue;
            }
            mark(
                ir::operand(scf::yield_op(f).expect("yield"), n - 1),
                &mut alive,
                &mut queue,
            );
            mark(scf::init_args(f)[n - 1], &mut alive, &mut queue);
        }
    }
    let args = ir::block_args(block);
    let region = ir::block_parent_region(block);
    let mut dead = Vec::new();
    for (i, y) in ir::operands(yield_op).into_iter().enumerate() {
        if alive.contains(&Val(y)) || ir::same_value(y, args[i + 1]) {
            continue;
        }
        let yr = unsafe { mlir_sys::mlirBlockGetParentRegion(ir::value_block(y)) };
        if !unsafe { mlir_sys::mlirRegionEqual(yr, region) } {
            continue;
        }
        dead.push(i);
    }
    if dead.is_empty() {
        return false;
    }
    rewriter.start_op_modification(root);
    for i in dead {
        ir::set_operand(yield_op, i, args[i + 1]);
    }
    rewriter.finalize_op_modification(root);
    true
}

// ---------------------------------------------------------------------------
// Encodings and op properties.

type Enc = usize;

/// Shared context: parsed attributes, module numbers, original types.
struct Cx {
    ctx: MlirContext,
    attrs: HashMap<String, MlirAttribute>,
    num_threads: i64,
    /// The type each value had before phase 1 changed it in place.
    original: HashMap<Val, MlirType>,
}

impl Cx {
    fn new(module: MlirOperation) -> Self {
        let int = |name: &str, default: i64| {
            ir::attribute(module, name)
                .and_then(ir::integer_attr_value)
                .unwrap_or(default)
        };
        Self {
            ctx: ir::context(module),
            attrs: HashMap::new(),
            num_threads: int("ttg.num-warps", 4) * int("ttg.threads-per-warp", 32),
            original: HashMap::new(),
        }
    }

    fn parse(&mut self, text: String) -> Option<MlirAttribute> {
        if let Some(a) = self.attrs.get(&text) {
            return Some(*a);
        }
        let a = ir::parse_attribute(self.ctx, &text)?;
        self.attrs.insert(text, a);
        Some(a)
    }

    fn slice(&mut self, dim: i64, parent: MlirAttribute) -> Option<MlirAttribute> {
        self.parse(format!(
            "#ttg.slice<{{dim = {dim}, parent = {}}}>",
            text(parent)
        ))
    }

    /// `(dim, parent)` of a slice encoding.
    fn slice_parts(&mut self, enc: MlirAttribute) -> Option<(i64, MlirAttribute)> {
        let t = text(enc);
        let rest = t.strip_prefix("#ttg.slice<{dim = ")?;
        let (dim, rest) = rest.split_once(", parent = ")?;
        let parent = rest.strip_suffix("}>")?;
        Some((dim.parse().ok()?, self.parse(parent.to_string())?))
    }

    fn original_type(&self, v: MlirValue) -> MlirType {
        self.original
            .get(&Val(v))
            .copied()
            .unwrap_or_else(|| ir::value_type(v))
    }

    fn set_encoding(&mut self, v: MlirValue, enc: MlirAttribute) {
        let ty = ir::value_type(v);
        let Some(new) = ir::with_encoding(ty, enc) else {
            return;
        };
        if !ir::same_type(ty, new) {
            self.original.entry(Val(v)).or_insert(ty);
            unsafe { mlir_sys::mlirValueSetType(v, new) };
        }
    }
}

fn text(a: MlirAttribute) -> String {
    unsafe { Attribute::from_raw(a) }.to_string()
}

fn key(a: MlirAttribute) -> Enc {
    a.ptr as usize
}

fn tensor_encoding(ty: MlirType) -> Option<MlirAttribute> {
    tt_dialect::types::TensorView::of(unsafe { Type::from_raw(ty) })?
        .encoding
        .map(|e| e.to_raw())
}

fn is_tensor(v: MlirValue) -> bool {
    tt_dialect::types::TensorView::of(unsafe { Type::from_raw(ir::value_type(v)) }).is_some()
}

fn num_elements(ty: MlirType) -> Option<i64> {
    let view = tt_dialect::types::TensorView::of(unsafe { Type::from_raw(ty) })?;
    Some(view.shape.iter().product())
}

fn layout_of(enc: MlirAttribute) -> Option<ttg_dialect::layout::Layout> {
    ttg_dialect::layout::Layout::read(unsafe { Attribute::from_raw(enc) })
}

fn is_blocked(enc: MlirAttribute) -> bool {
    matches!(
        layout_of(enc),
        Some(ttg_dialect::layout::Layout::Blocked { .. })
    )
}

fn is_mma(enc: MlirAttribute) -> bool {
    matches!(
        layout_of(enc),
        Some(ttg_dialect::layout::Layout::NvidiaMma { .. })
    )
}

/// Triton's `MmaEncodingTrait`: NVIDIA MMA, AMD MFMA or WMMA.
fn is_mma_like(enc: MlirAttribute) -> bool {
    layout_of(enc).is_some_and(|l| l.is_mma())
}

fn is_dot_operand(enc: MlirAttribute) -> bool {
    matches!(
        layout_of(enc),
        Some(ttg_dialect::layout::Layout::DotOperand { .. })
    )
}

/// Ops with Triton's `SameOperandsAndResultEncoding` or
/// `SameLoadStoreOperandsAndResultEncoding` trait.
fn same_encoding(op: MlirOperation) -> bool {
    matches!(
        ir::name(op).as_str(),
        "tt.load"
            | "tt.atomic_rmw"
            | "tt.atomic_cas"
            | "tt.splat"
            | "tt.broadcast"
            | "tt.int_to_ptr"
            | "tt.ptr_to_int"
            | "tt.bitcast"
            | "tt.fp_to_fp"
            | "tt.addptr"
            | "tt.scan"
            | "tt.map_elementwise"
            | "tt.extern_elementwise"
            | "tt.elementwise_inline_asm"
    )
}

fn elementwise(op: MlirOperation) -> bool {
    tt_dialect::ir::has_trait(
        unsafe { OperationRef::from_raw(op) },
        tt_dialect::ir::Trait::Elementwise,
    )
}

/// `inferDstEncoding`.
fn infer_dst(cx: &mut Cx, op: MlirOperation, enc: MlirAttribute) -> Option<MlirAttribute> {
    let name = ir::name(op);
    if name == "tt.scan" && !is_blocked(enc) {
        return None;
    }
    if same_encoding(op)
        || elementwise(op)
        || matches!(
            name.as_str(),
            "scf.while"
                | "scf.for"
                | "scf.yield"
                | "scf.condition"
                | "ttng.warp_group_dot_wait"
                | "tt.gather"
        )
    {
        return Some(enc);
    }
    match name.as_str() {
        "tt.reduce" => cx.slice(int_attr(op, "axis")?, enc),
        "tt.expand_dims" => {
            let (dim, parent) = cx.slice_parts(enc)?;
            (dim == int_attr(op, "axis")?).then_some(parent)
        }
        "tt.trans" => {
            let shape = shape_of(ir::operand(op, 0))?;
            let text = infer_layout::infer_trans(&read_layout(enc)?, &shape, &trans_order(op)?)?;
            cx.parse(text)
        }
        // Reshapes that may reorder elements take no layout from here.
        "tt.reshape" if !unit_attr(op, "allow_reorder") => {
            let (src, dst) = (shape_of(ir::operand(op, 0))?, shape_of(ir::result(op, 0))?);
            cx.parse(infer_layout::infer_reshape(&src, &read_layout(enc)?, &dst)?)
        }
        "tt.split" => {
            let shape = shape_of(ir::operand(op, 0))?;
            cx.parse(infer_layout::infer_split_encoding(
                &read_layout(enc)?,
                &shape,
            )?)
        }
        "tt.join" => {
            let shape = shape_of(ir::operand(op, 0))?;
            cx.parse(infer_layout::infer_join(&read_layout(enc)?, &shape)?)
        }
        "ttg.fp4_to_fp" => infer_fp4(cx, op, enc, true),
        _ => None,
    }
}

/// The layout across a `ttg.fp4_to_fp`: its result's from its operand's
/// `enc` (`forward`), or the other way.
fn infer_fp4(
    cx: &mut Cx,
    op: MlirOperation,
    enc: MlirAttribute,
    forward: bool,
) -> Option<MlirAttribute> {
    let of = if forward {
        ir::operand(op, 0)
    } else {
        ir::result(op, 0)
    };
    let axis = usize::try_from(int_attr(op, "axis")?).ok()?;
    cx.parse(infer_layout::infer_fp4_to_fp(
        &read_layout(enc)?,
        &shape_of(of)?,
        axis,
        forward,
    )?)
}

/// The shape of a tensor value.
fn shape_of(value: MlirValue) -> Option<Vec<i64>> {
    tt_dialect::types::TensorView::of(unsafe { Type::from_raw(ir::value_type(value)) })
        .map(|t| t.shape.to_vec())
}

fn read_layout(enc: MlirAttribute) -> Option<ttg_dialect::layout::Layout> {
    ttg_dialect::layout::Layout::read(unsafe { Attribute::from_raw(enc) })
}

/// A `tt.trans`'s `order`.
fn trans_order(op: MlirOperation) -> Option<Vec<u32>> {
    let order = ir::dense_i32_array(ir::attribute(op, "order")?)?;
    order.into_iter().map(|d| u32::try_from(d).ok()).collect()
}

/// `inferSrcEncoding`.
fn infer_src(cx: &mut Cx, op: MlirOperation, enc: MlirAttribute) -> Option<MlirAttribute> {
    let name = ir::name(op);
    if name == "tt.scan" && !is_blocked(enc) {
        return None;
    }
    if same_encoding(op)
        || elementwise(op)
        || matches!(
            name.as_str(),
            "scf.while" | "scf.yield" | "scf.condition" | "ttng.warp_group_dot_wait" | "tt.gather"
        )
    {
        return Some(enc);
    }
    match name.as_str() {
        "tt.reduce" => {
            let (dim, parent) = cx.slice_parts(enc)?;
            (dim == int_attr(op, "axis")?).then_some(parent)
        }
        "tt.expand_dims" => cx.slice(int_attr(op, "axis")?, enc),
        "tt.trans" => {
            let shape = shape_of(ir::result(op, 0))?;
            let inverse = infer_layout::inverse_permutation(&trans_order(op)?)?;
            cx.parse(infer_layout::infer_trans(
                &read_layout(enc)?,
                &shape,
                &inverse,
            )?)
        }
        "tt.reshape" if !unit_attr(op, "allow_reorder") => {
            let (src, dst) = (shape_of(ir::operand(op, 0))?, shape_of(ir::result(op, 0))?);
            cx.parse(infer_layout::infer_reshape(&dst, &read_layout(enc)?, &src)?)
        }
        // A split's operand is the join of its results, and the other way.
        "tt.split" => {
            let shape = shape_of(ir::result(op, 0))?;
            cx.parse(infer_layout::infer_join(&read_layout(enc)?, &shape)?)
        }
        "tt.join" => {
            let shape = shape_of(ir::result(op, 0))?;
            cx.parse(infer_layout::infer_split_encoding(
                &read_layout(enc)?,
                &shape,
            )?)
        }
        "ttg.fp4_to_fp" => infer_fp4(cx, op, enc, false),
        _ => None,
    }
}

fn int_attr(op: MlirOperation, name: &str) -> Option<i64> {
    ir::attribute(op, name).and_then(ir::integer_attr_value)
}

fn unit_attr(op: MlirOperation, name: &str) -> bool {
    ir::attribute(op, name).is_some_and(|a| {
        !unsafe { mlir_sys::mlirAttributeIsABool(a) }
            || unsafe { mlir_sys::mlirBoolAttrGetValue(a) }
    })
}

/// `isExpensiveLoadOrStore`.
fn expensive_load_store(cx: &Cx, op: MlirOperation) -> bool {
    let ptr = ir::value_type(ir::operand(op, 0));
    if tt_dialect::types::pointer_parts(unsafe { Type::from_raw(ptr) })
        .is_some_and(|(pointee, _)| tt_dialect::types::TensorView::of(pointee).is_some())
    {
        return true;
    }
    match num_elements(ptr) {
        None | Some(1) => false,
        Some(n) => n >= cx.num_threads,
    }
}

/// `isLayoutAnchor`.
fn is_anchor(cx: &Cx, op: MlirOperation) -> bool {
    match ir::name(op).as_str() {
        "tt.load" | "tt.store" => expensive_load_store(cx, op),
        "tt.dot"
        | "tt.dot_scaled"
        | "ttng.warp_group_dot"
        | "tt.atomic_rmw"
        | "tt.atomic_cas"
        | "ttng.tmem_load" => true,
        "tt.gather" => unit_attr(op, "efficient_layout"),
        "tt.reshape" => unit_attr(op, "allow_reorder"),
        _ => false,
    }
}

/// `canFoldIntoConversion` (reshape and cat excluded: see the summary).
fn can_fold_into_conversion(op: MlirOperation, target: MlirAttribute) -> bool {
    match ir::name(op).as_str() {
        "ttg.convert_layout" => {
            if is_mma(target) {
                let src = tensor_encoding(ir::value_type(ir::operand(op, 0)));
                return src.map(key) == Some(key(target));
            }
            true
        }
        "arith.constant" | "tt.make_range" | "tt.splat" | "tt.histogram" | "ttg.local_alloc"
        | "ttg.local_load" | "ttg.local_store" => true,
        _ => false,
    }
}

/// A convert that only moves data between registers of one thread: source
/// and target agree on lanes, warps and blocks.
fn is_free_convert(op: MlirOperation) -> bool {
    if !ir::is(op, "ttg.convert_layout") {
        return false;
    }
    let dst_ty = ir::value_type(ir::result(op, 0));
    tensor_encoding(dst_ty).is_some_and(|d| same_threads(ir::operand(op, 0), d, false))
}

/// Whether `src`'s layout and `target` agree on lanes, warps and blocks,
/// so that converting moves values between a thread's registers only.
/// With `strict`, as Triton's `cvtReordersRegisters` decides it for the
/// cost model: a dimension whose values are broadcast (a zero basis)
/// does not count as agreeing.
fn same_threads(src: MlirValue, target: MlirAttribute, strict: bool) -> bool {
    let src_ty = ir::value_type(src);
    let view = tt_dialect::types::TensorView::of(unsafe { Type::from_raw(src_ty) });
    let (Some(view), Some(s), Some(d)) = (
        view,
        tensor_encoding(src_ty).and_then(layout_of),
        layout_of(target),
    ) else {
        return false;
    };
    let shape = view.shape.to_vec();
    let (Ok(s), Ok(d)) = (
        ttg_dialect::to_linear::to_linear_layout(&s, &shape),
        ttg_dialect::to_linear::to_linear_layout(&d, &shape),
    ) else {
        return false;
    };
    ["lane", "warp", "block"].iter().all(|dim| {
        s.bases(dim) == d.bases(dim)
            && !(strict && s.bases(dim).iter().any(|b| b.iter().all(|&x| x == 0)))
    })
}

fn create_convert(loc: mlir_sys::MlirLocation, v: MlirValue, ty: MlirType) -> MlirOperation {
    ir::create_op("ttg.convert_layout", loc, &[v], &[ty], &[], Vec::new())
}

/// Inserts the detached `op` right after the definition of `v` (at the
/// start of its block for a block argument).
fn insert_after_value(v: MlirValue, op: MlirOperation) {
    match ir::defining_op(v) {
        Some(def) => ir::insert_after(def, op),
        None => unsafe { mlir_sys::mlirBlockInsertOwnedOperation(ir::value_block(v), 0, op) },
    }
}

// ---------------------------------------------------------------------------
// Phase 1: forward propagation.

#[derive(Default)]
struct Propagation {
    /// Value to candidate encodings, in insertion order (`MapVector`).
    order: Vec<Val>,
    layouts: HashMap<Val, Vec<MlirAttribute>>,
    /// Values replaced by a convert (ops that fold into a conversion).
    mapping: HashMap<Val, MlirValue>,
}

impl Propagation {
    fn entry(&mut self, v: MlirValue) -> &mut Vec<MlirAttribute> {
        if !self.layouts.contains_key(&Val(v)) {
            self.order.push(Val(v));
        }
        self.layouts.entry(Val(v)).or_default()
    }

    fn picked(&self, v: MlirValue) -> Option<MlirAttribute> {
        self.layouts.get(&Val(v)).and_then(|e| e.first().copied())
    }

    fn init_anchors(&mut self, cx: &mut Cx, f: MlirOperation) {
        let add = |s: &mut Self, v: MlirValue| {
            if let Some(enc) = tensor_encoding(ir::value_type(v)) {
                let e = s.entry(v);
                if !e.iter().any(|x| key(*x) == key(enc)) {
                    e.push(enc);
                }
            }
        };
        if let Some(body) = ir::regions(f).first() {
            if let Some(&entry) = ir::blocks(*body).first() {
                for a in ir::block_args(entry) {
                    add(self, a);
                }
            }
        }
        for op in ir::collect_post(f, &|_| true) {
            if is_anchor(cx, op) {
                for r in ir::results(op) {
                    add(self, r);
                }
            }
        }
    }

    fn set_encoding(
        &mut self,
        cx: &mut Cx,
        values: &[MlirValue],
        info: &[MlirAttribute],
        changed: &mut Vec<MlirValue>,
        op: MlirOperation,
    ) {
        for &v in values {
            if !is_tensor(v) {
                continue;
            }
            let mut has_changed = false;
            for &enc in info {
                let dst = if ir::is(op, "ttg.convert_layout") {
                    Some(enc)
                } else {
                    infer_dst(cx, op, enc)
                };
                if let Some(dst) = dst {
                    let e = self.entry(v);
                    if !e.iter().any(|x| key(*x) == key(dst)) {
                        e.push(dst);
                        has_changed = true;
                    }
                }
            }
            if has_changed {
                changed.push(v);
            }
        }
    }

    fn propagate_to_users(
        &mut self,
        cx: &mut Cx,
        v: MlirValue,
        info: &[MlirAttribute],
    ) -> Vec<MlirValue> {
        let mut changed = Vec::new();
        for (user, index) in ir::uses(v) {
            let name = ir::name(user);
            match name.as_str() {
                "scf.for" => {
                    // Operands: lb, ub, step, inits.
                    if index >= 3 {
                        let i = index - 3;
                        let body = ir::blocks(ir::regions(user)[0])[0];
                        let arg = ir::block_args(body)[i + 1];
                        let res = ir::result(user, i);
                        self.set_encoding(cx, &[arg, res], info, &mut changed, user);
                    }
                    continue;
                }
                "scf.while" => {
                    let before = ir::blocks(ir::regions(user)[0])[0];
                    let arg = ir::block_args(before)[index];
                    self.set_encoding(cx, &[arg], info, &mut changed, user);
                    continue;
                }
                "scf.yield" => {
                    let Some(parent) = ir::parent_op(user) else {
                        continue;
                    };
                    let pname = ir::name(parent);
                    let mut vals = Vec::new();
                    if matches!(pname.as_str(), "scf.for" | "scf.if" | "scf.while") {
                        vals.push(ir::result(parent, index));
                    }
                    if pname == "scf.for" {
                        let body = ir::blocks(ir::regions(parent)[0])[0];
                        vals.push(ir::block_args(body)[index + 1]);
                    }
                    if pname == "scf.while" {
                        let before = ir::blocks(ir::regions(parent)[0])[0];
                        vals.push(ir::block_args(before)[index]);
                    }
                    if matches!(pname.as_str(), "scf.for" | "scf.if" | "scf.while") {
                        self.set_encoding(cx, &vals, info, &mut changed, user);
                    }
                    continue;
                }
                "scf.condition" => {
                    let Some(w) = ir::parent_op(user) else {
                        continue;
                    };
                    if index == 0 {
                        continue;
                    }
                    let i = index - 1;
                    let after = ir::blocks(ir::regions(w)[1])[0];
                    let vals = [ir::block_args(after)[i], ir::result(w, i)];
                    self.set_encoding(cx, &vals, info, &mut changed, user);
                    continue;
                }
                "ttng.warp_group_dot_wait" => {
                    let r = ir::result(user, index);
                    self.set_encoding(cx, &[r], info, &mut changed, user);
                    continue;
                }
                // A gather's result takes its indices' layout, not its
                // source's, unless it keeps an efficient layout.
                "tt.gather" => {
                    if index == 1 && !unit_attr(user, "efficient_layout") {
                        let rs = ir::results(user);
                        self.set_encoding(cx, &rs, info, &mut changed, user);
                    }
                    continue;
                }
                _ => {}
            }
            if same_encoding(user)
                || elementwise(user)
                || matches!(
                    name.as_str(),
                    "tt.reduce"
                        | "tt.expand_dims"
                        | "tt.reshape"
                        | "tt.trans"
                        | "tt.join"
                        | "tt.split"
                        | "ttg.convert_layout"
                )
            {
                let rs = ir::results(user);
                self.set_encoding(cx, &rs, info, &mut changed, user);
            }
        }
        changed
    }

    fn propagate(&mut self, cx: &mut Cx) {
        let mut queue: Vec<MlirValue> = self.order.iter().map(|v| v.0).collect();
        while let Some(v) = queue.pop() {
            let info = self.layouts.get(&Val(v)).cloned().unwrap_or_default();
            let changed = self.propagate_to_users(cx, v, &info);
            queue.extend(changed);
        }
    }

    fn resolve_conflicts(&mut self, _cx: &Cx) {
        for v in &self.order {
            let encs = self.layouts.get_mut(v).expect("ordered value");
            if encs.len() <= 1 {
                continue;
            }
            let def = ir::defining_op(v.0);
            let load_store = def.is_some_and(|op| {
                matches!(
                    ir::name(op).as_str(),
                    "tt.load" | "tt.store" | "tt.atomic_rmw" | "tt.atomic_cas"
                )
            });
            let mut pick = encs[0];
            for &e in encs.iter() {
                if (load_store && is_blocked(e)) || (!load_store && is_mma_like(e)) {
                    pick = e;
                    break;
                }
            }
            *encs = vec![pick];
        }
    }

    /// `getValueAs`: `v` (as rewritten) in `enc`, converting after its
    /// definition when needed.
    fn value_as(&mut self, cx: &Cx, v: MlirValue, enc: MlirAttribute) -> MlirValue {
        if !is_tensor(v) {
            return v;
        }
        let original = cx.original_type(v);
        let rewritten = match self.picked(v) {
            None => v,
            Some(p) if Some(key(p)) == tensor_encoding(original).map(key) => v,
            Some(_) => self.mapping.get(&Val(v)).copied().unwrap_or(v),
        };
        let ty = ir::value_type(rewritten);
        if tensor_encoding(ty).map(key) == Some(key(enc)) {
            return rewritten;
        }
        let Some(new_ty) = ir::with_encoding(ty, enc) else {
            return rewritten;
        };
        let loc = match ir::defining_op(v) {
            Some(d) => ir::location(d),
            None => ir::location(ir::block_parent_op(ir::value_block(v)).expect("parent")),
        };
        let cvt = create_convert(loc, rewritten, new_ty);
        insert_after_value(rewritten, cvt);
        ir::result(cvt, 0)
    }

    fn rewrite(&mut self, cx: &mut Cx, f: MlirOperation) -> Result<(), String> {
        let mut queue: std::collections::VecDeque<mlir_sys::MlirRegion> =
            ir::regions(f).into_iter().collect();
        while let Some(region) = queue.pop_front() {
            for block in ir::blocks(region) {
                for op in ir::block_ops(block) {
                    let mut need = false;
                    for r in ir::results(op) {
                        let Some(p) = self.picked(r) else { continue };
                        if tensor_encoding(ir::value_type(r)).map(key) != Some(key(p)) {
                            need = true;
                        }
                    }
                    let name = ir::name(op);
                    if need {
                        self.rewrite_op(cx, op)?;
                        queue.extend(ir::regions(op));
                    } else if name == "scf.yield" {
                        self.rewrite_yield(cx, op);
                    } else if name == "scf.condition" {
                        self.rewrite_condition(cx, op);
                    } else if name == "tt.reduce" && !is_tensor(ir::result(op, 0)) {
                        let src = ir::operands(op).into_iter().find_map(|o| self.picked(o));
                        if let Some(src) = src {
                            for i in 0..ir::operand_count(op) {
                                let n = self.value_as(cx, ir::operand(op, i), src);
                                ir::set_operand(op, i, n);
                            }
                        }
                    } else if name == "tt.assert" {
                        if let Some(src) = self.picked(ir::operand(op, 0)) {
                            let n = self.value_as(cx, ir::operand(op, 0), src);
                            ir::set_operand(op, 0, n);
                        }
                    } else {
                        for i in 0..ir::operand_count(op) {
                            let o = ir::operand(op, i);
                            if self.picked(o).is_none() {
                                continue;
                            }
                            let Some(enc) = tensor_encoding(cx.original_type(o)) else {
                                continue;
                            };
                            let n = self.value_as(cx, o, enc);
                            ir::set_operand(op, i, n);
                        }
                        queue.extend(ir::regions(op));
                    }
                }
            }
        }
        Ok(())
    }

    fn rewrite_yield(&mut self, cx: &mut Cx, op: MlirOperation) {
        let parent = ir::parent_op(op).expect("yield parent");
        let pname = ir::name(parent);
        for i in 0..ir::operand_count(op) {
            let o = ir::operand(op, i);
            let ty = match pname.as_str() {
                "scf.for" | "scf.if" => ir::value_type(ir::result(parent, i)),
                "scf.while" => {
                    ir::value_type(ir::block_args(ir::blocks(ir::regions(parent)[0])[0])[i])
                }
                _ => cx.original_type(o),
            };
            let Some(enc) = tensor_encoding(ty) else {
                continue;
            };
            let n = self.value_as(cx, o, enc);
            ir::set_operand(op, i, n);
        }
    }

    fn rewrite_condition(&mut self, cx: &mut Cx, op: MlirOperation) {
        let w = ir::parent_op(op).expect("condition parent");
        for i in 1..ir::operand_count(op) {
            let Some(enc) = tensor_encoding(ir::value_type(ir::result(w, i - 1))) else {
                continue;
            };
            let n = self.value_as(cx, ir::operand(op, i), enc);
            ir::set_operand(op, i, n);
        }
    }

    fn rewrite_op(&mut self, cx: &mut Cx, op: MlirOperation) -> Result<(), String> {
        let name = ir::name(op);
        match name.as_str() {
            "scf.for" => {
                let body = ir::blocks(ir::regions(op)[0])[0];
                for i in 0..ir::result_count(op) {
                    let res = ir::result(op, i);
                    if let Some(enc) = self.picked(res) {
                        let n = self.value_as(cx, ir::operand(op, i + 3), enc);
                        ir::set_operand(op, i + 3, n);
                    }
                }
                for i in 0..ir::result_count(op) {
                    for v in [ir::result(op, i), ir::block_args(body)[i + 1]] {
                        if let Some(enc) = self.picked(v) {
                            cx.set_encoding(v, enc);
                        }
                    }
                }
                return Ok(());
            }
            "scf.while" => {
                let before = ir::blocks(ir::regions(op)[0])[0];
                let after = ir::blocks(ir::regions(op)[1])[0];
                for i in 0..ir::operand_count(op) {
                    let arg = ir::block_args(before)[i];
                    if let Some(enc) = self.picked(arg) {
                        let n = self.value_as(cx, ir::operand(op, i), enc);
                        ir::set_operand(op, i, n);
                    }
                }
                for i in 0..ir::operand_count(op) {
                    let arg = ir::block_args(before)[i];
                    let enc = tensor_encoding(ir::value_type(ir::operand(op, i)));
                    if let (Some(enc), true) = (enc, is_tensor(arg)) {
                        cx.set_encoding(arg, enc);
                    }
                }
                for i in 0..ir::result_count(op) {
                    if let Some(enc) = self.picked(ir::result(op, i)) {
                        cx.set_encoding(ir::result(op, i), enc);
                        cx.set_encoding(ir::block_args(after)[i], enc);
                    }
                }
                return Ok(());
            }
            "scf.if" => {
                for r in ir::results(op) {
                    if let Some(enc) = self.picked(r) {
                        cx.set_encoding(r, enc);
                    }
                }
                return Ok(());
            }
            _ => {}
        }
        let encoding = self
            .picked(ir::result(op, 0))
            .ok_or("rewrite without a layout")?;
        if name == "ttg.convert_layout" {
            let src = ir::operand(op, 0);
            let src_enc = self
                .picked(src)
                .or_else(|| tensor_encoding(cx.original_type(src)))
                .ok_or("convert of a non-tensor")?;
            let n = self.value_as(cx, src, src_enc);
            ir::set_operand(op, 0, n);
            cx.set_encoding(ir::result(op, 0), encoding);
            return Ok(());
        }
        if can_fold_into_conversion(op, encoding) {
            let r = ir::result(op, 0);
            let ty = ir::with_encoding(ir::value_type(r), encoding).ok_or("non-tensor result")?;
            let cvt = create_convert(ir::location(op), r, ty);
            ir::insert_after(op, cvt);
            self.mapping.insert(Val(r), ir::result(cvt, 0));
            return Ok(());
        }
        let supported = same_encoding(op)
            || elementwise(op)
            || matches!(
                name.as_str(),
                "tt.reduce"
                    | "tt.expand_dims"
                    | "tt.trans"
                    | "tt.reshape"
                    | "tt.join"
                    | "tt.split"
                    | "tt.gather"
                    | "ttng.warp_group_dot_wait"
            );
        if !supported {
            return Err(format!(
                "tritongpu-remove-layout-conversions: rewriting '{name}' into a propagated layout is not supported yet"
            ));
        }
        if ir::operand_count(op) > 0 {
            // A gather's layouts relate its indices and result only; its
            // source stays as it is.
            let first = usize::from(name == "tt.gather");
            // An operand whose rewritten layout already gives `encoding` is
            // kept as it is; otherwise the operands take the inferred one.
            let kept = (first..ir::operand_count(op)).find_map(|i| {
                let v = ir::operand(op, i);
                let rewritten = self.mapping.get(&Val(v)).copied().unwrap_or(v);
                let enc = tensor_encoding(ir::value_type(rewritten))?;
                let dst = infer_dst(cx, op, enc)?;
                (key(dst) == key(encoding)).then_some(enc)
            });
            let src = match kept {
                Some(enc) => enc,
                None => infer_src(cx, op, encoding).ok_or("cannot infer the operand layout")?,
            };
            for i in first..ir::operand_count(op) {
                let n = self.value_as(cx, ir::operand(op, i), src);
                ir::set_operand(op, i, n);
            }
        }
        for r in ir::results(op) {
            cx.set_encoding(r, encoding);
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Phases 3 and 4: backward rematerialization and hoisting.

#[derive(Default)]
struct Remat {
    remat: HashMap<(Val, Enc), MlirValue>,
    to_delete: Vec<MlirOperation>,
    deleted: HashSet<usize>,
}

/// A slice: values in discovery order with their target layouts.
#[derive(Default, Clone)]
struct Slice {
    values: Vec<Val>,
    layout: HashMap<Val, MlirAttribute>,
}

impl Slice {
    fn insert(&mut self, v: MlirValue) {
        if !self.values.contains(&Val(v)) {
            self.values.push(Val(v));
        }
    }
    fn update(&mut self, v: MlirValue, enc: MlirAttribute) -> bool {
        self.insert(v);
        match self.layout.get(&Val(v)) {
            Some(e) if key(*e) != key(enc) => false,
            _ => {
                self.layout.insert(Val(v), enc);
                true
            }
        }
    }
}

/// Whether `v` properly dominates `op` (structured control flow).
fn properly_dominates(v: MlirValue, op: MlirOperation) -> bool {
    let block = ir::value_block(v);
    let mut anc = Some(op);
    while let Some(a) = anc {
        if ir::op_block(a).ptr == block.ptr {
            break;
        }
        anc = ir::parent_op(a);
    }
    let Some(a) = anc else { return false };
    match ir::defining_op(v) {
        None => true,
        Some(def) => def.ptr != a.ptr && unsafe { mlir_sys::mlirOperationIsBeforeInBlock(def, a) },
    }
}

fn can_be_remat(cx: &Cx, op: MlirOperation) -> bool {
    match ir::name(op).as_str() {
        "tt.load" | "tt.store" => !expensive_load_store(cx, op),
        "tt.atomic_rmw" | "tt.atomic_cas" | "tt.dot" => false,
        "tt.gather" => !unit_attr(op, "efficient_layout"),
        "scf.while" | "scf.condition" => false,
        _ => true,
    }
}

/// Triton's `getByteCount`: the bytes of a tensor value, counting at
/// least `min_elements` elements of at least `min_bits` bits.
fn byte_count(v: MlirValue, min_elements: i64, min_bits: i64) -> i64 {
    let ty = ir::value_type(v);
    let (mut elements, mut bits) = (0, 0);
    if let Some(view) = tt_dialect::types::TensorView::of(unsafe { Type::from_raw(ty) }) {
        elements = view.shape.iter().product();
        let element = view.element.to_raw();
        bits = ir::integer_width(element)
            .or_else(|| float_width(element))
            .map_or(0, i64::from);
    }
    (elements.max(min_elements) * bits.max(min_bits)) >> 3
}

/// Triton's `getConvertCost` (milli-SM-cycles): free for a register
/// shuffle, else a round trip through shared memory.
fn convert_cost(src: MlirValue, target: MlirAttribute) -> i64 {
    if same_threads(src, target, true) {
        return 0;
    }
    32 * byte_count(src, 32, 32)
}

/// The linear layout of `enc` over `v`'s shape.
fn linear_of(v: MlirValue, enc: MlirAttribute) -> Option<ttg_dialect::linear_layout::LinearLayout> {
    let view = tt_dialect::types::TensorView::of(unsafe { Type::from_raw(ir::value_type(v)) })?;
    ttg_dialect::to_linear::to_linear_layout(&layout_of(enc)?, view.shape).ok()
}

/// Triton's `getCostFactor`: how many times more distinct elements each
/// thread holds in `target` than in `v`'s own layout (at least 1).
fn cost_factor(v: MlirValue, target: MlirAttribute) -> i64 {
    let unique = |enc: MlirAttribute| -> Option<i64> {
        let ll = linear_of(v, enc)?;
        Some(
            ll.bases_per_dim("register", true)
                .iter()
                .map(|&n| i64::from(n))
                .product(),
        )
    };
    match (
        tensor_encoding(ir::value_type(v)).and_then(unique),
        unique(target),
    ) {
        (Some(old), Some(new)) if old > 0 => (new / old).max(1),
        _ => 1,
    }
}

/// Triton's `isExpensiveMathOp`: several instructions or the special
/// function unit.
fn is_expensive_math(op: MlirOperation) -> bool {
    const EXPENSIVE: &[&str] = &[
        "arith.divf",
        "math.erfc",
        "math.sinh",
        "math.cosh",
        "math.tanh",
        "math.asinh",
        "math.acosh",
        "math.atanh",
        "math.ctpop",
        "math.ctlz",
        "math.cttz",
        "math.exp",
        "math.exp2",
        "math.expm1",
        "math.log",
        "math.log2",
        "math.log10",
        "math.log1p",
        "math.sin",
        "math.cos",
        "math.tan",
        "math.asin",
        "math.acos",
        "math.atan",
        "math.atan2",
        "math.powf",
        "math.sqrt",
        "math.rsqrt",
        "math.erf",
        "math.cbrt",
    ];
    EXPENSIVE.iter().any(|n| ir::is(op, n))
}

/// `ReduceOpHelper::isAssociative`: a float reduction of more than two
/// elements that adds or multiplies is not.
fn reduce_is_associative(reduce: MlirOperation) -> bool {
    let src = ir::operand(reduce, 0);
    let Some(view) =
        tt_dialect::types::TensorView::of(unsafe { Type::from_raw(ir::value_type(src)) })
    else {
        return true;
    };
    if float_width(view.element.to_raw()).is_none() {
        return true;
    }
    let axis = int_attr(reduce, "axis").unwrap_or(0) as usize;
    if view.shape.get(axis).is_none_or(|&n| n <= 2) {
        return true;
    }
    let mut fp_arith = false;
    ir::walk_pre(reduce, &mut |op| {
        fp_arith |= ir::is(op, "arith.addf") || ir::is(op, "arith.mulf")
    });
    !fp_arith
}

/// `ReduceOpHelper`'s lanes and warps holding distinct data along the axis.
fn reduce_spread(reduce: MlirOperation) -> (i64, i64) {
    let src = ir::operand(reduce, 0);
    let axis = int_attr(reduce, "axis").unwrap_or(0) as usize;
    let Some(ll) = tensor_encoding(ir::value_type(src)).and_then(|e| linear_of(src, e)) else {
        return (1, 1);
    };
    let along = |dim: &str| i64::from(ll.bases_per_dim(dim, true).get(axis).copied().unwrap_or(1));
    (along("lane"), along("warp"))
}

/// The values a use of a value by an `scf` region op or terminator flows
/// into (`RegionBranchOpInterface`'s successor inputs), `None` for other
/// users.
fn flows_into(user: MlirOperation, index: usize) -> Option<Vec<MlirValue>> {
    if ir::is(user, "scf.yield") {
        let parent = ir::parent_op(user)?;
        if ir::is(parent, "scf.for") {
            let args = scf::region_iter_args(parent);
            return Some(vec![*args.get(index)?, ir::result(parent, index)]);
        }
        if ir::is(parent, "scf.if") {
            return Some(vec![ir::result(parent, index)]);
        }
        return None;
    }
    if ir::is(user, "scf.for") && index >= 3 {
        let k = index - 3;
        // A loop a rewrite replaced has lost its body: its inits reach its
        // (unused) results only.
        if ir::blocks(ir::regions(user)[0]).is_empty() {
            return Some(vec![ir::result(user, k)]);
        }
        return Some(vec![scf::region_iter_args(user)[k], ir::result(user, k)]);
    }
    None
}

/// The operands that flow into `v` when it is a result or an argument of
/// an `scf.for` / `scf.if` (`getSuccessorInputOperandMapping`), `None`
/// otherwise.
fn flows_from(v: MlirValue) -> Option<Vec<MlirValue>> {
    if let Some(def) = ir::defining_op(v) {
        let k = ir::result_number(v);
        if ir::is(def, "scf.for") {
            let mut tied = vec![scf::init_args(def)[k]];
            // A loop a rewrite replaced has lost its body and its yield.
            if !ir::blocks(ir::regions(def)[0]).is_empty() {
                tied.push(scf::yielded_values(def)[k]);
            }
            return Some(tied);
        }
        if ir::is(def, "scf.if") {
            return Some(
                ir::regions(def)
                    .into_iter()
                    .filter_map(|r| ir::blocks(r).first().copied())
                    .filter_map(ir::terminator)
                    .map(|y| ir::operand(y, k))
                    .collect(),
            );
        }
        return None;
    }
    let owner = ir::block_parent_op(ir::value_block(v))?;
    let n = ir::arg_number(v);
    if ir::is(owner, "scf.for") && n > 0 {
        return Some(vec![
            scf::init_args(owner)[n - 1],
            scf::yielded_values(owner)[n - 1],
        ]);
    }
    None
}

/// Triton's `isRematBeneficial`: whether cloning `slice` in its new
/// layouts (and adding converts costing `new_cvt_cost`) is cheaper than
/// keeping `cvt`. Ops only the slice reads are moved rather than
/// duplicated and cost nothing, except arithmetic that gets more elements
/// per thread; a reduction that would be duplicated costs its shuffles,
/// unless it is not associative, which stops the rematerialization.
fn is_remat_beneficial(cvt: MlirOperation, slice: &Slice, new_cvt_cost: i64) -> bool {
    let in_slice = |v: MlirValue| slice.values.contains(&Val(v));
    let mut ops: Vec<MlirOperation> = Vec::new();
    for v in &slice.values {
        if let Some(op) = ir::defining_op(v.0) {
            if !ops.iter().any(|o| o.ptr == op.ptr) {
                ops.push(op);
            }
        }
    }
    let in_ops = |op: MlirOperation| ops.iter().any(|o| o.ptr == op.ptr);
    let mut outside: Vec<Val> = Vec::new();
    for v in &slice.values {
        for (user, index) in ir::uses(v.0) {
            if user.ptr == cvt.ptr || in_ops(user) {
                continue;
            }
            if let Some(targets) = flows_into(user, index) {
                if targets.iter().all(|&t| in_slice(t) || !ir::has_uses(t)) {
                    continue;
                }
            }
            outside.push(*v);
            break;
        }
    }
    let mut i = 0;
    while i < outside.len() {
        let v = outside[i].0;
        i += 1;
        let sources = match flows_from(v) {
            Some(tied) => tied,
            None => match ir::defining_op(v) {
                Some(op) => ir::operands(op),
                None => ir::block_parent_op(ir::value_block(v))
                    .map(ir::operands)
                    .unwrap_or_default(),
            },
        };
        for s in sources {
            if in_slice(s) && !outside.contains(&Val(s)) {
                outside.push(Val(s));
            }
        }
    }
    let target = tensor_encoding(ir::value_type(ir::result(cvt, 0))).expect("a tensor convert");
    let convert = convert_cost(ir::operand(cvt, 0), target);
    // A convert that only moves values between a thread's registers is
    // rematerialized whatever the slice costs: Triton removes those on the
    // corpus and on its own lit cases (`combine.mlir`'s `reduce_cvt2`),
    // which its cost alone would keep; how it gets there is not
    // reproduced here, only the outcome.
    let free = convert == 0;
    let mut remat = new_cvt_cost;
    for &op in &ops {
        let used_outside = ir::results(op)
            .into_iter()
            .any(|r| outside.contains(&Val(r)));
        let name = ir::name(op);
        if name == "arith.constant" {
            continue;
        }
        if name.starts_with("arith.") || name.starts_with("math.") {
            let multiplier = if is_expensive_math(op) { 8 } else { 1 };
            for r in ir::results(op) {
                let Some(&enc) = slice.layout.get(&Val(r)) else {
                    continue;
                };
                let mut factor = cost_factor(r, enc);
                if !used_outside {
                    factor -= 1;
                }
                remat += multiplier * byte_count(r, 0, 0) * factor;
            }
            continue;
        }
        if !used_outside {
            continue;
        }
        if name == "tt.load" || name == "ttg.local_load" {
            remat += ir::results(op)
                .into_iter()
                .map(|r| 8 * byte_count(r, 0, 0))
                .sum::<i64>();
        } else if name == "tt.reduce" {
            if !reduce_is_associative(op) {
                return false;
            }
            let (lanes, warps) = reduce_spread(op);
            remat += lanes + 8 * warps;
        }
    }
    free || convert >= remat
}

impl Remat {
    fn add(&mut self, old: MlirValue, enc: MlirAttribute, new: MlirValue) {
        self.remat.insert((Val(old), key(enc)), new);
    }

    fn get(&self, v: MlirValue, enc: MlirAttribute) -> Option<MlirValue> {
        self.remat.get(&(Val(v), key(enc))).copied()
    }

    fn delete(&mut self, op: MlirOperation) {
        if self.deleted.insert(op.ptr as usize) {
            self.to_delete.push(op);
        }
    }

    fn keep_for_reuse(&mut self, cvt: MlirOperation) {
        if !self.deleted.contains(&(cvt.ptr as usize)) {
            let dst = tensor_encoding(ir::value_type(ir::result(cvt, 0))).expect("tensor");
            self.add(ir::operand(cvt, 0), dst, ir::result(cvt, 0));
        }
    }

    fn cleanup(&mut self) {
        for op in self.to_delete.drain(..).rev() {
            ir::erase(op);
        }
        self.deleted.clear();
    }

    /// `getConvertBackwardSlice`, rooted at operand `index` of `user`.
    fn backward_slice(
        &self,
        cx: &mut Cx,
        root: (MlirOperation, usize),
        root_enc: MlirAttribute,
        slice: &mut Slice,
        stop: &dyn Fn(MlirOperation) -> bool,
    ) -> bool {
        let mut seen: HashSet<(usize, usize, Enc)> = HashSet::new();
        let mut queue: Vec<((MlirOperation, usize), MlirAttribute)> = Vec::new();
        let mut enqueue = |q: &mut Vec<_>, operand: (MlirOperation, usize), enc: MlirAttribute| {
            if seen.insert((operand.0.ptr as usize, operand.1, key(enc))) {
                q.push((operand, enc));
            }
        };
        enqueue(&mut queue, root, root_enc);
        while let Some(((user, index), enc)) = queue.pop() {
            let mut current = ir::operand(user, index);
            if !is_tensor(current) {
                continue;
            }
            if ir::defining_op(current).is_some_and(|d| ir::is(d, "scf.for")) {
                return false;
            }
            if !slice.update(current, enc) {
                return false;
            }
            if let Some(existing) = self
                .get(current, enc)
                .filter(|r| properly_dominates(*r, user))
            {
                if !slice.update(existing, enc) {
                    return false;
                }
                current = existing;
            }
            if let Some(def) = ir::defining_op(current) {
                if ir::is(def, "scf.if") {
                    if stop(def) {
                        continue;
                    }
                    let i = ir::result_number(current);
                    for region in ir::regions(def) {
                        let block = ir::blocks(region)[0];
                        let y = ir::terminator(block).expect("yield");
                        enqueue(&mut queue, (y, i), enc);
                    }
                    continue;
                }
                for r in ir::results(def) {
                    if r.ptr == current.ptr || !is_tensor(r) {
                        continue;
                    }
                    if !slice.update(r, enc) {
                        return false;
                    }
                }
                if is_free_convert(def) {
                    enqueue(&mut queue, (def, 0), enc);
                    continue;
                }
                if can_fold_into_conversion(def, enc) {
                    continue;
                }
                if stop(def) {
                    continue;
                }
                if ir::is(def, "tt.cat") {
                    return false;
                }
                // A gather's indices take the result's layout; its source
                // keeps its own.
                if ir::is(def, "tt.gather") {
                    enqueue(&mut queue, (def, 1), enc);
                    continue;
                }
                for i in 0..ir::operand_count(def) {
                    let Some(src) = infer_src(cx, def, enc) else {
                        return false;
                    };
                    // An operand already in the layout needs nothing.
                    let operand = ir::operand(def, i);
                    if tensor_encoding(ir::value_type(operand)).map(key) == Some(key(src)) {
                        continue;
                    }
                    enqueue(&mut queue, (def, i), src);
                }
                continue;
            }
            let owner = ir::block_parent_op(ir::value_block(current));
            if let Some(f) = owner.filter(|o| ir::is(*o, "scf.for")) {
                let n = ir::arg_number(current);
                if n == 0 {
                    return false;
                }
                let body = ir::value_block(current);
                let y = ir::terminator(body).expect("yield");
                enqueue(&mut queue, (f, n - 1 + 3), enc);
                enqueue(&mut queue, (y, n - 1), enc);
                continue;
            }
            return false;
        }
        true
    }

    fn rematerializable_slice(
        &self,
        cx: &mut Cx,
        root: (MlirOperation, usize),
        enc: MlirAttribute,
        slice: &mut Slice,
        stop: &dyn Fn(MlirOperation) -> bool,
    ) -> bool {
        // `getRematerializableSlice`: on a copy, kept only on success.
        let mut extended = slice.clone();
        if !self.backward_slice(cx, root, enc, &mut extended, stop) || extended.values.is_empty() {
            return false;
        }
        let remat = extended
            .values
            .iter()
            .all(|v| ir::defining_op(v.0).is_none_or(|op| can_be_remat(cx, op)));
        if remat {
            *slice = extended;
        }
        remat
    }

    fn backward(&mut self, cx: &mut Cx, cvt: MlirOperation) -> Result<(), String> {
        let target = tensor_encoding(ir::value_type(ir::result(cvt, 0))).ok_or("convert result")?;
        if is_dot_operand(target) {
            return Ok(());
        }
        let src = ir::operand(cvt, 0);
        if let Some(new) = self
            .get(src, target)
            .filter(|n| properly_dominates(*n, cvt))
        {
            ir::replace_all_uses(ir::result(cvt, 0), new);
            self.delete(cvt);
            return Ok(());
        }
        let mut slice = Slice::default();
        if !self.rematerializable_slice(cx, (cvt, 0), target, &mut slice, &|_| false) {
            return Ok(());
        }
        if !is_remat_beneficial(cvt, &slice, 0) {
            return Ok(());
        }
        self.rewrite_slice(cx, slice, cvt, ir::ValueMap::new())
    }

    /// `rewriteSlice`: clones the slice in its target layouts; a slice
    /// through `scf.for` iter args or `scf.if` results rebuilds the loop or
    /// the `if` with extra iter args / results carrying the new layouts.
    fn rewrite_slice(
        &mut self,
        _cx: &mut Cx,
        mut slice: Slice,
        cvt: MlirOperation,
        mut mapping: ir::ValueMap,
    ) -> Result<(), String> {
        let mut ops: Vec<MlirOperation> = Vec::new();
        let mut yield_operands: HashMap<usize, Vec<usize>> = HashMap::new();
        let push = |ops: &mut Vec<MlirOperation>, op: MlirOperation| {
            if !ops.iter().any(|o| o.ptr == op.ptr) {
                ops.push(op);
            }
        };
        let mut existing = HashSet::new();
        for v in slice.values.clone() {
            let enc = slice.layout[&v];
            if let Some(r) = self.get(v.0, enc) {
                mapping.insert(v, Val(r));
                existing.insert(v);
                continue;
            }
            match ir::defining_op(v.0) {
                Some(def) if ir::is(def, "scf.for") => return Err(unsupported(def)),
                Some(def) => {
                    push(&mut ops, def);
                    if ir::is(def, "scf.if") {
                        let i = ir::result_number(v.0);
                        for region in ir::regions(def) {
                            let block = ir::blocks(region)[0];
                            let y = ir::terminator(block).ok_or("scf.if yield")?;
                            push(&mut ops, y);
                            yield_operands.entry(y.ptr as usize).or_default().push(i);
                        }
                    }
                }
                None => {
                    let block = ir::value_block(v.0);
                    let owner = ir::block_parent_op(block).ok_or("block owner")?;
                    if !ir::is(owner, "scf.for") {
                        return Err(unsupported(owner));
                    }
                    push(&mut ops, owner);
                    let y = ir::terminator(block).ok_or("scf.for yield")?;
                    yield_operands
                        .entry(y.ptr as usize)
                        .or_default()
                        .push(ir::arg_number(v.0) - 1);
                    push(&mut ops, y);
                }
            }
        }
        slice.values.retain(|v| !existing.contains(v));
        let in_slice: HashSet<Val> = slice.values.iter().copied().collect();
        // Pre-order program order is a topological order here: a loop comes
        // before its body, whose yield comes last.
        let position = program_positions(cvt);
        ops.sort_by_key(|o| {
            position
                .get(&(o.ptr as usize))
                .copied()
                .unwrap_or(usize::MAX)
        });
        let mut replacements: Vec<(MlirValue, MlirValue)> = Vec::new();
        let mut dead: Vec<MlirOperation> = Vec::new();
        if std::env::var("TT_DEBUG_RLC").is_ok() {
            eprintln!(
                "rewrite_slice ops: {:?}",
                ops.iter().map(|o| ir::name(*o)).collect::<Vec<_>>()
            );
        }
        for op in ops {
            if ir::is(op, "scf.for") {
                let inits = scf::init_args(op);
                let args = scf::region_iter_args(op);
                let mut arg_mapping = Vec::new();
                let mut new_operands = Vec::new();
                for (i, arg) in args.iter().enumerate() {
                    if in_slice.contains(&Val(*arg)) {
                        arg_mapping.push((i, inits.len() + new_operands.len()));
                        let init = mapping
                            .get(&Val(inits[i]))
                            .ok_or("loop init not rematerialized")?;
                        new_operands.push(init.0);
                    }
                }
                let new_for =
                    scf::replace_for_with_new_signature(op, &new_operands, &mut replacements);
                dead.push(op);
                let body = scf::body(new_for);
                for (old_i, new_i) in arg_mapping {
                    let old_arg = ir::block_args(body)[old_i + 1];
                    let new_arg = ir::block_args(body)[new_i + 1];
                    let enc = slice.layout[&Val(old_arg)];
                    mapping.insert(Val(ir::result(op, old_i)), Val(ir::result(new_for, new_i)));
                    mapping.insert(Val(old_arg), Val(new_arg));
                    self.add(ir::result(new_for, old_i), enc, ir::result(new_for, new_i));
                    self.add(old_arg, enc, new_arg);
                }
                continue;
            }
            if ir::is(op, "scf.if") {
                let mut new_types = Vec::new();
                for r in ir::results(op) {
                    if let Some(&enc) = slice
                        .layout
                        .get(&Val(r))
                        .filter(|_| in_slice.contains(&Val(r)))
                    {
                        new_types
                            .push(ir::with_encoding(ir::value_type(r), enc).ok_or("if result")?);
                    }
                }
                let new_if = scf::replace_if_with_new_signature(op, &new_types, &mut replacements);
                let mut new_i = ir::result_count(op);
                for r in ir::results(op) {
                    if in_slice.contains(&Val(r)) {
                        let enc = slice.layout[&Val(r)];
                        mapping.insert(Val(r), Val(ir::result(new_if, new_i)));
                        self.add(r, enc, ir::result(new_if, new_i));
                        new_i += 1;
                    }
                }
                dead.push(op);
                continue;
            }
            if ir::is(op, "scf.yield") {
                let mut operands = ir::operands(op);
                let mut indices = yield_operands
                    .remove(&(op.ptr as usize))
                    .unwrap_or_default();
                indices.sort_unstable();
                for i in indices {
                    let old = ir::operand(op, i);
                    let new = mapping
                        .get(&Val(old))
                        .ok_or("yielded value not rematerialized")?;
                    operands.push(new.0);
                }
                let y = ir::create_op(
                    "scf.yield",
                    ir::location(op),
                    &operands,
                    &[],
                    &[],
                    Vec::new(),
                );
                ir::insert_before(op, y);
                ir::erase(op);
                continue;
            }
            if ir::is(op, "arith.constant") {
                let r = ir::result(op, 0);
                let enc = slice.layout[&Val(r)];
                let clone = unsafe { mlir_sys::mlirOperationClone(op) };
                ir::insert_before(op, clone);
                let ty = ir::with_encoding(ir::value_type(r), enc).ok_or("constant type")?;
                let c = create_convert(ir::location(op), ir::result(clone, 0), ty);
                ir::insert_before(op, c);
                mapping.insert(Val(r), Val(ir::result(c, 0)));
                self.add(r, enc, ir::result(c, 0));
                continue;
            }
            // A convert whose (rematerialized) source is already in the
            // layout the slice wants is not cloned: its result becomes that
            // source, as in Triton, so a later slice reaching it sees the
            // source and the conversions already made of it.
            if ir::is(op, "ttg.convert_layout") {
                let old = ir::result(op, 0);
                let operand = ir::operand(op, 0);
                let src = mapping.get(&Val(operand)).map_or(operand, |v| v.0);
                if let Some(&enc) = slice.layout.get(&Val(old)) {
                    if tensor_encoding(ir::value_type(src)).map(key) == Some(key(enc)) {
                        mapping.insert(Val(old), Val(src));
                        self.add(old, enc, src);
                        continue;
                    }
                }
            }
            let clone = ir::clone_mapped(op, &mut mapping);
            ir::insert_before(op, clone);
            for (old, new) in ir::results(op).into_iter().zip(ir::results(clone)) {
                let Some(&enc) = slice.layout.get(&Val(old)) else {
                    continue;
                };
                if let Some(ty) = ir::with_encoding(ir::value_type(old), enc) {
                    unsafe { mlir_sys::mlirValueSetType(new, ty) };
                }
                self.add(old, enc, new);
            }
        }
        let src = ir::operand(cvt, 0);
        let new = mapping
            .get(&Val(src))
            .ok_or("slice root not rematerialized")?
            .0;
        ir::replace_all_uses(ir::result(cvt, 0), new);
        self.delete(cvt);
        self.update_remat_mapping(&replacements);
        for (old, new) in &replacements {
            ir::replace_all_uses(*old, *new);
        }
        for op in dead {
            self.delete(op);
        }
        Ok(())
    }

    /// `updateRematMapping`: rematerializations of replaced values move to
    /// their replacements.
    fn update_remat_mapping(&mut self, replacements: &[(MlirValue, MlirValue)]) {
        for (old, new) in replacements {
            let keys: Vec<(Val, Enc)> = self
                .remat
                .keys()
                .filter(|(v, _)| v.0.ptr == old.ptr)
                .copied()
                .collect();
            for k in keys {
                let mut r = self.remat.remove(&k).expect("key");
                if let Some((_, after)) = replacements.iter().find(|(b, _)| b.ptr == r.ptr) {
                    r = *after;
                }
                self.remat.insert((Val(*new), k.1), r);
            }
        }
    }

    /// `hoistConvertDotOperand`: a conversion that a later MMA dot
    /// post-dominates moves up to the loads behind it, through ops that move
    /// no data between threads, so that the loads can be pipelined in the
    /// converted layout.
    fn hoist_dot_operand(&mut self, cx: &mut Cx, cvt: MlirOperation) -> Result<(), String> {
        let target = tensor_encoding(ir::value_type(ir::result(cvt, 0))).ok_or("convert result")?;
        if !feeds_a_later_mma_dot(cvt) {
            return Ok(());
        }
        let mut slice = Slice::default();
        if !self.backward_slice(cx, (cvt, 0), target, &mut slice, &|op| !moves_no_data(op)) {
            return Ok(());
        }
        // Leaves must be loads (converted right after them) or constants.
        let mut loads = Vec::new();
        let mut inner = Slice {
            values: Vec::new(),
            layout: slice.layout.clone(),
        };
        for v in &slice.values {
            let Some(def) = ir::defining_op(v.0) else {
                return Ok(());
            };
            if ir::is(def, "tt.load") || ir::is(def, "tt.descriptor_load") {
                loads.push(*v);
            } else if ir::is(def, "arith.constant") || moves_no_data(def) {
                inner.insert(v.0);
            } else {
                return Ok(());
            }
        }
        if inner.values.is_empty() {
            return Ok(());
        }
        let mut mapping = ir::ValueMap::new();
        for v in loads {
            let ty =
                ir::with_encoding(ir::value_type(v.0), slice.layout[&v]).ok_or("load result")?;
            let new_cvt = create_convert(ir::location(cvt), v.0, ty);
            insert_after_value(v.0, new_cvt);
            mapping.insert(v, Val(ir::result(new_cvt, 0)));
        }
        self.rewrite_slice(cx, inner, cvt, mapping)
    }

    /// `hoistConvertOnTopOfExtOrBroadcast`.
    /// `hoistConvertIntoConditionals`: where the backward slice of a
    /// conversion reaches an `scf.if` (inside a loop) whose result can be
    /// rematerialized along one branch but not the other, the conversion
    /// moves into the other branch (before its yield) and the slice is
    /// rewritten; an `if` neither branch can take is converted right after
    /// it instead.
    fn hoist_into_conditionals(&mut self, cx: &mut Cx, cvt: MlirOperation) -> Result<(), String> {
        let target = tensor_encoding(ir::value_type(ir::result(cvt, 0))).ok_or("convert result")?;
        let is_if = |op: MlirOperation| ir::is(op, "scf.if");
        let mut slice = Slice::default();
        if !self.rematerializable_slice(cx, (cvt, 0), target, &mut slice, &is_if) {
            return Ok(());
        }
        // The branch edges to convert above, and the if results to convert
        // after.
        let mut hoist_above: Vec<(MlirValue, (MlirOperation, usize))> = Vec::new();
        let mut terminals: Vec<MlirValue> = Vec::new();
        let mut i = 0;
        while i < slice.values.len() {
            let v = slice.values[i].0;
            i += 1;
            let Some(if_op) = ir::defining_op(v).filter(|d| ir::is(*d, "scf.if")) else {
                continue;
            };
            let yields = scf::if_yields(if_op).unwrap_or_default();
            let [then_yield, else_yield] = yields[..] else {
                terminals.push(v);
                continue;
            };
            let root = slice.layout[&Val(v)];
            let index = ir::result_number(v);
            let mut extended = slice.clone();
            let then_ok =
                self.rematerializable_slice(cx, (then_yield, index), root, &mut extended, &is_if);
            let else_ok =
                self.rematerializable_slice(cx, (else_yield, index), root, &mut extended, &is_if);
            if then_ok && else_ok {
                slice = extended;
                continue;
            }
            // Only inside a loop does an if run less often than the
            // conversion it would otherwise need.
            let in_loop = ir::parent_op(if_op).is_some_and(|p| ir::is(p, "scf.for"));
            if !(then_ok || else_ok) || !in_loop {
                terminals.push(v);
                continue;
            }
            slice = extended;
            let edge = if then_ok { else_yield } else { then_yield };
            hoist_above.push((v, (edge, index)));
        }
        if hoist_above.is_empty() {
            return Ok(());
        }
        let mut mapping = ir::ValueMap::new();
        let mut convert = |slice: &mut Slice,
                           v: MlirValue,
                           enc: MlirAttribute,
                           before: Option<MlirOperation>|
         -> Result<(), String> {
            let ty =
                ir::with_encoding(ir::value_type(v), enc).ok_or("a non-tensor in the slice")?;
            let new = create_convert(ir::location(cvt), v, ty);
            match before {
                Some(op) => ir::insert_before(op, new),
                None => ir::insert_after(
                    ir::defining_op(v).ok_or("an if result without its if")?,
                    new,
                ),
            }
            mapping.insert(Val(v), Val(ir::result(new, 0)));
            slice.values.retain(|x| x.0.ptr != v.ptr);
            Ok(())
        };
        for v in terminals {
            let enc = slice.layout[&Val(v)];
            convert(&mut slice, v, enc, None)?;
        }
        for (result, (edge, index)) in hoist_above {
            let enc = slice.layout[&Val(result)];
            convert(&mut slice, ir::operand(edge, index), enc, Some(edge))?;
        }
        self.rewrite_slice(cx, slice, cvt, mapping)
    }

    fn hoist_ext(&mut self, cx: &mut Cx, cvt: MlirOperation) -> Result<(), String> {
        let target = tensor_encoding(ir::value_type(ir::result(cvt, 0))).ok_or("convert result")?;
        if is_dot_operand(target) {
            return Ok(());
        }
        let is_ext = |op: MlirOperation| -> bool {
            match ir::name(op).as_str() {
                "arith.extsi" | "arith.extui" | "arith.extf" | "tt.broadcast"
                | "tt.expand_dims" => true,
                "tt.fp_to_fp" => {
                    let w = |t: MlirType| {
                        tt_dialect::types::TensorView::of(unsafe { Type::from_raw(t) }).and_then(
                            |v| {
                                ir::integer_width(v.element.to_raw())
                                    .or_else(|| float_width(v.element.to_raw()))
                            },
                        )
                    };
                    w(ir::value_type(ir::operand(op, 0))) < w(ir::value_type(ir::result(op, 0)))
                }
                _ => false,
            }
        };
        let mut slice = Slice::default();
        if !self.rematerializable_slice(cx, (cvt, 0), target, &mut slice, &is_ext) {
            return Ok(());
        }
        let mut ext: Option<MlirOperation> = None;
        let size = slice.values.len();
        for i in 0..size {
            let v = slice.values[i];
            let Some(op) = ir::defining_op(v.0) else {
                continue;
            };
            if !is_ext(op) {
                continue;
            }
            let Some(src) = infer_src(cx, op, slice.layout[&v]) else {
                return Ok(());
            };
            let mut temp = Slice::default();
            // The rest of the ext's slice joins unless it gives a value of
            // the slice another layout than the one it has there.
            let joins = self.rematerializable_slice(cx, (op, 0), src, &mut temp, &|_| false)
                && temp
                    .layout
                    .iter()
                    .all(|(k, e)| slice.layout.get(k).is_none_or(|had| key(*had) == key(*e)));
            if joins {
                for t in &temp.values {
                    slice.insert(t.0);
                }
                for (k, e) in temp.layout {
                    slice.layout.entry(k).or_insert(e);
                }
                continue;
            }
            if ext.is_some() {
                return Ok(());
            }
            ext = Some(op);
        }
        let Some(ext) = ext else { return Ok(()) };
        let dst = slice.layout[&Val(ir::result(ext, 0))];
        let Some(src_enc) = infer_src(cx, ext, dst) else {
            return Ok(());
        };
        let input = ir::operand(ext, 0);
        let in_ty = ir::with_encoding(ir::value_type(input), src_enc).ok_or("ext operand")?;
        let new_cvt = create_convert(ir::location(cvt), input, in_ty);
        ir::insert_before(ext, new_cvt);
        let clone = unsafe { mlir_sys::mlirOperationClone(ext) };
        ir::insert_before(ext, clone);
        ir::set_operand(clone, 0, ir::result(new_cvt, 0));
        let out_ty =
            ir::with_encoding(ir::value_type(ir::result(ext, 0)), dst).ok_or("ext result")?;
        unsafe { mlir_sys::mlirValueSetType(ir::result(clone, 0), out_ty) };
        let mut mapping = ir::ValueMap::new();
        mapping.insert(Val(ir::result(ext, 0)), Val(ir::result(clone, 0)));
        slice.values.retain(|v| v.0.ptr != ir::result(ext, 0).ptr);
        self.rewrite_slice(cx, slice, cvt, mapping)
    }
}

/// Whether `dot` post-dominates `op` in structured control flow: an
/// ancestor of `op` (or `op`) sits before `dot` in `dot`'s block.
fn post_dominates(dot: MlirOperation, op: MlirOperation) -> bool {
    let block = ir::op_block(dot);
    let mut anc = op;
    while ir::op_block(anc).ptr != block.ptr {
        match ir::parent_op(anc) {
            Some(parent) => anc = parent,
            None => return false,
        }
    }
    // SAFETY: both ops are live and in the same block.
    anc.ptr != dot.ptr && unsafe { mlir_sys::mlirOperationIsBeforeInBlock(anc, dot) }
}

/// The condition of Triton's `hoistConvertDotOperand`: an MMA dot (A in a
/// dot-operand layout of an MMA parent: `nvidia_mma`, `amd_mfma` or
/// `amd_wmma`) under the conversion's parent op post-dominates it.
fn feeds_a_later_mma_dot(cvt: MlirOperation) -> bool {
    let Some(parent) = ir::parent_op(cvt) else {
        return false;
    };
    let mut found = false;
    ir::walk_pre(parent, &mut |op| {
        if found || !crate::ttgir::pipelining::is_dot_like(op) || ir::operand_count(op) == 0 {
            return;
        }
        let mma_operand = tensor_encoding(ir::value_type(ir::operand(op, 0)))
            .and_then(layout_of)
            .is_some_and(|l| {
                matches!(
                    l,
                    ttg_dialect::layout::Layout::DotOperand { parent: Some(p), .. }
                        if p.is_mma()
                )
            });
        if mma_operand && post_dominates(op, cvt) {
            found = true;
        }
    });
    found
}

/// Ops that move no data between threads (`hoistConvertDotOperand`'s
/// `noDataMovement`): pure elementwise ops, broadcasts, conversions, fp4
/// upcasts and views.
fn moves_no_data(op: MlirOperation) -> bool {
    // SAFETY: `op` is a live op of the function being rewritten.
    let pure = tt_dialect::ir::is_memory_effect_free(unsafe { OperationRef::from_raw(op) });
    (elementwise(op) && pure)
        || [
            "tt.broadcast",
            "ttg.fp4_to_fp",
            "ttg.convert_layout",
            "ttg.upcast_mxfp",
            "tt.expand_dims",
            "tt.reshape",
            "tt.trans",
            "tt.join",
            "tt.split",
        ]
        .iter()
        .any(|n| ir::is(op, n))
}

fn float_width(ty: MlirType) -> Option<u32> {
    unsafe { mlir_sys::mlirTypeIsAFloat(ty) }
        .then(|| unsafe { mlir_sys::mlirFloatTypeGetWidth(ty) })
}

fn unsupported(op: MlirOperation) -> String {
    format!(
        "tritongpu-remove-layout-conversions: rematerializing a slice through '{}' results or arguments is not supported yet",
        ir::name(op)
    )
}

/// Pre-order positions of every op in the function containing `op`.
fn program_positions(op: MlirOperation) -> HashMap<usize, usize> {
    let mut f = op;
    while let Some(p) = ir::parent_op(f) {
        if ir::is(f, "tt.func") {
            break;
        }
        f = p;
    }
    let mut out = HashMap::new();
    ir::walk_pre(f, &mut |o| {
        let n = out.len();
        out.insert(o.ptr as usize, n);
    });
    out
}
