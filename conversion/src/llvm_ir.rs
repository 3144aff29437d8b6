//! LLVM modules owned from Rust, and the translation of an LLVM-dialect
//! module into one.
//!
//! [`LlvmModule`] owns an LLVM context and one module in it and disposes
//! both when dropped; the PTX step ([`crate::ptx`]) consumes it.
//! [`functions`], [`blocks`] and [`instructions`] walk its contents.
//!
//! `mlirTranslateModuleToLLVMIRToString` prints without checking that the
//! translation succeeded (a failed translation crashes it), so this goes
//! through `mlirTranslateModuleToLLVMIR`, which returns null on failure.

use std::cell::RefCell;
use std::ffi::{c_void, CStr, CString};
use std::fmt;

use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
use llvm_sys::core::{
    LLVMContextCreate, LLVMContextDispose, LLVMContextSetDiagnosticHandler,
    LLVMCreateMemoryBufferWithContentsOfFile, LLVMCreateMemoryBufferWithMemoryRangeCopy,
    LLVMDisposeMemoryBuffer, LLVMDisposeMessage, LLVMDisposeModule, LLVMGetBufferSize,
    LLVMGetBufferStart, LLVMGetDiagInfoDescription, LLVMGetDiagInfoSeverity,
    LLVMGetFirstBasicBlock, LLVMGetFirstFunction, LLVMGetFirstInstruction, LLVMGetNextBasicBlock,
    LLVMGetNextFunction, LLVMGetNextInstruction, LLVMPrintModuleToString,
};
use llvm_sys::ir_reader::LLVMParseIRInContext2;
use llvm_sys::prelude::{
    LLVMBasicBlockRef, LLVMContextRef, LLVMDiagnosticInfoRef, LLVMMemoryBufferRef, LLVMModuleRef,
    LLVMValueRef,
};
use llvm_sys::LLVMDiagnosticSeverity;
use melior::{ir::Module, utility::register_all_llvm_translations};
use std::path::Path;

/// The elements of one of LLVM's intrusive lists, from `first` (null when
/// the list is empty) through `next` (null after the last).
fn llvm_list<T>(
    first: *mut T,
    next: unsafe extern "C" fn(*mut T) -> *mut T,
) -> impl Iterator<Item = *mut T> {
    std::iter::successors((!first.is_null()).then_some(first), move |&item| {
        // SAFETY: `item` is a live element of the list being walked; the
        // callers do not remove elements while they walk.
        let following = unsafe { next(item) };
        (!following.is_null()).then_some(following)
    })
}

/// The functions of the live module `module`, declarations included.
pub(crate) fn functions(module: LLVMModuleRef) -> impl Iterator<Item = LLVMValueRef> {
    // SAFETY: the first function of a live module.
    llvm_list(unsafe { LLVMGetFirstFunction(module) }, LLVMGetNextFunction)
}

/// The basic blocks of the live function `function`, in order.
pub(crate) fn blocks(function: LLVMValueRef) -> impl Iterator<Item = LLVMBasicBlockRef> {
    // SAFETY: the first block of a live function.
    llvm_list(
        unsafe { LLVMGetFirstBasicBlock(function) },
        LLVMGetNextBasicBlock,
    )
}

/// The instructions of the live block `block`, in order.
pub(crate) fn instructions(block: LLVMBasicBlockRef) -> impl Iterator<Item = LLVMValueRef> {
    // SAFETY: the first instruction of a live block.
    llvm_list(
        unsafe { LLVMGetFirstInstruction(block) },
        LLVMGetNextInstruction,
    )
}

