"""Find authored sentence templates in prose.

Templates are reverse-format patterns (the ``parse`` library: the opposite of
``str.format``): ``"ratio is {ratio}"`` matches "ratio is 1.4" and yields the slot's span.
A slot named twice in one sentence (``min({r}×{A},{h}×{A})``) is matched twice and both
numbers are kept.

A template's exact pattern is the reference; :func:`find` searches with
:mod:`rlkl.claims.templates.search`, which finds the same occurrences without compiling a
pattern per template (compiling one costs a few tenths of a millisecond a slot, more than
the rest of checking a lesson whose templates are its own); a property test compares the two.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from rlkl.claims.prose.scanner import SUPERSCRIPTS, Mention
from rlkl.claims.templates import search, slots
from rlkl.numerals import UNIT_BASES, UNIT_PATTERN, list_pattern, number_pattern, split
from rlkl.resources import accelerated

if TYPE_CHECKING:  # the reference path only (RLKL_REFERENCE=1); parse is in the dev extra
    import parse

# One number as a slot matches it (the scanner's definition, its classes split into branches:
# a template's exact pattern, the reference, compiles it in every number slot, 2x faster so).
_NUM = number_pattern(split)
_LIST = list_pattern(_NUM)
_UNIT = UNIT_PATTERN


def _verbatim(pattern: str) -> Any:
    """A parse type that matches ``pattern`` and keeps the text as written."""
    import parse

    def convert(text: str) -> str:
        return text

    return parse.with_pattern(pattern)(convert)


@cache
def _types() -> dict[str, Any]:
    """parse's custom types for slots: a number, a list of numbers, a unit word."""
    return {"n": _verbatim(_NUM), "l": _verbatim(_LIST), "u": _verbatim(_UNIT)}


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

# Each slot kind's pattern, as the exact pattern holds it (parse puts an optional sign or
# space before a number of its numeric type "n"), compiled once for every template.
_SLOT_PATTERNS = {
    "number": re.compile(r"[-+ ]?" + _NUM, re.DOTALL),
    "list": re.compile(_LIST, re.DOTALL),
    "unit": re.compile(_UNIT, re.DOTALL),
}
_DIGIT = re.compile(rf"[\d{SUPERSCRIPTS}]")  # what a shorter number ends with


def _number_ends(text: str, at: int, following: str) -> Iterator[int]:
    """The ends of a number slot at ``at`` that ``following`` is written at, in the order
    ``re`` tries them: longest first.

    Every quantifier in the number pattern is greedy and its branches start with different
    characters, so ``re`` first takes the longest reading, then shorter ones, longest first
    (the optional sign in front only repeats readings of the same span). A shorter reading
    ends right after a decimal digit (``\\d``, of any script) or a superscript digit of the
    longest: a number cut after a digit of its integer part, its fraction or its exponent is
    a number, and one cut anywhere else is not (``1.``, ``1e``, ``1e−``); a fraction, ∞ or
    ``%`` ends only the longest. The shorter ends are looked for where ``following`` is
    written (``str.rfind``), so a long run of digits is not walked digit by digit."""
    longest = _SLOT_PATTERNS["number"].match(text, at)
    if longest is None:
        return
    end = longest.end()
    if text.startswith(following, end):
        yield end
    while end > at + 1:
        end = text.rfind(following, at + 1, end - 1 + len(following)) if following else end - 1
        if end <= at:
            return
        if _DIGIT.match(text, end - 1):
            yield end


def _list_ends(text: str, at: int, following: str) -> Iterator[int]:
    """The one end of a list slot at ``at`` (its first ``]``: no number holds one), if
    ``following`` is written there."""
    found = _SLOT_PATTERNS["list"].match(text, at)
    if found is not None and text.startswith(following, found.end()):
        yield found.end()


def _unit_ends(text: str, at: int, following: str) -> Iterator[int]:
    """The ends of a unit slot at ``at`` as ``re`` tries them (``nats`` before ``nat``), where
    ``following`` is written."""
    found = _SLOT_PATTERNS["unit"].match(text, at)
    if found is None:
        return
    ends = (found.end(), found.end() - 1) if found.group().endswith("s") else (found.end(),)
    yield from (end for end in ends if text.startswith(following, end))


_SLOT_ENDS = {"number": _number_ends, "list": _list_ends, "unit": _unit_ends}
_DIGITS = re.compile(rf"\d+|[{SUPERSCRIPTS}]+")  # a run of one kind


def _number_retry(text: str, at: int) -> int:
    """Where a template that starts with a number slot is worth trying next, after it failed
    at ``at``: past the run of decimal (or of superscript) digits there.

    From a decimal digit, the number pattern reads the run of digits and then the same
    fraction, exponent or ``%`` (all greedy, none can fail); from a superscript digit, the run
    of superscripts. So from the next digit of the run it ends where it ended from ``at``, and
    its ends are some of the ends it had at ``at``: the rest of the template, which depends
    only on where the slot ends, failed after each of them."""
    run = _DIGITS.match(text, at)
    return at + 1 if run is None else run.end()


def _next_start(text: str, at: int) -> int:
    return at + 1


_SLOT_RETRY = {"number": _number_retry, "list": _next_start, "unit": _next_start}


@cache
def _template(says: str) -> tuple[tuple[search.Step, ...], Fields]:
    """A template's steps for :mod:`rlkl.claims.templates.search` and its slots. Each slot
    gets an alias of its own by position (``s1``, ``s2``, ...), so a slot's name never enters
    the exact pattern: a slot named twice is matched twice, and a name such as ``_x`` or
    ``a__2`` reads like any other."""
    fields: list[tuple[str, str, str]] = []
    steps: list[search.Step] = []
    for piece in slots.pieces(says):
        if isinstance(piece, str):
            steps.append(piece)
            continue
        alias = f"s{len(fields) + 1}"
        fields.append((alias, piece.name, piece.kind))
        steps.append(search.SlotStep(alias, _SLOT_PATTERNS[piece.kind],
                                              _SLOT_ENDS[piece.kind], _SLOT_RETRY[piece.kind]))
    return tuple(steps), tuple(fields)


@cache
def exact_parser(says: str) -> parse.Parser:
    """The template's exact pattern: the reference :func:`find` answers like (``parse``'s
    reverse format, each slot a field of its kind's type, literal text verbatim). Only the
    reference path and its tests use it, so ``parse`` is a development dependency."""
    import parse

    aliases = iter(_template(says)[1])
    exact = [piece.replace("{", "{{").replace("}", "}}") if isinstance(piece, str)
             else f"{{{next(aliases)[0]}:{piece.kind[0]}}}" for piece in slots.pieces(says)]
    return parse.compile("".join(exact), extra_types=_types(), case_sensitive=True)


def _spans(says: str, text: str) -> list[search.Spans]:
    """Each occurrence of the template in ``text``, as its slots' spans: found by
    :mod:`rlkl.claims.templates.search`, or with ``RLKL_REFERENCE=1`` by the exact pattern."""
    if not accelerated():
        return [dict(r.spans) for r in exact_parser(says).findall(text) if r is not None]
    return search.findall(_template(says)[0], text)


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
    fields = _template(says)[1]
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
