#!/usr/bin/env python3
"""Runs Triton 3.6's own lit tests (`../shared/triton-3.6-tests/test`, the
97 NVIDIA-relevant files, unchanged) with `tt-opt` in place of `triton-opt`
under LLVM 22's `lit` (`test/triton-lit/lit.cfg.py`), prints how many pass
per folder, and compares every file's outcome with
`test/triton-lit/expected-failures.txt` (one `path | reason` line per file
that does not pass yet; the reason is the first error it shows).

    scripts/triton-lit.py [--tests DIR] [--tools DIR] [--update]

Exit status 1 when a file fails that the list does not name (a regression,
or a new file), or passes while the list names it (it leaves the list only
by passing: run with `--update`, which rewrites the list from this run).
Without the tests directory (`$TRITON_TESTS`, else
`<repo>/../shared/triton-3.6-tests/test`) it says so and exits 0.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "test", "triton-lit", "expected-failures.txt")
LLVM = "/usr/lib/llvm-22/bin"


def first_error(output):
    """The first line that says what went wrong, without paths."""
    for line in output.splitlines():
        if "command failed with exit status" in line:
            continue
        if "error:" in line or "Assertion" in line or "unknown" in line.lower():
            text = line.split("error:", 1)[-1].strip()
            text = re.sub(r"\S*/", "", text)
            return re.sub(r"\s+", " ", text)[:200]
    return "no error message (FileCheck or exit status)"


def read_list():
    expected = {}
    if os.path.exists(LIST):
        for line in open(LIST):
            line = line.strip()
            if line and not line.startswith("#"):
                path, _, reason = line.partition(" | ")
                expected[path.strip()] = reason.strip()
    return expected


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tests", default=os.environ.get(
        "TRITON_TESTS", os.path.join(ROOT, "..", "shared", "triton-3.6-tests", "test")))
    ap.add_argument("--tools", default=os.path.join(ROOT, "target", "release"),
                    help="the directory holding tt-opt")
    ap.add_argument("--update", action="store_true", help="rewrite the expected-failures list")
    args = ap.parse_args()
    tests = os.path.abspath(args.tests)
    if not os.path.isdir(tests):
        print(f"triton-lit: skipped: no Triton lit tests at {tests} (set TRITON_TESTS)")
        return 0
    lit = os.path.join(LLVM, "lit")
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, TRITON_LIT_TESTS=tests, TRITON_LIT_OUT=out,
                   PATH=os.pathsep.join([os.path.abspath(args.tools), LLVM, os.environ.get("PATH", "")]))
        results = os.path.join(out, "results.json")
        subprocess.run([sys.executable, lit, os.path.join(ROOT, "test", "triton-lit"), "-q", "-o", results],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        if not os.path.exists(results):
            sys.exit(f"triton-lit: {lit} wrote no results")
        with open(results) as f:
            report = json.load(f)
    outcomes = {}
    for test in report["tests"]:
        path = test["name"].split(" :: ", 1)[1]
        outcomes[path] = (test["code"], test.get("output", ""))
    per_folder = collections.defaultdict(lambda: [0, 0])
    for path, (code, _) in sorted(outcomes.items()):
        folder = per_folder[path.split("/")[0]]
        folder[1] += 1
        folder[0] += code == "PASS"
    for folder, (passed, total) in sorted(per_folder.items()):
        print(f"{folder:<18} {passed:>3} of {total:>3} pass")
    passed = sum(p for p, _ in per_folder.values())
    print(f"{'total':<18} {passed:>3} of {len(outcomes):>3} pass")

    failing = {p: first_error(o) for p, (c, o) in outcomes.items() if c != "PASS"}
    if args.update:
        with open(LIST, "w") as f:
            f.write("# Triton 3.6 lit files that do not pass with tt-opt yet, each with the first\n"
                    "# error it shows (scripts/triton-lit.py --update writes this list; a file\n"
                    "# leaves it only by passing).\n")
            for path in sorted(failing):
                f.write(f"{path} | {failing[path]}\n")
        print(f"triton-lit: wrote {len(failing)} expected failures to {os.path.relpath(LIST, ROOT)}")
        return 0
    expected = read_list()
    new = sorted(p for p in failing if p not in expected)
    fixed = sorted(p for p in expected if p in outcomes and p not in failing)
    print(f"expected failures: {len(expected)}")
    for path in sorted(expected):
        print(f"  {path}: {expected[path]}")
    for path in new:
        print(f"FAIL (not in the list): {path}: {failing[path]}")
    for path in fixed:
        print(f"PASS (still in the list, remove it: scripts/triton-lit.py --update): {path}")
    return 1 if new or fixed else 0


if __name__ == "__main__":
    sys.exit(main())
