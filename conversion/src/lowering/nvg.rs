//! The `nvg` ops to the LLVM and NVVM dialects (Triton's
//! `convert-nv-gpu-to-llvm`): `cluster_id` reads the CTA's rank in its
//! cluster; `warp_id` the thread's warp made uniform by a shuffle (counted
//! from its partition's first warp inside a `ttg.warp_specialize`, 0 where
//! the code runs on one warp); `wgmma` becomes `wgmma.mma_async` with
//! Triton's operands and constraints; `wgmma_wait_group` becomes
//! `wgmma.wait_group` with the struct's registers passing through it;
//! `ld_acquire` a global `ld` with its ordering and scope;
//! `tensor_memory_base` the kernel's tensor memory, allocated once at its
//! entry by the first warp (`tcgen05.alloc`, its address read back from
//! shared memory, the permit relinquished) and freed before each return.
//! Finally every `ttg.warp_specialize` takes the values its partitions use
//! from above as explicit captures, as Triton's pass leaves them.

use melior::{
    ir::{
        attribute::AttributeLike,
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
    let had_nvg_ops = !ops.is_empty();
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
            "nvg.warp_id" => warp_id(&emit, op),
            "nvg.wgmma" => wgmma(&emit, op)?,
            // Lowered once the others are, from a fresh walk: the greedy
            // clean-up below may erase unused ones.
            "nvg.tensor_memory_base" => continue,
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
    // Triton's pass is a greedy rewrite, whose folder gathers the new
    // constants at the top of each function (and of each partition, which
    // is isolated from above). Without `nvg` ops there is nothing to
    // gather (this project's own lowering emits none), so the module is
    // left as it is.
    if had_nvg_ops {
        if !tt_dialect::rewrite::apply_greedily(module, &[], tt_dialect::rewrite::Greedy::default())
        {
            return Err((
                module,
                "convert-nv-gpu-to-llvm: the greedy clean-up did not converge".into(),
            ));
        }
        let mut tensor_memory = Vec::new();
        collect_named(module, "nvg.tensor_memory_base", &mut tensor_memory);
        if !tensor_memory.is_empty() {
            lower_tensor_memory(context, module, &tensor_memory)?;
        }
    }
    isolate_partitions(module);
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

/// The partition `op` sits in: its `ttg.warp_specialize` and the
/// partition's index, for the innermost partition region around `op`
/// (`None` in a default region or outside any).
pub(crate) fn partition_of<'c, 'a>(
    op: OperationRef<'c, 'a>,
) -> Option<(OperationRef<'c, 'a>, usize)> {
    let mut child = op;
    let mut at = op.parent_operation();
    while let Some(p) = at {
        if ttir::is_op(p, "ttg.warp_specialize.partitions") {
            let region = child.to_raw();
            // SAFETY: `child` is a live op nested in `p`.
            let parent_region = unsafe {
                mlir_sys::mlirBlockGetParentRegion(mlir_sys::mlirOperationGetBlock(region))
            };
            let index = (0..p.region_count()).find(|&i| {
                p.region(i)
                    .is_ok_and(|r| r.to_raw().ptr == parent_region.ptr)
            })?;
            let ws = p.parent_operation()?;
            // SAFETY: the op lives as long as the module.
            return Some((unsafe { OperationRef::from_raw(ws.to_raw()) }, index));
        }
        if ttir::is_op(p, "ttg.warp_specialize") {
            // The default region.
            return None;
        }
        child = p;
        at = p.parent_operation();
    }
    None
}

/// The warps `op` runs on: its partition's, else the module's.
fn warps_of(op: OperationRef) -> i64 {
    if let Some((ws, index)) = partition_of(op) {
        let warps = ttir::inherent_attribute(ws, "partitionNumWarps")
            .and_then(|a| tt_passes::ttir::loop_support::ir::dense_i32_array(a.to_raw()));
        if let Some(w) = warps.and_then(|w| w.get(index).copied()) {
            return i64::from(w);
        }
    }
    let mut at = op.parent_operation();
    while let Some(p) = at {
        if ttir::is_op(p, "builtin.module") {
            if let Some((w, _)) = ttir::inherent_attribute(p, "ttg.num-warps")
                .or_else(|| p.attribute("ttg.num-warps").ok())
                .and_then(ttir::int_value)
            {
                return w;
            }
        }
        at = p.parent_operation();
    }
    4
}

/// `nvg.warp_id`: 0 on one warp; else the thread id (less its partition's
/// first thread) over 32, made uniform by a shuffle.
fn warp_id<'c, 'a>(emit: &Emitter<'c, 'a>, op: OperationRef<'c, 'a>) -> Value<'c, 'a> {
    if warps_of(op) == 1 {
        return emit.i32(0);
    }
    let thirty_two = emit.i32(32);
    let start = partition_of(op).and_then(|(ws, index)| {
        ttir::inherent_attribute(ws, "warpGroupStartIds")
            .and_then(|a| tt_passes::ttir::loop_support::ir::dense_i32_array(a.to_raw()))
            .and_then(|ids| ids.get(index).copied())
    });
    let start = start.map(|s| emit.i32(i64::from(s) * 32));
    let mut tid = emit.value("nvvm.read.ptx.sreg.tid.x", &[], emit.i32_type(), &[]);
    if let Some(start) = start {
        tid = emit.binary("llvm.sub", tid, start);
    }
    emit.warp_uniform(emit.binary("llvm.udiv", tid, thirty_two))
}

/// The fields of an LLVM struct type.
fn struct_fields(ty: Type) -> Vec<Type> {
    // SAFETY: `ty` is an LLVM struct; `i` stays below its field count.
    let count = unsafe { mlir_sys::mlirLLVMStructTypeGetNumElementTypes(ty.to_raw()) };
    (0..count)
        .map(|i| unsafe {
            Type::from_raw(mlir_sys::mlirLLVMStructTypeGetElementType(ty.to_raw(), i))
        })
        .collect()
}

fn is_struct(ty: Type) -> bool {
    // SAFETY: a live type.
    unsafe { mlir_sys::mlirTypeIsALLVMStructType(ty.to_raw()) }
}

/// The inline-asm register letter of a value of `ty`.
fn register_letter(ty: Type) -> &'static str {
    match ty.to_string().as_str() {
        "f32" => "f",
        "f64" => "d",
        "f16" | "bf16" | "i16" => "h",
        "i64" => "l",
        _ => "r",
    }
}

/// `nvg.wgmma`: Triton's `wgmma.mma_async` string and operands: the
/// outputs, C tied to them, A (registers or a descriptor), B's
/// descriptor, and the `scale-d` predicate when there is a C.
fn wgmma<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> Result<Value<'c, 'a>, (OperationRef<'c, 'a>, String)> {
    let fail = |m: &str| (op, format!("convert-nv-gpu-to-llvm: {m}"));
    let int = |name: &str| {
        ttir::inherent_attribute(op, name)
            .and_then(ttir::int_value)
            .map(|(v, _)| v)
            .ok_or_else(|| fail(&format!("'nvg.wgmma' without '{name}'")))
    };
    let (m, n, k) = (int("m")?, int("n")?, int("k")?);
    let elt = |name: &str| -> Result<&'static str, (OperationRef<'c, 'a>, String)> {
        Ok(match int(name)? {
            0 => "s8",
            1 => "s32",
            2 => "e4m3",
            3 => "e5m2",
            4 => "f16",
            5 => "bf16",
            6 => "tf32",
            7 => "f32",
            _ => return Err(fail("an unknown wgmma element type")),
        })
    };
    let (ta, tb, tc) = (elt("eltTypeA")?, elt("eltTypeB")?, elt("eltTypeC")?);
    let trans_a = int("layoutA")? == 1;
    let trans_b = int("layoutB")? == 0;
    let shape_ok = m == 64 && n % 8 == 0 && (8..=256).contains(&n);
    let transposable = shape_ok
        && k == 16
        && ((ta == "f16" && tb == "f16" && (tc == "f16" || tc == "f32"))
            || (ta == "bf16" && tb == "bf16" && tc == "f32"));
    let float_untransposed = !trans_a
        && !trans_b
        && shape_ok
        && ((ta == "tf32" && tb == "tf32" && tc == "f32" && k == 8)
            || (["e4m3", "e5m2"].contains(&ta)
                && ["e4m3", "e5m2"].contains(&tb)
                && (tc == "f16" || tc == "f32")
                && k == 32));
    let integer = !trans_a
        && !trans_b
        && m == 64
        && n % 8 == 0
        && (8..=224).contains(&n)
        && k == 32
        && ta == "s8"
        && tb == "s8"
        && tc == "s32";
    if !(transposable || float_untransposed || integer) {
        return Err(fail(&format!(
            "a wgmma m{m}n{n}k{k} {tc} += {ta} x {tb} with these layouts is not a PTX instruction"
        )));
    }
    let a = ttir::operand(op, 0).ok_or_else(|| fail("missing A"))?;
    let b = ttir::operand(op, 1).ok_or_else(|| fail("missing B"))?;
    let use_c = ttir::operand(op, 2).ok_or_else(|| fail("missing useC"))?;
    let c = ttir::operand(op, 3);
    let result: Value = op.result(0).map_err(|_| fail("missing result"))?.into();
    let out_ty = result.r#type();
    let outs = struct_fields(out_ty);
    let mut constraints: Vec<String> = outs
        .iter()
        .map(|t| format!("={}", register_letter(*t)))
        .collect();
    let mut operands = Vec::new();
    let mut next = outs.len();
    let mut args = format!(
        "{{{}}}, ",
        (0..outs.len())
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    if let Some(c) = c {
        for (i, t) in struct_fields(c.r#type()).into_iter().enumerate() {
            operands.push(emit.extract(c, i as i64, t));
            constraints.push(i.to_string());
        }
        next += outs.len();
    }
    if is_struct(a.r#type()) {
        let fields = struct_fields(a.r#type());
        let regs: Vec<String> = (0..fields.len())
            .map(|i| format!("${}", next + i))
            .collect();
        args += &format!("{{{}}}, ", regs.join(","));
        for (i, t) in fields.into_iter().enumerate() {
            operands.push(emit.extract(a, i as i64, t));
            constraints.push("r".into());
        }
        next += regs.len();
    } else {
        args += &format!("${next}, ");
        operands.push(a);
        constraints.push("l".into());
        next += 1;
    }
    args += &format!("${next}, ");
    operands.push(b);
    constraints.push("l".into());
    next += 1;
    if c.is_some() {
        args += &format!("${next}");
        operands.push(use_c);
        constraints.push("b".into());
    } else {
        args += "0";
    }
    if transposable || float_untransposed {
        args += ", 1, 1";
    }
    if transposable {
        if !is_struct(a.r#type()) {
            args += &format!(", {}", i32::from(trans_a));
        }
        args += &format!(", {}", i32::from(trans_b));
    }
    let asm = format!("wgmma.mma_async.sync.aligned.m{m}n{n}k{k}.{tc}.{ta}.{tb} {args};");
    emit.inline_asm(&asm, &constraints.join(","), &operands, Some(out_ty))
        .ok_or_else(|| fail("the wgmma has no result"))
}

/// `nvg.tensor_memory_base`: the kernel's tensor memory, allocated at its
/// entry by the first warp and freed before each return (Triton's
/// `initTensorMemory`); every base op reads the allocation's address.
fn lower_tensor_memory<'c, 'a>(
    context: &'c Context,
    module: OperationRef<'c, 'a>,
    bases: &[OperationRef<'c, 'a>],
) -> Result<(), (OperationRef<'c, 'a>, String)> {
    let first = bases[0];
    let fail = |op: OperationRef<'c, 'a>, m: &str| (op, format!("convert-nv-gpu-to-llvm: {m}"));
    let mut func = first.parent_operation();
    while let Some(f) = func.filter(|f| !ttir::is_op(*f, "llvm.func")) {
        func = f.parent_operation();
    }
    let func = func.ok_or_else(|| fail(first, "'nvg.tensor_memory_base' outside a function"))?;
    let kernel = func.attribute("nvvm.kernel").is_ok();
    if !kernel {
        return Err(fail(
            first,
            "'nvg.tensor_memory_base' outside a kernel is not supported yet",
        ));
    }
    for &b in bases {
        let mut f = b.parent_operation();
        while let Some(p) = f.filter(|p| !ttir::is_op(*p, "llvm.func")) {
            f = p.parent_operation();
        }
        if f.map(|f| f.to_raw().ptr) != Some(func.to_raw().ptr) {
            return Err(fail(
                b,
                "tensor memory used by several functions is not supported yet",
            ));
        }
    }
    let module_int = |name: &str| {
        module
            .attribute(name)
            .ok()
            .and_then(ttir::int_value)
            .map(|(v, _)| v)
    };
    let size = module_int("ttg.tensor_memory_size")
        .ok_or_else(|| fail(first, "a module without 'ttg.tensor_memory_size'"))?;
    if module
        .attribute("ttng.two-ctas")
        .is_ok_and(|a| a.to_string() == "true")
    {
        return Err(fail(
            first,
            "tensor memory for two CTAs is not supported yet",
        ));
    }
    if size > 512 {
        return Err(fail(first, "more than 512 columns of tensor memory"));
    }
    let exclusive = if size == 512 { ".exclusive" } else { "" };
    let entry = func
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .ok_or_else(|| fail(func, "a function without a body"))?;
    // SAFETY: the entry block outlives this rewrite.
    let entry: BlockRef<'c, 'a> = unsafe { BlockRef::from_raw(entry.to_raw()) };
    let emit = Emitter {
        context,
        block: entry,
        location: func.location(),
        before: entry.first_operation(),
    };
    let tid = emit.value("nvvm.read.ptx.sreg.tid.x", &[], emit.i32_type(), &[]);
    let pred = emit.icmp("ult", tid, emit.i32(32));
    let shared = emit.global_smem();
    emit.void_asm(
        &format!(
            "@$0 tcgen05.alloc{exclusive}.cta_group::1.sync.aligned.shared::cta.b32 [$1], {size};"
        ),
        "b,r",
        &[pred, shared],
    );
    emit.op("nvvm.barrier0", &[], &[], &[]);
    let address = emit.value("llvm.load", &[shared], emit.i32_type(), &[]);
    emit.op("nvvm.barrier0", &[], &[], &[]);
    let tmem_ptr = Type::parse(context, "!llvm.ptr<6>").expect("the LLVM dialect is loaded");
    let base = emit.value("llvm.inttoptr", &[address], tmem_ptr, &[]);
    emit.void_asm(
        "@$0 tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
        "b",
        &[pred],
    );
    let mut returns = Vec::new();
    collect_named(func, "llvm.return", &mut returns);
    for ret in returns {
        let block = ret
            .block()
            .ok_or_else(|| fail(ret, "a return outside a block"))?;
        // SAFETY: the block outlives this rewrite.
        let block: BlockRef<'c, 'a> = unsafe { BlockRef::from_raw(block.to_raw()) };
        let at = Emitter {
            context,
            block,
            location: ret.location(),
            before: Some(ret),
        };
        at.op("nvvm.barrier0", &[], &[], &[]);
        at.void_asm(
            &format!("@$0 tcgen05.dealloc{exclusive}.cta_group::1.sync.aligned.b32 $1, {size};"),
            "b,r",
            &[pred, base],
        );
    }
    for &b in bases {
        let result: Value = b.result(0).map_err(|_| fail(b, "missing result"))?.into();
        // SAFETY: both values are live; the op goes right after.
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), base.to_raw()) };
        unsafe { mlir_sys::mlirOperationDestroy(b.to_raw()) };
    }
    Ok(())
}

