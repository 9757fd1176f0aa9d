"""Rollouts keep log-probabilities and flags; GAE sees the pre-reset next observation."""

from __future__ import annotations

import numpy as np

from rlkl import core
from rlkl.experiment import Chain
from rlkl.experiment.rollout import Cursor, advantages, collect_rollout


def _always_right(n_seeds: int, n_states: int) -> np.ndarray:
    logits = np.zeros((n_seeds, n_states, 2))
    logits[..., 1] = 50.0  # π(right) = 1 − e^{-50}: deterministic to double precision
    return logits


def test_chain_rollout_flags_resets_and_logps() -> None:
    env = Chain(length=4, max_steps=2)  # the time limit hits before the goal
    logits = _always_right(2, 4)
    cursor = Cursor.start(env, n_seeds=2, n_envs=3)
    uniforms = np.full((2, 5, 3), 0.5)
    rollout, cursor = collect_rollout(env, logits, cursor, uniforms, None)
    # every copy: 0 -> 1 -> 2 (truncated at 2 steps, pre-reset next_obs 2), reset, repeat
    np.testing.assert_array_equal(rollout.obs[0, 0], [0, 1, 0, 1, 0])
    np.testing.assert_array_equal(rollout.next_obs[0, 0], [1, 2, 1, 2, 1])
    np.testing.assert_array_equal(rollout.truncated[0, 0], [False, True, False, True, False])
    assert not rollout.terminated.any()
    assert (rollout.action == 1).all()
    expected_logp = core.log_softmax(logits)[0, 0, 1]
    np.testing.assert_allclose(rollout.logp_old, expected_logp, rtol=0, atol=0)
    np.testing.assert_array_equal(rollout.finished_count, [6, 6])  # 2 per copy × 3 copies
    # the unfinished episode carries over: one step taken, at state 1
    np.testing.assert_array_equal(cursor.obs, np.ones((2, 3)))
    np.testing.assert_array_equal(cursor.elapsed, np.ones((2, 3)))


def test_truncation_bootstraps_from_the_pre_reset_state_and_termination_does_not() -> None:
    env = Chain(length=3, max_steps=5, goal_reward=1.0)
    logits = _always_right(1, 3)
    rollout, _ = collect_rollout(
        env, logits, Cursor.start(env, 1, 1), np.full((1, 3, 1), 0.5), None
    )
    # 0 -> 1 -> 2 (goal, terminated), reset, 0 -> 1 (end of segment)
    np.testing.assert_array_equal(rollout.terminated[0, 0], [False, True, False])
    values = np.array([[0.25, 0.5, 7.0]])  # V(goal) = 7 must never be used
    adv, ret = advantages(rollout, values, gamma=0.9, lam=1.0)
    # t=2: 0 + 0.9·V(1) − V(0) = 0.45 − 0.25 = 0.2 (segment end bootstraps)
    # t=1: 1 − 0.5 = 0.5 (terminated: no bootstrap, recursion cut)
    # t=0: δ = 0 + 0.9·0.5 − 0.25 = 0.2; A = 0.2 + 0.9·0.5 = 0.65
    np.testing.assert_allclose(adv[0, 0], [0.65, 0.5, 0.2], rtol=0, atol=1e-15)
    np.testing.assert_allclose(ret[0, 0], [0.9, 1.0, 0.45], rtol=0, atol=1e-15)

    trunc_env = Chain(length=5, max_steps=2)
    rollout, _ = collect_rollout(
        trunc_env, _always_right(1, 5), Cursor.start(trunc_env, 1, 1), np.full((1, 2, 1), 0.5), None
    )
    values = np.array([[0.0, 0.0, 3.0, 0.0, 0.0]])
    adv, _ = advantages(rollout, values, gamma=0.5, lam=1.0)
    # truncated at t=1 in state 2: bootstrap 0.5·V(2) = 1.5; t=0: 0 + 0.5·(0 + 1.5) = 0.75
    np.testing.assert_allclose(adv[0, 0], [0.75, 1.5], rtol=0, atol=1e-15)
