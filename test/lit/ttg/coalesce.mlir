// tritongpu-coalesce: Triton 3.6's coalesced layouts. 1-D loads and stores
// of i8/f16/f32/f64 (one 128-bit vector at most, capped by the elements per
// thread), loads that share their offsets taking the group's widest vector
// while a store keeps its own, unknown and partial pointer alignment,
// tt.contiguity/tt.divisibility hints on arguments, atomics, a 2-D transpose
// (row-major load, column-major store), a 3-D load, masked loads with
// `other` in modules of 1, 2, 8 and 16 warps, and located errors.
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-coalesce | FileCheck %s
// RUN: tt-opt %s --split-input-file --verify-diagnostics --tritongpu-coalesce | tt-opt --split-input-file > /dev/null

// CHECK-DAG: #[[ONE:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[EIGHT:.*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[FOUR:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[TWO:.*]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// The f16 load allows 8 per thread and shares its offsets with the f32
// load, which takes 8 too; the store is capped by its own 4.
// CHECK-LABEL: tt.func public @two_types
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[ONE]]> -> tensor<1024x!tt.ptr<f32>, #[[EIGHT]]>
// CHECK-NEXT: %[[M:.*]] = ttg.convert_layout %{{.*}} : tensor<1024xi1, #[[ONE]]> -> tensor<1024xi1, #[[EIGHT]]>
// CHECK-NEXT: %[[V:.*]] = tt.load %[[P]], %[[M]] : tensor<1024x!tt.ptr<f32>, #[[EIGHT]]>
// CHECK-NEXT: ttg.convert_layout %[[V]] : tensor<1024xf32, #[[EIGHT]]> -> tensor<1024xf32, #[[ONE]]>
// CHECK: tt.load %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<f16>, #[[EIGHT]]>
// CHECK: %[[SP:.*]] = ttg.convert_layout %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[ONE]]> -> tensor<1024x!tt.ptr<f32>, #[[FOUR]]>
// CHECK-NEXT: %[[SV:.*]] = ttg.convert_layout %{{.*}} : tensor<1024xf32, #[[ONE]]> -> tensor<1024xf32, #[[FOUR]]>
// CHECK-NEXT: %[[SM:.*]] = ttg.convert_layout %{{.*}} : tensor<1024xi1, #[[ONE]]> -> tensor<1024xi1, #[[FOUR]]>
// CHECK-NEXT: tt.store %[[SP]], %[[SV]], %[[SM]] : tensor<1024x!tt.ptr<f32>, #[[FOUR]]>
  tt.func public @two_types(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c1024 = arith.constant 1024 : i32
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c1024 : i32
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1>
    %splat = tt.splat %base : i32 -> tensor<1024xi32, #b1>
    %offs = arith.addi %splat, %range : tensor<1024xi32, #b1>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #b1>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #b1>
    %ap = tt.splat %a : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1>
    %ap1 = tt.addptr %ap, %offs : tensor<1024x!tt.ptr<f32>, #b1>, tensor<1024xi32, #b1>
    %av = tt.load %ap1, %mask : tensor<1024x!tt.ptr<f32>, #b1>
    %bp = tt.splat %b : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b1>
    %bp1 = tt.addptr %bp, %offs : tensor<1024x!tt.ptr<f16>, #b1>, tensor<1024xi32, #b1>
    %bv = tt.load %bp1, %mask : tensor<1024x!tt.ptr<f16>, #b1>
    %bx = arith.extf %bv : tensor<1024xf16, #b1> to tensor<1024xf32, #b1>
    %sum = arith.addf %av, %bx : tensor<1024xf32, #b1>
    %cp = tt.splat %c : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1>
    %cp1 = tt.addptr %cp, %offs : tensor<1024x!tt.ptr<f32>, #b1>, tensor<1024xi32, #b1>
    tt.store %cp1, %sum, %mask : tensor<1024x!tt.ptr<f32>, #b1>
    tt.return
  }
