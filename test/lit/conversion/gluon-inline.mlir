// gluon-inline: the calls make_ttir's inliner left are inlined now that the
// control flow is in blocks (a callee with two returns, called under a
// branch); calls to noinline functions stay, and so do their callees.
// RUN: tt-opt %s --gluon-inline | FileCheck %s

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @k
  // CHECK-NOT: tt.call @two_returns
  // CHECK: arith.addf
  // CHECK: tt.call @kept
  // CHECK-NOT: @two_returns
  // CHECK: tt.func private @kept
  tt.func public @k(%p: !tt.ptr<f32>, %c: i1) {
    %x = tt.load %p : !tt.ptr<f32>
    cf.cond_br %c, ^bb1, ^bb2(%x : f32)
  ^bb1:
    %y = tt.call @two_returns(%x, %c) : (f32, i1) -> f32
    cf.br ^bb2(%y : f32)
  ^bb2(%z: f32):
    tt.call @kept(%z, %p) : (f32, !tt.ptr<f32>) -> ()
    tt.return
  }
  tt.func private @two_returns(%x: f32, %c: i1) -> f32 attributes {noinline = false} {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    %a = arith.addf %x, %x : f32
    tt.return %a : f32
  ^bb2:
    tt.return %x : f32
  }
  tt.func private @kept(%x: f32, %p: !tt.ptr<f32>) attributes {noinline = true} {
    tt.store %p, %x : !tt.ptr<f32>
    tt.return
  }
}
