//! Shared-memory allocation: Triton 3.6's `Allocation` analysis for one CTA.
//!
//! Every `tt.func` is analysed on its own. Buffers are
//! * explicit: each `ttg.local_alloc` in shared memory, of
//!   `numel(allocShape) * bits(element) / 8` bytes, aligned to its
//!   `alignment` attribute or its encoding's (16 for swizzled layouts,
//!   `128 * maxPhase` for NVMMA layouts);
//! * scratch: temporary space an op needs while it runs
//!   ([`scratch_bytes`]), aligned to 128 bytes.
//!
//! An explicit buffer is live over the ops where its value or any value
//! aliasing it (memdesc views, block arguments fed by branches) is live
//! (MLIR's `Liveness` over the CFG, ops numbered in post-order); a scratch
//! buffer over its op alone. Offsets follow Triton's packing: buffers by
//! decreasing size (stable), first placed by the "triple" sweep of
//! "Algorithms for Compile-Time Memory Optimization", then an interference
//! graph (live together and overlapping) is coloured first-fit and every
//! buffer not of colour 0 moves past its interfering neighbours, until
//! nothing interferes. The function's size is the largest end offset.
//!
//! The lowering reads the result back from the IR: [`offset`] on the op
//! (`allocation.offset`) and [`module_shared_bytes`] (`ttg.shared`).

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use melior::ir::{operation::OperationRef, r#type::TypeLike, Type};
use mlir_sys::{MlirBlock, MlirOperation, MlirValue};
use tt_dialect::types::{bit_width, TensorView};
use tt_passes::ttir::loop_support::ir::{self, Blk, Op, Val};
use ttg_dialect::convert_layout::{classify, plan, shuffle_plan, Movement, Plan, ShufflePlan};
use ttg_dialect::layout::{memory_space, Layout, MemDesc, MemorySpace};
use ttg_dialect::linear_layout::LinearLayout;
use ttg_dialect::to_linear::{per_cta, splits_dimension, to_linear_layout};

/// Alignment of every scratch buffer, in bytes.
pub const SCRATCH_ALIGNMENT: u64 = 128;

/// Why an op cannot be allocated: the op and the message.
pub(crate) struct Unsupported {
    /// Where the error belongs.
    pub(crate) op: MlirOperation,
    /// What is not supported (the pass adds its name).
    pub(crate) what: String,
}

fn unsupported(op: MlirOperation, what: impl Into<String>) -> Unsupported {
    Unsupported {
        op,
        what: what.into(),
    }
}

/// The `allocation.offset` Triton's allocation wrote on `op` (a
/// `ttg.local_alloc`, or an op with scratch): its byte offset from the
/// start of the kernel's dynamic shared memory (`@global_smem`).
pub fn offset(op: OperationRef) -> Option<u64> {
    ir::attribute(op.to_raw(), "allocation.offset")
        .and_then(ir::integer_attr_value)
        .and_then(|v| u64::try_from(v).ok())
}

/// The bytes of shared memory `op` owns: a `ttg.local_alloc`'s buffer or
/// an op's scratch, from its `allocation.offset`. `None` when `op` owns
/// none or has no offset (the allocation has not run).
pub fn buffer_range(op: OperationRef) -> Option<Range<u64>> {
    let start = offset(op)?;
    let raw = op.to_raw();
    let bytes = match explicit_buffer(raw).ok()? {
        Some((bytes, _)) => bytes,
        None => scratch(raw).ok()??,
    };
    Some(start..start + bytes)
}

/// The bytes of the shared buffer that the memory descriptor `desc` views:
/// its `ttg.local_alloc`'s, found through the views taken of it (`None`
/// when it comes from elsewhere, e.g. a block argument).
pub fn value_range(desc: melior::ir::Value) -> Option<Range<u64>> {
    let mut value = desc;
    loop {
        let op = tt_dialect::ir::defining_op(value)?;
        if tt_dialect::ir::is_op(op, "ttg.local_alloc") {
            return buffer_range(op);
        }
        if !MEMDESC_VIEWS
            .iter()
            .any(|name| tt_dialect::ir::is_op(op, name))
        {
            return None;
        }
        value = tt_dialect::ir::operand(op, 0)?;
    }
}

/// The module's `ttg.shared`: the bytes of shared memory a CTA needs.
pub fn module_shared_bytes(module: OperationRef) -> Option<u64> {
    ir::attribute(module.to_raw(), "ttg.shared")
        .and_then(ir::integer_attr_value)
        .and_then(|v| u64::try_from(v).ok())
}

/// The scratch bytes `op` needs (Triton's
/// `defaultAllocationAnalysisScratchSizeFn` for the ops below), `Ok(None)`
/// when it needs none. How the lowering must lay the scratch out:
///
/// * `tt.reduce` whose reduced axis spans several warps (`W` = the number
///   of warp bases of the source's linear layout along the axis, `W > 1`):
///   the source shape with the axis replaced by `W`, one slot per warp per
///   output element; every operand's values are stored one after the
///   other (the widest element type's block first), each element taking
///   `ceil(bits / 8)` bytes. Bytes = `numel(shape[axis := W]) * Σ
///   ceil(bits_i / 8)`. A reduction within warps needs none.
/// * `tt.atomic_rmw` / `tt.atomic_cas` with a used scalar result: one
///   element of the pointee type (`max(bits, 8) / 8` bytes) that the
///   issuing thread writes and every thread reads back. With a used tensor
///   result whose layout broadcasts (free register, lane or warp bits): the
///   whole tensor shape, one element each, so the owners can hand values to
///   their duplicates. Unused or broadcast-free results need none.
/// * `tt.histogram`: `max(numel(result), threadsPerWarp)` result elements
///   (`bits / 8` bytes each, at least one byte).
/// * `tt.scan` with several warps along the axis: for every warp, one
///   slot per (chunk of registers along the axis, lane and warp position
///   off the axis, repeated lanes and warps included), as
///   [`crate::lowering::scan::scratch_elements`] counts them on the
///   operand's linear layout; `Σ ceil(bits_i / 8)` bytes per element
///   (operands one after the other, the widest first). One warp along the
///   axis: none.
/// * `ttg.convert_layout`: none when every thread keeps its elements or
///   when data only moves within warps along a pattern Triton shuffles
///   ([`ttg_dialect::convert_layout::classify`]); otherwise Triton's
///   swizzled tile ([`ttg_dialect::convert_layout::plan`] for the compute
///   capability of the module's `ttg.target`, 80 when absent):
///   `numel / reps` elements of `max(bits, 8) / 8` bytes (pointers 8),
///   where the layout maps scratch element `i` of round `rep` to a tensor
///   element; the lowering stores and loads exactly that map, `reps`
///   rounds over the same bytes.
///
/// * `tt.gather`: the source tensor, `numel(src)` elements of
///   `max(bits, 8) / 8` bytes (Triton's general path); none where the
///   layouts let warps shuffle ([`crate::lowering::gather::warp_local`]).
/// * `tt.call` (a `noinline` function): the shared memory the callee and
///   what it calls use (Triton's virtual buffer); the lowering hands the
///   callee a pointer to it.
/// * `ttng.tensormap_create`: the 128-byte TMA descriptor it assembles.
///
/// Refused (`Err`): conversions over several CTAs, scans over layouts
/// that repeat elements in registers or that the lowering cannot scan,
/// warp specialization and calls nested more than 16 deep.
pub fn scratch_bytes(op: OperationRef) -> Result<Option<u64>, String> {
    scratch(op.to_raw()).map_err(|e| e.what)
}

fn scratch(op: MlirOperation) -> Result<Option<u64>, Unsupported> {
    let name = ir::name(op);
    let bytes = match name.as_str() {
        "tt.reduce" => reduce_scratch(op)?,
        "tt.atomic_rmw" | "tt.atomic_cas" => atomic_scratch(op)?,
        "tt.histogram" => histogram_scratch(op)?,
        "ttg.convert_layout" => convert_scratch(op)?,
        "tt.scan" => scan_scratch(op)?,
        "tt.call" => call_scratch(op)?,
        "tt.gather" => gather_scratch(op)?,
        // The descriptor being built: 128 bytes.
        "ttng.tensormap_create" => 128,
        "ttg.warp_specialize" => capture_bytes(op)?,
        "func.call" => return Err(unsupported(op, name)),
        _ => 0,
    };
    Ok((bytes > 0).then_some(bytes))
}

/// What `ttg.warp_specialize` passes its partitions through shared
/// memory: its captures packed back to back (a scalar in its bytes, a
/// pointer in 8, a shared memory descriptor as its base and one 32-bit
/// offset per dimension, another descriptor in 8), as Triton sizes them.
fn capture_bytes(op: MlirOperation) -> Result<u64, Unsupported> {
    let mut bytes = 0;
    for value in ir::operands(op) {
        // SAFETY: the operand of a live op has a live type.
        let ty = unsafe { Type::from_raw(ir::value_type(value)) };
        bytes += if let Some(desc) = MemDesc::of(ty) {
            if memory_space(desc.memory_space) == Some(MemorySpace::Shared) {
                8 + 4 * desc.shape.len() as u64
            } else {
                8
            }
        } else if tt_dialect::types::tensor_desc_block(ty).is_some() {
            8
        } else if let Some(bits) = tt_dialect::types::bit_width(ty) {
            // Pointers count as 64 bits.
            u64::from(bits).div_ceil(8)
        } else {
            return Err(unsupported(op, format!("a capture of type {ty}")));
        };
    }
    Ok(bytes)
}

/// The compute capability of the module around `op` (its `ttg.target`,
/// `cuda:NN`), 80 when there is none.
pub(crate) fn compute_capability(op: MlirOperation) -> u32 {
    let mut at = Some(op);
    while let Some(o) = at {
        if let Some(attr) = ir::attribute(o, "ttg.target") {
            // SAFETY: an attribute of a live op.
            let text =
                tt_dialect::ir::string_value(unsafe { melior::ir::Attribute::from_raw(attr) })
                    .unwrap_or_default();
            if let Some(cc) = text.strip_prefix("cuda:").and_then(|t| t.parse().ok()) {
                return cc;
            }
        }
        at = ir::parent_op(o);
    }
    80
}

/// How a `ttg.convert_layout` moves its data.
pub(crate) enum Conversion {
    /// Registers renumbered within each thread.
    Registers,
    /// Warp shuffles, no scratch.
    Shuffle(ShufflePlan),
    /// The swizzled round trip through the op's scratch.
    Shared(Box<Plan>),
}

/// The movement of a `ttg.convert_layout` and its plan: within each CTA,
/// where the CTAs of a cluster split the tensor (both layouts must give
/// each CTA the same part).
pub(crate) fn convert_plan(op: MlirOperation) -> Result<Conversion, Unsupported> {
    let (shape, element, src) = tensor_of(op, ir::operand(op, 0), true)?;
    let (_, _, dst) = tensor_of(op, ir::result(op, 0), true)?;
    let linear = |layout: &Layout| {
        to_linear_layout(layout, &shape)
            .and_then(|ll| per_cta(&ll, &shape))
            .map_err(|e| unsupported(op, format!("this layout ({e})")))
    };
    let ((src, src_cta), (dst, dst_cta)) = (linear(&src)?, linear(&dst)?);
    if src_cta != dst_cta {
        return Err(unsupported(
            op,
            "ttg.convert_layout between layouts that give the CTAs of a cluster different parts",
        ));
    }
    let fail = |e: String| unsupported(op, format!("ttg.convert_layout with {e}"));
    match classify(&src, &dst).map_err(|e| unsupported(op, e))? {
        Movement::Registers => Ok(Conversion::Registers),
        Movement::WarpShuffle => shuffle_plan(&src, &dst, bits_of(op, element)? as u32)
            .map(Conversion::Shuffle)
            .map_err(fail),
        Movement::SharedMemory => {
            let bits = (bits_of(op, element)? as u32).max(8);
            plan(&src, &dst, bits, compute_capability(op))
                .map(|p| Conversion::Shared(Box::new(p)))
                .map_err(fail)
        }
    }
}

fn convert_scratch(op: MlirOperation) -> Result<u64, Unsupported> {
    if ir::same_type(
        ir::value_type(ir::operand(op, 0)),
        ir::value_type(ir::result(op, 0)),
    ) {
        return Ok(0);
    }
    Ok(match convert_plan(op)? {
        Conversion::Shared(p) => p.scratch_elements * u64::from(p.bits / 8),
        Conversion::Registers | Conversion::Shuffle(_) => 0,
    })
}

/// The shape, element type and layout of the tensor `value`, an operand or
/// result of `op`; refused where its layout spreads over several CTAs
/// unless `clusters` (a caller that works on each CTA's part).
fn tensor_of(
    op: MlirOperation,
    value: MlirValue,
    clusters: bool,
) -> Result<(Vec<i64>, Type<'static>, Layout), Unsupported> {
    let ty = unsafe { Type::from_raw(ir::value_type(value)) };
    let view = TensorView::of(ty).ok_or_else(|| unsupported(op, "a non-tensor operand"))?;
    let layout = view
        .encoding
        .and_then(Layout::read)
        .ok_or_else(|| unsupported(op, "tensors without a layout"))?;
    if !clusters && layout.ctas().unwrap_or(1) > 1 {
        return Err(unsupported(op, "tensors spread over several CTAs"));
    }
    let element = unsafe { Type::from_raw(view.element.to_raw()) };
    Ok((view.shape.to_vec(), element, layout))
}

fn bits_of(op: MlirOperation, ty: Type) -> Result<u64, Unsupported> {
    bit_width(ty)
        .map(u64::from)
        .ok_or_else(|| unsupported(op, format!("elements of type {ty}")))
}

/// How many warps of the layout `ll` hold different parts of dimension
/// `axis`.
fn warps_in(ll: &LinearLayout, axis: usize) -> u64 {
    let out = format!("dim{axis}");
    let Some(k) = ll.out_dim_index(&out) else {
        return 1;
    };
    if !ll.has_in_dim("warp") {
        return 1;
    }
    let n = ll.bases("warp").iter().filter(|b| b[k] != 0).count();
    1 << n
}

/// The axis of the reduction or scan `op` (named `name`) and its first
/// operand's layout (each CTA's part, in a cluster); refused where the
/// cluster's CTAs split that axis (`kind`: what such ops are called).
fn along_unsplit_axis(
    op: MlirOperation,
    name: &str,
    kind: &str,
) -> Result<(usize, crate::lowering::Distributed), Unsupported> {
    let axis = ir::attribute(op, "axis")
        .and_then(ir::integer_attr_value)
        .ok_or_else(|| unsupported(op, format!("{name} without an axis")))? as usize;
    // SAFETY: the operand of a live op has a live type.
    let ty = unsafe { Type::from_raw(ir::value_type(ir::operand(op, 0))) };
    let dist = crate::lowering::Distributed::of(ty).map_err(|e| unsupported(op, e))?;
    if splits_dimension(&dist.block, axis) {
        return Err(unsupported(
            op,
            format!("{kind} along a dimension the CTAs of a cluster split"),
        ));
    }
    Ok((axis, dist))
}

/// The bytes one element of every operand of the reduction or scan `op`
/// takes in its scratch, summed (`ceil(bits / 8)` each).
fn operand_element_bytes(op: MlirOperation) -> Result<u64, Unsupported> {
    let mut bytes = 0;
    for value in ir::operands(op) {
        let (_, element, _) = tensor_of(op, value, true)?;
        bytes += bits_of(op, element)?.div_ceil(8);
    }
    Ok(bytes)
}

/// A reduction's scratch: in a cluster whose CTAs split the operand (along
/// other dimensions than the reduced one), each CTA's part.
fn reduce_scratch(op: MlirOperation) -> Result<u64, Unsupported> {
    let (axis, dist) = along_unsplit_axis(op, "tt.reduce", "reductions")?;
    let warps = warps_in(&dist.layout, axis);
    if warps == 1 {
        return Ok(0);
    }
    let bytes_per_elem = operand_element_bytes(op)?;
    let others: i64 = dist
        .shape
        .iter()
        .enumerate()
        .filter(|&(d, _)| d != axis)
        .map(|(_, &n)| n)
        .product();
    Ok(others as u64 * warps * bytes_per_elem)
}

fn scan_scratch(op: MlirOperation) -> Result<u64, Unsupported> {
    let (axis, dist) = along_unsplit_axis(op, "tt.scan", "scans")?;
    // Each CTA's part, in a cluster whose CTAs split the other dimensions.
    let elems =
        crate::lowering::scan::scratch_elements(&dist, axis).map_err(|e| unsupported(op, e))?;
    let bytes_per_elem = operand_element_bytes(op)?;
    Ok(elems * bytes_per_elem)
}

fn atomic_scratch(op: MlirOperation) -> Result<u64, Unsupported> {
    let result = ir::result(op, 0);
    if !ir::has_uses(result) {
        return Ok(0);
    }
    let pointer = unsafe { Type::from_raw(ir::value_type(ir::operand(op, 0))) };
    let pointee = tt_dialect::types::pointer_parts(tt_dialect::types::element_type(pointer))
        .map(|(p, _)| p)
        .ok_or_else(|| unsupported(op, "atomics on non-pointer operands"))?;
    let elem_bytes = bits_of(op, pointee)?.max(8) / 8;
    let result_ty = unsafe { Type::from_raw(ir::value_type(result)) };
    if TensorView::of(result_ty).is_none() {
        return Ok(elem_bytes);
    }
    let (shape, _, layout) = tensor_of(op, result, false)?;
    let ll = to_linear_layout(&layout, &shape)
        .map_err(|e| unsupported(op, format!("this layout ({e})")))?;
    if ll.free_variable_masks().iter().all(|(_, mask)| *mask == 0) {
        return Ok(0);
    }
    Ok(shape.iter().product::<i64>() as u64 * elem_bytes)
}

fn gather_scratch(op: MlirOperation) -> Result<u64, Unsupported> {
    let axis = ir::attribute(op, "axis")
        .and_then(ir::integer_attr_value)
        .unwrap_or(0);
    // SAFETY: the types of live operands.
    let (src, indices) = unsafe {
        (
            Type::from_raw(ir::value_type(ir::operand(op, 0))),
            Type::from_raw(ir::value_type(ir::operand(op, 1))),
        )
    };
    if crate::lowering::gather::warp_local(src, indices, axis as usize) {
        return Ok(0);
    }
    let (shape, element, _) = tensor_of(op, ir::operand(op, 0), false)?;
    Ok(shape.iter().product::<i64>() as u64 * bits_of(op, element)?.max(8) / 8)
}

fn call_scratch(op: MlirOperation) -> Result<u64, Unsupported> {
    thread_local! {
        static DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    }
    let callee = ir::callee(op).ok_or_else(|| unsupported(op, "a call to an unknown function"))?;
    if DEPTH.with(|d| d.get()) >= 16 {
        return Err(unsupported(op, "calls nested more than 16 deep"));
    }
    DEPTH.with(|d| d.set(d.get() + 1));
    let size = allocate_function(callee).map(|a| a.size);
    DEPTH.with(|d| d.set(d.get() - 1));
    size
}

fn histogram_scratch(op: MlirOperation) -> Result<u64, Unsupported> {
    let (shape, element, _) = tensor_of(op, ir::result(op, 0), false)?;
    let mut module = op;
    while let Some(parent) = ir::parent_op(module) {
        module = parent;
    }
    let threads = ir::attribute(module, "ttg.threads-per-warp")
        .and_then(ir::integer_attr_value)
        .unwrap_or(32);
    let numel = shape.iter().product::<i64>().max(threads) as u64;
    Ok(numel * bits_of(op, element)?.max(8) / 8)
}

/// A buffer: its owner (the `local_alloc` or the op with scratch).
#[derive(Clone)]
struct Buffer {
    owner: MlirOperation,
    kind: BufferKind,
    size: u64,
    alignment: u64,
    offset: u64,
    /// Liveness in post-order op ids, half open.
    live: (usize, usize),
    /// The `ttg.warp_specialize` regions the owner sits in (the op, and 0
    /// for its default region or 1 + the partition): see [`concurrent`].
    regions: Vec<(usize, usize)>,
}

/// The `ttg.warp_specialize` regions around `op`, innermost first: each as
/// the op's address and 0 (default region) or 1 + the partition's index.
fn warp_specialize_regions(op: MlirOperation) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut child = op;
    while let Some(parent) = ir::parent_op(child) {
        let region = ir::block_parent_region(ir::op_block(child));
        let index = ir::regions(parent).iter().position(|r| r.ptr == region.ptr);
        if ir::is(parent, "ttg.warp_specialize") && index == Some(0) {
            out.push((parent.ptr as usize, 0));
        } else if ir::is(parent, "ttg.warp_specialize.partitions") {
            if let (Some(ws), Some(i)) = (ir::parent_op(parent), index) {
                out.push((ws.ptr as usize, i + 1));
            }
        }
        child = parent;
    }
    out
}

