//! `inline`: MLIR's inliner, as Triton runs it, with a recursion check
//! before it and a shortcut when there is nothing to inline.
//!
//! Triton inlines every `tt.call` whose callee is not `noinline`. MLIR's
//! inliner quietly leaves a recursive call in place, which would reach the
//! GPU lowering as an unbounded call chain; Triton's frontend forbids
//! recursion. So `inline` first checks that the calls it may inline form no
//! cycle, and rejects a cycle with an error at the call that closes it,
//! naming the chain. Calls to `noinline` functions are not inlined and may
//! recurse.
//!
//! With its default options and no call it may inline, MLIR's inliner only
//! runs its default pipeline, `canonicalize`, on each function. It builds
//! that pipeline anew on every run, and the canonicalizer collects every
//! loaded dialect's patterns each time: a third of a millisecond, more than
//! the canonicalization of a typical kernel. When every function is a
//! `tt.func`, this pass then runs `tt.func(canonicalize)` itself, a
//! pipeline it keeps from one run to the next, with the same result.

use std::collections::HashMap;

use melior::ir::{
    attribute::FlatSymbolRefAttribute,
    operation::{OperationLike, OperationRef},
    BlockLike, RegionLike,
};
use melior::pass::Pass;

use crate::nested::NestedPipeline;
use crate::options::PassOptions;
use crate::rust_pass::{collect_ops, fail, Failure, PassResult, RustPass};

/// The pass with its default options.
pub static PASS: RustPass = RustPass {
    name: "Inliner",
    argument: "inline",
    description: "Inline function calls (recursion among inlinable calls is an error)",
    anchor: "builtin.module",
    run: |op| Inline::new(&PassOptions::default()).run(op),
};

/// Builds the pass; `options` are MLIR's inliner's. Options other than
/// the defaults are checked here, by MLIR, so that a bad value is an error
/// of the pipeline rather than of its first run.
pub fn factory(options: &PassOptions) -> Result<Pass, String> {
    if !options.is_empty() {
        let context = crate::context::new_context(false);
        let manager = crate::pipeline::new_pass_manager(&context, "builtin.module");
        crate::registry::add_upstream(manager.as_operation_pass_manager(), &inliner(options))?;
    }
    let inline = Inline::new(options);
    Ok(PASS.build_with(move |op| inline.run(op)))
}

/// The pipelines the pass chooses from, kept between runs.
#[derive(Clone)]
struct Inline {
    /// MLIR's inliner with the pass's options.
    inliner: NestedPipeline,
    /// What the inliner amounts to without calls to inline, when its
    /// options are the defaults.
    canonicalize: Option<NestedPipeline>,
}

impl Inline {
    fn new(options: &PassOptions) -> Self {
        Self {
            inliner: NestedPipeline::upstream(inliner(options)),
            canonicalize: options
                .is_empty()
                .then(|| NestedPipeline::new("builtin.module(tt.func(canonicalize))")),
        }
    }

    fn run(&self, module: OperationRef) -> PassResult {
        let inlinable_calls = check_recursion(module)?;
        let pipeline = match &self.canonicalize {
            Some(canonicalize) if inlinable_calls == 0 && only_tt_funcs(module) => canonicalize,
            _ => &self.inliner,
        };
        pipeline
            .run(module)
            .map_err(|e| fail(module, &format!("inline: {e}")))
    }
}

/// MLIR's inliner with `options`, as a pipeline element.
fn inliner(options: &PassOptions) -> String {
    if options.is_empty() {
        "inline".to_owned()
    } else {
        format!("inline{{{options}}}")
    }
}

/// Whether every op of the module's body with a region is a `tt.func`, the
/// only callables whose treatment by the inliner the shortcut reproduces.
fn only_tt_funcs(module: OperationRef) -> bool {
    let Some(block) = module.region(0).ok().and_then(|r| r.first_block()) else {
        return true;
    };
    std::iter::successors(block.first_operation(), |op| op.next_in_block())
        .all(|op| op.region_count() == 0 || tt_dialect::ir::is_op(op, "tt.func"))
}

struct Function<'c, 'a> {
    /// The calls it makes to inlinable functions: (call, callee index).
    calls: Vec<(OperationRef<'c, 'a>, usize)>,
}

/// Rejects recursion among the calls the inliner may inline; returns how
/// many such calls there are.
fn check_recursion(module: OperationRef) -> Result<usize, Failure> {
    let Ok(body) = module.region(0) else {
        return Ok(0);
    };
    let Some(block) = body.first_block() else {
        return Ok(0);
    };
    let funcs: Vec<OperationRef> =
        std::iter::successors(block.first_operation(), |op| op.next_in_block())
            .filter(|op| tt_dialect::ir::is_op(*op, "tt.func"))
            .map(|op| unsafe { OperationRef::from_raw(op.to_raw()) })
            .collect();
    let names: Vec<String> = funcs.iter().map(|f| symbol_name(*f)).collect();
    let index: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let graph: Vec<Function> = funcs
        .iter()
        .map(|f| Function {
            calls: collect_ops(*f, "tt.call")
                .into_iter()
                .filter_map(|call| {
                    let callee = call.attribute("callee").ok()?;
                    let callee = FlatSymbolRefAttribute::try_from(callee)
                        .ok()?
                        .value()
                        .to_owned();
                    let target = *index.get(callee.as_str())?;
                    (!is_noinline(funcs[target])).then_some((call, target))
                })
                .collect(),
        })
        .collect();

    // Depth-first search; a call to a function on the current path closes a
    // cycle.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    let mut marks = vec![Mark::New; graph.len()];
    let mut path: Vec<usize> = Vec::new();
    // Each frame: (function, next call to look at).
    for root in 0..graph.len() {
        if marks[root] != Mark::New {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        marks[root] = Mark::OnPath;
        path.push(root);
        while let Some(&mut (func, ref mut next)) = stack.last_mut() {
            if let Some(&(call, target)) = graph[func].calls.get(*next) {
                *next += 1;
                match marks[target] {
                    Mark::New => {
                        marks[target] = Mark::OnPath;
                        path.push(target);
                        stack.push((target, 0));
                    }
                    Mark::OnPath => {
                        let start = path.iter().position(|&f| f == target).unwrap_or(0);
                        let chain: Vec<String> = path[start..]
                            .iter()
                            .chain(std::iter::once(&target))
                            .map(|&f| format!("@{}", names[f]))
                            .collect();
                        return Err(fail(
                            call,
                            &format!(
                                "recursive call to @{} cannot be inlined (call chain {}); mark a function in the cycle 'noinline' or remove the recursion",
                                names[target],
                                chain.join(" -> ")
                            ),
                        ));
                    }
                    Mark::Done => {}
                }
            } else {
                marks[func] = Mark::Done;
                path.pop();
                stack.pop();
            }
        }
    }
    Ok(graph.iter().map(|f| f.calls.len()).sum())
}

fn symbol_name(func: OperationRef) -> String {
    func.attribute("sym_name")
        .ok()
        .and_then(tt_dialect::ir::string_value)
        .unwrap_or_default()
}

fn is_noinline(func: OperationRef) -> bool {
    func.attribute("noinline")
        .ok()
        .and_then(tt_dialect::ir::bool_value)
        == Some(true)
}
