//! The layout encodings of `ttg` as Rust values, read from the attributes
//! through the shim's accessors, and the rules each encoding and each memory
//! descriptor must satisfy.
//!
//! The later layout library (linear layouts, issue 4) builds on [`Layout`];
//! here it answers what the verifiers need: kinds, ranks, and how many
//! lanes, warps and CTAs a layout spans.

use melior::ir::{attribute::AttributeLike, r#type::TypeLike, Attribute, Type};
use mlir_sys::MlirAttribute;

use crate::ffi;

/// A `ttg` layout encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    Blocked {
        size_per_thread: Vec<u32>,
        threads_per_warp: Vec<u32>,
        warps_per_cta: Vec<u32>,
        order: Vec<u32>,
        cga: Vec<Vec<i64>>,
    },
    Slice {
        dim: u32,
        parent: Option<Box<Layout>>,
    },
    DotOperand {
        op_idx: u32,
        k_width: u32,
        parent: Option<Box<Layout>>,
    },
    NvidiaMma {
        version_major: u32,
        version_minor: u32,
        warps_per_cta: Vec<u32>,
        instr_shape: Vec<u32>,
        cga: Vec<Vec<i64>>,
    },
    /// `#ttg.amd_mfma`: the result of AMD CDNA matrix-core instructions.
    AmdMfma {
        version: u32,
        warps_per_cta: Vec<u32>,
        /// `[M, N, K]` of one instruction.
        instr_shape: Vec<u32>,
        is_transposed: bool,
        tiles_per_warp: Vec<u32>,
        element_bit_width: u32,
        cga: Vec<Vec<i64>>,
    },
    /// `#ttg.amd_wmma`: the result of AMD RDNA matrix-core instructions.
    AmdWmma {
        version: u32,
        is_transposed: bool,
        warps_per_cta: Vec<u32>,
        tiles_per_warp: Vec<u32>,
        /// `[M, N, K]` of one instruction.
        instr_shape: Vec<u32>,
        cga: Vec<Vec<i64>>,
    },
    Linear {
        register: Vec<Vec<i64>>,
        lane: Vec<Vec<i64>>,
        warp: Vec<Vec<i64>>,
        block: Vec<Vec<i64>>,
    },
    SwizzledShared {
        vec: u32,
        per_phase: u32,
        max_phase: u32,
        order: Vec<u32>,
        cga: Vec<Vec<i64>>,
    },
    /// `#ttg.amd_rotating_shared`: a swizzled layout whose phase is also
    /// XORed with the index of each block of `per_phase * max_phase` rows.
    AmdRotatingShared {
        vec: u32,
        per_phase: u32,
        max_phase: u32,
        order: Vec<u32>,
        cga: Vec<Vec<i64>>,
    },
    NvmmaShared {
        swizzling_byte_width: u32,
        transposed: bool,
        element_bit_width: u32,
        fp4_padded: bool,
        rank: u32,
        cga: Vec<Vec<i64>>,
    },
    SharedLinear {
        offset: Vec<Vec<i64>>,
        block: Vec<Vec<i64>>,
        alignment: u32,
    },
    /// `#ttg.padded_shared`: its linear component is given either by the
    /// `offset` and `block` bases, or (both empty) as the identity over
    /// `shape` in `order`.
    PaddedShared {
        intervals: Vec<u32>,
        paddings: Vec<u32>,
        offsets: Vec<Vec<i64>>,
        block: Vec<Vec<i64>>,
        order: Vec<u32>,
        shape: Vec<u32>,
    },
}

/// `SwizzledSharedEncodingAttr::get` for an operand of an Ampere or Hopper
/// MMA (one CTA): `(vec, perPhase, maxPhase)` for a tensor of `shape` held
/// in memory with dimension order `order`. `need_trans` is set where the
/// tensor is stored before a transpose (its K dimension is then the other
/// one), as Triton's `SwizzleShmemConvert` does.
pub fn dot_operand_swizzle(
    op_idx: u32,
    k_width: u32,
    shape: &[i64],
    order: &[u32],
    bits: u32,
    need_trans: bool,
) -> (u32, u32, u32) {
    let k = shape[order[0] as usize];
    let bits = i64::from(bits);
    let per_phase = (1024 / (bits * k)).max(1);
    let mut mma_stride: i64 = 8;
    let mut vec = 4 * i64::from(k_width);
    let rank = order.len();
    let k_dim = if op_idx == 0 { rank - 1 } else { rank - 2 };
    let k_contiguous = (order[0] as usize == k_dim) != need_trans;
    if !k_contiguous {
        std::mem::swap(&mut vec, &mut mma_stride);
    }
    let max_phase = mma_stride.min(1024 / (vec * bits)).max(1);
    let max_phase = (max_phase / per_phase).max(1);
    (vec as u32, per_phase as u32, max_phase as u32)
}

/// The memory spaces a memory descriptor may live in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemorySpace {
    Shared,
    Tensor,
}

/// The kind of a `ttg`/`ttng` attribute, as the shim reports it.
pub fn kind(attr: Attribute) -> i32 {
    unsafe { ffi::ttgEncodingKind(attr.to_raw()) }
}

/// The memory space `attr` names, if it is one.
pub fn memory_space(attr: Attribute) -> Option<MemorySpace> {
    match kind(attr) {
        ffi::SPACE_SHARED_MEMORY => Some(MemorySpace::Shared),
        ffi::SPACE_TENSOR_MEMORY => Some(MemorySpace::Tensor),
        _ => None,
    }
}

/// Reads a list of non-negative integers (`ArrayAttr` of integers, as the
/// shim's parsers accept them).
fn integers(raw: MlirAttribute) -> Vec<u32> {
    // SAFETY: `raw` is null or a live attribute; elements are read only
    // from an array attribute, within its bounds, and as integers only
    // where they are integer attributes.
    unsafe {
        if raw.ptr.is_null() || !mlir_sys::mlirAttributeIsAArray(raw) {
            return Vec::new();
        }
        (0..mlir_sys::mlirArrayAttrGetNumElements(raw))
            .map(|i| {
                let element = mlir_sys::mlirArrayAttrGetElement(raw, i);
                if mlir_sys::mlirAttributeIsAInteger(element) {
                    mlir_sys::mlirIntegerAttrGetValueInt(element) as u32
                } else {
                    0
                }
            })
            .collect()
    }
}

/// Reads a list of basis vectors (`ArrayAttr` of `ArrayAttr` of integers).
fn bases(raw: MlirAttribute) -> Vec<Vec<i64>> {
    unsafe {
        if raw.ptr.is_null() || !mlir_sys::mlirAttributeIsAArray(raw) {
            return Vec::new();
        }
        (0..mlir_sys::mlirArrayAttrGetNumElements(raw))
            .map(|i| {
                let vector = mlir_sys::mlirArrayAttrGetElement(raw, i);
                (0..mlir_sys::mlirArrayAttrGetNumElements(vector))
                    .map(|j| {
                        mlir_sys::mlirIntegerAttrGetValueInt(mlir_sys::mlirArrayAttrGetElement(
                            vector, j,
                        ))
                    })
                    .collect()
            })
            .collect()
    }
}

impl Layout {
    /// The CGA (block) bases of the layout, its parent's for slices and dot
    /// operands; `None` for a slice or dot operand without a parent.
    fn cga_bases(&self) -> Option<&[Vec<i64>]> {
        match self {
            Layout::Slice { parent, .. } | Layout::DotOperand { parent, .. } => {
                parent.as_deref()?.cga_bases()
            }
            Layout::Blocked { cga, .. }
            | Layout::NvidiaMma { cga, .. }
            | Layout::AmdMfma { cga, .. }
            | Layout::AmdWmma { cga, .. }
            | Layout::SwizzledShared { cga, .. }
            | Layout::AmdRotatingShared { cga, .. }
            | Layout::NvmmaShared { cga, .. } => Some(cga),
            Layout::Linear { block, .. }
            | Layout::SharedLinear { block, .. }
            | Layout::PaddedShared { block, .. } => Some(block),
        }
    }

