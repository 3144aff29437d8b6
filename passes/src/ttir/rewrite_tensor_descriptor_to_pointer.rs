//! `triton-rewrite-tensor-descriptor-to-pointer`: lowers tensor descriptors
//! (`!tt.tensordesc`) to plain pointer arithmetic, as Triton 3.6's
//! `RewriteTensorDescriptorToPointer` does for GPUs without TMA.
//!
//! A descriptor of rank `r` becomes `2r + 2` values: its base pointer, its
//! `r` sizes and `r` strides as `i64`, and an `i1` that says whether
//! out-of-bounds elements read as NaN (`padding = nan`) or zero. Triton
//! does this with a 1:N dialect conversion; here the same rewrite is a walk
//! that rebuilds each op that has descriptor operands or results, in the
//! order the conversion driver visits them, creating the same ops with the
//! same attributes and locations:
//!
//! * `tt.make_tensor_descriptor` yields its operands (sizes sign-extended,
//!   folded when constant) and a constant padding flag;
//! * `tt.descriptor_load`/`_store`/`_gather`/`_scatter` become `tt.load`/
//!   `tt.store` through a tensor of pointers with a bounds mask on every
//!   dimension (loads read zero or NaN out of bounds), keeping the op's
//!   attributes; `tt.descriptor_reduce` becomes a masked `tt.atomic_rmw`;
//! * `tt.func` signatures, `tt.call`, `tt.return`, `scf.for`, `scf.if`,
//!   `scf.while`, `scf.yield`, `scf.condition` pass the expanded values, and
//!   an `arith.select` of descriptors becomes an `scf.if` of their values.
//!   A function's argument attributes stay on the first value of each
//!   expanded argument.
//!
//! A descriptor made by an op the conversion leaves alone (one outside
//! `arith`, `scf` and `tt`, such as `ub.poison`) reaches the rewritten ops
//! through a `builtin.unrealized_conversion_cast`, which Triton leaves in
//! the output too. Input the conversion would reject is reported before
//! anything changes, at the first offending op as the conversion driver
//! does: descriptor reductions Triton cannot express as atomics (with
//! Triton's two messages), and descriptors reaching ops that no pattern
//! rewrites.

use std::collections::HashMap;

use melior::ir::{
    attribute::TypeAttribute,
    block::BlockLike,
    operation::{OperationLike, OperationMutLike, OperationRef, OperationRefMut},
    Attribute, AttributeLike, BlockRef, Identifier, Location, RegionLike, Type, TypeLike, Value,
    ValueLike,
};
use mlir_sys as sys;
use tt_dialect::{ir::is_op, types};

use super::pointer_ir::{self as pir, key, Builder, PtrMath};
use crate::rust_pass::{Failure, PassResult, RustPass};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonRewriteTensorDescriptorToPointer",
    argument: "triton-rewrite-tensor-descriptor-to-pointer",
    description: "Lower tensor descriptors and the loads, stores, gathers, scatters and \
                  reductions through them to pointer arithmetic with bounds masks",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    check(module)?;
    let mut lowering = Lowering::default();
    lowering.visit(module)?;
    lowering.finish()
}

/// See [`Lowering::access`].
struct Access<'c, 'a> {
    operands: Vec<Value<'c, 'a>>,
    block: types::Tensor<'c>,
    b: Builder<'c, 'a>,
    math: PtrMath<'c, 'a>,
    padding: Value<'c, 'a>,
    offsets: Vec<Value<'c, 'a>>,
}

/// The block type of a descriptor type, or `None` for other types.
fn desc_block(ty: Type) -> Option<types::Tensor> {
    types::Tensor::of(types::tensor_desc_block(ty)?)
}

fn is_desc(ty: Type) -> bool {
    types::tensor_desc_block(ty).is_some()
}

/// The types a descriptor type expands to: `!tt.ptr<element>`, `2 * rank`
/// times `i64`, and `i1`. Other types stay as they are.
fn expand_type<'c>(ty: Type<'c>) -> Vec<Type<'c>> {
    let Some(block) = desc_block(ty) else {
        return vec![ty];
    };
    let context = pir::context_of(ty);
    let int = |width| unsafe { Type::from_raw(sys::mlirIntegerTypeGet(context, width)) };
    let mut expanded = vec![types::pointer_type(pir::signless(block.element), 1)];
    expanded.extend(std::iter::repeat_n(int(64), 2 * block.rank()));
    expanded.push(int(1));
    expanded
}

fn expand_types<'c>(types: impl IntoIterator<Item = Type<'c>>) -> Vec<Type<'c>> {
    types.into_iter().flat_map(expand_type).collect()
}

// ---- checking -------------------------------------------------------------

