//! `--verify-diagnostics`: MLIR's `SourceMgrDiagnosticVerifierHandler` in
//! Rust.
//!
//! Comments such as `// expected-error@+1 {{message}}` declare the
//! diagnostics a buffer must produce. `@+N`/`@-N` shift the line,
//! `@above`/`@below` attach to the nearest line above or below that holds
//! no expectation, `@unknown` matches diagnostics without a position in the
//! buffer. A message matches when it contains the expected text; the `-re`
//! forms treat `{{...}}` inside the text as a regex. Every diagnostic (and
//! every note) must be expected, and every expectation met.

use std::sync::OnceLock;

use regex::Regex;

use crate::{
    diagnostics::{render_one, Diag, FileLoc, Severity},
    source::Source,
};

/// How an expectation's text is matched.
#[derive(Debug)]
enum Pattern {
    Substring(String),
    Regex(Regex),
}

/// One `expected-*` comment.
#[derive(Debug)]
pub struct Expectation {
    severity: Severity,
    /// The line the diagnostic must be on; `None` for `@unknown`.
    line: Option<usize>,
    pattern: Pattern,
    /// The text between the outer `{{` and `}}`, as written.
    text: String,
    /// Where the `expected-` comment is, for reporting.
    at: FileLoc,
    matched: bool,
}

impl Pattern {
    fn matches(&self, message: &str) -> bool {
        match self {
            Self::Substring(s) => message.contains(s.as_str()),
            Self::Regex(r) => r.is_match(message),
        }
    }
}

fn directive() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}\s*$",
        )
        .expect("the directive regex is valid")
    })
}

/// Turns `literal {{regex}} literal` into one regex.
fn expectation_regex(text: &str) -> Result<Regex, String> {
    let mut pattern = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        pattern.push_str(&regex::escape(&rest[..start]));
        let after = &rest[start + 2..];
        let end = after
            .find("}}")
            .ok_or("found start of regex with no end '}}'")?;
        pattern.push_str(&format!("(?:{})", &after[..end]));
        rest = &after[end + 2..];
    }
    pattern.push_str(&regex::escape(rest));
    Regex::new(&pattern).map_err(|e| format!("invalid regex: {e}"))
}

/// Reads the expectations of `text` (a chunk of `source`). Malformed ones
/// are returned as rendered errors.
pub fn parse(text: &str, source: &Source) -> (Vec<Expectation>, Vec<String>) {
    let mut expectations: Vec<Expectation> = Vec::new();
    let mut errors = Vec::new();
    let mut last_plain_line = 0;
    let mut waiting_for_next_line: Vec<usize> = Vec::new();
    for (index, line_text) in text.lines().enumerate() {
        let line = index + 1;
        let Some(caps) = directive().captures(line_text) else {
            last_plain_line = line;
            for &i in &waiting_for_next_line {
                expectations[i].line = Some(line);
            }
            waiting_for_next_line.clear();
            continue;
        };
        let whole = caps.get(0).expect("group 0 always matches");
        let at = FileLoc {
            file: source.name.clone(),
            line,
            column: line_text[..whole.start()].chars().count() + 1,
        };
        let severity = Severity::from_label(&caps[1]).expect("the regex only allows labels");
        let text = caps[5].to_owned();
        let pattern = if caps.get(2).is_some() {
            match expectation_regex(&text) {
                Ok(r) => Pattern::Regex(r),
                Err(e) => {
                    errors.push(render_one(Severity::Error, Some(&at), &e, source));
                    continue;
                }
            }
        } else {
            Pattern::Substring(text.clone())
        };
        let mut target = Some(line);
        match caps.get(4).map(|m| m.as_str()) {
            None => {}
            Some("unknown") => target = None,
            Some("above") => target = Some(last_plain_line),
            Some("below") => waiting_for_next_line.push(expectations.len()),
            Some(offset) => {
                let n: usize = offset[1..].parse().unwrap_or(usize::MAX);
                target = if offset.starts_with('+') {
                    line.checked_add(n)
                } else {
                    line.checked_sub(n)
                };
                if target.is_none_or(|t| t == 0) {
                    let message =
                        format!("expected diagnostic line offset {offset} is out of range");
                    errors.push(render_one(Severity::Error, Some(&at), &message, source));
                    continue;
                }
            }
        }
        expectations.push(Expectation {
            severity,
            line: target,
            pattern,
            text,
            at,
            matched: false,
        });
    }
    (expectations, errors)
}

