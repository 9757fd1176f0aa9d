"""``rlkl new``: a new lesson folder an author fills in, and the placeholders it leaves.

:func:`new_lesson` writes ``<content>/<id>/lesson.json`` (every required field, placeholder
prose), ``<content>/<id>/claims.yaml`` (a commented stub) and the lesson's catalog entry,
each atomically; the catalog keeps its own formatting (the entry is spliced in, or a planned
entry's status is switched to published). Every placeholder starts with
:data:`PLACEHOLDER` and says what to write; :func:`placeholders` finds the ones left, so
``rlkl check`` tells the author exactly what is still to do (``RLKL440``, ``RLKL441``).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rlkl.atomic import write_atomic
from rlkl.diagnostics import Diagnostic
from rlkl.loader import Document, LoadError, load_json
from rlkl.models import SLUG_PATTERN

PLACEHOLDER = "TODO(rlkl new):"
PLACEHOLDER_URL = "https://example.org/TODO-rlkl-new"
SCHEMA_URL = "https://rlkl.dev/schema/{name}.schema.json"
CATALOG = "catalog.json"
MAX_ID_LENGTH = 80


class ScaffoldError(ValueError):
    """The lesson cannot be created (invalid id, existing lesson, unreadable catalog)."""


@dataclass(frozen=True)
class Scaffold:
    """The files ``rlkl new`` wrote."""

    lesson: Path
    bindings: Path
    catalog: Path
    catalog_change: str  # "added" | "published" (a planned entry switched)


def _todo(what: str) -> str:
    return f"{PLACEHOLDER} {what}"


def schema_ref(target: Path, name: str) -> str:
    """How ``target`` (a file to write) should name the schema ``name``: a relative path to
    ``schema/<name>.schema.json`` of the enclosing project when there is one, else its URL."""
    for folder in target.resolve().parents:
        candidate = folder / "schema" / f"{name}.schema.json"
        if candidate.is_file():
            return Path(os.path.relpath(candidate, target.resolve().parent)).as_posix()
    return SCHEMA_URL.format(name=name)


def lesson_skeleton(lesson_id: str, title: str, schema: str) -> dict[str, Any]:
    """A schema-valid lesson whose prose is placeholders, each saying what to write."""
    return {
        "$schema": schema,
        "id": lesson_id,
        "name": title,
        "description": _todo("two or three sentences on what the lesson covers."),
        "mechanism": [
            _todo("the mechanism as ordered steps, one string per step."),
        ],
        "learningObjective": _todo("what the learner can do after this lesson."),
        "engineeringExample": _todo(
            "the worked example as a scenario sentence with its numbers; bind each number "
            "in claims.yaml (inputs, outputs computed with rlkl.core) or exempt it."
        ),
        "check": {
            "question": _todo("the check question, with the inputs it needs."),
            "options": [
                _todo("the correct option, its number first, then why."),
                _todo("a distractor, its number first, then the mistake it encodes."),
                _todo("another distractor, its number first, then its mistake."),
            ],
            "answer": 0,
            "explanation": _todo("why the keyed option is right, starting with its number."),
        },
        "prerequisites": [],
        "related": [],
        "sources": [
            {"title": _todo("the title of the primary source."), "url": PLACEHOLDER_URL},
        ],
        "science": [
            {
                "title": _todo("the heading of the worked relation."),
                "equation": r"\text{"
                + _todo("the relation in LaTeX; bind it in claims.yaml under equations")
                + "}",
                "explanation": _todo("the relation worked in prose, with numbers."),
            }
        ],
    }


def bindings_stub(lesson_id: str, schema: str) -> str:
    """A commented ``claims.yaml`` with an editor modeline and one example of each section."""
    return f"""# yaml-language-server: $schema={schema}
# Claim bindings for {lesson_id}: every number in the prose and every equation must be checked
# or exempt with a reason. README: "Your first lesson"; site/docs/guide/authoring.md.
lesson: {lesson_id}

# Sentences with numbers: {{slot}} = a number; slots under `where` are recomputed with rlkl.core.
claims: []
#  - id: ratio
#    in: /engineeringExample
#    says: "old probability {{p_old}}, current probability {{p_new}}, ratio is {{ratio}}"
#    where:
#      ratio: ppo_ratio_from_probs(p_new, p_old)

# The check question: the keyed option's first number must equal `answer`.
# quiz:
#   answer: ppo_clip_objective(quiz_ratio, quiz_A, eps)

# Numbers that are not recomputed, each with the reason.
exempt: []
#  - in: /engineeringExample
#    says: "the {{t}}-th step"
#    reason: "Index notation: names a time step, not a quantity."

