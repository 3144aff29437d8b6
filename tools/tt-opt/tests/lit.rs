//! Runs the lit tests under `test/lit/` from `cargo test`.
//!
//! Each `*.mlir` file is one test. Its `// RUN:` lines (joined across a
//! trailing `\`) get `%s`, `%t`, `%plugin`, `tt-opt`, `mlir-opt`,
//! `mlir-translate`, `opt`, `FileCheck` and `not` substituted and run under
//! `bash -o pipefail -c`; the test fails with the output of the first
//! failing line. The LLVM tools come from `/usr/lib/llvm-22/bin` unless
//! `LLVM_TOOLS_DIR` names another directory.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use libtest_mimic::{Arguments, Failed, Trial};

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/lit");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    let trials = files
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(&root)
                .unwrap_or(&path)
                .display()
                .to_string();
            Trial::test(name, move || run_file(&path))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "mlir") {
            files.push(path);
        }
    }
}

/// The `RUN:` commands of `text`, continuation lines joined.
fn run_lines(text: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut pending: Option<String> = None;
    for line in text.lines() {
        let Some((_, command)) = line.split_once("RUN:") else {
            continue;
        };
        let command = command.trim();
        let (part, continues) = match command.strip_suffix('\\') {
            Some(part) => (part.trim_end(), true),
            None => (command, false),
        };
        let joined = match pending.take() {
            Some(mut prefix) => {
                prefix.push(' ');
                prefix.push_str(part);
                prefix
            }
            None => part.to_owned(),
        };
        if continues {
            pending = Some(joined);
        } else {
            commands.push(joined);
        }
    }
    commands.extend(pending);
    commands
}

/// Replaces whole-word tool names, `%s` (the test file), `%t` (a scratch
/// path for the test) and `%plugin` (the mlir-opt dialect plugin built next
/// to tt-opt) in `command`.
fn substitute(command: &str, file: &Path, scratch: &Path) -> String {
    let tools = std::env::var("LLVM_TOOLS_DIR").unwrap_or_else(|_| "/usr/lib/llvm-22/bin".into());
    let tools = Path::new(&tools);
    let file = file.display().to_string();
    let scratch = scratch.display().to_string();
    let plugin = Path::new(env!("CARGO_BIN_EXE_tt-opt"))
        .with_file_name("libtriton_dialect_plugin.so")
        .display()
        .to_string();
    command
        .split(' ')
        .map(|word| match word {
            "tt-opt" => env!("CARGO_BIN_EXE_tt-opt").to_owned(),
            "FileCheck" | "not" | "count" | "mlir-opt" | "mlir-translate" | "opt" => {
                tools.join(word).display().to_string()
            }
            _ => word
                .replace("%plugin", &plugin)
                .replace("%s", &file)
                .replace("%t", &scratch),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn run_file(path: &Path) -> Result<(), Failed> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let commands = run_lines(&text);
    if commands.is_empty() {
        return Err("no RUN: lines".into());
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let scratch_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lit");
    std::fs::create_dir_all(&scratch_dir).map_err(|e| format!("cannot create scratch dir: {e}"))?;
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let parent = dir.file_name().unwrap_or_default().to_string_lossy();
    let scratch = scratch_dir.join(format!("{parent}-{stem}.tmp"));
    for command in commands {
        let command = substitute(&command, path, &scratch);
        let output = Command::new("bash")
            .args(["-o", "pipefail", "-c", &command])
            .current_dir(dir)
            .output()
            .map_err(|e| format!("cannot run bash: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "RUN line failed ({}):\n  {command}\n--- stdout ---\n{}--- stderr ---\n{}",
                output.status,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )
            .into());
        }
    }
    Ok(())
}
