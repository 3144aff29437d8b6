//! `triton-nvidia-tma-lowering`: tensor-descriptor ops become Hopper's TMA
//! ops, as Triton 3.6 lowers them (a greedy rewrite, which also folds
//! and removes dead constants):
//!
//! * `tt.descriptor_load` / `tt.descriptor_gather`: a buffer in the
//!   descriptor's shared layout and a one-slot mbarrier, `init_barrier`,
//!   `barrier_expect` of the tile's bytes, the TMA copy (or gather),
//!   `wait_barrier` on phase 0, `inval_barrier`; the users read the buffer:
//!   a `local_alloc` of the result in the same layout becomes the buffer
//!   itself (its views and `warp_group_dot_wait`s take the buffer's mutable
//!   type; not where the allocation leaves through a result or a yield,
//!   whose type cannot change), the others a `local_load` of it;
//! * `tt.descriptor_store` / `tt.descriptor_scatter` /
//!   `tt.descriptor_reduce`: the source in an immutable buffer of the
//!   descriptor's layout (the buffer a `local_load` just read in the same
//!   block, if nothing wrote shared memory since), `fence_async_shared`,
//!   the TMA store (or scatter, or reduction of its kind),
//!   `async_tma_store_wait`;
//! * `tt.make_tensor_descriptor`: a 128-byte global scratch buffer filled
//!   by `tensormap_create` (box, global dims and byte strides innermost
//!   first, the TMA element type and swizzle mode of the layout), then
//!   `tensormap_fenceproxy_acquire` and `reinterpret_tensor_descriptor`.
//!
//! Refused with a located error: clusters of several CTAs, descriptors
//! without a shared layout, and, for `make_tensor_descriptor`, layouts
//! other than NVMMA or an unswizzled one, fp4-padded layouts, and element
//! sizes other than 1, 2, 4 or 8 bytes.

use melior::ir::{
    attribute::{BoolAttribute, IntegerAttribute},
    operation::{OperationLike, OperationRef},
    r#type::{IntegerType, TypeLike},
    Attribute, Identifier, Type, Value, ValueLike,
};
use melior::RewriterBase;

use tt_dialect::ir::{self, create, first_result};
use tt_dialect::rewrite::{apply_greedily, Greedy, Pattern, Root};
use tt_dialect::types::{tensor_desc_block, TensorView};
use ttg_dialect::layout::{descriptor_tile_encoding, tma_block_shape, Layout, MemDesc};

use crate::rust_pass::{fail, PassResult, RustPass};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonNvidiaGPUTMALoweringPass",
    argument: "triton-nvidia-tma-lowering",
    description: "Lower tensor-descriptor ops to TMA ops",
    anchor: "builtin.module",
    run,
};

const fn pattern(rewrite: tt_dialect::rewrite::Rewrite) -> Pattern {
    Pattern {
        benefit: 1,
        rewrite,
        generated: &[],
    }
}

static LOAD: Pattern = pattern(lower_load);
static STORE: Pattern = pattern(lower_store);
static MAKE_DESCRIPTOR: Pattern = pattern(lower_make_descriptor);

const DESCRIPTOR_OPS: [&str; 6] = [
    "tt.descriptor_load",
    "tt.descriptor_gather",
    "tt.descriptor_store",
    "tt.descriptor_scatter",
    "tt.descriptor_reduce",
    "tt.make_tensor_descriptor",
];

