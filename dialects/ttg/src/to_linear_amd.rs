//! AMD's layouts as linear layouts, following Triton 3.6's
//! `LinearLayoutConversions.cpp`: the results of MFMA (CDNA, 64-lane
//! wavefronts) and WMMA (RDNA, 32 lanes) instructions, the dot operands of
//! both, and the rotating swizzled shared layout (with the plain swizzled
//! one it extends). [`crate::to_linear`] dispatches here; the results have
//! the same form as its own (outputs `dim0`, `dim1`, ... sized by the
//! tensor's shape).

use crate::layout::Layout;
use crate::linear_layout::LinearLayout;
use crate::to_linear::{
    combine_cta_cga_with_shape, identity_standard_nd, matrix_order, names, standard_out_dim_names,
    LANE, REGISTER, WARP,
};

/// The input dimension of shared layouts: an element's offset in memory.
pub const OFFSET: &str = "offset";

/// Lanes of an MFMA wavefront.
const MFMA_LANES: i32 = 64;
/// Lanes of a WMMA wave.
const WMMA_LANES: i32 = 32;

/// Triton's `identity1D`: like [`LinearLayout::identity_1d`], but a size of
/// 0 (a quotient that rounded down) gives the empty layout.
fn id(size: i64, in_dim: &str, out_dim: &str) -> LinearLayout {
    if size == 0 {
        LinearLayout::empty()
    } else {
        LinearLayout::identity_1d(size as i32, in_dim, out_dim)
    }
}

fn power_of_two(what: &str, value: u32) -> Result<(), String> {
    if value.is_power_of_two() {
        Ok(())
    } else {
        Err(format!("{what} must be a power of two, got {value}"))
    }
}

/// Extends the tile of one MFMA or WMMA instruction (outputs `[N, M]`) over
/// the tensor the way Triton's AMD dot lowering expects: first along N (a
/// warp's own tiles, the warps, then repeats over the rest of N), and only
/// then along M (a warp's own tiles, then the warps); the batch dimension
/// of rank 3 comes last, split over warps only.
fn extend_amd_mma_tile(
    mut tile: LinearLayout,
    warps_per_cta: &[u32],
    tiles_per_warp: &[u32],
    n_dim: u32,
    shape: &[i64],
) -> LinearLayout {
    let rank = shape.len();
    let batch = rank == 3;
    let (m_index, n_index) = (usize::from(batch), 1 + usize::from(batch));
    let dims = standard_out_dim_names(rank);
    let (dim_m, dim_n) = (&dims[m_index], &dims[n_index]);
    let tiles_n = i64::from(tiles_per_warp[n_index]);
    let warps_n = i64::from(warps_per_cta[n_index]);
    tile *= id(tiles_n, REGISTER, dim_n);
    tile *= id(warps_n, WARP, dim_n);
    tile *= id(
        shape[n_index] / (i64::from(n_dim) * warps_n * tiles_n),
        REGISTER,
        dim_n,
    );
    tile *= id(i64::from(tiles_per_warp[m_index]), REGISTER, dim_m);
    tile *= id(i64::from(warps_per_cta[m_index]), WARP, dim_m);
    if batch {
        tile *= id(1, REGISTER, &dims[0]);
        tile *= id(1, LANE, &dims[0]);
        tile *= id(i64::from(warps_per_cta[0]), WARP, &dims[0]);
    }
    tile
}

/// `AMDMfmaEncodingAttr::toLinearLayout`. Within one instruction's tile a
/// lane holds `height` consecutive elements along M (4, or 1 for 64-bit
/// results), lanes run along N and then M, and register repeats fill the
/// rest of M; `isTransposed` swaps the roles of M and N.
pub fn mfma_to_linear(layout: &Layout, shape: &[i64]) -> Result<LinearLayout, String> {
    let Layout::AmdMfma {
        warps_per_cta,
        instr_shape,
        is_transposed,
        tiles_per_warp,
        element_bit_width,
        cga,
        ..
    } = layout
    else {
        return Err("expected an amd_mfma layout".into());
    };
    let rank = shape.len();
    let dims = standard_out_dim_names(rank);
    let order = matrix_order(rank, true);
    let (dim_m, dim_n) = (&dims[order[1] as usize], &dims[order[0] as usize]);
    let (m, n) = (instr_shape[0], instr_shape[1]);
    let height: i64 = if *element_bit_width == 64 { 1 } else { 4 };
    if m == 64 && n == 4 && !is_transposed {
        return Err("a 64x4 amd_mfma layout must be transposed".into());
    }
    let (m, n) = (i64::from(m), i64::from(n));
    let tiles = m * n / (i64::from(MFMA_LANES) * height);
    let lanes = i64::from(MFMA_LANES);
    // (the dimension of a lane's own elements, the other one, and the
    // instruction's extent along the other one)
    let (own, across, across_size) = if *is_transposed {
        (dim_n, dim_m, m)
    } else {
        (dim_m, dim_n, n)
    };
    let mut tile = id(height, REGISTER, own)
        * (id(across_size, LANE, across) * id(lanes / across_size, LANE, own));
    tile *= id(tiles, REGISTER, own);
    let tile = tile.transpose_outs(&[dim_n, dim_m])?;
    let tile = extend_amd_mma_tile(tile, warps_per_cta, tiles_per_warp, n as u32, shape);
    combine_cta_cga_with_shape(tile, cga, shape)
}

