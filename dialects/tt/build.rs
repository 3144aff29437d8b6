//! Generates the `tt` dialect's C++ from its ODS files and compiles the shim
//! into `libtt_shim.a`. Exports, for the ttg crate's build script, the include
//! folders (`DEP_TT_DIALECT_INCLUDE`), the ODS folder (`DEP_TT_DIALECT_TD`)
//! and the folder that holds the archive (`DEP_TT_DIALECT_LIB_DIR`).

use std::env;
use std::fs;

use tt_build_support::{cxx_build, out_dir, tblgen, ShimSources};

fn main() {
    let ShimSources {
        td: td_dir,
        cpp: cpp_dir,
        c_include,
    } = ShimSources::of_this_crate();

    let out = out_dir();
    let gen = out.join("include");
    fs::create_dir_all(gen.join("tt")).unwrap();
    let ops = td_dir.join("TritonOps.td");
    let td_includes = [td_dir.clone()];
    for (args, file) in [
        (
            &["-gen-dialect-decls", "-dialect=tt"][..],
            "TritonDialect.h.inc",
        ),
        (
            &["-gen-dialect-defs", "-dialect=tt"][..],
            "TritonDialect.cpp.inc",
        ),
        (
            &["-gen-typedef-decls", "-typedefs-dialect=tt"][..],
            "TritonTypes.h.inc",
        ),
        (
            &["-gen-typedef-defs", "-typedefs-dialect=tt"][..],
            "TritonTypes.cpp.inc",
        ),
        (&["-gen-enum-decls"][..], "TritonEnums.h.inc"),
        (&["-gen-enum-defs"][..], "TritonEnums.cpp.inc"),
        (&["-gen-op-decls"][..], "TritonOps.h.inc"),
        (&["-gen-op-defs"][..], "TritonOps.cpp.inc"),
    ] {
        tblgen(&ops, args, &gen.join("tt").join(file), &td_includes);
    }

    let includes = [gen.clone(), cpp_dir.clone(), c_include.clone()];
    cxx_build(&includes)
        .file(cpp_dir.join("TritonDialect.cpp"))
        .file(cpp_dir.join("TritonOps.cpp"))
        .file(cpp_dir.join("OpFacts.cpp"))
        .compile("tt_shim");

    let joined = env::join_paths(&includes).unwrap();
    println!("cargo:include={}", joined.to_string_lossy());
    println!("cargo:td={}", td_dir.display());
    println!("cargo:lib_dir={}", out.display());
}
