"""tt.scan on the H100: Triton's kernels, compiled by Triton and by ttc, against torch.

usage: python3 scan_check.py TTC [OUTDIR]

For each case below: Triton compiles and runs the kernel (its output is
Triton's result), its `.ttir` goes to OUTDIR/NAME.ttir, TTC compiles that
`.ttir` (with Triton's num_warps / num_stages) to OUTDIR/NAME.ptx and
OUTDIR/NAME.json (our metadata), and the PTX is loaded with the CUDA driver
API through ctypes and launched on fresh output tensors. Inputs are small
integers (as floats where the kernel is float), so every sum is exact and
all three results must agree exactly. Prints `SCAN name PASS|FAIL maxerr`
per case; exits non-zero on any failure. Needs torch, Triton 3.6 and a GPU.
"""
import ctypes
import json
import os
import subprocess
import sys
import tempfile

import torch
import triton
import triton.language as tl


@triton.jit
def cumsum_1d(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=0))


@triton.jit
def cumsum_rows(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=1))


@triton.jit
def cumsum_reverse(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=0, reverse=True))


@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def cummax_1d(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.associative_scan(x, 0, _max))


@triton.jit
def _argmax(a, ai, b, bi):
    take = b > a
    return tl.where(take, b, a), tl.where(take, bi, ai)


@triton.jit
def running_argmax(x_ptr, i_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    _, index = tl.associative_scan((x, offs), 0, _argmax)
    tl.store(i_ptr + offs, index)


def small_ints(shape, dtype):
    return torch.randint(-8, 8, shape, device="cuda").to(dtype)


def cases():
    """(name, kernel, constexprs, num_warps, input, output like, reference)."""
    x1 = small_ints((1024,), torch.float32)
    x2 = small_ints((32, 256), torch.float32)
    x3 = small_ints((512,), torch.int32)
    x4 = small_ints((2048,), torch.float32)
    x5 = torch.randperm(1024, device="cuda").to(torch.float32)
    return [
        ("cumsum_1d", cumsum_1d, {"BLOCK": 1024}, 4, x1, torch.empty_like(x1), x1.cumsum(0)),
        ("cumsum_rows", cumsum_rows, {"M": 32, "N": 256}, 4, x2, torch.empty_like(x2),
         x2.cumsum(1)),
        ("cumsum_reverse", cumsum_reverse, {"BLOCK": 512}, 4, x3, torch.empty_like(x3),
         x3.flip(0).cumsum(0).flip(0).to(torch.int32)),
        ("cummax_1d", cummax_1d, {"BLOCK": 2048}, 8, x4, torch.empty_like(x4),
         torch.cummax(x4, 0).values),
        ("running_argmax", running_argmax, {"BLOCK": 1024}, 4, x5,
         torch.empty(1024, dtype=torch.int32, device="cuda"),
         torch.cummax(x5, 0).indices.to(torch.int32)),
    ]


CUDA = None


def check(status, what):
    if status != 0:
        raise RuntimeError(f"{what} failed with CUresult {status}")


def driver():
    global CUDA
    if CUDA is None:
        CUDA = ctypes.CDLL("libcuda.so.1")
        CUDA.cuModuleLoadData.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p]
        CUDA.cuModuleGetFunction.argtypes = [
            ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p, ctypes.c_char_p]
        CUDA.cuFuncSetAttribute.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
        CUDA.cuLaunchKernel.argtypes = [
            ctypes.c_void_p,
            ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
            ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
            ctypes.c_uint, ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
        CUDA.cuCtxSynchronize.argtypes = []
    return CUDA


def launch_ours(ptx_path, meta, tensors):
    """One CTA of our kernel on `tensors` (its pointer parameters, in order)."""
    cuda = driver()
    if len(meta["args"]) != len(tensors):
        raise RuntimeError(f"our kernel has {len(meta['args'])} parameters, expected {len(tensors)}")
    with open(ptx_path, "rb") as fh:
        ptx = fh.read() + b"\0"
    module = ctypes.c_void_p()
    check(cuda.cuModuleLoadData(ctypes.byref(module), ptx), "cuModuleLoadData")
    function = ctypes.c_void_p()
    check(cuda.cuModuleGetFunction(ctypes.byref(function), module, meta["name"].encode()),
          "cuModuleGetFunction")
    shared = int(meta["shared"])
    if shared > 48 * 1024:
        # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        check(cuda.cuFuncSetAttribute(function, 8, shared), "cuFuncSetAttribute")
    # The kernel's parameters, then the global and profile scratch pointers.
    values = [ctypes.c_void_p(t.data_ptr()) for t in tensors]
    values += [ctypes.c_void_p(None), ctypes.c_void_p(None)]
    params = (ctypes.c_void_p * len(values))(
        *[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in values])
    torch.cuda.synchronize()
    block = 32 * int(meta["num_warps"])
    check(cuda.cuLaunchKernel(function, 1, 1, 1, block, 1, 1, shared, None, params, None),
          "cuLaunchKernel")
    check(cuda.cuCtxSynchronize(), "cuCtxSynchronize")


def max_error(a, b):
    if a.shape != b.shape:
        return float("inf")
    return (a.to(torch.float64) - b.to(torch.float64)).abs().max().item()


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    ttc = sys.argv[1]
    outdir = sys.argv[2] if len(sys.argv) == 3 else tempfile.mkdtemp(prefix="scan_check.")
    os.makedirs(outdir, exist_ok=True)
    torch.manual_seed(0)
    failures = 0
    for name, kernel, constexprs, num_warps, x, like, reference in cases():
        try:
            theirs = torch.empty_like(like)
            compiled = kernel[(1,)](x, theirs, num_warps=num_warps, **constexprs)
            torch.cuda.synchronize()
            ttir = os.path.join(outdir, f"{name}.ttir")
            with open(ttir, "w") as fh:
                fh.write(compiled.asm["ttir"])
            with open(os.path.join(outdir, f"{name}.opts.json"), "w") as fh:
                json.dump({"num_warps": compiled.metadata.num_warps,
                           "num_stages": compiled.metadata.num_stages}, fh)
            ptx = os.path.join(outdir, f"{name}.ptx")
            run = subprocess.run(
                [ttc, ttir, "--arch", "sm_90",
                 "--num-warps", str(compiled.metadata.num_warps),
                 "--num-stages", str(compiled.metadata.num_stages),
                 "--no-cache", "-o", ptx],
                capture_output=True, text=True)
            if run.returncode != 0:
                raise RuntimeError(f"ttc failed ({run.returncode}): {run.stderr.strip()}")
            with open(os.path.join(outdir, f"{name}.json")) as fh:
                meta = json.load(fh)
            ours = torch.full_like(like, 12345)
            launch_ours(ptx, meta, [x, ours])
            error = max(max_error(ours, reference), max_error(theirs, reference))
            ok = error == 0
            detail = "" if ok else (
                f" (ours vs torch {max_error(ours, reference)},"
                f" triton vs torch {max_error(theirs, reference)})")
            print(f"SCAN {name} {'PASS' if ok else 'FAIL'} {error}{detail}", flush=True)
        except Exception as e:  # one failing case must not hide the others
            ok = False
            print(f"SCAN {name} FAIL inf ({e})", flush=True)
        failures += 0 if ok else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