/// `AMDWmmaEncodingAttr::toLinearLayout`. Version 1 gives each lane every
/// other row of a 16x16 tile (lanes 16-31 take the odd rows); versions 2
/// and 3 give each lane 8 consecutive rows (lanes 16-31 the lower half).
/// `isTransposed` swaps rows and columns within the tile.
pub fn wmma_to_linear(layout: &Layout, shape: &[i64]) -> Result<LinearLayout, String> {
    let Layout::AmdWmma {
        version,
        is_transposed,
        warps_per_cta,
        tiles_per_warp,
        instr_shape,
        cga,
    } = layout
    else {
        return Err("expected an amd_wmma layout".into());
    };
    let rank = shape.len();
    let batch = rank == 3;
    let (m_index, n_index) = (usize::from(batch), 1 + usize::from(batch));
    let (m, n) = (i64::from(instr_shape[0]), i64::from(instr_shape[1]));
    if !((shape[m_index] == 1 || shape[m_index] >= m)
        && (shape[n_index] == 1 || shape[n_index] >= n))
    {
        return Err(format!(
            "a {}x{} tensor is smaller than the {m}x{n} tile of its amd_wmma layout",
            shape[m_index], shape[n_index]
        ));
    }
    let dims = standard_out_dim_names(rank);
    let thread_order = matrix_order(rank, !is_transposed);
    let tile_dims = [
        dims[thread_order[0] as usize].as_str(),
        dims[thread_order[1] as usize].as_str(),
    ];
    // Bases are (along thread_order[0], along thread_order[1]).
    let registers: Vec<Vec<i32>> = if *version == 1 {
        vec![vec![0, 2], vec![0, 4], vec![0, 8]]
    } else {
        vec![vec![0, 1], vec![0, 2], vec![0, 4]]
    };
    let gap = if *version == 1 {
        vec![0, 1]
    } else {
        vec![0, 8]
    };
    let lanes = vec![vec![1, 0], vec![2, 0], vec![4, 0], vec![8, 0], gap];
    let tile = LinearLayout::from_bases(
        vec![(REGISTER.into(), registers), (LANE.into(), lanes)],
        &tile_dims,
    )?;
    let warp_order = matrix_order(rank, true);
    let (dim_m, dim_n) = (&dims[warp_order[1] as usize], &dims[warp_order[0] as usize]);
    let tile = tile.transpose_outs(&[dim_n, dim_m])?;
    let tile = extend_amd_mma_tile(tile, warps_per_cta, tiles_per_warp, n as u32, shape);
    combine_cta_cga_with_shape(tile, cga, shape)
}

/// The linear layout of operand `op_idx` of a dot whose result has the
/// AMD layout `parent` (`mfmaDotToLinearLayout`,
/// `wmmaDotOperandToLinearLayout`).
pub fn amd_dot_operand_to_linear(
    op_idx: u32,
    k_width: u32,
    parent: &Layout,
    shape: &[i64],
) -> Result<LinearLayout, String> {
    power_of_two("kWidth", k_width)?;
    parent.check()?;
    match parent {
        Layout::AmdMfma { .. } => mfma_dot_to_linear(op_idx, k_width, parent, shape),
        Layout::AmdWmma { .. } => wmma_dot_to_linear(op_idx, k_width, parent, shape),
        _ => Err("expected an amd_mfma or amd_wmma parent".into()),
    }
}

/// Where K lies for dot operand `op_idx` (0: A, K last; 1: B, K second to
/// last) of a rank-`rank` tensor, the standard dim names and the operand's
/// dim order (K fastest).
struct OperandAxes {
    is_a: bool,
    k_index: usize,
    non_k_index: usize,
    dims: Vec<String>,
    order: Vec<u32>,
}

impl OperandAxes {
    fn of(op_idx: u32, rank: usize) -> Self {
        let is_a = op_idx == 0;
        let (k_index, non_k_index) = if is_a {
            (rank - 1, rank - 2)
        } else {
            (rank - 2, rank - 1)
        };
        Self {
            is_a,
            k_index,
            non_k_index,
            dims: standard_out_dim_names(rank),
            order: matrix_order(rank, is_a),
        }
    }
}

/// An MFMA operand: a lane holds `kWidth` consecutive K elements; lanes run
/// along the non-K dimension (the instruction's M or N) and then along K;
/// register repeats cover the rest of K and then the warp's tiles along
/// the non-K dimension. Warps are laid out as for the result (their
/// copies along K are dropped when the tensor is fitted to its shape).
fn mfma_dot_to_linear(
    op_idx: u32,
    k_width: u32,
    parent: &Layout,
    shape: &[i64],
) -> Result<LinearLayout, String> {
    let Layout::AmdMfma {
        warps_per_cta,
        instr_shape,
        tiles_per_warp,
        cga,
        ..
    } = parent
    else {
        return Err("expected an amd_mfma parent".into());
    };
    let rank = shape.len();
    let OperandAxes {
        is_a,
        k_index,
        non_k_index,
        dims,
        order,
    } = OperandAxes::of(op_idx, rank);
    let (m, n) = (instr_shape[0], instr_shape[1]);
    let non_k = i64::from(if is_a { m } else { n });
    let (dim_k, dim_non_k) = (&dims[order[0] as usize], &dims[order[1] as usize]);
    let lanes = i64::from(MFMA_LANES);
    let kw = i64::from(k_width);
    let mut tile =
        id(kw, REGISTER, dim_k) * (id(non_k, LANE, dim_non_k) * id(lanes / non_k, LANE, dim_k));
    let mut k_tile = lanes / non_k * kw;
    // 64x4 and 4x64: the 64-wide operand repeats 16 times along K.
    if (m, n, is_a) == (64, 4, true) || (m, n, is_a) == (4, 64, false) {
        tile *= id(16, REGISTER, dim_k);
        k_tile *= 16;
    }
    if shape[k_index] > k_tile {
        tile *= id(shape[k_index] / k_tile, REGISTER, dim_k);
    }
    tile *= id(i64::from(tiles_per_warp[non_k_index]), REGISTER, dim_non_k);
    let mut tile = tile.transpose_outs(&[dim_k, dim_non_k])?;
    if rank == 3 {
        let batch = &dims[order[2] as usize];
        tile *= id(1, REGISTER, batch);
        tile *= id(1, LANE, batch);
    }
    let warps = identity_standard_nd(WARP, warps_per_cta, &matrix_order(rank, true))
        .transpose_outs(&tile.out_dim_names())?;
    combine_cta_cga_with_shape(tile * warps, cga, shape)?.transpose_outs(&names(&dims))
}

