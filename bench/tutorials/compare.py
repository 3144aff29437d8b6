"""Compares the tutorials' perf_report tables of runs with Triton's compiler
(`TUTORIAL.triton.ROUND.PLOT.csv`) and with this project's
(`TUTORIAL.ours.ROUND.PLOT.csv`), and plots the ratios. Each side's value
per size is its best round (the highest GB/s), as timeit takes the best of
its repeats: a round slowed by the host says nothing about the kernel.

usage: python3 compare.py DIR [PLOT.png]

Each table's 'Triton' column is the tutorial's own kernel (GB/s, higher is
faster) compiled by one compiler or the other; the ratio printed is our time
over Triton's (Triton's GB/s over ours), per size, then its median and
maximum per table. The Torch column of both runs is printed as a control:
its ratio shows the run-to-run noise of the machine."""

import glob
import os
import statistics
import sys

import pandas as pd


def column(table, name):
    matches = [c for c in table.columns if c.split(" (")[0] == name]
    return matches[0] if matches else None


def best(paths, columns):
    """The rounds' tables merged: per row, each column's maximum."""
    tables = [pd.read_csv(p) for p in paths]
    merged = tables[0].copy()
    for name in columns:
        if name:
            merged[name] = pd.concat([t[name] for t in tables], axis=1).max(axis=1)
    return merged


def main(directory, plot=None):
    rows = []
    by_plot = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.csv"))):
        tutorial, mode, _round, rest = os.path.basename(path).split(".", 3)
        by_plot.setdefault(rest[:-4], {}).setdefault(mode, []).append(path)
    for name, modes in sorted(by_plot.items()):
        if set(modes) != {"triton", "ours"}:
            print(f"MISSING {name}: only {sorted(modes)}")
            continue
        sample = pd.read_csv(modes["ours"][0])
        x = sample.columns[0]
        kernel, control = column(sample, "Triton"), column(sample, "Torch")
        ours, theirs = best(modes["ours"], [kernel, control]), best(modes["triton"], [kernel, control])
        ratios = (theirs[kernel] / ours[kernel]).tolist()
        controls = (theirs[control] / ours[control]).tolist() if control else []
        rounds = len(modes["ours"])
        print(f"== {name}: time ratio ours/Triton per {x}, best of {rounds} rounds each "
              f"(Torch's ratio between the two sides' runs as control)")
        for i, size in enumerate(ours[x]):
            extra = f"  torch {controls[i]:.3f}" if controls else ""
            print(f"RATIO {name} {size} {ratios[i]:.3f} ours {ours[kernel][i]:.1f} triton {theirs[kernel][i]:.1f}"
                  f"{extra}")
        summary = f"median {statistics.median(ratios):.3f} max {max(ratios):.3f}"
        if controls:
            summary += f" (torch control: median {statistics.median(controls):.3f} max {max(controls):.3f})"
        print(f"SUMMARY {name} {summary}")
        rows.append((name, x, list(ours[x]), ratios, controls))
    if plot and rows:
        plot_ratios([(name, x, sizes, ratios, controls) for name, x, sizes, ratios, controls in rows],
                    "torch: Triton-side / ours-side runs (noise)", plot)


def plot_ratios(panels, control_label, path):
    """One panel per (title, x label, sizes, time ratios, control ratios):
    our time over Triton's per size, the control dotted, 1.00 marked."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, axes = plt.subplots(len(panels), 1, figsize=(8, 3 * len(panels)), squeeze=False)
    for axis, (name, x, sizes, ratios, controls) in zip(axes[:, 0], panels):
        axis.plot(sizes, ratios, marker=".", label="kernel: ours / Triton (time)")
        if controls:
            axis.plot(sizes, controls, ls=":", color="gray", label=control_label)
        axis.axhline(1.0, color="black", lw=0.8)
        axis.set_title(name)
        axis.set_xlabel(x)
        axis.set_ylabel("time ratio")
        if name.startswith("vector"):
            axis.set_xscale("log", base=2)
        axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
