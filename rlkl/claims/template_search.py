"""Where a sentence template occurs in a text, found without compiling a pattern for it.

A template's exact pattern (the ``parse`` library's, :func:`rlkl.claims.matching.exact_parser`)
is a sequence of steps ``L0 S1 L1 … Sk Lk``: literal text, written verbatim, and slots, each a
pattern of its kind. ``re`` compiles that pattern in ~0.1–0.25 ms a slot, more than the rest
of checking a lesson whose templates are its own. This module finds the same occurrences by
doing what ``re`` does with the compiled pattern, with each slot kind's pattern compiled
once for every template:

- occurrences are searched left to right, each search starting where the last one ends
  (``finditer``);
- a search takes the leftmost start where the whole template matches: a place where ``L0``
  is written, or, when the template starts with a slot, where that slot matches;
- at a start the steps are matched in order: a literal must be written there; a slot tries
  its possible ends in the order ``re`` tries them (:attr:`Slot.ends`), and the first end
  that lets the rest match is taken (backtracking, as ``re`` does).

A test compares this with the exact pattern's ``findall`` on written-out templates.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

Spans = dict[str, tuple[int, int]]  # each slot's span in one occurrence, by its alias


@dataclass(frozen=True)
class Slot:
    """One slot step: its alias, its kind's pattern (searched for a template's first start)
    and its possible ends at a position, in the order ``re`` tries them."""

    alias: str
    pattern: re.Pattern[str]
    ends: Callable[[str, int], Iterable[int]]


Step = str | Slot  # literal text, or a slot


def findall(steps: Sequence[Step], text: str) -> list[Spans]:
    """Every occurrence of the template ``steps`` in ``text``, as its slots' spans."""
    found: list[Spans] = []
    position = 0
    while (hit := _search(steps, text, position)) is not None:
        spans, end = hit
        found.append(spans)
        position = end if end > position else position + 1  # an empty match moves on by one
    return found


def _search(steps: Sequence[Step], text: str, position: int) -> tuple[Spans, int] | None:
    """The leftmost occurrence at or after ``position``: its spans and where it ends."""
    if not steps:  # never a template (each has a number or list slot); as finditer would
        return ({}, position) if position <= len(text) else None
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
        spans: Spans = {}
        end = _match(steps, 0, text, start, spans)
        if end is not None:
            return spans, end
        start += 1
    return None


def _match(steps: Sequence[Step], index: int, text: str, at: int, spans: Spans) -> int | None:
    """Where ``steps[index:]`` matching at ``at`` ends (filling ``spans``), else None."""
    while index < len(steps) and isinstance(steps[index], str):
        literal = steps[index]
        assert isinstance(literal, str)
        if not text.startswith(literal, at):
            return None
        at += len(literal)
        index += 1
    if index == len(steps):
        return at
    slot = steps[index]
    assert isinstance(slot, Slot)
    following = steps[index + 1] if index + 1 < len(steps) else None
    for end in slot.ends(text, at):
        if isinstance(following, str) and not text.startswith(following, end):
            continue  # the literal after the slot is not written here: the rest cannot match
        spans[slot.alias] = (at, end)
        done = _match(steps, index + 1, text, end, spans)
        if done is not None:
            return done
    spans.pop(slot.alias, None)
    return None
