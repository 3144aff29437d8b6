//! `nvgpu-warp-specialization`: Triton 3.6's Hopper warp specialization of
//! loops marked `tt.warp_specialize` (`tl.range(..., warp_specialize=True)`),
//! which runs in `make_ttgir` for sm_80 to sm_90.
//!
//! Triton's pass looks at each function with a marked loop. It leaves the
//! function alone, marks and all, when the function's warp count is not 4
//! or when it has an `scf.if` with an else region (its code partitioner
//! cannot place values across two branches). Where it finds nothing to
//! partition (no warp-group dot, which is every function before sm_90, or
//! no load) it only sets `tt.num_stages = 0` on the function's loops, and
//! so does this one.
//!
//! Otherwise Triton splits the function into a producer warp group, which
//! issues the loads feeding the `ttng.warp_group_dot`, and two consumer
//! warp groups, which each run the dot and the epilogue on half of the
//! tile's rows. This pass does that split for the GEMM loops Triton's
//! tutorials and tests write (`split`):
//!
//! - the marked loop is the function's only loop (the K loop), or a
//!   persistent kernel's tile loop whose only nested loop is the K loop; the
//!   K loop's one iteration argument is the accumulator of one warp-group
//!   dot, starting from a splat constant used by nothing else;
//! - the dot's operands are `ttg.local_alloc`s of `tt.descriptor_load`s
//!   (B possibly through a `ttg.memdesc_trans`), A from a descriptor made in
//!   the kernel, with 128 or 256 rows over a `warpsPerCTA = [4, 1]`
//!   accumulator; the loop's other ops are scalar arithmetic;
//! - the ops before the loops are free of writes and regions (in the tile
//!   loop too); those after the K loop are element-wise ops, splats,
//!   broadcasts, `expand_dims`, ranges, constants, loads, and stores
//!   (`tt.store`, `tt.descriptor_store` to a descriptor made in the kernel)
//!   of the accumulator's rows.
//!
//! The split, as Triton's makes it: A's tile is loaded in two halves, one
//! per consumer, and B's whole; each load goes through a ring of
//! `num_stages` shared-memory buffers with a "full" mbarrier per buffer
//! (the TMA copy's bytes) and an "empty" one (one arrival per consumer
//! reading it). The producer (the default region) waits for a buffer to be
//! empty, expects its bytes and issues the TMA copy; each consumer
//! (`partition0`, `partition1`, 4 warps each, `requestedRegisters` 232)
//! waits for its buffers to be full, runs the dot synchronously on its half
//! of the rows and arrives on their empty barriers, then runs the epilogue
//! on its rows: ranges start at its first row, stores through a descriptor
//! use a descriptor of half the rows at its row offset. The ops before the
//! loop are recomputed in each region that needs them; function arguments,
//! buffers and barriers are the captures. In a persistent kernel each
//! region has its own tile loop, which carries the ring counter from tile
//! to tile, and the consumers' epilogue runs in it, once per tile. Every
//! loop of the function gets `tt.num_stages = 0`. The IR differs from
//! Triton's in naming and order (Triton also allocates barriers it does not
//! use), not in what runs.
//!
//! Anything else with loads feeding a warp-group dot (deeper loop nests,
//! pointer loads, a loop carrying more than the accumulator, an
//! epilogue with reductions or reshapes, descriptors passed in from the
//! host for the halved loads and stores) is refused with a located error
//! that says what; without `warp_specialize=True` such a loop compiles,
//! software-pipelined.

use std::collections::HashMap;

use melior::ir::{attribute::AttributeLike, operation::OperationRef, r#type::TypeLike, Type};
use mlir_sys::{MlirAttribute, MlirBlock, MlirLocation, MlirOperation, MlirType, MlirValue};
use tt_dialect::types::Tensor;
use ttg_dialect::layout::{Layout, MemDesc};

use crate::options::PassOptions;
use crate::rust_pass::{fail, Failure, PassResult, RustPass};
use crate::ttgir::pipeline_lower::{buffer_view, init_barriers};
use crate::ttir::loop_support::effects;
use crate::ttir::loop_support::ir::{self, Op, Val, ValueMap};
use crate::ttir::loop_support::scf;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "NVGPUWarpSpecialization",
    argument: "nvgpu-warp-specialization",
    description: "Hopper warp specialization of loops marked tt.warp_specialize: a TMA producer warp group and two consumer warp groups for a GEMM loop; other loops' pipelining turned off as Triton does",
    anchor: "builtin.module",
    run,
};

/// The consumer warp groups, each with its half of the tile's rows.
const CONSUMERS: usize = 2;
/// The registers Triton's pass requests for each consumer warp group.
const CONSUMER_REGISTERS: i32 = 232;

/// `nvgpu-warp-specialization{num-stages=0 dump-intermediate-steps=false}`:
/// `num-stages` sizes the buffer rings of a loop without `tt.num_stages`.
pub fn factory(options: &PassOptions) -> Result<melior::pass::Pass, String> {
    let stages = options.int("num-stages", 0)?;
    options.flag("dump-intermediate-steps", false)?;
    Ok(PASS.build_with(move |op| run_with(op, stages)))
}

fn run(module: OperationRef) -> PassResult {
    run_with(module, 0)
}

fn run_with(module: OperationRef, stages: i64) -> PassResult {
    for func in ir::collect_post(module.to_raw(), &|op| ir::is(op, "tt.func")) {
        specialize(func, stages)?;
    }
    Ok(())
}

/// The ops under `root` (itself excluded) that `keep` accepts, in program
/// order.
fn ops_where(root: MlirOperation, keep: impl Fn(MlirOperation) -> bool) -> Vec<MlirOperation> {
    let mut found = Vec::new();
    ir::walk_pre(root, &mut |op| {
        if op.ptr != root.ptr && keep(op) {
            found.push(op);
        }
    });
    found
}

