// convert-triton-gpu-to-llvm, the core of the lowering: kernels become
// llvm.func with nvvm.kernel, reqntid and the two trailing scratch
// pointers; tensors become per-thread values; global loads and stores are
// predicated inline PTX whose vector width comes from the layout, the
// pointer alignment and the mask; replicated stores are masked to one
// owner; expand_dims/broadcast pick registers; f32 divf and exp use the
// fast PTX forms; other math goes to libdevice; cp.async copies to shared
// memory at the allocated offset; unsupported ops get a located error.
// A thread's offsets read tid.x as one field where the layout's lane and
// warp bases are consecutive powers of two ((tid & 127) << 2 here, not a
// term per bit). Accesses of several elements a thread that stay scalar
// get Triton's vectorization remark (only the expected ones are checked).
// RUN: tt-opt %s --split-input-file --verify-diagnostics=only-expected --convert-triton-gpu-to-llvm | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @add(
// CHECK-SAME: %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>)
// CHECK-SAME: attributes {nvvm.kernel = 1 : ui1, nvvm.reqntid = array<i32: 128>}
// CHECK: %[[RAW:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[TID:.*]] = llvm.and %[[RAW]]
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(127 : i32)
// CHECK-NEXT: %[[FIELD:.*]] = llvm.and %[[TID]], %[[MASK]]
// CHECK-NEXT: %[[TWO:.*]] = llvm.mlir.constant(2 : i32)
// CHECK-NEXT: llvm.shl %[[FIELD]], %[[TWO]]
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mov.u32 $0, 0x0;\0A\09mov.u32 $1, 0x0;\0A\09mov.u32 $2, 0x0;\0A\09mov.u32 $3, 0x0;\0A\09@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b"
// CHECK-COUNT-4: llvm.fadd
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "@$5 st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l,b"
// CHECK: llvm.return
  tt.func public @add(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %c512 = arith.constant 512 : i32
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c512 : i32
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %s = tt.splat %start : i32 -> tensor<512xi32, #blocked>
    %offsets = arith.addi %s, %range : tensor<512xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #blocked>
    %mask = arith.cmpi slt, %offsets, %ns : tensor<512xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %offsets : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %v = tt.load %xp, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    %w = arith.addf %v, %v : tensor<512xf32, #blocked>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %yp = tt.addptr %ys, %offsets : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tt.store %yp, %w, %mask : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Bytes travel packed four to a 32-bit word: unpacked through a vector
// bitcast and extractelement, packed with insertelement, as in Triton
// (LLVM then selects byte permutes).
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @bytes
// CHECK: %[[WORD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"
// CHECK: %[[VEC:.*]] = llvm.bitcast %[[WORD]] : i32 to vector<4xi8>
// CHECK-COUNT-4: llvm.extractelement %[[VEC]][%{{.*}} : i32] : vector<4xi8>
// CHECK-COUNT-4: llvm.add
// CHECK: %[[P0:.*]] = llvm.mlir.undef : vector<4xi8>
// CHECK-COUNT-4: llvm.insertelement
// CHECK: %[[PACKED:.*]] = llvm.bitcast %{{.*}} : vector<4xi8> to i32
// CHECK: "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b" %[[PACKED]]
  tt.func public @bytes(%x: !tt.ptr<i8> {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>, #blocked>
    %xp = tt.addptr %xs, %range : tensor<128x!tt.ptr<i8>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %xp : tensor<128x!tt.ptr<i8>, #blocked>
    %w = arith.addi %v, %v : tensor<128xi8, #blocked>
    tt.store %xp, %w : tensor<128x!tt.ptr<i8>, #blocked>
    tt.return
  }
}

// -----

// Elementwise results that AxisInfo proves constant over a thread's
// aligned groups of registers are computed once per group (Triton's
// deduplication): range / 4 and its mask are constant over each thread's
// four registers, so one division and one comparison serve them all.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @constant_groups
// CHECK: llvm.sdiv
// CHECK-NOT: llvm.sdiv
// CHECK: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: st.global.v4.b32
  tt.func public @constant_groups(%out: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c4 = arith.constant dense<4> : tensor<128xi32, #blocked>
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %q = arith.divsi %range, %c4 : tensor<128xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<128xi32, #blocked>
    %m = arith.cmpi slt, %q, %ns : tensor<128xi32, #blocked>
    %os = tt.splat %out : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #blocked>
    %op = tt.addptr %os, %range : tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>
    tt.store %op, %q, %m : tensor<128x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// Deduplication across repetitions, as Triton 3.6 computes it from the
// layout: the rows of a thread are 8 apart (eight warps, one row each), and
// with n a multiple of 16 the row mask is constant over aligned runs of 16
// rows, so rows r and r + 8 share one comparison (the matmul epilogue's
// row mask: 2 comparisons for 4 rows).
#rows = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @constant_across_repetitions
// CHECK-COUNT-2: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp "slt"
  tt.func public @constant_across_repetitions(%out: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #rows}>>
    %ns = tt.splat %n : i32 -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #rows}>>
    %m = arith.cmpi slt, %range, %ns : tensor<32xi32, #ttg.slice<{dim = 1, parent = #rows}>>
    %m2 = tt.expand_dims %m {axis = 1 : i32} : tensor<32xi1, #ttg.slice<{dim = 1, parent = #rows}>> -> tensor<32x1xi1, #rows>
    %v = arith.extui %m2 : tensor<32x1xi1, #rows> to tensor<32x1xi8, #rows>
    %os = tt.splat %out : !tt.ptr<i8> -> tensor<32x1x!tt.ptr<i8>, #rows>
    %r2 = tt.expand_dims %range {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #rows}>> -> tensor<32x1xi32, #rows>
    %op = tt.addptr %os, %r2 : tensor<32x1x!tt.ptr<i8>, #rows>, tensor<32x1xi32, #rows>
    tt.store %op, %v : tensor<32x1x!tt.ptr<i8>, #rows>
    tt.return
  }
}

// -----

// Unknown alignment: one element per access, with `other` moved in, and
// Triton's remarks on the accesses it cannot vectorise (the mask, all true,
// is aligned to the whole tensor).
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @unaligned
// CHECK-SAME: nvvm.reqntid = array<i32: 32>
// CHECK-COUNT-2: "mov.u16 $0, $1;\0A\09@$3 ld.global.b16 { $0 }, [ $2 + 0 ];", "=h,h,l,b"
// CHECK-NOT: ld.global
  tt.func public @unaligned(%x: !tt.ptr<f16>, %out: !tt.ptr<f16>) {
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked>
    %xp = tt.addptr %xs, %range : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked>
    %true = arith.constant dense<true> : tensor<64xi1, #blocked>
    %other = arith.constant dense<1.0> : tensor<64xf16, #blocked>
    // expected-remark @+1 {{Warning: vectorization fails vec = 1 origin vec = 1 numElems = 2 mask is 64}}
    %v = tt.load %xp, %true, %other : tensor<64x!tt.ptr<f16>, #blocked>
    %os = tt.splat %out : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>, #blocked>
    %op = tt.addptr %os, %range : tensor<64x!tt.ptr<f16>, #blocked>, tensor<64xi32, #blocked>
    // expected-remark @+1 {{Warning: vectorization fails vec = 1 origin vec = 1 elemsPerThread = 2 mask is -1}}
    tt.store %op, %v : tensor<64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// A scalar load has no predicate; a scalar store is done by thread 0 only.
// A tensor smaller than the CTA is stored by one owner per element.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @scalars
// CHECK: %[[RAW:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[TID:.*]] = llvm.and %[[RAW]]
// CHECK: "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32)
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %[[ZERO]]
// CHECK: "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b" %{{.*}}, %{{.*}}, %[[FIRST]]
// The 2-element tensor: lanes 1..31 and warps 1..3 hold copies.
// CHECK: %[[LANES:.*]] = llvm.mlir.constant(30 : i32)
// CHECK: llvm.and %{{.*}}, %[[LANES]]
// CHECK: %[[WARPS:.*]] = llvm.mlir.constant(3 : i32)
// CHECK: llvm.and %{{.*}}, %[[WARPS]]
// CHECK: "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"
  tt.func public @scalars(%p: !tt.ptr<i32>) {
    %v = tt.load %p : !tt.ptr<i32>
    tt.store %p, %v : !tt.ptr<i32>
    %range = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<2x!tt.ptr<i32>, #blocked>
    %pp = tt.addptr %ps, %range : tensor<2x!tt.ptr<i32>, #blocked>, tensor<2xi32, #blocked>
    tt.store %pp, %range : tensor<2x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// 2-D: expand_dims of slices and broadcasts pick registers; u8 loads.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @grid
// CHECK-COUNT-2: "mov.u16 $0, 0x0;\0A\09ld.global.b8 { $0 }, [ $1 + 0 ];", "=c,l"
// CHECK-NOT: ld.global
// CHECK-COUNT-2: "@$2 st.global.b8 [ $1 + 0 ], { $0 };", "c,l,b"
  tt.func public @grid(%p: !tt.ptr<i8>) {
    %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<8xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<8x1xi32, #blocked>
    %c = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %c32 = arith.constant dense<32> : tensor<8x1xi32, #blocked>
    %rs = arith.muli %r, %c32 : tensor<8x1xi32, #blocked>
    %rb = tt.broadcast %rs : tensor<8x1xi32, #blocked> -> tensor<8x32xi32, #blocked>
    %cb = tt.broadcast %c : tensor<1x32xi32, #blocked> -> tensor<8x32xi32, #blocked>
    %offsets = arith.addi %rb, %cb : tensor<8x32xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i8> -> tensor<8x32x!tt.ptr<i8>, #blocked>
    %pp = tt.addptr %ps, %offsets : tensor<8x32x!tt.ptr<i8>, #blocked>, tensor<8x32xi32, #blocked>
    %v = tt.load %pp : tensor<8x32x!tt.ptr<i8>, #blocked>
    %w = arith.addi %v, %v : tensor<8x32xi8, #blocked>
    tt.store %pp, %w : tensor<8x32x!tt.ptr<i8>, #blocked>
    tt.return
  }
}

// -----

// f32 division and exp use Triton's fast PTX; exp2 and log go to libdevice
// (exp2f's nvvm-reflect-ftz branch picks ex2.approx.ftz.f32 or ex2.approx.f32).
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-DAG: llvm.func @__nv_logf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_exp2f(f32) -> f32
// CHECK-LABEL: llvm.func @math
// CHECK: "div.full.f32 $0, $1, $2;", "=r,r,r"
// CHECK: llvm.mlir.constant(1.44269502 : f32)
// CHECK: llvm.fmul
// CHECK: "ex2.approx.f32 $0, $1;", "=r,r"
// CHECK: llvm.call @__nv_exp2f
// CHECK: llvm.call @__nv_logf
  tt.func public @math(%p: !tt.ptr<f32>) {
    %range = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %range : tensor<32x!tt.ptr<f32>, #blocked>, tensor<32xi32, #blocked>
    %v = tt.load %pp : tensor<32x!tt.ptr<f32>, #blocked>
    %d = arith.divf %v, %v : tensor<32xf32, #blocked>
    %e = math.exp %d : tensor<32xf32, #blocked>
    %e2 = math.exp2 %e : tensor<32xf32, #blocked>
    %l = math.log %e2 : tensor<32xf32, #blocked>
    tt.store %pp, %l : tensor<32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Scalar arith and math ops become their LLVM counterparts (cmpi keeps its
// predicate); one with fast-math flags, and one without a counterpart in
// the lowering (ctpop), are finished by MLIR's conversions inside the pass.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @scalar_ops
// CHECK: %[[GT:.*]] = llvm.icmp "sgt" %arg1, %arg2 : i32
// CHECK: %[[M:.*]] = llvm.select %[[GT]], %arg1, %arg2 : i1, i32
// CHECK: %[[F:.*]] = llvm.sitofp %[[M]] : i32 to f32
// CHECK: %[[Y:.*]] = llvm.intr.maxnum(%[[F]], %arg3) : (f32, f32) -> f32
// CHECK: llvm.fadd %[[Y]], %arg3 {fastmathFlags = #llvm.fastmath<fast>} : f32
// CHECK: llvm.intr.ctpop(%[[M]]) : (i32) -> i32
// CHECK-NOT: arith.
// CHECK-NOT: math.
// CHECK: llvm.return
  tt.func public @scalar_ops(%p: !tt.ptr<f32>, %a: i32, %b: i32, %x: f32) {
    %gt = arith.cmpi sgt, %a, %b : i32
    %m = arith.select %gt, %a, %b : i32
    %f = arith.sitofp %m : i32 to f32
    %y = arith.maxnumf %f, %x : f32
    %z = arith.addf %y, %x fastmath<fast> : f32
    %c = math.ctpop %m : i32
    %cf = arith.sitofp %c : i32 to f32
    %s = arith.addf %z, %cf : f32
    tt.store %p, %s : !tt.ptr<f32>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @refused(%p: !tt.ptr<f32>) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    // expected-error @+1 {{convert-triton-gpu-to-llvm: tt.gather needs its shared scratch ('allocation.offset'): run allocate-shared-memory-nv first (in 'tt.gather')}}
    %g = tt.gather %range[%range] {axis = 0 : i32} : (tensor<128xi32, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

// A pipelined load: cp.async into the buffer at its allocated offset, a
// source size of 0 where the mask is off, wait + barrier, then the shared
// load: each warp's 32 consecutive words are 8 rows of 16 bytes, both
// register halves one ldmatrix .x2 (as Triton loads them).
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 1024 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @pipelined
// CHECK: %[[OFFSET:.*]] = llvm.mlir.constant(512 : i32)
// CHECK-NEXT: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK-NEXT: llvm.getelementptr %[[BASE]][%[[OFFSET]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-COUNT-2: "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x4, $2;", "r,l,r"
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.barrier0
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3>
  tt.func public @pipelined(%p: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<256xi32, #blocked>
    %mask = arith.cmpi slt, %range, %ns : tensor<256xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %range : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %buf = ttg.local_alloc {allocation.offset = 512 : i32} : () -> !ttg.memdesc<1x256xf32, #shared, #smem, mutable>
    %view = ttg.memdesc_index %buf[%c0] : !ttg.memdesc<1x256xf32, #shared, #smem, mutable> -> !ttg.memdesc<256xf32, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %pp, %view mask %mask : tensor<256x!tt.ptr<f32>, #blocked> -> <256xf32, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 0 : i32}
    %v = ttg.local_load %view token %w : !ttg.memdesc<256xf32, #shared, #smem, mutable> -> tensor<256xf32, #blocked>
    tt.store %pp, %v : tensor<256x!tt.ptr<f32>, #blocked>
    ttg.local_dealloc %buf : !ttg.memdesc<1x256xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Without a mask the source size is the immediate copy size; a rank-1
// buffer is never swizzled (no rows), so its vec does not cap the copies:
// four f16 (8 bytes) per cp.async.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 8, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 1024 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @unmasked_copy
// CHECK: "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x8, 0x8;", "r,l"
// CHECK-NOT: cp.async.ca
// CHECK: nvvm.cp.async.commit.group
  tt.func public @unmasked_copy(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<512x!tt.ptr<f16>, #blocked>
    %pp = tt.addptr %ps, %range : tensor<512x!tt.ptr<f16>, #blocked>, tensor<512xi32, #blocked>
    %buf = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<512xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %pp, %buf : tensor<512x!tt.ptr<f16>, #blocked> -> <512xf16, #shared, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    tt.return
  }
}

// -----

// Shared addresses of copies into a swizzled buffer, as Triton computes
// them: the thread's offset once (lane bits 0-2 are column groups: 8, 16
// and 32; lane bit 3 is row 2, whose phase moves the column group: 2 * 32
// + 8 = 72; bit 4 is row 4: 144; the warp bits are rows 8 and 16, phase 0:
// 256 and 512), grouped by how far each bit moves: tid & 24 stays in
// place, tid & 127 moves up 3; then scaled to bytes, and each copy's
// register constant (row 32, phase 0: 1024 elements, 2048 bytes, a bit no
// lane or warp sets) as a second constant index.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @swizzled_copy
// CHECK: %[[RAW:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[TID:.*]] = llvm.and %[[RAW]]
// CHECK: %[[BUF:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[C24:.*]] = llvm.mlir.constant(24 : i32)
// CHECK-NEXT: %[[STAYS:.*]] = llvm.and %[[TID]], %[[C24]]
// CHECK-NEXT: %[[C127:.*]] = llvm.mlir.constant(127 : i32)
// CHECK-NEXT: %[[MOVES:.*]] = llvm.and %[[TID]], %[[C127]]
// CHECK-NEXT: %[[C3:.*]] = llvm.mlir.constant(3 : i32)
// CHECK-NEXT: %[[UP:.*]] = llvm.shl %[[MOVES]], %[[C3]]
// CHECK-NEXT: %[[THREAD:.*]] = llvm.xor %[[STAYS]], %[[UP]]
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[BYTES:.*]] = llvm.shl %[[THREAD]], %[[ONE]]
// CHECK-NEXT: %[[FIRST:.*]] = llvm.getelementptr %[[BUF]][%[[BYTES]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[AGAIN:.*]] = llvm.getelementptr %[[BUF]][%[[BYTES]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[ROW32:.*]] = llvm.mlir.constant(2048 : i32)
// CHECK-NEXT: %[[SECOND:.*]] = llvm.getelementptr %[[AGAIN]][%[[ROW32]]]
// CHECK-NEXT: "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x10, 0x10;", "r,l" %[[FIRST]]
// CHECK-NEXT: "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x10, 0x10;", "r,l" %[[SECOND]]
// CHECK-NOT: cp.async.cg
  tt.func public @swizzled_copy(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %offs: tensor<64x32xi32, #blocked> {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<[32, 32]> : tensor<2xi32>}) {
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %pp = tt.addptr %ps, %offs : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %buf = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %pp, %buf : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Triton's special scalar ops: umulhi and the f64 exponentials from
// libdevice, IEEE division and square root as NVVM's div.rn / sqrt.rn,
// tl.sqrt (math.sqrt) on f32 as the fast sqrt.approx.ftz and on f64 as IEEE, clamp as max then min (NaN-propagating with propagateNan = all),
// tl.debug_barrier as a CTA barrier (one warp here: the warp's); ttg.maxnreg caps the kernel's
// registers.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32, "ttg.maxnreg" = 128 : i32} {
// CHECK-DAG: llvm.func @__nv_umulhi(i32, i32) -> i32
// CHECK-DAG: llvm.func @__nv_exp(f64) -> f64
// CHECK-DAG: llvm.func @__nv_exp2(f64) -> f64
// CHECK-LABEL: llvm.func @special
// CHECK-SAME: nvvm.maxnreg = 128 : i32
// CHECK: llvm.call @__nv_umulhi
// CHECK: llvm.call_intrinsic "llvm.nvvm.div.rn.f"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.approx.ftz.f"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.intr.sqrt(%{{.*}}) : (f64) -> f64
// CHECK: llvm.intr.maximum(
// CHECK: llvm.intr.minimum(
// CHECK: llvm.intr.maxnum(
// CHECK: llvm.intr.minnum(
// CHECK: llvm.call @__nv_exp(
// CHECK: llvm.call @__nv_exp2(
// CHECK: nvvm.bar.warp.sync
  tt.func public @special(%p: !tt.ptr<f32>, %i: i32, %x: f32, %d: f64) {
    %h = tt.mulhiui %i, %i : i32
    %q = tt.precise_divf %x, %x : f32
    %s0 = tt.precise_sqrt %q : f32
    %s = math.sqrt %s0 : f32
    %d0 = math.sqrt %d : f64
    %c1 = tt.clampf %s, %x, %x, propagateNan = all : f32
    %c2 = tt.clampf %c1, %x, %x, propagateNan = none : f32
    %e = math.exp %d0 : f64
    %e2 = math.exp2 %e : f64
    gpu.barrier
    tt.store %p, %c2 : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Loop metadata (tl.range(..., disable_licm=True)) that scf-to-cf left on a
// loop's back edge stays on the LLVM branch.
#loop_licm = #llvm.loop_licm<disable = true, versioningDisable = true>
#loop_annotation = #llvm.loop_annotation<licm = #loop_licm>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @annotated_loop
// CHECK: llvm.cond_br %{{.*}}, ^{{.*}}, ^{{.*}} {loop_annotation = #loop_annotation}
  tt.func public @annotated_loop(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    cf.br ^head(%c0 : i32)
  ^head(%i: i32):
    %more = arith.cmpi slt, %i, %n : i32
    cf.cond_br %more, ^body, ^exit {llvm.loop_annotation = #loop_annotation}
  ^body:
    %next = arith.addi %i, %c1 : i32
    cf.br ^head(%next : i32)
  ^exit:
    tt.return
  }
}

// -----

// Below sm_89 (compute-capability defaults to 80, as Triton's) the
// hardware has no fp8 conversions; Triton emulates them with integer code.
// This project emulates e5m2 to and from f16 and f32 as Triton does (e5m2
// is f16's high byte: f32 goes toward zero to f16, f16 rounds by adding
// 0x80 and keeping the high byte); e4m3 and bf16 are refused. The sm_90
// forms are in tritongpu-to-llvm-hopper.mlir.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_sm80(%p: !tt.ptr<f32>, %p4: !tt.ptr<f8E4M3FN>) {
    %range = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %range : tensor<32x!tt.ptr<f32>, #blocked>, tensor<32xi32, #blocked>
    %p4s = tt.splat %p4 : !tt.ptr<f8E4M3FN> -> tensor<32x!tt.ptr<f8E4M3FN>, #blocked>
    %p4p = tt.addptr %p4s, %range : tensor<32x!tt.ptr<f8E4M3FN>, #blocked>, tensor<32xi32, #blocked>
    %e4 = tt.load %p4p : tensor<32x!tt.ptr<f8E4M3FN>, #blocked>
    // expected-error @+1 {{'tt.fp_to_fp' from f8E4M3FN to f32 is not supported yet below sm_89 (Triton emulates it there)}}
    %0 = tt.fp_to_fp %e4 : tensor<32xf8E4M3FN, #blocked> -> tensor<32xf32, #blocked>
    tt.store %pp, %0 : tensor<32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @e5m2_sm80
// CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i16) : i16
// CHECK: %[[HALF:.*]] = llvm.shl %{{.*}}, %[[EIGHT]] : i16
// CHECK: %[[H:.*]] = llvm.bitcast %[[HALF]] : i16 to f16
// CHECK: llvm.fpext %[[H]] : f16 to f32
// CHECK: %[[RZ:.*]] = llvm.inline_asm {{.*}} "cvt.rz.f16.f32 $0, $1;", "=h,r"
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(-2 : i16) : i16
// CHECK: %[[EVEN:.*]] = llvm.and %[[RZ]], %[[MASK]] : i16
// CHECK: %[[HALFWAY:.*]] = llvm.mlir.constant(128 : i16) : i16
// CHECK: %[[UP:.*]] = llvm.add %[[EVEN]], %[[HALFWAY]] : i16
// CHECK: %[[E8:.*]] = llvm.mlir.constant(8 : i16) : i16
// CHECK: %[[HIGH:.*]] = llvm.lshr %[[UP]], %[[E8]] : i16
// CHECK: llvm.trunc %[[HIGH]] : i16 to i8
  tt.func public @e5m2_sm80(%p: !tt.ptr<f32>, %p5: !tt.ptr<f8E5M2>) {
    %range = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %range : tensor<32x!tt.ptr<f32>, #blocked>, tensor<32xi32, #blocked>
    %p5s = tt.splat %p5 : !tt.ptr<f8E5M2> -> tensor<32x!tt.ptr<f8E5M2>, #blocked>
    %p5p = tt.addptr %p5s, %range : tensor<32x!tt.ptr<f8E5M2>, #blocked>, tensor<32xi32, #blocked>
    %e5 = tt.load %p5p : tensor<32x!tt.ptr<f8E5M2>, #blocked>
    %0 = tt.fp_to_fp %e5 : tensor<32xf8E5M2, #blocked> -> tensor<32xf32, #blocked>
    %1 = tt.fp_to_fp %0, rounding = rtne : tensor<32xf32, #blocked> -> tensor<32xf8E5M2, #blocked>
    tt.store %p5p, %1 : tensor<32x!tt.ptr<f8E5M2>, #blocked>
    tt.return
  }
}

// -----

// tl.inline_asm_elementwise: the user's asm once per packed_element
// elements; i8 operands and results four to a 32-bit register as vectors;
// two results of one register each come back in a struct; side effects
// only where the op is not pure.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @inline_asm
// CHECK-COUNT-3: llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<4xi8>
// CHECK: %[[V:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<4xi8>
// CHECK-NEXT: %[[P:.*]] = llvm.inline_asm asm_dialect = att "shl.b32 $0, $1, 3;", "=r,r" %[[V]] : (vector<4xi8>) -> vector<4xi8>
// CHECK-COUNT-4: llvm.extractelement %[[P]]
// CHECK-COUNT-4: llvm.inline_asm asm_dialect = att "sub.u32 $0, $2, $3; sub.u32 $1, $3, $2;", "=r,=r,r,r" %{{.*}}, %{{.*}} : (i32, i32) -> !llvm.struct<(i32, i32)>
// CHECK: llvm.extractvalue %{{.*}}[1] : !llvm.struct<(i32, i32)>
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "st.global.b32 [$1], $0;", "=r,l"
  tt.func public @inline_asm(%p: !tt.ptr<i8>, %q: !tt.ptr<i32>) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>, #blocked>
    %pp = tt.addptr %ps, %range : tensor<128x!tt.ptr<i8>, #blocked>, tensor<128xi32, #blocked>
    %qs = tt.splat %q : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #blocked>
    %qp = tt.addptr %qs, %range : tensor<128x!tt.ptr<i32>, #blocked>, tensor<128xi32, #blocked>
    %x = tt.load %pp : tensor<128x!tt.ptr<i8>, #blocked>
    %y = tt.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %x : tensor<128xi8, #blocked> -> tensor<128xi8, #blocked>
    tt.store %pp, %y : tensor<128x!tt.ptr<i8>, #blocked>
    %a = tt.load %qp : tensor<128x!tt.ptr<i32>, #blocked>
    %c:2 = tt.elementwise_inline_asm "sub.u32 $0, $2, $3; sub.u32 $1, $3, $2;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = true} %a, %range : tensor<128xi32, #blocked>, tensor<128xi32, #blocked> -> tensor<128xi32, #blocked>, tensor<128xi32, #blocked>
    tt.store %qp, %c#1 : tensor<128x!tt.ptr<i32>, #blocked>
    %s = tt.elementwise_inline_asm "st.global.b32 [$1], $0;" {constraints = "=r,l", packed_element = 1 : i32, pure = false} %qp : tensor<128x!tt.ptr<i32>, #blocked> -> tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

// Two i8 elements a thread, packed_element = 4: the asm runs once on the two
// elements and two undefined ones, and only the first two results are kept
// (Triton's padding).
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @inline_asm_padded
// CHECK: %[[U:.*]] = llvm.mlir.undef : i8
// CHECK-COUNT-2: llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<4xi8>
// CHECK: llvm.insertelement %[[U]], %{{.*}}[%{{.*}} : i32] : vector<4xi8>
// CHECK: %[[V:.*]] = llvm.insertelement %[[U]], %{{.*}}[%{{.*}} : i32] : vector<4xi8>
// CHECK-NEXT: %[[P:.*]] = llvm.inline_asm asm_dialect = att "shl.b32 $0, $1, 3;", "=r,r" %[[V]] : (vector<4xi8>) -> vector<4xi8>
// CHECK-NOT: llvm.inline_asm asm_dialect = att "shl.b32
// CHECK: llvm.return
  tt.func public @inline_asm_padded(%p: !tt.ptr<i8>) {
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i8> -> tensor<64x!tt.ptr<i8>, #blocked>
    %pp = tt.addptr %ps, %range : tensor<64x!tt.ptr<i8>, #blocked>, tensor<64xi32, #blocked>
    %x = tt.load %pp : tensor<64x!tt.ptr<i8>, #blocked>
    %y = tt.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %x : tensor<64xi8, #blocked> -> tensor<64xi8, #blocked>
    tt.store %pp, %y : tensor<64x!tt.ptr<i8>, #blocked>
    tt.return
  }
}

// -----

// tt.histogram through its scratch: the counters cleared (predicated where
// the bins do not fill the threads), a barrier, one red.shared.add per
// element where it lies in [0, bins) and its mask is set (two per thread
// here), a barrier, then each result register reads its bin.
#src = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#dst = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @histogram
// CHECK: llvm.icmp "slt"
// CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "l,r,b"
// CHECK-NOT: st.shared
// CHECK: nvvm.barrier0
// CHECK: %[[IN:.*]] = llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
// CHECK: llvm.and %[[IN]], %{{.*}} : i1
// CHECK: "@$1 red.shared.add.u32 [ $0 + 0 ], 1;", "l,b"
// CHECK: "@$1 red.shared.add.u32 [ $0 + 0 ], 1;", "l,b"
// CHECK-NOT: red.shared
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  tt.func public @histogram(%x: !tt.ptr<i32>, %z: !tt.ptr<i32>) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #src>
    %xs = tt.splat %x : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #src>
    %xp = tt.addptr %xs, %range : tensor<128x!tt.ptr<i32>, #src>, tensor<128xi32, #src>
    %v = tt.load %xp : tensor<128x!tt.ptr<i32>, #src>
    %c64 = arith.constant dense<64> : tensor<128xi32, #src>
    %m = arith.cmpi slt, %range, %c64 : tensor<128xi32, #src>
    %h = tt.histogram %v, %m {allocation.offset = 0 : i32} : tensor<128xi32, #src> -> tensor<16xi32, #dst>
    %bins = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #dst>
    %zs = tt.splat %z : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>, #dst>
    %zp = tt.addptr %zs, %bins : tensor<16x!tt.ptr<i32>, #dst>, tensor<16xi32, #dst>
    tt.store %zp, %h : tensor<16x!tt.ptr<i32>, #dst>
    tt.return
  }
}

// -----

// noinline functions (tl.jit(noinline=True)) stay functions: internal
// llvm.func with no_inline, the scalars, then their shared memory (a
// pointer in address space 3) and the caller's two scratch pointers as
// arguments, several results in a struct; calls pass the shared memory the
// allocation reserved for the call (without an allocation, the caller's
// base) and the caller's scratch pointers on. gluon-inline and the global
// scratch allocation leave such calls alone.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @caller
// CHECK-SAME: (%[[X:.*]]: f32, %[[P:.*]]: !llvm.ptr<1>, %[[S0:.*]]: !llvm.ptr<1>, %[[S1:.*]]: !llvm.ptr<1>)
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[R:.*]] = llvm.call @two(%[[X]], %[[SMEM]], %[[S0]], %[[S1]]) : (f32, !llvm.ptr<3>, !llvm.ptr<1>, !llvm.ptr<1>) -> !llvm.struct<(f32, i32)>
// CHECK: llvm.extractvalue %[[R]][0] : !llvm.struct<(f32, i32)>
// CHECK: llvm.extractvalue %[[R]][1] : !llvm.struct<(f32, i32)>
// CHECK: llvm.call @store(%{{.*}}, %[[P]], %[[SMEM]], %[[S0]], %[[S1]]) : (f32, !llvm.ptr<1>, !llvm.ptr<3>, !llvm.ptr<1>, !llvm.ptr<1>) -> ()
// CHECK-LABEL: llvm.func internal @two
// CHECK-SAME: (%{{.*}}: f32, %{{.*}}: !llvm.ptr<3>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>) -> !llvm.struct<(f32, i32)>
// CHECK-SAME: no_inline
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[0] : !llvm.struct<(f32, i32)>
// CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[1] : !llvm.struct<(f32, i32)>
// CHECK: llvm.return %{{.*}} : !llvm.struct<(f32, i32)>
// CHECK-LABEL: llvm.func internal @store
// CHECK: st.global
// CHECK: llvm.return
  tt.func public @caller(%x: f32, %p: !tt.ptr<f32>) {
    %r:2 = tt.call @two(%x) : (f32) -> (f32, i32)
    %f = arith.sitofp %r#1 : i32 to f32
    %s = arith.addf %r#0, %f : f32
    tt.call @store(%s, %p) : (f32, !tt.ptr<f32>) -> ()
    tt.return
  }
  tt.func private @two(%x: f32) -> (f32, i32) attributes {noinline = true} {
    %c1 = arith.constant 1 : i32
    %y = arith.addf %x, %x : f32
    tt.return %y, %c1 : f32, i32
  }
  tt.func private @store(%x: f32, %p: !tt.ptr<f32>) attributes {noinline = true} {
    tt.store %p, %x : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Tensors cross function boundaries as structs of the thread's elements,
// as Triton passes them: packed at the call and the return, taken apart at
// the callee's entry and after the call.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @tensor_caller
// CHECK: %[[A0:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK: %[[A1:.*]] = llvm.insertvalue %{{.*}}, %[[A0]][1] : !llvm.struct<(f32, f32)>
// CHECK: %[[R:.*]] = llvm.call @twice(%[[A1]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.struct<(f32, f32)>, !llvm.ptr<3>, !llvm.ptr<1>, !llvm.ptr<1>) -> !llvm.struct<(f32, f32)>
// CHECK: llvm.extractvalue %[[R]][0] : !llvm.struct<(f32, f32)>
// CHECK: llvm.extractvalue %[[R]][1] : !llvm.struct<(f32, f32)>
// CHECK-LABEL: llvm.func internal @twice
// CHECK-SAME: (%[[ARG:.*]]: !llvm.struct<(f32, f32)>, %{{.*}}: !llvm.ptr<3>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>) -> !llvm.struct<(f32, f32)>
// CHECK: %[[E0:.*]] = llvm.extractvalue %[[ARG]][0] : !llvm.struct<(f32, f32)>
// CHECK: %[[E1:.*]] = llvm.extractvalue %[[ARG]][1] : !llvm.struct<(f32, f32)>
// CHECK: %[[D0:.*]] = llvm.fadd %[[E0]], %[[E0]]
// CHECK: %[[D1:.*]] = llvm.fadd %[[E1]], %[[E1]]
// CHECK: llvm.insertvalue %[[D0]], %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK: llvm.insertvalue %[[D1]], %{{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK: llvm.return %{{.*}} : !llvm.struct<(f32, f32)>
  tt.func public @tensor_caller(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %x = arith.sitofp %r : tensor<64xi32, #blocked> to tensor<64xf32, #blocked>
    %y = tt.call @twice(%x) : (tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
    tt.store %pp, %y : tensor<64x!tt.ptr<f32>, #blocked>
    tt.return
  }
  tt.func private @twice(%x: tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked> attributes {noinline = true} {
    %y = arith.addf %x, %x : tensor<64xf32, #blocked>
    tt.return %y : tensor<64xf32, #blocked>
  }
}

// -----

// tt.gather through its scratch: the source stored once in row-major order
// (owners only: the 1-D source repeats across the two warps), a barrier,
// then each result element loads source[index] (i64 indices truncated).
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @gather
// CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b"
// CHECK-NOT: st.shared
// CHECK: nvvm.barrier0
// CHECK: llvm.trunc %{{.*}} : i64 to i32
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  tt.func public @gather(%s: !tt.ptr<f32>, %i: !tt.ptr<i64>) {
    %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
    %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %ss = tt.splat %s : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #blocked>
    %sp = tt.addptr %ss, %r32 : tensor<32x!tt.ptr<f32>, #blocked>, tensor<32xi32, #blocked>
    %src = tt.load %sp : tensor<32x!tt.ptr<f32>, #blocked>
    %is = tt.splat %i : !tt.ptr<i64> -> tensor<64x!tt.ptr<i64>, #blocked>
    %ip = tt.addptr %is, %r64 : tensor<64x!tt.ptr<i64>, #blocked>, tensor<64xi32, #blocked>
    %idx = tt.load %ip : tensor<64x!tt.ptr<i64>, #blocked>
    %g = tt.gather %src[%idx] {allocation.offset = 0 : i32, axis = 0 : i32} : (tensor<32xf32, #blocked>, tensor<64xi64, #blocked>) -> tensor<64xf32, #blocked>
    %os = tt.splat %s : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
    %op = tt.addptr %os, %r64 : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
    tt.store %op, %g : tensor<64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// tl.assume stays an llvm.intr.assume on its scalar condition; ub.poison
// (a path of a function that returns nothing) becomes LLVM's poison, one
// value standing for every element.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @assume_poison
// CHECK: %[[C:.*]] = llvm.icmp "sge"
// CHECK: llvm.intr.assume %[[C]] : i1
// CHECK: %[[P:.*]] = llvm.mlir.poison : i32
// CHECK: "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b" %[[P]]
// CHECK: llvm.mlir.poison : f32
// CHECK-COUNT-2: st.global.b32
  tt.func public @assume_poison(%p: !tt.ptr<i32>, %q: !tt.ptr<f32>, %n: i32) {
    %c128 = arith.constant 128 : i32
    %ok = arith.cmpi sge, %n, %c128 : i32
    llvm.intr.assume %ok : i1
    %u = ub.poison : i32
    tt.store %p, %u : !tt.ptr<i32>
    %t = ub.poison : tensor<64xf32, #blocked>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %qs = tt.splat %q : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
    %qp = tt.addptr %qs, %r : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
    tt.store %qp, %t : tensor<64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// tl.map_elementwise: the scalar region per group of pack elements. One
// block (pack = 2: operand-major arguments, result-major returns) is
// lowered in place; several blocks get fresh blocks per group, the entry in
// place, each return branching to a join block carrying the results, where
// the next group continues.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @map_elementwise
// CHECK: %[[Q0:.*]] = llvm.udiv %[[A0:.*]], %[[B0:.*]] : i32
// CHECK-NEXT: %[[Q1:.*]] = llvm.udiv %[[A1:.*]], %[[B1:.*]] : i32
// CHECK-NEXT: %[[M0:.*]] = llvm.urem %[[A0]], %[[B0]] : i32
// CHECK-NEXT: llvm.urem %[[A1]], %[[B1]] : i32
// CHECK: %[[LT:.*]] = llvm.icmp "slt" %[[Q0]], %[[M0]] : i32
// CHECK-NEXT: llvm.cond_br %[[LT]], ^[[J1:.*]](%{{.*}} : i32), ^[[E1:.*]]
// CHECK: ^[[E1]]:
// CHECK: llvm.br ^[[J1]](%{{.*}} : i32)
// CHECK: ^[[J1]](%{{.*}}: i32):
// CHECK: llvm.icmp "slt"
// CHECK: llvm.cond_br
// CHECK: ^{{.*}}(%{{.*}}: i32):
// CHECK-COUNT-2: st.global.b32
  tt.func public @map_elementwise(%a: !tt.ptr<i32>, %b: !tt.ptr<i32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %as = tt.splat %a : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked>
    %ap = tt.addptr %as, %r : tensor<64x!tt.ptr<i32>, #blocked>, tensor<64xi32, #blocked>
    %bs = tt.splat %b : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>, #blocked>
    %bp = tt.addptr %bs, %r : tensor<64x!tt.ptr<i32>, #blocked>, tensor<64xi32, #blocked>
    %x = tt.load %ap : tensor<64x!tt.ptr<i32>, #blocked>
    %y = tt.load %bp : tensor<64x!tt.ptr<i32>, #blocked>
    %q:2 = "tt.map_elementwise"(%x, %y) <{pack = 2 : i32}> ({
    ^bb0(%a0: i32, %a1: i32, %b0: i32, %b1: i32):
      %q0 = arith.divui %a0, %b0 : i32
      %q1 = arith.divui %a1, %b1 : i32
      %m0 = arith.remui %a0, %b0 : i32
      %m1 = arith.remui %a1, %b1 : i32
      tt.map_elementwise.return %q0, %q1, %m0, %m1 : i32, i32, i32, i32
    }) : (tensor<64xi32, #blocked>, tensor<64xi32, #blocked>) -> (tensor<64xi32, #blocked>, tensor<64xi32, #blocked>)
    %c = "tt.map_elementwise"(%q#0, %q#1) <{pack = 1 : i32}> ({
    ^bb0(%u: i32, %v: i32):
      %minus = arith.constant -1 : i32
      %one = arith.constant 1 : i32
      %lt = arith.cmpi slt, %u, %v : i32
      cf.cond_br %lt, ^bb2(%minus : i32), ^bb1
    ^bb1:
      cf.br ^bb2(%one : i32)
    ^bb2(%w: i32):
      tt.map_elementwise.return %w : i32
    }) : (tensor<64xi32, #blocked>, tensor<64xi32, #blocked>) -> tensor<64xi32, #blocked>
    tt.store %ap, %c : tensor<64x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// A noinline function that uses shared memory works in the buffer its call
// was given: the call passes @global_smem + the call's allocation.offset,
// the callee addresses its scratch from that argument.
// CHECK-LABEL: llvm.func internal @sum
// CHECK-SAME: (%{{.*}}: !llvm.ptr<1>, %[[SHARED:.*]]: !llvm.ptr<3>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>) -> f32
// CHECK-NOT: @global_smem
// CHECK: llvm.getelementptr %[[SHARED]]
// CHECK: st.shared
// CHECK-LABEL: llvm.func @k
// CHECK: %[[OFFSET:.*]] = llvm.mlir.constant(1024 : i32) : i32
// CHECK-NEXT: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[BASE]][%[[OFFSET]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.call @sum(%{{.*}}, %[[AT]], %{{.*}}, %{{.*}}) : (!llvm.ptr<1>, !llvm.ptr<3>, !llvm.ptr<1>, !llvm.ptr<1>) -> f32
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 1040 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @sum(%p: !tt.ptr<f32>) -> f32 attributes {noinline = true} {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %x = tt.load %pp : tensor<256x!tt.ptr<f32>, #blocked>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) {allocation.offset = 0 : i32} : (tensor<256xf32, #blocked>) -> f32
    tt.return %s : f32
  }
  tt.func public @k(%p: !tt.ptr<f32>) {
    %s = tt.call @sum(%p) {allocation.offset = 1024 : i32} : (!tt.ptr<f32>) -> f32
    tt.store %p, %s : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Thread-block clusters (num-ctas > 1) for kernels without tensors: a
// program is a cluster (clusterid, nclusterid), the kernel asks for its
// cluster size, and a scalar is stored by thread 0 of the cluster's first
// CTA only.
// CHECK-LABEL: llvm.func @cluster
// CHECK-SAME: nvvm.cluster_dim = array<i32: 4>
// CHECK: %[[PID:.*]] = nvvm.read.ptx.sreg.clusterid.x : i32
// CHECK: %[[N:.*]] = nvvm.read.ptx.sreg.nclusterid.x : i32
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: %[[ANY:.*]] = llvm.or %{{.*}}, %[[RANK]] : i32
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[ANY]], %{{.*}} : i32
// CHECK: st.global.b32 {{.*}} %[[FIRST]]
module attributes {"ttg.num-ctas" = 4 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cluster(%p: !tt.ptr<i32>) {
    %pid = tt.get_program_id x : i32
    %n = tt.get_num_programs x : i32
    %s = arith.addi %pid, %n : i32
    tt.store %p, %s : !tt.ptr<i32>
    tt.return
  }
}

// -----

// tt.dot on CUDA cores (a blocked result, dot_op operands of it): each of
// the thread's four result elements accumulates over K = 2 from the
// accumulator, fmuladd for floats, multiply then add for integers.
// CHECK-LABEL: llvm.func @fma_dot
// CHECK: %[[ACC:.*]] = llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK-NEXT: llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %[[ACC]]) : (f32, f32, f32) -> f32
// CHECK-COUNT-6: llvm.intr.fmuladd
// CHECK-NOT: llvm.intr.fmuladd
// CHECK: %[[P:.*]] = llvm.mul %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[S:.*]] = llvm.add %[[P]], %{{.*}} : i32
// CHECK-NEXT: %[[P2:.*]] = llvm.mul %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: llvm.add %[[P2]], %[[S]] : i32
// CHECK-COUNT-6: llvm.mul
// CHECK-NOT: llvm.mul
#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fma_dot(%p: !tt.ptr<f32>, %q: !tt.ptr<i32>) {
    %a = arith.constant dense<2.0> : tensor<4x2xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %b = arith.constant dense<3.0> : tensor<2x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %c = arith.constant dense<1.0> : tensor<4x32xf32, #blocked>
    %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<4x2xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<2x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<4x32xf32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<4x32x!tt.ptr<f32>, #blocked>
    tt.store %ps, %d : tensor<4x32x!tt.ptr<f32>, #blocked>
    %ia = arith.constant dense<2> : tensor<4x2xi32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>
    %ib = arith.constant dense<3> : tensor<2x32xi32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
    %ic = arith.constant dense<1> : tensor<4x32xi32, #blocked>
    %id = tt.dot %ia, %ib, %ic : tensor<4x2xi32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<2x32xi32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<4x32xi32, #blocked>
    %qs = tt.splat %q : !tt.ptr<i32> -> tensor<4x32x!tt.ptr<i32>, #blocked>
    tt.store %qs, %id : tensor<4x32x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// tt.dot with an mma v2 result: mma.sync, one per 16x8 tile of the result
// and K step of 16 (here one tile, K = 32: two chained instructions), its
// operands packed two f16 to a 32-bit register.
// CHECK-LABEL: llvm.func @mma_v2
// CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK: %[[FIRST:.*]] = llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"
// CHECK: %[[C0:.*]] = llvm.extractvalue %[[FIRST]][0]
// CHECK: llvm.inline_asm {{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32{{.*}} %[[C0]],
// CHECK-NOT: mma.sync
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_v2(%p: !tt.ptr<f32>) {
    %a = arith.constant dense<2.0> : tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = arith.constant dense<3.0> : tensor<32x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %c = arith.constant dense<1.0> : tensor<16x8xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x8xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<16x8x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// f64 mma.sync before sm_90 (neither the pass option, this file's sm_80
// default, nor the module's target says sm_90): sm_80's m8n8k4, two per
// 16x8 tile (its upper and lower rows) and K step of 4, one f64 of A and
// of B per lane.
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @mma_v2_f64
  // CHECK-COUNT-8: llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 { $0, $1 }, { $4 }, { $5 }, { $2, $3 };", "=d,=d,0,1,d,d" {{.*}} : (f64, f64, f64, f64) -> !llvm.struct<(f64, f64)>
  // CHECK-NOT: mma.sync
  tt.func public @mma_v2_f64(%p: !tt.ptr<f64>, %a: tensor<16x16xf64, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<16x8xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>) {
    %c = arith.constant dense<1.0> : tensor<16x8xf64, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x16xf64, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x8xf64, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<16x8xf64, #mma>
    %ps = tt.splat %p : !tt.ptr<f64> -> tensor<16x8x!tt.ptr<f64>, #mma>
    tt.store %ps, %d : tensor<16x8x!tt.ptr<f64>, #mma>
    tt.return
  }
}

// -----

// fp8 mma.sync (sm_89 on; the module's target counts where the pass option
// keeps its sm_80 default): m16n8k32, four fp8 values per register, e4m3
// and e5m2 mixed, into f32 or f16 (two f16x2 accumulator registers).
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:89", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @mma_v2_fp8
  // CHECK: llvm.inline_asm {{.*}}"mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32 { $0, $1, $2, $3 }, { $8, $9, $10, $11 }, { $12, $13 }, { $4, $5, $6, $7 };", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r"
  // CHECK-NOT: mma.sync
  tt.func public @mma_v2_fp8(%p: !tt.ptr<f32>, %a: tensor<16x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %b: tensor<32x8xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>) {
    %c = arith.constant dense<0.0> : tensor<16x8xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x8xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<16x8xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<16x8x!tt.ptr<f32>, #mma>
    tt.return
  }

  // CHECK-LABEL: llvm.func @mma_v2_fp8_f16
  // CHECK: llvm.inline_asm {{.*}}"mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16 { $0, $1 }, { $4, $5, $6, $7 }, { $8, $9 }, { $2, $3 };", "=r,=r,0,1,r,r,r,r,r,r"
  // CHECK-NOT: mma.sync
  tt.func public @mma_v2_fp8_f16(%p: !tt.ptr<f16>, %a: tensor<16x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %b: tensor<32x8xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>) {
    %c = arith.constant dense<0.0> : tensor<16x8xf16, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x32xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x8xf8E4M3FN, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<16x8xf16, #mma>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<16x8x!tt.ptr<f16>, #mma>
    tt.store %ps, %d : tensor<16x8x!tt.ptr<f16>, #mma>
    tt.return
  }
}

// -----

// fp8 mma.sync is refused for a target before sm_89.
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:86", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @mma_v2_fp8_sm86(%a: tensor<16x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>, %b: tensor<32x8xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>) -> tensor<16x8xf32, #mma> {
    %c = arith.constant dense<0.0> : tensor<16x8xf32, #mma>
    // expected-error @+1 {{'tt.dot' with mma.sync on f8E5M2 x f8E5M2 needs sm_89 or later (this target is sm_86)}}
    %d = tt.dot %a, %b, %c : tensor<16x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x8xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<16x8xf32, #mma>
    tt.return %d : tensor<16x8xf32, #mma>
  }
}

// -----

// A 2x4 result, smaller than the 16x8 tile: the layouts wrap (lanes past
// the extent hold copies) and one instruction per K step computes the
// tile with its copies.
// CHECK-LABEL: llvm.func @mma_v2_small
// CHECK-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_v2_small(%p: !tt.ptr<f32>) {
    %a = arith.constant dense<2.0> : tensor<2x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = arith.constant dense<3.0> : tensor<32x4xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %c = arith.constant dense<1.0> : tensor<2x4xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<2x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x4xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<2x4xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<2x4x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<2x4x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// f16 operands upcast from fp8 hold four consecutive K elements per lane
// (kWidth = 4): A and B pair them the same way, two to a register, so the
// instruction sums the same products in another order.
// CHECK-LABEL: llvm.func @mma_v2_kwidth4
// CHECK-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mma_v2_kwidth4(%p: !tt.ptr<f32>) {
    %a = arith.constant dense<2.0> : tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>
    %b = arith.constant dense<3.0> : tensor<32x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>
    %c = arith.constant dense<1.0> : tensor<16x8xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * tensor<32x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<16x8xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<16x8x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// mma.sync operands loaded from swizzled shared memory with ldmatrix: A's
// 16x16 tile as four 8x8 matrices (K contiguous: no transpose), B's 16x8
// as two, transposed (N contiguous: the col layout). Each lane gives the
// address of one 16-byte row.
// CHECK-LABEL: llvm.func @ldmatrix
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3>
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3>
// CHECK: llvm.return
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 2, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.shared = 1024 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ldmatrix(%p: !tt.ptr<f32>) {
    %sa = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16x16xf16, #shared, #smem, mutable>
    %sb = ttg.local_alloc {allocation.offset = 512 : i32} : () -> !ttg.memdesc<16x8xf16, #shared, #smem, mutable>
    %a = ttg.local_load %sa : !ttg.memdesc<16x16xf16, #shared, #smem, mutable> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = ttg.local_load %sb : !ttg.memdesc<16x8xf16, #shared, #smem, mutable> -> tensor<16x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %c = arith.constant dense<0.0> : tensor<16x8xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x8xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<16x8x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// B 16x16 with each thread holding both N halves: one x4 ldmatrix (K halves
// fastest, then N halves) feeds both 16x8 tiles; where warps split N, each
// thread has one half and B keeps x2.
// CHECK-LABEL: llvm.func @ldmatrix_b_x4
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 4 : i32
// CHECK-NOT: nvvm.ldmatrix
// CHECK-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
// CHECK-LABEL: llvm.func @ldmatrix_b_split
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4 : i32
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2 : i32
// CHECK-NOT: nvvm.ldmatrix
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 2, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.shared = 1024 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ldmatrix_b_x4(%p: !tt.ptr<f32>) {
    %sa = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16x16xf16, #shared, #smem, mutable>
    %sb = ttg.local_alloc {allocation.offset = 512 : i32} : () -> !ttg.memdesc<16x16xf16, #shared, #smem, mutable>
    %a = ttg.local_load %sa : !ttg.memdesc<16x16xf16, #shared, #smem, mutable> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = ttg.local_load %sb : !ttg.memdesc<16x16xf16, #shared, #smem, mutable> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %c = arith.constant dense<0.0> : tensor<16x16xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<16x16x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 2, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.shared = 1024 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ldmatrix_b_split(%p: !tt.ptr<f32>) {
    %sa = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<16x16xf16, #shared, #smem, mutable>
    %sb = ttg.local_alloc {allocation.offset = 512 : i32} : () -> !ttg.memdesc<16x16xf16, #shared, #smem, mutable>
    %a = ttg.local_load %sa : !ttg.memdesc<16x16xf16, #shared, #smem, mutable> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 2}>>
    %b = ttg.local_load %sb : !ttg.memdesc<16x16xf16, #shared, #smem, mutable> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 2}>>
    %c = arith.constant dense<0.0> : tensor<16x16xf32, #mma2>
    %d = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma2, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma2, kWidth = 2}>> -> tensor<16x16xf32, #mma2>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #mma2>
    tt.store %ps, %d : tensor<16x16x!tt.ptr<f32>, #mma2>
    tt.return
  }
}

// -----

// A callee lowered before its caller: its size cannot be read back, so the
// call counts as writing any shared byte and is fenced after the caller's
// reduction read its scratch.
// CHECK-LABEL: llvm.func @reduce_then_call
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: nvvm.barrier0
// CHECK-NEXT: llvm.mlir.constant(1024 : i32) : i32
// CHECK-NEXT: llvm.mlir.addressof @global_smem
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.call @sum_again
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 1040 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @sum_again(%p: !tt.ptr<f32>) -> f32 attributes {noinline = true} {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %x = tt.load %pp : tensor<256x!tt.ptr<f32>, #blocked>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) {allocation.offset = 0 : i32} : (tensor<256xf32, #blocked>) -> f32
    tt.return %s : f32
  }
  tt.func public @reduce_then_call(%p: !tt.ptr<f32>) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %x = tt.load %pp : tensor<256x!tt.ptr<f32>, #blocked>
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tt.reduce.return %c : f32
    }) {allocation.offset = 0 : i32} : (tensor<256xf32, #blocked>) -> f32
    %t = tt.call @sum_again(%p) {allocation.offset = 1024 : i32} : (!tt.ptr<f32>) -> f32
    %u = arith.addf %s, %t : f32
    tt.store %p, %u : !tt.ptr<f32>
    tt.return
  }
}

// -----

// An `index` argument becomes an i32, as Triton's type converter has
// 32-bit indices (a kernel that never reads it still lowers to valid LLVM).
// CHECK-LABEL: llvm.func @index_argument(%arg0: i32, %arg1: !llvm.ptr<1>, %arg2: !llvm.ptr<1>, %arg3: !llvm.ptr<1>)
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @index_argument(%lb: index, %a: !tt.ptr<f16>) {
    tt.return
  }
}

// -----

// f32 to f16 and bf16 two registers at a time (one cvt.rn.f16x2.f32 or
// cvt.rn.bf16x2.f32 each in PTX, as Triton converts).
// CHECK-LABEL: llvm.func @paired_truncf
// CHECK-COUNT-2: llvm.fptrunc %{{.*}} : vector<2xf32> to vector<2xf16>
// CHECK-COUNT-2: llvm.fptrunc %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK-NOT: llvm.fptrunc
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @paired_truncf(%p: !tt.ptr<f32>, %q: !tt.ptr<f16>, %r: !tt.ptr<bf16>) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %range : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %x = tt.load %pp : tensor<128x!tt.ptr<f32>, #blocked>
    %h = arith.truncf %x : tensor<128xf32, #blocked> to tensor<128xf16, #blocked>
    %b = arith.truncf %x : tensor<128xf32, #blocked> to tensor<128xbf16, #blocked>
    %qs = tt.splat %q : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>, #blocked>
    %qp = tt.addptr %qs, %range : tensor<128x!tt.ptr<f16>, #blocked>, tensor<128xi32, #blocked>
    tt.store %qp, %h : tensor<128x!tt.ptr<f16>, #blocked>
    %rs = tt.splat %r : !tt.ptr<bf16> -> tensor<128x!tt.ptr<bf16>, #blocked>
    %rp = tt.addptr %rs, %range : tensor<128x!tt.ptr<bf16>, #blocked>, tensor<128xi32, #blocked>
    tt.store %rp, %b : tensor<128x!tt.ptr<bf16>, #blocked>
    tt.return
  }
}

