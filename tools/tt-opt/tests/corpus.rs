//! Corpus round-trip acceptance test: tt-opt must parse, verify and print
//! every text of the reference corpus (each kernel's `.ttir`/`.ttgir` and
//! every `passes.log` section up to the input of `ConvertTritonGPUToLLVM`) exactly as
//! Triton printed it, up to the canonical form of `common/normalize.rs`
//! (SSA/block renumbering, alias and location inlining), and printing its
//! own output again must give the identical text (print-parse-print fixpoint).
//!
//! Texts with locations are printed with `--mlir-print-debuginfo`; texts
//! without any (the software pipeliner's internal dumps) without it, since
//! tt-opt would otherwise print the locations the parser made up.
//! Identical texts are run once; the report counts every occurrence.
//!
//! The golden pass checks run each `make_ttir` pass of Triton's pipeline on
//! the IR Triton ran it on (a `passes.log` section) and compare the result
//! with the IR Triton dumped before its next module-level pass, and run
//! `--make-ttir` on each kernel's frontend output and compare with its
//! `.ttir`. Both sides are printed by tt-opt without locations and then
//! normalized, so SSA names, aliases and locations are set aside.

#[path = "common/corpus.rs"]
mod corpus;
#[path = "common/normalize.rs"]
mod normalize;
#[path = "common/runner.rs"]
mod runner;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Duration;

use corpus::Text;
use normalize::normalize;
use runner::{parallel_map, run_tt_opt, scratch_dir};

const TIMEOUT: Duration = Duration::from_secs(60);
/// How many failures are shown in full.
const SHOWN_FAILURES: usize = 5;

/// Why a text failed.
enum Failure {
    /// tt-opt exited non-zero (or timed out) on the corpus text.
    Parse(String),
    /// The normalized output differs from the normalized corpus text.
    Mismatch { expected: String, actual: String },
    /// tt-opt failed on, or printed differently, its own output.
    Fixpoint(String),
}

impl Failure {
    /// Short cause, for grouping: the first diagnostic message without its
    /// location, or the kind of mismatch.
    fn cause(&self) -> String {
        match self {
            Failure::Parse(stderr) => stderr
                .lines()
                .find_map(|l| l.split_once("error: ").map(|(_, m)| m))
                .map_or_else(
                    || "failed without diagnostic".to_string(),
                    |m| {
                        let m: String = m.chars().take(110).collect();
                        format!("parse: {m}")
                    },
                ),
            Failure::Mismatch { .. } => "printed text differs".to_string(),
            Failure::Fixpoint(_) => "not a print-parse-print fixpoint".to_string(),
        }
    }

    fn details(&self) -> String {
        match self {
            Failure::Parse(stderr) => stderr.lines().take(8).collect::<Vec<_>>().join("\n"),
            Failure::Mismatch { expected, actual } => first_difference(expected, actual),
            Failure::Fixpoint(detail) => detail.clone(),
        }
    }
}

/// Unified-style diff of the first differing lines (with two lines of
/// context), `-` for the expected (Triton) side and `+` for tt-opt's.
fn first_difference(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    let Some(first) = (0..e.len().max(a.len())).find(|&i| e.get(i) != a.get(i)) else {
        return "(texts are equal)".to_string();
    };
    let clip = |l: &str| -> String {
        if l.chars().count() > 400 {
            format!("{}...", l.chars().take(400).collect::<String>())
        } else {
            l.to_string()
        }
    };
    let mut out = format!(
        "--- triton (normalized)\n+++ tt-opt (normalized)\n@@ -{} +{} @@\n",
        first + 1,
        first + 1
    );
    for l in &e[first.saturating_sub(2)..first] {
        out += &format!(" {}\n", clip(l));
    }
    for l in e.iter().skip(first).take(3) {
        out += &format!("-{}\n", clip(l));
    }
    for l in a.iter().skip(first).take(3) {
        out += &format!("+{}\n", clip(l));
    }
    out
}

/// From the normalized print of a module-wrapped nested function, the
/// function's lines, de-indented. `None` if the module is not there.
fn unwrap_module(printed: &str) -> Option<String> {
    let lines: Vec<&str> = printed.lines().collect();
    let start = lines.iter().position(|l| l.starts_with("module"))?;
    let end = lines.iter().rposition(|l| l.starts_with('}'))?;
    (start < end).then(|| {
        lines[start + 1..end]
            .iter()
            .map(|l| format!("{}\n", l.strip_prefix("  ").unwrap_or(l)))
            .collect()
    })
}

