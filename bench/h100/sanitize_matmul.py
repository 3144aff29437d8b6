"""One launch of each corpus matmul, compiled by this project (triton_rs,
strict mode), small enough for compute-sanitizer: run it under
`compute-sanitizer --tool memcheck` and `--tool racecheck`.

usage: compute-sanitizer --tool TOOL python3 sanitize_matmul.py CORPUS_DIR

Prints `SANITIZE kernel relerr` per kernel (against torch in fp32)."""

import importlib.util
import sys
import tempfile

import torch
import triton
import triton_rs


def main():
    spec = importlib.util.spec_from_file_location("kernels", f"{sys.argv[1]}/kernels.py")
    kernels = importlib.util.module_from_spec(spec)
    triton.knobs.cache.dir = tempfile.mkdtemp()
    triton_rs.enable("strict")
    spec.loader.exec_module(kernels)
    torch.manual_seed(0)
    s = 256
    a = torch.randn(s, s, device="cuda", dtype=torch.float16)
    b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    ref = a.float() @ b.float()
    for name in ("naive", "tiled"):
        c = torch.empty((s, s), device="cuda", dtype=torch.float16)
        if name == "naive":
            kernels.naive_matmul_kernel[(s // 64, s // 64)](a, b, c, s, s, s, a.stride(0), a.stride(1), b.stride(0),
                                                            b.stride(1), c.stride(0), c.stride(1), bm=64, bn=64,
                                                            bk=64)
        else:
            kernels.matmul_kernel[(4, )](a, b, c, s, s, s, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                         c.stride(0), c.stride(1), BM=128, BN=128, BK=64, GM=8, num_warps=8,
                                         num_stages=3)
        torch.cuda.synchronize()
        err = float(((c.float() - ref).abs().max() / ref.abs().max()).item())
        print(f"SANITIZE {name} {err:.3e}", flush=True)
    assert triton_rs.stats()["compiled"] == 2, triton_rs.stats()


if __name__ == "__main__":
    main()
