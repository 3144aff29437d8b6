//! The `nvg` ops to the LLVM and NVVM dialects (Triton's
//! `convert-nv-gpu-to-llvm`): `cluster_id` reads the CTA's rank in its
//! cluster, `warp_id` the thread's warp made uniform by a shuffle,
//! `wgmma_wait_group` becomes `wgmma.wait_group` with the struct's registers
//! passing through it, `ld_acquire` a global `ld` with its ordering and
//! scope. `wgmma` (this project lowers `ttng.warp_group_dot` straight to
//! PTX) and `tensor_memory_base` (Blackwell) are refused with a located
//! error, as is `warp_id` inside a `ttg.warp_specialize` partition.

use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationRef},
        BlockRef, RegionLike, Type, TypeLike, Value, ValueLike,
    },
    Context,
};
use tt_dialect::ir as ttir;

use super::emit::Emitter;
use super::wgmma;

/// Lowers every `nvg` op of `module`; `Err((op, message))` names the first
/// op it cannot lower.
pub fn lower_nvg_ops<'c, 'a>(
    context: &'c Context,
    module: OperationRef<'c, 'a>,
) -> Result<(), (OperationRef<'c, 'a>, String)> {
    let mut ops = Vec::new();
    collect(module, &mut ops);
    for op in ops {
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_owned();
        let block = op
            .block()
            .ok_or_else(|| (op, "an op outside a block".to_owned()))?;
        // SAFETY: the block outlives this rewrite of one of its ops.
        let block: BlockRef<'c, 'a> = unsafe { BlockRef::from_raw(block.to_raw()) };
        let emit = Emitter {
            context,
            block,
            location: op.location(),
            before: Some(op),
        };
        let replacement = match name.as_str() {
            "nvg.cluster_id" => emit.value(
                "nvvm.read.ptx.sreg.cluster.ctarank",
                &[],
                emit.i32_type(),
                &[],
            ),
            "nvg.warp_id" => {
                if inside_partition(op) {
                    return Err((
                        op,
                        "convert-nv-gpu-to-llvm: 'nvg.warp_id' inside a ttg.warp_specialize partition is not supported yet".into(),
                    ));
                }
                let tid = emit.value("nvvm.read.ptx.sreg.tid.x", &[], emit.i32_type(), &[]);
                let warp = emit.binary("llvm.udiv", tid, emit.i32(32));
                emit.value(
                    "nvvm.shfl.sync",
                    &[emit.i32(-1), warp, emit.i32(0), emit.i32(31)],
                    emit.i32_type(),
                    &[("kind", emit.attr("#nvvm<shfl_kind idx>"))],
                )
            }
            "nvg.wgmma_wait_group" => wait_group(&emit, op)?,
            "nvg.ld_acquire" => load_acquire(&emit, op)?,
            _ => {
                return Err((
                    op,
                    format!("convert-nv-gpu-to-llvm: '{name}' is not supported yet"),
                ))
            }
        };
        let result: Value = op
            .result(0)
            .map_err(|_| (op, "missing result".to_owned()))?
            .into();
        // SAFETY: both values are live in the module being rewritten.
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), replacement.to_raw()) };
        // SAFETY: the op has no uses left and is not referenced again.
        unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
    }
    Ok(())
}

/// The `nvg` ops nested in `op`, in order.
fn collect<'c, 'a>(op: OperationRef<'c, 'a>, out: &mut Vec<OperationRef<'c, 'a>>) {
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut inner = b.first_operation();
            while let Some(o) = inner {
                if o.name()
                    .as_string_ref()
                    .as_str()
                    .is_ok_and(|n| n.starts_with("nvg."))
                {
                    out.push(o);
                }
                collect(o, out);
                inner = o.next_in_block();
            }
            block = b.next_in_region();
        }
    }
}

