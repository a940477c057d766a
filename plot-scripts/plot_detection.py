#!/usr/bin/env python3
"""Detection plots of a run folder: notifications per day (true/false), precision-recall over the
threshold grid, latency distribution, attenuation of matched exposures by ground truth.
Usage: plot_detection.py RUN_FOLDER  (writes detection_*.png into the folder)."""
import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt


def rows(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = sys.argv[1]
    daily = rows(folder, "notifications_daily.csv")
    if daily:
        days = [int(r["day"]) for r in daily]
        true = [int(r["true_notifications"]) for r in daily]
        false = [int(r["false_notifications"]) for r in daily]
        fig, ax = plt.subplots(figsize=(8, 4))
        ax.bar(days, true, label="true (close contact of an index case)", color="tab:green")
        ax.bar(days, false, bottom=true, label="false", color="tab:red")
        ax.set_xlabel("day"); ax.set_ylabel("phones notified"); ax.legend()
        fig.tight_layout(); fig.savefig(os.path.join(folder, "detection_daily.png"), dpi=120)
    grid = rows(folder, "thresholds.csv")
    if grid:
        fig, ax = plt.subplots(figsize=(6, 5))
        for m in sorted({int(r["minutes"]) for r in grid}):
            sel = [r for r in grid if int(r["minutes"]) == m]
            ax.plot([float(r["recall"]) for r in sel], [float(r["precision"]) for r in sel], marker="o", label=f"≥ {m} min")
            for r in sel:
                ax.annotate(r["attenuation_db"], (float(r["recall"]), float(r["precision"])), fontsize=6)
        ax.set_xlabel("recall"); ax.set_ylabel("precision"); ax.set_title("attenuation (dB) × minutes grid"); ax.legend(fontsize=7)
        fig.tight_layout(); fig.savefig(os.path.join(folder, "detection_precision_recall.png"), dpi=120)
    latency = [float(r["latency_hours"]) for r in rows(folder, "latency.csv")]
    if latency:
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.hist(latency, bins=40)
        ax.set_xlabel("hours from index-case test to notification"); ax.set_ylabel("phones")
        fig.tight_layout(); fig.savefig(os.path.join(folder, "detection_latency.png"), dpi=120)
    exposures = rows(folder, "exposures.csv")
    if exposures:
        fig, ax = plt.subplots(figsize=(6, 4))
        close = [float(r["mean_attenuation_db"]) for r in exposures if r["close_contact"] == "true"]
        other = [float(r["mean_attenuation_db"]) for r in exposures if r["close_contact"] != "true"]
        ax.hist([close, other], bins=30, label=["close contact (≤ 2 m, ≥ 15 min)", "not a close contact"], stacked=False)
        ax.set_xlabel("mean typical attenuation of the exposure day (dB)"); ax.set_ylabel("phone-days"); ax.legend(fontsize=7)
        fig.tight_layout(); fig.savefig(os.path.join(folder, "detection_attenuation.png"), dpi=120)


if __name__ == "__main__":
    main()
