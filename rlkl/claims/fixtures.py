"""Fixtures: the committed, reviewable record of every claim of a lesson.

One ``fixtures.json`` per lesson folder, validated by ``schema/fixtures.schema.json``.
Deterministic: claims in document order, keys in a fixed order, floats canonical (twelve
significant digits, :mod:`rlkl.claims.recorded`, so two machines write the same bytes),
UTF-8, two-space indent, newline at the end. What a difference between the committed file
and a fresh one means (stale, orphaned, drift) is defined once, in
:mod:`rlkl.claims.changes`; what ``regen`` writes over a committed file, in :func:`written`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rlkl.claims.recorded import canonical, kept
from rlkl.claims.records import LessonClaims
from rlkl.core.version import CORE_VERSION
from rlkl.diagnostics import Diagnostic
from rlkl.loader import Document, LoadError, load_json
from rlkl.resources import schema_errors

FILENAME = "fixtures.json"
FORMAT = 1


def build(claims: LessonClaims) -> dict[str, Any]:
    """The fixture document for one lesson's checked claims."""
    entries = []
    for v in sorted(claims.verdicts, key=lambda v: (v.mention.pointer, v.mention.start, v.id)):
        entries.append(
            {
                "id": v.id,
                "kind": v.kind,
                "pointer": v.mention.pointer,
                "span": [v.mention.start, v.mention.end],
                "quote": v.quote,
                "function": v.expression,
                "inputs": canonical(v.inputs),
                "authored": v.mention.text,
                "decimals": v.mention.decimals,
                "computed": canonical(v.computed),
                "verified": v.ok,
            }
        )
    exempt = [
        {
            "pointer": e.mention.pointer,
            "span": [e.mention.start, e.mention.end],
            "quote": e.quote,
            "authored": e.mention.text,
            "reason": e.reason,
        }
        for e in sorted(claims.exempt, key=lambda e: e.mention.key)
    ]
    return {
        "format": FORMAT,
        "lesson": claims.lesson_id,
        "core": CORE_VERSION,
        "claims": entries,
        "exempt": exempt,
    }


def written(fresh: dict[str, Any], committed: Mapping[str, Any] | None) -> dict[str, Any]:
    """The fixture document ``regen`` writes where ``committed`` is: ``fresh``, with each
    number of a claim that the committed file already records the same and canonical kept
    as it is (:func:`rlkl.claims.recorded.kept`), so a lesson whose claims did not move
    reads the same whichever machine rewrote it."""
    if committed is None:
        return fresh
    recorded = {c.get("id"): c for c in committed.get("claims", []) if isinstance(c, Mapping)}
    claims = [kept(c, recorded[c["id"]]) if c["id"] in recorded else c for c in fresh["claims"]]
    return {**fresh, "claims": claims}


def dumps(fixture: dict[str, Any]) -> str:
    """The canonical text of a fixture document."""
    return json.dumps(fixture, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def load(path: Path) -> tuple[Document | None, list[Diagnostic]]:
    """Read a committed fixture file strictly; schema problems are RLKL505."""
    try:
        document = load_json(path)
    except LoadError as error:
        return None, error.diagnostics
    problems = [
        document.diagnostic(
            "".join(f"/{p}" for p in e.absolute_path),
            "RLKL505",
            f"fixture file does not match its schema: {e.message}",
        )
        for e in schema_errors("fixtures", document.data)
    ]
    return (None if problems else document), problems


def path_for(lesson_path: Path) -> Path:
    return lesson_path.with_name(FILENAME)


def ownership(committed: Document, lesson_id: str) -> list[Diagnostic]:
    """A committed fixtures file that is not this lesson's own record: another lesson's id
    (RLKL510), or a claim or exemption recorded twice (RLKL511)."""
    problems: list[Diagnostic] = []
    recorded = committed.data.get("lesson")
    if recorded != lesson_id:
        problems.append(committed.diagnostic(
            "/lesson", "RLKL510",
            f"these fixtures are for lesson {recorded!r}, not {lesson_id!r} beside them; "
            "run `rlkl regen` to record this lesson"))
    seen: set[str] = set()
    for index, entry in enumerate(committed.data.get("claims", [])):
        if entry["id"] in seen:
            problems.append(committed.diagnostic(
                f"/claims/{index}", "RLKL511",
                f"claim {entry['id']} is recorded twice; run `rlkl regen`"))
        seen.add(entry["id"])
    exempt = [json.dumps(e, sort_keys=True) for e in committed.data.get("exempt", [])]
    for index, entry in enumerate(exempt):
        if entry in exempt[:index]:
            problems.append(committed.diagnostic(
                f"/exempt/{index}", "RLKL511",
                "this exempt number is recorded twice; run `rlkl regen`"))
    return problems
