//! Memory ops: global loads and stores as predicated, vectorised inline
//! PTX (as Triton emits them), shared-memory buffers (`local_alloc`,
//! `memdesc_index`, `local_load` (with `ldmatrix` for `mma.sync` operands, see
//! `ldmatrix`), `local_store`; stores of a value, by `local_store` or
//! `local_alloc`, use `stmatrix` where the layouts allow it, see `ldmatrix`)
//! and asynchronous copies from global to shared memory (`cp.async`).
//! Shared buffers are swizzled, NVMMA, padded or shared linear; a view is a
//! pointer to its first element, its elements addressed through its
//! allocation's geometry.

use melior::ir::{
    attribute::AttributeLike, operation::OperationRef, r#type::TypeLike, Type, Value, ValueLike,
};
use tt_dialect::{
    ir::{self as ttir, emit_op_diagnostic, Severity},
    types::TensorView,
};
use ttg_dialect::{
    layout::{Layout, MemDesc, Nvmma, UnswizzledNvmma},
    to_linear::{shared_to_linear_layout, standard_out_dim_names, xor_of_set_bits, Padded},
};

use super::{
    pointee_type, result, types, value_at, Access, Distributed, Emitter, LowerResult, Lowering,
};

/// The PTX register constraint and `mov` width for a word of `bits`.
pub(super) fn word_constraint(bits: u32) -> (&'static str, u32) {
    match bits {
        8 => ("c", 16),
        16 => ("h", 16),
        32 => ("r", 32),
        _ => ("l", 64),
    }
}

/// The vector width and word layout of one access: `vec` elements of
/// `elem_bits` make `words` words of `word_bits`.
struct Shape {
    elem_bits: u32,
    word_bits: u32,
    words: usize,
}

impl Shape {
    fn new(vec: usize, elem_bits: u32) -> Self {
        let total = vec as u32 * elem_bits;
        let word_bits = total.min(elem_bits.max(32));
        Shape {
            elem_bits,
            word_bits,
            words: (total / word_bits) as usize,
        }
    }

    fn per_word(&self) -> usize {
        (self.word_bits / self.elem_bits) as usize
    }
}

/// An element as the integer bits it has in memory.
fn to_bits<'c, 'a>(emit: &Emitter<'c, 'a>, v: Value<'c, 'a>, bits: u32) -> Value<'c, 'a> {
    let ty = v.r#type();
    let int = emit.int_type(bits);
    if ty == int {
        return v;
    }
    if ty.is_integer() {
        // i1 in a byte.
        return emit.value("llvm.zext", &[v], int, &[]);
    }
    if types::is_llvm_pointer(ty) {
        return emit.value("llvm.ptrtoint", &[v], int, &[]);
    }
    emit.bitcast(v, int)
}

/// The inverse of [`to_bits`].
fn from_bits<'c, 'a>(emit: &Emitter<'c, 'a>, v: Value<'c, 'a>, ty: Type<'c>) -> Value<'c, 'a> {
    if v.r#type() == ty {
        return v;
    }
    if ty.is_integer() {
        return emit.value("llvm.trunc", &[v], ty, &[]);
    }
    if types::is_llvm_pointer(ty) {
        return emit.value("llvm.inttoptr", &[v], ty, &[]);
    }
    emit.bitcast(v, ty)
}

/// Packs `elements` (each `elem_bits` wide) into one word, through a
/// vector of them as Triton does: LLVM then picks byte permutes (`prmt`)
/// for 8-bit elements instead of shifts and masks.
fn pack<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    elements: &[Value<'c, 'a>],
    shape: &Shape,
) -> Value<'c, 'a> {
    let bits: Vec<Value> = elements
        .iter()
        .map(|&e| to_bits(emit, e, shape.elem_bits))
        .collect();
    let vector = emit.vector_of(&bits, emit.int_type(shape.elem_bits));
    emit.bitcast(vector, emit.int_type(shape.word_bits))
}

/// The words of the vector of `values` that starts at element `start`.
fn words<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    values: &[Value<'c, 'a>],
    start: usize,
    shape: &Shape,
) -> Vec<Value<'c, 'a>> {
    let per = shape.per_word();
    (0..shape.words)
        .map(|k| {
            let elements: Vec<Value> = (0..per)
                .map(|j| value_at(values, start + k * per + j))
                .collect();
            pack(emit, &elements, shape)
        })
        .collect()
}

/// Unpacks a word into its elements of type `ty`.
fn unpack<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    word: Value<'c, 'a>,
    shape: &Shape,
    ty: Type<'c>,
) -> Vec<Value<'c, 'a>> {
    let n = shape.per_word();
    if n == 1 {
        return vec![from_bits(emit, word, ty)];
    }
    let element = emit.int_type(shape.elem_bits);
    let vector = emit.bitcast(word, emit.vector_type(n as u64, element));
    emit.elements_of(vector, n, element)
        .into_iter()
        .map(|bits| from_bits(emit, bits, ty))
        .collect()
}

/// The integer type of a word of `bits` (8-bit words travel in 16-bit
/// registers, `c` constraint, as an `i8` value).
fn word_type<'c>(emit: &Emitter<'c, '_>, bits: u32) -> Type<'c> {
    emit.int_type(bits)
}

/// The cache and eviction qualifiers of a global load or store, the ones
/// Triton's lowering writes: `.volatile`, `.ca`, `.cg` on loads, `.wb`,
/// `.cg`, `.cs`, `.wt` on stores (other modifiers are left out, as Triton
/// leaves them: `.ca` is no store qualifier, for one), then the L1
/// eviction priority and `.L2::cache_hint` when `policy` (an L2 eviction
/// policy, see [`l2_policy`]) goes with the access.
fn cache_suffix(op: OperationRef, store: bool, policy: bool) -> Result<String, String> {
    let get = |name| {
        ttir::inherent_attribute(op, name)
            .and_then(ttir::int_value)
            .map(|(v, _)| v)
    };
    let mut s = String::new();
    if !store && ttir::inherent_attribute(op, "isVolatile").and_then(ttir::bool_value) == Some(true)
    {
        s.push_str(".volatile");
    }
    let cache = get("cache").unwrap_or(1);
    if !(1..=7).contains(&cache) {
        return Err(format!("unknown cache modifier {cache}"));
    }
    s.push_str(match (store, cache) {
        (false, 2) => ".ca",
        (_, 3) => ".cg",
        (true, 4) => ".wb",
        (true, 5) => ".cs",
        (true, 6) => ".wt",
        _ => "",
    });
    match get("evict").unwrap_or(1) {
        1 => {}
        2 => s.push_str(".L1::evict_first"),
        3 => s.push_str(".L1::evict_last"),
        other => return Err(format!("unknown eviction policy {other}")),
    }
    if policy {
        s.push_str(".L2::cache_hint");
    }
    Ok(s)
}

/// The L2 eviction priority a load or store asks for (`evict_first` or
/// `evict_last`), which sm_80 and later take as a cache policy operand.
fn l2_eviction(lw: &Lowering, op: OperationRef) -> Option<&'static str> {
    if lw.options.compute_capability < 80 {
        return None;
    }
    match ttir::inherent_attribute(op, "evict")
        .and_then(ttir::int_value)
        .map(|(v, _)| v)
    {
        Some(2) => Some("evict_first"),
        Some(3) => Some("evict_last"),
        _ => None,
    }
}

/// A fresh 64-bit L2 cache policy that gives the lines an access touches
/// `priority` (`createpolicy.fractional`, fraction 1.0), as Triton makes
/// one for every access.
fn l2_policy<'c, 'a>(emit: &Emitter<'c, 'a>, priority: &str) -> Value<'c, 'a> {
    emit.inline_asm(
        &format!("mov.u64 $0, 0x0;\n\tcreatepolicy.fractional.L2::{priority}.b64 $0, 1.0;"),
        "=l",
        &[],
        Some(emit.int_type(64)),
    )
    .expect("one result")
}

/// The number of elements one access may cover: contiguous in the
/// thread's registers, aligned and contiguous in memory, under one mask
/// value, at most 128 bits.
pub(super) fn vector_width(
    lw: &Lowering,
    ptr: Value,
    mask: Option<Value>,
    dist: &Distributed,
    elem_bits: u32,
) -> usize {
    let dim = dist.fastest_dim();
    let mut vec = dist.contiguous_registers(dim) as u32;
    vec = vec.min(lw.axis.ptr_alignment(ptr, dim));
    if let Some(mask) = mask {
        vec = vec.min(lw.axis.mask_alignment(mask, dim));
    }
    vec = vec.min((128 / elem_bits).max(1));
    vec.max(1) as usize
}

/// Triton's remark on a global load or store (`count` names its count of
/// elements per thread in Triton's words) that moves `n` elements per
/// thread one at a time: the width the pointers alone allow and the mask's
/// alignment (-1: no mask).
#[allow(clippy::too_many_arguments)]
fn remark_unvectorised(
    lw: &Lowering,
    op: OperationRef,
    ptr: Value,
    mask: Option<Value>,
    dist: &Distributed,
    elem_bits: u32,
    n: usize,
    count: &str,
) {
    let origin = vector_width(lw, ptr, None, dist, elem_bits);
    let mask = mask.map_or(-1, |m| {
        i64::from(lw.axis.mask_alignment(m, dist.fastest_dim()))
    });
    emit_op_diagnostic(
        op,
        Severity::Remark,
        &format!(
            "Warning: vectorization fails vec = 1 origin vec = {origin} {count} = {n} mask is {mask}\n"
        ),
        &[],
    );
}