/// Removes Triton's own argument attributes (`tt.nv_tma_desc` of TMA
/// descriptors, ...) from the LLVM function `function`: no translation
/// knows them, and the translation warns about each, printing the whole
/// function into the warning (a tenth of a TMA kernel's compile time).
fn drop_triton_argument_attributes(function: mlir_sys::MlirOperation) {
    // SAFETY: `function` is a live op; every attribute read below belongs
    // to its context, and the array set back is built in that context.
    unsafe {
        let name = melior::StringRef::new("arg_attrs").to_raw();
        let arrays = mlir_sys::mlirOperationGetAttributeByName(function, name);
        if arrays.ptr.is_null() || !mlir_sys::mlirAttributeIsAArray(arrays) {
            return;
        }
        let context = mlir_sys::mlirAttributeGetContext(arrays);
        let mut changed = false;
        let dictionaries: Vec<mlir_sys::MlirAttribute> = (0
            ..mlir_sys::mlirArrayAttrGetNumElements(arrays))
            .map(|i| {
                let dictionary = mlir_sys::mlirArrayAttrGetElement(arrays, i);
                if !mlir_sys::mlirAttributeIsADictionary(dictionary) {
                    return dictionary;
                }
                let entries: Vec<mlir_sys::MlirNamedAttribute> = (0
                    ..mlir_sys::mlirDictionaryAttrGetNumElements(dictionary))
                    .map(|j| mlir_sys::mlirDictionaryAttrGetElement(dictionary, j))
                    .collect();
                let kept: Vec<mlir_sys::MlirNamedAttribute> = entries
                    .iter()
                    .copied()
                    .filter(|entry| {
                        let name = mlir_sys::mlirIdentifierStr(entry.name);
                        let bytes = std::slice::from_raw_parts(name.data.cast::<u8>(), name.length);
                        !bytes.starts_with(b"tt.")
                    })
                    .collect();
                if kept.len() == entries.len() {
                    return dictionary;
                }
                changed = true;
                mlir_sys::mlirDictionaryAttrGet(context, kept.len() as isize, kept.as_ptr())
            })
            .collect();
        if changed {
            let array = mlir_sys::mlirArrayAttrGet(
                context,
                dictionaries.len() as isize,
                dictionaries.as_ptr(),
            );
            mlir_sys::mlirOperationSetAttributeByName(function, name, array);
        }
    }
}

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

/// An LLVM context with a diagnostic handler that records errors.
///
/// Without a handler LLVM prints diagnostics and exits the process on an
/// error (a failed link, for instance); with it, the error is kept here
/// and the failing call reports failure.
pub(crate) struct LlvmContext {
    raw: LLVMContextRef,
    errors: Box<RefCell<Vec<String>>>,
}

extern "C" fn record_diagnostic(info: LLVMDiagnosticInfoRef, errors: *mut c_void) {
    unsafe {
        if LLVMGetDiagInfoSeverity(info) != LLVMDiagnosticSeverity::LLVMDSError {
            return;
        }
        let text = take_message(LLVMGetDiagInfoDescription(info));
        let errors = &*errors.cast::<RefCell<Vec<String>>>();
        if let Ok(mut errors) = errors.try_borrow_mut() {
            errors.push(text);
        }
    }
}

impl LlvmContext {
    fn new() -> Self {
        let raw = unsafe { LLVMContextCreate() };
        let errors: Box<RefCell<Vec<String>>> = Box::default();
        unsafe {
            LLVMContextSetDiagnosticHandler(
                raw,
                Some(record_diagnostic),
                std::ptr::from_ref(&*errors).cast_mut().cast(),
            );
        }
        Self { raw, errors }
    }

    pub(crate) fn raw(&self) -> LLVMContextRef {
        self.raw
    }

    /// The errors LLVM reported since the last call, one per line, after
    /// `what`.
    pub(crate) fn error(&self, what: &str) -> String {
        let errors: Vec<String> = self.errors.borrow_mut().drain(..).collect();
        if errors.is_empty() {
            what.to_owned()
        } else {
            format!("{what}: {}", errors.join("\n"))
        }
    }
}

impl Drop for LlvmContext {
    fn drop(&mut self) {
        unsafe { LLVMContextDispose(self.raw) }
    }
}

/// An LLVM module together with the context it lives in. The module is
/// disposed before its context.
pub struct LlvmModule {
    module: LLVMModuleRef,
    context: LlvmContext,
}

