//! Triton's layout inference for `tt.trans`, `tt.reshape`, `tt.split`,
//! `tt.join` and `ttg.fp4_to_fp` (`inferTransOpEncoding`,
//! `inferReshapeOpEncoding`, `inferSplitOpEncoding`, `inferJoinOpEncoding`,
//! `inferFp4ToFpOpEncoding`): the encoding a
//! result takes from its operand's (and, run backwards, the operand's from
//! the result's), as the layout propagation of
//! `tritongpu-remove-layout-conversions` asks for it. A blocked operand
//! gives a blocked result where Triton finds one (a permuted blocked layout
//! for a transpose; for a reshape, the blocked layout that keeps every
//! element where it is, when the merged dims are consecutive and filled
//! minor first); anything else gives the operand's linear layout with its
//! dims permuted or reshaped, as `#ttg.linear`. Results are encoding texts.

use ttg_dialect::layout::Layout;
use ttg_dialect::to_linear::to_linear_layout;

use crate::ttgir::convert_triton_to_tritongpu::Blocked;

/// `getReshapeDecomposition`: the reshape as groups of source dims merged
/// and split into groups of result dims, in order.
pub fn reshape_decomposition(src: &[i64], dst: &[i64]) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut groups: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    if src.is_empty() {
        return groups;
    }
    groups.push((Vec::new(), Vec::new()));
    let (mut s, mut d) = (0usize, 0usize);
    let (mut src_elems, mut dst_elems) = (1i64, 1i64);
    while s < src.len() || d < dst.len() {
        let group = groups.last_mut().expect("a group");
        if src_elems < dst_elems || (s < src.len() && (src_elems == 1 || src[s] == 1)) {
            if s >= src.len() {
                break;
            }
            src_elems *= src[s];
            group.0.push(s);
            s += 1;
        } else if dst_elems < src_elems || (d < dst.len() && dst[d] == 1) {
            if d >= dst.len() {
                break;
            }
            dst_elems *= dst[d];
            group.1.push(d);
            d += 1;
        } else {
            groups.push((Vec::new(), Vec::new()));
            src_elems = 1;
            dst_elems = 1;
        }
    }
    groups
}

/// The inverse of the permutation `order` (`inverse[order[i]] == i`), or
/// `None` when `order` is not a permutation of `0..order.len()`.
pub fn inverse_permutation(order: &[u32]) -> Option<Vec<u32>> {
    let mut inverse = vec![None; order.len()];
    for (i, &o) in order.iter().enumerate() {
        let slot = inverse.get_mut(o as usize)?;
        if slot.replace(i as u32).is_some() {
            return None;
        }
    }
    inverse.into_iter().collect()
}

/// Whether a blocked layout's CGA part describes a single CTA.
fn single_cta(cga: &[Vec<i64>]) -> bool {
    cga.iter().all(|b| b.iter().all(|&x| x == 0))
}

/// The result encoding of `tt.trans` with `order` on an operand of `shape`
/// with `layout`.
pub fn infer_trans(layout: &Layout, shape: &[i64], order: &[u32]) -> Option<String> {
    if order.len() != shape.len() {
        return None;
    }
    let inverse = inverse_permutation(order)?;
    if let Some((size_per_thread, threads_per_warp, warps_per_cta, blocked_order)) =
        blocked_parts(layout)
    {
        let permute = |v: &[u32]| -> Vec<u32> { order.iter().map(|&o| v[o as usize]).collect() };
        return Some(
            Blocked {
                size_per_thread: permute(size_per_thread),
                threads_per_warp: permute(threads_per_warp),
                warps_per_cta: permute(warps_per_cta),
                order: blocked_order.iter().map(|&d| inverse[d as usize]).collect(),
            }
            .text(),
        );
    }
    let linear = to_linear_layout(layout, shape).ok()?;
    Some(linear_text(&linear, |basis| {
        order.iter().map(|&o| basis[o as usize] as i64).collect()
    }))
}