// -----

// Unless LLVM can shrink the arithmetic to f16 instead: a sum of two
// extended f16 values, or a merge (here of two branches) that one flows
// into, is converted one register at a time, where InstCombine sees it.
// CHECK-LABEL: llvm.func @narrowable_truncf
// CHECK-NOT: vector<2xf32> to vector<2xf16>
// CHECK-COUNT-4: llvm.fptrunc %{{.*}} : f32 to f16
// CHECK-NOT: vector<2xf32> to vector<2xf16>
// CHECK: ^bb1(
// CHECK-NOT: vector<2xf32> to vector<2xf16>
// CHECK-COUNT-4: llvm.fptrunc %{{.*}} : f32 to f16
// CHECK-NOT: vector<2xf32> to vector<2xf16>
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @narrowable_truncf(%p: !tt.ptr<f16>, %c: i1) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>, #blocked>
    %pp = tt.addptr %ps, %range : tensor<128x!tt.ptr<f16>, #blocked>, tensor<128xi32, #blocked>
    %x = tt.load %pp : tensor<128x!tt.ptr<f16>, #blocked>
    %ex = arith.extf %x : tensor<128xf16, #blocked> to tensor<128xf32, #blocked>
    %sum = arith.addf %ex, %ex : tensor<128xf32, #blocked>
    %h = arith.truncf %sum : tensor<128xf32, #blocked> to tensor<128xf16, #blocked>
    tt.store %pp, %h : tensor<128x!tt.ptr<f16>, #blocked>
    cf.cond_br %c, ^bb1(%sum : tensor<128xf32, #blocked>), ^bb1(%ex : tensor<128xf32, #blocked>)
  ^bb1(%m: tensor<128xf32, #blocked>):
    %hm = arith.truncf %m : tensor<128xf32, #blocked> to tensor<128xf16, #blocked>
    tt.store %pp, %hm : tensor<128x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Eviction priorities: L1 as a qualifier, L2 through a cache policy made
// for every access (sm_80 and later), as Triton does; cache modifiers that
// are not load (store) qualifiers are left out, as Triton leaves them.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @eviction
// CHECK: %[[POLICY:.*]] = llvm.inline_asm has_side_effects asm_dialect = att operand_attrs = [] "mov.u64 $0, 0x0;\0A\09createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l"  : () -> i64
// CHECK: "mov.u32 $0, 0x0;\0A\09ld.global.cg.L1::evict_first.L2::cache_hint.b32 { $0 }, [ $1 + 0 ], $2;", "=r,l,l" %{{.*}}, %[[POLICY]]
// CHECK: "mov.u64 $0, 0x0;\0A\09createpolicy.fractional.L2::evict_last.b64 $0, 1.0;"
// CHECK: "@$3 st.global.L1::evict_last.L2::cache_hint.b32 [ $1 + 0 ], { $0 }, $2;", "r,l,l,b"
// CHECK: "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];"
// CHECK: "@$2 st.global.wt.b32 [ $1 + 0 ], { $0 };"
  tt.func public @eviction(%p: tensor<32x!tt.ptr<f32>, #blocked>) {
    %x = tt.load %p cacheModifier = cg evictionPolicy = evict_first : tensor<32x!tt.ptr<f32>, #blocked>
    tt.store %p, %x cacheModifier = ca evictionPolicy = evict_last : tensor<32x!tt.ptr<f32>, #blocked>
    %y = tt.load %p cacheModifier = cv : tensor<32x!tt.ptr<f32>, #blocked>
    tt.store %p, %y cacheModifier = wt : tensor<32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Registers fed and read as Triton's lit files do: an LLVM struct of the
// thread's elements cast to a tensor and back (builtin casts), LLVM ops of
// the input kept on the lowered values.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @registers
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr, %[[S:.*]]: !llvm.struct<(i32, i32)>
// CHECK: %[[A:.*]] = llvm.extractvalue %[[S]][0] : !llvm.struct<(i32, i32)>
// CHECK: %[[B:.*]] = llvm.extractvalue %[[S]][1] : !llvm.struct<(i32, i32)>
// CHECK: %[[A2:.*]] = llvm.add %[[A]], %[[A]] : i32
// CHECK: %[[B2:.*]] = llvm.add %[[B]], %[[B]] : i32
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[A2]], %{{.*}}[0] : !llvm.struct<(i32, i32)>
// CHECK: %[[R1:.*]] = llvm.insertvalue %[[B2]], %[[R0]][1] : !llvm.struct<(i32, i32)>
// CHECK: llvm.store %[[R1]], %[[P]] : !llvm.struct<(i32, i32)>, !llvm.ptr
  tt.func public @registers(%p: !llvm.ptr, %s: !llvm.struct<(i32, i32)>) {
    %x = builtin.unrealized_conversion_cast %s : !llvm.struct<(i32, i32)> to tensor<64xi32, #blocked>
    %y = arith.addi %x, %x : tensor<64xi32, #blocked>
    %r = builtin.unrealized_conversion_cast %y : tensor<64xi32, #blocked> to !llvm.struct<(i32, i32)>
    llvm.store %r, %p : !llvm.struct<(i32, i32)>, !llvm.ptr
    tt.return
  }
}

// -----

// A struct that does not hold the thread's elements is refused.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bad_registers(%s: !llvm.struct<(i32)>) {
    // expected-error @+1 {{the struct must hold the thread's 2 elements of the tensor}}
    %x = builtin.unrealized_conversion_cast %s : !llvm.struct<(i32)> to tensor<64xi32, #blocked>
    tt.return
  }
}

