#!/usr/bin/env python3
"""CDN load and download latency from a folder with distribution tables (a run folder, or
`ensim bench distribution --tables DIR`): requests per minute over one day (index and package
requests, errors) and the distribution of the delay from a package's publication to its download.

Usage: python3 plot-scripts/plot_distribution.py FOLDER [--day N]   (writes distribution.png there)
"""
import csv
import sys
from pathlib import Path

from runfolder import plt, read


def read(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError as error:
        sys.exit(f"{path}: cannot read ({error})")


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--day"):
        sys.exit("usage: plot_distribution.py FOLDER [--day N]")
    folder = Path(argv[1])
    day = int(argv[3]) if len(argv) == 4 else 1
    minutes = read(folder / "distribution_minutes.csv")
    latency = read(folder / "distribution_latency.csv")
    try:
        rows = [r for r in minutes if int(r["minute"]) // 1440 == day] or minutes[:1440]
        x = [(int(r["minute"]) % 1440) / 60 for r in rows]
        index = [int(r["index_requests"]) / 60 for r in rows]
        package = [int(r["package_requests"]) / 60 for r in rows]
        errors = [int(r["errors"]) / 60 for r in rows]
        peak = [int(r["peak_requests_per_second"]) for r in rows]
        bins = [int(r["latency_minute"]) for r in latency]
        counts = [int(r["downloads"]) for r in latency]
    except (KeyError, ValueError) as error:
        sys.exit(f"{folder}: not distribution tables written by ensim ({error})")

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7.5))
    top.stackplot(x, index, package, labels=["index requests", "package requests"], alpha=0.8)
    top.plot(x, peak, color="black", linewidth=0.6, label="peak second of the minute")
    if any(errors):
        top.plot(x, errors, color="red", linewidth=0.8, label="failed requests")
    top.set_xlabel(f"hour of simulated day {day} (UTC)")
    top.set_ylabel("requests per second (minute mean)")
    top.set_xlim(0, 24)
    top.legend(loc="upper right", fontsize=8)
    top.grid(alpha=0.3)

    total = sum(counts) or 1
    cumulative, running = [], 0
    for c in counts:
        running += c
        cumulative.append(running / total)
    bottom.bar(bins, [c / total for c in counts], width=1.0, alpha=0.6, label="share of downloads")
    twin = bottom.twinx()
    twin.plot(bins, cumulative, color="black", label="cumulative")
    twin.set_ylim(0, 1.02)
    twin.set_ylabel("cumulative share")
    bottom.set_xlabel("minutes from publication to download")
    bottom.set_ylabel("share of downloads per minute")
    bottom.set_xlim(0, max(180, next((b for b, c in zip(bins, cumulative) if c >= 0.99), 180)))
    bottom.grid(alpha=0.3)
    fig.tight_layout()
    out = folder / "distribution.png"
    fig.savefig(out, dpi=120)
    print(out)


if __name__ == "__main__":
    main(sys.argv)