    /// Whether the layout gives the CTAs of a thread-block cluster
    /// different parts of the tensor: a non-zero CGA (block) basis. A
    /// layout whose CGA bases are all zero gives every CTA the whole tensor.
    pub fn splits_across_ctas(&self) -> bool {
        self.cga_bases()
            .is_none_or(|bases| bases.iter().any(|b| b.iter().any(|&x| x != 0)))
    }

    /// A blocked layout within one CTA.
    pub fn blocked(
        size_per_thread: &[u32],
        threads_per_warp: &[u32],
        warps_per_cta: &[u32],
        order: &[u32],
    ) -> Self {
        Self::Blocked {
            size_per_thread: size_per_thread.to_vec(),
            threads_per_warp: threads_per_warp.to_vec(),
            warps_per_cta: warps_per_cta.to_vec(),
            order: order.to_vec(),
            cga: Vec::new(),
        }
    }

    /// An NVIDIA MMA layout (minor version 0) within one CTA.
    pub fn nvidia_mma(version_major: u32, warps_per_cta: &[u32], instr_shape: &[u32]) -> Self {
        Self::NvidiaMma {
            version_major,
            version_minor: 0,
            warps_per_cta: warps_per_cta.to_vec(),
            instr_shape: instr_shape.to_vec(),
            cga: Vec::new(),
        }
    }

    /// `parent` with dimension `dim` sliced away.
    pub fn slice(dim: u32, parent: Layout) -> Self {
        Self::Slice {
            dim,
            parent: Some(Box::new(parent)),
        }
    }

    /// The NVMMA shared encoding Triton picks for an operand of `shape` held
    /// with dimension order `order` (fastest first), elements of
    /// `element_bits` bits (`NVMMASharedEncodingAttr::get` from a shape and
    /// an order, one CTA): the widest of 128, 64 and 32-byte swizzling that
    /// the contiguous dimension fills evenly, none when it fills none or
    /// when the other dimensions hold fewer than 8 rows; transposed when
    /// dimension 0 is the contiguous one.
    pub fn nvmma_shared_for(
        shape: &[i64],
        order: &[u32],
        element_bits: u32,
        fp4_padded: bool,
    ) -> Self {
        let packing = if fp4_padded { 2 } else { 1 };
        let contiguous = order
            .first()
            .and_then(|&d| shape.get(d as usize))
            .map_or(0, |&n| n * packing * i64::from(element_bits) / 8);
        let mut swizzle = [128, 64, 32]
            .into_iter()
            .find(|&w| contiguous >= w && contiguous % w == 0)
            .unwrap_or(0);
        let rows: i64 = order
            .iter()
            .skip(1)
            .filter_map(|&d| shape.get(d as usize))
            .product();
        if shape.len() < 2 || rows < 8 {
            swizzle = 0;
        }
        Layout::NvmmaShared {
            swizzling_byte_width: swizzle as u32,
            // Triton's rule, which makes every rank-1 buffer "transposed"
            // (its one dimension is dimension 0); it changes nothing there.
            transposed: order.first() == Some(&0),
            element_bit_width: element_bits,
            fp4_padded,
            rank: shape.len() as u32,
            cga: Vec::new(),
        }
    }

    /// The encoding's attribute text, for layouts within one CTA of the
    /// kinds passes create (blocked, slice, dot operand, NVIDIA MMA, AMD
    /// MFMA and WMMA, NVMMA shared); `None` for anything else.
    pub fn text(&self) -> Option<String> {
        // The parser's default tilesPerWarp: ones, one per instrShape entry.
        fn default_tiles(tiles: &[u32], instr_shape: &[u32]) -> bool {
            tiles.len() == instr_shape.len() && tiles.iter().all(|&t| t == 1)
        }
        fn list<T: std::fmt::Display>(values: &[T]) -> String {
            values
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        }
        Some(match self {
            Layout::Blocked {
                size_per_thread,
                threads_per_warp,
                warps_per_cta,
                order,
                cga,
            } if cga.is_empty() => format!(
                "#ttg.blocked<{{sizePerThread = [{}], threadsPerWarp = [{}], warpsPerCTA = [{}], order = [{}]}}>",
                list(size_per_thread),
                list(threads_per_warp),
                list(warps_per_cta),
                list(order)
            ),
            Layout::Slice {
                dim,
                parent: Some(parent),
            } => format!("#ttg.slice<{{dim = {dim}, parent = {}}}>", parent.text()?),
            Layout::DotOperand {
                op_idx,
                k_width,
                parent: Some(parent),
            } => {
                let k = if *k_width == 0 {
                    String::new()
                } else {
                    format!(", kWidth = {k_width}")
                };
                format!(
                    "#ttg.dot_op<{{opIdx = {op_idx}, parent = {}{k}}}>",
                    parent.text()?
                )
            }
            Layout::NvidiaMma {
                version_major,
                version_minor,
                warps_per_cta,
                instr_shape,
                cga,
            } if cga.is_empty() => format!(
                "#ttg.nvidia_mma<{{versionMajor = {version_major}, versionMinor = {version_minor}, warpsPerCTA = [{}], instrShape = [{}]}}>",
                list(warps_per_cta),
                list(instr_shape)
            ),
            Layout::AmdMfma {
                version,
                warps_per_cta,
                instr_shape,
                is_transposed,
                tiles_per_warp,
                element_bit_width,
                cga,
            } if cga.is_empty() => {
                let mut text = format!(
                    "#ttg.amd_mfma<{{version = {version}, warpsPerCTA = [{}], instrShape = [{}], isTransposed = {is_transposed}",
                    list(warps_per_cta),
                    list(instr_shape)
                );
                if !default_tiles(tiles_per_warp, instr_shape) {
                    text += &format!(", tilesPerWarp = [{}]", list(tiles_per_warp));
                }
                if *element_bit_width != 32 {
                    text += &format!(", elementBitWidth = {element_bit_width}");
                }
                text + "}>"
            }
            Layout::AmdWmma {
                version,
                is_transposed,
                warps_per_cta,
                tiles_per_warp,
                instr_shape,
                cga,
            } if cga.is_empty() => {
                let mut text = format!(
                    "#ttg.amd_wmma<{{version = {version}, isTranspose = {is_transposed}, warpsPerCTA = [{}]",
                    list(warps_per_cta)
                );
                if !default_tiles(tiles_per_warp, instr_shape) {
                    text += &format!(", tilesPerWarp = [{}]", list(tiles_per_warp));
                }
                if instr_shape[..] != [16, 16, 16] {
                    text += &format!(", instrShape = [{}]", list(instr_shape));
                }
                text + "}>"
            }
            Layout::SwizzledShared {
                vec,
                per_phase,
                max_phase,
                order,
                cga,
            } if cga.is_empty() => format!(
                "#ttg.swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, order = [{}]}}>",
                list(order)
            ),
            Layout::NvmmaShared { cga, .. } if cga.is_empty() => return self.nvmma_shared_text(),
            _ => return None,
        })
    }

    /// A descriptor's shared layout for a tile of `rank` dimensions moved
    /// through it (Triton's `updateEncodingForShape`, one CTA): a
    /// rank-reducing load drops the leading unit dimensions, so an NVMMA
    /// layout keeps its swizzling at the new rank and a swizzled one keeps
    /// the dimensions of its order below `rank`, any new ones slowest.
    /// `None` for other layouts and for layouts over several CTAs.
    pub fn for_tile_rank(&self, rank: usize) -> Option<Layout> {
        match self {
            Layout::NvmmaShared { cga, .. } if cga.is_empty() => {
                let mut layout = self.clone();
                if let Layout::NvmmaShared { rank: r, .. } = &mut layout {
                    *r = u32::try_from(rank).ok()?;
                }
                Some(layout)
            }
            Layout::SwizzledShared {
                vec,
                per_phase,
                max_phase,
                order,
                cga,
            } if cga.is_empty() => {
                let rank = u32::try_from(rank).ok()?;
                let added = (rank as usize).saturating_sub(order.len()) as u32;
                let order = (0..added)
                    .map(|i| rank - 1 - i)
                    .chain(order.iter().copied().filter(|&d| d < rank))
                    .collect();
                Some(Layout::SwizzledShared {
                    vec: *vec,
                    per_phase: *per_phase,
                    max_phase: *max_phase,
                    order,
                    cga: Vec::new(),
                })
            }
            _ => None,
        }
    }

