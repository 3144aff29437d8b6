//! How `ttg.convert_layout` between two distributed layouts moves data, as
//! Triton 3.6 decides it: shared by the shared-memory allocation (scratch
//! size) and the lowering (shuffle and address plans).
//!
//! [`classify`] follows Triton's `minimalCvtLayout` and
//! `cvtNeedsWarpShuffle`: the conversion `dst⁻¹ ∘ src` is quotiented by
//! `block`, `warp` and `lane`. When all three drop out every thread keeps
//! its elements and only registers move. When only `lane` stays, data moves
//! within warps: the conversion is a permutation `P` of the register and
//! lane bits, factored as `P_mixed ∘ P_lane ∘ P_reg` ([`shuffle_plan`]),
//! and Triton uses warp shuffles (no scratch) when `P_mixed` swaps fewer
//! than two register bits with lane bits. Everything else goes through
//! shared memory.
//!
//! [`shuffle_plan`] turns the factorization into Triton's
//! `transferWithinWarp` steps: a register renumbering (`P_reg`), then either
//! one "ship" (one mixed transposition, lanes unpermuted: select the value
//! to send, `shfl.sync.bfly`, select the results) or selects, shuffles
//! (`bfly` when `P_lane` is trivial, `idx` otherwise) and selects. Elements
//! of 16 bits or less are packed two or four to a 32-bit word (Triton's
//! `nPack`), and permutations of the packed register bits are folded into
//! `prmt.b32` byte selectors around the shuffles (Triton's
//! `getTranspositionSelectors`). The plan runs byte by byte on values of
//! any type ([`ShufflePlan::run`]), which is how it is tested and how it
//! checks itself when built.
//!
//! [`plan`] computes Triton's swizzled shared-memory layout (the NVIDIA
//! `optimalSwizzling` over the `ld.shared`/`st.shared`, `ldmatrix` and
//! `stmatrix` tiles of the target, with the `ld`/`st` fallback): a map from
//! the `vector`, `bank`, `segment` and `reps` bits of a scratch index to the
//! tensor element, built by linear algebra over GF(2) on the flattened
//! element index so that warp-wide vector accesses avoid bank conflicts. The
//! scratch holds one tile (`numel / reps` elements) and the tensor passes
//! through it in `reps` rounds. The plan turns that layout into the
//! accesses of each thread: vectorised stores of the source registers and
//! loads of the destination registers, per round.

use std::collections::{HashMap, HashSet};

use crate::linear_layout::LinearLayout;

/// How a conversion moves data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Movement {
    /// Every thread keeps its elements: registers are renumbered.
    Registers,
    /// Data crosses lanes of a warp only, along a permutation of register
    /// and lane bits with at most one register/lane swap: warp shuffles,
    /// no scratch ([`shuffle_plan`]).
    WarpShuffle,
    /// Data crosses warps (or lanes in a pattern too costly to shuffle): a
    /// round trip through shared memory ([`plan`]).
    SharedMemory,
}

/// Triton's classification of the conversion from `src` to `dst` (two
/// distributed linear layouts of one tensor).
pub fn classify(src: &LinearLayout, dst: &LinearLayout) -> Result<Movement, String> {
    let mut conversion = dst.invert_and_compose(src)?;
    for dim in ["block", "warp", "lane"] {
        if !conversion.has_in_dim(dim) && !conversion.has_out_dim(dim) {
            continue;
        }
        match conversion.quotient(&[dim]) {
            Some(q) => conversion = q,
            // Triton's `cvtNeedsWarpShuffle`: what is left maps (register,
            // lane) to (register, lane), and its factorization (taken for
            // 32-bit values, so without packing) has at most one mixed
            // transposition.
            None if dim == "lane" => {
                return Ok(match Factors::of(src, dst) {
                    Some(f) if f.transpositions.len() < 2 => Movement::WarpShuffle,
                    _ => Movement::SharedMemory,
                })
            }
            None => return Ok(Movement::SharedMemory),
        }
    }
    Ok(Movement::Registers)
}

// ---- conversions within a warp ----

/// A layout's flattened register and lane bases.
struct WarpBases {
    /// The register bases that are not zero (Triton's
    /// `actionRemoveBroadcastedRegs`), as (original bit, element) pairs.
    registers: Vec<(usize, u32)>,
    lanes: Vec<u32>,
}

fn register_lane_bases(ll: &LinearLayout) -> Result<WarpBases, String> {
    let flat = ll.flatten_outs()?;
    let column = |name: &str| -> Vec<u32> {
        if flat.has_in_dim(name) {
            flat.bases(name).iter().map(|b| b[0] as u32).collect()
        } else {
            Vec::new()
        }
    };
    let registers = column("register")
        .into_iter()
        .enumerate()
        .filter(|&(_, e)| e != 0)
        .collect();
    Ok(WarpBases {
        registers,
        lanes: column("lane"),
    })
}

/// Triton's `getWarpLayoutConvertDecomposition` for 32-bit values: the
/// permutation `P` of hardware bits with `src = dst ∘ P` (both sides'
/// register and lane dimensions padded with zero bases to equal sizes),
/// factored as `P_mixed ∘ P_lane ∘ P_reg`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Factors {
    /// Original register bits of the source and destination kept (non-zero
    /// bases), lowest first.
    src_kept: Vec<usize>,
    dst_kept: Vec<usize>,
    /// `P_reg` and `P_lane`: the bit each register / lane bit goes to.
    p_reg: Vec<u32>,
    p_lane: Vec<u32>,
    /// `P_mixed`: disjoint (register bit, lane bit) transpositions.
    transpositions: Vec<(u32, u32)>,
}

impl Factors {
    /// `None` when the two layouts are not related by a permutation of
    /// register and lane bits (Triton's decomposition assumes they are).
    fn of(src: &LinearLayout, dst: &LinearLayout) -> Option<Self> {
        let WarpBases {
            registers: src_regs,
            lanes: src_lanes,
        } = register_lane_bases(src).ok()?;
        let WarpBases {
            registers: dst_regs,
            lanes: dst_lanes,
        } = register_lane_bases(dst).ok()?;
        let n_reg = src_regs.len().max(dst_regs.len());
        let n_lane = src_lanes.len().max(dst_lanes.len());
        // Hardware bit k: register bit k below n_reg, lane bit k - n_reg
        // above.
        let columns = |regs: &[(usize, u32)], lanes: &[u32]| -> Vec<u32> {
            let mut out: Vec<u32> = regs.iter().map(|&(_, e)| e).collect();
            out.resize(n_reg, 0);
            out.extend(lanes);
            out.resize(n_reg + n_lane, 0);
            out
        };
        let s = columns(&src_regs, &src_lanes);
        let t = columns(&dst_regs, &dst_lanes);
        let n = n_reg + n_lane;
        // P's image of every hardware bit: the destination bit holding the
        // same element; bits that are zero on both sides stay, and the
        // remaining zeros pair up in order.
        let mut image: Vec<Option<usize>> = vec![None; n];
        let (mut src_free, mut dst_free) = (Vec::new(), Vec::new());
        for k in 0..n {
            match (s[k], t[k]) {
                (0, 0) => image[k] = Some(k),
                (0, _) => src_free.push(k),
                (_, 0) => dst_free.push(k),
                _ => {}
            }
            if s[k] != 0 {
                image[k] = Some(t.iter().position(|&e| e == s[k])?);
            }
        }
        if src_free.len() != dst_free.len() {
            return None;
        }
        for (&a, &b) in src_free.iter().zip(&dst_free) {
            image[a] = Some(b);
        }
        let image: Vec<usize> = image.into_iter().collect::<Option<_>>()?;
        let mut hit = vec![false; n];
        for &i in &image {
            if std::mem::replace(&mut hit[i], true) {
                return None;
            }
        }
        // Walk the cycles of P from their lowest register bit, cutting every
        // run `r_m l_j .. l_k r_i` into the transposition (r_i l_j), the
        // register step r_m -> r_i and the lane cycle l_k -> l_j.
        let is_reg = |k: usize| k < n_reg;
        let mut p_reg: Vec<u32> = (0..n_reg as u32).collect();
        let mut p_lane: Vec<u32> = (0..n_lane as u32).collect();
        let mut transpositions = Vec::new();
        let mut visited = vec![false; n];
        for entry in 0..n {
            if visited[entry] {
                continue;
            }
            let mut into_lanes: Option<(usize, usize)> = None;
            let mut at = entry;
            loop {
                visited[at] = true;
                let next = image[at];
                match (is_reg(at), is_reg(next)) {
                    (true, true) => p_reg[at] = next as u32,
                    (false, false) => p_lane[at - n_reg] = (next - n_reg) as u32,
                    (true, false) => into_lanes = Some((at, next - n_reg)),
                    (false, true) => {
                        let (reg_start, lane_start) = into_lanes.take()?;
                        p_reg[reg_start] = next as u32;
                        p_lane[at - n_reg] = lane_start as u32;
                        transpositions.push((next as u32, lane_start as u32));
                    }
                }
                at = next;
                if at == entry {
                    break;
                }
            }
        }
        Some(Self {
            src_kept: src_regs.iter().map(|&(b, _)| b).collect(),
            dst_kept: dst_regs.iter().map(|&(b, _)| b).collect(),
            p_reg,
            p_lane,
            transpositions,
        })
    }
}

/// The pairs `(r, r | 1 << register)` of `n` registers whose index has bit
/// `register` clear: the registers a swap or ship step on that bit pairs up.
pub fn register_pairs(register: u32, n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n)
        .filter(move |r| r >> register & 1 == 0)
        .map(move |r| (r, r | 1 << register))
}

