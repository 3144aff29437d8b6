//! `triton-tensor-memory-allocation`: Triton 3.6's placement of Blackwell
//! tensor memory. Every `ttng.tmem_alloc` gets a column and a row offset
//! (`tensor_memory_col_offset`, `tensor_memory_row_offset`), and the module
//! records the columns used, rounded up to 32, 64, 128, 256 or 512, as
//! `ttg.tensor_memory_size` (0 without tensor memory).
//!
//! The allocations are placed in walk order (post-order), first fit, on a
//! map of 2 row halves (64 rows each) by columns, aligned to 4 columns:
//! - an allocation's live range is that of its buffer and of the
//!   `memdesc_index` / `memdesc_reinterpret` views of it, in post-order
//!   operation numbers (MLIR's liveness over single-block regions: from
//!   the definition to the last use in its block, and from the start of
//!   each nested block that uses it to the last use there); what ended
//!   before an allocation's range starts is free again;
//! - allocations of one `ttg.warp_specialize` in different regions may run
//!   at the same time and never share columns;
//! - an allocation takes 64 rows where its layout leaves row 16 unused
//!   (one half), else 128; a Blackwell MMA whose A operand is a 64-row
//!   tensor-memory buffer puts A and its accumulator in the same half.
//!
//! A buffer used in another block of its own region (a CFG) is taken as
//! live over the whole region (never shorter than MLIR's liveness).
//! Buffers reaching an MMA through ops this pass does not follow are
//! refused with a located error.

use std::collections::HashMap;

use melior::ir::operation::OperationRef;
use melior::ir::Type;
use mlir_sys::{MlirBlock, MlirOperation, MlirValue};
use tt_passes::rust_pass::{Failure, PassResult, RustPass};
use tt_passes::ttir::loop_support::ir::{self, Op, Val};
use tt_passes::ttir::loop_support::scf;
use ttg_dialect::layout::MemDesc;
use ttg_dialect::tmem::{TmemEncoding, COL, ROW};

use crate::module_attrs::set_i32;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonTensorMemoryAllocationPass",
    argument: "triton-tensor-memory-allocation",
    description:
        "Allocate Blackwell tensor memory (offsets of every ttng.tmem_alloc, the module's size)",
    anchor: "builtin.module",
    run,
};

fn refuse(op: MlirOperation, what: &str) -> Failure {
    tt_passes::rust_pass::unsupported(op, PASS.argument, what)
}

/// The rows (64 or 128) and columns a tensor-memory buffer takes (Triton's
/// `getTmemAllocSizes`).
fn alloc_size(op: MlirOperation, ty: mlir_sys::MlirType) -> Result<(i64, i64), Failure> {
    // SAFETY: a live type.
    let ty = unsafe { Type::from_raw(ty) };
    let desc = MemDesc::of(ty).ok_or_else(|| {
        refuse(
            op,
            "a tensor-memory allocation that is not a memory descriptor",
        )
    })?;
    let enc = TmemEncoding::read(desc.encoding).ok_or_else(|| {
        refuse(
            op,
            "a tensor-memory allocation without a tensor-memory encoding",
        )
    })?;
    let n = desc.shape.len();
    if !(2..=3).contains(&n) {
        return Err(refuse(
            op,
            "tensor-memory buffers of rank other than 2 or 3",
        ));
    }
    // One CTA's part of the buffer.
    let (split_m, split_n) = match enc {
        TmemEncoding::Tensor(l) => (l.cta_split_m, l.cta_split_n),
        TmemEncoding::Scales {
            cta_split_m,
            cta_split_n,
        } => (cta_split_m, cta_split_n),
    };
    let ll = TmemEncoding::to_linear_layout(
        &match enc {
            TmemEncoding::Tensor(l) => TmemEncoding::Tensor(ttg_dialect::tmem::TmemLayout {
                cta_split_m: 1,
                cta_split_n: 1,
                ..l
            }),
            TmemEncoding::Scales { .. } => TmemEncoding::Scales {
                cta_split_m: 1,
                cta_split_n: 1,
            },
        },
        [
            desc.shape[n - 2] / i64::from(split_m.max(1)),
            desc.shape[n - 1] / i64::from(split_n.max(1)),
        ],
    )
    .map_err(|e| refuse(op, &format!("this tensor-memory layout ({e})")))?;
    let bits = i64::from(tt_dialect::types::bit_width(desc.element).unwrap_or(32));
    let mut rows = i64::from(ll.in_dim_size(ROW));
    let row_bases = ll.bases(ROW);
    if row_bases.len() > 4 && row_bases[4].iter().all(|&v| v == 0) {
        rows /= 2;
    }
    let mut cols = i64::from(ll.in_dim_size(COL)) / (32 / bits.clamp(1, 32));
    if n == 3 {
        cols *= desc.shape[0];
    }
    Ok((rows, cols))
}