    /// The text of an NVMMA shared encoding, its CGA layout's bases
    /// included where it has any; `None` for other layouts.
    pub fn nvmma_shared_text(&self) -> Option<String> {
        let Layout::NvmmaShared {
            swizzling_byte_width,
            transposed,
            element_bit_width,
            fp4_padded,
            rank,
            cga,
        } = self
        else {
            return None;
        };
        let cga_text = if cga.is_empty() {
            String::new()
        } else {
            let bases: Vec<String> = cga
                .iter()
                .map(|b| {
                    let b: Vec<String> = b.iter().map(i64::to_string).collect();
                    format!("[{}]", b.join(", "))
                })
                .collect();
            format!(", CGALayout = [{}]", bases.join(", "))
        };
        Some(format!(
            "#ttg.nvmma_shared<{{swizzlingByteWidth = {swizzling_byte_width}, transposed = {transposed}, elementBitWidth = {element_bit_width}{}{}{cga_text}}}>",
            if *fp4_padded { ", fp4Padded = true" } else { "" },
            if *rank == 2 { String::new() } else { format!(", rank = {rank}") }
        ))
    }

    /// The layout of a ranked tensor or memory descriptor type, if its
    /// encoding is a `ttg` layout.
    pub fn of_type(ty: Type) -> Option<Self> {
        let encoding = match MemDesc::of(ty) {
            Some(desc) => desc.encoding,
            None => tt_dialect::types::TensorView::of(ty)?.encoding?,
        };
        Self::read(encoding)
    }

    /// Reads `attr` if it is a `ttg` layout encoding.
    pub fn read(attr: Attribute) -> Option<Self> {
        Self::read_raw(attr.to_raw())
    }

    fn read_raw(raw: MlirAttribute) -> Option<Self> {
        if raw.ptr.is_null() {
            return None;
        }
        // SAFETY: `raw` is a live, non-null attribute, and each accessor is
        // called only for the kind the shim reports it to be.
        unsafe {
            Some(match ffi::ttgEncodingKind(raw) {
                ffi::ENC_BLOCKED => Layout::Blocked {
                    size_per_thread: ffi::ttgBlockedGetField(raw, 0).to_vec(),
                    threads_per_warp: ffi::ttgBlockedGetField(raw, 1).to_vec(),
                    warps_per_cta: ffi::ttgBlockedGetField(raw, 2).to_vec(),
                    order: ffi::ttgBlockedGetField(raw, 3).to_vec(),
                    cga: bases(ffi::ttgEncodingGetCGALayout(raw)),
                },
                ffi::ENC_SLICE => Layout::Slice {
                    dim: ffi::ttgSliceGetDim(raw),
                    parent: Self::read_raw(ffi::ttgSliceGetParent(raw)).map(Box::new),
                },
                ffi::ENC_DOT_OPERAND => Layout::DotOperand {
                    op_idx: ffi::ttgDotOperandGetOpIdx(raw),
                    k_width: ffi::ttgDotOperandGetKWidth(raw),
                    parent: Self::read_raw(ffi::ttgDotOperandGetParent(raw)).map(Box::new),
                },
                ffi::ENC_NVIDIA_MMA => Layout::NvidiaMma {
                    version_major: ffi::ttgNvidiaMmaGetVersionMajor(raw),
                    version_minor: ffi::ttgNvidiaMmaGetVersionMinor(raw),
                    warps_per_cta: ffi::ttgNvidiaMmaGetWarpsPerCTA(raw).to_vec(),
                    instr_shape: ffi::ttgNvidiaMmaGetInstrShape(raw).to_vec(),
                    cga: bases(ffi::ttgEncodingGetCGALayout(raw)),
                },
                ffi::ENC_AMD_MFMA => Layout::AmdMfma {
                    version: ffi::ttgAmdMfmaGetField(raw, 0),
                    is_transposed: ffi::ttgAmdMfmaGetField(raw, 1) != 0,
                    element_bit_width: ffi::ttgAmdMfmaGetField(raw, 2),
                    warps_per_cta: ffi::ttgAmdMfmaGetArray(raw, 0).to_vec(),
                    instr_shape: ffi::ttgAmdMfmaGetArray(raw, 1).to_vec(),
                    tiles_per_warp: ffi::ttgAmdMfmaGetArray(raw, 2).to_vec(),
                    cga: bases(ffi::ttgEncodingGetCGALayout(raw)),
                },
                ffi::ENC_AMD_WMMA => Layout::AmdWmma {
                    version: ffi::ttgAmdWmmaGetField(raw, 0),
                    is_transposed: ffi::ttgAmdWmmaGetField(raw, 1) != 0,
                    warps_per_cta: ffi::ttgAmdWmmaGetArray(raw, 0).to_vec(),
                    tiles_per_warp: ffi::ttgAmdWmmaGetArray(raw, 1).to_vec(),
                    instr_shape: ffi::ttgAmdWmmaGetArray(raw, 2).to_vec(),
                    cga: bases(ffi::ttgEncodingGetCGALayout(raw)),
                },
                ffi::ENC_LINEAR => Layout::Linear {
                    register: bases(ffi::ttgLinearGetBases(raw, 0)),
                    lane: bases(ffi::ttgLinearGetBases(raw, 1)),
                    warp: bases(ffi::ttgLinearGetBases(raw, 2)),
                    block: bases(ffi::ttgLinearGetBases(raw, 3)),
                },
                ffi::ENC_SWIZZLED_SHARED => Layout::SwizzledShared {
                    vec: ffi::ttgSwizzledSharedGetField(raw, 0),
                    per_phase: ffi::ttgSwizzledSharedGetField(raw, 1),
                    max_phase: ffi::ttgSwizzledSharedGetField(raw, 2),
                    order: ffi::ttgSwizzledSharedGetOrder(raw).to_vec(),
                    cga: bases(ffi::ttgEncodingGetCGALayout(raw)),
                },
                ffi::ENC_AMD_ROTATING_SHARED => Layout::AmdRotatingShared {
                    vec: ffi::ttgAmdRotatingSharedGetField(raw, 0),
                    per_phase: ffi::ttgAmdRotatingSharedGetField(raw, 1),
                    max_phase: ffi::ttgAmdRotatingSharedGetField(raw, 2),
                    order: ffi::ttgAmdRotatingSharedGetOrder(raw).to_vec(),
                    cga: bases(ffi::ttgEncodingGetCGALayout(raw)),
                },
                ffi::ENC_NVMMA_SHARED => Layout::NvmmaShared {
                    swizzling_byte_width: ffi::ttgNVMMASharedGetField(raw, 0),
                    transposed: ffi::ttgNVMMASharedGetField(raw, 1) != 0,
                    element_bit_width: ffi::ttgNVMMASharedGetField(raw, 2),
                    fp4_padded: ffi::ttgNVMMASharedGetField(raw, 3) != 0,
                    rank: ffi::ttgNVMMASharedGetField(raw, 4),
                    cga: bases(ffi::ttgEncodingGetCGALayout(raw)),
                },
                ffi::ENC_SHARED_LINEAR => Layout::SharedLinear {
                    offset: bases(ffi::ttgSharedLinearGetBases(raw, 0)),
                    block: bases(ffi::ttgSharedLinearGetBases(raw, 1)),
                    alignment: ffi::ttgSharedLinearGetAlignment(raw),
                },
                ffi::ENC_PADDED_SHARED => Layout::PaddedShared {
                    intervals: ffi::ttgPaddedSharedGetField(raw, 0).to_vec(),
                    paddings: ffi::ttgPaddedSharedGetField(raw, 1).to_vec(),
                    offsets: bases(ffi::ttgPaddedSharedGetLayoutField(raw, 0)),
                    block: bases(ffi::ttgPaddedSharedGetLayoutField(raw, 1)),
                    order: integers(ffi::ttgPaddedSharedGetLayoutField(raw, 2)),
                    shape: integers(ffi::ttgPaddedSharedGetLayoutField(raw, 3)),
                },
                _ => return None,
            })
        }
    }

