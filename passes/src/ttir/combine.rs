//! `triton-combine`: Triton's peephole combinations on TTIR, applied with
//! MLIR's greedy driver (which also folds):
//!
//! * `add(dot(a, b, 0), d)` and `add(d, dot(a, b, 0))` become
//!   `dot(a, b, d)`: the dot takes the addend as its accumulator, when the
//!   dot has no other use (and, for floats, no imprecise-accumulation limit);
//! * `select(c, load(p, splat(c)), x)` becomes `load(p, splat(c), x)`;
//! * `addptr(addptr(p, i), j)` becomes `addptr(p, i + j)` when the sum
//!   cannot overflow differently (64-bit offsets, or constants whose sum
//!   fits);
//! * `reduce(broadcast(expand_dims(x, 2)) * broadcast(expand_dims(y, 0)))`
//!   with an add combiner becomes `dot(x, y)`;
//! * a rank-1 `reshape` read only by reductions or histograms may reorder
//!   elements;
//! * a `reshape` that drops leading unit dimensions of a single-use
//!   descriptor load is folded into the load's result type.

use melior::ir::{
    attribute::{FloatAttribute, IntegerAttribute},
    operation::{OperationLike, OperationRef},
    r#type::IntegerType,
    AttributeLike, BlockLike, Identifier, RegionLike, Type, TypeLike, Value, ValueLike,
};
use melior::RewriterBase;

use tt_dialect::ir::{self, create, defined_by, first_result, operand};
use tt_dialect::rewrite::{apply_greedily, Greedy, Pattern, Root};
use tt_dialect::types::{Tensor, TensorView};

use crate::rust_pass::{fail, PassResult, RustPass};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonCombineOps",
    argument: "triton-combine",
    description: "Combine ops: dot with add, select with masked load, nested addptr, broadcast-multiply-reduce to dot",
    anchor: "builtin.module",
    run,
};

const fn pattern(benefit: u16, rewrite: tt_dialect::rewrite::Rewrite) -> Pattern {
    Pattern {
        benefit,
        rewrite,
        generated: &[],
    }
}

static DOT_ADD: Pattern = pattern(1, dot_add);
static SELECT_MASKED_LOAD: Pattern = Pattern {
    benefit: 3,
    rewrite: select_masked_load,
    generated: &["tt.load"],
};
static ADD_PTR: Pattern = Pattern {
    benefit: 1,
    rewrite: add_ptr,
    generated: &["tt.addptr", "arith.addi"],
};
static BROADCAST_MUL_REDUCE: Pattern = pattern(1, broadcast_mul_reduce);
static RESHAPE_REDUCE: Pattern = pattern(1, reshape_reduce);
static RANK_REDUCED_DESCRIPTOR_LOAD: Pattern = pattern(1, rank_reduced_descriptor_load);

fn run(module: OperationRef) -> PassResult {
    let patterns = [
        (Root::Op("arith.addi"), &DOT_ADD),
        (Root::Op("arith.addf"), &DOT_ADD),
        (Root::Op("arith.select"), &SELECT_MASKED_LOAD),
        (Root::Op("tt.addptr"), &ADD_PTR),
        (Root::Op("tt.reduce"), &BROADCAST_MUL_REDUCE),
        (Root::Op("tt.reshape"), &RESHAPE_REDUCE),
        (Root::Op("tt.reshape"), &RANK_REDUCED_DESCRIPTOR_LOAD),
    ];
    if apply_greedily(module, &patterns, Greedy::default()) {
        Ok(())
    } else {
        Err(fail(module, "pattern application did not converge"))
    }
}

/// Whether `value` is a zero constant: integer zero or a float zero of
/// either sign, scalar or splat.
fn is_zero(value: Value) -> bool {
    let Some(element) = ir::constant_of(value).and_then(ir::splat_element) else {
        return false;
    };
    if let Ok(int) = IntegerAttribute::try_from(element) {
        return int.value() == 0;
    }
    FloatAttribute::try_from(element).is_ok_and(|f| f.value() == 0.0)
}