/// The `prmt.b32` selector that leaves its first operand as it is.
pub const PRMT_FIRST: u16 = 0x3210;
/// The `prmt.b32` selector that yields its second operand.
pub const PRMT_SECOND: u16 = 0x7654;

/// `prmt.b32` without sign replication: byte `i` of the result is byte
/// `sel >> 4i & 7` of the eight bytes `a` (bytes 0-3) then `b` (4-7).
pub fn prmt<B: Clone>(a: &[B], b: &[B], sel: u16) -> Vec<B> {
    (0..4)
        .map(|i| {
            let k = (sel >> (4 * i) & 7) as usize;
            if k < 4 {
                a[k].clone()
            } else {
                b[k - 4].clone()
            }
        })
        .collect()
}

/// One step of a [`ShufflePlan`] over the working registers (32-bit words)
/// of every lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// In lanes with bit `lane` set, registers `r` and `r | 1 << register`
    /// (for each `r` without that bit) trade values: two selects per pair.
    Swap { register: u32, lane: u32 },
    /// Like [`Step::Swap`] with byte permutes in place of the selects: for
    /// each pair (`r0`, `r1`) the new `r0` is `prmt(r0, r1, s[0])` and the
    /// new `r1` is `prmt(r0, r1, s[1])`, with `s` = `clear` in lanes whose
    /// bit `lane` is clear and `set` in the others (two selects of the
    /// selectors, shared by the pairs, and two `prmt` per pair).
    Permute {
        register: u32,
        lane: u32,
        clear: [u16; 2],
        set: [u16; 2],
    },
    /// Register `r` is read from another lane. With `sources` (a
    /// permutation of lanes, what each lane bit contributes), from lane
    /// `sources(lane) ^ masks[r]` (`shfl.sync.idx`, every register);
    /// without, from lane `lane ^ masks[r]` (`shfl.sync.bfly`, registers
    /// with a non-zero mask only).
    Shuffle {
        sources: Option<Vec<u32>>,
        masks: Vec<u32>,
    },
    /// The single transposition of register bit `register` with lane bit
    /// `lane`, out of place: for each pair (`r0` without the register bit,
    /// `r1 = r0 | 1 << register`) a lane sends `r1` when its lane bit is
    /// clear and `r0` when set (a select), the value comes back over
    /// `shfl.sync.bfly` by `1 << lane`, and replaces `r1` (bit clear) or
    /// `r0` (bit set): three selects and one shuffle per pair.
    Ship { register: u32, lane: u32 },
    /// [`Step::Ship`] with byte permutes: a lane sends
    /// `prmt(r0, r1, send[c])`, receives `got` over `shfl.sync.bfly` by
    /// `1 << lane`, and keeps `prmt(r0, got, keep0[c])` and
    /// `prmt(r1, got, keep1[c])`, where `c` is 0 when its lane bit is clear
    /// and 1 when set (three selects of selectors, shared by the pairs,
    /// and per pair three `prmt` and one shuffle).
    ShipPermute {
        register: u32,
        lane: u32,
        send: [u16; 2],
        keep0: [u16; 2],
        keep1: [u16; 2],
    },
}

/// Triton's warp-shuffle lowering of a conversion within warps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShufflePlan {
    /// The source register each working element starts from.
    pub inputs: Vec<usize>,
    /// `log2` of the elements packed into one 32-bit working register
    /// (Triton's `nPack`): working element `e` sits in slot
    /// `e % 2^pack` (bits `32 / 2^pack` wide, from the low end) of
    /// register `e / 2^pack`. 0: one element per register.
    pub pack: u32,
    pub steps: Vec<Step>,
    /// The working element each destination register ends in.
    pub outputs: Vec<usize>,
}

/// One byte of a simulated word: the element it belongs to and its index
/// within the element's slot.
type Byte<T> = (T, usize);

impl ShufflePlan {
    /// The number of 32-bit working registers.
    pub fn words(&self) -> usize {
        self.inputs.len() >> self.pack
    }

    /// Runs the plan on one warp, byte by byte: `src[lane][register]` in
    /// the source layout gives `[lane][register]` in the destination
    /// layout, or `None` when an element arrives torn (its slot's bytes
    /// from different places).
    pub fn run<T: Clone + PartialEq>(&self, src: &[Vec<T>]) -> Option<Vec<Vec<T>>> {
        let per = 1usize << self.pack;
        let width = 4 / per;
        let mut vals: Vec<Vec<Vec<Byte<T>>>> = src
            .iter()
            .map(|regs| {
                self.inputs
                    .chunks(per)
                    .map(|slots| {
                        slots
                            .iter()
                            .flat_map(|&r| (0..width).map(move |b| (regs[r].clone(), b)))
                            .collect()
                    })
                    .collect()
            })
            .collect();
        for step in &self.steps {
            vals = self.step(step, vals);
        }
        vals.iter()
            .map(|words| {
                self.outputs
                    .iter()
                    .map(|&e| {
                        let word = &words[e / per];
                        let slot = &word[e % per * width..][..width];
                        let first = &slot[0].0;
                        slot.iter()
                            .enumerate()
                            .all(|(b, (v, at))| v == first && *at == b)
                            .then(|| first.clone())
                    })
                    .collect()
            })
            .collect()
    }

    fn step<T: Clone>(
        &self,
        step: &Step,
        mut vals: Vec<Vec<Vec<Byte<T>>>>,
    ) -> Vec<Vec<Vec<Byte<T>>>> {
        let n = self.words();
        match step {
            Step::Swap { register, lane } => {
                for (l, regs) in vals.iter_mut().enumerate() {
                    if l >> lane & 1 == 1 {
                        for (r0, r1) in register_pairs(*register, n) {
                            regs.swap(r0, r1);
                        }
                    }
                }
            }
            Step::Permute {
                register,
                lane,
                clear,
                set,
            } => {
                for (l, regs) in vals.iter_mut().enumerate() {
                    let s = if l >> lane & 1 == 0 { clear } else { set };
                    for (r0, r1) in register_pairs(*register, n) {
                        let (v0, v1) = (regs[r0].clone(), regs[r1].clone());
                        regs[r0] = prmt(&v0, &v1, s[0]);
                        regs[r1] = prmt(&v0, &v1, s[1]);
                    }
                }
            }
            Step::Shuffle { sources, masks } => {
                let before = vals.clone();
                for (l, regs) in vals.iter_mut().enumerate() {
                    let base = sources.as_ref().map_or(l as u32, |s| linear(s, l as u32));
                    for (r, v) in regs.iter_mut().enumerate() {
                        if sources.is_some() || masks[r] != 0 {
                            *v = before[(base ^ masks[r]) as usize][r].clone();
                        }
                    }
                }
            }
            Step::Ship { register, lane } => {
                let sent: Vec<Vec<_>> = vals
                    .iter()
                    .enumerate()
                    .map(|(l, regs)| {
                        let clear = l >> lane & 1 == 0;
                        register_pairs(*register, n)
                            .map(|(r0, r1)| regs[if clear { r1 } else { r0 }].clone())
                            .collect()
                    })
                    .collect();
                for (l, regs) in vals.iter_mut().enumerate() {
                    let clear = l >> lane & 1 == 0;
                    let from = &sent[l ^ 1 << lane];
                    for (i, (r0, r1)) in register_pairs(*register, n).enumerate() {
                        regs[if clear { r1 } else { r0 }] = from[i].clone();
                    }
                }
            }
            Step::ShipPermute {
                register,
                lane,
                send,
                keep0,
                keep1,
            } => {
                let side = |l: usize| l >> lane & 1;
                let sent: Vec<Vec<_>> = vals
                    .iter()
                    .enumerate()
                    .map(|(l, regs)| {
                        register_pairs(*register, n)
                            .map(|(r0, r1)| prmt(&regs[r0], &regs[r1], send[side(l)]))
                            .collect()
                    })
                    .collect();
                for (l, regs) in vals.iter_mut().enumerate() {
                    let from = &sent[l ^ 1 << lane];
                    for (i, (r0, r1)) in register_pairs(*register, n).enumerate() {
                        regs[r0] = prmt(&regs[r0], &from[i], keep0[side(l)]);
                        regs[r1] = prmt(&regs[r1], &from[i], keep1[side(l)]);
                    }
                }
            }
        }
        vals
    }
}

/// The XOR of `bases[k]` over the set bits `k` of `x`.
fn linear(bases: &[u32], x: u32) -> u32 {
    bases
        .iter()
        .enumerate()
        .filter(|&(k, _)| x >> k & 1 == 1)
        .fold(0, |a, (_, &b)| a ^ b)
}

/// `x`'s bits `k` moved to bits `positions[k]`.
fn spread_bits(positions: &[usize], x: usize) -> usize {
    positions
        .iter()
        .enumerate()
        .filter(|&(k, _)| x >> k & 1 == 1)
        .fold(0, |a, (_, &p)| a | 1 << p)
}

/// The element each (register, lane) of warp 0 holds, flattened.
fn elements(ll: &LinearLayout) -> Result<Vec<Vec<u32>>, String> {
    let lanes = register_lane_bases(ll)?.lanes;
    let flat = ll.flatten_outs()?;
    let regs: Vec<u32> = flat.bases("register").iter().map(|b| b[0] as u32).collect();
    Ok((0..1u32 << lanes.len())
        .map(|l| {
            (0..1u32 << regs.len())
                .map(|r| linear(&regs, r) ^ linear(&lanes, l))
                .collect()
        })
        .collect())
}

