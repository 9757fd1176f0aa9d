"""The output head: logits W·h + b, and the tempered log-probability of a token."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rlkl.core import head_logits, log_softmax, token_log_prob

from .strategies import logit_vectors

TOL = 1e-12
W = [[0.5, 1.0], [-1.0, 0.25], [0.0, 2.0]]


def test_logits_by_hand() -> None:
    # z_v = sum_j W[v, j] h_j + b_v with h = [1, -0.5]
    got = head_logits([1.0, -0.5], W, [0.1, 0.0, -0.2])
    np.testing.assert_allclose(got, [0.1, -1.125, -1.2], atol=TOL, rtol=0)
    np.testing.assert_allclose(head_logits([1.0, -0.5], W), [0.0, -1.125, -1.0], atol=TOL)


def test_logits_of_a_batch_of_positions() -> None:
    got = head_logits([[1.0, -0.5], [0.0, 1.0]], W)
    assert got.shape == (2, 3)
    np.testing.assert_allclose(got[1], [1.0, 0.25, 2.0], atol=TOL)


def test_token_log_prob_by_hand() -> None:
    z = [1.0, 0.5, -0.3]
    log_z = math.log(math.exp(1.0) + math.exp(0.5) + math.exp(-0.3))
    assert token_log_prob(z, 1) == pytest.approx(0.5 - log_z, abs=TOL)
    # T = 0.5 doubles every logit
    log_z2 = math.log(math.exp(2.0) + math.exp(1.0) + math.exp(-0.6))
    assert token_log_prob(z, 0, temperature=0.5) == pytest.approx(2.0 - log_z2, abs=TOL)
    # a binding passes the token as a float
    assert token_log_prob(z, 2.0) == token_log_prob(z, 2)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: head_logits([1.0, 2.0, 3.0], W), "shape"),
        (lambda: head_logits([1.0, 2.0], W, [0.0]), "bias"),
        (lambda: token_log_prob([1.0, 2.0], 2), "token"),
        (lambda: token_log_prob([1.0, 2.0], 0.5), "integer"),
        (lambda: token_log_prob([1.0, 2.0], 0, temperature=0), "temperature"),
    ],
)
def test_bad_input_is_a_value_error(call: object, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        call()  # type: ignore[operator]


@given(logit_vectors(), st.floats(0.05, 20.0))
def test_tempered_probabilities_sum_to_one(z: np.ndarray, temperature: float) -> None:
    logps = [token_log_prob(z, v, temperature=temperature) for v in range(len(z))]
    assert math.fsum(math.exp(lp) for lp in logps) == pytest.approx(1.0, abs=1e-9)


@given(logit_vectors())
def test_temperature_one_is_the_model_and_low_temperature_sharpens(z: np.ndarray) -> None:
    top = int(np.argmax(z))
    np.testing.assert_allclose(
        [token_log_prob(z, v) for v in range(len(z))], log_softmax(z), atol=TOL
    )
    assert token_log_prob(z, top, temperature=0.5) >= token_log_prob(z, top) - 1e-12