/// Which row halves and columns are in use.
#[derive(Clone)]
struct BitMap {
    used: Vec<[bool; 2]>,
}

#[derive(Clone, Copy, Debug)]
struct Chunk {
    row: usize,
    col: usize,
    cols: usize,
    rows: usize,
}

impl BitMap {
    fn set(&mut self, c: Chunk, value: bool) {
        if self.used.len() < c.col + c.cols {
            self.used.resize(c.col + c.cols, [false; 2]);
        }
        for col in c.col..c.col + c.cols {
            for row in c.row..c.row + c.rows {
                self.used[col][row] = value;
            }
        }
    }

    fn is_used(&self, row: usize, col: usize) -> bool {
        self.used.get(col).is_some_and(|r| r[row])
    }

    /// The first chunk of `rows` halves and `cols` columns that is free,
    /// columns aligned to `align`, in half `row` when it is given.
    fn first_fit(&self, rows: usize, cols: usize, row: Option<usize>, align: usize) -> Chunk {
        let mut col = 0;
        loop {
            if col % align != 0 {
                col = (col / align + 1) * align;
            }
            for start in 0..=(2 - rows) {
                if row.is_some_and(|r| r != start) {
                    continue;
                }
                let fits =
                    (col..col + cols).all(|c| (start..start + rows).all(|r| !self.is_used(r, c)));
                if fits {
                    return Chunk {
                        row: start,
                        col,
                        cols,
                        rows,
                    };
                }
            }
            col += 1;
        }
    }
}

/// Post-order numbers of every op under `root` (Triton's `operationId`).
fn number_ops(root: MlirOperation) -> HashMap<Op, usize> {
    let mut ids = HashMap::new();
    for op in ir::collect_post(root, &|_| true) {
        let next = ids.len();
        ids.insert(Op(op), next);
    }
    ids
}

/// The block holding `value` (its defining op's, or the argument's).
fn block_of(value: MlirValue) -> MlirBlock {
    match ir::defining_op(value) {
        Some(def) => ir::op_block(def),
        None => ir::value_block(value),
    }
}

/// MLIR's `resolveLiveness`: the ops at which `value` is live. In a
/// region of one block: from the definition to the last use in its block,
/// and from the start of each nested block that uses it to the last use
/// there. A value used in another block of its own region (a CFG) is taken
/// as live over the whole region, which never shortens its range.
fn live_ops(value: MlirValue, out: &mut Vec<MlirOperation>) {
    let def_block = block_of(value);
    let def_region = ir::block_parent_region(def_block);
    // Per block on a path from a use up to the defining block: the last
    // op (in block order) that contains a use.
    let mut last_use: Vec<(MlirBlock, usize)> = Vec::new();
    let mut whole_region = false;
    for (user, _) in ir::uses(value) {
        let mut at = Some(user);
        while let Some(o) = at {
            let block = ir::op_block(o);
            if block.ptr != def_block.ptr && ir::block_parent_region(block).ptr == def_region.ptr {
                whole_region = true;
                break;
            }
            let ops = ir::block_ops(block);
            let position = ops.iter().position(|x| x.ptr == o.ptr).unwrap_or(0);
            match last_use.iter_mut().find(|(b, _)| b.ptr == block.ptr) {
                Some((_, p)) => *p = (*p).max(position),
                None => last_use.push((block, position)),
            }
            if block.ptr == def_block.ptr {
                break;
            }
            at = ir::parent_op(o);
        }
    }
    if whole_region {
        for block in ir::blocks(def_region) {
            out.extend(ir::block_ops(block));
        }
    }
    for (block, end) in &last_use {
        let ops = ir::block_ops(*block);
        let start = if block.ptr == def_block.ptr {
            ir::defining_op(value)
                .and_then(|d| ops.iter().position(|x| x.ptr == d.ptr))
                .unwrap_or(0)
        } else {
            0
        };
        out.extend(ops[start.min(*end)..=*end].iter().copied());
    }
    if !last_use.iter().any(|(b, _)| b.ptr == def_block.ptr) {
        out.extend(ir::defining_op(value));
    }
}

