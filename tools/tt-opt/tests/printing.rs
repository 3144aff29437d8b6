//! Snapshot tests (insta) of tt-opt's printed form of small hand-written
//! inputs (`tests/printing/*.mlir`), without debug info: pointer address
//! spaces, load/store keyword clauses, atomics, the generic `tt.reduce`, and
//! the ttg layout encodings and memory descriptors. The ttg snapshots were
//! written by hand from Triton 3.6's syntax (the corpus `.ttgir` files).

use std::path::Path;
use std::process::Command;

/// tt-opt's output for `tests/printing/NAME.mlir` (must succeed).
fn print(name: &str) -> String {
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/printing/{name}.mlir"));
    let out = Command::new(env!("CARGO_BIN_EXE_tt-opt"))
        .arg(&input)
        .output()
        .expect("tt-opt runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "tt-opt failed on {}:\n{stderr}",
        input.display()
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8 output")
        .trim_end()
        .to_string()
}

macro_rules! snapshot_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                insta::assert_snapshot!(stringify!($name), print(stringify!($name)));
            }
        )*

        #[test]
        fn every_input_has_a_test() {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/printing");
            let mut inputs: Vec<String> = std::fs::read_dir(dir)
                .expect("tests/printing exists")
                .map(|e| e.expect("entry").path())
                .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
                .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
                .collect();
            inputs.sort();
            let mut tested = vec![$(stringify!($name).to_string()),*];
            tested.sort();
            assert_eq!(inputs, tested, "add new inputs to snapshot_tests!");
        }
    };
}

snapshot_tests!(
    tt_atomic,
    tt_load_store,
    tt_ptr,
    tt_reduce,
    ttg_layouts,
    ttg_memdesc,
);