fn specialize(func: MlirOperation, stages: i64) -> PassResult {
    let loops = ops_where(func, |op| ir::is(op, "scf.for"));
    let Some(&marked) = loops
        .iter()
        .find(|&&l| ir::attribute(l, "tt.warp_specialize").is_some())
    else {
        return Ok(());
    };
    if ir::lookup_num_warps(func) != Some(4) {
        return Ok(());
    }
    let has = |keep: &dyn Fn(MlirOperation) -> bool| !ops_where(func, keep).is_empty();
    if has(&|op| {
        ir::is(op, "scf.if")
            && ir::regions(op)
                .get(1)
                .is_some_and(|r| !ir::blocks(*r).is_empty())
    }) {
        return Ok(());
    }
    if has(&|op| ir::is(op, "ttng.warp_group_dot"))
        && has(&|op| ir::is(op, "tt.load") || ir::is(op, "tt.descriptor_load"))
    {
        let plan = Plan::of(func, marked, stages)?;
        split(&plan);
    }
    let zero = ir::integer_attr(ir::i32_type(ir::context(func)), 0);
    for l in ops_where(func, |op| ir::is(op, "scf.for")) {
        ir::set_attribute(l, "tt.num_stages", zero);
    }
    Ok(())
}

/// The located refusal of a function this pass cannot split yet.
fn refuse(op: MlirOperation, what: &str) -> Failure {
    // SAFETY: `op` is a live op of the module the pass runs on.
    fail(
        unsafe { OperationRef::from_raw(op) },
        &format!(
            "'nvgpu-warp-specialization' does not support {what} yet (without \
             `warp_specialize=True` on its `tl.range` the loop compiles, software-pipelined)"
        ),
    )
}

fn tensor(ty: MlirType) -> Option<Tensor<'static>> {
    // SAFETY: a live type.
    Tensor::of(unsafe { Type::from_raw(ty) })
}

fn memdesc(ty: MlirType) -> Option<MemDesc<'static>> {
    // SAFETY: a live type.
    MemDesc::of(unsafe { Type::from_raw(ty) })
}

/// `ty` (a ranked tensor) with `dim` cut to one consumer's share.
fn halved(ty: MlirType, dim: usize) -> MlirType {
    let t = tensor(ty).expect("split values are tensors");
    let mut shape = t.shape.clone();
    shape[dim] /= CONSUMERS as i64;
    let encoding = t.encoding.map_or(
        MlirAttribute {
            ptr: std::ptr::null(),
        },
        |e| e.to_raw(),
    );
    // SAFETY: a live element type and encoding; the shape is read during
    // the call only.
    unsafe {
        mlir_sys::mlirRankedTensorTypeGet(
            shape.len() as isize,
            shape.as_ptr(),
            t.element.to_raw(),
            encoding,
        )
    }
}

/// Whether `ty` is a tensor or a memory descriptor.
fn is_tile(ty: MlirType) -> bool {
    tensor(ty).is_some() || memdesc(ty).is_some()
}

/// The single user of `value`, if it has exactly one.
fn single_user(value: MlirValue) -> Option<MlirOperation> {
    match ir::uses(value)[..] {
        [(user, _)] => Some(user),
        _ => None,
    }
}

/// One of the loop's descriptor loads and the `ttg.local_alloc` that
/// stores its tile for the dot.
struct Load {
    load: MlirOperation,
    alloc: MlirOperation,
    /// A's load, split between the consumers along its rows; B's is read
    /// whole by both.
    split: bool,
}

/// What the split needs to know of a function, checked before anything
/// changes.
struct Plan {
    /// A persistent kernel's tile loop (the marked one) around `for_op`.
    outer: Option<MlirOperation>,
    /// The loop of the dot.
    for_op: MlirOperation,
    dot: MlirOperation,
    /// B's `ttg.memdesc_trans`, when the dot reads B transposed.
    b_trans: Option<MlirOperation>,
    /// The loads in program order.
    loads: Vec<Load>,
    /// The ops of the function before the loops: recomputed where needed.
    prologue: Vec<Op>,
    /// The ops of a persistent kernel's tile loop before the K loop:
    /// recomputed where needed, in each region's tile loop.
    tile_ops: Vec<Op>,
    /// The ops after the K loop (before `tt.return`, or in the tile loop).
    epilogue: Vec<MlirOperation>,
    /// The dimension along which each epilogue tensor (and the loop's
    /// result) is split between the consumers; tensors not here are
    /// computed whole by each consumer.
    splits: HashMap<Val, usize>,
    /// The accumulator's rows.
    rows: i64,
    /// Buffers in each load's ring.
    buffers: i64,
}

