"""Planted faults in copies of the seed lesson: each is caught at the right place.

Every claim form and every field that holds numbers has a fault here. Each case names the
edit, the code and pointer expected, and the text at which the diagnostic must point
(its line and column are checked against the edited file).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.claims.helpers import Workspace, column_of, find

# (id, old, new, code, pointer, text the diagnostic points at, words the message must hold)
FAULTS = [
    (
        "ratio-wrong",
        "ratio is 1.4. With",
        "ratio is 1.5. With",
        "RLKL401",
        "/engineeringExample",
        "1.5. With",
        ["ppo_ratio_from_probs(0.7, 0.5)", "= 1.4", "1 decimal written", "not 1.5"],
    ),
    (
        "kl-fifth-decimal",
        "is 0.082283 nats",
        "is 0.082293 nats",
        "RLKL401",
        "/engineeringExample",
        "0.082293",
        ["kl_divergence", "0.082283", "6 decimals written"],
    ),
    (
        "kl-unit-wrong",
        "is 0.082283 nats",
        "is 0.082283 bits",
        "RLKL401",
        "/engineeringExample",
        "0.082283 bits",
        ["base=unit", "unit = 2", "0.118709"],
    ),
    (
        "binding-sentence-gone",
        "current probability 0.7",
        "new probability 0.7",
        "RLKL607",
        "/claims/0/says",
        None,
        ["is not in /engineeringExample"],
    ),
    (
        "objective-wrong",
        "=2.4. For",
        "=2.5. For",
        "RLKL401",
        "/engineeringExample",
        "2.5. For",
        ["ppo_clip_objective(1.4, 2, 0.2)", "not 2.5"],
    ),
    (
        "negative-min-wrong",
        "min(−2.8,−2.4)=−2.8",
        "min(−2.8,−2.4)=−2.4",
        "RLKL401",
        "/engineeringExample",
        "−2.4. The",
        ["ppo_clip_objective", "not −2.4"],
    ),
    (
        "raw-branch-wrong",
        "min(−2.8,−2.4)",
        "min(−2.6,−2.4)",
        "RLKL401",
        "/engineeringExample",
        "−2.6",
        ["1.4 * -2", "not −2.6"],
    ),
    (
        "upper-clip-wrong",
        "1.2×2)=2.4",
        "1.3×2)=2.4",
        "RLKL401",
        "/engineeringExample",
        "1.3×2",
        ["1 + 0.2", "not 1.3"],
    ),
    (
        "negative-claim-false",
        "nats, not 0.2 and",
        "nats, not 0.08 and",
        "RLKL404",
        "/engineeringExample",
        "0.08 and",
        ["is not", "0.08"],
    ),
    (
        "ratio-restated-wrong",
        "not the ratio 1.4.",
        "not the ratio 1.3.",
        "RLKL401",
        "/engineeringExample",
        "1.3.",
        ["not 1.3"],
    ),
    (
        "answer-key-moved",
        '"answer":0',
        '"answer":1',
        "RLKL406",
        "/check/options/1",
        '−2.4, because all ratios are always forcibly clamped.","+2.4',
        ["answer", "not −2.4"],
    ),
    (
        "distractor-is-answer",
        "+2.4, because reward",
        "−2.8, because reward",
        "RLKL407",
        "/check/options/2",
        "−2.8, because reward",
        ["is not"],
    ),
    (
        "misconception-is-answer",
        "conclude: −2.4",
        "conclude: −2.8",
        "RLKL408",
        "/misconception",
        "−2.8",
        ["must be wrong"],
    ),
    (
        "misconception-no-distractor",
        "conclude: −2.4",
        "conclude: −3.1",
        "RLKL408",
        "/misconception",
        "−3.1",
        ["equal the distractor it explains (−2.4 at /check/options/1)"],
    ),
    (
        "explanation-key-wrong",
        '"explanation":"−2.8',
        '"explanation":"−2.9',
        "RLKL406",
        "/check/explanation",
        "−2.9",
        ["not −2.9"],
    ),
    (
        "question-input-changed",
        "ratio 1.4, what",
        "ratio 1.0, what",
        "RLKL406",
        "/check/options/0",
        "−2.8, because the",
        ["ppo_clip_objective(1, -2, 0.2)"],
    ),
    (
        "unaccounted-description",
        "PPO is worked here only.",
        "PPO is worked here only, 3 times.",
        "RLKL410",
        "/description",
        "3 times",
        ["not accounted for"],
    ),
    (
        "unaccounted-mechanism",
        "Retain the identity",
        "Retain the 2 identities",
        "RLKL410",
        "/mechanism/0",
        "2 identities",
        ["not accounted for"],
    ),
    (
        "unaccounted-specs",
        "Learning mode",
        "Learning mode 2",
        "RLKL410",
        "/specs/0/label",
        '2"',
        ["not accounted for"],
    ),
    (
        "unaccounted-tradeoff",
        "measured policy drift.",
        "measured policy drift 5 times.",
        "RLKL410",
        "/tradeoff",
        "5 times",
        ["not accounted for"],
    ),
    (
        "unaccounted-science-assumptions",
        '"assumptions":"One sampled-action',
        '"assumptions":"One of 4 sampled-action',
        "RLKL410",
        "/science/0/assumptions",
        "4 sampled",
        ["not accounted for"],
    ),
    (
        "kl-zero-mass",
        "KL([0.7,0.3] || [0.5,0.5])",
        "KL([0.7,0.3] || [1.0,0.0])",
        "RLKL401",
        "/engineeringExample",
        "0.082283",
        ["inf"],
    ),
    (
        "input-disagrees",
        "current probability 0.7 and advantage +2, ratio is 1.4. With epsilon "
        "0.2, PPO’s contribution is min(1.4×2,1.2×2)=2.4. For advantage −2 it is min(−2.8,−2.4)"
        "=−2.8. The sign determines which incentive is clipped. Separately, KL([0.7,0.3] || "
        '[0.5,0.5]) is 0.082283 nats, not 0.2 and not the ratio 1.4.","assumptions',
        "current probability 0.6 and advantage +2, ratio is 1.4. With epsilon "
        "0.2, PPO’s contribution is min(1.4×2,1.2×2)=2.4. For advantage −2 it is min(−2.8,−2.4)"
        "=−2.8. The sign determines which incentive is clipped. Separately, KL([0.7,0.3] || "
        '[0.5,0.5]) is 0.082283 nats, not 0.2 and not the ratio 1.4.","assumptions',
        "RLKL420",
        "/science/0/explanation",
        "0.6 and advantage",
        ["p_new", "must agree"],
    ),
    (
        "arithmetic-evidence",
        "Mode: worked example.",
        "Mode: worked example, 0.5×2=1.5.",
        "RLKL403",
        "/evidenceNotes",
        "1.5.",
        ["0.5×2 = 1.0", "not 1.5"],
    ),
    (
        "exempt-sentence-gone",
        "423 parameters",
        "423 params",
        "RLKL410",
        "/specs/0/context",
        "423",
        ["not accounted for"],
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "code", "pointer", "at", "words"),
    [pytest.param(*case[1:], id=case[0]) for case in FAULTS],
)
def test_planted_fault_is_located(
    tmp_path: Path, old: str, new: str, code: str, pointer: str, at: str | None, words: list[str]
) -> None:
    space = Workspace.copy(tmp_path)
    offset = space.edit(old, new)
    result = space.check()
    assert result.summary()["errors"] >= 1
    hits = find(result, code, pointer)
    assert hits, (
        f"no {code} at {pointer}: {[(d.code, d.pointer, d.message) for d in result.diagnostics]}"
    )
    if at is not None:
        text = space.read()
        start = offset if at in text[offset:] else 0
        assert (hits[0].line, hits[0].column) == column_of(text, at, start=start)
        assert hits[0].file.endswith("policy-gradient-kl-control/lesson.json")
    else:
        assert hits[0].file.endswith("claims.yaml")
    for word in words:
        assert any(word in h.message for h in hits), (word, [h.message for h in hits])


def test_at_least_twenty_faults() -> None:
    assert len(FAULTS) >= 20


def test_zero_mass_kl_is_reported_as_infinite(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.edit("KL([0.7,0.3] || [0.5,0.5])", "KL([0.7,0.3] || [1.0,0.0])")
    messages = [d.message for d in space.check().diagnostics]
    assert any("= inf" in m for m in messages), messages


def test_fixture_problems(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    fixture = space.read(name="fixtures.json")
    space.path(name="fixtures.json").write_text(
        fixture.replace('"computed": 1.4', '"computed": 1.5', 1), encoding="utf-8"
    )
    assert find(space.check(), "RLKL504", "/engineeringExample")
    space.path(name="fixtures.json").write_text(
        fixture.replace('"id": "ppo-ratio.ratio@/engineeringExample"', '"id": "gone"', 1),
        encoding="utf-8",
    )
    result = space.check()
    ids = [c["id"] for c in json.loads(fixture)["claims"]]
    index = ids.index("ppo-ratio.ratio@/engineeringExample")
    assert [d.pointer for d in result.diagnostics if d.code == "RLKL503"] == [f"/claims/{index}"]
    assert find(result, "RLKL502", "/engineeringExample")
    space.path(name="fixtures.json").unlink()
    assert find(space.check(), "RLKL501", "")


def test_broken_fixture_file_is_located(tmp_path: Path) -> None:
    space = Workspace.copy(tmp_path)
    space.path(name="fixtures.json").write_text('{"format": 1,}', encoding="utf-8")
    result = space.check()
    assert any(
        d.file.endswith("fixtures.json") and d.code.startswith("RLKL1") for d in result.diagnostics
    )
