"""Fixtures: the committed, reviewable record of every claim of a lesson.

One ``fixtures.json`` per lesson folder, validated by ``schema/fixtures.schema.json``.
Deterministic: claims in document order, keys in a fixed order, floats as Python's shortest
round-trip repr, UTF-8, two-space indent, newline at the end. ``check`` compares the
committed file with a fresh one: a claim that is new or whose text or inputs changed is
*stale*, a recorded claim that is gone is *orphaned*, and a claim whose recomputed value
differs (or a different core version) is *drift*.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import jsonschema

from rlkl import __version__
from rlkl.claims.records import LessonClaims
from rlkl.claims.scanner import MINUSES
from rlkl.claims.source import locate
from rlkl.diagnostics import Diagnostic
from rlkl.loader import Document, LoadError, load_json
from rlkl.resources import load_schema

FILENAME = "fixtures.json"
FORMAT = 1
# Not compared for staleness: results (compared for drift) and where the number sits in its
# string (text inserted earlier in a field moves it without changing the claim).
_VOLATILE = ("computed", "verified", "span")


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
                "inputs": v.inputs,
                "authored": v.mention.text,
                "decimals": v.mention.decimals,
                "computed": v.computed,
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
        "core": __version__,
        "claims": entries,
        "exempt": exempt,
    }


def dumps(fixture: dict[str, Any]) -> str:
    """The canonical text of a fixture document."""
    return json.dumps(fixture, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def load(path: Path) -> tuple[Document | None, list[Diagnostic]]:
    """Read a committed fixture file strictly; schema problems are RLKL505."""
    try:
        document = load_json(path)
    except LoadError as error:
        return None, error.diagnostics
    validator = jsonschema.Draft202012Validator(load_schema("fixtures"))
    problems = [
        document.diagnostic(
            "".join(f"/{p}" for p in e.absolute_path),
            "RLKL505",
            f"fixture file does not match its schema: {e.message}",
        )
        for e in validator.iter_errors(document.data)
    ]
    return (None if problems else document), problems


def compare(
    claims: LessonClaims,
    lesson: Document,
    committed: Document | None,
    fixture_path: Path,
    fresh: dict[str, Any],
) -> list[Diagnostic]:
    """Stale, orphaned and drifted claims between the committed fixtures and ``fresh``."""
    if committed is None:
        if not fresh["claims"] and not fresh["exempt"]:
            return []  # nothing to record: a lesson without numbers needs no fixtures
        return [
            lesson.diagnostic(
                "",
                "RLKL501",
                f"no fixtures for this lesson's {len(fresh['claims'])} claims: "
                f"run `rlkl regen {fixture_path.parent.as_posix()}`",
            )
        ]
    old = {c["id"]: (i, c) for i, c in enumerate(committed.data["claims"])}
    by_id = {v.id: v for v in claims.verdicts}
    problems: list[Diagnostic] = []

    def at(claim_id: str, code: str, message: str) -> None:
        mention = by_id[claim_id].mention
        line, column = locate(lesson, mention)
        problems.append(Diagnostic(lesson.display, line, column, mention.pointer, code, message))

    for entry in fresh["claims"]:
        previous = old.get(entry["id"])
        if previous is None:
            at(
                entry["id"],
                "RLKL502",
                f"stale fixtures: claim {entry['id']} is new; run `rlkl regen`",
            )
            continue
        recorded = previous[1]
        if not entry["verified"]:
            continue  # the failing claim is the message; freshness follows from fixing it
        changed = [
            k for k in entry if k not in _VOLATILE and _glyphs(recorded.get(k)) != _glyphs(entry[k])
        ]
        if changed:
            at(
                entry["id"],
                "RLKL502",
                f"stale fixtures: claim {entry['id']} changed "
                f"({', '.join(changed)}); run `rlkl regen`",
            )
        elif not same_value(recorded.get("computed"), entry["computed"]):
            at(
                entry["id"],
                "RLKL504",
                f"drift: the core now computes {entry['computed']} for {entry['id']}, the fixture "
                f"recorded {recorded.get('computed')}; review, then run `rlkl regen`",
            )
    fresh_ids = {c["id"] for c in fresh["claims"]}
    for claim_id, (index, _) in old.items():
        if claim_id not in fresh_ids:
            problems.append(
                committed.diagnostic(
                    f"/claims/{index}",
                    "RLKL503",
                    f"orphaned fixture: claim {claim_id} is no longer "
                    "in the lesson; run `rlkl regen`",
                )
            )
    if committed.data.get("core") != fresh["core"]:
        problems.append(
            committed.diagnostic(
                "/core",
                "RLKL504",
                f"drift: fixtures were computed by core "
                f"{committed.data.get('core')}, this is {fresh['core']}; "
                "run `rlkl regen`",
            )
        )

    def settled(entry: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in entry.items() if k != "span"}

    recorded_exempt = [settled(e) for e in committed.data.get("exempt", [])]
    fresh_exempt = [settled(e) for e in fresh["exempt"]]
    in_order = sorted(claims.exempt, key=lambda e: e.mention.key)  # as build() wrote them
    for exempt, entry in zip(in_order, fresh_exempt, strict=True):
        if entry not in recorded_exempt:
            line, column = locate(lesson, exempt.mention)
            problems.append(
                Diagnostic(
                    lesson.display,
                    line,
                    column,
                    exempt.mention.pointer,
                    "RLKL502",
                    f"stale fixtures: exempt number {exempt.mention.text} is new or changed; "
                    "review it, then run `rlkl regen`",
                )
            )
    for index, entry in enumerate(recorded_exempt):
        if entry not in fresh_exempt:
            problems.append(
                committed.diagnostic(
                    f"/exempt/{index}",
                    "RLKL503",
                    f"orphaned fixture: exempt number {entry.get('authored')} is no longer in the "
                    "lesson; run `rlkl regen`",
                )
            )
    return problems


_MINUS_GLYPHS = str.maketrans(dict.fromkeys(MINUSES, "-"))


def _glyphs(value: Any) -> Any:
    """Text with every minus look-alike as ``-``: writing −2.8 as -2.8 changes no claim."""
    return value.translate(_MINUS_GLYPHS) if isinstance(value, str) else value


def same_value(recorded: Any, computed: Any) -> bool:
    """Equal up to float noise: relative 1e-12 (libm and SIMD differ in the last bits)."""
    if isinstance(recorded, list) and isinstance(computed, list):
        return len(recorded) == len(computed) and all(map(same_value, recorded, computed))
    if isinstance(recorded, bool) or isinstance(computed, bool):
        return recorded is computed
    if isinstance(recorded, (int, float)) and isinstance(computed, (int, float)):
        return math.isclose(recorded, computed, rel_tol=1e-12, abs_tol=1e-15)
    return bool(recorded == computed)


def equivalent(committed: dict[str, Any], fresh: dict[str, Any]) -> bool:
    """Whether a committed fixture already says what ``fresh`` says (computed up to noise)."""
    if {k: v for k, v in committed.items() if k != "claims"} != {
        k: v for k, v in fresh.items() if k != "claims"
    }:
        return False
    old, new = committed.get("claims", []), fresh["claims"]
    return len(old) == len(new) and all(
        {k: v for k, v in a.items() if k != "computed"}
        == {k: v for k, v in b.items() if k != "computed"}
        and same_value(a.get("computed"), b["computed"])
        for a, b in zip(old, new, strict=True)
    )


def path_for(lesson_path: Path) -> Path:
    return lesson_path.with_name(FILENAME)
