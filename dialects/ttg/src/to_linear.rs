//! Distributed `ttg` encodings as linear layouts for a given tensor shape,
//! following Triton 3.6's `LinearLayoutConversions.cpp`: blocked, slice,
//! nvidia_mma v2 and v3, amd_mfma and amd_wmma, dot_op operands of a
//! blocked (FMA), nvidia_mma or AMD parent, and linear (the AMD ones are in
//! [`crate::to_linear_amd`], with the swizzled shared layouts). Dot
//! operands over several CTAs of a blocked or nvidia_mma parent are
//! rejected with an error. Shared encodings have their own entry point,
//! [`shared_to_linear_layout`] (swizzled, AMD rotating and shared linear
//! ones so far), and padded ones their linear component
//! ([`padded_linear_component`]). The result maps `register`, `lane`,
//! `warp`, `block` to `dim0`, `dim1`, ... with output sizes equal to the
//! shape: tensors larger than the layout's tile repeat it along extra
//! register bits, smaller ones wrap (the bases that would leave the tensor
//! become zero, broadcasting).

use std::collections::HashMap;

use crate::layout::Layout;
use crate::linear_layout::LinearLayout;
use crate::to_linear_amd;

pub const REGISTER: &str = "register";
pub const LANE: &str = "lane";
pub const WARP: &str = "warp";
pub const BLOCK: &str = "block";

/// `dim0`, `dim1`, ... `dim{rank-1}`.
pub fn standard_out_dim_names(rank: usize) -> Vec<String> {
    (0..rank).map(|i| format!("dim{i}")).collect()
}

pub(crate) fn names(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The product of 1-D identities of `in_dim` over the dimensions in
/// `order` (fastest first), sized by `shape`; the outputs come out in
/// `order`'s order.
pub fn identity_standard_nd(in_dim: &str, shape: &[u32], order: &[u32]) -> LinearLayout {
    let dims = standard_out_dim_names(shape.len());
    order.iter().fold(LinearLayout::empty(), |acc, &d| {
        acc * LinearLayout::identity_1d(shape[d as usize] as i32, in_dim, &dims[d as usize])
    })
}

/// Like [`identity_standard_nd`], but dimension `broadcast` gets zero bases
/// (every index along it holds the same data).
pub(crate) fn broadcasted_nd(
    in_dim: &str,
    shape: &[u32],
    order: &[u32],
    broadcast: usize,
) -> LinearLayout {
    let dims = standard_out_dim_names(shape.len());
    order.iter().fold(LinearLayout::empty(), |acc, &d| {
        let d = d as usize;
        let size = shape[d] as i32;
        acc * if d == broadcast {
            LinearLayout::zeros_1d(size, in_dim, &dims[d])
        } else {
            LinearLayout::identity_1d(size, in_dim, &dims[d])
        }
    })
}

/// Makes every output at most `shape[out]` without changing the input
/// sizes: along each too-large output, the largest basis values are dropped
/// first (whatever input they belong to) until the output fits. Dropped
/// values become 0 (broadcast); with `broadcast_registers` false, dropped
/// register bases are removed instead (Triton's
/// `ensureLayoutNotLargerThan`).
pub fn ensure_layout_not_larger_than(
    layout: &LinearLayout,
    shape: &HashMap<String, i32>,
    broadcast_registers: bool,
) -> LinearLayout {
    let mut ins: Vec<(String, Vec<Vec<i32>>)> = layout.ins().to_vec();
    let mut removed_regs: Vec<usize> = Vec::new();
    let mut outs = layout.outs().to_vec();
    for (k, (out, size)) in outs.iter_mut().enumerate() {
        let desired = shape[out.as_str()];
        if *size <= desired {
            continue;
        }
        let mut actual = *size;
        // (value, input, basis) of every non-zero entry, largest first.
        let mut entries: Vec<(i32, usize, usize)> = Vec::new();
        for (i, (_, bases)) in ins.iter().enumerate() {
            for (b, basis) in bases.iter().enumerate() {
                if basis[k] != 0 {
                    entries.push((basis[k], i, b));
                }
            }
        }
        entries.sort_by_key(|e| std::cmp::Reverse(e.0));
        for (_, i, b) in entries {
            if actual <= desired {
                break;
            }
            if !broadcast_registers && ins[i].0 == REGISTER {
                removed_regs.push(b);
            } else {
                ins[i].1[b][k] = 0;
            }
            actual >>= 1;
        }
        *size = desired;
    }
    if !broadcast_registers {
        for (name, bases) in ins.iter_mut() {
            if name == REGISTER {
                let mut b = 0;
                bases.retain(|_| {
                    b += 1;
                    !removed_regs.contains(&(b - 1))
                });
            }
        }
    }
    LinearLayout::new(ins, outs).expect("shrunk layout")
}

/// Makes every output at least `shape[out]` by repeating along the first
/// input dimension (registers), in output order.
pub fn ensure_layout_not_smaller_than(
    layout: &LinearLayout,
    shape: &HashMap<String, i32>,
) -> LinearLayout {
    let Some(first) = layout.in_dim_names().first().map(|s| s.to_string()) else {
        return layout.clone();
    };
    let mut result = layout.clone();
    for (out, size) in layout.outs() {
        let desired = shape[out];
        if desired > *size {
            result *= LinearLayout::identity_1d(desired / size, &first, out);
        }
    }
    result
}

/// Combines a CTA layout (register, lane, warp) with the CGA layout
/// (`block` bases) and fits the result to `shape`, outputs in standard
/// order.
pub fn combine_cta_cga_with_shape(
    cta: LinearLayout,
    cga: &[Vec<i64>],
    shape: &[i64],
) -> Result<LinearLayout, String> {
    let rank = shape.len();
    if cta.num_out_dims() != rank {
        return Err(format!(
            "the layout has rank {}, the tensor {rank}",
            cta.num_out_dims()
        ));
    }
    let dims = standard_out_dim_names(rank);
    let labeled: HashMap<String, i32> = dims
        .iter()
        .cloned()
        .zip(shape.iter().map(|&s| s as i32))
        .collect();
    let block_bases = cga
        .iter()
        .map(|b| {
            if b.len() != rank {
                return Err(format!("CGA basis {b:?} does not have {rank} entries"));
            }
            Ok(b.iter().map(|&x| x as i32).collect())
        })
        .collect::<Result<Vec<Vec<i32>>, String>>()?;
    let cga_layout = LinearLayout::from_bases(vec![(BLOCK.into(), block_bases)], &names(&dims))?;
    let cga_layout = ensure_layout_not_larger_than(&cga_layout, &labeled, true)
        .transpose_outs(&cta.out_dim_names())?;
    let cta_shape: HashMap<String, i32> = cta
        .out_dim_names()
        .iter()
        .map(|d| {
            (
                d.to_string(),
                (labeled[*d] / cga_layout.out_dim_size(d)).max(1),
            )
        })
        .collect();
    let cta = ensure_layout_not_smaller_than(&cta, &cta_shape);
    let cta = ensure_layout_not_larger_than(&cta, &cta_shape, true);
    cta.try_mul(&cga_layout)?.transpose_outs(&names(&dims))
}

/// What one CTA of a thread-block cluster holds of a tensor split across
/// the cluster ([`per_cta`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerCta {
    /// The CTA's tile: each dimension's extent over the CTAs that split it.
    pub shape: Vec<i64>,
    /// Per bit of the CTA's id in the cluster, the coordinates its tile
    /// moves by (zero for a bit whose CTAs hold the same tile).
    pub block: Vec<Vec<i32>>,
}

/// One CTA's tile of a tensor or buffer of `shape` that the CTAs of a
/// cluster split by `block` (per bit of the CTA's id, its offset per
/// dimension: zero, or one power of two along one dimension): each
/// dimension's extent over the CTAs that split it, where the CTAs' offsets
/// along a dimension are its tile's extent times 1, 2, 4, ... (`in_tiles`:
/// they count tiles, 1, 2, 4, ...). `None` where `block` does not tile
/// `shape` that way.
pub fn cta_tile(shape: &[i64], block: &[Vec<i64>], in_tiles: bool) -> Option<Vec<i64>> {
    let rank = shape.len();
    let mut along: Vec<Vec<i64>> = vec![Vec::new(); rank];
    for basis in block {
        if basis.len() != rank {
            return None;
        }
        let mut nonzero = basis.iter().copied().enumerate().filter(|&(_, x)| x != 0);
        match (nonzero.next(), nonzero.next()) {
            (None, _) => {}
            (Some((d, x)), None) if x > 0 && x & (x - 1) == 0 => along[d].push(x),
            _ => return None,
        }
    }
    let mut tile = shape.to_vec();
    for (d, entries) in along.iter_mut().enumerate() {
        entries.sort_unstable();
        tile[d] = shape[d] >> entries.len();
        let unit = if in_tiles { 1 } else { tile[d] };
        if tile[d] < 1 || (0..entries.len()).any(|j| entries[j] != unit << j) {
            return None;
        }
    }
    Some(tile)
}

