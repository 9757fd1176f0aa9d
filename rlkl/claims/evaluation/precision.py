"""The precision rule: the written precision of an authored number decides whether it is true.

An authored number with *d* decimals is true when the computed value rounds to it at *d*
decimals: "0.082283" accepts any computed value within ±5e-7 of 0.082283. Inputs are exact
decimals. An exact tie (0.25 written as "0.2" or "0.3") is accepted either way, and so is
float noise of 1e-12 relative at the boundary (0.15000000000000002 still ties at 0.15).
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

from rlkl.claims.prose.scanner import WIDE
from rlkl.shown import number

_NOISE = Decimal("1e-12")


def agrees(computed: float, authored: Decimal, decimals: int) -> bool:
    """True when ``computed`` rounds to ``authored`` at ``decimals`` decimals.

    A bare ``0`` (no decimals) claims an exact zero: it accepts only |computed| ≤ 1e-12,
    not everything below 0.5 (``derivative is 0``, ``KL is 0 nats``). ``∞`` accepts only
    the same infinity.
    """
    if authored.is_infinite() or not math.isfinite(computed):
        return float(authored) == computed
    with localcontext(WIDE):
        exact = Decimal(computed)
        if decimals == 0 and authored == 0:
            return abs(exact) <= _NOISE
        half = Decimal(5).scaleb(-(decimals + 1))
        slack = _NOISE * max(Decimal(1), abs(exact))
        return abs(exact - authored) <= half + slack


def describe(decimals: int) -> str:
    """'1 decimal written', '0 decimals written', ..."""
    return f"{decimals} decimal{'s' if decimals != 1 else ''} written"


def show(value: float, decimals: int | None = None) -> str:
    """A computed value for messages: rounded at ``decimals`` when given, with the raw value
    (else as :func:`rlkl.shown.number` writes it)."""
    if decimals is None or not math.isfinite(value):
        return number(value)
    rounded = f"{value:.{decimals}f}"
    raw = repr(float(value))
    return rounded if raw == rounded else f"{rounded} ({raw})"