/// Reports the first descriptor use (in the conversion's order) that the
/// rewrite cannot handle, before anything changes; like the conversion
/// driver, it stops there.
fn check(module: OperationRef) -> PassResult {
    let mut ok = true;
    module.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let op = unsafe { OperationRef::from_raw(op.to_raw()) };
        if check_op(op).is_err() {
            ok = false;
            return melior::ir::operation::WalkResult::Interrupt;
        }
        melior::ir::operation::WalkResult::Advance
    });
    if ok {
        Ok(())
    } else {
        Err(Failure)
    }
}

/// The conversion's error for an op it has no pattern for.
fn not_legalized(op: OperationRef) -> Failure {
    pir::emit_error(
        op.location(),
        &format!(
            "failed to legalize operation '{}' that was explicitly marked illegal",
            pir::op_name(op)
        ),
    )
}

/// Whether the conversion leaves `op` alone whatever its types: ops of
/// dialects other than `arith`, `scf` and `tt` (such as `ub.poison`).
fn is_foreign(op: OperationRef) -> bool {
    let name = pir::op_name(op);
    !["arith.", "scf.", "tt."]
        .iter()
        .any(|d| name.starts_with(d))
}

/// Whether `value` is a result of a foreign op (see [`is_foreign`]) or an
/// argument of a block in one.
fn from_foreign(value: Value) -> bool {
    match pir::block_argument_owner(value) {
        Some((block, _)) => block.parent_operation().is_some_and(is_foreign),
        None => tt_dialect::ir::defining_op(value).is_some_and(is_foreign),
    }
}

