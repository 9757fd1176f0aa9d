"""Planted faults in a copy of the kl-direction-estimators lesson: each is caught where it is.

Every case edits one piece of text in a throw-away copy of the lesson (with the corpus
catalog next to it), runs ``rlkl check --format json`` through click's CliRunner, and
expects exit code 1 with a diagnostic of the given code, at the given JSON pointer, at the
line and column of the edited text, whose message names what was computed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rlkl.cli import main
from tests.claims.helpers import copy_lesson, position

LESSON = "kl-direction-estimators"


def _check(folder: Path) -> tuple[int, list[dict]]:
    result = CliRunner().invoke(main, ["check", str(folder), "--format", "json"])
    return result.exit_code, json.loads(result.output)["diagnostics"]


# (id, old text, new text, code, pointer, text the diagnostic points at, words in the message)
FAULTS = [
    (
        "sd-k2-computed",
        "0.388281, 0.033849 and",
        "0.388281, 0.033894 and",
        "RLKL401",
        "/engineeringExample",
        "0.033894 and",
        ["sd_k2", 'estimator="k2"', "= 0.033849", "6 decimals written", "not 0.033894"],
    ),
    (
        "k1-sign-dropped",
        "and −0.510826, k2",
        "and 0.510826, k2",
        "RLKL401",
        "/engineeringExample",
        "0.510826, k2",
        ["k1_second", "= -0.510826", "not 0.510826"],
    ),
    (
        "kl-reverse-value",
        "is 0.087177 nats",
        "is 0.082283 nats",
        "RLKL401",
        "/engineeringExample",
        "0.082283 nats. Under",
        [
            "kl_divergence(p_new, p_old)",
            "p_new = [0.5, 0.5], p_old = [0.7, 0.3]",
            "= 0.087177",
            "not 0.082283",
        ],
    ),
    (
        "sample-mean-k3-as-exact",
        "and 0.084595 for",
        "and 0.082283 for",
        "RLKL401",
        "/engineeringExample",
        '0.082283 for k1, k2 and k3."',
        [
            'sampled_approx_kl(p_old, p_new, n_samples, seed, "k3")',
            "seed = 0",
            "= 0.084595",
            "not 0.082283",
        ],
    ),
    (
        "seed-input-changed",
        "With seed 0 and",
        "With seed 1 and",
        "RLKL401",
        "/engineeringExample",
        "678 times",
        ["sampled_counts(p_old, n_samples, seed)", "seed = 1", "= 687", "not 678"],
    ),
    (
        "count-wrong",
        "drawn 678 times",
        "drawn 679 times",
        "RLKL401",
        "/engineeringExample",
        "679 times",
        ["sampled_counts(p_old, n_samples, seed)", "seed = 0", "= 678", "not 679"],
    ),
    (
        "kl-literal-disagrees",
        "KL([0.7,0.3]‖[0.5,0.5])",
        "KL([0.6,0.4]‖[0.5,0.5])",
        "RLKL420",
        "/engineeringExample",
        "0.6,0.4]‖",
        ["p_old", "must agree"],
    ),
    (
        "question-input-disagrees",
        "π_new = [0.5,0.5]. As",
        "π_new = [0.4,0.6]. As",
        "RLKL420",
        "/check/question",
        "0.4,0.6]. As",
        ["p_new", "0.5, 0.5", "0.4, 0.6", "must agree"],
    ),
    (
        "answer-key-moved",
        '"answer": 0,',
        '"answer": 1,',
        "RLKL406",
        "/check/options/1",
        "0.087177 nats, because samples",
        ['estimator="k3"', "= 0.082283", "not 0.087177"],
    ),
    (
        "distractor-is-answer",
        "0.078766 nats, because k3",
        "0.082283 nats, because k3",
        "RLKL407",
        "/check/options/2",
        "0.082283 nats, because k3",
        ["is not", 'estimator="k3"'],
    ),
    (
        "misconception-is-answer",
        "conclude: 0.087177",
        "conclude: 0.082283",
        "RLKL408",
        "/misconception",
        "0.082283 nats, because the KL",
        ["must be wrong"],
    ),
    (
        "explanation-reverse-wrong",
        "The value 0.087177 is",
        "The value 0.078766 is",
        "RLKL401",
        "/check/explanation",
        "0.078766 is the reversed",
        ["kl_reverse", "not 0.078766"],
    ),
    (
        "unaccounted-number",
        "and non-negative samples,",
        "and non-negative samples (2 of 2),",
        "RLKL410",
        "/tradeoff",
        "2 of 2",
        ["not accounted for"],
    ),
]


def test_shipped_lesson_checks_clean(tmp_path: Path) -> None:
    code, diagnostics = _check(copy_lesson(tmp_path, LESSON))
    assert (code, diagnostics) == (0, [])


@pytest.mark.parametrize(
    ("old", "new", "code", "pointer", "at", "words"),
    [pytest.param(*case[1:], id=case[0]) for case in FAULTS],
)
def test_planted_fault_is_caught(
    tmp_path: Path, old: str, new: str, code: str, pointer: str, at: str, words: list[str]
) -> None:
    folder = copy_lesson(tmp_path, LESSON)
    lesson = folder / "lesson.json"
    text = lesson.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur once"
    edited = text.replace(old, new)
    lesson.write_text(edited, encoding="utf-8")

    exit_code, diagnostics = _check(folder)

    assert exit_code == 1
    line, column = position(edited, at)
    hits = [
        d
        for d in diagnostics
        if d["code"] == code
        and d["pointer"] == pointer
        and (d["line"], d["column"]) == (line, column)
    ]
    assert hits, f"no {code} at {pointer} {line}:{column}; got " + "; ".join(
        f"{d['code']} {d['pointer']} {d['line']}:{d['column']} {d['message']}" for d in diagnostics
    )
    message = hits[0]["message"]
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert all(d["file"].endswith(f"{LESSON}/lesson.json") for d in hits)


def test_exempt_constant_must_keep_its_value(tmp_path: Path) -> None:
    folder = copy_lesson(tmp_path, LESSON)
    edited = (folder / "lesson.json").read_text(encoding="utf-8")
    (folder / "lesson.json").write_text(edited.replace("(r − 1)", "(r − 7)", 1), encoding="utf-8")
    code, diagnostics = _check(folder)
    assert code == 1
    assert [d["code"] for d in diagnostics if d["code"] == "RLKL412"] == ["RLKL412"]
