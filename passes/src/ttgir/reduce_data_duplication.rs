//! `tritongpu-reduce-data-duplication`: Triton 3.6's
//! `TritonGPUReduceDataDuplication`. Every `ttg.convert_layout` from a
//! distributed tensor to a `#ttg.dot_op` layout that needs shared memory
//! (`cvtNeedsSharedMemory`: not a blocked tensor already laid out as its
//! blocked-parent operand, `isBlockedToDotShortcut`; the minimal conversion,
//! the quotient of `dst⁻¹ ∘ src` by the trivial block, warp, lane and
//! register dimensions,
//! neither only reorders registers nor is a warp shuffle with fewer than two
//! mixed register/lane transpositions) becomes a `ttg.local_alloc` of the
//! source into a `#ttg.swizzled_shared` buffer (order `getOrderForMemory`
//! of the source, vec/perPhase/maxPhase from the dot operand's parent: the
//! Ampere/Hopper formula for `nvidia_mma` v2 and v3, `1/1/1` for other
//! parents) and a `ttg.local_load` back into the dot-operand layout.
//!
//! Not supported yet, each stopping with a located error on exactly that
//! conversion: sources spread over more than one CTA (the shared encoding
//! would carry a CGA layout), `nvidia_mma` parents of other versions,
//! non-integer/float elements, layouts without a linear layout here.
//! Triton 3.6 rewrites a conversion whatever its size (checked against its
//! pass up to 512 KiB tensors).

use melior::ir::{operation::OperationRef, r#type::TypeLike, Type};
use mlir_sys::{MlirOperation, MlirType};
use tt_dialect::types::TensorView;
use ttg_dialect::layout::{dot_operand_swizzle, Layout};
use ttg_dialect::linear_layout::LinearLayout;
use ttg_dialect::to_linear::to_linear_layout;

use crate::rust_pass::{fail, Failure, PassResult, RustPass};
use crate::ttir::loop_support::ir;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUReduceDataDuplication",
    argument: "tritongpu-reduce-data-duplication",
    description: "Reduce data duplication in register by decomposing convert[distributed -> dotOperand] into convert[distributed -> shared -> dotOperand]",
    anchor: "builtin.module",
    run,
};

const FLAG: &str = "tritongpu-reduce-data-duplication";

fn run(module: OperationRef) -> PassResult {
    let m = module.to_raw();
    for cvt in ir::collect_post(m, &|op| ir::is(op, "ttg.convert_layout")) {
        rewrite(cvt)?;
    }
    Ok(())
}

fn unsupported(op: MlirOperation, what: &str) -> Failure {
    fail(
        unsafe { OperationRef::from_raw(op) },
        &format!("'{FLAG}' does not support {what} yet"),
    )
}

struct Tensor {
    shape: Vec<i64>,
    element: MlirType,
    layout: Option<Layout>,
}

fn tensor(ty: MlirType) -> Option<Tensor> {
    let view = TensorView::of(unsafe { Type::from_raw(ty) })?;
    Some(Tensor {
        shape: view.shape.to_vec(),
        element: view.element.to_raw(),
        layout: view.encoding.and_then(|e| Layout::read(e)),
    })
}

fn rewrite(cvt: MlirOperation) -> PassResult {
    let src_value = ir::operand(cvt, 0);
    let (Some(src), Some(dst)) = (
        tensor(ir::value_type(src_value)),
        tensor(ir::value_type(ir::result(cvt, 0))),
    ) else {
        return Ok(());
    };
    let (Some(src_layout), Some(dst_layout)) = (&src.layout, &dst.layout) else {
        return Ok(());
    };
    if matches!(
        src_layout,
        Layout::SwizzledShared { .. }
            | Layout::NvmmaShared { .. }
            | Layout::SharedLinear { .. }
            | Layout::PaddedShared { .. }
    ) {
        return Ok(());
    }
    let Layout::DotOperand {
        op_idx,
        k_width,
        parent,
    } = dst_layout
    else {
        return Ok(());
    };
    if is_blocked_to_dot_shortcut(src_layout, dst_layout, &src.shape) {
        return Ok(());
    }
    let src_ll = to_linear_layout(src_layout, &src.shape)
        .map_err(|e| unsupported(cvt, &format!("this source layout ({e})")))?;
    let dst_ll = to_linear_layout(dst_layout, &dst.shape)
        .map_err(|e| unsupported(cvt, &format!("this dot-operand layout ({e})")))?;
    let needs = cvt_needs_shared_memory(&src_ll, &dst_ll)
        .map_err(|e| unsupported(cvt, &format!("this conversion ({e})")))?;
    if !needs {
        return Ok(());
    }
    let bits = element_bits(src.element)
        .ok_or_else(|| unsupported(cvt, "conversions of non-integer, non-float elements"))?;
    if src_layout.ctas().unwrap_or(1) > 1 {
        return Err(unsupported(
            cvt,
            "conversions of tensors spread over several CTAs",
        ));
    }
    let order = src_ll.order_for_memory();
    let (vec, per_phase, max_phase) = match parent.as_deref() {
        Some(Layout::NvidiaMma { version_major, .. }) => {
            if !matches!(version_major, 2 | 3) {
                return Err(unsupported(
                    cvt,
                    &format!("dot operands of nvidia_mma version {version_major}"),
                ));
            }
            dot_operand_swizzle(*op_idx, *k_width, &src.shape, &order, bits, false)
        }
        Some(_) => (1, 1, 1),
        None => return Err(unsupported(cvt, "dot operands without a parent")),
    };
    let order_text: Vec<String> = order.iter().map(u32::to_string).collect();
    let shape_text: String = dst.shape.iter().map(|d| format!("{d}x")).collect();
    let element = unsafe { Type::from_raw(dst.element) };
    let text = format!(
        "!ttg.memdesc<{shape_text}{element}, #ttg.swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, order = [{}]}}>, #ttg.shared_memory>",
        order_text.join(", ")
    );
    let ctx = ir::context(cvt);
    let Some(memdesc) = ir::parse_type(ctx, &text) else {
        return Err(unsupported(cvt, &format!("the shared type {text}")));
    };
    let loc = ir::location(cvt);
    let alloc = ir::create_op(
        "ttg.local_alloc",
        loc,
        &[src_value],
        &[memdesc],
        &[],
        Vec::new(),
    );
    ir::insert_before(cvt, alloc);
    let dst_ty = ir::value_type(ir::result(cvt, 0));
    let load = ir::create_op(
        "ttg.local_load",
        loc,
        &[ir::result(alloc, 0)],
        &[dst_ty],
        &[],
        Vec::new(),
    );
    ir::insert_before(cvt, load);
    ir::replace_all_uses(ir::result(cvt, 0), ir::result(load, 0));
    ir::erase(cvt);
    Ok(())
}

