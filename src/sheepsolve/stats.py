"""The statistics of sampled worlds: a mean and its standard error, rounding for the JSON output, and the rule
that says when two choices tie within noise.

Every analysis from a player's view (``suggest``, ``annotate --view player``, ``bury``, ``pick``, ``choose``)
reads its worlds with these.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["mean_se", "rounded", "TIE_Z", "within_noise"]


def mean_se(xs: Sequence[float]) -> tuple[float, float | None]:
    """The mean of ``xs`` and its standard error, the sample standard deviation (divisor ``n - 1``) over
    ``sqrt(n)``; None for a single value.

    >>> mean_se([1.0, 2.0, 3.0, 6.0])
    (3.0, 1.0801234497346435)
    """
    n = len(xs)
    m = math.fsum(xs) / n
    if n < 2:
        return m, None
    var = math.fsum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def rounded(x: float | None, digits: int = 4) -> float | None:
    """A statistic as the JSON output gives it: rounded to ``digits`` decimals; None stays None.

    >>> rounded(2 / 3), rounded(None)
    (0.6667, None)
    """
    return None if x is None else round(float(x), digits)


TIE_Z = 2.0
"""Choices whose mean difference to the best, world by world, is within this many standard errors of that
difference tie with it (cards in ``suggest`` and ``annotate --view player``, buries, contracts)."""


def within_noise(diff: float, stderr: float | None, exact: bool = False) -> bool:
    """Whether a choice that is ``diff`` worse than the best on average, world by world (``stderr``: that
    difference's standard error), ties with it: no worse at all, or, unless every world was solved (``exact``), at
    most :data:`TIE_Z` standard errors worse. One world (no standard error) ties only when no worse.

    >>> within_noise(0.5, 0.3), within_noise(0.7, 0.3), within_noise(0.5, 0.3, exact=True), within_noise(0.0, None)
    (True, False, False, True)
    """
    return diff <= 1e-9 or (not exact and stderr is not None and diff <= TIE_Z * stderr)
