//! The layout rules of `tt` ops that depend on what their encodings mean,
//! which the `tt` verifier reaches through its extension hooks:
//!
//! - the result layouts Triton's layout inference gives the ops that move
//!   tensor dimensions around (`tt.trans`, `tt.split`, `tt.join`), as linear
//!   layouts, so that a declared result encoding can be checked against
//!   them (Triton's `inferTransOpEncoding`, `inferSplitOpEncoding` and the
//!   join check built on it, compared as `areLayoutsEquivalent` does). Two
//!   encodings agree when their linear layouts for the tensor's shape are
//!   equal. A split consumes a register bit that selects the last dimension
//!   (the two halves sit in one thread); a join is checked by splitting its
//!   result and comparing with its operand;
//! - the operand encodings of `tt.dot` (`verifyDotOpEncodingCompatibility`):
//!   dot operands of one kWidth, and NVIDIA MMA parents of one version that
//!   supports the operand types.

use melior::ir::operation::{OperationLike, OperationRef};
use melior::ir::ValueLike;
use tt_dialect::types::{self, Tensor};
use tt_dialect::verify::{int_attr, LayoutCheck, Rule};

use crate::layout::Layout;
use crate::linear_layout::{InDim, LinearLayout};
use crate::to_linear::{standard_out_dim_names, to_linear_layout};

const REGISTER: &str = "register";