impl Plan {
    fn of(func: MlirOperation, marked: MlirOperation, stages: i64) -> Result<Self, Failure> {
        if ir::parent_op(marked).map(|p| p.ptr) != Some(func.ptr) {
            return Err(refuse(
                marked,
                "a loop marked 'tt.warp_specialize' inside another op",
            ));
        }
        // The marked loop is the K loop, or a persistent kernel's tile loop
        // around it (its only nested loop).
        let loops = ops_where(func, |op| ir::is(op, "scf.for"));
        let (outer, for_op) = match loops[..] {
            [only] => (None, only),
            [tiles, k]
                if tiles.ptr == marked.ptr
                    && ir::parent_op(k).is_some_and(|p| p.ptr == tiles.ptr)
                    && scf::init_args(tiles).is_empty() =>
            {
                (Some(tiles), k)
            }
            _ => {
                return Err(refuse(
                    marked,
                    "a function with loops besides the one marked 'tt.warp_specialize' (and, \
                     in a persistent kernel, the K loop inside it)",
                ))
            }
        };
        let body = scf::body(for_op);
        let inits = scf::init_args(for_op);
        let yielded = scf::yielded_values(for_op);
        let acc = match (&inits[..], &yielded[..]) {
            ([_], [acc]) => *acc,
            _ => {
                return Err(refuse(
                    for_op,
                    "a warp-specialized loop that carries more than a dot's accumulator",
                ))
            }
        };
        let dot = ir::defining_op(acc)
            .filter(|&d| ir::is(d, "ttng.warp_group_dot") && ir::op_block(d).ptr == body.ptr)
            .ok_or_else(|| {
                refuse(
                    for_op,
                    "a warp-specialized loop that does not yield a warp-group dot",
                )
            })?;
        let iter_arg = scf::region_iter_args(for_op)[0];
        if ir::operand_count(dot) != 3
            || !ir::same_value(ir::operand(dot, 2), iter_arg)
            || single_user(acc).is_none()
            || single_user(iter_arg).is_none()
        {
            return Err(refuse(
                dot,
                "a warp-group dot whose accumulator is used besides the loop's iterations",
            ));
        }
        if !is_splat_constant(inits[0]) || single_user(inits[0]).is_none() {
            return Err(refuse(
                for_op,
                "a dot accumulator that does not start from a splat constant",
            ));
        }
        let acc_type = tensor(ir::value_type(acc)).expect("a dot gives a tensor");
        let rows = acc_type.shape[0];
        let four_by_one = acc_type.encoding.and_then(Layout::read).is_some_and(|l| {
            matches!(l, Layout::NvidiaMma { version_major: 3, ref warps_per_cta, .. }
                if warps_per_cta[..] == [4, 1])
        });
        if !four_by_one || rows % (64 * CONSUMERS as i64) != 0 || acc_type.shape.len() != 2 {
            return Err(refuse(
                dot,
                "a warp-group dot other than a 2-D one of 128 or 256 rows over warpsPerCTA = [4, 1]",
            ));
        }
        let (a_load, a_alloc) = tile_source(ir::operand(dot, 0), body, false)
            .ok_or_else(|| refuse(dot, "a dot operand A other than a stored descriptor load"))?;
        let b_operand = ir::operand(dot, 1);
        let b_trans = ir::defining_op(b_operand).filter(|&t| ir::is(t, "ttg.memdesc_trans"));
        let (b_load, b_alloc) = tile_source(b_operand, body, true)
            .ok_or_else(|| refuse(dot, "a dot operand B other than a stored descriptor load"))?;
        let outermost = outer.unwrap_or(for_op);
        let entry = ir::op_block(outermost);
        let before_loop =
            |op: MlirOperation| ir::op_block(op).ptr == entry.ptr && ir::is_before(op, outermost);
        let made_here = |load: MlirOperation| {
            ir::defining_op(ir::operand(load, 0))
                .is_some_and(|d| ir::is(d, "tt.make_tensor_descriptor") && before_loop(d))
        };
        if !made_here(a_load) || !rows_first(ir::operand(a_load, 0), rows) {
            return Err(refuse(
                a_load,
                "splitting a load through a descriptor made outside the kernel, or of other \
                 than 2-D blocks of the accumulator's rows",
            ));
        }
        let mut loads = vec![
            Load {
                load: a_load,
                alloc: a_alloc,
                split: true,
            },
            Load {
                load: b_load,
                alloc: b_alloc,
                split: false,
            },
        ];
        loads.sort_by(|x, y| {
            if ir::is_before(x.load, y.load) {
                std::cmp::Ordering::Less
            } else {
                std::cmp::Ordering::Greater
            }
        });
        let known: Vec<MlirOperation> = [a_load, a_alloc, b_load, b_alloc, dot]
            .into_iter()
            .chain(b_trans)
            .collect();
        for op in ir::block_ops(body) {
            if ir::is_terminator(op) || known.iter().any(|k| k.ptr == op.ptr) {
                continue;
            }
            let scalar = ir::region_count(op) == 0
                && effects::is_memory_effect_free(op)
                && ir::results(op).iter().all(|&r| !is_tile(ir::value_type(r)));
            if !scalar {
                return Err(refuse(
                    op,
                    "an op in a warp-specialized loop other than scalar arithmetic, the dot and \
                     the descriptor loads feeding it",
                ));
            }
        }
        let init_op = ir::defining_op(inits[0]);
        // Ops before a loop are recomputed where needed: no regions, no
        // writes, no tensors but the accumulator's zeros.
        let recomputable = |op: MlirOperation| -> Result<(), Failure> {
            if ir::region_count(op) != 0 || effects::may_write(op) {
                return Err(refuse(
                    op,
                    "an op with regions or writes before a warp-specialized loop",
                ));
            }
            let init = init_op.is_some_and(|d| d.ptr == op.ptr);
            if !init && ir::results(op).iter().any(|&r| is_tile(ir::value_type(r))) {
                return Err(refuse(
                    op,
                    "tensors computed before a warp-specialized loop",
                ));
            }
            Ok(())
        };
        let mut prologue = Vec::new();
        let mut epilogue = Vec::new();
        let mut after = false;
        for op in ir::block_ops(entry) {
            if op.ptr == outermost.ptr {
                after = true;
            } else if !after {
                recomputable(op)?;
                prologue.push(Op(op));
            } else if ir::is(op, "tt.return") {
                if ir::operand_count(op) != 0 {
                    return Err(refuse(
                        op,
                        "a warp-specialized function that returns values",
                    ));
                }
            } else if outer.is_some() {
                return Err(refuse(op, "an op after a persistent warp-specialized loop"));
            } else {
                epilogue.push(op);
            }
        }
        // A persistent kernel's tile loop: its ops before the K loop are
        // recomputed per tile, those after it are the epilogue.
        let mut tile_ops = Vec::new();
        if let Some(tiles) = outer {
            let mut after = false;
            for op in ir::block_ops(scf::body(tiles)) {
                if op.ptr == for_op.ptr {
                    after = true;
                } else if ir::is_terminator(op) {
                } else if !after {
                    recomputable(op)?;
                    tile_ops.push(Op(op));
                } else {
                    epilogue.push(op);
                }
            }
        }
        let splits = epilogue_splits(&epilogue, ir::result(for_op, 0), rows)?;
        for &op in &epilogue {
            if !effects::may_write(op) {
                continue;
            }
            let (stored, desc) = match ir::name(op).as_str() {
                "tt.store" => (ir::operand(op, 1), None),
                "tt.descriptor_store" => (ir::operand(op, 1), Some(ir::operand(op, 0))),
                _ => {
                    return Err(refuse(
                        op,
                        "this op in the epilogue of a warp-specialized loop",
                    ))
                }
            };
            if !splits.contains_key(&Val(stored)) {
                return Err(refuse(
                    op,
                    "a store after a warp-specialized loop of values not split with the accumulator",
                ));
            }
            if desc.is_some() && splits.get(&Val(stored)) != Some(&0) {
                return Err(refuse(
                    op,
                    "a descriptor store split along other than its first dimension",
                ));
            }
            // A descriptor is checked as the one a load is split through.
            let made = desc.is_none_or(|desc| {
                rows_first(desc, rows)
                    && ir::defining_op(desc)
                        .is_some_and(|d| ir::is(d, "tt.make_tensor_descriptor") && before_loop(d))
            });
            if !made {
                return Err(refuse(
                    op,
                    "splitting a store through a descriptor made outside the kernel, or of \
                     other than 2-D blocks of the accumulator's rows",
                ));
            }
        }
        let stages =
            crate::ttgir::pipelining::int_attribute(for_op, "tt.num_stages").unwrap_or(stages);
        Ok(Self {
            outer,
            for_op,
            dot,
            b_trans,
            loads,
            prologue,
            tile_ops,
            epilogue,
            splits,
            rows,
            buffers: stages.max(1),
        })
    }

