"""Statistics of two policies played on the same seeds: exact tests and 95% intervals.

- ``sign_p``: the two-sided exact sign test; on the discordant pairs of a yes/no outcome it is
  McNemar's exact test.
- ``wilson``: a proportion's 95% interval (Wilson's score interval).
- ``paired_share``: the difference of two paired proportions and its 95% interval (Wald's, from
  the discordant pairs).
- ``mean_interval`` and ``t_p``: a mean's 95% interval and the two-sided p of Student's t, the
  paired t test when the values are paired differences.
"""

from __future__ import annotations

import math
import statistics

Z95 = 1.959963984540054  # the normal's 97.5% point


def sign_p(wins: int, losses: int) -> float:
    """The two-sided exact sign test: the chance of a split this uneven or more, at 1/2."""
    n, k = wins + losses, min(wins, losses)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, j) for j in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson's 95% interval of a share ``k / n``."""
    if n == 0:
        return 0.0, 1.0
    share, z2 = k / n, Z95**2
    middle = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, middle - half), min(1.0, middle + half)


def paired_share(only_first: int, only_second: int, n: int) -> tuple[float, float, float]:
    """Second share minus first of ``n`` pairs, with its 95% interval, from the discordant pairs.

    ``only_first``: pairs with the outcome under the first policy alone; ``only_second``: alone
    under the second.
    """
    d = (only_second - only_first) / n
    var = ((only_first + only_second) / n - d * d) / n
    half = Z95 * math.sqrt(max(var, 0.0))
    return d, d - half, d + half


def t_p(t: float, df: int) -> float:
    """The two-sided p of Student's t with ``df`` degrees of freedom: I_x(df/2, 1/2)."""
    if math.isinf(t):
        return 0.0
    return incomplete_beta(df / (df + t * t), df / 2, 0.5)


def t_point(df: int, p: float = 0.05) -> float:
    """The t whose two-sided p is ``p`` (bisection on ``t_p``)."""
    low, high = 0.0, 1000.0
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if t_p(middle, df) > p else (low, middle)
    return (low + high) / 2


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean of ``values`` with its 95% interval (Student's t)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, -math.inf, math.inf
    half = t_point(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def paired_t_p(differences: list[float]) -> float:
    """The paired t test's two-sided p: is the mean of the differences 0?"""
    n = len(differences)
    if n < 2:
        return 1.0
    sd = statistics.stdev(differences)
    mean = statistics.fmean(differences)
    if sd == 0:
        return 1.0 if mean == 0 else 0.0
    return t_p(mean / (sd / math.sqrt(n)), n - 1)


def incomplete_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction."""
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return front * fraction(x, a, b) / a
    return 1 - front * fraction(1 - x, b, a) / b


def fraction(x: float, a: float, b: float) -> float:
    """The continued fraction of the incomplete beta function (Lentz's method)."""
    tiny, c, d = 1e-300, 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 10_000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return result
