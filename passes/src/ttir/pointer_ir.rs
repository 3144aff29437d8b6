//! IR building and raw IR edits shared by the two passes that lower block
//! accesses to tensors of pointers (`triton-rewrite-tensor-pointer` and
//! `triton-rewrite-tensor-descriptor-to-pointer`).
//!
//! [`Builder`] creates ops at an insertion point with one location, with the
//! operands, result types and attributes that Triton's own C++ builders give
//! them (so the ops carry the same inherent attributes, printed or not). [`PtrMath`] is
//! the arithmetic both passes share: the per-dimension index ranges, the
//! tensor of pointers `base + sum(range_d * stride_d)` and the bounds mask
//! `0 <= range_d < shape_d`. The free functions are the raw edits melior
//! does not wrap: use checks, replacing uses, moving ops between blocks,
//! erasing ops and block arguments.

use melior::ir::{
    attribute::{DenseI32ArrayAttribute, IntegerAttribute},
    block::BlockLike,
    operation::{OperationBuilder, OperationLike, OperationMutLike, OperationRef},
    Attribute, AttributeLike, BlockRef, Identifier, Location, RegionLike, RegionRef, Type,
    TypeLike, Value, ValueLike,
};
use mlir_sys as sys;
use tt_dialect::types::{self, Tensor};

use super::loop_support::ir::cmpi;

pub use tt_dialect::ir::{first_result, set_operands};

/// A value's identity, usable as a map key.
pub fn key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

/// Where a [`Builder`] puts new ops.
#[derive(Clone, Copy)]
pub enum InsertAt<'c, 'a> {
    /// Right before this op.
    Before(OperationRef<'c, 'a>),
    /// At the end of this block.
    End(BlockRef<'c, 'a>),
}

/// Creates ops at one insertion point, all with one location.
#[derive(Clone, Copy)]
pub struct Builder<'c, 'a> {
    at: InsertAt<'c, 'a>,
    location: Location<'c>,
}

impl<'c, 'a> Builder<'c, 'a> {
    /// Inserts before `op`, with `op`'s location.
    pub fn before(op: OperationRef<'c, 'a>) -> Self {
        Self {
            at: InsertAt::Before(op),
            location: op.location(),
        }
    }

    /// Inserts at the end of `block`, with `location`.
    pub fn at_end(block: BlockRef<'c, 'a>, location: Location<'c>) -> Self {
        Self {
            at: InsertAt::End(block),
            location,
        }
    }

    /// The same insertion point with another location.
    pub fn with_location(self, location: Location<'c>) -> Self {
        Self { location, ..self }
    }

