//! The compiler: Triton IR in, PTX and kernel metadata out.
//!
//! [`compile`] runs Triton 3.6's stages through the pass registry's named
//! pipelines (`make-ttir`, `make-ttgir`, `make-llir`), translates the LLVM
//! dialect to LLVM IR, optimizes it and prints PTX ([`tt_conversion::ptx`]).
//! The input is TTIR, or TTGIR when its module carries `ttg.num-warps`, in
//! which case the first two stages are skipped. [`compile_to`] stops after
//! any stage. Results are cached on disk ([`Cache`]).

mod cache;
mod diagnostics;
mod ir_dump;
mod kernel;

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use melior::ir::attribute::IntegerAttribute;
use melior::ir::operation::{OperationLike, OperationMutLike, OperationPrintingFlags};
use melior::ir::{Module, Operation};
use melior::pass::PassManager;
use melior::{Context, StringRef};
use serde::{Deserialize, Serialize};
use tt_conversion::ptx::{self, PtxOptions};
use tt_conversion::LlvmModule;
use tt_metadata::KernelMetadata;
use tt_passes::{context::new_context, pipeline};

pub use cache::{Cache, CACHE_DIR_ENV};
use diagnostics::Capture;
pub use diagnostics::Report;
pub use ir_dump::IrDump;

/// What to compile for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Compute capability, major * 10 + minor.
    pub capability: u32,
    /// Warps per CTA (a power of two).
    pub num_warps: u32,
    /// Software pipelining stages.
    pub num_stages: u32,
    /// CTAs per cluster.
    pub num_ctas: u32,
    /// Line tables in the PTX (`.file`/`.loc`, from the input's
    /// locations), as Triton emits unless `TRITON_DISABLE_LINE_INFO`.
    pub line_info: bool,
    /// Whether TTIR input goes through `make-ttir` first. A frontend that
    /// ran Triton's own `make_ttir` (the Python package's hook) turns it
    /// off; TTGIR input never does.
    pub make_ttir: bool,
    /// Fuse floating-point multiplies and adds into FMAs (Triton's
    /// `enable_fp_fusion`).
    pub fp_fusion: bool,
    /// Flush denormals in libdevice functions (Triton's
    /// `enable_reflect_ftz`).
    pub reflect_ftz: bool,
    /// libdevice; `None`: `$TT_LIBDEVICE`, else the one `scripts/setup.sh`
    /// installs.
    pub libdevice: Option<PathBuf>,
    /// The PTX ISA version, times ten.
    pub ptx_version: u32,
    /// Where results are cached; not part of the cache key.
    pub cache: Cache,
    /// Where to print the module before each pass of the stages, as
    /// Triton's `MLIR_ENABLE_DUMP`; not part of the cache key (a dumping
    /// compilation reads no cached result).
    pub ir_dump: IrDump,
    /// Print each stage's pass timings to stderr, as Triton's
    /// `MLIR_ENABLE_TIMING`; likewise read from no cache.
    pub pass_timing: bool,
    /// Write each stage's input and passes to this file as an MLIR
    /// reproducer, and where a stage fails, the input of its failing pass
    /// and that pass alone (Triton's `TRITON_REPRODUCER_PATH`); likewise
    /// read from no cache.
    pub reproducer: Option<PathBuf>,
    /// The warnings and remarks to print to stderr, and what diagnostics
    /// carry (Triton's `MLIR_ENABLE_DIAGNOSTICS`); likewise read from no
    /// cache. Errors go into the compilation's error whatever it says.
    pub diagnostics: Report,
}

impl Options {
    /// These options with the debugging output Triton's environment asks
    /// for a compilation of `module_text` (`MLIR_ENABLE_DUMP`,
    /// `MLIR_DUMP_PATH`, `MLIR_ENABLE_TIMING`, `TRITON_REPRODUCER_PATH`,
    /// `MLIR_ENABLE_DIAGNOSTICS`), read as Triton reads them.
    pub fn with_triton_debug_env(self, module_text: &str) -> Self {
        Self {
            ir_dump: IrDump::from_env(module_text),
            pass_timing: ir_dump::timing_from_env(),
            reproducer: ir_dump::reproducer_from_env(),
            diagnostics: Report::from_env(),
            ..self
        }
    }
}

impl Default for Options {
    /// Triton's defaults on an H100: `cuda:90`, 4 warps, 3 stages, 1 CTA.
    fn default() -> Self {
        Self {
            capability: 90,
            num_warps: 4,
            num_stages: 3,
            num_ctas: 1,
            line_info: true,
            make_ttir: true,
            fp_fusion: true,
            reflect_ftz: true,
            libdevice: None,
            ptx_version: ptx::PTX_VERSION,
            cache: Cache::Default,
            ir_dump: IrDump::Off,
            pass_timing: false,
            reproducer: None,
            diagnostics: Report::default(),
        }
    }
}

impl Options {
    /// `cuda:<capability>`.
    pub fn target(&self) -> String {
        format!("cuda:{}", self.capability)
    }