/// A WMMA operand: a lane holds `kWidth` consecutive K elements; 16 lanes
/// run along the non-K dimension, and the other half of the wave either
/// repeats them (version 1) or continues along K (versions 2 and 3);
/// register repeats fill the instruction's K. Warps broadcast along K.
fn wmma_dot_to_linear(
    op_idx: u32,
    k_width: u32,
    parent: &Layout,
    shape: &[i64],
) -> Result<LinearLayout, String> {
    let Layout::AmdWmma {
        version,
        warps_per_cta,
        tiles_per_warp,
        instr_shape,
        cga,
        ..
    } = parent
    else {
        return Err("expected an amd_wmma parent".into());
    };
    let rank = shape.len();
    let OperandAxes {
        is_a,
        k_index,
        non_k_index,
        dims,
        order,
    } = OperandAxes::of(op_idx, rank);
    let (dim_k, dim_non_k) = (&dims[order[0] as usize], &dims[order[1] as usize]);
    let k_dim = i64::from(instr_shape[2]);
    let non_k = i64::from(if is_a { instr_shape[0] } else { instr_shape[1] });
    let tiles_non_k = tiles_per_warp[non_k_index];
    let kw = i64::from(k_width);
    let depth = i64::from(WMMA_LANES) / non_k;
    let mut tile = id(kw, REGISTER, dim_k) * id(non_k, LANE, dim_non_k);
    tile *= if *version == 1 {
        LinearLayout::zeros_1d(depth as i32, LANE, dim_k)
    } else {
        id(depth, LANE, dim_k)
    };
    let k_tile = depth * kw;
    if tiles_non_k > 1 {
        tile *= id(shape[k_index].max(k_dim) / k_tile, REGISTER, dim_k);
        tile *= id(i64::from(tiles_non_k), REGISTER, dim_non_k);
    } else {
        tile *= id(k_dim / k_tile, REGISTER, dim_k);
    }
    if rank == 3 {
        let batch = &dims[order[2] as usize];
        tile *= id(1, REGISTER, batch);
        tile *= id(1, LANE, batch);
    }
    let warps =
        crate::to_linear::broadcasted_nd(WARP, warps_per_cta, &matrix_order(rank, true), k_index);
    // Both in the operand's repetition order (K fastest), so that fitting
    // to the shape repeats along K first.
    let rep: Vec<&str> = order.iter().map(|&d| dims[d as usize].as_str()).collect();
    let cta = tile.transpose_outs(&rep)? * warps.transpose_outs(&rep)?;
    combine_cta_cga_with_shape(cta, cga, shape)
}

/// How many CTAs split each dimension: the extent of the CGA layout's
/// block bases along it (Triton's `CTASplitNum`).
fn cta_split(cga: &[Vec<i64>], rank: usize) -> Vec<i64> {
    (0..rank)
        .map(|d| {
            let top = cga.iter().map(|b| b.get(d).copied().unwrap_or(0)).max();
            match top {
                Some(v) if v > 0 => (v as u64 + 1).next_power_of_two() as i64,
                _ => 1,
            }
        })
        .collect()
}

