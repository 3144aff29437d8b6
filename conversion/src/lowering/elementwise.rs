//! Elementwise ops: each is rebuilt once per element on scalars. The
//! `arith` and `math` ops with a one-to-one LLVM counterpart become it
//! here, as MLIR's `arith`/`math`-to-LLVM patterns would map them; the
//! ops Triton lowers to fast PTX (`divf` and `exp` on f32) or to
//! libdevice (`exp2` on f32 among them) get that lowering. What is left (ops with fast-math or
//! overflow flags, or without a counterpart here) stays in its dialect
//! for MLIR's conversions, and the lowering records that it did.

use melior::ir::{
    attribute::FloatAttribute,
    block::BlockLike,
    operation::{OperationLike, OperationRef},
    r#type::TypeLike,
    Attribute, RegionLike, Type, Value, ValueLike,
};
use tt_dialect::{
    ir as ttir,
    types::{element_type, TensorView},
};

use super::{types, value_at, Distributed, Emitter, LowerResult, Lowering};

/// `math` ops that NVPTX cannot select directly and that libdevice
/// provides as `__nv_<name>f` (f32) and `__nv_<name>` (f64).
const LIBDEVICE: &[(&str, &str)] = &[
    ("math.log", "log"),
    ("math.log2", "log2"),
    ("math.log1p", "log1p"),
    ("math.expm1", "expm1"),
    ("math.sin", "sin"),
    ("math.cos", "cos"),
    ("math.tan", "tan"),
    ("math.asin", "asin"),
    ("math.acos", "acos"),
    ("math.atan", "atan"),
    ("math.atan2", "atan2"),
    ("math.sinh", "sinh"),
    ("math.cosh", "cosh"),
    ("math.tanh", "tanh"),
    ("math.asinh", "asinh"),
    ("math.acosh", "acosh"),
    ("math.atanh", "atanh"),
    ("math.erf", "erf"),
    ("math.rsqrt", "rsqrt"),
    ("math.cbrt", "cbrt"),
    ("math.powf", "pow"),
    ("math.log10", "log10"),
];

/// `arith` and `math` ops and their LLVM-dialect counterparts, which take
/// the same operands and give the same result: the mapping of MLIR's
/// `arith`/`math`-to-LLVM patterns for these ops. `arith.cmpi`/`cmpf`
/// keep their `predicate`, which numbers the predicates as `llvm.icmp`/
/// `fcmp` do.
const LLVM_OPS: &[(&str, &str)] = &[
    ("arith.addf", "llvm.fadd"),
    ("arith.subf", "llvm.fsub"),
    ("arith.mulf", "llvm.fmul"),
    ("arith.divf", "llvm.fdiv"),
    ("arith.remf", "llvm.frem"),
    ("arith.negf", "llvm.fneg"),
    ("arith.addi", "llvm.add"),
    ("arith.subi", "llvm.sub"),
    ("arith.muli", "llvm.mul"),
    ("arith.divsi", "llvm.sdiv"),
    ("arith.divui", "llvm.udiv"),
    ("arith.remsi", "llvm.srem"),
    ("arith.remui", "llvm.urem"),
    ("arith.andi", "llvm.and"),
    ("arith.ori", "llvm.or"),
    ("arith.xori", "llvm.xor"),
    ("arith.shli", "llvm.shl"),
    ("arith.shrsi", "llvm.ashr"),
    ("arith.shrui", "llvm.lshr"),
    ("arith.cmpi", "llvm.icmp"),
    ("arith.cmpf", "llvm.fcmp"),
    ("arith.select", "llvm.select"),
    ("arith.extsi", "llvm.sext"),
    ("arith.extui", "llvm.zext"),
    ("arith.trunci", "llvm.trunc"),
    ("arith.extf", "llvm.fpext"),
    ("arith.truncf", "llvm.fptrunc"),
    ("arith.sitofp", "llvm.sitofp"),
    ("arith.uitofp", "llvm.uitofp"),
    ("arith.fptosi", "llvm.fptosi"),
    ("arith.fptoui", "llvm.fptoui"),
    ("arith.bitcast", "llvm.bitcast"),
    ("arith.maxnumf", "llvm.intr.maxnum"),
    ("arith.minnumf", "llvm.intr.minnum"),
    ("arith.maximumf", "llvm.intr.maximum"),
    ("arith.minimumf", "llvm.intr.minimum"),
    ("arith.maxsi", "llvm.intr.smax"),
    ("arith.minsi", "llvm.intr.smin"),
    ("arith.maxui", "llvm.intr.umax"),
    ("arith.minui", "llvm.intr.umin"),
    ("math.absf", "llvm.intr.fabs"),
    ("math.sqrt", "llvm.intr.sqrt"),
    ("math.floor", "llvm.intr.floor"),
    ("math.ceil", "llvm.intr.ceil"),
    ("math.trunc", "llvm.intr.trunc"),
    ("math.fma", "llvm.intr.fma"),
    ("math.exp2", "llvm.intr.exp2"),
];

