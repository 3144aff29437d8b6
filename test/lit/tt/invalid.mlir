// RUN: tt-opt %s --split-input-file --verify-diagnostics

tt.func @tensor_too_large(%x: f32) {
  // expected-error @+1 {{'tt.splat' op tensor<2048x1024xf32> has 2097152 elements, more than the maximum of 1048576}}
  %0 = tt.splat %x : f32 -> tensor<2048x1024xf32>
  tt.return
}

// -----

tt.func @tensor_not_pow2(%x: f32) {
  // expected-error @+1 {{'tt.splat' op tensor<3xf32> has 3 elements: the number of elements must be a power of two}}
  %0 = tt.splat %x : f32 -> tensor<3xf32>
  tt.return
}

// -----

tt.func @bitcast_address_spaces(%p: !tt.ptr<f16, 1>) {
  // expected-error @+1 {{'tt.bitcast' op cannot bitcast between address spaces 1 and 3}}
  %0 = tt.bitcast %p : !tt.ptr<f16, 1> -> !tt.ptr<f16, 3>
  tt.return
}

// -----

tt.func @bitcast_ptr_to_int(%p: !tt.ptr<f16>) {
  // expected-error @+1 {{'tt.bitcast' op Cannot bitcast pointer to non-pointer type}}
  %0 = tt.bitcast %p : !tt.ptr<f16> -> i64
  tt.return
}

// -----

tt.func @bitcast_int_to_ptr(%i: i64) {
  // expected-error @+1 {{'tt.bitcast' op Cannot bitcast non-pointer type to pointer}}
  %0 = tt.bitcast %i : i64 -> !tt.ptr<f16>
  tt.return
}

// -----

tt.func @bitcast_widths(%f: f32) {
  // expected-error @+1 {{'tt.bitcast' op Cannot bitcast data-type of size 32 to data-type of size 16 (f32 to i16)}}
  %0 = tt.bitcast %f : f32 -> i16
  tt.return
}

// -----

tt.func @fp_to_fp_narrowing(%f: f32) {
  // expected-error @+1 {{'tt.fp_to_fp' op a rounding mode is required for a narrowing float conversion}}
  %0 = tt.fp_to_fp %f : f32 -> f16
  tt.return
}

// -----

tt.func @unsplat(%x: tensor<2xf32>) {
  // expected-error @+1 {{'tt.unsplat' op source tensor must have exactly one element, but has 2}}
  %0 = tt.unsplat %x : tensor<2xf32>
  tt.return
}

// -----

tt.func @expand_dims_axis(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tt.expand_dims' op axis 2 is out of range for a rank-1 source}}
  %0 = tt.expand_dims %x {axis = 2 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  tt.return
}

// -----

tt.func @expand_dims_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tt.expand_dims' op result shape [4, 1] must be the source shape with a 1 inserted at axis 0: [1, 4]}}
  %0 = tt.expand_dims %x {axis = 0 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  tt.return
}

// -----

tt.func @reshape_elements(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tt.reshape' op number of src and dst elements of reshape must be the same (32 and 64)}}
  %0 = tt.reshape %x : tensor<4x8xf32> -> tensor<64xf32>
  tt.return
}

// -----

tt.func @broadcast_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tt.broadcast' op rank of source must be same as rank of result (1 and 2)}}
  %0 = tt.broadcast %x : tensor<4xf32> -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @broadcast_dim(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'tt.broadcast' op Different dimensions at index 1 between source and result.  Broadcast requires the source dimension to be 1.}}
  %0 = tt.broadcast %x : tensor<4x2xf32> -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @join_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tt.join' op result shape must be (4, 2), but got 2, 4}}
  %0 = tt.join %x, %x : tensor<4xf32> -> tensor<2x4xf32>
  tt.return
}

// -----

tt.func @split_last_dim(%x: tensor<2x4xf32>) {
  // expected-error @+2 {{'tt.split' op last dimension of input tensor must be 2, but the shape is [2, 4]}}
  // expected-error @+1 {{'tt.split' op failed to infer returned types}}
  %0, %1 = tt.split %x : tensor<2x4xf32> -> tensor<2xf32>
  tt.return
}

// -----

