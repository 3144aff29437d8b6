#!/usr/bin/env bash
# Stage benchmark (not a test): for every corpus kernel, the median wall time
# (TT_BENCH_RUNS runs, default 21) of tt-opt (release) running
#   --make-ttir  on the frontend's output (the first section of passes.log),
#   --make-ttgir on the kernel's .ttir (num-warps from its .ttgir),
# each as the whole process (start, parse, verify, passes, print) and as the
# pass pipeline alone (--mlir-timing). A stage that stops with an error
# prints "refused".
#
# Usage: bench/stages.sh
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
WORK="$TARGET/bench/stages"
mkdir -p "$WORK"

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# time_stage INPUT FLAG: prints "process_ms pipeline_ms", or "refused".
time_stage() {
    local input=$1 flag=$2 process=() pipeline=() start end report
    if ! "$TT_OPT" "$input" "$flag" > /dev/null 2>&1; then
        echo refused
        return
    fi
    for _ in $(seq "$RUNS"); do
        start=$(date +%s%N)
        report=$("$TT_OPT" "$input" "$flag" --mlir-timing 2>&1 >/dev/null)
        end=$(date +%s%N)
        process+=("$(( (end - start) / 1000 ))")
        # The last report is the pass manager's; its Total line is in seconds.
        pipeline+=("$(printf '%s\n' "$report" | awk '/Total$/ { t = $1 } END { print t * 1000000 }')")
    done
    awk -v p="$(printf '%s\n' "${process[@]}" | median)" \
        -v q="$(printf '%s\n' "${pipeline[@]}" | median)" \
        'BEGIN { printf "%.2f %.2f\n", p / 1000, q / 1000 }'
}

printf '%-16s %22s %22s\n' "" "make-ttir ms" "make-ttgir ms"
printf '%-16s %11s %10s %11s %10s\n' kernel process pipeline process pipeline
for dir in "$CORPUS"/*/; do
    kernel="$(basename "$dir")"
    [ -f "$dir/passes.log" ] || continue
    frontend="$WORK/$kernel.frontend.mlir"
    # The first section: from the first header to the next one.
    awk 'NR > 1 && /^\/\/ -----\/\/ / { exit } NR > 1 { print }' "$dir/passes.log" > "$frontend"
    warps=$(grep -o '"ttg.num-warps" = [0-9]*' "$dir/$kernel.ttgir" | grep -o '[0-9]*$')
    ttir=$(time_stage "$frontend" --make-ttir)
    ttgir=$(time_stage "$dir/$kernel.ttir" "--make-ttgir=num-warps=$warps num-ctas=1 num-stages=3 target=cuda:90")
    printf '%-16s %22s %22s\n' "$kernel" "$ttir" "$ttgir"
done
