"""The binding function table: every function and constant a claim expression may call.

The evaluator (:mod:`rlkl.claims.evaluation.expr`) knows no function of its own; it looks
names up here.
Every function in ``rlkl.core.__all__`` is callable under its own name unless it is listed in
:data:`EXCLUDED` with a reason; a function returning a tuple (``gae``: advantages and
returns) gives a tuple, so ``gae(...)[0]`` is the advantages. Besides a few numeric built-ins
and the core, this module holds the lesson-level
helpers built on the core (a threshold found from the gradient, a fixed sample). They raise
``ValueError`` for bad arguments; the evaluator reports it as an expression error.
"""

from __future__ import annotations

import inspect
import itertools
import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any, cast

import numpy as np

from rlkl import core

MAX_SAMPLES = 10_000_000


def clip_boundary(advantage: float, epsilon: float) -> float:
    """The ratio where the clipped objective's gradient switches on or off, found from the gradient.

    For ``advantage > 0`` the gradient ``ppo_clip_grad(r, A, ε)`` is nonzero for small r and zero
    above the boundary (1 + ε); for ``advantage < 0`` it is zero below the boundary (1 − ε).
    The boundary is located by bisection on :func:`rlkl.core.ppo_clip_grad` itself, so a
    threshold claim is verified through the gradient, not through the formula 1 ± ε.
    """
    if advantage == 0:
        raise ValueError("clip_boundary needs a nonzero advantage")
    return _bisect_boundary(float(advantage), float(epsilon))


@lru_cache(maxsize=1024)
def _bisect_boundary(advantage: float, epsilon: float) -> float:
    """:func:`clip_boundary` by bisection (~60 gradient calls; memoised: a pure function of
    two numbers, and lessons ask it for the same ε and advantage again and again)."""

    def flat(r: float) -> bool:
        return float(core.ppo_clip_grad(r, advantage, epsilon)) == 0.0

    lo, hi = 1e-9, 1.0 + 64.0 * max(epsilon, 1e-3)
    if flat(lo) == flat(hi):
        raise ValueError("the clipped objective's gradient never switches on this range")
    lo_flat = flat(lo)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break  # adjacent floats: more steps change nothing
        if flat(mid) == lo_flat:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def gold_peak(alpha: float, beta: float, form: str = "bon") -> float:
    """The distance d = √KL where Gao et al.'s gold reward is largest, found by ternary search
    on :func:`rlkl.core.gold_reward_bon` (``form="bon"``) or ``gold_reward_rl`` (``"rl"``)
    themselves, not from the closed forms α/(2β) and exp(α/β − 1): a turning-point claim is
    checked through the core. Needs α > 0 and β > 0 (a peak to find)."""
    a, b = float(alpha), float(beta)
    if not (a > 0 and b > 0 and math.isfinite(a) and math.isfinite(b)):
        raise ValueError("gold_peak needs alpha > 0 and beta > 0")
    if form not in ("bon", "rl"):
        raise ValueError(f"form must be 'bon' or 'rl', got {form!r}")
    gold = core.gold_reward_bon if form == "bon" else core.gold_reward_rl

    def value(d: float) -> float:
        return float(gold(d, alpha=a, beta=b))

    lo, hi = 0.0, 1.0
    while value(hi) >= 0.0 and hi < 1e12:  # past the zero crossing: the peak is inside
        hi *= 2.0
    for _ in range(300):
        left, right = lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0
        if value(left) < value(right):
            lo = left
        else:
            hi = right
    return 0.5 * (lo + hi)


MAX_SIGNAL_GROUP = 16


def signal_probability(p: float, group_size: float) -> float:
    """The probability that a group of independent 0/1 rewards (each 1 with probability ``p``)
    gives some answer a nonzero GRPO advantage, by enumeration of all 2^G groups: the sum of
    p^(ones)·(1 − p)^(zeros) over the groups where :func:`rlkl.core.grpo_advantages` is not
    all zero. A check of the closed form 1 − p^G − (1 − p)^G through the core itself."""
    prob, size = float(p), float(group_size)
    if not 0.0 <= prob <= 1.0:
        raise ValueError(f"p must lie in [0, 1], got {p!r}")
    if not (size.is_integer() and 2 <= size <= MAX_SIGNAL_GROUP):
        raise ValueError(f"the group size must be a whole number in [2, {MAX_SIGNAL_GROUP}]")
    groups = np.array(list(itertools.product((0.0, 1.0), repeat=int(size))))
    moving = np.any(core.grpo_advantages(groups) != 0.0, axis=-1)
    ones = groups.sum(axis=-1)
    weights = prob**ones * (1.0 - prob) ** (size - ones)
    return float(np.sum(weights[moving]))


