"""The dot kernels of `scripts/compare-ttgir.py` (loop-free dots, pipelined
K loops, the attention loop, persistent GEMMs: fp16, bf16, tf32, fp8, int8;
transposed B, masked K, several tiles, warps and stages) run on the GPU,
compiled from the same TTIR (Triton's frontend) by Triton and by this
project (triton_rs, strict mode; fresh @triton.jit objects and an empty
cache for each), against each other and against torch in fp32.

usage: python3 dot_check.py [--only TEXT]

Prints `DOT name PASS|FAIL|REFUSED|SKIP ours=ERR triton=ERR same=BOOL` per
kernel (ERR: max |x - torch| / max |torch|; same: the two outputs are
bit-identical) and a total; a kernel passes when our error is within
twice Triton's (or 1e-3); SKIP where Triton itself rejects the kernel."""

import argparse
import pathlib
import sys
import tempfile

import torch
import triton

from paired import fresh_module, run_both

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "compare-ttgir.py"
TORCH = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32, "fp8e4nv": torch.float8_e4m3fn,
         "fp8e5": torch.float8_e5m2, "i8": torch.int8, "i32": torch.int32}


def sweep_module():
    """compare-ttgir.py loaded afresh: new @triton.jit objects."""
    return fresh_module(SCRIPT)


def cases(module):
    """(name, kernel name, signature, constants, options) of every kernel."""
    out = []
    for (m, n, k), dtype, warps, trans_b in [((16, 16, 16), "fp16", 4, False), ((64, 64, 32), "bf16", 4, True),
                                             ((128, 128, 64), "fp16", 8, True), ((64, 128, 64), "fp8e4nv", 4, False),
                                             ((128, 64, 32), "i8", 4, False), ((64, 64, 32), "fp32", 4, False)]:
        precision = "tf32" if dtype == "fp32" else "ieee"
        out.append((f"dot {m}x{n}x{k} {dtype} w{warps}{' transB' if trans_b else ''}", "dot_kernel",
                    {"a": dtype}, {"M": m, "N": n, "K": k, "TRANS_B": trans_b, "REDUCE": False,
                                   "PRECISION": precision}, {"num_warps": warps}))
    for name, kernel, sig, consts, options in module.loop_configs():
        out.append((name, kernel.__name__, {"a": sig[next(iter(sig))].lstrip("*")}, consts, options))
    return out


def tensor(shape, dtype):
    if dtype == "i8":
        return torch.randint(-4, 5, shape, device="cuda", dtype=torch.int8)
    return (torch.randn(shape, device="cuda") * 0.5).to(TORCH[dtype])


def run(module, name, kernel_name, types, consts, options):
    """Launches one kernel; returns (output, torch reference)."""
    torch.manual_seed(0)
    kernel = getattr(module, kernel_name)
    dtype = types["a"]
    acc = torch.int32 if dtype == "i8" else torch.float32
    if kernel_name == "dot_kernel":
        m, n, k = consts["M"], consts["N"], consts["K"]
        a = tensor((m, k), dtype)
        b = tensor((n, k) if consts["TRANS_B"] else (k, n), dtype)
        c = torch.empty((m, n), device="cuda", dtype=acc)
        kernel[(1, )](a, b, c, **consts, **options)
        ref = a.float() @ (b.float().T if consts["TRANS_B"] else b.float())
        return c, ref
    if kernel_name == "loop_dot_kernel":
        m, n, bk, batch = consts["M"], consts["N"], consts["BK"], consts["BATCH"]
        k = 3 * bk + bk // 2 if consts["MASK_K"] else 4 * bk
        if batch > 1:
            a, b = tensor((batch, m, k), dtype), tensor((batch, k, n), dtype)
            c = torch.empty((batch, m, n), device="cuda", dtype=acc)
            ref = a.float() @ b.float()
        else:
            a = tensor((m, k), dtype)
            b = tensor((n, k) if consts["TRANS_B"] else (k, n), dtype)
            ref = a.float() @ (b.float().T if consts["TRANS_B"] else b.float())
            c = torch.empty((m, ) if consts["REDUCE"] else (m, n), device="cuda", dtype=acc)
            if consts["REDUCE"]:
                ref = ref.sum(1)
        kernel[(1, )](a, b, c, k, **consts, **options)
        return c, ref
    if kernel_name == "attention_kernel":
        m, d, bn = consts["M"], consts["D"], consts["BN"]
        n_ctx = 4 * bn
        q, kk, v = tensor((m, d), "fp16"), tensor((n_ctx, d), "fp16"), tensor((n_ctx, d), "fp16")
        o = torch.empty((m, d), device="cuda", dtype=torch.float32)
        kernel[(1, )](q, kk, v, o, n_ctx, **consts, **options)
        ref = torch.softmax(q.float() @ kk.float().T, dim=1) @ v.float()
        return o, ref
    bm, bn, bk = consts["BM"], consts["BN"], consts["BK"]
    m, n, k = 2 * bm + 7, 2 * bn + 3, 3 * bk + 5
    a, b = tensor((m, k), dtype), tensor((k, n), dtype)
    c = torch.empty((m, n), device="cuda", dtype=torch.float32)
    kernel[(consts["NUM_SMS"], )](a, b, c, m, n, k, **consts, **options)
    return c, a.float() @ b.float()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    triton.knobs.cache.dir = tempfile.mkdtemp()
    counts = {"PASS": 0, "FAIL": 0, "REFUSED": 0, "SKIP": 0}
    for name, kernel_name, types, consts, options in cases(sweep_module()):
        if args.only not in name:
            continue
        status, detail = run_both(name, lambda: run(sweep_module(), name, kernel_name, types, consts, options))
        counts[status] += 1
        print(f"DOT {name}: {status} {detail}", flush=True)
    print("TOTAL " + " ".join(f"{k} {v}" for k, v in counts.items()))
    return 1 if counts["FAIL"] or counts["REFUSED"] else 0


if __name__ == "__main__":
    sys.exit(main())
