//! Command-line parsing: `mlir-opt` style flags (one or two leading
//! dashes, `--flag=value`), one flag per registered pass, and `--help`.

use tt_passes::{registry, suggest};

/// What the passes to run come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Passes {
    /// Pass flags, in command-line order: `(name, options)`.
    Flags(Vec<(String, String)>),
    /// `--pass-pipeline=...`.
    Pipeline(String),
}

/// `--verify-diagnostics[=all|only-expected]`, as mlir-opt: off, every
/// diagnostic expected and every expectation met, or only the latter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerifyDiagnostics {
    Off,
    All,
    OnlyExpected,
}

/// Everything a run needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// `None` or `-` reads stdin.
    pub input: Option<String>,
    /// `None` writes stdout.
    pub output: Option<String>,
    pub split_input_file: bool,
    pub verify_diagnostics: VerifyDiagnostics,
    pub passes: Passes,
    pub print_ir_before_all: bool,
    pub print_ir_after_all: bool,
    pub print_debuginfo: bool,
    pub pretty_debuginfo: bool,
    pub print_op_generic: bool,
    pub print_local_scope: bool,
    pub use_nameloc_as_prefix: bool,
    pub timing: bool,
    pub allow_unregistered_dialect: bool,
    /// `--dump-pass-pipeline`: print the pipeline to stderr before running.
    pub dump_pass_pipeline: bool,
    /// `--run-reproducer`: run the pipeline of the input's `mlir_reproducer`.
    pub run_reproducer: bool,
    /// `--debug` (`Some("")`) or `--debug-only=NAMES`.
    pub debug: Option<String>,
}

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    Run(Box<Config>),
    Help,
    Version,
}

/// Boolean flags: name and help.
const SWITCHES: &[(&str, &str)] = &[
    (
        "allow-unregistered-dialect",
        "Allow operations of unregistered dialects",
    ),
    (
        "debug",
        "Accepted for triton-opt command lines; this build prints no debug output",
    ),
    (
        "dump-pass-pipeline",
        "Print the pass pipeline to stderr before running it",
    ),
    ("help", "Print this help and exit"),
    (
        "mlir-pretty-debuginfo",
        "Print locations in pretty form (with --mlir-print-debuginfo)",
    ),
    (
        "mlir-print-debuginfo",
        "Print locations (`loc(...)`) in the output",
    ),
    (
        "mlir-print-ir-after-all",
        "Print the IR to stderr after every pass",
    ),
    (
        "mlir-print-ir-before-all",
        "Print the IR to stderr before every pass",
    ),
    (
        "mlir-print-local-scope",
        "Print types and attributes inline rather than as aliases",
    ),
    (
        "mlir-print-op-generic",
        "Print every op in the generic form",
    ),
    ("mlir-timing", "Print pass timings to stderr"),
    (
        "mlir-use-nameloc-as-prefix",
        "Name SSA values after their `loc(\"name\")` locations",
    ),
    (
        "run-reproducer",
        "Run the pipeline recorded in the input's `mlir_reproducer` resource",
    ),
    (
        "split-input-file",
        "Process each chunk between `// -----` lines on its own",
    ),
    (
        "verify-diagnostics",
        "Check diagnostics against `expected-*` comments (=only-expected: unexpected ones allowed)",
    ),
    ("version", "Print the version and exit"),
];

