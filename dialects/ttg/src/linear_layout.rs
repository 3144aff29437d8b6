//! Linear layouts: Triton's `LinearLayout` as a pure Rust value.
//!
//! A linear layout is a linear map over GF(2) from named input dimensions
//! (`register`, `lane`, `warp`, `block`, or `offset` for shared memory) to
//! named output dimensions (`dim0`, `dim1`, ...). Every input dimension has
//! a power-of-two size and is described by one basis vector per bit of its
//! index: the output coordinates that bit maps to. An input index is mapped
//! by XOR-ing the basis vectors of its set bits. Output dimensions carry a
//! power-of-two size too; every basis value lies below it.
//!
//! Dimension order matters: the first input dimension is the most minor one
//! when input dimensions are flattened, and likewise for outputs (`dim0` is
//! the most minor output when outputs are flattened).
//!
//! Fallible operations return `Err(String)` with a readable reason; the
//! product operator `*` panics on inputs Triton asserts against (dimension
//! orders that cannot be merged), and [`LinearLayout::try_mul`] reports it.

use std::fmt;
use std::ops::{Mul, MulAssign};

/// One input dimension: its name and one basis vector per bit.
pub type InDim = (String, Vec<Vec<i32>>);

/// A linear map over GF(2) from named input to named output dimensions.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct LinearLayout {
    ins: Vec<InDim>,
    outs: Vec<(String, i32)>,
}

fn log2(size: i32) -> u32 {
    size.trailing_zeros()
}

fn is_pow2(size: i32) -> bool {
    size > 0 && (size & (size - 1)) == 0
}

/// Smallest power of two strictly greater than `v` (1 for 0).
fn size_above(v: i32) -> i32 {
    if v <= 0 {
        1
    } else {
        1 << (32 - (v as u32).leading_zeros())
    }
}

/// An XOR basis that remembers which original columns make up each vector,
/// used for ranks, free variables and solving `outer(x) = y`.
struct Eliminator {
    /// Indexed by pivot bit: the reduced vector and the columns it combines.
    pivots: Vec<Option<(u64, u64)>>,
}

impl Eliminator {
    fn new() -> Self {
        Self {
            pivots: vec![None; 64],
        }
    }

    /// Reduces `v` against the basis; returns the remainder and the
    /// combination of columns used.
    fn reduce(&self, mut v: u64) -> (u64, u64) {
        let mut combo = 0;
        for bit in (0..64).rev() {
            if v >> bit & 1 == 1 {
                match self.pivots[bit] {
                    Some((vec, c)) => {
                        v ^= vec;
                        combo ^= c;
                    }
                    None => return (v, combo),
                }
            }
        }
        (v, combo)
    }

    /// Adds column `index` with value `v`; returns false when it depends on
    /// the columns added before (a free variable).
    fn add(&mut self, index: usize, v: u64) -> bool {
        let (rest, combo) = self.reduce(v);
        if rest == 0 {
            return false;
        }
        let pivot = 63 - rest.leading_zeros() as usize;
        self.pivots[pivot] = Some((rest, combo ^ (1u64 << index)));
        true
    }

    /// Columns whose XOR is `y`, if any (free variables are left out).
    fn solve(&self, y: u64) -> Option<u64> {
        let mut v = y;
        let mut combo = 0;
        for bit in (0..64).rev() {
            if v >> bit & 1 == 1 {
                let (vec, c) = self.pivots[bit]?;
                v ^= vec;
                combo ^= c;
            }
        }
        (v == 0).then_some(combo)
    }
}

/// Merges two dimension orders into the shortest order that contains both
/// as subsequences (Triton's `supremum`).
fn supremum(x: &[String], y: &[String]) -> Result<Vec<String>, String> {
    let mut result = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < x.len() || j < y.len() {
        if i == x.len() {
            result.push(y[j].clone());
            j += 1;
        } else if j == y.len() {
            result.push(x[i].clone());
            i += 1;
        } else if x[i] == y[j] {
            result.push(x[i].clone());
            i += 1;
            j += 1;
        } else if y[j..].contains(&x[i]) {
            if x[i..].contains(&y[j]) {
                return Err(format!("dimension orders {x:?} and {y:?} cannot be merged"));
            }
            result.push(y[j].clone());
            j += 1;
        } else {
            result.push(x[i].clone());
            i += 1;
        }
    }
    Ok(result)
}

impl LinearLayout {
    /// The layout with no dimensions: maps the single index 0 to nothing.
    pub fn empty() -> Self {
        Self::default()
    }

    /// A layout from explicit bases and output sizes. Checks that names are
    /// unique, sizes are powers of two, every basis has one entry per output
    /// dimension and every entry lies in `[0, size)`.
    pub fn new(ins: Vec<InDim>, outs: Vec<(String, i32)>) -> Result<Self, String> {
        let layout = Self { ins, outs };
        layout.check()?;
        Ok(layout)
    }

    /// A layout whose output sizes are inferred: each is the smallest power
    /// of two above every basis value along it.
    pub fn from_bases(ins: Vec<InDim>, out_names: &[&str]) -> Result<Self, String> {
        let mut sizes = vec![1; out_names.len()];
        for (name, bases) in &ins {
            for basis in bases {
                if basis.len() != out_names.len() {
                    return Err(format!(
                        "basis {basis:?} of {name} needs {} entries",
                        out_names.len()
                    ));
                }
                for (size, &v) in sizes.iter_mut().zip(basis) {
                    *size = (*size).max(size_above(v));
                }
            }
        }
        let outs = out_names
            .iter()
            .zip(sizes)
            .map(|(n, s)| (n.to_string(), s))
            .collect();
        Self::new(ins, outs)
    }

    fn check(&self) -> Result<(), String> {
        for (i, (name, bases)) in self.ins.iter().enumerate() {
            if self.ins[..i].iter().any(|(n, _)| n == name) {
                return Err(format!("input dimension {name} appears twice"));
            }
            if bases.len() > 30 {
                return Err(format!("input dimension {name} is too large"));
            }
            for basis in bases {
                if basis.len() != self.outs.len() {
                    return Err(format!(
                        "basis {basis:?} of {name} needs {} entries",
                        self.outs.len()
                    ));
                }
                for (&v, (out, size)) in basis.iter().zip(&self.outs) {
                    if v < 0 || v >= *size {
                        return Err(format!(
                            "basis {basis:?} of {name} leaves {out}, of size {size}"
                        ));
                    }
                }
            }
        }
        for (i, (name, size)) in self.outs.iter().enumerate() {
            if self.outs[..i].iter().any(|(n, _)| n == name) {
                return Err(format!("output dimension {name} appears twice"));
            }
            if !is_pow2(*size) {
                return Err(format!(
                    "output dimension {name} has size {size}, not a power of two"
                ));
            }
        }
        if self.total_out_size_log2() > 62 {
            return Err("the output space is too large".into());
        }
        Ok(())
    }

    /// `in_dim` of `size` (a power of two) mapped to the same index of
    /// `out_dim`.
    pub fn identity_1d(size: i32, in_dim: &str, out_dim: &str) -> Self {
        Self::strided_1d(size, 1, in_dim, out_dim)
    }

    /// `in_dim` of `size` mapped to `stride * index` of `out_dim` (both
    /// powers of two); the output has size `size * stride`.
    pub fn strided_1d(size: i32, stride: i32, in_dim: &str, out_dim: &str) -> Self {
        assert!(
            is_pow2(size) && is_pow2(stride),
            "sizes must be powers of two"
        );
        let bases = (0..log2(size)).map(|i| vec![stride << i]).collect();
        Self {
            ins: vec![(in_dim.into(), bases)],
            outs: vec![(out_dim.into(), size * stride)],
        }
    }

    /// `in_dim` of `size` mapped entirely to 0 of `out_dim` (of size 1).
    pub fn zeros_1d(size: i32, in_dim: &str, out_dim: &str) -> Self {
        Self::zeros_1d_sized(size, in_dim, out_dim, 1)
    }

