"""The dot-loop variants of `scripts/compile-sweep.py` (`dot_variant_kernel`:
a persistent kernel whose tile and K loops are flattened, `tl.range` with
`loop_unroll_factor=2`, `disallow_acc_multi_buffer`, `disable_licm`, a
`tl.static_range` loop, a while loop, two chained dots, an accumulator
scaled every step, a store inside the loop, a `warp_specialize=True` loop)
run on the GPU at four tile shapes, compiled by Triton and by this project
(triton_rs, strict mode; fresh @triton.jit objects and an empty cache for
each), against each other and against torch in fp32.

usage: python3 dot_variants_check.py [--only TEXT] [--warps N]

`--warps` runs every shape with N warps instead of its own (16: four warp
groups, more than a 64-row tile needs, so some repeat others' tiles).

Prints `VARIANT name PASS|FAIL|REFUSED|SKIP ours=ERR triton=ERR same=BOOL`
per kernel (ERR: max |x - torch| / max |torch|; same: the two outputs are
bit-identical) and a total; a kernel passes when our error is within twice
Triton's (or 1e-3); SKIP where Triton itself rejects the kernel."""

import argparse
import pathlib
import sys
import tempfile

import torch
import triton

from paired import Tally, fresh_module, run_both

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "compile-sweep.py"
M = N = 256


def sweep_module():
    """compile-sweep.py loaded afresh: new @triton.jit objects."""
    return fresh_module(SCRIPT)


def reference(mode, a, b, bm, bn, bk):
    """What the kernel computes, in fp32 from the fp16 operands."""
    af, bf = a.float(), b.float()
    k = a.shape[1]
    if mode == "two_dots":
        flat = b.flatten()
        rows = torch.arange(bn, device="cuda")[:, None] * bn
        out = torch.empty(M, N, device="cuda")
        for n0 in range(0, N, bn):
            square = flat[rows + torch.arange(n0, n0 + bn, device="cuda")[None, :]].float()
            acc = torch.zeros(M, bn, device="cuda")
            for k0 in range(0, k, bk):
                p = (af[:, k0:k0 + bk] @ bf[k0:k0 + bk, n0:n0 + bn]).half().float()
                acc += p @ square
            out[:, n0:n0 + bn] = acc
        return out
    if mode == "scaled_acc":
        acc = torch.zeros(M, N, device="cuda")
        for k0 in range(0, k, bk):
            acc = acc * 0.5 + af[:, k0:k0 + bk] @ bf[k0:k0 + bk, :]
        return acc
    return af @ bf


def run(mode, bm, bn, bk, warps, stages, a, b):
    """One launch through a fresh copy of the kernel; the fp16 output."""
    module = sweep_module()
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    tiles = (M // bm) * (N // bn)
    grid = (min(tiles, 8), ) if mode == "persistent" else (M // bm, N // bn)
    module.dot_variant_kernel[grid](a, b, c, M, N, a.shape[1], a.stride(0), b.stride(0), c.stride(0), tiles,
                                    MODE=mode, BM=bm, BN=bn, BK=bk, num_warps=warps, num_stages=stages)
    torch.cuda.synchronize()
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--warps", type=int, default=0)
    args = ap.parse_args()
    triton.knobs.cache.dir = tempfile.mkdtemp()
    shapes = sweep_module().DOT_SHAPES[1:5]
    tally = Tally("VARIANT", "VARIANTS")
    for mode in sweep_module().DOT_VARIANTS:
        for bm, bn, bk, warps, stages in shapes:
            warps = args.warps or warps
            name = f"{mode} {bm}x{bn}x{bk} w{warps} s{stages}"
            if args.only not in name:
                continue
            torch.manual_seed(0)
            a = (torch.randn(M, 4 * bk, device="cuda") * 0.5).half()
            b = (torch.randn(4 * bk, N, device="cuda") * 0.5).half()
            ref = reference(mode, a, b, bm, bn, bk)
            tally.record(name, *run_both(name, lambda: (run(mode, bm, bn, bk, warps, stages, a, b), ref)))
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
