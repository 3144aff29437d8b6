//! `tritongpu-optimize-partition-warps`: gives each partition of a
//! `ttg.warp_specialize` as few warps as its tensors allow, and a guess of
//! the registers it needs, as Triton 3.6's `OptimizePartitionWarps` does.
//!
//! - A partition's register need is twice the i32 registers of its largest
//!   tensor (an operand or result of any op inside it): elements per thread
//!   x lanes x warps of its layout x element bits / 32, pointers counting 64
//!   bits. A partition without tensors needs none.
//! - Assuming the 64K registers of an SM are split evenly over all warps
//!   (the default warps and every partition's), one partition at a time
//!   halves its warps while its tensor still fits in the registers each
//!   thread would then get, until no partition can shrink. A partition never
//!   goes below its minimum: 1 warp, or, for the last op (in walk order)
//!   that sets one, 2 for TMA gathers and scatters and 4 for tensor-memory
//!   loads, stores and allocations.
//! - `requestedRegisters` becomes 88 for partitions with tensors and 24 for
//!   the others; `partitionNumWarps` the new counts.
//! - A partition with tensors whose warp count changed is laid out again:
//!   its body moves into a `tt.func` of a temporary module (the module's
//!   attributes, the captures' axis facts on the arguments), every tensor
//!   loses its encoding, and `convert-triton-to-tritongpu` (new warp count),
//!   `relayout-tritongpu`, `tritongpu-coalesce`,
//!   `tritongpu-remove-layout-conversions`,
//!   `tritongpu-optimize-thread-locality`, `tritongpu-accelerate-matmul` and
//!   `tritongpu-remove-layout-conversions` run on it before the body moves
//!   back.
//!
//! A partition that captures a tensor, or whose tensors have no layout this
//! pass can read, is refused with a located error rather than laid out
//! wrongly, as is a module without a `ttg.target` when a relayout is needed.

use melior::ir::{operation::OperationRef, r#type::TypeLike, Attribute, Type, Value};
use mlir_sys::{MlirOperation, MlirRegion, MlirType};

use tt_dialect::types::{self, TensorView};
use ttg_dialect::layout::Layout;
use ttg_dialect::to_linear::to_linear_layout;

use crate::analysis::axis_info::AxisInfoMap;
use crate::nested::NestedPipeline;
use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttir::loop_support::ir;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUOptimizePartitionWarps",
    argument: "tritongpu-optimize-partition-warps",
    description: "Shrink the warps of warp-specialized partitions to what their tensors need, and lay them out again",
    anchor: "builtin.module",
    run,
};

/// The registers of one SM (Blackwell).
const TOTAL_REGISTERS: i64 = 1 << 16;

fn run(module: OperationRef) -> PassResult {
    let raw = module.to_raw();
    let ws_ops = ir::collect_post(raw, &|op| ir::is(op, "ttg.warp_specialize"));
    if ws_ops.is_empty() {
        return Ok(());
    }
    let axis = AxisInfoMap::analyze(module);
    for ws in ws_ops {
        optimize(raw, ws, &axis)?;
    }
    Ok(())
}

fn op_ref<'c, 'a>(op: MlirOperation) -> OperationRef<'c, 'a> {
    // SAFETY: every op handed here is a live op of the module the pass runs
    // on, which outlives the reference.
    unsafe { OperationRef::from_raw(op) }
}

/// The partition regions of `ws` (those of its
/// `ttg.warp_specialize.partitions` op).
fn partition_regions(ws: MlirOperation) -> Option<Vec<MlirRegion>> {
    let region = *ir::regions(ws).get(1)?;
    let block = *ir::blocks(region).first()?;
    let holder = ir::block_ops(block)
        .into_iter()
        .find(|op| ir::is(*op, "ttg.warp_specialize.partitions"))?;
    Some(ir::regions(holder))
}

