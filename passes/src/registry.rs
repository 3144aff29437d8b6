//! The static table of named passes.
//!
//! Every pass that `tt-opt` offers as a flag, and that a textual pipeline
//! may name, has one [`PassInfo`] here: its flag name, a one-line summary,
//! the op it is anchored on, the options it accepts and how to build it.
//! Upstream MLIR passes are built from their textual name through
//! `mlirOpPassManagerAddPipeline`; passes written in Rust supply a
//! [`PassFactory`] that turns the parsed options into a
//! [`melior::pass::Pass`] (typically through `melior::pass::create_external`).

use std::{ffi::c_void, sync::OnceLock};

use melior::{
    pass::{OperationPassManager, Pass},
    StringRef,
};
use mlir_sys::MlirStringRef;

use crate::{options::PassOptions, rust_pass::RustPass, suggest};

/// Builds a Rust pass from its parsed, already validated options.
pub type PassFactory = fn(&PassOptions) -> Result<Pass, String>;

/// How a registered pass is built.
#[derive(Clone, Copy, Debug)]
pub enum PassKind {
    /// An upstream MLIR pass, added by its textual name (the entry's
    /// [`PassInfo::name`]) and options.
    Upstream,
    /// A pass written in Rust.
    Rust(PassFactory),
    /// A pass written in Rust that takes no options.
    RustNoOptions(&'static RustPass),
    /// A Rust pass that runs the upstream pass of the same name, with the
    /// same options, as part of its work.
    RustOverUpstream(PassFactory),
    /// A named pipeline: the factory turns the options into the pipeline's
    /// elements (`pass{options},pass,...`) on the same op.
    Pipeline(PipelineFactory),
}

/// Builds a named pipeline's elements from its parsed options.
pub type PipelineFactory = fn(&PassOptions) -> Result<String, String>;

/// One option a pass accepts.
#[derive(Clone, Copy, Debug)]
pub struct OptionInfo {
    /// The option's name, as written before `=`.
    pub name: &'static str,
    /// A one-line description.
    pub summary: &'static str,
}

/// A registered pass.
#[derive(Clone, Copy, Debug)]
pub struct PassInfo {
    /// The flag and pipeline name, e.g. `canonicalize`.
    pub name: &'static str,
    /// A one-line description for `--help`.
    pub summary: &'static str,
    /// The op the pass must run on, or `None` for an op-agnostic pass.
    pub anchor: Option<&'static str>,
    /// The options the pass accepts.
    pub options: &'static [OptionInfo],
    /// How to build it.
    pub kind: PassKind,
}

const fn opt(name: &'static str, summary: &'static str) -> OptionInfo {
    OptionInfo { name, summary }
}

const fn upstream(
    name: &'static str,
    summary: &'static str,
    anchor: Option<&'static str>,
    options: &'static [OptionInfo],
) -> PassInfo {
    PassInfo {
        name,
        summary,
        anchor,
        options,
        kind: PassKind::Upstream,
    }
}

/// The entry of a Rust pass without options: its names come from `pass`.
const fn rust(pass: &'static RustPass) -> PassInfo {
    PassInfo {
        name: pass.argument,
        summary: pass.description,
        anchor: Some(pass.anchor),
        options: &[],
        kind: PassKind::RustNoOptions(pass),
    }
}

const MODULE: Option<&str> = Some("builtin.module");
const INDEX_BITWIDTH: OptionInfo = opt(
    "index-bitwidth",
    "Bitwidth of the index type, 0 to use size of machine word",
);

/// Every registered pass, sorted by name.
pub static PASSES: &[PassInfo] = &[
    upstream("canonicalize", "Canonicalize operations", None, &[
        opt("disable-patterns", "Labels of patterns that should be filtered out during application"),
        opt("enable-patterns", "Labels of patterns that should be used during application, all other patterns are filtered out"),
        opt("max-iterations", "Max. iterations between applying patterns / simplifying regions"),
        opt("max-num-rewrites", "Max. number of pattern rewrites within an iteration"),
        opt("region-simplify", "Perform control flow optimizations to the region tree (disabled, normal, aggressive)"),
        opt("test-convergence", "Test only: fail the pass on non-convergence"),
        opt("top-down", "Seed the worklist in general top-down order"),
    ]),
    upstream("convert-arith-to-llvm", "Convert Arith dialect to LLVM dialect", None, &[INDEX_BITWIDTH]),
    upstream("convert-cf-to-llvm", "Convert ControlFlow operations to the LLVM dialect", MODULE, &[INDEX_BITWIDTH]),
    upstream("convert-func-to-llvm", "Convert from the Func dialect to the LLVM dialect", MODULE, &[
        INDEX_BITWIDTH,
        opt("use-bare-ptr-memref-call-conv", "Replace FuncOp's MemRef arguments with bare pointers to the MemRef element types"),
    ]),
    upstream("convert-index-to-llvm", "Lower the `index` dialect to the `llvm` dialect", None, &[INDEX_BITWIDTH]),
    upstream("convert-math-to-llvm", "Convert Math dialect to LLVM dialect", None, &[
        opt("approximate-log1p", "Enable approximation of Log1p"),
    ]),
    upstream("convert-scf-to-cf", "Convert SCF dialect to ControlFlow dialect, replacing structured control flow with a CFG", None, &[
        opt("allow-pattern-rollback", "Experimental performance flag to disallow pattern rollback"),
    ]),
    upstream("convert-to-llvm", "Convert to LLVM via dialect interfaces found in the input IR", None, &[
        opt("allow-pattern-rollback", "Experimental performance flag to disallow pattern rollback"),
        opt("dynamic", "Use op conversion attributes to configure the conversion"),
        opt("filter-dialects", "Test conversion patterns of only the specified dialects"),
    ]),
    PassInfo {
        name: "convert-triton-to-tritongpu",
        summary: "Convert Triton to TritonGPU: default blocked layouts for every tensor, module attributes",
        anchor: MODULE,
        options: &[
            opt("enable-source-remat", "Allow source materializations (accepted; never needed)"),
            opt("num-ctas", "Number of CTAs in a cluster (default 1)"),
            opt("num-warps", "Number of warps per CTA (default 4)"),
            opt("target", "The GPU, as cuda:<capability> (required)"),
            opt("threads-per-warp", "Number of threads per warp (default 32)"),
        ],
        kind: PassKind::Rust(crate::ttgir::convert_triton_to_tritongpu::factory),
    },
    upstream("cse", "Eliminate common sub-expressions", None, &[]),
    PassInfo {
        name: "inline",
        summary: "Inline function calls (recursion among inlinable calls is an error)",
        anchor: MODULE,
        options: &[
            opt("default-pipeline", "The optimizer pipeline used for callables without a dedicated pipeline"),
            opt("inlining-threshold", "Callee/caller size ratio (in percent) above which a call is not inlined"),
            opt("max-iterations", "Maximum number of iterations when inlining within an SCC"),
            opt("op-pipelines", "Callable operation specific optimizer pipelines (`dialect.op(pipeline)`)"),
        ],
        kind: PassKind::RustOverUpstream(crate::ttir::inline::factory),
    },
    upstream("llvm-optimize-for-nvvm-target", "Optimize NVVM IR", None, &[]),
    upstream("loop-invariant-code-motion", "Hoist loop invariant instructions outside of the loop", None, &[]),
    PassInfo {
        name: "make-ttgir",
        summary: "Triton's make_ttgir stage (cuda:70 to cuda:99): layouts, coalescing, layout clean-up, the dot path, pipelining",
        anchor: MODULE,
        options: &[
            opt("target", "The GPU, as cuda:<capability> (default cuda:90)"),
            opt("num-warps", "Warps per CTA, a power of two (default 4)"),
            opt("num-ctas", "CTAs per cluster (default 1)"),
            opt("num-stages", "Software pipelining stages (default 3)"),
            opt("threads-per-warp", "Threads per warp (default 32)"),
        ],
        kind: PassKind::Pipeline(crate::stages::make_ttgir),
    },
    PassInfo {
        name: "make-ttir",
        summary: "Triton's make_ttir stage: inline, rewrite block pointers, canonicalize, combine, reorder broadcasts, CSE, symbol DCE, unroll loops",
        anchor: MODULE,
        options: &[opt("target", "The GPU, as cuda:<capability> (default cuda:90); below 90 tensor descriptors become pointers")],
        kind: PassKind::Pipeline(crate::stages::make_ttir),
    },
    PassInfo {
        name: "nvgpu-warp-specialization",
        summary: crate::ttgir::nvgpu_warp_specialization::PASS.description,
        anchor: MODULE,
        options: &[
            opt("dump-intermediate-steps", "Dump the IR between the steps (default false)"),
            opt("num-stages", "Number of pipeline stages (default 0)"),
        ],
        kind: PassKind::Rust(crate::ttgir::nvgpu_warp_specialization::factory),
    },
    upstream("reconcile-unrealized-casts", "Simplify and eliminate unrealized conversion casts", None, &[]),
    rust(&crate::ttgir::relayout_tritongpu::PASS),
    upstream("sccp", "Sparse Conditional Constant Propagation", None, &[]),
    upstream("strip-debuginfo", "Strip debug info from all operations", None, &[]),
    upstream("symbol-dce", "Eliminate dead symbols", None, &[]),
    rust(&crate::analysis::test_alignment::PASS),
    rust(&crate::ttir::combine::PASS),
    rust(&crate::ttir::licm::PASS),
    rust(&crate::ttir::loop_aware_cse::PASS),
    rust(&crate::ttir::loop_unroll::PASS),
    PassInfo {
        name: "triton-nvidia-gpu-fence-insertion",
        summary: crate::ttgir::fence_insertion::PASS.description,
        anchor: MODULE,
        options: &[opt("compute-capability", "The GPU's compute capability (default 90); below 90 nothing is done")],
        kind: PassKind::Rust(crate::ttgir::fence_insertion::factory),
    },
    rust(&crate::ttgir::plan_cta::PASS),
    rust(&crate::ttgir::remove_tmem_tokens::PASS),
    rust(&crate::ttgir::tmem_gates::INTERLEAVE_TMEM),
    rust(&crate::ttgir::mma_lowering::PASS),
    rust(&crate::ttgir::optimize_descriptor_encoding::PASS),
    rust(&crate::ttgir::tmem_gates::OPTIMIZE_TMEM_LAYOUTS),
    rust(&crate::ttgir::tma_lowering::PASS),
    rust(&crate::ttir::reorder_broadcast::PASS),
    rust(&crate::ttir::rewrite_tensor_descriptor_to_pointer::PASS),
    rust(&crate::ttir::rewrite_tensor_pointer::PASS),
    rust(&crate::ttir::test_loop_peeling::PASS),
    rust(&crate::ttgir::tritonamdgpu_optimize_epilogue::PASS),
    PassInfo {
        name: "tritongpu-F32DotTC",
        summary: "Decompose fp32 dots with bf16x3/bf16x6 (and, with emu-tf32, tf32x3) input precision",
        anchor: MODULE,
        options: &[opt("emu-tf32", "Decompose tf32x3 dots too (default false; Triton sets it for cc >= 80)")],
        kind: PassKind::Rust(crate::ttgir::f32_dot_tc::factory),
    },
    rust(&crate::ttgir::accelerate_matmul::PASS),
    PassInfo {
        name: "tritongpu-assign-latencies",
        summary: "Assign latencies to the loads of pipelined loops (loops without dots)",
        anchor: MODULE,
        options: &[opt("num-stages", "The number of pipeline stages when a loop has no tt.num_stages (default 3)")],
        kind: PassKind::Rust(crate::ttgir::assign_latencies::factory),
    },
    rust(&crate::ttgir::coalesce::PASS),
    rust(&crate::ttgir::coalesce_async_copy::PASS),
    rust(&crate::ttgir::combine_tensor_select_and_if::PASS),
    rust(&crate::ttgir::fuse_nested_loops::PASS),
    PassInfo {
        name: "tritongpu-hoist-tmem-alloc",
        summary: crate::ttgir::hoist_tmem_alloc::PASS.description,
        anchor: MODULE,
        options: &[opt("hoist-out-of-if", "Also hoist allocations out of scf.if ops (default false)")],
        kind: PassKind::Rust(crate::ttgir::hoist_tmem_alloc::factory),
    },
    rust(&crate::ttgir::optimize_accumulator_init::PASS),
    PassInfo {
        name: "tritongpu-optimize-dot-operands",
        summary: crate::ttgir::optimize_dot_operands::PASS.description,
        anchor: MODULE,
        options: &[opt("hoist-layout-conversion", "Accepted for Triton's flag; Triton 3.6 no longer reads it (default true)")],
        kind: PassKind::Rust(crate::ttgir::optimize_dot_operands::factory),
    },
    rust(&crate::ttgir::optimize_partition_warps::PASS),
    rust(&crate::ttgir::optimize_thread_locality::PASS),
    rust(&crate::ttgir::partition_loops::PASS),
    PassInfo {
        name: "tritongpu-pipeline",
        summary: "Software-pipeline scheduled loops (two stages, one load, no dots)",
        anchor: MODULE,
        options: &[
            opt("num-stages", "The number of pipeline stages (default 3)"),
            opt("dump-intermediate-steps", "Dump the intermediate steps (default false; true is not supported yet)"),
        ],
        kind: PassKind::Rust(crate::ttgir::pipeline::factory),
    },
    rust(&crate::ttgir::prefetch::PASS),
    rust(&crate::ttgir::promote_lhs_to_tmem::PASS),
    rust(&crate::ttgir::reduce_data_duplication::PASS),
    rust(&crate::ttgir::remove_layout_conversions::PASS),
    rust(&crate::ttgir::reorder_instructions::PASS),
    rust(&crate::ttgir::schedule_loops::PASS),
    rust(&crate::ttgir::pipeline::TEST_LOWER_LOOP),
    rust(&crate::ttgir::concurrency_sanitizer::PASS),
];

/// Passes that crates built on this one (the lowering to LLVM) add at
/// start-up, through [`register_extension`].
static EXTENSION: OnceLock<&'static [PassInfo]> = OnceLock::new();

/// Adds `passes` (sorted by name, none named like a pass of [`PASSES`]) to
/// the registry. Crates that depend on this one, such as the lowering to
/// LLVM, register their passes this way; registering the same table again
/// is a no-op, another table is refused.
pub fn register_extension(passes: &'static [PassInfo]) -> Result<(), String> {
    let table = *EXTENSION.get_or_init(|| passes);
    if !std::ptr::eq(table, passes) {
        return Err("another pass table is already registered".to_owned());
    }
    if let Some(clash) = passes
        .iter()
        .find(|p| PASSES.iter().any(|q| q.name == p.name))
    {
        return Err(format!("pass '{}' is registered twice", clash.name));
    }
    Ok(())
}

/// Every registered pass: [`PASSES`] and the registered extension, sorted by
/// name.
pub fn all() -> Vec<&'static PassInfo> {
    let mut passes: Vec<&'static PassInfo> = unsorted().collect();
    passes.sort_by_key(|p| p.name);
    passes
}

