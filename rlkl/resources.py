"""Locate the published JSON Schemas, whether rlkl runs from a checkout or a wheel."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

_PACKAGE_DIR = Path(__file__).resolve().parent


def schema_dir() -> Path:
    """The folder of ``*.schema.json``: ``rlkl/_schema`` in a wheel, ``schema/`` in a checkout."""
    bundled = _PACKAGE_DIR / "_schema"
    return bundled if bundled.is_dir() else _PACKAGE_DIR.parent / "schema"


@cache
def load_schema(name: str) -> dict[str, Any]:
    """Parse ``schema/<name>.schema.json`` (cached; schemas are read-only data)."""
    path = schema_dir() / f"{name}.schema.json"
    with path.open(encoding="utf-8") as handle:
        schema: dict[str, Any] = json.load(handle)
    return schema
