#!/usr/bin/env python3
"""Plot a run folder's analytics results into analytics.png beside them:
upload timing over the month (requests per hour by day of month, all months overlaid),
working-apps estimate vs truth per month and region (with 95% intervals), and the
p_OWOE sweep (traffic vs estimate error) when sweep.csv exists.

Usage: python3 plot-scripts/plot_analytics.py Results/immuni-analytics/<run-id>
"""
import sys
from collections import defaultdict
from pathlib import Path

from runfolder import plt, read


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: plot_analytics.py RUN_FOLDER")
    run = Path(argv[1])
    monthly_path, hourly_path = run / "monthly.csv", run / "analytics_hourly.csv"
    for p in (monthly_path, hourly_path):
        if not p.is_file():
            sys.exit(f"{p}: no such file; pass a folder of a run with analytics.enabled: true")
    monthly, hourly = read(monthly_path), read(hourly_path)
    sweep_path = run / "sweep.csv"
    sweep = read(sweep_path) if sweep_path.is_file() else []

    panels = 3 if sweep else 2
    fig, axes = plt.subplots(panels, 1, figsize=(10, 4 * panels))

    # Upload timing: requests per hour against time within the month (day of month + hour / 24).
    ax = axes[0]
    by_month = defaultdict(lambda: ([], [], []))
    for r in hourly[24:]:  # the first day carries the installs
        month = r["time_utc"][:7]
        x = int(r["day_of_month"]) - 1 + int(r["time_utc"][11:13]) / 24
        by_month[month][0].append(x)
        by_month[month][1].append(int(r["uploads"]))
        by_month[month][2].append(int(r["token_requests"]))
    for month, (x, uploads, tokens) in sorted(by_month.items()):
        ax.plot(x, uploads, lw=0.7, label=f"{month} uploads")
        ax.plot(x, tokens, lw=0.7, ls="--", label=f"{month} token requests")
    ax.set_xlabel("day of month (UTC)")
    ax.set_ylabel("Analytics Service requests per hour")
    ax.set_title("Upload timing over the month (no spike on the 1st)")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)

    # Estimate vs truth: working apps per region and month, 95% interval of the sampling.
    ax = axes[1]
    rows = [r for r in monthly if r["region"] != "all"]
    truth = [float(r["working_apps_truth"]) for r in rows]
    est = [float(r["working_apps_estimate"]) for r in rows]
    err_lo = [max(0.0, e - float(r["working_apps_ci_lower"])) for e, r in zip(est, rows)]
    err_hi = [max(0.0, float(r["working_apps_ci_upper"]) - e) for e, r in zip(est, rows)]
    ax.errorbar(truth, est, yerr=[err_lo, err_hi], fmt="o", ms=3, alpha=0.7, label="region × month")
    top = max(truth + est) * 1.05 if truth else 1
    ax.plot([0, top], [0, top], color="grey", lw=0.8, label="estimate = truth")
    ax.set_xlabel("working apps, truth (mean phones per day running detections)")
    ax.set_ylabel("estimate (uploads without exposure / p_OWOE)")
    ax.set_title("Working apps: estimate vs truth")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)

    if sweep:
        ax = axes[2]
        p = [float(r["p_owoe"]) for r in sweep]
        ax.plot(p, [float(r["requests_per_phone_month"]) for r in sweep], marker="o", color="C0")
        ax.set_xlabel("p_OWOE")
        ax.set_ylabel("requests per phone and month", color="C0")
        ax2 = ax.twinx()
        ax2.plot(p, [float(r["regional_mean_abs_error"]) for r in sweep], marker="s", color="C1", label="regional")
        ax2.plot(p, [float(r["national_mean_abs_error"]) for r in sweep], marker="^", color="C2", label="national")
        if "provincial_mean_abs_error" in sweep[0]:
            ax2.plot(p, [float(r["provincial_mean_abs_error"]) for r in sweep], marker="v", color="C3", label="provincial")
        ax2.set_ylabel("mean |relative error| of working apps")
        ax2.legend(fontsize=8)
        ax.set_title("p_OWOE trade-off: traffic vs estimate error")
        ax.grid(alpha=0.3)

    fig.tight_layout()
    out = run / "analytics.png"
    fig.savefig(out, dpi=100)
    print(out)


if __name__ == "__main__":
    main(sys.argv)
