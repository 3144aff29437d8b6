//! `ttc`: compiles a Triton kernel (TTIR or TTGIR) to PTX, or to any
//! earlier stage, and writes its metadata. See `ttc --help`.
//!
//! Exit status: 0 on success, 1 when the compilation fails, 2 on a usage
//! error; a panic is reported as an internal error (status 1), never an
//! abort.

use std::io::{Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tt_compiler::{Cache, Compiler, Input, Options, Stage};

const HELP: &str = "\
Usage: ttc INPUT [options]

Compiles a Triton kernel, TTIR or TTGIR (a module with ttg.num-warps), as
Triton 3.6 does for an NVIDIA GPU. INPUT is a file, or - for stdin.

Options:
  --arch sm_NN          target GPU (default sm_90)
  --num-warps N         warps per CTA, a power of two (default 4)
  --num-stages N        software pipelining stages (default 3)
  --num-ctas N          CTAs per cluster (default 1)
  --emit STAGE          ttir, ttgir, llir or ptx (default ptx)
  --no-line-info        no line tables (.file/.loc) in the PTX, as Triton's
                        TRITON_DISABLE_LINE_INFO
  -o FILE               output file (default stdout)
  --metadata FILE       kernel metadata JSON (ptx only; default: the -o file
                        with the extension .json)
  --no-cache            neither read nor write the compilation cache
                        ($TT_CACHE_DIR, else ~/.cache/tt-compiler)
  --time                print the wall time of each step to stderr, then
                        `stages` (the steps Triton's own stage timings
                        cover: parsed module to PTX text) and `total`
  --repeat N            compile N times in this process with one compiler,
                        without the cache; --time then prints each step's
                        median (the first compilation sets the compiler up:
                        its context, dialects and pipelines, which later
                        ones reuse, as a frontend compiling many kernels)
  -h, --help            this help
  --version             the version

Environment, as Triton reads it: MLIR_ENABLE_DUMP=1 (or =KERNEL, a function
of the input) prints the module before every pass to stderr, or appended to
MLIR_DUMP_PATH; MLIR_ENABLE_TIMING=1 prints each stage's pass timings;
TRITON_REPRODUCER_PATH=F writes each stage's input to F as an MLIR
reproducer (where a stage fails, its failing pass's input and that pass),
which `tt-opt F --run-reproducer` runs; LLVM_IR_ENABLE_DUMP=1 prints the
LLVM IR after every LLVM pass.

Exit status: 0 on success, 1 when compilation fails, 2 on a usage error.
";

/// A parsed command line.
struct Args {
    input: String,
    options: Options,
    emit: Stage,
    output: Option<PathBuf>,
    metadata: Option<PathBuf>,
    time: bool,
    repeat: u32,
}

enum Command {
    Help,
    Version,
    Compile(Box<Args>),
}

fn main() -> ExitCode {
    let panic_message = Arc::new(Mutex::new(String::new()));
    let hook_message = panic_message.clone();
    panic::set_hook(Box::new(move |info| {
        if let Ok(mut message) = hook_message.lock() {
            *message = info.to_string();
        }
    }));
    let args: Vec<String> = std::env::args().skip(1).collect();
    match panic::catch_unwind(AssertUnwindSafe(|| run(&args))) {
        Ok(code) => code,
        Err(_) => {
            let message = panic_message.lock().map(|m| m.clone()).unwrap_or_default();
            eprintln!("ttc: internal error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> ExitCode {
    match parse(args) {
        Ok(Command::Help) => {
            print!("{HELP}");
            ExitCode::SUCCESS
        }
        Ok(Command::Version) => {
            println!("ttc {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Ok(Command::Compile(args)) => match compile(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("ttc: error: {}", message.trim_end());
                ExitCode::FAILURE
            }
        },
        Err(message) => {
            eprintln!("ttc: error: {message}");
            eprintln!("Run 'ttc --help' for the options.");
            ExitCode::from(2)
        }
    }
}

fn parse(args: &[String]) -> Result<Command, String> {
    let mut input = None;
    let mut options = Options::default();
    let mut emit = Stage::Ptx;
    let mut output = None;
    let mut metadata = None;
    let mut time = false;
    let mut repeat = 1;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_owned())),
            _ => (arg.as_str(), None),
        };
        let mut value = || -> Result<String, String> {
            match &inline {
                Some(value) => Ok(value.clone()),
                None => iter
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("{flag} needs a value")),
            }
        };
        match flag {
            "-h" | "--help" => return Ok(Command::Help),
            "--version" => return Ok(Command::Version),
            "--arch" => options.capability = arch(&value()?)?,
            "--num-warps" => options.num_warps = count(flag, &value()?)?,
            "--num-stages" => options.num_stages = count(flag, &value()?)?,
            "--num-ctas" => options.num_ctas = count(flag, &value()?)?,
            "--emit" => {
                let name = value()?;
                emit = Stage::from_name(&name).ok_or_else(|| {
                    format!("--emit: unknown stage '{name}' (ttir, ttgir, llir or ptx)")
                })?;
            }
            "-o" => output = Some(PathBuf::from(value()?)),
            "--metadata" => metadata = Some(PathBuf::from(value()?)),
            "--no-cache" => options.cache = Cache::Off,
            "--no-line-info" => options.line_info = false,
            "--time" => time = true,
            "--repeat" => repeat = count(flag, &value()?)?,
            _ if inline.is_some() || (flag.starts_with('-') && flag != "-") => {
                return Err(format!("unknown option '{flag}'"));
            }
            _ => {
                if input.replace(arg.clone()).is_some() {
                    return Err("more than one input file".into());
                }
            }
        }
        if inline.is_some()
            && matches!(
                flag,
                "--no-cache" | "--no-line-info" | "--time" | "--help" | "--version"
            )
        {
            return Err(format!("{flag} takes no value"));
        }
    }
    let input = input.ok_or("no input file")?;
    if metadata.is_some() && emit != Stage::Ptx {
        return Err("--metadata needs --emit ptx".into());
    }
    if metadata.is_none() && emit == Stage::Ptx {
        metadata = output.as_ref().map(|o| o.with_extension("json"));
    }
    Ok(Command::Compile(Box::new(Args {
        input,
        options,
        emit,
        output,
        metadata,
        time,
        repeat,
    })))
}