/// Triton's `getTensorNumI32Regs`: the i32 registers a tensor of type `ty`
/// takes over all the threads of its layout.
fn tensor_registers(ty: MlirType) -> Result<i64, String> {
    // SAFETY: a type of the live module; types live as long as the context.
    let melior_ty = unsafe { Type::from_raw(ty) };
    let view = TensorView::of(melior_ty).ok_or("expected a ranked tensor")?;
    let encoding = view
        .encoding
        .ok_or_else(|| format!("tensor type {melior_ty} has no layout"))?;
    let layout = Layout::read(encoding)
        .filter(Layout::is_distributed)
        .ok_or_else(|| format!("cannot read the distributed layout of {melior_ty}"))?;
    let linear = to_linear_layout(&layout, view.shape)?;
    let elements = i64::from(linear.total_elems_per_thread())
        * i64::from(linear.in_dim_size("lane"))
        * i64::from(linear.in_dim_size("warp"));
    let element = view.element;
    let bits = if types::is_pointer(element) {
        64
    } else if let Some(width) = ir::integer_width(element.to_raw()) {
        i64::from(width)
    } else if element.is_float() {
        // SAFETY: `element` is a float type.
        i64::from(unsafe { mlir_sys::mlirFloatTypeGetWidth(element.to_raw()) })
    } else {
        return Err(format!("cannot size the elements of {melior_ty}"));
    };
    Ok(elements * bits / 32)
}

/// Triton's `getMinWarpsForOp` as Triton 3.6 applies it: the last op that
/// asks for a minimum sets it.
fn op_min_warps(op: MlirOperation) -> Option<i32> {
    match ir::name(op).as_str() {
        "ttng.async_tma_gather" | "ttng.async_tma_scatter" => Some(2),
        "ttng.tmem_load" | "ttng.tmem_store" | "ttng.tmem_alloc" => Some(4),
        _ => None,
    }
}

/// Every op nested in `region`, post-order (MLIR's walk order).
fn region_ops_post(region: MlirRegion) -> Vec<MlirOperation> {
    let mut out = Vec::new();
    for op in ir::region_ops(region) {
        out.extend(ir::collect_post(op, &|_| true));
    }
    out
}

fn optimize(module: MlirOperation, ws: MlirOperation, axis: &AxisInfoMap) -> PassResult {
    let Some(partitions) = partition_regions(ws) else {
        return Err(fail(
            op_ref(ws),
            "expected a 'ttg.warp_specialize.partitions' op",
        ));
    };
    let old_warps = ir::attribute(ws, "partitionNumWarps")
        .and_then(ir::dense_i32_array)
        .unwrap_or_default();
    if old_warps.len() != partitions.len() {
        return Err(fail(
            op_ref(ws),
            "'partitionNumWarps' does not list one count per partition",
        ));
    }

    let mut tensor_regs = Vec::with_capacity(partitions.len());
    let mut min_warps = Vec::with_capacity(partitions.len());
    for &partition in &partitions {
        let mut regs = 0i64;
        let mut minimum = 1i32;
        for op in region_ops_post(partition) {
            for value in ir::operands(op).into_iter().chain(ir::results(op)) {
                let ty = ir::value_type(value);
                // SAFETY: a type of a live value.
                if TensorView::of(unsafe { Type::from_raw(ty) }).is_none() {
                    continue;
                }
                let needed = tensor_registers(ty).map_err(|m| fail(op_ref(op), &m))?;
                regs = regs.max(needed);
            }
            if let Some(m) = op_min_warps(op) {
                minimum = m;
            }
        }
        // The largest tensor is taken to be half of what the partition uses.
        tensor_regs.push(regs * 2);
        min_warps.push(minimum);
    }

    let threads_per_warp = ir::module_int(ws, "ttg.threads-per-warp").unwrap_or(32);
    let default_warps = ir::lookup_num_warps(ws).map_or(4, i64::from);
    let mut new_warps = old_warps.clone();
    if threads_per_warp > 0 {
        loop {
            let total: i64 = default_warps + new_warps.iter().map(|&w| i64::from(w)).sum::<i64>();
            let mut changed = false;
            for ((warps, &minimum), &regs) in new_warps.iter_mut().zip(&min_warps).zip(&tensor_regs)
            {
                if *warps <= minimum {
                    continue;
                }
                let half = i64::from(*warps / 2);
                let next_total = total - half;
                if half <= 0 || next_total <= 0 {
                    continue;
                }
                let required = regs / threads_per_warp / half;
                let available = TOTAL_REGISTERS / threads_per_warp / next_total;
                if required <= available {
                    *warps /= 2;
                    changed = true;
                    break;
                }
            }
            if !changed {
                break;
            }
        }
    }

    let mut requested = Vec::with_capacity(partitions.len());
    for (index, &partition) in partitions.iter().enumerate() {
        let has_tensors = tensor_regs[index] != 0;
        requested.push(if has_tensors { 88 } else { 24 });
        if new_warps[index] == old_warps[index] || !has_tensors {
            continue;
        }
        relayout(
            module,
            ws,
            partition,
            old_warps[index],
            new_warps[index],
            axis,
        )
        .map_err(|message| {
            fail(
                op_ref(ws),
                &format!(
                    "cannot lay out partition {index} again for {} warps: {message}",
                    new_warps[index]
                ),
            )
        })?;
    }
    let ctx = ir::context(ws);
    ir::set_attribute(
        ws,
        "requestedRegisters",
        ir::dense_i32_array_attr(ctx, &requested),
    );
    ir::set_attribute(
        ws,
        "partitionNumWarps",
        ir::dense_i32_array_attr(ctx, &new_warps),
    );
    Ok(())
}

