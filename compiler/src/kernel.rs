//! What the metadata says about a kernel, read from the IR: its arguments
//! and launch shape from the TTGIR module (before `make-llir` rewrites the
//! `tt.func`), its memory needs from the module attributes `make-llir`
//! sets.

use melior::ir::attribute::{ArrayAttribute, DictionaryAttribute, IntegerAttribute};
use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, Module, RegionLike, ValueLike};
use tt_dialect::types::{tensor_desc_block, TensorView};
use tt_metadata::{ArgType, KernelArg, KernelMetadata, TensorDescMeta};
use tt_passes::ttgir::tma_lowering::TmaBox;

use crate::module_int;

/// The kernel's arguments and launch shape.
pub struct Kernel {
    args: Vec<KernelArg>,
    tensordesc_meta: Vec<TensorDescMeta>,
    num_warps: u32,
    num_ctas: u32,
    threads_per_warp: u32,
}

/// Shared and scratch memory, from the module after `make-llir`.
pub struct Memory {
    shared: u32,
    global_scratch: (u32, u32),
    profile_scratch: (u32, u32),
    /// `ttg.total-num-warps`: the warps of a warp-specialized kernel, its
    /// partitions' included, which it must be launched with.
    total_warps: Option<u32>,
}

fn attr_u32(module: &Module, name: &str, default: u32) -> u32 {
    module_int(module, name)
        .and_then(|v| u32::try_from(v).ok())
        .unwrap_or(default)
}

