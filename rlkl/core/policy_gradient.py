"""Exact policy gradients for a softmax (tabular / bandit) policy, the REINFORCE
score-function estimate, its exact mean and variance, the KL gradient, and one exact
KL-regularised update.

Setting: a categorical policy ``π = softmax(z)`` over ``K`` actions with logits ``z`` and a
reward ``r(a)`` per action (a bandit, or one state of a tabular policy). Shapes: ``logits``
and ``rewards`` are ``[..., K]`` and broadcast; actions are integer ``[...]``. Gradients are
with respect to the logits and have shape ``[..., K]`` (always arrays); per-distribution
scalars are ``numpy.float64`` for a single distribution, else float64 arrays.

Sources: R. J. Williams, "Simple statistical gradient-following algorithms for
connectionist reinforcement learning", Machine Learning 8 (1992),
https://doi.org/10.1007/BF00992696 (REINFORCE, baselines); Sutton & Barto, *Reinforcement
Learning: An Introduction* (2nd ed.), §2.8 (gradient bandit) and §13.3–13.4,
http://incompleteideas.net/book/the-book-2nd.html .

Identities used (``e_a`` the one-hot vector of action ``a``)::

    ∇_z log π(a) = e_a − π
    ∇_z J = Σ_a π(a) r(a) (e_a − π) = π ⊙ (r − b),  b = Σ_a π(a) r(a),  J = Σ_a π(a) r(a)

A note on variance, checked in the tests: the "exact" baseline b = E_π[r] leaves the
expected estimate unchanged but does **not** reduce the variance for every (π, r). The
total variance is a quadratic in a constant baseline c minimised at
``c* = E[‖e_a − π‖² r(a)] / E[‖e_a − π‖²]``; e.g. π = [0.9, 0.1], r = [1, 0] has
variance 0.0018 with b = 0 but 0.1152 with b = E_π[r] = 0.9. It does reduce variance
whenever rewards share a large common offset (|E_π r − c*| < |c*|).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, overload

import numpy as np
from numpy.typing import ArrayLike

from rlkl.core._arrays import FloatArray, FloatOrArray, anywhere, finite, out, probabilities
from rlkl.core.distributions import log_softmax

__all__ = [
    "Baseline",
    "expected_reinforce_grad",
    "kl_grad",
    "kl_regularized_policy",
    "policy_gradient",
    "reinforce_grad",
    "reinforce_grad_variance",
    "reinforce_step",
]

Baseline = Literal["exact", "none"] | float
"""``"exact"`` = b = Σ_a π(a) r(a) (detached); ``"none"`` = 0; or a constant baseline."""


def _policy(logits: ArrayLike, rewards: ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Broadcast logits and rewards to ``[..., K]``; return (log π, π, r)."""
    logp = log_softmax(logits)
    r = finite(rewards, "rewards")
    if r.ndim == 0:
        raise ValueError("rewards must have a category axis [..., K]")
    if anywhere(np.isinf(r)):
        raise ValueError("rewards contains an infinite entry")
    if r.shape[-1] != logp.shape[-1]:
        raise ValueError(f"rewards has {r.shape[-1]} actions but logits has {logp.shape[-1]}")
    logp, r = np.broadcast_arrays(logp, r)
    return logp, np.exp(logp), r


def _baseline(pi: FloatArray, r: FloatArray, baseline: Baseline) -> FloatArray:
    """The baseline per distribution, shape ``[...]``."""
    if isinstance(baseline, str):
        if baseline == "exact":
            b: FloatArray = np.sum(pi * r, axis=-1)
            return b
        if baseline == "none":
            return np.zeros(pi.shape[:-1])
        raise ValueError(f"baseline must be 'exact', 'none' or a number, got {baseline!r}")
    c = finite(baseline, "baseline")
    if anywhere(np.isinf(c)):
        raise ValueError("baseline must be finite")
    return np.broadcast_to(c, pi.shape[:-1]).astype(np.float64)


