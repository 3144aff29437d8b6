//! The last step of `tritongpu-pipeline` (Triton's `pipelineTMAStores`):
//! in every loop of more than one stage (its `tt.num_stages`, else the
//! pass option), tensor-descriptor stores become asynchronous TMA stores.
//!
//! * One shared buffer per stored shape and element type (the
//!   descriptor's encoding), allocated before the loop.
//! * Before each store: `ttng.async_tma_store_wait {pendings = 0}` (the
//!   previous TMA read of the buffer is done), `ttg.local_store` of the
//!   value, `ttng.fence_async_shared`, and the TMA store
//!   (`async_tma_copy_local_to_global`, `async_tma_reduce` or
//!   `async_tma_scatter`).
//! * After the loop: a wait for every store, then each buffer is freed once
//!   (Triton 3.6 frees a shared buffer once per store using it).
//!
//! When some stored descriptor is not a kernel argument, the loop's
//! `tt.make_tensor_descriptor`s are lowered as Triton's
//! `lowerTMADescriptors` does: each writes its descriptor into one of
//! `maxStage` 128-byte global scratch slots (2, one more with a
//! `ttng.warp_group_dot` in the body), chosen by a counter the loop carries
//! (sunk out of the `scf.if`s around the op), with `ttng.tensormap_create`,
//! `ttng.tensormap_fenceproxy_acquire` and
//! `ttng.reinterpret_tensor_descriptor`; the descriptor op is erased
//! (Triton 3.6 leaves it, dead).