/// The byte permutes Triton's `getTranspositionSelectors` fuses into a
/// mixed transposition in place of selects, as `prmt.b32` selectors: the
/// first/second result of the pair before the shuffle (`pre`) and after
/// (`post`), for a lane whose lane bit is clear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Selectors {
    top_pre: u16,
    bot_pre: u16,
    top_post: u16,
    bot_post: u16,
}

impl Selectors {
    const PLAIN: Self = Self {
        top_pre: PRMT_FIRST,
        bot_pre: PRMT_SECOND,
        top_post: PRMT_FIRST,
        bot_post: PRMT_SECOND,
    };

    /// Triton's `isShippable`: the out-of-place method cannot mix high and
    /// low register bits.
    fn shippable(&self) -> bool {
        self.top_pre == self.top_post
            || (self.top_pre, self.top_post) == (0x5140, 0x6240)
            || (self.top_pre, self.top_post) == (0x6420, 0x5410)
    }
}

/// `sel` with, in every nibble, the byte-address bit of packed register
/// bit `bit` exchanged with the bit that picks the `prmt` operand (bit 2).
fn exchange_selector_bit(sel: u16, bit: u32, pack: u32) -> u16 {
    let lo = bit + 2 - pack;
    let operand = 0x4444u16;
    let low = 0x1111u16 << lo;
    let shift = 2 - lo;
    (sel & !operand & !low) | ((sel & operand) >> shift) | ((sel & low) << shift)
}

/// Triton's `getTranspositionSelectors` for the single mixed transposition
/// `(rbit, lane)` with `pack` low (packed) register bits: folds the low
/// register bits that `P_reg` cycles next to the lane bits into byte
/// selectors, removing them from `p_reg`, and returns the register bit the
/// shuffle pairs instead of `rbit` (its "partner", always a high bit).
///
/// Triton 3.6 also folds an isolated `(r0 r1)` of `P_reg` into the
/// post-shuffle selectors when `pack` is 2 but leaves it in `P_reg` as
/// well, which applies it twice (it miscompiles on an H100); that fold is
/// not taken here.
fn fold_low_bits(p_reg: &mut [u32], rbit: u32, pack: u32) -> (u32, Selectors) {
    let next = |p: &[u32], b: u32| p[b as usize];
    let mut cycle = vec![rbit];
    while next(p_reg, *cycle.last().unwrap()) != rbit {
        cycle.push(next(p_reg, *cycle.last().unwrap()));
    }
    let high = |b: &u32| *b >= pack;
    let (head, tail, partner, post_low, mut pre_low);
    if let Some(first) = cycle.iter().position(high) {
        let last = cycle.iter().rposition(high).unwrap();
        post_low = cycle[..first].to_vec();
        pre_low = cycle[last + 1..].iter().rev().copied().collect::<Vec<_>>();
        head = cycle[first];
        tail = cycle[last];
        partner = head;
    } else {
        // Low bits only, as (l0 r0 r1): conjugate by a free high bit.
        post_low = cycle[..1].to_vec();
        pre_low = cycle.iter().rev().copied().collect::<Vec<_>>();
        head = pre_low[0];
        tail = head;
        let other = 1 - head;
        let target = next(p_reg, other);
        partner = if pack == 2 && next(p_reg, head) == head && target >= pack {
            pre_low.push(other);
            let before = (0..p_reg.len() as u32)
                .find(|&b| next(p_reg, b) == other)
                .unwrap();
            p_reg[before as usize] = target;
            target
        } else {
            // The lowest high bit: only `rbit` (low here) is paired.
            pack
        };
    }
    let mut fold = |bits: &mut dyn Iterator<Item = u32>| {
        let (mut top, mut bot) = (PRMT_FIRST, PRMT_SECOND);
        for bit in bits {
            top = exchange_selector_bit(top, bit, pack);
            bot = exchange_selector_bit(bot, bit, pack);
            if bit != head && bit != tail {
                p_reg[bit as usize] = bit;
            }
        }
        (top, bot)
    };
    let (top_post, bot_post) = fold(&mut post_low.iter().rev().copied());
    let (top_pre, bot_pre) = fold(&mut pre_low.iter().copied());
    p_reg[tail as usize] = head;
    (
        partner,
        Selectors {
            top_pre,
            bot_pre,
            top_post,
            bot_post,
        },
    )
}

/// Triton's `nPack` bound from the element width: 2 bits (four elements)
/// for 8 bits or less, 1 for 16 bits, 0 from 32 bits up.
fn pack_bound(bits: u32) -> u32 {
    match bits {
        0..=8 => 2,
        9..=16 => 1,
        _ => 0,
    }
}

/// Triton's `transferWithinWarp` for a conversion [`classify`] finds
/// [`Movement::WarpShuffle`], for elements of `bits` bits: values of 8 or
/// 16 bits are packed up to four or two to a 32-bit register as far as
/// the register bits outside the mixed transposition allow (with the
/// permutations of the packed bits folded into `prmt` selectors), values
/// of 32 bits or less otherwise travel one per shuffle, 64-bit ones as two
/// 32-bit halves. The plan is run on the layouts' elements before it is
/// returned; where Triton 3.6's packed plan does not deliver every element
/// (its out-of-place method with some selectors), the in-place one with
/// the same selectors, then the unpacked plan, are taken instead.
pub fn shuffle_plan(
    src: &LinearLayout,
    dst: &LinearLayout,
    bits: u32,
) -> Result<ShufflePlan, String> {
    let f = Factors::of(src, dst)
        .ok_or("a conversion that is not a permutation of register and lane bits")?;
    let (given, wanted) = (elements(src)?, elements(dst)?);
    let delivers = |p: &ShufflePlan| p.run(&given).as_ref() == Some(&wanted);
    let pack = pack_bound(bits).min((f.p_reg.len() - f.transpositions.len()) as u32);
    if pack > 0 && f.transpositions.len() <= 1 {
        let mut folded = f.clone();
        let mut selectors = Vec::new();
        for t in &mut folded.transpositions {
            let (partner, s) = fold_low_bits(&mut folded.p_reg, t.0, pack);
            t.0 = partner;
            selectors.push(s);
        }
        let ship = selectors.iter().all(Selectors::shippable);
        for ship in [ship, false] {
            let plan = build_plan(dst, &folded, pack, &selectors, ship);
            if delivers(&plan) {
                return Ok(plan);
            }
        }
    }
    let plain = vec![Selectors::PLAIN; f.transpositions.len()];
    let plan = build_plan(dst, &f, 0, &plain, true);
    if !delivers(&plan) {
        return Err("a warp-shuffle plan that does not deliver every element".into());
    }
    Ok(plan)
}

/// The steps of `transferWithinWarp` for the factors `f` (with `P_reg`
/// and the transpositions' register bits as folded for `pack` packed
/// bits), one [`Selectors`] per transposition. `ship` allows the
/// out-of-place method when it applies.
fn build_plan(
    dst: &LinearLayout,
    f: &Factors,
    pack: u32,
    selectors: &[Selectors],
    ship: bool,
) -> ShufflePlan {
    let n_reg = f.p_reg.len();
    let src_count = 1usize << f.src_kept.len();
    // Broadcast source registers dropped, the rest repeated up to the
    // padded size, then renumbered by P_reg.
    let mut inputs = vec![0; 1 << n_reg];
    for i in 0..1usize << n_reg {
        let to = linear(
            &f.p_reg.iter().map(|&b| 1 << b).collect::<Vec<u32>>(),
            i as u32,
        );
        inputs[to as usize] = spread_bits(&f.src_kept, i % src_count);
    }
    let dst_registers = 1usize << dst.in_dim_size_log2("register");
    let outputs = (0..dst_registers)
        .map(|r| {
            f.dst_kept
                .iter()
                .enumerate()
                .filter(|&(_, &b)| r >> b & 1 == 1)
                .fold(0, |a, (k, _)| a | 1 << k)
        })
        .collect();
    let lane_trivial = f.p_lane.iter().enumerate().all(|(k, &b)| b == k as u32);
    let mut inverse = vec![0u32; f.p_lane.len()];
    for (k, &b) in f.p_lane.iter().enumerate() {
        inverse[b as usize] = 1 << k;
    }
    let mut steps = Vec::new();
    if let ([(register, lane)], [s], true, true) = (
        f.transpositions.as_slice(),
        selectors,
        lane_trivial,
        ship && selectors.iter().all(Selectors::shippable),
    ) {
        let (register, lane) = (register - pack, *lane);
        if (s.top_pre, s.top_post) == (PRMT_FIRST, PRMT_FIRST) {
            steps.push(Step::Ship { register, lane });
        } else {
            steps.push(Step::ShipPermute {
                register,
                lane,
                send: [s.bot_pre, s.top_pre],
                keep0: [s.top_post, ship_cross(s.top_post).1],
                keep1: [ship_cross(s.top_post).0, s.bot_post ^ 0x4444],
            });
        }
    } else {
        let swap = |register: u32, lane: u32, top: u16, bot: u16, set: [u16; 2]| {
            if (top, bot) == (PRMT_FIRST, PRMT_SECOND) {
                Step::Swap { register, lane }
            } else {
                Step::Permute {
                    register,
                    lane,
                    clear: [top, bot],
                    set,
                }
            }
        };
        for (&(register, lane), s) in f.transpositions.iter().zip(selectors) {
            steps.push(swap(
                register - pack,
                inverse[lane as usize].trailing_zeros(),
                s.top_pre,
                s.bot_pre,
                [s.bot_pre, s.top_pre],
            ));
        }
        let masks = (0..1usize << (n_reg as u32 - pack))
            .map(|r| {
                f.transpositions
                    .iter()
                    .filter(|&&(reg, _)| r >> (reg - pack) & 1 == 1)
                    .fold(0, |a, &(_, lane)| a ^ inverse[lane as usize])
            })
            .collect();
        steps.push(Step::Shuffle {
            sources: (!lane_trivial).then_some(inverse),
            masks,
        });
        for (&(register, lane), s) in f.transpositions.iter().zip(selectors) {
            steps.push(swap(
                register - pack,
                lane,
                s.top_post,
                s.bot_post,
                [s.top_post ^ 0x4444, s.bot_post ^ 0x4444],
            ));
        }
    }
    ShufflePlan {
        inputs,
        pack,
        steps,
        outputs,
    }
}

