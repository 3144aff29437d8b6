//! `tt.atomic_rmw` and `tt.atomic_cas` as predicated `atom.global` inline
//! PTX, as Triton emits them. Replicated elements are updated once: a
//! duplicate register takes its original's result, and redundant threads
//! are masked off. When the result is used, the threads that ran the
//! atomic pass its value to those that did not through shared memory (the
//! scratch at the op's `allocation.offset`): a scalar atomic runs on thread
//! 0, which writes one slot; a tensor whose layout repeats elements across
//! lanes or warps has one slot per element, which its owner writes and
//! every holder reads back. A scalar addition of zero with relaxed or
//! acquire semantics is a load: `nvg.ld_acquire`, as in Triton.

use melior::ir::{
    attribute::{FloatAttribute, IntegerAttribute},
    block::BlockLike,
    operation::{OperationBuilder, OperationRef},
    Type, TypeLike, Value, ValueLike,
};
use tt_dialect::{ir as ttir, types::TensorView};

use super::{
    int_attr,
    memory::{global_owner_mask, vector_width},
    result, types, value_at, Access, Distributed, Emitter, LowerResult, Lowering,
};

/// `.relaxed` ... `.acq_rel`.
fn semantic(op: OperationRef) -> Result<&'static str, String> {
    Ok(match int_attr(op, "sem")? {
        1 => "relaxed",
        2 => "acquire",
        3 => "release",
        4 => "acq_rel",
        other => return Err(format!("unknown memory semantic {other}")),
    })
}

/// `.gpu`, `.cta` or `.sys`.
fn scope(op: OperationRef) -> Result<&'static str, String> {
    Ok(match int_attr(op, "scope")? {
        1 => "gpu",
        2 => "cta",
        3 => "sys",
        other => return Err(format!("unknown memory scope {other}")),
    })
}

/// The register constraint and `mov` width of a value of `bits`.
fn constraint(bits: u32) -> Result<(&'static str, u32), String> {
    match bits {
        16 => Ok(("h", 16)),
        32 => Ok(("r", 32)),
        64 => Ok(("l", 64)),
        other => Err(format!("atomics on {other}-bit values are not supported")),
    }
}

fn is_f16(ty: Type) -> bool {
    ty.to_string() == "f16"
}

fn is_float(ty: Type) -> bool {
    matches!(types::float_bits(ty), Some(16 | 32 | 64))
}

/// Whether `value` has uses.
fn is_used(value: Value) -> bool {
    unsafe { !mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(value.to_raw())) }
}

/// The register bits whose bases are zero: register `r` holds the same
/// element as `r & !mask`.
fn duplicate_register_mask(dist: &Distributed) -> usize {
    dist.layout
        .bases("register")
        .iter()
        .enumerate()
        .filter(|(_, b)| b.iter().all(|&x| x == 0))
        .fold(0, |m, (bit, _)| m | 1 << bit)
}

/// The operation and type suffix of `atom` for RMW kind `kind` on `ty`.
fn rmw_instruction(kind: i64, ty: Type, bits: u32) -> Result<(String, String), String> {
    let float = is_float(ty);
    let (name, class) = match kind {
        1 => ("and", "b"),
        2 => ("or", "b"),
        3 => ("xor", "b"),
        4 => ("add", "u"),
        5 => ("add", "f"),
        6 => ("max", "s"),
        7 => ("min", "s"),
        8 => ("max", "u"),
        9 => ("min", "u"),
        10 => ("exch", "b"),
        other => return Err(format!("unknown atomic_rmw kind {other}")),
    };
    // Exchange and the bitwise kinds work on bits: 32- and 64-bit floats
    // too (as Triton's `b32` / `b64` forms, on the floats' bit patterns);
    // the other kinds are integer or float arithmetic.
    let bits_of_float = matches!(kind, 1..=3 | 10) && float && bits >= 32;
    if (kind == 5) != float && !bits_of_float {
        return Err(format!("atomic_rmw kind {kind} does not apply to {ty}"));
    }
    let name = if kind == 5 && bits == 16 {
        "add.noftz".to_owned()
    } else {
        name.to_owned()
    };
    let ty = if types::is_bf16(ty) {
        "bf16".to_owned()
    } else {
        format!("{class}{bits}")
    };
    Ok((name, ty))
}

