// Global scratch memory: tritongpu-global-scratch-memory-allocation gives
// each ttg.global_scratch_alloc and each call of a function that needs
// scratch the next aligned offset of its function's buffer, callees first;
// convert-triton-gpu-to-llvm turns the offsets into pointers: in a kernel,
// into this program's slice of the grid's buffer (programs numbered
// x-fastest), in a device function, from the pointer its caller passed.
// RUN: tt-opt %s --split-input-file --tritongpu-global-scratch-memory-allocation | FileCheck %s
// RUN: tt-opt %s --split-input-file --tritongpu-global-scratch-memory-allocation --allocate-shared-memory-nv --convert-triton-gpu-to-llvm | FileCheck %s --check-prefix=LLVM

// CHECK: module attributes {ttg.global_scratch_memory_alignment = 128 : i32, ttg.global_scratch_memory_size = 384 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // The callee, laid out first although it comes second: 16 + 64 bytes,
  // rounded up to its 64-byte alignment.
  // CHECK: tt.func public @kernel({{.*}}) attributes {ttg.global_scratch_memory_alignment = 128 : i32, ttg.global_scratch_memory_size = 384 : i32}
  // LLVM-LABEL: llvm.func @kernel
  tt.func public @kernel(%p: !tt.ptr<i32>) {
    // CHECK: ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 100 : i32, ttg.global_scratch_memory_offset = 0 : i32}
    // LLVM: %[[X:.*]] = nvvm.read.ptx.sreg.ctaid.x
    // LLVM-NEXT: %[[Y:.*]] = nvvm.read.ptx.sreg.ctaid.y
    // LLVM-NEXT: %[[Z:.*]] = nvvm.read.ptx.sreg.ctaid.z
    // LLVM-NEXT: %[[NX:.*]] = nvvm.read.ptx.sreg.nctaid.x
    // LLVM-NEXT: %[[NY:.*]] = nvvm.read.ptx.sreg.nctaid.y
    // LLVM-NEXT: %[[ZY:.*]] = llvm.mul %[[Z]], %[[NY]]
    // LLVM-NEXT: %[[YZ:.*]] = llvm.add %[[Y]], %[[ZY]]
    // LLVM-NEXT: %[[YX:.*]] = llvm.mul %[[YZ]], %[[NX]]
    // LLVM-NEXT: %[[ID:.*]] = llvm.add %[[X]], %[[YX]]
    // LLVM-NEXT: %[[SIZE:.*]] = llvm.mlir.constant(384 : i32)
    // LLVM-NEXT: %[[BASE:.*]] = llvm.mul %[[ID]], %[[SIZE]]
    // LLVM-NEXT: %[[OFF:.*]] = llvm.mlir.constant(0 : i32)
    // LLVM-NEXT: %[[BYTES:.*]] = llvm.add %[[BASE]], %[[OFF]]
    // LLVM-NEXT: llvm.getelementptr %arg1[%[[BYTES]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
    %0 = ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 100 : i32} : !tt.ptr<i8>
    // Empty buffers take no offset.
    // CHECK: ttg.global_scratch_alloc {alignment = 256 : i32, nbytes = 0 : i32} : !tt.ptr<i8>
    %1 = ttg.global_scratch_alloc {alignment = 256 : i32, nbytes = 0 : i32} : !tt.ptr<i8>
    // CHECK: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32, ttg.global_scratch_memory_offset = 128 : i32}
    %2 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    // CHECK: tt.call @helper({{.*}}) {ttg.global_scratch_memory_offset = 256 : i32}
    // LLVM: %[[HELPER:.*]] = llvm.mlir.constant(256 : i32)
    // LLVM-NEXT: %[[B:.*]] = llvm.add %{{.*}}, %[[HELPER]]
    // LLVM-NEXT: %[[PTR:.*]] = llvm.getelementptr %arg1[%[[B]]]
    // LLVM-NEXT: llvm.call @helper(%{{.*}}, %{{.*}}, %[[PTR]], %arg2)
    tt.call @helper(%0) : (!tt.ptr<i8>) -> ()
    // A function without scratch takes no offset: its pointer is this
    // program's slice.
    // CHECK: tt.call @leaf() : () -> ()
    // LLVM: llvm.mlir.constant(384 : i32)
    // LLVM-NEXT: %[[SLICE:.*]] = llvm.mul %{{.*}}, %{{.*}} : i32
    // LLVM-NEXT: %[[LEAF:.*]] = llvm.getelementptr %arg1[%[[SLICE]]]
    // LLVM-NEXT: llvm.call @leaf(%{{.*}}, %[[LEAF]], %arg2)
    tt.call @leaf() : () -> ()
    %3 = tt.bitcast %2 : !tt.ptr<i8> -> !tt.ptr<i32>
    %4 = tt.load %3 : !tt.ptr<i32>
    tt.store %p, %4 : !tt.ptr<i32>
    tt.return
  }
  // CHECK: tt.func private @helper({{.*}}) attributes {noinline = true, ttg.global_scratch_memory_alignment = 64 : i32, ttg.global_scratch_memory_size = 128 : i32}
  // LLVM-LABEL: llvm.func internal @helper
  tt.func private @helper(%p: !tt.ptr<i8>) attributes {noinline = true} {
    // CHECK: ttg.global_scratch_alloc {alignment = 16 : i32, nbytes = 16 : i32, ttg.global_scratch_memory_offset = 0 : i32}
    // LLVM: %[[A:.*]] = llvm.mlir.constant(0 : i32)
    // LLVM-NEXT: llvm.getelementptr %arg2[%[[A]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
    %0 = ttg.global_scratch_alloc {alignment = 16 : i32, nbytes = 16 : i32} : !tt.ptr<i8>
    // CHECK: ttg.global_scratch_alloc {alignment = 64 : i32, nbytes = 64 : i32, ttg.global_scratch_memory_offset = 64 : i32}
    // LLVM: %[[B:.*]] = llvm.mlir.constant(64 : i32)
    // LLVM-NEXT: llvm.getelementptr %arg2[%[[B]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
    %1 = ttg.global_scratch_alloc {alignment = 64 : i32, nbytes = 64 : i32} : !tt.ptr<i8>
    %c = arith.constant 1 : i8
    tt.store %0, %c : !tt.ptr<i8>
    tt.store %1, %c : !tt.ptr<i8>
    tt.store %p, %c : !tt.ptr<i8>
    tt.return
  }
  // CHECK: tt.func private @leaf() attributes {noinline = true, ttg.global_scratch_memory_alignment = 1 : i32, ttg.global_scratch_memory_size = 0 : i32}
  tt.func private @leaf() attributes {noinline = true} {
    tt.return
  }
}

// -----

// With clusters, programs are numbered by cluster id, times the cluster
// size, plus the CTA's rank.
// CHECK: module attributes {ttg.global_scratch_memory_alignment = 8 : i32, ttg.global_scratch_memory_size = 8 : i32, "ttg.num-ctas" = 2 : i32
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // LLVM-LABEL: llvm.func @clustered
  // LLVM: nvvm.read.ptx.sreg.clusterid.x
  // LLVM: nvvm.read.ptx.sreg.nclusterid.y
  // LLVM: %[[R:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
  // LLVM-NEXT: %[[N:.*]] = llvm.mlir.constant(2 : i32)
  // LLVM-NEXT: %[[M:.*]] = llvm.mul %{{.*}}, %[[N]]
  // LLVM-NEXT: llvm.add %[[M]], %[[R]]
  tt.func public @clustered(%p: !tt.ptr<i8>) {
    %0 = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 8 : i32} : !tt.ptr<i8>
    %c = arith.constant 1 : i8
    tt.store %0, %c : !tt.ptr<i8>
    tt.return
  }
}
