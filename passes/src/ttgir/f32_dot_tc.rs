//! `tritongpu-F32DotTC`: decomposes fp32 `tt.dot`s whose input precision
//! asks for more than one tensor-core pass, as Triton 3.6's F32DotTC does,
//! through MLIR's greedy driver (which also folds).
//!
//! * `bf16x3` / `bf16x6`: both operands are split into two / three bf16
//!   parts (`truncf`, then `x - extf(part)` for the next part); the partial
//!   products (3 or 6 `ieee` dots, smallest first) accumulate from zero, NaNs
//!   of the small products are replaced by zero, the `hi * hi` dot comes
//!   last, and the original accumulator is added with `arith.addf`.
//! * `tf32x3`, only with `emu-tf32=true` (Triton passes `cc >= 80`): the
//!   operands are split with `cvt.rna.tf32.f32` inline asm into big and small
//!   parts, then `small*big + big*small` (NaNs zeroed) `+ big*big` as three
//!   `tf32` dots keeping `maxNumImpreciseAcc`, plus the accumulator.
//!
//! Locations follow Triton's builders: the split ops and dots take their
//! first operand's location, the zero accumulators their template's, the asm
//! and the final add the dot's.

use melior::{
    ir::{
        attribute::{BoolAttribute, FloatAttribute, IntegerAttribute, StringAttribute},
        operation::{OperationLike, OperationRef},
        r#type::IntegerType,
        Identifier, Location, Type, TypeLike, Value, ValueLike,
    },
    pass::Pass,
    RewriterBase,
};

use tt_dialect::ir::{self, create, first_result, operand};
use tt_dialect::rewrite::{apply_greedily, Greedy, Pattern, Root};
use tt_dialect::types::Tensor;

use crate::options::PassOptions;
use crate::rust_pass::{fail, PassResult, RustPass};

/// The pass's flag.
pub const ARGUMENT: &str = "tritongpu-F32DotTC";

/// `tt.dot`'s `inputPrecision` values (an i32 enum).
const TF32: i64 = 0;
const TF32X3: i64 = 1;
const IEEE: i64 = 2;
const BF16X3: i64 = 3;
const BF16X6: i64 = 4;

/// `arith.cmpf`'s `uno` predicate.
const CMPF_UNO: i64 = 14;

static BF16XN: Pattern = Pattern {
    benefit: 1,
    rewrite: bf16xn,
    generated: &[],
};
static TF32X3_PATTERN: Pattern = Pattern {
    benefit: 1,
    rewrite: tf32x3,
    generated: &[],
};

/// Parses `emu-tf32` (default `false`).
pub fn parse_emu_tf32(options: &PassOptions) -> Result<bool, String> {
    options.flag("emu-tf32", false)
}

/// The pass; its `run` uses the default options.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUF32DotTC",
    argument: ARGUMENT,
    description: "Decompose fp32 dots with bf16x3/bf16x6 (and, with emu-tf32, tf32x3) precision",
    anchor: "builtin.module",
    run: |op| converged(op, run(op, false)),
};

/// Builds the pass from its options.
pub fn factory(options: &PassOptions) -> Result<Pass, String> {
    let emu_tf32 = parse_emu_tf32(options)?;
    Ok(PASS.build_with(move |op| converged(op, run(op, emu_tf32))))
}

fn converged(op: OperationRef, converged: bool) -> PassResult {
    if converged {
        Ok(())
    } else {
        Err(fail(op, "pattern application did not converge"))
    }
}

/// Applies the decompositions to `module`; `false` if the driver did not
/// converge.
fn run(module: OperationRef, emu_tf32: bool) -> bool {
    let mut patterns = Vec::new();
    if emu_tf32 {
        patterns.push((Root::Op("tt.dot"), &TF32X3_PATTERN));
    }
    patterns.push((Root::Op("tt.dot"), &BF16XN));
    apply_greedily(module, &patterns, Greedy::default())
}

/// The location MLIR's `Value::getLoc` gives: the defining op's, or the
/// block argument's.
fn value_location<'c>(value: Value<'c, '_>) -> Location<'c> {
    unsafe { Location::from_raw(mlir_sys::mlirValueGetLocation(value.to_raw())) }
}

