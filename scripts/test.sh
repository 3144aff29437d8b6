#!/usr/bin/env bash
# The whole test suite: set up, then every crate's tests (unit tests, the lit
# tests under test/lit, the corpus round trip, the robustness fuzzer and the
# printing snapshots).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo test --workspace --no-fail-fast "$@"
