//! `triton-nvidia-optimize-descriptor-encoding`: every tensor descriptor
//! gets the shared encoding of the buffers its TMA copies fill, as Triton
//! 3.6's pass chooses it, per function:
//!
//! 1. Seeds: a descriptor load or gather asks for the encoding of the
//!    `ttg.local_alloc` (or `ttg.local_store`) that takes its result, where
//!    that is an untransposed NVMMA encoding; a TMA copy into shared memory
//!    asks for its buffer's; loads, gathers and stores record the shape
//!    they move (for gathers and scatters, larger than the block). The
//!    descriptor arguments of a non-kernel function, and descriptors passed
//!    to calls or returned, are forced to the default.
//! 2. The wishes flow between the values an `scf.for`, `scf.while` or
//!    `scf.if` ties together (inits, iter args, yields, results; for a
//!    while, both regions' arguments and the condition's values of one
//!    index); two different wishes force the default, shapes combine to
//!    their minimum.
//! 3. Each descriptor value takes its wish, else the default NVMMA encoding
//!    for its usage shape (or, when forced, its block shape) in row-major
//!    order; function types follow their arguments, and descriptor results
//!    take the default.
//!
//! Not done as Triton does, with a located error: several CTAs and
//! descriptors captured by `ttg.warp_specialize`. Shared-linear user
//! encodings are not matched against NVMMA ones (those loads take the
//! default).

use std::collections::HashMap;

use melior::ir::operation::OperationRef;
use melior::ir::{Attribute, Type};
use mlir_sys::{MlirOperation, MlirValue};
use ttg_dialect::layout::{Layout, MemDesc};

use crate::rust_pass::{Failure, PassResult, RustPass};
use crate::ttir::loop_support::ir::{self, Val};
use crate::ttir::loop_support::scf;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonNvidiaGPUOptimizeDescriptorEncodingPass",
    argument: "triton-nvidia-optimize-descriptor-encoding",
    description: "Choose the shared encodings of tensor descriptors from their uses",
    anchor: "builtin.module",
    run,
};

fn refuse(op: MlirOperation, what: &str) -> Failure {
    crate::rust_pass::unsupported(op, PASS.argument, what)
}

/// What a descriptor value is asked to have.
#[derive(Clone, Debug, Default, PartialEq)]
struct Wish {
    /// The encoding a user needs (a layout text, for comparison).
    desired: Option<String>,
    /// The shape its copies move.
    shape: Vec<i64>,
    /// Two different wishes met, or the value crosses a call: default.
    forced: bool,
}

fn combine(a: &Wish, b: &Wish) -> Wish {
    if a.forced || b.forced {
        return Wish {
            forced: true,
            ..Wish::default()
        };
    }
    let shape = if a.shape.is_empty() || a.shape == b.shape {
        b.shape.clone()
    } else if b.shape.is_empty() {
        a.shape.clone()
    } else {
        a.shape
            .iter()
            .zip(&b.shape)
            .map(|(x, y)| *x.min(y))
            .collect()
    };
    match (&a.desired, &b.desired) {
        (Some(x), Some(y)) if x != y => Wish {
            desired: None,
            shape,
            forced: true,
        },
        (Some(x), _) | (None, Some(x)) => Wish {
            desired: Some(x.clone()),
            shape,
            forced: false,
        },
        (None, None) => Wish {
            desired: None,
            shape,
            forced: false,
        },
    }
}

/// The block tensor of a `!tt.tensordesc` type.
fn block_of(ty: mlir_sys::MlirType) -> Option<tt_dialect::types::Tensor<'static>> {
    // SAFETY: a live type of the module's context.
    let ty = unsafe { Type::from_raw(ty) };
    tt_dialect::types::tensor_desc_block(ty).and_then(tt_dialect::types::Tensor::of)
}

fn is_descriptor(v: MlirValue) -> bool {
    block_of(ir::value_type(v)).is_some()
}

fn tensor_shape(v: MlirValue) -> Vec<i64> {
    // SAFETY: a live value's type.
    tt_dialect::types::Tensor::of(unsafe { Type::from_raw(ir::value_type(v)) })
        .map(|t| t.shape)
        .unwrap_or_default()
}

/// `shape` with leading ones up to `rank` dimensions.
fn expand_to_rank(shape: &[i64], rank: usize) -> Vec<i64> {
    let mut out = vec![1; rank.saturating_sub(shape.len())];
    out.extend_from_slice(shape);
    out
}

/// An encoding a TMA copy can fill: NVMMA, not transposed (its text).
fn tma_compatible(encoding: Option<Attribute>) -> Option<String> {
    let encoding = encoding?;
    match Layout::read(encoding)? {
        Layout::NvmmaShared { transposed, .. } if !transposed => Some(encoding.to_string()),
        _ => None,
    }
}

