//! Blackwell tensor memory: the `#ttng.tensor_memory_encoding` and
//! `#ttng.tensor_memory_scales_encoding` attributes as Rust values, their
//! rules (Triton 3.6's `TensorMemoryEncodingAttr::verify` and the
//! tensor-memory part of `MemDescType::verify`, with Triton's messages),
//! and their linear layouts (`row`, `col` to `dim0`, `dim1`, as Triton's
//! `tensorMemoryToLinearLayout` and `tensorMemoryScalesToLinearLayout`).

use std::collections::HashMap;

use melior::ir::{attribute::AttributeLike, Attribute, Type};
use tt_dialect::types;

use crate::ffi;
use crate::layout::{kind, memory_space, MemDesc, MemorySpace};
use crate::linear_layout::LinearLayout;
use crate::to_linear::ensure_layout_not_larger_than;

pub const ROW: &str = "row";
pub const COL: &str = "col";
const DIMS: [&str; 2] = ["dim0", "dim1"];

/// `#ttng.tensor_memory_encoding<...>`'s parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TmemLayout {
    pub block_m: u32,
    pub block_n: u32,
    pub col_stride: u32,
    pub cta_split_m: u32,
    pub cta_split_n: u32,
    pub two_ctas: bool,
}

/// A tensor-memory encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TmemEncoding {
    /// `#ttng.tensor_memory_encoding`.
    Tensor(TmemLayout),
    /// `#ttng.tensor_memory_scales_encoding`: CTASplitM, CTASplitN.
    Scales { cta_split_m: u32, cta_split_n: u32 },
}

fn is_pow2(v: i64) -> bool {
    v > 0 && v & (v - 1) == 0
}

/// Triton's `TensorMemoryEncodingAttr::verify`, on the raw parameters
/// (blockM, blockN, colStride, CTASplitM, CTASplitN).
pub fn check_tensor_memory_params(p: &TmemLayout) -> Result<(), String> {
    if !(is_pow2(p.cta_split_m.into()) && is_pow2(p.cta_split_n.into())) {
        return Err("CTASplitM and CTASplitN must be greater than 0 and a power of 2".into());
    }
    if p.block_m != 64 && p.block_m != 128 {
        return Err(format!("blockM must be 64 or 128 but got {}", p.block_m));
    }
    if !is_pow2(p.block_n.into()) {
        return Err(format!("blockN must be a power of 2 but got {}", p.block_n));
    }
    if p.block_n > 512 {
        return Err(format!(
            "blockN must be less than or equal to 512 but got {}",
            p.block_n
        ));
    }
    if !matches!(p.col_stride, 1 | 2 | 4) {
        // Triton's message repeats "but got".
        return Err(format!(
            "colStride must be 1, 2, or 4 but got but got {}",
            p.col_stride
        ));
    }
    Ok(())
}

