//! Triton's AxisInfo analysis (`lib/Analysis/AxisInfo.cpp` in Triton 3.6).
//!
//! For every integer or pointer value and every dimension it records
//! * *contiguity*: the length of the shortest run of consecutive integers,
//! * *divisibility*: the largest power of two dividing the first element of
//!   every such run (for pointers, in bytes),
//! * *constancy*: the length of the shortest run of equal values,
//!
//! and the value itself when every element is the same known constant. A
//! scalar counts as rank 1. The facts come from a sparse forward dataflow
//! over each function: seeds (`tt.make_range`, constants, function argument
//! attributes, `tt.*` hints on ops), transfer functions per op, and joins
//! (gcds) where control flow merges (`scf.for`, `scf.if`, `scf.while`, and
//! the blocks `cf.br`/`cf.cond_br` branch to); a `ttg.warp_specialize`'s
//! partitions take their arguments' facts from its explicit captures.
//! What no rule covers gets Triton's pessimistic value, 1 everywhere.
//!
//! One departure: where straight-line arithmetic bounds a value (from
//! constants, `tt.make_range` and program ids) and the bounds admit
//! negative elements, signed division and remainder do not take Triton's
//! contiguity-based rules, which hold only where they round like floor
//! division (`(range - 64) / 32` is not constant over aligned runs of 32;
//! Triton's lowering vectorises and deduplicates it wrongly). Unbounded
//! values keep Triton's rules.
//!
//! [`AxisInfoMap::analyze`] runs it over a module; passes (coalesce) query
//! the map, including Triton's `getPtrContiguity`/`getPtrAlignment` and
//! `getMaskAlignment` helpers.

use std::collections::HashMap;

use crate::ttir::loop_support::ir as lsir;
use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationRef},
    Attribute, AttributeLike, BlockRef, RegionLike, Type, Value, ValueLike,
};
use mlir_sys::MlirOperation;
use tt_dialect::{
    ir::{int_value, is_op, operand, result, splat_element},
    types::{bit_width, is_pointer, pointer_parts, TensorView},
};

/// The "unknown, as large as can be" divisor: 2^62, Triton's `kMaxDivisor`.
pub const MAX_DIVISOR: i64 = 1 << 62;

/// Triton's gcd: a zero operand yields the other.
pub fn gcd(a: i64, b: i64) -> i64 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

fn gcd3(a: i64, b: i64, c: i64) -> i64 {
    gcd(gcd(a, b), c)
}

/// The largest power of two dividing `n` (2^62 for zero).
pub fn pow2_divisor(n: i64) -> i64 {
    if n == 0 {
        MAX_DIVISOR
    } else {
        n & n.wrapping_neg()
    }
}

/// `lhs * rhs`, saturating at [`MAX_DIVISOR`].
fn multiply_divisor(lhs: i64, rhs: i64) -> i64 {
    if rhs != 0 && lhs > MAX_DIVISOR / rhs {
        MAX_DIVISOR
    } else {
        lhs.saturating_mul(rhs)
    }
}

/// The facts about one value. Rank 0 means "not computed yet".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AxisInfo {
    pub contiguity: Vec<i64>,
    pub divisibility: Vec<i64>,
    pub constancy: Vec<i64>,
    pub constant: Option<i64>,
    /// Signed bounds of every element, where straight-line arithmetic
    /// from constants, ranges and program ids gives them. Not one of
    /// Triton's facts: signed division and remainder skip the rules that
    /// only hold where they round like floor division when the bounds
    /// admit negative values (Triton's analysis applies them there too,
    /// and the lowering then miscompiles).
    pub range: Option<(i64, i64)>,
}

impl AxisInfo {
    pub fn new(
        contiguity: Vec<i64>,
        divisibility: Vec<i64>,
        constancy: Vec<i64>,
        constant: Option<i64>,
    ) -> Self {
        Self {
            contiguity,
            divisibility,
            constancy,
            constant,
            range: None,
        }
    }

    /// Every dimension `value`.
    fn uniform(rank: usize, value: i64) -> Self {
        Self::new(
            vec![value; rank],
            vec![value; rank],
            vec![value; rank],
            None,
        )
    }

    pub fn rank(&self) -> usize {
        self.contiguity.len()
    }

    /// Contiguity along `d` (1 past the rank).
    pub fn contiguity(&self, d: usize) -> i64 {
        self.contiguity.get(d).copied().unwrap_or(1)
    }

    /// Divisibility along `d` (1 past the rank).
    pub fn divisibility(&self, d: usize) -> i64 {
        self.divisibility.get(d).copied().unwrap_or(1)
    }

    /// Constancy along `d` (1 past the rank).
    pub fn constancy(&self, d: usize) -> i64 {
        self.constancy.get(d).copied().unwrap_or(1)
    }

    /// Triton's `join`: gcds of contiguity and constancy, divisibility as
    /// [`divisibility_from_contiguity`], the constant when both agree.
    pub fn join(lhs: &AxisInfo, rhs: &AxisInfo) -> AxisInfo {
        if lhs.rank() == 0 {
            return rhs.clone();
        }
        if rhs.rank() == 0 {
            return lhs.clone();
        }
        let constant = match (lhs.constant, rhs.constant) {
            (Some(a), Some(b)) if a == b => Some(a),
            _ => None,
        };
        Self::meet(lhs, rhs, constant)
    }

    /// Per dimension, the gcds of contiguity and of constancy and the
    /// divisibility of [`divisibility_from_contiguity`], with `constant`;
    /// the bounds of both where both have them.
    fn meet(lhs: &AxisInfo, rhs: &AxisInfo, constant: Option<i64>) -> AxisInfo {
        let rank = lhs.rank();
        let mut out = AxisInfo::new(
            (0..rank)
                .map(|d| gcd(lhs.contiguity(d), rhs.contiguity(d)))
                .collect(),
            (0..rank)
                .map(|d| divisibility_from_contiguity(lhs, rhs, d))
                .collect(),
            (0..rank)
                .map(|d| gcd(lhs.constancy(d), rhs.constancy(d)))
                .collect(),
            constant,
        );
        out.range = hull(lhs.range, rhs.range);
        out
    }

    /// `self` with [`AxisInfo::range`] set to `range`.
    fn with_range(mut self, range: Option<(i64, i64)>) -> Self {
        self.range = range;
        self
    }

    /// Whether the bounds admit a negative element.
    fn maybe_negative(&self) -> bool {
        self.range.is_some_and(|(lo, _)| lo < 0)
    }
}

/// The smallest range holding both.
fn hull(a: Option<(i64, i64)>, b: Option<(i64, i64)>) -> Option<(i64, i64)> {
    let ((al, ah), (bl, bh)) = (a?, b?);
    Some((al.min(bl), ah.max(bh)))
}