/// Triton 3.6's `shipDiagSels`: from the post-shuffle selector of the
/// first register, the selector of the second register in lanes with the
/// lane bit clear and that of the first in lanes with it set.
fn ship_cross(top_post: u16) -> (u16, u16) {
    let high = (top_post & 0x4444) >> 2;
    let second = top_post
        ^ if top_post & 0x1000 != 0 {
            high << 1
        } else {
            high
        };
    (second, second ^ 0x4444)
}

// ---- linear algebra over GF(2) on flattened element indices ----

/// The reduced row echelon form of `rows` (pivot = lowest set bit, each
/// pivot bit cleared from the other rows), without zero rows. It depends
/// only on the span, so the pivots and null spaces below are canonical.
fn rref(rows: &[u32]) -> Vec<u32> {
    let mut basis: Vec<u32> = Vec::new();
    for &r in rows {
        let mut v = r;
        for &b in &basis {
            if v & (b & b.wrapping_neg()) != 0 {
                v ^= b;
            }
        }
        if v == 0 {
            continue;
        }
        let pivot = v & v.wrapping_neg();
        for b in &mut basis {
            if *b & pivot != 0 {
                *b ^= v;
            }
        }
        basis.push(v);
    }
    basis
}

/// A basis of `{x : x·v = 0 for all v in vectors}` over `dim` bits, one
/// vector per non-pivot column.
fn null_space(vectors: &[u32], dim: u32) -> Vec<u32> {
    let rows = rref(vectors);
    let pivots: Vec<u32> = rows.iter().map(|r| r.trailing_zeros()).collect();
    (0..dim)
        .filter(|c| !pivots.contains(c))
        .map(|free| {
            rows.iter()
                .zip(&pivots)
                .filter(|(r, _)| *r >> free & 1 == 1)
                .fold(1u32 << free, |v, (_, &p)| v ^ 1 << p)
        })
        .collect()
}

/// A basis of span(a) ∩ span(b). When every vector is a power of two, the
/// common vectors in `a`'s order (Triton's heuristic); otherwise through
/// null spaces.
fn intersection(a: &[u32], b: &[u32], dim: u32) -> Vec<u32> {
    if a.iter().chain(b).all(|v| v.is_power_of_two()) {
        return a.iter().copied().filter(|v| b.contains(v)).collect();
    }
    let mut joint = null_space(a, dim);
    joint.extend(null_space(b, dim));
    null_space(&joint, dim)
}

/// The unit vectors completing `basis` to the whole space.
fn complement(basis: &[u32], dim: u32) -> Vec<u32> {
    let pivots: Vec<u32> = rref(basis).iter().map(|r| r.trailing_zeros()).collect();
    (0..dim)
        .filter(|c| !pivots.contains(c))
        .map(|c| 1 << c)
        .collect()
}

/// Solves `Σ bits(x)_i · columns[i] = target`.
struct Solver {
    /// Reduced vectors with the combination of columns they stand for.
    rows: Vec<(u32, u64)>,
}

impl Solver {
    fn new(columns: &[u32]) -> Self {
        let mut rows: Vec<(u32, u64)> = Vec::new();
        for (i, &c) in columns.iter().enumerate() {
            let (mut v, mut combo) = (c, 1u64 << i);
            for &(b, bc) in &rows {
                if v & (b & b.wrapping_neg()) != 0 {
                    v ^= b;
                    combo ^= bc;
                }
            }
            if v != 0 {
                rows.push((v, combo));
            }
        }
        Self { rows }
    }

    fn solve(&self, target: u32) -> Option<u64> {
        let (mut v, mut combo) = (target, 0u64);
        for &(b, bc) in &self.rows {
            if v & (b & b.wrapping_neg()) != 0 {
                v ^= b;
                combo ^= bc;
            }
        }
        (v == 0).then_some(combo)
    }
}

// ---- Triton's swizzled shared-memory layout ----

/// One distributed layout flattened to element indices (`dim0` minor),
/// register broadcasting removed.
#[derive(Clone, Debug)]
struct Flat {
    /// The register bits kept (not free variables), by original bit.
    kept: Vec<usize>,
    registers: Vec<u32>,
    lanes: Vec<u32>,
    warps: Vec<u32>,
    /// The layout itself (flattened, registers kept only).
    layout: LinearLayout,
}

impl Flat {
    fn of(ll: &LinearLayout) -> Result<Self, String> {
        let free = ll
            .free_variable_masks()
            .into_iter()
            .find(|(n, _)| n == "register")
            .map_or(0, |(_, m)| m);
        let all = ll.bases("register");
        let kept: Vec<usize> = (0..all.len()).filter(|b| free >> b & 1 == 0).collect();
        let layout = ll
            .with_bases("register", kept.iter().map(|&b| all[b].clone()).collect())?
            .flatten_outs()?;
        let flat =
            |name: &str| -> Vec<u32> { layout.bases(name).iter().map(|b| b[0] as u32).collect() };
        Ok(Self {
            registers: flat("register"),
            lanes: flat("lane"),
            warps: flat("warp"),
            kept,
            layout,
        })
    }
}

/// The shared-memory layout: the element each bit of a scratch index
/// selects, lowest bits first (`vector`, `bank`, `segment`, then `reps`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swizzle {
    pub vector: Vec<u32>,
    pub bank: Vec<u32>,
    pub segment: Vec<u32>,
    pub reps: Vec<u32>,
}

impl Swizzle {
    fn columns(&self) -> Vec<u32> {
        [&self.vector, &self.bank, &self.segment, &self.reps]
            .into_iter()
            .flatten()
            .copied()
            .collect()
    }

    /// Bits of one round's scratch index.
    pub fn tile_bits(&self) -> u32 {
        (self.vector.len() + self.bank.len() + self.segment.len()) as u32
    }
}

/// An instruction's shape: the lanes whose elements are contiguous in
/// memory and the lanes giving addresses in one wavefront (Triton's
/// `LocalMemOpTile`).
struct Tile {
    contiguous: &'static [usize],
    address: &'static [usize],
}

const LD_ST: Tile = Tile {
    contiguous: &[],
    address: &[0, 1, 2],
};
const MATRIX: Tile = Tile {
    contiguous: &[0, 1],
    address: &[2, 3, 4],
};
const MATRIX_TRANS: Tile = Tile {
    contiguous: &[2, 3, 4],
    address: &[0, 1],
};

fn log2(x: u32) -> u32 {
    31 - x.leading_zeros()
}

/// Triton's `computeSegment`: `len` segment bases avoiding the bank bases
/// of both sides, trading conflicts evenly when that is impossible.
fn segment(bank_src: &[u32], bank_dst: &[u32], dim: u32, len: usize) -> Vec<u32> {
    let src: HashSet<u32> = bank_src.iter().copied().filter(|&v| v != 0).collect();
    let dst: HashSet<u32> = bank_dst.iter().copied().filter(|&v| v != 0).collect();
    let mut seg: Vec<u32> = (0..dim)
        .map(|b| 1u32 << b)
        .filter(|v| !src.contains(v) && !dst.contains(v))
        .collect();
    if seg.len() >= len {
        seg.truncate(len);
        return seg;
    }
    let mut a: Vec<u32> = src.iter().copied().filter(|v| !dst.contains(v)).collect();
    let mut b: Vec<u32> = dst.iter().copied().filter(|v| !src.contains(v)).collect();
    if a.len() > b.len() {
        std::mem::swap(&mut a, &mut b);
    }
    a.sort_unstable();
    b.sort_unstable();
    let conflicts = (len as i64 - a.len() as i64 - seg.len() as i64)
        .max(0)
        .min(a.len() as i64) as usize;
    for i in conflicts..a.len() {
        seg.push(a[i] ^ b[i]);
    }
    seg.extend(&a[..conflicts]);
    seg.extend(&b[..conflicts]);
    seg.truncate(len);
    seg
}

/// Triton's `optimalSwizzling` for given vector and per-side tile bases.
fn swizzle(
    src: &Flat,
    dst: &Flat,
    bits: u32,
    dim: u32,
    vbasis: &[u32],
    [tile_src, tile_dst]: [&[u32]; 2],
    mut leave_reps: usize,
) -> Swizzle {
    let bank_src: Vec<u32> = vbasis.iter().chain(tile_src).copied().collect();
    let bank_dst: Vec<u32> = vbasis.iter().chain(tile_dst).copied().collect();
    let vec_bits = (1u32 << vbasis.len()) * bits;
    let len_bank = (log2((1024 / vec_bits).max(1)) as usize).min(dim as usize - vbasis.len());
    let len_seg = dim as usize - len_bank - vbasis.len();
    let seg = segment(&bank_src, &bank_dst, dim, len_seg);
    let union: Vec<u32> = vbasis.iter().chain(&seg).copied().collect();
    let bank = complement(&union, dim);
    // Segment bases held in registers on both sides become rounds.
    let (mut kept, mut reps) = (Vec::new(), Vec::new());
    for s in seg {
        if src.registers.contains(&s) && dst.registers.contains(&s) {
            if leave_reps > 0 {
                leave_reps -= 1;
                kept.push(s);
            } else {
                reps.push(s);
            }
        } else {
            kept.push(s);
        }
    }
    Swizzle {
        vector: vbasis.to_vec(),
        bank,
        segment: kept,
        reps,
    }
}