    /// Whether `op` is recomputed where needed (before the loops, or in
    /// the tile loop before the K loop).
    fn is_prologue(&self, op: MlirOperation) -> bool {
        self.prologue.contains(&Op(op)) || self.tile_ops.contains(&Op(op))
    }
}

/// Whether the descriptor `desc` moves 2-D blocks of `rows` rows.
fn rows_first(desc: MlirValue, rows: i64) -> bool {
    // SAFETY: a live value's type.
    let block =
        tt_dialect::types::tensor_desc_block(unsafe { Type::from_raw(ir::value_type(desc)) });
    block
        .and_then(Tensor::of)
        .is_some_and(|b| b.shape.len() == 2 && b.shape[0] == rows)
}

/// Whether `value` is an `arith.constant` of a splat tensor.
fn is_splat_constant(value: MlirValue) -> bool {
    ir::defining_op(value)
        .filter(|&d| ir::is(d, "arith.constant"))
        .and_then(|d| ir::attribute(d, "value"))
        // SAFETY: a live attribute, read as dense elements only when it is.
        .is_some_and(|a| unsafe {
            mlir_sys::mlirAttributeIsADenseElements(a) && mlir_sys::mlirDenseElementsAttrIsSplat(a)
        })
}

/// The descriptor load and `ttg.local_alloc` (both in `body`, each used
/// once) behind a dot operand, looking through one `ttg.memdesc_trans`
/// where `transposable`.
fn tile_source(
    operand: MlirValue,
    body: MlirBlock,
    transposable: bool,
) -> Option<(MlirOperation, MlirOperation)> {
    let mut def = ir::defining_op(operand)?;
    if transposable && ir::is(def, "ttg.memdesc_trans") {
        single_user(operand)?;
        def = ir::defining_op(ir::operand(def, 0))?;
    }
    let alloc = def;
    if !ir::is(alloc, "ttg.local_alloc")
        || ir::operand_count(alloc) != 1
        || ir::op_block(alloc).ptr != body.ptr
    {
        return None;
    }
    single_user(ir::result(alloc, 0))?;
    let load = ir::defining_op(ir::operand(alloc, 0))
        .filter(|&l| ir::is(l, "tt.descriptor_load") && ir::op_block(l).ptr == body.ptr)?;
    single_user(ir::result(load, 0))?;
    Some((load, alloc))
}

/// Ops of an epilogue that work element by element: every tensor operand
/// and result has the same shape and splits the same way.
fn is_elementwise(name: &str) -> bool {
    name.starts_with("arith.")
        || name.starts_with("math.")
        || matches!(
            name,
            "tt.addptr"
                | "tt.load"
                | "tt.store"
                | "ttg.convert_layout"
                | "tt.fp_to_fp"
                | "tt.bitcast"
                | "tt.int_to_ptr"
                | "tt.ptr_to_int"
                | "tt.clampf"
                | "tt.precise_sqrt"
                | "tt.precise_divf"
                | "tt.mulhiui"
                | "tt.extern_elementwise"
        )
}

/// Records that `v` (an operand or result of `op`) splits along `d`.
fn assign(
    splits: &mut HashMap<Val, usize>,
    changed: &mut bool,
    op: MlirOperation,
    v: MlirValue,
    d: usize,
) -> Result<(), Failure> {
    match splits.get(&Val(v)) {
        Some(&old) if old == d => Ok(()),
        Some(_) => Err(refuse(
            op,
            "an epilogue that splits one tensor along two dimensions",
        )),
        None => {
            splits.insert(Val(v), d);
            *changed = true;
            Ok(())
        }
    }
}

/// Which dimension of each epilogue tensor follows the accumulator's rows
/// (`result`, split along dimension 0): Triton's data partition, for the
/// ops an epilogue of a GEMM has. A tensor that no split reaches is
/// computed whole by each consumer.
fn epilogue_splits(
    epilogue: &[MlirOperation],
    result: MlirValue,
    rows: i64,
) -> Result<HashMap<Val, usize>, Failure> {
    let mut splits: HashMap<Val, usize> = HashMap::from([(Val(result), 0)]);
    let tensors = |values: Vec<MlirValue>| -> Vec<MlirValue> {
        values
            .into_iter()
            .filter(|&v| tensor(ir::value_type(v)).is_some())
            .collect()
    };
    loop {
        let mut changed = false;
        for &op in epilogue {
            let name = ir::name(op);
            let mut set = |splits: &mut HashMap<Val, usize>, v: MlirValue, d: usize| {
                assign(splits, &mut changed, op, v, d)
            };
            let values = tensors(
                ir::operands(op)
                    .into_iter()
                    .chain(ir::results(op))
                    .collect(),
            );
            if values.is_empty() && ir::region_count(op) == 0 {
                continue;
            }
            match name.as_str() {
                n if is_elementwise(n) => {
                    let found = values.iter().find_map(|v| splits.get(&Val(*v)).copied());
                    if let Some(d) = found {
                        for &v in &values {
                            set(&mut splits, v, d)?;
                        }
                    }
                }
                "tt.broadcast" => {
                    let (x, r) = (ir::operand(op, 0), ir::result(op, 0));
                    let x_shape = tensor(ir::value_type(x))
                        .map(|t| t.shape)
                        .unwrap_or_default();
                    if let Some(&d) = splits.get(&Val(r)) {
                        if x_shape.get(d).is_some_and(|&n| n != 1) {
                            set(&mut splits, x, d)?;
                        }
                    }
                    if let Some(&d) = splits.get(&Val(x)) {
                        set(&mut splits, r, d)?;
                    }
                }
                "tt.expand_dims" => {
                    let (x, r) = (ir::operand(op, 0), ir::result(op, 0));
                    let axis = ir::attribute(op, "axis")
                        .and_then(ir::integer_attr_value)
                        .unwrap_or(0) as usize;
                    if let Some(&d) = splits.get(&Val(r)) {
                        if d == axis {
                            return Err(refuse(op, "an epilogue that splits a new dimension"));
                        }
                        set(&mut splits, x, if d > axis { d - 1 } else { d })?;
                    }
                    if let Some(&d) = splits.get(&Val(x)) {
                        set(&mut splits, r, if d >= axis { d + 1 } else { d })?;
                    }
                }
                "tt.splat" | "tt.make_range" | "arith.constant" | "tt.descriptor_store" => {}
                _ => {
                    return Err(refuse(
                        op,
                        "this op in the epilogue of a warp-specialized loop",
                    ))
                }
            }
        }
        if !changed {
            break;
        }
    }
    for &op in epilogue {
        for r in ir::results(op) {
            if let Some(&d) = splits.get(&Val(r)) {
                let t = tensor(ir::value_type(r)).expect("split values are tensors");
                let constant_ok = !ir::is(op, "arith.constant") || is_splat_constant(r);
                if t.shape.get(d) != Some(&rows) || !constant_ok {
                    return Err(refuse(
                        op,
                        "an epilogue tensor that does not split with the accumulator's rows",
                    ));
                }
            }
        }
    }
    Ok(splits)
}

