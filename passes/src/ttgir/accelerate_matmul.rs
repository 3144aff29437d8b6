//! `tritongpu-accelerate-matmul`: Triton 3.6's choice of tensor-core
//! instructions for `tt.dot` on NVIDIA targets up to sm_9x.
//!
//! Each `tt.dot` with a blocked result (`BlockedToMMA`, through MLIR's
//! greedy driver as Triton runs it) gets the highest MMA version the target
//! and the dot allow (`supportMMA`): version 3 (`warp_group_dot`, sm_90)
//! for rank-2 dots of fp8/int8/f16/bf16/tf32 whose M is a multiple of 64,
//! N of 8, K at least one instruction deep, with a warp count that is a
//! multiple of 4 (fp8 into f32 also needs `maxNumImpreciseAcc` >= 32);
//! version 2 (`mma.sync`, sm_80 on) otherwise, f64 only on sm_80 and sm_90.
//! A dot no MMA serves stays blocked (the FMA path).
//!
//! - The layout: `#ttg.nvidia_mma` with Triton's instruction shape
//!   (`mmaVersionToInstrShape`: v2 `[16, 8]`, batched `[1, 16, 8]`; v3
//!   `[16, N, 256 / bits]` with the largest N of Triton's list that divides
//!   the tile and fits the warps along N) and warps per tile
//!   (`warpsPerTileV2`/`V3`: chained dots put every warp on one axis, v3
//!   grows M first in units of four warps, v2 balances the M and N
//!   repetitions, ties to M).
//! - Version 3: B, and A when it comes from a load or a block argument
//!   (through layout conversions and transposes), are stored to shared
//!   memory (`ttg.local_alloc` right after the value, before its layout
//!   conversion) with the NVMMA encoding of its order (fixed K-contiguous
//!   orders where the type cannot be transposed: anything but f16/bf16);
//!   any other A stays in registers as a dot operand. The dot becomes
//!   `ttng.warp_group_dot`.
//! - Version 2: both operands convert to `#ttg.dot_op` with
//!   `kWidth = 32 / bits`, where the bits are the narrowest loaded width
//!   behind each operand (`computeOrigBitWidth`: 4 behind `fp4_to_fp`,
//!   halved behind a `tt.join`).
//! - The accumulator converts to the MMA layout before the dot and the
//!   result back after it (`remove-layout-conversions` cleans up).
//!
//! Afterwards `decomposeMixedModeDotOp` promotes operands the hardware does
//! not take: fp8 MMA operands to f16 below sm_89 and on sm_90 where the dot
//! is not version 3; FMA operands whose type differs from the result's to
//! the result type.
//!
//! A `tt.dot_scaled` first becomes a `tt.dot` on upscaled operands
//! ([`crate::ttgir::decompose_scaled_dot`]), then takes the same path.
//!
//! Refused with a located error: targets from sm_100 (MMA v5, tensor
//! memory; scaled dots included), more than
//! one CTA, a dot whose result layout is neither blocked nor MMA, version-3
//! operands held in non-blocked layouts, integer FMA promotions, a module
//! without `ttg.target`.

use melior::ir::operation::{OperationLike, OperationRef};
use melior::ir::{Attribute, Type, TypeLike, Value};
use melior::RewriterBase;
use mlir_sys::{MlirOperation, MlirType, MlirValue};
use std::collections::HashSet;
use ttg_dialect::layout::Layout;

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttgir::decompose_scaled_dot;
use crate::ttgir::pipelining as pl;
use crate::ttir::loop_support::ir::{self, Op};
use tt_dialect::rewrite::{apply_greedily, Greedy, Pattern, Root};

const FLAG: &str = "tritongpu-accelerate-matmul";

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUAccelerateMatmul",
    argument: FLAG,
    description: "Choose MMA layouts and tensor-core ops for tt.dot",
    anchor: "builtin.module",
    run,
};

