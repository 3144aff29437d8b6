//! Which tensor elements each thread holds: a distributed tensor type's
//! linear layout, the compile-time coordinates of each of a thread's
//! registers, and the run-time coordinates contributed by its lane and
//! warp. An element's coordinates are the XOR of the two parts, and in a
//! cluster of CTAs that split the tensor, of the CTA's offset.

use std::collections::HashMap;

use melior::ir::{Type, Value};
use tt_dialect::types::TensorView;
use ttg_dialect::{
    layout::Layout,
    linear_layout::LinearLayout,
    to_linear::{per_cta, standard_out_dim_names, to_linear_layout},
};

use super::emit::Emitter;

/// A distributed tensor type, as the lowering needs it.
#[derive(Clone, Debug)]
pub struct Distributed {
    /// The tensor's extent in one CTA: its shape, divided along the
    /// dimensions a cluster's CTAs split.
    pub shape: Vec<i64>,
    /// The CTA's registers, lanes and warps onto its part ([`per_cta`]).
    pub layout: LinearLayout,
    /// The coordinates of each register (lane and warp 0), per dimension.
    pub registers: Vec<Vec<i32>>,
    /// Per bit of the CTA's id in its cluster, the coordinates its part
    /// moves by (zero where those CTAs hold the same part; none without
    /// a cluster).
    pub block: Vec<Vec<i32>>,
}

impl Distributed {
    /// Reads `ty`, a ranked tensor with a distributed encoding. In a
    /// cluster of CTAs, each CTA's part: the lowering works on it as on a
    /// tensor of its own, and only what the coordinates mean (a range, a
    /// printed index) and which CTAs write adds the CTA's offsets.
    pub fn of(ty: Type) -> Result<Self, String> {
        let tensor = TensorView::of(ty).ok_or_else(|| format!("expected a tensor, got {ty}"))?;
        let encoding = tensor
            .encoding
            .and_then(Layout::read)
            .ok_or_else(|| format!("the tensor type {ty} has no layout encoding"))?;
        if !encoding.is_distributed() {
            return Err(format!("the tensor type {ty} has no distributed layout"));
        }
        let (layout, cta) = per_cta(&to_linear_layout(&encoding, tensor.shape)?, tensor.shape)
            .map_err(|_| {
                "layouts split across the CTAs of a cluster other than in tiles are not supported yet"
                    .to_owned()
            })?;
        let shape = cta.shape;
        let names = standard_out_dim_names(shape.len());
        let registers = (0..layout.in_dim_size("register"))
            .map(|r| {
                let out = layout.apply(&[("register", r)]).expect("register in range");
                names
                    .iter()
                    .map(|n| out.iter().find(|(o, _)| o == n).map_or(0, |(_, v)| *v))
                    .collect()
            })
            .collect();
        Ok(Self {
            shape,
            layout,
            registers,
            block: cta.block,
        })
    }

    /// Values each thread holds.
    pub fn len(&self) -> usize {
        self.registers.len()
    }