fn run(module: OperationRef) -> PassResult {
    let num_ctas = module
        .attribute("ttg.num-ctas")
        .ok()
        .and_then(ir::int_value)
        .map_or(1, |(v, _)| v);
    let mut refused = None;
    module.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default();
        if refused.is_none() && DESCRIPTOR_OPS.contains(&name) {
            // SAFETY: the op lives as long as the module.
            let op = unsafe { OperationRef::from_raw(op.to_raw()) };
            let problem = if num_ctas != 1 {
                Err("clusters of several CTAs".to_owned())
            } else {
                check(op, name)
            };
            if let Err(what) = problem {
                refused = Some((op.to_raw(), what));
            }
        }
        melior::ir::operation::WalkResult::Advance
    });
    if let Some((op, what)) = refused {
        // SAFETY: as above.
        let op = unsafe { OperationRef::from_raw(op) };
        return Err(fail(
            op,
            &format!("'{}' does not support {what} yet", PASS.argument),
        ));
    }
    let patterns: Vec<(Root, &'static Pattern)> = vec![
        (Root::Op("tt.descriptor_load"), &LOAD),
        (Root::Op("tt.descriptor_gather"), &LOAD),
        (Root::Op("tt.descriptor_store"), &STORE),
        (Root::Op("tt.descriptor_scatter"), &STORE),
        (Root::Op("tt.descriptor_reduce"), &STORE),
        (Root::Op("tt.make_tensor_descriptor"), &MAKE_DESCRIPTOR),
    ];
    if apply_greedily(module, &patterns, Greedy::default()) {
        Ok(())
    } else {
        Err(fail(module, "pattern application did not converge"))
    }
}

/// The descriptor of a descriptor op: operand 0, or the result of
/// `tt.make_tensor_descriptor`.
fn descriptor<'c, 'a>(op: OperationRef<'c, 'a>, name: &str) -> Option<Value<'c, 'a>> {
    if name == "tt.make_tensor_descriptor" {
        ir::result(op, 0)
    } else {
        ir::operand(op, 0)
    }
}

/// What this pass cannot lower about `op`, checked before anything changes.
fn check(op: OperationRef, name: &str) -> Result<(), String> {
    let block = descriptor(op, name)
        .and_then(|d| tensor_desc_block(d.r#type()))
        .and_then(TensorView::of)
        .ok_or("a descriptor op without a tensor descriptor")?;
    let encoding = block
        .encoding
        .ok_or("tensor descriptors without a shared layout")?;
    let layout = Layout::read(encoding).ok_or("tensor descriptors without a shared layout")?;
    if name != "tt.make_tensor_descriptor" {
        return match layout {
            Layout::NvmmaShared { .. } | Layout::SwizzledShared { .. } => Ok(()),
            _ => Err("tensor descriptors whose layout is neither NVMMA nor swizzled".into()),
        };
    }
    match layout {
        Layout::NvmmaShared {
            fp4_padded: true, ..
        } => return Err("fp4-padded tensor descriptors".into()),
        Layout::NvmmaShared { .. } => {}
        Layout::SwizzledShared {
            vec: 1,
            per_phase: 1,
            max_phase: 1,
            ..
        } => {}
        _ => return Err("tensor descriptors with a swizzled layout".into()),
    }
    tma_element_type(block.element)?;
    Ok(())
}

/// A buffer of `shape` x `element` in shared memory, in `encoding`.
fn shared_buffer<'c>(
    context: &'c melior::Context,
    shape: &[i64],
    element: Type<'c>,
    encoding: Attribute<'c>,
    mutable: bool,
) -> Type<'c> {
    MemDesc {
        shape: shape.to_vec(),
        alloc_shape: shape.to_vec(),
        element,
        encoding,
        memory_space: Attribute::parse(context, "#ttg.shared_memory")
            .expect("the ttg dialect is loaded"),
        mutable,
    }
    .to_type()
}

fn i32_attr<'c>(
    context: &'c melior::Context,
    name: &str,
    value: i64,
) -> (Identifier<'c>, Attribute<'c>) {
    (
        Identifier::new(context, name),
        IntegerAttribute::new(IntegerType::new(context, 32).into(), value).into(),
    )
}