/// Whether LLVM may turn `fptrunc` of the TTGIR value `v` into arithmetic
/// on the narrow type: `v` is an `arith.extf`, an `arith.addf`, `subf` or
/// `mulf` of two of them (exact after rounding twice, so InstCombine
/// shrinks it), or a block argument (a merged `scf.if` or loop result)
/// that one of those flows into. Such a conversion stays scalar: a vector
/// of the merged values would hide the pattern from InstCombine, and the
/// NVPTX backend still pairs what is left into `cvt.rn.f16x2.f32`.
fn narrowable(v: Value) -> bool {
    let extended = |v: Value| ttir::defining_op(v).is_some_and(|d| ttir::is_op(d, "arith.extf"));
    let direct = |v: Value| {
        extended(v)
            || ttir::defining_op(v).is_some_and(|d| {
                ["arith.addf", "arith.subf", "arith.mulf"]
                    .iter()
                    .any(|n| ttir::is_op(d, n))
                    && d.operands().all(extended)
            })
    };
    if direct(v) {
        return true;
    }
    let Some(arg) = ttir::block_argument(v) else {
        return false;
    };
    let (target, index) = (arg.owner(), arg.argument_number());
    let Some(region) = target.parent_region() else {
        return false;
    };
    let mut block = region.first_block();
    while let Some(b) = block {
        let edges = b.terminator().and_then(ttir::branch_edges);
        for (successor, forwarded) in edges.into_iter().flatten() {
            if successor == target && forwarded.get(index).is_some_and(|&v| direct(v)) {
                return true;
            }
        }
        block = b.next_in_region();
    }
    false
}

/// Ops rebuilt per element under their own name when they have no LLVM
/// counterpart here.
fn is_scalar_dialect(name: &str) -> bool {
    name.starts_with("arith.") || name.starts_with("math.")
}

/// The LLVM op that the op `name` with `attributes` becomes, with the
/// attributes it keeps; `None` when MLIR's conversions must handle it: no
/// counterpart here, or flags (fast-math, overflow, rounding) that are not
/// the defaults.
fn llvm_counterpart<'c>(
    lw: &Lowering<'c, '_>,
    name: &str,
    attributes: &[(String, Attribute<'c>)],
) -> Option<(&'static str, Vec<(String, Attribute<'c>)>)> {
    let (_, llvm) = LLVM_OPS.iter().find(|(n, _)| *n == name)?;
    let mut kept = Vec::new();
    for (id, attribute) in attributes {
        match id.as_str() {
            "predicate" => kept.push((id.clone(), *attribute)),
            "fastmath" | "overflowFlags" if lw.no_flags.contains(attribute) => {}
            _ => return None,
        }
    }
    Some((llvm, kept))
}

pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    name: &str,
) -> LowerResult {
    let (op_name, scalar_name): (&str, Option<String>) = match name {
        "tt.bitcast" => (name, Some("llvm.bitcast".into())),
        "tt.int_to_ptr" => (name, Some("llvm.inttoptr".into())),
        "tt.ptr_to_int" => (name, Some("llvm.ptrtoint".into())),
        // Lowered by `special` alone.
        "tt.mulhiui"
        | "tt.precise_divf"
        | "tt.precise_sqrt"
        | "tt.clampf"
        | "tt.fp_to_fp"
        | "tt.extern_elementwise" => (name, None),
        _ if is_scalar_dialect(name) => (name, None),
        _ => return Err(format!("'{name}' is not supported yet")),
    };
    if op.result_count() != 1 || op.region_count() != 0 {
        return Err(format!("'{op_name}' is not an elementwise op"));
    }
    if name == "arith.constant" {
        return constant(lw, emit, op);
    }
    let result: Value = op.result(0).expect("one result").into();
    let result_type = result.r#type();
    let dist = if TensorView::of(result_type).is_some() {
        Some(lw.distributed(result_type)?)
    } else {
        None
    };
    let n = dist.as_deref().map_or(1, Distributed::len);
    let operands: Vec<Vec<Value>> = op.operands().map(|v| lw.get(v)).collect::<Result<_, _>>()?;
    if operands.iter().any(|o| o.len() != n && o.len() != 1) {
        return Err("operands and result hold different numbers of elements".into());
    }
    let element_type = lw.element_type(result_type);
    // The op the generic rebuild builds, with its attributes, and whether
    // that op is left for MLIR's conversions (recorded only if an element
    // is rebuilt that way: `special` may lower every one).
    let (generic_name, attributes, leaves) = match &scalar_name {
        Some(_) => (name, Vec::new(), false),
        None => {
            let all: Vec<(String, Attribute)> = ttir::attributes(op)
                .into_iter()
                .map(|(id, a)| (id.as_string_ref().as_str().unwrap_or("").to_owned(), a))
                .collect();
            match llvm_counterpart(lw, name, &all) {
                Some((llvm, kept)) => (llvm, kept, false),
                None => (name, all, true),
            }
        }
    };
    let attributes: Vec<(&str, Attribute)> =
        attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    // Triton's deduplication: where the result is constant over aligned
    // groups of a thread's registers (AxisInfo's constancy), only the
    // first register of each group is computed and the others reuse it.
    let constant_bits = dist.map_or(0, |dist| {
        let constancy: Vec<i64> = (0..dist.rank())
            .map(|d| lw.axis.constancy(result, d))
            .collect();
        dist.constant_register_bits(&constancy)
    });
    let mut values = Vec::with_capacity(n);
    // f32 to f16 or bf16 two registers at a time: LLVM's NVPTX backend
    // converts a two-element vector with one `cvt.rn.{f16,bf16}x2.f32`, as
    // Triton's lowering does (same rounding, half the instructions);
    // one at a time where LLVM can do the arithmetic in f16 instead
    // ([`narrowable`]).
    let source = operands.first().and_then(|o| o.first()).map(|v| v.r#type());
    let paired = generic_name == "llvm.fptrunc"
        && attributes.is_empty()
        && constant_bits == 0
        && n % 2 == 0
        && operands[0].len() == n
        && source.is_some_and(|t| t.to_string() == "f32")
        && ["f16", "bf16"].contains(&element_type.to_string().as_str())
        && !op.operand(0).is_ok_and(narrowable);
    if let (true, Some(source)) = (paired, source) {
        let pair = emit.vector_type(2, element_type);
        for chunk in operands[0].chunks(2) {
            let wide = emit.vector_of(chunk, source);
            let narrow = emit.value("llvm.fptrunc", &[wide], pair, &[]);
            values.extend(emit.elements_of(narrow, 2, element_type));
        }
        lw.set(result, values);
        return Ok(());
    }
    // i8 to bf16 four registers at a time, as Triton converts them.
    if name == "arith.sitofp"
        && constant_bits == 0
        && n.is_multiple_of(4)
        && operands[0].len() == n
        && types::is_bf16(element_type)
        && source.is_some_and(|t| t.to_string() == "i8")
    {
        let values = operands[0]
            .chunks(4)
            .flat_map(|quad| i8_to_bf16(lw, emit, quad, element_type))
            .collect();
        lw.set(result, values);
        return Ok(());
    }
    // fp8 conversions a pair of registers at a time, as Triton packs them.
    if name == "tt.fp_to_fp" && constant_bits == 0 && n % 2 == 0 && operands[0].len() == n {
        if let Some(values) = fp8_in_pairs(lw, emit, op, &operands[0], element_type)? {
            lw.set(result, values);
            return Ok(());
        }
    }
    for i in 0..n {
        let representative = i & !constant_bits;
        if representative != i {
            values.push(values[representative]);
            continue;
        }
        let args: Vec<Value> = operands.iter().map(|o| value_at(o, i)).collect();
        let v = match special(lw, emit, op, &args, element_type)? {
            Some(v) => v,
            None => match &scalar_name {
                Some(llvm) => {
                    if name == "tt.bitcast" && args[0].r#type() == element_type {
                        args[0]
                    } else {
                        emit.value(llvm, &args, element_type, &[])
                    }
                }
                None => {
                    lw.left_for_mlir |= leaves;
                    emit.value(generic_name, &args, element_type, &attributes)
                }
            },
        };
        values.push(v);
    }
    lw.set(result, values);
    Ok(())
}

