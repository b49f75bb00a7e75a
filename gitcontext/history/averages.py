"""`statistics.mean` and `statistics.median`, exactly, without importing `statistics` (it brings
fractions, decimal and random: ~4 ms of a warm `history`, which needs two averages).

`mean` is the exact mean rounded once, as `statistics` computes it: a float's integer ratio has a
power-of-two denominator, so the sum is exact in integers and one true division rounds it; an int
when every value is an int and the mean is whole (`statistics.mean([1, 2, 3])` is `2`, and JSON
writes `2`, not `2.0`). `tests/history/test_averages.py` compares both with `statistics`.
"""

from __future__ import annotations

from collections.abc import Iterable


def mean(values: Iterable[float]) -> float:
    data = list(values)
    if not data:
        raise ValueError("mean of no values")
    if all(type(v) is int for v in data):
        total = sum(data)
        return total // len(data) if total % len(data) == 0 else total / len(data)
    ratios = [v.as_integer_ratio() for v in data]
    denominator = max(d for _, d in ratios)
    return sum(n * (denominator // d) for n, d in ratios) / (denominator * len(data))


def median(values: Iterable[float]) -> float:
    data = sorted(values)
    if not data:
        raise ValueError("median of no values")
    middle = len(data) // 2
    return data[middle] if len(data) % 2 else (data[middle - 1] + data[middle]) / 2
