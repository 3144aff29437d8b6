//! `tritongpu-coalesce`: gives every global memory access a blocked layout
//! that lets each thread move as wide a vector as the addresses allow, as
//! Triton 3.6's `Coalesce.cpp` and `buildCoalescedEncoding` do.
//!
//! The pass runs the AxisInfo analysis, then walks the module post-order and,
//! for every `tt.load`, `tt.store`, `tt.atomic_rmw`, `tt.atomic_cas` and
//! `ttg.async_copy_global_to_local` whose pointer is a tensor of pointers,
//! picks a layout:
//!
//! * `order`: the dims by decreasing contiguity of the pointer (a stable
//!   sort; see [`order_from_contiguity`] for ties);
//! * elements per thread along `order[0]`: the alignment in elements
//!   (divisibility over element bytes, at least 1), bounded by the
//!   contiguity (itself bounded by the extent) and by one 128-bit vector;
//! * the maximum of that over the memory ops of the same *group*: the ops
//!   in MLIR's `getSlice` of the op (the closure of backward and forward
//!   slices) whose pointer has the same shape and the same order. Only ops
//!   whose pointer has a defining op look at the group;
//! * capped by the elements each thread holds (at least 1), and, for
//!   anything but a load, by the op's own value again, so that a write never
//!   leaves gaps inside a vector.
//!
//! The layout is Triton's blocked builder for that `sizePerThread` and
//! `order` ([`Blocked::build`]). Descriptor loads, gathers, stores, reduces
//! and scatters then get a row-major layout with up to 16 bytes per thread
//! on the last dim.
//!
//! Each chosen op is rebuilt, in the order the ops were found: every tensor
//! operand goes through a `ttg.convert_layout` to the new layout (even when
//! it already has it; a gather's or scatter's row offsets excepted), the op
//! is recreated with the new result layout (an async copy keeps its token
//! type), and each result whose type changed is converted back. Everything
//! lands right before the old op, at its location, in that order; the old op
//! is erased. The leftover conversions are for
//! `tritongpu-remove-layout-conversions` to clean up.

use std::collections::{HashMap, HashSet};

use melior::ir::{
    attribute::AttributeLike, operation::OperationRef, r#type::TypeLike, Type, Value,
};

use mlir_sys::{MlirAttribute, MlirOperation, MlirType, MlirValue};
use tt_dialect::types::{bit_width, pointer_parts, TensorView};

use super::convert_triton_to_tritongpu::Blocked;
use crate::analysis::axis_info::AxisInfoMap;
use crate::rust_pass::{fail, Failure, PassResult, RustPass};
use crate::ttir::loop_support::ir::{self, Op};

pub static PASS: RustPass = RustPass {
    name: "TritonGPUCoalesce",
    argument: "tritongpu-coalesce",
    description: "Coalesce global memory accesses: blocked layouts with the widest vector each pointer allows",
    anchor: "builtin.module",
    run,
};

/// The widest vector one thread moves, in bits.
const MAX_VEC_BITS: u32 = 128;

/// The memory ops whose pointer (always operand 0) decides a layout.
const MEMORY_OPS: &[&str] = &[
    "tt.load",
    "tt.store",
    "tt.atomic_rmw",
    "tt.atomic_cas",
    "ttg.async_copy_global_to_local",
];

