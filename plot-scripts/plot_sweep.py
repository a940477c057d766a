#!/usr/bin/env python3
"""Plots a sweep folder's sweep_summary.csv: each metric against one varied key, one line per
combination of the other varied keys, the 95% interval across replicates shaded, the replicates as dots.
Usage: plot_sweep.py SWEEP_FOLDER [--x KEY] [--metrics M1,M2,...] [--out PNG]
(default: the first varied key, every metric, SWEEP_FOLDER/sweep.png)."""
import argparse
import csv
import json
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    return float(text) if text not in ("", None) else None


def main():
    parser = argparse.ArgumentParser(usage=__doc__.splitlines()[-2])
    parser.add_argument("folder")
    parser.add_argument("--x", help="the varied key on the x axis")
    parser.add_argument("--metrics", help="comma-separated metrics (default: all)")
    parser.add_argument("--out", help="PNG to write")
    args = parser.parse_args()
    with open(os.path.join(args.folder, "manifest.json")) as f:
        manifest = json.load(f)
    varied = manifest["varied"]
    metrics = args.metrics.split(",") if args.metrics else manifest["metrics"]
    if not varied:
        sys.exit("the sweep varies no key: nothing to plot against")
    x_key = args.x or varied[0]
    if x_key not in varied:
        sys.exit("--x must be one of: " + ", ".join(varied))
    others = [k for k in varied if k != x_key]
    summary = rows(os.path.join(args.folder, "sweep_summary.csv"))
    runs = [r for r in rows(os.path.join(args.folder, "sweep.csv")) if r["status"] == "complete"]

    columns = min(len(metrics), 3)
    lines = (len(metrics) + columns - 1) // columns
    fig, axes = plt.subplots(lines, columns, figsize=(4.6 * columns, 3.6 * lines), squeeze=False)
    groups = sorted({tuple(r[k] for k in others) for r in summary})
    for ax, metric in zip(axes.flat, metrics):
        for group in groups:
            sel = [r for r in summary if tuple(r[k] for k in others) == group and number(r[metric + ":mean"]) is not None]
            sel.sort(key=lambda r: float(r[x_key]))
            if not sel:
                continue
            x = [float(r[x_key]) for r in sel]
            label = ", ".join(f"{k.split('.')[-1]}={v}" for k, v in zip(others, group)) or None
            line, = ax.plot(x, [float(r[metric + ":mean"]) for r in sel], marker="o", label=label)
            bounded = [r for r in sel if number(r[metric + ":ci_lower"]) is not None]
            if bounded:
                ax.fill_between([float(r[x_key]) for r in bounded], [float(r[metric + ":ci_lower"]) for r in bounded],
                                [float(r[metric + ":ci_upper"]) for r in bounded], color=line.get_color(), alpha=0.2, linewidth=0)
            dots = [r for r in runs if tuple(r[k] for k in others) == group and r[metric] != ""]
            ax.scatter([float(r[x_key]) for r in dots], [float(r[metric]) for r in dots], s=8, color=line.get_color(), alpha=0.5)
        ax.set_title(metric, fontsize=9)
        ax.set_xlabel(x_key, fontsize=8)
        ax.grid(alpha=0.3)
        if others:
            ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(metrics):]:
        ax.axis("off")
    fig.suptitle(f"sweep {manifest['name']}: mean and 95% interval over {manifest['replicates']} replicates (dots: runs)", fontsize=10)
    fig.tight_layout()
    out = args.out or os.path.join(args.folder, "sweep.png")
    fig.savefig(out, dpi=120)
    print(out)


if __name__ == "__main__":
    main()