// -----

// A non-splat constant that every thread holds whole: one constant per
// register, in the layout's register order (order [0, 1] puts element
// [1, 0] in the second register).
#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func internal @constant_array
// CHECK-DAG: %[[A:.*]] = llvm.mlir.constant(10 : i32)
// CHECK-DAG: %[[B:.*]] = llvm.mlir.constant(12 : i32)
// CHECK-DAG: %[[C:.*]] = llvm.mlir.constant(11 : i32)
// CHECK-DAG: %[[D:.*]] = llvm.mlir.constant(13 : i32)
// CHECK: %[[S0:.*]] = llvm.mlir.undef : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT: %[[S1:.*]] = llvm.insertvalue %[[A]], %[[S0]][0]
// CHECK-NEXT: %[[S2:.*]] = llvm.insertvalue %[[B]], %[[S1]][1]
// CHECK-NEXT: %[[S3:.*]] = llvm.insertvalue %[[C]], %[[S2]][2]
// CHECK-NEXT: llvm.insertvalue %[[D]], %[[S3]][3]
  tt.func private @constant_array() -> tensor<2x2xi32, #blocked> {
    %0 = arith.constant dense<[[10, 11], [12, 13]]> : tensor<2x2xi32, #blocked>
    tt.return %0 : tensor<2x2xi32, #blocked>
  }
}

