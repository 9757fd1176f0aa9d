"""Cross-checks against scipy, an independent implementation (skipped only if absent)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given

from rlkl.core import entropy, kl_divergence, log_softmax, softmax

from .strategies import logit_vectors, prob_pairs, prob_vectors

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