/// Checks one text; `Ok` when it round-trips.
fn check(index: usize, text: &Text, dir: &std::path::Path) -> Result<(), Failure> {
    let flags: &[&str] = if text.source.contains("loc(") {
        &["--mlir-print-debuginfo"]
    } else {
        &[]
    };
    let input = dir.join(format!("text{index}.mlir"));
    std::fs::write(&input, &text.source).expect("write corpus text");
    let first = run_tt_opt(flags, &input, TIMEOUT);
    if !first.success() {
        return Err(Failure::Parse(first.stderr));
    }
    let (expected, actual) = (normalize(&text.source), normalize(&first.stdout));
    let (expected, actual) = if text.nested_func {
        let function = |t: &str| unwrap_module(t).unwrap_or_default();
        (function(&expected), function(&actual))
    } else {
        (expected, actual)
    };
    if expected != actual {
        return Err(Failure::Mismatch { expected, actual });
    }
    let reprint = dir.join(format!("text{index}.out.mlir"));
    std::fs::write(&reprint, &first.stdout).expect("write tt-opt output");
    let second = run_tt_opt(flags, &reprint, TIMEOUT);
    if !second.success() {
        return Err(Failure::Fixpoint(format!(
            "tt-opt rejects its own output {}:\n{}",
            reprint.display(),
            second.stderr
        )));
    }
    if second.stdout != first.stdout {
        return Err(Failure::Fixpoint(first_difference(
            &first.stdout,
            &second.stdout,
        )));
    }
    Ok(())
}

#[test]
fn corpus_round_trips_through_tt_opt() {
    let Some(dir) = corpus::corpus_dir_or_skip() else {
        return;
    };
    let texts = corpus::all_texts(&dir);
    // Dedupe identical texts: run each once.
    let mut unique: Vec<&Text> = Vec::new();
    let mut index_of: HashMap<&str, usize> = HashMap::new();
    let slot: Vec<usize> = texts
        .iter()
        .map(|t| {
            *index_of.entry(t.source.as_str()).or_insert_with(|| {
                unique.push(t);
                unique.len() - 1
            })
        })
        .collect();
    let scratch = scratch_dir("corpus");
    let results = parallel_map(&unique, |i, t| check(i, t, &scratch));

    // Per-kernel table, counting every occurrence.
    let mut table: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (t, &u) in texts.iter().zip(&slot) {
        let row = table.entry(&t.kernel).or_default();
        row.0 += 1;
        row.1 += usize::from(results[u].is_ok());
    }
    println!("\n{:<16} {:>7} {:>7}", "kernel", "texts", "pass");
    for (kernel, (n, pass)) in &table {
        println!("{kernel:<16} {n:>7} {pass:>7}");
    }
    let total: usize = table.values().map(|r| r.0).sum();
    let passed: usize = table.values().map(|r| r.1).sum();
    let unique_passed = results.iter().filter(|r| r.is_ok()).count();
    println!("{:<16} {total:>7} {passed:>7}", "total");
    println!(
        "({} distinct texts, {unique_passed} pass; scratch files in {})\n",
        unique.len(),
        scratch.display()
    );

    let failures: Vec<(&Text, &Failure)> = unique
        .iter()
        .zip(&results)
        .filter_map(|(t, r)| r.as_ref().err().map(|f| (*t, f)))
        .collect();
    let mut causes: BTreeMap<String, usize> = BTreeMap::new();
    for (_, f) in &failures {
        *causes.entry(f.cause()).or_default() += 1;
    }
    if !causes.is_empty() {
        println!("failure causes (distinct texts):");
        let mut by_count: Vec<_> = causes.into_iter().collect();
        by_count.sort_by_key(|c| std::cmp::Reverse(c.1));
        for (cause, n) in by_count {
            println!("  {n:>5}  {cause}");
        }
        println!();
    }
    for (t, f) in failures.iter().take(SHOWN_FAILURES) {
        println!("FAIL {}/{}\n{}\n", t.kernel, t.origin, f.details());
    }
    assert_eq!(
        passed,
        total,
        "{} of {total} corpus texts do not round-trip (report above)",
        total - passed
    );
}

#[test]
fn unwrap_module_extracts_the_function() {
    let printed = "module {\n  tt.func @f() {\n    tt.return\n  }\n} loc(x)\n";
    assert_eq!(
        unwrap_module(printed).unwrap(),
        "tt.func @f() {\n  tt.return\n}\n"
    );
    assert_eq!(unwrap_module("tt.func @f()\n"), None);
}