// -----

// A non-splat constant whose elements differ between threads is refused.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @spread_constant_array() -> tensor<8xi32, #blocked> {
    // expected-error @+1 {{a non-splat tensor constant spread over threads or warps is not supported yet}}
    %0 = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32, #blocked>
    tt.return %0 : tensor<8xi32, #blocked>
  }
}

// -----

// memdesc_reinterpret keeps the view's address: the i16 loads start at the
// second row of f32s.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @reinterpret
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[ROWLEN:.*]] = llvm.mlir.constant(64 : i32)
// CHECK: %[[ROWOFF:.*]] = llvm.mul %[[ONE]], %[[ROWLEN]]
// CHECK: %[[ROW:.*]] = llvm.getelementptr %{{.*}}[%[[ROWOFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[ROW]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.load %[[ADDR]] {alignment = 2 : i64} : !llvm.ptr<3> -> i16
  tt.func public @reinterpret(%p: tensor<128x!tt.ptr<i16>, #blocked>) {
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc {allocation.offset = 0 : i32} : () -> !ttg.memdesc<2x64xf32, #shared2, #smem, mutable>
    %row = ttg.memdesc_index %buf[%c1] : !ttg.memdesc<2x64xf32, #shared2, #smem, mutable> -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
    %halves = ttg.memdesc_reinterpret %row : !ttg.memdesc<64xf32, #shared, #smem, mutable> -> !ttg.memdesc<128xi16, #shared, #smem, mutable>
    %v = ttg.local_load %halves : !ttg.memdesc<128xi16, #shared, #smem, mutable> -> tensor<128xi16, #blocked>
    tt.store %p, %v : tensor<128x!tt.ptr<i16>, #blocked>
    tt.return
  }
}

