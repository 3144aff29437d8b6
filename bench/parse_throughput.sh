#!/usr/bin/env bash
# Parse throughput benchmark (not a test): parse + verify + print of a large
# TTGIR file by tt-opt (release) against Debian's mlir-opt-22 with the
# project's dialect plugin, best of 5 runs each, in MB/s, and the ratio.
#
# The input (>= 10 MB by default) is made by replicating the corpus .ttgir
# modules that share the most common module header (the same num-warps, so
# every layout verifies against one module): each copy's functions get
# unique names (@name_cN), its aliases (#loc*, #blocked*, #mma, #shared*,
# #smem, !...) unique names (#name_cN), and all functions go into one module.
#
# Usage: bench/parse_throughput.sh
# Environment: TT_CORPUS (corpus folder, default <repo>/../shared/corpus),
#   CARGO_TARGET_DIR (default <repo>/target), TT_BENCH_MB (input size, default
#   10), TT_BENCH_EXT (ttgir or ttir, default ttgir), MLIR_OPT (default
#   mlir-opt-22).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORPUS="${TT_CORPUS:-$ROOT/../shared/corpus}"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
SIZE_MB="${TT_BENCH_MB:-10}"
EXT="${TT_BENCH_EXT:-ttgir}"
MLIR_OPT="${MLIR_OPT:-mlir-opt-22}"
RUNS=5

[ -d "$CORPUS" ] || { echo "no corpus at $CORPUS (set TT_CORPUS)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 is needed to build the input" >&2; exit 1; }

echo "== building tt-opt (release)"
(cd "$ROOT" && cargo build --release -p tt-opt)
TT_OPT="$TARGET/release/tt-opt"
PLUGIN="$TARGET/release/libtriton_dialect_plugin.so"

WORK="$TARGET/bench"
mkdir -p "$WORK"
BIG="$WORK/parse_throughput.$EXT.mlir"
echo "== making a ${SIZE_MB} MB input from $CORPUS/*/*.$EXT"
python3 - "$CORPUS" "$EXT" "$SIZE_MB" "$BIG" <<'PY'
import collections, glob, re, sys

corpus, ext, size_mb, out_path = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
files = sorted(glob.glob(f"{corpus}/*/*.{ext}"))
if not files:
    sys.exit(f"no *.{ext} files under {corpus}")

def parse(path):
    lines = open(path).read().splitlines()
    defs = [l for l in lines if re.match(r"[#!][A-Za-z_][\w$.]* = ", l)]
    start = next(i for i, l in enumerate(lines) if l.startswith("module"))
    end = max(i for i, l in enumerate(lines) if l.startswith("}"))
    return lines[start], defs, lines[start + 1:end]

kernels = {f: parse(f) for f in files}
header = collections.Counter(h for h, _, _ in kernels.values()).most_common(1)[0][0]
chosen = [f for f, (h, _, _) in kernels.items() if h == header]
print("kernels: " + ", ".join(f.split("/")[-2] for f in chosen))

ident = re.compile(r"([#!@])([A-Za-z_][\w$.]*)")
defs_out, body_out, size, copy = [], [], 0, 0
while size < size_mb * 1e6:
    _, defs, body = kernels[chosen[copy % len(chosen)]]
    aliases = {d.split(" = ", 1)[0] for d in defs}
    def rename(line):
        def sub(m):
            tok = m.group(0)
            if m.group(1) == "@" or tok in aliases:
                return f"{tok}_c{copy}"
            return tok
        return ident.sub(sub, line)
    for l in defs:
        defs_out.append(rename(l))
    for l in body:
        body_out.append(rename(l))
    size += sum(len(l) + 1 for l in defs) + sum(len(l) + 1 for l in body)
    copy += 1
with open(out_path, "w") as f:
    f.write("\n".join(defs_out) + "\n" + header + "\n" + "\n".join(body_out) + "\n}\n")
print(f"{copy} copies")
PY
BYTES=$(stat -c %s "$BIG")
echo "input: $BIG ($BYTES bytes)"

# best_of CMD...: prints the best wall time of $RUNS runs in seconds; exits
# non-zero with the tool's stderr if a run fails.
best_of() {
    local best="" t0 t1 dt
    for _ in $(seq "$RUNS"); do
        t0=$(date +%s%N)
        if ! "$@" > /dev/null 2> "$WORK/stderr.txt"; then
            echo "FAILED: $*" >&2
            head -5 "$WORK/stderr.txt" >&2
            return 1
        fi
        t1=$(date +%s%N)
        dt=$(( t1 - t0 ))
        if [ -z "$best" ] || [ "$dt" -lt "$best" ]; then best=$dt; fi
    done
    awk -v ns="$best" 'BEGIN { printf "%.4f\n", ns / 1e9 }'
}
mbps() { awk -v b="$BYTES" -v s="$1" 'BEGIN { printf "%.1f", b / 1e6 / s }'; }

echo "== timing (best of $RUNS)"
TT_S=$(best_of "$TT_OPT" "$BIG" -o /dev/null) || { echo "tt-opt cannot parse the input: no numbers" >&2; exit 1; }
echo "tt-opt:   ${TT_S} s  $(mbps "$TT_S") MB/s"

if ! command -v "$MLIR_OPT" >/dev/null; then
    echo "mlir-opt comparison skipped: $MLIR_OPT not found (set MLIR_OPT)"
    exit 0
fi
if [ ! -f "$PLUGIN" ]; then
    echo "mlir-opt comparison skipped: dialect plugin $PLUGIN not built yet"
    exit 0
fi
MLIR_S=$(best_of "$MLIR_OPT" --load-dialect-plugin="$PLUGIN" "$BIG" -o /dev/null) \
    || { echo "mlir-opt with the plugin cannot parse the input: no comparison" >&2; exit 1; }
echo "mlir-opt: ${MLIR_S} s  $(mbps "$MLIR_S") MB/s"
awk -v a="$TT_S" -v b="$MLIR_S" 'BEGIN { printf "ratio tt-opt/mlir-opt (throughput): %.2f\n", b / a }'