    /// Distributed layouts map tensor elements to threads; the others
    /// describe shared memory.
    pub fn is_distributed(&self) -> bool {
        matches!(
            self,
            Layout::Blocked { .. }
                | Layout::Slice { .. }
                | Layout::DotOperand { .. }
                | Layout::NvidiaMma { .. }
                | Layout::AmdMfma { .. }
                | Layout::AmdWmma { .. }
                | Layout::Linear { .. }
        )
    }

    /// Triton's `MmaEncodingTrait`: the result layouts of matrix-core
    /// instructions (NVIDIA MMA, AMD MFMA and WMMA).
    pub fn is_mma(&self) -> bool {
        matches!(
            self,
            Layout::NvidiaMma { .. } | Layout::AmdMfma { .. } | Layout::AmdWmma { .. }
        )
    }

    /// The AMD encoding (`amd_mfma`, `amd_wmma`, `amd_rotating_shared`)
    /// the layout is, or is built on (as a slice or a dot operand), if any.
    pub fn amd_encoding(&self) -> Option<&'static str> {
        match self {
            Layout::AmdMfma { .. } => Some("amd_mfma"),
            Layout::AmdWmma { .. } => Some("amd_wmma"),
            Layout::AmdRotatingShared { .. } => Some("amd_rotating_shared"),
            Layout::Slice { parent, .. } | Layout::DotOperand { parent, .. } => {
                parent.as_deref().and_then(Layout::amd_encoding)
            }
            _ => None,
        }
    }

    /// The tensor rank the layout describes, when it is determined.
    pub fn rank(&self) -> Option<usize> {
        match self {
            Layout::Blocked { order, .. }
            | Layout::SwizzledShared { order, .. }
            | Layout::AmdRotatingShared { order, .. } => Some(order.len()),
            Layout::Slice { parent, .. } => parent.as_ref()?.rank()?.checked_sub(1),
            Layout::DotOperand { parent, .. } => parent.as_ref()?.rank(),
            Layout::NvidiaMma { warps_per_cta, .. }
            | Layout::AmdMfma { warps_per_cta, .. }
            | Layout::AmdWmma { warps_per_cta, .. } => Some(warps_per_cta.len()),
            Layout::Linear {
                register,
                lane,
                warp,
                block,
            } => [register, lane, warp, block]
                .iter()
                .find_map(|b| b.first().map(Vec::len)),
            Layout::NvmmaShared { rank, .. } => Some(*rank as usize),
            Layout::SharedLinear { offset, block, .. } => {
                [offset, block].iter().find_map(|b| b.first().map(Vec::len))
            }
            Layout::PaddedShared {
                offsets,
                block,
                shape,
                ..
            } => {
                if offsets.is_empty() && block.is_empty() {
                    Some(shape.len())
                } else {
                    [offsets, block]
                        .iter()
                        .find_map(|b| b.first().map(Vec::len))
                }
            }
        }
    }

    /// Lanes of a warp that the layout spans.
    pub fn lanes(&self) -> Option<u64> {
        match self {
            Layout::Blocked {
                threads_per_warp, ..
            } => Some(product(threads_per_warp)),
            Layout::Slice { parent, .. } | Layout::DotOperand { parent, .. } => {
                parent.as_ref()?.lanes()
            }
            Layout::NvidiaMma { .. } | Layout::AmdWmma { .. } => Some(32),
            // MFMA instructions work on 64-lane wavefronts.
            Layout::AmdMfma { .. } => Some(64),
            Layout::Linear { lane, .. } => Some(1u64 << lane.len().min(63)),
            _ => None,
        }
    }

    /// Warps of a CTA that the layout spans.
    pub fn warps(&self) -> Option<u64> {
        match self {
            Layout::Blocked { warps_per_cta, .. }
            | Layout::NvidiaMma { warps_per_cta, .. }
            | Layout::AmdMfma { warps_per_cta, .. }
            | Layout::AmdWmma { warps_per_cta, .. } => Some(product(warps_per_cta)),
            Layout::Slice { parent, .. } | Layout::DotOperand { parent, .. } => {
                parent.as_ref()?.warps()
            }
            Layout::Linear { warp, .. } => Some(1u64 << warp.len().min(63)),
            _ => None,
        }
    }

    /// CTAs of a CGA that the layout spans.
    pub fn ctas(&self) -> Option<u64> {
        match self {
            Layout::PaddedShared { .. } => None,
            _ => self.cga_bases().map(|bases| 1u64 << bases.len().min(63)),
        }
    }

    /// The rules of the encoding itself (independent of any tensor).
    pub fn check(&self) -> Result<(), String> {
        match self {
            Layout::Blocked {
                size_per_thread,
                threads_per_warp,
                warps_per_cta,
                order,
                cga,
            } => {
                let rank = order.len();
                if rank == 0 {
                    return Err("a blocked layout needs at least one dimension".into());
                }
                for (name, values) in [
                    ("sizePerThread", size_per_thread),
                    ("threadsPerWarp", threads_per_warp),
                    ("warpsPerCTA", warps_per_cta),
                ] {
                    if values.len() != rank {
                        return Err(format!(
                            "{name} has {} entries, but order has {rank}: all must have the same rank",
                            values.len()
                        ));
                    }
                    powers_of_two(name, values)?;
                }
                permutation("order", order)?;
                check_bases("CGALayout", cga, rank)
            }
            Layout::Slice { dim, parent } => {
                // Triton's parser and verifier messages, in their order.
                let parent = parent
                    .as_ref()
                    .ok_or("expected a distributed encoding trait")?;
                if !parent.is_distributed() {
                    return Err("expected a distributed encoding trait".into());
                }
                match parent.rank() {
                    Some(rank) if rank <= 1 => {
                        Err("parent layout must have at least rank >= 2".into())
                    }
                    Some(rank) if (*dim as usize) >= rank => Err(format!(
                        "slice dim={dim} must be less than the parent rank={rank}"
                    )),
                    _ => Ok(()),
                }
            }
            Layout::DotOperand {
                op_idx,
                k_width,
                parent,
            } => {
                // Triton's rules, in its order and words.
                if *op_idx > 1 {
                    return Err(format!(
                        "ttg.dot_op opIdx parameter can be 0 or 1, got: {op_idx}"
                    ));
                }
                match parent.as_deref() {
                    Some(Layout::Blocked { .. }) => {
                        if *k_width != 0 {
                            return Err("ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout".into());
                        }
                        Ok(())
                    }
                    Some(Layout::NvidiaMma { version_major, .. }) => {
                        let ampere_or_hopper = matches!(version_major, 2 | 3);
                        if *k_width != 0 && !ampere_or_hopper {
                            return Err("ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent".into());
                        }
                        if *k_width == 0 && ampere_or_hopper {
                            return Err("ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent".into());
                        }
                        if *version_major == 3 && *op_idx != 0 {
                            return Err("ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only allows first operand to be in registers".into());
                        }
                        Ok(())
                    }
                    Some(Layout::AmdWmma { version, .. }) => match version {
                        1 if ![8, 16].contains(k_width) => Err("ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 (including packed cases for `scaled_dot`)".into()),
                        2 if ![4, 8, 16].contains(k_width) => Err("ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2 (including packed cases for `scaled_dot`)".into()),
                        3 if *k_width == 0 => Err("ttg.dot_op kWidth parameter is mandatory for WMMA v3 ".into()),
                        _ => Ok(()),
                    },
                    Some(Layout::AmdMfma { .. }) if *k_width == 0 => {
                        Err("ttg.dot_op kWidth parameter is mandatory for MFMA parent".into())
                    }
                    Some(Layout::AmdMfma { .. }) | Some(Layout::Linear { .. }) => Ok(()),
                    _ => Err("the parent of a dot operand must be a blocked, linear, nvidia_mma, amd_mfma or amd_wmma encoding".into()),
                }
            }
            Layout::NvidiaMma {
                version_major,
                warps_per_cta,
                instr_shape,
                cga,
                ..
            } => {
                if !(1..=3).contains(version_major) {
                    return Err(format!(
                        "versionMajor must be 1, 2 or 3, got {version_major}"
                    ));
                }
                if warps_per_cta.is_empty() {
                    return Err("warpsPerCTA must not be empty".into());
                }
                powers_of_two("warpsPerCTA", warps_per_cta)?;
                // Version 3 is `[m, n, k]` (Triton also accepts `[m, n]`,
                // which no wgmma lowering can take); version 2 has one
                // entry per dimension (`[16, 8]`, batched `[1, 16, 8]`).
                let expected: &[usize] = match version_major {
                    3 => &[2, 3],
                    _ => &[warps_per_cta.len()],
                };
                if *version_major >= 2 && !expected.contains(&instr_shape.len()) {
                    return Err(format!(
                        "instrShape must have {} entries for version {version_major}, got {}",
                        expected[expected.len() - 1],
                        instr_shape.len()
                    ));
                }
                check_bases("CGALayout", cga, warps_per_cta.len())
            }
            Layout::AmdMfma {
                version,
                warps_per_cta,
                instr_shape,
                tiles_per_warp,
                element_bit_width,
                cga,
                ..
            } => {
                // Triton's rules and messages first.
                if *version > 4 {
                    return Err("version must be in the [0, 4] range".into());
                }
                let [m, n, ..] = instr_shape[..] else {
                    return Err(format!(
                        "instrShape must give at least M and N, got {instr_shape:?}"
                    ));
                };
                if ![(32, 32), (16, 16), (64, 4), (4, 64)].contains(&(m, n)) {
                    return Err(format!("invalid (mDim, nDim) combination: ({m}, {n})"));
                }
                if ![32, 64].contains(element_bit_width) {
                    return Err("elementBitWidth must be 32 or 64".into());
                }
                check_amd_mma_warps("amd_mfma", warps_per_cta, tiles_per_warp)?;
                check_bases("CGALayout", cga, warps_per_cta.len())
            }
            Layout::AmdWmma {
                version,
                warps_per_cta,
                tiles_per_warp,
                instr_shape,
                cga,
                ..
            } => {
                let valid: &[[u32; 3]] = match version {
                    1 => &[[16, 16, 16]],
                    2 => &[[16, 16, 16], [16, 16, 32]],
                    3 => &[[16, 16, 4], [16, 16, 32], [16, 16, 64], [16, 16, 128]],
                    _ => return Err("WMMA version must be in the [1, 3] range".into()),
                };
                if !valid.iter().any(|v| v[..] == instr_shape[..]) {
                    return Err(format!("invalid WMMA v{version} instruction shape"));
                }
                check_amd_mma_warps("amd_wmma", warps_per_cta, tiles_per_warp)?;
                check_bases("CGALayout", cga, warps_per_cta.len())
            }
            Layout::Linear {
                register,
                lane,
                warp,
                block,
            } => {
                let rank = self.rank().unwrap_or(0);
                for (name, b) in [
                    ("register", register),
                    ("lane", lane),
                    ("warp", warp),
                    ("block", block),
                ] {
                    check_bases(name, b, rank)?;
                }
                Ok(())
            }
            Layout::SwizzledShared {
                vec,
                per_phase,
                max_phase,
                order,
                cga,
            }
            | Layout::AmdRotatingShared {
                vec,
                per_phase,
                max_phase,
                order,
                cga,
            } => {
                for (name, v) in [
                    ("vec", vec),
                    ("perPhase", per_phase),
                    ("maxPhase", max_phase),
                ] {
                    if *v == 0 {
                        return Err(format!("{name} must be positive"));
                    }
                }
                if order.is_empty() {
                    return Err("order must not be empty".into());
                }
                permutation("order", order)?;
                check_bases("CGALayout", cga, order.len())
            }
            Layout::NvmmaShared {
                swizzling_byte_width,
                element_bit_width,
                rank,
                cga,
                ..
            } => {
                if ![0, 32, 64, 128].contains(swizzling_byte_width) {
                    return Err(format!(
                        "swizzlingByteWidth must be 0, 32, 64 or 128, got {swizzling_byte_width}"
                    ));
                }
                if ![4, 8, 16, 32, 64].contains(element_bit_width) {
                    return Err(format!(
                        "elementBitWidth must be 4, 8, 16, 32 or 64, got {element_bit_width}"
                    ));
                }
                if *rank == 0 {
                    return Err("rank must be positive".into());
                }
                check_bases("CGALayout", cga, *rank as usize)
            }
            Layout::SharedLinear {
                offset,
                block,
                alignment,
            } => {
                if !alignment.is_power_of_two() {
                    return Err(format!("alignment must be a power of two, got {alignment}"));
                }
                let rank = self.rank().unwrap_or(0);
                check_bases("offset", offset, rank)?;
                check_bases("block", block, rank)
            }
            Layout::PaddedShared {
                intervals,
                paddings,
                offsets,
                ..
            } => {
                if intervals.is_empty() {
                    return Err("at least one interval:padding pair is required".into());
                }
                // Triton's words.
                if !intervals.iter().all(|v| v.is_power_of_two()) {
                    return Err(format!(
                        "interval values must all be power of two, got {intervals:?}"
                    ));
                }
                if !paddings.iter().all(|v| v.is_power_of_two()) {
                    return Err(format!(
                        "padding values must all be power of two, got {paddings:?}"
                    ));
                }
                let mut sorted = intervals.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if sorted.len() != intervals.len() {
                    return Err("interval values cannot have duplicates".into());
                }
                if offsets
                    .iter()
                    .flatten()
                    .any(|&b| b != 0 && !(b > 0 && (b as u64).is_power_of_two()))
                {
                    return Err("Each offset basis must be 0 or a power of two".into());
                }
                Ok(())
            }
        }
    }
}

