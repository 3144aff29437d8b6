//! `tt.dot`, by the layout of its result:
//!
//! * blocked: on CUDA cores, the FMA fallback that
//!   `tritongpu-accelerate-matmul` leaves where no MMA instruction serves
//!   (`f32` with `input_precision = "ieee"`, shapes below an MMA tile, ...),
//!   with operands in `#ttg.dot_op`s of the result's layout;
//! * `#ttg.nvidia_mma` version 2: `mma.sync` (what sm_80 uses, and sm_90
//!   where `wgmma` does not apply: small or batched dots), for f16 and bf16
//!   (m16n8k16), tf32 (m16n8k8) and int8 (m16n8k32) into f32 / i32, f16
//!   into f16, fp8 (e4m3 / e5m2, mixed too; sm_89 on: m16n8k32) into f32
//!   or f16, and f64 (one element per register: sm_90's m16n8k16, and
//!   before sm_90 two m8n8k4 per 16x8 tile, its upper and lower rows).
//!
//! FMA: in those layouts a thread holds, for each of its result elements
//! `(m, n)`, the whole row `m` of A and column `n` of B along K in its
//! registers: lanes and warps move M in A and the result alike, N in B and
//! the result alike, and never K. Each result register then accumulates
//! `fma(a[m][k], b[k][n], acc)` for `k` upwards from the accumulator
//! operand, as Triton's FMA lowering does (integers: multiply, then add).
//! The registers are matched through their coordinates at lane and warp 0.
//!
//! `mma.sync`: each instruction computes a 16x8 tile of the result over a
//! K step of the instruction, its operands packed into 32-bit registers
//! (two f16 / bf16, four int8, one tf32). The dot-operand layouts give
//! each lane exactly the fragment elements the instruction expects of it;
//! the lowering checks that (lane bases against the instruction's thread
//! pattern, warps moving M and N as the result's) and refuses otherwise,
//! then picks, for every 16x8 tile of the thread's result registers and
//! every K step, the operand registers at the fragment's coordinates.
//! The tiles' K steps chain through the accumulator, K upwards. Version 3
//! results come from `ttng.warp_group_dot` (see `wgmma`).

use std::collections::HashMap;