/// Triton 3.6's `optimalSwizzlingLdSt`: the layout for plain `st.shared`
/// and `ld.shared` accesses. The vector is the registers both sides share;
/// below one 32-bit word it is filled with registers of one side that the
/// other spreads over warps (the side with more of them, or with the
/// lowest such element on a tie), then with warp bases. Where accesses stay
/// below 128 bits, the bank bases held in registers by the side that filled
/// the word (else by the side with more of them) come first, so that side's
/// accesses widen across banks.
fn swizzle_ld_st(src: &Flat, dst: &Flat, bits: u32, dim: u32) -> Swizzle {
    let mut vbasis = intersection(&src.registers, &dst.registers, dim);
    vbasis.truncate(log2(128 / bits) as usize);
    let mut src_fills = None;
    if (1u32 << vbasis.len()) * bits < 32 {
        let per_bank = log2(32 / bits) as usize;
        let nonzero = |v: &[u32]| -> Vec<u32> { v.iter().copied().filter(|&b| b != 0).collect() };
        let (warp_src, warp_dst) = (nonzero(&src.warps), nonzero(&dst.warps));
        let outside = |regs: &[u32]| -> Vec<u32> {
            regs.iter()
                .copied()
                .filter(|r| !vbasis.contains(r))
                .collect()
        };
        let from_src = intersection(&outside(&src.registers), &warp_dst, dim);
        let from_dst = intersection(&outside(&dst.registers), &warp_src, dim);
        let fills_src = if !from_src.is_empty() && from_src.len() == from_dst.len() {
            from_src.iter().min() < from_dst.iter().min()
        } else {
            from_src.len() > from_dst.len()
        };
        src_fills = Some(fills_src);
        vbasis.extend(if fills_src { from_src } else { from_dst });
        if vbasis.len() < per_bank {
            vbasis.extend(intersection(&warp_src, &warp_dst, dim));
        }
        let mut i = 0;
        while vbasis.len() < per_bank && (i < warp_src.len() || i < warp_dst.len()) {
            if let Some(&w) = warp_src.get(i) {
                if !vbasis.contains(&w) {
                    vbasis.push(w);
                }
            }
            if let Some(&w) = warp_dst.get(i) {
                if vbasis.len() < per_bank && !vbasis.contains(&w) {
                    vbasis.push(w);
                }
            }
            i += 1;
        }
        vbasis.truncate(per_bank);
    }
    let log2_vec = log2(((1u32 << vbasis.len()) * bits / 32).max(1)) as usize;
    let tile = |lanes: &[u32]| lanes[..lanes.len().saturating_sub(log2_vec)].to_vec();
    let (ts, td) = (tile(&src.lanes), tile(&dst.lanes));
    let mut s = swizzle(src, dst, bits, dim, &vbasis, [&ts, &td], 0);
    if log2_vec < 2 {
        let held = |regs: &[u32]| -> Vec<usize> {
            (0..s.bank.len())
                .filter(|&i| regs.contains(&s.bank[i]))
                .collect()
        };
        let (in_src, in_dst) = (held(&src.registers), held(&dst.registers));
        let mut order = match src_fills {
            Some(true) => in_src,
            Some(false) => in_dst,
            None if in_src.len() > in_dst.len() => in_src,
            None => in_dst,
        };
        order.extend(
            (0..s.bank.len())
                .filter(|i| !order.contains(i))
                .collect::<Vec<_>>(),
        );
        s.bank = order.iter().map(|&i| s.bank[i]).collect();
    }
    s
}

/// Triton's `optimalSwizzlingTile`: the vector of an instruction pair.
fn pair_vector(
    a: &Flat,
    b: &Flat,
    regs_a: usize,
    regs_b: usize,
    lanes_a: &[usize],
    lanes_b: &[usize],
    dim: u32,
) -> Option<Vec<u32>> {
    if regs_a < regs_b {
        return pair_vector(b, a, regs_b, regs_a, lanes_b, lanes_a, dim);
    }
    let cvt = b.layout.invert_and_compose(&a.layout).ok()?;
    let mut vbasis = intersection(&a.registers, &b.registers, dim);
    if vbasis.len() < regs_b {
        return None;
    }
    vbasis.truncate(regs_b);
    let pick = |lanes: &[u32], ids: &[usize]| -> Option<Vec<u32>> {
        ids.iter().map(|&i| lanes.get(i).copied()).collect()
    };
    let tile_a = pick(&a.lanes, lanes_a)?;
    let tile_b = pick(&b.lanes, lanes_b)?;
    if tile_a.iter().chain(&tile_b).any(|&v| v == 0) {
        return None;
    }
    for &i in lanes_b.iter().take(regs_a - regs_b) {
        if cvt.basis("lane", i, "register") == 0 {
            return None;
        }
    }
    let tail = &lanes_b[lanes_b.len() - lanes_a.len()..];
    for (&ia, &ib) in lanes_a.iter().zip(tail) {
        if cvt.basis("lane", ib, "lane") != 1 << ia {
            return None;
        }
    }
    vbasis.extend(tile_b);
    Some(vbasis)
}

/// Triton's `bankConflicts` estimate (reads + writes beyond the first
/// wavefront) of a layout for the given per-side tiles.
fn estimated_conflicts(tile_src: &[u32], tile_dst: &[u32], s: &Swizzle, dim: u32) -> u32 {
    let write = (1u32 << intersection(&s.segment, tile_src, dim).len()) - 1;
    let read = (1u32 << intersection(&s.segment, tile_dst, dim).len()) - 1;
    read + write
}

/// Triton's NVIDIA choice of shared-memory layout (`optimalSwizzling` over
/// the instruction tiles of compute capability `cc`).
fn choose(src: &Flat, dst: &Flat, bits: u32, dim: u32, cc: u32) -> (Swizzle, [bool; 2]) {
    let mut src_tiles = vec![&LD_ST];
    let mut dst_tiles = vec![&LD_ST];
    if bits <= 32 {
        if cc >= 90 {
            src_tiles.push(&MATRIX);
        }
        if cc >= 75 {
            dst_tiles.push(&MATRIX);
        }
    }
    if bits == 16 {
        if cc >= 90 {
            src_tiles.push(&MATRIX_TRANS);
        }
        if cc >= 75 {
            dst_tiles.push(&MATRIX_TRANS);
        }
    }
    let total = log2(128 / bits) as usize;
    let tile_of = |t: &Tile, flat: &Flat, vbasis: &[u32]| -> Option<Vec<u32>> {
        let needed = 3 - t.address.len();
        let mut tile: Vec<u32> = flat
            .registers
            .iter()
            .copied()
            .filter(|r| !vbasis.contains(r))
            .take(needed)
            .collect();
        if tile.len() < needed {
            return None;
        }
        for &i in t.address {
            tile.push(*flat.lanes.get(i)?);
        }
        Some(tile)
    };
    let mut best: Option<(u32, Swizzle, [bool; 2])> = None;
    for ts in &src_tiles {
        for td in &dst_tiles {
            let (Some(rs), Some(rd)) = (
                total.checked_sub(ts.contiguous.len()),
                total.checked_sub(td.contiguous.len()),
            ) else {
                continue;
            };
            let Some(vbasis) = pair_vector(src, dst, rs, rd, ts.contiguous, td.contiguous, dim)
            else {
                continue;
            };
            let (Some(tile_src), Some(tile_dst)) =
                (tile_of(ts, src, &vbasis), tile_of(td, dst, &vbasis))
            else {
                continue;
            };
            let missing = |t: &Tile| t.contiguous.len() + t.address.len() - 3;
            let leave = missing(ts).min(missing(td));
            let s = swizzle(src, dst, bits, dim, &vbasis, [&tile_src, &tile_dst], leave);
            let cost = estimated_conflicts(&tile_src, &tile_dst, &s, dim);
            let better = match &best {
                None => true,
                Some((c, b, _)) => cost < *c || (cost == *c && s.reps.len() > b.reps.len()),
            };
            if better {
                let matrix = |t: &Tile| !t.contiguous.is_empty();
                best = Some((cost, s, [matrix(ts), matrix(td)]));
            }
        }
    }
    match best {
        Some((_, s, matrix)) => (s, matrix),
        None => (swizzle_ld_st(src, dst, bits, dim), [false; 2]),
    }
}

// ---- the access plan ----

/// One vector access: the registers (in element order) at `offset`
/// (elements, this thread's part XOR-ed in at run time) in round `rep`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub rep: usize,
    pub offset: u32,
    pub registers: Vec<usize>,
}

/// One side of the round trip (the stores of the source or the loads of
/// the destination).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// Elements per access.
    pub vector: usize,
    pub groups: Vec<Group>,
    /// What each lane bit and warp bit XORs into the offset.
    pub lanes: Vec<u32>,
    pub warps: Vec<u32>,
    /// Registers with no access of their own: (register, register holding
    /// the same element).
    pub copies: Vec<(usize, usize)>,
    /// Distinct addresses a bank sees in one wavefront of an access (1 =
    /// conflict-free), from the linear map of the wavefront's lanes.
    pub conflicts: u32,
    /// Whether Triton's choice of layout was made for `stmatrix` (stores)
    /// or `ldmatrix` (loads) on this side rather than for `st.shared` or
    /// `ld.shared`.
    pub matrix: bool,
}

