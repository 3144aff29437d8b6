//! Verifier rules of the `nvws` ops (Triton 3.6's `NVWS/IR/Ops.cpp`), with
//! Triton's diagnostic texts. Reached from [`crate::verify::verify_op`] by op
//! name.

use melior::ir::operation::{OperationLike, OperationRef};
use melior::ir::{r#type::TypeLike, Attribute, BlockLike, RegionLike, Type, ValueLike};
use tt_dialect::types::Tensor;
use tt_dialect::verify::{i32_array_attr, operand_type, result_type, Rule, NO_OP_PREFIX};

use crate::ffi;
use crate::layout::{kind, MemDesc};

/// The Rust rules of `nvws` ops, by name; `None` for ops without any.
pub fn verify_op(op: OperationRef, name: &str) -> Option<Rule> {
    Some(match name {
        "nvws.warp_group" => verify_warp_group(op),
        "nvws.aref.create" => verify_aref_create(op),
        "nvws.aref.get.enter" | "nvws.aref.put.enter" => verify_aref_enter(op),
        _ => return None,
    })
}

fn error(message: &str) -> Rule {
    Err(format!("{NO_OP_PREFIX}{message}"))
}

/// One `numWarps` entry per region; with results, the first region ends in
/// a `nvws.warp_group.yield` of as many values.
fn verify_warp_group(op: OperationRef) -> Rule {
    let num_warps = i32_array_attr(op, "numWarps").unwrap_or_default();
    let regions = op.region_count();
    if num_warps.len() != regions {
        return error("Must supply numWarps for each Warp Group.");
    }
    if op.result_count() == 0 {
        return Ok(());
    }
    let Ok(first) = op.region(0) else {
        return error("Must have at least one region when there are results.");
    };
    let terminator = first
        .first_block()
        .and_then(|block| block.terminator())
        .filter(|term| term.name().as_string_ref().as_str() == Ok("nvws.warp_group.yield"));
    let Some(yield_op) = terminator else {
        return error(
            "When nvws.warp_group op has results, the first region should be terminated by \
             nvws.warp_group.yield op.",
        );
    };
    if yield_op.operand_count() != op.result_count() {
        return error(
            "Mismatch in the number of results returned by nvws.warp_group op and the number of \
             the operands of the corresponding nvws.warp_group.yield op in the first region.",
        );
    }
    Ok(())
}

/// The buffers of an aref are used only by it (and their deallocation),
/// with one multi-buffering depth.
fn verify_aref_create(op: OperationRef) -> Rule {
    let mut depths = Vec::new();
    for index in 0..op.operand_count() {
        let Ok(buffer) = op.operand(index) else {
            continue;
        };
        // SAFETY: walks the use list of a live value of the op being
        // verified; nothing changes it meanwhile.
        let users_ok = unsafe {
            let mut operand = mlir_sys::mlirValueGetFirstUse(buffer.to_raw());
            let mut ok = true;
            while !mlir_sys::mlirOpOperandIsNull(operand) {
                let user = OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(operand));
                let name = user.name();
                ok &= matches!(
                    name.as_string_ref().as_str(),
                    Ok("nvws.aref.create" | "ttg.local_dealloc")
                );
                operand = mlir_sys::mlirOpOperandGetNextUse(operand);
            }
            ok
        };
        if !users_ok {
            return error("Aref buffer is used elsewhere, Aref cannot guarantee async safety");
        }
        let ty = buffer.r#type();
        if let Some(desc) = MemDesc::of(ty) {
            depths.push(desc.shape.first().copied());
        } else if let Some(tensor) = Tensor::of(ty) {
            depths.push(tensor.shape.first().copied());
        } else {
            return error("Aref is sliced, but input type isn't supported.");
        }
    }
    if depths.windows(2).any(|pair| pair[0] != pair[1]) {
        return error("Leading dims of sliced aref inputs don't match.");
    }
    Ok(())
}

/// The buffers of `nvws.aref.get.enter` / `nvws.aref.put.enter` are the
/// aref's buffers less their leading (multi-buffering) dimension.
fn verify_aref_enter(op: OperationRef) -> Rule {
    let Some(aref) = operand_type(op, 0) else {
        return Ok(());
    };
    // SAFETY: a live type, read as an aref only when it is one; the
    // indices are below its number of buffers.
    let base_types: Vec<Type> = unsafe {
        let raw = aref.to_raw();
        if !ffi::nvwsTypeIsAAref(raw) {
            return Ok(());
        }
        (0..ffi::nvwsArefTypeGetNumBaseTypes(raw))
            .map(|i| Type::from_raw(ffi::nvwsArefTypeGetBaseType(raw, i)))
            .collect()
    };
    // Every result but the last (the token) is a buffer.
    let buffers: Vec<Type> = (0..op.result_count().saturating_sub(1))
        .filter_map(|i| result_type(op, i))
        .collect();
    if base_types.len() != buffers.len() {
        return error("Aref has different number of arguments than enter");
    }
    for (orig, buffer) in base_types.into_iter().zip(buffers) {
        let outcome = if let Some(orig) = Tensor::of(orig) {
            Tensor::of(buffer).map(|new| {
                let scales = orig.encoding.is_some_and(is_tmem_scales);
                slice_mismatch(
                    scales,
                    (&orig.shape, orig.element),
                    (&new.shape, new.element),
                )
            })
        } else if let Some(orig) = MemDesc::of(orig) {
            MemDesc::of(buffer).map(|new| {
                slice_mismatch(
                    is_tmem_scales(orig.encoding),
                    (&orig.shape, orig.element),
                    (&new.shape, new.element),
                )
            })
        } else {
            return error("Slicing not Implemented for this type");
        };
        match outcome {
            None => return error("MLIR Types don't match"),
            Some(Some(message)) => return error(message),
            Some(None) => {}
        }
    }
    Ok(())
}

fn is_tmem_scales(encoding: Attribute) -> bool {
    kind(encoding) == ffi::ENC_TENSOR_MEMORY_SCALES
}

/// Why a buffer of shape `new` is not one slice of `orig` (the whole
/// buffer, for tensor-memory scales), if it is not.
fn slice_mismatch(
    scales: bool,
    (orig_shape, orig_element): (&[i64], Type),
    (new_shape, new_element): (&[i64], Type),
) -> Option<&'static str> {
    if scales {
        if orig_element != new_element || orig_shape.len() != new_shape.len() {
            return Some("Ranks don't match for TensorMemoryScalesEncodingAttr");
        }
        if orig_shape != new_shape {
            return Some("Dimensions don't match for TensorMemoryScalesEncodingAttr");
        }
        return None;
    }
    if orig_element != new_element || orig_shape.len() != new_shape.len() + 1 {
        return Some("Ranks don't match");
    }
    if orig_shape[1..] != *new_shape {
        return Some("Dimensions don't match");
    }
    None
}
