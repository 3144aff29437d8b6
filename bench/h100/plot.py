"""Bar chart of results.csv: per kernel, the kernel-time ratio (blue) and the
compile-time ratio (orange), ours / Triton; the grey line is 1.

usage: python3 plot.py results.csv results.png
Uses matplotlib when it is installed; otherwise writes the PNG itself
(zlib + struct): bars only, kernels left to right in CSV order.
"""
import csv, struct, sys, zlib


def load(path):
    # Rows with neither ratio (the matmuls: checks only) are not plotted.
    rows = [r for r in csv.DictReader(open(path)) if r["kernel_ratio"] or r["compile_ratio"]]
    val = lambda r, k: float(r[k]) if r[k] else 0.0
    return [r["kernel"] for r in rows], [val(r, "kernel_ratio") for r in rows], [val(r, "compile_ratio") for r in rows]


def with_matplotlib(names, kr, cr, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    x = range(len(names))
    fig, ax = plt.subplots(figsize=(10, 4))
    ax.bar([i - 0.2 for i in x], kr, 0.4, label="kernel time ours/Triton")
    ax.bar([i + 0.2 for i in x], cr, 0.4, label="compile time ours/Triton")
    ax.axhline(1.0, color="grey")
    ax.set_xticks(list(x), names, rotation=30)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out)


def png(width, height, pixels):
    raw = b"".join(b"\0" + bytes(pixels[y * width * 3:(y + 1) * width * 3]) for y in range(height))
    chunk = lambda tag, data: struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def by_hand(names, kr, cr, out):
    w, h, bar = 60 * len(names) + 20, 300, 20
    top = max(kr + cr + [2.0])
    px = bytearray([255] * (w * h * 3))

    def rect(x0, x1, y0, y1, rgb):
        for y in range(max(y0, 0), min(y1, h)):
            for x in range(max(x0, 0), min(x1, w)):
                px[(y * w + x) * 3:(y * w + x) * 3 + 3] = bytes(rgb)

    y_of = lambda v: h - 10 - int(v / top * (h - 20))
    for i, (k, c) in enumerate(zip(kr, cr)):
        x = 20 + 60 * i
        rect(x, x + bar, y_of(k), h - 10, (31, 119, 180))
        rect(x + bar, x + 2 * bar, y_of(c), h - 10, (255, 127, 14))
    rect(0, w, y_of(1.0), y_of(1.0) + 1, (128, 128, 128))
    open(out, "wb").write(png(w, h, px))


def main():
    names, kr, cr = load(sys.argv[1])
    try:
        with_matplotlib(names, kr, cr, sys.argv[2])
    except ImportError:
        by_hand(names, kr, cr, sys.argv[2])


if __name__ == "__main__":
    main()
