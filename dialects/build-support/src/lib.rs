//! Build-script helpers shared by the dialect crates (`tt-dialect`,
//! `ttg-dialect`): locating Debian's LLVM/MLIR 22, running `mlir-tblgen` over
//! the ODS files, and compiling the C++ shim against the same headers as the
//! static MLIR that `mlir-sys` links.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The LLVM/MLIR 22 installation prefix (`MLIR_SYS_220_PREFIX`, else what
/// `llvm-config-22 --prefix` prints).
pub fn llvm_prefix() -> PathBuf {
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    if let Ok(prefix) = env::var("MLIR_SYS_220_PREFIX") {
        return PathBuf::from(prefix);
    }
    let out = Command::new("llvm-config-22")
        .arg("--prefix")
        .output()
        .expect("llvm-config-22 not found: run scripts/setup.sh");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// One `mlir-tblgen` run: `td` with the generator flags `args`, written to
/// `out`. Include paths: the LLVM prefix's `include` plus `includes`.
pub fn tblgen(td: &Path, args: &[&str], out: &Path, includes: &[PathBuf]) {
    let prefix = llvm_prefix();
    let mut cmd = Command::new(prefix.join("bin/mlir-tblgen"));
    cmd.args(args)
        .arg(td)
        .arg("-o")
        .arg(out)
        .arg("-I")
        .arg(prefix.join("include"));
    for dir in includes {
        cmd.arg("-I").arg(dir);
    }
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("cannot run mlir-tblgen: {e}"));
    assert!(
        status.success(),
        "mlir-tblgen {args:?} {} failed",
        td.display()
    );
}

/// A `cc::Build` for C++17 against LLVM/MLIR 22's headers, position
/// independent (the objects also go into the `mlir-opt` plugin).
pub fn cxx_build(includes: &[PathBuf]) -> cc::Build {
    let prefix = llvm_prefix();
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .pic(true)
        .debug(false)
        .warnings(false)
        .flag("-fno-exceptions")
        .flag("-funwind-tables")
        .define("_GNU_SOURCE", None)
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .include(prefix.join("include"));
    for dir in includes {
        build.include(dir);
    }
    build
}

/// The folders of a dialect crate: ODS (`td/`), the C++ shim (`cpp/`) and
/// its C headers (`include/`). Cargo reruns the build script when any file
/// in them changes.
pub struct ShimSources {
    pub td: PathBuf,
    pub cpp: PathBuf,
    pub c_include: PathBuf,
}

impl ShimSources {
    /// The folders of the crate whose build script is running.
    pub fn of_this_crate() -> Self {
        let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
        let sources = Self {
            td: root.join("td"),
            cpp: root.join("cpp"),
            c_include: root.join("include"),
        };
        for dir in [&sources.td, &sources.cpp, &sources.c_include] {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
        sources
    }
}

/// `OUT_DIR` of the running build script.
pub fn out_dir() -> PathBuf {
    PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR is set by cargo"))
}

/// The profile folder (`target/<profile>`) that holds the final binaries;
/// derived from `OUT_DIR` (`target/<profile>/build/<pkg>-<hash>/out`).
pub fn profile_dir() -> PathBuf {
    out_dir()
        .ancestors()
        .nth(3)
        .expect("OUT_DIR has the usual depth")
        .to_path_buf()
}
