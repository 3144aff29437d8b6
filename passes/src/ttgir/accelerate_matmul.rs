//! `tritongpu-accelerate-matmul`: Triton 3.6's choice of tensor-core
//! instructions for `tt.dot` and `tt.dot_scaled` on NVIDIA targets.
//!
//! Each `tt.dot` with a blocked result (`BlockedToMMA`, through MLIR's
//! greedy driver as Triton runs it) gets the highest MMA version the target
//! and the dot allow (`supportMMA`): version 5 (tcgen05, sm_100 to sm_119)
//! for rank-2 non-integer dots of 4 or 8 warps whose M per CTA is a
//! multiple of 64, N of 16 and K at least one instruction deep; version 3
//! (`warp_group_dot`, sm_90)
//! for rank-2 dots of fp8/int8/f16/bf16/tf32 whose M is a multiple of 64,
//! N of 8, K at least one instruction deep, with a warp count that is a
//! multiple of 4 (fp8 into f32 also needs `maxNumImpreciseAcc` >= 32);
//! version 2 (`mma.sync`, sm_80 on, the only one on sm_120) otherwise,
//! f64 only on sm_80 and sm_90.
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
//!   orders where the type cannot be transposed: anything but f16/bf16,
//!   with a warning where that differs from the registers' order);
//!   any other A stays in registers as a dot operand. The dot becomes
//!   `ttng.warp_group_dot`.
//! - Version 2: both operands convert to `#ttg.dot_op` with
//!   `kWidth = 32 / bits`, where the bits are the narrowest loaded width
//!   behind each operand (`computeOrigBitWidth`: 4 behind `fp4_to_fp`,
//!   halved behind a `tt.join`).
//! - The accumulator converts to the MMA layout before the dot and the
//!   result back after it (`remove-layout-conversions` cleans up).
//!
//! Version 5 (`BlockedToMMAv5`; dots whose operands are loaded 32 bits
//! wide or more need tf32 precision): both operands go to shared memory
//! (K-contiguous for f32), the accumulator to tensor memory
//! (`ttng.tmem_alloc` of the accumulator converted to the register layout
//! of its `32x32b` access, `16x256b` under
//! `TRITON_PREFER_TMEM_16x256_LAYOUT`; blockM 128 or 64, blockN up to 256,
//! split like the result over the CTAs), the dot becomes
//! `ttng.tc_gen5_mma` and the result a `ttng.tmem_load`. A dot split over
//! two CTAs along M whose B is loaded runs on both CTAs (`two_ctas`): the
//! load is re-laid out split along N.
//!
//! Scaled dots: on sm_100 to sm_119 (`ScaledBlockedToMMAv5`; both scales,
//! 4 or 8 warps, at least 128 x 16 per CTA, one CTA) the dot becomes
//! `ttng.tc_gen5_mma_scaled` with the scales in tensor memory (a scale
//! loaded through reshapes, transposes and conversions is first staged
//! through an unswizzled shared buffer) and fp4 operands padded in shared
//! memory where they meet fp8 or are not packed along K; on sm_120
//! (`ScaledBlockedToMMA`; both scales of one element type, not fp8 with
//! fp4, one CTA) it stays a `tt.dot_scaled` on MMA v2 operands with the
//! scales in Triton's sm_120 linear layout. Any other scaled dot first
//! becomes a `tt.dot` on upscaled operands
//! ([`crate::ttgir::decompose_scaled_dot`]), then takes the path above.
//!
//! Afterwards `decomposeMixedModeDotOp` promotes operands the hardware does
//! not take: fp8 MMA operands to f16 below sm_89 and on sm_90/sm_100 where
//! the dot is not version 3; FMA operands whose type differs from the
//! result's to the result type.
//!
//! Refused with a located error: version 2 or 3 over more than one CTA,
//! scaled MMA v5 over more than one CTA, a dot whose result layout is
//! neither blocked nor MMA, shared-memory operands held in non-blocked
//! layouts, integer FMA promotions, a module without `ttg.target`.

use melior::ir::operation::{OperationLike, OperationRef};
use melior::ir::{Attribute, Operation, Type, TypeLike, Value};
use melior::RewriterBase;
use mlir_sys::{MlirLocation, MlirOperation, MlirType, MlirValue};
use std::collections::HashSet;
use ttg_dialect::layout::Layout;
use ttg_dialect::linear_layout::LinearLayout;
use ttg_dialect::tmem::{self, TmemEncoding, TmemLayout};

use crate::rust_pass::{fail, PassResult, RustPass};
use crate::ttgir::decompose_scaled_dot;
use crate::ttgir::pipelining as pl;
use crate::ttir::loop_support::ir::{self, Op};
use tt_dialect::ir::{emit_op_diagnostic, Severity};
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

static BLOCKED_TO_MMA_V5: Pattern = Pattern {
    benefit: 10,
    rewrite: blocked_to_mma_v5,
    generated: &[
        "ttg.convert_layout",
        "ttg.local_alloc",
        "ttng.tmem_alloc",
        "arith.constant",
        "ttng.tc_gen5_mma",
        "ttng.tmem_load",
    ],
};

static SCALED_TO_MMA_V5: Pattern = Pattern {
    benefit: 10,
    rewrite: scaled_to_mma_v5,
    generated: &[
        "ttg.convert_layout",
        "ttg.local_alloc",
        "ttg.local_load",
        "ttng.tmem_alloc",
        "arith.constant",
        "ttng.tc_gen5_mma_scaled",
        "ttng.tmem_load",
    ],
};