    /// What the PTX step takes of these options.
    fn ptx_options(&self) -> PtxOptions {
        PtxOptions {
            capability: self.capability,
            ptx_version: self.ptx_version,
            reflect_ftz: self.reflect_ftz,
            libdevice: self.libdevice.clone(),
            fp_fusion: self.fp_fusion,
        }
    }
}

/// The stages, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// `make-ttir`: Triton IR.
    Ttir,
    /// `make-ttgir`: TritonGPU IR.
    Ttgir,
    /// `make-llir`, translation and LLVM's O3: LLVM IR.
    Llir,
    /// PTX and the kernel metadata.
    Ptx,
}

impl Stage {
    /// `ttir`, `ttgir`, `llir` or `ptx`.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Ttir => "ttir",
            Stage::Ttgir => "ttgir",
            Stage::Llir => "llir",
            Stage::Ptx => "ptx",
        }
    }

    /// The stage called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        [Stage::Ttir, Stage::Ttgir, Stage::Llir, Stage::Ptx]
            .into_iter()
            .find(|s| s.name() == name)
    }
}

/// The input of a compilation.
#[derive(Clone, Copy)]
pub enum Input<'a> {
    /// MLIR text (TTIR or TTGIR) and the name its locations use.
    Text { text: &'a str, name: &'a str },
    /// A module built elsewhere; it is printed (with its locations) and
    /// compiled in the compiler's own context, so it is left untouched.
    Module(&'a Module<'a>),
}

impl<'a> From<&'a str> for Input<'a> {
    fn from(text: &'a str) -> Self {
        Input::Text {
            text,
            name: "<input>",
        }
    }
}

impl<'a> From<&'a Module<'a>> for Input<'a> {
    fn from(module: &'a Module<'a>) -> Self {
        Input::Module(module)
    }
}

/// A failed compilation: the stage and what went wrong, with MLIR's
/// located diagnostics as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// The stage that failed (`None`: before any stage, e.g. parsing).
    pub stage: Option<Stage>,
    /// The message, possibly several lines.
    pub message: String,
}

impl CompileError {
    fn new(stage: Option<Stage>, message: impl Into<String>) -> Self {
        Self {
            stage,
            message: message.into(),
        }
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.stage {
            Some(stage) => write!(f, "{} stage: {}", stage.name(), self.message.trim_end()),
            None => f.write_str(self.message.trim_end()),
        }
    }
}

impl std::error::Error for CompileError {}

/// What [`compile_to`] produced: the stages up to the one asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Output {
    /// TTIR after `make-ttir`; `None` for TTGIR input.
    pub ttir: Option<String>,
    /// TTGIR after `make-ttgir` (or the TTGIR input, reprinted); empty
    /// when the compilation stopped at [`Stage::Ttir`].
    pub ttgir: String,
    /// LLVM IR after O3, from [`Stage::Llir`] on.
    pub llir: Option<String>,
    /// PTX, at [`Stage::Ptx`].
    pub ptx: Option<String>,
    /// The kernel's metadata, at [`Stage::Ptx`].
    pub metadata: Option<KernelMetadata>,
    /// Wall time of each step, in order (empty when cached).
    #[serde(skip)]
    pub timings: Vec<(String, Duration)>,
    /// Whether the result came from the cache.
    #[serde(skip)]
    pub cached: bool,
}

/// A compiled kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// TTIR after `make-ttir`; `None` for TTGIR input.
    pub ttir: Option<String>,
    /// TTGIR after `make-ttgir`.
    pub ttgir: String,
    /// LLVM IR after O3.
    pub llir: String,
    /// PTX.
    pub ptx: String,
    /// The kernel's metadata.
    pub metadata: KernelMetadata,
    /// Wall time of each step (empty when cached).
    pub timings: Vec<(String, Duration)>,
    /// Whether the result came from the cache.
    pub cached: bool,
}

/// Compiles `input` to PTX, with a compiler of its own
/// ([`Compiler::compile`] reuses one).
pub fn compile<'a>(
    input: impl Into<Input<'a>>,
    options: &Options,
) -> Result<Compiled, CompileError> {
    Compiler::new().compile(input, options)
}

/// Compiles `input` up to and including `until`, with a compiler of its
/// own ([`Compiler::compile_to`] reuses one).
pub fn compile_to<'a>(
    input: impl Into<Input<'a>>,
    options: &Options,
    until: Stage,
) -> Result<Output, CompileError> {
    Compiler::new().compile_to(input, options, until)
}

/// Which thread and register hold each element of `tensor_type` (e.g.
/// `tensor<128x64xf16>`) in `layout` (a `ttg` encoding's text), or with
/// `hw_view` each warp's lanes per register: Triton's `getLayoutStr`, as
/// `triton-tensor-layout` prints it. Shared layouts give the element at
/// each offset.
pub fn tensor_layout(layout: &str, tensor_type: &str, hw_view: bool) -> Result<String, String> {
    let context = new_context(false);
    let capture = Capture::attach(&context);
    ttg_dialect::layout_view::layout_str(&context, layout, tensor_type, hw_view).map_err(
        |message| {
            // MLIR's reason for a parse error follows the message.
            let reasons = capture.take();
            if reasons.is_empty() {
                message
            } else {
                format!("{message}\n{}", reasons.trim_end())
            }
        },
    )
}

