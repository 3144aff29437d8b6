"""The corpus' two matmuls (fp16 in, fp32 accumulate, fp16 out) through
Triton's frontend with this project's stages (strict mode) and with
Triton's own, at gen.py's sizes, each against torch in fp32:
`naive_matmul_kernel` (512^3 with 16x16x16 tiles: mma.sync; 4096^3 with
64x64x64: wgmma) and `matmul_kernel` (wgmma, 128x128x64 tiles, 8 warps, 3
stages; 1000x1100x1200 and 8192^3). Prints `MATMUL kernel size compiler
PASS|FAIL|REFUSED relerr` per run and, at the benchmark sizes, `SPEED
kernel size ours/triton RATIO`: the median over five rounds of the ratio of
the two kernels' `do_bench` medians, timed one after the other in
alternating order.

    python3 bench/h100/matmul_check.py CORPUS_DIR   # the dir of kernels.py
"""

import importlib.util
import sys
import tempfile

import torch
import triton
import triton_rs


def load_kernels(corpus):
    spec = importlib.util.spec_from_file_location("kernels", f"{corpus}/kernels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def naive(kernels, s, bs):
    torch.manual_seed(0)
    a = torch.randn(s, s, device="cuda", dtype=torch.float16)
    b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    c = torch.empty((s, s), device="cuda", dtype=torch.float16)
    grid = (triton.cdiv(s, bs), triton.cdiv(s, bs))

    def launch():
        kernels.naive_matmul_kernel[grid](a, b, c, s, s, s, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                          c.stride(0), c.stride(1), bm=bs, bn=bs, bk=bs)

    return launch, a, b, c


def tiled(kernels, m, n, k):
    torch.manual_seed(0)
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    c = torch.empty((m, n), device="cuda", dtype=torch.float16)
    grid = (triton.cdiv(m, 128) * triton.cdiv(n, 128),)

    def launch():
        kernels.matmul_kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                    c.stride(0), c.stride(1), BM=128, BN=128, BK=64, GM=8, num_warps=8,
                                    num_stages=3)

    return launch, a, b, c


CASES = [
    ("matmul_naive", "512", lambda k: naive(k, 512, 16), False),
    ("matmul_naive", "4096", lambda k: naive(k, 4096, 64), True),
    ("matmul", "1000x1100x1200", lambda k: tiled(k, 1000, 1100, 1200), False),
    ("matmul", "8192", lambda k: tiled(k, 8192, 8192, 8192), True),
]


ROUNDS = 5


def run(kernels, make):
    """One compiler's launch and its error against torch."""
    launch, a, b, c = make(kernels)
    launch()
    ref = a.float() @ b.float()
    err = float(((c.float() - ref).abs().max() / ref.abs().max()).item())
    return err, launch


def speed(launches):
    """Per-round time ratios ours/Triton, the two kernels timed one after the
    other in alternating order (the GPU's state drifts by a few per cent
    between consecutive timings), and their median."""
    ratios = []
    for round_ in range(ROUNDS):
        order = ("ours", "triton") if round_ % 2 == 0 else ("triton", "ours")
        t = {n: triton.testing.do_bench(launches[n], warmup=50, rep=300, return_mode="median") for n in order}
        ratios.append(t["ours"] / t["triton"])
    return ratios, sorted(ratios)[len(ratios) // 2]


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else ".device/corpus"
    # An empty cache: every kernel is compiled here, by the compiler named.
    triton.knobs.cache.dir = tempfile.mkdtemp()
    failed = False
    for name, size, make, bench in CASES:
        errors, launches = {}, {}
        for compiler in ("triton", "ours"):
            if compiler == "ours":
                triton_rs.enable("strict")
            else:
                triton_rs.disable()
            # Fresh @triton.jit objects: Triton keeps compiled kernels in
            # memory per function, whichever compiler made them.
            kernels = load_kernels(corpus)
            triton_rs.reset_stats()
            try:
                errors[compiler], launches[compiler] = run(kernels, make)
                compiled = triton_rs.stats()["compiled"]
                if (compiler == "ours") != (compiled > 0):
                    raise RuntimeError(f"{compiler}: {compiled} kernels compiled by triton_rs")
            except triton_rs.CompileError as e:
                failed = True
                print(f"MATMUL {name} {size} {compiler} REFUSED {str(e).splitlines()[-1][:160]}")
                continue
        triton_rs.disable()
        for compiler, err in errors.items():
            # Within Triton's own error (or fp16 rounding of the output).
            ok = err <= max(2 * errors.get("triton", 0.0), 1e-3)
            failed |= not ok
            print(f"MATMUL {name} {size} {compiler} {'PASS' if ok else 'FAIL'} {err:.3e}")
        if bench and len(launches) == 2:
            ratios, median = speed(launches)
            print(f"SPEED {name} {size} ours/triton {median:.3f} (median of {ROUNDS} alternating rounds: "
                  f"{' '.join(f'{r:.3f}' for r in ratios)})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