/// Whether the CTAs' offsets `block` ([`PerCta::block`]) move along
/// dimension `axis`: the CTAs of the cluster hold different parts of it.
pub fn splits_dimension(block: &[Vec<i32>], axis: usize) -> bool {
    block.iter().any(|b| b.get(axis).is_some_and(|&x| x != 0))
}

/// Splits a layout over `shape` (inputs `register`, `lane`, `warp` and
/// `block`) into one CTA's part and the CTAs' offsets: where every block
/// basis is zero or one power of two along one dimension, the block bases
/// of a dimension are its top bits (its extent over the CTA tile times 1,
/// 2, 4, ...), and no register, lane or warp basis reaches past the tile.
/// The layout returned maps the CTA's registers, lanes and warps onto its
/// tile (no block bases); the coordinates a CTA holds are those of the
/// tile XOR-ed with its offset.
pub fn per_cta(layout: &LinearLayout, shape: &[i64]) -> Result<(LinearLayout, PerCta), String> {
    let rank = shape.len();
    let dims = standard_out_dim_names(rank);
    let layout = &layout.transpose_outs(&names(&dims))?;
    let block: Vec<Vec<i32>> = if layout.has_in_dim(BLOCK) {
        (0..layout.in_dim_size_log2(BLOCK) as usize)
            .map(|k| dims.iter().map(|d| layout.basis(BLOCK, k, d)).collect())
            .collect()
    } else {
        Vec::new()
    };
    let bad =
        || format!("a layout whose CTAs of the cluster do not each hold one tile of {shape:?}");
    let wide: Vec<Vec<i64>> = block
        .iter()
        .map(|b| b.iter().map(|&x| i64::from(x)).collect())
        .collect();
    let tile = cta_tile(shape, &wide, false).ok_or_else(bad)?;
    let mut ins = Vec::new();
    for name in ["register", "lane", "warp"] {
        let bases: Vec<Vec<i32>> = if layout.has_in_dim(name) {
            layout.bases(name).to_vec()
        } else {
            Vec::new()
        };
        ins.push((name.to_owned(), bases));
    }
    ins.push((BLOCK.to_owned(), Vec::new()));
    let outs: Vec<(String, i32)> = dims
        .iter()
        .zip(&tile)
        .map(|(d, &t)| i32::try_from(t).map(|t| (d.clone(), t)))
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    let local = LinearLayout::new(ins, outs).map_err(|_| bad())?;
    Ok((local, PerCta { shape: tile, block }))
}

/// Rows-major order of a batch of matrices (`[rank-1, ..., 0]`), with the
/// two fastest swapped for column-major (Triton's `getMatrixOrder`).
pub fn matrix_order(rank: usize, row_major: bool) -> Vec<u32> {
    let mut order: Vec<u32> = (0..rank as u32).rev().collect();
    if !row_major && rank >= 2 {
        order.swap(0, 1);
    }
    order
}

/// The register/lane tile of an nvidia mma result or operand
/// (Triton's `nvidiaMmaTile`): along the inner dim `k_width` registers and 4
/// lanes, along the outer dim 8 lanes, then register repeats along outer and
/// inner.
fn nvidia_mma_tile(
    tile: &[u32],
    k_width: u32,
    order: &[u32],
    rep_order: &[u32],
) -> Result<LinearLayout, String> {
    let rank = rep_order.len();
    let dims = standard_out_dim_names(rank);
    let (inner, outer) = (order[0] as usize, order[1] as usize);
    let (m, n) = (tile[outer] as i32, tile[inner] as i32);
    let kw = k_width as i32;
    if m % 8 != 0 || kw == 0 || n % (kw * 4) != 0 || !(k_width.is_power_of_two()) {
        return Err(format!(
            "unsupported mma tile {tile:?} with kWidth {k_width}"
        ));
    }
    Ok(identity_standard_nd(REGISTER, &vec![1; rank], rep_order)
        * LinearLayout::identity_1d(kw, REGISTER, &dims[inner])
        * LinearLayout::identity_1d(4, LANE, &dims[inner])
        * LinearLayout::identity_1d(8, LANE, &dims[outer])
        * LinearLayout::identity_1d(m / 8, REGISTER, &dims[outer])
        * LinearLayout::identity_1d(n / (kw * 4), REGISTER, &dims[inner]))
}

fn check_shape(shape: &[i64]) -> Result<(), String> {
    match shape
        .iter()
        .find(|&&s| s <= 0 || s & (s - 1) != 0 || s > 1 << 30)
    {
        Some(s) => Err(format!(
            "every tensor dimension must be a power of two, got {s}"
        )),
        None => Ok(()),
    }
}

fn check_rank(layout: &Layout, shape: &[i64]) -> Result<(), String> {
    match layout.rank() {
        Some(r) if r == shape.len() => Ok(()),
        Some(r) => Err(format!(
            "a rank-{r} layout cannot describe a rank-{} tensor",
            shape.len()
        )),
        None => Err("the layout's rank is unknown".into()),
    }
}

/// Whether two distributed encodings place every element of a tensor of
/// `shape` in the same register, lane, warp and block (Triton compares
/// layouts this way, so a blocked and a linear encoding can be equal).
pub fn equivalent(a: &Layout, b: &Layout, shape: &[i64]) -> Result<bool, String> {
    Ok(to_linear_layout(a, shape)? == to_linear_layout(b, shape)?)
}

/// Triton's `isExpensiveView`: a view from `src` to `dst` moves elements
/// between threads when the layouts' replication masks or elements per
/// thread differ. Layouts without a linear form count as expensive.
pub fn is_expensive_view(src: &Layout, src_shape: &[i64], dst: &Layout, dst_shape: &[i64]) -> bool {
    let (Ok(s), Ok(d)) = (
        to_linear_layout(src, src_shape),
        to_linear_layout(dst, dst_shape),
    ) else {
        return true;
    };
    let masks_differ = s
        .free_variable_masks()
        .iter()
        .zip(d.free_variable_masks().iter())
        .any(|(a, b)| a.1 != b.1);
    masks_differ || s.total_elems_per_thread() != d.total_elems_per_thread()
}

/// The linear layout of a shared encoding for a buffer of `shape` (its
/// allocation shape, as Triton passes): input `offset` (and `block`) to the
/// buffer's coordinates. Swizzled, AMD rotating and shared linear layouts
/// only, so far.
pub fn shared_to_linear_layout(layout: &Layout, shape: &[i64]) -> Result<LinearLayout, String> {
    match layout {
        Layout::SwizzledShared { .. } | Layout::AmdRotatingShared { .. } => {
            to_linear_amd::swizzled_shared_to_linear(layout, shape)
        }
        Layout::SharedLinear { offset, block, .. } => {
            // The bases are the layout; Triton does not broadcast them.
            let ll = offset_block_layout(offset, block)?;
            let sizes: Vec<i64> = ll.outs().iter().map(|(_, s)| i64::from(*s)).collect();
            if sizes != shape {
                return Err(format!(
                    "the shared linear layout spans {sizes:?}, not the buffer's {shape:?}"
                ));
            }
            Ok(ll)
        }
        _ => Err(
            "only swizzled_shared, amd_rotating_shared and shared_linear have a shared linear layout here"
                .into(),
        ),
    }
}

/// Triton's `toLinearLayout` for every shared encoding over a buffer of
/// `shape`: [`shared_to_linear_layout`]'s, NVMMA layouts within one CTA,
/// and a padded layout's linear component (its padding is not linear).
pub fn any_shared_to_linear(layout: &Layout, shape: &[i64]) -> Result<LinearLayout, String> {
    match layout {
        Layout::NvmmaShared {
            swizzling_byte_width,
            transposed,
            element_bit_width,
            fp4_padded,
            cga,
            ..
        } => {
            if !cga.is_empty() {
                return Err(
                    "an nvmma_shared layout split across a cluster's CTAs has no linear layout here yet"
                        .into(),
                );
            }
            nvmma_shared_to_linear(
                shape,
                *swizzling_byte_width,
                *transposed,
                *element_bit_width,
                *fp4_padded,
            )
        }
        Layout::PaddedShared { .. } => padded_linear_component(layout),
        _ => shared_to_linear_layout(layout, shape),
    }
}

