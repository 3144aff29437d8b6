"""The in-process compile API: stages, metadata, options and errors."""

import pathlib
import re
import threading

import pytest

import triton_rs
from conftest import NON_DOT, REPO, corpus_options

EXAMPLE = REPO / "examples" / "vector_add.ttir"


def test_compiles_the_bundled_example_to_ptx():
    kernel = triton_rs.compile(EXAMPLE)
    assert kernel.ttir.startswith("module") or "tt.func" in kernel.ttir
    assert '"ttg.num-warps" = 4' in kernel.ttgir
    assert "llvm.nvvm" in kernel.llir or "define ptx_kernel" in kernel.llir
    assert ".visible .entry add_kernel(" in kernel.ptx
    assert kernel.metadata["name"] == "add_kernel"
    assert kernel.metadata["num_warps"] == 4
    assert kernel.metadata["shared"] == 0
    assert [arg["type"] for arg in kernel.metadata["args"]] == ["*f32", "*f32", "*f32", "i32"]
    assert set(kernel.asm) == {"ttir", "ttgir", "llir", "ptx"}
    assert {"parse", "make-ttir", "make-ttgir", "make-llir", "ptx"} <= set(kernel.timings)


def test_stops_after_the_stage_asked_for():
    text = EXAMPLE.read_text()
    ttgir = triton_rs.compile(text, stage="ttgir", num_warps=8)
    assert '"ttg.num-warps" = 8' in ttgir.ttgir
    assert ttgir.llir is None and ttgir.ptx is None and ttgir.metadata is None
    # TTGIR in skips the first two stages and keeps its warps.
    from_ttgir = triton_rs.compile(ttgir.ttgir, stage="llir")
    assert from_ttgir.ttir is None and from_ttgir.llir is not None


def test_options_reach_the_code():
    text = EXAMPLE.read_text()
    plain = triton_rs.compile(text, line_info=False)
    assert ".loc" not in plain.ptx
    assert ".loc" in triton_rs.compile(text).ptx
    ampere = triton_rs.compile(text, arch="sm_80")
    assert ".target sm_80" in ampere.ptx and ampere.metadata["target"] == "cuda:80"
    # Volta and Turing, as Triton's backend still accepts them (no pipelining).
    volta = triton_rs.compile(text, arch="sm70")
    assert ".target sm_70" in volta.ptx and volta.metadata["target"] == "cuda:70"


@pytest.mark.parametrize("arch, capability", [(90, 90), ("90", 90), ("sm90", 90), ("sm_90a", 90),
                                              ("cuda:80", 80), ("sm_89", 89), ("sm70", 70)])
def test_arch_spellings(arch, capability):
    assert triton_rs.parse_arch(arch) == capability


@pytest.mark.parametrize("arch", ["sm60", "gfx942", "", "sm_9x"])
def test_unknown_or_old_arch_is_a_value_error(arch):
    with pytest.raises(ValueError):
        triton_rs.parse_arch(arch)


def test_syntax_errors_raise_with_the_location():
    bad = "module {\n  tt.func @f() {\n    %x = arith.addi %y, %y : i32\n  }\n}\n"
    with pytest.raises(triton_rs.CompileError) as info:
        triton_rs.compile(bad, name="bad.ttir")
    assert "bad.ttir:3:21: error: use of undeclared SSA value" in str(info.value)
    assert info.value.stage is None


def test_stage_failures_name_the_stage():
    with pytest.raises(triton_rs.CompileError) as info:
        triton_rs.compile(EXAMPLE.read_text(), num_warps=3)
    assert info.value.stage == "ttgir"
    assert "power of two" in str(info.value)


def test_bad_arguments_are_python_errors():
    with pytest.raises(ValueError, match="unknown stage 'cubin'"):
        triton_rs.compile(EXAMPLE.read_text(), stage="cubin")
    with pytest.raises(TypeError):
        triton_rs.compile(EXAMPLE.read_text(), num_warps="four")


def test_a_missing_file_is_an_os_error():
    with pytest.raises(FileNotFoundError):
        triton_rs.compile(pathlib.Path("/nonexistent/kernel.ttir"))


def test_threads_compile_independently():
    text = EXAMPLE.read_text()
    expected = triton_rs.compile(text).ptx
    results, errors = [], []

    def work():
        try:
            for _ in range(3):
                results.append(triton_rs.compile(text).ptx)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert results == [expected] * 12


@pytest.mark.parametrize("name", NON_DOT)
def test_corpus_kernels_compile_as_triton_compiled_them(corpus, name):
    kernel = triton_rs.compile(corpus / name / f"{name}.ttir", **corpus_options(name))
    triton_ptx = (corpus / name / f"{name}.ptx").read_text()
    entry = next(line for line in triton_ptx.splitlines() if line.startswith(".visible .entry"))
    assert entry.split("(")[0] in kernel.ptx
    assert kernel.metadata["name"] == entry.split()[2].split("(")[0]


def test_naive_matmul_compiles_to_tritons_mma_and_async_copies(corpus):
    # The corpus' naive matmul (mma v2, two-stage cp.async ring) all the way
    # to PTX: the same mma.sync and cp.async instructions as Triton's.
    kernel = triton_rs.compile(corpus / "matmul_naive" / "matmul_naive.ttir", **corpus_options("matmul_naive"))
    pattern = r"mma\.sync[.a-z0-9]*|cp\.async\.c[ag]\.shared\.global \[[^]]*\], \[[^]]*\], 0x[0-9a-f]+"

    def instructions(ptx):
        return sorted(re.sub(r"\[[^]]*\]", "[]", i) for i in re.findall(pattern, ptx))

    triton_ptx = (corpus / "matmul_naive" / "matmul_naive.ptx").read_text()
    assert instructions(kernel.ptx) == instructions(triton_ptx)
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in kernel.ptx


def test_wgmma_matmul_compiles_to_tritons_instructions(corpus):
    # The corpus' tiled matmul (wgmma from NVMMA shared memory, a 3-stage
    # cp.async ring) to PTX: the same wgmma shapes and types, cp.async
    # widths, fences and waits as Triton's, as often (the corpus test in
    # Rust compares descriptors and immediates).
    kernel = triton_rs.compile(corpus / "matmul" / "matmul.ttir", **corpus_options("matmul"))
    pattern = (r"wgmma\.[a-z_.0-9]+( [^{;]*)?|fence\.proxy\.async[a-z_.:]*|"
               r"cp\.async\.c[ag]\.shared\.global \[[^]]*\], \[[^]]*\], 0x[0-9a-f]+|cp\.async\.wait_group\s+\d+")

    def instructions(ptx):
        found = (m.group(0) for m in re.finditer(pattern, ptx))
        return sorted(re.sub(r"%[a-z]+\d+", "%", re.sub(r"\[[^]]*\]", "[]", i)) for i in found)

    triton_ptx = (corpus / "matmul" / "matmul.ptx").read_text()
    assert instructions(kernel.ptx) == instructions(triton_ptx)
    assert "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16" in kernel.ptx
    assert kernel.metadata["shared"] == 65536
