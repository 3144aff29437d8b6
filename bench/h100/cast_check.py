"""Casts lowered a few registers at a time, on the H100, every input value, both compilers.

Upcasts: all 256 bit patterns of e5m2 and e4m3fn to f16, bf16 and f32
(`tt.fp_to_fp`), and every int8 to bf16 (`arith.sitofp`).
Downcasts (round to nearest even, the default): f16, bf16 and f32 inputs
(every fp8 value, the midpoints between neighbours, values beyond the
largest finite one, infinities and NaN) to e5m2 and e4m3fn. Each kernel is
compiled and run once by Triton and once through triton_rs in strict mode,
each in its own process (so neither compiler's cache can serve the other).

Upcasts must equal torch's conversion exactly (NaN for NaN) with ours;
Triton's own result is printed beside it (3.6 turns e5m2 infinities and
NaNs into finite bf16 values). Downcasts saturate in both compilers
(`satfinite`), unlike torch, so ours must equal Triton's bit for bit.

usage: python3 cast_check.py

Prints `CAST src -> dst PASS|FAIL ...` per conversion and a total; exits 1
when one fails."""

import os
import subprocess
import sys
import tempfile

import torch
import triton
import triton.language as tl

FP8 = {"e5m2": torch.float8_e5m2, "e4m3": torch.float8_e4m3fn}
WIDE = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


@triton.jit
def convert(x_ptr, y_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, x.to(y_ptr.dtype.element_ty))


def upcast_inputs(fp8):
    return torch.arange(256, dtype=torch.int32).to(torch.uint8).view(fp8).cuda()


def downcast_inputs(fp8, wide):
    exact = torch.arange(256, dtype=torch.int32).to(torch.uint8).view(fp8).float()
    exact = exact[torch.isfinite(exact)].unique()
    middle = (exact[1:] + exact[:-1]) / 2
    big = torch.finfo(fp8).max
    extra = torch.tensor([big * 1.1, -big * 1.1, big * 4, float("inf"), -float("inf"), float("nan")])
    values = torch.cat([exact, middle, extra]).to(wide)
    n = triton.next_power_of_2(values.numel())
    pad = torch.zeros(n - values.numel(), dtype=wide)
    return torch.cat([values, pad]).cuda()


def cases():
    for name, fp8 in FP8.items():
        for wide_name, wide in WIDE.items():
            yield f"{name} -> {wide_name}", upcast_inputs(fp8), wide
            yield f"{wide_name} -> {name}", downcast_inputs(fp8, wide), fp8
    yield "i8 -> bf16", torch.arange(-128, 128, dtype=torch.int8).cuda(), torch.bfloat16


def child(mode, path):
    if mode == "ours":
        import triton_rs
        triton_rs.enable("strict")
    results = {}
    for name, x, dtype in cases():
        y = torch.empty(x.numel(), dtype=dtype, device="cuda")
        convert[(1, )](x, y, N=x.numel())
        results[name] = y.cpu()
    torch.save(results, path)


def same(a, b):
    """Equal values, NaN where the other is NaN, as floats."""
    a, b = a.float(), b.float()
    both_nan = torch.isnan(a) & torch.isnan(b)
    return bool(((a == b) | both_nan).all())


def bits(t):
    return t.view(torch.uint8) if t.element_size() == 1 else t.view(torch.int16 if t.element_size() == 2 else torch.int32)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        out = {}
        for mode in ("triton", "ours"):
            path = os.path.join(tmp, f"{mode}.pt")
            env = dict(os.environ)
            env.pop("TRITON_RS", None)
            env["TRITON_CACHE_DIR"] = os.path.join(tmp, f"cache-{mode}")
            subprocess.run([sys.executable, __file__, "--child", mode, path], check=True, env=env)
            out[mode] = torch.load(path)
    failed = 0
    for name, x, dtype in cases():
        ours, theirs = out["ours"][name], out["triton"][name]
        if dtype in FP8.values():
            ok = bool((bits(ours) == bits(theirs)).all())
            print(f"CAST {name} {'PASS' if ok else 'FAIL'} (bitwise against Triton)")
        else:
            want = x.cpu().to(dtype)
            ok = same(ours, want)
            triton_ok = same(theirs, want)
            print(f"CAST {name} {'PASS' if ok else 'FAIL'} (against torch; Triton "
                  f"{'agrees' if triton_ok else 'differs'})")
            if not ok:
                bad = ~((ours.float() == want.float()) | (torch.isnan(ours.float()) & torch.isnan(want.float())))
                print("   first inputs that differ:", bits(x.cpu())[bad][:8].tolist())
        failed += not ok
    total = sum(1 for _ in cases())
    print(f"CAST total {total - failed} of {total} pass")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
    else:
        main()
