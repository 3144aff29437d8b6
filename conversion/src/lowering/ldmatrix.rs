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
//! swizzle) and of NVMMA layouts (whose swizzle moves 16-byte chunks), dot
//! operands of an `nvidia_mma` v2 parent with 16-bit
//! elements and kWidth 2, whose lanes hold the instruction's fragment;
//! anything else keeps the element-wise loads.
//!
//! Stores into shared memory (`local_store`, `local_alloc` of a value) use
//! `stmatrix` (`nvvm.stmatrix`, sm_90 and later) where the register layout
//! composed with the view's offsets (a linear map, see
//! `memory::linear_offsets`) has an 8x8 matrix's shape: in the `row` form
//! each lane's 32-bit word is the next 4 bytes of a 16-byte row (the
//! word's elements, then lane bits 0 and 1, step through the row) and lane
//! bits 2 to 4 pick the row; in the `col` form (16-bit elements) lane bits
//! 2 to 4 step through the row and the word's two halves, then lane bits 0
//! and 1, pick the rows. Up to two more register bits pick the matrices of
//! one `.x2` or `.x4` instruction; the remaining register bits are
//! separate instructions at constant offsets. Lane `l` gives the address
//! of row `l % 8` of matrix `l / 8`. Registers that repeat others
//! (broadcast) are stored once; warps that repeat others store the same
//! bytes again.

use melior::ir::{Attribute, Type, Value};
use tt_dialect::types::TensorView;
use ttg_dialect::layout::{Layout, MemDesc, Nvmma};