#[test]
fn first_difference_shows_context_and_both_sides() {
    let d = first_difference("a\nb\nc\nd\n", "a\nb\nX\nd\n");
    assert!(d.contains("@@ -3 +3 @@\n a\n b\n-c\n-d\n+X\n+d\n"), "{d}");
}

#[test]
fn check_compares_nested_functions_and_detects_changed_text() {
    let scratch = scratch_dir("corpus-check");
    let nested = Text {
        kernel: "k".into(),
        origin: "synthetic".into(),
        source: "#loc = loc(\"k.py\":1:0)\n#loc1 = loc(\"x\"(#loc))\nmodule {\n  tt.func @f(%x: i32 loc(\"x\"(#loc))) -> i32 {\n    tt.return %x : i32 loc(#loc1)\n  } loc(#loc)\n}\n".into(),
        nested_func: true,
    };
    assert!(check(0, &nested, &scratch).is_ok());
    // `!tt.ptr<f32, 1>` is printed `!tt.ptr<f32>`: not Triton's text.
    let changed = Text {
        source: "module {\n  tt.func @g(%p: !tt.ptr<f32, 1>) {\n    tt.return\n  }\n}\n".into(),
        nested_func: false,
        ..nested
    };
    assert!(matches!(
        check(1, &changed, &scratch),
        Err(Failure::Mismatch { .. })
    ));
}

/// The passes that the golden check runs: those of the `make_ttir` stage
/// on that stage's steps, and the passes that later stages reuse
/// (`canonicalize` with the ttg patterns, `triton-licm`,
/// `triton-loop-aware-cse`, `cse`, `symbol-dce`, `sccp`) and the
/// `make_ttgir` passes wherever Triton ran them.
const GOLDEN_PASSES: &[(&str, Stages)] = &[
    ("inline", Stages::MakeTtir),
    ("triton-rewrite-tensor-pointer", Stages::MakeTtir),
    (
        "triton-rewrite-tensor-descriptor-to-pointer",
        Stages::MakeTtir,
    ),
    ("canonicalize", Stages::All),
    ("triton-combine", Stages::MakeTtir),
    ("triton-reorder-broadcast", Stages::MakeTtir),
    ("cse", Stages::All),
    ("symbol-dce", Stages::All),
    ("sccp", Stages::All),
    ("triton-loop-unroll", Stages::MakeTtir),
    ("triton-licm", Stages::All),
    ("triton-loop-aware-cse", Stages::All),
    ("tritongpu-F32DotTC", Stages::All),
    ("triton-nvidia-gpu-plan-cta", Stages::All),
    ("tritongpu-combine-tensor-select-and-if", Stages::All),
    ("tritongpu-coalesce", Stages::All),
    ("tritongpu-reduce-data-duplication", Stages::All),
    ("tritongpu-optimize-thread-locality", Stages::All),
    ("tritongpu-reorder-instructions", Stages::All),
    ("tritongpu-remove-layout-conversions", Stages::All),
    ("tritongpu-accelerate-matmul", Stages::All),
    ("triton-nvidia-gpu-fence-insertion", Stages::All),
    ("tritongpu-optimize-dot-operands", Stages::All),
    ("tritongpu-coalesce-async-copy", Stages::All),
    ("tritongpu-prefetch", Stages::All),
    ("tritongpu-fuse-nested-loops", Stages::All),
];

/// Where a golden pass is checked.
#[derive(Clone, Copy, PartialEq)]
enum Stages {
    MakeTtir,
    All,
}

/// Runs `tt-opt <flags>` on `input` and `tt-opt` on `expected`, and compares
/// the normalized prints.
fn golden(
    dir: &std::path::Path,
    name: &str,
    flags: &[&str],
    input: &str,
    expected: &str,
) -> Result<(), String> {
    let input_file = dir.join(format!("{name}.in.mlir"));
    let expected_file = dir.join(format!("{name}.expected.mlir"));
    std::fs::write(&input_file, input).expect("write golden input");
    std::fs::write(&expected_file, expected).expect("write golden expectation");
    let ours = run_tt_opt(flags, &input_file, TIMEOUT);
    if !ours.success() {
        return Err(format!(
            "tt-opt {} failed:\n{}",
            flags.join(" "),
            ours.stderr
        ));
    }
    let theirs = run_tt_opt(&[], &expected_file, TIMEOUT);
    if !theirs.success() {
        return Err(format!(
            "tt-opt cannot print Triton's output:\n{}",
            theirs.stderr
        ));
    }
    let (expected, actual) = (normalize(&theirs.stdout), normalize(&ours.stdout));
    if expected == actual {
        Ok(())
    } else {
        Err(first_difference(&expected, &actual))
    }
}

