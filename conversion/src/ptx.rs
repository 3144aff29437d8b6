//! From an LLVM module to PTX: the tail of Triton's `make_llir` and its
//! `make_ptx`.
//!
//! The module gets the NVPTX triple, the target machine's data layout and
//! the `nvvm-reflect-ftz` flag; libdevice is linked in when the module calls
//! an `__nv_` function; every non-kernel function definition is made
//! internal (so that O3 drops the unused libdevice code); LLVM's
//! `default<O3>` runs with the NVPTX target machine, and the target machine
//! prints PTX, fusing multiplies and adds into FMAs as Triton's default
//! `enable_fp_fusion` allows. The kernel's name is the single `.visible .entry` of the PTX.

use std::ffi::{c_char, CString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Once;

use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
use llvm_sys::core::{
    LLVMAddModuleFlag, LLVMConstInt, LLVMGetFastMathFlags, LLVMGetFunctionCallConv,
    LLVMGetInstructionOpcode, LLVMGetModuleFlag, LLVMGetValueName2, LLVMInt32TypeInContext,
    LLVMIsDeclaration, LLVMSetFastMathFlags, LLVMSetLinkage, LLVMSetTarget, LLVMValueAsMetadata,
};
use llvm_sys::linker::LLVMLinkModules2;
use llvm_sys::prelude::{LLVMMemoryBufferRef, LLVMValueRef};
use llvm_sys::support::LLVMParseCommandLineOptions;
use llvm_sys::target::{
    LLVMDisposeTargetData, LLVMInitializeNVPTXAsmPrinter, LLVMInitializeNVPTXTarget,
    LLVMInitializeNVPTXTargetInfo, LLVMInitializeNVPTXTargetMC, LLVMSetModuleDataLayout,
};
use llvm_sys::target_machine::{
    LLVMCodeGenFileType, LLVMCodeGenOptLevel, LLVMCodeModel, LLVMCreateTargetDataLayout,
    LLVMCreateTargetMachine, LLVMDisposeTargetMachine, LLVMGetTargetFromTriple, LLVMRelocMode,
    LLVMSetTargetMachineAsmVerbosity, LLVMTargetMachineEmitToMemoryBuffer, LLVMTargetMachineRef,
};
use llvm_sys::transforms::pass_builder::{
    LLVMCreatePassBuilderOptions, LLVMDisposePassBuilderOptions, LLVMPassBuilderOptionsRef,
    LLVMRunPasses,
};
use llvm_sys::{
    LLVMCallConv, LLVMFastMathAllowContract, LLVMLinkage, LLVMModuleFlagBehavior, LLVMOpcode,
};

use crate::llvm_ir::{blocks, functions, instructions, take_message, LlvmModule, MemoryBuffer};

/// The NVPTX target triple Triton compiles for.
pub const TRIPLE: &str = "nvptx64-nvidia-cuda";

/// The PTX version Triton 3.6 emits (`.version 8.7`), times ten.
pub const PTX_VERSION: u32 = 87;

/// The environment variable that names libdevice (`libdevice.10.bc`).
pub const LIBDEVICE_ENV: &str = "TT_LIBDEVICE";

/// What the PTX step compiles for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PtxOptions {
    /// Compute capability, major * 10 + minor (90 for an H100).
    pub capability: u32,
    /// PTX ISA version times ten ([`PTX_VERSION`]).
    pub ptx_version: u32,
    /// Flush denormals in libdevice functions (`nvvm-reflect-ftz`), as
    /// Triton's `enable_reflect_ftz` does by default.
    pub reflect_ftz: bool,
    /// libdevice; `None` means [`default_libdevice`]. Only read when the
    /// module calls an `__nv_` function.
    pub libdevice: Option<PathBuf>,
    /// Fuse floating-point multiplies and adds into FMAs (Triton's
    /// `enable_fp_fusion`, on by default).
    pub fp_fusion: bool,
}

