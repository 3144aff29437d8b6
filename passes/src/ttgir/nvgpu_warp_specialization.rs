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
//! issues the loads feeding the `ttng.warp_group_dot`s, and two consumer
//! warp groups, which each run the dots and everything computed from them
//! on half of the rows. This pass does that split for the loops Triton's
//! tutorials and tests write: GEMMs, persistent GEMMs and attention
//! (`split`):
//!
//! - the marked loop is the function's only loop (the K loop), or a
//!   persistent kernel's tile loop whose only nested loop is the K loop;
//! - the K loop's warp-group dots are 2-D, of 128 or 256 rows (all the
//!   same) over `warpsPerCTA = [4, 1]`; their operands in shared memory are
//!   `ttg.local_alloc`s of `tt.descriptor_load`s (B possibly through a
//!   `ttg.memdesc_trans`), loaded in the K loop or once before the loops
//!   (attention's Q); a tile read as A is split, through a descriptor made
//!   in the kernel;
//! - the tensors the loop carries start from splat constants; its other ops
//!   are element-wise ops, reductions across the rows, broadcasts,
//!   `expand_dims`, layout conversions and scalar arithmetic, with no
//!   writes;
//! - the ops before the loops are free of writes and regions (in the tile
//!   loop too); those after the K loop are element-wise ops, splats,
//!   broadcasts, `expand_dims`, ranges, constants, loads, and stores
//!   (`tt.store`, `tt.descriptor_store` to a descriptor made in the kernel)
//!   of the rows.
//!
//! Which dimension of each tensor follows the dots' rows is found as
//! Triton's data partition finds it (`row_splits`): the dots' results and
//! register operands A split along their rows, and the split propagates
//! through element-wise ops, reductions, broadcasts, `expand_dims` and the
//! loop's carried values; a tensor that none reaches is computed whole.
//!
//! The split, as Triton's makes it: each load goes through a ring of
//! shared-memory buffers (`num_stages` of them, one for a load made once)
//! with a "full" mbarrier per buffer (the TMA copy's bytes) and an "empty"
//! one (one arrival per consumer reading it); a split load is two rings,
//! one per consumer's half of the rows. The producer (the default region)
//! waits for a buffer to be empty, expects its bytes and issues the TMA
//! copy. Each consumer (`partition0`, `partition1`, 4 warps each,
//! `requestedRegisters` 232) runs the K loop's ops on its rows: it waits
//! for each buffer to be full before the first op reading it, runs the dots
//! synchronously, and arrives on the empty barrier after the last one; then
//! it runs the epilogue on its rows: ranges start at its first row, stores
//! through a descriptor use a descriptor of half the rows at its row
//! offset. The ops before the loop are recomputed in each region that needs
//! them; function arguments, buffers and barriers are the captures. In a
//! persistent kernel each region has its own tile loop, which carries the
//! ring counter from tile to tile, and the consumers' epilogue runs in it,
//! once per tile. Every loop of the function gets `tt.num_stages = 0`. The
//! IR differs from Triton's in naming and order (Triton also allocates
//! barriers it does not use), not in what runs.
//!
//! Anything else with loads feeding a warp-group dot (deeper loop nests,
//! pointer loads, loads whose tiles are read other than by dots, writes in
//! the loop, reshapes and reductions along the rows, descriptors passed in
//! from the host for the split loads and stores) is refused with a located
//! error that says what; without `warp_specialize=True` such a loop
//! compiles, software-pipelined.

use std::collections::HashMap;