fn run(module: OperationRef) -> PassResult {
    let module = module.to_raw();
    let ctx = ir::context(module);
    let threads_per_warp = match ir::attribute(module, "ttg.threads-per-warp") {
        None => 32,
        Some(attr) => positive_int(attr).ok_or_else(|| {
            error(
                module,
                "'ttg.threads-per-warp' must be a positive integer attribute",
            )
        })?,
    };
    if let Some(attr) = ir::attribute(module, "ttg.num-ctas") {
        let Some(num_ctas) = positive_int(attr) else {
            return Err(error(
                module,
                "'ttg.num-ctas' must be a positive integer attribute",
            ));
        };
        // SAFETY: the live module.
        let at = unsafe { OperationRef::from_raw(module) };
        super::plan_cta::refuse_cluster_tensors(at, num_ctas.into(), "tritongpu-coalesce")?;
    }
    let axis = AxisInfoMap::analyze(unsafe { OperationRef::from_raw(module) });

    // The layouts are all chosen before anything changes: the analysis and
    // the slices describe the input IR.
    let mut layouts: Vec<(MlirOperation, Blocked)> = Vec::new();
    for op in ir::collect_post(module, &|op| MEMORY_OPS.iter().any(|n| ir::is(op, n))) {
        let ptr = ir::operand(op, 0);
        let Some(tensor) = ptr_tensor(ptr) else {
            continue;
        };
        if tensor.encoding.is_none() {
            return Err(error(
                op,
                "pointer tensor has no layout: run convert-triton-to-tritongpu first",
            ));
        }
        let num_warps = lookup_num_warps(op)?;
        let layout = coalesced_layout(&axis, op, num_warps, threads_per_warp);
        layouts.push((op, layout));
    }
    for op in ir::collect_post(module, &|op| DESCRIPTOR_OPS.iter().any(|n| ir::is(op, n))) {
        let ty = if ir::is(op, "tt.descriptor_load") || ir::is(op, "tt.descriptor_gather") {
            ir::value_type(ir::result(op, 0))
        } else {
            ir::value_type(ir::operand(op, descriptor_src_index(op)))
        };
        let num_warps = lookup_num_warps(op)?;
        let layout = descriptor_layout(op, ty, num_warps, threads_per_warp)?;
        layouts.push((op, layout));
    }

    let mut encodings: HashMap<String, MlirAttribute> = HashMap::new();
    for (op, layout) in layouts {
        let text = layout.text();
        let encoding = match encodings.get(&text) {
            Some(&attr) => attr,
            None => {
                let attr = ir::parse_attribute(ctx, &text)
                    .ok_or_else(|| error(op, &format!("cannot build the layout {text}")))?;
                encodings.insert(text, attr);
                attr
            }
        };
        rewrite(op, encoding);
    }
    Ok(())
}

/// Emits `message` at `op` and returns the failure.
fn error(op: MlirOperation, message: &str) -> Failure {
    fail(unsafe { OperationRef::from_raw(op) }, message)
}

fn positive_int(attr: MlirAttribute) -> Option<u32> {
    ir::integer_attr_value(attr)
        .filter(|&n| n > 0)
        .and_then(|n| u32::try_from(n).ok())
}

/// A ranked tensor's parts, owned.
struct TensorParts {
    shape: Vec<i64>,
    element: MlirType,
    encoding: Option<MlirAttribute>,
}

fn tensor_parts(ty: MlirType) -> Option<TensorParts> {
    let view = TensorView::of(unsafe { Type::from_raw(ty) })?;
    Some(TensorParts {
        shape: view.shape.to_vec(),
        element: view.element.to_raw(),
        encoding: view.encoding.map(|e| e.to_raw()),
    })
}

/// `value`'s type if it is a ranked tensor of pointers.
fn ptr_tensor(value: MlirValue) -> Option<TensorParts> {
    let parts = tensor_parts(ir::value_type(value))?;
    pointer_parts(unsafe { Type::from_raw(parts.element) })?;
    Some(parts)
}

/// Triton's `getMemAccessPtr`: the pointer of a memory op, if `op` is one.
fn mem_access_ptr(op: MlirOperation) -> Option<MlirValue> {
    (MEMORY_OPS.iter().any(|n| ir::is(op, n)) && ir::operand_count(op) > 0)
        .then(|| ir::operand(op, 0))
}

/// Triton's `lookupNumWarps` ([`ir::lookup_num_warps`]), or the error it
/// gives.
fn lookup_num_warps(op: MlirOperation) -> Result<u32, Failure> {
    ir::lookup_num_warps(op).ok_or_else(|| {
        error(
            op,
            "is not contained within a context that specifies the number of warps",
        )
    })
}

/// The pointee bit width of a tensor of pointers (Triton's
/// `getElementBitWidth`; a pointer pointee counts as 64 bits).
fn pointee_bits(tensor: &TensorParts) -> u32 {
    pointer_parts(unsafe { Type::from_raw(tensor.element) })
        .and_then(|(pointee, _)| bit_width(pointee))
        .unwrap_or(64)
        .max(1)
}

/// The pointer's contiguity per dim (1s where the analysis has nothing).
fn contiguity(axis: &AxisInfoMap, ptr: MlirValue, rank: usize) -> Vec<i64> {
    let value = unsafe { Value::from_raw(ptr) };
    (0..rank).map(|d| axis.contiguity(value, d)).collect()
}

/// Triton's `getOrderFromContiguity`: dims by decreasing contiguity (a
/// stable sort).
///
/// Ties keep the dims in increasing order. The newer upstream source
/// reverses the dims before sorting (ties: last dim first), but Triton
/// 3.6.0 itself, run on a 64x128 load of unknown contiguity ([1, 1]), gives
/// order [0, 1], as its `matmul` dump does for the B load (the lit case
/// `tie` in test/lit/ttg/coalesce.mlir).
fn order_from_contiguity(contiguity: &[i64]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..contiguity.len() as u32).collect();
    order.sort_by(|&x, &y| contiguity[y as usize].cmp(&contiguity[x as usize]));
    order
}