/// Triton's `nvmmaSharedToLinearLayout` for one CTA: TMA boxes of at most
/// 256 elements a dimension (one swizzle row wide along the contiguous
/// one) tiled over the buffer; within a swizzled box, the core matrices of
/// eight rows whose 16-byte chunks are XOR-permuted by row.
pub fn nvmma_shared_to_linear(
    shape: &[i64],
    swizzle: u32,
    transposed: bool,
    bits: u32,
    fp4_padded: bool,
) -> Result<LinearLayout, String> {
    let rank = shape.len();
    let dims = standard_out_dim_names(rank);
    let contiguous = if transposed {
        0
    } else {
        rank.saturating_sub(1)
    };
    let bad = || format!("an NVMMA shared buffer of shape {shape:?}");
    if rank == 0 || bits == 0 || shape.iter().any(|&d| d <= 0 || d & (d - 1) != 0) {
        return Err(bad());
    }
    // The TMA box (`getTMABlockShape`, sizes packed).
    let mut tma: Vec<i64> = shape.to_vec();
    if fp4_padded {
        tma[contiguous] *= 2;
    }
    for d in tma.iter_mut() {
        *d = (*d).min(256);
    }
    if swizzle != 0 {
        let row = i64::from(8 * swizzle / bits);
        if tma[contiguous] < row {
            return Err(bad());
        }
        tma[contiguous] = row;
    }
    if fp4_padded {
        tma[contiguous] /= 2;
    }
    let unit = |d: usize, v: i64| {
        let mut b = vec![0i32; rank];
        b[d] = v as i32;
        b
    };
    let powers = |n: i64, step: i64| {
        let mut out = Vec::new();
        let mut v = step;
        while v < n * step {
            out.push(v);
            v *= 2;
        }
        out
    };
    let mut bases: Vec<Vec<i32>> = Vec::new();
    if swizzle == 0 {
        // Row-major identity over the box, then the boxes, fastest
        // dimension first.
        for d in (0..rank).rev() {
            bases.extend(powers(tma[d], 1).into_iter().map(|v| unit(d, v)));
        }
        for d in (0..rank).rev() {
            bases.extend(
                powers(shape[d] / tma[d], tma[d])
                    .into_iter()
                    .map(|v| unit(d, v)),
            );
        }
    } else {
        if rank < 2 {
            return Err(bad());
        }
        let vec = i64::from(128 / bits);
        let per_phase = i64::from(128u32.checked_div(swizzle).ok_or_else(bad)?);
        let max_phase = i64::from(swizzle / 16);
        let tile_cols = i64::from(8 * swizzle.max(16) / bits);
        let packed = |c: i64| if fp4_padded { c / 16 * 8 + c % 8 } else { c };
        // The 2-D core-matrix tile: [row, column].
        let mut tile: Vec<[i64; 2]> = Vec::new();
        let mut col = 1;
        while col < tile_cols {
            tile.push([0, packed(col)]);
            col *= 2;
        }
        for row in [1, 2, 4] {
            tile.push([row, packed(vec * ((row / per_phase) % max_phase))]);
        }
        let tile_rows = 8;
        let tile_width = tile.iter().map(|b| b[1]).max().unwrap_or(0) + 1;
        let tile_width = (tile_width as u64).next_power_of_two() as i64;
        let mut collapsed = [tma[..rank - 1].iter().product::<i64>(), tma[rank - 1]];
        if transposed {
            collapsed.swap(0, 1);
        }
        let packing = if fp4_padded { 2 } else { 1 };
        if collapsed[1] * packing < tile_cols || collapsed[0] < tile_rows {
            return Err(bad());
        }
        let mut flat: Vec<[i64; 2]> = tile;
        flat.extend(
            powers(collapsed[0] / tile_rows, tile_rows)
                .into_iter()
                .map(|v| [v, 0]),
        );
        flat.extend(
            powers(collapsed[1] / tile_width, tile_width)
                .into_iter()
                .map(|v| [0, v]),
        );
        // Reshaped to the box (its contiguous dimension moved last when
        // transposed), then moved back.
        let mut boxed: Vec<i64> = tma.clone();
        if transposed {
            boxed.rotate_left(1);
        }
        for [r, c] in flat {
            let mut linear = r * collapsed[1] + c;
            let mut coords = vec![0i64; rank];
            for (slot, &n) in coords.iter_mut().zip(&boxed).rev() {
                *slot = linear % n;
                linear /= n;
            }
            if transposed {
                coords.rotate_right(1);
            }
            bases.push(coords.iter().map(|&x| x as i32).collect());
        }
        for d in 0..rank {
            bases.extend(
                powers(shape[d] / tma[d], tma[d])
                    .into_iter()
                    .map(|v| unit(d, v)),
            );
        }
    }
    let outs: Vec<(String, i32)> = dims
        .iter()
        .cloned()
        .zip(shape.iter().map(|&s| s as i32))
        .collect();
    LinearLayout::new(
        vec![("offset".into(), bases), ("block".into(), Vec::new())],
        outs,
    )
}

/// The linear component of a `#ttg.padded_shared` layout (Triton's
/// `getLinearComponent`): its `offset` and `block` bases, or the identity
/// over `shape` in `order` with a trivial `block`.
pub fn padded_linear_component(layout: &Layout) -> Result<LinearLayout, String> {
    let Layout::PaddedShared {
        offsets,
        block,
        order,
        shape,
        ..
    } = layout
    else {
        return Err("expected a padded_shared layout".into());
    };
    if !offsets.is_empty() || !block.is_empty() {
        return offset_block_layout(offsets, block);
    }
    let rank = shape.len();
    if let Some(s) = shape.iter().find(|s| !s.is_power_of_two() || **s > 1 << 30) {
        return Err(format!(
            "every dimension of a padded layout's shape must be a power of two, got {s}"
        ));
    }
    let mut sorted = order.clone();
    sorted.sort_unstable();
    if sorted != (0..rank as u32).collect::<Vec<_>>() {
        return Err(format!(
            "order {order:?} must be a permutation of 0..{rank}"
        ));
    }
    let mut bases = Vec::new();
    for &d in order {
        for bit in 0..shape[d as usize].trailing_zeros() {
            let mut basis = vec![0; rank];
            basis[d as usize] = 1 << bit;
            bases.push(basis);
        }
    }
    let dims = standard_out_dim_names(rank);
    let outs = dims
        .into_iter()
        .zip(shape.iter().map(|&s| s as i32))
        .collect();
    LinearLayout::new(
        vec![
            (to_linear_amd::OFFSET.into(), bases),
            (BLOCK.into(), Vec::new()),
        ],
        outs,
    )
}

/// A layout from `offset` and `block` bases, its output sizes inferred.
/// The image of `coordinates` under a map given per dimension by the
/// images of its powers of two (`bases[d][k]`: the image of `2^k` along
/// `d`): the XOR of the images of the coordinates' set bits.
pub fn xor_of_set_bits(bases: &[Vec<i64>], coordinates: impl IntoIterator<Item = i64>) -> i64 {
    coordinates
        .into_iter()
        .zip(bases)
        .flat_map(|(c, along)| {
            along
                .iter()
                .enumerate()
                .filter(move |(k, _)| c >> k & 1 == 1)
                .map(|(_, &b)| b)
        })
        .fold(0, |acc, b| acc ^ b)
}

/// How a single-CTA `#ttg.padded_shared` buffer places its elements: the
/// inverse of its linear component (an element's unpadded offset, the XOR
/// of the offsets of its coordinates' set bits), then the padding Triton
/// inserts (`padding` elements after every `interval`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Padded {
    /// `[d][k]`: the unpadded offset of the element at `2^k` along `d`.
    pub bases: Vec<Vec<i64>>,
    /// `(log2 interval, log2 padding)` pairs.
    pub pads: Vec<(u32, u32)>,
}

