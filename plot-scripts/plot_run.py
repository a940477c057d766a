#!/usr/bin/env python3
"""Plot a run folder's daily tables as a few figures, one per topic, beside them:
run_contacts.png, run_app_bluetooth.png, run_health_uploads.png, run_backend.png,
run_distribution.png, run_detection.png (a figure is skipped when its columns are absent).

Usage: python3 plot-scripts/plot_run.py Results/default/<run-id>
"""
import sys
from pathlib import Path

from runfolder import plt, read

MB = 1e6
# figure file, title, panels: (panel title, unit, [(column, label)], divisor)
DAILY_FIGURES = [
    ("run_contacts.png", "Contacts", [
        ("Contacts by layer", "contacts/day", [("contacts_household", "household"), ("contacts_workplace", "workplace"),
                                               ("contacts_school", "school"), ("contacts_community", "community"),
                                               ("contacts_transport", "transport")], 1),
        ("Pairs who met", "pairs/day", [("contact_pairs", "all pairs"), ("close_contacts", "close contacts (ground truth)"),
                                        ("app_pair_contacts", "both with the app")], 1),
    ]),
    ("run_app_bluetooth.png", "App phones and Bluetooth", [
        ("App phones", "phones", [("app_phones", "app phones"), ("phones_unavailable", "unavailable"),
                                  ("bluetooth_off", "Bluetooth off"), ("uninstalled", "uninstalled (total)")], 1),
        ("Beacons", "per day", [("rpis_heard", "RPIs heard"), ("scan_instances", "scan instances")], 1),
        ("Encounter store", "MB", [("encounter_bytes", "encounter bytes")], MB),
    ]),
    ("run_health_uploads.png", "Health system and uploads", [
        ("Index cases and uploads", "per day", [("index_cases", "index cases"), ("uploads_real", "real uploads"),
                                                ("uploads_rejected", "rejected uploads")], 1),
        ("Other uploads", "per day", [("uploads_dummy", "dummy (plausible deniability)"), ("uploads_national", "national")], 1),
        ("Keys", "keys/day", [("keys_received", "received"), ("keys_rejected", "rejected"), ("keys_published", "published")], 1),
    ]),
    ("run_backend.png", "Backend and packages", [
        ("Backend requests", "requests/day", [("requests", "requests")], 1),
        ("Packages", "packages/day", [("packages", "published")], 1),
        ("Bytes", "MB/day", [("package_bytes", "packages"), ("upload_bytes", "uploads")], MB),
    ]),
    ("run_distribution.png", "Distribution", [
        ("Packages downloaded by contact phones", "downloads/day", [("package_downloads", "downloads")], 1),
    ]),
    ("run_detection.png", "Exposure detection", [
        ("Phones notified so far", "phones", [("phones_notified", "notified (cumulative)")], 1),
    ]),
]


def panel(ax, x, rows, title, unit, series, divisor):
    drawn = 0
    for column, label in series:
        if column in rows[0]:
            ax.plot(x, [float(r[column]) / divisor for r in rows], marker=".", label=label)
            drawn += 1
    ax.set_title(title, fontsize=10)
    ax.set_ylabel(unit, fontsize=9)
    ax.grid(alpha=0.3)
    if drawn > 1:
        ax.legend(fontsize=8)
    return drawn


def figure(run, name, title, panels, x, rows, xlabel, extra=None):
    """One topic: panels stacked, sharing the x axis; returns the path or None when empty."""
    present = [p for p in panels if any(c in rows[0] for c, _ in p[2])]
    count = len(present) + (1 if extra else 0)
    if count == 0:
        return None
    fig, axes = plt.subplots(count, 1, figsize=(9, 2.6 * count + 0.6), sharex=True, squeeze=False)
    axes = [a[0] for a in axes]
    for ax, (ptitle, unit, series, divisor) in zip(axes, present):
        panel(ax, x, rows, ptitle, unit, series, divisor)
    if extra:
        extra(axes[-1])
    axes[-1].set_xlabel(xlabel)
    fig.suptitle(f"{title} — {run.parent.name}/{run.name}", fontsize=11)
    fig.tight_layout()
    path = run / name
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: plot_run.py RUN_FOLDER")
    run = Path(argv[1])
    daily_path = run / "daily.csv"
    if not daily_path.is_file():
        sys.exit(f"{daily_path}: no such file; pass a folder written by 'ensim run'")
    daily = read(daily_path)
    days = [int(r["day"]) for r in daily]
    extras = {}
    hourly_cdn = run / "distribution_hourly.csv"
    if hourly_cdn.is_file():
        cdn = read(hourly_cdn)

        def cdn_panel(ax):
            hours = [int(r["hour"]) / 24 for r in cdn]
            ax.plot(hours, [float(r["peak_requests_per_second"]) for r in cdn], lw=0.8, label="peak requests/s in the hour")
            ax.set_title("CDN load by hour", fontsize=10)
            ax.set_ylabel("requests/s", fontsize=9)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
        extras["run_distribution.png"] = cdn_panel
    notifications = run / "notifications_daily.csv"
    if notifications.is_file():
        per_day = read(notifications)

        def notification_panel(ax):
            x = [int(r["day"]) for r in per_day]
            ax.bar(x, [float(r["true_notifications"]) for r in per_day], label="true")
            ax.bar(x, [float(r["false_notifications"]) for r in per_day],
                   bottom=[float(r["true_notifications"]) for r in per_day], label="false")
            ax.set_title("New notifications", fontsize=10)
            ax.set_ylabel("phones/day", fontsize=9)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
        extras["run_detection.png"] = notification_panel
    written = []
    for name, title, panels in DAILY_FIGURES:
        path = figure(run, name, title, panels, days, daily, "simulated day", extras.get(name))
        if path:
            written.append(path)
    for path in written:
        print(path)


if __name__ == "__main__":
    main(sys.argv)
