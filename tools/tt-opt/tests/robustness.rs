//! Mutation fuzzer: tt-opt must reject broken input cleanly, never crash.
//!
//! A deterministic xorshift PRNG makes mutants (`TT_FUZZ_MUTANTS`, default
//! 3000; seed `TT_FUZZ_SEED`) of the corpus `.ttir`/`.ttgir` files and a few
//! `passes.log` sections: token deletions, swaps and duplications, truncated
//! lines and files, wrong types and shapes, swapped layouts, nonsense
//! attributes, random bytes and invalid UTF-8. Each mutant runs through
//! tt-opt with a 20 s timeout (mutants of TTIR also through `--make-ttir`,
//! so that the passes meet every input that still verifies), and must end
//! with exit code 0, or with exit
//! code 1 and at least one `FILE:LINE:COL: error:` diagnostic on stderr
//! (or a located warning, where a pass stops with one as Triton's does):
//! a timeout (hang), a signal, a panic (101) or an abort (134) fails the
//! test. Offending mutants are kept under the target dir.
//!
//! The corpus has no Blackwell or TMA ops, so a second run
//! (`TT_FUZZ_TTNG_MUTANTS`, default 600, same seed) mutates the sections of
//! `test/lit/ttng/ops.mlir`, which use every `ttng` op and attribute, with
//! the same kinds plus tensor-memory-specific ones, and runs each mutant
//! through one of a few pass lists (canonicalize, CSE, inlining, fence and
//! reorder passes, the lowering to LLVM). A third run
//! (`TT_FUZZ_NVG_MUTANTS`, default 300) does the same for the `nvg` ops of
//! `test/lit/conversion/nvgpu-to-llvm.mlir`, printed and lowered by
//! `convert-nv-gpu-to-llvm`. A fourth (`TT_FUZZ_TMA_MUTANTS`, default 150
//! per file) mutates the TMA lowering, mbarrier/TMA and global scratch lit
//! files and runs them through the TMA lowering, the allocation, the proxy
//! fences, the membar analysis and the lowering to LLVM.

// Only the corpus texts are used here; the step helpers serve corpus.rs.
#[allow(dead_code)]
#[path = "common/corpus.rs"]
mod corpus;
#[path = "common/runner.rs"]
mod runner;

use std::collections::{BTreeMap, BTreeSet};
use std::os::unix::process::ExitStatusExt;
use std::time::Duration;

use runner::{parallel_map, run_tt_opt, scratch_dir, Outcome};

const TIMEOUT: Duration = Duration::from_secs(20);
const DEFAULT_MUTANTS: usize = 3000;
const DEFAULT_SEED: u64 = 0x7472_6974_6f6e_2121;
/// How many offending mutants are shown in full.
const SHOWN_FAILURES: usize = 10;

