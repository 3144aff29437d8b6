// tt.load/tt.store keyword clauses: cacheModifier/evictionPolicy in either
// order, defaults (none, evict_normal) elided, isVolatile in the attr-dict.
module {
  tt.func public @loads(%p: tensor<256x!tt.ptr<f32>>, %m: tensor<256xi1>, %o: tensor<256xf32>, %s: !tt.ptr<f16>) {
    %0 = tt.load %p, %m, %o cacheModifier = ca evictionPolicy = evict_last : tensor<256x!tt.ptr<f32>>
    %1 = tt.load %p evictionPolicy = evict_first cacheModifier = cg {isVolatile = true} : tensor<256x!tt.ptr<f32>>
    %2 = tt.load %p, %m cacheModifier = none evictionPolicy = evict_normal : tensor<256x!tt.ptr<f32>>
    %3 = tt.load %s : !tt.ptr<f16>
    tt.store %p, %0, %m cacheModifier = wb evictionPolicy = evict_last : tensor<256x!tt.ptr<f32>>
    tt.store %s, %3 : !tt.ptr<f16>
    tt.return
  }
}
