"""Paired measurement of the tutorials' perf_report benchmarks: Triton's
compiler and this project's in one process, size by size, interleaved.

usage: python3 paired.py TUTORIAL.py [TUTORIAL.py ...]
  env: TT_ROUNDS (default 5), TT_CSV (write one row per size there),
       TT_PLOT (write a PNG of the ratios there), TT_SIZES (comma-separated
       x values: measure only those), TT_PLOTS (a regular expression:
       measure only the perf_reports whose plot name it finds)

`run.sh` runs each tutorial in its own process per compiler, so the two
sides of a ratio are minutes apart and the machine's drift between them
(PyTorch's own kernels move by up to 2x on the atomics-bound layer-norm
backward) swamps the kernels' difference. Here each tutorial's top-level
code is executed twice, into two namespaces: once with Triton's compiler
and once with `triton_rs.enable("strict")`, so each namespace holds its own
`@triton.jit` functions, compiled by one compiler. The perf_report's
`benchmark.run(...)` calls are left out; instead, for every size of every
perf_report the tutorial's own benchmark function (the same `do_bench`
call with the same arguments) is called for each of its Triton lines (the
line values that start with 'triton': tutorial 06 has 'triton-fp16' and
'triton-fp8') in both namespaces, TT_ROUNDS times, the order swapped every round. Each round
gives a ratio, our time over Triton's; the size's ratio is the median of
the rounds'. PyTorch's line is measured twice per round, once beside each
side, and the median of those pairs' ratios is printed as the noise
control: what the same kernel measures against itself in this scheme.

Each kernel is compiled before its first timed call (the tutorials'
correctness checks run in both namespaces, and every size is called once
with its compiler selected before the rounds), and the hook is set to
the namespace's compiler around every call, so no kernel can be compiled by
the other side. Correctness asserts inside the tutorials run as written.

Before timing, every kernel both namespaces compiled is disassembled
(`cuobjdump -sass`) and the two compilers' SASS compared, specialization by
specialization: where it is identical the kernels cannot differ in speed,
and any ratio away from 1.00 there is the machine's noise."""

import ast
import itertools
import os
import re
import statistics
import subprocess
import sys
import tempfile

import triton
import triton.testing
import triton_rs


def is_run_call(statement):
    """A top-level `NAME.run(...)` expression: the perf_report's own loop."""
    return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
            and isinstance(statement.value.func, ast.Attribute) and statement.value.func.attr == "run")


def select(compiler):
    if compiler == "ours":
        triton_rs.enable("strict")
    else:
        triton_rs.disable()


def load(path, compiler):
    """The tutorial's top-level code, less its perf_report runs, executed
    with `compiler`'s stages."""
    with open(path) as handle:
        tree = ast.parse(handle.read(), path)
    tree.body = [s for s in tree.body if not is_run_call(s)]
    namespace = {"__name__": f"tutorial_{compiler}", "__file__": path}
    select(compiler)
    exec(compile(tree, path, "exec"), namespace)
    return namespace


def marks(namespace):
    return [(name, value) for name, value in namespace.items() if isinstance(value, triton.testing.Mark)]


def first(value):
    """A benchmark's headline number: the first of (median, min, max)."""
    return value[0] if isinstance(value, (tuple, list)) else value


def measure(sides, name, bench, x, line, compiler):
    select(compiler)
    x_args = dict(zip(bench.x_names, x if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)))
    mark = dict(marks(sides[compiler]))[name]
    return first(mark.fn(**x_args, **{bench.line_arg: line}, **bench.args))


def cuobjdump():
    import triton.backends.nvidia as nvidia
    bundled = os.path.join(os.path.dirname(nvidia.__file__), "bin", "cuobjdump")
    return bundled if os.path.exists(bundled) else "cuobjdump"


def sass(cubin):
    """The instructions of a cubin, without addresses and encodings."""
    with tempfile.NamedTemporaryFile(suffix=".cubin") as handle:
        handle.write(cubin)
        handle.flush()
        text = subprocess.run([cuobjdump(), "-sass", handle.name], capture_output=True, text=True,
                              check=True).stdout
    return [re.sub(r"/\*[0-9a-f]{4,}\*/|/\* 0x[0-9a-f]+ \*/", "", line).strip()
            for line in text.splitlines() if re.search(r"/\*[0-9a-f]{4,}\*/", line)]


def compiled(namespace):
    """(kernel name, specialization key) -> CompiledKernel of every
    `@triton.jit` function of the namespace."""
    kernels = {}
    for value in namespace.values():
        if isinstance(value, triton.runtime.jit.JITFunction):
            for device_cache in value.device_caches.values():
                for key, kernel in device_cache[0].items():
                    kernels[(value.__name__, str(key))] = kernel
    return kernels


