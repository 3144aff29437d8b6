#!/usr/bin/env python3
"""Compiles a sweep of small Triton kernels with Triton 3.6 and through this
project's package (strict mode), for several targets, and prints every
kernel that one compiler builds (to a cubin: Triton's ptxas runs for the
target) and the other does not, with the error. No GPU needed.

    scripts/compile-sweep.py [--arch 80 89 90] [--only casts|unary|2d|tuples|dots|memory] [--ttgir]

With `--ttgir`, the TTGIR of every kernel both compile is compared too
(printed by this project, locations dropped, SSA names renumbered), and the
kernels whose TTGIR is not Triton's are named.

The kernels: `x.to(dtype)` between every pair of 14 types with each
rounding mode (casts); 48 elementwise, math, reduction, scan, sort and
atomic ops on 9 types at three sizes and warp counts (unary); 19 2-D ops
(reductions along either axis, scans, sort, transposes, join/split,
interleave, reshape, gathers, dots, an associative scan) on 8 types at four
shapes (2d); reductions and scans of (value, index) pairs, an argmax and a
running maximum along either axis, values of 6 types and indices of 4, at
five shapes (tuples); a matmul loop with a masked K (fp16, bf16, tf32, tf32x3,
fp32, int8, both fp8, an fp16 accumulator; seven tile shapes with their
warps and stages; B transposed or not; three epilogues; nine loop
variants, also with 16 warps on a 64-row tile; a dot's result scanned,
sorted, reduced, transposed, reshaped, gathered, joined, split, flipped)
(dots); 19 memory
and control-flow patterns (`other`, cache modifiers, eviction policies,
block pointers, atomics with a mask, semantics and scope, scalar
loads, while and nested loops, `tl.range` stages, an early return,
`device_assert`, `device_print`, calls of `noinline` functions) on 4 types at three sizes (memory). Needs `triton==3.6.0` and the triton_rs package in the running
Python. Exits non-zero if this project fails a kernel that Triton compiles.

Give the targets in ascending order (the default): after compiling an fp8
dot for sm_90, Triton 3.6 compiles the same kernel for sm_80 with sm_89's
fp8 conversions in the same process, which its ptxas then rejects.
"""

import argparse
import contextlib
import importlib.util
import io
import itertools
import pathlib
import sys
import tempfile

import triton
import triton.language as tl
import triton_rs
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

# Triton compiles into a cache of the sweep's own, new in each process: a
# kernel cached by another run would carry that run's names (a noinline
# callee's symbol holds the module name the script had there).
_CACHE = tempfile.TemporaryDirectory(prefix="compile-sweep-")


@triton.jit
def cast_kernel(x_ptr, y_ptr, DST: tl.constexpr, ROUND: tl.constexpr):
    offs = tl.arange(0, 256)
    x = tl.load(x_ptr + offs)
    if ROUND == "none":
        y = x.to(DST)
    else:
        y = x.to(DST, fp_downcast_rounding=ROUND)
    tl.store(y_ptr + offs, y)


