"""The warp-specialized kernels of `ws_check.py` (GPU) and of
`python/tests/test_warp_specialize.py` (CPU), which Triton 3.6 splits into
a producer warp group and two consumer warp groups at 4 warps, and the
switch that makes triton_rs compile Triton's own TTGIR of them."""

import contextlib

import triton
import triton.language as tl
from triton_rs import _hook


@triton.jit
def device_descriptors(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C = A @ B (row-major, fp32 C) over tensor descriptors made in the
    kernel, its K loop marked `warp_specialize=True`."""
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    da = tl.make_tensor_descriptor(a, [M, K], [K, 1], [BM, BK])
    db = tl.make_tensor_descriptor(b, [K, N], [N, 1], [BK, BN])
    acc = tl.zeros((BM, BN), tl.float32)
    for k in tl.range(0, K, BK, warp_specialize=True):
        acc = tl.dot(da.load([pm * BM, k]), db.load([k, pn * BN]), acc)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def persistent_descriptors(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                           SMS: tl.constexpr):
    """C = A @ B (row-major, fp16 C) by a persistent kernel: `SMS` programs
    walk the tiles, the tile loop marked `warp_specialize=True`, each tile's
    K loop inside it and its store through a descriptor."""
    da = tl.make_tensor_descriptor(a, [M, K], [K, 1], [BM, BK])
    db = tl.make_tensor_descriptor(b, [K, N], [N, 1], [BK, BN])
    dc = tl.make_tensor_descriptor(c, [M, N], [N, 1], [BM, BN])
    tiles_n = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * tiles_n
    for tile in tl.range(tl.program_id(0), tiles, SMS, warp_specialize=True):
        pm = tile // tiles_n
        pn = tile % tiles_n
        acc = tl.zeros((BM, BN), tl.float32)
        for k in range(0, K, BK):
            acc = tl.dot(da.load([pm * BM, k]), db.load([k, pn * BN]), acc)
        dc.store([pm * BM, pn * BN], acc.to(tl.float16))


@triton.jit
def attention_forward(q, k, v, o, sm_scale, N_CTX, HEAD_DIM: tl.constexpr, BM: tl.constexpr,
                      BN: tl.constexpr):
    """O = softmax(Q K^T sm_scale) V (fp16, not causal) for `BM` query rows
    of one batch-head (program ids: query block, batch-head), Q, K, V, O
    stored as [batch-heads x N_CTX, HEAD_DIM]; the loop over key blocks
    marked `warp_specialize=True`, with the online softmax of tutorial 06."""
    start_m = tl.program_id(0)
    base = tl.program_id(1) * N_CTX
    rows = tl.num_programs(1) * N_CTX
    dq = tl.make_tensor_descriptor(q, [rows, HEAD_DIM], [HEAD_DIM, 1], [BM, HEAD_DIM])
    dk = tl.make_tensor_descriptor(k, [rows, HEAD_DIM], [HEAD_DIM, 1], [BN, HEAD_DIM])
    dv = tl.make_tensor_descriptor(v, [rows, HEAD_DIM], [HEAD_DIM, 1], [BN, HEAD_DIM])
    do = tl.make_tensor_descriptor(o, [rows, HEAD_DIM], [HEAD_DIM, 1], [BM, HEAD_DIM])
    query = dq.load([base + start_m * BM, 0])
    # The row maxima start at -inf, so the first block's rescale factor
    # clears the sums' starting 1.
    m_i = tl.zeros([BM], tl.float32) - float("inf")
    l_i = tl.zeros([BM], tl.float32) + 1.0
    acc = tl.zeros([BM, HEAD_DIM], tl.float32)
    scale = sm_scale * 1.44269504
    for start_n in tl.range(0, N_CTX, BN, warp_specialize=True):
        scores = tl.dot(query, dk.load([base + start_n, 0]).T)
        m_ij = tl.maximum(m_i, tl.max(scores, 1) * scale)
        p = tl.math.exp2(scores * scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = tl.dot(p.to(tl.float16), dv.load([base + start_n, 0]), acc * alpha[:, None])
        m_i = m_ij
    do.store([base + start_m * BM, 0], (acc / l_i[:, None]).to(tl.float16))


class _Ttgir:
    """Triton's TTGIR text, as the module the hook hands to triton_rs."""

    def __init__(self, text, name):
        self.text, self.name = text, name

    def __str__(self):
        return self.text

    def get_entry_func_name(self):
        return self.name

    def set_attr(self, name, value):
        raise RuntimeError(f"{name} on Triton's TTGIR")


@contextlib.contextmanager
def from_tritons_ttgir():
    """While active, triton_rs's hook (when enabled) compiles Triton's own
    TTGIR of each kernel (which must be warp-specialized) from make_llir on,
    instead of building the TTGIR from the TTIR."""
    ours = _hook._Compilation.ttgir

    def ttgir(self, mod, metadata):
        name = mod.get_entry_func_name()
        text = str(self.triton["ttgir"](mod, metadata))
        if "ttg.warp_specialize" not in text:
            raise RuntimeError(f"{name}: Triton did not warp-specialize it")
        return ours(self, _Ttgir(text, name), metadata)

    _hook._Compilation.ttgir = ttgir
    try:
        yield
    finally:
        _hook._Compilation.ttgir = ours