/// Triton prints an `ArrayRef` in diagnostics as `a, b, c`.
pub fn list<T: ToString>(values: &[T]) -> String {
    values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl TmemEncoding {
    /// Reads `attr` if it is a tensor-memory encoding.
    pub fn read(attr: Attribute) -> Option<Self> {
        if attr.to_raw().ptr.is_null() {
            return None;
        }
        let field = |f| unsafe { ffi::ttngTensorMemoryGetField(attr.to_raw(), f) };
        match kind(attr) {
            ffi::ENC_TENSOR_MEMORY => Some(Self::Tensor(TmemLayout {
                block_m: field(0),
                block_n: field(1),
                col_stride: field(2),
                cta_split_m: field(3),
                cta_split_n: field(4),
                two_ctas: field(5) != 0,
            })),
            ffi::ENC_TENSOR_MEMORY_SCALES => Some(Self::Scales {
                cta_split_m: field(3),
                cta_split_n: field(4),
            }),
            _ => None,
        }
    }

    /// The `#ttng.tensor_memory_encoding` parameters, if this is one.
    pub fn layout(&self) -> Option<TmemLayout> {
        match self {
            Self::Tensor(l) => Some(*l),
            Self::Scales { .. } => None,
        }
    }

    /// `[CTASplitM, CTASplitN]`.
    pub fn cta_split(&self) -> [u32; 2] {
        match *self {
            Self::Tensor(l) => [l.cta_split_m, l.cta_split_n],
            Self::Scales {
                cta_split_m,
                cta_split_n,
            } => [cta_split_m, cta_split_n],
        }
    }

    /// The layout of a 2-D buffer of `shape` in tensor memory: `row`,
    /// `col` to `dim0`, `dim1`. A dimension that is not a power of two is
    /// covered by the largest power-of-two number of repetitions that fits
    /// (the layout is then smaller than the buffer).
    pub fn to_linear_layout(&self, shape: [i64; 2]) -> Result<LinearLayout, String> {
        if shape.iter().any(|&d| d <= 0 || d > i64::from(i32::MAX)) {
            return Err(format!(
                "shape must have power-of-2 and non-zero dimensions; got {}",
                list(&shape)
            ));
        }
        let shape = [shape[0] as i32, shape[1] as i32];
        match *self {
            Self::Tensor(l) => tensor_memory_ll(shape, l),
            Self::Scales {
                cta_split_m,
                cta_split_n,
            } => scales_ll(shape, cta_split_m as i32, cta_split_n as i32),
        }
    }

    /// The tensor-memory part of Triton's `MemDescType::verify`.
    pub fn check_memdesc(&self, desc: &MemDesc) -> Result<(), String> {
        if memory_space(desc.memory_space) != Some(MemorySpace::Tensor) {
            return Err("memorySpace must be TensorMemorySpace".into());
        }
        let bitwidth = types::bit_width(desc.element).unwrap_or(0);
        match *self {
            Self::Tensor(l) => {
                if desc.shape.len() != 2 && desc.shape.len() != 3 {
                    return Err("rank must be 2 or 3".into());
                }
                if bitwidth * l.col_stride > 32 {
                    return Err(format!(
                        "bitwidth * colStride must be less than or equal to 32. Got {bitwidth} and {}",
                        l.col_stride
                    ));
                }
                let alloc = &desc.alloc_shape[desc.alloc_shape.len().saturating_sub(2)..];
                let (min_m, min_n) = (
                    i64::from(l.block_m * l.cta_split_m),
                    i64::from(l.block_n * l.cta_split_n),
                );
                if alloc.len() < 2 || alloc[0] < min_m || alloc[1] < min_n {
                    return Err(format!(
                        "the allocation shape must be at least {min_m}x{min_n}. Got {}",
                        list(alloc)
                    ));
                }
                let ll = self.to_linear_layout([alloc[0], alloc[1]])?;
                let (m, n) = (ll.out_dim_size(DIMS[0]), ll.out_dim_size(DIMS[1]));
                if i64::from(m) != alloc[0] || i64::from(n) != alloc[1] {
                    return Err(format!("allocation shape must be equal to {m}x{n}"));
                }
                let n_col = i64::from(ll.in_dim_size(COL));
                let per_cta = n_col / i64::from(l.cta_split_m * l.cta_split_n);
                if bitwidth == 0 || per_cta > 512 * 32 / i64::from(bitwidth) {
                    return Err(format!(
                        "nCol / (CTASplitM * CTASplitN) must be less than or equal to 512 * 32 / bitwidth but got {per_cta}"
                    ));
                }
                Ok(())
            }
            Self::Scales { .. } => {
                if desc.alloc_shape.len() != 2 {
                    return Err("Scales don't currently support multibuffering".into());
                }
                if bitwidth != 8 {
                    return Err("bitwidth must be 8".into());
                }
                Ok(())
            }
        }
    }
}

/// The largest power of two not above `v` (0 for 0).
fn floor_pow2(v: i32) -> i32 {
    if v <= 0 {
        0
    } else {
        1 << (31 - v.leading_zeros())
    }
}

/// Triton's `tensorMemoryToLinearLayout`.
fn tensor_memory_ll(shape: [i32; 2], enc: TmemLayout) -> Result<LinearLayout, String> {
    let (row, col, d0, d1) = (ROW, COL, DIMS[0], DIMS[1]);
    // The CTAs are ordered [0, 1]: split N last so that it ends up outermost.
    if enc.cta_split_n > 1 {
        let split = LinearLayout::identity_1d(enc.cta_split_n as i32, col, d1);
        let inner = TmemLayout {
            cta_split_n: 1,
            ..enc
        };
        let ll = tensor_memory_ll([shape[0], shape[1] / enc.cta_split_n as i32], inner)?;
        return ll.try_mul(&split);
    }
    if enc.cta_split_m > 1 {
        let mut split_m = enc.cta_split_m as i32;
        let mut block_m = enc.block_m;
        // blockM = 64 with two CTAs is laid out as the transpose of
        // 128 x blockN (the PTX data-path layout "B").
        let m64_two_cta = block_m == 64 && enc.two_ctas;
        if m64_two_cta {
            block_m *= 2;
            split_m /= 2;
        }
        let split = LinearLayout::identity_1d(split_m.max(1), col, d0);
        let inner = TmemLayout {
            block_m,
            cta_split_m: 1,
            ..enc
        };
        let mut ll =
            tensor_memory_ll([shape[0] / split_m.max(1), shape[1]], inner)?.try_mul(&split)?;
        if m64_two_cta {
            let mut rows = ll.bases(row).to_vec();
            let mut cols = ll.bases(col).to_vec();
            if let (Some(r), Some(c)) = (rows.last_mut(), cols.last_mut()) {
                std::mem::swap(r, c);
            }
            ll = ll.with_bases(row, rows)?.with_bases(col, cols)?;
        }
        return Ok(ll);
    }
    if shape[0] < 1 || shape[1] < 1 {
        return Err(format!(
            "the allocation shape must be at least {}x{}",
            enc.block_m, enc.block_n
        ));
    }
    let block_m = enc.block_m as i32;
    let block_n = floor_pow2((enc.block_n as i32).min(shape[1]));
    let tile = if block_m == 64 {
        // 16 rows, then the block's 32-row groups are 16 apart; bit 4 of
        // the row goes to the next 64 rows or the next block of columns.
        let mut rows: Vec<Vec<i32>> = (0..4).map(|i| vec![1 << i, 0]).collect();
        rows.push(if shape[0] > block_m {
            vec![64, 0]
        } else if shape[1] > block_n {
            vec![0, block_n]
        } else {
            // Not defined: see Triton's [Zeros in TMEM LinearLayouts].
            vec![0, 0]
        });
        rows.push(vec![16, 0]);
        rows.push(vec![32, 0]);
        let cols: Vec<Vec<i32>> = (0..enc.col_stride.trailing_zeros())
            .map(|_| vec![0, 0])
            .chain((0..block_n.trailing_zeros()).map(|i| vec![0, 1 << i]))
            .collect();
        LinearLayout::from_bases(vec![(row.into(), rows), (col.into(), cols)], &DIMS)?
    } else {
        LinearLayout::zeros_1d(enc.col_stride as i32, col, d1).try_mul(
            &(LinearLayout::identity_1d(block_m, row, d0)
                * LinearLayout::identity_1d(block_n, col, d1)),
        )?
    };
    let reps_m = floor_pow2(shape[0] / tile.out_dim_size(d0));
    let reps_n = floor_pow2(shape[1] / tile.out_dim_size(d1));
    if reps_m < 1 || reps_n < 1 {
        return Err(format!(
            "allocation shape must be equal to {}x{}",
            tile.out_dim_size(d0),
            tile.out_dim_size(d1)
        ));
    }
    tile.try_mul(&LinearLayout::identity_1d(reps_m, col, d0))?
        .try_mul(&LinearLayout::identity_1d(reps_n, col, d1))
}

/// Triton's `tensorMemoryScalesToLinearLayout`.
fn scales_ll(shape: [i32; 2], split_m: i32, split_n: i32) -> Result<LinearLayout, String> {
    let (row, col, d0, d1) = (ROW, COL, DIMS[0], DIMS[1]);
    if shape[0] < 1 || shape[1] < 1 {
        return Err("the scales buffer is smaller than its CTA split".into());
    }
    if split_n > 1 {
        let split = LinearLayout::identity_1d(split_n, col, d1);
        return scales_ll([shape[0], shape[1] / split_n], split_m, 1)?.try_mul(&split);
    }
    if split_m > 1 {
        let split = LinearLayout::identity_1d(split_m, col, d0);
        return scales_ll([shape[0] / split_m, shape[1]], 1, split_n)?.try_mul(&split);
    }
    // 32 rows, repeated over the four row groups (warps), 4 columns of
    // 4 bytes, then a second half of 32 rows in the next columns.
    let tile = LinearLayout::identity_1d(32, row, d0)
        .try_mul(&LinearLayout::zeros_1d(4, row, d0))?
        .try_mul(&LinearLayout::identity_1d(4, col, d1))?
        .try_mul(&LinearLayout::identity_1d(2, col, d0))?;
    let reps = |size: i32, tile: i32| floor_pow2(((size + tile - 1) / tile).max(1));
    let reps_m = reps(shape[0], tile.out_dim_size(d0));
    let reps_n = reps(shape[1], tile.out_dim_size(d1));
    let tile = tile
        .try_mul(&LinearLayout::identity_1d(reps_m, col, d0))?
        .try_mul(&LinearLayout::identity_1d(reps_n, col, d1))?;
    let sizes: HashMap<String, i32> = [
        (d0.to_owned(), floor_pow2(shape[0])),
        (d1.to_owned(), floor_pow2(shape[1])),
    ]
    .into();
    Ok(ensure_layout_not_larger_than(&tile, &sizes, true))
}

/// Triton's `getTmemAllocSizes(...).numRows`: 64 where the layout of a
/// buffer of `shape` (its last two dimensions) leaves row 16 undefined,
/// else the rows of the layout.
pub fn alloc_rows(enc: &TmemEncoding, shape: &[i64]) -> Result<i32, String> {
    let n = shape.len();
    if n < 2 {
        return Err("rank must be 2 or 3".into());
    }
    let ll = enc.to_linear_layout([shape[n - 2], shape[n - 1]])?;
    let mut rows = ll.in_dim_size(ROW);
    let bases = ll.bases(ROW);
    if bases.len() > 4 && bases[4].iter().all(|&v| v == 0) {
        rows /= 2;
    }
    Ok(rows)
}

/// The encoding of a memory descriptor type, when it is a tensor-memory
/// one.
pub fn encoding_of(ty: Type) -> Option<TmemEncoding> {
    MemDesc::of(ty).and_then(|m| TmemEncoding::read(m.encoding))
}

/// The shapes of the tensor-memory load and store instructions
/// (`tcgen05.ld` / `tcgen05.st`), Triton's `TMemAccessAtom`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TmemAccessAtom {
    /// `32x32b`: lane `i` of a warp accesses row `i` of its 32-row group.
    I32x32b,
    /// `16x32bx2`: two 16-row halves; only inferred from `32x32b`.
    I16x32bx2,
    /// `16x64b`.
    I16x64b,
    /// `16x128b`.
    I16x128b,
    /// `16x256b`.
    I16x256b,
}