/// The result encoding of a `tt.reshape` (without `allow_reorder`) from
/// `src` with `layout` to `dst`.
pub fn infer_reshape(src: &[i64], layout: &Layout, dst: &[i64]) -> Option<String> {
    if src.iter().product::<i64>() != dst.iter().product::<i64>() {
        return None;
    }
    if let Some(blocked) = legacy_reshape(src, layout, dst) {
        return Some(blocked.text());
    }
    let linear = to_linear_layout(layout, src).ok()?;
    Some(linear_text(&linear, |basis| {
        // Row-major flattening in the source shape, unflattened in the
        // result's (Triton's transposeOuts / reshapeOuts / transposeOuts).
        let mut flat: i64 = 0;
        for (&x, &n) in basis.iter().zip(src) {
            flat = flat * n + x as i64;
        }
        let mut out = vec![0i64; dst.len()];
        for (slot, &n) in out.iter_mut().zip(dst).rev() {
            *slot = flat % n;
            flat /= n;
        }
        out
    }))
}

/// The result encoding of `tt.split` on an operand of `shape` (last
/// dimension 2) with `layout` (Triton's `inferSplitOpEncoding`): the
/// operand's linear layout without its last dimension, which one register
/// basis alone must span.
pub fn infer_split(layout: &Layout, shape: &[i64]) -> Option<String> {
    let rank = shape.len();
    if rank < 2 || shape[rank - 1] != 2 {
        return None;
    }
    let linear = to_linear_layout(layout, shape).ok()?;
    let last = |b: &[i32]| b[rank - 1];
    let registers = linear.bases("register");
    let spanning: Vec<usize> = (0..registers.len())
        .filter(|&i| last(&registers[i]) != 0)
        .collect();
    let [split] = spanning[..] else {
        return None;
    };
    if registers[split].iter().take(rank - 1).any(|&x| x != 0) {
        return None;
    }
    for name in ["lane", "warp", "block"] {
        if linear.bases(name).iter().any(|b| last(b) != 0) {
            return None;
        }
    }
    Some(linear_text_keeping(
        &linear,
        |name, i| !(name == "register" && i == split),
        |b| b[..rank - 1].iter().map(|&x| x as i64).collect(),
    ))
}

/// The sizes per thread, threads per warp, warps per CTA and order of a
/// blocked layout within one CTA.
type BlockedParts<'l> = (&'l [u32], &'l [u32], &'l [u32], &'l [u32]);

fn blocked_parts(layout: &Layout) -> Option<BlockedParts<'_>> {
    match layout {
        Layout::Blocked {
            size_per_thread,
            threads_per_warp,
            warps_per_cta,
            order,
            cga,
        } if single_cta(cga) => Some((size_per_thread, threads_per_warp, warps_per_cta, order)),
        _ => None,
    }
}

/// The result encoding of `tt.split` (Triton's `inferSplitOpEncoding`): a
/// blocked layout whose last dimension is two registers of one thread
/// loses that dimension; any other layout becomes the linear layout of
/// [`infer_split`].
pub fn infer_split_encoding(layout: &Layout, shape: &[i64]) -> Option<String> {
    match split_blocked(layout, shape) {
        Some(blocked) => Some(blocked.text()),
        None => infer_split(layout, shape),
    }
}

/// A blocked layout whose last dimension is two registers of one thread,
/// without that dimension.
fn split_blocked(layout: &Layout, shape: &[i64]) -> Option<Blocked> {
    let (size_per_thread, threads_per_warp, warps_per_cta, order) = blocked_parts(layout)?;
    let rank = size_per_thread.len();
    let splits = rank >= 2
        && shape.len() == rank
        && shape[rank - 1] == 2
        && size_per_thread[rank - 1] == 2
        && threads_per_warp[rank - 1] == 1
        && warps_per_cta[rank - 1] == 1;
    let last = (rank - 1) as u32;
    splits.then(|| Blocked {
        size_per_thread: size_per_thread[..rank - 1].to_vec(),
        threads_per_warp: threads_per_warp[..rank - 1].to_vec(),
        warps_per_cta: warps_per_cta[..rank - 1].to_vec(),
        order: order.iter().copied().filter(|&d| d != last).collect(),
    })
}

