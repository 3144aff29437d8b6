//! `triton-nvidia-gpu-remove-tmem-tokens`: the tensor-memory ops lose their
//! dependency tokens, as Triton 3.6's `TritonNvidiaGPURemoveTMEMTokensPass`
//! does once the pipeliner no longer needs them. `ttng.tmem_alloc`,
//! `ttng.tmem_load`, `ttng.tmem_store` and the Blackwell MMAs
//! (`ttng.tc_gen5_mma`, `ttng.tc_gen5_mma_scaled`) drop their token operand
//! and result; what used a token (loop-carried tokens, `scf.if` results)
//! takes one `ub.poison` token made at the start of each function, which
//! the next canonicalization erases with the dead loop arguments.

use melior::ir::operation::OperationRef;
use mlir_sys::{MlirAttribute, MlirOperation, MlirValue};

use crate::rust_pass::{unsupported, PassResult, RustPass};
use crate::ttir::loop_support::ir;

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonNvidiaGPURemoveTMEMTokensPass",
    argument: "triton-nvidia-gpu-remove-tmem-tokens",
    description: "Remove the dependency tokens of the tensor-memory ops",
    anchor: "builtin.module",
    run,
};

/// Position of the MMAs' accumulator token in their operand segments.
const ACC_DEP_SEGMENT: usize = 3;

fn run(module: OperationRef) -> PassResult {
    let module = module.to_raw();
    let body = ir::blocks(ir::regions(module)[0])[0];
    for func in ir::block_ops(body)
        .into_iter()
        .filter(|op| ir::is(*op, "tt.func"))
    {
        let Some(entry) = ir::regions(func)
            .first()
            .and_then(|r| ir::blocks(*r).first().copied())
        else {
            continue;
        };
        let ctx = ir::context(func);
        let token_ty = ir::parse_type(ctx, "!ttg.async.token").ok_or_else(|| {
            unsupported(
                func,
                PASS.argument,
                "a context without the TritonGPU dialect",
            )
        })?;
        let poison = ir::create_op(
            "ub.poison",
            ir::location(func),
            &[],
            &[token_ty],
            &[],
            Vec::new(),
        );
        // SAFETY: `entry` is the live entry block of the function and
        // `poison` a detached op it takes over.
        unsafe { mlir_sys::mlirBlockInsertOwnedOperation(entry, 0, poison) };
        let dummy = ir::result(poison, 0);
        let ops = ir::collect_post(func, &|op| {
            [
                "ttng.tmem_alloc",
                "ttng.tmem_load",
                "ttng.tmem_store",
                "ttng.tc_gen5_mma",
                "ttng.tc_gen5_mma_scaled",
            ]
            .iter()
            .any(|name| ir::is(op, name))
        });
        for op in ops {
            remove_token(op, dummy).map_err(|what| unsupported(op, PASS.argument, &what))?;
        }
    }
    Ok(())
}

/// Rebuilds `op` without its token operand and result; the token's users
/// take `dummy`.
fn remove_token(op: MlirOperation, dummy: MlirValue) -> Result<(), String> {
    let mut operands = ir::operands(op);
    let mut results = ir::results(op);
    let mut attributes = ir::attributes(op);
    let (dep, token) = match ir::name(op).as_str() {
        "ttng.tmem_alloc" => (None, (results.len() == 2).then_some(1)),
        "ttng.tmem_load" => (
            (operands.len() == 2).then_some(1),
            (results.len() == 2).then_some(1),
        ),
        "ttng.tmem_store" => (
            (operands.len() == 4).then_some(1),
            (results.len() == 1).then_some(0),
        ),
        _ => {
            let (_, sizes) = attributes
                .iter_mut()
                .find(|(name, _)| name == "operandSegmentSizes")
                .ok_or("an MMA without 'operandSegmentSizes'")?;
            let mut segments =
                ir::dense_i32_array(*sizes).ok_or("malformed 'operandSegmentSizes'")?;
            let dep = match segments.get(ACC_DEP_SEGMENT) {
                Some(1) => Some(ACC_DEP_SEGMENT),
                Some(0) => None,
                _ => return Err("malformed 'operandSegmentSizes'".to_owned()),
            };
            segments[ACC_DEP_SEGMENT] = 0;
            *sizes = ir::dense_i32_array_attr(ir::context(op), &segments);
            (dep, (results.len() == 1).then_some(0))
        }
    };
    if dep.is_none() && token.is_none() {
        return Ok(());
    }
    if let Some(index) = dep {
        operands.remove(index);
    }
    let token_value = token.map(|index| results.remove(index));
    let types: Vec<_> = results.iter().map(|r| ir::value_type(*r)).collect();
    let attributes: Vec<(&str, MlirAttribute)> =
        attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let new = ir::create_op(
        &ir::name(op),
        ir::location(op),
        &operands,
        &types,
        &attributes,
        Vec::new(),
    );
    ir::insert_before(op, new);
    for (index, old) in results.into_iter().enumerate() {
        ir::replace_all_uses(old, ir::result(new, index));
    }
    if let Some(old) = token_value {
        ir::replace_all_uses(old, dummy);
    }
    ir::erase(op);
    Ok(())
}
