"""The across-seed t-interval and its exact t quantile."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rlkl.experiment import t_interval, t_quantile


@pytest.mark.parametrize(
    ("df", "expected"),
    [
        (1, 12.706204736174707),
        (2, 4.302652729749464),
        (4, 2.7764451051977934),
        (9, 2.262157162798205),
        (31, 2.0395134463964077),
    ],
)
def test_t_quantile_table(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, rel=1e-10)


def test_t_quantile_matches_scipy() -> None:
    stats = pytest.importorskip("scipy.stats", reason="scipy is the independent reference")
    for df in (1, 2, 3, 5, 8, 13, 50, 200, 1000):
        for p in (0.6, 0.9, 0.975, 0.995):
            assert t_quantile(p, df) == pytest.approx(float(stats.t.ppf(p, df)), rel=1e-9)


def test_t_interval_hand_case() -> None:
    # x = [1, 2, 3]: mean 2, s = 1, half-width = t_{0.975,2} / sqrt(3)
    iv = t_interval([1.0, 2.0, 3.0, math.nan])
    half = 4.302652729749464 / math.sqrt(3.0)
    assert iv.n == 3 and iv.mean == 2.0
    assert iv.low == pytest.approx(2.0 - half, rel=1e-12)
    assert iv.high == pytest.approx(2.0 + half, rel=1e-12)
    single = t_interval(np.array([5.0]))
    assert single.mean == 5.0 and math.isnan(single.low) and single.n == 1
    assert t_interval([]).n == 0