    /// Like [`Self::zeros_1d`], with an output of `out_size`.
    pub fn zeros_1d_sized(size: i32, in_dim: &str, out_dim: &str, out_size: i32) -> Self {
        assert!(
            is_pow2(size) && is_pow2(out_size),
            "sizes must be powers of two"
        );
        Self {
            ins: vec![(in_dim.into(), vec![vec![0]; log2(size) as usize])],
            outs: vec![(out_dim.into(), out_size)],
        }
    }

    // ---- accessors ----

    /// The input dimensions with their bases, in order.
    pub fn ins(&self) -> &[InDim] {
        &self.ins
    }

    /// The output dimensions with their sizes, in order.
    pub fn outs(&self) -> &[(String, i32)] {
        &self.outs
    }

    pub fn in_dim_names(&self) -> Vec<&str> {
        self.ins.iter().map(|(n, _)| n.as_str()).collect()
    }

    pub fn out_dim_names(&self) -> Vec<&str> {
        self.outs.iter().map(|(n, _)| n.as_str()).collect()
    }

    pub fn has_in_dim(&self, name: &str) -> bool {
        self.in_dim_index(name).is_some()
    }

    pub fn has_out_dim(&self, name: &str) -> bool {
        self.out_dim_index(name).is_some()
    }

    pub fn in_dim_index(&self, name: &str) -> Option<usize> {
        self.ins.iter().position(|(n, _)| n == name)
    }

    pub fn out_dim_index(&self, name: &str) -> Option<usize> {
        self.outs.iter().position(|(n, _)| n == name)
    }

    pub fn num_in_dims(&self) -> usize {
        self.ins.len()
    }

    pub fn num_out_dims(&self) -> usize {
        self.outs.len()
    }

    /// Bits of `name`; 0 when the dimension is absent.
    pub fn in_dim_size_log2(&self, name: &str) -> u32 {
        self.in_dim_index(name)
            .map_or(0, |i| self.ins[i].1.len() as u32)
    }

    /// Size of input `name`; 1 when the dimension is absent.
    pub fn in_dim_size(&self, name: &str) -> i32 {
        1 << self.in_dim_size_log2(name)
    }

    /// Size of output `name`; 1 when the dimension is absent.
    pub fn out_dim_size(&self, name: &str) -> i32 {
        self.out_dim_index(name).map_or(1, |i| self.outs[i].1)
    }

    pub fn out_dim_size_log2(&self, name: &str) -> u32 {
        log2(self.out_dim_size(name))
    }

    pub fn total_in_size_log2(&self) -> u32 {
        self.ins.iter().map(|(_, b)| b.len() as u32).sum()
    }

    pub fn total_in_size(&self) -> i64 {
        1 << self.total_in_size_log2()
    }

    pub fn total_out_size_log2(&self) -> u32 {
        self.outs.iter().map(|(_, s)| log2(*s)).sum()
    }

    pub fn total_out_size(&self) -> i64 {
        1 << self.total_out_size_log2()
    }

    /// The bases of input `name` (empty when absent).
    pub fn bases(&self, name: &str) -> &[Vec<i32>] {
        self.in_dim_index(name).map_or(&[], |i| &self.ins[i].1)
    }

    /// Entry `out` of basis `i` of input `in_dim`.
    pub fn basis(&self, in_dim: &str, i: usize, out: &str) -> i32 {
        match (self.in_dim_index(in_dim), self.out_dim_index(out)) {
            (Some(a), Some(b)) => self.ins[a].1[i][b],
            _ => 0,
        }
    }

    // ---- applying ----

    /// Maps one index per input dimension (in order) to one coordinate per
    /// output dimension (in order).
    pub fn apply_index(&self, index: &[i32]) -> Vec<i32> {
        let mut out = vec![0; self.outs.len()];
        for ((_, bases), &x) in self.ins.iter().zip(index) {
            for (bit, basis) in bases.iter().enumerate() {
                if x >> bit & 1 == 1 {
                    for (o, b) in out.iter_mut().zip(basis) {
                        *o ^= b;
                    }
                }
            }
        }
        out
    }

    /// Maps named input indices (absent dimensions count as 0) to named
    /// output coordinates.
    pub fn apply(&self, ins: &[(&str, i32)]) -> Result<Vec<(String, i32)>, String> {
        let mut index = vec![0; self.ins.len()];
        for &(name, v) in ins {
            let i = self
                .in_dim_index(name)
                .ok_or_else(|| format!("no input dimension {name}"))?;
            if v < 0 || v >= self.in_dim_size(name) {
                return Err(format!("index {v} is out of range for {name}"));
            }
            index[i] = v;
        }
        Ok(self
            .out_dim_names()
            .into_iter()
            .map(String::from)
            .zip(self.apply_index(&index))
            .collect())
    }

    /// Flattens a vector of output coordinates into bits, `dim0` lowest.
    fn flatten_out(&self, coords: &[i32]) -> u64 {
        let mut v = 0u64;
        let mut shift = 0;
        for (&c, (_, size)) in coords.iter().zip(&self.outs) {
            v |= (c as u64) << shift;
            shift += log2(*size);
        }
        v
    }

    /// The matrix over GF(2): one column (of flattened output bits) per
    /// input bit, input dimensions in order.
    pub fn columns(&self) -> Vec<u64> {
        self.ins
            .iter()
            .flat_map(|(_, bases)| bases.iter().map(|b| self.flatten_out(b)))
            .collect()
    }

    fn eliminator(&self) -> (Eliminator, Vec<bool>) {
        let mut elim = Eliminator::new();
        let free = self
            .columns()
            .into_iter()
            .enumerate()
            .map(|(i, c)| !elim.add(i, c))
            .collect();
        (elim, free)
    }

    /// Rank of the matrix.
    pub fn rank(&self) -> u32 {
        self.eliminator().1.iter().filter(|f| !**f).count() as u32
    }

    pub fn is_injective(&self) -> bool {
        self.rank() == self.total_in_size_log2()
    }

    pub fn is_surjective(&self) -> bool {
        self.rank() == self.total_out_size_log2()
    }

    pub fn is_invertible(&self) -> bool {
        self.total_in_size_log2() == self.total_out_size_log2() && self.is_injective()
    }

    /// Per input dimension, the bits that do not change the output given the
    /// bits before them (zero bases and bases that depend on earlier ones):
    /// the broadcast bits.
    pub fn free_variable_masks(&self) -> Vec<(String, i32)> {
        let (_, free) = self.eliminator();
        let mut free = free.into_iter();
        self.ins
            .iter()
            .map(|(name, bases)| {
                let mask = (0..bases.len())
                    .filter(|_| free.next().unwrap_or(false))
                    .fold(0, |m, i| m | 1 << i);
                (name.clone(), mask)
            })
            .collect()
    }

    // ---- algebra ----

    /// The product: `self` is the minor part, `outer` the major one. Input
    /// and output dimensions are merged (their orders must be compatible);
    /// shared input dimensions concatenate their bases, and `outer`'s values
    /// along shared output dimensions are shifted above `self`'s.
    pub fn try_mul(&self, outer: &Self) -> Result<Self, String> {
        let names = |l: &Self, ins: bool| -> Vec<String> {
            if ins {
                l.ins.iter().map(|(n, _)| n.clone()).collect()
            } else {
                l.outs.iter().map(|(n, _)| n.clone()).collect()
            }
        };
        let in_dims = supremum(&names(self, true), &names(outer, true))?;
        let out_dims = supremum(&names(self, false), &names(outer, false))?;
        let outs: Vec<(String, i32)> = out_dims
            .iter()
            .map(|n| (n.clone(), self.out_dim_size(n) * outer.out_dim_size(n)))
            .collect();
        let ins = in_dims
            .iter()
            .map(|in_name| {
                let mut bases = Vec::new();
                for (layout, shifted) in [(self, false), (outer, true)] {
                    for basis in layout.bases(in_name) {
                        let v = out_dims
                            .iter()
                            .map(|o| match layout.out_dim_index(o) {
                                Some(k) if shifted => basis[k] << self.out_dim_size_log2(o),
                                Some(k) => basis[k],
                                None => 0,
                            })
                            .collect();
                        bases.push(v);
                    }
                }
                (in_name.clone(), bases)
            })
            .collect();
        Self::new(ins, outs)
    }