/// `ty` without tensor encodings (also inside a pointer to a tensor).
fn strip_encoding(ty: MlirType) -> MlirType {
    // SAFETY: a type of the live module.
    let melior_ty = unsafe { Type::from_raw(ty) };
    if let Some(view) = TensorView::of(melior_ty) {
        if view.encoding.is_none() {
            return ty;
        }
        // SAFETY: the shape and element come from a ranked tensor type; a
        // null attribute is "no encoding".
        return unsafe {
            mlir_sys::mlirRankedTensorTypeGet(
                view.shape.len() as isize,
                view.shape.as_ptr(),
                view.element.to_raw(),
                mlir_sys::mlirAttributeGetNull(),
            )
        };
    }
    if let Some((pointee, space)) = types::pointer_parts(melior_ty) {
        if TensorView::of(pointee).is_some() {
            // SAFETY: a type of the context, as above.
            let stripped = unsafe { Type::from_raw(strip_encoding(pointee.to_raw())) };
            return types::pointer_type(stripped, space).to_raw();
        }
    }
    ty
}

/// Replaces every op named `from` directly in `region`'s blocks by a
/// `to` op without operands.
fn replace_terminators(region: MlirRegion, from: &str, to: &str) {
    for block in ir::blocks(region) {
        for op in ir::block_ops(block) {
            if ir::is(op, from) && ir::operand_count(op) == 0 {
                let new = ir::create_op(to, ir::location(op), &[], &[], &[], Vec::new());
                ir::insert_before(op, new);
                ir::erase(op);
            }
        }
    }
}

