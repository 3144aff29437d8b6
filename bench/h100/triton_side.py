"""The Triton side of the H100 comparison (runs on the device, needs Triton 3.6 + torch).

usage: python3 triton_side.py CORPUS OUTDIR [REPS [TTC]]
CORPUS holds gen.py, kernels.py and the corpus folders (NAME/NAME.ttir, NAME/result.json).
(a) For each benchmark case, gen.py's `bench` logic: run once, then
    triton.testing.do_bench (50 ms warm-up, 300 ms of reps, median); prints
    `TRITON name ms`, and writes the compiled kernel's .ttir to OUTDIR/NAME.ttir
    and {"num_warps", "num_stages"} to OUTDIR/NAME.opts.json, so the same
    specialisation can be compiled by ttc.
(b) For each of the nine corpus kernels, Triton's compile of CORPUS/NAME/NAME.ttir
    with an empty cache, as corpus compile_time.py does, median of REPS
    (default 5); prints `TCOMPILE name to_ptx_ms total_ms` where to_ptx sums the
    stages Triton runs up to the PTX (for a .ttir file: ttgir, llir and ptx; Triton
    does not run make_ttir again on an IR file) and total adds ptxas's cubin stage.
    With TTC, ours is timed in the same window, interleaved: ROUNDS rounds per
    kernel of REPS Triton compilations then `TTC --repeat REPS --time` (one
    process, cache off), so both see the same host load; prints `OCOMPILE name
    ms` (median of ttc's `stages`, the scope of Triton's to_ptx) and `OCALL name
    ms` (median of ttc's `total`, the whole call). Each side's time is the median
    of its REPS compilations in a round, taken from its best round (as timeit
    takes the best of its repeats: a round slowed by the host says nothing about
    the compiler), the same statistic for both; `MCOMPILE name triton_ms ours_ms`
    gives each side's median over the rounds instead.
    `TSTEPS name stage=ms ...` gives the stages of Triton's median compilation and
    `OSTEPS name step=ms ...` the median of each of ttc's steps, to see where the
    time goes.
"""
import json, os, subprocess, sys, tempfile, time

BENCH = ["vector_add", "rgb2grey", "softmax", "layernorm_bwd", "max_reduce"]
NINE = ["vector_add", "add_print", "copy", "rgb2grey", "softmax", "swizzle",
        "layernorm_bwd", "max_reduce", "prod_reduce"]
ROUNDS = 5


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def ttc_times(ttc, path, md, reps):
    """ttc's median time of each step (ms, `stages` and `total` included) over `reps`
    compilations in one process."""
    run = subprocess.run(
        [ttc, path, "--arch", "sm_90", "--num-warps", str(md["num_warps"]),
         "--num-stages", str(md["num_stages"]), "--no-cache", "--time", "--repeat", str(reps),
         "-o", os.devnull], capture_output=True, text=True, check=True)
    steps = {}
    for line in run.stderr.splitlines():
        words = line.split()
        if line.startswith("ttc: time: ") and len(words) >= 4:
            steps[words[2]] = float(words[3])
    return steps


def bench(gen, outdir):
    import torch, triton
    from corpus_meta import args_of
    gen.setup()
    os.makedirs(os.path.join(outdir, "triton"), exist_ok=True)
    for name in BENCH:
        run, _check, _torch_fn, _nbytes, _flops = gen.CASES[name][0](True)
        kern = run()
        torch.cuda.synchronize()
        ms = triton.testing.do_bench(run, warmup=50, rep=300, return_mode="median")
        print(f"TRITON {name} {ms:.5f}", flush=True)
        with open(os.path.join(outdir, f"{name}.ttir"), "w") as fh:
            fh.write(kern.asm["ttir"])
        opts = {"num_warps": kern.metadata.num_warps, "num_stages": kern.metadata.num_stages}
        json.dump(opts, open(os.path.join(outdir, f"{name}.opts.json"), "w"))
        md = kern.metadata
        meta = {
            "name": md.name, "target": "cuda:90", "ptx_version": 87, "num_warps": md.num_warps,
            "num_ctas": md.num_ctas, "threads_per_warp": 32, "shared": md.shared,
            "global_scratch_size": md.global_scratch_size, "global_scratch_align": md.global_scratch_align,
            "profile_scratch_size": md.profile_scratch_size, "profile_scratch_align": md.profile_scratch_align,
            "args": args_of(kern.asm["ttir"]),
        }
        with open(os.path.join(outdir, "triton", f"{name}.ptx"), "w") as fh:
            fh.write(kern.asm["ptx"])
        json.dump(meta, open(os.path.join(outdir, "triton", f"{name}.json"), "w"), indent=2)


