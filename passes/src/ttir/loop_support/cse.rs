//! Common sub-expression elimination with the semantics of MLIR's
//! `eliminateCommonSubExpressions` (the `cse` pass), in Rust.
//!
//! Regions are walked in dominance order with a scoped table of the ops
//! seen so far; an op equal to a visible one (same name, attributes,
//! operands and result types, equal single-block regions; locations do not
//! matter) has its uses redirected to the earlier op and is erased at the
//! end. Ops with memory effects take part only when all they do is read,
//! and then only against an earlier read in the same block with nothing
//! that may write in between. Trivially dead ops are erased on the way.
//! Ops that are isolated from above get a fresh table.
//!
//! [`ops_equivalent`] is MLIR's `OperationEquivalence::isEquivalentTo`
//! (ignoring locations), shared with the loop-aware CSE.

use std::cell::RefCell;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use mlir_sys::{MlirBlock, MlirOperation, MlirRegion, MlirValue};

use tt_dialect::ir::Trait;

use super::effects;
use super::ir::{self, Blk, Val};

/// Whether `op` may be isolated from above (MLIR's `mightHaveTrait`:
/// unregistered ops may be).
pub fn might_be_isolated(op: MlirOperation) -> bool {
    !ir::is_registered(op) || effects::has_trait(op, Trait::IsolatedFromAbove)
}

/// Whether values in `region` obey SSA dominance (false for graph regions,
/// such as a module's body).
fn has_ssa_dominance(region: MlirRegion) -> bool {
    let blocks = ir::blocks(region);
    let Some(first) = blocks.first() else {
        return true;
    };
    !ir::block_parent_op(*first).is_some_and(|op| ir::is(op, "builtin.module"))
}

/// MLIR's `OperationEquivalence::isEquivalentTo` with locations ignored:
/// `check` decides whether two differing operands are equivalent, `mark` is
/// told which results (and block arguments of nested regions) correspond.
pub fn ops_equivalent(
    lhs: MlirOperation,
    rhs: MlirOperation,
    check: &mut dyn FnMut(MlirValue, MlirValue) -> bool,
    mark: &mut dyn FnMut(MlirValue, MlirValue),
) -> bool {
    if lhs.ptr == rhs.ptr {
        return true;
    }
    if !unsafe {
        mlir_sys::mlirIdentifierEqual(
            mlir_sys::mlirOperationGetName(lhs),
            mlir_sys::mlirOperationGetName(rhs),
        )
    } || ir::region_count(lhs) != ir::region_count(rhs)
        || ir::successor_count(lhs) != ir::successor_count(rhs)
        || ir::operand_count(lhs) != ir::operand_count(rhs)
        || ir::result_count(lhs) != ir::result_count(rhs)
        || !same_attributes(lhs, rhs)
    {
        return false;
    }
    for (a, b) in ir::operands(lhs).into_iter().zip(ir::operands(rhs)) {
        if ir::same_value(a, b) {
            continue;
        }
        if !ir::same_type(ir::value_type(a), ir::value_type(b)) || !check(a, b) {
            return false;
        }
    }
    for (a, b) in ir::results(lhs).into_iter().zip(ir::results(rhs)) {
        if !ir::same_type(ir::value_type(a), ir::value_type(b)) {
            return false;
        }
        mark(a, b);
    }
    ir::regions(lhs)
        .into_iter()
        .zip(ir::regions(rhs))
        .all(|(l, r)| regions_equivalent(l, r, check, mark))
}

fn same_attributes(lhs: MlirOperation, rhs: MlirOperation) -> bool {
    ir::attribute_dictionary(lhs).ptr == ir::attribute_dictionary(rhs).ptr
}

fn regions_equivalent(
    lhs: MlirRegion,
    rhs: MlirRegion,
    check: &mut dyn FnMut(MlirValue, MlirValue) -> bool,
    mark: &mut dyn FnMut(MlirValue, MlirValue),
) -> bool {
    let (lblocks, rblocks) = (ir::blocks(lhs), ir::blocks(rhs));
    if lblocks.len() != rblocks.len() {
        return false;
    }
    let mut block_map: HashMap<Blk, Blk> = HashMap::new();
    let map_block = |l: MlirBlock, r: MlirBlock, map: &mut HashMap<Blk, Blk>| {
        *map.entry(Blk(l)).or_insert(Blk(r)) == Blk(r)
    };
    for (lb, rb) in lblocks.into_iter().zip(rblocks) {
        let (largs, rargs) = (ir::block_args(lb), ir::block_args(rb));
        if largs.len() != rargs.len() || !map_block(lb, rb, &mut block_map) {
            return false;
        }
        for (a, b) in largs.into_iter().zip(rargs) {
            if !ir::same_type(ir::value_type(a), ir::value_type(b)) {
                return false;
            }
            mark(a, b);
        }
        let (lops, rops) = (ir::block_ops(lb), ir::block_ops(rb));
        if lops.len() != rops.len() {
            return false;
        }
        for (lo, ro) in lops.into_iter().zip(rops) {
            if !ops_equivalent(lo, ro, check, mark) {
                return false;
            }
            for (ls, rs) in ir::successors(lo).into_iter().zip(ir::successors(ro)) {
                if !map_block(ls, rs, &mut block_map) {
                    return false;
                }
            }
        }
    }
    true
}

