"""torch.compile'd functions, PyTorch Inductor's Triton kernels, compiled
through this project's package: 28 functions (normalizations, softmaxes,
scans, sorts, top-k, gathers and scatters, reductions, a matmul with a
fused epilogue, attention, a convolution with batch norm, pooling, an
optimizer step, quantization, fp8 casts), each result compared with eager
PyTorch's. Inductor compiles in this process (one compile thread), so
every kernel goes through the hook that TRITON_RS selects.

    TRITON_RS=strict python3 bench/inductor/check.py

Prints PASS, WRONG or ERROR per function, the failures, and the package's
counts (kernels compiled here; fallbacks, which strict mode never takes).
Without TRITON_RS, Triton's own compiler builds the same kernels."""

import os
import sys
import time
import traceback

import torch
import torch._inductor.config as inductor_config

inductor_config.compile_threads = 1
torch.manual_seed(0)
d = "cuda"


def t(*shape, dtype=torch.float32):
    return torch.randn(*shape, device=d, dtype=dtype)


cases = {
    "softmax": (lambda x: torch.softmax(x, -1), [t(512, 1000)]),
    "log_softmax_bf16": (lambda x: torch.log_softmax(x.float(), -1).bfloat16(), [t(256, 4096, dtype=torch.bfloat16)]),
    "layernorm": (lambda x, w, b: torch.nn.functional.layer_norm(x, (768,), w, b), [t(1024, 768), t(768), t(768)]),
    "rmsnorm_fp16": (lambda x, w: (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6)).half() * w, [t(2048, 4096, dtype=torch.float16), t(4096, dtype=torch.float16)]),
    "gelu_tanh": (lambda x: torch.nn.functional.gelu(x, approximate="tanh"), [t(4096, 4096)]),
    "silu_mul": (lambda a, b: torch.nn.functional.silu(a) * b, [t(4096, 2048, dtype=torch.bfloat16), t(4096, 2048, dtype=torch.bfloat16)]),
    "cumsum": (lambda x: torch.cumsum(x, 1), [t(64, 3000)]),
    "cumprod_dim0": (lambda x: torch.cumprod(x * 0.1 + 1, 0), [t(300, 64)]),
    "cummax": (lambda x: torch.cummax(x, 1).values, [t(32, 1000)]),
    "argmax": (lambda x: torch.argmax(x, 1), [t(1000, 3000)]),
    "var_mean": (lambda x: torch.var_mean(x, 1), [t(4096, 5000)]),
    "sort": (lambda x: torch.sort(x, 1).values, [t(128, 512)]),
    "topk": (lambda x: torch.topk(x, 8, 1).values, [t(256, 1000)]),
    "index_add": (lambda x, i, s: x.index_add(0, i, s), [t(1000, 64), torch.randint(0, 1000, (5000,), device=d), t(5000, 64)]),
    "gather": (lambda x, i: torch.gather(x, 1, i), [t(512, 512), torch.randint(0, 512, (512, 64), device=d)]),
    "embedding_bag_sum": (lambda w, i: w[i].sum(1), [t(10000, 128), torch.randint(0, 10000, (512, 20), device=d)]),
    "mm_relu_bias": (lambda a, b, c: torch.relu(a @ b + c), [t(1024, 512, dtype=torch.float16), t(512, 768, dtype=torch.float16), t(768, dtype=torch.float16)]),
    "bmm_softmax": (lambda q, k: torch.softmax(q @ k.transpose(-1, -2) / 8, -1), [t(8, 256, 64, dtype=torch.float16), t(8, 256, 64, dtype=torch.float16)]),
    "sdpa": (lambda q, k, v: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True), [t(2, 8, 512, 64, dtype=torch.float16)] * 3),
    "conv_bn_relu": (lambda x, w: torch.relu(torch.nn.functional.batch_norm(torch.nn.functional.conv2d(x, w), None, None, training=True)), [t(8, 16, 32, 32), t(32, 16, 3, 3)]),
    "max_pool": (lambda x: torch.nn.functional.max_pool2d(x, 3, 2), [t(16, 32, 64, 64)]),
    "adam_step": (lambda p, g, m, v: (p - 0.001 * (0.9 * m + 0.1 * g) / (torch.sqrt(0.999 * v + 0.001 * g * g) + 1e-8)), [t(1 << 20)] * 4),
    "where_isinf": (lambda x: torch.where(torch.isinf(1 / x), 0.0, x).sum(), [t(1 << 16)]),
    "int8_quant": (lambda x: torch.clamp(torch.round(x / x.abs().amax(-1, keepdim=True) * 127), -128, 127).to(torch.int8), [t(1024, 1024)]),
    "logsumexp": (lambda x: torch.logsumexp(x, -1), [t(2048, 8192)]),
    "bool_any": (lambda x: (x > 3).any(-1), [t(4096, 1024)]),
    "fp8_cast": (lambda x: x.to(torch.float8_e4m3fn).float(), [t(1 << 16)]),
    "mm_fp32_tf32": (lambda a, b: a @ b, [t(512, 512), t(512, 512)]),
}
bad = 0
for name, (fn, args) in cases.items():
    torch._dynamo.reset()
    start = time.time()
    try:
        ref = fn(*args)
        got = torch.compile(fn)(*args)
        refs = ref if isinstance(ref, tuple) else (ref,)
        gots = got if isinstance(got, tuple) else (got,)
        ok = all(torch.allclose(g.float(), r.float(), rtol=2e-2, atol=2e-2, equal_nan=True) if g.is_floating_point() else torch.equal(g, r) for g, r in zip(gots, refs))
        print(f"{'PASS' if ok else 'WRONG'} {name} {time.time() - start:.1f}s", flush=True)
        bad += not ok
    except Exception as e:
        bad += 1
        msg = [l for l in traceback.format_exception_only(e)[-1].splitlines() if l.strip()]
        print(f"ERROR {name} {time.time() - start:.1f}s {' | '.join(msg)[:600]}", flush=True)
print("INDUCTOR", os.environ.get("TRITON_RS", "triton"), "failures", bad, "of", len(cases))
if os.environ.get("TRITON_RS"):
    import triton_rs
    print("TRITON_RS_STATS", triton_rs.mode(), triton_rs.stats())
sys.exit(1 if bad else 0)
