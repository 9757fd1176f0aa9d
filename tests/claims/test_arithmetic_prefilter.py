"""Recognising ``<literal expression> = <number>`` skips starts that cannot parse as a
literal expression (past variable words; sources with a string or unpaired brackets); it must
find exactly what parsing every start finds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlkl.claims.evaluation import expr
from rlkl.claims.forms import recognise
from rlkl.claims.prose.scanner import scan

CONTENT = Path(__file__).resolve().parents[2] / "content"

TRICKY = [
    "the ratio is min(1.4×2,1.2×2)=2.4 and the gap 0.3+0.2 = 0.5",
    "so ratio clip(1.4, 0.8, 1.2) = 1.2 while pi*2 = 6.283185",
    "word 1.e1 + 2 = 12, and x.real + 1 = 2 here",
    "a string 'ratio' + 1 = 2; a comment 1 + 1 # note = 2",
    "unicode ﬁrst 2×3 = 6, étude 1+2 = 3, ｍin(1, 2) = 1",
    "lambda x: 1 + 2 = 3 and 1 if ratio else 2 = 2 and (1 + 2) = 3",
    "mean([1, 2, 3]) ≈ 2 but not mean([1, 2]) = 1.5 after ratio_2 * 3 = 6",
    "the paper's (1 + 2)×3 = 9, it's [0.5, 2) so 0.5 = 0.5 and 2) + (1 = 3",
    "don't (2+3 = 5 but 1 + 1 # it's = 2 and \"a\" + 1 = 2, max(1, (2) = 2",
    "so =2 ×3 = 6, and 1 + 2 = 3 or not 2 = 2, is 1 = 1 if 2 else 3 = 3; None + 1 = 2",
    "True + 1 = 2 but (1 in [1]) + 1 = 2, lambda: 1 + 1 = 2, match + 1 = 2, ~1 + 3 = 2",
    "the paper's ratio 1.4×2 = 2.8 and it's 'x' + 1 = 2 or ('a' 1 + 1 = 2",
    "it's 1 + 1 # and so = 2, the model's min(1, 2) = 1 and \"q\" max(1,2) = 2",
]


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _prose() -> list[str]:
    lessons = sorted(CONTENT.glob("*/lesson.json"))
    found = [s for p in lessons for s in _strings(json.loads(p.read_text("utf-8")))]
    return [s for s in found if "=" in s or "≈" in s] + TRICKY


@pytest.mark.parametrize("text", _prose())
def test_prefilter_finds_what_parsing_every_start_finds(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    mentions = scan("/x", text)
    fast = [(a.source, a.start, a.result) for a in recognise.arithmetic(text, mentions)]
    monkeypatch.setattr(recognise, "_first_start", lambda text, low, high: low)
    monkeypatch.setattr(recognise, "_never_arithmetic", lambda source: False)
    reference = [(a.source, a.start, a.result) for a in recognise.arithmetic(text, mentions)]
    assert fast == reference


def test_prefilter_skips_past_variable_words_and_keywords() -> None:
    text = "the zebra is min(1.4×2,1.2×2)"  # "is" is a Python keyword, "min" a function
    assert "zebra" not in recognise._harmless_words() and "is" not in recognise._harmless_words()
    assert recognise._first_start(text, 0, len(text)) == text.index(" min")
    # past a quote: each source that holds one holds no comment, so it is ruled out unparsed
    assert recognise._first_start("a 'b' min(1)", 0, 12) == 5
    assert recognise._first_start("a 'b' #min(1)", 0, 13) == 0  # a comment: parsing decides
    assert recognise._first_start("a 'b' \\min(1)", 0, 13) == 0


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="12.+-×()[]{}'\"#\\ ab,=*/<%:", min_size=1, max_size=14))
def test_a_source_ruled_out_is_never_a_literal_expression(source: str) -> None:
    if not recognise._never_arithmetic(source):
        return
    try:
        tree = expr.parse(source)
    except expr.ExprError:
        return
    assert not expr.is_arithmetic(tree), source
