//! Access to the reference corpus (`shared/corpus`, see its README.md): the
//! `.ttir`/`.ttgir` files of each kernel and the sections of its `passes.log`
//! (the IR before each pass of Triton's pipeline), as texts tt-opt can parse.

use std::path::{Path, PathBuf};

/// Where the corpus is: `$TT_CORPUS`, else `<repo root>/../shared/corpus`.
/// `Err` says why it is not there (the caller prints it and skips).
pub fn corpus_dir() -> Result<PathBuf, String> {
    let dir = match std::env::var_os("TT_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    if dir.join("README.md").is_file() {
        Ok(dir)
    } else {
        Err(format!(
            "no reference corpus at {} (set TT_CORPUS to its path)",
            dir.display()
        ))
    }
}

/// The corpus folder, or `None` after printing why the test is skipped.
pub fn corpus_dir_or_skip() -> Option<PathBuf> {
    match corpus_dir() {
        Ok(dir) => Some(dir),
        Err(why) => {
            println!("skipped: {why}");
            None
        }
    }
}

/// One text to feed to tt-opt.
pub struct Text {
    /// Kernel folder name.
    pub kernel: String,
    /// Where it comes from: a file name, or `passes.log:LINE <pass header>`.
    pub origin: String,
    /// Parse-ready text (nested-function sections wrapped in a module).
    pub source: String,
    /// True when `source` wraps a dumped `tt.func` in `module { ... }`:
    /// only the function is to be compared.
    pub nested_func: bool,
}

/// The last pass whose input is TTGIR (the conversion to LLVM); its section
/// is the last corpus text, and what it prints is the last step's output.
const LAST_SECTION: &str = "IR Dump Before ConvertTritonGPUToLLVM";

/// The kernel folders (those with a passes.log), in name order.
pub fn kernel_dirs(corpus: &Path) -> Vec<PathBuf> {
    let mut kernels: Vec<PathBuf> = std::fs::read_dir(corpus)
        .expect("corpus folder is readable")
        .map(|e| e.expect("corpus entry").path())
        .filter(|p| p.join("passes.log").is_file())
        .collect();
    kernels.sort();
    kernels
}

/// All texts of all kernels, kernels in name order.
pub fn all_texts(corpus: &Path) -> Vec<Text> {
    kernel_dirs(corpus)
        .iter()
        .flat_map(|k| kernel_texts(k))
        .collect()
}

fn kernel_texts(dir: &Path) -> Vec<Text> {
    let kernel = dir.file_name().unwrap().to_string_lossy().into_owned();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("kernel folder is readable")
        .map(|e| e.expect("kernel entry").path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("ttir" | "ttgir")
            )
        })
        .collect();
    files.sort();
    let mut texts: Vec<Text> = files
        .iter()
        .map(|p| Text {
            kernel: kernel.clone(),
            origin: p.file_name().unwrap().to_string_lossy().into_owned(),
            source: std::fs::read_to_string(p).expect("corpus file is UTF-8"),
            nested_func: false,
        })
        .collect();
    let log = std::fs::read_to_string(dir.join("passes.log")).expect("passes.log is UTF-8");
    for section in passes_log_sections(&log) {
        let nested_func = section.header.contains("('tt.func' operation")
            && first_op_line(&section.body).is_some_and(|l| l.starts_with("tt.func"));
        let source = if nested_func {
            wrap_in_module(&section.body)
        } else {
            section.body.clone()
        };
        texts.push(Text {
            kernel: kernel.clone(),
            origin: format!("passes.log:{} {}", section.line, section.header),
            source,
            nested_func,
        });
    }
    texts
}

/// One module-level pass of Triton's pipeline on one kernel: the IR before
/// it and the IR before the next module-level pass (what it produced).
pub struct Step {
    /// Kernel folder name.
    pub kernel: String,
    /// The pass flag, e.g. `triton-combine`.
    pub pass: String,
    /// 1-based line of the section header in passes.log.
    pub line: usize,
    /// The IR the pass ran on.
    pub before: String,
    /// The IR it produced.
    pub after: String,
}

/// The stage a step belongs to: `make_ttir` up to the conversion to
/// TritonGPU, then `make_ttgir`.
pub fn stage_of(steps: &[Step], index: usize) -> &'static str {
    let conversion = steps
        .iter()
        .position(|s| s.kernel == steps[index].kernel && s.pass == "convert-triton-to-tritongpu");
    match conversion {
        Some(c) if c <= index => "make_ttgir",
        _ => "make_ttir",
    }
}

/// The module-level steps of every kernel, kernels in name order. Nested
/// sections (a pass that runs inside another, such as the inliner's
/// canonicalizer on each function) are part of the enclosing step.
pub fn module_steps(corpus: &Path) -> Vec<Step> {
    let mut steps = Vec::new();
    for dir in kernel_dirs(corpus) {
        let kernel = dir.file_name().unwrap().to_string_lossy().into_owned();
        let log = std::fs::read_to_string(dir.join("passes.log")).expect("passes.log is UTF-8");
        let modules: Vec<Section> = passes_log_sections(&log)
            .into_iter()
            .filter(|s| s.header.contains("('builtin.module' operation)"))
            .collect();
        for pair in modules.windows(2) {
            let Some(pass) = pass_flag(&pair[0].header) else {
                continue;
            };
            steps.push(Step {
                kernel: kernel.clone(),
                pass,
                line: pair[0].line,
                before: pair[0].body.clone(),
                after: pair[1].body.clone(),
            });
        }
    }
    steps
}

