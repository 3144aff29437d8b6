#!/usr/bin/env python3
"""Compares `ttg.convert_layout` lowering with Triton 3.6.0's on random
layout pairs: for each, a module with one conversion between two random
2D blocked layouts (i8, f16, f32 or i64; 1 to 8 warps; `cuda:90`) goes
through `--allocate-shared-memory-nv --convert-triton-gpu-to-llvm` in
`tt-opt` and in the installed `triton==3.6.0` wheel (`triton-pass.py`),
and the shared-memory stores, loads (counted by type), `stmatrix`/
`ldmatrix` instructions and the scratch size are compared. Prints each
pair that differs and `differ N of M`; exits 1 when any differs.

    scripts/compare-convert-layout.py [--seed S] [--count N] [--tt-opt PATH]

Run it with the Python that has the wheel (e.g. /tmp/venv/bin/python).
"""

import argparse
import collections
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def blocked(rng, warps):
    spt = [2 ** rng.randint(0, 3) for _ in range(2)]
    t0 = 2 ** rng.randint(0, 5)
    w0 = 2 ** rng.randint(0, warps.bit_length() - 1)
    order = rng.choice([[1, 0], [0, 1]])
    return (f"#ttg.blocked<{{sizePerThread = [{spt[0]}, {spt[1]}], "
            f"threadsPerWarp = [{t0}, {32 // t0}], warpsPerCTA = [{w0}, {warps // w0}], "
            f"order = [{order[0]}, {order[1]}]}}>")


def signature(text):
    counts = collections.Counter()
    for line in text.splitlines():
        if "llvm.store" in line and "ptr<3>" in line:
            counts["store " + line.split(":")[-1].split(",")[0].strip()] += 1
        elif "llvm.load" in line and "ptr<3>" in line:
            counts["load " + line.split("->")[-1].strip()] += 1
        matrix = re.search(r"nvvm\.(stmatrix|ldmatrix)", line)
        if matrix:
            num = re.search(r"num = (\d+)", line)
            counts[matrix.group(1) + (f" x{num.group(1)}" if num else "")] += 1
        shared = re.search(r"ttg.shared = (\d+)", line)
        if shared:
            counts["scratch bytes " + shared.group(1)] += 1
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--tt-opt", default=os.path.join(HERE, "..", "target", "release", "tt-opt"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cvt.mlir")
        for i in range(args.count):
            warps = rng.choice([1, 2, 4, 8])
            shape = [2 ** rng.randint(2, 7), 2 ** rng.randint(2, 7)]
            ty = rng.choice(["i8", "f16", "f32", "i64"])
            a, b = blocked(rng, warps), blocked(rng, warps)
            tensor = lambda enc: f"tensor<{shape[0]}x{shape[1]}x{ty}, {enc}>"
            with open(path, "w") as f:
                f.write(
                    f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, '
                    f'ttg.target = "cuda:90"}} {{\n'
                    f"  tt.func @f(%arg0: {tensor(a)}) {{\n"
                    f"    %0 = ttg.convert_layout %arg0 : {tensor(a)} -> {tensor(b)}\n"
                    f"    tt.return\n  }}\n}}\n")
            theirs = subprocess.run(
                [sys.executable, os.path.join(HERE, "triton-pass.py"), path,
                 "allocate-shared-memory-nv", "convert-triton-gpu-to-llvm"],
                capture_output=True, text=True)
            ours = subprocess.run(
                [args.tt_opt, path, "--allocate-shared-memory-nv=compute-capability=90",
                 "--convert-triton-gpu-to-llvm=compute-capability=90"],
                capture_output=True, text=True)
            if theirs.returncode != 0:
                continue
            st, so = signature(theirs.stdout), signature(ours.stdout)
            if st != so or ours.returncode != 0:
                differ += 1
                print(f"differs: case {i}, {ty}, {shape}\n  from {a}\n  to   {b}\n"
                      f"  triton {dict(st)}\n  ours   {dict(so)} {ours.stderr.strip()[-300:]}")
    print(f"differ {differ} of {args.count}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
