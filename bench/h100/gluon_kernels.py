"""Gluon kernels (Triton 3.6's `triton.experimental.gluon`, whose author
writes the layouts) for `gluon_check.py` (GPU, both compilers) and
`python/tests/test_gluon.py` (CPU, compiled through triton_rs's hook).

Each case is (name, kernel, args, constexprs, options): `args` names the
kernel's runtime arguments and their Triton signature types, in order;
`constexprs` the layouts, shapes and switches; `options` the launch's
`num_warps` and, for thread-block clusters, `num_ctas`. Gluon leaves every layout
choice to its author, so these reach lowerings that Triton's own
make_ttgir never produces: conversions between arbitrary blocked, linear,
MMA and dot-operand layouts, reductions and scans over them, shared memory
with swizzled, NVMMA, padded and shared linear layouts and their
sub-slices, wgmma and mma.sync from shared or register operands (shared
ones swizzled or in unswizzled core matrices), TMA copies with mbarriers,
cp.async, and explicit warp specialization."""

import itertools

import triton.experimental.gluon.language as gl
from triton.experimental import gluon
from triton.experimental.gluon.language.nvidia import hopper
from triton.experimental.gluon.language.nvidia.ampere import async_copy, mma_v2
from triton.experimental.gluon.language.nvidia.hopper import mbarrier, tma


@gluon.jit
def _offsets(M: gl.constexpr, N: gl.constexpr, LAYOUT: gl.constexpr):
    """Row-major offsets of an M x N tile in LAYOUT."""
    rows = gl.arange(0, M, layout=gl.SliceLayout(1, LAYOUT))
    cols = gl.arange(0, N, layout=gl.SliceLayout(0, LAYOUT))
    return rows[:, None] * N + cols[None, :]


@gluon.jit
def convert_kernel(x_ptr, y_ptr, M: gl.constexpr, N: gl.constexpr, SRC: gl.constexpr, DST: gl.constexpr):
    x = gl.load(x_ptr + _offsets(M, N, SRC))
    gl.store(y_ptr + _offsets(M, N, DST), gl.convert_layout(x, DST))


@gluon.jit
def _add(a, b):
    return a + b


@gluon.jit
def reduce_kernel(x_ptr, y_ptr, M: gl.constexpr, N: gl.constexpr, LAYOUT: gl.constexpr, AXIS: gl.constexpr,
                  OP: gl.constexpr):
    x = gl.load(x_ptr + _offsets(M, N, LAYOUT))
    if OP == "sum":
        r = gl.sum(x, axis=AXIS)
    elif OP == "max":
        r = gl.max(x, axis=AXIS)
    else:
        r = gl.reduce(x, AXIS, _add)
    if AXIS == 0:
        gl.store(y_ptr + gl.arange(0, N, layout=gl.SliceLayout(0, LAYOUT)), r)
    else:
        gl.store(y_ptr + gl.arange(0, M, layout=gl.SliceLayout(1, LAYOUT)), r)


@gluon.jit
def scan_kernel(x_ptr, y_ptr, M: gl.constexpr, N: gl.constexpr, LAYOUT: gl.constexpr, AXIS: gl.constexpr,
                REVERSE: gl.constexpr):
    offsets = _offsets(M, N, LAYOUT)
    x = gl.load(x_ptr + offsets)
    gl.store(y_ptr + offsets, gl.associative_scan(x, AXIS, _add, reverse=REVERSE))


@gluon.jit
def shared_kernel(x_ptr, y_ptr, M: gl.constexpr, N: gl.constexpr, REG: gl.constexpr, SHARED: gl.constexpr,
                  OUT: gl.constexpr, TRANSPOSE: gl.constexpr):
    """x through shared memory in SHARED, read back in OUT (transposed
    through a permuted view when TRANSPOSE: y = x^T, N x M)."""
    x = gl.load(x_ptr + _offsets(M, N, REG))
    smem = gl.allocate_shared_memory(x.dtype, [M, N], SHARED, x)
    if TRANSPOSE:
        gl.store(y_ptr + _offsets(N, M, OUT), smem.permute((1, 0)).load(OUT))
    else:
        gl.store(y_ptr + _offsets(M, N, OUT), smem.load(OUT))