/// A quiet NaN of float type `ty`.
fn nan<'c, 'a>(emit: &Emitter<'c, 'a>, ty: Type<'c>) -> Value<'c, 'a> {
    emit.constant(ty, FloatAttribute::new(emit.context, ty, f64::NAN).into())
}

/// `tt.clampf` as Triton lowers it: `clamp(x, -limit, limit)` becomes one
/// `min.xorsign.abs` on sm_90 and later (f32 and f16); otherwise
/// `min(max(x, lo), hi)`, where `propagateNan = all` takes the
/// NaN-propagating forms from sm_80 on and selects NaN for a NaN `x`
/// before.
fn clamp<'c, 'a>(
    lw: &Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    args: &[Value<'c, 'a>],
    ty: Type<'c>,
) -> Value<'c, 'a> {
    let propagate_nan = ttir::inherent_attribute(op, "propagateNan")
        .and_then(ttir::int_value)
        .is_some_and(|(v, _)| v != 0);
    let cc = lw.options.compute_capability;
    let suffix = if types::is_f32(ty) {
        Some(".f")
    } else if ty.to_string() == "f16" {
        Some(".f16")
    } else {
        None
    };
    if let Some(suffix) = suffix.filter(|_| cc >= 90 && is_clip(op)) {
        let nan = if propagate_nan { ".nan" } else { "" };
        let intrinsic = format!("llvm.nvvm.fmin{nan}.xorsign.abs{suffix}");
        return emit.call_intrinsic(&intrinsic, &[args[0], args[2]], ty);
    }
    if propagate_nan && cc >= 80 {
        let low = emit.value("llvm.intr.maximum", &[args[0], args[1]], ty, &[]);
        return emit.value("llvm.intr.minimum", &[low, args[2]], ty, &[]);
    }
    let is_nan = propagate_nan.then(|| emit.fcmp("une", args[0], args[0]));
    let low = emit.value("llvm.intr.maxnum", &[args[0], args[1]], ty, &[]);
    let value = emit.value("llvm.intr.minnum", &[low, args[2]], ty, &[]);
    match is_nan {
        Some(is_nan) => emit.select(is_nan, nan(emit, ty), value),
        None => value,
    }
}

/// Whether `tt.clampf`'s bounds are `-limit` and `limit`, in the forms
/// Triton recognises: `negf(limit)` (also of the splats' sources),
/// `0.0 - limit`, or constants `-c` and `c`.
fn is_clip(op: OperationRef) -> bool {
    let (Some(lower), Some(upper)) = (ttir::operand(op, 1), ttir::operand(op, 2)) else {
        return false;
    };
    let negates = |negated: Value, value: Value| {
        ttir::defined_by(negated, "arith.negf")
            .and_then(|neg| ttir::operand(neg, 0))
            .is_some_and(|v| v == value)
    };
    if negates(lower, upper) {
        return true;
    }
    let source = |v| ttir::defined_by(v, "tt.splat").and_then(|s| ttir::operand(s, 0));
    if let (Some(lower), Some(upper)) = (source(lower), source(upper)) {
        if negates(lower, upper) {
            return true;
        }
    }
    let float = |v| ttir::constant_of(v).and_then(ttir::splat_float);
    if let Some(sub) = ttir::defined_by(lower, "arith.subf") {
        if ttir::operand(sub, 1) == Some(upper)
            && ttir::operand(sub, 0).and_then(float) == Some(0.0)
        {
            return true;
        }
    }
    matches!((float(lower), float(upper)), (Some(l), Some(u)) if l == -u)
}