// 16 i8 fit in 128 bits, but 1024 elements over 128 threads is 8 each.
// CHECK-LABEL: tt.func public @elem_i8
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<i8>, #[[EIGHT]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<1024x!tt.ptr<i8>, #[[EIGHT]]>
  tt.func public @elem_i8(%a: !tt.ptr<i8> {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1>
    %ap = tt.splat %a : !tt.ptr<i8> -> tensor<1024x!tt.ptr<i8>, #b1>
    %ap1 = tt.addptr %ap, %range : tensor<1024x!tt.ptr<i8>, #b1>, tensor<1024xi32, #b1>
    %v = tt.load %ap1 : tensor<1024x!tt.ptr<i8>, #b1>
    tt.store %ap1, %v : tensor<1024x!tt.ptr<i8>, #b1>
    tt.return
  }
// CHECK-LABEL: tt.func public @elem_f64
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f64>, #[[TWO]]>
  tt.func public @elem_f64(%a: !tt.ptr<f64> {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1>
    %ap = tt.splat %a : !tt.ptr<f64> -> tensor<1024x!tt.ptr<f64>, #b1>
    %ap1 = tt.addptr %ap, %range : tensor<1024x!tt.ptr<f64>, #b1>, tensor<1024xi32, #b1>
    %v = tt.load %ap1 : tensor<1024x!tt.ptr<f64>, #b1>
    tt.return
  }
// No divisibility: one element per thread, and the result needs no
// conversion back (the operand conversion stays, as in Triton).
// CHECK-LABEL: tt.func public @unknown_alignment
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[ONE]]> -> tensor<1024x!tt.ptr<f32>, #[[ONE]]>
// CHECK-NEXT: tt.load %[[P]] : tensor<1024x!tt.ptr<f32>, #[[ONE]]>
// CHECK-NEXT: tt.return
  tt.func public @unknown_alignment(%a: !tt.ptr<f32>) {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1>
    %ap = tt.splat %a : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1>
    %ap1 = tt.addptr %ap, %range : tensor<1024x!tt.ptr<f32>, #b1>, tensor<1024xi32, #b1>
    %v = tt.load %ap1 : tensor<1024x!tt.ptr<f32>, #b1>
    tt.return
  }
// 8-byte aligned f32: 2 per thread.
// CHECK-LABEL: tt.func public @partial_alignment
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[TWO]]>
  tt.func public @partial_alignment(%a: !tt.ptr<f32> {tt.divisibility = 8 : i32}) {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1>
    %ap = tt.splat %a : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1>
    %ap1 = tt.addptr %ap, %range : tensor<1024x!tt.ptr<f32>, #b1>, tensor<1024xi32, #b1>
    %v = tt.load %ap1 : tensor<1024x!tt.ptr<f32>, #b1>
    tt.return
  }
// Offsets contiguous by 4 and divisible by 4: 4 f16 per thread.
// CHECK-LABEL: tt.func public @hinted_offsets
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f16>, #[[FOUR]]>
  tt.func public @hinted_offsets(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %offs: tensor<1024xi32, #b1> {tt.contiguity = 4 : i32, tt.divisibility = 4 : i32}) {
    %ap = tt.splat %a : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b1>
    %ap1 = tt.addptr %ap, %offs : tensor<1024x!tt.ptr<f16>, #b1>, tensor<1024xi32, #b1>
    %v = tt.load %ap1 : tensor<1024x!tt.ptr<f16>, #b1>
    tt.return
  }
// CHECK-LABEL: tt.func public @atomic
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} -> tensor<1024x!tt.ptr<f32>, #[[FOUR]]>
// CHECK-NEXT: %[[V:.*]] = ttg.convert_layout %{{.*}} -> tensor<1024xf32, #[[FOUR]]>
// CHECK-NEXT: %[[O:.*]] = tt.atomic_rmw fadd, acq_rel, gpu, %[[P]], %[[V]] : (tensor<1024x!tt.ptr<f32>, #[[FOUR]]>, tensor<1024xf32, #[[FOUR]]>) -> tensor<1024xf32, #[[FOUR]]>
// CHECK-NEXT: ttg.convert_layout %[[O]] : tensor<1024xf32, #[[FOUR]]> -> tensor<1024xf32, #[[ONE]]>
  tt.func public @atomic(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %v: tensor<1024xf32, #b1>) {
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b1>
    %ap = tt.splat %a : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b1>
    %ap1 = tt.addptr %ap, %range : tensor<1024x!tt.ptr<f32>, #b1>, tensor<1024xi32, #b1>
    %old = tt.atomic_rmw fadd, acq_rel, gpu, %ap1, %v : (tensor<1024x!tt.ptr<f32>, #b1>, tensor<1024xf32, #b1>) -> tensor<1024xf32, #b1>
    tt.return
  }
}