tt.func @split_shape(%x: tensor<4x2xf32>) {
  // expected-error @+2 {{'tt.split' op inferred type(s) 'tensor<4xf32>', 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>', 'tensor<2xf32>'}}
  // expected-error @+1 {{'tt.split' op failed to infer returned types}}
  %0, %1 = tt.split %x : tensor<4x2xf32> -> tensor<2xf32>
  tt.return
}

// -----

tt.func @trans_order(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tt.trans' op order must be a permutation of 0..n-1, got [0, 0]}}
  %0 = tt.trans %x {order = array<i32: 0, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @trans_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tt.trans' op result shape must match the permutation of the source shape: [4, 8] instead of [8, 4]}}
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @dot_rank(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.dot' op expected operands to be 2d or 3d}}
  %0 = tt.dot %a, %a, %a : tensor<16xf32> * tensor<16xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @dot_widths(%a: tensor<16x16xf16>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.dot' op element types of operands A and B must have same bit width (f16 and f32)}}
  %0 = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_k(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.dot' op expected the last dimension of the first operand to be equal to the second-to-last dimension of the second operand (K = 32 and 16)}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_accumulator(%a: tensor<16x16xf16>, %c: tensor<32x16xf32>) {
  // expected-error @+1 {{'tt.dot' op expected the output shape to be the concatenation of the last dimension of the first operand and the last dimension of the second (got [32, 16], expected [16, 16])}}
  %0 = tt.dot %a, %a, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<32x16xf32>
  tt.return
}

// -----

tt.func @reduce_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tt.reduce' op axis 2 is out of range for rank 2}}
  %0 = "tt.reduce"(%x) <{axis = 2 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @reduce_result_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tt.reduce' op has 2 results for 1 operands}}
  %0:2 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  tt.return
}

// -----

tt.func @reduce_result_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tt.reduce' op result #0 has shape [8] but reducing axis 1 gives [4]}}
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<4x8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @reduce_scalar_result(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tt.reduce' op operand types and result types must agree (result #0 is i32, operand #0 has elements of type f32)}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> i32
  tt.return
}

// -----

tt.func @reduce_region_arity(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tt.reduce' op the combine region takes 1 arguments, but it must take 2 per operand (2)}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_region_argument_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tt.reduce' op combine region argument #1 has type i32, but operand #0 has elements of type f32}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: i32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_region_return_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tt.reduce' op the combine region returns i32 for operand #0, whose elements are f32}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %i = arith.constant 0 : i32
    tt.reduce.return %i : i32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @scan_result_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tt.scan' op operand types and result types must agree (result #0 is tensor<8xf16>, operand #0 tensor<8xf32>)}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    tt.scan.return %a : f32
  }) : (tensor<8xf32>) -> tensor<8xf16>
  tt.return
}

// -----

tt.func @make_range_rank() {
  // expected-error @+1 {{'tt.make_range' op the result must be a 1D tensor}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<4x4xi32>
  tt.return
}

// -----

tt.func @make_range_bounds() {
  // expected-error @+1 {{'tt.make_range' op start must be less than end (start = 16, end = 0)}}
  %0 = tt.make_range {end = 0 : i32, start = 16 : i32} : tensor<16xi32>
  tt.return
}

// -----

tt.func @make_range_count() {
  // expected-error @+1 {{'tt.make_range' op number of elements of the result (16) must be end - start (32)}}
  %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<16xi32>
  tt.return
}

// -----

tt.func @make_range_element_type() {
  // expected-error @+1 {{'tt.make_range' op the result must have i32 elements}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi64>
  tt.return
}

// -----

tt.func @inline_asm_pack(%x: tensor<4xi32>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op packed_element must be positive, got 0}}
  %0 = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 0 : i32, pure = true} %x : tensor<4xi32> -> tensor<4xi32>
  tt.return
}

// -----

tt.func @inline_asm_multiple(%x: tensor<2xi32>) {
  // expected-error @+1 {{'tt.elementwise_inline_asm' op tensor<2xi32> has 2 elements, which is not a multiple of packed_element = 4}}
  %0 = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %x : tensor<2xi32> -> tensor<2xi32>
  tt.return
}

// -----