#[test]
fn ttir_passes_match_triton() {
    let Some(dir) = corpus::corpus_dir_or_skip() else {
        return;
    };
    let steps = corpus::module_steps(&dir);
    let checked: Vec<(usize, &corpus::Step)> = steps
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            GOLDEN_PASSES.iter().any(|&(pass, stages)| {
                pass == s.pass
                    && (stages == Stages::All || corpus::stage_of(&steps, *i) == "make_ttir")
            })
        })
        .collect();
    let checked: Vec<&corpus::Step> = checked.into_iter().map(|(_, s)| s).collect();
    let passes: Vec<&str> = GOLDEN_PASSES.iter().map(|&(pass, _)| pass).collect();
    check_golden_steps("golden-passes", &checked, &passes, false);
}

/// Runs each step's pass on its input and compares the output with
/// Triton's (see [`golden`]); prints a table of steps and matches per pass
/// and the first failures, and fails the test when a step differs (or,
/// with `every_pass`, when one of `passes` never runs in the corpus).
fn check_golden_steps(name: &str, checked: &[&corpus::Step], passes: &[&str], every_pass: bool) {
    let scratch = scratch_dir(name);
    let results = parallel_map(checked, |i, step| -> Result<(), String> {
        let flag = format!("--{}", step.pass);
        golden(
            &scratch,
            &format!("step{i}"),
            &[&flag],
            &step.before,
            &step.after,
        )
    });
    let mut table: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (step, result) in checked.iter().zip(&results) {
        let row = table.entry(&step.pass).or_default();
        row.0 += 1;
        row.1 += usize::from(result.is_ok());
    }
    println!("\n{:<46} {:>6} {:>6}", "pass", "steps", "match");
    for pass in passes {
        let (n, ok) = table.get(pass).copied().unwrap_or_default();
        println!("{pass:<46} {n:>6} {ok:>6}");
    }
    let failures: Vec<String> = checked
        .iter()
        .zip(&results)
        .filter_map(|(s, r)| {
            r.as_ref()
                .err()
                .map(|e| format!("FAIL {} passes.log:{} {}\n{e}", s.kernel, s.line, s.pass))
        })
        .collect();
    for f in failures.iter().take(SHOWN_FAILURES) {
        println!("{f}\n");
    }
    assert!(
        !checked.is_empty(),
        "the corpus has no steps for these passes"
    );
    if every_pass {
        for pass in passes {
            assert!(table.contains_key(pass), "the corpus never runs {pass}");
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} steps differ from Triton",
        failures.len(),
        checked.len()
    );
}

#[test]
fn make_ttir_stage_gives_the_ttir_files() {
    let Some(dir) = corpus::corpus_dir_or_skip() else {
        return;
    };
    let kernels = corpus::kernel_dirs(&dir);
    let scratch = scratch_dir("golden-make-ttir");
    let results = parallel_map(&kernels, |_, kernel| {
        let name = kernel.file_name().unwrap().to_string_lossy().into_owned();
        let ttir =
            std::fs::read_to_string(kernel.join(format!("{name}.ttir"))).expect("kernel .ttir");
        let result = golden(
            &scratch,
            &name,
            &["--make-ttir"],
            &corpus::frontend_output(kernel),
            &ttir,
        );
        (name, result)
    });
    for (name, result) in &results {
        println!(
            "{name:<16} {}",
            if result.is_ok() { "match" } else { "DIFFERS" }
        );
    }
    assert_every_kernel_passed(&results, "differ from their .ttir");
}

/// `ttg.num-warps` of a kernel's `.ttgir` module line.
fn ttgir_num_warps(kernel_dir: &std::path::Path) -> u32 {
    let name = kernel_dir
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let ttgir =
        std::fs::read_to_string(kernel_dir.join(format!("{name}.ttgir"))).expect("kernel .ttgir");
    let rest = &ttgir[ttgir
        .find("\"ttg.num-warps\" = ")
        .expect("ttg.num-warps in .ttgir")
        + 18..];
    rest[..rest.find(' ').unwrap()]
        .parse()
        .expect("num-warps is a number")
}

