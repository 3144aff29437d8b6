//! `triton-reorder-broadcast`: moves splats and broadcasts below the
//! elementwise ops that consume them, so that the arithmetic runs on the
//! smaller tensor (or on scalars):
//!
//! * `f(splat(a), splat(b), ...)` becomes `splat(f(a, b, ...))`, splat
//!   constants counting as splats;
//! * `f(broadcast(a), splat(b), ...)` becomes `broadcast(f(a, splat'(b),
//!   ...))`, where every broadcast operand has the same source shape.
//!
//! `f` is any memory-effect-free op with MLIR's `Elementwise` trait. The
//! canonicalization patterns of `tt.broadcast` and `tt.expand_dims` run in
//! the same greedy driver, as in Triton.

use melior::ir::{
    operation::{OperationLike, OperationRef},
    AttributeLike, Identifier, Type, Value, ValueLike,
};
use melior::RewriterBase;

use tt_dialect::canonicalize::patterns::patterns as canonicalization_patterns;
use tt_dialect::ir::{self, create, create_like, defined_by, first_result, Trait};
use tt_dialect::rewrite::{apply_greedily, Greedy, Pattern, Root};
use tt_dialect::types::TensorView;

use crate::rust_pass::{fail, PassResult, RustPass};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonReorderBroadcast",
    argument: "triton-reorder-broadcast",
    description: "Move splats and broadcasts after elementwise operations",
    anchor: "builtin.module",
    run,
};

static BROADCAST_AFTER_ELEMENTWISE: Pattern = Pattern {
    benefit: 1,
    rewrite: broadcast_after_elementwise,
    generated: &[],
};
static SPLAT_AFTER_ELEMENTWISE: Pattern = Pattern {
    benefit: 1,
    rewrite: splat_after_elementwise,
    generated: &[],
};