/// CSE's notion of equal ops (MLIR 22's `cse`): equivalent, with the
/// results and region arguments met along the way corresponding to each
/// other, so that equal regions compare equal however deeply they nest.
fn cse_equal(lhs: MlirOperation, rhs: MlirOperation) -> bool {
    if lhs.ptr == rhs.ptr {
        return true;
    }
    let equivalent: RefCell<HashMap<Val, Val>> = RefCell::new(HashMap::new());
    ops_equivalent(
        lhs,
        rhs,
        &mut |a, b| ir::same_value(a, b) || equivalent.borrow().get(&Val(a)) == Some(&Val(b)),
        &mut |a, b| {
            equivalent.borrow_mut().entry(Val(a)).or_insert(Val(b));
        },
    )
}

/// A hash consistent with [`cse_equal`]: name, attributes, result types
/// and operands.
fn cse_hash(op: MlirOperation) -> u64 {
    let mut hasher = DefaultHasher::new();
    // Operation names and dictionaries are uniqued: their addresses
    // identify them.
    unsafe { mlir_sys::mlirOperationGetName(op) }
        .ptr
        .hash(&mut hasher);
    ir::attribute_dictionary(op).ptr.hash(&mut hasher);
    for result in ir::results(op) {
        ir::value_type(result).ptr.hash(&mut hasher);
    }
    for operand in ir::operands(op) {
        operand.ptr.hash(&mut hasher);
    }
    hasher.finish()
}

/// A scoped table of known ops (LLVM's `ScopedHashTable`): a lookup sees
/// the latest insertion of an equal op in any open scope.
#[derive(Default)]
struct KnownOps {
    scopes: Vec<HashMap<u64, Vec<MlirOperation>>>,
}

impl KnownOps {
    fn push(&mut self) {
        self.scopes.push(HashMap::new());
    }

    fn pop(&mut self) {
        self.scopes.pop();
    }

    fn lookup(&self, op: MlirOperation) -> Option<MlirOperation> {
        let key = cse_hash(op);
        self.scopes.iter().rev().find_map(|scope| {
            scope
                .get(&key)?
                .iter()
                .rev()
                .find(|known| cse_equal(**known, op))
                .copied()
        })
    }

    fn insert(&mut self, op: MlirOperation) {
        if self.scopes.is_empty() {
            self.push();
        }
        let key = cse_hash(op);
        if let Some(scope) = self.scopes.last_mut() {
            scope.entry(key).or_default().push(op);
        }
    }
}

/// The CSE driver over one op's regions.
#[derive(Default)]
struct Driver {
    to_erase: Vec<MlirOperation>,
}

impl Driver {
    fn simplify_region(&mut self, known: &mut KnownOps, region: MlirRegion) {
        let blocks = ir::blocks(region);
        if blocks.is_empty() {
            return;
        }
        let ssa = has_ssa_dominance(region);
        if blocks.len() == 1 {
            known.push();
            self.simplify_block(known, blocks[0], ssa);
            known.pop();
            return;
        }
        // Regions without SSA dominance and several blocks are left alone.
        if !ssa {
            return;
        }
        let tree = DominatorTree::new(&blocks);
        self.simplify_dominated(known, &tree, 0, ssa);
    }

    fn simplify_dominated(
        &mut self,
        known: &mut KnownOps,
        tree: &DominatorTree,
        node: usize,
        ssa: bool,
    ) {
        known.push();
        self.simplify_block(known, tree.blocks[node], ssa);
        for child in tree.children[node].clone() {
            self.simplify_dominated(known, tree, child, ssa);
        }
        known.pop();
    }

