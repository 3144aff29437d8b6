//! One run of `tt-opt`: read the input, process each chunk (parse, run
//! the passes, print), report diagnostics or verify them, and write the
//! output.

use std::path::PathBuf;

use melior::{
    ir::operation::OperationPrintingFlags,
    pass::{PassIrPrintingOptions, PassManager},
    Context,
};
use tt_passes::{
    context::new_context,
    options::PassOptions,
    pipeline::{self, new_pass_manager},
    registry,
};

use crate::{
    cli::{Config, Passes, VerifyDiagnostics},
    diagnostics::{self, Diag},
    expect,
    parse::parse_module,
    source::{self, Source, SPLIT_MARKER},
};

/// Runs `config`; returns whether everything succeeded. Messages go to
/// stderr, the output to stdout or `-o`.
pub fn run(config: &Config) -> bool {
    let source = match Source::read(config.input.as_deref()) {
        Ok(source) => source,
        Err(message) => {
            eprintln!("{message}");
            return false;
        }
    };
    // Pass and option errors do not depend on the input: report them once.
    if let Err(message) = build_pass_manager(config, &new_context(false)) {
        eprintln!("tt-opt: error: {message}");
        return false;
    }
    let chunks = if config.split_input_file {
        source::split(&source.text)
    } else {
        vec![source.text.clone()]
    };
    let mut ok = true;
    let mut outputs = Vec::new();
    for chunk in &chunks {
        let (output, chunk_ok) = process_chunk(config, &source, chunk);
        ok &= chunk_ok;
        outputs.push(output.unwrap_or_default());
    }
    let output = outputs.join(&format!("{SPLIT_MARKER}\n"));
    match &config.output {
        None => return write_stdout(&output) && ok,
        Some(path) if ok => {
            if let Err(e) = std::fs::write(path, output) {
                eprintln!("tt-opt: error: cannot write '{path}': {e}");
                return false;
            }
        }
        Some(_) => {}
    }
    ok
}

/// Processes one chunk in a fresh context: returns its printed output
/// (when it parsed and the passes succeeded) and whether it succeeded.
/// Under `--verify-diagnostics` success means the diagnostics matched.
fn process_chunk(config: &Config, source: &Source, chunk: &str) -> (Option<String>, bool) {
    let context = new_context(config.allow_unregistered_dialect);
    let collected = diagnostics::collect(&context);
    let output = parse_and_run(config, &context, source, chunk, &collected);
    let diags: Vec<Diag> = collected.borrow_mut().drain(..).collect();
    let (output, ok) = match output {
        Ok(text) => (Some(text), true),
        Err(None) => (None, false),
        Err(Some(message)) => {
            eprintln!("tt-opt: error: {message}");
            return (None, false);
        }
    };
    if config.verify_diagnostics == VerifyDiagnostics::Off {
        for diag in &diags {
            eprint!("{}", diag.render(source));
        }
        return (output, ok);
    }
    let diags: Vec<Diag> = diags.into_iter().map(Diag::without_op_dumps).collect();
    let (mut expectations, mut problems) = expect::parse(chunk, source);
    let only_expected = config.verify_diagnostics == VerifyDiagnostics::OnlyExpected;
    problems.extend(expect::verify(
        &mut expectations,
        &diags,
        source,
        only_expected,
    ));
    for problem in &problems {
        eprint!("{problem}");
    }
    (output, problems.is_empty())
}

/// `Err(None)`: failed with diagnostics; `Err(Some(_))`: failed with a
/// message of tt-opt's own (a bad pass or option).
fn parse_and_run(
    config: &Config,
    context: &Context,
    source: &Source,
    chunk: &str,
    collected: &diagnostics::Collected,
) -> Result<String, Option<String>> {
    let manager = build_pass_manager(config, context).map_err(Some)?;
    let mut module = parse_module(context, chunk, &source.name, collected).ok_or(None)?;
    manager.run(&mut module).map_err(|_| None)?;
    // Printed as mlir-opt prints it: the op's text, then a newline.
    let mut text = print_operation(module.as_operation(), &printing_flags(config));
    text.push('\n');
    Ok(text)
}

/// Prints `op` into one buffer. MLIR hands the printer's output over in many
/// small pieces; they are appended as bytes and checked as UTF-8 once.
fn print_operation(
    op: melior::ir::operation::OperationRef,
    flags: &OperationPrintingFlags,
) -> String {
    unsafe extern "C" fn append(piece: mlir_sys::MlirStringRef, user: *mut std::ffi::c_void) {
        let buffer = unsafe { &mut *user.cast::<Vec<u8>>() };
        if !piece.data.is_null() {
            buffer.extend_from_slice(unsafe {
                std::slice::from_raw_parts(piece.data.cast::<u8>(), piece.length)
            });
        }
    }
    let mut buffer: Vec<u8> = Vec::new();
    unsafe {
        mlir_sys::mlirOperationPrintWithFlags(
            op.to_raw(),
            flags.to_raw(),
            Some(append),
            (&mut buffer as *mut Vec<u8>).cast(),
        );
    }
    String::from_utf8(buffer).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn build_pass_manager<'c>(
    config: &Config,
    context: &'c Context,
) -> Result<PassManager<'c>, String> {
    let manager = match &config.passes {
        Passes::Pipeline(text) => pipeline::parse(text)?.build(context)?,
        Passes::Flags(flags) => {
            let manager = new_pass_manager(context, "builtin.module");
            for (name, options) in flags {
                let options =
                    PassOptions::parse(options).map_err(|e| format!("pass '{name}': {e}"))?;
                registry::lookup(name)?.add_to(
                    manager.as_operation_pass_manager(),
                    "builtin.module",
                    &options,
                )?;
            }
            manager
        }
    };
    if config.print_ir_before_all || config.print_ir_after_all {
        manager.enable_ir_printing(&PassIrPrintingOptions {
            before_all: config.print_ir_before_all,
            after_all: config.print_ir_after_all,
            module_scope: false,
            on_change: false,
            on_failure: false,
            flags: printing_flags(config),
            tree_printing_path: PathBuf::new(),
        });
    }
    if config.timing {
        unsafe { mlir_sys::mlirPassManagerEnableTiming(manager.to_raw()) };
    }
    Ok(manager)
}

fn printing_flags(config: &Config) -> OperationPrintingFlags {
    let mut flags = OperationPrintingFlags::new()
        .enable_debug_info(config.print_debuginfo, config.pretty_debuginfo);
    // The module was verified after parsing and after the passes: without
    // this the printer would verify it once more before printing.
    unsafe { mlir_sys::mlirOpPrintingFlagsAssumeVerified(flags.to_raw()) };
    if config.print_op_generic {
        flags = flags.print_generic_operation_form();
    }
    if config.print_local_scope {
        flags = flags.use_local_scope();
    }
    if config.use_nameloc_as_prefix {
        unsafe { mlir_sys::mlirOpPrintingFlagsPrintNameLocAsPrefix(flags.to_raw()) };
    }
    flags
}

/// Writes `text` to stdout. A reader that stops early (`tt-opt ... | head`)
/// is not an error: the rest of the output is dropped quietly, as command
/// line tools do. Returns false on any other write error, reported here.
pub fn write_stdout(text: &str) -> bool {
    use std::io::{ErrorKind, Write};
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => true,
        Err(e) if e.kind() == ErrorKind::BrokenPipe => true,
        Err(e) => {
            eprintln!("tt-opt: error: cannot write the output: {e}");
            false
        }
    }
}