static SCALED_TO_MMA_SM120: Pattern = Pattern {
    benefit: 10,
    rewrite: scaled_to_mma_sm120,
    generated: &["ttg.convert_layout", "tt.dot_scaled"],
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
    // Scaled dots that no MMA takes with its scales (MMA v5 on sm_100,
    // mma.sync on sm_120) first become plain dots on upscaled operands.
    let mut decomposed = false;
    for dot in ir::collect_post(raw, &|op| ir::is(op, "tt.dot_scaled")) {
        if matches!(
            tensor(ir::result(dot, 0)).layout,
            Some(Layout::NvidiaMma { .. })
        ) {
            continue;
        }
        let native = match cc {
            100..=119 => plan_scaled_v5(dot, cc).map(|p| p.is_some()),
            120 => plan_scaled_sm120(dot, cc).map(|p| p.is_some()),
            _ => Ok(false),
        };
        if native.map_err(|what| refuse(dot, &what))? {
            continue;
        }
        let num_warps = ir::module_int(dot, "ttg.num-warps").unwrap_or(4) as u32;
        let threads = ir::module_int(dot, "ttg.threads-per-warp").unwrap_or(32) as u32;
        let dot =
            decompose_scaled_dot::transpose_rhs_scaled(dot).map_err(|what| refuse(dot, &what))?;
        decompose_scaled_dot::decompose(dot, num_warps, threads)
            .map_err(|what| refuse(dot, &what))?;
        decomposed = true;
    }
    for dot in ir::collect_post(raw, &|op| ir::is(op, "tt.dot")) {
        let result = tensor(ir::result(dot, 0));
        if matches!(result.layout, Some(Layout::NvidiaMma { .. })) {
            continue;
        }
        if plan_v5(dot, cc)
            .map_err(|what| refuse(dot, &what))?
            .is_some()
        {
            continue;
        }
        if !matches!(result.layout, Some(Layout::Blocked { ref cga, .. }) if cga.is_empty()) {
            return Err(refuse(
                dot,
                "a tt.dot whose result layout is not a blocked layout of one CTA",
            ));
        }
        remark_unaccelerated(dot, cc);
        match choose(dot, cc) {
            Err(what) => return Err(refuse(dot, &what)),
            Ok(Some(choice))
                if tensor_type(dot, &result.shape, result.element, &choice.mma).is_none()
                    || [&choice.a, &choice.b].iter().any(|o| match o {
                        Operand::Shared {
                            source, encoding, ..
                        } => shared_type(dot, *source, encoding).is_none(),
                        Operand::Registers { .. } => false,
                    }) =>
            {
                return Err(refuse(dot, "the layouts it chose for this tt.dot"));
            }
            Ok(_) => {}
        }
    }
    let patterns = [
        (Root::Op("tt.dot"), &BLOCKED_TO_MMA),
        (Root::Op("tt.dot"), &BLOCKED_TO_MMA_V5),
        (Root::Op("tt.dot_scaled"), &SCALED_TO_MMA_V5),
        (Root::Op("tt.dot_scaled"), &SCALED_TO_MMA_SM120),
    ];
    if !apply_greedily(module, &patterns, Greedy::default()) {
        return Err(fail(module, "pattern application did not converge"));
    }
    // The decomposed dots' marks go (only those dots can carry one).
    if decomposed {
        for op in ir::collect_post(raw, &|op| {
            ir::attribute(op, decompose_scaled_dot::FROM_SCALED).is_some()
        }) {
            ir::remove_attribute(op, decompose_scaled_dot::FROM_SCALED);
        }
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
    Shared {
        source: MlirValue,
        encoding: Layout,
        /// The order forced on shared memory where it differs from the
        /// registers', and the operand index.
        reordered: Option<(Vec<u32>, u32)>,
    },
    Registers {
        k_width: u32,
    },
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
    if version == 5 {
        return supports_v5(&a, &b, &d, num_warps);
    }
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
        100..=119 => &[5, 2],
        120..=129 => &[2],
        _ => &[],
    };
    preference
        .iter()
        .copied()
        .find(|&v| supports(dot, v, num_warps))
        .unwrap_or(0)
}