/// Flags with a value: name, value name and help.
const VALUED: &[(&str, &str, &str)] = &[
    (
        "debug-only",
        "NAMES",
        "Accepted for triton-opt command lines; this build prints no debug output",
    ),
    ("o", "FILE", "Write the output to FILE (default: stdout)"),
    (
        "pass-pipeline",
        "PIPELINE",
        "Run a textual pipeline, e.g. 'builtin.module(canonicalize,cse)'",
    ),
];

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut config = Config {
        input: None,
        output: None,
        split_input_file: false,
        verify_diagnostics: VerifyDiagnostics::Off,
        passes: Passes::Flags(Vec::new()),
        print_ir_before_all: false,
        print_ir_after_all: false,
        print_debuginfo: false,
        pretty_debuginfo: false,
        print_op_generic: false,
        print_local_scope: false,
        use_nameloc_as_prefix: false,
        timing: false,
        allow_unregistered_dialect: false,
        dump_pass_pipeline: false,
        run_reproducer: false,
        debug: None,
    };
    let mut flags = Vec::new();
    let mut pipeline = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let Some(flag) = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-')) else {
            if let Some(first) = &config.input {
                return Err(format!("more than one input file: '{first}' and '{arg}'"));
            }
            config.input = Some(arg.clone());
            continue;
        };
        if flag.is_empty() {
            // `-` alone is stdin.
            config.input = Some(arg.clone());
            continue;
        }
        let (name, value) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (flag, None),
        };
        if let Some(&(_, value_name, _)) = VALUED.iter().find(|(n, _, _)| *n == name) {
            let value = match value {
                Some(v) => v,
                None => args
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("'-{name}' needs a value: -{name} {value_name}"))?,
            };
            match name {
                "o" => config.output = Some(value),
                "debug-only" => config.debug = Some(value),
                _ => pipeline = Some(value),
            }
            continue;
        }
        if registry::all().iter().any(|p| p.name == name) {
            flags.push((name.to_owned(), value.unwrap_or_default()));
            continue;
        }
        if name == "verify-diagnostics" {
            config.verify_diagnostics = match value.as_deref() {
                None | Some("all") => VerifyDiagnostics::All,
                Some("only-expected") => VerifyDiagnostics::OnlyExpected,
                Some(v) => {
                    return Err(format!(
                        "'--verify-diagnostics' takes 'all' or 'only-expected', not '{v}'"
                    ))
                }
            };
            continue;
        }
        if SWITCHES.iter().any(|(n, _)| *n == name) {
            if let Some(v) = value {
                return Err(format!("'--{name}' takes no value, but was given '{v}'"));
            }
        }
        match name {
            "help" => return Ok(Command::Help),
            "version" => return Ok(Command::Version),
            "allow-unregistered-dialect" => config.allow_unregistered_dialect = true,
            "debug" => config.debug = Some(String::new()),
            "dump-pass-pipeline" => config.dump_pass_pipeline = true,
            "run-reproducer" => config.run_reproducer = true,
            "mlir-pretty-debuginfo" => config.pretty_debuginfo = true,
            "mlir-print-debuginfo" => config.print_debuginfo = true,
            "mlir-print-ir-after-all" => config.print_ir_after_all = true,
            "mlir-print-ir-before-all" => config.print_ir_before_all = true,
            "mlir-print-local-scope" => config.print_local_scope = true,
            "mlir-print-op-generic" => config.print_op_generic = true,
            "mlir-timing" => config.timing = true,
            "mlir-use-nameloc-as-prefix" => config.use_nameloc_as_prefix = true,
            "split-input-file" => config.split_input_file = true,
            _ => {
                let known = SWITCHES
                    .iter()
                    .map(|(n, _)| *n)
                    .chain(VALUED.iter().map(|(n, _, _)| *n))
                    .chain(registry::all().into_iter().map(|p| p.name));
                let hint = suggest::closest(name, known)
                    .map(|n| format!("; did you mean '--{n}'?"))
                    .unwrap_or_default();
                return Err(format!("unknown command line argument '{arg}'{hint}"));
            }
        }
    }
    config.passes = match (pipeline, flags.is_empty()) {
        (Some(p), true) => Passes::Pipeline(p),
        (Some(_), false) => {
            return Err("'--pass-pipeline' cannot be combined with individual pass flags".into())
        }
        (None, _) => Passes::Flags(flags),
    };
    Ok(Command::Run(Box::new(config)))
}

