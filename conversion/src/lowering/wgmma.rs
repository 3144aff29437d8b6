//! Hopper's warp-group MMA: `ttng.warp_group_dot` to `nvg.wgmma` ops and
//! `ttng.warp_group_dot_wait` to `nvg.wgmma_wait_group`, as Triton leaves
//! them (`convert-nv-gpu-to-llvm` turns them into `wgmma.mma_async` and
//! `wgmma.wait_group`), and `ttng.fence_async_shared` to
//! `fence.proxy.async`.
//!
//! A `#ttg.nvidia_mma` version 3 result is computed by warp groups (four
//! consecutive warps), each instruction a 64 x N tile (N = the layout's
//! `instrShape[1]`) over a K step of 32 bytes of operand. Both operands
//! come from shared memory in NVMMA layouts, read by the tensor cores
//! through 64-bit matrix descriptors: the start address (>> 4), the
//! leading-dimension byte offset (between column blocks of an operand
//! whose contiguous dimension is M or N; unused when it is K), the
//! stride-dimension byte offset (between groups of eight rows: eight
//! swizzle rows) and the swizzle mode. A K step moves the start address
//! within a swizzle row (K-major) or by whole rows (M/N-major), which
//! the hardware's address-based swizzle supports without a base offset.
//! Operands in other layouts (Gluon's shared linear layouts) are read
//! without swizzle where their view is core matrices of eight 16-byte
//! rows at two strides, checked element by element for every tile an
//! instruction reads.
//!
//! Each thread's accumulator registers are matched to the instruction's
//! fragment (lane `l`: row `l / 4` (+ 8), columns `2 (l % 4)` (+ 1, + 8k))
//! through the result layout's coordinates, after checking that lanes and
//! warps move as the instruction requires; anything else is refused.
//! The instructions run asynchronously: a `wgmma.fence` before them, one
//! commit group after, and a wait (at once unless the op is `isAsync`,
//! else at the `warp_group_dot_wait`) whose registers, packed into one
//! struct, keep every use of the results after it. fp8 dots whose
//! `maxNumImpreciseAcc` is at most K add each group of partial products
//! into the accumulator in f32, as Triton does. Operand A may also come
//! from registers, in the instruction's fragment layout.

use std::collections::HashMap;

use melior::ir::{
    operation::{OperationLike, OperationRef},
    Type, Value, ValueLike,
};
use tt_dialect::{ir as ttir, types::TensorView};
use ttg_dialect::layout::{Layout, MemDesc, Nvmma};

use super::{memory::OffsetMap, Distributed, Emitter, LowerResult, Lowering};

/// `ttng.fence_async_shared`: later async-proxy accesses (wgmma, TMA) see
/// earlier generic-proxy writes to shared memory.
pub fn fence_async_shared<'c, 'a>(
    _lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let cluster = ttir::inherent_attribute(op, "bCluster")
        .and_then(ttir::bool_value)
        .unwrap_or(false);
    let scope = if cluster { "cluster" } else { "cta" };
    emit.inline_asm(
        &format!("fence.proxy.async.shared::{scope};"),
        "",
        &[],
        None,
    );
    Ok(())
}

/// The wgmma instruction for the operand and result element types: its
/// PTX types, K per instruction, whether it takes transpose immediates,
/// and the largest N.
struct Instruction {
    types: String,
    k: i64,
    transposes: bool,
    max_n: i64,
}

fn instruction(a: &str, b: &str, d: &str, tf32: bool) -> Option<Instruction> {
    let fp8 = |t: &str| match t {
        "f8E4M3FN" => Some("e4m3"),
        "f8E5M2" => Some("e5m2"),
        _ => None,
    };
    let float = |types: String, k| Instruction {
        types,
        k,
        transposes: false,
        max_n: 256,
    };
    Some(match (a, b, d) {
        ("f16", "f16", "f32" | "f16") => Instruction {
            transposes: true,
            ..float(format!("{d}.f16.f16"), 16)
        },
        ("bf16", "bf16", "f32") => Instruction {
            transposes: true,
            ..float("f32.bf16.bf16".into(), 16)
        },
        ("f32", "f32", "f32") if tf32 => float("f32.tf32.tf32".into(), 8),
        ("i8", "i8", "i32") => Instruction {
            types: "s32.s8.s8".into(),
            k: 32,
            transposes: false,
            max_n: 224,
        },
        _ => {
            let (fa, fb) = (fp8(a)?, fp8(b)?);
            if d != "f32" && d != "f16" {
                return None;
            }
            float(format!("{d}.{fa}.{fb}"), 32)
        }
    })
}

