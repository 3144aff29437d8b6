"""Matmul speed on the GPU: tutorial 03's kernel compiled by Triton and by
this project (through triton_rs, strict mode), and cuBLAS (torch), at square
sizes, in fp16 and fp8 (e4m3), in one process: for each size the three are
timed one after the other (`triton.testing.do_bench`: L2 flushed before
each rep, median) in three rounds of alternating order, each side's time
its median over the rounds and the ratio the median of the rounds' ratios;
each compiler's kernel from fresh @triton.jit objects and an empty cache. Also the corpus matmuls' compile time from their .ttir
to PTX, both compilers in the same process, interleaved.

usage: python3 matmul_sweep.py TUTORIALS_DIR CORPUS_DIR OUTDIR

`SWEEP_SIZES` (e.g. `8192`), `SWEEP_DTYPES` (`fp16`, `fp8`) and
`SWEEP_ROUNDS` (default 3) narrow the sweep or lengthen it, to look at one
point more closely.

The kernel runs with tutorial 03's first configuration for its type (fp16:
128x256x64 tiles, 8 warps, 3 stages; fp8: 128x256x128), as its autotuner
finds best on the H100. Prints `SWEEP dtype size ours_tflops triton_tflops
cublas_tflops ours/triton-time` and `CHECK dtype size ours-vs-triton
max-abs-diff` (the two compilers' outputs agree), `COMPILE kernel triton_ms
ours_ms ratio`; writes OUTDIR/matmul-sweep.csv and OUTDIR/matmul-sweep.png.
"""

import csv
import os
import pathlib
import statistics
import sys
import tempfile

import torch
import triton
import triton_rs

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python" / "tests"))
import test_tutorials  # noqa: E402  (the tutorial's @triton.jit functions without its autotuner)
import triton_side  # noqa: E402  (the stage timer of the H100 comparison)

SIZES = [int(s) for s in os.environ.get("SWEEP_SIZES", "512,1024,2048,3072,4096,6144,8192").split(",")]
ROUNDS = int(os.environ.get("SWEEP_ROUNDS", "3"))
DTYPES = os.environ.get("SWEEP_DTYPES", "fp16,fp8").split(",")
CONFIGS = {
    "fp16": dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, num_warps=8, num_stages=3),
    "fp8": dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=128, GROUP_SIZE_M=8, num_warps=8, num_stages=3),
}


def kernel_for(tutorials, compiler, scratch):
    """Tutorial 03's matmul_kernel, fresh, with `compiler`'s stages on."""
    if compiler == "ours":
        triton_rs.enable("strict")
    else:
        triton_rs.disable()
    directory = pathlib.Path(tempfile.mkdtemp(dir=scratch))
    module = test_tutorials.jit_functions(pathlib.Path(tutorials) / "03-matrix-multiplication.py", directory)
    return module.matmul_kernel


def operands(dtype, size):
    torch.manual_seed(0)
    a = torch.randn(size, size, device="cuda", dtype=torch.float16)
    b = torch.randn(size, size, device="cuda", dtype=torch.float16)
    if dtype == "fp8":
        a = a.to(torch.float8_e4m3fn)
        b = b.T.to(torch.float8_e4m3fn)  # column-major, as cuBLAS takes it
    return a, b


def launcher(kernel, dtype, a, b):
    size = a.shape[0]
    c = torch.empty((size, size), device="cuda", dtype=torch.float16)
    config = CONFIGS[dtype]
    grid = (triton.cdiv(size, config["BLOCK_SIZE_M"]) * triton.cdiv(size, config["BLOCK_SIZE_N"]), )

    def run():
        kernel[grid](a, b, c, size, size, size, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                     c.stride(1), ACTIVATION="", **config)

    return run, c


def cublas(dtype, a, b):
    if dtype == "fp16":
        return lambda: torch.matmul(a, b)
    one = torch.ones((), device="cuda")
    return lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.float16)


def bench(fn):
    return triton.testing.do_bench(fn, warmup=50, rep=300, return_mode="median")


