//! `ttg.local_load` of an `mma.sync` operand with `ldmatrix`: one
//! instruction loads a whole fragment (four 8x8 matrices of 16-bit
//! elements for A's 16x16 tile, two for B's 16x8), each lane giving the
//! address of one 16-byte row and receiving, per matrix, the two elements
//! the `mma.sync` fragment wants of it (`.trans` where the shared layout's
//! contiguous dimension is M or N instead of K).
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
    // Matrices per instruction: A's 16x16 tile is four (M halves fastest),
    // B's 16x8 tile two (K halves).
    let matrices: i32 = if is_a { 4 } else { 2 };
    let transposed = contiguous == outer;
    // Lane l addresses row l % 8 of matrix l / 8: the matrix's M (A) or K
    // (B) half from lane bit 3, A's K half from bit 4; the row runs along
    // the non-contiguous dimension.
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
    }
    // Each instruction's tile origin (at lane and warp 0) and the
    // registers its matrices fill, every register covered, before
    // anything is emitted.
    let index = register_index(&dist);
    let tile = if is_a { (16, 16) } else { (16, 8) };
    let mut plan: Vec<(i32, i32, Vec<usize>)> = Vec::new();
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
                (0, 8 * i)
            };
            for e in 0..2 {
                let mut c = vec![0; 2];
                c[outer] = o0 + d_outer;
                c[k_dim] = k0 + d_k + e;
                let Some(&target) = index.get(&c) else {
                    return Ok(None);
                };
                covered[target] = true;
                targets.push(target);
            }
        }
        plan.push((k0, o0, targets));
    }
    if dist.registers.iter().any(|at| !covered[index[at]]) {
        return Ok(None);
    }
    let thread_outer = lw.thread_linear(emit, &lane_outer, &warps);
    let zero_warps = vec![0i32; warps.len()];
    let thread_k = lw.thread_linear(emit, &lane_k, &zero_warps);
    let element = lw.element_type(ty);
    let i32t = emit.i32_type();
    let asm = format!(
        "ldmatrix.sync.aligned.m8n8.x{matrices}{}.shared.b16 {{{}}}, [${matrices}];",
        if transposed { ".trans" } else { "" },
        (0..matrices)
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let constraints = format!("{}r", "=r,".repeat(matrices as usize));
    let mut values: Vec<Option<Value<'c, 'a>>> = vec![None; dist.len()];
    for (k0, o0, targets) in plan {
        let mut coordinates = vec![emit.i32(0); 2];
        coordinates[outer] = emit.add(thread_outer, emit.i32(o0 as i64));
        coordinates[k_dim] = emit.add(thread_k, emit.i32(k0 as i64));
        let offset = shared_offset(emit, desc, &coordinates)?;
        let address = emit.gep(base, offset, element);
        let result = emit
            .inline_asm(
                &asm,
                &constraints,
                &[address],
                Some(emit.struct_type(&vec![i32t; matrices as usize])),
            )
            .expect("a result");
        let loaded = (0..matrices as i64)
            .flat_map(|i| emit.unpack_word(emit.extract(result, i, i32t), 2, element));
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
