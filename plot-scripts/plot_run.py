#!/usr/bin/env python3
"""Plot a run folder's daily.csv and hourly.csv into PNGs beside them.

Usage: python3 plot-scripts/plot_run.py Results/default/<run-id>
"""
import sys
from pathlib import Path

from runfolder import plt, read


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: plot_run.py RUN_FOLDER")
    run = Path(argv[1])
    daily_path = run / "daily.csv"
    if not daily_path.is_file():
        sys.exit(f"{daily_path}: no such file; pass a folder written by 'ensim run'")
    daily = read(daily_path)
    numeric = [c for c in daily[0] if c not in ("day", "date")]
    fig, axes = plt.subplots(len(numeric), 1, figsize=(8, 2 * len(numeric)), sharex=True)
    days = [int(r["day"]) for r in daily]
    for ax, column in zip(axes, numeric):
        ax.plot(days, [float(r[column]) for r in daily], marker=".")
        ax.set_ylabel(column, rotation=0, ha="right", fontsize=8)
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel("simulated day")
    fig.suptitle(f"{run.name}: daily")
    fig.tight_layout()
    fig.savefig(run / "daily.png", dpi=100)
    written = [run / "daily.png"]

    hourly_path = run / "hourly.csv"
    if hourly_path.is_file():
        hourly = read(hourly_path)
        columns = [c for c in hourly[0] if c not in ("hour", "time_utc")]
        fig, ax = plt.subplots(figsize=(10, 3))
        for column in columns:
            ax.plot([int(r["hour"]) for r in hourly], [float(r[column]) for r in hourly], label=column)
        ax.set_xlabel("simulated hour")
        ax.legend()
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(run / "hourly.png", dpi=100)
        written.append(run / "hourly.png")
    for path in written:
        print(path)


if __name__ == "__main__":
    main(sys.argv)
