//! `triton-rewrite-tensor-pointer`: lowers block pointers
//! (`tt.make_tensor_ptr`, `tt.advance`, and `tt.load`/`tt.store` through
//! them) to tensors of pointers, as Triton 3.6's `RewriteTensorPointer`
//! does.
//!
//! A block pointer is never materialised. The pass keeps, for every block
//! pointer value, its base pointer, shape and strides (the operands of the
//! `tt.make_tensor_ptr` it comes from) and its current offsets as `i64`
//! scalars: `tt.make_tensor_ptr` sign-extends its `i32` offsets, and
//! `tt.advance` adds its sign-extended steps to them. A load or store then
//! builds `splat(base) + sum_d broadcast(expand(splat(off_d) + range_d) *
//! splat(stride_d))`, a mask `0 <= off_d + range_d < shape_d` over its
//! `boundaryCheck` dimensions, and, for loads with a `padding`, a splat zero
//! or NaN `other`. Block pointers carried by `scf.for` and returned by
//! `scf.if` become their offsets: the loop or `if` is rebuilt with one `i64`
//! per dimension in place of each block pointer, and `scf.yield` yields the
//! offsets.
//!
//! The walk, the order in which ops are created, their locations and their
//! attributes follow Triton's pass, so the output is the one Triton prints.
//! That includes a load with a `padding` but no `boundaryCheck`: it gets an
//! `other` without a mask, which fails the `tt.load` verifier after the
//! pass, in Triton as here.
//! Where Triton would assert, crash or silently mix two block pointers, the
//! pass stops with a located error instead, before changing anything where
//! it can tell in advance: block pointers as function arguments or results,
//! passed to calls, carried by `scf.while` or `cf` branches, made inside an
//! `scf.if` branch and yielded from it, loads or stores through a block
//! pointer that also have a mask, a NaN padding of integers, and two block
//! pointers with different bases, shapes or strides meeting in one loop or
//! `if` result.

use std::collections::HashMap;

use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationRef},
    Attribute, BlockRef, Identifier, RegionLike, Type, Value, ValueLike,
};
use tt_dialect::{ir::is_op, types};

use super::pointer_ir::{self as pir, key, Builder, PtrMath};
use crate::rust_pass::{fail, Failure, PassResult, RustPass};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonRewriteTensorPointer",
    argument: "triton-rewrite-tensor-pointer",
    description: "Lower block pointers (make_tensor_ptr, advance) and the loads and stores \
                  through them to tensors of pointers with bounds masks",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    check(module)?;
    let mut lowering = Lowering::default();
    lowering.visit(module)?;
    lowering.erase_replaced()
}

/// The pointee tensor of a block pointer type, or `None` for other types.
fn block_of(ty: Type) -> Option<types::Tensor> {
    let (pointee, _) = types::pointer_parts(ty)?;
    types::Tensor::of(pointee)
}

fn is_block_ptr(ty: Type) -> bool {
    block_of(ty).is_some()
}

fn name_of(op: OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("?").to_owned()
}

// ---- checking -------------------------------------------------------------

/// Reports every use of block pointers the rewrite cannot handle, before
/// anything changes.
fn check(module: OperationRef) -> PassResult {
    let mut ok = true;
    module.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if let Err(message) = check_op(op) {
            fail(op, &message);
            ok = false;
        }
        melior::ir::operation::WalkResult::Advance
    });
    if ok {
        Ok(())
    } else {
        Err(Failure)
    }
}

