"""Warp-specialized kernels: a GEMM loop `tl.range(..., warp_specialize=True)`
over tensor descriptors made in the kernel, a persistent GEMM whose tile
loop is so marked, and an attention forward whose key loop is, at 4 warps,
which Triton 3.6 splits into a producer warp group (the TMA loads) and two
consumer warp groups (the wgmma dots), 12 warps in all.

By default triton_rs compiles the kernel whole: its own
nvgpu-warp-specialization makes the split. With `--triton-ttgir` it compiles
Triton's own TTGIR of the kernel instead (its `ttg.warp_specialize`,
barriers and tokens) from make_llir on (convert-triton-gpu-to-llvm, then
convert-warp-specialize-to-llvm: the switch loop of the worker warps, the
captures in shared memory, the warp groups' named barriers, `setmaxnreg`).
Either way the kernel runs against Triton's and torch's results.

usage: python3 ws_check.py [--only TEXT] [--one triton|ours] [--time] [--triton-ttgir]

`--time` also times each kernel with both compilers, alternately (five
rounds of `triton.testing.do_bench`, each side's median):
`WSTIME name ours_ms triton_ms ratio`.

`--one` launches each kernel with that compiler only (for
compute-sanitizer: one compiler's kernels per run) and checks it against
torch alone.

Prints `WS name PASS|FAIL|REFUSED|SKIP ours=ERR triton=ERR same=BOOL`
per kernel and `WS PASS=.. FAIL=.. REFUSED=.. SKIP=..`."""

import argparse
import contextlib
import sys
import tempfile

import torch
import triton
import triton_rs

from paired import relative_error, run_both
from ws_kernels import attention_forward, device_descriptors, from_tritons_ttgir, persistent_descriptors


def fresh(kernel):
    """A new @triton.jit object of `kernel`'s function: compiled afresh."""
    return triton.jit(kernel.fn)


def gemm(m, n, k, bm, bn, dtype):
    """A and B (seeded random), an empty fp32 C and the grid of one GEMM."""
    torch.manual_seed(0)
    a = torch.randn(m, k, device="cuda").to(dtype)
    b = torch.randn(k, n, device="cuda").to(dtype)
    c = torch.empty(m, n, device="cuda")
    return a, b, c, (triton.cdiv(m, bm), triton.cdiv(n, bn))


SMS = 132


def gemm_call(persistent, m, n, k, bm, bn, bk, dtype):
    """(the kernel, its grid, its arguments, its constexprs besides BM and
    BN, the reference, the output) of one GEMM: `device_descriptors` (fp32
    C) or `persistent_descriptors` (fp16 C, one program per SM)."""
    a, b, c, grid = gemm(m, n, k, bm, bn, dtype)
    if not persistent:
        return device_descriptors, grid, (a, b, c, m, n, k), {"BK": bk}, lambda: a.float() @ b.float(), c
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    return (persistent_descriptors, (SMS, ), (a, b, c, m, n, k), {"BK": bk, "SMS": SMS},
            lambda: (a.float() @ b.float()).half().float(), c)


