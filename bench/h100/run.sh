#!/usr/bin/env bash
# The whole H100 flow in one command (run it on the device machine, from the
# repository root; see README.md for the carry list):
#   1. unpack the carried ttc (.device/ttc.zst or .device/ttc.xz);
#   2. compile the nine non-dot corpus .ttir and the two matmuls' with ttc (warps/stages
#      from result.json);
#   3. tt-run check, add_print's device output against corpus stdout.log, op_check.py;
#      with ttc, the same kernels again as clusters of two CTAs;
#   4. triton_side.py: Triton's kernel times and bench .ttir, Triton's compile times and,
#      interleaved with them, ours in one process (ttc --repeat, as Triton's are taken: the
#      stages Triton times, and the whole call; median, cache off);
#   5. ttc on the bench .ttir, tt-run bench; our compile time in a fresh process each;
#   6. results.md / results.csv / results.png under $OUT, and logs.tar.gz (the logs,
#      Triton's bench .ttir/.opts.json and Triton's bench PTX): $OUT keeps 8 files at most.
# TT_PTX=triton runs the checks on Triton's own corpus PTX and the benchmarks on
# Triton's own bench PTX instead of ttc's (validates the runner, its timing and
# this script before the compiler exists; compile times are then Triton's only).
# Environment: OUT (default /tmp/tt-h100), TT_REPS (compile reps, default 5).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DEV="$ROOT/.device"
CORPUS="$DEV/corpus"
OUT="${OUT:-/tmp/tt-h100}"
REPS="${TT_REPS:-5}"
MODE="${TT_PTX:-ttc}"
HERE="$ROOT/bench/h100"
W="$(mktemp -d)"
NINE="vector_add add_print copy rgb2grey softmax swizzle layernorm_bwd max_reduce prod_reduce"
DOTS="matmul matmul_naive"
LOG="$W/logs"
mkdir -p "$OUT" "$LOG"
TT_RUN="$DEV/bin/tt-run"
status=0
fail() { echo "FAIL: $*" | tee -a "$LOG/failures.txt"; status=1; }

# Warps and stages of a corpus kernel: "NUM_WARPS NUM_STAGES".
opts() { python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); m=m.get("metadata", m); print(m["num_warps"], m["num_stages"])' "$1"; }

TTC=""
if [ "$MODE" = ttc ]; then
  echo "== unpacking ttc"
  if [ -f "$DEV/ttc.zst" ] && command -v zstd >/dev/null; then
    zstd -dqf "$DEV/ttc.zst" -o "$W/ttc"
  elif [ -f "$DEV/ttc.xz" ]; then
    python3 -c 'import lzma,sys; open(sys.argv[2],"wb").write(lzma.open(sys.argv[1]).read())' "$DEV/ttc.xz" "$W/ttc"
  else
    echo "no .device/ttc.zst (with zstd) or .device/ttc.xz" >&2; exit 2
  fi
  chmod +x "$W/ttc"; TTC="$W/ttc"
fi

# compile SRC.ttir WARPS STAGES OUTDIR NAME [TTC FLAGS...]: OUTDIR/NAME.ptx + NAME.json
compile() {
  "$TTC" "$1" --arch sm_90 --num-warps "$2" --num-stages "$3" "${@:6}" -o "$4/$5.ptx" 2>>"$LOG/ttc.log" \
    || fail "ttc $5 ($1)${6:+ ${*:6}}"
}

echo "== kernels for the checks ($MODE)"
mkdir -p "$W/ours"
if [ "$MODE" = ttc ]; then
  for n in $NINE $DOTS; do
    read -r nw ns < <(opts "$CORPUS/$n/result.json")
    compile "$CORPUS/$n/$n.ttir" "$nw" "$ns" "$W/ours" "$n"
  done
else
  python3 "$HERE/corpus_meta.py" "$CORPUS" "$W/ours"
fi

echo "== tt-run check"
"$TT_RUN" check "$W/ours" "$CORPUS" > "$LOG/check.log" 2>&1 || fail "tt-run check"
grep '^CHECK' "$LOG/check.log"
if [ "$MODE" = ttc ]; then
  # The same kernels as clusters of two CTAs (num_ctas=2): tt-run launches
  # them as Triton's launcher does; every result must stay the same.
  echo "== tt-run check, clusters of two CTAs"
  mkdir -p "$W/cluster"
  for n in $NINE $DOTS; do
    read -r nw ns < <(opts "$CORPUS/$n/result.json")
    compile "$CORPUS/$n/$n.ttir" "$nw" "$ns" "$W/cluster" "$n" --num-ctas 2
  done
  "$TT_RUN" check "$W/cluster" "$CORPUS" > "$LOG/cluster.log" 2>&1 || fail "tt-run check (clusters)"
  grep '^CHECK' "$LOG/cluster.log" | sed 's/^CHECK /CHECK cluster /'
