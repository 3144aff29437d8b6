"""Triton 3.6's stage hook: @triton.jit and @gluon.jit kernels compiled by this project.

``enable()`` hooks the NVIDIA backend's ``add_stages`` (after it has run
``triton.knobs.runtime.add_stages_inspection_hook``, so a user's own hook
keeps working, and so does ours when a test resets Triton's knobs) and
replaces its ``ttgir``, ``llir`` and ``ptx`` stages.
Triton's frontend, its ``make_ttir``, ptxas (the ``cubin`` stage), the
launcher and the autotuner stay Triton's. The ``ttgir`` stage compiles the
TTIR to PTX in one call (a Gluon kernel's after Triton's ``gluon_to_ttgir``,
which resolves the layouts its author left to the compiler, from
``make_llir`` on); the later stages hand out its results and fill in
the metadata fields Triton's stages fill (``shared``, the scratch sizes,
``name``, ``tensordesc_meta``, ...), so ``kernel.asm["ttgir"]``,
``["llir"]`` and ``["ptx"]`` show this project's output.

Modes: ``strict`` raises :class:`CompileError` where this compiler refuses
a kernel; ``fallback`` logs the refusal (logger ``triton_rs``), counts it
(:func:`stats`) and lets Triton's own stages compile that kernel.

Triton's debugging variables reach this compiler's stages as they reach
Triton's: ``MLIR_ENABLE_DUMP`` (``1``, or a kernel's name) prints the module
before every pass, to stderr, ``MLIR_ENABLE_TIMING`` prints each stage's
pass timings, ``TRITON_REPRODUCER_PATH`` names the file that holds each
stage's input as an MLIR reproducer (the failing pass's, where one fails),
``MLIR_ENABLE_DIAGNOSTICS`` (``warnings``, ``remarks``, ``operations``,
``stacktraces``) prints the compiler's warnings and remarks to stderr with
their source lines, and ``LLVM_IR_ENABLE_DUMP`` prints the LLVM IR after every LLVM pass (read
at the process's first compilation; it then stays on, as Triton's). With
``MLIR_DUMP_PATH`` set, Triton's own passes (its ``make_ttir``) go to that
file and this compiler's to the file of that name plus ``.triton_rs``:
Triton buffers its file, so a second writer would interleave with it.

``TRITON_RS_COMPARE=FILE`` has each kernel's TTIR also compiled by Triton's
own ``make_ttgir`` and appends a JSON line per kernel to ``FILE``: its name
and whether the two TTGIRs are the same, without locations and SSA names
(with the first differing lines where they are not). A developer's check of
this compiler against Triton's, on whatever the process compiles.

Where Triton replaces a stage's output (``TRITON_KERNEL_OVERRIDE`` files, a
config's ``ir_override``), the next stage compiles the replacement: TTGIR
from ``make_llir`` on, LLVM IR to PTX.

Triton's on-disk cache key includes the backend's hash; while the hook is
on, that hash carries this package's build and mode, so a kernel compiled
by one compiler is never served to the other. Kernels already compiled in
this process before ``enable()`` stay as they were (Triton keeps them in
memory): enable before the first launch, or with ``TRITON_RS=1``.
"""

import json
import logging
import os
import threading

from . import _triton_rs
from ._triton_rs import CompileError

MODES = ("strict", "fallback")

log = logging.getLogger("triton_rs")

_lock = threading.Lock()
_mode = None
_patched = False
_stats = {"compiled": 0, "fallbacks": 0, "fallback_kernels": []}


def _debug_options(module_text):
    """``ir_dump``, ``pass_timing``, ``reproducer`` and ``diagnostics`` for
    a compilation of ``module_text``, as Triton's environment asks for
    them; a dump file (``MLIR_DUMP_PATH``) becomes its ``.triton_rs``
    sibling."""
    options = _triton_rs.debug_options(module_text)
    if options["ir_dump"] not in (None, "-"):
        options["ir_dump"] += ".triton_rs"
    return options


