//! Triton's debugging output for this project's stages: the module printed
//! before every pass (`MLIR_ENABLE_DUMP`, to stderr or to the file
//! `MLIR_DUMP_PATH` names), each stage's pass timings
//! (`MLIR_ENABLE_TIMING`) and MLIR reproducers (`TRITON_REPRODUCER_PATH`),
//! in the form Triton writes them, so that a dump reads the same whichever
//! compiler made it, and pastes into `tt-opt` (a reproducer runs with
//! `tt-opt FILE --run-reproducer`).

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use melior::ir::operation::OperationPrintingFlags;
use melior::pass::{PassIrPrintingOptions, PassManager};
use tt_conversion::ptx::triton_env_bool as env_bool;

/// Where the module is printed before each pass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum IrDump {
    /// Nowhere.
    #[default]
    Off,
    /// To stderr (`MLIR_ENABLE_DUMP` alone).
    Stderr,
    /// To this file (`MLIR_DUMP_PATH`): the process's first dump truncates
    /// it and later ones follow, as Triton opens it once per process.
    File(PathBuf),
}

impl IrDump {
    /// Triton's reading of its environment for a compilation of
    /// `module_text`: `MLIR_ENABLE_DUMP` on (`1`, `true`, `on`) or naming a
    /// function the module holds, to `MLIR_DUMP_PATH` if set, else stderr.
    pub fn from_env(module_text: &str) -> Self {
        Self::from_vars(module_text, |name| std::env::var(name).ok())
    }

    /// [`IrDump::from_env`] with the variables `var` gives.
    fn from_vars(module_text: &str, var: impl Fn(&str) -> Option<String>) -> Self {
        let value = var("MLIR_ENABLE_DUMP").unwrap_or_default();
        let dump = match env_bool(&value) {
            Some(on) => on,
            None => module_text.contains(&format!("@{}(", value.trim())),
        };
        match var("MLIR_DUMP_PATH").filter(|p| !p.is_empty()) {
            _ if !dump => Self::Off,
            Some(path) => Self::File(path.into()),
            None => Self::Stderr,
        }
    }
}

/// Triton's `MLIR_ENABLE_TIMING`: the stages' pass timings on stderr.
pub fn timing_from_env() -> bool {
    env_bool(&std::env::var("MLIR_ENABLE_TIMING").unwrap_or_default()) == Some(true)
}

/// Triton's `TRITON_REPRODUCER_PATH`: where each stage leaves its
/// reproducer.
pub fn reproducer_from_env() -> Option<PathBuf> {
    std::env::var_os("TRITON_REPRODUCER_PATH")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
}

/// Writes `module` (its text, with locations) and `pipeline` as an MLIR
/// reproducer: the module followed by an `mlir_reproducer` resource naming
/// the pipeline, which `mlir-opt`/`tt-opt --run-reproducer` runs.
pub fn write_reproducer(path: &Path, module: &str, pipeline: &str) -> io::Result<()> {
    let quoted: String = pipeline
        .chars()
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            _ => vec![c],
        })
        .collect();
    std::fs::write(
        path,
        format!(
            "{module}\n\n{{-#\n  external_resources: {{\n    mlir_reproducer: {{\n      \
             pipeline: \"{quoted}\",\n      disable_threading: true,\n      \
             verify_each: true\n    }}\n  }}\n#-}}\n"
        ),
    )
}

/// Sets `manager` up to print the module before each of its passes, as
/// Triton's dumps print it ([`triton_flags`]).
pub fn enable(manager: &PassManager) {
    manager.enable_ir_printing(&PassIrPrintingOptions {
        before_all: true,
        after_all: false,
        module_scope: true,
        on_change: false,
        on_failure: false,
        flags: triton_flags(),
        tree_printing_path: PathBuf::new(),
    });
}

/// How Triton prints a verified module, in its dumps and its stages'
/// outputs (`kernel.asm`): with locations, and SSA values named after
/// their `loc("name")`.
pub fn triton_flags() -> OperationPrintingFlags {
    let flags = OperationPrintingFlags::new().enable_debug_info(true, false);
    // SAFETY: `flags` is a live printing-flags object; each call only sets
    // one of its fields.
    unsafe {
        mlir_sys::mlirOpPrintingFlagsPrintNameLocAsPrefix(flags.to_raw());
        mlir_sys::mlirOpPrintingFlagsAssumeVerified(flags.to_raw());
    }
    flags
}

