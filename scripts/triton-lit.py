#!/usr/bin/env python3
"""Runs Triton 3.6's own lit tests (`../shared/triton-3.6-tests/test`, the
97 NVIDIA-relevant files, unchanged) with `tt-opt` in place of `triton-opt`
under LLVM 22's `lit` (`test/triton-lit/lit.cfg.py`), prints how many pass
per folder, and compares every file's outcome with
`test/triton-lit/expected-failures.txt` (one `path | kind | reason` line per
file that does not pass yet: `kind` is `blackwell` or `amd` where the file
needs hardware paths this project does not build for, `upstream` where Triton
3.6.0 itself or MLIR 22 stands in the way, `todo` otherwise; the reason says
what is missing, and the runner prints each file's first error of this run
under it).

    scripts/triton-lit.py [--tests DIR] [--tools DIR] [--update]

Files stay as upstream wrote them, except for the cases named in
`test/triton-lit/skipped-cases.txt` (`path | text | kind | reason`: the
case of `path`, split at `// -----`, that contains `text`), which are cut
from a copy of the file before it runs; at most 10% of a file's cases may
be cut, and the runner prints each with its kind and reason. `kind` is
`refusal` where this project stops the case with a located error (Triton
emits code the target cannot run), or `ir-shape` where the case checks the
shape of Triton's own intermediate LLVM dialect (the struct each op packs
its registers into and the next op unpacks, an unpredicated store of
duplicated elements) rather than what the code computes: this project's
lowering hands registers from op to op without the struct, and the reason
says what the case's checks need and what this project emits instead.

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
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(ROOT, "test", "triton-lit", "expected-failures.txt")
SKIPS = os.path.join(ROOT, "test", "triton-lit", "skipped-cases.txt")
SPLIT = re.compile(r"^// -----.*$", re.M)
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


KINDS = ("blackwell", "amd", "upstream", "todo")
SKIP_KINDS = ("refusal", "ir-shape")


def read_list():
    """path -> (kind, reason) for each expected failure."""
    expected = {}
    if os.path.exists(LIST):
        for line in open(LIST):
            line = line.strip()
            if line and not line.startswith("#"):
                path, kind, reason = (part.strip() for part in line.split(" | ", 2))
                if kind not in KINDS:
                    sys.exit(f"triton-lit: {path}: kind '{kind}' is not one of {', '.join(KINDS)}")
                expected[path] = (kind, reason)
    return expected


def read_skips():
    """(path, text, kind, reason) for each skipped case."""
    skips = []
    if os.path.exists(SKIPS):
        for line in open(SKIPS):
            line = line.strip()
            if line and not line.startswith("#"):
                path, text, kind, reason = (part.strip() for part in line.split(" | ", 3))
                if kind not in SKIP_KINDS:
                    sys.exit(f"triton-lit: skip '{text}' of {path}: kind '{kind}' is not one of "
                             + ", ".join(SKIP_KINDS))
                skips.append((path, text, kind, reason))
    return skips


def cut_cases(tests, copy, skips):
    """Copies the tests to `copy` without the skipped cases; exits on a
    skip that names no case, several, or more than 10% of a file's."""
    shutil.copytree(tests, copy)
    by_file = collections.defaultdict(list)
    for path, text, _, _ in skips:
        by_file[path].append(text)
    for path, cases in sorted(by_file.items()):
        source = open(os.path.join(tests, path)).read()
        parts = SPLIT.split(source)
        keep = [True] * len(parts)
        for text in cases:
            hits = [i for i, part in enumerate(parts) if text in part]
            if len(hits) != 1:
                sys.exit(f"triton-lit: skip '{text}' of {path} matches {len(hits)} cases, not one")
            if hits[0] == 0:
                sys.exit(f"triton-lit: skip '{text}' of {path} is in the first case, which holds the RUN lines")
            keep[hits[0]] = False
        if 10 * keep.count(False) > len(parts):
            sys.exit(f"triton-lit: {path}: {keep.count(False)} of {len(parts)} cases skipped, more than 10%")
        text = "\n// -----\n".join(part for part, k in zip(parts, keep) if k)
        with open(os.path.join(copy, path), "w") as f:
            f.write(text)


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
    skips = read_skips()
    with tempfile.TemporaryDirectory() as out:
        source = os.path.join(out, "tests")
        cut_cases(tests, source, skips)
        env = dict(os.environ, TRITON_LIT_TESTS=source, TRITON_LIT_OUT=out,
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
    print(f"skipped cases: {len(skips)}")
    for path, text, kind, reason in skips:
        print(f"  {path}, the case of '{text}' [{kind}]: {reason}")

    failing = {p: first_error(o) for p, (c, o) in outcomes.items() if c != "PASS"}
    expected = read_list()
    if args.update:
        # Files still failing keep their kind and reason; new ones start as
        # `todo` with their first error, to be explained by hand.
        with open(LIST, "w") as f:
            f.write("# Triton 3.6 lit files that do not pass with tt-opt yet: path | kind |\n"
                    "# reason (scripts/triton-lit.py explains the kinds; --update rewrites\n"
                    "# this list, keeping the reasons of files still failing; a file leaves it\n"
                    "# only by passing).\n")
            for path in sorted(failing):
                kind, reason = expected.get(path, ("todo", failing[path]))
                f.write(f"{path} | {kind} | {reason}\n")
        print(f"triton-lit: wrote {len(failing)} expected failures to {os.path.relpath(LIST, ROOT)}")
        return 0
    new = sorted(p for p in failing if p not in expected)
    fixed = sorted(p for p in expected if p in outcomes and p not in failing)
    kinds = collections.Counter(kind for kind, _ in expected.values())
    print(f"expected failures: {len(expected)} ("
          + ", ".join(f"{kinds[k]} {k}" for k in KINDS if kinds[k]) + ")")
    for path in sorted(expected):
        kind, reason = expected[path]
        print(f"  {path} [{kind}]: {reason}")
        if path in failing:
            print(f"      first error now: {failing[path]}")
    for path in new:
        print(f"FAIL (not in the list): {path}: {failing[path]}")
    for path in fixed:
        print(f"PASS (still in the list, remove it: scripts/triton-lit.py --update): {path}")
    return 1 if new or fixed else 0


if __name__ == "__main__":
    sys.exit(main())