/// Triton's `relayoutWarps`: lays the tensors of `partition` out again for
/// `new_warps` warps, through a temporary module.
fn relayout(
    module: MlirOperation,
    ws: MlirOperation,
    partition: MlirRegion,
    old_warps: i32,
    new_warps: i32,
    axis: &AxisInfoMap,
) -> Result<(), String> {
    let ctx = ir::context(module);
    let Some(entry) = ir::blocks(partition).first().copied() else {
        return Ok(());
    };
    let arg_types: Vec<MlirType> = ir::block_args(entry)
        .into_iter()
        .map(ir::value_type)
        .collect();
    for &ty in &arg_types {
        if strip_encoding(ty).ptr != ty.ptr {
            return Err("the partition captures a tensor: not supported".into());
        }
    }
    let target = ir::attribute(module, "ttg.target")
        // SAFETY: an attribute of the live module.
        .and_then(|a| tt_dialect::ir::string_value(unsafe { Attribute::from_raw(a) }))
        .ok_or("module missing target specification")?;
    let threads_per_warp = ir::module_int(ws, "ttg.threads-per-warp").unwrap_or(32);
    let num_ctas = ir::module_int(ws, "ttg.num-ctas").unwrap_or(1);

    // The captures' axis facts become the container's argument attributes.
    let captures = ir::operands(ws);
    let arg_attrs: Vec<String> = (0..arg_types.len())
        .map(|i| {
            let (contiguity, divisibility, constancy) = match captures.get(i) {
                Some(&capture) => {
                    // SAFETY: a live value of the module.
                    let value = unsafe { Value::from_raw(capture) };
                    (
                        axis.contiguity(value, 0),
                        axis.divisibility(value, 0),
                        axis.constancy(value, 0),
                    )
                }
                None => (1, 1, 1),
            };
            format!(
                "{{tt.constancy = {constancy} : i64, tt.contiguity = {contiguity} : i64, tt.divisibility = {divisibility} : i64}}"
            )
        })
        .collect();
    let arg_attrs = ir::parse_attribute(ctx, &format!("[{}]", arg_attrs.join(", ")))
        .ok_or("cannot build the argument attributes")?;

    let location = ir::location(module);
    // SAFETY: creates a detached module owned here; it is destroyed below.
    let container =
        unsafe { mlir_sys::mlirModuleGetOperation(mlir_sys::mlirModuleCreateEmpty(location)) };
    for (name, value) in ir::attributes(module) {
        ir::set_attribute(container, &name, value);
    }
    let i32_type = ir::i32_type(ctx);
    ir::set_attribute(
        container,
        "ttg.num-warps",
        ir::integer_attr(i32_type, old_warps.into()),
    );

    // SAFETY: builds a function type and attributes of the context; the new
    // region is handed to the function op, which owns it.
    let function = unsafe {
        let function_type = mlir_sys::mlirFunctionTypeGet(
            ctx,
            arg_types.len() as isize,
            arg_types.as_ptr(),
            0,
            std::ptr::null(),
        );
        let name = mlir_sys::mlirStringAttrGet(ctx, melior::StringRef::new("container").to_raw());
        let region = mlir_sys::mlirRegionCreate();
        mlir_sys::mlirRegionTakeBody(region, partition);
        ir::create_op(
            "tt.func",
            location,
            &[],
            &[],
            &[
                ("sym_name", name),
                ("function_type", mlir_sys::mlirTypeAttrGet(function_type)),
                ("arg_attrs", arg_attrs),
            ],
            vec![region],
        )
    };
    // SAFETY: the container's body block is live; it takes ownership.
    unsafe {
        let body =
            mlir_sys::mlirRegionGetFirstBlock(mlir_sys::mlirOperationGetRegion(container, 0));
        mlir_sys::mlirBlockAppendOwnedOperation(body, function);
    }
    let body = ir::regions(function)[0];
    replace_terminators(body, "ttg.warp_return", "tt.return");

    // Strip every tensor encoding.
    ir::walk_pre(function, &mut |op| {
        for value in ir::results(op) {
            strip_value(value);
        }
        for region in ir::regions(op) {
            for block in ir::blocks(region) {
                for value in ir::block_args(block) {
                    strip_value(value);
                }
            }
        }
    });

    let outcome = run_pipelines(container, &target, new_warps, threads_per_warp, num_ctas);

    // Move the body back, whatever the outcome, and drop the container.
    replace_terminators(body, "tt.return", "ttg.warp_return");
    // SAFETY: `partition` is empty (its body moved out above); the
    // container is a detached module owned here.
    unsafe {
        mlir_sys::mlirRegionTakeBody(partition, body);
        mlir_sys::mlirOperationDestroy(container);
    }
    outcome
}

fn strip_value(value: mlir_sys::MlirValue) {
    let ty = ir::value_type(value);
    let stripped = strip_encoding(ty);
    if stripped.ptr != ty.ptr {
        // SAFETY: a live value; the new type differs only in its encoding.
        unsafe { mlir_sys::mlirValueSetType(value, stripped) };
    }
}

fn run_pipelines(
    container: MlirOperation,
    target: &str,
    num_warps: i32,
    threads_per_warp: i64,
    num_ctas: i64,
) -> Result<(), String> {
    let first = NestedPipeline::new(format!(
        "builtin.module(convert-triton-to-tritongpu{{target={target} num-warps={num_warps} threads-per-warp={threads_per_warp} num-ctas={num_ctas} enable-source-remat=true}},relayout-tritongpu)"
    ));
    first.run(op_ref(container))?;
    // Source materializations take their source's layout.
    for cast in ir::collect_post(container, &|op| {
        ir::is(op, "builtin.unrealized_conversion_cast")
    }) {
        if ir::operand_count(cast) == 1 && ir::result_count(cast) == 1 {
            ir::replace_all_uses(ir::result(cast, 0), ir::operand(cast, 0));
            ir::erase(cast);
        }
    }
    let second = NestedPipeline::new(
        "builtin.module(tritongpu-coalesce,tritongpu-remove-layout-conversions,tritongpu-optimize-thread-locality,tritongpu-accelerate-matmul,tritongpu-remove-layout-conversions)",
    );
    second.run(op_ref(container))
}
