//! Translation of an LLVM-dialect module to LLVM IR.
//!
//! `mlirTranslateModuleToLLVMIRToString` prints without checking that the
//! translation succeeded (a failed translation crashes it), so this goes
//! through `mlirTranslateModuleToLLVMIR`, which returns null on failure,
//! into an LLVM context owned here.

use std::ffi::CStr;
use std::fmt;

use llvm_sys::core::{
    LLVMContextCreate, LLVMContextDispose, LLVMDisposeMessage, LLVMDisposeModule,
    LLVMPrintModuleToString,
};
use melior::{ir::Module, utility::register_all_llvm_translations};

/// The module could not be translated; MLIR has reported why through the
/// context's diagnostic handlers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranslateError;

impl fmt::Display for TranslateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the module could not be translated to LLVM IR")
    }
}

impl std::error::Error for TranslateError {}

/// Translates `module`, which must contain only ops with an LLVM IR
/// translation (the `llvm` and `nvvm` dialects, `builtin.module`), to LLVM
/// IR text.
pub fn translate_to_llvm_ir(module: &Module) -> Result<String, TranslateError> {
    let context = module.context();
    register_all_llvm_translations(unsafe { context.to_ref() });
    unsafe {
        let llvm_context = LLVMContextCreate();
        let llvm_module = mlir_sys::mlirTranslateModuleToLLVMIR(
            module.as_operation().to_raw(),
            llvm_context.cast(),
        );
        let result = if llvm_module.is_null() {
            Err(TranslateError)
        } else {
            let module = llvm_module.cast();
            let raw = LLVMPrintModuleToString(module);
            let text = CStr::from_ptr(raw).to_string_lossy().into_owned();
            LLVMDisposeMessage(raw);
            LLVMDisposeModule(module);
            Ok(text)
        };
        LLVMContextDispose(llvm_context);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::operation::OperationLike;
    use tt_passes::context::new_context;

    #[test]
    fn translates_an_nvvm_kernel() {
        let context = new_context(false);
        let module = Module::parse(
            &context,
            r#"
            module attributes {llvm.target_triple = "nvptx64-nvidia-cuda"} {
              llvm.func @kernel(%p: !llvm.ptr<1>) attributes {nvvm.kernel} {
                %tid = nvvm.read.ptx.sreg.tid.x : i32
                %v = llvm.sitofp %tid : i32 to f32
                %q = llvm.getelementptr %p[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
                llvm.store %v, %q : f32, !llvm.ptr<1>
                llvm.return
              }
            }
            "#,
        )
        .expect("the test module parses");
        assert!(module.as_operation().verify());
        let ir = translate_to_llvm_ir(&module).expect("translation succeeds");
        assert!(
            ir.contains("target triple = \"nvptx64-nvidia-cuda\""),
            "{ir}"
        );
        assert!(
            ir.contains("define ptx_kernel void @kernel(ptr addrspace(1)"),
            "{ir}"
        );
        assert!(ir.contains("@llvm.nvvm.read.ptx.sreg.tid.x()"), "{ir}");
        assert!(ir.contains("store float"), "{ir}");
    }

    #[test]
    fn rejects_ops_without_a_translation() {
        let context = new_context(false);
        let module = Module::parse(&context, "module { func.func @f() { return } }")
            .expect("the test module parses");
        assert_eq!(translate_to_llvm_ir(&module), Err(TranslateError));
    }
}
