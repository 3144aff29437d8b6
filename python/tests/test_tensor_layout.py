"""`triton_rs.tensor_layout` against Triton 3.6's own layouts: for each
distributed layout, Triton's conversion to a linear layout
(`GluonOpBuilder.to_linear_layout`) printed by Triton's own
`LinearLayout.get_distributed_view` must be exactly what this project
prints from the layout's text."""

import pytest

import triton_rs

libtriton = pytest.importorskip("triton._C.libtriton")
ir = libtriton.ir
LinearLayout = libtriton.linear_layout.LinearLayout


def blocked(spt, tpw, wpc, order):
    text = (
        f"#ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {tpw}, "
        f"warpsPerCTA = {wpc}, order = {order}}}>"
    )
    return text, lambda b: b.get_blocked_layout(spt, tpw, wpc, order, [])


def mma(version, warps, instr):
    text = (
        f"#ttg.nvidia_mma<{{versionMajor = {version[0]}, versionMinor = {version[1]}, "
        f"warpsPerCTA = {warps}, instrShape = {instr}}}>"
    )
    return text, lambda b: b.get_mma_layout(version, warps, [], instr)


def sliced(dim, parent):
    text, build = parent
    return f"#ttg.slice<{{dim = {dim}, parent = {text}}}>", lambda b: b.get_slice_layout(dim, build(b))


def dot_operand(index, parent, k_width):
    text, build = parent
    return (
        f"#ttg.dot_op<{{opIdx = {index}, parent = {text}, kWidth = {k_width}}}>",
        lambda b: b.get_dot_operand_layout(index, build(b), k_width),
    )


def linear(register, lane, warp, shape):
    text = f"#ttg.linear<{{register = {register}, lane = {lane}, warp = {warp}, block = []}}>"
    return text, lambda b: b.get_distributed_linear_layout(register, lane, warp, [], shape)


MMA_V3 = mma([3, 0], [4, 1], [16, 64, 16])
MMA_V2 = mma([2, 0], [2, 2], [16, 8])
CASES = [
    (blocked([1, 4], [4, 8], [1, 1], [1, 0]), [4, 32]),
    (blocked([1, 4], [4, 8], [1, 1], [1, 0]), [16, 64]),
    (blocked([2, 2], [8, 4], [1, 2], [0, 1]), [8, 8]),
    (blocked([4], [32], [4], [0]), [256]),
    (blocked([4], [32], [4], [0]), [64]),
    (blocked([1, 1, 2], [2, 4, 4], [1, 2, 2], [2, 1, 0]), [4, 8, 8]),
    (MMA_V2, [16, 16]),
    (MMA_V2, [64, 32]),
    (MMA_V3, [64, 64]),
    (mma([3, 0], [8, 1], [16, 128, 16]), [128, 128]),
    (sliced(1, blocked([1, 4], [4, 8], [2, 2], [1, 0])), [32]),
    (sliced(0, MMA_V2), [16]),
    (dot_operand(0, MMA_V2, 2), [32, 16]),
    (dot_operand(1, MMA_V2, 2), [16, 32]),
    (dot_operand(1, mma([2, 0], [4, 2], [16, 8]), 4), [32, 64]),
    (mma([2, 0], [4, 2], [16, 8]), [128, 64]),
    (blocked([2, 1, 1], [4, 2, 4], [2, 1, 2], [0, 1, 2]), [16, 4, 8]),
    (dot_operand(0, MMA_V3, 2), [64, 16]),
    (linear([[0, 1], [2, 0]], [[0, 2], [0, 4], [1, 0], [4, 0], [8, 0]], [[16, 0]], [32, 8]), [32, 8]),
]


def tritons_view(build, shape, hw):
    context = ir.context()
    ir.load_dialects(context)
    builder = libtriton.gluon_ir.GluonOpBuilder(context)
    ll = builder.to_linear_layout(build(builder), shape)
    bases = [
        ("register", ll.reg_bases),
        ("lane", ll.lane_bases),
        ("warp", ll.warp_bases),
        ("block", ll.block_bases),
    ]
    names = [f"dim{i}" for i in range(len(shape))]
    return LinearLayout.from_bases(bases, names, shape, False).get_distributed_view(hw)


@pytest.mark.parametrize("hw", [False, True], ids=["tensor", "hw"])
@pytest.mark.parametrize("case", CASES, ids=[f"{c[0][0][5:12]}-{'x'.join(map(str, c[1]))}" for c in CASES])
def test_prints_tritons_view_of_each_layout(case, hw):
    (text, build), shape = case
    tensor_type = f"tensor<{'x'.join(map(str, shape))}xf16>"
    assert triton_rs.tensor_layout(text, tensor_type, use_hw_view=hw) == tritons_view(build, shape, hw)


def test_shared_layouts_list_the_element_at_each_offset():
    swizzled = "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>"
    view = triton_rs.tensor_layout(swizzled, "tensor<4x8xf16>")
    # Row 1 (offsets 8 to 15) starts at its phase's vector: columns 2, 3.
    assert view.splitlines()[1] == "[ (1:2),(1:3),(1:0),(1:1),(1:6),(1:7),(1:4),(1:5)]"
    hw = triton_rs.tensor_layout(swizzled, "tensor<4x8xf16>", use_hw_view=True)
    assert hw.splitlines()[:3] == ["Block: 0:", "Offset: 0 -> (0,0)", "Offset: 1 -> (0,1)"]


def test_bad_input_raises_value_error_with_the_reason():
    with pytest.raises(ValueError, match="missing key 'threadsPerWarp'"):
        triton_rs.tensor_layout("#ttg.blocked<{sizePerThread = [1]}>", "tensor<4xf16>")
    with pytest.raises(ValueError, match="rank-1 layout cannot describe a rank-2 tensor"):
        triton_rs.tensor_layout(blocked([4], [32], [4], [0])[0], "tensor<4x4xf16>")
    with pytest.raises(ValueError, match="cannot parse the tensor type"):
        triton_rs.tensor_layout(blocked([4], [32], [4], [0])[0], "tensor<4xf16")