/// Triton's remarks on a blocked `dot` that the target's newest MMA does
/// not serve: below sm_80, that it falls back to FMAs; on sm_90, that
/// wgmma does not take its shapes or types (emitted once per dot, where
/// Triton's two patterns each emit it).
fn remark_unaccelerated(dot: MlirOperation, cc: u32) {
    let num_warps = ir::module_int(dot, "ttg.num-warps").unwrap_or(4);
    // SAFETY: a live dot of the module being rewritten.
    let op = unsafe { OperationRef::from_raw(dot) };
    if (70..80).contains(&cc) {
        emit_op_diagnostic(
            op,
            Severity::Remark,
            &format!(
                "Dot op using MMA for compute capability {cc} has been deprecated. \
                 It falls back to the FMA path."
            ),
            &[],
        );
    } else if (90..=99).contains(&cc) && !supports(dot, 3, num_warps) {
        emit_op_diagnostic(
            op,
            Severity::Remark,
            "MMA version 3 acceleration not applied due to unsupported shapes or data types.",
            &[(
                None,
                format!("Target compute capability ({cc}) supports MMA v3."),
            )],
        );
    }
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

/// `v` before the layout conversions that make it (all of them, as
/// Triton 3.6's `getSharedMemoryMMAOperand` strips; only the one to the
/// dot-operand layout for a dot made from a `tt.dot_scaled`, whose operand
/// Triton stores as the scaled dot had it).
fn before_conversion(v: MlirValue, from_scaled: bool) -> MlirValue {
    let mut v = v;
    while let Some(def) = ir::defining_op(v).filter(|d| ir::is(*d, "ttg.convert_layout")) {
        v = ir::operand(def, 0);
        if from_scaled {
            break;
        }
    }
    v
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
fn shared_operand(
    value: MlirValue,
    op_idx: u32,
    allow_transpose: bool,
    from_scaled: bool,
) -> Result<Operand, String> {
    let source = before_conversion(value, from_scaled);
    let t = tensor(source);
    let Some((order, cga)) = memory_order(t.layout.as_ref()) else {
        return Err("a wgmma operand held in a layout other than blocked".into());
    };
    if !cga.is_empty() || t.shape.len() != 2 {
        return Err("a wgmma operand of more than one CTA or rank other than 2".into());
    }
    let new_order = if allow_transpose {
        order.clone()
    } else if op_idx == 1 {
        vec![0, 1]
    } else {
        vec![1, 0]
    };
    Ok(Operand::Shared {
        source,
        encoding: Layout::nvmma_shared_for(&t.shape, &new_order, bits(t.element), false),
        reordered: (new_order != order).then_some((new_order, op_idx)),
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
        let from_scaled = ir::attribute(dot, decompose_scaled_dot::FROM_SCALED).is_some();
        let a_op = if ir::comes_from_load_or_block_arg(a_value) {
            shared_operand(a_value, 0, allow_transpose, from_scaled)?
        } else {
            Operand::Registers {
                k_width: k_width(bits(a.element)),
            }
        };
        (
            a_op,
            shared_operand(b_value, 1, allow_transpose, from_scaled)?,
        )
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
    let from_scaled = ir::attribute(dot, decompose_scaled_dot::FROM_SCALED).is_some();
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
            Operand::Shared {
                source,
                encoding,
                reordered,
            } => {
                let Some(memdesc) = shared_type(dot, *source, encoding) else {
                    return false;
                };
                warn_reordered(dot, reordered);
                // A dot made from a scaled one has its shared operand
                // stored where the scaled dot was, before the accumulator's
                // conversion (Triton's decomposition stores it there);
                // others right after the value stored.
                let at = if from_scaled {
                    let acc_op = ir::defining_op(acc).expect("the conversion");
                    rewriter.set_insertion_point_before(op_ref(acc_op));
                    location
                } else {
                    rewriter.set_insertion_point_after_value(value(*source));
                    crate::ttir::pointer_ir::value_location(value(*source))
                };
                let alloc = tt_dialect::ir::create(
                    rewriter,
                    "ttg.local_alloc",
                    at,
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

// ------------------------------------------------- MMA v5 and sm_120 scales

/// The CGA bases of a distributed layout (blocked, or a dot operand or
/// slice of one); empty for one CTA and for other layouts.
fn cga_of(layout: Option<&Layout>) -> Vec<Vec<i64>> {
    match layout {
        Some(Layout::Blocked { cga, .. }) => cga.clone(),
        Some(Layout::DotOperand {
            parent: Some(parent),
            ..
        })
        | Some(Layout::Slice {
            parent: Some(parent),
            ..
        }) => cga_of(Some(parent)),
        _ => Vec::new(),
    }
}

/// `getCTASplitNum` of a CGA layout: per dimension, how many CTAs split it.
fn cta_split(cga: &[Vec<i64>], rank: usize) -> Vec<i64> {
    (0..rank)
        .map(|d| {
            let covered = cga
                .iter()
                .fold(0, |acc, b| acc | b.get(d).copied().unwrap_or(0));
            if covered == 0 {
                1
            } else {
                1 << (64 - covered.leading_zeros())
            }
        })
        .collect()
}

/// `getShapePerCTA`.
fn shape_per_cta(shape: &[i64], cga: &[Vec<i64>]) -> Vec<i64> {
    let split = cta_split(cga, shape.len());
    shape
        .iter()
        .zip(split)
        .map(|(&s, n)| (s / n).max(1))
        .collect()
}

/// A layout's text with its CGA bases (`CGALayout = [...]`) where it has
/// any: `text` is the layout's text without them.
fn with_cga(text: String, cga: &[Vec<i64>]) -> String {
    if cga.is_empty() {
        return text;
    }
    let bases: Vec<String> = cga
        .iter()
        .map(|b| {
            let v: Vec<String> = b.iter().map(i64::to_string).collect();
            format!("[{}]", v.join(", "))
        })
        .collect();
    match text.strip_suffix("}>") {
        Some(head) => format!("{head}, CGALayout = [{}]}}>", bases.join(", ")),
        None => text,
    }
}

/// A blocked layout's text, its CGA bases included.
fn blocked_text(layout: &Layout) -> Option<String> {
    let Layout::Blocked { cga, .. } = layout else {
        return None;
    };
    let mut local = layout.clone();
    if let Layout::Blocked { cga, .. } = &mut local {
        cga.clear();
    }
    Some(with_cga(local.text()?, cga))
}

fn dims_text(shape: &[i64]) -> String {
    shape
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

fn linear_layout_text(ll: &LinearLayout) -> String {
    crate::ttgir::infer_layout::linear_text(ll, |b| b.iter().map(|&x| i64::from(x)).collect())
}

/// A value to store to shared memory for a tcgen05 MMA, and the type of
/// the buffer.
struct SharedPlan {
    source: MlirValue,
    memdesc: String,
    /// The order forced on shared memory differs from the registers'.
    reordered: Option<(Vec<u32>, u32)>,
}

/// `getSharedMemoryMMAOperand` for MMA v5: `value` (before its layout
/// conversion) stored with the NVMMA encoding of its order, or of the
/// K-contiguous order where transposing is not allowed (swapped by
/// `force_transpose`); `cga` overrides the CGA bases of the value.
fn v5_shared_operand(
    value: MlirValue,
    op_idx: u32,
    allow_transpose: bool,
    fp4_padded: bool,
    force_transpose: bool,
    cga: Option<&[Vec<i64>]>,
) -> Result<SharedPlan, String> {
    let source = before_conversion(value, false);
    let t = tensor(source);
    let Some((order, own_cga)) = memory_order(t.layout.as_ref()) else {
        return Err("a tcgen05 MMA operand held in a layout other than blocked".into());
    };
    if t.shape.len() != 2 {
        return Err("a tcgen05 MMA operand of rank other than 2".into());
    }
    let cga = cga.unwrap_or(&own_cga);
    let mut new_order = order.clone();
    if !allow_transpose {
        new_order = if op_idx == 1 { vec![0, 1] } else { vec![1, 0] };
        if force_transpose {
            new_order.swap(0, 1);
        }
    }
    let per_cta = shape_per_cta(&t.shape, cga);
    let encoding = Layout::nvmma_shared_for(&per_cta, &new_order, bits(t.element), fp4_padded)
        .text()
        .ok_or("an NVMMA shared layout it cannot print")?;
    Ok(SharedPlan {
        source,
        memdesc: format!(
            "!ttg.memdesc<{}x{}, {}, #ttg.shared_memory>",
            dims_text(&t.shape),
            type_text(t.element),
            with_cga(encoding, cga)
        ),
        reordered: (new_order != order).then_some((new_order, op_idx)),
    })
}

/// The tensor-memory accumulator of a tcgen05 MMA: its buffer type and
/// the register layout it is stored from and loaded into.
struct TmemAcc {
    memdesc: String,
    encoding: String,
}

fn tmem_acc(
    d: &TensorInfo,
    block: [i64; 2],
    cga: &[Vec<i64>],
    two_ctas: bool,
    num_warps: i64,
) -> Result<TmemAcc, String> {
    let split = cta_split(cga, 2);
    let width = bits(d.element);
    if width == 0 || 32 % width != 0 {
        return Err(format!(
            "a tcgen05 MMA accumulating into {}",
            type_text(d.element)
        ));
    }
    let params = TmemLayout {
        block_m: block[0] as u32,
        block_n: block[1] as u32,
        col_stride: 32 / width,
        cta_split_m: split[0] as u32,
        cta_split_n: split[1] as u32,
        two_ctas,
    };
    tmem::check_tensor_memory_params(&params)?;
    let mut text = format!(
        "#ttng.tensor_memory_encoding<blockM = {}, blockN = {}, colStride = {}",
        params.block_m, params.block_n, params.col_stride
    );
    if params.cta_split_m > 1 {
        text += &format!(", CTASplitM = {}", params.cta_split_m);
    }
    if params.cta_split_n > 1 {
        text += &format!(", CTASplitN = {}", params.cta_split_n);
    }
    if two_ctas {
        text += ", twoCTAs = true";
    }
    text += ">";
    let ll = tmem::preferred_access_layout(
        &TmemEncoding::Tensor(params),
        &d.shape,
        width,
        num_warps as u32,
        cga,
    )?;
    Ok(TmemAcc {
        memdesc: format!(
            "!ttg.memdesc<{}x{}, {text}, #ttng.tensor_memory, mutable>",
            dims_text(&d.shape),
            type_text(d.element)
        ),
        encoding: linear_layout_text(&ll),
    })
}

/// `supportMMA(dot, 5)`.
fn supports_v5(a: &TensorInfo, b: &TensorInfo, d: &TensorInfo, num_warps: i64) -> bool {
    let disabled = std::env::var("DISABLE_MMA_V5")
        .is_ok_and(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "on"));
    let a_bits = bits(a.element);
    let integer = |t: MlirType| ir::integer_width(t).is_some();
    if disabled
        || a_bits == 0
        || a.shape.last().copied().unwrap_or(0) < i64::from(256 / a_bits)
        || integer(a.element)
        || integer(b.element)
        || integer(d.element)
        || d.shape.len() != 2
        || (num_warps != 4 && num_warps != 8)
    {
        return false;
    }
    let per_cta = shape_per_cta(&d.shape, &cga_of(d.layout.as_ref()));
    per_cta[0] % 64 == 0 && per_cta[1] % 16 == 0
}

/// What `BlockedToMMAv5` does to one dot.
struct V5Plan {
    a: SharedPlan,
    b: SharedPlan,
    /// Two CTAs: the load behind B and the layout it gets (split along N).
    split_b: Option<(MlirOperation, String)>,
    acc: TmemAcc,
    two_ctas: bool,
}

/// `canUseTwoCTAs`: the load behind B where the dot spans two CTAs along
/// M (at least 64 x 32 each) and B is loaded.
fn two_cta_load(dot: MlirOperation, split: &[i64], per_cta: &[i64]) -> Option<MlirOperation> {
    if split != [2, 1] || per_cta[0] < 64 || per_cta[1] < 32 {
        return None;
    }
    let mut b = ir::operand(dot, 1);
    while let Some(def) = ir::defining_op(b).filter(|d| ir::is(*d, "ttg.convert_layout")) {
        b = ir::operand(def, 0);
    }
    ir::defining_op(b).filter(|def| {
        ["tt.load", "tt.descriptor_load", "tt.descriptor_gather"]
            .iter()
            .any(|n| ir::is(*def, n))
    })
}

/// What `BlockedToMMAv5` would do to `dot`: `Ok(None)` where it leaves
/// the dot to the other patterns.
fn plan_v5(dot: MlirOperation, cc: u32) -> Result<Option<V5Plan>, String> {
    if !(100..120).contains(&cc) {
        return Ok(None);
    }
    let (a, d) = (tensor(ir::operand(dot, 0)), tensor(ir::result(dot, 0)));
    if d.layout.is_none() || matches!(d.layout, Some(Layout::NvidiaMma { .. })) {
        return Ok(None);
    }
    let Some(num_warps) = ir::module_int(dot, "ttg.num-warps") else {
        return Err("a tt.dot in a module without 'ttg.num-warps'".into());
    };
    if mma_version(dot, cc, num_warps) != 5 {
        return Ok(None);
    }
    let (a_value, b_value) = (ir::operand(dot, 0), ir::operand(dot, 1));
    if orig_bit_width(a_value).min(orig_bit_width(b_value)) >= 32
        && int_attr(dot, "inputPrecision", IEEE) != TF32
    {
        return Ok(None);
    }
    let Some(Layout::Blocked { cga, .. }) = d.layout.as_ref() else {
        return Err("a tcgen05 MMA whose result layout is not blocked".into());
    };
    let split = cta_split(cga, 2);
    let per_cta = shape_per_cta(&d.shape, cga);
    let load = two_cta_load(dot, &split, &per_cta);
    let allow_transpose = type_text(a.element) != "f32";
    let a_plan = v5_shared_operand(a_value, 0, allow_transpose, false, false, None)?;
    let (b_plan, split_b) = match load {
        Some(load) => {
            let loaded = tensor(ir::result(load, 0));
            let Some(Layout::Blocked {
                size_per_thread,
                threads_per_warp,
                warps_per_cta,
                order,
                ..
            }) = loaded.layout
            else {
                return Err(
                    "a two-CTA tcgen05 MMA whose B is loaded in a layout other than blocked".into(),
                );
            };
            let n_split = vec![vec![0, 1]];
            let layout = Layout::Blocked {
                size_per_thread,
                threads_per_warp,
                warps_per_cta,
                order,
                cga: n_split.clone(),
            };
            let text = blocked_text(&layout).ok_or("a blocked layout it cannot print")?;
            let plan = v5_shared_operand(
                ir::result(load, 0),
                1,
                allow_transpose,
                false,
                false,
                Some(&n_split),
            )?;
            (plan, Some((load, text)))
        }
        None => (
            v5_shared_operand(b_value, 1, allow_transpose, false, false, None)?,
            None,
        ),
    };
    // `mmaVersionToInstrShape` for version 5.
    let block = [
        if per_cta[0] >= 128 { 128 } else { 64 },
        per_cta[1].min(256),
    ];
    let two_ctas = split_b.is_some();
    let acc = tmem_acc(&d, block, cga, two_ctas, num_warps)?;
    Ok(Some(V5Plan {
        a: a_plan,
        b: b_plan,
        split_b,
        acc,
        two_ctas,
    }))
}

/// Creates an op at the rewriter's insertion point.
fn build<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    name: &str,
    location: MlirLocation,
    operands: &[MlirValue],
    results: &[MlirType],
    attributes: &[(&str, mlir_sys::MlirAttribute)],
) -> MlirOperation {
    let op = ir::create_op(name, location, operands, results, attributes, Vec::new());
    // SAFETY: `op` was just created and is detached; the rewriter takes
    // ownership of it by inserting it.
    let owned = unsafe { Operation::from_raw(op) };
    rewriter.insert(owned).to_raw()
}

/// `ttg.local_alloc` of a planned shared operand, right after its value.
fn alloc_shared<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    dot: MlirOperation,
    plan: &SharedPlan,
) -> Option<MlirValue> {
    let memdesc = parse_type(dot, &plan.memdesc)?;
    rewriter.set_insertion_point_after_value(value(plan.source));
    let loc = crate::ttir::pointer_ir::value_location(value(plan.source)).to_raw();
    let alloc = build(
        rewriter,
        "ttg.local_alloc",
        loc,
        &[plan.source],
        &[memdesc],
        &[],
    );
    Some(ir::result(alloc, 0))
}

/// `splitBOperand`: the load re-laid out over the CTAs along N (its
/// tensor operands converted to the new layout), a conversion back for its
/// other users.
fn split_load<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    load: MlirOperation,
    layout: &str,
) -> Option<()> {
    let encoding = ir::parse_attribute(ir::context(load), layout)?;
    let loaded = ir::result(load, 0);
    let old_ty = ir::value_type(loaded);
    let new_ty = ir::with_encoding(old_ty, encoding)?;
    rewriter.set_insertion_point_before(op_ref(load));
    for (idx, v) in ir::operands(load).into_iter().enumerate() {
        if tt_dialect::types::TensorView::of(ty(ir::value_type(v))).is_none() {
            continue;
        }
        let to = ir::with_encoding(ir::value_type(v), encoding)?;
        let cvt = convert(rewriter, v, to);
        ir::set_operand(load, idx, cvt);
    }
    // SAFETY: `loaded` is a live result whose users are converted back to
    // its old type right below.
    unsafe { mlir_sys::mlirValueSetType(loaded, new_ty) };
    rewriter.set_insertion_point_after(op_ref(load));
    let back = convert(rewriter, loaded, old_ty);
    let back_op = ir::defining_op(back)?;
    rewriter.replace_all_uses_except(value(loaded), value(back), op_ref(back_op));
    Some(())
}

/// `arith.constant true`.
fn constant_true<'c, 'a>(rewriter: &RewriterBase<'c, 'a>, dot: MlirOperation) -> MlirValue {
    let i1 = ir::i1_type(ir::context(dot));
    let c = build(
        rewriter,
        "arith.constant",
        ir::location(dot),
        &[],
        &[i1],
        &[("value", ir::integer_attr(i1, 1))],
    );
    ir::result(c, 0)
}

/// The accumulator in tensor memory: converted to its register layout and
/// stored (`ttng.tmem_alloc`); the buffer and its token.
fn alloc_acc<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    dot: MlirOperation,
    acc: &TmemAcc,
    acc_ty: MlirType,
) -> Option<(MlirValue, MlirValue)> {
    let memdesc = parse_type(dot, &acc.memdesc)?;
    let token = parse_type(dot, "!ttg.async.token")?;
    let cvt = build(
        rewriter,
        "ttg.convert_layout",
        ir::location(dot),
        &[ir::operand(dot, 2)],
        &[acc_ty],
        &[],
    );
    let alloc = build(
        rewriter,
        "ttng.tmem_alloc",
        ir::location(dot),
        &[ir::result(cvt, 0)],
        &[memdesc, token],
        &[],
    );
    Some((ir::result(alloc, 0), ir::result(alloc, 1)))
}

/// Loads the accumulator after `mma` and converts it back to the dot's
/// result type, replacing the dot.
fn finish<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    op: OperationRef<'c, 'a>,
    buffer: MlirValue,
    mma: MlirOperation,
    acc_ty: MlirType,
) -> Option<()> {
    let dot = op.to_raw();
    let token = parse_type(dot, "!ttg.async.token")?;
    let ld = build(
        rewriter,
        "ttng.tmem_load",
        ir::location(dot),
        &[buffer, ir::result(mma, 0)],
        &[acc_ty, token],
        &[],
    );
    let back = build(
        rewriter,
        "ttg.convert_layout",
        ir::location(dot),
        &[ir::result(ld, 0)],
        &[ir::value_type(ir::result(dot, 0))],
        &[],
    );
    rewriter.replace_op_with_operation(op, op_ref(back));
    Some(())
}

/// `BlockedToMMAv5`.
fn blocked_to_mma_v5<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let dot = op.to_raw();
    let Some(cc) = ir::enclosing_module(dot).and_then(compute_capability) else {
        return false;
    };
    let Ok(Some(plan)) = plan_v5(dot, cc) else {
        return false;
    };
    rewrite_v5(op, rewriter, &plan).is_some()
}

fn rewrite_v5<'c, 'a>(
    op: OperationRef<'c, 'a>,
    rewriter: &RewriterBase<'c, 'a>,
    plan: &V5Plan,
) -> Option<()> {
    let dot = op.to_raw();
    let encoding = ir::parse_attribute(ir::context(dot), &plan.acc.encoding)?;
    let acc_ty = ir::with_encoding(ir::value_type(ir::result(dot, 0)), encoding)?;
    let token = parse_type(dot, "!ttg.async.token")?;
    if let Some((load, layout)) = &plan.split_b {
        split_load(rewriter, *load, layout)?;
    }
    let a = alloc_shared(rewriter, dot, &plan.a)?;
    let b = alloc_shared(rewriter, dot, &plan.b)?;
    rewriter.set_insertion_point_before(op);
    let (buffer, acc_token) = alloc_acc(rewriter, dot, &plan.acc, acc_ty)?;
    let yes = constant_true(rewriter, dot);
    let ctx = ir::context(dot);
    let mut attrs = vec![(
        "operandSegmentSizes",
        ir::dense_i32_array_attr(ctx, &[1, 1, 1, 1, 1, 1, 0, 0]),
    )];
    if plan.two_ctas {
        attrs.push(("two_ctas", ir::parse_attribute(ctx, "unit")?));
    }
    let mma = build(
        rewriter,
        "ttng.tc_gen5_mma",
        ir::location(dot),
        &[a, b, buffer, acc_token, yes, yes],
        &[token],
        &attrs,
    );
    finish(rewriter, op, buffer, mma, acc_ty)
}

/// The scales of a `tt.dot_scaled`, where it has both.
fn scales(dot: MlirOperation) -> Option<(MlirValue, MlirValue)> {
    let sizes = ir::attribute(dot, "operandSegmentSizes").and_then(ir::dense_i32_array)?;
    (sizes.get(3..5)? == [1, 1]).then(|| (ir::operand(dot, 3), ir::operand(dot, 4)))
}

/// `ScaleDotElemType` values (`tt.dot_scaled`'s element-type attributes).
const E4M3: i64 = 0;
const E5M2: i64 = 1;
const E2M1: i64 = 4;

/// A `tt.dot_scaled` element-type attribute's value.
fn elem_type(dot: MlirOperation, name: &str) -> Option<i64> {
    ir::attribute(dot, name).and_then(ir::integer_attr_value)
}

fn bool_attr(dot: MlirOperation, name: &str, default: bool) -> bool {
    ir::attribute(dot, name)
        .and_then(|a| tt_dialect::ir::bool_value(attr(a)))
        .unwrap_or(default)
}

/// A scale staged to tensor memory.
struct ScalePlan {
    /// `addSmemStageToScaleLoad`: the load behind the scale (through
    /// reshapes, transposes and conversions), the shared buffer type it is
    /// staged through, and whether the scale is the load itself.
    staged: Option<(MlirOperation, String, bool)>,
    memdesc: String,
    encoding: String,
}

fn plan_scale(scale: MlirValue, num_warps: i64) -> Result<ScalePlan, String> {
    let t = tensor(scale);
    let mut def = ir::defining_op(scale);
    let mut through = false;
    let staged = loop {
        let Some(op) = def else {
            break None;
        };
        if ir::is(op, "tt.load") || ir::is(op, "tt.descriptor_load") {
            let loaded = tensor(ir::result(op, 0));
            let cga = cga_of(loaded.layout.as_ref());
            let enc = with_cga(
                format!(
                    "#ttg.nvmma_shared<{{swizzlingByteWidth = 0, transposed = false, elementBitWidth = {}{}}}>",
                    bits(loaded.element),
                    if loaded.shape.len() == 2 {
                        String::new()
                    } else {
                        format!(", rank = {}", loaded.shape.len())
                    }
                ),
                &cga,
            );
            let memdesc = format!(
                "!ttg.memdesc<{}x{}, {enc}, #ttg.shared_memory>",
                dims_text(&loaded.shape),
                type_text(loaded.element)
            );
            break Some((op, memdesc, !through));
        }
        if ["tt.reshape", "tt.trans", "ttg.convert_layout"]
            .iter()
            .any(|n| ir::is(op, n))
        {
            through = true;
            def = ir::defining_op(ir::operand(op, 0));
        } else {
            break None;
        }
    };
    let enc = TmemEncoding::Scales {
        cta_split_m: 1,
        cta_split_n: 1,
    };
    let ll = tmem::preferred_access_layout(
        &enc,
        &t.shape,
        bits(t.element),
        num_warps as u32,
        &cga_of(t.layout.as_ref()),
    )?;
    Ok(ScalePlan {
        staged,
        memdesc: format!(
            "!ttg.memdesc<{}x{}, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>",
            dims_text(&t.shape),
            type_text(t.element)
        ),
        encoding: linear_layout_text(&ll),
    })
}

/// What `ScaledBlockedToMMAv5` does to one scaled dot.
struct ScaledV5Plan {
    a: SharedPlan,
    b: SharedPlan,
    acc: TmemAcc,
    scales: [ScalePlan; 2],
}

/// What `ScaledBlockedToMMAv5` would do to `dot`: `Ok(None)` where it
/// leaves the dot to the decomposition.
fn plan_scaled_v5(dot: MlirOperation, cc: u32) -> Result<Option<ScaledV5Plan>, String> {
    let d = tensor(ir::result(dot, 0));
    if d.layout.is_none() || matches!(d.layout, Some(Layout::NvidiaMma { .. })) {
        return Ok(None);
    }
    let Some((a_scale, b_scale)) = scales(dot) else {
        return Ok(None);
    };
    let num_warps = ir::module_int(dot, "ttg.num-warps").unwrap_or(4);
    let cga = cga_of(d.layout.as_ref());
    let per_cta = shape_per_cta(&d.shape, &cga);
    if !(100..120).contains(&cc)
        || (num_warps != 4 && num_warps != 8)
        || per_cta.len() != 2
        || per_cta[0] < 128
        || per_cta[1] < 16
    {
        return Ok(None);
    }
    if ir::module_int(dot, "ttg.num-ctas").unwrap_or(1) != 1 {
        return Err("tt.dot_scaled over more than one CTA (MMA v5)".into());
    }
    let (a_type, b_type) = (elem_type(dot, "a_elem_type"), elem_type(dot, "b_elem_type"));
    let (a_fp4, b_fp4) = (a_type == Some(E2M1), b_type == Some(E2M1));
    let mixed = a_type != b_type;
    let (lhs_k_pack, rhs_k_pack) = (
        bool_attr(dot, "lhs_k_pack", true),
        bool_attr(dot, "rhs_k_pack", true),
    );
    let a = v5_shared_operand(
        ir::operand(dot, 0),
        0,
        !a_fp4,
        (mixed && a_fp4) || !lhs_k_pack,
        !lhs_k_pack,
        None,
    )?;
    let b = v5_shared_operand(
        ir::operand(dot, 1),
        1,
        !b_fp4,
        (mixed && !a_fp4 && b_fp4) || !rhs_k_pack,
        !rhs_k_pack,
        None,
    )?;
    let acc = tmem_acc(&d, [128, per_cta[1].min(256)], &cga, false, num_warps)?;
    Ok(Some(ScaledV5Plan {
        a,
        b,
        acc,
        scales: [
            plan_scale(a_scale, num_warps)?,
            plan_scale(b_scale, num_warps)?,
        ],
    }))
}

/// Warns that an operand is stored to shared memory in another order than
/// its registers'.
fn warn_reordered(dot: MlirOperation, reordered: &Option<(Vec<u32>, u32)>) {
    if let Some((order, op_idx)) = reordered {
        // SAFETY: the location belongs to a live op of the module.
        let location = unsafe { melior::ir::Location::from_raw(ir::location(dot)) };
        tt_dialect::ir::emit_warning_with_notes(
            location,
            &format!(
                "Forcing a different order [{}, {}] on SMEM than the register order for operand {op_idx}: \
                 the registers are transposed before the shared-memory store and the operand's load is \
                 not pipelined; transposing the operand in global memory avoids this",
                order[0], order[1]
            ),
            &[],
        );
    }
}

/// `ScaledBlockedToMMAv5`.
fn scaled_to_mma_v5<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let dot = op.to_raw();
    let Some(cc) = ir::enclosing_module(dot).and_then(compute_capability) else {
        return false;
    };
    let Ok(Some(plan)) = plan_scaled_v5(dot, cc) else {
        return false;
    };
    warn_reordered(dot, &plan.a.reordered);
    warn_reordered(dot, &plan.b.reordered);
    rewrite_scaled_v5(op, rewriter, &plan).is_some()
}