def time_stages():
    """Wraps the NVIDIA backend's stages so that each adds its seconds to
    the returned dict (under the stage's name; the caller clears it);
    returns the dict and the backend's previous `add_stages`, to put back."""
    from triton.backends.nvidia.compiler import CUDABackend

    spent = {}
    original = CUDABackend.add_stages

    def add_stages(self, stages, options, *rest):
        original(self, stages, options, *rest)
        for key, fn in list(stages.items()):
            def timed(src, metadata, _fn=fn, _key=key):
                t = time.perf_counter()
                r = _fn(src, metadata)
                spent[_key] = spent.get(_key, 0.0) + time.perf_counter() - t
                return r
            stages[key] = timed

    CUDABackend.add_stages = add_stages
    return spent, original


def compile_times(corpus, reps, ttc):
    import triton

    stage_s, _ = time_stages()
    if hasattr(os, "sched_setaffinity"):
        cpu = max(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        print(f"PINNED {cpu}", flush=True)
    for name in NINE:
        path = os.path.join(corpus, name, f"{name}.ttir")
        md = json.load(open(os.path.join(corpus, name, "result.json")))["metadata"]
        rounds, ours = [], []
        for _ in range(ROUNDS if ttc else 1):
            runs = []
            for _ in range(reps):
                stage_s.clear()
                with tempfile.TemporaryDirectory() as cache:
                    os.environ["TRITON_CACHE_DIR"] = cache
                    t = time.perf_counter()
                    triton.compile(path, options={"num_warps": md["num_warps"],
                                                  "num_stages": md["num_stages"]})
                    total = time.perf_counter() - t
                to_ptx = sum(v for k, v in stage_s.items() if k != "cubin")
                runs.append((to_ptx, total, dict(stage_s)))
            runs.sort(key=lambda r: r[:2])
            rounds.append(runs[len(runs) // 2])
            if ttc:
                ours.append(ttc_times(ttc, path, md, reps))
        to_ptx, total, stages = min(rounds, key=lambda r: r[:2])
        print(f"TCOMPILE {name} {to_ptx * 1e3:.2f} {total * 1e3:.2f}", flush=True)
        print(f"TSTEPS {name} " + " ".join(f"{k}={v * 1e3:.2f}" for k, v in stages.items()),
              flush=True)
        if ours:
            best = min(ours, key=lambda o: o["stages"])
            print(f"OCOMPILE {name} {best['stages']:.3f}", flush=True)
            print(f"OCALL {name} {min(o['total'] for o in ours):.3f}", flush=True)
            print(f"OSTEPS {name} " + " ".join(f"{k}={v:.2f}" for k, v in best.items()),
                  flush=True)
            print(f"MCOMPILE {name} {median([r[0] for r in rounds]) * 1e3:.2f} "
                  f"{median([o['stages'] for o in ours]):.3f}", flush=True)


def main():
    corpus, outdir = os.path.abspath(sys.argv[1]), sys.argv[2]
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    ttc = sys.argv[4] if len(sys.argv) > 4 else None
    os.makedirs(outdir, exist_ok=True)
    sys.path.insert(0, corpus)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gen
    bench(gen, outdir)
    compile_times(corpus, reps, ttc)


if __name__ == "__main__":
    main()
