"""The matched-budget experiment: PPO-clip vs the unclipped surrogate vs a KL penalty.

Layout: every array carries a leading seed axis ``S``; rollouts are ``(S, n_envs, n_steps)``
(time last) and are flattened to a batch ``(S, B)`` with ``B = n_envs · n_steps``. Only the
random draws touch seeds one at a time (one block per seed per update, from that seed's own
``numpy.random.Generator``) so that seed ``i`` produces identical numbers whether it runs
alone or with others; everything else is vectorised across seeds.

Matched budgets: for every arm, each update uses exactly ``n_envs · n_steps`` environment
steps per seed, ``n_epochs`` passes over the batch in ``n_minibatches`` minibatches, and
``n_eval_episodes`` evaluation episodes, and every arm starts from the same per-seed
random streams (common random numbers). :attr:`Results.budget` counts what each arm
actually consumed so that this can be checked.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from rlkl import core
from rlkl.experiment import policy
from rlkl.experiment.arms import ARMS, ArmName, kl_penalty_logits_grad, surrogate_dlogp
from rlkl.experiment.envs import Bandit, Chain, Env
from rlkl.experiment.rollout import Cursor, advantages, collect_rollout

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

ADVANTAGE_CONVENTION = (
    "GAE(γ, λ) over each rollout segment (rlkl.core.gae): "
    "δ_t = r_t + γ·(1 − terminated_t)·V(next_obs_t) − V(obs_t); "
    "A_t = δ_t + γλ·(1 − terminated_t)·(1 − truncated_t)·A_{t+1}. "
    "Termination does not bootstrap; truncation (time limit) bootstraps from V of the "
    "pre-reset observation; the end of the rollout segment bootstraps from V(next_obs). "
    "Returns R_t = A_t + V(obs_t) are the critic's targets. V is a tabular critic (each "
    "arm fits its own, starting at 0), moved toward the per-state mean return with step "
    "value_lr after the advantages are computed. When normalize_advantages is true, "
    "advantages are standardised per seed over the whole batch (mean 0, std 1) before "
    "the epochs."
)

METRICS: tuple[str, ...] = (
    "train_reward",
    "train_return",
    "eval_return",
    "entropy",
    "kl_k1",
    "kl_k3",
    "kl_exact",
    "clip_frac_outside",
    "clip_frac_binding",
    "ratio_mean",
    "ratio_min",
    "ratio_max",
    "ratio_std",
    "beta",
)
"""Per-update metrics (each logged per arm, seed and update).

* ``train_reward`` — mean reward per environment step of the rollout batch;
* ``train_return`` — mean undiscounted return of the episodes that ended during the
  rollout (NaN when none ended);
* ``eval_return`` — mean undiscounted return of ``n_eval_episodes`` fresh episodes with the
  updated policy (actions sampled);
* ``entropy`` — mean entropy (nats) of the updated policy over the batch's states;
* ``kl_k1``, ``kl_k3`` — batch means of :func:`rlkl.core.approx_kl` estimates of
  KL(π_old‖π_new) for the updated policy;
* ``kl_exact`` — batch mean of the exact tabular KL(π_old(·|s)‖π_new(·|s));
* ``clip_frac_outside`` / ``clip_frac_binding`` — :func:`rlkl.core.clip_fraction` of the
  final ratios over the batch with the configured ε (measured for every arm, also for
  those that do not clip);
* ``ratio_*`` — mean, min, max and std (ddof=0) of the final ratios over the batch;
* ``beta`` — the KL coefficient used during this update, at most
  :attr:`ExperimentConfig.beta_cap` (NaN for other arms).