/// How an operand's elements are placed in shared memory, as its
/// descriptor's swizzle mode describes them.
enum Placement {
    /// An NVMMA layout swizzled over rows of 32, 64 or 128 bytes.
    Swizzled(Nvmma),
    /// No swizzle: core matrices of eight 16-byte rows, 128 contiguous
    /// bytes each, one stride apart along the rows and another along the
    /// columns; the view's offsets (`offsets`) are checked to place every
    /// element an instruction reads that way ([`Operand::check_tiles`]).
    Interleaved {
        offsets: OffsetMap,
        /// Elements between core matrices eight rows apart.
        row_stride: i64,
        /// Elements between core matrices 16 bytes of columns apart.
        column_stride: i64,
    },
}

/// One operand's shared memory as wgmma reads it.
struct Operand {
    placement: Placement,
    /// Bytes per element.
    bytes: i64,
    /// The operand's M (A) or N (B) dimension in its view: 0 for A, 1 for
    /// B; K is the other.
    outer_dim: usize,
    /// Whether K is the contiguous dimension.
    k_major: bool,
    /// The descriptor's constant bits: offsets and swizzle mode.
    constant: i64,
}

impl Operand {
    /// The operand viewed by `desc`, its M (A) or N (B) dimension
    /// `outer_dim`, one instruction covering `extent` of it.
    fn new(desc: &MemDesc, outer_dim: usize, extent: i64) -> Result<Self, String> {
        if desc.shape.len() != 2 {
            return Err("wgmma operands of other than two dimensions are not supported yet".into());
        }
        if let Ok(layout) = Nvmma::of(desc) {
            return Self::swizzled(layout, outer_dim, extent);
        }
        Self::interleaved(desc, outer_dim)
    }

    fn swizzled(layout: Nvmma, outer_dim: usize, extent: i64) -> Result<Self, String> {
        let bytes = layout.element_bits / 8;
        let mode = match layout.swizzle {
            128 => 1i64,
            64 => 2,
            32 => 3,
            s => {
                return Err(format!(
                    "wgmma with a {s}-byte swizzle is not supported yet"
                ))
            }
        };
        // The leading offset steps from one column block to the next,
        // which only an M/N-major tile wider than a block crosses; it is 0
        // otherwise, as Triton leaves it.
        let k_major = layout.inner != outer_dim;
        let leading = if k_major || extent <= layout.row_elements {
            0
        } else {
            (layout.block_elements() * bytes) >> 4
        };
        let stride = (8 * layout.swizzle) >> 4;
        if leading >= 1 << 14 {
            return Err("a wgmma operand this large is not supported yet".into());
        }
        Ok(Operand {
            placement: Placement::Swizzled(layout),
            bytes,
            outer_dim,
            k_major,
            constant: mode << 62 | stride << 32 | leading << 16,
        })
    }

    /// An operand in any other layout whose view is laid out in core
    /// matrices (a shared linear layout built for it, an unswizzled
    /// buffer of 16-byte rows): its contiguous dimension is the one whose
    /// unit step is the next element, the strides are read at row 8 and at
    /// column 16 bytes. The descriptor's leading field holds the stride
    /// along K and its stride field the one along M/N, for both majors,
    /// as in Triton's descriptors.
    fn interleaved(desc: &MemDesc, outer_dim: usize) -> Result<Self, String> {
        let refuse = || {
            "wgmma operands in shared layouts other than NVMMA-swizzled or core matrices of 16-byte rows are not supported yet"
                .to_owned()
        };
        let offsets = super::memory::constant_offset(desc).map_err(|_| refuse())?;
        let bits = tt_dialect::types::bit_width(desc.element).map_or(0, i64::from);
        if ![8, 16, 32].contains(&bits) {
            return Err(refuse());
        }
        let (bytes, per_chunk) = (bits / 8, 128 / bits);
        let shape = desc.shape.clone();
        let at = |d: usize, x: i64| {
            let mut c = [0i64; 2];
            c[d] = x;
            (x < shape[d]).then(|| offsets(&c))
        };
        let inner = (0..2).find(|&d| at(d, 1) == Some(1)).ok_or_else(refuse)?;
        let row_stride = at(1 - inner, 8).unwrap_or(0);
        let column_stride = at(inner, per_chunk).unwrap_or(0);
        let field = |elements: i64| (elements * bytes) >> 4;
        if [row_stride, column_stride]
            .iter()
            .any(|&s| s % per_chunk != 0 || field(s) >= 1 << 14)
        {
            return Err(refuse());
        }
        let k_major = inner != outer_dim;
        let (along_k, along_outer) = if k_major {
            (column_stride, row_stride)
        } else {
            (row_stride, column_stride)
        };
        Ok(Operand {
            placement: Placement::Interleaved {
                offsets,
                row_stride,
                column_stride,
            },
            bytes,
            outer_dim,
            k_major,
            constant: field(along_outer) << 32 | field(along_k) << 16,
        })
    }

