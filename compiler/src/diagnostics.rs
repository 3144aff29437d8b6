//! MLIR diagnostics captured as text: `file:line:col: error: message`,
//! the form `mlir-opt` (and `tt-opt`) print, with notes on following lines.
//! MLIR itself prints nothing while a [`Capture`] is attached. Errors go
//! into a compilation's error; warnings and remarks are printed to stderr
//! where [`Report`] (Triton's `MLIR_ENABLE_DIAGNOSTICS`) asks for them,
//! with the source line under each position, as Triton prints them.

use std::{cell::RefCell, rc::Rc};

use melior::{
    diagnostic::{Diagnostic, DiagnosticSeverity},
    Context,
};
use tt_dialect::ir::{file_loc, FileLoc};

/// Which diagnostics besides errors a compilation prints, and what they
/// carry: Triton's `MLIR_ENABLE_DIAGNOSTICS`, a comma-separated list of
/// `warnings`, `remarks` (warnings too), `operations` (a note with the op
/// a diagnostic is about) and `stacktraces` (a note with the compiler's
/// stack where it was emitted). Errors are always reported, in the
/// compilation's error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Report {
    pub warnings: bool,
    pub remarks: bool,
    pub operations: bool,
    pub stack_traces: bool,
}

impl Report {
    /// The report a `MLIR_ENABLE_DIAGNOSTICS` value asks for; unknown
    /// entries are ignored, as Triton ignores them.
    pub fn parse(list: &str) -> Self {
        let mut report = Self::default();
        for entry in list.split(',').map(str::trim) {
            match entry {
                "warnings" => report.warnings = true,
                "remarks" => report.remarks = true,
                "operations" => report.operations = true,
                "stacktraces" => report.stack_traces = true,
                _ => {}
            }
        }
        report
    }

    /// The report `MLIR_ENABLE_DIAGNOSTICS` asks for.
    pub fn from_env() -> Self {
        Self::parse(&std::env::var("MLIR_ENABLE_DIAGNOSTICS").unwrap_or_default())
    }

    /// The `MLIR_ENABLE_DIAGNOSTICS` value that asks for this report.
    pub fn to_list(self) -> String {
        [
            (self.warnings, "warnings"),
            (self.remarks, "remarks"),
            (self.operations, "operations"),
            (self.stack_traces, "stacktraces"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| *name)
        .collect::<Vec<_>>()
        .join(",")
    }

    /// Whether a diagnostic of `severity` is printed.
    fn shows(self, severity: DiagnosticSeverity) -> bool {
        match severity {
            DiagnosticSeverity::Error => true,
            DiagnosticSeverity::Warning => self.warnings || self.remarks,
            DiagnosticSeverity::Remark => self.remarks,
            DiagnosticSeverity::Note => false,
        }
    }
}

/// One diagnostic as MLIR reported it, with its notes.
#[derive(Debug)]
struct Entry {
    severity: DiagnosticSeverity,
    position: Option<FileLoc>,
    message: String,
    notes: Vec<Entry>,
}

impl Entry {
    fn read(diagnostic: &Diagnostic) -> Self {
        Self {
            severity: diagnostic.severity(),
            position: file_loc(diagnostic.location()),
            message: diagnostic.to_string(),
            notes: (0..diagnostic.note_count())
                .filter_map(|i| diagnostic.note(i).ok())
                .map(|note| Self::read(&note))
                .collect(),
        }
    }

    fn label(&self) -> &'static str {
        match self.severity {
            DiagnosticSeverity::Error => "error",
            DiagnosticSeverity::Warning => "warning",
            DiagnosticSeverity::Note => "note",
            DiagnosticSeverity::Remark => "remark",
        }
    }

    /// `file:line:col: label: message` (without a position where it has
    /// none), and with `source` the source line and a caret under the
    /// column, where the file can be read.
    fn line(&self, source: bool) -> String {
        let mut out = match &self.position {
            Some(at) => format!("{at}: {}: {}\n", self.label(), self.message),
            None => format!("{}: {}\n", self.label(), self.message),
        };
        if let Some(snippet) = self.position.as_ref().filter(|_| source).and_then(snippet) {
            out.push_str(&snippet);
        }
        out
    }

