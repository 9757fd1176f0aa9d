"""Recognise the self-describing claim forms in prose: literal arithmetic
(``min(1.4×2,1.2×2)=2.4``) and the KL or entropy of literal distributions
(``KL([0.7,0.3] || [0.5,0.5]) is 0.082283 nats``). Checked by :mod:`rlkl.claims.forms.forms`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from rlkl.claims.evaluation import expr
from rlkl.claims.evaluation.functions import CONSTANTS, FUNCTIONS, KEYWORDS, when_changed
from rlkl.claims.prose.scanner import Mention
from rlkl.numerals import UNIT_BASES, UNIT_PATTERN, list_pattern, number_pattern

_NUM = number_pattern()
_LIST = list_pattern(_NUM)
_KL = re.compile(
    rf"\b(?P<fn>KL|D_KL|H)\(\s*(?P<p>{_LIST})\s*(?:(?:\|\||‖)\s*(?P<q>{_LIST})\s*)?\)\s*"
    rf"(?:is|=|≈)\s*(?P<value>{_NUM})\s*(?P<unit>{UNIT_PATTERN})?"
)


@dataclass(frozen=True)
class Arithmetic:
    """``min(1.4×2,1.2×2)=2.4``: literal operands on the left, the claimed value on the right."""

    source: str
    tree: Any
    operands: tuple[Mention, ...]
    result: Mention
    start: int


_WORD = re.compile(r"[A-Za-z0-9_]+")
_OPAQUE = frozenset("'\"#\\")  # a string, comment or line continuation: words may hide


@cache
def _harmless_words() -> frozenset[str]:
    """Words a literal expression may contain: functions, constants and their keywords. Any
    other word is parsed as a variable, or is a Python keyword, which makes the source a
    truth value or a comparison (``and``, ``not``, ``is``, ``True``), a construct
    :func:`expr.parse` rejects (``if``, ``lambda``, ``None``) or a syntax error: never
    arithmetic."""
    keywords = (k for ks in KEYWORDS.values() for k in ks)
    return frozenset({*FUNCTIONS, *CONSTANTS, *keywords})


def _first_start(text: str, low: int, high: int) -> int:
    """The first start in ``text[low:high]`` from which ``text[start:high]`` could be a
    literal expression: past the last word that can only be read as a variable, so no
    start before it is worth parsing (:func:`expr.is_arithmetic` rejects variables). Only
    whole ASCII words outside strings and comments count; anything doubtful counts not.

    A quote (``the paper's``) is passed over too when the window has no ``#`` or backslash:
    a source holding a quote then holds no comment, and :func:`_never_arithmetic` rules it
    out; the words after the last quote are outside any string."""
    window = text[low:high]
    if not _OPAQUE.isdisjoint(window):
        if "#" in window or "\\" in window:
            return low  # a comment or a line continuation: parsing decides
        low += max(window.rfind(quote) for quote in "'\"") + 1
    start = low
    for word in _WORD.finditer(text, low, high):
        before = text[word.start() - 1] if word.start() else " "
        after = text[word.end()] if word.end() < len(text) else " "
        if (
            word.group()[0].isdigit()
            or word.group() in _harmless_words()
            or before == "."  # a float's exponent ("1.e5") or an attribute
            or not before.isascii()
            or not after.isascii()
        ):
            continue
        start = word.end()
    return start


_PAIRS = (("(", ")"), ("[", "]"), ("{", "}"))
_NO_START = frozenset("=)]},;:*/%|&^<>!@×·÷")  # binary operators and closers (× is *, ÷ is /)
_COMPUTES = frozenset("+-*/(×·÷\u2212")  # what a BinOp or a Call needs, as prose writes them
_EQUALS = re.compile(r"\s*[=≈]\s*")


def _never_arithmetic(source: str) -> bool:
    """Whether ``source`` can be ruled out without parsing it: it holds no operator and no
    call (``β``, ``[0.5, 0.6]``: it computes nothing); it starts with a character no
    expression starts with (``= 0.5``, ``×2``: a syntax error); it holds a quote and no ``#``
    (a string, or a syntax error: :func:`expr.is_arithmetic` takes no text either way); or,
    holding no quote, comment or backslash, its brackets do not pair up (a syntax error)."""
    if source[0] in _NO_START or _COMPUTES.isdisjoint(source):
        return True
    if not _OPAQUE.isdisjoint(source):
        return "#" not in source and ("'" in source or '"' in source)
    return any(source.count(left) != source.count(right) for left, right in _PAIRS)


def arithmetic(text: str, mentions: list[Mention]) -> Iterator[Arithmetic]:
    """Every ``<literal expression> = <number>`` in ``text`` (``≈`` too)."""
    if "=" not in text and "≈" not in text:
        return  # most texts state no result: not searched (the pattern needs one of them)
    by_start = {m.start: m for m in mentions}
    for eq in _EQUALS.finditer(text):
        result = by_start.get(eq.end())
        if result is None:
            continue
        left_end = eq.start()
        best = None
        low = max(0, left_end - 120)
        for begin in range(_first_start(text, low, left_end), left_end):
            if begin > 0 and (text[begin - 1].isalnum() or text[begin - 1] in "._"):
                continue
            source = text[begin:left_end]
            if not source.strip() or source[0].isspace() or _never_arithmetic(source):
                continue
            try:
                tree = expr.parse(source)
            except expr.ExprError:
                continue
            if expr.is_arithmetic(tree):
                best = (begin, source, tree)
                break
        if best is None:
            continue
        begin, source, tree = best
        operands = tuple(m for m in mentions if begin <= m.start and m.end <= left_end)
        yield Arithmetic(source, tree, operands, result, begin)


@dataclass(frozen=True)
class CoreCall:
    """``KL([0.7,0.3] || [0.5,0.5]) is 0.082283 nats`` or ``H([0.5,0.5]) is 1 bit``."""

    function: str  # "kl_divergence" or "entropy"
    p: tuple[Mention, ...]
    q: tuple[Mention, ...]
    result: Mention
    base: float  # e for nats, 2 for bits
    unit: str
    start: int
    end: int


def core_calls(text: str, mentions: list[Mention]) -> Iterator[CoreCall]:
    """Every KL or entropy of literal distributions stated with its value and unit."""
    if "KL(" not in text and "H(" not in text:
        return  # not searched: :data:`_KL` needs one of them (``D_KL(`` holds ``KL(``)
    by_start = {m.start: m for m in mentions}
    for match in _KL.finditer(text):
        result = by_start.get(match.start("value"))
        if result is None:
            continue
        unit = (match.group("unit") or "nats").rstrip("s")
        p_span = match.span("p")
        q_span = match.span("q") if match.group("q") else (0, 0)
        function = "entropy" if match.group("fn") == "H" else "kl_divergence"
        if (function == "kl_divergence") != bool(match.group("q")):
            continue
        yield CoreCall(
            function,
            tuple(m for m in mentions if p_span[0] <= m.start < p_span[1]),
            tuple(m for m in mentions if q_span[0] <= m.start < q_span[1]),
            result,
            UNIT_BASES[unit],
            unit + "s",
            match.start(),
            match.end(),
        )


when_changed(_harmless_words.cache_clear)  # an author's functions are harmless words too