/// The result encoding of `tt.join` on operands of `shape` with `layout`
/// (Triton's `inferJoinOpEncoding`): a new last dimension of two elements,
/// held by each thread as its fastest-varying registers (a blocked layout
/// stays blocked).
pub fn infer_join(layout: &Layout, shape: &[i64]) -> Option<String> {
    let rank = shape.len();
    // A slice along the new dimension of a layout that splits back into
    // it (blocked, two registers along that dimension) joins into that
    // layout.
    if let Layout::Slice {
        dim,
        parent: Some(parent),
    } = layout
    {
        let joined: Vec<i64> = shape.iter().copied().chain([2]).collect();
        if *dim as usize == rank {
            if let Some(b) = split_blocked(parent, &joined) {
                let split = Layout::blocked(
                    &b.size_per_thread,
                    &b.threads_per_warp,
                    &b.warps_per_cta,
                    &b.order,
                );
                if ttg_dialect::to_linear::equivalent(&split, layout, shape).unwrap_or(false) {
                    return parent.text();
                }
            }
        }
    }
    if let Some((size_per_thread, threads_per_warp, warps_per_cta, order)) = blocked_parts(layout) {
        if size_per_thread.len() == rank {
            let with = |v: &[u32], x: u32| -> Vec<u32> { v.iter().copied().chain([x]).collect() };
            return Some(
                Blocked {
                    size_per_thread: with(size_per_thread, 2),
                    threads_per_warp: with(threads_per_warp, 1),
                    warps_per_cta: with(warps_per_cta, 1),
                    order: [rank as u32]
                        .into_iter()
                        .chain(order.iter().copied())
                        .collect(),
                }
                .text(),
            );
        }
    }
    let linear = to_linear_layout(layout, shape).ok()?;
    // Every basis gains a 0 for the new dimension, whose own register
    // basis comes first.
    let mut new_dim = vec![0i64; rank + 1];
    new_dim[rank] = 1;
    Some(linear_text_of(|name| {
        let widened = linear
            .bases(name)
            .iter()
            .map(|b| b.iter().map(|&x| x as i64).chain([0]).collect());
        let first = (name == "register").then(|| new_dim.clone());
        first.into_iter().chain(widened).collect()
    }))
}

/// The encoding across `ttg.fp4_to_fp` along `axis` (Triton's
/// `inferFp4ToFpOpEncoding`), from `layout` of a tensor of `shape`:
/// `forward` from the packed operand to the result, which holds each byte's
/// two values as two neighbours along `axis`; otherwise back. A blocked
/// layout doubles (halves, where it holds two or more) its `sizePerThread`
/// along `axis`, whatever its order (as Triton 3.6 infers it), and a dot
/// operand along K its `kWidth`; any other layout becomes a
/// linear one whose first register basis is the step along `axis` (added
/// going forward, and every other step along `axis` doubled; removed going
/// back, the others halved). `None` where going back finds no such basis.
pub fn infer_fp4_to_fp(
    layout: &Layout,
    shape: &[i64],
    axis: usize,
    forward: bool,
) -> Option<String> {
    let rank = shape.len();
    if axis >= rank {
        return None;
    }
    let scale = |x: u32| -> Option<u32> {
        if forward {
            Some(x * 2)
        } else {
            (x > 1).then_some(x / 2)
        }
    };
    if let Some((size_per_thread, threads_per_warp, warps_per_cta, order)) = blocked_parts(layout) {
        let scaled = size_per_thread
            .get(axis)
            .copied()
            .and_then(scale)
            .filter(|_| size_per_thread.len() == rank);
        if let Some(scaled) = scaled {
            let mut size_per_thread = size_per_thread.to_vec();
            size_per_thread[axis] = scaled;
            return Some(
                Blocked {
                    size_per_thread,
                    threads_per_warp: threads_per_warp.to_vec(),
                    warps_per_cta: warps_per_cta.to_vec(),
                    order: order.to_vec(),
                }
                .text(),
            );
        }
    }
    if let Layout::DotOperand {
        op_idx,
        k_width,
        parent,
    } = layout
    {
        let k_dim = if *op_idx == 0 {
            rank - 1
        } else {
            rank.checked_sub(2)?
        };
        if axis == k_dim && *k_width > 0 {
            return Layout::DotOperand {
                op_idx: *op_idx,
                k_width: scale(*k_width)?,
                parent: parent.clone(),
            }
            .text();
        }
    }
    let linear = to_linear_layout(layout, shape).ok()?;
    let mut step = vec![0i64; rank];
    step[axis] = 1;
    if forward {
        return Some(linear_text_of(|name| {
            let doubled = linear.bases(name).iter().map(|b| {
                let mut b: Vec<i64> = b.iter().map(|&x| i64::from(x)).collect();
                b[axis] *= 2;
                b
            });
            let first = (name == "register").then(|| step.clone());
            first.into_iter().chain(doubled).collect()
        }));
    }
    let registers = linear.bases("register");
    let first: Vec<i64> = registers.first()?.iter().map(|&x| i64::from(x)).collect();
    if first != step {
        return None;
    }
    let names = ["register", "lane", "warp", "block"];
    let even = names
        .iter()
        .flat_map(|n| linear.bases(n).iter().skip(usize::from(*n == "register")))
        .all(|b| b[axis] % 2 == 0);
    if !even {
        return None;
    }
    Some(linear_text_of(|name| {
        linear
            .bases(name)
            .iter()
            .skip(usize::from(name == "register"))
            .map(|b| {
                let mut b: Vec<i64> = b.iter().map(|&x| i64::from(x)).collect();
                b[axis] /= 2;
                b
            })
            .collect()
    }))
}