    fn simplify_block(&mut self, known: &mut KnownOps, block: MlirBlock, ssa: bool) {
        for op in ir::block_ops(block) {
            if ir::region_count(op) != 0 {
                if might_be_isolated(op) {
                    let mut nested = KnownOps::default();
                    for region in ir::regions(op) {
                        self.simplify_region(&mut nested, region);
                    }
                } else {
                    for region in ir::regions(op) {
                        self.simplify_region(known, region);
                    }
                }
            }
            self.simplify_operation(known, op, ssa);
        }
    }

    /// Simplifies `op`; returns whether it was replaced or found dead.
    fn simplify_operation(&mut self, known: &mut KnownOps, op: MlirOperation, ssa: bool) -> bool {
        if ir::is_terminator(op) {
            return false;
        }
        if effects::is_trivially_dead(op) {
            self.to_erase.push(op);
            return true;
        }
        if ir::regions(op).into_iter().any(|r| ir::blocks(r).len() > 1) {
            return false;
        }
        if !effects::is_memory_effect_free(op) {
            // Only reads take part: an earlier equal read in the same block
            // with nothing that may write in between makes this one
            // redundant.
            if !effects::declares_only_reads(op) {
                return false;
            }
            if let Some(existing) = known.lookup(op) {
                if ir::op_block(existing).ptr == ir::op_block(op).ptr
                    && !writes_between(existing, op)
                {
                    self.replace(known, op, existing, ssa);
                    return true;
                }
            }
            known.insert(op);
            return false;
        }
        if let Some(existing) = known.lookup(op) {
            self.replace(known, op, existing, ssa);
            return true;
        }
        known.insert(op);
        false
    }

    fn replace(&mut self, known: &KnownOps, op: MlirOperation, existing: MlirOperation, ssa: bool) {
        let pairs: Vec<_> = ir::results(op)
            .into_iter()
            .zip(ir::results(existing))
            .collect();
        if ssa {
            for (old, new) in pairs {
                ir::replace_all_uses(old, new);
            }
            self.to_erase.push(op);
        } else {
            // In a graph region a use may come before the op: only uses by
            // ops not yet in the table are redirected.
            for (old, new) in pairs {
                for (user, index) in ir::uses(old) {
                    if known.lookup(user).is_none() {
                        ir::set_operand(user, index, new);
                    }
                }
            }
            if ir::results(op).into_iter().all(|r| !ir::has_uses(r)) {
                self.to_erase.push(op);
            }
        }
        unsafe {
            let context = ir::context(existing);
            let unknown = mlir_sys::mlirLocationUnknownGet(context);
            let (existing_loc, op_loc) = (ir::location(existing), ir::location(op));
            if mlir_sys::mlirLocationEqual(existing_loc, unknown)
                && !mlir_sys::mlirLocationEqual(op_loc, unknown)
            {
                mlir_sys::mlirOperationSetLocation(existing, op_loc);
            }
        }
    }
}

/// Whether an op strictly between `from` and `to` (same block) may write
/// memory or has unknown effects.
fn writes_between(from: MlirOperation, to: MlirOperation) -> bool {
    let mut next = unsafe { mlir_sys::mlirOperationGetNextInBlock(from) };
    while !next.ptr.is_null() && next.ptr != to.ptr {
        if effects::may_write(next) {
            return true;
        }
        next = unsafe { mlir_sys::mlirOperationGetNextInBlock(next) };
    }
    false
}

/// The dominator tree of a region's blocks reachable from the entry
/// (Cooper, Harvey and Kennedy's iterative algorithm).
struct DominatorTree {
    /// Reachable blocks in reverse post-order; the entry is first.
    blocks: Vec<MlirBlock>,
    /// Tree children of each block, by index into `blocks`.
    children: Vec<Vec<usize>>,
}