// -----

// tt.extern_elementwise (libdevice through tl.extra.cuda.libdevice): one
// call of the declared libdevice function per element.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK: llvm.func @__nv_log1pf(f32) -> f32
// CHECK-LABEL: llvm.func internal @libdevice_log1p
// CHECK: %[[A:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[B:.*]] = llvm.extractvalue %arg0[1]
// CHECK: llvm.call @__nv_log1pf(%[[A]]) : (f32) -> f32
// CHECK: llvm.call @__nv_log1pf(%[[B]]) : (f32) -> f32
  tt.func private @libdevice_log1p(%x: tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked> {
    %0 = tt.extern_elementwise %x {libname = "libdevice", libpath = "libdevice.10.bc", pure = true, symbol = "__nv_log1pf"} : (tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    tt.return %0 : tensor<256xf32, #blocked>
  }
}

// -----

// Only libdevice is linked, and only pure calls are lowered.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @other_library(%x: tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked> {
    // expected-error @+1 {{'tt.extern_elementwise' calling 'my_fn' (library 'mylib') is not supported yet: only libdevice ('__nv_' functions) is linked}}
    %0 = tt.extern_elementwise %x {libname = "mylib", libpath = "/opt/mylib.bc", pure = true, symbol = "my_fn"} : (tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    tt.return %0 : tensor<256xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @impure(%x: tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked> {
    // expected-error @+1 {{'tt.extern_elementwise' calling '__nv_log1pf' without 'pure = true' is not supported yet}}
    %0 = tt.extern_elementwise %x {libname = "libdevice", libpath = "libdevice.10.bc", pure = false, symbol = "__nv_log1pf"} : (tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked>
    tt.return %0 : tensor<256xf32, #blocked>
  }
}

// -----

// ttg.fp4_to_fp: each byte's low nibble is the element with the smaller
// index along the axis; e2m1 is rebuilt as bf16 from its bits (sign to bit
// 15, the exponent rebiased by 126 at bit 7, the mantissa bit at bit 6, the
// subnormal 0.5 as 0x3F00).
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @fp4_to_bf16
  // CHECK: %[[BYTE:.*]] = llvm.zext %{{.*}} : i8 to i16
  // CHECK: %[[M15:.*]] = llvm.mlir.constant(15 : i16) : i16
  // CHECK: %[[LOW:.*]] = llvm.and %[[BYTE]], %[[M15]] : i16
  // CHECK: llvm.mlir.constant(126 : i16) : i16
  // CHECK: llvm.mlir.constant(16128 : i16) : i16
  // CHECK: llvm.bitcast %{{.*}} : i16 to bf16
  // CHECK: %[[BYTE2:.*]] = llvm.zext %{{.*}} : i8 to i16
  // CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i16) : i16
  // CHECK: llvm.lshr %[[BYTE2]], %[[FOUR]] : i16
  // CHECK: llvm.bitcast %{{.*}} : i16 to bf16
  tt.func public @fp4_to_bf16(%x: tensor<1x32xi8, #blocked>, %p: !tt.ptr<bf16>) {
    %y = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<1x32xi8, #blocked> -> tensor<1x64xbf16, #blocked2>
    %ps = tt.splat %p : !tt.ptr<bf16> -> tensor<1x64x!tt.ptr<bf16>, #blocked2>
    tt.store %ps, %y : tensor<1x64x!tt.ptr<bf16>, #blocked2>
    tt.return
  }
}

// -----

// A result layout that gives a byte's two values to different lanes is
// refused.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @fp4_split(%x: tensor<1x32xi8, #blocked>) -> tensor<1x64xbf16, #blocked> {
    // expected-error @+1 {{'ttg.fp4_to_fp' whose result layout splits a byte's two values between threads is not supported yet}}
    %y = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<1x32xi8, #blocked> -> tensor<1x64xbf16, #blocked>
    tt.return %y : tensor<1x64xbf16, #blocked>
  }
}

