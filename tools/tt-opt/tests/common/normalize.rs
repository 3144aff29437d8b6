//! Canonical form of printed MLIR text, so that Triton's dumps and tt-opt's
//! output can be compared without caring about names MLIR picks freely.
//!
//! [`normalize`] applies, in order:
//! 1. alias inlining: every top-level definition line `#name = value` or
//!    `!name = value` (location aliases `#locN`, layout aliases `#blocked`,
//!    `#mma`, `#shared`, `#smem`, type aliases) is dropped and each use of the
//!    alias is replaced by its value, recursively;
//! 2. SSA value and block label renumbering: `%name` becomes `%vN` and
//!    `^name` becomes `^bN`, numbered in order of first appearance, with
//!    names scoped to the region (`{ ... }`) that defines them, so sibling
//!    regions that reuse a name in one text and not in the other still match;
//! 3. trailing whitespace is trimmed and blank lines are dropped.
//!
//! Text inside string literals is never rewritten.

use std::collections::HashMap;

/// Returns the canonical form of `text` (see the module documentation).
pub fn normalize(text: &str) -> String {
    let aliases = alias_table(text);
    let mut renumber = Renumberer::default();
    let mut out = String::with_capacity(text.len() * 2);
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() || alias_definition(line).is_some() {
            continue;
        }
        let inlined = inline_aliases(line, &aliases);
        out.push_str(&renumber.line(&inlined));
        out.push('\n');
    }
    out
}

/// Splits a top-level alias definition line into (name with sigil, value).
fn alias_definition(line: &str) -> Option<(&str, &str)> {
    let sigil = line.chars().next()?;
    if sigil != '#' && sigil != '!' {
        return None;
    }
    let len = identifier_len(&line[1..]);
    if len == 0 {
        return None;
    }
    let value = line[1 + len..].strip_prefix(" = ")?;
    Some((&line[..1 + len], value))
}

/// Length in bytes of the MLIR bare identifier `(letter|_)(letter|digit|_|$|.)*`
/// at the start of `s` (0 when `s` does not start with one).
fn identifier_len(s: &str) -> usize {
    let mut chars = s.char_indices();
    match chars.next() {
        Some((_, c)) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return 0,
    }
    chars
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.')))
        .map_or(s.len(), |(i, _)| i)
}

/// Length of the SSA/block suffix id `[A-Za-z0-9_$.-]+` at the start of `s`.
fn suffix_id_len(s: &str) -> usize {
    s.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-')))
        .unwrap_or(s.len())
}

/// All alias definitions of `text`, with their values fully inlined.
fn alias_table(text: &str) -> HashMap<String, String> {
    // A location alias `#l = loc(X)` stands for `X`: MLIR writes a location
    // inline as `loc(X)`, and nested in another location as plain `X`.
    let raw: HashMap<String, String> = text
        .lines()
        .filter_map(|l| alias_definition(l.trim_end()))
        .map(|(n, v)| {
            let v = v
                .strip_prefix("loc(")
                .and_then(|v| v.strip_suffix(')'))
                .unwrap_or(v);
            (n.to_string(), v.to_string())
        })
        .collect();
    let mut table = raw.clone();
    // Each round inlines one more level; alias chains in real dumps are a few
    // levels deep, and the bound stops a (malformed) cyclic definition.
    for _ in 0..64 {
        let next: HashMap<String, String> = table
            .iter()
            .map(|(n, v)| (n.clone(), inline_aliases(v, &raw)))
            .collect();
        if next == table {
            break;
        }
        table = next;
    }
    table
}

/// Calls `f(text, in_string)` on the successive runs of `s` outside and
/// inside double-quoted string literals (quotes belong to the string runs).
fn for_each_run(s: &str, mut f: impl FnMut(&str, bool)) {
    let bytes = s.as_bytes();
    let (mut start, mut i, mut in_string) = (0, 0, false);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' if !in_string => {
                f(&s[start..i], false);
                start = i;
                in_string = true;
            }
            b'"' => {
                f(&s[start..=i], true);
                start = i + 1;
                in_string = false;
            }
            _ => {}
        }
        i += 1;
    }
    f(&s[start.min(s.len())..], in_string);
}