fn run(module: OperationRef) -> PassResult {
    let mut patterns: Vec<(Root, &'static Pattern)> = Vec::new();
    for name in ["tt.broadcast", "tt.expand_dims"] {
        patterns.extend(
            canonicalization_patterns(name)
                .iter()
                .map(|p| (Root::Op(name), p)),
        );
    }
    patterns.push((Root::AnyOp, &BROADCAST_AFTER_ELEMENTWISE));
    patterns.push((Root::AnyOp, &SPLAT_AFTER_ELEMENTWISE));
    if apply_greedily(module, &patterns, Greedy::default()) {
        Ok(())
    } else {
        Err(fail(module, "pattern application did not converge"))
    }
}

/// What a splat-like operand holds.
enum Splat<'c, 'a> {
    /// `tt.splat` of this scalar.
    Of(Value<'c, 'a>),
    /// A splat constant of this element.
    Constant(melior::ir::Attribute<'c>),
}

fn splat_like<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<Splat<'c, 'a>> {
    if let Some(splat) = defined_by(value, "tt.splat") {
        return splat.operand(0).ok().map(Splat::Of);
    }
    ir::constant_of(value)
        .and_then(ir::dense_splat_value)
        .map(Splat::Constant)
}

/// An elementwise op the patterns may move: no memory effects, at least one
/// operand, tensor results.
fn movable(op: OperationRef) -> bool {
    ir::has_trait(op, Trait::Elementwise)
        && ir::is_memory_effect_free(op)
        && op.operand_count() > 0
        && op.results().all(|r| TensorView::of(r.r#type()).is_some())
}

fn constant<'c: 'a, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    op: OperationRef<'c, '_>,
    ty: Type<'c>,
    value: melior::ir::Attribute<'c>,
) -> Value<'c, 'a> {
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    first_result(create(
        rewriter,
        "arith.constant",
        op.location(),
        &[],
        &[ty],
        &[(Identifier::new(context, "value"), value)],
    ))
}

/// Applies the one-operand op `name` (a splat or broadcast at `op`'s
/// location) to each result of `inner`, giving result `i` type `types[i]`.
fn wrap_results<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    op: OperationRef<'c, '_>,
    inner: OperationRef<'c, 'a>,
    name: &str,
    types: &[Type<'c>],
) -> Vec<Value<'c, 'a>> {
    types
        .iter()
        .enumerate()
        .map(|(i, ty)| {
            let value = ir::result(inner, i).expect("created with one result per type");
            first_result(create(rewriter, name, op.location(), &[value], &[*ty], &[]))
        })
        .collect()
}

fn splat_after_elementwise<'c, 'a>(
    op: OperationRef<'c, 'a>,
    rewriter: &RewriterBase<'c, 'a>,
) -> bool {
    if !movable(op) {
        return false;
    }
    let Some(splats) = op.operands().map(splat_like).collect::<Option<Vec<_>>>() else {
        return false;
    };
    let scalars: Vec<Value> = splats
        .into_iter()
        .map(|splat| match splat {
            Splat::Of(scalar) => scalar,
            Splat::Constant(element) => constant(rewriter, op, element.r#type(), element),
        })
        .collect();
    let tensor_types: Vec<Type> = op.results().map(|r| r.r#type()).collect();
    let scalar_types: Vec<Type> = tensor_types
        .iter()
        .filter_map(|t| TensorView::of(*t).map(|v| v.element))
        .collect();
    let scalar_op = create_like(rewriter, op, &scalars, &scalar_types);
    let splats = wrap_results(rewriter, op, scalar_op, "tt.splat", &tensor_types);
    rewriter.replace_op_with_values(op, &splats);
    true
}

fn broadcast_after_elementwise<'c, 'a>(
    op: OperationRef<'c, 'a>,
    rewriter: &RewriterBase<'c, 'a>,
) -> bool {
    if !movable(op) {
        return false;
    }
    // Every operand is a broadcast (all from the same source shape) or
    // splat-like, and at least one is a broadcast.
    let mut source: Option<TensorView> = None;
    for operand in op.operands() {
        if let Some(broadcast) = defined_by(operand, "tt.broadcast") {
            let Some(src) = broadcast
                .operand(0)
                .ok()
                .and_then(|v| TensorView::of(v.r#type()))
            else {
                return false;
            };
            match source {
                None => source = Some(src),
                Some(seen) if seen.shape != src.shape => return false,
                Some(_) => {}
            }
        } else if splat_like(operand).is_none() {
            return false;
        }
    }
    let Some(source) = source else {
        return false;
    };
    let narrow = |ty: Type<'c>| {
        TensorView::of(ty).map(|t| ir::tensor_type(source.shape, t.element, source.encoding))
    };
    // Plan every operand before creating anything, so that a refusal leaves
    // the IR untouched.
    enum Narrowed<'c, 'a> {
        Source(Value<'c, 'a>),
        Splat(Value<'c, 'a>, Type<'c>),
        Constant(Type<'c>, melior::ir::Attribute<'c>),
    }
    let mut plan = Vec::new();
    for operand in op.operands() {
        if let Some(broadcast) = defined_by(operand, "tt.broadcast") {
            let Some(src) = ir::operand(broadcast, 0) else {
                return false;
            };
            plan.push(Narrowed::Source(src));
            continue;
        }
        let Some(ty) = narrow(operand.r#type()) else {
            return false;
        };
        plan.push(match splat_like(operand) {
            Some(Splat::Of(scalar)) => Narrowed::Splat(scalar, ty),
            Some(Splat::Constant(element)) => match ir::splat_attr(ty, element) {
                Some(attr) => Narrowed::Constant(ty, attr),
                None => return false,
            },
            None => return false,
        });
    }
    let wide_types: Vec<Type> = op.results().map(|r| r.r#type()).collect();
    let Some(narrow_types) = wide_types
        .iter()
        .map(|t| narrow(*t))
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    let operands: Vec<Value> = plan
        .into_iter()
        .map(|narrowed| match narrowed {
            Narrowed::Source(src) => src,
            Narrowed::Splat(scalar, ty) => first_result(create(
                rewriter,
                "tt.splat",
                op.location(),
                &[scalar],
                &[ty],
                &[],
            )),
            Narrowed::Constant(ty, attr) => constant(rewriter, op, ty, attr),
        })
        .collect();
    let narrow_op = create_like(rewriter, op, &operands, &narrow_types);
    let broadcasts = wrap_results(rewriter, op, narrow_op, "tt.broadcast", &wide_types);
    rewriter.replace_op_with_values(op, &broadcasts);
    true
}