use melior::ir::{attribute::AttributeLike, operation::OperationRef, r#type::TypeLike, Type};
use mlir_sys::{MlirAttribute, MlirBlock, MlirLocation, MlirOperation, MlirType, MlirValue};
use tt_dialect::types::Tensor;
use ttg_dialect::layout::{Layout, MemDesc};

use crate::options::PassOptions;
use crate::rust_pass::{fail, Failure, PassResult, RustPass};
use crate::ttgir::pipeline_lower::{buffer_view, init_barriers};
use crate::ttgir::pipelining as pl;
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
    // The split's own loops too.
    for l in ops_where(func, |op| ir::is(op, "scf.for")) {
        pl::set_i32(l, pl::NUM_STAGES, 0);
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

/// One of the descriptor loads feeding the dots, and the
/// `ttg.local_alloc` that stores its tile for them.
struct Load {
    load: MlirOperation,
    alloc: MlirOperation,
    /// Read as a dot's A (split between the consumers along its rows), or
    /// as B (read whole by both).
    split: bool,
    /// Loaded once before the loops (attention's Q), or every iteration.
    once: bool,
    /// The op of the K loop after which the tile is no longer read (for
    /// loads of every iteration).
    last_use: Option<MlirOperation>,
}

/// What the split needs to know of a function, checked before anything
/// changes.
struct Plan {
    /// A persistent kernel's tile loop (the marked one) around `for_op`.
    outer: Option<MlirOperation>,
    /// The K loop, of the dots.
    for_op: MlirOperation,
    /// The loads, those loaded once first, each group in program order.
    loads: Vec<Load>,
    /// The ops of the function before the loops: recomputed where needed.
    prologue: Vec<Op>,
    /// The ops of a persistent kernel's tile loop before the K loop:
    /// recomputed where needed, in each region's tile loop.
    tile_ops: Vec<Op>,
    /// The ops after the K loop (before `tt.return`, or in the tile loop).
    epilogue: Vec<MlirOperation>,
    /// The dimension along which each tensor of the consumers is split
    /// between them (the rows of the dots and what follows them); tensors
    /// not here are computed whole by each consumer.
    splits: HashMap<Val, usize>,
    /// The dots' rows.
    rows: i64,
    /// Buffers in the ring of each load of every iteration.
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
        let body_ops: Vec<MlirOperation> = ir::block_ops(body)
            .into_iter()
            .filter(|&op| !ir::is_terminator(op))
            .collect();
        let dots: Vec<MlirOperation> = body_ops
            .iter()
            .copied()
            .filter(|&op| ir::is(op, "ttng.warp_group_dot"))
            .collect();
        let mut rows = None;
        for &dot in &dots {
            let t = tensor(ir::value_type(ir::result(dot, 0))).expect("a dot gives a tensor");
            let four_by_one = t.encoding.and_then(Layout::read).is_some_and(|l| {
                matches!(l, Layout::NvidiaMma { version_major: 3, ref warps_per_cta, .. }
                    if warps_per_cta[..] == [4, 1])
            });
            let m = t.shape[0];
            if !four_by_one
                || ![128, 256].contains(&m)
                || t.shape.len() != 2
                || ir::operand_count(dot) != 3
                || rows.is_some_and(|r| r != m)
            {
                return Err(refuse(
                    dot,
                    "a warp-group dot other than 2-D ones of 128 or 256 rows (all the same) over \
                     warpsPerCTA = [4, 1]",
                ));
            }
            rows = Some(m);
        }
        let rows = rows.ok_or_else(|| refuse(for_op, "a warp-specialized loop without a dot"))?;
        for (init, arg) in scf::init_args(for_op)
            .into_iter()
            .zip(scf::region_iter_args(for_op))
        {
            if tensor(ir::value_type(arg)).is_some() && !is_splat_constant(init) {
                return Err(refuse(
                    for_op,
                    "a tensor carried by a warp-specialized loop that does not start from a \
                     splat constant",
                ));
            }
            if memdesc(ir::value_type(arg)).is_some() {
                return Err(refuse(
                    for_op,
                    "a warp-specialized loop that carries shared memory",
                ));
            }
        }
        let outermost = outer.unwrap_or(for_op);
        let entry = ir::op_block(outermost);
        let before_loop =
            |op: MlirOperation| ir::op_block(op).ptr == entry.ptr && ir::is_before(op, outermost);
        // What a split load or store goes through: a descriptor made in the
        // kernel before the loops, of 2-D blocks of the dots' rows, which
        // each region can remake with half the rows.
        let halvable = |desc: MlirValue| {
            rows_first(desc, rows)
                && ir::defining_op(desc)
                    .is_some_and(|d| ir::is(d, "tt.make_tensor_descriptor") && before_loop(d))
        };
        // The loads: each stored once for dot operands only.
        let mut loads = Vec::new();
        let mut loaded_ops: Vec<Op> = Vec::new();
        for op in ops_where(func, |op| ir::is(op, "tt.descriptor_load")) {
            let once = before_loop(op);
            if !once && ir::op_block(op).ptr != body.ptr {
                return Err(refuse(
                    op,
                    "a descriptor load in a warp-specialized kernel other than before its loops \
                     or in its K loop",
                ));
            }
            let (alloc, split, last_use) = stored_for_dots(op, body).ok_or_else(|| {
                refuse(op, "a load whose tile is used other than by dot operands")
            })?;
            if split && !halvable(ir::operand(op, 0)) {
                return Err(refuse(
                    op,
                    "splitting a load through a descriptor made outside the kernel, or of other \
                     than 2-D blocks of the dots' rows",
                ));
            }
            loaded_ops.extend([Op(op), Op(alloc)]);
            loads.push(Load {
                load: op,
                alloc,
                split,
                once,
                last_use: (!once).then_some(last_use),
            });
        }
        loads.sort_by_key(|l| !l.once);
        for &dot in &dots {
            let b = ir::operand(dot, 1);
            let b = ir::defining_op(b)
                .filter(|&t| ir::is(t, "ttg.memdesc_trans"))
                .map_or(b, |t| ir::operand(t, 0));
            let from_load = |v: MlirValue| {
                loads
                    .iter()
                    .any(|l| ir::same_value(ir::result(l.alloc, 0), v))
            };
            let a = ir::operand(dot, 0);
            if !from_load(b) || (memdesc(ir::value_type(a)).is_some() && !from_load(a)) {
                return Err(refuse(
                    dot,
                    "a dot operand in shared memory other than a stored descriptor load",
                ));
            }
        }
        for &op in &body_ops {
            if loaded_ops.contains(&Op(op)) {
                continue;
            }
            if effects::may_write(op)
                && ir::region_count(op) == 0
                && !ir::is(op, "ttng.warp_group_dot")
            {
                return Err(refuse(op, "an op with writes in a warp-specialized loop"));
            }
            if ir::region_count(op) != 0 && !ir::is(op, "tt.reduce") {
                return Err(refuse(op, "an op with regions in a warp-specialized loop"));
            }
            let scalar_results = ir::results(op).iter().all(|&r| !is_tile(ir::value_type(r)));
            let tile_operands = ir::operands(op).iter().any(|&v| is_tile(ir::value_type(v)));
            if scalar_results && tile_operands {
                return Err(refuse(
                    op,
                    "a scalar computed from a tile in a warp-specialized loop",
                ));
            }
        }
        // Ops before a loop are recomputed where needed: no regions, no
        // writes.
        let recomputable = |op: MlirOperation| -> Result<(), Failure> {
            if ir::region_count(op) != 0 || effects::may_write(op) {
                return Err(refuse(
                    op,
                    "an op with regions or writes before a warp-specialized loop",
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
            } else if loaded_ops.contains(&Op(op)) {
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
            if loads.iter().any(|l| l.once) {
                return Err(refuse(
                    tiles,
                    "a persistent kernel with loads before its tile loop",
                ));
            }
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
        let consumer_ops: Vec<MlirOperation> = prologue
            .iter()
            .chain(&tile_ops)
            .map(|o| o.0)
            .chain(
                body_ops
                    .iter()
                    .copied()
                    .filter(|&op| !loaded_ops.contains(&Op(op))),
            )
            .chain(epilogue.iter().copied())
            .collect();
        let splits = row_splits(&consumer_ops, &dots, for_op, rows)?;
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
                    "a store after a warp-specialized loop of values not split with the dots' rows",
                ));
            }
            if desc.is_some() && splits.get(&Val(stored)) != Some(&0) {
                return Err(refuse(
                    op,
                    "a descriptor store split along other than its first dimension",
                ));
            }
            if !desc.is_none_or(halvable) {
                return Err(refuse(
                    op,
                    "splitting a store through a descriptor made outside the kernel, or of \
                     other than 2-D blocks of the dots' rows",
                ));
            }
        }
        let stages = pl::num_stages_or_default(for_op, stages);
        Ok(Self {
            outer,
            for_op,
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

    /// The K loop's body, without its yield.
    fn body(&self) -> Vec<MlirOperation> {
        ir::block_ops(scf::body(self.for_op))
            .into_iter()
            .filter(|&op| !ir::is_terminator(op))
            .collect()
    }

    /// The load (index into `loads`) whose `ttg.local_alloc` is `op`.
    fn load_stored_by(&self, op: MlirOperation) -> Option<usize> {
        self.loads.iter().position(|l| l.alloc.ptr == op.ptr)
    }

    fn is_load(&self, op: MlirOperation) -> bool {
        self.loads.iter().any(|l| l.load.ptr == op.ptr)
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

/// The `ttg.local_alloc` storing the tile of `load` (its only user), when
/// that tile is only read by warp-group dots in `body`, directly or through
/// one `ttg.memdesc_trans` each: with whether it is read as A (else as B)
/// and the last reader in `body`.
fn stored_for_dots(
    load: MlirOperation,
    body: MlirBlock,
) -> Option<(MlirOperation, bool, MlirOperation)> {
    let alloc = single_user(ir::result(load, 0))?;
    if !ir::is(alloc, "ttg.local_alloc")
        || ir::operand_count(alloc) != 1
        || ir::op_block(alloc).ptr != ir::op_block(load).ptr
    {
        return None;
    }
    let mut as_a = false;
    let mut as_b = false;
    let mut last: Option<MlirOperation> = None;
    for (user, index) in ir::uses(ir::result(alloc, 0)) {
        let (dot, index) = if ir::is(user, "ttg.memdesc_trans") {
            let (dot, i) = match ir::uses(ir::result(user, 0))[..] {
                [use_] => use_,
                _ => return None,
            };
            (dot, if i == 1 { 1 } else { 2 })
        } else {
            (user, index)
        };
        if !ir::is(dot, "ttng.warp_group_dot") || ir::op_block(dot).ptr != body.ptr {
            return None;
        }
        match index {
            0 => as_a = true,
            1 => as_b = true,
            _ => return None,
        }
        if last.is_none_or(|l| ir::is_before(l, dot)) {
            last = Some(dot);
        }
    }
    (as_a != as_b).then_some((alloc, as_a, last?))
}

/// Ops that work element by element: every tensor operand and result has
/// the same shape and splits the same way.
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
            "a warp-specialized kernel that splits one tensor along two dimensions",
        )),
        None => {
            splits.insert(Val(v), d);
            *changed = true;
            Ok(())
        }
    }
}

/// Which dimension of each of the consumers' tensors follows the dots'
/// rows (each dot's result and register A split along dimension 0):
/// Triton's data partition, for the ops a GEMM or attention loop and its
/// epilogue have. A tensor that no split reaches is computed whole by each
/// consumer. `ops` are the consumers' ops, `for_op` the K loop, whose
/// initial values, iteration arguments, yielded values and results split
/// alike.
fn row_splits(
    ops: &[MlirOperation],
    dots: &[MlirOperation],
    for_op: MlirOperation,
    rows: i64,
) -> Result<HashMap<Val, usize>, Failure> {
    let mut splits: HashMap<Val, usize> = HashMap::new();
    let mut changed = false;
    for &dot in dots {
        assign(&mut splits, &mut changed, dot, ir::result(dot, 0), 0)?;
    }
    let tensors = |values: Vec<MlirValue>| -> Vec<MlirValue> {
        values
            .into_iter()
            .filter(|&v| tensor(ir::value_type(v)).is_some())
            .collect()
    };
    let carried: Vec<[MlirValue; 4]> = scf::init_args(for_op)
        .into_iter()
        .zip(scf::region_iter_args(for_op))
        .zip(scf::yielded_values(for_op))
        .zip(ir::results(for_op))
        .map(|(((i, a), y), r)| [i, a, y, r])
        .collect();
    loop {
        changed = false;
        for group in &carried {
            if let Some(d) = group.iter().find_map(|v| splits.get(&Val(*v)).copied()) {
                for &v in group {
                    assign(&mut splits, &mut changed, for_op, v, d)?;
                }
            }
        }
        for &op in ops {
            let name = ir::name(op);
            let values = tensors(
                ir::operands(op)
                    .into_iter()
                    .chain(ir::results(op))
                    .collect(),
            );
            if values.is_empty() && ir::region_count(op) == 0 {
                continue;
            }
            let mut set = |splits: &mut HashMap<Val, usize>, v: MlirValue, d: usize| {
                assign(splits, &mut changed, op, v, d)
            };
            match name.as_str() {
                n if is_elementwise(n) => {
                    let found = values.iter().find_map(|v| splits.get(&Val(*v)).copied());
                    if let Some(d) = found {
                        for &v in &values {
                            set(&mut splits, v, d)?;
                        }
                    }
                }
                "ttng.warp_group_dot" => {
                    let (a, c, r) = (ir::operand(op, 0), ir::operand(op, 2), ir::result(op, 0));
                    for v in [a, c, r] {
                        if tensor(ir::value_type(v)).is_some() {
                            set(&mut splits, v, 0)?;
                        }
                    }
                }
                "tt.reduce" => {
                    let axis = ir::attribute(op, "axis")
                        .and_then(ir::integer_attr_value)
                        .unwrap_or(0) as usize;
                    for (x, r) in ir::operands(op).into_iter().zip(ir::results(op)) {
                        if let Some(&d) = splits.get(&Val(x)) {
                            if d == axis {
                                return Err(refuse(op, "a reduction along the dots' rows"));
                            }
                            if tensor(ir::value_type(r)).is_some() {
                                set(&mut splits, r, if d > axis { d - 1 } else { d })?;
                            }
                        }
                        if let Some(&d) = splits.get(&Val(r)) {
                            set(&mut splits, x, if d >= axis { d + 1 } else { d })?;
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
                            return Err(refuse(op, "a kernel that splits a new dimension"));
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
                        "this op in a warp-specialized kernel's consumers",
                    ))
                }
            }
        }
        if !changed {
            break;
        }
    }
    for &op in ops.iter().chain([&for_op]) {
        for r in ir::results(op) {
            if let Some(&d) = splits.get(&Val(r)) {
                let t = tensor(ir::value_type(r)).expect("split values are tensors");
                let constant_ok = !ir::is(op, "arith.constant") || is_splat_constant(r);
                if t.shape.get(d) != Some(&rows) || !constant_ok {
                    return Err(refuse(
                        op,
                        "a tensor that does not split with the dots' rows",
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
    /// The consumer whose share of split tensors the region computes (the
    /// producer computes none).
    consumer: usize,
}

impl<'p> Emitter<'p> {
    /// An emitter filling `block` (before its terminator): the default
    /// region's (the producer's) or, for a consumer, its partition's.
    fn new(plan: &'p Plan, block: MlirBlock, consumer: Option<usize>) -> Self {
        Emitter {
            plan,
            anchor: ir::terminator(block).expect("a region block ends in its terminator"),
            loc: ir::location(plan.for_op),
            map: ValueMap::new(),
            block: consumer.map(|_| block),
            halves: HashMap::new(),
            consumer: consumer.unwrap_or(0),
        }
    }

    /// `value` in this region: recomputed when an op before the loop makes
    /// it, captured (in a partition) when it comes from outside.
    fn need(&mut self, caps: &mut Captures, value: MlirValue) -> MlirValue {
        if let Some(v) = self.map.get(&Val(value)) {
            return v.0;
        }
        if let Some(def) = ir::defining_op(value).filter(|&d| self.plan.is_prologue(d)) {
            split_clone(self, caps, def);
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
        // SAFETY: the type of a live value.
        let block =
            tt_dialect::types::tensor_desc_block(unsafe { Type::from_raw(ir::value_type(desc)) })
                .expect("the plan checked the descriptor's type");
        // SAFETY: a live ranked tensor type.
        let ty = unsafe { tt_dialect::ffi::ttTensorDescTypeGet(halved(block.to_raw(), 0)) };
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
    /// are computed first); maps the induction variable. (`specialize` then
    /// turns the copy's pipelining off, as every loop's.)
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
        let new = scf::build_for(self.anchor, ir::location(old), bounds, inits, &[]);
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
        // A ring's buffers: the tile (a consumer's rows of a split one).
        let alloc_type = memdesc(ir::value_type(ir::result(l.alloc, 0))).expect("an allocation");
        let mut shape = alloc_type.shape.clone();
        if l.split {
            shape[0] /= CONSUMERS as i64;
        }
        let bits = i64::from(tt_dialect::types::bit_width(alloc_type.element).unwrap_or(8));
        let bytes = shape.iter().product::<i64>() * bits / 8;
        let count = if l.once { 1 } else { plan.buffers };
        let ring_shape: Vec<i64> = std::iter::once(count).chain(shape).collect();
        let ty = MemDesc {
            shape: ring_shape.clone(),
            alloc_shape: ring_shape,
            mutable: true,
            ..alloc_type
        }
        .to_type()
        .to_raw();
        let consumers: Vec<Option<usize>> = if l.split {
            (0..CONSUMERS).map(Some).collect()
        } else {
            vec![None]
        };
        for consumer in consumers {
            let buffers = ir::result(
                ir::build_op(for_op, "ttg.local_alloc", &[], &[ty], &[], loc),
                0,
            );
            let readers = if consumer.is_some() {
                1
            } else {
                CONSUMERS as i64
            };
            let full = init_barriers(for_op, count, 1);
            let empty = init_barriers(for_op, count, readers);
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
    ir::set_operand_list(ws, &caps.values);

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

/// The producer: the loads made once first, then each iteration waits for
/// its rings' buffers to be empty and fills them with TMA copies.
fn produce(plan: &Plan, rings: &[Ring], block: MlirBlock, caps: &mut Captures) {
    let mut e = Emitter::new(plan, block, None);
    let (anchor, ctx) = (e.anchor, ir::context(e.anchor));
    // The producer's ops of the K loop: its loads and the scalars.
    let body_ops: Vec<MlirOperation> = plan
        .body()
        .into_iter()
        .filter(|&op| {
            plan.is_load(op)
                || (ir::region_count(op) == 0
                    && ir::results(op).iter().all(|&r| !is_tile(ir::value_type(r))))
        })
        .collect();
    // The split loads' descriptors of half the rows, made once.
    for l in plan.loads.iter().filter(|l| l.split) {
        e.half_descriptor(caps, ir::operand(l.load, 0));
    }
    let yes = ir::build_constant(e.anchor, e.loc, ir::i1_type(ctx), 1);
    let zero = e.constant(0);
    for (index, l) in plan.loads.iter().enumerate().filter(|(_, l)| l.once) {
        copy_in(&mut e, caps, rings, index, l.load, zero, None, yes);
    }
    let (tiles, start) = e.open_tiles(caps, |op| plan.epilogue.iter().any(|o| o.ptr == op.ptr));
    // The loop carries its scalars (the loads' offsets, say) and the count.
    let scalars: Vec<usize> = scf::region_iter_args(plan.for_op)
        .iter()
        .enumerate()
        .filter(|(_, a)| !is_tile(ir::value_type(**a)))
        .map(|(i, _)| i)
        .collect();
    let inits = scf::init_args(plan.for_op);
    let mut new_inits: Vec<MlirValue> = scalars.iter().map(|&i| e.need(caps, inits[i])).collect();
    new_inits.push(start);
    let new = e.open_loop(caps, plan.for_op, &new_inits, &body_ops);
    let new_args = scf::region_iter_args(new);
    let old_args = scf::region_iter_args(plan.for_op);
    for (k, &i) in scalars.iter().enumerate() {
        e.map.insert(Val(old_args[i]), Val(new_args[k]));
    }
    let count = *new_args.last().expect("the loop carries the count");
    e.anchor = ir::terminator(scf::body(new)).expect("a loop body ends in its yield");
    let (index, phase) = e.position(count);
    let one = e.constant(1);
    let empty_phase = e.binary("arith.xori", phase, one);
    let yes = ir::build_constant(e.anchor, e.loc, ir::i1_type(ctx), 1);
    for &op in &body_ops {
        match plan.loads.iter().position(|l| l.load.ptr == op.ptr) {
            Some(load) => copy_in(&mut e, caps, rings, load, op, index, Some(empty_phase), yes),
            None => {
                let clone = ir::clone_mapped(op, &mut e.map);
                ir::insert_before(e.anchor, clone);
            }
        }
    }
    let yielded = scf::yielded_values(plan.for_op);
    let values = scalars
        .iter()
        .map(|&i| ir::lookup_or_self(&e.map, yielded[i]))
        .collect();
    e.close_loop(new, values, count);
    e.close_tiles(tiles, *ir::results(new).last().expect("the count"), anchor);
}

/// The producer's copy of `load` into buffer `index` of each of its rings
/// (A's halves through the descriptor of half the rows, the second at its
/// row offset): after waiting for the buffer to be empty (at `empty_phase`;
/// a ring filled once is never waited on), the bytes expected on its full
/// barrier, then the TMA copy.
#[allow(clippy::too_many_arguments)]
fn copy_in(
    e: &mut Emitter,
    caps: &mut Captures,
    rings: &[Ring],
    load: usize,
    op: MlirOperation,
    index: MlirValue,
    empty_phase: Option<MlirValue>,
    yes: MlirValue,
) {
    let i32t = ir::i32_type(ir::context(op));
    let operands = ir::operands(op);
    for ring in rings.iter().filter(|r| r.load == load) {
        if let Some(phase) = empty_phase {
            e.wait(caps, ring.empty, index, phase);
        }
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
        let mut coords: Vec<MlirValue> = operands[1..].iter().map(|&c| e.need(caps, c)).collect();
        if let Some(c @ 1..) = ring.consumer {
            let offset = e.constant(c as i64 * e.plan.rows / CONSUMERS as i64);
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

/// Consumer `consumer`: the tiles loaded once waited for first; each
/// iteration runs the K loop's ops on its rows, waiting for each ring's
/// buffer before its first reader and freeing it after its last; then its
/// rows' epilogue.
fn consume(plan: &Plan, rings: &[Ring], consumer: usize, block: MlirBlock, caps: &mut Captures) {
    let mut e = Emitter::new(plan, block, Some(consumer));
    let (anchor, ctx) = (e.anchor, ir::context(e.anchor));
    let mine: Vec<&Ring> = rings.iter().filter(|r| r.read_by(consumer)).collect();
    // The stores' descriptors of half the rows, made once.
    for &op in &plan.epilogue {
        if ir::is(op, "tt.descriptor_store") && plan.splits.contains_key(&Val(ir::operand(op, 1))) {
            e.half_descriptor(caps, ir::operand(op, 0));
        }
    }
    let zero = e.constant(0);
    for ring in mine.iter().filter(|r| plan.loads[r.load].once) {
        let view = ready(&mut e, caps, ring, zero, zero);
        e.map
            .insert(Val(ir::result(plan.loads[ring.load].alloc, 0)), Val(view));
    }
    let inits: Vec<MlirValue> = scf::init_args(plan.for_op)
        .into_iter()
        .map(|v| e.need(caps, v))
        .collect();
    let (tiles, start) = e.open_tiles(caps, |op| plan.is_load(op));
    let mut new_inits = inits;
    new_inits.push(start);
    let body_ops: Vec<MlirOperation> = plan
        .body()
        .into_iter()
        .filter(|&op| !plan.is_load(op))
        .collect();
    let new = e.open_loop(caps, plan.for_op, &new_inits, &body_ops);
    let new_args = scf::region_iter_args(new);
    for (old, &arg) in scf::region_iter_args(plan.for_op)
        .into_iter()
        .zip(&new_args)
    {
        e.map.insert(Val(old), Val(arg));
    }
    let count = *new_args.last().expect("the loop carries the count");
    e.anchor = ir::terminator(scf::body(new)).expect("a loop body ends in its yield");
    let (index, phase) = e.position(count);
    let i32t = ir::i32_type(ctx);
    for op in body_ops {
        if let Some(load) = plan.load_stored_by(op) {
            let ring = mine
                .iter()
                .find(|r| r.load == load)
                .expect("each consumer reads every load");
            let view = ready(&mut e, caps, ring, index, phase);
            e.map.insert(Val(ir::result(op, 0)), Val(view));
            continue;
        }
        split_clone(&mut e, caps, op);
        for ring in mine
            .iter()
            .filter(|r| plan.loads[r.load].last_use.is_some_and(|u| u.ptr == op.ptr))
        {
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
    }
    let values = scf::yielded_values(plan.for_op)
        .into_iter()
        .map(|v| ir::lookup_or_self(&e.map, v))
        .collect();
    e.close_loop(new, values, count);
    for (old, new) in ir::results(plan.for_op).into_iter().zip(ir::results(new)) {
        e.map.insert(Val(old), Val(new));
    }
    // The epilogue follows the K loop: in the tile loop, or at the end.
    e.anchor = match tiles {
        Some(t) => ir::terminator(scf::body(t)).expect("a loop body ends in its yield"),
        None => anchor,
    };
    for &op in &plan.epilogue {
        split_clone(&mut e, caps, op);
    }
    e.close_tiles(tiles, *ir::results(new).last().expect("the count"), anchor);
}

/// Waits until buffer `index` of `ring` is full (at `phase`) and returns
/// the consumer's view of it: immutable, with the consumer's rows of a
/// split load.
fn ready(
    e: &mut Emitter,
    caps: &mut Captures,
    ring: &Ring,
    index: MlirValue,
    phase: MlirValue,
) -> MlirValue {
    e.wait(caps, ring.full, index, phase);
    let l = &e.plan.loads[ring.load];
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
    ir::result(view, 0)
}

/// Clones `op` into the emitter's consumer region with its share of every
/// split tensor: split results retyped, ranges and splat constants cut to
/// its rows, a store through a descriptor sent through a descriptor of its
/// rows at its row offset.
fn split_clone(e: &mut Emitter, caps: &mut Captures, op: MlirOperation) {
    for operand in ir::operands(op) {
        e.need(caps, operand);
    }
    let consumer = e.consumer;
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
    for (old, new) in ir::results(op).into_iter().zip(ir::results(clone)) {
        let Some(d) = e.plan.splits.get(&Val(old)).copied() else {
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
}