fn check_op(op: OperationRef) -> Result<(), String> {
    let name = name_of(op);
    let name = name.as_str();
    let parent = op.parent_operation().map(name_of).unwrap_or_default();
    // scf.while is reported once, at the loop, not at its terminators.
    if name == "scf.while" && carries_block_ptr(op) {
        return Err(
            "block pointers cannot be carried by scf.while (only scf.for and scf.if \
                    carry them through this pass)"
                .into(),
        );
    }
    if name == "scf.condition" || (name == "scf.yield" && parent == "scf.while") {
        return Ok(());
    }
    // Who makes block pointers.
    for result in op.results() {
        let ty = result.r#type();
        if let Some(block) = block_of(ty) {
            if block.encoding.is_some() {
                return Err(format!(
                    "block pointer {ty} has an encoded pointee; this pass runs on TTIR, before layouts"
                ));
            }
            if !matches!(
                name,
                "tt.make_tensor_ptr" | "tt.advance" | "scf.for" | "scf.if"
            ) {
                return Err(format!(
                    "produces a block pointer ({ty}); only tt.make_tensor_ptr, tt.advance, scf.for \
                     and scf.if results can be rewritten"
                ));
            }
        }
    }
    // Block arguments: only the iteration arguments of scf.for.
    for region in op.regions() {
        let mut block = region.first_block();
        let mut entry = true;
        while let Some(b) = block {
            for index in 0..b.argument_count() {
                let Ok(arg) = b.argument(index) else { continue };
                if !is_block_ptr(arg.r#type()) {
                    continue;
                }
                if name == "tt.func" {
                    return Err("block pointer function arguments are not supported".into());
                }
                if !(name == "scf.for" && entry && index > 0) {
                    return Err(format!(
                        "has a block pointer block argument ({}); only scf.for can carry block \
                         pointers through a region",
                        arg.r#type()
                    ));
                }
            }
            entry = false;
            block = b.next_in_region();
        }
    }
    // Who uses them.
    for (index, operand) in op.operands().enumerate() {
        if !is_block_ptr(operand.r#type()) {
            continue;
        }
        let allowed = match name {
            "tt.advance" | "tt.load" | "tt.store" => index == 0,
            "scf.for" => index >= 3,
            "scf.yield" => parent == "scf.for" || parent == "scf.if",
            _ => false,
        };
        if !allowed {
            return Err(match name {
                "scf.yield" => format!("yields a block pointer out of '{parent}'; only scf.for and scf.if results can be block pointers"),
                _ => format!(
                    "uses a block pointer ({}); only tt.advance, tt.load, tt.store, scf.for and \
                     scf.if can take them",
                    operand.r#type()
                ),
            });
        }
    }
    match name {
        "tt.load" | "tt.store" => check_access(op, name)?,
        "scf.if" => check_if(op)?,
        _ => {}
    }
    Ok(())
}