/// The flag in a section header: `IR Dump Before Name (flag) (...)`.
fn pass_flag(header: &str) -> Option<String> {
    let rest = header.strip_prefix("IR Dump Before ")?;
    let open = rest.find(" (")?;
    let rest = &rest[open + 2..];
    Some(rest[..rest.find(')')?].to_owned())
}

/// The first section of a kernel's passes.log: the frontend's output.
pub fn frontend_output(kernel_dir: &Path) -> String {
    let log = std::fs::read_to_string(kernel_dir.join("passes.log")).expect("passes.log is UTF-8");
    passes_log_sections(&log)
        .into_iter()
        .next()
        .map(|s| s.body)
        .unwrap_or_default()
}

/// One section of a passes.log.
struct Section {
    /// 1-based line of the header.
    line: usize,
    /// Header line without the `// -----// ` prefix and `//----- //` suffix.
    header: String,
    body: String,
}

/// The sections of a passes.log up to [`LAST_SECTION`] included.
fn passes_log_sections(log: &str) -> Vec<Section> {
    let mut sections: Vec<Section> = Vec::new();
    for (i, line) in log.lines().enumerate() {
        if let Some(header) = line.strip_prefix("// -----// ") {
            let header = header.trim_end_matches("//----- //").trim().to_string();
            if sections
                .last()
                .is_some_and(|s| s.header.starts_with(LAST_SECTION))
            {
                break;
            }
            sections.push(Section {
                line: i + 1,
                header,
                body: String::new(),
            });
        } else if let Some(s) = sections.last_mut() {
            s.body.push_str(line);
            s.body.push('\n');
        }
    }
    for s in &mut sections {
        let trimmed = s.body.trim_end().len();
        s.body.truncate(trimmed);
        s.body.push('\n');
    }
    sections
}

fn is_alias_definition(line: &str) -> bool {
    line.starts_with('#') || line.starts_with('!')
}

fn first_op_line(body: &str) -> Option<&str> {
    body.lines()
        .find(|l| !l.trim().is_empty() && !is_alias_definition(l))
}

/// Wraps the ops of `body` in `module { ... }`, keeping alias definitions at
/// top level.
fn wrap_in_module(body: &str) -> String {
    let (defs, ops): (Vec<&str>, Vec<&str>) = body.lines().partition(|l| is_alias_definition(l));
    let mut out = String::new();
    for d in defs {
        out.push_str(d);
        out.push('\n');
    }
    out.push_str("module {\n");
    for op in ops.iter().filter(|l| !l.trim().is_empty()) {
        out.push_str("  ");
        out.push_str(op);
        out.push('\n');
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "\
// -----// IR Dump Before Inliner (inline) ('builtin.module' operation) //----- //
#loc = loc(\"k.py\":1:0)
module {
} loc(#loc)


// -----// IR Dump Before Canonicalizer (canonicalize) ('tt.func' operation: @f) //----- //
#loc = loc(\"k.py\":1:0)
tt.func public @f() {
  tt.return loc(#loc)
} loc(#loc)
#loc1 = loc(unknown)

// -----// SoftwarePipeliner internal IR Dump After: LowerLoops
module {
}
// -----// IR Dump Before ConvertTritonGPUToLLVM (convert-triton-gpu-to-llvm) ('builtin.module' operation) //----- //
module {
}
// -----// IR Dump Before Canonicalizer (canonicalize) ('builtin.module' operation) //----- //
module {
  llvm.func @f()
}
";

    #[test]
    fn splits_sections_up_to_the_llvm_conversion() {
        let s = passes_log_sections(LOG);
        let headers: Vec<&str> = s.iter().map(|s| s.header.as_str()).collect();
        assert_eq!(
            headers,
            [
                "IR Dump Before Inliner (inline) ('builtin.module' operation)",
                "IR Dump Before Canonicalizer (canonicalize) ('tt.func' operation: @f)",
                "SoftwarePipeliner internal IR Dump After: LowerLoops",
                "IR Dump Before ConvertTritonGPUToLLVM (convert-triton-gpu-to-llvm) ('builtin.module' operation)",
            ]
        );
        assert_eq!(s[0].line, 1);
        assert_eq!(
            s[0].body,
            "#loc = loc(\"k.py\":1:0)\nmodule {\n} loc(#loc)\n"
        );
        assert_eq!(s[2].body, "module {\n}\n");
    }

    #[test]
    fn reads_pass_flags_from_headers() {
        assert_eq!(
            pass_flag(
                "IR Dump Before TritonCombineOps (triton-combine) ('builtin.module' operation)"
            ),
            Some("triton-combine".into())
        );
        assert_eq!(
            pass_flag("SoftwarePipeliner internal IR Dump After: LowerLoops"),
            None
        );
    }

    #[test]
    fn wraps_a_nested_function() {
        let s = passes_log_sections(LOG);
        assert_eq!(first_op_line(&s[1].body), Some("tt.func public @f() {"));
        let wrapped = wrap_in_module(&s[1].body);
        assert_eq!(
            wrapped,
            "#loc = loc(\"k.py\":1:0)\n#loc1 = loc(unknown)\nmodule {\n  tt.func public @f() {\n    tt.return loc(#loc)\n  } loc(#loc)\n}\n"
        );
    }
}