/// The bounds of `op` over two ranges, where every bound stays in i32.
fn range_op(
    a: Option<(i64, i64)>,
    b: Option<(i64, i64)>,
    op: fn(i64, i64) -> Option<i64>,
) -> Option<(i64, i64)> {
    let ((al, ah), (bl, bh)) = (a?, b?);
    let corners = [op(al, bl)?, op(al, bh)?, op(ah, bl)?, op(ah, bh)?];
    let (lo, hi) = (*corners.iter().min()?, *corners.iter().max()?);
    (i64::from(i32::MIN) <= lo && hi <= i64::from(i32::MAX)).then_some((lo, hi))
}

impl std::fmt::Display for AxisInfo {
    /// Triton's `AxisInfo::print`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |v: &[i64]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        write!(
            f,
            "contiguity = [{}], divisibility = [{}], constancy = [{}], constant_value = ",
            list(&self.contiguity),
            list(&self.divisibility),
            list(&self.constancy)
        )?;
        match self.constant {
            Some(c) => write!(f, "{c}"),
            None => write!(f, "<none>"),
        }
    }
}

/// The divisibility of a value that is either `lhs` or `rhs` (select, join):
/// when the contiguities differ the runs may restart anywhere, so their
/// lengths bound the divisibility too.
fn divisibility_from_contiguity(lhs: &AxisInfo, rhs: &AxisInfo, d: usize) -> i64 {
    let (lc, rc) = (lhs.contiguity(d), rhs.contiguity(d));
    if lc == rc || lc == MAX_DIVISOR || rc == MAX_DIVISOR {
        gcd(lhs.divisibility(d), rhs.divisibility(d))
    } else {
        gcd(gcd(lhs.divisibility(d), rhs.divisibility(d)), gcd(lc, rc))
    }
}

/// The rank AxisInfo gives a value of type `ty`: a tensor's rank, a block
/// pointer's pointee rank, 1 for scalars.
fn rank_of(ty: Type) -> usize {
    if let Some(t) = TensorView::of(ty) {
        return t.shape.len();
    }
    if let Some((pointee, _)) = pointer_parts(ty) {
        if let Some(t) = TensorView::of(pointee) {
            return t.shape.len();
        }
    }
    1
}

fn key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

/// Reads a `tt.contiguity`/`tt.divisibility`/`tt.constancy` hint: an
/// integer gives a one-element vector (as in Triton), dense integers give
/// their values.
fn hint_vector(attr: Attribute) -> Option<Vec<i64>> {
    if let Some((_, unsigned)) = int_value(attr) {
        return Some(vec![unsigned as i64]);
    }
    let raw = attr.to_raw();
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseElements(raw) {
            return None;
        }
        let element = mlir_sys::mlirShapedTypeGetElementType(mlir_sys::mlirAttributeGetType(raw));
        if !mlir_sys::mlirTypeIsAInteger(element) {
            return None;
        }
        let width = mlir_sys::mlirIntegerTypeGetWidth(element);
        let count = mlir_sys::mlirElementsAttrGetNumElements(raw);
        Some(
            (0..count as isize)
                .map(|i: isize| match width {
                    64 => mlir_sys::mlirDenseElementsAttrGetInt64Value(raw, i),
                    32 => mlir_sys::mlirDenseElementsAttrGetInt32Value(raw, i) as i64,
                    16 => mlir_sys::mlirDenseElementsAttrGetInt16Value(raw, i) as i64,
                    8 => mlir_sys::mlirDenseElementsAttrGetInt8Value(raw, i) as i64,
                    _ => 1,
                })
                .collect(),
        )
    }
}

/// Overrides `info` with the hints that `lookup` finds; a single integer
/// holds for every dimension (as a function argument's does in Triton).
fn apply_hints<'c>(info: &mut AxisInfo, lookup: impl Fn(&str) -> Option<Attribute<'c>>) {
    let rank = info.rank();
    for (name, slot) in [
        ("tt.contiguity", &mut info.contiguity),
        ("tt.divisibility", &mut info.divisibility),
        ("tt.constancy", &mut info.constancy),
    ] {
        if let Some(v) = lookup(name).and_then(hint_vector) {
            *slot = match v[..] {
                [one] if rank > 1 => vec![one; rank],
                _ => v,
            };
        }
    }
}

/// The discardable attribute `name` of `op`, if any.
fn op_hint<'c>(op: OperationRef<'c, '_>, name: &str) -> Option<Attribute<'c>> {
    op.discardable_attribute(name).ok()
}

/// The argument attribute `name` of argument `index` of the function `op`.
fn arg_hint<'c>(op: OperationRef<'c, '_>, index: usize, name: &str) -> Option<Attribute<'c>> {
    // SAFETY: an attribute of a live op, which lives as long as its context.
    lsir::argument_attribute(op.to_raw(), index, name).map(|a| unsafe { Attribute::from_raw(a) })
}

fn is_function(op: OperationRef) -> bool {
    is_op(op, "tt.func") || is_op(op, "func.func")
}

fn is_region_branch(op: OperationRef) -> bool {
    is_op(op, "scf.for") || is_op(op, "scf.if") || is_op(op, "scf.while")
}

