"""``rlkl explain CODE``: meaning, example and fix, from the one code table."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from rlkl.cli import main
from rlkl.diagnostics import CODES, explain

# Every code of these ranges carries an example and a fix (codes added later may start
# without them: ``rlkl explain`` then prints the meaning alone).
DOCUMENTED = ("RLKL1", "RLKL2", "RLKL3", "RLKL4", "RLKL5", "RLKL6")


@pytest.mark.parametrize("code", sorted(c for c in CODES if c.startswith(DOCUMENTED)))
def test_every_code_has_meaning_example_and_fix(code: str) -> None:
    meaning = CODES[code]
    assert meaning.example and meaning.fix  # type: ignore[attr-defined]
    text = explain(code)
    assert text is not None
    assert text.startswith(f"{code}: {meaning}\n")
    assert "\nExample:\n" in text and "\nHow to fix:\n" in text


def test_cli_explains_a_code_in_any_spelling() -> None:
    runner = CliRunner()
    for spelling in ("RLKL401", "rlkl401", "401"):
        result = runner.invoke(main, ["explain", spelling])
        assert result.exit_code == 0
        assert result.output.startswith("RLKL401: a computed number")
        assert "regen --fix" in result.output


def test_cli_refuses_an_unknown_code_and_lists_all_without_one() -> None:
    runner = CliRunner()
    unknown = runner.invoke(main, ["explain", "RLKL999"])
    assert unknown.exit_code == 2 and "not a diagnostic code" in unknown.output
    listing = runner.invoke(main, ["explain"])
    assert listing.exit_code == 0
    assert len(listing.output.splitlines()) == len(CODES)


def test_codes_are_still_plain_strings_for_the_readme_table() -> None:
    for meaning in CODES.values():
        assert isinstance(meaning, str) and str(meaning) == meaning