fn product(values: &[u32]) -> u64 {
    values.iter().map(|&v| u64::from(v)).product()
}

fn powers_of_two(name: &str, values: &[u32]) -> Result<(), String> {
    match values.iter().find(|v| !v.is_power_of_two()) {
        Some(v) => Err(format!(
            "every entry of {name} must be a power of two, got {v}"
        )),
        None => Ok(()),
    }
}

/// What Triton's AMD MMA layouts assume without checking (its linear
/// layouts index `tilesPerWarp` by dimension and treat rank 3 as batched):
/// rank 2 or 3, warp and tile counts that are powers of two.
fn check_amd_mma_warps(
    kind: &str,
    warps_per_cta: &[u32],
    tiles_per_warp: &[u32],
) -> Result<(), String> {
    let rank = warps_per_cta.len();
    if !(2..=3).contains(&rank) {
        return Err(format!(
            "an {kind} layout must have rank 2 or 3, got warpsPerCTA {warps_per_cta:?}"
        ));
    }
    powers_of_two("warpsPerCTA", warps_per_cta)?;
    if tiles_per_warp.len() < rank {
        return Err(format!(
            "tilesPerWarp needs an entry for each of the {rank} dimensions, got {tiles_per_warp:?}"
        ));
    }
    powers_of_two("tilesPerWarp", tiles_per_warp)
}

fn permutation(name: &str, order: &[u32]) -> Result<(), String> {
    let mut seen = vec![false; order.len()];
    for &d in order {
        match seen.get_mut(d as usize) {
            Some(slot) if !*slot => *slot = true,
            _ => {
                return Err(format!(
                    "{name} {order:?} must be a permutation of 0..{}",
                    order.len()
                ))
            }
        }
    }
    Ok(())
}

fn check_bases(name: &str, bases: &[Vec<i64>], rank: usize) -> Result<(), String> {
    match bases.iter().find(|b| b.len() != rank) {
        Some(b) => Err(format!(
            "every basis vector of {name} must have {rank} entries, got {b:?}"
        )),
        None => Ok(()),
    }
}

/// A memory descriptor's parts.
#[derive(Clone, Debug)]
pub struct MemDesc<'c> {
    pub shape: Vec<i64>,
    pub alloc_shape: Vec<i64>,
    pub element: Type<'c>,
    pub encoding: Attribute<'c>,
    pub memory_space: Attribute<'c>,
    pub mutable: bool,
}