    pub fn location(&self) -> Location<'c> {
        self.location
    }

    fn context_raw(&self) -> sys::MlirContext {
        unsafe { sys::mlirLocationGetContext(self.location.to_raw()) }
    }

    /// Inserts an already built op.
    pub fn insert(&self, op: melior::ir::Operation<'c>) -> OperationRef<'c, 'a> {
        match self.at {
            InsertAt::Before(anchor) => {
                let block = anchor.block().expect("the anchor op is in a block");
                // The block reference borrows `anchor`; the new op lives as
                // long as the anchor's block does.
                let new = block.insert_operation_before(anchor, op);
                unsafe { OperationRef::from_raw(new.to_raw()) }
            }
            InsertAt::End(block) => block.append_operation(op),
        }
    }

    /// Creates and inserts the op `name`.
    pub fn create(
        &self,
        name: &str,
        operands: &[Value<'c, 'a>],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
    ) -> OperationRef<'c, 'a> {
        let context = unsafe { melior::ContextRef::from_raw(self.context_raw()) };
        let attributes: Vec<(Identifier<'c>, Attribute<'c>)> = attributes
            .iter()
            .map(|(name, value)| (Identifier::new(unsafe { context.to_ref() }, name), *value))
            .collect();
        let op = OperationBuilder::new(name, self.location)
            .add_operands(operands)
            .add_results(results)
            .add_attributes(&attributes)
            .build()
            // Creation only fails when result types are inferred, which
            // this builder never asks for.
            .expect("op creation without type inference cannot fail");
        self.insert(op)
    }

    /// Creates the op `name` with `regions` empty regions.
    pub fn create_with_regions(
        &self,
        name: &str,
        operands: &[Value<'c, 'a>],
        results: &[Type<'c>],
        attributes: &[(Identifier<'c>, Attribute<'c>)],
        regions: usize,
    ) -> OperationRef<'c, 'a> {
        let op = OperationBuilder::new(name, self.location)
            .add_operands(operands)
            .add_results(results)
            .add_attributes(attributes)
            .add_regions_vec((0..regions).map(|_| melior::ir::Region::new()).collect())
            .build()
            .expect("op creation without type inference cannot fail");
        self.insert(op)
    }

    /// Creates the one-result op `name` and returns its result.
    pub fn create1(
        &self,
        name: &str,
        operands: &[Value<'c, 'a>],
        result: Type<'c>,
        attributes: &[(&str, Attribute<'c>)],
    ) -> Value<'c, 'a> {
        first_result(self.create(name, operands, &[result], attributes))
    }

    // ---- types and attributes -------------------------------------------

    pub fn int_type(&self, width: u32) -> Type<'c> {
        unsafe { Type::from_raw(sys::mlirIntegerTypeGet(self.context_raw(), width)) }
    }

    pub fn i32_attr(&self, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(self.int_type(32), value).into()
    }

    pub fn i64_attr(&self, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(self.int_type(64), value).into()
    }

    pub fn bool_attr(&self, value: bool) -> Attribute<'c> {
        unsafe { Attribute::from_raw(sys::mlirBoolAttrGet(self.context_raw(), i32::from(value))) }
    }

    pub fn i32_array_attr(&self, values: &[i32]) -> Attribute<'c> {
        let context = unsafe { melior::ContextRef::from_raw(self.context_raw()) };
        DenseI32ArrayAttribute::new(unsafe { context.to_ref() }, values).into()
    }

    /// `#arith.overflow<none>`, which Triton's `arith.addi`/`arith.muli`
    /// builders set.
    fn no_overflow(&self) -> Attribute<'c> {
        let context = unsafe { melior::ContextRef::from_raw(self.context_raw()) };
        Attribute::parse(unsafe { context.to_ref() }, "#arith.overflow<none>")
            .expect("the arith dialect is loaded")
    }

    // ---- ops --------------------------------------------------------------

    /// `arith.constant` of a typed attribute.
    pub fn constant(&self, value: Attribute<'c>) -> Value<'c, 'a> {
        let ty = unsafe { Type::from_raw(sys::mlirAttributeGetType(value.to_raw())) };
        self.create1("arith.constant", &[], ty, &[("value", value)])
    }

    pub fn constant_i64(&self, value: i64) -> Value<'c, 'a> {
        self.constant(self.i64_attr(value))
    }

    pub fn extsi(&self, value: Value<'c, 'a>, ty: Type<'c>) -> Value<'c, 'a> {
        self.create1("arith.extsi", &[value], ty, &[])
    }

    pub fn addi(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        let overflow = self.no_overflow();
        self.create1(
            "arith.addi",
            &[lhs, rhs],
            lhs.r#type(),
            &[("overflowFlags", overflow)],
        )
    }

    pub fn muli(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        let overflow = self.no_overflow();
        self.create1(
            "arith.muli",
            &[lhs, rhs],
            lhs.r#type(),
            &[("overflowFlags", overflow)],
        )
    }

    pub fn andi(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.create1("arith.andi", &[lhs, rhs], lhs.r#type(), &[])
    }

    /// `arith.cmpi` with the result type `i1` shaped like `lhs`.
    pub fn cmpi(&self, predicate: i64, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        let i1 = self.int_type(1);
        let ty = match Tensor::of(lhs.r#type()) {
            Some(t) => tensor_type(&t.shape, i1),
            None => i1,
        };
        self.create1(
            "arith.cmpi",
            &[lhs, rhs],
            ty,
            &[("predicate", self.i64_attr(predicate))],
        )
    }

    pub fn select(
        &self,
        condition: Value<'c, 'a>,
        on_true: Value<'c, 'a>,
        on_false: Value<'c, 'a>,
    ) -> Value<'c, 'a> {
        self.create1(
            "arith.select",
            &[condition, on_true, on_false],
            on_true.r#type(),
            &[],
        )
    }

    pub fn splat(&self, value: Value<'c, 'a>, ty: Type<'c>) -> Value<'c, 'a> {
        self.create1("tt.splat", &[value], ty, &[])
    }

    pub fn broadcast(&self, value: Value<'c, 'a>, ty: Type<'c>) -> Value<'c, 'a> {
        self.create1("tt.broadcast", &[value], ty, &[])
    }

    /// `tt.make_range {start = 0, end = size}` as a `tensor<size x i32>`.
    pub fn make_range(&self, size: i64) -> Value<'c, 'a> {
        let ty = tensor_type(&[size], self.int_type(32));
        self.create1(
            "tt.make_range",
            &[],
            ty,
            &[("end", self.i32_attr(size)), ("start", self.i32_attr(0))],
        )
    }

    /// `tt.expand_dims` inserting a unit dimension at `axis`.
    pub fn expand_dims(&self, value: Value<'c, 'a>, axis: usize) -> Value<'c, 'a> {
        let t = Tensor::of(value.r#type()).expect("expand_dims of a ranked tensor");
        let mut shape = t.shape.clone();
        shape.insert(axis, 1);
        let ty = tensor_type(&shape, t.element);
        self.create1(
            "tt.expand_dims",
            &[value],
            ty,
            &[("axis", self.i32_attr(axis as i64))],
        )
    }

    pub fn addptr(&self, ptr: Value<'c, 'a>, offset: Value<'c, 'a>) -> Value<'c, 'a> {
        self.create1("tt.addptr", &[ptr, offset], ptr.r#type(), &[])
    }

    /// `tt.load ptr, mask, other` with the cache, eviction and volatility
    /// given, as Triton's `LoadOp` builder makes it (an empty
    /// `boundaryCheck`, no padding).
    pub fn load(
        &self,
        ptr: Value<'c, 'a>,
        mask: Option<Value<'c, 'a>>,
        other: Option<Value<'c, 'a>>,
        cache: Attribute<'c>,
        evict: Attribute<'c>,
        is_volatile: Attribute<'c>,
    ) -> OperationRef<'c, 'a> {
        let result = pointee_tensor(ptr.r#type());
        let mut operands = vec![ptr];
        operands.extend(mask);
        operands.extend(other);
        let segments = [1, i32::from(mask.is_some()), i32::from(other.is_some())];
        self.create(
            "tt.load",
            &operands,
            &[result],
            &[
                ("boundaryCheck", self.i32_array_attr(&[])),
                ("cache", cache),
                ("evict", evict),
                ("isVolatile", is_volatile),
                ("operandSegmentSizes", self.i32_array_attr(&segments)),
            ],
        )
    }

    /// `tt.store ptr, value, mask` as Triton's `StoreOp` builder makes it.
    pub fn store(
        &self,
        ptr: Value<'c, 'a>,
        value: Value<'c, 'a>,
        mask: Option<Value<'c, 'a>>,
        cache: Attribute<'c>,
        evict: Attribute<'c>,
    ) -> OperationRef<'c, 'a> {
        let mut operands = vec![ptr, value];
        operands.extend(mask);
        self.create(
            "tt.store",
            &operands,
            &[],
            &[
                ("boundaryCheck", self.i32_array_attr(&[])),
                ("cache", cache),
                ("evict", evict),
            ],
        )
    }
}

/// The results of `op`.
pub fn results<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    op.results().map(Into::into).collect()
}

/// The operands of `op`.
pub fn operands<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    op.operands().collect()
}

/// `tensor<shape x element>` without encoding.
pub fn tensor_type<'c>(shape: &[i64], element: Type<'c>) -> Type<'c> {
    tt_dialect::ir::tensor_type(shape, element, None)
}