fn check_op(op: OperationRef) -> PassResult {
    let name = pir::op_name(op);
    let name = name.as_str();
    let parent = op.parent_operation().map(pir::op_name).unwrap_or_default();
    // Foreign ops stay; their descriptor results are cast to the expanded
    // values where a rewritten op needs them. A foreign op can only take
    // descriptors that no rewrite replaces.
    if is_foreign(op) {
        if op
            .operands()
            .any(|v| is_desc(v.r#type()) && !from_foreign(v))
        {
            return Err(pir::emit_error(
                op.location(),
                &format!("'{name}' op takes a tensor descriptor that this pass rewrites away"),
            ));
        }
        return Ok(());
    }
    let makes = op.results().any(|r| is_desc(r.r#type()));
    if makes
        && !matches!(
            name,
            "tt.make_tensor_descriptor"
                | "tt.call"
                | "scf.for"
                | "scf.if"
                | "scf.while"
                | "arith.select"
        )
    {
        return Err(not_legalized(op));
    }
    for (index, operand) in op.operands().enumerate() {
        if !is_desc(operand.r#type()) {
            continue;
        }
        let allowed = match name {
            "tt.descriptor_load"
            | "tt.descriptor_store"
            | "tt.descriptor_gather"
            | "tt.descriptor_scatter" => index == 0,
            "tt.descriptor_reduce" => index == 0,
            "tt.call" | "tt.return" | "scf.condition" | "scf.while" => true,
            "scf.for" => index >= 3,
            "scf.yield" => matches!(parent.as_str(), "scf.for" | "scf.if" | "scf.while"),
            "arith.select" => index > 0,
            _ => false,
        };
        if !allowed {
            return Err(not_legalized(op));
        }
    }
    // Descriptor block arguments: a function's entry block, the bodies of
    // scf.for and scf.while (single-block regions).
    let mut bad_argument = false;
    let mut first = true;
    pir::for_each_block(op, |block| {
        let has_desc = pir::block_arguments(block)
            .into_iter()
            .any(|a| is_desc(a.r#type()));
        let allowed = match name {
            "tt.func" => first,
            "scf.for" | "scf.while" => true,
            _ => false,
        };
        if has_desc && !allowed {
            bad_argument = true;
        }
        first = false;
    });
    if bad_argument {
        return Err(pir::emit_error(
            op.location(),
            &format!(
                "'{name}' op has a tensor descriptor block argument that this pass cannot expand"
            ),
        ));
    }
    match name {
        "tt.descriptor_reduce" => {
            let desc = op.operand(0).map_err(|_| not_legalized(op))?;
            let block = desc_block(desc.r#type()).ok_or_else(|| not_legalized(op))?;
            let kind = pir::int_attribute(op, "kind").unwrap_or(0);
            if rmw_kind(kind, block.element).is_none() {
                pir::emit_error(
                    op.location(),
                    &format!(
                        "Cannot fallback on descriptor atomic op, unsupported for type {}",
                        block.element
                    ),
                );
                return Err(not_legalized(op));
            }
        }
        "tt.descriptor_gather" | "tt.descriptor_scatter" => {
            let block = if name == "tt.descriptor_gather" {
                pir::first_result(op).r#type()
            } else {
                op.operand(3).map_err(|_| not_legalized(op))?.r#type()
            };
            let rows = op.operand(1).map_err(|_| not_legalized(op))?.r#type();
            let rank = |ty| types::Tensor::of(ty).map(|t| t.rank());
            if (rank(block), rank(rows)) != (Some(2), Some(1)) {
                return Err(pir::emit_error(
                    op.location(),
                    &format!("'{name}' op needs a 2-D block and 1-D row offsets"),
                ));
            }
        }
        _ => {}
    }
    if matches!(name, "tt.descriptor_load" | "tt.descriptor_gather") {
        let result = pir::first_result(op).r#type();
        if pir::signless(result) != result {
            return Err(pir::emit_error(
                op.location(),
                &format!(
                    "'{name}' op loads {result}; the pointer lowering loads signless integers \
                     and cannot produce it"
                ),
            ));
        }
    }
    Ok(())
}

/// The `tt.atomic_rmw` kind for a descriptor reduction `kind` on
/// `element`s, as Triton maps them (min and max need explicitly signed or
/// unsigned integers; inc and dec have no atomic).
fn rmw_kind(kind: i64, element: Type) -> Option<i64> {
    const ADD: i64 = 1;
    const MIN: i64 = 2;
    const MAX: i64 = 3;
    const AND: i64 = 6;
    const OR: i64 = 7;
    const XOR: i64 = 8;
    let raw = element.to_raw();
    let (is_int, signed, unsigned) = unsafe {
        let is_int = sys::mlirTypeIsAInteger(raw);
        (
            is_int,
            is_int && sys::mlirIntegerTypeIsSigned(raw),
            is_int && sys::mlirIntegerTypeIsUnsigned(raw),
        )
    };
    // RMWOp: AND 1, OR 2, XOR 3, ADD 4, FADD 5, MAX 6, MIN 7, UMAX 8, UMIN 9.
    match kind {
        ADD => Some(if is_int { 4 } else { 5 }),
        MIN if unsigned => Some(9),
        MIN if signed => Some(7),
        MAX if unsigned => Some(8),
        MAX if signed => Some(6),
        AND => Some(1),
        OR => Some(2),
        XOR => Some(3),
        _ => None,
    }
}

// ---- rewriting ------------------------------------------------------------

#[derive(Default)]
struct Lowering<'c, 'a> {
    /// The values each descriptor value expands to.
    values: HashMap<usize, Vec<Value<'c, 'a>>>,
    /// The replaced ops, erased at the end, last first.
    replaced: Vec<OperationRef<'c, 'a>>,
    /// Function entry blocks and their old descriptor arguments, erased at
    /// the end.
    stale_arguments: Vec<(BlockRef<'c, 'a>, Vec<Value<'c, 'a>>)>,
}

impl<'c: 'a, 'a> Lowering<'c, 'a> {
    /// The values standing for `value`: the expansion of a descriptor, the
    /// value itself otherwise. A descriptor made by a foreign op is cast to
    /// its expansion right after that op, once, at the location of the
    /// first op that needs it (the conversion driver's target
    /// materialization, which Triton leaves in place).
    fn expand(
        &mut self,
        op: OperationRef<'c, '_>,
        value: Value<'c, 'a>,
    ) -> Result<Vec<Value<'c, 'a>>, Failure> {
        if !is_desc(value.r#type()) {
            return Ok(vec![value]);
        }
        if let Some(values) = self.values.get(&key(value)) {
            return Ok(values.clone());
        }
        if !from_foreign(value) {
            return Err(not_legalized(op));
        }
        // Right after the producer, or at the start of the argument's block.
        let (block, next) = match pir::block_argument_owner(value) {
            Some((block, _)) => (Some(block), block.first_operation()),
            None => {
                let producer =
                    tt_dialect::ir::defining_op(value).ok_or_else(|| not_legalized(op))?;
                (producer.block(), producer.next_in_block())
            }
        };
        let b = match (next, block) {
            (Some(next), _) => Builder::before(unsafe { OperationRef::from_raw(next.to_raw()) }),
            (None, Some(block)) => Builder::at_end(block, op.location()),
            (None, None) => return Err(not_legalized(op)),
        }
        .with_location(op.location());
        let cast = b.create(
            "builtin.unrealized_conversion_cast",
            &[value],
            &expand_type(value.r#type()),
            &[],
        );
        let values = pir::results(cast);
        self.values.insert(key(value), values.clone());
        Ok(values)
    }

    fn expand_all(
        &mut self,
        op: OperationRef<'c, '_>,
        values: impl IntoIterator<Item = Value<'c, 'a>>,
    ) -> Result<Vec<Value<'c, 'a>>, Failure> {
        let mut all = Vec::new();
        for value in values {
            all.extend(self.expand(op, value)?);
        }
        Ok(all)
    }

    /// Makes `old`'s users see `new` instead: descriptors through the map,
    /// other values by replacing their uses. `new` holds the expansion of
    /// every old value, in order.
    fn remap(&mut self, old: &[Value<'c, 'a>], new: &[Value<'c, 'a>]) {
        let mut next = 0;
        for value in old {
            let width = expand_type(value.r#type()).len();
            if is_desc(value.r#type()) {
                self.values
                    .insert(key(*value), new[next..next + width].to_vec());
            } else {
                pir::replace_all_uses(*value, new[next]);
            }
            next += width;
        }
    }

    fn visit(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let mut blocks = Vec::new();
        pir::for_each_block(op, |b| blocks.push(b));
        for block in blocks {
            let mut current = block.first_operation();
            while let Some(nested) = current {
                let nested = unsafe { OperationRef::from_raw(nested.to_raw()) };
                current = nested.next_in_block();
                if let Some(next) = self.rewrite(nested)? {
                    self.visit(next)?;
                }
            }
        }
        Ok(())
    }

    /// Rewrites `op` if it touches descriptors; returns the op whose regions
    /// to visit next.
    fn rewrite(
        &mut self,
        op: OperationRef<'c, 'a>,
    ) -> Result<Option<OperationRef<'c, 'a>>, Failure> {
        let name = pir::op_name(op);
        if name == "tt.func" {
            self.rewrite_func(op)?;
            return Ok(Some(op));
        }
        let touches =
            op.operands().any(|v| is_desc(v.r#type())) || op.results().any(|v| is_desc(v.r#type()));
        if !touches || is_foreign(op) {
            return Ok(Some(op));
        }
        match name.as_str() {
            "tt.make_tensor_descriptor" => self.make_descriptor(op).map(|_| None),
            "tt.descriptor_load" => self.load(op).map(|_| None),
            "tt.descriptor_store" => self.store(op).map(|_| None),
            "tt.descriptor_gather" | "tt.descriptor_scatter" => {
                self.gather_scatter(op).map(|_| None)
            }
            "tt.descriptor_reduce" => self.reduce(op).map(|_| None),
            "tt.call" => self.call(op).map(|_| None),
            "tt.return" | "scf.yield" => self.terminator(op).map(|_| None),
            "scf.condition" => {
                let values = self.expand_all(op, pir::operands(op))?;
                pir::set_operands(op, &values);
                Ok(None)
            }
            "arith.select" => self.select(op).map(|_| None),
            "scf.for" => self.rewrite_for(op).map(Some),
            "scf.if" => self.rewrite_if(op).map(Some),
            "scf.while" => self.rewrite_while(op).map(Some),
            _ => Err(not_legalized(op)),
        }
    }

    /// `i64` copies of `i32` values, as `createOrFold<arith::ExtSIOp>`
    /// makes them at each value's location: a constant is folded, an
    /// extension of an extension extends the inner value.
    fn to_i64(&self, b: &Builder<'c, 'a>, values: &[Value<'c, 'a>]) -> Vec<Value<'c, 'a>> {
        values
            .iter()
            .map(|value| {
                let b = b.with_location(pir::value_location(*value));
                if let Some(constant) = tt_dialect::ir::defined_by(*value, "arith.constant") {
                    if let Some(v) = pir::int_attribute(constant, "value") {
                        return b.constant_i64(v);
                    }
                }
                let source = tt_dialect::ir::defined_by(*value, "arith.extsi")
                    .and_then(|ext| ext.operand(0).ok())
                    .unwrap_or(*value);
                b.extsi(source, b.int_type(64))
            })
            .collect()
    }

    fn make_descriptor(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let operands = pir::operands(op);
        let rank = (operands.len() - 1) / 2;
        let b = Builder::before(op);
        let mut values = vec![operands[0]];
        values.extend(self.to_i64(&b, &operands[1..1 + rank]));
        values.extend_from_slice(&operands[1 + rank..]);
        let nan = pir::int_attribute(op, "padding") == Some(2);
        values.push(b.constant(b.bool_attr(nan)));
        self.values.insert(key(pir::first_result(op)), values);
        self.replaced.push(op);
        Ok(())
    }

    /// The pointer arithmetic of descriptor `desc` over a block of
    /// `block_shape`.
    fn math(
        &mut self,
        op: OperationRef<'c, '_>,
        desc: Value<'c, 'a>,
        block_shape: Vec<i64>,
    ) -> Result<(PtrMath<'c, 'a>, Value<'c, 'a>), Failure> {
        let values = self.expand(op, desc)?;
        let rank = (values.len() - 2) / 2;
        Ok((
            PtrMath {
                base: values[0],
                shape: values[1..1 + rank].to_vec(),
                strides: values[1 + rank..1 + 2 * rank].to_vec(),
                block_shape,
            },
            values[1 + 2 * rank],
        ))
    }

    /// Pointers and mask for a block access at `offsets` (`i64`), each with
    /// its own index ranges, as Triton's `generatePtr` and `generateMask`.
    fn pointers_and_mask(
        &self,
        b: &Builder<'c, 'a>,
        math: &PtrMath<'c, 'a>,
        offsets: &[Value<'c, 'a>],
    ) -> (Value<'c, 'a>, Option<Value<'c, 'a>>) {
        let ranges: Vec<_> = (0..offsets.len())
            .map(|d| math.offset_range(b, offsets[d], d))
            .collect();
        let pointers = math.pointers(b, |d| ranges[d]);
        let ranges: Vec<_> = (0..offsets.len())
            .map(|d| math.offset_range(b, offsets[d], d))
            .collect();
        let mask = math.mask(b, 0..offsets.len(), |d| ranges[d]);
        (pointers, mask)
    }

    /// What out-of-bounds elements read: `select(padding, NaN, 0)` for
    /// floats, 0 otherwise.
    fn other(
        &self,
        b: &Builder<'c, 'a>,
        element: Type<'c>,
        shape: &[i64],
        padding: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, Failure> {
        let ty = pir::tensor_type(shape, element);
        let zero = pir::zero_attr(element)
            .ok_or_else(|| pir::emit_error(b.location(), "cannot pad this element type"))?;
        Ok(match pir::nan_attr(element) {
            Some(nan) => {
                let nan = b.constant(pir::splat_attr(ty, nan));
                let zero = b.constant(pir::splat_attr(ty, zero));
                b.select(padding, nan, zero)
            }
            None => b.constant(pir::splat_attr(ty, zero)),
        })
    }

    fn default_cache(b: &Builder<'c, 'a>) -> (Attribute<'c>, Attribute<'c>) {
        (b.i32_attr(1), b.i32_attr(1))
    }

    /// What the rewrites of a descriptor load, store and reduction share:
    /// the operands, the descriptor's block, a builder before `op`, the
    /// pointer arithmetic and padding flag, and the block offsets (the
    /// operands from `first_offset` on) as i64.
    fn access(
        &mut self,
        op: OperationRef<'c, 'a>,
        first_offset: usize,
    ) -> Result<Access<'c, 'a>, Failure> {
        let operands = pir::operands(op);
        let block = desc_block(operands[0].r#type()).ok_or_else(|| not_legalized(op))?;
        let b = Builder::before(op);
        let (math, padding) = self.math(op, operands[0], block.shape.clone())?;
        let offsets = self.to_i64(&b, &operands[first_offset..]);
        Ok(Access {
            operands,
            block,
            b,
            math,
            padding,
            offsets,
        })
    }

    fn load(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let Access {
            block,
            b,
            math,
            padding,
            offsets,
            ..
        } = self.access(op, 1)?;
        let other = self.other(&b, pir::signless(block.element), &block.shape, padding)?;
        let (pointers, mask) = self.pointers_and_mask(&b, &math, &offsets);
        let (cache, evict) = Self::default_cache(&b);
        let load = b.load(
            pointers,
            mask,
            Some(other),
            cache,
            evict,
            b.bool_attr(false),
        );
        pir::copy_attributes(op, load, &["operandSegmentSizes"]);
        pir::replace_all_uses(pir::first_result(op), pir::first_result(load));
        self.replaced.push(op);
        Ok(())
    }

    fn store(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let Access {
            operands,
            b,
            math,
            offsets,
            ..
        } = self.access(op, 2)?;
        let (pointers, mask) = self.pointers_and_mask(&b, &math, &offsets);
        let (cache, evict) = Self::default_cache(&b);
        let store = b.store(pointers, operands[1], mask, cache, evict);
        pir::copy_attributes(op, store, &["operandSegmentSizes"]);
        self.replaced.push(op);
        Ok(())
    }

    /// Gathers and scatters address rows `x_offsets` and columns
    /// `y_offset..y_offset + n`; one set of index ranges serves the
    /// pointers and the mask.
    fn gather_scatter(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let operands = pir::operands(op);
        let is_gather = is_op(op, "tt.descriptor_gather");
        let block_ty = if is_gather {
            pir::first_result(op).r#type()
        } else {
            operands[3].r#type()
        };
        let block = types::Tensor::of(block_ty).ok_or_else(|| not_legalized(op))?;
        let desc = desc_block(operands[0].r#type()).ok_or_else(|| not_legalized(op))?;
        let b = Builder::before(op);
        let (math, padding) = self.math(op, operands[0], block.shape.clone())?;
        let x = math.expand_to_rank(&b, operands[1], 0);
        let y = self.to_i64(&b, &operands[2..3])[0];
        let x_shape = types::Tensor::of(x.r#type())
            .map(|t| t.shape)
            .unwrap_or_default();
        let x = b.extsi(x, pir::tensor_type(&x_shape, b.int_type(64)));
        let y = math.offset_range(&b, y, 1);
        let ranges = [x, y];
        let pointers = math.pointers(&b, |d| ranges[d]);
        let mask = math.mask(&b, 0..2, |d| ranges[d]);
        let (cache, evict) = Self::default_cache(&b);
        let new = if is_gather {
            let other = self.other(&b, pir::signless(desc.element), &block.shape, padding)?;
            let load = b.load(
                pointers,
                mask,
                Some(other),
                cache,
                evict,
                b.bool_attr(false),
            );
            pir::replace_all_uses(pir::first_result(op), pir::first_result(load));
            load
        } else {
            b.store(pointers, operands[3], mask, cache, evict)
        };
        pir::copy_attributes(op, new, &["operandSegmentSizes"]);
        self.replaced.push(op);
        Ok(())
    }

    fn reduce(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let Access {
            operands,
            block,
            b,
            math,
            offsets,
            ..
        } = self.access(op, 2)?;
        let kind = pir::int_attribute(op, "kind").unwrap_or(0);
        let rmw = rmw_kind(kind, block.element).ok_or_else(|| not_legalized(op))?;
        let (pointers, mask) = self.pointers_and_mask(&b, &math, &offsets);
        let result = pir::signless(pir::tensor_type(&block.shape, block.element));
        b.create(
            "tt.atomic_rmw",
            &[&[pointers, operands[1]][..], mask.as_slice()].concat(),
            &[result],
            &[
                ("atomic_rmw_op", b.i32_attr(rmw)),
                // MemSemantic::RELEASE, MemSyncScope::GPU.
                ("scope", b.i32_attr(1)),
                ("sem", b.i32_attr(3)),
            ],
        );
        self.replaced.push(op);
        Ok(())
    }

    fn call(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let operands = self.expand_all(op, pir::operands(op))?;
        let results = pir::results(op);
        let types = expand_types(results.iter().map(|r| r.r#type()));
        let attributes: Vec<(Identifier, Attribute)> = op.attributes().collect();
        let new =
            Builder::before(op).create_with_regions("tt.call", &operands, &types, &attributes, 0);
        self.remap(&results, &pir::results(new));
        self.replaced.push(op);
        Ok(())
    }

    /// `tt.return` (which keeps its attributes) and `scf.yield` (which does
    /// not) with expanded operands.
    fn terminator(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let operands = self.expand_all(op, pir::operands(op))?;
        let attributes: Vec<(Identifier, Attribute)> = if is_op(op, "tt.return") {
            op.attributes().collect()
        } else {
            Vec::new()
        };
        let name = pir::op_name(op);
        Builder::before(op).create_with_regions(&name, &operands, &[], &attributes, 0);
        self.replaced.push(op);
        Ok(())
    }

    /// A select of descriptors becomes an `scf.if` yielding either
    /// expansion.
    fn select(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let operands = pir::operands(op);
        let on_true = self.expand(op, operands[1])?;
        let on_false = self.expand(op, operands[2])?;
        let types: Vec<Type> = on_true.iter().map(|v| v.r#type()).collect();
        let attributes: Vec<(Identifier, Attribute)> = op.attributes().collect();
        let b = Builder::before(op);
        let new = b.create_with_regions("scf.if", &[operands[0]], &types, &attributes, 2);
        for (index, values) in [on_true, on_false].iter().enumerate() {
            let region = new.region(index).map_err(|_| not_legalized(op))?;
            let block = pir::append_block(region, &[]);
            Builder::at_end(block, op.location()).create("scf.yield", values, &[], &[]);
        }
        self.remap(&pir::results(op), &pir::results(new));
        self.replaced.push(op);
        Ok(())
    }

    /// Moves the ops of `old` (an entry block) into a new block appended to
    /// `region` whose arguments are `old`'s, expanded, each at the location
    /// of the argument it comes from.
    fn convert_block(&mut self, old: BlockRef<'c, 'a>, region: melior::ir::RegionRef<'c, 'a>) {
        let old_args = pir::block_arguments(old);
        let arguments: Vec<(Type<'c>, Location<'c>)> = old_args
            .iter()
            .flat_map(|a| {
                let location = pir::value_location(*a);
                expand_type(a.r#type())
                    .into_iter()
                    .map(move |t| (t, location))
            })
            .collect();
        let new = pir::append_block(region, &arguments);
        self.remap(&old_args, &pir::block_arguments(new));
        pir::move_ops(old, new);
    }

    fn entry_block(op: OperationRef<'c, 'a>, index: usize) -> Result<BlockRef<'c, 'a>, Failure> {
        let block = op
            .region(index)
            .ok()
            .and_then(|r| r.first_block())
            .ok_or_else(|| not_legalized(op))?;
        Ok(unsafe { BlockRef::from_raw(block.to_raw()) })
    }

    fn rewrite_for(&mut self, op: OperationRef<'c, 'a>) -> Result<OperationRef<'c, 'a>, Failure> {
        let operands = self.expand_all(op, pir::operands(op))?;
        let results = pir::results(op);
        let types = expand_types(results.iter().map(|r| r.r#type()));
        let attributes: Vec<(Identifier, Attribute)> = op.attributes().collect();
        let new =
            Builder::before(op).create_with_regions("scf.for", &operands, &types, &attributes, 1);
        let old_body = Self::entry_block(op, 0)?;
        let region = new.region(0).map_err(|_| not_legalized(op))?;
        self.convert_block(old_body, region);
        self.remap(&results, &pir::results(new));
        self.replaced.push(op);
        Ok(new)
    }

    fn rewrite_if(&mut self, op: OperationRef<'c, 'a>) -> Result<OperationRef<'c, 'a>, Failure> {
        let condition = op.operand(0).map_err(|_| not_legalized(op))?;
        let results = pir::results(op);
        let types = expand_types(results.iter().map(|r| r.r#type()));
        let attributes: Vec<(Identifier, Attribute)> = op.attributes().collect();
        let new =
            Builder::before(op).create_with_regions("scf.if", &[condition], &types, &attributes, 2);
        for index in 0..2 {
            if let (Ok(to), Ok(from)) = (new.region(index), op.region(index)) {
                pir::take_body(to, from);
            }
        }
        self.remap(&results, &pir::results(new));
        self.replaced.push(op);
        Ok(new)
    }

    /// `scf.while` is rebuilt without its attributes, as MLIR's structural
    /// conversion does.
    fn rewrite_while(&mut self, op: OperationRef<'c, 'a>) -> Result<OperationRef<'c, 'a>, Failure> {
        let operands = self.expand_all(op, pir::operands(op))?;
        let results = pir::results(op);
        let types = expand_types(results.iter().map(|r| r.r#type()));
        let new = Builder::before(op).create_with_regions("scf.while", &operands, &types, &[], 2);
        for index in 0..2 {
            let old = Self::entry_block(op, index)?;
            let region = new.region(index).map_err(|_| not_legalized(op))?;
            self.convert_block(old, region);
        }
        self.remap(&results, &pir::results(new));
        self.replaced.push(op);
        Ok(new)
    }

    /// A function's descriptor arguments and results expand in place: the
    /// entry block gets the new arguments after each old one (the old ones
    /// go at the end), the type and argument attributes are updated.
    fn rewrite_func(&mut self, op: OperationRef<'c, 'a>) -> PassResult {
        let function_type = op
            .attribute("function_type")
            .map_err(|_| not_legalized(op))?;
        let function_type = unsafe { sys::mlirTypeAttrGetValue(function_type.to_raw()) };
        let (inputs, outputs) = unsafe {
            let inputs: Vec<Type> = (0..sys::mlirFunctionTypeGetNumInputs(function_type))
                .map(|i| Type::from_raw(sys::mlirFunctionTypeGetInput(function_type, i)))
                .collect();
            let outputs: Vec<Type> = (0..sys::mlirFunctionTypeGetNumResults(function_type))
                .map(|i| Type::from_raw(sys::mlirFunctionTypeGetResult(function_type, i)))
                .collect();
            (inputs, outputs)
        };
        if !inputs.iter().chain(&outputs).any(|t| is_desc(*t)) {
            return Ok(());
        }
        let new_inputs = expand_types(inputs.iter().copied());
        let new_outputs = expand_types(outputs.iter().copied());

        if let Some(entry) = op.region(0).ok().and_then(|r| r.first_block()) {
            let entry = unsafe { BlockRef::from_raw(entry.to_raw()) };
            let mut stale = Vec::new();
            for (index, ty) in inputs.iter().enumerate().rev() {
                if !is_desc(*ty) {
                    continue;
                }
                let old = pir::block_arguments(entry)[index];
                let location = pir::value_location(old);
                let mut new = Vec::new();
                for (offset, ty) in expand_type(*ty).into_iter().enumerate() {
                    new.push(entry.insert_argument(index + 1 + offset, ty, location));
                }
                self.values.insert(key(old), new);
                stale.push(old);
            }
            self.stale_arguments.push((entry, stale));
        }

        let context = unsafe { sys::mlirOperationGetContext(op.to_raw()) };
        let new_type = unsafe {
            Type::from_raw(sys::mlirFunctionTypeGet(
                context,
                new_inputs.len() as isize,
                new_inputs.as_ptr() as *const sys::MlirType,
                new_outputs.len() as isize,
                new_outputs.as_ptr() as *const sys::MlirType,
            ))
        };
        let arg_attrs = op.attribute("arg_attrs").ok();
        let res_attrs = op.attribute("res_attrs").ok();
        let mut func = unsafe { OperationRefMut::from_raw(op.to_raw()) };
        func.set_inherent_attribute("function_type", TypeAttribute::new(new_type).into());

        // Argument attributes follow their argument to the first of its
        // values; the other values get none.
        if new_inputs.len() != inputs.len() {
            if let Some(attrs) = arg_attrs {
                let mut moved = Vec::new();
                for (index, ty) in inputs.iter().enumerate() {
                    moved.push(array_element(attrs, index).unwrap_or_else(|| empty_dict(context)));
                    for _ in 1..expand_type(*ty).len() {
                        moved.push(empty_dict(context));
                    }
                }
                set_dict_array(&mut func, "arg_attrs", context, &moved);
            }
        }
        // Result attributes are kept by position, cut or padded with empty
        // dictionaries, as `setFunctionType` does.
        if new_outputs.len() != outputs.len() {
            match res_attrs {
                Some(attrs) if !new_outputs.is_empty() => {
                    let kept: Vec<Attribute> = (0..new_outputs.len())
                        .map(|i| array_element(attrs, i).unwrap_or_else(|| empty_dict(context)))
                        .collect();
                    set_dict_array(&mut func, "res_attrs", context, &kept);
                }
                Some(_) => set_dict_array(&mut func, "res_attrs", context, &[]),
                None => {}
            }
        }
        Ok(())
    }

    /// Erases the replaced ops (users first) and the old descriptor
    /// arguments of functions.
    fn finish(&mut self) -> PassResult {
        while let Some(op) = self.replaced.pop() {
            if still_used(op) {
                return Err(not_legalized(op));
            }
            pir::erase(op);
        }
        for (block, stale) in std::mem::take(&mut self.stale_arguments) {
            for arg in stale {
                let Some(index) = pir::block_arguments(block).iter().position(|a| *a == arg) else {
                    continue;
                };
                if pir::has_uses(arg) {
                    return Err(pir::emit_error(
                        pir::value_location(arg),
                        "a tensor descriptor argument is still used after the rewrite",
                    ));
                }
                unsafe { block.erase_argument(index) };
            }
        }
        Ok(())
    }
}

fn empty_dict<'c>(context: sys::MlirContext) -> Attribute<'c> {
    unsafe { Attribute::from_raw(sys::mlirDictionaryAttrGet(context, 0, std::ptr::null())) }
}

fn array_element(array: Attribute, index: usize) -> Option<Attribute> {
    unsafe {
        let raw = array.to_raw();
        (sys::mlirAttributeIsAArray(raw)
            && (index as isize) < sys::mlirArrayAttrGetNumElements(raw))
        .then(|| Attribute::from_raw(sys::mlirArrayAttrGetElement(raw, index as isize)))
    }
}

/// Sets the dictionary array attribute `name`, or removes it when every
/// dictionary is empty (as the function interface does).
fn set_dict_array<'c>(
    func: &mut OperationRefMut<'c, '_>,
    name: &str,
    context: sys::MlirContext,
    dicts: &[Attribute<'c>],
) {
    let all_empty = dicts
        .iter()
        .all(|d| unsafe { sys::mlirDictionaryAttrGetNumElements(d.to_raw()) == 0 });
    if all_empty {
        let _ = func.remove_attribute(name);
        return;
    }
    let array = unsafe {
        Attribute::from_raw(sys::mlirArrayAttrGet(
            context,
            dicts.len() as isize,
            dicts.as_ptr() as *const sys::MlirAttribute,
        ))
    };
    func.set_inherent_attribute(name, array);
}

/// Whether a result of `op`, or an argument of a block in its regions, is
/// still used.
fn still_used(op: OperationRef) -> bool {
    if pir::has_used_results(op) {
        return true;
    }
    let mut used = false;
    pir::for_each_block(op, |b| {
        used |= pir::block_arguments(b).into_iter().any(pir::has_uses);
    });
    used
}
