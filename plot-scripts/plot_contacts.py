#!/usr/bin/env python3
"""Contacts per day by layer (stacked), close contacts and app-pair contacts, from a run folder.

Usage: python3 plot-scripts/plot_contacts.py Results/default/<run-id>   (writes contacts.png there)
"""
import csv
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LAYERS = ["household", "workplace", "school", "community", "transport"]


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: plot_contacts.py RUN_FOLDER")
    run = Path(argv[1])
    path = run / "daily.csv"
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        days = [int(r["day"]) for r in rows]
        stacks = [[int(r["contacts_" + layer]) for r in rows] for layer in LAYERS]
        close = [int(r["close_contacts"]) for r in rows]
        app = [int(r["app_pair_contacts"]) for r in rows]
    except (OSError, KeyError, ValueError) as error:
        sys.exit(f"{path}: not a daily.csv written by 'ensim run' ({error})")
    fig, ax = plt.subplots(figsize=(9, 4.5))
    ax.stackplot(days, stacks, labels=LAYERS, alpha=0.8)
    ax.plot(days, close, color="black", marker=".", label="close contacts (pairs, ground truth)")
    ax.plot(days, app, color="black", linestyle="--", label="contacts between app phones")
    ax.set_xlabel("simulated day")
    ax.set_ylabel("contacts per day")
    ax.legend(loc="upper left", fontsize=8, ncol=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    out = run / "contacts.png"
    fig.savefig(out, dpi=100)
    print(out)


if __name__ == "__main__":
    main(sys.argv)