// -----

// CHECK-DAG: #[[ROW:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[COL:.*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func public @transpose
// CHECK: tt.load %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[ROW]]>
// CHECK: tt.store %{{.*}}, %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[COL]]>
#r = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @transpose(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %ld: i32 {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #r}>>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #r}>>
    %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #r}>> -> tensor<64x1xi32, #r>
    %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #r}>> -> tensor<1x64xi32, #r>
    %lds = tt.splat %ld : i32 -> tensor<64x1xi32, #r>
    %rs = arith.muli %r2, %lds : tensor<64x1xi32, #r>
    %rb = tt.broadcast %rs : tensor<64x1xi32, #r> -> tensor<64x64xi32, #r>
    %cb = tt.broadcast %c2 : tensor<1x64xi32, #r> -> tensor<64x64xi32, #r>
    %io = arith.addi %rb, %cb : tensor<64x64xi32, #r>
    %ip = tt.splat %in : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #r>
    %ip1 = tt.addptr %ip, %io : tensor<64x64x!tt.ptr<f32>, #r>, tensor<64x64xi32, #r>
    %v = tt.load %ip1 : tensor<64x64x!tt.ptr<f32>, #r>
    %lds2 = tt.splat %ld : i32 -> tensor<1x64xi32, #r>
    %cs = arith.muli %c2, %lds2 : tensor<1x64xi32, #r>
    %cb2 = tt.broadcast %cs : tensor<1x64xi32, #r> -> tensor<64x64xi32, #r>
    %rb2 = tt.broadcast %r2 : tensor<64x1xi32, #r> -> tensor<64x64xi32, #r>
    %oo = arith.addi %rb2, %cb2 : tensor<64x64xi32, #r>
    %op = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #r>
    %op1 = tt.addptr %op, %oo : tensor<64x64x!tt.ptr<f32>, #r>, tensor<64x64xi32, #r>
    tt.store %op1, %v : tensor<64x64x!tt.ptr<f32>, #r>
    tt.return
  }
}

// -----

// CHECK: #[[C3:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [2, 2, 8], warpsPerCTA = [1, 4, 1], order = [2, 0, 1]}>
// CHECK-LABEL: tt.func public @three_d
// CHECK: tt.load %{{.*}} : tensor<2x16x64x!tt.ptr<f16>, #[[C3]]>
#c = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @three_d(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %offs: tensor<2x16x64xi32, #c> {tt.contiguity = dense<[1, 1, 64]> : tensor<3xi32>, tt.divisibility = dense<[16, 16, 16]> : tensor<3xi32>}) {
    %pp = tt.splat %p : !tt.ptr<f16> -> tensor<2x16x64x!tt.ptr<f16>, #c>
    %pp1 = tt.addptr %pp, %offs : tensor<2x16x64x!tt.ptr<f16>, #c>, tensor<2x16x64xi32, #c>
    %v = tt.load %pp1 : tensor<2x16x64x!tt.ptr<f16>, #c>
    tt.return
  }
}
// -----

// CHECK: #[[W1:.*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @warps1
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64x!tt.ptr<f16>, #[[W1]]>
// CHECK-NEXT: %[[M:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64xi1, #[[W1]]>
// CHECK-NEXT: %[[O:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64xf16, #[[W1]]>
// CHECK-NEXT: tt.load %[[P]], %[[M]], %[[O]] : tensor<32x64x!tt.ptr<f16>, #[[W1]]>
#d1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @warps1(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %offs: tensor<32x64xi32, #d1> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>}, %mask: tensor<32x64xi1, #d1>) {
    %other = arith.constant dense<0.000000e+00> : tensor<32x64xf16, #d1>
    %pp = tt.splat %p : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #d1>
    %pp1 = tt.addptr %pp, %offs : tensor<32x64x!tt.ptr<f16>, #d1>, tensor<32x64xi32, #d1>
    %v = tt.load %pp1, %mask, %other : tensor<32x64x!tt.ptr<f16>, #d1>
    tt.return
  }
}

// -----