static BLOCKED_TO_MMA: Pattern = Pattern {
    benefit: 1,
    rewrite: blocked_to_mma,
    generated: &[
        "ttg.convert_layout",
        "ttg.local_alloc",
        "ttng.warp_group_dot",
        "tt.dot",
    ],
};

fn refuse(op: MlirOperation, what: &str) -> crate::rust_pass::Failure {
    crate::rust_pass::unsupported(op, FLAG, what)
}

/// An op handle of the module being rewritten as a melior reference.
fn op_ref<'c, 'a>(raw: MlirOperation) -> OperationRef<'c, 'a> {
    // SAFETY: every handle passed here is a live op of the module the pass
    // runs on, which outlives the reference's uses in this file.
    unsafe { OperationRef::from_raw(raw) }
}

/// An attribute handle read from (or parsed into) the module's context.
fn attr<'c>(raw: mlir_sys::MlirAttribute) -> Attribute<'c> {
    // SAFETY: attributes are owned by the context, which outlives the pass.
    unsafe { Attribute::from_raw(raw) }
}

fn run(module: OperationRef) -> PassResult {
    let raw = module.to_raw();
    let has_dots = !ir::collect_post(raw, &|op| {
        ir::is(op, "tt.dot") || ir::is(op, "tt.dot_scaled")
    })
    .is_empty();
    if !has_dots {
        return Ok(());
    }
    let Some(cc) = compute_capability(raw) else {
        return Err(fail(
            module,
            &format!("'{FLAG}' needs the module's 'ttg.target' (cuda:<capability>)"),
        ));
    };
    // Scaled dots first become plain dots on upscaled operands (before
    // sm_100, whose MMAs would take the scales).
    for dot in ir::collect_post(raw, &|op| ir::is(op, "tt.dot_scaled")) {
        if matches!(
            tensor(ir::result(dot, 0)).layout,
            Some(Layout::NvidiaMma { .. })
        ) {
            continue;
        }
        if cc >= 100 {
            return Err(refuse(dot, &format!("tt.dot_scaled on cuda:{cc} (MMA v5)")));
        }
        let num_warps = ir::module_int(dot, "ttg.num-warps").unwrap_or(4) as u32;
        let threads = ir::module_int(dot, "ttg.threads-per-warp").unwrap_or(32) as u32;
        let dot =
            decompose_scaled_dot::transpose_rhs_scaled(dot).map_err(|what| refuse(dot, &what))?;
        decompose_scaled_dot::decompose(dot, num_warps, threads)
            .map_err(|what| refuse(dot, &what))?;
    }
    let dots = ir::collect_post(raw, &|op| {
        ir::is(op, "tt.dot") || ir::is(op, "tt.dot_scaled")
    });
    for &dot in &dots {
        let result = tensor(ir::result(dot, 0));
        if matches!(result.layout, Some(Layout::NvidiaMma { .. })) {
            continue;
        }
        if cc >= 100 {
            return Err(refuse(dot, &format!("tt.dot on cuda:{cc} (MMA v5)")));
        }
        if !matches!(result.layout, Some(Layout::Blocked { ref cga, .. }) if cga.is_empty()) {
            return Err(refuse(
                dot,
                "a tt.dot whose result layout is not a blocked layout of one CTA",
            ));
        }
        match choose(dot, cc) {
            Err(what) => return Err(refuse(dot, &what)),
            Ok(Some(choice))
                if tensor_type(dot, &result.shape, result.element, &choice.mma).is_none()
                    || [&choice.a, &choice.b].iter().any(|o| match o {
                        Operand::Shared { source, encoding } => {
                            shared_type(dot, *source, encoding).is_none()
                        }
                        Operand::Registers { .. } => false,
                    }) =>
            {
                return Err(refuse(dot, "the layouts it chose for this tt.dot"));
            }
            Ok(_) => {}
        }
    }
    let patterns = [(Root::Op("tt.dot"), &BLOCKED_TO_MMA)];
    if !apply_greedily(module, &patterns, Greedy::default()) {
        return Err(fail(module, "pattern application did not converge"));
    }
    decompose_mixed_mode(raw, cc)
}