/// [`PASSES`], then the registered extension.
fn unsorted() -> impl Iterator<Item = &'static PassInfo> {
    PASSES
        .iter()
        .chain(EXTENSION.get().copied().unwrap_or_default())
}

/// The registered pass called `name`, or an error naming the closest one.
pub fn lookup(name: &str) -> Result<&'static PassInfo, String> {
    unsorted().find(|p| p.name == name).ok_or_else(|| {
        format!(
            "unknown pass '{name}'{}",
            suggest::did_you_mean(name, all().iter().map(|p| p.name))
        )
    })
}

impl PassInfo {
    /// Checks that every option in `options` is one this pass accepts.
    pub fn check_options(&self, options: &PassOptions) -> Result<(), String> {
        for (key, _) in options.pairs() {
            if !self.options.iter().any(|o| o.name == key) {
                return Err(format!(
                    "unknown option '{key}' for pass '{}'{}",
                    self.name,
                    suggest::did_you_mean(key, self.options.iter().map(|o| o.name))
                ));
            }
        }
        Ok(())
    }

    /// Adds this pass, with `options`, to `manager`, a pass manager that
    /// runs on `manager_op` ops (`builtin.module` at the top level).
    pub fn add_to(
        &self,
        manager: OperationPassManager,
        manager_op: &str,
        options: &PassOptions,
    ) -> Result<(), String> {
        self.check_options(options)?;
        if let Some(anchor) = self.anchor {
            if anchor != manager_op {
                return Err(format!(
                    "pass '{}' runs on '{anchor}' ops and cannot be added to a pass manager on '{manager_op}' ops",
                    self.name
                ));
            }
        }
        match self.kind {
            PassKind::Upstream => add_upstream(manager, &self.text(options)),
            PassKind::Rust(factory) => {
                manager.add_pass(factory(options)?);
                Ok(())
            }
            PassKind::RustNoOptions(pass) => {
                manager.add_pass(pass.build());
                Ok(())
            }
            PassKind::RustOverUpstream(factory) => {
                manager.add_pass(factory(options)?);
                Ok(())
            }
            PassKind::Pipeline(factory) => {
                let elements = factory(options)?;
                let pipeline = crate::pipeline::parse(&format!("{manager_op}({elements})"))?;
                crate::pipeline::add_elements(manager, manager_op, &pipeline.elements)
            }
        }
    }