/// Ops with a lowering of their own; `None` for the generic rebuild.
fn special<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    args: &[Value<'c, 'a>],
    ty: Type<'c>,
) -> Result<Option<Value<'c, 'a>>, String> {
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default();
    Ok(match name {
        // Triton's `umulhi`: libdevice's high half of the unsigned product.
        "tt.mulhiui" => {
            let symbol = match ttir::int_width(ty) {
                Some(32) => "__nv_umulhi",
                Some(64) => "__nv_umul64hi",
                _ => return Err(format!("'tt.mulhiui' on {ty} is not supported yet")),
            };
            Some(libdevice_call(lw, emit, symbol, args, ty))
        }
        "tt.fp_to_fp" => Some(fp_to_fp(lw, emit, op, args[0], ty)?),
        "tt.extern_elementwise" => Some(extern_call(lw, emit, op, args, ty)?),
        // fp8 travels as i8: the absolute value clears the sign bit.
        "math.absf" if ttir::int_width(ty) == Some(8) => {
            Some(emit.and(args[0], emit.int(ty, 0x7f)))
        }
        // Triton's `tl.sqrt` on f32 is the fast square root: Triton
        // lowers `math.sqrt` to libdevice's `__nv_sqrtf`, which its
        // reflect settings (flush to zero, no precise square root) turn
        // into `sqrt.approx.ftz.f32`. f64 stays IEEE, as there.
        "math.sqrt" if ty.to_string() == "f32" => {
            Some(emit.call_intrinsic("llvm.nvvm.sqrt.approx.ftz.f", args, ty))
        }
        // IEEE division and square root: NVVM's `div.rn` and `sqrt.rn`
        // intrinsics as Triton's, whatever the NVPTX precision options
        // (other widths: LLVM's ops, whose NVPTX defaults round the same).
        "tt.precise_divf" | "tt.precise_sqrt" => {
            let suffix = match ty.to_string().as_str() {
                "f32" => Some("f"),
                "f64" => Some("d"),
                _ => None,
            };
            let divide = name == "tt.precise_divf";
            Some(match (suffix, divide) {
                (Some(s), true) => emit.call_intrinsic(&format!("llvm.nvvm.div.rn.{s}"), args, ty),
                (Some(s), false) => {
                    emit.call_intrinsic(&format!("llvm.nvvm.sqrt.rn.{s}"), args, ty)
                }
                (None, true) => emit.value("llvm.fdiv", args, ty, &[]),
                (None, false) => emit.value("llvm.intr.sqrt", args, ty, &[]),
            })
        }
        // clamp(x, lo, hi) = min(max(x, lo), hi).
        "tt.clampf" => Some(clamp(lw, emit, op, args, ty)),
        // Before sm_80 PTX has no NaN-propagating min/max: NaN is selected
        // when either operand is NaN, as Triton does.
        "arith.maximumf" | "arith.minimumf" if lw.options.compute_capability < 80 => {
            let num = if name == "arith.maximumf" {
                "llvm.intr.maxnum"
            } else {
                "llvm.intr.minnum"
            };
            let is_nan = emit.or(
                emit.fcmp("une", args[0], args[0]),
                emit.fcmp("une", args[1], args[1]),
            );
            let value = emit.value(num, &args[..2], ty, &[]);
            Some(emit.select(is_nan, nan(emit, ty), value))
        }
        // Triton's f32 division: the full-range approximate divide.
        "arith.divf" if types::is_f32(ty) => emit
            .inline_asm(
                "div.full.f32 $0, $1, $2;",
                "=r,r,r",
                &[
                    emit.bitcast(args[0], emit.i32_type()),
                    emit.bitcast(args[1], emit.i32_type()),
                ],
                Some(emit.i32_type()),
            )
            .map(|v| emit.bitcast(v, ty)),
        // exp(x) = 2^(x * log2(e)), with the hardware's ex2.
        "math.exp" if types::is_f32(ty) => {
            let log2e = emit.constant(
                ty,
                FloatAttribute::new(emit.context, ty, std::f64::consts::LOG2_E).into(),
            );
            let scaled = emit.value("llvm.fmul", &[args[0], log2e], ty, &[]);
            Some(ex2(emit, scaled))
        }
        // Triton calls libdevice's exp2f, whose `nvvm-reflect-ftz` branch
        // picks `ex2.approx.ftz.f32` or `ex2.approx.f32`.
        "math.exp2" if types::is_f32(ty) => Some(libdevice_call(lw, emit, "__nv_exp2f", args, ty)),
        // NVPTX has no f64 exponentials (LLVM would abort on the libcall):
        // Triton calls libdevice.
        "math.exp" if types::is_f64(ty) => Some(libdevice_call(lw, emit, "__nv_exp", args, ty)),
        "math.exp2" if types::is_f64(ty) => Some(libdevice_call(lw, emit, "__nv_exp2", args, ty)),
        _ => match LIBDEVICE.iter().find(|(n, _)| *n == name) {
            Some((_, base)) => {
                let suffix = if types::is_f32(ty) {
                    "f"
                } else if types::is_f64(ty) {
                    ""
                } else {
                    return Err(format!("'{name}' on {ty} is not supported yet"));
                };
                Some(libdevice_call(
                    lw,
                    emit,
                    &format!("__nv_{base}{suffix}"),
                    args,
                    ty,
                ))
            }
            None => None,
        },
    })
}

/// PTX's name of an 8-bit float format, `None` for the others.
fn fp8_name(ty: Type) -> Option<&'static str> {
    unsafe {
        if mlir_sys::mlirTypeIsAFloat8E4M3FN(ty.to_raw()) {
            Some("e4m3")
        } else if mlir_sys::mlirTypeIsAFloat8E5M2(ty.to_raw()) {
            Some("e5m2")
        } else {
            None
        }
    }
}

/// Whether a `tt.fp_to_fp` rounds toward zero (`rounding = rtz`, 0).
fn rounds_toward_zero(op: OperationRef) -> bool {
    ttir::inherent_attribute(op, "rounding")
        .and_then(ttir::int_value)
        .is_some_and(|(v, _)| v == 0)
}