    /// `outer ∘ self`: maps `self`'s inputs through `self` and then through
    /// `outer`. Every output of `self` must be an input of `outer`, no larger.
    pub fn compose(&self, outer: &Self) -> Result<Self, String> {
        for (name, size) in &self.outs {
            if !outer.has_in_dim(name) {
                if self
                    .ins
                    .iter()
                    .all(|(_, b)| b.iter().all(|v| v[self.out_dim_index(name).unwrap()] == 0))
                {
                    continue;
                }
                return Err(format!("{name} is not an input of the outer layout"));
            }
            if *size > outer.in_dim_size(name) {
                return Err(format!(
                    "{name} has size {size}, larger than the outer layout's {}",
                    outer.in_dim_size(name)
                ));
            }
        }
        let positions: Vec<Option<usize>> = outer
            .ins
            .iter()
            .map(|(n, _)| self.out_dim_index(n))
            .collect();
        let ins = self
            .ins
            .iter()
            .map(|(name, bases)| {
                let mapped = bases
                    .iter()
                    .map(|b| {
                        let index: Vec<i32> =
                            positions.iter().map(|p| p.map_or(0, |k| b[k])).collect();
                        outer.apply_index(&index)
                    })
                    .collect();
                (name.clone(), mapped)
            })
            .collect();
        Self::new(ins, outer.outs.clone())
    }

