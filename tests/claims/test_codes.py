"""Every diagnostic code the code base emits is documented in the one table."""

from __future__ import annotations

import re
from pathlib import Path

from rlkl.diagnostics import CODES

PACKAGE = Path(__file__).resolve().parents[2] / "rlkl"


def test_every_emitted_code_is_in_the_table() -> None:
    used = {
        code
        for path in PACKAGE.rglob("*.py")
        for code in re.findall(r'"(RLKL\d{3})"', path.read_text(encoding="utf-8"))
    }
    assert used - set(CODES) == set()
    assert {c for c in CODES if c.startswith(("RLKL4", "RLKL5", "RLKL6"))} <= used