/// Runs `f` with the process's stderr (where MLIR prints its dumps) sent
/// to `path`. Other threads' writes to stderr meanwhile land there too: a
/// debugging aid, as Triton's.
pub fn with_stderr_in<T>(path: &Path, f: impl FnOnce() -> T) -> io::Result<T> {
    // One redirection at a time: they save and restore the same stderr.
    static REDIRECT: Mutex<()> = Mutex::new(());
    let _one = REDIRECT.lock().unwrap_or_else(|e| e.into_inner());
    let target = dump_descriptor(path)?;
    // SAFETY: `dup` and `dup2` only duplicate descriptors: 2 is the
    // process's stderr and `target` an open descriptor that outlives the
    // call (the process keeps it); the saved copy is restored onto 2 and
    // closed whatever `f` does (a panic in `f` is caught and resumed after).
    unsafe {
        let saved = libc::dup(2);
        if saved < 0 || libc::dup2(target, 2) < 0 {
            if saved >= 0 {
                libc::close(saved);
            }
            return Err(io::Error::last_os_error());
        }
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        libc::dup2(saved, 2);
        libc::close(saved);
        match result {
            Ok(value) => Ok(value),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

/// The descriptor of `path` this process dumps into: opened on first use
/// (truncating the file, as Triton's dump stream does) and kept for the
/// process's life, so that each dump follows the one before.
fn dump_descriptor(path: &Path) -> io::Result<RawFd> {
    static OPENED: Mutex<Vec<(PathBuf, File)>> = Mutex::new(Vec::new());
    let mut opened = OPENED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, file)) = opened.iter().find(|(p, _)| p == path) {
        return Ok(file.as_raw_fd());
    }
    let file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(true)
        .open(path)?;
    let fd = file.as_raw_fd();
    opened.push((path.to_path_buf(), file));
    Ok(fd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_environment_as_triton_does() {
        let vars = |dump: &'static str, path: &'static str| {
            move |name: &str| match name {
                "MLIR_ENABLE_DUMP" => Some(dump.to_owned()),
                "MLIR_DUMP_PATH" => Some(path.to_owned()),
                _ => None,
            }
        };
        let kernel = "tt.func public @add_kernel(%arg0: i32)";
        assert_eq!(IrDump::from_vars(kernel, vars("1", "")), IrDump::Stderr);
        assert_eq!(IrDump::from_vars(kernel, vars("ON", "")), IrDump::Stderr);
        assert_eq!(IrDump::from_vars(kernel, vars("0", "/tmp/d")), IrDump::Off);
        assert_eq!(IrDump::from_vars(kernel, vars("", "")), IrDump::Off);
        // A function's name: only modules that hold it.
        assert_eq!(
            IrDump::from_vars(kernel, vars("add_kernel", "/tmp/d")),
            IrDump::File("/tmp/d".into())
        );
        assert_eq!(IrDump::from_vars(kernel, vars("add", "")), IrDump::Off);
    }

    #[test]
    fn dumps_follow_each_other_in_the_file_the_first_truncates() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("dump.mlir");
        std::fs::write(&path, "an earlier run\n").expect("writes");
        let write = |text: &str| {
            // SAFETY: writes a live buffer of its length to fd 2.
            unsafe { libc::write(2, text.as_ptr().cast(), text.len()) };
        };
        with_stderr_in(&path, || write("first\n")).expect("redirects");
        with_stderr_in(&path, || write("second\n")).expect("redirects");
        let text = std::fs::read_to_string(&path).expect("reads");
        // Other tests may write to stderr meanwhile: only the order counts.
        assert!(!text.contains("an earlier run"), "{text:?}");
        let at = |s: &str| text.find(s).unwrap_or_else(|| panic!("{s:?} in {text:?}"));
        assert!(at("first\n") < at("second\n"));
    }
}