const REGISTER: &str = "register";
const LANE: &str = "lane";
const WARP: &str = "warp";
const BLOCK: &str = "block";

/// Triton's `getTileLayout`: the `register`, `lane` (and with `with_warp`,
/// `warp`) to `row`, `col` layout one instruction of `atom` accesses, for
/// 32-bit elements; `unpacked` makes every register cover two columns (a
/// 16-bit element unpacked into 32 bits). With `with_warp`, the four warps
/// of a warp group cover rows 0, 32, 64 and 96 of 128.
pub fn tile_layout(
    atom: TmemAccessAtom,
    unpacked: bool,
    with_warp: bool,
) -> Result<LinearLayout, String> {
    let p = |r: i32, c: i32| vec![r, c];
    // (register bases, lane bases) as [row, col].
    let (regs, lanes): (Vec<Vec<i32>>, Vec<Vec<i32>>) = match atom {
        TmemAccessAtom::I32x32b => (vec![], (0..5).map(|i| p(1 << i, 0)).collect()),
        TmemAccessAtom::I16x32bx2 => (vec![], (0..4).map(|i| p(1 << i, 0)).collect()),
        TmemAccessAtom::I16x64b => (vec![], vec![p(8, 0), p(0, 1), p(1, 0), p(2, 0), p(4, 0)]),
        TmemAccessAtom::I16x128b => (
            vec![p(8, 0)],
            vec![p(0, 1), p(0, 2), p(1, 0), p(2, 0), p(4, 0)],
        ),
        TmemAccessAtom::I16x256b => (
            vec![p(0, 1), p(8, 0)],
            vec![p(0, 2), p(0, 4), p(1, 0), p(2, 0), p(4, 0)],
        ),
    };
    let size = |bases: &[Vec<i32>], k: usize| {
        bases
            .iter()
            .map(|b| b[k])
            .max()
            .map_or(1, |m| if m == 0 { 1 } else { m * 2 })
    };
    let all: Vec<Vec<i32>> = regs.iter().chain(&lanes).cloned().collect();
    let (rows, cols) = (size(&all, 0), size(&all, 1));
    let mut tile = LinearLayout::new(
        vec![(REGISTER.into(), regs), (LANE.into(), lanes)],
        vec![(ROW.into(), rows), (COL.into(), cols)],
    )?;
    if unpacked {
        // Each register moves 32 / bitwidth (= 2) columns.
        tile = LinearLayout::zeros_1d_sized(1, REGISTER, COL, 2)
            .try_mul(&tile)?
            .transpose_outs(&[ROW, COL])?;
    }
    if with_warp {
        let cols = tile.out_dim_size(COL);
        let ins = tile
            .ins()
            .iter()
            .cloned()
            .chain([(WARP.to_string(), vec![p(32, 0), p(64, 0)])])
            .collect();
        tile = LinearLayout::new(ins, vec![(ROW.into(), 128), (COL.into(), cols)])?;
    }
    Ok(tile)
}

