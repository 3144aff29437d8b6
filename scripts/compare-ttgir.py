#!/usr/bin/env python3
"""Compiles a sweep of `tl.dot` kernels with Triton 3.6 (from Python, no GPU
needed) and, from Triton's own TTIR, with this project's `ttc`, and compares
the two TTGIRs after normalising SSA names and dropping locations. Prints one
line per kernel (`same`, `differs`, or our located refusal) and the totals.

    scripts/compare-ttgir.py [--ttc target/release/ttc] [--show N]

Needs `triton==3.6.0` in the running Python. The kernels: a loop-free dot
(fp16, bf16, fp32 as tf32 and ieee, fp8 e4m3/e5m2, int8) at several tile
shapes and warp counts, with a transposed B, and with the result reduced.
"""

import argparse
import itertools
import os
import re
import subprocess
import sys
import tempfile

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
               TRANS_B: tl.constexpr, REDUCE: tl.constexpr, PRECISION: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    if TRANS_B:
        b = tl.trans(tl.load(b_ptr + rn[:, None] * K + rk[None, :]))
    else:
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b, input_precision=PRECISION)
    if REDUCE:
        tl.store(c_ptr + rm, tl.sum(c, axis=1))
    else:
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


def normalise(text):
    text = re.sub(r"\s*loc\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)", "", text)
    lines = [l for l in text.splitlines() if not l.startswith("#loc")]
    names = {}

    def rename(m):
        names.setdefault(m.group(1), f"%v{len(names)}")
        return names[m.group(1)]

    return re.sub(r"%([A-Za-z_0-9]+)", rename, "\n".join(lines)).strip()


def printed(ttc_dir, text):
    """The text as tt-opt prints it (so both sides share one printer)."""
    tt_opt = os.path.join(ttc_dir, "tt-opt")
    out = subprocess.run([tt_opt, "-"], input=text, capture_output=True, text=True)
    return out.stdout if out.returncode == 0 else text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ttc", default="target/release/ttc")
    ap.add_argument("--show", type=int, default=0, help="print the first N differences")
    args = ap.parse_args()
    tools = os.path.dirname(os.path.abspath(args.ttc))
    types = {"fp16": "fp32", "bf16": "fp32", "fp32": "fp32", "fp8e4nv": "fp32", "fp8e5": "fp32", "i8": "i32"}
    shapes = [(16, 16, 16), (64, 64, 32), (128, 128, 64), (64, 128, 64), (128, 64, 32), (256, 128, 64)]
    configs = []
    for (m, n, k), dtype, warps, trans_b, reduce in itertools.product(
            shapes, types, (4, 8), (False, True), (False, True)):
        if reduce and trans_b:
            continue
        precision = "tf32" if dtype == "fp32" else "ieee"
        configs.append((m, n, k, dtype, warps, trans_b, reduce, precision))
    configs += [(64, 64, 32, "fp32", 4, False, False, "ieee")]
    counts = {"same": 0, "differs": 0, "refused": 0, "triton failed": 0}
    shown = 0
    with tempfile.TemporaryDirectory() as tmp:
        for (m, n, k, dtype, warps, trans_b, reduce, precision) in configs:
            name = f"{m}x{n}x{k} {dtype} w{warps}{' transB' if trans_b else ''}{' reduce' if reduce else ''} {precision}"
            sig = {"a_ptr": "*" + dtype, "b_ptr": "*" + dtype, "c_ptr": "*" + types[dtype]}
            consts = {"M": m, "N": n, "K": k, "TRANS_B": trans_b, "REDUCE": reduce, "PRECISION": precision}
            sig.update({c: "constexpr" for c in consts})
            attrs = {(i,): [["tt.divisibility", 16]] for i in range(3)}
            try:
                compiled = triton.compile(ASTSource(dot_kernel, sig, consts, attrs=attrs),
                                          target=GPUTarget("cuda", 90, 32), options={"num_warps": warps})
            except Exception as e:  # Triton itself rejects the configuration
                counts["triton failed"] += 1
                print(f"{name}: triton failed ({str(e).splitlines()[0][:80]})")
                continue
            ttir = os.path.join(tmp, "k.ttir")
            with open(ttir, "w") as f:
                f.write(compiled.asm["ttir"])
            ours = subprocess.run([args.ttc, ttir, "--emit", "ttgir", "--no-cache", "--num-warps", str(warps),
                                   "-o", os.path.join(tmp, "k.ttgir")], capture_output=True, text=True)
            if ours.returncode != 0:
                counts["refused"] += 1
                why = next((l for l in ours.stderr.splitlines() if "error:" in l), ours.stderr.strip())
                print(f"{name}: refused: {why.split('error:', 1)[-1].strip()[:120]}")
                continue
            with open(os.path.join(tmp, "k.ttgir")) as f:
                mine = normalise(printed(tools, f.read()))
            theirs = normalise(printed(tools, compiled.asm["ttgir"]))
            if mine == theirs:
                counts["same"] += 1
                print(f"{name}: same")
            else:
                counts["differs"] += 1
                print(f"{name}: differs")
                if shown < args.show:
                    shown += 1
                    import difflib
                    print("\n".join(list(difflib.unified_diff(theirs.splitlines(), mine.splitlines(),
                                                              "triton", "ours", lineterm="", n=1))[:40]))
    print(" ".join(f"{k}: {v}" for k, v in counts.items()))
    return 1 if counts["differs"] else 0


if __name__ == "__main__":
    sys.exit(main())
