"""Compares two runs of Triton's test_core.py (JSON lines from conftest.py's
reporter): Triton's own compiler and this project's through triton_rs.

usage: python3 compare.py TRITON.jsonl OURS.jsonl

Prints each side's counts, then every case that Triton passes and this
project does not, in three groups: refusals on the dot path (tt.dot and
tt.dot_scaled, owned by later issues), other refusals (a CompileError
saying what is not supported yet), and everything else: wrong results,
crashes and unexpected errors, which must stay at zero. Cases the run did
not reach (a time limit) are counted apart."""

import collections
import json
import re
import sys

DOT_TESTS = re.compile(r"test_(dot|scaled_dot|dot3d|dot_max_num_imprecise_acc|dot_mulbroadcasted|"
                       r"dot_without_load|dot_multidim|dot_choice|dot_fp8|dot_b16|dot_ieee|tensor_dot)")


def load(path):
    cases = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if line:
                record = json.loads(line)
                cases[record["id"]] = record
    return cases


def counts(cases):
    tally = collections.Counter(record["outcome"] for record in cases.values())
    return f"{tally['passed']} passed, {tally['failed']} failed, {tally['skipped']} skipped ({len(cases)} cases)"


def short(case_id):
    return case_id.split("::", 1)[-1]


def is_refusal(message):
    return "CompileError" in message


def is_dot(case_id, message):
    return bool(DOT_TESTS.search(case_id)) or "tt.dot" in message or "dot_scaled" in message


def main(triton_path, ours_path):
    triton, ours = load(triton_path), load(ours_path)
    print(f"triton: {counts(triton)}")
    print(f"ours:   {counts(ours)}")
    groups = collections.defaultdict(list)
    for case_id, record in sorted(triton.items()):
        if record["outcome"] != "passed":
            continue
        mine = ours.get(case_id)
        if mine is None:
            groups["not run"].append((case_id, ""))
        elif mine["outcome"] == "passed":
            groups["passed"].append((case_id, ""))
        elif mine["outcome"] == "skipped":
            groups["skipped here"].append((case_id, mine.get("message", "")))
        else:
            message = mine.get("message", "")
            if is_refusal(message):
                kind = "dot refusals" if is_dot(case_id, message) else "other refusals"
            else:
                kind = "wrong results, crashes and other errors"
            groups[kind].append((case_id, message))
    better = [case_id for case_id, record in ours.items()
              if record["outcome"] == "passed" and triton.get(case_id, {}).get("outcome") == "failed"]
    passed_by_triton = sum(len(v) for v in groups.values())
    print(f"of the {passed_by_triton} cases Triton passes: {len(groups['passed'])} pass here, "
          f"{len(groups['dot refusals'])} dot refusals, {len(groups['other refusals'])} other refusals, "
          f"{len(groups['wrong results, crashes and other errors'])} wrong results, crashes and other errors, "
          f"{len(groups['skipped here'])} skipped here, {len(groups['not run'])} not run")
    print(f"cases Triton fails and this project passes: {len(better)}")
    for kind in ("wrong results, crashes and other errors", "other refusals", "dot refusals", "skipped here",
                 "not run"):
        cases = groups[kind]
        if not cases:
            continue
        print(f"\n== {kind}: {len(cases)}")
        by_test = collections.defaultdict(list)
        for case_id, message in cases:
            by_test[short(case_id).split("[")[0]].append((case_id, message))
        for test, items in sorted(by_test.items()):
            print(f"{test}: {len(items)}")
            limit = len(items) if kind.startswith("wrong") else 3
            for case_id, message in items[:limit]:
                print(f"    {short(case_id)}  {message[:240]}")
            if len(items) > limit:
                print(f"    ... {len(items) - limit} more")
    return 1 if groups["wrong results, crashes and other errors"] else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
