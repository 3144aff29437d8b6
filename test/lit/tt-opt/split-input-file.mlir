// RUN: tt-opt %s --split-input-file | FileCheck %s
// RUN: not tt-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: cat %s | sed 's/@second() {/@second() { "tt.bogus"() : () -> ()/' \
// RUN:   | not tt-opt -split-input-file 2>&1 | FileCheck %s --check-prefix=LINE

// Each chunk is its own module; outputs are joined by the split marker.
// CHECK: module {
// CHECK-NEXT: tt.func @first()
// CHECK: tt.func private @dup()
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: tt.func private @dup()
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: tt.func @second()

// Without the flag, `// -----` is just a comment: the chunks form one
// module, where `@dup` is defined twice.
// WHOLE: error: redefinition of symbol named 'dup'

// Line numbers are those of the original file.
// LINE: <stdin>:[[@LINE+13]]:21: error: unregistered operation 'tt.bogus' found in dialect ('tt')

tt.func @first() {
  tt.return
}
tt.func private @dup()

// -----

tt.func private @dup()

// -----

tt.func @second() {
  tt.return
}