// -----

// mma.sync on operands whose lanes hold 4 p consecutive K values (kWidth 8
// for bf16, behind fp4): a 32-wide K tile feeds two instructions.
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @mma_v2_kwidth8
  // CHECK-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
  // CHECK-NOT: mma.sync
  tt.func public @mma_v2_kwidth8(%p: !tt.ptr<f32>, %a: tensor<16x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>>, %b: tensor<32x8xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>>) {
    %c = arith.constant dense<0.0> : tensor<16x8xf32, #mma>
    %d = tt.dot %a, %b, %c : tensor<16x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>> * tensor<32x8xbf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 8}>> -> tensor<16x8xf32, #mma>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>, #mma>
    tt.store %ps, %d : tensor<16x8x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// ttg.local_load and ttg.local_store move a thread's registers in vectors
// where they sit at consecutive offsets, at most 16 bytes, in whole words
// for narrow elements: eight i8 of a row as two words; four i32 at a time;
// under a swizzle of 4-element groups, four f16 (the group) at a time.
#rows8 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows16 = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#swizzled = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @vector_load_i8
  // CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
  // CHECK: llvm.bitcast %{{.*}} : vector<2xi32> to vector<8xi8>
  // CHECK-NOT: llvm.load
  tt.func @vector_load_i8(%buf: !ttg.memdesc<32x32xi8, #plain, #smem>, %out: tensor<32x32x!tt.ptr<i8>, #rows8>) {
    %v = ttg.local_load %buf : !ttg.memdesc<32x32xi8, #plain, #smem> -> tensor<32x32xi8, #rows8>
    tt.store %out, %v : tensor<32x32x!tt.ptr<i8>, #rows8>
    tt.return
  }

  // CHECK-LABEL: llvm.func @vector_store_i32
  // CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  tt.func @vector_store_i32(%v: tensor<32x64xi32, #rows16>) {
    %buf = ttg.local_alloc %v {allocation.offset = 0 : i32} : (tensor<32x64xi32, #rows16>) -> !ttg.memdesc<32x64xi32, #plain, #smem>
    tt.return
  }

  // CHECK-LABEL: llvm.func @vector_load_swizzled
  // CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
  // CHECK-NOT: llvm.load
  tt.func @vector_load_swizzled(%buf: !ttg.memdesc<32x64xf16, #swizzled, #smem>, %out: tensor<32x64x!tt.ptr<f16>, #rows8>) {
    %v = ttg.local_load %buf : !ttg.memdesc<32x64xf16, #swizzled, #smem> -> tensor<32x64xf16, #rows8>
    tt.store %out, %v : tensor<32x64x!tt.ptr<f16>, #rows8>
    tt.return
  }
}

