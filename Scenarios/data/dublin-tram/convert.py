"""Dublin tram GAEN dataset (Leith & Farrell 2020) as one CSV: a row per handset pair and distance.

Reads the three text files of https://github.com/doug-leith/dublintram_gaen_dataset from the
folder given (default: the current one) and writes attenuation-minutes.csv beside this script.
"""
import csv
import pathlib
import sys

BINS = [(48 + 2 * i, 50 + 2 * i) for i in range(16)] + [(80, 85), (85, 90), (90, 100)]


def rows(path):
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            yield [float(x) for x in line.split()]


def main():
    source = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    minutes = list(rows(source / "dublintram_dataset_attenuations.txt"))
    metres = [r[0] for r in rows(source / "dublintram_dataset_distances.txt")]
    pairs = list(rows(source / "dublintram_dataset_pairs.txt"))
    assert len(minutes) == len(metres) == len(pairs) and all(len(m) == len(BINS) for m in minutes)
    out = pathlib.Path(__file__).with_name("attenuation-minutes.csv")
    with out.open("w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["handset_a", "handset_b", "metres"] + [f"db_{lo}_{hi}" for lo, hi in BINS])
        for (a, b), d, m in zip(pairs, metres, minutes):
            w.writerow([int(a), int(b), f"{d:.4f}"] + [f"{x:g}" for x in m])
    print(out)


if __name__ == "__main__":
    main()