def _comparable(ttgir):
    """TTGIR's lines without locations and with SSA names blanked (names
    come from locations), for comparing two compilers' output."""
    import re

    lines = []
    for line in ttgir.splitlines():
        if not line.strip() or line.startswith("#loc"):
            continue
        line = re.sub(r"\s*loc\((?:[^()]|\([^()]*\))*\)", "", line)
        lines.append(re.sub(r"%[\w.#$-]+", "%", line))
    return lines


def _module_of(text, context):
    """MLIR text as a module of Triton's, in ``context``."""
    import tempfile

    from triton._C.libtriton import ir

    with tempfile.NamedTemporaryFile("w", suffix=".ttgir") as handle:
        handle.write(text)
        handle.flush()
        module = ir.parse_mlir_module(handle.name, context)
    module.context = context
    return module


def _fingerprint():
    """This build: the version and the extension module's size and mtime."""
    info = os.stat(_triton_rs.__file__)
    return f"{_triton_rs.__version__}-{info.st_size}-{info.st_mtime_ns}"


def enable(mode="strict"):
    """Makes Triton compile NVIDIA kernels with this project from now on.

    ``mode`` is ``"strict"`` (a refusal raises :class:`CompileError`) or
    ``"fallback"`` (a refusal is logged and counted, and Triton compiles
    that kernel itself).
    """
    global _mode
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}: expected one of {MODES}")
    import triton

    if not triton.__version__.startswith("3.6."):
        raise RuntimeError(f"triton_rs targets Triton 3.6; this is Triton {triton.__version__}")
    with _lock:
        _patch_backend()
        _mode = mode


def _patch_backend():
    """Wraps ``CUDABackend.add_stages`` and ``CUDABackend.hash`` once; with
    the hook off (``_mode`` None) both behave as Triton's own."""
    global _patched
    if _patched:
        return
    from triton.backends.nvidia.compiler import CUDABackend

    triton_add_stages = CUDABackend.add_stages
    triton_hash = CUDABackend.hash
    fingerprint = _fingerprint()

    def add_stages(self, stages, options, language):
        triton_add_stages(self, stages, options, language)
        if _mode is not None:
            capability = self._parse_arch(options.arch)
            _Compilation(_mode, self, stages, options, language, capability).install()

    def hash(self):
        base = triton_hash(self)
        return base if _mode is None else f"{base}-triton_rs-{_mode}-{fingerprint}"

    CUDABackend.add_stages = add_stages
    CUDABackend.hash = hash
    _patched = True


def disable():
    """Hands kernels compiled from now on back to Triton's own stages."""
    global _mode
    with _lock:
        _mode = None


def mode():
    """``"strict"``, ``"fallback"``, or None when the hook is off."""
    return _mode


def stats():
    """Kernels compiled by this project and kernels handed back to Triton
    (fallback mode), with each fallback's kernel name and reason."""
    with _lock:
        return {
            "compiled": _stats["compiled"],
            "fallbacks": _stats["fallbacks"],
            "fallback_kernels": list(_stats["fallback_kernels"]),
        }


def reset_stats():
    """Sets the counts of :func:`stats` back to zero."""
    with _lock:
        _stats.update(compiled=0, fallbacks=0, fallback_kernels=[])


def _unsupported(options, language):
    """Why this compilation cannot go through this compiler, or None."""
    from triton.backends.compiler import Language

    if language not in (Language.TRITON, Language.GLUON):
        return f"{language.name.lower()} kernels"
    if options.instrumentation_mode:
        return f"instrumentation mode '{options.instrumentation_mode}'"
    others = [name for name, _ in options.extern_libs if name != "libdevice"]
    if others:
        return "extern libraries other than libdevice (" + ", ".join(others) + ")"
    from triton import knobs
    from triton.backends.nvidia.compiler import CUDABackend

    if CUDABackend.instrumentation is not None:
        return "Proton's instrumentation of make_llir"
    if knobs.compilation.dump_ir_extract_di_local_variables:
        return "LLVM_EXTRACT_DI_LOCAL_VARIABLES (source variables in the debug information)"
    return None


