//! Raw bindings to the `tt` shim's C API (`include/tt-c/Triton.h`).

use mlir_sys::{
    MlirAttribute, MlirContext, MlirDialectHandle, MlirLocation, MlirOperation, MlirRewritePattern,
    MlirRewritePatternCallbacks, MlirRewritePatternSet, MlirStringRef, MlirType, MlirValue,
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

/// A trait [`ttOpHasTrait`] can test (`enum TtOpTrait`).
pub type OpTrait = i32;
pub const OP_TRAIT_ELEMENTWISE: OpTrait = 0;
pub const OP_TRAIT_CONSTANT_LIKE: OpTrait = 1;
pub const OP_TRAIT_COMMUTATIVE: OpTrait = 2;
pub const OP_TRAIT_TERMINATOR: OpTrait = 3;
pub const OP_TRAIT_ISOLATED_FROM_ABOVE: OpTrait = 4;
pub const OP_TRAIT_RECURSIVE_MEMORY_EFFECTS: OpTrait = 5;

/// Memory-effect bits of [`ttOpMemoryEffects`] (`enum TtEffect`).
pub const EFFECT_READ: i32 = 1;
pub const EFFECT_WRITE: i32 = 2;
pub const EFFECT_ALLOCATE: i32 = 4;
pub const EFFECT_FREE: i32 = 8;

#[link(name = "tt_shim", kind = "static")]
unsafe extern "C" {
    pub fn mlirGetDialectHandle__tt__() -> MlirDialectHandle;
    pub fn ttShimSetVerifyCallback(cb: VerifyCallback);
    pub fn ttShimSetInlineCallback(cb: InlineCallback);
    pub fn ttShimSetFoldCallback(cb: FoldCallback);
    pub fn ttShimSetPatternsCallback(cb: PatternsCallback);

    pub fn ttRegisterLLVMTransformPasses();
    pub fn ttEmitRemark(location: MlirLocation, message: *const std::ffi::c_char);
    pub fn ttEmitWarningWithNotes(
        location: MlirLocation,
        message: mlir_sys::MlirStringRef,
        note_locations: *const MlirLocation,
        note_messages: *const mlir_sys::MlirStringRef,
        note_count: isize,
    );
    pub fn ttOpEmitDiagnostic(
        op: MlirOperation,
        severity: std::ffi::c_int,
        message: mlir_sys::MlirStringRef,
        note_locations: *const MlirLocation,
        note_messages: *const mlir_sys::MlirStringRef,
        note_count: isize,
    );
    pub fn ttContextSetDiagnosticPrinting(
        context: mlir_sys::MlirContext,
        operations: bool,
        stack_traces: bool,
    );
    pub fn ttOpHasTrait(op: MlirOperation, tr: OpTrait) -> bool;
    pub fn ttOpIsMemoryEffectFree(op: MlirOperation) -> bool;
    pub fn ttOpIsSpeculatable(op: MlirOperation) -> bool;
    pub fn ttOpIsTriviallyDead(op: MlirOperation) -> bool;
    pub fn ttOpMemoryEffects(op: MlirOperation, mask: *mut i32) -> bool;
    pub fn ttOpGetAttributeDictionary(op: MlirOperation) -> MlirAttribute;
    pub fn ttAnyOpRewritePatternCreate(
        benefit: u32,
        context: MlirContext,
        callbacks: MlirRewritePatternCallbacks,
        user_data: *mut std::ffi::c_void,
    ) -> MlirRewritePattern;

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
