"""Gluon kernels (`gluon_kernels.py`: layout conversions, reductions and
scans over blocked, linear and MMA layouts, shared memory in swizzled and
NVMMA layouts and their sub-slices, cp.async, wgmma and mma.sync, TMA with
mbarriers, explicit warp specialization) on the GPU, compiled by Triton and
by this project (triton_rs, strict mode; fresh @gluon.jit objects each
time), judged against torch where a reference is simple and against
Triton's output otherwise. A scan that Triton's own compiler cannot lower
(over a linear or MMA layout) is judged against torch alone, and so are
the padded-layout cases, where Triton 3.6's own kernels fault (misaligned
shared-memory accesses) and would poison the process's CUDA context.

usage: python3 gluon_check.py [--only TEXT]

Prints `GLUON name PASS|FAIL|REFUSED|SKIP ...` per case and a `GLUON`
total; exits 1 on a failure or refusal."""

import argparse
import pathlib
import sys
import tempfile

import torch
import triton
import triton_rs

from paired import Tally, fresh_module, judge, run_both

KERNELS = pathlib.Path(__file__).resolve().parent / "gluon_kernels.py"
TORCH_TYPES = {"fp16": torch.float16, "fp32": torch.float32, "i8": torch.int8, "i32": torch.int32,
               "i64": torch.int64}


def operand(dt, shape, seed=0):
    """A seeded tensor of type `dt` with small values."""
    torch.manual_seed(seed)
    if dt.startswith("i"):
        return torch.randint(-8, 9, shape, device="cuda").to(TORCH_TYPES[dt])
    return (torch.randn(shape, device="cuda") * 0.5).to(TORCH_TYPES[dt])


def as_float(t):
    """`t` for comparison: floats as f32, integers as f64."""
    return t.float() if t.dtype.is_floating_point else t.to(torch.float64)


def elementwise_case(name, args, constexprs, options):
    """launch(kernel) for the cases over x -> y of `x_ptr`'s type, each
    launch returning (output, torch's reference)."""
    dt = args["x_ptr"][1:]
    # The kind of case: its name's first word, after a cluster's size.
    words = name.split()
    kind = words[1] if words[0].startswith("cluster") else words[0]
    M, N = constexprs.get("M", 64), constexprs.get("N", 64)
    x = operand(dt, (M, N))
    if kind == "reduce":
        axis = constexprs["AXIS"]
        y_shape = (N, ) if axis == 0 else (M, )
        op = constexprs["OP"]
        ref = as_float(x.amax(axis) if op == "max" else x.to(torch.float64).sum(axis))
    elif kind == "scan":
        axis, reverse = constexprs["AXIS"], constexprs["REVERSE"]
        y_shape = (M, N)
        src = x.flip(axis) if reverse else x
        ref = src.to(torch.float64).cumsum(axis)
        ref = as_float((ref.flip(axis) if reverse else ref))
    elif kind == "warp_specialize":
        y_shape, ref = (M, N), as_float(x * 3)
    elif kind in ("shared", "shared-tiles") and constexprs.get("TRANSPOSE"):
        y_shape, ref = (N, M), as_float(x.t())
    elif kind == "cp.async":
        y_shape = (M, N)
        ref = x.clone()
        ref[M // 2 + 1:] = 0
        ref = as_float(ref)
    else:
        y_shape, ref = (M, N), as_float(x)

    def launch(kernel):
        y = torch.zeros(y_shape, device="cuda", dtype=x.dtype)
        kernel[(1, )](x, y, **constexprs, **options)
        torch.cuda.synchronize()
        return as_float(y), ref

    return launch


def gemm_case(args, constexprs, options):
    """launch(kernel) for the C = A @ B cases (A and B of `a_ptr`'s type,
    fp32 out)."""
    M, N, K = constexprs["M"], constexprs["N"], constexprs["K"]
    dt = args["a_ptr"][1:]
    a, b = operand(dt, (M, K), 1), operand(dt, (K, N), 2)
    ref = a.float() @ b.float()

    def launch(kernel):
        c = torch.zeros((M, N), device="cuda", dtype=torch.float32)
        kernel[(1, )](a, b, c, **constexprs, **options)
        torch.cuda.synchronize()
        return c, ref

    return launch


def tma_launch(module):
    """The TMA case: host descriptors over a 128 x 128 fp16 tensor, its
    (64, 64) block doubled into a 64 x 64 output."""
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

    x = operand("fp16", (128, 128), 3)
    y = torch.zeros((64, 64), device="cuda", dtype=torch.float16)
    layout = gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16)
    src = TensorDescriptor.from_tensor(x, [64, 64], layout)
    dst = TensorDescriptor.from_tensor(y, [64, 64], layout)
    module.tma_kernel[(1, )](src, dst, module.LAYOUTS_4["wide"], num_warps=4)
    torch.cuda.synchronize()
    return y.float(), (x[64:, 64:] * 2).float()


def ours_alone(launch, why, refusal="REFUSED"):
    """(status, detail) of this project's kernel against torch alone, where
    Triton's cannot be run (`why`); a refusal counts as `refusal`."""
    triton_rs.enable("strict")
    try:
        ours, ref = launch()
        status, detail = judge(ours, ref, ref)
        return status, f"{detail} ({why})"
    except triton_rs.CompileError as e:
        return refusal, f"{why}, and this project refuses: " + str(e).strip().splitlines()[-1][:120]
    finally:
        triton_rs.disable()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    triton.knobs.cache.dir = tempfile.mkdtemp()
    tally = Tally("GLUON", "GLUON")
    cases = fresh_module(KERNELS).cases()
    for name, kernel, kargs, constexprs, options in cases:
        if args.only not in name:
            continue
        kernel_name = kernel.fn.__name__
        if "a_ptr" in kargs:
            body = gemm_case(kargs, constexprs, options)
        else:
            body = elementwise_case(name, kargs, constexprs, options)

        def launch(body=body, kernel_name=kernel_name):
            return body(getattr(fresh_module(KERNELS), kernel_name))

        if "padded" in name:
            # Triton's own kernels of these fault (misaligned shared
            # accesses), which would poison the process's CUDA context.
            status, detail = ours_alone(launch, "triton's kernel faults")
        else:
            status, detail = run_both(name, launch)
            if status == "SKIP" and "scan" in name.split():
                status, detail = ours_alone(launch, "triton cannot compile it", refusal="SKIP")
        tally.record(name, status, detail)
    name = "tma copy fp16 64x64"
    if args.only in name:
        tally.record(name, *run_both(name, lambda: tma_launch(fresh_module(KERNELS))))
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
