//! "Did you mean" suggestions for misspelled pass, option and flag names.

/// The candidate closest to `name` by edit distance, if it is close enough
/// to be a plausible typo: at most a third of the name's length (two edits
/// are always allowed), and fewer edits than the candidate has characters.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, c)| d <= limit && d < c.chars().count())
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// `"; did you mean 'x'?"` when a close candidate exists, else `""`.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(name, candidates)
        .map(|c| format!("; did you mean '{c}'?"))
        .unwrap_or_default()
}

/// Levenshtein distance over chars.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance() {
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("cse", "cse"), 0);
    }

    #[test]
    fn suggests_only_close_names() {
        let names = ["canonicalize", "cse", "sccp"];
        assert_eq!(closest("canonicalise", names), Some("canonicalize"));
        assert_eq!(closest("csee", names), Some("cse"));
        assert_eq!(closest("loop-unroll", names), None);
        assert_eq!(closest("foo", ["o"]), None);
        assert_eq!(did_you_mean("scp", names), "; did you mean 'sccp'?");
        assert_eq!(did_you_mean("zzzzzzzz", names), "");
    }
}