impl Padded {
    /// The placement of `layout` (a padded_shared layout without CTA
    /// bases, whose linear component is a bijection onto its shape).
    pub fn of(layout: &Layout) -> Result<Self, String> {
        let Layout::PaddedShared {
            intervals,
            paddings,
            block,
            ..
        } = layout
        else {
            return Err("expected a padded_shared layout".into());
        };
        if !block.is_empty() {
            return Err("padded_shared layouts split across CTAs".into());
        }
        let pads = intervals
            .iter()
            .zip(paddings)
            .map(|(&i, &p)| {
                (i.is_power_of_two() && p.is_power_of_two())
                    .then(|| (i.trailing_zeros(), p.trailing_zeros()))
                    .ok_or("padded_shared intervals and paddings must be powers of two")
            })
            .collect::<Result<_, _>>()?;
        let linear = padded_linear_component(layout)?;
        let shape: Vec<i64> = linear.outs().iter().map(|(_, s)| i64::from(*s)).collect();
        let total: i64 = shape.iter().product();
        if total > 1 << 20 || linear.total_in_size() != total {
            return Err("a padded_shared layout that is no bijection onto its shape".into());
        }
        // Each coordinate bit's offset, read off the offsets that land on
        // one set bit.
        let mut bases: Vec<Vec<i64>> = shape
            .iter()
            .map(|s| vec![-1; s.trailing_zeros() as usize])
            .collect();
        let offsets = linear.in_dim_size_log2(to_linear_amd::OFFSET);
        for u in 0..1i64 << offsets {
            let at = linear.apply_index(&[u as i32, 0]);
            let set: Vec<(usize, u32)> = at
                .iter()
                .enumerate()
                .filter(|(_, &x)| x != 0)
                .map(|(d, &x)| (d, x as u32))
                .collect();
            if let [(d, x)] = set[..] {
                if x.is_power_of_two() {
                    bases[d][x.trailing_zeros() as usize] = u;
                }
            }
        }
        if bases.iter().flatten().any(|&b| b < 0) {
            return Err("a padded_shared layout that is no bijection onto its shape".into());
        }
        Ok(Self { bases, pads })
    }

    /// The padded offset of unpadded offset `u`.
    pub fn pad(&self, u: i64) -> i64 {
        self.pads
            .iter()
            .fold(u, |acc, &(i, p)| acc + ((u >> i) << p))
    }

    /// The offset (in elements, padding included) of the element at
    /// `coordinates`.
    pub fn offset(&self, coordinates: &[i64]) -> i64 {
        self.pad(xor_of_set_bits(&self.bases, coordinates.iter().copied()))
    }

    /// The elements a buffer of `numel` elements spans, padding included
    /// (none after the last element), as Triton sizes it.
    pub fn size(&self, numel: i64) -> i64 {
        self.pads.iter().fold(numel, |acc, &(i, p)| {
            let last = if numel % (1 << i) == 0 { 1 << p } else { 0 };
            acc + ((numel >> i) << p) - last
        })
    }
}

fn offset_block_layout(offset: &[Vec<i64>], block: &[Vec<i64>]) -> Result<LinearLayout, String> {
    let rank = offset.iter().chain(block).next().map_or(0, Vec::len);
    let convert = |bases: &[Vec<i64>]| -> Result<Vec<Vec<i32>>, String> {
        bases
            .iter()
            .map(|b| {
                b.iter()
                    .map(|&x| {
                        i32::try_from(x).map_err(|_| format!("basis entry {x} is out of range"))
                    })
                    .collect()
            })
            .collect()
    };
    let dims = standard_out_dim_names(rank);
    LinearLayout::from_bases(
        vec![
            (to_linear_amd::OFFSET.into(), convert(offset)?),
            (BLOCK.into(), convert(block)?),
        ],
        &names(&dims),
    )
}