use melior::ir::operation::OperationRef;
use melior::ir::{r#type::TypeLike, Type};
use mlir_sys::{MlirAttribute, MlirBlock, MlirOperation, MlirType, MlirValue};
use ttg_dialect::layout::MemDesc;

use crate::rust_pass::{fail, Failure};
use crate::ttgir::pipelining as pl;
use crate::ttgir::tma_lowering::{describable, write_tma_descriptor};
use crate::ttir::loop_support::{ir, scf};

const STORES: [&str; 3] = [
    "tt.descriptor_store",
    "tt.descriptor_reduce",
    "tt.descriptor_scatter",
];

/// The bytes of one TMA descriptor (and their alignment).
const TMA_SIZE_BYTES: i64 = 128;

fn refuse(op: MlirOperation, what: &str) -> Failure {
    // SAFETY: a live op of the module.
    let op = unsafe { OperationRef::from_raw(op) };
    fail(
        op,
        &format!("tritongpu-pipeline: {what} is not supported yet"),
    )
}

/// Refuses, before the pipeliner changes anything, what
/// [`pipeline_tma_stores`] cannot do: stores through descriptors without a
/// shared encoding, scatters with offsets other than `i32`, and, in loops
/// that make their own descriptors, descriptors made under ops other than
/// `scf.if` or that TMA cannot describe here.
pub fn check(module: MlirOperation, default_stages: i64) -> Result<(), Failure> {
    for for_op in pl::for_loops(module) {
        let stages = pl::num_stages_or_default(for_op, default_stages);
        let stores = stores(for_op);
        if stages <= 1 || stores.is_empty() {
            continue;
        }
        for &store in &stores {
            descriptor_encoding(store).ok_or_else(|| {
                refuse(
                    store,
                    "pipelining a store through a descriptor without a shared encoding",
                )
            })?;
            if ir::is(store, "tt.descriptor_scatter") {
                // SAFETY: the type of a live value.
                let ty = unsafe { Type::from_raw(ir::value_type(ir::operand(store, 1))) };
                if tt_dialect::types::Tensor::of(ty).map(|t| t.element.to_string())
                    != Some("i32".into())
                {
                    return Err(refuse(
                        store,
                        "pipelining a TMA scatter with offsets other than i32",
                    ));
                }
            }
        }
        if stores
            .iter()
            .all(|&s| is_kernel_argument(ir::operand(s, 0)))
        {
            continue;
        }
        check_descriptors(for_op)?;
    }
    Ok(())
}

/// Refuses the `tt.make_tensor_descriptor`s of `for_op` that
/// [`lower_tma_descriptors`] cannot multi-buffer: made under ops other
/// than `scf.if`, or not describable by TMA here.
pub fn check_descriptors(for_op: MlirOperation) -> Result<(), Failure> {
    let body = pl::body(for_op);
    for make in ir::collect_post(for_op, &|op| ir::is(op, "tt.make_tensor_descriptor")) {
        if !describable(make) {
            return Err(refuse(
                make,
                "multi-buffering this tensor descriptor (its layout or element type) in TMA",
            ));
        }
        let mut block = ir::op_block(make);
        while block.ptr != body.ptr {
            let parent = ir::block_parent_op(block).expect("nested in the loop");
            if !ir::is(parent, "scf.if") {
                return Err(refuse(
                    make,
                    &format!(
                        "multi-buffering a tensor descriptor made inside '{}'",
                        ir::name(parent)
                    ),
                ));
            }
            block = ir::op_block(parent);
        }
    }
    Ok(())
}

/// Pipelines the TMA stores of every loop of `module` that has more than
/// one stage (`default_stages` where the loop does not say).
pub fn pipeline_tma_stores(module: MlirOperation, default_stages: i64) -> Result<(), Failure> {
    for for_op in pl::for_loops(module) {
        let stages = pl::num_stages_or_default(for_op, default_stages);
        if stages > 1 {
            pipeline_loop(for_op)?;
        }
    }
    Ok(())
}

/// The store ops of `for_op`'s body, nested ones included but not those of
/// inner loops, in pre-order.
fn stores(for_op: MlirOperation) -> Vec<MlirOperation> {
    fn visit(block: MlirBlock, out: &mut Vec<MlirOperation>) {
        for op in ir::block_ops(block) {
            if STORES.iter().any(|n| ir::is(op, n)) {
                out.push(op);
            } else if ir::is(op, "scf.for") {
                continue;
            }
            for region in ir::regions(op) {
                for b in ir::blocks(region) {
                    visit(b, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    visit(pl::body(for_op), &mut out);
    out
}

/// The shared encoding of the descriptor a store writes through.
fn descriptor_encoding(store: MlirOperation) -> Option<MlirAttribute> {
    // SAFETY: the type of a live value.
    let desc = unsafe { Type::from_raw(ir::value_type(ir::operand(store, 0))) };
    tt_dialect::types::tensor_desc_block(desc)
        .and_then(tt_dialect::types::Tensor::of)
        .and_then(|b| b.encoding)
        .map(|e| melior::ir::attribute::AttributeLike::to_raw(&e))
}

/// The stored tensor: after the descriptor in a store or reduce
/// (`desc, src, indices...`), last in a scatter.
fn source(store: MlirOperation) -> MlirValue {
    if ir::is(store, "tt.descriptor_scatter") {
        ir::operand(store, 3)
    } else {
        ir::operand(store, 1)
    }
}

/// Whether `value` is an argument of the enclosing function (Triton's
/// `isHostSideDescriptor`).
fn is_kernel_argument(value: MlirValue) -> bool {
    ir::is_block_argument(value)
        && ir::block_parent_op(ir::value_block(value)).is_some_and(|p| ir::is(p, "tt.func"))
}

fn pipeline_loop(for_op: MlirOperation) -> Result<(), Failure> {
    let stores = stores(for_op);
    if stores.is_empty() {
        return Ok(());
    }
    let ctx = ir::context(for_op);
    let loc = ir::location(for_op);
    // One buffer per stored shape and element type.
    let mut buffers: Vec<(String, MlirValue)> = Vec::new();
    let mut chosen = Vec::new();
    for &store in &stores {
        let src_ty = ir::value_type(source(store));
        // SAFETY: the type of a live value.
        let tensor = tt_dialect::types::Tensor::of(unsafe { Type::from_raw(src_ty) })
            .ok_or_else(|| refuse(store, "pipelining a store of a non-tensor"))?;
        let key = format!("{:?}x{}", tensor.shape, tensor.element);
        let buffer = match buffers.iter().find(|(k, _)| *k == key) {
            Some(&(_, b)) => b,
            None => {
                let encoding = descriptor_encoding(store).expect("checked above");
                let shared_memory = ir::parse_attribute(ctx, "#ttg.shared_memory")
                    .expect("the ttg dialect is loaded");
                // SAFETY: live attributes of the module's context.
                let ty = MemDesc {
                    shape: tensor.shape.clone(),
                    alloc_shape: tensor.shape.clone(),
                    element: tensor.element,
                    encoding: unsafe { melior::ir::Attribute::from_raw(encoding) },
                    memory_space: unsafe { melior::ir::Attribute::from_raw(shared_memory) },
                    mutable: true,
                }
                .to_type();
                let alloc = ir::build_op(
                    for_op,
                    "ttg.local_alloc",
                    &[],
                    &[ty.to_raw()],
                    &[],
                    ir::location(store),
                );
                let b = ir::result(alloc, 0);
                buffers.push((key, b));
                b
            }
        };
        chosen.push(buffer);
    }
    let device_side = stores
        .iter()
        .any(|&s| !is_kernel_argument(ir::operand(s, 0)));
    let i32t = ir::i32_type(ctx);
    for (&store, &buffer) in stores.iter().zip(&chosen) {
        let sloc = ir::location(store);
        ir::build_op(
            store,
            "ttng.async_tma_store_wait",
            &[],
            &[],
            &[("pendings", ir::integer_attr(i32t, 0))],
            sloc,
        );
        ir::build_op(
            store,
            "ttg.local_store",
            &[source(store), buffer],
            &[],
            &[],
            sloc,
        );
        ir::build_op(
            store,
            "ttng.fence_async_shared",
            &[],
            &[],
            &[("bCluster", ir::integer_attr(ir::i1_type(ctx), 0))],
            sloc,
        );
        let operands = ir::operands(store);
        let desc = operands[0];
        if ir::is(store, "tt.descriptor_store") {
            let mut all = vec![desc];
            all.extend(&operands[2..]);
            all.push(buffer);
            ir::build_op(
                store,
                "ttng.async_tma_copy_local_to_global",
                &all,
                &[],
                &[],
                sloc,
            );
        } else if ir::is(store, "tt.descriptor_reduce") {
            let mut all = vec![desc];
            all.extend(&operands[2..]);
            all.push(buffer);
            let kind = ir::attribute(store, "kind").expect("a reduce has a kind");
            ir::build_op(
                store,
                "ttng.async_tma_reduce",
                &all,
                &[],
                &[("kind", kind)],
                sloc,
            );
        } else {
            ir::build_op(
                store,
                "ttng.async_tma_scatter",
                &[desc, operands[1], operands[2], buffer],
                &[],
                &[],
                sloc,
            );
        }
        ir::erase(store);
    }
    // After the loop: wait for every store, then free the buffers.
    let wait = ir::create_op(
        "ttng.async_tma_store_wait",
        loc,
        &[],
        &[],
        &[("pendings", ir::integer_attr(i32t, 0))],
        Vec::new(),
    );
    ir::insert_after(for_op, wait);
    let mut after = wait;
    for (_, buffer) in &buffers {
        let dealloc = ir::create_op("ttg.local_dealloc", loc, &[*buffer], &[], &[], Vec::new());
        ir::insert_after(after, dealloc);
        after = dealloc;
    }
    if device_side {
        // Triton's store pipeliner uses a schedule of three stages here.
        lower_tma_descriptors(for_op, 3);
    }
    Ok(())
}

/// Triton's `lowerTMADescriptors` for a schedule of `stages` stages:
/// each `tt.make_tensor_descriptor` of `for_op` writes its descriptor into
/// one of `stages - 1` slots (one more with a `ttng.warp_group_dot` in the
/// body), chosen by a counter the loop carries. The new ops in the loop
/// take the stage and cluster of their descriptor op, where it has them.
/// Returns the loop that replaces `for_op` ([`check_descriptors`] must
/// have accepted it).
pub fn lower_tma_descriptors(for_op: MlirOperation, stages: i64) -> MlirOperation {
    let makes = ir::collect_post(for_op, &|op| ir::is(op, "tt.make_tensor_descriptor"));
    if makes.is_empty() {
        return for_op;
    }
    let mut max_stage = stages - 1;
    if pl::body_ops(for_op)
        .iter()
        .any(|op| ir::is(*op, "ttng.warp_group_dot"))
    {
        max_stage += 1;
    }
    let ctx = ir::context(for_op);
    let loc = ir::location(for_op);
    let i32t = ir::i32_type(ctx);
    let i8_ptr = ir::parse_type(ctx, "!tt.ptr<i8>").expect("the pointer type parses");
    let scratches: Vec<MlirValue> = makes
        .iter()
        .map(|&make| {
            let alloc = ir::build_op(
                for_op,
                "ttg.global_scratch_alloc",
                &[],
                &[i8_ptr],
                &[
                    ("alignment", ir::integer_attr(i32t, TMA_SIZE_BYTES)),
                    ("nbytes", ir::integer_attr(i32t, max_stage * TMA_SIZE_BYTES)),
                ],
                ir::location(make),
            );
            ir::result(alloc, 0)
        })
        .collect();
    let zero = ir::build_constant(for_op, loc, i32t, 0);
    let one = ir::build_constant(for_op, loc, i32t, 1);
    let first_counter = scf::init_args(for_op).len();
    let extra = vec![zero; makes.len()];
    let for_op = scf::add_iter_args(for_op, &extra);
    // The yield carries the counters from now on (zeros until they are
    // computed), so that rebuilding an `scf.if` whose results it yields
    // updates it.
    let yield_op = pl::terminator(for_op);
    let mut yields = ir::operands(yield_op);
    yields.extend(&extra);
    // SAFETY: the yield is live; the values are live in the body.
    unsafe { mlir_sys::mlirOperationSetOperands(yield_op, yields.len() as isize, yields.as_ptr()) };
    let counters = scf::region_iter_args(for_op)[first_counter..].to_vec();
    let buffers = ir::build_constant(for_op, loc, i32t, max_stage);
    for (k, (&make, &scratch)) in makes.iter().zip(&scratches).enumerate() {
        let mloc = ir::location(make);
        let counter = counters[k];
        // Every op created here goes right before `make`.
        let size = ir::build_constant(make, mloc, i32t, TMA_SIZE_BYTES);
        let first_new = ir::defining_op(size).expect("the constant just built");
        let offset = ir::build_binary(make, "arith.muli", mloc, size, counter);
        let ptr = ir::result(
            ir::build_op(make, "tt.addptr", &[scratch, offset], &[i8_ptr], &[], mloc),
            0,
        );
        write_tma_descriptor(make, ptr, make);
        ir::build_op(
            make,
            "ttng.tensormap_fenceproxy_acquire",
            &[ptr],
            &[],
            &[],
            mloc,
        );
        let desc_ty = ir::value_type(ir::result(make, 0));
        let desc = ir::build_op(
            make,
            "ttng.reinterpret_tensor_descriptor",
            &[ptr],
            &[desc_ty],
            &[],
            mloc,
        );
        ir::replace_all_uses(ir::result(make, 0), ir::result(desc, 0));
        let next = ir::build_binary(make, "arith.addi", mloc, counter, one);
        let wraps = ir::build_cmpi(make, mloc, ir::cmpi::SGE, next, buffers);
        let next = ir::build_select(make, mloc, wraps, zero, next);
        if let (Some(stage), Some(cluster)) = (
            pl::int_attribute(make, pl::STAGE),
            pl::int_attribute(make, pl::CLUSTER),
        ) {
            let ops = ir::block_ops(ir::op_block(make));
            let from = ops.iter().position(|o| o.ptr == first_new.ptr).unwrap_or(0);
            for &op in ops[from..].iter().take_while(|o| o.ptr != make.ptr) {
                pl::set_i32(op, pl::CLUSTER, cluster);
                pl::set_i32(op, pl::STAGE, stage);
            }
        }
        let next = sink(counter, next, ir::op_block(make), pl::body(for_op));
        ir::set_operand(yield_op, first_counter + k, next);
        ir::erase(make);
    }
    for_op
}

/// Triton's `sinkValueRedefinition` through `scf.if`s: `out` (defined in
/// `block`) redefines `in_` (defined in `target`); each if between them
/// gets one more result, `out` from the branch holding it and `in_` from
/// the other. Returns the value that reaches `target`.
fn sink(in_: MlirValue, mut out: MlirValue, mut block: MlirBlock, target: MlirBlock) -> MlirValue {
    while block.ptr != target.ptr {
        let if_op = ir::block_parent_op(block).expect("checked: nested in ifs of the loop");
        let then_block = ir::blocks(ir::regions(if_op)[0])[0];
        let taken_then = block.ptr == then_block.ptr;
        let ty: MlirType = ir::value_type(out);
        let mut replacements = Vec::new();
        let new_if = scf::replace_if_with_new_signature(if_op, &[ty], &mut replacements);
        for (old, new) in replacements {
            ir::replace_all_uses(old, new);
        }
        ir::erase(if_op);
        let regions = ir::regions(new_if);
        if ir::blocks(regions[1]).is_empty() {
            // SAFETY: a new block with a yield for the empty else region.
            unsafe {
                let b = mlir_sys::mlirBlockCreate(0, std::ptr::null(), std::ptr::null());
                mlir_sys::mlirRegionAppendOwnedBlock(regions[1], b);
                let y = ir::create_op("scf.yield", ir::location(new_if), &[], &[], &[], Vec::new());
                mlir_sys::mlirBlockAppendOwnedOperation(b, y);
            }
        }
        for (index, region) in regions.iter().enumerate() {
            let b = ir::blocks(*region)[0];
            let y = ir::terminator(b).expect("an scf.if region ends in a yield");
            let mut operands = ir::operands(y);
            operands.push(if (index == 0) == taken_then { out } else { in_ });
            // SAFETY: the yield is live; the values are live here.
            unsafe {
                mlir_sys::mlirOperationSetOperands(y, operands.len() as isize, operands.as_ptr())
            };
        }
        out = *ir::results(new_if).last().expect("the new result");
        block = ir::op_block(new_if);
    }
    out
}
