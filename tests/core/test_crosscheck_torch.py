"""Cross-checks against torch on the CPU: torch.distributions and autograd, float64
(skipped only if torch is not installed)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlkl.core import (
    entropy,
    kl_divergence,
    kl_grad,
    policy_gradient,
    ppo_clip_grad,
    ppo_clip_objective,
    reinforce_grad,
    reinforce_step,
    softmax,
)

from .strategies import logit_vectors, prob_pairs, prob_vectors

torch = pytest.importorskip("torch", reason="torch is not installed")
Categorical = torch.distributions.Categorical

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def t(x: object) -> Any:
    return torch.as_tensor(np.asarray(x, dtype=np.float64))


def torch_ppo_grad(ratio: float, adv: float, eps: float) -> float:
    """d/d log π_new of torch.min(r·A, clamp(r)·A), through a ratio leaf (so r is exact)."""
    r = torch.tensor(ratio, dtype=torch.float64, requires_grad=True)
    a = torch.tensor(adv, dtype=torch.float64)
    obj = torch.min(r * a, torch.clamp(r, 1 - eps, 1 + eps) * a)
    obj.backward()
    assert r.grad is not None
    return float(r.grad) * ratio  # ∂/∂ log π = r ∂/∂r


# --- distributions ---------------------------------------------------------------------


def test_seed_kl_against_torch() -> None:
    ref = torch.distributions.kl_divergence(
        Categorical(probs=t([0.7, 0.3])), Categorical(probs=t([0.5, 0.5]))
    )
    assert kl_divergence([0.7, 0.3], [0.5, 0.5]) == pytest.approx(float(ref), rel=1e-14)


def torch_kl(p: object, q: object) -> float:
    return float(
        torch.distributions.kl_divergence(Categorical(probs=t(p)), Categorical(probs=t(q)))
    )


@settings(deadline=None)
@given(prob_pairs(positive_q=True))
def test_kl_matches_torch_categorical(pq: tuple[np.ndarray, np.ndarray]) -> None:
    # q bounded away from 0: torch clamps probabilities to machine epsilon before taking
    # logs, so for q_i < 2.2e-16 it is the approximate one (ours gives the exact value).
    p, q = pq
    assert kl_divergence(p, q) == pytest.approx(torch_kl(p, q), rel=1e-9, abs=1e-12)


def test_kl_infinite_and_zero_mass_like_torch() -> None:
    assert kl_divergence([0.5, 0.5], [1.0, 0.0]) == torch_kl([0.5, 0.5], [1.0, 0.0]) == math.inf
    assert kl_divergence([1.0, 0.0], [0.5, 0.5]) == pytest.approx(
        torch_kl([1.0, 0.0], [0.5, 0.5]), rel=1e-15
    )


@settings(deadline=None)
@given(prob_vectors())
def test_entropy_matches_torch_categorical(p: np.ndarray) -> None:
    ref = float(Categorical(probs=t(p)).entropy())
    assert entropy(p) == pytest.approx(ref, rel=1e-12, abs=1e-14)


@settings(deadline=None)
@given(logit_vectors(scale=100.0))
def test_softmax_matches_torch(z: np.ndarray) -> None:
    np.testing.assert_allclose(softmax(z), torch.softmax(t(z), -1).numpy(), rtol=1e-12, atol=1e-300)


# --- PPO autograd ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ratio", "adv"),
    [
        (1.2, 2.0),
        (0.8, -2.0),
        (1.2, -2.0),
        (0.8, 2.0),
        (1.4, 2.0),
        (1.4, -2.0),
        (0.5, -2.0),
        (1.0, 0.0),
    ],
)
def test_clip_grad_agrees_with_autograd_including_the_kinks(ratio: float, adv: float) -> None:
    # at r = 1 ± ε torch.clamp passes the gradient and torch.min splits the tie: r·A
    assert ppo_clip_grad(ratio, adv, 0.2) == pytest.approx(
        torch_ppo_grad(ratio, adv, 0.2), abs=1e-15
    )


@settings(deadline=None)
@given(st.floats(0.0, 5.0), st.floats(-10.0, 10.0), st.floats(0.0, 0.9))
def test_clip_grad_agrees_with_autograd_everywhere(ratio: float, adv: float, eps: float) -> None:
    assert ppo_clip_grad(ratio, adv, eps) == pytest.approx(
        torch_ppo_grad(ratio, adv, eps), rel=1e-12, abs=1e-12
    )


def test_batched_ppo_objective_and_grad_through_log_probs() -> None:
    rng = np.random.default_rng(0)
    logp_old = np.log(rng.uniform(0.05, 1.0, 1000))
    logp_new = logp_old + rng.normal(0, 0.3, 1000)
    adv = rng.normal(0, 1, 1000)
    eps = 0.2
    lp = t(logp_new).requires_grad_(True)
    r = torch.exp(lp - t(logp_old))
    obj = torch.min(r * t(adv), torch.clamp(r, 1 - eps, 1 + eps) * t(adv))
    obj.sum().backward()
    ratio = np.exp(logp_new - logp_old)
    np.testing.assert_allclose(
        ppo_clip_objective(ratio, adv, eps), obj.detach().numpy(), rtol=1e-14, atol=1e-15
    )
    np.testing.assert_allclose(
        ppo_clip_grad(ratio, adv, eps), lp.grad.numpy(), rtol=1e-13, atol=1e-15
    )


# --- policy / KL autograd --------------------------------------------------------------


@st.composite
def bandit(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    k = draw(st.integers(1, 6))
    z = draw(logit_vectors(k, scale=5.0))
    r = np.array(draw(st.lists(st.floats(-5, 5), min_size=k, max_size=k)))
    ref = draw(prob_vectors(k, positive=True))
    return z, r, ref


@settings(deadline=None)
@given(bandit())
def test_policy_gradient_matches_autograd(b: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    z, r, _ = b
    zt = t(z).requires_grad_(True)
    (torch.softmax(zt, -1) * t(r)).sum().backward()
    np.testing.assert_allclose(policy_gradient(z, r), zt.grad.numpy(), rtol=1e-10, atol=1e-13)


@settings(deadline=None)
@given(bandit())
def test_kl_grad_matches_autograd(b: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    z, _, ref = b
    zt = t(z).requires_grad_(True)
    kl = torch.distributions.kl_divergence(Categorical(logits=zt), Categorical(probs=t(ref)))
    kl.backward()
    np.testing.assert_allclose(kl_grad(z, ref), zt.grad.numpy(), rtol=1e-9, atol=1e-12)


@settings(deadline=None)
@given(bandit(), st.data())
def test_reinforce_grad_matches_autograd_of_surrogate(
    b: tuple[np.ndarray, np.ndarray, np.ndarray], data: st.DataObject
) -> None:
    z, r, _ = b
    a = data.draw(st.integers(0, len(z) - 1))
    for baseline in ("exact", "none"):
        zt = t(z).requires_grad_(True)
        logp = torch.log_softmax(zt, -1)
        base = (logp.exp() * t(r)).sum().detach() if baseline == "exact" else 0.0
        (logp[a] * (float(r[a]) - base)).backward()
        np.testing.assert_allclose(
            reinforce_grad(z, r, a, baseline=baseline), zt.grad.numpy(), rtol=1e-10, atol=1e-13
        )


@settings(deadline=None)
@given(bandit(), st.floats(0.01, 2.0))
def test_reinforce_step_matches_autograd_of_regularised_objective(
    b: tuple[np.ndarray, np.ndarray, np.ndarray], beta: float
) -> None:
    z, r, ref = b
    zt = t(z).requires_grad_(True)
    pi = torch.softmax(zt, -1)
    kl = torch.distributions.kl_divergence(Categorical(logits=zt), Categorical(probs=t(ref)))
    ((pi * t(r)).sum() - beta * kl).backward()
    expected = z + 0.1 * zt.grad.numpy()
    np.testing.assert_allclose(
        reinforce_step(z, r, ref, lr=0.1, beta=beta), expected, rtol=1e-10, atol=1e-12
    )


# --- group advantages and DPO (torch as the independent implementation) -----------------


@given(st.integers(2, 8).flatmap(lambda k: st.lists(st.floats(-10, 10), min_size=k, max_size=k)))
@settings(max_examples=50)
def test_grpo_matches_trl_torch_formula(rewards: list[float]) -> None:
    """TRL: (r − mean) / (r.std(dim) + 1e-4) with torch's default (unbiased) std."""
    from rlkl.core import grpo_advantages

    r = t(rewards).view(1, -1)
    ref = (r - r.mean(dim=1, keepdim=True)) / (r.std(dim=1, keepdim=True) + 1e-4)
    np.testing.assert_allclose(grpo_advantages(rewards), ref.numpy()[0], atol=1e-9, rtol=1e-9)


