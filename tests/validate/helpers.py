"""Shared paths and helpers for the validation tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
NEGATIVE = HERE / "negative"
POSITIVE = HERE / "positive"
SEED = REPO / "content" / "policy-gradient-kl-control" / "lesson.json"


def examples(folder: Path) -> list[Path]:
    """Example files (``*.json`` except sidecars) and example corpus folders in ``folder``."""
    return sorted(
        p for p in folder.iterdir()
        if p.is_dir() or (p.suffix == ".json" and not p.name.endswith(".expected.json"))
    )


def expected(example: Path) -> list[dict[str, Any]]:
    """The diagnostics an example's sidecar promises."""
    sidecar = example / "expected.json" if example.is_dir() else example.with_name(
        example.stem + ".expected.json")
    items: list[dict[str, Any]] = json.loads(sidecar.read_text(encoding="utf-8"))["diagnostics"]
    return items


def seed() -> dict[str, Any]:
    """A fresh copy of the parsed seed lesson."""
    data: dict[str, Any] = json.loads(SEED.read_text(encoding="utf-8"))
    return data
