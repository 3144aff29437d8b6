// tritoninstrument-concurrency-sanitizer finds the shared and tensor memory
// buffers and the mbarriers of a kernel, creates the sanitizer state in
// global scratch memory at its top, and surrounds each access with calls of
// private @__triton_consan_* helpers between a lock acquire and release.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritoninstrument-concurrency-sanitizer | FileCheck %s
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritoninstrument-concurrency-sanitizer | tt-opt --split-input-file > /dev/null

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.shared = 65544 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // The barrier state helper: phase 0, the count in bits 1-8 and 9-16.
  // CHECK: tt.func private @__triton_consan_init_barrier_state_nw1_0(%[[BAR:.*]]: i64, %[[COUNT:.*]]: i32, %[[BARS:.*]]: tensor<2xi64, #{{.*}}>, %[[STATES:.*]]: !tt.ptr<i32>) attributes {"ttg.num-warps" = 1 : i32}
  // CHECK: tt.load
  // CHECK: arith.cmpi eq, %[[BARS]]
  // CHECK: arith.select
  // CHECK: tt.store
  // CHECK-LABEL: @discovery
  tt.func public @discovery() {
    // Three sub-buffers of 64x64xf16 (8192 bytes each), padded to four.
    // CHECK: %[[BUFS:.*]] = tti.experimental_buffer_pointers [0, 8192, 16384, 0], shared_mem : tensor<4xi64
    // CHECK: ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 32 : i32} : !tt.ptr<i64>
    // CHECK: ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 2048 : i32} : !tt.ptr<i64>
    // CHECK: %[[BARS:.*]] = tti.experimental_buffer_pointers [32768, 32776], shared_mem : tensor<2xi64
    // CHECK: %[[STATES:.*]] = ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 8 : i32} : !tt.ptr<i32>
    // CHECK: ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 8 : i32} : !tt.ptr<i32>
    // CHECK: ttg.global_scratch_alloc {alignment = 1 : i32, nbytes = 8 : i32} : !tt.ptr<i8>
    // CHECK: ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 64 : i32} : !tt.ptr<i64>
    // CHECK: %[[LOCK:.*]] = ttg.global_scratch_alloc {alignment = 4 : i32, nbytes = 4 : i32} : !tt.ptr<i32>
    // CHECK: tt.atomic_rmw exch, acq_rel, gpu, %[[LOCK]]
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable>
    %bars = ttg.local_alloc {allocation.offset = 32768 : i32} : () -> !ttg.memdesc<2x1xi64, #shared1, #smem, mutable>
    %bar = ttg.memdesc_index %bars[%c1] : !ttg.memdesc<2x1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    // CHECK: tti.experimental_lock_acquire %[[LOCK]]
    // CHECK: %[[C2:.*]] = arith.constant 2 : i32
    // CHECK: %[[B:.*]] = tti.experimental_memdesc_to_i64
    // CHECK: tt.call @__triton_consan_init_barrier_state_nw1_0(%[[B]], %[[C2]], %[[BARS]], %[[STATES]])
    // CHECK: tti.experimental_lock_release %[[LOCK]]
    // CHECK: ttng.init_barrier
    ttng.init_barrier %bar, 2 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    %sub = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<3x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    // A read checks the last write is visible, then publishes the read to
    // thread 0 and its TMA and tensor-core peers (bits 0, 16, 32).
    // CHECK: tti.experimental_lock_acquire %[[LOCK]]
    // CHECK: tt.call @__triton_consan_verify_write_visibility_nw1_0
    // CHECK: tti.experimental_assert_in_thread {{.*}}"Buffer being accessed has outstanding writes."
    // CHECK: arith.constant 4295032833 : i64
    // CHECK: tt.call @__triton_consan_set_read_visibility_nw1_0
    // CHECK: tti.experimental_lock_release %[[LOCK]]
    // CHECK: ttg.local_load
    %v = ttg.local_load %sub : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    // An arrival publishes what the thread sees through the barrier.
    // CHECK: tt.call @__triton_consan_track_visible_writes
    // CHECK: tt.call @__triton_consan_track_visible_reads
    // CHECK: tt.call @__triton_consan_verify_barrier_arrive
    // CHECK: "Barrier arrive underflow: current count would become negative"
    // CHECK: tt.call @__triton_consan_update_barrier_state
    // CHECK: ttng.arrive_barrier
    ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    // A wait checks for deadlock before, and takes over what the barrier
    // publishes after.
    // CHECK: tt.call @__triton_consan_set_waiting
    // CHECK: tt.call @__triton_consan_check_all_active_waiting
    // CHECK: ttng.wait_barrier
    // CHECK: tt.call @__triton_consan_transfer_visible_writes
    // CHECK: tt.call @__triton_consan_transfer_visible_reads
    // CHECK: tt.call @__triton_consan_clear_waiting
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    // A write also checks that every read is visible, then owns the buffer.
    // CHECK: tt.call @__triton_consan_verify_write_visibility
    // CHECK: tt.call @__triton_consan_verify_read_visibility
    // CHECK: tt.call @__triton_consan_set_write_visibility
    // CHECK: tt.call @__triton_consan_clear_write_tracking
    // CHECK: tt.call @__triton_consan_clear_read_visibility
    // CHECK: tt.call @__triton_consan_clear_read_tracking
    // CHECK: ttg.local_store
    ttg.local_store %v, %sub : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.shared = 65544 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @callee(%arg0: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
    tt.return
  }
  // An allocation passed to a call is left alone, with a warning.
  // CHECK-LABEL: @passed_to_call
  // CHECK-NOT: tti.
  // CHECK: tt.return
  tt.func public @passed_to_call() {
    // expected-warning @below {{Allocation is used in a function call, cannot instrument}}
    %buf = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.call @callee(%buf) : (!ttg.memdesc<64x64xf16, #shared, #smem, mutable>) -> ()
    tt.return
  }
}

// -----

#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.shared = 65544 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @not_instrumented_yet() {
    %bar = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    // expected-error @below {{'tritoninstrument-concurrency-sanitizer' does not support instrumenting 'ttng.async_copy_mbarrier_arrive' yet}}
    ttng.async_copy_mbarrier_arrive %bar : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 65544 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32, "ttg.total-num-warps" = 5 : i32} {
  // A partition starts out seeing what its parent sees (thread 1 and its
  // peers: bits 1, 17, 33), gets the scratch state as captures and makes
  // its own address tensors, in its own number of warps.
  // CHECK-LABEL: @partitions
  tt.func public @partitions() {
    // CHECK: %[[WV:.*]] = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 8 : i32}
    // CHECK: %[[RV:.*]] = ttg.global_scratch_alloc {alignment = 8 : i32, nbytes = 512 : i32}
    // CHECK: tt.atomic_rmw exch, acq_rel, gpu, %[[LOCK:[^,]*]],
    %buf = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %bar = ttg.local_alloc {allocation.offset = 8192 : i32} : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    // CHECK: arith.constant 8590065666 : i64
    // CHECK: tt.call @__triton_consan_copy_write_visibility_nw4_0
    // CHECK: tt.call @__triton_consan_copy_read_visibility_nw4_0
    // CHECK: ttg.warp_specialize(%{{.*}}, %{{.*}}, %[[WV]], %[[RV]], {{.*}}, %[[LOCK]])
    ttg.warp_specialize(%buf, %bar) attributes {warpGroupStartIds = array<i32: 4>}
    default {
      ttg.warp_yield
    }
    // CHECK: partition0(%{{[^:]*}}: !ttg.memdesc<64x64xf16{{[^%]*}}%{{[^:]*}}: !ttg.memdesc<1xi64{{[^%]*}}%[[WV1:[^:]*]]: !tt.ptr<i64>
    partition0(%arg0: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %arg1: !ttg.memdesc<1xi64, #shared1, #smem, mutable>) num_warps(1) {
      // CHECK: tti.experimental_buffer_pointers [8192], shared_mem : tensor<1xi64, #[[L1:.*]]>
      // CHECK: %[[BUFS1:.*]] = tti.experimental_buffer_pointers [0], shared_mem : tensor<1xi64, #[[L1]]>
      // CHECK: %[[T:.*]] = arith.constant 1 : i32
      // CHECK: tt.call @__triton_consan_verify_write_visibility_nw1_0(%{{.*}}, %{{.*}}, %[[T]], %[[BUFS1]], %[[WV1]])
      %c0 = arith.constant 0 : i32
      %true = arith.constant true
      %v = ttg.local_load %arg0 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>>
      // The deadlock check knows both threads (bits 0 and 2).
      // CHECK: %[[ACTIVE:.*]] = arith.constant 5 : i32
      // CHECK: tt.call @__triton_consan_check_all_active_waiting_nw1_0(%[[ACTIVE]]
      // CHECK: ttng.wait_barrier
      // CHECK: tt.call @__triton_consan_transfer_visible_writes_nw1_0
      ttng.wait_barrier %arg1, %c0, %true : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
      ttg.warp_return
    } : (!ttg.memdesc<64x64xf16, #shared, #smem, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>) -> ()
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.shared = 65544 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // A buffer reached through a loop-carried descriptor is resolved by its
  // address at run time; the loop itself is left alone.
  // CHECK-LABEL: @loop_carried
  tt.func public @loop_carried(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    %b0 = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    // CHECK: scf.for {{.*}} iter_args(%[[CUR:.*]] = %{{.*}})
    // CHECK: tti.experimental_memdesc_to_i64 %[[CUR]]
    // CHECK: tt.call @__triton_consan_verify_write_visibility
    // CHECK: ttg.local_load %[[CUR]]
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %b0) -> (!ttg.memdesc<64x64xf16, #shared, #smem, mutable>) : i32 {
      %x = ttg.local_load %cur : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %nx = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
      scf.yield %nx : !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    }
    tt.return
  }
}