/// One shared-memory ring the producer fills and consumers read: a load's
/// tile, or (for the split load) one consumer's half of it.
struct Ring {
    /// Index into [`Plan::loads`].
    load: usize,
    /// The consumer that reads it, or `None` for all of them.
    consumer: Option<usize>,
    buffers: MlirValue,
    full: MlirValue,
    empty: MlirValue,
    /// The bytes of one buffer.
    bytes: i64,
}

impl Ring {
    fn read_by(&self, consumer: usize) -> bool {
        self.consumer.is_none_or(|c| c == consumer)
    }
}

/// The captures of the partitions: the values each partition block takes
/// as arguments, in order, and the blocks that take them.
struct Captures {
    values: Vec<MlirValue>,
    blocks: Vec<MlirBlock>,
}

impl Captures {
    /// `block`'s argument for the outside `value`, added (to every
    /// partition) when it is new.
    fn argument(&mut self, value: MlirValue, block: MlirBlock) -> MlirValue {
        let index = match self.values.iter().position(|v| ir::same_value(*v, value)) {
            Some(i) => i,
            None => {
                self.values.push(value);
                for &b in &self.blocks {
                    // SAFETY: live blocks of the new op; the type and
                    // location are the value's.
                    unsafe {
                        mlir_sys::mlirBlockAddArgument(
                            b,
                            ir::value_type(value),
                            ir::value_location(value),
                        );
                    }
                }
                self.values.len() - 1
            }
        };
        ir::block_args(block)[index]
    }
}

/// Builds one region of the split: new ops go before `anchor`, reading
/// the function's values through `map`.
struct Emitter<'p> {
    plan: &'p Plan,
    anchor: MlirOperation,
    loc: MlirLocation,
    map: ValueMap,
    /// A partition's block (isolated from above: outside values are
    /// captures); `None` for the default region.
    block: Option<MlirBlock>,
    /// Descriptors with a consumer's share of the rows, by original.
    halves: HashMap<Val, MlirValue>,
}

