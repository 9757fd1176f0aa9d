"""Mistakes in claims.yaml get located diagnostics, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.claims.helpers import SEED, Workspace, find

GOOD = "lesson: policy-gradient-kl-control\nclaims:\n"


@pytest.mark.parametrize(
    ("yaml", "code", "pointer", "line"),
    [
        ("claims: [\n", "RLKL601", "", 2),
        ("claims:\n  - id: a\n    says: x {y}\n    bogus: 1\n", "RLKL601", "/claims/0", 2),
        ("claims:\n  - id: A B\n    says: x {y}\n", "RLKL601", "/claims/0/id", 2),
        ("claims:\n  - id: a\n    says: ratio 1.4 is {y}\n", "RLKL602", "/claims/0/says", 3),
        (
            "claims:\n  - {id: a, says: 'x {y}'}\n  - {id: a, says: 'z {w}'}\n",
            "RLKL603",
            "/claims/1",
            3,
        ),
        (
            "claims:\n  - id: a\n    says: x {y}\n    where: {z: '1'}\n",
            "RLKL604",
            "/claims/0/where/z",
            4,
        ),
        (
            "claims:\n  - id: a\n    says: x {y}\n    where: {y: 'import os'}\n",
            "RLKL606",
            "/claims/0/where/y",
            4,
        ),
        ("claims:\n  - id: a\n    says: x {pi}\n", "RLKL610", "/claims/0/says", 3),
        ("lesson: other-lesson\n", "RLKL609", "/lesson", 1),
        (
            "claims:\n  - id: a\n    in: /engineeringExample\n    says: no such {y} sentence\n"
            "    holds: ['y > 0']\n",
            "RLKL607",
            "/claims/0/says",
            4,
        ),
        (
            "claims:\n  - id: a\n    in: /engineeringExample\n    says: 'ratio is {r}.'\n"
            "    where: {r: 'nothing_known * 2'}\n",
            "RLKL608",
            "/claims/0/where/r",
            5,
        ),
        ("a: &x [1]\nb: *x\n", "RLKL601", "", 2),
        ("foo: " + "9" * 4301 + "\n", "RLKL601", "", 1),
        ("foo: " + "[" * 3000 + "]" * 3000 + "\n", "RLKL601", "", 1),
        ("claims:\n  - id: a\n    says: x {__class__}\n", "RLKL610", "/claims/0/says", 3),
        (
            "claims:\n  - id: a\n    in: /check/question\n"
            "    says: 'For advantage {A} and ratio {r}, what'\n"
            "    holds: ['[A, r]']\n",
            "RLKL421",
            "/claims/0/holds/0",
            5,
        ),
        (
            "claims:\n  - id: a\n    in: /engineeringExample\n    says: 'ratio is {r}.'\n"
            "    where: {r: '1.5'}\n",
            "RLKL611",
            "/claims/0/where/r",
            5,
        ),
        (
            "claims:\n  - id: a\n    in: /engineeringExample\n"
            "    says: 'current probability {p_new} and'\n",
            "RLKL612",
            "/claims/0/says",
            4,
        ),
    ],
)
def test_binding_mistakes_are_located(
    tmp_path: Path, yaml: str, code: str, pointer: str, line: int
) -> None:
    space = Workspace.copy(tmp_path)
    space.path(name="claims.yaml").write_text(yaml, encoding="utf-8")
    result = space.check()
    hits = find(result, code, pointer)
    assert hits, [(d.code, d.pointer, d.line, d.message) for d in result.diagnostics]
    assert hits[0].file.endswith(f"{SEED}/claims.yaml")
    assert hits[0].line == line


def test_broken_bindings_do_not_flood_with_unaccounted_numbers(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.path(name="claims.yaml").write_text("claims: [\n", encoding="utf-8")
    codes = {d.code for d in space.check().diagnostics}
    assert "RLKL601" in codes and "RLKL410" not in codes


def test_uncomputable_output_is_reported_once_at_its_number(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    offset = space.edit("KL([0.7,0.3] ||", "KL([0.7,0.6] ||")
    result = space.check()
    hits = [d for d in result.diagnostics if d.code == "RLKL421"]
    assert [(d.pointer, d.file.endswith("lesson.json")) for d in hits] == [
        ("/engineeringExample", True)
    ]
    assert "p does not sum to 1" in hits[0].message, hits[0].message
    assert hits[0].column > offset  # at the KL value the author wrote, not in claims.yaml
    assert not [d for d in result.diagnostics if d.code == "RLKL608"]  # no cascade


def test_bom_in_bindings_is_refused_like_in_lessons(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    path = space.path(name="claims.yaml")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert find(space.check(), "RLKL601", "")


def test_distractor_index_must_name_a_wrong_option(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    path = space.path(name="claims.yaml")
    path.write_text(
        path.read_text(encoding="utf-8").replace('"2": abs', '"3": abs'), encoding="utf-8"
    )
    hits = find(space.check(), "RLKL613", "/quiz/distractors/3")
    assert hits and "not an option" in hits[0].message
