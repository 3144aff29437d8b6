"""Ops beyond the corpus on the H100: Triton's kernels, compiled by Triton and by ttc, against torch.

usage: python3 op_check.py TTC [OUTDIR]

Two groups of cases: SCAN (tl.cumsum / tl.associative_scan: tt.scan) and
CVT (transposes and stored reductions, one-warp ones among them, whose
Triton TTGIR carries a ttg.convert_layout that moves data between
threads: through shared memory, or within a warp by shuffles). For each case:
Triton compiles and runs the kernel (its output is Triton's result), its
`.ttir` goes to OUTDIR/NAME.ttir (its PTX to OUTDIR/NAME.triton.ptx), TTC compiles that `.ttir` (with Triton's
num_warps / num_stages) to OUTDIR/NAME.ptx and OUTDIR/NAME.json (our
metadata), and the PTX is loaded with the CUDA driver API through ctypes
and launched on fresh output tensors over the same grid. Inputs are small
integers (as floats where the kernel is float), so every result is exact
and all three must agree exactly. Prints `GROUP name PASS|FAIL maxerr` per
case. CVT cases also time both kernels through this same launcher
(Triton's own PTX and ours, CUDA events, warm-up first, median of 50):
`CVTTIME name ours_ms triton_ms ratio`. Exits non-zero on any failure.
Needs torch, Triton 3.6 and a GPU.
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


@triton.jit
def transpose(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr, BM: tl.constexpr,
              BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(y_ptr + rn[None, :] * M + rm[:, None], x)


@triton.jit
def row_sums(x_ptr, y_ptr, N: tl.constexpr, BM: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    x = tl.load(x_ptr + rm[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(y_ptr + rm, tl.sum(x, axis=1))


@triton.jit
def row_maxes(x_ptr, y_ptr, N: tl.constexpr, BM: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    x = tl.load(x_ptr + rm[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(y_ptr + rm, tl.max(x, axis=1))


def small_ints(shape, dtype):
    return torch.randint(-8, 8, shape, device="cuda").to(dtype)


def cases():
    """(group, name, kernel, constexprs, num_warps, grid, input, output like, reference)."""
    x1 = small_ints((1024,), torch.float32)
    x2 = small_ints((32, 256), torch.float32)
    x3 = small_ints((512,), torch.int32)
    x4 = small_ints((2048,), torch.float32)
    x5 = torch.randperm(1024, device="cuda").to(torch.float32)
    one = (1, 1, 1)
    scans = [
        ("cumsum_1d", cumsum_1d, {"BLOCK": 1024}, 4, one, x1, torch.empty_like(x1), x1.cumsum(0)),
        ("cumsum_rows", cumsum_rows, {"M": 32, "N": 256}, 4, one, x2, torch.empty_like(x2),
         x2.cumsum(1)),
        ("cumsum_reverse", cumsum_reverse, {"BLOCK": 512}, 4, one, x3, torch.empty_like(x3),
         x3.flip(0).cumsum(0).flip(0).to(torch.int32)),
        ("cummax_1d", cummax_1d, {"BLOCK": 2048}, 8, one, x4, torch.empty_like(x4),
         torch.cummax(x4, 0).values),
        ("running_argmax", running_argmax, {"BLOCK": 1024}, 4, one, x5,
         torch.empty(1024, dtype=torch.int32, device="cuda"),
         torch.cummax(x5, 0).indices.to(torch.int32)),
    ]

    def transposed(name, dtype, m, n, bm, bn, warps):
        x = small_ints((m, n), dtype)
        return (name, transpose, {"M": m, "N": n, "BM": bm, "BN": bn}, warps,
                (m // bm, n // bn, 1), x, torch.empty((n, m), dtype=dtype, device="cuda"),
                x.t().contiguous())

    xs = small_ints((8192, 128), torch.float32)
    converts = [
        transposed("transpose_f32_64x64", torch.float32, 8192, 8192, 64, 64, 4),
        transposed("transpose_f16_64x128", torch.float16, 8192, 8192, 64, 128, 8),
        transposed("transpose_i8_128x128", torch.int8, 8192, 8192, 128, 128, 4),
        transposed("transpose_f32_32x32_one_warp", torch.float32, 4096, 4096, 32, 32, 1),
        ("row_sums_f32", row_sums, {"N": 128, "BM": 64}, 4, (8192 // 64, 1, 1), xs,
         torch.empty(8192, dtype=torch.float32, device="cuda"), xs.sum(1)),
    ]
    # One warp: the reduced rows change layout within the warp, which
    # Triton does with shuffles and no scratch (shared 0 on both sides).
    for dtype, n in ((torch.float32, 16), (torch.float32, 32), (torch.int64, 16)):
        x = small_ints((8192, n), dtype)
        converts.append((f"row_sums_one_warp_{str(dtype)[6:]}_{n}", row_sums, {"N": n, "BM": n},
                         1, (8192 // n, 1, 1), x,
                         torch.empty(8192, dtype=dtype, device="cuda"), x.sum(1)))
    # The same within 16- and 8-bit elements (tl.max keeps the element
    # type, where tl.sum widens it): Triton packs two or four of them per
    # shuffled register.
    # These shapes mix registers and lanes in the conversion (with
    # unpacked elements they take selects as well as shuffles).
    for dtype, bm, n in ((torch.float16, 16, 32), (torch.float16, 32, 16),
                         (torch.int8, 32, 32), (torch.int8, 64, 16)):
        x = small_ints((8192, n), dtype)
        converts.append((f"row_maxes_one_warp_{str(dtype)[6:]}_{bm}x{n}", row_maxes,
                         {"N": n, "BM": bm}, 1, (8192 // bm, 1, 1), x,
                         torch.empty(8192, dtype=dtype, device="cuda"), x.max(1).values))
    return [("SCAN",) + c for c in scans] + [("CVT",) + c for c in converts]


MIX = ("shfl.sync", "prmt.b32", "selp", "st.shared", "ld.shared", "bar.sync", "bar.warp.sync")


def mix(ptx):
    """How many of each instruction in MIX the PTX text has."""
    return " ".join(f"{m}={ptx.count(m)}" for m in MIX)


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


class Loaded:
    """A PTX kernel loaded through the driver API, launched on tensors."""

    def __init__(self, ptx, name, num_warps, shared):
        cuda = driver()
        self.module = ctypes.c_void_p()
        check(cuda.cuModuleLoadData(ctypes.byref(self.module), ptx + b"\0"), "cuModuleLoadData")
        self.function = ctypes.c_void_p()
        check(cuda.cuModuleGetFunction(ctypes.byref(self.function), self.module, name.encode()),
              "cuModuleGetFunction")
        self.block = 32 * num_warps
        self.shared = shared
        if shared > 48 * 1024:
            # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
            check(cuda.cuFuncSetAttribute(self.function, 8, shared), "cuFuncSetAttribute")

    def launch(self, grid, tensors):
        """Launches on `tensors` (the kernel's pointer parameters, in order),
        then the global and profile scratch pointers."""
        self.values = [ctypes.c_void_p(t.data_ptr()) for t in tensors]
        self.values += [ctypes.c_void_p(None), ctypes.c_void_p(None)]
        params = (ctypes.c_void_p * len(self.values))(
            *[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in self.values])
        check(driver().cuLaunchKernel(self.function, *grid, self.block, 1, 1, self.shared,
                                      None, params, None), "cuLaunchKernel")


def ours(ptx_path, meta, tensors):
    if len(meta["args"]) != len(tensors):
        raise RuntimeError(f"our kernel has {len(meta['args'])} parameters, expected {len(tensors)}")
    with open(ptx_path, "rb") as fh:
        return Loaded(fh.read(), meta["name"], int(meta["num_warps"]), int(meta["shared"]))


def median_ms(kernel, grid, tensors, reps=50):
    for _ in range(5):
        kernel.launch(grid, tensors)
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        kernel.launch(grid, tensors)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def max_error(a, b):
    if a.shape != b.shape:
        return float("inf")
    return (a.to(torch.float64) - b.to(torch.float64)).abs().max().item()


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    ttc = sys.argv[1]
    outdir = sys.argv[2] if len(sys.argv) == 3 else tempfile.mkdtemp(prefix="op_check.")
    os.makedirs(outdir, exist_ok=True)
    torch.manual_seed(0)
    failures = 0
    for group, name, kernel, constexprs, num_warps, grid, x, like, reference in cases():
        try:
            theirs = torch.empty_like(like)
            compiled = kernel[grid](x, theirs, num_warps=num_warps, **constexprs)
            torch.cuda.synchronize()
            if group == "CVT" and "ttg.convert_layout" not in compiled.asm["ttgir"]:
                raise RuntimeError("Triton's TTGIR has no ttg.convert_layout: the case tests nothing")
            ttir = os.path.join(outdir, f"{name}.ttir")
            with open(ttir, "w") as fh:
                fh.write(compiled.asm["ttir"])
            with open(os.path.join(outdir, f"{name}.triton.ptx"), "w") as fh:
                fh.write(compiled.asm["ptx"])
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
            mine = torch.full_like(like, 123)
            kernel_ours = ours(ptx, meta, [x, mine])
            kernel_ours.launch(grid, [x, mine])
            check(driver().cuCtxSynchronize(), "cuCtxSynchronize")
            error = max(max_error(mine, reference), max_error(theirs, reference))
            ok = error == 0
            detail = "" if ok else (
                f" (ours vs torch {max_error(mine, reference)},"
                f" triton vs torch {max_error(theirs, reference)})")
            print(f"{group} {name} {'PASS' if ok else 'FAIL'} {error}{detail}", flush=True)
            if ok and group == "CVT":
                kernel_theirs = Loaded(compiled.asm["ptx"].encode(), compiled.metadata.name,
                                       compiled.metadata.num_warps, compiled.metadata.shared)
                t_ours = median_ms(kernel_ours, grid, [x, mine])
                t_theirs = median_ms(kernel_theirs, grid, [x, mine])
                print(f"CVTTIME {name} {t_ours:.4f} {t_theirs:.4f} {t_ours / t_theirs:.3f}"
                      f" shared {meta['shared']} {compiled.metadata.shared}", flush=True)
                with open(ptx) as fh:
                    print(f"CVTMIX {name} ours {mix(fh.read())} | triton {mix(compiled.asm['ptx'])}",
                          flush=True)
        except Exception as e:  # one failing case must not hide the others
            ok = False
            print(f"{group} {name} FAIL inf ({e})", flush=True)
        failures += 0 if ok else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