tt.func @gather_rank(%src: tensor<4x4xf32>, %idx: tensor<4xi32>) {
  // expected-error @+1 {{'tt.gather' op input and indices ranks must match}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<4x4xf32>, tensor<4xi32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @gather_axis(%src: tensor<4xf32>, %idx: tensor<4xi32>) {
  // expected-error @+1 {{'tt.gather' op gather dimension must be less than the input rank (axis 1, rank 1)}}
  %0 = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @gather_shape(%src: tensor<4xf32>, %idx: tensor<8xi32>) {
  // expected-error @+1 {{'tt.gather' op indices and output shapes must match}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<4xf32>, tensor<8xi32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @gather_element(%src: tensor<4xf32>, %idx: tensor<4xi32>) {
  // expected-error @+1 {{'tt.gather' op input and output element types must match}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf16>
  tt.return
}

// -----

tt.func @print_signs(%x: i32) {
  // expected-error @+1 {{'tt.print' op isSigned has 0 entries for 1 operands}}
  tt.print "x" {hex = false, isSigned = array<i32>} : %x : i32
  tt.return
}

// -----

tt.func @return_count(%x: i32) -> i32 {
  // expected-error @+1 {{'tt.return' op has 0 operands, but the enclosing function returns 1 values}}
  tt.return
}

// -----

tt.func @return_type(%x: i64) -> i32 {
  // expected-error @+1 {{'tt.return' op operand #0 has type i64, but the enclosing function returns i32}}
  tt.return %x : i64
}

// -----

tt.func @make_tensor_ptr_order(%p: !tt.ptr<f32>, %s: i64, %o: i32) {
  // expected-error @+1 {{'tt.make_tensor_ptr' op order has 1 entries for a rank-2 block}}
  %0 = tt.make_tensor_ptr %p, [%s, %s], [%s, %s], [%o, %o] {order = array<i32: 0>} : <tensor<16x16xf32>>
  tt.return
}

// -----

tt.func @make_tensor_ptr_operands(%p: !tt.ptr<f32>, %s: i64, %o: i32) {
  // expected-error @+1 {{'tt.make_tensor_ptr' op takes 1 shape, stride and offset values for a rank-2 block}}
  %0 = tt.make_tensor_ptr %p, [%s], [%s], [%o] {order = array<i32: 1, 0>} : <tensor<16x16xf32>>
  tt.return
}

// -----

tt.func @call_missing() {
  // expected-error @+1 {{'tt.call' op 'nowhere' does not reference a valid function}}
  tt.call @nowhere() : () -> ()
  tt.return
}

// -----

func.func private @plain()
tt.func @call_not_tt_func() {
  // expected-error @+1 {{'tt.call' op 'plain' does not reference a tt.func}}
  tt.call @plain() : () -> ()
  tt.return
}

// -----

tt.func private @callee(%x: i32) -> i32
tt.func @call_operand_count() {
  // expected-error @+1 {{'tt.call' op passes 0 operands to 'callee', which takes 1}}
  %0 = tt.call @callee() : () -> i32
  tt.return
}

// -----

tt.func private @callee(%x: i32) -> i32
tt.func @call_operand_type(%x: i64) {
  // expected-error @+1 {{'tt.call' op operand #0 has type i64, but 'callee' takes i32}}
  %0 = tt.call @callee(%x) : (i64) -> i32
  tt.return
}

// -----

tt.func private @callee(%x: i32) -> i32
tt.func @call_result_count(%x: i32) {
  // expected-error @+1 {{'tt.call' op has 0 results, but 'callee' returns 1}}
  tt.call @callee(%x) : (i32) -> ()
  tt.return
}

// -----

tt.func private @callee(%x: i32) -> i32
tt.func @call_result_type(%x: i32) {
  // expected-error @+1 {{'tt.call' op result #0 has type i64, but 'callee' returns i32}}
  %0 = tt.call @callee(%x) : (i32) -> i64
  tt.return
}

// -----

// A join's result layout must be one its split gives back the operand from:
// here the pair sits in registers, but the rows are spread differently.
#b1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#pair = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @join_layout(%x: tensor<32xf32, #b1>) {
  // expected-error @+1 {{'tt.join' op incompatible join layout}}
  %0 = tt.join %x, %x : tensor<32xf32, #b1> -> tensor<32x2xf32, #pair>
  tt.return
}
}