fn memdesc_encoding(v: MlirValue) -> Option<Attribute<'static>> {
    // SAFETY: a live value's type.
    MemDesc::of(unsafe { Type::from_raw(ir::value_type(v)) }).map(|m| m.encoding)
}

/// Triton's `findLoadEncodingFromUsers`: the first `local_alloc` or
/// `local_store` user whose buffer a TMA copy could fill.
fn encoding_from_users(load: MlirOperation) -> Option<String> {
    if let Some(attr) = ir::attribute(load, "tt.desired_encoding") {
        // SAFETY: a live attribute.
        if let Some(e) = tma_compatible(Some(unsafe { Attribute::from_raw(attr) })) {
            return Some(e);
        }
    }
    for (user, index) in ir::uses(ir::result(load, 0)) {
        let found = if ir::is(user, "ttg.local_alloc") {
            tma_compatible(memdesc_encoding(ir::result(user, 0)))
        } else if ir::is(user, "ttg.local_store") && index == 0 {
            tma_compatible(memdesc_encoding(ir::operand(user, 1)))
        } else {
            None
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Triton's `getUseInfo`: the descriptor `op` uses and what it asks.
fn use_info(op: MlirOperation) -> Option<(MlirValue, Wish)> {
    let name = ir::name(op);
    let desc = *ir::operands(op).first()?;
    let rank = block_of(ir::value_type(desc))?.shape.len();
    let (desired, moved) = match name.as_str() {
        "tt.descriptor_load" | "tt.descriptor_gather" => {
            (encoding_from_users(op), tensor_shape(ir::result(op, 0)))
        }
        // desc, src, indices...
        "tt.descriptor_store" | "tt.descriptor_reduce" => (None, tensor_shape(ir::operand(op, 1))),
        // desc, x offsets, y offset, src
        "tt.descriptor_scatter" => (None, tensor_shape(ir::operand(op, 3))),
        "ttng.async_tma_copy_global_to_local" => {
            let result = ir::operand(op, ir::operand_count(op) - 2);
            // SAFETY: a live value's type.
            let m = MemDesc::of(unsafe { Type::from_raw(ir::value_type(result)) })?;
            (tma_compatible(Some(m.encoding)), m.shape)
        }
        "ttng.async_tma_copy_local_to_global" => {
            let src = ir::operand(op, ir::operand_count(op) - 1);
            // SAFETY: a live value's type.
            let m = MemDesc::of(unsafe { Type::from_raw(ir::value_type(src)) })?;
            (None, m.shape)
        }
        _ => return None,
    };
    Some((
        desc,
        Wish {
            desired,
            shape: expand_to_rank(&moved, rank),
            forced: false,
        },
    ))
}

/// Triton's `getTiedArgs`: the values that must share a type with the
/// `index`-th carried value of `op`.
fn tied(op: MlirOperation, index: usize) -> Vec<MlirValue> {
    if ir::is(op, "scf.for") {
        let (args, results, yields, inits) = (
            scf::region_iter_args(op),
            ir::results(op),
            scf::yielded_values(op),
            scf::init_args(op),
        );
        return [
            args.get(index),
            results.get(index),
            yields.get(index),
            inits.get(index),
        ]
        .into_iter()
        .flatten()
        .copied()
        .collect();
    }
    if ir::is(op, "scf.while") {
        // Before-region arguments, results, the condition's values, inits
        // and after-region arguments, all at `index`.
        let regions = ir::regions(op);
        let before = ir::blocks(regions[0])[0];
        let after = ir::blocks(regions[1])[0];
        let condition = ir::terminator(before)
            .filter(|t| ir::is(*t, "scf.condition"))
            .and_then(|c| ir::operands(c).get(index + 1).copied());
        return [
            ir::block_args(before).get(index).copied(),
            ir::results(op).get(index).copied(),
            condition,
            ir::operands(op).get(index).copied(),
            ir::block_args(after).get(index).copied(),
        ]
        .into_iter()
        .flatten()
        .collect();
    }
    if ir::is(op, "scf.if") {
        let mut out = Vec::new();
        for region in ir::regions(op) {
            for block in ir::blocks(region) {
                if let Some(y) = ir::terminator(block).filter(|t| ir::is(*t, "scf.yield")) {
                    if let Some(&v) = ir::operands(y).get(index) {
                        out.push(v);
                    }
                }
            }
        }
        out.extend(ir::results(op).get(index).copied());
        return out;
    }
    Vec::new()
}

struct Solver {
    wishes: HashMap<Val, Wish>,
    order: Vec<MlirValue>,
    worklist: Vec<MlirValue>,
}

impl Solver {
    fn note(&mut self, v: MlirValue, wish: Wish, queue: bool) {
        if let std::collections::hash_map::Entry::Vacant(e) = self.wishes.entry(Val(v)) {
            e.insert(wish);
            self.order.push(v);
            if queue {
                self.push(v);
            }
        }
    }

    fn push(&mut self, v: MlirValue) {
        self.worklist.retain(|w| w.ptr != v.ptr);
        self.worklist.push(v);
    }

    /// Triton's `updateEncoding`: every value in `values` takes the
    /// combination of their wishes and `wish`.
    fn update(&mut self, values: &[MlirValue], wish: Wish) {
        let mut combined = wish;
        for v in values {
            if let Some(w) = self.wishes.get(&Val(*v)) {
                combined = combine(w, &combined);
            }
        }
        for &v in values {
            match self.wishes.get(&Val(v)) {
                Some(w) if *w == combined => {}
                Some(_) => {
                    self.wishes.insert(Val(v), combined.clone());
                    self.push(v);
                }
                None => {
                    self.wishes.insert(Val(v), combined.clone());
                    self.order.push(v);
                    self.push(v);
                }
            }
        }
    }
}

/// The default NVMMA encoding for a block of `shape` (row-major).
fn fallback(shape: &[i64], element_bits: u32) -> String {
    let order: Vec<u32> = (0..shape.len() as u32).rev().collect();
    Layout::nvmma_shared_for(shape, &order, element_bits, false)
        .text()
        .expect("an NVMMA layout of one CTA has a text")
}

/// `encoding` (an NVMMA text) for a block of `rank` dimensions.
fn for_rank(ctx: mlir_sys::MlirContext, encoding: &str, rank: usize) -> Option<String> {
    let attr = ir::parse_attribute(ctx, encoding)?;
    // SAFETY: a live attribute.
    match Layout::read(unsafe { Attribute::from_raw(attr) })? {
        Layout::NvmmaShared {
            swizzling_byte_width,
            transposed,
            element_bit_width,
            fp4_padded,
            cga,
            ..
        } => Layout::NvmmaShared {
            swizzling_byte_width,
            transposed,
            element_bit_width,
            fp4_padded,
            rank: rank as u32,
            cga,
        }
        .text(),
        _ => Some(encoding.to_owned()),
    }
}

fn descriptor_type(
    ctx: mlir_sys::MlirContext,
    block: &tt_dialect::types::Tensor,
    encoding: &str,
) -> Option<mlir_sys::MlirType> {
    let dims: String = block.shape.iter().map(|d| format!("{d}x")).collect();
    ir::parse_type(
        ctx,
        &format!(
            "!tt.tensordesc<tensor<{dims}{}, {encoding}>>",
            block.element
        ),
    )
}

fn run(module: OperationRef) -> PassResult {
    let module = module.to_raw();
    let mut any = false;
    ir::walk_pre(module, &mut |op| {
        any |= ir::operands(op).into_iter().any(is_descriptor)
            || ir::results(op).into_iter().any(is_descriptor)
            || ir::regions(op)
                .into_iter()
                .flat_map(ir::blocks)
                .flat_map(ir::block_args)
                .any(is_descriptor);
    });
    if !any {
        return Ok(());
    }
    if ir::module_int(module, "ttg.num-ctas").unwrap_or(1) != 1 {
        return Err(refuse(module, "tensor descriptors with several CTAs"));
    }
    let mut captured = None;
    ir::walk_pre(module, &mut |op| {
        if captured.is_none()
            && ir::is(op, "ttg.warp_specialize")
            && ir::operands(op).into_iter().any(is_descriptor)
        {
            captured = Some(op);
        }
    });
    if let Some(op) = captured {
        return Err(refuse(
            op,
            "tensor descriptors captured by ttg.warp_specialize",
        ));
    }
    for func in ir::block_ops(ir::blocks(ir::regions(module)[0])[0]) {
        if ir::is(func, "tt.func") {
            assign(func)?;
        }
    }
    Ok(())
}

fn assign(func: MlirOperation) -> PassResult {
    let ctx = ir::context(func);
    let kernel = ir::attribute(func, "sym_visibility")
        .is_none_or(|v| scf::attribute_text(v).contains("public"));
    let mut s = Solver {
        wishes: HashMap::new(),
        order: Vec::new(),
        worklist: Vec::new(),
    };
    let Some(entry) = ir::regions(func)
        .first()
        .and_then(|r| ir::blocks(*r).first().copied())
    else {
        return Ok(());
    };
    for arg in ir::block_args(entry) {
        if is_descriptor(arg) {
            s.update(
                &[arg],
                Wish {
                    forced: !kernel,
                    ..Wish::default()
                },
            );
        }
    }
    // Seeds, in Triton's walk order (operands before the ops holding them).
    let ops = ir::collect_post(func, &|op| !ir::is(op, "tt.func"));
    for op in ops {
        if let Some((desc, wish)) = use_info(op) {
            s.update(&[desc], wish);
            continue;
        }
        let forced = ir::is(op, "tt.call") || ir::is(op, "tt.return");
        let wish = Wish {
            forced,
            ..Wish::default()
        };
        for v in ir::results(op).into_iter().chain(ir::operands(op)) {
            if is_descriptor(v) {
                s.note(v, wish.clone(), forced);
            }
        }
    }
    // Propagation to a fixed point.
    while let Some(desc) = s.worklist.pop() {
        for (user, index) in ir::uses(desc) {
            let values = if ir::is(user, "scf.for") {
                index.checked_sub(3).map(|i| tied(user, i))
            } else if ir::is(user, "scf.while") {
                Some(tied(user, index))
            } else if ir::is(user, "scf.yield") {
                ir::parent_op(user).map(|p| tied(p, index))
            } else if ir::is(user, "scf.condition") {
                // Operand 0 is the condition itself.
                index
                    .checked_sub(1)
                    .and_then(|i| ir::parent_op(user).map(|p| tied(p, i)))
            } else {
                None
            };
            if let Some(values) = values {
                s.update(&values, Wish::default());
            }
        }
        if let Some(def) = ir::defining_op(desc) {
            if ["scf.for", "scf.while", "scf.if"]
                .iter()
                .any(|n| ir::is(def, n))
            {
                let values = tied(def, ir::result_number(desc));
                s.update(&values, Wish::default());
            }
        } else if let Some(parent) = ir::block_parent_op(ir::value_block(desc)) {
            let offset = usize::from(ir::is(parent, "scf.for"));
            if ir::is(parent, "scf.for") || ir::is(parent, "scf.while") {
                if let Some(i) = ir::arg_number(desc).checked_sub(offset) {
                    let values = tied(parent, i);
                    s.update(&values, Wish::default());
                }
            }
        }
    }
    // The types.
    for v in &s.order {
        let wish = &s.wishes[&Val(*v)];
        let Some(block) = block_of(ir::value_type(*v)) else {
            continue;
        };
        let bits = tt_dialect::types::bit_width(block.element).unwrap_or(8);
        let encoding = match (&wish.desired, wish.forced) {
            (Some(d), _) => for_rank(ctx, d, block.shape.len()),
            (None, true) => Some(fallback(&block.shape, bits)),
            (None, false) if !wish.shape.is_empty() => Some(fallback(&wish.shape, bits)),
            (None, false) => Some(fallback(&block.shape, bits)),
        };
        let Some(ty) = encoding.and_then(|e| descriptor_type(ctx, &block, &e)) else {
            let op = ir::defining_op(*v).unwrap_or(func);
            return Err(refuse(op, "this tensor descriptor's block type"));
        };
        // SAFETY: a live value gets a descriptor type of the same block.
        unsafe { mlir_sys::mlirValueSetType(*v, ty) };
    }
    update_function_type(func, entry)
}

/// The function's type from its entry block's arguments; descriptor
/// results take the default encoding.
fn update_function_type(func: MlirOperation, entry: mlir_sys::MlirBlock) -> PassResult {
    let ctx = ir::context(func);
    let Some(attr) = ir::attribute(func, "function_type") else {
        return Ok(());
    };
    // SAFETY: `function_type` is a type attribute holding a function type.
    let fn_ty = unsafe { mlir_sys::mlirTypeAttrGetValue(attr) };
    let inputs: Vec<_> = ir::block_args(entry)
        .into_iter()
        .map(ir::value_type)
        .collect();
    let mut outputs = Vec::new();
    // SAFETY: reading the results of a live function type.
    for i in 0..unsafe { mlir_sys::mlirFunctionTypeGetNumResults(fn_ty) } {
        let ty = unsafe { mlir_sys::mlirFunctionTypeGetResult(fn_ty, i) };
        let ty = match block_of(ty) {
            Some(block) => {
                let bits = tt_dialect::types::bit_width(block.element).unwrap_or(8);
                descriptor_type(ctx, &block, &fallback(&block.shape, bits))
                    .ok_or_else(|| refuse(func, "this descriptor result type"))?
            }
            None => ty,
        };
        outputs.push(ty);
    }
    // SAFETY: a new function type and its attribute in the same context.
    let new = unsafe {
        let ty = mlir_sys::mlirFunctionTypeGet(
            ctx,
            inputs.len() as isize,
            inputs.as_ptr(),
            outputs.len() as isize,
            outputs.as_ptr(),
        );
        mlir_sys::mlirTypeAttrGet(ty)
    };
    ir::set_attribute(func, "function_type", new);
    Ok(())
}
