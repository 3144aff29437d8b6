"""Triton's tutorials 01 to 05, compiled from their Python source through
the stage hook (strict mode) to cubins, for GPUTarget("cuda", 90, 32).

The tutorials launch their kernels on a GPU at import; here the
@triton.jit functions are taken out of each file unchanged and compiled
with the argument types, constants and options the tutorial launches them
with (pointers 16-byte aligned, as torch allocates them); 03's matmul with
the first of its autotuning configurations (fp16, wgmma) and its fp8 one."""

import ast
import importlib.util

import pytest

triton = pytest.importorskip("triton")

import triton_rs  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

TARGET = GPUTarget("cuda", 90, 32)

# (tutorial file, kernel, {argument: type or constexpr value}, options)
LAUNCHES = [
    ("01-vector-add.py", "add_kernel",
     dict(x_ptr="*fp32", y_ptr="*fp32", output_ptr="*fp32", n_elements="i32", BLOCK_SIZE=1024), {}),
    ("02-fused-softmax.py", "softmax_kernel",
     dict(output_ptr="*fp32", input_ptr="*fp32", input_row_stride="i32", output_row_stride="i32", n_rows="i32",
          n_cols="i32", BLOCK_SIZE=1024, num_stages=4), dict(num_warps=8, num_stages=4)),
    ("03-matrix-multiplication.py", "matmul_kernel",
     dict(a_ptr="*fp16", b_ptr="*fp16", c_ptr="*fp16", M="i32", N="i32", K="i32", stride_am="i32", stride_ak=1,
          stride_bk="i32", stride_bn=1, stride_cm="i32", stride_cn=1, BLOCK_SIZE_M=128, BLOCK_SIZE_N=256,
          BLOCK_SIZE_K=64, GROUP_SIZE_M=8, ACTIVATION=None), dict(num_warps=8, num_stages=3)),
    ("03-matrix-multiplication.py", "matmul_kernel",
     dict(a_ptr="*fp8e5", b_ptr="*fp8e5", c_ptr="*fp16", M="i32", N="i32", K="i32", stride_am="i32", stride_ak=1,
          stride_bk=1, stride_bn="i32", stride_cm="i32", stride_cn=1, BLOCK_SIZE_M=128, BLOCK_SIZE_N=256,
          BLOCK_SIZE_K=128, GROUP_SIZE_M=8, ACTIVATION=None), dict(num_warps=8, num_stages=3)),
    ("04-low-memory-dropout.py", "_dropout",
     dict(x_ptr="*fp32", x_keep_ptr="*i32", output_ptr="*fp32", n_elements="i32", p="fp32", BLOCK_SIZE=1024), {}),
    ("04-low-memory-dropout.py", "_seeded_dropout",
     dict(x_ptr="*fp32", output_ptr="*fp32", n_elements="i32", p="fp32", seed="i32", BLOCK_SIZE=1024), {}),
    ("05-layer-norm.py", "_layer_norm_fwd_fused",
     dict(X="*fp16", Y="*fp16", W="*fp16", B="*fp16", Mean="*fp32", Rstd="*fp32", stride="i32", N="i32", eps="fp32",
          BLOCK_SIZE=8192), dict(num_warps=8)),
    ("05-layer-norm.py", "_layer_norm_bwd_dx_fused",
     dict(DX="*fp16", DY="*fp16", DW="*fp16", DB="*fp16", X="*fp16", W="*fp16", Mean="*fp32", Rstd="*fp32",
          Lock="*i32", stride="i32", N="i32", GROUP_SIZE_M=96, BLOCK_SIZE_N=8192), dict(num_warps=8)),
    ("05-layer-norm.py", "_layer_norm_bwd_dwdb",
     dict(DW="*fp16", DB="*fp16", FINAL_DW="*fp16", FINAL_DB="*fp16", M="i32", N="i32", BLOCK_SIZE_M=32,
          BLOCK_SIZE_N=128), {}),
]


def jit_functions(path, directory):
    """The tutorial's @triton.jit functions, in a module of their own (a
    file, so that Triton can read their source), without running the rest
    of the tutorial and without their other decorators (03's autotuner)."""
    tree = ast.parse(path.read_text())
    source = path.read_text().splitlines(keepends=True)
    kept = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any("triton.jit" in ast.unparse(d) for d in node.decorator_list):
            start = min(d.lineno for d in node.decorator_list if "triton.jit" in ast.unparse(d)) - 1
            kept.append("".join(source[start:node.end_lineno]))
    module_path = directory / path.name.replace("-", "_")
    module_path.write_text("import triton\nimport triton.language as tl\n\n\n" + "\n\n".join(kept))
    spec = importlib.util.spec_from_file_location(module_path.stem, module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def strict(tmp_path):
    previous = triton.knobs.cache.dir
    triton.knobs.cache.dir = str(tmp_path / "cache")
    triton_rs.enable("strict")
    yield
    triton_rs.disable()
    triton.knobs.cache.dir = previous


@pytest.mark.parametrize("tutorial, name, arguments, options", LAUNCHES,
                         ids=[f"{t.split('-')[0]}-{n}-{next(iter(a.values())).lstrip('*')}" for t, n, a, _ in LAUNCHES])
def test_tutorial_kernel_compiles_to_a_cubin(tutorials, strict, tmp_path, tutorial, name, arguments, options):
    kernel = getattr(jit_functions(tutorials / tutorial, tmp_path), name)
    signature = {arg: (value if isinstance(value, str) else "constexpr") for arg, value in arguments.items()}
    constants = {arg: value for arg, value in arguments.items() if not isinstance(value, str)}
    aligned = {(i, ): [["tt.divisibility", 16]] for i, ty in enumerate(signature.values()) if ty.startswith("*")}
    compiled = triton.compile(ASTSource(kernel, signature, constants, aligned), target=TARGET, options=options)
    assert compiled.metadata.triton_rs == triton_rs.__version__
    assert compiled.metadata.name == name
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert f".visible .entry {name}(" in compiled.asm["ptx"]
    assert compiled.metadata.num_warps == options.get("num_warps", 4)