/// The tensor a tensor of pointers points to: `tensor<S x !tt.ptr<T>>`
/// gives `tensor<S x T>`.
pub fn pointee_tensor(ptr: Type) -> Type {
    let t = Tensor::of(ptr).expect("a tensor of pointers");
    let (pointee, _) = types::pointer_parts(t.element).expect("a tensor of pointers");
    tensor_type(&t.shape, pointee)
}

/// A type's context, as the raw handle.
pub fn context_of(ty: Type) -> sys::MlirContext {
    unsafe { sys::mlirTypeGetContext(ty.to_raw()) }
}

/// `ty` with signed or unsigned integers made signless (Triton's
/// `getSignlessBlockType`); other types are returned unchanged.
pub fn signless<'c>(ty: Type<'c>) -> Type<'c> {
    unsafe {
        let raw = ty.to_raw();
        if sys::mlirTypeIsAInteger(raw) && !sys::mlirIntegerTypeIsSignless(raw) {
            let width = sys::mlirIntegerTypeGetWidth(raw);
            return Type::from_raw(sys::mlirIntegerTypeGet(context_of(ty), width));
        }
    }
    if let Some(t) = Tensor::of(ty) {
        let element = signless(t.element);
        if element != t.element {
            return tensor_type(&t.shape, element);
        }
    }
    ty
}