def policy_gradient(logits: ArrayLike, rewards: ArrayLike) -> FloatArray:
    r"""Exact gradient of the expected reward with respect to the softmax logits.

    Equation::

        J(z) = Σ_a π(a) r(a),   π = softmax(z)
        ∇_z J = π ⊙ (r − b),    b = Σ_a π(a) r(a)

    Source: Williams (1992), https://doi.org/10.1007/BF00992696 ; Sutton & Barto 2nd ed.
    §2.8, http://incompleteideas.net/book/the-book-2nd.html .

    Args:
        logits: ``[..., K]``.
        rewards: ``[..., K]``, broadcast with ``logits``.

    Returns:
        ``[..., K]`` float64 array; its entries sum to 0 over the last axis.
    """
    _, pi, r = _policy(logits, rewards)
    b = np.sum(pi * r, axis=-1, keepdims=True)
    g: FloatArray = pi * (r - b)
    return g


def reinforce_grad(
    logits: ArrayLike,
    rewards: ArrayLike,
    action: ArrayLike,
    *,
    baseline: Baseline = "exact",
) -> FloatArray:
    r"""REINFORCE (score-function) estimate of ∇_z J from one sampled action.

    Equation::

        ĝ(a) = ∇_z log π(a) · (r(a) − b) = (e_a − π) (r(a) − b)

    The baseline ``b`` is detached (it does not depend on the sampled action):
    ``"exact"`` → ``b = Σ_a π(a) r(a)``; ``"none"`` → ``b = 0``; a number → that constant.
    For ``a ~ π``, ``E[ĝ] = policy_gradient(logits, rewards)`` for every constant baseline
    (see :func:`expected_reinforce_grad`).

    Source: Williams (1992), https://doi.org/10.1007/BF00992696 .

    Args:
        logits: ``[..., K]``.
        rewards: ``[..., K]``, broadcast with ``logits``.
        action: integer ``[...]`` in ``[0, K)``, broadcast with the batch shape.
        baseline: ``"exact"`` (default), ``"none"`` or a constant (scalar or ``[...]``).

    Returns:
        ``[..., K]`` float64 array.
    """
    _, pi, r = _policy(logits, rewards)
    k = pi.shape[-1]
    act = np.asarray(action)
    if not np.issubdtype(act.dtype, np.integer):
        raise ValueError(f"action must be integer, got dtype {act.dtype}")
    if anywhere((act < 0) | (act >= k)):
        raise ValueError(f"action must lie in [0, {k})")
    batch = np.broadcast_shapes(pi.shape[:-1], act.shape)
    pi = np.broadcast_to(pi, (*batch, k))
    r = np.broadcast_to(r, (*batch, k))
    act = np.broadcast_to(act, batch)
    b = _baseline(pi, r, baseline)
    onehot = (np.arange(k) == act[..., None]).astype(np.float64)
    r_a = np.take_along_axis(r, act[..., None], axis=-1)[..., 0]
    g: FloatArray = (onehot - pi) * (r_a - b)[..., None]
    return g


def _all_estimates(
    logits: ArrayLike, rewards: ArrayLike, baseline: Baseline
) -> tuple[FloatArray, FloatArray]:
    """(π ``[..., K]``, ĝ for every action ``[..., K(action), K(component)]``)."""
    _, pi, r = _policy(logits, rewards)
    k = pi.shape[-1]
    b = _baseline(pi, r, baseline)
    score = np.eye(k) - pi[..., None, :]  # row a: e_a − π
    g_all: FloatArray = score * (r - b[..., None])[..., :, None]
    return pi, g_all


def expected_reinforce_grad(
    logits: ArrayLike, rewards: ArrayLike, *, baseline: Baseline
) -> FloatArray:
    r"""Exact expectation of :func:`reinforce_grad` under ``a ~ π``, by enumeration.

    Equation::

        E_a~π[ĝ(a)] = Σ_a π(a) (e_a − π) (r(a) − b)

    summed over every action (no sampling, no closed form). Equals
    :func:`policy_gradient` for every constant ``b``, because ``Σ_a π(a)(e_a − π) = 0``.

    Source: Williams (1992), https://doi.org/10.1007/BF00992696 .

    Args:
        logits: ``[..., K]``.
        rewards: ``[..., K]``.
        baseline: as in :func:`reinforce_grad`.

    Returns:
        ``[..., K]`` float64 array.
    """
    pi, g_all = _all_estimates(logits, rewards, baseline)
    e: FloatArray = np.sum(pi[..., :, None] * g_all, axis=-2)
    return e