@gluon.jit
def shared_store_kernel(x_ptr, y_ptr, M: gl.constexpr, N: gl.constexpr, REG: gl.constexpr, SHARED: gl.constexpr,
                        OUT: gl.constexpr):
    """x stored into an allocated buffer in two halves of rows (subslices),
    then read back whole."""
    smem = gl.allocate_shared_memory(x_ptr.dtype.element_ty, [M, N], SHARED)
    half: gl.constexpr = M // 2
    top = gl.load(x_ptr + _offsets(half, N, REG))
    bottom = gl.load(x_ptr + half * N + _offsets(half, N, REG))
    smem.slice(0, half, dim=0).store(top)
    smem.slice(half, half, dim=0).store(bottom)
    gl.thread_barrier()
    gl.store(y_ptr + _offsets(M, N, OUT), smem.load(OUT))


@gluon.jit
def _tile_offsets(TM: gl.constexpr, TN: gl.constexpr, N: gl.constexpr, LAYOUT: gl.constexpr):
    """Offsets of a TM x TN tile in LAYOUT within rows of N elements."""
    rows = gl.arange(0, TM, layout=gl.SliceLayout(1, LAYOUT))
    cols = gl.arange(0, TN, layout=gl.SliceLayout(0, LAYOUT))
    return rows[:, None] * N + cols[None, :]