/// Marsaglia's xorshift64.
struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> Self {
        XorShift(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform-enough integer in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    DeleteToken,
    SwapTokens,
    DuplicateToken,
    TruncateLine,
    TruncateFile,
    WrongType,
    ChangeShape,
    SwapLayout,
    BadAxis,
    BadNumWarps,
    BadOrder,
    BadSizePerThread,
    RandomBytes,
    InvalidUtf8,
    /// `ttng` only: memory spaces, encoding parameters, barrier types,
    /// tokens and MMA flags.
    TensorMemory,
}

const KINDS: [Kind; 14] = [
    Kind::DeleteToken,
    Kind::SwapTokens,
    Kind::DuplicateToken,
    Kind::TruncateLine,
    Kind::TruncateFile,
    Kind::WrongType,
    Kind::ChangeShape,
    Kind::SwapLayout,
    Kind::BadAxis,
    Kind::BadNumWarps,
    Kind::BadOrder,
    Kind::BadSizePerThread,
    Kind::RandomBytes,
    Kind::InvalidUtf8,
];

/// The kinds of the `ttng` run: every corpus kind and the `ttng` one.
const TTNG_KINDS: [Kind; KINDS.len() + 1] = {
    let mut all = [Kind::TensorMemory; KINDS.len() + 1];
    let mut i = 0;
    while i < KINDS.len() {
        all[i] = KINDS[i];
        i += 1;
    }
    all
};

/// The pass lists the `ttng` mutants run through (none: parse, verify and
/// print only).
const TTNG_FLAGS: [&[&str]; 8] = [
    &[],
    &["--canonicalize"],
    &["--cse"],
    &["--inline"],
    &["--triton-nvidia-gpu-fence-insertion"],
    &["--tritongpu-reorder-instructions"],
    &["--triton-tensor-memory-allocation"],
    &[
        "--allocate-shared-memory-nv",
        "--convert-triton-gpu-to-llvm",
    ],
];

/// Byte ranges of the whitespace-separated tokens of `s`.
fn tokens(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices().chain([(s.len(), ' ')]) {
        match (c.is_whitespace(), start) {
            (true, Some(b)) => {
                out.push((b, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

/// `src` with the byte range `range` replaced by `with`.
fn splice(src: &str, range: (usize, usize), with: &[u8]) -> Vec<u8> {
    [&src.as_bytes()[..range.0], with, &src.as_bytes()[range.1..]].concat()
}

/// Replaces one random occurrence of one of the applicable `(from, to)`
/// pairs; `None` when no `from` occurs in `src`.
fn replace_one(src: &str, pairs: &[(&str, &str)], rng: &mut XorShift) -> Option<Vec<u8>> {
    let hits: Vec<(usize, &str, &str)> = pairs
        .iter()
        .flat_map(|&(from, to)| src.match_indices(from).map(move |(i, _)| (i, from, to)))
        .collect();
    if hits.is_empty() {
        return None;
    }
    let &(at, from, to) = rng.pick(&hits);
    Some(splice(src, (at, at + from.len()), to.as_bytes()))
}

/// Replaces the bracketed list or number following one random occurrence of
/// `key` (e.g. `order = ` followed by `[1, 0]`) by one of `values`.
fn replace_value(src: &str, key: &str, values: &[&str], rng: &mut XorShift) -> Option<Vec<u8>> {
    let hits: Vec<usize> = src.match_indices(key).map(|(i, _)| i + key.len()).collect();
    if hits.is_empty() {
        return None;
    }
    let start = *rng.pick(&hits);
    let rest = &src[start..];
    let len = if rest.starts_with('[') {
        rest.find(']')? + 1
    } else {
        rest.find(|c: char| !(c.is_ascii_digit() || c == '-'))
            .unwrap_or(rest.len())
    };
    Some(splice(
        src,
        (start, start + len),
        rng.pick(values).as_bytes(),
    ))
}

/// A mutant of `src` of the given kind; `None` when the kind does not apply.
fn mutate(kind: Kind, src: &str, rng: &mut XorShift) -> Option<Vec<u8>> {
    let toks = tokens(src);
    if toks.len() < 2 {
        return None;
    }
    let t = rng.below(toks.len() - 1);
    let (a, b) = (toks[t], toks[t + 1]);
    match kind {
        Kind::DeleteToken => Some(splice(src, a, b"")),
        Kind::SwapTokens => {
            let swapped = [&src[b.0..b.1], &src[a.1..b.0], &src[a.0..a.1]].concat();
            (src[a.0..a.1] != src[b.0..b.1]).then(|| splice(src, (a.0, b.1), swapped.as_bytes()))
        }
        Kind::DuplicateToken => {
            let dup = format!("{} {}", &src[a.0..a.1], &src[a.0..a.1]);
            Some(splice(src, a, dup.as_bytes()))
        }
        Kind::TruncateLine => {
            let line_start = src[..a.1].rfind('\n').map_or(0, |i| i + 1);
            let line_end = src[a.1..].find('\n').map_or(src.len(), |i| a.1 + i);
            let cut = a.0 + (a.1 - a.0) / 2;
            (cut > line_start).then(|| splice(src, (cut, line_end), b""))
        }
        Kind::TruncateFile => {
            let cut = a.0 + (a.1 - a.0) / 2;
            Some(src.as_bytes()[..cut].to_vec())
        }
        Kind::WrongType => replace_one(
            src,
            &[
                ("xf32", "xi32"),
                (": f32", ": i32"),
                (": i32", ": f32"),
                ("xf16", "xf32"),
                ("!tt.ptr<f16>", "f16"),
                ("!tt.ptr<f32>", "f32"),
                ("x!tt.ptr<", "x!tt.ptr<!tt.ptr<"),
                ("-> tensor<", "-> !tt.ptr<"),
                ("i1>", "i8>"),
                ("!ttg.memdesc<", "tensor<"),
            ],
            rng,
        ),
        Kind::ChangeShape => replace_value(
            src,
            "tensor<",
            &["3", "0", "1", "7", "2048", "65536", "-1", "?"],
            rng,
        ),
        Kind::SwapLayout => replace_one(
            src,
            &[
                ("#blocked>", "#shared>"),
                ("#blocked1>", "#blocked>"),
                ("#mma>", "#blocked>"),
                ("#shared, #smem", "#blocked, #smem"),
                ("#smem", "#shared"),
                ("#ttg.slice<{dim = 0", "#ttg.slice<{dim = 5"),
                ("opIdx = 0", "opIdx = 2"),
            ],
            rng,
        ),
        Kind::BadAxis => replace_value(src, "axis = ", &["7", "-1", "100", "2"], rng),
        Kind::BadNumWarps => replace_value(
            src,
            "\"ttg.num-warps\" = ",
            &["3", "0", "-4", "64", "1024"],
            rng,
        )
        .or_else(|| replace_value(src, "warpsPerCTA = ", &["[3]", "[2, 2]", "[]"], rng)),
        Kind::BadOrder => replace_value(src, "order = ", &["[0, 0]", "[1]", "[2, 0]", "[]"], rng),
        Kind::BadSizePerThread => replace_value(
            src,
            "sizePerThread = ",
            &["[3]", "[0, 1]", "[1, 1, 1]"],
            rng,
        ),
        Kind::RandomBytes => {
            let n = 1 + rng.below(16);
            let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            let at = rng.below(src.len());
            Some(splice(src, (at, (at + n).min(src.len())), &bytes))
        }
        Kind::TensorMemory => replace_one(
            src,
            &[
                ("#ttng.tensor_memory>", "#ttg.shared_memory>"),
                ("#ttng.tensor_memory,", "#ttg.shared_memory,"),
                ("#smem, mutable>", "#ttng.tensor_memory, mutable>"),
                ("#ttng.tensor_memory, mutable>", "#ttng.tensor_memory>"),
                ("blockM = 128", "blockM = 32"),
                ("blockM = 128", "blockM = 64"),
                ("blockN = 128", "blockN = 96"),
                ("colStride = 1", "colStride = 2"),
                ("colStride = 1", "colStride = 3"),
                ("CTASplitN = 2", "CTASplitN = 3"),
                ("twoCTAs = true", "twoCTAs = false"),
                ("<1xi64", "<2xi64"),
                ("<1xi64", "<1xi32"),
                ("{is_async}", ""),
                (" {two_ctas}", ""),
                ("lhs = e4m3", "lhs = e2m1"),
                ("#tmem_scales,", "#tmem,"),
                ("#tmem,", "#tmem_scales,"),
                ("128x128xf32, #tmem", "128x64xf32, #tmem"),
                ("[%", "[]%"),
                ("[]", ""),
                ("{N = 64 : i32}", "{N = -1 : i32}"),
                ("pendings = 0", "pendings = -1"),
            ],
            rng,
        ),
        Kind::InvalidUtf8 => {
            let seqs: [&[u8]; 5] = [b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf"];
            let at = if rng.below(2) == 0 {
                a.0
            } else {
                rng.below(src.len())
            };
            let seq: &[u8] = seqs[rng.below(seqs.len())];
            Some(splice(src, (at, at), seq))
        }
    }
}

/// True when `stderr` has a line `FILE:LINE:COL: error: ...`, or a
/// located warning (a pass that, as Triton's, stops with a warning saying
/// why: `tritongpu-partition-loops` on partitions that feed each other).
fn has_located_error(stderr: &str) -> bool {
    stderr.lines().any(|line| {
        let Some((loc, _)) = line
            .split_once(": error:")
            .or_else(|| line.split_once(": warning:"))
        else {
            return false;
        };
        let mut parts = loc.rsplitn(3, ':');
        let digits = |p: Option<&str>| {
            p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        };
        digits(parts.next()) && digits(parts.next()) && parts.next().is_some_and(|f| !f.is_empty())
    })
}

/// `Ok(accepted)` for a clean run, `Err(why)` for a crash-like one.
fn verdict(out: &Outcome) -> Result<bool, String> {
    let Some(status) = out.status else {
        return Err(format!("hang: still running after {TIMEOUT:?}"));
    };
    if out.stderr.contains("panicked at") {
        return Err(format!("Rust panic ({status})"));
    }
    if out.success() {
        return if out.stdout.trim().is_empty() {
            Err("exit 0 but nothing printed".to_string())
        } else {
            Ok(true)
        };
    }
    match status.code() {
        None => Err(format!("killed by signal {}", status.signal().unwrap_or(0))),
        Some(1) if has_located_error(&out.stderr) => Ok(false),
        Some(1) => Err("exit 1 without a located `FILE:LINE:COL:` diagnostic".to_string()),
        Some(code) => Err(format!("exit code {code}")),
    }
}

/// One mutant and what it came from.
struct Mutant {
    kind: Kind,
    origin: String,
    bytes: Vec<u8>,
    /// The pass flags it runs with.
    flags: &'static [&'static str],
}

/// Runs every mutant through `tt-opt` with its flags (in parallel, each
/// from a file under the scratch folder `scratch_name`) and judges it.
fn run_mutants(mutants: &[Mutant], scratch_name: &str) -> Vec<(Result<bool, String>, String)> {
    let scratch = scratch_dir(scratch_name);
    parallel_map(mutants, |i, m| {
        let path = scratch.join(format!("mutant{i}.mlir"));
        std::fs::write(&path, &m.bytes).expect("write mutant");
        let out = run_tt_opt(m.flags, &path, TIMEOUT);
        std::fs::remove_file(&path).ok();
        (verdict(&out), out.stderr)
    })
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, not {v:?}"))
    })
}

#[test]
fn mutants_are_rejected_cleanly() {
    let Some(dir) = corpus::corpus_dir_or_skip() else {
        return;
    };
    // Sources: every .ttir/.ttgir file, and per kernel the frontend's raw
    // output, the pipeliner's first internal dump (no locations) and the
    // first nested-function section.
    let texts = corpus::all_texts(&dir);
    let mut sources = Vec::new();
    let (mut files, mut modules, mut funcs) = (0, 0, 0);
    let mut taken = BTreeSet::new();
    for t in &texts {
        let from_log = t.origin.starts_with("passes.log");
        let label = if !from_log {
            t.origin.as_str()
        } else if t.nested_func {
            "nested function"
        } else if t.origin.contains("Before Inliner") {
            "frontend"
        } else if t.origin.contains("LowerLoops") {
            "pipeliner"
        } else {
            continue;
        };
        if !taken.insert((t.kernel.as_str(), label)) {
            continue;
        }
        match (from_log, t.nested_func) {
            (false, _) => files += 1,
            (true, true) => funcs += 1,
            (true, false) => modules += 1,
        }
        sources.push(t);
    }

    let count = env_number("TT_FUZZ_MUTANTS", DEFAULT_MUTANTS as u64) as usize;
    let seed = env_number("TT_FUZZ_SEED", DEFAULT_SEED);
    let mut rng = XorShift::new(seed);
    let mut mutants = Vec::with_capacity(count);
    while mutants.len() < count {
        let kind = *rng.pick(&KINDS);
        let source = *rng.pick(&sources);
        if let Some(bytes) = mutate(kind, &source.source, &mut rng) {
            // TTIR: the frontend's output and the .ttir files.
            let ttir = source.origin.ends_with(".ttir") || source.origin.contains("Before Inliner");
            mutants.push(Mutant {
                kind,
                origin: format!("{}/{}", source.kernel, source.origin),
                bytes,
                flags: if ttir { &["--make-ttir"] } else { &[] },
            });
        }
    }

    let results = run_mutants(&mutants, "fuzz");

    report(
        &format!(
            "{count} mutants (seed {seed:#x}) of {} sources: {files} files, {modules} module sections, {funcs} function sections",
            sources.len()
        ),
        &mutants,
        &results,
        "fuzz-failures",
    );
}

#[test]
fn ttng_mutants_are_rejected_cleanly() {
    let (count, accepted) = fuzz_lit_file(
        "test/lit/ttng/ops.mlir",
        &TTNG_KINDS,
        &TTNG_FLAGS,
        ("TT_FUZZ_TTNG_MUTANTS", 600),
        "fuzz-ttng",
    );
    // Most mutants must break something, or the rules are not reached.
    assert!(
        accepted < count / 2,
        "{accepted} of {count} ttng mutants were accepted"
    );
}

/// The pass lists the `nvg` mutants run through: parse, verify and print,
/// and the lowering of the `nvg` ops (the file's `"use"` ops are
/// unregistered).
const NVG_FLAGS: [&[&str]; 2] = [
    &["--allow-unregistered-dialect"],
    &["--allow-unregistered-dialect", "--convert-nv-gpu-to-llvm"],
];

#[test]
fn nvg_mutants_are_rejected_cleanly() {
    fuzz_lit_file(
        "test/lit/conversion/nvgpu-to-llvm.mlir",
        &KINDS,
        &NVG_FLAGS,
        ("TT_FUZZ_NVG_MUTANTS", 300),
        "fuzz-nvg",
    );
}

/// The pass lists the Hopper TMA and mbarrier mutants run through: the
/// TMA lowering, then the allocation, the proxy fences and the membar
/// analysis; and the lowering to LLVM of the TMA, mbarrier and global
/// scratch ops.
const TMA_FLAGS: [&[&str]; 4] = [
    &["--triton-nvidia-tma-lowering"],
    &[
        "--triton-nvidia-tma-lowering",
        "--allocate-shared-memory-nv",
        "--triton-nvidia-gpu-proxy-fence-insertion",
        "-test-print-membar",
    ],
    &[
        "--allocate-shared-memory-nv",
        "--convert-triton-gpu-to-llvm",
    ],
    &[
        "--tritongpu-global-scratch-memory-allocation",
        "--allocate-shared-memory-nv",
        "--convert-triton-gpu-to-llvm",
    ],
];

#[test]
fn tma_mutants_are_rejected_cleanly() {
    for (file, scratch) in [
        ("test/lit/ttng/tma-lowering.mlir", "fuzz-tma-lowering"),
        ("test/lit/conversion/tma-barriers.mlir", "fuzz-tma-barriers"),
        (
            "test/lit/conversion/global-scratch.mlir",
            "fuzz-global-scratch",
        ),
    ] {
        fuzz_lit_file(
            file,
            &TTNG_KINDS,
            &TMA_FLAGS,
            ("TT_FUZZ_TMA_MUTANTS", 150),
            scratch,
        );
    }
}

/// The lit files of the passes added for Triton's own lit files (TMA
/// loads and stores in the pipeliner, the register-A wgmma split, the
/// accumulator-init, descriptor-encoding, warp-group and tensor-memory
/// passes, the AMD epilogue, the core lowering with constant arrays,
/// buffer reinterpretation and libdevice calls, the tensor-memory
/// relayout, promotion and MMA lowering, partition warps, the tti
/// lowering, TMA gather/scatter, warp_specialize's lowering and allocation,
/// partition loops and the nvws dialect, tcgen05 latencies, scheduling,
/// loop lowering and pipelining, MMA v5 in accelerate-matmul and
/// dot-operands, the concurrency sanitizer, and the Hopper lowering:
/// wgmma, NVMMA and core-matrix buffers, sub-slices inside swizzle
/// patterns), each with its pass list.
const PASS_FILES: [(&str, &[&str], &str); 32] = [
    (
        "test/lit/ttg/tritongpu-pipeline-tma.mlir",
        &[
            "-tritongpu-assign-latencies",
            "-tritongpu-schedule-loops",
            "-tritongpu-pipeline",
            "-canonicalize",
        ],
        "fuzz-pipeline-tma",
    ),
    (
        "test/lit/ttg/tritongpu-pipeline-tma-stores.mlir",
        &["-tritongpu-pipeline"],
        "fuzz-pipeline-tma-stores",
    ),
    (
        "test/lit/ttg/tritongpu-pipeline-rs-split.mlir",
        &[
            "-tritongpu-assign-latencies",
            "-tritongpu-schedule-loops",
            "-tritongpu-pipeline",
        ],
        "fuzz-pipeline-rs-split",
    ),
    (
        "test/lit/ttg/optimize-accumulator-init.mlir",
        &["-tritongpu-optimize-accumulator-init"],
        "fuzz-accumulator-init",
    ),
    (
        "test/lit/ttng/optimize-descriptor-encoding.mlir",
        &["--triton-nvidia-optimize-descriptor-encoding"],
        "fuzz-descriptor-encoding",
    ),
    (
        "test/lit/ttng/tensor-memory-allocation.mlir",
        &["-triton-tensor-memory-allocation"],
        "fuzz-tensor-memory",
    ),
    (
        "test/lit/conversion/allocate-warp-groups.mlir",
        &["--tritongpu-allocate-warp-groups"],
        "fuzz-warp-groups",
    ),
    (
        "test/lit/ttg/tritonamdgpu-optimize-epilogue.mlir",
        &["--tritonamdgpu-optimize-epilogue"],
        "fuzz-amd-epilogue",
    ),
    (
        "test/lit/conversion/tritongpu-to-llvm.mlir",
        &[
            "--allocate-shared-memory-nv",
            "--convert-triton-gpu-to-llvm",
        ],
        "fuzz-core-lowering",
    ),
    (
        "test/lit/ttg/tritongpu-accelerate-matmul.mlir",
        &["--tritongpu-accelerate-matmul"],
        "fuzz-accelerate-matmul",
    ),
    (
        "test/lit/ttg/remove-layout-conversions.mlir",
        &["--tritongpu-remove-layout-conversions"],
        "fuzz-remove-layout",
    ),
    (
        "test/lit/conversion/reduce.mlir",
        &[
            "--allocate-shared-memory-nv",
            "--convert-triton-gpu-to-llvm",
        ],
        "fuzz-reduce-lowering",
    ),
    (
        "test/lit/conversion/tritongpu-to-llvm-hopper.mlir",
        &["--convert-triton-gpu-to-llvm=compute-capability=90"],
        "fuzz-hopper-lowering",
    ),
    (
        "test/lit/ttg/relayout-tritongpu.mlir",
        &["--relayout-tritongpu"],
        "fuzz-relayout",
    ),
    (
        "test/lit/ttng/promote-lhs-to-tmem.mlir",
        &["-tritongpu-promote-lhs-to-tmem"],
        "fuzz-promote-lhs",
    ),
    (
        "test/lit/ttng/mma-lowering.mlir",
        &["--triton-nvidia-mma-lowering"],
        "fuzz-mma-lowering",
    ),
    (
        "test/lit/conversion/tritoninstrument-to-llvm.mlir",
        &["--allocate-shared-memory", "--convert-triton-gpu-to-llvm"],
        "fuzz-instrument-lowering",
    ),
    (
        "test/lit/ttg/optimize-partition-warps.mlir",
        &["-tritongpu-optimize-partition-warps"],
        "fuzz-partition-warps",
    ),
    (
        "test/lit/conversion/tma-gather-to-llvm.mlir",
        &["--convert-triton-gpu-to-llvm", "--convert-nv-gpu-to-llvm"],
        "fuzz-tma-gather",
    ),
    (
        "test/lit/conversion/warp-specialize-to-llvm.mlir",
        &[
            "--allocate-shared-memory-nv",
            "--convert-triton-gpu-to-llvm",
        ],
        "fuzz-warp-specialize-lowering",
    ),
    (
        "test/lit/conversion/warp-specialize-to-llvm.mlir",
        &[
            "--tritongpu-allocate-warp-groups",
            "--allocate-shared-memory-nv",
            "--convert-triton-gpu-to-llvm",
            "--convert-warp-specialize-to-llvm",
        ],
        "fuzz-warp-specialize-dispatch",
    ),
    (
        "test/lit/conversion/convert-warp-specialize-to-llvm.mlir",
        &[
            "-allow-unregistered-dialect",
            "--convert-warp-specialize-to-llvm",
        ],
        "fuzz-warp-specialize-switch-loop",
    ),
    (
        "test/lit/ttg/nvgpu-warp-specialization.mlir",
        &["--nvgpu-warp-specialization=num-stages=3"],
        "fuzz-nvgpu-warp-specialization",
    ),
    (
        "test/lit/ttg/tritongpu-partition-loops.mlir",
        &["-allow-unregistered-dialect", "-tritongpu-partition-loops"],
        "fuzz-partition-loops",
    ),
    (
        "test/lit/nvws/ops.mlir",
        &["-allow-unregistered-dialect"],
        "fuzz-nvws",
    ),
    (
        "test/lit/ttg/tritongpu-assign-latencies-mmav5.mlir",
        &[
            "--allow-unregistered-dialect",
            "--tritongpu-assign-latencies=num-stages=3",
            "--tritongpu-schedule-loops",
        ],
        "fuzz-latencies-mmav5",
    ),
    (
        "test/lit/ttg/tritongpu-schedule-loops-mmav5.mlir",
        &["--allow-unregistered-dialect", "--tritongpu-schedule-loops"],
        "fuzz-schedule-mmav5",
    ),
    (
        "test/lit/ttg/tritongpu-test-pipeline-lower-loop.mlir",
        &[
            "-allow-unregistered-dialect",
            "-tritongpu-test-pipeline-lower-loop",
        ],
        "fuzz-lower-loop",
    ),
    (
        "test/lit/ttg/tritongpu-pipeline-mmav5.mlir",
        &["-tritongpu-pipeline"],
        "fuzz-pipeline-mmav5",
    ),
    (
        "test/lit/ttg/accelerate-matmul-mmav5.mlir",
        &["--tritongpu-accelerate-matmul"],
        "fuzz-accelerate-mmav5",
    ),
    (
        "test/lit/ttg/optimize-dot-operands-blackwell.mlir",
        &["-tritongpu-optimize-dot-operands"],
        "fuzz-dot-operands-blackwell",
    ),
    (
        "test/lit/ttg/concurrency-sanitizer.mlir",
        &["--tritoninstrument-concurrency-sanitizer"],
        "fuzz-consan",
    ),
];

#[test]
fn new_pass_mutants_are_rejected_cleanly() {
    for (file, flags, scratch) in PASS_FILES {
        fuzz_lit_file(
            file,
            &TTNG_KINDS,
            &[flags],
            ("TT_FUZZ_PASS_MUTANTS", 100),
            scratch,
        );
    }
}

/// Mutants of the `// -----` sections of a lit file of this repository
/// (without its comment lines), each run with one of `flag_sets`; fails on
/// a crash, hang or unlocated error. `count` is `(env var, default)`.
/// Returns how many mutants ran and how many were accepted.
fn fuzz_lit_file(
    file: &str,
    kinds: &[Kind],
    flag_sets: &[&'static [&'static str]],
    count: (&str, u64),
    scratch_name: &str,
) -> (usize, usize) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let sources: Vec<String> = text
        .split("\n// -----\n")
        .map(|section| {
            section
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    let count = env_number(count.0, count.1) as usize;
    let seed = env_number("TT_FUZZ_SEED", DEFAULT_SEED);
    let mut rng = XorShift::new(seed);
    let mut mutants = Vec::with_capacity(count);
    while mutants.len() < count {
        let kind = *rng.pick(kinds);
        let section = rng.below(sources.len());
        let flags = *rng.pick(flag_sets);
        if let Some(bytes) = mutate(kind, &sources[section], &mut rng) {
            mutants.push(Mutant {
                kind,
                origin: format!("{file} section {section}"),
                bytes,
                flags,
            });
        }
    }
    let results = run_mutants(&mutants, scratch_name);
    let accepted = results.iter().filter(|(v, _)| *v == Ok(true)).count();
    report(
        &format!(
            "{count} mutants (seed {seed:#x}) of the {} sections of {file}",
            sources.len()
        ),
        &mutants,
        &results,
        &format!("{scratch_name}-failures"),
    );
    (count, accepted)
}

/// Prints the outcome per kind and the first offending mutants (kept in
/// `failures` under the target dir), and fails when any mutant crashed,
/// hung or failed without a located diagnostic.
fn report(
    header: &str,
    mutants: &[Mutant],
    results: &[(Result<bool, String>, String)],
    failures: &str,
) {
    let count = mutants.len();
    println!("\n{header}");
    let mut by_kind: BTreeMap<Kind, [usize; 3]> = BTreeMap::new();
    for (m, (v, _)) in mutants.iter().zip(results) {
        let row = by_kind.entry(m.kind).or_default();
        row[match v {
            Ok(true) => 0,
            Ok(false) => 1,
            Err(_) => 2,
        }] += 1;
    }
    println!(
        "{:<18} {:>8} {:>8} {:>8}",
        "kind", "accepted", "rejected", "FAILED"
    );
    let mut totals = [0; 3];
    for (kind, row) in &by_kind {
        println!(
            "{:<18} {:>8} {:>8} {:>8}",
            format!("{kind:?}"),
            row[0],
            row[1],
            row[2]
        );
        (0..3).for_each(|i| totals[i] += row[i]);
    }
    println!(
        "{:<18} {:>8} {:>8} {:>8}",
        "total", totals[0], totals[1], totals[2]
    );

    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for (v, _) in results {
        if let Err(why) = v {
            *reasons.entry(why.as_str()).or_default() += 1;
        }
    }
    for (why, n) in &reasons {
        println!("  {n:>6} x {why}");
    }

    let failures_dir = scratch_dir(failures);
    let mut shown = 0;
    for (i, (m, (v, stderr))) in mutants.iter().zip(results).enumerate() {
        let Err(why) = v else { continue };
        let kept = failures_dir.join(format!("mutant{i}-{:?}.mlir", m.kind));
        std::fs::write(&kept, &m.bytes).expect("keep mutant");
        if shown < SHOWN_FAILURES {
            shown += 1;
            let tail: Vec<&str> = stderr.lines().take(12).collect();
            println!(
                "\nFAIL {why}: {:?} mutant of {} (flags {:?})\n  kept at {}\n  stderr:\n    {}",
                m.kind,
                m.origin,
                m.flags,
                kept.display(),
                tail.join("\n    ")
            );
        }
    }
    assert_eq!(
        totals[2],
        0,
        "{} of {count} mutants crashed, hung or failed without a located diagnostic (kept in {})",
        totals[2],
        failures_dir.display()
    );
}

#[test]
fn xorshift_is_deterministic_and_spread() {
    let mut a = XorShift::new(42);
    let mut b = XorShift::new(42);
    let xs: Vec<u64> = (0..100).map(|_| a.next()).collect();
    assert!(xs.iter().all(|&x| x == b.next()));
    let mut hits = [0; 10];
    (0..10_000).for_each(|_| hits[a.below(10)] += 1);
    assert!(hits.iter().all(|&h| (800..1200).contains(&h)), "{hits:?}");
}

#[test]
fn every_kind_changes_a_typical_text() {
    let src = "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n\
module attributes {\"ttg.num-warps\" = 4 : i32} {\n\
  %0 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #blocked>\n\
  %1 = \"tt.reduce\"(%0) <{axis = 0 : i32}> : (tensor<4xf32>) -> f32\n\
  %2 = tt.load %p : !tt.ptr<f16>\n\
}\n";
    let mut rng = XorShift::new(7);
    for kind in KINDS {
        let m = mutate(kind, src, &mut rng).unwrap_or_else(|| panic!("{kind:?} applies"));
        assert_ne!(m, src.as_bytes(), "{kind:?} changed nothing");
    }
    let mut rng = XorShift::new(7);
    let m = mutate(Kind::BadOrder, src, &mut rng).unwrap();
    assert!(!String::from_utf8(m).unwrap().contains("order = [0]"));
    assert!(
        mutate(Kind::InvalidUtf8, src, &mut rng).is_some_and(|m| std::str::from_utf8(&m).is_err())
    );
    assert_eq!(mutate(Kind::BadAxis, "%0 = f : i32\n", &mut rng), None);
}

#[test]
fn located_errors_are_recognized() {
    assert!(has_located_error(
        "m.mlir:3:14: error: expected ')'\n  %0 = \n"
    ));
    assert!(has_located_error(
        "note: x\nkernels.py:12:3: error: 'tt.reduce' op bad axis\n"
    ));
    assert!(!has_located_error(
        "loc(\"m.mlir\":3:14): error: expected ')'\n"
    ));
    assert!(!has_located_error("error: something went wrong\n"));
    assert!(!has_located_error("m.mlir:3: error: no column\n"));
    assert!(has_located_error(
        "m.mlir:6:12: warning: non-root partition #1 has direct SSA consumer\n"
    ));
    assert!(!has_located_error("warning: unlocated\n"));
}

#[test]
fn tensor_memory_kind_changes_a_ttng_text() {
    let src = "#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>\n\
  %0 = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>\n";
    let mut rng = XorShift::new(7);
    for _ in 0..20 {
        let m = mutate(Kind::TensorMemory, src, &mut rng).expect("TensorMemory applies");
        assert_ne!(m, src.as_bytes());
    }
    assert_eq!(mutate(Kind::TensorMemory, "%0 = f : i32\n", &mut rng), None);
}
