// RUN: tt-opt %s | tt-opt | FileCheck %s
// RUN: tt-opt %s --mlir-print-op-generic | tt-opt | FileCheck %s

// CHECK-LABEL: tt.func @casts
tt.func @casts(%p: !tt.ptr<f32>, %q: !tt.ptr<f16, 3>, %i: i64, %f: f32) {
  // CHECK: tt.int_to_ptr %{{.*}} : i64 -> !tt.ptr<f32>
  %0 = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
  // CHECK: tt.ptr_to_int %{{.*}} : !tt.ptr<f32> -> i64
  %1 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  // CHECK: tt.bitcast %{{.*}} : f32 -> i32
  %2 = tt.bitcast %f : f32 -> i32
  // CHECK: tt.bitcast %{{.*}} : !tt.ptr<f16, 3> -> !tt.ptr<i16, 3>
  %3 = tt.bitcast %q : !tt.ptr<f16, 3> -> !tt.ptr<i16, 3>
  // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : f32 -> f16
  %4 = tt.fp_to_fp %f, rounding = rtne : f32 -> f16
  // CHECK: tt.fp_to_fp %{{.*}} : f16 -> f32
  %5 = tt.fp_to_fp %4 : f16 -> f32
  // CHECK: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = all : f32
  %6 = tt.clampf %f, %f, %f, propagateNan = all : f32
  // CHECK: tt.precise_sqrt %{{.*}} : f32
  %7 = tt.precise_sqrt %f : f32
  // CHECK: tt.precise_divf %{{.*}}, %{{.*}} : f32
  %8 = tt.precise_divf %f, %f : f32
  // CHECK: tt.mulhiui %{{.*}}, %{{.*}} : i64
  %9 = tt.mulhiui %i, %i : i64
  tt.return
}