/// `isBlockedToDotShortcut`: a blocked tensor whose threads each hold the
/// whole K extent, laid out like the blocked parent of its dot operand
/// along the other dimensions, is already in the operand layout (no data
/// moves; `cvtNeedsSharedMemory` is false). One CTA.
fn is_blocked_to_dot_shortcut(src: &Layout, dst: &Layout, shape: &[i64]) -> bool {
    let (
        Layout::Blocked {
            size_per_thread,
            threads_per_warp,
            warps_per_cta,
            order,
            cga,
        },
        Layout::DotOperand {
            op_idx,
            parent: Some(parent),
            ..
        },
    ) = (src, dst)
    else {
        return false;
    };
    let Layout::Blocked {
        size_per_thread: parent_spt,
        threads_per_warp: parent_tpw,
        warps_per_cta: parent_wpc,
        order: parent_order,
        cga: parent_cga,
    } = parent.as_ref()
    else {
        return false;
    };
    let rank = shape.len();
    if rank < 2 || !cga.is_empty() || !parent_cga.is_empty() {
        return false;
    }
    let (k, non_k) = if *op_idx == 0 {
        (rank - 1, rank - 2)
    } else {
        (rank - 2, rank - 1)
    };
    let same_along = |d: usize| {
        size_per_thread[d] == parent_spt[d]
            && threads_per_warp[d] == parent_tpw[d]
            && warps_per_cta[d] == parent_wpc[d]
    };
    let whole_k = i64::from(size_per_thread[k]) == shape[k];
    let matrix = whole_k && order == parent_order && same_along(non_k);
    match rank {
        2 => matrix,
        3 => matrix && same_along(0),
        _ => false,
    }
}

/// `getIntOrFloatBitWidth` of an element type.
fn element_bits(ty: MlirType) -> Option<u32> {
    if let Some(w) = ir::integer_width(ty) {
        return Some(w);
    }
    unsafe { mlir_sys::mlirTypeIsAFloat(ty).then(|| mlir_sys::mlirFloatTypeGetWidth(ty) as u32) }
}

const REGISTER: &str = "register";
const LANE: &str = "lane";

/// `minimalCvtLayout`: `dst⁻¹ ∘ src` with the common trailing input
/// dimensions quotiented out, slowest first, while that is possible.
fn minimal_cvt_layout(src: &LinearLayout, dst: &LinearLayout) -> Result<LinearLayout, String> {
    let s = src.in_dim_names();
    let d = dst.in_dim_names();
    let mut dims = Vec::new();
    for i in 0..s.len().min(d.len()) {
        let a = s[s.len() - i - 1];
        if a != d[d.len() - i - 1] {
            break;
        }
        dims.push(a.to_owned());
    }
    let mut comp = dst.invert_and_compose(src)?;
    for dim in &dims {
        match comp.quotient(&[dim.as_str()]) {
            Some(q) => comp = q,
            None => break,
        }
    }
    Ok(comp)
}

/// `cvtNeedsSharedMemory`.
fn cvt_needs_shared_memory(src: &LinearLayout, dst: &LinearLayout) -> Result<bool, String> {
    let comp = minimal_cvt_layout(src, dst)?;
    let outs = comp.out_dim_names();
    if outs.is_empty() || outs == [REGISTER] {
        return Ok(false);
    }
    if outs == [REGISTER, LANE] {
        return Ok(mixed_transpositions(src, dst)? >= 2);
    }
    Ok(true)
}