/// Triton's `getDistributedLayoutForTmemLdSt`: the distributed layout
/// (`register`, `lane`, `warp`, `block` to the buffer's dimensions) in
/// which `num_warps` warps access, with instructions of `atom`, the
/// tensor-memory buffer whose layout is `ll` (`row`, `col` to `dim0`,
/// `dim1`, as [`TmemEncoding::to_linear_layout`] gives it) and whose
/// elements have `bitwidth` bits. `Ok(None)` where the buffer cannot be
/// accessed so (Triton's `nullopt`).
///
/// Elements below 32 bits are first packed: as many contiguous columns as
/// fit 32 bits become one register's worth (a left division by an
/// identity over the columns); 16-bit elements stored one per 32-bit
/// column (`colStride = 2`) are unpacked; otherwise narrower elements are
/// software-padded to 32 bits.
pub fn distributed_layout_for_ld_st(
    ll: &LinearLayout,
    atom: TmemAccessAtom,
    num_warps: u32,
    bitwidth: u32,
) -> Result<Option<LinearLayout>, String> {
    let dims: Vec<String> = ll.out_dim_names().iter().map(|s| s.to_string()).collect();
    if dims.len() != 2 || ll.in_dim_names() != [ROW, COL] {
        return Err(format!(
            "expected a tensor-memory layout from row, col to two dimensions, got {ll}"
        ));
    }
    if num_warps < 4 || !num_warps.is_power_of_two() {
        return Err(format!(
            "tensor memory is accessed by a power of two of at least 4 warps, not {num_warps}"
        ));
    }
    let d1 = dims[1].as_str();
    if bitwidth != 32 {
        if bitwidth == 0 || bitwidth > 32 || !bitwidth.is_power_of_two() {
            return Err(format!(
                "tensor memory elements of {bitwidth} bits are not supported"
            ));
        }
        // Pack contiguous columns (b8 or b16 into b32, or b8 into b16 and
        // recurse).
        let mut best = (1, None);
        let mut contig = 2;
        while bitwidth * contig <= 32 {
            match ll.divide_left(&LinearLayout::identity_1d(contig as i32, COL, d1)) {
                Some(quotient) => best = (contig, Some(quotient)),
                None => break,
            }
            contig *= 2;
        }
        if let (contig, Some(quotient)) = best {
            let Some(inner) =
                distributed_layout_for_ld_st(&quotient, atom, num_warps, bitwidth * contig)?
            else {
                return Ok(None);
            };
            return LinearLayout::identity_1d(contig as i32, REGISTER, d1)
                .try_mul(&inner)
                .and_then(|l| l.transpose_outs(&[&dims[0], d1]))
                .map(Some);
        }
        let padding = LinearLayout::zeros_1d((32 / bitwidth) as i32, COL, d1);
        let unpacked = padding
            .try_mul(&LinearLayout::identity_1d(2, COL, d1))
            .ok()
            .and_then(|divisor| ll.divide_left(&divisor));
        if let (16, Some(quotient)) = (bitwidth, unpacked) {
            let Some(inner) = distributed_layout_for_ld_st(&quotient, atom, num_warps, 32)? else {
                return Ok(None);
            };
            return LinearLayout::identity_1d(2, REGISTER, d1)
                .try_mul(&inner)
                .and_then(|l| l.transpose_outs(&[&dims[0], d1]))
                .map(Some);
        }
        if let Some(quotient) = ll.divide_left(&padding) {
            // Software padding.
            return distributed_layout_for_ld_st(&quotient, atom, num_warps, 32);
        }
        if ll.in_dim_size(COL) == 1 {
            // Software padding with just one column.
            return distributed_layout_for_ld_st(ll, atom, num_warps, 32);
        }
        // fp4-padded layouts: no implicit padding upon load yet.
        return Ok(None);
    }
    let mut tile = tile_layout(atom, false, false)?;
    // tile: register, lane -> row, col; ll: row, col -> dims. The result
    // is ll o tile, extended with registers for the remaining columns and
    // with the warps.
    let cols_tile = tile.out_dim_size(COL);
    let cols_ll = ll.in_dim_size(COL);
    let mut cols_missing = cols_ll / cols_tile;
    if cols_missing == 0 {
        return Ok(None);
    }
    let instr_32_rows = atom == TmemAccessAtom::I32x32b;
    let layout_16_rows = ll
        .bases(ROW)
        .get(4)
        .is_some_and(|b| b.iter().all(|&v| v == 0));
    // The lowering computes ll^-1 o (ll o tile) and expects the tile back,
    // so ll o tile must be injective.
    let mut comp = tile
        .compose(ll)?
        .sublayout(&[REGISTER, LANE], &[&dims[0], d1]);
    if instr_32_rows {
        // Lane 16 uses the 16x32bx2 instruction: drop the last lane basis.
        comp = comp.resize_in_dim(LANE, comp.in_dim_size(LANE) / 2)?;
    }
    if !comp.is_injective() {
        return Ok(None);
    }
    // Rows 16..32 not covered by the instruction go to a warp (more than 4
    // warps) or a register.
    let row16 = if !instr_32_rows && !layout_16_rows {
        Some(if num_warps > 4 { WARP } else { REGISTER })
    } else {
        None
    };
    let mut warps_to_tile = (num_warps / if row16 == Some(WARP) { 8 } else { 4 }) as i32;
    // At most cols_missing warps tile the columns; the rest broadcast.
    let warp_broadcast = warps_to_tile / cols_missing.min(warps_to_tile);
    warps_to_tile /= warp_broadcast;
    cols_missing /= warps_to_tile;
    if cols_missing > 1 {
        if instr_32_rows && layout_16_rows {
            // Lane 16 would load repeated data: it loads the next columns
            // instead, through the 16x32bx2 instruction.
            tile = tile
                .divide_left(&LinearLayout::identity_1d(2, LANE, ROW))
                .ok_or("the 32x32b tile does not split into two 16-row halves")?;
            tile = tile
                .try_mul(&LinearLayout::identity_1d(cols_missing / 2, REGISTER, COL))?
                .try_mul(&LinearLayout::identity_1d(2, LANE, COL))?;
        } else {
            tile = tile.try_mul(&LinearLayout::identity_1d(cols_missing, REGISTER, COL))?;
        }
    }
    let tile_cols = tile.out_dim_size(COL);
    let mut ins: Vec<(String, Vec<Vec<i32>>)> = tile.ins().to_vec();
    ins.push((WARP.into(), vec![vec![32, 0], vec![64, 0]]));
    if let Some(name) = row16 {
        if let Some(entry) = ins.iter_mut().find(|(n, _)| n == name) {
            entry.1.push(vec![16, 0]);
        }
    }
    let tile = LinearLayout::new(ins, vec![(ROW.into(), 128), (COL.into(), tile_cols)])?
        .try_mul(&LinearLayout::identity_1d(warps_to_tile, WARP, COL))?
        .try_mul(&LinearLayout::zeros_1d(warp_broadcast, WARP, COL))?
        .transpose_outs(&[ROW, COL])?;
    if tile.out_dim_size(COL) != cols_ll {
        return Err(format!(
            "the access tile covers {} columns, the buffer {cols_ll}",
            tile.out_dim_size(COL)
        ));
    }
    // One CTA: the block dimension is trivial.
    Ok(Some(tile.compose(ll)?.with_bases(BLOCK, Vec::new())?))
}