    /// The diagnostic and its notes, one after the other; with `source`
    /// the source line under the diagnostic and under each note whose
    /// position differs from the one before it (MLIR's source manager
    /// handler).
    fn text(&self, source: bool) -> String {
        let mut out = self.line(source);
        let mut previous = &self.position;
        for note in &self.notes {
            out.push_str(&note.line(source && note.position != *previous));
            previous = &note.position;
        }
        out
    }
}

/// Line `at.line` of `at.file` and a caret under `at.column`, as LLVM's
/// source manager shows a position; `None` where the file or line cannot
/// be read.
fn snippet(at: &FileLoc) -> Option<String> {
    let text = std::fs::read_to_string(&at.file).ok()?;
    let line = text.lines().nth(at.line.checked_sub(1)?)?;
    let caret = " ".repeat(at.column.saturating_sub(1));
    Some(format!("{line}\n{caret}^\n"))
}

/// The diagnostics of one context, in the order MLIR reported them.
#[derive(Clone, Default)]
pub struct Capture(Rc<RefCell<Vec<Entry>>>);

impl Capture {
    /// Routes every diagnostic of `context` into the returned capture.
    /// Diagnostics carry neither the op they are about nor the stack that
    /// emitted them until [`Report`] asks for them
    /// (`tt_dialect::ir::set_diagnostic_printing`): MLIR's dump of the
    /// failing op is noise in a compiler's message.
    pub fn attach(context: &Context) -> Self {
        tt_dialect::ir::set_diagnostic_printing(context, false, false);
        let capture = Self::default();
        let sink = capture.0.clone();
        context.attach_diagnostic_handler(move |diagnostic| {
            // Unwinding out of this callback would cross C++ frames: never.
            let entry =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Entry::read(&diagnostic)))
                    .unwrap_or_else(|_| Entry {
                        severity: DiagnosticSeverity::Error,
                        position: None,
                        message: "internal error: could not read a diagnostic".into(),
                        notes: Vec::new(),
                    });
            if let Ok(mut sink) = sink.try_borrow_mut() {
                sink.push(entry);
            }
            true
        });
        capture
    }

    /// Everything captured so far, one diagnostic (with its notes) after
    /// the other; the capture is emptied.
    pub fn take(&self) -> String {
        self.0
            .borrow_mut()
            .drain(..)
            .map(|e| e.text(false))
            .collect()
    }

    /// The errors captured so far (with their notes), as [`take`] gives
    /// them, after printing to stderr the other diagnostics that `report`
    /// asks for, with their source lines; the capture is emptied.
    ///
    /// [`take`]: Capture::take
    pub fn take_errors(&self, report: Report) -> String {
        let mut errors = String::new();
        let mut shown = String::new();
        for entry in self.0.borrow_mut().drain(..) {
            if matches!(entry.severity, DiagnosticSeverity::Error) {
                errors.push_str(&entry.text(false));
            } else if report.shows(entry.severity) {
                shown.push_str(&entry.text(true));
            }
        }
        if !shown.is_empty() {
            eprint!("{shown}");
        }
        errors
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_read_tritons_list() {
        assert_eq!(Report::parse(""), Report::default());
        let all = Report::parse("remarks,operations,stacktraces,warnings");
        assert!(all.warnings && all.remarks && all.operations && all.stack_traces);
        assert_eq!(Report::parse(&all.to_list()), all);
        let remarks = Report::parse("remarks, bogus");
        assert!(remarks.shows(DiagnosticSeverity::Warning));
        assert!(remarks.shows(DiagnosticSeverity::Remark));
        assert!(!remarks.operations);
        let warnings = Report::parse("warnings");
        assert!(warnings.shows(DiagnosticSeverity::Warning));
        assert!(!warnings.shows(DiagnosticSeverity::Remark));
        assert!(!Report::default().shows(DiagnosticSeverity::Warning));
    }

    #[test]
    fn snippets_put_a_caret_under_the_column() {
        let dir = std::env::temp_dir().join(format!("tt-snippet-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("k.py");
        std::fs::write(&file, "a = 1\n    c = tl.dot(a, b)\n").unwrap();
        let at = FileLoc {
            file: file.to_string_lossy().into_owned(),
            line: 2,
            column: 11,
        };
        assert_eq!(
            snippet(&at).as_deref(),
            Some("    c = tl.dot(a, b)\n          ^\n")
        );
        let past = FileLoc { line: 9, ..at };
        assert_eq!(snippet(&past), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
