//! Safe views of the types the verifiers and passes inspect: `!tt.ptr`,
//! `!tt.tensordesc`, and ranked tensors with their shape and encoding.

use melior::ir::{r#type::TypeLike, Attribute, Type};

use crate::ffi;

/// `!tt.ptr<pointee, address_space>`.
pub fn pointer_type<'c>(pointee: Type<'c>, address_space: i32) -> Type<'c> {
    unsafe { Type::from_raw(ffi::ttPointerTypeGet(pointee.to_raw(), address_space)) }
}

/// Whether `ty` is a `!tt.ptr`.
pub fn is_pointer(ty: Type) -> bool {
    unsafe { ffi::ttTypeIsAPointer(ty.to_raw()) }
}

/// The pointee and address space of a `!tt.ptr`, or `None`.
pub fn pointer_parts(ty: Type) -> Option<(Type, i32)> {
    if !is_pointer(ty) {
        return None;
    }
    unsafe {
        Some((
            Type::from_raw(ffi::ttPointerTypeGetPointee(ty.to_raw())),
            ffi::ttPointerTypeGetAddressSpace(ty.to_raw()),
        ))
    }
}

/// `ty` with a signed or unsigned integer made signless (the same width);
/// other types unchanged.
pub fn signless(ty: Type) -> Type {
    let raw = ty.to_raw();
    // SAFETY: `raw` is a valid type of a live context; the integer queries
    // are only made on integer types and the new type lives in the same
    // context.
    unsafe {
        if mlir_sys::mlirTypeIsAInteger(raw) && !mlir_sys::mlirIntegerTypeIsSignless(raw) {
            let context = mlir_sys::mlirTypeGetContext(raw);
            let width = mlir_sys::mlirIntegerTypeGetWidth(raw);
            return Type::from_raw(mlir_sys::mlirIntegerTypeGet(context, width));
        }
    }
    ty
}

/// The block type of a `!tt.tensordesc`, or `None`.
pub fn tensor_desc_block(ty: Type) -> Option<Type> {
    unsafe {
        ffi::ttTypeIsATensorDesc(ty.to_raw())
            .then(|| Type::from_raw(ffi::ttTensorDescTypeGetBlockType(ty.to_raw())))
    }
}

/// A ranked tensor's parts, borrowed from the type (types live as long as
/// their context): one call into the shim, no allocation. The verifier rules
/// that run on every op use this.
#[derive(Clone, Copy, Debug)]
pub struct TensorView<'c> {
    pub shape: &'c [i64],
    pub element: Type<'c>,
    pub encoding: Option<Attribute<'c>>,
}

impl<'c> TensorView<'c> {
    /// Views `ty` if it is a ranked tensor.
    pub fn of(ty: Type<'c>) -> Option<Self> {
        let mut shape = std::ptr::null();
        let mut rank = 0isize;
        let mut element = ty.to_raw();
        let mut encoding = mlir_sys::MlirAttribute {
            ptr: std::ptr::null(),
        };
        unsafe {
            if !ffi::ttRankedTensorGetParts(
                ty.to_raw(),
                &mut shape,
                &mut rank,
                &mut element,
                &mut encoding,
            ) {
                return None;
            }
            let shape = if rank <= 0 || shape.is_null() {
                &[][..]
            } else {
                std::slice::from_raw_parts(shape, rank as usize)
            };
            Some(Self {
                shape,
                element: Type::from_raw(element),
                encoding: Attribute::from_option_raw(encoding),
            })
        }
    }

    /// The number of elements (see [`num_elements`]).
    pub fn num_elements(&self) -> i64 {
        num_elements(self.shape)
    }
}

/// The number of elements of a shape: saturating, and a dynamic (negative)
/// size counts as 0, so such a tensor never passes the power-of-two rule.
pub fn num_elements(shape: &[i64]) -> i64 {
    shape
        .iter()
        .fold(1i64, |acc, &d| acc.saturating_mul(d.max(0)))
}

/// A ranked tensor's static facts, read once.
#[derive(Clone, Debug)]
pub struct Tensor<'c> {
    pub shape: Vec<i64>,
    pub element: Type<'c>,
    pub encoding: Option<Attribute<'c>>,
}

impl<'c> Tensor<'c> {
    /// Reads `ty` if it is a ranked tensor.
    pub fn of(ty: Type<'c>) -> Option<Self> {
        TensorView::of(ty).map(|view| Self {
            shape: view.shape.to_vec(),
            element: view.element,
            encoding: view.encoding,
        })
    }

    /// The number of elements (see [`num_elements`]).
    pub fn num_elements(&self) -> i64 {
        num_elements(&self.shape)
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }
}

/// The shape a load or store sees through `ty`: a tensor's shape, a block
/// pointer's pointee shape, or empty for scalars.
pub fn load_store_shape<'c>(ty: Type<'c>) -> &'c [i64] {
    if let Some(t) = TensorView::of(ty) {
        return t.shape;
    }
    match pointer_parts(ty).and_then(|(pointee, _)| TensorView::of(pointee)) {
        Some(t) => t.shape,
        None => &[],
    }
}

/// The encoding a load or store sees through `ty` (looking through block
/// pointers).
pub fn load_store_encoding(ty: Type) -> Option<Attribute> {
    if let Some(t) = TensorView::of(ty) {
        return t.encoding;
    }
    pointer_parts(ty)
        .and_then(|(pointee, _)| TensorView::of(pointee))
        .and_then(|t| t.encoding)
}

/// The element type of a tensor, or the type itself.
pub fn element_type(ty: Type) -> Type {
    TensorView::of(ty).map(|t| t.element).unwrap_or(ty)
}

/// The bit width of an integer or float type (pointers count as 64 bits).
pub fn bit_width(ty: Type) -> Option<u32> {
    let raw = ty.to_raw();
    unsafe {
        if mlir_sys::mlirTypeIsAInteger(raw) {
            return Some(mlir_sys::mlirIntegerTypeGetWidth(raw));
        }
        if mlir_sys::mlirTypeIsAFloat(raw) {
            return Some(mlir_sys::mlirFloatTypeGetWidth(raw));
        }
    }
    is_pointer(ty).then_some(64)
}

/// Whether `ty` is a float type.
pub fn is_float(ty: Type) -> bool {
    unsafe { mlir_sys::mlirTypeIsAFloat(ty.to_raw()) }
}
