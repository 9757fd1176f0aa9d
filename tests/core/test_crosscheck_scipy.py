"""Cross-checks against scipy, an independent implementation (skipped only if absent)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given

from rlkl.core import entropy, kl_divergence, log_softmax, softmax

from .strategies import counts, logit_vectors, prob_pairs, prob_vectors

special = pytest.importorskip("scipy.special", reason="scipy is not installed")
stats = pytest.importorskip("scipy.stats", reason="scipy is not installed")


def test_seed_kl_against_rel_entr() -> None:
    ref = float(np.sum(special.rel_entr([0.7, 0.3], [0.5, 0.5])))
    assert kl_divergence([0.7, 0.3], [0.5, 0.5]) == pytest.approx(ref, rel=1e-14)
    assert round(ref, 6) == 0.082283


@given(prob_pairs())
def test_kl_matches_rel_entr(pq: tuple[np.ndarray, np.ndarray]) -> None:
    p, q = pq
    ref = float(np.sum(special.rel_entr(p, q)))
    kl = kl_divergence(p, q)
    if math.isinf(ref):
        assert kl == math.inf
    else:
        assert kl == pytest.approx(ref, rel=1e-9, abs=1e-12)


@given(prob_pairs(positive_q=True))
def test_kl_in_bits_matches_scipy_stats_entropy(pq: tuple[np.ndarray, np.ndarray]) -> None:
    p, q = pq
    ref = stats.entropy(p, q, base=2)
    assert kl_divergence(p, q, base=2) == pytest.approx(ref, rel=1e-9, abs=1e-12)


@given(prob_vectors())
def test_entropy_matches_scipy(p: np.ndarray) -> None:
    assert entropy(p) == pytest.approx(stats.entropy(p), rel=1e-12, abs=1e-14)
    assert entropy(p, base=2) == pytest.approx(stats.entropy(p, base=2), rel=1e-12, abs=1e-14)


@given(logit_vectors(scale=100.0))
def test_softmax_matches_scipy(z: np.ndarray) -> None:
    np.testing.assert_allclose(softmax(z), special.softmax(z), rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(log_softmax(z), special.log_softmax(z), rtol=1e-12, atol=1e-12)


# --- pass@k, best-of-n KL and the gold-reward turning points -----------------------------


@given(counts(60))
def test_pass_at_k_matches_exact_scipy_binomials(t: tuple[int, int, int]) -> None:
    from rlkl.core import pass_at_k

    n, c, k = t
    ref = 1 - special.comb(n - c, k, exact=True) / special.comb(n, k, exact=True)
    assert pass_at_k(n, c, k) == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("n", [1, 2, 3, 8, 64])
def test_best_of_n_kl_matches_the_integral_of_its_density(n: int) -> None:
    """The best of n uniform draws has density n·u^(n−1) on [0, 1]; its KL to the uniform
    is ∫ n·u^(n−1)·log(n·u^(n−1)) du (Stiennon et al. 2020, app. G.3)."""
    from scipy.integrate import quad

    from rlkl.core import best_of_n_kl

    def integrand(u: float) -> float:
        density = n * u ** (n - 1)
        return density * math.log(density) if density > 0 else 0.0

    ref, _ = quad(integrand, 0, 1, limit=200)
    assert best_of_n_kl(n) == pytest.approx(ref, abs=1e-9)


@pytest.mark.parametrize(("alpha", "beta"), [(1.0, 0.2), (0.6, 0.3), (2.0, 1.5)])
def test_gold_reward_maxima_match_scipy_optimize(alpha: float, beta: float) -> None:
    from scipy.optimize import minimize_scalar

    from rlkl.core import gold_reward_bon, gold_reward_rl

    for form, star in (
        (gold_reward_bon, alpha / (2 * beta)),
        (gold_reward_rl, math.exp(alpha / beta - 1)),
    ):
        found = minimize_scalar(
            lambda d, f=form: -float(f(d, alpha=alpha, beta=beta)),
            bounds=(1e-9, 4 * star),
            method="bounded",
            options={"xatol": 1e-10},
        )
        assert found.x == pytest.approx(star, rel=1e-6)
