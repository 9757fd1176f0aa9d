"""Which lesson fields are prose, read from the models: a field annotated ``Prose``.

Numbers in prose fields are numeric claims; every one must be verified or exempt. Fields
that are identifiers or metadata (``id``, ``workstream``, URLs, enums, ``paper``, ``sources``,
``history``) and LaTeX ``equation`` strings (notation, not claims) are ``Text`` or narrower in
:mod:`rlkl.models`, so a string field is prose exactly when its model says so.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from functools import cache
from typing import Any, Union

from pydantic import BaseModel

from rlkl.loader import escape_token
from rlkl.models import PROSE, Lesson

ITEM = "[]"
"""The step of a path that stands for every item of a list."""

Path = tuple[str, ...]  # JSON member names, and ITEM for "each item of this list"


def _leaves(annotation: Any, metadata: list[Any], at: Path) -> Iterator[tuple[Path, bool]]:
    """Each string field under a value of type ``annotation`` found at ``at``, and whether
    it is prose (its type is annotated with :data:`rlkl.models.PROSE`)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        inner, *marks = typing.get_args(annotation)
        yield from _leaves(inner, [*metadata, *marks], at)
    elif origin in (Union, types.UnionType):
        for option in typing.get_args(annotation):
            if option is not type(None):
                yield from _leaves(option, metadata, at)
    elif origin is list:
        yield from _leaves(typing.get_args(annotation)[0], [], (*at, ITEM))
    elif annotation is str or origin is typing.Literal:
        yield at, PROSE in metadata
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        for name, field in annotation.model_fields.items():
            yield from _leaves(field.annotation, list(field.metadata), (*at, field.alias or name))


@cache
def string_fields() -> dict[Path, bool]:
    """Every string field of a lesson, in the models' declaration order, and whether it is
    prose: ``("name",)``, ``("mechanism", ITEM)``, ``("specs", ITEM, "label")``, ..."""
    return dict(_leaves(Lesson, [], ()))


def prose_paths() -> tuple[Path, ...]:
    """The prose fields of :func:`string_fields`, in order."""
    return tuple(path for path, prose in string_fields().items() if prose)


def _strings(value: Any, path: Path, pointer: str) -> Iterator[tuple[str, str]]:
    if not path:
        if isinstance(value, str):
            yield pointer, value
    elif path[0] == ITEM:
        if isinstance(value, list):
            for index, item in enumerate(value):
                yield from _strings(item, path[1:], f"{pointer}/{index}")
    elif isinstance(value, dict):
        yield from _strings(value.get(path[0]), path[1:], f"{pointer}/{escape_token(path[0])}")


def prose_strings(lesson: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Yield ``(json_pointer, text)`` for every prose string of a lesson (as read, before or
    without validation: a value of the wrong type is skipped), field by field in
    :func:`prose_paths` order."""
    for path in prose_paths():
        yield from _strings(lesson, path, "")


def described() -> str:
    """The prose fields as the authoring guide lists them: ``name``, ``mechanism[]``,
    ``specs[].label/value/context``, ``limits.questions[].question/answer``, ..."""
    groups: dict[str, list[str]] = {}
    for path in prose_paths():
        last = max(i for i, step in enumerate(path) if step != ITEM)
        parent = _shown(path[:last])
        groups.setdefault(parent, []).append(_shown(path[last:]))
    return ", ".join(f"`{member}`" for member in groups.pop("")) + ", " + ", ".join(
        f"`{parent}.{'/'.join(members)}`" for parent, members in groups.items())


def _shown(path: Path) -> str:
    return ".".join(path).replace(f".{ITEM}", ITEM)
