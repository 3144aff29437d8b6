// RUN: tt-opt %s --split-input-file --verify-diagnostics

// One case per verifier rule of the ttng dialect, with Triton 3.6's
// messages. Encoding and memory-descriptor errors are reported where the
// attribute or type is parsed; op errors at the op.

//===----------------------------------------------------------------------===//
// #ttng.tensor_memory_encoding
//===----------------------------------------------------------------------===//

// expected-error @+1 {{CTASplitM and CTASplitN must be greater than 0 and a power of 2}}
#bad = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 3>

// -----

// expected-error @+1 {{blockM must be 64 or 128 but got 32}}
#bad = #ttng.tensor_memory_encoding<blockM = 32, blockN = 128, colStride = 1>

// -----

// expected-error @+1 {{blockN must be a power of 2 but got 48}}
#bad = #ttng.tensor_memory_encoding<blockM = 128, blockN = 48, colStride = 1>

// -----

// expected-error @+1 {{blockN must be less than or equal to 512 but got 1024}}
#bad = #ttng.tensor_memory_encoding<blockM = 128, blockN = 1024, colStride = 1>

// -----

// Triton's message says "but got" twice.
// expected-error @+1 {{colStride must be 1, 2, or 4 but got but got 3}}
#bad = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 3>

// -----

// expected-error @+1 {{struct is missing required parameter: colStride}}
#bad = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128>

// -----