/// Triton's `getLiveIntervals`: the live range of an allocation and of
/// its index and reinterpret views, as `[start, end)` in op numbers.
fn live_interval(alloc: MlirOperation, ids: &HashMap<Op, usize>) -> (usize, usize) {
    let mut ops = Vec::new();
    let mut values = vec![ir::result(alloc, 0)];
    while let Some(v) = values.pop() {
        live_ops(v, &mut ops);
        for (user, _) in ir::uses(v) {
            if ir::is(user, "ttg.memdesc_index") || ir::is(user, "ttg.memdesc_reinterpret") {
                values.push(ir::result(user, 0));
            }
        }
    }
    let start = ops
        .iter()
        .filter_map(|o| ids.get(&Op(*o)))
        .min()
        .copied()
        .unwrap_or(0);
    let end = ops
        .iter()
        .filter_map(|o| ids.get(&Op(*o)))
        .map(|i| i + 1)
        .max()
        .unwrap_or(start + 1);
    (start, end)
}

/// Triton's `getAlloc`: the `ttng.tmem_alloc`s a tensor-memory value may
/// come from.
fn allocs_of(value: MlirValue) -> Result<Vec<MlirOperation>, Failure> {
    let mut out: Vec<MlirOperation> = Vec::new();
    let mut seen: Vec<Val> = Vec::new();
    let mut work = vec![value];
    while let Some(v) = work.pop() {
        if seen.contains(&Val(v)) {
            continue;
        }
        seen.push(Val(v));
        if let Some(def) = ir::defining_op(v) {
            let index = ir::result_number(v);
            let name = ir::name(def);
            match name.as_str() {
                "ttng.tmem_alloc" => {
                    if !out.iter().any(|o| o.ptr == def.ptr) {
                        out.push(def);
                    }
                }
                "ttg.memdesc_index"
                | "ttg.memdesc_subslice"
                | "ttg.memdesc_trans"
                | "ttg.memdesc_reshape"
                | "ttg.memdesc_reinterpret"
                | "ttng.tmem_subslice" => work.push(ir::operand(def, 0)),
                "arith.select" => {
                    work.push(ir::operand(def, 1));
                    work.push(ir::operand(def, 2));
                }
                "scf.if" => {
                    for region in ir::regions(def) {
                        for block in ir::blocks(region) {
                            if let Some(y) = ir::terminator(block) {
                                work.push(ir::operand(y, index));
                            }
                        }
                    }
                }
                "scf.for" => {
                    work.push(scf::yielded_values(def)[index]);
                    work.push(scf::init_args(def)[index]);
                }
                _ => {
                    return Err(refuse(
                        def,
                        &format!("tracing tensor memory through '{name}'"),
                    ))
                }
            }
            continue;
        }
        let block = ir::value_block(v);
        let index = ir::arg_number(v);
        let region = ir::block_parent_region(block);
        let is_entry = ir::blocks(region)
            .first()
            .is_some_and(|b| b.ptr == block.ptr);
        if !is_entry {
            // A CFG block: the values its predecessors' branches pass.
            for pred_block in ir::blocks(region) {
                let Some(term) = ir::terminator(pred_block) else {
                    continue;
                };
                let successors = ir::successors(term);
                for (k, succ) in successors.iter().enumerate() {
                    if succ.ptr != block.ptr {
                        continue;
                    }
                    let forwarded = if ir::is(term, "cf.br") {
                        ir::operands(term)
                    } else if ir::is(term, "cf.cond_br") {
                        let sizes = ir::attribute(term, "operandSegmentSizes")
                            .and_then(ir::dense_i32_array)
                            .unwrap_or_default();
                        let ops = ir::operands(term);
                        let (t, f) = (
                            *sizes.get(1).unwrap_or(&0) as usize,
                            *sizes.get(2).unwrap_or(&0) as usize,
                        );
                        if k == 0 {
                            ops[1..1 + t].to_vec()
                        } else {
                            ops[1 + t..1 + t + f].to_vec()
                        }
                    } else {
                        return Err(refuse(term, "tracing tensor memory through this branch"));
                    };
                    if let Some(&fv) = forwarded.get(index) {
                        work.push(fv);
                    }
                }
            }
            continue;
        }
        let Some(parent) = ir::block_parent_op(block) else {
            continue;
        };
        if ir::is(parent, "scf.for") {
            let i = index - 1;
            work.push(scf::yielded_values(parent)[i]);
            work.push(scf::init_args(parent)[i]);
        } else if ir::is(parent, "ttg.warp_specialize.partitions") {
            let ws = ir::parent_op(parent).expect("partitions live in a warp_specialize");
            work.push(ir::operand(ws, index));
        } else {
            return Err(refuse(
                parent,
                "tracing tensor memory through this block argument",
            ));
        }
    }
    Ok(out)
}

