"""Signed division and remainder over runs that hold negative values, run on
the GPU through Triton's compiler and through this project's (strict mode):
`(range - 64) // 32` stored, and a load at `(range - 64) % 32`, against
torch's truncating division and remainder. Triton 3.6's alignment analysis
treats both as if they rounded like floor division, so its kernels store
one quotient for four elements and load four consecutive elements where
the remainders are not consecutive; this project's analysis bounds the run
and keeps them apart. Prints `AXIS kernel compiler PASS|FAIL mismatches`.

    python3 bench/h100/axis_check.py
"""

import torch
import triton
import triton.language as tl
import triton_rs


def kernels():
    # Fresh @triton.jit objects per compiler, so neither reuses the other's.
    @triton.jit
    def quotient(out_ptr):
        offs = tl.arange(0, 128)
        x = offs - 64
        tl.store(out_ptr + offs, x // 32)

    @triton.jit
    def gather(out_ptr, src_ptr):
        offs = tl.arange(0, 128)
        x = offs - 64
        tl.store(out_ptr + offs, tl.load(src_ptr + x % 32))

    return quotient, gather


def main():
    x = torch.arange(128, dtype=torch.int32, device="cuda") - 64
    want_quotient = torch.div(x, 32, rounding_mode="trunc")
    # The source buffer starts 64 elements before the pointer passed, so
    # every index from -31 to 31 is in bounds.
    buffer = torch.arange(128, dtype=torch.int32, device="cuda") * 7 + 3
    src = buffer[64:]
    want_gather = buffer[64 + torch.fmod(x, 32).long()]
    failed = 0
    for compiler in ("triton", "ours"):
        if compiler == "ours":
            triton_rs.enable("strict")
        else:
            triton_rs.disable()
        quotient, gather = kernels()
        out = torch.empty(128, dtype=torch.int32, device="cuda")
        quotient[(1,)](out, num_warps=1)
        bad = int((out != want_quotient).sum())
        print(f"AXIS quotient {compiler} {'PASS' if bad == 0 else 'FAIL'} {bad}")
        failed += compiler == "ours" and bad > 0
        out = torch.empty(128, dtype=torch.int32, device="cuda")
        gather[(1,)](out, src, num_warps=1)
        bad = int((out != want_gather).sum())
        print(f"AXIS gather {compiler} {'PASS' if bad == 0 else 'FAIL'} {bad}")
        failed += compiler == "ours" and bad > 0
    triton_rs.disable()
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
