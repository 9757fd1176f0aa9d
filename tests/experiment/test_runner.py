"""The vectorised runner: determinism, matched budgets, seed independence, arm semantics."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable

import numpy as np
import pytest

from rlkl import core
from rlkl.experiment import ARMS, METRICS, ExperimentConfig, Results, policy, run_experiment
from rlkl.experiment.arms import kl_penalty_logits_grad

SMALL = ExperimentConfig(
    n_seeds=4,
    n_updates=6,
    n_envs=4,
    n_steps=4,
    n_epochs=2,
    n_minibatches=2,
    n_eval_episodes=8,
)


def _equal(a: Results, b: Results) -> None:
    assert a.metrics.keys() == b.metrics.keys()
    for arm in a.metrics:
        for name in METRICS:
            np.testing.assert_array_equal(a.metrics[arm][name], b.metrics[arm][name])


@pytest.mark.parametrize("env", ["bandit", "chain"])
def test_same_seed_gives_identical_results(env: str) -> None:
    config = dataclasses.replace(SMALL, env=env)
    _equal(run_experiment(config), run_experiment(config))
    other = run_experiment(dataclasses.replace(config, seed=1))
    assert not np.array_equal(
        other.metrics["ppo_clip"]["eval_return"],
        run_experiment(config).metrics["ppo_clip"]["eval_return"],
    )


@pytest.mark.parametrize("env", ["bandit", "chain"])
def test_every_arm_gets_the_same_budget(env: str) -> None:
    config = dataclasses.replace(SMALL, env=env)
    results = run_experiment(config)
    budgets = list(results.budget.values())
    assert len(budgets) == len(ARMS) and all(b == budgets[0] for b in budgets)
    u = config.n_updates
    assert budgets[0] == {
        "env_steps": u * config.n_envs * config.n_steps,
        "gradient_steps": u * config.n_epochs * config.n_minibatches,
        "epochs": u * config.n_epochs,
        "eval_episodes": u * config.n_eval_episodes,
        "samples_in_gradients": u * config.n_epochs * config.batch_size,
    }
    for arm in ARMS:
        for name in METRICS:
            assert results.metrics[arm][name].shape == (config.n_seeds, u)


@pytest.mark.parametrize("env", ["bandit", "chain"])
def test_vectorised_run_equals_a_per_seed_loop(env: str) -> None:
    config = dataclasses.replace(SMALL, env=env, n_seeds=3)
    together = run_experiment(config)
    for row, seed in enumerate([0, 2]):
        alone = run_experiment(config, seed_indices=[seed])
        for arm in ARMS:
            for name in METRICS:
                np.testing.assert_allclose(
                    alone.metrics[arm][name][0],
                    together.metrics[arm][name][seed],
                    rtol=1e-12,
                    atol=1e-14,
                    equal_nan=True,
                    err_msg=f"{arm}/{name} seed {seed} (row {row})",
                )


def test_no_clip_with_tiny_lr_matches_ppo_clip() -> None:
    # With a tiny step the ratios stay within 1 ± ε, so the clip never binds and the two
    # arms follow the same gradients on the same random streams.
    config = dataclasses.replace(SMALL, lr=1e-6, arms=("ppo_clip", "no_clip"))
    results = run_experiment(config)
    clip, free = results.metrics["ppo_clip"], results.metrics["no_clip"]
    assert (clip["clip_frac_binding"] == 0).all() and (clip["clip_frac_outside"] == 0).all()
    for name in METRICS:
        np.testing.assert_allclose(clip[name], free[name], rtol=1e-9, atol=1e-12, equal_nan=True)


def test_clipping_binds_with_a_large_lr() -> None:
    results = run_experiment(dataclasses.replace(SMALL, lr=5.0))
    m = results.metrics["ppo_clip"]
    assert m["clip_frac_binding"][:, 0].mean() > 0
    assert (m["clip_frac_binding"] <= m["clip_frac_outside"] + 1e-15).all()
    for arm in ARMS:
        r = results.metrics[arm]
        assert (r["ratio_min"] <= r["ratio_mean"]).all() and (
            r["ratio_mean"] <= r["ratio_max"]
        ).all()
        assert (r["kl_k3"] >= 0).all() and (r["kl_exact"] >= -1e-15).all()


@pytest.mark.parametrize("beta_max", [None, 0.5, float("inf")])
def test_kl_arm_adapts_beta_with_the_core_rule(beta_max: float | None) -> None:
    config = dataclasses.replace(SMALL, kl_beta_init=1.0, kl_target=0.01, kl_beta_max=beta_max)
    cap = {None: 2.0, 0.5: 0.5, float("inf"): float("inf")}[beta_max]
    assert config.beta_cap == cap
    m = run_experiment(config).metrics["kl_penalty"]
    assert (m["beta"][:, 0] == min(1.0, cap)).all()
    expected = core.adaptive_kl_beta(m["beta"][:, :-1], m["kl_exact"][:, :-1], 0.01)
    np.testing.assert_array_equal(m["beta"][:, 1:], np.minimum(expected, cap))
    assert (m["beta"] <= cap).all()
    for arm in ("ppo_clip", "no_clip"):
        assert np.isnan(run_experiment(config).metrics[arm]["beta"]).all()


def _central_differences(
    objective: Callable[[np.ndarray], np.ndarray], logits: np.ndarray, h: float = 1e-6
) -> np.ndarray:
    """d objective / d logits per seed (axis 0) by central differences over each logit."""
    numeric = np.zeros_like(logits)
    for idx in np.ndindex(logits.shape[1:]):
        step = np.zeros_like(logits)
        where = (slice(None), idx[0], idx[1])
        step[where] = h
        numeric[where] = (objective(logits + step) - objective(logits - step)) / (2 * h)
    return numeric


def test_logits_grad_matches_finite_differences() -> None:
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(2, 3, 4))
    logp_old = rng.normal(size=(2, 3, 4))
    obs = rng.integers(0, 3, (2, 7))
    act = rng.integers(0, 4, (2, 7))
    adv = rng.normal(size=(2, 7))
    lp_old = policy.gather_actions(logp_old, obs, act)

    def objective(z: np.ndarray) -> np.ndarray:
        lp = policy.gather_actions(core.log_softmax(z), obs, act)
        ratio = np.exp(lp - lp_old)
        mean: np.ndarray = np.asarray(core.ppo_clip_objective(ratio, adv, 0.2)).mean(axis=1)
        return mean

    ratio = np.exp(policy.gather_actions(core.log_softmax(logits), obs, act) - lp_old)
    g = core.ppo_clip_grad(ratio, adv, 0.2)
    analytic = policy.logits_grad(core.softmax(logits), obs, act, np.asarray(g))
    numeric = _central_differences(objective, logits)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8)


def test_kl_penalty_grad_matches_finite_differences() -> None:
    """∂/∂z of −β/n Σ_i KL(π_old(·|s_i) ‖ softmax(z[s_i])): sign, scale and direction."""
    rng = np.random.default_rng(5)
    logits = rng.normal(size=(2, 3, 4))
    probs_old = core.softmax(rng.normal(size=(2, 3, 4)))
    obs = rng.integers(0, 3, (2, 9))
    beta = np.array([0.7, 3.0])
    counts = policy.state_counts(obs, 3)

    def objective(z: np.ndarray) -> np.ndarray:
        kl = np.asarray(core.kl_divergence(probs_old, core.softmax(z)))
        per_sample = policy.gather_states(kl[..., None], obs)[..., 0]
        mean: np.ndarray = -beta * per_sample.mean(axis=1)
        return mean

    analytic = kl_penalty_logits_grad(core.softmax(logits), probs_old, counts, 9, beta)
    numeric = _central_differences(objective, logits)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-9)
    # Ascent on the penalty moves π_new toward π_old: a small step lowers every visited KL.
    kl_before = np.asarray(core.kl_divergence(probs_old, core.softmax(logits)))
    kl_after = np.asarray(core.kl_divergence(probs_old, core.softmax(logits + 1e-3 * analytic)))
    assert (kl_after[counts > 0] < kl_before[counts > 0]).all()


def test_penalty_step_with_lr_beta_at_most_2_never_overshoots() -> None:
    """Why β is capped at 2/lr: the penalty alone is plain gradient descent on a convex KL
    whose Hessian ``diag(π) − ππᵀ`` has eigenvalues ≤ 1/2, so a step ``lr·β ≤ 2`` never
    increases the KL, while the uncapped β = 32 of the reported run makes it blow up."""
    rng = np.random.default_rng(11)
    probs_old = core.softmax(rng.normal(scale=2.0, size=(200, 1, 5)))
    start = np.log(probs_old) + rng.normal(scale=1.5, size=(200, 1, 5))
    counts = np.ones((200, 1))

    def kl_path(step: float, n_steps: int = 16) -> np.ndarray:
        z, path = start.copy(), []
        for _ in range(n_steps):
            path.append(np.asarray(core.kl_divergence(probs_old, core.softmax(z)))[:, 0])
            beta = np.full(200, step)
            z = z + kl_penalty_logits_grad(core.softmax(z), probs_old, counts, 1, beta)
        return np.stack(path, axis=1)

    for step in (0.5, 1.0, 2.0):
        path = kl_path(step)
        assert (np.diff(path, axis=1) <= 1e-12).all()
    overshoot = kl_path(32.0)
    assert (overshoot[:, -1] > overshoot[:, 0]).any()


def test_inverse_cdf_sampling_follows_the_policy() -> None:
    probs = np.array([0.1, 0.6, 0.3])
    u = np.random.default_rng(0).random(200_000)
    actions = policy.sample_actions(np.broadcast_to(probs, (u.size, 3)), u)
    freq = np.bincount(actions, minlength=3) / u.size
    np.testing.assert_allclose(freq, probs, atol=5e-3)


def test_config_validation() -> None:
    with pytest.raises(ValueError, match="n_minibatches"):
        ExperimentConfig(n_envs=3, n_steps=3, n_minibatches=2)
    with pytest.raises(ValueError, match="arms"):
        ExperimentConfig(arms=("sac",))
    with pytest.raises(ValueError, match="epsilon"):
        ExperimentConfig(epsilon=-0.1)
    for bad in (
        {"seed": -1},
        {"lr": float("inf")},
        {"lr": float("nan")},
        {"kl_target": float("nan")},
        {"kl_beta_init": -1.0},
        {"kl_beta_max": 0.0},
        {"kl_beta_max": float("nan")},
    ):
        with pytest.raises(ValueError):
            ExperimentConfig(**bad)  # type: ignore[arg-type]
    cfg = ExperimentConfig(env="chain", arms=("no_clip",))
    assert ExperimentConfig.from_dict(cfg.to_dict()) == cfg
    for cap in (None, 3.0, float("inf")):
        cfg = ExperimentConfig(kl_beta_max=cap)
        assert ExperimentConfig.from_dict(json.loads(json.dumps(cfg.to_dict()))) == cfg
