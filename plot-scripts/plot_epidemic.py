#!/usr/bin/env python3
"""The epidemic of a run with the `epidemic` block, in four panels: new infections by layer (and
the counterfactual's, when the run has one), the notification → test → positive cascade, the
load on test sites and tracers (load_daily.csv), and the reproduction number an analyst would
estimate from the positives beside the true one (reproduction.csv).

Usage: python3 plot-scripts/plot_epidemic.py RUN_FOLDER   (writes epidemic.png there)
"""
import json
import math
import sys
from pathlib import Path

from runfolder import plt, read

LAYERS = ["household", "workplace", "school", "community", "transport"]
CASCADE = [("epi_notified", "notified"), ("epi_tests_notification", "tests after a notification"),
           ("epi_tests_symptoms", "tests for symptoms"), ("epi_positives", "positive tests"),
           ("epi_quarantine_starts", "quarantines started")]
LOAD = [("tests", "tests (all reasons)"), ("tests_manual_tracing", "tests after a tracer's call"),
        ("tracing_calls", "tracer calls"), ("tracing_call_backlog", "calls waiting"),
        ("people_quarantined", "people in quarantine"), ("people_isolated", "people in isolation")]


def number(text):
    return math.nan if text == "n/a" else float(text)


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: plot_epidemic.py RUN_FOLDER")
    run = Path(argv[1])
    try:
        rows = read(run / "daily.csv")
        load = read(run / "load_daily.csv")
        reproduction = read(run / "reproduction.csv")
        days = [int(r["day"]) for r in rows]
        stacks = [[int(r["epi_infections_" + layer]) for r in rows] for layer in LAYERS]
        imports = [int(r["epi_imports"]) for r in rows]
        without = [int(r["epi_counterfactual_new_infections"]) for r in rows] if "epi_counterfactual_new_infections" in rows[0] else None
        cascade = [([int(r[column]) for r in rows], label) for column, label in CASCADE]
        loads = [([int(r[column]) for r in load], label) for column, label in LOAD]
        estimate = [[number(r[c]) for r in reproduction] for c in ("r_estimate", "r_ci_lower", "r_ci_upper")]
        truth = [number(r["case_r_window"]) for r in reproduction]
    except (OSError, KeyError, ValueError, IndexError) as error:
        sys.exit(f"{run}: not the folder of a run with the epidemic block ({error})")
    fig, axes = plt.subplots(4, 1, figsize=(9, 13), sharex=True)
    top, cascade_axis, load_axis, r_axis = axes
    top.stackplot(days, stacks + [imports], labels=LAYERS + ["seeded and imported"], alpha=0.8)
    if without:
        top.plot(days, without, color="black", linestyle="--", label="without the app (counterfactual)")
    top.set_ylabel("new infections per day")
    top.legend(loc="upper left", fontsize=8, ncol=2)
    for values, label in cascade:
        cascade_axis.plot(days, values, marker=".", label=label)
    cascade_axis.set_ylabel("people per day")
    for values, label in loads:
        load_axis.plot(days, values, label=label)
    load_axis.set_ylabel("load per day")
    r_axis.plot(days, estimate[0], color="tab:blue", label="estimated from positives (Cori et al.)")
    r_axis.fill_between(days, estimate[1], estimate[2], color="tab:blue", alpha=0.2, label="95% interval")
    lag = _reporting_lag(run)
    r_axis.plot([d + lag for d in days], truth, color="black", label=f"true case R, {lag} days later (reporting lag)")
    r_axis.axhline(1, color="grey", linewidth=0.8)
    r_axis.set_ylabel("reproduction number")
    r_axis.set_xlabel("simulated day")
    for axis in axes:
        axis.grid(alpha=0.3)
    for axis in axes[1:]:
        axis.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    out = run / "epidemic.png"
    fig.savefig(out, dpi=120)
    print(out)


def _reporting_lag(run):
    try:
        return int(json.loads((run / "summary.json").read_text())["epidemic"]["reproduction"]["reporting_lag_days"])
    except (OSError, KeyError, ValueError):
        return 0


if __name__ == "__main__":
    main(sys.argv)