/// The ops named `name` nested in `op`.
fn collect_named<'c, 'a>(
    op: OperationRef<'c, 'a>,
    name: &str,
    out: &mut Vec<OperationRef<'c, 'a>>,
) {
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut inner = b.first_operation();
            while let Some(o) = inner {
                if ttir::is_op(o, name) {
                    // SAFETY: the op lives as long as the module.
                    out.push(unsafe { OperationRef::from_raw(o.to_raw()) });
                }
                collect_named(o, name, out);
                inner = o.next_in_block();
            }
            block = b.next_in_region();
        }
    }
}

/// Triton's `makeAllWarpGroupsIsolatedFromAbove`: the values a
/// `ttg.warp_specialize`'s partitions use from above become captures (one
/// more operand, one more argument of every partition).
pub(super) fn isolate_partitions(module: OperationRef) {
    use tt_passes::ttir::loop_support::ir as raw;
    let all = raw::collect_post(module.to_raw(), &|op| raw::is(op, "ttg.warp_specialize"));
    for ws in all {
        let Some(holder) = raw::regions(ws)
            .get(1)
            .and_then(|r| raw::region_ops(*r).into_iter().next())
        else {
            continue;
        };
        let regions = raw::regions(holder);
        let mut captures: Vec<mlir_sys::MlirValue> = Vec::new();
        for &region in &regions {
            for block in raw::blocks(region) {
                for op in raw::block_ops(block) {
                    raw::walk_pre(op, &mut |inner| {
                        for v in raw::operands(inner) {
                            let outside = raw::value_parent_op(v)
                                .is_none_or(|p| !raw::is_ancestor(holder, p));
                            if outside && !captures.iter().any(|c| c.ptr == v.ptr) {
                                captures.push(v);
                            }
                        }
                    });
                }
            }
        }
        if captures.is_empty() {
            continue;
        }
        let mut operands = raw::operands(ws);
        operands.extend(&captures);
        // SAFETY: `ws` is live; its captures are variadic operands.
        unsafe {
            mlir_sys::mlirOperationSetOperands(ws, operands.len() as isize, operands.as_ptr())
        };
        for &region in &regions {
            let Some(&entry) = raw::blocks(region).first() else {
                continue;
            };
            for &capture in &captures {
                // SAFETY: a new argument of a live block; the uses replaced
                // are all inside the region.
                let arg = unsafe {
                    mlir_sys::mlirBlockAddArgument(
                        entry,
                        raw::value_type(capture),
                        mlir_sys::mlirValueGetLocation(capture),
                    )
                };
                for (user, index) in raw::uses(capture) {
                    let mut at = Some(user);
                    let mut contained = false;
                    while let Some(o) = at {
                        let b = raw::op_block(o);
                        if !raw::is_null_block(b) && raw::block_parent_region(b).ptr == region.ptr {
                            contained = true;
                            break;
                        }
                        at = raw::parent_op(o);
                    }
                    if contained {
                        raw::set_operand(user, index, arg);
                    }
                }
            }
        }
    }
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
