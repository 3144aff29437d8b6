//! `tt.print` as CUDA's `vprintf`, the way Triton 3.6 prints: every thread
//! prints every element it holds (replicated elements print once per
//! copy), one line per element, prefixed by the program id and the
//! element's index. One format-string global per operand; the arguments
//! travel in a stack buffer laid out as a C struct.

use melior::ir::{
    attribute::{DenseI32ArrayAttribute, TypeAttribute},
    operation::{OperationLike, OperationRef},
    Type, Value, ValueLike,
};
use tt_dialect::{ir as ttir, types::TensorView};

use super::{types, Emitter, LowerResult, Lowering};

/// printf takes at most 32 arguments: the three program ids, the index
/// and the value leave room for this many index dimensions.
const MAX_INDEX_DIMS: usize = 28;

/// The conversion specifier of one element of type `ty`.
fn element_spec(ty: Type, hex: bool, signed: bool) -> Result<String, String> {
    if types::is_llvm_pointer(ty) {
        return Ok("%p".into());
    }
    let bits = ttir::int_width(ty)
        .or_else(|| types::float_bits(ty))
        .ok_or_else(|| format!("cannot print values of type {ty}"))?;
    if hex {
        let long = if bits > 32 { "ll" } else { "" };
        return Ok(format!("0x%0{}{long}x", bits / 4));
    }
    if types::float_bits(ty).is_some() {
        return Ok("%f".into());
    }
    Ok(match (bits == 64, signed) {
        (true, true) => "%lli".into(),
        (true, false) => "%llu".into(),
        (false, true) => "%i".into(),
        (false, false) => "%u".into(),
    })
}

/// printf's default argument promotions: small integers to i32 (by the
/// signedness), half and single floats to double. A hex-printed float is
/// printed as its bits.
fn promote<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    value: Value<'c, 'a>,
    hex: bool,
    signed: bool,
) -> Value<'c, 'a> {
    let ty = value.r#type();
    let value = match (hex, types::float_bits(ty)) {
        (true, Some(bits)) => emit.bitcast(value, emit.int_type(bits)),
        _ => value,
    };
    let ty = value.r#type();
    if let Some(bits) = ttir::int_width(ty) {
        if bits < 32 {
            let extend = if signed { "llvm.sext" } else { "llvm.zext" };
            return emit.value(extend, &[value], emit.i32_type(), &[]);
        }
        return value;
    }
    if matches!(types::float_bits(ty), Some(16 | 32)) {
        let f64_type = Type::float64(emit.context);
        return emit.value("llvm.fpext", &[value], f64_type, &[]);
    }
    value
}

/// Calls `vprintf(format, buffer)` with `args` (already promoted) in a
/// literal-struct buffer; a null buffer when there are none.
fn printf<'c, 'a>(
    lw: &Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    format: Value<'c, 'a>,
    args: &[Value<'c, 'a>],
) {
    lw.declare_function("vprintf", "!llvm.func<i32 (ptr, ptr)>");
    let ptr = emit.ptr_type(0);
    let buffer = if args.is_empty() {
        emit.value("llvm.mlir.zero", &[], ptr, &[])
    } else {
        let types: Vec<Type> = args.iter().map(|a| a.r#type()).collect();
        let layout = emit.struct_type(&types);
        let entry = lw.prologue(emit.location);
        let one = entry.i32(1);
        let buffer = entry.value(
            "llvm.alloca",
            &[one],
            ptr,
            &[
                ("elem_type", TypeAttribute::new(layout).into()),
                ("alignment", entry.attr("8 : i64")),
            ],
        );
        for (k, arg) in args.iter().enumerate() {
            let field = emit.value(
                "llvm.getelementptr",
                &[buffer],
                ptr,
                &[
                    (
                        "rawConstantIndices",
                        DenseI32ArrayAttribute::new(emit.context, &[0, k as i32]).into(),
                    ),
                    ("elem_type", TypeAttribute::new(layout).into()),
                ],
            );
            emit.op("llvm.store", &[*arg, field], &[], &[]);
        }
        buffer
    };
    emit.call("vprintf", &[format, buffer], Some(emit.i32_type()));
}

/// The digits needed to print every index below `size` (0 for a
/// dimension of size 1), as Triton computes them: `ceil(log10(size))`.
fn index_width(size: i64) -> usize {
    let mut width = 0;
    let mut power = 1i64;
    while power < size {
        power = power.saturating_mul(10);
        width += 1;
    }
    width
}

/// `tt.print`.
pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let prefix = ttir::inherent_attribute(op, "prefix")
        .and_then(ttir::string_value)
        .ok_or("the prefix attribute is missing")?;
    let hex = ttir::inherent_attribute(op, "hex").and_then(ttir::bool_value) == Some(true);
    let signedness: Vec<bool> = match ttir::inherent_attribute(op, "isSigned") {
        Some(a) => {
            let array =
                DenseI32ArrayAttribute::try_from(a).map_err(|_| "isSigned must be an i32 array")?;
            (0..array.len())
                .map(|i| array.element(i).map(|s| s != 0))
                .collect::<Result<_, _>>()
                .map_err(|_| "bad isSigned entry")?
        }
        None => Vec::new(),
    };
    let pids: Vec<Value> = ["x", "y", "z"]
        .iter()
        .map(|a| emit.special_register(&format!("ctaid.{a}")))
        .collect();
    let operands: Vec<Value> = op.operands().collect();
    if operands.is_empty() {
        let format = lw.string_global(
            emit,
            "printfFormat_",
            &format!("pid (%u, %u, %u){prefix}\n"),
        );
        printf(lw, emit, format, &pids);
        return Ok(());
    }
    for (i, operand) in operands.iter().enumerate() {
        let signed = signedness.get(i).copied().unwrap_or(true);
        let ty = operand.r#type();
        let element = lw.element_type(ty);
        let values = lw.get(*operand)?;
        let (widths, indices) = match TensorView::of(ty) {
            Some(tensor) => {
                if tensor.shape.len() > MAX_INDEX_DIMS {
                    return Err(format!(
                        "cannot print a tensor of rank {} (at most {MAX_INDEX_DIMS})",
                        tensor.shape.len()
                    ));
                }
                let widths: Vec<usize> = tensor.shape.iter().map(|&d| index_width(d)).collect();
                (widths, lw.coordinates(emit, ty)?)
            }
            None => (Vec::new(), vec![Vec::new(); values.len()]),
        };
        let index: Vec<String> = widths.iter().map(|w| format!("%{w}u")).collect();
        let operand_tag = if operands.len() > 1 {
            format!("(operand {i}) ")
        } else {
            String::new()
        };
        let text = format!(
            "pid (%u, %u, %u) idx ({}){prefix}{operand_tag}{}\n",
            index.join(", "),
            element_spec(element, hex, signed)?
        );
        let format = lw.string_global(emit, "printfFormat_", &text);
        for (value, coordinates) in values.iter().zip(&indices) {
            let mut args: Vec<Value> = pids
                .iter()
                .chain(coordinates)
                .map(|&a| promote(emit, a, false, signed))
                .collect();
            args.push(promote(emit, *value, hex, signed));
            printf(lw, emit, format, &args);
        }
    }
    Ok(())
}
