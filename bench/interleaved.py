"""Interleaved timing shared by the benchmarks.

Every alternative is called in a shuffled order each round; each gets the
median of its rounds' mean times.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any


def medians(calls: dict[str, Any], x: Any, rounds: int, per_round: int) -> dict[str, float]:
    """Median seconds per call of each of `calls` on `x`, after a warm-up.

    `rounds` rounds, each calling every alternative `per_round` times in a
    shuffled order.
    """
    for fn in calls.values():
        for _ in range(5):
            fn(x)
    samples: dict[str, list[float]] = {label: [] for label in calls}
    order = list(calls)
    for _ in range(rounds):
        random.shuffle(order)
        for label in order:
            fn = calls[label]
            start = time.perf_counter()
            for _ in range(per_round):
                fn(x)
            samples[label].append((time.perf_counter() - start) / per_round)
    return {label: statistics.median(values) for label, values in samples.items()}
