"""`mma.sync` shapes that only older targets use, checked on the H100, which
runs those instructions too: native fp8 (`m16n8k32`, what sm_89 and sm_120
use for fp8 dots) and sm_80's f64 (`m8n8k4`; sm_90 has its own f64 shape).

An H100 cannot load sm_80 or sm_89 cubins, so each kernel is compiled by
this project (triton_rs) for its old target, its PTX retargeted to sm_90
and assembled by Triton's ptxas, then launched through the CUDA driver and
compared with torch's product of the same inputs (fp8 in fp32: f32 results
within 1e-5 of the largest, f16 within 2e-3; f64 in f64: within 1e-12).

usage: python3 mma_sync_check.py

Prints `MMA_SYNC a x b -> d MxNxK wW PASS|FAIL err=...` per kernel and a
total; exits 1 when one fails."""

import ctypes
import os
import re
import subprocess
import sys
import tempfile

import torch
import triton
import triton_rs

# PTX name: (MLIR type, torch type)
TYPES = {"e5m2": ("f8E5M2", torch.float8_e5m2), "e4m3": ("f8E4M3FN", torch.float8_e4m3fn),
         "f64": ("f64", torch.float64)}
RESULTS = {"f32": torch.float32, "f16": torch.float16, "f64": torch.float64}
TOLERANCE = {"f32": 1e-5, "f16": 2e-3, "f64": 1e-12}


def ttir(a, b, d, m, n, k):
    """A loop-free `C = A @ B` over row-major M x K and K x N inputs."""
    ta, tb = TYPES[a][0], TYPES[b][0]
    precision = "ieee" if d == "f64" else "tf32"
    return f"""module {{
  tt.func public @mma_fp8(%pa: !tt.ptr<{ta}> {{tt.divisibility = 16 : i32}}, %pb: !tt.ptr<{tb}> {{tt.divisibility = 16 : i32}}, %pc: !tt.ptr<{d}> {{tt.divisibility = 16 : i32}}) {{
    %rm = tt.make_range {{end = {m} : i32, start = 0 : i32}} : tensor<{m}xi32>
    %rn = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32>
    %rk = tt.make_range {{end = {k} : i32, start = 0 : i32}} : tensor<{k}xi32>
    %ck = arith.constant dense<{k}> : tensor<{m}x1xi32>
    %cn = arith.constant dense<{n}> : tensor<{k}x1xi32>
    %cnc = arith.constant dense<{n}> : tensor<{m}x1xi32>
    %am = tt.expand_dims %rm {{axis = 1 : i32}} : tensor<{m}xi32> -> tensor<{m}x1xi32>
    %ar = arith.muli %am, %ck : tensor<{m}x1xi32>
    %ak = tt.expand_dims %rk {{axis = 0 : i32}} : tensor<{k}xi32> -> tensor<1x{k}xi32>
    %ar2 = tt.broadcast %ar : tensor<{m}x1xi32> -> tensor<{m}x{k}xi32>
    %ak2 = tt.broadcast %ak : tensor<1x{k}xi32> -> tensor<{m}x{k}xi32>
    %ao = arith.addi %ar2, %ak2 : tensor<{m}x{k}xi32>
    %ap0 = tt.splat %pa : !tt.ptr<{ta}> -> tensor<{m}x{k}x!tt.ptr<{ta}>>
    %ap = tt.addptr %ap0, %ao : tensor<{m}x{k}x!tt.ptr<{ta}>>, tensor<{m}x{k}xi32>
    %a = tt.load %ap : tensor<{m}x{k}x!tt.ptr<{ta}>>
    %bk = tt.expand_dims %rk {{axis = 1 : i32}} : tensor<{k}xi32> -> tensor<{k}x1xi32>
    %br = arith.muli %bk, %cn : tensor<{k}x1xi32>
    %bn = tt.expand_dims %rn {{axis = 0 : i32}} : tensor<{n}xi32> -> tensor<1x{n}xi32>
    %br2 = tt.broadcast %br : tensor<{k}x1xi32> -> tensor<{k}x{n}xi32>
    %bn2 = tt.broadcast %bn : tensor<1x{n}xi32> -> tensor<{k}x{n}xi32>
    %bo = arith.addi %br2, %bn2 : tensor<{k}x{n}xi32>
    %bp0 = tt.splat %pb : !tt.ptr<{tb}> -> tensor<{k}x{n}x!tt.ptr<{tb}>>
    %bp = tt.addptr %bp0, %bo : tensor<{k}x{n}x!tt.ptr<{tb}>>, tensor<{k}x{n}xi32>
    %b = tt.load %bp : tensor<{k}x{n}x!tt.ptr<{tb}>>
    %z = arith.constant dense<0.0> : tensor<{m}x{n}x{d}>
    %r = tt.dot %a, %b, %z, inputPrecision = {precision} : tensor<{m}x{k}x{ta}> * tensor<{k}x{n}x{tb}> -> tensor<{m}x{n}x{d}>
    %cr = arith.muli %am, %cnc : tensor<{m}x1xi32>
    %cr2 = tt.broadcast %cr : tensor<{m}x1xi32> -> tensor<{m}x{n}xi32>
    %cn2 = tt.broadcast %bn : tensor<1x{n}xi32> -> tensor<{m}x{n}xi32>
    %co = arith.addi %cr2, %cn2 : tensor<{m}x{n}xi32>
    %cp0 = tt.splat %pc : !tt.ptr<{d}> -> tensor<{m}x{n}x!tt.ptr<{d}>>
    %cp = tt.addptr %cp0, %co : tensor<{m}x{n}x!tt.ptr<{d}>>, tensor<{m}x{n}xi32>
    tt.store %cp, %r : tensor<{m}x{n}x!tt.ptr<{d}>>
    tt.return
  }}
}}
"""