/// The predicate that keeps one copy of replicated data: registers of the
/// same element are skipped by the caller; threads that differ only in
/// lanes or warps with zero bases are masked here. `None` when no thread
/// is redundant. Scalars are stored by thread 0 only (of the cluster's
/// first CTA, with clusters: its CTAs all compute the same scalars).
pub(super) fn owner_mask<'c, 'a>(
    lw: &Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    dist: Option<&Distributed>,
) -> Option<Value<'c, 'a>> {
    let (tid, lane, warp) = lw.thread_ids();
    let Some(dist) = dist else {
        if lw.num_ctas > 1 {
            let rank = emit.special_register("cluster.ctarank");
            return Some(emit.icmp("eq", emit.or(tid, rank), emit.i32(0)));
        }
        return Some(emit.icmp("eq", tid, emit.i32(0)));
    };
    let (free_lane, free_warp) = dist.free_lane_warp_masks();
    let mut mask = None;
    for (id, free) in [(lane, free_lane), (warp, free_warp)] {
        if free == 0 {
            continue;
        }
        let bits = emit.and(id, emit.i32(free));
        let zero = emit.icmp("eq", bits, emit.i32(0));
        mask = Some(match mask {
            Some(m) => emit.and(m, zero),
            None => zero,
        });
    }
    mask
}

/// [`owner_mask`] for a write to global memory. In a cluster, of the CTAs
/// that hold the same part of the tensor (those whose ranks differ only in
/// bits without an offset, [`Distributed::block`], or beyond them) the one
/// with those bits clear writes it, as Triton predicates on the CTA's id.
pub(super) fn global_owner_mask<'c, 'a>(
    lw: &Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    dist: Option<&Distributed>,
) -> Option<Value<'c, 'a>> {
    let mask = owner_mask(lw, emit, dist);
    let Some(dist) = dist.filter(|_| lw.num_ctas > 1) else {
        return mask;
    };
    let bits = (64 - (lw.num_ctas - 1).leading_zeros()) as usize;
    let free = (0..bits)
        .filter(|&i| dist.block.get(i).is_none_or(|b| b.iter().all(|&x| x == 0)))
        .fold(0i64, |m, i| m | 1 << i);
    if free == 0 {
        return mask;
    }
    let rank = emit.special_register("cluster.ctarank");
    let first = emit.icmp("eq", emit.and(rank, emit.i32(free)), emit.i32(0));
    Some(mask.map_or(first, |m| emit.and(m, first)))
}