/// A compiler that keeps its set-up from one compilation to the next: an
/// MLIR context with the dialects loaded, each stage's pass pipeline built
/// once per set of options (so its canonicalization patterns are collected
/// once), and the NVPTX target machine. The first compilation builds what it
/// needs (about 1.5 ms); later ones start from it, where Triton rebuilds all
/// of it for every kernel. A frontend that compiles many kernels keeps one
/// `Compiler` (per thread: it is neither `Send` nor `Sync`).
///
/// What compilations intern in the context (types, attributes, locations)
/// stays there until the compiler is dropped.
#[derive(Default)]
pub struct Compiler {
    session: OnceCell<Session>,
}

impl Compiler {
    /// A compiler; nothing is set up until the first compilation that
    /// misses the cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The PTX of LLVM IR `llir` (what the `llir` stage gives, or text a
    /// frontend put in its place) for `options`' target, and the name of
    /// its kernel: Triton's `make_ptx`.
    pub fn ptx_from_llir(
        &self,
        llir: &str,
        options: &Options,
    ) -> Result<(String, String), CompileError> {
        let session = self.session.get_or_init(Session::new);
        let target = session
            .target(&options.ptx_options())
            .map_err(|e| CompileError::new(Some(Stage::Ptx), e))?;
        let ptx = target
            .emit_text(llir)
            .map_err(|e| CompileError::new(Some(Stage::Ptx), e.0))?;
        Ok((ptx.text, ptx.entry))
    }

    /// Compiles `input` to PTX.
    pub fn compile<'a>(
        &self,
        input: impl Into<Input<'a>>,
        options: &Options,
    ) -> Result<Compiled, CompileError> {
        let output = self.compile_to(input, options, Stage::Ptx)?;
        let missing =
            || CompileError::new(Some(Stage::Ptx), "internal error: a stage left no result");
        Ok(Compiled {
            ttir: output.ttir,
            ttgir: output.ttgir,
            llir: output.llir.ok_or_else(missing)?,
            ptx: output.ptx.ok_or_else(missing)?,
            metadata: output.metadata.ok_or_else(missing)?,
            timings: output.timings,
            cached: output.cached,
        })
    }

    /// Compiles `input` up to and including `until`.
    pub fn compile_to<'a>(
        &self,
        input: impl Into<Input<'a>>,
        options: &Options,
        until: Stage,
    ) -> Result<Output, CompileError> {
        let (text, name) = match input.into() {
            Input::Text { text, name } => (text.to_owned(), name.to_owned()),
            Input::Module(module) => (text_with_locations(module), "<module>".to_owned()),
        };
        let cache_dir = options.cache.dir();
        let key = cache::key(&name, &text, options, until);
        let debugging = options.ir_dump != IrDump::Off
            || options.pass_timing
            || options.reproducer.is_some()
            || options.diagnostics != Report::default();
        if let Some(output) = cache_dir
            .as_deref()
            .filter(|_| !debugging)
            .and_then(|dir| cache::load(dir, &key))
        {
            return Ok(Output {
                cached: true,
                ..output
            });
        }
        let start = Instant::now();
        let session = self.session.get_or_init(Session::new);
        session.load_dialects(until);
        let mut compilation = Compilation::new(session, options, Descriptors::Tma);
        compilation
            .timings
            .push(("context".to_owned(), start.elapsed()));
        let output = match compilation.run(&text, &name, until) {
            // A kernel whose TMA copies this project cannot lower yet (boxes
            // that split a middle dimension, say) still compiles, with its
            // descriptors as pointers, as Triton's own are below sm_90.
            // Where that fails too, the first error is the one to report:
            // it is about the compilation Triton would do.
            Err(error)
                if options.capability >= 90
                    && text.contains("!tt.tensordesc")
                    && error.stage.is_some_and(|s| s != Stage::Ttir) =>
            {
                Compilation::new(session, options, Descriptors::Pointers)
                    .run(&text, &name, until)
                    .map_err(|_| error)?
            }
            result => result?,
        };
        if let Some(dir) = &cache_dir {
            cache::store(dir, &key, &output);
        }
        Ok(output)
    }
}

/// What a [`Compiler`] keeps between compilations.
struct Session {
    // Fields drop in declaration order: the pass managers before the
    // context they were built in.
    /// Built pipelines by their text. Their lifetime is really that of
    /// `context`, which they never outlive: they are private to the
    /// session and dropped first.
    pipelines: RefCell<HashMap<String, Rc<PassManager<'static>>>>,
    targets: RefCell<HashMap<PtxOptions, Rc<ptx::Target>>>,
    capture: Capture,
    context: Box<Context>,
}