impl Kernel {
    /// Reads the public `tt.func` of a TTGIR module and its attributes.
    pub fn read(module: &Module) -> Result<Self, String> {
        let body = module.body();
        let mut op = body.first_operation();
        let mut kernel = None;
        while let Some(current) = op {
            let private = current
                .attribute("sym_visibility")
                .is_ok_and(|v| v.to_string() == "\"private\"");
            if current.name().as_string_ref().as_str() == Ok("tt.func") && !private {
                if kernel.is_some() {
                    return Err("the module has more than one public tt.func".into());
                }
                kernel = Some(current);
            }
            op = current.next_in_block();
        }
        let kernel = kernel.ok_or("the module has no public tt.func (kernel)")?;
        let block = kernel
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .ok_or("the kernel has no body")?;
        let arg_attrs = kernel
            .attribute("arg_attrs")
            .ok()
            .and_then(|a| ArrayAttribute::try_from(a).ok());
        let mut args = Vec::new();
        let mut tensordesc_meta = Vec::new();
        for index in 0..block.argument_count() {
            let argument = block.argument(index).map_err(|e| e.to_string())?;
            let undescribed = |why: &str| {
                format!(
                    "kernel argument {index} has type {}, which the metadata cannot describe{why}",
                    argument.r#type()
                )
            };
            let ty = match tensor_desc_block(argument.r#type()) {
                Some(block) => {
                    let meta = TensorView::of(block)
                        .ok_or_else(|| "a descriptor of a tensor".to_string())
                        .and_then(|view| tma_descriptor(&view))
                        .map_err(|why| undescribed(&format!(" ({why})")))?;
                    tensordesc_meta.push(meta);
                    ArgType::TmaDescriptor
                }
                None => arg_type(&argument.r#type().to_string()).ok_or_else(|| undescribed(""))?,
            };
            let divisibility = arg_attrs
                .and_then(|a| a.element(index).ok())
                .and_then(|d| DictionaryAttribute::try_from(d).ok())
                .and_then(|d| d.element_by_name("tt.divisibility"))
                .and_then(|v| IntegerAttribute::try_from(v).ok())
                .and_then(|v| u64::try_from(v.value()).ok());
            args.push(KernelArg { ty, divisibility });
        }
        Ok(Self {
            args,
            tensordesc_meta,
            num_warps: attr_u32(module, "ttg.num-warps", 4),
            // A kernel compiled for one CTA and launched in clusters
            // (`CLUSTER_CTAS`) is launched as Triton launches `num_ctas`.
            num_ctas: attr_u32(module, "ttg.num-ctas", 1).max(attr_u32(
                module,
                tt_conversion::lowering::CLUSTER_CTAS,
                1,
            )),
            threads_per_warp: attr_u32(module, "ttg.threads-per-warp", 32),
        })
    }

    /// The full metadata.
    pub fn metadata(
        self,
        name: String,
        target: String,
        ptx_version: u32,
        memory: &Memory,
    ) -> KernelMetadata {
        KernelMetadata {
            name,
            target,
            ptx_version,
            num_warps: memory.total_warps.unwrap_or(self.num_warps),
            num_ctas: self.num_ctas,
            threads_per_warp: self.threads_per_warp,
            shared: memory.shared,
            global_scratch_size: memory.global_scratch.0,
            global_scratch_align: memory.global_scratch.1,
            profile_scratch_size: memory.profile_scratch.0,
            profile_scratch_align: memory.profile_scratch.1,
            args: self.args,
            tensordesc_meta: self.tensordesc_meta,
        }
    }
}

/// How Triton's launcher fills the TMA descriptor of a kernel argument
/// whose block is `block` (Triton's `getTensorDescMetadata` entry).
fn tma_descriptor(block: &TensorView) -> Result<TensorDescMeta, String> {
    let tma = TmaBox::of(block)?;
    if tma.fp4_padded {
        return Err("padded fp4 blocks are not supported yet".into());
    }
    let code = |v: i64| u32::try_from(v).map_err(|_| format!("field {v} out of range"));
    Ok(TensorDescMeta {
        swizzle: code(tma.swizzle_mode)?,
        elem_size: code(tma.element_bytes)?,
        elem_type: code(tma.element_type)?,
        block_size: tma.box_shape,
        fp4_padded: false,
    })
}

impl Memory {
    /// Reads `ttg.shared`, the scratch sizes and alignments (0 and 1
    /// when absent) and `ttg.total-num-warps`.
    pub fn read(module: &Module) -> Self {
        Self {
            total_warps: module_int(module, "ttg.total-num-warps")
                .and_then(|v| u32::try_from(v).ok()),
            shared: attr_u32(module, "ttg.shared", 0),
            global_scratch: (
                attr_u32(module, "ttg.global_scratch_memory_size", 0),
                attr_u32(module, "ttg.global_scratch_memory_alignment", 1),
            ),
            profile_scratch: (
                attr_u32(module, "ttg.profile_scratch_memory_size", 0),
                attr_u32(module, "ttg.profile_scratch_memory_alignment", 1),
            ),
        }
    }
}

/// `!tt.ptr<f32>` → `*f32`, `i32` → `i32`; global pointers only.
fn arg_type(text: &str) -> Option<ArgType> {
    match text.strip_prefix("!tt.ptr<") {
        Some(rest) => {
            let inner = rest.strip_suffix('>')?;
            let (pointee, space) = inner.split_once(',').unwrap_or((inner, "1"));
            if space.trim() != "1" {
                return None;
            }
            pointee.trim().parse().ok().map(ArgType::Pointer)
        }
        None => text.parse().ok().map(ArgType::Scalar),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tt_metadata::Scalar;
    use tt_passes::context::new_context;

    #[test]
    fn argument_types() {
        assert_eq!(
            arg_type("!tt.ptr<f32>"),
            Some(ArgType::Pointer(Scalar::F32))
        );
        assert_eq!(
            arg_type("!tt.ptr<bf16, 1>"),
            Some(ArgType::Pointer(Scalar::BF16))
        );
        assert_eq!(arg_type("!tt.ptr<f32, 3>"), None);
        assert_eq!(arg_type("i32"), Some(ArgType::Scalar(Scalar::I32)));
        assert_eq!(arg_type("tensor<4xi32>"), None);
    }

    #[test]
    fn reads_the_kernel_and_its_memory() {
        let context = new_context(false);
        let module = Module::parse(
            &context,
            r#"module attributes {"ttg.num-warps" = 8 : i32, "ttg.num-ctas" = 1 : i32,
                                  "ttg.threads-per-warp" = 32 : i32, "ttg.shared" = 1024 : i32} {
              tt.func private @helper() { tt.return }
              tt.func public @k(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) { tt.return }
            }"#,
        )
        .unwrap();
        let kernel = Kernel::read(&module).unwrap();
        let metadata = kernel.metadata("k".into(), "cuda:90".into(), 87, &Memory::read(&module));
        assert_eq!(metadata.num_warps, 8);
        assert_eq!(metadata.shared, 1024);
        assert_eq!(
            (metadata.global_scratch_size, metadata.global_scratch_align),
            (0, 1)
        );
        assert_eq!(
            metadata.args,
            [
                KernelArg {
                    ty: ArgType::Pointer(Scalar::F16),
                    divisibility: Some(16)
                },
                KernelArg {
                    ty: ArgType::Scalar(Scalar::I32),
                    divisibility: None
                },
            ]
        );
        let none = Module::parse(&context, "module {}").unwrap();
        assert_eq!(
            Kernel::read(&none).err().unwrap(),
            "the module has no public tt.func (kernel)"
        );
    }
}
