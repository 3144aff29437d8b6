//! `triton-nvidia-gpu-proxy-fence-insertion`: from compute capability 90,
//! a `ttng.fence_async_shared` before every async-proxy read of shared
//! memory (a `ttng.warp_group_dot` operand) that generic-proxy writes
//! (`local_alloc` with a value, `local_store`, `cp.async`, calls) may
//! have touched since the last such fence, as Triton 3.6's pass finds them
//! after shared memory is allocated.
//!
//! The analysis runs over each function's blocks (after
//! `convert-scf-to-cf`): the state is the set of byte ranges written
//! through the generic proxy since the last fence, the union of the
//! predecessors' states at a block's entry, iterated to a fixed point. A
//! fence clears it; so does an inserted one. Ranges come from the
//! allocation (`allocation.offset`) through memdesc views and branch
//! arguments; a write whose buffer is unknown counts as writing every
//! byte. TMA and Blackwell async-proxy ops are refused: nothing lowers
//! them yet. Below 90 the pass does nothing.

use std::collections::HashMap;
use std::ops::Range;

use melior::{ir::operation::OperationRef, pass::Pass};
use mlir_sys::{MlirBlock, MlirOperation, MlirValue};
use tt_passes::{
    options::PassOptions,
    rust_pass::{Failure, PassResult, RustPass},
    ttir::loop_support::ir::{self, Blk, Val},
};

use crate::allocation::{alias_sets, buffer_range};
use crate::module_attrs::{refuse, refuse_ops};

/// The pass from compute capability 90 on (the default here is 90).
pub static PASS: RustPass = RustPass {
    name: "TritonGPUProxyFenceInsertion",
    argument: "triton-nvidia-gpu-proxy-fence-insertion",
    description: "Insert proxy fences between generic shared-memory writes and async-proxy reads",
    anchor: "builtin.module",
    run,
};

static BEFORE_90: RustPass = RustPass {
    name: "TritonGPUProxyFenceInsertion",
    argument: "triton-nvidia-gpu-proxy-fence-insertion",
    description: "Insert proxy fences (nothing to do below compute capability 90)",
    anchor: "builtin.module",
    run: |_| Ok(()),
};

/// Builds the pass for `compute-capability` (default 90).
pub fn factory(options: &PassOptions) -> Result<Pass, String> {
    Ok(if options.int("compute-capability", 90)? >= 90 {
        PASS.build()
    } else {
        BEFORE_90.build()
    })
}

/// Async-proxy ops this pass does not analyse (nothing lowers them yet).
const UNSUPPORTED: &[&str] = &[
    "ttng.async_tma_copy_global_to_local",
    "ttng.async_tma_copy_local_to_global",
    "ttng.async_tma_reduce",
    "ttng.async_tma_gather",
    "ttng.async_tma_scatter",
    "ttng.tc_gen5_mma",
    "ttng.tc_gen5_mma_scaled",
    "ttng.tmem_copy",
];

/// Ops that touch shared memory without writing it through the generic
/// proxy (or only pass descriptors on).
const NOT_WRITING: &[&str] = &[
    "ttg.local_load",
    "ttg.local_dealloc",
    "ttg.memdesc_index",
    "ttg.memdesc_subslice",
    "ttg.memdesc_trans",
    "ttg.memdesc_reshape",
    "ttg.memdesc_reinterpret",
    "ttng.warp_group_dot_wait",
    "ttg.async_wait",
    "ttg.async_commit_group",
    "cf.br",
    "cf.cond_br",
    "tt.return",
];

/// A byte range of shared memory; `None` may be any byte.
type Span = Option<Range<u64>>;

fn overlap(a: &Span, b: &Span) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.start < b.end && b.start < a.end,
        _ => true,
    }
}

fn is_memdesc(v: MlirValue) -> bool {
    ir::memdesc(v).is_some()
}