/// Triton's `getPessimisticValueState`: 1 everywhere, except function
/// arguments (their `tt.*` argument attributes), values of `scf` control
/// flow (unknown: 2^62 everywhere) and op results with `tt.*` hints.
pub fn pessimistic(value: Value) -> AxisInfo {
    let rank = rank_of(value.r#type());
    let mut info = AxisInfo::uniform(rank, 1);
    if let Some(arg) = tt_dialect::ir::block_argument(value) {
        let block = arg.owner();
        let entry = block
            .parent_region()
            .and_then(|r| r.first_block())
            .is_some_and(|first| first.to_raw().ptr == block.to_raw().ptr);
        if let (true, Some(parent)) = (entry, block.parent_operation()) {
            if is_function(parent) {
                let index = arg.argument_number();
                apply_hints(&mut info, |name| arg_hint(parent, index, name));
            } else if is_region_branch(parent) {
                info = AxisInfo::uniform(rank, MAX_DIVISOR);
            }
        }
    } else if let Some(op) = tt_dialect::ir::defining_op(value) {
        if is_region_branch(op) {
            info = AxisInfo::uniform(rank, MAX_DIVISOR);
        }
        apply_hints(&mut info, |name| op_hint(op, name));
    }
    info
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Binary {
    Add,
    Sub,
    AddPtr(i64),
    Mul,
    /// Division, remainder and right shift: `true` for the signed ops.
    Div(bool),
    Rem(bool),
    /// `arith.andi`, `arith.ori`, `arith.xori`.
    Logic(char),
    Shl,
    Shr(bool),
}

/// Triton's `BinaryOpVisitorImpl` with the per-op rules. `shape` is the
/// result's shape when it is a ranked tensor.
fn binary(kind: Binary, lhs: &AxisInfo, rhs: &AxisInfo, shape: Option<&[i64]>) -> AxisInfo {
    let (lc, rc) = (lhs.constant, rhs.constant);
    let constant = match (kind, lc, rc) {
        (Binary::Add, Some(a), Some(b)) => Some(a.wrapping_add(b)),
        (Binary::Sub, Some(a), Some(b)) => Some(a.wrapping_sub(b)),
        (Binary::AddPtr(size), Some(a), Some(b)) => Some(a.wrapping_add(b.wrapping_mul(size))),
        (Binary::Mul, Some(a), Some(b)) => Some(a.wrapping_mul(b)),
        (Binary::Div(_), Some(a), Some(b)) => a.checked_div(b),
        (Binary::Rem(_), Some(a), Some(b)) => a.checked_rem(b),
        (Binary::Rem(_), _, Some(1)) => Some(0),
        (Binary::Logic('&'), Some(a), Some(b)) => Some(a & b),
        (Binary::Logic('|'), Some(a), Some(b)) => Some(a | b),
        (Binary::Logic(_), Some(a), Some(b)) => Some(a ^ b),
        (Binary::Shl, Some(a), Some(b)) => u32::try_from(b).ok().map(|b| a.wrapping_shl(b)),
        (Binary::Shr(_), Some(a), Some(b)) => u32::try_from(b).ok().map(|b| a.wrapping_shr(b)),
        _ => None,
    };
    let rank = lhs.rank();
    // Signed division and remainder round toward zero: the rules below
    // that read contiguity assume runs of non-negative values, where that
    // is floor division.
    let floor_like = |signed: bool| !signed || !lhs.maybe_negative();
    let mut out = AxisInfo::new(vec![], vec![], vec![], constant).with_range(match kind {
        Binary::Add => range_op(lhs.range, rhs.range, i64::checked_add),
        Binary::Sub => range_op(lhs.range, rhs.range, i64::checked_sub),
        Binary::Mul => range_op(lhs.range, rhs.range, i64::checked_mul),
        _ => None,
    });
    for d in 0..rank {
        if let Some(c) = constant {
            out.contiguity.push(1);
            out.constancy.push(lhs.constancy(d).max(rhs.constancy(d)));
            out.divisibility.push(pow2_divisor(c));
            continue;
        }
        let contiguous = |i: &AxisInfo| shape.is_some_and(|s| s.get(d) == Some(&i.contiguity(d)));
        let constant_dim = |i: &AxisInfo| shape.is_some_and(|s| s.get(d) == Some(&i.constancy(d)));
        let both_const = gcd(lhs.constancy(d), rhs.constancy(d));
        let (contiguity, divisibility, constancy) = match kind {
            Binary::Add | Binary::Sub | Binary::AddPtr(_) => {
                let contiguity = if kind == Binary::Sub {
                    gcd(lhs.contiguity(d), rhs.constancy(d))
                } else {
                    gcd(lhs.constancy(d), rhs.contiguity(d))
                        .max(gcd(lhs.contiguity(d), rhs.constancy(d)))
                };
                let rhs_div = match kind {
                    Binary::AddPtr(size) => multiply_divisor(rhs.divisibility(d), size),
                    _ => rhs.divisibility(d),
                };
                (contiguity, gcd(lhs.divisibility(d), rhs_div), both_const)
            }
            Binary::Mul => {
                let l_contig = if rc == Some(1) { lhs.contiguity(d) } else { 1 };
                let r_contig = if lc == Some(1) { rhs.contiguity(d) } else { 1 };
                // [2^n, 2^n + 1, ...] counts as divisible by 1.
                let l_div = if lhs.contiguity(d) > 1 && rc != Some(1) {
                    1
                } else {
                    lhs.divisibility(d)
                };
                let r_div = if rhs.contiguity(d) > 1 && lc != Some(1) {
                    1
                } else {
                    rhs.divisibility(d)
                };
                (
                    l_contig.max(r_contig),
                    multiply_divisor(l_div, r_div),
                    both_const,
                )
            }
            Binary::Div(signed) => {
                let contiguity = if rc == Some(1) { lhs.contiguity(d) } else { 1 };
                let mut constancy = 1;
                if shape.is_some() {
                    constancy = both_const;
                    if contiguous(lhs) && constant_dim(rhs) && floor_like(signed) {
                        constancy = constancy.max(gcd3(
                            lhs.contiguity(d),
                            lhs.divisibility(d),
                            rhs.divisibility(d),
                        ));
                    }
                }
                let divisibility = match rc {
                    _ if lc == Some(0) => lhs.divisibility(d),
                    Some(1) => lhs.divisibility(d),
                    Some(r) if r.unsigned_abs().is_power_of_two() && lhs.contiguity(d) == 1 => {
                        (lhs.divisibility(d) / r.unsigned_abs() as i64).max(1)
                    }
                    _ => 1,
                };
                (contiguity, divisibility, constancy)
            }
            Binary::Rem(signed) => {
                let contiguity = if contiguous(lhs) && constant_dim(rhs) && floor_like(signed) {
                    gcd3(lhs.contiguity(d), lhs.divisibility(d), rhs.divisibility(d))
                } else {
                    1
                };
                let divisibility = if rhs.constancy(d) > 1 {
                    gcd(lhs.divisibility(d), rhs.divisibility(d))
                } else {
                    1
                };
                let constancy = match shape {
                    None => 1,
                    Some(s) if rc == Some(1) => s.get(d).copied().unwrap_or(1),
                    Some(_) => both_const,
                };
                (contiguity, divisibility, constancy)
            }
            Binary::Logic(_) => (1, 1, both_const),
            Binary::Shl | Binary::Shr(_) => {
                let contiguity = if rc == Some(0) { lhs.contiguity(d) } else { 1 };
                let divisibility = match (kind, rc) {
                    (Binary::Shr(_), None) => 1,
                    (_, shift) => {
                        let shift = shift.unwrap_or(0);
                        let l_div = if lhs.contiguity(d) > 1 && shift != 0 {
                            1
                        } else {
                            lhs.divisibility(d)
                        };
                        let factor = if (0..62).contains(&shift) {
                            1i64 << shift
                        } else {
                            MAX_DIVISOR
                        };
                        if kind == Binary::Shl {
                            multiply_divisor(l_div, factor)
                        } else {
                            (l_div / factor).max(1)
                        }
                    }
                };
                (contiguity, divisibility, both_const)
            }
        };
        out.contiguity.push(contiguity);
        out.divisibility.push(divisibility);
        out.constancy.push(constancy);
    }
    out
}

/// `arith.cmpi` on tensors (scalars stay pessimistic, as in Triton).
#[allow(clippy::needless_range_loop)]
fn compare(predicate: i64, lhs: &AxisInfo, rhs: &AxisInfo, shape: &[i64]) -> AxisInfo {
    // eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge
    let gt = matches!(predicate, 4 | 8);
    let ge = matches!(predicate, 5 | 9);
    let lt = matches!(predicate, 2 | 6);
    let le = matches!(predicate, 3 | 7);
    let rank = shape.len();
    let mut constancy = Vec::with_capacity(rank);
    let mut constant = None;
    for d in 0..rank {
        let hint = if let (Some(a), Some(b)) = (lhs.constant, rhs.constant) {
            let (ua, ub) = (a as u64, b as u64);
            let holds = match predicate {
                0 => a == b,
                1 => a != b,
                2 => a < b,
                3 => a <= b,
                4 => a > b,
                5 => a >= b,
                6 => ua < ub,
                7 => ua <= ub,
                8 => ua > ub,
                _ => ua >= ub,
            };
            constant = Some(holds as i64);
            lhs.constancy(d)
        } else {
            let mut hint = gcd(lhs.constancy(d), rhs.constancy(d));
            if (gt || le) && lhs.constancy(d) == shape[d] {
                hint = hint.max(gcd3(
                    rhs.contiguity(d),
                    lhs.divisibility(d),
                    rhs.divisibility(d),
                ));
            } else if (lt || ge) && rhs.constancy(d) == shape[d] {
                hint = hint.max(gcd3(
                    lhs.contiguity(d),
                    lhs.divisibility(d),
                    rhs.divisibility(d),
                ));
            }
            hint
        };
        constancy.push(hint);
    }
    AxisInfo::new(vec![1; rank], vec![1; rank], constancy, constant).with_range(Some((0, 1)))
}

/// `arith.select`.
fn select(cond: &AxisInfo, scalar_cond: bool, lhs: &AxisInfo, rhs: &AxisInfo) -> AxisInfo {
    match cond.constant {
        Some(0) => return rhs.clone(),
        Some(_) => return lhs.clone(),
        None => {}
    }
    let rank = lhs.rank();
    let mut out = AxisInfo::default();
    for d in 0..rank {
        let mut constancy = gcd(lhs.constancy(d), rhs.constancy(d));
        let mut contiguity = gcd(lhs.contiguity(d), rhs.contiguity(d));
        if !scalar_cond {
            constancy = gcd(constancy, cond.constancy(d));
            contiguity = gcd(contiguity, cond.constancy(d));
        }
        out.constancy.push(constancy);
        out.contiguity.push(contiguity);
        out.divisibility
            .push(divisibility_from_contiguity(lhs, rhs, d));
    }
    if lhs.constant.is_some() && lhs.constant == rhs.constant {
        out.constant = lhs.constant;
    }
    out.range = hull(lhs.range, rhs.range);
    out
}

/// `arith.max*`/`arith.min*`.
fn max_min(is_max: bool, signed: bool, lhs: &AxisInfo, rhs: &AxisInfo) -> AxisInfo {
    let rank = lhs.rank();
    let range = match (signed, lhs.range, rhs.range) {
        (true, Some((al, ah)), Some((bl, bh))) if is_max => Some((al.max(bl), ah.max(bh))),
        (true, Some((al, ah)), Some((bl, bh))) => Some((al.min(bl), ah.min(bh))),
        _ => None,
    };
    if let (Some(a), Some(b)) = (lhs.constant, rhs.constant) {
        let c = if is_max { a.max(b) } else { a.min(b) };
        return AxisInfo::new(vec![1; rank], vec![1; rank], vec![1; rank], Some(c))
            .with_range(range);
    }
    AxisInfo::meet(lhs, rhs, None).with_range(range)
}

/// The value of an integer scalar or integer splat constant, zero-extended
/// as Triton reads it.
fn constant_info(attr: Attribute, ty: Type) -> Option<AxisInfo> {
    let raw = attr.to_raw();
    let is_scalar_int = unsafe { mlir_sys::mlirAttributeIsAInteger(raw) };
    let element = splat_element(attr)?;
    let (signed, unsigned) = int_value(element)?;
    let value = unsigned as i64;
    if is_scalar_int {
        return Some(
            AxisInfo::new(vec![1], vec![pow2_divisor(value)], vec![1], Some(value))
                .with_range(Some((signed, signed))),
        );
    }
    let shape = TensorView::of(ty)?.shape;
    let rank = shape.len();
    Some(
        AxisInfo::new(
            vec![1; rank],
            vec![pow2_divisor(value); rank],
            shape.to_vec(),
            Some(value),
        )
        .with_range(Some((signed, signed))),
    )
}

/// The bytes a pointer of type `ty` (or a tensor of them) steps by.
fn pointee_bytes(ty: Type) -> i64 {
    let element = TensorView::of(ty).map(|t| t.element).unwrap_or(ty);
    let bits = pointer_parts(element)
        .and_then(|(pointee, _)| bit_width(pointee))
        .unwrap_or(8);
    (bits as i64 / 8).max(1)
}

fn int_attr(op: OperationRef, name: &str) -> Option<i64> {
    op.attribute(name).ok().and_then(int_value).map(|(s, _)| s)
}

/// The analysis results for a module: one [`AxisInfo`] per value reached.
#[derive(Debug, Default)]
pub struct AxisInfoMap {
    infos: HashMap<usize, AxisInfo>,
}

impl AxisInfoMap {
    /// Runs the analysis over every function in `module` (any op), as
    /// Triton's `ModuleAxisInfoAnalysis` does: callers before their
    /// callees, each call's operands' facts (along dimension 0) joined into
    /// the callee's `tt.contiguity`, `tt.divisibility` and `tt.constancy`
    /// argument attributes, which this sets (as Triton does: they stay in
    /// the IR) and the callee's analysis then starts from.
    pub fn analyze(module: OperationRef) -> AxisInfoMap {
        let mut solver = Solver::default();
        for (function, calls) in callers_first(module.to_raw()) {
            // SAFETY: a function op of the live module.
            solver.run_function(unsafe { OperationRef::from_raw(function) });
            for (call, callee) in calls {
                if lsir::is(call, "tt.call") && lsir::is(callee, "tt.func") {
                    solver.pass_arguments(call, callee);
                }
            }
        }
        AxisInfoMap {
            infos: solver.infos,
        }
    }

    /// The facts about `value`, if the analysis reached it.
    pub fn get(&self, value: Value) -> Option<&AxisInfo> {
        self.infos.get(&key(value))
    }

    /// Contiguity of `value` along `dim` (1 when unknown).
    pub fn contiguity(&self, value: Value, dim: usize) -> i64 {
        self.get(value).map_or(1, |i| i.contiguity(dim))
    }

    /// Divisibility of `value` along `dim` (1 when unknown).
    pub fn divisibility(&self, value: Value, dim: usize) -> i64 {
        self.get(value).map_or(1, |i| i.divisibility(dim))
    }

    /// Constancy of `value` along `dim` (1 when unknown).
    pub fn constancy(&self, value: Value, dim: usize) -> i64 {
        self.get(value).map_or(1, |i| i.constancy(dim))
    }

    /// Triton's `getAlignment` for a tensor of pointers or offsets, along
    /// the fastest-varying dimension `order0` of its layout: how many
    /// elements in a row are both contiguous and aligned. 1 for scalars.
    pub fn ptr_alignment(&self, value: Value, order0: usize) -> u32 {
        let Some(tensor) = TensorView::of(value.r#type()) else {
            return 1;
        };
        let Some(info) = self.get(value) else {
            return 1;
        };
        let divisibility = info.divisibility(order0);
        let max_multiple = if is_pointer(tensor.element) {
            (divisibility / pointee_bytes(value.r#type())).max(1)
        } else {
            divisibility
        };
        max_multiple
            .min(info.contiguity(order0))
            .clamp(1, u32::MAX as i64) as u32
    }

    /// Triton's `getContiguity` for a tensor of pointers: the alignment,
    /// capped by `contig_per_thread`, the elements each thread holds
    /// contiguously along `order0` in the value's layout.
    pub fn ptr_contiguity(&self, value: Value, order0: usize, contig_per_thread: u32) -> u32 {
        if TensorView::of(value.r#type()).is_none() {
            return 1;
        }
        self.ptr_alignment(value, order0).min(contig_per_thread)
    }

    /// Triton's `getMaskAlignment`: the mask's constancy along `order0`.
    pub fn mask_alignment(&self, mask: Value, order0: usize) -> u32 {
        if TensorView::of(mask.r#type()).is_none() {
            return 1;
        }
        self.get(mask)
            .map_or(1, |i| i.constancy(order0).clamp(1, u32::MAX as i64) as u32)
    }
}

/// The functions of `module` (or `module` itself, a function), callers
/// before callees, each with its calls and their callees: Triton's order,
/// the reverse of a post-order walk of the call graph from its roots (the
/// functions nothing calls), in module order. Functions only reachable
/// through a cycle come last.
fn callers_first(
    module: MlirOperation,
) -> Vec<(MlirOperation, Vec<(MlirOperation, MlirOperation)>)> {
    let mut functions = Vec::new();
    lsir::walk_pre(module, &mut |op| {
        // SAFETY: a live op.
        if is_function(unsafe { OperationRef::from_raw(op) }) {
            functions.push(op);
        }
    });
    let mut calls: HashMap<usize, Vec<(MlirOperation, MlirOperation)>> = functions
        .iter()
        .map(|&function| {
            let mut calls = Vec::new();
            lsir::walk_pre(function, &mut |op| {
                if lsir::is(op, "tt.call") || lsir::is(op, "func.call") {
                    if let Some(callee) = lsir::callee(op) {
                        calls.push((op, callee));
                    }
                }
            });
            (function.ptr as usize, calls)
        })
        .collect();
    let called: std::collections::HashSet<usize> = calls
        .values()
        .flatten()
        .map(|(_, callee)| callee.ptr as usize)
        .collect();
    fn visit(
        function: MlirOperation,
        calls: &HashMap<usize, Vec<(MlirOperation, MlirOperation)>>,
        seen: &mut std::collections::HashSet<usize>,
        order: &mut Vec<MlirOperation>,
    ) {
        if !seen.insert(function.ptr as usize) {
            return;
        }
        for &(_, callee) in calls.get(&(function.ptr as usize)).into_iter().flatten() {
            visit(callee, calls, seen, order);
        }
        order.push(function);
    }
    let mut order = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for &root in functions
        .iter()
        .filter(|f| !called.contains(&(f.ptr as usize)))
    {
        visit(root, &calls, &mut seen, &mut order);
    }
    order.reverse();
    order.extend(
        functions
            .iter()
            .copied()
            .filter(|f| !seen.contains(&(f.ptr as usize))),
    );
    order
        .into_iter()
        .map(|f| (f, calls.remove(&(f.ptr as usize)).unwrap_or_default()))
        .collect()
}

/// The fixpoint iteration: visits each function's ops in order, joining
/// every new fact into the value's lattice element, until nothing changes.
#[derive(Default)]
struct Solver {
    infos: HashMap<usize, AxisInfo>,
    changed: bool,
}

impl Solver {
    /// Joins the facts of `call`'s operands into `callee`'s argument
    /// attributes (Triton's `ModuleAxisInfoAnalysis::update`): each the gcd
    /// of what it was (2^62 where unset) and the operand's, along its
    /// first dimension, as a 64-bit integer.
    fn pass_arguments(&mut self, call: MlirOperation, callee: MlirOperation) {
        let i64_type = unsafe { mlir_sys::mlirIntegerTypeGet(lsir::context(callee), 64) };
        for (index, operand) in lsir::operands(call).into_iter().enumerate() {
            // SAFETY: an operand of a live op.
            let info = self.info(unsafe { Value::from_raw(operand) });
            if info.rank() == 0 {
                continue;
            }
            for (name, fact) in [
                ("tt.contiguity", info.contiguity(0)),
                ("tt.divisibility", info.divisibility(0)),
                ("tt.constancy", info.constancy(0)),
            ] {
                let before = lsir::argument_attribute(callee, index, name)
                    .and_then(lsir::integer_attr_value)
                    .unwrap_or(MAX_DIVISOR);
                // SAFETY: a live context and type.
                let attr = unsafe { mlir_sys::mlirIntegerAttrGet(i64_type, gcd(fact, before)) };
                lsir::set_argument_attribute(callee, index, name, attr);
            }
        }
    }

    fn run_function(&mut self, function: OperationRef) {
        let Some(body) = function.first_region().and_then(|r| r.first_block()) else {
            return;
        };
        for i in 0..body.argument_count() {
            if let Ok(arg) = body.argument(i) {
                let value: Value = arg.into();
                self.join(value, &pessimistic(value));
            }
        }
        // Joins only ever lower the facts, so this terminates; the cap is
        // a guard against a rule that is not monotone.
        for _ in 0..64 {
            self.changed = false;
            for region in function.regions() {
                let mut block = region.first_block();
                while let Some(b) = block {
                    self.visit_block(b);
                    block = b.next_in_region();
                }
            }
            if !self.changed {
                break;
            }
        }
    }

    fn join(&mut self, value: Value, info: &AxisInfo) {
        let entry = self.infos.entry(key(value)).or_default();
        let joined = AxisInfo::join(entry, info);
        if joined != *entry {
            *entry = joined;
            self.changed = true;
        }
    }

    /// The operand's facts; an unvisited one gets its pessimistic state
    /// (Triton's workaround for uninitialized operands).
    fn info(&mut self, value: Value) -> AxisInfo {
        if let Some(info) = self.infos.get(&key(value)).filter(|i| i.rank() > 0) {
            return info.clone();
        }
        let info = pessimistic(value);
        self.join(value, &info);
        info
    }

    fn visit_block(&mut self, block: BlockRef) {
        let mut op = block.first_operation();
        while let Some(o) = op {
            self.visit_op(o);
            op = o.next_in_block();
        }
    }

    fn visit_region_blocks(&mut self, op: OperationRef, index: usize) {
        if let Ok(region) = op.region(index) {
            let mut block = region.first_block();
            while let Some(b) = block {
                self.visit_block(b);
                block = b.next_in_region();
            }
        }
    }

    fn block_args<'c, 'a>(op: OperationRef<'c, 'a>, region: usize) -> Vec<Value<'c, 'a>> {
        op.region(region)
            .ok()
            .and_then(|r| r.first_block())
            .map(Self::arguments)
            .unwrap_or_default()
    }

    fn arguments<'c, 'a>(block: BlockRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
        (0..block.argument_count())
            .filter_map(|i| block.argument(i).ok().map(Value::from))
            .collect()
    }

    fn terminator_operands<'c, 'a>(op: OperationRef<'c, 'a>, region: usize) -> Vec<Value<'c, 'a>> {
        op.region(region)
            .ok()
            .and_then(|r| r.first_block())
            .and_then(|b| b.terminator())
            .map(|t| t.operands().collect())
            .unwrap_or_default()
    }

    fn results<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
        (0..op.result_count())
            .filter_map(|i| result(op, i))
            .collect()
    }

    fn flow(&mut self, from: &[Value], to: &[Value]) {
        for (f, t) in from.iter().zip(to) {
            let info = self.info(*f);
            self.join(*t, &info);
        }
    }

    fn visit_op(&mut self, op: OperationRef) {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or("");
        match name {
            "scf.for" => {
                let operands: Vec<Value> = op.operands().collect();
                let args = Self::block_args(op, 0);
                let results = Self::results(op);
                if operands.len() < 3 || args.is_empty() {
                    return;
                }
                // The induction variable: divisibility gcd(lb, step).
                let lb = self.info(operands[0]);
                let step = self.info(operands[2]);
                let iv = AxisInfo::new(
                    vec![1],
                    vec![gcd(lb.divisibility(0), step.divisibility(0))],
                    vec![1],
                    None,
                );
                self.join(args[0], &iv);
                self.flow(&operands[3..], &args[1..]);
                self.flow(&operands[3..], &results);
                self.visit_region_blocks(op, 0);
                let yielded = Self::terminator_operands(op, 0);
                self.flow(&yielded, &args[1..]);
                self.flow(&yielded, &results);
            }
            "scf.if" => {
                let results = Self::results(op);
                // A constant condition leaves the other branch dead, as
                // MLIR's dead code analysis finds.
                let cond = operand(op, 0).and_then(tt_dialect::ir::constant_int);
                for (region, live) in [(0, cond != Some(0)), (1, cond.is_none() || cond == Some(0))]
                {
                    self.visit_region_blocks(op, region);
                    if live {
                        let yielded = Self::terminator_operands(op, region);
                        self.flow(&yielded, &results);
                    }
                }
            }
            "scf.while" => {
                let inits: Vec<Value> = op.operands().collect();
                let before = Self::block_args(op, 0);
                let after = Self::block_args(op, 1);
                let results = Self::results(op);
                self.flow(&inits, &before);
                self.visit_region_blocks(op, 0);
                let condition = Self::terminator_operands(op, 0);
                if let Some(forwarded) = condition.get(1..) {
                    self.flow(forwarded, &after);
                    self.flow(forwarded, &results);
                }
                self.visit_region_blocks(op, 1);
                let yielded = Self::terminator_operands(op, 1);
                self.flow(&yielded, &before);
            }
            // The partitions of a `ttg.warp_specialize` start from the op's
            // explicit captures: each partition's arguments are them.
            "ttg.warp_specialize.partitions" => {
                let Some(ws) = op.parent_operation() else {
                    return;
                };
                let captures: Vec<Value> = ws.operands().collect();
                for r in 0..op.region_count() {
                    self.flow(&captures, &Self::block_args(op, r));
                    self.visit_region_blocks(op, r);
                }
            }
            // Its results are what the default region yields.
            "ttg.warp_specialize" => {
                for r in 0..op.region_count() {
                    self.visit_region_blocks(op, r);
                }
                let yielded = Self::terminator_operands(op, 0);
                self.flow(&yielded, &Self::results(op));
            }
            // Unstructured control flow (after `convert-scf-to-cf`, where
            // the LLVM lowering queries the map): a branch's forwarded
            // operands flow into its successors' arguments, and a loop
            // header's arguments meet the latch's at the fixed point. The
            // successors of other branches (cf.switch) know nothing.
            _ if op.successor_count() > 0 => match tt_dialect::ir::branch_edges(op) {
                Some(edges) => {
                    for (block, forwarded) in edges {
                        self.flow(&forwarded, &Self::arguments(block));
                    }
                }
                None => {
                    for block in op.successors() {
                        for arg in Self::arguments(block) {
                            self.join(arg, &pessimistic(arg));
                        }
                    }
                }
            },
            _ => {
                // Block arguments of other ops with regions (reductions,
                // nested functions) know nothing.
                for r in 0..op.region_count() {
                    if is_function(op) {
                        continue;
                    }
                    for arg in Self::block_args(op, r) {
                        self.join(arg, &pessimistic(arg));
                    }
                    self.visit_region_blocks(op, r);
                }
                if op.result_count() == 0 {
                    return;
                }
                match self.transfer(op, name).filter(|i| i.rank() > 0) {
                    Some(mut info) => {
                        apply_hints(&mut info, |n| op_hint(op, n));
                        for r in Self::results(op) {
                            self.join(r, &info);
                        }
                    }
                    None => {
                        for r in Self::results(op) {
                            self.join(r, &pessimistic(r));
                        }
                    }
                }
            }
        }
    }

    #[allow(clippy::needless_range_loop)]
    /// The transfer function of `op`, or `None` where Triton has none.
    fn transfer(&mut self, op: OperationRef, name: &str) -> Option<AxisInfo> {
        let result_ty = result(op, 0)?.r#type();
        let shape = TensorView::of(result_ty).map(|t| t.shape);
        let mut arg = |i: usize| operand(op, i).map(|v| self.info(v));
        let binary_kind = match name {
            "arith.addi" => Some(Binary::Add),
            "arith.subi" => Some(Binary::Sub),
            "tt.addptr" => Some(Binary::AddPtr(pointee_bytes(operand(op, 0)?.r#type()))),
            "arith.muli" => Some(Binary::Mul),
            "arith.divsi" => Some(Binary::Div(true)),
            "arith.divui" => Some(Binary::Div(false)),
            "arith.remsi" => Some(Binary::Rem(true)),
            "arith.remui" => Some(Binary::Rem(false)),
            "arith.andi" => Some(Binary::Logic('&')),
            "arith.ori" => Some(Binary::Logic('|')),
            "arith.xori" => Some(Binary::Logic('^')),
            "arith.shli" => Some(Binary::Shl),
            "arith.shrsi" => Some(Binary::Shr(true)),
            "arith.shrui" => Some(Binary::Shr(false)),
            _ => None,
        };
        if let Some(kind) = binary_kind {
            let (lhs, rhs) = (arg(0)?, arg(1)?);
            return Some(binary(kind, &lhs, &rhs, shape));
        }
        match name {
            "arith.extsi"
            | "arith.index_cast"
            | "ttg.convert_layout"
            | "builtin.unrealized_conversion_cast" => arg(0),
            // Zero extension keeps non-negative bounds; truncation and bit
            // casts keep none.
            "arith.extui" | "arith.index_castui" => arg(0).map(|i| {
                let kept = i.range.filter(|&(lo, _)| lo >= 0);
                i.with_range(kept)
            }),
            "arith.trunci" | "tt.bitcast" => arg(0).map(|i| i.with_range(None)),
            "tt.get_program_id" => {
                Some(pessimistic(result(op, 0)?).with_range(Some((0, i64::from(i32::MAX)))))
            }
            "tt.get_num_programs" => {
                Some(pessimistic(result(op, 0)?).with_range(Some((1, i64::from(i32::MAX)))))
            }
            "arith.constant" => constant_info(op.attribute("value").ok()?, result_ty),
            "ub.poison" => Some(AxisInfo::uniform(rank_of(result_ty), MAX_DIVISOR)),
            "tt.make_range" => {
                let start = int_attr(op, "start")? as u32;
                let end = int_attr(op, "end")? as u32;
                let divisibility = if start == 0 {
                    1 << 30
                } else {
                    (start & start.wrapping_neg()) as i64
                };
                Some(
                    AxisInfo::new(
                        vec![end.wrapping_sub(start) as i64],
                        vec![divisibility],
                        vec![1],
                        None,
                    )
                    .with_range(Some((i64::from(start), i64::from(end) - 1))),
                )
            }
            "tt.splat" => {
                let source = arg(0)?;
                let shape = shape?;
                Some(
                    AxisInfo::new(
                        vec![1; shape.len()],
                        vec![source.divisibility(0); shape.len()],
                        shape.to_vec(),
                        source.constant,
                    )
                    .with_range(source.range),
                )
            }
            "tt.expand_dims" => {
                let source = arg(0)?;
                let axis = (int_attr(op, "axis")? as usize).min(source.rank());
                let divisibility = if let Some(c) = source.constant {
                    pow2_divisor(c)
                } else {
                    // [2^n, 2^n + 1, ...] counts as divisible by 1.
                    (0..source.rank())
                        .map(|d| {
                            if source.contiguity(d) > 1 {
                                1
                            } else {
                                source.divisibility(d)
                            }
                        })
                        .reduce(gcd)
                        .unwrap_or(1)
                };
                let mut info = source.clone();
                info.contiguity.insert(axis, 1);
                info.divisibility.insert(axis, divisibility);
                info.constancy.insert(axis, 1);
                Some(info)
            }
            "tt.broadcast" => {
                let source = arg(0)?;
                let from = TensorView::of(operand(op, 0)?.r#type())?.shape;
                let to = shape?;
                let mut info =
                    AxisInfo::new(vec![], vec![], vec![], source.constant).with_range(source.range);
                for d in 0..to.len() {
                    let unit = from.get(d) == Some(&1);
                    info.contiguity
                        .push(if unit { 1 } else { source.contiguity(d) });
                    info.divisibility.push(source.divisibility(d));
                    info.constancy
                        .push(if unit { to[d] } else { source.constancy(d) });
                }
                Some(info)
            }
            "tt.trans" => {
                let source = arg(0)?;
                let order = op.attribute("order").ok()?;
                let order = melior::ir::attribute::DenseI32ArrayAttribute::try_from(order).ok()?;
                let mut info =
                    AxisInfo::new(vec![], vec![], vec![], source.constant).with_range(source.range);
                for d in 0..order.len() {
                    let s = order.element(d).ok()? as usize;
                    info.contiguity.push(source.contiguity(s));
                    info.divisibility.push(source.divisibility(s));
                    info.constancy.push(source.constancy(s));
                }
                Some(info)
            }
            "arith.cmpi" => {
                let shape = shape?;
                let predicate = int_attr(op, "predicate")?;
                let (lhs, rhs) = (arg(0)?, arg(1)?);
                Some(compare(predicate, &lhs, &rhs, shape))
            }
            "arith.select" => {
                let scalar = operand(op, 0).is_some_and(|c| TensorView::of(c.r#type()).is_none());
                let (cond, lhs, rhs) = (arg(0)?, arg(1)?, arg(2)?);
                Some(select(&cond, scalar, &lhs, &rhs))
            }
            "arith.maxsi" | "arith.maxui" | "arith.minsi" | "arith.minui" => {
                let (lhs, rhs) = (arg(0)?, arg(1)?);
                Some(max_min(
                    name.contains("max"),
                    name.ends_with("si"),
                    &lhs,
                    &rhs,
                ))
            }
            "tt.load" => {
                let ptr = arg(0)?;
                let mask = if op.operand_count() > 1 { arg(1) } else { None };
                let rank = ptr.rank();
                Some(AxisInfo::new(
                    vec![1; rank],
                    vec![1; rank],
                    (0..rank)
                        .map(|d| {
                            gcd(
                                ptr.constancy(d),
                                mask.as_ref().map_or(0, |m| m.constancy(d)),
                            )
                        })
                        .collect(),
                    None,
                ))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::new_context;
    use melior::ir::{operation::OperationLike, Module};

    /// Analyzes `body` (the inside of a `tt.func @f`) and returns the
    /// facts of every op result, in order.
    fn facts(args: &str, body: &str) -> Vec<String> {
        let context = new_context(false);
        let text = format!("tt.func @f({args}) {{\n{body}\n  tt.return\n}}");
        let module = Module::parse(&context, &text).expect("parses");
        let map = AxisInfoMap::analyze(module.as_operation());
        let mut out = Vec::new();
        module
            .as_operation()
            .walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
                for i in 0..op.result_count() {
                    let value = result(op, i).unwrap();
                    out.push(map.get(value).map(|i| i.to_string()).unwrap_or_default());
                }
                melior::ir::operation::WalkResult::Advance
            });
        out
    }

    #[test]
    fn helpers_follow_triton() {
        assert_eq!(gcd(0, 12), 12);
        assert_eq!(gcd(12, 0), 12);
        assert_eq!(gcd(12, 18), 6);
        assert_eq!(pow2_divisor(0), MAX_DIVISOR);
        assert_eq!(pow2_divisor(48), 16);
        assert_eq!(multiply_divisor(16, MAX_DIVISOR), MAX_DIVISOR);
        let a = AxisInfo::new(vec![4], vec![16], vec![1], Some(3));
        let b = AxisInfo::new(vec![2], vec![8], vec![1], Some(3));
        // Contiguities differ, so they bound the divisibility.
        assert_eq!(
            AxisInfo::join(&a, &b),
            AxisInfo::new(vec![2], vec![2], vec![1], Some(3))
        );
        assert_eq!(AxisInfo::join(&AxisInfo::default(), &b), b);
    }

    #[test]
    fn range_offsets_and_pointers() {
        let f = facts(
            "%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}",
            "  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %a = tt.addptr %s, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %c = arith.constant dense<32> : tensor<64xi32>
  %q = arith.remsi %r, %c : tensor<64xi32>
  %d = arith.divsi %r, %c : tensor<64xi32>",
        );
        assert_eq!(
            f,
            [
                "contiguity = [64], divisibility = [1073741824], constancy = [1], constant_value = <none>",
                "contiguity = [1], divisibility = [16], constancy = [64], constant_value = <none>",
                "contiguity = [64], divisibility = [16], constancy = [1], constant_value = <none>",
                "contiguity = [1], divisibility = [32], constancy = [64], constant_value = 32",
                "contiguity = [32], divisibility = [32], constancy = [1], constant_value = <none>",
                "contiguity = [1], divisibility = [1], constancy = [32], constant_value = <none>",
            ]
        );
    }

    #[test]
    fn partitions_see_the_captures_facts() {
        // A partition's argument is its explicit capture (here a multiple
        // of 16); the op's result is what the default region yields.
        let f = facts(
            "%n: i32 {tt.divisibility = 16 : i32}",
            "  %c = arith.constant 8 : i32
  %r = ttg.warp_specialize(%n) attributes {warpGroupStartIds = array<i32: 4>}
  default {
    %d = arith.muli %n, %c : i32
    ttg.warp_yield %d : i32
  }
  partition0(%m: i32) num_warps(4) {
    %e = arith.addi %m, %m : i32
    ttg.warp_return
  } : (i32) -> i32",
        );
        let multiple = |d: i64| {
            format!(
                "contiguity = [1], divisibility = [{d}], constancy = [1], constant_value = <none>"
            )
        };
        assert_eq!(f[2], multiple(128), "the default region's product");
        assert_eq!(f[1], multiple(128), "the warp_specialize result");
        // A sum keeps the gcd of its operands' divisors; without the
        // capture's fact the argument's would be 1.
        assert_eq!(f[3], multiple(16), "the partition's sum of its argument");
    }

    #[test]
    fn calls_pass_their_operands_facts_to_the_callee() {
        // The kernel calls @g twice: its argument attributes become the gcd
        // of the two calls' operands (16 and 8 bytes aligned), and @g's
        // own values start from them; @h, called from @g only, is analyzed
        // after it and gets @g's sum.
        let context = new_context(false);
        let text = "tt.func @k(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %c2 = arith.constant 2 : i32
  tt.call @g(%p) : (!tt.ptr<f32>) -> ()
  %q = tt.addptr %p, %c2 : !tt.ptr<f32>, i32
  tt.call @g(%q) : (!tt.ptr<f32>) -> ()
  tt.return
}
tt.func private @g(%x: !tt.ptr<f32>) {
  %c4 = arith.constant 4 : i32
  %y = tt.addptr %x, %c4 : !tt.ptr<f32>, i32
  tt.call @h(%y) : (!tt.ptr<f32>) -> ()
  tt.return
}
tt.func private @h(%z: !tt.ptr<f32>) {
  tt.return
}";
        let module = Module::parse(&context, text).expect("parses");
        let op: OperationRef = module.as_operation();
        let map = AxisInfoMap::analyze(op);
        let printed = op.to_string();
        assert!(
            printed.contains("tt.func private @g(%arg0: !tt.ptr<f32> {tt.constancy = 1 : i64, tt.contiguity = 1 : i64, tt.divisibility = 8 : i64})"),
            "{printed}"
        );
        assert!(
            printed.contains("tt.func private @h(%arg0: !tt.ptr<f32> {tt.constancy = 1 : i64, tt.contiguity = 1 : i64, tt.divisibility = 8 : i64})"),
            "{printed}"
        );
        let add = crate::rust_pass::collect_ops(op, "tt.addptr")[1];
        assert_eq!(map.divisibility(result(add, 0).unwrap(), 0), 8);
        // Analyzing again joins the same facts: the attributes stay.
        AxisInfoMap::analyze(op);
        assert_eq!(op.to_string(), printed);
    }

    #[test]
    fn queries_for_coalesce() {
        let context = new_context(false);
        let text = "tt.func @f(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %m: tensor<128xi1>) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %s = tt.splat %p : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
  %a = tt.addptr %s, %r : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
  %x = tt.load %a, %m : tensor<128x!tt.ptr<f16>>
  tt.return
}";
        let module = Module::parse(&context, text).expect("parses");
        let op: OperationRef = module.as_operation();
        let map = AxisInfoMap::analyze(op);
        let load = crate::rust_pass::collect_ops(op, "tt.load")[0];
        let ptr = operand(load, 0).unwrap();
        let mask = operand(load, 1).unwrap();
        // 16 bytes of f16: 8 elements aligned, 128 contiguous.
        assert_eq!(map.ptr_alignment(ptr, 0), 8);
        assert_eq!(map.ptr_contiguity(ptr, 0, 4), 4);
        assert_eq!(map.contiguity(ptr, 0), 128);
        assert_eq!(map.mask_alignment(mask, 0), 1);
    }

    #[test]
    fn loops_join_their_carried_values() {
        let f = facts(
            "%n: i32",
            "  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %r = scf.for %i = %c0 to %n step %c4 iter_args(%x = %c0) -> (i32) : i32 {
    %y = arith.addi %x, %i : i32
    scf.yield %y : i32
  }",
        );
        assert_eq!(
            f[2],
            "contiguity = [1], divisibility = [4], constancy = [1], constant_value = <none>"
        );
        assert_eq!(f[3], f[2]);
    }
}
