#!/usr/bin/env python3
"""Epidemic curve by layer and the notification → test → positive cascade, from a run folder
whose scenario has the `epidemic` block.

Usage: python3 plot-scripts/plot_epidemic.py Results/epidemic/<run-id>   (writes epidemic.png there)
"""
import csv
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LAYERS = ["household", "workplace", "school", "community", "transport"]
CASCADE = [("epi_notified", "notified"), ("epi_tests_notification", "tests after a notification"),
           ("epi_tests_symptoms", "tests for symptoms"), ("epi_positives", "positive tests"),
           ("epi_quarantine_starts", "quarantines started")]


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: plot_epidemic.py RUN_FOLDER")
    run = Path(argv[1])
    path = run / "daily.csv"
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        days = [int(r["day"]) for r in rows]
        stacks = [[int(r["epi_infections_" + layer]) for r in rows] for layer in LAYERS]
        imports = [int(r["epi_imports"]) for r in rows]
        infectious = [int(r["epi_infectious"]) for r in rows]
        cascade = [([int(r[column]) for r in rows], label) for column, label in CASCADE]
    except (OSError, KeyError, ValueError) as error:
        sys.exit(f"{path}: not a daily.csv of a run with the epidemic block ({error})")
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 8), sharex=True)
    top.stackplot(days, stacks + [imports], labels=LAYERS + ["seeded and imported"], alpha=0.8)
    top.set_ylabel("new infections per day")
    top.legend(loc="upper left", fontsize=8, ncol=2)
    right = top.twinx()
    right.plot(days, infectious, color="black", label="infectious (end of day, right axis)")
    right.set_ylabel("people infectious")
    right.legend(loc="upper right", fontsize=8)
    top.grid(alpha=0.3)
    for values, label in cascade:
        bottom.plot(days, values, marker=".", label=label)
    bottom.set_xlabel("simulated day")
    bottom.set_ylabel("people per day")
    bottom.legend(loc="upper left", fontsize=8)
    bottom.grid(alpha=0.3)
    fig.tight_layout()
    out = run / "epidemic.png"
    fig.savefig(out, dpi=120)
    print(out)


if __name__ == "__main__":
    main(sys.argv)
