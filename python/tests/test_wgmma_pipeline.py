"""The wgmma pipeline stays asynchronous: `ptxas -v` on this project's PTX
for tutorial 06's fp8 attention forward (head dimension 128, 128x64 tiles,
2 stages, 4 warps; `data/attention_fp8_fwd.ttgir` is Triton 3.6's TTGIR of
it, locations dropped) gives no note C7515, "wgmma.mma_async instructions
are serialized due to non wgmma instructions defining accumulator
registers". Before O3's critical-edge blocks were folded back
(`conversion/src/edge_blocks.rs`), the second accumulator's zero start on
the path that skips the loop sat in such a block, `ptxas` serialized every
wgmma, and the kernel took 1.12x Triton's time on the H200. No GPU needed:
Triton's wheel brings `ptxas`."""

import pathlib
import subprocess

import pytest

triton = pytest.importorskip("triton")

import triton_rs  # noqa: E402

DATA = pathlib.Path(__file__).parent / "data" / "attention_fp8_fwd.ttgir"


def test_attention_wgmma_is_not_serialized(tmp_path):
    from triton.backends.nvidia.compiler import get_ptxas

    compiled = triton_rs.compile(DATA.read_text(), arch=90)
    ptx = tmp_path / "attention.ptx"
    ptx.write_text(compiled.ptx)
    result = subprocess.run([get_ptxas(90).path, "-arch=sm_90a", "-v", str(ptx), "-o", str(tmp_path / "a.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "Used" in result.stderr, result.stderr
    assert "C7515" not in result.stderr, result.stderr
    # Both wgmma groups are there: 4 for Q K^T, 4 for P V (A in registers).
    assert compiled.ptx.count("wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2") == 8
    assert compiled.ptx.count("wgmma.mma_async.sync.aligned.m64n128k32.f32.e5m2.e5m2") == 4