#[test]
fn convert_triton_to_tritongpu_matches_triton() {
    let Some(dir) = corpus::corpus_dir_or_skip() else {
        return;
    };
    let steps = corpus::module_steps(&dir);
    let checked: Vec<&corpus::Step> = steps
        .iter()
        .filter(|s| s.pass == "convert-triton-to-tritongpu")
        .collect();
    let scratch = scratch_dir("golden-convert-triton-to-tritongpu");
    let results = parallel_map(&checked, |_, step| {
        let warps = ttgir_num_warps(&dir.join(&step.kernel));
        let flag = format!("--convert-triton-to-tritongpu=target=cuda:90 num-warps={warps}");
        golden(&scratch, &step.kernel, &[&flag], &step.before, &step.after)
    });
    for (step, result) in checked.iter().zip(&results) {
        println!(
            "{:<16} {}",
            step.kernel,
            if result.is_ok() { "match" } else { "DIFFERS" }
        );
    }
    let failures: Vec<String> = checked
        .iter()
        .zip(&results)
        .filter_map(|(s, r)| {
            r.as_ref()
                .err()
                .map(|e| format!("FAIL {} passes.log:{}\n{e}", s.kernel, s.line))
        })
        .collect();
    for f in failures.iter().take(SHOWN_FAILURES) {
        println!("{f}\n");
    }
    assert_eq!(checked.len(), 11, "expected a conversion step per kernel");
    assert!(
        failures.is_empty(),
        "{} of {} kernels differ from Triton",
        failures.len(),
        checked.len()
    );
}

/// The `make_ttgir` passes whose work no corpus kernel needs (warp
/// specialization, descriptors and TMA, tensor memory, MMA lowering):
/// where Triton changed the IR, ours must stop with a located "does not
/// support" error; where Triton left it alone, ours must too.
const DOT_PATH_PASSES: &[&str] = &[
    "triton-nvidia-optimize-descriptor-encoding",
    "nvgpu-warp-specialization",
    "triton-nvidia-optimize-tmem-layouts",
    "triton-nvidia-tma-lowering",
    "triton-nvidia-interleave-tmem",
    "triton-nvidia-mma-lowering",
];

