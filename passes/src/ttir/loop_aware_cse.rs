//! `triton-loop-aware-cse`: common sub-expression elimination that also
//! merges the iter args of an `scf.for` that always hold the same value.
//!
//! Two iter args are the same when they start from the same value and the
//! values they yield are equal inside the loop body: the same value, or
//! results at the same position of two equivalent memory-effect-free ops
//! without regions whose operands are equal in turn, or iter args that are
//! the same. The question recurses through iter args; a pair already being
//! asked about is assumed equal, which is what lets a loop-carried cycle
//! prove itself.
//!
//! The pass runs as Triton's does: CSE over the module (so equal values
//! from outside loops are the same SSA value), then the iter-arg merging in
//! every loop (innermost first: each later arg of a class of equal args is
//! replaced by the first, its yield short-circuited to itself and its
//! result replaced by the first's), CSE again to merge the now identical
//! bodies, and finally the `scf.for` canonicalization patterns through
//! MLIR's greedy driver (which also folds and removes dead ops) to drop the
//! short-circuited iter args.

use melior::ir::operation::OperationRef;
use mlir_sys::{MlirOperation, MlirValue};
use tt_dialect::rewrite::{apply_greedily, Greedy};

use super::loop_support::cse::{eliminate_common_subexpressions, ops_equivalent};
use super::loop_support::{effects, ir, scf};
use crate::rust_pass::{fail, PassResult, RustPass};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonLoopAwareCSE",
    argument: "triton-loop-aware-cse",
    description: "CSE that also merges scf.for iter args that always hold the same value",
    anchor: "builtin.module",
    run,
};

fn run(module: OperationRef) -> PassResult {
    let raw = module.to_raw();
    eliminate_common_subexpressions(raw);
    for lp in ir::collect_post(raw, &|op| ir::is(op, "scf.for")) {
        if !scf::is_well_formed_for(lp) {
            let at = unsafe { OperationRef::from_raw(lp) };
            return Err(fail(
                at,
                "cannot merge the iter args of a malformed scf.for",
            ));
        }
        merge_equal_iter_args(lp);
    }
    eliminate_common_subexpressions(raw);
    if !apply_greedily(module, &scf::FOR_CANONICALIZATION, Greedy::default()) {
        return Err(fail(
            module,
            "the scf.for canonicalization did not converge",
        ));
    }
    Ok(())
}

/// Decides which iter args of one loop are equal.
struct LoopEquality {
    lp: MlirOperation,
    body: mlir_sys::MlirBlock,
    iv: MlirValue,
    inits: Vec<MlirValue>,
    yielded: Vec<MlirValue>,
    /// The pairs of iter args being compared, assumed equal meanwhile.
    assumed: Vec<(usize, usize)>,
}

impl LoopEquality {
    fn new(lp: MlirOperation) -> Self {
        Self {
            lp,
            body: scf::body(lp),
            iv: scf::induction_var(lp),
            inits: scf::init_args(lp),
            yielded: scf::yielded_values(lp),
            assumed: Vec::new(),
        }
    }

    fn iter_args_equal(&mut self, i: usize, j: usize) -> bool {
        if i == j {
            return true;
        }
        if !ir::same_value(self.inits[i], self.inits[j]) {
            return false;
        }
        if self.assumed.contains(&(i, j)) {
            return true;
        }
        self.assumed.push((i, j));
        let equal = self.equal_in_loop(self.yielded[i], self.yielded[j]);
        self.assumed.pop();
        equal
    }

    fn equal_in_loop(&mut self, a: MlirValue, b: MlirValue) -> bool {
        if ir::same_value(a, b) {
            return true;
        }
        if !ir::same_type(ir::value_type(a), ir::value_type(b)) {
            return false;
        }
        // Values from outside the loop would have been the same value.
        if ir::value_block(a).ptr != self.body.ptr || ir::value_block(b).ptr != self.body.ptr {
            return false;
        }
        if ir::is_block_argument(a) != ir::is_block_argument(b) {
            return false;
        }
        if ir::same_value(a, self.iv) || ir::same_value(b, self.iv) {
            return false;
        }
        if ir::is_block_argument(a) {
            return self.iter_args_equal(ir::arg_number(a) - 1, ir::arg_number(b) - 1);
        }
        let (Some(a_def), Some(b_def)) = (ir::defining_op(a), ir::defining_op(b)) else {
            return false;
        };
        if ir::result_number(a) != ir::result_number(b) {
            return false;
        }
        if !effects::is_memory_effect_free(a_def) || !effects::is_memory_effect_free(b_def) {
            return false;
        }
        if ir::region_count(a_def) != 0 || ir::region_count(b_def) != 0 {
            return false;
        }
        ops_equivalent(
            a_def,
            b_def,
            &mut |x, y| self.equal_in_loop(x, y),
            &mut |_, _| {},
        )
    }
}

/// Union-find root of `i`.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

fn merge_equal_iter_args(lp: MlirOperation) {
    let count = scf::init_args(lp).len();
    let mut equality = LoopEquality::new(lp);
    let mut parent: Vec<usize> = (0..count).collect();
    let mut merged = vec![false; count];
    for i in 0..count {
        for j in i + 1..count {
            if equality.iter_args_equal(i, j) {
                let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                if ri != rj {
                    parent[ri.max(rj)] = ri.min(rj);
                }
                merged[i] = true;
                merged[j] = true;
            }
        }
    }
    let lp = equality.lp;
    let args = scf::region_iter_args(lp);
    let results = ir::results(lp);
    let Some(yield_op) = scf::yield_op(lp) else {
        return;
    };
    for j in 0..count {
        let first = root(&mut parent, j);
        if !merged[j] || first == j {
            continue;
        }
        // The smallest index of a class is its root, so `first < j`.
        ir::replace_all_uses(args[j], args[first]);
        // Short-circuit the merged arg; the canonicalization drops it.
        ir::set_operand(yield_op, j, args[j]);
        ir::replace_all_uses(results[j], results[first]);
    }
}
