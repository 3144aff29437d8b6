"""Write NAME.ptx + NAME.json (tt_metadata::KernelMetadata) for Triton's own corpus PTX.

usage: python3 corpus_meta.py CORPUS OUTDIR [NAME ...]
The argument list comes from the tt.func signature in CORPUS/NAME/NAME.ttir
(types and tt.divisibility), the launch numbers from result.json's metadata,
the PTX version from the PTX. Triton's PTX has the same ABI as ours, so
`tt-run check OUTDIR CORPUS` validates the runner before our compiler runs.
"""
import json, os, re, shutil, sys

NAMES = ["vector_add", "add_print", "copy", "rgb2grey", "softmax", "swizzle",
         "layernorm_bwd", "max_reduce", "prod_reduce", "matmul", "matmul_naive"]


def args_of(ttir):
    sig = re.search(r"tt\.func public @\w+\((.*?)\) attributes", ttir).group(1)
    out = []
    for m in re.finditer(r"%\w+: (!tt\.ptr<(\w+)>|\w+)( \{tt\.divisibility = (\d+) : i32\})?", sig):
        ty = "*" + m.group(2) if m.group(2) else m.group(1)
        arg = {"type": ty}
        if m.group(4):
            arg["divisibility"] = int(m.group(4))
        out.append(arg)
    return out


def main():
    corpus, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    for name in sys.argv[3:] or NAMES:
        d = os.path.join(corpus, name)
        md = json.load(open(os.path.join(d, "result.json")))["metadata"]
        ptx = open(os.path.join(d, f"{name}.ptx")).read()
        major, minor = re.search(r"^\.version (\d+)\.(\d+)", ptx, re.M).groups()
        meta = {
            "name": md["name"], "target": "cuda:90", "ptx_version": int(major) * 10 + int(minor),
            "num_warps": md["num_warps"], "num_ctas": md["num_ctas"], "threads_per_warp": md["warp_size"],
            "shared": md["shared"],
            "global_scratch_size": md["global_scratch_size"], "global_scratch_align": md["global_scratch_align"],
            "profile_scratch_size": md["profile_scratch_size"], "profile_scratch_align": md["profile_scratch_align"],
            "args": args_of(open(os.path.join(d, f"{name}.ttir")).read()),
        }
        shutil.copy(os.path.join(d, f"{name}.ptx"), os.path.join(outdir, f"{name}.ptx"))
        json.dump(meta, open(os.path.join(outdir, f"{name}.json"), "w"), indent=2)


if __name__ == "__main__":
    main()