fi
# gen.py's one() ran add_print twice, so the corpus log has every line twice.
grep 'device_print' "$LOG/check.log" | sed p | sort > "$W/print.ours"
grep 'device_print' "$CORPUS/add_print/stdout.log" | sort > "$W/print.triton"
if [ -s "$W/print.triton" ] && cmp -s "$W/print.ours" "$W/print.triton"; then
  echo "CHECK add_print_stdout $(wc -l < "$W/print.ours") lines PASS" | tee -a "$LOG/check.log"
else
  diff "$W/print.ours" "$W/print.triton" | head -20
  echo "CHECK add_print_stdout FAIL" | tee -a "$LOG/check.log"; status=1
fi

if [ "$MODE" = ttc ]; then
  echo "== tt.scan and ttg.convert_layout: Triton's kernels compiled by ttc, against torch"
  python3 "$HERE/op_check.py" "$TTC" "$W/ops" > "$LOG/ops.log" 2>&1 || fail "op_check.py"
  grep -E '^(SCAN|CVT|CVTTIME|CVTMIX) ' "$LOG/ops.log" | tee -a "$LOG/check.log"
fi

echo "== Triton: kernel times, bench .ttir, compile times"
# With ttc, our in-process compile times are taken there too, interleaved
# with Triton's (the host's speed drifts; see triton_side.py).
python3 "$HERE/triton_side.py" "$CORPUS" "$W/tbench" "$REPS" $TTC > "$LOG/triton.log" 2> "$LOG/triton.err" \
  || { fail "triton_side.py"; tail -20 "$LOG/triton.err"; }
grep -E '^(TRITON|TCOMPILE|OCOMPILE|OCALL|MCOMPILE) ' "$LOG/triton.log"

echo "== our bench kernels and compile times"
mkdir -p "$W/obench"
: > "$LOG/ours.log"
if [ "$MODE" = ttc ]; then
  for f in "$W"/tbench/*.ttir; do
    n="$(basename "$f" .ttir)"
    read -r nw ns < <(opts "$W/tbench/$n.opts.json")
    compile "$f" "$nw" "$ns" "$W/obench" "$n"
  done
  for n in $NINE; do
    read -r nw ns < <(opts "$CORPUS/$n/result.json")
    # Cold: a fresh ttc process per compilation, start-up included.
    for _ in $(seq "$REPS"); do
      t0=$(date +%s%N)
      "$TTC" "$CORPUS/$n/$n.ttir" --arch sm_90 --num-warps "$nw" --num-stages "$ns" --no-cache \
        -o "$W/time.ptx" >/dev/null 2>&1 || { fail "ttc timing $n"; break; }
      echo $(( ($(date +%s%N) - t0) / 1000 ))
    done | sort -n | awk -v n="$n" '{ v[NR] = $1 } END { if (NR) printf "OCOLD %s %.2f\n", n, v[int((NR + 1) / 2)] / 1000 }' >> "$LOG/ours.log"
  done
else
  cp "$W"/tbench/triton/* "$W/obench/"
fi
"$TT_RUN" bench "$W/obench" >> "$LOG/ours.log" 2>&1 || fail "tt-run bench"
# Triton's own bench PTX under the same runner: a ratio free of the two
# harnesses' differences (Triton's launcher and do_bench against tt-run).
"$TT_RUN" bench "$W/tbench/triton" 2>&1 | sed 's/^BENCH /TBENCH /' >> "$LOG/ours.log" \
  || fail "tt-run bench (Triton's PTX)"
cat "$LOG/ours.log"

echo "== results"
python3 "$HERE/report.py" "$LOG" "$MODE" && cp "$LOG"/results.{md,csv} "$OUT/" \
  && python3 "$HERE/plot.py" "$OUT/results.csv" "$OUT/results.png"
cat "$OUT/results.md"
cp -r "$W/tbench" "$LOG/triton-bench"
tar -C "$W" -czf "$OUT/logs.tar.gz" logs
rm -rf "$W"
exit $status
