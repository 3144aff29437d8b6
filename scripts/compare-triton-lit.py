#!/usr/bin/env python3
"""Runs Triton 3.6's own lit files for the passes this project has, case by
case (`// -----` splits), through Triton's pass (`scripts/triton-pass.py`'s
bindings, `triton==3.6.0` installed) and through `tt-opt`, and compares the
two outputs printed by `tt-opt` with SSA names and locations set aside.

    scripts/compare-triton-lit.py [--tests ../shared/triton-3.6-tests/test]
                                  [--tt-opt target/release/tt-opt] [--show NAME]
    scripts/compare-triton-lit.py --file test/lit/ttg/tritongpu-pipeline.mlir \
                                  --passes tritongpu-pipeline [--show NAME]

The second form checks one file (this project's own lit files included)
against the passes given (`FLAG [key=value ...]`, in order).

Prints, per file, how many cases give Triton's output (`same`), differ,
stop at a located "not supported yet" here (`ours: refused`), do not parse
here (`ours: parse`: Blackwell/AMD attributes and lenient attribute syntax,
issue 18) or fail in Triton's bindings (`triton: fail`).
"""

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

# The software pipeliner's three passes, as Triton's lit files chain them.
PIPELINER = ["tritongpu-assign-latencies", "tritongpu-schedule-loops", "tritongpu-pipeline"]

# (lit file, pipeline: flags, each followed by its `key=value` options)
FILES = [
    ("TritonGPU/accelerate-matmul.mlir", ["tritongpu-accelerate-matmul"]),
    ("TritonGPU/coalesce.mlir", ["tritongpu-coalesce"]),
    ("TritonGPU/coalesce-async-copy.mlir", ["tritongpu-coalesce-async-copy"]),
    ("TritonGPU/combine.mlir", ["tritongpu-remove-layout-conversions", "cse"]),
    ("TritonGPU/combine-select-if.mlir", ["tritongpu-combine-tensor-select-and-if"]),
    ("TritonGPU/dot-operands.mlir", ["tritongpu-optimize-dot-operands"]),
    ("TritonGPU/fence-inserstion.mlir", ["triton-nvidia-gpu-fence-insertion"]),
    ("TritonGPU/optimize-locality.mlir", ["tritongpu-optimize-thread-locality"]),
    ("TritonGPU/prefetch.mlir", ["tritongpu-prefetch"]),
    ("TritonGPU/reduce-data-duplication.mlir", ["tritongpu-reduce-data-duplication"]),
    ("TritonGPU/reorder-instructions.mlir", ["tritongpu-reorder-instructions"]),
    ("Triton/loop-invariant-code-motion.mlir", ["triton-licm"]),
    ("TritonGPU/loop-pipeline-expand.mlir", ["tritongpu-pipeline"]),
    ("TritonGPU/matmul-loop-pipeline.mlir", ["tritongpu-pipeline"]),
    ("TritonGPU/loop-pipeline.mlir", [*PIPELINER, "num-stages=3", "canonicalize"]),
    ("TritonGPU/loop-pipeline-cuda.mlir", [*PIPELINER, "canonicalize"]),
    ("TritonGPU/loop-pipeline-hopper.mlir", [*PIPELINER, "canonicalize"]),
    ("TritonGPU/loop-pipeline-hopper-remove-wait.mlir", ["canonicalize", *PIPELINER, "canonicalize"]),
    ("TritonGPU/loop-pipeline-async-latencies.mlir", [*PIPELINER, "canonicalize", "cse"]),
    ("TritonGPU/loop-pipeline-indirect-load.mlir",
     ["tritongpu-assign-latencies", "num-stages=2", "tritongpu-schedule-loops", "tritongpu-pipeline", "num-stages=2"]),
]


def load_script(repo, name):
    """One of this folder's scripts as a module (their names have dashes)."""
    path = os.path.join(repo, "scripts", name + ".py")
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def normalised(tt_opt, normalise, text):
    """`text` printed by tt-opt, then `compare-ttgir.py`'s `normalise`."""
    out = subprocess.run([tt_opt, "--allow-unregistered-dialect", "-"], input=text, capture_output=True, text=True)
    return normalise(out.stdout) if out.returncode == 0 else None


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tests", default=os.path.join(repo, "..", "shared", "triton-3.6-tests", "test"))
    ap.add_argument("--tt-opt", default=os.path.join(repo, "target", "release", "tt-opt"))
    ap.add_argument("--show", help="print the cases of this file that differ (with --file: the diffs)")
    ap.add_argument("--file", help="check this lit file instead of Triton's")
    ap.add_argument("--passes", help="with --file: the passes, as `FLAG [key=value ...]`")
    args = ap.parse_args()
    files = FILES
    if args.file:
        files = [(os.path.abspath(args.file), args.passes.split())]
        args.show = args.show and os.path.abspath(args.file)
    oracle = load_script(repo, "triton-pass")
    normalise = load_script(repo, "compare-ttgir").normalise
    totals = {"same": 0, "differs": 0, "ours: refused": 0, "ours: parse": 0, "triton: fail": 0}
    for path, pipeline in files:
        text = open(os.path.join(args.tests, path)).read()
        counts = dict.fromkeys(totals, 0)
        for case in re.split(r"^// -----\s*$", text, flags=re.M):
            if "tt.func" not in case:
                continue
            name = (re.search(r"tt\.func\s+(?:public\s+|private\s+)?@(\w+)", case) or [None, "?"])[1]
            try:
                theirs = oracle.run(case, oracle.parse_pipeline(pipeline), False)
            except Exception:  # Triton's parser or pass rejects the case
                counts["triton: fail"] += 1
                continue
            flags = [f"--{name}" + ("=" + " ".join(f"{k}={v}" for k, v in opts.items()) if opts else "")
                     for name, opts in oracle.parse_pipeline(pipeline)]
            with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
                f.write(case)
            ours = subprocess.run([args.tt_opt, "--allow-unregistered-dialect", *flags, f.name],
                                  capture_output=True, text=True)
            os.unlink(f.name)
            if ours.returncode != 0:
                refused = "does not support" in ours.stderr or "not supported yet" in ours.stderr
                counts["ours: refused" if refused else "ours: parse"] += 1
                continue
            same = normalised(args.tt_opt, normalise, theirs) == normalised(args.tt_opt, normalise, ours.stdout)
            counts["same" if same else "differs"] += 1
            if not same and args.show == path:
                print(f"  differs: {name}")
                if args.file:
                    import difflib
                    mine = normalised(args.tt_opt, normalise, ours.stdout) or ""
                    print("\n".join(difflib.unified_diff(
                        normalised(args.tt_opt, normalise, theirs).splitlines(), mine.splitlines(),
                        "triton", "ours", lineterm="", n=2)))
        print(f"{path}: " + ", ".join(f"{k} {v}" for k, v in counts.items() if v))
        for k in totals:
            totals[k] += counts[k]
    print("total: " + ", ".join(f"{k} {v}" for k, v in totals.items()))


if __name__ == "__main__":
    sys.exit(main())