impl Emitter<'_> {
    /// `value` in this region: recomputed when an op before the loop makes
    /// it, captured (in a partition) when it comes from outside.
    fn need(&mut self, caps: &mut Captures, value: MlirValue) -> MlirValue {
        if let Some(v) = self.map.get(&Val(value)) {
            return v.0;
        }
        if let Some(def) = ir::defining_op(value).filter(|&d| self.plan.is_prologue(d)) {
            for operand in ir::operands(def) {
                self.need(caps, operand);
            }
            let clone = ir::clone_mapped(def, &mut self.map);
            ir::insert_before(self.anchor, clone);
            return ir::lookup_or_self(&self.map, value);
        }
        match self.block {
            Some(block) => {
                let arg = caps.argument(value, block);
                self.map.insert(Val(value), Val(arg));
                arg
            }
            None => value,
        }
    }

    /// The descriptor `desc` (made before the loop) remade with a consumer's
    /// share of its block's rows.
    fn half_descriptor(&mut self, caps: &mut Captures, desc: MlirValue) -> MlirValue {
        if let Some(h) = self.halves.get(&Val(desc)) {
            return *h;
        }
        let def = ir::defining_op(desc).expect("the plan checked the descriptor's maker");
        for operand in ir::operands(def) {
            self.need(caps, operand);
        }
        let mut map = self.map.clone();
        let clone = ir::clone_mapped(def, &mut map);
        ir::insert_before(self.anchor, clone);
        // SAFETY: a live descriptor type; the new block type is a live
        // ranked tensor type.
        let ty = unsafe {
            let block = tt_dialect::ffi::ttTensorDescTypeGetBlockType(ir::value_type(desc));
            tt_dialect::ffi::ttTensorDescTypeGet(halved(block, 0))
        };
        let half = ir::result(clone, 0);
        // SAFETY: the clone's result, retyped before any use.
        unsafe { mlir_sys::mlirValueSetType(half, ty) };
        self.halves.insert(Val(desc), half);
        half
    }

    fn constant(&self, value: i64) -> MlirValue {
        ir::build_constant(
            self.anchor,
            self.loc,
            ir::i32_type(ir::context(self.anchor)),
            value,
        )
    }

    fn binary(&self, name: &str, lhs: MlirValue, rhs: MlirValue) -> MlirValue {
        ir::build_binary(self.anchor, name, self.loc, lhs, rhs)
    }

    /// A copy of the loop `old` with `inits`, its body to be filled before
    /// its yield with copies of `body_ops` (whose reads from before the loop
    /// are computed first); maps the induction variable.
    fn open_loop(
        &mut self,
        caps: &mut Captures,
        old: MlirOperation,
        inits: &[MlirValue],
        body_ops: &[MlirOperation],
    ) -> MlirOperation {
        let bounds = [scf::lower_bound(old), scf::upper_bound(old), scf::step(old)]
            .map(|b| self.need(caps, b));
        // Everything `body_ops` read from before the loop, computed here once.
        for &op in body_ops {
            for operand in ir::operands(op) {
                if ir::defined_outside(old, operand) {
                    self.need(caps, operand);
                }
            }
        }
        let ctx = ir::context(old);
        let stages = ir::integer_attr(ir::i32_type(ctx), 0);
        let new = scf::build_for(
            self.anchor,
            ir::location(old),
            bounds,
            inits,
            &[("tt.num_stages", stages)],
        );
        self.map
            .insert(Val(scf::induction_var(old)), Val(scf::induction_var(new)));
        new
    }

    /// The ring buffer index and mbarrier phase of iteration `count`.
    fn position(&self, count: MlirValue) -> (MlirValue, MlirValue) {
        let buffers = self.constant(self.plan.buffers);
        let index = self.binary("arith.remui", count, buffers);
        let round = self.binary("arith.divui", count, buffers);
        let one = self.constant(1);
        (index, self.binary("arith.andi", round, one))
    }

    /// Ends the loop body: the yield gives `values` and the next count.
    fn close_loop(&self, new: MlirOperation, mut values: Vec<MlirValue>, count: MlirValue) {
        let one = self.constant(1);
        values.push(self.binary("arith.addi", count, one));
        let yield_op = ir::terminator(scf::body(new)).expect("a loop body ends in its yield");
        ir::set_operand_list(yield_op, &values);
    }

    /// A persistent kernel's copy of the tile loop, carrying the ring
    /// counter from tile to tile; new ops then go into its body. What the
    /// ops nested in it (except those `skip` leaves out) read from before
    /// it is computed first, once. Returns the loop and the counter at the
    /// start of a tile, or (without a tile loop) `None` and zero.
    fn open_tiles(
        &mut self,
        caps: &mut Captures,
        skip: impl Fn(MlirOperation) -> bool,
    ) -> (Option<MlirOperation>, MlirValue) {
        let zero = self.constant(0);
        let Some(old) = self.plan.outer else {
            return (None, zero);
        };
        let mut reads = Vec::new();
        ir::walk_pre(old, &mut |op| {
            if op.ptr != old.ptr && !skip(op) {
                reads.push(op);
            }
        });
        let new = self.open_loop(caps, old, &[zero], &reads);
        self.anchor = ir::terminator(scf::body(new)).expect("a loop body ends in its yield");
        (Some(new), scf::region_iter_args(new)[0])
    }

    /// Ends the tile loop's body: it gives the counter at the end of the
    /// tile; new ops then go after the tile loop.
    fn close_tiles(
        &mut self,
        tiles: Option<MlirOperation>,
        count: MlirValue,
        after: MlirOperation,
    ) {
        if let Some(tiles) = tiles {
            let yield_op = ir::terminator(scf::body(tiles)).expect("a loop body ends in its yield");
            ir::set_operand_list(yield_op, &[count]);
        }
        self.anchor = after;
    }

    fn view(&mut self, caps: &mut Captures, ring: MlirValue, index: MlirValue) -> MlirValue {
        let alloc = self.need(caps, ring);
        ir::result(buffer_view(self.anchor, alloc, index, self.loc), 0)
    }

    fn wait(
        &mut self,
        caps: &mut Captures,
        barriers: MlirValue,
        index: MlirValue,
        phase: MlirValue,
    ) {
        let view = self.view(caps, barriers, index);
        let ctx = ir::context(self.anchor);
        ir::build_op(
            self.anchor,
            "ttng.wait_barrier",
            &[view, phase],
            &[],
            &[(
                "operandSegmentSizes",
                ir::dense_i32_array_attr(ctx, &[1, 1, 0, 0]),
            )],
            self.loc,
        );
    }
}

/// Splits the planned function: rings and barriers before the loop, then a
/// `ttg.warp_specialize` whose default region is the producer and whose
/// partitions are the consumers, in place of the loop and its epilogue.
fn split(plan: &Plan) {
    // Everything new goes before the outermost loop.
    let for_op = plan.outer.unwrap_or(plan.for_op);
    let ctx = ir::context(for_op);
    let loc = ir::location(for_op);
    let mut rings = Vec::new();
    for (index, l) in plan.loads.iter().enumerate() {
        let alloc_type = memdesc(ir::value_type(ir::result(l.alloc, 0))).expect("an allocation");
        let consumers: Vec<Option<usize>> = if l.split {
            (0..CONSUMERS).map(Some).collect()
        } else {
            vec![None]
        };
        for consumer in consumers {
            let mut shape = alloc_type.shape.clone();
            if l.split {
                shape[0] /= CONSUMERS as i64;
            }
            let bits = i64::from(tt_dialect::types::bit_width(alloc_type.element).unwrap_or(8));
            let bytes = shape.iter().product::<i64>() * bits / 8;
            let ring_shape: Vec<i64> = std::iter::once(plan.buffers).chain(shape).collect();
            let ty = MemDesc {
                shape: ring_shape.clone(),
                alloc_shape: ring_shape,
                mutable: true,
                ..alloc_type.clone()
            }
            .to_type();
            let buffers = ir::result(
                ir::build_op(for_op, "ttg.local_alloc", &[], &[ty.to_raw()], &[], loc),
                0,
            );
            let readers = if consumer.is_some() {
                1
            } else {
                CONSUMERS as i64
            };
            let full = init_barriers(for_op, plan.buffers, 1);
            let empty = init_barriers(for_op, plan.buffers, readers);
            rings.push(Ring {
                load: index,
                consumer,
                buffers,
                full,
                empty,
                bytes,
            });
        }
    }
    ir::build_op(for_op, "gpu.barrier", &[], &[], &[], loc);

    // The op, with a default region ending in its yield and a partition
    // region per consumer ending in its return.
    // SAFETY: fresh blocks and regions, each handed to the op that owns it.
    let (ws, default_block, partition_blocks) = unsafe {
        let region_with = |op: MlirOperation| {
            let block = mlir_sys::mlirBlockCreate(0, std::ptr::null(), std::ptr::null());
            mlir_sys::mlirBlockAppendOwnedOperation(block, op);
            let region = mlir_sys::mlirRegionCreate();
            mlir_sys::mlirRegionAppendOwnedBlock(region, block);
            (region, block)
        };
        let (default_region, default_block) = region_with(ir::create_op(
            "ttg.warp_yield",
            loc,
            &[],
            &[],
            &[],
            Vec::new(),
        ));
        let mut regions = Vec::new();
        let mut blocks = Vec::new();
        for _ in 0..CONSUMERS {
            let ret = ir::create_op("ttg.warp_return", loc, &[], &[], &[], Vec::new());
            let (region, block) = region_with(ret);
            regions.push(region);
            blocks.push(block);
        }
        let partitions = ir::create_op(
            "ttg.warp_specialize.partitions",
            loc,
            &[],
            &[],
            &[],
            regions,
        );
        let (holder, _) = region_with(partitions);
        let warps = vec![4; CONSUMERS];
        let registers = vec![CONSUMER_REGISTERS; CONSUMERS];
        let ws = ir::create_op(
            "ttg.warp_specialize",
            loc,
            &[],
            &[],
            &[
                ("partitionNumWarps", ir::dense_i32_array_attr(ctx, &warps)),
                (
                    "requestedRegisters",
                    ir::dense_i32_array_attr(ctx, &registers),
                ),
            ],
            vec![default_region, holder],
        );
        ir::insert_before(for_op, ws);
        (ws, default_block, blocks)
    };
    let mut caps = Captures {
        values: Vec::new(),
        blocks: partition_blocks.clone(),
    };

    produce(plan, &rings, default_block, &mut caps);
    for (consumer, &block) in partition_blocks.iter().enumerate() {
        consume(plan, &rings, consumer, block, &mut caps);
    }
    // SAFETY: a live op; the captures are live values defined before it.
    unsafe {
        mlir_sys::mlirOperationSetOperands(ws, caps.values.len() as isize, caps.values.as_ptr())
    };

    // The loop, its epilogue and what only they used go.
    if plan.outer.is_none() {
        for &op in plan.epilogue.iter().rev() {
            ir::erase(op);
        }
    }
    ir::erase(for_op);
    // (The tile loop's own ops went with it.)
    for op in plan.prologue.iter().rev() {
        if ir::results(op.0).iter().all(|&r| !ir::has_uses(r)) {
            ir::erase(op.0);
        }
    }
}