@overload
def reinforce_grad_variance(
    logits: Sequence[float],
    rewards: Sequence[float],
    *,
    baseline: Baseline,
    per_component: Literal[False] = False,
) -> np.float64: ...
@overload
def reinforce_grad_variance(
    logits: ArrayLike,
    rewards: ArrayLike,
    *,
    baseline: Baseline,
    per_component: Literal[True],
) -> FloatArray: ...
@overload
def reinforce_grad_variance(
    logits: ArrayLike,
    rewards: ArrayLike,
    *,
    baseline: Baseline,
    per_component: bool = False,
) -> FloatOrArray: ...


def reinforce_grad_variance(
    logits: ArrayLike,
    rewards: ArrayLike,
    *,
    baseline: Baseline,
    per_component: bool = False,
) -> FloatOrArray:
    r"""Exact variance of the REINFORCE estimate under ``a ~ π``, by enumeration.

    Definition (pinned): the **total variance**, i.e. the trace of the covariance matrix
    of the vector estimate ĝ(a)::

        Var[ĝ] = E_a~π ‖ĝ(a) − E[ĝ]‖² = Σ_k Σ_a π(a) (ĝ_k(a) − E[ĝ_k])²

    With ``per_component=True`` the diagonal ``Σ_a π(a)(ĝ_k(a) − E[ĝ_k])²`` is returned
    instead (shape ``[..., K]``); it sums to the total.

    Example: π = [0.5, 0.5] (z = [0, 0]), r = [1, 0]: ĝ(0) = [0.5, −0.5]·(1 − b),
    ĝ(1) = [−0.5, 0.5]·(0 − b); with b = 0 the variance is 0.125, with b = E_π r = 0.5 it
    is 0 (the estimate becomes exact).

    Source: Williams (1992), https://doi.org/10.1007/BF00992696 ; on baselines and
    variance, Greensmith, Bartlett & Baxter, JMLR 5 (2004),
    https://www.jmlr.org/papers/v5/greensmith04a.html .

    Args:
        logits: ``[..., K]``.
        rewards: ``[..., K]``.
        baseline: as in :func:`reinforce_grad`.
        per_component: return the diagonal of the covariance instead of its trace.

    Returns:
        ``[...]`` (``numpy.float64`` for a single distribution), or ``[..., K]``.
    """
    pi, g_all = _all_estimates(logits, rewards, baseline)
    mean = np.sum(pi[..., :, None] * g_all, axis=-2, keepdims=True)
    diag = np.sum(pi[..., :, None] * (g_all - mean) ** 2, axis=-2)
    if per_component:
        return out(diag)
    return out(np.sum(diag, axis=-1))


def kl_grad(logits: ArrayLike, ref_probs: ArrayLike) -> FloatArray:
    r"""Exact gradient of KL(π‖π_ref) with respect to the softmax logits of π.

    Equation::

        KL(π‖π_ref) = Σ_a π(a) log(π(a) / π_ref(a))
        ∇_z KL = π ⊙ (log(π / π_ref) − KL(π‖π_ref))

    Terms with π(a) = 0 (a ``-inf`` logit) contribute 0.

    Source: the softmax Jacobian ∂π_a/∂z_k = π_a(δ_ak − π_k) applied to the KL of
    Kullback & Leibler (1951), https://doi.org/10.1214/aoms/1177729694 ; the same penalty as
    the RLHF objective of Ouyang et al. (2022), https://arxiv.org/abs/2203.02155 .

    Args:
        logits: ``[..., K]``.
        ref_probs: ``[..., K]`` probabilities (validated; ``ValueError`` naming
            ``"ref_probs"``), broadcast with ``logits``.

    Raises:
        ValueError: also when ``π_ref(a) = 0 < π(a)`` (the KL is infinite, no gradient).

    Returns:
        ``[..., K]`` float64 array; entries sum to 0 over the last axis.
    """
    logp = log_softmax(logits)
    ref = probabilities(ref_probs, "ref_probs")
    if ref.shape[-1] != logp.shape[-1]:
        raise ValueError(f"ref_probs has {ref.shape[-1]} actions but logits has {logp.shape[-1]}")
    logp, ref = np.broadcast_arrays(logp, ref)
    pi = np.exp(logp)
    if anywhere((pi > 0) & (ref == 0)):
        raise ValueError("ref_probs is 0 where π > 0: KL(π‖ref_probs) is infinite")
    with np.errstate(divide="ignore"):
        log_ref = np.log(ref)
    d = np.where(pi > 0, logp - np.where(pi > 0, log_ref, 0.0), 0.0)
    kl = np.sum(pi * d, axis=-1, keepdims=True)
    g: FloatArray = pi * (d - kl)
    return g