/// Triton's `getDistributedLayoutForTmemLdSt` on a memory descriptor: the
/// distributed layout accessing, with `atom`, a 2-D tensor-memory buffer
/// of `shape` encoded as `enc` with elements of `bitwidth` bits. Buffers
/// split over several CTAs are refused with an error.
pub fn access_layout(
    enc: &TmemEncoding,
    shape: &[i64],
    bitwidth: u32,
    atom: TmemAccessAtom,
    num_warps: u32,
) -> Result<Option<LinearLayout>, String> {
    if enc.cta_split() != [1, 1] {
        return Err("tensor memory split over several CTAs is not supported".into());
    }
    cga_access_layout(enc, shape, bitwidth, atom, num_warps, &[])
}

/// Triton's `getDefaultLayoutForTmemLdSt`: the layout of the `32x32b`
/// access (the one `tmem_load`, `tmem_store` and `tmem_alloc` get by
/// default); an error where there is none.
pub fn default_access_layout(
    enc: &TmemEncoding,
    shape: &[i64],
    bitwidth: u32,
    num_warps: u32,
) -> Result<LinearLayout, String> {
    access_layout(enc, shape, bitwidth, TmemAccessAtom::I32x32b, num_warps)?.ok_or_else(|| {
        format!(
            "no 32x32b tensor memory access layout for a {} buffer of {bitwidth}-bit elements",
            list(shape)
        )
    })
}

