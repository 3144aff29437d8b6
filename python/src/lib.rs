//! `triton_rs._triton_rs`: this project's compiler as a Python extension
//! module.
//!
//! `tensor_layout` prints a layout as Triton's `triton-tensor-layout` does;
//! `ptx_from_llir` is Triton's `make_ptx`, for LLVM IR a user substituted.
//! `compile` runs [`tt_compiler::Compiler`] in process on
//! TTIR or TTGIR text and returns each stage's text and the kernel
//! metadata (as JSON); a failed compilation raises `CompileError`, whose
//! message is the compiler's located diagnostic and whose `stage` names
//! the stage that failed. Each Python thread gets a compiler of its own,
//! kept for the thread's life, so only its first compilation pays for the
//! set-up. The GIL is released while compiling. The Python side
//! (`triton_rs/`) wraps this for users and for Triton's stage hook.

use std::path::PathBuf;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tt_compiler::{Cache, Compiler, Input, IrDump, Options, Output, Report, Stage};

create_exception!(
    _triton_rs,
    CompileError,
    PyException,
    "A compilation failed: the message is the compiler's located diagnostic, \
     `stage` the stage that failed (None: before any stage, e.g. parsing)."
);

thread_local! {
    /// This thread's compiler ([`Compiler`] is neither `Send` nor `Sync`).
    static COMPILER: Compiler = Compiler::new();
}

/// Compiles TTIR or TTGIR `source` up to `stage` (`ttir`, `ttgir`, `llir`
/// or `ptx`) and returns a dict with the keys `ttir`, `ttgir`, `llir`,
/// `ptx` (None for stages not reached), `metadata` (the kernel metadata as
/// JSON, at `ptx`) and `timings` (a list of (step, seconds)). `ir_dump`
/// prints the module before every pass, to stderr (`"-"`) or appended to
/// a file (Triton's `MLIR_ENABLE_DUMP` and `MLIR_DUMP_PATH`);
/// `pass_timing` prints each stage's pass timings to stderr; `reproducer`
/// names the file that holds each stage's input and passes as an MLIR
/// reproducer, narrowed to the failing pass where one fails (Triton's
/// `TRITON_REPRODUCER_PATH`); `diagnostics` prints warnings and remarks to
/// stderr and says what diagnostics carry, as Triton's
/// `MLIR_ENABLE_DIAGNOSTICS` does (a comma-separated list of `warnings`,
/// `remarks`, `operations`, `stacktraces`).
#[pyfunction]
#[pyo3(signature = (
    source, *, name = "<input>", capability = 90, num_warps = 4, num_stages = 3,
    num_ctas = 1, stage = "ptx", line_info = true, make_ttir = true,
    fp_fusion = true, reflect_ftz = true, libdevice = None, ptx_version = None,
    ir_dump = None, pass_timing = false, reproducer = None, diagnostics = "",
))]
#[allow(clippy::too_many_arguments)]
fn compile<'py>(
    py: Python<'py>,
    source: &str,
    name: &str,
    capability: u32,
    num_warps: u32,
    num_stages: u32,
    num_ctas: u32,
    stage: &str,
    line_info: bool,
    make_ttir: bool,
    fp_fusion: bool,
    reflect_ftz: bool,
    libdevice: Option<PathBuf>,
    ptx_version: Option<u32>,
    ir_dump: Option<PathBuf>,
    pass_timing: bool,
    reproducer: Option<PathBuf>,
    diagnostics: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let until = Stage::from_name(stage).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown stage '{stage}': expected ttir, ttgir, llir or ptx"
        ))
    })?;
    let defaults = Options::default();
    let options = Options {
        capability,
        num_warps,
        num_stages,
        num_ctas,
        line_info,
        make_ttir,
        fp_fusion,
        reflect_ftz,
        libdevice,
        ptx_version: ptx_version.unwrap_or(defaults.ptx_version),
        // Triton's own cache keeps what the hook compiles; a second cache
        // here would only cost a hash and a write per kernel.
        cache: Cache::Off,
        ir_dump: match ir_dump {
            None => IrDump::Off,
            Some(path) if path.as_os_str() == "-" => IrDump::Stderr,
            Some(path) => IrDump::File(path),
        },
        pass_timing,
        reproducer,
        diagnostics: Report::parse(diagnostics),
    };
    let result = py.detach(|| {
        COMPILER.with(|compiler| {
            compiler.compile_to(Input::Text { text: source, name }, &options, until)
        })
    });
    match result {
        Ok(output) => output_dict(py, output),
        Err(error) => Err(compile_error(py, error)?),
    }
}