// CHECK-LABEL: tt.func @memory
tt.func @memory(%base: !tt.ptr<f32>) {
  %offsets = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %ptrs0 = tt.splat %base : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %ptrs = tt.addptr %ptrs0, %offsets : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %mask = arith.constant dense<true> : tensor<128xi1>
  %other = arith.constant dense<0.0> : tensor<128xf32>
  // CHECK: tt.load %{{.*}} : tensor<128x!tt.ptr<f32>>
  %a = tt.load %ptrs : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = ca evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>>
  %b = tt.load %ptrs, %mask, %other cacheModifier = ca evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}}, %{{.*}} evictionPolicy = evict_first {isVolatile = true} : tensor<128x!tt.ptr<f32>>
  %c = tt.load %ptrs, %mask evictionPolicy = evict_first {isVolatile = true} : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = wb : tensor<128x!tt.ptr<f32>>
  tt.store %ptrs, %a, %mask cacheModifier = wb : tensor<128x!tt.ptr<f32>>
  // CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
  %d = tt.atomic_rmw fadd, acq_rel, gpu, %ptrs, %b, %mask : (tensor<128x!tt.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>
  // CHECK: tt.atomic_rmw exch, relaxed, sys, %{{.*}}, %{{.*}} : (!tt.ptr<f32>, f32) -> f32
  %one = arith.constant 1.0 : f32
  %e = tt.atomic_rmw exch, relaxed, sys, %base, %one : (!tt.ptr<f32>, f32) -> f32
  // CHECK: tt.atomic_cas acquire, cta, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<f32>, f32, f32) -> f32
  %f = tt.atomic_cas acquire, cta, %base, %one, %e : (!tt.ptr<f32>, f32, f32) -> f32
  // CHECK: tt.make_tensor_ptr %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<16x32xf32>>
  %c64 = arith.constant 64 : i64
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %bp = tt.make_tensor_ptr %base, [%c64, %c64], [%c64, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x32xf32>>
  // CHECK: tt.advance %{{.*}}, [%{{.*}}, %{{.*}}] : <tensor<16x32xf32>>
  %bp2 = tt.advance %bp, [%c0, %c0] : <tensor<16x32xf32>>
  // CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16x32xf32>>
  %blk = tt.load %bp2 {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16x32xf32>>
  tt.return
}

// CHECK-LABEL: tt.func @shapes
tt.func @shapes(%x: tensor<4x8xf32>, %s: f32) {
  // CHECK: tt.splat %{{.*}} : f32 -> tensor<4x8xf32>
  %0 = tt.splat %s : f32 -> tensor<4x8xf32>
  // CHECK: tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<4x8xf32> -> tensor<1x4x8xf32>
  %1 = tt.expand_dims %x {axis = 0 : i32} : tensor<4x8xf32> -> tensor<1x4x8xf32>
  // CHECK: tt.reshape %{{.*}} allow_reorder : tensor<4x8xf32> -> tensor<32xf32>
  %2 = tt.reshape %x allow_reorder : tensor<4x8xf32> -> tensor<32xf32>
  %col = tt.splat %s : f32 -> tensor<4x1xf32>
  // CHECK: tt.broadcast %{{.*}} : tensor<4x1xf32> -> tensor<4x8xf32>
  %3 = tt.broadcast %col : tensor<4x1xf32> -> tensor<4x8xf32>
  // CHECK: tt.cat %{{.*}}, %{{.*}} : tensor<4x8xf32> -> tensor<8x8xf32>
  %4 = tt.cat %x, %x : tensor<4x8xf32> -> tensor<8x8xf32>
  // CHECK: tt.join %{{.*}}, %{{.*}} : tensor<4x8xf32> -> tensor<4x8x2xf32>
  %5 = tt.join %x, %x : tensor<4x8xf32> -> tensor<4x8x2xf32>
  // CHECK: tt.split %{{.*}} : tensor<4x8x2xf32> -> tensor<4x8xf32>
  %6, %7 = tt.split %5 : tensor<4x8x2xf32> -> tensor<4x8xf32>
  // CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %8 = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %one = tt.splat %s : f32 -> tensor<1xf32>
  // CHECK: tt.unsplat %{{.*}} : tensor<1xf32>
  %9 = tt.unsplat %one : tensor<1xf32>
  // CHECK: tt.get_program_id x : i32
  %pid = tt.get_program_id x : i32
  // CHECK: tt.get_num_programs z : i32
  %n = tt.get_num_programs z : i32
  tt.return
}

// CHECK-LABEL: tt.func @dots
tt.func @dots(%a: tensor<16x16xf32>, %b: tensor<16x16xf16>) {
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %0 = tt.dot %a, %a, %a, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %1 = tt.dot %b, %b, %0 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.return
}

// CHECK-LABEL: tt.func @reductions
tt.func @reductions(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // CHECK: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}> ({
  // CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
  // CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
  // CHECK-NEXT: tt.reduce.return %[[S]] : f32
  // CHECK-NEXT: }) : (tensor<4x8xf32>) -> tensor<4xf32>
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  // CHECK: "tt.scan"(%{{.*}}) <{axis = 1 : i32, reverse = false}> ({
  // CHECK: tt.scan.return %{{.*}} : f32
  %1 = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: tt.return %{{.*}} : tensor<4xf32>
  tt.return %0 : tensor<4xf32>
}

// CHECK-LABEL: tt.func @misc
tt.func @misc(%x: tensor<128xi32>, %f: tensor<128xf32>, %c: i1) {
  // CHECK: tt.histogram %{{.*}} : tensor<128xi32> -> tensor<16xi32>
  %0 = tt.histogram %x : tensor<128xi32> -> tensor<16xi32>
  // CHECK: tt.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
  %1 = tt.gather %f[%x] {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
  // CHECK: tt.extern_elementwise %{{.*}} {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_sinf"} : (tensor<128xf32>) -> tensor<128xf32>
  %2 = tt.extern_elementwise %f {libname = "libdevice", libpath = "", pure = true, symbol = "__nv_sinf"} : (tensor<128xf32>) -> tensor<128xf32>
  // CHECK: tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{.*}} : tensor<128xi32> -> tensor<128xi32>
  %3 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<128xi32> -> tensor<128xi32>
  // CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %{{.*}} : tensor<128xi32>
  tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : tensor<128xi32>
  // CHECK: tt.print "done" {hex = true, isSigned = array<i32>}
  tt.print "done" {hex = true, isSigned = array<i32>}
  // CHECK: tt.assert %{{.*}}, "boom" : i1
  tt.assert %c, "boom" : i1
  tt.return
}

// CHECK-LABEL: tt.func private @callee(%arg0: i32) -> i32 attributes {noinline = true}
tt.func private @callee(%x: i32) -> i32 attributes {noinline = true} {
  tt.return %x : i32
}

// CHECK-LABEL: tt.func public @caller
tt.func public @caller(%x: i32) -> i32 {
  // CHECK: %[[R:.*]] = tt.call @callee(%{{.*}}) : (i32) -> i32
  %r = tt.call @callee(%x) : (i32) -> i32
  // CHECK: tt.return %[[R]] : i32
  tt.return %r : i32
}

// CHECK-LABEL: tt.func private @declaration(!tt.ptr<f16, 3>)
tt.func private @declaration(!tt.ptr<f16, 3>)