/// Triton's `getNumElementsPerThread`: how many elements along `order0` one
/// thread can access with one aligned vector through `op`'s pointer.
fn elements_per_thread(axis: &AxisInfoMap, op: MlirOperation, order0: usize, shape: &[i64]) -> u32 {
    let ptr = ir::operand(op, 0);
    let Some(tensor) = ptr_tensor(ptr) else {
        return 1;
    };
    let value = unsafe { Value::from_raw(ptr) };
    let bits = pointee_bits(&tensor);
    let bytes = (bits / 8).max(1);
    // C++ reads the 64-bit divisibility into an `unsigned`.
    let multiple_bytes = axis.divisibility(value, order0) as u64 as u32;
    let max_multiple = (multiple_bytes / bytes).max(1);
    let max_contig = axis
        .contiguity(value, order0)
        .min(shape[order0])
        .clamp(0, i64::from(u32::MAX)) as u32;
    max_multiple.min(max_contig).min(MAX_VEC_BITS / bits)
}

/// Triton's `buildCoalescedEncoding` for the memory op `op`.
fn coalesced_layout(
    axis: &AxisInfoMap,
    op: MlirOperation,
    num_warps: u32,
    threads_per_warp: u32,
) -> Blocked {
    let ptr = ir::operand(op, 0);
    let tensor = ptr_tensor(ptr).expect("a tensor of pointers");
    let shape = tensor.shape.clone();
    let order = order_from_contiguity(&contiguity(axis, ptr, shape.len()));
    let order0 = order[0] as usize;

    let mut per_thread = elements_per_thread(axis, op, order0, &shape);
    if ir::defining_op(ptr).is_some() {
        for other in slice(op) {
            if other.0.ptr == op.ptr {
                continue;
            }
            let Some(other_ptr) = mem_access_ptr(other.0) else {
                continue;
            };
            let Some(other_tensor) = tensor_parts(ir::value_type(other_ptr)) else {
                continue;
            };
            if other_tensor.shape != shape
                || order_from_contiguity(&contiguity(axis, other_ptr, shape.len())) != order
            {
                continue;
            }
            per_thread = per_thread.max(elements_per_thread(axis, other.0, order0, &shape));
        }
    }
    let num_elems = shape.iter().product::<i64>();
    let num_threads = i64::from(num_warps) * i64::from(threads_per_warp);
    let cap = (num_elems / num_threads).max(1);
    per_thread = (i64::from(per_thread).min(cap)) as u32;
    if !ir::is(op, "tt.load") {
        per_thread = per_thread.min(elements_per_thread(axis, op, order0, &shape));
    }
    let mut size_per_thread = vec![1u32; shape.len()];
    size_per_thread[order0] = per_thread;
    Blocked::build(&shape, size_per_thread, order, num_warps, threads_per_warp)
}

/// MLIR's `getSlice(op)` with default options, as a set: the closure of
/// `op` under backward steps (the defining op of each operand, unless it is
/// isolated from above; for a block argument, the op owning its block when
/// that op has one region of one block) and forward steps (the users of
/// each result, and every op nested in the op's regions).
fn slice(root: MlirOperation) -> Vec<Op> {
    let mut seen: HashSet<Op> = HashSet::from([Op(root)]);
    let mut order = vec![Op(root)];
    let mut next = 0;
    while next < order.len() {
        let op = order[next].0;
        next += 1;
        let mut reached = Vec::new();
        for value in ir::operands(op) {
            if let Some(def) = ir::defining_op(value) {
                if !isolated(def) {
                    reached.push(def);
                }
            } else if let Some(owner) = ir::block_parent_op(ir::value_block(value)) {
                let regions = ir::regions(owner);
                if regions.len() == 1 && ir::blocks(regions[0]).len() == 1 && !isolated(owner) {
                    reached.push(owner);
                }
            }
        }
        for region in ir::regions(op) {
            for nested in ir::region_ops(region) {
                ir::walk_pre(nested, &mut |inner| reached.push(inner));
            }
        }
        for result in ir::results(op) {
            for (user, _) in ir::uses(result) {
                reached.push(user);
            }
        }
        for op in reached {
            if seen.insert(Op(op)) {
                order.push(Op(op));
            }
        }
    }
    order
}

fn isolated(op: MlirOperation) -> bool {
    tt_dialect::ir::has_trait(
        unsafe { OperationRef::from_raw(op) },
        tt_dialect::ir::Trait::IsolatedFromAbove,
    )
}