/// `CompileError` with the compiler's message and the failing stage.
fn compile_error(py: Python<'_>, error: tt_compiler::CompileError) -> PyResult<PyErr> {
    let exception = CompileError::new_err(error.message.trim_end().to_owned());
    exception
        .value(py)
        .setattr("stage", error.stage.map(Stage::name))?;
    Ok(exception)
}

/// The PTX of LLVM IR text (an `llir` stage's output, or what a frontend
/// put in its place) and its kernel's name, as Triton's `make_ptx` makes
/// them; a failure raises `CompileError` (stage `ptx`).
#[pyfunction]
#[pyo3(signature = (llir, *, capability = 90, ptx_version = None, fp_fusion = true))]
fn ptx_from_llir(
    py: Python<'_>,
    llir: &str,
    capability: u32,
    ptx_version: Option<u32>,
    fp_fusion: bool,
) -> PyResult<(String, String)> {
    let defaults = Options::default();
    let options = Options {
        capability,
        ptx_version: ptx_version.unwrap_or(defaults.ptx_version),
        fp_fusion,
        ..defaults
    };
    let result = py.detach(|| COMPILER.with(|compiler| compiler.ptx_from_llir(llir, &options)));
    match result {
        Ok(ptx) => Ok(ptx),
        Err(error) => Err(compile_error(py, error)?),
    }
}

/// The debugging output Triton's environment asks for a compilation of
/// `module_text` (`MLIR_ENABLE_DUMP`, `MLIR_DUMP_PATH`,
/// `MLIR_ENABLE_TIMING`, `TRITON_REPRODUCER_PATH`,
/// `MLIR_ENABLE_DIAGNOSTICS`), read as Triton reads them: a dict of
/// `compile`'s `ir_dump`, `pass_timing`, `reproducer` and `diagnostics`.
#[pyfunction]
fn debug_options<'py>(py: Python<'py>, module_text: &str) -> PyResult<Bound<'py, PyDict>> {
    let options = Options::default().with_triton_debug_env(module_text);
    let dict = PyDict::new(py);
    let text = |path: PathBuf| path.to_string_lossy().into_owned();
    let ir_dump = match options.ir_dump {
        IrDump::Off => None,
        IrDump::Stderr => Some("-".to_owned()),
        IrDump::File(path) => Some(text(path)),
    };
    dict.set_item("ir_dump", ir_dump)?;
    dict.set_item("pass_timing", options.pass_timing)?;
    dict.set_item("reproducer", options.reproducer.map(text))?;
    dict.set_item("diagnostics", options.diagnostics.to_list())?;
    Ok(dict)
}

/// Which thread and register hold each element of `tensor_type` (e.g.
/// `"tensor<128x64xf16>"`) in `layout` (a `ttg` layout's text), or with
/// `use_hw_view` each warp's lanes per register: the text Triton's
/// `triton-tensor-layout` prints. A layout or type that does not parse, or
/// that do not fit each other, raise `ValueError`.
#[pyfunction]
#[pyo3(signature = (layout, tensor_type, *, use_hw_view = false))]
fn tensor_layout(layout: &str, tensor_type: &str, use_hw_view: bool) -> PyResult<String> {
    tt_compiler::tensor_layout(layout, tensor_type, use_hw_view).map_err(PyValueError::new_err)
}

fn output_dict(py: Python<'_>, output: Output) -> PyResult<Bound<'_, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("ttir", output.ttir)?;
    dict.set_item("ttgir", output.ttgir)?;
    dict.set_item("llir", output.llir)?;
    dict.set_item("ptx", output.ptx)?;
    dict.set_item("metadata", output.metadata.map(|m| m.to_json()))?;
    let timings: Vec<(String, f64)> = output
        .timings
        .into_iter()
        .map(|(step, time)| (step, time.as_secs_f64()))
        .collect();
    dict.set_item("timings", timings)?;
    Ok(dict)
}

/// The module: `compile`, `debug_options`, `ptx_from_llir`,
/// `tensor_layout`, `CompileError` and `__version__`.
#[pymodule]
fn _triton_rs(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(compile, m)?)?;
    m.add_function(wrap_pyfunction!(tensor_layout, m)?)?;
    m.add_function(wrap_pyfunction!(ptx_from_llir, m)?)?;
    m.add_function(wrap_pyfunction!(debug_options, m)?)?;
    m.add("CompileError", m.py().get_type::<CompileError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
