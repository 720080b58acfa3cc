"""General statistics for simulated games: a mean or a rate, with its 95% interval, and a paired
difference of two players (or bots, or policies) on the same seeded games.

Used by every lesson that plays many games and by :mod:`luckylab.analysis` (nothing here knows
a game). :func:`wilson_ci` is for independent games; :func:`wilson_by_deal` for games that come
in groups sharing their luck (a tournament's deal, replayed with the seats rotated).

>>> wilson_ci(7, 10)
(0.7, 0.397, 0.892)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import mean, stdev

from ..errors import OptionError

__all__ = ["design_effect", "mean_ci", "paired_ci", "t_quantile", "wilson_by_deal", "wilson_ci"]


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
        raise OptionError(f"paired games: {len(a)} results against {len(b)}; game i of each must "
                          "be the same seeded game")
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


def t_quantile(df: int, z: float = 1.96) -> float:
    """Student's t for ``df`` degrees of freedom at the two-sided level whose normal value is
    ``z`` (Cornish-Fisher: within 0.002 of the exact 2.262 for df = 9 at 95 %).

    >>> round(t_quantile(9), 3), round(t_quantile(39), 3), round(t_quantile(10**6), 3)
    (2.262, 2.023, 1.96)
    """
    if isinstance(df, bool) or not isinstance(df, int) or df < 1:
        raise OptionError(f"degrees of freedom must be a whole number of at least 1, not {df!r}")
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


def design_effect(successes: Sequence[float], trials: Sequence[int]) -> float:
    """How many independent games a group's games are worth, inverted: the variance of the rate
    estimated from how the groups' rates vary (``D`` groups, ``N`` games, rate ``p``),
    ``D/(D-1) * sum((w_d - p n_d)^2) / N^2``, over the variance independent games would give,
    ``p(1-p)/N``; never below 1 (a group's games never count for more than independent ones).

    >>> round(design_effect([4, 0] * 10, [4] * 20), 2)  # each deal all or nothing: 4 games ~ 1
    4.21
    >>> design_effect([2, 2, 2, 2], [4, 4, 4, 4])   # the deals agree: no worse than independent
    1.0
    """
    _check_groups(successes, trials)
    n_total, w_total, groups = sum(trials), sum(successes), len(trials)
    if groups < 2 or n_total == 0 or w_total in (0, n_total):
        return 1.0
    p = w_total / n_total
    spread = sum((w - p * n) ** 2 for w, n in zip(successes, trials, strict=True))
    clustered = groups / (groups - 1) * spread / n_total**2
    return max(1.0, clustered / (p * (1 - p) / n_total))


def wilson_by_deal(successes: Sequence[float], trials: Sequence[int],
                   z: float = 1.96) -> tuple[float, float, float]:
    """A rate over groups of games that share their luck, and its 95 % interval
    ``(rate, low, high)``: ``successes[d]`` of ``trials[d]`` games in group (deal) ``d``.

    The games of one deal are not independent (the same cards, the same line-up, seats
    rotated), so ``N`` games are worth ``N / deff`` independent ones (:func:`design_effect`);
    the interval is Wilson's on that many games, with Student's ``t`` for ``D - 1`` degrees of
    freedom in place of ``z`` (few deals: a wider interval). A half success (a tie) is allowed.

    >>> wilson_by_deal([4, 0] * 10, [4] * 20)   # all or nothing: 80 games worth 19
    (0.5, 0.284, 0.716)
    >>> wilson_ci(40, 80)                        # as if the 80 were independent: too narrow
    (0.5, 0.393, 0.607)
    """
    _check_groups(successes, trials)
    n_total = sum(trials)
    if n_total == 0:
        return (0.0, 0.0, 1.0)
    groups = sum(1 for n in trials if n)
    p = sum(successes) / n_total
    n = n_total / design_effect(successes, trials)
    q = t_quantile(groups - 1, z) if groups > 1 else z
    centre = (p + q * q / (2 * n)) / (1 + q * q / n)
    half = q * math.sqrt(p * (1 - p) / n + q * q / (4 * n * n)) / (1 + q * q / n)
    return (round(p, 3), round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


def _check_groups(successes: Sequence[float], trials: Sequence[int]) -> None:
    if len(successes) != len(trials):
        raise OptionError(f"one count of successes per group of games: {len(successes)} counts "
                          f"for {len(trials)} groups")
    for w, n in zip(successes, trials, strict=True):
        if (isinstance(n, bool) or not isinstance(n, int) or n < 0
                or isinstance(w, bool) or not isinstance(w, (int, float)) or not 0 <= w <= n):
            raise OptionError("each group needs a whole number of games n >= 0 and successes "
                              f"from 0 to n (a tie may count half), not {w!r} of {n!r}")