/// `addSmemStageToScaleLoad`: the load's users read it back from a shared
/// buffer; the value the scale then is.
fn stage_scale<'c, 'a>(
    rewriter: &RewriterBase<'c, 'a>,
    dot: MlirOperation,
    scale: MlirValue,
    plan: &ScalePlan,
) -> Option<MlirValue> {
    let Some((load, memdesc, is_load)) = &plan.staged else {
        return Some(scale);
    };
    let loaded = ir::result(*load, 0);
    let memdesc = parse_type(dot, memdesc)?;
    rewriter.set_insertion_point_after_value(value(loaded));
    let alloc = build(
        rewriter,
        "ttg.local_alloc",
        ir::location(*load),
        &[loaded],
        &[memdesc],
        &[],
    );
    rewriter.set_insertion_point_after(op_ref(alloc));
    let local_load = build(
        rewriter,
        "ttg.local_load",
        ir::location(*load),
        &[ir::result(alloc, 0)],
        &[ir::value_type(loaded)],
        &[],
    );
    rewriter.replace_all_uses_except(
        value(loaded),
        value(ir::result(local_load, 0)),
        op_ref(alloc),
    );
    Some(if *is_load {
        ir::result(local_load, 0)
    } else {
        scale
    })
}

fn rewrite_scaled_v5<'c, 'a>(
    op: OperationRef<'c, 'a>,
    rewriter: &RewriterBase<'c, 'a>,
    plan: &ScaledV5Plan,
) -> Option<()> {
    let dot = op.to_raw();
    let ctx = ir::context(dot);
    let (a_scale, b_scale) = scales(dot)?;
    let encoding = ir::parse_attribute(ctx, &plan.acc.encoding)?;
    let acc_ty = ir::with_encoding(ir::value_type(ir::result(dot, 0)), encoding)?;
    let token = parse_type(dot, "!ttg.async.token")?;
    let a = alloc_shared(rewriter, dot, &plan.a)?;
    let b = alloc_shared(rewriter, dot, &plan.b)?;
    rewriter.set_insertion_point_before(op);
    let (buffer, acc_token) = alloc_acc(rewriter, dot, &plan.acc, acc_ty)?;
    let mut staged = Vec::new();
    for (scale, scale_plan) in [(a_scale, &plan.scales[0]), (b_scale, &plan.scales[1])] {
        staged.push(stage_scale(rewriter, dot, scale, scale_plan)?);
    }
    rewriter.set_insertion_point_before(op);
    let mut converted = Vec::new();
    for (scale, scale_plan) in staged.iter().zip(&plan.scales) {
        let encoding = ir::parse_attribute(ctx, &scale_plan.encoding)?;
        let to = ir::with_encoding(ir::value_type(*scale), encoding)?;
        let cvt = build(
            rewriter,
            "ttg.convert_layout",
            ir::location(dot),
            &[*scale],
            &[to],
            &[],
        );
        converted.push(ir::result(cvt, 0));
    }
    let mut buffers = Vec::new();
    for (cvt, scale_plan) in converted.iter().zip(&plan.scales) {
        let memdesc = parse_type(dot, &scale_plan.memdesc)?;
        let alloc = build(
            rewriter,
            "ttng.tmem_alloc",
            ir::location(dot),
            &[*cvt],
            &[memdesc],
            &[],
        );
        buffers.push(ir::result(alloc, 0));
    }
    let yes = constant_true(rewriter, dot);
    let attrs = [
        (
            "operandSegmentSizes",
            ir::dense_i32_array_attr(ctx, &[1, 1, 1, 1, 1, 1, 1, 1, 0, 0]),
        ),
        ("a_type", ir::attribute(dot, "a_elem_type")?),
        ("b_type", ir::attribute(dot, "b_elem_type")?),
    ];
    let mma = build(
        rewriter,
        "ttng.tc_gen5_mma_scaled",
        ir::location(dot),
        &[a, b, buffer, acc_token, buffers[0], buffers[1], yes, yes],
        &[token],
        &attrs,
    );
    finish(rewriter, op, buffer, mma, acc_ty)
}

