//! Generates the `ttg`, `ttng`, `nvg`, `tti` and `nvws` dialects' C++ from their ODS files,
//! compiles the shim into `libttg_shim.a`, and links the mlir-opt dialect
//! plugin `libtriton_dialect_plugin.so` (tt + ttg + ttng, against Debian's
//! shared `libMLIR.so`) into the profile folder next to the binaries.

use std::env;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

use tt_build_support::{cxx_build, llvm_prefix, out_dir, profile_dir, tblgen, ShimSources};

fn main() {
    let ShimSources {
        td: td_dir,
        cpp: cpp_dir,
        c_include,
    } = ShimSources::of_this_crate();
    let tt_includes: Vec<PathBuf> =
        env::split_paths(&env::var("DEP_TT_DIALECT_INCLUDE").unwrap()).collect();
    let tt_td = PathBuf::from(env::var("DEP_TT_DIALECT_TD").unwrap());
    let tt_lib_dir = PathBuf::from(env::var("DEP_TT_DIALECT_LIB_DIR").unwrap());

    let out = out_dir();
    let gen = out.join("include");
    fs::create_dir_all(gen.join("ttg")).unwrap();
    let td_includes = [td_dir.clone(), tt_td];
    let base = td_dir.join("TritonGPUBase.td");
    let ops = td_dir.join("TritonGPUOps.td");
    let ttng = td_dir.join("TritonNvidiaGPU.td");
    let nvg = td_dir.join("NVGPU.td");
    let tti = td_dir.join("TritonInstrument.td");
    let tti_attrs = td_dir.join("TritonInstrumentAttrs.td");
    let nvws = td_dir.join("NVWS.td");
    let nvws_attrs = td_dir.join("NVWSAttrs.td");
    for (td, args, file) in [
        (
            &base,
            &["-gen-dialect-decls", "-dialect=ttg"][..],
            "TritonGPUDialect.h.inc",
        ),
        (
            &base,
            &["-gen-dialect-defs", "-dialect=ttg"][..],
            "TritonGPUDialect.cpp.inc",
        ),
        (
            &base,
            &["-gen-attrdef-decls", "-attrdefs-dialect=ttg"][..],
            "TritonGPUAttrs.h.inc",
        ),
        (
            &base,
            &["-gen-attrdef-defs", "-attrdefs-dialect=ttg"][..],
            "TritonGPUAttrs.cpp.inc",
        ),
        (
            &base,
            &["-gen-typedef-decls", "-typedefs-dialect=ttg"][..],
            "TritonGPUTypes.h.inc",
        ),
        (
            &base,
            &["-gen-typedef-defs", "-typedefs-dialect=ttg"][..],
            "TritonGPUTypes.cpp.inc",
        ),
        (&ops, &["-gen-op-decls"][..], "TritonGPUOps.h.inc"),
        (&ops, &["-gen-op-defs"][..], "TritonGPUOps.cpp.inc"),
        (
            &ttng,
            &["-gen-dialect-decls", "-dialect=ttng"][..],
            "TritonNvidiaGPUDialect.h.inc",
        ),
        (
            &ttng,
            &["-gen-dialect-defs", "-dialect=ttng"][..],
            "TritonNvidiaGPUDialect.cpp.inc",
        ),
        (
            &ttng,
            &["-gen-attrdef-decls", "-attrdefs-dialect=ttng"][..],
            "TritonNvidiaGPUAttrs.h.inc",
        ),
        (
            &ttng,
            &["-gen-attrdef-defs", "-attrdefs-dialect=ttng"][..],
            "TritonNvidiaGPUAttrs.cpp.inc",
        ),
        (&ttng, &["-gen-op-decls"][..], "TritonNvidiaGPUOps.h.inc"),
        (&ttng, &["-gen-op-defs"][..], "TritonNvidiaGPUOps.cpp.inc"),
        (
            &nvg,
            &["-gen-dialect-decls", "-dialect=nvg"][..],
            "NVGPUDialect.h.inc",
        ),
        (
            &nvg,
            &["-gen-dialect-defs", "-dialect=nvg"][..],
            "NVGPUDialect.cpp.inc",
        ),
        (&nvg, &["-gen-enum-decls"][..], "NVGPUEnums.h.inc"),
        (&nvg, &["-gen-enum-defs"][..], "NVGPUEnums.cpp.inc"),
        (&nvg, &["-gen-op-decls"][..], "NVGPUOps.h.inc"),
        (&nvg, &["-gen-op-defs"][..], "NVGPUOps.cpp.inc"),
        (
            &tti,
            &["-gen-dialect-decls", "-dialect=tti"][..],
            "TritonInstrumentDialect.h.inc",
        ),
        (
            &tti,
            &["-gen-dialect-defs", "-dialect=tti"][..],
            "TritonInstrumentDialect.cpp.inc",
        ),
        (
            &tti_attrs,
            &["-gen-enum-decls"][..],
            "TritonInstrumentEnums.h.inc",
        ),
        (
            &tti_attrs,
            &["-gen-enum-defs"][..],
            "TritonInstrumentEnums.cpp.inc",
        ),
        (
            &tti,
            &["-gen-op-decls", "-op-include-regex=^tti\\."][..],
            "TritonInstrumentOps.h.inc",
        ),
        (
            &tti,
            &["-gen-op-defs", "-op-include-regex=^tti\\."][..],
            "TritonInstrumentOps.cpp.inc",
        ),
        (
            &nvws,
            &["-gen-dialect-decls", "-dialect=nvws"][..],
            "NVWSDialect.h.inc",
        ),
        (
            &nvws,
            &["-gen-dialect-defs", "-dialect=nvws"][..],
            "NVWSDialect.cpp.inc",
        ),
        (&nvws_attrs, &["-gen-enum-decls"][..], "NVWSEnums.h.inc"),
        (&nvws_attrs, &["-gen-enum-defs"][..], "NVWSEnums.cpp.inc"),
        (
            &nvws,
            &["-gen-attrdef-decls", "-attrdefs-dialect=nvws"][..],
            "NVWSAttrs.h.inc",
        ),
        (
            &nvws,
            &["-gen-attrdef-defs", "-attrdefs-dialect=nvws"][..],
            "NVWSAttrs.cpp.inc",
        ),
        (
            &nvws,
            &["-gen-typedef-decls", "-typedefs-dialect=nvws"][..],
            "NVWSTypes.h.inc",
        ),
        (
            &nvws,
            &["-gen-typedef-defs", "-typedefs-dialect=nvws"][..],
            "NVWSTypes.cpp.inc",
        ),
        (
            &nvws,
            &["-gen-op-decls", "-op-include-regex=^nvws\\."][..],
            "NVWSOps.h.inc",
        ),
        (
            &nvws,
            &["-gen-op-defs", "-op-include-regex=^nvws\\."][..],
            "NVWSOps.cpp.inc",
        ),
    ] {
        tblgen(td, args, &gen.join("ttg").join(file), &td_includes);
    }

    let mut includes = vec![gen, cpp_dir.clone(), c_include];
    includes.extend(tt_includes);
    let mut build = cxx_build(&includes);
    build
        .file(cpp_dir.join("TritonGPUDialect.cpp"))
        .file(cpp_dir.join("TritonGPUOps.cpp"))
        .file(cpp_dir.join("TritonNvidiaGPUDialect.cpp"))
        .file(cpp_dir.join("NVGPUDialect.cpp"))
        .file(cpp_dir.join("TritonInstrumentDialect.cpp"))
        .file(cpp_dir.join("NVWSDialect.cpp"));
    build.compile("ttg_shim");

    link_plugin(&includes, &cpp_dir.join("Plugin.cpp"), &tt_lib_dir, &out);
}

/// Links the mlir-opt plugin from both shim archives plus `Plugin.cpp`,
/// against the shared `libMLIR.so` that Debian's `mlir-opt` uses.
fn link_plugin(
    includes: &[PathBuf],
    plugin_cpp: &std::path::Path,
    tt_lib_dir: &std::path::Path,
    out: &std::path::Path,
) {
    let plugin_obj = cxx_build(includes).file(plugin_cpp).compile_intermediates();
    let lib = llvm_prefix().join("lib");
    let target = profile_dir().join("libtriton_dialect_plugin.so");
    let status = Command::new(env::var("CXX").unwrap_or_else(|_| "c++".into()))
        .arg("-shared")
        .arg("-o")
        .arg(&target)
        .args(&plugin_obj)
        .arg("-Wl,--whole-archive")
        .arg(tt_lib_dir.join("libtt_shim.a"))
        .arg(out.join("libttg_shim.a"))
        .arg("-Wl,--no-whole-archive")
        .arg(format!("-L{}", lib.display()))
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-lMLIR")
        .arg("-lLLVM")
        .status()
        .expect("cannot run the C++ compiler to link the plugin");
    assert!(status.success(), "linking {} failed", target.display());
}