impl Session {
    fn new() -> Self {
        // make-llir's passes live in tt-conversion, which joins them to the
        // pass registry; a frontend need not know that.
        tt_conversion::register_passes();
        let context = Box::new(new_context(false));
        // One kernel gives MLIR nothing to run in parallel, but with
        // threading on, its verifier and pass manager still start a thread
        // per core for the module's few top-level ops: on a 16-core host
        // that cost more than the passes themselves.
        context.enable_multi_threading(false);
        let capture = Capture::attach(&context);
        Self {
            pipelines: RefCell::default(),
            targets: RefCell::default(),
            capture,
            context,
        }
    }

    /// Loads the dialects that the stages up to `until` work in, as
    /// Triton's `load_dialects` does when it sets up a compilation's
    /// context: before the stages, so that the stage timings of the two
    /// compilers cover the same work. Otherwise the first parse or pass
    /// manager to need a dialect loads it mid-stage (LLVM's and NVVM's take
    /// about 0.6 ms together).
    fn load_dialects(&self, until: Stage) {
        const TRITON: [&str; 6] = ["tt", "ttg", "arith", "math", "scf", "cf"];
        const LLVM: [&str; 2] = ["llvm", "nvvm"];
        let llvm: &[&str] = if until >= Stage::Llir { &LLVM } else { &[] };
        for name in TRITON.iter().chain(llvm) {
            self.context.get_or_load_dialect(name);
        }
    }

    /// The pass manager for `builtin.module(elements)`, built on first use.
    fn pipeline(&self, elements: &str) -> Result<Rc<PassManager<'_>>, String> {
        if let Some(manager) = self.pipelines.borrow().get(elements) {
            return Ok(manager.clone());
        }
        let manager = self.build(elements)?;
        // SAFETY: the manager borrows `self.context`, which lives in a box
        // owned by `self` and is dropped after `self.pipelines` (field
        // order). The 'static copy never leaves the session: callers get it
        // back with the session's lifetime.
        let manager: PassManager<'static> = unsafe { std::mem::transmute(manager) };
        let manager = Rc::new(manager);
        self.pipelines
            .borrow_mut()
            .insert(elements.to_owned(), manager.clone());
        Ok(manager)
    }

    /// A new pass manager for `builtin.module(elements)`.
    fn build(&self, elements: &str) -> Result<PassManager<'_>, String> {
        let text = format!("builtin.module({elements})");
        let manager = pipeline::parse(&text)
            .and_then(|p| p.build(&self.context))
            .map_err(|e| e.to_string())?;
        // The input was verified when parsed; the pipeline's result is
        // verified once by the caller. Verifying after each of its passes
        // as well (mlir-opt's default, kept by `tt-opt`) took a fifth of the
        // compile time and catches only bugs in this project's passes,
        // which the stage check still reports.
        manager.enable_verifier(false);
        Ok(manager)
    }

    /// The NVPTX target for `options`, created on first use.
    fn target(&self, options: &PtxOptions) -> Result<Rc<ptx::Target>, String> {
        if let Some(target) = self.targets.borrow().get(options) {
            return Ok(target.clone());
        }
        let target = Rc::new(ptx::Target::new(options).map_err(|e| e.0)?);
        self.targets
            .borrow_mut()
            .insert(options.clone(), target.clone());
        Ok(target)
    }
}

/// How a compilation from TTIR treats tensor descriptors on sm_90 and
/// later (below it, `make-ttir` always makes them pointers, as Triton's).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Descriptors {
    /// As Triton does: TMA descriptors and copies.
    Tma,
    /// A pointer, shape and strides each, read with ordinary loads.
    Pointers,
}

/// What lowers tensor descriptors to pointers.
const DESCRIPTORS_TO_POINTERS: &str =
    "triton-rewrite-tensor-descriptor-to-pointer,canonicalize,cse";

/// One uncached compilation in a session.
struct Compilation<'c, 'o> {
    options: &'o Options,
    session: &'c Session,
    descriptors: Descriptors,
    timings: Vec<(String, Duration)>,
}

impl<'c, 'o> Compilation<'c, 'o> {
    fn new(session: &'c Session, options: &'o Options, descriptors: Descriptors) -> Self {
        // Nothing a compilation before this one reported belongs to it.
        session.capture.take();
        let report = options.diagnostics;
        tt_dialect::ir::set_diagnostic_printing(
            &session.context,
            report.operations,
            report.stack_traces,
        );
        Self {
            options,
            session,
            descriptors,
            timings: Vec::new(),
        }
    }

    fn time<T>(&mut self, step: &str, f: impl FnOnce(&mut Self) -> T) -> T {
        let start = Instant::now();
        let result = f(self);
        self.timings.push((step.to_owned(), start.elapsed()));
        result
    }

    fn error(&self, stage: Option<Stage>, message: &str) -> CompileError {
        let diagnostics = self.session.capture.take_errors(self.options.diagnostics);
        if diagnostics.is_empty() {
            CompileError::new(stage, message)
        } else {
            CompileError::new(stage, format!("{message}\n{diagnostics}"))
        }
    }