@triton.jit
def unary_kernel(x_ptr, y_ptr, OP: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if OP == "exp": y = tl.exp(x)
    elif OP == "exp2": y = tl.exp2(x)
    elif OP == "log": y = tl.log(x)
    elif OP == "log2": y = tl.log2(x)
    elif OP == "sqrt": y = tl.sqrt(x)
    elif OP == "sqrt_rn": y = tl.sqrt_rn(x)
    elif OP == "rsqrt": y = tl.rsqrt(x)
    elif OP == "sin": y = tl.sin(x)
    elif OP == "cos": y = tl.cos(x)
    elif OP == "abs": y = tl.abs(x)
    elif OP == "floor": y = tl.floor(x)
    elif OP == "ceil": y = tl.ceil(x)
    elif OP == "erf": y = tl.erf(x)
    elif OP == "neg": y = -x
    elif OP == "sigmoid": y = tl.sigmoid(x)
    elif OP == "softmax": y = tl.softmax(x)
    elif OP == "cumsum": y = tl.cumsum(x, 0)
    elif OP == "cumprod": y = tl.cumprod(x, 0)
    elif OP == "sort": y = tl.sort(x)
    elif OP == "flip": y = tl.flip(x)
    elif OP == "sum": y = tl.sum(x, 0) + tl.zeros_like(x)
    elif OP == "max": y = tl.max(x, 0) + tl.zeros_like(x)
    elif OP == "argmax": y = (tl.argmax(x, 0) + tl.zeros_like(x).to(tl.int32)).to(x.dtype)
    elif OP == "xor_sum": y = tl.xor_sum(x, 0) + tl.zeros_like(x)
    elif OP == "add": y = x + x
    elif OP == "mul": y = x * x
    elif OP == "div": y = x / (x + 1)
    elif OP == "fdiv": y = tl.fdiv(x, x + 1)
    elif OP == "div_rn": y = tl.div_rn(x, x + 1)
    elif OP == "mod": y = x % (x + 1)
    elif OP == "floordiv": y = x // (x + 1)
    elif OP == "max2": y = tl.maximum(x, x + 1)
    elif OP == "min2": y = tl.minimum(x, x + 1, propagate_nan=tl.PropagateNan.ALL)
    elif OP == "clamp": y = tl.clamp(x, x - 1, x + 1)
    elif OP == "fma": y = tl.fma(x, x, x)
    elif OP == "umulhi": y = tl.umulhi(x, x)
    elif OP == "shl": y = x << 1
    elif OP == "shr": y = x >> 1
    elif OP == "and": y = x & (x + 1)
    elif OP == "where": y = tl.where(x > 0, x, -x)
    elif OP == "atomic_add": y = tl.atomic_add(x_ptr + offs, x)
    elif OP == "atomic_max": y = tl.atomic_max(x_ptr + offs, x)
    elif OP == "atomic_xchg": y = tl.atomic_xchg(x_ptr + offs, x)
    elif OP == "atomic_and": y = tl.atomic_and(x_ptr + offs, x)
    elif OP == "atomic_xor": y = tl.atomic_xor(x_ptr + offs, x, sem="relaxed")
    elif OP == "atomic_cas": y = tl.atomic_cas(x_ptr + offs, x, x + 1)
    elif OP == "reshape": y = tl.reshape(tl.trans(tl.reshape(x, (N // 4, 4))), (N,))
    elif OP == "histogram": y = tl.histogram(x.to(tl.int32), N).to(x.dtype)
    else: y = x
    tl.store(y_ptr + offs, y)


@triton.jit
def two_d_kernel(x_ptr, y_ptr, OP: tl.constexpr, M: tl.constexpr, N: tl.constexpr, ACC: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rm * N + rn)
    if OP == "sum0": y = tl.sum(x, 0)[None, :] + tl.zeros_like(x)
    elif OP == "sum1": y = tl.sum(x, 1)[:, None] + tl.zeros_like(x)
    elif OP == "max1": y = tl.max(x, 1)[:, None] + tl.zeros_like(x)
    elif OP == "argmin0": y = (tl.argmin(x, 0)[None, :] + tl.zeros_like(x).to(tl.int32)).to(x.dtype)
    elif OP == "cumsum0": y = tl.cumsum(x, 0)
    elif OP == "cumsum1": y = tl.cumsum(x, 1, reverse=True)
    elif OP == "sort1": y = tl.sort(x, 1)
    elif OP == "trans": y = tl.trans(tl.trans(x) + 1)
    elif OP == "permute": y = tl.permute(tl.permute(x, (1, 0)) * 2, (1, 0))
    elif OP == "join": y = tl.sum(tl.join(x, x), 2)
    elif OP == "split":
        a, b = tl.split(tl.reshape(x, (M, N // 2, 2)))
        y = tl.reshape(tl.join(b, a), (M, N))
    elif OP == "interleave": y = x + tl.sum(tl.interleave(x, x), 1)[:, None]
    elif OP == "reshape": y = tl.reshape(tl.reshape(x, (N, M)) + 1, (M, N))
    elif OP == "gather1": y = tl.gather(x, (rn + rm) % N + tl.zeros_like(x).to(tl.int32), 1)
    elif OP == "gather0": y = tl.gather(x, (rm * 3) % M + tl.zeros_like(x).to(tl.int32), 0)
    elif OP == "dot": y = tl.dot(x, tl.trans(x)).to(x.dtype)
    elif OP == "dot_acc": y = tl.dot(x, x, tl.zeros((M, N), ACC)).to(x.dtype)
    elif OP == "where": y = tl.where(rm > rn, x, tl.sum(x, 0)[None, :])
    elif OP == "assoc": y = tl.associative_scan(x, 1, _combine)
    else: y = x
    tl.store(y_ptr + rm * N + rn, y)


@triton.jit
def _combine(a, b):
    return a + b


@triton.jit
def _first_max(a, ai, b, bi):
    take = (a > b) | ((a == b) & (ai < bi))
    return tl.where(take, a, b), tl.where(take, ai, bi)


@triton.jit
def tuple_kernel(x_ptr, y_ptr, z_ptr, OP: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                 INDEX: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rm * N + rn)
    i = (rm * N + rn).to(INDEX)
    if OP == "argmax1":
        v, k = tl.reduce((x, i), 1, _first_max)
        tl.store(y_ptr + tl.arange(0, M), v)
        tl.store(z_ptr + tl.arange(0, M), k)
    elif OP == "argmax0":
        v, k = tl.reduce((x, i), 0, _first_max)
        tl.store(y_ptr + tl.arange(0, N), v)
        tl.store(z_ptr + tl.arange(0, N), k)
    else:
        v, k = tl.associative_scan((x, i), 0 if OP == "cummax0" else 1, _first_max,
                                   reverse=OP == "cummax1r")
        tl.store(y_ptr + rm * N + rn, v)
        tl.store(z_ptr + rm * N + rn, k)


@triton.jit
def dot_loop_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, TRANS_B: tl.constexpr,
                    PRECISION: tl.constexpr, ACC: tl.constexpr, EPILOGUE: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    if TRANS_B:
        b_ptrs = b_ptr + rn[None, :] * stride_bk + rk[:, None]
    else:
        b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), ACC)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK)
        acc = tl.dot(a, b, acc, input_precision=PRECISION, out_dtype=ACC)
        a_ptrs += BK
        if TRANS_B:
            b_ptrs += BK
        else:
            b_ptrs += BK * stride_bk
    if EPILOGUE == "relu":
        acc = tl.maximum(acc, 0)
    elif EPILOGUE == "rowmax":
        acc = acc - tl.max(acc, 1)[:, None]
    c = acc.to(c_ptr.dtype.element_ty)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], c, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def dot_variant_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, num_tiles,
                       MODE: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rk = tl.arange(0, BK)
    if MODE == "persistent":
        # A program per SM walks tiles; the tile loop and the K loop are one
        # flattened nest.
        tiles_n = tl.cdiv(N, BN)
        for tile in tl.range(tl.program_id(0), num_tiles, tl.num_programs(0), flatten=True):
            rm = (tile // tiles_n) * BM + tl.arange(0, BM)
            rn = (tile % tiles_n) * BN + tl.arange(0, BN)
            acc = tl.zeros((BM, BN), tl.float32)
            for k in range(0, K, BK):
                a = tl.load(a_ptr + rm[:, None] * stride_am + (k + rk)[None, :])
                b = tl.load(b_ptr + (k + rk)[:, None] * stride_bk + rn[None, :])
                acc = tl.dot(a, b, acc)
            tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(tl.float16))
        return
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    if MODE == "unroll2":
        for k in tl.range(0, K, BK, loop_unroll_factor=2):
            acc = tl.dot(tl.load(a_ptrs + k), tl.load(b_ptrs + k * stride_bk), acc)
    elif MODE == "single_buffer":
        for k in tl.range(0, K, BK, num_stages=3, disallow_acc_multi_buffer=True):
            acc = tl.dot(tl.load(a_ptrs + k), tl.load(b_ptrs + k * stride_bk), acc)
    elif MODE == "no_licm":
        for k in tl.range(0, K, BK, disable_licm=True):
            acc = tl.dot(tl.load(a_ptrs + k), tl.load(b_ptrs + k * stride_bk), acc)
    elif MODE == "static":
        for k in tl.static_range(0, 4 * BK, BK):
            acc = tl.dot(tl.load(a_ptrs + k), tl.load(b_ptrs + k * stride_bk), acc)
    elif MODE == "while":
        k = 0
        while k < K:
            acc = tl.dot(tl.load(a_ptrs + k), tl.load(b_ptrs + k * stride_bk), acc)
            k += BK
    elif MODE == "two_dots":
        for k in range(0, K, BK):
            a = tl.load(a_ptrs + k)
            p = tl.dot(a, tl.load(b_ptrs + k * stride_bk))
            acc = tl.dot(p.to(tl.float16), tl.load(b_ptr + tl.arange(0, BN)[:, None] * BN + rn[None, :]), acc)
    elif MODE == "scaled_acc":
        for k in range(0, K, BK):
            acc = acc * 0.5 + tl.dot(tl.load(a_ptrs + k), tl.load(b_ptrs + k * stride_bk))
    elif MODE == "warp_specialize":
        # Triton 3.6 splits a 4-warp function whose loads feed a wgmma into
        # producer and consumer warp groups (not built here: refused; with
        # these pointer loads Triton's own pass fails too); elsewhere it
        # only turns the function's pipelining off.
        for k in tl.range(0, K, BK, warp_specialize=True):
            acc = tl.dot(tl.load(a_ptrs + k), tl.load(b_ptrs + k * stride_bk), acc)
    elif MODE == "cond_store":
        for k in range(0, K, BK):
            acc = tl.dot(tl.load(a_ptrs + k), tl.load(b_ptrs + k * stride_bk), acc)
            if k == BK:
                tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(tl.float16))
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(tl.float16))


@triton.jit
def dot_epilogue_kernel(a_ptr, b_ptr, c_ptr, OP: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    d = tl.dot(tl.load(a_ptr + rm[:, None] * K + rk[None, :]), tl.load(b_ptr + rk[:, None] * N + rn[None, :]))
    if OP == "cumsum1": y = tl.cumsum(d, 1)
    elif OP == "cumsum0": y = tl.cumsum(d, 0)
    elif OP == "sort1": y = tl.sort(d, 1)
    elif OP == "argmax0": y = (tl.argmax(d, 0)[None, :] + tl.zeros_like(d).to(tl.int32)).to(d.dtype)
    elif OP == "trans": y = tl.trans(tl.trans(d) * 2)
    elif OP == "reshape": y = tl.reshape(tl.reshape(d, (N, M)) + 1, (M, N))
    elif OP == "gather": y = tl.gather(d, (rn[None, :] + rm[:, None]) % N + tl.zeros_like(d).to(tl.int32), 1)
    elif OP == "join": y = tl.sum(tl.join(d, d * 2), 2)
    elif OP == "split":
        p, q = tl.split(tl.reshape(d, (M, N // 2, 2)))
        y = tl.reshape(tl.join(q, p), (M, N))
    elif OP == "assoc": y = tl.associative_scan(d, 1, _combine)
    elif OP == "where": y = tl.where(rm[:, None] > rn[None, :], d, 0)
    elif OP == "max0": y = tl.max(d, 0)[None, :] + d
    elif OP == "flip": y = tl.flip(d, 1)
    else: y = d
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], y.to(c_ptr.dtype.element_ty))


@triton.jit(noinline=True)
def _noinline_copy(src, dst, start, n, B: tl.constexpr):
    offs = start + tl.arange(0, B)
    mask = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=mask) * 2, mask=mask)


@triton.jit(noinline=True)
def _noinline_scale(x, k):
    return x * k


@triton.jit(noinline=True)
def _noinline_twice(src, dst, start, n, B: tl.constexpr):
    _noinline_copy(src, dst, start, n, B)
    _noinline_copy(dst, src, _noinline_scale(start, 3), n, B)


@triton.jit
def memory_kernel(x_ptr, y_ptr, n, OP: tl.constexpr, B: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * B + tl.arange(0, B)
    mask = offs < n
    if OP == "other":
        y = tl.load(x_ptr + offs, mask=mask, other=1)
        tl.store(y_ptr + offs, y, mask=mask)
    elif OP == "cache_cg":
        y = tl.load(x_ptr + offs, mask=mask, cache_modifier=".cg")
        tl.store(y_ptr + offs, y, mask=mask, cache_modifier=".cs")
    elif OP == "cache_cv":
        y = tl.load(x_ptr + offs, mask=mask, cache_modifier=".cv", volatile=True)
        tl.store(y_ptr + offs, y, mask=mask, cache_modifier=".wt")
    elif OP == "evict":
        y = tl.load(x_ptr + offs, mask=mask, eviction_policy="evict_last")
        tl.store(y_ptr + offs, y, mask=mask, eviction_policy="evict_first")
    elif OP == "block_ptr":
        src = tl.make_block_ptr(x_ptr, (n, ), (1, ), (pid * B, ), (B, ), (0, ))
        dst = tl.make_block_ptr(y_ptr, (n, ), (1, ), (pid * B, ), (B, ), (0, ))
        y = tl.load(src, boundary_check=(0, ), padding_option="zero")
        tl.store(dst, y + tl.load(tl.advance(src, (B, )), boundary_check=(0, ), padding_option="nan"),
                 boundary_check=(0, ))
    elif OP == "block_ptr_2d":
        src = tl.make_block_ptr(x_ptr, (n, B), (B, 1), (pid * 16, 0), (16, B), (1, 0))
        dst = tl.make_block_ptr(y_ptr, (n, B), (B, 1), (pid * 16, 0), (16, B), (1, 0))
        tl.store(dst, tl.load(src, boundary_check=(0, 1)) * 2, boundary_check=(0, ))
    elif OP == "atomic_masked":
        y = tl.atomic_add(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask, sem="relaxed", scope="gpu")
        tl.store(x_ptr + offs, y, mask=mask)
    elif OP == "atomic_acq_rel":
        y = tl.atomic_max(y_ptr + offs % 7, tl.load(x_ptr + offs, mask=mask), mask=mask, sem="acq_rel",
                          scope="cta")
        tl.store(x_ptr + offs, y, mask=mask)
    elif OP == "atomic_scalar":
        tl.atomic_add(y_ptr, tl.sum(tl.load(x_ptr + offs, mask=mask, other=0), 0), sem="release", scope="sys")
    elif OP == "scalar":
        v = tl.load(x_ptr + pid)
        tl.store(y_ptr + pid, v * 2 if pid % 2 == 0 else v)
    elif OP == "while":
        i = 0
        acc = tl.zeros((B, ), x_ptr.dtype.element_ty)
        while i * B < n:
            acc += tl.load(x_ptr + i * B + tl.arange(0, B), mask=i * B + tl.arange(0, B) < n, other=0)
            i += 1
        tl.store(y_ptr + tl.arange(0, B), acc)
    elif OP == "range_stages":
        acc = tl.zeros((B, ), x_ptr.dtype.element_ty)
        for i in tl.range(0, n, B, num_stages=3):
            acc += tl.load(x_ptr + i + tl.arange(0, B), mask=i + tl.arange(0, B) < n, other=0)
        tl.store(y_ptr + tl.arange(0, B), acc)
    elif OP == "range_ws":
        acc = tl.zeros((B, ), x_ptr.dtype.element_ty)
        for i in tl.range(0, n, B, warp_specialize=True):
            acc += tl.load(x_ptr + i + tl.arange(0, B), mask=i + tl.arange(0, B) < n, other=0)
        tl.store(y_ptr + tl.arange(0, B), acc)
    elif OP == "nested":
        acc = tl.zeros((B, ), x_ptr.dtype.element_ty)
        for i in range(0, 4):
            for j in tl.static_range(2):
                acc += tl.load(x_ptr + (2 * i + j) * B + tl.arange(0, B))
        tl.store(y_ptr + tl.arange(0, B), acc)
    elif OP == "early_return":
        if pid * B >= n:
            return
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)
    elif OP == "assert":
        x = tl.load(x_ptr + offs, mask=mask)
        tl.device_assert(offs >= 0, "negative offset")
        tl.store(y_ptr + offs, x, mask=mask)
    elif OP == "print":
        x = tl.load(x_ptr + offs, mask=mask)
        tl.device_print("x", x)
        tl.store(y_ptr + offs, x, mask=mask)
    elif OP == "noinline":
        _noinline_copy(x_ptr, y_ptr, pid * B, n, B)
    elif OP == "noinline_graph":
        _noinline_twice(x_ptr, y_ptr + 1, pid * B, n, B)


CAST_TYPES = {"i8": tl.int8, "i16": tl.int16, "i32": tl.int32, "i64": tl.int64, "u8": tl.uint8, "u32": tl.uint32,
              "fp16": tl.float16, "bf16": tl.bfloat16, "fp32": tl.float32, "fp64": tl.float64,
              "fp8e5": tl.float8e5, "fp8e4nv": tl.float8e4nv, "fp8e4b15": tl.float8e4b15, "i1": tl.int1}
UNARY_TYPES = ["fp16", "bf16", "fp32", "fp64", "i8", "i16", "i32", "i64", "u32"]
UNARY_OPS = ['exp', 'exp2', 'log', 'log2', 'sqrt', 'sqrt_rn', 'rsqrt', 'sin', 'cos', 'abs', 'floor', 'ceil', 'erf', 'neg', 'sigmoid', 'softmax', 'cumsum', 'cumprod', 'sort', 'flip', 'sum', 'max', 'argmax', 'xor_sum', 'add', 'mul', 'div', 'fdiv', 'div_rn', 'mod', 'floordiv', 'max2', 'min2', 'clamp', 'fma', 'umulhi', 'shl', 'shr', 'and', 'where', 'atomic_add', 'atomic_max', 'atomic_xchg', 'atomic_and', 'atomic_xor', 'atomic_cas', 'reshape', 'histogram']
TWO_D_TYPES = ["fp16", "bf16", "fp32", "i8", "i32", "i64", "fp8e5", "fp8e4nv"]
DOT_TYPES = {"fp16": ("fp16", tl.float32, "ieee"), "bf16": ("bf16", tl.float32, "ieee"),
             "tf32": ("fp32", tl.float32, "tf32"), "tf32x3": ("fp32", tl.float32, "tf32x3"),
             "fp32": ("fp32", tl.float32, "ieee"), "fp16acc16": ("fp16", tl.float16, "ieee"),
             "i8": ("i8", tl.int32, "ieee"), "fp8e5": ("fp8e5", tl.float32, "ieee"),
             "fp8e4nv": ("fp8e4nv", tl.float32, "ieee")}
DOT_SHAPES = [(16, 16, 16, 1, 1), (32, 32, 32, 4, 2), (64, 64, 32, 4, 3), (128, 128, 64, 8, 3),
              (64, 128, 64, 4, 4), (128, 64, 32, 4, 2), (32, 64, 64, 2, 1)]
DOT_VARIANTS = ["persistent", "unroll2", "single_buffer", "no_licm", "static", "while", "two_dots", "scaled_acc",
                "cond_store", "warp_specialize"]
DOT_EPILOGUES = ["cumsum1", "cumsum0", "sort1", "argmax0", "trans", "reshape", "gather", "join", "split", "assoc",
                 "where", "max0", "flip"]
DOT_EPILOGUE_SHAPES = [(64, 64, 32, 4), (128, 64, 64, 8), (16, 32, 16, 1), (64, 128, 32, 4), (32, 32, 32, 2)]
MEMORY_OPS = ["other", "cache_cg", "cache_cv", "evict", "block_ptr", "block_ptr_2d", "atomic_masked",
              "atomic_acq_rel", "atomic_scalar", "scalar", "while", "range_stages", "range_ws", "nested", "early_return",
              "assert", "print", "noinline", "noinline_graph"]
MEMORY_TYPES = ["fp16", "fp32", "i32", "i64"]
TWO_D_OPS = ['sum0', 'sum1', 'max1', 'argmin0', 'cumsum0', 'cumsum1', 'sort1', 'trans', 'permute', 'join', 'split', 'interleave', 'reshape', 'gather1', 'gather0', 'dot', 'dot_acc', 'where', 'assoc']
# Reductions and scans of a (value, index) pair (an argmax, a running
# maximum with its position): mixed element widths share one scratch.
TUPLE_OPS = ["argmax1", "argmax0", "cummax0", "cummax1r"]
TUPLE_TYPES = ["i1", "i8", "fp16", "fp32", "i64", "fp64"]
TUPLE_INDICES = {"i1": tl.int1, "i16": tl.int16, "i32": tl.int32, "i64": tl.int64}
TUPLE_SHAPES = [((1, 64), 4), ((1, 128), 4), ((32, 32), 4), ((8, 256), 8), ((64, 16), 2)]


def cases(only):
    """(name, kernel, signature, constants, options) of the sweep."""
    if only in ("", "casts"):
        for (s, d) in itertools.product(CAST_TYPES, CAST_TYPES):
            for rnd in ["none", "rtne", "rtz"]:
                if rnd != "none" and not (d.startswith("fp") or d == "bf16"):
                    continue
                yield (f"cast {s} -> {d} {rnd}", cast_kernel, {"x_ptr": "*" + s, "y_ptr": "*" + d},
                       {"DST": CAST_TYPES[d], "ROUND": rnd}, {})
    if only in ("", "unary"):
        for (n, warps), op, dt in itertools.product([(128, 4), (64, 1), (2048, 8)], UNARY_OPS, UNARY_TYPES):
            yield (f"{op} {dt} {n} w{warps}", unary_kernel, {"x_ptr": "*" + dt, "y_ptr": "*" + dt},
                   {"OP": op, "N": n}, {"num_warps": warps})
    if only in ("", "2d"):
        for ((m, n), warps), op, dt in itertools.product([((16, 16), 1), ((64, 64), 4), ((32, 128), 8),
                                                          ((128, 32), 4)], TWO_D_OPS, TWO_D_TYPES):
            if op.startswith("dot") and m != n:
                continue
            acc = tl.int32 if dt.startswith("i") else tl.float32
            yield (f"{op} {dt} {m}x{n} w{warps}", two_d_kernel, {"x_ptr": "*" + dt, "y_ptr": "*" + dt},
                   {"OP": op, "M": m, "N": n, "ACC": acc}, {"num_warps": warps})
    if only in ("", "tuples"):
        for ((m, n), warps), op, dt, index in itertools.product(TUPLE_SHAPES, TUPLE_OPS, TUPLE_TYPES,
                                                              TUPLE_INDICES):
            yield (f"{op} {dt} {index} {m}x{n} w{warps}", tuple_kernel,
                   {"x_ptr": "*" + dt, "y_ptr": "*" + dt, "z_ptr": "*" + index},
                   {"OP": op, "M": m, "N": n, "INDEX": TUPLE_INDICES[index]}, {"num_warps": warps})
    if only in ("", "dots"):
        for name, (bm, bn, bk, warps, stages), trans_b, epilogue in itertools.product(
                DOT_TYPES, DOT_SHAPES, [False, True], ["none", "relu", "rowmax"]):
            if epilogue != "none" and (trans_b or bm != 64):
                continue
            dt, acc, precision = DOT_TYPES[name]
            out = "i32" if dt == "i8" else "fp16" if dt != "fp32" else "fp32"
            yield (f"dot {name} {bm}x{bn}x{bk} w{warps} s{stages} {'tb ' if trans_b else ''}{epilogue}",
                   dot_loop_kernel, {"a_ptr": "*" + dt, "b_ptr": "*" + dt, "c_ptr": "*" + out, "M": "i32", "N": "i32",
                                     "K": "i32", "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
                   {"BM": bm, "BN": bn, "BK": bk, "TRANS_B": trans_b, "PRECISION": precision, "ACC": acc,
                    "EPILOGUE": epilogue}, {"num_warps": warps, "num_stages": stages})
        # The shapes, then a 64-row tile with 16 warps (four warp groups for
        # one 64-row block).
        for mode, (bm, bn, bk, warps, stages) in itertools.product(DOT_VARIANTS,
                                                                  DOT_SHAPES[1:5] + [(64, 64, 32, 16, 3)]):
            yield (f"dot loop {mode} {bm}x{bn}x{bk} w{warps} s{stages}", dot_variant_kernel,
                   {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                    "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32", "num_tiles": "i32"},
                   {"MODE": mode, "BM": bm, "BN": bn, "BK": bk}, {"num_warps": warps, "num_stages": stages})
        for op, (m, n, k, warps), dt in itertools.product(DOT_EPILOGUES, DOT_EPILOGUE_SHAPES, ["fp16", "i8"]):
            out = "i32" if dt == "i8" else "fp32"
            yield (f"dot epilogue {op} {dt} {m}x{n} k{k} w{warps}", dot_epilogue_kernel,
                   {"a_ptr": "*" + dt, "b_ptr": "*" + dt, "c_ptr": "*" + out}, {"OP": op, "M": m, "N": n, "K": k},
                   {"num_warps": warps})
    if only in ("", "memory"):
        for op, dt, (b, warps) in itertools.product(MEMORY_OPS, MEMORY_TYPES, [(128, 4), (1024, 8), (32, 1)]):
            yield (f"{op} {dt} {b} w{warps}", memory_kernel, {"x_ptr": "*" + dt, "y_ptr": "*" + dt, "n": "i32"},
                   {"OP": op, "B": b}, {"num_warps": warps})


def compile_with(mode, kernel, signature, constants, options, arch, ttgir=None):
    """'ok', or one line of the compiler's error: its last line that names
    an error (ptxas's complaint, not the repro command after it), else its
    last line. With `ttgir` (a list), the kernel's TTGIR is appended to it."""
    if mode == "ours":
        triton_rs.enable("strict")
    else:
        triton_rs.disable()
    signature = dict(signature)
    signature.update({c: "constexpr" for c in constants})
    cache, triton.knobs.cache.dir = triton.knobs.cache.dir, _CACHE.name
    try:
        # Triton prints a failing kernel's whole PTX before it raises.
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            compiled = triton.compile(ASTSource(kernel, signature, constants),
                                      target=GPUTarget("cuda", arch, 32), options=options)
        if ttgir is not None:
            ttgir.append(compiled.asm["ttgir"])
        return "ok"
    except Exception as e:  # either compiler's refusal or failure
        lines = [line for line in str(e).strip().splitlines() if line.strip()]
        errors = [line for line in lines if "error" in line]
        return ((errors or lines or ["?"])[-1])[:200]
    finally:
        triton.knobs.cache.dir = cache


def printed(ttgir):
    """`ttgir` as this project prints it, normalised as
    `scripts/compare-ttgir.py` normalises (locations dropped, SSA names
    numbered in order): two compilers' TTGIRs compare equal exactly when
    they are the same ops (one printer for both sides)."""
    global _compare_ttgir
    if _compare_ttgir is None:
        path = pathlib.Path(__file__).with_name("compare-ttgir.py")
        spec = importlib.util.spec_from_file_location("compare_ttgir", path)
        _compare_ttgir = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_compare_ttgir)
    return _compare_ttgir.printed_by_us(ttgir)


_compare_ttgir = None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arch", type=int, nargs="+", default=[80, 89, 90])
    ap.add_argument("--only", choices=["casts", "unary", "2d", "tuples", "dots", "memory"], default="")
    ap.add_argument("--ttgir", action="store_true",
                    help="also compare the TTGIR of the kernels both compile (names the ones that differ)")
    args = ap.parse_args()
    total = ours_only = triton_only = neither = differ = 0
    for arch in args.arch:
        for name, kernel, signature, constants, options in cases(args.only):
            ttgirs = [] if args.ttgir else None
            theirs = compile_with("triton", kernel, signature, constants, options, arch, ttgirs)
            ours = compile_with("ours", kernel, signature, constants, options, arch, ttgirs)
            if ttgirs is not None and len(ttgirs) == 2 and printed(ttgirs[0]) != printed(ttgirs[1]):
                differ += 1
                print(f"sm_{arch} {name}: TTGIR differs from Triton's", flush=True)
            total += 1
            neither += theirs != "ok" and ours != "ok"
            if theirs == "ok" and ours != "ok":
                triton_only += 1
                print(f"sm_{arch} {name}: only Triton compiles it; ours: {ours}", flush=True)
            elif ours == "ok" and theirs != "ok":
                ours_only += 1
                print(f"sm_{arch} {name}: only this project compiles it; Triton: {theirs[:100]}", flush=True)
    print(f"kernels: {total}, only Triton: {triton_only}, only this project: {ours_only}, "
          f"neither (Triton's frontend or both refuse): {neither}"
          + (f", TTGIR differs: {differ}" if args.ttgir else ""))
    triton_rs.disable()
    return 1 if triton_only else 0


if __name__ == "__main__":
    sys.exit(main())