// ------------------------------------------------------------------ types

/// A ranked tensor's parts.
struct TensorInfo {
    shape: Vec<i64>,
    element: MlirType,
    layout: Option<Layout>,
}

fn tensor(value: MlirValue) -> TensorInfo {
    let view = tt_dialect::types::TensorView::of(ty(ir::value_type(value)));
    match view {
        Some(v) => TensorInfo {
            shape: v.shape.to_vec(),
            element: v.element.to_raw(),
            layout: v.encoding.and_then(Layout::read),
        },
        None => TensorInfo {
            shape: Vec::new(),
            element: ir::value_type(value),
            layout: None,
        },
    }
}

/// A type handle of this pass's IR as a melior type.
fn ty<'c>(raw: MlirType) -> Type<'c> {
    // SAFETY: every handle passed here was read from live IR of the module
    // the pass runs on; types are owned by its context, which outlives the
    // pass.
    unsafe { Type::from_raw(raw) }
}

fn type_text(raw: MlirType) -> String {
    ty(raw).to_string()
}

fn bits(raw: MlirType) -> u32 {
    tt_dialect::types::bit_width(ty(raw)).unwrap_or(0)
}

fn is_native_fp8(ty: MlirType) -> bool {
    matches!(type_text(ty).as_str(), "f8E5M2" | "f8E4M3FN")
}

fn is_fp8(ty: MlirType) -> bool {
    matches!(
        type_text(ty).as_str(),
        "f8E5M2" | "f8E4M3FN" | "f8E5M2FNUZ" | "f8E4M3FNUZ"
    )
}

fn parse_type(op: MlirOperation, text: &str) -> Option<MlirType> {
    ir::parse_type(ir::context(op), text)
}

fn tensor_type(
    op: MlirOperation,
    shape: &[i64],
    element: MlirType,
    layout: &Layout,
) -> Option<MlirType> {
    let encoding = ir::parse_attribute(ir::context(op), &layout.text()?)?;
    Some(tt_dialect::ir::tensor_type(shape, ty(element), Some(attr(encoding))).to_raw())
}

/// `getNVIDIAComputeCapability`: the number of the module's `cuda:N`
/// target (a trailing `a` as in `cuda:90a` is ignored).
fn compute_capability(module: MlirOperation) -> Option<u32> {
    let target = ir::attribute(module, "ttg.target")?;
    let text = tt_dialect::ir::string_value(attr(target))?;
    text.strip_prefix("cuda:")?
        .trim_end_matches('a')
        .parse()
        .ok()
}

fn int_attr(op: MlirOperation, name: &str, default: i64) -> i64 {
    ir::attribute(op, name)
        .and_then(ir::integer_attr_value)
        .unwrap_or(default)
}

/// `inputPrecision` values of `tt.dot`.
const TF32: i64 = 0;
const IEEE: i64 = 2;

// ---------------------------------------------------------- MMA selection

/// What `BlockedToMMA` does to one dot.
struct Choice {
    version: u32,
    mma: Layout,
    /// Version 3: per operand, shared memory (the value stored and its
    /// NVMMA encoding) or registers (a dot-operand kWidth).
    a: Operand,
    b: Operand,
}

enum Operand {
    Shared { source: MlirValue, encoding: Layout },
    Registers { k_width: u32 },
}

/// `supportMMA(value, version)` on one operand's element type.
fn supports_operand(element: MlirType, version: u32) -> bool {
    let t = type_text(element);
    is_fp8(element)
        || t == "f16"
        || t == "bf16"
        || (t == "f32" && version >= 2)
        || (t == "i8" && version >= 2)
        || (t == "f64" && version == 2)
}

