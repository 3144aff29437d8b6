//! Parsing a buffer into a module, with `mlir-opt`'s implicit module.
//!
//! `mlirOperationCreateParse` keeps the real buffer name in locations but,
//! unlike `mlir-opt`, does not wrap top-level ops in a `builtin.module`. So
//! when the buffer is not a single module, it is parsed again with
//! `module {` inserted where it moves no op: after the last alias
//! definition, or on the line before the first op, and `}` at the end.
//! Alias definitions between top-level ops (Triton's lit files have them
//! between modules) cannot go inside the module: they move, on one line
//! each, to just before `module {`, leaving their lines blank, so that no
//! op changes line.

use melior::{
    ir::{operation::OperationLike, Module, Operation},
    Context, StringRef,
};

use crate::diagnostics::{Collected, Severity};

const NOT_ONE_OP: &str = "source must contain a single top-level operation";

/// Parses `text` as buffer `name`. Diagnostics go to `collected`; `None`
/// when the buffer does not parse or verify.
pub fn parse_module<'c>(
    context: &'c Context,
    text: &str,
    name: &str,
    collected: &Collected,
) -> Option<Module<'c>> {
    let mark = collected.borrow().len();
    let op = create_parse(context, text, name);
    let retry = match &op {
        Some(op) => op.name().as_string_ref().as_str() != Ok("builtin.module"),
        None => {
            let diags = collected.borrow();
            let new = &diags[mark..];
            new.len() == 1
                && new[0].severity == Severity::Error
                && new[0].message.starts_with(NOT_ONE_OP)
        }
    };
    if !retry {
        return op.and_then(Module::from_operation);
    }
    drop(op);
    collected.borrow_mut().truncate(mark);
    create_parse(context, &wrap_in_module(text), name).and_then(Module::from_operation)
}

fn create_parse<'c>(context: &'c Context, text: &str, name: &str) -> Option<Operation<'c>> {
    unsafe {
        Operation::from_option_raw(mlir_sys::mlirOperationCreateParse(
            context.to_raw(),
            StringRef::new(text).to_raw(),
            StringRef::new(name).to_raw(),
        ))
    }
}

/// `text` with its top-level ops inside `module { ... }`, keeping every
/// op at its line and column.
pub fn wrap_in_module(text: &str) -> String {
    let (first_op, last_code_end) = scan_top_level(text);
    let insert_at = match (last_code_end, first_op) {
        (Some(end), _) => end,
        (None, Some(op)) => {
            let line_start = text[..op].rfind('\n').map_or(0, |p| p + 1);
            match line_start {
                0 => 0,
                _ => text[..line_start - 1].rfind('\n').map_or(0, |p| p + 1),
            }
        }
        (None, None) => 0,
    };
    let late = first_op
        .map(|op| late_aliases(text, op))
        .unwrap_or_default();
    let mut body = text.to_owned();
    let mut moved = String::new();
    for &(start, end) in &late {
        moved.push(' ');
        moved.push_str(&one_line(&text[start..end]));
        let blanked: String = text[start..end]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        body.replace_range(start..end, &blanked);
    }
    let text = body.as_str();
    let mut out = String::with_capacity(text.len() + moved.len() + 16);
    out.push_str(&text[..insert_at]);
    out.push_str(&moved);
    out.push_str(" module {");
    let rest = &text[insert_at..];
    // File metadata (`{-# ... #-}`) must stay outside the module.
    match first_op.and_then(|op| text[op..].find("\n{-#").map(|p| op + p + 1)) {
        Some(meta) => {
            out.push_str(&text[insert_at..meta]);
            out.push_str("} ");
            out.push_str(&text[meta..]);
        }
        None => {
            out.push_str(rest);
            out.push_str("\n}\n");
        }
    }
    out
}

/// An alias definition's text on one line: line breaks become spaces and
/// comments go (a comment would hide what follows on the joined line).
fn one_line(alias: &str) -> String {
    let mut out = String::with_capacity(alias.len());
    for line in alias.lines() {
        let mut in_string = false;
        let mut escaped = false;
        let mut cut = line.len();
        for (k, c) in line.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' if in_string => escaped = true,
                '"' => in_string = !in_string,
                '/' if !in_string && line[k..].starts_with("//") => {
                    cut = k;
                    break;
                }
                _ => {}
            }
        }
        if out.is_empty() {
            out.push_str(line[..cut].trim_end());
        } else {
            out.push(' ');
            out.push_str(line[..cut].trim());
        }
    }
    out
}