/// Triton's `getDistributedLayoutForTmemLdSt` given the CGA layout of the
/// tensor accessed (`cga`: the `block` bases of a blocked layout, empty
/// for one CTA): the CTA-split column bases of the buffer's layout are
/// divided off on the right, the access of one CTA's share is built as in
/// [`access_layout`], and the CGA layout becomes its `block` bases.
/// Buffers whose layout does not end in the CTA split (blockM = 64 over
/// two CTAs, whose split Triton folds into the rows) are refused with an
/// error.
pub fn cga_access_layout(
    enc: &TmemEncoding,
    shape: &[i64],
    bitwidth: u32,
    atom: TmemAccessAtom,
    num_warps: u32,
    cga: &[Vec<i64>],
) -> Result<Option<LinearLayout>, String> {
    if atom == TmemAccessAtom::I16x32bx2 {
        return Err("the 16x32bx2 access is only inferred from 32x32b".into());
    }
    let &[m, n] = shape else {
        return Err(format!(
            "tensor memory is accessed as a 2-D tensor, not of shape {}",
            list(shape)
        ));
    };
    let ll = enc.to_linear_layout([m, n])?;
    let blocks = cga
        .iter()
        .map(|b| match b.as_slice() {
            &[x, y] => Ok(vec![x as i32, y as i32]),
            _ => Err(format!("CGA basis {b:?} does not have 2 entries")),
        })
        .collect::<Result<Vec<_>, String>>()?;
    let cga_ll = LinearLayout::from_bases(vec![(BLOCK.into(), blocks)], &DIMS)?;
    let split = [cga_ll.out_dim_size(DIMS[0]), cga_ll.out_dim_size(DIMS[1])];
    let per_cta = divide_cta_columns(&ll, split).ok_or_else(|| {
        format!(
            "a tensor-memory buffer whose layout does not end in its CTA split ({}) is not supported yet",
            list(&split)
        )
    })?;
    let Some(inner) = distributed_layout_for_ld_st(&per_cta, atom, num_warps, bitwidth)? else {
        return Ok(None);
    };
    inner.try_mul(&cga_ll)?.transpose_outs(&DIMS).map(Some)
}

/// `ll` (`row`, `col` to `dim0`, `dim1`) divided on the right by the CTA
/// columns (Triton's `divideRight` by `identity1D(split[0], col, dim0) *
/// identity1D(split[1], col, dim1)`): the layout of one CTA's share, or
/// `None` where the last column bases are not those of the split.
fn divide_cta_columns(ll: &LinearLayout, split: [i32; 2]) -> Option<LinearLayout> {
    let (k0, k1) = (
        split[0].trailing_zeros() as usize,
        split[1].trailing_zeros() as usize,
    );
    let q = [
        ll.out_dim_size(DIMS[0]) / split[0],
        ll.out_dim_size(DIMS[1]) / split[1],
    ];
    let cols = ll.bases(COL);
    let keep = cols.len().checked_sub(k0 + k1)?;
    let expected = (0..k0)
        .map(|i| vec![q[0] << i, 0])
        .chain((0..k1).map(|i| vec![0, q[1] << i]));
    if !cols[keep..].iter().cloned().eq(expected) {
        return None;
    }
    LinearLayout::new(
        vec![
            (ROW.into(), ll.bases(ROW).to_vec()),
            (COL.into(), cols[..keep].to_vec()),
        ],
        vec![(DIMS[0].into(), q[0]), (DIMS[1].into(), q[1])],
    )
    .ok()
}

/// Triton's `getDefaultLayoutForTmemLdSt` given the CGA layout of the
/// tensor accessed ([`cga_access_layout`]): the `16x256b` access where
/// `TRITON_PREFER_TMEM_16x256_LAYOUT` is set (to `1`, `true` or `on`)
/// and the buffer has one, else the `32x32b` access; an error where there
/// is none.
pub fn preferred_access_layout(
    enc: &TmemEncoding,
    shape: &[i64],
    bitwidth: u32,
    num_warps: u32,
    cga: &[Vec<i64>],
) -> Result<LinearLayout, String> {
    let prefer_16x256 = std::env::var("TRITON_PREFER_TMEM_16x256_LAYOUT")
        .is_ok_and(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "on"));
    if prefer_16x256 {
        if let Some(ll) = cga_access_layout(
            enc,
            shape,
            bitwidth,
            TmemAccessAtom::I16x256b,
            num_warps,
            cga,
        )? {
            return Ok(ll);
        }
    }
    cga_access_layout(
        enc,
        shape,
        bitwidth,
        TmemAccessAtom::I32x32b,
        num_warps,
        cga,
    )?
    .ok_or_else(|| {
        format!(
            "no 32x32b tensor memory access layout for a {} buffer of {bitwidth}-bit elements",
            list(shape)
        )
    })
}

/// Triton's `getTmemCompatibleLayouts`: the distributed layouts of the
/// `32x32b`, `16x256b`, `16x128b` and `16x64b` accesses that exist, and
/// with 8 warps the `32x32b` layout with warp 4 and lane 16 swapped
/// (Triton's `getTmemLoadLayoutSplitLongM`).
pub fn compatible_access_layouts(
    enc: &TmemEncoding,
    shape: &[i64],
    bitwidth: u32,
    num_warps: u32,
) -> Result<Vec<LinearLayout>, String> {
    let mut layouts = Vec::new();
    for atom in [
        TmemAccessAtom::I32x32b,
        TmemAccessAtom::I16x256b,
        TmemAccessAtom::I16x128b,
        TmemAccessAtom::I16x64b,
    ] {
        if let Some(ll) = access_layout(enc, shape, bitwidth, atom, num_warps)? {
            layouts.push(ll);
        }
    }
    if num_warps == 8 {
        if let Some(ll) = access_layout(enc, shape, bitwidth, TmemAccessAtom::I32x32b, num_warps)? {
            if let Some(split) = split_long_m(&ll)? {
                layouts.push(split);
            }
        }
    }
    Ok(layouts)
}