/// `supportMMA(dot, version)`.
fn supports(dot: MlirOperation, version: u32, num_warps: i64) -> bool {
    let (a, b, d) = (
        tensor(ir::operand(dot, 0)),
        tensor(ir::operand(dot, 1)),
        tensor(ir::result(dot, 0)),
    );
    if version == 3 {
        let a_bits = bits(a.element);
        if a_bits == 0 || a.shape.last().copied().unwrap_or(0) < i64::from(256 / a_bits) {
            return false;
        }
        let rank = d.shape.len();
        if rank != 2 {
            return false;
        }
        let t = type_text(a.element);
        let listed =
            is_native_fp8(a.element) || matches!(t.as_str(), "i8" | "f16" | "bf16" | "f32");
        if !(num_warps % 4 == 0 && d.shape[0] % 64 == 0 && d.shape[1] % 8 == 0 && listed) {
            return false;
        }
        if int_attr(dot, "maxNumImpreciseAcc", 0) < 32
            && is_native_fp8(a.element)
            && type_text(d.element) == "f32"
        {
            return false;
        }
    }
    if type_text(a.element) == "f32" && type_text(b.element) == "f32" {
        return int_attr(dot, "inputPrecision", IEEE) == TF32 && version >= 2;
    }
    supports_operand(a.element, version) && supports_operand(b.element, version)
}

/// `getMMAVersionSafe`: 0 when no MMA version serves the dot.
fn mma_version(dot: MlirOperation, cc: u32, num_warps: i64) -> u32 {
    let preference: &[u32] = match cc {
        0..=74 => &[1],
        75..=89 => &[2],
        90..=99 => &[3, 2],
        _ => &[],
    };
    preference
        .iter()
        .copied()
        .find(|&v| supports(dot, v, num_warps))
        .unwrap_or(0)
}

/// `mmaVersionToInstrShape` for versions 2 and 3.
fn instr_shape(
    version: u32,
    shape: &[i64],
    element: MlirType,
    num_warps: i64,
) -> Result<Vec<u32>, String> {
    if version == 2 {
        let mut s = vec![1; shape.len()];
        let rank = shape.len();
        s[rank - 1] = 8;
        s[rank - 2] = 16;
        return Ok(s);
    }
    let k = 256 / bits(element);
    let valid: Vec<i64> = if type_text(element) == "i8" {
        vec![
            224, 208, 192, 176, 160, 144, 128, 112, 96, 80, 64, 48, 32, 24, 16, 8,
        ]
    } else {
        (1..=32).rev().map(|i| i * 8).collect()
    };
    let m_warps = (shape[0] / 16).max(1);
    let n_warps = (num_warps / m_warps).max(1);
    let max_n = (shape[1] / n_warps).max(8);
    valid
        .into_iter()
        .find(|&n| shape[1] % n == 0 && n <= max_n)
        .map(|n| vec![16, n as u32, k])
        .ok_or_else(|| {
            format!(
                "a tt.dot whose N ({}) no wgmma instruction divides",
                shape[1]
            )
        })
}

/// `getForwardSlice` of `op`'s results (every transitive user).
fn forward_slice(op: MlirOperation) -> Vec<MlirOperation> {
    let mut seen: HashSet<Op> = HashSet::new();
    let mut order = Vec::new();
    let mut stack: Vec<MlirValue> = ir::results(op);
    while let Some(v) = stack.pop() {
        for (user, _) in ir::uses(v) {
            if seen.insert(Op(user)) {
                order.push(user);
                stack.extend(ir::results(user));
            }
        }
    }
    order
}

/// `warpsPerTileV3`.
fn warps_v3(dot: MlirOperation, shape: &[i64], num_warps: i64) -> Vec<u32> {
    if forward_slice(dot).into_iter().any(pl::is_dot_like) {
        return vec![num_warps as u32, 1];
    }
    let mut ret = [4i64, 1];
    while ret[0] * ret[1] < num_warps {
        if shape[0] > 16 * ret[0] {
            ret[0] *= 2;
        } else {
            ret[1] *= 2;
        }
    }
    vec![ret[0] as u32, ret[1] as u32]
}

