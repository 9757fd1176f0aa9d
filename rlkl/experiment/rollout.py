"""Rollout collection with a frozen policy, vectorised over seeds and environment copies.

A rollout keeps, for every step, what PPO and GAE need later: the observation, the action,
its log-probability under the rollout policy π_old, the reward, the pre-reset next
observation, and the ``terminated`` / ``truncated`` flags. Arrays are
``(n_seeds, n_envs, n_steps)`` — time on the last axis, as :func:`rlkl.core.gae` expects.
Finished copies are reset automatically; the :class:`Cursor` carries unfinished episodes
over to the next rollout.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rlkl import core
from rlkl.experiment import policy
from rlkl.experiment.envs import BoolArray, Env, FloatArray, IntArray


@dataclass(frozen=True)
class Cursor:
    """Where every environment copy is: observation, steps taken and return so far."""

    obs: IntArray
    elapsed: IntArray
    episode_return: FloatArray

    @classmethod
    def start(cls, env: Env, n_seeds: int, n_envs: int) -> Cursor:
        shape = (n_seeds, n_envs)
        return cls(env.reset(shape), np.zeros(shape, dtype=np.int64), np.zeros(shape))


@dataclass(frozen=True)
class Rollout:
    """One rollout segment, arrays ``(n_seeds, n_envs, n_steps)``."""

    obs: IntArray
    action: IntArray
    logp_old: FloatArray
    reward: FloatArray
    next_obs: IntArray
    terminated: BoolArray
    truncated: BoolArray
    finished_return_sum: FloatArray
    """Per seed: sum of the undiscounted returns of the episodes that ended in the segment."""
    finished_count: FloatArray
    """Per seed: how many episodes ended in the segment."""


def collect_rollout(
    env: Env,
    logits: FloatArray,
    cursor: Cursor,
    uniforms: FloatArray,
    noise: FloatArray | None,
) -> tuple[Rollout, Cursor]:
    """Run ``n_steps`` steps of every copy with π_old = softmax(``logits``).

    Args:
        env: the environment.
        logits: π_old's logits ``(n_seeds, n_states, n_actions)`` (frozen for the segment).
        cursor: the copies' state at the start of the segment.
        uniforms: ``(n_seeds, n_steps, n_envs)`` in [0, 1), one per action (inverse CDF).
        noise: ``(n_seeds, n_steps, n_envs)`` standard normals for the environment, or None.
    """
    n_seeds, t_steps, n_envs = uniforms.shape
    probs = core.softmax(logits)
    log_probs = core.log_softmax(logits)
    shape = (n_seeds, n_envs, t_steps)
    obs_t = np.empty(shape, dtype=np.int64)
    act_t = np.empty(shape, dtype=np.int64)
    next_t = np.empty(shape, dtype=np.int64)
    logp_t = np.empty(shape)
    rew_t = np.empty(shape)
    term_t = np.empty(shape, dtype=np.bool_)
    trunc_t = np.empty(shape, dtype=np.bool_)
    finished_sum = np.zeros(n_seeds)
    finished_n = np.zeros(n_seeds)
    obs, elapsed, ep_return = cursor.obs, cursor.elapsed, cursor.episode_return
    for t in range(t_steps):
        act = policy.sample_actions(policy.gather_states(probs, obs), uniforms[:, t])
        tr = env.step(obs, elapsed, act, None if noise is None else noise[:, t])
        obs_t[..., t], act_t[..., t], next_t[..., t] = obs, act, tr.next_obs
        logp_t[..., t] = policy.gather_actions(log_probs, obs, act)
        rew_t[..., t], term_t[..., t], trunc_t[..., t] = tr.reward, tr.terminated, tr.truncated
        ep_return = ep_return + tr.reward
        done = tr.terminated | tr.truncated
        finished_sum += np.where(done, ep_return, 0.0).sum(axis=1)
        finished_n += done.sum(axis=1)
        ep_return = np.where(done, 0.0, ep_return)
        obs = np.where(done, env.reset(obs.shape), tr.next_obs)
        elapsed = np.where(done, 0, elapsed + 1)
    rollout = Rollout(
        obs=obs_t,
        action=act_t,
        logp_old=logp_t,
        reward=rew_t,
        next_obs=next_t,
        terminated=term_t,
        truncated=trunc_t,
        finished_return_sum=finished_sum,
        finished_count=finished_n,
    )
    return rollout, Cursor(obs, elapsed, ep_return)


def advantages(
    rollout: Rollout, values: FloatArray, *, gamma: float, lam: float
) -> tuple[FloatArray, FloatArray]:
    """GAE advantages and λ-returns of a rollout with a tabular critic ``values[seed, state]``.

    Calls :func:`rlkl.core.gae` with ``V(obs_t)`` and ``V(next_obs_t)`` (the pre-reset next
    observation, so a truncated step bootstraps from the state the time limit cut).
    """
    seeds = np.arange(values.shape[0])[:, None, None]
    return core.gae(
        rollout.reward,
        values[seeds, rollout.obs],
        values[seeds, rollout.next_obs],
        rollout.terminated,
        rollout.truncated,
        gamma=gamma,
        lam=lam,
    )