fn constant<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    op: OperationRef<'c, 'a>,
    bits: u32,
    value: i64,
) -> Value<'c, 'a> {
    let context = rewriter.context();
    // SAFETY: the rewriter's context outlives the rewrite.
    let context = unsafe { context.to_ref() };
    let ty: Type = IntegerType::new(context, bits).into();
    let attr: Attribute = if bits == 1 {
        BoolAttribute::new(context, value != 0).into()
    } else {
        IntegerAttribute::new(ty, value).into()
    };
    first_result(create(
        rewriter,
        "arith.constant",
        op.location(),
        &[],
        &[ty],
        &[(Identifier::new(context, "value"), attr)],
    ))
}

/// The tile a descriptor op moves (the tensor `value`) and the shared
/// layout its buffer takes ([`descriptor_tile_encoding`]).
fn tile<'c>(desc: Value<'c, '_>, value: Value<'c, '_>) -> Option<(TensorView<'c>, Attribute<'c>)> {
    let block = tensor_desc_block(desc.r#type()).and_then(TensorView::of)?;
    let tensor = TensorView::of(value.r#type())?;
    let encoding = descriptor_tile_encoding(block.encoding?, block.shape, tensor.shape)?;
    Some((tensor, encoding))
}

/// `tt.descriptor_load` and `tt.descriptor_gather`.
fn lower_load<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let name = op.name();
    let gather = name.as_string_ref().as_str() == Ok("tt.descriptor_gather");
    let (Some(desc), Some(result)) = (ir::operand(op, 0), ir::result(op, 0)) else {
        return false;
    };
    let Some((tensor, encoding)) = tile(desc, result) else {
        return false;
    };
    let context_ref = rewriter.context();
    // SAFETY: the rewriter's context outlives the rewrite.
    let context = unsafe { context_ref.to_ref() };
    let location = op.location();
    rewriter.set_insertion_point_before(op);
    let buffer_type = shared_buffer(context, tensor.shape, tensor.element, encoding, true);
    let buffer = first_result(create(
        rewriter,
        "ttg.local_alloc",
        location,
        &[],
        &[buffer_type],
        &[],
    ));
    let barrier_encoding = Attribute::parse(
        context,
        "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>",
    )
    .expect("the ttg dialect is loaded");
    let i64_type = IntegerType::new(context, 64).into();
    let barrier_type = shared_buffer(context, &[1], i64_type, barrier_encoding, true);
    let barrier = first_result(create(
        rewriter,
        "ttg.local_alloc",
        location,
        &[],
        &[barrier_type],
        &[],
    ));
    create(
        rewriter,
        "ttng.init_barrier",
        location,
        &[barrier],
        &[],
        &[i32_attr(context, "count", 1)],
    );
    let bits = i64::from(tt_dialect::types::bit_width(tensor.element).unwrap_or(8));
    let bytes = tensor.shape.iter().product::<i64>() * bits / 8;
    let yes = constant(rewriter, op, 1, 1);
    create(
        rewriter,
        "ttng.barrier_expect",
        location,
        &[barrier, yes],
        &[],
        &[i32_attr(context, "size", bytes)],
    );
    let mut operands: Vec<Value> = op.operands().collect();
    operands.extend([barrier, buffer, yes]);
    let copy = if gather {
        "ttng.async_tma_gather"
    } else {
        "ttng.async_tma_copy_global_to_local"
    };
    // The load's cache and eviction hints stay with the copy.
    let hints: Vec<(Identifier, Attribute)> = ["cache", "evict"]
        .iter()
        .filter_map(|&n| ir::inherent_attribute(op, n).map(|a| (Identifier::new(context, n), a)))
        .collect();
    create(rewriter, copy, location, &operands, &[], &hints);
    let phase = constant(rewriter, op, 32, 0);
    create(
        rewriter,
        "ttng.wait_barrier",
        location,
        &[barrier, phase],
        &[],
        &[(
            Identifier::new(context, "operandSegmentSizes"),
            Attribute::parse(context, "array<i32: 1, 1, 0, 0>").expect("a dense array"),
        )],
    );
    create(
        rewriter,
        "ttng.inval_barrier",
        location,
        &[barrier],
        &[],
        &[],
    );
    read_buffer(rewriter, op, result, buffer, encoding);
    rewriter.erase_op(op);
    true
}