/// The ops connected to `dot` through def-use edges in its own region,
/// not through `tt.trans` (`getSlice` with Triton's filter), in block
/// order.
fn same_region_slice(dot: MlirOperation) -> Vec<MlirOperation> {
    let block = ir::op_block(dot);
    let region = ir::block_parent_region(block);
    let keep = |op: MlirOperation| {
        ir::block_parent_region(ir::op_block(op)).ptr == region.ptr && !ir::is(op, "tt.trans")
    };
    let mut seen: HashSet<Op> = HashSet::from([Op(dot)]);
    let mut stack = vec![dot];
    while let Some(op) = stack.pop() {
        let mut next: Vec<MlirOperation> = Vec::new();
        for v in ir::operands(op) {
            if let Some(def) = ir::defining_op(v) {
                next.push(def);
            }
        }
        for v in ir::results(op) {
            next.extend(ir::uses(v).into_iter().map(|(u, _)| u));
        }
        for n in next {
            if keep(n) && seen.insert(Op(n)) {
                stack.push(n);
            }
        }
    }
    ir::blocks(region)
        .into_iter()
        .flat_map(ir::block_ops)
        .filter(|op| seen.contains(&Op(*op)))
        .collect()
}

/// `warpsPerTileV2`.
fn warps_v2(dot: MlirOperation, shape: &[i64], num_warps: i64) -> Vec<u32> {
    let rank = shape.len();
    if rank == 3 {
        return vec![num_warps as u32, 1, 1];
    }
    let mut chained = false;
    for op in same_region_slice(dot) {
        if op.ptr == dot.ptr || !(ir::is(op, "tt.dot") || ir::is(op, "tt.dot_scaled")) {
            continue;
        }
        let other = tensor(ir::result(op, 0));
        if other.shape.len() != rank {
            continue;
        }
        if let Some(Layout::NvidiaMma { warps_per_cta, .. }) = other.layout {
            return warps_per_cta;
        }
        chained = true;
    }
    if chained {
        return if shape[0] >= shape[1] {
            vec![num_warps as u32, 1]
        } else {
            vec![1, num_warps as u32]
        };
    }
    let mut warps = [1i64, 1];
    let mut reps = [ceil_div(shape[0], 16), ceil_div(shape[1], 8)];
    while warps[0] * warps[1] < num_warps {
        if reps[0] >= reps[1] {
            warps[0] *= 2;
            if reps[0] != 1 {
                reps[0] /= 2;
            }
        } else {
            warps[1] *= 2;
            reps[1] /= 2;
        }
    }
    vec![warps[0] as u32, warps[1] as u32]
}

fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// `v` before the layout conversion that makes it (one conversion, as
/// `getSharedMemoryMMAOperand` strips: a scaled dot's decomposition
/// converts an already converted operand again).
fn before_conversion(v: MlirValue) -> MlirValue {
    match ir::defining_op(v).filter(|d| ir::is(*d, "ttg.convert_layout")) {
        Some(def) => ir::operand(def, 0),
        None => v,
    }
}

/// `getOrderForMemory` (and the CGA bases) of the layouts it is known
/// for here: a blocked layout's order, which a dot operand of a blocked
/// parent shares.
fn memory_order(layout: Option<&Layout>) -> Option<(Vec<u32>, Vec<Vec<i64>>)> {
    match layout? {
        Layout::Blocked { order, cga, .. } => Some((order.clone(), cga.clone())),
        Layout::DotOperand {
            parent: Some(parent),
            ..
        } => match parent.as_ref() {
            Layout::Blocked { order, cga, .. } => Some((order.clone(), cga.clone())),
            _ => None,
        },
        _ => None,
    }
}

