"""Generate the published JSON Schemas from the models in :mod:`rlkl.models`.

``python -m rlkl.schema`` rewrites ``schema/lesson.schema.json`` and
``schema/catalog.schema.json``; ``python -m rlkl.schema --check`` exits 1 when either
committed file differs from what the models generate (a test runs the same comparison).

Optional fields are simply absent from ``required``: a JSON ``null`` is never accepted, so
the generator drops pydantic's nullable wrappers and ``null`` defaults.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from rlkl.models import Catalog, Lesson
from rlkl.resources import schema_dir

SCHEMA_BASE = "https://rlkl.dev/schema/"
MODELS: dict[str, type[BaseModel]] = {"lesson": Lesson, "catalog": Catalog}


class _Generator(GenerateJsonSchema):
    """Draft 2020-12 output with absent-not-null optional fields."""

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        return self.generate_inner(schema["schema"])

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        result = super().default_schema(schema)
        if result.get("default", ...) is None:
            del result["default"]
        return result


def _complete_refs(schema: dict[str, Any]) -> None:
    """Give every property that is a ``$ref`` its own ``type`` and ``title`` (for editors)."""
    definitions = schema.get("$defs", {})
    for holder in [schema, *definitions.values()]:
        for prop in holder.get("properties", {}).values():
            ref = prop.get("$ref")
            if ref:
                target = definitions[ref.rsplit("/", 1)[1]]
                prop.setdefault("title", target["title"])
                prop.setdefault("type", target["type"])


def generate(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the model registered as ``name``."""
    body = MODELS[name].model_json_schema(by_alias=True, schema_generator=_Generator)
    _complete_refs(body)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{SCHEMA_BASE}{name}.schema.json",
        **body,
    }


def render(name: str) -> str:
    """The schema ``name`` as committed: 2-space indented JSON with a final newline."""
    return json.dumps(generate(name), indent=2, ensure_ascii=False) + "\n"


def stale(folder: Path | None = None) -> list[Path]:
    """Schema files in ``folder`` (default: the schema folder) that differ from the models."""
    folder = folder or schema_dir()
    result = []
    for name in MODELS:
        path = folder / f"{name}.schema.json"
        if not path.is_file() or path.read_text(encoding="utf-8") != render(name):
            result.append(path)
    return result


def main(argv: list[str] | None = None) -> int:
    """Write the schemas (or, with ``--check``, report stale ones); returns the exit code."""
    args = sys.argv[1:] if argv is None else argv
    folder = schema_dir()
    if "--check" in args:
        outdated = stale(folder)
        for path in outdated:
            print(f"{path} is out of date; run: python -m rlkl.schema", file=sys.stderr)
        return 1 if outdated else 0
    folder.mkdir(parents=True, exist_ok=True)
    for name in MODELS:
        (folder / f"{name}.schema.json").write_text(render(name), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
