//! `tt-opt --tensor-layout`: Triton's `triton-tensor-layout` tool, with its
//! flags. It prints which thread and register hold each element of a
//! tensor in a layout (or, with `--use-hw-view`, each lane's elements per
//! warp and register), for a layout given on the command line (`-l`) or
//! the attribute aliases of a file (`-i`, `--alias-names`).

use tt_passes::context::new_context;
use ttg_dialect::layout_view::{print_layout, print_layout_aliases};

use crate::diagnostics::{self, Severity};

/// The flags of the mode, as `triton-tensor-layout` takes them.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Request {
    pub layout: Option<String>,
    pub tensor_type: Option<String>,
    pub input: Option<String>,
    pub output: Option<String>,
    pub alias_names: Vec<String>,
    pub hw_view: bool,
}

/// The help of the mode, appended to `tt-opt --help`.
pub const HELP: &str = "\nTENSOR LAYOUTS (Triton's triton-tensor-layout):\n  \
tt-opt --tensor-layout -l LAYOUT -t TYPE [--use-hw-view] [-o FILE]\n  \
tt-opt --tensor-layout -i FILE [--alias-names=A,B] -t TYPE [--use-hw-view]\n      \
Print which thread (T) and register hold each element of TYPE (e.g.\n      \
'tensor<128x64xf16>') in LAYOUT (e.g. '#ttg.blocked<{...}>'), or in each\n      \
layout alias of FILE (all of them without --alias-names); shared layouts\n      \
print the element at each offset. --use-hw-view prints each warp's\n      \
lanes per register (or each block's offsets) instead.\n";

/// Whether `args` ask for this mode.
pub fn requested(args: &[String]) -> bool {
    args.iter()
        .any(|a| a == "--tensor-layout" || a == "-tensor-layout")
}

/// Parses the mode's arguments (the mode flag among them).
pub fn parse(args: &[String]) -> Result<Request, String> {
    let mut request = Request::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let flag = arg
            .strip_prefix("--")
            .or_else(|| arg.strip_prefix('-'))
            .ok_or_else(|| {
                format!("unexpected argument '{arg}' (--tensor-layout takes -i FILE)")
            })?;
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (flag, None),
        };
        match name {
            "tensor-layout" | "use-hw-view" if inline.is_some() => {
                return Err(format!("'--{name}' takes no value"));
            }
            "tensor-layout" => {}
            "use-hw-view" => request.hw_view = true,
            "l" | "t" | "i" | "o" | "alias-names" => {
                let value = match inline {
                    Some(v) => v,
                    None => args
                        .next()
                        .cloned()
                        .ok_or_else(|| format!("'-{name}' needs a value"))?,
                };
                match name {
                    "l" => request.layout = Some(value),
                    "t" => request.tensor_type = Some(value),
                    "i" => request.input = Some(value),
                    "o" => request.output = Some(value),
                    _ => request.alias_names.extend(
                        value
                            .split(',')
                            .map(str::trim)
                            .filter(|n| !n.is_empty())
                            .map(String::from),
                    ),
                }
            }
            _ => return Err(format!("unknown option '{arg}' for --tensor-layout")),
        }
    }
    if request.tensor_type.is_none() {
        return Err("--tensor-layout needs the tensor type: -t 'tensor<...>'".into());
    }
    if request.layout.is_none() && request.input.is_none() {
        return Err("--tensor-layout needs a layout (-l) or a file of layouts (-i)".into());
    }
    Ok(request)
}

/// Prints the layouts `request` names; returns whether it succeeded.
pub fn run(request: &Request) -> bool {
    match render(request) {
        Ok(text) => match &request.output {
            None => crate::driver::write_stdout(&text),
            Some(path) => match std::fs::write(path, text) {
                Ok(()) => true,
                Err(e) => {
                    eprintln!("tt-opt: error: cannot write '{path}': {e}");
                    false
                }
            },
        },
        Err(message) => {
            eprintln!("tt-opt: error: {message}");
            false
        }
    }
}

fn render(request: &Request) -> Result<String, String> {
    let context = new_context(false);
    let collected = diagnostics::collect(&context);
    // MLIR's own reasons (a parse error's position in the text) follow the
    // message.
    let with_reasons = |message: String| {
        let reasons: Vec<String> = collected
            .borrow()
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| format!("\n  note: {}", d.message))
            .collect();
        message + &reasons.concat()
    };
    let tensor_type = request.tensor_type.as_deref().unwrap_or_default();
    let mut text = String::new();
    if let Some(path) = &request.input {
        let source = if path == "-" {
            std::io::read_to_string(std::io::stdin())
        } else {
            std::fs::read_to_string(path)
        }
        .map_err(|e| format!("cannot read '{path}': {e}"))?;
        let names: Vec<&str> = request.alias_names.iter().map(String::as_str).collect();
        text += &print_layout_aliases(&context, &source, &names, tensor_type, request.hw_view)
            .map_err(with_reasons)?;
    }
    if let Some(layout) = &request.layout {
        text +=
            &print_layout(&context, layout, tensor_type, request.hw_view).map_err(with_reasons)?;
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn takes_tritons_flags() {
        let request = parse(&args(&[
            "--tensor-layout",
            "-i",
            "layouts.mlir",
            "-alias-names=blocked, mma",
            "-t",
            "tensor<16x16xf32>",
            "-use-hw-view",
            "-o=out.txt",
        ]))
        .expect("parses");
        assert_eq!(
            request,
            Request {
                layout: None,
                tensor_type: Some("tensor<16x16xf32>".into()),
                input: Some("layouts.mlir".into()),
                output: Some("out.txt".into()),
                alias_names: vec!["blocked".into(), "mma".into()],
                hw_view: true,
            }
        );
        assert!(requested(&args(&["-l", "x", "-tensor-layout"])));
    }

    #[test]
    fn says_what_is_missing() {
        let error = |list: &[&str]| parse(&args(list)).expect_err("fails");
        assert!(error(&["--tensor-layout", "-l", "#x"]).contains("-t 'tensor<...>'"));
        assert!(error(&["--tensor-layout", "-t", "tensor<4xf32>"]).contains("(-l)"));
        assert!(error(&["--tensor-layout", "-t"]).contains("'-t' needs a value"));
        assert!(error(&["--tensor-layout", "--canonicalize"]).contains("unknown option"));
    }
}