# Equations (science[].equation): each relation is evaluated against an rlkl.core function.
equations: []
#  - in: /science/0/equation
#    relation: r
#    is: ppo_ratio_from_probs(pi_new, pi_old)
#    grid: {{pi_new: [0.2, 0.7], pi_old: [0.5, 0.9]}}
#    worked: {{pi_new: p_new, pi_old: p_old}}
"""


def _indent_of(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    return re.match(r"[ \t]*", text[start:offset]).group(0)  # type: ignore[union-attr]


def catalog_with(text: str, document: Document | None, entry: dict[str, str]) -> tuple[str, str]:
    """The catalog ``text`` with ``entry`` in it, the rest byte for byte; and what changed.

    A planned entry with the same id is switched to published; otherwise the entry is spliced
    in after the last one, indented like it. ``document`` is ``None`` for a new catalog.
    """
    if document is None:
        return json.dumps({"lessons": [entry]}, indent=2, ensure_ascii=False) + "\n", "added"
    data = document.data
    lessons = data.get("lessons") if isinstance(data, dict) else None
    if not isinstance(lessons, list):
        raise ScaffoldError(f"{document.display}: has no \"lessons\" list; fix the catalog first")
    for index, item in enumerate(lessons):
        if isinstance(item, dict) and item.get("id") == entry["id"]:
            if item.get("status") != "planned":
                raise ScaffoldError(
                    f"lesson id {entry['id']!r} is already in {document.display} "
                    f"(status {item.get('status')!r}); choose another id"
                )
            start, end = document.value_range(f"/lessons/{index}/status")
            return text[:start] + '"published"' + text[end:], "published"
    if not lessons:
        start, end = document.value_range("/lessons")
        inner = json.dumps([entry], indent=2, ensure_ascii=False)
        inner = inner.replace("\n", "\n" + _indent_of(text, start))
        return text[:start] + inner + text[end:], "added"
    last_start, last_end = document.value_range(f"/lessons/{len(lessons) - 1}")
    last = text[last_start:last_end]
    if "\n" in last:
        indent = _indent_of(text, last_start)
        unit = _indent_of(text, text.find('"', last_start))[len(indent) :] or "  "
        body = json.dumps(entry, indent=len(unit), ensure_ascii=False).replace("\n", "\n" + indent)
        addition = ",\n" + indent + body
    else:
        addition = ", " + json.dumps(entry, ensure_ascii=False)
    return text[:last_end] + addition + text[last_end:], "added"


def title_from_id(lesson_id: str) -> str:
    """A first title from the slug: ``gae-advantages`` -> ``Gae advantages``."""
    words = lesson_id.split("-")
    return " ".join([words[0].capitalize(), *words[1:]])


def new_lesson(content: Path, lesson_id: str, *, title: str | None = None) -> Scaffold:
    """Create lesson ``lesson_id`` under ``content``; raise :class:`ScaffoldError` to refuse.

    Refuses an id that is not a slug, an existing lesson folder, and an id the catalog already
    publishes; nothing is written when it refuses. A missing ``content`` folder is created
    (its parent must exist), and so is a missing catalog.
    """
    if not re.fullmatch(SLUG_PATTERN, lesson_id) or len(lesson_id) > MAX_ID_LENGTH:
        raise ScaffoldError(
            f"{lesson_id!r} is not a lesson id: use lowercase letters, digits and single "
            f"hyphens (a slug such as gae-advantages), at most {MAX_ID_LENGTH} characters"
        )
    if not content.is_dir():
        if content.exists() or not content.parent.is_dir():
            raise ScaffoldError(f"{content.as_posix()} is not a folder; pass --content FOLDER")
        content.mkdir()  # a first lesson in a new repository
    folder = content / lesson_id
    if folder.exists():
        raise ScaffoldError(f"{folder.as_posix()} already exists; choose another id")
    catalog = content / CATALOG
    document: Document | None = None
    text = ""
    if catalog.exists():
        try:
            document = load_json(catalog)
        except LoadError as error:
            first = error.diagnostics[0]
            raise ScaffoldError(
                f"{first.file}:{first.line}:{first.column}: {first.message}; fix the catalog first"
            ) from None
        text = document.text
        lessons = document.data.get("lessons") if isinstance(document.data, dict) else None
        for item in lessons if isinstance(lessons, list) else []:
            if isinstance(item, dict) and item.get("id") == lesson_id and not title:
                title = item.get("title") if isinstance(item.get("title"), str) else None
    name = title or title_from_id(lesson_id)
    new_catalog, change = catalog_with(
        text, document, {"id": lesson_id, "title": name, "status": "published"}
    )
    folder.mkdir()
    lesson_path = folder / "lesson.json"
    bindings_path = folder / "claims.yaml"
    skeleton = lesson_skeleton(lesson_id, name, schema_ref(lesson_path, "lesson"))
    write_atomic(lesson_path, json.dumps(skeleton, indent=2, ensure_ascii=False) + "\n")
    write_atomic(bindings_path, bindings_stub(lesson_id, schema_ref(bindings_path, "bindings")))
    write_atomic(catalog, new_catalog)
    return Scaffold(lesson_path, bindings_path, catalog, change)


def _strings(value: Any, pointer: str) -> list[tuple[str, str]]:
    if isinstance(value, str):
        return [(pointer, value)]
    if isinstance(value, dict):
        return [
            found
            for key, item in value.items()
            for found in _strings(item, f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}")
        ]
    if isinstance(value, list):
        return [found for i, item in enumerate(value) for found in _strings(item, f"{pointer}/{i}")]
    return []


def placeholders(document: Document) -> list[Diagnostic]:
    """Every placeholder ``rlkl new`` left in a lesson, with what to write there."""
    found = []
    for pointer, text in _strings(document.data, ""):
        if text == PLACEHOLDER_URL:
            found.append(
                document.diagnostic(
                    pointer, "RLKL441", "placeholder link: write the http(s) link to the source"
                )
            )
        elif PLACEHOLDER in text:
            what = text.split(PLACEHOLDER, 1)[1].strip().rstrip("}").strip()
            found.append(document.diagnostic(pointer, "RLKL440", f"placeholder: write {what}"))
    return found
