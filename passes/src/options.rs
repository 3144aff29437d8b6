//! Pass options: `key=value` pairs separated by whitespace, as written in
//! `canonicalize{max-iterations=2 top-down=false}` or
//! `tt-opt --canonicalize='max-iterations=2'`.
//!
//! A value may be quoted (`'...'` or `"..."`) or braced (`{...}`, for
//! nested pipelines); braces nest and quotes protect spaces.

use std::fmt::{self, Display, Formatter};

/// Parsed `key=value` options of one pass, in the order written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassOptions {
    pairs: Vec<(String, String)>,
}

impl PassOptions {
    /// Parses `text`: whitespace-separated `key=value` pairs.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut pairs = Vec::new();
        let mut rest = text.trim_start();
        while !rest.is_empty() {
            let key_end = rest
                .find(|c: char| c == '=' || c.is_whitespace())
                .unwrap_or(rest.len());
            let key = &rest[..key_end];
            if key.is_empty() {
                return Err(format!("expected an option name before '{rest}'"));
            }
            if !rest[key_end..].starts_with('=') {
                return Err(format!("option '{key}' needs a value: write '{key}=VALUE'"));
            }
            rest = &rest[key_end + 1..];
            let value_end = value_end(rest).map_err(|e| format!("option '{key}': {e}"))?;
            let value = &rest[..value_end];
            if value.is_empty() {
                return Err(format!("option '{key}' has an empty value"));
            }
            pairs.push((key.to_owned(), value.to_owned()));
            rest = rest[value_end..].trim_start();
        }
        Ok(Self { pairs })
    }

    /// The options as `(key, value)` pairs, in the order written.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.pairs
    }

    /// The last value given for `key`, unquoted.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| unquote(v))
    }

    /// The boolean option `key` (`true`/`1` or `false`/`0`), `default` when
    /// it is not given.
    pub fn flag(&self, key: &str, default: bool) -> Result<bool, String> {
        match self.get(key) {
            None => Ok(default),
            Some("true") | Some("1") => Ok(true),
            Some("false") | Some("0") => Ok(false),
            Some(other) => Err(format!(
                "invalid value '{other}' for option '{key}': expected true or false"
            )),
        }
    }

    /// The integer option `key`, `default` when it is not given.
    pub fn int(&self, key: &str, default: i64) -> Result<i64, String> {
        match self.get(key) {
            None => Ok(default),
            Some(text) => text.parse().map_err(|_| {
                format!("invalid value '{text}' for option '{key}': expected an integer")
            }),
        }
    }

    /// Whether no option was given.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

/// Prints the options back as `key=value key=value`.
impl Display for PassOptions {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result {
        for (i, (key, value)) in self.pairs.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{key}={value}")?;
        }
        Ok(())
    }
}

fn unquote(value: &str) -> &str {
    for q in ['\'', '"'] {
        if let Some(inner) = value.strip_prefix(q).and_then(|v| v.strip_suffix(q)) {
            return inner;
        }
    }
    value
}

/// The byte length of the value at the start of `text`: up to the first
/// whitespace outside quotes and braces.
fn value_end(text: &str) -> Result<usize, String> {
    let mut depth = 0usize;
    let mut quote = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '{') => depth += 1,
            (None, '}') if depth == 0 => return Err("unbalanced '}'".into()),
            (None, '}') => depth -= 1,
            (None, c) if c.is_whitespace() && depth == 0 => return Ok(i),
            _ => {}
        }
    }
    match (quote, depth) {
        (Some(q), _) => Err(format!("unterminated {q} quote")),
        (None, 0) => Ok(text.len()),
        (None, _) => Err("unbalanced '{'".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_take_true_false_one_zero_or_the_default() {
        let o = PassOptions::parse("a=true b=0 c=maybe").unwrap();
        assert_eq!(o.flag("a", false), Ok(true));
        assert_eq!(o.flag("b", true), Ok(false));
        assert_eq!(o.flag("absent", true), Ok(true));
        assert_eq!(
            o.flag("c", false),
            Err("invalid value 'maybe' for option 'c': expected true or false".to_owned())
        );
    }

    #[test]
    fn parses_pairs_in_order() {
        let o = PassOptions::parse("  max-iterations=2   top-down=false ").unwrap();
        assert_eq!(
            o.pairs(),
            [
                ("max-iterations".to_owned(), "2".to_owned()),
                ("top-down".to_owned(), "false".to_owned())
            ]
        );
        assert_eq!(o.get("top-down"), Some("false"));
        assert_eq!(o.get("missing"), None);
        assert_eq!(o.to_string(), "max-iterations=2 top-down=false");
        assert!(PassOptions::parse("").unwrap().is_empty());
    }

    #[test]
    fn quoted_and_braced_values_keep_spaces() {
        let o = PassOptions::parse("a='x y' b={cse, canonicalize{top-down=1}} c=\"q\"").unwrap();
        assert_eq!(o.get("a"), Some("x y"));
        assert_eq!(o.get("b"), Some("{cse, canonicalize{top-down=1}}"));
        assert_eq!(o.get("c"), Some("q"));
    }

    #[test]
    fn rejects_malformed_options() {
        assert_eq!(
            PassOptions::parse("top-down").unwrap_err(),
            "option 'top-down' needs a value: write 'top-down=VALUE'"
        );
        assert_eq!(
            PassOptions::parse("a=").unwrap_err(),
            "option 'a' has an empty value"
        );
        assert_eq!(
            PassOptions::parse("a='x").unwrap_err(),
            "option 'a': unterminated ' quote"
        );
        assert_eq!(
            PassOptions::parse("a={x").unwrap_err(),
            "option 'a': unbalanced '{'"
        );
        assert_eq!(
            PassOptions::parse("=3").unwrap_err(),
            "expected an option name before '=3'"
        );
    }
}
