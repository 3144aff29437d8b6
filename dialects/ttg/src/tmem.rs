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
