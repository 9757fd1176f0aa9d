"""Find authored sentence templates in prose and recognise the self-describing claim forms.

Templates are reverse-format patterns (the ``parse`` library: the opposite of
``str.format``): ``"ratio is {ratio}"`` matches "ratio is 1.4" and yields the slot's span.
A slot named twice in one sentence (``min({r}×{A},{h}×{A})``) is matched twice and both
numbers are kept.

Compiling a template's pattern costs ~0.25 ms a slot (the number pattern is long), more than
the rest of checking a lesson when its templates are its own. So a template is first
searched with a quick pattern whose number and list slots compile ~4x faster and which finds
the same occurrences (:func:`_compile` says why); the exact pattern compiles only when a
quick slot read something that is not what it takes (a property test compares the two).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import parse

from rlkl.claims import expr, slots
from rlkl.claims.functions import CONSTANTS, FUNCTIONS, KEYWORDS
from rlkl.claims.scanner import Mention

# One number as a slot matches it: a sign (ASCII, U+2212 or a dash look-alike), digits, an
# exponent and a percent; or a vulgar fraction, ∞, or superscript digits. Each character class
# is written as branches of at most two runs, and ``_ONE`` (a look-behind that always holds
# right after a character) keeps ``re`` from merging them back into one class: a class that
# mixes Latin-1 with other characters and has more runs costs ``re`` a 64K table, ~0.1 ms to
# compile, and every slot of every template compiles this pattern (2x faster to compile;
# tests/claims/test_slot_pattern.py holds the plain classes it must match exactly like).
_ONE = "(?<=.)"
_NUM = (
    rf"(?:(?:[+\-]|[\u2010-\u2013\u2212]|[\ufe63\uff0d]{_ONE})?(?:\d+(?:\.\d+)?|\.\d+)"
    rf"(?:[eE](?:[+\-]|\u2212{_ONE})?\d+)?%?"
    rf"|[\u00bc-\u00be\u2150-\u215e]|\u221e{_ONE}"
    rf"|\u207b?(?:[\u00b2\u00b3\u00b9]|[\u2070\u2074-\u2079]{_ONE})+)"
)
_LIST = rf"\[\s*{_NUM}(?:\s*,\s*{_NUM})*\s*\]"
_UNIT = r"nats?|bits?"
UNIT_BASES = {"nat": math.e, "bit": 2.0}


def _verbatim(pattern: str) -> Any:
    """A parse type that matches ``pattern`` and keeps the text as written."""

    def convert(text: str) -> str:
        return text

    return parse.with_pattern(pattern)(convert)


# parse's custom types for slots: a number, a list of numbers, a unit word.
_TYPES = {"n": _verbatim(_NUM), "l": _verbatim(_LIST), "u": _verbatim(_UNIT)}

# The quick pattern of a template (:func:`_compile`) reads number and list slots with small
# Latin-1 classes (4x faster to compile than ``_NUM``): "r", a number, is an optional sign or
# space (as parse puts before a number), a character a number can start with (ASCII: a
# sign, a dot or a digit; or any non-ASCII character that is no space, × or ·) and a run of
# characters that are not separators (no number holds one); "l", a list, is a bracket to the
# first closing one. A unit slot keeps its pattern.
_SEPARATORS = r"""\s,;:()\[\]{}×/=<>*|!?"'·"""
_RUN = f"[^{_SEPARATORS}]"  # one character a number slot's run may hold
_START = r"[^\s\x00-\x2a,/:-\x7f×·]"  # the first
_QUICK_TYPES = {**_TYPES, "r": _verbatim(f"[-+ ]?{_START}{_RUN}*"),
                "l": _verbatim(r"\[[^\]]*\]")}
# What a slot takes, as its exact pattern does: a quick slot's text must be that.
_SLOT_TEXT = {"number": r"[-+ ]?" + _NUM, "list": _LIST}

@dataclass(frozen=True)
class SlotMatch:
    """One slot of one template occurrence: the mentions it covers."""

    name: str
    kind: str  # "number", "list" or "unit"
    pointer: str
    mentions: tuple[Mention, ...]
    word: str  # the text matched (for a unit: "nats" or "bits")

    @property
    def is_list(self) -> bool:
        return self.kind == "list"

    @property
    def base(self) -> float:
        """For a unit slot: the logarithm base it names (e for nats, 2 for bits)."""
        return UNIT_BASES[self.word.rstrip("s")]


@dataclass(frozen=True)
class Occurrence:
    pointer: str
    start: int
    end: int
    slots: tuple[SlotMatch, ...]

    def quote(self, text: str) -> str:
        return text[self.start : self.end]


Fields = tuple[tuple[str, str, str], ...]  # (alias, slot name, kind) of each slot
Checks = tuple[tuple[str, str, bool], ...]  # (alias, kind, cut) of each quick slot