impl Drop for LlvmModule {
    fn drop(&mut self) {
        unsafe { LLVMDisposeModule(self.module) }
        // `self.context` is dropped (disposed) after this body.
    }
}

/// Takes an LLVM message string, returning it as Rust text.
pub(crate) unsafe fn take_message(raw: *mut std::ffi::c_char) -> String {
    if raw.is_null() {
        return String::new();
    }
    let text = CStr::from_ptr(raw).to_string_lossy().into_owned();
    LLVMDisposeMessage(raw);
    text
}

impl LlvmModule {
    /// Translates `module`, which must contain only ops with an LLVM IR
    /// translation (the `llvm` and `nvvm` dialects, `builtin.module`).
    pub fn from_mlir(module: &Module) -> Result<Self, TranslateError> {
        // `convert-warp-specialize-to-llvm` dispatches the partitions of
        // kernels only: one left in a device function stops here.
        use tt_passes::ttir::loop_support::ir;
        let root = module.as_operation().to_raw();
        if let Some(&ws) = ir::collect_post(root, &|op| ir::is(op, "ttg.warp_specialize")).first() {
            // SAFETY: `ws` is a live op of `module`.
            let ws = unsafe { melior::ir::operation::OperationRef::from_raw(ws) };
            tt_passes::rust_pass::fail(
                ws,
                "translation to LLVM IR: a ttg.warp_specialize in a device function is not \
                 supported yet (convert-warp-specialize-to-llvm dispatches kernels' partitions)",
            );
            return Err(TranslateError);
        }
        for function in ir::collect_post(root, &|op| ir::is(op, "llvm.func")) {
            drop_triton_argument_attributes(function);
        }
        let context_ref = module.context();
        register_all_llvm_translations(unsafe { context_ref.to_ref() });
        let context = LlvmContext::new();
        let raw = unsafe {
            mlir_sys::mlirTranslateModuleToLLVMIR(
                module.as_operation().to_raw(),
                context.raw().cast(),
            )
        };
        if raw.is_null() {
            return Err(TranslateError);
        }
        Ok(Self {
            module: raw.cast(),
            context,
        })
    }

    /// Parses LLVM IR text (or bitcode) named `name` and verifies it.
    pub fn parse_ir(text: &str, name: &str) -> Result<Self, String> {
        let context = LlvmContext::new();
        let name = CString::new(name).map_err(|_| "the buffer name contains a NUL byte")?;
        let mut module = std::ptr::null_mut();
        let mut message = std::ptr::null_mut();
        let buffer = MemoryBuffer::copy(text.as_bytes(), &name);
        let failed = unsafe {
            LLVMParseIRInContext2(context.raw(), buffer.raw(), &mut module, &mut message) != 0
        };
        if failed {
            let message = unsafe { take_message(message) };
            return Err(format!(
                "invalid LLVM IR in {}: {message}",
                name.to_string_lossy()
            ));
        }
        let module = Self { module, context };
        module.verify()?;
        Ok(module)
    }

    /// Checks the module with LLVM's verifier (Debian's LLVM has no
    /// assertions, so an invalid module would crash code generation).
    pub fn verify(&self) -> Result<(), String> {
        let mut message = std::ptr::null_mut();
        let broken = unsafe {
            LLVMVerifyModule(
                self.module,
                LLVMVerifierFailureAction::LLVMReturnStatusAction,
                &mut message,
            ) != 0
        };
        let message = unsafe { take_message(message) };
        if broken {
            Err(format!("invalid LLVM module: {}", message.trim_end()))
        } else {
            Ok(())
        }
    }

    /// The module as LLVM IR text.
    pub fn to_ir_string(&self) -> String {
        unsafe { take_message(LLVMPrintModuleToString(self.module)) }
    }

    pub(crate) fn raw(&self) -> LLVMModuleRef {
        self.module
    }

    pub(crate) fn context(&self) -> &LlvmContext {
        &self.context
    }
}