/// Whether a block pointer is an operand, a result or a block argument of
/// `op`.
fn carries_block_ptr(op: OperationRef) -> bool {
    op.operands().any(|v| is_block_ptr(v.r#type()))
        || op.results().any(|v| is_block_ptr(v.r#type()))
        || op.regions().any(|region| {
            let mut block = region.first_block();
            while let Some(b) = block {
                let b = unsafe { BlockRef::from_raw(b.to_raw()) };
                if pir::block_arguments(b)
                    .iter()
                    .any(|v| is_block_ptr(v.r#type()))
                {
                    return true;
                }
                block = b.next_in_region();
            }
            false
        })
}

/// A load or store through a block pointer has no mask (nor other), a
/// padding its element type can hold, and boundary checks within its rank.
fn check_access(op: OperationRef, name: &str) -> Result<(), String> {
    let Some(block) = op.operand(0).ok().and_then(|p| block_of(p.r#type())) else {
        return Ok(());
    };
    let plain = if name == "tt.load" { 1 } else { 2 };
    if op.operand_count() != plain {
        return Err(format!(
            "a {} through a block pointer cannot also have a mask{}",
            &name[3..],
            if name == "tt.load" {
                " or other value"
            } else {
                ""
            }
        ));
    }
    for dim in pir::i32_array_attribute(op, "boundaryCheck") {
        if dim < 0 || dim as usize >= block.rank() {
            return Err(format!(
                "boundary check of dimension {dim} of a rank-{} block",
                block.rank()
            ));
        }
    }
    if name == "tt.load" {
        match pir::int_attribute(op, "padding") {
            None => {}
            Some(PAD_NAN) if pir::nan_attr(block.element).is_none() => {
                return Err(format!(
                    "padding nan needs a float element type, not {}",
                    block.element
                ))
            }
            Some(_) if pir::zero_attr(block.element).is_none() => {
                return Err(format!("cannot pad elements of type {}", block.element))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// `padding = nan` (`PaddingOption::PAD_NAN`).
const PAD_NAN: i64 = 2;

/// Each block pointer an `scf.if` returns must come from one made before
/// the `scf.if`: the rewrite takes its base, shape and strides from there.
fn check_if(op: OperationRef) -> Result<(), String> {
    let Some(then_yield) = then_terminator(op) else {
        return Ok(());
    };
    for (index, value) in then_yield.operands().enumerate() {
        if is_block_ptr(value.r#type()) && !reaches_outside(value, op) {
            return Err(format!(
                "result #{index} is a block pointer made inside the scf.if; its base, shape and \
                 strides must come from before the scf.if"
            ));
        }
    }
    Ok(())
}

fn then_terminator<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let region = op.region(0).ok()?;
    let block = region.first_block()?;
    let terminator = block.terminator()?;
    Some(unsafe { OperationRef::from_raw(terminator.to_raw()) })
}

/// Whether `op` contains (or is) the op that defines `value` or owns it as
/// a block argument.
fn defined_inside(value: Value, op: OperationRef) -> bool {
    let mut owner = match pir::block_argument_owner(value) {
        Some((block, _)) => block.parent_operation(),
        None => tt_dialect::ir::defining_op(value),
    };
    while let Some(o) = owner {
        if o == op {
            return true;
        }
        owner = o.parent_operation();
    }
    false
}

/// Follows `value` back through advances, loops and ifs inside `scope`
/// until it leaves `scope`; `false` when it starts inside.
fn reaches_outside(value: Value, scope: OperationRef) -> bool {
    let mut value = value;
    for _ in 0..10_000 {
        if !defined_inside(value, scope) {
            return true;
        }
        match trace_step(value) {
            Some(next) => value = next,
            None => return false,
        }
    }
    false
}

/// One step back along a block pointer's history: the pointer a
/// `tt.advance` moves, a loop result's or iteration argument's initial
/// value, an `scf.if` result's then-branch value.
fn trace_step<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
    if let Some((block, index)) = pir::block_argument_owner(value) {
        let parent = block.parent_operation()?;
        return (is_op(parent, "scf.for") && index > 0)
            .then(|| parent.operand(3 + index - 1).ok())
            .flatten();
    }
    let op = tt_dialect::ir::defining_op(value)?;
    let index = op.results().position(|r| Value::from(r) == value)?;
    if is_op(op, "tt.advance") {
        op.operand(0).ok()
    } else if is_op(op, "scf.for") {
        op.operand(3 + index).ok()
    } else if is_op(op, "scf.if") {
        then_terminator(op)?.operand(index).ok()
    } else {
        None
    }
}

// ---- rewriting ------------------------------------------------------------

/// What the pass knows of one block pointer value.
#[derive(Clone)]
struct BlockPtr<'c, 'a> {
    base: Value<'c, 'a>,
    shape: Vec<Value<'c, 'a>>,
    strides: Vec<Value<'c, 'a>>,
    /// The current offsets, `i64`.
    offsets: Vec<Value<'c, 'a>>,
    block_shape: Vec<i64>,
}

impl<'c, 'a> BlockPtr<'c, 'a> {
    fn rank(&self) -> usize {
        self.block_shape.len()
    }

    /// Whether both point into the same tensor with the same block shape.
    fn same_tensor(&self, other: &Self) -> bool {
        self.base == other.base
            && self.shape == other.shape
            && self.strides == other.strides
            && self.block_shape == other.block_shape
    }

    /// The same pointer at `offsets`.
    fn at(&self, offsets: &[Value<'c, 'a>]) -> Self {
        Self {
            offsets: offsets.to_vec(),
            ..self.clone()
        }
    }

    fn math(&self) -> PtrMath<'c, 'a> {
        PtrMath {
            base: self.base,
            shape: self.shape.clone(),
            strides: self.strides.clone(),
            block_shape: self.block_shape.clone(),
        }
    }
}

#[derive(Default)]
struct Lowering<'c, 'a> {
    /// Every block pointer value met so far.
    ptrs: HashMap<usize, BlockPtr<'c, 'a>>,
    /// For each rebuilt `scf.for`/`scf.if`, the block pointer each old
    /// result stands for (so that the yields can be checked against it).
    carried: HashMap<usize, Vec<Option<BlockPtr<'c, 'a>>>>,
    /// The replaced ops, erased at the end, last first.
    replaced: Vec<OperationRef<'c, 'a>>,
}

impl<'c, 'a> Lowering<'c, 'a> {
    fn info(&self, op: OperationRef, value: Value<'c, 'a>) -> Result<BlockPtr<'c, 'a>, Failure> {
        self.ptrs.get(&key(value)).cloned().ok_or_else(|| {
            fail(
                op,
                "uses a block pointer whose origin this pass did not see",
            )
        })
    }

    /// Visits the ops nested in `op`, in order, rewriting each; a rebuilt
    /// loop or `if` is visited in its new form.
    fn visit(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                let b = unsafe { BlockRef::from_raw(b.to_raw()) };
                let mut current = b.first_operation();
                while let Some(nested) = current {
                    let nested = unsafe { OperationRef::from_raw(nested.to_raw()) };
                    current = nested.next_in_block();
                    if let Some(next) = self.rewrite(nested)? {
                        self.visit(next)?;
                    }
                }
                block = b.next_in_region();
            }
        }
        Ok(())
    }

    /// Rewrites `op`; returns the op whose regions to visit next.
    fn rewrite(
        &mut self,
        op: OperationRef<'c, 'a>,
    ) -> Result<Option<OperationRef<'c, 'a>>, Failure> {
        let name = name_of(op);
        match name.as_str() {
            "tt.make_tensor_ptr" => self.make_tensor_ptr(op).map(|_| None),
            "tt.advance" => self.advance(op).map(|_| None),
            "tt.load" | "tt.store" => self.access(op).map(|_| None),
            "scf.if" => self.rewrite_if(op),
            n if n.starts_with("scf.") || n.starts_with("cf.") => {
                if !op.operands().any(|v| is_block_ptr(v.r#type())) {
                    return Ok(Some(op));
                }
                match n {
                    "scf.for" => self.rewrite_for(op).map(Some),
                    "scf.yield" => self.rewrite_yield(op).map(|_| None),
                    _ => Err(fail(
                        op,
                        "block pointers can only flow through scf.for and scf.if",
                    )),
                }
            }
            _ => Ok(Some(op)),
        }
    }

    fn make_tensor_ptr(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let values = pir::operands(op);
        let rank = (values.len() - 1) / 3;
        let result = pir::first_result(op);
        let block =
            block_of(result.r#type()).ok_or_else(|| fail(op, "does not make a block pointer"))?;
        let b = Builder::before(op);
        let i64 = b.int_type(64);
        let offsets = values[1 + 2 * rank..]
            .iter()
            .map(|offset| b.extsi(*offset, i64))
            .collect();
        self.ptrs.insert(
            key(result),
            BlockPtr {
                base: values[0],
                shape: values[1..1 + rank].to_vec(),
                strides: values[1 + rank..1 + 2 * rank].to_vec(),
                offsets,
                block_shape: block.shape,
            },
        );
        self.replaced.push(op);
        Ok(())
    }

    fn advance(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let values = pir::operands(op);
        let info = self.info(op, values[0])?;
        if values.len() - 1 != info.rank() {
            return Err(fail(
                op,
                "advances a block pointer by the wrong number of offsets",
            ));
        }
        let b = Builder::before(op);
        let i64 = b.int_type(64);
        let offsets: Vec<_> = values[1..]
            .iter()
            .zip(&info.offsets)
            .map(|(step, offset)| {
                let step = b.extsi(*step, i64);
                b.addi(*offset, step)
            })
            .collect();
        self.ptrs
            .insert(key(pir::first_result(op)), info.at(&offsets));
        self.replaced.push(op);
        Ok(())
    }

    /// A load or store through a block pointer becomes one through a tensor
    /// of pointers, masked by its boundary checks.
    fn access(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let ptr = op
            .operand(0)
            .map_err(|_| fail(op, "has no pointer operand"))?;
        if !is_block_ptr(ptr.r#type()) {
            return Ok(());
        }
        let info = self.info(op, ptr)?;
        let is_load = is_op(op, "tt.load");
        let b = Builder::before(op);
        let math = info.math();
        // The index ranges are built once per dimension and access, then
        // shared by the pointers and the mask.
        let mut ranges: HashMap<usize, Value<'c, 'a>> = HashMap::new();
        let mut range = |dim: usize| {
            *ranges
                .entry(dim)
                .or_insert_with(|| math.offset_range(&b, info.offsets[dim], dim))
        };
        let pointers = math.pointers(&b, &mut range);
        let checks = pir::i32_array_attribute(op, "boundaryCheck");
        let mask = math.mask(&b, checks.iter().map(|d| *d as usize), &mut range);
        let cache = op.attribute("cache").unwrap_or_else(|_| b.i32_attr(1));
        let evict = op.attribute("evict").unwrap_or_else(|_| b.i32_attr(1));
        if is_load {
            let other = match pir::int_attribute(op, "padding") {
                None => None,
                Some(padding) => {
                    let element = block_of(ptr.r#type()).map(|t| t.element);
                    let value = element.and_then(|e| {
                        if padding == PAD_NAN {
                            pir::nan_attr(e)
                        } else {
                            pir::zero_attr(e)
                        }
                    });
                    let value =
                        value.ok_or_else(|| fail(op, "has a padding its elements cannot hold"))?;
                    let scalar = b.constant(value);
                    Some(b.splat(scalar, pir::pointee_tensor(pointers.r#type())))
                }
            };
            let volatile = op
                .attribute("isVolatile")
                .unwrap_or_else(|_| b.bool_attr(false));
            let load = b.load(pointers, mask, other, cache, evict, volatile);
            pir::replace_all_uses(pir::first_result(op), pir::first_result(load));
        } else {
            let value = op
                .operand(1)
                .map_err(|_| fail(op, "has no value to store"))?;
            b.store(pointers, value, mask, cache, evict);
        }
        self.replaced.push(op);
        Ok(())
    }

    /// The block pointer that `value` (about to be yielded from an `scf.if`
    /// branch) stands for, found back where it was made or last seen.
    fn origin(&self, value: Value<'c, 'a>) -> Option<BlockPtr<'c, 'a>> {
        let mut value = value;
        for _ in 0..10_000 {
            if let Some(info) = self.ptrs.get(&key(value)) {
                return Some(info.clone());
            }
            value = trace_step(value)?;
        }
        None
    }

    /// An `scf.if` that returns block pointers returns their offsets
    /// instead; its branches move into the new op unchanged (their yields
    /// are rewritten when visited).
    fn rewrite_if(
        &mut self,
        op: OperationRef<'c, 'a>,
    ) -> Result<Option<OperationRef<'c, 'a>>, Failure> {
        let Some(then_yield) = then_terminator(op) else {
            return Ok(Some(op));
        };
        let yielded = pir::operands(then_yield);
        if !yielded.iter().any(|v| is_block_ptr(v.r#type())) {
            return Ok(Some(op));
        }
        let b = Builder::before(op);
        let i64 = b.int_type(64);
        let mut types = Vec::new();
        let mut origins = Vec::new();
        for value in &yielded {
            if !is_block_ptr(value.r#type()) {
                types.push(value.r#type());
                origins.push(None);
                continue;
            }
            let origin = self.origin(*value).ok_or_else(|| {
                fail(
                    op,
                    "returns a block pointer whose origin is not known before the scf.if",
                )
            })?;
            types.extend(std::iter::repeat_n(i64, origin.rank()));
            origins.push(Some(origin));
        }
        let condition = op.operand(0).map_err(|_| fail(op, "has no condition"))?;
        let new = b.create_with_regions("scf.if", &[condition], &types, &[], 2);
        for index in 0..2 {
            if let (Ok(to), Ok(from)) = (new.region(index), op.region(index)) {
                pir::take_body(to, from);
            }
        }
        self.map_results(op, new, origins);
        Ok(Some(new))
    }

    /// An `scf.for` carrying block pointers carries their offsets instead.
    fn rewrite_for(&mut self, op: OperationRef<'c, 'a>) -> Result<OperationRef<'c, 'a>, Failure> {
        let operands = pir::operands(op);
        let inits = &operands[3..];
        let mut new_inits = Vec::new();
        let mut origins = Vec::new();
        for init in inits {
            if is_block_ptr(init.r#type()) {
                let info = self.info(op, *init)?;
                new_inits.extend(info.offsets.iter().copied());
                origins.push(Some(info));
            } else {
                new_inits.push(*init);
                origins.push(None);
            }
        }
        let b = Builder::before(op);
        let mut new_operands = operands[..3].to_vec();
        new_operands.extend(new_inits.iter().copied());
        let types: Vec<Type> = new_inits.iter().map(|v| v.r#type()).collect();
        let attributes: Vec<(Identifier, Attribute)> = op.attributes().collect();
        let new = b.create_with_regions("scf.for", &new_operands, &types, &attributes, 1);

        // The body block, as scf.for's builder makes it: the induction
        // variable at the loop's location, each iteration argument at its
        // initial value's.
        let mut arguments = vec![(operands[0].r#type(), op.location())];
        arguments.extend(
            new_inits
                .iter()
                .map(|v| (v.r#type(), pir::value_location(*v))),
        );
        let region = new.region(0).map_err(|_| fail(op, "has no body"))?;
        let body = pir::append_block(region, &arguments);
        let new_args = pir::block_arguments(body);
        let old_body = op
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .ok_or_else(|| fail(op, "has no body"))?;
        let old_body = unsafe { BlockRef::from_raw(old_body.to_raw()) };
        let old_args = pir::block_arguments(old_body);
        pir::replace_all_uses(old_args[0], new_args[0]);
        let mut next = 1;
        for (old, origin) in old_args[1..].iter().zip(&origins) {
            match origin {
                None => {
                    pir::replace_all_uses(*old, new_args[next]);
                    next += 1;
                }
                Some(info) => {
                    let offsets = &new_args[next..next + info.rank()];
                    self.ptrs.insert(key(*old), info.at(offsets));
                    next += info.rank();
                }
            }
        }
        pir::move_ops(old_body, body);

        self.map_results(op, new, origins);
        Ok(new)
    }

    /// `scf.yield` yields each block pointer's offsets.
    /// Maps the results of `op` (an `scf.if` or `scf.for` being replaced by
    /// `new`) to `new`'s: a plain result to the next one, a block pointer
    /// (`Some` origin) to its rank's worth of offsets; records the carried
    /// pointers for the yields inside and `op` for erasure.
    fn map_results(
        &mut self,
        op: OperationRef<'c, 'a>,
        new: OperationRef<'c, 'a>,
        origins: Vec<Option<BlockPtr<'c, 'a>>>,
    ) {
        let new_results = pir::results(new);
        let mut next = 0;
        for (old, origin) in pir::results(op).into_iter().zip(&origins) {
            match origin {
                None => {
                    pir::replace_all_uses(old, new_results[next]);
                    next += 1;
                }
                Some(origin) => {
                    let offsets = &new_results[next..next + origin.rank()];
                    self.ptrs.insert(key(old), origin.at(offsets));
                    next += origin.rank();
                }
            }
        }
        self.carried.insert(new.to_raw().ptr as usize, origins);
        self.replaced.push(op);
    }

    fn rewrite_yield(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let parent = op.parent_operation().map(|p| p.to_raw().ptr as usize);
        let expected = parent.and_then(|p| self.carried.get(&p)).cloned();
        let mut values = Vec::new();
        for (index, value) in pir::operands(op).into_iter().enumerate() {
            if !is_block_ptr(value.r#type()) {
                values.push(value);
                continue;
            }
            let info = self.info(op, value)?;
            let origin = expected
                .as_ref()
                .and_then(|e| e.get(index).cloned().flatten());
            match origin {
                Some(origin) if origin.same_tensor(&info) => {}
                _ => {
                    return Err(fail(
                        op,
                        &format!(
                            "operand #{index} is a block pointer with another base, shape or \
                             strides than the one the parent op's result stands for"
                        ),
                    ))
                }
            }
            values.extend(info.offsets.iter().copied());
        }
        pir::set_operands(op, &values);
        Ok(())
    }

    /// Erases the replaced ops, users first.
    fn erase_replaced(&mut self) -> PassResult {
        while let Some(op) = self.replaced.pop() {
            if still_used(op) {
                return Err(fail(
                    op,
                    "internal error: a rewritten block pointer op is still used",
                ));
            }
            pir::erase(op);
        }
        Ok(())
    }
}

/// Whether a result of `op`, or an argument of a block in its regions, is
/// still used.
fn still_used(op: OperationRef) -> bool {
    if pir::has_used_results(op) {
        return true;
    }
    op.regions().any(|region| {
        let mut block = region.first_block();
        while let Some(b) = block {
            let b = unsafe { BlockRef::from_raw(b.to_raw()) };
            if pir::block_arguments(b).into_iter().any(pir::has_uses) {
                return true;
            }
            block = b.next_in_region();
        }
        false
    })
}
