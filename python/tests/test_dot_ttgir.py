"""make_ttgir of tl.dot kernels, loop-free and software-pipelined K loops,
equals Triton 3.6's TTGIR.

Triton compiles each kernel (for GPUTarget("cuda", 90, 32), no GPU needed);
this project compiles Triton's own TTIR to TTGIR in process; both TTGIRs are
printed by this project's printer and compared with SSA names and locations
set aside. `scripts/compare-ttgir.py` runs the wider sweep."""

import pytest

triton = pytest.importorskip("triton")

import triton_rs  # noqa: E402
from conftest import load_script  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

# scripts/compare-ttgir.py, whose kernels this test compiles.
SWEEP = load_script("compare-ttgir.py")
dot_kernel = SWEEP.dot_kernel


def normalised(ttgir):
    """Without locations, printed by this project, then normalised
    (`compare-ttgir.py`'s `printed_by_us`)."""
    return SWEEP.printed_by_us(ttgir)


CASES = [
    # (M, N, K, dtype, warps, transposed B, reduced result, input precision)
    (128, 128, 64, "fp16", 4, False, False, "ieee"),  # wgmma, NVMMA operands
    (128, 128, 64, "bf16", 8, True, False, "ieee"),  # transposed B through memdesc_trans
    (64, 128, 64, "fp32", 4, False, False, "tf32"),  # tf32 wgmma
    (128, 64, 32, "fp8e4nv", 4, False, True, "ieee"),  # fp8, reduced epilogue
    (256, 128, 64, "fp16", 8, False, True, "ieee"),
    (16, 16, 16, "fp16", 4, False, False, "ieee"),  # mma v2
    (16, 16, 16, "bf16", 8, True, False, "ieee"),  # mma v2, B converted before the transpose
    (64, 64, 32, "fp32", 4, False, False, "ieee"),  # FMA
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c)))
def test_dot_ttgir_is_tritons(case):
    m, n, k, dtype, warps, trans_b, reduce, precision = case
    signature = {"a_ptr": "*" + dtype, "b_ptr": "*" + dtype, "c_ptr": "*fp32"}
    constants = {"M": m, "N": n, "K": k, "TRANS_B": trans_b, "REDUCE": reduce, "PRECISION": precision}
    signature.update({name: "constexpr" for name in constants})
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(3)}
    theirs = triton.compile(ASTSource(dot_kernel, signature, constants, attrs=attrs),
                            target=GPUTarget("cuda", 90, 32), options={"num_warps": warps})
    ours = triton_rs.compile(theirs.asm["ttir"], stage="ttgir", num_warps=warps)
    assert normalised(ours.ttgir) == normalised(theirs.asm["ttgir"])


# Names of `scripts/compare-ttgir.py`'s loop sweep: MMA v3 and v2 loops at
# several stage counts, a masked K, a transposed B, int8, fp8, tf32, a
# reduced result, a batched 3-D dot, an attention-style loop (two chained
# dots, the second reading the first's softmax from registers) and a
# persistent GEMM whose tile loop is flattened into its K loop
# (`tt.flatten`, then pipelined as one loop).
LOOP_CASES = [
    "loop 1x128x128x64 fp16 w8 s3 ieee",
    "loop 1x128x128x64 fp16 w8 s1 ieee",
    "loop 1x64x64x32 bf16 w4 s5 ieee",
    "loop 1x128x128x64 fp16 w8 s3 maskK ieee",
    "loop 1x128x128x64 fp16 w4 s3 transB ieee",
    "loop 1x16x16x16 fp32 w4 s3 transB maskK tf32",
    "loop 1x64x64x32 i8 w4 s3 ieee",
    "loop 1x128x64x32 fp8e4nv w8 s3 ieee",
    "loop 1x64x128x32 fp16 w4 s4 reduce ieee",
    "loop 2x32x32x16 fp16 w4 s3 ieee",
    "attention 128x64 bn64 w8",
    "persistent 128x128x64 fp16 w8 s3 flatten",
]


# Older targets: mma.sync and cp.async pipelines (the int8 loop's copies are
# clipped by tritongpu-coalesce-async-copy, which drops their contiguity
# hint as Triton does), fp8 from sm_89.
ARCH_CASES = [
    ("loop 1x64x64x32 i8 w4 s3 ieee", 80),
    ("loop 1x128x128x64 fp16 w8 s3 maskK ieee", 80),
    ("loop 1x64x64x32 bf16 w4 s5 ieee", 86),
    ("loop 1x128x64x32 fp8e4nv w8 s3 ieee", 89),
]


@pytest.mark.parametrize("name,arch", [(name, 90) for name in LOOP_CASES] + ARCH_CASES)
def test_pipelined_dot_loop_ttgir_is_tritons(name, arch):
    config = {c[0]: c for c in SWEEP.loop_configs()}[name]
    _, kernel, signature, constants, options = config
    signature = dict(signature)
    signature.update({c: "constexpr" for c in constants})
    attrs = {(i,): [["tt.divisibility", 16]] for i, a in enumerate(signature) if signature[a].startswith("*")}
    theirs = triton.compile(ASTSource(kernel, signature, constants, attrs=attrs),
                            target=GPUTarget("cuda", arch, 32), options=options)
    ours = triton_rs.compile(theirs.asm["ttir"], stage="ttgir", num_warps=options["num_warps"],
                             num_stages=options["num_stages"], arch=f"sm_{arch}")
    assert normalised(ours.ttgir) == normalised(theirs.asm["ttgir"])
