#!/usr/bin/env bash
# On the GPU machine: Triton's tutorials (default 01 02 04 05) run unchanged,
# with Triton's own compiler and through the triton_rs package in strict
# mode, alternating, TT_ROUNDS times each (default 2); their perf_report
# tables are compared (compare.py: each side's best round per size) and
# plotted, and the tutorial kernels' compile times (frontend to cubin) are
# measured both ways (compile_time.py).
#   OUT=... bash bench/tutorials/run.sh [01 02 ...]
# Needs .device/wheels/triton_rs-*.whl and the tutorials in .device/tutorials
# (see README.md). Writes results.txt, tutorials.png and logs.tar.gz to $OUT.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/bench/tutorials"
OUT=${OUT:-/tmp/tutorials}
PY=${PYTHON:-/opt/torch/.venv/bin/python}
TUTORIALS="$ROOT/.device/tutorials"
mkdir -p "$OUT"
W=$(mktemp -d)
"$PY" -m pip install -q --no-index --no-deps --force-reinstall "$ROOT"/.device/wheels/triton_rs-*.whl || exit 2
status=0
for number in "${@:-01 02 04 05}"; do
  for n in $number; do
    path=$(ls "$TUTORIALS"/"$n"-*.py)
    for round in $(seq 1 "${TT_ROUNDS:-2}"); do
      for mode in triton ours; do
        mkdir -p "$W/$mode"
        start=$(date +%s)
        (cd "$W/$mode" && if [ "$mode" = ours ]; then export TRITON_RS=strict; else unset TRITON_RS; fi &&
          MPLBACKEND=Agg TRITON_CACHE_DIR="$W/cache-$mode" PYTHONUNBUFFERED=1 \
          timeout 400 "$PY" "$HERE/run_tutorial.py" "$path" "$W/$n.$mode.$round" > "$W/$n.$mode.$round.log" 2>&1)
        rc=$?
        echo "TUTORIAL $n $mode round $round exit $rc after $(( $(date +%s) - start )) s"
        [ $rc -eq 0 ] || { status=1; tail -5 "$W/$n.$mode.$round.log"; }
      done
    done
  done
done
grep -h "maximum difference" "$W"/*.log
"$PY" "$HERE/compare.py" "$W" "$OUT/tutorials.png" | tee "$OUT/results.txt" | grep -v '^RATIO'
if [ -z "${TT_SKIP_COMPILE:-}" ]; then
  "$PY" "$HERE/compile_time.py" "$TUTORIALS" "${TT_REPS:-7}" 2>/dev/null | tee -a "$OUT/results.txt"
fi
tar -czf "$OUT/logs.tar.gz" -C "$W" $(cd "$W" && ls *.log *.csv 2>/dev/null)
exit $status
