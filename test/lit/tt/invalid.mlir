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
  // expected-error @+1 {{'tt.bitcast' op cannot bitcast a pointer to a non-pointer type}}
  %0 = tt.bitcast %p : !tt.ptr<f16> -> i64
  tt.return
}

// -----

tt.func @bitcast_int_to_ptr(%i: i64) {
  // expected-error @+1 {{'tt.bitcast' op cannot bitcast a non-pointer type to a pointer}}
  %0 = tt.bitcast %i : i64 -> !tt.ptr<f16>
  tt.return
}

// -----

tt.func @bitcast_widths(%f: f32) {
  // expected-error @+1 {{'tt.bitcast' op cannot bitcast f32 (32 bits) to i16 (16 bits): widths differ}}
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
  // expected-error @+1 {{'tt.unsplat' op source must have exactly one element, but has 2}}
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
  // expected-error @+1 {{'tt.reshape' op source has 32 elements but the result has 64}}
  %0 = tt.reshape %x : tensor<4x8xf32> -> tensor<64xf32>
  tt.return
}

// -----

tt.func @broadcast_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tt.broadcast' op source rank 1 differs from result rank 2}}
  %0 = tt.broadcast %x : tensor<4xf32> -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @broadcast_dim(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'tt.broadcast' op dimension 1 of size 2 cannot be broadcast to 4: only size-1 dimensions may change}}
  %0 = tt.broadcast %x : tensor<4x2xf32> -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @join_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tt.join' op result shape [2, 4] must be the operand shape with a trailing 2: [4, 2]}}
  %0 = tt.join %x, %x : tensor<4xf32> -> tensor<2x4xf32>
  tt.return
}

// -----

tt.func @split_last_dim(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{'tt.split' op the last dimension of the source must be 2, but the shape is [2, 4]}}
  %0, %1 = tt.split %x : tensor<2x4xf32> -> tensor<2xf32>
  tt.return
}

// -----

tt.func @split_shape(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'tt.split' op result shape [2] must be the source shape without its last dimension: [4]}}
  %0, %1 = tt.split %x : tensor<4x2xf32> -> tensor<2xf32>
  tt.return
}

// -----

tt.func @trans_order(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tt.trans' op order [0, 0] is not a permutation of the 2 source dimensions}}
  %0 = tt.trans %x {order = array<i32: 0, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @trans_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tt.trans' op result shape [4, 8] must be the source shape permuted by the order: [8, 4]}}
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @dot_rank(%a: tensor<16xf32>) {
  // expected-error @+1 {{'tt.dot' op operands must all be of rank 2, or all of rank 3 (batched)}}
  %0 = tt.dot %a, %a, %a : tensor<16xf32> * tensor<16xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @dot_widths(%a: tensor<16x16xf16>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.dot' op element types of a (f16) and b (f32) must have the same bit width}}
  %0 = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_k(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.dot' op the K dimensions of a [16, 32] and b [16, 16] differ}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @dot_accumulator(%a: tensor<16x16xf16>, %c: tensor<32x16xf32>) {
  // expected-error @+1 {{'tt.dot' op the accumulator shape [32, 16] must be [M, N] of a [16, 16] and b [16, 16]}}
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
  // expected-error @+1 {{'tt.reduce' op result #0 has type i32, but the operand's elements are f32}}
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
  // expected-error @+1 {{'tt.scan' op result #0 must have the type of operand #0}}
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
  // expected-error @+1 {{'tt.gather' op source and indices must have the same rank}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<4x4xf32>, tensor<4xi32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @gather_axis(%src: tensor<4xf32>, %idx: tensor<4xi32>) {
  // expected-error @+1 {{'tt.gather' op axis 1 is out of range for rank 1}}
  %0 = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @gather_shape(%src: tensor<4xf32>, %idx: tensor<8xi32>) {
  // expected-error @+1 {{'tt.gather' op the result must have the shape of the indices}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<4xf32>, tensor<8xi32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @gather_element(%src: tensor<4xf32>, %idx: tensor<4xi32>) {
  // expected-error @+1 {{'tt.gather' op the result must have the element type of the source}}
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