/// The shared-memory round trip of a conversion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Bits of one element in memory: `max(bits, 8)`, pointers 64.
    pub bits: u32,
    pub swizzle: Swizzle,
    /// Rounds; the scratch holds `numel / reps` elements.
    pub reps: usize,
    pub scratch_elements: u64,
    pub store: Side,
    pub load: Side,
}

/// The swizzled round trip from `src` to `dst` for elements of `bits` bits
/// in memory (8, 16, 32 or 64) on compute capability `cc`.
pub fn plan(src: &LinearLayout, dst: &LinearLayout, bits: u32, cc: u32) -> Result<Plan, String> {
    if ![8, 16, 32, 64].contains(&bits) {
        return Err(format!("elements of {bits} bits"));
    }
    for ll in [src, dst] {
        if ll.has_in_dim("block") && ll.in_dim_size("block") > 1 {
            return Err("layouts over several CTAs".into());
        }
    }
    let numel = src.total_out_size();
    if numel != dst.total_out_size() || numel > 1 << 30 {
        return Err("tensors whose layouts cover different or unsupported sizes".into());
    }
    let dim = numel.trailing_zeros();
    let fs = Flat::of(src)?;
    let fd = Flat::of(dst)?;
    let (swizzle, [store_matrix, load_matrix]) = choose(&fs, &fd, bits, dim, cc);
    let columns = swizzle.columns();
    if rref(&columns).len() != dim as usize {
        return Err("the shared-memory layout is not a bijection".into());
    }
    let solver = Solver::new(&columns);
    let tile_bits = swizzle.tile_bits();
    let reps = 1usize << swizzle.reps.len();
    let store = side(&solver, &fs, src, bits, tile_bits, true, store_matrix)?;
    let load = side(&solver, &fd, dst, bits, tile_bits, false, load_matrix)?;
    Ok(Plan {
        bits,
        reps,
        scratch_elements: (numel as u64) >> swizzle.reps.len(),
        swizzle,
        store,
        load,
    })
}

fn side(
    solver: &Solver,
    flat: &Flat,
    original: &LinearLayout,
    bits: u32,
    tile_bits: u32,
    store: bool,
    matrix: bool,
) -> Result<Side, String> {
    let index = |element: u32| -> Result<u32, String> {
        solver
            .solve(element)
            .map(|c| c as u32)
            .ok_or_else(|| "an element outside the shared-memory layout".to_owned())
    };
    let regs: Vec<u32> = flat
        .registers
        .iter()
        .map(|&e| index(e))
        .collect::<Result<_, _>>()?;
    let lanes: Vec<u32> = flat
        .lanes
        .iter()
        .map(|&e| index(e))
        .collect::<Result<_, _>>()?;
    let warps: Vec<u32> = flat
        .warps
        .iter()
        .map(|&e| index(e))
        .collect::<Result<_, _>>()?;
    let tile_mask = (1u32 << tile_bits) - 1;
    if lanes.iter().chain(&warps).any(|&v| v & !tile_mask != 0) {
        return Err("a round of the shared-memory layout that depends on the thread".into());
    }
    // Vector width: registers at offsets 1, 2, 4, ... (in any register
    // order) that nothing else touches.
    let max_vector = log2(128 / bits) as usize;
    let mut lanes_of_vector: Vec<usize> = Vec::new();
    while lanes_of_vector.len() < max_vector {
        let want = 1u32 << lanes_of_vector.len();
        match regs.iter().position(|&v| v == want) {
            Some(j) => lanes_of_vector.push(j),
            None => break,
        }
    }
    loop {
        let low = (1u32 << lanes_of_vector.len()) - 1;
        let others = (0..regs.len())
            .filter(|j| !lanes_of_vector.contains(j))
            .map(|j| regs[j])
            .chain(lanes.iter().copied())
            .chain(warps.iter().copied());
        if others.into_iter().all(|v| v & low == 0) {
            break;
        }
        lanes_of_vector.pop();
    }
    let vector = 1usize << lanes_of_vector.len();
    let rest: Vec<usize> = (0..regs.len())
        .filter(|j| !lanes_of_vector.contains(j))
        .collect();
    let register_of = |j: usize| -> usize {
        flat.kept
            .iter()
            .enumerate()
            .filter(|&(i, _)| j >> i & 1 == 1)
            .fold(0, |r, (_, &bit)| r | 1 << bit)
    };
    let spread = |bits: &[usize], n: usize| -> usize {
        bits.iter()
            .enumerate()
            .filter(|&(i, _)| n >> i & 1 == 1)
            .fold(0, |j, (_, &b)| j | 1 << b)
    };
    let mut groups = Vec::new();
    for g in 0..1usize << rest.len() {
        let base = spread(&rest, g);
        let at = rest
            .iter()
            .filter(|&&b| base >> b & 1 == 1)
            .fold(0, |a, &b| a ^ regs[b]);
        groups.push(Group {
            rep: (at >> tile_bits) as usize,
            offset: at & tile_mask,
            registers: (0..vector)
                .map(|i| register_of(base | spread(&lanes_of_vector, i)))
                .collect(),
        });
    }
    groups.sort_by_key(|g| g.rep);
    // Registers left out (broadcast copies): the register with the same
    // element among those accessed. Stores skip them.
    let mut copies = Vec::new();
    if !store {
        let mut first: HashMap<Vec<i32>, usize> = HashMap::new();
        let accessed: HashSet<usize> = groups.iter().flat_map(|g| g.registers.clone()).collect();
        let element = |r: usize| original.apply_index(&register_index(original, r));
        for &r in &accessed {
            first.insert(element(r), r);
        }
        for r in 0..original.in_dim_size("register") as usize {
            if !accessed.contains(&r) {
                let e = element(r);
                let from = *first
                    .get(&e)
                    .ok_or_else(|| "a register with no element of its own".to_owned())?;
                copies.push((r, from));
            }
        }
    }
    let conflicts = bank_conflicts(&lanes, vector as u32 * bits / 8, bits / 8);
    Ok(Side {
        vector,
        groups,
        lanes,
        warps,
        copies,
        conflicts,
        matrix,
    })
}

/// The input index of `ll` for register `r` of lane 0, warp 0.
fn register_index(ll: &LinearLayout, r: usize) -> Vec<i32> {
    ll.ins()
        .iter()
        .map(|(n, _)| if n == "register" { r as i32 } else { 0 })
        .collect()
}

/// The lanes that share one wavefront for an access of `bytes` bytes:
/// 8 for 16-byte, 16 for 8-byte and all 32 for smaller accesses.
pub fn lanes_per_wavefront(bytes: u32) -> u32 {
    match bytes {
        16.. => 8,
        8 => 16,
        _ => 32,
    }
}