/// `#ttg.linear<{...}>` of `linear` with every basis mapped by `map`.
pub(crate) fn linear_text(
    linear: &ttg_dialect::linear_layout::LinearLayout,
    map: impl Fn(&[i32]) -> Vec<i64>,
) -> String {
    linear_text_keeping(linear, |_, _| true, map)
}

/// `#ttg.linear<{...}>` of the bases of `linear` that `keep` (given the
/// input dimension's name and the basis index) accepts, each mapped by `map`.
fn linear_text_keeping(
    linear: &ttg_dialect::linear_layout::LinearLayout,
    keep: impl Fn(&str, usize) -> bool,
    map: impl Fn(&[i32]) -> Vec<i64>,
) -> String {
    linear_text_of(|name| {
        linear
            .bases(name)
            .iter()
            .enumerate()
            .filter(|&(i, _)| keep(name, i))
            .map(|(_, b)| map(b))
            .collect()
    })
}

/// `#ttg.linear<{...}>` with the bases `bases` gives for each input
/// dimension.
fn linear_text_of(bases: impl Fn(&str) -> Vec<Vec<i64>>) -> String {
    let parts: Vec<String> = ["register", "lane", "warp", "block"]
        .iter()
        .map(|name| {
            let texts: Vec<String> = bases(name)
                .iter()
                .map(|b| {
                    let coords: Vec<String> = b.iter().map(i64::to_string).collect();
                    format!("[{}]", coords.join(", "))
                })
                .collect();
            format!("{name} = [{}]", texts.join(", "))
        })
        .collect();
    format!("#ttg.linear<{{{}}}>", parts.join(", "))
}

