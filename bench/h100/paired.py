"""How the GPU checks judge one kernel compiled by both compilers: each
output's error against a reference (max |x - ref| / max |ref|), PASS when
ours is within twice Triton's (or 1e-3), and whether the two outputs are
bit-identical."""

import torch


def relative_error(out, ref):
    """max |out - ref| / max |ref| (in fp32)."""
    return float((out.float() - ref).abs().max() / ref.abs().max().clamp(min=1e-6))


def judge(ours, theirs, ref):
    """(`PASS` or `FAIL`, `ours=ERR triton=ERR same=BOOL`)."""
    e_ours, e_triton = relative_error(ours, ref), relative_error(theirs, ref)
    status = "PASS" if e_ours <= max(2 * e_triton, 1e-3) else "FAIL"
    return status, f"ours={e_ours:.2e} triton={e_triton:.2e} same={torch.equal(ours, theirs)}"
