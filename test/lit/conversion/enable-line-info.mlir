// enable-line-info: each llvm.func with a body gets a DISubprogram (line
// tables only, producer "triton") fused into its location, from the first
// file location inside it; declarations and functions without a file
// location are left alone, and a second run adds nothing. Inlined code
// (call-site locations) gets every file location of its chain fused with
// a DILexicalBlockFile of the subprogram for that location's file, as in
// Triton; leaves without a file stay as they are.
// RUN: tt-opt %s --enable-line-info --enable-line-info --mlir-print-debuginfo | FileCheck %s

// CHECK-DAG: #[[FILE:.*]] = #llvm.di_file<"kernels.py" in "/src">
// CHECK-DAG: #[[UNIT:.*]] = #llvm.di_compile_unit<id = distinct[{{.*}}]<>, sourceLanguage = DW_LANG_C, file = #[[FILE]], producer = "triton", isOptimized = true, emissionKind = LineTablesOnly>
// CHECK-DAG: #[[SP:.*]] = #llvm.di_subprogram<id = distinct[{{.*}}]<>, compileUnit = #[[UNIT]], scope = #[[FILE]], name = "kernel", linkageName = "kernel", file = #[[FILE]], line = 15, scopeLine = 15, subprogramFlags = "Definition|Optimized"
// CHECK-DAG: #[[SP2:.*]] = #llvm.di_subprogram<{{.*}}name = "named"{{.*}}line = 30, scopeLine = 30
// CHECK-DAG: #[[STD:.*]] = #llvm.di_file<"standard.py" in "triton/language">
// CHECK-DAG: #[[STDBLOCK:.*]] = #llvm.di_lexical_block_file<scope = #[[SP]], file = #[[STD]], discriminator = 0>
// CHECK-DAG: #[[OWNBLOCK:.*]] = #llvm.di_lexical_block_file<scope = #[[SP]], file = #[[FILE]], discriminator = 0>
// CHECK-DAG: #[[CALLEE:.*]] = loc("triton/language/standard.py":191:40)
// CHECK-DAG: #[[CALLER:.*]] = loc("/src/kernels.py":17:5)
// CHECK-DAG: #[[INNER:.*]] = loc("triton/language/standard.py":170:27)
// CHECK-DAG: #[[UNKNOWN:.*]] = loc(unknown)
// CHECK-DAG: #[[SCOPED_CALLEE:.*]] = loc(fused<#[[STDBLOCK]]>[#[[CALLEE]]])
// CHECK-DAG: #[[SCOPED_CALLER:.*]] = loc(fused<#[[OWNBLOCK]]>[#[[CALLER]]])
// CHECK-DAG: #[[SCOPED_INNER:.*]] = loc(fused<#[[STDBLOCK]]>[#[[INNER]]])
// CHECK-DAG: #[[NESTED:.*]] = loc(callsite(#[[SCOPED_CALLEE]] at #[[SCOPED_CALLER]]))
// CHECK-DAG: loc(callsite(#[[SCOPED_INNER]] at #[[NESTED]]))
// CHECK-DAG: loc(callsite(#[[UNKNOWN]] at #[[SCOPED_CALLER]]))
// CHECK-DAG: loc(fused<#[[SP]]>[#{{.*}}])
// CHECK-DAG: loc(fused<#[[SP2]]>[#{{.*}}])
// CHECK-NOT: di_subprogram
module {
  llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32 loc("kernels.py":1:0)
  llvm.func @kernel() {
    %0 = llvm.mlir.constant(1 : i32) : i32 loc(callsite("triton/language/standard.py":191:40 at "/src/kernels.py":17:5))
    %1 = llvm.mlir.constant(2 : i32) : i32 loc(callsite("triton/language/standard.py":170:27 at callsite("triton/language/standard.py":191:40 at "/src/kernels.py":17:5)))
    %2 = llvm.mlir.constant(3 : i32) : i32 loc(callsite(unknown at "/src/kernels.py":17:5))
    llvm.return loc("/src/kernels.py":16:3)
  } loc("/src/kernels.py":15:0)
  llvm.func @named() {
    llvm.return
  } loc("named"("/src/kernels.py":30:0))
  llvm.func @nowhere() {
    llvm.return
  } loc(unknown)
}
