"""softmax, log_softmax, entropy, kl_divergence: hand cases, validation, properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rlkl.core import PROB_SUM_ATOL, entropy, kl_divergence, log_softmax, softmax

from .strategies import logit_vectors, prob_pairs, prob_vectors

TOL = 1e-15


# --- softmax / log_softmax -------------------------------------------------------------


def test_softmax_hand_case() -> None:
    p = softmax([0.0, math.log(3.0)])
    np.testing.assert_allclose(p, [0.25, 0.75], rtol=0, atol=TOL)


def test_softmax_uniform_and_shift_invariance() -> None:
    np.testing.assert_allclose(softmax([5.0, 5.0, 5.0, 5.0]), [0.25] * 4, rtol=0, atol=TOL)
    z = np.array([0.3, -1.2, 2.0])
    np.testing.assert_allclose(softmax(z + 1e6), softmax(z), rtol=0, atol=1e-10)


def test_softmax_huge_logits() -> None:
    p = softmax([1e300, 0.0, -1e300])
    np.testing.assert_array_equal(p, [1.0, 0.0, 0.0])
    p = softmax([1e308, 1e308])
    np.testing.assert_array_equal(p, [0.5, 0.5])
    lp = log_softmax([1e300, 1e300 - 1.0])
    assert np.all(np.isfinite(lp))
    np.testing.assert_allclose(np.exp(lp).sum(), 1.0, rtol=0, atol=TOL)


def test_softmax_neg_inf_logit_is_zero_probability() -> None:
    np.testing.assert_array_equal(softmax([0.0, -np.inf]), [1.0, 0.0])
    assert log_softmax([0.0, -np.inf])[1] == -np.inf


def test_softmax_axis_and_batch() -> None:
    z = np.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(softmax(z, axis=0).sum(axis=0), np.ones(3), atol=TOL)
    np.testing.assert_allclose(softmax(z).sum(axis=-1), np.ones(2), atol=TOL)
    np.testing.assert_allclose(softmax(z)[1], softmax(z[1]), atol=TOL)


@pytest.mark.parametrize("bad", [[np.nan, 0.0], [np.inf, 0.0], [-np.inf, -np.inf]])
def test_softmax_rejects_bad_logits(bad: list[float]) -> None:
    with pytest.raises(ValueError, match="logits"):
        softmax(bad)
    with pytest.raises(ValueError, match="logits"):
        log_softmax(bad)


@given(arrays(np.float64, st.integers(1, 8), elements=st.floats(-1e300, 1e300)))
def test_softmax_sums_to_one_for_any_finite_logits(z: np.ndarray) -> None:
    p = softmax(z)
    assert np.all(p >= 0)
    assert abs(p.sum() - 1.0) <= 1e-12
    assert np.all(np.isfinite(log_softmax(z)) | (p == 0))


@given(logit_vectors(scale=50.0))
def test_log_softmax_is_log_of_softmax(z: np.ndarray) -> None:
    np.testing.assert_allclose(np.exp(log_softmax(z)), softmax(z), rtol=1e-12, atol=1e-300)


# --- entropy ---------------------------------------------------------------------------


def test_entropy_hand_cases() -> None:
    assert entropy([0.5, 0.5]) == pytest.approx(math.log(2), abs=TOL)
    assert entropy([0.5, 0.5], base=2) == pytest.approx(1.0, abs=TOL)
    assert entropy([1.0, 0.0]) == 0.0  # 0·log 0 = 0
    assert entropy([0.25] * 4, base=2) == pytest.approx(2.0, abs=TOL)
    h = entropy([0.7, 0.3])
    assert h == pytest.approx(-(0.7 * math.log(0.7) + 0.3 * math.log(0.3)), abs=TOL)


def test_entropy_batch() -> None:
    h = entropy([[0.5, 0.5], [1.0, 0.0]])
    assert isinstance(h, np.ndarray)
    np.testing.assert_allclose(h, [math.log(2), 0.0], atol=TOL)


@given(prob_vectors())
def test_entropy_bounds(p: np.ndarray) -> None:
    h = entropy(p)
    assert 0.0 <= h <= math.log(len(p)) + 1e-12


# --- kl_divergence ---------------------------------------------------------------------


def test_kl_zero_mass_conventions() -> None:
    # 0·log(0/q) = 0, also for q = 0
    assert kl_divergence([1.0, 0.0], [0.5, 0.5]) == pytest.approx(math.log(2), abs=TOL)
    assert kl_divergence([1.0, 0.0], [1.0, 0.0]) == 0.0
    # q_i = 0 < p_i: +inf, as a value, without a RuntimeWarning
    with __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("error")
        kl = kl_divergence([0.5, 0.5], [1.0, 0.0])
    assert kl == math.inf


def test_kl_batch_broadcast() -> None:
    p = np.array([[0.7, 0.3], [0.5, 0.5]])
    q = np.array([0.5, 0.5])
    kl = kl_divergence(p, q)
    assert isinstance(kl, np.ndarray) and kl.shape == (2,)
    np.testing.assert_allclose(kl, [0.08228287850505178, 0.0], rtol=1e-15, atol=0)
    kl_inf = np.asarray(kl_divergence([[0.5, 0.5], [1.0, 0.0]], [1.0, 0.0]))
    assert kl_inf[0] == math.inf and kl_inf[1] == 0.0


def test_kl_scalar_output_type() -> None:
    kl = kl_divergence([0.7, 0.3], [0.5, 0.5])
    assert isinstance(kl, float) and isinstance(kl, np.float64)


@pytest.mark.parametrize(
    ("p", "q", "name", "what"),
    [
        ([-0.1, 1.1], [0.5, 0.5], "p", "negative"),
        ([0.5, 0.5], [1.2, -0.2], "q", "negative"),
        ([np.nan, 1.0], [0.5, 0.5], "p", "NaN"),
        ([0.5, 0.5], [0.5, np.nan], "q", "NaN"),
        ([0.7, 0.2], [0.5, 0.5], "p", "sum to 1"),
        ([0.5, 0.5], [0.5, 0.6], "q", "sum to 1"),
        ([0.5, 0.5], [0.5, 0.5 + 1e-8], "q", "sum to 1"),
        ([np.inf, 0.0], [0.5, 0.5], "p", "infinite"),
    ],
)
def test_kl_validation_names_the_argument(
    p: list[float], q: list[float], name: str, what: str
) -> None:
    with pytest.raises(ValueError, match=rf"^{name} .*{what}") as info:
        kl_divergence(p, q)
    assert str(info.value).startswith(f"{name} ")


def test_kl_sum_tolerance_is_1e_9() -> None:
    assert PROB_SUM_ATOL == 1e-9
    kl_divergence([0.5, 0.5 + 5e-10], [0.5, 0.5])  # within tolerance: accepted
    kl_divergence([0.1, 0.2, 0.7], [0.2, 0.2, 0.6])  # 0.1+0.2+0.7 = 1.0000000000000002
    with pytest.raises(ValueError, match=r"^p"):
        kl_divergence([0.5, 0.5 + 2e-9], [0.5, 0.5])


def test_kl_rejects_mismatched_categories_and_bad_base() -> None:
    with pytest.raises(ValueError, match="categories"):
        kl_divergence([1.0], [0.5, 0.5])
    for base in (1.0, 0.0, -2.0):
        with pytest.raises(ValueError, match="base"):
            kl_divergence([0.5, 0.5], [0.5, 0.5], base=base)
    with pytest.raises(ValueError, match=r"^p"):
        kl_divergence(0.5, 0.5)


@given(prob_pairs())
def test_kl_nonnegative_and_pinsker(pq: tuple[np.ndarray, np.ndarray]) -> None:
    p, q = pq
    kl = kl_divergence(p, q)
    assert kl >= 0.0
    # Pinsker: KL ≥ ½‖p − q‖₁² (nats), so KL = 0 only if p = q
    assert kl >= 0.5 * np.abs(p - q).sum() ** 2 - 1e-12


@given(prob_vectors())
def test_kl_of_identical_is_exactly_zero(p: np.ndarray) -> None:
    assert kl_divergence(p, p) == 0.0


@given(prob_pairs(positive_q=True))
def test_kl_zero_iff_equal(pq: tuple[np.ndarray, np.ndarray]) -> None:
    p, q = pq
    kl = kl_divergence(p, q)
    if np.array_equal(p, q):
        assert kl == 0.0
    elif np.abs(p - q).max() > 1e-6:
        assert kl > 0.0
    assert math.isfinite(kl)


@given(prob_pairs(positive_q=True))
def test_kl_base_2_is_nats_over_ln2(pq: tuple[np.ndarray, np.ndarray]) -> None:
    p, q = pq
    assert kl_divergence(p, q, base=2) == pytest.approx(
        kl_divergence(p, q) / math.log(2), rel=1e-14, abs=1e-300
    )


def test_kl_with_subnormal_q_is_finite_and_exact() -> None:
    # p/q overflows float64 here; the result is still -log(q) = 744.44..., not inf or NaN
    tiny = 5e-324
    kl = kl_divergence([1.0, 0.0], [tiny, 1.0 - tiny])
    assert kl == pytest.approx(-math.log(tiny), rel=1e-15)


def test_kl_seed_value_is_correctly_rounded() -> None:
    # 0.7 ln 1.4 + 0.3 ln 0.6 = 0.0822828785050517816… (50-digit reference)
    assert kl_divergence([0.7, 0.3], [0.5, 0.5]) == 0.08228287850505178


def test_entropy_validation_names_p() -> None:
    with pytest.raises(ValueError, match=r"^p "):
        entropy([0.5, 0.6])
    with pytest.raises(ValueError, match="base"):
        entropy([0.5, 0.5], base=1.0)