@given(
    st.lists(st.floats(-30, 0), min_size=4, max_size=4),
    st.floats(0.01, 5.0),
)
@settings(max_examples=50)
def test_dpo_loss_matches_torch_logsigmoid(logps: list[float], beta: float) -> None:
    """The DPO paper's reference form: −logsigmoid(β·((π_w − ref_w) − (π_l − ref_l)))."""
    from rlkl.core import dpo_loss

    w, lo, rw, rl = (t(x) for x in logps)
    ref = -torch.nn.functional.logsigmoid(beta * ((w - rw) - (lo - rl)))
    assert dpo_loss(*logps, beta=beta) == pytest.approx(float(ref), rel=1e-12, abs=1e-12)


def test_dpo_loss_gradient_matches_autograd() -> None:
    """∂L/∂log π(y_w) = −β·σ(−m), from torch autograd."""
    from rlkl.core import dpo_loss

    w = torch.tensor(-1.0, dtype=torch.float64, requires_grad=True)
    loss = -torch.nn.functional.logsigmoid(0.1 * ((w - (-1.5)) - (-2.0 - (-1.5))))
    loss.backward()
    assert w.grad is not None
    h = 1e-6
    up = dpo_loss(-1.0 + h, -2.0, -1.5, -1.5, beta=0.1)
    down = dpo_loss(-1.0 - h, -2.0, -1.5, -1.5, beta=0.1)
    fd = (up - down) / (2 * h)
    assert fd == pytest.approx(float(w.grad), abs=1e-9)