/// The descriptor ops that get a layout of their own.
const DESCRIPTOR_OPS: &[&str] = &[
    "tt.descriptor_load",
    "tt.descriptor_gather",
    "tt.descriptor_store",
    "tt.descriptor_reduce",
    "tt.descriptor_scatter",
];

/// The operand that a descriptor store, reduce or scatter writes.
fn descriptor_src_index(op: MlirOperation) -> usize {
    if ir::is(op, "tt.descriptor_scatter") {
        3
    } else {
        1
    }
}

/// Triton's layout for a descriptor access of type `ty`: row-major, up to
/// 16 bytes per thread on the last dim.
fn descriptor_layout(
    op: MlirOperation,
    ty: MlirType,
    num_warps: u32,
    threads_per_warp: u32,
) -> Result<Blocked, Failure> {
    let tensor =
        tensor_parts(ty).ok_or_else(|| error(op, "expected a ranked tensor block type"))?;
    let bits = bit_width(unsafe { Type::from_raw(tensor.element) })
        .filter(|&b| b > 0)
        .ok_or_else(|| error(op, "expected an integer or float element type"))?;
    if tensor.shape.is_empty() {
        return Err(error(op, "expected a tensor of rank at least 1"));
    }
    let num_elems = tensor.shape.iter().product::<i64>();
    let num_threads = i64::from(num_warps) * i64::from(threads_per_warp);
    let per_thread = (num_elems / num_threads).max(1);
    let vector = per_thread.min(i64::from(MAX_VEC_BITS / bits).max(1)) as u32;
    let rank = tensor.shape.len();
    let mut size_per_thread = vec![1u32; rank];
    size_per_thread[rank - 1] = vector;
    let order = (0..rank as u32).rev().collect();
    Ok(Blocked::build(
        &tensor.shape,
        size_per_thread,
        order,
        num_warps,
        threads_per_warp,
    ))
}

fn convert_layout(op: MlirOperation, value: MlirValue, ty: MlirType) -> MlirValue {
    let convert = ir::create_op(
        "ttg.convert_layout",
        ir::location(op),
        &[value],
        &[ty],
        &[],
        Vec::new(),
    );
    ir::insert_before(op, convert);
    ir::result(convert, 0)
}

/// Triton's `convertDistributedOpEncoding`: rebuilds `op` in `encoding`
/// between conversions, right before it, and erases it.
fn rewrite(op: MlirOperation, encoding: MlirAttribute) {
    let skipped = if ir::is(op, "tt.descriptor_gather") || ir::is(op, "tt.descriptor_scatter") {
        Some(1)
    } else {
        None
    };
    let mut operands = Vec::new();
    for (index, value) in ir::operands(op).into_iter().enumerate() {
        match ir::with_encoding(ir::value_type(value), encoding) {
            Some(ty) if skipped != Some(index) => operands.push(convert_layout(op, value, ty)),
            _ => operands.push(value),
        }
    }
    let is_async = ir::is(op, "ttg.async_copy_global_to_local");
    let old_results = ir::results(op);
    let new_types: Vec<MlirType> = old_results
        .iter()
        .map(|&r| {
            let ty = ir::value_type(r);
            if is_async {
                ty
            } else {
                ir::with_encoding(ty, encoding).unwrap_or(ty)
            }
        })
        .collect();
    let attributes = ir::attributes(op);
    let named: Vec<(&str, MlirAttribute)> =
        attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let name = ir::name(op);
    let new_op = ir::create_op(
        &name,
        ir::location(op),
        &operands,
        &new_types,
        &named,
        Vec::new(),
    );
    ir::insert_before(op, new_op);
    for (index, (&old, &new_ty)) in old_results.iter().zip(&new_types).enumerate() {
        let mut new = ir::result(new_op, index);
        let old_ty = ir::value_type(old);
        if !ir::same_type(old_ty, new_ty) {
            new = convert_layout(op, new, old_ty);
        }
        ir::replace_all_uses(old, new);
    }
    ir::erase(op);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_by_decreasing_contiguity_ties_in_dim_order() {
        assert_eq!(order_from_contiguity(&[1, 1]), vec![0, 1]);
        assert_eq!(order_from_contiguity(&[4, 1]), vec![0, 1]);
        assert_eq!(order_from_contiguity(&[1, 4]), vec![1, 0]);
        assert_eq!(order_from_contiguity(&[1, 8, 8]), vec![1, 2, 0]);
        assert_eq!(order_from_contiguity(&[16, 1, 16]), vec![0, 2, 1]);
    }
}