/// The number of mixed register/lane transpositions that
/// `getWarpLayoutConvertDecomposition` factors out of a warp-local
/// conversion (the selectors it also computes do not change the count).
fn mixed_transpositions(src: &LinearLayout, dst: &LinearLayout) -> Result<usize, String> {
    let src = src.remove_zero_bases_along(REGISTER);
    let dst = dst.remove_zero_bases_along(REGISTER);
    let n_reg = src
        .in_dim_size_log2(REGISTER)
        .max(dst.in_dim_size_log2(REGISTER)) as usize;
    let n_lane = src.in_dim_size_log2(LANE).max(dst.in_dim_size_log2(LANE)) as usize;
    let outs = src.out_dim_names();
    let pad = |ll: &LinearLayout| -> Result<LinearLayout, String> {
        let sub = ll.sublayout(&[REGISTER, LANE], &outs);
        let mut ins = Vec::new();
        for (dim, n) in [(REGISTER, n_reg), (LANE, n_lane)] {
            let mut bases: Vec<Vec<i32>> = sub.bases(dim).to_vec();
            bases.resize(n, vec![0; outs.len()]);
            ins.push((dim.to_owned(), bases));
        }
        LinearLayout::new(ins, sub.outs().to_vec())
    };
    let s = pad(&src)?;
    let t = pad(&dst)?;
    let comp = s.invert_and_compose(&t)?;
    let mut p: Vec<Vec<Vec<i32>>> = vec![comp.bases(REGISTER).to_vec(), comp.bases(LANE).to_vec()];
    let s_flat = s.flatten_outs()?;
    let t_flat = t.flatten_outs()?;
    let mut src_free = Vec::new();
    let mut dst_free = Vec::new();
    for (k, dim) in [REGISTER, LANE].into_iter().enumerate() {
        for (i, (sb, tb)) in s_flat.bases(dim).iter().zip(t_flat.bases(dim)).enumerate() {
            let (sv, tv) = (sb[0], tb[0]);
            if sv == 0 && tv == 0 {
                p[k][i][k] = 1 << i;
            } else if sv == 0 {
                src_free.push((k, i));
            } else if tv == 0 {
                dst_free.push((k, i));
            }
        }
    }
    for (&(sk, si), &(dk, di)) in src_free.iter().zip(&dst_free) {
        p[sk][si][dk] = 1 << di;
    }
    let sizes = [n_reg, n_lane];
    let flat = |k: usize, i: usize| if k == 0 { i } else { n_reg + i };
    let mut visited = vec![false; n_reg + n_lane];
    let mut count = 0;
    for k in 0..2 {
        for i in 0..sizes[k] {
            if visited[flat(k, i)] {
                continue;
            }
            let (mut ck, mut ci) = (k, i);
            loop {
                visited[flat(ck, ci)] = true;
                let mut next = None;
                for (nk, &v) in p[ck][ci].iter().enumerate() {
                    if v != 0 {
                        next = Some((nk, v.ilog2() as usize));
                    }
                }
                let (nk, ni) = next.ok_or("a conversion that is not a permutation")?;
                if ck == 1 && nk == 0 {
                    count += 1;
                }
                (ck, ci) = (nk, ni);
                if flat(ck, ci) == flat(k, i) {
                    break;
                }
                if visited[flat(ck, ci)] {
                    return Err("a conversion that is not a permutation".into());
                }
            }
        }
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ll(l: &Layout, shape: &[i64]) -> LinearLayout {
        to_linear_layout(l, shape).unwrap()
    }

    #[test]
    fn same_layout_needs_nothing() {
        let b = Layout::blocked(&[1, 4], &[4, 8], &[4, 1], &[1, 0]);
        let l = ll(&b, &[64, 64]);
        assert!(!cvt_needs_shared_memory(&l, &l).unwrap());
    }

    #[test]
    fn warps_moving_need_shared_memory() {
        let a = ll(
            &Layout::blocked(&[1, 4], &[4, 8], &[4, 1], &[1, 0]),
            &[64, 64],
        );
        let b = ll(
            &Layout::blocked(&[1, 4], &[4, 8], &[1, 4], &[1, 0]),
            &[64, 64],
        );
        assert!(cvt_needs_shared_memory(&a, &b).unwrap());
    }

    #[test]
    fn a_lane_register_swap_is_a_shuffle() {
        // [1,2] x [32,1] vs [2,1] x [1,32] along a 2x32 tensor... one warp.
        let a = ll(
            &Layout::blocked(&[1, 2], &[32, 1], &[1, 1], &[1, 0]),
            &[32, 2],
        );
        let b = ll(
            &Layout::blocked(&[2, 1], &[16, 2], &[1, 1], &[1, 0]),
            &[32, 2],
        );
        let comp = minimal_cvt_layout(&a, &b).unwrap();
        assert_eq!(comp.out_dim_names(), vec!["register", "lane"]);
        assert_eq!(mixed_transpositions(&a, &b).unwrap(), 1);
        assert!(!cvt_needs_shared_memory(&a, &b).unwrap());
    }
}