/// What `ScaledBlockedToMMA` (sm_120) does to one scaled dot: the MMA v2
/// layout, the operands' kWidth and the scales' layouts.
struct Sm120Plan {
    mma: Layout,
    k_width: u32,
    scale_layouts: [String; 2],
}

/// `getSM120DotScaledScaleLayout`: the layout of a scale of shape
/// `[M or N, K / group]` for operand `op_idx` of an MMA v2 dot with
/// `warps` per CTA: the scales of a row in one thread's registers, rows
/// over lanes (operand A's lane 1 on row 8, the lanes of a quad
/// broadcast), warps along M or N, broadcast along K.
fn sm120_scale_layout(
    shape: &[i64],
    op_idx: u32,
    warps: &[u32],
    cga: &[Vec<i64>],
) -> Result<LinearLayout, String> {
    const DIMS: [&str; 2] = ["dim0", "dim1"];
    let lanes: Vec<Vec<i32>> = if op_idx == 0 {
        vec![vec![8, 0], vec![0, 0], vec![1, 0], vec![2, 0], vec![4, 0]]
    } else {
        vec![vec![0, 0], vec![0, 0], vec![1, 0], vec![2, 0], vec![4, 0]]
    };
    // Warps along the operand's M or N, in the order of the MMA's warps
    // (N fastest for A, M fastest for B), broadcast along K.
    let (order, along) = if op_idx == 0 {
        ([1usize, 0], [warps[0], warps[1]])
    } else {
        ([0usize, 1], [warps[1], warps[0]])
    };
    let mut warp_layout = LinearLayout::empty();
    for d in order {
        let size = along[d] as i32;
        warp_layout *= if d == 1 {
            LinearLayout::zeros_1d(size, "warp", DIMS[d])
        } else {
            LinearLayout::identity_1d(size, "warp", DIMS[d])
        };
    }
    if shape.len() != 2 || shape[1] < 1 || (shape[1] & (shape[1] - 1)) != 0 {
        return Err(format!("an sm_120 scale of shape {}", dims_text(shape)));
    }
    let cta = LinearLayout::identity_1d(shape[1] as i32, "register", DIMS[1])
        .try_mul(&LinearLayout::from_bases(
            vec![("lane".into(), lanes)],
            &DIMS,
        )?)?
        .try_mul(&warp_layout.transpose_outs(&DIMS)?)?
        .transpose_outs(&DIMS)?;
    ttg_dialect::to_linear::combine_cta_cga_with_shape(cta, cga, shape)
}