/// `tt.fp_to_fp` on one element, as Triton lowers it from sm_89 on: fp8
/// (e4m3, e5m2) to and from f16 with the hardware's packed conversions
/// (`cvt.rn.f16x2.<fp8>x2`, `cvt.rn.satfinite.<fp8>x2.f16x2/.f32`), f32
/// and bf16 through f16 or f32 (exactly: fp8 values fit both), to e5m2
/// toward zero as the high byte of an f16 rounded toward zero; between
/// wider formats, an extension or a truncation with the op's rounding.
fn fp_to_fp<'c, 'a>(
    lw: &Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    x: Value<'c, 'a>,
    ty: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let src = element_type(ttir::operand(op, 0).ok_or("missing operand")?.r#type());
    let dst = element_type(op.result(0).map_err(|_| "missing result")?.r#type());
    let rtz = rounds_toward_zero(op);
    let unsupported = || format!("'tt.fp_to_fp' from {src} to {dst} is not supported yet");
    let (i8t, i16t, i32t) = (emit.int_type(8), emit.int_type(16), emit.i32_type());
    let f16 = Type::parse(emit.context, "f16").expect("f16");
    let f32 = Type::parse(emit.context, "f32").expect("f32");
    let cast = |name: &str, v: Value<'c, 'a>, to: Type<'c>| emit.value(name, &[v], to, &[]);
    let fp8 = fp8_name(src).or(fp8_name(dst));
    if rtz && fp8_name(dst) == Some("e5m2") {
        // e5m2 is the high byte of f16, so rounding toward zero is
        // truncating an f16 (itself rounded toward zero from f32) to
        // it, as Triton does: the two grids nest, and values beyond
        // e5m2's range truncate to its largest finite one, infinities
        // and NaN stay what they are.
        let half = f16_bits_toward_zero(emit, src, x).ok_or_else(unsupported)?;
        return Ok(high_byte(emit, half));
    }
    if fp8.is_some() && lw.options.compute_capability < 89 {
        return e5m2_in_software(emit, src, dst, x, ty)
            .ok_or_else(|| format!("{} below sm_89 (Triton emulates it there)", unsupported()));
    }
    if let Some(name) = fp8_name(src) {
        // The byte in the low half of a 16-bit pair; f16x2 out, low half.
        let pair = cast("llvm.zext", x, i16t);
        let halves = emit.pure_asm(
            &format!("cvt.rn.f16x2.{name}x2 $0, $1;"),
            "=r,h",
            &[pair],
            i32t,
        );
        let half = emit.bitcast(cast("llvm.trunc", halves, i16t), f16);
        return from_f16(emit, half, ty).ok_or_else(unsupported);
    }
    if let Some(name) = fp8_name(dst) {
        if rtz {
            return Err(format!("{} with rounding = rtz", unsupported()));
        }
        let packed = match types::float_bits(src) {
            Some(16) if !types::is_bf16(src) => {
                let low = cast("llvm.zext", emit.bitcast(x, i16t), i32t);
                emit.pure_asm(
                    &format!("cvt.rn.satfinite.{name}x2.f16x2 $0, $1;"),
                    "=h,r",
                    &[low],
                    i16t,
                )
            }
            Some(16 | 32) => {
                let wide = if types::is_bf16(src) {
                    cast("llvm.fpext", x, f32)
                } else {
                    x
                };
                emit.pure_asm(
                    &format!("cvt.rn.satfinite.{name}x2.f32 $0, $1, $2;"),
                    "=h,r,r",
                    &[emit.i32(0), emit.bitcast(wide, i32t)],
                    i16t,
                )
            }
            _ => return Err(unsupported()),
        };
        return Ok(cast("llvm.trunc", packed, i8t));
    }
    let (Some(from), Some(to)) = (types::float_bits(src), types::float_bits(dst)) else {
        return Err(unsupported());
    };
    if from == 8 || to == 8 {
        return Err(unsupported());
    }
    Ok(if to > from {
        cast("llvm.fpext", x, ty)
    } else if rtz && types::is_f32(src) && to == 16 {
        let target = if types::is_bf16(dst) { "bf16" } else { "f16" };
        emit.bitcast(toward_zero_bits(emit, x, target), ty)
    } else if rtz {
        return Err(format!("{} with rounding = rtz", unsupported()));
    } else if to < from {
        cast("llvm.fptrunc", x, ty)
    } else {
        // f16 and bf16: through f32, exactly, then rounded to nearest even.
        cast("llvm.fptrunc", cast("llvm.fpext", x, f32), ty)
    })
}

/// The bits of the f32 `x` rounded toward zero to `target` (`f16` or
/// `bf16`), with PTX's `cvt.rz`.
fn toward_zero_bits<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    x: Value<'c, 'a>,
    target: &str,
) -> Value<'c, 'a> {
    emit.pure_asm(
        &format!("cvt.rz.{target}.f32 $0, $1;"),
        "=h,r",
        &[emit.bitcast(x, emit.i32_type())],
        emit.int_type(16),
    )
}

/// The bits of an f16 holding `x`: an f16 as it is, an f32 rounded
/// toward zero, a bf16 widened to f32 (exactly) and then rounded; `None`
/// for other types.
fn f16_bits_toward_zero<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    src: Type<'c>,
    x: Value<'c, 'a>,
) -> Option<Value<'c, 'a>> {
    if types::is_f16(src) {
        Some(emit.bitcast(x, emit.int_type(16)))
    } else if types::is_f32(src) {
        Some(toward_zero_bits(emit, x, "f16"))
    } else if types::is_bf16(src) {
        let f32 = Type::parse(emit.context, "f32").expect("f32");
        let wide = emit.value("llvm.fpext", &[x], f32, &[]);
        Some(toward_zero_bits(emit, wide, "f16"))
    } else {
        None
    }
}

