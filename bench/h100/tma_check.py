"""Kernels with tensor descriptors (TMA on sm_90) on the GPU, compiled by
Triton and through triton_rs in strict mode (fresh @triton.jit objects
and an empty cache for each), against each other and against torch:

- a flash-attention forward over host `TensorDescriptor`s (Q, K, V, O),
  head dims 64 and 128 (128 halves are two TMA boxes a row), causal or
  not, several tiles, warps and stages;
- a GEMM over host descriptors whose B tile [BK, 256] is four boxes a row
  and whose C tile is stored with TMA, and a persistent one (a program per
  SM, grouped tiles, B read transposed, the epilogue stored in two halves
  or whole);
- a copy through device-side descriptors (`tl.make_tensor_descriptor`,
  written into global scratch memory) of a [64, 128] block;
- a TMA reduction (`desc.atomic_add`) of f32 blocks two boxes wide;
- a copy through 3-D host descriptors whose block is two boxes wide.

usage: python3 tma_check.py [--only TEXT] [--rounds N]

Prints `TMA name PASS|FAIL ours=ERR triton=ERR` (ERR: max |x - torch| /
max |torch|; a kernel passes when our error is within twice Triton's or
1e-3) and, for the attention and GEMM kernels, `TMATIME name ours_ms
triton_ms ratio` (each side's best median of `do_bench` over the rounds,
the two sides alternating); needs the wheel installed."""

import argparse
import importlib.util
import pathlib
import sys
import tempfile

