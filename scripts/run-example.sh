#!/usr/bin/env bash
# The main job on a bundled example: set up, build tt-opt, and run Triton's
# make_ttir clean-up passes on the vector-add kernel's TTIR, then parse,
# verify and print its TTGIR (with Triton's names and layouts).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release -q -p tt-opt
tt_opt=target/release/tt-opt
echo "== tt-opt --inline --canonicalize --cse --symbol-dce examples/vector_add.ttir"
"$tt_opt" examples/vector_add.ttir --inline --canonicalize --cse --symbol-dce --mlir-use-nameloc-as-prefix
echo "== tt-opt examples/vector_add.ttgir (parse, verify, print)"
"$tt_opt" examples/vector_add.ttgir --mlir-use-nameloc-as-prefix
