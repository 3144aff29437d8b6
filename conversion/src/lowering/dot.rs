//! `tt.dot` on CUDA cores: the FMA fallback that
//! `tritongpu-accelerate-matmul` leaves where no MMA instruction serves
//! (`f32` with `input_precision = "ieee"`, shapes below an MMA tile, ...),
//! with a result in a blocked layout and operands in `#ttg.dot_op`s of it.
//!
//! In those layouts a thread holds, for each of its result elements
//! `(m, n)`, the whole row `m` of A and column `n` of B along K in its
//! registers: lanes and warps move M in A and the result alike, N in B and
//! the result alike, and never K. Each result register then accumulates
//! `fma(a[m][k], b[k][n], acc)` for `k` upwards from the accumulator
//! operand, as Triton's FMA lowering does (integers: multiply, then add).
//! The registers are matched through their coordinates at lane and warp 0.
//! MMA layouts (`mma.sync`, `wgmma`) are not lowered yet.

use std::collections::HashMap;

use melior::ir::{r#type::TypeLike, OperationRef, Value, ValueLike};
use tt_dialect::{ir as ttir, types::TensorView};
use ttg_dialect::layout::Layout;

use super::{layout::Distributed, Emitter, LowerResult, Lowering};

pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let operand = |i: usize| ttir::operand(op, i).ok_or_else(|| format!("missing operand {i}"));
    let (a, b, c) = (operand(0)?, operand(1)?, operand(2)?);
    let d: Value = op.result(0).map_err(|_| "missing result")?.into();
    let blocked = TensorView::of(d.r#type())
        .and_then(|t| t.encoding)
        .and_then(Layout::read)
        .is_some_and(|l| matches!(l, Layout::Blocked { .. }));
    if !blocked {
        return Err("'tt.dot' with an MMA layout (mma.sync, wgmma) is not supported yet".into());
    }
    let (da, db, dd) = (
        lw.distributed(a.r#type())?,
        lw.distributed(b.r#type())?,
        lw.distributed(d.r#type())?,
    );
    let rank = dd.rank();
    let (m, n, k) = (rank - 2, rank - 1, rank - 1);
    if !threads_agree(&da, &dd, &[m], k) || !threads_agree(&db, &dd, &[n], rank - 2) {
        return Err(
            "'tt.dot' whose operand layouts spread K over threads is not supported yet".into(),
        );
    }
    let result_type = lw.element_type(d.r#type());
    let integer = result_type.is_integer();
    for v in [a, b] {
        let element = lw.element_type(v.r#type());
        if element != result_type {
            return Err(format!(
                "'tt.dot' on CUDA cores with {element} operands and a {result_type} result is not supported yet"
            ));
        }
    }
    let (va, vb, vc) = (lw.get(a)?, lw.get(b)?, lw.get(c)?);
    // The register of each coordinate (the first, where registers repeat).
    let index = |dist: &Distributed| {
        let mut map = HashMap::new();
        for (r, coordinates) in dist.registers.iter().enumerate() {
            map.entry(coordinates.clone()).or_insert(r);
        }
        map
    };
    let (ia, ib) = (index(&da), index(&db));
    let depth = da.shape[k];
    let mut out = Vec::with_capacity(dd.len());
    for (t, coordinates) in dd.registers.iter().enumerate() {
        let mut acc = vc[t];
        for kk in 0..depth as i32 {
            let mut at_a = coordinates.clone();
            at_a[k] = kk;
            let mut at_b = coordinates.clone();
            at_b[rank - 2] = kk;
            let (Some(&ra), Some(&rb)) = (ia.get(&at_a), ib.get(&at_b)) else {
                return Err("'tt.dot' whose operands do not hold the result's rows and columns is not supported yet".into());
            };
            acc = if integer {
                let product = emit.value("llvm.mul", &[va[ra], vb[rb]], result_type, &[]);
                emit.value("llvm.add", &[product, acc], result_type, &[])
            } else {
                emit.value(
                    "llvm.intr.fmuladd",
                    &[va[ra], vb[rb], acc],
                    result_type,
                    &[],
                )
            };
        }
        out.push(acc);
    }
    lw.set(d, out);
    Ok(())
}

/// Whether lanes and warps move `operand`'s dimensions `shared` (and the
/// batch dimensions before them) as they move `result`'s, and never its
/// dimension `reduced` (K): then a thread's operand registers hold what its
/// result registers need.
fn threads_agree(
    operand: &Distributed,
    result: &Distributed,
    shared: &[usize],
    reduced: usize,
) -> bool {
    let rank = result.rank();
    ["lane", "warp"].iter().all(|in_dim| {
        let (o, r) = (operand.layout.bases(in_dim), result.layout.bases(in_dim));
        o.len() == r.len()
            && o.iter().zip(r).all(|(ob, rb)| {
                ob[reduced] == 0
                    && (0..rank - 2)
                        .chain(shared.iter().copied())
                        .all(|dim| ob[dim] == rb[dim])
            })
    })
}
