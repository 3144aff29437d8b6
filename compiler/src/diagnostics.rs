//! MLIR diagnostics captured as text: `file:line:col: error: message`,
//! the form `mlir-opt` (and `tt-opt`) print, with notes on following lines.
//! MLIR itself prints nothing while a [`Capture`] is attached.

use std::{cell::RefCell, rc::Rc};

use melior::{
    diagnostic::{Diagnostic, DiagnosticSeverity},
    Context,
};
use tt_dialect::ir::file_loc;

/// The diagnostics of one context, in the order MLIR reported them.
#[derive(Clone, Default)]
pub struct Capture(Rc<RefCell<Vec<String>>>);

impl Capture {
    /// Routes every diagnostic of `context` into the returned capture.
    pub fn attach(context: &Context) -> Self {
        let capture = Self::default();
        let sink = capture.0.clone();
        context.attach_diagnostic_handler(move |diagnostic| {
            // Unwinding out of this callback would cross C++ frames: never.
            let text =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| render(&diagnostic)))
                    .unwrap_or_else(|_| {
                        "error: internal error: could not read a diagnostic".into()
                    });
            if let Ok(mut sink) = sink.try_borrow_mut() {
                sink.push(text);
            }
            true
        });
        capture
    }

    /// Everything captured so far, one diagnostic (with its notes) after
    /// the other; the capture is emptied.
    pub fn take(&self) -> String {
        self.0.borrow_mut().drain(..).collect()
    }
}

fn render(diagnostic: &Diagnostic) -> String {
    let label = match diagnostic.severity() {
        DiagnosticSeverity::Error => "error",
        DiagnosticSeverity::Warning => "warning",
        DiagnosticSeverity::Note => "note",
        DiagnosticSeverity::Remark => "remark",
    };
    let mut out = match file_loc(diagnostic.location()) {
        Some(loc) => format!("{loc}: {label}: {diagnostic}\n"),
        None => format!("{label}: {diagnostic}\n"),
    };
    for note in (0..diagnostic.note_count()).filter_map(|i| diagnostic.note(i).ok()) {
        // MLIR's dump of the failing op is noise in a compiler's message.
        if !note.to_string().starts_with("see current operation:") {
            out.push_str(&render(&note));
        }
    }
    out
}