    fn run(mut self, text: &str, name: &str, until: Stage) -> Result<Output, CompileError> {
        let context = &*self.session.context;
        let mut module = self.time("parse", |c| c.parse(context, text, name))?;
        let is_ttgir = module.as_operation().has_attribute("ttg.num-warps");
        let mut output = Output::default();
        if is_ttgir {
            if until == Stage::Ttir {
                return Err(CompileError::new(
                    Some(Stage::Ttir),
                    "the input is TTGIR (it has ttg.num-warps): there is no TTIR to emit",
                ));
            }
        } else {
            if self.options.make_ttir {
                let ttir = format!("make-ttir{{target={}}}", self.options.target());
                self.time("make-ttir", |c| {
                    c.run_pipeline(&mut module, &ttir, Stage::Ttir)
                })?;
            }
            if self.descriptors == Descriptors::Pointers && self.options.capability >= 90 {
                self.time("lower-descriptors", |c| {
                    c.run_pipeline(&mut module, DESCRIPTORS_TO_POINTERS, Stage::Ttir)
                })?;
            }
            output.ttir = Some(stage_text(&module));
            if until == Stage::Ttir {
                output.ttgir = String::new();
                return Ok(self.finish(output));
            }
            // Clusters of several CTAs (sm_90 on): Triton splits tensors
            // across the cluster's CTAs; this project compiles the kernel
            // for one CTA, which the cluster's first CTA runs
            // (`CLUSTER_CTAS`): the results of one CTA a program.
            let leader_only = self.options.num_ctas > 1 && self.options.capability >= 90;
            let ttgir = format!(
                "make-ttgir{{target={} num-warps={} num-ctas={} num-stages={}}}",
                self.options.target(),
                self.options.num_warps,
                if leader_only {
                    1
                } else {
                    self.options.num_ctas
                },
                self.options.num_stages
            );
            self.time("make-ttgir", |c| {
                c.run_pipeline(&mut module, &ttgir, Stage::Ttgir)
            })?;
            if leader_only {
                module.as_operation_mut().set_attribute(
                    tt_conversion::lowering::CLUSTER_CTAS,
                    IntegerAttribute::new(
                        melior::ir::r#type::IntegerType::new(context, 32).into(),
                        i64::from(self.options.num_ctas),
                    )
                    .into(),
                );
            }
        }
        output.ttgir = stage_text(&module);
        if until == Stage::Ttgir {
            return Ok(self.finish(output));
        }
        let kernel =
            kernel::Kernel::read(&module).map_err(|e| CompileError::new(Some(Stage::Llir), e))?;
        let llir = format!(
            "make-llir{{target={} line-info={}}}",
            self.options.target(),
            self.options.line_info
        );
        self.time("make-llir", |c| {
            c.run_pipeline(&mut module, &llir, Stage::Llir)
        })?;
        let memory = kernel::Memory::read(&module);
        let llvm = self.time("translate", |c| {
            LlvmModule::from_mlir(&module).map_err(|e| c.error(Some(Stage::Llir), &e.to_string()))
        })?;
        drop(module);
        let ptx_options = self.options.ptx_options();
        let target = self
            .session
            .target(&ptx_options)
            .map_err(|e| CompileError::new(Some(Stage::Llir), e))?;
        self.time("llvm-opt", |_| target.optimize(&llvm))
            .map_err(|e| CompileError::new(Some(Stage::Llir), e.0))?;
        output.llir = Some(self.time("llir-text", |_| llvm.to_ir_string()));
        if until == Stage::Llir {
            return Ok(self.finish(output));
        }
        let ptx = self
            .time("ptx", |_| target.emit(&llvm))
            .map_err(|e| CompileError::new(Some(Stage::Ptx), e.0))?;
        output.metadata = Some(kernel.metadata(
            ptx.entry,
            self.options.target(),
            ptx_options.ptx_version,
            &memory,
        ));
        output.ptx = Some(ptx.text);
        Ok(self.finish(output))
    }

    fn finish(self, output: Output) -> Output {
        // A successful compilation has no errors to report: what it
        // captured is what the options ask to see.
        self.session.capture.take_errors(self.options.diagnostics);
        Output {
            timings: self.timings,
            ..output
        }
    }