/// `sm_90` or `sm_90a` → 90.
fn arch(text: &str) -> Result<u32, String> {
    text.strip_prefix("sm_")
        .map(|c| c.strip_suffix('a').unwrap_or(c))
        .and_then(|c| c.parse::<u32>().ok())
        .filter(|&c| c > 0)
        .ok_or_else(|| format!("--arch: invalid architecture '{text}' (e.g. sm_90)"))
}

fn count(flag: &str, text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{flag}: expected a positive integer, got '{text}'"))
}

fn compile(args: &Args) -> Result<(), String> {
    let (text, name) = if args.input == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read stdin: {e}"))?;
        (text, "<stdin>".to_owned())
    } else {
        let text = std::fs::read_to_string(&args.input)
            .map_err(|e| format!("cannot read {}: {e}", args.input))?;
        (text, args.input.clone())
    };
    let mut options = args.options.clone();
    if args.repeat > 1 {
        options.cache = Cache::Off;
    }
    let options = options.with_triton_debug_env(&text);
    // One compiler for every repetition, as a frontend compiling many
    // kernels keeps one: the first compilation sets it up.
    let compiler = Compiler::new();
    let mut runs = Vec::new();
    let mut output = None;
    for _ in 0..args.repeat {
        let start = Instant::now();
        let this = compiler
            .compile_to(
                Input::Text {
                    text: &text,
                    name: &name,
                },
                &options,
                args.emit,
            )
            .map_err(|e| e.to_string())?;
        let mut timings = this.timings.clone();
        let stages = timings
            .iter()
            .filter(|(step, _)| STAGE_STEPS.contains(&step.as_str()))
            .map(|(_, d)| *d)
            .sum();
        timings.push(("stages".to_owned(), stages));
        timings.push(("total".to_owned(), start.elapsed()));
        runs.push(timings);
        output = Some(this);
    }
    let output = output.ok_or("internal error: no compilation ran")?;
    if args.time {
        if output.cached {
            eprintln!("ttc: time: cache hit");
        }
        for (step, duration) in median_timings(&runs) {
            eprintln!(
                "ttc: time: {step:<12} {:>10.3} ms",
                duration.as_secs_f64() * 1e3
            );
        }
    }
    let missing = || format!("internal error: no {} output", args.emit.name());
    let result = match args.emit {
        Stage::Ttir => output.ttir.clone().ok_or_else(missing)?,
        Stage::Ttgir => output.ttgir.clone(),
        Stage::Llir => output.llir.clone().ok_or_else(missing)?,
        Stage::Ptx => output.ptx.clone().ok_or_else(missing)?,
    };
    write(args.output.as_deref(), &result)?;
    if let Some(path) = &args.metadata {
        let metadata = output.metadata.as_ref().ok_or_else(missing)?;
        write(Some(path), &metadata.to_json())?;
    }
    Ok(())
}

/// The steps that Triton's own stage timings cover (its `make_ttir` to
/// `make_ptx`, the LLVM IR text included, as its `make_llir` returns it):
/// from the parsed module to the PTX text, without creating the context,
/// parsing, printing the MLIR stages or tearing down.
const STAGE_STEPS: &[&str] = &[
    "make-ttir",
    "make-ttgir",
    "make-llir",
    "translate",
    "llvm-opt",
    "llir-text",
    "ptx",
];

/// Each step's median over `runs` (the steps of the first run, in order).
fn median_timings(runs: &[Vec<(String, Duration)>]) -> Vec<(String, Duration)> {
    let Some(first) = runs.first() else {
        return Vec::new();
    };
    first
        .iter()
        .map(|(step, _)| {
            let mut times: Vec<Duration> = runs
                .iter()
                .filter_map(|run| run.iter().find(|(s, _)| s == step).map(|(_, d)| *d))
                .collect();
            times.sort();
            (step.clone(), times[(times.len() - 1) / 2])
        })
        .collect()
}

fn write(path: Option<&Path>, text: &str) -> Result<(), String> {
    match path {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| format!("cannot write to stdout: {e}")),
    }
}