/// Replaces each alias reference of `line` (outside strings) by its value.
fn inline_aliases(line: &str, aliases: &HashMap<String, String>) -> String {
    let mut out = String::with_capacity(line.len());
    for_each_run(line, |run, in_string| {
        if in_string {
            out.push_str(run);
            return;
        }
        let mut rest = run;
        while let Some(pos) = rest.find(['#', '!']) {
            out.push_str(&rest[..pos]);
            let len = 1 + identifier_len(&rest[pos + 1..]);
            let token = &rest[pos..pos + len];
            out.push_str(aliases.get(token).map_or(token, String::as_str));
            rest = &rest[pos + len..];
        }
        out.push_str(rest);
    });
    out
}

/// Scoped renaming of SSA values (`%`) and block labels (`^`), line by line.
#[derive(Default)]
struct Renumberer {
    /// One map per open region, outermost first; the top-level scope is
    /// created lazily.
    scopes: Vec<HashMap<String, String>>,
    next_value: usize,
    next_block: usize,
}

impl Renumberer {
    fn line(&mut self, line: &str) -> String {
        if self.scopes.is_empty() {
            self.scopes.push(HashMap::new());
        }
        let body = line.trim_start();
        if body.starts_with('}') && self.scopes.len() > 1 {
            self.scopes.pop();
        }
        // Results defined by this line belong to the enclosing region, even
        // when the line opens a region of its own.
        for name in result_names(body) {
            if !self.scopes.last().unwrap().contains_key(name) {
                let fresh = self.fresh(name);
                self.scopes
                    .last_mut()
                    .unwrap()
                    .insert(name.to_string(), fresh);
            }
        }
        if body.ends_with('{') {
            self.scopes.push(HashMap::new());
        }
        let mut out = String::with_capacity(line.len());
        for_each_run(line, |run, in_string| {
            if in_string {
                out.push_str(run);
                return;
            }
            let mut rest = run;
            while let Some(pos) = rest.find(['%', '^']) {
                out.push_str(&rest[..pos]);
                let len = 1 + suffix_id_len(&rest[pos + 1..]);
                let token = &rest[pos..pos + len];
                if len == 1 {
                    out.push_str(token);
                } else {
                    out.push_str(&self.lookup_or_define(token));
                }
                rest = &rest[pos + len..];
            }
            out.push_str(rest);
        });
        out
    }

    fn fresh(&mut self, name: &str) -> String {
        let counter = if name.starts_with('%') {
            &mut self.next_value
        } else {
            &mut self.next_block
        };
        *counter += 1;
        format!(
            "{}{}{}",
            &name[..1],
            if name.starts_with('%') { "v" } else { "b" },
            *counter - 1
        )
    }

    /// A use sees the innermost definition; a name not yet seen (a region or
    /// block argument, or a forward reference) is defined in the innermost
    /// open region.
    fn lookup_or_define(&mut self, name: &str) -> String {
        if let Some(found) = self.scopes.iter().rev().find_map(|s| s.get(name)) {
            return found.clone();
        }
        let fresh = self.fresh(name);
        self.scopes
            .last_mut()
            .unwrap()
            .insert(name.to_string(), fresh.clone());
        fresh
    }
}

