"""Every numeric mention of checked lessons with its role and status (``rlkl claims``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rlkl.claims.changes import Change, Status
from rlkl.claims.records import Key, LessonClaims
from rlkl.claims.source import locate
from rlkl.loader import Document

# status: how the number is accounted for
VERIFIED, FAILED, INPUT, EXEMPT, UNACCOUNTED = (
    "verified",
    "FAILED",
    "input",
    "exempt",
    "UNACCOUNTED",
)


@dataclass(frozen=True)
class MentionRow:
    """One numeric mention as ``rlkl claims`` lists it."""

    file: str
    line: int
    column: int
    pointer: str
    text: str
    role: str  # e.g. "output ratio", "input p_old", "quiz-key", "exempt"
    status: str  # verified | FAILED | STALE | NEW | DRIFT | input | exempt | UNACCOUNTED
    reason: str  # an exemption's reason

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _status(
    role: str, results: list[Status], exempt: list[Status], unaccounted: bool
) -> str:
    """A mention's row status from the change records of its claims (or its exemption)."""
    if exempt:
        worst = [x for x in exempt if x is not Status.VERIFIED]
        return worst[0].name if worst else EXEMPT
    if Status.FAILED in results:
        return FAILED
    pending = [x for x in results if x is not Status.VERIFIED]
    if pending:
        return pending[0].name
    if role.startswith(("input", "intermediate")):
        return INPUT
    return UNACCOUNTED if unaccounted else VERIFIED


def _statuses(
    claims: LessonClaims, changes: Sequence[Change]
) -> tuple[dict[Key, list[Status]], dict[Key, list[Status]]]:
    """Per mention: the statuses of the claims judged at it, and of its exemption."""
    of_claim = {c.id: c.status for c in changes if c.subject == "claim"}
    of_exempt = {c.exempt.mention.key: c.status for c in changes if c.exempt is not None}
    results: dict[Key, list[Status]] = {}
    for verdict in claims.verdicts:
        fallback = Status.VERIFIED if verdict.ok else Status.FAILED
        status = Status.FAILED if not verdict.ok else of_claim.get(verdict.id, fallback)
        results.setdefault(verdict.mention.key, []).append(status)
    exempt = {e.mention.key: [of_exempt.get(e.mention.key, Status.VERIFIED)] for e in claims.exempt}
    return results, exempt


Lesson = tuple[Document, LessonClaims, Sequence[Change]]


def mention_rows(lessons: Iterable[Lesson]) -> list[MentionRow]:
    """One row per numeric mention, in document order.

    The status is the one :mod:`rlkl.claims.changes` gives the claims judged at the number
    (``verified``; ``FAILED``; ``STALE``, ``NEW``, ``DRIFT`` when the fixtures lag behind).
    An *input* is read from the prose and feeds the checks of the numbers computed from it;
    its row says ``input`` unless a check anchored on it fails.
    """
    rows = []
    for document, claims, changes in lessons:
        results, exempt = _statuses(claims, changes)
        reasons = {e.mention.key: e.reason for e in claims.exempt}
        for mention in claims.mentions:
            role = claims.roles.get(mention.key, "")
            found = results.get(mention.key, [])
            status = _status(role, found, exempt.get(mention.key, []), not found)
            line, column = locate(document, mention)
            rows.append(
                MentionRow(
                    document.display,
                    line,
                    column,
                    mention.pointer,
                    mention.text,
                    role or "-",
                    status,
                    reasons.get(mention.key, ""),
                )
            )
    return rows


_EQUATION_STATUS = {"verified": VERIFIED, "exempt": EXEMPT, "UNBOUND": UNACCOUNTED}


def equation_rows(lessons: Iterable[Lesson]) -> list[MentionRow]:
    """One row per relation of every lesson's equations (:mod:`rlkl.claims.equations`); the
    ``text`` is the relation's left-hand side."""
    rows = []
    for document, claims, _changes in lessons:
        for record in claims.equations:
            line, column = document.locate(record.pointer)
            status = _EQUATION_STATUS.get(record.status, FAILED)
            role = "equation" + (f" = {record.detail}" if status == VERIFIED else "")
            reason = record.detail if status in (EXEMPT, FAILED) else ""
            rows.append(
                MentionRow(
                    document.display, line, column, record.pointer, record.relation, role,
                    status, reason,
                )
            )
    return rows
