#!/usr/bin/env python3
"""Compiles a sweep of `tl.dot` kernels with Triton 3.6 (from Python, no GPU
needed) and, from Triton's own TTIR, with this project's `ttc`, and compares
the two TTGIRs after normalising SSA names and dropping locations. Prints one
line per kernel (`same`, `differs`, or our located refusal) and the totals.

    scripts/compare-ttgir.py [--ttc target/release/ttc] [--arch 90] [--show N] [--no-loops] [--only TEXT]

Needs `triton==3.6.0` in the running Python. The kernels: a loop-free dot
(fp16, bf16, fp32 as tf32 and ieee, fp8 e4m3/e5m2, int8) at several tile
shapes and warp counts, with a transposed B, and with the result reduced;
and a K loop of dots (`loop_dot_kernel`, software-pipelined: the same
types, shapes and warps, 1 to 5 stages, a masked K, a transposed B, a
reduced result), a batched 3-D one, an attention-style loop of two
chained dots (`attention_kernel`) and a persistent GEMM whose tile loop is
flattened into its K loop (`tl.range(..., flatten=True)`,
`persistent_kernel`).
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


@triton.jit
def loop_dot_kernel(a_ptr, b_ptr, c_ptr, K, M: tl.constexpr, N: tl.constexpr, BK: tl.constexpr,
                    TRANS_B: tl.constexpr, MASK_K: tl.constexpr, REDUCE: tl.constexpr,
                    PRECISION: tl.constexpr, ACC: tl.constexpr, BATCH: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, BK)
    if BATCH > 1:
        rb = tl.arange(0, BATCH)
        acc = tl.zeros((BATCH, M, N), dtype=ACC)
        for k in range(0, tl.cdiv(K, BK)):
            kk = k * BK + rk
            a = tl.load(a_ptr + rb[:, None, None] * M * K + rm[None, :, None] * K + kk[None, None, :])
            b = tl.load(b_ptr + rb[:, None, None] * K * N + kk[None, :, None] * N + rn[None, None, :])
            acc = tl.dot(a, b, acc, input_precision=PRECISION, out_dtype=ACC)
        tl.store(c_ptr + rb[:, None, None] * M * N + rm[None, :, None] * N + rn[None, None, :], acc)
    else:
        acc = tl.zeros((M, N), dtype=ACC)
        for k in range(0, tl.cdiv(K, BK)):
            kk = k * BK + rk
            if MASK_K:
                a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=kk[None, :] < K, other=0)
            else:
                a = tl.load(a_ptr + rm[:, None] * K + kk[None, :])
            if TRANS_B:
                b = tl.trans(tl.load(b_ptr + rn[:, None] * K + kk[None, :]))
            elif MASK_K:
                b = tl.load(b_ptr + kk[:, None] * N + rn[None, :], mask=kk[:, None] < K, other=0)
            else:
                b = tl.load(b_ptr + kk[:, None] * N + rn[None, :])
            acc = tl.dot(a, b, acc, input_precision=PRECISION, out_dtype=ACC)
        if REDUCE:
            tl.store(c_ptr + rm, tl.sum(acc, axis=1))
        else:
            tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, N_CTX, M: tl.constexpr, D: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, M)
    rd = tl.arange(0, D)
    rn = tl.arange(0, BN)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    acc = tl.zeros((M, D), dtype=tl.float32)
    m_i = tl.full((M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((M,), dtype=tl.float32)
    for start in range(0, N_CTX, BN):
        k = tl.load(k_ptr + (start + rn)[None, :] * D + rd[:, None])
        qk = tl.dot(q, k)
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + (start + rn)[:, None] * D + rd[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], acc / l_i[:, None])


@triton.jit
def persistent_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                      NUM_SMS: tl.constexpr, FLATTEN: tl.constexpr):
    num_n = tl.cdiv(N, BN)
    num_tiles = tl.cdiv(M, BM) * num_n
    for tile in tl.range(tl.program_id(0), num_tiles, NUM_SMS, flatten=FLATTEN):
        rm = (tile // num_n) * BM + tl.arange(0, BM)
        rn = (tile % num_n) * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(tl.cdiv(K, BK)):
            rk = ki * BK + tl.arange(0, BK)
            a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
            b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def loop_configs():
    """(name, kernel, signature, constants, options) of the loop sweep."""
    accs = {"fp16": "fp32", "bf16": "fp32", "fp32": "fp32", "fp8e4nv": "fp32", "fp8e5": "fp32", "i8": "i32"}
    out = []

    def add(m, n, k, dtype, warps, stages, trans_b=False, mask=False, reduce=False, precision=None, batch=1):
        precision = precision or ("tf32" if dtype == "fp32" else "ieee")
        name = (f"loop {batch}x{m}x{n}x{k} {dtype} w{warps} s{stages}{' transB' if trans_b else ''}"
                f"{' maskK' if mask else ''}{' reduce' if reduce else ''} {precision}")
        sig = {"a_ptr": "*" + dtype, "b_ptr": "*" + dtype, "c_ptr": "*" + accs[dtype], "K": "i32"}
        consts = {"M": m, "N": n, "BK": k, "TRANS_B": trans_b, "MASK_K": mask, "REDUCE": reduce,
                  "PRECISION": precision, "ACC": getattr(tl, {"fp32": "float32", "i32": "int32"}[accs[dtype]]),
                  "BATCH": batch}
        out.append((name, loop_dot_kernel, sig, consts, {"num_warps": warps, "num_stages": stages}))

    for (m, n, k), dtype, warps in itertools.product(
            [(16, 16, 16), (64, 64, 32), (128, 128, 64), (128, 64, 32), (64, 128, 64), (256, 128, 64)],
            ["fp16", "bf16", "fp32", "fp8e4nv", "i8"], (4, 8)):
        if k < 32 and dtype in ("fp8e4nv", "i8"):
            continue  # 8-bit dots need K >= 32
        add(m, n, k, dtype, warps, 3)
    for stages in (1, 2, 4, 5):
        add(128, 128, 64, "fp16", 8, stages)
        add(64, 64, 32, "bf16", 4, stages)
    for dtype in ("fp16", "fp32", "i8"):
        add(128, 128, 64, dtype, 4, 3, trans_b=True)
        add(128, 128, 64, dtype, 8, 3, mask=True)
        add(64, 128, 32, dtype, 4, 4, reduce=True)
        add(16, 16, 32 if dtype == "i8" else 16, dtype, 4, 3, trans_b=True, mask=True)
    add(64, 64, 32, "fp32", 4, 3, precision="ieee")
    # B's N-major buffer (K contiguous) of 512 rows: wgmma reads it as two
    # groups of 256 rows; one warp group or two side by side along N.
    add(64, 512, 64, "fp16", 4, 2, trans_b=True)
    add(64, 512, 64, "bf16", 8, 2, trans_b=True)
    add(32, 32, 16, "fp16", 4, 3, batch=2)
    for m, d, bn, warps in [(64, 64, 64, 4), (128, 64, 64, 8), (128, 128, 32, 8)]:
        sig = {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp32", "N_CTX": "i32"}
        out.append((f"attention {m}x{d} bn{bn} w{warps}", attention_kernel, sig,
                    {"M": m, "D": d, "BN": bn}, {"num_warps": warps, "num_stages": 3}))
    for (m, n, k), dtype, warps, stages, flatten in [((128, 128, 64), "fp16", 8, 3, True),
                                                     ((64, 64, 32), "bf16", 4, 4, True),
                                                     ((128, 64, 32), "fp8e4nv", 4, 3, True),
                                                     ((128, 128, 64), "fp16", 8, 3, False)]:
        sig = {"a_ptr": "*" + dtype, "b_ptr": "*" + dtype, "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32"}
        out.append((f"persistent {m}x{n}x{k} {dtype} w{warps} s{stages}{' flatten' if flatten else ''}",
                    persistent_kernel, sig, {"BM": m, "BN": n, "BK": k, "NUM_SMS": 132, "FLATTEN": flatten},
                    {"num_warps": warps, "num_stages": stages}))
    return out


def without_locations(text):
    """``text`` without its ``loc(...)`` attributes, however deeply their
    call sites and names nest (quoted file names may hold parentheses)."""
    out, i = [], 0
    for m in re.finditer(r"\s*\bloc\(", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j, quoted = 1, m.end(), False
        while j < len(text) and depth:
            c = text[j]
            if c == '"' and text[j - 1] != "\\":
                quoted = not quoted
            elif not quoted:
                depth += (c == "(") - (c == ")")
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def normalise(text):
    text = without_locations(text)
    lines = [l for l in text.splitlines() if not l.startswith("#loc")]
    names = {}

    def rename(m):
        names.setdefault(m.group(1), f"%v{len(names)}")
        return names[m.group(1)]

    return re.sub(r"%([A-Za-z_0-9]+)", rename, "\n".join(lines)).strip()


def printed_by_us(ttgir):
    """``ttgir`` without its locations, compiled by this project to TTGIR
    (so both sides share one printer, and no SSA names come from
    locations), then normalised."""
    import triton_rs

    bare = "\n".join(line for line in ttgir.splitlines() if not line.startswith("#loc"))
    return normalise(triton_rs.compile(without_locations(bare), stage="ttgir").ttgir)


def printed(ttc_dir, text):
    """The text as tt-opt prints it (so both sides share one printer)."""
    tt_opt = os.path.join(ttc_dir, "tt-opt")
    out = subprocess.run([tt_opt, "-"], input=text, capture_output=True, text=True)
    return out.stdout if out.returncode == 0 else text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ttc", default="target/release/ttc")
    ap.add_argument("--arch", type=int, default=90,
                    help="compute capability to compile for (80, 86, 89, 90); PTX is assembled for it")
    ap.add_argument("--show", type=int, default=0, help="print the first N differences")
    ap.add_argument("--no-loops", action="store_true", help="only the loop-free kernels")
    ap.add_argument("--only", default="", help="only the kernels whose name contains this")
    ap.add_argument("--ptx", action="store_true",
                    help="also compile each kernel on to PTX and assemble it with Triton's ptxas")
    args = ap.parse_args()
    ptxas = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "ptxas")
    lowered = {"ptx ok": 0, "llir refused": 0, "ptxas failed": 0}
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
    cases = []
    for (m, n, k, dtype, warps, trans_b, reduce, precision) in configs:
        name = f"{m}x{n}x{k} {dtype} w{warps}{' transB' if trans_b else ''}{' reduce' if reduce else ''} {precision}"
        sig = {"a_ptr": "*" + dtype, "b_ptr": "*" + dtype, "c_ptr": "*" + types[dtype]}
        consts = {"M": m, "N": n, "K": k, "TRANS_B": trans_b, "REDUCE": reduce, "PRECISION": precision}
        cases.append((name, dot_kernel, sig, consts, {"num_warps": warps}))
    if not args.no_loops:
        cases += loop_configs()
    if args.only:
        cases = [c for c in cases if args.only in c[0]]
    counts = {"same": 0, "differs": 0, "refused": 0, "triton failed": 0}
    shown = 0
    with tempfile.TemporaryDirectory() as tmp:
        for (name, kernel, sig, consts, options) in cases:
            sig = dict(sig)
            sig.update({c: "constexpr" for c in consts})
            attrs = {(i,): [["tt.divisibility", 16]] for i, a in enumerate(sig) if sig[a].startswith("*")}
            try:
                compiled = triton.compile(ASTSource(kernel, sig, consts, attrs=attrs),
                                          target=GPUTarget("cuda", args.arch, 32), options=options)
            except Exception as e:  # Triton itself rejects the configuration
                counts["triton failed"] += 1
                print(f"{name}: triton failed ({str(e).splitlines()[0][:80]})")
                continue
            ttir = os.path.join(tmp, "k.ttir")
            with open(ttir, "w") as f:
                f.write(compiled.asm["ttir"])
            flags = ["--arch", f"sm_{args.arch}", "--num-warps", str(options["num_warps"])]
            if "num_stages" in options:
                flags += ["--num-stages", str(options["num_stages"])]
            ours = subprocess.run([args.ttc, ttir, "--emit", "ttgir", "--no-cache", *flags,
                                   "-o", os.path.join(tmp, "k.ttgir")], capture_output=True, text=True)
            if ours.returncode != 0:
                counts["refused"] += 1
                errors = [l for l in ours.stderr.splitlines() if "error:" in l]
                why = next((l for l in errors if "support" in l), errors[-1] if errors else ours.stderr.strip())
                print(f"{name}: refused: {why.split('error:', 1)[-1].strip()[:120]}")
                continue
            with open(os.path.join(tmp, "k.ttgir")) as f:
                mine = normalise(printed(tools, f.read()))
            theirs = normalise(printed(tools, compiled.asm["ttgir"]))
            if args.ptx:
                status = to_ptx(args.ttc, ptxas, ttir, flags, tmp, args.arch)
                lowered[status.split(":")[0]] += 1
                name = f"{name} [{status}]"
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
    if args.ptx:
        print(" ".join(f"{k}: {v}" for k, v in lowered.items()))
    return 1 if counts["differs"] or lowered["ptxas failed"] else 0


def to_ptx(ttc, ptxas, ttir, flags, tmp, arch):
    """Our PTX of `ttir`, assembled for sm_`arch` (sm_90a for 90): `ptx ok`,
    `llir refused: why` or `ptxas failed: why`."""
    ptx = os.path.join(tmp, "k.ptx")
    ours = subprocess.run([ttc, ttir, "--emit", "ptx", "--no-cache", *flags, "-o", ptx],
                          capture_output=True, text=True)
    if ours.returncode != 0:
        errors = [l for l in ours.stderr.splitlines() if "error:" in l]
        why = next((l for l in errors if "support" in l), errors[-1] if errors else ours.stderr.strip())
        return f"llir refused: {why.split('error:', 1)[-1].strip()[:100]}"
    asm = subprocess.run([ptxas, f"-arch=sm_{arch}{'a' if arch == 90 else ''}", ptx, "-o", os.path.join(tmp, "k.cubin")],
                         capture_output=True, text=True)
    if asm.returncode != 0:
        return f"ptxas failed: {asm.stderr.strip().splitlines()[0][:100]}"
    return "ptx ok"


if __name__ == "__main__":
    sys.exit(main())