/// The shared-memory side of a version-3 operand
/// (`getSharedMemoryMMAOperand`).
fn shared_operand(value: MlirValue, op_idx: u32, allow_transpose: bool) -> Result<Operand, String> {
    let source = before_conversion(value);
    let t = tensor(source);
    let Some((order, cga)) = memory_order(t.layout.as_ref()) else {
        return Err("a wgmma operand held in a layout other than blocked".into());
    };
    if !cga.is_empty() || t.shape.len() != 2 {
        return Err("a wgmma operand of more than one CTA or rank other than 2".into());
    }
    let order = if allow_transpose {
        order
    } else if op_idx == 1 {
        vec![0, 1]
    } else {
        vec![1, 0]
    };
    Ok(Operand::Shared {
        source,
        encoding: Layout::nvmma_shared_for(&t.shape, &order, bits(t.element), false),
    })
}

fn is_elementwise_pure(op: MlirOperation) -> bool {
    let r = op_ref(op);
    tt_dialect::ir::has_trait(r, tt_dialect::ir::Trait::Elementwise)
        && tt_dialect::ir::is_memory_effect_free(r)
}

/// `computeOrigBitWidth`: the narrowest element width loaded behind `x`.
fn orig_bit_width(x: MlirValue) -> u32 {
    let keep = |op: MlirOperation| {
        is_elementwise_pure(op)
            || [
                "tt.expand_dims",
                "tt.reshape",
                "tt.trans",
                "tt.join",
                "tt.split",
                "ttg.fp4_to_fp",
                "tt.load",
                "tt.descriptor_load",
                "tt.broadcast",
                "ttg.convert_layout",
            ]
            .iter()
            .any(|n| ir::is(op, n))
    };
    // MLIR's backward slice of a value: its defining op's operands'
    // definers, transitively, through ops the filter keeps (the root too),
    // without the root itself; block arguments end it.
    let mut slice: Vec<MlirOperation> = Vec::new();
    if let Some(root) = ir::defining_op(x).filter(|&r| keep(r)) {
        let mut seen: HashSet<Op> = HashSet::from([Op(root)]);
        let mut stack = vec![root];
        while let Some(op) = stack.pop() {
            for v in ir::operands(op) {
                if let Some(def) = ir::defining_op(v) {
                    if keep(def) && seen.insert(Op(def)) {
                        slice.push(def);
                        stack.push(def);
                    }
                }
            }
        }
    }
    if slice.iter().any(|&op| ir::is(op, "ttg.fp4_to_fp")) {
        return 4;
    }
    let mut width = bits(tensor(x).element);
    for &op in &slice {
        if ir::is(op, "tt.load") || ir::is(op, "tt.descriptor_load") {
            width = width.min(bits(tensor(ir::result(op, 0)).element));
        }
    }
    if slice.iter().any(|&op| ir::is(op, "tt.join")) {
        width /= 2;
    }
    width
}

/// `DotOperandEncodingAttr::get` from an element width, for MMA parents.
fn k_width(bits: u32) -> u32 {
    (32 / bits.max(1)).max(1)
}