//===----------------------------------------------------------------------===//
// Memory descriptors in tensor memory
//===----------------------------------------------------------------------===//

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// expected-error @+1 {{memorySpace must be TensorMemorySpace}}
tt.func @f(%a: !ttg.memdesc<128x128xf32, #tmem, #ttg.shared_memory>)

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// expected-error @+1 {{rank must be 2 or 3}}
tt.func @f(%a: !ttg.memdesc<128xf32, #tmem, #ttng.tensor_memory>)

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 2>
// expected-error @+1 {{bitwidth * colStride must be less than or equal to 32. Got 32 and 2}}
tt.func @f(%a: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>)

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// expected-error @+1 {{the allocation shape must be at least 128x128. Got 128, 64}}
tt.func @f(%a: !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory>)

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// expected-error @+1 {{allocation shape must be equal to 128x128}}
tt.func @f(%a: !ttg.memdesc<192x128xf32, #tmem, #ttng.tensor_memory>)

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 512, colStride = 1>
// expected-error @+1 {{nCol / (CTASplitM * CTASplitN) must be less than or equal to 512 * 32 / bitwidth but got 1024}}
tt.func @f(%a: !ttg.memdesc<128x1024xf32, #tmem, #ttng.tensor_memory>)

// -----

#scales = #ttng.tensor_memory_scales_encoding<>
// expected-error @+1 {{memorySpace must be TensorMemorySpace}}
tt.func @f(%a: !ttg.memdesc<128x4xi8, #scales, #ttg.shared_memory>)

// -----

#scales = #ttng.tensor_memory_scales_encoding<>
// expected-error @+1 {{Scales don't currently support multibuffering}}
tt.func @f(%a: !ttg.memdesc<2x128x4xi8, #scales, #ttng.tensor_memory>)

// -----

#scales = #ttng.tensor_memory_scales_encoding<>
// expected-error @+1 {{bitwidth must be 8}}
tt.func @f(%a: !ttg.memdesc<128x4xf16, #scales, #ttng.tensor_memory>)

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// expected-error @+1 {{memorySpace must be SharedMemorySpace for shared encoding. Got #ttng.tensor_memory}}
tt.func @f(%a: !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory>)

// -----

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @f(%bar: !ttg.memdesc<2xi64, #shared, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.init_barrier' op barrier allocation must be a descriptor of 1xi64 type}}
  ttng.init_barrier %bar, 1 : !ttg.memdesc<2xi64, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @f(%bar: !ttg.memdesc<1xi32, #shared, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.inval_barrier' op barrier allocation must be a descriptor of 1xi64 type}}
  ttng.inval_barrier %bar : !ttg.memdesc<1xi32, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @f(%bar: !ttg.memdesc<1xi32, #shared, #ttg.shared_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.barrier_expect' op barrier allocation must be a descriptor of 1xi64 type}}
  ttng.barrier_expect %bar, 128, %p : !ttg.memdesc<1xi32, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @f(%bar: !ttg.memdesc<1xi32, #shared, #ttg.shared_memory, mutable>, %phase: i32) {
  // expected-error @+1 {{'ttng.wait_barrier' op barrier allocation must be a descriptor of 1xi64 type}}
  ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi32, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @f(%bar: !ttg.memdesc<1xi32, #shared, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.arrive_barrier' op barrier allocation must be a descriptor of 1xi64 type}}
  ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi32, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @f(%bar: !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.arrive_barrier' op count must be greater than or equal to 1}}
  ttng.arrive_barrier %bar, 0 : !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @f(%desc: !tt.tensordesc<tensor<128x64xf16, #nvmma>>, %x: i32, %p: i1,
           %bar: !ttg.memdesc<2xi64, #shared, #ttg.shared_memory, mutable>,
           %buf: !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.async_tma_copy_global_to_local' op barrier allocation must be a descriptor of 1xi64 type}}
  ttng.async_tma_copy_global_to_local %desc[%x, %x] %buf, %bar, %p : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<2xi64, #shared, #ttg.shared_memory, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @f(%desc: !tt.tensordesc<tensor<128x64xf16, #nvmma>>, %x: i32, %p: i1,
           %bar: !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>,
           %buf: !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.async_tma_copy_global_to_local' op TMA copies must have between 1 and 5 coordinates}}
  ttng.async_tma_copy_global_to_local %desc[%x, %x, %x, %x, %x, %x] %buf, %bar, %p : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @f(%desc: !tt.tensordesc<tensor<128x64xf16, #nvmma>>, %x: i32, %p: i1,
           %bar: !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>,
           %buf: !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory>) {
  // expected-error @+1 {{'ttng.async_tma_copy_global_to_local' op Cannot store into immutable memory}}
  ttng.async_tma_copy_global_to_local %desc[%x, %x] %buf, %bar, %p : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #ttg.shared_memory>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @f(%desc: !tt.tensordesc<tensor<128x64xf16, #nvmma>>, %x: i32, %p: i1,
           %bar: !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>,
           %buf: !ttg.memdesc<128x64xf16, #shared1, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.async_tma_copy_global_to_local' op TMA result must have NVMMA shared layout}}
  ttng.async_tma_copy_global_to_local %desc[%x, %x] %buf, %bar, %p : !tt.tensordesc<tensor<128x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable> -> !ttg.memdesc<128x64xf16, #shared1, #ttg.shared_memory, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%desc: !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, %x: tensor<32xi32, #blocked>, %y: i32,
           %bar: !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>,
           %buf: !ttg.memdesc<32x128xbf16, #nvmma, #ttg.shared_memory>, %p: i1) {
  // expected-error @+1 {{'ttng.async_tma_gather' op cannot store into immutable memory}}
  ttng.async_tma_gather %desc[%x, %y] %buf, %bar, %p : !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>, !ttg.memdesc<32x128xbf16, #nvmma, #ttg.shared_memory>, i1
  tt.return
}
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%desc: !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, %x: tensor<32xi32, #blocked>, %y: i32,
           %bar: !ttg.memdesc<2xi64, #shared, #ttg.shared_memory, mutable>,
           %buf: !ttg.memdesc<32x128xbf16, #nvmma, #ttg.shared_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.async_tma_gather' op barrier allocation must be a descriptor of 1xi64 type}}
  ttng.async_tma_gather %desc[%x, %y] %buf, %bar, %p : !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<2xi64, #shared, #ttg.shared_memory, mutable>, !ttg.memdesc<32x128xbf16, #nvmma, #ttg.shared_memory, mutable>, i1
  tt.return
}
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%desc: !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, %x: tensor<32x1xi32, #blocked>, %y: i32,
           %bar: !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>,
           %buf: !ttg.memdesc<32x128xbf16, #nvmma, #ttg.shared_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.async_tma_gather' op x offsets must be a 1D tensor, but got 'tensor<32x1xi32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>>'}}
  ttng.async_tma_gather %desc[%x, %y] %buf, %bar, %p : !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, tensor<32x1xi32, #blocked>, i32, !ttg.memdesc<1xi64, #shared, #ttg.shared_memory, mutable>, !ttg.memdesc<32x128xbf16, #nvmma, #ttg.shared_memory, mutable>, i1
  tt.return
}
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#nvmma3 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16, rank = 3}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%desc: !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, %x: tensor<32xi32, #blocked>, %y: i32,
           %buf: !ttg.memdesc<2x32x128xbf16, #nvmma3, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.async_tma_scatter' op result must be a 2D tensor, but got '!ttg.memdesc<2x32x128xbf16, #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16, rank = 3}>, #ttg.shared_memory, mutable>'}}
  ttng.async_tma_scatter %desc[%x, %y] %buf : !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<2x32x128xbf16, #nvmma3, #ttg.shared_memory, mutable>
  tt.return
}
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%desc: !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, %x: tensor<4xi32, #blocked>, %y: i32,
           %buf: !ttg.memdesc<4x128xbf16, #nvmma, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.async_tma_scatter' op gather must have at least 8 rows, but got 4}}
  ttng.async_tma_scatter %desc[%x, %y] %buf : !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, tensor<4xi32, #blocked>, i32, !ttg.memdesc<4x128xbf16, #nvmma, #ttg.shared_memory, mutable>
  tt.return
}
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 64}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%desc: !tt.tensordesc<tensor<1x128xf64, #nvmma>>, %x: tensor<32xi32, #blocked>, %y: i32,
           %buf: !ttg.memdesc<32x128xf64, #nvmma, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.async_tma_scatter' op TMA dtype cannot be greater than 32 bits}}
  ttng.async_tma_scatter %desc[%x, %y] %buf : !tt.tensordesc<tensor<1x128xf64, #nvmma>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<32x128xf64, #nvmma, #ttg.shared_memory, mutable>
  tt.return
}
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%desc: !tt.tensordesc<tensor<1x8xbf16, #nvmma>>, %x: tensor<32xi32, #blocked>, %y: i32,
           %buf: !ttg.memdesc<32x8xbf16, #nvmma, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.async_tma_scatter' op gather of 'bf16' must have at least 16 columns, but got 8}}
  ttng.async_tma_scatter %desc[%x, %y] %buf : !tt.tensordesc<tensor<1x8xbf16, #nvmma>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<32x8xbf16, #nvmma, #ttg.shared_memory, mutable>
  tt.return
}
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%desc: !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, %x: tensor<32xi32, #blocked>, %y: i32,
           %buf: !ttg.memdesc<64x128xbf16, #nvmma, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.async_tma_scatter' op result tensor must have as many rows as indices (32), but got '!ttg.memdesc<64x128xbf16, #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>'}}
  ttng.async_tma_scatter %desc[%x, %y] %buf : !tt.tensordesc<tensor<1x128xbf16, #nvmma>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<64x128xbf16, #nvmma, #ttg.shared_memory, mutable>
  tt.return
}
}

// -----

tt.func @f(%ptr: !tt.ptr<i8>, %base: !tt.ptr<f16>, %d: i32, %s: i64) {
  // Triton reports this one without the op name.
  // expected-error @+1 {{Rank mismatch for global dim. Got 1 but expected 2}}
  ttng.tensormap_create %ptr, %base, [%d, %d], [%d], [%s], [%d, %d] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i64, i32, i32) -> ()
  tt.return
}

// -----

tt.func @f(%ptr: !tt.ptr<i8>, %base: !tt.ptr<f16>, %d: i32, %s: i64) {
  // expected-error @+1 {{Rank mismatch for global stride. Got 2 but expected 1}}
  ttng.tensormap_create %ptr, %base, [%d, %d], [%d, %d], [%s, %s], [%d, %d] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i64, i32, i32) -> ()
  tt.return
}

// -----

tt.func @f(%ptr: !tt.ptr<i8>, %base: !tt.ptr<f16>, %d: i32, %s: i64) {
  // expected-error @+1 {{Rank mismatch for element stride. Got 3 but expected 2}}
  ttng.tensormap_create %ptr, %base, [%d, %d], [%d, %d], [%s], [%d, %d, %d] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32, i32) -> ()
  tt.return
}

// -----

tt.func @f(%ptr: !tt.ptr<i8>, %base: !tt.ptr<f16>, %d: i32, %s: i64) {
  // expected-error @+1 {{'ttng.tensormap_create' op attribute 'swizzle_mode' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative whose maximum value is 3}}
  ttng.tensormap_create %ptr, %base, [%d], [%d], [], [%d] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 4 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32) -> ()
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Hopper warp-group MMA (after the shape rules of test/lit/ttg/invalid.mlir)
//===----------------------------------------------------------------------===//

tt.func @f() {
  // The custom form cannot spell an empty list.
  // expected-error @+1 {{'ttng.warp_group_dot_wait' op expected to be waiting on at least one dependency}}
  "ttng.warp_group_dot_wait"() <{pendings = 0 : i32}> : () -> ()
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%a: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>, %c: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{'ttng.warp_group_dot' op WGMMA result layout must be Hopper NVMMA}}
  %d = ttng.warp_group_dot %a, %a, %c : !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> * !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> -> tensor<64x64xf32, #blocked>
  tt.return
}
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%a: !ttg.memdesc<64x64xf16, #shared, #ttg.shared_memory>, %b: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'ttng.warp_group_dot' op WGMMA A operand must have NVMMA shared or dot layout}}
  %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #shared, #ttg.shared_memory> * !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> -> tensor<64x64xf32, #mma>
  tt.return
}
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%a: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>, %b: !ttg.memdesc<64x64xf16, #shared, #ttg.shared_memory>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'ttng.warp_group_dot' op WGMMA B operand must have NVMMA shared layout}}
  %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> * !ttg.memdesc<64x64xf16, #shared, #ttg.shared_memory> -> tensor<64x64xf32, #mma>
  tt.return
}
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 2 : i32} {
tt.func @f(%a: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'ttng.warp_group_dot' op WGMMA requires num_warps to be divisible by 4}}
  %d = ttng.warp_group_dot %a, %a, %c : !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> * !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> -> tensor<64x64xf32, #mma>
  tt.return
}
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%a: !ttg.memdesc<32x64xf16, #nvmma, #ttg.shared_memory>, %b: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>, %c: tensor<32x64xf32, #mma>) {
  // expected-error @+1 {{'ttng.warp_group_dot' op WGMMA result M dimension must be divisible by 64}}
  %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<32x64xf16, #nvmma, #ttg.shared_memory> * !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> -> tensor<32x64xf32, #mma>
  tt.return
}
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%a: !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory>, %b: !ttg.memdesc<64x4xf16, #nvmma, #ttg.shared_memory>, %c: tensor<64x4xf32, #mma>) {
  // expected-error @+1 {{'ttng.warp_group_dot' op WGMMA result N dimension must be divisible by 8}}
  %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #nvmma, #ttg.shared_memory> * !ttg.memdesc<64x4xf16, #nvmma, #ttg.shared_memory> -> tensor<64x4xf32, #mma>
  tt.return
}
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%a: !ttg.memdesc<64x64xi16, #nvmma, #ttg.shared_memory>, %c: tensor<64x64xi32, #mma>) {
  // expected-error @+1 {{'ttng.warp_group_dot' op unsupported MMA version for the given operands}}
  %d = ttng.warp_group_dot %a, %a, %c : !ttg.memdesc<64x64xi16, #nvmma, #ttg.shared_memory> * !ttg.memdesc<64x64xi16, #nvmma, #ttg.shared_memory> -> tensor<64x64xi32, #mma>
  tt.return
}
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%a: !ttg.memdesc<64x64xf8E5M2, #nvmma, #ttg.shared_memory>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'ttng.warp_group_dot' op Cannot use F32 as the accumulator element type when the max_num_imprecise_acc is less than 32}}
  %d = ttng.warp_group_dot %a, %a, %c {maxNumImpreciseAcc = 16 : i32} : !ttg.memdesc<64x64xf8E5M2, #nvmma, #ttg.shared_memory> * !ttg.memdesc<64x64xf8E5M2, #nvmma, #ttg.shared_memory> -> tensor<64x64xf32, #mma>
  tt.return
}
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 32]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 8}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%a: tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: !ttg.memdesc<128x128xf16, #nvmma, #ttg.shared_memory>, %c: tensor<128x128xf16, #mma>) {
  // expected-error @+1 {{'ttng.warp_group_dot' op in-register LHS operand must have a kWidth of 2 but got 1}}
  %d = ttng.warp_group_dot %a, %b, %c : tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * !ttg.memdesc<128x128xf16, #nvmma, #ttg.shared_memory> -> tensor<128x128xf16, #mma>
  tt.return
}
}