/// `tt.load` through a pointer or a tensor of pointers.
pub fn load<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let ptr = ttir::operand(op, 0).ok_or("missing pointer")?;
    let mask = ttir::segment(op, 1).and_then(|s| s.first().copied());
    let other = ttir::segment(op, 2).and_then(|s| s.first().copied());
    if pointee_type(ptr.r#type()).is_some_and(|t| TensorView::of(t).is_some()) {
        return Err(
            "block pointers must be rewritten first (triton-rewrite-tensor-pointer)".into(),
        );
    }
    let value_type = lw.element_type(result(op).r#type());
    let memory_type = pointee_type(ptr.r#type()).ok_or("the operand is not a pointer")?;
    let elem_bits = types::memory_bits(memory_type);
    let dist = TensorView::of(ptr.r#type())
        .map(|_| lw.distributed(ptr.r#type()))
        .transpose()?;
    let n = dist.as_ref().map_or(1, |d| d.len());
    let vec = dist
        .as_ref()
        .map_or(1, |d| vector_width(lw, ptr, mask, d, elem_bits));
    if let Some(d) = dist.as_ref().filter(|_| vec == 1 && n > 1) {
        remark_unvectorised(lw, op, ptr, mask, d, elem_bits, n, "numElems");
    }
    let shape = Shape::new(vec, elem_bits);
    let ptrs = lw.get(ptr)?;
    let masks = mask.map(|m| lw.get(m)).transpose()?;
    let others = other.map(|o| lw.get(o)).transpose()?;
    let eviction = l2_eviction(lw, op);
    let suffix = cache_suffix(op, false, eviction.is_some())?;
    let (constraint, mov_bits) = word_constraint(shape.word_bits);
    let word = word_type(emit, shape.word_bits);
    let mut values = Vec::with_capacity(n);
    for start in (0..n).step_by(vec) {
        let mut asm = String::new();
        let mut constraints: Vec<String> = Vec::new();
        let mut operands = Vec::new();
        let w = shape.words;
        let has_other = others.is_some();
        for k in 0..w {
            if has_other {
                asm.push_str(&format!("mov.u{mov_bits} ${k}, ${};\n\t", w + k));
            } else {
                asm.push_str(&format!("mov.u{mov_bits} ${k}, 0x0;\n\t"));
            }
            constraints.push(format!("={constraint}"));
        }
        if let Some(others) = &others {
            for bits in words(emit, others, start, &shape) {
                operands.push(bits);
                constraints.push(constraint.into());
            }
        }
        let address_index = operands.len() + w;
        operands.push(ptrs[start]);
        constraints.push("l".into());
        let policy = eviction.map(|priority| {
            operands.push(l2_policy(emit, priority));
            constraints.push("l".into());
            format!(", ${}", address_index + 1)
        });
        let predicate_index = address_index + 1 + usize::from(policy.is_some());
        let predicate = masks.as_ref().map(|m| value_at(m, start));
        let vector = if w > 1 {
            format!(".v{w}")
        } else {
            String::new()
        };
        let targets: Vec<String> = (0..w).map(|k| format!("${k}")).collect();
        let instruction = format!(
            "ld.global{suffix}{vector}.b{} {{ {} }}, [ ${address_index} + 0 ]{};",
            shape.word_bits,
            targets.join(", "),
            policy.unwrap_or_default()
        );
        match predicate {
            Some(p) => {
                operands.push(p);
                constraints.push("b".into());
                asm.push_str(&format!("@${predicate_index} {instruction}"));
            }
            None => asm.push_str(&instruction),
        }
        let result_type = if w == 1 {
            word
        } else {
            emit.struct_type(&vec![word; w])
        };
        let loaded = emit
            .inline_asm(&asm, &constraints.join(","), &operands, Some(result_type))
            .expect("one result");
        for k in 0..w {
            let word_value = if w == 1 {
                loaded
            } else {
                emit.extract(loaded, k as i64, word)
            };
            values.extend(unpack(emit, word_value, &shape, value_type));
        }
    }
    lw.set(result(op), values);
    Ok(())
}

/// `tt.store` through a pointer or a tensor of pointers.
pub fn store<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let ptr = ttir::operand(op, 0).ok_or("missing pointer")?;
    let value = ttir::operand(op, 1).ok_or("missing value")?;
    let mask = ttir::operand(op, 2);
    if pointee_type(ptr.r#type()).is_some_and(|t| TensorView::of(t).is_some()) {
        return Err(
            "block pointers must be rewritten first (triton-rewrite-tensor-pointer)".into(),
        );
    }
    let memory_type = pointee_type(ptr.r#type()).ok_or("the operand is not a pointer")?;
    let elem_bits = types::memory_bits(memory_type);
    let dist = TensorView::of(ptr.r#type())
        .map(|_| lw.distributed(ptr.r#type()))
        .transpose()?;
    let n = dist.as_ref().map_or(1, |d| d.len());
    let vec = dist
        .as_ref()
        .map_or(1, |d| vector_width(lw, ptr, mask, d, elem_bits));
    if let Some(d) = dist.as_ref().filter(|_| vec == 1 && n > 1) {
        remark_unvectorised(lw, op, ptr, mask, d, elem_bits, n, "elemsPerThread");
    }
    let shape = Shape::new(vec, elem_bits);
    let ptrs = lw.get(ptr)?;
    let values = lw.get(value)?;
    let masks = mask.map(|m| lw.get(m)).transpose()?;
    let owner = global_owner_mask(lw, emit, dist.as_deref());
    let eviction = l2_eviction(lw, op);
    let suffix = cache_suffix(op, true, eviction.is_some())?;
    let (constraint, _) = word_constraint(shape.word_bits);
    for start in (0..n).step_by(vec) {
        if dist
            .as_ref()
            .is_some_and(|d| d.is_duplicate_register(start))
        {
            continue;
        }
        let w = shape.words;
        let mut operands = Vec::new();
        let mut constraints = Vec::new();
        for bits in words(emit, &values, start, &shape) {
            operands.push(bits);
            constraints.push(constraint.to_owned());
        }
        operands.push(ptrs[start]);
        constraints.push("l".into());
        let policy = eviction.map(|priority| {
            operands.push(l2_policy(emit, priority));
            constraints.push("l".into());
            format!(", ${}", w + 1)
        });
        let predicate_index = w + 1 + usize::from(policy.is_some());
        let data_mask = masks.as_ref().map(|m| value_at(m, start));
        let predicate = match (data_mask, owner) {
            (Some(m), Some(o)) => emit.and(m, o),
            (Some(m), None) => m,
            (None, Some(o)) => o,
            (None, None) => emit.int(emit.int_type(1), 1),
        };
        operands.push(predicate);
        constraints.push("b".into());
        let vector = if w > 1 {
            format!(".v{w}")
        } else {
            String::new()
        };
        let sources: Vec<String> = (0..w).map(|k| format!("${k}")).collect();
        let asm = format!(
            "@${predicate_index} st.global{suffix}{vector}.b{} [ ${w} + 0 ], {{ {} }}{};",
            shape.word_bits,
            sources.join(", "),
            policy.unwrap_or_default()
        );
        emit.inline_asm(&asm, &constraints.join(","), &operands, None);
    }
    Ok(())
}

/// The extents a swizzled view is addressed through: its allocation's
/// trailing dimensions, as Triton reads a view through its buffer's
/// geometry (a slice keeps the buffer's row length and swizzle), where
/// they hold the view; else the view's own shape.
fn geometry(desc: &MemDesc) -> Vec<i64> {
    let rank = desc.shape.len();
    let alloc = &desc.alloc_shape;
    if alloc.len() >= rank {
        let trailing = &alloc[alloc.len() - rank..];
        if trailing.iter().zip(&desc.shape).all(|(&a, &s)| a >= s) {
            return trailing.to_vec();
        }
    }
    desc.shape.clone()
}

/// The strides (in elements) of a swizzled view's dimensions, `order[0]`
/// contiguous, with that order as indices, and the extent of its
/// contiguous dimension (the [`geometry`]'s).
fn swizzled_strides(desc: &MemDesc, order: &[u32]) -> Result<(Vec<usize>, Vec<i64>, i64), String> {
    let rank = desc.shape.len();
    let order: Vec<usize> = order.iter().map(|&o| o as usize).collect();
    if order.len() != rank {
        return Err("the shared layout's order does not match the view's rank".into());
    }
    let extents = geometry(desc);
    let mut strides = vec![0i64; rank];
    let mut stride = 1;
    for &d in &order {
        strides[d] = stride;
        stride *= extents[d];
    }
    let columns = extents[order[0]];
    Ok((order, strides, columns))
}

/// How a shared view's elements are addressed, its layout read once (a
/// padded layout's placement is worked out over the whole buffer, so the
/// accesses of one op do not redo it).
pub(super) enum SharedAddressing {
    Swizzled {
        vec: i64,
        per_phase: i64,
        max_phase: i64,
        order: Vec<usize>,
        strides: Vec<i64>,
        columns: i64,
    },
    Nvmma,
    Padded(Padded),
    /// A shared linear layout: per dimension, the offset of each bit of
    /// the coordinate ([`shared_linear_offsets`]).
    Linear(Vec<Vec<i64>>),
}

impl SharedAddressing {
    /// The addressing of the view `desc`.
    pub(super) fn of(desc: &MemDesc) -> Result<Self, String> {
        match Layout::read(desc.encoding) {
            Some(Layout::SwizzledShared {
                vec,
                per_phase,
                max_phase,
                order,
                ..
            }) => {
                let (order, strides, columns) = swizzled_strides(desc, &order)?;
                Ok(Self::Swizzled {
                    vec: i64::from(vec),
                    per_phase: i64::from(per_phase),
                    max_phase: i64::from(max_phase),
                    order,
                    strides,
                    columns,
                })
            }
            Some(Layout::NvmmaShared { .. }) => Ok(Self::Nvmma),
            Some(padded @ Layout::PaddedShared { .. }) => Ok(Self::Padded(Padded::of(&padded)?)),
            Some(linear @ Layout::SharedLinear { .. }) => {
                Ok(Self::Linear(shared_linear_offsets(&linear, desc)?))
            }
            _ => Err(
                "only swizzled, NVMMA, padded and shared linear layouts are supported yet".into(),
            ),
        }
    }

    /// Where element `coordinates` of the view `desc` (the one this
    /// addressing was read from) lives, in elements from the view's base.
    pub(super) fn offset<'c, 'a>(
        &self,
        emit: &Emitter<'c, 'a>,
        desc: &MemDesc,
        coordinates: &[Value<'c, 'a>],
    ) -> Result<Value<'c, 'a>, String> {
        let (vec, per_phase, max_phase, order, strides, columns) = match self {
            Self::Swizzled {
                vec,
                per_phase,
                max_phase,
                order,
                strides,
                columns,
            } => (*vec, *per_phase, *max_phase, order, strides, *columns),
            Self::Nvmma => return nvmma_offset(emit, desc, coordinates),
            Self::Padded(padded) => return Ok(padded_offset(emit, padded, coordinates)),
            Self::Linear(bases) => return Ok(xor_of_coordinate_bits(emit, bases, coordinates)),
        };
        let inner = order[0];
        let mut column = coordinates[inner];
        if max_phase > 1 && order.len() >= 2 {
            // The row's phase moves whole vectors, never past the row's
            // end: the column XOR (phase * vec) mod columns, as Triton's
            // layout.
            let row = coordinates[order[1]];
            let phase = emit.urem_by(emit.udiv_by(row, per_phase), max_phase);
            let moved = emit.urem_by(emit.mul_by(phase, vec), columns);
            column = emit.xor(column, moved);
        }
        let mut offset = column;
        for (d, &stride) in strides.iter().enumerate() {
            if d != inner {
                offset = emit.add(offset, emit.mul_by(coordinates[d], stride));
            }
        }
        Ok(offset)
    }
}

/// The offsets of a view `desc` in the shared linear layout `layout`, as
/// `[d][k]`: the offset of element `2^k` along dimension `d`, every
/// element's offset the XOR of its coordinate bits' (the inverse of the
/// layout's bases). The layout spans the view (the whole buffer, or a
/// transposed or reshaped view of it), or the view is part of the buffer
/// the layout spans (a slice, one buffer of several): then its bits are
/// the buffer's trailing dimensions' low ones, relative to the view's
/// start. In a cluster `desc` is one CTA's part ([`cta_view`]), which the
/// layout's offset bases span.
fn shared_linear_offsets(layout: &Layout, desc: &MemDesc) -> Result<Vec<Vec<i64>>, String> {
    let Layout::SharedLinear {
        offset, alignment, ..
    } = layout
    else {
        return Err("expected a shared linear layout".into());
    };
    let one_cta = Layout::SharedLinear {
        offset: offset.clone(),
        block: Vec::new(),
        alignment: *alignment,
    };
    let (spanned, linear) = match shared_to_linear_layout(&one_cta, &desc.shape) {
        Ok(linear) => (&desc.shape, linear),
        Err(_) => (
            &desc.alloc_shape,
            shared_to_linear_layout(&one_cta, &desc.alloc_shape)?,
        ),
    };
    let inverse = linear
        .invert()
        .map_err(|_| "a shared linear layout that is not one-to-one".to_owned())?;
    let rank = desc.shape.len();
    let dims = standard_out_dim_names(spanned.len());
    let trailing = &dims[spanned.len().saturating_sub(rank)..];
    if trailing.len() != rank
        || desc
            .shape
            .iter()
            .zip(&spanned[spanned.len() - rank..])
            .any(|(&s, &whole)| s <= 0 || s & (s - 1) != 0 || s > whole)
    {
        return Err(format!(
            "a {:?} view of a {:?} shared linear buffer is not supported yet",
            desc.shape, desc.alloc_shape
        ));
    }
    Ok(trailing
        .iter()
        .zip(&desc.shape)
        .map(|(d, &extent)| {
            (0..extent.trailing_zeros() as usize)
                .map(|k| i64::from(inverse.basis(d, k, ttg_dialect::to_linear_amd::OFFSET)))
                .collect()
        })
        .collect())
}

/// The XOR, over the set bits `k` of each coordinate `d`, of `bases[d][k]`.
fn xor_of_coordinate_bits<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    bases: &[Vec<i64>],
    coordinates: &[Value<'c, 'a>],
) -> Value<'c, 'a> {
    let mut offset = emit.i32(0);
    for (&c, along) in coordinates.iter().zip(bases) {
        for (k, &base) in along.iter().enumerate() {
            let bit = emit.urem_by(emit.udiv_by(c, 1 << k), 2);
            offset = emit.xor(offset, emit.mul_by(bit, base));
        }
    }
    offset
}

/// Where element `coordinates` of a padded view lives, in elements from
/// the view's base: the XOR of its coordinate bits' unpadded offsets,
/// then the padding before it.
fn padded_offset<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    padded: &Padded,
    coordinates: &[Value<'c, 'a>],
) -> Value<'c, 'a> {
    let unpadded = xor_of_coordinate_bits(emit, &padded.bases, coordinates);
    let mut offset = unpadded;
    for &(interval, padding) in &padded.pads {
        let before = emit.mul_by(emit.udiv_by(unpadded, 1 << interval), 1 << padding);
        offset = emit.add(offset, before);
    }
    offset
}

/// Where element `coordinates` of an NVMMA view lives, in elements from
/// the view's base.
fn nvmma_offset<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    desc: &MemDesc,
    coordinates: &[Value<'c, 'a>],
) -> Result<Value<'c, 'a>, String> {
    if let Some(u) = UnswizzledNvmma::of(desc) {
        let rank = coordinates.len();
        let mut within = emit.urem_by(coordinates[0], u.block[0]);
        for (&c, &b) in coordinates.iter().zip(&u.block).skip(1) {
            within = emit.add(emit.mul_by(within, b), emit.urem_by(c, b));
        }
        let mut index = emit.udiv_by(coordinates[rank - 1], u.block[rank - 1]);
        for d in (0..rank - 1).rev() {
            index = emit.add(
                emit.mul_by(index, u.shape[d] / u.block[d]),
                emit.udiv_by(coordinates[d], u.block[d]),
            );
        }
        return Ok(emit.add(emit.mul_by(index, u.block_elements()), within));
    }
    let l = Nvmma::of_elements(desc)?;
    let rank = coordinates.len();
    let (column, row) = if rank > 2 {
        // Triton folds the leading dimensions into the rows.
        let row = (1..rank - 1).fold(coordinates[0], |row, d| {
            emit.add(emit.mul_by(row, desc.shape[d]), coordinates[d])
        });
        (coordinates[rank - 1], row)
    } else {
        (coordinates[l.inner], coordinates[1 - l.inner])
    };
    let chunk = 128 / l.element_bits;
    let within = emit.urem_by(column, l.row_elements);
    let phase = emit.urem_by(emit.udiv_by(row, 128 / l.swizzle), l.swizzle / 16);
    let swizzled = emit.add(
        emit.mul_by(emit.xor(emit.udiv_by(within, chunk), phase), chunk),
        emit.urem_by(within, chunk),
    );
    let block = emit.mul_by(emit.udiv_by(column, l.row_elements), l.block_elements());
    let in_block = if l.block_rows < l.rows {
        let group = emit.mul_by(emit.udiv_by(row, l.block_rows), l.block_rows * l.columns);
        let rest = emit.urem_by(row, l.block_rows);
        emit.add(group, emit.mul_by(rest, l.row_elements))
    } else {
        emit.mul_by(row, l.row_elements)
    };
    Ok(emit.add(emit.add(block, in_block), swizzled))
}

/// A map from a view's coordinates to the offsets of its elements.
pub(super) type OffsetMap = Box<dyn Fn(&[i64]) -> i64>;

/// [`SharedAddressing::offset`] of constant coordinates, computed here: the layout
/// is read once ([`SharedAddressing::of`]), the function returned maps
/// coordinates to offsets.
pub(super) fn constant_offset(desc: &MemDesc) -> Result<OffsetMap, String> {
    Ok(match SharedAddressing::of(desc)? {
        SharedAddressing::Swizzled {
            vec,
            per_phase,
            max_phase,
            order,
            strides,
            columns,
        } => Box::new(move |c: &[i64]| {
            let inner = order[0];
            let mut column = c[inner];
            if max_phase > 1 && order.len() >= 2 {
                let phase = c[order[1]] / per_phase % max_phase;
                column ^= phase * vec % columns;
            }
            (0..order.len())
                .filter(|&d| d != inner)
                .fold(column, |acc, d| acc + c[d] * strides[d])
        }),
        SharedAddressing::Nvmma => {
            if let Some(u) = UnswizzledNvmma::of(desc) {
                return Ok(Box::new(move |c: &[i64]| u.offset(c)));
            }
            let l = Nvmma::of_elements(desc)?;
            let shape = desc.shape.clone();
            Box::new(move |c: &[i64]| {
                if shape.len() > 2 {
                    l.offset(Nvmma::row_of(&shape, c), c[shape.len() - 1])
                } else {
                    l.offset(c[1 - l.inner], c[l.inner])
                }
            })
        }
        SharedAddressing::Padded(padded) => Box::new(move |c: &[i64]| padded.offset(c)),
        SharedAddressing::Linear(bases) => {
            Box::new(move |c: &[i64]| xor_of_set_bits(&bases, c.iter().copied()))
        }
    })
}

/// The view's offsets as a linear map over the bits of its coordinates:
/// `[d][k]` is the offset of element `2^k` along dimension `d` (others 0),
/// and every element's offset is the XOR of those of its coordinates'
/// set bits (checked over the whole view). `None` where that does not
/// hold (a dimension that is no power of two, a swizzle that carries into
/// the next row) or the view has over 2^18 elements.
pub(super) fn linear_offsets(desc: &MemDesc) -> Result<Option<Vec<Vec<i64>>>, String> {
    let shape = &desc.shape;
    if shape.iter().any(|&s| s <= 0 || s & (s - 1) != 0) {
        return Ok(None);
    }
    let dim_bits: Vec<u32> = shape.iter().map(|s| s.trailing_zeros()).collect();
    let total: u32 = dim_bits.iter().sum();
    if total > 18 {
        return Ok(None);
    }
    let rank = shape.len();
    let offset_of = constant_offset(desc)?;
    let mut bases = Vec::with_capacity(rank);
    for (d, &n) in dim_bits.iter().enumerate() {
        let mut along = Vec::with_capacity(n as usize);
        for k in 0..n {
            let mut c = vec![0i64; rank];
            c[d] = 1 << k;
            along.push(offset_of(&c));
        }
        bases.push(along);
    }
    let mut c = vec![0i64; rank];
    for flat in 0..1i64 << total {
        let mut rest = flat;
        let mut expected = 0;
        for d in 0..rank {
            c[d] = rest & ((1 << dim_bits[d]) - 1);
            rest >>= dim_bits[d];
            for (k, &b) in bases[d].iter().enumerate() {
                if c[d] >> k & 1 == 1 {
                    expected ^= b;
                }
            }
        }
        if offset_of(&c) != expected {
            return Ok(None);
        }
    }
    Ok(Some(bases))
}

/// The offset of the element at coordinates `c` of a view whose offsets
/// are the linear map `offsets` ([`linear_offsets`]): the XOR of the
/// offsets of its coordinates' set bits.
pub(super) fn linear_offset_of(offsets: &[Vec<i64>], c: &[i32]) -> i64 {
    xor_of_set_bits(offsets, c.iter().map(|&x| i64::from(x)))
}

/// The shared view `desc`'s offsets as a linear map ([`linear_offsets`]),
/// where the tensor layout `dist` that accesses it has the view's shape.
fn tensor_offsets(dist: &Distributed, desc: &MemDesc) -> Result<Option<Vec<Vec<i64>>>, String> {
    if dist.shape != desc.shape {
        return Ok(None);
    }
    linear_offsets(desc)
}

/// How a tensor layout sees the offsets of a shared view it accesses: a
/// linear map of its coordinates' bits (`None` where they are not one),
/// XOR-ed with `start` (an [`XorView`]'s, else 0).
struct ViewOffsets {
    linear: Option<Vec<Vec<i64>>>,
    start: i64,
}

impl ViewOffsets {
    /// The view `desc`'s offsets as the tensor layout `dist` accessing it
    /// sees them: where `xor` says the view starts inside its buffer's
    /// swizzle pattern, that (the tensor must then have the view's shape);
    /// else the view's own ([`tensor_offsets`]) from 0.
    fn of(dist: &Distributed, desc: &MemDesc, xor: Option<XorView>) -> Result<ViewOffsets, String> {
        match xor {
            Some(view) if dist.shape == desc.shape => Ok(ViewOffsets {
                linear: Some(view.offsets),
                start: view.start,
            }),
            Some(_) => Err(XorView::REFUSAL.into()),
            None => Ok(ViewOffsets {
                linear: tensor_offsets(dist, desc)?,
                start: 0,
            }),
        }
    }
}

/// The address of the first element of each access of `vec` consecutive
/// registers of the tensor `ty` in the shared view `desc` at `base`. Where
/// the view's offsets are a linear map (`view.linear`), as Triton
/// addresses shared memory: the thread's offset (its lane and warp bits)
/// is computed once, XOR-ed with the view's start, and each access's
/// register constant joins it ([`Emitter::xor_addressing`]). Otherwise
/// each access's offset is computed from its coordinates.
fn access_addresses<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    ty: Type<'c>,
    desc: &MemDesc<'c>,
    view: &ViewOffsets,
    base: Value<'c, 'a>,
    vec: usize,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = lw.element_type(desc.element);
    let dist = lw.distributed(ty)?;
    let start = view.start;
    let Some(offsets) = view.linear.as_deref() else {
        if start != 0 {
            return Err(XorView::REFUSAL.into());
        }
        let coordinates = lw.coordinates(emit, ty)?;
        let addressing = SharedAddressing::of(desc)?;
        return coordinates
            .iter()
            .step_by(vec)
            .map(|c| Ok(emit.gep(base, addressing.offset(emit, desc, c)?, element)))
            .collect();
    };
    let image = |b: &Vec<i32>| linear_offset_of(offsets, b);
    let lanes: Vec<i64> = dist.layout.bases("lane").iter().map(image).collect();
    let warps: Vec<i64> = dist.layout.bases("warp").iter().map(image).collect();
    let reach = lanes.iter().chain(&warps).fold(start, |m, &w| m | w);
    let mut thread = lw.thread_linear(emit, &lanes, &warps);
    if start != 0 {
        thread = emit.xor(thread, emit.i32(start));
    }
    let addresses = emit.xor_addressing(base, thread, reach, element);
    Ok(dist
        .registers
        .iter()
        .step_by(vec)
        .map(|c| addresses.at(emit, linear_offset_of(offsets, c)))
        .collect())
}

/// How many consecutive registers of the tensor layout `dist` one vector
/// access of the shared view `desc` moves (a power of two, at most 16
/// bytes): the first register bits must step through consecutive offsets
/// and every other bit (the remaining registers, lanes, warps) keep the
/// group's start a multiple of the width, as Triton vectorises its shared
/// loads and stores. 1 where the view's offsets are not a linear map
/// (`view.linear`) or the element is not 8, 16, 32 or 64 bits wide. The
/// view's start is XOR-ed into every offset, so it too keeps the group's
/// start a multiple of the width.
fn shared_vector(dist: &Distributed, view: &ViewOffsets, element: Type) -> usize {
    let bits = types::bit_width(element);
    if types::float_bits(element).is_none() && tt_dialect::ir::int_width(element).is_none()
        || ![8, 16, 32, 64].contains(&bits)
    {
        return 1;
    }
    let Some(offsets) = view.linear.as_deref() else {
        return 1;
    };
    let layout = &dist.layout;
    let image = |b: &Vec<i32>| linear_offset_of(offsets, b);
    let registers: Vec<i64> = layout.bases("register").iter().map(image).collect();
    let others: Vec<i64> = ["lane", "warp", "block"]
        .iter()
        .flat_map(|name| layout.bases(name))
        .map(image)
        .collect();
    let most = (128 / bits).trailing_zeros() as usize;
    let mut k = 0;
    while k < most && k < registers.len() && registers[k] == 1 << k {
        k += 1;
    }
    while k > 0
        && registers[k..]
            .iter()
            .chain(&others)
            .chain(std::iter::once(&view.start))
            .any(|o| o & ((1 << k) - 1) != 0)
    {
        k -= 1;
    }
    1 << k
}

/// The type one shared access of `vec` elements moves, whole 32-bit words
/// where narrower elements fill some (Triton's packing), and its
/// `alignment` attribute: the access's size, which [`shared_vector`] keeps
/// its offsets a multiple of.
fn shared_access_type<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    element: Type<'c>,
    vec: usize,
) -> (Type<'c>, (&'static str, melior::ir::Attribute<'c>)) {
    let bits = types::bit_width(element) as usize;
    let total = bits * vec;
    let moved = if vec == 1 {
        element
    } else if bits < 32 && total >= 32 {
        emit.vector_type((total / 32) as u64, emit.i32_type())
    } else {
        emit.vector_type(vec as u64, element)
    };
    let alignment = emit.attr(&format!("{} : i64", total.div_ceil(8)));
    (moved, ("alignment", alignment))
}

/// `ttg.local_alloc`: the buffer at its allocated offset; an initial value
/// is stored into it.
pub fn local_alloc<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let offset = crate::allocation::offset(op)
        .ok_or("the buffer has no 'allocation.offset': run allocate-shared-memory-nv first")?;
    let pointer = lw.shared_at(emit, offset);
    let desc_value = result(op);
    lw.set(desc_value, vec![pointer]);
    if let Some(src) = ttir::operand(op, 0) {
        store_shared(lw, emit, src, desc_value, pointer, None)?;
    }
    Ok(())
}

/// The part of the shared view of type `ty` that this CTA holds (the
/// whole view unless the CTAs of a cluster split it, [`MemDesc::per_cta`]),
/// checked to be where the tensor layout `dist` accessing it puts the
/// CTA's part of the tensor (`parts`: per bit of the CTA's id, the
/// tensor coordinates each operand dimension reads): each CTA reads and
/// writes its own shared memory.
pub(super) fn cta_view<'c>(
    ty: Type<'c>,
    parts: Option<&[Vec<i32>]>,
) -> Result<MemDesc<'c>, String> {
    let desc = MemDesc::of(ty).ok_or("expected a shared-memory descriptor")?;
    let (local, offsets) = desc.per_cta()?;
    if let Some(parts) = parts {
        let zero = vec![0i64; desc.shape.len()];
        let widen = |b: &Vec<i32>| b.iter().map(|&x| i64::from(x)).collect::<Vec<i64>>();
        let alike = (0..parts.len().max(offsets.len()))
            .all(|i| parts.get(i).map_or(zero.clone(), widen) == *offsets.get(i).unwrap_or(&zero));
        if !alike {
            return Err(
                "a shared buffer and a tensor split differently across the CTAs of a cluster are not supported yet"
                    .into(),
            );
        }
    }
    Ok(local)
}

