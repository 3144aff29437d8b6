//! The input buffer: reading it (file or stdin) and cutting it into
//! `--split-input-file` chunks that keep the original line numbers.

use std::io::Read;

/// The line that separates chunks under `--split-input-file`, and that
/// joins their outputs.
pub const SPLIT_MARKER: &str = "// -----";

/// A named input buffer.
pub struct Source {
    /// The name locations carry: the path, or `<stdin>`.
    pub name: String,
    /// The whole text.
    pub text: String,
}

impl Source {
    /// Reads `path` (`None` or `-` for stdin). Errors are complete
    /// messages, with a location for invalid UTF-8.
    pub fn read(path: Option<&str>) -> Result<Self, String> {
        let (name, bytes) = match path {
            None | Some("-") => {
                let mut bytes = Vec::new();
                std::io::stdin()
                    .read_to_end(&mut bytes)
                    .map_err(|e| format!("tt-opt: error: cannot read standard input: {e}"))?;
                ("<stdin>".to_owned(), bytes)
            }
            Some(path) => {
                let bytes = std::fs::read(path)
                    .map_err(|e| format!("tt-opt: error: cannot read '{path}': {e}"))?;
                (path.to_owned(), bytes)
            }
        };
        match String::from_utf8(bytes) {
            Ok(text) => Ok(Self { name, text }),
            Err(e) => {
                let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
                let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
                let column = valid.len() - line_start + 1;
                Err(format!(
                    "{name}:{line}:{column}: error: invalid UTF-8 in the input (byte offset {})",
                    valid.len()
                ))
            }
        }
    }

    /// The text of 1-based `line`, without its line break.
    pub fn line(&self, line: usize) -> Option<&str> {
        let text = self.text.lines().nth(line.checked_sub(1)?)?;
        Some(text.strip_suffix('\r').unwrap_or(text))
    }
}

/// Cuts `text` at lines that start with [`SPLIT_MARKER`]. Each chunk is
/// padded with leading newlines so that its line numbers are those of the
/// original text.
pub fn split(text: &str) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut current = String::new();
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if line.starts_with(SPLIT_MARKER) {
            chunks.push(std::mem::take(&mut current));
            current = "\n".repeat(index + 1);
        } else {
            current.push_str(line);
        }
    }
    chunks.push(current);
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_keep_line_numbers() {
        let chunks = split("a\nb\n// -----\nc\n// ----- tail\n\nd");
        assert_eq!(chunks, ["a\nb\n", "\n\n\nc\n", "\n\n\n\n\n\nd"]);
        assert_eq!(chunks[1].lines().nth(3), Some("c"));
        assert_eq!(chunks[2].lines().nth(6), Some("d"));
    }

    #[test]
    fn no_marker_is_one_chunk() {
        assert_eq!(split("x\n// ---\n"), ["x\n// ---\n"]);
        assert_eq!(split(""), [""]);
    }

    #[test]
    fn lines_are_one_based() {
        let source = Source {
            name: "f".into(),
            text: "one\r\ntwo\n".into(),
        };
        assert_eq!(source.line(1), Some("one"));
        assert_eq!(source.line(2), Some("two"));
        assert_eq!(source.line(0), None);
        assert_eq!(source.line(3), None);
    }

    #[test]
    fn invalid_utf8_is_located() {
        let dir = std::env::temp_dir().join(format!("tt-opt-utf8-{}", std::process::id()));
        std::fs::write(&dir, b"ok\nab\xffc\n").unwrap();
        let path = dir.to_str().unwrap();
        let err = Source::read(Some(path)).err().unwrap();
        std::fs::remove_file(&dir).unwrap();
        assert_eq!(
            err,
            format!("{path}:2:3: error: invalid UTF-8 in the input (byte offset 5)")
        );
    }
}
