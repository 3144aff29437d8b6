//! Textual pass pipelines: `builtin.module(canonicalize,cse,tt.func(cse))`.
//!
//! Grammar (whitespace is allowed between tokens):
//!
//! ```text
//! pipeline := op-name '(' [element (',' element)*] ')'
//! element  := pass-name ['{' options '}'] | pipeline
//! ```
//!
//! [`parse`] is pure Rust; [`Pipeline::build`] turns the result into a
//! [`PassManager`], looking every pass up in the [registry](crate::registry)
//! and nesting pass managers with `nested_under`.

use melior::{
    pass::{OperationPassManager, PassManager},
    Context, StringRef,
};

use crate::{options::PassOptions, registry};

/// A pass manager on `op` ops and what it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pipeline {
    /// The op the pass manager runs on, e.g. `builtin.module`.
    pub op: String,
    /// Its passes and nested pipelines, in order.
    pub elements: Vec<Element>,
}

/// One entry of a [`Pipeline`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Element {
    /// A pass with its raw option text (what was between the braces).
    Pass { name: String, options: String },
    /// A nested pass manager.
    Nested(Pipeline),
}

impl std::fmt::Display for Pipeline {
    /// The pipeline's text, as [`parse`] reads it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}(", self.op)?;
        for (i, element) in self.elements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{element}")?;
        }
        f.write_str(")")
    }
}

impl std::fmt::Display for Element {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Element::Pass { name, options } if options.is_empty() => f.write_str(name),
            Element::Pass { name, options } => write!(f, "{name}{{{options}}}"),
            Element::Nested(pipeline) => write!(f, "{pipeline}"),
        }
    }
}

/// The elements of `builtin.module(elements)` one by one, each a pipeline
/// element's text, with named pipelines (the stages, `make-ttgir{...}`)
/// replaced by the elements they run: what the pass manager runs, in order.
pub fn expand(elements: &str) -> Result<Vec<String>, String> {
    let pipeline = parse(&format!("builtin.module({elements})"))?;
    let mut out = Vec::new();
    for element in &pipeline.elements {
        match element {
            Element::Pass { name, options } => match registry::lookup(name)?.kind {
                registry::PassKind::Pipeline(factory) => {
                    let options =
                        PassOptions::parse(options).map_err(|e| format!("pass '{name}': {e}"))?;
                    out.extend(expand(&factory(&options)?)?);
                }
                _ => out.push(element.to_string()),
            },
            Element::Nested(_) => out.push(element.to_string()),
        }
    }
    Ok(out)
}

/// Parses a whole pipeline; trailing text is an error.
pub fn parse(text: &str) -> Result<Pipeline, String> {
    let mut parser = Parser { text, pos: 0 };
    let name = parser.name()?;
    let pipeline = parser.pipeline_body(name)?;
    parser.skip_space();
    if parser.pos < text.len() {
        return Err(parser.error("unexpected text after the pipeline"));
    }
    Ok(pipeline)
}

/// A pass manager anchored on `op` ops (`builtin.module` for a module).
pub fn new_pass_manager<'c>(context: &'c Context, op: &str) -> PassManager<'c> {
    unsafe {
        PassManager::from_raw(mlir_sys::mlirPassManagerCreateOnOperation(
            context.to_raw(),
            StringRef::new(op).to_raw(),
        ))
    }
}

impl Pipeline {
    /// A pass manager on [`Pipeline::op`] running this pipeline.
    pub fn build<'c>(&self, context: &'c Context) -> Result<PassManager<'c>, String> {
        let manager = new_pass_manager(context, &self.op);
        add_elements(
            manager.as_operation_pass_manager(),
            &self.op,
            &self.elements,
        )?;
        Ok(manager)
    }
}

/// Adds `elements` to `manager`, a pass manager on `op` ops.
pub fn add_elements(
    manager: OperationPassManager,
    op: &str,
    elements: &[Element],
) -> Result<(), String> {
    for element in elements {
        match element {
            Element::Pass { name, options } => {
                let info = registry::lookup(name)?;
                let options =
                    PassOptions::parse(options).map_err(|e| format!("pass '{name}': {e}"))?;
                info.add_to(manager, op, &options)?;
            }
            Element::Nested(nested) if nested.op == "any" => {
                // MLIR schedules an op-agnostic pass manager only on the
                // ops every pass in it can run on: one that holds passes
                // anchored on X runs on the nested X ops, as an X pass
                // manager would; one that holds passes for different ops
                // runs nowhere (its passes are still checked).
                match any_anchor(&nested.elements)? {
                    Some(Some(anchor)) => {
                        add_elements(manager.nested_under(&anchor), &anchor, &nested.elements)?
                    }
                    Some(None) => {
                        add_elements(manager.nested_under("any"), "any", &nested.elements)?
                    }
                    None => {}
                }
            }
            Element::Nested(nested) => add_elements(
                manager.nested_under(&nested.op),
                &nested.op,
                &nested.elements,
            )?,
        }
    }
    Ok(())
}