import torch
import triton
import triton.language as tl
import triton_rs
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def attention_kernel(sm_scale, lse, q_desc, k_desc, v_desc, o_desc, N_CTX, HEAD_DIM: tl.constexpr,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    row0 = tl.program_id(1) * N_CTX
    q = q_desc.load([row0 + start_m * BLOCK_M, 0])
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.full([BLOCK_M], 1.0, tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    scale = sm_scale * 1.44269504
    hi = (start_m + 1) * BLOCK_M if CAUSAL else N_CTX
    for start_n in tl.range(0, hi, BLOCK_N):
        k = k_desc.load([row0 + start_n, 0]).T
        qk = tl.dot(q, k)
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= start_n + offs_n[None, :], qk, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * scale)
        p = tl.math.exp2(qk * scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = v_desc.load([row0 + start_n, 0])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(lse + row0 + offs_m, m_i + tl.math.log2(l_i))
    o_desc.store([row0 + start_m * BLOCK_M, 0], acc.to(tl.float16))


@triton.jit
def gemm_kernel(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    off_m = tl.program_id(0) * BM
    off_n = tl.program_id(1) * BN
    acc = tl.zeros([BM, BN], tl.float32)
    for k in tl.range(0, K, BK):
        acc = tl.dot(a_desc.load([off_m, k]), b_desc.load([k, off_n]), acc)
    c_desc.store([off_m, off_n], acc.to(tl.float16))


@triton.jit
def persistent_gemm_kernel(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                           GROUP: tl.constexpr, SUBTILE: tl.constexpr, NUM_SMS: tl.constexpr):
    # Grouped tile order, one program per SM looping over tiles; B is
    # [N, K] (read transposed); the epilogue may store two half tiles.
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    in_group = GROUP * tiles_n
    for tile in tl.range(tl.program_id(0), tiles_m * tiles_n, NUM_SMS, flatten=True):
        first_m = tile // in_group * GROUP
        rows = min(tiles_m - first_m, GROUP)
        off_m = (first_m + tile % rows) * BM
        off_n = (tile % in_group) // rows * BN
        acc = tl.zeros([BM, BN], tl.float32)
        for k in range(0, K, BK):
            acc = tl.dot(a_desc.load([off_m, k]), b_desc.load([off_n, k]).T, acc)
        if SUBTILE:
            left, right = tl.split(tl.permute(tl.reshape(acc, (BM, 2, BN // 2)), (0, 2, 1)))
            c_desc.store([off_m, off_n], left.to(tl.float16))
            c_desc.store([off_m, off_n + BN // 2], right.to(tl.float16))
        else:
            c_desc.store([off_m, off_n], acc.to(tl.float16))


@triton.jit
def reduce_kernel(dst_desc, src, N, BM: tl.constexpr, BN: tl.constexpr):
    m, n = tl.program_id(0) * BM, tl.program_id(1) * BN
    offsets = (m + tl.arange(0, BM))[:, None] * N + (n + tl.arange(0, BN))[None, :]
    dst_desc.atomic_add([m, n], tl.load(src + offsets))


@triton.jit
def copy3d_kernel(src_desc, dst_desc, B: tl.constexpr):
    b = tl.program_id(0) * B
    dst_desc.store([b, 0, 0], src_desc.load([b, 0, 0]) * 3)


@triton.jit
def device_copy_kernel(src, dst, M, N, BM: tl.constexpr, BN: tl.constexpr):
    s = tl.make_tensor_descriptor(src, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    d = tl.make_tensor_descriptor(dst, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    m, n = tl.program_id(0) * BM, tl.program_id(1) * BN
    d.store([m, n], s.load([m, n]) * 2 + 1)


def fresh_module():
    """This file loaded afresh: new @triton.jit objects."""
    spec = importlib.util.spec_from_file_location(f"tma{id(object())}", pathlib.Path(__file__).resolve())
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def attention_case(d, bm, bn, warps, stages, causal, z_h=32, n_ctx=4096):
    name = f"attention D{d} {bm}x{bn} w{warps} s{stages}{' causal' if causal else ''}"

    def setup():
        torch.manual_seed(0)
        q, k, v = (torch.randn((z_h * n_ctx, d), device="cuda", dtype=torch.float16) for _ in range(3))
        o = torch.empty_like(q)
        lse = torch.empty((z_h * n_ctx, ), device="cuda", dtype=torch.float32)
        descs = [TensorDescriptor.from_tensor(t, [bm if t is q or t is o else bn, d]) for t in (q, k, v, o)]
        qf, kf, vf = (t.float().view(z_h, n_ctx, d) for t in (q, k, v))
        ref = torch.nn.functional.scaled_dot_product_attention(qf, kf, vf, is_causal=causal, scale=d**-0.5)

        def launch(module):
            module.attention_kernel[(n_ctx // bm, z_h)](d**-0.5, lse, *descs, n_ctx, HEAD_DIM=d, BLOCK_M=bm,
                                                        BLOCK_N=bn, CAUSAL=causal, num_warps=warps,
                                                        num_stages=stages)
            return o.float().view(z_h, n_ctx, d)

        return launch, ref

    return name, setup


def gemm_operands(size):
    """A and B random, C empty: fp16, size x size."""
    torch.manual_seed(0)
    a, b = (torch.randn((size, size), device="cuda", dtype=torch.float16) for _ in range(2))
    return a, b, torch.empty((size, size), device="cuda", dtype=torch.float16)


def gemm_case(size, bm, bn, bk, warps, stages):
    name = f"gemm {size}^3 {bm}x{bn}x{bk} w{warps} s{stages}"

    def setup():
        a, b, c = gemm_operands(size)
        descs = [TensorDescriptor.from_tensor(a, [bm, bk]), TensorDescriptor.from_tensor(b, [bk, bn]),
                 TensorDescriptor.from_tensor(c, [bm, bn])]
        ref = a.float() @ b.float()

        def launch(module):
            module.gemm_kernel[(size // bm, size // bn)](*descs, size, BM=bm, BN=bn, BK=bk, num_warps=warps,
                                                         num_stages=stages)
            return c.float()

        return launch, ref

    return name, setup


def persistent_gemm_case(size, bm, bn, bk, warps, stages, subtile):
    name = f"persistent gemm {size}^3 {bm}x{bn}x{bk} w{warps} s{stages}{' subtiled' if subtile else ''}"

    def setup():
        a, b, c = gemm_operands(size)
        descs = [TensorDescriptor.from_tensor(a, [bm, bk]), TensorDescriptor.from_tensor(b, [bn, bk]),
                 TensorDescriptor.from_tensor(c, [bm, bn // 2 if subtile else bn])]
        sms = torch.cuda.get_device_properties("cuda").multi_processor_count
        ref = a.float() @ b.float().T

        def launch(module):
            module.persistent_gemm_kernel[(sms, )](*descs, size, size, size, BM=bm, BN=bn, BK=bk, GROUP=8,
                                                   SUBTILE=subtile, NUM_SMS=sms, num_warps=warps,
                                                   num_stages=stages)
            return c.float()

        return launch, ref

    return name, setup


def source_and_destination(shape, dtype):
    """A random source and an empty destination of `shape`."""
    torch.manual_seed(0)
    src = torch.randn(shape, device="cuda", dtype=dtype)
    return src, torch.empty_like(src)


def copy3d_case(shape, block):
    name = f"3-D descriptors copy {shape} block {block}"

    def setup():
        src, dst = source_and_destination(shape, torch.float16)
        descs = [TensorDescriptor.from_tensor(t, list(block)) for t in (src, dst)]

        def launch(module):
            module.copy3d_kernel[(shape[0] // block[0], )](*descs, B=block[0])
            return dst.float()

        return launch, src.float() * 3

    return name, setup


def reduce_case(m, n, bm, bn):
    name = f"descriptor atomic_add {m}x{n} block {bm}x{bn}"

    def setup():
        src, dst = source_and_destination((m, n), torch.float32)
        start = torch.randn((m, n), device="cuda", dtype=torch.float32)
        desc = TensorDescriptor.from_tensor(dst, [bm, bn])

        def launch(module):
            dst.copy_(start)
            module.reduce_kernel[(m // bm, n // bn)](desc, src, n, BM=bm, BN=bn)
            return dst.clone()

        return launch, start + src

    return name, setup


def device_copy_case(m, n, bm, bn):
    name = f"device descriptors copy {m}x{n} block {bm}x{bn}"

    def setup():
        src, dst = source_and_destination((m, n), torch.float16)
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))

        def launch(module):
            module.device_copy_kernel[(m // bm, n // bn)](src, dst, m, n, BM=bm, BN=bn)
            return dst.float()

        return launch, src.float() * 2 + 1

    return name, setup


CASES = [
    (attention_case(64, 128, 64, 4, 3, False), True),
    (attention_case(64, 64, 64, 4, 2, True), True),
    (attention_case(128, 128, 64, 8, 3, False), True),
    (attention_case(128, 128, 128, 8, 2, True), True),
    (attention_case(128, 64, 128, 4, 3, False), True),
    (gemm_case(8192, 128, 256, 64, 8, 3), True),
    (gemm_case(8192, 128, 128, 64, 4, 4), True),
    (persistent_gemm_case(8192, 128, 256, 64, 8, 3, True), True),
    (persistent_gemm_case(8192, 128, 128, 64, 8, 4, False), True),
    (device_copy_case(512, 512, 64, 128), False),
    (reduce_case(512, 512, 64, 64), False),
    (copy3d_case((64, 16, 128), (2, 16, 128)), False),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    failed = 0
    for (name, setup), timed in CASES:
        if args.only not in name:
            continue
        launch, ref = setup()
        kernels, errors, outputs = {}, {}, {}
        for compiler in ("triton", "ours"):
            triton.knobs.cache.dir = tempfile.mkdtemp()
            triton_rs.enable("strict") if compiler == "ours" else triton_rs.disable()
            triton_rs.reset_stats()
            module = fresh_module()
            out = launch(module).clone()
            torch.cuda.synchronize()
            if (compiler == "ours") != (triton_rs.stats()["compiled"] > 0):
                raise RuntimeError(f"{name}: not compiled by {compiler}")
            kernels[compiler] = module
            outputs[compiler] = out
            errors[compiler] = float((out - ref).abs().max() / ref.abs().max().clamp(min=1e-6))
        triton_rs.disable()
        ok = errors["ours"] <= max(2 * errors["triton"], 1e-3)
        failed += not ok
        same = bool(torch.equal(outputs["ours"], outputs["triton"]))
        print(f"TMA {name} {'PASS' if ok else 'FAIL'} ours={errors['ours']:.2e} triton={errors['triton']:.2e} "
              f"same={same}", flush=True)
        if not timed:
            continue
        best = {"triton": float("inf"), "ours": float("inf")}
        for _ in range(args.rounds):
            for compiler in ("triton", "ours"):
                ms = triton.testing.do_bench(lambda: launch(kernels[compiler]), warmup=25, rep=200)
                best[compiler] = min(best[compiler], ms)
        print(f"TMATIME {name} {best['ours']:.4f} {best['triton']:.4f} {best['ours'] / best['triton']:.3f}",
              flush=True)
    print(f"TMA total failed {failed}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