@cache
def _compile(says: str) -> tuple[parse.Parser, parse.Parser | None, Fields, Checks]:
    """A template's exact parser, its quick one (None without a number or list slot) with
    the slots it reads quickly, and its slots; repeated slot names get internal aliases
    (``A``, ``A__2``). The exact parser compiles its pattern only when first used.

    The quick pattern reads each number and list slot with its cheap pattern; a unit keeps
    its own. Why it finds what the exact pattern finds, when every quick slot holds what it
    takes (:func:`_spans`; a last number is first cut to what its exact pattern takes there,
    the exact pattern's first choice when nothing follows it):

    - every exact reading is a quick one: a number is a run of number characters (no
      separator) that starts with one a number can start with, and a list of numbers ends
      at its first ``]``, as the quick list does;
    - the two try a slot's ends in the same order, longest first: ``[^...]*`` by
      backtracking, and ``_NUM`` too (each quantifier is greedy, and a shorter digit run
      ends where a digit follows, so nothing after it can make the number longer);
    - so the first reading the quick pattern accepts, when its slots hold numbers, is the
      first one the exact pattern accepts: the same occurrence at the same leftmost start.

    Nothing is assumed of the literal text around a slot; the test compares both patterns
    on written-out templates (and the two agreed on every template of up to three pieces of
    ``{a}``, ``{b}``, ``{u:unit}``, ``.``, ``e``, ``-``, ``%``, `` ``, ``1`` in every text of up
    to four characters of ``1.e-% s``: 2,294,019 cases)."""
    counts: dict[str, int] = {}
    fields: list[tuple[str, str, str]] = []
    exact, quick, checks = [], [], []
    parts = slots.pieces(says)
    for index, piece in enumerate(parts):
        if isinstance(piece, str):
            exact.append(piece.replace("{", "{{").replace("}", "}}"))
            quick.append(exact[-1])
            continue
        counts[piece.name] = counts.get(piece.name, 0) + 1
        alias = piece.name if counts[piece.name] == 1 else f"{piece.name}__{counts[piece.name]}"
        fields.append((alias, piece.name, piece.kind))
        exact.append("{" + alias + ":" + piece.kind[0] + "}")
        quick.append("{" + alias + ":" + ("r" if piece.kind == "number" else piece.kind[0]) + "}")
        if piece.kind != "unit":
            checks.append((alias, piece.kind, piece.kind == "number" and index == len(parts) - 1))
    exact_parser = parse.compile("".join(exact), extra_types=_TYPES, case_sensitive=True)
    quick_parser = (parse.compile("".join(quick), extra_types=_QUICK_TYPES, case_sensitive=True)
                    if checks else None)
    return exact_parser, quick_parser, tuple(fields), tuple(checks)


@cache
def _slot_text(kind: str) -> re.Pattern[str]:
    return re.compile(_SLOT_TEXT[kind], re.DOTALL)


Spans = dict[str, tuple[int, int]]  # each slot's span in one occurrence, by alias


def _spans(says: str, text: str) -> list[Spans]:
    """Each occurrence of the template in ``text``, as its slots' spans: found by the quick
    pattern when it has one and every quick slot it read holds what the slot takes (a last
    number cut to it), else by the exact pattern (which only then compiles)."""
    exact, quick, _, checks = _compile(says)
    found = _quick_spans(quick, checks, len(slots.suffix(says)), text) if quick else None
    if found is None:
        found = [dict(r.spans) for r in exact.findall(text) if r is not None]
    return found


def _quick_spans(quick: parse.Parser, checks: Checks, suffix: int, text: str
                 ) -> list[Spans] | None:
    """The quick pattern's occurrences, each quick slot checked; None when one is not what
    its slot takes. Each search goes on where the last occurrence ends, as ``finditer`` does."""
    found: list[Spans] = []
    position = 0
    while (result := quick.search(text, position)) is not None:
        spans: Spans = dict(result.spans)
        for alias, kind, cut in checks:
            start, end = spans[alias]
            if cut:
                number = _slot_text(kind).match(text, start)
                if number is None:
                    return None
                spans[alias] = number.span()
            elif not _slot_text(kind).fullmatch(text, start, end):
                return None
        found.append(spans)
        position = max(end for _, end in spans.values()) + suffix
    return found


@cache
def _literals(says: str) -> tuple[str, ...]:
    """The literal pieces of ``says``: each must appear in a text the template matches."""
    return tuple(p for p in slots.pieces(says) if isinstance(p, str))


def find(says: str, pointer: str, text: str, mentions: list[Mention]) -> list[Occurrence]:
    """Every occurrence of template ``says`` in ``text``, with the mentions of each slot.

    A text lacking one of the template's literal pieces cannot match it (the pattern holds
    each piece verbatim), so it is not searched: most prose fields lack most templates."""
    if not all(piece in text for piece in _literals(says)):
        return []
    fields = _compile(says)[2]
    occurrences = []
    for spans in _spans(says, text):
        found = []
        for alias, name, kind in fields:
            start, end = spans[alias]
            inside = tuple(m for m in mentions if start <= m.start and m.end <= end)
            found.append(SlotMatch(name, kind, pointer, inside, text[start:end].strip()))
        span_start = min(s for s, _ in spans.values())
        span_end = max(e for _, e in spans.values())
        # widen to the literal text around the slots
        first_literal = slots.prefix(says)
        occurrences.append(
            Occurrence(
                pointer,
                max(0, span_start - len(first_literal)),
                span_end + len(slots.suffix(says)),
                tuple(found),
            )
        )
    return occurrences


# --- self-describing forms -------------------------------------------------------------

_KL = re.compile(
    rf"\b(?P<fn>KL|D_KL|H)\(\s*(?P<p>{_LIST})\s*(?:(?:\|\||‖)\s*(?P<q>{_LIST})\s*)?\)\s*"
    rf"(?:is|=|≈)\s*(?P<value>{_NUM})\s*(?P<unit>nats?|bits?)?"
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
