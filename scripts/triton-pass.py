#!/usr/bin/env python3
"""Runs Triton 3.6's own passes on an MLIR file, through the Python bindings
of an installed `triton==3.6.0` (no GPU needed), and prints the result.

This is the reference the Rust passes are checked against where the corpus
does not reach: write a case, run it here and with `tt-opt`, compare.

    scripts/triton-pass.py INPUT.mlir tritongpu-accelerate-matmul
    scripts/triton-pass.py INPUT.mlir tritongpu-pipeline num-stages=4
    scripts/triton-pass.py INPUT.mlir --split   # each `// -----` case alone

Several flags run in order: `FLAG [k=v ...] FLAG [k=v ...]`. Options take
Triton's flag spellings (`num-stages`, `compute-capability`, ...). Output is
printed without locations (`--debuginfo` keeps them). The target comes from
the module's `ttg.target` where a pass reads it.
"""

import argparse
import re
import sys


def add_pass(pm, flag, opts, lib):
    p, nv = lib.passes, lib.nvidia.passes

    def num(key, default):
        return int(opts.get(key, default))

    table = {
        "tritongpu-accelerate-matmul": lambda: p.ttgpuir.add_accelerate_matmul(pm),
        "tritongpu-remove-layout-conversions": lambda: p.ttgpuir.add_remove_layout_conversions(pm),
        "tritongpu-optimize-dot-operands": lambda: p.ttgpuir.add_optimize_dot_operands(
            pm, opts.get("hoist-layout-conversion", "true") == "true"),
        "tritongpu-fuse-nested-loops": lambda: p.ttgpuir.add_fuse_nested_loops(pm),
        "tritongpu-assign-latencies": lambda: p.ttgpuir.add_assign_latencies(pm, num("num-stages", 3)),
        "tritongpu-schedule-loops": lambda: p.ttgpuir.add_schedule_loops(pm),
        "tritongpu-pipeline": lambda: p.ttgpuir.add_pipeline(pm, num("num-stages", 3), False),
        "tritongpu-prefetch": lambda: p.ttgpuir.add_prefetch(pm),
        "tritongpu-coalesce-async-copy": lambda: p.ttgpuir.add_coalesce_async_copy(pm),
        "tritongpu-coalesce": lambda: p.ttgpuir.add_coalesce(pm),
        "tritongpu-reduce-data-duplication": lambda: p.ttgpuir.add_reduce_data_duplication(pm),
        "tritongpu-reorder-instructions": lambda: p.ttgpuir.add_reorder_instructions(pm),
        "tritongpu-optimize-thread-locality": lambda: p.ttgpuir.add_optimize_thread_locality(pm),
        "tritongpu-optimize-partition-warps": lambda: p.ttgpuir.add_optimize_partition_warps(pm),
        "tritongpu-combine-tensor-select-and-if": lambda: p.ttgpuir.add_combine_tensor_select_and_if(pm),
        "tritongpu-optimize-accumulator-init": lambda: p.ttgpuir.add_optimize_accumulator_init(pm),
        "tritongpu-hoist-tmem-alloc": lambda: p.ttgpuir.add_hoist_tmem_alloc(
            pm, opts.get("hoist-out-of-if", "false") == "true"),
        "triton-nvidia-gpu-remove-tmem-tokens": lambda: nv.ttnvgpuir.add_remove_tmem_tokens(pm),
        "nvgpu-warp-specialization": lambda: nv.hopper.add_hopper_warpspec(pm, num("num-stages", 3), False),
        "triton-nvidia-gpu-fence-insertion": lambda: nv.ttnvgpuir.add_fence_insertion(
            pm, num("compute-capability", 90)),
        "triton-nvidia-mma-lowering": lambda: nv.ttnvgpuir.add_lower_mma(pm),
        "triton-nvidia-gpu-proxy-fence-insertion": lambda: nv.ttnvgpuir.add_proxy_fence_insertion(
            pm, num("compute-capability", 90)),
        "triton-nvidia-optimize-descriptor-encoding": lambda: nv.ttnvgpuir.add_optimize_descriptor_encoding(pm),
        "triton-nvidia-tma-lowering": lambda: nv.ttnvgpuir.add_tma_lowering(pm),
        "triton-loop-aware-cse": lambda: p.ttir.add_loop_aware_cse(pm),
        "triton-licm": lambda: p.ttir.add_triton_licm(pm),
        "allocate-shared-memory": lambda: p.ttgpuir.add_allocate_shared_memory(pm),
        "allocate-shared-memory-nv": lambda: nv.ttgpuir.add_allocate_shared_memory_nv(
            pm, num("compute-capability", 90), num("ptx-version", 88)),
        "convert-triton-gpu-to-llvm": lambda: nv.ttgpuir.add_to_llvmir(
            pm, num("compute-capability", 90), num("ptx-version", 88)),
        "convert-nv-gpu-to-llvm": lambda: nv.ttnvgpuir.add_nvgpu_to_llvm(pm),
        "tritoninstrument-concurrency-sanitizer": lambda: p.ttgpuir.add_concurrency_sanitizer(pm),
        "canonicalize": lambda: p.common.add_canonicalizer(pm),
        "cse": lambda: p.common.add_cse(pm),
        "sccp": lambda: p.common.add_sccp(pm),
    }
    if flag not in table:
        sys.exit(f"triton-pass.py: unknown pass '{flag}' (known: {', '.join(sorted(table))})")
    table[flag]()


def parse_pipeline(words):
    steps = []
    for w in words:
        if "=" in w and steps:
            k, v = w.split("=", 1)
            steps[-1][1][k] = v
        else:
            steps.append((w, {}))
    return steps


def run(text, steps, debuginfo):
    import os
    import tempfile

    import triton._C.libtriton as lib

    ctx = lib.ir.context()
    lib.ir.load_dialects(ctx)
    lib.nvidia.load_dialects(ctx)
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        mod = lib.ir.parse_mlir_module(path, ctx)
    finally:
        os.unlink(path)
    mod.context = ctx
    pm = lib.ir.pass_manager(ctx)
    for flag, opts in steps:
        add_pass(pm, flag, opts, lib)
    pm.run(mod, "triton-pass")
    return mod.str() if debuginfo else mod.str_nodebug()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("pipeline", nargs="+", help="FLAG [key=value ...] ...")
    ap.add_argument("--split", action="store_true", help="run each '// -----' case on its own")
    ap.add_argument("--debuginfo", action="store_true")
    args = ap.parse_args()
    text = open(args.input).read()
    cases = re.split(r"^// -----\s*$", text, flags=re.M) if args.split else [text]
    steps = parse_pipeline(args.pipeline)
    outs = []
    for case in cases:
        try:
            outs.append(run(case, steps, args.debuginfo))
        except Exception as e:  # a pass failure: keep going with the next case
            outs.append(f"// triton-pass.py: {e}\n")
    print("\n// -----\n".join(outs))


if __name__ == "__main__":
    main()