/// What `BlockedToMMA` would do to `dot`: `Ok(None)` where it leaves the
/// dot alone, `Err` where this file cannot follow Triton.
fn choose(dot: MlirOperation, cc: u32) -> Result<Option<Choice>, String> {
    if cc < 80 {
        return Ok(None);
    }
    let (a, b, d) = (
        tensor(ir::operand(dot, 0)),
        tensor(ir::operand(dot, 1)),
        tensor(ir::result(dot, 0)),
    );
    if !matches!(d.layout, Some(Layout::Blocked { .. })) {
        return Ok(None);
    }
    let f64_involved = [a.element, b.element, d.element]
        .iter()
        .any(|&t| type_text(t) == "f64");
    if f64_involved && cc != 80 && cc != 90 {
        return Ok(None);
    }
    let Some(num_warps) = ir::module_int(dot, "ttg.num-warps") else {
        return Err("a tt.dot in a module without 'ttg.num-warps'".into());
    };
    if ir::module_int(dot, "ttg.num-ctas").unwrap_or(1) != 1 {
        return Err("tt.dot with more than one CTA".into());
    }
    let version = mma_version(dot, cc, num_warps);
    if version != 2 && version != 3 {
        return Ok(None);
    }
    let instr = instr_shape(version, &d.shape, a.element, num_warps)?;
    let warps = if version == 3 {
        warps_v3(dot, &d.shape, num_warps)
    } else {
        warps_v2(dot, &d.shape, num_warps)
    };
    let mma = Layout::nvidia_mma(version, &warps, &instr);
    let (a_value, b_value) = (ir::operand(dot, 0), ir::operand(dot, 1));
    let (a_op, b_op) = if version == 3 {
        let t = type_text(a.element);
        let allow_transpose = t == "f16" || t == "bf16";
        let a_op = if ir::comes_from_load_or_block_arg(a_value) {
            shared_operand(a_value, 0, allow_transpose)?
        } else {
            Operand::Registers {
                k_width: k_width(bits(a.element)),
            }
        };
        (a_op, shared_operand(b_value, 1, allow_transpose)?)
    } else {
        let min = orig_bit_width(a_value).min(orig_bit_width(b_value));
        let k = if min > 0 {
            k_width(min)
        } else {
            k_width(bits(a.element))
        };
        (
            Operand::Registers { k_width: k },
            Operand::Registers { k_width: k },
        )
    };
    Ok(Some(Choice {
        version,
        mma,
        a: a_op,
        b: b_op,
    }))
}

// ------------------------------------------------------------- rewriting

fn value<'c, 'a>(v: MlirValue) -> Value<'c, 'a> {
    // SAFETY: `v` is a live value of the IR being rewritten.
    unsafe { Value::from_raw(v) }
}

fn convert<'c, 'a>(rewriter: &RewriterBase<'c, 'a>, v: MlirValue, to: MlirType) -> MlirValue {
    let def_loc = crate::ttir::pointer_ir::value_location(value(v));
    let cvt = tt_dialect::ir::create(
        rewriter,
        "ttg.convert_layout",
        def_loc,
        &[value(v)],
        &[ty(to)],
        &[],
    );
    ir::result(cvt.to_raw(), 0)
}

fn dot_operand_type(
    dot: MlirOperation,
    v: MlirValue,
    op_idx: u32,
    k_width: u32,
    mma: &Layout,
) -> Option<MlirType> {
    let t = tensor(v);
    let layout = Layout::DotOperand {
        op_idx,
        k_width,
        parent: Some(Box::new(mma.clone())),
    };
    tensor_type(dot, &t.shape, t.element, &layout)
}