    fn parse(
        &self,
        context: &'c Context,
        text: &str,
        name: &str,
    ) -> Result<Module<'c>, CompileError> {
        let op = unsafe {
            Operation::from_option_raw(mlir_sys::mlirOperationCreateParse(
                context.to_raw(),
                StringRef::new(text).to_raw(),
                StringRef::new(name).to_raw(),
            ))
        };
        let Some(op) = op else {
            return Err(self.error(None, &format!("{name} does not parse")));
        };
        if op.name().as_string_ref().as_str() != Ok("builtin.module") {
            return Err(CompileError::new(
                None,
                format!("{name}: expected a single builtin.module at the top level"),
            ));
        }
        if !op.verify() {
            return Err(self.error(None, &format!("{name} does not verify")));
        }
        Module::from_operation(op)
            .ok_or_else(|| CompileError::new(None, format!("{name}: not a module")))
    }

    fn run_pipeline(
        &self,
        module: &mut Module,
        elements: &str,
        stage: Stage,
    ) -> Result<(), CompileError> {
        let Some(path) = &self.options.reproducer else {
            return self.run_passes(module, elements, stage);
        };
        let input = text_with_locations(module);
        ir_dump::write_reproducer(path, &input, &format!("builtin.module({elements})")).map_err(
            |e| {
                CompileError::new(
                    Some(stage),
                    format!("cannot write the reproducer {}: {e}", path.display()),
                )
            },
        )?;
        let result = self.run_passes(module, elements, stage);
        if result.is_err() {
            self.narrow_reproducer(path, &input, elements);
        }
        result
    }

    /// Rewrites the reproducer of a failed stage (`input`, `elements`) as
    /// Triton's local one: the input of the first of its passes that fails
    /// alone, and that pass. Where none does, the stage's stays.
    fn narrow_reproducer(&self, path: &Path, input: &str, elements: &str) {
        let (Ok(passes), Some(mut module)) = (
            pipeline::expand(elements),
            Module::parse(&self.session.context, input),
        ) else {
            return;
        };
        for pass in passes {
            let before = text_with_locations(&module);
            if ir_dump::write_reproducer(path, &before, &format!("builtin.module({pass})")).is_err()
            {
                return;
            }
            let ran = self
                .session
                .build(&pass)
                .is_ok_and(|manager| manager.run(&mut module).is_ok());
            if !ran || !module.as_operation().verify() {
                return;
            }
        }
        // Best effort: the stage's reproducer was written before it ran.
        let _ = ir_dump::write_reproducer(path, input, &format!("builtin.module({elements})"));
    }

    /// Runs `builtin.module(elements)` on `module` and verifies the result.
    fn run_passes(
        &self,
        module: &mut Module,
        elements: &str,
        stage: Stage,
    ) -> Result<(), CompileError> {
        let cannot = |e: String| {
            let pass = elements.split('{').next().unwrap_or(elements);
            CompileError::new(Some(stage), format!("cannot run the {pass} pipeline: {e}"))
        };
        let options = self.options;
        let ran = if options.ir_dump == IrDump::Off && !options.pass_timing {
            self.session.pipeline(elements).map_err(cannot)?.run(module)
        } else {
            // A pass manager of its own, dropped after the run: MLIR prints
            // its timing report when the manager goes.
            let manager = self.session.build(elements).map_err(cannot)?;
            if options.ir_dump != IrDump::Off {
                ir_dump::enable(&manager);
            }
            if options.pass_timing {
                // SAFETY: a live pass manager, not running.
                unsafe { mlir_sys::mlirPassManagerEnableTiming(manager.to_raw()) };
            }
            match &options.ir_dump {
                IrDump::File(path) => ir_dump::with_stderr_in(path, || {
                    let ran = manager.run(module);
                    drop(manager);
                    ran
                })
                .map_err(|e| {
                    CompileError::new(
                        Some(stage),
                        format!("cannot write the IR dump to {}: {e}", path.display()),
                    )
                })?,
                _ => manager.run(module),
            }
        };
        ran.map_err(|_| self.error(Some(stage), &format!("{elements} failed")))?;
        if module.as_operation().verify() {
            Ok(())
        } else {
            Err(self.error(
                Some(stage),
                &format!("internal error: {elements} produced IR that does not verify"),
            ))
        }
    }
}

/// A module's text, without locations.
fn print(module: &Module) -> String {
    module.as_operation().to_string()
}

/// A stage's output as Triton's `kernel.asm` holds it: with locations, and
/// SSA values named after their `loc("name")`.
fn stage_text(module: &Module) -> String {
    module
        .as_operation()
        .to_string_with_flags(ir_dump::triton_flags())
        .unwrap_or_else(|_| print(module))
}

/// A module's text with its locations, as reproducers and frontends'
/// modules are printed.
fn text_with_locations(module: &Module) -> String {
    let flags = OperationPrintingFlags::new().enable_debug_info(true, false);
    module
        .as_operation()
        .to_string_with_flags(flags)
        .unwrap_or_else(|_| print(module))
}

