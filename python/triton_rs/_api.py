"""The in-process compile API: Triton IR text in, stages and metadata out."""

import json
import os
import re
from dataclasses import dataclass, field
from typing import Dict, Optional, Union

from . import _triton_rs


@dataclass(frozen=True)
class Compiled:
    """What a compilation produced, up to the stage it was asked for."""

    ttir: Optional[str]
    """TTIR after make_ttir (None for TTGIR input)."""
    ttgir: Optional[str]
    """TTGIR after make_ttgir (None when stopped at ttir)."""
    llir: Optional[str]
    """LLVM IR after O3."""
    ptx: Optional[str]
    """PTX."""
    metadata: Optional[dict]
    """The kernel's metadata: name, target, num_warps, shared, scratch sizes, args."""
    timings: Dict[str, float] = field(default_factory=dict)
    """Seconds spent in each step."""

    @property
    def asm(self) -> Dict[str, str]:
        """The stages produced, by name, as Triton's ``kernel.asm``."""
        stages = {"ttir": self.ttir, "ttgir": self.ttgir, "llir": self.llir, "ptx": self.ptx}
        return {name: text for name, text in stages.items() if text}


def parse_arch(arch: Union[int, str]) -> int:
    """A compute capability from ``90``, ``"90"``, ``"sm90"``, ``"sm_90a"`` or ``"cuda:90"``."""
    if isinstance(arch, int) and not isinstance(arch, bool):
        capability = arch
    else:
        match = re.fullmatch(r"(?:cuda:|sm_?)?(\d+)a?", str(arch).strip())
        if not match:
            raise ValueError(f"unknown arch {arch!r}: expected a compute capability such as 90 or 'sm_90a'")
        capability = int(match.group(1))
    if capability < 70:
        raise ValueError(f"arch {arch!r}: this compiler targets NVIDIA sm_70 and newer")
    return capability


def compile(
    source: Union[str, "os.PathLike[str]"],
    *,
    num_warps: int = 4,
    num_stages: int = 3,
    num_ctas: int = 1,
    arch: Union[int, str] = 90,
    stage: str = "ptx",
    name: Optional[str] = None,
    line_info: bool = True,
    make_ttir: bool = True,
    fp_fusion: bool = True,
    reflect_ftz: bool = True,
    libdevice: Optional[str] = None,
    ptx_version: Optional[int] = None,
    ir_dump: Optional[str] = None,
    pass_timing: bool = False,
    reproducer: Optional[str] = None,
    diagnostics: str = "",
) -> Compiled:
    """Compiles TTIR or TTGIR up to ``stage`` (``ttir``, ``ttgir``, ``llir`` or ``ptx``).

    ``source`` is MLIR text, or a path (``os.PathLike``) to a ``.ttir`` or
    ``.ttgir`` file. TTGIR (a module with ``ttg.num-warps``) skips the first
    two stages. ``make_ttir=False`` takes TTIR that Triton's own
    ``make_ttir`` already produced. Raises :class:`CompileError` with the
    located diagnostic when the input is wrong or not supported yet.
    ``ir_dump`` prints the module before every pass, to stderr (``"-"``)
    or to the file it names, which the process's first dump truncates (as
    Triton's ``MLIR_ENABLE_DUMP`` and
    ``MLIR_DUMP_PATH``); ``pass_timing`` prints each stage's pass timings
    to stderr (``MLIR_ENABLE_TIMING``); ``reproducer`` names the file that
    holds each stage's input and passes as an MLIR reproducer, narrowed to
    the failing pass where one fails (``TRITON_REPRODUCER_PATH``; run it with
    ``tt-opt FILE --run-reproducer``); ``diagnostics`` prints warnings and
    remarks to stderr, with their source lines, and says what diagnostics
    carry: a comma-separated list of ``warnings``, ``remarks``,
    ``operations`` and ``stacktraces`` (``MLIR_ENABLE_DIAGNOSTICS``).
    """
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        name = name or path
    else:
        text = source
    result = _triton_rs.compile(
        text,
        name=name or "<input>",
        capability=parse_arch(arch),
        num_warps=num_warps,
        num_stages=num_stages,
        num_ctas=num_ctas,
        stage=stage,
        line_info=line_info,
        make_ttir=make_ttir,
        fp_fusion=fp_fusion,
        reflect_ftz=reflect_ftz,
        libdevice=libdevice,
        ptx_version=ptx_version,
        ir_dump=ir_dump,
        pass_timing=pass_timing,
        reproducer=reproducer,
        diagnostics=diagnostics,
    )
    metadata = result["metadata"]
    return Compiled(
        ttir=result["ttir"],
        ttgir=result["ttgir"] or None,
        llir=result["llir"],
        ptx=result["ptx"],
        metadata=json.loads(metadata) if metadata is not None else None,
        timings=dict(result["timings"]),
    )