fn is_f32_tensor(value: Value) -> bool {
    Tensor::of(value.r#type())
        .is_some_and(|t| unsafe { mlir_sys::mlirTypeIsAF32(t.element.to_raw()) })
}

fn precision(dot: OperationRef) -> i64 {
    dot.attribute("inputPrecision")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map_or(IEEE, |a| a.value())
}

fn max_num_imprecise_acc(dot: OperationRef) -> i64 {
    dot.attribute("maxNumImpreciseAcc")
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map_or(0, |a| a.value())
}

/// The builders the rewrites share.
struct Builder<'r, 'c, 'a> {
    rewriter: &'r RewriterBase<'c, 'a>,
    context: &'c melior::Context,
}

impl<'c: 'a, 'a> Builder<'_, 'c, 'a> {
    fn op(
        &self,
        name: &str,
        location: Location<'c>,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
        attributes: &[(&str, melior::ir::Attribute<'c>)],
    ) -> Value<'c, 'a> {
        let attributes: Vec<_> = attributes
            .iter()
            .map(|(name, value)| (Identifier::new(self.context, name), *value))
            .collect();
        first_result(create(
            self.rewriter,
            name,
            location,
            operands,
            &[result],
            &attributes,
        ))
    }

    fn i32_attr(&self, value: i64) -> melior::ir::Attribute<'c> {
        IntegerAttribute::new(IntegerType::new(self.context, 32).into(), value).into()
    }

    /// `value`'s tensor type with another element type.
    fn with_element(&self, value: Value<'c, '_>, element: Type<'c>) -> Type<'c> {
        let tensor = Tensor::of(value.r#type()).expect("a ranked tensor");
        ir::tensor_type(&tensor.shape, element, tensor.encoding)
    }

    /// `splat(arith.constant 0.0 : f32)` of `like`'s type, at `like`'s
    /// location.
    fn zero_like(&self, like: Value<'c, '_>) -> Value<'c, 'a> {
        let location = value_location(like);
        let f32_type = Type::float32(self.context);
        let zero = self.op(
            "arith.constant",
            location,
            &[],
            f32_type,
            &[(
                "value",
                FloatAttribute::new(self.context, f32_type, 0.0).into(),
            )],
        );
        self.op("tt.splat", location, &[zero], like.r#type(), &[])
    }

    /// `tt.dot lhs, rhs, acc` at `lhs`'s location.
    fn dot(
        &self,
        lhs: Value<'c, '_>,
        rhs: Value<'c, '_>,
        acc: Value<'c, '_>,
        precision: i64,
        max_num_imprecise_acc: i64,
    ) -> Value<'c, 'a> {
        self.op(
            "tt.dot",
            value_location(lhs),
            &[lhs, rhs, acc],
            acc.r#type(),
            &[
                ("inputPrecision", self.i32_attr(precision)),
                ("maxNumImpreciseAcc", self.i32_attr(max_num_imprecise_acc)),
            ],
        )
    }

    /// `select(cmpf uno (v, v), zero, v)` at `v`'s location.
    fn replace_nans_with_zeros(&self, value: Value<'c, '_>) -> Value<'c, 'a> {
        let location = value_location(value);
        let i1 = IntegerType::new(self.context, 1).into();
        let nans = self.op(
            "arith.cmpf",
            location,
            &[value, value],
            self.with_element(value, i1),
            &[(
                "predicate",
                IntegerAttribute::new(IntegerType::new(self.context, 64).into(), CMPF_UNO).into(),
            )],
        );
        let zero = self.zero_like(value);
        self.op(
            "arith.select",
            location,
            &[nans, zero, value],
            value.r#type(),
            &[],
        )
    }

    /// Splits an f32 tensor into `n` bf16 parts, most significant first.
    fn split_f32(&self, input: Value<'c, 'a>, n: usize) -> Vec<Value<'c, 'a>> {
        let bf16 = Type::bfloat16(self.context);
        let f32_type = Type::float32(self.context);
        let mut input = input;
        let mut parts = Vec::with_capacity(n);
        for i in 0..n {
            let part = self.op(
                "arith.truncf",
                value_location(input),
                &[input],
                self.with_element(input, bf16),
                &[],
            );
            if i != n - 1 {
                let wide = self.op(
                    "arith.extf",
                    value_location(part),
                    &[part],
                    self.with_element(part, f32_type),
                    &[],
                );
                input = self.op(
                    "arith.subf",
                    value_location(input),
                    &[input, wide],
                    input.r#type(),
                    &[],
                );
            }
            parts.push(part);
        }
        parts
    }
}

/// The `bf16x3` / `bf16x6` decomposition.
fn bf16xn<'c, 'a>(dot: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let n = match precision(dot) {
        BF16X3 => 2,
        BF16X6 => 3,
        _ => return false,
    };
    let (Some(a), Some(b), Some(c)) = (operand(dot, 0), operand(dot, 1), operand(dot, 2)) else {
        return false;
    };
    if !is_f32_tensor(a) || !is_f32_tensor(b) {
        return false;
    }
    let context_ref = dot.context();
    let context = unsafe { context_ref.to_ref() };
    let build = Builder { rewriter, context };
    const HI: usize = 0;
    const MID: usize = 1;
    const LO: usize = 2;
    let lhs = build.split_f32(a, n);
    let rhs = build.split_f32(b, n);
    let mut result = build.zero_like(c);
    if n == 3 {
        result = build.dot(lhs[MID], rhs[MID], result, IEEE, 0);
        result = build.dot(lhs[LO], rhs[HI], result, IEEE, 0);
        result = build.dot(lhs[HI], rhs[LO], result, IEEE, 0);
    }
    result = build.dot(lhs[MID], rhs[HI], result, IEEE, 0);
    result = build.dot(lhs[HI], rhs[MID], result, IEEE, 0);
    result = build.replace_nans_with_zeros(result);
    result = build.dot(lhs[HI], rhs[HI], result, IEEE, 0);
    let sum = build.op(
        "arith.addf",
        dot.location(),
        &[result, c],
        result.r#type(),
        &[],
    );
    rewriter.replace_op_with_values(dot, &[sum]);
    true
}

/// The `tf32x3` decomposition.
fn tf32x3<'c, 'a>(dot: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    if precision(dot) != TF32X3 {
        return false;
    }
    let (Some(a), Some(b), Some(c)) = (operand(dot, 0), operand(dot, 1), operand(dot, 2)) else {
        return false;
    };
    if !is_f32_tensor(a) || !is_f32_tensor(b) {
        return false;
    }
    let context_ref = dot.context();
    let context = unsafe { context_ref.to_ref() };
    let build = Builder { rewriter, context };
    let location = dot.location();
    let max_acc = max_num_imprecise_acc(dot);
    let to_tf32 = |value: Value<'c, 'a>| {
        build.op(
            "tt.elementwise_inline_asm",
            location,
            &[value],
            value.r#type(),
            &[
                (
                    "asm_string",
                    StringAttribute::new(context, "cvt.rna.tf32.f32 $0, $1;").into(),
                ),
                ("constraints", StringAttribute::new(context, "=r,r").into()),
                ("pure", BoolAttribute::new(context, true).into()),
                ("packed_element", build.i32_attr(1)),
            ],
        )
    };
    let sub = |x: Value<'c, 'a>, y: Value<'c, 'a>| {
        build.op("arith.subf", location, &[x, y], x.r#type(), &[])
    };
    let a_big = to_tf32(a);
    let a_small = sub(a, a_big);
    let b_big = to_tf32(b);
    let b_small = sub(b, b_big);
    let zero = build.zero_like(c);
    let dot1 = build.dot(a_small, b_big, zero, TF32, max_acc);
    let dot2 = build.dot(a_big, b_small, dot1, TF32, max_acc);
    let dot2_without_nans = build.replace_nans_with_zeros(dot2);
    let dot3 = build.dot(a_big, b_big, dot2_without_nans, TF32, max_acc);
    let sum = build.op("arith.addf", location, &[dot3, c], dot3.r#type(), &[]);
    rewriter.replace_op_with_values(dot, &[sum]);
    true
}