impl PtxOptions {
    /// Triton's defaults for `capability`.
    pub fn new(capability: u32) -> Self {
        Self {
            capability,
            ptx_version: PTX_VERSION,
            reflect_ftz: true,
            libdevice: None,
            fp_fusion: true,
        }
    }

    /// The processor name: `sm_<cc>`, with the `a` suffix (architecture
    /// specific features such as wgmma) from capability 90 on.
    pub fn cpu(&self) -> String {
        let suffix = if self.capability >= 90 { "a" } else { "" };
        format!("sm_{}{suffix}", self.capability)
    }

    /// The target feature string, `+ptx87`.
    pub fn features(&self) -> String {
        format!("+ptx{}", self.ptx_version)
    }
}

/// A compiled kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ptx {
    /// The PTX text.
    pub text: String,
    /// The name of its single `.visible .entry`.
    pub entry: String,
}

/// Why the PTX step failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxError(pub String);

impl fmt::Display for PtxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PtxError {}

impl From<String> for PtxError {
    fn from(message: String) -> Self {
        Self(message)
    }
}

/// libdevice's path: `$TT_LIBDEVICE`, else where `scripts/setup.sh`
/// installs it (`.deps/cuda/libdevice.10.bc` in the repository).
pub fn default_libdevice() -> PathBuf {
    match std::env::var_os(LIBDEVICE_ENV) {
        Some(path) => PathBuf::from(path),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../.deps/cuda/libdevice.10.bc"),
    }
}

/// Compiles `module` to PTX for `options`: [`Target::optimize`], then
/// [`Target::emit`].
pub fn compile_to_ptx(module: LlvmModule, options: &PtxOptions) -> Result<Ptx, PtxError> {
    let target = Target::new(options)?;
    target.optimize(&module)?;
    target.emit(&module)
}

/// The NVPTX target of one compilation: its options and one target
/// machine, which optimization and code generation share (creating one
/// costs a sizeable part of a small kernel's compile time).
pub struct Target {
    options: PtxOptions,
    machine: TargetMachine,
}

impl Target {
    /// The target for `options`.
    pub fn new(options: &PtxOptions) -> Result<Self, PtxError> {
        initialize_nvptx();
        Ok(Self {
            options: options.clone(),
            machine: TargetMachine::new(options)?,
        })
    }

    /// The LLVM tail of Triton's `make_llir`: NVPTX triple and data layout,
    /// `nvvm-reflect-ftz`, libdevice when needed, internal non-kernel
    /// functions, `default<O3>`, and the critical-edge blocks O3 leaves
    /// folded back into their branches ([`crate::edge_blocks`]). The module
    /// is then what Triton calls `llir`.
    pub fn optimize(&self, module: &LlvmModule) -> Result<(), PtxError> {
        self.retarget(module);
        set_reflect_ftz(module, self.options.reflect_ftz);
        if calls_libdevice(module) {
            let path = self
                .options
                .libdevice
                .clone()
                .unwrap_or_else(default_libdevice);
            link_libdevice(module, &path)?;
        }
        internalize_non_kernels(module);
        module.verify()?;
        run_o3(module, &self.machine)?;
        crate::edge_blocks::fold_edge_blocks(module);
        Ok(())
    }

    /// Gives `module` the NVPTX triple and this target's data layout.
    fn retarget(&self, module: &LlvmModule) {
        // SAFETY: a live module and target machine; the layout made here is
        // copied into the module and disposed after.
        unsafe {
            let triple = CString::new(TRIPLE).expect("no NUL");
            LLVMSetTarget(module.raw(), triple.as_ptr());
            let layout = LLVMCreateTargetDataLayout(self.machine.0);
            LLVMSetModuleDataLayout(module.raw(), layout);
            LLVMDisposeTargetData(layout);
        }
    }