/// Whether `op` sits in a `ttg.warp_specialize` region.
fn inside_partition(op: OperationRef) -> bool {
    let mut at = op.parent_operation();
    while let Some(p) = at {
        if ttir::is_op(p, "ttg.warp_specialize") || ttir::is_op(p, "ttg.warp_specialize.partitions")
        {
            return true;
        }
        at = p.parent_operation();
    }
    false
}

/// `nvg.wgmma_wait_group`: the struct's fields through the wait, packed
/// again.
fn wait_group<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> Result<Value<'c, 'a>, (OperationRef<'c, 'a>, String)> {
    let input = ttir::operand(op, 0).ok_or((op, "missing operand".to_owned()))?;
    let pendings = ttir::inherent_attribute(op, "pendings")
        .and_then(ttir::int_value)
        .map_or(0, |(v, _)| v);
    let ty = input.r#type();
    let count = unsafe { mlir_sys::mlirLLVMStructTypeGetNumElementTypes(ty.to_raw()) };
    let fields: Vec<Type> = (0..count)
        // SAFETY: `ty` is an LLVM struct (the op's constraint), `i` below
        // its field count.
        .map(|i| unsafe {
            Type::from_raw(mlir_sys::mlirLLVMStructTypeGetElementType(ty.to_raw(), i))
        })
        .collect();
    let values: Vec<Value> = fields
        .iter()
        .enumerate()
        .map(|(i, &t)| emit.extract(input, i as i64, t))
        .collect();
    Ok(emit.struct_of(&wgmma::wait(emit, &values, pendings), ty))
}

/// `nvg.ld_acquire`: `ld.global.<scope>.<sem>.b<bits>`, predicated by the
/// mask when there is one, the bits cast to the result type.
fn load_acquire<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> Result<Value<'c, 'a>, (OperationRef<'c, 'a>, String)> {
    let fail = |m: &str| (op, m.to_owned());
    let address = ttir::operand(op, 0).ok_or_else(|| fail("missing address"))?;
    let mask = (op.operand_count() > 1)
        .then(|| ttir::operand(op, 1))
        .flatten();
    let result: Value = op.result(0).map_err(|_| fail("missing result"))?.into();
    let ty = result.r#type();
    if ty.to_string().starts_with("f8") {
        return Err(fail(
            "convert-nv-gpu-to-llvm: 'nvg.ld_acquire' of an fp8 value is not supported yet (LLVM has no fp8 type)",
        ));
    }
    let bits = tt_dialect::types::bit_width(ty).unwrap_or(32).max(8);
    let int = |attr: &str| {
        ttir::inherent_attribute(op, attr)
            .and_then(ttir::int_value)
            .map(|(v, _)| v)
    };
    let scope = match int("scope") {
        Some(1) => "gpu",
        Some(2) => "cta",
        Some(3) => "sys",
        _ => return Err(fail("convert-nv-gpu-to-llvm: an unknown memory scope")),
    };
    let sem = match int("sem") {
        Some(1) => "relaxed",
        Some(2) => "acquire",
        _ => {
            return Err(fail(
                "convert-nv-gpu-to-llvm: 'nvg.ld_acquire' takes relaxed or acquire semantics",
            ))
        }
    };
    let constraint = match bits {
        64 => "l",
        32 => "r",
        _ => "c",
    };
    let instruction = format!("ld.global.{scope}.{sem}.b{bits} $0, [ $1 + 0 ];");
    let mut operands = vec![address];
    let (asm, constraints) = match mask {
        Some(m) => {
            operands.push(m);
            (format!("@$2 {instruction}"), format!("={constraint},l,b"))
        }
        None => (instruction, format!("={constraint},l")),
    };
    let loaded = emit
        .inline_asm(&asm, &constraints, &operands, Some(emit.int_type(bits)))
        .ok_or_else(|| fail("the load has no result"))?;
    Ok(if loaded.r#type() == ty {
        loaded
    } else if tt_dialect::types::bit_width(ty) < Some(bits) {
        // An i1 travels as a byte.
        emit.value("llvm.trunc", &[loaded], ty, &[])
    } else {
        emit.bitcast(loaded, ty)
    })
}