    /// Whether a thread holds no values (never, for a valid layout).
    pub fn is_empty(&self) -> bool {
        self.registers.is_empty()
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The bases of input dimension `in_dim` (`lane`, `warp`), each as one
    /// coordinate per tensor dimension.
    fn bases(&self, in_dim: &str) -> Vec<Vec<i32>> {
        self.layout.bases(in_dim).to_vec()
    }

    /// Registers that repeat an earlier register's element (zero
    /// register bases make copies): skipping them avoids duplicate stores.
    pub fn is_duplicate_register(&self, r: usize) -> bool {
        self.layout
            .bases("register")
            .iter()
            .enumerate()
            .any(|(bit, basis)| r >> bit & 1 == 1 && basis.iter().all(|&b| b == 0))
    }

    /// The lane bits and warp bits whose bases are zero: threads that differ
    /// only in them hold the same elements.
    pub fn free_lane_warp_masks(&self) -> (i64, i64) {
        let mask = |bases: Vec<Vec<i32>>| {
            bases
                .iter()
                .enumerate()
                .filter(|(_, b)| b.iter().all(|&x| x == 0))
                .fold(0i64, |m, (bit, _)| m | 1 << bit)
        };
        (mask(self.bases("lane")), mask(self.bases("warp")))
    }

    /// How many consecutive registers hold consecutive elements along
    /// dimension `dim`, starting at register 0.
    pub fn contiguous_registers(&self, dim: usize) -> usize {
        let bases = self.layout.bases("register");
        let mut n = 0;
        for (bit, basis) in bases.iter().enumerate() {
            let expected: Vec<i32> = (0..self.rank())
                .map(|d| if d == dim { 1 << bit } else { 0 })
                .collect();
            if *basis != expected {
                break;
            }
            n += 1;
        }
        1 << n
    }

    /// The register bits that [`Distributed::representative`] clears for a
    /// tensor whose constancy along each dimension is `constancy` (aligned
    /// runs of equal values), as Triton 3.6's `maybeDeduplicate` zeroes
    /// the low coordinate bits: the bits whose basis moves along a single
    /// dimension by a power of two below the run (a power of two dividing
    /// the constancy). Clearing such a bit changes only that coordinate
    /// bit, which leaves the element in its run.
    pub fn constant_register_bits(&self, constancy: &[i64]) -> usize {
        let runs: Vec<i64> = constancy
            .iter()
            .take(self.rank())
            .map(|&c| if c > 0 { 1i64 << c.trailing_zeros() } else { 1 })
            .collect();
        let mut mask = 0;
        for (bit, basis) in self.layout.bases("register").iter().enumerate() {
            let moved: Vec<(usize, i64)> = basis
                .iter()
                .enumerate()
                .filter(|&(_, &x)| x != 0)
                .map(|(d, &x)| (d, i64::from(x)))
                .collect();
            if let [(d, step)] = moved.as_slice() {
                if *step > 0
                    && (*step as u64).is_power_of_two()
                    && runs.get(*d).is_some_and(|&run| *step < run)
                {
                    mask |= 1 << bit;
                }
            }
        }
        mask
    }

    /// The tensor dimension whose elements vary fastest within a thread: the
    /// dimension of the first non-zero register basis, else of the first
    /// lane basis, else 0.
    pub fn fastest_dim(&self) -> usize {
        for in_dim in ["register", "lane", "warp"] {
            for basis in self.layout.bases(in_dim) {
                if let Some(d) = basis.iter().position(|&b| b != 0) {
                    return d;
                }
            }
        }
        0
    }
}

/// The thread's position: lane and warp ids, and per layout the run-time
/// coordinates they contribute, computed once per function.
pub struct ThreadIds<'c, 'a> {
    /// The thread id counted from the warp group's first thread, unmasked
    /// (what Triton's `ttg.warp_id` divides).
    pub unmasked: Value<'c, 'a>,
    pub tid: Value<'c, 'a>,
    pub lane: Value<'c, 'a>,
    pub warp: Value<'c, 'a>,
    /// `log2(threads per warp)`: the lane bits at the bottom of `tid`.
    lane_bits: usize,
    /// Per distributed tensor type (its uniqued `MlirType`), the offsets.
    offsets: HashMap<usize, Vec<Value<'c, 'a>>>,
}

impl<'c, 'a> ThreadIds<'c, 'a> {
    /// Reads the thread id at the emitter's position. With a warp group
    /// (`group`: its first thread and its thread count, a power of two;
    /// [`super::Lowering::thread_group`]) the id counts from the group's first
    /// thread and is masked to its count, as Triton's `getThreadId` does.
    pub fn new(emit: &Emitter<'c, 'a>, threads_per_warp: i64, group: Option<(i64, i64)>) -> Self {
        let mut unmasked = emit.special_register("tid.x");
        let mut tid = unmasked;
        if let Some((start, threads)) = group {
            if start != 0 {
                unmasked = emit.binary("llvm.sub", unmasked, emit.i32(start));
            }
            tid = emit.and(unmasked, emit.i32(threads - 1));
        }
        let lane = emit.and(tid, emit.i32(threads_per_warp - 1));
        let warp = emit.lshr(tid, emit.i32(threads_per_warp.trailing_zeros() as i64));
        Self {
            unmasked,
            tid,
            lane,
            warp,
            lane_bits: threads_per_warp.trailing_zeros() as usize,
            offsets: HashMap::new(),
        }
    }

