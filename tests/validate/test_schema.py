"""The published schemas: generated from the models, current, and standard JSON Schema."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rlkl.schema import MODELS, render, stale

from .helpers import REPO, seed

SCHEMA = REPO / "schema"


def test_committed_schemas_are_current() -> None:
    assert stale(SCHEMA) == [], "schema is stale: run python -m rlkl.schema"


def test_schema_module_check_mode() -> None:
    done = subprocess.run([sys.executable, "-m", "rlkl.schema", "--check"], cwd=REPO,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", sorted(MODELS))
def test_schema_is_valid_2020_12_and_documented(name: str) -> None:
    schema = json.loads(render(name))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith(f"{name}.schema.json")

    def objects(node: Any) -> list[dict[str, Any]]:
        found = []
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                found.append(node)
            for value in node.values():
                found.extend(objects(value))
        elif isinstance(node, list):
            for value in node:
                found.extend(objects(value))
        return found

    for obj in objects(schema):
        assert obj["additionalProperties"] is False
        for prop_name, prop in obj["properties"].items():
            missing = {"type", "title", "description"} - set(prop)
            assert not missing, f"{prop_name} lacks {missing}"


def test_direction_is_an_enum() -> None:
    schema = json.loads(render("lesson"))
    direction = schema["$defs"]["Interface"]["properties"]["direction"]
    assert direction["enum"] == ["in", "out"]


@pytest.mark.skipif(shutil.which("check-jsonschema") is None,
                    reason="check-jsonschema is not installed")
def test_independent_validator_accepts_shipped_content() -> None:
    lessons = sorted(str(p) for p in (REPO / "content").rglob("lesson.json"))
    assert lessons
    for name, files in (("lesson", lessons), ("catalog", [str(REPO / "content/catalog.json")])):
        done = subprocess.run(
            ["check-jsonschema", "--schemafile", str(SCHEMA / f"{name}.schema.json"), *files],
            capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.skipif(shutil.which("check-jsonschema") is None,
                    reason="check-jsonschema is not installed")
def test_independent_validator_rejects_what_we_reject(tmp_path: Path) -> None:
    data = seed()
    data["sources"][0]["url"] = "javascript:alert(1)"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    done = subprocess.run(["check-jsonschema", "--schemafile",
                           str(SCHEMA / "lesson.schema.json"), str(bad)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1
