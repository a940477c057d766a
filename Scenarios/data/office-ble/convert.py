"""Lanfer et al.'s multi-channel data (github.com/elanfer/multi-channel-paper-data, CC BY-SA 4.0),
office room, "measurement section" (one device advertising at a time at a fixed distance from
a Raspberry Pi that received), as one small CSV in the form of ../rss-smartphone/: a row per
sender and distance with the number of BLE adverts heard and their mean and standard deviation
of raw RSSI. The devices stood at fixed distances (no one is described holding them): placements "none".

Reads data/office/measurement_section/{iPhone,OnePlus,Pi}.csv from the folder given (default:
the current one, a checkout of that repository) and writes rssi-by-distance.csv beside this script.
"""
import csv
import math
import pathlib
import sys

SENDERS = [("iPhone", "iPhone 6S"), ("OnePlus", "OnePlus Nord N10 5G"), ("Pi", "Raspberry Pi 4b")]


def summaries(path):
    groups = {}
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            if row["rssiBLE"].strip() in ("", "nan"):
                continue
            groups.setdefault(float(row["distance"]) / 100, []).append(float(row["rssiBLE"]))
    for metres, values in sorted(groups.items()):
        mean = sum(values) / len(values)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0.0
        yield metres, len(values), mean, sd


def main():
    source = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".") / "data" / "office" / "measurement_section"
    out = pathlib.Path(__file__).with_name("rssi-by-distance.csv")
    with out.open("w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["placements", "sender", "metres", "adverts", "mean_rssi_dbm", "sd_rssi_dbm"])
        for file, sender in SENDERS:
            for metres, n, mean, sd in summaries(source / f"{file}.csv"):
                w.writerow(["none", sender, f"{metres:g}", n, f"{mean:.2f}", f"{sd:.2f}"])
    print(out)


if __name__ == "__main__":
    main()