class BudgetError(ValueError):
    """A lesson asked for more sampling work than :data:`LESSON_SAMPLE_BUDGET` allows."""


LESSON_SAMPLE_BUDGET = 2 * MAX_SAMPLES
"""Samples one lesson may draw in all its expressions together (``sampled_*``): about a
second of work. A deterministic budget, so a lesson passes or fails the same everywhere."""

_spent: ContextVar[list[int] | None] = ContextVar("rlkl_sample_budget", default=None)


@contextmanager
def evaluation_budget() -> Iterator[None]:
    """Count the samples drawn inside this block against :data:`LESSON_SAMPLE_BUDGET`, and
    the authors' modules called (:func:`used_versions`): one block per lesson; outside any
    block nothing is counted."""
    token, calls = _spent.set([0]), _used.set(set())
    try:
        yield
    finally:
        _spent.reset(token)
        _used.reset(calls)


def _sample(p_old: Any, n: int, seed: int) -> Any:
    if not 0 < int(n) <= MAX_SAMPLES:
        raise ValueError(f"the number of samples must be between 1 and {MAX_SAMPLES}")
    spent = _spent.get()
    if spent is not None:
        spent[0] += int(n)
        if spent[0] > LESSON_SAMPLE_BUDGET:
            raise BudgetError(
                f"this lesson's expressions draw more than {LESSON_SAMPLE_BUDGET} samples in "
                "all; the evaluation budget is spent (use fewer or smaller samples)")
    old = np.asarray(p_old, dtype=np.float64)
    return np.random.default_rng(int(seed)).choice(len(old), size=int(n), p=old)


def sampled_counts(p_old: Any, n: int, seed: int) -> Any:
    """How often each action is drawn in :func:`sampled_approx_kl`'s fixed sample."""
    return np.bincount(_sample(p_old, n, seed), minlength=len(p_old)).astype(np.float64)


def sampled_approx_kl(p_old: Any, p_new: Any, n: int, seed: int, estimator: str = "k1") -> float:
    """Mean of an approximate-KL estimator over ``n`` actions sampled from ``p_old``.

    The sampling procedure is fixed so that lessons can quote the result:
    ``a = numpy.random.default_rng(seed).choice(len(p_old), size=n, p=p_old)``, then
    ``mean(approx_kl(log p_new[a], log p_old[a], estimator=estimator))``.
    """
    old = np.asarray(p_old, dtype=np.float64)
    new = np.asarray(p_new, dtype=np.float64)
    actions = _sample(old, n, seed)
    estimates = core.approx_kl(
        np.log(new[actions]), np.log(old[actions]), estimator=cast(Any, estimator)
    )
    return float(np.mean(estimates))


def _clip(x: Any, lo: Any, hi: Any) -> Any:
    return np.clip(x, lo, hi)


def _comb(n: Any, k: Any) -> float:
    """C(n, k), the number of k-subsets of n things (``math.comb``; 0 when k > n)."""
    nn, kk = float(n), float(k)
    if not (nn.is_integer() and kk.is_integer() and nn >= 0 and kk >= 0):
        raise ValueError(f"comb needs whole numbers >= 0, got {n!r} and {k!r}")
    return float(math.comb(int(nn), int(kk)))


def _len(x: Any) -> float:
    """The number of entries of a list along its first axis (a vector's size)."""
    arr = np.asarray(x)
    if arr.ndim == 0:
        raise ValueError("len needs a list, got a number")
    return float(arr.shape[0])


# Functions of rlkl.core.__all__ a binding may not call, each with the reason.
EXCLUDED: Mapping[str, str] = {}

_BUILTINS: Mapping[str, Callable[..., Any]] = {
    "min": min,
    "max": max,
    "abs": abs,
    "clip": _clip,
    "exp": np.exp,
    "log": np.log,
    "log2": np.log2,
    "sqrt": np.sqrt,
    "sum": np.sum,
    "mean": np.mean,
    "len": _len,
    "comb": _comb,
}
_ALIASES: Mapping[str, str] = {"kl": "kl_divergence"}
_HELPERS: Mapping[str, Callable[..., Any]] = {
    "clip_boundary": clip_boundary,
    "signal_probability": signal_probability,
    "gold_peak": gold_peak,
    "sampled_approx_kl": sampled_approx_kl,
    "sampled_counts": sampled_counts,
}


