//! Diagnostics the MLIR C API cannot emit: a warning with notes attached
//! (the C API only has `mlirEmitError`).

use melior::ir::Location;
use melior::StringRef;
use mlir_sys::{MlirLocation, MlirStringRef};

/// Emits `message` as a warning at `location`, with one note per entry of
/// `notes` (its location and text), as MLIR's `emitWarning(...).attachNote`.
pub fn emit_warning_with_notes(location: Location, message: &str, notes: &[(Location, String)]) {
    let note_locations: Vec<MlirLocation> = notes.iter().map(|(loc, _)| loc.to_raw()).collect();
    let note_messages: Vec<MlirStringRef> = notes
        .iter()
        .map(|(_, text)| StringRef::new(text).to_raw())
        .collect();
    // SAFETY: the locations are live, and every string (and both arrays)
    // outlives the call, which copies the texts into the diagnostic.
    unsafe {
        crate::ffi::ttgEmitWarningWithNotes(
            location.to_raw(),
            StringRef::new(message).to_raw(),
            note_locations.as_ptr(),
            note_messages.as_ptr(),
            notes.len() as isize,
        );
    }
}
