"""Ng, Spachos & Plataniotis's phone-to-phone RSS data (github.com/pc-ng/rss_smartphone) as one
small CSV: a row per body placement pair, sending phone and distance, with the number of its
adverts the other phone heard and their mean and standard deviation of raw RSSI. The dataset's
`device` column names the phone whose adverts were logged (its authors kept the packets of the
two phones by name), so it is the sender here.

Reads the six consolidated files (HandHand/RSS_humanHH.csv, ...) from the folder given (default:
the current one, a checkout of that repository) and writes rssi-by-distance.csv beside this
script. The raw `rss` column is used, not the moving averages.
"""
import csv
import math
import pathlib
import sys

# The dataset's folders and ENSim's placement names (its backpack is ENSim's bag).
SETS = [("HandHand", "HH", "hand-hand"), ("HandPocket", "HP", "hand-pocket"), ("HandBackpack", "HB", "hand-bag"),
        ("PocketBackpack", "PB", "pocket-bag"), ("PocketPocket", "PP", "pocket-pocket"), ("BackpackBackpack", "BB", "bag-bag")]


def summaries(path):
    groups = {}
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            key = (row["device"], float(row["dist"]) / 100)
            groups.setdefault(key, []).append(float(row["rss"]))
    for (device, metres), values in sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        mean = sum(values) / len(values)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0.0
        yield device, metres, len(values), mean, sd


def main():
    source = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out = pathlib.Path(__file__).with_name("rssi-by-distance.csv")
    with out.open("w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["placements", "sender", "metres", "adverts", "mean_rssi_dbm", "sd_rssi_dbm"])
        for folder, code, placements in SETS:
            for device, metres, n, mean, sd in summaries(source / folder / f"RSS_human{code}.csv"):
                w.writerow([placements, device, f"{metres:g}", n, f"{mean:.2f}", f"{sd:.2f}"])
    print(out)


if __name__ == "__main__":
    main()