    /// The layout `C` with `outer ∘ C == self`: maps `self`'s inputs to
    /// `outer`'s inputs. An input dimension that both layouts map the same
    /// way (bases equal, zeros included) maps to itself, as in Triton: two
    /// layouts that broadcast over the same warps convert warp to warp.
    /// The other dimensions are solved among themselves (as
    /// [`Self::solve_inverse`] solves), falling back to solving over all
    /// dimensions where that has no solution.
    pub fn invert_and_compose(&self, outer: &Self) -> Result<Self, String> {
        let outs: Vec<&str> = self.out_dim_names();
        let same = |name: &str| {
            let mine = self.bases(name);
            let theirs = outer.bases(name);
            mine.len() == theirs.len()
                && (0..mine.len()).all(|i| {
                    outer.outs.iter().all(|(o, _)| {
                        let expected = if outs.contains(&o.as_str()) {
                            self.basis(name, i, o)
                        } else {
                            0
                        };
                        outer.basis(name, i, o) == expected
                    })
                })
        };
        let identity: Vec<&str> = outer
            .in_dim_names()
            .into_iter()
            .filter(|n| self.has_in_dim(n) && same(n))
            .collect();
        fn rest<'l>(l: &'l LinearLayout, identity: &[&str]) -> Vec<&'l str> {
            l.in_dim_names()
                .into_iter()
                .filter(|n| !identity.contains(n))
                .collect()
        }
        let (mine, theirs) = (rest(self, &identity), rest(outer, &identity));
        if identity.is_empty() || mine.is_empty() != theirs.is_empty() {
            return self.solve_inverse(outer);
        }
        let reduced = if mine.is_empty() {
            Self::empty()
        } else {
            let all_outs: Vec<&str> = outer.out_dim_names();
            match self
                .sublayout(&mine, &outs)
                .solve_inverse(&outer.sublayout(&theirs, &all_outs))
            {
                Ok(r) => r,
                Err(_) => return self.solve_inverse(outer),
            }
        };
        let mut result = reduced;
        for name in &identity {
            result = result.try_mul(&Self::identity_1d(outer.in_dim_size(name), name, name))?;
        }
        result
            .transpose_ins(&self.in_dim_names())?
            .transpose_outs(&outer.in_dim_names())
    }

    /// The layout `C` with `outer ∘ C == self`, solved over all input
    /// dimensions at once. Where `outer` is not injective the solution sets
    /// its free variables to zero. Fails when some value of `self` is not
    /// reached by `outer`.
    pub fn solve_inverse(&self, outer: &Self) -> Result<Self, String> {
        for (name, _) in &self.outs {
            if !outer.has_out_dim(name) {
                return Err(format!("{name} is not an output of the outer layout"));
            }
        }
        let (elim, _) = outer.eliminator();
        let positions: Vec<Option<usize>> = outer
            .outs
            .iter()
            .map(|(n, _)| self.out_dim_index(n))
            .collect();
        let ins = self
            .ins
            .iter()
            .map(|(name, bases)| {
                let solved = bases
                    .iter()
                    .map(|b| {
                        let coords: Vec<i32> =
                            positions.iter().map(|p| p.map_or(0, |k| b[k])).collect();
                        for (&c, (o, size)) in coords.iter().zip(&outer.outs) {
                            if c >= *size {
                                return Err(format!(
                                    "value {c} of {o} is outside the outer layout"
                                ));
                            }
                        }
                        let combo = elim.solve(outer.flatten_out(&coords)).ok_or_else(|| {
                            format!("{b:?} of {name} is not in the image of the outer layout")
                        })?;
                        let mut v = Vec::with_capacity(outer.ins.len());
                        let mut shift = 0;
                        for (_, ob) in &outer.ins {
                            v.push(((combo >> shift) & ((1u64 << ob.len()) - 1)) as i32);
                            shift += ob.len();
                        }
                        Ok(v)
                    })
                    .collect::<Result<_, String>>()?;
                Ok((name.clone(), solved))
            })
            .collect::<Result<_, String>>()?;
        let outs = outer
            .ins
            .iter()
            .map(|(n, b)| (n.clone(), 1 << b.len()))
            .collect();
        Self::new(ins, outs)
    }

    /// The identity on this layout's outputs (inputs named like outputs).
    fn output_identity(&self) -> Self {
        let ins = self
            .outs
            .iter()
            .enumerate()
            .map(|(k, (name, size))| {
                let bases = (0..log2(*size))
                    .map(|i| {
                        let mut v = vec![0; self.outs.len()];
                        v[k] = 1 << i;
                        v
                    })
                    .collect();
                (name.clone(), bases)
            })
            .collect();
        Self {
            ins,
            outs: self.outs.clone(),
        }
    }

    /// The inverse of a bijective layout: outputs become inputs.
    pub fn invert(&self) -> Result<Self, String> {
        if !self.is_invertible() {
            return Err("the layout is not invertible".into());
        }
        self.output_identity().invert_and_compose(self)
    }

    /// A right inverse of a surjective layout (`self ∘ P == id`), choosing
    /// zero for every free variable.
    pub fn pseudo_invert(&self) -> Result<Self, String> {
        if !self.is_surjective() {
            return Err("the layout is not surjective".into());
        }
        self.output_identity().invert_and_compose(self)
    }

    // ---- reshaping ----

    /// Regroups the input bits (in order) into `new` dimensions of the same
    /// total size.
    pub fn reshape_ins(&self, new: &[(&str, i32)]) -> Result<Self, String> {
        let total: u32 = new.iter().map(|(_, s)| log2(*s)).sum();
        if new.iter().any(|(_, s)| !is_pow2(*s)) || total != self.total_in_size_log2() {
            return Err(format!("cannot reshape inputs to {new:?}"));
        }
        let mut all = self.ins.iter().flat_map(|(_, b)| b.iter().cloned());
        let ins = new
            .iter()
            .map(|(n, s)| {
                (
                    n.to_string(),
                    all.by_ref().take(log2(*s) as usize).collect(),
                )
            })
            .collect();
        Self::new(ins, self.outs.clone())
    }

    /// Regroups the output bits (`dim0` lowest) into `new` dimensions of the
    /// same total size.
    pub fn reshape_outs(&self, new: &[(&str, i32)]) -> Result<Self, String> {
        let total: u32 = new.iter().map(|(_, s)| log2(*s)).sum();
        if new.iter().any(|(_, s)| !is_pow2(*s)) || total != self.total_out_size_log2() {
            return Err(format!("cannot reshape outputs to {new:?}"));
        }
        let ins = self
            .ins
            .iter()
            .map(|(name, bases)| {
                let bases = bases
                    .iter()
                    .map(|b| {
                        let flat = self.flatten_out(b);
                        let mut shift = 0;
                        new.iter()
                            .map(|(_, s)| {
                                let v = (flat >> shift) & (*s as u64 - 1);
                                shift += log2(*s);
                                v as i32
                            })
                            .collect()
                    })
                    .collect();
                (name.clone(), bases)
            })
            .collect();
        let outs = new.iter().map(|(n, s)| (n.to_string(), *s)).collect();
        Self::new(ins, outs)
    }

    /// All inputs as one dimension, named after the first.
    pub fn flatten_ins(&self) -> Result<Self, String> {
        match self.ins.first() {
            None => Ok(self.clone()),
            Some((n, _)) => self.reshape_ins(&[(n, self.total_in_size() as i32)]),
        }
    }

    /// All outputs as one dimension, named after the first.
    pub fn flatten_outs(&self) -> Result<Self, String> {
        match self.outs.first() {
            None => Ok(self.clone()),
            Some((n, _)) => self.reshape_outs(&[(n, self.total_out_size() as i32)]),
        }
    }

    /// Reorders the input dimensions (`order` is a permutation of them).
    pub fn transpose_ins(&self, order: &[&str]) -> Result<Self, String> {
        if order.len() != self.ins.len() {
            return Err(format!("{order:?} is not a permutation of the inputs"));
        }
        let ins = order
            .iter()
            .map(|n| {
                self.in_dim_index(n)
                    .map(|i| self.ins[i].clone())
                    .ok_or_else(|| format!("no input dimension {n}"))
            })
            .collect::<Result<_, _>>()?;
        Self::new(ins, self.outs.clone())
    }

    /// Reorders the output dimensions (`order` is a permutation of them).
    pub fn transpose_outs(&self, order: &[&str]) -> Result<Self, String> {
        if order.len() != self.outs.len() {
            return Err(format!("{order:?} is not a permutation of the outputs"));
        }
        let perm = order
            .iter()
            .map(|n| {
                self.out_dim_index(n)
                    .ok_or_else(|| format!("no output dimension {n}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let ins = self
            .ins
            .iter()
            .map(|(n, bases)| {
                let bases = bases
                    .iter()
                    .map(|b| perm.iter().map(|&k| b[k]).collect())
                    .collect();
                (n.clone(), bases)
            })
            .collect();
        let outs = perm.iter().map(|&k| self.outs[k].clone()).collect();
        Self::new(ins, outs)
    }

    /// The restriction to some inputs and outputs (kept in this layout's
    /// order, output sizes unchanged).
    pub fn sublayout(&self, ins: &[&str], outs: &[&str]) -> Self {
        let keep: Vec<usize> = (0..self.outs.len())
            .filter(|&k| outs.contains(&self.outs[k].0.as_str()))
            .collect();
        Self {
            ins: self
                .ins
                .iter()
                .filter(|(n, _)| ins.contains(&n.as_str()))
                .map(|(n, bases)| {
                    let bases = bases
                        .iter()
                        .map(|b| keep.iter().map(|&k| b[k]).collect())
                        .collect();
                    (n.clone(), bases)
                })
                .collect(),
            outs: keep.iter().map(|&k| self.outs[k].clone()).collect(),
        }
    }

    /// Whether the restriction to `ins` (all outputs) maps everything to 0.
    pub fn sublayout_is_zero(&self, ins: &[&str]) -> bool {
        self.ins
            .iter()
            .filter(|(n, _)| ins.contains(&n.as_str()))
            .all(|(_, b)| b.iter().all(|v| v.iter().all(|&x| x == 0)))
    }

    /// Whether this layout acts as the identity on the dimensions `names`
    /// and keeps them apart from the others (Triton's `isTrivialOver`):
    /// each name is an input or an output, input `d`'s `i`-th basis is
    /// `1 << i` along output `d` and zero along the other outputs in
    /// `names`, the remaining inputs are zero on the outputs in `names`,
    /// and the inputs in `names` are zero on the remaining outputs.
    pub fn is_trivial_over(&self, names: &[&str]) -> bool {
        if names
            .iter()
            .any(|d| !self.has_in_dim(d) && !self.has_out_dim(d))
        {
            return false;
        }
        let name_outs: Vec<usize> = (0..self.outs.len())
            .filter(|&k| names.contains(&self.outs[k].0.as_str()))
            .collect();
        for (name, bases) in &self.ins {
            let inside = names.contains(&name.as_str());
            let own = self.out_dim_index(name).filter(|_| inside);
            if inside && own.is_none() && !bases.is_empty() {
                return false;
            }
            for (i, b) in bases.iter().enumerate() {
                for (k, &x) in b.iter().enumerate() {
                    let out_inside = name_outs.contains(&k);
                    let expected = match (inside, out_inside) {
                        (true, true) if Some(k) == own => 1 << i,
                        _ => 0,
                    };
                    // Outside-to-outside entries are free.
                    if (inside || out_inside) && x != expected {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The layout without the dimensions `names` (as inputs and outputs),
    /// if it is trivial over them (Triton's `quotient`).
    pub fn quotient(&self, names: &[&str]) -> Option<Self> {
        if !self.is_trivial_over(names) {
            return None;
        }
        let ins: Vec<&str> = self
            .in_dim_names()
            .into_iter()
            .filter(|n| !names.contains(n))
            .collect();
        let outs: Vec<&str> = self
            .out_dim_names()
            .into_iter()
            .filter(|n| !names.contains(n))
            .collect();
        Some(self.sublayout(&ins, &outs))
    }

    /// The layout restricted to the first `new_size` indices of input
    /// `name` (Triton's `resizeInDim`): its bases beyond `log2(new_size)`
    /// are dropped; output sizes are unchanged.
    pub fn resize_in_dim(&self, name: &str, new_size: i32) -> Result<Self, String> {
        let i = self
            .in_dim_index(name)
            .ok_or_else(|| format!("no input dimension {name}"))?;
        if !is_pow2(new_size) || new_size > self.in_dim_size(name) {
            return Err(format!(
                "cannot resize {name} of size {} to {new_size}",
                self.in_dim_size(name)
            ));
        }
        let mut result = self.clone();
        result.ins[i].1.truncate(log2(new_size) as usize);
        Ok(result)
    }

    /// The left quotient `C` with `divisor * C == self` (Triton's
    /// `divideLeft`), if there is one: `C` has this layout's dimensions;
    /// each input dimension of `divisor` must be an input here whose first
    /// bases equal `divisor`'s (zero along the outputs `divisor` lacks),
    /// and the remaining bases must be multiples of `divisor`'s output
    /// sizes. `None` when no such `C` exists.
    pub fn divide_left(&self, divisor: &Self) -> Option<Self> {
        if divisor.ins.iter().any(|(n, _)| !self.has_in_dim(n))
            || divisor.outs.iter().any(|(n, _)| !self.has_out_dim(n))
        {
            return None;
        }
        let divisor_size = |out: &str| divisor.out_dim_index(out).map_or(1, |k| divisor.outs[k].1);
        let mut outs = Vec::with_capacity(self.outs.len());
        for (name, size) in &self.outs {
            let d = divisor_size(name);
            if size % d != 0 {
                return None;
            }
            outs.push((name.clone(), size / d));
        }
        let mut ins = Vec::with_capacity(self.ins.len());
        for (name, bases) in &self.ins {
            let head = divisor.bases(name);
            if head.len() > bases.len() {
                return None;
            }
            for (i, basis) in bases.iter().enumerate().take(head.len()) {
                let agrees = self
                    .outs
                    .iter()
                    .zip(basis)
                    .all(|((out, _), &v)| v == divisor.basis(name, i, out));
                if !agrees {
                    return None;
                }
            }
            let mut rest = Vec::with_capacity(bases.len() - head.len());
            for basis in &bases[head.len()..] {
                let mut divided = Vec::with_capacity(basis.len());
                for ((out, _), &v) in self.outs.iter().zip(basis) {
                    let d = divisor_size(out);
                    if v % d != 0 {
                        return None;
                    }
                    divided.push(v / d);
                }
                rest.push(divided);
            }
            ins.push((name.clone(), rest));
        }
        let quotient = Self::new(ins, outs).ok()?;
        // Checked as Triton asserts it: the product gives this layout back.
        let product = divisor.try_mul(&quotient).ok()?;
        let same = product.ins == self.ins && product.outs == self.outs;
        same.then_some(quotient)
    }

    /// Equality of bases and output names, whatever the output sizes.
    pub fn equal_ignoring_out_dim_sizes(&self, other: &Self) -> bool {
        self.ins == other.ins
            && self.outs.len() == other.outs.len()
            && self.outs.iter().zip(&other.outs).all(|(a, b)| a.0 == b.0)
    }

    /// Drops the all-zero bases of input `name`.
    pub fn remove_zero_bases_along(&self, name: &str) -> Self {
        let mut result = self.clone();
        if let Some(i) = self.in_dim_index(name) {
            result.ins[i].1.retain(|b| b.iter().any(|&x| x != 0));
        }
        result
    }

    /// Replaces the bases of input `name` (adding the dimension at the end
    /// when absent).
    pub fn with_bases(&self, name: &str, bases: Vec<Vec<i32>>) -> Result<Self, String> {
        let mut ins = self.ins.clone();
        match self.in_dim_index(name) {
            Some(i) => ins[i].1 = bases,
            None => ins.push((name.into(), bases)),
        }
        Self::new(ins, self.outs.clone())
    }

    // ---- queries ----

    /// How many consecutive indices of the first input dimension map to
    /// consecutive values of the first output dimension with nothing else
    /// touching those low bits: the vector width along the fastest dim.
    pub fn num_consecutive_in_out(&self) -> i32 {
        let Some((first, first_bases)) = self.ins.first() else {
            return 1;
        };
        if self.outs.is_empty() {
            return 1;
        }
        let consec = first_bases
            .iter()
            .enumerate()
            .take_while(|(i, b)| b[0] == 1 << i && b[1..].iter().all(|&x| x == 0))
            .count();
        let mut other = 0;
        for (name, bases) in &self.ins {
            for (i, b) in bases.iter().enumerate() {
                if name != first || i >= consec {
                    other |= b[0];
                }
            }
        }
        let tz = if other == 0 {
            31
        } else {
            other.trailing_zeros() as usize
        };
        1 << consec.min(tz)
    }

    /// Output dimensions (by index) in the order input `in_dim`'s bases
    /// first move along them, then the missing ones from `default`
    /// (Triton's `orderPerDim`).
    pub fn order_per_dim(&self, in_dim: &str, default: &[u32]) -> Vec<u32> {
        let mut order: Vec<u32> = Vec::new();
        for b in self.bases(in_dim) {
            if let Some(k) = b.iter().position(|&x| x != 0) {
                if !order.contains(&(k as u32)) {
                    order.push(k as u32);
                }
            }
        }
        for &d in default {
            if !order.contains(&d) {
                order.push(d);
            }
        }
        order
    }

    /// The fastest-first order of the register dimension, defaulting to the
    /// last output dimension fastest (Triton's `getOrder` of a linear
    /// encoding).
    pub fn default_order(&self, in_dim: &str) -> Vec<u32> {
        let rank = self.outs.len() as u32;
        let default: Vec<u32> = (0..rank).rev().collect();
        self.order_per_dim(in_dim, &default)
    }

    /// Per output dimension, how far input `in_dim` spreads along it: a
    /// factor 2 per basis whose first non-zero entry is that dimension; with
    /// `skip_broadcast` false, zero bases double the previous dimension
    /// (Triton's `basesPerDim`).
    pub fn bases_per_dim(&self, in_dim: &str, skip_broadcast: bool) -> Vec<u32> {
        let mut result = vec![1u32; self.outs.len()];
        let mut last: Option<usize> = None;
        for b in self.bases(in_dim) {
            match b.iter().position(|&x| x != 0) {
                Some(k) => {
                    result[k] *= 2;
                    last = Some(k);
                }
                None if !skip_broadcast => {
                    result[last.unwrap_or(0)] *= 2;
                }
                None => {}
            }
        }
        result
    }

    /// Per output dimension, the elements one thread holds along it
    /// (broadcast registers counted, as Triton's `getElemsPerThread`).
    pub fn elems_per_thread_per_dim(&self) -> Vec<u32> {
        self.bases_per_dim("register", false)
    }

    /// Triton's `getOrderForMemory` of a distributed layout: the register
    /// order, unless the lanes run along another dimension first and each
    /// thread holds a single element along it (then the lane order).
    pub fn order_for_memory(&self) -> Vec<u32> {
        let order = self.default_order("register");
        let thread_order = self.order_per_dim("lane", &order);
        if order == thread_order {
            return order;
        }
        let contig = self.elems_per_thread_per_dim();
        if contig[thread_order[0] as usize] == 1 {
            return thread_order;
        }
        order
    }

    /// Elements each thread holds (the register dimension's size).
    pub fn total_elems_per_thread(&self) -> i32 {
        self.in_dim_size("register")
    }

    /// Per output dimension, how many consecutive elements one thread holds
    /// along it, reading the register bases dimension by dimension in the
    /// register order (Triton's `getContigPerThread`).
    pub fn contig_per_thread(&self) -> Vec<u32> {
        let rank = self.outs.len();
        let regs = self.bases("register");
        let mut contig = vec![1u32; rank];
        let mut it = 0;
        for dim in self.default_order("register") {
            let d = dim as usize;
            let mut expect = 1;
            while it < regs.len()
                && regs[it]
                    .iter()
                    .enumerate()
                    .all(|(k, &x)| x == if k == d { expect } else { 0 })
            {
                contig[d] *= 2;
                expect *= 2;
                it += 1;
            }
        }
        contig
    }
}

impl Mul for LinearLayout {
    type Output = LinearLayout;
    fn mul(self, outer: LinearLayout) -> LinearLayout {
        self.try_mul(&outer).unwrap_or_else(|e| panic!("{e}"))
    }
}

impl Mul<&LinearLayout> for &LinearLayout {
    type Output = LinearLayout;
    fn mul(self, outer: &LinearLayout) -> LinearLayout {
        self.try_mul(outer).unwrap_or_else(|e| panic!("{e}"))
    }
}

impl MulAssign for LinearLayout {
    fn mul_assign(&mut self, outer: LinearLayout) {
        *self = &*self * &outer;
    }
}

impl fmt::Display for LinearLayout {
    /// ` - register=1 -> (0, 1)` lines, as Triton prints layouts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, bases) in &self.ins {
            for (i, b) in bases.iter().enumerate() {
                let v: Vec<String> = b.iter().map(i32::to_string).collect();
                writeln!(f, " - {name}={} -> ({})", 1 << i, v.join(", "))?;
            }
        }
        let outs: Vec<String> = self
            .outs
            .iter()
            .map(|(n, s)| format!("{n} (size {s})"))
            .collect();
        write!(f, "where out dims are: [{}]", outs.join(", "))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small deterministic xorshift generator for property tests.
    pub(crate) struct Rng(u64);

    impl Rng {
        pub(crate) fn new(seed: u64) -> Self {
            Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
        }
        pub(crate) fn next(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }
        /// Uniform in `0..n`.
        pub(crate) fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    const IN_NAMES: [&str; 4] = ["register", "lane", "warp", "block"];

    fn ll(ins: &[(&str, &[&[i32]])], outs: &[&str]) -> LinearLayout {
        let ins = ins
            .iter()
            .map(|(n, b)| (n.to_string(), b.iter().map(|v| v.to_vec()).collect()))
            .collect();
        LinearLayout::from_bases(ins, outs).unwrap()
    }

    /// Random outputs `dim0..`, each of 1..=8 (log) bits, `max_bits` total.
    fn random_outs(rng: &mut Rng, names: &[&str]) -> Vec<(String, i32)> {
        names
            .iter()
            .map(|n| (n.to_string(), 1 << rng.below(4)))
            .collect()
    }

    /// A random layout over the given outputs and input names.
    fn random_layout(rng: &mut Rng, ins: &[&str], outs: &[(String, i32)]) -> LinearLayout {
        let ins = ins
            .iter()
            .map(|n| {
                let bits = rng.below(4);
                let bases = (0..bits)
                    .map(|_| {
                        outs.iter()
                            .map(|(_, s)| {
                                // Half the time a single power of two (as
                                // real layouts have), else anything.
                                match rng.below(4) {
                                    0 => 0,
                                    1 => rng.below(*s as u64) as i32,
                                    _ => {
                                        let b = *s.max(&1) as u64;
                                        (1 << rng.below(64 - b.leading_zeros() as u64)) % *s
                                    }
                                }
                            })
                            .collect()
                    })
                    .collect();
                (n.to_string(), bases)
            })
            .collect();
        LinearLayout::new(ins, outs.to_vec()).unwrap()
    }

    /// A random bijection whose inputs are `ins` (sizes drawn) and outputs
    /// `outs` of the same total size.
    fn random_invertible(rng: &mut Rng, ins: &[&str], outs: &[(String, i32)]) -> LinearLayout {
        let id = LinearLayout::empty().output_identity_of(outs);
        let mut cols = id.columns();
        let n = cols.len();
        for _ in 0..3 * n {
            if n < 2 {
                break;
            }
            let (i, j) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
            if i != j {
                cols[i] ^= cols[j];
            }
            let k = rng.below(n as u64) as usize;
            cols.swap(i, k);
        }
        // Split the bits among the input names.
        let mut left = n as u64;
        let mut new = Vec::new();
        for (idx, name) in ins.iter().enumerate() {
            let bits = if idx + 1 == ins.len() {
                left
            } else {
                rng.below(left + 1)
            };
            left -= bits;
            new.push((name.to_string(), 1i32 << bits));
        }
        let flat = LinearLayout::new(
            vec![(
                "x".into(),
                cols.iter().map(|&c| id.unflatten_out(c)).collect(),
            )],
            outs.to_vec(),
        )
        .unwrap();
        let refs: Vec<(&str, i32)> = new.iter().map(|(n, s)| (n.as_str(), *s)).collect();
        flat.reshape_ins(&refs).unwrap()
    }

    impl LinearLayout {
        fn output_identity_of(&self, outs: &[(String, i32)]) -> LinearLayout {
            LinearLayout {
                ins: vec![],
                outs: outs.to_vec(),
            }
            .output_identity()
        }

        fn unflatten_out(&self, mut v: u64) -> Vec<i32> {
            self.outs
                .iter()
                .map(|(_, s)| {
                    let x = (v & (*s as u64 - 1)) as i32;
                    v >>= log2(*s);
                    x
                })
                .collect()
        }

        /// Every input index, as one index per input dimension.
        fn all_indices(&self) -> Vec<Vec<i32>> {
            let total = self.total_in_size();
            (0..total)
                .map(|mut flat| {
                    self.ins
                        .iter()
                        .map(|(_, b)| {
                            let x = (flat & ((1 << b.len()) - 1)) as i32;
                            flat >>= b.len();
                            x
                        })
                        .collect()
                })
                .collect()
        }
    }

    fn dims(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("dim{i}")).collect()
    }

    fn strs(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }

    #[test]
    fn constructors() {
        let id = LinearLayout::identity_1d(8, "register", "dim0");
        assert_eq!(id.bases("register"), &[vec![1], vec![2], vec![4]]);
        assert_eq!(id.out_dim_size("dim0"), 8);
        let z = LinearLayout::zeros_1d(4, "lane", "dim0");
        assert_eq!(z.bases("lane"), &[vec![0], vec![0]]);
        assert_eq!(z.out_dim_size("dim0"), 1);
        let s = LinearLayout::strided_1d(4, 2, "lane", "dim0");
        assert_eq!(s.bases("lane"), &[vec![2], vec![4]]);
        assert_eq!(s.out_dim_size("dim0"), 8);
        assert!(!s.is_surjective() && s.is_injective());
        let inferred = ll(&[("register", &[&[1, 0], &[0, 4]])], &["dim0", "dim1"]);
        assert_eq!(inferred.outs(), &[("dim0".into(), 2), ("dim1".into(), 8)]);
        assert!(
            LinearLayout::new(vec![("a".into(), vec![vec![4]])], vec![("x".into(), 4)]).is_err()
        );
        assert!(LinearLayout::new(vec![], vec![("x".into(), 3)]).is_err());
        assert!(
            LinearLayout::new(vec![("a".into(), vec![]), ("a".into(), vec![])], vec![]).is_err()
        );
        assert_eq!(LinearLayout::empty().total_in_size(), 1);
    }

    #[test]
    fn product_of_disjoint_and_shared_dims() {
        let l = LinearLayout::identity_1d(4, "register", "dim0")
            * LinearLayout::identity_1d(32, "lane", "dim0")
            * LinearLayout::identity_1d(4, "warp", "dim0");
        assert_eq!(l.bases("register"), &[vec![1], vec![2]]);
        assert_eq!(
            l.bases("lane"),
            &[vec![4], vec![8], vec![16], vec![32], vec![64]]
        );
        assert_eq!(l.bases("warp"), &[vec![128], vec![256]]);
        assert_eq!(l.out_dim_size("dim0"), 512);
        assert!(l.is_invertible());

        let two_d = LinearLayout::identity_1d(2, "register", "dim1")
            * LinearLayout::identity_1d(4, "register", "dim0")
            * LinearLayout::zeros_1d(2, "register", "dim1");
        assert_eq!(
            two_d.bases("register"),
            &[vec![1, 0], vec![0, 1], vec![0, 2], vec![0, 0]]
        );
        assert_eq!(two_d.out_dim_names(), vec!["dim1", "dim0"]);
        assert_eq!(two_d.out_dim_size("dim1"), 2);
        assert_eq!(
            two_d.free_variable_masks(),
            vec![("register".to_string(), 0b1000)]
        );
        let bad = LinearLayout::identity_1d(2, "a", "x") * LinearLayout::identity_1d(2, "b", "y");
        let bad2 = LinearLayout::identity_1d(2, "b", "y") * LinearLayout::identity_1d(2, "a", "x");
        assert!(bad.try_mul(&bad2).is_err());
    }

    #[test]
    fn apply_xors_bases() {
        let l = ll(
            &[
                ("register", &[&[0, 1], &[8, 0]]),
                ("lane", &[&[0, 2], &[1, 1]]),
            ],
            &["dim0", "dim1"],
        );
        assert_eq!(l.apply_index(&[3, 0]), vec![8, 1]);
        assert_eq!(l.apply_index(&[1, 2]), vec![1, 0]);
        assert_eq!(
            l.apply(&[("lane", 3)]).unwrap(),
            vec![("dim0".to_string(), 1), ("dim1".to_string(), 3)]
        );
        assert!(l.apply(&[("lane", 4)]).is_err());
        assert!(l.apply(&[("warp", 0)]).is_err());
    }

    #[test]
    fn compose_and_invert_by_hand() {
        // x -> y: bit0 -> 2, bit1 -> 1 (a swap of bits).
        let swap = ll(&[("x", &[&[2], &[1]])], &["x"]);
        let swap_out = swap.transpose_outs(&["x"]).unwrap();
        let twice = swap.compose(&swap_out).unwrap();
        assert_eq!(twice, LinearLayout::identity_1d(4, "x", "x"));
        assert_eq!(swap.invert().unwrap(), swap);
        // A shear: (a, b) -> (a ^ b, b).
        let shear = ll(&[("r", &[&[1], &[3]])], &["o"]);
        let inv = shear.invert().unwrap();
        assert_eq!(inv.bases("o"), &[vec![1], vec![3]]);
        assert!(ll(&[("r", &[&[1], &[1]])], &["o"]).invert().is_err());
        // invert_and_compose through a broadcasting outer layout.
        let outer = ll(&[("lane", &[&[1], &[0], &[2]])], &["dim0"]);
        let target = ll(&[("register", &[&[2], &[3]])], &["dim0"]);
        let c = target.invert_and_compose(&outer).unwrap();
        assert_eq!(c.bases("register"), &[vec![4], vec![5]]);
        assert_eq!(c.compose(&outer).unwrap(), target);
        let unreachable = ll(&[("register", &[&[4]])], &["dim0"]);
        assert!(unreachable.invert_and_compose(&outer).is_err());
        let p = outer.pseudo_invert().unwrap();
        assert_eq!(
            p.compose(&outer).unwrap(),
            LinearLayout::identity_1d(4, "dim0", "dim0")
        );
    }

    #[test]
    fn reshape_transpose_sublayout() {
        let l = LinearLayout::identity_1d(4, "register", "dim0")
            * LinearLayout::identity_1d(8, "lane", "dim1");
        let flat = l.flatten_outs().unwrap();
        assert_eq!(flat.outs(), &[("dim0".to_string(), 32)]);
        assert_eq!(flat.bases("lane"), &[vec![4], vec![8], vec![16]]);
        let back = flat.reshape_outs(&[("dim0", 4), ("dim1", 8)]).unwrap();
        assert_eq!(back, l);
        let ins = l.reshape_ins(&[("a", 2), ("b", 16)]).unwrap();
        assert_eq!(ins.bases("a"), &[vec![1, 0]]);
        assert_eq!(
            ins.bases("b"),
            &[vec![2, 0], vec![0, 1], vec![0, 2], vec![0, 4]]
        );
        assert!(l.reshape_ins(&[("a", 4)]).is_err());
        let t = l.transpose_outs(&["dim1", "dim0"]).unwrap();
        assert_eq!(t.bases("register"), &[vec![0, 1], vec![0, 2]]);
        assert_eq!(t.transpose_outs(&["dim0", "dim1"]).unwrap(), l);
        let ti = l.transpose_ins(&["lane", "register"]).unwrap();
        assert_eq!(ti.in_dim_names(), vec!["lane", "register"]);
        assert_ne!(ti, l);
        let sub = l.sublayout(&["lane"], &["dim1"]);
        assert_eq!(sub, LinearLayout::identity_1d(8, "lane", "dim1"));
        let sub2 = l.sublayout(&["register"], &["dim1"]);
        assert_eq!(sub2.bases("register"), &[vec![0], vec![0]]);
        assert!(l.sublayout_is_zero(&[]));
        assert!(!l.sublayout_is_zero(&["lane"]));
    }

    #[test]
    fn equality_ignoring_sizes() {
        let a = LinearLayout::identity_1d(4, "register", "dim0");
        let b = LinearLayout::new(a.ins().to_vec(), vec![("dim0".into(), 16)]).unwrap();
        assert_ne!(a, b);
        assert!(a.equal_ignoring_out_dim_sizes(&b));
        let c = LinearLayout::identity_1d(4, "register", "dim1");
        assert!(!a.equal_ignoring_out_dim_sizes(&c));
    }

    #[test]
    fn consecutive_and_contiguity() {
        let l = LinearLayout::identity_1d(4, "register", "dim0")
            * LinearLayout::identity_1d(32, "lane", "dim0");
        assert_eq!(l.num_consecutive_in_out(), 4);
        // A lane that moves by 2 cuts the vector to 2.
        let l2 = ll(&[("register", &[&[1], &[2]]), ("lane", &[&[2]])], &["dim0"]);
        assert_eq!(l2.num_consecutive_in_out(), 2);
        let l3 = ll(&[("register", &[&[2]]), ("lane", &[&[1]])], &["dim0"]);
        assert_eq!(l3.num_consecutive_in_out(), 1);
        assert_eq!(LinearLayout::empty().num_consecutive_in_out(), 1);
        // Registers [dim1:1, dim1:2, dim0:1, dim1:8]: contiguity 4 along dim1.
        let r = ll(
            &[("register", &[&[0, 1], &[0, 2], &[1, 0], &[0, 8]])],
            &["dim0", "dim1"],
        );
        assert_eq!(r.contig_per_thread(), vec![2, 4]);
        assert_eq!(r.default_order("register"), vec![1, 0]);
        assert_eq!(r.bases_per_dim("register", true), vec![2, 8]);
        assert_eq!(r.total_elems_per_thread(), 16);
        let text = r.to_string();
        assert!(text.contains(" - register=8 -> (0, 8)"), "{text}");
    }

    #[test]
    fn free_variables() {
        let l = ll(
            &[("register", &[&[1], &[0], &[2]]), ("lane", &[&[3], &[4]])],
            &["dim0"],
        );
        assert_eq!(
            l.free_variable_masks(),
            vec![("register".to_string(), 0b010), ("lane".to_string(), 0b01)]
        );
        assert_eq!(l.rank(), 3);
    }

    #[test]
    fn property_apply_is_matrix_product() {
        let mut rng = Rng::new(1);
        for _ in 0..300 {
            let d = dims(1 + rng.below(3) as usize);
            let outs = random_outs(&mut rng, &strs(&d));
            let l = random_layout(&mut rng, &IN_NAMES, &outs);
            let cols = l.columns();
            for index in l.all_indices().into_iter().take(64) {
                let mut flat = 0u64;
                let mut bit = 0;
                for (x, (_, b)) in index.iter().zip(l.ins()) {
                    for i in 0..b.len() {
                        if x >> i & 1 == 1 {
                            flat ^= cols[bit + i];
                        }
                    }
                    bit += b.len();
                }
                assert_eq!(l.flatten_out(&l.apply_index(&index)), flat);
            }
            // Rank-nullity: free bits + rank = input bits.
            let free: u32 = l
                .free_variable_masks()
                .iter()
                .map(|(_, m)| m.count_ones())
                .sum();
            assert_eq!(free + l.rank(), l.total_in_size_log2());
        }
    }

    #[test]
    fn property_inversion_round_trips() {
        let mut rng = Rng::new(2);
        for _ in 0..300 {
            let d = dims(1 + rng.below(3) as usize);
            let outs = random_outs(&mut rng, &strs(&d));
            let ins = &IN_NAMES[..1 + rng.below(4) as usize];
            let l = random_invertible(&mut rng, ins, &outs);
            assert!(l.is_invertible(), "{l}");
            let inv = l.invert().unwrap();
            // L⁻¹ ∘ L = id on the inputs, L ∘ L⁻¹ = id on the outputs.
            let in_id = l.compose(&inv).unwrap();
            assert_eq!(in_id, l.output_identity_of(in_id.outs()));
            let out_id = inv.compose(&l).unwrap();
            assert_eq!(out_id, l.output_identity_of(&outs));
            assert_eq!(inv.invert().unwrap(), l);
            assert_eq!(l.pseudo_invert().unwrap(), inv);
            // Every index maps back.
            for index in l.all_indices().into_iter().take(32) {
                assert_eq!(inv.apply_index(&l.apply_index(&index)), index);
            }
        }
    }

    #[test]
    fn property_invert_and_compose() {
        let mut rng = Rng::new(3);
        let mut checked = 0;
        for _ in 0..400 {
            let d = dims(1 + rng.below(3) as usize);
            let outs = random_outs(&mut rng, &strs(&d));
            let outer = random_layout(&mut rng, &["register", "lane", "warp"], &outs);
            let target = random_layout(&mut rng, &["offset", "iteration"], &outs);
            match target.invert_and_compose(&outer) {
                Ok(c) => {
                    checked += 1;
                    assert_eq!(c.compose(&outer).unwrap(), target);
                }
                Err(_) => {
                    // Then some basis of `target` is outside outer's image.
                    assert!(!outer.is_surjective());
                }
            }
            if outer.is_surjective() {
                let p = outer.pseudo_invert().unwrap();
                assert_eq!(p.compose(&outer).unwrap(), outer.output_identity());
            } else {
                assert!(outer.pseudo_invert().is_err());
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn property_composition_is_associative() {
        let mut rng = Rng::new(4);
        for _ in 0..300 {
            let x = random_outs(&mut rng, &["x0", "x1"]);
            let y = random_outs(&mut rng, &["y0", "y1", "y2"]);
            let z = random_outs(&mut rng, &["dim0", "dim1"]);
            let a = random_layout(&mut rng, &["register", "lane"], &x);
            let in_names = |o: &[(String, i32)]| -> Vec<(String, i32)> { o.to_vec() };
            // b: inputs x (same sizes), outputs y.
            let b = random_layout(&mut rng, &[], &y).with_inputs(&mut rng, &in_names(&x));
            let c = random_layout(&mut rng, &[], &z).with_inputs(&mut rng, &in_names(&y));
            let left = a.compose(&b).unwrap().compose(&c).unwrap();
            let right = a.compose(&b.compose(&c).unwrap()).unwrap();
            assert_eq!(left, right);
        }
    }

    impl LinearLayout {
        /// Adds random inputs named and sized like `dims`.
        fn with_inputs(mut self, rng: &mut Rng, dims: &[(String, i32)]) -> LinearLayout {
            for (name, size) in dims {
                let bases = (0..log2(*size))
                    .map(|_| {
                        self.outs
                            .iter()
                            .map(|(_, s)| rng.below(*s as u64) as i32)
                            .collect()
                    })
                    .collect();
                self.ins.push((name.clone(), bases));
            }
            self.check().unwrap();
            self
        }
    }

    #[test]
    fn property_product_and_sublayout() {
        let mut rng = Rng::new(5);
        for _ in 0..300 {
            let a_outs = random_outs(&mut rng, &["dim0", "dim1"]);
            let b_outs = random_outs(&mut rng, &["dim2"]);
            let a = random_layout(&mut rng, &["register", "lane"], &a_outs);
            let b = random_layout(&mut rng, &["warp", "block"], &b_outs);
            let p = &a * &b;
            assert_eq!(p.sublayout(&["register", "lane"], &["dim0", "dim1"]), a);
            assert_eq!(p.sublayout(&["warp", "block"], &["dim2"]), b);
            assert!(p
                .sublayout(&["warp"], &["dim0", "dim1"])
                .sublayout_is_zero(&["warp"]));
            assert_eq!(p.rank(), a.rank() + b.rank());
            // Shared dimensions: the outer part sits above the inner one.
            let c = random_layout(&mut rng, &["register", "lane"], &a_outs);
            let q = &a * &c;
            for (ia, ic) in a.all_indices().iter().zip(c.all_indices()).take(16) {
                let index: Vec<i32> = ia
                    .iter()
                    .zip(&ic)
                    .zip(a.ins())
                    .map(|((x, y), (_, bases))| x | y << bases.len())
                    .collect();
                let expect: Vec<i32> = a
                    .apply_index(ia)
                    .iter()
                    .zip(c.apply_index(&ic))
                    .zip(a.outs())
                    .map(|((x, y), (_, s))| x | (y * s))
                    .collect();
                assert_eq!(q.apply_index(&index), expect);
            }
            // Reshapes and transposes round-trip.
            let flat = p.flatten_outs().unwrap();
            let sizes: Vec<(&str, i32)> = p.outs().iter().map(|(n, s)| (n.as_str(), *s)).collect();
            assert_eq!(flat.reshape_outs(&sizes).unwrap(), p);
            let ins: Vec<(&str, i32)> = p
                .ins()
                .iter()
                .map(|(n, b)| (n.as_str(), 1 << b.len()))
                .collect();
            assert_eq!(p.flatten_ins().unwrap().reshape_ins(&ins).unwrap(), p);
            let rev: Vec<&str> = p.out_dim_names().into_iter().rev().collect();
            let fwd = p.out_dim_names();
            assert_eq!(
                p.transpose_outs(&rev)
                    .unwrap()
                    .transpose_outs(&fwd)
                    .unwrap(),
                p
            );
        }
    }

    #[test]
    fn quotient_drops_trivial_dimensions() {
        // register <-> lane swap inside, warp identity and apart.
        let comp = ll(
            &[
                ("register", &[&[0, 1, 0], &[2, 0, 0]]),
                ("lane", &[&[1, 0, 0]]),
                ("warp", &[&[0, 0, 1], &[0, 0, 2]]),
            ],
            &["register", "lane", "warp"],
        );
        assert!(comp.is_trivial_over(&["warp"]));
        let q = comp.quotient(&["warp"]).unwrap();
        assert_eq!(q.in_dim_names(), vec!["register", "lane"]);
        assert_eq!(q.out_dim_names(), vec!["register", "lane"]);
        assert_eq!(
            q.bases("register"),
            comp.sublayout(&["register"], &["register", "lane"])
                .bases("register")
        );
        // The lane moves into a register: not trivial over lane.
        assert!(!q.is_trivial_over(&["lane"]));
        assert!(q.quotient(&["lane"]).is_none());
        // Unknown names are not trivial.
        assert!(!comp.is_trivial_over(&["block"]));
        // A register basis reaching the warp output breaks warp triviality.
        let mixed = ll(
            &[("register", &[&[1, 1]]), ("warp", &[&[0, 1]])],
            &["register", "warp"],
        );
        assert!(!mixed.is_trivial_over(&["warp"]));
        // A warp basis that is not the identity breaks it too.
        let swapped = ll(
            &[("register", &[&[1, 0]]), ("warp", &[&[0, 2], &[0, 1]])],
            &["register", "warp"],
        );
        assert!(!swapped.is_trivial_over(&["warp"]));
        // Quotienting everything of the identity leaves an empty layout.
        let id = ll(
            &[("register", &[&[1, 0]]), ("warp", &[&[0, 1]])],
            &["register", "warp"],
        );
        let q = id
            .quotient(&["warp"])
            .unwrap()
            .quotient(&["register"])
            .unwrap();
        assert!(q.out_dim_names().is_empty() && q.in_dim_names().is_empty());
    }

    #[test]
    fn property_quotient_of_identity_products() {
        let mut rng = Rng::new(41);
        for _ in 0..200 {
            let a = rng.below(4) as i32;
            let b = rng.below(4) as i32;
            let inner = LinearLayout::identity_1d(1 << a, "register", "register");
            let outer = LinearLayout::identity_1d(1 << b, "warp", "warp");
            let prod = &inner * &outer;
            let q = prod.quotient(&["warp"]).unwrap();
            assert_eq!(q, inner);
            let q = prod.quotient(&["register"]).unwrap();
            assert_eq!(q, outer);
        }
    }

    #[test]
    fn divide_left_undoes_products() {
        let b = LinearLayout::identity_1d(4, "col", "dim1");
        let c = ll(
            &[("row", &[&[1, 0], &[2, 0]]), ("col", &[&[0, 1], &[4, 0]])],
            &["dim0", "dim1"],
        );
        let a = b.try_mul(&c).unwrap();
        assert_eq!(a.divide_left(&b), Some(c.clone()));
        // Dividing by the trivial layout gives the layout back.
        assert_eq!(
            a.divide_left(&LinearLayout::identity_1d(1, "col", "dim1")),
            Some(a.clone())
        );
        // The first columns are not contiguous along dim1 in c.
        assert_eq!(c.divide_left(&b), None);
        // Unknown dimensions.
        assert_eq!(
            a.divide_left(&LinearLayout::identity_1d(2, "lane", "dim1")),
            None
        );
        // Zeros divide zero bases.
        let padded = LinearLayout::zeros_1d(2, "col", "dim1")
            .try_mul(&c)
            .unwrap();
        assert_eq!(
            padded.divide_left(&LinearLayout::zeros_1d(2, "col", "dim1")),
            Some(c)
        );
    }

    #[test]
    fn resize_in_dim_drops_the_last_bases() {
        let a = LinearLayout::identity_1d(32, "lane", "row");
        let r = a.resize_in_dim("lane", 8).unwrap();
        assert_eq!(r.bases("lane"), [vec![1], vec![2], vec![4]].as_slice());
        assert_eq!(r.out_dim_size("row"), 32);
        assert!(a.resize_in_dim("lane", 64).is_err());
        assert!(a.resize_in_dim("lane", 3).is_err());
        assert!(a.resize_in_dim("warp", 1).is_err());
    }
}
