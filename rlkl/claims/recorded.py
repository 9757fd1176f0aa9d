"""Recorded numbers: how a fixture writes a float, and when two recorded values are the same.

The same computation can end in another last bit on another machine: numpy chooses its
``exp``/``log`` kernels by CPU (AVX-512, AVX2, its baseline, NEON on ARM), and libm differs
between platforms. ``0.11979600561758683`` on one machine is ``0.11979600561758684`` on
the next. A fixture must read the same wherever it was written, and a check must reach the
same verdict wherever it runs, so every float a fixture holds (inputs, computed values,
numbers inside lists and mappings) follows two rules, and every consumer (``rlkl check``,
``regen``, ``claims``, the pytest plugin, the site) reaches them through
:func:`rlkl.claims.changes.compare`:

*canonical*
    a float is recorded rounded to :data:`SIGNIFICANT` (12) significant digits and written
    as the shortest text of that rounded value: ``0.11979600561758683`` is recorded as
    ``0.119796005618``. Twelve digits are far more than any precision an author writes
    (a claim's verdict is decided on the full value, never on the recorded one).
*same*
    two recorded values are the same when they have one shape and each pair of numbers in
    them agrees within :data:`REL_TOL` (1e-10) relative or :data:`ABS_TOL` (1e-14)
    absolute; a bool is only the same bool, text only the same text. 1e-10 is twenty times
    the rounding of twelve digits (at most 5e-12 relative) and some 10^5 times the noise of
    a few last bits (2.2e-16 each), and 10^4 times below a change in the sixth significant
    digit, which is a real change.

A recorded number that is the same as the fresh one and canonical is kept as it is
(:func:`kept`), so a difference in the last bits never rewrites a line, even where the
fresh value rounds to the other side of a twelfth digit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

SIGNIFICANT = 12
REL_TOL = 1e-10
ABS_TOL = 1e-14


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def canonical(value: Any) -> Any:
    """``value`` as a fixture records it: each finite float rounded to :data:`SIGNIFICANT`
    significant digits (lists, tuples and mappings element by element; anything else as
    it is)."""
    if isinstance(value, float):
        return float(f"{value:.{SIGNIFICANT}g}") if math.isfinite(value) else value
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, Mapping):
        return {k: canonical(v) for k, v in value.items()}
    return value


def same(recorded: Any, fresh: Any) -> bool:
    """Whether ``recorded`` says what ``fresh`` says, up to float noise (module docstring):
    |a − b| ≤ max(REL_TOL · max(|a|, |b|), ABS_TOL) for every pair of numbers, the same
    shape, and everything else equal."""
    if isinstance(recorded, bool) or isinstance(fresh, bool):
        return recorded is fresh
    if _number(recorded) and _number(fresh):
        try:
            return math.isclose(recorded, fresh, rel_tol=REL_TOL, abs_tol=ABS_TOL)
        except OverflowError:  # an integer beyond float range (a damaged fixture)
            return bool(recorded == fresh)
    if isinstance(recorded, list) and isinstance(fresh, list):
        return len(recorded) == len(fresh) and all(map(same, recorded, fresh))
    if isinstance(recorded, Mapping) and isinstance(fresh, Mapping):
        return recorded.keys() == fresh.keys() and all(same(recorded[k], fresh[k]) for k in fresh)
    return bool(recorded == fresh)


def kept(fresh: Any, recorded: Any) -> Any:
    """What a fixture records for ``fresh`` when ``recorded`` is there already: each number
    of ``recorded`` that is :func:`same` as the fresh one and canonical, as it is; every
    other value fresh. ``kept(fresh, recorded) == recorded`` is the one test of whether a
    recorded value is current (a fresh ``regen`` would write it unchanged)."""
    if _number(fresh) and _number(recorded):
        return recorded if same(recorded, fresh) and canonical(recorded) == recorded else fresh
    if isinstance(fresh, list) and isinstance(recorded, list) and len(fresh) == len(recorded):
        return [kept(f, r) for f, r in zip(fresh, recorded, strict=True)]
    if isinstance(fresh, Mapping) and isinstance(recorded, Mapping):
        return {k: kept(v, recorded[k]) if k in recorded else v for k, v in fresh.items()}
    return fresh