fn int_attr(op: OperationRef, name: &str) -> Option<i64> {
    IntegerAttribute::try_from(op.attribute(name).ok()?)
        .ok()
        .map(|a| a.value())
}

fn dot_add<'c, 'a>(add: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let (Some(lhs), Some(rhs)) = (operand(add, 0), operand(add, 1)) else {
        return false;
    };
    // The right operand is tried first, as Triton does.
    let (dot, addend) = match (defined_by(rhs, "tt.dot"), defined_by(lhs, "tt.dot")) {
        (Some(dot), _) => (dot, lhs),
        (None, Some(dot)) => (dot, rhs),
        (None, None) => return false,
    };
    if !ir::has_one_use(first_result(dot)) || !operand(dot, 2).is_some_and(is_zero) {
        return false;
    }
    if ir::is_op(add, "arith.addf") && int_attr(dot, "maxNumImpreciseAcc").unwrap_or(0) != 0 {
        return false;
    }
    rewriter.start_op_modification(dot);
    let (Some(a), Some(b)) = (operand(dot, 0), operand(dot, 1)) else {
        rewriter.cancel_op_modification(dot);
        return false;
    };
    ir::set_operands(dot, &[a, b, addend]);
    rewriter.move_op_before(dot, add);
    rewriter.finalize_op_modification(dot);
    rewriter.replace_op_with_values(add, &[first_result(dot)]);
    true
}

fn select_masked_load<'c, 'a>(
    select: OperationRef<'c, 'a>,
    rewriter: &RewriterBase<'c, 'a>,
) -> bool {
    let (Some(cond), Some(if_true), Some(if_false)) =
        (operand(select, 0), operand(select, 1), operand(select, 2))
    else {
        return false;
    };
    let Some(load) = defined_by(if_true, "tt.load") else {
        return false;
    };
    // tt.load's operands are ptr, then the optional mask and other.
    let segments = load_segments(load);
    if segments[1] != 1 {
        return false;
    }
    let (Some(ptr), Some(mask)) = (operand(load, 0), operand(load, 1)) else {
        return false;
    };
    let Some(splat) = defined_by(mask, "tt.splat") else {
        return false;
    };
    if operand(splat, 0) != Some(cond) {
        return false;
    }
    let attributes: Vec<_> = ir::attributes(load)
        .into_iter()
        .filter(|(name, _)| name.as_string_ref().as_str() != Ok("operandSegmentSizes"))
        .chain([segment_sizes(load, &[1, 1, 1])])
        .collect();
    let new_load = create(
        rewriter,
        "tt.load",
        select.location(),
        &[ptr, mask, if_false],
        &[if_true.r#type()],
        &attributes,
    );
    rewriter.replace_op_with_values(select, &[first_result(new_load)]);
    true
}

/// The operand segment sizes of a `tt.load` (ptr, mask, other).
fn load_segments(load: OperationRef) -> [i32; 3] {
    let sizes = load
        .attribute("operandSegmentSizes")
        .ok()
        .and_then(|a| melior::ir::attribute::DenseI32ArrayAttribute::try_from(a).ok());
    match sizes {
        Some(sizes) if sizes.len() == 3 => [
            sizes.element(0).unwrap_or(0),
            sizes.element(1).unwrap_or(0),
            sizes.element(2).unwrap_or(0),
        ],
        _ => [1, 0, 0],
    }
}

fn segment_sizes<'c>(
    op: OperationRef<'c, '_>,
    sizes: &[i32],
) -> (Identifier<'c>, melior::ir::Attribute<'c>) {
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    (
        Identifier::new(context, "operandSegmentSizes"),
        melior::ir::attribute::DenseI32ArrayAttribute::new(context, sizes).into(),
    )
}

