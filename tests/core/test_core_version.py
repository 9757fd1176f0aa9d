"""The core version changes exactly when core numbers change."""

from __future__ import annotations

import inspect
import json
import math
from typing import Any

import pytest

from rlkl import core
from tests.core.golden import CALLS, GOLDEN, outputs

BUMP = (
    "rlkl.core numbers changed: if on purpose, bump CORE_VERSION in rlkl/core/version.py "
    "and run `python -m tests.core.golden --write` (then `rlkl regen content`)"
)


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(_close, a, b))
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
    return bool(a == b)


def test_golden_outputs_are_those_of_this_core_version() -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert golden["core"] == core.CORE_VERSION, (
        "CORE_VERSION changed: record the new golden outputs with "
        "`python -m tests.core.golden --write`"
    )
    now = outputs()
    missing = sorted(set(now) - set(golden["outputs"]))
    assert not missing, f"no golden output for {missing}: run `python -m tests.core.golden --write`"
    changed = [k for k, v in now.items() if not _close(golden["outputs"][k], v)]
    assert not changed, f"{BUMP}; changed: {changed}"


@pytest.mark.parametrize(
    "name", [n for n in core.__all__ if inspect.isfunction(getattr(core, n))]
)
def test_every_core_function_has_a_golden_call(name: str) -> None:
    assert name in CALLS, f"add a call of {name} to tests/core/golden.py CALLS"


def test_fixtures_record_the_core_version_not_the_package_version() -> None:
    from rlkl.claims.fixtures.fixtures import build
    from rlkl.claims.records import LessonClaims

    assert build(LessonClaims("x", ()))["core"] == core.CORE_VERSION