/// An f16 value `half` as `ty`: as it is, widened to f32, or to bf16
/// through f32 (exactly: the values come from fp8); `None` for other
/// types.
fn from_f16<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    half: Value<'c, 'a>,
    ty: Type<'c>,
) -> Option<Value<'c, 'a>> {
    let f32 = Type::parse(emit.context, "f32").expect("f32");
    let fpext = |v| emit.value("llvm.fpext", &[v], f32, &[]);
    if types::is_f16(ty) {
        Some(half)
    } else if types::is_f32(ty) {
        Some(fpext(half))
    } else if types::is_bf16(ty) {
        Some(emit.value("llvm.fptrunc", &[fpext(half)], ty, &[]))
    } else {
        None
    }
}

/// The high byte of the 16 bits `bits`: an e5m2 cut from an f16.
fn high_byte<'c, 'a>(emit: &Emitter<'c, 'a>, bits: Value<'c, 'a>) -> Value<'c, 'a> {
    let i16t = emit.int_type(16);
    let high = emit.value("llvm.lshr", &[bits, emit.int(i16t, 8)], i16t, &[]);
    emit.value("llvm.trunc", &[high], emit.int_type(8), &[])
}

/// `tt.fp_to_fp` between e5m2 and f16, bf16 or f32 below sm_89, where
/// there are no fp8 conversions, with Triton's integer arithmetic there:
/// e5m2 is f16's high byte, so it widens exactly (to bf16 through f32,
/// also exact); f32 narrows to f16 toward zero first, and f16 rounds to its
/// high byte by adding half of its low byte's range after clearing the
/// lowest bit (ties away from zero; values past e5m2's largest carry into
/// infinity and NaNs with a large payload wrap, as in Triton). Element by
/// element: Triton's packed add can also carry from an element holding a
/// negative NaN into its neighbour. `None` for other pairs.
///
/// bf16 goes through f32, exactly, and on as f32 does. Triton's own bf16
/// arithmetic differs outside e5m2's range: it flushes magnitudes below
/// 2^-15 to zero, keeps infinities and NaNs finite, and from 2^16 on
/// carries into the sign bit; here those follow f32's rules.
fn e5m2_in_software<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    src: Type<'c>,
    dst: Type<'c>,
    x: Value<'c, 'a>,
    ty: Type<'c>,
) -> Option<Value<'c, 'a>> {
    let i16t = emit.int_type(16);
    let f16 = Type::parse(emit.context, "f16").expect("f16");
    let cast = |name: &str, v: Value<'c, 'a>, to: Type<'c>| emit.value(name, &[v], to, &[]);
    if fp8_name(src) == Some("e5m2") {
        let wide = cast("llvm.zext", x, i16t);
        let shifted = emit.value("llvm.shl", &[wide, emit.int(i16t, 8)], i16t, &[]);
        return from_f16(emit, emit.bitcast(shifted, f16), ty);
    }
    if fp8_name(dst) != Some("e5m2") {
        return None;
    }
    let bits = f16_bits_toward_zero(emit, src, x)?;
    let even = emit.value("llvm.and", &[bits, emit.int(i16t, 0xfffe)], i16t, &[]);
    let rounded = emit.value("llvm.add", &[even, emit.int(i16t, 0x80)], i16t, &[]);
    Some(high_byte(emit, rounded))
}