@gluon.jit
def shared_tiles_kernel(x_ptr, y_ptr, M: gl.constexpr, N: gl.constexpr, TM: gl.constexpr, TN: gl.constexpr,
                        REG: gl.constexpr, SHARED: gl.constexpr, OUT: gl.constexpr, TRANSPOSE: gl.constexpr):
    """x stored into an allocated buffer tile by tile (a slice of columns
    of a slice of rows), then read back tile by tile into y (each tile
    through its transposed view, into x's transpose, if TRANSPOSE). Tiles
    narrower than the swizzle pattern start inside it."""
    smem = gl.allocate_shared_memory(x_ptr.dtype.element_ty, [M, N], SHARED)
    for i in gl.static_range(M // TM):
        for j in gl.static_range(N // TN):
            tile = smem.slice(i * TM, TM, dim=0).slice(j * TN, TN, dim=1)
            tile.store(gl.load(x_ptr + i * TM * N + j * TN + _tile_offsets(TM, TN, N, REG)))
    gl.thread_barrier()
    for i in gl.static_range(M // TM):
        for j in gl.static_range(N // TN):
            tile = smem.slice(i * TM, TM, dim=0).slice(j * TN, TN, dim=1)
            if TRANSPOSE:
                gl.store(y_ptr + j * TN * M + i * TM + _tile_offsets(TN, TM, M, OUT), tile.permute([1, 0]).load(OUT))
            else:
                gl.store(y_ptr + i * TM * N + j * TN + _tile_offsets(TM, TN, N, OUT), tile.load(OUT))


@gluon.jit
def wgmma_kernel(a_ptr, b_ptr, c_ptr, M: gl.constexpr, N: gl.constexpr, K: gl.constexpr, LOAD: gl.constexpr,
                 A_SHARED: gl.constexpr, B_SHARED: gl.constexpr, ACC: gl.constexpr, A_IN_REGISTERS: gl.constexpr):
    """C = A @ B by one wgmma, B (and A unless A_IN_REGISTERS) from shared
    memory; fp32 accumulator in the NVMMA layout ACC."""
    a = gl.load(a_ptr + _offsets(M, K, LOAD))
    b = gl.load(b_ptr + _offsets(K, N, LOAD))
    b_smem = gl.allocate_shared_memory(b.dtype, [K, N], B_SHARED, b)
    acc = gl.zeros([M, N], gl.float32, ACC)
    if A_IN_REGISTERS:
        a_reg = gl.convert_layout(a, gl.DotOperandLayout(0, ACC, 32 // a.dtype.primitive_bitwidth))
        hopper.fence_async_shared()
        acc = hopper.warpgroup_mma(a_reg, b_smem, acc)
    else:
        a_smem = gl.allocate_shared_memory(a.dtype, [M, K], A_SHARED, a)
        hopper.fence_async_shared()
        acc = hopper.warpgroup_mma(a_smem, b_smem, acc, is_async=True)
        acc = hopper.warpgroup_mma_wait(0, deps=[acc])
    gl.store(c_ptr + _offsets(M, N, ACC), acc)


@gluon.jit
def wgmma_cluster_kernel(a_ptr, b_ptr, c_ptr, M: gl.constexpr, N: gl.constexpr, K: gl.constexpr,
                         LOAD_A: gl.constexpr, LOAD_B: gl.constexpr, A_SHARED: gl.constexpr, B_SHARED: gl.constexpr,
                         ACC: gl.constexpr):
    """C = A @ B by one wgmma per CTA of a cluster that splits C: each CTA
    loads its rows of A and its columns of B (their own CGA layouts)."""
    a = gl.load(a_ptr + _offsets(M, K, LOAD_A))
    b = gl.load(b_ptr + _offsets(K, N, LOAD_B))
    a_smem = gl.allocate_shared_memory(a.dtype, [M, K], A_SHARED, a)
    b_smem = gl.allocate_shared_memory(b.dtype, [K, N], B_SHARED, b)
    hopper.fence_async_shared()
    acc = hopper.warpgroup_mma(a_smem, b_smem, gl.zeros([M, N], gl.float32, ACC))
    gl.store(c_ptr + _offsets(M, N, ACC), acc)


@gluon.jit
def mma_v2_kernel(a_ptr, b_ptr, c_ptr, M: gl.constexpr, N: gl.constexpr, K: gl.constexpr, LOAD: gl.constexpr,
                  ACC: gl.constexpr, K_WIDTH: gl.constexpr):
    """C = A @ B by mma.sync, operands converted to dot-operand layouts."""
    a = gl.load(a_ptr + _offsets(M, K, LOAD))
    b = gl.load(b_ptr + _offsets(K, N, LOAD))
    a = gl.convert_layout(a, gl.DotOperandLayout(0, ACC, K_WIDTH))
    b = gl.convert_layout(b, gl.DotOperandLayout(1, ACC, K_WIDTH))
    acc = mma_v2(a, b, gl.zeros([M, N], gl.float32, ACC))
    gl.store(c_ptr + _offsets(M, N, ACC), acc)


@gluon.jit
def cp_async_kernel(x_ptr, y_ptr, M: gl.constexpr, N: gl.constexpr, LOAD: gl.constexpr, SHARED: gl.constexpr,
                    OUT: gl.constexpr):
    """x copied to shared memory by cp.async (masked: rows past M // 2 + 1
    read as zero), waited for, read back."""
    smem = gl.allocate_shared_memory(x_ptr.dtype.element_ty, [M, N], SHARED)
    offsets = _offsets(M, N, LOAD)
    async_copy.async_copy_global_to_shared(smem, x_ptr + offsets, mask=offsets < (M // 2 + 1) * N)
    async_copy.commit_group()
    async_copy.wait_group(0)
    gl.thread_barrier()
    gl.store(y_ptr + _offsets(M, N, OUT), smem.load(OUT))


@gluon.jit
def cp_async_tiles_kernel(x_ptr, y_ptr, M: gl.constexpr, N: gl.constexpr, TM: gl.constexpr, TN: gl.constexpr,
                          LOAD: gl.constexpr, SHARED: gl.constexpr, OUT: gl.constexpr):
    """x copied to shared memory tile by tile by cp.async (a slice of
    columns of a slice of rows; tiles narrower than the swizzle pattern
    start inside it), waited for, read back whole."""
    smem = gl.allocate_shared_memory(x_ptr.dtype.element_ty, [M, N], SHARED)
    for i in gl.static_range(M // TM):
        for j in gl.static_range(N // TN):
            tile = smem.slice(i * TM, TM, dim=0).slice(j * TN, TN, dim=1)
            async_copy.async_copy_global_to_shared(tile, x_ptr + i * TM * N + j * TN + _tile_offsets(TM, TN, N, LOAD))
    async_copy.commit_group()
    async_copy.wait_group(0)
    gl.thread_barrier()
    gl.store(y_ptr + _offsets(M, N, OUT), smem.load(OUT))


@gluon.jit
def tma_kernel(in_desc, out_desc, OUT: gl.constexpr):
    """The block at (1, 1) of `in_desc` by TMA (mbarrier-tracked), doubled
    in registers, stored to (0, 0) of `out_desc` by TMA."""
    BM: gl.constexpr = in_desc.block_type.shape[0]
    BN: gl.constexpr = in_desc.block_type.shape[1]
    smem = gl.allocate_shared_memory(in_desc.dtype, [BM, BN], in_desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    mbarrier.expect(bar, in_desc.block_type.nbytes)
    tma.async_copy_global_to_shared(in_desc, [BM, BN], bar, smem)
    mbarrier.wait(bar, 0)
    mbarrier.invalidate(bar)
    x = smem.load(OUT)
    smem.store(x + x)
    hopper.fence_async_shared()
    tma.async_copy_shared_to_global(out_desc, [0, 0], smem)
    tma.store_wait(0)


WS_M = gl.constexpr(64)
WS_N = gl.constexpr(64)


@gluon.jit
def _ws_default(x_ptr, smem, bar):
    mbarrier.wait(bar, 0)
    # Results go back as a tuple (Triton 3.6 flattens them as one).
    return (smem.load(gl.BlockedLayout([1, 4], [4, 8], [gl.num_warps(), 1], [1, 0])), )


@gluon.jit
def _ws_worker(x_ptr, smem, bar):
    # The partition's own warps, as gl.num_warps() counts them here.
    layout: gl.constexpr = gl.BlockedLayout([1, 4], [4, 8], [gl.num_warps(), 1], [1, 0])
    smem.store(gl.load(x_ptr + _offsets(WS_M, WS_N, layout)) * 3)
    mbarrier.arrive(bar, count=1)


@gluon.jit
def warp_specialize_kernel(x_ptr, y_ptr, WORKER_WARPS: gl.constexpr):
    """A worker partition (WORKER_WARPS warps) loads x (64 x 64), triples
    it into shared memory and arrives on an mbarrier; the default partition
    waits, reads it back and returns it; the kernel stores it."""
    smem = gl.allocate_shared_memory(x_ptr.dtype.element_ty, [WS_M, WS_N], gl.SwizzledSharedLayout(1, 1, 1, [1, 0]))
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    y, = gl.warp_specialize([
        (_ws_default, (x_ptr, smem, bar)),
        (_ws_worker, (x_ptr, smem, bar)),
    ], [WORKER_WARPS], [24])
    mbarrier.invalidate(bar)
    gl.store(y_ptr + _offsets(WS_M, WS_N, gl.BlockedLayout([1, 4], [4, 8], [gl.num_warps(), 1], [1, 0])), y)


def _blocked(spt, tpw, wpc, order):
    return gl.BlockedLayout(spt, tpw, wpc, order)


# Distributed layouts of a 64 x 64 tile over 4 warps.
LAYOUTS_4 = {
    "rows": _blocked([1, 4], [4, 8], [4, 1], [1, 0]),
    "cols": _blocked([4, 1], [8, 4], [1, 4], [0, 1]),
    "wide": _blocked([1, 8], [2, 16], [2, 2], [1, 0]),
    "single": _blocked([1, 1], [1, 32], [4, 1], [1, 0]),
    "tall": _blocked([2, 2], [16, 2], [1, 4], [0, 1]),
    "bcast": _blocked([1, 1], [32, 1], [1, 4], [0, 1]),
    # Registers, lanes and warps in an order no blocked layout has.
    "linear": gl.DistributedLinearLayout(
        reg_bases=[[0, 1], [32, 0], [0, 16], [1, 0], [0, 32]],
        lane_bases=[[2, 0], [0, 2], [4, 0], [0, 4], [8, 0]],
        warp_bases=[[0, 8], [16, 0]],
        block_bases=[],
        shape=[64, 64],
    ),
    "mma2": gl.NVMMADistributedLayout([2, 0], [2, 2], [16, 8]),
    "mma3": gl.NVMMADistributedLayout([3, 0], [4, 1], [16, 32, 16]),
}

TYPES = ("fp32", "fp16", "i8", "i64")


def _core_matrices(rows, cols, bits, transposed=False):
    """A shared linear layout of wgmma's unswizzled core matrices over a rows x cols buffer: 16-byte rows
    of the contiguous dimension (the columns, or the rows if transposed), all the rows of one 16-byte
    column, then the next column."""
    if transposed:
        inner = _core_matrices(cols, rows, bits)
        return gl.SharedLinearLayout([[b[1], b[0]] for b in inner.offset_bases])
    chunk = 128 // bits
    log2 = lambda x: x.bit_length() - 1  # noqa: E731
    bases = [[0, 1 << i] for i in range(log2(chunk))]
    bases += [[1 << i, 0] for i in range(log2(rows))]
    bases += [[0, chunk << i] for i in range(log2(cols // chunk))]
    return gl.SharedLinearLayout(bases)


def cases():
    """Every case, in a fixed order."""
    out = []
    ptrs = lambda t: {"x_ptr": f"*{t}", "y_ptr": f"*{t}"}  # noqa: E731
    names = list(LAYOUTS_4)
    for t in TYPES:
        for i, src in enumerate(names):
            for dst in names[i + 1:] + names[:i]:
                if t != "fp32" and (src, dst) not in (("rows", "cols"), ("linear", "mma3"), ("mma2", "wide"),
                                                      ("mma3", "linear"), ("cols", "mma2"), ("bcast", "single")):
                    continue
                out.append((f"convert {t} {src}->{dst}", convert_kernel, ptrs(t),
                            dict(M=64, N=64, SRC=LAYOUTS_4[src], DST=LAYOUTS_4[dst]), 4))
    for t in ("fp32", "i32", "fp16"):
        for name in names:
            for axis in (0, 1):
                for op in ("sum", "max", "combine"):
                    if t != "fp32" and op == "combine":
                        continue
                    out.append((f"reduce {t} {name} axis{axis} {op}", reduce_kernel, ptrs(t),
                                dict(M=64, N=64, LAYOUT=LAYOUTS_4[name], AXIS=axis, OP=op), 4))
    for t in ("fp32", "i32"):
        for name in ("rows", "cols", "wide", "linear", "mma2", "mma3"):
            for axis in (0, 1):
                for reverse in (False, True):
                    out.append((f"scan {t} {name} axis{axis}{' reverse' if reverse else ''}", scan_kernel, ptrs(t),
                                dict(M=64, N=64, LAYOUT=LAYOUTS_4[name], AXIS=axis, REVERSE=reverse), 4))
    shared = {
        "plain": gl.SwizzledSharedLayout(1, 1, 1, [1, 0]),
        "swizzled": gl.SwizzledSharedLayout(4, 2, 4, [1, 0]),
        "colmajor": gl.SwizzledSharedLayout(8, 1, 8, [0, 1]),
        "nvmma128": gl.NVMMASharedLayout(128, 16),
        "nvmma64": gl.NVMMASharedLayout(64, 16),
        "nvmma32t": gl.NVMMASharedLayout(32, 16, transposed=True),
        "padded": gl.PaddedSharedLayout.with_identity_for([[64, 4]], [64, 64], [1, 0]),
        "padded2": gl.PaddedSharedLayout.with_identity_for([[16, 2], [128, 8]], [64, 64], [0, 1]),
        "core": _core_matrices(64, 64, 16),
    }
    for t in ("fp16", "fp32", "i8"):
        for sname, slayout in shared.items():
            if (sname.startswith("nvmma") or sname == "core") and t != "fp16":
                continue
            for reg, dst in (("rows", "cols"), ("wide", "mma3"), ("linear", "rows"), ("mma2", "single")):
                for transpose in (False, True):
                    out.append((f"shared {t} {sname} {reg}->{dst}{' T' if transpose else ''}", shared_kernel, ptrs(t),
                                dict(M=64, N=64, REG=LAYOUTS_4[reg], SHARED=slayout, OUT=LAYOUTS_4[dst],
                                     TRANSPOSE=transpose), 4))
            out.append((f"shared-halves {t} {sname}", shared_store_kernel, ptrs(t),
                        dict(M=64, N=64, REG=LAYOUTS_4["wide"], SHARED=slayout, OUT=LAYOUTS_4["rows"]), 4))
    # Tiles inside swizzle patterns 64 elements wide (8 vectors of 8), and
    # of whole patterns.
    for t in ("fp16", "i8"):
        for sname, slayout in (("rows", gl.SwizzledSharedLayout(8, 1, 8, [1, 0])),
                               ("cols", gl.SwizzledSharedLayout(8, 1, 8, [0, 1]))):
            for tm, tn in ((64, 32), (32, 64), (16, 16), (64, 64)):
                for transpose in (False, True):
                    out.append((f"shared-tiles {t} {sname} {tm}x{tn}{' T' if transpose else ''}", shared_tiles_kernel,
                                ptrs(t), dict(M=128, N=64, TM=tm, TN=tn, REG=LAYOUTS_4["wide"], SHARED=slayout,
                                              OUT=LAYOUTS_4["rows"], TRANSPOSE=transpose), 4))
    for sname in ("plain", "swizzled", "nvmma128"):
        out.append((f"cp.async fp16 {sname}", cp_async_kernel, ptrs("fp16"),
                    dict(M=64, N=64, LOAD=LAYOUTS_4["wide"], SHARED=shared[sname], OUT=LAYOUTS_4["rows"]), 4))
    for t in ("fp16", "fp32"):
        for tm, tn in ((64, 32), (32, 64), (16, 16)):
            out.append((f"cp.async-tiles {t} {tm}x{tn}", cp_async_tiles_kernel, ptrs(t),
                        dict(M=128, N=64, TM=tm, TN=tn, LOAD=LAYOUTS_4["wide"],
                             SHARED=gl.SwizzledSharedLayout(4 if t == "fp32" else 8, 1, 8, [1, 0]),
                             OUT=LAYOUTS_4["rows"]), 4))
    gemm = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32"}
    for n in (64, 128):
        for a_in_registers in (False, True):
            for swizzle in (128, 64, 32):
                acc = gl.NVMMADistributedLayout([3, 0], [4, 1], [16, n, 16])
                out.append((f"wgmma 64x{n}x64 swizzle{swizzle}{' A-in-registers' if a_in_registers else ''}",
                            wgmma_kernel, gemm,
                            dict(M=64, N=n, K=64, LOAD=LAYOUTS_4["wide"], A_SHARED=gl.NVMMASharedLayout(swizzle, 16),
                                 B_SHARED=gl.NVMMASharedLayout(swizzle, 16), ACC=acc, A_IN_REGISTERS=a_in_registers),
                            4))
    # Unswizzled operands in core matrices: A K-major or M-major, B K-major, or N-major at N = 32 (wider
    # N-major tiles meet a ptxas bug Gluon's test_mma_shared_inputs skips).
    for a_major, b_major, n in (("K", "K", 64), ("M", "K", 128), ("K", "N", 32), ("nvmma128", "K", 64)):
        a_shared = (gl.NVMMASharedLayout(128, 16) if a_major == "nvmma128" else
                    _core_matrices(64, 64, 16, transposed=a_major == "M"))
        acc = gl.NVMMADistributedLayout([3, 0], [4, 1], [16, n, 16])
        out.append((f"wgmma 64x{n}x64 core matrices A {a_major} B {b_major}", wgmma_kernel, gemm,
                    dict(M=64, N=n, K=64, LOAD=LAYOUTS_4["wide"], A_SHARED=a_shared,
                         B_SHARED=_core_matrices(64, n, 16, transposed=b_major == "K"), ACC=acc,
                         A_IN_REGISTERS=False), 4))
    for warps in ([2, 2], [4, 1], [1, 4]):
        acc = gl.NVMMADistributedLayout([2, 0], warps, [16, 8])
        for k_width in (2, 4, 8):
            out.append((f"mma_v2 fp16 64x64x32 warps{warps} kWidth{k_width}", mma_v2_kernel, gemm,
                        dict(M=64, N=64, K=32, LOAD=LAYOUTS_4["wide"], ACC=acc, K_WIDTH=k_width), 4))
        # tf32: one element a register, kWidth 1 to 8.
        tf32 = {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32"}
        for k_width in (1, 2, 8):
            out.append((f"mma_v2 tf32 64x64x32 warps{warps} kWidth{k_width}", mma_v2_kernel, tf32,
                        dict(M=64, N=64, K=32, LOAD=LAYOUTS_4["wide"], ACC=acc, K_WIDTH=k_width), 4))
    for worker in (1, 2, 4):
        out.append((f"warp_specialize {worker}-warp worker", warp_specialize_kernel, ptrs("fp32"),
                    dict(WORKER_WARPS=worker), 4))
    out = [(name, kernel, args, constexprs, {"num_warps": warps}) for name, kernel, args, constexprs, warps in out]
    return out + cluster_cases()


def cluster_cases():
    """Kernels of thread-block clusters whose CTAs split the tensors (CGA
    layouts): conversions, shared memory, reductions and scans within each
    CTA, and wgmma with each CTA's rows of A and columns of B."""
    out = []
    ptrs = {"x_ptr": "*fp16", "y_ptr": "*fp16"}
    rows2 = [[1, 0]]  # two CTAs, each 32 of the 64 rows
    split = lambda spt, tpw, wpc, order, cga: gl.BlockedLayout(spt, tpw, wpc, order, cga_layout=cga)  # noqa: E731
    wide = split([1, 8], [2, 16], [2, 2], [1, 0], rows2)
    cols = split([4, 1], [8, 4], [1, 4], [0, 1], rows2)
    out.append(("cluster2 convert fp16 wide->cols", convert_kernel, ptrs, dict(M=64, N=64, SRC=wide, DST=cols),
                {"num_warps": 4, "num_ctas": 2}))
    for sname, slayout in (("swizzled", gl.SwizzledSharedLayout(8, 1, 8, [1, 0], cga_layout=rows2)),
                           ("nvmma128", gl.NVMMASharedLayout(128, 16, cga_layout=rows2))):
        out.append((f"cluster2 shared fp16 {sname} wide->cols", shared_kernel, ptrs,
                    dict(M=64, N=64, REG=wide, SHARED=slayout, OUT=cols, TRANSPOSE=False),
                    {"num_warps": 4, "num_ctas": 2}))
    # Reductions along the columns, which the CTAs do not split ("cols":
    # across warps, through scratch).
    for (lname, layout), op in itertools.product((("wide", wide), ("cols", cols)), ("sum", "max")):
        out.append((f"cluster2 reduce fp32 {lname} axis1 {op}", reduce_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32"},
                    dict(M=64, N=64, LAYOUT=layout, AXIS=1, OP=op), {"num_warps": 4, "num_ctas": 2}))
    for (lname, layout), reverse in itertools.product((("wide", wide), ("cols", cols)), (False, True)):
        out.append((f"cluster2 scan fp32 {lname} axis1{' reverse' if reverse else ''}", scan_kernel,
                    {"x_ptr": "*fp32", "y_ptr": "*fp32"}, dict(M=64, N=64, LAYOUT=layout, AXIS=1, REVERSE=reverse),
                    {"num_warps": 4, "num_ctas": 2}))
    gemm = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32"}
    # [CTAs along M, CTAs along N]: A split by rows (the same rows for the
    # CTAs along N), B by columns, C both ways.
    for ctas in ([2, 1], [2, 2], [1, 4]):
        from triton._C.libtriton.gluon_ir import make_cga_layout
        cga_a = make_cga_layout(ctas, [ctas[0], 1], [1, 0])
        cga_b = make_cga_layout(ctas, [1, ctas[1]], [1, 0])
        cga_c = make_cga_layout(ctas, ctas, [1, 0])
        M, N, K = 64 * ctas[0], 64 * ctas[1], 64
        out.append((f"cluster{ctas[0] * ctas[1]} wgmma {M}x{N}x{K} ctas{ctas}", wgmma_cluster_kernel, gemm,
                    dict(M=M, N=N, K=K, LOAD_A=split([1, 8], [4, 8], [4, 1], [1, 0], cga_a),
                         LOAD_B=split([1, 8], [4, 8], [4, 1], [1, 0], cga_b),
                         A_SHARED=gl.NVMMASharedLayout(128, 16, cga_layout=cga_a),
                         B_SHARED=gl.NVMMASharedLayout(128, 16, cga_layout=cga_b),
                         ACC=gl.NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16], cga_layout=cga_c)),
                    {"num_warps": 4, "num_ctas": ctas[0] * ctas[1]}))
    return out
