"""Every small kernel of `scripts/compile-sweep.py` that Triton 3.6 compiles
for an older target compiles here too (to a cubin: Triton's ptxas checks the
PTX for that target): the casts for sm_80 and sm_89, where fp8 conversions
are emulated or lack sm_90's bf16 arithmetic; the elementwise ops for sm_80;
the memory and control-flow patterns (calls of noinline functions among them)
for sm_80 and sm_90; argmaxes and running maxima of (value, index) pairs
of mixed widths for sm_90; and the matmul
loops at two tile shapes for sm_80 (mma.sync, fp8 through f16), sm_89 (fp8
mma.sync) and sm_90 (wgmma, 16 warps on a 64-row tile among them), with
their results scanned, sorted, reduced, reshaped and gathered. Their
TTGIR is Triton's, op for op. No GPU needed."""

import pytest

triton = pytest.importorskip("triton")

from conftest import load_script  # noqa: E402

SWEEP = load_script("compile-sweep.py")


@pytest.mark.parametrize("arch,only", [(80, "casts"), (89, "casts"), (80, "unary"), (90, "tuples"),
                                       (80, "memory"), (90, "memory"), (80, "dots"), (89, "dots"), (90, "dots")])
def test_what_triton_compiles_compiles_here(arch, only):
    failed = []
    for name, kernel, signature, constants, options in SWEEP.cases(only):
        if only == "unary" and not name.endswith(" 128 w4"):
            continue
        if only == "tuples" and not (name.endswith(" 1x64 w4") or name.endswith(" 8x256 w8")):
            continue
        if only == "dots" and not (" 32x32x32 " in name or " 64x64x32 " in name or
                                   (name.startswith("dot epilogue") and " fp16 64x64 " in name)):
            continue
        ttgirs = []
        if SWEEP.compile_with("triton", kernel, signature, constants, options, arch, ttgirs) != "ok":
            continue
        ours = SWEEP.compile_with("ours", kernel, signature, constants, options, arch, ttgirs)
        if ours != "ok":
            failed.append(f"{name}: {ours}")
        elif SWEEP.printed(ttgirs[0]) != SWEEP.printed(ttgirs[1]):
            failed.append(f"{name}: the TTGIR is not Triton's")
    SWEEP.triton_rs.disable()
    assert not failed, "\n".join(failed)
