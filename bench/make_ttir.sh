#!/usr/bin/env bash
# make_ttir benchmark (not a test): for every corpus kernel, runs
# `tt-opt --make-ttir` (release build) on the frontend's output (the first
# section of its passes.log) RUNS times and prints the median wall time of
# the whole process (start, parse, verify, passes, print) and the median time
# of the pass pipeline alone (from --mlir-timing).
#
# Usage: bench/make_ttir.sh
# Environment: TT_CORPUS (corpus folder, default <repo>/../shared/corpus),
#   CARGO_TARGET_DIR (default <repo>/target), TT_BENCH_RUNS (default 21).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORPUS="${TT_CORPUS:-$ROOT/../shared/corpus}"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
RUNS="${TT_BENCH_RUNS:-21}"

[ -d "$CORPUS" ] || { echo "no corpus at $CORPUS (set TT_CORPUS)" >&2; exit 1; }

echo "== building tt-opt (release)"
(cd "$ROOT" && cargo build --release -p tt-opt)
TT_OPT="$TARGET/release/tt-opt"
WORK="$TARGET/bench/make_ttir"
mkdir -p "$WORK"

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-16s %10s %14s %14s\n' kernel "input KB" "process ms" "pipeline ms"
for dir in "$CORPUS"/*/; do
    kernel="$(basename "$dir")"
    log="$dir/passes.log"
    [ -f "$log" ] || continue
    input="$WORK/$kernel.mlir"
    # The first section: from the first header to the next one.
    awk 'NR > 1 && /^\/\/ -----\/\/ / { exit } NR > 1 { print }' "$log" > "$input"
    process=()
    pipeline=()
    for _ in $(seq "$RUNS"); do
        start=$(date +%s%N)
        report=$("$TT_OPT" "$input" --make-ttir --mlir-timing 2>&1 >/dev/null)
        end=$(date +%s%N)
        process+=("$(( (end - start) / 1000 ))")
        # The last report is the pass manager's; its Total line is in seconds.
        pipeline+=("$(printf '%s\n' "$report" | awk '/Total$/ { t = $1 } END { print t * 1000000 }')")
    done
    size_kb=$(( $(wc -c < "$input") / 1024 ))
    p=$(printf '%s\n' "${process[@]}" | median)
    q=$(printf '%s\n' "${pipeline[@]}" | median)
    awk -v k="$kernel" -v s="$size_kb" -v p="$p" -v q="$q" \
        'BEGIN { printf "%-16s %10d %14.2f %14.2f\n", k, s, p / 1000, q / 1000 }'
done