// -----

// The same layouts the other way round: the split's inferred layout keeps
// one row per lane, not the declared two.
#b1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#pair = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @split_layout(%x: tensor<32x2xf32, #pair>) {
  // expected-error @+2 {{'tt.split' op inferred type(s) with the source's layout without its last dimension (a register dimension) are incompatible with return type(s) of operation}}
  // expected-error @+1 {{'tt.split' op failed to infer returned types}}
  %0, %1 = tt.split %x : tensor<32x2xf32, #pair> -> tensor<32xf32, #b1>
  tt.return
}
}

// -----

// A transpose keeps every element where it is: a result layout that moves
// them is not the inferred one.
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @trans_layout(%x: tensor<4x32xf32, #rows>) {
  // expected-error @+2 {{'tt.trans' op inferred type(s) with the source's layout transposed by the order are incompatible}}
  // expected-error @+1 {{'tt.trans' op failed to infer returned types}}
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x32xf32, #rows> -> tensor<32x4xf32, #rows>
  tt.return
}
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @dot_kwidth(%a: tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %b: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>, %c: tensor<16x16xf32, #mma>) {
  // expected-error @+1 {{'tt.dot' op mismatching kWidth between A and B operands}}
  %0 = tt.dot %a, %b, %c : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>> -> tensor<16x16xf32, #mma>
  tt.return
}
}

// -----

// mma.sync multiplies f32 only as tf32.
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
tt.func @dot_f32_ieee(%a: tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>, %b: tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>, %c: tensor<16x16xf32, #mma>) {
  // expected-error @+1 {{'tt.dot' op unsupported MMA version}}
  %0 = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<16x16xf32, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> * tensor<16x16xf32, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>> -> tensor<16x16xf32, #mma>
  tt.return
}
}

// -----

// e2m1 packs two values per byte along K: 32 bytes are K = 64, and the
// scales hold one per 32 of them.
tt.func @dot_scaled_scales(%a: tensor<32x32xi8>, %s: tensor<32x4xi8>, %b: tensor<64x32xbf16>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{'tt.dot_scaled' op scales K dimension must match the operand K divided by the scale factor (4 for K = 64, factor 32)}}
  %0 = tt.dot_scaled %a scale %s, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<32x32xi8>, tensor<32x4xi8> * tensor<64x32xbf16> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func @descriptor_load_type(%d: !tt.tensordesc<tensor<1x16x16xf32>>, %i: i32) {
  // expected-error @+1 {{'tt.descriptor_load' op tensor descriptor block and tensor types must match (tensor<1x16x16xf32> and tensor<16x8xf32>)}}
  %0 = tt.descriptor_load %d[%i, %i, %i] : !tt.tensordesc<tensor<1x16x16xf32>> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @descriptor_gather_rows(%d: !tt.tensordesc<tensor<1x64xf16>>, %x: tensor<4xi32>, %y: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op gather must have at least 8 rows, but got 4}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x64xf16>>, tensor<4xi32>, i32) -> tensor<4x64xf16>
  tt.return
}

// -----

tt.func @atomic_cas_value(%p: !tt.ptr<i32>, %c: i32, %v: i64) {
  // expected-error @+1 {{'tt.atomic_cas' op failed to verify that ptr type matches value type}}
  %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (!tt.ptr<i32>, i32, i64) -> i32
  tt.return
}

// -----

// A store inside map_elementwise is reported where it is.
tt.func @map_elementwise_store(%p: tensor<8x!tt.ptr<i32>>, %x: tensor<8xi32>) {
  %0 = "tt.map_elementwise"(%p, %x) <{pack = 1 : i32}> ({
  ^bb0(%q: !tt.ptr<i32>, %v: i32):
    // expected-error @+1 {{'tt.store' op Stores are not supported inside map_elementwise}}
    tt.store %q, %v : !tt.ptr<i32>
    tt.map_elementwise.return %v : i32
  }) : (tensor<8x!tt.ptr<i32>>, tensor<8xi32>) -> tensor<8xi32>
  tt.return
}