/// `tt.fp_to_fp` to or from fp8 on a thread's registers two at a time, as
/// Triton lowers it from sm_89 on: each `cvt` takes or gives an fp8 pair
/// packed in 16 bits; to bf16, from sm_90, e5m2 goes four at a time
/// through f16's bit pattern (see [`e5m2_to_bf16`]) and e4m3 pairs through
/// f16 with `cvt.rn.bf16.f16`, both through f16 and f32 before. `None` where
/// neither side is fp8, the target lacks the conversions or the pair is
/// not one of these; the per-element path then converts or refuses.
fn fp8_in_pairs<'c, 'a>(
    lw: &Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    xs: &[Value<'c, 'a>],
    ty: Type<'c>,
) -> Result<Option<Vec<Value<'c, 'a>>>, String> {
    let src = element_type(ttir::operand(op, 0).ok_or("missing operand")?.r#type());
    let rtz = rounds_toward_zero(op);
    if lw.options.compute_capability < 89 || rtz {
        return Ok(None);
    }
    let (i8t, i16t, i32t) = (emit.int_type(8), emit.int_type(16), emit.i32_type());
    let f16 = Type::parse(emit.context, "f16").expect("f16");
    let f32 = Type::parse(emit.context, "f32").expect("f32");
    let cast = |name: &str, v: Value<'c, 'a>, to: Type<'c>| emit.value(name, &[v], to, &[]);
    let mut values = Vec::with_capacity(xs.len());
    if let Some(name) = fp8_name(src) {
        let bits = types::float_bits(ty);
        // `mul.bf16x2` needs sm_90; sm_89 goes through f16 and f32 below.
        if name == "e5m2"
            && types::is_bf16(ty)
            && xs.len().is_multiple_of(4)
            && lw.options.compute_capability >= 90
        {
            for quad in xs.chunks(4) {
                values.extend(e5m2_to_bf16(emit, quad, ty));
            }
            return Ok(Some(values));
        }
        if !matches!(bits, Some(16 | 32)) {
            return Ok(None);
        }
        let f16x2 = emit.vector_type(2, f16);
        // From sm_90 a bf16 pair comes straight from the f16 pair (fp8
        // values are exact in both).
        if types::is_bf16(ty) && lw.options.compute_capability >= 90 {
            let bf16x2 = emit.vector_type(2, ty);
            let asm = format!(
                "{{\n.reg .b32 h;\n.reg .f16 h<2>;\n.reg .b16 b<2>;\n\
                 cvt.rn.f16x2.{name}x2 h, $1;\nmov.b32 {{h0, h1}}, h;\n\
                 cvt.rn.bf16.f16 b0, h0;\ncvt.rn.bf16.f16 b1, h1;\nmov.b32 $0, {{b0, b1}};\n}}"
            );
            for pair in xs.chunks(2) {
                let packed = emit.bitcast(emit.vector_of(pair, i8t), i16t);
                let converted = emit.pure_asm(&asm, "=r,h", &[packed], bf16x2);
                values.extend(emit.elements_of(converted, 2, ty));
            }
            return Ok(Some(values));
        }
        for pair in xs.chunks(2) {
            let packed = emit.bitcast(emit.vector_of(pair, i8t), i16t);
            let halves = emit.pure_asm(
                &format!("cvt.rn.f16x2.{name}x2 $0, $1;"),
                "=r,h",
                &[packed],
                f16x2,
            );
            for half in emit.elements_of(halves, 2, f16) {
                let Some(value) = from_f16(emit, half, ty) else {
                    return Ok(None);
                };
                values.push(value);
            }
        }
        return Ok(Some(values));
    }
    let dst = element_type(op.result(0).map_err(|_| "missing result")?.r#type());
    let Some(name) = fp8_name(dst) else {
        return Ok(None);
    };
    let i8x2 = emit.vector_type(2, i8t);
    let bits = types::float_bits(src);
    for pair in xs.chunks(2) {
        let packed = match bits {
            Some(16) if !types::is_bf16(src) => emit.pure_asm(
                &format!("cvt.rn.satfinite.{name}x2.f16x2 $0, $1;"),
                "=h,r",
                &[emit.pack_word(pair, f16)],
                i8x2,
            ),
            Some(16 | 32) => {
                // The first element goes to the low byte: `cvt` puts its
                // first source in the high one.
                let words: Vec<Value> = pair
                    .iter()
                    .map(|&x| {
                        let wide = if types::is_bf16(src) {
                            cast("llvm.fpext", x, f32)
                        } else {
                            x
                        };
                        emit.bitcast(wide, i32t)
                    })
                    .collect();
                emit.pure_asm(
                    &format!("cvt.rn.satfinite.{name}x2.f32 $0, $2, $1;"),
                    "=h,r,r",
                    &words,
                    i8x2,
                )
            }
            _ => return Ok(None),
        };
        values.extend(emit.elements_of(packed, 2, i8t));
    }
    Ok(Some(values))
}

/// Four i8 values to bf16, exactly (every i8 is a bf16). From sm_90 on,
/// each byte becomes the low mantissa byte of a bf16 with exponent 2^7
/// (high byte 0x43): its seven low bits make `128 + low`, and its sign bit,
/// kept alone, makes 128 or 256; one `sub.bf16x2` per pair leaves the
/// value. Before, each byte goes through f32 and the pairs' high halves
/// are packed (`cvt.rn.f32.s8`, `prmt`).
fn i8_to_bf16<'c, 'a>(
    lw: &Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    quad: &[Value<'c, 'a>],
    bf16: Type<'c>,
) -> Vec<Value<'c, 'a>> {
    const HOPPER: &str = "{
.reg .b32 lo, hi, lo_low, hi_low, lo_sign, hi_sign;
prmt.b32 lo, $2, 0x43, 0x4140;
prmt.b32 hi, $2, 0x43, 0x4342;
and.b32 lo_low, lo, 0xff7fff7f;
and.b32 hi_low, hi, 0xff7fff7f;
and.b32 lo_sign, lo, 0xff80ff80;
and.b32 hi_sign, hi, 0xff80ff80;
sub.bf16x2 $0, lo_low, lo_sign;
sub.bf16x2 $1, hi_low, hi_sign;
}";
    const AMPERE: &str = "{
.reg .s8 b<4>;
.reg .f32 w<4>;
mov.b32 {b0, b1, b2, b3}, $2;
cvt.rn.f32.s8 w0, b0;
cvt.rn.f32.s8 w1, b1;
cvt.rn.f32.s8 w2, b2;
cvt.rn.f32.s8 w3, b3;
prmt.b32 $0, w0, w1, 0x7632;
prmt.b32 $1, w2, w3, 0x7632;
}";
    let asm = if lw.options.compute_capability >= 90 {
        HOPPER
    } else {
        AMPERE
    };
    bytes_to_bf16_pairs(emit, asm, quad, bf16)
}

/// Four bytes packed into one word, through `asm` (one `r` operand, two
/// `=r` results of a bf16 pair each), as four bf16 values.
fn bytes_to_bf16_pairs<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    asm: &str,
    quad: &[Value<'c, 'a>],
    bf16: Type<'c>,
) -> Vec<Value<'c, 'a>> {
    let pair = emit.vector_type(2, bf16);
    let packed = emit.pack_word(quad, emit.int_type(8));
    let halves = emit.pure_asm(asm, "=r,=r,r", &[packed], emit.struct_type(&[pair, pair]));
    (0..2)
        .flat_map(|i| emit.elements_of(emit.extract(halves, i, pair), 2, bf16))
        .collect()
}

