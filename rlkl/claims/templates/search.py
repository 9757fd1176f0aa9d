"""Where a sentence template occurs in a text, found without compiling a pattern for it.

A template's exact pattern (the ``parse`` library's,
:func:`rlkl.claims.templates.matching.exact_parser`) is a sequence of steps
``L0 S1 L1 … Sk Lk``: literal text, written verbatim, and slots, each a pattern of its kind.
``re`` compiles that pattern in a few tenths of a millisecond a slot, more than the rest of
checking a lesson whose templates are its own. This module finds the same occurrences by doing what
``re`` does with the compiled pattern, with each slot kind's pattern compiled once for every
template:

- occurrences are searched left to right, each search starting where the last one ends
  (``finditer``);
- a search takes the leftmost start where the whole template matches: a place where ``L0``
  is written, or, when the template starts with a slot, where that slot matches (after a
  start that failed, the next one worth trying is :attr:`SlotStep.retry`'s: a number slot
  that failed at a digit fails at every later digit of that run);
- at a start the steps are matched in order: a literal must be written there; a slot tries
  its possible ends in the order ``re`` tries them (:attr:`SlotStep.ends`), and the first end
  that lets the rest match is taken (backtracking, as ``re`` does).

Slots are never back-references (each has an alias of its own), so whether the steps from
one slot on match at a position depends on that slot and position only. A slot that found no
way on at a position is remembered for the text and not tried there again, so each slot is
tried at most once at a position (reading its pattern there), where plain backtracking, like
``re``'s, tries it once for every way the slots before it can end there: a power of the
text's length for slots that follow one another (``{a}{b}{c}x`` against a run of digits),
2^k for k slots of two ends each.

A test compares this with the exact pattern's ``findall`` on written-out templates.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

Spans = dict[str, tuple[int, int]]  # each slot's span in one occurrence, by its alias

REMEMBERED = 1_000_000
"""At most this many failed (slot, position) pairs are remembered for one text (~100 MB);
past it the search goes on without remembering more, as exact and only slower."""


@dataclass(frozen=True)
class SlotStep:
    """One slot step: its alias, its kind's pattern (searched for a template's first start),
    its possible ends at a position, in the order ``re`` tries them, and, when the template
    starts with it, the next start worth trying after one that failed."""

    alias: str
    pattern: re.Pattern[str]
    ends: Callable[[str, int, str], Iterable[int]]  # text, position, the literal that follows
    retry: Callable[[str, int], int]  # text, the start that failed


Step = str | SlotStep  # literal text, or a slot


def findall(steps: Sequence[Step], text: str) -> list[Spans]:
    """Every occurrence of the template ``steps`` in ``text``, as its slots' spans.

    ``steps`` hold a slot (every template does), so an occurrence is never empty and the
    next search starts where it ends."""
    found: list[Spans] = []
    position = 0
    failed: set[tuple[int, int]] = set()  # (slot index, position): no way on from there
    while (hit := _search(steps, text, position, failed)) is not None:
        spans, position = hit
        found.append(spans)
    return found


def _search(
    steps: Sequence[Step], text: str, position: int, failed: set[tuple[int, int]]
) -> tuple[Spans, int] | None:
    """The leftmost occurrence at or after ``position``: its spans and where it ends."""
    first = steps[0]
    start = position
    while start <= len(text):
        if isinstance(first, str):
            start = text.find(first, start)
        else:
            candidate = first.pattern.search(text, start)
            start = -1 if candidate is None else candidate.start()
        if start < 0:
            return None
        hit = _match(steps, text, start, failed)
        if hit is not None:
            return hit
        start = start + 1 if isinstance(first, str) else first.retry(text, start)
    return None


def _past_literals(steps: Sequence[Step], index: int, text: str, at: int) -> tuple[int, int] | None:
    """Past the literal steps from ``index`` written at ``at``: the next step and position."""
    while index < len(steps):
        literal = steps[index]
        if not isinstance(literal, str):
            break
        if not text.startswith(literal, at):
            return None
        at += len(literal)
        index += 1
    return index, at


def _match(
    steps: Sequence[Step], text: str, start: int, failed: set[tuple[int, int]]
) -> tuple[Spans, int] | None:
    """The first way ``steps`` match at ``start``, in ``re``'s order: spans and end, or None.

    Depth first without recursion (a template may have any number of slots): one frame per
    slot being tried, holding the ends it has not tried yet; when the rest cannot match, the
    innermost slot takes its next end. A slot out of ends at a position goes into ``failed``
    and is not tried there again."""
    spans: Spans = {}
    frames: list[tuple[SlotStep, int, int, Iterator[int]]] = []  # slot, its index, start, ends
    reached = _past_literals(steps, 0, text, start)
    while True:
        if reached is not None and reached[0] == len(steps):
            return spans, reached[1]
        if reached is not None and reached not in failed:
            index, at = reached
            slot = steps[index]
            assert isinstance(slot, SlotStep)
            following = steps[index + 1] if index + 1 < len(steps) else ""
            # only the ends the literal after the slot is written at (all when a slot follows)
            ends = slot.ends(text, at, following if isinstance(following, str) else "")
            frames.append((slot, index, at, iter(ends)))
        while frames:  # the next end of the innermost slot that has one left
            slot, index, at, ends = frames[-1]
            end = next(ends, None)
            if end is not None:
                spans[slot.alias] = (at, end)
                reached = _past_literals(steps, index + 1, text, end)
                break
            if len(failed) < REMEMBERED:
                failed.add((index, at))
            frames.pop()
        else:
            return None
