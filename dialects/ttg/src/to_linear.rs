//! Distributed `ttg` encodings as linear layouts for a given tensor shape,
//! following Triton 3.6's `LinearLayoutConversions.cpp`: blocked, slice,
//! nvidia_mma v2 and v3, dot_op operands of an nvidia_mma parent, and
//! linear. The result maps `register`, `lane`, `warp`, `block` to `dim0`,
//! `dim1`, ... with output sizes equal to the shape: tensors larger than the
//! layout's tile repeat it along extra register bits, smaller ones wrap
//! (the bases that would leave the tensor become zero, broadcasting).

use std::collections::HashMap;

use crate::layout::Layout;
use crate::linear_layout::LinearLayout;

pub const REGISTER: &str = "register";
pub const LANE: &str = "lane";
pub const WARP: &str = "warp";
pub const BLOCK: &str = "block";

/// `dim0`, `dim1`, ... `dim{rank-1}`.
pub fn standard_out_dim_names(rank: usize) -> Vec<String> {
    (0..rank).map(|i| format!("dim{i}")).collect()
}

fn names(v: &[String]) -> Vec<&str> {
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
fn broadcasted_nd(in_dim: &str, shape: &[u32], order: &[u32], broadcast: usize) -> LinearLayout {
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

/// Zeroes the `want` most major non-zero bases of `in_dim` along `out` and
/// shifts the removed bits out of all other values (Triton's
/// `shrinkCodomain`).
fn shrink_codomain(layout: &LinearLayout, in_dim: &str, out: &str, new_size: i32) -> LinearLayout {
    let k = layout.out_dim_index(out).expect("output dimension");
    let want = (layout.out_dim_size(out) / new_size).trailing_zeros() as usize;
    if want == 0 {
        return layout.clone();
    }
    let mut removed: Vec<i32> = layout
        .bases(in_dim)
        .iter()
        .rev()
        .map(|b| b[k])
        .filter(|&v| v != 0)
        .take(want)
        .collect();
    if removed.is_empty() {
        return layout.clone();
    }
    removed.sort_unstable();
    // The identity on the outputs, with the removed bits taken out of `out`.
    let mut ins = Vec::new();
    for (i, (name, size)) in layout.outs().iter().enumerate() {
        let bits = size.trailing_zeros() as usize;
        let mut values: Vec<i32> = (0..bits).map(|b| 1 << b).collect();
        if i == k {
            for &r in &removed {
                let idx = r.trailing_zeros() as usize;
                for j in (idx + 1..bits).rev() {
                    values[j] = values[j - 1];
                }
                values[idx] = 0;
            }
        }
        let bases = values
            .into_iter()
            .map(|v| {
                let mut basis = vec![0; layout.num_out_dims()];
                basis[i] = v;
                basis
            })
            .collect();
        ins.push((name.clone(), bases));
    }
    let transform = LinearLayout::from_bases(ins, &layout.out_dim_names()).expect("transform");
    layout.compose(&transform).expect("compose with shrink")
}

/// Makes every output at most `shape[out]` without changing the inputs:
/// warp bits are dropped (made broadcast) first, then lane, register and
/// block bits, most major first.
pub fn ensure_layout_not_larger_than(
    layout: &LinearLayout,
    shape: &HashMap<String, i32>,
) -> LinearLayout {
    let mut result = layout.clone();
    for (out, size) in layout.outs() {
        let desired = shape[out];
        if *size <= desired {
            continue;
        }
        for in_dim in ["offset", WARP, LANE, REGISTER, BLOCK] {
            if result.has_in_dim(in_dim) {
                result = shrink_codomain(&result, in_dim, out, desired);
            }
        }
    }
    result
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
    let cga_layout = ensure_layout_not_larger_than(&cga_layout, &labeled)
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
    let cta = ensure_layout_not_larger_than(&cta, &cta_shape);
    cta.try_mul(&cga_layout)?.transpose_outs(&names(&dims))
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
        Layout::DotOperand {
            op_idx,
            k_width,
            parent,
        } => {
            check_rank(layout, shape)?;
            let Some(Layout::NvidiaMma {
                version_major,
                warps_per_cta,
                cga,
                ..
            }) = parent.as_deref()
            else {
                return Err(
                    "only dot operands of an nvidia_mma parent have a linear layout here".into(),
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
            let ll = ensure_layout_not_larger_than(&ll, &labeled);
            ll.transpose_outs(&names(&dims))
        }
        _ => Err("only distributed encodings have a register linear layout".into()),
    }
}