/// Distinct addresses per bank in one wavefront, when lane bit `b` XORs
/// `lanes[b]` elements of `element_bytes` into the offset and each lane
/// accesses `bytes` contiguous bytes: the units (`max(bytes, 4)`-byte
/// slots) the wavefront's lanes reach that fall in bank group 0.
fn bank_conflicts(lanes: &[u32], bytes: u32, element_bytes: u32) -> u32 {
    let unit = bytes.max(4);
    let per_wavefront = log2(lanes_per_wavefront(bytes)) as usize;
    let banks = 128 / unit;
    let units: Vec<u32> = lanes
        .iter()
        .take(per_wavefront)
        .map(|&l| l * element_bytes / unit)
        .collect();
    let span = rref(&units);
    let bank_rank = rref(&span.iter().map(|u| u % banks).collect::<Vec<_>>()).len();
    1 << (span.len() - bank_rank)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;
    use crate::to_linear::to_linear_layout;

    fn element(ll: &LinearLayout, reg: usize, lane: usize, warp: usize) -> Vec<i32> {
        let index: Vec<i32> = ll
            .ins()
            .iter()
            .map(|(n, _)| match n.as_str() {
                "register" => reg as i32,
                "lane" => lane as i32,
                "warp" => warp as i32,
                _ => 0,
            })
            .collect();
        ll.apply_index(&index)
    }

    fn thread_part(side: &Side, lane: usize, warp: usize) -> u32 {
        let bits = |v: &[u32], id: usize| {
            v.iter()
                .enumerate()
                .filter(|&(b, _)| id >> b & 1 == 1)
                .fold(0, |a, (_, &x)| a ^ x)
        };
        bits(&side.lanes, lane) ^ bits(&side.warps, warp)
    }

    /// The most distinct units one bank sees in a wavefront of `group`.
    fn simulated_conflicts(side: &Side, group: &Group, bits: u32, warp: usize) -> u32 {
        let bytes = side.vector as u32 * bits / 8;
        let unit = bytes.max(4);
        let per = lanes_per_wavefront(bytes) as usize;
        let mut worst = 0;
        for start in (0..32).step_by(per) {
            let mut by_bank: HashMap<u32, HashSet<u32>> = HashMap::new();
            for lane in start..start + per {
                let offset = group.offset ^ thread_part(side, lane, warp);
                let u = offset * (bits / 8) / unit;
                by_bank.entry(u % (128 / unit)).or_default().insert(u);
            }
            worst = worst.max(by_bank.values().map(|s| s.len() as u32).max().unwrap());
        }
        worst
    }

    /// Runs the plan on every thread of a CTA and checks that each
    /// destination register receives its element, that nothing collides in
    /// the scratch, and that no wavefront has more bank conflicts than the
    /// plan claims. Returns the plan.
    fn simulate(src: &Layout, dst: &Layout, shape: &[i64], bits: u32) -> Plan {
        let s = to_linear_layout(src, shape).unwrap();
        let d = to_linear_layout(dst, shape).unwrap();
        assert_eq!(classify(&s, &d).unwrap(), Movement::SharedMemory);
        let p = plan(&s, &d, bits, 90).unwrap();
        let warps = s.in_dim_size("warp") as usize;
        assert_eq!(warps, d.in_dim_size("warp") as usize);
        let lanes = 32;
        let size = p.scratch_elements as u32;
        for rep in 0..p.reps {
            let mut memory: HashMap<u32, Vec<i32>> = HashMap::new();
            for w in 0..warps {
                for l in 0..lanes {
                    let t = thread_part(&p.store, l, w);
                    for g in p.store.groups.iter().filter(|g| g.rep == rep) {
                        assert_eq!(g.offset & t & (p.store.vector as u32 - 1), 0);
                        for (i, &r) in g.registers.iter().enumerate() {
                            let at = (g.offset ^ t) + i as u32;
                            assert!(at < size, "offset {at} past the scratch");
                            let e = element(&s, r, l, w);
                            let old = memory.insert(at, e.clone());
                            assert!(old.is_none() || old == Some(e), "collision at {at}");
                        }
                    }
                }
            }
            for w in 0..warps {
                for l in 0..lanes {
                    let t = thread_part(&p.load, l, w);
                    for g in p.load.groups.iter().filter(|g| g.rep == rep) {
                        for (i, &r) in g.registers.iter().enumerate() {
                            let at = (g.offset ^ t) + i as u32;
                            assert_eq!(memory.get(&at), Some(&element(&d, r, l, w)));
                        }
                    }
                }
            }
        }
        let loaded: HashSet<usize> = p
            .load
            .groups
            .iter()
            .flat_map(|g| g.registers.clone())
            .chain(p.load.copies.iter().map(|c| c.0))
            .collect();
        assert_eq!(loaded.len(), d.in_dim_size("register") as usize);
        for &(r, from) in &p.load.copies {
            assert_eq!(element(&d, r, 0, 0), element(&d, from, 0, 0));
        }
        for (side, n) in [
            (&p.store, s.in_dim_size("register")),
            (&p.load, d.in_dim_size("register")),
        ] {
            assert!(side.groups.len() * side.vector <= n as usize);
            for g in &side.groups {
                for w in 0..warps {
                    let seen = simulated_conflicts(side, g, bits, w);
                    assert!(seen <= side.conflicts, "{seen} > {}", side.conflicts);
                }
            }
        }
        p
    }

    #[test]
    fn transpose_64x64_f32() {
        let a = Layout::blocked(&[1, 4], &[8, 4], &[4, 1], &[1, 0]);
        let b = Layout::blocked(&[4, 1], &[4, 8], &[1, 4], &[0, 1]);
        let p = simulate(&a, &b, &[64, 64], 32);
        assert_eq!((p.store.vector, p.load.vector), (4, 4));
        assert_eq!((p.store.conflicts, p.load.conflicts), (1, 1));
        assert_eq!(p.scratch_elements, 4096);
    }

    #[test]
    fn mma_v3_epilogue_128x128_f32() {
        let a = Layout::nvidia_mma(3, &[4, 1], &[16, 128, 16]);
        let b = Layout::blocked(&[1, 4], &[2, 16], &[4, 1], &[1, 0]);
        let p = simulate(&a, &b, &[128, 128], 32);
        assert_eq!(p.load.vector, 4);
    }

    #[test]
    fn mma_v3_to_blocked_f16_corpus() {
        let a = Layout::nvidia_mma(3, &[8, 1], &[16, 128, 16]);
        let b = Layout::blocked(&[1, 1], &[1, 32], &[2, 4], &[1, 0]);
        simulate(&a, &b, &[128, 128], 16);
        let a = Layout::nvidia_mma(2, &[2, 2], &[16, 8]);
        let b = Layout::blocked(&[1, 2], &[4, 8], &[4, 1], &[1, 0]);
        simulate(&a, &b, &[16, 16], 16);
    }

    #[test]
    fn slices_and_broadcasts() {
        let parent = Layout::blocked(&[1, 4], &[4, 8], &[4, 1], &[1, 0]);
        let other = Layout::blocked(&[4, 1], &[32, 1], &[1, 4], &[0, 1]);
        simulate(
            &Layout::slice(0, parent.clone()),
            &Layout::slice(0, other.clone()),
            &[128],
            32,
        );
        simulate(
            &Layout::slice(1, parent),
            &Layout::slice(1, other),
            &[64],
            8,
        );
        let a = Layout::blocked(&[1], &[32], &[4], &[0]);
        let b = Layout::blocked(&[4], &[32], &[4], &[0]);
        let p = simulate(&a, &b, &[512], 32);
        assert_eq!(p.load.vector, 4);
        // A tensor smaller than the layout (broadcast registers and lanes).
        simulate(&a, &b, &[64], 16);
        simulate(&b, &a, &[2048], 64);
    }

    #[test]
    fn register_permutations_need_no_memory() {
        let a = Layout::blocked(&[1, 4], &[32, 1], &[4, 1], &[1, 0]);
        let b = Layout::blocked(&[1, 4], &[32, 1], &[4, 1], &[0, 1]);
        let s = to_linear_layout(&a, &[128, 4]).unwrap();
        let d = to_linear_layout(&b, &[128, 4]).unwrap();
        assert_eq!(classify(&s, &d).unwrap(), Movement::Registers);
    }

    /// A one-dimensional layout from its register, lane and warp bases.
    fn flat(regs: &[i32], lanes: &[i32], warps: &[i32]) -> LinearLayout {
        let dim = |v: &[i32]| v.iter().map(|&b| vec![b]).collect::<Vec<_>>();
        LinearLayout::from_bases(
            vec![
                ("register".into(), dim(regs)),
                ("lane".into(), dim(lanes)),
                ("warp".into(), dim(warps)),
                ("block".into(), vec![]),
            ],
            &["dim0"],
        )
        .unwrap()
    }

    /// Classifies, plans and runs a conversion on every warp: each
    /// destination register of each lane must receive its element, and
    /// each step must be of the kind Triton emits. Returns the plan.
    fn shuffle(s: &LinearLayout, d: &LinearLayout) -> ShufflePlan {
        let p = shuffle_bits(s, d, 32);
        assert_eq!(p.pack, 0);
        p
    }

    /// [`shuffle`] for elements of `bits` bits.
    fn shuffle_bits(s: &LinearLayout, d: &LinearLayout, bits: u32) -> ShufflePlan {
        assert_eq!(classify(s, d).unwrap(), Movement::WarpShuffle);
        let p = shuffle_plan(s, d, bits).unwrap();
        let lanes = s.in_dim_size("lane") as usize;
        for w in 0..s.in_dim_size("warp") as usize {
            let src: Vec<Vec<Vec<i32>>> = (0..lanes)
                .map(|l| {
                    (0..s.in_dim_size("register") as usize)
                        .map(|r| element(s, r, l, w))
                        .collect()
                })
                .collect();
            let out = p.run(&src).expect("no torn element");
            for (l, regs) in out.iter().enumerate() {
                assert_eq!(regs.len(), d.in_dim_size("register") as usize);
                for (r, e) in regs.iter().enumerate() {
                    assert_eq!(e, &element(d, r, l, w), "lane {l} register {r}");
                }
            }
        }
        p
    }

    #[test]
    fn one_register_lane_swap_ships() {
        // Register bit 0 and lane bit 0 trade places; lanes keep their order.
        let s = flat(&[1], &[2, 4, 8, 16, 32], &[64, 128]);
        let d = flat(&[2], &[1, 4, 8, 16, 32], &[64, 128]);
        let p = shuffle(&s, &d);
        assert_eq!(
            p.steps,
            vec![Step::Ship {
                register: 0,
                lane: 0
            }]
        );
        // The same swap of a higher register bit, with more registers.
        let s = flat(&[1, 2, 64], &[4, 8, 16, 32, 128], &[]);
        let d = flat(&[1, 2, 128], &[4, 8, 16, 32, 64], &[]);
        let p = shuffle(&s, &d);
        assert_eq!(
            p.steps,
            vec![Step::Ship {
                register: 2,
                lane: 4
            }]
        );
    }

    /// Register bit 0 and lane bit 0 trade places, register bit 1 stays.
    fn r0_l0() -> (LinearLayout, LinearLayout) {
        (
            flat(&[1, 64], &[2, 4, 8, 16, 32], &[]),
            flat(&[2, 64], &[1, 4, 8, 16, 32], &[]),
        )
    }

    #[test]
    fn halves_ship_with_byte_permutes() {
        // f16: two elements per word; the swapped register bit is packed,
        // so the free register bit pairs the words and prmt selects the
        // halves (the selectors of Triton 3.6's LLIR for this conversion).
        let (s, d) = r0_l0();
        let p = shuffle_bits(&s, &d, 16);
        assert_eq!((p.pack, p.words()), (1, 2));
        let ship = Step::ShipPermute {
            register: 0,
            lane: 0,
            send: [0x7632, 0x5410],
            keep0: [0x5410, 0x3254],
            keep1: [0x7610, 0x3276],
        };
        assert_eq!(p.steps, vec![ship.clone()]);
        // i8 with the same bits: packing is bounded by the free register
        // bits (one), so bytes travel in 16-bit slots, the same way.
        let p = shuffle_bits(&s, &d, 8);
        assert_eq!((p.pack, p.steps.clone()), (1, vec![ship]));
        // One register bit, taken by the transposition: no packing.
        let s = flat(&[1], &[2, 4, 8, 16, 32], &[]);
        let d = flat(&[2], &[1, 4, 8, 16, 32], &[]);
        let p = shuffle_bits(&s, &d, 8);
        assert_eq!(p.pack, 0);
        assert_eq!(
            p.steps,
            vec![Step::Ship {
                register: 0,
                lane: 0
            }]
        );
        // 32- and 64-bit elements never pack.
        assert_eq!(shuffle_bits(&r0_l0().0, &r0_l0().1, 64).pack, 0);
    }

    #[test]
    fn bytes_conjugated_by_a_partner_bit() {
        // (l0 r0 r1) with r2 free: all of the cycle's register bits are
        // packed, so Triton conjugates by the partner r2. Its out-of-place
        // selectors for this cycle tear the bytes (the same conversion
        // compiled by Triton 3.6 returns wrong data on an H100), so the
        // plan takes the in-place method with the same pre/post selectors.
        let s = flat(&[1, 2, 128], &[4, 8, 16, 32, 64], &[]);
        let d = flat(&[4, 1, 128], &[2, 8, 16, 32, 64], &[]);
        let p = shuffle_bits(&s, &d, 8);
        assert_eq!((p.pack, p.words()), (2, 2));
        assert_eq!(
            p.steps,
            vec![
                Step::Permute {
                    register: 0,
                    lane: 0,
                    clear: [0x5140, 0x7362],
                    set: [0x7362, 0x5140],
                },
                Step::Shuffle {
                    sources: None,
                    masks: vec![0, 1],
                },
                Step::Permute {
                    register: 0,
                    lane: 0,
                    clear: [0x6240, 0x7351],
                    set: [0x2604, 0x3715],
                },
            ]
        );
        // (r0 r1)(r2 l0): the packed bits only swap among themselves and
        // stay in P_reg (before packing); the words ship with selects.
        let s = flat(&[1, 2, 4], &[8, 16, 32, 64, 128], &[]);
        let d = flat(&[2, 1, 8], &[4, 16, 32, 64, 128], &[]);
        let p = shuffle_bits(&s, &d, 8);
        assert_eq!(p.pack, 2);
        assert_eq!(
            p.steps,
            vec![Step::Ship {
                register: 0,
                lane: 0
            }]
        );
        // (l0 r0 r2 ...) with a lane rotation: prmt before and after the
        // indexed shuffles.
        let s = flat(&[1, 2, 4], &[8, 16, 32, 64, 128], &[]);
        let d = flat(&[8, 2, 4], &[16, 32, 64, 128, 1], &[]);
        let p = shuffle_bits(&s, &d, 8);
        assert_eq!(p.pack, 2);
        assert!(matches!(
            p.steps.as_slice(),
            [
                Step::Permute { .. },
                Step::Shuffle {
                    sources: Some(_),
                    ..
                },
                Step::Permute { .. }
            ]
        ));
    }

    #[test]
    fn packed_lane_permutations() {
        // No transposition: both register bits pack, one idx shuffle per
        // word.
        let s = flat(&[1, 2], &[4, 8, 16, 32, 64], &[]);
        let d = flat(&[1, 2], &[8, 4, 16, 32, 64], &[]);
        let p = shuffle_bits(&s, &d, 16);
        assert_eq!((p.pack, p.words()), (1, 2));
        let p = shuffle_bits(&s, &d, 8);
        assert_eq!((p.pack, p.words()), (2, 1));
        // A high register bit through the lanes with a rotation: pack the
        // low one, select on the words.
        let d = flat(&[1, 64], &[2, 4, 8, 16, 32], &[]);
        let p = shuffle_bits(&s, &d, 16);
        assert_eq!(p.pack, 1);
        assert!(matches!(
            p.steps.as_slice(),
            [
                Step::Swap { register: 0, .. },
                Step::Shuffle { .. },
                Step::Swap { register: 0, .. }
            ]
        ));
        shuffle_bits(&d, &s, 16);
        shuffle_bits(&d, &s, 8);
    }

    #[test]
    fn prmt_picks_bytes() {
        assert_eq!(prmt(&[0, 1, 2, 3], &[4, 5, 6, 7], 0x5140), vec![0, 4, 1, 5]);
        assert_eq!(exchange_selector_bit(PRMT_FIRST, 0, 1), 0x5410);
        assert_eq!(exchange_selector_bit(PRMT_SECOND, 0, 2), 0x7351);
    }

    #[test]
    fn lane_permutations_and_rotations_use_indexed_shuffles() {
        // Lanes only: one idx shuffle per register, no selects.
        let s = flat(&[64], &[1, 2, 4, 8, 16], &[32]);
        let d = flat(&[64], &[2, 1, 4, 8, 16], &[32]);
        let p = shuffle(&s, &d);
        assert!(matches!(
            p.steps.as_slice(),
            [Step::Shuffle {
                sources: Some(_),
                ..
            }]
        ));
        // blocked<[2]> -> blocked<[1]> over 64 elements: the register bit
        // enters the lanes at the bottom and lane bit 4 leaves: one
        // transposition plus a lane rotation.
        let s = flat(&[1], &[2, 4, 8, 16, 32], &[]);
        let d = flat(&[32], &[1, 2, 4, 8, 16], &[]);
        let p = shuffle(&s, &d);
        assert_eq!(p.steps.len(), 3);
        assert!(matches!(
            p.steps[1],
            Step::Shuffle {
                sources: Some(_),
                ..
            }
        ));
        shuffle(&d, &s);
    }

    #[test]
    fn broadcasts_are_dropped_and_restored() {
        // The destination repeats registers; lanes repeat on both sides.
        let s = flat(&[1], &[2, 4, 8, 0, 0], &[]);
        let d = flat(&[2, 0], &[1, 4, 8, 0, 0], &[]);
        shuffle(&s, &d);
        shuffle(&d, &s);
        // Two elements leave the registers for lanes that broadcast, so
        // P pairs the freed register bit with the broadcast lane bit: two
        // mixed transpositions.
        let s = flat(&[1, 2], &[4, 8, 16, 0, 0], &[]);
        let d = flat(&[4, 0], &[1, 2, 8, 16, 0], &[]);
        assert_eq!(classify(&s, &d).unwrap(), Movement::SharedMemory);
        let s = flat(&[1], &[2, 4, 8, 16, 32], &[]);
        let d = flat(&[0, 2], &[1, 4, 8, 16, 32], &[]);
        shuffle(&s, &d);
        shuffle(&d, &s);
    }

    #[test]
    fn two_mixed_transpositions_go_through_memory() {
        let s = flat(&[1, 2], &[4, 8, 16, 32, 64], &[]);
        let d = flat(&[4, 8], &[1, 2, 16, 32, 64], &[]);
        assert_eq!(classify(&s, &d).unwrap(), Movement::SharedMemory);
        // Data crossing warps never shuffles.
        let s = flat(&[1], &[2, 4, 8, 16, 32], &[64]);
        let d = flat(&[1], &[2, 4, 8, 16, 64], &[32]);
        assert_eq!(classify(&s, &d).unwrap(), Movement::SharedMemory);
    }

    #[test]
    fn blocked_conversions_within_a_warp() {
        // 1 warp, 16x16: 4 columns per thread over 8x4 lanes -> 4 rows per
        // thread over 4x8 lanes (two register/lane swaps: memory).
        let a = Layout::blocked(&[1, 4], &[8, 4], &[1, 1], &[1, 0]);
        let b = Layout::blocked(&[4, 1], &[4, 8], &[1, 1], &[0, 1]);
        let s = to_linear_layout(&a, &[32, 32]).unwrap();
        let d = to_linear_layout(&b, &[32, 32]).unwrap();
        assert_eq!(classify(&s, &d).unwrap(), Movement::SharedMemory);
        // 4 warps along rows, 2 -> 1 columns per thread across 32 lanes of
        // a row: one swap.
        let a = Layout::blocked(&[1, 2], &[1, 32], &[4, 1], &[1, 0]);
        let b = Layout::blocked(&[1, 1], &[1, 32], &[4, 1], &[1, 0]);
        let s = to_linear_layout(&a, &[4, 64]).unwrap();
        let d = to_linear_layout(&b, &[4, 64]).unwrap();
        shuffle(&s, &d);
        shuffle(&d, &s);
        // 32 columns: lanes broadcast on both sides.
        let s = to_linear_layout(&a, &[4, 32]).unwrap();
        let d = to_linear_layout(&b, &[4, 32]).unwrap();
        shuffle(&s, &d);
        // 16-bit-style pairs: 4 -> 2 columns per thread, 8 warps.
        let a = Layout::blocked(&[1, 4], &[2, 16], &[8, 1], &[1, 0]);
        let b = Layout::blocked(&[1, 2], &[1, 32], &[8, 1], &[1, 0]);
        let s = to_linear_layout(&a, &[16, 64]).unwrap();
        let d = to_linear_layout(&b, &[16, 64]).unwrap();
        assert_eq!(classify(&s, &d).unwrap(), Movement::SharedMemory);
    }

    #[test]
    fn gf2_helpers() {
        assert_eq!(null_space(&[0b011], 3), vec![0b011, 0b100]);
        assert_eq!(intersection(&[0b011, 0b100], &[0b111, 0b010], 3).len(), 1);
        assert_eq!(complement(&[0b110], 3), vec![0b001, 0b100]);
        assert_eq!(Solver::new(&[0b01, 0b11]).solve(0b10), Some(0b11));
    }
}