// -----

//===----------------------------------------------------------------------===//
// tcgen05 MMA
//===----------------------------------------------------------------------===//

#a1 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, rank = 1}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128xf16, #a1, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op expected operands to be 2d or 3d}}
  ttng.tc_gen5_mma %a, %a, %d, %p, %p : !ttg.memdesc<128xf16, #a1, #ttg.shared_memory>, !ttg.memdesc<128xf16, #a1, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<2x64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op expected all operands to have the same rank}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<2x64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<32x128xf16, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<32x128xf16, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<2x128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<4x64x128xf16, #a, #ttg.shared_memory>, %d: !ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op expected the first dimension of the first operand to be equal to the first dimension of the result}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<2x128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<4x64x128xf16, #a, #ttg.shared_memory>, !ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x256xf16, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op expected the output shape to be the concatenation of the last dimension of the first operand and the last dimension of the second }}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x256xf16, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem_a = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>
#tmem = #ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #tmem_a, #ttng.tensor_memory>, %b: !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op does not support blockM=64 with interleaved blocks in TMEM layout}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #tmem_a, #ttng.tensor_memory>, !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1, %bar: !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op The op is synchronous but a barrier is present.}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p, %bar[%p] : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #ttg.shared_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xi16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op unsupported LHS operand dtype: 'i16'}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xi16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf64, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op unsupported RHS operand dtype: 'f64'}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf64, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf8E5M2, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op LHS and RHS operand dtypes kinds don't match: LHS kind is f16 but RHS kind is f8f6f4}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf8E5M2, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf32, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf16, #tmem, #ttng.tensor_memory, mutable>, %b: !ttg.memdesc<64x128xf32, #a, #ttg.shared_memory>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op unsupported accumulator dtype for operand types 'f32' and 'f32', accumulator dtype is 'f16' but must be one of ['f32']}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf32, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf32, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf16, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op LHS operand must have a NVMMAShared or TensorMemory encoding}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem_b = #ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 1>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #tmem_b, #ttng.tensor_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op RHS operand must have a NVMMAShared encoding}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #tmem_b, #ttng.tensor_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#scales = #ttng.tensor_memory_scales_encoding<>
tt.func @f(%a: !ttg.memdesc<128x64xf8E5M2, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf8E5M2, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xi8, #scales, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op unsupported accumulator dtype for operand types 'f8E5M2' and 'f8E5M2', accumulator dtype is 'i8' but must be one of ['f16', 'f32']}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf8E5M2, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf8E5M2, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xi8, #scales, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#scales = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #scales, #ttg.shared_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op Return operand must have a TensorMemory encoding}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #scales, #ttg.shared_memory, mutable>
  tt.return
}