/// The linear layout of a distributed encoding for a tensor of `shape`.
pub fn to_linear_layout(layout: &Layout, shape: &[i64]) -> Result<LinearLayout, String> {
    check_shape(shape)?;
    layout.check()?;
    match layout {
        Layout::Blocked {
            size_per_thread,
            threads_per_warp,
            warps_per_cta,
            order,
            cga,
        } => {
            check_rank(layout, shape)?;
            let cta = identity_standard_nd(REGISTER, size_per_thread, order)
                * identity_standard_nd(LANE, threads_per_warp, order)
                * identity_standard_nd(WARP, warps_per_cta, order);
            combine_cta_cga_with_shape(cta, cga, shape)
        }
        Layout::Slice { dim, parent } => {
            let parent = parent.as_deref().ok_or("a slice needs a parent")?;
            let dim = *dim as usize;
            if dim > shape.len() {
                return Err(format!("slice dim {dim} is out of range"));
            }
            let mut parent_shape = shape.to_vec();
            parent_shape.insert(dim, 1);
            let parent_ll = to_linear_layout(parent, &parent_shape)?;
            // Drop output `dim` (all its values are 0: its size is 1).
            let dims = standard_out_dim_names(shape.len());
            let ins = parent_ll
                .ins()
                .iter()
                .map(|(name, bases)| {
                    let bases = bases
                        .iter()
                        .map(|b| {
                            let mut b = b.clone();
                            b.remove(dim);
                            b
                        })
                        .filter(|b: &Vec<i32>| name != REGISTER || b.iter().any(|&x| x != 0))
                        .collect();
                    (name.clone(), bases)
                })
                .collect();
            let outs = dims
                .iter()
                .cloned()
                .zip(shape.iter().map(|&s| s as i32))
                .collect();
            LinearLayout::new(ins, outs)
        }
        Layout::NvidiaMma {
            version_major,
            warps_per_cta,
            instr_shape,
            cga,
            ..
        } => {
            check_rank(layout, shape)?;
            let rank = shape.len();
            if rank < 2 {
                return Err("an mma layout needs rank 2 or more".into());
            }
            let hopper = match version_major {
                2 => false,
                3 => true,
                v => return Err(format!("nvidia_mma version {v} has no linear layout here")),
            };
            let tile: Vec<u32> = if hopper {
                let mut t = vec![1; rank];
                t[rank - 2] = instr_shape[0];
                t[rank - 1] = instr_shape[1];
                t
            } else if instr_shape.len() == rank {
                instr_shape.clone()
            } else {
                let mut t = vec![1; rank];
                t[rank - 2..].copy_from_slice(&instr_shape[instr_shape.len() - 2..]);
                t
            };
            let order = matrix_order(rank, true);
            let cta = nvidia_mma_tile(&tile, 2, &order, &order)?;
            let warps = identity_standard_nd(WARP, warps_per_cta, &matrix_order(rank, !hopper))
                .transpose_outs(&cta.out_dim_names())?;
            combine_cta_cga_with_shape(cta * warps, cga, shape)
        }
        Layout::AmdMfma { .. } => {
            check_rank(layout, shape)?;
            to_linear_amd::mfma_to_linear(layout, shape)
        }
        Layout::AmdWmma { .. } => {
            check_rank(layout, shape)?;
            to_linear_amd::wmma_to_linear(layout, shape)
        }
        Layout::DotOperand {
            op_idx,
            k_width,
            parent,
        } => {
            check_rank(layout, shape)?;
            if let Some(amd @ (Layout::AmdMfma { .. } | Layout::AmdWmma { .. })) = parent.as_deref()
            {
                return to_linear_amd::amd_dot_operand_to_linear(*op_idx, *k_width, amd, shape);
            }
            if let Some(Layout::Blocked {
                size_per_thread,
                threads_per_warp,
                warps_per_cta,
                order,
                cga,
            }) = parent.as_deref()
            {
                if !cga.is_empty() {
                    return Err("dot operands over several CTAs are not supported yet".into());
                }
                // FMA operands: each thread holds the whole K extent; lanes
                // and warps broadcast along K.
                let rank = shape.len();
                let k_dim = if *op_idx == 0 { rank - 1 } else { rank - 2 };
                let mut thread_size = size_per_thread.clone();
                thread_size[k_dim] = shape[k_dim] as u32;
                let cta = identity_standard_nd(REGISTER, &thread_size, order)
                    * broadcasted_nd(LANE, threads_per_warp, order, k_dim)
                    * broadcasted_nd(WARP, warps_per_cta, order, k_dim);
                return combine_cta_cga_with_shape(cta, cga, shape);
            }
            let Some(Layout::NvidiaMma {
                version_major,
                warps_per_cta,
                cga,
                ..
            }) = parent.as_deref()
            else {
                return Err(
                    "only dot operands of a blocked or nvidia_mma parent have a linear layout here"
                        .into(),
                );
            };
            if !cga.is_empty() {
                return Err("dot operands over several CTAs are not supported yet".into());
            }
            let rank = shape.len();
            let is_a = *op_idx == 0;
            let hopper = *version_major == 3;
            if !is_a && hopper {
                return Err("a Hopper mma takes operand B from shared memory".into());
            }
            let mut tile = vec![1u32; rank];
            if is_a {
                tile[rank - 2] = 16;
                tile[rank - 1] = k_width * 8;
            } else {
                tile[rank - 2] = k_width * 8;
                tile[rank - 1] = 8;
            }
            // kContig: the K dimension is the fastest one for both operands.
            let order = matrix_order(rank, is_a);
            let cta = nvidia_mma_tile(&tile, *k_width, &order, &order)?;
            let k_dim = if is_a { rank - 1 } else { rank - 2 };
            let warps = broadcasted_nd(WARP, warps_per_cta, &matrix_order(rank, !hopper), k_dim)
                .transpose_outs(&cta.out_dim_names())?;
            combine_cta_cga_with_shape(cta * warps, cga, shape)
        }
        Layout::Linear {
            register,
            lane,
            warp,
            block,
        } => {
            check_rank(layout, shape)?;
            let dims = standard_out_dim_names(shape.len());
            let conv = |b: &Vec<Vec<i64>>| -> Vec<Vec<i32>> {
                b.iter()
                    .map(|v| v.iter().map(|&x| x as i32).collect())
                    .collect()
            };
            let ll = LinearLayout::from_bases(
                vec![
                    (REGISTER.into(), conv(register)),
                    (LANE.into(), conv(lane)),
                    (WARP.into(), conv(warp)),
                    (BLOCK.into(), conv(block)),
                ],
                &names(&dims),
            )?;
            let rep_order = ll.default_order(REGISTER);
            let permuted: Vec<&str> = rep_order
                .iter()
                .map(|&d| dims[d as usize].as_str())
                .collect();
            let labeled: HashMap<String, i32> = dims
                .iter()
                .cloned()
                .zip(shape.iter().map(|&s| s as i32))
                .collect();
            let ll = ll.transpose_outs(&permuted)?;
            let ll = ensure_layout_not_smaller_than(&ll, &labeled);
            let ll = ensure_layout_not_larger_than(&ll, &labeled, false);
            ll.transpose_outs(&names(&dims))
        }
        _ => Err("only distributed encodings have a register linear layout".into()),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::linear_layout::tests::Rng;

    pub(crate) fn v(b: &[&[i32]]) -> Vec<Vec<i32>> {
        b.iter().map(|x| x.to_vec()).collect()
    }

    pub(crate) fn expect(ll: &LinearLayout, reg: &[&[i32]], lane: &[&[i32]], warp: &[&[i32]]) {
        assert_eq!(ll.bases(REGISTER), v(reg).as_slice(), "registers of\n{ll}");
        assert_eq!(ll.bases(LANE), v(lane).as_slice(), "lanes of\n{ll}");
        assert_eq!(ll.bases(WARP), v(warp).as_slice(), "warps of\n{ll}");
        assert_eq!(ll.in_dim_names(), vec![REGISTER, LANE, WARP, BLOCK]);
    }

    #[test]
    fn blocked_1d_repeats_and_wraps() {
        let b = Layout::blocked(&[4], &[32], &[4], &[0]);
        let ll = to_linear_layout(&b, &[1024]).unwrap();
        expect(
            &ll,
            &[&[1], &[2], &[512]],
            &[&[4], &[8], &[16], &[32], &[64]],
            &[&[128], &[256]],
        );
        assert_eq!(ll.outs(), &[("dim0".to_string(), 1024)]);
        assert_eq!(ll.total_elems_per_thread(), 8);
        assert_eq!(ll.num_consecutive_in_out(), 4);
        // Smaller than the 512-element tile: warps, then top lanes, broadcast.
        let small = to_linear_layout(&b, &[64]).unwrap();
        expect(
            &small,
            &[&[1], &[2]],
            &[&[4], &[8], &[16], &[32], &[0]],
            &[&[0], &[0]],
        );
        assert_eq!(
            small.free_variable_masks(),
            vec![
                ("register".to_string(), 0),
                ("lane".to_string(), 0b10000),
                ("warp".to_string(), 0b11),
                ("block".to_string(), 0)
            ]
        );
    }

    #[test]
    fn blocked_2d() {
        let b = Layout::blocked(&[1, 8], &[4, 8], &[4, 1], &[1, 0]);
        let ll = to_linear_layout(&b, &[32, 64]).unwrap();
        expect(
            &ll,
            &[&[0, 1], &[0, 2], &[0, 4], &[16, 0]],
            &[&[0, 8], &[0, 16], &[0, 32], &[1, 0], &[2, 0]],
            &[&[4, 0], &[8, 0]],
        );
        assert_eq!(ll.contig_per_thread(), vec![1, 8]);
        assert_eq!(ll.default_order(REGISTER), vec![1, 0]);
        assert_eq!(ll.bases_per_dim(LANE, true), vec![4, 8]);
    }

    #[test]
    fn blocked_with_cga() {
        let b = Layout::Blocked {
            size_per_thread: vec![1],
            threads_per_warp: vec![32],
            warps_per_cta: vec![1],
            order: vec![0],
            cga: vec![vec![1]],
        };
        let ll = to_linear_layout(&b, &[128]).unwrap();
        assert_eq!(ll.bases(BLOCK), &[vec![64]]);
        assert_eq!(ll.bases(REGISTER), &[vec![32]]);
        // Each CTA takes half the tensor, even when one warp would cover it.
        let ll = to_linear_layout(&b, &[16]).unwrap();
        assert_eq!(ll.bases(BLOCK), &[vec![8]]);
        assert_eq!(ll.bases(LANE)[3..], [vec![0], vec![0]]);
        // A tensor smaller than the CGA: both blocks hold the same data.
        let ll = to_linear_layout(&b, &[1]).unwrap();
        assert_eq!(ll.bases(BLOCK), &[vec![0]]);
    }

    #[test]
    fn per_cta_parts() {
        // Two CTAs split a 2-D tensor along its rows, two more hold the
        // same parts: each CTA's tile is half the rows.
        let b = Layout::Blocked {
            size_per_thread: vec![1, 4],
            threads_per_warp: vec![8, 4],
            warps_per_cta: vec![4, 1],
            order: vec![1, 0],
            cga: vec![vec![0, 0], vec![1, 0]],
        };
        let ll = to_linear_layout(&b, &[128, 16]).unwrap();
        let (local, cta) = per_cta(&ll, &[128, 16]).unwrap();
        assert_eq!(cta.shape, vec![64, 16]);
        assert_eq!(cta.block, v(&[&[0, 0], &[64, 0]]));
        assert_eq!(local.out_dim_size("dim0"), 64);
        assert_eq!(local.in_dim_size(BLOCK), 1);
        assert_eq!(local.bases(REGISTER), ll.bases(REGISTER));
        // Every CTA's element is its tile's, moved by its offset.
        for block in 0..4 {
            for reg in 0..local.in_dim_size(REGISTER) {
                let whole = ll.apply(&[(REGISTER, reg), (BLOCK, block)]).unwrap();
                let part = local.apply(&[(REGISTER, reg)]).unwrap();
                let offset = [0, 1].map(|bit| {
                    if block >> bit & 1 == 1 {
                        cta.block[bit].clone()
                    } else {
                        vec![0, 0]
                    }
                });
                for d in 0..2 {
                    assert_eq!(whole[d].1, part[d].1 ^ offset[0][d] ^ offset[1][d]);
                }
            }
        }
        // A block basis inside the tile (a CTA's elements interleaved with
        // another's) is no tile split.
        let interleaved = LinearLayout::from_bases(
            vec![
                (REGISTER.into(), v(&[&[2]])),
                (LANE.into(), Vec::new()),
                (WARP.into(), Vec::new()),
                (BLOCK.into(), v(&[&[1]])),
            ],
            &["dim0"],
        )
        .unwrap();
        assert!(per_cta(&interleaved, &[4]).is_err());
    }

    /// Direct formula: the element a blocked layout gives (register, lane,
    /// warp), with registers split into the sizePerThread part and the
    /// repetitions, each in `order`.
    fn blocked_formula(
        spt: &[u32],
        tpw: &[u32],
        wpc: &[u32],
        order: &[u32],
        shape: &[i64],
        (mut r, mut l, mut w): (i64, i64, i64),
    ) -> Vec<i32> {
        let rank = shape.len();
        let mut coord = vec![0i64; rank];
        let tile: Vec<i64> = (0..rank)
            .map(|d| (spt[d] * tpw[d] * wpc[d]) as i64)
            .collect();
        let mut within = vec![0i64; rank];
        for &d in order {
            let d = d as usize;
            within[d] = r % spt[d] as i64;
            r /= spt[d] as i64;
        }
        for &d in order {
            let d = d as usize;
            let reps = (shape[d] / tile[d]).max(1);
            let rep = r % reps;
            r /= reps;
            let lane = l % tpw[d] as i64;
            l /= tpw[d] as i64;
            let warp = w % wpc[d] as i64;
            w /= wpc[d] as i64;
            coord[d] = (within[d] + spt[d] as i64 * (lane + tpw[d] as i64 * warp) + tile[d] * rep)
                % shape[d];
        }
        coord.into_iter().map(|c| c as i32).collect()
    }

    #[test]
    fn property_blocked_matches_formula() {
        let mut rng = Rng::new(11);
        for _ in 0..300 {
            let rank = 1 + rng.below(3) as usize;
            let mut pick =
                |max: u64| -> Vec<u32> { (0..rank).map(|_| 1 << rng.below(max)).collect() };
            let spt = pick(3);
            // 32 lanes and 1..8 warps spread over the dims.
            let spread = |total_log: u64, rng: &mut Rng| -> Vec<u32> {
                let mut v = vec![1u32; rank];
                for _ in 0..total_log {
                    v[rng.below(rank as u64) as usize] *= 2;
                }
                v
            };
            let tpw = spread(5, &mut rng);
            let warps_log = rng.below(4);
            let wpc = spread(warps_log, &mut rng);
            let mut order: Vec<u32> = (0..rank as u32).collect();
            for i in (1..rank).rev() {
                order.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let shape: Vec<i64> = (0..rank).map(|_| 1 << rng.below(7)).collect();
            let layout = Layout::blocked(&spt, &tpw, &wpc, &order);
            let ll = to_linear_layout(&layout, &shape).unwrap();
            let regs = ll.in_dim_size(REGISTER) as i64;
            let expect_regs: i64 = (0..rank)
                .map(|d| {
                    let tile = (spt[d] * tpw[d] * wpc[d]) as i64;
                    spt[d] as i64 * (shape[d] / tile).max(1)
                })
                .product();
            assert_eq!(regs, expect_regs, "{layout:?} {shape:?}\n{ll}");
            assert_eq!(ll.in_dim_size(LANE), 32);
            assert_eq!(ll.in_dim_size(WARP), 1 << warps_log);
            for (k, (_, size)) in ll.outs().iter().enumerate() {
                assert_eq!(*size as i64, shape[k]);
            }
            assert!(ll.is_surjective());
            for _ in 0..40 {
                let r = rng.below(regs as u64) as i64;
                let l = rng.below(32) as i64;
                let w = rng.below(1 << warps_log) as i64;
                let got = ll.apply_index(&[r as i32, l as i32, w as i32, 0]);
                let want = blocked_formula(&spt, &tpw, &wpc, &order, &shape, (r, l, w));
                assert_eq!(got, want, "{layout:?} {shape:?} r{r} l{l} w{w}\n{ll}");
            }
            // A linear encoding carrying these bases converts to the same
            // layout.
            let conv = |b: &[Vec<i32>]| -> Vec<Vec<i64>> {
                b.iter()
                    .map(|v| v.iter().map(|&x| x as i64).collect())
                    .collect()
            };
            let linear = Layout::Linear {
                register: conv(ll.bases(REGISTER)),
                lane: conv(ll.bases(LANE)),
                warp: conv(ll.bases(WARP)),
                block: conv(ll.bases(BLOCK)),
            };
            assert_eq!(to_linear_layout(&linear, &shape).unwrap(), ll);

            // Slices agree with the parent with the dimension removed.
            if rank >= 2 {
                let dim = rng.below(rank as u64) as usize;
                let slice = Layout::Slice {
                    dim: dim as u32,
                    parent: Some(Box::new(layout.clone())),
                };
                let mut sliced_shape = shape.clone();
                sliced_shape.remove(dim);
                let sl = to_linear_layout(&slice, &sliced_shape).unwrap();
                let mut parent_shape = sliced_shape.clone();
                parent_shape.insert(dim, 1);
                let pl = to_linear_layout(&layout, &parent_shape).unwrap();
                assert_eq!(sl.bases(LANE).len(), pl.bases(LANE).len());
                let kept: Vec<&Vec<i32>> = pl
                    .bases(REGISTER)
                    .iter()
                    .filter(|b| b.iter().any(|&x| x != 0))
                    .collect();
                assert_eq!(sl.bases(REGISTER).len(), kept.len());
                for (s, p) in sl.bases(REGISTER).iter().zip(kept) {
                    let mut p = p.clone();
                    p.remove(dim);
                    assert_eq!(s, &p);
                }
                for (s, p) in sl.bases(WARP).iter().zip(pl.bases(WARP)) {
                    let mut p = p.clone();
                    p.remove(dim);
                    assert_eq!(s, &p);
                }
            }
        }
    }

    #[test]
    fn slice_of_blocked_by_hand() {
        let parent = Layout::blocked(&[1, 4], &[8, 4], &[4, 1], &[1, 0]);
        let s = Layout::Slice {
            dim: 0,
            parent: Some(Box::new(parent.clone())),
        };
        let ll = to_linear_layout(&s, &[32]).unwrap();
        expect(
            &ll,
            &[&[1], &[2], &[16]],
            &[&[4], &[8], &[0], &[0], &[0]],
            &[&[0], &[0]],
        );
        let s1 = Layout::Slice {
            dim: 1,
            parent: Some(Box::new(parent)),
        };
        let ll = to_linear_layout(&s1, &[64]).unwrap();
        expect(
            &ll,
            &[&[32]],
            &[&[0], &[0], &[1], &[2], &[4]],
            &[&[8], &[16]],
        );
    }

    #[test]
    fn mma_v2() {
        let ll = to_linear_layout(&Layout::nvidia_mma(2, &[1, 1], &[16, 8]), &[16, 16]).unwrap();
        expect(
            &ll,
            &[&[0, 1], &[8, 0], &[0, 8]],
            &[&[0, 2], &[0, 4], &[1, 0], &[2, 0], &[4, 0]],
            &[],
        );
        // Warps row-major (dim1 first) for Ampere.
        let ll = to_linear_layout(&Layout::nvidia_mma(2, &[2, 2], &[16, 8]), &[32, 16]).unwrap();
        expect(
            &ll,
            &[&[0, 1], &[8, 0]],
            &[&[0, 2], &[0, 4], &[1, 0], &[2, 0], &[4, 0]],
            &[&[0, 8], &[16, 0]],
        );
        // Larger tensors repeat along registers, dim1 first.
        let ll = to_linear_layout(&Layout::nvidia_mma(2, &[1, 1], &[16, 8]), &[32, 16]).unwrap();
        assert_eq!(
            ll.bases(REGISTER),
            v(&[&[0, 1], &[8, 0], &[0, 8], &[16, 0]]).as_slice()
        );
        assert_eq!(ll.contig_per_thread(), vec![1, 2]);
    }

    #[test]
    fn mma_v3() {
        let ll =
            to_linear_layout(&Layout::nvidia_mma(3, &[4, 1], &[16, 16, 8]), &[64, 16]).unwrap();
        expect(
            &ll,
            &[&[0, 1], &[8, 0], &[0, 8]],
            &[&[0, 2], &[0, 4], &[1, 0], &[2, 0], &[4, 0]],
            &[&[16, 0], &[32, 0]],
        );
        let ll =
            to_linear_layout(&Layout::nvidia_mma(3, &[4, 2], &[16, 64, 16]), &[128, 128]).unwrap();
        assert_eq!(ll.in_dim_size(REGISTER), 64);
        assert_eq!(
            ll.bases(WARP),
            v(&[&[16, 0], &[32, 0], &[0, 64]]).as_slice()
        );
        assert!(ll.is_invertible());
    }

    #[test]
    fn dot_operands_of_mma_v2() {
        let parent = Some(Box::new(Layout::nvidia_mma(2, &[2, 2], &[16, 8])));
        let a = Layout::DotOperand {
            op_idx: 0,
            k_width: 2,
            parent: parent.clone(),
        };
        let ll = to_linear_layout(&a, &[32, 16]).unwrap();
        // kWidth along K, then row+8, then K+8; warps broadcast along K.
        expect(
            &ll,
            &[&[0, 1], &[8, 0], &[0, 8]],
            &[&[0, 2], &[0, 4], &[1, 0], &[2, 0], &[4, 0]],
            &[&[0, 0], &[16, 0]],
        );
        let b = Layout::DotOperand {
            op_idx: 1,
            k_width: 2,
            parent,
        };
        let ll = to_linear_layout(&b, &[16, 16]).unwrap();
        expect(
            &ll,
            &[&[1, 0], &[8, 0]],
            &[&[2, 0], &[4, 0], &[0, 1], &[0, 2], &[0, 4]],
            &[&[0, 8], &[0, 0]],
        );
        let a4 = Layout::DotOperand {
            op_idx: 0,
            k_width: 4,
            parent: Some(Box::new(Layout::nvidia_mma(2, &[1, 1], &[16, 8]))),
        };
        let ll = to_linear_layout(&a4, &[16, 32]).unwrap();
        assert_eq!(ll.contig_per_thread(), vec![1, 4]);
        assert_eq!(ll.num_consecutive_in_out(), 1);
        // Hopper operand A in registers, and B is rejected.
        let h = Layout::DotOperand {
            op_idx: 0,
            k_width: 2,
            parent: Some(Box::new(Layout::nvidia_mma(3, &[4, 1], &[16, 64, 16]))),
        };
        let ll = to_linear_layout(&h, &[64, 16]).unwrap();
        assert_eq!(ll.bases(WARP), v(&[&[16, 0], &[32, 0]]).as_slice());
    }

    fn dot(parent: Layout, op_idx: u32, k_width: u32) -> Layout {
        Layout::DotOperand {
            op_idx,
            k_width,
            parent: Some(Box::new(parent)),
        }
    }

    /// Cases whose expected bases come from Triton's own conversion tests
    /// (`unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp`).
    #[test]
    fn matches_triton_expectations() {
        type Case<'a> = (
            Layout,
            &'a [i64],
            &'a [&'a [i32]],
            &'a [&'a [i32]],
            &'a [&'a [i32]],
        );
        let v2_41 = Layout::nvidia_mma(2, &[4, 1], &[16, 8]);
        let v2_22 = Layout::nvidia_mma(2, &[2, 2], &[16, 8]);
        let v3_44 = Layout::nvidia_mma(3, &[4, 4], &[16, 16, 8]);
        let cases: Vec<Case> = vec![
            (
                v3_44.clone(),
                &[32, 32],
                &[&[0, 1], &[8, 0], &[0, 8]],
                &[&[0, 2], &[0, 4], &[1, 0], &[2, 0], &[4, 0]],
                &[&[16, 0], &[0, 0], &[0, 16], &[0, 0]],
            ),
            (
                v3_44,
                &[128, 16],
                &[&[0, 1], &[8, 0], &[0, 8], &[64, 0]],
                &[&[0, 2], &[0, 4], &[1, 0], &[2, 0], &[4, 0]],
                &[&[16, 0], &[32, 0], &[0, 0], &[0, 0]],
            ),
            (
                dot(Layout::nvidia_mma(2, &[1, 1], &[16, 8]), 0, 8),
                &[16, 64],
                &[&[0, 1], &[0, 2], &[0, 4], &[8, 0], &[0, 32]],
                &[&[0, 8], &[0, 16], &[1, 0], &[2, 0], &[4, 0]],
                &[],
            ),
            (
                dot(Layout::nvidia_mma(2, &[1, 1], &[16, 8]), 1, 8),
                &[64, 8],
                &[&[1, 0], &[2, 0], &[4, 0], &[32, 0]],
                &[&[8, 0], &[16, 0], &[0, 1], &[0, 2], &[0, 4]],
                &[],
            ),
            (
                dot(v2_41.clone(), 0, 8),
                &[128, 128],
                &[
                    &[0, 1],
                    &[0, 2],
                    &[0, 4],
                    &[8, 0],
                    &[0, 32],
                    &[0, 64],
                    &[64, 0],
                ],
                &[&[0, 8], &[0, 16], &[1, 0], &[2, 0], &[4, 0]],
                &[&[16, 0], &[32, 0]],
            ),
            (
                dot(v2_41, 1, 8),
                &[128, 64],
                &[
                    &[1, 0],
                    &[2, 0],
                    &[4, 0],
                    &[32, 0],
                    &[64, 0],
                    &[0, 8],
                    &[0, 16],
                    &[0, 32],
                ],
                &[&[8, 0], &[16, 0], &[0, 1], &[0, 2], &[0, 4]],
                &[&[0, 0], &[0, 0]],
            ),
            (
                dot(v2_22.clone(), 0, 8),
                &[64, 128],
                &[
                    &[0, 1],
                    &[0, 2],
                    &[0, 4],
                    &[8, 0],
                    &[0, 32],
                    &[0, 64],
                    &[32, 0],
                ],
                &[&[0, 8], &[0, 16], &[1, 0], &[2, 0], &[4, 0]],
                &[&[0, 0], &[16, 0]],
            ),
            (
                dot(v2_22.clone(), 1, 8),
                &[128, 32],
                &[&[1, 0], &[2, 0], &[4, 0], &[32, 0], &[64, 0], &[0, 16]],
                &[&[8, 0], &[16, 0], &[0, 1], &[0, 2], &[0, 4]],
                &[&[0, 8], &[0, 0]],
            ),
            (
                dot(Layout::nvidia_mma(3, &[4, 2], &[16, 16, 8]), 0, 4),
                &[128, 64],
                &[&[0, 1], &[0, 2], &[8, 0], &[0, 16], &[0, 32], &[64, 0]],
                &[&[0, 4], &[0, 8], &[1, 0], &[2, 0], &[4, 0]],
                &[&[16, 0], &[32, 0], &[0, 0]],
            ),
            (
                dot(Layout::nvidia_mma(2, &[2, 4, 2], &[1, 16, 8]), 0, 8),
                &[16, 128, 128],
                &[
                    &[0, 0, 1],
                    &[0, 0, 2],
                    &[0, 0, 4],
                    &[0, 8, 0],
                    &[0, 0, 32],
                    &[0, 0, 64],
                    &[0, 64, 0],
                    &[2, 0, 0],
                    &[4, 0, 0],
                    &[8, 0, 0],
                ],
                &[&[0, 0, 8], &[0, 0, 16], &[0, 1, 0], &[0, 2, 0], &[0, 4, 0]],
                &[&[0, 0, 0], &[0, 16, 0], &[0, 32, 0], &[1, 0, 0]],
            ),
            (
                dot(Layout::nvidia_mma(2, &[2, 4, 2], &[1, 16, 8]), 1, 8),
                &[8, 128, 64],
                &[
                    &[0, 1, 0],
                    &[0, 2, 0],
                    &[0, 4, 0],
                    &[0, 32, 0],
                    &[0, 64, 0],
                    &[0, 0, 16],
                    &[0, 0, 32],
                    &[2, 0, 0],
                    &[4, 0, 0],
                ],
                &[&[0, 8, 0], &[0, 16, 0], &[0, 0, 1], &[0, 0, 2], &[0, 0, 4]],
                &[&[0, 0, 8], &[0, 0, 0], &[0, 0, 0], &[1, 0, 0]],
            ),
            (
                Layout::slice(1, dot(Layout::nvidia_mma(2, &[1, 1], &[16, 8]), 0, 8)),
                &[16],
                &[&[8]],
                &[&[0], &[0], &[1], &[2], &[4]],
                &[],
            ),
            (
                Layout::slice(0, dot(Layout::nvidia_mma(3, &[4, 1], &[16, 16, 8]), 0, 2)),
                &[16],
                &[&[1], &[8]],
                &[&[2], &[4], &[0], &[0], &[0]],
                &[&[0], &[0]],
            ),
            (
                Layout::slice(0, v2_22.clone()),
                &[128],
                &[&[1], &[16], &[32], &[64]],
                &[&[2], &[4], &[0], &[0], &[0]],
                &[&[8], &[0]],
            ),
            (
                Layout::slice(1, v2_22.clone()),
                &[8],
                &[],
                &[&[0], &[0], &[1], &[2], &[4]],
                &[&[0], &[0]],
            ),
            (
                Layout::slice(1, v2_22),
                &[128],
                &[&[8], &[32], &[64]],
                &[&[0], &[0], &[1], &[2], &[4]],
                &[&[0], &[16]],
            ),
            (
                Layout::slice(0, Layout::blocked(&[1, 4], &[8, 4], &[2, 2], &[0, 1])),
                &[1],
                &[],
                &[&[0], &[0], &[0], &[0], &[0]],
                &[&[0], &[0]],
            ),
        ];
        for (layout, shape, reg, lane, warp) in cases {
            let ll = to_linear_layout(&layout, shape).unwrap();
            expect(&ll, reg, lane, warp);
            assert_eq!(
                ll.outs().iter().map(|(_, s)| *s as i64).collect::<Vec<_>>(),
                shape.to_vec()
            );
        }
        // A 2x2 CGA (CTA order [1, 0]) under a slice.
        let parent = Layout::Blocked {
            size_per_thread: vec![2, 4],
            threads_per_warp: vec![4, 2],
            warps_per_cta: vec![2, 2],
            order: vec![1, 0],
            cga: vec![vec![0, 1], vec![1, 0]],
        };
        let ll = to_linear_layout(&Layout::slice(0, parent.clone()), &[128]).unwrap();
        expect(
            &ll,
            &[&[1], &[2], &[16], &[32]],
            &[&[4], &[0], &[0]],
            &[&[8], &[0]],
        );
        assert_eq!(ll.bases(BLOCK), &[vec![64], vec![0]]);
        let ll = to_linear_layout(&Layout::slice(1, parent), &[128]).unwrap();
        expect(
            &ll,
            &[&[1], &[16], &[32]],
            &[&[0], &[2], &[4]],
            &[&[0], &[8]],
        );
        assert_eq!(ll.bases(BLOCK), &[vec![0], vec![64]]);
    }

    #[test]
    fn equivalence_across_kinds() {
        let b = Layout::blocked(&[1, 4], &[8, 4], &[4, 1], &[1, 0]);
        let ll = to_linear_layout(&b, &[32, 16]).unwrap();
        let conv = |v: &[Vec<i32>]| -> Vec<Vec<i64>> {
            v.iter()
                .map(|x| x.iter().map(|&y| y as i64).collect())
                .collect()
        };
        let linear = Layout::Linear {
            register: conv(ll.bases(REGISTER)),
            lane: conv(ll.bases(LANE)),
            warp: conv(ll.bases(WARP)),
            block: vec![],
        };
        assert!(equivalent(&b, &linear, &[32, 16]).unwrap());
        let other = Layout::blocked(&[4, 1], &[4, 8], &[1, 4], &[0, 1]);
        assert!(!equivalent(&b, &other, &[32, 16]).unwrap());
        // Only the register repeats differ between shapes.
        assert_eq!(ll.elems_per_thread_per_dim(), vec![1, 4]);
        assert_eq!(
            to_linear_layout(&b, &[64, 16])
                .unwrap()
                .elems_per_thread_per_dim(),
            vec![2, 4]
        );
    }

    #[test]
    fn dot_operands_of_blocked() {
        let parent = Layout::blocked(&[1, 4], &[8, 4], &[4, 1], &[1, 0]);
        let a = dot(parent.clone(), 0, 0);
        let ll = to_linear_layout(&a, &[32, 16]).unwrap();
        expect(
            &ll,
            &[&[0, 1], &[0, 2], &[0, 4], &[0, 8]],
            &[&[0, 0], &[0, 0], &[1, 0], &[2, 0], &[4, 0]],
            &[&[8, 0], &[16, 0]],
        );
        let b = dot(parent, 1, 0);
        let ll = to_linear_layout(&b, &[8, 16]).unwrap();
        expect(
            &ll,
            &[&[0, 1], &[0, 2], &[1, 0], &[2, 0], &[4, 0]],
            &[&[0, 4], &[0, 8], &[0, 0], &[0, 0], &[0, 0]],
            &[&[0, 0], &[0, 0]],
        );
        assert_eq!(
            ll.free_variable_masks()[1..3],
            [("lane".to_string(), 0b11100), ("warp".to_string(), 0b11)]
        );
    }

    #[test]
    fn errors() {
        let b = Layout::blocked(&[1], &[32], &[4], &[0]);
        assert!(to_linear_layout(&b, &[100]).is_err());
        assert!(to_linear_layout(&b, &[16, 16]).is_err());
        let shared = Layout::SwizzledShared {
            vec: 1,
            per_phase: 1,
            max_phase: 1,
            order: vec![0],
            cga: vec![],
        };
        assert!(to_linear_layout(&shared, &[16]).is_err());
        assert!(to_linear_layout(&Layout::nvidia_mma(1, &[1, 1], &[]), &[16, 16]).is_err());
    }

    #[test]
    fn padded_placement() {
        let layout =
            |intervals: Vec<u32>, paddings: Vec<u32>, order: &[u32]| Layout::PaddedShared {
                intervals,
                paddings,
                offsets: vec![],
                block: vec![],
                order: order.to_vec(),
                shape: vec![64, 64],
            };
        // Row-major 64 x 64, 4 elements of padding after every 32: element
        // (r, c) at u = 64 r + c, then u / 32 * 4 more.
        let p = Padded::of(&layout(vec![32], vec![4], &[1, 0])).unwrap();
        for (r, c) in [(0, 0), (0, 31), (0, 32), (1, 0), (63, 63)] {
            let u = 64 * r + c;
            assert_eq!(p.offset(&[r, c]), u + u / 32 * 4, "({r}, {c})");
        }
        // Triton's sizes (metadata.shared of 64 x 64 i32 buffers): no
        // padding after the last element.
        assert_eq!(p.size(4096) * 4, 18416);
        let two = Padded::of(&layout(vec![16, 64], vec![4, 8], &[0, 1])).unwrap();
        assert_eq!(two.size(4096) * 4, 22480);
        // Column-major: (r, c) at u = r + 64 c.
        let u = 5 + 64;
        assert_eq!(two.offset(&[5, 1]), u + u / 16 * 4 + u / 64 * 8);
        assert!(Padded::of(&layout(vec![24], vec![4], &[1, 0])).is_err());
    }

    #[test]
    fn padded_components() {
        let padded =
            |offsets: Vec<Vec<i64>>, block, order: &[u32], shape: &[u32]| Layout::PaddedShared {
                intervals: vec![32],
                paddings: vec![4],
                offsets,
                block,
                order: order.to_vec(),
                shape: shape.to_vec(),
            };
        // The order/shape form: the identity, fastest dimension first.
        let ll = padded_linear_component(&padded(vec![], vec![], &[1, 0], &[2, 4])).unwrap();
        assert_eq!(
            ll.bases(to_linear_amd::OFFSET),
            v(&[&[0, 1], &[0, 2], &[1, 0]]).as_slice()
        );
        assert_eq!(ll.in_dim_size(BLOCK), 1);
        assert_eq!(
            ll.outs(),
            &[("dim0".to_string(), 2), ("dim1".to_string(), 4)]
        );
        // The linear form: the bases as given, the sizes they span.
        let ll = padded_linear_component(&padded(
            vec![vec![1, 0], vec![2, 0], vec![0, 1]],
            vec![vec![0, 0]],
            &[],
            &[],
        ))
        .unwrap();
        assert_eq!(
            ll.outs(),
            &[("dim0".to_string(), 4), ("dim1".to_string(), 2)]
        );
        assert_eq!(ll.in_dim_size(BLOCK), 2);
        // Malformed order/shape forms are errors, not panics.
        assert!(padded_linear_component(&padded(vec![], vec![], &[0, 0], &[2, 4])).is_err());
        assert!(padded_linear_component(&padded(vec![], vec![], &[1, 0], &[3, 4])).is_err());
    }

    #[test]
    fn shared_linear_is_its_bases() {
        let sl = Layout::SharedLinear {
            offset: vec![vec![0, 1], vec![0, 2], vec![1, 2], vec![2, 0]],
            block: vec![],
            alignment: 16,
        };
        let ll = shared_to_linear_layout(&sl, &[4, 4]).unwrap();
        assert_eq!(
            ll.bases(to_linear_amd::OFFSET),
            v(&[&[0, 1], &[0, 2], &[1, 2], &[2, 0]]).as_slice()
        );
        // Triton does not broadcast a shared linear layout to another shape.
        assert!(shared_to_linear_layout(&sl, &[8, 4]).is_err());
    }
}