/// What `ScaledBlockedToMMA` would do to `dot` on sm_120: `Ok(None)` where
/// it leaves the dot to the decomposition.
fn plan_scaled_sm120(dot: MlirOperation, cc: u32) -> Result<Option<Sm120Plan>, String> {
    if cc != 120 || ir::module_int(dot, "ttg.num-ctas").unwrap_or(1) != 1 {
        return Ok(None);
    }
    let Some((a_scale, b_scale)) = scales(dot) else {
        return Ok(None);
    };
    let (sa, sb) = (tensor(a_scale), tensor(b_scale));
    if matches!(sa.layout, Some(Layout::Linear { .. }))
        || matches!(sb.layout, Some(Layout::Linear { .. }))
    {
        return Ok(None);
    }
    let (a_type, b_type) = (elem_type(dot, "a_elem_type"), elem_type(dot, "b_elem_type"));
    let fp8 = |t: Option<i64>| t == Some(E4M3) || t == Some(E5M2);
    let fp4 = |t: Option<i64>| t == Some(E2M1);
    if (fp8(a_type) && fp4(b_type)) || (fp4(a_type) && fp8(b_type)) {
        return Ok(None);
    }
    if !ir::same_type(sa.element, sb.element) {
        return Ok(None);
    }
    let d = tensor(ir::result(dot, 0));
    if !matches!(d.layout, Some(Layout::Blocked { ref cga, .. }) if cga.is_empty()) {
        return Err(
            "an sm_120 tt.dot_scaled whose result layout is not a blocked layout of one CTA".into(),
        );
    }
    let Some(num_warps) = ir::module_int(dot, "ttg.num-warps") else {
        return Err("a tt.dot_scaled in a module without 'ttg.num-warps'".into());
    };
    let warps = warps_v2(dot, &d.shape, num_warps);
    let instr = instr_shape(2, &d.shape, tensor(ir::operand(dot, 0)).element, num_warps)?;
    let mma = Layout::nvidia_mma(2, &warps, &instr);
    let min_bits =
        bits(tensor(ir::operand(dot, 0)).element).min(bits(tensor(ir::operand(dot, 1)).element));
    let mut scale_layouts = Vec::new();
    for (idx, s) in [&sa, &sb].into_iter().enumerate() {
        if !matches!(s.layout, Some(Layout::Blocked { .. })) {
            return Err("an sm_120 scale held in a layout other than blocked".into());
        }
        let ll = sm120_scale_layout(&s.shape, idx as u32, &warps, &cga_of(s.layout.as_ref()))?;
        scale_layouts.push(linear_layout_text(&ll));
    }
    let [a_layout, b_layout]: [String; 2] = scale_layouts
        .try_into()
        .map_err(|_| "two scale layouts".to_string())?;
    Ok(Some(Sm120Plan {
        mma,
        k_width: if min_bits > 0 { k_width(min_bits) } else { 1 },
        scale_layouts: [a_layout, b_layout],
    }))
}