// -----

#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem_a = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 2>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #tmem_a, #ttng.tensor_memory>, %b: !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op The col stride of the LHS operand must be 1}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #tmem_a, #ttng.tensor_memory>, !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf16, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op The col stride of the return operand must be 32 / 16 but got 1}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf16, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op The op is two CTAs but the split num of the LHS is not 2, 1. Got 1, 1}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p {two_ctas} : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0]]}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 2 : i32} {
tt.func @f(%a: !ttg.memdesc<256x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op The op is two CTAs but the split num of the returned value is not 2, 1. Got 1, 1}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p {two_ctas} : !ttg.memdesc<256x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0]]}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2>
module attributes {"ttg.num-ctas" = 2 : i32} {
tt.func @f(%a: !ttg.memdesc<256x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op The returned value's encoding must have twoCTA=true to be used in a twoCTA matmul}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p {two_ctas} : !ttg.memdesc<256x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
#tmem_a = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CTASplitM = 2>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, twoCTAs = true>
module attributes {"ttg.num-ctas" = 2 : i32} {
tt.func @f(%a: !ttg.memdesc<256x64xf16, #tmem_a, #ttng.tensor_memory>, %b: !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, %d: !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma' op The LHS operand's encoding must have twoCTA=true to be used in a twoCTA matmul}}
  ttng.tc_gen5_mma %a, %b, %d, %p, %p {two_ctas} : !ttg.memdesc<256x64xf16, #tmem_a, #ttng.tensor_memory>, !ttg.memdesc<64x128xf16, #b, #ttg.shared_memory>, !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#scales = #ttng.tensor_memory_scales_encoding<>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf8E4M3FN, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %s: !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma_scaled' op LHS and RHS operand dtypes kinds don't match: LHS kind is f16 but RHS kind is f8f6f4}}
  ttng.tc_gen5_mma_scaled %a, %b, %d, %s, %s, %p, %p lhs = fp16 rhs = e4m3 : !ttg.memdesc<128x64xf16, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf8E4M3FN, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>
  tt.return
}

// -----

// With e2m1 (two values a byte), a non-transposed A holds K / 2 bytes a row.
#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#scales = #ttng.tensor_memory_scales_encoding<>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%a: !ttg.memdesc<128x64xi8, #a, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf8E4M3FN, #a, #ttg.shared_memory>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %s: !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>, %p: i1) {
  // expected-error @+1 {{'ttng.tc_gen5_mma_scaled' op expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand}}
  ttng.tc_gen5_mma_scaled %a, %b, %d, %s, %s, %p, %p lhs = e2m1 rhs = e4m3 : !ttg.memdesc<128x64xi8, #a, #ttg.shared_memory>, !ttg.memdesc<64x128xf8E4M3FN, #a, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>, !ttg.memdesc<128x2xi8, #scales, #ttng.tensor_memory>
  tt.return
}

// -----

//===----------------------------------------------------------------------===//
// Tensor memory
//===----------------------------------------------------------------------===//

#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%src: !ttg.memdesc<128x128xf32, #shared, #ttg.shared_memory>) {
  // expected-error @+1 {{'ttng.tmem_load' op source must be a tensor memory buffer.}}
  %0 = ttng.tmem_load %src : !ttg.memdesc<128x128xf32, #shared, #ttg.shared_memory> -> tensor<128x128xf32, #blocked>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#scales = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%src: !ttg.memdesc<128x4xi8, #scales, #ttng.tensor_memory>) {
  // expected-error @+1 {{'ttng.tmem_load' op should use tensor memory encoding.}}
  %0 = ttng.tmem_load %src : !ttg.memdesc<128x4xi8, #scales, #ttng.tensor_memory> -> tensor<128x4xi8, #blocked>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1, 128], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 4, 1], order = [0, 1, 2]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%src: !ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory>) {
  // expected-error @+1 {{'ttng.tmem_load' op result must be a 2D tensor}}
  %0 = ttng.tmem_load %src : !ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory> -> tensor<2x128x128xf32, #blocked>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%src: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>) {
  // expected-error @+1 {{'ttng.tmem_load' op source element type '!ttg.memdesc<128x128xf32, #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>, #ttng.tensor_memory>' must match destination element type 'i32'}}
  %0 = ttng.tmem_load %src : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory> -> tensor<128x128xi32, #blocked>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%src: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>) {
  // expected-error @+1 {{'ttng.tmem_load' op source shape [128, 128] must match [destination shape 128, 64]}}
  %0 = ttng.tmem_load %src : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory> -> tensor<128x64xf32, #blocked>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%x: tensor<128x128xf32, #blocked>, %dst: !ttg.memdesc<128x128xf32, #shared, #ttg.shared_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tmem_store' op should use tensor memory encoding.}}
  ttng.tmem_store %x, %dst, %p : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #shared, #ttg.shared_memory, mutable>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%x: tensor<128x128xf32, #blocked>, %p: i1) {
  %0 = ttng.tmem_alloc %x : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
  // expected-error @+1 {{'ttng.tmem_store' op Cannot store into an immutable alloc}}
  ttng.tmem_store %x, %0, %p : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1, 128], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 4, 1], order = [0, 1, 2]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%x: tensor<2x128x128xf32, #blocked>, %dst: !ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tmem_store' op source must be a 2D tensor}}
  ttng.tmem_store %x, %dst, %p : tensor<2x128x128xf32, #blocked> -> !ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%x: tensor<128x128xi32, #blocked>, %dst: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
  // expected-error @+1 {{'ttng.tmem_store' op source element type 'tensor<128x128xi32, #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>>' must match destination element type 'f32'}}
  ttng.tmem_store %x, %dst, %p : tensor<128x128xi32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @f() {
  // expected-error @+1 {{'ttng.tmem_alloc' op should use tensor memory encoding}}
  %0 = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f() {
  // expected-error @+1 {{'ttng.tmem_alloc' op uninitialized alloc must have a mutable memdesc type}}
  %0 = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
  tt.return
}

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f() {
  // expected-error @+1 {{'ttng.tmem_alloc' op result shape and its alloc shape must match}}
  %0 = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable, 2x128x128>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1, 128], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 4, 1], order = [0, 1, 2]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%x: tensor<2x128x128xf32, #blocked>) {
  // expected-error @+1 {{'ttng.tmem_alloc' op source must be a 2D tensor}}
  %0 = ttng.tmem_alloc %x : (tensor<2x128x128xf32, #blocked>) -> !ttg.memdesc<2x128x128xf32, #tmem, #ttng.tensor_memory>
  tt.return
}
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @f(%x: tensor<128x128xf32, #blocked>) {
  // expected-error @+1 {{'ttng.tmem_alloc' op source shape [128, 128] must match [destination shape 128, 256]}}
  %0 = ttng.tmem_alloc %x : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x256xf32, #tmem, #ttng.tensor_memory>
  tt.return
}
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%src: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>, %dst: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op The source must be a shared memory buffer}}
  ttng.tmem_copy %src, %dst : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%src: !ttg.memdesc<128x64xf32, #nvmma, #ttg.shared_memory>, %dst: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op source shape 128, 64 must match destination shape 128, 128}}
  ttng.tmem_copy %src, %dst : !ttg.memdesc<128x64xf32, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem_bar = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