def sweep(tutorials, outdir, scratch):
    rows = []
    for dtype in DTYPES:
        for size in SIZES:
            a, b = operands(dtype, size)
            runs, outputs = {}, {}
            for compiler in ("triton", "ours"):
                triton.knobs.cache.dir = tempfile.mkdtemp(dir=scratch)
                triton_rs.reset_stats()
                run, c = launcher(kernel_for(tutorials, compiler, scratch), dtype, a, b)
                run()
                if (compiler == "ours") != (triton_rs.stats()["compiled"] > 0):
                    raise RuntimeError(f"{compiler}: the kernel was not compiled by {compiler}")
                outputs[compiler] = c.float().clone()
                runs[compiler] = run
            triton_rs.disable()
            runs["cublas"] = cublas(dtype, a, b)
            rounds = []
            for round_ in range(ROUNDS):
                order = ("ours", "triton", "cublas") if round_ % 2 == 0 else ("cublas", "triton", "ours")
                rounds.append({name: bench(runs[name]) for name in order})
            times = {name: statistics.median(r[name] for r in rounds) for name in runs}
            ratio = statistics.median(r["ours"] / r["triton"] for r in rounds)
            flops = 2 * size**3
            tflops = {k: flops / (t * 1e-3) / 1e12 for k, t in times.items()}
            diff = float((outputs["ours"] - outputs["triton"]).abs().max())
            print(f"CHECK {dtype} {size} ours-vs-triton {diff:.3e}", flush=True)
            print(f"SWEEP {dtype} {size} ours {tflops['ours']:.1f} triton {tflops['triton']:.1f} "
                  f"cublas {tflops['cublas']:.1f} ours/triton-time {ratio:.3f}", flush=True)
            rows.append(dict(dtype=dtype, size=size, **{f"{k}_tflops": round(v, 2) for k, v in tflops.items()},
                             ratio=round(ratio, 4), max_diff=diff))
    with open(os.path.join(outdir, "matmul-sweep.csv"), "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    plot(rows, os.path.join(outdir, "matmul-sweep.png"))


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(CONFIGS), figsize=(6 * len(CONFIGS), 4.5))
    for ax, dtype in zip(axes, CONFIGS):
        mine = [r for r in rows if r["dtype"] == dtype]
        sizes = [r["size"] for r in mine]
        for key, label in (("ours", "this project"), ("triton", "Triton 3.6"), ("cublas", "cuBLAS")):
            ax.plot(sizes, [r[f"{key}_tflops"] for r in mine], marker="o", label=label)
        ax.set_title(f"square matmul, {dtype} (tutorial 03 kernel)")
        ax.set_xlabel("M = N = K")
        ax.set_ylabel("TFLOP/s")
        ax.grid(alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def compile_times(corpus, scratch, rounds=5, reps=5):
    """The corpus matmuls from .ttir to PTX: the stages Triton runs on an
    IR file up to the PTX (ttgir, llir, ptx), by each compiler (ours does
    all of it in its ttgir stage), median of `reps` per round, best round."""
    import json

    from triton.backends.nvidia.compiler import CUDABackend

    # The package wraps the backend once, at its first enable: before the
    # timing, so that it sees the stages the package installs.
    triton_rs.enable("strict")
    triton_rs.disable()
    spent, original = triton_side.time_stages()
    try:
        for name in ("matmul", "matmul_naive"):
            path = os.path.join(corpus, name, f"{name}.ttir")
            with open(os.path.join(corpus, name, "result.json")) as handle:
                metadata = json.load(handle)["metadata"]
            warps, stages = metadata["num_warps"], metadata["num_stages"]
            best = {"triton": [], "ours": []}
            for _ in range(rounds):
                for compiler in ("triton", "ours"):
                    if compiler == "ours":
                        triton_rs.enable("strict")
                    else:
                        triton_rs.disable()
                    runs = []
                    for _ in range(reps):
                        spent.clear()
                        triton.knobs.cache.dir = tempfile.mkdtemp(dir=scratch)
                        triton.compile(path, options={"num_warps": warps, "num_stages": stages})
                        runs.append(sum(v for k, v in spent.items() if k != "cubin") * 1e3)
                    best[compiler].append(statistics.median(runs))
            triton_rs.disable()
            t, o = min(best["triton"]), min(best["ours"])
            print(f"COMPILE {name} triton {t:.1f} ms ours {o:.1f} ms ratio {o / t:.3f}", flush=True)
    finally:
        CUDABackend.add_stages = original


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tutorials, corpus, outdir = sys.argv[1:]
    os.makedirs(outdir, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        compile_times(corpus, scratch)
        sweep(tutorials, outdir, scratch)


if __name__ == "__main__":
    main()
