"""Across-seed summaries: the mean and a two-sided Student-t confidence interval.

Interval method: for per-seed values x_1..x_n (NaNs dropped), the 95% interval is
``mean ± t_{0.975, n−1} · s / √n`` with ``s`` the sample standard deviation (ddof=1).
Seeds are treated as independent replicates. With n < 2 the interval is undefined (NaN).

The t quantile is computed exactly (to ~1e-12) without scipy: the two-sided probability
``A(t|ν) = P(|T| ≤ t)`` has a closed-form finite series for integer ν (Abramowitz & Stegun,
*Handbook of Mathematical Functions*, 26.7.3–26.7.4), which is inverted by bisection.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike


def _two_sided_prob(theta: float, df: int) -> float:
    """A(t|ν) with θ = arctan(t/√ν) (A&S 26.7.3 for odd ν, 26.7.4 for even ν)."""
    s, c = math.sin(theta), math.cos(theta)
    c2 = c * c
    if df % 2 == 1:
        total, term = 0.0, c
        # cosθ + 2/3 cos³θ + 2·4/(3·5) cos⁵θ + ... up to cos^{ν−2}θ
        for k in range(1, (df - 1) // 2):
            total += term
            term *= c2 * (2 * k) / (2 * k + 1)
        if df > 1:
            total += term
        return 2.0 / math.pi * (theta + s * total) if df > 1 else 2.0 * theta / math.pi
    total, term = 0.0, 1.0
    # 1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + ... up to cos^{ν−2}θ
    for k in range(1, df // 2 + 1):
        total += term
        term *= c2 * (2 * k - 1) / (2 * k)
    return s * total


def t_quantile(p: float, df: int) -> float:
    """Quantile ``t_p`` of Student's t with integer ``df`` ≥ 1, for ``0.5 ≤ p < 1``."""
    if df < 1:
        raise ValueError(f"df: must be >= 1, got {df}")
    if not 0.5 <= p < 1.0:
        raise ValueError(f"p: must be in [0.5, 1), got {p}")
    target = 2.0 * p - 1.0  # P(|T| <= t)
    lo, hi = 0.0, math.pi / 2
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _two_sided_prob(mid, df) < target:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    return math.sqrt(df) * math.tan(0.5 * (lo + hi))


@dataclass(frozen=True)
class Interval:
    """Mean of the per-seed values and its two-sided t-interval."""

    mean: float
    low: float
    high: float
    n: int

    def as_dict(self) -> dict[str, float | int]:
        return {"mean": self.mean, "ci95_low": self.low, "ci95_high": self.high, "n": self.n}


def t_interval(values: ArrayLike, level: float = 0.95) -> Interval:
    """Mean and two-sided ``level`` t-interval of 1-d ``values`` (NaNs dropped)."""
    x = np.asarray(values, dtype=np.float64).ravel()
    x = x[~np.isnan(x)]
    n = int(x.size)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    mean = float(x.mean())
    if n < 2:
        return Interval(mean, math.nan, math.nan, n)
    half = t_quantile(0.5 + level / 2.0, n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)