/// Stores the tensor `src` into the shared view `desc`, at `base` (its
/// buffer's base where `xor` says the view starts inside the buffer's
/// swizzle pattern).
fn store_shared<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    src: Value<'c, 'a>,
    desc_value: Value<'c, 'a>,
    base: Value<'c, 'a>,
    xor: Option<XorView>,
) -> LowerResult {
    let dist = lw.distributed(src.r#type())?;
    let desc = cta_view(desc_value.r#type(), Some(&dist.block))?;
    let element = lw.element_type(desc.element);
    let values = lw.get(src)?;
    let span = lw.buffer_span(desc_value);
    if xor.is_none() {
        if let Some(plan) = super::ldmatrix::Matrices::for_store(lw, &desc, src.r#type())? {
            lw.shared_access(emit, Access::Write(span));
            plan.emit_store(lw, emit, base, element, &values);
            return Ok(());
        }
    }
    let view = ViewOffsets::of(&dist, &desc, xor)?;
    let vec = shared_vector(&dist, &view, element);
    let addresses = access_addresses(lw, emit, src.r#type(), &desc, &view, base, vec)?;
    lw.shared_access(emit, Access::Write(span));
    let (moved, alignment) = shared_access_type(emit, element, vec);
    for (group, address) in values.chunks(vec).zip(addresses) {
        let value = emit.bitcast(emit.vector_of(group, element), moved);
        emit.op("llvm.store", &[value, address], &[], &[alignment]);
    }
    Ok(())
}

/// `ttg.local_store`.
pub fn local_store<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let src = ttir::operand(op, 0).ok_or("missing value")?;
    let dst = ttir::operand(op, 1).ok_or("missing buffer")?;
    let (base, xor) = lw.shared_view(dst)?;
    store_shared(lw, emit, src, dst, base, xor)
}

/// A view op's source buffer and the memory descriptors it maps between.
fn view_types<'c, 'a>(
    op: OperationRef<'c, 'a>,
) -> Result<(Value<'c, 'a>, MemDesc<'c>, MemDesc<'c>), String> {
    let src = ttir::operand(op, 0).ok_or("missing buffer")?;
    let from = MemDesc::of(src.r#type()).ok_or("expected a memory descriptor")?;
    let to = MemDesc::of(result(op).r#type()).ok_or("expected a memory descriptor")?;
    Ok((src, from, to))
}

/// Whether every element of `from` sits where the view `to` (its
/// dimensions permuted by `order`: result dimension `d` is source
/// dimension `order[d]`) places it, checked element by element (up to
/// 2^18 of them).
fn permuted_in_place(from: &MemDesc, to: &MemDesc, order: &[i32]) -> Result<bool, String> {
    let rank = from.shape.len();
    if order.len() != rank || to.shape.len() != rank {
        return Ok(false);
    }
    let (source, result) = (constant_offset(from)?, constant_offset(to)?);
    let mut permuted = vec![0i64; rank];
    Ok(every_element(&from.shape, |c| {
        for (d, &o) in order.iter().enumerate() {
            permuted[d] = c[o as usize];
        }
        source(c) == result(&permuted)
    }))
}

/// Whether `holds` is true of every element of `shape` (its coordinates,
/// in row-major order); false for shapes of over 2^18 elements, which are
/// not checked.
fn every_element(shape: &[i64], mut holds: impl FnMut(&[i64]) -> bool) -> bool {
    let total: i64 = shape.iter().product();
    if total > 1 << 18 {
        return false;
    }
    let mut c = vec![0i64; shape.len()];
    (0..total).all(|flat| {
        let mut rest = flat;
        for d in (0..c.len()).rev() {
            c[d] = rest % shape[d];
            rest /= shape[d];
        }
        holds(&c)
    })
}

/// `ttg.memdesc_trans`: the same bytes seen with permuted dimensions, so
/// the same base; checked to be the layout that describes them (NVMMA:
/// `transposed` flipped; swizzled: the order permuted with the shape;
/// padded and shared linear: every element where the result places it,
/// [`permuted_in_place`]).
pub fn memdesc_trans<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    _emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let (src, from, to) = view_types(op)?;
    let order = ttir::inherent_attribute(op, "order")
        .and_then(|a| tt_passes::ttir::loop_support::ir::dense_i32_array(a.to_raw()))
        .ok_or("missing order")?;
    let same_bytes = match (Layout::read(from.encoding), Layout::read(to.encoding)) {
        (
            Some(Layout::NvmmaShared {
                swizzling_byte_width: s1,
                transposed: t1,
                element_bit_width: e1,
                fp4_padded: false,
                ..
            }),
            Some(Layout::NvmmaShared {
                swizzling_byte_width: s2,
                transposed: t2,
                element_bit_width: e2,
                fp4_padded: false,
                ..
            }),
        ) => order == [1, 0] && s1 == s2 && e1 == e2 && t1 != t2,
        (
            Some(Layout::SwizzledShared {
                vec: v1,
                per_phase: p1,
                max_phase: m1,
                order: o1,
                ..
            }),
            Some(Layout::SwizzledShared {
                vec: v2,
                per_phase: p2,
                max_phase: m2,
                order: o2,
                ..
            }),
        ) => {
            // Source dimension `order[d]` is result dimension `d`.
            let inverse: Vec<u32> = o1
                .iter()
                .filter_map(|&s| order.iter().position(|&o| o as u32 == s).map(|d| d as u32))
                .collect();
            (v1, p1, m1) == (v2, p2, m2) && inverse == o2
        }
        (Some(Layout::PaddedShared { .. }), Some(Layout::PaddedShared { .. }))
        | (Some(Layout::SharedLinear { .. }), Some(Layout::SharedLinear { .. })) => {
            permuted_in_place(&from, &to, &order)?
        }
        _ => false,
    };
    if !same_bytes {
        return Err("'ttg.memdesc_trans' between these layouts is not supported yet".into());
    }
    let (base, inside) = lw.shared_view(src)?;
    match inside {
        Some(view) => {
            let permuted = view
                .permuted(&order)
                .ok_or("'ttg.memdesc_trans' with a bad order")?;
            lw.set_xor_view(result(op), base, permuted);
        }
        None => lw.set(result(op), vec![base]),
    }
    Ok(())
}

/// `ttg.memdesc_reshape`: the same bytes seen with another shape, so the
/// same base, where the two layouts place every element at the same byte:
/// non-transposed NVMMA layouts of one swizzle and element width over the
/// same contiguous (last) dimension, which fold every leading dimension
/// into rows in row-major order, of a view that is a whole allocation (or
/// one slice of a pipelined one). Other reshapes are refused.
pub fn memdesc_reshape<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    _emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let (src, from, to) = view_types(op)?;
    // A rank-1 buffer is "transposed" by Triton's rule, to the same bytes.
    let nvmma = |d: &MemDesc| match Layout::read(d.encoding) {
        Some(Layout::NvmmaShared {
            swizzling_byte_width,
            transposed,
            element_bit_width,
            fp4_padded: false,
            cga,
            ..
        }) if cga.is_empty() && (!transposed || d.shape.len() == 1) => {
            Some((swizzling_byte_width, element_bit_width))
        }
        _ => None,
    };
    let same_bytes = nvmma(&from).is_some()
        && nvmma(&from) == nvmma(&to)
        && from.shape.last() == to.shape.last()
        && from.shape.iter().product::<i64>() == to.shape.iter().product::<i64>()
        && from.is_whole_allocation();
    if !same_bytes {
        return Err("'ttg.memdesc_reshape' between these layouts is not supported yet".into());
    }
    let base = lw.scalar(src)?;
    lw.set(result(op), vec![base]);
    Ok(())
}

/// A `ttg.memdesc_subslice` view that starts inside its buffer's swizzle
/// pattern (32 columns of a buffer whose swizzle spans 64): its elements
/// are not its start plus their offsets, as in a buffer of its own, but
/// its start XOR-ed with them. Where the buffer's offsets are a linear
/// map of its coordinates' bits ([`linear_offsets`]) and the view's origin
/// is a multiple of its power-of-two shape (so that `origin + c` is
/// `origin ^ c` for every coordinate `c` of the view), the element at `c`
/// is at `start ^ offsets(c)`: `start` the origin's offset and `offsets`
/// the buffer's own for the view's coordinate bits. The view's value is
/// its buffer's base; `ttg.local_load`, `ttg.local_store` and
/// `ttg.async_copy_global_to_local` address it so, `ttg.memdesc_subslice`
/// and `ttg.memdesc_trans` make views of it, and every other op refuses
/// it.
#[derive(Clone, Debug, PartialEq)]
pub struct XorView {
    /// Per dimension, the offset (in elements) of each coordinate bit of
    /// the view.
    offsets: Vec<Vec<i64>>,
    /// The origin's offset from the buffer's base, in elements.
    start: i64,
}

impl XorView {
    /// Why an op other than those above cannot take such a view.
    pub const REFUSAL: &'static str = "a 'ttg.memdesc_subslice' view that starts inside its buffer's swizzle pattern is only read and written by ttg.local_load, ttg.local_store and ttg.async_copy_global_to_local, whole, and viewed by ttg.memdesc_subslice and ttg.memdesc_trans yet";

    /// The view of shape `shape` at `origin` of a buffer (or view) whose
    /// offsets are the linear map `bases` from `start`; `None` where the
    /// view's shape is not a power of two, the origin is not a multiple
    /// of it, or the view does not lie within the buffer.
    fn within(bases: &[Vec<i64>], start: i64, shape: &[i64], origin: &[i64]) -> Option<XorView> {
        if origin.len() != shape.len() || bases.len() != shape.len() {
            return None;
        }
        let mut offsets = Vec::with_capacity(shape.len());
        for ((along, &n), &o) in bases.iter().zip(shape).zip(origin) {
            let extent = 1i64.checked_shl(along.len() as u32)?;
            if n <= 0 || n & (n - 1) != 0 || o < 0 || o % n != 0 || o + n > extent {
                return None;
            }
            offsets.push(along[..n.trailing_zeros() as usize].to_vec());
        }
        Some(XorView {
            offsets,
            start: start ^ xor_of_set_bits(bases, origin.iter().copied()),
        })
    }

    /// The same view with its dimensions permuted, as `ttg.memdesc_trans`
    /// relabels them: dimension `d` is this view's `order[d]`.
    fn permuted(&self, order: &[i32]) -> Option<XorView> {
        let offsets = order
            .iter()
            .map(|&d| self.offsets.get(usize::try_from(d).ok()?).cloned())
            .collect::<Option<Vec<_>>>()?;
        (offsets.len() == self.offsets.len()).then_some(XorView {
            offsets,
            start: self.start,
        })
    }

    /// The view `to` at `origin` of the buffer `from` (a single CTA's,
    /// with offsets that are a linear map), checked element by element
    /// against `from`'s addressing.
    fn of(from: &MemDesc, to: &MemDesc, origin: &[i64]) -> Result<Option<XorView>, String> {
        if from.per_cta()?.0.shape != from.shape {
            return Ok(None);
        }
        let Some(bases) = linear_offsets(from)? else {
            return Ok(None);
        };
        let Some(view) = XorView::within(&bases, 0, &to.shape, origin) else {
            return Ok(None);
        };
        let parent = constant_offset(from)?;
        let fits = view_fits(&parent, &to.shape, origin, |c| {
            view.start ^ xor_of_set_bits(&view.offsets, c.iter().copied())
        });
        Ok(fits.then_some(view))
    }
}

/// Where the view `to` of `from` starting at `origin` begins, in elements
/// from `from`'s base, when every element of the view sits at that start
/// plus its offset in the view's own addressing (checked element by
/// element over the view, up to 2^18 of them): then the view is a buffer
/// of its own at that address (read through its allocation's rows,
/// [`geometry`]). `None` otherwise (a slice that starts inside a swizzle
/// pattern).
fn subslice_start(from: &MemDesc, to: &MemDesc, origin: &[i64]) -> Result<Option<i64>, String> {
    if origin.len() != to.shape.len() {
        return Ok(None);
    }
    let parent = constant_offset(from)?;
    let view = constant_offset(to)?;
    let start = parent(origin);
    let fits = view_fits(&parent, &to.shape, origin, |c| start + view(c));
    Ok(fits.then_some(start))
}

/// Whether every element of the view of shape `shape` at `origin` of the
/// buffer addressed by `parent` sits where `expected` puts it (given its
/// coordinates in the view), checked element by element
/// ([`every_element`]).
fn view_fits(
    parent: &OffsetMap,
    shape: &[i64],
    origin: &[i64],
    expected: impl Fn(&[i64]) -> i64,
) -> bool {
    let mut at = vec![0i64; origin.len()];
    every_element(shape, |c| {
        for (a, (&x, &o)) in at.iter_mut().zip(c.iter().zip(origin)) {
            *a = x + o;
        }
        parent(&at) == expected(c)
    })
}

/// `ttg.memdesc_subslice`. Read only by wgmma, of an NVMMA buffer: the
/// view's first element's address before swizzling, which is what a
/// matrix descriptor starts from (the hardware swizzles by address, so a
/// start inside a swizzle row or some 8-row groups on reads what the
/// parent holds there); the wgmma lowering takes the parent's layout from
/// the view's allocation shape; origins off a 16-byte boundary or an
/// 8-row group are refused. Read or written otherwise (whose accesses
/// this lowering computes from the view's own addressing): the view's
/// start, where the view is a buffer of its own there
/// ([`subslice_start`]: a block of whole swizzle patterns); else, where it
/// starts inside a swizzle pattern of a buffer whose offsets are a linear
/// map, its buffer's base with the start recorded as an [`XorView`] (which
/// says which ops take it); other views are refused.
pub fn memdesc_subslice<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let refused = |why: &str| Err(format!("'ttg.memdesc_subslice' {why} is not supported yet"));
    let view = result(op);
    let only_wgmma = ttir::users(view).into_iter().all(|user| {
        ["ttng.warp_group_dot", "ttng.warp_group_dot_wait"]
            .iter()
            .any(|n| ttir::is_op(user, n))
    });
    let (src, from, to) = view_types(op)?;
    let offsets = tt_dialect::verify::i32_array_attr(op, "offsets")
        .ok_or("the offsets attribute is missing")?;
    if !only_wgmma {
        let origin: Vec<i64> = offsets.iter().map(|&o| i64::from(o)).collect();
        let (base, inside) = lw.shared_view(src)?;
        if let Some(parent) = inside {
            // A view of a view inside a swizzle pattern: the same buffer,
            // from further in.
            let Some(narrowed) = XorView::within(&parent.offsets, parent.start, &to.shape, &origin)
            else {
                return Err(XorView::REFUSAL.into());
            };
            lw.set_xor_view(view, base, narrowed);
            return Ok(());
        }
        if let Some(start) = subslice_start(&from, &to, &origin)? {
            let element = lw.element_type(to.element);
            lw.set(view, vec![emit.gep(base, emit.i32(start), element)]);
            return Ok(());
        }
        let Some(inside) = XorView::of(&from, &to, &origin)? else {
            return refused(
                "read other than by wgmma, whose elements are neither laid out as a buffer of its own nor a linear map of its buffer's",
            );
        };
        lw.set_xor_view(view, base, inside);
        return Ok(());
    }
    let Ok(layout) = Nvmma::of(&to) else {
        return refused("of a layout other than a 2-D swizzled NVMMA one");
    };
    let [first, second] = offsets[..] else {
        return refused("of other than two dimensions");
    };
    let (row, column) = if layout.inner == 0 {
        (i64::from(second), i64::from(first))
    } else {
        (i64::from(first), i64::from(second))
    };
    let bytes = layout.unswizzled(row, column) * layout.element_bits / 8;
    if row % 8 != 0 || bytes % 16 != 0 {
        return refused("starting off a 16-byte boundary or an 8-row group");
    }
    let start = emit.byte_offset(lw.scalar(src)?, bytes);
    lw.set(view, vec![start]);
    Ok(())
}

/// `ttg.memdesc_reinterpret`: the view's bytes seen with another shape,
/// element type and layout. A shared-memory view is its first byte's
/// address (views here always start at a slice boundary), so that address
/// carries over.
pub fn memdesc_reinterpret<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    _emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let src = ttir::operand(op, 0).ok_or("missing buffer")?;
    let from = MemDesc::of(src.r#type()).ok_or("expected a memory descriptor")?;
    if ttg_dialect::layout::memory_space(from.memory_space)
        != Some(ttg_dialect::layout::MemorySpace::Shared)
    {
        return Err("'ttg.memdesc_reinterpret' outside shared memory is not supported yet".into());
    }
    let base = lw.scalar(src)?;
    lw.set(result(op), vec![base]);
    Ok(())
}

/// `ttg.memdesc_index`: the `index`-th slice along the first dimension.
pub fn memdesc_index<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let src = ttir::operand(op, 0).ok_or("missing buffer")?;
    let index = lw.scalar(ttir::operand(op, 1).ok_or("missing index")?)?;
    let view = MemDesc::of(result(op).r#type()).ok_or("expected a memory descriptor")?;
    let element = lw.element_type(view.element);
    let slice: i64 = view.shape.iter().product();
    let base = lw.scalar(src)?;
    let offset = emit.mul(index, emit.i32(slice));
    let pointer = emit.gep(base, offset, element);
    lw.set(result(op), vec![pointer]);
    Ok(())
}

/// `ttg.local_load`: every element this thread holds, from shared memory.
pub fn local_load<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let src = ttir::operand(op, 0).ok_or("missing buffer")?;
    let ty = result(op).r#type();
    let dist = lw.distributed(ty)?;
    let desc = cta_view(src.r#type(), Some(&dist.block))?;
    let (base, xor) = lw.shared_view(src)?;
    let element = lw.element_type(ty);
    let span = lw.buffer_span(src);
    lw.shared_access(emit, Access::Read(span));
    if xor.is_some() {
        // Read through the buffer's addressing below.
    } else if let Some(values) = super::ldmatrix::load(lw, emit, &desc, base, ty)? {
        lw.set(result(op), values);
        return Ok(());
    } else if let Some(plan) = super::ldmatrix::Matrices::for_load(lw, &desc, ty)? {
        let broadcast = dist
            .layout
            .bases("register")
            .iter()
            .enumerate()
            .filter(|(_, b)| b.iter().all(|&x| x == 0))
            .fold(0usize, |mask, (bit, _)| mask | 1 << bit);
        let values = plan.emit_load(lw, emit, base, element, dist.len(), broadcast)?;
        lw.set(result(op), values);
        return Ok(());
    }
    let view = ViewOffsets::of(&dist, &desc, xor)?;
    let vec = shared_vector(&dist, &view, element);
    let addresses = access_addresses(lw, emit, ty, &desc, &view, base, vec)?;
    let (moved, alignment) = shared_access_type(emit, element, vec);
    let elements = if vec == 1 {
        element
    } else {
        emit.vector_type(vec as u64, element)
    };
    let mut values = Vec::with_capacity(addresses.len() * vec);
    for address in addresses {
        let value = emit.value("llvm.load", &[address], moved, &[alignment]);
        values.extend(emit.elements_of(emit.bitcast(value, elements), vec, element));
    }
    lw.set(result(op), values);
    Ok(())
}

/// `ttg.async_copy_global_to_local`: one `cp.async` per element (or per
/// vector), with a source size of 0 where the mask is off (the pipeliner
/// reselects masked elements after the wait, so `other` is not needed).
pub fn async_copy<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let src = ttir::operand(op, 0).ok_or("missing pointers")?;
    let dst = ttir::operand(op, 1).ok_or("missing buffer")?;
    let mask = ttir::segment(op, 2).and_then(|s| s.first().copied());
    let desc = MemDesc::of(dst.r#type()).ok_or("expected a memory descriptor")?;
    let elem_bytes = types::memory_bits(desc.element) / 8;
    let dist = lw.distributed(src.r#type())?;
    let (base, xor) = lw.shared_view(dst)?;
    let view = ViewOffsets::of(&dist, &desc, xor)?;
    let ptrs = lw.get(src)?;
    let masks = mask.map(|m| lw.get(m)).transpose()?;
    let mut vec =
        vector_width(lw, src, mask, &dist, elem_bytes * 8).min((16 / elem_bytes) as usize);
    // The pipeliner's `contiguity` (what the axis analysis knew of the load
    // it replaced) may raise the width, as in Triton, up to what the
    // layout keeps contiguous in registers.
    if let Some(hint) = ttir::inherent_attribute(op, "contiguity").and_then(ttir::int_value) {
        let registers = dist.contiguous_registers(dist.fastest_dim());
        let hinted = (hint.0.max(1) as usize)
            .min(registers)
            .min((16 / elem_bytes) as usize);
        vec = vec.max(hinted);
    }
    match Layout::read(desc.encoding) {
        Some(Layout::SwizzledShared {
            vec: v,
            max_phase,
            order,
            ..
        }) => {
            let inner_is_fastest = order
                .first()
                .is_some_and(|&o| o as usize == dist.fastest_dim());
            // A rank-1 buffer has no rows to swizzle by: its elements stay
            // in order.
            if !inner_is_fastest {
                vec = 1;
            } else if max_phase > 1 && order.len() > 1 {
                vec = vec.min(v.max(1) as usize);
            }
        }
        // Swizzling moves whole 16-byte chunks: a copy within one stays
        // contiguous.
        Some(Layout::NvmmaShared { .. }) => {
            let rank = desc.shape.len();
            let contiguous = match UnswizzledNvmma::of(&desc) {
                // A block's rows are consecutive elements.
                Some(u) => {
                    vec = vec.min(u.block[rank - 1].max(1) as usize);
                    rank - 1
                }
                None => Nvmma::of_elements(&desc)?.contiguous_dim(rank),
            };
            vec = if contiguous == dist.fastest_dim() {
                vec
            } else {
                1
            };
        }
        _ => {}
    }
    // A view that starts inside a swizzle pattern keeps a copy's elements
    // together only where its start is a multiple of the copy.
    while vec > 1 && view.start % vec as i64 != 0 {
        vec /= 2;
    }
    let bytes = vec as u32 * elem_bytes;
    if ![4, 8, 16].contains(&bytes) {
        return Err(format!(
            "copies of {bytes} bytes per cp.async (it copies 4, 8 or 16) are not supported yet"
        ));
    }
    let span = lw.buffer_span(dst);
    lw.shared_access(emit, Access::Write(span));
    let cache = if bytes == 16 { "cg" } else { "ca" };
    let addresses = access_addresses(lw, emit, src.r#type(), &desc, &view, base, vec)?;
    for (start, address) in (0..dist.len()).step_by(vec).zip(addresses) {
        // A masked-off copy reads no byte and zero-fills (source size 0);
        // without a mask the source size is the immediate copy size.
        let mut operands = vec![address, ptrs[start]];
        let source_size = match &masks {
            Some(m) => {
                let m = value_at(m, start);
                operands.push(emit.select(m, emit.i32(bytes as i64), emit.i32(0)));
                "$2".to_owned()
            }
            None => format!("0x{bytes:x}"),
        };
        let constraints = if masks.is_some() { "r,l,r" } else { "r,l" };
        emit.inline_asm(
            &format!(
                "cp.async.{cache}.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x{bytes:x}, {source_size};"
            ),
            constraints,
            &operands,
            None,
        );
    }
    let token = emit.i32(0);
    lw.set(result(op), vec![token]);
    Ok(())
}

/// `ttg.async_commit_group`.
pub fn async_commit_group<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    emit.op("nvvm.cp.async.commit.group", &[], &[], &[]);
    lw.set(result(op), vec![emit.i32(0)]);
    Ok(())
}

/// `ttg.async_wait {num}`: wait until at most `num` groups are pending,
/// then a barrier so every thread sees every thread's copies.
pub fn async_wait<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let num = ttir::inherent_attribute(op, "num")
        .and_then(ttir::int_value)
        .map_or(0, |(v, _)| v);
    emit.op(
        "nvvm.cp.async.wait.group",
        &[],
        &[],
        &[("n", emit.attr(&format!("{num} : i32")))],
    );
    lw.shared_access(emit, Access::Barrier);
    lw.set(result(op), vec![emit.i32(0)]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use melior::{ir::Type, Context};
    use ttg_dialect::{
        layout::{Layout, MemDesc},
        to_linear::{nvmma_shared_to_linear, shared_to_linear_layout},
    };

    use super::{constant_offset, subslice_start, XorView};

    /// The lowering's offset of every element of a `shape` f16 buffer in
    /// `encoding` against the layout library's linear layout of it (which
    /// maps each offset to the element stored there).
    fn agrees(shape: &[i64], encoding: &str) {
        let context = tt_passes::context::new_context(false);
        let dims = shape.iter().map(|d| format!("{d}x")).collect::<String>();
        let text = format!("!ttg.memdesc<{dims}f16, {encoding}, #ttg.shared_memory, mutable>");
        let ty = Type::parse(&context, &text).expect("parses");
        let desc = MemDesc::of(ty).expect("a memory descriptor");
        let layout = Layout::read(desc.encoding).expect("a layout");
        let linear = match layout {
            Layout::NvmmaShared {
                swizzling_byte_width,
                transposed,
                element_bit_width,
                ..
            } => nvmma_shared_to_linear(
                shape,
                swizzling_byte_width,
                transposed,
                element_bit_width,
                false,
            ),
            other => shared_to_linear_layout(&other, shape),
        }
        .expect("a linear layout");
        let offset_of = constant_offset(&desc).expect("supported");
        let outs: Vec<String> = linear
            .out_dim_names()
            .iter()
            .map(|s| s.to_string())
            .collect();
        for offset in 0..shape.iter().product::<i64>() {
            let at = linear.apply_index(&[offset as i32]);
            let coordinates: Vec<i64> = (0..shape.len())
                .map(|d| {
                    let name = format!("dim{d}");
                    outs.iter()
                        .position(|o| *o == name)
                        .map_or(0, |i| i64::from(at[i]))
                })
                .collect();
            assert_eq!(
                offset_of(&coordinates),
                offset,
                "{encoding} {shape:?} at {coordinates:?}"
            );
        }
    }

    #[test]
    fn swizzled_offsets_are_the_layouts() {
        // A row's phase moves whole vectors within the row: vec x phases
        // past the row's width wrap (16 = 8 x 2 columns of 8 vectors).
        agrees(
            &[32, 8],
            "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
        );
        agrees(
            &[16, 16],
            "#ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>",
        );
        agrees(
            &[8, 64],
            "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
        );
        agrees(
            &[16, 32],
            "#ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [0, 1]}>",
        );
        agrees(
            &[8, 16, 32],
            "#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 2, 1]}>",
        );
    }

    /// A `shape` f16 view of a 128x128 buffer whose rows' 8 vectors of 8
    /// are XOR-ed with the row mod 8.
    fn swizzled_view<'c>(context: &'c Context, shape: &str) -> MemDesc<'c> {
        let text = format!(
            "!ttg.memdesc<{shape}xf16, #ttg.swizzled_shared<{{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}}>, #ttg.shared_memory, mutable, 128x128>"
        );
        MemDesc::of(Type::parse(context, &text).expect("parses")).expect("a descriptor")
    }

    #[test]
    fn slices_of_whole_swizzle_patterns_are_buffers_of_their_own() {
        let context = tt_passes::context::new_context(false);
        let desc = |shape: &str| swizzled_view(&context, shape);
        let (whole, rows, tile) = (desc("128x128"), desc("64x128"), desc("64x64"));
        // Rows 64 on; then columns 64 on, read through the buffer's rows.
        assert_eq!(subslice_start(&whole, &rows, &[64, 0]), Ok(Some(64 * 128)));
        assert_eq!(subslice_start(&rows, &tile, &[0, 64]), Ok(Some(64)));
        assert_eq!(
            subslice_start(&whole, &tile, &[64, 64]),
            Ok(Some(64 * 128 + 64))
        );
        // Starts inside a swizzle pattern: its elements are elsewhere.
        assert_eq!(subslice_start(&whole, &rows, &[4, 0]), Ok(None));
        assert_eq!(subslice_start(&rows, &desc("64x32"), &[0, 8]), Ok(None));
    }

    #[test]
    fn slices_inside_a_swizzle_pattern_xor_their_start() {
        let context = tt_passes::context::new_context(false);
        let desc = |shape: &str| swizzled_view(&context, shape);
        // The buffer's swizzle, written out: row r's vectors of 8 columns
        // are XOR-ed with r mod 8.
        let swizzled = |r: i64, c: i64| r * 128 + ((c >> 3) ^ (r & 7)) * 8 + (c & 7);
        let address = |view: &XorView, r: i64, c: i64| {
            let bits = |x: i64, along: &Vec<i64>| {
                along
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| x >> k & 1 == 1)
                    .fold(0, |a, (_, &o)| a ^ o)
            };
            view.start ^ bits(r, &view.offsets[0]) ^ bits(c, &view.offsets[1])
        };
        let whole = desc("128x128");
        // 32 columns from column 32: inside the 64-column pattern.
        assert_eq!(subslice_start(&whole, &desc("64x32"), &[64, 32]), Ok(None));
        let view = XorView::of(&whole, &desc("64x32"), &[64, 32])
            .expect("supported")
            .expect("a linear view");
        assert_eq!(view.start, swizzled(64, 32));
        // A 16x16 view of that view, from its row 16 and column 16.
        let inner = XorView::within(&view.offsets, view.start, &[16, 16], &[16, 16])
            .expect("within the view");
        // Its transpose: the same elements, the coordinates swapped.
        let transposed = view.permuted(&[1, 0]).expect("a permutation");
        for r in 0..64 {
            for c in 0..32 {
                assert_eq!(address(&view, r, c), swizzled(64 + r, 32 + c), "({r}, {c})");
                assert_eq!(address(&transposed, c, r), address(&view, r, c));
                if r < 16 && c < 16 {
                    assert_eq!(
                        address(&inner, r, c),
                        swizzled(80 + r, 48 + c),
                        "({r}, {c})"
                    );
                }
            }
        }
        // Origins that are not a multiple of the view's shape are refused.
        assert_eq!(XorView::of(&whole, &desc("64x32"), &[64, 8]), Ok(None));
        assert_eq!(
            XorView::within(&view.offsets, view.start, &[16, 16], &[8, 0]),
            None
        );
        // So is a view past the end of its buffer.
        assert_eq!(
            XorView::within(&view.offsets, view.start, &[16, 16], &[64, 0]),
            None
        );
        assert_eq!(XorView::of(&whole, &desc("64x32"), &[128, 32]), Ok(None));
    }

    #[test]
    fn nvmma_offsets_are_the_layouts_in_its_own_elements() {
        agrees(&[16, 64], "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>");
        agrees(
            &[64, 16],
            "#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 16}>",
        );
        // An 8-bit layout over f16 elements: rows and chunks counted in
        // the layout's elements (32 to a 32-byte row, 16 to a chunk).
        agrees(
            &[16, 64],
            "#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>",
        );
    }
}
