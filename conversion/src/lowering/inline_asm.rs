//! `tt.elementwise_inline_asm` (`tl.inline_asm_elementwise`): the user's PTX
//! once per group of `packed_element` elements a thread holds, as Triton
//! lowers it. Operands narrower than 32 bits go in vectors of up to 32 bits
//! (at most `packed_element` elements each), one asm operand per vector;
//! results likewise come back as one register (or vector) per 32 bits,
//! several results or registers in a struct. A thread's last group is
//! padded with undefined values where its elements do not fill it. The
//! asm has side effects unless the op is `pure`.

use melior::ir::{
    attribute::BoolAttribute,
    operation::{OperationLike, OperationRef},
    Type, Value, ValueLike,
};
use tt_dialect::ir as ttir;
use tt_dialect::types::element_type;

use super::{convert_type, packed_type, types, Emitter, LowerResult, Lowering};

/// How many elements of `element` (the TTGIR type) share a 32-bit
/// register, capped at `pack`; pointers count as 64 bits.
fn per_register(element: Type, pack: usize) -> usize {
    ((32 / types::bit_width(element).max(1)).max(1) as usize).min(pack)
}

pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let text = |name: &str| -> Result<String, String> {
        ttir::inherent_attribute(op, name)
            .and_then(ttir::string_value)
            .ok_or_else(|| format!("the {name} attribute is missing"))
    };
    let (asm, constraints) = (text("asm_string")?, text("constraints")?);
    let pure = ttir::inherent_attribute(op, "pure")
        .and_then(|a| BoolAttribute::try_from(a).ok())
        .is_some_and(|b| b.value());
    let pack = ttir::inherent_attribute(op, "packed_element")
        .and_then(ttir::int_value)
        .map(|(v, _)| v)
        .filter(|&v| v >= 1)
        .ok_or("packed_element must be at least 1")? as usize;

    let operands: Vec<Value<'c, 'a>> = op.operands().collect();
    let inputs: Vec<Vec<Value<'c, 'a>>> = operands
        .iter()
        .map(|&v| lw.get(v))
        .collect::<Result<_, _>>()?;
    let results: Vec<Value<'c, 'a>> = op.results().map(Into::into).collect();
    let count = match (inputs.first(), results.first()) {
        (Some(values), _) => values.len(),
        (None, Some(&r)) => lw.value_count(r.r#type())?,
        (None, None) => 1,
    };
    if inputs.iter().any(|v| v.len() != count) {
        return Err("the operands hold different numbers of elements per thread".into());
    }
    // A thread holding fewer elements than a whole number of packs runs
    // the last pack on undefined padding, whose results are dropped, as in
    // Triton.
    let padded = count.div_ceil(pack) * pack;
    let inputs: Vec<Vec<Value<'c, 'a>>> = inputs
        .into_iter()
        .zip(&operands)
        .map(|(mut values, operand)| {
            if padded > count {
                let llvm = convert_type(emit.context, element_type(operand.r#type()));
                let undef = emit.value("llvm.mlir.undef", &[], llvm, &[]);
                values.resize(padded, undef);
            }
            values
        })
        .collect();

    // Each result's register type and how many elements one register holds.
    let mut registers: Vec<(Type<'c>, usize)> = Vec::new();
    for r in &results {
        let element = element_type(r.r#type());
        let n = per_register(element, pack);
        if !pack.is_multiple_of(n) {
            return Err(format!(
                "packed_element = {pack} does not fill whole registers"
            ));
        }
        let llvm = convert_type(emit.context, element);
        let ty = if n > 1 {
            emit.vector_type(n as u64, llvm)
        } else {
            llvm
        };
        registers.extend(std::iter::repeat_n((ty, n), pack / n));
    }
    let register_types: Vec<Type<'c>> = registers.iter().map(|(t, _)| *t).collect();
    let returned = packed_type(emit.context, &register_types);

    let mut outputs: Vec<Vec<Value<'c, 'a>>> = vec![Vec::with_capacity(padded); results.len()];
    for start in (0..padded).step_by(pack) {
        let mut packed = Vec::new();
        for (i, values) in inputs.iter().enumerate() {
            let element = element_type(operands[i].r#type());
            let n = per_register(element, pack);
            let llvm = convert_type(emit.context, element);
            for group in values[start..start + pack].chunks(n) {
                packed.push(emit.vector_of(group, llvm));
            }
        }
        let value = emit.asm_with(&asm, &constraints, &packed, returned, !pure, false);
        let Some(value) = value else { continue };
        let mut field = 0;
        for (k, r) in results.iter().enumerate() {
            let element = convert_type(emit.context, element_type(r.r#type()));
            let mut taken = 0;
            while taken < pack {
                let (ty, n) = registers[field];
                let register = if registers.len() > 1 {
                    emit.extract(value, field as i64, ty)
                } else {
                    value
                };
                outputs[k].extend(emit.elements_of(register, n, element));
                taken += n;
                field += 1;
            }
        }
    }
    for (r, mut values) in results.iter().zip(outputs) {
        values.truncate(count);
        lw.set(*r, values);
    }
    Ok(())
}