/// Per access: `vec` consecutive registers starting at `start`, the
/// predicate, and the operand values (`vec` of each).
struct AtomAccess<'c, 'a> {
    pointer: Value<'c, 'a>,
    operands: Vec<Vec<Value<'c, 'a>>>,
    predicate: Value<'c, 'a>,
}

/// Emits one `atom` (`vec` values wide) and returns its results.
fn emit_atom<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    instruction: &str,
    access: &AtomAccess<'c, 'a>,
    vec: usize,
    ty: Type<'c>,
    bits: u32,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let (c, mov_bits) = constraint(bits)?;
    let mut asm = String::new();
    let mut constraints = Vec::new();
    for k in 0..vec {
        asm.push_str(&format!("mov.u{mov_bits} ${k}, 0x0;\n\t"));
        constraints.push(format!("={c}"));
    }
    let mut operands = vec![access.pointer];
    constraints.push("l".into());
    let mut groups = Vec::new();
    let mut next = vec + 1;
    for group in &access.operands {
        let names: Vec<String> = (next..next + group.len())
            .map(|i| format!("${i}"))
            .collect();
        next += group.len();
        groups.push(if vec > 1 {
            format!("{{ {} }}", names.join(", "))
        } else {
            names.join(", ")
        });
        for v in group {
            operands.push(*v);
            constraints.push(c.into());
        }
    }
    operands.push(access.predicate);
    constraints.push("b".into());
    let targets: Vec<String> = (0..vec).map(|k| format!("${k}")).collect();
    let target = if vec > 1 {
        format!("{{ {} }}", targets.join(", "))
    } else {
        targets.join(", ")
    };
    asm.push_str(&format!(
        "@${next} {instruction} {target}, [ ${vec} + 0 ], {};",
        groups.join(", ")
    ));
    let result_type = if vec == 1 {
        ty
    } else {
        emit.struct_type(&vec![ty; vec])
    };
    let out = emit
        .inline_asm(&asm, &constraints.join(","), &operands, Some(result_type))
        .expect("one result");
    Ok(if vec == 1 {
        vec![out]
    } else {
        (0..vec).map(|k| emit.extract(out, k as i64, ty)).collect()
    })
}

/// Emits one `f16x2` atom on a pair of f16 registers and returns the two
/// old values.
fn emit_pair<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    instruction: &str,
    access: &AtomAccess<'c, 'a>,
    ty: Type<'c>,
) -> Vec<Value<'c, 'a>> {
    let pair_type = emit.vector_type(2, ty);
    let pair = emit.vector_of(&access.operands[0], ty);
    let old = emit
        .inline_asm(
            &format!("mov.u32 $0, 0x0;\n\t@$3 {instruction} $0, [ $1 + 0 ], $2;"),
            "=r,l,r,b",
            &[access.pointer, pair, access.predicate],
            Some(pair_type),
        )
        .expect("one result");
    emit.elements_of(old, 2, ty)
}

