"""Rendering: grouping, colour only when asked, GitHub escaping, the JSON contract."""

from __future__ import annotations

import json

import pytest

from rlkl.diagnostics import Diagnostic, Severity
from rlkl.render import render

DIAGNOSTICS = [
    Diagnostic("a.json", 1, 2, "/id", "RLKL204", "bad id"),
    Diagnostic("a.json", 3, 4, "", "RLKL201", "missing"),
    Diagnostic("b.json", 5, 6, "/x", "RLKL307", "50%, a:b\nnext", Severity.WARNING),
]
SUMMARY = {"files": 2, "lessons": 2, "errors": 2, "warnings": 1}


def test_text_groups_per_file() -> None:
    out = render(DIAGNOSTICS, SUMMARY, "text")
    blocks = out.strip().split("\n\n")
    assert blocks[0].splitlines() == ["a.json:1:2 /id RLKL204 bad id",
                                      "a.json:3:4 (document) RLKL201 missing"]
    assert blocks[1].startswith("b.json:5:6 /x RLKL307 warning: 50%")
    assert blocks[2] == "rlkl: 2 files, 2 lessons, 2 errors, 1 warnings"
    assert "\033[" not in out
    assert "\033[31mRLKL204\033[0m" in render(DIAGNOSTICS, SUMMARY, "text", color=True)


def test_github_escapes_data_and_properties() -> None:
    lines = render(DIAGNOSTICS, SUMMARY, "github").splitlines()
    assert lines[0] == "::error file=a.json,line=1,col=2,title=RLKL204::/id bad id"
    assert lines[2] == ("::warning file=b.json,line=5,col=6,title=RLKL307::"
                        "/x 50%25, a:b%0Anext")


def test_json_is_one_object_and_keeps_extra_summary_counts() -> None:
    payload = json.loads(render(DIAGNOSTICS, {**SUMMARY, "claims": 3}, "json"))
    assert payload["summary"]["claims"] == 3
    assert payload["diagnostics"][2]["severity"] == "warning"
    assert len(payload["diagnostics"]) == 3


def test_lone_surrogates_do_not_break_output() -> None:
    odd = [Diagnostic("a.json", 1, 1, "/\ud800", "RLKL202", 'unknown field "\ud800"')]
    for fmt in ("text", "json", "github"):
        render(odd, SUMMARY, fmt).encode("utf-8")  # must be encodable


def test_unknown_format_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        render([], SUMMARY, "xml")  # type: ignore[arg-type]
