//! Raw bindings to the `tt` shim's C API (`include/tt-c/Triton.h`).

use mlir_sys::{
    MlirAttribute, MlirContext, MlirDialectHandle, MlirOperation, MlirRewritePatternSet,
    MlirStringRef, MlirType, MlirValue,
};

/// The rule a verifier callback is asked to check (`enum TtVerifyKind`).
pub type VerifyKind = i32;
pub const VERIFY_OP: VerifyKind = 0;
pub const VERIFY_SYMBOL_USES: VerifyKind = 1;
pub const TRAIT_TENSOR_SIZE: VerifyKind = 10;
pub const TRAIT_TENSOR_LAYOUTS: VerifyKind = 11;
pub const TRAIT_SAME_OPERANDS_ENCODING: VerifyKind = 12;
pub const TRAIT_SAME_OPERANDS_AND_RESULT_ENCODING: VerifyKind = 13;
pub const TRAIT_SAME_LOAD_STORE_OPERANDS_SHAPE: VerifyKind = 14;
pub const TRAIT_SAME_LOAD_STORE_OPERANDS_AND_RESULT_SHAPE: VerifyKind = 15;
pub const TRAIT_SAME_LOAD_STORE_OPERANDS_ENCODING: VerifyKind = 16;
pub const TRAIT_SAME_LOAD_STORE_OPERANDS_AND_RESULT_ENCODING: VerifyKind = 17;

pub type VerifyCallback = unsafe extern "C" fn(op: MlirOperation, kind: VerifyKind) -> i32;
pub type InlineCallback = unsafe extern "C" fn(call: MlirOperation, callee: MlirOperation) -> i32;

/// What a fold callback produced (`enum TtFoldKind`).
pub type FoldKind = i32;
pub const FOLD_NONE: FoldKind = 0;
pub const FOLD_ATTRIBUTE: FoldKind = 1;
pub const FOLD_VALUE: FoldKind = 2;

pub type FoldCallback = unsafe extern "C" fn(
    op: MlirOperation,
    operands: *const MlirAttribute,
    operand_count: isize,
    attr: *mut MlirAttribute,
    value: *mut MlirValue,
) -> FoldKind;
pub type PatternsCallback =
    unsafe extern "C" fn(op_name: MlirStringRef, context: MlirContext, set: MlirRewritePatternSet);

#[link(name = "tt_shim", kind = "static")]
unsafe extern "C" {
    pub fn mlirGetDialectHandle__tt__() -> MlirDialectHandle;
    pub fn ttShimSetVerifyCallback(cb: VerifyCallback);
    pub fn ttShimSetInlineCallback(cb: InlineCallback);
    pub fn ttShimSetFoldCallback(cb: FoldCallback);
    pub fn ttShimSetPatternsCallback(cb: PatternsCallback);

    pub fn ttPointerTypeGet(pointee: MlirType, address_space: i32) -> MlirType;
    pub fn ttTypeIsAPointer(ty: MlirType) -> bool;
    pub fn ttPointerTypeGetPointee(ty: MlirType) -> MlirType;
    pub fn ttPointerTypeGetAddressSpace(ty: MlirType) -> i32;

    pub fn ttRankedTensorGetParts(
        ty: MlirType,
        shape: *mut *const i64,
        rank: *mut isize,
        element: *mut MlirType,
        encoding: *mut MlirAttribute,
    ) -> bool;

    pub fn ttTensorDescTypeGet(block: MlirType) -> MlirType;
    pub fn ttTypeIsATensorDesc(ty: MlirType) -> bool;
    pub fn ttTensorDescTypeGetBlockType(ty: MlirType) -> MlirType;
}
