//! `tt-opt`: an `mlir-opt` style driver for the Triton dialects.
//!
//! It parses an MLIR file (or stdin), runs the passes named on the command
//! line or in `--pass-pipeline`, and prints the result. See `tt-opt --help`.
//! Exit status: 0 on success, 1 on any failure, usage errors and internal
//! errors included; a panic is reported, never an abort.

mod cli;
mod diagnostics;
mod driver;
mod expect;
mod parse;
mod source;
mod tensor_layout;

use std::{
    panic::{self, AssertUnwindSafe},
    process::ExitCode,
    sync::{Arc, Mutex},
};

use cli::Command;

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
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(_) => {
            let message = panic_message.lock().map(|m| m.clone()).unwrap_or_default();
            eprintln!("tt-opt: internal error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> bool {
    tt_conversion::register_passes();
    if tensor_layout::requested(args) {
        return match tensor_layout::parse(args) {
            Ok(request) => tensor_layout::run(&request),
            Err(message) => {
                eprintln!("tt-opt: error: {message}");
                eprintln!("Run 'tt-opt --help' for the list of options.");
                false
            }
        };
    }
    match cli::parse(args) {
        Ok(Command::Help) => driver::write_stdout(&(cli::help() + tensor_layout::HELP)),
        Ok(Command::Version) => {
            driver::write_stdout(&format!("tt-opt {}\n", env!("CARGO_PKG_VERSION")))
        }
        Ok(Command::Run(config)) => driver::run(&config),
        Err(message) => {
            eprintln!("tt-opt: error: {message}");
            eprintln!("Run 'tt-opt --help' for the list of options.");
            false
        }
    }
}
