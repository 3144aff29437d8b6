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
    parse::{closing_quote, parse_module},
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
    let reproduced;
    let config = if config.run_reproducer {
        match reproducer_pipeline(&source.text) {
            Ok(pipeline) => {
                reproduced = Config {
                    passes: Passes::Pipeline(pipeline),
                    ..config.clone()
                };
                &reproduced
            }
            Err(message) => {
                eprintln!("tt-opt: error: {message}");
                return false;
            }
        }
    } else {
        config
    };
    if let Some(only) = &config.debug {
        let which = if only.is_empty() {
            "--debug".to_owned()
        } else {
            format!("--debug-only={only}")
        };
        eprintln!(
            "tt-opt: note: {which}: no debug output in this build (its LLVM and MLIR are built without assertions, and tt-opt's own passes print none)"
        );
    }
    // Pass and option errors do not depend on the input: report them once.
    match build_pass_manager(config, &new_context(false)) {
        Err(message) => {
            eprintln!("tt-opt: error: {message}");
            return false;
        }
        Ok(manager) if config.dump_pass_pipeline => eprintln!("{}", describe_pipeline(&manager)),
        Ok(_) => {}
    }
    // The reproducer's resource is read here; MLIR's parser would warn
    // that no one handles it, so it is blanked (lines kept).
    let text = if config.run_reproducer {
        blank_reproducer(&source.text)
    } else {
        source.text.clone()
    };
    let chunks = if config.split_input_file {
        source::split(&text)
    } else {
        vec![text]
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

/// The pipeline of the `mlir_reproducer` resource in the input's file
/// metadata (`{-# external_resources: { mlir_reproducer: { pipeline: "..."
/// ... } } #-}`), as MLIR writes a crash reproducer.
fn reproducer_pipeline(text: &str) -> Result<String, String> {
    let missing = || {
        "--run-reproducer: the input has no `mlir_reproducer` resource with a pipeline".to_owned()
    };
    let metadata = text.find("{-#").ok_or_else(missing)?;
    let resource = text[metadata..]
        .find("mlir_reproducer")
        .ok_or_else(missing)?;
    let rest = &text[metadata + resource..];
    let key = rest.find("pipeline").ok_or_else(missing)?;
    let rest = rest[key + "pipeline".len()..].trim_start();
    let rest = rest.strip_prefix(':').ok_or_else(missing)?.trim_start();
    let rest = rest.strip_prefix('"').ok_or_else(missing)?;
    let mut pipeline = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Ok(pipeline),
            '\\' => pipeline.extend(chars.next()),
            _ => pipeline.push(c),
        }
    }
    Err("--run-reproducer: the reproducer's pipeline string is not closed".into())
}

/// `text` with its `mlir_reproducer` resource entry (key, value and a
/// following comma) turned into spaces, line breaks kept.
fn blank_reproducer(text: &str) -> String {
    let Some(metadata) = text.find("{-#") else {
        return text.to_owned();
    };
    let Some(key) = text[metadata..]
        .find("mlir_reproducer")
        .map(|k| metadata + k)
    else {
        return text.to_owned();
    };
    let Some(open) = text[key..].find('{').map(|o| key + o) else {
        return text.to_owned();
    };
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, open);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = closing_quote(bytes, i),
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut end = (i + 1).min(text.len());
    if let Some(comma) = text[end..].find(|c: char| !c.is_whitespace()) {
        if text[end + comma..].starts_with(',') {
            end += comma + 1;
        }
    }
    let blanked: String = text[key..end]
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    format!("{}{blanked}{}", &text[..key], &text[end..])
}

/// `Pass Manager with N passes:` and the textual pipeline, as mlir-opt's
/// `--dump-pass-pipeline` prints them.
fn describe_pipeline(manager: &PassManager) -> String {
    let mut buffer: Vec<u8> = Vec::new();
    // SAFETY: the manager is live; the callback only appends to `buffer`.
    unsafe {
        mlir_sys::mlirPrintPassPipeline(
            mlir_sys::mlirPassManagerGetAsOpPassManager(manager.to_raw()),
            Some(append_piece),
            (&mut buffer as *mut Vec<u8>).cast(),
        );
    }
    let text = String::from_utf8_lossy(&buffer).into_owned();
    format!(
        "Pass Manager with {} passes:\n{text}\n",
        top_level_passes(&text)
    )
}

/// How many passes the outermost `anchor(...)` of a textual pipeline holds.
fn top_level_passes(pipeline: &str) -> usize {
    let Some(open) = pipeline.find('(') else {
        return 0;
    };
    let inner = &pipeline[open + 1..pipeline.rfind(')').unwrap_or(pipeline.len())];
    if inner.trim().is_empty() {
        return 0;
    }
    let mut depth = 0usize;
    let mut count = 1;
    for c in inner.chars() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => count += 1,
            _ => {}
        }
    }
    count
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

/// MLIR's print callback: appends the piece to the `Vec<u8>` that `user`
/// points to.
unsafe extern "C" fn append_piece(piece: mlir_sys::MlirStringRef, user: *mut std::ffi::c_void) {
    // SAFETY: callers pass a `Vec<u8>` that outlives the printing call.
    let buffer = unsafe { &mut *user.cast::<Vec<u8>>() };
    if !piece.data.is_null() {
        // SAFETY: MLIR hands over `length` readable bytes.
        buffer.extend_from_slice(unsafe {
            std::slice::from_raw_parts(piece.data.cast::<u8>(), piece.length)
        });
    }
}

/// Prints `op` into one buffer. MLIR hands the printer's output over in many
/// small pieces; they are appended as bytes and checked as UTF-8 once.
fn print_operation(
    op: melior::ir::operation::OperationRef,
    flags: &OperationPrintingFlags,
) -> String {
    let mut buffer: Vec<u8> = Vec::new();
    // SAFETY: the op and flags are live; the callback only appends to
    // `buffer`.
    unsafe {
        mlir_sys::mlirOperationPrintWithFlags(
            op.to_raw(),
            flags.to_raw(),
            Some(append_piece),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_reproducer_pipeline() {
        let text = "module {}\n{-#\n  external_resources: {\n    mlir_reproducer: {\n      pipeline: \"builtin.module(cse,canonicalize{region-simplify=normal})\",\n      disable_threading: false\n    }\n  }\n#-}\n";
        assert_eq!(
            reproducer_pipeline(text).as_deref(),
            Ok("builtin.module(cse,canonicalize{region-simplify=normal})")
        );
        assert!(reproducer_pipeline("module {}\n").is_err());
        assert!(reproducer_pipeline("{-# mlir_reproducer: { pipeline: \"x").is_err());
        // Only the file metadata counts, not a comment that names it.
        assert!(reproducer_pipeline("// mlir_reproducer: { pipeline: \"x\" }\n").is_err());
    }

    #[test]
    fn blanks_the_reproducer_entry() {
        let text = "m\n{-#\n external_resources: {\n  mlir_reproducer: {\n   pipeline: \"a{b}\",\n  },\n  other: {}\n }\n#-}\n";
        let blanked = blank_reproducer(text);
        assert_eq!(blanked.lines().count(), text.lines().count());
        assert!(!blanked.contains("mlir_reproducer") && !blanked.contains("pipeline"));
        assert!(blanked.contains("other: {}"));
    }

    #[test]
    fn counts_the_outermost_passes() {
        assert_eq!(top_level_passes("builtin.module(a,b{x=1,y=2},any(c,d))"), 3);
        assert_eq!(top_level_passes("builtin.module()"), 0);
    }
}