// CHECK: #[[W2:.*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @warps2
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64x!tt.ptr<f16>, #[[W2]]>
// CHECK-NEXT: %[[M:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64xi1, #[[W2]]>
// CHECK-NEXT: %[[O:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64xf16, #[[W2]]>
// CHECK-NEXT: tt.load %[[P]], %[[M]], %[[O]] : tensor<32x64x!tt.ptr<f16>, #[[W2]]>
#d2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @warps2(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %offs: tensor<32x64xi32, #d2> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>}, %mask: tensor<32x64xi1, #d2>) {
    %other = arith.constant dense<0.000000e+00> : tensor<32x64xf16, #d2>
    %pp = tt.splat %p : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #d2>
    %pp1 = tt.addptr %pp, %offs : tensor<32x64x!tt.ptr<f16>, #d2>, tensor<32x64xi32, #d2>
    %v = tt.load %pp1, %mask, %other : tensor<32x64x!tt.ptr<f16>, #d2>
    tt.return
  }
}

// -----

// CHECK: #[[W8:.*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @warps8
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64x!tt.ptr<f16>, #[[W8]]>
// CHECK-NEXT: %[[M:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64xi1, #[[W8]]>
// CHECK-NEXT: %[[O:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64xf16, #[[W8]]>
// CHECK-NEXT: tt.load %[[P]], %[[M]], %[[O]] : tensor<32x64x!tt.ptr<f16>, #[[W8]]>
#d8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @warps8(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %offs: tensor<32x64xi32, #d8> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>}, %mask: tensor<32x64xi1, #d8>) {
    %other = arith.constant dense<0.000000e+00> : tensor<32x64xf16, #d8>
    %pp = tt.splat %p : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #d8>
    %pp1 = tt.addptr %pp, %offs : tensor<32x64x!tt.ptr<f16>, #d8>, tensor<32x64xi32, #d8>
    %v = tt.load %pp1, %mask, %other : tensor<32x64x!tt.ptr<f16>, #d8>
    tt.return
  }
}

// -----

// CHECK: #[[W16:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [16, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @warps16
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64x!tt.ptr<f16>, #[[W16]]>
// CHECK-NEXT: %[[M:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64xi1, #[[W16]]>
// CHECK-NEXT: %[[O:.*]] = ttg.convert_layout %{{.*}} -> tensor<32x64xf16, #[[W16]]>
// CHECK-NEXT: tt.load %[[P]], %[[M]], %[[O]] : tensor<32x64x!tt.ptr<f16>, #[[W16]]>
#d16 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [16, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 16 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @warps16(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %offs: tensor<32x64xi32, #d16> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>}, %mask: tensor<32x64xi1, #d16>) {
    %other = arith.constant dense<0.000000e+00> : tensor<32x64xf16, #d16>
    %pp = tt.splat %p : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #d16>
    %pp1 = tt.addptr %pp, %offs : tensor<32x64x!tt.ptr<f16>, #d16>, tensor<32x64xi32, #d16>
    %v = tt.load %pp1, %mask, %other : tensor<32x64x!tt.ptr<f16>, #d16>
    tt.return
  }
}

// -----

#e = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_num_warps(%p: tensor<128x!tt.ptr<f32>, #e>) {
    // As in Triton, the layout verifier rejects this before the pass runs.
    // expected-error @+1 {{Operand 0 (<block argument> of type 'tensor<128x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' at index: 0) has an invalid layout: Could not determine the number of warps per CTA. Operation is not in a context with `ttg.num-warps`.}}
    %v = tt.load %p : tensor<128x!tt.ptr<f32>, #e>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_layout(%p: tensor<128x!tt.ptr<f32>>, %v: tensor<128xf32>) {
    // expected-error @+1 {{'tt.store' op pointer tensor has no layout: run convert-triton-to-tritongpu first}}
    tt.store %p, %v : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Equal contiguity in both dimensions ([1, 1]): Triton 3.6.0's own coalesce
// (run on this module through its Python bindings) orders the dims [0, 1].
// CHECK: #[[TIE:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
// CHECK-LABEL: tt.func public @tie
// CHECK: tt.load %{{.*}} : tensor<64x128x!tt.ptr<f16>, #[[TIE]]>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tie(%p: tensor<64x128x!tt.ptr<f16>, #blocked>, %q: tensor<64x128x!tt.ptr<f16>, #blocked>) {
    %v = tt.load %p : tensor<64x128x!tt.ptr<f16>, #blocked>
    tt.store %q, %v : tensor<64x128x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