/// The common part of both atomics: `instruction` over `operands` (per
/// register), under `mask`, at `ptr`.
#[allow(clippy::too_many_arguments)]
fn lower_atomic<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    ptr: Value<'c, 'a>,
    operands: &[Value<'c, 'a>],
    mask: Option<Value<'c, 'a>>,
    how: Atom,
    vectorisable: bool,
) -> LowerResult {
    let value_type = lw.element_type(result(op).r#type());
    let bits = types::memory_bits(value_type);
    let dist = TensorView::of(ptr.r#type())
        .map(|_| lw.distributed(ptr.r#type()))
        .transpose()?;
    let n = dist.as_ref().map_or(1, |d| d.len());
    let vec = match (&dist, &how) {
        (Some(d), Atom::Ptx(_)) if vectorisable => vector_width(lw, ptr, mask, d, bits),
        (Some(d), Atom::Pairs(_)) => vector_width(lw, ptr, mask, d, bits).min(2),
        _ => 1,
    };
    let ptrs = lw.get(ptr)?;
    let operand_values: Vec<Vec<Value>> = operands
        .iter()
        .map(|&v| lw.get(v))
        .collect::<Result<_, _>>()?;
    let masks = mask.map(|m| lw.get(m)).transpose()?;
    let owner = global_owner_mask(lw, emit, dist.as_deref());
    let duplicates = dist.as_deref().map_or(0, duplicate_register_mask);
    let mut results: Vec<Option<Value>> = vec![None; n];
    // Where the ops go: `emit`'s block, or the block after the last
    // branch around an LLVM atomic.
    let mut here = Emitter {
        context: emit.context,
        block: emit.block,
        location: emit.location,
        before: emit.before,
    };
    for start in (0..n).step_by(vec) {
        if start & duplicates != 0 {
            continue;
        }
        let data_mask = masks.as_ref().map(|m| value_at(m, start));
        let predicate = match (data_mask, owner) {
            (Some(m), Some(o)) => here.and(m, o),
            (Some(m), None) => m,
            (None, Some(o)) => o,
            (None, None) => here.int(here.int_type(1), 1),
        };
        let access = AtomAccess {
            pointer: value_at(&ptrs, start),
            operands: operand_values
                .iter()
                .map(|values| (start..start + vec).map(|i| value_at(values, i)).collect())
                .collect(),
            predicate,
        };
        let values = match &how {
            Atom::Ptx(instruction) => {
                emit_atom(&here, &instruction(vec), &access, vec, value_type, bits)?
            }
            Atom::Pairs(prefix) if vec == 2 => {
                emit_pair(&here, &format!("{prefix}.f16x2"), &access, value_type)
            }
            Atom::Pairs(prefix) => emit_atom(
                &here,
                &format!("{prefix}.f16"),
                &access,
                1,
                value_type,
                bits,
            )?,
            Atom::Load { sem, scope } => {
                let i32_type = here.i32_type();
                vec![here.value(
                    "nvg.ld_acquire",
                    &[access.pointer, access.predicate],
                    value_type,
                    &[
                        ("sem", IntegerAttribute::new(i32_type, *sem).into()),
                        ("scope", IntegerAttribute::new(i32_type, *scope).into()),
                    ],
                )]
            }
            Atom::Llvm { ordering, scope } => {
                let (after, old) =
                    llvm_atomic_add(lw, &here, &access, value_type, ordering, scope)?;
                here = after;
                vec![old]
            }
        };
        for (k, v) in values.into_iter().enumerate() {
            results[start + k] = Some(v);
        }
    }
    let mut values: Vec<Value> = Vec::with_capacity(n);
    for i in 0..n {
        let v = results[i & !duplicates]
            .or(results[i])
            .ok_or("an atomic's register got no value (internal error)")?;
        values.push(v);
    }
    if is_used(result(op)) {
        match &dist {
            None => values = vec![broadcast_scalar(lw, &here, op, values[0], bits, owner)?],
            Some(d) if d.free_lane_warp_masks() != (0, 0) => {
                values = broadcast_tensor(lw, &here, op, &values, bits, owner)?;
            }
            Some(_) => {}
        }
    }
    lw.set(result(op), values);
    Ok(())
}

/// Thread 0's `value`, for every thread, through the op's shared scratch.
fn broadcast_scalar<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    value: Value<'c, 'a>,
    bits: u32,
    owner: Option<Value<'c, 'a>>,
) -> Result<Value<'c, 'a>, String> {
    let offset = crate::allocation::offset(op).ok_or(
        "a scalar atomic whose result is used needs shared scratch ('allocation.offset'): \
         run allocate-shared-memory-nv first",
    )?;
    let pointer = lw.shared_at(emit, offset);
    let (c, _) = constraint(bits)?;
    let owner = owner.unwrap_or_else(|| emit.int(emit.int_type(1), 1));
    let span = crate::allocation::buffer_range(op);
    lw.shared_access(emit, Access::Write(span.clone()));
    emit.inline_asm(
        &format!("@$2 st.shared.b{bits} [ $0 + 0 ], $1;"),
        &format!("l,{c},b"),
        &[pointer, value, owner],
        None,
    );
    lw.shared_access(emit, Access::Read(span));
    Ok(emit.value("llvm.load", &[pointer], value.r#type(), &[]))
}

/// Each element's value as its owner computed it, for every thread that
/// holds the element: the owners write the op's shared scratch (one slot
/// per element, in row-major order), every thread reads its elements back.
fn broadcast_tensor<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    values: &[Value<'c, 'a>],
    bits: u32,
    owner: Option<Value<'c, 'a>>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let offset = crate::allocation::offset(op).ok_or(
        "an atomic whose used result repeats across threads needs shared scratch \
         ('allocation.offset'): run allocate-shared-memory-nv first",
    )?;
    let ty = result(op).r#type();
    let shape = TensorView::of(ty)
        .ok_or("a tensor atomic without a tensor result (internal error)")?
        .shape;
    let coordinates = lw.coordinates(emit, ty)?;
    let base = lw.shared_at(emit, offset);
    let (c, _) = constraint(bits)?;
    let owner = owner.unwrap_or_else(|| emit.int(emit.int_type(1), 1));
    let element = emit.int_type(bits.max(8));
    let slots: Vec<Value> = coordinates
        .iter()
        .map(|coords| {
            let mut index = emit.i32(0);
            for (d, &coord) in coords.iter().enumerate() {
                let stride: i64 = shape[d + 1..].iter().product();
                index = emit.add(index, emit.mul(coord, emit.i32(stride)));
            }
            emit.gep(base, index, element)
        })
        .collect();
    let span = crate::allocation::buffer_range(op);
    lw.shared_access(emit, Access::Write(span.clone()));
    let dist = lw.distributed(ty)?;
    for (r, (&slot, &value)) in slots.iter().zip(values).enumerate() {
        if dist.is_duplicate_register(r) {
            continue;
        }
        emit.inline_asm(
            &format!("@$2 st.shared.b{bits} [ $0 + 0 ], $1;"),
            &format!("l,{c},b"),
            &[slot, value, owner],
            None,
        );
    }
    lw.shared_access(emit, Access::Read(span));
    Ok(slots
        .iter()
        .zip(values)
        .map(|(&slot, value)| emit.value("llvm.load", &[slot], value.r#type(), &[]))
        .collect())
}

/// `tt.atomic_rmw`.
pub fn rmw<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let ptr = ttir::operand(op, 0).ok_or("missing pointer")?;
    let value = ttir::operand(op, 1).ok_or("missing value")?;
    let mask = ttir::operand(op, 2);
    let kind = int_attr(op, "atomic_rmw_op")?;
    let value_type = lw.element_type(value.r#type());
    let bits = types::memory_bits(value_type);
    let (name, ty) = rmw_instruction(kind, value_type, bits)?;
    let prefix = format!("atom.global.{}.{}.{name}", scope(op)?, semantic(op)?);
    // Hopper (with PTX 8.1) adds vector float additions; before, f16
    // additions go two at a time as `f16x2`, as in Triton.
    let float_add = kind == 5
        && (types::is_f32(value_type) || types::is_bf16(value_type) || is_f16(value_type));
    let vectorisable =
        float_add && lw.options.compute_capability >= 90 && lw.options.ptx_version >= 81;
    let pairs = kind == 5 && is_f16(value_type) && !vectorisable;
    // `atom.add.bf16` needs sm_90: before it LLVM's `atomicrmw fadd` does
    // the addition (a compare-and-swap loop), as in Triton, which decides
    // by the module's target (`ttg.target`).
    let target = crate::allocation::compute_capability(op.to_raw());
    let how = if is_load(op, kind, value) {
        Atom::Load {
            sem: int_attr(op, "sem")?,
            scope: int_attr(op, "scope")?,
        }
    } else if kind == 5 && types::is_bf16(value_type) && target < 90 {
        Atom::Llvm {
            ordering: llvm_ordering(op)?,
            scope: llvm_scope(op)?,
        }
    } else if pairs {
        Atom::Pairs(prefix)
    } else {
        Atom::Ptx(Box::new(move |vec: usize| {
            if vec > 1 {
                format!("{prefix}.v{vec}.{ty}")
            } else {
                format!("{prefix}.{ty}")
            }
        }))
    };
    lower_atomic(lw, emit, op, ptr, &[value], mask, how, vectorisable)
}

/// Whether `tt.atomic_rmw` is a load, as Triton recognises one: a scalar
/// integer or float addition of the constant zero with relaxed or acquire
/// semantics, which reads the value without writing it.
fn is_load(op: OperationRef, kind: i64, value: Value) -> bool {
    let zero = ttir::constant_of(value).is_some_and(|c| {
        ttir::int_value(c).is_some_and(|(v, _)| v == 0)
            || FloatAttribute::try_from(c).is_ok_and(|f| f.value() == 0.0)
    });
    matches!(kind, 4 | 5)
        && TensorView::of(value.r#type()).is_none()
        && matches!(int_attr(op, "sem"), Ok(1 | 2))
        && zero
}

/// How one atomic access is made.
enum Atom {
    /// Inline PTX on two f16 elements at a time as one `f16x2`, where
    /// they are contiguous and aligned, else on one: the instruction
    /// without its type.
    Pairs(String),
    /// `nvg.ld_acquire` with the op's semantic and scope (their numbers
    /// are the same in both dialects): the atomic adds zero.
    Load { sem: i64, scope: i64 },
    /// Inline PTX, `vec` elements wide: the instruction for a width.
    Ptx(Box<dyn Fn(usize) -> String>),
    /// LLVM's `atomicrmw fadd` with this ordering and sync scope, one
    /// element at a time, branched around where the predicate is false.
    Llvm {
        ordering: &'static str,
        scope: &'static str,
    },
}

/// The LLVM ordering of the op's memory semantic.
fn llvm_ordering(op: OperationRef) -> Result<&'static str, String> {
    Ok(match semantic(op)? {
        "relaxed" => "monotonic",
        other => other,
    })
}

/// The LLVM sync scope of the op's memory scope, in the names the NVPTX
/// backend knows (system: the default, none; an unknown name would make
/// LLVM abort).
fn llvm_scope(op: OperationRef) -> Result<&'static str, String> {
    Ok(match scope(op)? {
        "gpu" => "device",
        "cta" => "block",
        _ => "",
    })
}

/// `atomicrmw fadd` of `value` at `pointer` where `predicate` holds:
/// `emit`'s block branches to a block that does it and to the block that
/// follows, which receives the old value (poison where skipped); returns
/// the emitter of that block and the value.
fn llvm_atomic_add<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    access: &AtomAccess<'c, 'a>,
    ty: Type<'c>,
    ordering: &str,
    scope: &str,
) -> Result<(Emitter<'c, 'a>, Value<'c, 'a>), String> {
    let (atomic_block, continuation) = lw.split_block(emit);
    // SAFETY: the continuation block is live and owned by the function's
    // region; the new argument belongs to it.
    let old: Value = unsafe {
        Value::from_raw(mlir_sys::mlirBlockAddArgument(
            continuation.to_raw(),
            ty.to_raw(),
            emit.location.to_raw(),
        ))
    };
    let skipped = emit.value("llvm.mlir.poison", &[], ty, &[]);
    let branch = OperationBuilder::new("llvm.cond_br", emit.location)
        .add_operands(&[access.predicate, skipped])
        .add_successors(&[&atomic_block, &continuation])
        .add_attributes(&[(
            melior::ir::Identifier::new(emit.context, "operandSegmentSizes"),
            emit.attr("array<i32: 1, 0, 1>"),
        )])
        .build()
        .map_err(|_| "could not build the atomic's branch".to_owned())?;
    emit.block.append_operation(branch);
    let inside = emit.at_end_of(atomic_block);
    let mut attributes = vec![
        ("bin_op", inside.attr("11 : i64")),
        (
            "ordering",
            inside.attr(&format!("{} : i64", llvm_ordering_code(ordering))),
        ),
    ];
    if !scope.is_empty() {
        attributes.push(("syncscope", inside.string_attr(scope)));
    }
    let added = inside.value(
        "llvm.atomicrmw",
        &[access.pointer, access.operands[0][0]],
        ty,
        &attributes,
    );
    inside.br(&continuation, &[added])?;
    Ok((emit.at_end_of(continuation), old))
}

/// LLVM's `AtomicOrdering` numbering, which the `ordering` attribute holds.
fn llvm_ordering_code(ordering: &str) -> i64 {
    match ordering {
        "monotonic" => 2,
        "acquire" => 4,
        "release" => 5,
        "acq_rel" => 6,
        _ => 7,
    }
}

/// `tt.atomic_cas`.
pub fn cas<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let ptr = ttir::operand(op, 0).ok_or("missing pointer")?;
    let compare = ttir::operand(op, 1).ok_or("missing comparand")?;
    let value = ttir::operand(op, 2).ok_or("missing value")?;
    let bits = types::memory_bits(lw.element_type(value.r#type()));
    let instruction = format!("atom.global.{}.{}.cas.b{bits}", semantic(op)?, scope(op)?);
    lower_atomic(
        lw,
        emit,
        op,
        ptr,
        &[compare, value],
        None,
        Atom::Ptx(Box::new(move |_| instruction.clone())),
        false,
    )
}