/// The producer: each iteration waits for its rings' buffers to be empty
/// and fills them with TMA copies.
fn produce(plan: &Plan, rings: &[Ring], block: MlirBlock, caps: &mut Captures) {
    let anchor = ir::terminator(block).expect("the default region ends in its yield");
    let mut e = Emitter {
        plan,
        anchor,
        loc: ir::location(plan.for_op),
        map: ValueMap::new(),
        block: None,
        halves: HashMap::new(),
    };
    let planned = |op: MlirOperation| {
        plan.loads.iter().any(|l| l.alloc.ptr == op.ptr)
            || plan.dot.ptr == op.ptr
            || plan.b_trans.is_some_and(|t| t.ptr == op.ptr)
            || ir::is_terminator(op)
    };
    let body_ops: Vec<MlirOperation> = ir::block_ops(scf::body(plan.for_op))
        .into_iter()
        .filter(|&op| !planned(op))
        .collect();
    // The split loads' descriptors of half the rows, made once.
    for l in plan.loads.iter().filter(|l| l.split) {
        e.half_descriptor(caps, ir::operand(l.load, 0));
    }
    let (tiles, start) = e.open_tiles(caps, |op| plan.epilogue.iter().any(|o| o.ptr == op.ptr));
    let new = e.open_loop(caps, plan.for_op, &[start], &body_ops);
    let count = scf::region_iter_args(new)[0];
    e.anchor = ir::terminator(scf::body(new)).expect("a loop body ends in its yield");
    let (index, phase) = e.position(count);
    let one = e.constant(1);
    let empty_phase = e.binary("arith.xori", phase, one);
    let yes = ir::build_constant(e.anchor, e.loc, ir::i1_type(ir::context(anchor)), 1);
    let i32t = ir::i32_type(ir::context(anchor));
    for &op in &body_ops {
        let Some(load) = plan.loads.iter().position(|l| l.load.ptr == op.ptr) else {
            let clone = ir::clone_mapped(op, &mut e.map);
            ir::insert_before(e.anchor, clone);
            continue;
        };
        let operands = ir::operands(op);
        for ring in rings.iter().filter(|r| r.load == load) {
            e.wait(caps, ring.empty, index, empty_phase);
            let full = e.view(caps, ring.full, index);
            ir::build_op(
                e.anchor,
                "ttng.barrier_expect",
                &[full, yes],
                &[],
                &[("size", ir::integer_attr(i32t, ring.bytes))],
                e.loc,
            );
            let buffer = e.view(caps, ring.buffers, index);
            let desc = match ring.consumer {
                Some(_) => e.half_descriptor(caps, operands[0]),
                None => e.need(caps, operands[0]),
            };
            let mut coords: Vec<MlirValue> = operands[1..]
                .iter()
                .map(|&c| ir::lookup_or_self(&e.map, c))
                .collect();
            if let Some(c @ 1..) = ring.consumer {
                let offset = e.constant(c as i64 * plan.rows / CONSUMERS as i64);
                coords[0] = e.binary("arith.addi", coords[0], offset);
            }
            let mut copy = vec![desc];
            copy.extend(coords);
            copy.extend([full, buffer, yes]);
            ir::build_op(
                e.anchor,
                "ttng.async_tma_copy_global_to_local",
                &copy,
                &[],
                &[],
                ir::location(op),
            );
        }
    }
    e.close_loop(new, Vec::new(), count);
    e.close_tiles(tiles, ir::result(new, 0), anchor);
}

