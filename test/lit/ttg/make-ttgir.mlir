// --make-ttgir checks its options before anything runs: Blackwell's
// pipeline is not supported yet, and num-warps must be a power of two.
// RUN: not tt-opt %s --make-ttgir='target=cuda:100' 2>&1 | FileCheck %s --check-prefix=BLACKWELL
// RUN: not tt-opt %s --make-ttgir='num-warps=3' 2>&1 | FileCheck %s --check-prefix=WARPS
// BLACKWELL: make-ttgir does not support capability 100 (Blackwell's pipeline) yet
// WARPS: option 'num-warps' must be a power of two, not 3
module {
  tt.func public @k() {
    tt.return
  }
}