// -----

// mma.sync operands in NVMMA layouts load with ldmatrix too (the swizzle
// moves 16-byte chunks, so rows of eight f16 stay whole): A (K contiguous)
// in the row form, B (N contiguous) in the col form.
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @ldmatrix_from_nvmma
  // CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32
  // CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32
  // CHECK-NOT: llvm.load
  tt.func @ldmatrix_from_nvmma(%a: !ttg.memdesc<16x16xf16, #nvmma, #smem>, %b: !ttg.memdesc<16x16xf16, #nvmma, #smem>, %out: !tt.ptr<f32>) {
    %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32, #mma>
    %va = ttg.local_load %a : !ttg.memdesc<16x16xf16, #nvmma, #smem> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %vb = ttg.local_load %b : !ttg.memdesc<16x16xf16, #nvmma, #smem> -> tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %va, %vb, %zero : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<16x16xf32, #mma>
    %s = "tt.reduce"(%d) <{axis = 1 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %r = arith.addf %x, %y : f32
      tt.reduce.return %r : f32
    }) : (tensor<16x16xf32, #mma>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %t = "tt.reduce"(%s) <{axis = 0 : i32}> ({
    ^bb0(%x: f32, %y: f32):
      %r = arith.addf %x, %y : f32
      tt.reduce.return %r : f32
    }) : (tensor<16xf32, #ttg.slice<{dim = 1, parent = #mma}>>) -> f32
    tt.store %out, %t : !tt.ptr<f32>
    tt.return
  }
}

