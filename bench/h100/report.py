"""Merge the logs of run.sh into LOGDIR/results.md and LOGDIR/results.csv.

usage: python3 report.py LOGDIR MODE
Reads LOGDIR/check.log (CHECK name err triton_err verdict), LOGDIR/triton.log
(TRITON name ms, TCOMPILE name to_ptx_ms total_ms, and interleaved with them OCOMPILE
name ms: ours in one process, the stages Triton's to_ptx times cover, OCALL name ms: the
whole compile call in one process) and LOGDIR/ours.log (BENCH name ms, TBENCH name ms:
Triton's PTX under tt-run, OCOLD name ms: a fresh ttc process each). Ratios are ours / Triton: below 1 is faster.
"""
import csv, os, sys

NINE = ["vector_add", "add_print", "copy", "rgb2grey", "softmax", "swizzle",
        "layernorm_bwd", "max_reduce", "prod_reduce"]


def lines(path, tag):
    if not os.path.exists(path):
        return {}
    rows = {}
    for line in open(path):
        parts = line.split()
        if len(parts) >= 3 and parts[0] == tag:
            rows[parts[1]] = parts[2:]
    return rows


def num(rows, name, i=0):
    try:
        return float(rows[name][i])
    except (KeyError, IndexError, ValueError):
        return None


def ratio(a, b):
    return a / b if a is not None and b else None


def main():
    out, mode = sys.argv[1], sys.argv[2]
    check = lines(os.path.join(out, "check.log"), "CHECK")
    triton = lines(os.path.join(out, "triton.log"), "TRITON")
    tcompile = lines(os.path.join(out, "triton.log"), "TCOMPILE")
    bench = lines(os.path.join(out, "ours.log"), "BENCH")
    ocompile = lines(os.path.join(out, "triton.log"), "OCOMPILE")
    ocold = lines(os.path.join(out, "ours.log"), "OCOLD")
    ocall = lines(os.path.join(out, "triton.log"), "OCALL")
    tbench = lines(os.path.join(out, "ours.log"), "TBENCH")
    mcompile = lines(os.path.join(out, "triton.log"), "MCOMPILE")
    header = ["kernel", "err", "triton_err", "check", "ours_ms", "triton_ms", "kernel_ratio",
              "triton_ptx_ms", "same_runner_ratio",
              "ours_compile_ms", "triton_compile_ms", "compile_ratio", "compile_ratio_median",
              "ours_call_ms",
              "call_ratio", "ours_process_ms", "process_ratio"]
    rows = []
    for n in NINE + ["matmul", "matmul_naive"]:  # the matmuls: checks only
        c = check.get(n, ["-", "-", "missing"])
        ours_ms, triton_ms = num(bench, n), num(triton, n)
        oc, tc, cold = num(ocompile, n), num(tcompile, n), num(ocold, n)
        call = num(ocall, n)
        median_ratio = ratio(num(mcompile, n, 1), num(mcompile, n, 0))
        tptx = num(tbench, n)
        rows.append([n, c[0], c[1], " ".join(c[2:]), ours_ms, triton_ms, ratio(ours_ms, triton_ms),
                     tptx, ratio(ours_ms, tptx),
                     oc, tc, ratio(oc, tc), median_ratio, call, ratio(call, tc), cold, ratio(cold, tc)])
    with open(os.path.join(out, "results.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows([["" if v is None else v for v in r] for r in rows])
    fmt = lambda v: "-" if v is None else (f"{v:.4g}" if isinstance(v, float) else str(v))
    with open(os.path.join(out, "results.md"), "w") as fh:
        fh.write(f"Kernels from: {mode}. Ratios are ours / Triton (below 1: ours is faster). "
                 "triton_ms: Triton's launcher and do_bench; triton_ptx_ms: Triton's PTX run by tt-run, "
                 "as ours is (same_runner_ratio = ours_ms / triton_ptx_ms). "
                 "Compile times: .ttir to PTX, cache off, Triton's and ours interleaved in five "
                 "rounds on one pinned CPU; each side's median compilation of its best round "
                 "(compile_ratio_median: each side's median over the rounds). triton_compile_ms is the sum of Triton's stage functions "
                 "(the parsed module to the PTX text: make_ttgir to make_ptx, since Triton does not "
                 "run make_ttir again on a .ttir file; its context, parsing and ptxas are outside it); "
                 "ours_compile_ms is the same scope in one process plus our make-ttir, which ttc does "
                 "run again (ttc --repeat: one Compiler reused, as a frontend keeps one; its "
                 "dialects load before the stages, as Triton's load_dialects; `stages`), "
                 "ours_call_ms our whole compile call in that process (context, parse, printing "
                 "the stages and teardown too), "
                 "ours_process_ms a fresh ttc process each (start-up of the static binary "
                 "included).\n\n")
        fh.write("| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n")
        for r in rows:
            fh.write("| " + " | ".join(fmt(v) for v in r) + " |\n")
        for group, what in (("SCAN", "tt.scan"), ("CVT", "ttg.convert_layout")):
            cases = lines(os.path.join(out, "check.log"), group)
            if cases:
                passed = [n for n, v in cases.items() if v[0] == "PASS"]
                fh.write(f"\n{what} on the GPU (op_check.py, against torch): {len(passed)}/{len(cases)} "
                         f"PASS ({', '.join(sorted(cases))})\n")
        times = lines(os.path.join(out, "check.log"), "CVTTIME")
        mixes = lines(os.path.join(out, "check.log"), "CVTMIX")

        def shuffles(name):
            # CVTMIX name ours k=v ... | triton k=v ...: shfl.sync and prmt.b32 counts.
            words = mixes.get(name)
            if not words or "|" not in words:
                return "-"
            cut = words.index("|")
            count = lambda side, key: next((w.split("=")[1] for w in side if w.startswith(key + "=")), "?")
            ours, theirs = words[1:cut], words[cut + 2:]
            return (f"{count(ours, 'shfl.sync')} / {count(theirs, 'shfl.sync')}, "
                    f"{count(ours, 'prmt.b32')} / {count(theirs, 'prmt.b32')}")

        if times:
            fh.write("\n| convert kernel | ours_ms | triton_ms (same launcher) | ratio | shared bytes ours / Triton "
                     "| shfl, prmt ours / Triton |\n|---|---|---|---|---|---|\n")
            for n, v in sorted(times.items()):
                fh.write(f"| {n} | {v[0]} | {v[1]} | {v[2]} | {v[4]} / {v[5]} | {shuffles(n)} |\n")
        if "add_print_stdout" in check:
            fh.write(f"\nadd_print device output vs corpus stdout.log: {' '.join(check['add_print_stdout'])}\n")


if __name__ == "__main__":
    main()
