"""The public API: names, signatures, and the scalar-in / scalar-out convention."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

import rlkl.core as core

PUBLIC = {
    "softmax": "(logits, axis=-1)",
    "log_softmax": "(logits, axis=-1)",
    "entropy": "(p, *, base=2.718281828459045)",
    "kl_divergence": "(p, q, *, base=2.718281828459045)",
    "ppo_ratio": "(logp_new, logp_old)",
    "ppo_ratio_from_probs": "(p_new, p_old)",
    "ppo_clip_objective": "(ratio, advantage, epsilon)",
    "ppo_clip_grad": "(ratio, advantage, epsilon)",
    "clip_fraction": "(ratio, advantage, epsilon, *, definition, axis=None)",
    "approx_kl": "(logp_new, logp_old, *, estimator)",
    "adaptive_kl_beta": "(beta, kl, kl_target)",
    "policy_gradient": "(logits, rewards)",
    "reinforce_grad": "(logits, rewards, action, *, baseline='exact')",
    "expected_reinforce_grad": "(logits, rewards, *, baseline)",
    "reinforce_grad_variance": "(logits, rewards, *, baseline, per_component=False)",
    "kl_grad": "(logits, ref_probs)",
    "reinforce_step": "(logits, rewards, ref_probs, *, lr, beta)",
    "kl_regularized_policy": "(rewards, ref_probs, *, beta)",
    "gae": "(rewards, values, next_values, terminated, truncated, *, gamma, lam)",
    "rloo_advantages": "(rewards, axis=-1)",
    "grpo_advantages": "(rewards, *, normalize_std=True, eps=0.0001, ddof=1, axis=-1)",
    "group_reinforce_grad": "(logits, rewards, actions, *, baseline='rloo')",
    "expected_group_grad": "(logits, rewards, group_size, *, baseline)",
    "group_grad_variance": "(logits, rewards, group_size, *, baseline)",
    "kl_controller_proportional": "(beta, kl, target, horizon_steps, *, n_steps, clip=0.2)",
    "dpo_implicit_reward": "(logp, ref_logp, *, beta)",
    "dpo_loss": "(logp_chosen, logp_rejected, ref_logp_chosen, ref_logp_rejected, *, beta)",
    "head_logits": "(hidden, weight, bias=None)",
    "token_log_prob": "(logits, token, *, temperature=1.0)",
    "bradley_terry_prob": "(reward_a, reward_b)",
    "bradley_terry_loss": "(reward_chosen, reward_rejected)",
    "bradley_terry_grad": "(reward_chosen, reward_rejected)",
    "masked_token_loss": "(token_nll, mask, *, average)",
    "pass_at_k": "(n, c, k)",
    "best_of_n_kl": "(n)",
    "gold_reward_bon": "(d, *, alpha, beta)",
    "gold_reward_rl": "(d, *, alpha, beta)",
    "ppo_value_loss": "(values, returns, old_values=None, *, clip_range=None, definition='max')",
}


def _bare(sig: inspect.Signature) -> str:
    params = [p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()]
    return str(sig.replace(parameters=params, return_annotation=inspect.Signature.empty))


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_public_function_signature_and_docstring(name: str) -> None:
    assert name in core.__all__
    fn = getattr(core, name)
    assert _bare(inspect.signature(fn)) == PUBLIC[name]
    doc = inspect.getdoc(fn) or ""
    assert "http" in doc, f"{name} docstring must cite its source with a URL"
    assert "Returns" in doc


def test_all_is_exactly_what_is_exported() -> None:
    assert sorted(core.__all__) == sorted(set(core.__all__))
    for name in core.__all__:
        assert hasattr(core, name)


@pytest.mark.parametrize(
    "value",
    [
        core.ppo_ratio(0.0, 0.0),
        core.ppo_ratio_from_probs(0.7, 0.5),
        core.ppo_clip_objective(1.4, 2.0, 0.2),
        core.ppo_clip_grad(1.4, 2.0, 0.2),
        core.clip_fraction(1.4, 2.0, 0.2, definition="outside"),
        core.approx_kl(0.1, 0.0, estimator="k3"),
        core.adaptive_kl_beta(1.0, 0.01, 0.01),
        core.kl_divergence([0.7, 0.3], [0.5, 0.5]),
        core.entropy([0.7, 0.3]),
        core.reinforce_grad_variance([0.0, 0.0], [1.0, 0.0], baseline="none"),
        core.kl_controller_proportional(0.1, 0.03, 0.02, 100.0, n_steps=10.0),
        core.dpo_implicit_reward(-1.0, -2.0, beta=0.5),
        core.dpo_loss(-1.0, -2.0, -1.5, -1.5, beta=0.1),
        core.token_log_prob([1.0, 0.5], 0),
        core.bradley_terry_prob(1.0, 0.0),
        core.bradley_terry_loss(1.0, 0.0),
        core.bradley_terry_grad(1.0, 0.0),
        core.masked_token_loss([1.0, 2.0], [1, 1], average="token"),
        core.pass_at_k(10, 3, 2),
        core.best_of_n_kl(4),
        core.gold_reward_bon(1.0, alpha=1.0, beta=0.1),
        core.gold_reward_rl(1.0, alpha=1.0, beta=0.1),
        core.ppo_value_loss(1.0, 0.5),
    ],
)
def test_scalars_in_give_numpy_float64_which_is_a_python_float(value: object) -> None:
    assert type(value) is np.float64
    assert isinstance(value, float)


def test_arrays_in_give_float64_arrays() -> None:
    out = core.ppo_clip_objective([1.4, 0.5], [2.0, -2.0], 0.2)
    assert isinstance(out, np.ndarray) and out.dtype == np.float64 and out.shape == (2,)
    adv, ret = core.gae([1.0], [0.0], [0.0], [True], [False], gamma=1.0, lam=1.0)
    assert adv.dtype == ret.dtype == np.float64


def test_functions_do_not_mutate_inputs() -> None:
    z = np.array([0.1, 0.2, 0.3])
    r = np.array([1.0, 0.0, 2.0])
    ref = np.array([0.2, 0.3, 0.5])
    before = (z.copy(), r.copy(), ref.copy())
    core.reinforce_step(z, r, ref, lr=0.5, beta=0.1)
    core.reinforce_grad(z, r, 1)
    core.kl_grad(z, ref)
    for a, b in zip((z, r, ref), before, strict=True):
        np.testing.assert_array_equal(a, b)


def test_default_base_is_e() -> None:
    assert inspect.signature(core.kl_divergence).parameters["base"].default == math.e