/// The linear layout of a swizzled (`swizzled_shared`) or rotating
/// (`amd_rotating_shared`) shared encoding for a buffer of `shape`: input
/// `offset` (elements from the buffer's start) and `block` (the CTA), to
/// the tensor coordinates held there. The two fastest dimensions of
/// `order` are swizzled: row `r` XORs its columns with `vec * phase`, where
/// the phase is `(r / perPhase) % maxPhase`, and for the rotating layout
/// also XORed with the block of rows `(r / (perPhase * maxPhase)) %
/// maxPhase`. Slower dimensions follow `order` unswizzled.
pub fn swizzled_shared_to_linear(layout: &Layout, shape: &[i64]) -> Result<LinearLayout, String> {
    let (vec, per_phase, max_phase, order, cga, rotating) = match layout {
        Layout::SwizzledShared {
            vec,
            per_phase,
            max_phase,
            order,
            cga,
        } => (vec, per_phase, max_phase, order, cga, false),
        Layout::AmdRotatingShared {
            vec,
            per_phase,
            max_phase,
            order,
            cga,
        } => (vec, per_phase, max_phase, order, cga, true),
        _ => return Err("expected a swizzled_shared or amd_rotating_shared layout".into()),
    };
    layout.check()?;
    let rank = shape.len();
    if order.len() != rank {
        return Err(format!(
            "a rank-{} shared layout cannot describe a rank-{rank} buffer",
            order.len()
        ));
    }
    if let Some(s) = shape
        .iter()
        .find(|&&s| s <= 0 || s & (s - 1) != 0 || s > 1 << 30)
    {
        return Err(format!(
            "every buffer dimension must be a power of two, got {s}"
        ));
    }
    let dims = standard_out_dim_names(rank);
    let split = cta_split(cga, rank);
    let per_cta: Vec<i64> = shape
        .iter()
        .zip(&split)
        .map(|(&s, &n)| (s / n).max(1))
        .collect();
    if rank == 1 {
        return combine_cta_cga_with_shape(id(per_cta[0], OFFSET, &dims[0]), cga, shape);
    }
    let (col_dim, row_dim) = (order[0] as usize, order[1] as usize);
    // Triton's rotating layout swizzles over the whole shape, the plain one
    // over each CTA's share.
    let extent = if rotating { shape } else { &per_cta[..] };
    let (cols, rows) = (extent[col_dim], extent[row_dim]);
    let (vec, per_phase, max_phase) = (
        i64::from(*vec),
        i64::from(*per_phase),
        i64::from(*max_phase),
    );
    let mut bases: Vec<Vec<i32>> = Vec::new();
    let mut col = 1;
    while col < cols {
        bases.push(vec![0, col as i32]);
        col *= 2;
    }
    let mut row = 1;
    while row < rows {
        let mut phase = (row / per_phase) % max_phase;
        if rotating {
            phase ^= row / max_phase / per_phase % max_phase;
        }
        bases.push(vec![row as i32, ((vec * phase) % cols) as i32]);
        row *= 2;
    }
    let mut cta = LinearLayout::from_bases(
        vec![(OFFSET.into(), bases)],
        &[&dims[row_dim], &dims[col_dim]],
    )?;
    for &d in &order[2..] {
        cta *= id(extent[d as usize], OFFSET, &dims[d as usize]);
    }
    // Every output (even one of size 1) must be present before the CGA
    // layout is combined in.
    for d in &dims {
        if !cta.has_out_dim(d) {
            cta *= id(1, OFFSET, d);
        }
    }
    combine_cta_cga_with_shape(cta, cga, shape)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::to_linear::tests::{expect, v};
    use crate::to_linear::{to_linear_layout, BLOCK};

    fn mfma(warps: &[u32], instr: &[u32], transposed: bool) -> Layout {
        Layout::AmdMfma {
            version: 3,
            warps_per_cta: warps.to_vec(),
            instr_shape: instr.to_vec(),
            is_transposed: transposed,
            tiles_per_warp: vec![1; instr.len()],
            element_bit_width: 32,
            cga: vec![],
        }
    }

    fn wmma(version: u32, warps: &[u32], instr: &[u32], transposed: bool) -> Layout {
        Layout::AmdWmma {
            version,
            is_transposed: transposed,
            warps_per_cta: warps.to_vec(),
            tiles_per_warp: vec![1; instr.len()],
            instr_shape: instr.to_vec(),
            cga: vec![],
        }
    }

    fn dot(parent: Layout, op_idx: u32, k_width: u32) -> Layout {
        Layout::DotOperand {
            op_idx,
            k_width,
            parent: Some(Box::new(parent)),
        }
    }

    fn with_tiles(mut layout: Layout, tiles: &[u32]) -> Layout {
        match &mut layout {
            Layout::AmdMfma { tiles_per_warp, .. } | Layout::AmdWmma { tiles_per_warp, .. } => {
                *tiles_per_warp = tiles.to_vec()
            }
            _ => unreachable!(),
        }
        layout
    }

    type Case<'a> = (&'a [i64], &'a [&'a [i32]], &'a [&'a [i32]], &'a [&'a [i32]]);

    /// Each case: the tensor shape and the expected register, lane and
    /// warp bases (no block bases).
    fn check(layout: &Layout, cases: &[Case]) {
        for (shape, reg, lane, warp) in cases {
            let ll = to_linear_layout(layout, shape)
                .unwrap_or_else(|e| panic!("{layout:?} for {shape:?}: {e}"));
            expect(&ll, reg, lane, warp);
            assert!(ll.bases(BLOCK).is_empty());
            assert_eq!(
                ll.outs()
                    .iter()
                    .map(|(_, s)| i64::from(*s))
                    .collect::<Vec<_>>(),
                shape.to_vec()
            );
        }
    }

    // The expected bases below are those of Triton 3.6's own unit tests
    // (unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp, tests
    // MFMA*, WMMA*, AMDRotatingShared*), copied case by case.

    #[test]
    fn mfma32_2x4_warps() {
        let nt = mfma(&[2, 4], &[32, 32, 8], false);
        check(
            &nt,
            &[
                (
                    &[32, 32],
                    &[&[1, 0], &[2, 0], &[8, 0], &[16, 0]],
                    &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[0, 16], &[4, 0]],
                    &[&[0, 0], &[0, 0], &[0, 0]],
                ),
                (
                    &[64, 32],
                    &[&[1, 0], &[2, 0], &[8, 0], &[16, 0]],
                    &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[0, 16], &[4, 0]],
                    &[&[0, 0], &[0, 0], &[32, 0]],
                ),
                (
                    &[128, 128],
                    &[&[1, 0], &[2, 0], &[8, 0], &[16, 0], &[64, 0]],
                    &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[0, 16], &[4, 0]],
                    &[&[0, 32], &[0, 64], &[32, 0]],
                ),
            ],
        );
        let t = mfma(&[2, 4], &[32, 32, 8], true);
        check(
            &t,
            &[
                (
                    &[64, 32],
                    &[&[0, 1], &[0, 2], &[0, 8], &[0, 16]],
                    &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[16, 0], &[0, 4]],
                    &[&[0, 0], &[0, 0], &[32, 0]],
                ),
                (
                    &[128, 128],
                    &[&[0, 1], &[0, 2], &[0, 8], &[0, 16], &[64, 0]],
                    &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[16, 0], &[0, 4]],
                    &[&[0, 32], &[0, 64], &[32, 0]],
                ),
            ],
        );
    }

    #[test]
    fn mfma_tiles_per_warp() {
        let nt = with_tiles(mfma(&[2, 4], &[32, 32, 8], false), &[2, 2]);
        check(
            &nt,
            &[
                (
                    &[32, 32],
                    &[&[1, 0], &[2, 0], &[8, 0], &[16, 0], &[0, 0], &[0, 0]],
                    &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[0, 16], &[4, 0]],
                    &[&[0, 0], &[0, 0], &[0, 0]],
                ),
                (
                    &[256, 256],
                    &[
                        &[1, 0],
                        &[2, 0],
                        &[8, 0],
                        &[16, 0],
                        &[0, 32],
                        &[32, 0],
                        &[128, 0],
                    ],
                    &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[0, 16], &[4, 0]],
                    &[&[0, 64], &[0, 128], &[64, 0]],
                ),
            ],
        );
        let nt16 = with_tiles(mfma(&[2, 4], &[16, 16, 16], false), &[2, 2]);
        check(
            &nt16,
            &[(
                &[256, 256],
                &[
                    &[1, 0],
                    &[2, 0],
                    &[0, 16],
                    &[0, 128],
                    &[16, 0],
                    &[64, 0],
                    &[128, 0],
                ],
                &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[4, 0], &[8, 0]],
                &[&[0, 32], &[0, 64], &[32, 0]],
            )],
        );
        let t16 = with_tiles(mfma(&[2, 4], &[16, 16, 16], true), &[2, 2]);
        check(
            &t16,
            &[(
                &[128, 128],
                &[&[0, 1], &[0, 2], &[0, 16], &[16, 0], &[64, 0]],
                &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[0, 4], &[0, 8]],
                &[&[0, 32], &[0, 64], &[32, 0]],
            )],
        );
    }

    #[test]
    fn mfma16_f64_and_batched() {
        check(
            &mfma(&[2, 4], &[16, 16, 16], false),
            &[(
                &[16, 16],
                &[&[1, 0], &[2, 0]],
                &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[4, 0], &[8, 0]],
                &[&[0, 0], &[0, 0], &[0, 0]],
            )],
        );
        let mut f64 = mfma(&[2, 4], &[16, 16, 4], false);
        if let Layout::AmdMfma {
            element_bit_width, ..
        } = &mut f64
        {
            *element_bit_width = 64;
        }
        check(
            &f64,
            &[(
                &[16, 16],
                &[&[4, 0], &[8, 0]],
                &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[1, 0], &[2, 0]],
                &[&[0, 0], &[0, 0], &[0, 0]],
            )],
        );
        check(
            &mfma(&[2, 4, 1], &[32, 32, 8], false),
            &[
                (
                    &[1, 128, 128],
                    &[
                        &[0, 1, 0],
                        &[0, 2, 0],
                        &[0, 8, 0],
                        &[0, 16, 0],
                        &[0, 0, 32],
                        &[0, 0, 64],
                    ],
                    &[
                        &[0, 0, 1],
                        &[0, 0, 2],
                        &[0, 0, 4],
                        &[0, 0, 8],
                        &[0, 0, 16],
                        &[0, 4, 0],
                    ],
                    &[&[0, 32, 0], &[0, 64, 0], &[0, 0, 0]],
                ),
                (
                    &[2, 64, 32],
                    &[&[0, 1, 0], &[0, 2, 0], &[0, 8, 0], &[0, 16, 0]],
                    &[
                        &[0, 0, 1],
                        &[0, 0, 2],
                        &[0, 0, 4],
                        &[0, 0, 8],
                        &[0, 0, 16],
                        &[0, 4, 0],
                    ],
                    &[&[0, 32, 0], &[0, 0, 0], &[1, 0, 0]],
                ),
            ],
        );
    }

    #[test]
    fn mfma_64x4_must_be_transposed() {
        assert!(to_linear_layout(&mfma(&[1, 1], &[64, 4, 4], false), &[64, 4]).is_err());
        let ll = to_linear_layout(&mfma(&[1, 1], &[64, 4, 4], true), &[64, 4]).unwrap();
        // 64 lanes down M, each with 4 elements along N.
        expect(
            &ll,
            &[&[0, 1], &[0, 2]],
            &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[16, 0], &[32, 0]],
            &[],
        );
    }

    #[test]
    fn mfma_dot_operands() {
        let p32 = mfma(&[2, 4], &[32, 32, 8], false);
        check(
            &dot(p32.clone(), 0, 4),
            &[
                (
                    &[128, 128],
                    &[
                        &[0, 1],
                        &[0, 2],
                        &[0, 8],
                        &[0, 16],
                        &[0, 32],
                        &[0, 64],
                        &[64, 0],
                    ],
                    &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[16, 0], &[0, 4]],
                    &[&[0, 0], &[0, 0], &[32, 0]],
                ),
                (
                    &[16, 16],
                    &[&[0, 1], &[0, 2], &[0, 8]],
                    &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[0, 0], &[0, 4]],
                    &[&[0, 0], &[0, 0], &[0, 0]],
                ),
            ],
        );
        check(
            &dot(p32.clone(), 1, 4),
            &[(
                &[128, 128],
                &[&[1, 0], &[2, 0], &[8, 0], &[16, 0], &[32, 0], &[64, 0]],
                &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[0, 16], &[4, 0]],
                &[&[0, 32], &[0, 64], &[0, 0]],
            )],
        );
        // A transposed parent gives the same operands.
        let t32 = mfma(&[2, 4], &[32, 32, 8], true);
        for op in 0..2 {
            assert_eq!(
                to_linear_layout(&dot(t32.clone(), op, 4), &[64, 32]).unwrap(),
                to_linear_layout(&dot(p32.clone(), op, 4), &[64, 32]).unwrap()
            );
        }
        let p16 = mfma(&[2, 4], &[16, 16, 16], false);
        check(
            &dot(p16.clone(), 0, 4),
            &[(
                &[64, 32],
                &[&[0, 1], &[0, 2], &[0, 16], &[32, 0]],
                &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[0, 4], &[0, 8]],
                &[&[0, 0], &[0, 0], &[16, 0]],
            )],
        );
        check(
            &dot(p16, 1, 4),
            &[(
                &[128, 128],
                &[&[1, 0], &[2, 0], &[16, 0], &[32, 0], &[64, 0], &[0, 64]],
                &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[4, 0], &[8, 0]],
                &[&[0, 16], &[0, 32], &[0, 0]],
            )],
        );
        // tilesPerWarp repeats along the non-K dimension.
        let tpw = with_tiles(mfma(&[2, 4], &[32, 32, 8], false), &[2, 2]);
        check(
            &dot(tpw.clone(), 0, 4),
            &[(
                &[128, 128],
                &[
                    &[0, 1],
                    &[0, 2],
                    &[0, 8],
                    &[0, 16],
                    &[0, 32],
                    &[0, 64],
                    &[32, 0],
                ],
                &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[16, 0], &[0, 4]],
                &[&[0, 0], &[0, 0], &[64, 0]],
            )],
        );
        check(
            &dot(tpw, 1, 4),
            &[(
                &[32, 64],
                &[&[1, 0], &[2, 0], &[8, 0], &[16, 0], &[0, 32]],
                &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[0, 16], &[4, 0]],
                &[&[0, 0], &[0, 0], &[0, 0]],
            )],
        );
        // One warp along K, kWidth 8.
        let p18 = mfma(&[1, 8], &[32, 32, 8], false);
        check(
            &dot(p18.clone(), 0, 8),
            &[(
                &[16, 16],
                &[&[0, 1], &[0, 2], &[0, 4]],
                &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[0, 0], &[0, 8]],
                &[&[0, 0], &[0, 0], &[0, 0]],
            )],
        );
        check(
            &dot(p18, 1, 8),
            &[(
                &[128, 256],
                &[&[1, 0], &[2, 0], &[4, 0], &[16, 0], &[32, 0], &[64, 0]],
                &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[0, 16], &[8, 0]],
                &[&[0, 32], &[0, 64], &[0, 128]],
            )],
        );
    }

    #[test]
    fn wmma_results() {
        check(
            &wmma(1, &[2, 4], &[16, 16, 16], false),
            &[
                (
                    &[16, 32],
                    &[&[2, 0], &[4, 0], &[8, 0]],
                    &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[1, 0]],
                    &[&[0, 16], &[0, 0], &[0, 0]],
                ),
                (
                    &[128, 128],
                    &[&[2, 0], &[4, 0], &[8, 0], &[0, 64], &[32, 0], &[64, 0]],
                    &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[1, 0]],
                    &[&[0, 16], &[0, 32], &[16, 0]],
                ),
            ],
        );
        check(
            &wmma(1, &[2, 4, 1], &[16, 16, 16], false),
            &[(
                &[8, 16, 16],
                &[&[0, 2, 0], &[0, 4, 0], &[0, 8, 0], &[2, 0, 0], &[4, 0, 0]],
                &[&[0, 0, 1], &[0, 0, 2], &[0, 0, 4], &[0, 0, 8], &[0, 1, 0]],
                &[&[0, 0, 0], &[0, 0, 0], &[1, 0, 0]],
            )],
        );
        check(
            &wmma(2, &[2, 4], &[16, 16, 16], false),
            &[(
                &[64, 128],
                &[&[1, 0], &[2, 0], &[4, 0], &[0, 64], &[32, 0]],
                &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[8, 0]],
                &[&[0, 16], &[0, 32], &[16, 0]],
            )],
        );
        check(
            &wmma(2, &[2, 2, 2], &[16, 16, 16], true),
            &[(
                &[4, 64, 64],
                &[
                    &[0, 0, 1],
                    &[0, 0, 2],
                    &[0, 0, 4],
                    &[0, 0, 32],
                    &[0, 32, 0],
                    &[2, 0, 0],
                ],
                &[&[0, 1, 0], &[0, 2, 0], &[0, 4, 0], &[0, 8, 0], &[0, 0, 8]],
                &[&[0, 0, 16], &[0, 16, 0], &[1, 0, 0]],
            )],
        );
        check(
            &wmma(3, &[2, 4], &[16, 16, 32], false),
            &[(
                &[32, 64],
                &[&[1, 0], &[2, 0], &[4, 0]],
                &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[8, 0]],
                &[&[0, 16], &[0, 32], &[16, 0]],
            )],
        );
        // Smaller than one instruction's tile: Triton asserts; here an error.
        assert!(to_linear_layout(&wmma(2, &[1, 1], &[16, 16, 16], false), &[8, 16]).is_err());
    }

    #[test]
    fn wmma_dot_operands() {
        let v1 = wmma(1, &[2, 4], &[16, 16, 16], false);
        check(
            &dot(v1.clone(), 0, 16),
            &[(
                &[64, 128],
                &[
                    &[0, 1],
                    &[0, 2],
                    &[0, 4],
                    &[0, 8],
                    &[0, 16],
                    &[0, 32],
                    &[0, 64],
                    &[32, 0],
                ],
                &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[0, 0]],
                &[&[0, 0], &[0, 0], &[16, 0]],
            )],
        );
        check(
            &dot(v1, 1, 16),
            &[(
                &[64, 128],
                &[
                    &[1, 0],
                    &[2, 0],
                    &[4, 0],
                    &[8, 0],
                    &[16, 0],
                    &[32, 0],
                    &[0, 64],
                ],
                &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[0, 0]],
                &[&[0, 16], &[0, 32], &[0, 0]],
            )],
        );
        check(
            &dot(wmma(1, &[2, 4, 1], &[16, 16, 16], false), 1, 16),
            &[(
                &[4, 128, 32],
                &[
                    &[0, 1, 0],
                    &[0, 2, 0],
                    &[0, 4, 0],
                    &[0, 8, 0],
                    &[0, 16, 0],
                    &[0, 32, 0],
                    &[0, 64, 0],
                    &[0, 0, 16],
                    &[2, 0, 0],
                ],
                &[&[0, 0, 1], &[0, 0, 2], &[0, 0, 4], &[0, 0, 8], &[0, 0, 0]],
                &[&[0, 0, 0], &[0, 0, 0], &[1, 0, 0]],
            )],
        );
        check(
            &dot(wmma(2, &[2, 4], &[16, 16, 16], false), 0, 8),
            &[(
                &[16, 16],
                &[&[0, 1], &[0, 2], &[0, 4]],
                &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[0, 8]],
                &[&[0, 0], &[0, 0], &[0, 0]],
            )],
        );
        let v3 = wmma(3, &[2, 4], &[16, 16, 32], false);
        check(
            &dot(v3.clone(), 0, 8),
            &[(
                &[64, 128],
                &[
                    &[0, 1],
                    &[0, 2],
                    &[0, 4],
                    &[0, 16],
                    &[0, 32],
                    &[0, 64],
                    &[32, 0],
                ],
                &[&[1, 0], &[2, 0], &[4, 0], &[8, 0], &[0, 8]],
                &[&[0, 0], &[0, 0], &[16, 0]],
            )],
        );
        check(
            &dot(v3, 1, 8),
            &[(
                &[64, 128],
                &[&[1, 0], &[2, 0], &[4, 0], &[16, 0], &[32, 0], &[0, 64]],
                &[&[0, 1], &[0, 2], &[0, 4], &[0, 8], &[8, 0]],
                &[&[0, 16], &[0, 32], &[0, 0]],
            )],
        );
    }

    #[test]
    fn rotating_shared_as_triton() {
        let rotating = |vec, per_phase, max_phase, order: &[u32]| Layout::AmdRotatingShared {
            vec,
            per_phase,
            max_phase,
            order: order.to_vec(),
            cga: vec![],
        };
        type SharedCase<'a> = (Layout, &'a [i64], &'a [&'a [i32]]);
        let cases: Vec<SharedCase> = vec![
            (
                rotating(2, 2, 2, &[1, 0]),
                &[8, 16],
                &[
                    &[0, 1],
                    &[0, 2],
                    &[0, 4],
                    &[0, 8],
                    &[1, 0],
                    &[2, 2],
                    &[4, 2],
                ],
            ),
            (
                rotating(2, 2, 2, &[0, 1]),
                &[8, 16],
                &[
                    &[1, 0],
                    &[2, 0],
                    &[4, 0],
                    &[0, 1],
                    &[2, 2],
                    &[2, 4],
                    &[0, 8],
                ],
            ),
            (
                rotating(4, 2, 4, &[1, 0]),
                &[64, 64],
                &[
                    &[0, 1],
                    &[0, 2],
                    &[0, 4],
                    &[0, 8],
                    &[0, 16],
                    &[0, 32],
                    &[1, 0],
                    &[2, 4],
                    &[4, 8],
                    &[8, 4],
                    &[16, 8],
                    &[32, 0],
                ],
            ),
            (
                rotating(4, 2, 4, &[2, 1, 0]),
                &[4, 64, 64],
                &[
                    &[0, 0, 1],
                    &[0, 0, 2],
                    &[0, 0, 4],
                    &[0, 0, 8],
                    &[0, 0, 16],
                    &[0, 0, 32],
                    &[0, 1, 0],
                    &[0, 2, 4],
                    &[0, 4, 8],
                    &[0, 8, 4],
                    &[0, 16, 8],
                    &[0, 32, 0],
                    &[1, 0, 0],
                    &[2, 0, 0],
                ],
            ),
        ];
        for (layout, shape, offsets) in cases {
            let ll = swizzled_shared_to_linear(&layout, shape).unwrap();
            assert_eq!(ll.bases(OFFSET), v(offsets).as_slice(), "{layout:?}");
            assert!(ll.bases(BLOCK).is_empty());
            assert_eq!(ll.out_dim_names(), standard_out_dim_names(shape.len()));
        }
    }

    #[test]
    fn slices_and_coverage() {
        // Row sums of a 32x32 MFMA tile: each lane keeps its rows, the
        // lanes along N hold copies.
        let ll =
            to_linear_layout(&Layout::slice(1, mfma(&[1, 1], &[32, 32, 8], false)), &[32]).unwrap();
        expect(
            &ll,
            &[&[1], &[2], &[8], &[16]],
            &[&[0], &[0], &[0], &[0], &[0], &[4]],
            &[],
        );
        // Every element of the tensor has an owner, whatever the shape.
        let layouts = [
            mfma(&[2, 2], &[32, 32, 8], true),
            with_tiles(mfma(&[4, 1], &[16, 16, 16], false), &[2, 2, 1]),
            mfma(&[1, 4], &[4, 64, 4], false),
            wmma(1, &[2, 2], &[16, 16, 16], false),
            wmma(3, &[1, 4], &[16, 16, 64], true),
            dot(mfma(&[2, 2], &[16, 16, 16], true), 1, 8),
            dot(wmma(2, &[2, 2], &[16, 16, 32], false), 0, 16),
        ];
        for layout in &layouts {
            for shape in [[16, 16], [64, 32], [128, 256]] {
                let ll = to_linear_layout(layout, &shape).unwrap();
                assert!(ll.is_surjective(), "{layout:?} over {shape:?}:\n{ll}");
            }
        }
    }

    fn swizzled(rotating: bool, vec: u32, per_phase: u32, max_phase: u32) -> Layout {
        let (order, cga) = (vec![1, 0], vec![]);
        if rotating {
            Layout::AmdRotatingShared {
                vec,
                per_phase,
                max_phase,
                order,
                cga,
            }
        } else {
            Layout::SwizzledShared {
                vec,
                per_phase,
                max_phase,
                order,
                cga,
            }
        }
    }

    /// The memory offset of each element of a `rows` x `cols` buffer.
    fn offsets(layout: &Layout, rows: i64, cols: i64) -> Vec<Vec<i32>> {
        let ll = swizzled_shared_to_linear(layout, &[rows, cols]).unwrap();
        let inverse = ll.invert().unwrap();
        (0..rows as i32)
            .map(|r| {
                (0..cols as i32)
                    .map(|c| {
                        let out = inverse.apply(&[("dim0", r), ("dim1", c)]).unwrap();
                        out.iter().find(|(n, _)| n == OFFSET).unwrap().1
                    })
                    .collect()
            })
            .collect()
    }

    /// The element stored at each offset, row by row: the tables of
    /// Triton's descriptions of the two encodings.
    fn contents(layout: &Layout, rows: i64, cols: i64) -> Vec<Vec<i32>> {
        let by_offset = offsets(layout, rows, cols);
        let mut table = vec![vec![0; cols as usize]; rows as usize];
        for (r, row) in by_offset.iter().enumerate() {
            for (c, &o) in row.iter().enumerate() {
                table[o as usize / cols as usize][o as usize % cols as usize] =
                    (r * cols as usize + c) as i32;
            }
        }
        table
    }

    #[test]
    fn rotating_shared_matches_the_described_tables() {
        assert_eq!(
            contents(&swizzled(true, 1, 1, 2), 8, 4),
            vec![
                vec![0, 1, 2, 3],
                vec![5, 4, 7, 6],
                vec![9, 8, 11, 10],
                vec![12, 13, 14, 15],
                vec![16, 17, 18, 19],
                vec![21, 20, 23, 22],
                vec![25, 24, 27, 26],
                vec![28, 29, 30, 31],
            ]
        );
        assert_eq!(
            contents(&swizzled(true, 1, 2, 2), 8, 4)[2..6],
            [
                vec![9, 8, 11, 10],
                vec![13, 12, 15, 14],
                vec![17, 16, 19, 18],
                vec![21, 20, 23, 22],
            ]
        );
        assert_eq!(
            contents(&swizzled(true, 1, 1, 4), 8, 4)[4..],
            [
                vec![17, 16, 19, 18],
                vec![20, 21, 22, 23],
                vec![27, 26, 25, 24],
                vec![30, 31, 28, 29],
            ]
        );
        // The plain swizzle repeats every maxPhase rows instead.
        assert_eq!(
            contents(&swizzled(false, 1, 1, 2), 8, 4)[2..4],
            [vec![8, 9, 10, 11], vec![13, 12, 15, 14]]
        );
        // vec = 2 swizzles pairs.
        assert_eq!(
            contents(&swizzled(false, 2, 1, 4), 4, 8)[1],
            vec![10, 11, 8, 9, 14, 15, 12, 13]
        );
    }

    #[test]
    fn shared_layouts_keep_slow_dimensions_and_rank_one() {
        let layout = Layout::AmdRotatingShared {
            vec: 4,
            per_phase: 1,
            max_phase: 4,
            order: vec![2, 1, 0],
            cga: vec![],
        };
        let ll = crate::to_linear::shared_to_linear_layout(&layout, &[2, 8, 16]).unwrap();
        assert_eq!(ll.in_dim_size(OFFSET), 256);
        assert_eq!(ll.bases(OFFSET).last(), Some(&vec![1, 0, 0]));
        assert!(ll.is_invertible());
        let one = Layout::AmdRotatingShared {
            vec: 1,
            per_phase: 1,
            max_phase: 1,
            order: vec![0],
            cga: vec![],
        };
        let ll = swizzled_shared_to_linear(&one, &[64]).unwrap();
        assert_eq!(ll.in_dim_size(OFFSET), 64);
        assert!(swizzled_shared_to_linear(&one, &[64, 2]).is_err());
    }
}
