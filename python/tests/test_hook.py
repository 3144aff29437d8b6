"""Triton 3.6's own frontend compiling through this project (the stage hook).

Needs the `triton` package (3.6.0); compiles for GPUTarget("cuda", 90, 32),
which Triton does without a GPU (ptxas comes with its wheel)."""

import json
import os
import re
import subprocess
import sys

import pytest

triton = pytest.importorskip("triton")
tl = pytest.importorskip("triton.language")

import triton_rs  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

TARGET = GPUTarget("cuda", 90, 32)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def scaled_dot_kernel(a_ptr, scale_ptr, b_ptr, c_ptr):
    # A 64x64x64 dot of mxfp4 (two e2m1 per byte, one scale per 32) by
    # bf16: accelerate-matmul has no decomposition of tt.dot_scaled yet.
    rows = tl.arange(0, 64)
    a = tl.load(a_ptr + rows[:, None] * 32 + tl.arange(0, 32)[None, :])
    scale = tl.load(scale_ptr + rows[:, None] * 2 + tl.arange(0, 2)[None, :])
    b = tl.load(b_ptr + rows[:, None] * 64 + rows[None, :])
    c = tl.dot_scaled(a, scale, "e2m1", b, None, "bf16")
    tl.store(c_ptr + rows[:, None] * 64 + rows[None, :], c)


@triton.jit(noinline=True)
def sum_into(x_ptr, out_ptr):
    tl.store(out_ptr, tl.sum(tl.load(x_ptr + tl.arange(0, 256)), 0))


@triton.jit
def noinline_reduction_kernel(x_ptr, y_ptr, out_ptr):
    y = tl.load(y_ptr + tl.arange(0, 128))
    sum_into(x_ptr, out_ptr)
    tl.store(out_ptr + 1, tl.sum(y, 0))


@triton.jit
def scalar_copy_kernel(ptr, BLOCK: tl.constexpr):
    value = tl.load(ptr, mask=tl.program_id(0) * BLOCK < 512)
    tl.store(ptr, value)


@triton.jit
def descriptor_kernel(in_ptr, out_ptr):
    src = tl.make_tensor_descriptor(base=in_ptr, shape=[16, 16], strides=[16, 1], block_shape=[16, 16])
    dst = tl.make_tensor_descriptor(base=out_ptr, shape=[16, 16], strides=[16, 1], block_shape=[16, 16])
    dst.store([0, 0], src.load([0, 0]) + 1)


@triton.jit
def libdevice_kernel(x_ptr, out_ptr):
    offsets = tl.arange(0, 256)
    x = tl.load(x_ptr + offsets)
    tl.store(out_ptr + offsets, tl.extra.cuda.libdevice.log1p(x) + tl.extra.cuda.libdevice.erf(x))


@triton.jit
def to_e5m2_toward_zero_kernel(x_ptr, y_ptr):
    offsets = tl.arange(0, 128)
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets).to(tl.float8e5, fp_downcast_rounding="rtz"))