/// The users of a loaded `result` read `buffer` instead: a `local_alloc`
/// of it in the buffer's layout is the buffer, the rest a `local_load`.
fn read_buffer<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    op: OperationRef<'c, 'a>,
    result: Value<'c, 'a>,
    buffer: Value<'c, 'a>,
    encoding: Attribute<'c>,
) {
    for user in ir::users(result) {
        let same_layout = ir::is_op(user, "ttg.local_alloc")
            && ir::result(user, 0).is_some_and(|r| {
                MemDesc::of(r.r#type()).is_some_and(|d| d.encoding == encoding) && retypable(r)
            });
        if same_layout {
            if let Some(alloc) = ir::result(user, 0) {
                replace_and_propagate(alloc, buffer);
                rewriter.erase_op(user);
            }
        }
    }
    if ir::has_uses(result) {
        let load = first_result(create(
            rewriter,
            "ttg.local_load",
            op.location(),
            &[buffer],
            &[result.r#type()],
            &[],
        ));
        rewriter.replace_all_uses_with(result, load);
    }
}

/// Whether every use of the buffer `value` (through its views) may see
/// its type become mutable: reads, views, wgmma and its waits; not a
/// function result, a region's yield or an unknown op, whose types are
/// fixed elsewhere (Triton retypes those too, into invalid IR).
fn retypable(value: Value) -> bool {
    ir::users(value).into_iter().all(|user| {
        if VIEWS.iter().any(|v| ir::is_op(user, v)) {
            return ir::result(user, 0).is_some_and(retypable);
        }
        [
            "ttg.local_load",
            "ttng.warp_group_dot",
            "ttng.warp_group_dot_wait",
            "ttg.local_dealloc",
        ]
        .iter()
        .any(|n| ir::is_op(user, n))
    })
}

const VIEWS: [&str; 5] = [
    "ttg.memdesc_index",
    "ttg.memdesc_subslice",
    "ttg.memdesc_trans",
    "ttg.memdesc_reshape",
    "ttg.memdesc_reinterpret",
];

/// Replaces `old` by `new` (a mutable buffer where `old` was immutable):
/// views of it and the `warp_group_dot_wait`s that pass it through take
/// the mutable type too.
fn replace_and_propagate(old: Value, new: Value) {
    let mutable = MemDesc::of(new.r#type()).is_some_and(|d| d.mutable);
    for user in ir::users(old) {
        let positions: Vec<usize> = user
            .operands()
            .enumerate()
            .filter(|(_, v)| *v == old)
            .map(|(i, _)| i)
            .collect();
        for &i in &positions {
            // SAFETY: `i` indexes an operand of the live user.
            unsafe { mlir_sys::mlirOperationSetOperand(user.to_raw(), i as isize, new.to_raw()) };
        }
        let retyped: Vec<(Value, Type)> = if VIEWS.iter().any(|v| ir::is_op(user, v)) {
            ir::result(user, 0)
                .and_then(|r| with_mutable(r.r#type(), mutable).map(|t| (r, t)))
                .into_iter()
                .collect()
        } else if ir::is_op(user, "ttng.warp_group_dot_wait") {
            positions
                .iter()
                .filter_map(|&i| ir::result(user, i).map(|r| (r, new.r#type())))
                .collect()
        } else {
            Vec::new()
        };
        for (value, ty) in retyped {
            if value.r#type() != ty {
                // SAFETY: a result of a live op, given the type its operand
                // now has (a memdesc that differs only in mutability).
                unsafe { mlir_sys::mlirValueSetType(value.to_raw(), ty.to_raw()) };
            }
        }
    }
}

/// `ty` (a memdesc) made mutable when `mutable`, else `None`.
fn with_mutable(ty: Type, mutable: bool) -> Option<Type> {
    let desc = MemDesc::of(ty)?;
    (mutable && !desc.mutable).then(|| {
        MemDesc {
            mutable: true,
            ..desc
        }
        .to_type()
    })
}

/// `tt.descriptor_store`, `tt.descriptor_scatter` and
/// `tt.descriptor_reduce`.
fn lower_store<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let name = op.name();
    let scatter = name.as_string_ref().as_str() == Ok("tt.descriptor_scatter");
    let reduce = name.as_string_ref().as_str() == Ok("tt.descriptor_reduce");
    // desc, src, indices... (store, reduce); desc, x offsets, y offset,
    // src (scatter).
    let operands: Vec<Value> = op.operands().collect();
    let src_index = if scatter { 3 } else { 1 };
    let (Some(&desc), Some(&src)) = (operands.first(), operands.get(src_index)) else {
        return false;
    };
    let Some((tensor, encoding)) = tile(desc, src) else {
        return false;
    };
    let context_ref = rewriter.context();
    // SAFETY: the rewriter's context outlives the rewrite.
    let context = unsafe { context_ref.to_ref() };
    let location = op.location();
    rewriter.set_insertion_point_before(op);
    let buffer = reusable_buffer(op, src, encoding).unwrap_or_else(|| {
        let ty = shared_buffer(context, tensor.shape, tensor.element, encoding, false);
        first_result(create(
            rewriter,
            "ttg.local_alloc",
            location,
            &[src],
            &[ty],
            &[],
        ))
    });
    create(
        rewriter,
        "ttng.fence_async_shared",
        location,
        &[],
        &[],
        &[(
            Identifier::new(context, "bCluster"),
            BoolAttribute::new(context, false).into(),
        )],
    );
    let mut store_operands: Vec<Value> = operands
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != src_index)
        .map(|(_, v)| *v)
        .collect();
    store_operands.push(buffer);
    let (store, attributes) = if scatter {
        ("ttng.async_tma_scatter", Vec::new())
    } else if reduce {
        let Some(kind) = ir::inherent_attribute(op, "kind") else {
            return false;
        };
        (
            "ttng.async_tma_reduce",
            vec![(Identifier::new(context, "kind"), kind)],
        )
    } else {
        ("ttng.async_tma_copy_local_to_global", Vec::new())
    };
    create(rewriter, store, location, &store_operands, &[], &attributes);
    create(
        rewriter,
        "ttng.async_tma_store_wait",
        location,
        &[],
        &[],
        &[i32_attr(context, "pendings", 0)],
    );
    rewriter.erase_op(op);
    true
}

/// The buffer a `local_load` read `src` from, when it has the
/// descriptor's layout and nothing between that load and `op` (in the same
/// block) may have written shared memory.
fn reusable_buffer<'c, 'a>(
    op: OperationRef<'c, 'a>,
    src: Value<'c, 'a>,
    encoding: Attribute<'c>,
) -> Option<Value<'c, 'a>> {
    let load = ir::defined_by(src, "ttg.local_load")?;
    let buffer = ir::operand(load, 0)?;
    if MemDesc::of(buffer.r#type())?.encoding != encoding {
        return None;
    }
    if load.block() != op.block() {
        return Some(buffer);
    }
    let mut next = load.next_in_block();
    while let Some(between) = next {
        if between == op {
            return Some(buffer);
        }
        if ir::is_op(between, "ttg.local_store") || ir::is_op(between, "tt.descriptor_load") {
            return None;
        }
        next = between.next_in_block();
    }
    Some(buffer)
}

/// The TMA element type of `element`, numbered as PTX's
/// `tensormap.replace.tile.elemtype` numbers it, which Triton also writes in
/// its metadata (its launcher maps the codes to `CUtensorMapDataType`,
/// which numbers `f64` and `bf16` differently: 8 and 9 there, 9 and 10
/// here; 8 here is `f32` with flush-to-zero).
fn tma_element_type(element: Type) -> Result<i64, String> {
    let name = element.to_string();
    Ok(match name.as_str() {
        "bf16" => 10,
        "f16" => 6,
        "f32" => 7,
        "f64" => 9,
        _ => match tt_dialect::types::bit_width(element) {
            Some(8) => 0,
            Some(16) => 1,
            Some(32) if name.starts_with("si") => 3,
            Some(32) => 2,
            Some(64) if name.starts_with("si") => 5,
            Some(64) => 4,
            _ => return Err(format!("tensor descriptors of {name} elements")),
        },
    })
}

/// What a TMA descriptor of a tensor descriptor's block says, as Triton
/// fills it: its TMA element type, swizzle mode (`CUtensorMapSwizzle`: 0
/// none, 1, 2, 3 for 32, 64, 128 bytes), the bytes of an element and the
/// box one message moves (outermost dimension first). A block without an
/// NVMMA layout is not swizzled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmaBox {
    pub element_type: i64,
    pub swizzle_mode: i64,
    pub element_bytes: i64,
    pub box_shape: Vec<i64>,
    /// fp4 elements padded to a byte each (NVMMA's `fp4Padded`).
    pub fp4_padded: bool,
}

impl TmaBox {
    /// The descriptor fields of `block` (a tensor descriptor's block type),
    /// or why it has none.
    pub fn of(block: &TensorView) -> Result<Self, String> {
        let element_type = tma_element_type(block.element)?;
        let bits = tt_dialect::types::bit_width(block.element).unwrap_or(8);
        let (swizzle_bytes, transposed, fp4_padded) = match block.encoding.and_then(Layout::read) {
            Some(Layout::NvmmaShared {
                swizzling_byte_width,
                transposed,
                fp4_padded,
                ..
            }) => (swizzling_byte_width, transposed, fp4_padded),
            _ => (0, false, false),
        };
        Ok(Self {
            element_type,
            swizzle_mode: match swizzle_bytes {
                128 => 3,
                64 => 2,
                32 => 1,
                _ => 0,
            },
            element_bytes: i64::from(bits / 8),
            box_shape: tma_block_shape(block.shape, bits, swizzle_bytes, transposed),
            fp4_padded,
        })
    }
}

/// Whether [`write_tma_descriptor`] can describe the descriptor `make` (a
/// `tt.make_tensor_descriptor`) makes: a block with a shared layout, as
/// many sizes and strides as dimensions, and a TMA element type.
pub(crate) fn describable(make: mlir_sys::MlirOperation) -> bool {
    // SAFETY: `make` is a live op.
    let make_ref = unsafe { OperationRef::from_raw(make) };
    let Some(block) = ir::result(make_ref, 0)
        .and_then(|r| tensor_desc_block(r.r#type()))
        .and_then(TensorView::of)
    else {
        return false;
    };
    let operands = make_ref.operand_count();
    block.encoding.and_then(Layout::read).is_some()
        && operands == 1 + 2 * block.shape.len()
        && tma_element_type(block.element).is_ok()
}

/// Triton's `createTMADesc`: before `before`, the `ttng.tensormap_create`
/// that writes the TMA descriptor `make` (a `tt.make_tensor_descriptor`)
/// describes into the 128 bytes at `ptr` (box, global dims and byte
/// strides innermost first, the TMA element type and swizzle mode of the
/// block's layout). `false`, with nothing created, where the layout or
/// element type has no TMA descriptor here.
pub(crate) fn write_tma_descriptor(
    make: mlir_sys::MlirOperation,
    ptr: mlir_sys::MlirValue,
    before: mlir_sys::MlirOperation,
) -> bool {
    use crate::ttir::loop_support::ir as raw;
    if !describable(make) {
        return false;
    }
    // SAFETY: `make` is a live op.
    let make_ref = unsafe { OperationRef::from_raw(make) };
    let Some(result) = ir::result(make_ref, 0) else {
        return false;
    };
    let Some(block) = tensor_desc_block(result.r#type()).and_then(TensorView::of) else {
        return false;
    };
    // base, the shape, the strides (as many as the shape).
    let operands = raw::operands(make);
    let Some((&base, rest)) = operands.split_first() else {
        return false;
    };
    let (shape, strides) = rest.split_at(rest.len() / 2);
    if shape.len() != block.shape.len() || strides.len() != shape.len() {
        return false;
    }
    let Ok(tma) = TmaBox::of(&block) else {
        return false;
    };
    let (element_type, swizzle_mode, box_shape) =
        (tma.element_type, tma.swizzle_mode, tma.box_shape);
    let rank = block.shape.len();
    let ctx = raw::context(make);
    let location = raw::location(make);
    let i32t = raw::i32_type(ctx);
    let i64t = raw::i64_type(ctx);
    let mut boxes = vec![raw::build_constant(
        before,
        location,
        i32t,
        box_shape[rank - 1],
    )];
    for k in (0..rank - 1).rev() {
        boxes.push(raw::build_constant(before, location, i32t, box_shape[k]));
    }
    let global_dims: Vec<_> = shape.iter().rev().copied().collect();
    let element_bytes = raw::build_constant(before, location, i64t, tma.element_bytes);
    let one = raw::build_constant(before, location, i32t, 1);
    let global_strides: Vec<_> = strides[..strides.len().saturating_sub(1)]
        .iter()
        .rev()
        .map(|&s| raw::build_binary(before, "arith.muli", location, s, element_bytes))
        .collect();
    let element_strides = vec![one; rank];
    let fill_mode = match ir::inherent_attribute(make_ref, "padding").and_then(ir::int_value) {
        Some((2, _)) => 1,
        _ => 0,
    };
    let mut all = vec![ptr, base];
    all.extend(&boxes);
    all.extend(&global_dims);
    all.extend(&global_strides);
    all.extend(&element_strides);
    let segments = [
        1,
        1,
        boxes.len() as i32,
        global_dims.len() as i32,
        global_strides.len() as i32,
        element_strides.len() as i32,
    ];
    raw::build_op(
        before,
        "ttng.tensormap_create",
        &all,
        &[],
        &[
            ("elem_type", raw::integer_attr(i32t, element_type)),
            ("fill_mode", raw::integer_attr(i32t, fill_mode)),
            ("interleave_layout", raw::integer_attr(i32t, 0)),
            ("swizzle_mode", raw::integer_attr(i32t, swizzle_mode)),
            (
                "operandSegmentSizes",
                raw::dense_i32_array_attr(ctx, &segments),
            ),
        ],
        location,
    );
    true
}

/// `tt.make_tensor_descriptor`.
fn lower_make_descriptor<'c, 'a>(
    op: OperationRef<'c, 'a>,
    rewriter: &RewriterBase<'c, 'a>,
) -> bool {
    let Some(result) = ir::result(op, 0) else {
        return false;
    };
    let context_ref = rewriter.context();
    // SAFETY: the rewriter's context outlives the rewrite.
    let context = unsafe { context_ref.to_ref() };
    let location = op.location();
    rewriter.set_insertion_point_before(op);
    let pointer_type = tt_dialect::types::pointer_type(IntegerType::new(context, 8).into(), 1);
    let scratch_op = create(
        rewriter,
        "ttg.global_scratch_alloc",
        location,
        &[],
        &[pointer_type],
        &[
            i32_attr(context, "alignment", 128),
            i32_attr(context, "nbytes", 128),
        ],
    );
    let scratch = first_result(scratch_op);
    if !write_tma_descriptor(op.to_raw(), scratch.to_raw(), op.to_raw()) {
        rewriter.erase_op(scratch_op);
        return false;
    }
    create(
        rewriter,
        "ttng.tensormap_fenceproxy_acquire",
        location,
        &[scratch],
        &[],
        &[],
    );
    let descriptor = first_result(create(
        rewriter,
        "ttng.reinterpret_tensor_descriptor",
        location,
        &[scratch],
        &[result.r#type()],
        &[],
    ));
    rewriter.replace_op_with_values(op, &[descriptor]);
    true
}
