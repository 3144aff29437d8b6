//! Questions about scalar types, answered through the C API's type
//! predicates. The lowering asks them for every op it rebuilds; printing a
//! type to compare its text would build an `AsmState` on each call.

use melior::{
    ir::{Type, TypeLike},
    Context,
};

/// Whether `ty` is an `!llvm.ptr` (in any address space).
pub fn is_llvm_pointer(ty: Type) -> bool {
    unsafe { mlir_sys::mlirTypeIsALLVMPointerType(ty.to_raw()) }
}

/// `!llvm.ptr<space>`.
pub fn llvm_pointer(context: &Context, space: u32) -> Type<'_> {
    unsafe { Type::from_raw(mlir_sys::mlirLLVMPointerTypeGet(context.to_raw(), space)) }
}

/// The width of a floating-point type, `None` for other types.
pub fn float_bits(ty: Type) -> Option<u32> {
    unsafe {
        mlir_sys::mlirTypeIsAFloat(ty.to_raw())
            .then(|| mlir_sys::mlirFloatTypeGetWidth(ty.to_raw()))
    }
}

pub fn is_f32(ty: Type) -> bool {
    unsafe { mlir_sys::mlirTypeIsAF32(ty.to_raw()) }
}

pub fn is_f64(ty: Type) -> bool {
    unsafe { mlir_sys::mlirTypeIsAF64(ty.to_raw()) }
}

pub fn is_bf16(ty: Type) -> bool {
    unsafe { mlir_sys::mlirTypeIsABF16(ty.to_raw()) }
}

pub fn is_f16(ty: Type) -> bool {
    unsafe { mlir_sys::mlirTypeIsAF16(ty.to_raw()) }
}

/// Bits of one value of LLVM type `ty`: an integer's or a float's width,
/// 64 for pointers.
pub fn bit_width(ty: Type) -> u32 {
    tt_dialect::ir::int_width(ty)
        .or_else(|| float_bits(ty))
        .unwrap_or(64)
}

/// Bits of one element in memory: [`bit_width`], with `i1` stored as a
/// byte.
pub fn memory_bits(ty: Type) -> u32 {
    bit_width(ty).max(8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_as_the_printed_types_would() {
        let context = tt_passes::context::new_context(false);
        context.get_or_load_dialect("llvm");
        let parse = |text: &str| Type::parse(&context, text).expect(text);
        assert_eq!(llvm_pointer(&context, 3), parse("!llvm.ptr<3>"));
        assert!(is_llvm_pointer(parse("!llvm.ptr<1>")));
        assert!(!is_llvm_pointer(parse("i64")));
        for (text, bits) in [
            ("i1", 1),
            ("i8", 8),
            ("i64", 64),
            ("f16", 16),
            ("bf16", 16),
            ("f32", 32),
            ("f64", 64),
            ("f8E4M3FN", 8),
            ("f8E5M2", 8),
            ("!llvm.ptr<1>", 64),
        ] {
            assert_eq!(bit_width(parse(text)), bits, "{text}");
        }
        assert_eq!(memory_bits(parse("i1")), 8);
        assert_eq!(memory_bits(parse("f16")), 16);
        assert_eq!(float_bits(parse("i32")), None);
        assert!(is_f32(parse("f32")) && !is_f32(parse("f64")));
        assert!(is_f64(parse("f64")) && is_bf16(parse("bf16")) && !is_bf16(parse("f16")));
    }
}
