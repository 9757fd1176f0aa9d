"""The codes table (CODES): well formed, and published as the rules reference."""

from __future__ import annotations

import re

from rlkl.diagnostics import CODES, codes_table

from .helpers import REPO


def test_the_rules_page_has_the_table_and_a_section_per_code() -> None:
    """The rules reference (generated when the site is built) is the codes table and one
    section per code; the README links to the guides instead of repeating them."""
    from rlkl.site.pages import rules_markdown

    text = rules_markdown()
    assert codes_table() in text
    for code, entry in CODES.items():
        assert f"## {code} `{entry.name}`" in text
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "site/docs/guide/validating.md" in readme and len(readme.splitlines()) < 500


def test_codes_are_well_formed() -> None:
    assert CODES
    for code, entry in CODES.items():
        assert re.fullmatch(r"RLKL[1-9]\d\d", code)
        assert entry.meaning and entry.meaning == entry.meaning.strip()


def test_the_readme_states_the_corpus_line_rlkl_check_prints() -> None:
    """The README's quick start quotes what the first command prints for the shipped content."""
    from rlkl.check import check_paths
    from rlkl.render import render

    result = check_paths([REPO / "content"])
    printed = render(result.diagnostics, result.summary(), "text").strip().splitlines()[-1]
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    quoted = re.search(r"\(`(rlkl: \d+ files, [^`]+)`\)", readme)
    assert quoted is not None and quoted.group(1) == printed
