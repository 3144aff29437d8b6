#!/usr/bin/env bash
# The whole test suite: set up, then every crate's tests (unit tests, the lit
# tests under test/lit, the corpus round trip and golden pass checks, the
# robustness fuzzer and the printing snapshots), then the corpus and lit
# suites again on an optimised build: undefined behaviour in unsafe FFI code
# can hide in debug builds and crash release ones; Triton's own lit files
# (scripts/triton-lit.py). Last, the Python package's tests
# (scripts/python-test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
status=0
cargo test --workspace --no-fail-fast "$@" || status=$?
cargo test --release -p tt-opt --test corpus --test lit --no-fail-fast "$@" || status=$?
# Triton's own lit files with tt-opt (skipped without ../shared): the
# passing count per folder, and no file may fail outside the expected list.
python3 scripts/triton-lit.py || status=$?
scripts/python-test.sh || status=$?
exit "$status"