@triton.jit
def negative_quotient_kernel(out_ptr):
    offsets = tl.arange(0, 128)
    tl.store(out_ptr + offsets, (offsets - 64) // 32)


ADD = dict(signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
           constexprs={"BLOCK": 1024})
DESCRIPTORS = dict(signature={"in_ptr": "*fp32", "out_ptr": "*fp32"}, constexprs={})
UNARY = dict(signature={"x_ptr": "*fp32", "out_ptr": "*fp32"}, constexprs={})
OUT_ONLY = dict(signature={"out_ptr": "*i32"}, constexprs={})
SCALED_DOT = dict(signature={"a_ptr": "*u8", "scale_ptr": "*u8", "b_ptr": "*bf16", "c_ptr": "*fp32"}, constexprs={})


def compile_with(kernel, spec, options=None):
    return triton.compile(ASTSource(kernel, spec["signature"], spec["constexprs"]), target=TARGET,
                          options=options)


@pytest.fixture
def hook(tmp_path):
    """A fresh Triton cache, the hook off before and after, zeroed counts."""
    previous = triton.knobs.cache.dir
    triton.knobs.cache.dir = str(tmp_path)
    triton_rs.disable()
    triton_rs.reset_stats()
    yield
    triton_rs.disable()
    triton.knobs.cache.dir = previous


def test_strict_mode_compiles_with_this_project(hook):
    triton_rs.enable("strict")
    kernel = compile_with(add_kernel, ADD)
    assert kernel.metadata.triton_rs == triton_rs.__version__
    assert kernel.metadata.name == "add_kernel"
    assert kernel.metadata.shared == 0 and kernel.metadata.tensordesc_meta == []
    assert kernel.asm["cubin"][:4] == b"\x7fELF"
    # The stages shown are this project's: the same TTGIR as compiling
    # Triton's TTIR directly.
    ours = triton_rs.compile(kernel.asm["ttir"], make_ttir=False, stage="ttgir")
    assert kernel.asm["ttgir"] == ours.ttgir
    assert triton_rs.stats()["compiled"] == 1


def test_options_reach_this_compiler(hook):
    triton_rs.enable("strict")
    kernel = compile_with(add_kernel, ADD, {"num_warps": 8, "maxnreg": 64})
    assert '"ttg.num-warps" = 8' in kernel.asm["ttgir"]
    assert ".maxnreg 64" in kernel.asm["ptx"]
    assert kernel.metadata.num_warps == 8
    unfused = compile_with(add_kernel, ADD, {"enable_fp_fusion": False})
    assert unfused.metadata.triton_rs == triton_rs.__version__


def test_device_tensor_descriptors_become_tma_on_hopper(hook):
    # As Triton's: the descriptors are written into global scratch memory
    # (tensormap.replace) and copied with TMA; no descriptor is an argument.
    triton_rs.enable("strict")
    kernel = compile_with(descriptor_kernel, DESCRIPTORS)
    assert kernel.metadata.triton_rs and kernel.metadata.tensordesc_meta == []
    assert "cp.async.bulk.tensor" in kernel.asm["ptx"] and "tensormap.replace" in kernel.asm["ptx"]
    triton_rs.disable()
    theirs = compile_with(descriptor_kernel, DESCRIPTORS)
    assert kernel.metadata.global_scratch_size == theirs.metadata.global_scratch_size
    assert kernel.asm["cubin"][:4] == b"\x7fELF"


@pytest.mark.parametrize("dtype", ["fp32", "bf16"])
def test_device_tensor_descriptors_have_triton_element_types(hook, dtype):
    # The element type written with tensormap.replace is PTX's code (bf16:
    # 10); CUDA's code for bf16 (9) means f64 there.
    spec = dict(signature={"in_ptr": f"*{dtype}", "out_ptr": f"*{dtype}"}, constexprs={})
    triton_rs.enable("strict")
    ours = compile_with(descriptor_kernel, spec).asm["ptx"]
    triton_rs.disable()
    theirs = compile_with(descriptor_kernel, spec).asm["ptx"]
    pattern = re.compile(r"tensormap\.replace\.tile\.elemtype\S* \[[^\]]*\], (0x[0-9a-f]+)")
    assert pattern.findall(ours) and pattern.findall(ours) == pattern.findall(theirs)


@triton.jit
def host_descriptor_kernel(src, dst, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0) * BLOCK_M
    dst.store([row, 0], src.load([row, 0]) * 2)


@pytest.mark.parametrize("block, dtype", [((64, 64), "fp16"), ((128, 128), "fp16"), ((32, 256), "fp16"),
                                          ((64, 64), "bf16")])
def test_host_tensor_descriptors_are_described_as_triton_does(hook, block, dtype):
    # Triton's launcher builds each TMA descriptor argument from
    # tensordesc_meta (the element type numbered as PTX numbers it: bf16 is
    # 10, which the launcher turns into CUDA's 9; CUDA's 9 here would be
    # f64); a block wider than one 128-byte swizzle is moved in several
    # boxes, each warp issuing one of them from the same instruction, as
    # Triton issues them.
    m, n = block
    spec = dict(signature={"src": f"tensordesc<{dtype}[{m}, {n}]>", "dst": f"tensordesc<{dtype}[{m}, {n}]>",
                           "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"}, constexprs={"BLOCK_M": m, "BLOCK_N": n})
    triton_rs.enable("strict")
    ours = compile_with(host_descriptor_kernel, spec)
    triton_rs.disable()
    theirs = compile_with(host_descriptor_kernel, spec)
    assert ours.metadata.triton_rs and not getattr(theirs.metadata, "triton_rs", None)
    assert ours.metadata.tensordesc_meta == theirs.metadata.tensordesc_meta
    assert ours.metadata.shared <= theirs.metadata.shared
    copies = lambda k: re.findall(r"cp\.async\.bulk\.tensor\.\S+", k.asm["ptx"])
    assert copies(ours) == copies(theirs)
    assert ours.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def descriptor_reduce_kernel(dst, src_ptr, BM: tl.constexpr, BN: tl.constexpr):
    offsets = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    dst.atomic_add([tl.program_id(0) * BM, 0], tl.load(src_ptr + offsets))


def test_descriptor_reductions_are_tma_reductions(hook):
    # 64 f32 a row are two 128-byte boxes, reduced with cp.reduce.async.bulk.
    spec = dict(signature={"dst": "tensordesc<fp32[64, 64]>", "src_ptr": "*fp32", "BM": "constexpr",
                           "BN": "constexpr"}, constexprs={"BM": 64, "BN": 64})
    triton_rs.enable("strict")
    ours = compile_with(descriptor_reduce_kernel, spec)
    triton_rs.disable()
    theirs = compile_with(descriptor_reduce_kernel, spec)
    assert ours.metadata.tensordesc_meta == theirs.metadata.tensordesc_meta
    assert "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group" in ours.asm["ptx"]
    assert ours.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def rank_reducing_kernel(out_ptr, a_ptr, M, N, BLOCK_N: tl.constexpr):
    desc = tl.make_tensor_descriptor(a_ptr, shape=[1, M, N], strides=[M * N, N, 1], block_shape=[1, 8, BLOCK_N])
    for i in range(0, M, 8):
        if i % 16 == 0:
            desc = tl.make_tensor_descriptor(a_ptr, shape=[1, M, N], strides=[M * N, N, 1],
                                             block_shape=[1, 8, BLOCK_N])
        block = desc.load([0, i, 0]).reshape(8, BLOCK_N)
        idx = (i + tl.arange(0, 8))[:, None] * N + tl.arange(0, BLOCK_N)[None, :]
        tl.store(out_ptr + idx, block)


@pytest.mark.parametrize("block_n", [16, 64])
def test_rank_reducing_loads_of_loop_carried_descriptors_are_tma_copies(hook, block_n):
    # A 1x8xN box loaded as 8xN through a descriptor the loop carries: the
    # buffer takes the descriptor's layout at rank 2, every copy passes
    # the three coordinates, and the descriptor stays a TMA descriptor
    # (before, the copies lost a coordinate and LLVM crashed on them, and
    # the loop's descriptor did not lower).
    spec = dict(signature={"out_ptr": "*fp32", "a_ptr": "*fp32", "M": "i32", "N": "i32", "BLOCK_N": "constexpr"},
                constexprs={"BLOCK_N": block_n})
    triton_rs.enable("strict")
    ours = compile_with(rank_reducing_kernel, spec)
    triton_rs.disable()
    theirs = compile_with(rank_reducing_kernel, spec)
    copy = re.compile(r"cp\.async\.bulk\.tensor\.3d\.shared::cluster\.global\S* \[%r\d+\], \[%rd\d+, \{%r\d+, %r\d+, %r\d+\}\]")
    assert copy.search(ours.asm["ptx"])
    assert "tensormap.cp_fenceproxy" in ours.asm["ptx"]
    assert ours.metadata.shared == theirs.metadata.shared
    assert ours.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def reshaped_operands_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[2, M // 2, K], strides=[(M // 2) * K, K, 1],
                                       block_shape=[2, BM // 2, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[2, N // 2, K], strides=[(N // 2) * K, K, 1],
                                       block_shape=[2, BN // 2, BK])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([0, 0, k]).reshape(BM, BK)
        b = b_desc.load([0, 0, k]).reshape(BN, BK)
        acc = tl.dot(a, b.T, acc)
    offsets = tl.arange(0, BM)[:, None] * N + tl.arange(0, BN)[None, :]
    tl.store(c_ptr + offsets, acc.to(tl.float16))


def test_operands_reshaped_in_shared_memory_are_pipelined_wgmma_operands(hook):
    # 2x32x64 boxes read as 64x64 operands: the pipeliner rebuilds the
    # reshape on each ring slot, the reshape keeps the buffer's address,
    # and the wgmmas (A in registers, split along K) read B through K
    # slices, as Triton's kernel does (before, the pipeliner refused it).
    spec = dict(signature={"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                           "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
                constexprs={"BM": 64, "BN": 64, "BK": 64})
    triton_rs.enable("strict")
    ours = compile_with(reshaped_operands_kernel, spec)
    triton_rs.disable()
    theirs = compile_with(reshaped_operands_kernel, spec)
    assert "ttg.memdesc_reshape" in ours.asm["ttgir"]
    wgmma = re.compile(r"wgmma\.mma_async\.sync\.aligned\.\S+")
    assert wgmma.findall(ours.asm["ptx"]) and wgmma.findall(ours.asm["ptx"]) == wgmma.findall(theirs.asm["ptx"])
    assert ours.metadata.shared == theirs.metadata.shared
    assert ours.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def cluster_copy_kernel(out_ptr, a_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    desc = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    block = desc.load([tl.program_id(0) * BM, 0])
    offsets = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    tl.atomic_add(out_ptr + offsets, block)


def test_clusters_run_the_kernel_in_their_first_cta(hook):
    # num_ctas=2: Triton splits tensors across the cluster's two CTAs; this
    # project compiles the kernel for one CTA that the cluster's first CTA
    # runs (the other returns at once), with the cluster as the program.
    # The launch Triton's launcher makes from the metadata is the same.
    spec = dict(signature={"out_ptr": "*fp32", "a_ptr": "*fp32", "M": "i32", "N": "i32", "BM": "constexpr",
                           "BN": "constexpr"}, constexprs={"BM": 8, "BN": 128})
    triton_rs.enable("strict")
    ours = compile_with(cluster_copy_kernel, spec, {"num_ctas": 2})
    triton_rs.disable()
    theirs = compile_with(cluster_copy_kernel, spec, {"num_ctas": 2})
    assert ours.metadata.num_ctas == theirs.metadata.num_ctas == 2
    assert ours.metadata.global_scratch_size == theirs.metadata.global_scratch_size
    ptx = ours.asm["ptx"]
    assert ".reqnctapercluster 2" in ptx and "%clusterid.x" in ptx
    assert re.search(r"mov\.u32\s+(%r\d+), %cluster_ctarank;\s+setp\.eq\.b32\s+%p\d+, \1, 0;", ptx)
    assert "cp.async.bulk.tensor.2d" in ptx
    assert ours.asm["cubin"][:4] == b"\x7fELF"


def test_libdevice_calls_are_linked(hook):
    # tt.extern_elementwise becomes calls of libdevice's functions, linked
    # in and inlined: no call is left in the PTX.
    triton_rs.enable("strict")
    kernel = compile_with(libdevice_kernel, UNARY)
    assert kernel.metadata.triton_rs == triton_rs.__version__
    assert "tt.extern_elementwise" in kernel.asm["ttgir"]
    assert "__nv_log1pf" in kernel.asm["llir"] and "__nv_erff" in kernel.asm["llir"]
    assert ".func" not in kernel.asm["ptx"] and "call.uni" not in kernel.asm["ptx"]
    assert kernel.asm["cubin"][:4] == b"\x7fELF"


def test_noinline_function_with_shared_memory(hook):
    # The callee's reduction across warps needs 16 bytes of shared memory,
    # which the call reserves in the kernel's (reused by the kernel's own
    # reduction after it): Triton's size, and Triton's results on a GPU.
    triton_rs.enable("strict")
    signature = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32"}
    kernel = compile_with(noinline_reduction_kernel, dict(signature=signature, constexprs={}))
    assert kernel.metadata.triton_rs == triton_rs.__version__
    assert kernel.metadata.shared == 16
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no GPU: compiled only")
    x = torch.randn(256, device="cuda")
    y = torch.randn(128, device="cuda")
    out = torch.zeros(2, device="cuda")
    noinline_reduction_kernel[(1, )](x, y, out)
    torch.testing.assert_close(out, torch.stack([x.sum(), y.sum()]))


@triton.jit
def gather_bool_kernel(x_ptr, idx_ptr, out_ptr):
    offsets = tl.arange(0, 128)
    mask = tl.load(x_ptr + offsets) > 0
    tl.store(out_ptr + offsets, tl.gather(mask, tl.load(idx_ptr + offsets), 0).to(tl.int32))


@triton.jit
def gather_pointer_kernel(x_ptr, idx_ptr, out_ptr):
    offsets = tl.arange(0, 128)
    pointers = tl.gather(x_ptr + offsets, tl.load(idx_ptr + offsets), 0)
    tl.store(out_ptr + offsets, tl.load(pointers).to(tl.int32))


@pytest.mark.parametrize("kernel", [gather_bool_kernel, gather_pointer_kernel])
def test_gathers_of_booleans_and_pointers(hook, kernel):
    # Booleans go through the scratch as bytes, pointers as 64-bit integers
    # (Triton compiles the first and stops on the second).
    triton_rs.enable("strict")
    signature = {"x_ptr": "*fp32", "idx_ptr": "*i32", "out_ptr": "*i32"}
    compiled = compile_with(kernel, dict(signature=signature, constexprs={}))
    assert compiled.metadata.triton_rs == triton_rs.__version__
    assert compiled.metadata.shared == 128 * (1 if kernel is gather_bool_kernel else 8)
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no GPU: compiled only")
    x = torch.randn(128, device="cuda")
    index = torch.randint(0, 128, (128, ), device="cuda", dtype=torch.int32)
    out = torch.zeros(128, device="cuda", dtype=torch.int32)
    kernel[(1, )](x, index, out)
    gathered = x[index.long()]
    expected = (gathered > 0) if kernel is gather_bool_kernel else gathered
    torch.testing.assert_close(out, expected.to(torch.int32))


def test_clusters_for_kernels_without_tensors(hook):
    # num_ctas=4: a program is a cluster of four CTAs, whose first runs the
    # kernel.
    triton_rs.enable("strict")
    spec = dict(signature={"ptr": "*fp32", "BLOCK": "constexpr"}, constexprs={"BLOCK": 128})
    kernel = compile_with(scalar_copy_kernel, spec, {"num_ctas": 4})
    assert kernel.metadata.triton_rs == triton_rs.__version__
    assert kernel.metadata.num_ctas == 4
    assert ".reqnctapercluster 4" in kernel.asm["ptx"] and "%clusterid.x" in kernel.asm["ptx"]


def test_scaled_dot_compiles(hook):
    # tl.dot_scaled on sm_90: the fp4 operand unpacked and scaled, then a
    # bf16 warp-group MMA.
    triton_rs.enable("strict")
    kernel = compile_with(scaled_dot_kernel, SCALED_DOT)
    assert kernel.metadata.triton_rs == triton_rs.__version__
    assert "wgmma.mma_async" in kernel.asm["ptx"]
    assert kernel.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def warp_specialized_dot_kernel(a_desc, b_desc, c_ptr, K):
    offsets = tl.arange(0, 64)
    acc = tl.zeros((64, 64), tl.float32)
    for k in tl.range(0, K, 64, warp_specialize=True):
        acc = tl.dot(a_desc.load([0, k]), b_desc.load([k, 0]), acc)
    tl.store(c_ptr + offsets[:, None] * 64 + offsets[None, :], acc)


def compile_refused():
    """A kernel this project refuses: Hopper warp specialization of a loop
    around a 64-row dot over descriptors from the host (this project splits
    loops around dots of 128 and 256 rows over descriptors made in the
    kernel)."""
    desc = "tensordesc<fp16[64, 64]>"
    return triton.compile(ASTSource(warp_specialized_dot_kernel, {"a_desc": desc, "b_desc": desc, "c_ptr": "*fp32",
                                                                   "K": "i32"}, {}),
                          target=GPUTarget("cuda", 90, 32))


def test_strict_mode_raises_the_refusal(hook):
    # The refusal, with the kernel's source location.
    triton_rs.enable("strict")
    with pytest.raises(triton_rs.CompileError) as info:
        compile_refused()
    assert "does not support" in str(info.value) and "yet" in str(info.value)
    assert "test_hook.py:" in str(info.value)


def test_fallback_mode_hands_the_kernel_to_triton(hook, caplog):
    triton_rs.enable("fallback")
    kernel = compile_refused()
    assert not hasattr(kernel.metadata, "triton_rs")
    assert kernel.asm["cubin"][:4] == b"\x7fELF"
    counts = triton_rs.stats()
    assert counts["fallbacks"] == 1 and counts["compiled"] == 0
    assert counts["fallback_kernels"][0][0] == "warp_specialized_dot_kernel"
    assert any("compiled by Triton instead" in record.message for record in caplog.records)


def test_the_cache_never_crosses_compilers(hook):
    by_triton = compile_with(add_kernel, ADD)
    assert not hasattr(by_triton.metadata, "triton_rs")
    triton_rs.enable("strict")
    ours = compile_with(add_kernel, ADD)
    assert ours.hash != by_triton.hash and ours.metadata.triton_rs
    triton_rs.enable("fallback")
    fallback = compile_with(add_kernel, ADD)
    assert fallback.hash not in (ours.hash, by_triton.hash)
    triton_rs.disable()
    again = compile_with(add_kernel, ADD)
    assert again.hash == by_triton.hash and not hasattr(again.metadata, "triton_rs")


def test_enable_checks_its_mode(hook):
    with pytest.raises(ValueError, match="unknown mode"):
        triton_rs.enable("sometimes")
    assert triton_rs.mode() is None


def run_python(code, **env):
    environment = {key: value for key, value in os.environ.items() if key != "TRITON_RS"}
    environment.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment,
                          timeout=120)


@pytest.mark.parametrize("value, mode", [("1", "strict"), ("strict", "strict"), ("fallback", "fallback")])
def test_the_environment_variable_turns_the_hook_on(value, mode):
    result = run_python("import triton_rs; print(triton_rs.mode())", TRITON_RS=value)
    assert result.stdout.strip() == mode, result.stderr


def test_a_bad_environment_value_is_reported_and_leaves_the_hook_off():
    result = run_python("import triton_rs; print(triton_rs.mode())", TRITON_RS="maybe")
    assert result.stdout.strip() == "None"
    assert "TRITON_RS is set, but the hook is off" in result.stderr


def test_without_the_variable_nothing_changes():
    result = run_python("import triton_rs; print(triton_rs.mode())")
    assert result.stdout.strip() == "None", result.stderr


def test_quotients_of_negative_values_are_computed_per_element(hook):
    # (range - 64) // 32 rounds toward zero: -64 // 32 is -2 and -63 // 32
    # is -1, so four consecutive elements need four quotients. Triton 3.6's
    # analysis takes them as constant over runs of 32 and stores one
    # quotient four times; this project's bounds on the run keep them apart.
    triton_rs.enable("strict")
    # A 16-byte aligned pointer, as torch allocates it, so stores are v4.
    source = ASTSource(negative_quotient_kernel, OUT_ONLY["signature"], OUT_ONLY["constexprs"],
                       attrs={(0,): [["tt.divisibility", 16]]})
    kernel = triton.compile(source, target=TARGET, options={"num_warps": 1})
    stores = [line for line in kernel.asm["ptx"].splitlines() if "st.global.v4.b32" in line]
    assert stores, kernel.asm["ptx"]
    for line in stores:
        registers = line[line.index("{") + 1:line.index("}")].split(",")
        assert len({r.strip() for r in registers}) == 4, line



def test_f32_to_e5m2_toward_zero_is_the_high_byte_of_an_f16(hook):
    # e5m2 is f16's high byte: Triton rounds f32 toward zero to f16 and
    # keeps that byte, and so does this project.
    spec = dict(signature={"x_ptr": "*fp32", "y_ptr": "*fp8e5"}, constexprs={})
    triton_rs.enable("strict")
    ours = compile_with(to_e5m2_toward_zero_kernel, spec).asm["ptx"]
    triton_rs.disable()
    theirs = compile_with(to_e5m2_toward_zero_kernel, spec).asm["ptx"]
    assert "cvt.rz.f16.f32" in ours and "cvt.rz.f16.f32" in theirs
    assert "shr.u16" in ours and "cvt.rn" not in ours


@triton.jit
def e5m2_round_trip_kernel(x_ptr, y_ptr):
    offsets = tl.arange(0, 128)
    x = tl.load(x_ptr + offsets)
    tl.store(y_ptr + offsets, x.to(tl.float8e5).to(y_ptr.dtype.element_ty))


@pytest.mark.parametrize("dtype", ["fp32", "bf16"])
def test_e5m2_conversions_compile_for_sm80(hook, dtype):
    # sm_80 has no fp8 conversions; e5m2 to and from f32 is integer code
    # (through f16, whose high byte e5m2 is), as Triton emulates it. bf16
    # goes through f32 both ways (where Triton has integer code of its own).
    triton_rs.enable("strict")
    source = ASTSource(e5m2_round_trip_kernel, {"x_ptr": "*" + dtype, "y_ptr": "*" + dtype}, {})
    kernel = triton.compile(source, target=GPUTarget("cuda", 80, 32))
    ptx = kernel.asm["ptx"]
    assert ".target sm_80" in ptx and "e5m2x2" not in ptx and "bf16.f16" not in ptx
    assert "cvt.rz.f16.f32" in ptx and kernel.asm["cubin"][:4] == b"\x7fELF"


def test_e5m2_to_bf16_assembles_for_sm89(hook):
    # sm_89 has the fp8 conversions but not sm_90's bf16 arithmetic
    # (`mul.bf16x2`): e5m2 widens to bf16 through f16 and f32 there.
    triton_rs.enable("strict")
    source = ASTSource(e5m2_round_trip_kernel, {"x_ptr": "*bf16", "y_ptr": "*bf16"}, {})
    kernel = triton.compile(source, target=GPUTarget("cuda", 89, 32))
    ptx = kernel.asm["ptx"]
    assert "cvt.rn.f16x2.e5m2x2" in ptx and "bf16x2" not in ptx
    assert kernel.asm["cubin"][:4] == b"\x7fELF"


DUMP_TWO_KERNELS = """
import triton, triton.language as tl, triton_rs
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

@triton.jit
def first_kernel(x_ptr):
    tl.store(x_ptr + tl.arange(0, 128), 1.0)

@triton.jit
def second_kernel(x_ptr):
    tl.store(x_ptr + tl.arange(0, 64), 2.0)

triton_rs.enable("strict")
for kernel in (first_kernel, second_kernel):
    triton.compile(ASTSource(kernel, {"x_ptr": "*fp32"}, {}), target=GPUTarget("cuda", 90, 32))
"""


def run_dump_script(tmp_path, **env):
    """DUMP_TWO_KERNELS as a file (@triton.jit wants one), in a process of
    its own (Triton opens its dump file once per process)."""
    script = tmp_path / "two_kernels.py"
    script.write_text(DUMP_TWO_KERNELS)
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("TRITON_RS", "MLIR_ENABLE_DUMP", "MLIR_DUMP_PATH", "MLIR_ENABLE_TIMING",
                                  "TRITON_REPRODUCER_PATH", "LLVM_IR_ENABLE_DUMP")}
    environment.update(env, TRITON_CACHE_DIR=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=environment,
                          timeout=120)


def dumped_passes(text):
    """(pass, kernel) of each `IR Dump Before` header, the kernel the first
    function defined after it."""
    found = []
    for chunk in text.split("// -----// IR Dump Before ")[1:]:
        kernel = re.search(r"tt\.func (?:public )?@(\w+)", chunk)
        found.append((chunk.split(" ")[0], kernel and kernel.group(1)))
    return found


def test_mlir_enable_dump_prints_this_compilers_passes(tmp_path):
    # Triton's make_ttir dumps its passes into MLIR_DUMP_PATH, this
    # project's stages theirs into its .triton_rs sibling, kernel by kernel.
    dump = tmp_path / "dump.mlir"
    result = run_dump_script(tmp_path, MLIR_ENABLE_DUMP="1", MLIR_DUMP_PATH=str(dump))
    assert result.returncode == 0, result.stderr
    tritons = dumped_passes(dump.read_text())
    assert [kernel for name, kernel in tritons if name == "Inliner"] == ["first_kernel", "second_kernel"]
    assert not any(name == "TritonGPUCoalesce" for name, _ in tritons)
    passes = dumped_passes((tmp_path / "dump.mlir.triton_rs").read_text())
    firsts = [(name, kernel) for name, kernel in passes if name in ("TritonGPUCoalesce", "ConvertTritonGPUToLLVM")]
    assert firsts == [("TritonGPUCoalesce", "first_kernel"), ("ConvertTritonGPUToLLVM", "first_kernel"),
                      ("TritonGPUCoalesce", "second_kernel"), ("ConvertTritonGPUToLLVM", "second_kernel")]
    # Every pass of make_ttgir, in Triton's order.
    ttgir = [name for name, kernel in passes if kernel == "first_kernel"]
    start = ttgir.index("ConvertTritonToTritonGPU")
    assert ttgir[start:start + 4] == ["ConvertTritonToTritonGPU", "TritonGPUCoalesce", "TritonGPUF32DotTC",
                                      "TritonGPUPlanCTAPass"]


def test_mlir_enable_dump_naming_a_kernel_dumps_only_that_one(tmp_path):
    reproducer = tmp_path / "reproducer.mlir"
    result = run_dump_script(tmp_path, MLIR_ENABLE_DUMP="second_kernel", MLIR_ENABLE_TIMING="1",
                             TRITON_REPRODUCER_PATH=str(reproducer), LLVM_IR_ENABLE_DUMP="1")
    assert result.returncode == 0, result.stderr
    kernels = {kernel for name, kernel in dumped_passes(result.stderr) if name == "TritonGPUCoalesce"}
    assert kernels == {"second_kernel"}
    # MLIR_ENABLE_TIMING: each stage's pass timings, this project's too.
    assert "Execution time report" in result.stderr and "TritonGPUCoalesce" in result.stderr
    # LLVM_IR_ENABLE_DUMP: the LLVM IR after each of this project's LLVM
    # passes (Triton's make_llir does not run).
    assert "; *** IR Dump After NVVMReflectPass on [module] ***" in result.stderr
    # TRITON_REPRODUCER_PATH: the last stage's input, this project's make_llir.
    text = reproducer.read_text()
    assert "tt.func public @second_kernel" in text and 'pipeline: "builtin.module(make-llir{' in text


@triton.jit
def store_one_kernel(x_ptr):
    tl.store(x_ptr + tl.arange(0, 128), 1.0)


@pytest.mark.parametrize("stage", ["ttgir", "llir"])
def test_replaced_stage_outputs_are_what_gets_compiled(hook, tmp_path, stage):
    # Triton lets a user put their own TTGIR or LLVM IR in a stage's place
    # (TRITON_KERNEL_OVERRIDE, or a config's ir_override); the stages after
    # it must compile that text, not this compiler's own.
    triton_rs.enable("strict")
    spec = dict(signature={"x_ptr": "*fp32"}, constexprs={})
    original = compile_with(store_one_kernel, spec)
    # 1.0 and 3.0 as the stored words (f32 bits), in the LLVM IR and PTX.
    one, three = "1065353216", "1077936128"
    assert one in original.asm["ptx"] and three not in original.asm["ptx"]
    text = original.asm[stage]
    replaced = text.replace("1.000000e+00", "3.000000e+00") if stage == "ttgir" else text.replace(one, three)
    assert replaced != text
    override = tmp_path / f"store_one_kernel.{stage}"
    override.write_text(replaced)
    kernel = compile_with(store_one_kernel, spec, {"ir_override": str(override)})
    assert three in kernel.asm["ptx"] and one not in kernel.asm["ptx"]
    assert kernel.metadata.name == "store_one_kernel" and kernel.asm["cubin"][:4] == b"\x7fELF"
    assert triton_rs.stats()["fallbacks"] == 0


def test_ttgir_locations_can_be_the_ttgir_files_lines(hook):
    # USE_IR_LOC=ttgir: Triton points the kernel's line table at the lines
    # of its cached .ttgir file, which it does to a module object.
    triton_rs.enable("strict")
    previous = triton.knobs.compilation.use_ir_loc
    triton.knobs.compilation.use_ir_loc = "ttgir"
    try:
        kernel = compile_with(store_one_kernel, dict(signature={"x_ptr": "*fp32"}, constexprs={}))
    finally:
        triton.knobs.compilation.use_ir_loc = previous
    files = re.findall(r'\.file\s+\d+ "([^"]+)"', kernel.asm["ptx"])
    assert files and all(name.endswith("store_one_kernel.ttgir") for name in files), files
    assert kernel.metadata.triton_rs == triton_rs.__version__


def test_ttgir_files_compile_from_make_llir_on(hook, tmp_path):
    # triton.compile of a .ttgir file (test_irsource.py, test_aot.py's
    # test_ttgir_to_asm) starts at the llir stage: no TTGIR stage of this
    # compiler ran before it.
    triton_rs.enable("strict")
    ttgir = compile_with(store_one_kernel, dict(signature={"x_ptr": "*fp32"}, constexprs={})).asm["ttgir"]
    path = tmp_path / "store_one_kernel.ttgir"
    path.write_text(ttgir)
    kernel = triton.compile(str(path), target=TARGET)
    assert kernel.metadata.name == "store_one_kernel"
    assert ".visible .entry store_one_kernel(" in kernel.asm["ptx"]
    assert triton_rs.stats()["compiled"] >= 1


def test_tritons_other_debugging_knobs_hold_under_the_hook(hook, capsys):
    triton_rs.enable("strict")
    spec = dict(signature={"x_ptr": "*fp32"}, constexprs={})
    compilation = triton.knobs.compilation
    # NVPTX_ENABLE_DUMP: the PTX on stdout, as Triton's make_ptx prints it.
    with triton.knobs.nvidia.scope():
        triton.knobs.nvidia.dump_nvptx = True
        compile_with(store_one_kernel, spec)
    printed = capsys.readouterr().out
    assert "// -----// NVPTX Dump //----- //" in printed and ".visible .entry store_one_kernel(" in printed
    # LLVM_EXTRACT_DI_LOCAL_VARIABLES is not done here: refused, not ignored.
    with compilation.scope():
        compilation.dump_ir_extract_di_local_variables = True
        with pytest.raises(triton_rs.CompileError, match="does not support LLVM_EXTRACT_DI_LOCAL_VARIABLES"):
            compile_with(store_one_kernel, spec)
    # Address sanitizing: Triton's own refusal on NVIDIA GPUs.
    with compilation.scope():
        compilation.enable_asan = True
        with pytest.raises(RuntimeError, match="only supported on the AMD backend"):
            compile_with(store_one_kernel, spec)


@triton.jit
def fp32_descriptor_dot_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_cm):
    # test_perf_warning.py's test_mma_remark: 32-row tiles, which wgmma
    # does not take.
    a_desc = tl.make_tensor_descriptor(base=a_ptr, shape=[M, K], strides=[stride_am, 1], block_shape=[32, 128])
    b_desc = tl.make_tensor_descriptor(base=b_ptr, shape=[K, N], strides=[stride_bn, 1], block_shape=[32, 128])
    c_desc = tl.make_tensor_descriptor(base=c_ptr, shape=[M, N], strides=[stride_cm, 1], block_shape=[32, 32])
    c = tl.dot(a_desc.load([0, 0]), b_desc.load([0, 0]).T)
    c_desc.store([0, 0], c)


@triton.jit
def gather_kernel(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, XBLOCK: tl.constexpr):
    # test_perf_warning.py's test_remark_vectorization: gathers that stay
    # scalar.
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]
    x0 = xindex % 9
    x2 = (xindex // 3456) % 512
    x1 = (xindex // 9) % 384
    tmp0 = tl.load(in_ptr0 + (x2 + (512 * x0)), None, eviction_policy="evict_last")
    tmp3 = tl.where(tmp0 < 0, tmp0 + 520, tmp0)
    tmp14 = (-4) + tmp3 < tl.full([1], 512, tl.int64)
    tmp16 = tl.load(in_ptr3 + (x1), tmp14, eviction_policy="evict_last", other=0.0)
    tl.store(out_ptr0 + xindex, tl.where(tmp14, tmp16, 0.0), None)


@triton.jit
def pipe_error_kernel(in_ptr, out_ptr):
    # test_perf_warning.py's test_remark_swp_op_before_operands: the next
    # load's address depends on this iteration's reduction.
    SIZE: tl.constexpr = 64
    k = 0
    for i in tl.range(0, 64, num_stages=3):
        val = tl.load(in_ptr + tl.arange(0, SIZE) + SIZE * k)
        tl.store(out_ptr + (tl.arange(0, SIZE) + i * SIZE), val)
        if tl.max(val) > 0:
            k += 1


DOT_REMARK = dict(signature={"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
                             "stride_am": "i32", "stride_bn": "i32", "stride_cm": "i32"}, constexprs={})
GATHER = dict(signature={"in_ptr0": "*i64", "in_ptr1": "*i64", "in_ptr2": "*fp16", "in_ptr3": "*fp32",
                         "out_ptr0": "*fp16", "XBLOCK": "constexpr"}, constexprs={"XBLOCK": 1024})


def test_mlir_enable_diagnostics_prints_remarks_as_triton_does(hook, capfd, monkeypatch):
    triton_rs.enable("strict")
    compile_with(fp32_descriptor_dot_kernel, DOT_REMARK)
    assert "remark" not in capfd.readouterr().err
    monkeypatch.setenv("MLIR_ENABLE_DIAGNOSTICS", "remarks")
    compile_with(fp32_descriptor_dot_kernel, DOT_REMARK)
    err = capfd.readouterr().err
    position = re.search(r"test_hook\.py:(\d+):\d+: remark: MMA version 3 acceleration not applied due to "
                         r"unsupported shapes or data types\.\n(.*)\n +\^\n", err)
    assert position, err
    assert position.group(2).strip() == "c = tl.dot(a_desc.load([0, 0]), b_desc.load([0, 0]).T)"
    assert "note: Target compute capability (90) supports MMA v3." in err
    assert "note: see current operation:" not in err
    monkeypatch.setenv("MLIR_ENABLE_DIAGNOSTICS", "remarks,operations,stacktraces")
    compile_with(fp32_descriptor_dot_kernel, DOT_REMARK)
    err = capfd.readouterr().err
    assert "note: see current operation:" in err and "note: diagnostic emitted with trace:" in err


def test_mlir_enable_diagnostics_prints_unvectorised_accesses(hook, capfd, monkeypatch):
    triton_rs.enable("strict")
    monkeypatch.setenv("MLIR_ENABLE_DIAGNOSTICS", "remarks")
    compile_with(gather_kernel, GATHER, {"num_warps": 1})
    err = capfd.readouterr().err
    # Triton's three remarks, word for word: the two loads (the second
    # masked, its mask aligned to single elements) and the store.
    assert "remark: Warning: vectorization fails vec = 1 origin vec = 1 numElems = 32 mask is -1\n" in err
    assert "remark: Warning: vectorization fails vec = 1 origin vec = 1 numElems = 32 mask is 1\n" in err
    assert "remark: Warning: vectorization fails vec = 1 origin vec = 1 elemsPerThread = 32 mask is -1\n" in err
    assert "note: see current operation:" not in err


def test_a_schedule_against_its_operands_warns_and_leaves_the_loop_unpipelined(hook, capfd, monkeypatch):
    # Triton compiles this loop without expanding its schedule, with a
    # warning; this project does the same, to Triton's TTGIR.
    spec = dict(signature={"in_ptr": "*fp32", "out_ptr": "*fp32"}, constexprs={})
    tritons = compile_with(pipe_error_kernel, spec).asm["ttgir"]
    triton_rs.enable("strict")
    monkeypatch.setenv("MLIR_ENABLE_DIAGNOSTICS", "warnings")
    ours = compile_with(pipe_error_kernel, spec).asm["ttgir"]
    err = capfd.readouterr().err
    assert "warning: operation scheduled before its operands. Pipelining will be disabled." in err
    assert 'note: operand defined here: %' in err and '"scf.if"' in err

    from triton_rs._hook import _comparable

    assert _comparable(ours) == _comparable(tritons)
    assert "ttg.async_wait" in ours


@triton.jit
def descriptor_1d_kernel(a, b, N):
    # A rank-1 NVMMA buffer, which Triton calls transposed.
    da = tl.make_tensor_descriptor(a, [N], [1], [256])
    db = tl.make_tensor_descriptor(b, [N], [1], [256])
    db.store([0], da.load([0]) + 1)


@triton.jit
def cat_kernel(X, Y, Z, N: tl.constexpr):
    # test_cat's kernel: at 4 warps the conversion after the concatenation
    # folds into it.
    offs = tl.arange(0, N)
    z = tl.cat(tl.load(X + offs), tl.load(Y + offs), can_reorder=True)
    tl.store(Z + tl.arange(0, 2 * N), z)


def test_triton_rs_compare_records_each_kernels_ttgir_against_tritons(hook, tmp_path, monkeypatch):
    record = tmp_path / "compare.jsonl"
    monkeypatch.setenv("TRITON_RS_COMPARE", str(record))
    triton_rs.enable("strict")
    compile_with(add_kernel, ADD)
    compile_with(pipe_error_kernel, dict(signature={"in_ptr": "*fp32", "out_ptr": "*fp32"}, constexprs={}))
    compile_with(descriptor_1d_kernel, dict(signature={"a": "*fp32", "b": "*fp32", "N": "i32"}, constexprs={}))
    aligned = {(i, ): [["tt.divisibility", 16]] for i in range(3)}
    cat = ASTSource(cat_kernel, {"X": "*fp32", "Y": "*fp32", "Z": "*fp32", "N": "constexpr"}, {"N": 128}, attrs=aligned)
    assert "tt.cat" in triton.compile(cat, target=TARGET, options={"num_warps": 4}).asm["ttgir"]
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines == [{"name": name, "same": True}
                     for name in ("add_kernel", "pipe_error_kernel", "descriptor_1d_kernel", "cat_kernel")]


def test_compared_ttgir_ignores_locations_and_names_only():
    from triton_rs._hook import _comparable

    a = '%x = arith.addi %a, %b : i32 loc("k.py":3:4)\n#loc1 = loc("k.py":1:0)\n'
    b = '%sum_1 = arith.addi %arg0, %arg1 : i32 loc(callsite(#loc2 at #loc3))\n'
    assert _comparable(a) == _comparable(b)
    assert _comparable(a) != _comparable(b.replace("addi", "subi"))
