"""Every file or folder in negative/ and positive/ is a test case, found automatically."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rlkl.diagnostics import CODES
from rlkl.validate import validate_paths

from .helpers import NEGATIVE, POSITIVE, examples, expected


def _observed(example: Path) -> list[dict[str, Any]]:
    result = validate_paths([example])
    items = []
    for d in result.diagnostics:
        item: dict[str, Any] = {}
        if example.is_dir():
            item["file"] = Path(d.file).resolve().relative_to(example.resolve()).as_posix()
        else:
            assert Path(d.file).resolve() == example.resolve()
        item.update(code=d.code, pointer=d.pointer, line=d.line, column=d.column)
        if d.severity.value != "error":
            item["severity"] = d.severity.value
        items.append(item)
    return items


@pytest.mark.parametrize("example", examples(NEGATIVE), ids=lambda p: p.name)
def test_negative_example(example: Path) -> None:
    promised = expected(example)
    assert promised, "a negative example must promise at least one diagnostic"
    assert _observed(example) == promised


@pytest.mark.parametrize("example", examples(POSITIVE), ids=lambda p: p.name)
def test_positive_example(example: Path) -> None:
    assert _observed(example) == []


def test_at_least_25_negative_examples() -> None:
    assert len(examples(NEGATIVE)) >= 25


def test_every_content_code_has_a_negative_example() -> None:
    covered = {item["code"] for example in examples(NEGATIVE) for item in expected(example)}
    # RLKL104 (over size) and RLKL111 (unreadable) are exercised in test_loader.py, and with
    # RLKL112 (a FIFO or folder) and RLKL113 (an unreadable folder) in tests/hostile/: a
    # 1 MiB example file, an unreadable one or a FIFO does not belong in the repository.
    wanted = {code for code in CODES if code[4] in "123"} - {
        "RLKL104", "RLKL111", "RLKL112", "RLKL113"}
    assert wanted - covered == set()
