"""Compile time through the triton_rs package, as a user waits for it:
Triton's frontend to cubin (triton.compile on the tutorials' kernels, a new
empty cache each time), with Triton's own stages and with this project's
(strict mode), alternating in one process.

usage: python3 compile_time.py TUTORIALS_DIR [REPS]   (REPS default 7)

Prints `COMPILE kernel triton_ms ours_ms ratio`, each side's median over
REPS compilations, and the totals over the kernels."""

import pathlib
import statistics
import sys
import tempfile
import time

import triton
import triton_rs
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python" / "tests"))
import test_tutorials  # noqa: E402  (the launch table and the kernel extraction)

TARGET = GPUTarget("cuda", 90, 32)


def compile_once(kernel, arguments, options, mode, scratch):
    """One compilation with an empty cache; milliseconds."""
    if mode == "ours":
        triton_rs.enable("strict")
    else:
        triton_rs.disable()
    signature = {a: (v if isinstance(v, str) else "constexpr") for a, v in arguments.items()}
    constants = {a: v for a, v in arguments.items() if not isinstance(v, str)}
    aligned = {(i, ): [["tt.divisibility", 16]] for i, ty in enumerate(signature.values()) if ty.startswith("*")}
    triton.knobs.cache.dir = tempfile.mkdtemp(dir=scratch)
    start = time.perf_counter()
    compiled = triton.compile(ASTSource(kernel, signature, constants, aligned), target=TARGET, options=options)
    elapsed = (time.perf_counter() - start) * 1e3
    assert (getattr(compiled.metadata, "triton_rs", None) is not None) == (mode == "ours")
    return elapsed


def main(tutorials, reps):
    scratch = tempfile.mkdtemp()
    totals = {"triton": 0.0, "ours": 0.0}
    for tutorial, name, arguments, options in test_tutorials.LAUNCHES:
        module_dir = pathlib.Path(tempfile.mkdtemp(dir=scratch))
        kernel = getattr(test_tutorials.jit_functions(tutorials / tutorial, module_dir), name)
        # One compilation each first: Triton's first in a process loads its
        # backend, ours sets up the thread's compiler.
        for mode in ("triton", "ours"):
            compile_once(kernel, arguments, options, mode, scratch)
        times = {"triton": [], "ours": []}
        for _ in range(reps):
            for mode in ("triton", "ours"):
                times[mode].append(compile_once(kernel, arguments, options, mode, scratch))
        t, o = statistics.median(times["triton"]), statistics.median(times["ours"])
        totals["triton"] += t
        totals["ours"] += o
        print(f"COMPILE {name} {t:.1f} {o:.1f} {o / t:.2f}", flush=True)
    triton_rs.disable()
    t, o = totals["triton"], totals["ours"]
    print(f"COMPILE total {t:.1f} {o:.1f} {o / t:.2f}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(pathlib.Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 7)
