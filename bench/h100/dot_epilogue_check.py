"""A dot's result scanned, sorted, reduced, transposed, reshaped, gathered,
joined, split and flipped on the GPU (`dot_epilogue_kernel` of
`scripts/compile-sweep.py`: its result stays in the MMA layout it comes out
in until these ops move it), fp16 and int8 at five tile shapes, compiled by
Triton and by this project (triton_rs, strict mode; fresh @triton.jit
objects for each) and judged against Triton's output.

usage: python3 dot_epilogue_check.py [--only TEXT]

Prints `EPILOGUE name PASS|FAIL|REFUSED|SKIP ours=ERR triton=0 same=BOOL`
per kernel and an `EPILOGUES` total; exits 1 on a failure or refusal."""

import argparse
import pathlib
import sys
import tempfile

import torch
import triton

from paired import Tally, fresh_module, run_both

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "compile-sweep.py"


def sweep_module():
    """compile-sweep.py loaded afresh: new @triton.jit objects."""
    return fresh_module(SCRIPT)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    triton.knobs.cache.dir = tempfile.mkdtemp()
    sweep = sweep_module()
    tally = Tally("EPILOGUE", "EPILOGUES")
    for op in sweep.DOT_EPILOGUES:
        for m, n, k, warps in sweep.DOT_EPILOGUE_SHAPES:
            for dtype in ("fp16", "i8"):
                name = f"{op} {dtype} {m}x{n} k{k} w{warps}"
                if args.only not in name:
                    continue
                torch.manual_seed(0)
                if dtype == "i8":
                    a = torch.randint(-4, 5, (m, k), device="cuda", dtype=torch.int8)
                    b = torch.randint(-4, 5, (k, n), device="cuda", dtype=torch.int8)
                else:
                    a = (torch.randn(m, k, device="cuda") * 0.5).half()
                    b = (torch.randn(k, n, device="cuda") * 0.5).half()

                def launch():
                    c = torch.zeros(m, n, device="cuda", dtype=torch.int32 if dtype == "i8" else torch.float32)
                    sweep_module().dot_epilogue_kernel[(1, )](a, b, c, OP=op, M=m, N=n, K=k, num_warps=warps)
                    torch.cuda.synchronize()
                    return c, None

                tally.record(name, *run_both(name, launch))
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
