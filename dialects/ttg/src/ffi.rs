//! Raw bindings to the `ttg`/`ttng` shim's C API
//! (`include/ttg-c/TritonGPU.h`).

use mlir_sys::{MlirAttribute, MlirDialectHandle, MlirStringRef, MlirType};

pub const ENC_NONE: i32 = 0;
pub const ENC_BLOCKED: i32 = 1;
pub const ENC_SLICE: i32 = 2;
pub const ENC_DOT_OPERAND: i32 = 3;
pub const ENC_NVIDIA_MMA: i32 = 4;
pub const ENC_LINEAR: i32 = 5;
pub const ENC_AMD_MFMA: i32 = 6;
pub const ENC_AMD_WMMA: i32 = 7;
pub const ENC_SWIZZLED_SHARED: i32 = 10;
pub const ENC_NVMMA_SHARED: i32 = 11;
pub const ENC_SHARED_LINEAR: i32 = 12;
pub const ENC_PADDED_SHARED: i32 = 13;
pub const ENC_AMD_ROTATING_SHARED: i32 = 14;
pub const ENC_TENSOR_MEMORY: i32 = 15;
pub const ENC_TENSOR_MEMORY_SCALES: i32 = 16;
pub const SPACE_SHARED_MEMORY: i32 = 20;
pub const SPACE_TENSOR_MEMORY: i32 = 21;

/// A borrowed array of parameters inside an attribute's storage.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct UnsignedArray {
    pub data: *const u32,
    pub size: isize,
}

impl UnsignedArray {
    /// Copies the values out.
    pub fn to_vec(self) -> Vec<u32> {
        if self.data.is_null() || self.size <= 0 {
            return Vec::new();
        }
        unsafe { std::slice::from_raw_parts(self.data, self.size as usize) }.to_vec()
    }
}

pub type EmitFn = unsafe extern "C" fn(user: *mut std::ffi::c_void, message: MlirStringRef);
pub type EncodingVerifyCallback =
    unsafe extern "C" fn(attr: MlirAttribute, emit: EmitFn, user: *mut std::ffi::c_void) -> i32;
pub type TensorMemoryVerifyCallback = unsafe extern "C" fn(
    params: *const u32,
    count: isize,
    emit: EmitFn,
    user: *mut std::ffi::c_void,
) -> i32;

#[link(name = "ttg_shim", kind = "static")]
unsafe extern "C" {
    pub fn mlirGetDialectHandle__ttg__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__ttng__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__nvg__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__tti__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__nvws__() -> MlirDialectHandle;
    pub fn nvwsTypeIsAAref(ty: MlirType) -> bool;
    pub fn nvwsArefTypeGetNumBaseTypes(ty: MlirType) -> isize;
    pub fn nvwsArefTypeGetBaseType(ty: MlirType, index: isize) -> MlirType;
    pub fn ttgShimSetEncodingVerifyCallback(cb: EncodingVerifyCallback);
    pub fn ttgShimSetTensorMemoryVerifyCallback(cb: TensorMemoryVerifyCallback);
    pub fn ttngTensorMemoryGetField(attr: MlirAttribute, field: i32) -> u32;

    pub fn ttgEncodingKind(attr: MlirAttribute) -> i32;
    pub fn ttgBlockedGetField(attr: MlirAttribute, field: i32) -> UnsignedArray;
    pub fn ttgEncodingGetCGALayout(attr: MlirAttribute) -> MlirAttribute;
    pub fn ttgSliceGetDim(attr: MlirAttribute) -> u32;
    pub fn ttgSliceGetParent(attr: MlirAttribute) -> MlirAttribute;
    pub fn ttgDotOperandGetOpIdx(attr: MlirAttribute) -> u32;
    pub fn ttgDotOperandGetParent(attr: MlirAttribute) -> MlirAttribute;
    pub fn ttgDotOperandGetKWidth(attr: MlirAttribute) -> u32;
    pub fn ttgNvidiaMmaGetVersionMajor(attr: MlirAttribute) -> u32;
    pub fn ttgNvidiaMmaGetVersionMinor(attr: MlirAttribute) -> u32;
    pub fn ttgNvidiaMmaGetWarpsPerCTA(attr: MlirAttribute) -> UnsignedArray;
    pub fn ttgNvidiaMmaGetInstrShape(attr: MlirAttribute) -> UnsignedArray;
    pub fn ttgAmdMfmaGetField(attr: MlirAttribute, field: i32) -> u32;
    pub fn ttgAmdMfmaGetArray(attr: MlirAttribute, field: i32) -> UnsignedArray;
    pub fn ttgAmdWmmaGetField(attr: MlirAttribute, field: i32) -> u32;
    pub fn ttgAmdWmmaGetArray(attr: MlirAttribute, field: i32) -> UnsignedArray;
    pub fn ttgLinearGetBases(attr: MlirAttribute, field: i32) -> MlirAttribute;
    pub fn ttgSwizzledSharedGetField(attr: MlirAttribute, field: i32) -> u32;
    pub fn ttgSwizzledSharedGetOrder(attr: MlirAttribute) -> UnsignedArray;
    pub fn ttgAmdRotatingSharedGetField(attr: MlirAttribute, field: i32) -> u32;
    pub fn ttgAmdRotatingSharedGetOrder(attr: MlirAttribute) -> UnsignedArray;
    pub fn ttgNVMMASharedGetField(attr: MlirAttribute, field: i32) -> u32;
    pub fn ttgSharedLinearGetBases(attr: MlirAttribute, field: i32) -> MlirAttribute;
    pub fn ttgSharedLinearGetAlignment(attr: MlirAttribute) -> u32;
    pub fn ttgPaddedSharedGetField(attr: MlirAttribute, field: i32) -> UnsignedArray;
    pub fn ttgPaddedSharedGetLayoutField(attr: MlirAttribute, field: i32) -> MlirAttribute;

    pub fn ttgTypeIsAAsyncToken(ty: MlirType) -> bool;
    pub fn ttgTypeIsAMemDesc(ty: MlirType) -> bool;
    pub fn ttgMemDescGetEncoding(ty: MlirType) -> MlirAttribute;
    pub fn ttgMemDescGetMemorySpace(ty: MlirType) -> MlirAttribute;
    pub fn ttgMemDescIsMutable(ty: MlirType) -> bool;
    pub fn ttgMemDescGetDims(ty: MlirType, field: i32, dims: *mut *const i64) -> isize;
    pub fn ttgMemDescGetElementType(ty: MlirType) -> MlirType;
    pub fn ttgMemDescTypeGet(
        rank: isize,
        shape: *const i64,
        element: MlirType,
        encoding: MlirAttribute,
        memory_space: MlirAttribute,
        mutable: bool,
        alloc_rank: isize,
        alloc_shape: *const i64,
    ) -> MlirType;
}
