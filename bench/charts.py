"""Charts shared by the benchmarks."""

from __future__ import annotations

from pathlib import Path


def grouped_bars(report: dict[str, dict[str, dict[str, float]]], title: str, path: Path) -> None:
    """Draws `path`: µs per call of each alternative, per model and batch.

    `report` maps a model to its batch sizes, each to every alternative's
    median seconds per call (the first model's alternatives; one a model
    lacks is drawn as no bar).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = [f"{name}\nbatch {batch}" for name, by in report.items() for batch in by]
    labels = list(next(iter(next(iter(report.values())).values())))
    fig, ax = plt.subplots(figsize=(10, 5))
    width = 0.8 / len(labels)
    for index, label in enumerate(labels):
        missing = float("nan")
        values = [by[batch].get(label, missing) * 1e6 for by in report.values() for batch in by]
        positions = [
            group + (index - (len(labels) - 1) / 2) * width for group in range(len(groups))
        ]
        ax.bar(positions, values, width, label=label)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_yscale("log")
    ax.set_ylabel("µs per call (median)")
    ax.set_title(title)
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
