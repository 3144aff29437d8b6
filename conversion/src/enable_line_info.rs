//! `enable-line-info`: Triton 3.6's debug scopes (`add_di_scope` in
//! `make_llir`). Each `llvm.func` with a body gets a `DISubprogram` in a
//! `DICompileUnit` that asks for line tables only, attached as the metadata
//! of a fused location around the function's own. The translation to LLVM
//! IR then gives every instruction with a file location a `!dbg`, and the
//! PTX gets `.file` and `.loc` lines that profilers map back to the source.
//!
//! The file, line and name come from the first file location inside the
//! function's location (through names, call sites and fused locations), as
//! Triton reads them; a function without one, or that already has a
//! subprogram, is left alone.
//!
//! Code inlined from other functions (ops whose location is a call site)
//! gets, as in Triton, every file location of its call-site chain wrapped
//! in a `DILexicalBlockFile` of the subprogram for that location's own
//! file: the line tables then name the callee's file (`.file 2
//! ".../standard.py"` for `tl.max`) and record where it was inlined.

use melior::ir::{
    attribute::AttributeLike,
    operation::{OperationLike, OperationRef},
    Attribute, Location,
};
use mlir_sys::{MlirAttribute, MlirContext, MlirLocation, MlirOperation};
use tt_dialect::ir::{file_loc, FileLoc};
use tt_passes::{
    rust_pass::{fail, PassResult, RustPass},
    ttir::loop_support::ir,
};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "LLVMDIScope",
    argument: "enable-line-info",
    description: "Materialize LLVM line info",
    anchor: "builtin.module",
    run,
};

