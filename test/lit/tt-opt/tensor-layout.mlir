// RUN: tt-opt --tensor-layout -l "#ttg.nvidia_mma<{versionMajor=2, versionMinor=0,warpsPerCTA=[2,2],instrShape=[16,8]}>" -t "tensor<16x16xf32>" | FileCheck %s --check-prefix=MMA --strict-whitespace
// RUN: tt-opt --tensor-layout -i %s -alias-names=blocked,shared -t "tensor<4x8xf16>" -use-hw-view | FileCheck %s --check-prefix=HW --strict-whitespace
// RUN: tt-opt --tensor-layout -i %s -t "tensor<4x8xf16>" | FileCheck %s --check-prefix=ALL --strict-whitespace
// RUN: not tt-opt --tensor-layout -i %s -alias-names=missing -t "tensor<4x8xf16>" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tt-opt --tensor-layout -l "#ttg.blocked<{sizePerThread = [1]}>" -t "tensor<4xf16>" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tt-opt --tensor-layout -l "#ttg.shared_memory" 2>&1 | FileCheck %s --check-prefix=NOTYPE
// RUN: not tt-opt --tensor-layout -l "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>" -t "tensor<?xf32>" 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not tt-opt --tensor-layout -l "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>" -t "tensor<65536x65536xf32>" 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not tt-opt --tensor-layout -l "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>" -t "tensor<128x128xf32>" 2>&1 | FileCheck %s --check-prefix=TMEM

// Triton's triton-tensor-layout, as its documentation prints this layout:
// each element's holders (thread:register), padded to the widest.
// MMA: Print layout attribute: #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// MMA-NEXT: {{^}}{{\[\[}}  T0:0| T64:0,   T0:1| T64:1,   T1:0| T65:0,   T1:1| T65:1,   T2:0| T66:0,   T2:1| T66:1,   T3:0| T67:0,   T3:1| T67:1,  T32:0| T96:0,  T32:1| T96:1,  T33:0| T97:0,  T33:1| T97:1,  T34:0| T98:0,  T34:1| T98:1,  T35:0| T99:0,  T35:1| T99:1]
// MMA-NEXT: {{^}}[   T4:0| T68:0,   T4:1| T68:1,   T5:0| T69:0,   T5:1| T69:1,   T6:0| T70:0,   T6:1| T70:1,   T7:0| T71:0,   T7:1| T71:1,  T36:0|T100:0,  T36:1|T100:1,  T37:0|T101:0,  T37:1|T101:1,  T38:0|T102:0,  T38:1|T102:1,  T39:0|T103:0,  T39:1|T103:1]
// MMA: {{^}}[  T28:2| T92:2,  T28:3| T92:3,  T29:2| T93:2,  T29:3| T93:3,  T30:2| T94:2,  T30:3| T94:3,  T31:2| T95:2,  T31:3| T95:3,  T60:2|T124:2,  T60:3|T124:3,  T61:2|T125:2,  T61:3|T125:3,  T62:2|T126:2,  T62:3|T126:3,  T63:2|T127:2,  T63:3|T127:3{{\]\]}}

#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>

// The hardware's view: a warp's lanes per register; a buffer's offsets.
// HW: Print layout attribute: #blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
// HW-NEXT: Warp0:
// HW-NEXT: {{^}}(0,0), (0,2), (0,4), (0,6), (0,0), (0,2), (0,4), (0,6), (1,0), (1,2), (1,4), (1,6), (1,0), (1,2), (1,4), (1,6), (2,0), (2,2), (2,4), (2,6), (2,0), (2,2), (2,4), (2,6), (3,0), (3,2), (3,4), (3,6), (3,0), (3,2), (3,4), (3,6)
// HW-NEXT: {{^}}(0,1), (0,3), (0,5), (0,7), (0,1), (0,3), (0,5), (0,7), (1,1), (1,3), (1,5), (1,7), (1,1), (1,3), (1,5), (1,7), (2,1), (2,3), (2,5), (2,7), (2,1), (2,3), (2,5), (2,7), (3,1), (3,3), (3,5), (3,7), (3,1), (3,3), (3,5), (3,7)
// HW-EMPTY:
// HW-NEXT: Print layout attribute: #shared = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>
// HW-NEXT: Block: 0:
// HW-NEXT: Offset: 0 -> (0,0)
// HW:      Offset: 8 -> (1,2)
// HW-NEXT: Offset: 9 -> (1,3)
// HW-NEXT: Offset: 10 -> (1,0)
// HW:      Offset: 31 -> (3,1)
// HW-EMPTY:

// Without names, every alias of the file, in order.
// ALL: Print layout attribute: #blocked = #ttg.blocked
// ALL-NEXT: {{^}}{{\[\[}} T0:0| T4:0,  T0:1| T4:1,  T1:0| T5:0,  T1:1| T5:1,  T2:0| T6:0,  T2:1| T6:1,  T3:0| T7:0,  T3:1| T7:1]
// ALL: Print layout attribute: #shared = #ttg.swizzled_shared
// ALL-NEXT: {{^}}{{\[\[}}(0:0),(0:1),(0:2),(0:3),(0:4),(0:5),(0:6),(0:7)]
// ALL-NEXT: {{^}}[ (1:2),(1:3),(1:0),(1:1),(1:6),(1:7),(1:4),(1:5)]

// MISSING: tt-opt: error: can't find the layout attribute: missing
// BAD: tt-opt: error: invalid layout attribute: #ttg.blocked<{sizePerThread = [1]}>
// BAD-NEXT: note: missing key 'threadsPerWarp'
// NOTYPE: tt-opt: error: --tensor-layout needs the tensor type: -t 'tensor<...>'
// DYNAMIC: tt-opt: error: the tensor type needs a static shape: tensor<?xf32>
// HUGE: tt-opt: error: tensor<65536x65536xf32> is too large to print: at most 4194304 elements
// TMEM: tt-opt: error: printing tensor memory layouts is not supported yet: #ttng.tensor_memory_encoding
module {
}