fn run(module: OperationRef) -> PassResult {
    refuse_ops(module.to_raw(), PASS.argument, UNSUPPORTED)?;
    let mut functions = Vec::new();
    ir::walk_pre(module.to_raw(), &mut |op| {
        if ir::is(op, "tt.func") {
            functions.push(op);
        }
    });
    for func in functions {
        let aliases = alias_sets(func).map_err(|u| refuse(u.op, PASS.argument, &u.what))?;
        let spans = |v: MlirValue| -> Vec<Span> {
            match aliases.get(&Val(v)) {
                Some(owners) => owners
                    .iter()
                    // SAFETY: the owners are live `ttg.local_alloc`s of `func`.
                    .map(|owner| buffer_range(unsafe { OperationRef::from_raw(owner.0) }))
                    .collect(),
                None => vec![None],
            }
        };
        let Some(&region) = ir::regions(func).first() else {
            continue;
        };
        let blocks = ir::blocks(region);
        let Some(&entry) = blocks.first() else {
            continue;
        };
        let analysis = Analysis { spans: &spans };
        // The writes pending at each block's entry, to a fixed point.
        let mut entries: HashMap<Blk, Vec<Span>> = HashMap::from([(Blk(entry), Vec::new())]);
        let mut work = vec![entry];
        while let Some(block) = work.pop() {
            let mut state = entries[&Blk(block)].clone();
            analysis.scan(block, &mut state, false)?;
            let Some(terminator) = ir::terminator(block) else {
                continue;
            };
            for successor in ir::successors(terminator) {
                let first = !entries.contains_key(&Blk(successor));
                let known = entries.entry(Blk(successor)).or_default();
                let before = known.len();
                for span in &state {
                    if !known.contains(span) {
                        known.push(span.clone());
                    }
                }
                if first || known.len() != before {
                    work.push(successor);
                }
            }
        }
        for block in blocks {
            if let Some(state) = entries.get(&Blk(block)) {
                analysis.scan(block, &mut state.clone(), true)?;
            }
        }
    }
    Ok(())
}

struct Analysis<'s> {
    /// The byte ranges a memory descriptor may view.
    spans: &'s dyn Fn(MlirValue) -> Vec<Span>,
}

impl Analysis<'_> {
    /// Runs `block` from `state` (the generic writes pending); with
    /// `insert`, puts a fence before each async-proxy read that needs one.
    fn scan(&self, block: MlirBlock, state: &mut Vec<Span>, insert: bool) -> PassResult {
        for op in ir::block_ops(block) {
            let name = ir::name(op);
            if name == "ttng.fence_async_shared" {
                state.clear();
            } else if name == "ttng.warp_group_dot" {
                let reads: Vec<Span> = [0, 1]
                    .into_iter()
                    .map(|i| ir::operand(op, i))
                    .filter(|&v| is_memdesc(v))
                    .flat_map(|v| (self.spans)(v))
                    .collect();
                if reads.iter().any(|r| state.iter().any(|w| overlap(r, w))) {
                    if insert {
                        insert_fence(op);
                    }
                    state.clear();
                }
            } else if let Some(written) = self.writes(op)? {
                for span in written {
                    if !state.contains(&span) {
                        state.push(span);
                    }
                }
            }
        }
        Ok(())
    }

    /// The shared memory `op` writes through the generic proxy.
    fn writes(&self, op: MlirOperation) -> Result<Option<Vec<Span>>, Failure> {
        let name = ir::name(op);
        let written = match name.as_str() {
            "ttg.local_alloc" if ir::operand_count(op) > 0 => (self.spans)(ir::result(op, 0)),
            "ttg.local_store" | "ttg.async_copy_global_to_local" => {
                (self.spans)(ir::operand(op, 1))
            }
            "tt.call" => vec![None],
            _ if NOT_WRITING.contains(&name.as_str()) => return Ok(None),
            _ => {
                if ir::region_count(op) > 0 {
                    let mut nested = None;
                    for region in ir::regions(op) {
                        for inner in ir::region_ops(region) {
                            ir::walk_pre(inner, &mut |o| {
                                let touches = ir::operands(o).into_iter().any(is_memdesc)
                                    || ir::results(o).into_iter().any(is_memdesc);
                                if nested.is_none() && touches {
                                    nested = Some(o);
                                }
                            });
                        }
                    }
                    if let Some(o) = nested {
                        return Err(refuse(
                            o,
                            PASS.argument,
                            "shared memory accessed inside a region of another op",
                        ));
                    }
                }
                // Conservatively, any other op with a shared descriptor
                // operand writes it.
                ir::operands(op)
                    .into_iter()
                    .filter(|&v| is_memdesc(v))
                    .flat_map(|v| (self.spans)(v))
                    .collect()
            }
        };
        Ok(Some(written))
    }
}

/// A `ttng.fence_async_shared {bCluster = false}` right before `op`.
fn insert_fence(op: MlirOperation) {
    let context = ir::context(op);
    // SAFETY: `context` is the live context that owns `op`.
    let false_attr = unsafe { mlir_sys::mlirBoolAttrGet(context, 0) };
    let fence = ir::create_op(
        "ttng.fence_async_shared",
        ir::location(op),
        &[],
        &[],
        &[("bCluster", false_attr)],
        Vec::new(),
    );
    ir::insert_before(op, fence);
}