/// An integer attribute of the module op.
fn module_int(module: &Module, name: &str) -> Option<i64> {
    let attribute = module.as_operation().attribute(name).ok()?;
    IntegerAttribute::try_from(attribute)
        .ok()
        .map(|a| a.value())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TTIR: &str = r#"
module {
  tt.func public @copy(%src: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %dst: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %offsets = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %bound = tt.splat %n : i32 -> tensor<128xi32>
    %mask = arith.cmpi slt, %offsets, %bound : tensor<128xi32>
    %src_splat = tt.splat %src : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %src_ptrs = tt.addptr %src_splat, %offsets : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %values = tt.load %src_ptrs, %mask : tensor<128x!tt.ptr<f32>>
    %dst_splat = tt.splat %dst : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %dst_ptrs = tt.addptr %dst_splat, %offsets : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %dst_ptrs, %values, %mask : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
"#;

    fn uncached() -> Options {
        Options {
            cache: Cache::Off,
            ..Options::default()
        }
    }

    #[test]
    fn reproducers_hold_the_last_stage_or_the_failing_pass() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("reproducer.mlir");
        let options = Options {
            reproducer: Some(path.clone()),
            ..uncached()
        };
        compile_to(TTIR, &options, Stage::Llir).unwrap();
        let last = std::fs::read_to_string(&path).unwrap();
        assert!(last.contains("\"ttg.num-warps\" = 4"), "{last}");
        assert!(
            last.contains("pipeline: \"builtin.module(make-llir{"),
            "{last}"
        );
        // sm_80 has no clusters: make-ttgir's first pass refuses them, and
        // the reproducer becomes that pass on its input.
        let clusters = Options {
            capability: 80,
            num_ctas: 2,
            ..options
        };
        let error = compile_to(TTIR, &clusters, Stage::Ptx).unwrap_err();
        assert_eq!(error.stage, Some(Stage::Ttgir));
        let narrowed = std::fs::read_to_string(&path).unwrap();
        assert!(
            narrowed.contains(
                "pipeline: \"builtin.module(convert-triton-to-tritongpu{target=cuda:80 num-warps=4 \
                 threads-per-warp=32 num-ctas=2})\""
            ),
            "{narrowed}"
        );
        assert!(narrowed.contains("tt.func public @copy") && !narrowed.contains("ttg.num-warps"));
    }

    #[test]
    fn ttir_goes_through_make_ttir_and_make_ttgir() {
        let output = compile_to(TTIR, &uncached(), Stage::Ttgir).unwrap();
        assert!(output.ttir.unwrap().contains("tt.func public @copy"));
        assert!(
            output.ttgir.contains("\"ttg.num-warps\" = 4"),
            "{}",
            output.ttgir
        );
        assert!(output.ttgir.contains("#ttg.blocked"), "{}", output.ttgir);
        let steps: Vec<&str> = output.timings.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(steps, ["context", "parse", "make-ttir", "make-ttgir"]);
        assert!(!output.cached);
    }

    #[test]
    fn ttgir_input_skips_the_first_stages() {
        let ttgir = compile_to(TTIR, &uncached(), Stage::Ttgir).unwrap().ttgir;
        let again = compile_to(ttgir.as_str(), &uncached(), Stage::Ttgir).unwrap();
        assert_eq!(again.ttir, None);
        assert_eq!(again.ttgir, ttgir);
        let error = compile_to(ttgir.as_str(), &uncached(), Stage::Ttir).unwrap_err();
        assert!(error.message.contains("there is no TTIR"), "{error}");
    }

    /// TTIR with a host tensor descriptor argument (TMA on sm_90), in
    /// Triton's calling convention (the descriptor, then its shape and
    /// strides).
    const TTIR_WITH_DESCRIPTOR: &str = r#"module {
  tt.func public @copy(%d: !tt.tensordesc<tensor<64x128xf16>>, %d_0: i32, %d_1: i32, %d_2: i64, %d_3: i64, %out: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %t = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<tensor<64x128xf16>> -> tensor<64x128xf16>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %c = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %r1 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c128 = arith.constant dense<128> : tensor<64x1xi32>
    %rs = arith.muli %r1, %c128 : tensor<64x1xi32>
    %c1 = tt.expand_dims %c {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %rb = tt.broadcast %rs : tensor<64x1xi32> -> tensor<64x128xi32>
    %cb = tt.broadcast %c1 : tensor<1x128xi32> -> tensor<64x128xi32>
    %o = arith.addi %rb, %cb : tensor<64x128xi32>
    %p = tt.splat %out : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>>
    %q = tt.addptr %p, %o : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
    tt.store %q, %t : tensor<64x128x!tt.ptr<f16>>
    tt.return
  }
}
"#;

    #[test]
    fn host_tensor_descriptors_become_tma_descriptors() {
        let output = compile_to(TTIR_WITH_DESCRIPTOR, &uncached(), Stage::Ptx).unwrap();
        let metadata = output.metadata.unwrap();
        assert_eq!(metadata.args[0].ty, tt_metadata::ArgType::TmaDescriptor);
        // A 128-byte swizzle holds 64 halves: two 64x64 boxes, as Triton's
        // launcher is told to make them, moved by one instruction that
        // warps 0 and 1 each issue for their box, as Triton issues them.
        assert_eq!(
            metadata.tensordesc_meta,
            [tt_metadata::TensorDescMeta {
                swizzle: 3,
                elem_size: 2,
                elem_type: 6,
                block_size: vec![64, 64],
                fp4_padded: false,
            }]
        );
        let ptx = output.ptx.unwrap();
        assert_eq!(ptx.matches("cp.async.bulk.tensor.2d").count(), 1, "{ptx}");
        assert!(
            ptx.contains(".param .align 64 .b8 copy_param_0[128]"),
            "{ptx}"
        );
    }

    #[test]
    fn descriptors_whose_tma_copies_are_not_lowered_become_pointers() {
        // A 2x512x32 block of i8 takes boxes of 256 of the 512 middle rows,
        // whose rows are not consecutive in the buffer: the lowering refuses
        // that copy, and the kernel compiles with the descriptor as a
        // pointer, shape and strides instead.
        let ttir = r#"module {
  tt.func public @k(%d: !tt.tensordesc<tensor<2x512x32xi8>>, %d_0: i32, %d_1: i32, %d_2: i32, %d_3: i64, %d_4: i64, %d_5: i64, %out: !tt.ptr<i8> {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %t = tt.descriptor_load %d[%c0, %c0, %c0] : !tt.tensordesc<tensor<2x512x32xi8>> -> tensor<2x512x32xi8>
    %r = tt.reshape %t : tensor<2x512x32xi8> -> tensor<32768xi8>
    %i = tt.make_range {end = 32768 : i32, start = 0 : i32} : tensor<32768xi32>
    %p = tt.splat %out : !tt.ptr<i8> -> tensor<32768x!tt.ptr<i8>>
    %q = tt.addptr %p, %i : tensor<32768x!tt.ptr<i8>>, tensor<32768xi32>
    tt.store %q, %r : tensor<32768x!tt.ptr<i8>>
    tt.return
  }
}
"#;
        let output = compile_to(ttir, &uncached(), Stage::Ptx).unwrap();
        let metadata = output.metadata.unwrap();
        assert_eq!(metadata.args[0].ty.to_string(), "*i8");
        assert!(metadata.tensordesc_meta.is_empty());
        assert!(!output.ptx.unwrap().contains("cp.async.bulk.tensor"));
    }

    #[test]
    fn a_built_module_compiles_like_its_text() {
        let context = new_context(false);
        let module = Module::parse(&context, TTIR).unwrap();
        let from_module = compile_to(&module, &uncached(), Stage::Ttgir).unwrap();
        // The module keeps its locations, in the buffer `Module::parse`
        // names `-`.
        let text = Input::Text {
            text: TTIR,
            name: "-",
        };
        let from_text = compile_to(text, &uncached(), Stage::Ttgir).unwrap();
        assert_eq!(from_module.ttgir, from_text.ttgir);
        assert!(
            from_text.ttgir.contains("loc(\"-\":4:16)"),
            "{}",
            from_text.ttgir
        );
    }

    #[test]
    fn errors_carry_located_diagnostics() {
        let bad = "module {\n  tt.func @f() {\n    %x = arith.addi %y, %y : i32\n  }\n}\n";
        let error = compile_to(
            Input::Text {
                text: bad,
                name: "bad.ttir",
            },
            &uncached(),
            Stage::Ptx,
        )
        .unwrap_err();
        assert_eq!(error.stage, None);
        assert!(
            error
                .message
                .contains("bad.ttir:3:21: error: use of undeclared SSA value"),
            "{error}"
        );
        let options = Options {
            num_warps: 3,
            ..uncached()
        };
        let error = compile_to(TTIR, &options, Stage::Ttgir).unwrap_err();
        assert_eq!(error.stage, Some(Stage::Ttgir));
        assert!(error.to_string().starts_with("ttgir stage: "), "{error}");
    }

    #[test]
    fn full_compile_without_any_set_up() {
        let compiled = compile(TTIR, &uncached()).unwrap();
        assert_eq!(compiled.metadata.name, "copy");
        assert_eq!(compiled.metadata.args.len(), 3);
        assert!(compiled.ptx.contains(".visible .entry copy("));
    }

    #[test]
    fn one_compiler_compiles_kernel_after_kernel_as_fresh_ones_do() {
        let compiler = Compiler::new();
        let eight = Options {
            num_warps: 8,
            ..uncached()
        };
        let bad = Input::Text {
            text: "module {\n  tt.func @f() {\n    tt.return %x : i32\n  }\n}\n",
            name: "bad.ttir",
        };
        for round in 0..2 {
            for options in [uncached(), eight.clone()] {
                let reused = compiler.compile(TTIR, &options).unwrap();
                let fresh = compile(TTIR, &options).unwrap();
                assert_eq!(reused.ttgir, fresh.ttgir, "round {round}");
                assert_eq!(reused.ptx, fresh.ptx, "round {round}");
                assert_eq!(reused.metadata, fresh.metadata, "round {round}");
            }
            // A failed compilation leaves the compiler usable, and its
            // diagnostics do not reach the next one's error.
            let error = compiler
                .compile_to(bad, &uncached(), Stage::Ptx)
                .unwrap_err();
            assert_eq!(error.message.matches("bad.ttir:3").count(), 1, "{error}");
            let three = Options {
                num_warps: 3,
                ..uncached()
            };
            let error = compiler.compile(TTIR, &three).unwrap_err();
            assert_eq!(error.stage, Some(Stage::Ttgir), "{error}");
            assert!(!error.message.contains("bad.ttir"), "{error}");
        }
        let ttgir = compiler.compile_to(TTIR, &eight, Stage::Ttgir).unwrap();
        assert!(
            ttgir.ttgir.contains("\"ttg.num-warps\" = 8"),
            "{}",
            ttgir.ttgir
        );
    }

    #[test]
    fn stages_by_name() {
        for stage in [Stage::Ttir, Stage::Ttgir, Stage::Llir, Stage::Ptx] {
            assert_eq!(Stage::from_name(stage.name()), Some(stage));
        }
        assert_eq!(Stage::from_name("cubin"), None);
        assert!(Stage::Ttir < Stage::Ptx);
    }
}