/// Consumer `consumer`: each iteration waits for its rings' buffers, runs
/// the dot on its rows and frees the buffers; then its rows' epilogue.
fn consume(plan: &Plan, rings: &[Ring], consumer: usize, block: MlirBlock, caps: &mut Captures) {
    let anchor = ir::terminator(block).expect("a partition ends in its return");
    let ctx = ir::context(anchor);
    let mut e = Emitter {
        plan,
        anchor,
        loc: ir::location(plan.for_op),
        map: ValueMap::new(),
        block: Some(block),
        halves: HashMap::new(),
    };
    let init_op = ir::defining_op(scf::init_args(plan.for_op)[0]).expect("a splat constant");
    let init = split_clone(&mut e, caps, init_op, consumer).expect("a constant has a result");
    // The stores' descriptors of half the rows, made once.
    for &op in &plan.epilogue {
        if ir::is(op, "tt.descriptor_store") && plan.splits.contains_key(&Val(ir::operand(op, 1))) {
            e.half_descriptor(caps, ir::operand(op, 0));
        }
    }
    let (tiles, start) = e.open_tiles(caps, |op| plan.loads.iter().any(|l| l.load.ptr == op.ptr));
    let new = e.open_loop(caps, plan.for_op, &[init, start], &[]);
    let args = scf::region_iter_args(new);
    let (acc, count) = (args[0], args[1]);
    e.map
        .insert(Val(scf::region_iter_args(plan.for_op)[0]), Val(acc));
    e.map
        .insert(Val(ir::result(plan.for_op, 0)), Val(ir::result(new, 0)));
    e.anchor = ir::terminator(scf::body(new)).expect("a loop body ends in its yield");
    let (index, phase) = e.position(count);
    let mine: Vec<&Ring> = rings.iter().filter(|r| r.read_by(consumer)).collect();
    for ring in &mine {
        e.wait(caps, ring.full, index, phase);
    }
    for ring in &mine {
        let l = &plan.loads[ring.load];
        let mut ty = memdesc(ir::value_type(ir::result(l.alloc, 0))).expect("an allocation");
        if l.split {
            ty.shape[0] /= CONSUMERS as i64;
            ty.alloc_shape[0] /= CONSUMERS as i64;
        }
        let buffers = e.need(caps, ring.buffers);
        let view = ir::build_op(
            e.anchor,
            "ttg.memdesc_index",
            &[buffers, index],
            &[ty.to_type().to_raw()],
            &[],
            e.loc,
        );
        e.map
            .insert(Val(ir::result(l.alloc, 0)), Val(ir::result(view, 0)));
    }
    if let Some(trans) = plan.b_trans {
        let clone = ir::clone_mapped(trans, &mut e.map);
        ir::insert_before(e.anchor, clone);
    }
    let dot = ir::clone_mapped(plan.dot, &mut e.map);
    ir::insert_before(e.anchor, dot);
    let product = ir::result(dot, 0);
    // SAFETY: the clone's result, retyped before any use.
    unsafe { mlir_sys::mlirValueSetType(product, halved(ir::value_type(product), 0)) };
    let i32t = ir::i32_type(ctx);
    for ring in &mine {
        let view = e.view(caps, ring.empty, index);
        ir::build_op(
            e.anchor,
            "ttng.arrive_barrier",
            &[view],
            &[],
            &[("count", ir::integer_attr(i32t, 1))],
            e.loc,
        );
    }
    e.close_loop(new, vec![product], count);
    // The epilogue follows the K loop: in the tile loop, or at the end.
    e.anchor = match tiles {
        Some(t) => ir::terminator(scf::body(t)).expect("a loop body ends in its yield"),
        None => anchor,
    };
    for &op in &plan.epilogue {
        split_clone(&mut e, caps, op, consumer);
    }
    e.close_tiles(tiles, ir::result(new, 1), anchor);
}

/// Clones the epilogue op `op` into consumer `consumer`'s region with its
/// share of every split tensor: split results retyped, ranges and splat
/// constants cut to its rows, a store through a descriptor sent through a
/// descriptor of its rows at its row offset. Returns the first result.
fn split_clone(
    e: &mut Emitter,
    caps: &mut Captures,
    op: MlirOperation,
    consumer: usize,
) -> Option<MlirValue> {
    for operand in ir::operands(op) {
        e.need(caps, operand);
    }
    let split = |v: MlirValue| e.plan.splits.get(&Val(v)).copied();
    // A store of a split tile: its rows' descriptor and offset, made first.
    let store =
        (ir::is(op, "tt.descriptor_store") && split(ir::operand(op, 1)).is_some()).then(|| {
            let half = e.half_descriptor(caps, ir::operand(op, 0));
            let offset = (consumer > 0)
                .then(|| e.constant(consumer as i64 * e.plan.rows / CONSUMERS as i64));
            (half, offset)
        });
    let clone = ir::clone_mapped(op, &mut e.map);
    ir::insert_before(e.anchor, clone);
    if let Some((half, offset)) = store {
        ir::set_operand(clone, 0, half);
        if let Some(offset) = offset {
            let row = ir::operand(clone, 2);
            let moved = ir::build_binary(clone, "arith.addi", e.loc, row, offset);
            ir::set_operand(clone, 2, moved);
        }
    }
    let is_init = scf::init_args(e.plan.for_op)
        .first()
        .is_some_and(|&i| ir::defining_op(i).is_some_and(|d| d.ptr == op.ptr));
    for (old, new) in ir::results(op).into_iter().zip(ir::results(clone)) {
        let Some(d) = e
            .plan
            .splits
            .get(&Val(old))
            .copied()
            .or(is_init.then_some(0))
        else {
            continue;
        };
        let ty = halved(ir::value_type(old), d);
        // SAFETY: the clone's result, retyped before any use.
        unsafe { mlir_sys::mlirValueSetType(new, ty) };
        let ctx = ir::context(op);
        match ir::name(op).as_str() {
            "arith.constant" => {
                let value = ir::attribute(op, "value").expect("a constant has a value");
                // SAFETY: a live splat attribute (the plan checked it) and
                // a live shaped type of the same element type.
                let cut = unsafe {
                    mlir_sys::mlirDenseElementsAttrSplatGet(
                        ty,
                        mlir_sys::mlirDenseElementsAttrGetSplatValue(value),
                    )
                };
                ir::set_attribute(clone, "value", cut);
            }
            "tt.make_range" => {
                let get = |name: &str| {
                    ir::attribute(op, name)
                        .and_then(ir::integer_attr_value)
                        .expect("a range has bounds")
                };
                let share = (get("end") - get("start")) / CONSUMERS as i64;
                let start = get("start") + consumer as i64 * share;
                let i32t = ir::i32_type(ctx);
                ir::set_attribute(clone, "start", ir::integer_attr(i32t, start));
                ir::set_attribute(clone, "end", ir::integer_attr(i32t, start + share));
            }
            _ => {}
        }
    }
    ir::results(clone).first().copied()
}
