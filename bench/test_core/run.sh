#!/usr/bin/env bash
# Runs Triton 3.6's test_core.py on the GPU machine, with Triton's own
# compiler (MODE=triton) or through the triton_rs package in strict mode
# (MODE=ours), writing one JSON line per case to $OUT/test_core.MODE.jsonl.
#   bash bench/test_core/run.sh MODE [PYTEST_ARGS...]
# Needs (see README.md): .device/wheels/triton_rs-*.whl (for ours) and
# .device/tests/test_core.py with print_helper.py beside it.
# Another of Triton's test files runs the same way: TT_TEST_FILE names it
# (results in $OUT/NAME.MODE.jsonl) and TT_TEST_DIR the folder it is in
# with its helpers (default .device/tests). TT_TARGET_ARCH=80 compiles
# for that older architecture on the GPU there (see conftest.py).
set -uo pipefail
MODE=${1:?usage: run.sh triton|ours [pytest args]}; shift
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT=${OUT:-/tmp/test_core}
PY=${PYTHON:-/opt/torch/.venv/bin/python}
LIMIT=${TT_LIMIT:-560}
FILE=${TT_TEST_FILE:-test_core.py}
NAME=$(basename "$FILE" .py)
mkdir -p "$OUT"
W=$(mktemp -d)
cp "${TT_TEST_DIR:-$ROOT/.device/tests}"/*.py "$W/"
cp "$ROOT/bench/test_core/conftest.py" "$W/"
if [ "$MODE" = ours ]; then
  "$PY" -m pip install -q --no-index --no-deps --force-reinstall "$ROOT"/.device/wheels/triton_rs-*.whl || exit 2
  export TRITON_RS=strict
  "$PY" -c 'import triton_rs; assert triton_rs.mode() == "strict", triton_rs.mode(); print("triton_rs", triton_rs.__version__, triton_rs.mode())' || exit 2
else
  unset TRITON_RS
fi
export TT_RESULTS="$OUT/$NAME.$MODE.jsonl"
rm -f "$TT_RESULTS"
export TRITON_CACHE_DIR="$W/cache"
cd "$W"
start=$(date +%s)
timeout "$LIMIT" "$PY" -m pytest -q -p no:cacheprovider -n "${TT_WORKERS:-16}" "$FILE" "$@" > "$OUT/pytest.$NAME.$MODE.log" 2>&1
rc=$?
echo "pytest ($MODE) exit $rc after $(( $(date +%s) - start )) s; $(wc -l < "$TT_RESULTS") cases recorded"
tail -3 "$OUT/pytest.$NAME.$MODE.log"