    /// Triton's `make_ptx` on LLVM IR text (an `llir` stage's output, which
    /// a frontend may have replaced): the module takes this target's triple
    /// and data layout, as Triton's `translate_to_asm` gives it, and is
    /// printed as PTX.
    pub fn emit_text(&self, llir: &str) -> Result<Ptx, PtxError> {
        let module = LlvmModule::parse_ir(llir, "llir").map_err(PtxError)?;
        self.retarget(&module);
        module.verify().map_err(PtxError)?;
        self.emit(&module)
    }

    /// Triton's `make_ptx`: prints the optimized module as PTX and finds its
    /// kernel. With `fp_fusion`, the module's floating-point adds and
    /// multiplies are marked `contract` first, which is how Triton's
    /// `enable_fp_fusion` reaches code generation here.
    pub fn emit(&self, module: &LlvmModule) -> Result<Ptx, PtxError> {
        if self.options.fp_fusion {
            allow_contraction(module);
        }
        let text = self.machine.emit_assembly(module)?;
        let text = strip_debug_target(&text);
        let entry = entry_name(&text)?;
        Ok(Ptx { text, entry })
    }
}

/// Triton's `isEnvValueBool` for an environment variable's value: `on`,
/// `true`, `1` and `off`, `false`, `0` (any case; empty counts as off),
/// else `None`.
pub fn triton_env_bool(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "1" => Some(true),
        "off" | "false" | "0" | "" => Some(false),
        _ => None,
    }
}

/// Registers the NVPTX target once per process and sets the code
/// generation flags Triton passes to `translate_to_asm`.
fn initialize_nvptx() {
    static INIT: Once = Once::new();
    INIT.call_once(|| unsafe {
        LLVMInitializeNVPTXTargetInfo();
        LLVMInitializeNVPTXTarget();
        LLVMInitializeNVPTXTargetMC();
        LLVMInitializeNVPTXAsmPrinter();
        // Triton sets `nvptx-mad-wide-opt` and `nvptx-short-ptr` (32-bit
        // pointers to shared, const and local memory, so the data layout
        // says `p3:32:32`) on LLVM's option registry, before any data
        // layout is made; the C API reaches that registry only through a
        // command line. It is parsed exactly once: parsing a flag a second
        // time is an error that makes LLVM exit.
        //
        // Code generation keeps LLVM 22's straight-line strength reduction
        // although it is most of its time (50 of 67 ms for the corpus
        // `matmul`): left out, tutorial 03's 128x256 kernel changes by a
        // few 64-bit pointer steps only, yet ran 5-7% slower on the H200
        // (docs/dot-kernels.md, compile time).
        let mut args = vec![
            c"tt-compiler".as_ptr(),
            c"-nvptx-mad-wide-opt".as_ptr(),
            c"-nvptx-short-ptr".as_ptr(),
        ];
        // Triton's `LLVM_IR_ENABLE_DUMP`: the module after every LLVM pass,
        // on stderr; like Triton's, on for the rest of the process (read
        // here, at the process's first compilation).
        let dump = std::env::var("LLVM_IR_ENABLE_DUMP").unwrap_or_default();
        if triton_env_bool(&dump) == Some(true) {
            args.push(c"-print-after-all".as_ptr());
        }
        LLVMParseCommandLineOptions(args.len() as i32, args.as_ptr(), std::ptr::null());
    });
}

/// An NVPTX target machine, disposed when dropped.
struct TargetMachine(LLVMTargetMachineRef);