/// `BlockedToMMA`.
fn blocked_to_mma<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let dot = op.to_raw();
    let Some(cc) = ir::enclosing_module(dot).and_then(compute_capability) else {
        return false;
    };
    let Ok(Some(choice)) = choose(dot, cc) else {
        return false;
    };
    let d = tensor(ir::result(dot, 0));
    let Some(new_ty) = tensor_type(dot, &d.shape, d.element, &choice.mma) else {
        return false;
    };
    let old_ty = ir::value_type(ir::result(dot, 0));
    let location = op.location();
    rewriter.set_insertion_point_before(op);
    let acc = convert(rewriter, ir::operand(dot, 2), new_ty);
    let mut operands = Vec::new();
    for (idx, (v, plan)) in [
        (ir::operand(dot, 0), &choice.a),
        (ir::operand(dot, 1), &choice.b),
    ]
    .into_iter()
    .enumerate()
    {
        let operand = match plan {
            Operand::Shared { source, encoding } => {
                let Some(memdesc) = shared_type(dot, *source, encoding) else {
                    return false;
                };
                rewriter.set_insertion_point_after_value(value(*source));
                let source_loc = crate::ttir::pointer_ir::value_location(value(*source));
                let alloc = tt_dialect::ir::create(
                    rewriter,
                    "ttg.local_alloc",
                    source_loc,
                    &[value(*source)],
                    &[ty(memdesc)],
                    &[],
                );
                rewriter.set_insertion_point_before(op);
                ir::result(alloc.to_raw(), 0)
            }
            Operand::Registers { k_width } => {
                let Some(ty) = dot_operand_type(dot, v, idx as u32, *k_width, &choice.mma) else {
                    return false;
                };
                convert(rewriter, v, ty)
            }
        };
        operands.push(operand);
    }
    let attrs: Vec<(melior::ir::Identifier, Attribute)> = tt_dialect::ir::attributes(op)
        .into_iter()
        .filter(|(name, _)| {
            matches!(
                name.as_string_ref().as_str().unwrap_or_default(),
                "inputPrecision" | "maxNumImpreciseAcc"
            )
        })
        .collect();
    let name = if choice.version == 3 {
        "ttng.warp_group_dot"
    } else {
        "tt.dot"
    };
    let new_dot = tt_dialect::ir::create(
        rewriter,
        name,
        location,
        &[value(operands[0]), value(operands[1]), value(acc)],
        &[ty(new_ty)],
        &attrs,
    );
    let back = tt_dialect::ir::create(
        rewriter,
        "ttg.convert_layout",
        location,
        &[tt_dialect::ir::first_result(new_dot)],
        &[ty(old_ty)],
        &[],
    );
    rewriter.replace_op_with_operation(op, back);
    true
}

/// The memory descriptor a version-3 operand is stored to.
fn shared_type(dot: MlirOperation, source: MlirValue, encoding: &Layout) -> Option<MlirType> {
    let t = tensor(source);
    let dims: Vec<String> = t.shape.iter().map(i64::to_string).collect();
    parse_type(
        dot,
        &format!(
            "!ttg.memdesc<{}x{}, {}, #ttg.shared_memory>",
            dims.join("x"),
            type_text(t.element),
            encoding.text()?
        ),
    )
}

/// `decomposeMixedModeDotOp`.
fn decompose_mixed_mode(module: MlirOperation, cc: u32) -> PassResult {
    for dot in ir::collect_post(module, &|op| ir::is(op, "tt.dot")) {
        let (a, d) = (tensor(ir::operand(dot, 0)), tensor(ir::result(dot, 0)));
        let promote = match &d.layout {
            Some(Layout::NvidiaMma { version_major, .. }) => {
                if !is_native_fp8(a.element) || cc == 89 || cc == 120 || *version_major == 3 {
                    continue;
                }
                parse_type(dot, "f16")
            }
            _ => {
                if ir::same_type(a.element, d.element) {
                    continue;
                }
                let float = |t: MlirType| tt_dialect::types::is_float(ty(t));
                let promotable = is_fp8(a.element) || (float(a.element) && float(d.element));
                if !promotable {
                    return Err(refuse(
                        dot,
                        "an FMA tt.dot whose integer operands differ from its result type",
                    ));
                }
                Some(d.element)
            }
        };
        let Some(promote) = promote else {
            continue;
        };
        for idx in 0..2 {
            let v = ir::operand(dot, idx);
            let t = tensor(v);
            let Some(layout) = t.layout.as_ref() else {
                return Err(refuse(dot, "a tt.dot operand without a layout"));
            };
            let Some(ty) = tensor_type(dot, &t.shape, promote, layout) else {
                return Err(refuse(dot, "a tt.dot operand layout it cannot print"));
            };
            let name = if is_fp8(t.element) {
                "tt.fp_to_fp"
            } else {
                "arith.extf"
            };
            let ext = ir::create_op(name, ir::location(dot), &[v], &[ty], &[], Vec::new());
            ir::insert_before(dot, ext);
            ir::set_operand(dot, idx, ir::result(ext, 0));
        }
    }
    Ok(())
}