/// Matches `diags` (and their notes) against `expectations`; returns the
/// rendered problems: unexpected diagnostics (unless `only_expected`), then
/// unmet expectations.
pub fn verify(
    expectations: &mut [Expectation],
    diags: &[Diag],
    source: &Source,
    only_expected: bool,
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut unexpected = Vec::new();
    for diag in diags {
        check(expectations, diag, source, &mut unexpected);
        for note in &diag.notes {
            check(expectations, note, source, &mut unexpected);
        }
    }
    if !only_expected {
        problems.extend(unexpected);
    }
    for e in expectations.iter().filter(|e| !e.matched) {
        let message = format!(
            "expected {} \"{}\" was not produced",
            e.severity.label(),
            e.text
        );
        problems.push(render_one(Severity::Error, Some(&e.at), &message, source));
    }
    problems
}

fn check(
    expectations: &mut [Expectation],
    diag: &Diag,
    source: &Source,
    problems: &mut Vec<String>,
) {
    // Positions outside this buffer can only be matched by `@unknown`.
    let line = diag
        .loc
        .as_ref()
        .filter(|l| l.file == source.name)
        .map(|l| l.line);
    let mut near_miss = None;
    for e in expectations.iter_mut() {
        if e.line == line && e.pattern.matches(&diag.message) {
            if e.severity == diag.severity {
                e.matched = true;
                return;
            }
            near_miss.get_or_insert(e.severity);
        }
    }
    let message = match near_miss {
        Some(expected) => format!(
            "'{}' diagnostic emitted when expecting a '{}'",
            diag.severity.label(),
            expected.label()
        ),
        None => format!("unexpected {}: {}", diag.severity.label(), diag.message),
    };
    problems.push(render_one(
        Severity::Error,
        diag.loc.as_ref(),
        &message,
        source,
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &str) -> Source {
        Source {
            name: "t.mlir".into(),
            text: text.into(),
        }
    }

    fn diag(severity: Severity, line: usize, message: &str) -> Diag {
        Diag {
            severity,
            loc: Some(FileLoc {
                file: "t.mlir".into(),
                line,
                column: 3,
            }),
            message: message.into(),
            notes: Vec::new(),
        }
    }

    fn run(text: &str, diags: &[Diag]) -> Vec<String> {
        let src = source(text);
        let (mut e, errors) = parse(text, &src);
        assert!(errors.is_empty(), "{errors:?}");
        verify(&mut e, diags, &src, false)
    }

    #[test]
    fn line_designators() {
        let text = "\
// expected-error@+2 {{two below}}
// expected-warning@below {{next plain}}
op1
op2 // expected-remark {{same line}}
// expected-note@-2 {{two above}}
// expected-error@above {{last plain}}
";
        let diags = [
            diag(Severity::Error, 3, "x two below y"),
            diag(Severity::Warning, 3, "next plain"),
            diag(Severity::Remark, 4, "same line"),
            diag(Severity::Note, 3, "two above"),
            // Line 4 holds a directive, so `@above` skips it.
            diag(Severity::Error, 3, "last plain"),
        ];
        assert_eq!(run(text, &diags), Vec::<String>::new());
    }

    #[test]
    fn notes_and_unknown_locations() {
        let text = "// expected-error@unknown {{nowhere}}\nop // expected-note {{see}}\n";
        let mut d = diag(Severity::Error, 2, "nowhere");
        d.loc = None;
        d.notes.push(diag(Severity::Note, 2, "see this"));
        assert_eq!(run(text, &[d]), Vec::<String>::new());
    }

    #[test]
    fn regex_variant() {
        let text = "op // expected-error-re {{value {{[0-9]+}} (is) bad}}\n";
        assert!(run(text, &[diag(Severity::Error, 1, "value 42 (is) bad")]).is_empty());
        assert_eq!(
            run(text, &[diag(Severity::Error, 1, "value x (is) bad")]).len(),
            2
        );
    }

    #[test]
    fn reports_unexpected_and_unmet() {
        let text = "op\n// expected-error@-1 {{wanted}}\n";
        let problems = run(text, &[diag(Severity::Error, 1, "got")]);
        assert_eq!(
            problems,
            [
                "t.mlir:1:3: error: unexpected error: got\nop\n  ^\n",
                "t.mlir:2:4: error: expected error \"wanted\" was not produced\n// expected-error@-1 {{wanted}}\n   ^\n",
            ]
        );
    }

    #[test]
    fn reports_wrong_severity() {
        let text = "op // expected-error {{msg}}\n";
        let problems = run(text, &[diag(Severity::Warning, 1, "msg")]);
        assert_eq!(problems.len(), 2);
        assert!(problems[0].starts_with(
            "t.mlir:1:3: error: 'warning' diagnostic emitted when expecting a 'error'\n"
        ));
    }

    #[test]
    fn malformed_expectations_are_errors() {
        let text = "// expected-error-re {{a {{b}}\n// expected-error@-5 {{x}}\n";
        let src = source(text);
        let (e, errors) = parse(text, &src);
        assert!(e.is_empty());
        assert_eq!(errors.len(), 2);
        assert!(errors[0].contains("found start of regex with no end '}}'"));
        assert!(errors[1].contains("expected diagnostic line offset -5 is out of range"));
    }
}