/// `ScaledBlockedToMMA` (sm_120): a scaled MMA v2 dot whose scales stay in
/// registers.
fn scaled_to_mma_sm120<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &RewriterBase<'c, 'a>) -> bool {
    let dot = op.to_raw();
    let Some(cc) = ir::enclosing_module(dot).and_then(compute_capability) else {
        return false;
    };
    let Ok(Some(plan)) = plan_scaled_sm120(dot, cc) else {
        return false;
    };
    rewrite_scaled_sm120(op, rewriter, &plan).is_some()
}

fn rewrite_scaled_sm120<'c, 'a>(
    op: OperationRef<'c, 'a>,
    rewriter: &RewriterBase<'c, 'a>,
    plan: &Sm120Plan,
) -> Option<()> {
    let dot = op.to_raw();
    let ctx = ir::context(dot);
    let (a_scale, b_scale) = scales(dot)?;
    let d = tensor(ir::result(dot, 0));
    let new_ty = tensor_type(dot, &d.shape, d.element, &plan.mma)?;
    rewriter.set_insertion_point_before(op);
    let acc = convert(rewriter, ir::operand(dot, 2), new_ty);
    let mut operands = Vec::new();
    for idx in 0..2 {
        let v = ir::operand(dot, idx);
        let to = dot_operand_type(dot, v, idx as u32, plan.k_width, &plan.mma)?;
        operands.push(convert(rewriter, v, to));
    }
    operands.push(acc);
    for (scale, layout) in [
        (a_scale, &plan.scale_layouts[0]),
        (b_scale, &plan.scale_layouts[1]),
    ] {
        let encoding = ir::parse_attribute(ctx, layout)?;
        let to = ir::with_encoding(ir::value_type(scale), encoding)?;
        operands.push(convert(rewriter, scale, to));
    }
    let mut attrs: Vec<(&str, mlir_sys::MlirAttribute)> = Vec::new();
    for name in [
        "a_elem_type",
        "b_elem_type",
        "fastMath",
        "lhs_k_pack",
        "rhs_k_pack",
    ] {
        if let Some(a) = ir::attribute(dot, name) {
            attrs.push((name, a));
        }
    }
    attrs.push((
        "operandSegmentSizes",
        ir::dense_i32_array_attr(ctx, &[1, 1, 1, 1, 1]),
    ));
    let new_dot = build(
        rewriter,
        "tt.dot_scaled",
        ir::location(dot),
        &operands,
        &[new_ty],
        &attrs,
    );
    let back = build(
        rewriter,
        "ttg.convert_layout",
        ir::location(dot),
        &[ir::result(new_dot, 0)],
        &[ir::value_type(ir::result(dot, 0))],
        &[],
    );
    rewriter.replace_op_with_operation(op, op_ref(back));
    Some(())
}