/// Triton's `isDistributedLayoutTMemCompatible`: whether the tensor type
/// `tensor` already has the layout of one of the accesses
/// ([`compatible_access_layouts`]) of the tensor-memory buffer `desc`,
/// compared base by base over registers, lanes, warps and blocks. Buffers
/// split over several CTAs are not supported yet (an error).
pub fn is_access_compatible(tensor: Type, desc: &MemDesc, num_warps: u32) -> Result<bool, String> {
    let view = types::TensorView::of(tensor).ok_or("expected a ranked tensor")?;
    let Some(layout) = view.encoding.and_then(crate::layout::Layout::read) else {
        return Ok(false);
    };
    let Ok(current) = crate::to_linear::to_linear_layout(&layout, view.shape) else {
        return Ok(false);
    };
    let enc = TmemEncoding::read(desc.encoding)
        .ok_or("expected a tensor-memory encoding on the memory descriptor")?;
    if enc.cta_split() != [1, 1] {
        return Err("tensor memory split over several CTAs is not supported yet".into());
    }
    let bitwidth = types::bit_width(desc.element).ok_or("expected an integer or float buffer")?;
    let same = |a: &LinearLayout| {
        a.out_dim_names() == current.out_dim_names()
            && [REGISTER, LANE, WARP, BLOCK]
                .iter()
                .all(|name| a.bases(name) == current.bases(name))
    };
    Ok(
        compatible_access_layouts(&enc, &desc.shape, bitwidth, num_warps)?
            .iter()
            .any(same),
    )
}