use melior::ir::{r#type::TypeLike, OperationRef, Value, ValueLike};
use tt_dialect::{ir as ttir, types::TensorView};
use ttg_dialect::layout::Layout;

use super::{layout::Distributed, Emitter, LowerResult, Lowering};

pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let operand = |i: usize| ttir::operand(op, i).ok_or_else(|| format!("missing operand {i}"));
    let (a, b, c) = (operand(0)?, operand(1)?, operand(2)?);
    let d: Value = op.result(0).map_err(|_| "missing result")?.into();
    match TensorView::of(d.r#type())
        .and_then(|t| t.encoding)
        .and_then(Layout::read)
    {
        Some(Layout::Blocked { .. }) => {}
        Some(Layout::NvidiaMma {
            version_major: 2, ..
        }) => {
            // The module's `ttg.target` counts too: the pass option keeps
            // Triton's default (sm_80) when a test names no capability.
            let cc = lw
                .options
                .compute_capability
                .max(crate::allocation::compute_capability(op.to_raw()));
            return mma_v2(lw, emit, [a, b, c], d, cc);
        }
        _ => return Err("'tt.dot' with this result layout is not supported yet".into()),
    }
    let (da, db, dd) = (
        lw.distributed(a.r#type())?,
        lw.distributed(b.r#type())?,
        lw.distributed(d.r#type())?,
    );
    let rank = dd.rank();
    // M and N in the result; K is the last dimension of A, the one before
    // it in B.
    let (m, n) = (rank - 2, rank - 1);
    let threads = ["lane", "warp"];
    if !bases_agree(&da, &dd, &threads, m, n) || !bases_agree(&db, &dd, &threads, n, m) {
        return Err(
            "'tt.dot' whose operand layouts spread K over threads is not supported yet".into(),
        );
    }
    let result_type = lw.element_type(d.r#type());
    let integer = result_type.is_integer();
    for v in [a, b] {
        let element = lw.element_type(v.r#type());
        if element != result_type {
            return Err(format!(
                "'tt.dot' on CUDA cores with {element} operands and a {result_type} result is not supported yet"
            ));
        }
    }
    let (va, vb, vc) = (lw.get(a)?, lw.get(b)?, lw.get(c)?);
    // The register of each coordinate (the first, where registers repeat).
    let (ia, ib) = (register_index(&da), register_index(&db));
    let depth = da.shape[n];
    let mut out = Vec::with_capacity(dd.len());
    for (t, coordinates) in dd.registers.iter().enumerate() {
        let mut acc = vc[t];
        for kk in 0..depth as i32 {
            let mut at_a = coordinates.clone();
            at_a[n] = kk;
            let mut at_b = coordinates.clone();
            at_b[m] = kk;
            let (Some(&ra), Some(&rb)) = (ia.get(&at_a), ib.get(&at_b)) else {
                return Err("'tt.dot' whose operands do not hold the result's rows and columns is not supported yet".into());
            };
            acc = if integer {
                let product = emit.value("llvm.mul", &[va[ra], vb[rb]], result_type, &[]);
                emit.value("llvm.add", &[product, acc], result_type, &[])
            } else {
                emit.value(
                    "llvm.intr.fmuladd",
                    &[va[ra], vb[rb], acc],
                    result_type,
                    &[],
                )
            };
        }
        out.push(acc);
    }
    lw.set(d, out);
    Ok(())
}

/// Whether the input dimensions `in_dims` (lanes, warps) move `operand`'s
/// batch dimensions and its dimension `shared` (M of A, N of B) as they
/// move `result`'s, and never its other dimension (K, which sits at the
/// index of the result's other dimension `reduced`): then a thread's
/// operand registers hold what its result registers need.
pub(super) fn bases_agree(
    operand: &Distributed,
    result: &Distributed,
    in_dims: &[&str],
    shared: usize,
    reduced: usize,
) -> bool {
    in_dims.iter().all(|in_dim| {
        let (o, r) = (operand.layout.bases(in_dim), result.layout.bases(in_dim));
        o.len() == r.len()
            && o.iter().zip(r).all(|(ob, rb)| {
                ob[reduced] == 0
                    && (0..result.rank() - 2)
                        .chain([shared])
                        .all(|dim| ob[dim] == rb[dim])
            })
    })
}

/// An `mma.sync` shape and types: PTX type suffix, K of one instruction,
/// operand elements per 32-bit register.
struct Instruction {
    ptx: String,
    k: i32,
    per_register: i32,
    integer: bool,
    /// The accumulator in two f16x2 registers instead of four scalars.
    half_accumulator: bool,
    /// Registers of A and of B per instruction (f64 takes one element
    /// each, so more of them).
    a_registers: i32,
    b_registers: i32,
    /// Rows of the result per instruction: 16, or 8 (`m8n8k4`, two per
    /// 16x8 tile).
    rows: i32,
    /// Operands and accumulator of 64 bits (f64).
    wide: bool,
}

/// The PTX name of an 8-bit float type `mma.sync` takes (sm_89 on).
fn fp8_name(ty: &str) -> Option<&'static str> {
    match ty {
        "f8E4M3FN" => Some("e4m3"),
        "f8E5M2" => Some("e5m2"),
        _ => None,
    }
}

/// The instruction for operands of MLIR element types `a` and `b` and a
/// result of type `d`, on sm_`cc`.
fn instruction(a: &str, b: &str, d: &str, cc: u32) -> Option<Instruction> {
    if let (Some(fa), Some(fb), "f32" | "f16") = (fp8_name(a), fp8_name(b), d) {
        return Some(Instruction {
            ptx: format!("m16n8k32.row.col.{d}.{fa}.{fb}.{d}"),
            k: 32,
            per_register: 4,
            integer: false,
            half_accumulator: d == "f16",
            a_registers: 4,
            b_registers: 2,
            rows: 16,
            wide: false,
        });
    }
    if (a, b, d) == ("f64", "f64", "f64") && cc < 90 {
        // sm_80's f64 shape: an 8x8 result over K = 4, one element of A
        // and of B per lane.
        return Some(Instruction {
            ptx: "m8n8k4.row.col.f64.f64.f64.f64".to_owned(),
            k: 4,
            per_register: 1,
            integer: false,
            half_accumulator: false,
            a_registers: 1,
            b_registers: 1,
            rows: 8,
            wide: true,
        });
    }
    let (ptx, k, per_register, integer) = match (a, b, d) {
        ("f16", "f16", "f32") => ("m16n8k16.row.col.f32.f16.f16.f32", 16, 2, false),
        ("bf16", "bf16", "f32") => ("m16n8k16.row.col.f32.bf16.bf16.f32", 16, 2, false),
        ("f32", "f32", "f32") => ("m16n8k8.row.col.f32.tf32.tf32.f32", 8, 1, false),
        ("i8", "i8", "i32") => ("m16n8k32.row.col.satfinite.s32.s8.s8.s32", 32, 4, true),
        ("f16", "f16", "f16") => ("m16n8k16.row.col.f16.f16.f16.f16", 16, 2, false),
        // sm_90's f64 shape: one element per 64-bit register.
        ("f64", "f64", "f64") => ("m16n8k16.row.col.f64.f64.f64.f64", 16, 1, false),
        _ => return None,
    };
    let wide = d == "f64";
    Some(Instruction {
        ptx: ptx.to_owned(),
        k,
        per_register,
        integer,
        half_accumulator: d == "f16",
        a_registers: if wide { 8 } else { 4 },
        b_registers: if wide { 4 } else { 2 },
        rows: 16,
        wide,
    })
}

/// `tt.dot` with an `#ttg.nvidia_mma` version 2 result: `mma.sync`.
fn mma_v2<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    [a, b, c]: [Value<'c, 'a>; 3],
    d: Value<'c, 'a>,
    cc: u32,
) -> LowerResult {
    let [ta, tb, td] = [a, b, d].map(|v| lw.element_type(v.r#type()));
    // The tensors' own element types: f8 types are i8 in LLVM.
    let [na, nb, nd] = [a, b, d]
        .map(|v| TensorView::of(v.r#type()).map_or_else(String::new, |t| t.element.to_string()));
    let Some(inst) = instruction(&na, &nb, &nd, cc) else {
        return Err(format!(
            "'tt.dot' with mma.sync on {na} x {nb} -> {nd} is not supported yet"
        ));
    };
    if inst.wide && cc < 80 {
        return Err(format!(
            "'tt.dot' on f64 with mma.sync needs sm_80 or later (this target is sm_{cc})"
        ));
    }
    if fp8_name(&na).is_some() && cc < 89 {
        return Err(format!(
            "'tt.dot' with mma.sync on {na} x {nb} needs sm_89 or later (this target is sm_{cc})"
        ));
    }
    let (da, db, dd) = (
        lw.distributed(a.r#type())?,
        lw.distributed(b.r#type())?,
        lw.distributed(d.r#type())?,
    );
    let rank = dd.rank();
    let (row, col) = (rank - 2, rank - 1);
    let p = inst.per_register;
    // Each lane holds `width` consecutive K elements of a K step: `p` (the
    // instruction's own fragment), or a power-of-two multiple of it
    // (operands upcast from 8 bits, or a layout's larger kWidth: A and B
    // then hold the same permutation of K, which the sum over K does not
    // see).
    let k_width = |v: Value<'c, 'a>| match TensorView::of(v.r#type())
        .and_then(|t| t.encoding)
        .and_then(Layout::read)
    {
        Some(Layout::DotOperand { k_width, .. }) => k_width as i32,
        _ => 0,
    };
    let width = k_width(a);
    // `width = 2^j p` (j >= 1): each lane's K elements feed `2^(j-1)`
    // instructions, `2 p` at a time.
    let permuted = width > p && width % (2 * p) == 0 && (width / p).count_ones() == 1;
    if k_width(b) != width || !(width == p || permuted && !inst.wide) {
        return Err(format!(
            "'tt.dot' with mma.sync operands of kWidth {width} and {} is not supported yet",
            k_width(b)
        ));
    }
    // Lanes step K in A and B (N in the result) by the elements of one
    // register; where a tensor is smaller than the instruction's tile, the
    // instruction computes copies.
    if !holds_fragment(&da, col, row, width)
        || !holds_fragment(&db, row, col, width)
        || !holds_fragment(&dd, col, row, 2)
        || !bases_agree(&da, &dd, &["warp"], row, col)
        || !bases_agree(&db, &dd, &["warp"], col, row)
    {
        return Err("'tt.dot' whose operand layouts do not give each lane its mma.sync fragment is not supported yet".into());
    }
    let (ia, ib, id) = (
        register_index(&da),
        register_index(&db),
        register_index(&dd),
    );
    let (va, vb, vc) = (lw.get(a)?, lw.get(b)?, lw.get(c)?);
    let i32t = emit.i32_type();
    let missing = || {
        "'tt.dot' whose registers do not cover its mma.sync tiles is not supported yet".to_owned()
    };
    // One operand register (32 bits, or one f64): `p` elements from `at`
    // on along `dim`.
    let pack = |values: &[Value<'c, 'a>],
                map: &HashMap<Vec<i32>, usize>,
                shape: &[i64],
                element,
                at: &[i32],
                dim: usize| {
        let mut elements = Vec::with_capacity(p as usize);
        for e in 0..p {
            let mut coordinates = at.to_vec();
            coordinates[dim] += e;
            let coordinates = wrap(coordinates, shape);
            elements.push(values[*map.get(&coordinates).ok_or_else(missing)?]);
        }
        Ok::<_, String>(if inst.wide {
            elements[0]
        } else {
            emit.pack_word(&elements, element)
        })
    };
    let depth = da.shape[col] as i32;
    if depth % inst.k != 0 {
        return Err(format!(
            "'tt.dot' with K = {depth}, not a multiple of mma.sync's {}, is not supported yet",
            inst.k
        ));
    }
    let mut out: Vec<Value<'c, 'a>> = vc.clone();
    let mut covered = vec![false; dd.len()];
    let (constraints, asm, struct_type) = if inst.half_accumulator {
        (
            "=r,=r,0,1,r,r,r,r,r,r".to_owned(),
            format!(
                "mma.sync.aligned.{} {{ $0, $1 }}, {{ $4, $5, $6, $7 }}, {{ $8, $9 }}, {{ $2, $3 }};",
                inst.ptx
            ),
            emit.struct_type(&[i32t; 2]),
        )
    } else {
        let (acc, operand) = match td.to_string().as_str() {
            "f64" => ("d", "d"),
            _ if inst.integer => ("r", "r"),
            _ => ("f", "r"),
        };
        let count = (inst.a_registers + inst.b_registers) as usize;
        let list = |from: i32, n: i32| {
            (from..from + n)
                .map(|i| format!("${i}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        // Four accumulator values per instruction, two for `m8n8k4`; the
        // outputs first, then the tied inputs, then A's and B's registers.
        let outs = 4 * inst.rows / 16;
        let tied: Vec<String> = (0..outs).map(|i| i.to_string()).collect();
        (
            format!(
                "{},{},{}",
                vec![format!("={acc}"); outs as usize].join(","),
                tied.join(","),
                vec![operand; count].join(",")
            ),
            format!(
                "mma.sync.aligned.{} {{ {} }}, {{ {} }}, {{ {} }}, {{ {} }};",
                inst.ptx,
                list(0, outs),
                list(2 * outs, inst.a_registers),
                list(2 * outs + inst.a_registers, inst.b_registers),
                list(outs, outs)
            ),
            emit.struct_type(&vec![td; outs as usize]),
        )
    };
    for (t, base) in dd.registers.iter().enumerate() {
        if base[row] % 16 != 0 || base[col] % 8 != 0 || id.get(base) != Some(&t) {
            continue;
        }
        // The tile's result registers: (0, 0), (0, 1), (8, 0), (8, 1).
        let mut tile = Vec::with_capacity(4);
        for (dr, dc) in [(0, 0), (0, 1), (8, 0), (8, 1)] {
            let mut at = base.clone();
            at[row] += dr;
            at[col] += dc;
            tile.push(*id.get(&wrap(at, &dd.shape)).ok_or_else(missing)?);
        }
        let mut acc: Vec<Value<'c, 'a>> = tile.iter().map(|&r| out[r]).collect();
        // A's registers step along M by 8 and along K by `a_step`; B's
        // along K by `b_step` (by `p` within a lane's `width` elements).
        let (a_step, b_step) = if width == p {
            (inst.k * 2 / inst.a_registers, inst.k / inst.b_registers)
        } else {
            (p, p)
        };
        // Where a lane holds `width = m p` consecutive K elements (operands
        // upcast from narrower types, A and B alike), the layout's K tile
        // (four lanes of them) feeds `m / 2` instructions, each taking
        // `2 p` of every lane's elements: a permutation of K that A and B
        // share, which the sum over K does not see.
        let k_origin = |k0: i32| {
            if width == p {
                return k0;
            }
            let per_tile = width / p / 2;
            let n = k0 / inst.k;
            (n / per_tile) * 4 * width + (n % per_tile) * 2 * p
        };
        // `m8n8k4` takes the tile's upper and lower 8 rows in turn.
        let halves = 16 / inst.rows;
        let per = acc.len() / halves as usize;
        for k0 in (0..depth).step_by(inst.k as usize) {
            for h in 0..halves {
                let part = h as usize * per..(h as usize + 1) * per;
                let mut operands = if inst.half_accumulator {
                    // (0, 0) and (0, 1) in one register, (8, 0) and (8, 1)
                    // in the other.
                    acc[part.clone()]
                        .chunks(2)
                        .map(|pair| emit.pack_word(pair, td))
                        .collect()
                } else {
                    acc[part.clone()].to_vec()
                };
                for i in 0..inst.a_registers {
                    let mut at = base.clone();
                    at[row] += 8 * (i % 2) + 8 * h;
                    at[col] = k_origin(k0) + a_step * (i / 2);
                    operands.push(pack(&va, &ia, &da.shape, ta, &at, col)?);
                }
                for i in 0..inst.b_registers {
                    let mut at = base.clone();
                    at[row] = k_origin(k0) + b_step * i;
                    operands.push(pack(&vb, &ib, &db.shape, tb, &at, row)?);
                }
                let result = emit
                    .inline_asm(&asm, &constraints, &operands, Some(struct_type))
                    .expect("a result");
                let values: Vec<Value<'c, 'a>> = if inst.half_accumulator {
                    (0..2)
                        .flat_map(|i| emit.unpack_word(emit.extract(result, i, i32t), 2, td))
                        .collect()
                } else {
                    (0..per as i64)
                        .map(|i| emit.extract(result, i, td))
                        .collect()
                };
                acc.splice(part, values);
            }
        }
        for (&r, v) in tile.iter().zip(acc) {
            out[r] = v;
            covered[r] = true;
        }
    }
    // Registers that repeat an element take the value of its first register.
    for (t, coordinates) in dd.registers.iter().enumerate() {
        let first = id[coordinates];
        if !covered[first] {
            return Err(missing());
        }
        if first != t {
            out[t] = out[first];
        }
    }
    lw.set(d, out);
    Ok(())
}

/// Whether `dist`'s lanes hold an MMA fragment (`mma.sync`, `wgmma`,
/// `ldmatrix`): lane bits 0-1 step `inner` (K of an operand, N of a result)
/// by `step` and `2 step`, bits 2-4 step `outer` by 1, 2 and 4. Where the
/// tensor is smaller than the instruction's tile its layout wraps: the
/// steps past its extent are 0.
pub(super) fn holds_fragment(dist: &Distributed, inner: usize, outer: usize, step: i32) -> bool {
    let basis = |dim: usize, v: i32| {
        let mut b = vec![0; dist.rank()];
        b[dim] = if i64::from(v) < dist.shape[dim] { v } else { 0 };
        b
    };
    let expected = [
        basis(inner, step),
        basis(inner, 2 * step),
        basis(outer, 1),
        basis(outer, 2),
        basis(outer, 4),
    ];
    dist.layout.bases("lane") == expected.as_slice()
}

/// `at` inside `shape` (powers of two), where a layout smaller than an
/// instruction's tile wraps around.
fn wrap(mut at: Vec<i32>, shape: &[i64]) -> Vec<i32> {
    for (c, &s) in at.iter_mut().zip(shape) {
        *c %= s as i32;
    }
    at
}

/// The register holding each coordinate (at lane and warp 0) of `dist`:
/// the first one, where registers repeat an element.
pub(super) fn register_index(dist: &Distributed) -> HashMap<Vec<i32>, usize> {
    let mut map = HashMap::new();
    for (r, coordinates) in dist.registers.iter().enumerate() {
        map.entry(coordinates.clone()).or_insert(r);
    }
    map
}
