"""The CLI reference page is generated from the commands and kept current."""

from __future__ import annotations

from rlkl.cli import main
from rlkl.cli.reference import page, reference
from rlkl.site.pages import CLI_PAGE


def test_every_command_is_documented() -> None:
    for name in main.list_commands(None):  # type: ignore[arg-type]
        assert f"### `rlkl {name}`" in reference()


def test_the_sites_cli_page_is_current() -> None:
    """The site ships the page (it imports nothing of the CLI)."""
    assert CLI_PAGE.read_text(encoding="utf-8") == page(), (
        "regenerate with: python -m rlkl.cli.reference --page")
