// tt.reduce prints in generic form with its combine region; a two-operand
// reduce returns two results.
module {
  tt.func public @reduces(%x: tensor<16x8xf32>, %i: tensor<16x8xi32>) -> tensor<8xf32> {
    %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.maximumf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<16x8xf32>) -> tensor<8xf32>
    %1:2 = "tt.reduce"(%x, %i) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %lt = arith.cmpf olt, %a, %b : f32
      %v = arith.select %lt, %a, %b : f32
      %w = arith.select %lt, %ai, %bi : i32
      tt.reduce.return %v, %w : f32, i32
    }) : (tensor<16x8xf32>, tensor<16x8xi32>) -> (tensor<16xf32>, tensor<16xi32>)
    tt.return %0 : tensor<8xf32>
  }
}
