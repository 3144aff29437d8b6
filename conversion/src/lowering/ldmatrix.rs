//! `ttg.local_load` of an `mma.sync` operand with `ldmatrix`
//! (`nvvm.ldmatrix`): one instruction loads a whole fragment (four 8x8
//! matrices of 16-bit elements for A's 16x16 tile; for B, four for a 16x16
//! tile where each thread holds both of its N halves, else two for its
//! 16x8 tile), each lane giving the address of one 16-byte row and
//! receiving, per matrix, the two elements the `mma.sync` fragment wants
//! of it (the `col` layout, `.trans`, where the shared layout's contiguous
//! dimension is M or N instead of K).
//!
//! It applies to 2-D views of swizzled shared layouts whose rows of eight
//! elements stay contiguous (a swizzle vector of at least 16 bytes, or no
//! swizzle), dot operands of an `nvidia_mma` v2 parent with 16-bit
//! elements and kWidth 2, whose lanes hold the instruction's fragment;
//! anything else keeps the element-wise loads.

use melior::ir::Value;
use tt_dialect::types::TensorView;
use ttg_dialect::layout::{Layout, MemDesc};

use super::{
    dot::{holds_fragment, register_index},
    memory::shared_offset,
    types, Emitter, Lowering,
};

/// The loaded registers of a `local_load` from `desc` (at `base`) into
/// the tensor type `ty`, or `None` where `ldmatrix` does not apply.
pub fn load<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    desc: &MemDesc,
    base: Value<'c, 'a>,
    ty: melior::ir::Type<'c>,
) -> Result<Option<Vec<Value<'c, 'a>>>, String> {
    let Some(Layout::DotOperand {
        op_idx,
        k_width: 2,
        parent,
    }) = TensorView::of(ty)
        .and_then(|t| t.encoding)
        .and_then(Layout::read)
    else {
        return Ok(None);
    };
    let is_mma_v2 = matches!(
        parent.as_deref(),
        Some(Layout::NvidiaMma {
            version_major: 2,
            ..
        })
    );
    let Some(Layout::SwizzledShared {
        vec,
        max_phase,
        order,
        ..
    }) = Layout::read(desc.encoding)
    else {
        return Ok(None);
    };
    let bits = types::memory_bits(desc.element);
    let dist = lw.distributed(ty)?;
    if !is_mma_v2
        || bits != 16
        || dist.rank() != 2
        || desc.shape.len() != 2
        || order.len() != 2
        || (max_phase > 1 && vec * 2 < 16)
    {
        return Ok(None);
    }
    let is_a = op_idx == 0;
    // The operand's K dimension and its other one (M of A, N of B).
    let (k_dim, outer) = if is_a { (1, 0) } else { (0, 1) };
    let contiguous = order[0] as usize;
    // Rows of eight contiguous elements, 16-byte aligned.
    if desc.shape[contiguous] % 8 != 0
        || dist.shape[k_dim] < 16
        || dist.shape[outer] < 16 / (1 + op_idx as i64)
    {
        return Ok(None);
    }
    if !holds_fragment(&dist, k_dim, outer, 2) {
        return Ok(None);
    }
    let warps: Vec<i32> = dist.layout.bases("warp").iter().map(|b| b[outer]).collect();
    if dist.layout.bases("warp").iter().any(|b| b[k_dim] != 0) {
        return Ok(None);
    }
    let transposed = contiguous == outer;
    let index = register_index(&dist);
    // Matrices per instruction: A's 16x16 tile is four (M halves fastest);
    // B takes a 16x16 tile as four (K halves fastest) where each thread
    // holds both N halves, else its 16x8 tile as two (K halves).
    let plans = if is_a { vec![4] } else { vec![4, 2] };
    let Some((matrices, plan)) = plans
        .into_iter()
        .find_map(|m| plan(&dist, &index, is_a, m, k_dim, outer).map(|p| (m, p)))
    else {
        return Ok(None);
    };
    // Lane l addresses row l % 8 of matrix l / 8: the matrix's first half
    // from lane bit 3 (A: M, B: K), its second from bit 4 (A: K, B: N);
    // the row runs along the non-contiguous dimension.
    let mut lane_outer = vec![0i32; 5];
    let mut lane_k = vec![0i32; 5];
    let along_rows: &mut Vec<i32> = if contiguous == k_dim {
        &mut lane_outer
    } else {
        &mut lane_k
    };
    along_rows[..3].copy_from_slice(&[1, 2, 4]);
    if is_a {
        lane_outer[3] = 8;
        lane_k[4] = 8;
    } else {
        lane_k[3] = 8;
        if matrices == 4 {
            lane_outer[4] = 8;
        }
    }
    let thread_outer = lw.thread_linear(emit, &lane_outer, &warps);
    let zero_warps = vec![0i32; warps.len()];
    let thread_k = lw.thread_linear(emit, &lane_k, &zero_warps);
    let element = lw.element_type(ty);
    let i32t = emit.i32_type();
    let result_type = if matrices == 1 {
        i32t
    } else {
        emit.struct_type(&vec![i32t; matrices as usize])
    };
    let attributes = [
        ("eltType", emit.attr("#nvvm.ld_st_matrix_elt_type<b16>")),
        (
            "layout",
            emit.attr(if transposed {
                "#nvvm.mma_layout<col>"
            } else {
                "#nvvm.mma_layout<row>"
            }),
        ),
        ("num", emit.attr(&format!("{matrices} : i32"))),
        ("shape", emit.attr("#nvvm.ld_st_matrix_shape<m = 8, n = 8>")),
    ];
    let mut values: Vec<Option<Value<'c, 'a>>> = vec![None; dist.len()];
    for (k0, o0, targets) in plan {
        let mut coordinates = vec![emit.i32(0); 2];
        coordinates[outer] = emit.add(thread_outer, emit.i32(o0 as i64));
        coordinates[k_dim] = emit.add(thread_k, emit.i32(k0 as i64));
        let offset = shared_offset(emit, desc, &coordinates)?;
        let address = emit.gep(base, offset, element);
        let result = emit.value("nvvm.ldmatrix", &[address], result_type, &attributes);
        let words: Vec<Value<'c, 'a>> = if matrices == 1 {
            vec![result]
        } else {
            (0..matrices as i64)
                .map(|i| emit.extract(result, i, i32t))
                .collect()
        };
        let loaded = words
            .into_iter()
            .flat_map(|w| emit.unpack_word(w, 2, element));
        for (target, v) in targets.into_iter().zip(loaded) {
            values[target] = Some(v);
        }
    }
    Ok(Some(
        dist.registers
            .iter()
            .map(|at| values[index[at]].expect("every register is covered"))
            .collect(),
    ))
}