/// The innermost `ttg.warp_specialize` around `op` and the region of it
/// (or of its partitions op) `op` is in.
fn warp_specialize_of(op: MlirOperation) -> Option<(MlirOperation, mlir_sys::MlirRegion)> {
    let mut child = op;
    let mut at = ir::parent_op(op);
    while let Some(p) = at {
        if ir::is(p, "ttg.warp_specialize") || ir::is(p, "ttg.warp_specialize.partitions") {
            let region = ir::block_parent_region(ir::op_block(child));
            let ws = if ir::is(p, "ttg.warp_specialize") {
                p
            } else {
                ir::parent_op(p)?
            };
            return Some((ws, region));
        }
        child = p;
        at = ir::parent_op(p);
    }
    None
}

fn run(module: OperationRef) -> PassResult {
    let m = module.to_raw();
    let allocs: Vec<MlirOperation> = ir::collect_post(m, &|op| ir::is(op, "ttng.tmem_alloc"));
    if allocs.is_empty() {
        set_i32(m, "ttg.tensor_memory_size", 0);
        return Ok(());
    }
    let ids = number_ops(m);
    // Row constraints: MMAs with a 64-row tensor-memory A.
    let mut group: HashMap<Op, usize> = HashMap::new();
    let mut next_group = 0;
    for mma in ir::collect_post(m, &|op| {
        ir::is(op, "ttng.tc_gen5_mma") || ir::is(op, "ttng.tc_gen5_mma_scaled")
    }) {
        let a = ir::operand(mma, 0);
        let a_ty = ir::value_type(a);
        // SAFETY: a live type.
        let is_tmem = MemDesc::of(unsafe { Type::from_raw(a_ty) }).is_some_and(|d| {
            TmemEncoding::read(d.encoding).is_some_and(|e| matches!(e, TmemEncoding::Tensor(_)))
        });
        if !is_tmem || alloc_size(mma, a_ty)?.0 != 64 {
            continue;
        }
        let mut members = allocs_of(a)?;
        members.extend(allocs_of(ir::operand(mma, 2))?);
        let existing: Vec<usize> = members
            .iter()
            .filter_map(|o| group.get(&Op(*o)).copied())
            .collect();
        let id = existing.first().copied().unwrap_or_else(|| {
            next_group += 1;
            next_group - 1
        });
        for g in group.values_mut() {
            if existing.contains(g) {
                *g = id;
            }
        }
        for o in members {
            group.insert(Op(o), id);
        }
    }
    let mut group_row: HashMap<usize, usize> = HashMap::new();
    let mut map = BitMap { used: Vec::new() };
    let mut ending: Vec<(usize, Chunk)> = Vec::new();
    let mut placed: Vec<(MlirOperation, Chunk)> = Vec::new();
    let mut total = 0i64;
    let i32t = ir::i32_type(ir::context(m));
    for &alloc in &allocs {
        let ws = warp_specialize_of(alloc);
        let coexisting: Vec<Chunk> = match ws {
            Some((ws_op, region)) => placed
                .iter()
                .filter(|(prev, _)| {
                    warp_specialize_of(*prev)
                        .is_some_and(|(w, r)| w.ptr == ws_op.ptr && r.ptr != region.ptr)
                })
                .map(|&(_, c)| c)
                .collect(),
            None => Vec::new(),
        };
        let (start, end) = live_interval(alloc, &ids);
        let (rows, cols) = alloc_size(alloc, ir::value_type(ir::result(alloc, 0)))?;
        // Free what ended before this range starts.
        ending.sort_by_key(|&(e, _)| e);
        while let Some(&(e, c)) = ending.first() {
            if e > start {
                break;
            }
            map.set(c, false);
            ending.remove(0);
        }
        let row_constraint = group
            .get(&Op(alloc))
            .and_then(|g| group_row.get(g).copied());
        let mut trial = map.clone();
        for &c in &coexisting {
            trial.set(c, true);
        }
        let chunk = trial.first_fit((rows / 64) as usize, cols as usize, row_constraint, 4);
        map.set(chunk, true);
        if let Some(&g) = group.get(&Op(alloc)) {
            group_row.entry(g).or_insert(chunk.row);
        }
        ending.push((end, chunk));
        placed.push((alloc, chunk));
        ir::set_attribute(
            alloc,
            "tensor_memory_col_offset",
            ir::integer_attr(i32t, chunk.col as i64),
        );
        ir::set_attribute(
            alloc,
            "tensor_memory_row_offset",
            ir::integer_attr(i32t, chunk.row as i64 * 16),
        );
        total = total.max(chunk.col as i64 + cols);
    }
    if total <= 512 {
        total = [0, 32, 64, 128, 256, 512]
            .into_iter()
            .find(|&s| total <= s)
            .unwrap_or(total);
    }
    set_i32(m, "ttg.tensor_memory_size", total);
    Ok(())
}