class _Compilation:
    """One kernel's compilation: the replaced stages and what they share."""

    def __init__(self, mode, backend, stages, options, language, capability):
        self.mode = mode
        self.backend = backend
        self.stages = stages
        self.triton = dict(stages)
        self.options = options
        self.language = language
        self.capability = capability
        self.result = None
        self.ttgir_out = None
        self.llir_out = None
        self.fell_back = False

    def install(self):
        unsupported = _unsupported(self.options, self.language)
        if unsupported is not None:
            if self.mode == "strict":
                # Raised at compile time, not here: a refusal belongs to the
                # kernel's compilation, as every other one.
                self.stages["llir"] = self._refuse(unsupported)
                if "ttgir" in self.stages:
                    self.stages["ttgir"] = self._refuse(unsupported)
                return
            self.fell_back = True
            self._count_fallback("<kernel>", f"does not support {unsupported} yet")
            return
        self.stages["ttgir"] = self.ttgir
        self.stages["llir"] = self.llir
        self.stages["ptx"] = self.ptx

    def _refuse(self, what):
        def stage(src, metadata):
            error = CompileError(f"triton_rs does not support {what} yet")
            error.stage = "ttgir"
            raise error

        return stage

    def _count_fallback(self, name, reason):
        first_line = reason.strip().splitlines()[0] if reason.strip() else reason
        with _lock:
            _stats["fallbacks"] += 1
            _stats["fallback_kernels"].append((name, first_line))
        log.warning("triton_rs: %s is compiled by Triton instead: %s", name, first_line)

    def ttgir(self, mod, metadata):
        from triton import knobs
        from triton.backends.compiler import Language

        options = self.options
        name = mod.get_entry_func_name()
        gluon = self.language == Language.GLUON
        if gluon:
            # A Gluon kernel is TTGIR already, its layouts the author's:
            # Triton's gluon_to_ttgir only resolves the ones left to the
            # compiler (auto and coalesced encodings) and inlines; this
            # project compiles the result from make_llir on.
            mod = self.triton["ttgir"](mod, metadata)
        elif options.maxnreg is not None:
            # As Triton's make_ttgir does; the lowering reads it.
            from triton._C.libtriton import ir

            mod.set_attr("ttg.maxnreg", ir.builder(mod.context).get_int32_attr(options.maxnreg))
        try:
            self._compile(str(mod), f"{name}.ttgir" if gluon else f"{name}.ttir")
        except CompileError as error:
            if self.mode == "strict":
                raise
            self._fall_back(name, error)
            return mod if gluon else self.triton["ttgir"](mod, metadata)
        with _lock:
            _stats["compiled"] += 1
        if os.environ.get("TRITON_RS_COMPARE") and not gluon:
            self._compare_ttgir(name, mod, metadata)
        # How Triton's launcher builds each TMA descriptor argument, as
        # make_ttgir lists them.
        metadata["tensordesc_meta"] = json.loads(self.result["metadata"])["tensordesc_meta"]
        metadata["triton_rs"] = _triton_rs.__version__
        self.ttgir_out = self.result["ttgir"]
        if knobs.compilation.use_ir_loc == "ttgir":
            # Triton gives the TTGIR the locations of its lines in the
            # cached .ttgir file (USE_IR_LOC), which takes a module: this
            # compiler's, in Triton's context; the llir stage then compiles
            # it with those locations.
            self.ttgir_out = _module_of(self.ttgir_out, mod.context)
        return self.ttgir_out

    def _compare_ttgir(self, name, mod, metadata):
        """Triton's make_ttgir on ``mod`` (which it rewrites in place: this
        compiler has compiled its text already) against this compiler's
        TTGIR, recorded in ``TRITON_RS_COMPARE``'s file."""
        record = {"name": name}
        try:
            tritons = str(self.triton["ttgir"](mod, dict(metadata)))
        except Exception as error:  # Triton's own failure is a result too.
            record["triton_error"] = str(error).splitlines()[0] if str(error) else repr(error)
        else:
            ours, theirs = _comparable(self.result["ttgir"]), _comparable(tritons)
            record["same"] = ours == theirs
            if ours != theirs:
                import difflib

                diff = difflib.unified_diff(theirs, ours, "triton", "triton_rs", lineterm="", n=0)
                record["diff"] = [line[:300] for line in diff][:40]
        with _lock, open(os.environ["TRITON_RS_COMPARE"], "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")

    def _compile(self, text, name):
        """This compiler from ``text`` (TTIR, or TTGIR from make_llir on) to PTX."""
        from triton import knobs

        options = self.options
        self.result = _triton_rs.compile(
            text,
            name=name,
            capability=self.capability,
            num_warps=options.num_warps,
            num_stages=options.num_stages,
            num_ctas=options.num_ctas,
            stage="ptx",
            line_info=not knobs.compilation.disable_line_info,
            make_ttir=False,
            fp_fusion=options.enable_fp_fusion,
            reflect_ftz=options.enable_reflect_ftz,
            libdevice=dict(options.extern_libs).get("libdevice"),
            ptx_version=self._ptx_version(),
            **_debug_options(text),
        )

    def _ptx_version(self):
        from triton.backends.nvidia.compiler import get_ptx_version_from_options

        return get_ptx_version_from_options(self.options, self.backend.target.arch)

    def _fall_back(self, name, error):
        self.fell_back = True
        self._count_fallback(name, str(error))
        for stage in ("ttgir", "llir", "ptx"):
            self.stages[stage] = self.triton[stage]

    def llir(self, src, metadata):
        from triton import knobs

        if self.fell_back:
            return self.triton["llir"](src, metadata)
        if knobs.compilation.enable_asan:
            # Triton's make_llir refuses it for NVIDIA GPUs, in these words.
            raise RuntimeError(
                "Address Sanitizer Error: Address sanitizer is currently only supported on the AMD backend")
        if src is not self.ttgir_out or knobs.compilation.use_ir_loc == "ttgir":
            # Triton put other TTGIR in this compiler's place (a
            # TRITON_KERNEL_OVERRIDE file, a config's ir_override, or the
            # module with new locations), or the compilation started here
            # (triton.compile of a .ttgir file): that is the one to compile.
            if self.result is None:
                name = src.get_entry_func_name()
            else:
                name = json.loads(self.result["metadata"])["name"]
            try:
                self._compile(str(src), f"{name}.ttgir")
            except CompileError as error:
                if self.mode == "strict":
                    raise
                self._fall_back(name, error)
                return self.triton["llir"](src, metadata)
        kernel = json.loads(self.result["metadata"])
        # A warp-specialized kernel runs with its partitions' warps too.
        metadata["num_warps"] = kernel["num_warps"]
        metadata["shared"] = kernel["shared"]
        metadata["tmem_size"] = 0
        metadata["global_scratch_size"] = kernel["global_scratch_size"]
        metadata["global_scratch_align"] = kernel["global_scratch_align"]
        metadata["profile_scratch_size"] = kernel["profile_scratch_size"]
        metadata["profile_scratch_align"] = kernel["profile_scratch_align"]
        self.kernel = kernel
        self.llir_out = self.result["llir"]
        return self.llir_out

    def ptx(self, src, metadata):
        from triton import knobs

        if self.fell_back:
            return self.triton["ptx"](src, metadata)
        if src is not self.llir_out:
            # LLVM IR put in this compiler's place: its code generation,
            # as Triton's make_ptx would do it.
            ptx, metadata["name"] = _triton_rs.ptx_from_llir(
                str(src),
                capability=self.capability,
                ptx_version=self._ptx_version(),
                fp_fusion=self.options.enable_fp_fusion,
            )
        else:
            metadata["name"] = self.kernel["name"]
            ptx = self.result["ptx"]
        if knobs.nvidia.dump_nvptx:
            # NVPTX_ENABLE_DUMP, as Triton's make_ptx prints it.
            print("// -----// NVPTX Dump //----- //")
            print(ptx)
        return ptx