def check(cuda, ptxas, a, b, d, m, n, k, warps):
    arch, shape = (80, "m8n8k4") if d == "f64" else (89, "m16n8k32")
    out = triton_rs.compile(ttir(a, b, d, m, n, k), arch=arch, num_warps=warps)
    want = f"mma.sync.aligned.{shape}.row.col.{d}.{a}.{b}.{d}"
    if want not in out.ptx:
        return False, f"no {want} in the PTX"
    ptx = re.sub(rf"\.target sm_{arch}\b", ".target sm_90", out.ptx)
    with tempfile.TemporaryDirectory() as tmp:
        src, cubin = os.path.join(tmp, "k.ptx"), os.path.join(tmp, "k.cubin")
        open(src, "w").write(ptx)
        subprocess.run([ptxas, "-arch=sm_90", src, "-o", cubin], check=True)
        image = open(cubin, "rb").read()
    module, function = ctypes.c_void_p(), ctypes.c_void_p()
    assert cuda.cuModuleLoadData(ctypes.byref(module), image) == 0
    assert cuda.cuModuleGetFunction(ctypes.byref(function), module, out.metadata["name"].encode()) == 0
    torch.manual_seed(0)
    x = (torch.randn(m, k, device="cuda") * 2).to(TYPES[a][1])
    y = (torch.randn(k, n, device="cuda") * 2).to(TYPES[b][1])
    z = torch.full((m, n), float("nan"), device="cuda", dtype=RESULTS[d])
    # The three pointers, then the global and profile scratch (none used).
    values = [ctypes.c_uint64(t.data_ptr()) for t in (x, y, z)] + [ctypes.c_uint64(0)] * 2
    params = (ctypes.c_void_p * len(values))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in values])
    shared = out.metadata["shared"]
    if shared > 48 * 1024:
        assert cuda.cuFuncSetAttribute(function, 8, shared) == 0
    assert cuda.cuLaunchKernel(function, 1, 1, 1, 32 * warps, 1, 1, shared, None, params, None) == 0
    torch.cuda.synchronize()
    wide = torch.float64 if d == "f64" else torch.float32
    ref = x.to(wide) @ y.to(wide)
    err = ((z.to(wide) - ref).abs().max() / ref.abs().max()).item()
    cuda.cuModuleUnload(module)
    return err <= TOLERANCE[d], f"err={err:.2e}"


def main():
    torch.zeros(1, device="cuda")  # the primary context, current on this thread
    cuda = ctypes.CDLL("libcuda.so.1")
    ptxas = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "ptxas")
    shapes = [(16, 16, 32, 1), (32, 32, 64, 4), (64, 32, 128, 4), (128, 64, 64, 8)]
    failed = 0
    total = 0
    fp8 = [(a, b, d) for a in ("e5m2", "e4m3") for b in ("e5m2", "e4m3") for d in ("f32", "f16")]
    for a, b, d in fp8 + [("f64", "f64", "f64")]:
        for m, n, k, warps in shapes:
            ok, detail = check(cuda, ptxas, a, b, d, m, n, k, warps)
            total += 1
            failed += not ok
            print(f"MMA_SYNC {a} x {b} -> {d} {m}x{n}x{k} w{warps} {'PASS' if ok else 'FAIL'} {detail}")
    print(f"MMA_SYNC total {total - failed} of {total} pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