/// Four e5m2 values to bf16, exactly: each byte becomes the high byte of
/// its f16 bit pattern, whose magnitude shifted right by three is a bf16
/// of the same digits 2^112 times too small (f16's exponent bias is 15,
/// bf16's 127), so one `mul.rn.bf16x2` by 2^112 per pair scales it back,
/// subnormals included. An all-ones f16 exponent (infinity, NaN) would
/// come out finite; it is detected (adding 0x0400 to the exponent field
/// carries into bit 15), widened to a halfword mask with `prmt`'s sign
/// replication and ORed in as bf16's all-ones exponent.
fn e5m2_to_bf16<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    quad: &[Value<'c, 'a>],
    bf16: Type<'c>,
) -> Vec<Value<'c, 'a>> {
    const ASM: &str = "{
.reg .b32 h<2>, m<2>, u<2>, scale;
mov.b32 scale, 0x77807780;
prmt.b32 h0, 0, $2, 0x5140;
prmt.b32 h1, 0, $2, 0x7362;
and.b32 m0, h0, 0x7fff7fff;
and.b32 m1, h1, 0x7fff7fff;
shr.b32 m0, m0, 3;
shr.b32 m1, m1, 3;
lop3.b32 m0, m0, 0x80008000, h0, 0xf8;
lop3.b32 m1, m1, 0x80008000, h1, 0xf8;
mul.rn.bf16x2 m0, m0, scale;
mul.rn.bf16x2 m1, m1, scale;
and.b32 u0, h0, 0x7c007c00;
and.b32 u1, h1, 0x7c007c00;
add.u32 u0, u0, 0x04000400;
add.u32 u1, u1, 0x04000400;
prmt.b32 u0, u0, 0, 0xbb99;
prmt.b32 u1, u1, 0, 0xbb99;
lop3.b32 $0, m0, u0, 0x7f807f80, 0xf8;
lop3.b32 $1, m1, u1, 0x7f807f80, 0xf8;
}";
    bytes_to_bf16_pairs(emit, ASM, quad, bf16)
}

fn ex2<'c, 'a>(emit: &Emitter<'c, 'a>, x: Value<'c, 'a>) -> Value<'c, 'a> {
    let i32_type = emit.i32_type();
    let r = emit
        .inline_asm(
            "ex2.approx.f32 $0, $1;",
            "=r,r",
            &[emit.bitcast(x, i32_type)],
            Some(i32_type),
        )
        .expect("one result");
    emit.bitcast(r, x.r#type())
}

/// `tt.extern_elementwise` (what `tl.extra.cuda.libdevice` calls become):
/// a call to the libdevice function it names, per element. libdevice is
/// the one library linked in; calls with side effects are refused, since
/// a call is made once per group of equal elements, not once per element.
fn extern_call<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    args: &[Value<'c, 'a>],
    ty: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let text = |name: &str| {
        ttir::inherent_attribute(op, name)
            .and_then(ttir::string_value)
            .unwrap_or_default()
    };
    let symbol = text("symbol");
    if !symbol.starts_with("__nv_") {
        return Err(format!(
            "'tt.extern_elementwise' calling '{symbol}' (library '{}') is not supported yet: \
             only libdevice ('__nv_' functions) is linked",
            text("libname")
        ));
    }
    let pure = ttir::inherent_attribute(op, "pure")
        .and_then(ttir::int_value)
        .is_some_and(|(v, _)| v != 0);
    if !pure {
        return Err(format!(
            "'tt.extern_elementwise' calling '{symbol}' without 'pure = true' is not supported yet"
        ));
    }
    Ok(libdevice_call(lw, emit, &symbol, args, ty))
}

/// A call to the libdevice function `symbol`, declared in the module on
/// first use.
fn libdevice_call<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    symbol: &str,
    args: &[Value<'c, 'a>],
    ty: Type<'c>,
) -> Value<'c, 'a> {
    let params: Vec<String> = args.iter().map(|a| a.r#type().to_string()).collect();
    let fn_type = format!("!llvm.func<{ty} ({})>", params.join(", "));
    lw.declare_function(symbol, &fn_type);
    emit.call(symbol, args, Some(ty)).expect("one result")
}

/// `arith.constant`: scalars are rebuilt; splat tensors become one scalar
/// constant for every register; other dense tensors, where every thread
/// holds all of the tensor, one constant per register.
fn constant<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let result: Value = op.result(0).expect("one result").into();
    let value = ttir::inherent_attribute(op, "value").ok_or("a constant without value")?;
    let ty = result.r#type();
    if TensorView::of(ty).is_none() {
        if ty.is_index() {
            lw.left_for_mlir = true;
            let v = emit.value("arith.constant", &[], ty, &[("value", value)]);
            lw.set(result, vec![v]);
        } else {
            lw.set(result, vec![emit.constant(ty, value)]);
        }
        return Ok(());
    }
    let scalar_type = lw.element_type(ty);
    if !scalar_type.is_integer() && !scalar_type.is_float() {
        return Err("only integer and float tensor constants are supported".into());
    }
    let layout = lw.distributed(ty)?;
    if let Some(element) = ttir::splat_element(value) {
        let v = emit.constant(scalar_type, element);
        lw.set(result, vec![v; layout.len()]);
        return Ok(());
    }
    // A constant array: every register's element must be known without
    // the thread's position, that is, every thread holds the whole tensor.
    for dim in ["lane", "warp", "block"] {
        if layout
            .layout
            .bases(dim)
            .iter()
            .chain(&layout.block)
            .any(|b| b.iter().any(|&x| x != 0))
        {
            return Err(
                "a non-splat tensor constant spread over threads or warps is not supported yet"
                    .into(),
            );
        }
    }
    let values = layout
        .registers
        .iter()
        .map(|c| {
            let coordinates: Vec<u64> = c.iter().map(|&x| x as u64).collect();
            ttir::dense_element(value, &coordinates)
                .map(|element| emit.constant(scalar_type, element))
                .ok_or_else(|| format!("cannot read element {c:?} of the constant"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    lw.set(result, values);
    Ok(())
}