    /// The byte offset, before swizzling, of element (`outer`, `k`).
    fn offset(&self, outer: i64, k: i64) -> i64 {
        let (row, column) = if self.k_major { (outer, k) } else { (k, outer) };
        match &self.placement {
            Placement::Swizzled(layout) => layout.unswizzled(row, column) * self.bytes,
            Placement::Interleaved { offsets, .. } => {
                let mut c = [0i64; 2];
                c[self.outer_dim] = outer;
                c[1 - self.outer_dim] = k;
                offsets(&c) * self.bytes
            }
        }
    }

    /// Checks, for an unswizzled operand, that each instruction reads the
    /// elements the view holds: for every warp index `w` present (its
    /// tiles `per_warp` M/N elements on), every instruction origin
    /// (`outer`, `k`) and every element of its `extent` x `depth` tile, the
    /// view's offset is the start address as the lowering computes it (`w`
    /// times the first warp's offset, plus the origin's) plus where the
    /// descriptor's core matrices place the element.
    fn check_tiles(
        &self,
        warps: &[i64],
        per_warp: i64,
        origins: &[(i64, i64)],
        extent: i64,
        depth: i64,
    ) -> Result<(), String> {
        let Placement::Interleaved {
            row_stride,
            column_stride,
            ..
        } = &self.placement
        else {
            return Ok(());
        };
        let per_chunk = 16 / self.bytes;
        let placed = |o: i64, k: i64| {
            let (row, column) = if self.k_major { (o, k) } else { (k, o) };
            (row % 8 * per_chunk
                + row / 8 * row_stride
                + column % per_chunk
                + column / per_chunk * column_stride)
                * self.bytes
        };
        let step = self.offset(per_warp, 0);
        for &w in warps {
            for &(outer, k) in origins {
                let start = w * step + self.offset(outer, k);
                if start % 16 != 0 {
                    return Err("a wgmma operand tile that starts off a 16-byte boundary is not supported yet".into());
                }
                for o in 0..extent {
                    for kk in 0..depth {
                        if self.offset(w * per_warp + outer + o, k + kk) != start + placed(o, kk) {
                            return Err("a wgmma operand whose shared layout is not core matrices at two strides is not supported yet".into());
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// `ttng.warp_group_dot`.
pub fn warp_group_dot<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let operand = |i: usize| ttir::operand(op, i).ok_or_else(|| format!("missing operand {i}"));
    let (a, b, c) = (operand(0)?, operand(1)?, operand(2)?);
    let use_c = ttir::operand(op, 3);
    let d: Value = op.result(0).map_err(|_| "missing result")?.into();
    let desc_a = MemDesc::of(a.r#type());
    let (ta, depth) = match (&desc_a, TensorView::of(a.r#type())) {
        (Some(desc), _) => (desc.element.to_string(), desc.shape[1]),
        (None, Some(tensor)) if tensor.shape.len() == 2 => {
            (tensor.element.to_string(), tensor.shape[1])
        }
        _ => return Err("operand A must be a 2-D tensor or memory descriptor".into()),
    };
    MemDesc::of(b.r#type()).ok_or("operand B must be in shared memory")?;
    let Some(Layout::NvidiaMma {
        version_major: 3,
        warps_per_cta,
        instr_shape,
        ..
    }) = TensorView::of(d.r#type())
        .and_then(|t| t.encoding)
        .and_then(Layout::read)
    else {
        return Err("'ttng.warp_group_dot' needs an nvidia_mma version 3 result".into());
    };
    let tf32 = ttir::inherent_attribute(op, "inputPrecision")
        .and_then(ttir::int_value)
        .is_none_or(|(v, _)| v == 0);
    let td = lw.element_type(d.r#type());
    let dd = lw.distributed(d.r#type())?;
    // In a cluster whose CTAs split the result, each CTA computes its part
    // from its parts of A (its rows) and B (its columns), in its own shared
    // memory.
    if dd.rank() != 2 {
        return Err("'ttng.warp_group_dot' of rank other than 2 is not supported yet".into());
    }
    let rows: Vec<Vec<i32>> = dd.block.iter().map(|b| vec![b[0], 0]).collect();
    let columns: Vec<Vec<i32>> = dd.block.iter().map(|b| vec![0, b[1]]).collect();
    let desc_a = desc_a
        .map(|_| super::memory::cta_view(a.r#type(), Some(&rows)))
        .transpose()?;
    if desc_a.is_none() && lw.distributed(a.r#type())?.block != rows {
        return Err("a wgmma A operand in registers split across the CTAs of a cluster other than by its rows is not supported yet".into());
    }
    let desc_b = super::memory::cta_view(b.r#type(), Some(&columns))?;
    let tb = desc_b.element.to_string();
    let Some(inst) = instruction(&ta, &tb, &td.to_string(), tf32) else {
        return Err(format!("wgmma on {ta} x {tb} -> {td} is not supported yet"));
    };
    if instr_shape.len() != 3 || warps_per_cta.len() != 2 {
        return Err("'ttng.warp_group_dot' of rank other than 2 is not supported yet".into());
    }
    let (m, n) = (dd.shape[0], dd.shape[1]);
    let (instr_n, wpt) = (
        instr_shape[1] as i64,
        [warps_per_cta[0] as i64, warps_per_cta[1] as i64],
    );
    if instr_shape[2] as i64 != inst.k
        || instr_n > inst.max_n
        || instr_n < 8
        || instr_n % 8 != 0
        || wpt.iter().any(|&w| w < 1)
    {
        return Err(format!(
            "wgmma with instrShape {instr_shape:?} on {ta} is not supported yet"
        ));
    }
    let oa = desc_a
        .as_ref()
        .map(|desc| Operand::new(desc, 0, 64))
        .transpose()?;
    let ob = Operand::new(&desc_b, 1, instr_n)?;
    let (trans_a, trans_b) = (oa.as_ref().is_some_and(|o| !o.k_major), !ob.k_major);
    if !inst.transposes && (trans_a || trans_b) {
        return Err(format!(
            "wgmma on {ta} needs both operands K-major in shared memory"
        ));
    }
    if m % 64 != 0 || n % instr_n != 0 || depth % inst.k != 0 || wpt[0] % 4 != 0 {
        return Err(format!(
            "a {m}x{n}x{depth} wgmma with instrShape {instr_shape:?} and warps {warps_per_cta:?} is not supported yet"
        ));
    }
    check_layout(&dd, m, n, instr_n, wpt)?;
    let index = super::dot::register_index(&dd);
    let missing =
        || "'ttng.warp_group_dot' whose registers do not cover its wgmma tiles".to_owned();
    // Per rep (M, N), the result register of each fragment slot.
    let (reps_m, reps_n) = ((m / (wpt[0] * 16)).max(1), (n / (wpt[1] * instr_n)).max(1));
    let slots = instr_n / 2;
    let mut tiles = Vec::new();
    for rm in 0..reps_m {
        for rn in 0..reps_n {
            let mut registers = Vec::with_capacity(slots as usize);
            for i in 0..slots {
                let row = rm * wpt[0] * 16 + 8 * ((i / 2) % 2);
                let col = rn * wpt[1] * instr_n + 8 * (i / 4) + i % 2;
                let r = *index
                    .get(&vec![row as i32, col as i32])
                    .ok_or_else(missing)?;
                registers.push(r);
            }
            tiles.push((rm, rn, registers));
        }
    }
    let covered: std::collections::HashSet<usize> =
        tiles.iter().flat_map(|t| t.2.iter().copied()).collect();
    if dd
        .registers
        .iter()
        .any(|coordinates| !covered.contains(&index[coordinates]))
    {
        return Err(missing());
    }

    // The warp group's first warp, uniform across the warp.
    let warp = lw.uniform_warp();
    let group = emit.and(warp, emit.i32(!3));
    let warp_m = emit.urem_by(emit.urem_by(group, wpt[0]), m / 16);
    let warp_n = emit.urem_by(
        emit.urem_by(emit.udiv_by(group, wpt[0]), wpt[1]),
        n / instr_n,
    );
    // The runtime part of each operand's start (>> 4): whole rows
    // (K-major) or an M/N offset that keeps each tile inside its column
    // block (M/N-major: rows are K; blocks and tiles nest); for core
    // matrices, the warp index times its first warp's offset, which
    // `check_tiles` verifies for every warp present.
    let runtime = |o: &Operand, warp_index: Value<'c, 'a>, per_warp: i64, warps: i64| {
        let layout = match &o.placement {
            Placement::Swizzled(layout) => layout,
            Placement::Interleaved { .. } => {
                return Ok(emit.mul_by(warp_index, o.offset(per_warp, 0) >> 4))
            }
        };
        if o.k_major {
            // Linear in the warp's index while its rows stay in one group
            // of column blocks or step over whole groups.
            let group = layout.block_rows;
            if per_warp % group != 0 && per_warp * warps > group {
                return Err(format!(
                    "wgmma tiles of {per_warp} M/N elements over {warps} warp groups in {group}-row groups are not supported yet"
                ));
            }
            return Ok(emit.mul_by(warp_index, o.offset(per_warp, 0) >> 4));
        }
        let (row, span) = (layout.row_elements, per_warp * warps);
        if span % row != 0 && row % span != 0 {
            return Err(format!(
                "wgmma tiles of {per_warp} M/N elements over {warps} warp groups in {row}-element column blocks are not supported yet"
            ));
        }
        let x = emit.mul_by(warp_index, per_warp);
        let elements = emit.add(
            emit.mul_by(emit.udiv_by(x, row), layout.block_elements()),
            emit.urem_by(x, row),
        );
        Ok(emit.lshr(emit.mul_by(elements, o.bytes), emit.i32(4)))
    };
    let start = |o: &Operand, memory: Value<'c, 'a>, term: Value<'c, 'a>| {
        let base = lw.scalar(memory)?;
        let address = emit.value("llvm.ptrtoint", &[base], emit.i32_type(), &[]);
        let encoded = emit.add(emit.lshr(address, emit.i32(4)), term);
        let masked = emit.and(encoded, emit.i32(0x3fff));
        let wide = emit.value("llvm.zext", &[masked], emit.int_type(64), &[]);
        Ok::<_, String>(emit.or(wide, emit.int(emit.int_type(64), o.constant)))
    };
    // Warps along a dimension beyond what the tile needs repeat the first
    // ones' tiles (the indices above wrap), so only that many start apart.
    let (spread_m, spread_n) = (wpt[0].min(m / 16), wpt[1].min(n / instr_n));
    // The indices `warp_m` and `warp_n` take, over the warp groups.
    let groups = (0..wpt[0] * wpt[1]).step_by(4);
    let indices_m: Vec<i64> = groups.clone().map(|g| g % wpt[0] % (m / 16)).collect();
    let indices_n: Vec<i64> = groups
        .map(|g| g / wpt[0] % wpt[1] % (n / instr_n))
        .collect();
    let steps: Vec<i64> = (0..depth / inst.k).map(|ks| ks * inst.k).collect();
    let origins = |reps: i64, stride: i64| -> Vec<(i64, i64)> {
        (0..reps)
            .flat_map(|r| steps.iter().map(move |&k| (r * stride, k)))
            .collect()
    };
    let term_b = runtime(&ob, warp_n, instr_n, spread_n)?;
    ob.check_tiles(
        &indices_n,
        instr_n,
        &origins(reps_n, wpt[1] * instr_n),
        instr_n,
        inst.k,
    )?;
    let base_b = start(&ob, b, term_b)?;
    let a_operand = match &oa {
        Some(o) => {
            let term = runtime(o, warp_m, 16, spread_m)?;
            o.check_tiles(&indices_m, 16, &origins(reps_m, wpt[0] * 16), 64, inst.k)?;
            AOperand::Shared(o, start(o, a, term)?)
        }
        None => AOperand::Registers(registers_of_a(lw, emit, a, &dd, inst.k, reps_m, wpt[0])?),
    };
    let i64t = emit.int_type(64);
    let descriptor = |o: &Operand, base: Value<'c, 'a>, outer: i64, k: i64| {
        let step = o.offset(outer, k) >> 4;
        if step == 0 {
            base
        } else {
            emit.add(base, emit.int(i64t, step))
        }
    };

    let zero_acc = tt_passes::ttgir::pipeline_lower::is_zero_constant(c.to_raw());
    let fp8 = inst.types.contains("e4m3") || inst.types.contains("e5m2");
    let max_imprecise = ttir::inherent_attribute(op, "maxNumImpreciseAcc")
        .and_then(ttir::int_value)
        .map_or(0, |(v, _)| v);
    let needs_partial = fp8 && td.to_string() == "f32" && max_imprecise <= depth;
    let vc = lw.get(c)?;
    let use_c = use_c.map(|v| lw.scalar(v)).transpose()?;
    let i1 = emit.int_type(1);
    let half = td.to_string() == "f16";
    let register_type = if half { emit.i32_type() } else { td };
    let outputs = if half { slots / 2 } else { slots } as usize;
    let result_type = emit.struct_type(&vec![register_type; outputs]);
    let pack = |values: &[Value<'c, 'a>]| -> Vec<Value<'c, 'a>> {
        if half {
            values
                .chunks(2)
                .map(|pair| emit.pack_word(pair, td))
                .collect()
        } else {
            values.to_vec()
        }
    };
    let unpack = |result: Value<'c, 'a>| -> Vec<Value<'c, 'a>> {
        let registers: Vec<Value<'c, 'a>> = (0..outputs)
            .map(|i| emit.extract(result, i as i64, register_type))
            .collect();
        if half {
            registers
                .into_iter()
                .flat_map(|r| emit.unpack_word(r, 2, td))
                .collect()
        } else {
            registers
        }
    };
    // Triton's element type numbers of `nvg.wgmma`, from the PTX types
    // (D, A, B).
    let element = |name: &str| match name {
        "s8" => 0,
        "s32" => 1,
        "e4m3" => 2,
        "e5m2" => 3,
        "f16" => 4,
        "bf16" => 5,
        "tf32" => 6,
        _ => 7,
    };
    let names: Vec<&str> = inst.types.split('.').collect();
    let int_attr = |v: i64| emit.attr(&format!("{v} : i32"));
    let attributes = [
        ("m", int_attr(64)),
        ("n", int_attr(instr_n)),
        ("k", int_attr(inst.k)),
        ("eltTypeC", int_attr(element(names[0]))),
        ("eltTypeA", int_attr(element(names[1]))),
        ("eltTypeB", int_attr(element(names[2]))),
        // Row-major A and column-major B are K-major.
        ("layoutA", int_attr(i64::from(trans_a))),
        ("layoutB", int_attr(i64::from(!trans_b))),
    ];
    // One instruction, an `nvg.wgmma` (Triton's form, which
    // `convert-nv-gpu-to-llvm` turns into `wgmma.mma_async`): `acc` (None:
    // no accumulator input), A (a descriptor or four registers), B's
    // descriptor and the scale-d predicate.
    let mma = |acc: Option<&[Value<'c, 'a>]>,
               da: &[Value<'c, 'a>],
               db: Value<'c, 'a>,
               scale: Value<'c, 'a>|
     -> Vec<Value<'c, 'a>> {
        let a_value = if da.len() == 1 {
            da[0]
        } else {
            let i32t = emit.i32_type();
            emit.struct_of(da, emit.struct_type(&vec![i32t; da.len()]))
        };
        let mut operands = vec![a_value, db, scale];
        if let Some(acc) = acc {
            operands.push(emit.struct_of(&pack(acc), result_type));
        }
        let result = emit.value("nvg.wgmma", &operands, result_type, &attributes);
        unpack(result)
    };

    let is_async = ttir::inherent_attribute(op, "isAsync")
        .and_then(ttir::bool_value)
        .unwrap_or(false);
    let mut reads = vec![super::Access::Read(lw.buffer_span(b))];
    if oa.is_some() {
        reads.push(super::Access::Read(lw.buffer_span(a)));
    }
    lw.shared_accesses(emit, reads);
    emit.op("nvvm.wgmma.fence.aligned", &[], &[], &[]);
    let true_ = emit.int(i1, 1);
    let mut out = vc.clone();
    for (rm, rn, registers) in &tiles {
        let mut acc: Option<Vec<Value<'c, 'a>>> =
            (!zero_acc).then(|| registers.iter().map(|&r| vc[r]).collect());
        let mut scale = emit.int(i1, (!zero_acc) as i64);
        if let Some(u) = use_c {
            scale = emit.and(scale, u);
        }
        let mut partial: Option<Vec<Value<'c, 'a>>> = None;
        let mut imprecise = 0;
        let steps = depth / inst.k;
        for ks in 0..steps {
            let k = ks * inst.k;
            let da = match &a_operand {
                AOperand::Shared(o, base) => vec![descriptor(o, *base, rm * wpt[0] * 16, k)],
                AOperand::Registers(registers) => registers[&(*rm, ks)].clone(),
            };
            let db = descriptor(&ob, base_b, rn * wpt[1] * instr_n, k);
            imprecise += inst.k;
            if needs_partial {
                partial = Some(mma(partial.as_deref(), &da, db, true_));
                if imprecise >= max_imprecise || ks == steps - 1 {
                    let p = partial.take().expect("a partial sum");
                    acc = Some(match acc {
                        Some(acc) => acc
                            .iter()
                            .zip(&p)
                            .map(|(&x, &y)| emit.value("llvm.fadd", &[x, y], td, &[]))
                            .collect(),
                        None => p,
                    });
                    imprecise = 0;
                }
            } else {
                acc = Some(mma(acc.as_deref(), &da, db, scale));
                scale = true_;
            }
        }
        let acc = acc.ok_or("a wgmma without K steps")?;
        for (&r, v) in registers.iter().zip(acc) {
            out[r] = v;
        }
    }
    emit.op("nvvm.wgmma.commit.group.sync.aligned", &[], &[], &[]);
    // Registers that repeat an element take the value of its first register.
    for (t, coordinates) in dd.registers.iter().enumerate() {
        out[t] = out[index[coordinates]];
    }
    if !is_async {
        out = wait_group(emit, &out, 0);
    }
    lw.set(d, out);
    Ok(())
}

/// Operand A: a descriptor base in shared memory, or per (M rep, K step)
/// the four 32-bit registers of its fragment.
enum AOperand<'o, 'c, 'a> {
    Shared(&'o Operand, Value<'c, 'a>),
    Registers(HashMap<(i64, i64), Vec<Value<'c, 'a>>>),
}

/// The fragments of an A operand held in registers (a `#ttg.dot_op` of the
/// result's layout): for each 64-row tile and K step, four 32-bit
/// registers, register `j` holding row `lane / 4 + 8 (j % 2)` and, packed,
/// the `32 / bits` elements from column `(32 / bits) (lane % 4) + (K / 2)
/// (j / 2)` on. Checked against the layout's lanes and warps first.
fn registers_of_a<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    a: Value<'c, 'a>,
    dd: &Distributed,
    k: i64,
    reps_m: i64,
    warps_m: i64,
) -> Result<HashMap<(i64, i64), Vec<Value<'c, 'a>>>, String> {
    let da = lw.distributed(a.r#type())?;
    let element = lw.element_type(a.r#type());
    let bits = super::types::memory_bits(TensorView::of(a.r#type()).ok_or("A is a tensor")?.element)
        as i64;
    let per_register = 32 / bits;
    if !super::dot::holds_fragment(&da, 1, 0, per_register as i32)
        || !super::dot::bases_agree(&da, dd, &["warp"], 0, 1)
    {
        return Err("'ttng.warp_group_dot' whose A layout does not give each lane its wgmma fragment is not supported yet".into());
    }
    let index = super::dot::register_index(&da);
    let values = lw.get(a)?;
    let mut out = HashMap::new();
    for rm in 0..reps_m {
        for ks in 0..da.shape[1] / k {
            let mut registers = Vec::with_capacity(4);
            for j in 0..4 {
                let row = rm * warps_m * 16 + 8 * (j % 2);
                let col = ks * k + k / 2 * (j / 2);
                let mut elements = Vec::with_capacity(per_register as usize);
                for e in 0..per_register {
                    let at = vec![row as i32, (col + e) as i32];
                    let r = index.get(&at).ok_or(
                        "'ttng.warp_group_dot' whose A registers do not cover its wgmma tiles is not supported yet",
                    )?;
                    elements.push(values[*r]);
                }
                registers.push(emit.pack_word(&elements, element));
            }
            out.insert((rm, ks), registers);
        }
    }
    Ok(out)
}

/// Checks that lanes and warps hold the wgmma fragments: lanes as the
/// instruction's accumulator, warps 0-3 of a group on rows 0, 16, 32, 48
/// and the groups as the descriptors assume them.
fn check_layout(dd: &Distributed, m: i64, n: i64, instr_n: i64, wpt: [i64; 2]) -> LowerResult {
    let warps: Vec<Vec<i32>> = (0..dd.layout.bases("warp").len())
        .map(|j| {
            let w = 1i64 << j;
            let row = (w % wpt[0]) % (m / 16) * 16;
            let col = ((w / wpt[0]) % wpt[1]) % (n / instr_n) * instr_n;
            vec![row as i32, col as i32]
        })
        .collect();
    if !super::dot::holds_fragment(dd, 1, 0, 2) || dd.layout.bases("warp") != warps.as_slice() {
        return Err(
            "'ttng.warp_group_dot' whose result layout does not give each warp its wgmma fragment is not supported yet"
                .into(),
        );
    }
    Ok(())
}

/// `wgmma.wait_group pendings`, with `values` passing through it so that
/// nothing reads them before the wait.
pub(crate) fn wait<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    values: &[Value<'c, 'a>],
    pendings: i64,
) -> Vec<Value<'c, 'a>> {
    if values.is_empty() {
        emit.op(
            "nvvm.wgmma.wait.group.sync.aligned",
            &[],
            &[],
            &[("group", emit.attr(&format!("{pendings} : i64")))],
        );
        return Vec::new();
    }
    let types: Vec<Type<'c>> = values.iter().map(|v| v.r#type()).collect();
    let constraint = |t: &Type| {
        let s = t.to_string();
        match s.as_str() {
            "f32" => "f",
            "f16" | "bf16" | "i16" => "h",
            "i64" | "f64" => "l",
            _ => "r",
        }
    };
    let registers: Vec<String> = (0..values.len()).map(|i| format!("${i}")).collect();
    let constraints: Vec<String> = types
        .iter()
        .map(|t| format!("={}", constraint(t)))
        .chain((0..values.len()).map(|i| i.to_string()))
        .collect();
    let asm = format!(
        "// wait for regs: {}\n\twgmma.wait_group.sync.aligned {pendings};",
        registers.join(",")
    );
    let result = emit
        .inline_asm(
            &asm,
            &constraints.join(","),
            values,
            Some(emit.struct_type(&types)),
        )
        .expect("a result");
    types
        .iter()
        .enumerate()
        .map(|(i, &t)| emit.extract(result, i as i64, t))
        .collect()
}

/// `values` through an `nvg.wgmma_wait_group` for all but `pendings`
/// groups (Triton's form, packed into one struct, which
/// `convert-nv-gpu-to-llvm` turns into [`wait`]); no values wait at once.
fn wait_group<'c, 'a>(
    emit: &Emitter<'c, 'a>,
    values: &[Value<'c, 'a>],
    pendings: i64,
) -> Vec<Value<'c, 'a>> {
    if values.is_empty() {
        return wait(emit, values, pendings);
    }
    let types: Vec<Type> = values.iter().map(|v| v.r#type()).collect();
    let ty = emit.struct_type(&types);
    let packed = emit.struct_of(values, ty);
    let through = emit.value(
        "nvg.wgmma_wait_group",
        &[packed],
        ty,
        &[("pendings", emit.attr(&format!("{pendings} : i32")))],
    );
    types
        .iter()
        .enumerate()
        .map(|(i, &t)| emit.extract(through, i as i64, t))
        .collect()
}

/// `ttng.warp_group_dot_wait`: the tensors pass through the wait, the
/// memory descriptors stay as they are.
pub fn warp_group_dot_wait<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let pendings = ttir::inherent_attribute(op, "pendings")
        .and_then(ttir::int_value)
        .map_or(0, |(v, _)| v);
    let mut values = Vec::new();
    let mut spans: HashMap<usize, (usize, usize)> = HashMap::new();
    let operands: Vec<Value<'c, 'a>> = op.operands().collect();
    for (i, v) in operands.iter().enumerate() {
        if TensorView::of(v.r#type()).is_some() {
            let elements = lw.get(*v)?;
            spans.insert(i, (values.len(), elements.len()));
            values.extend(elements);
        }
    }
    let waited = wait_group(emit, &values, pendings);
    for (i, v) in operands.iter().enumerate() {
        let result: Value = op.result(i).map_err(|_| "missing result")?.into();
        match spans.get(&i) {
            Some(&(start, len)) => lw.set(result, waited[start..start + len].to_vec()),
            None => {
                let same = lw.get(*v)?;
                lw.set(result, same);
            }
        }
    }
    Ok(())
}
