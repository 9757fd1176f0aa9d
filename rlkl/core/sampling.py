"""Repeated sampling with a verifier: the unbiased pass@k estimator.

Draw n answers to a problem, let a verifier mark c of them correct (a 0/1 reward), and ask
how likely at least one of k answers drawn from the same model is correct. Counting the
k-subsets of the n samples that contain no correct answer gives an unbiased estimator;
1 − (1 − c/n)^k, the plug-in estimate, is biased low for k > 1.

Source: Chen et al., "Evaluating Large Language Models Trained on Code" (2021),
https://arxiv.org/abs/2107.03374 (§2.1, eq. 1, and its numerically stable numpy form).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["pass_at_k"]


def _count(x: float, name: str) -> int:
    v = float(x)
    if not (math.isfinite(v) and v == int(v) and v >= 0):
        raise ValueError(f"{name} must be a whole number >= 0, got {x!r}")
    return int(v)


def pass_at_k(n: float, c: float, k: float) -> np.float64:
    r"""The unbiased estimate of pass@k from n samples of which c are correct.

    Equation (Chen et al. 2021, eq. 1)::

        pass@k = 1 − C(n − c, k) / C(n, k)
               = 1 − Π_{i = n−c+1}^{n} (1 − k / i)        (the product form, no big binomials)

    1 when n − c < k (every k-subset holds a correct answer), 0 when c = 0, and c/n for
    k = 1.

    Source: https://arxiv.org/abs/2107.03374 (§2.1, eq. 1; the numpy snippet in its Figure 3).

    Args:
        n: samples drawn (n ≥ 1), c: correct among them (0 ≤ c ≤ n), k: the budget
            (1 ≤ k ≤ n); whole numbers.

    Returns:
        the estimate in [0, 1], ``numpy.float64``.
    """
    nn, cc, kk = _count(n, "n"), _count(c, "c"), _count(k, "k")
    if nn < 1 or cc > nn or not 1 <= kk <= nn:
        raise ValueError(f"need n >= 1, 0 <= c <= n and 1 <= k <= n; got n={n}, c={c}, k={k}")
    none_correct = 0.0  # C(n - c, k) / C(n, k): no correct answer among the k
    if nn - cc >= kk:
        none_correct = float(np.prod(1.0 - kk / np.arange(nn - cc + 1, nn + 1)))
    estimate: np.float64 = np.float64(1.0 - none_correct)
    return estimate