/// What the passes directly in an `any(...)` pass manager are anchored on:
/// `Some(None)` when none is anchored, `Some(Some(op))` when all anchored
/// ones share `op`, `None` when they need different ops. Unknown passes and
/// bad options are errors.
fn any_anchor(elements: &[Element]) -> Result<Option<Option<String>>, String> {
    let mut anchor: Option<&str> = None;
    let mut conflict = false;
    for element in elements {
        if let Element::Pass { name, options } = element {
            let info = registry::lookup(name)?;
            PassOptions::parse(options).map_err(|e| format!("pass '{name}': {e}"))?;
            match (anchor, info.anchor) {
                (_, None) => {}
                (None, Some(a)) => anchor = Some(a),
                (Some(a), Some(b)) => conflict |= a != b,
            }
        }
    }
    Ok((!conflict).then(|| anchor.map(str::to_owned)))
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> String {
        format!("invalid pass pipeline at offset {}: {message}", self.pos)
    }

    fn skip_space(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.text[self.pos..].chars().next()
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected '{c}'")))
        }
    }

    fn name(&mut self) -> Result<String, String> {
        self.skip_space();
        let rest = &self.text[self.pos..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || "_.-$".contains(c)))
            .unwrap_or(rest.len());
        if len == 0 {
            return Err(self.error("expected a pass or op name"));
        }
        self.pos += len;
        Ok(rest[..len].to_owned())
    }

    /// Parses `'(' elements ')'` after the op name.
    fn pipeline_body(&mut self, op: String) -> Result<Pipeline, String> {
        self.expect('(')?;
        let mut elements = Vec::new();
        if self.peek() == Some(')') {
            self.pos += 1;
            return Ok(Pipeline { op, elements });
        }
        loop {
            let name = self.name()?;
            let element = match self.peek() {
                Some('(') => Element::Nested(self.pipeline_body(name)?),
                Some('{') => Element::Pass {
                    name,
                    options: self.braced()?,
                },
                _ => Element::Pass {
                    name,
                    options: String::new(),
                },
            };
            elements.push(element);
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(')') => {
                    self.pos += 1;
                    return Ok(Pipeline { op, elements });
                }
                _ => return Err(self.error("expected ',' or ')'")),
            }
        }
    }

    /// Parses `'{' ... '}'` with nested braces and quotes; returns the inside.
    fn braced(&mut self) -> Result<String, String> {
        let start = self.pos + 1;
        let mut depth = 0usize;
        let mut quote = None;
        for (i, c) in self.text[self.pos..].char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '\'' | '"') => quote = Some(c),
                (None, '{') => depth += 1,
                (None, '}') => {
                    depth -= 1;
                    if depth == 0 {
                        let end = self.pos + i;
                        self.pos = end + 1;
                        return Ok(self.text[start..end].to_owned());
                    }
                }
                _ => {}
            }
        }
        Err(self.error("unterminated '{'"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::new_context;

    fn pass(name: &str, options: &str) -> Element {
        Element::Pass {
            name: name.into(),
            options: options.into(),
        }
    }

    #[test]
    fn parses_nested_pipelines_with_options() {
        let p = parse(
            " builtin.module( canonicalize , cse,tt.func(canonicalize{max-iterations=2}, cse) )",
        )
        .unwrap();
        assert_eq!(
            p,
            Pipeline {
                op: "builtin.module".into(),
                elements: vec![
                    pass("canonicalize", ""),
                    pass("cse", ""),
                    Element::Nested(Pipeline {
                        op: "tt.func".into(),
                        elements: vec![pass("canonicalize", "max-iterations=2"), pass("cse", "")],
                    }),
                ],
            }
        );
    }

    #[test]
    fn pipelines_print_back_and_stages_expand_into_their_passes() {
        let text = "builtin.module(canonicalize{max-iterations=2},tt.func(cse),symbol-dce)";
        assert_eq!(parse(text).unwrap().to_string(), text);
        let passes = expand("cse,make-ttir{target=cuda:90}").unwrap();
        assert_eq!(passes[0], "cse");
        assert_eq!(
            passes[1..],
            crate::stages::make_ttir(&PassOptions::parse("target=cuda:90").unwrap())
                .unwrap()
                .split(',')
                .collect::<Vec<_>>()[..]
        );
        assert!(expand("no-such-pass").is_err());
    }

    #[test]
    fn options_keep_nested_braces_and_quotes() {
        let p =
            parse("builtin.module(inline{default-pipeline='canonicalize{a=1}' op-pipelines={x}})")
                .unwrap();
        assert_eq!(
            p.elements,
            [pass(
                "inline",
                "default-pipeline='canonicalize{a=1}' op-pipelines={x}"
            )]
        );
    }

    #[test]
    fn empty_pipeline() {
        let p = parse("builtin.module()").unwrap();
        assert!(p.elements.is_empty());
    }

    #[test]
    fn reports_syntax_errors_with_offsets() {
        assert_eq!(
            parse("builtin.module").unwrap_err(),
            "invalid pass pipeline at offset 14: expected '('"
        );
        assert_eq!(
            parse("builtin.module(cse").unwrap_err(),
            "invalid pass pipeline at offset 18: expected ',' or ')'"
        );
        assert_eq!(
            parse("builtin.module(cse,)").unwrap_err(),
            "invalid pass pipeline at offset 19: expected a pass or op name"
        );
        assert_eq!(
            parse("builtin.module(cse{a=1)").unwrap_err(),
            "invalid pass pipeline at offset 18: unterminated '{'"
        );
        assert_eq!(
            parse("builtin.module(cse) x").unwrap_err(),
            "invalid pass pipeline at offset 20: unexpected text after the pipeline"
        );
    }

    #[test]
    fn builds_nested_pass_managers() {
        let context = new_context(false);
        let p = parse("builtin.module(cse,tt.func(canonicalize{max-iterations=2}))").unwrap();
        assert!(p.build(&context).is_ok());
        let unknown = parse("builtin.module(tt.func(canonicalise))").unwrap();
        assert_eq!(
            unknown.build(&context).err().unwrap(),
            "unknown pass 'canonicalise'; did you mean 'canonicalize'?"
        );
        let bad_option = parse("builtin.module(cse{x})").unwrap();
        assert_eq!(
            bad_option.build(&context).err().unwrap(),
            "pass 'cse': option 'x' needs a value: write 'x=VALUE'"
        );
    }
}