tt.func @f(%src: !ttg.memdesc<128x128xf32, #nvmma, #ttg.shared_memory>, %dst: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %bar: !ttg.memdesc<128x64xi32, #tmem_bar, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op The optional barrier should be a shared memory buffer}}
  ttng.tmem_copy %src, %dst, %bar : !ttg.memdesc<128x128xf32, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x64xi32, #tmem_bar, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%src: !ttg.memdesc<128x128xf32, #nvmma, #ttg.shared_memory>, %dst: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>) {
  // expected-error @+1 {{'ttng.tmem_copy' op Cannot copy into an immutable alloc}}
  ttng.tmem_copy %src, %dst : !ttg.memdesc<128x128xf32, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
  tt.return
}

// -----

#shared = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0]]}, alignment = 8>
#scales = #ttng.tensor_memory_scales_encoding<>
tt.func @f(%src: !ttg.memdesc<128x4xi8, #shared, #ttg.shared_memory>, %dst: !ttg.memdesc<128x4xi8, #scales, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op Source must have at least 16-byte alignment to be representable in a matrix descriptor.}}
  ttng.tmem_copy %src, %dst : !ttg.memdesc<128x4xi8, #shared, #ttg.shared_memory>, !ttg.memdesc<128x4xi8, #scales, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#scales = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-ctas" = 2 : i32} {
tt.func @f(%src: !ttg.memdesc<128x4xi8, #shared, #ttg.shared_memory>, %dst: !ttg.memdesc<128x4xi8, #scales, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op NYI: Only one CTA is supported for now.}}
  ttng.tmem_copy %src, %dst : !ttg.memdesc<128x4xi8, #shared, #ttg.shared_memory>, !ttg.memdesc<128x4xi8, #scales, #ttng.tensor_memory, mutable>
  tt.return
}
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%src: !ttg.memdesc<128x128xf32, #nvmma, #ttg.shared_memory>, %dst: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op The source should not be transposed or padded}}
  ttng.tmem_copy %src, %dst : !ttg.memdesc<128x128xf32, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 8}>