#[test]
fn dot_path_passes_refuse_what_they_cannot_do_and_keep_the_rest() {
    let Some(dir) = corpus::corpus_dir_or_skip() else {
        return;
    };
    let steps = corpus::module_steps(&dir);
    let checked: Vec<&corpus::Step> = steps
        .iter()
        .filter(|s| DOT_PATH_PASSES.contains(&s.pass.as_str()))
        .collect();
    let scratch = scratch_dir("golden-dot-path");
    // Ok(true): unchanged and matching; Ok(false): refused as it must be.
    let results = parallel_map(&checked, |i, step| -> Result<bool, String> {
        let flag = format!("--{}", step.pass);
        let input = scratch.join(format!("step{i}.in.mlir"));
        let expected = scratch.join(format!("step{i}.expected.mlir"));
        std::fs::write(&input, &step.before).expect("write input");
        std::fs::write(&expected, &step.after).expect("write expectation");
        let before = run_tt_opt(&[], &input, TIMEOUT);
        let after = run_tt_opt(&[], &expected, TIMEOUT);
        if !before.success() || !after.success() {
            return Err("tt-opt cannot print Triton's IR".into());
        }
        let changed = normalize(&before.stdout) != normalize(&after.stdout);
        if !changed {
            return golden(
                &scratch,
                &format!("step{i}"),
                &[&flag],
                &step.before,
                &step.after,
            )
            .map(|()| true);
        }
        let ours = run_tt_opt(&[&flag], &input, TIMEOUT);
        let wanted = format!("'{}' does not support", step.pass);
        // `file:line:col: error: ...`, at the op's own location.
        let located = ours.stderr.lines().any(|l| {
            l.split_once(": error: ").is_some_and(|(at, message)| {
                message.contains(&wanted)
                    && at.rsplitn(3, ':').take(2).all(|n| n.parse::<u32>().is_ok())
            })
        });
        if ours.status.and_then(|s| s.code()) == Some(1) && located {
            Ok(false)
        } else {
            Err(format!(
                "Triton changed the IR but tt-opt {flag} did not refuse it (status {:?}):\n{}",
                ours.status,
                ours.stderr.lines().take(4).collect::<Vec<_>>().join("\n")
            ))
        }
    });
    let mut table: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    for (step, result) in checked.iter().zip(&results) {
        let row = table.entry(&step.pass).or_default();
        row.0 += 1;
        match result {
            Ok(true) => row.1 += 1,
            Ok(false) => row.2 += 1,
            Err(_) => {}
        }
    }
    println!(
        "\n{:<46} {:>6} {:>10} {:>8}",
        "pass", "steps", "unchanged", "refused"
    );
    for pass in DOT_PATH_PASSES {
        let (n, same, refused) = table.get(pass).copied().unwrap_or_default();
        println!("{pass:<46} {n:>6} {same:>10} {refused:>8}");
    }
    let failures: Vec<String> = checked
        .iter()
        .zip(&results)
        .filter_map(|(s, r)| {
            r.as_ref()
                .err()
                .map(|e| format!("FAIL {} passes.log:{} {}\n{e}", s.kernel, s.line, s.pass))
        })
        .collect();
    for f in failures.iter().take(SHOWN_FAILURES) {
        println!("{f}\n");
    }
    for pass in DOT_PATH_PASSES {
        assert!(table.contains_key(pass), "the corpus never runs {pass}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} steps fail",
        failures.len(),
        checked.len()
    );
}

/// The `make_llir` passes that run on TTGIR before the conversion to LLVM
/// (the `conversion` crate), each checked on every corpus step that runs it.
const LLIR_PASSES: &[&str] = &[
    "tritongpu-allocate-warp-groups",
    "convert-scf-to-cf",
    "gluon-inline",
    "allocate-shared-memory-nv",
    "triton-tensor-memory-allocation",
    "triton-nvidia-check-matmul-two-cta",
    "tritongpu-global-scratch-memory-allocation",
    "triton-nvidia-gpu-proxy-fence-insertion",
];

#[test]
fn make_llir_passes_match_triton() {
    let Some(dir) = corpus::corpus_dir_or_skip() else {
        return;
    };
    let steps = corpus::module_steps(&dir);
    let checked: Vec<&corpus::Step> = steps
        .iter()
        .filter(|s| LLIR_PASSES.contains(&s.pass.as_str()))
        .collect();
    check_golden_steps("golden-make-llir", &checked, LLIR_PASSES, true);
}

/// The software-pipelining passes checked against every corpus step that
/// runs them (default options: Triton ran them with each kernel's
/// `num_stages`, 3 everywhere but `softmax`, whose loop carries its own
/// `tt.num_stages`, which takes precedence).
const PIPELINER_PASSES: &[&str] = &[
    "tritongpu-assign-latencies",
    "tritongpu-schedule-loops",
    "tritongpu-pipeline",
];

#[test]
fn pipeliner_passes_match_triton() {
    let Some(dir) = corpus::corpus_dir_or_skip() else {
        return;
    };
    let steps = corpus::module_steps(&dir);
    let checked: Vec<&corpus::Step> = steps
        .iter()
        .filter(|s| PIPELINER_PASSES.contains(&s.pass.as_str()))
        .collect();
    assert_eq!(
        checked.len(),
        11 * PIPELINER_PASSES.len(),
        "each kernel runs each pipeliner pass once"
    );
    check_golden_steps("golden-pipeliner", &checked, PIPELINER_PASSES, true);
}

#[test]
fn make_ttgir_stage_gives_the_ttgir_files() {
    let Some(dir) = corpus::corpus_dir_or_skip() else {
        return;
    };
    let kernels = corpus::kernel_dirs(&dir);
    let scratch = scratch_dir("golden-make-ttgir");
    let results = parallel_map(&kernels, |_, kernel| {
        let name = kernel.file_name().unwrap().to_string_lossy().into_owned();
        let read = |ext: &str| {
            std::fs::read_to_string(kernel.join(format!("{name}.{ext}"))).expect("kernel file")
        };
        let warps = ttgir_num_warps(kernel);
        let flag = format!("--make-ttgir=num-warps={warps} num-ctas=1 num-stages=3 target=cuda:90");
        let result = golden(&scratch, &name, &[&flag], &read("ttir"), &read("ttgir"));
        (name, result)
    });
    for (name, result) in &results {
        let verdict = if result.is_ok() { "match" } else { "DIFFERS" };
        println!("{name:<16} {verdict}");
    }
    assert_every_kernel_passed(&results, "failed");
}

/// Shows the first failures of a per-kernel check and asserts that the
/// eleven corpus kernels all passed (`what` says what the failed ones did).
fn assert_every_kernel_passed(results: &[(String, Result<(), String>)], what: &str) {
    let failures: Vec<String> = results
        .iter()
        .filter_map(|(n, r)| r.as_ref().err().map(|e| format!("FAIL {n}\n{e}")))
        .collect();
    for f in failures.iter().take(SHOWN_FAILURES) {
        println!("{f}\n");
    }
    assert_eq!(results.len(), 11, "expected the eleven corpus kernels");
    assert!(
        failures.is_empty(),
        "{} of {} kernels {what}",
        failures.len(),
        results.len()
    );
}

/// What the acceptance compares between `tt-opt --make-llir` (LLVM dialect)
/// and Triton's `.llir` (LLVM IR after O3): the global memory accesses
/// (their inline PTX, which holds the width, the vector size, the cache
/// modifiers and the predicate), shuffles, barriers and `vprintf` calls
/// with their format strings.
#[derive(Debug, Default, PartialEq)]
struct LlirSummary {
    /// Inline PTX strings of global loads, stores, atomics, cp.async,
    /// mma.sync, wgmma and proxy fences, with how often each occurs.
    memory: BTreeMap<String, usize>,
    /// `wgmma.fence` and `wgmma.commit_group`, and the pending counts of
    /// the `wgmma.wait_group`s.
    wgmma_fences: usize,
    wgmma_commits: usize,
    wgmma_waits: Vec<u32>,
    /// The constant bits of the wgmma matrix descriptors (swizzle mode,
    /// strides): every 64-bit constant above 2^32 with its low 16 bits
    /// (the start address) cleared.
    descriptors: BTreeSet<u64>,
    shuffles: usize,
    barriers: usize,
    vprintf_calls: usize,
    formats: Vec<String>,
}

/// The quoted string that starts at `text`'s first `"` (escapes kept as
/// printed: MLIR and LLVM IR both print `\0A`-style escapes).
fn quoted(text: &str) -> Option<&str> {
    let start = text.find('"')? + 1;
    let len = text[start..].find('"')?;
    Some(&text[start..start + len])
}

fn is_memory_asm(asm: &str) -> bool {
    [
        "ld.global",
        "st.global",
        "atom.",
        "cp.async",
        "mma.sync",
        "wgmma.mma_async",
        "fence.proxy",
    ]
    .iter()
    .any(|m| asm.contains(m))
}

/// The pending count of a `wgmma.wait_group` inline asm string.
fn wgmma_wait(asm: &str) -> Option<u32> {
    let (_, n) = asm.split_once("wgmma.wait_group.sync.aligned ")?;
    n.trim_end_matches(';').trim().parse().ok()
}

/// Descriptor constants in `line` (see [`LlirSummary::descriptors`]).
fn descriptor_constants(line: &str, into: &mut BTreeSet<u64>) {
    for word in line.split(|c: char| !c.is_ascii_digit() && c != '-') {
        if let Ok(v) = word.parse::<i64>() {
            if v.unsigned_abs() >= 1 << 32 {
                into.insert(v as u64 & !0xffff);
            }
        }
    }
}

/// Summary of tt-opt's `--make-llir` output.
fn summarize_ours(mlir: &str) -> LlirSummary {
    let mut s = LlirSummary::default();
    for line in mlir.lines() {
        if let Some((_, rest)) = line.split_once("llvm.inline_asm") {
            if let Some(asm) = quoted(rest).filter(|a| is_memory_asm(a)) {
                *s.memory.entry(asm.to_owned()).or_default() += 1;
            }
            s.wgmma_waits.extend(quoted(rest).and_then(wgmma_wait));
        }
        if line.contains("llvm.mlir.constant(") && line.contains(": i64) : i64") {
            descriptor_constants(line, &mut s.descriptors);
        }
        s.wgmma_fences += line.matches("nvvm.wgmma.fence.aligned").count();
        s.wgmma_commits += line.matches("nvvm.wgmma.commit.group.sync.aligned").count();
        s.shuffles += line.matches("nvvm.shfl.sync").count();
        s.barriers += line.matches("nvvm.barrier").count();
        if line.contains("llvm.call @vprintf(") {
            s.vprintf_calls += 1;
        }
        if line.contains("llvm.mlir.global") && line.contains("@printfFormat") {
            s.formats.extend(quoted(line).map(str::to_owned));
        }
    }
    s.formats.sort();
    s
}

/// Summary of Triton's `.llir`.
fn summarize_triton(llir: &str) -> LlirSummary {
    let mut s = LlirSummary::default();
    for line in llir.lines() {
        if let Some((_, rest)) = line.split_once(" asm ") {
            if let Some(asm) = quoted(rest).filter(|a| is_memory_asm(a)) {
                *s.memory.entry(asm.to_owned()).or_default() += 1;
            }
            s.wgmma_waits.extend(quoted(rest).and_then(wgmma_wait));
        }
        if line.contains(" i64 ") && (line.contains(" or ") || line.contains(" add ")) {
            descriptor_constants(line, &mut s.descriptors);
        }
        if !line.starts_with("declare") {
            s.wgmma_fences += line.matches("@llvm.nvvm.wgmma.fence.sync.aligned").count();
            s.wgmma_commits += line
                .matches("@llvm.nvvm.wgmma.commit_group.sync.aligned")
                .count();
            s.shuffles += line.matches("@llvm.nvvm.shfl.sync").count();
            s.barriers += line.matches("@llvm.nvvm.barrier").count();
            if line.contains("@vprintf(") {
                s.vprintf_calls += 1;
            }
        }
        if line.starts_with("@printfFormat") {
            s.formats.extend(quoted(line).map(str::to_owned));
        }
    }
    s.formats.sort();
    s
}

/// `tt-opt --make-llir` on each kernel's `.ttgir` against Triton's
/// `.llir`: the same global memory, cp.async, mma.sync, wgmma and proxy
/// fence instructions (each inline PTX string as often: widths, predicates,
/// wgmma shapes and operands), as many wgmma fences, commits and waits
/// (with their pending counts), the same descriptor constants (swizzle
/// modes and strides), the same `vprintf` calls and format strings, and
/// shuffles and barriers present exactly where Triton has them, never
/// more of them (reductions read every warp's partial instead of
/// shuffling twice, so some kernels need fewer).
#[test]
fn make_llir_agrees_with_tritons_llir() {
    let Some(dir) = corpus::corpus_dir_or_skip() else {
        return;
    };
    let kernels = corpus::kernel_dirs(&dir);
    assert_eq!(kernels.len(), 11, "the corpus has eleven kernels");
    let results = parallel_map(&kernels, |_, kernel| -> Result<String, String> {
        let name = kernel.file_name().unwrap().to_string_lossy().into_owned();
        let ours = run_tt_opt(
            &["--make-llir=target=cuda:90"],
            &kernel.join(format!("{name}.ttgir")),
            TIMEOUT,
        );
        if !ours.success() {
            return Err(format!(
                "{name}: tt-opt --make-llir failed:\n{}",
                ours.stderr
            ));
        }
        let llir = std::fs::read_to_string(kernel.join(format!("{name}.llir")))
            .map_err(|e| format!("{name}.llir: {e}"))?;
        let (ours, triton) = (summarize_ours(&ours.stdout), summarize_triton(&llir));
        let mut problems = Vec::new();
        if ours.memory != triton.memory {
            problems.push(format!(
                "global memory instructions differ:\n  ours:   {:?}\n  triton: {:?}",
                ours.memory, triton.memory
            ));
        }
        let wgmma = |s: &LlirSummary| {
            (
                s.wgmma_fences,
                s.wgmma_commits,
                s.wgmma_waits.clone(),
                s.descriptors.clone(),
            )
        };
        if wgmma(&ours) != wgmma(&triton) {
            problems.push(format!(
                "wgmma (fences, commits, waits, descriptors) differ:\n  ours:   {:?}\n  triton: {:?}",
                wgmma(&ours),
                wgmma(&triton)
            ));
        }
        if (ours.vprintf_calls, &ours.formats) != (triton.vprintf_calls, &triton.formats) {
            problems.push(format!(
                "vprintf: ours {} calls {:?}, triton {} calls {:?}",
                ours.vprintf_calls, ours.formats, triton.vprintf_calls, triton.formats
            ));
        }
        for (what, o, t) in [
            ("shuffles", ours.shuffles, triton.shuffles),
            ("barriers", ours.barriers, triton.barriers),
        ] {
            if o > t || (o == 0) != (t == 0) {
                problems.push(format!("{what}: ours {o}, triton {t}"));
            }
        }
        if problems.is_empty() {
            Ok(format!(
                "{name:<14} {:>3} memory ops  shuffles {:>2}/{:<2}  barriers {}/{}  vprintf {}",
                ours.memory.values().sum::<usize>(),
                ours.shuffles,
                triton.shuffles,
                ours.barriers,
                triton.barriers,
                ours.vprintf_calls
            ))
        } else {
            Err(format!("{name}:\n{}", problems.join("\n")))
        }
    });
    let mut failures = Vec::new();
    for result in results {
        match result {
            Ok(line) => println!("{line}"),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
