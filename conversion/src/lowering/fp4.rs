//! `ttg.fp4_to_fp`: bytes holding two e2m1 values (the element with the
//! smaller index along `axis` in the low nibble) become bf16 or f16 values,
//! the tensor twice as long along `axis`. Each thread decodes the bytes it
//! holds: its result layout must hold both values of each of its bytes (the
//! result's lane and warp steps along `axis` even, the operand's halved).
//!
//! e2m1 is a sign bit, two exponent bits (bias 1) and one mantissa bit:
//! 0, 0.5, 1, 1.5, 2, 3, 4 and 6 and their negatives; each is exact in both
//! result types, built from its bits (the subnormal 0.5 apart).

use melior::ir::{OperationRef, Value, ValueLike};

use super::{
    operand, result,
    view::{register_map, same_thread_parts},
    Emitter, LowerResult, Lowering,
};

pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let axis = super::axis(op)?;
    let src_value = operand(op, 0)?;
    let out = result(op);
    let src = lw.distributed(src_value.r#type())?;
    let dst = lw.distributed(out.r#type())?;
    if axis >= dst.rank() {
        return Err(format!("axis {axis} is out of range"));
    }
    let element = lw.element_type(out.r#type());
    let (exponent_shift, bias, half) = match element.to_string().as_str() {
        "bf16" => (7, 126, 0x3F00),
        "f16" => (10, 14, 0x3800),
        other => return Err(format!("'ttg.fp4_to_fp' to {other} is not supported yet")),
    };
    let to_src = |c: &[i32]| {
        let mut c = c.to_vec();
        c[axis] /= 2;
        c
    };
    let threads_even = ["lane", "warp"]
        .iter()
        .all(|d| dst.layout.bases(d).iter().all(|b| b[axis] % 2 == 0));
    if !threads_even || !same_thread_parts(&src, &dst, to_src) {
        return Err(
            "'ttg.fp4_to_fp' whose result layout splits a byte's two values between threads \
             is not supported yet"
                .into(),
        );
    }
    let map = register_map(&src, &dst, to_src)?;
    let bytes = lw.get(src_value)?;
    let i16t = emit.int_type(16);
    let c = |v: i64| emit.int(i16t, v);
    let values = map
        .into_iter()
        .zip(&dst.registers)
        .map(|(r, coordinates)| {
            let byte = emit.value("llvm.zext", &[bytes[r]], i16t, &[]);
            let nibble = if coordinates[axis] % 2 == 0 {
                emit.and(byte, c(0xF))
            } else {
                emit.lshr(byte, c(4))
            };
            decode(emit, nibble, exponent_shift, bias, half, element)
        })
        .collect();
    lw.set(out, values);
    Ok(())
}

/// The value of the e2m1 `nibble` (an i16 below 16) in `element` (bf16 or
/// f16: exponent at `exponent_shift`, its bias less one `bias`; 0.5 is
/// `half`).
fn decode<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    nibble: Value<'c, 'a>,
    exponent_shift: i64,
    bias: i64,
    half: i64,
    element: melior::ir::Type<'c>,
) -> Value<'c, 'a> {
    let i16t = emit.int_type(16);
    let c = |v: i64| emit.int(i16t, v);
    let sign = emit.shl(emit.and(nibble, c(8)), c(12));
    let exponent = emit.and(emit.lshr(nibble, c(1)), c(3));
    let mantissa = emit.and(nibble, c(1));
    // 2^(e - 1) * (1 + m / 2): the exponent rebiased, the mantissa bit at
    // the top of the result's mantissa.
    let normal = emit.or(
        emit.shl(emit.add(exponent, c(bias)), c(exponent_shift)),
        emit.shl(mantissa, c(exponent_shift - 1)),
    );
    let subnormal = emit.select(emit.icmp("ne", mantissa, c(0)), c(half), c(0));
    let magnitude = emit.select(emit.icmp("eq", exponent, c(0)), subnormal, normal);
    emit.bitcast(emit.or(sign, magnitude), element)
}
