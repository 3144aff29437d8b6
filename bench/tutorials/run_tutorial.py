"""Runs one of Triton's tutorials unchanged, as `python TUTORIAL.py` would,
and saves every perf_report table it prints as PREFIX.<plot name>.csv.

usage: python3 run_tutorial.py TUTORIAL.py PREFIX"""

import runpy
import sys

import triton.testing


def main(path, prefix):
    original = triton.testing.Mark._run

    def run_and_save(self, bench, *args, **kwargs):
        table = original(self, bench, *args, **kwargs)
        table.to_csv(f"{prefix}.{bench.plot_name}.csv", index=False)
        return table

    triton.testing.Mark._run = run_and_save
    sys.argv = [path]
    runpy.run_path(path, run_name="__main__")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
