"""Editor completion: files may name their schema, and the schemas document every field."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from rlkl.resources import load_schema
from rlkl.validate import validate_paths

REPO = Path(__file__).resolve().parents[2]
SEED = REPO / "content" / "policy-gradient-kl-control" / "lesson.json"


def _properties(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    holders = [("", schema), *((f"$defs/{k}", v) for k, v in schema.get("$defs", {}).items())]
    for where, holder in holders:
        for name, prop in holder.get("properties", {}).items():
            yield f"{where}/{name}", prop


@pytest.mark.parametrize("name", ["lesson", "catalog", "bindings"])
def test_every_property_has_a_title_and_a_description(name: str) -> None:
    schema = load_schema(name)
    undocumented = [
        where
        for where, prop in _properties(schema)
        if not (prop.get("title") and prop.get("description")) and "$ref" not in prop
    ]
    assert undocumented == []


@pytest.mark.parametrize("name", ["lesson", "catalog", "bindings"])
def test_schema_examples_are_valid_against_their_own_schema(name: str) -> None:
    schema = load_schema(name)
    validator = jsonschema.Draft202012Validator(schema)
    found = 0
    for where, prop in _properties(schema):
        for example in prop.get("examples", []):
            found += 1
            target = prop
            if "$ref" in prop:
                target = {**schema["$defs"][prop["$ref"].rsplit("/", 1)[1]], **prop}
                target.pop("$ref")
            sub = {"$defs": schema.get("$defs", {}), **target}
            errors = list(validator.evolve(schema=sub).iter_errors(example))
            assert errors == [], (where, example, errors[0].message if errors else "")
    assert found >= 2


def test_a_lesson_may_name_its_schema_and_the_seed_still_validates(tmp_path: Path) -> None:
    assert validate_paths([SEED]).diagnostics == []
    folder = tmp_path / "content" / "policy-gradient-kl-control"
    folder.mkdir(parents=True)
    (tmp_path / "content" / "catalog.json").write_bytes(
        (REPO / "content/catalog.json").read_bytes()
    )
    data = json.loads(SEED.read_text(encoding="utf-8"))
    named = {"$schema": "../../schema/lesson.schema.json", **data}
    (folder / "lesson.json").write_text(json.dumps(named, ensure_ascii=False), encoding="utf-8")
    assert [
        d for d in validate_paths([folder / "lesson.json"]).diagnostics if d.code != "RLKL306"
    ] == []
    named["$schema"] = 7
    (folder / "lesson.json").write_text(json.dumps(named, ensure_ascii=False), encoding="utf-8")
    diagnostics = validate_paths([folder / "lesson.json"]).diagnostics
    codes = [(d.code, d.pointer) for d in diagnostics if d.code != "RLKL306"]
    assert codes == [("RLKL203", "/$schema")]