def _core_functions() -> dict[str, Callable[..., Any]]:
    """Every public function of :mod:`rlkl.core` (``__all__``) not in :data:`EXCLUDED`:
    a function added to the core is callable from bindings without an edit here."""
    found: dict[str, Callable[..., Any]] = {}
    for name in core.__all__:
        value = getattr(core, name)
        if inspect.isfunction(value) and name not in EXCLUDED:
            found[name] = value
    return found


_CORE = _core_functions()
FUNCTIONS: dict[str, Callable[..., Any]] = {
    **_BUILTINS,
    **_CORE,
    **{alias: _CORE[target] for alias, target in _ALIASES.items()},
    **_HELPERS,
}
"""Every function a binding may call: rlkl's own, then an author's (:func:`install`)."""
CONSTANTS: Mapping[str, float] = {"e": math.e, "pi": math.pi, "inf": math.inf}
OWN: frozenset[str] = frozenset(FUNCTIONS) | frozenset(CONSTANTS)
"""The names rlkl itself gives meaning to: an author's function may take none of them."""


def _keywords(function: Callable[..., Any]) -> frozenset[str]:
    """The keyword arguments a binding may pass: the named parameters of a documented Python
    function (``base``, ``estimator``, ``definition``, ...). numpy functions and builtins
    take none: their keywords (``where``, ``out``, ``dtype``) reach into numpy's machinery
    (``exp(x, where=...)`` returns uninitialised memory)."""
    if not inspect.isfunction(function):
        return frozenset()
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return frozenset(
        name for name, parameter in inspect.signature(function).parameters.items()
        if parameter.kind in kinds
    )


KEYWORDS: dict[str, frozenset[str]] = {name: _keywords(f) for name, f in FUNCTIONS.items()}

_MODULE_OF: dict[str, str] = {}  # an author's function -> its module
_VERSIONS: dict[str, str] = {}  # an author's module -> its version
_used: ContextVar[set[str] | None] = ContextVar("rlkl_functions_used", default=None)


def install(module: str, version: str, functions: Mapping[str, Callable[..., Any]]) -> None:
    """Add an author's ``functions`` (from ``module`` at ``version``) to the table, beside
    rlkl's, with the keywords their signatures name (:mod:`rlkl.extensions` checks them
    first: plain functions, no name of :data:`OWN` or of another module). Installed once per
    process, before the first lesson is checked."""
    for name, function in functions.items():
        FUNCTIONS[name] = function
        KEYWORDS[name] = _keywords(function)
        _MODULE_OF[name] = module
    _VERSIONS[module] = version
    _forget()


_LISTENERS: list[Callable[[], None]] = []


def when_changed(forget: Callable[[], None]) -> None:
    """Call ``forget`` whenever the table changes (:func:`install`, :func:`uninstall`): the
    memos of a stage that worked something out from it (parsed expressions, harmless words)."""
    _LISTENERS.append(forget)


def _forget() -> None:
    for forget in _LISTENERS:
        forget()


def uninstall() -> None:
    """Remove every author's function again (the table is rlkl's own)."""
    for name in _MODULE_OF:
        FUNCTIONS.pop(name, None)
        KEYWORDS.pop(name, None)
    _MODULE_OF.clear()
    _VERSIONS.clear()
    _forget()


def installed() -> dict[str, str]:
    """The authors' modules in the table, with their versions (module -> version)."""
    return dict(_VERSIONS)


def module_of(name: str) -> str | None:
    """The author's module that provides function ``name`` (None: one of rlkl's own)."""
    return _MODULE_OF.get(name)


def note_call(name: str) -> None:
    """Record that the lesson being evaluated called the author's function ``name``."""
    used = _used.get()
    if used is not None:
        used.add(_MODULE_OF[name])


def used_versions() -> dict[str, str]:
    """The authors' modules the lesson being evaluated has called so far, with their
    versions: what its fixtures record beside the core version."""
    used = _used.get() or set()
    return {module: _VERSIONS[module] for module in sorted(used)}
