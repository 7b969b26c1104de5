"""A probability estimated from sampled deals: the share that fit, and its 95% interval.

A light module (no solver imports): the screens tell an estimate from an exact fraction by its
type, and the sampler computes the interval; ``pct`` words a chance, exact or estimated.
"""

from __future__ import annotations

import math
from fractions import Fraction


def wilson(kept: int, samples: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if samples == 0:
        return 0.0, 1.0
    p = kept / samples
    centre = (p + z * z / (2 * samples)) / (1 + z * z / samples)
    spread = z * math.sqrt(p * (1 - p) / samples + z * z / (4 * samples * samples))
    spread /= 1 + z * z / samples
    return max(0.0, centre - spread), min(1.0, centre + spread)


class Estimated(Fraction):
    """A probability estimated from sampled deals, with its 95% interval; e.g. 3/8 in (0.14, 0.69).

    It compares and computes as the fraction it is; only its rendering (``render.common.pct``)
    tells that it is not exact: never as 0% or 100%.
    """

    __slots__ = ("low", "high")
    low: float
    high: float

    @classmethod
    def of(cls, kept: int, draws: int) -> Estimated:
        """The share of ``draws`` sampled deals that fit, ``kept`` of them, with its interval."""
        found = cls(kept, draws)
        found.low, found.high = wilson(kept, draws)
        return found


def certain(p: Fraction | None) -> bool:
    """Whether ``p`` is exactly 1: an estimate never is, however many samples agree."""
    return p == 1 and not isinstance(p, Estimated)


def impossible(p: Fraction | None) -> bool:
    """Whether ``p`` is exactly 0: an estimate never is (no sampled deal had it, that is all)."""
    return p == 0 and not isinstance(p, Estimated)


def pct(p: Fraction | None) -> str:
    """A probability as a short percentage: 45.2%, <0.1%, >99.9%, 100%; estimated: ~45%, >96%."""
    if p is None:
        return "?"
    if isinstance(p, Estimated):
        return estimated_pct(p)
    if p == 0 or p == 1:
        return f"{int(p) * 100}%"
    value = float(p) * 100
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    return f"{value:.1f}%"


def estimated_pct(p: Estimated) -> str:
    """An estimate in whole percents, never as certain: ~45%; at 0 or 1 its 95% bound, <4%, >96%."""
    if p == 1:
        return f">{math.floor(p.low * 100)}%"
    if p == 0:
        return f"<{math.ceil(p.high * 100)}%"
    return f"~{min(max(round(float(p) * 100), 1), 99)}%"