impl TargetMachine {
    fn new(options: &PtxOptions) -> Result<Self, PtxError> {
        let triple = CString::new(TRIPLE).expect("no NUL");
        let cpu = CString::new(options.cpu()).expect("no NUL");
        let features = CString::new(options.features()).expect("no NUL");
        unsafe {
            let mut target = std::ptr::null_mut();
            let mut message = std::ptr::null_mut();
            if LLVMGetTargetFromTriple(triple.as_ptr(), &mut target, &mut message) != 0 {
                return Err(PtxError(format!(
                    "no NVPTX target in this LLVM: {}",
                    take_message(message)
                )));
            }
            let machine = LLVMCreateTargetMachine(
                target,
                triple.as_ptr(),
                cpu.as_ptr(),
                features.as_ptr(),
                LLVMCodeGenOptLevel::LLVMCodeGenLevelAggressive,
                LLVMRelocMode::LLVMRelocDefault,
                LLVMCodeModel::LLVMCodeModelDefault,
            );
            if machine.is_null() {
                return Err(PtxError(format!(
                    "LLVM could not create a target machine for {TRIPLE}"
                )));
            }
            // Verbose assembly, as Triton's: each `.loc` is followed by its
            // `// file:line:col @[ inlined-at ]`, blocks and functions are
            // labelled in comments.
            LLVMSetTargetMachineAsmVerbosity(machine, 1);
            Ok(Self(machine))
        }
    }

    fn emit_assembly(&self, module: &LlvmModule) -> Result<String, PtxError> {
        let mut message = std::ptr::null_mut();
        let mut buffer: LLVMMemoryBufferRef = std::ptr::null_mut();
        unsafe {
            if LLVMTargetMachineEmitToMemoryBuffer(
                self.0,
                module.raw(),
                LLVMCodeGenFileType::LLVMAssemblyFile,
                &mut message,
                &mut buffer,
            ) != 0
            {
                let message = take_message(message);
                return Err(PtxError(
                    module
                        .context()
                        .error(&format!("PTX emission failed: {message}")),
                ));
            }
            let buffer = MemoryBuffer(buffer);
            Ok(String::from_utf8_lossy(buffer.bytes()).into_owned())
        }
    }
}

impl Drop for TargetMachine {
    fn drop(&mut self) {
        unsafe { LLVMDisposeTargetMachine(self.0) }
    }
}

/// Options of LLVM's new pass manager, disposed when dropped.
struct PassBuilderOptions(LLVMPassBuilderOptionsRef);

impl Drop for PassBuilderOptions {
    fn drop(&mut self) {
        unsafe { LLVMDisposePassBuilderOptions(self.0) }
    }
}

fn run_o3(module: &LlvmModule, machine: &TargetMachine) -> Result<(), PtxError> {
    let options = PassBuilderOptions(unsafe { LLVMCreatePassBuilderOptions() });
    let passes = c"default<O3>";
    let error = unsafe { LLVMRunPasses(module.raw(), passes.as_ptr(), machine.0, options.0) };
    if error.is_null() {
        Ok(())
    } else {
        let message = unsafe { take_message(llvm_sys::error::LLVMGetErrorMessage(error)) };
        Err(PtxError(
            module
                .context()
                .error(&format!("LLVM's O3 pipeline failed: {message}")),
        ))
    }
}

/// Adds the `nvvm-reflect-ftz` module flag unless the module has one.
fn set_reflect_ftz(module: &LlvmModule, on: bool) {
    let key = "nvvm-reflect-ftz";
    unsafe {
        if !LLVMGetModuleFlag(module.raw(), key.as_ptr().cast(), key.len()).is_null() {
            return;
        }
        let i32_type = LLVMInt32TypeInContext(module.context().raw());
        let value = LLVMValueAsMetadata(LLVMConstInt(i32_type, u64::from(on), 0));
        LLVMAddModuleFlag(
            module.raw(),
            LLVMModuleFlagBehavior::LLVMModuleFlagBehaviorOverride,
            key.as_ptr().cast(),
            key.len(),
            value,
        );
    }
}