/// An LLVM memory buffer, disposed when dropped.
pub(crate) struct MemoryBuffer(pub(crate) LLVMMemoryBufferRef);

impl MemoryBuffer {
    /// A copy of `bytes`, named `name`.
    pub(crate) fn copy(bytes: &[u8], name: &CStr) -> Self {
        Self(unsafe {
            LLVMCreateMemoryBufferWithMemoryRangeCopy(
                bytes.as_ptr().cast(),
                bytes.len(),
                name.as_ptr(),
            )
        })
    }

    pub(crate) fn from_file(path: &Path) -> Result<Self, String> {
        let c_path = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| format!("bad path {}", path.display()))?;
        let mut buffer = std::ptr::null_mut();
        let mut message = std::ptr::null_mut();
        unsafe {
            if LLVMCreateMemoryBufferWithContentsOfFile(c_path.as_ptr(), &mut buffer, &mut message)
                != 0
            {
                return Err(format!(
                    "cannot read {}: {}",
                    path.display(),
                    take_message(message)
                ));
            }
        }
        Ok(Self(buffer))
    }

    pub(crate) fn raw(&self) -> LLVMMemoryBufferRef {
        self.0
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        unsafe {
            let start = LLVMGetBufferStart(self.0).cast::<u8>();
            let size = LLVMGetBufferSize(self.0);
            if start.is_null() || size == 0 {
                &[]
            } else {
                std::slice::from_raw_parts(start, size)
            }
        }
    }
}

impl Drop for MemoryBuffer {
    fn drop(&mut self) {
        unsafe { LLVMDisposeMemoryBuffer(self.0) }
    }
}

/// Translates `module` (see [`LlvmModule::from_mlir`]) to LLVM IR text.
pub fn translate_to_llvm_ir(module: &Module) -> Result<String, TranslateError> {
    Ok(LlvmModule::from_mlir(module)?.to_ir_string())
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
    fn tma_descriptor_arguments_translate_without_triton_attributes() {
        // A TMA descriptor argument: by value, 64-byte aligned, a grid
        // constant; Triton's marker does not reach the translation (which
        // would warn about it, printing the function into the warning).
        let context = new_context(false);
        let module = Module::parse(
            &context,
            r#"
            module attributes {llvm.target_triple = "nvptx64-nvidia-cuda"} {
              llvm.func @kernel(%d: !llvm.ptr {llvm.align = 64 : i32, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant, tt.nv_tma_desc = 1 : i32}, %n: i32) attributes {nvvm.kernel} {
                llvm.return
              }
            }
            "#,
        )
        .expect("the test module parses");
        let ir = translate_to_llvm_ir(&module).expect("translation succeeds");
        assert!(
            ir.contains("ptr byval([128 x i8]) align 64 \"nvvm.grid_constant\""),
            "{ir}"
        );
        assert!(!module.as_operation().to_string().contains("tt.nv_tma_desc"));
    }

    #[test]
    fn rejects_ops_without_a_translation() {
        let context = new_context(false);
        let module = Module::parse(&context, "module { func.func @f() { return } }")
            .expect("the test module parses");
        assert_eq!(translate_to_llvm_ir(&module), Err(TranslateError));
    }

    #[test]
    fn parses_and_verifies_ir_text() {
        let module = LlvmModule::parse_ir("define i32 @f(i32 %x) {\n  ret i32 %x\n}\n", "ok.ll")
            .expect("valid IR parses");
        assert!(module.to_ir_string().contains("define i32 @f(i32 %x)"));
        let error = LlvmModule::parse_ir("define i32 @f( {", "bad.ll")
            .err()
            .unwrap();
        assert!(error.starts_with("invalid LLVM IR in bad.ll:"), "{error}");
        let error = LlvmModule::parse_ir("define i32 @f() {\n  ret i64 0\n}\n", "bad.ll")
            .err()
            .unwrap();
        assert!(error.contains("bad.ll"), "{error}");
    }
}