def compare_sass(sides):
    """Prints, per kernel specialization both sides compiled, whether the
    two compilers' SASS is identical; returns the number that differ."""
    ours, theirs = compiled(sides["ours"]), compiled(sides["triton"])
    differ = 0
    for index, key in enumerate(k for k in theirs if k in ours):
        mine, reference = sass(ours[key].asm["cubin"]), sass(theirs[key].asm["cubin"])
        if mine == reference:
            verdict = f"identical ({len(mine)} instructions)"
        else:
            differ += 1
            changed = sum(a != b for a, b in zip(mine, reference)) + abs(len(mine) - len(reference))
            verdict = (f"DIFFERS: ours {len(mine)} instructions, Triton's {len(reference)}, "
                       f"{changed} positions differ; registers {ours[key].n_regs} / {theirs[key].n_regs}")
        print(f"SASS {key[0]} specialization {index}: {verdict}", flush=True)
    return differ



def measure_line(sides, name, bench, line, rounds, rows):
    """Ratios of one Triton line of one perf_report, size by size, appended
    to `rows` as (plot, size, ratio, torch control)."""
    plot = bench.plot_name if line == "triton" else f"{bench.plot_name} [{line}]"
    has_torch = "torch" in bench.line_vals
    print(f"== {plot}: our time / Triton's per {bench.x_names[0]}, median of {rounds} "
          f"paired rounds ({bench.ylabel}; torch: the same kernel against itself)", flush=True)
    for x in bench.x_vals:
        ratios, controls, ours, theirs = [], [], [], []
        for r in range(rounds):
            order = ("ours", "triton") if r % 2 == 0 else ("triton", "ours")
            got, torch_beside = {}, {}
            for compiler in order:
                got[compiler] = measure(sides, name, bench, x, line, compiler)
                if has_torch:
                    torch_beside[compiler] = measure(sides, name, bench, x, "torch", compiler)
            # The values are throughputs (GB/s, TFLOP/s): the time ratio is
            # theirs over ours.
            ratios.append(got["triton"] / got["ours"])
            ours.append(got["ours"])
            theirs.append(got["triton"])
            if has_torch:
                controls.append(torch_beside["triton"] / torch_beside["ours"])
        ratio = statistics.median(ratios)
        control = statistics.median(controls) if controls else float("nan")
        size = x if not isinstance(x, (list, tuple)) else x[0]
        print(f"RATIO {plot} {size} {ratio:.3f} ours {statistics.median(ours):.1f} "
              f"triton {statistics.median(theirs):.1f} torch-control {control:.3f} "
              f"rounds {' '.join(f'{v:.3f}' for v in ratios)}", flush=True)
        rows.append((plot, size, ratio, control))

def main(paths):
    rounds = int(os.environ.get("TT_ROUNDS", "5"))
    rows = []
    for path in paths:
        sides = {compiler: load(path, compiler) for compiler in ("triton", "ours")}
        for name, mark in marks(sides["triton"]):
            benches = mark.benchmarks if isinstance(mark.benchmarks, list) else [mark.benchmarks]
            for bench in benches:
                if os.environ.get("TT_PLOTS") and not re.search(os.environ["TT_PLOTS"], bench.plot_name):
                    continue
                if os.environ.get("TT_SIZES"):
                    wanted = {int(v) for v in os.environ["TT_SIZES"].split(",")}
                    bench.x_vals = [x for x in bench.x_vals if x in wanted]
                lines = [v for v in bench.line_vals if str(v).startswith("triton")]
                # Every size of every line once per compiler, so that each
                # kernel is compiled (and its SASS compared) before timing.
                for line, x, compiler in itertools.product(lines, bench.x_vals, ("triton", "ours")):
                    measure(sides, name, bench, x, line, compiler)
                compare_sass(sides)
                for line in lines:
                    measure_line(sides, name, bench, line, rounds, rows)
    triton_rs.disable()
    for plot in dict.fromkeys(r[0] for r in rows):
        mine = [r for r in rows if r[0] == plot]
        values = [r[2] for r in mine]
        worst = max(mine, key=lambda r: r[2])
        print(f"SUMMARY {plot}: median {statistics.median(values):.3f} max {worst[2]:.3f} (at {worst[1]}), "
              f"{sum(v <= 1.005 for v in values)} of {len(values)} sizes at most 1.00; "
              f"torch control median {statistics.median(r[3] for r in mine):.3f}")
    if os.environ.get("TT_CSV"):
        with open(os.environ["TT_CSV"], "w") as handle:
            handle.write("plot,size,ratio,torch_control\n")
            for row in rows:
                handle.write(",".join(str(v) for v in row) + "\n")
    if os.environ.get("TT_PLOT"):
        plot_rows(rows, os.environ["TT_PLOT"])


def plot_rows(rows, path):
    from compare import plot_ratios
    panels = []
    for plot in dict.fromkeys(r[0] for r in rows):
        mine = [r for r in rows if r[0] == plot]
        panels.append((f"{plot} (paired, one process)", "size", [r[1] for r in mine], [r[2] for r in mine],
                       [r[3] for r in mine]))
    plot_ratios(panels, "torch against itself (noise)", path)

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