/// The `--help` text: usage, flags and every registered pass.
pub fn help() -> String {
    let mut out = String::from(
        "OVERVIEW: tt-opt: the Triton MLIR optimizer driver\n\n\
         USAGE: tt-opt [options] [input file, or - for stdin]\n\n\
         Flags take one or two dashes; values are given as --flag=VALUE.\n\
         Exit status: 0 on success, 1 on any failure (bad usage, invalid\n\
         input, a failing pass, unmet --verify-diagnostics expectations).\n\n\
         OPTIONS:\n",
    );
    for (name, value, summary) in VALUED {
        let flag = format!("--{name}={value}");
        out.push_str(&format!("  {flag:<34} {summary}\n"));
    }
    for (name, summary) in SWITCHES {
        out.push_str(&format!("  --{name:<32} {summary}\n"));
    }
    out.push_str("\nPASSES (run in command-line order; options as --pass='key=value ...'):\n");
    for pass in registry::all() {
        out.push_str(&format!("  --{:<32} {}\n", pass.name, pass.summary));
        for option in pass.options {
            out.push_str(&format!("      {:<30} {}\n", option.name, option.summary));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Config, String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        match parse(&args)? {
            Command::Run(config) => Ok(*config),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn pass_flags_keep_order_and_options() {
        let c = run(&[
            "in.mlir",
            "-cse",
            "--canonicalize=max-iterations=3",
            "-o",
            "out",
        ])
        .unwrap();
        assert_eq!(c.input.as_deref(), Some("in.mlir"));
        assert_eq!(c.output.as_deref(), Some("out"));
        assert_eq!(
            c.passes,
            Passes::Flags(vec![
                ("cse".into(), String::new()),
                ("canonicalize".into(), "max-iterations=3".into())
            ])
        );
    }

    #[test]
    fn switches_and_pipeline() {
        let c = run(&[
            "-split-input-file",
            "--verify-diagnostics",
            "--pass-pipeline=builtin.module(cse)",
            "-",
            "--mlir-print-debuginfo",
        ])
        .unwrap();
        assert!(c.split_input_file && c.print_debuginfo);
        assert_eq!(c.verify_diagnostics, VerifyDiagnostics::All);
        assert_eq!(c.input.as_deref(), Some("-"));
        assert_eq!(c.passes, Passes::Pipeline("builtin.module(cse)".into()));
        let only = run(&["--verify-diagnostics=only-expected", "-"]).unwrap();
        assert_eq!(only.verify_diagnostics, VerifyDiagnostics::OnlyExpected);
        assert!(run(&["--verify-diagnostics=some", "-"]).is_err());
    }

    #[test]
    fn usage_errors() {
        assert_eq!(
            run(&["--split-input-fil"]).unwrap_err(),
            "unknown command line argument '--split-input-fil'; did you mean '--split-input-file'?"
        );
        assert_eq!(
            run(&["--canonicalise"]).unwrap_err(),
            "unknown command line argument '--canonicalise'; did you mean '--canonicalize'?"
        );
        assert_eq!(
            run(&["a", "b"]).unwrap_err(),
            "more than one input file: 'a' and 'b'"
        );
        assert_eq!(run(&["-o"]).unwrap_err(), "'-o' needs a value: -o FILE");
        assert_eq!(
            run(&["--cse", "--pass-pipeline=builtin.module()"]).unwrap_err(),
            "'--pass-pipeline' cannot be combined with individual pass flags"
        );
        assert_eq!(
            run(&["--mlir-timing=yes"]).unwrap_err(),
            "'--mlir-timing' takes no value, but was given 'yes'"
        );
    }

    #[test]
    fn help_lists_every_pass() {
        let text = help();
        for pass in registry::all() {
            assert!(text.contains(&format!("--{}", pass.name)), "{}", pass.name);
            assert!(text.contains(pass.summary));
        }
    }
}
