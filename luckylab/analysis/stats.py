"""General statistics for simulated games: a mean or a rate, with its 95% interval, and a paired
difference of two players (or bots, or policies) on the same seeded games.

Used by every lesson that plays many games and by :mod:`luckylab.analysis` (nothing here knows
a game).

>>> wilson_ci(7, 10)
(0.7, 0.397, 0.892)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import mean, stdev

__all__ = ["mean_ci", "paired_ci", "wilson_ci"]


def mean_ci(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and a normal-approximation 95% confidence interval ``(mean, low, high)``.

    >>> mean_ci([1, 2, 3, 4])
    (2.5, 1.235, 3.765)
    """
    m = mean(values)
    if len(values) < 2:
        return (m, m, m)
    half = z * stdev(values) / math.sqrt(len(values))
    return (round(m, 3), round(m - half, 3), round(m + half, 3))


def paired_ci(a: Sequence[float], b: Sequence[float], z: float = 1.96
              ) -> tuple[float, float, float]:
    """Mean difference ``a - b`` over paired games and its 95% interval ``(mean, low, high)``.

    Game ``i`` of ``a`` and of ``b`` must be the same seeded game (the same deal, island or
    seed), played once by each side: the differences ``a[i] - b[i]`` are then independent, and
    :func:`mean_ci` of them is the interval of the difference. An interval that excludes 0 says
    which side is better; one that contains 0 says we cannot tell.

    >>> paired_ci([1, 1, 0, 1, 0, 1], [0, 1, 0, 0, 0, 1])
    (0.333, -0.08, 0.747)
    """
    if len(a) != len(b):
        raise ValueError(f"paired games: {len(a)} results against {len(b)}")
    return mean_ci([x - y for x, y in zip(a, b, strict=True)], z)


def wilson_ci(successes: int, n: int, z: float = 1.96) -> tuple[float, float, float]:
    """A rate and its Wilson 95% interval ``(rate, low, high)`` (good near 0 and 1 too).

    >>> wilson_ci(70, 100)
    (0.7, 0.604, 0.781)
    """
    if n == 0:
        return (0.0, 0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(p, 3), round(centre - half, 3), round(centre + half, 3))
