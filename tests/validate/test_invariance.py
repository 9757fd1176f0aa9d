"""Reformatting a lesson or reordering its keys changes no diagnostic (except positions)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from rlkl.validate import validate_paths

from .helpers import HERE, NEGATIVE, POSITIVE, seed

CATALOG = HERE / "catalog.json"


def _shuffled(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: _shuffled(v, rng) for k, v in items}
    if isinstance(value, list):
        return [_shuffled(v, rng) for v in value]
    return value


def _signature(path: Path) -> list[tuple[str, str, str]]:
    return sorted((d.code, d.pointer, d.severity.value)
                  for d in validate_paths([path]).diagnostics)


SCHEMA_FAULTS = sorted(p for p in NEGATIVE.glob("*.json")
                       if not p.name.endswith(".expected.json")
                       and p.read_bytes()[:1] == b"{"
                       and _signature(p)[0][0][4] in "23")  # schema, model, corpus faults


@pytest.mark.parametrize("source", [POSITIVE / "policy-gradient-kl-control.json", *SCHEMA_FAULTS],
                         ids=lambda p: p.name)
@pytest.mark.parametrize("style", ["compact", "indent4", "shuffled", "shuffled-ascii"])
def test_reformatting_changes_nothing(source: Path, style: str, tmp_path: Path) -> None:
    data = json.loads(source.read_text(encoding="utf-8"))
    rng = random.Random(7)
    if style.startswith("shuffled"):
        data = _shuffled(data, rng)
    text = {
        "compact": json.dumps(data, separators=(",", ":"), ensure_ascii=False),
        "indent4": json.dumps(data, indent=4, ensure_ascii=False),
        "shuffled": json.dumps(data, indent=1, ensure_ascii=False),
        "shuffled-ascii": json.dumps(data, indent="\t"),
    }[style]
    copy = tmp_path / source.name
    copy.write_text(text, encoding="utf-8")
    shutil.copy(CATALOG, tmp_path / "catalog.json")  # references resolve as in the original
    assert _signature(copy) == _signature(source)


def test_positions_follow_the_reformatted_text(tmp_path: Path) -> None:
    data = seed()
    data["check"]["answer"] = 7
    copy = tmp_path / "policy-gradient-kl-control.json"
    shutil.copy(CATALOG, tmp_path / "catalog.json")
    text = json.dumps(data, indent=3, ensure_ascii=False)
    copy.write_text(text, encoding="utf-8")
    [diagnostic] = validate_paths([copy]).diagnostics
    line = text.splitlines()[diagnostic.line - 1]
    assert line[diagnostic.column - 1 :].startswith("7")
    assert line.strip() == '"answer": 7,'