/// The result names of an op line `%a, %b:2 = ...` (empty for other lines).
fn result_names(body: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = body;
    loop {
        let Some(after) = rest.strip_prefix('%') else {
            return Vec::new();
        };
        let len = suffix_id_len(after);
        if len == 0 {
            return Vec::new();
        }
        names.push(&rest[..1 + len]);
        rest = &after[len..];
        if let Some(r) = rest.strip_prefix(':') {
            rest = r.trim_start_matches(|c: char| c.is_ascii_digit());
        }
        if let Some(r) = rest.strip_prefix(", ") {
            rest = r;
        } else if rest.starts_with(" = ") {
            return names;
        } else {
            return Vec::new();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn renames_values_in_order_of_first_appearance() {
        let triton = "%pid = tt.get_program_id x : i32\n%offs = arith.muli %pid, %c : i32\n";
        let ours = "%0 = tt.get_program_id x : i32\n%1 = arith.muli %0, %c : i32\n";
        assert_eq!(normalize(triton), normalize(ours));
        assert_eq!(
            normalize(ours),
            "%v0 = tt.get_program_id x : i32\n%v1 = arith.muli %v0, %v2 : i32\n"
        );
    }

    #[test]
    fn different_dataflow_still_differs() {
        let a = "%a = arith.addi %x, %y : i32\n%b = arith.addi %a, %a : i32\n";
        let b = "%a = arith.addi %x, %y : i32\n%b = arith.addi %a, %x : i32\n";
        assert_ne!(normalize(a), normalize(b));
    }

    #[test]
    fn sibling_regions_may_reuse_names() {
        // Triton names the two reduce regions' arguments differently, MLIR's
        // numbering reuses %arg1/%arg2 in both regions.
        let triton = "\
tt.func @f(%x: tensor<4xf32>) {
  %m = \"tt.reduce\"(%x) ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.maxf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<4xf32>) -> f32
  %n = \"tt.reduce\"(%x) ({
  ^bb0(%c: f32, %d: f32):
    %t = arith.addf %c, %d : f32
    tt.reduce.return %t : f32
  }) : (tensor<4xf32>) -> f32
  tt.return %m, %n
}
";
        let ours = triton
            .replace("%a", "%arg1")
            .replace("%b", "%arg2")
            .replace("%c", "%arg1")
            .replace("%d", "%arg2")
            .replace("%s", "%0")
            .replace("%t", "%0")
            .replace("%m", "%0")
            .replace("%n", "%1")
            .replace("%x", "%arg0");
        assert_eq!(normalize(triton), normalize(&ours));
    }

    #[test]
    fn results_of_region_ops_stay_visible_after_the_region() {
        let text = "\
%r:2 = scf.for %i = %lo to %hi step %st iter_args(%a = %x, %b = %y) -> (i32, i32) {
  scf.yield %b, %a : i32, i32
}
%z = arith.addi %r#0, %r#1 : i32
";
        let n = normalize(text);
        assert!(n.contains("%v0:2 = scf.for %v1 = %v2 to"), "{n}");
        assert!(n.contains("%v9 = arith.addi %v0#0, %v0#1 : i32"), "{n}");
    }

    #[test]
    fn inlines_location_aliases_recursively_and_drops_definitions() {
        let text = "\
#loc = loc(\"k.py\":1:0)
module {
  %0 = arith.constant 1 : i32 loc(#loc2)
} loc(#loc)
#loc1 = loc(\"k.py\":2:3)
#loc2 = loc(\"pid\"(#loc1))
";
        assert_eq!(
            normalize(text),
            "module {\n  %v0 = arith.constant 1 : i32 loc(\"pid\"(\"k.py\":2:3))\n} loc(\"k.py\":1:0)\n"
        );
    }

    #[test]
    fn inline_and_aliased_locations_compare_equal() {
        let aliased = "#loc = loc(\"k.py\":1:0)\n#loc1 = loc(\"x\"(#loc))\n%0 = f loc(#loc1)\n";
        let inline = "%0 = f loc(\"x\"(\"k.py\":1:0))\n";
        assert_eq!(normalize(aliased), normalize(inline));
    }

    #[test]
    fn alias_names_differing_between_printers_compare_equal() {
        let a = "#blocked = #ttg.blocked<{order = [0]}>\n#blocked1 = #ttg.slice<{dim = 0, parent = #blocked}>\n%0 = f : tensor<4xi32, #blocked1>\n";
        let b = "#blocked1 = #ttg.blocked<{order = [0]}>\n#blocked = #ttg.slice<{dim = 0, parent = #blocked1}>\n%0 = f : tensor<4xi32, #blocked>\n";
        assert_eq!(normalize(a), normalize(b));
        assert!(
            normalize(a).contains("#ttg.slice<{dim = 0, parent = #ttg.blocked<{order = [0]}>}>")
        );
    }

    #[test]
    fn does_not_touch_strings_dialect_attributes_or_result_numbers() {
        let text = "tt.print \" %x #loc \" : %x loc(\"a#loc\"(#loc))\n%y = tt.use %z#1 {k = #ttg.shared_memory}\n";
        let n = normalize(&format!("#loc = loc(unknown)\n{text}"));
        assert_eq!(
            n,
            "tt.print \" %x #loc \" : %v0 loc(\"a#loc\"(unknown))\n%v1 = tt.use %v2#1 {k = #ttg.shared_memory}\n"
        );
    }

    #[test]
    fn type_aliases_are_inlined() {
        let n = normalize("!t = !tt.ptr<f16, 3>\n%0 = f : !t\n");
        assert_eq!(n, "%v0 = f : !tt.ptr<f16, 3>\n");
    }

    #[test]
    fn block_labels_are_renumbered() {
        let a = "cf.br ^bb3(%x : i32)\n^bb3(%y: i32):\n";
        let b = "cf.br ^bb1(%x : i32)\n^bb1(%z: i32):\n";
        assert_eq!(normalize(a), normalize(b));
    }
}
