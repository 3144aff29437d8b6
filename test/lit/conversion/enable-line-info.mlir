// enable-line-info: each llvm.func with a body gets a DISubprogram (line
// tables only, producer "triton") fused into its location, from the first
// file location inside it; declarations and functions without a file
// location are left alone, and a second run adds nothing.
// RUN: tt-opt %s --enable-line-info --enable-line-info --mlir-print-debuginfo | FileCheck %s

// CHECK-DAG: #[[FILE:.*]] = #llvm.di_file<"kernels.py" in "/src/">
// CHECK-DAG: #[[UNIT:.*]] = #llvm.di_compile_unit<id = distinct[{{.*}}]<>, sourceLanguage = DW_LANG_C, file = #[[FILE]], producer = "triton", isOptimized = true, emissionKind = LineTablesOnly>
// CHECK-DAG: #[[SP:.*]] = #llvm.di_subprogram<id = distinct[{{.*}}]<>, compileUnit = #[[UNIT]], scope = #[[FILE]], name = "kernel", linkageName = "kernel", file = #[[FILE]], line = 15, scopeLine = 15, subprogramFlags = "Definition|Optimized"
// CHECK-DAG: #[[SP2:.*]] = #llvm.di_subprogram<{{.*}}name = "named"{{.*}}line = 30, scopeLine = 30
// CHECK-DAG: loc(fused<#[[SP]]>[#{{.*}}])
// CHECK-DAG: loc(fused<#[[SP2]]>[#{{.*}}])
// CHECK-NOT: di_subprogram
module {
  llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32 loc("kernels.py":1:0)
  llvm.func @kernel() {
    llvm.return loc("/src/kernels.py":16:3)
  } loc("/src/kernels.py":15:0)
  llvm.func @named() {
    llvm.return
  } loc("named"("/src/kernels.py":30:0))
  llvm.func @nowhere() {
    llvm.return
  } loc(unknown)
}