/// The zero of a scalar int or float type, `None` for other types.
pub fn zero_attr(element: Type) -> Option<Attribute> {
    unsafe {
        let raw = element.to_raw();
        if sys::mlirTypeIsAInteger(raw) {
            Some(Attribute::from_raw(sys::mlirIntegerAttrGet(raw, 0)))
        } else if sys::mlirTypeIsAFloat(raw) {
            Some(Attribute::from_raw(sys::mlirFloatAttrDoubleGet(
                context_of(element),
                raw,
                0.0,
            )))
        } else {
            None
        }
    }
}

/// The quiet NaN of a float type (APFloat's default NaN, which is what a
/// double NaN converts to), `None` for other types.
pub fn nan_attr(element: Type) -> Option<Attribute> {
    unsafe {
        let raw = element.to_raw();
        sys::mlirTypeIsAFloat(raw).then(|| {
            Attribute::from_raw(sys::mlirFloatAttrDoubleGet(
                context_of(element),
                raw,
                f64::NAN,
            ))
        })
    }
}

/// A splat dense elements attribute of `ty` holding `element`.
pub fn splat_attr<'c>(ty: Type<'c>, element: Attribute<'c>) -> Attribute<'c> {
    unsafe {
        Attribute::from_raw(sys::mlirDenseElementsAttrSplatGet(
            ty.to_raw(),
            element.to_raw(),
        ))
    }
}

/// The integer value of `op`'s attribute `name`, if it is an integer.
pub fn int_attribute(op: OperationRef, name: &str) -> Option<i64> {
    let attr = op.attribute(name).ok()?;
    unsafe {
        sys::mlirAttributeIsAInteger(attr.to_raw())
            .then(|| sys::mlirIntegerAttrGetValueInt(attr.to_raw()))
    }
}

/// The elements of `op`'s dense `i32` array attribute `name` (empty when
/// absent).
pub fn i32_array_attribute(op: OperationRef, name: &str) -> Vec<i32> {
    let Ok(attr) = op.attribute(name) else {
        return Vec::new();
    };
    match DenseI32ArrayAttribute::try_from(attr) {
        Ok(array) => (0..array.len())
            .filter_map(|i| array.element(i).ok())
            .collect(),
        Err(_) => Vec::new(),
    }
}

// ---- users, uses and erasure ----------------------------------------------

/// Whether `value` has any use.
pub fn has_uses(value: Value) -> bool {
    unsafe { !sys::mlirOpOperandIsNull(sys::mlirValueGetFirstUse(value.to_raw())) }
}

/// Replaces every use of `of` with `with`.
pub fn replace_all_uses(of: Value, with: Value) {
    unsafe { sys::mlirValueReplaceAllUsesOfWith(of.to_raw(), with.to_raw()) }
}