# --- the reward model, the output head, SFT's masked loss and PPO's value loss ----------


@given(st.lists(st.floats(-20, 20), min_size=1, max_size=6), st.floats(-20, 20))
@settings(max_examples=50)
def test_bradley_terry_loss_and_grad_match_trl_logsigmoid(chosen: list[float], rej: float) -> None:
    """TRL RewardTrainer: −logsigmoid(rewards_chosen − rewards_rejected); gradient by autograd."""
    from rlkl.core import bradley_terry_grad, bradley_terry_loss, bradley_terry_prob

    rw = torch.tensor(chosen, dtype=torch.float64, requires_grad=True)
    loss = -torch.nn.functional.logsigmoid(rw - rej)
    loss.sum().backward()
    assert rw.grad is not None
    np.testing.assert_allclose(bradley_terry_loss(chosen, rej), loss.detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(bradley_terry_grad(chosen, rej), rw.grad.numpy(), atol=1e-12)
    np.testing.assert_allclose(
        bradley_terry_prob(chosen, rej), torch.sigmoid(t(chosen) - rej).numpy(), atol=1e-12
    )


@given(st.integers(1, 4), st.integers(2, 7), st.floats(0.1, 5.0), st.integers(0, 2**31))
@settings(max_examples=30)
def test_output_head_matches_torch_linear_and_log_softmax(
    d: int, vocab: int, temperature: float, seed: int
) -> None:
    from rlkl.core import head_logits, token_log_prob

    rng = np.random.default_rng(seed)
    h, w, b = rng.normal(size=(3, d)), rng.normal(size=(vocab, d)), rng.normal(size=vocab)
    layer = torch.nn.Linear(d, vocab, dtype=torch.float64)
    with torch.no_grad():
        layer.weight.copy_(t(w))
        layer.bias.copy_(t(b))
        ref_z = layer(t(h))
    z = head_logits(h, w, b)
    np.testing.assert_allclose(z, ref_z.numpy(), atol=1e-12)
    tokens = rng.integers(0, vocab, size=3)
    ref = torch.log_softmax(ref_z / temperature, dim=-1).gather(-1, t(tokens).long()[:, None])
    got = token_log_prob(z, tokens, temperature=temperature)
    np.testing.assert_allclose(got, ref.numpy()[:, 0], atol=1e-12)


@given(st.integers(1, 4), st.integers(2, 6), st.integers(0, 2**31))
@settings(max_examples=30)
def test_masked_loss_matches_cross_entropy_with_ignore_index(b: int, n: int, seed: int) -> None:
    """The per-token average is cross_entropy(ignore_index=-100, reduction='mean'); the
    per-sequence average is the mean of each sequence's cross_entropy."""
    from rlkl.core import masked_token_loss, token_log_prob

    rng = np.random.default_rng(seed)
    logits = rng.normal(size=(b, n, 5))
    labels = rng.integers(0, 5, size=(b, n))
    mask = rng.integers(0, 2, size=(b, n))
    mask[:, -1] = 1
    nll = -np.asarray(token_log_prob(logits, labels))
    torch_labels = torch.as_tensor(np.where(mask == 1, labels, -100))
    ce = torch.nn.functional.cross_entropy
    per_token = ce(t(logits).reshape(-1, 5), torch_labels.reshape(-1), ignore_index=-100)
    per_sequence = torch.stack([ce(t(logits[i]), torch_labels[i]) for i in range(b)]).mean()
    got_token = masked_token_loss(nll, mask, average="token")
    assert got_token == pytest.approx(float(per_token), abs=1e-12)
    got_seq = masked_token_loss(nll, mask, average="sequence")
    assert got_seq == pytest.approx(float(per_sequence), abs=1e-12)


@given(st.integers(1, 8), st.floats(0.0, 1.0), st.integers(0, 2**31))
@settings(max_examples=50)
def test_value_loss_matches_cleanrl_and_sb3(n: int, eps: float, seed: int) -> None:
    """CleanRL ppo.py (clip_vloss): 0.5·mean(max(unclipped, clipped)); SB3 PPO.train:
    F.mse_loss(returns, old_values + clamp(values − old_values, −ε, ε))."""
    from rlkl.core import ppo_value_loss

    rng = np.random.default_rng(seed)
    new, old, ret = (rng.normal(size=n) for _ in range(3))
    newvalue, b_values, b_returns = t(new), t(old), t(ret)
    v_loss_unclipped = (newvalue - b_returns) ** 2
    v_clipped = b_values + torch.clamp(newvalue - b_values, -eps, eps)
    v_loss_clipped = (v_clipped - b_returns) ** 2
    cleanrl = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
    sb3 = torch.nn.functional.mse_loss(b_returns, v_clipped)
    ours = ppo_value_loss(new, ret, old, clip_range=eps)
    assert 0.5 * np.mean(ours) == pytest.approx(float(cleanrl), abs=1e-12)
    ours_sb3 = ppo_value_loss(new, ret, old, clip_range=eps, definition="clipped")
    assert np.mean(ours_sb3) == pytest.approx(float(sb3), abs=1e-12)
    unclipped = torch.nn.functional.mse_loss(newvalue, b_returns)
    assert np.mean(ppo_value_loss(new, ret)) == pytest.approx(float(unclipped), abs=1e-12)
