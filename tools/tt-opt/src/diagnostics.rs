//! Diagnostics collected from MLIR, held as plain Rust data, and printed
//! the way `mlir-opt` prints them: `file:line:col: error: message`, then
//! the source line and a caret when the location points into the input.

use std::{cell::RefCell, fmt::Write, rc::Rc};

use melior::{
    diagnostic::{Diagnostic, DiagnosticSeverity},
    Context,
};
pub use tt_dialect::ir::{file_loc, FileLoc};

use crate::source::Source;

/// A diagnostic's severity, as `expected-*` comments name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl Severity {
    /// `error`, `warning`, `note` or `remark`.
    pub fn label(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
            Self::Note => "note",
            Self::Remark => "remark",
        }
    }

    /// The severity called `label`.
    pub fn from_label(label: &str) -> Option<Self> {
        Some(match label {
            "error" => Self::Error,
            "warning" => Self::Warning,
            "note" => Self::Note,
            "remark" => Self::Remark,
            _ => return None,
        })
    }
}

/// One diagnostic with its notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub severity: Severity,
    /// `None` for locations without a file position.
    pub loc: Option<FileLoc>,
    pub message: String,
    pub notes: Vec<Diag>,
}

/// The diagnostics collected from a context, shared with its handler.
pub type Collected = Rc<RefCell<Vec<Diag>>>;

/// Routes every diagnostic of `context` into the returned list; MLIR
/// prints nothing itself.
pub fn collect(context: &Context) -> Collected {
    let collected = Collected::default();
    let sink = collected.clone();
    context.attach_diagnostic_handler(move |diagnostic| {
        // Unwinding out of this callback would cross C++ frames: never.
        let diag = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Diag::from_mlir(&diagnostic)
        }))
        .unwrap_or_else(|_| Diag {
            severity: Severity::Error,
            loc: None,
            message: "internal error: could not read a diagnostic".into(),
            notes: Vec::new(),
        });
        if let Ok(mut sink) = sink.try_borrow_mut() {
            sink.push(diag);
        }
        true
    });
    collected
}

impl Diag {
    /// Copies an MLIR diagnostic and its notes.
    pub fn from_mlir(diagnostic: &Diagnostic) -> Self {
        let severity = match diagnostic.severity() {
            DiagnosticSeverity::Error => Severity::Error,
            DiagnosticSeverity::Warning => Severity::Warning,
            DiagnosticSeverity::Note => Severity::Note,
            DiagnosticSeverity::Remark => Severity::Remark,
        };
        let notes = (0..diagnostic.note_count())
            .filter_map(|i| diagnostic.note(i).ok())
            .map(|note| Self::from_mlir(&note))
            .collect();
        Self {
            severity,
            loc: file_loc(diagnostic.location()),
            message: diagnostic.to_string(),
            notes,
        }
    }

    /// Drops the `see current operation: <op>` notes that MLIR attaches to
    /// op errors, as `mlir-opt --verify-diagnostics` does by turning off
    /// `printOpOnDiagnostic` (which the C API cannot reach).
    pub fn without_op_dumps(mut self) -> Self {
        self.notes
            .retain(|note| !note.message.starts_with("see current operation:"));
        self
    }

    /// Renders the diagnostic and its notes, each followed by a snippet
    /// when it points into `source`.
    pub fn render(&self, source: &Source) -> String {
        let mut out = render_one(self.severity, self.loc.as_ref(), &self.message, source);
        for note in &self.notes {
            out.push_str(&note.render(source));
        }
        out
    }
}

/// `file:line:col: severity: message` (or `severity: message`), plus the
/// source line and a caret when `loc` points into `source`.
pub fn render_one(
    severity: Severity,
    loc: Option<&FileLoc>,
    message: &str,
    source: &Source,
) -> String {
    let label = severity.label();
    let Some(loc) = loc else {
        return format!("{label}: {message}\n");
    };
    let mut out = format!(
        "{}:{}:{}: {label}: {message}\n",
        loc.file, loc.line, loc.column
    );
    if loc.file == source.name {
        if let Some(text) = source.line(loc.line) {
            let indent: String = text
                .chars()
                .take(loc.column.saturating_sub(1))
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            let _ = write!(out, "{text}\n{indent}^\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source() -> Source {
        Source {
            name: "in.mlir".into(),
            text: "first\n\tx = bad\n".into(),
        }
    }

    #[test]
    fn renders_caret_under_the_column() {
        let loc = FileLoc {
            file: "in.mlir".into(),
            line: 2,
            column: 6,
        };
        assert_eq!(
            render_one(Severity::Error, Some(&loc), "oops", &source()),
            "in.mlir:2:6: error: oops\n\tx = bad\n\t    ^\n"
        );
    }

    #[test]
    fn other_files_and_unknown_locations_have_no_snippet() {
        let loc = FileLoc {
            file: "other.mlir".into(),
            line: 2,
            column: 1,
        };
        assert_eq!(
            render_one(Severity::Warning, Some(&loc), "w", &source()),
            "other.mlir:2:1: warning: w\n"
        );
        assert_eq!(
            render_one(Severity::Remark, None, "r", &source()),
            "remark: r\n"
        );
    }

    #[test]
    fn drops_op_dump_notes() {
        let note = |message: &str| Diag {
            severity: Severity::Note,
            loc: None,
            message: message.into(),
            notes: Vec::new(),
        };
        let diag = Diag {
            severity: Severity::Error,
            loc: None,
            message: "bad".into(),
            notes: vec![
                note("see current operation: \n\"x\"() : () -> ()"),
                note("other"),
            ],
        };
        assert_eq!(diag.without_op_dumps().notes, [note("other")]);
    }
}