impl<'c> MemDesc<'c> {
    /// Whether the view is its whole allocation: the allocation's trailing
    /// dimensions are the view's shape (no `memdesc_subslice` in between).
    pub fn is_whole_allocation(&self) -> bool {
        let rank = self.shape.len();
        self.alloc_shape.len() >= rank
            && self.alloc_shape[self.alloc_shape.len() - rank..] == self.shape[..]
    }

    /// The part of the buffer one CTA of a thread-block cluster holds and,
    /// per bit of the CTA's id, the coordinates its part starts at: where
    /// the encoding splits the buffer across the cluster (a CGA layout,
    /// in tiles, or shared linear block bases, in elements), each
    /// dimension's extent over the CTAs that split it, those CTAs' tiles
    /// one after another along it; the view itself and its encoding's
    /// (zero) bases otherwise. A split view must be its whole allocation.
    pub fn per_cta(&self) -> Result<(Self, Vec<Vec<i64>>), String> {
        let (bases, in_tiles) = match Layout::read(self.encoding) {
            Some(
                Layout::NvmmaShared { cga, .. }
                | Layout::SwizzledShared { cga, .. }
                | Layout::AmdRotatingShared { cga, .. },
            ) => (cga, true),
            Some(Layout::SharedLinear { block, .. } | Layout::PaddedShared { block, .. }) => {
                (block, false)
            }
            _ => return Ok((self.clone(), Vec::new())),
        };
        if bases.iter().flatten().all(|&x| x == 0) {
            return Ok((self.clone(), bases));
        }
        let bad = || {
            format!(
                "a {:?} view of a {:?} buffer split across the CTAs of a cluster this way is not supported yet",
                self.shape, self.alloc_shape
            )
        };
        if self.alloc_shape != self.shape {
            return Err(bad());
        }
        let tile = crate::to_linear::cta_tile(&self.shape, &bases, in_tiles).ok_or_else(bad)?;
        let offsets = bases
            .iter()
            .map(|b| {
                b.iter()
                    .zip(&tile)
                    .map(|(&x, &t)| if in_tiles { x * t } else { x })
                    .collect()
            })
            .collect();
        let local = Self {
            shape: tile.clone(),
            alloc_shape: tile,
            ..self.clone()
        };
        Ok((local, offsets))
    }

    /// Reads `ty` if it is a `!ttg.memdesc`.
    pub fn of(ty: Type<'c>) -> Option<Self> {
        let raw = ty.to_raw();
        unsafe {
            if !ffi::ttgTypeIsAMemDesc(raw) {
                return None;
            }
            let dims = |field| {
                let mut ptr = std::ptr::null();
                let n = ffi::ttgMemDescGetDims(raw, field, &mut ptr);
                if ptr.is_null() || n <= 0 {
                    Vec::new()
                } else {
                    std::slice::from_raw_parts(ptr, n as usize).to_vec()
                }
            };
            Some(Self {
                shape: dims(0),
                alloc_shape: dims(1),
                element: Type::from_raw(ffi::ttgMemDescGetElementType(raw)),
                encoding: Attribute::from_raw(ffi::ttgMemDescGetEncoding(raw)),
                memory_space: Attribute::from_raw(ffi::ttgMemDescGetMemorySpace(raw)),
                mutable: ffi::ttgMemDescIsMutable(raw),
            })
        }
    }

