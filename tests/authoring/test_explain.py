"""``rlkl explain CODE``: meaning, example and fix, from the one code table."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from rlkl import diagnostics
from rlkl.cli import main
from rlkl.diagnostics import CODES, Diagnostic, Severity, explain, lookup, severity_text


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_has_a_name_severity_meaning_example_and_fix(code: str) -> None:
    entry = CODES[code]
    assert re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", entry.name), entry.name
    assert entry.meaning and entry.example and entry.fix
    text = explain(code)
    assert text is not None
    assert text.startswith(f"{code} {entry.name} ({severity_text(entry)}): {entry.meaning}\n")
    assert severity_text(entry).startswith(entry.severity.value)
    assert "\nExample:\n" in text and "\nHow to fix:\n" in text
    assert explain(entry.name) == text and lookup(entry.name) == code == diagnostics.code(
        entry.name)


def test_names_are_unique_and_only_catalog_and_preview_rules_are_warnings() -> None:
    names = [entry.name for entry in CODES.values()]
    assert len(set(names)) == len(names)
    warnings = {c for c, entry in CODES.items() if entry.severity is Severity.WARNING}
    assert warnings == {"RLKL306", "RLKL307", "RLKL309", "RLKL810"}
    # a preview rule is a warning that names the release that makes it an error
    preview = {c: entry.preview for c, entry in CODES.items() if entry.preview}
    assert preview == {"RLKL810": "0.2.0"}
    assert "a warning until rlkl 0.2.0, then an error" in (explain("RLKL810") or "")
    # a diagnostic takes its code's severity, whatever its caller says
    assert Diagnostic("f", 1, 1, "", "RLKL307", "m").severity is Severity.WARNING
    assert Diagnostic("f", 1, 1, "", "RLKL401", "m", Severity.WARNING).severity is Severity.ERROR


def test_cli_explains_a_code_in_any_spelling() -> None:
    runner = CliRunner()
    for spelling in ("RLKL401", "rlkl401", "401", "computed-number-wrong"):
        result = runner.invoke(main, ["explain", spelling])
        assert result.exit_code == 0
        assert result.output.startswith("RLKL401 computed-number-wrong (error): a computed")
        assert "regen --fix" in result.output


def test_cli_refuses_an_unknown_code_and_lists_all_without_one() -> None:
    runner = CliRunner()
    unknown = runner.invoke(main, ["explain", "RLKL999"])
    assert unknown.exit_code == 2 and "not a diagnostic code" in unknown.output
    listing = runner.invoke(main, ["explain"])
    assert listing.exit_code == 0
    assert len(listing.output.splitlines()) == len(CODES)
