#!/usr/bin/env python3
"""A long run by calendar month: index cases, uploads, notifications, CDN requests and bytes.

Writes monthly_figures.csv and monthly.png into the run folder (for Scenarios/year.yaml).
Usage: python3 plot-scripts/monthly.py Results/year/<run-id>
"""
import csv
import json
import sys
from collections import OrderedDict
from pathlib import Path

from runfolder import plt, read

DAILY = ["index_cases", "uploads_real", "uploads_national", "keys_published"]
# daily.csv's phones_notified is cumulative; notifications_daily.csv has each day's new ones.
NOTIFIED = ("notifications_daily.csv", "notified", "phones_notified")
HOURLY = ["requests", "bytes"]


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: monthly.py RUN_FOLDER")
    run = Path(argv[1])
    for name in ("daily.csv", "distribution_hourly.csv", NOTIFIED[0]):
        if not (run / name).is_file():
            sys.exit(f"{run / name}: no such file; pass a folder written by 'ensim run'")
    months = OrderedDict()
    for row in read(run / "daily.csv"):
        month = months.setdefault(row["date"][:7], {k: 0.0 for k in DAILY + HOURLY + ["days", NOTIFIED[2]]})
        month["days"] += 1
        for k in DAILY:
            month[k] += float(row[k])
    for row in read(run / NOTIFIED[0]):
        months[row["date"][:7]][NOTIFIED[2]] += float(row[NOTIFIED[1]])
    for row in read(run / "distribution_hourly.csv"):
        month = months.get(row["time_utc"][:7])
        if month is not None:
            for k in HOURLY:
                month[k] += float(row[k])
    columns = ["month", "days"] + DAILY + [NOTIFIED[2], "cdn_requests", "cdn_gigabytes"]
    with open(run / "monthly_figures.csv", "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(columns)
        for name, m in months.items():
            out.writerow([name, int(m["days"])] + [int(m[k]) for k in DAILY + [NOTIFIED[2]]]
                         + [int(m["requests"]), round(m["bytes"] / 1e9, 3)])
    labels = list(months)
    fig, axes = plt.subplots(3, 1, figsize=(9, 8), sharex=True)
    axes[0].bar(labels, [m["index_cases"] for m in months.values()], label="index cases")
    axes[0].bar(labels, [m["uploads_real"] for m in months.values()], width=0.5, label="uploads (town)")
    axes[0].set_ylabel("per month")
    axes[0].legend()
    axes[1].bar(labels, [m["phones_notified"] for m in months.values()], color="tab:red")
    axes[1].set_ylabel("phones notified")
    axes[2].bar(labels, [m["bytes"] / 1e9 for m in months.values()], color="tab:green")
    axes[2].set_ylabel("CDN GB (town's clients)")
    axes[2].tick_params(axis="x", rotation=45)
    for ax in axes:
        ax.grid(alpha=0.3, axis="y")
    name = json.loads((run / "manifest.json").read_text())["resolved_scenario"]["name"]
    fig.suptitle(f"{name}: by month")
    fig.tight_layout()
    fig.savefig(run / "monthly.png", dpi=100)
    print(run / "monthly_figures.csv")


if __name__ == "__main__":
    main(sys.argv)
