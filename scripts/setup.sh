#!/usr/bin/env bash
# Installs what building and testing this project needs on Debian 12:
# LLVM/MLIR 22 (headers, static libraries, mlir-tblgen, FileCheck, lld),
# a C++ compiler and the compression libraries LLVM links; and, from NVIDIA's
# PyPI wheel, ptxas and libdevice.10.bc into .deps/cuda/ (ignored by git,
# never committed); python3-venv where Debian's python3 lacks it.
# Idempotent: when everything is present it only checks,
# in well under a second.
set -euo pipefail

PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libclang-22-dev
  libpolly-22-dev clang-22 lld-22 zlib1g-dev libzstd-dev g++ make
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

prefix=$(llvm-config-22 --prefix)
if [ "$prefix" != "/usr/lib/llvm-22" ]; then
  echo "setup: llvm-config-22 reports prefix $prefix, but .cargo/config.toml expects /usr/lib/llvm-22" >&2
  exit 1
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo is missing: install a Rust toolchain (1.85 or newer) with rustup" >&2
  exit 1
fi
rust_minor=$(rustc --version | sed -E 's/^rustc 1\.([0-9]+).*/\1/')
if [ "$rust_minor" -lt 85 ]; then
  echo "setup: rustc $(rustc --version) is too old: 1.85 or newer is needed" >&2
  exit 1
fi
echo "setup: LLVM/MLIR $(llvm-config-22 --version) at $prefix, $(rustc --version)"

# ptxas and libdevice from the CUDA 12.9 nvcc wheel (no toolkit needed).
CUDA_WHEEL="nvidia-cuda-nvcc-cu12==12.9.86"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps="$repo/.deps/cuda"
if [ "$(cat "$deps/VERSION" 2>/dev/null)" != "$CUDA_WHEEL" ] \
  || [ ! -x "$deps/bin/ptxas" ] || [ ! -f "$deps/libdevice.10.bc" ]; then
  echo "setup: fetching ptxas and libdevice from $CUDA_WHEEL"
  PYTHON=$(command -v python3 || true)
  if [ -z "$PYTHON" ]; then
    echo "setup: python3 (with pip) is needed to fetch ptxas and libdevice" >&2
    exit 1
  fi
  if ! "$PYTHON" -m pip --version >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-pip
  fi
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  "$PYTHON" -m pip download --quiet --no-deps --only-binary=:all: \
    --platform manylinux2014_x86_64 --python-version 3 --dest "$tmp" "$CUDA_WHEEL"
  rm -rf "$deps"
  mkdir -p "$deps/bin"
  "$PYTHON" - "$tmp"/*.whl "$deps" <<'PY'
import sys, zipfile
wheel, deps = sys.argv[1], sys.argv[2]
wanted = {
    "nvidia/cuda_nvcc/bin/ptxas": "bin/ptxas",
    "nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc": "libdevice.10.bc",
}
with zipfile.ZipFile(wheel) as z:
    for src, dst in wanted.items():
        with z.open(src) as f, open(f"{deps}/{dst}", "wb") as out:
            out.write(f.read())
PY
  chmod +x "$deps/bin/ptxas"
  echo "$CUDA_WHEEL" > "$deps/VERSION"
fi
echo "setup: $("$deps/bin/ptxas" --version | tail -1) and libdevice in $deps"

# The Python package's tests build a virtual environment (Debian splits
# venv's ensurepip into python3-venv).
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-venv python3-pip
fi