fn name(value: LLVMValueRef) -> String {
    let mut len = 0;
    let raw: *const c_char = unsafe { LLVMGetValueName2(value, &mut len) };
    if raw.is_null() {
        return String::new();
    }
    let bytes = unsafe { std::slice::from_raw_parts(raw.cast::<u8>(), len) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Whether the module declares an `__nv_` (libdevice) function.
fn calls_libdevice(module: &LlvmModule) -> bool {
    functions(module.raw())
        .any(|f| unsafe { LLVMIsDeclaration(f) } != 0 && name(f).starts_with("__nv_"))
}

fn link_libdevice(module: &LlvmModule, path: &Path) -> Result<(), PtxError> {
    if !path.is_file() {
        return Err(PtxError(format!(
            "the kernel calls libdevice functions, but libdevice is not at {} \
             (run scripts/setup.sh, or set {LIBDEVICE_ENV} to libdevice.10.bc)",
            path.display()
        )));
    }
    let buffer = MemoryBuffer::from_file(path)?;
    let mut library = std::ptr::null_mut();
    // The bitcode reader copies what it needs: the buffer stays ours.
    if unsafe { LLVMParseBitcodeInContext2(module.context().raw(), buffer.raw(), &mut library) }
        != 0
    {
        return Err(PtxError(format!(
            "{} is not a valid LLVM bitcode file",
            path.display()
        )));
    }
    // libdevice carries its own triple and data layout; take the kernel's.
    unsafe {
        let triple = CString::new(TRIPLE).expect("no NUL");
        LLVMSetTarget(library, triple.as_ptr());
        llvm_sys::core::LLVMSetDataLayout(
            library,
            llvm_sys::core::LLVMGetDataLayoutStr(module.raw()),
        );
    }
    // Linking consumes `library`, whatever the outcome.
    if unsafe { LLVMLinkModules2(module.raw(), library) } != 0 {
        return Err(PtxError(
            module
                .context()
                .error(&format!("linking libdevice ({}) failed", path.display())),
        ));
    }
    Ok(())
}

/// Gives internal linkage to every function definition that is not a
/// kernel: the kernels are the module's only entry points.
fn internalize_non_kernels(module: &LlvmModule) {
    for function in functions(module.raw()) {
        let is_kernel = unsafe { LLVMGetFunctionCallConv(function) }
            == LLVMCallConv::LLVMPTXKernelCallConv as u32;
        if !is_kernel && unsafe { LLVMIsDeclaration(function) } == 0 {
            unsafe { LLVMSetLinkage(function, LLVMLinkage::LLVMInternalLinkage) };
        }
    }
}

/// Marks every floating-point add, subtract and multiply `contract`, so
/// that code generation may fuse them into FMAs: the effect of Triton's
/// `enable_fp_fusion` (the target option `AllowFPOpFusion = Fast`, which
/// the C API cannot set). Done just before code generation, so that the
/// optimized LLVM IR stays as Triton prints it.
fn allow_contraction(module: &LlvmModule) {
    for function in functions(module.raw()) {
        for block in blocks(function) {
            for inst in instructions(block) {
                // SAFETY: an instruction of the live module.
                let opcode = unsafe { LLVMGetInstructionOpcode(inst) };
                if matches!(
                    opcode,
                    LLVMOpcode::LLVMFAdd | LLVMOpcode::LLVMFSub | LLVMOpcode::LLVMFMul
                ) {
                    // SAFETY: a floating-point instruction, which carries
                    // fast-math flags.
                    unsafe {
                        let flags = LLVMGetFastMathFlags(inst);
                        LLVMSetFastMathFlags(inst, flags | LLVMFastMathAllowContract);
                    }
                }
            }
        }
    }
}

/// The PTX with `, debug` removed from its `.target` line, as Triton does.
fn strip_debug_target(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len());
    for line in ptx.split_inclusive('\n') {
        if line.starts_with(".target ") {
            out.push_str(&line.replace(", debug", ""));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The name of the single `.visible .entry` of `ptx`.
pub fn entry_name(ptx: &str) -> Result<String, PtxError> {
    let entries: Vec<&str> = ptx
        .lines()
        .filter_map(|line| line.strip_prefix(".visible .entry "))
        .map(|rest| rest.split('(').next().unwrap_or(rest).trim())
        .collect();
    match entries.as_slice() {
        [one] => Ok((*one).to_owned()),
        [] => Err(PtxError("the PTX has no kernel (.visible .entry)".into())),
        many => Err(PtxError(format!(
            "the PTX has {} kernels ({}); expected one",
            many.len(),
            many.join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn deps_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../.deps/cuda")
    }

    /// The corpus folder (`$TT_CORPUS`, else `<repo>/../shared/corpus`),
    /// or `None` after saying why the test is skipped.
    fn corpus_dir() -> Option<PathBuf> {
        let dir = match std::env::var_os("TT_CORPUS") {
            Some(dir) => PathBuf::from(dir),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
        };
        if dir.join("README.md").is_file() {
            Some(dir)
        } else {
            println!("skipped: no reference corpus at {}", dir.display());
            None
        }
    }

    /// ptxas, and whether it must be there: `$TT_PTXAS` or the one
    /// `scripts/setup.sh` installs are required; one on `PATH` is used when
    /// present.
    fn ptxas() -> Option<PathBuf> {
        let required = std::env::var_os("TT_PTXAS")
            .map(PathBuf::from)
            .or_else(|| Some(deps_dir().join("bin/ptxas")).filter(|p| p.is_file()));
        if let Some(path) = required {
            return Some(path);
        }
        let on_path = Command::new("ptxas").arg("--version").output();
        match on_path {
            Ok(output) if output.status.success() => Some(PathBuf::from("ptxas")),
            _ => {
                println!("ptxas check skipped: no ptxas (run scripts/setup.sh)");
                None
            }
        }
    }

    fn assemble(ptxas: &Path, ptx: &str, arch: &str) {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("kernel.ptx");
        std::fs::write(&input, ptx).unwrap();
        let output = Command::new(ptxas)
            .args(["--gpu-name", arch, "-o"])
            .arg(dir.path().join("kernel.cubin"))
            .arg(&input)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", ptxas.display()));
        assert!(
            output.status.success(),
            "ptxas rejected the PTX: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }

    #[test]
    fn compiles_every_corpus_kernel() {
        let Some(corpus) = corpus_dir() else { return };
        let ptxas = ptxas();
        let mut kernels: Vec<PathBuf> = std::fs::read_dir(&corpus)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir() && p.join("passes.log").is_file())
            .collect();
        kernels.sort();
        assert_eq!(kernels.len(), 11, "kernels in {}", corpus.display());
        for dir in kernels {
            let kernel = dir.file_name().unwrap().to_string_lossy().into_owned();
            let llir = std::fs::read_to_string(dir.join(format!("{kernel}.llir"))).unwrap();
            let reference = std::fs::read_to_string(dir.join(format!("{kernel}.ptx"))).unwrap();
            let module = LlvmModule::parse_ir(&llir, &format!("{kernel}.llir"))
                .unwrap_or_else(|e| panic!("{kernel}: {e}"));
            let ptx = compile_to_ptx(module, &PtxOptions::new(90))
                .unwrap_or_else(|e| panic!("{kernel}: {e}"));
            assert_eq!(ptx.entry, entry_name(&reference).unwrap(), "{kernel}");
            assert!(ptx.text.contains("\n.version 8.7\n"), "{kernel}");
            assert!(ptx.text.contains("\n.target sm_90a\n"), "{kernel}");
            // Multiplies and adds are fused as with Triton's enable_fp_fusion.
            let fmas = |ptx: &str| ptx.matches("fma.rn.f32").count();
            assert_eq!(
                fmas(&ptx.text),
                fmas(&reference),
                "{kernel}: fma.rn.f32 count"
            );
            if let Some(ptxas) = &ptxas {
                assemble(ptxas, &ptx.text, "sm_90a");
            }
        }
    }

    #[test]
    fn fp_fusion_off_leaves_multiplies_and_adds_apart() {
        const MULADD: &str = r#"
define ptx_kernel void @muladd(ptr addrspace(1) %p, float %a, float %b) {
  %x = load float, ptr addrspace(1) %p
  %m = fmul float %x, %a
  %y = fadd float %m, %b
  store float %y, ptr addrspace(1) %p
  ret void
}
"#;
        let ptx = |fp_fusion: bool| {
            let module = LlvmModule::parse_ir(MULADD, "muladd.ll").unwrap();
            let options = PtxOptions {
                fp_fusion,
                ..PtxOptions::new(90)
            };
            compile_to_ptx(module, &options).unwrap().text
        };
        let fused = ptx(true);
        assert!(fused.contains("fma.rn.f32"), "{fused}");
        let apart = ptx(false);
        assert!(!apart.contains("fma.rn.f32"), "{apart}");
        assert!(apart.contains("mul.rn.f32"), "{apart}");
    }

    const EXPF: &str = r#"
declare float @__nv_expf(float)

define ptx_kernel void @exp_kernel(ptr addrspace(1) %p) {
  %x = load float, ptr addrspace(1) %p
  %y = call float @__nv_expf(float %x)
  store float %y, ptr addrspace(1) %p
  ret void
}

define float @helper(float %x) {
  ret float %x
}
"#;

    #[test]
    fn links_libdevice_when_needed() {
        let path = default_libdevice();
        if !path.is_file() {
            println!(
                "skipped: no libdevice at {} (run scripts/setup.sh)",
                path.display()
            );
            return;
        }
        let module = LlvmModule::parse_ir(EXPF, "expf.ll").unwrap();
        let ptx = compile_to_ptx(module, &PtxOptions::new(90)).unwrap();
        assert_eq!(ptx.entry, "exp_kernel");
        // libdevice's expf is inlined (ftz: reflect-ftz is on); the unused
        // helper and the rest of libdevice are gone.
        assert!(ptx.text.contains("ex2.approx.ftz.f32"), "{}", ptx.text);
        assert!(!ptx.text.contains("__nv_"), "{}", ptx.text);
        assert!(!ptx.text.contains("helper"), "{}", ptx.text);
        if let Some(ptxas) = ptxas() {
            assemble(&ptxas, &ptx.text, "sm_90a");
        }
    }

    #[test]
    fn a_failed_link_is_an_error_not_an_exit() {
        let path = default_libdevice();
        if !path.is_file() {
            println!("skipped: no libdevice at {}", path.display());
            return;
        }
        // The kernel defines a function libdevice defines too.
        let clash = format!("{EXPF}\ndefine float @__nv_fabsf(float %x) {{\n  ret float %x\n}}\n");
        let module = LlvmModule::parse_ir(&clash, "clash.ll").unwrap();
        let error = compile_to_ptx(module, &PtxOptions::new(90)).unwrap_err().0;
        assert!(error.starts_with("linking libdevice ("), "{error}");
        assert!(error.contains("__nv_fabsf"), "{error}");
    }

    #[test]
    fn missing_libdevice_is_a_clear_error() {
        let module = LlvmModule::parse_ir(EXPF, "expf.ll").unwrap();
        let options = PtxOptions {
            libdevice: Some(PathBuf::from("/nonexistent/libdevice.10.bc")),
            ..PtxOptions::new(90)
        };
        let error = compile_to_ptx(module, &options).unwrap_err().0;
        assert!(
            error.contains("libdevice is not at /nonexistent/libdevice.10.bc"),
            "{error}"
        );
    }

    #[test]
    fn targets_and_entries() {
        assert_eq!(PtxOptions::new(90).cpu(), "sm_90a");
        assert_eq!(PtxOptions::new(80).cpu(), "sm_80");
        assert_eq!(PtxOptions::new(90).features(), "+ptx87");
        let module = LlvmModule::parse_ir("define void @f() {\n  ret void\n}\n", "f.ll").unwrap();
        let ptx = compile_to_ptx(module, &PtxOptions::new(80)).unwrap_err();
        assert_eq!(ptx.0, "the PTX has no kernel (.visible .entry)");
        let two = ".visible .entry a(\n)\n.visible .entry b(\n)\n";
        assert_eq!(
            entry_name(two).unwrap_err().0,
            "the PTX has 2 kernels (a, b); expected one"
        );
    }
}
