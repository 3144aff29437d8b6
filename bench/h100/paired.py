"""How the GPU checks run one kernel with both compilers and judge it: the
kernel is launched once with Triton's own compiler and once through
triton_rs in strict mode (each launch must have been compiled by the
compiler meant); each output's error is measured against the reference
(max |x - ref| / max |ref|), PASS when ours is within twice Triton's (or
1e-3; only 1e-3 where Triton's output is not finite, which the line shows
as `triton=nan`), and the two outputs are compared bit for bit. SKIP where Triton
itself fails, REFUSED where this project refuses with a compile error; any
other failure of ours propagates."""

import importlib.util
import math

import torch
import triton_rs


def fresh_module(path):
    """The Python file at `path` loaded afresh, as a module of its own: new
    @triton.jit objects, so each compiler builds its kernels from scratch."""
    spec = importlib.util.spec_from_file_location(f"fresh{id(object())}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def relative_error(out, ref):
    """max |out - ref| / max |ref| (in fp32)."""
    return float((out.float() - ref).abs().max() / ref.abs().max().clamp(min=1e-6))


def judge(ours, theirs, ref):
    """(`PASS` or `FAIL`, `ours=ERR triton=ERR same=BOOL`)."""
    e_ours, e_triton = relative_error(ours, ref), relative_error(theirs, ref)
    bound = 2 * e_triton if math.isfinite(e_triton) else 0.0
    status = "PASS" if e_ours <= max(bound, 1e-3) else "FAIL"
    return status, f"ours={e_ours:.2e} triton={e_triton:.2e} same={torch.equal(ours, theirs)}"


def run_both(name, launch):
    """(status, detail) of `launch()`, a fresh kernel's launch returning
    (output, reference), run with each compiler in turn. A reference of
    None judges against Triton's output."""
    results = {}
    try:
        for compiler in ("triton", "ours"):
            if compiler == "ours":
                triton_rs.enable("strict")
            else:
                triton_rs.disable()
            triton_rs.reset_stats()
            try:
                results[compiler] = launch()
            except triton_rs.CompileError as e:
                return "REFUSED", str(e).strip().splitlines()[-1][:160]
            except Exception as e:  # Triton itself rejects the configuration
                if compiler == "ours":
                    raise
                return "SKIP", f"triton failed: {str(e).strip().splitlines()[0][:100]}"
            if (compiler == "ours") != (triton_rs.stats()["compiled"] > 0):
                raise RuntimeError(f"{name}: not compiled by {compiler}")
    finally:
        triton_rs.disable()
    (ours, ref), (theirs, _) = results["ours"], results["triton"]
    return judge(ours, theirs, theirs.float() if ref is None else ref)


class Tally:
    """The verdicts of a check's cases: each printed as `TAG name STATUS
    detail` as it comes, then `TOTAL PASS=.. FAIL=.. REFUSED=.. SKIP=..`."""

    def __init__(self, tag, total):
        self.tag, self.total = tag, total
        self.counts = {"PASS": 0, "FAIL": 0, "REFUSED": 0, "SKIP": 0}

    def record(self, name, status, detail):
        self.counts[status] += 1
        print(f"{self.tag} {name} {status} {detail}", flush=True)

    def finish(self):
        """Prints the totals; the exit status (1 on a failure or refusal)."""
        print(self.total + " " + " ".join(f"{k}={v}" for k, v in self.counts.items()))
        return 1 if self.counts["FAIL"] or self.counts["REFUSED"] else 0