/// Each instruction's tile origin (K, outer; at lane and warp 0) and the
/// registers its `matrices` matrices fill, in order, when every register
/// of `dist` is covered that way.
fn plan(
    dist: &super::layout::Distributed,
    index: &std::collections::HashMap<Vec<i32>, usize>,
    is_a: bool,
    matrices: i32,
    k_dim: usize,
    outer: usize,
) -> Option<Vec<(i32, i32, Vec<usize>)>> {
    let tile = if is_a || matrices == 4 {
        (16, 16)
    } else {
        (16, 8)
    };
    let mut plan = Vec::new();
    let mut covered = vec![false; dist.len()];
    for (r, at) in dist.registers.iter().enumerate() {
        let (k0, o0) = (at[k_dim], at[outer]);
        if k0 % tile.0 != 0 || o0 % tile.1 != 0 || index.get(at) != Some(&r) {
            continue;
        }
        let mut targets = Vec::with_capacity(2 * matrices as usize);
        for i in 0..matrices {
            // Lane 0's elements of matrix i: two along K.
            let (d_outer, d_k) = if is_a {
                (8 * (i % 2), 8 * (i / 2))
            } else {
                (8 * (i / 2), 8 * (i % 2))
            };
            for e in 0..2 {
                let mut c = vec![0; 2];
                c[outer] = o0 + d_outer;
                c[k_dim] = k0 + d_k + e;
                let target = *index.get(&c)?;
                covered[target] = true;
                targets.push(target);
            }
        }
        plan.push((k0, o0, targets));
    }
    dist.registers
        .iter()
        .all(|at| covered[index[at]])
        .then_some(plan)
}