def attention_call(z_h, n_ctx, head_dim, bm, bn):
    """`gemm_call`'s tuple for one attention forward over `z_h`
    batch-heads."""
    torch.manual_seed(0)
    q, k, v = (torch.randn(z_h * n_ctx, head_dim, device="cuda", dtype=torch.float16) for _ in range(3))
    o = torch.empty_like(q)
    scale = head_dim**-0.5

    def reference():
        shape = (z_h, n_ctx, head_dim)
        qf, kf, vf = (t.float().reshape(shape) for t in (q, k, v))
        return (torch.softmax(qf @ kf.transpose(1, 2) * scale, -1) @ vf).reshape(-1, head_dim)

    return attention_forward, (n_ctx // bm, z_h), (q, k, v, o, scale, n_ctx), {"HEAD_DIM": head_dim}, reference, o


def launch(kind, m, n, k, bm, bn, bk, stages, dtype):
    kernel, grid, args, extra, reference, out = call(kind, m, n, k, bm, bn, bk, dtype)
    fresh(kernel)[grid](*args, BM=bm, BN=bn, num_warps=4, num_stages=stages, **extra)
    torch.cuda.synchronize()
    return out.float(), reference()


def call(kind, m, n, k, bm, bn, bk, dtype):
    """`gemm_call` of a case, or (kind "attention": M batch-heads, N_CTX N,
    HEAD_DIM K) `attention_call`."""
    if kind == "attention":
        return attention_call(m, n, k, bm, bn)
    return gemm_call(kind, m, n, k, bm, bn, bk, dtype)


def timed(kind, m, n, k, bm, bn, bk, stages, dtype):
    """(ours, Triton's) milliseconds for one case's kernel, alternating."""
    kernel, grid, args, extra, _, _ = call(kind, m, n, k, bm, bn, bk, dtype)
    kernels = {"triton": fresh(kernel), "ours": fresh(kernel)}

    def run(compiler):
        if compiler == "ours":
            triton_rs.enable("strict")
        else:
            triton_rs.disable()
        kernels[compiler][grid](*args, BM=bm, BN=bn, num_warps=4, num_stages=stages, **extra)

    times = {"triton": [], "ours": []}
    try:
        for _ in range(5):
            for compiler in times:
                times[compiler].append(triton.testing.do_bench(lambda: run(compiler)))
    finally:
        triton_rs.disable()
    median = lambda xs: sorted(xs)[len(xs) // 2]
    return median(times["ours"]), median(times["triton"])


CASES = [
    # persistent, M, N, K, BM, BN, BK, stages, dtype (the descriptors' row
    # strides must be multiples of 16 bytes)
    (False, 512, 512, 512, 128, 128, 64, 3, torch.float16),
    (False, 1000, 704, 328, 128, 128, 64, 3, torch.float16),
    (False, 512, 512, 1024, 128, 256, 64, 2, torch.float16),
    (False, 256, 256, 256, 128, 64, 64, 2, torch.bfloat16),
    (False, 384, 384, 640, 128, 128, 32, 4, torch.float16),
    (False, 2048, 2048, 2048, 128, 128, 128, 2, torch.bfloat16),
    (False, 4096, 4096, 4096, 128, 128, 64, 4, torch.float16),
    (False, 8192, 8192, 4096, 128, 256, 64, 2, torch.float16),
    (True, 1000, 704, 328, 128, 128, 64, 3, torch.float16),
    (True, 2048, 2048, 2048, 128, 128, 64, 3, torch.float16),
    (True, 4096, 4096, 4096, 128, 128, 64, 4, torch.float16),
    (True, 8192, 8192, 4096, 128, 256, 64, 2, torch.float16),
    # attention: batch-heads, N_CTX, HEAD_DIM, BM, BN, -, stages
    ("attention", 4, 1024, 64, 128, 64, 0, 2, torch.float16),
    ("attention", 32, 4096, 128, 128, 64, 0, 2, torch.float16),
    ("attention", 16, 4096, 64, 128, 64, 0, 3, torch.float16),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--one", choices=["triton", "ours"])
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--triton-ttgir", action="store_true")
    args = ap.parse_args()
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    counts = {"PASS": 0, "FAIL": 0, "REFUSED": 0, "SKIP": 0}
    with from_tritons_ttgir() if args.triton_ttgir else contextlib.nullcontext():
        for case in CASES:
            check(case, args, counts)
    print("WS " + " ".join(f"{key}={value}" for key, value in counts.items()))
    return 1 if counts["FAIL"] or counts["REFUSED"] else 0


def check(case, args, counts):
    """Runs one case of CASES (as `--only`, `--one` and `--time` ask)."""
    kind, m, n, k, bm, bn, bk, stages, dtype = case
    if kind == "attention":
        name = f"attention {m} heads N_CTX {n} d{k} {bm}x{bn} s{stages}"
    else:
        name = (f"{'persistent ' if kind else ''}{m}x{n}x{k} {bm}x{bn}x{bk} s{stages} "
                f"{str(dtype).split('.')[-1]}")
    if args.only not in name:
        return
    # Each case compiles afresh: no kernel of an earlier case is reused.
    triton.knobs.cache.dir = tempfile.mkdtemp()
    if args.one:
        if args.one == "ours":
            triton_rs.enable("strict")
        out, ref = launch(*case)
        triton_rs.disable()
        error = relative_error(out, ref)
        verdict, line = ("PASS" if error < 1e-3 else "FAIL"), f"{args.one}={error:.2e}"
    else:
        verdict, line = run_both(name, lambda: launch(*case))
    counts[verdict] += 1
    print(f"WS {name} {verdict} {line}", flush=True)
    if args.time and verdict == "PASS" and not args.one:
        ours, theirs = timed(*case)
        print(f"WSTIME {name} {ours:.4f} {theirs:.4f} {ours / theirs:.3f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