/// Erases `op`, which must have no used results.
pub fn erase(op: OperationRef) {
    unsafe { sys::mlirOperationDestroy(op.to_raw()) }
}

/// Whether some result of `op` is still used.
pub fn has_used_results(op: OperationRef) -> bool {
    op.results().any(|r| has_uses(r.into()))
}

/// The block that owns the block argument `value` and its position, or
/// `None` for an op result.
pub fn block_argument_owner<'c, 'a>(value: Value<'c, 'a>) -> Option<(BlockRef<'c, 'a>, usize)> {
    let arg = tt_dialect::ir::block_argument(value)?;
    let block = unsafe { BlockRef::from_raw(sys::mlirBlockArgumentGetOwner(value.to_raw())) };
    Some((block, arg.argument_number()))
}

/// Moves every op of `from` to the end of `to`, in order.
pub fn move_ops<'c, 'a>(from: BlockRef<'c, 'a>, to: BlockRef<'c, 'a>) {
    if let Some(first) = from.first_operation() {
        crate::ttir::loop_support::ir::move_tail(first.to_raw(), to.to_raw());
    }
}

/// Appends a new block with arguments `arguments` to `region`.
pub fn append_block<'c, 'a>(
    region: RegionRef<'c, 'a>,
    arguments: &[(Type<'c>, Location<'c>)],
) -> BlockRef<'c, 'a> {
    let block = melior::ir::Block::new(arguments);
    let block = region.append_block(block);
    unsafe { BlockRef::from_raw(block.to_raw()) }
}

/// The arguments of `block`.
pub fn block_arguments<'c, 'a>(block: BlockRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    (0..block.argument_count())
        .filter_map(|i| block.argument(i).ok().map(Into::into))
        .collect()
}

/// Moves the blocks of `from` into the empty region `to`.
pub fn take_body(to: RegionRef, from: RegionRef) {
    unsafe { sys::mlirRegionTakeBody(to.to_raw(), from.to_raw()) }
}

/// Copies every attribute of `from` (inherent and discardable) onto `to`,
/// as `Operation::setAttrs(from->getAttrs())` does, minus the names in
/// `skip`; `to`'s other discardable attributes are dropped first.
pub fn copy_attributes(from: OperationRef, to: OperationRef, skip: &[&str]) {
    let mut to = unsafe { melior::ir::operation::OperationRefMut::from_raw(to.to_raw()) };
    let stale: Vec<String> = (0..to.discardable_attribute_count())
        .filter_map(|i| to.discardable_attribute_at(i).ok())
        .filter_map(|(name, _)| name.as_string_ref().as_str().ok().map(str::to_owned))
        .collect();
    for name in stale {
        let _ = to.remove_discardable_attribute(&name);
    }
    let attributes: Vec<(String, Attribute)> = from
        .attributes()
        .filter_map(|(name, value)| {
            let name = name.as_string_ref().as_str().ok()?.to_owned();
            (!skip.contains(&name.as_str())).then_some((name, value))
        })
        .collect();
    for (name, value) in attributes {
        if to.has_inherent_attribute(&name) {
            to.set_inherent_attribute(&name, value);
        } else {
            to.set_discardable_attribute(&name, value);
        }
    }
}

/// The location of `value`: its block argument's or its defining op's.
pub fn value_location<'c>(value: Value<'c, '_>) -> Location<'c> {
    unsafe { Location::from_raw(sys::mlirValueGetLocation(value.to_raw())) }
}

/// The arithmetic both lowerings share, for one access of a block of shape
/// `block_shape` through `base` with per-dimension `strides` and `shape`.
pub struct PtrMath<'c, 'a> {
    pub base: Value<'c, 'a>,
    pub shape: Vec<Value<'c, 'a>>,
    pub strides: Vec<Value<'c, 'a>>,
    pub block_shape: Vec<i64>,
}