#scales = #ttng.tensor_memory_scales_encoding<>
tt.func @f(%src: !ttg.memdesc<128x4xi8, #nvmma, #ttg.shared_memory>, %dst: !ttg.memdesc<128x4xi8, #scales, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op The source should not be swizzled for now}}
  ttng.tmem_copy %src, %dst : !ttg.memdesc<128x4xi8, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x4xi8, #scales, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @f(%src: !ttg.memdesc<128x128xf32, #nvmma, #ttg.shared_memory>, %dst: !ttg.memdesc<128x128xf32, #shared, #ttg.shared_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op Incorrect tmem layout.}}
  ttng.tmem_copy %src, %dst : !ttg.memdesc<128x128xf32, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #shared, #ttg.shared_memory, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#tmem = #ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 1>
tt.func @f(%src: !ttg.memdesc<128x128xf32, #nvmma, #ttg.shared_memory>, %dst: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
  // Triton's message, typo included.
  // expected-error @+1 {{'ttng.tmem_copy' op Tmem layout ahouls have M=128.}}
  ttng.tmem_copy %src, %dst : !ttg.memdesc<128x128xf32, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 32}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%src: !ttg.memdesc<128x128xf32, #nvmma, #ttg.shared_memory>, %dst: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op Source layout should be swizzled.}}
  ttng.tmem_copy %src, %dst : !ttg.memdesc<128x128xf32, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%src: !ttg.memdesc<128x128xf16, #nvmma, #ttg.shared_memory>, %dst: !ttg.memdesc<128x128xf16, #tmem, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{'ttng.tmem_copy' op Source element type should be 32-bit.}}
  ttng.tmem_copy %src, %dst : !ttg.memdesc<128x128xf16, #nvmma, #ttg.shared_memory>, !ttg.memdesc<128x128xf16, #tmem, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

#scales = #ttng.tensor_memory_scales_encoding<>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
tt.func @f(%src: !ttg.memdesc<128x8xi8, #scales, #ttng.tensor_memory>) {
  // expected-error @+1 {{'ttng.tmem_subslice' op The source must be a tensor memory buffer.}}
  %0 = ttng.tmem_subslice %src {N = 4 : i32} : !ttg.memdesc<128x8xi8, #scales, #ttng.tensor_memory> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory>
  tt.return
}

// -----

#scales = #ttng.tensor_memory_scales_encoding<>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
tt.func @f(%src: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>) {
  // expected-error @+1 {{'ttng.tmem_subslice' op The destination must be a tensor memory buffer.}}
  %0 = ttng.tmem_subslice %src {N = 0 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory> -> !ttg.memdesc<128x8xi8, #scales, #ttng.tensor_memory>
  tt.return
}

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem64 = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>
tt.func @f(%src: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>) {
  // expected-error @+1 {{'ttng.tmem_subslice' op The destination must have the same block size and CTASplit size as the source.}}
  %0 = ttng.tmem_subslice %src {N = 64 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory> -> !ttg.memdesc<128x64xf32, #tmem64, #ttng.tensor_memory, 128x128>
  tt.return
}
