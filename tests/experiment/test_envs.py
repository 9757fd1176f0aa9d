"""The environments' transitions and their terminal / truncation flags."""

from __future__ import annotations

import numpy as np
import pytest

from rlkl.experiment import Bandit, Chain, make_env


def test_bandit_every_step_terminates_and_never_truncates() -> None:
    env = Bandit(means=(0.0, 1.0, 2.0), noise_std=0.5)
    obs = env.reset((2, 3))
    action = np.array([[0, 1, 2], [2, 1, 0]])
    noise = np.array([[0.0, 1.0, -2.0], [0.5, 0.0, 0.0]])
    tr = env.step(obs, np.zeros_like(obs), action, noise)
    assert tr.terminated.all() and not tr.truncated.any()
    np.testing.assert_allclose(tr.reward, [[0.0, 1.5, 1.0], [2.25, 1.0, 0.0]], rtol=0, atol=1e-15)
    assert env.n_states == 1 and env.n_actions == 3 and env.horizon == 1


def test_chain_exit_goal_and_plain_moves() -> None:
    env = Chain(length=4, exit_reward=0.1, goal_reward=1.0, max_steps=10)
    obs = np.array([0, 0, 1, 2, 2])
    action = np.array([0, 1, 0, 1, 0])  # exit, right, left, reach goal, left
    tr = env.step(obs, np.zeros_like(obs), action, None)
    np.testing.assert_array_equal(tr.next_obs, [0, 1, 0, 3, 1])
    np.testing.assert_array_equal(tr.reward, [0.1, 0.0, 0.0, 1.0, 0.0])
    np.testing.assert_array_equal(tr.terminated, [True, False, False, True, False])
    assert not tr.truncated.any()


def test_chain_time_limit_truncates_but_does_not_terminate() -> None:
    env = Chain(length=5, max_steps=3)
    obs = np.array([1, 1, 3])
    elapsed = np.array([1, 2, 2])  # the third step of an episode hits the limit
    tr = env.step(obs, elapsed, np.array([1, 1, 1]), None)
    # copy 0: step 2 of 3, not done; copy 1: limit, truncated; copy 2: reaches the goal on
    # the limit step -> terminated wins (a true terminal state), not truncated.
    np.testing.assert_array_equal(tr.terminated, [False, False, True])
    np.testing.assert_array_equal(tr.truncated, [False, True, False])
    np.testing.assert_array_equal(tr.next_obs, [2, 2, 4])  # pre-reset observation


def test_flags_are_exclusive_over_a_random_walk() -> None:
    env = Chain(length=3, max_steps=4)
    rng = np.random.default_rng(0)
    obs = env.reset((1000,))
    elapsed = np.zeros_like(obs)
    for _ in range(20):
        tr = env.step(obs, elapsed, rng.integers(0, 2, obs.shape), None)
        assert not (tr.terminated & tr.truncated).any()
        done = tr.terminated | tr.truncated
        assert (elapsed[tr.truncated] == 3).all()
        obs = np.where(done, 0, tr.next_obs)
        elapsed = np.where(done, 0, elapsed + 1)


def test_make_env_and_validation() -> None:
    assert isinstance(make_env("chain", length=3), Chain)
    assert isinstance(make_env("bandit"), Bandit)
    with pytest.raises(ValueError, match="env"):
        make_env("gridworld")
    with pytest.raises(ValueError, match="length"):
        Chain(length=1)
    with pytest.raises(ValueError, match="means"):
        Bandit(means=(1.0,))
