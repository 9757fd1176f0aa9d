"""Small episodic environments, vectorised over a leading batch of seeds and copies.

Both environments are pure: ``reset`` and ``step`` take and return integer arrays of any
shape (typically ``(n_seeds, n_envs)``), so one call advances every copy in every seed.
Each step reports two flags, following the Gymnasium convention:

* ``terminated`` — the episode reached a terminal state; its value is 0 and GAE must not
  bootstrap through it;
* ``truncated`` — the time limit cut the episode; the state was *not* terminal, so GAE
  bootstraps from the value of ``next_obs`` (the observation before the automatic reset).

``step`` returns the *pre-reset* ``next_obs``; the rollout collector resets finished copies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


@dataclass(frozen=True)
class Transition:
    """The result of one vectorised step (all arrays share the action's shape)."""

    next_obs: IntArray
    reward: FloatArray
    terminated: BoolArray
    truncated: BoolArray


class Env(Protocol):
    """What the runner needs from an environment."""

    @property
    def n_states(self) -> int: ...

    @property
    def n_actions(self) -> int: ...

    @property
    def horizon(self) -> int:
        """Maximum episode length (the time limit that triggers truncation)."""
        ...

    @property
    def uses_noise(self) -> bool:
        """Whether ``step`` reads its ``noise`` argument (standard normal draws)."""
        ...

    def reset(self, shape: tuple[int, ...]) -> IntArray: ...

    def step(
        self, obs: IntArray, elapsed: IntArray, action: IntArray, noise: FloatArray | None
    ) -> Transition:
        """Advance every copy; ``elapsed`` counts the steps already taken in the episode."""
        ...


@dataclass(frozen=True)
class Bandit:
    """A K-armed Gaussian bandit: one state, one step per episode (always terminated).

    Reward of arm ``a`` is ``means[a] + noise_std * z`` with ``z ~ N(0, 1)``.
    """

    means: tuple[float, ...] = (0.0, 0.2, 0.4, 0.6, 1.0)
    noise_std: float = 0.5

    def __post_init__(self) -> None:
        if len(self.means) < 2:
            raise ValueError(f"means: a bandit needs at least 2 arms, got {len(self.means)}")
        if not self.noise_std >= 0.0:
            raise ValueError(f"noise_std: must be >= 0, got {self.noise_std}")

    @property
    def n_states(self) -> int:
        return 1

    @property
    def n_actions(self) -> int:
        return len(self.means)

    @property
    def horizon(self) -> int:
        return 1

    @property
    def uses_noise(self) -> bool:
        return self.noise_std > 0.0

    def reset(self, shape: tuple[int, ...]) -> IntArray:
        return np.zeros(shape, dtype=np.int64)

    def step(
        self, obs: IntArray, elapsed: IntArray, action: IntArray, noise: FloatArray | None
    ) -> Transition:
        reward = np.asarray(self.means, dtype=np.float64)[action]
        if noise is not None and self.noise_std > 0.0:
            reward = reward + self.noise_std * noise
        return Transition(
            next_obs=np.zeros_like(obs),
            reward=reward,
            terminated=np.ones(action.shape, dtype=np.bool_),
            truncated=np.zeros(action.shape, dtype=np.bool_),
        )


@dataclass(frozen=True)
class Chain:
    """A short deterministic chain with a tempting early exit and a time limit.

    States ``0 .. length-1``; every episode starts in state 0. Action 0 moves left,
    action 1 moves right. Moving left *from state 0* ends the episode (terminated) with
    reward ``exit_reward``; reaching state ``length-1`` ends it (terminated) with reward
    ``goal_reward``; every other step gives 0. An episode still running after ``horizon``
    steps is truncated (not terminated). The goal state is never observed as a current
    state, it only appears as a terminal ``next_obs``.
    """

    length: int = 5
    exit_reward: float = 0.1
    goal_reward: float = 1.0
    max_steps: int = 10

    def __post_init__(self) -> None:
        if self.length < 2:
            raise ValueError(f"length: a chain needs at least 2 states, got {self.length}")
        if self.max_steps < 1:
            raise ValueError(f"max_steps: must be >= 1, got {self.max_steps}")

    @property
    def n_states(self) -> int:
        return self.length

    @property
    def n_actions(self) -> int:
        return 2

    @property
    def horizon(self) -> int:
        return self.max_steps

    @property
    def uses_noise(self) -> bool:
        return False

    def reset(self, shape: tuple[int, ...]) -> IntArray:
        return np.zeros(shape, dtype=np.int64)

    def step(
        self, obs: IntArray, elapsed: IntArray, action: IntArray, noise: FloatArray | None
    ) -> Transition:
        move = np.where(action == 1, 1, -1)
        exited = (obs == 0) & (move < 0)
        next_obs = np.clip(obs + move, 0, self.length - 1).astype(np.int64)
        at_goal = next_obs == self.length - 1
        reward = np.where(at_goal, self.goal_reward, np.where(exited, self.exit_reward, 0.0))
        terminated = exited | at_goal
        truncated = ~terminated & (elapsed + 1 >= self.max_steps)
        return Transition(
            next_obs=next_obs,
            reward=reward.astype(np.float64),
            terminated=terminated,
            truncated=truncated,
        )


def make_env(name: str, **kwargs: object) -> Env:
    """Build an environment by name (``"bandit"`` or ``"chain"``)."""
    if name == "bandit":
        return Bandit(**kwargs)  # type: ignore[arg-type]
    if name == "chain":
        return Chain(**kwargs)  # type: ignore[arg-type]
    raise ValueError(f"env: unknown environment {name!r} (choose 'bandit' or 'chain')")
