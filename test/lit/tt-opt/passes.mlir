// RUN: tt-opt %s --canonicalize | FileCheck %s --check-prefix=CANON
// RUN: tt-opt %s --canonicalize='max-num-rewrites=0' | FileCheck %s --check-prefix=NONE
// RUN: tt-opt %s -cse --canonicalize=max-iterations=3 | FileCheck %s --check-prefix=CANON
// RUN: not tt-opt %s --canonicalise 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not tt-opt %s --canonicalize='max-iteration=3' 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not tt-opt %s --canonicalize='max-iterations' 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: cat %s %s | not tt-opt --split-input-file --cse --canonicalize='top-dow=1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONCE
// RUN: not tt-opt %s --pass-pipeline='builtin.module(tt.func(csee))' 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: not tt-opt %s --pass-pipeline='builtin.module(tt.func(convert-func-to-llvm))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ANCHOR

// CANON-LABEL: tt.func @add_zero
// CANON-NEXT: tt.return %arg0 : i32
// NONE-LABEL: tt.func @add_zero
// NONE: arith.addi
// FLAG: tt-opt: error: unknown command line argument '--canonicalise'; did you mean '--canonicalize'?
// OPTION: tt-opt: error: unknown option 'max-iteration' for pass 'canonicalize'; did you mean 'max-iterations'?
// VALUE: tt-opt: error: pass 'canonicalize': option 'max-iterations' needs a value: write 'max-iterations=VALUE'
// ONCE: unknown option 'top-dow' for pass 'canonicalize'; did you mean 'top-down'?
// ONCE-NOT: error
// PIPE: tt-opt: error: unknown pass 'csee'; did you mean 'cse'?
// ANCHOR: tt-opt: error: pass 'convert-func-to-llvm' runs on 'builtin.module' ops and cannot be added to a pass manager on 'tt.func' ops
tt.func @add_zero(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %y = arith.addi %x, %c0 : i32
  tt.return %y : i32
}