// -----

// i8 to bf16 before sm_90 (no bf16 arithmetic there): four bytes at a time
// through f32 (cvt.rn.f32.s8), each pair's high halves packed with prmt.
#quad = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @i8_to_bf16_ampere
  // CHECK: %[[QUAD:.*]] = llvm.bitcast %{{.*}} : vector<4xi8> to i32
  // CHECK: cvt.rn.f32.s8 w0, b0;{{.*}}prmt.b32 $0, w0, w1, 0x7632;{{.*}}", "=r,=r,r" %[[QUAD]] : (i32) -> !llvm.struct<(vector<2xbf16>, vector<2xbf16>)>
  // CHECK-NOT: llvm.sitofp
  tt.func public @i8_to_bf16_ampere(%i: tensor<128xi8, #quad>, %pb: tensor<128x!tt.ptr<bf16>, #quad>) {
    %0 = arith.sitofp %i : tensor<128xi8, #quad> to tensor<128xbf16, #quad>
    tt.store %pb, %0 : tensor<128x!tt.ptr<bf16>, #quad>
    tt.return
  }
}

// -----

// A cluster of four CTAs whose tensors every CTA holds whole (CGA bases all
// zero): lowered as in one CTA, the program id is the cluster's, and only
// the cluster's first CTA writes to global memory (stores and atomics), as
// Triton predicates on the CTA's id: the two bits of its rank that hold
// the same tensor clear. TMA in a cluster is refused.
#bcast = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[0], [0]]}>
module attributes {"ttg.num-ctas" = 4 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @cluster_broadcast
  // CHECK-SAME: nvvm.cluster_dim = array<i32: 4>
  // CHECK: nvvm.read.ptx.sreg.clusterid.x
  // CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
  // CHECK: %[[THREE:.*]] = llvm.mlir.constant(3 : i32)
  // CHECK: %[[BITS:.*]] = llvm.and %[[RANK]], %[[THREE]]
  // CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[BITS]]
  // CHECK: st.global.b32 {{.*}}, %[[FIRST]]
  // CHECK: %[[RANK2:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
  // CHECK: %[[BITS2:.*]] = llvm.and %[[RANK2]]
  // CHECK: %[[FIRST2:.*]] = llvm.icmp "eq" %[[BITS2]]
  // CHECK: atom.global{{.*}}, %[[FIRST2]]
  // A tensor the four warps hold alike: warp 0 of the first CTA stores.
  // CHECK: %[[WARP0:.*]] = llvm.icmp "eq"
  // CHECK: %[[RANK3:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
  // CHECK: %[[BITS3:.*]] = llvm.and %[[RANK3]]
  // CHECK: %[[FIRST3:.*]] = llvm.icmp "eq" %[[BITS3]]
  // CHECK: %[[OWNER:.*]] = llvm.and %[[WARP0]], %[[FIRST3]]
  // CHECK: st.global.b32 {{.*}}, %[[OWNER]]
  tt.func public @cluster_broadcast(%p: !tt.ptr<i32>) {
    %pid = tt.get_program_id x : i32
    %v = tt.splat %pid : i32 -> tensor<128xi32, #bcast>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #bcast>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #bcast>
    %q = tt.addptr %ps, %r : tensor<128x!tt.ptr<i32>, #bcast>, tensor<128xi32, #bcast>
    tt.store %q, %v : tensor<128x!tt.ptr<i32>, #bcast>
    %old = tt.atomic_rmw add, relaxed, gpu, %q, %v : (tensor<128x!tt.ptr<i32>, #bcast>, tensor<128xi32, #bcast>) -> tensor<128xi32, #bcast>
    %v32 = tt.splat %pid : i32 -> tensor<32xi32, #bcast>
    %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #bcast>
    %ps32 = tt.splat %p : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #bcast>
    %q32 = tt.addptr %ps32, %r32 : tensor<32x!tt.ptr<i32>, #bcast>, tensor<32xi32, #bcast>
    tt.store %q32, %v32 : tensor<32x!tt.ptr<i32>, #bcast>
    tt.return
  }
}

// -----

// A cluster whose two CTAs split a tensor (CGA basis [1]): each CTA lowers
// its part, 256 of the 512 elements, as a tensor of its own; a range adds
// the CTA's offset (bit 0 of its rank moves 256 elements), its shared
// buffer is its part, the conversion stays within the CTA, and every CTA
// stores its part (no rank test).
#split = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[1]]}>
#split2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[1]]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[1]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 2048 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @cluster_split
  // CHECK-SAME: nvvm.cluster_dim = array<i32: 2>
  // CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32)
  // CHECK: %[[BIT:.*]] = llvm.and %[[RANK]], %[[ONE]]
  // CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32)
  // CHECK: %[[OFFSET:.*]] = llvm.shl %[[BIT]], %[[EIGHT]]
  // CHECK: llvm.xor %{{.*}}, %[[OFFSET]]
  // CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
  // CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
  // CHECK-NOT: cluster.ctarank
  // CHECK: st.global.b32
  // CHECK-NOT: cluster.ctarank
  // CHECK: st.global.b32
  tt.func public @cluster_split(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #split>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #split>
    %pp = tt.addptr %ps, %r : tensor<512x!tt.ptr<i32>, #split>, tensor<512xi32, #split>
    %s = ttg.local_alloc %r {allocation.offset = 0 : i32} : (tensor<512xi32, #split>) -> !ttg.memdesc<512xi32, #shared, #smem>
    %l = ttg.local_load %s : !ttg.memdesc<512xi32, #shared, #smem> -> tensor<512xi32, #split2>
    %c = ttg.convert_layout %pp {allocation.offset = 0 : i32} : tensor<512x!tt.ptr<i32>, #split> -> tensor<512x!tt.ptr<i32>, #split2>
    tt.store %c, %l : tensor<512x!tt.ptr<i32>, #split2>
    tt.return
  }
}

// -----

// A reduction over a tensor the cluster's CTAs split is refused.
#split = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[1]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cluster_split_reduce(%r: tensor<512xi32, #split>) {
    // expected-error @+1 {{'tt.reduce' on tensors or buffers split across the CTAs of a cluster is not supported yet}}
    %s = "tt.reduce"(%r) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.reduce.return %c : i32
    }) : (tensor<512xi32, #split>) -> i32
    tt.return
  }
}

// -----

// A transpose of a tensor the cluster's CTAs split along its rows gives
// each CTA its columns of the result (the verifier keeps the CGA bases
// transposed with the layout): registers renumbered within each thread,
// as in one CTA.
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
#cols = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1], CGALayout = [[0, 1]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: llvm.func @cluster_trans
  // CHECK-NOT: nvvm.barrier0
  // CHECK: st.global.b32
  tt.func public @cluster_trans(%p: !tt.ptr<f32>) {
    %x = arith.constant dense<1.000000e+00> : tensor<64x32xf32, #rows>
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf32, #rows> -> tensor<32x64xf32, #cols>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #cols>
    tt.store %ps, %t : tensor<32x64x!tt.ptr<f32>, #cols>
    tt.return
  }
}
