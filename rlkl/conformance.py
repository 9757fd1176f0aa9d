"""Check one loaded document against its published JSON Schema, then its typed model.

The schema pass (jsonschema, draft 2020-12) gives pointer-precise diagnostics for structure:
a missing field is reported at the object that lacks it, an unknown field at its key. Only a
structurally valid document reaches the model pass, which adds the rules JSON Schema cannot
express (see :mod:`rlkl.models`); so one fault never produces two diagnostics.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel
from pydantic import ValidationError as ModelError

from rlkl.diagnostics import CODES, Diagnostic
from rlkl.loader import Document, join_pointer
from rlkl.models import SLUG_PATTERN, URL_PATTERN
from rlkl.resources import schema_errors

if TYPE_CHECKING:
    from jsonschema.exceptions import (  # type: ignore[import-untyped, unused-ignore]
        ValidationError as SchemaError,
    )

M = TypeVar("M", bound=BaseModel)

_JSON_TYPES = {dict: "an object", list: "an array", str: "a string", bool: "true/false",
               int: "a number", float: "a number", type(None): "null"}
_TYPE_NAMES = {"object": "an object", "array": "an array", "string": "a string",
               "integer": "a whole number", "number": "a number", "boolean": "true or false"}


def _found(value: Any) -> str:
    return _JSON_TYPES.get(type(value), type(value).__name__)


def _field(pointer: str) -> str:
    """How a message names the value at ``pointer`` (e.g. ``check.answer``, ``sources[1].url``)."""
    if not pointer:
        return "the document"
    out = ""
    for token in pointer[1:].split("/"):
        out += f"[{token}]" if token.isdigit() else (f".{token}" if out else token)
    return f'"{out}"'


def _schema_diagnostics(document: Document, error: SchemaError) -> Iterator[Diagnostic]:
    pointer = join_pointer("", *error.absolute_path)
    kind, expected, value = error.validator, error.validator_value, error.instance
    where = _field(pointer)
    if kind == "required":
        for name in expected:
            if isinstance(value, dict) and name not in value:
                yield document.diagnostic(pointer, "RLKL201",
                                          f'missing required field "{name}" in {where}')
        return
    if kind == "additionalProperties" and isinstance(value, dict):
        known = list(error.schema.get("properties", {}))
        for name in value:
            if name in known:
                continue
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            hint = f' (did you mean "{close[0]}"?)' if close else f"; allowed: {', '.join(known)}"
            yield document.diagnostic(join_pointer(pointer, name), "RLKL202",
                                      f'unknown field "{name}" in {where}{hint}', key=True)
        return
    yield document.diagnostic(pointer, *_describe(kind, expected, value, where))


def _describe(kind: Any, expected: Any, value: Any, where: str) -> tuple[str, str]:
    """(code, message) for a schema error other than required/additionalProperties."""
    shown = repr(value) if isinstance(value, str) and len(value) <= 60 else _found(value)
    if kind == "type":
        wanted = _TYPE_NAMES.get(str(expected), str(expected))
        return "RLKL203", f"{where} must be {wanted}, found {_found(value)}"
    if kind == "pattern" and expected == SLUG_PATTERN:
        return "RLKL204", (f"{where} must be a lesson id (lowercase letters, digits and single "
                           f"hyphens, e.g. 'ppo-clipped-objective'), found {shown}")
    if kind == "pattern" and expected == URL_PATTERN:
        return "RLKL205", f"{where} must be an http:// or https:// URL, found {shown}"
    if kind in ("enum", "const"):
        allowed = expected if isinstance(expected, list) else [expected]
        return "RLKL206", (f"{where} must be one of {', '.join(repr(a) for a in allowed)}, "
                           f"found {shown}")
    if kind == "minLength" and expected == 1:
        return "RLKL207", f"{where} must not be empty"
    if kind == "minItems":
        return "RLKL207", f"{where} needs at least {expected} item(s), found {len(value)}"
    if kind == "pattern":
        return "RLKL207", f"{where} must match {expected}, found {shown}"
    if kind in ("minimum", "maximum"):
        bound = "at least" if kind == "minimum" else "at most"
        return "RLKL207", f"{where} must be {bound} {expected}, found {value!r}"
    return "RLKL207", f"{where} breaks the constraint {kind}={expected!r}"


def _model_diagnostics(document: Document, error: ModelError) -> Iterator[Diagnostic]:
    for item in error.errors(include_url=False):
        pointer = join_pointer("", *item["loc"])
        code = item["type"]
        context = item.get("ctx") or {}
        if code in CODES:
            pointer += str(context.get("at", ""))
            message = str(context.get("message", item["msg"]))
        elif item["type"] == "int_type":  # JSON Schema counts 1.0 as an integer; we do not
            code = "RLKL203"
            message = (f"{_field(pointer)} must be a whole number written without a decimal "
                       f"point, found {item['input']!r}")
        else:  # a type or constraint the schema pass let through
            code, message = "RLKL203", f"{_field(pointer)}: {item['msg']}"
        yield document.diagnostic(pointer, code, message)


def check_document(
    document: Document, model: type[M], schema_name: str
) -> tuple[M | None, list[Diagnostic]]:
    """Validate ``document`` with the schema ``schema_name`` and then ``model``.

    Returns the model instance (None when invalid) and the located diagnostics.
    """
    errors = sorted(schema_errors(schema_name, document.data),
                    key=lambda e: (list(map(str, e.absolute_path)), str(e.validator)))
    diagnostics = [d for error in errors for d in _schema_diagnostics(document, error)]
    if diagnostics:
        return None, sorted(set(diagnostics))
    try:
        return model.model_validate(document.data), []
    except ModelError as error:
        return None, sorted(set(_model_diagnostics(document, error)))
