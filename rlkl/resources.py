"""Locate the published JSON Schemas (from a checkout or a wheel) and validate against them."""

from __future__ import annotations

import json
import os
import re
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when first needed: explaining an error (~40-70 ms)
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]
    from jsonschema.exceptions import (  # type: ignore[import-untyped, unused-ignore]
        ValidationError,
    )

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


def accelerated() -> bool:
    """Whether the fast paths may be used: the compiled accelerators (jsonschema-rs,
    libyaml) and the template search that compiles no pattern per template.

    ``RLKL_REFERENCE=1`` runs the pure-Python reference path; a test compares the two paths'
    output byte for byte.
    """
    return os.environ.get("RLKL_REFERENCE", "") != "1"


@cache
def validator(name: str) -> Draft202012Validator:
    """The reference (pure-Python ``jsonschema``) validator of ``schema/<name>.schema.json``."""
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

    return Draft202012Validator(load_schema(name))


@cache
def _compiled(name: str) -> Any:
    try:
        import jsonschema_rs  # type: ignore[import-untyped, unused-ignore]
    except ImportError:  # pragma: no cover - the accelerator is optional
        return None
    return jsonschema_rs.Draft202012Validator(load_schema(name))


def schema_errors(name: str, instance: Any) -> list[ValidationError]:
    """Every error of ``instance`` against schema ``name``, as the reference validator reports
    them. jsonschema-rs only answers "valid?" first (microseconds); the errors (and their
    messages) always come from the reference, so the diagnostics are the same either way."""
    compiled = _compiled(name) if accelerated() else None
    if compiled is not None:
        try:
            if compiled.is_valid(instance):
                return []
        except (ValueError, TypeError, OverflowError, RecursionError):
            pass  # a value it cannot represent: the reference decides
    return list(validator(name).iter_errors(instance))


_REQUIREMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_EXTRA_MARKER = re.compile(r"""extra\s*==\s*["']([A-Za-z0-9._-]+)["']""")


def missing_extra(extra: str) -> list[str]:
    """The distributions of rlkl's optional ``extra`` (``pip install 'rlkl[extra]'``) that are
    not installed; empty when all are, or when rlkl runs from a checkout it was not installed
    from (no metadata to read).

    The extras are declared once, in ``pyproject.toml``; this reads them from the installed
    metadata (``Requires-Dist: mkdocs<2,>=1.6; extra == "site"``). An extra naming rlkl's own
    extras (``rlkl[experiment]``) is followed.
    """
    try:
        requires = metadata.requires("rlkl") or []
    except metadata.PackageNotFoundError:
        return []
    missing: list[str] = []
    for requirement in requires:
        marker = _EXTRA_MARKER.search(requirement)
        if marker is None or marker.group(1) != extra:
            continue
        found = _REQUIREMENT.match(requirement)
        assert found is not None, requirement
        name = found.group(0)
        if name == "rlkl":
            nested = re.search(r"\[([^\]]*)\]", requirement)
            for inner in (nested.group(1).split(",") if nested else []):
                missing += [m for m in missing_extra(inner.strip()) if m not in missing]
            continue
        try:
            metadata.version(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
    return missing