use super::{
    dot::{holds_fragment, register_index},
    memory::{linear_offset_of, linear_offsets, SharedAddressing},
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
    // The view's contiguous dimension, where its rows of eight 16-bit
    // elements stay together: a swizzle of at least 16-byte vectors (or
    // none), or an NVMMA layout (it permutes 16-byte chunks).
    let contiguous = match Layout::read(desc.encoding) {
        Some(Layout::SwizzledShared {
            vec,
            max_phase,
            order,
            ..
        }) if order.len() == 2 && (max_phase == 1 || vec * 2 >= 16) => order[0] as usize,
        Some(Layout::NvmmaShared { .. }) => match Nvmma::of(desc) {
            Ok(layout) => layout.inner,
            Err(_) => return Ok(None),
        },
        _ => return Ok(None),
    };
    let bits = types::memory_bits(desc.element);
    let dist = lw.distributed(ty)?;
    if !is_mma_v2 || bits != 16 || dist.rank() != 2 || desc.shape.len() != 2 {
        return Ok(None);
    }
    let is_a = op_idx == 0;
    // The operand's K dimension and its other one (M of A, N of B).
    let (k_dim, outer) = if is_a { (1, 0) } else { (0, 1) };
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
    let addressing = SharedAddressing::of(desc)?;
    for (k0, o0, targets) in plan {
        let mut coordinates = vec![emit.i32(0); 2];
        coordinates[outer] = emit.add(thread_outer, emit.i32(o0 as i64));
        coordinates[k_dim] = emit.add(thread_k, emit.i32(k0 as i64));
        let offset = addressing.offset(emit, desc, &coordinates)?;
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

/// `stmatrix`/`ldmatrix` accesses of a register layout over shared
/// memory: which register bits play which part, with the offset (in
/// elements) of each.
pub struct Matrices {
    /// The `col` (transposed) form.
    transposed: bool,
    /// The register bits of a word's elements, lowest first.
    word: Vec<usize>,
    /// The register bits that pick an instruction's matrices.
    matrices: Vec<usize>,
    /// The other register bits, each with its offset.
    rest: Vec<(usize, i64)>,
    /// The offsets of the row address lane `l` gives, per bit of `l`.
    lanes: Vec<i64>,
    /// The offsets each warp bit adds.
    warps: Vec<i64>,
}

/// One instruction of a [`Matrices`] plan: its constant offset (XORed
/// into the thread's part) and, per matrix, the registers of the thread's
/// word, lowest element first.
pub struct MatrixAccess {
    pub offset: i64,
    pub words: Vec<Vec<usize>>,
}

impl Matrices {
    /// The plan for registers at `registers` (register bit, offset; bits
    /// of broadcast registers left out), lane bits at `lanes` (five) and
    /// warp bits at `warps`, for elements of `bits` (8, 16 or 32) bits:
    /// the `row` form, else (16-bit elements) the `col` form; `None` where
    /// neither applies. Register bits whose offsets have bits of `fixed`
    /// (a round's bits) never share an instruction.
    pub fn of(
        registers: &[(usize, i64)],
        lanes: &[i64],
        warps: &[i64],
        bits: u32,
        fixed: i64,
    ) -> Option<Self> {
        if lanes.len() != 5 || ![8, 16, 32].contains(&bits) {
            return None;
        }
        Self::row(registers, lanes, warps, bits, fixed).or_else(|| {
            (bits == 16)
                .then(|| Self::col(registers, lanes, warps, fixed))
                .flatten()
        })
    }

    /// How a store of the tensor type `ty` into the view `desc` maps onto
    /// `stmatrix` (sm_90 and later), or `None` where it does not (then the
    /// store is done element by element).
    pub fn for_store<'c>(
        lw: &Lowering<'c, '_>,
        desc: &MemDesc<'c>,
        ty: Type<'c>,
    ) -> Result<Option<Self>, String> {
        Self::for_view(lw, desc, ty, 90)
    }

    /// How a load of the view `desc` into the tensor type `ty` maps onto
    /// `ldmatrix` (sm_75 and later), or `None` where it does not.
    pub fn for_load<'c>(
        lw: &Lowering<'c, '_>,
        desc: &MemDesc<'c>,
        ty: Type<'c>,
    ) -> Result<Option<Self>, String> {
        Self::for_view(lw, desc, ty, 75)
    }

    /// The plan of the register layout of `ty` over the view `desc`, on a
    /// target of at least sm_`min_cc`.
    fn for_view<'c>(
        lw: &Lowering<'c, '_>,
        desc: &MemDesc<'c>,
        ty: Type<'c>,
        min_cc: u32,
    ) -> Result<Option<Self>, String> {
        let bits = types::bit_width(lw.element_type(desc.element));
        if lw.options.compute_capability < min_cc || ![8, 16, 32].contains(&bits) {
            return Ok(None);
        }
        let dist = lw.distributed(ty)?;
        if dist.shape != desc.shape {
            return Ok(None);
        }
        let Some(offsets) = linear_offsets(desc)? else {
            return Ok(None);
        };
        let image = |c: &[i32]| linear_offset_of(&offsets, c);
        let layout = &dist.layout;
        let registers: Vec<(usize, i64)> = layout
            .bases("register")
            .iter()
            .enumerate()
            .filter(|(_, b)| b.iter().any(|&x| x != 0))
            .map(|(bit, b)| (bit, image(b)))
            .collect();
        let lanes: Vec<i64> = layout.bases("lane").iter().map(|b| image(b)).collect();
        let warps: Vec<i64> = layout.bases("warp").iter().map(|b| image(b)).collect();
        Ok(Self::of(&registers, &lanes, &warps, bits, 0))
    }

    /// The `row` form: element `e` of a word at offset `e`, lane bits 0
    /// and 1 the next words of the row, lane bits 2 to 4 the rows.
    fn row(
        registers: &[(usize, i64)],
        lanes: &[i64],
        warps: &[i64],
        bits: u32,
        fixed: i64,
    ) -> Option<Self> {
        let per_word = i64::from(32 / bits);
        let mut rest = registers.to_vec();
        let mut word = Vec::new();
        let mut step = 1;
        while step < per_word {
            let at = rest.iter().position(|&(_, o)| o == step)?;
            word.push(rest.remove(at).0);
            step *= 2;
        }
        if lanes[0] != per_word || lanes[1] != 2 * per_word {
            return None;
        }
        Self::rows(
            word,
            rest,
            lanes[2..].to_vec(),
            warps,
            4 * per_word,
            fixed,
            false,
        )
    }

    /// The `col` form (16-bit elements): lane bits 2 to 4 step through a
    /// row; the word's halves (the first register bit outside `fixed`),
    /// then lane bits 0 and 1, pick the rows.
    fn col(registers: &[(usize, i64)], lanes: &[i64], warps: &[i64], fixed: i64) -> Option<Self> {
        if lanes[2..] != [1, 2, 4] {
            return None;
        }
        let mut rest = registers.to_vec();
        let at = rest.iter().position(|&(_, o)| o & fixed == 0)?;
        let (bit, offset) = rest.remove(at);
        let rows = vec![offset, lanes[0], lanes[1]];
        Self::rows(vec![bit], rest, rows, warps, 8, fixed, true)
    }

    /// Completes a plan whose rows start at the offsets in `lanes` (per
    /// bit of a lane's row index; each a multiple of `row`, the elements
    /// of 16 bytes, as every other offset must be): up to two of the
    /// `rest` register bits outside `fixed` pick the matrices.
    fn rows(
        word: Vec<usize>,
        mut rest: Vec<(usize, i64)>,
        mut lanes: Vec<i64>,
        warps: &[i64],
        row: i64,
        fixed: i64,
        transposed: bool,
    ) -> Option<Self> {
        let aligned = lanes
            .iter()
            .chain(warps)
            .chain(rest.iter().map(|(_, o)| o))
            .all(|o| o % row == 0);
        if !aligned {
            return None;
        }
        let mut matrices = Vec::new();
        while matrices.len() < 2 {
            let Some(at) = rest.iter().position(|&(_, o)| o & fixed == 0) else {
                break;
            };
            let (bit, offset) = rest.remove(at);
            matrices.push(bit);
            lanes.push(offset);
        }
        lanes.resize(5, 0);
        Some(Self {
            transposed,
            word,
            matrices,
            rest,
            lanes,
            warps: warps.to_vec(),
        })
    }

    /// Matrices per instruction (1, 2 or 4).
    pub fn count(&self) -> usize {
        1 << self.matrices.len()
    }

    /// Every instruction, in register order.
    pub fn accesses(&self) -> Vec<MatrixAccess> {
        // The register whose bits `bits` (one each per bit of `index`).
        let register = |bits: &[usize], index: usize| -> usize {
            bits.iter()
                .enumerate()
                .filter(|(k, _)| index >> k & 1 == 1)
                .fold(0, |r, (_, &bit)| r | 1 << bit)
        };
        (0..1usize << self.rest.len())
            .map(|instruction| {
                let mut first = 0;
                let mut offset = 0;
                for (k, &(bit, o)) in self.rest.iter().enumerate() {
                    if instruction >> k & 1 == 1 {
                        first |= 1 << bit;
                        offset ^= o;
                    }
                }
                let words = (0..self.count())
                    .map(|m| {
                        let start = first | register(&self.matrices, m);
                        (0..1 << self.word.len())
                            .map(|e| start | register(&self.word, e))
                            .collect()
                    })
                    .collect();
                MatrixAccess { offset, words }
            })
            .collect()
    }

    /// The thread's part of every address (its lane's row, its warp's).
    pub fn thread_part<'c, 'a>(
        &self,
        lw: &Lowering<'c, 'a>,
        emit: &Emitter<'c, 'a>,
    ) -> Value<'c, 'a> {
        lw.thread_linear(emit, &self.lanes, &self.warps)
    }

    /// The element index `part ^ offset`, an add (an immediate in the
    /// instruction) where no thread's part has a bit of `offset`.
    pub fn index<'c, 'a>(
        &self,
        emit: &Emitter<'c, 'a>,
        part: Value<'c, 'a>,
        offset: i64,
    ) -> Value<'c, 'a> {
        let spread = self.lanes.iter().chain(&self.warps).fold(0, |a, o| a | o);
        if offset == 0 {
            part
        } else if offset & spread == 0 {
            emit.add(part, emit.i32(offset))
        } else {
            emit.xor(part, emit.i32(offset))
        }
    }

    fn attributes<'c>(&self, emit: &Emitter<'c, '_>) -> Vec<(&'static str, Attribute<'c>)> {
        vec![
            ("eltType", emit.attr("#nvvm.ld_st_matrix_elt_type<b16>")),
            (
                "layout",
                emit.attr(if self.transposed {
                    "#nvvm.mma_layout<col>"
                } else {
                    "#nvvm.mma_layout<row>"
                }),
            ),
            ("shape", emit.attr("#nvvm.ld_st_matrix_shape<m = 8, n = 8>")),
        ]
    }

    /// `stmatrix` of `words` (one i32 per matrix) at `address`.
    pub fn store<'c, 'a>(
        &self,
        emit: &Emitter<'c, 'a>,
        address: Value<'c, 'a>,
        words: &[Value<'c, 'a>],
    ) {
        let mut operands = vec![address];
        operands.extend_from_slice(words);
        emit.op("nvvm.stmatrix", &operands, &[], &self.attributes(emit));
    }

    /// `ldmatrix` at `address`: one i32 per matrix.
    pub fn load<'c, 'a>(
        &self,
        emit: &Emitter<'c, 'a>,
        address: Value<'c, 'a>,
    ) -> Vec<Value<'c, 'a>> {
        let n = self.count();
        let i32t = emit.i32_type();
        let result_type = if n == 1 {
            i32t
        } else {
            emit.struct_type(&vec![i32t; n])
        };
        let mut attributes = self.attributes(emit);
        attributes.push(("num", emit.attr(&format!("{n} : i32"))));
        let result = emit.value("nvvm.ldmatrix", &[address], result_type, &attributes);
        if n == 1 {
            return vec![result];
        }
        (0..n as i64)
            .map(|i| emit.extract(result, i, i32t))
            .collect()
    }

    /// Whether this is the `col` form.
    #[cfg(test)]
    pub(super) fn is_transposed(&self) -> bool {
        self.transposed
    }

    /// Where the instructions put (or take) each register of each thread,
    /// as the hardware reads the plan for elements of `bits` bits:
    /// (register, lane, warp, offset).
    #[cfg(test)]
    pub(super) fn placements(&self, bits: u32) -> Vec<(usize, usize, usize, i64)> {
        let xor_of = |weights: &[i64], index: usize| {
            weights
                .iter()
                .enumerate()
                .filter(|(k, _)| index >> k & 1 == 1)
                .fold(0, |a, (_, &w)| a ^ w)
        };
        let mut out = Vec::new();
        for warp in 0..1usize << self.warps.len() {
            for access in self.accesses() {
                let address = |lane: usize| {
                    xor_of(&self.lanes, lane) ^ xor_of(&self.warps, warp) ^ access.offset
                };
                for lane in 0..32usize {
                    for (matrix, word) in access.words.iter().enumerate() {
                        for (e, &register) in word.iter().enumerate() {
                            let at = if self.transposed {
                                // Fragment (lane / 4, 2 * (lane % 4) + e):
                                // row 2 * (lane % 4) + e, column lane / 4.
                                address(8 * matrix + 2 * (lane % 4) + e) + (lane / 4) as i64
                            } else {
                                address(8 * matrix + lane / 4)
                                    + i64::from(32 / bits) * (lane % 4) as i64
                                    + e as i64
                            };
                            out.push((register, lane, warp, at));
                        }
                    }
                }
            }
        }
        out
    }

    /// Stores `values` (the registers, of type `element`) into the view at
    /// `base`.
    /// Loads the registers of a tensor (`count` of them) with this plan
    /// from `base`: each `ldmatrix` word split into its elements; the
    /// registers the plan leaves out (broadcast ones, `broadcast` their
    /// register bits) repeat those they copy.
    pub fn emit_load<'c, 'a>(
        &self,
        lw: &Lowering<'c, 'a>,
        emit: &Emitter<'c, 'a>,
        base: Value<'c, 'a>,
        element: Type<'c>,
        count: usize,
        broadcast: usize,
    ) -> Result<Vec<Value<'c, 'a>>, String> {
        let part = self.thread_part(lw, emit);
        let mut values: Vec<Option<Value<'c, 'a>>> = vec![None; count];
        for access in self.accesses() {
            let address = emit.gep(base, self.index(emit, part, access.offset), element);
            for (word, registers) in self.load(emit, address).into_iter().zip(&access.words) {
                let elements = emit.unpack_word(word, registers.len(), element);
                for (&r, e) in registers.iter().zip(elements) {
                    values[r] = Some(e);
                }
            }
        }
        (0..count)
            .map(|r| values[r].or(values[r & !broadcast]))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| "an ldmatrix plan leaves a register unloaded (internal error)".into())
    }

    pub fn emit_store<'c, 'a>(
        &self,
        lw: &Lowering<'c, 'a>,
        emit: &Emitter<'c, 'a>,
        base: Value<'c, 'a>,
        element: Type<'c>,
        values: &[Value<'c, 'a>],
    ) {
        let part = self.thread_part(lw, emit);
        for access in self.accesses() {
            let address = emit.gep(base, self.index(emit, part, access.offset), element);
            let words: Vec<Value> = access
                .words
                .iter()
                .map(|registers| {
                    let elements: Vec<Value> = registers.iter().map(|&r| values[r]).collect();
                    emit.pack_word(&elements, element)
                })
                .collect();
            self.store(emit, address, &words);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Matrices;

    /// The bases of a register/lane/warp layout over a row-major (or, with
    /// `column_major`, column-major) `rows` x `cols` buffer, as offsets.
    fn offsets(bases: &[[i32; 2]], rows: i64, cols: i64, column_major: bool) -> Vec<i64> {
        bases
            .iter()
            .map(|&[r, c]| {
                let (r, c) = (i64::from(r), i64::from(c));
                if column_major {
                    c * rows + r
                } else {
                    r * cols + c
                }
            })
            .collect()
    }

    /// Checks that every register of every thread lands at its offset
    /// (the XOR of its bits' offsets), each once.
    fn check(plan: &Matrices, registers: &[i64], lanes: &[i64], warps: &[i64], bits: u32) {
        let xor_of = |weights: &[i64], index: usize| {
            weights
                .iter()
                .enumerate()
                .filter(|(k, _)| index >> k & 1 == 1)
                .fold(0, |a, (_, &w)| a ^ w)
        };
        let mut seen = std::collections::HashSet::new();
        for (register, lane, warp, at) in plan.placements(bits) {
            let expected = xor_of(registers, register) ^ xor_of(lanes, lane) ^ xor_of(warps, warp);
            assert_eq!(at, expected, "register {register} lane {lane} warp {warp}");
            assert!(seen.insert((register, lane, warp)));
        }
        let registers_used = registers.iter().filter(|&&o| o != 0).count();
        assert_eq!(seen.len(), (32usize << warps.len()) << registers_used);
    }

    fn plan_and_check(
        registers: &[i64],
        lanes: &[i64],
        warps: &[i64],
        bits: u32,
        transposed: bool,
    ) {
        let nonzero: Vec<(usize, i64)> = registers
            .iter()
            .enumerate()
            .filter(|(_, &o)| o != 0)
            .map(|(b, &o)| (b, o))
            .collect();
        let plan = Matrices::of(&nonzero, lanes, warps, bits, 0).expect("stmatrix applies");
        assert_eq!(plan.transposed, transposed);
        check(&plan, registers, lanes, warps, bits);
    }

    #[test]
    fn row_stores_land_where_the_layout_says() {
        // f16, 64x32 row-major.
        plan_and_check(
            &offsets(&[[0, 1], [8, 0], [0, 8], [0, 16]], 64, 32, false),
            &offsets(&[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], 64, 32, false),
            &offsets(&[[16, 0], [32, 0]], 64, 32, false),
            16,
            false,
        );
        // f16 with broadcast registers and lanes, 32x32.
        plan_and_check(
            &offsets(&[[0, 1], [4, 0], [0, 0], [0, 16], [2, 0]], 32, 32, false),
            &offsets(&[[0, 2], [0, 4], [0, 0], [8, 0], [0, 8]], 32, 32, false),
            &offsets(&[[1, 0], [16, 0]], 32, 32, false),
            16,
            false,
        );
        // fp8 (x2), 64x16.
        plan_and_check(
            &offsets(&[[0, 1], [0, 2], [8, 0]], 64, 16, false),
            &offsets(&[[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], 64, 16, false),
            &offsets(&[[16, 0], [32, 0]], 64, 16, false),
            8,
            false,
        );
        // f32, 64x16.
        plan_and_check(
            &offsets(&[[8, 0], [0, 4], [0, 8]], 64, 16, false),
            &offsets(&[[0, 1], [0, 2], [1, 0], [2, 0], [4, 0]], 64, 16, false),
            &offsets(&[[16, 0], [32, 0]], 64, 16, false),
            32,
            false,
        );
    }

    #[test]
    fn col_stores_land_where_the_layout_says() {
        // f16, 64x32 column-major.
        plan_and_check(
            &offsets(&[[0, 1], [8, 0], [0, 8], [0, 16]], 64, 32, true),
            &offsets(&[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], 64, 32, true),
            &offsets(&[[16, 0], [32, 0]], 64, 32, true),
            16,
            true,
        );
        // With broadcast registers, lanes and warps, 16x32.
        plan_and_check(
            &offsets(&[[0, 2], [0, 8], [0, 0], [0, 16], [0, 1]], 16, 32, true),
            &offsets(&[[0, 0], [0, 4], [1, 0], [2, 0], [4, 0]], 16, 32, true),
            &offsets(&[[0, 0], [8, 0]], 16, 32, true),
            16,
            true,
        );
    }

    #[test]
    fn other_layouts_are_left_to_element_stores() {
        // Lane bits 0 and 1 along rows: no 16-byte row per eight lanes.
        let registers = offsets(&[[0, 1], [0, 2]], 32, 32, false);
        let lanes = offsets(&[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], 32, 32, false);
        let nonzero: Vec<(usize, i64)> = registers.iter().copied().enumerate().collect();
        assert!(Matrices::of(&nonzero, &lanes, &[], 16, 0).is_none());
    }
}