/// Whether two buffers belong to different regions of one
/// `ttg.warp_specialize`: those run at the same time on different warps,
/// so the buffers may not share bytes whatever their liveness says.
fn concurrent(a: &Buffer, b: &Buffer) -> bool {
    a.regions
        .iter()
        .any(|(ws, i)| b.regions.iter().any(|(w, j)| w == ws && i != j))
}

fn intersects(a: (u64, u64), b: (u64, u64)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

fn live_intersects(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

fn align(value: u64, alignment: u64) -> u64 {
    value.div_ceil(alignment.max(1)) * alignment.max(1)
}

/// The bytes and alignment of a `ttg.local_alloc` in shared memory, `None`
/// for other ops.
fn explicit_buffer(op: MlirOperation) -> Result<Option<(u64, u64)>, Unsupported> {
    if !ir::is(op, "ttg.local_alloc") {
        return Ok(None);
    }
    let ty = unsafe { Type::from_raw(ir::value_type(ir::result(op, 0))) };
    let desc = MemDesc::of(ty).ok_or_else(|| unsupported(op, "a local_alloc without a memdesc"))?;
    if memory_space(desc.memory_space) != Some(MemorySpace::Shared) {
        return Err(unsupported(op, "allocations outside shared memory"));
    }
    // In a cluster whose CTAs split the buffer, each CTA allocates its part.
    let (local, _) = desc.per_cta().map_err(|e| unsupported(op, &e))?;
    let numel: i64 = local.alloc_shape.iter().product();
    // The elements the buffer spans and Triton's default alignment of its
    // shared encoding.
    let (elements, default_alignment) = match &Layout::read(desc.encoding) {
        Some(Layout::SwizzledShared { .. } | Layout::AmdRotatingShared { .. }) => (numel, 16),
        Some(Layout::NvmmaShared {
            swizzling_byte_width,
            ..
        }) => (
            numel,
            128 * u64::from((*swizzling_byte_width / 16).max(1)),
        ),
        Some(padded @ Layout::PaddedShared { .. }) => {
            let padded =
                ttg_dialect::to_linear::Padded::of(padded).map_err(|e| unsupported(op, &e))?;
            (padded.size(numel), 16)
        }
        Some(Layout::SharedLinear { alignment, .. }) => (numel, u64::from(*alignment)),
        _ => {
            return Err(unsupported(
                op,
                "shared encodings other than swizzled_shared, amd_rotating_shared, nvmma_shared, padded_shared and shared_linear",
            ))
        }
    };
    let alignment = match ir::attribute(op, "alignment") {
        Some(a) => ir::integer_attr_value(a).unwrap_or(default_alignment as i64) as u64,
        None => default_alignment,
    };
    let bits = bits_of(op, desc.element)?;
    Ok(Some((elements as u64 * bits / 8, alignment)))
}

/// MLIR's `Liveness` for the blocks under one op.
struct Liveness {
    live_in: HashMap<Blk, HashSet<Val>>,
    live_out: HashMap<Blk, HashSet<Val>>,
    /// Each op's index within its block.
    position: HashMap<Op, usize>,
}

fn all_blocks(op: MlirOperation) -> Vec<MlirBlock> {
    let mut out = Vec::new();
    ir::walk_pre(op, &mut |nested| {
        for region in ir::regions(nested) {
            out.extend(ir::blocks(region));
        }
    });
    out
}

/// The ancestor of `op` (or `op`) whose block is `block`.
fn ancestor_in_block(block: MlirBlock, mut op: MlirOperation) -> Option<MlirOperation> {
    loop {
        if ir::op_block(op).ptr == block.ptr {
            return Some(op);
        }
        op = ir::parent_op(op)?;
    }
}

fn value_block(value: MlirValue) -> MlirBlock {
    match ir::defining_op(value) {
        Some(def) => ir::op_block(def),
        None => ir::value_block(value),
    }
}

impl Liveness {
    fn new(root: MlirOperation) -> Self {
        let blocks = all_blocks(root);
        let mut position = HashMap::new();
        let mut defs: HashMap<Blk, HashSet<Val>> = HashMap::new();
        let mut uses: HashMap<Blk, HashSet<Val>> = HashMap::new();
        let mut outs: HashMap<Blk, HashSet<Val>> = HashMap::new();
        for &block in &blocks {
            let region = ir::block_parent_region(block);
            let escapes = |value: MlirValue| {
                ir::uses(value).iter().any(|&(user, _)| {
                    let mut b = ir::op_block(user);
                    while ir::block_parent_region(b).ptr != region.ptr {
                        match ir::block_parent_op(b) {
                            Some(p) => b = ir::op_block(p),
                            None => return true,
                        }
                    }
                    b.ptr != block.ptr
                })
            };
            let mut def = HashSet::new();
            let mut out = HashSet::new();
            for arg in ir::block_args(block) {
                def.insert(Val(arg));
                if escapes(arg) {
                    out.insert(Val(arg));
                }
            }
            for (i, op) in ir::block_ops(block).into_iter().enumerate() {
                position.insert(Op(op), i);
                for r in ir::results(op) {
                    def.insert(Val(r));
                    if escapes(r) {
                        out.insert(Val(r));
                    }
                }
            }
            let mut used = HashSet::new();
            for op in ir::block_ops(block) {
                ir::walk_pre(op, &mut |nested| {
                    for r in ir::results(nested) {
                        def.insert(Val(r));
                    }
                    for o in ir::operands(nested) {
                        used.insert(Val(o));
                    }
                    for region in ir::regions(nested) {
                        for child in ir::blocks(region) {
                            for a in ir::block_args(child) {
                                def.insert(Val(a));
                            }
                        }
                    }
                });
            }
            used.retain(|v| !def.contains(v));
            defs.insert(Blk(block), def);
            uses.insert(Blk(block), used);
            outs.insert(Blk(block), out);
        }
        let mut live_in: HashMap<Blk, HashSet<Val>> = HashMap::new();
        let mut live_out = outs;
        loop {
            let mut changed = false;
            for &block in blocks.iter().rev() {
                let key = Blk(block);
                let mut out = live_out[&key].clone();
                if let Some(term) = ir::terminator(block) {
                    for succ in ir::successors(term) {
                        if let Some(s) = live_in.get(&Blk(succ)) {
                            out.extend(s.iter().copied());
                        }
                    }
                }
                let mut inn: HashSet<Val> = uses[&key].clone();
                inn.extend(out.iter().filter(|v| !defs[&key].contains(v)).copied());
                if live_in.get(&key) != Some(&inn) || live_out[&key] != out {
                    changed = true;
                    live_in.insert(key, inn);
                    live_out.insert(key, out);
                }
            }
            if !changed {
                break;
            }
        }
        Self {
            live_in,
            live_out,
            position,
        }
    }

    fn is_live_in(&self, block: MlirBlock, value: MlirValue) -> bool {
        self.live_in
            .get(&Blk(block))
            .is_some_and(|s| s.contains(&Val(value)))
    }

    fn is_live_out(&self, block: MlirBlock, value: MlirValue) -> bool {
        self.live_out
            .get(&Blk(block))
            .is_some_and(|s| s.contains(&Val(value)))
    }

    /// `Liveness::resolveLiveness`: the ops (of any nesting level) at which
    /// `value` is live.
    fn resolve(&self, value: MlirValue) -> Vec<MlirOperation> {
        let mut result = Vec::new();
        let mut visited = HashSet::new();
        let mut todo = vec![value_block(value)];
        visited.insert(Blk(todo[0]));
        for (user, _) in ir::uses(value) {
            let b = ir::op_block(user);
            if visited.insert(Blk(b)) {
                todo.push(b);
            }
        }
        while let Some(block) = todo.pop() {
            let ops = ir::block_ops(block);
            if ops.is_empty() {
                continue;
            }
            let start = match ir::defining_op(value) {
                Some(def) if !self.is_live_in(block, value) => def,
                _ => ops[0],
            };
            let end = if self.is_live_out(block, value) {
                *ops.last().expect("non-empty block")
            } else {
                let mut end = start;
                for (user, _) in ir::uses(value) {
                    if let Some(u) = ancestor_in_block(block, user) {
                        if self.position[&Op(end)] < self.position[&Op(u)] {
                            end = u;
                        }
                    }
                }
                end
            };
            let (from, to) = (self.position[&Op(start)], self.position[&Op(end)]);
            result.extend(ops.iter().take(to + 1).skip(from).copied());
            if let Some(term) = ir::terminator(block) {
                for succ in ir::successors(term) {
                    if self.is_live_in(succ, value) && visited.insert(Blk(succ)) {
                        todo.push(succ);
                    }
                }
            }
        }
        result
    }
}

/// The ops that view their operand's shared buffer (result and operand 0
/// point into the same allocation).
pub(crate) const MEMDESC_VIEWS: &[&str] = &[
    "ttg.memdesc_index",
    "ttg.memdesc_subslice",
    "ttg.memdesc_trans",
    "ttg.memdesc_reshape",
    "ttg.memdesc_reinterpret",
];

/// The allocations a memdesc value may point into (Triton's
/// `SharedMemoryAliasAnalysis` over views and branches).
pub(crate) fn alias_sets(func: MlirOperation) -> Result<HashMap<Val, HashSet<Op>>, Unsupported> {
    let is_memdesc =
        |v: MlirValue| unsafe { MemDesc::of(Type::from_raw(ir::value_type(v))).is_some() };
    let mut sets: HashMap<Val, HashSet<Op>> = HashMap::new();
    let mut ops = Vec::new();
    ir::walk_pre(func, &mut |op| ops.push(op));
    loop {
        let mut changed = false;
        for &op in &ops {
            let add = |v: MlirValue, s: HashSet<Op>, sets: &mut HashMap<Val, HashSet<Op>>| {
                let entry = sets.entry(Val(v)).or_default();
                let before = entry.len();
                entry.extend(s);
                entry.len() != before
            };
            if ir::is(op, "ttg.local_alloc") {
                changed |= add(ir::result(op, 0), HashSet::from([Op(op)]), &mut sets);
            } else if MEMDESC_VIEWS.contains(&ir::name(op).as_str()) {
                let s = sets
                    .get(&Val(ir::operand(op, 0)))
                    .cloned()
                    .unwrap_or_default();
                changed |= add(ir::result(op, 0), s, &mut sets);
            } else if ir::successor_count(op) > 0 {
                let succs = ir::successors(op);
                let operands = ir::operands(op);
                let groups: Vec<&[MlirValue]> = if ir::is(op, "cf.br") {
                    vec![&operands[..]]
                } else if ir::is(op, "cf.cond_br") {
                    let n_true = ir::block_args(succs[0]).len();
                    vec![&operands[1..1 + n_true], &operands[1 + n_true..]]
                } else {
                    if operands.iter().any(|&v| is_memdesc(v)) {
                        return Err(unsupported(
                            op,
                            "memory descriptors passed through this branch",
                        ));
                    }
                    continue;
                };
                for (succ, group) in succs.iter().zip(groups) {
                    for (arg, &v) in ir::block_args(*succ).into_iter().zip(group) {
                        if is_memdesc(v) {
                            let s = sets.get(&Val(v)).cloned().unwrap_or_default();
                            changed |= add(arg, s, &mut sets);
                        }
                    }
                }
            } else if ir::region_count(op) > 0
                && !ir::is(op, "tt.func")
                && ir::results(op).into_iter().any(is_memdesc)
            {
                return Err(unsupported(
                    op,
                    "memory descriptors carried through structured control flow (run convert-scf-to-cf first)",
                ));
            }
        }
        if !changed {
            break;
        }
    }
    sets.retain(|_, s| !s.is_empty());
    Ok(sets)
}

/// The offsets of one function: `(owner, offset)` for every buffer and the
/// function's shared-memory size.
pub(crate) struct FuncAllocation {
    pub(crate) buffers: Vec<Allocated>,
    pub(crate) size: u64,
}

/// Where one buffer went.
pub(crate) struct Allocated {
    /// The `ttg.local_alloc` (explicit) or the op whose scratch it is.
    pub(crate) owner: MlirOperation,
    pub(crate) offset: u64,
    pub(crate) size: u64,
    pub(crate) kind: BufferKind,
}

/// Triton's kinds of buffer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum BufferKind {
    /// A `ttg.local_alloc` in shared memory.
    Explicit,
    /// Temporary space of one op.
    Scratch,
    /// What a called function uses, reserved around the call.
    Virtual,
}

/// Runs the analysis on one `tt.func`.
pub(crate) fn allocate_function(func: MlirOperation) -> Result<FuncAllocation, Unsupported> {
    let mut ids: HashMap<Op, usize> = HashMap::new();
    for op in ir::collect_post(func, &|_| true) {
        let n = ids.len();
        ids.insert(Op(op), n);
    }
    let mut explicit = Vec::new();
    let mut scratch_buffers = Vec::new();
    let mut failure = None;
    ir::walk_pre(func, &mut |op| {
        if failure.is_some() || op.ptr == func.ptr {
            return;
        }
        match explicit_buffer(op) {
            Ok(Some((size, alignment))) => explicit.push(Buffer {
                owner: op,
                kind: BufferKind::Explicit,
                size,
                alignment,
                offset: 0,
                live: (0, 0),
                regions: warp_specialize_regions(op),
            }),
            Ok(None) => {}
            Err(e) => failure = Some(e),
        }
        match scratch(op) {
            Ok(Some(size)) => {
                let id = ids[&Op(op)];
                scratch_buffers.push(Buffer {
                    owner: op,
                    kind: if ir::is(op, "tt.call") {
                        BufferKind::Virtual
                    } else {
                        BufferKind::Scratch
                    },
                    size,
                    // Captures are packed to 8 bytes.
                    alignment: if ir::is(op, "ttg.warp_specialize") {
                        8
                    } else {
                        SCRATCH_ALIGNMENT
                    },
                    offset: 0,
                    live: (id, id + 1),
                    regions: warp_specialize_regions(op),
                });
            }
            Ok(None) => {}
            Err(e) => failure = Some(e),
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    // A function with `ttg.warp_specialize` keeps one byte per partition
    // warp (the state each warp waits on), for its whole run.
    let state_bytes = ir::collect_post(func, &|op| ir::is(op, "ttg.warp_specialize"))
        .into_iter()
        .map(|ws| {
            ir::attribute(ws, "partitionNumWarps")
                .and_then(ir::dense_i32_array)
                .map_or(0, |w| w.iter().map(|&n| u64::from(n.max(0) as u32)).sum())
        })
        .max()
        .unwrap_or(0);
    if state_bytes > 0 {
        scratch_buffers.push(Buffer {
            owner: func,
            kind: BufferKind::Scratch,
            size: state_bytes,
            alignment: 4,
            offset: 0,
            live: (0, usize::MAX),
            regions: Vec::new(),
        });
    }
    if !explicit.is_empty() {
        let liveness = Liveness::new(func);
        let range = |value: MlirValue| {
            let ops = liveness.resolve(value);
            let lo = ops.iter().map(|o| ids[&Op(*o)]).min().unwrap_or(usize::MAX);
            let hi = ops.iter().map(|o| ids[&Op(*o)] + 1).max().unwrap_or(0);
            (lo, hi)
        };
        for buffer in &mut explicit {
            buffer.live = range(ir::result(buffer.owner, 0));
        }
        let aliases = alias_sets(func)?;
        let mut values = Vec::new();
        ir::walk_pre(func, &mut |op| {
            values.extend(ir::operands(op));
            values.extend(ir::results(op));
        });
        for value in values {
            let Some(set) = aliases.get(&Val(value)) else {
                continue;
            };
            let r = range(value);
            for buffer in explicit.iter_mut().filter(|b| set.contains(&Op(b.owner))) {
                buffer.live = (buffer.live.0.min(r.0), buffer.live.1.max(r.1));
            }
        }
    }
    let mut buffers: Vec<Buffer> = explicit.into_iter().chain(scratch_buffers).collect();
    buffers.sort_by_key(|b| std::cmp::Reverse(b.size));
    calculate_starts(&mut buffers);
    loop {
        let graph = interference(&buffers);
        if graph.iter().all(Vec::is_empty) {
            break;
        }
        colour(&mut buffers, &graph);
    }
    let size = buffers.iter().map(|b| b.offset + b.size).max().unwrap_or(0);
    Ok(FuncAllocation {
        buffers: buffers
            .iter()
            .map(|b| Allocated {
                owner: b.owner,
                offset: b.offset,
                size: b.size,
                kind: b.kind,
            })
            .collect(),
        size,
    })
}

/// The first placement: repeatedly take the lowest free slot (offset and
/// the liveness it is free over) and put there the first buffer, in size
/// order, live within it and clear of every other open slot.
fn calculate_starts(buffers: &mut [Buffer]) {
    // (offset, live range), kept sorted by offset, insertion order among
    // equal offsets (a multimap).
    let mut slots: Vec<(u64, (usize, usize))> = vec![(0, (0, usize::MAX))];
    let mut left: Vec<usize> = (0..buffers.len()).collect();
    while !left.is_empty() && !slots.is_empty() {
        let (offset, range) = slots.remove(0);
        let chosen = left.iter().position(|&i| {
            let live = buffers[i].live;
            live_intersects(live, range) && slots.iter().all(|s| !live_intersects(s.1, live))
        });
        let Some(k) = chosen else { continue };
        let i = left.remove(k);
        let b = &mut buffers[i];
        b.offset = align(offset, b.alignment);
        let live = b.live;
        let mut insert = |slot: (u64, (usize, usize))| {
            let at = slots
                .iter()
                .position(|s| s.0 > slot.0)
                .unwrap_or(slots.len());
            slots.insert(at, slot);
        };
        insert((
            b.offset + b.size,
            (range.0.max(live.0), range.1.min(live.1)),
        ));
        if range.0 < live.0 {
            insert((offset, (range.0, live.1)));
        }
        if live.1 < range.1 {
            insert((offset, (live.0, range.1)));
        }
    }
}

fn interference(buffers: &[Buffer]) -> Vec<Vec<usize>> {
    (0..buffers.len())
        .map(|x| {
            (0..buffers.len())
                .filter(|&y| {
                    let (a, b) = (&buffers[x], &buffers[y]);
                    x != y
                        && (live_intersects(a.live, b.live) || concurrent(a, b))
                        && intersects((a.offset, a.offset + a.size), (b.offset, b.offset + b.size))
                })
                .collect()
        })
        .collect()
}

/// First-fit colouring, then every buffer not of colour 0 moves past the
/// buffers it interferes with. Returns the largest end offset.
fn colour(buffers: &mut [Buffer], graph: &[Vec<usize>]) -> u64 {
    let n = buffers.len();
    let mut colours: Vec<i64> = (0..n).map(|i| if i == 0 { 0 } else { -1 }).collect();
    for x in 0..n {
        let mut available = vec![true; n];
        for &y in &graph[x] {
            if colours[y] >= 0 {
                available[colours[y] as usize] = false;
            }
        }
        colours[x] = available.iter().position(|&a| a).unwrap_or(n) as i64;
    }
    let mut size = 0;
    for x in 0..n {
        let new_offset = graph[x]
            .iter()
            .map(|&y| buffers[y].offset + buffers[y].size)
            .max()
            .unwrap_or(0);
        if colours[x] != 0 {
            buffers[x].offset = align(new_offset, buffers[x].alignment);
        }
        size = size.max(buffers[x].offset + buffers[x].size);
    }
    size
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(size: u64, live: (usize, usize)) -> Buffer {
        Buffer {
            owner: MlirOperation {
                ptr: std::ptr::null_mut(),
            },
            kind: BufferKind::Explicit,
            size,
            alignment: 16,
            offset: 0,
            live,
            regions: Vec::new(),
        }
    }

    #[test]
    fn disjoint_lives_share_offset_zero() {
        let mut b = vec![buffer(64, (0, 2)), buffer(32, (3, 5))];
        calculate_starts(&mut b);
        assert_eq!((b[0].offset, b[1].offset), (0, 0));
        assert!(interference(&b).iter().all(Vec::is_empty));
    }

    #[test]
    fn overlapping_lives_stack() {
        let mut b = vec![
            buffer(4096, (0, 10)),
            buffer(32, (4, 5)),
            buffer(32, (6, 7)),
        ];
        calculate_starts(&mut b);
        assert_eq!((b[0].offset, b[1].offset, b[2].offset), (0, 4096, 4096));
    }

    #[test]
    fn colouring_moves_past_neighbours() {
        let mut b = vec![buffer(64, (0, 4)), buffer(64, (2, 6))];
        let graph = interference(&b);
        assert_eq!(graph, vec![vec![1], vec![0]]);
        assert_eq!(colour(&mut b, &graph), 128);
        assert_eq!(b[1].offset, 64);
    }
}
