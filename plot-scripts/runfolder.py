"""What the plot scripts share: headless matplotlib and reading a run folder's CSV files."""
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402,F401  (re-exported)


def read(path):
    """Rows of a CSV file as dicts keyed by its header."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))