/// Checks the result encoding of `tt.trans`, `tt.split` or `tt.join`
/// against the one its operand's encoding gives; [`LayoutCheck::Unknown`]
/// for other ops, tensors without encodings and encodings without a
/// linear layout here.
pub fn check_result_layout(op: OperationRef) -> LayoutCheck {
    let name = op.name();
    let name = name.as_string_ref();
    let tensor = |ty| Tensor::of(ty);
    let (Some(src), Some(dst)) = (
        op.operand(0).ok().and_then(|v| tensor(v.r#type())),
        op.result(0).ok().and_then(|v| tensor(v.r#type())),
    ) else {
        return LayoutCheck::Unknown;
    };
    let linear = |t: &Tensor| -> Option<LinearLayout> {
        let layout = Layout::read(t.encoding?)?;
        to_linear_layout(&layout, &t.shape).ok()
    };
    let (Some(src_ll), Some(dst_ll)) = (linear(&src), linear(&dst)) else {
        return LayoutCheck::Unknown;
    };
    let outcome = match name.as_str().unwrap_or("") {
        "tt.trans" => {
            let Some(order) = trans_order(op) else {
                return LayoutCheck::Unknown;
            };
            transposed(&src_ll, &order).map(|expected| expected == dst_ll)
        }
        "tt.split" => split_last(&src_ll).map(|expected| expected == dst_ll),
        "tt.join" => split_last(&dst_ll).map(|expected| expected == src_ll),
        _ => return LayoutCheck::Unknown,
    };
    match outcome {
        Ok(true) => LayoutCheck::Agrees,
        Ok(false) => LayoutCheck::Differs,
        Err(message) => LayoutCheck::Fails(message),
    }
}

/// The encoding rules of a `tt` op beyond what the `tt` verifier knows;
/// `None` for ops without any.
pub fn verify_tt_op(op: OperationRef) -> Option<Rule> {
    match op.name().as_string_ref().as_str().ok()? {
        "tt.dot" => Some(verify_dot_encodings(op)),
        _ => None,
    }
}

/// `tt.dot` operands in dot-operand encodings: one kWidth, and when the
/// parents are NVIDIA MMA layouts, all three of one version that supports
/// the element types (Triton's `supportMMA`; the Hopper-specific shape
/// rules of version 3 are left to `tritongpu-accelerate-matmul`, which
/// only picks it where they hold).
fn verify_dot_encodings(op: OperationRef) -> Rule {
    let tensor = |i| op.operand(i).ok().and_then(|v| Tensor::of(v.r#type()));
    let (Some(a), Some(b), Some(c)) = (tensor(0), tensor(1), tensor(2)) else {
        return Ok(());
    };
    let layout = |t: &Tensor| t.encoding.and_then(Layout::read);
    let (Some(a_layout), Some(b_layout)) = (layout(&a), layout(&b)) else {
        return Ok(());
    };
    let dot_operand = |l: Layout| match l {
        Layout::DotOperand {
            k_width, parent, ..
        } => Some((k_width, parent.map(|p| *p))),
        _ => None,
    };
    let (a_dot, b_dot) = (dot_operand(a_layout), dot_operand(b_layout));
    let ((a_k, a_parent), (b_k, b_parent)) = match (a_dot, b_dot) {
        (None, None) => return Ok(()),
        (Some(a), Some(b)) => (a, b),
        _ => return Err("mismatching encoding between A and B operands".into()),
    };
    if a_k != b_k {
        return Err("mismatching kWidth between A and B operands".into());
    }
    let version = |l: Option<Layout>| match l {
        Some(Layout::NvidiaMma { version_major, .. }) => Some(version_major),
        _ => None,
    };
    let versions = [version(a_parent), version(b_parent), version(layout(&c))];
    if versions.iter().all(Option::is_none) {
        return Ok(());
    }
    let [Some(va), Some(vb), Some(vc)] = versions else {
        return Err("mismatching MMA encoding".into());
    };
    if va != vb || va != vc {
        return Err("mismatched MMA version.".into());
    }
    if va != 3 && !mma_supports(op, &a, &b, va) {
        return Err("unsupported MMA version".into());
    }
    Ok(())
}

/// Whether MMA `version` (1 or 2) multiplies `a` by `b`: f32 only as tf32,
/// otherwise fp8, f16 and bf16 everywhere, f32, f64 and i8 from version 2.
fn mma_supports(op: OperationRef, a: &Tensor, b: &Tensor, version: u32) -> bool {
    const TF32: i64 = 0;
    let is_f32 = |t: &Tensor| t.element.to_string() == "f32";
    if is_f32(a) && is_f32(b) {
        return int_attr(op, "inputPrecision").unwrap_or(TF32) == TF32 && version >= 2;
    }
    let supported = |t: &Tensor| {
        let name = t.element.to_string();
        let fp8 = matches!(
            name.as_str(),
            "f8E5M2" | "f8E4M3FN" | "f8E5M2FNUZ" | "f8E4M3FNUZ"
        );
        let wide = matches!(name.as_str(), "f32" | "f64")
            || types::bit_width(t.element) == Some(8) && !types::is_float(t.element);
        fp8 || name == "f16" || name == "bf16" || (wide && version >= 2)
    };
    supported(a) && supported(b)
}

fn trans_order(op: OperationRef) -> Option<Vec<usize>> {
    tt_dialect::verify::i32_array_attr(op, "order")?
        .into_iter()
        .map(|d| usize::try_from(d).ok())
        .collect()
}

/// `layout` with output dimension `k` taken from the operand's
/// `order[k]`.
fn transposed(layout: &LinearLayout, order: &[usize]) -> Result<LinearLayout, String> {
    let outs = layout.outs();
    if order.len() != outs.len() || order.iter().any(|&d| d >= outs.len()) {
        return Err("order must be a permutation of 0..n-1".into());
    }
    let ins: Vec<InDim> = layout
        .ins()
        .iter()
        .map(|(name, bases)| {
            let bases = bases
                .iter()
                .map(|b| order.iter().map(|&d| b[d]).collect())
                .collect();
            (name.clone(), bases)
        })
        .collect();
    let names = standard_out_dim_names(order.len());
    let sizes = order.iter().map(|&d| outs[d].1);
    LinearLayout::new(ins, names.into_iter().zip(sizes).collect())
}

/// The layout of either half of a split along the last dimension (of size
/// 2): the register bit that selects the half is dropped, the dimension
/// removed. Fails when no register bit selects it, i.e. when the two
/// halves of an element pair are not in one thread.
fn split_last(layout: &LinearLayout) -> Result<LinearLayout, String> {
    let outs = layout.outs();
    let Some(axis) = outs.len().checked_sub(1) else {
        return Err("SplitOp input shape should have 2 in the last dim".into());
    };
    if outs[axis].1 != 2 {
        return Err("SplitOp input shape should have 2 in the last dim".into());
    }
    let mut found = false;
    let ins: Vec<InDim> = layout
        .ins()
        .iter()
        .map(|(name, bases)| {
            let bases = bases
                .iter()
                .filter(|b| {
                    let selects = name == REGISTER && b[axis] == 1;
                    found |= selects;
                    !selects
                })
                .map(|b| b[..axis].to_vec())
                .collect();
            (name.clone(), bases)
        })
        .collect();
    if !found {
        return Err("SplitOp requires at least 2 elements per thread in the last dimension".into());
    }
    LinearLayout::new(ins, outs[..axis].to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(ins: Vec<(&str, Vec<Vec<i32>>)>, outs: &[i32]) -> LinearLayout {
        let names = standard_out_dim_names(outs.len());
        LinearLayout::new(
            ins.into_iter().map(|(n, b)| (n.to_owned(), b)).collect(),
            names.into_iter().zip(outs.iter().copied()).collect(),
        )
        .expect("a valid layout")
    }

    #[test]
    fn split_drops_the_register_bit_of_the_last_dimension() {
        // 4x2: the pair in registers, rows over lanes.
        let joined = layout(
            vec![
                ("register", vec![vec![0, 1]]),
                ("lane", vec![vec![1, 0], vec![2, 0]]),
            ],
            &[4, 2],
        );
        let half = layout(
            vec![("register", vec![]), ("lane", vec![vec![1], vec![2]])],
            &[4],
        );
        assert_eq!(split_last(&joined), Ok(half));
    }

    #[test]
    fn split_fails_when_the_pair_spans_lanes() {
        let joined = layout(
            vec![
                ("register", vec![vec![1, 0]]),
                ("lane", vec![vec![0, 1], vec![2, 0]]),
            ],
            &[4, 2],
        );
        assert!(split_last(&joined).is_err());
    }

    #[test]
    fn transpose_permutes_the_output_dimensions() {
        let src = layout(
            vec![
                ("register", vec![vec![0, 1]]),
                ("lane", vec![vec![1, 0], vec![0, 2]]),
            ],
            &[2, 4],
        );
        let dst = layout(
            vec![
                ("register", vec![vec![1, 0]]),
                ("lane", vec![vec![0, 1], vec![2, 0]]),
            ],
            &[4, 2],
        );
        assert_eq!(transposed(&src, &[1, 0]), Ok(dst));
    }
}
