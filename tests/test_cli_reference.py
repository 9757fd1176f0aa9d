"""The README's command reference is generated from the commands and kept current."""

from __future__ import annotations

import re
from pathlib import Path

from rlkl.cli.reference import page, reference
from rlkl.site.pages import CLI_PAGE

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_cli_reference_is_current() -> None:
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- cli:start[^>]*-->\n(.*?)<!-- cli:end -->", text, re.DOTALL)
    assert match, "README lacks the generated command reference"
    assert match.group(1) == reference(), "regenerate with: python -m rlkl.cli.reference"


def test_every_command_is_documented() -> None:
    for name in ("validate", "check", "regen", "claims", "experiment"):
        assert f"### `rlkl {name}`" in reference()


def test_the_sites_cli_page_is_current() -> None:
    """The site ships the page (it imports nothing of the CLI)."""
    assert CLI_PAGE.read_text(encoding="utf-8") == page(), (
        "regenerate with: python -m rlkl.cli.reference --page")