    /// The `!ttg.memdesc` type of these parts (the allocation shape printed
    /// only where it differs from the shape).
    pub fn to_type(&self) -> Type<'c> {
        // SAFETY: live element type and attributes of one context; the
        // slices outlive the call, which copies them.
        unsafe {
            Type::from_raw(ffi::ttgMemDescTypeGet(
                self.shape.len() as isize,
                self.shape.as_ptr(),
                self.element.to_raw(),
                self.encoding.to_raw(),
                self.memory_space.to_raw(),
                self.mutable,
                self.alloc_shape.len() as isize,
                self.alloc_shape.as_ptr(),
            ))
        }
    }

    /// Triton's rules for memory descriptors (`MemDescType::verify`), in
    /// its order and words.
    pub fn check(&self) -> Result<(), String> {
        let (shape, alloc) = (&self.shape, &self.alloc_shape);
        if shape.is_empty() {
            return Err("rank 0 memdesc is not allowed".into());
        }
        // Every dimension but the first (kept for pipelining) is a power of 2.
        if shape[1..].iter().any(|&d| d <= 0 || d & (d - 1) != 0) {
            return Err(format!(
                "shape must have power-of-2 and non-zero dimensions; got {}",
                crate::tmem::list(shape)
            ));
        }
        if alloc.len() < shape.len() {
            return Err("alloc shape must have at least as many dimensions as shape".into());
        }
        let tail = &alloc[alloc.len() - shape.len()..];
        if shape.iter().zip(tail).any(|(s, a)| s > a) {
            return Err(format!(
                "shape must be less than or equal to allocShape. shape = {}, allocShape = {}",
                crate::tmem::list(shape),
                crate::tmem::list(alloc)
            ));
        }
        if let Some(tmem) = crate::tmem::TmemEncoding::read(self.encoding) {
            return tmem.check_memdesc(self);
        }
        let layout = match Layout::read(self.encoding) {
            Some(layout) if !layout.is_distributed() => layout,
            _ => return Err(format!("{} is not a valid encoding", self.encoding)),
        };
        if let Layout::NvmmaShared {
            element_bit_width: 0,
            ..
        } = layout
        {
            return Err(format!(
                "{} has no elementBitWidth, and {} elements do not give one",
                self.encoding, self.element
            ));
        }
        if memory_space(self.memory_space) != Some(MemorySpace::Shared) {
            return Err(format!(
                "memorySpace must be SharedMemorySpace for shared encoding. Got {}",
                self.memory_space
            ));
        }
        let rank = layout.rank().unwrap_or(0);
        if rank != shape.len() && rank + 1 != shape.len() {
            return Err(format!(
                "rank must be equal to or one less than the shape size. Got {rank} and {}",
                shape.len()
            ));
        }
        if let Layout::PaddedShared { .. } = layout {
            // The linear component spans the allocation, less a pipelining
            // dimension.
            let component = crate::to_linear::padded_linear_component(&layout)?;
            let expected = if rank + 1 == alloc.len() {
                &alloc[1..]
            } else {
                &alloc[..]
            };
            let dims = crate::to_linear::standard_out_dim_names(rank);
            for (d, (name, &want)) in dims.iter().zip(expected).enumerate() {
                let got = component.out_dim_size(name);
                if i64::from(got) != want {
                    return Err(format!(
                        "Mismatch in expected shape for dimension {d}. Expected: {want}, got: {got}"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Triton's TMA block (`getTMABlockShape`): the box one TMA message moves
/// of a tile of `shape` in an NVMMA layout of `swizzle_bytes` (0: not
/// swizzled): every dimension at most 256 elements and, when swizzled, the
/// contiguous one (the first when `transposed`, else the last) exactly one
/// swizzle of `element_bits` elements wide.
pub fn tma_block_shape(
    shape: &[i64],
    element_bits: u32,
    swizzle_bytes: u32,
    transposed: bool,
) -> Vec<i64> {
    let mut block: Vec<i64> = shape.iter().map(|&d| d.min(256)).collect();
    if swizzle_bytes != 0 && !block.is_empty() {
        let contiguous = if transposed { 0 } else { block.len() - 1 };
        block[contiguous] = i64::from(swizzle_bytes) * 8 / i64::from(element_bits.max(1));
    }
    block
}

/// An NVMMA shared layout without swizzle, as Triton lays it out: each TMA
/// block (Triton's `getTMABlockShape`: every dimension at most 256)
/// row-major, the blocks one after another, those along dimension 0
/// first. Only for a view that is its whole allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnswizzledNvmma {
    pub shape: Vec<i64>,
    pub block: Vec<i64>,
}

impl UnswizzledNvmma {
    /// The layout of `desc`, `None` unless it is an unswizzled NVMMA view
    /// of its whole allocation whose shape the blocks tile.
    pub fn of(desc: &MemDesc) -> Option<Self> {
        let Some(Layout::NvmmaShared {
            swizzling_byte_width: 0,
            fp4_padded: false,
            ..
        }) = Layout::read(desc.encoding)
        else {
            return None;
        };
        let rank = desc.shape.len();
        let whole = desc.is_whole_allocation();
        let block = tma_block_shape(&desc.shape, 8, 0, false);
        let tiles = desc
            .shape
            .iter()
            .zip(&block)
            .all(|(&s, &b)| b > 0 && s % b == 0);
        (rank > 0 && whole && tiles).then(|| Self {
            shape: desc.shape.clone(),
            block,
        })
    }

    /// Elements of one block.
    pub fn block_elements(&self) -> i64 {
        self.block.iter().product()
    }

    /// Where element `coordinates` lives, in elements from the base.
    pub fn offset(&self, coordinates: &[i64]) -> i64 {
        let rank = self.shape.len();
        let within = (0..rank).fold(0, |acc, d| {
            acc * self.block[d] + coordinates[d] % self.block[d]
        });
        let index = (0..rank).rev().fold(0, |acc, d| {
            acc * (self.shape[d] / self.block[d]) + coordinates[d] / self.block[d]
        });
        index * self.block_elements() + within
    }
}

/// An NVMMA shared layout (the swizzles of wgmma and TMA) over a 2-D
/// allocation: rows of the contiguous dimension, `swizzle` bytes each,
/// eight rows to a swizzle pattern; the 16-byte chunks of row `r` permuted
/// by `(r / per_phase) % max_phase` (per_phase = 128 / swizzle, max_phase
/// = swizzle / 16). A contiguous dimension longer than a row is cut into
/// column blocks of `swizzle` bytes. Triton lays the buffer out in TMA
/// boxes of at most 256 rows, the boxes along dimension 0 first: a column
/// block holds every row unless the layout is transposed with more than
/// 256 rows, where each group of 256 rows holds all its column blocks
/// before the next group starts.
///
/// A view is read through its allocation's geometry (the allocation
/// shape's last two dimensions), element (r, c) of the view where element
/// (r, c) of the allocation would be, relative to the view's base, as
/// Triton addresses a sub-tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nvmma {
    /// The bytes of a row (32, 64 or 128; 0 is not swizzled).
    pub swizzle: i64,
    /// The view's contiguous dimension (0 when transposed, else 1).
    pub inner: usize,
    /// Elements of the contiguous dimension in one row.
    pub row_elements: i64,
    /// Rows: the allocation's extent of the other dimension.
    pub rows: i64,
    /// The allocation's extent of the contiguous dimension.
    pub columns: i64,
    /// Rows a column block holds before the next block starts.
    pub block_rows: i64,
    pub element_bits: i64,
}

impl Nvmma {
    /// The layout of the view `desc`, or why it is not supported: 2-D, or
    /// of more dimensions and not transposed, whose leading dimensions
    /// Triton folds into the rows (see [`Nvmma::row_of`]); such a view
    /// must be its whole allocation. The layout's element width must be
    /// the view's (as wgmma and TMA read it).
    pub fn of(desc: &MemDesc) -> Result<Self, String> {
        Self::read(desc, true)
    }

    /// [`Nvmma::of`] where the layout's element width may differ from the
    /// view's: element offsets, rows and swizzle chunks counted in the
    /// layout's elements, as Triton's linear layout of the encoding counts
    /// them (how a plain load or store addresses such a buffer).
    pub fn of_elements(desc: &MemDesc) -> Result<Self, String> {
        Self::read(desc, false)
    }

    fn read(desc: &MemDesc, same_width: bool) -> Result<Self, String> {
        let Some(Layout::NvmmaShared {
            swizzling_byte_width,
            transposed,
            element_bit_width,
            fp4_padded,
            ..
        }) = Layout::read(desc.encoding)
        else {
            return Err("expected an NVMMA shared layout".into());
        };
        let bits = tt_dialect::types::bit_width(desc.element);
        let rank = desc.shape.len();
        if rank > 2 {
            if transposed || !desc.is_whole_allocation() {
                return Err(format!(
                    "{rank}-D NVMMA shared views that are transposed or part of their allocation are not supported yet"
                ));
            }
            let rows = desc.shape[..rank - 1].iter().product::<i64>();
            let folded = MemDesc {
                shape: vec![rows, desc.shape[rank - 1]],
                alloc_shape: vec![rows, desc.shape[rank - 1]],
                ..desc.clone()
            };
            return Self::read(&folded, same_width);
        }
        if fp4_padded
            || rank != 2
            || swizzling_byte_width == 0
            || same_width && Some(element_bit_width) != bits
            || ![8, 16, 32, 64].contains(&element_bit_width)
        {
            return Err(
                "NVMMA shared views other than 2-D and swizzled (32, 64 or 128 bytes) are not supported yet"
                    .into(),
            );
        }
        let alloc = match desc.alloc_shape.len() {
            n if n >= 2 => [desc.alloc_shape[n - 2], desc.alloc_shape[n - 1]],
            _ => [desc.shape[0], desc.shape[1]],
        };
        let layout = Self::new(
            alloc,
            swizzling_byte_width as i64,
            transposed,
            element_bit_width as i64,
        );
        match layout {
            Some(layout) if desc.shape[0] <= alloc[0] && desc.shape[1] <= alloc[1] => Ok(layout),
            _ => Err(format!(
                "a {}x{} view of a {}x{} NVMMA shared buffer with {swizzling_byte_width}-byte rows is not supported yet",
                desc.shape[0], desc.shape[1], alloc[0], alloc[1]
            )),
        }
    }

    /// The layout of a 2-D allocation of shape `alloc`, rows of `swizzle`
    /// bytes (32, 64 or 128), `None` where its extents do not tile.
    pub fn new(alloc: [i64; 2], swizzle: i64, transposed: bool, element_bits: i64) -> Option<Self> {
        let inner = if transposed { 0 } else { 1 };
        let row_elements = swizzle * 8 / element_bits;
        let (rows, columns) = (alloc[1 - inner], alloc[inner]);
        let block_rows = if transposed { rows.min(256) } else { rows };
        if row_elements <= 0
            || columns % row_elements != 0
            || rows % 8 != 0
            || rows % block_rows != 0
        {
            return None;
        }
        Some(Nvmma {
            swizzle,
            inner,
            row_elements,
            rows,
            columns,
            block_rows,
            element_bits,
        })
    }

    /// The view's contiguous dimension among its `rank` (`inner` in two
    /// dimensions, the last in more).
    pub fn contiguous_dim(&self, rank: usize) -> usize {
        if rank > 2 {
            rank - 1
        } else {
            self.inner
        }
    }

    /// The row of element `coordinates` of a view of `shape`: its first
    /// coordinate in two dimensions (non-transposed), its leading
    /// coordinates folded row-major in more, as Triton folds them.
    pub fn row_of(shape: &[i64], coordinates: &[i64]) -> i64 {
        let rank = shape.len();
        (0..rank.saturating_sub(1)).fold(0, |row, d| row * shape[d] + coordinates[d])
    }

    /// Elements of one column block (its rows, one swizzle width).
    pub fn block_elements(&self) -> i64 {
        self.block_rows * self.row_elements
    }

    /// Where element (`row`, `column`) lives before the swizzle, in
    /// elements from the view's base (`column` along the contiguous
    /// dimension).
    pub fn unswizzled(&self, row: i64, column: i64) -> i64 {
        row / self.block_rows * self.block_rows * self.columns
            + column / self.row_elements * self.block_elements()
            + row % self.block_rows * self.row_elements
            + column % self.row_elements
    }

    /// Where element (`row`, `column`) lives, in elements from the view's
    /// base: [`Nvmma::unswizzled`] with the row's 16-byte chunks permuted.
    pub fn offset(&self, row: i64, column: i64) -> i64 {
        let chunk = 128 / self.element_bits;
        let within = column % self.row_elements;
        let phase = row / (128 / self.swizzle) % (self.swizzle / 16);
        let swizzled = ((within / chunk) ^ phase) * chunk + within % chunk;
        self.unswizzled(row, column) - within + swizzled
    }
}

/// Triton's `getEncodingFromDescriptor`: the shared layout of the buffer
/// through which a descriptor op moves a tile of `tile_shape`, from the
/// descriptor block's `encoding` of `block_shape`: the block's own, or,
/// where the tile drops the block's leading unit dimensions, the block's
/// layout at the tile's rank ([`Layout::for_tile_rank`]). `None` where that
/// layout has no text here (several CTAs).
pub fn descriptor_tile_encoding<'c>(
    encoding: Attribute<'c>,
    block_shape: &[i64],
    tile_shape: &[i64],
) -> Option<Attribute<'c>> {
    if block_shape == tile_shape {
        return Some(encoding);
    }
    let text = Layout::read(encoding)?
        .for_tile_rank(tile_shape.len())?
        .text()?;
    // SAFETY: the text is parsed in the live context of `encoding`, which
    // the attribute returned shares; a null result (no parse) is not
    // wrapped.
    unsafe {
        let context = mlir_sys::mlirAttributeGetContext(encoding.to_raw());
        let raw = mlir_sys::mlirAttributeParseGet(context, melior::StringRef::new(&text).to_raw());
        (!raw.ptr.is_null()).then(|| Attribute::from_raw(raw))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_operand_swizzles_as_triton() {
        // f16 A operand of mma v2, 128x64, order [1, 0], kWidth 2.
        assert_eq!(
            dot_operand_swizzle(0, 2, &[128, 64], &[1, 0], 16, false),
            (8, 1, 8)
        );
        // B operand with K fastest in memory order [1, 0]: vec/stride swap.
        assert_eq!(
            dot_operand_swizzle(1, 2, &[64, 128], &[1, 0], 16, false),
            (8, 1, 8)
        );
        // Small K packs rows: f16, K = 16.
        assert_eq!(
            dot_operand_swizzle(0, 2, &[16, 16], &[1, 0], 16, false),
            (8, 4, 2)
        );
        // fp32 with kWidth 1.
        assert_eq!(
            dot_operand_swizzle(0, 1, &[64, 32], &[1, 0], 32, false),
            (4, 1, 8)
        );
        // Stored before a transpose: the 16x32 f16 source of a 32x16 A
        // operand (Triton 3.6's SwizzleShmemConvert chose 8, 2, 4).
        assert_eq!(
            dot_operand_swizzle(0, 2, &[16, 32], &[1, 0], 16, true),
            (8, 2, 4)
        );
    }

    #[test]
    fn descriptor_layouts_follow_the_tile_rank() {
        // A rank-reducing load of a 3-D descriptor's 1x8x16 block.
        let nvmma = Layout::NvmmaShared {
            swizzling_byte_width: 64,
            transposed: false,
            element_bit_width: 32,
            fp4_padded: false,
            rank: 3,
            cga: Vec::new(),
        };
        assert_eq!(
            nvmma.for_tile_rank(2).and_then(|l| l.text()).as_deref(),
            Some("#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>")
        );
        let swizzled = |order: Vec<u32>| Layout::SwizzledShared {
            vec: 1,
            per_phase: 1,
            max_phase: 1,
            order,
            cga: Vec::new(),
        };
        let order = |l: Option<Layout>| match l {
            Some(Layout::SwizzledShared { order, .. }) => order,
            other => panic!("{other:?}"),
        };
        assert_eq!(order(swizzled(vec![2, 1, 0]).for_tile_rank(2)), [1, 0]);
        assert_eq!(order(swizzled(vec![0, 1, 2]).for_tile_rank(2)), [0, 1]);
        assert_eq!(order(swizzled(vec![1, 0]).for_tile_rank(3)), [2, 1, 0]);
        assert_eq!(
            swizzled(vec![1, 0]).text().as_deref(),
            Some("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>")
        );
    }

    #[test]
    fn nvmma_offsets_match_the_linear_layout() {
        // Every element's offset, against Triton's linear layout of the
        // same buffer: tall transposed buffers (256-row groups), tall
        // row-major ones, several swizzles and element widths.
        for (alloc, swizzle, transposed, bits) in [
            ([64, 512], 128, true, 16),
            ([128, 1024], 64, true, 8),
            ([512, 64], 128, false, 16),
            ([128, 128], 128, true, 16),
            ([64, 256], 32, false, 32),
            ([32, 64], 64, true, 16),
        ] {
            let nvmma = Nvmma::new(alloc, swizzle, transposed, bits).expect("tiles");
            let linear = crate::to_linear::nvmma_shared_to_linear(
                &alloc,
                swizzle as u32,
                transposed,
                bits as u32,
                false,
            )
            .expect("a layout");
            for offset in 0..(alloc[0] * alloc[1]) as i32 {
                let at = linear.apply_index(&[offset]);
                let (row, column) = (at[1 - nvmma.inner], at[nvmma.inner]);
                assert_eq!(
                    nvmma.offset(i64::from(row), i64::from(column)),
                    i64::from(offset),
                    "{alloc:?} swizzle {swizzle} transposed {transposed} at {at:?}"
                );
            }
        }
    }

    #[test]
    fn unswizzled_and_folded_nvmma_offsets_match_the_linear_layout() {
        let check = |shape: &[i64], swizzle: i64, bits: i64, offset_of: &dyn Fn(&[i64]) -> i64| {
            let linear = crate::to_linear::nvmma_shared_to_linear(
                shape,
                swizzle as u32,
                false,
                bits as u32,
                false,
            )
            .expect("a layout");
            for offset in 0..shape.iter().product::<i64>() as i32 {
                let at: Vec<i64> = linear
                    .apply_index(&[offset])
                    .iter()
                    .map(|&c| i64::from(c))
                    .collect();
                assert_eq!(
                    offset_of(&at),
                    i64::from(offset),
                    "{shape:?} swizzle {swizzle} at {at:?}"
                );
            }
        };
        // Unswizzled: 256-element blocks of each dimension, dimension 0's
        // blocks first.
        for shape in [
            &[2048][..],
            &[512, 64],
            &[2, 2, 8, 64],
            &[4, 4, 4, 16],
            &[8, 512],
        ] {
            let layout = UnswizzledNvmma {
                shape: shape.to_vec(),
                block: tma_block_shape(shape, 8, 0, false),
            };
            check(shape, 0, 32, &|c| layout.offset(c));
        }
        // Swizzled in three or four dimensions: the leading ones folded into
        // the rows.
        for (shape, swizzle, bits) in [
            (&[2, 16, 128][..], 128, 16),
            (&[2, 2, 8, 64], 128, 32),
            (&[4, 8, 32], 64, 16),
        ] {
            let rank = shape.len();
            let rows = shape[..rank - 1].iter().product::<i64>();
            let nvmma = Nvmma::new([rows, shape[rank - 1]], swizzle, false, bits).expect("tiles");
            check(shape, swizzle, bits, &|c| {
                nvmma.offset(Nvmma::row_of(shape, c), c[rank - 1])
            });
        }
    }

    #[test]
    fn nvmma_swizzle_follows_the_contiguous_rows() {
        let of = |shape: &[i64], order: &[u32], bits| match Layout::nvmma_shared_for(
            shape, order, bits, false,
        ) {
            Layout::NvmmaShared {
                swizzling_byte_width,
                transposed,
                ..
            } => (swizzling_byte_width, transposed),
            _ => unreachable!(),
        };
        // 64 f16 = 128 bytes per row.
        assert_eq!(of(&[128, 64], &[1, 0], 16), (128, false));
        // 16 f16 = 32 bytes, K-major B: transposed.
        assert_eq!(of(&[16, 64], &[0, 1], 16), (32, true));
        // 8 f16 = 16 bytes per row: below every swizzle width.
        assert_eq!(of(&[64, 8], &[1, 0], 16), (0, false));
        // Fewer than 8 rows: no swizzling.
        assert_eq!(of(&[4, 64], &[1, 0], 16), (0, false));
    }
}
