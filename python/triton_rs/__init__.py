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
"""

from ._triton_rs import CompileError, __version__
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
]