All "final" quantities compare the policy after the update's last minibatch step with the
rollout policy π_old, on the whole rollout batch (normalised advantages when enabled).
"""


@dataclass(frozen=True)
class ExperimentConfig:
    """Everything that determines a run (saved as ``config.json``)."""

    env: str = "bandit"
    seed: int = 0
    n_seeds: int = 32
    n_updates: int = 50
    n_envs: int = 16
    n_steps: int = 8
    n_epochs: int = 4
    n_minibatches: int = 4
    lr: float = 1.0
    epsilon: float = 0.2
    gamma: float = 0.99
    gae_lambda: float = 0.95
    normalize_advantages: bool = True
    value_lr: float = 0.5
    kl_target: float = 0.01
    kl_beta_init: float = 1.0
    kl_beta_max: float | None = None
    n_eval_episodes: int = 32
    arms: tuple[str, ...] = ARMS
    bandit_means: tuple[float, ...] = (0.0, 0.2, 0.4, 0.6, 1.0)
    bandit_noise_std: float = 0.5
    chain_length: int = 5
    chain_max_steps: int = 10
    chain_exit_reward: float = 0.1

    def __post_init__(self) -> None:
        positive = ("n_seeds", "n_updates", "n_envs", "n_steps", "n_epochs", "n_minibatches")
        for name in positive:
            if int(getattr(self, name)) < 1:
                raise ValueError(f"{name}: must be >= 1, got {getattr(self, name)}")
        if self.n_eval_episodes < 1:
            raise ValueError(f"n_eval_episodes: must be >= 1, got {self.n_eval_episodes}")
        if (self.n_envs * self.n_steps) % self.n_minibatches:
            raise ValueError(
                f"n_minibatches: must divide the batch n_envs·n_steps = "
                f"{self.n_envs * self.n_steps}, got {self.n_minibatches}"
            )
        if self.env not in ("bandit", "chain"):
            raise ValueError(f"env: unknown environment {self.env!r} (choose bandit or chain)")
        unknown = [a for a in self.arms if a not in ARMS]
        if unknown or not self.arms:
            raise ValueError(f"arms: choose a non-empty subset of {', '.join(ARMS)}")
        if not (math.isfinite(self.epsilon) and self.epsilon >= 0.0):
            raise ValueError(f"epsilon: must be finite and >= 0, got {self.epsilon}")
        if not self.lr > 0.0:
            raise ValueError(f"lr: must be > 0, got {self.lr}")
        if not (0.0 <= self.gamma <= 1.0 and 0.0 <= self.gae_lambda <= 1.0):
            raise ValueError("gamma and gae_lambda: must lie in [0, 1]")
        if not (math.isfinite(self.lr) and math.isfinite(self.kl_target)):
            raise ValueError("lr and kl_target: must be finite")
        if not (self.kl_target > 0.0 and math.isfinite(self.kl_beta_init)):
            raise ValueError("kl_target must be > 0 and kl_beta_init finite")
        if not self.kl_beta_init >= 0.0:
            raise ValueError(f"kl_beta_init: must be >= 0, got {self.kl_beta_init}")
        if self.kl_beta_max is not None and not self.kl_beta_max > 0.0:
            raise ValueError(f"kl_beta_max: must be > 0 (or None for 2/lr), got {self.kl_beta_max}")
        if self.seed < 0:
            raise ValueError(f"seed: must be >= 0, got {self.seed}")

    @property
    def beta_cap(self) -> float:
        """Largest β of the KL arm: ``kl_beta_max``, or ``2 / lr`` when it is ``None``.

        With plain gradient ascent the penalty's step on the logits of a state is
        ``lr · β · (visits/n) · (π_new − π_old)``, whose Jacobian ``diag(π) − ππᵀ`` has
        eigenvalues at most 1/2; ``lr · β ≤ 2`` keeps that step from overshooting π_old.
        """
        return 2.0 / self.lr if self.kl_beta_max is None else float(self.kl_beta_max)

    @property
    def batch_size(self) -> int:
        """Samples (environment steps) per seed per update."""
        return self.n_envs * self.n_steps

    @property
    def minibatch_size(self) -> int:
        return self.batch_size // self.n_minibatches

    def make_env(self) -> Env:
        if self.env == "bandit":
            return Bandit(means=tuple(self.bandit_means), noise_std=self.bandit_noise_std)
        return Chain(
            length=self.chain_length,
            max_steps=self.chain_max_steps,
            exit_reward=self.chain_exit_reward,
        )

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["arms"] = list(self.arms)
        d["bandit_means"] = list(self.bandit_means)
        if self.kl_beta_max is not None and math.isinf(self.kl_beta_max):
            d["kl_beta_max"] = "inf"  # JSON has no infinity; None means the default 2/lr
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ExperimentConfig:
        kwargs = dict(d)
        for key in ("arms", "bandit_means"):
            if key in kwargs:
                kwargs[key] = tuple(kwargs[key])
        if isinstance(kwargs.get("kl_beta_max"), str):
            kwargs["kl_beta_max"] = float(kwargs["kl_beta_max"])
        return cls(**kwargs)


@dataclass(frozen=True)
class Results:
    """The raw outcome of a run.

    ``metrics[arm][name]`` has shape ``(n_seeds, n_updates)`` (rows follow
    ``seed_indices``); ``budget[arm]`` counts, per seed, what the arm consumed.
    """

    config: ExperimentConfig
    seed_indices: tuple[int, ...]
    metrics: dict[str, dict[str, FloatArray]]
    budget: dict[str, dict[str, int]] = field(default_factory=dict)


Progress = Callable[[int], None]

_BETA_CEILING = 1e300
"""β never exceeds this, even with ``kl_beta_max=inf``, so that doubling stays finite."""


def seed_sequences(root: int, seed_indices: Sequence[int]) -> list[np.random.SeedSequence]:
    """Seed ``i``'s stream: ``SeedSequence(root, spawn_key=(i,))``.

    This is exactly the ``i``-th child of ``SeedSequence(root).spawn(n)`` for any ``n > i``,
    so a seed's numbers do not depend on how many seeds run alongside it.
    """
    return [np.random.SeedSequence(root, spawn_key=(int(i),)) for i in seed_indices]


def _draw_uniform(gens: Sequence[np.random.Generator], shape: tuple[int, ...]) -> FloatArray:
    return np.stack([g.random(shape) for g in gens])


def _draw_normal(gens: Sequence[np.random.Generator], shape: tuple[int, ...]) -> FloatArray:
    return np.stack([g.standard_normal(shape) for g in gens])


def _run_arm(
    config: ExperimentConfig,
    arm: ArmName,
    seed_indices: Sequence[int],
    progress: Progress | None,
) -> tuple[dict[str, FloatArray], dict[str, int]]:
    env = config.make_env()
    n_seeds = len(seed_indices)
    n_states, n_actions = env.n_states, env.n_actions
    e_envs, t_steps, batch = config.n_envs, config.n_steps, config.batch_size
    mb = config.minibatch_size
    eps = config.epsilon
    gens = [np.random.default_rng(ss) for ss in seed_sequences(config.seed, seed_indices)]
    seeds_col = np.arange(n_seeds)[:, None]

    logits = policy.init_logits(n_seeds, n_states, n_actions)
    values_table = np.zeros((n_seeds, n_states))
    beta = np.full(n_seeds, min(config.kl_beta_init, config.beta_cap), dtype=np.float64)
    cursor = Cursor.start(env, n_seeds, e_envs)

    out = {m: np.full((n_seeds, config.n_updates), np.nan) for m in METRICS}
    budget = {
        "env_steps": 0,
        "gradient_steps": 0,
        "epochs": 0,
        "eval_episodes": 0,
        "samples_in_gradients": 0,
    }

    for u in range(config.n_updates):
        # --- random draws for this update, one block per seed, in a fixed order --------
        u_act = _draw_uniform(gens, (t_steps, e_envs))
        noise = _draw_normal(gens, (t_steps, e_envs)) if env.uses_noise else None
        u_perm = _draw_uniform(gens, (config.n_epochs, batch))
        u_eval = _draw_uniform(gens, (env.horizon, config.n_eval_episodes))
        noise_eval = (
            _draw_normal(gens, (env.horizon, config.n_eval_episodes)) if env.uses_noise else None
        )

        # --- rollout with the frozen π_old, then advantages (GAE) and the critic ----------
        probs_old = core.softmax(logits)
        ro, cursor = collect_rollout(env, logits, cursor, u_act, noise)
        budget["env_steps"] += batch
        adv, ret = advantages(ro, values_table, gamma=config.gamma, lam=config.gae_lambda)
        r_obs, r_act, r_logp, r_rew = ro.obs, ro.action, ro.logp_old, ro.reward
        b_obs = r_obs.reshape(n_seeds, batch)
        b_act = r_act.reshape(n_seeds, batch)
        b_logp_old = r_logp.reshape(n_seeds, batch)
        b_adv = adv.reshape(n_seeds, batch)
        counts = policy.state_counts(b_obs, n_states)
        flat_s = (seeds_col * n_states + b_obs).ravel()
        ret_sum = np.bincount(
            flat_s, weights=ret.reshape(-1), minlength=n_seeds * n_states
        ).reshape(n_seeds, n_states)
        visited = counts > 0
        target = np.divide(ret_sum, counts, out=values_table.copy(), where=visited)
        values_table = values_table + config.value_lr * (target - values_table)
        if config.normalize_advantages:
            b_adv = (b_adv - b_adv.mean(axis=1, keepdims=True)) / (
                b_adv.std(axis=1, keepdims=True) + 1e-8
            )

        # --- epochs × minibatches of gradient ascent on the logits ---------------------------
        for k in range(config.n_epochs):
            perm = np.argsort(u_perm[:, k], axis=1, kind="stable")
            for m in range(config.n_minibatches):
                idx = perm[:, m * mb : (m + 1) * mb]
                o = np.take_along_axis(b_obs, idx, axis=1)
                a = np.take_along_axis(b_act, idx, axis=1)
                lp_old = np.take_along_axis(b_logp_old, idx, axis=1)
                adv_mb = np.take_along_axis(b_adv, idx, axis=1)
                probs_new = core.softmax(logits)
                lp_new = policy.gather_actions(core.log_softmax(logits), o, a)
                ratio = np.asarray(core.ppo_ratio(lp_new, lp_old), dtype=np.float64)
                g = surrogate_dlogp(arm, ratio, adv_mb, eps)
                grad = policy.logits_grad(probs_new, o, a, g)
                if arm == "kl_penalty":
                    grad += kl_penalty_logits_grad(
                        probs_new, probs_old, policy.state_counts(o, n_states), mb, beta
                    )
                logits = logits + config.lr * grad
                budget["gradient_steps"] += 1
                budget["samples_in_gradients"] += mb
            budget["epochs"] += 1

        # --- per-update diagnostics on the whole batch ------------------------------------
        probs_new = core.softmax(logits)
        lp_new = policy.gather_actions(core.log_softmax(logits), b_obs, b_act)
        ratio = np.asarray(core.ppo_ratio(lp_new, b_logp_old), dtype=np.float64)
        kl_state = np.asarray(core.kl_divergence(probs_old, probs_new), dtype=np.float64)
        kl_exact = (kl_state * counts).sum(axis=1) / batch
        ent_state = np.asarray(core.entropy(probs_new), dtype=np.float64)
        out["train_reward"][:, u] = r_rew.mean(axis=(1, 2))
        out["train_return"][:, u] = np.divide(
            ro.finished_return_sum,
            ro.finished_count,
            out=np.full(n_seeds, np.nan),
            where=ro.finished_count > 0,
        )
        out["entropy"][:, u] = (ent_state * counts).sum(axis=1) / batch
        out["kl_k1"][:, u] = np.mean(core.approx_kl(lp_new, b_logp_old, estimator="k1"), axis=1)
        out["kl_k3"][:, u] = np.mean(core.approx_kl(lp_new, b_logp_old, estimator="k3"), axis=1)
        out["kl_exact"][:, u] = kl_exact
        out["clip_frac_outside"][:, u] = core.clip_fraction(
            ratio, b_adv, eps, definition="outside", axis=1
        )
        out["clip_frac_binding"][:, u] = core.clip_fraction(
            ratio, b_adv, eps, definition="binding", axis=1
        )
        out["ratio_mean"][:, u] = ratio.mean(axis=1)
        out["ratio_min"][:, u] = ratio.min(axis=1)
        out["ratio_max"][:, u] = ratio.max(axis=1)
        out["ratio_std"][:, u] = ratio.std(axis=1)
        if arm == "kl_penalty":
            out["beta"][:, u] = beta
            beta = np.minimum(
                np.asarray(
                    # A non-finite KL (a probability underflowed to 0) counts as too large.
                    core.adaptive_kl_beta(
                        beta,
                        np.where(np.isfinite(kl_exact), kl_exact, np.finfo(np.float64).max),
                        config.kl_target,
                    ),
                    dtype=np.float64,
                ),
                min(config.beta_cap, _BETA_CEILING),
            )

        # --- evaluation episodes with the updated policy ------------------------------------
        out["eval_return"][:, u] = _evaluate(env, probs_new, u_eval, noise_eval)
        budget["eval_episodes"] += config.n_eval_episodes
        if progress is not None:
            progress(1)
    return out, budget


def _evaluate(
    env: Env, probs: FloatArray, uniforms: FloatArray, noise: FloatArray | None
) -> FloatArray:
    """Mean undiscounted return of fresh episodes, ``uniforms`` ``(S, horizon, n_episodes)``."""
    n_seeds, horizon, n_episodes = uniforms.shape
    obs = env.reset((n_seeds, n_episodes))
    total = np.zeros((n_seeds, n_episodes))
    active = np.ones((n_seeds, n_episodes), dtype=np.bool_)
    for t in range(horizon):
        act = policy.sample_actions(policy.gather_states(probs, obs), uniforms[:, t])
        elapsed = np.full(obs.shape, t, dtype=np.int64)
        tr = env.step(obs, elapsed, act, None if noise is None else noise[:, t])
        total += np.where(active, tr.reward, 0.0)
        active &= ~(tr.terminated | tr.truncated)
        obs = tr.next_obs
        if not active.any():
            break
    return np.asarray(total.mean(axis=1), dtype=np.float64)


def run_experiment(
    config: ExperimentConfig,
    *,
    seed_indices: Sequence[int] | None = None,
    progress: Progress | None = None,
) -> Results:
    """Run every arm of ``config`` on the same seeds and budgets; pure (no I/O, no prints).

    Args:
        config: the experiment.
        seed_indices: which seed streams to run (default ``range(config.n_seeds)``); a
            seed's results do not depend on the others, so a per-seed loop over
            ``seed_indices=[i]`` reproduces the vectorised run row by row.
        progress: called with ``1`` after each (arm, update); e.g. ``tqdm.update``.
    """
    indices = tuple(range(config.n_seeds)) if seed_indices is None else tuple(seed_indices)
    if not indices:
        raise ValueError("seed_indices: must not be empty")
    metrics: dict[str, dict[str, FloatArray]] = {}
    budget: dict[str, dict[str, int]] = {}
    for arm in config.arms:
        metrics[arm], budget[arm] = _run_arm(config, arm, indices, progress)  # type: ignore[arg-type]
    return Results(config=config, seed_indices=indices, metrics=metrics, budget=budget)