fn string_of(raw: mlir_sys::MlirStringRef) -> String {
    // SAFETY: MLIR hands out a valid (pointer, length) pair that lives as
    // long as the context.
    let bytes = unsafe { std::slice::from_raw_parts(raw.data.cast::<u8>(), raw.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// The file position of a raw location ([`file_loc`]).
fn file_line(loc: MlirLocation) -> Option<FileLoc> {
    // SAFETY: `loc` is a live location of the module being converted.
    file_loc(unsafe { Location::from_raw(loc) })
}

/// Whether `loc` already carries a subprogram (a fused location whose
/// metadata is one).
fn has_subprogram(loc: MlirLocation) -> bool {
    unsafe {
        if !mlir_sys::mlirLocationIsAFused(loc) {
            return false;
        }
        let metadata: MlirAttribute = mlir_sys::mlirLocationFusedGetMetadata(loc);
        // The C API has no `isa` for debug attributes; this path is rare
        // (a module run through the pass twice), so printing is fine.
        !metadata.ptr.is_null()
            && Attribute::from_raw(metadata)
                .to_string()
                .starts_with("#llvm.di_subprogram")
    }
}

/// `text` as the body of an MLIR string literal.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// `path` as Triton's `DIFile` holds it: the directory (LLVM's
/// `parent_path`: up to the last separator, which is dropped; empty for a
/// bare name) and the file name.
fn split_path(path: &str) -> (&str, &str) {
    match path.rfind('/') {
        Some(0) => ("/", &path[1..]),
        Some(i) => (&path[..i], &path[i + 1..]),
        None => ("", path),
    }
}

/// The subprogram of a function `name` defined at `at`, in its own compile
/// unit (Triton's producer name, C as the language, line tables only).
fn subprogram_text(name: &str, at: &FileLoc) -> String {
    let (directory, file) = split_path(&at.file);
    let file = format!(
        "#llvm.di_file<\"{}\" in \"{}\">",
        escape(file),
        escape(directory)
    );
    let unit = format!(
        "#llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C, file = {file}, \
         producer = \"triton\", isOptimized = true, emissionKind = LineTablesOnly>"
    );
    let name = escape(name);
    format!(
        "#llvm.di_subprogram<id = distinct[1]<>, compileUnit = {unit}, scope = {file}, \
         name = \"{name}\", linkageName = \"{name}\", file = {file}, line = {line}, \
         scopeLine = {line}, subprogramFlags = \"Definition|Optimized\", \
         type = #llvm.di_subroutine_type<callingConvention = DW_CC_normal>>",
        line = at.line
    )
}

/// A string attribute holding `text`.
fn string_attr(context: MlirContext, text: &str) -> MlirAttribute {
    // SAFETY: the string is copied into the context.
    unsafe {
        mlir_sys::mlirStringAttrGet(
            context,
            mlir_sys::MlirStringRef {
                data: text.as_ptr().cast(),
                length: text.len(),
            },
        )
    }
}

/// `loc`, a call site, with every leaf of its callee and caller chains
/// that has a file location fused with a `DILexicalBlockFile` of `scope`
/// for that file; leaves without a file are kept as they are.
fn scoped(context: MlirContext, loc: MlirLocation, scope: MlirAttribute) -> MlirLocation {
    // SAFETY: every location and attribute belongs to `context`.
    unsafe {
        if mlir_sys::mlirLocationIsACallSite(loc) {
            let callee = scoped(context, mlir_sys::mlirLocationCallSiteGetCallee(loc), scope);
            let caller = scoped(context, mlir_sys::mlirLocationCallSiteGetCaller(loc), scope);
            return mlir_sys::mlirLocationCallSiteGet(callee, caller);
        }
        let Some(at) = file_line(loc) else {
            return loc;
        };
        let (directory, file) = split_path(&at.file);
        let file = mlir_sys::mlirLLVMDIFileAttrGet(
            context,
            string_attr(context, file),
            string_attr(context, directory),
        );
        let block = mlir_sys::mlirLLVMDILexicalBlockFileAttrGet(context, scope, file, 0);
        mlir_sys::mlirLocationFusedGet(context, 1, &loc, block)
    }
}

/// Scopes the call-site locations of the ops inside `function` to
/// `subprogram`.
fn scope_inlined_code(function: MlirOperation, subprogram: MlirAttribute) {
    let context = unsafe { mlir_sys::mlirOperationGetContext(function) };
    ir::walk_pre(function, &mut |op| {
        if op.ptr == function.ptr {
            return;
        }
        // SAFETY: `op` is a live operation nested in `function`.
        unsafe {
            let loc = mlir_sys::mlirOperationGetLocation(op);
            if mlir_sys::mlirLocationIsACallSite(loc) {
                mlir_sys::mlirOperationSetLocation(op, scoped(context, loc, subprogram));
            }
        }
    });
}

fn run(module: OperationRef) -> PassResult {
    let context_ref = module.context();
    // SAFETY: the context outlives this pass run.
    let context = unsafe { context_ref.to_ref() };
    let mut functions: Vec<MlirOperation> = Vec::new();
    ir::walk_pre(module.to_raw(), &mut |op| {
        if ir::is(op, "llvm.func") {
            functions.push(op);
        }
    });
    for op in functions {
        // SAFETY: `op` is a live operation of the module.
        let (loc, has_body) = unsafe {
            let region = mlir_sys::mlirOperationGetRegion(op, 0);
            let first = mlir_sys::mlirRegionGetFirstBlock(region);
            (mlir_sys::mlirOperationGetLocation(op), !first.ptr.is_null())
        };
        if !has_body || has_subprogram(loc) {
            continue;
        }
        let Some(at) = file_line(loc) else {
            continue;
        };
        let name = ir::attribute(op, "sym_name")
            .filter(|a| unsafe { mlir_sys::mlirAttributeIsAString(*a) })
            .map(|a| string_of(unsafe { mlir_sys::mlirStringAttrGetValue(a) }))
            .unwrap_or_default();
        let text = subprogram_text(&name, &at);
        let Some(subprogram) = Attribute::parse(context, &text) else {
            return Err(fail(
                unsafe { OperationRef::from_raw(op) },
                &format!("enable-line-info: cannot build the debug scope of '{name}'"),
            ));
        };
        // SAFETY: `loc` belongs to this context.
        let own = unsafe { Location::from_raw(loc) };
        let fused = Location::fused(context, &[own], subprogram);
        unsafe { mlir_sys::mlirOperationSetLocation(op, fused.to_raw()) };
        scope_inlined_code(op, subprogram.to_raw());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_and_directory_split_like_tritons() {
        let at = FileLoc {
            file: "/src/kernels.py".into(),
            line: 15,
            column: 1,
        };
        let text = subprogram_text("add", &at);
        assert!(text.contains("#llvm.di_file<\"kernels.py\" in \"/src\">"));
        assert!(text.contains("line = 15, scopeLine = 15"));
        let bare = subprogram_text(
            "k",
            &FileLoc {
                file: "kernels.py".into(),
                line: 1,
                column: 1,
            },
        );
        assert!(bare.contains("\"kernels.py\" in \"\""));
    }

    #[test]
    fn paths_split_as_llvm_parent_path() {
        assert_eq!(
            split_path("triton/language/standard.py"),
            ("triton/language", "standard.py")
        );
        assert_eq!(split_path("/k.py"), ("/", "k.py"));
        assert_eq!(split_path("k.py"), ("", "k.py"));
    }

    #[test]
    fn names_are_escaped() {
        assert_eq!(escape("a\"b\\c\n"), "a\\\"b\\\\c\\0A");
    }
}
