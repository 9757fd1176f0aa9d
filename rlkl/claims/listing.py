"""Every numeric mention of checked lessons with its role and status (``rlkl claims``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from rlkl.claims.records import LessonClaims
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
    status: str  # verified | FAILED | input | exempt | UNACCOUNTED
    reason: str  # an exemption's reason

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def mention_rows(lessons: Iterable[tuple[Document, LessonClaims]]) -> list[MentionRow]:
    """One row per numeric mention, in document order.

    An *input* is read from the prose and feeds the checks of the numbers computed from it;
    its row says ``input`` unless a check anchored on it fails.
    """
    rows = []
    for document, claims in lessons:
        outcomes: dict[tuple[str, int], list[bool]] = {}
        for verdict in claims.verdicts:
            outcomes.setdefault(verdict.mention.key, []).append(verdict.ok)
        reasons = {e.mention.key: e.reason for e in claims.exempt}
        for mention in claims.mentions:
            role = claims.roles.get(mention.key, "")
            results = outcomes.get(mention.key, [])
            if mention.key in reasons:
                status = EXEMPT
            elif not all(results):
                status = FAILED
            elif role.startswith(("input", "intermediate")):
                status = INPUT
            elif results:
                status = VERIFIED
            else:
                status = UNACCOUNTED
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