/// With 8 warps: where warp 4 maps to another dimension than warps 1 and
/// 2 and lane 16 (which the lowering may map anywhere) to the same one,
/// the layout with warp 4 and lane 16 swapped.
fn split_long_m(ll: &LinearLayout) -> Result<Option<LinearLayout>, String> {
    let dims: Vec<String> = ll.out_dim_names().iter().map(|s| s.to_string()).collect();
    if ll.bases(WARP).len() < 3 || ll.bases(LANE).len() < 5 {
        return Ok(None);
    }
    for dim in &dims {
        let zero = |name: &str, i: usize| ll.basis(name, i, dim) == 0;
        let (w1, w2, w4, l16) = (zero(WARP, 0), zero(WARP, 1), zero(WARP, 2), zero(LANE, 4));
        if l16 != w4 && w1 == w2 && w1 == l16 {
            let mut warps = ll.bases(WARP).to_vec();
            let mut lanes = ll.bases(LANE).to_vec();
            std::mem::swap(&mut warps[2], &mut lanes[4]);
            return Ok(Some(ll.with_bases(WARP, warps)?.with_bases(LANE, lanes)?));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(block_m: u32, block_n: u32, col_stride: u32) -> TmemEncoding {
        TmemEncoding::Tensor(TmemLayout {
            block_m,
            block_n,
            col_stride,
            cta_split_m: 1,
            cta_split_n: 1,
            two_ctas: false,
        })
    }

    fn unit(n: usize, dim: usize) -> Vec<Vec<i32>> {
        (0..n)
            .map(|i| {
                let mut v = vec![0, 0];
                v[dim] = 1 << i;
                v
            })
            .collect()
    }

    #[test]
    fn block_128_is_rows_by_columns() {
        let ll = layout(128, 128, 1).to_linear_layout([128, 128]).unwrap();
        assert_eq!(ll.bases(ROW), unit(7, 0).as_slice());
        assert_eq!(ll.bases(COL), unit(7, 1).as_slice());
        assert_eq!(
            (ll.out_dim_size("dim0"), ll.out_dim_size("dim1")),
            (128, 128)
        );
    }

    #[test]
    fn unpacked_columns_and_repetitions() {
        // f16 with colStride 2: every other column is unused; the buffer
        // repeats the 128x64 block twice along M, then twice along N.
        let ll = layout(128, 64, 2).to_linear_layout([256, 128]).unwrap();
        let mut cols = vec![vec![0, 0]];
        cols.extend(unit(6, 1));
        cols.push(vec![128, 0]);
        cols.push(vec![0, 64]);
        assert_eq!(ll.bases(COL), cols.as_slice());
        assert_eq!(ll.in_dim_size(COL), 512);
        assert_eq!(
            (ll.out_dim_size("dim0"), ll.out_dim_size("dim1")),
            (256, 128)
        );
    }

    #[test]
    fn block_64_interleaves_only_when_the_buffer_is_larger() {
        let enc = layout(64, 64, 1);
        let ll = enc.to_linear_layout([128, 64]).unwrap();
        let mut rows = unit(4, 0);
        rows.extend([vec![64, 0], vec![16, 0], vec![32, 0]]);
        assert_eq!(ll.bases(ROW), rows.as_slice());
        assert_eq!(alloc_rows(&enc, &[128, 64]), Ok(128));
        assert_eq!(alloc_rows(&enc, &[64, 64]), Ok(64));
        assert_eq!(alloc_rows(&enc, &[64, 128]), Ok(128));
    }

    #[test]
    fn scales_repeat_over_row_groups() {
        let enc = TmemEncoding::Scales {
            cta_split_m: 1,
            cta_split_n: 1,
        };
        let ll = enc.to_linear_layout([128, 4]).unwrap();
        let mut rows = unit(5, 0);
        rows.extend([vec![0, 0], vec![0, 0]]);
        assert_eq!(ll.bases(ROW), rows.as_slice());
        assert_eq!(
            ll.bases(COL),
            [vec![0, 1], vec![0, 2], vec![32, 0], vec![64, 0]].as_slice()
        );
    }

    fn bases_of(pairs: &[[i32; 2]]) -> Vec<Vec<i32>> {
        pairs.iter().map(|p| p.to_vec()).collect()
    }

    fn assert_access(ll: &LinearLayout, reg: &[[i32; 2]], lane: &[[i32; 2]], warp: &[[i32; 2]]) {
        assert_eq!(ll.in_dim_names(), [REGISTER, LANE, WARP, BLOCK]);
        assert_eq!(ll.out_dim_names(), DIMS);
        assert_eq!(ll.bases(REGISTER), bases_of(reg).as_slice());
        assert_eq!(ll.bases(LANE), bases_of(lane).as_slice());
        assert_eq!(ll.bases(WARP), bases_of(warp).as_slice());
        assert!(ll.bases(BLOCK).is_empty());
    }

    const LANES_32: [[i32; 2]; 5] = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]];

    #[test]
    fn default_access_of_full_blocks_is_one_row_per_thread() {
        for n in [64, 128] {
            let ll = default_access_layout(&layout(128, n as u32, 1), &[128, n], 32, 4).unwrap();
            let regs: Vec<[i32; 2]> = (0..n.trailing_zeros()).map(|i| [0, 1 << i]).collect();
            assert_access(&ll, &regs, &LANES_32, &[[32, 0], [64, 0]]);
        }
    }

    #[test]
    fn default_access_of_block_64_sends_lane_16_to_the_next_columns() {
        let ll = default_access_layout(&layout(64, 64, 1), &[64, 64], 32, 4).unwrap();
        assert_access(
            &ll,
            &[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]],
            &[[1, 0], [2, 0], [4, 0], [8, 0], [0, 32]],
            &[[16, 0], [32, 0]],
        );
    }

    #[test]
    fn default_access_of_i8_scales_packs_four_columns() {
        let enc = TmemEncoding::Scales {
            cta_split_m: 1,
            cta_split_n: 1,
        };
        let ll = default_access_layout(&enc, &[128, 128], 8, 4).unwrap();
        assert_access(
            &ll,
            &[
                [0, 1],
                [0, 2],
                [32, 0],
                [64, 0],
                [0, 4],
                [0, 8],
                [0, 16],
                [0, 32],
                [0, 64],
            ],
            &LANES_32,
            &[[0, 0], [0, 0]],
        );
    }

    #[test]
    fn default_access_of_packed_and_unpacked_f16() {
        // Packed f16 (colStride 1): two columns per 32-bit register.
        let packed = default_access_layout(&layout(128, 64, 1), &[128, 64], 16, 4).unwrap();
        let regs: Vec<[i32; 2]> = (0..6).map(|i| [0, 1 << i]).collect();
        assert_access(&packed, &regs, &LANES_32, &[[32, 0], [64, 0]]);
        // Unpacked f16 (colStride 2): the same distributed layout.
        let unpacked = default_access_layout(&layout(128, 64, 2), &[128, 64], 16, 4).unwrap();
        assert_eq!(unpacked, packed);
    }

    #[test]
    fn more_warps_tile_the_columns_and_bad_requests_are_errors() {
        let ll = default_access_layout(&layout(128, 128, 1), &[128, 128], 32, 8).unwrap();
        let regs: Vec<[i32; 2]> = (0..6).map(|i| [0, 1 << i]).collect();
        assert_access(&ll, &regs, &LANES_32, &[[32, 0], [64, 0], [0, 64]]);
        let all = compatible_access_layouts(&layout(128, 128, 1), &[128, 128], 32, 8).unwrap();
        assert_eq!(all.first(), Some(&ll));
        assert!(default_access_layout(&layout(128, 128, 1), &[128, 128], 32, 2).is_err());
        assert!(default_access_layout(&layout(128, 128, 1), &[2, 128, 128], 32, 4).is_err());
    }

    #[test]
    fn tiles_follow_the_instruction_shapes() {
        let tile = tile_layout(TmemAccessAtom::I16x256b, false, true).unwrap();
        assert_eq!(tile.bases(REGISTER), bases_of(&[[0, 1], [8, 0]]).as_slice());
        assert_eq!(tile.bases(WARP), bases_of(&[[32, 0], [64, 0]]).as_slice());
        assert_eq!((tile.out_dim_size(ROW), tile.out_dim_size(COL)), (128, 8));
        let unpacked = tile_layout(TmemAccessAtom::I32x32b, true, false).unwrap();
        assert_eq!(unpacked.out_dim_size(COL), 2);
        assert_eq!(unpacked.bases(LANE), bases_of(&LANES_32).as_slice());
    }

    #[test]
    fn parameters_follow_triton() {
        let ok = TmemLayout {
            block_m: 128,
            block_n: 256,
            col_stride: 2,
            cta_split_m: 1,
            cta_split_n: 1,
            two_ctas: false,
        };
        assert_eq!(check_tensor_memory_params(&ok), Ok(()));
        let bad = |p: TmemLayout| check_tensor_memory_params(&p).unwrap_err();
        assert!(bad(TmemLayout { block_m: 32, ..ok }).starts_with("blockM"));
        assert!(bad(TmemLayout { block_n: 96, ..ok }).starts_with("blockN must be a power"));
        assert!(bad(TmemLayout {
            block_n: 1024,
            ..ok
        })
        .contains("512"));
        assert!(bad(TmemLayout {
            col_stride: 8,
            ..ok
        })
        .starts_with("colStride"));
        assert!(bad(TmemLayout {
            cta_split_n: 0,
            ..ok
        })
        .starts_with("CTASplitM"));
    }
}
