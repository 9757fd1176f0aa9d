"""Prose fields are read from the models: a string field is prose exactly when it is
annotated ``Prose``, and every other string field is one of the kinds listed here, so a new
string field must be declared one or the other."""

from __future__ import annotations

import json
from pathlib import Path

from rlkl.claims.prose.fields import ITEM, prose_paths, prose_strings, string_fields

SEED = Path(__file__).resolve().parents[2] / "content" / "policy-gradient-kl-control"

# string fields that are not prose, each for a reason
NOT_PROSE = {
    ("$schema",): "a URL",
    ("id",): "an identifier",
    ("paper", "title"): "the cited work's own words",
    ("paper", "authors"): "the cited work's own words",
    ("paper", "arxiv"): "an identifier",
    ("paper", "version"): "an identifier",
    ("paper", "url"): "a URL",
    ("paper", "checked"): "a date",
    ("symbols", ITEM, "symbol"): "notation",
    ("interfaces", ITEM, "direction"): "an enum",
    ("prerequisites", ITEM): "an identifier",
    ("related", ITEM): "an identifier",
    ("sources", ITEM, "title"): "the cited work's own words",
    ("sources", ITEM, "url"): "a URL",
    ("sources", ITEM, "authors"): "the cited work's own words",
    ("sources", ITEM, "version"): "an identifier",
    ("level",): "an identifier",
    ("kind",): "an identifier",
    ("branch",): "an identifier",
    ("workstream",): "an identifier",
    ("visualFamily",): "an identifier",
    ("labId",): "an identifier",
    ("science", ITEM, "equation"): "LaTeX, checked as an equation, not as prose",
    ("history", ITEM, "date"): "a date",
    ("history", ITEM, "change"): "the lesson's change log, not its content",
}


def test_every_string_field_is_prose_or_not_for_a_reason() -> None:
    assert {path for path, prose in string_fields().items() if not prose} == set(NOT_PROSE)
    assert len(prose_paths()) == 38


def test_prose_strings_walk_items_and_objects_of_the_seed() -> None:
    lesson = json.loads((SEED / "lesson.json").read_text(encoding="utf-8"))
    found = dict(prose_strings(lesson))
    assert found["/name"] == lesson["name"]
    assert found["/check/options/1"] == lesson["check"]["options"][1]
    assert found["/specs/0/label"] == lesson["specs"][0]["label"]
    assert "/id" not in found and not any(p.startswith("/sources") for p in found)
    assert not any(p.endswith("/equation") for p in found)


def test_a_value_of_the_wrong_type_is_skipped() -> None:
    odd = {"name": ["a list", 2], "specs": {"label": "x"}, "check": {"options": "one"},
           "mechanism": ["ok", 3], "limits": {"questions": [{"question": "q 1"}, "x"]}}
    assert dict(prose_strings(odd)) == {"/mechanism/0": "ok", "/limits/questions/0/question": "q 1"}
