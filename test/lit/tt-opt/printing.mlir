// RUN: tt-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tt-opt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUG
// RUN: tt-opt %s --mlir-print-debuginfo --mlir-pretty-debuginfo | FileCheck %s --check-prefix=PRETTY
// RUN: tt-opt %s --mlir-print-local-scope --mlir-print-debuginfo | FileCheck %s --check-prefix=LOCAL
// RUN: tt-opt %s --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=NAMELOC
// RUN: tt-opt %s -o %t && FileCheck %s --input-file=%t --check-prefix=FILE
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s --check-prefix=FILE
// RUN: not tt-opt %s --split-input-file --mlir-print-ir-after-all=1 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: echo '"foo.op"() : () -> ()' | tt-opt --allow-unregistered-dialect | FileCheck %s --check-prefix=UNREG
// RUN: echo '"foo.op"() : () -> ()' | not tt-opt 2>&1 | FileCheck %s --check-prefix=NOUNREG
// RUN: tt-opt --help | FileCheck %s --check-prefix=HELP
// RUN: tt-opt --version | FileCheck %s --check-prefix=VERSION

// Aliases stay outside the implicit module.
#tag = "x"

// GENERIC: "tt.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
// GENERIC: "tt.return"(%{{.*}}) : (i32) -> ()
// DEBUG: tt.return %arg0 : i32 loc(#loc
// DEBUG: #loc{{[0-9]*}} = loc("{{.*}}printing.mlir":[[@LINE+13]]:3)
// PRETTY: tt.return %arg0 : i32 {{.*}}printing.mlir:[[@LINE+12]]:3{{$}}
// LOCAL: tt.return %arg0 : i32 loc("{{.*}}printing.mlir":[[@LINE+11]]:3)
// NAMELOC: tt.func @f(%named: i32)
// FILE: tt.func @f(%arg0: i32) -> i32
// VALUE: tt-opt: error: '--mlir-print-ir-after-all' takes no value, but was given '1'
// UNREG: "foo.op"() : () -> ()
// NOUNREG: <stdin>:1:9: error: operation being parsed with an unregistered dialect
// HELP: USAGE: tt-opt [options]
// HELP: --convert-scf-to-cf {{ *}}Convert SCF dialect to ControlFlow dialect
// HELP: --symbol-dce {{ *}}Eliminate dead symbols
// VERSION: tt-opt 0.1.0
tt.func @f(%x: i32 loc("named")) -> i32 attributes {tag = #tag} {
  tt.return %x : i32
}
