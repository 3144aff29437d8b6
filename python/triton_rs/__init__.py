"""triton_rs: Triton 3.6's GPU compiler middle and back end, in Rust.

Two ways in:

* ``triton_rs.compile(ttir_or_ttgir_text, num_warps=4, arch=90)`` compiles
  Triton IR in process and returns every stage's text and the kernel
  metadata; a failure raises :class:`CompileError` carrying the located
  diagnostic.
* ``triton_rs.enable()`` (or ``TRITON_RS=1`` in the environment) makes
  Triton 3.6's own frontend compile ``@triton.jit`` kernels with this
  project: its ``ttgir``, ``llir`` and ``ptx`` stages are replaced, while
  Triton's frontend, ``make_ttir``, ptxas, launcher and autotuner stay.

``triton_rs.tensor_layout(layout, "tensor<128x64xf16>")`` prints which
thread and register hold each element of a tensor in a ``ttg`` layout, as
Triton's ``triton-tensor-layout`` tool does (``use_hw_view=True``: each
warp's lanes per register).
"""

from ._triton_rs import CompileError, __version__, tensor_layout
from ._api import Compiled, compile, parse_arch
from ._hook import MODES, disable, enable, mode, reset_stats, stats

__all__ = [
    "MODES",
    "CompileError",
    "Compiled",
    "__version__",
    "compile",
    "disable",
    "enable",
    "mode",
    "parse_arch",
    "reset_stats",
    "stats",
    "tensor_layout",
]
