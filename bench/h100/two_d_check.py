"""The 2-D ops of `scripts/compile-sweep.py` (`two_d_kernel`: reductions
along either axis, scans, sort, transposes, join/split, interleave,
reshape, gathers along either axis, dots, an associative scan) on the GPU,
at its four shapes and warp counts and its eight types, compiled by Triton
and by this project (triton_rs, strict mode; fresh @triton.jit objects for
each) and judged against Triton's output. The gathers whose layouts keep
each gathered column in one warp run as warp shuffles, as Triton's.

usage: python3 two_d_check.py [--only TEXT]

Prints `TWO_D name PASS|FAIL|REFUSED|SKIP ours=ERR triton=0 same=BOOL` per
kernel and a `TWO_D` total; exits 1 on a failure or refusal."""

import argparse
import pathlib
import sys
import tempfile

import torch
import triton

from paired import Tally, fresh_module, run_both

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "compile-sweep.py"
TORCH_TYPES = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32, "i8": torch.int8,
               "i32": torch.int32, "i64": torch.int64, "fp8e5": torch.float8_e5m2, "fp8e4nv": torch.float8_e4m3fn}


def operand(dt, m, n):
    """A seeded m x n tensor of type `dt` with small values."""
    torch.manual_seed(0)
    if dt.startswith("i"):
        return torch.randint(-8, 9, (m, n), device="cuda").to(TORCH_TYPES[dt])
    return (torch.randn(m, n, device="cuda") * 0.5).to(TORCH_TYPES[dt])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    triton.knobs.cache.dir = tempfile.mkdtemp()
    tally = Tally("TWO_D", "TWO_D")
    for name, _, _, constants, options in fresh_module(SCRIPT).cases("2d"):
        if args.only not in name:
            continue
        dt, (m, n) = name.split()[1], (constants["M"], constants["N"])
        x = operand(dt, m, n)

        def launch():
            y = torch.zeros_like(x)
            fresh_module(SCRIPT).two_d_kernel[(1, )](x, y, **constants, **options)
            torch.cuda.synchronize()
            return (y.float() if y.dtype.is_floating_point else y.to(torch.float64)), None

        tally.record(name, *run_both(name, launch))
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