impl DominatorTree {
    fn new(region_blocks: &[MlirBlock]) -> Self {
        let successors = |block: MlirBlock| -> Vec<MlirBlock> {
            ir::terminator(block)
                .map(ir::successors)
                .unwrap_or_default()
        };
        // Reverse post-order by an iterative depth-first search.
        let mut post: Vec<MlirBlock> = Vec::new();
        let mut seen: HashMap<Blk, ()> = HashMap::new();
        let mut stack: Vec<(MlirBlock, Vec<MlirBlock>)> = Vec::new();
        let entry = region_blocks[0];
        seen.insert(Blk(entry), ());
        stack.push((entry, successors(entry)));
        while let Some((block, pending)) = stack.last_mut() {
            if let Some(next) = pending.pop() {
                if seen.insert(Blk(next), ()).is_none() {
                    let succ = successors(next);
                    stack.push((next, succ));
                }
            } else {
                post.push(*block);
                stack.pop();
            }
        }
        post.reverse();
        let blocks = post;
        let index: HashMap<Blk, usize> = blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (Blk(*b), i))
            .collect();
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
        for (i, block) in blocks.iter().enumerate() {
            for succ in successors(*block) {
                if let Some(&j) = index.get(&Blk(succ)) {
                    preds[j].push(i);
                }
            }
        }
        let mut idom: Vec<Option<usize>> = vec![None; blocks.len()];
        idom[0] = Some(0);
        let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| {
            while a != b {
                while a > b {
                    a = idom[a].unwrap_or(0);
                }
                while b > a {
                    b = idom[b].unwrap_or(0);
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for i in 1..blocks.len() {
                let mut new_idom: Option<usize> = None;
                for &p in &preds[i] {
                    if idom[p].is_some() {
                        new_idom = Some(match new_idom {
                            None => p,
                            Some(current) => intersect(&idom, p, current),
                        });
                    }
                }
                if new_idom.is_some() && idom[i] != new_idom {
                    idom[i] = new_idom;
                    changed = true;
                }
            }
        }
        let mut children = vec![Vec::new(); blocks.len()];
        for (i, parent) in idom.iter().enumerate().skip(1) {
            if let Some(p) = parent {
                children[*p].push(i);
            }
        }
        Self { blocks, children }
    }
}

/// Runs CSE over the regions of `op` and erases what it made redundant.
/// Returns whether anything changed.
pub fn eliminate_common_subexpressions(op: MlirOperation) -> bool {
    let mut driver = Driver::default();
    let mut known = KnownOps::default();
    for region in ir::regions(op) {
        driver.simplify_region(&mut known, region);
    }
    let changed = !driver.to_erase.is_empty();
    for dead in driver.to_erase {
        ir::erase(dead);
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::new_context;
    use melior::ir::{
        operation::{OperationLike, OperationPrintingFlags},
        Module,
    };

    /// Prints `module` with locations, so location updates are compared too.
    fn print(module: &Module) -> String {
        module
            .as_operation()
            .to_string_with_flags(OperationPrintingFlags::new().enable_debug_info(true, false))
            .expect("module prints")
    }

    /// Runs this CSE and MLIR's `cse` pass on `source`; returns both prints.
    fn both(source: &str) -> Option<(String, String)> {
        let context = new_context(true);
        let ours = Module::parse(&context, source)?;
        let mut theirs = Module::parse(&context, source)?;
        eliminate_common_subexpressions(ours.as_operation().to_raw());
        let manager = crate::pipeline::parse("builtin.module(cse)")
            .and_then(|p| p.build(&context))
            .expect("cse pipeline builds");
        manager.run(&mut theirs).expect("upstream cse runs");
        assert!(ours.as_operation().verify(), "CSE output verifies");
        Some((print(&ours), print(&theirs)))
    }

    const CASES: &str = r#"
tt.func @pure_and_reads(%p: tensor<4x!tt.ptr<f32>>, %q: tensor<4x!tt.ptr<f32>>, %n: i32, %c: i1) -> tensor<4xf32> {
  %a = arith.addi %n, %n : i32
  %b = arith.addi %n, %n : i32
  %x = tt.load %p : tensor<4x!tt.ptr<f32>>
  %y = tt.load %p : tensor<4x!tt.ptr<f32>>
  %s = arith.addf %x, %y : tensor<4xf32>
  tt.store %q, %s : tensor<4x!tt.ptr<f32>>
  %z = tt.load %p : tensor<4x!tt.ptr<f32>>
  %w = tt.load %p {isVolatile = true} : tensor<4x!tt.ptr<f32>>
  %v = tt.load %p {isVolatile = true} : tensor<4x!tt.ptr<f32>>
  %dead = arith.muli %a, %b : i32
  %r = scf.if %c -> tensor<4xf32> {
    %inner = arith.addi %n, %n : i32
    %t = tt.load %p : tensor<4x!tt.ptr<f32>>
    scf.yield %t : tensor<4xf32>
  } else {
    scf.yield %z : tensor<4xf32>
  }
  %r2 = scf.if %c -> i32 {
    %k = arith.addi %n, %a : i32
    scf.yield %k : i32
  } else {
    scf.yield %b : i32
  }
  %r3 = scf.if %c -> i32 {
    %k = arith.addi %n, %b : i32
    scf.yield %k : i32
  } else {
    scf.yield %a : i32
  }
  %m = arith.addi %r2, %r3 : i32
  %red = "tt.reduce"(%s) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    %sum = arith.addf %l, %rr : f32
    tt.reduce.return %sum : f32
  }) : (tensor<4xf32>) -> f32
  %red2 = "tt.reduce"(%s) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    %sum = arith.addf %l, %rr : f32
    tt.reduce.return %sum : f32
  }) : (tensor<4xf32>) -> f32
  %f = arith.addf %red, %red2 : f32
  tt.return %w : tensor<4xf32>
}
tt.func @branches(%n: i32, %c: i1) -> i32 {
  %a = arith.addi %n, %n : i32
  cf.cond_br %c, ^t, ^e
^t:
  %b = arith.addi %n, %n : i32
  cf.br ^j(%b : i32)
^e:
  %d = arith.addi %n, %n : i32
  %e = arith.muli %d, %a : i32
  %e2 = arith.muli %d, %a : i32
  cf.br ^j(%e2 : i32)
^j(%x: i32):
  %y = arith.muli %n, %n : i32
  %u = arith.addi %n, %n : i32
  tt.return %x : i32
}
tt.func @nested_regions(%n: i32, %c: i1) -> (i32, i32) {
  %r2 = scf.if %c -> i32 {
    %k = arith.addi %n, %n : i32
    %j = scf.if %c -> i32 {
      %z = arith.addi %k, %k : i32
      scf.yield %z : i32
    } else {
      scf.yield %k : i32
    }
    scf.yield %j : i32
  } else {
    scf.yield %n : i32
  }
  %r3 = scf.if %c -> i32 {
    %k = arith.addi %n, %n : i32
    %j = scf.if %c -> i32 {
      %z = arith.addi %k, %k : i32
      scf.yield %z : i32
    } else {
      scf.yield %k : i32
    }
    scf.yield %j : i32
  } else {
    scf.yield %n : i32
  }
  tt.return %r2, %r3 : i32, i32
}
tt.func @read_across_pure_region(%p: tensor<4x!tt.ptr<f32>>, %n: i32, %c: i1) -> (tensor<4xf32>, tensor<4xf32>, i32) {
  %x = tt.load %p : tensor<4x!tt.ptr<f32>>
  %r = scf.if %c -> i32 {
    %k = arith.addi %n, %n : i32
    scf.yield %k : i32
  } else {
    scf.yield %n : i32
  }
  %y = tt.load %p : tensor<4x!tt.ptr<f32>>
  tt.return %x, %y, %r : tensor<4xf32>, tensor<4xf32>, i32
}
tt.func @unknown_loc(%n: i32) -> (i32, i32) {
  %a = arith.addi %n, %n : i32 loc(unknown)
  %b = arith.addi %n, %n : i32 loc("here":1:2)
  tt.return %a, %b : i32, i32
}
"#;

    #[test]
    fn matches_mlir_cse_on_handwritten_cases() {
        let (ours, theirs) = both(CASES).expect("cases parse");
        assert_eq!(ours, theirs);
    }

    /// The module sections of the corpus's pass logs (the IR before each
    /// pass up to the LLVM lowering), when the corpus is there.
    fn corpus_modules() -> Vec<(String, String)> {
        let dir = match std::env::var_os("TT_CORPUS") {
            Some(dir) => std::path::PathBuf::from(dir),
            None => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
        };
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for entry in entries.flatten() {
            let Ok(log) = std::fs::read_to_string(entry.path().join("passes.log")) else {
                continue;
            };
            for section in log.split("// -----// ").skip(1) {
                let (header, body) = section.split_once('\n').unwrap_or((section, ""));
                if header.contains("ConvertTritonGPUToLLVM") {
                    break;
                }
                if header.contains("'builtin.module' operation") {
                    out.push((
                        format!("{}: {header}", entry.path().display()),
                        body.to_owned(),
                    ));
                }
            }
        }
        out
    }

    #[test]
    fn matches_mlir_cse_on_the_corpus() {
        let modules = corpus_modules();
        let mut seen = std::collections::HashSet::new();
        let mut compared = 0;
        for (origin, source) in &modules {
            if !seen.insert(source.clone()) {
                continue;
            }
            let Some((ours, theirs)) = both(source) else {
                continue;
            };
            assert!(ours == theirs, "CSE differs from MLIR's on {origin}");
            compared += 1;
        }
        println!("{compared} distinct corpus modules compared");
        assert!(modules.is_empty() || compared > 0);
    }
}
