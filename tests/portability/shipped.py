"""Copies of the shipped corpus whose recorded floats another machine would have written."""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Iterator
from itertools import cycle
from pathlib import Path
from typing import Any

import numpy as np

CONTENT = Path(__file__).resolve().parents[2] / "content"
ULPS = (1, -2, 3, -4, -1, 2, -3, 4)  # every float moved by 1 to 4 ulps, up and down


def copy_content(tmp_path: Path, name: str = "content") -> Path:
    root = tmp_path / name
    shutil.copytree(CONTENT, root)
    return root


def fixture_files(root: Path) -> list[Path]:
    return sorted(root.glob("*/fixtures.json"))


def floats(value: Any) -> Iterator[float]:
    """Every float in a parsed JSON document."""
    if isinstance(value, float):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from floats(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from floats(item)


def moved(value: float, count: int) -> float:
    """``value`` moved by ``count`` ulps (up when positive, down when negative)."""
    towards = math.inf if count > 0 else -math.inf
    for _ in range(abs(count)):
        value = float(np.nextafter(value, towards))
    return value


def _perturb(value: Any, steps: Iterator[int]) -> Any:
    if isinstance(value, float):
        return moved(value, next(steps))
    if isinstance(value, list):
        return [_perturb(v, steps) for v in value]
    if isinstance(value, dict):
        return {k: _perturb(v, steps) for k, v in value.items()}
    return value


def perturb_fixtures(root: Path) -> int:
    """Move every float of every ``fixtures.json`` below ``root`` by ±1 to ±4 ulps (its
    text now the full repr another machine's last bits give); return how many moved."""
    moved = 0
    steps = cycle(ULPS)
    for path in fixture_files(root):
        data = json.loads(path.read_text(encoding="utf-8"))
        noisy = _perturb(data, steps)
        moved += sum(a != b for a, b in zip(floats(data), floats(noisy), strict=True))
        path.write_text(json.dumps(noisy, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return moved