    /// The coordinates (one i32 per dimension) that this thread's lane and
    /// warp contribute in `ty`'s layout. Emitted at `emit` the first time
    /// and reused after: callers pass an emitter at the function's entry.
    pub fn offsets(
        &mut self,
        entry: &Emitter<'c, 'a>,
        key: usize,
        ty: &Distributed,
    ) -> Vec<Value<'c, 'a>> {
        if let Some(v) = self.offsets.get(&key) {
            return v.clone();
        }
        let dims: Vec<Value> = (0..ty.rank())
            .map(|d| {
                let along = |in_dim: &str| -> Vec<i32> {
                    ty.layout.bases(in_dim).iter().map(|b| b[d]).collect()
                };
                self.linear(entry, &along("lane"), &along("warp"))
            })
            .collect();
        self.offsets.insert(key, dims.clone());
        dims
    }

    /// The XOR over the set bits of this thread's lane and warp ids of the
    /// matching weights (`lane_weights[k]` for lane bit `k`, likewise for
    /// warps): a linear map's value at this thread. As `tid` is the lane
    /// bits below the warp bits, the weights are read as one list over
    /// `tid`'s bits when every lane bit has one and some warp bit has a
    /// non-zero one (a map of the lane alone reads the lane, whose masked
    /// bits the lowering's lane tests share), and runs of bits whose
    /// weights are consecutive powers of two become one shifted field, so
    /// `4 * tid` is a shift, not a term per bit.
    pub fn linear<W: Copy + Into<i64>>(
        &self,
        emit: &Emitter<'c, 'a>,
        lane_weights: &[W],
        warp_weights: &[W],
    ) -> Value<'c, 'a> {
        let weights = |ws: &[W]| ws.iter().map(|&w| w.into()).collect::<Vec<i64>>();
        let no_warp = warp_weights.iter().all(|&w| w.into() == 0);
        if lane_weights.len() == self.lane_bits && !no_warp {
            let mut all = weights(lane_weights);
            all.extend(weights(warp_weights));
            return xor_of_bits(emit, &[(self.tid, &all)]);
        }
        xor_of_bits(
            emit,
            &[
                (self.lane, &weights(lane_weights)),
                (self.warp, &weights(warp_weights)),
            ],
        )
    }
}

/// The XOR, over every `(id, weights)` pair and every set bit `k` of `id`,
/// of `weights[k]`; zero weights cost nothing and no term gives the
/// constant 0. Each weight's bits are sorted by how far they move from
/// `k` (Triton's `applyLinearLayout`): all the bits of an id that move by
/// the same distance are one term, `(id & mask)` shifted by it, so a
/// weight like `40 = 32 ^ 8` for bit 5 costs nothing beyond the terms that
/// keep bit 5 in place and move bits down by 2. Negative weights take a
/// term each.
pub(super) fn xor_of_bits<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    parts: &[(Value<'c, 'a>, &[i64])],
) -> Value<'c, 'a> {
    // (id, distance moved, the id's bits that move by it)
    let mut groups: Vec<(Value<'c, 'a>, i64, i64)> = Vec::new();
    let mut singles = Vec::new();
    for &(id, weights) in parts {
        for (k, &w) in weights.iter().enumerate() {
            if w < 0 {
                singles.push((id, k, w));
                continue;
            }
            let mut rest = w;
            while rest != 0 {
                let to = i64::from(rest.trailing_zeros());
                rest &= rest - 1;
                let by = to - k as i64;
                match groups.iter_mut().find(|(v, d, _)| *d == by && *v == id) {
                    Some(group) => group.2 |= 1 << k,
                    None => groups.push((id, by, 1 << k)),
                }
            }
        }
    }
    // The bits that stay in place come first, then the moved ones (Triton's
    // order: LLVM then sees no bit permutation among the first terms to
    // fold into a bitreverse).
    groups.sort_by_key(|&(_, by, _)| by != 0);
    let mut acc: Option<Value> = None;
    for (id, by, mask) in groups {
        let field = emit.and(id, emit.i32(mask));
        let term = match by.cmp(&0) {
            std::cmp::Ordering::Equal => field,
            std::cmp::Ordering::Less => emit.lshr(field, emit.i32(-by)),
            std::cmp::Ordering::Greater => emit.shl(field, emit.i32(by)),
        };
        acc = Some(acc.map_or(term, |a| emit.xor(a, term)));
    }
    for (id, k, w) in singles {
        let shifted = if k == 0 {
            id
        } else {
            emit.lshr(id, emit.i32(k as i64))
        };
        let term = emit.mul(emit.and(shifted, emit.i32(1)), emit.i32(w));
        acc = Some(acc.map_or(term, |a| emit.xor(a, term)));
    }
    acc.unwrap_or_else(|| emit.i32(0))
}