def reinforce_step(
    logits: ArrayLike,
    rewards: ArrayLike,
    ref_probs: ArrayLike,
    *,
    lr: float,
    beta: float,
) -> FloatArray:
    r"""One exact KL-regularised policy-gradient ascent step on the logits.

    Equation (gradient ascent on J − β·KL(π‖π_ref) with the exact gradient, i.e. the
    REINFORCE update with the exact baseline averaged over all actions)::

        z ← z + lr · ( π ⊙ (r − Σ π r)  −  β · π ⊙ (log(π/π_ref) − KL(π‖π_ref)) )
          = z + lr · (policy_gradient(z, r) − β · kl_grad(z, π_ref))

    For β > 0 the unique fixed point (the maximiser) is the closed form
    ``π* ∝ π_ref · exp(r / β)`` (:func:`kl_regularized_policy`); repeated steps with a small
    enough ``lr`` converge to it.

    Sources: Williams (1992), https://doi.org/10.1007/BF00992696 ; KL-regularised
    objective and its optimum: Ziegler et al. (2019), https://arxiv.org/abs/1909.08593 ;
    Rafailov et al. (2023), eq. 4, https://arxiv.org/abs/2305.18290 .

    Args:
        logits: ``[..., K]``.
        rewards: ``[..., K]``.
        ref_probs: ``[..., K]`` reference probabilities.
        lr: step size > 0.
        beta: KL coefficient β ≥ 0.

    Returns:
        the new logits ``[..., K]`` (float64 array; the input is not modified).
    """
    lr_f = float(lr)
    beta_f = float(beta)
    if not (np.isfinite(lr_f) and lr_f > 0):
        raise ValueError(f"lr must be a finite number > 0, got {lr!r}")
    if not (np.isfinite(beta_f) and beta_f >= 0):
        raise ValueError(f"beta must be a finite number >= 0, got {beta!r}")
    z = np.asarray(logits, dtype=np.float64)
    step = policy_gradient(z, rewards) - beta_f * kl_grad(z, ref_probs)
    new: FloatArray = z + lr_f * step
    return new


def kl_regularized_policy(rewards: ArrayLike, ref_probs: ArrayLike, *, beta: float) -> FloatArray:
    r"""Closed-form maximiser of E_π[r] − β·KL(π‖π_ref) over categorical π.

    Equation::

        π*(a) = π_ref(a) exp(r(a)/β) / Σ_b π_ref(b) exp(r(b)/β)

    computed stably in log space (``-inf`` for π_ref(a) = 0).

    Sources: Ziegler et al. (2019), https://arxiv.org/abs/1909.08593 ; Rafailov et al.
    (2023), eq. 4, https://arxiv.org/abs/2305.18290 .

    Args:
        rewards: ``[..., K]``.
        ref_probs: ``[..., K]`` probabilities.
        beta: β > 0.

    Returns:
        ``[..., K]`` float64 probabilities.
    """
    beta_f = float(beta)
    if not (np.isfinite(beta_f) and beta_f > 0):
        raise ValueError(f"beta must be a finite number > 0, got {beta!r}")
    ref = probabilities(ref_probs, "ref_probs")
    r = finite(rewards, "rewards")
    if anywhere(np.isinf(r)):
        raise ValueError("rewards contains an infinite entry")
    with np.errstate(divide="ignore"):
        z = np.log(ref) + r / beta_f
    m = np.max(z, axis=-1, keepdims=True)
    e = np.exp(z - m)
    p: FloatArray = e / np.sum(e, axis=-1, keepdims=True)
    return p