/// The integer constant `value` holds: directly, as a splat constant, or as
/// the splat of a scalar constant.
fn constant_offset(value: Value) -> Option<(i64, u32)> {
    let scalar = match defined_by(value, "tt.splat") {
        Some(splat) => operand(splat, 0)?,
        None => value,
    };
    let element = ir::constant_of(scalar).and_then(ir::splat_element)?;
    let int = IntegerAttribute::try_from(element).ok()?;
    let width = ir::int_width(element.r#type())?;
    Some((int.value(), width))
}

/// Whether `first + second` may replace two pointer increments: same type
/// and either 64-bit (pointer-wide) or constants whose signed sum fits.
fn offsets_combinable(first: Value, second: Value) -> bool {
    if first.r#type() != second.r#type() {
        return false;
    }
    let element = TensorView::of(first.r#type()).map_or(first.r#type(), |t| t.element);
    if ir::int_width(element) == Some(64) {
        return true;
    }
    match (constant_offset(first), constant_offset(second)) {
        (Some((a, width)), Some((b, _))) if (1..64).contains(&width) => {
            let sum = a as i128 + b as i128;
            let (min, max) = (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1);
            (min..=max).contains(&sum)
        }
        _ => false,
    }
}

fn add_ptr<'c, 'a>(outer: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let (Some(inner_ptr), Some(second)) = (operand(outer, 0), operand(outer, 1)) else {
        return false;
    };
    let Some(inner) = defined_by(inner_ptr, "tt.addptr") else {
        return false;
    };
    let (Some(ptr), Some(first)) = (operand(inner, 0), operand(inner, 1)) else {
        return false;
    };
    if !offsets_combinable(first, second) {
        return false;
    }
    let Some(location) = ir::fused_location(&[outer.location(), inner.location()]) else {
        return false;
    };
    // `arith.addi` without overflow flags: Triton asks for none.
    let sum = create(
        rewriter,
        "arith.addi",
        location,
        &[first, second],
        &[first.r#type()],
        &[],
    );
    let kept = ir::discardable_attributes(
        outer,
        &[
            "tt.divisibility",
            "tt.contiguity",
            "tt.constancy",
            "tt.pointee_type",
        ],
    );
    let combined = create(
        rewriter,
        "tt.addptr",
        location,
        &[ptr, first_result(sum)],
        &[inner_ptr.r#type()],
        &kept,
    );
    rewriter.replace_op_with_values(outer, &[first_result(combined)]);
    true
}

/// Whether the single block of `reduce`'s combiner is one float add of at
/// most 32 bits and the return.
fn is_add_f32_combiner(reduce: OperationRef) -> bool {
    let Ok(region) = reduce.region(0) else {
        return false;
    };
    let Some(block) = region.first_block() else {
        return false;
    };
    if block.next_in_region().is_some() {
        return false;
    }
    let Some(first) = block.first_operation() else {
        return false;
    };
    let ops = std::iter::successors(Some(first), |op| op.next_in_block()).count();
    ops == 2
        && ir::is_op(first, "arith.addf")
        && first
            .result(0)
            .ok()
            .and_then(|r| tt_dialect::types::bit_width(r.r#type()))
            .is_some_and(|w| w <= 32)
}

fn broadcast_mul_reduce<'c, 'a>(
    reduce: OperationRef<'c, 'a>,
    rewriter: &RewriterBase<'c, 'a>,
) -> bool {
    if !is_add_f32_combiner(reduce) {
        return false;
    }
    let Some(mul) = operand(reduce, 0).and_then(|v| defined_by(v, "arith.mulf")) else {
        return false;
    };
    let broadcast = |i| operand(mul, i).and_then(|v| defined_by(v, "tt.broadcast"));
    let (Some(lhs_broadcast), Some(rhs_broadcast)) = (broadcast(0), broadcast(1)) else {
        return false;
    };
    let expand = |b| operand(b, 0).and_then(|v| defined_by(v, "tt.expand_dims"));
    let (Some(lhs_expand), Some(rhs_expand)) = (expand(lhs_broadcast), expand(rhs_broadcast))
    else {
        return false;
    };
    if int_attr(lhs_expand, "axis") != Some(2) || int_attr(rhs_expand, "axis") != Some(0) {
        return false;
    }
    // Triton reads both bounds off the left broadcast's shape.
    let Some(shape) = Tensor::of(first_result(lhs_broadcast).r#type()).map(|t| t.shape) else {
        return false;
    };
    if shape.len() != 3 || shape[2] < 16 || shape[0] < 16 {
        return false;
    }
    let Some(element) = operand(lhs_broadcast, 0)
        .and_then(|v| TensorView::of(v.r#type()))
        .map(|t| t.element)
    else {
        return false;
    };
    let (Some(x), Some(y)) = (operand(lhs_expand, 0), operand(rhs_expand, 0)) else {
        return false;
    };
    // Everything is checked: from here on the rewrite only creates ops.
    let context_ref = reduce.context();
    let context = unsafe { context_ref.to_ref() };
    let location = reduce.location();
    let f32_type = Type::float32(context);
    let i32_type: Type = IntegerType::new(context, 32).into();
    // tt.dot's inputPrecision is an i32 enum; tf32 is 0.
    let precision = IntegerAttribute::new(i32_type, 0).into();
    let zero = create(
        rewriter,
        "arith.constant",
        location,
        &[],
        &[f32_type],
        &[(
            Identifier::new(context, "value"),
            FloatAttribute::new(context, f32_type, 0.0).into(),
        )],
    );
    let acc_type = ir::tensor_type(&[shape[0], shape[2]], element, None);
    let acc = create(
        rewriter,
        "tt.splat",
        location,
        &[first_result(zero)],
        &[acc_type],
        &[],
    );
    let dot = create(
        rewriter,
        "tt.dot",
        location,
        &[x, y, first_result(acc)],
        &[acc_type],
        &[
            (Identifier::new(context, "inputPrecision"), precision),
            (
                Identifier::new(context, "maxNumImpreciseAcc"),
                IntegerAttribute::new(i32_type, 0).into(),
            ),
        ],
    );
    rewriter.replace_op_with_values(reduce, &[first_result(dot)]);
    true
}

fn reshape_reduce<'c, 'a>(reshape: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    if reshape.has_attribute("allow_reorder") {
        return false;
    }
    let value = first_result(reshape);
    if Tensor::of(value.r#type()).is_none_or(|t| t.rank() != 1) {
        return false;
    }
    if !ir::users(value)
        .into_iter()
        .all(|user| ir::is_op(user, "tt.reduce") || ir::is_op(user, "tt.histogram"))
    {
        return false;
    }
    let context_ref = reshape.context();
    let context = unsafe { context_ref.to_ref() };
    rewriter.start_op_modification(reshape);
    let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(reshape.to_raw()) };
    melior::ir::operation::OperationMutLike::set_inherent_attribute(
        &mut op,
        "allow_reorder",
        melior::ir::Attribute::unit(context),
    );
    rewriter.finalize_op_modification(reshape);
    true
}

fn rank_reduced_descriptor_load<'c, 'a>(
    reshape: OperationRef<'c, 'a>,
    rewriter: &RewriterBase<'c, 'a>,
) -> bool {
    let Some(load) = operand(reshape, 0).and_then(|v| defined_by(v, "tt.descriptor_load")) else {
        return false;
    };
    let loaded = first_result(load);
    if !ir::has_one_use(loaded) {
        return false;
    }
    let reshaped = first_result(reshape);
    let (Some(from), Some(to)) = (Tensor::of(loaded.r#type()), Tensor::of(reshaped.r#type()))
    else {
        return false;
    };
    if to.rank() >= from.rank() {
        return false;
    }
    let dropped = from.rank() - to.rank();
    if from.shape[..dropped].iter().any(|&d| d != 1) || from.shape[dropped..] != to.shape[..] {
        return false;
    }
    rewriter.start_op_modification(load);
    unsafe { mlir_sys::mlirValueSetType(loaded.to_raw(), reshaped.r#type().to_raw()) };
    rewriter.finalize_op_modification(load);
    rewriter.replace_op_with_values(reshape, &[loaded]);
    true
}
