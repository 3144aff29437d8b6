"""Kernels calling libdevice (tl.extra.cuda.libdevice) compiled by Triton 3.6
and through triton_rs in strict mode, run on the GPU in the same process:
each function's results against torch (the verdict) and against Triton's
(bitwise, or the largest difference and, in f32, in units in the last
place).

usage: python check.py   (prints one line per function, then PASS or FAIL)"""

import sys

import torch
import triton
import triton.language as tl
import triton_rs

libdevice = tl.extra.cuda.libdevice
N = 1 << 16


def unary(fn):
    @triton.jit
    def kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + offsets, fn(tl.load(x_ptr + offsets)))
    return kernel


def binary(fn):
    @triton.jit
    def kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + offsets, fn(tl.load(x_ptr + offsets), tl.load(y_ptr + offsets)))
    return kernel


@triton.jit
def _log1p(x):
    return libdevice.log1p(x)


@triton.jit
def _erf(x):
    return libdevice.erf(x)


@triton.jit
def _asin(x):
    return libdevice.asin(x)


@triton.jit
def _rsqrt(x):
    return libdevice.rsqrt(x)


@triton.jit
def _atan2(x, y):
    return libdevice.atan2(x, y)


@triton.jit
def _pow(x, y):
    return libdevice.pow(x, y)


CASES = [
    ("log1p", unary(_log1p), 1, torch.log1p, (0.0, 10.0)),
    ("erf", unary(_erf), 1, torch.erf, (-3.0, 3.0)),
    ("asin", unary(_asin), 1, torch.asin, (-1.0, 1.0)),
    ("rsqrt", unary(_rsqrt), 1, torch.rsqrt, (0.01, 100.0)),
    ("atan2", binary(_atan2), 2, torch.atan2, (-5.0, 5.0)),
    ("pow", binary(_pow), 2, torch.pow, (0.1, 4.0)),
]


def ulps(a, b):
    ia = a.view(torch.int32).to(torch.int64)
    ib = b.view(torch.int32).to(torch.int64)
    return int((ia - ib).abs().max())


def run(kernel, inputs, dtype):
    out = torch.empty(N, device="cuda", dtype=dtype)
    compiled = kernel[(N // 1024,)](*inputs, out, BLOCK=1024)
    torch.cuda.synchronize()
    return out, getattr(compiled.metadata, "triton_rs", None)


def main():
    ok = True
    gen = torch.Generator(device="cuda").manual_seed(0)
    for dtype in (torch.float32, torch.float64):
        for name, make, arity, reference, (lo, hi) in CASES:
            inputs = [torch.rand(N, device="cuda", dtype=dtype, generator=gen) * (hi - lo) + lo
                      for _ in range(arity)]
            triton_rs.disable()
            theirs, by = run(make, inputs, dtype)
            assert by is None, "Triton's run went through triton_rs"
            # A fresh JIT function, so that no kernel of Triton's is reused.
            ours_kernel = [m for n, m, *_ in CASES if n == name][0]
            triton_rs.enable("strict")
            ours, by = run(triton.JITFunction(ours_kernel.fn), inputs, dtype)
            assert by == triton_rs.__version__, "our run did not go through triton_rs"
            triton_rs.disable()
            expected = reference(*inputs)
            close = torch.allclose(ours, expected, rtol=1e-5 if dtype == torch.float32 else 1e-12, atol=1e-6)
            same = torch.equal(ours, theirs)
            diff = "bitwise equal" if same else ("max |ours - Triton's| %.3g" % (ours - theirs).abs().max())
            if dtype == torch.float32 and not same:
                diff += " (%d ulp)" % ulps(ours, theirs)
            print(f"{name:6} {str(dtype)[6:]:8} {diff}; against torch: {'ok' if close else 'MISMATCH'}")
            ok &= close
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