    /// The pass as a pipeline element: `name` or `name{options}`.
    pub fn text(&self, options: &PassOptions) -> String {
        if options.is_empty() {
            self.name.to_owned()
        } else {
            format!("{}{{{options}}}", self.name)
        }
    }
}

/// Registers MLIR's transform, conversion and LLVM-dialect passes, the
/// groups the table's upstream passes come from, once. Registering every upstream
/// pass instead costs about a millisecond per process, a tenth of the
/// compile time of a small kernel.
fn register_upstream_passes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| unsafe {
        mlir_sys::mlirRegisterTransformsPasses();
        mlir_sys::mlirRegisterConversionPasses();
        tt_dialect::ffi::ttRegisterLLVMTransformPasses();
    });
}

pub(crate) fn add_upstream(manager: OperationPassManager, element: &str) -> Result<(), String> {
    unsafe extern "C" fn append(text: MlirStringRef, data: *mut c_void) {
        let message = unsafe { &mut *(data as *mut String) };
        if let Ok(text) = unsafe { StringRef::from_raw(text) }.as_str() {
            message.push_str(text);
        }
    }

    register_upstream_passes();
    let mut message = String::new();
    let result = unsafe {
        mlir_sys::mlirOpPassManagerAddPipeline(
            manager.to_raw(),
            StringRef::new(element).to_raw(),
            Some(append),
            &mut message as *mut String as *mut c_void,
        )
    };
    if result.value != 0 {
        Ok(())
    } else if message.is_empty() {
        Err(format!("failed to add pass '{element}'"))
    } else {
        Err(message.trim().to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::new_context;
    use melior::{
        ir::{operation::OperationLike, r#type::TypeId, Location, Module},
        pass::{create_external, ExternalPass, PassManager},
    };

    #[test]
    fn table_is_sorted_and_unique() {
        assert!(PASSES.windows(2).all(|w| w[0].name < w[1].name));
    }

    #[test]
    fn every_pass_builds_and_upstream_options_are_known_to_mlir() {
        let context = new_context(false);
        for pass in PASSES {
            let manager = PassManager::new(&context);
            let pm = manager.as_operation_pass_manager();
            match pass.add_to(pm, "builtin.module", &PassOptions::default()) {
                Ok(()) => {}
                // A stage whose passes are not all written yet says so.
                Err(e)
                    if matches!(pass.kind, PassKind::Pipeline(_))
                        && e.contains("cannot run yet") => {}
                Err(e) => panic!("{}: {e}", pass.name),
            }
            if !matches!(
                pass.kind,
                PassKind::Upstream | PassKind::RustOverUpstream(_)
            ) {
                continue;
            }
            for option in pass.options {
                // MLIR may dislike the value, but it must know the name.
                let element = format!("{}{{{}=0}}", pass.name, option.name);
                if let Err(e) = add_upstream(pm, &element) {
                    assert!(!e.contains("no such option"), "{element}: {e}");
                }
            }
        }
    }

    #[test]
    fn mlir_rejects_unknown_options() {
        let context = new_context(false);
        let manager = PassManager::new(&context);
        let err = add_upstream(manager.as_operation_pass_manager(), "cse{bogus=1}").unwrap_err();
        assert!(err.contains("no such option"), "{err}");
    }

    #[test]
    fn lookup_suggests_close_names() {
        assert_eq!(lookup("cse").unwrap().name, "cse");
        assert_eq!(
            lookup("canonicalise").unwrap_err(),
            "unknown pass 'canonicalise'; did you mean 'canonicalize'?"
        );
    }

    #[test]
    fn options_are_checked_before_mlir_sees_them() {
        let context = new_context(false);
        let manager = PassManager::new(&context);
        let pm = manager.as_operation_pass_manager();
        let canonicalize = lookup("canonicalize").unwrap();
        let good = PassOptions::parse("max-iterations=3").unwrap();
        assert_eq!(canonicalize.text(&good), "canonicalize{max-iterations=3}");
        canonicalize.add_to(pm, "builtin.module", &good).unwrap();
        let typo = PassOptions::parse("max-iteration=3").unwrap();
        assert_eq!(
            canonicalize.add_to(pm, "builtin.module", &typo).unwrap_err(),
            "unknown option 'max-iteration' for pass 'canonicalize'; did you mean 'max-iterations'?"
        );
        let bad_value = PassOptions::parse("max-iterations=many").unwrap();
        let err = canonicalize
            .add_to(pm, "builtin.module", &bad_value)
            .unwrap_err();
        assert!(err.contains("max-iterations"), "{err}");
    }

    #[test]
    fn anchored_passes_refuse_other_ops() {
        let context = new_context(false);
        let manager = PassManager::new(&context);
        let pm = manager.nested_under("tt.func");
        let err = lookup("convert-func-to-llvm")
            .unwrap()
            .add_to(pm, "tt.func", &PassOptions::default())
            .unwrap_err();
        assert_eq!(
            err,
            "pass 'convert-func-to-llvm' runs on 'builtin.module' ops and cannot be added to a pass manager on 'tt.func' ops"
        );
    }

    #[repr(align(8))]
    struct MarkPassId;
    static MARK_PASS_ID: MarkPassId = MarkPassId;

    fn mark_factory(options: &PassOptions) -> Result<Pass, String> {
        let value = match options.get("value") {
            None | Some("true") => true,
            Some("false") => false,
            Some(other) => return Err(format!("bad value '{other}'")),
        };
        Ok(create_external(
            move |op: melior::ir::OperationRef, _: ExternalPass| {
                unsafe {
                    let context = mlir_sys::mlirOperationGetContext(op.to_raw());
                    mlir_sys::mlirOperationSetAttributeByName(
                        op.to_raw(),
                        StringRef::new("test.mark").to_raw(),
                        mlir_sys::mlirBoolAttrGet(context, i32::from(value)),
                    )
                };
            },
            TypeId::create(&MARK_PASS_ID),
            "Mark",
            "test-mark",
            "Marks the module",
            "builtin.module",
            &[],
        ))
    }

    const MARK_OPTIONS: &[OptionInfo] = &[opt("value", "The mark")];

    #[test]
    fn rust_passes_are_built_from_their_options() {
        let mark = PassInfo {
            name: "test-mark",
            summary: "Marks the module",
            anchor: MODULE,
            options: MARK_OPTIONS,
            kind: PassKind::Rust(mark_factory),
        };
        let context = new_context(false);
        let manager = PassManager::new(&context);
        let options = PassOptions::parse("value=false").unwrap();
        mark.add_to(
            manager.as_operation_pass_manager(),
            "builtin.module",
            &options,
        )
        .unwrap();
        let mut module = Module::new(Location::unknown(&context));
        manager.run(&mut module).unwrap();
        let marked = module.as_operation().attribute("test.mark").unwrap();
        assert_eq!(marked.to_string(), "false");
        let bad = PassOptions::parse("value=maybe").unwrap();
        assert_eq!(
            mark.add_to(manager.as_operation_pass_manager(), "builtin.module", &bad)
                .unwrap_err(),
            "bad value 'maybe'"
        );
    }
}