/// `inferReshapeOpLegacyEncoding`: the blocked result layout that keeps
/// each element in its thread, when there is one.
fn legacy_reshape(src_shape: &[i64], layout: &Layout, dst_shape: &[i64]) -> Option<Blocked> {
    let (size_per_thread, threads_per_warp, warps_per_cta, order) = blocked_parts(layout)?;
    let src = Blocked {
        size_per_thread: size_per_thread.to_vec(),
        threads_per_warp: threads_per_warp.to_vec(),
        warps_per_cta: warps_per_cta.to_vec(),
        order: order.to_vec(),
    };
    if src_shape == dst_shape {
        return Some(src);
    }
    let warps: u32 = warps_per_cta.iter().product();
    let lanes: u32 = threads_per_warp.iter().product();
    if src == Blocked::default_for(src_shape, warps, lanes) {
        return Some(Blocked::default_for(dst_shape, warps, lanes));
    }
    // Every field divides the shape, or covers it.
    for field in [size_per_thread, threads_per_warp, warps_per_cta] {
        for (d, &n) in src_shape.iter().enumerate() {
            let f = i64::from(field[d]);
            if n >= f && n % f != 0 {
                return None;
            }
        }
    }
    let mut groups = reshape_decomposition(src_shape, dst_shape);
    let inv_order: Vec<usize> = inverse_permutation(order)?
        .into_iter()
        .map(|i| i as usize)
        .collect();
    // Merged source dims must be consecutive in the physical order, the
    // first the most major.
    for (src_dims, _) in &groups {
        let positions: Vec<usize> = src_dims.iter().rev().map(|&d| inv_order[d]).collect();
        if positions.windows(2).any(|w| w[1] != w[0] + 1) {
            return None;
        }
    }
    // A merged dim may be split over threads only once the more minor
    // dims are covered; a field may exceed the shape only in the most
    // major dim of a group.
    for (src_dims, _) in &groups {
        // What the finer fields left of each dim, carried from
        // sizePerThread to threadsPerWarp to warpsPerCTA.
        let mut remaining: Vec<i64> = src_dims.iter().map(|&d| src_shape[d]).collect();
        for field in [size_per_thread, threads_per_warp, warps_per_cta] {
            for i in (0..src_dims.len()).rev() {
                let f = i64::from(field[src_dims[i]]);
                if f == 1 {
                    continue;
                }
                if remaining[i + 1..].iter().any(|&r| r != 1) {
                    return None;
                }
                if remaining[i] >= f {
                    remaining[i] /= f;
                } else {
                    remaining[i] = 0;
                }
                if remaining[i] == 0 && i != 0 {
                    return None;
                }
            }
        }
    }
    // The result fields, filled greedily from the most minor dim.
    let mut dst_remaining = dst_shape.to_vec();
    let mut fill = |field: &[u32]| -> Vec<u32> {
        let mut out = vec![1u32; dst_shape.len()];
        for (src_dims, dst_dims) in &groups {
            if dst_dims.is_empty() {
                continue;
            }
            let mut left: i64 = src_dims.iter().map(|&d| i64::from(field[d])).product();
            for &d in dst_dims.iter().rev() {
                let value = left.min(dst_remaining[d]).max(1);
                out[d] = value as u32;
                left /= value;
                dst_remaining[d] /= value;
            }
            out[dst_dims[0]] *= left.max(1) as u32;
        }
        out
    };
    let dst_spt = fill(size_per_thread);
    let dst_tpw = fill(threads_per_warp);
    let dst_wpc = fill(warps_per_cta);
    // The result order: the groups in the source's physical order, major
    // to minor, each group's dims major to minor.
    groups.sort_by_key(|(src_dims, _)| src_dims.first().map_or(usize::MAX, |&d| inv_order[d]));
    let dst_order: Vec<u32> = groups
        .iter()
        .flat_map(|(_, dst_dims)| dst_dims.iter().rev().map(|&d| d as u32))
        .collect();
    Some(Blocked {
        size_per_thread: dst_spt,
        threads_per_warp: dst_tpw,
        warps_per_cta: dst_wpc,
        order: dst_order,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocked(spt: &[u32], tpw: &[u32], wpc: &[u32], order: &[u32]) -> Layout {
        Layout::blocked(spt, tpw, wpc, order)
    }

    #[test]
    fn decomposes_reshapes_as_triton() {
        assert_eq!(
            reshape_decomposition(&[4, 4, 4], &[2, 2, 8, 2]),
            vec![(vec![0], vec![0, 1]), (vec![1, 2], vec![2, 3])]
        );
        assert_eq!(
            reshape_decomposition(&[32, 32], &[32, 4, 4, 2]),
            vec![(vec![0], vec![0]), (vec![1], vec![1, 2, 3])]
        );
    }

    // combine.mlir's join_backward_slice: a slice along the joined
    // dimension of a layout that splits back into it joins into it.
    #[test]
    fn joins_a_slice_into_its_parent() {
        let parent = blocked(&[1, 32, 2], &[32, 1, 1], &[4, 1, 1], &[0, 1, 2]);
        let slice = Layout::Slice {
            dim: 2,
            parent: Some(Box::new(parent.clone())),
        };
        assert_eq!(infer_join(&slice, &[128, 32]), parent.text());
        // A parent with one register along the joined dimension does not.
        let other = blocked(&[1, 32, 1], &[16, 1, 2], &[4, 1, 1], &[0, 1, 2]);
        let slice = Layout::Slice {
            dim: 2,
            parent: Some(Box::new(other.clone())),
        };
        assert_ne!(infer_join(&slice, &[128, 32]), other.text());
    }

    // fp4_to_fp doubles and halves a blocked layout's sizePerThread along
    // the axis, fastest or not (the 3.6.0 wheel's accelerate-matmul gives
    // [2, 1] for [1, 1] in order [1, 0] along axis 0); other layouts go
    // through their linear form, and back again to the same bases.
    #[test]
    fn infers_fp4_to_fp_both_ways() {
        let packed = blocked(&[1, 4], &[4, 8], &[4, 1], &[1, 0]);
        let unpacked = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>";
        assert_eq!(
            infer_fp4_to_fp(&packed, &[64, 32], 1, true).as_deref(),
            Some(unpacked)
        );
        assert_eq!(
            infer_fp4_to_fp(
                &blocked(&[1, 8], &[4, 8], &[4, 1], &[1, 0]),
                &[64, 64],
                1,
                false
            ),
            packed.text()
        );
        let rows = blocked(&[1, 1], &[1, 32], &[1, 4], &[1, 0]);
        let doubled = "#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>";
        assert_eq!(
            infer_fp4_to_fp(&rows, &[64, 128], 0, true).as_deref(),
            Some(doubled)
        );
        let ctx = crate::context::new_context(false);
        let layout = |text: &str| {
            Layout::read(melior::ir::Attribute::parse(&ctx, text).expect("parses"))
                .expect("a layout")
        };
        assert_eq!(
            infer_fp4_to_fp(&layout(doubled), &[128, 128], 0, false),
            rows.text()
        );
        // A linear layout (blocked [1, 1], [32, 1], [2, 2], order [0, 1] of
        // 64x32), unpacked along axis 1.
        let column = layout("#ttg.linear<{register = [[0, 2], [0, 4], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [0, 1]], block = []}>");
        let forward = infer_fp4_to_fp(&column, &[64, 32], 1, true).expect("forward");
        assert!(
            forward.starts_with("#ttg.linear<{register = [[0, 1], [0, 4]"),
            "{forward}"
        );
        let back = infer_fp4_to_fp(&layout(&forward), &[64, 64], 1, false).expect("backward");
        let original = to_linear_layout(&column, &[64, 32]).expect("linear");
        let again = to_linear_layout(&layout(&back), &[64, 32]).expect("linear");
        for name in ["register", "lane", "warp", "block"] {
            assert_eq!(original.bases(name), again.bases(name), "{name}");
        }
        // Back from a layout whose first register does not step along the
        // axis: no packed layout.
        assert_eq!(infer_fp4_to_fp(&column, &[64, 64], 1, false), None);
    }

    // combine.mlir's join_forward and split_propagation, as the wheel's
    // pass gives them.
    #[test]
    fn joins_and_splits_blocked_layouts_as_triton() {
        let operand = blocked(&[1, 2], &[2, 16], &[1, 1], &[1, 0]);
        assert_eq!(
            infer_join(&operand, &[2, 16]).as_deref(),
            Some("#ttg.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [2, 16, 1], warpsPerCTA = [1, 1, 1], order = [2, 1, 0]}>")
        );
        let joined = blocked(&[1, 64, 2], &[32, 1, 1], &[4, 1, 1], &[0, 1, 2]);
        assert_eq!(
            infer_split_encoding(&joined, &[128, 64, 2]).as_deref(),
            Some("#ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>")
        );
    }

    // The layouts Triton 3.6 gave test_trans_reshape's kernel on the H100.
    #[test]
    fn infers_what_triton_inferred() {
        let load = blocked(&[1, 4], &[4, 8], &[4, 1], &[1, 0]);
        assert_eq!(
            infer_reshape(&[32, 32], &load, &[32, 4, 4, 2]).as_deref(),
            Some("#ttg.blocked<{sizePerThread = [1, 1, 2, 2], threadsPerWarp = [4, 4, 2, 1], warpsPerCTA = [4, 1, 1, 1], order = [3, 2, 1, 0]}>")
        );
        let split = blocked(&[1, 1, 2, 2], &[4, 4, 2, 1], &[4, 1, 1, 1], &[3, 2, 1, 0]);
        assert_eq!(
            infer_trans(&split, &[32, 4, 4, 2], &[1, 2, 3, 0]).as_deref(),
            Some("#ttg.blocked<{sizePerThread = [1, 2, 2, 1], threadsPerWarp = [4, 2, 1, 4], warpsPerCTA = [1, 1, 1, 4], order = [2, 1, 0, 3]}>")
        );
        let transposed = blocked(&[1, 2, 2, 1], &[4, 2, 1, 4], &[1, 1, 1, 4], &[2, 1, 0, 3]);
        assert_eq!(
            infer_reshape(&[4, 4, 2, 32], &transposed, &[1024]).as_deref(),
            Some("#ttg.linear<{register = [[32], [64], [16]], lane = [[128], [256], [512], [1], [2]], warp = [[4], [8]], block = []}>")
        );
        // Backwards (as the rematerialization asks): the operands' layouts.
        assert_eq!(
            infer_reshape(&[32, 4, 4, 2], &split, &[32, 32]).as_deref(),
            Some("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>")
        );
        assert_eq!(
            infer_trans(&transposed, &[4, 4, 2, 32], &[3, 0, 1, 2]).as_deref(),
            Some("#ttg.blocked<{sizePerThread = [1, 1, 2, 2], threadsPerWarp = [4, 4, 2, 1], warpsPerCTA = [4, 1, 1, 1], order = [3, 2, 1, 0]}>")
        );
    }
}
