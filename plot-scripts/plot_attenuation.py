#!/usr/bin/env python3
"""Plot simulated attenuation against distance from `ensim radio calibrate --json` output.

Usage:
  .build/release/ensim radio calibrate --layer household --json > household.json
  .build/release/ensim radio calibrate --layer transport --json > transport.json
  python3 plot-scripts/plot_attenuation.py household.json transport.json -o attenuation.png
"""
import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", help="JSON files from ensim radio calibrate --json")
    parser.add_argument("-o", "--output", default="attenuation.png")
    args = parser.parse_args()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for path in args.files:
        try:
            with open(path) as f:
                data = json.load(f)
            rows = data["rows"]
        except (OSError, ValueError, KeyError) as error:
            sys.exit(f"{path}: not an 'ensim radio calibrate --json' file ({error})")
        d = [r["metres"] for r in rows]
        line, = ax.plot(d, [r["p50_db"] for r in rows], marker="o", label=f"{data['layer']} median")
        ax.fill_between(d, [r["p10_db"] for r in rows], [r["p90_db"] for r in rows], alpha=0.2, color=line.get_color(),
                        label=f"{data['layer']} p10–p90")
    ax.set_xscale("log")
    ax.set_xlabel("distance (m)")
    ax.set_ylabel("typical attenuation of a scan window (dB)")
    ax.grid(alpha=0.3, which="both")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.output, dpi=100)
    print(args.output)


if __name__ == "__main__":
    main()
