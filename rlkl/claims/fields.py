"""Which lesson fields are prose — the one place that says so.

Numbers in prose fields are numeric claims; every one must be verified or exempt. Fields
that are identifiers or metadata (``id``, ``workstream``, URLs, enums, ``paper``, ``sources``,
``history``) and LaTeX ``equation`` strings (notation, not claims) are not prose.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# Top-level prose fields: a string, or a list of strings.
_TOP = (
    "name",
    "shortName",
    "tagline",
    "role",
    "description",
    "mechanism",
    "learningObjective",
    "engineeringExample",
    "evidenceNotes",
    "tradeoff",
    "whyAI",
    "misconception",
    "establishes",
    "derivation",
    "scale",
    "subbranch",
    "labScope",
)
# Lists of objects: field -> the prose members of each item.
_ITEMS = {
    "specs": ("label", "value", "context"),
    "interfaces": ("name", "signal"),
    "science": ("title", "explanation", "assumptions"),
    "symbols": ("meaning",),
}
# Objects: field -> prose members (each a string or a list of strings).
_OBJECTS = {
    "check": ("question", "options", "explanation"),
    "contract": ("goal", "understand", "implement", "investigate"),
    "experiment": ("design", "reporting"),
    "limits": ("caution",),
}


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _strings(pointer: str, value: Any) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield pointer, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, str):
                yield f"{pointer}/{index}", item


def prose_strings(lesson: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Yield ``(json_pointer, text)`` for every prose string of a lesson, in document order."""
    for key in _TOP:
        yield from _strings(f"/{_escape(key)}", lesson.get(key))
    for key, members in _ITEMS.items():
        items = lesson.get(key)
        if isinstance(items, list):
            for index, item in enumerate(items):
                if isinstance(item, dict):
                    for member in members:
                        yield from _strings(f"/{key}/{index}/{member}", item.get(member))
    for key, members in _OBJECTS.items():
        obj = lesson.get(key)
        if isinstance(obj, dict):
            for member in members:
                yield from _strings(f"/{key}/{member}", obj.get(member))
    limits = lesson.get("limits")
    if isinstance(limits, dict) and isinstance(limits.get("questions"), list):
        for index, item in enumerate(limits["questions"]):
            if isinstance(item, dict):
                for member in ("question", "answer"):
                    yield from _strings(f"/limits/questions/{index}/{member}", item.get(member))