/// The spans of alias definitions at the top level after the first op
/// (at `first_op`): lines that start with `#` or `!` outside every brace.
fn late_aliases(text: &str, first_op: usize) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut depth = 0usize;
    let mut i = first_op;
    let mut line_start = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b'#' | b'!' if line_start && depth == 0 => {
                let (end, code_end) = skip_alias(bytes, i);
                spans.push((i, code_end));
                i = end;
                continue;
            }
            b'"' => i = closing_quote(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while bytes.get(i).is_some_and(|&c| c != b'\n') {
                    i += 1;
                }
                continue;
            }
            b'{' if bytes.get(i + 1) == Some(&b'-') && bytes.get(i + 2) == Some(&b'#') => {
                // File metadata ends the ops.
                break;
            }
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        line_start = false;
        i += 1;
    }
    spans
}

/// Skips alias definitions (`#a = ...`, `!t = ...`) at the top level.
/// Returns the offset of the first op and the end of the last alias value.
fn scan_top_level(text: &str) -> (Option<usize>, Option<usize>) {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut last_code_end = None;
    loop {
        i = skip_space_and_comments(bytes, i);
        match bytes.get(i) {
            None => return (None, last_code_end),
            Some(b'#' | b'!') => {
                let (end, code_end) = skip_alias(bytes, i);
                last_code_end = Some(code_end);
                i = end;
            }
            Some(_) => return (Some(i), last_code_end),
        }
    }
}

fn skip_space_and_comments(bytes: &[u8], mut i: usize) -> usize {
    loop {
        while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        if bytes[i..].starts_with(b"//") {
            while bytes.get(i).is_some_and(|&b| b != b'\n') {
                i += 1;
            }
        } else {
            return i;
        }
    }
}

/// The index of the `"` that closes the string opening at `open` (escapes
/// skipped), or the end of `bytes`.
pub(crate) fn closing_quote(bytes: &[u8], open: usize) -> usize {
    let mut i = open + 1;
    while let Some(&c) = bytes.get(i) {
        match c {
            b'\\' => i += 1,
            b'"' => return i,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// Skips one alias definition starting at `start`; returns where it ends
/// (its closing line break) and the end of its last non-comment byte.
fn skip_alias(bytes: &[u8], start: usize) -> (usize, usize) {
    let mut i = start;
    let mut depth = 0usize;
    let mut value_started = false;
    let mut seen_eq = false;
    let mut code_end = start;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\n' if depth == 0 && value_started => return (i, code_end),
            b'"' => i = closing_quote(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while bytes.get(i + 1).is_some_and(|&c| c != b'\n') {
                    i += 1;
                }
                i += 1;
                continue;
            }
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b'>' if i > 0 && bytes[i - 1] == b'-' => {}
            b')' | b']' | b'}' | b'>' => depth = depth.saturating_sub(1),
            b'=' if depth == 0 => seen_eq = true,
            _ => {}
        }
        if !bytes[i.min(bytes.len() - 1)].is_ascii_whitespace() {
            code_end = (i + 1).min(bytes.len());
            if seen_eq && b != b'=' {
                value_started = true;
            }
        }
        i += 1;
    }
    (bytes.len(), code_end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_after_the_last_alias() {
        let text = "// c\n#a = #foo<{x = [1, 2]}> // note\n!t = !tt.ptr<f16>\ntt.func @f() {}\n";
        assert_eq!(
            wrap_in_module(text),
            "// c\n#a = #foo<{x = [1, 2]}> // note\n!t = !tt.ptr<f16> module {\ntt.func @f() {}\n\n}\n"
        );
    }

    #[test]
    fn wraps_on_the_line_before_the_first_op() {
        let text = "// RUN: x\n\n  tt.func @f() {}\ntt.func @g() {}\n";
        assert_eq!(
            wrap_in_module(text),
            "// RUN: x\n module {\n  tt.func @f() {}\ntt.func @g() {}\n\n}\n"
        );
    }

    #[test]
    fn moves_aliases_between_ops_before_the_module() {
        let text = "#a = #x\nmod {\n  op\n}\n#b = #y<{v = 1}> // c\nmod {\n}\n";
        assert_eq!(
            wrap_in_module(text),
            "#a = #x #b = #y<{v = 1}> module {\nmod {\n  op\n}\n                 // c\nmod {\n}\n\n}\n"
        );
        assert_eq!(
            one_line("#c = #z<{\n  a = 1, // one\n  b = \"//\"}>"),
            "#c = #z<{ a = 1, b = \"//\"}>"
        );
    }

    #[test]
    fn keeps_file_metadata_outside() {
        let text = "\nfunc.func private @f()\n{-#\n#-}\n";
        assert_eq!(
            wrap_in_module(text),
            " module {\nfunc.func private @f()\n} {-#\n#-}\n"
        );
    }

    #[test]
    fn arrows_and_strings_do_not_confuse_alias_scanning() {
        let text = "!f = (i32) -> i32\n#s = \"a>b\"\nop\n";
        let (op, end) = scan_top_level(text);
        assert_eq!(op, Some(text.find("op").unwrap()));
        assert_eq!(end, Some(text.find("\nop").unwrap()));
        assert_eq!(scan_top_level("// only\n"), (None, None));
    }
}