impl<'c, 'a> PtrMath<'c, 'a> {
    /// `expand_dims(splat(offset) + extsi(make_range(0, n)))` along `dim`:
    /// the `i64` indices of dimension `dim`, shaped 1 everywhere else.
    pub fn offset_range(
        &self,
        b: &Builder<'c, 'a>,
        offset: Value<'c, 'a>,
        dim: usize,
    ) -> Value<'c, 'a> {
        let i64 = b.int_type(64);
        let row = tensor_type(&[self.block_shape[dim]], i64);
        let splat = b.splat(offset, row);
        let range = b.make_range(self.block_shape[dim]);
        let range = b.extsi(range, row);
        let sum = b.addi(splat, range);
        self.expand_to_rank(b, sum, dim)
    }

    /// Inserts unit dimensions at every axis but `dim`, in order.
    pub fn expand_to_rank(
        &self,
        b: &Builder<'c, 'a>,
        value: Value<'c, 'a>,
        dim: usize,
    ) -> Value<'c, 'a> {
        let mut value = value;
        for axis in 0..self.block_shape.len() {
            if axis != dim {
                value = b.expand_dims(value, axis);
            }
        }
        value
    }

    /// `splat(base)` advanced by `broadcast(range_d * splat(stride_d))` for
    /// every dimension, in order. Strides are splat to the expanded shape
    /// (not a row) so that their divisibility reaches the pointer analysis.
    pub fn pointers(
        &self,
        b: &Builder<'c, 'a>,
        mut range: impl FnMut(usize) -> Value<'c, 'a>,
    ) -> Value<'c, 'a> {
        let i64 = b.int_type(64);
        let index_ty = tensor_type(&self.block_shape, i64);
        let ptr_ty = tensor_type(&self.block_shape, self.base.r#type());
        let mut ptr = b.splat(self.base, ptr_ty);
        for (dim, stride) in self.strides.iter().enumerate() {
            let offsets = range(dim);
            let stride = b.splat(*stride, offsets.r#type());
            let scaled = b.muli(offsets, stride);
            let full = b.broadcast(scaled, index_ty);
            ptr = b.addptr(ptr, full);
        }
        ptr
    }

    /// The `and` of `0 <= range_d < shape_d` over `dims`, broadcast to the
    /// block; `None` when `dims` is empty.
    pub fn mask(
        &self,
        b: &Builder<'c, 'a>,
        dims: impl IntoIterator<Item = usize>,
        mut range: impl FnMut(usize) -> Value<'c, 'a>,
    ) -> Option<Value<'c, 'a>> {
        let mask_ty = tensor_type(&self.block_shape, b.int_type(1));
        let mut mask: Option<Value<'c, 'a>> = None;
        for dim in dims {
            let offsets = range(dim);
            let zero = b.constant_i64(0);
            let zero = b.splat(zero, offsets.r#type());
            let lower = b.cmpi(cmpi::SGE, offsets, zero);
            let bound = b.splat(self.shape[dim], offsets.r#type());
            let upper = b.cmpi(cmpi::SLT, offsets, bound);
            let both = b.andi(lower, upper);
            let full = b.broadcast(both, mask_ty);
            mask = Some(match mask {
                None => full,
                Some(acc) => b.andi(acc, full),
            });
        }
        mask
    }
}

/// Emits `message` as an error at `location`, without the `'op' op`
/// prefix (as `Operation::emitError` does), and returns the failure.
pub fn emit_error(location: Location, message: &str) -> crate::rust_pass::Failure {
    let text = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    unsafe { sys::mlirEmitError(location.to_raw(), text.as_ptr()) };
    crate::rust_pass::Failure
}

/// The name of `op`, e.g. `tt.load`.
pub fn op_name(op: OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("?").to_owned()
}

/// Calls `f` on every block of every region of `op` (not nested deeper).
pub fn for_each_block<'c, 'a>(op: OperationRef<'c, 'a>, mut f: impl FnMut(BlockRef<'c, 'a>)) {
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            let b = unsafe { BlockRef::from_raw(b.to_raw()) };
            f(b);
            block = b.next_in_region();
        }
    }
}
