"""The numbers written in the seed lessons reproduce (DESIGN.md, issue 3 item 2)."""

from __future__ import annotations

import math

import pytest

from rlkl.core import (
    approx_kl,
    kl_divergence,
    ppo_clip_grad,
    ppo_clip_objective,
    ppo_ratio,
    ppo_ratio_from_probs,
)

EPS = 0.2


def test_ratio_from_probabilities_is_1_4() -> None:
    r = ppo_ratio_from_probs(0.7, 0.5)
    assert round(r, 1) == 1.4
    assert r == pytest.approx(1.4, abs=1e-15)


def test_ratio_from_log_probabilities_is_1_4() -> None:
    assert ppo_ratio(math.log(0.7), math.log(0.5)) == pytest.approx(1.4, abs=1e-15)


def test_positive_advantage_objective_is_2_4() -> None:
    # min(1.4×2, 1.2×2) = 2.4
    assert ppo_clip_objective(1.4, 2.0, EPS) == pytest.approx(2.4, abs=1e-15)


def test_negative_advantage_objective_is_minus_2_8() -> None:
    # min(1.4×(−2), 1.2×(−2)) = min(−2.8, −2.4) = −2.8 (the quiz key; −2.4 is the distractor)
    obj = ppo_clip_objective(1.4, -2.0, EPS)
    assert obj == pytest.approx(-2.8, abs=1e-15)
    assert round(obj, 1) != -2.4


def test_kl_forward_is_0_082283_nats() -> None:
    kl = kl_divergence([0.7, 0.3], [0.5, 0.5])
    assert round(kl, 6) == 0.082283
    assert kl == pytest.approx(0.7 * math.log(1.4) + 0.3 * math.log(0.6), abs=1e-16)


def test_kl_reverse_is_0_087177_nats_and_not_symmetric() -> None:
    kl = kl_divergence([0.5, 0.5], [0.7, 0.3])
    assert round(kl, 6) == 0.087177
    assert round(kl, 6) != round(kl_divergence([0.7, 0.3], [0.5, 0.5]), 6)


def test_kl_forward_in_bits() -> None:
    bits = kl_divergence([0.7, 0.3], [0.5, 0.5], base=2)
    assert bits == pytest.approx(0.08228287850505178 / math.log(2), rel=1e-15)
    assert round(bits, 6) == 0.118709


def test_seed_003_negative_advantage_low_ratio() -> None:
    # ρ = 0.5, ε = 0.2, Â = −2: raw −1, clipped candidate −1.6, minimum −1.6
    rho, adv = 0.5, -2.0
    raw = rho * adv
    clipped = min(max(rho, 1 - EPS), 1 + EPS) * adv
    assert raw == -1.0
    assert clipped == pytest.approx(-1.6, abs=1e-15)
    assert ppo_clip_objective(rho, adv, EPS) == pytest.approx(-1.6, abs=1e-15)
    # and the sample is on the flat side: no gradient
    assert ppo_clip_grad(rho, adv, EPS) == 0.0


@pytest.mark.parametrize("r", [1.2000001, 1.25, 1.4, 2.0, 10.0])
def test_no_incentive_above_1_2_for_positive_advantage(r: float) -> None:
    assert ppo_clip_grad(r, 2.0, EPS) == 0.0


@pytest.mark.parametrize("r", [0.0, 0.5, 0.7, 0.7999999])
def test_no_incentive_below_0_8_for_negative_advantage(r: float) -> None:
    assert ppo_clip_grad(r, -2.0, EPS) == 0.0


def test_k3_of_identical_policies_is_zero() -> None:
    assert approx_kl(math.log(0.5), math.log(0.5), estimator="k3") == 0.0
