"""Warp-specialized kernels (no GPU needed).

At 4 warps Triton 3.6 splits a `warp_specialize=True` GEMM loop over tensor
descriptors into a producer warp group and two consumer warp groups. This
project's make_ttgir makes the same split (nvgpu-warp-specialization), and
its make_llir also takes Triton's TTGIR of it: convert-warp-specialize-to-llvm
dispatches the partitions to their warps. Through the hook (Triton's stages
up to TTIR, then this project's, then Triton's ptxas to a cubin), the kernel
gets Triton's warp count and the same register hand-offs (`setmaxnreg`) in
the same order. `bench/h100/ws_check.py` runs them."""

import re

import pytest

triton = pytest.importorskip("triton")

import triton_rs  # noqa: E402
from conftest import load_script  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

KERNELS = load_script("ws_kernels.py", folder="bench/h100")


def compile_with(mode, dtype, bn, bk, stages, divisible=False):
    signature = {"a": "*" + dtype, "b": "*" + dtype, "c": "*fp32", "M": "i32", "N": "i32", "K": "i32",
                 "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
    constants = {"BM": 128, "BN": bn, "BK": bk}
    if mode == "ours":
        triton_rs.enable("strict")
    else:
        triton_rs.disable()
    try:
        # `divisible`: every argument a multiple of 16, as Triton's launcher
        # specialises pointers and sizes it finds so.
        attrs = {(i,): [["tt.divisibility", 16]] for i in range(6)} if divisible else None
        source = ASTSource(triton.jit(KERNELS.device_descriptors.fn), signature, constants, attrs=attrs)
        return triton.compile(source,
                              target=GPUTarget("cuda", 90, 32), options={"num_warps": 4, "num_stages": stages})
    finally:
        triton_rs.disable()


def registers(ptx):
    """The `setmaxnreg` instructions of `ptx`, in order."""
    return re.findall(r"setmaxnreg\.\w+\.sync\.aligned\.u32\s+\d+", ptx)


def compile_both(kernel, signature, constants, stages):
    """(ours, Triton's) compilation of the ws_kernels.py `kernel` for sm_90
    at 4 warps."""
    compiled = {}
    for mode in ("ours", "triton"):
        triton_rs.enable("strict") if mode == "ours" else triton_rs.disable()
        try:
            source = ASTSource(triton.jit(kernel.fn), signature, constants)
            compiled[mode] = triton.compile(source, target=GPUTarget("cuda", 90, 32),
                                            options={"num_warps": 4, "num_stages": stages})
        finally:
            triton_rs.disable()
    return compiled["ours"], compiled["triton"]


@pytest.mark.parametrize("dtype,bn,bk,stages", [("fp16", 128, 64, 3), ("bf16", 64, 64, 2), ("fp16", 256, 64, 2),
                                                ("fp16", 128, 32, 4)])
def test_tritons_warp_specialized_ttgir_compiles_to_a_cubin(dtype, bn, bk, stages):
    theirs = compile_with("triton", dtype, bn, bk, stages)
    assert "ttg.warp_specialize" in theirs.asm["ttgir"]
    with KERNELS.from_tritons_ttgir():
        ours = compile_with("ours", dtype, bn, bk, stages)
    assert ours.metadata.triton_rs
    assert ours.asm["cubin"]
    assert ours.metadata.num_warps == theirs.metadata.num_warps == 12
    assert ours.metadata.shared == theirs.metadata.shared
    assert registers(ours.asm["ptx"]) == registers(theirs.asm["ptx"])
    assert registers(ours.asm["ptx"])


@pytest.mark.parametrize("dtype,bn,bk,stages", [("fp16", 128, 64, 3), ("bf16", 64, 64, 2), ("fp16", 256, 64, 2),
                                                ("fp16", 128, 32, 4)])
def test_our_split_is_tritons_shape(dtype, bn, bk, stages):
    """Our own make_ttgir splits the loop as Triton does: a producer (the
    default warps) and two 4-warp consumers each with half of A's rows, no
    more shared memory than Triton's kernel, the same `setmaxnreg`s."""
    theirs = compile_with("triton", dtype, bn, bk, stages)
    ours = compile_with("ours", dtype, bn, bk, stages)
    ttgir = ours.asm["ttgir"]
    assert ours.metadata.triton_rs and ours.asm["cubin"]
    assert ttgir.count("ttg.warp_specialize(") == 1 and "partition1(" in ttgir
    assert ttgir.count("ttng.async_tma_copy_global_to_local") == 3
    # The consumers' dots stay synchronous (the pipeliner leaves loops of 0
    # stages alone): each frees its buffers right after its dot.
    assert ttgir.count("ttng.warp_group_dot ") == 2 and "isAsync" not in ttgir
    assert ours.metadata.num_warps == theirs.metadata.num_warps == 12
    assert ours.metadata.shared <= theirs.metadata.shared
    assert registers(ours.asm["ptx"]) == registers(theirs.asm["ptx"])


def test_our_split_of_a_persistent_kernel():
    """A persistent kernel's marked tile loop: each region walks the tiles
    with its own copy of it, the ring counter carried from tile to tile, and
    each consumer stores its half of every tile through a descriptor of half
    the rows."""
    signature = {"a": "*fp16", "b": "*fp16", "c": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                 "BM": "constexpr", "BN": "constexpr", "BK": "constexpr", "SMS": "constexpr"}
    constants = {"BM": 128, "BN": 128, "BK": 64, "SMS": 132}
    ours, theirs = compile_both(KERNELS.persistent_descriptors, signature, constants, 3)
    ttgir = ours.asm["ttgir"]
    assert ours.metadata.triton_rs and ours.asm["cubin"]
    assert "partition1(" in ttgir and "isAsync" not in ttgir
    # Per region a tile loop around a K loop: six loops in all.
    assert ttgir.count("scf.for") == 6
    assert ttgir.count("ttng.async_tma_copy_local_to_global") == 2
    assert ours.metadata.num_warps == theirs.metadata.num_warps == 12
    assert registers(ours.asm["ptx"]) == registers(theirs.asm["ptx"])


def test_our_split_of_an_attention_loop():
    """An attention forward's key loop (two dots, the online softmax between
    them): the producer loads each consumer's half of Q once, then K and V
    per iteration; each consumer runs both dots and the softmax on its 64
    rows, freeing K's buffer after the first dot and V's after the second."""
    signature = {"q": "*fp16", "k": "*fp16", "v": "*fp16", "o": "*fp16", "sm_scale": "fp32", "N_CTX": "i32",
                 "HEAD_DIM": "constexpr", "BM": "constexpr", "BN": "constexpr"}
    constants = {"HEAD_DIM": 128, "BM": 128, "BN": 64}
    ours, theirs = compile_both(KERNELS.attention_forward, signature, constants, 2)
    ttgir = ours.asm["ttgir"]
    assert "ttg.warp_specialize" in theirs.asm["ttgir"]
    assert ours.metadata.triton_rs and ours.asm["cubin"]
    assert "partition1(" in ttgir and "isAsync" not in ttgir
    # Q's two halves, K and V.
    assert ttgir.count("ttng.async_tma_copy_global_to_local") == 4
    assert ttgir.count("ttng.warp_group_dot ") == 4
    assert ttgir.count("ttng.arrive_barrier") == 4
    assert ours.metadata.num_warps == theirs.metadata.num_warps == 12
    assert registers(ours.asm["ptx"]) == registers(theirs.asm["ptx"])


def test_partitions_know_their_captures_alignment():
    """The epilogue runs in the consumer partitions, where M, N and C are
    captures: their divisibility reaches the partitions' arguments, so the
    masked stores of C are 16-byte vectors, as Triton's are (scalar stores
    made this kernel 1.04-1.10 of Triton's time)."""
    theirs = compile_with("triton", "fp16", 128, 64, 3, divisible=True)
    with KERNELS.from_tritons_ttgir():
        ours = compile_with("ours", "fp16", 128, 64, 3, divisible=True)
    stores = lambda ptx: re.findall(r"st\.global(?:\.v\d)?\.b32", ptx)
    assert stores(ours.asm["ptx"]) == stores(theirs.asm["ptx"])
    assert "st.global.v4.b32" in stores(ours.asm["ptx"])
