//! The recursion check that `inline` runs before MLIR's inliner.
//!
//! Triton inlines every `tt.call` whose callee is not `noinline`. MLIR's
//! inliner quietly leaves a recursive call in place, which would reach the
//! GPU lowering as an unbounded call chain; Triton's frontend forbids
//! recursion. So `inline` first checks that the calls it may inline form no
//! cycle, and rejects a cycle with an error at the call that closes it,
//! naming the chain. Calls to `noinline` functions are not inlined and may
//! recurse.

use std::collections::HashMap;

use melior::ir::{
    attribute::{FlatSymbolRefAttribute, StringAttribute},
    operation::{OperationLike, OperationRef},
    BlockLike, RegionLike,
};

use crate::rust_pass::{collect_ops, fail, PassResult, RustPass};

/// The check, run by the `inline` entry of the registry before MLIR's
/// `inline` pass.
pub static RECURSION_CHECK: RustPass = RustPass {
    name: "TritonInlinerRecursionCheck",
    argument: "triton-inliner-recursion-check",
    description: "Reject recursion among the tt.call ops the inliner would inline",
    anchor: "builtin.module",
    run,
};

struct Function<'c, 'a> {
    /// The calls it makes to inlinable functions: (call, callee index).
    calls: Vec<(OperationRef<'c, 'a>, usize)>,
}

fn run(module: OperationRef) -> PassResult {
    let Ok(body) = module.region(0) else {
        return Ok(());
    };
    let Some(block) = body.first_block() else {
        return Ok(());
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
    Ok(())
}

fn symbol_name(func: OperationRef) -> String {
    func.attribute("sym_name")
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_owned())
        .unwrap_or_default()
}

fn is_noinline(func: OperationRef) -> bool {
    func.attribute("noinline")
        .ok()
        .and_then(tt_dialect::ir::bool_value)
        == Some(true)
}
