"""The README's code table is generated from CODES and kept current."""

from __future__ import annotations

import re

from rlkl.diagnostics import CODES, codes_table

from .helpers import REPO


def test_readme_codes_table_matches_codes() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- codes:start[^>]*-->\n(.*?)<!-- codes:end -->", readme, re.DOTALL)
    assert match, "README lacks the generated codes table"
    assert match.group(1) == codes_table(), "regenerate with: python -m rlkl.diagnostics"


def test_codes_are_well_formed() -> None:
    assert CODES
    for code, entry in CODES.items():
        assert re.fullmatch(r"RLKL[1-9]\d\d", code)
        assert entry.meaning and entry.meaning == entry.meaning.strip()
