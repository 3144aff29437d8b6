"""The corpus' naive matmul (`naive_matmul_kernel`, fp16 in, fp32 accumulate,
fp16 out) through Triton's frontend with this project's stages (strict
mode) and with Triton's own, at gen.py's check size (512^3, 16x16x16 tiles)
and its benchmark size (4096^3, 64x64x64 tiles), each against torch in fp32:
prints `MATMUL size compiler PASS|FAIL|REFUSED relerr` per run.

    python3 bench/h100/matmul_check.py CORPUS_DIR   # the dir of kernels.py
"""

import importlib.util
import sys

import torch
import triton
import triton_rs


def load_kernels(corpus):
    spec = importlib.util.spec_from_file_location("kernels", f"{corpus}/kernels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(kernels, s, bs):
    torch.manual_seed(0)
    a = torch.randn(s, s, device="cuda", dtype=torch.float16)
    b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    c = torch.empty((s, s), device="cuda", dtype=torch.float16)
    grid = (triton.cdiv(s, bs), triton.cdiv(s, bs))
    kernels.naive_matmul_kernel[grid](a, b, c, s, s, s, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                      c.stride(0), c.stride(1), bm=bs, bn=bs, bk=bs)
    ref = a.float() @ b.float()
    return float(((c.float() - ref).abs().max() / ref.abs().max()).item())


def main():
    kernels = load_kernels(sys.argv[1] if len(sys.argv) > 1 else ".device/corpus")
    failed = False
    for s, bs in [(512, 16), (4096, 64)]:
        errors = {}
        for compiler in ("triton", "ours"):
            if compiler == "ours":
                triton_rs.enable("strict")
            else:
                triton_rs.disable()
            try:
                errors[compiler] = run(kernels, s, bs)
            except triton_rs.CompileError as e:
                print(f"MATMUL {s} {compiler} REFUSED {str(e).splitlines()[-1][:160]}")
                continue
        triton_rs.disable()
        for compiler, err in errors.items():
            # Within Triton's own error (or fp16 rounding of the output).
            ok = err <= max(2 * errors.get("triton", 0.0), 1e-3)
            failed |= not ok
            print(f"MATMUL {s} {compiler} {'PASS' if ok else 'FAIL'} {err:.3e}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
